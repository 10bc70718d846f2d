"""Can an add, sub or mul overflow? (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``:
``computeOverflowForUnsignedAdd``/``SignedAdd``/``UnsignedSub``/``SignedSub``/
``UnsignedMul``/``SignedMul``, ``computeConstantRangeIncludingKnownBits``.)

What: each query answers with an :class:`~llvmpy_mid.analysis.constant_range.OverflowResult`
(always low, always high, may, never) for two integer operands, from the
operands' ranges (known bits intersected with ``computeConstantRange``), their
sign bits, the ``nsw`` flag of the add being asked about, ``x - (x urem y)``
shapes, and — for a ``usub.with.overflow`` context — the branch into the
context's block. Import them from :mod:`llvmpy_mid.analysis.value_tracking`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange, OverflowResult, PreferredRangeType
from llvmpy_mid.analysis.constant_range_analysis import compute_constant_range
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
from llvmpy_mid.analysis.num_sign_bits import compute_num_sign_bits
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef
from llvmpy_mid.analysis.simplify_query import SimplifyQuery, as_query
from llvmpy_mid.analysis.value_tracking_support import (
    _intrinsic,
    _known_bits_from_context,
    _opcode,
    _operand,
    _raw_nsw,
    _raw_nuw,
    _scalar_bit_width,
)
from llvmpy_mid.ir.instructions.cmp import Predicate

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.value import Value


def compute_constant_range_including_known_bits(
    v: Value, for_signed: bool, q: SimplifyQuery | DataLayout
) -> ConstantRange:
    """Known bits' range intersected with ``computeConstantRange``'s, preferring the
    signedness asked for."""
    sq = as_query(q)
    cr1 = ConstantRange.from_known_bits(compute_known_bits(v, sq), for_signed)
    cr2 = compute_constant_range(v, for_signed, sq.use_instr_info)
    kind = PreferredRangeType.SIGNED if for_signed else PreferredRangeType.UNSIGNED
    return cr1.intersect_with(cr2, kind)


def compute_overflow_for_unsigned_mul(
    lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout, is_nsw: bool = False
) -> OverflowResult:
    sq = as_query(q)
    lk = compute_known_bits(lhs, sq)
    rk = compute_known_bits(rhs, sq)
    if is_nsw and lk.is_non_negative() and rk.is_non_negative():
        return OverflowResult.NEVER_OVERFLOWS
    return ConstantRange.from_known_bits(lk, False).unsigned_mul_may_overflow(ConstantRange.from_known_bits(rk, False))


def compute_overflow_for_signed_mul(lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout) -> OverflowResult:
    sq = as_query(q)
    w = _scalar_bit_width(lhs.type, sq.dl)
    sign_bits = compute_num_sign_bits(lhs, sq) + compute_num_sign_bits(rhs, sq)
    if sign_bits > w + 1:
        return OverflowResult.NEVER_OVERFLOWS
    if sign_bits == w + 1:
        if compute_known_bits(lhs, sq).is_non_negative() or compute_known_bits(rhs, sq).is_non_negative():
            return OverflowResult.NEVER_OVERFLOWS
    return OverflowResult.MAY_OVERFLOW


def compute_overflow_for_unsigned_add(lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout) -> OverflowResult:
    sq = as_query(q)
    lr = compute_constant_range_including_known_bits(lhs, False, sq)
    rr = compute_constant_range_including_known_bits(rhs, False, sq)
    return lr.unsigned_add_may_overflow(rr)


def compute_overflow_for_signed_add(
    lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout, add: Value | None = None
) -> OverflowResult:
    """``add`` is the add instruction being asked about, when there is one (its ``nsw``
    flag and the assumptions about its result count)."""
    sq = as_query(q)
    if add is not None and _opcode(add) == "add" and _raw_nsw(add):
        return OverflowResult.NEVER_OVERFLOWS
    if compute_num_sign_bits(lhs, sq) > 1 and compute_num_sign_bits(rhs, sq) > 1:
        return OverflowResult.NEVER_OVERFLOWS
    lr = compute_constant_range_including_known_bits(lhs, True, sq)
    rr = compute_constant_range_including_known_bits(rhs, True, sq)
    result = lr.signed_add_may_overflow(rr)
    if result != OverflowResult.MAY_OVERFLOW or add is None:
        return result
    non_neg = lr.is_all_non_negative() or rr.is_all_non_negative()
    neg = lr.is_all_negative() or rr.is_all_negative()
    if non_neg or neg:
        known = KnownBits(lr.bit_width)
        if sq.cxt_i is not None and sq.ac is not None:
            known = _known_bits_from_context(add, known, 0, sq)
        if (known.is_non_negative() and non_neg) or (known.is_negative() and neg):
            return OverflowResult.NEVER_OVERFLOWS
    return OverflowResult.MAY_OVERFLOW


def compute_overflow_for_unsigned_sub(lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout) -> OverflowResult:
    sq = as_query(q)
    rop = _opcode(rhs)
    if (rop == "urem" and _operand(rhs, 0) is lhs) or (rop == "sub" and _raw_nuw(rhs) and _operand(rhs, 0) is lhs):
        if is_guaranteed_not_to_be_undef(lhs, sq.cxt_i, sq.dt):
            return OverflowResult.NEVER_OVERFLOWS
    cxt = sq.cxt_i
    if cxt is not None and _intrinsic(cxt) == "llvm.usub.with.overflow":
        from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition_pred

        implied = is_implied_by_dom_condition_pred(Predicate.ICMP_UGE, lhs, rhs, cxt, sq.dl)
        if implied is not None:
            return OverflowResult.NEVER_OVERFLOWS if implied else OverflowResult.ALWAYS_OVERFLOWS_LOW
    lr = compute_constant_range_including_known_bits(lhs, False, sq)
    rr = compute_constant_range_including_known_bits(rhs, False, sq)
    return lr.unsigned_sub_may_overflow(rr)


def compute_overflow_for_signed_sub(lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout) -> OverflowResult:
    sq = as_query(q)
    rop = _opcode(rhs)
    if (rop == "srem" and _operand(rhs, 0) is lhs) or (rop == "sub" and _raw_nsw(rhs) and _operand(rhs, 0) is lhs):
        if is_guaranteed_not_to_be_undef(lhs, sq.cxt_i, sq.dt):
            return OverflowResult.NEVER_OVERFLOWS
    if compute_num_sign_bits(lhs, sq) > 1 and compute_num_sign_bits(rhs, sq) > 1:
        return OverflowResult.NEVER_OVERFLOWS
    lr = compute_constant_range_including_known_bits(lhs, True, sq)
    rr = compute_constant_range_including_known_bits(rhs, True, sq)
    return lr.signed_sub_may_overflow(rr)
