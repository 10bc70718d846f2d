"""Capture tracking: may a pointer's address escape? (after LLVM's ``Analysis/CaptureTracking.cpp``)

A pointer is *captured* when some part of its address could become known to code that does
not reach it through its own def-use chain: stored to memory, passed to a call parameter that
is not ``nocapture``, compared with an arbitrary value, converted to an integer ...

:func:`determine_use_capture_kind` classifies one use; :func:`pointer_may_be_captured_by`
walks the uses (through GEPs, casts, phis, selects and aliasing intrinsics) and reports each
capturing use to a :class:`CaptureTracker`, which decides whether to stop. The walk explores
at most ``-capture-tracking-max-uses-to-explore`` uses (100), then reports
``too_many_uses``. :func:`pointer_may_be_captured` is the simple tracker's answer.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantInt, ConstantPointerNull
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.passes.options import OPTIONS

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Use, Value

DEFAULT_MAX_USES_TO_EXPLORE = 100
"""LLVM ``-capture-tracking-max-uses-to-explore``."""

#: Intrinsics returning a pointer that aliases their first argument without capturing it, when
#: null must stay null (LLVM ``isIntrinsicReturningPointerAliasingArgumentWithoutCapturing`` with
#: ``MustPreserveNullness``); ``llvm.threadlocal.address`` is added outside presplit coroutines.
_ALIASING_INTRINSICS = frozenset((
    "llvm.launder.invariant.group",
    "llvm.strip.invariant.group",
    "llvm.aarch64.irg",
    "llvm.aarch64.tagp",
    "llvm.amdgcn.make.buffer.rsrc",
))

_MEM_INTRINSICS = frozenset(("llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.memcpy.inline", "llvm.memset.inline"))


class UseCaptureKind(enum.Enum):
    """How one use relates to its pointer's capture (LLVM ``UseCaptureKind``)."""

    NO_CAPTURE = 0
    MAY_CAPTURE = 1
    PASSTHROUGH = 2  # the user is a new pointer to the same object: follow its uses


class CaptureTracker:
    """The callbacks of a capture walk (LLVM ``CaptureTracker``); subclass and override."""

    def too_many_uses(self) -> None:
        """The walk gave up after exploring the maximum number of uses."""

    def should_explore(self, use: Use) -> bool:
        """Follow ``use`` at all? (all uses by default)"""
        return True

    def captured(self, use: Use) -> bool:
        """``use`` may capture the pointer; return True to stop the walk."""
        return True

    def is_dereferenceable_or_null(self, v: Value, dl: DataLayout) -> bool:
        """Is ``v`` known dereferenceable (when not null)? Then comparing it with null
        reveals nothing of its address."""
        from llvmpy_mid.analysis.loads import get_pointer_dereferenceable_bytes

        return get_pointer_dereferenceable_bytes(v, dl)[0] > 0


class SimpleCaptureTracker(CaptureTracker):
    """Captured at the first capturing use; a return counts only when ``return_captures``."""

    def __init__(self, return_captures: bool) -> None:
        self.return_captures = return_captures
        self.is_captured = False

    def too_many_uses(self) -> None:
        self.is_captured = True

    def captured(self, use: Use) -> bool:
        user = use.user
        if not self.return_captures and isinstance(user, Instruction) and user.opcode == "ret":
            return False
        self.is_captured = True
        return True


def is_aliasing_intrinsic_without_capture(call: CallBase, must_preserve_nullness: bool) -> bool:
    """LLVM ``isIntrinsicReturningPointerAliasingArgumentWithoutCapturing``."""
    base = call.intrinsic_base
    if not base:
        return False
    if base in _ALIASING_INTRINSICS:
        return True
    if base == "llvm.ptrmask":
        return not must_preserve_nullness
    if base == "llvm.threadlocal.address":
        fn = call.function
        return fn is None or not fn.attributes.has_fn_attr("presplitcoroutine")
    return False


def _data_operand_does_not_capture(call: CallBase, index: int) -> bool:
    """``CallBase::doesNotCapture`` on data operand ``index`` (an argument or a bundle input)."""
    if index < call.arg_size:
        return call.param_has_attr(index, "nocapture")
    # bundle inputs: only a deopt bundle's pointer inputs are known not captured
    bundle = call.bundle_of_operand(index)
    return bundle.tag == "deopt" and call.operands[index].type.is_pointer


