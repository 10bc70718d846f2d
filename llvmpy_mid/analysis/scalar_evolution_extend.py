"""Zero and sign extension of SCEV expressions (LLVM 19.1.7 ``lib/Analysis/ScalarEvolution.cpp``:
``getZeroExtendExpr``, ``getSignExtendExpr``, ``getExtendAddRecStart``/``getPreStartForExtend``,
``proveNoUnsignedWrapViaInduction``, ``proveNoSignedWrapViaInduction`` and the overflow limits
for a step).

What: an extension of an affine recurrence is pushed inside it (``ext({a,+,b})`` is
``{ext(a),+,ext(b)}``) when the recurrence is known not to wrap: from its flags, from the
loop's constant maximum count (the last value computed in twice the width), or from the
backedge condition bounding it below the overflow limit. Extensions also distribute over no-wrap
sums and products, unsigned quotients and min/max of the matching signedness, and a
sign-extension of a non-negative value is a zero-extension. An extension node that already
exists is returned as it is (LLVM looks it up before trying to fold).

Not done (the extension node is kept): the constant-splitting forms (``zext(C + x)`` into
``zext(D) + zext(C - D + x)``), ``proveNoWrapByVaryingStart``, urem and shifted truncations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NSW,
    FLAG_NUW,
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVCastExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
    SCEVTypes,
)
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import IntegerType, Type

if TYPE_CHECKING:
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution

__all__ = [
    "get_sign_extend_expr",
    "get_zero_extend_expr",
    "prove_no_signed_wrap_via_induction",
    "prove_no_unsigned_wrap_via_induction",
]


def _existing(se: ScalarEvolution, kind: SCEVTypes, op: SCEV, ty: Type) -> SCEV | None:
    return se._uniques.get((kind, ty, (op.serial,)))


def _cast_node(se: ScalarEvolution, kind: SCEVTypes, op: SCEV, ty: Type) -> SCEV:
    return se._node(SCEVCastExpr, kind, ty, [op])


def _has_assumptions_or_guards(se: ScalarEvolution) -> bool:
    ac = se.ac
    if ac is None:
        return False
    try:
        return bool(list(ac.assumptions()))
    except Exception:  # an assumption cache without the query: assume some exist
        return True


# --- the start of an extended recurrence -------------------------------------------------------
def _pre_start_for_extend(se: ScalarEvolution, ar: SCEVAddRecExpr, ty: Type, signed: bool) -> SCEV | None:
    """LLVM ``getPreStartForExtend``: ``start - step`` when ``(start - step) + step`` is known
    not to wrap, so that ``ext(start)`` can be written ``ext(step) + ext(start - step)``."""
    start = ar.start
    step = ar.operands[1]
    if start.kind is not SCEVTypes.ADD:
        return None
    diff = list(start.operands)
    for i, o in enumerate(diff):
        if o is step:
            del diff[i]
            break
    if len(diff) == len(start.operands):
        return None
    wrap = FLAG_NSW if signed else FLAG_NUW
    pre_start = se.get_add_expr(diff, start.flags & FLAG_NUW) if len(diff) > 1 else diff[0]
    pre_ar = se.get_add_rec_expr([pre_start, step], ar.loop)
    btc = se.get_backedge_taken_count(ar.loop)
    if (
        isinstance(pre_ar, SCEVAddRecExpr)
        and pre_ar.flags & wrap
        and not isinstance(btc, SCEVCouldNotCompute)
        and se.is_known_positive(btc)
    ):
        return pre_start
    w = se.get_type_size_in_bits(ar.type)  # type: ignore[arg-type]
    wide = se._int_type(w * 2)
    ext = se.get_sign_extend_expr if signed else se.get_zero_extend_expr
    operand_extended = se.get_add_expr([ext(pre_start, wide), ext(step, wide)])
    if ext(start, wide) is operand_extended:
        if isinstance(pre_ar, SCEVAddRecExpr) and ar.flags & wrap:
            pre_ar.flags |= wrap | FLAG_NW
        return pre_start
    limit = _signed_overflow_limit(se, step) if signed else _unsigned_overflow_limit(se, step)
    if limit is not None and se.is_loop_entry_guarded_by_cond(ar.loop, limit[0], pre_start, limit[1]):
        return pre_start
    return None


def _extend_add_rec_start(se: ScalarEvolution, ar: SCEVAddRecExpr, ty: Type, signed: bool) -> SCEV:
    ext = se.get_sign_extend_expr if signed else se.get_zero_extend_expr
    pre = _pre_start_for_extend(se, ar, ty, signed)
    if pre is None:
        return ext(ar.start, ty)
    return se.get_add_expr([ext(ar.operands[1], ty), ext(pre, ty)])


def _signed_overflow_limit(se: ScalarEvolution, step: SCEV) -> tuple[Predicate, SCEV] | None:
    ty = step.type
    assert isinstance(ty, IntegerType)
    w = ty.width
    if se.is_known_positive(step):
        return Predicate.ICMP_SLT, se.get_constant(ty, (1 << (w - 1)) - se.get_signed_range_max(step))
    if se.is_known_negative(step):
        return Predicate.ICMP_SGT, se.get_constant(ty, ((1 << (w - 1)) - 1) - se.get_signed_range_min(step))
    return None


def _unsigned_overflow_limit(se: ScalarEvolution, step: SCEV) -> tuple[Predicate, SCEV]:
    ty = step.type
    assert isinstance(ty, IntegerType)
    return Predicate.ICMP_ULT, se.get_constant(ty, -se.get_unsigned_range_max(step))


def prove_no_unsigned_wrap_via_induction(se: ScalarEvolution, ar: SCEVAddRecExpr) -> int:
    result = ar.flags
    if ar.has_flags(FLAG_NUW) or not ar.is_affine():
        return result
    if ar in se.unsigned_wrap_via_induction_tried:
        return result
    se.unsigned_wrap_via_induction_tried.add(ar)
    step = ar.operands[1]
    max_be = se.get_constant_max_backedge_taken_count(ar.loop)
    if isinstance(max_be, SCEVCouldNotCompute) and not _has_assumptions_or_guards(se):
        return result
    if se.is_known_positive(step):
        ty = step.type
        assert isinstance(ty, IntegerType)
        n = se.get_constant(ty, -se.get_unsigned_range_max(step))
        if se.is_loop_backedge_guarded_by_cond(ar.loop, Predicate.ICMP_ULT, ar, n) or se.is_known_on_every_iteration(
            Predicate.ICMP_ULT, ar, n
        ):
            result |= FLAG_NUW
    return result


def prove_no_signed_wrap_via_induction(se: ScalarEvolution, ar: SCEVAddRecExpr) -> int:
    result = ar.flags
    if ar.has_flags(FLAG_NSW) or not ar.is_affine():
        return result
    if ar in se.signed_wrap_via_induction_tried:
        return result
    se.signed_wrap_via_induction_tried.add(ar)
    step = ar.operands[1]
    max_be = se.get_constant_max_backedge_taken_count(ar.loop)
    if isinstance(max_be, SCEVCouldNotCompute) and not _has_assumptions_or_guards(se):
        return result
    limit = _signed_overflow_limit(se, step)
    if limit is not None and (
        se.is_loop_backedge_guarded_by_cond(ar.loop, limit[0], ar, limit[1])
        or se.is_known_on_every_iteration(limit[0], ar, limit[1])
    ):
        result |= FLAG_NSW
    return result


def _set_flags(se: ScalarEvolution, ar: SCEVAddRecExpr, flags: int) -> None:
    if flags & ~ar.flags:
        se.get_add_rec_expr(list(ar.operands), ar.loop, flags)


def _extended_at_max_count(
    se: ScalarEvolution, ar: SCEVAddRecExpr, max_be: SCEV, signed: bool, step_signed: bool
) -> bool:
    """``ext(start + max * step) == ext(start) + zext(max) * ext'(step)`` in twice the width."""
    start = ar.start
    step = ar.operands[1]
    w = se.get_type_size_in_bits(ar.type)  # type: ignore[arg-type]
    start_ty = start.type
    assert isinstance(start_ty, IntegerType)
    casted = se.get_truncate_or_zero_extend(max_be, start_ty)
    if se.get_truncate_or_zero_extend(casted, max_be.type) is not max_be:  # type: ignore[arg-type]
        return False
    wide = se._int_type(w * 2)
    ext = se.get_sign_extend_expr if signed else se.get_zero_extend_expr
    step_ext = se.get_sign_extend_expr if step_signed else se.get_zero_extend_expr
    lhs = ext(se.get_add_expr([start, se.get_mul_expr([casted, step])]), wide)
    rhs = se.get_add_expr(
        [ext(start, wide), se.get_mul_expr([se.get_zero_extend_expr(casted, wide), step_ext(step, wide)])]
    )
    return lhs is rhs


