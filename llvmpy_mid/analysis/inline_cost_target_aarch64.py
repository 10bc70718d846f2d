"""The inliner's AArch64 hooks (LLVM 19.1.7 ``lib/Target/AArch64/AArch64TargetTransformInfo.cpp``:
``areInlineCompatible``, ``getInlineCallPenalty``; the SME attribute rules of
``lib/Target/AArch64/Utils/AArch64SMEAttributes.cpp``; the switch estimate of
``BasicTTIImplBase`` with ``AArch64Subtarget``'s minimum jump-table entries).

What: :class:`SMEAttrs` reads a function's or a call's streaming mode
(``aarch64_pstate_sm_enabled`` / ``_compatible`` / ``_body``) and ZA / ZT0 state
(``aarch64_{in,out,inout,preserves,new}_{za,zt0}``, plus the SME ABI routines by name) and
says when a call changes the streaming mode, needs a lazy ZA save or must preserve ZT0.
:class:`AArch64InlinerHooks` refuses to inline a callee with new ZA state, or a callee
whose body holds calls to inline asm, intrinsics or SME ABI routines into a caller whose call
would change PSTATE.SM, save ZA lazily or preserve ZT0; else the callee's target features
must be a subset of the caller's. A call that changes the streaming mode costs 5 call
penalties when its caller is the function being analysed, 10 when it comes from an inlined
body whose own call would change the mode too. Switches count as LLVM's code generator
would lower them (bit tests, jump tables of at least 13 entries, 4 under ``minsize``).

What it does not do: CPU feature sets (every CPU is taken to have ``generic``'s features,
and a callee whose ``target-cpu`` is neither empty, ``generic`` nor the caller's is
refused); implications beyond the common features (:data:`IMPLIED_FEATURES`);
CPU-specific jump-table minimums.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.inline_cost import option_int, option_is_set
from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst

if TYPE_CHECKING:
    from llvmpy_mid.ir.attribute_list import AttributeList
    from llvmpy_mid.ir.instructions.terminators import SwitchInst

MIN_JUMP_TABLE_ENTRIES_MINSIZE = 4
"""The generic CPU's minimum jump-table entries, kept under ``minsize`` unless
``-aarch64-min-jump-table-entries`` (13) is given."""

# ZA / ZT0 states (``SMEAttrs::StateValue``).
_NONE, _IN, _OUT, _INOUT, _PRESERVED, _NEW = range(6)
_SHARED = (_IN, _OUT, _INOUT, _PRESERVED)
_STATE_ATTRS = (("in", _IN), ("out", _OUT), ("inout", _INOUT), ("preserves", _PRESERVED), ("new", _NEW))

_SME_ABI_ROUTINES = ("__arm_sme_state", "__arm_tpidr2_save", "__arm_tpidr2_restore", "__arm_za_disable")


class SMEAttrs:
    """A function's or a call's SME interface (LLVM ``SMEAttrs``)."""

    __slots__ = ("sm_enabled", "sm_compatible", "sm_body", "abi_routine", "za", "zt0")

    def __init__(self) -> None:
        self.sm_enabled = False
        self.sm_compatible = False
        self.sm_body = False
        self.abi_routine = False
        self.za = _NONE
        self.zt0 = _NONE

    @classmethod
    def of_attributes(cls, attrs: AttributeList) -> SMEAttrs:
        out = cls()
        out._add_attributes(attrs)
        return out

    @classmethod
    def of_function(cls, fn: Function) -> SMEAttrs:
        return cls.of_attributes(fn.attributes)

    @classmethod
    def of_call(cls, call: CallBase) -> SMEAttrs:
        """The call site's attributes, with the called function's and its ABI-routine name's."""
        out = cls.of_attributes(call.attributes)
        fn = call.called_function
        if fn is not None:
            out._add_attributes(fn.attributes)
            out._add_name(fn.name)
        return out

    def _add_attributes(self, attrs: AttributeList) -> None:
        self.sm_enabled |= attrs.has_fn_attr("aarch64_pstate_sm_enabled")
        self.sm_compatible |= attrs.has_fn_attr("aarch64_pstate_sm_compatible")
        self.sm_body |= attrs.has_fn_attr("aarch64_pstate_sm_body")
        for word, state in _STATE_ATTRS:
            if attrs.has_fn_attr("aarch64_%s_za" % word):
                self.za |= state
            if attrs.has_fn_attr("aarch64_%s_zt0" % word):
                self.zt0 |= state

    def _add_name(self, name: str) -> None:
        if name in ("__arm_tpidr2_save", "__arm_sme_state"):
            self.sm_compatible = True
            self.abi_routine = True
        elif name == "__arm_tpidr2_restore":
            self.sm_compatible = True
            self.za |= _IN
            self.abi_routine = True
        elif name in ("__arm_sc_memcpy", "__arm_sc_memset", "__arm_sc_memmove", "__arm_sc_memchr"):
            self.sm_compatible = True

    # --- streaming mode ---
    def has_streaming_interface_or_body(self) -> bool:
        return self.sm_enabled or self.sm_body

    def has_non_streaming_interface(self) -> bool:
        return not self.sm_enabled and not self.sm_compatible

    def has_non_streaming_interface_and_body(self) -> bool:
        return self.has_non_streaming_interface() and not self.sm_body

    def requires_sm_change(self, callee: SMEAttrs) -> bool:
        """A call from ``self`` to ``callee`` switches PSTATE.SM."""
        if callee.sm_compatible:
            return False
        if self.has_non_streaming_interface_and_body() and callee.has_non_streaming_interface():
            return False
        if self.has_streaming_interface_or_body() and callee.sm_enabled:
            return False
        return True

    # --- ZA and ZT0 ---
    def shares_za(self) -> bool:
        return self.za in _SHARED

    def shares_zt0(self) -> bool:
        return self.zt0 in _SHARED

    def has_private_za_interface(self) -> bool:
        return not (self.shares_za() or self.shares_zt0())

    def has_za_state(self) -> bool:
        return self.za == _NEW or self.shares_za()

    def has_zt0_state(self) -> bool:
        return self.zt0 == _NEW or self.shares_zt0()

    def requires_lazy_save(self, callee: SMEAttrs) -> bool:
        return self.has_za_state() and callee.has_private_za_interface() and not callee.abi_routine

    def requires_preserving_zt0(self, callee: SMEAttrs) -> bool:
        return self.has_zt0_state() and not callee.shares_zt0()


