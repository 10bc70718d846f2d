"""The x86 inliner hooks (LLVM 19.1.7 ``lib/Target/X86/X86TargetTransformInfo.cpp``
``areInlineCompatible`` with ``InlineFeatureIgnoreList`` of ``X86TargetTransformInfo.h``;
the subtarget features of ``X86Subtarget::initSubtargetFeatures`` and ``X86.td``).

What: a function's subtarget features are its processor's (``target-cpu``, else
``generic``) with ``+sse2`` first on a 64-bit triple, then its ``target-features``
(``+evex512`` added after them for a default processor given an AVX-512 feature), each
with all it implies (:mod:`.inline_cost_target_x86_table`). Leaving the ignored
features out, a callee may be inlined when its features equal the caller's; when they
are a proper subset, only if no call in the callee would change how it passes vectors
or aggregates: every such call (not inline asm, not an intrinsic) must be direct, and
the caller and that function must be ABI compatible for those types
(:func:`.target_call_abi.are_types_abi_compatible`). Switch clusters are
:mod:`.inline_cost_target_basic`'s, with no jump tables under retpolines.

The tuning flags that count come from ``tune-cpu`` when the function has one.

What it does not do: an unknown processor has no features (LLVM also warns about it).
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.analysis.inline_cost_target_x86_table import (
    X86_CPUS,
    X86_FEATURE_NAMES,
    X86_IMPLIES,
    X86_INLINE_IGNORED,
)
from llvmpy_mid.analysis.subtarget_features import FeatureTable, function_cpu, function_feature_flags
from llvmpy_mid.analysis.target_call_abi import are_types_abi_compatible
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.types import ArrayType, StructType, Type, VectorType

X86_FEATURES = FeatureTable(
    {name: tuple(X86_IMPLIES.get(name, "").split()) for name in X86_FEATURE_NAMES},
    {cpu: tuple(names.split()) for cpu, names in X86_CPUS.items()},
)
_DEFAULT_CPUS = ("generic", "pentium4", "x86-64")
#: The tuning flags outside the ignore list: they follow ``tune-cpu`` when a function has one.
_TUNING = frozenset((
    "sbb-dep-breaking", "fast-movbe", "fast-imm16", "fast-7bytenop", "prefer-no-gather", "prefer-no-scatter",
    "prefer-movmsk-over-vtest", "branch-hint",
))  # fmt: skip


def _is_64bit(fn: Function) -> bool:
    module = fn.parent
    return module is not None and module.target_triple.startswith(("x86_64", "amd64"))


def x86_subtarget_features(fn: Function) -> frozenset[str]:
    """``fn``'s x86 subtarget features (``X86Subtarget::initSubtargetFeatures``)."""
    cpu = function_cpu(fn) or "generic"
    flags = function_feature_flags(fn)
    text = fn.attributes.fn_attrs.string_value("target-features") or ""
    if cpu in _DEFAULT_CPUS and "+evex512" not in text and "-evex512" not in text:
        no_f = len(text) - 8 if text.endswith("-avx512f") else text.rfind("-avx512f,")
        any_avx512 = text.rfind("+avx512")
        if any_avx512 >= 0 and (no_f < 0 or no_f < any_avx512):
            flags.append("+evex512")
    if _is_64bit(fn):
        flags = ["+sse2"] + flags
    tune = fn.attributes.fn_attrs.string_value("tune-cpu")
    bits = set(X86_FEATURES.cpu_features(cpu))
    if tune is not None:
        bits = (bits - _TUNING) | (X86_FEATURES.cpu_features(tune) & _TUNING)
    X86_FEATURES.apply(bits, flags)
    return frozenset(bits)


def _inline_bits(fn: Function) -> frozenset[str]:
    return x86_subtarget_features(fn) - X86_INLINE_IGNORED


def _is_simple(ty: Type) -> bool:
    return not isinstance(ty, (VectorType, StructType, ArrayType))


class X86InlinerHooks(BasicInlinerHooks):
    """``X86TTIImpl``'s inliner hooks."""

    def are_jts_allowed(self, fn: Function) -> bool:
        bits = x86_subtarget_features(fn)
        if "retpoline-indirect-branches" in bits or "lvi-cfi" in bits:
            return False
        return super().are_jts_allowed(fn)

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        have = _inline_bits(caller)
        want = _inline_bits(callee)
        if have == want:
            return True
        if not want <= have:
            return False
        for bb in callee.blocks:
            for inst in bb:
                if not isinstance(inst, CallBase) or inst.is_inline_asm_call:
                    continue
                types = [a.type for a in inst.args]
                if not inst.type.is_void:
                    types.append(inst.type)
                if all(_is_simple(t) for t in types):
                    continue
                nested = inst.called_function
                if nested is None:
                    return False
                if nested.is_intrinsic:
                    continue
                if not are_types_abi_compatible(caller, nested, types):
                    return False
        return True
