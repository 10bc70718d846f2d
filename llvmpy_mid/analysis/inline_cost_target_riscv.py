"""The RISC-V inliner hooks (LLVM 19.1.7 ``lib/Target/RISCV/RISCVTargetTransformInfo.cpp``
``areInlineCompatible``, with the extension implications of ``RISCVFeatures.td``).

What: a callee may be inlined when its subtarget features are a subset of the caller's.
Features are the processor's (``generic-rv32``/``generic-rv64`` when the function names
none or ``generic``) plus ``target-features``, each extension with those it implies
(``v`` brings ``zve64d``, ``d``, ``f``, ``zicsr``, ``zvl128b``...; ``-f`` drops what
implies ``f``).

What it does not do: most vendor processors' feature lists (a few SiFive ones are
listed): a named processor other than the generic ones is also one opaque feature of its
own (its tuning), so it may call a generic-processor function but not the other way round. Switches: jump
tables from 5 cases (:mod:`.inline_cost_target_basic`). Feature names
this table does not list are opaque features of their own (LLVM would ignore an unknown
one).
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.analysis.subtarget_features import FeatureTable, function_cpu, function_feature_flags
from llvmpy_mid.ir.function import Function

_ZVL = [32 << k for k in range(12)]  # zvl32b .. zvl65536b

_IMPLIES: dict[str, tuple[str, ...]] = {
    "64bit": (), "e": (), "i": (), "m": ("zmmul",), "zmmul": (), "a": (), "c": (),
    "zicsr": (), "zifencei": (), "zicntr": ("zicsr",), "zihpm": ("zicsr",), "zicond": (), "zimop": (),
    "zihintntl": (), "zihintpause": (), "zicbom": (), "zicbop": (), "zicboz": (), "zawrs": (),
    "zaamo": (), "zalrsc": (), "zacas": (), "zabha": (), "ztso": (),
    "f": ("zicsr",), "d": ("f",), "zfhmin": ("f",), "zfh": ("zfhmin",), "zfbfmin": ("f",),
    "zfa": ("f",), "zfinx": ("zicsr",), "zdinx": ("zfinx",), "zhinxmin": ("zfinx",), "zhinx": ("zhinxmin",),
    "zca": (), "zcb": ("zca",), "zcd": ("d", "zca"), "zcf": ("f", "zca"), "zcmp": ("zca",),
    "zcmt": ("zca", "zicsr"), "zce": ("zcb", "zcmp", "zcmt"), "zcmop": ("zca",),
    "zba": (), "zbb": (), "zbc": (), "zbs": (), "zbkb": (), "zbkc": (), "zbkx": (),
    "zknd": (), "zkne": (), "zknh": (), "zksed": (), "zksh": (), "zkr": (), "zkt": (),
    "zkn": ("zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh"), "zks": ("zbkb", "zbkc", "zbkx", "zksed", "zksh"),
    "zk": ("zkn", "zkr", "zkt"),
    "zve32x": ("zicsr", "zvl32b"), "zve32f": ("zve32x", "f"), "zve64x": ("zve32x", "zvl64b"),
    "zve64f": ("zve32f", "zve64x"), "zve64d": ("zve64f", "d"), "v": ("zvl128b", "zve64d"),
    "zvfhmin": ("zve32f",), "zvfh": ("zvfhmin", "zfhmin"), "zvfbfmin": ("zve32f",),
    "zvfbfwma": ("zvfbfmin", "zfbfmin"),
    "zvkb": ("zve32x",), "zvbb": ("zvkb",), "zvbc": ("zve64x",), "zvkg": ("zve32x",), "zvkned": ("zve32x",),
    "zvknha": ("zve32x",), "zvknhb": ("zve64x",), "zvksed": ("zve32x",), "zvksh": ("zve32x",), "zvkt": (),
    "zvkn": ("zvkned", "zvknhb", "zvkb", "zvkt"), "zvknc": ("zvkn", "zvbc"), "zvkng": ("zvkn", "zvkg"),
    "zvks": ("zvksed", "zvksh", "zvkb", "zvkt"), "zvksc": ("zvks", "zvbc"), "zvksg": ("zvks", "zvkg"),
    "h": (), "relax": (), "save-restore": (),
}  # fmt: skip
for _k, _n in enumerate(_ZVL):
    _IMPLIES["zvl%db" % _n] = ("zvl%db" % _ZVL[_k - 1],) if _k else ()

RISCV_FEATURES = FeatureTable(
    _IMPLIES,
    {
        "generic-rv32": ("i",),
        "generic-rv64": ("64bit", "i"),
        "sifive-u54": ("64bit", "i", "m", "a", "d", "c", "zifencei"),
        "sifive-u74": ("64bit", "i", "m", "a", "d", "c", "zifencei"),
        "sifive-s76": ("64bit", "i", "m", "a", "d", "c", "zifencei", "zihintpause"),
        "sifive-e76": ("i", "m", "a", "f", "c", "zifencei"),
        "sifive-e31": ("i", "m", "a", "c", "zicsr"),
    },
    keep_unknown=True,
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
    if cpu != generic:
        bits.add("cpu:" + cpu)
    RISCV_FEATURES.apply(bits, function_feature_flags(fn))
    return frozenset(bits)