def _has_possible_incompatible_ops(fn: Function) -> bool:
    """A call (not an invoke) to inline asm, an intrinsic other than the debug and pseudo-probe
    ones, or an SME ABI routine: it may not lower in the other streaming mode, or may touch ZA."""
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not isinstance(inst, CallInst):
                continue
            if inst.is_inline_asm_call:
                return True
            callee = inst.called_function
            if callee is None:
                continue
            if callee.is_intrinsic:
                if callee.name.startswith("llvm.dbg.") or callee.name == "llvm.pseudoprobe":
                    continue
                return True
            if callee.name in _SME_ABI_ROUTINES:
                return True
    return False


def subtarget_features(fn: Function) -> set[str]:
    """The ``target-features`` a function turns on, read in order (``-x`` drops ``+x``)."""
    attr = fn.attributes.get_fn_attr("target-features")
    out: set[str] = set()
    if attr is None:
        return out
    for item in attr.value.split(","):
        item = item.strip()
        if item.startswith("+"):
            out.add(item[1:])
        elif item.startswith("-"):
            out.discard(item[1:])
    return out


# ``generic``'s features (what opt-19's AArch64 subtarget turns on without a CPU).
GENERIC_FEATURES = frozenset(
    ("fp-armv8", "neon", "ete", "trbe", "fuse-aes", "fuse-adrp-add", "use-postra-scheduler", "enable-select-opt")
)
# Features each feature turns on (``SubtargetFeature`` implications of ``AArch64Features.td``).
IMPLIED_FEATURES: dict[str, tuple[str, ...]] = {
    "neon": ("fp-armv8",),
    "fullfp16": ("fp-armv8",),
    "fp16fml": ("fullfp16",),
    "jsconv": ("fp-armv8",),
    "sve": ("fullfp16",),
    "sve2": ("sve", "use-scalar-inc-vl"),
    "sve2p1": ("sve2",),
    "sve2-aes": ("sve2", "aes"),
    "sve2-sm4": ("sve2", "sm4"),
    "sve2-sha3": ("sve2", "sha3"),
    "sve2-bitperm": ("sve2",),
    "f32mm": ("sve",),
    "f64mm": ("sve",),
    "sme": ("bf16", "use-scalar-inc-vl"),
    "sme2": ("sme",),
    "sme2p1": ("sme2",),
    "sme-f64f64": ("sme",),
    "sme-i16i64": ("sme",),
    "crypto": ("aes", "sha2"),
    "aes": ("neon",),
    "sha2": ("neon",),
    "sha3": ("sha2",),
    "sm4": ("neon",),
    "dotprod": ("neon",),
    "rdm": ("neon",),
    "complxnum": ("neon",),
    "ete": ("trbe",),
}