def determine_use_capture_kind(use: Use, tracker: CaptureTracker | None = None) -> UseCaptureKind:
    """Classify ``use`` of a pointer (LLVM ``DetermineUseCaptureKind``)."""
    i = use.user
    if not isinstance(i, Instruction):
        return UseCaptureKind.MAY_CAPTURE
    op = i.opcode
    if op == "call" or op == "invoke":
        assert isinstance(i, CallBase)
        if i.only_reads_memory and i.does_not_throw and i.type.is_void:
            return UseCaptureKind.NO_CAPTURE
        if is_aliasing_intrinsic_without_capture(i, True):
            return UseCaptureKind.PASSTHROUGH
        if i.intrinsic_base in _MEM_INTRINSICS:
            vol = i.args[3] if i.arg_size > 3 else None
            if isinstance(vol, ConstantInt) and vol.value:
                return UseCaptureKind.MAY_CAPTURE
        k = use.index
        if k == len(i.operands) - 1:  # the callee
            return UseCaptureKind.NO_CAPTURE
        is_data = k < i.arg_size or i.is_bundle_operand(k)
        if is_data and not _data_operand_does_not_capture(i, k):
            return UseCaptureKind.MAY_CAPTURE
        return UseCaptureKind.NO_CAPTURE
    if op == "load":
        return UseCaptureKind.MAY_CAPTURE if getattr(i, "volatile", False) else UseCaptureKind.NO_CAPTURE
    if op == "va_arg":
        return UseCaptureKind.NO_CAPTURE
    if op == "store":
        if use.index == 0 or getattr(i, "volatile", False):
            return UseCaptureKind.MAY_CAPTURE
        return UseCaptureKind.NO_CAPTURE
    if op == "atomicrmw":
        if use.index == 1 or getattr(i, "volatile", False):
            return UseCaptureKind.MAY_CAPTURE
        return UseCaptureKind.NO_CAPTURE
    if op == "cmpxchg":
        if use.index in (1, 2) or getattr(i, "volatile", False):
            return UseCaptureKind.MAY_CAPTURE
        return UseCaptureKind.NO_CAPTURE
    if op == "getelementptr":
        return UseCaptureKind.MAY_CAPTURE if isinstance(i.type, VectorType) else UseCaptureKind.PASSTHROUGH
    if op in ("bitcast", "phi", "select", "addrspacecast"):
        return UseCaptureKind.PASSTHROUGH
    if op == "icmp":
        idx = use.index
        other = i.operands[1 - idx]
        if isinstance(other, ConstantPointerNull):
            from llvmpy_mid.analysis.loads import is_no_alias_call
            from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

            if getattr(other.type, "address_space", 0) == 0 and is_no_alias_call(strip_pointer_casts(use.value)):
                return UseCaptureKind.NO_CAPTURE
            fn = i.function
            if fn is not None and not fn.attributes.has_fn_attr("null_pointer_is_valid") and tracker is not None:
                module = fn.parent
                if module is not None:
                    o = strip_pointer_casts(i.operands[idx])
                    if tracker.is_dereferenceable_or_null(o, module.data_layout):
                        return UseCaptureKind.NO_CAPTURE
        return UseCaptureKind.MAY_CAPTURE
    return UseCaptureKind.MAY_CAPTURE


def default_max_uses_to_explore() -> int:
    """``-capture-tracking-max-uses-to-explore`` (100 unless set; LLVM ``getDefaultMaxUsesToExploreForCaptureTracking``)."""
    if not OPTIONS.is_set("capture-tracking-max-uses-to-explore"):
        return DEFAULT_MAX_USES_TO_EXPLORE
    return int(OPTIONS.value("capture-tracking-max-uses-to-explore"))


