"""Pointer questions of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp`` ``computePointerICmp``; the base and offset come from
:func:`llvmpy_mid.ir.pointer_casts.strip_and_accumulate_constant_offsets`).

What: the base pointer and constant byte offset a pointer is (through GEPs of
constant indices, bitcasts, address-space casts, non-interposable aliases and
``returned`` call arguments), and the compare of two pointers decided from it:
one base at two known offsets, two distinct allocations (allocas, globals that
cannot be merged, ``byval`` arguments) within their sizes (``getObjectSize`` of
:mod:`llvmpy_mid.analysis.memory_builtins`), or a ``noalias``
call result against such an allocation, or a fresh allocation that does not escape
against any non-null pointer (capture tracking).
"""

from __future__ import annotations

from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.analysis.capture_tracking import CaptureTracker, pointer_may_be_captured_by
from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst
from llvmpy_mid.ir.value import Use, Value

P = Predicate


def _is_alloc_disjoint(v: Value) -> bool:
    if isinstance(v, AllocaInst):
        return v.is_static_alloca
    if isinstance(v, GlobalValue):
        return (
            (v.has_local_linkage or v.visibility.value in ("hidden", "protected") or _global_unnamed_addr(v))
            and str(getattr(v, "thread_local_mode", "")).find("NOT") >= 0
        )
    if isinstance(v, Argument):
        return v.has_attribute("byval")
    return False


def _global_unnamed_addr(v: GlobalValue) -> bool:
    return getattr(v.unnamed_addr, "value", "") == "unnamed_addr"


def _is_byval_arg(v: Value) -> bool:
    return isinstance(v, Argument) and v.has_attribute("byval")


def _have_non_overlapping_storage(a: Value, b: Value) -> bool:
    if _is_byval_arg(a):
        return isinstance(b, (AllocaInst, GlobalVariable)) or _is_byval_arg(b)
    if _is_byval_arg(b):
        return isinstance(a, (AllocaInst, GlobalVariable)) or _is_byval_arg(a)
    return isinstance(a, AllocaInst) and isinstance(b, (AllocaInst, GlobalVariable))


def _is_no_alias_call(v: Value) -> bool:
    return isinstance(v, CallBase) and v.has_ret_attr("noalias")


def compute_pointer_icmp(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> Constant | None:
    """A pointer compare decided by bases and offsets (LLVM ``computePointerICmp``)."""
    if pred in (P.ICMP_EQ, P.ICMP_NE):
        pass
    elif pred in (P.ICMP_UGT, P.ICMP_UGE, P.ICMP_ULT, P.ICMP_ULE):
        pred = pred.signed
    else:
        return None
    dl = q.dl
    allow_non_inbounds = pred.is_equality
    lbase, loff = strip_and_accumulate_constant_offsets(lhs, dl, allow_non_inbounds)
    rbase, roff = strip_and_accumulate_constant_offsets(rhs, dl, allow_non_inbounds)
    ity = u.compare_type(lbase.type)
    if lbase is rbase:
        return u.get_bool(ity, _compare_ints(loff, roff, pred))
    if pred.is_equality:
        if _have_non_overlapping_storage(lbase, rbase):
            from llvmpy_mid.analysis.memory_builtins import ObjectSizeOpts, get_object_size

            fn = lbase.function if isinstance(lbase, Instruction) else lbase.parent if isinstance(lbase, Argument) else None
            opts = ObjectSizeOpts("min", null_is_unknown_size=null_pointer_is_defined(fn) if fn is not None else True)
            ls = get_object_size(lbase, dl, q.tli, opts)
            rs = get_object_size(rbase, dl, q.tli, opts)
            if ls is not None and rs is not None:
                dist = loff - roff
                if (dist < ls) if dist >= 0 else (-dist < rs):
                    return u.get_bool(ity, not pred.is_true_when_equal)
        from llvmpy_mid.analysis.value_tracking import get_underlying_objects

        lobjs = get_underlying_objects(lbase)
        robjs = get_underlying_objects(rbase)
        if (all(_is_no_alias_call(o) for o in lobjs) and all(_is_alloc_disjoint(o) for o in robjs)) or (
            all(_is_no_alias_call(o) for o in robjs) and all(_is_alloc_disjoint(o) for o in lobjs)
        ):
            return u.get_bool(ity, not pred.is_true_when_equal)
        # A fresh allocation that does not escape cannot equal a non-null pointer from elsewhere
        # (LLVM folds it although not every compare of the address is folded alike: PR54002).
        from llvmpy_mid.analysis.memory_builtins import is_alloc_like_fn

        mi: Value | None = None
        if is_alloc_like_fn(lbase, q.tli) and u.known_non_zero(rbase, q):
            mi = lbase
        elif is_alloc_like_fn(rbase, q.tli) and u.known_non_zero(lbase, q):
            mi = rbase
        if mi is not None:
            tracker = _UnescapedAllocTracker()
            pointer_may_be_captured_by(mi, tracker)
            if not tracker.is_captured:
                return u.get_bool(ity, pred.is_false_when_equal)
    return None


class _UnescapedAllocTracker(CaptureTracker):
    """Captured, except by a compare with a value loaded from a global variable (the address,
    never escaping, cannot have been stored there)."""

    def __init__(self) -> None:
        self.is_captured = False

    def too_many_uses(self) -> None:
        self.is_captured = True

    def captured(self, use: Use) -> bool:
        user = use.user
        if isinstance(user, ICmpInst):
            other = user.operands[1 - use.index]
            if isinstance(other, LoadInst) and isinstance(other.pointer_operand, GlobalVariable):
                return False
        self.is_captured = True
        return True


def _compare_ints(a: int, b: int, pred: Predicate) -> bool:
    if pred == P.ICMP_EQ:
        return a == b
    if pred == P.ICMP_NE:
        return a != b
    if pred == P.ICMP_SGT:
        return a > b
    if pred == P.ICMP_SGE:
        return a >= b
    if pred == P.ICMP_SLT:
        return a < b
    return a <= b


__all__ = ["strip_and_accumulate_constant_offsets", "compute_pointer_icmp"]