# --- zext ------------------------------------------------------------------------------------
def get_zero_extend_expr(se: ScalarEvolution, op: SCEV, ty: Type) -> SCEV:
    assert isinstance(ty, IntegerType) and isinstance(op.type, IntegerType)
    if op.type is ty:
        return op
    if isinstance(op, SCEVConstant):
        return se.get_constant(ty, op.value)
    if op.kind is SCEVTypes.ZERO_EXTEND:
        return se.get_zero_extend_expr(op.operands[0], ty)
    existing = _existing(se, SCEVTypes.ZERO_EXTEND, op, ty)
    if existing is not None:
        return existing
    nw = ty.width
    if op.kind is SCEVTypes.TRUNCATE:
        x = op.operands[0]
        cr = se.get_unsigned_range(x)
        tw = op.type.width
        if cr.truncate(tw).zero_extend(nw).contains_range(cr.zext_or_trunc(nw)):
            return se.get_truncate_or_zero_extend(x, ty)
    if isinstance(op, SCEVAddRecExpr) and op.is_affine():
        r = _zext_add_rec(se, op, ty)
        if r is not None:
            return r
    if op.kind is SCEVTypes.UDIV:
        return se.get_udiv_expr(se.get_zero_extend_expr(op.operands[0], ty), se.get_zero_extend_expr(op.operands[1], ty))
    if op.kind is SCEVTypes.ADD and op.has_flags(FLAG_NUW):
        return se.get_add_expr([se.get_zero_extend_expr(o, ty) for o in op.operands], FLAG_NUW)
    if op.kind is SCEVTypes.MUL and op.has_flags(FLAG_NUW):
        return se.get_mul_expr([se.get_zero_extend_expr(o, ty) for o in op.operands], FLAG_NUW)
    if op.kind in (SCEVTypes.UMIN, SCEVTypes.UMAX):
        return se.get_min_max_expr(op.kind, [se.get_zero_extend_expr(o, ty) for o in op.operands])
    if op.kind is SCEVTypes.SEQ_UMIN:
        return se.get_umin_expr([se.get_zero_extend_expr(o, ty) for o in op.operands], sequential=True)
    return _cast_node(se, SCEVTypes.ZERO_EXTEND, op, ty)