def pointer_may_be_captured_by(v: Value, tracker: CaptureTracker, max_uses_to_explore: int = 0) -> None:
    """Walk the uses of pointer ``v``, reporting each capturing use to ``tracker``
    (LLVM ``PointerMayBeCaptured(V, Tracker, MaxUsesToExplore)``)."""
    limit = max_uses_to_explore or default_max_uses_to_explore()
    worklist: list[Use] = []
    visited: set[Use] = set()
    explore_all = type(tracker).should_explore is CaptureTracker.should_explore
    no_capture = UseCaptureKind.NO_CAPTURE
    may_capture = UseCaptureKind.MAY_CAPTURE
    value: Value = v
    while True:
        # add the uses of ``value`` (LLVM's AddUses), walking the use-list directly
        u = value._use_head
        while u is not None:
            if len(visited) >= limit:
                tracker.too_many_uses()
                return
            if u not in visited:
                visited.add(u)
                if explore_all or tracker.should_explore(u):
                    worklist.append(u)
            u = u._next
        while True:
            if not worklist:
                return
            use = worklist.pop()
            user = use.user
            # the common plain loads and stores of the pointer, classified inline
            tp = type(user)
            if tp is LoadInst:
                if not user.volatile:  # type: ignore[attr-defined]
                    continue
                kind = may_capture
            elif tp is StoreInst and use.index == 1 and not user.volatile:  # type: ignore[attr-defined]
                continue
            elif tp is GetElementPtrInst and not isinstance(user.type, VectorType):
                value = user
                break
            else:
                kind = determine_use_capture_kind(use, tracker)
            if kind is no_capture:
                continue
            if kind is may_capture:
                if tracker.captured(use):
                    return
                continue
            value = user  # PASSTHROUGH: follow the user's uses
            break


def pointer_may_be_captured(v: Value, return_captures: bool = False, store_captures: bool = True,
                            max_uses_to_explore: int = 0) -> bool:
    """May the address ``v`` escape? (LLVM ``PointerMayBeCaptured`` with the simple tracker;
    ``store_captures`` is accepted and, as in LLVM 19, not used.)"""
    tracker = SimpleCaptureTracker(return_captures)
    pointer_may_be_captured_by(v, tracker, max_uses_to_explore)
    return tracker.is_captured


class CapturesBefore(CaptureTracker):
    """Only captures that may happen before ``before_here`` count (at it too when
    ``include_i``); a capturing use that cannot reach ``before_here`` is pruned
    (LLVM's ``CapturesBefore``)."""

    def __init__(self, return_captures: bool, before_here: Instruction, dt: DominatorTree, include_i: bool) -> None:
        self.return_captures = return_captures
        self.before_here = before_here
        self.dt = dt
        self.include_i = include_i
        self.is_captured = False

    def too_many_uses(self) -> None:
        self.is_captured = True

    def _is_safe_to_prune(self, inst: Instruction) -> bool:
        from llvmpy_mid.analysis.cfg import is_potentially_reachable_inst

        if inst is self.before_here:
            return not self.include_i
        bb = inst.parent
        if bb is None or not self.dt.is_reachable(bb):
            return True
        return not is_potentially_reachable_inst(inst, self.before_here, None, self.dt)

    def captured(self, use: Use) -> bool:
        user = use.user
        assert isinstance(user, Instruction)
        if user.opcode == "ret" and not self.return_captures:
            return False
        if self._is_safe_to_prune(user):
            return False
        self.is_captured = True
        return True


def pointer_may_be_captured_before(
    v: Value,
    return_captures: bool,
    store_captures: bool,
    inst: Instruction,
    dt: DominatorTree | None,
    include_i: bool = False,
    max_uses_to_explore: int = 0,
) -> bool:
    """May ``v`` be captured before ``inst`` executes (at ``inst`` too with ``include_i``)?
    Without a dominator tree, any capture counts (LLVM ``PointerMayBeCapturedBefore``)."""
    if dt is None:
        return pointer_may_be_captured(v, return_captures, store_captures, max_uses_to_explore)
    tracker = CapturesBefore(return_captures, inst, dt, include_i)
    pointer_may_be_captured_by(v, tracker, max_uses_to_explore)
    return tracker.is_captured


__all__ = [
    "CapturesBefore",
    "pointer_may_be_captured_before",
    "DEFAULT_MAX_USES_TO_EXPLORE",
    "CaptureTracker",
    "SimpleCaptureTracker",
    "UseCaptureKind",
    "determine_use_capture_kind",
    "is_aliasing_intrinsic_without_capture",
    "pointer_may_be_captured",
    "pointer_may_be_captured_by",
]
