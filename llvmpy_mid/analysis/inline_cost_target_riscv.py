"""The RISC-V inliner hooks (LLVM 19.1.7 ``lib/Target/RISCV/RISCVTargetTransformInfo.cpp``
``areInlineCompatible``, with the extension implications of ``RISCVFeatures.td``).

What: a callee may be inlined when its subtarget features are a subset of the caller's.
Features are the processor's (``generic-rv32``/``generic-rv64`` when the function names
none or ``generic``) plus ``target-features``, each extension with those it implies
(``v`` brings ``zve64d``, ``d``, ``f``, ``zicsr``, ``zvl128b``...; ``-f`` drops what
implies ``f``), from :mod:`.inline_cost_target_riscv_table`. Switches: jump tables from
5 cases (:mod:`.inline_cost_target_basic`).

What it does not do: the 32-bit vendor processors' feature lists: such a processor is the
generic one plus one opaque feature of its own (its tuning), so it may call a
generic-processor function but not the other way round.
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.analysis.inline_cost_target_riscv_table import RISCV_CPUS, RISCV_FEATURE_NAMES, RISCV_IMPLIES
from llvmpy_mid.analysis.subtarget_features import FeatureTable, function_cpu, function_feature_flags
from llvmpy_mid.ir.function import Function

RISCV_FEATURES = FeatureTable(
    {name: tuple(RISCV_IMPLIES.get(name, "").split()) for name in RISCV_FEATURE_NAMES},
    {"generic-rv32": ("i",), **{cpu: tuple(names.split()) for cpu, names in RISCV_CPUS.items()}},
)


class RISCVInlinerHooks(BasicInlinerHooks):
    """``RISCVTTIImpl``'s inliner hooks."""

    #: ``RISCVSubtarget::getMinimumJumpTableEntries`` (the generic tuning's 5).
    min_jump_table_entries = 5

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        return _bits(callee) <= _bits(caller)


def _bits(fn: Function) -> frozenset[str]:
    module = fn.parent
    is64 = module is not None and module.target_triple.startswith("riscv64")
    generic = "generic-rv64" if is64 else "generic-rv32"
    cpu = function_cpu(fn)
    if cpu in ("", "generic"):
        cpu = generic
    bits = set(RISCV_FEATURES.cpu_features(cpu if cpu in RISCV_FEATURES.cpus else generic))
    if cpu not in RISCV_FEATURES.cpus:
        bits.add("cpu:" + cpu)
    RISCV_FEATURES.apply(bits, function_feature_flags(fn))
    return frozenset(bits)
