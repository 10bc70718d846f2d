"""The ARM inliner hooks (LLVM 19.1.7 ``lib/Target/ARM/ARMTargetTransformInfo.cpp``
``areInlineCompatible`` with ``InlineFeaturesAllowed`` of ``ARMTargetTransformInfo.h``,
and the feature implications of ``ARMFeatures.td``).

What: a function's subtarget features are its ``target-features`` (plus ``+soft-float``
when it has ``"use-soft-float"="true"``), each with the features it implies
(:mod:`.inline_cost_target_arm_table`). A callee may be inlined when the features
outside the allowed list are exactly the caller's, and the allowed ones (FP and NEON
levels, ``dsp``, ``crc``, ``strict-align``, tuning flags...) are a subset of the
caller's. Switch clusters are :mod:`.inline_cost_target_basic`'s.

For a generic processor, the architecture the triple names (``armv7``, ``thumbv7m``,
``armv8.2a``...) comes first with its features (VFP, NEON, DSP, Thumb-2...), and a Thumb
triple adds ``+thumb-mode``.

What it does not do: processor feature lists: two functions whose ``target-cpu`` differ
(other than ``generic`` against none) are incompatible. The soft-float cost of FP
operations is :mod:`.target_transform_info_arm`'s.
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_cost_target_arm_table import ARM_FEATURE_NAMES, ARM_IMPLIES
from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.analysis.subtarget_features import (
    FeatureTable,
    function_bool_attr,
    function_cpu,
    function_feature_flags,
)
from llvmpy_mid.ir.function import Function

ARM_FEATURES = FeatureTable({name: tuple(ARM_IMPLIES.get(name, "").split()) for name in ARM_FEATURE_NAMES}, {})

#: The architecture feature ``ARM_MC::ParseARMTriple`` puts first for a generic processor.
_TRIPLE_ARCHS = {
    "v6": "armv6", "v6k": "armv6k", "v6t2": "armv6t2", "v6kz": "armv6kz", "v6m": "armv6-m", "v6-m": "armv6-m",
    "v6sm": "armv6s-m", "v7": "armv7-a", "v7a": "armv7-a", "v7-a": "armv7-a", "v7s": "armv7s", "v7k": "armv7k",
    "v7ve": "armv7ve", "v7r": "armv7-r", "v7-r": "armv7-r", "v7m": "armv7-m", "v7-m": "armv7-m",
    "v7em": "armv7e-m", "v7e-m": "armv7e-m", "v8": "armv8-a", "v8a": "armv8-a", "v8-a": "armv8-a",
    "v8r": "armv8-r", "v8m.base": "armv8-m.base", "v8m.main": "armv8-m.main", "v8.1m.main": "armv8.1-m.main",
    **{"v8.%da" % n: "armv8.%d-a" % n for n in range(1, 10)},
    **{"v9a": "armv9-a"},
    **{"v9.%da" % n: "armv9.%d-a" % n for n in range(1, 6)},
}  # fmt: skip


#: ``InlineFeaturesAllowed``: features where the callee's need only be within the caller's.
INLINE_FEATURES_ALLOWED = frozenset((
    "vfp2", "vfp3", "neon", "thumb2", "fp16", "vfp4", "fp-armv8", "fullfp16", "fp16fml", "hwdiv",
    "hwdiv-arm", "db", "v7clrex", "acquire-release", "slow-fp-brcc", "perfmon", "trustzone", "8msecext",
    "crypto", "crc", "ras", "fpao", "fuse-aes", "zcz", "prof-unpr", "slow-vgetlni32", "slow-vdup32",
    "prefer-vmovsr", "prefer-ishst", "muxed-units", "slow-odd-reg", "slow-load-D-subreg",
    "dont-widen-vmovs", "expand-fp-mlx", "vmlx-hazards", "neon-fpmovs", "neonfp", "vldn-align",
    "slowfpvmlx", "slowfpvfmx", "vmlx-forwarding", "32bit", "avoid-partial-cpsr", "cheap-predicable-cpsr",
    "avoid-movs-shop", "ret-addr-stack", "no-branch-predictor", "dsp", "mp", "virtualization", "mclass",
    "rclass", "aclass", "nacl-trap", "strict-align", "long-calls", "execute-only", "reserve-r9", "no-movt",
    "no-neg-immediates",
))  # fmt: skip


def arm_feature_bits(fn: Function) -> frozenset[str]:
    """``fn``'s ARM subtarget features (its processor is one opaque feature unless generic)."""
    bits: set[str] = set()
    cpu = function_cpu(fn)
    if cpu not in ("", "generic"):
        bits.add("cpu:" + cpu)
    flags = function_feature_flags(fn)
    if function_bool_attr(fn, "use-soft-float"):
        flags.append("+soft-float")
    module = fn.parent
    triple = module.target_triple if module is not None else ""
    arch = triple.split("-", 1)[0]
    head: list[str] = []
    version = arch[5:] if arch.startswith("thumb") else arch[3:]
    version = version[2:] if version.startswith("eb") else version
    if cpu in ("", "generic") and version in _TRIPLE_ARCHS:
        head.append("+" + _TRIPLE_ARCHS[version])
    if arch.startswith("thumb"):
        head += ["+thumb-mode", "+v4t"]
    flags = head + flags
    ARM_FEATURES.apply(bits, flags)
    return frozenset(bits)


class ARMInlinerHooks(BasicInlinerHooks):
    """``ARMTTIImpl``'s inliner hooks."""

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        have = arm_feature_bits(caller)
        want = arm_feature_bits(callee)
        if have - INLINE_FEATURES_ALLOWED != want - INLINE_FEATURES_ALLOWED:
            return False
        return (want & INLINE_FEATURES_ALLOWED) <= have