def _implied_by() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for feature, implied in IMPLIED_FEATURES.items():
        for other in implied:
            out.setdefault(other, set()).add(feature)
    return out


_IMPLIED_BY = _implied_by()


def _closure(start: str, edges: dict[str, tuple[str, ...]] | dict[str, set[str]]) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        for nxt in edges.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def aarch64_feature_bits(fn: Function) -> set[str]:
    """The subtarget features of ``fn``: the CPU's (``generic``'s for any CPU: no CPU tables),
    then ``target-features`` in order, ``+x`` adding what ``x`` implies and ``-x`` dropping
    what implies ``x`` (LLVM ``SetImpliedBits`` / ``ClearImpliedBits``)."""
    bits = set(GENERIC_FEATURES)
    attr = fn.attributes.get_fn_attr("target-features")
    if attr is None:
        return bits
    for item in attr.value.split(","):
        item = item.strip().lower()
        if item.startswith("+"):
            bits |= _closure(item[1:], IMPLIED_FEATURES)
        elif item.startswith("-"):
            bits -= _closure(item[1:], _IMPLIED_BY)
    return bits


def cpu_allows(caller: Function, callee: Function) -> bool:
    """Without CPU feature tables: the callee's CPU adds nothing to the caller's only when it
    is unset, ``generic`` or the caller's own."""
    attr = callee.attributes.get_fn_attr("target-cpu")
    cpu = "" if attr is None else attr.value
    if cpu in ("", "generic"):
        return True
    mine = caller.attributes.get_fn_attr("target-cpu")
    return mine is not None and mine.value == cpu


class AArch64InlinerHooks(BasicInlinerHooks):
    """``AArch64TTIImpl``'s inliner hooks."""

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        caller_attrs = SMEAttrs.of_function(caller)
        callee_attrs = SMEAttrs.of_function(callee)
        if callee_attrs.sm_body:
            callee_attrs.sm_compatible = False
            callee_attrs.sm_enabled = True
        if callee_attrs.za == _NEW:
            return False
        if (
            caller_attrs.requires_lazy_save(callee_attrs)
            or caller_attrs.requires_sm_change(callee_attrs)
            or caller_attrs.requires_preserving_zt0(callee_attrs)
        ) and _has_possible_incompatible_ops(callee):
            return False
        if not cpu_allows(caller, callee):
            return False
        return aarch64_feature_bits(callee) <= aarch64_feature_bits(caller)

    def get_inline_call_penalty(self, caller: Function, call: CallBase, default: int) -> int:
        f_attrs = SMEAttrs.of_function(caller)
        if f_attrs.requires_sm_change(SMEAttrs.of_call(call)):
            site = call.caller
            if site is caller:
                return option_int("call-penalty-sm-change") * default
            if site is not None and f_attrs.requires_sm_change(SMEAttrs.of_function(site)):
                return option_int("inline-call-penalty-sm-change") * default
        return default

    def get_estimated_number_of_case_clusters(self, si: SwitchInst) -> tuple[int, int]:
        """``BasicTTIImplBase``'s estimate with the subtarget's minimum jump-table entries
        (the subtarget is the switch's function's: ``minsize`` keeps the CPU's 4)."""
        fn = si.parent.parent if si.parent is not None else None
        minsize = fn is not None and fn.attributes.has_fn_attr("minsize")
        if minsize and not option_is_set("aarch64-min-jump-table-entries"):
            self.min_jump_table_entries = MIN_JUMP_TABLE_ENTRIES_MINSIZE
        else:
            self.min_jump_table_entries = option_int("aarch64-min-jump-table-entries")
        return super().get_estimated_number_of_case_clusters(si)