def _zext_add_rec(se: ScalarEvolution, ar: SCEVAddRecExpr, ty: IntegerType) -> SCEV | None:
    step = ar.operands[1]
    loop = ar.loop
    w = se.get_type_size_in_bits(ar.type)  # type: ignore[arg-type]
    if ar.has_flags(FLAG_NUW):
        return se.get_add_rec_expr(
            [_extend_add_rec_start(se, ar, ty, False), se.get_zero_extend_expr(step, ty)], loop, ar.flags
        )
    max_be = se.get_constant_max_backedge_taken_count(loop)
    if not isinstance(max_be, SCEVCouldNotCompute):
        if _extended_at_max_count(se, ar, max_be, False, False):
            _set_flags(se, ar, FLAG_NUW)
            return se.get_add_rec_expr(
                [_extend_add_rec_start(se, ar, ty, False), se.get_zero_extend_expr(step, ty)], loop, ar.flags
            )
        if _extended_at_max_count(se, ar, max_be, False, True):
            _set_flags(se, ar, FLAG_NW)
            return se.get_add_rec_expr(
                [_extend_add_rec_start(se, ar, ty, False), se.get_sign_extend_expr(step, ty)], loop, ar.flags
            )
    if not isinstance(max_be, SCEVCouldNotCompute) or _has_assumptions_or_guards(se):
        _set_flags(se, ar, prove_no_unsigned_wrap_via_induction(se, ar))
        if ar.has_flags(FLAG_NUW):
            return se.get_add_rec_expr(
                [_extend_add_rec_start(se, ar, ty, False), se.get_zero_extend_expr(step, ty)], loop, ar.flags
            )
        if se.is_known_negative(step):
            sty = step.type
            assert isinstance(sty, IntegerType)
            n = se.get_constant(sty, ((1 << w) - 1) - se.get_signed_range_min(step))
            if se.is_loop_backedge_guarded_by_cond(loop, Predicate.ICMP_UGT, ar, n) or se.is_known_on_every_iteration(
                Predicate.ICMP_UGT, ar, n
            ):
                _set_flags(se, ar, FLAG_NW)
                return se.get_add_rec_expr(
                    [_extend_add_rec_start(se, ar, ty, False), se.get_sign_extend_expr(step, ty)], loop, ar.flags
                )
    return None


# --- sext ------------------------------------------------------------------------------------
def get_sign_extend_expr(se: ScalarEvolution, op: SCEV, ty: Type) -> SCEV:
    assert isinstance(ty, IntegerType) and isinstance(op.type, IntegerType)
    if op.type is ty:
        return op
    if isinstance(op, SCEVConstant):
        return se.get_constant(ty, op.signed_value)
    if op.kind is SCEVTypes.SIGN_EXTEND:
        return se.get_sign_extend_expr(op.operands[0], ty)
    if op.kind is SCEVTypes.ZERO_EXTEND:
        return se.get_zero_extend_expr(op.operands[0], ty)
    existing = _existing(se, SCEVTypes.SIGN_EXTEND, op, ty)
    if existing is not None:
        return existing
    nw = ty.width
    if op.kind is SCEVTypes.TRUNCATE:
        x = op.operands[0]
        cr = se.get_signed_range(x)
        tw = op.type.width
        if cr.truncate(tw).sign_extend(nw).contains_range(cr.sext_or_trunc(nw)):
            xw = se.get_type_size_in_bits(x.type)  # type: ignore[arg-type]
            if xw == nw:
                return x
            if xw > nw:
                return se.get_truncate_expr(x, ty)
            return se.get_sign_extend_expr(x, ty)
    if op.kind is SCEVTypes.ADD and op.has_flags(FLAG_NSW):
        return se.get_add_expr([se.get_sign_extend_expr(o, ty) for o in op.operands], FLAG_NSW)
    if isinstance(op, SCEVAddRecExpr) and op.is_affine():
        r = _sext_add_rec(se, op, ty)
        if r is not None:
            return r
    if se.is_known_non_negative(op):
        return se.get_zero_extend_expr(op, ty)
    if op.kind in (SCEVTypes.SMIN, SCEVTypes.SMAX):
        return se.get_min_max_expr(op.kind, [se.get_sign_extend_expr(o, ty) for o in op.operands])
    return _cast_node(se, SCEVTypes.SIGN_EXTEND, op, ty)


def _sext_add_rec(se: ScalarEvolution, ar: SCEVAddRecExpr, ty: IntegerType) -> SCEV | None:
    step = ar.operands[1]
    loop = ar.loop
    if ar.has_flags(FLAG_NSW):
        return se.get_add_rec_expr(
            [_extend_add_rec_start(se, ar, ty, True), se.get_sign_extend_expr(step, ty)], loop, FLAG_NSW
        )
    max_be = se.get_constant_max_backedge_taken_count(loop)
    if not isinstance(max_be, SCEVCouldNotCompute):
        if _extended_at_max_count(se, ar, max_be, True, True):
            _set_flags(se, ar, FLAG_NSW)
            return se.get_add_rec_expr(
                [_extend_add_rec_start(se, ar, ty, True), se.get_sign_extend_expr(step, ty)], loop, ar.flags
            )
        if _extended_at_max_count(se, ar, max_be, True, False):
            _set_flags(se, ar, FLAG_NW)
            return se.get_add_rec_expr(
                [_extend_add_rec_start(se, ar, ty, True), se.get_zero_extend_expr(step, ty)], loop, ar.flags
            )
    _set_flags(se, ar, prove_no_signed_wrap_via_induction(se, ar))
    if ar.has_flags(FLAG_NSW):
        return se.get_add_rec_expr(
            [_extend_add_rec_start(se, ar, ty, True), se.get_sign_extend_expr(step, ty)], loop, ar.flags
        )
    return None

