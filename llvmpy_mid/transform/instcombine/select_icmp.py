"""Selects whose condition is an integer compare (LLVM ``lib/Transforms/InstCombine/InstCombineSelect.cpp``:
``foldSelectInstWithICmp`` and the folds it tries, in its order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.cmp_inst_analysis import decompose_bit_test_icmp
from llvmpy_mid.analysis.constant_folding import constant_fold_cast_operand, constant_fold_compare_inst_operands
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.instsimplify.other import simplify_with_op_replaced
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef, is_safe_to_speculatively_execute
from llvmpy_mid.analysis.select_pattern import match_select_pattern
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constant_fold import get_bin_op_identity
from llvmpy_mid.ir.constants import UndefValue, Constant, ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_all_ones,
    m_and,
    m_c_add,
    m_c_and,
    m_deferred,
    m_intrinsic,
    m_lshr,
    m_neg,
    m_not,
    m_nsw_neg,
    m_one,
    m_one_use,
    m_specific,
    m_sub,
    m_value,
    m_xor,
    m_zero,
    match,
)
from llvmpy_mid.ir.types import IntegerType, VectorType
from llvmpy_mid.transform.instcombine.select_util import (
    apint,
    apint_allow_poison,
    flipped_strictness_predicate_and_constant,
    int_const,
    is_sign_bit_check,
    scalar_width,
    swap_prof_metadata,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate
_P_ZERO = m_zero()
_P_ALL_ONES = m_all_ones()
_P_ONE = m_one()


def _is_int_ty(v: Value) -> bool:
    return isinstance(v.type.scalar_type, IntegerType)


def _is_zero(v: Value) -> bool:
    """``m_Zero`` (poison lanes allowed)."""
    return match(v, _P_ZERO) is not None


def _is_all_ones(v: Value) -> bool:
    """``m_AllOnes`` (poison lanes allowed)."""
    return match(v, _P_ALL_ONES) is not None


def _all_ones_no_poison(v: Value) -> bool:
    c = apint(v)
    return c is not None and c == (1 << scalar_width(v.type)) - 1


def _is_one(v: Value) -> bool:
    """``m_One`` (poison lanes allowed)."""
    return match(v, _P_ONE) is not None


def _is_power2(c: int | None) -> bool:
    return c is not None and c != 0 and c & (c - 1) == 0


def _log2(c: int) -> int:
    return c.bit_length() - 1


def drop_poison_generating_annotations(i: Instruction) -> None:
    """``Instruction::dropPoisonGeneratingAnnotations``: flags, ``!range``/``!nonnull``/``!align``
    and, on calls, the poison-making return attributes."""
    drop = getattr(i, "drop_poison_generating_flags", None)
    if drop is not None:
        drop()
    for kind in ("range", "nonnull", "align"):
        if i.get_metadata(kind) is not None:
            i.set_metadata(kind, None)
    if isinstance(i, CallInst):
        attrs = i.attributes
        for kind in ("range", "align", "nonnull"):
            if attrs.has_ret_attr(kind):
                attrs = attrs.without_ret_attr(kind)
        i.attributes = attrs


# --- value equivalence -------------------------------------------------------------------------


def replace_in_instruction(ic: InstCombiner, v: Value, old: Value, new: Value, depth: int = 0) -> bool:
    """``replaceInInstruction``: use ``new`` for ``old`` in ``v`` and its one-use operands (2 levels)."""
    if depth == 2:
        return False
    if not isinstance(v, Instruction) or not v.has_one_use or not is_safe_to_speculatively_execute(v):
        return False
    changed = False
    for idx, op in enumerate(v.operands):
        if op is old:
            v.set_operand(idx, new)
            ic.worklist.handle_use_count_decrement(old)
            ic.worklist.add(v)
            changed = True
        else:
            changed |= replace_in_instruction(ic, op, old, new, depth + 1)
    return changed


def fold_select_value_equivalence(ic: InstCombiner, sel: SelectInst, cmp: ICmpInst) -> Instruction | None:
    """(X == Y) ? f(X) : Z -> (X == Y) ? f(Y) : Z; (X == C) ? C' : f(X) -> f(X) when f(C) == C' (flags dropped)"""
    if not cmp.predicate.is_equality:
        return None
    tv, fv = sel.true_value, sel.false_value
    swapped = False
    if cmp.predicate == P.ICMP_NE:
        tv, fv = fv, tv
        swapped = True
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    q = ic.sq
    dt = ic.dt

    def replace_old_with_new(old: Value, new: Value) -> Instruction | None:
        if tv is old:
            return None
        v = simplify_with_op_replaced(tv, old, new, q, True, None)
        if v is not None:
            if _is_imm_constant(v) and is_guaranteed_not_to_be_undef(v, sel, dt):
                return ic.replace_operand(sel, 2 if swapped else 1, v)
            if _is_imm_constant(new) or new is v:
                if is_guaranteed_not_to_be_undef(new, sel, dt):
                    return ic.replace_operand(sel, 2 if swapped else 1, v)
                return None
        if (
            old is cl
            and _is_imm_constant(new)
            and not isinstance(old, Constant)
            and not isinstance(cmp.type, VectorType)
            and is_guaranteed_not_to_be_undef(new, sel, dt)
        ):
            if replace_in_instruction(ic, tv, old, new):
                return sel
        return None

    r = replace_old_with_new(cl, cr)
    if r is not None:
        return r
    r = replace_old_with_new(cr, cl)
    if r is not None:
        return r
    if not isinstance(fv, Instruction):
        return None
    drop: list[Instruction] = []
    if (
        simplify_with_op_replaced(fv, cl, cr, q, False, drop) is tv
        or simplify_with_op_replaced(fv, cr, cl, q, False, drop) is tv
    ):
        for d in drop:
            drop_poison_generating_annotations(d)
            ic.worklist.add(d)
        return ic.replace_inst_uses_with(sel, fv)
    return None


def _is_imm_constant(v: Value) -> bool:
    """``m_ImmConstant``: a constant without constant expressions."""
    if not isinstance(v, Constant):
        return False
    from llvmpy_mid.ir.constant_fold import contains_constant_expression

    return not contains_constant_expression(v)


# --- min/max/abs -------------------------------------------------------------------------------


def canonicalize_spf(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """select (icmp) idioms of abs/nabs/smin/smax/umin/umax -> the intrinsics"""
    if not _is_int_ty(tv):
        return None
    flavor, lhs, rhs = _match_decomposed(cmp, tv, fv)
    b = ic.builder
    if flavor in ("abs", "nabs"):
        assert lhs is not None and rhs is not None
        if not cmp.has_one_use and not rhs.has_one_use:
            return None
        int_min_poison = flavor == "abs" and match(rhs, m_nsw_neg(m_specific(lhs))) is not None
        ctx = cmp.type.context
        absv = b.create_binary_intrinsic("abs", lhs, ConstantInt.get(ctx.i1, int(int_min_poison)))
        if flavor == "nabs":
            return b.create_neg(absv)
        return absv
    if flavor in ("smin", "smax", "umin", "umax"):
        assert lhs is not None and rhs is not None
        return b.create_binary_intrinsic(flavor, lhs, rhs)
    return None


def _match_decomposed(cmp: ICmpInst, tv: Value, fv: Value) -> tuple[str, Value | None, Value | None]:
    """``matchDecomposedSelectPattern(Cmp, TV, FV)`` on integer compares."""
    from llvmpy_mid.analysis import select_pattern as sp

    pred = cmp.predicate
    if pred.is_equality:
        return ("unknown", None, None)
    return sp._match(pred, cmp.get_operand(0), cmp.get_operand(1), tv, fv, 0)


# --- constants in the compare ------------------------------------------------------------------


def fold_select_inst_with_icmp_const(ic: InstCombiner, si: SelectInst, cmp: ICmpInst) -> Value | None:
    """(V == UMIN) ? UMIN+1 : V -> umax(V, UMIN+1) (and the other extremes); C ? C' : (V op C'') -> V op C''"""
    v = cmp.get_operand(0)
    cmp_c = apint(cmp.get_operand(1))
    if cmp_c is None:
        return None
    pred = cmp.predicate
    tv, fv = si.true_value, si.false_value
    w = scalar_width(v.type)
    mask = (1 << w) - 1
    smin = 1 << (w - 1)
    b = ic.builder
    if pred == P.ICMP_EQ and v is fv:
        tc = apint(tv)
        if tc is not None:
            if cmp_c == 0 and tc == 1:
                return b.create_binary_intrinsic("umax", v, tv)
            if cmp_c == mask and tc == mask - 1:
                return b.create_binary_intrinsic("umin", v, tv)
            if cmp_c == smin and tc == smin + 1:
                return b.create_binary_intrinsic("smax", v, tv)
            if cmp_c == smin - 1 and tc == smin - 2:
                return b.create_binary_intrinsic("smin", v, tv)
    c = apint(tv)
    if c is not None and isinstance(fv, BinaryOperator):
        bo = fv
        cpred = pred
    else:
        c = apint(fv)
        if c is not None and isinstance(tv, BinaryOperator):
            bo = tv
            cpred = pred.inverse
        else:
            return None
    if bo.operands[0] is not v:
        return None
    boc = apint(bo.operands[1])
    if boc is None:
        return None
    r = ConstantRange.make_exact_icmp_region(cpred, cmp_c, w)
    try:
        r = r.binary_op(bo.opcode, ConstantRange(w, boc))
    except (KeyError, ValueError, NotImplementedError):
        return None
    if r.get_single_element() == c:
        bo.drop_poison_generating_flags()
        return bo
    return None


def canonicalize_clamp_like(ic: InstCombiner, sel0: SelectInst, cmp0: ICmpInst) -> Value | None:
    """select (X + C1 u< C0), X, select (X s< C2), L, H -> clamp with two signed compares"""
    x = sel0.true_value
    sel1 = sel0.false_value
    if not cmp0.has_one_use:
        return None
    pred0 = cmp0.predicate
    cmp00 = cmp0.get_operand(0)
    c0 = cmp0.get_operand(1)
    if not _any_integral_constant(c0):
        return None
    assert isinstance(c0, Constant)
    if not isinstance(sel1, SelectInst):
        pred0 = pred0.inverse
        x, sel1 = sel1, x
    w = scalar_width(c0.type)
    if pred0 in (P.ICMP_ULT, P.ICMP_UGE):
        if not _all_lanes(c0, lambda k: k != 0):
            return None
    elif pred0 in (P.ICMP_ULE, P.ICMP_UGT):
        if not _all_lanes(c0, lambda k: k != (1 << w) - 1):
            return None
        pred0 = P.ICMP_ULT if pred0 == P.ICMP_ULE else P.ICMP_UGE
        c0 = ConstantExpr.get_add(c0, int_const(c0.type, 1))
    else:
        return None
    if not sel1.has_one_use:
        return None
    if cmp00.type is not x.type and x.has_one_use:
        if isinstance(x, CastInst) and x.opcode == "trunc":
            x = x.operands[0]
    c1: Value
    if cmp00 is x:
        c1 = Constant.get_null_value(x.type)
    else:
        if not (isinstance(cmp00, Instruction) or isinstance(cmp00, ConstantExpr)) or getattr(cmp00, "opcode", None) != "add":
            return None
        if cmp00.operands[0] is not x or not _any_integral_constant(cmp00.operands[1]):
            return None
        c1 = cmp00.operands[1]
    if not isinstance(sel1, SelectInst):
        return None
    cmp1 = sel1.condition
    low, high = sel1.true_value, sel1.false_value
    if not isinstance(cmp1, ICmpInst) or cmp1.get_operand(0) is not x or not _any_integral_constant(cmp1.get_operand(1)):
        return None
    c2 = cast(Constant, cmp1.get_operand(1))
    pred1 = cmp1.predicate
    if not cmp1.has_one_use and (cmp00 is x or not cmp00.has_one_use):
        return None
    if pred1 == P.ICMP_SLT:
        pass
    elif pred1 == P.ICMP_SLE:
        return None
    elif pred1 in (P.ICMP_SGT, P.ICMP_SGE):
        if pred1 == P.ICMP_SGT:
            if not _all_lanes(c2, lambda k: k != (1 << (w - 1)) - 1):
                return None
            c2 = ConstantExpr.get_add(c2, int_const(c2.type, 1))
        pred1 = P.ICMP_SLT
        low, high = high, low
    else:
        return None
    c1c = cast(Constant, c1)
    low_incl: Constant = ConstantExpr.get_neg(c1c)
    high_excl: Constant = ConstantExpr.get_sub(c0, c1c)
    if pred0 == P.ICMP_UGE:
        low_incl, high_excl = high_excl, low_incl
    dl = ic.dl
    p1 = constant_fold_compare_inst_operands(P.ICMP_SGE, c2, low_incl, dl)
    if p1 is None or apint(p1) != 1:
        return None
    p2 = constant_fold_compare_inst_operands(P.ICMP_SLE, c2, high_excl, dl)
    if p2 is None or apint(p2) != 1:
        return None
    if x.type is not sel0.type:
        if not (_is_imm_constant(low) and _is_imm_constant(high)):
            return None
        lo = constant_fold_cast_operand("sext", cast(Constant, low), x.type, dl)
        hi = constant_fold_cast_operand("sext", cast(Constant, high), x.type, dl)
        assert lo is not None and hi is not None
        low, high = lo, hi
    b = ic.builder
    should_low = b.create_icmp(P.ICMP_SLT, x, low_incl)
    should_high = b.create_icmp(P.ICMP_SGE, x, high_excl)
    maybe_low = b.create_select(should_low, low, x)
    maybe_high = b.create_select(should_high, high, maybe_low)
    return b.create_trunc(maybe_high, sel0.type)


def _any_integral_constant(v: Value) -> bool:
    """``m_AnyIntegralConstant``: an integer constant or a vector of them (undef lanes too)."""
    if isinstance(v, ConstantInt):
        return True
    if isinstance(v, Constant) and isinstance(v.type, VectorType) and isinstance(v.type.element_type, IntegerType):
        for k in range(v.type.count):
            e = v.get_aggregate_element(k)
            if not isinstance(e, ConstantInt) and not (e is not None and isinstance(e, UndefValue)):
                return False
        return True
    return False


def _all_lanes(c: Value, pred: object) -> bool:
    """``m_SpecificInt_ICMP``-style test of every integer lane of ``c`` (undef lanes pass)."""
    f = cast("type[object]", pred)
    if isinstance(c, ConstantInt):
        return bool(f(c.value))  # type: ignore[call-arg]
    if isinstance(c, Constant) and isinstance(c.type, VectorType):
        for k in range(c.type.count):
            e = c.get_aggregate_element(k)
            if isinstance(e, ConstantInt):
                if not f(e.value):  # type: ignore[call-arg]
                    return False
            elif e is None or not isinstance(e, UndefValue):
                return False
        return True
    return False


def try_to_reuse_constant_from_select_in_comparison(ic: InstCombiner, sel: SelectInst, cmp: ICmpInst) -> Instruction | None:
    """(X pred C0) ? V : C1 with C1 = C0 +/- 1 -> (X swapped-flipped-pred C1) ? C1 : V"""
    if not cmp.has_one_use:
        return None
    x = cmp.get_operand(0)
    c0 = cmp.get_operand(1)
    if not _any_integral_constant(c0):
        return None
    assert isinstance(c0, Constant)
    pred = cmp.predicate
    if pred.is_equality:
        return None
    from llvmpy_mid.transform.instcombine.select_util import scalar_width as _sw  # noqa: F401

    if pred in (P.ICMP_ULE, P.ICMP_SLE, P.ICMP_UGE, P.ICMP_SGE):
        return None  # not canonical
    if c0.type is not sel.type:
        return None
    if pred == P.ICMP_ULT and getattr(x, "opcode", None) == "add" and isinstance(x.operands[1], Constant):  # type: ignore[attr-defined]
        return None
    sv0, sv1 = sel.true_value, sel.false_value
    if not _any_integral_constant(sv0) and not _any_integral_constant(sv1):
        return None

    def matches(c: Constant) -> bool:
        return _element_wise_equal(c, sv0) or _element_wise_equal(c, sv1)

    if matches(c0):
        return None
    flipped = flipped_strictness_predicate_and_constant(pred, c0)
    if flipped is None:
        return None
    if not matches(flipped[1]):
        return None
    b = ic.builder
    b.position_before(sel)
    new_pred = pred.swapped
    new_cmp = b.create_icmp(new_pred, x, flipped[1], cmp.name + ".inv")
    ic.replace_operand(sel, 0, new_cmp)
    sel.swap_values()
    swap_prof_metadata(sel)
    return sel


def _element_wise_equal(c: Constant, v: Value) -> bool:
    """``Constant::isElementWiseEqual``."""
    if c is v:
        return True
    if not isinstance(v, Constant) or c.type is not v.type:
        return False
    a = apint_allow_poison(c)
    bb = apint_allow_poison(v)
    if isinstance(c.type, VectorType):
        for k in range(c.type.count):
            x = c.get_aggregate_element(k)
            y = v.get_aggregate_element(k)
            if x is y:
                continue
            if x is None or y is None or isinstance(x, UndefValue) or isinstance(y, UndefValue):
                continue
            return False
        return True
    return a is not None and a == bb


# --- bit tests -----------------------------------------------------------------------------------


def fold_select_icmp_and(ic: InstCombiner, sel: SelectInst, cmp: ICmpInst) -> Value | None:
    """select ((X & C1) == 0), TC, FC -> shifts/zext of (X & C1) (+ xor) when C1 and TC-FC are powers of 2"""
    tc = apint(sel.true_value)
    fc = apint(sel.false_value)
    if tc is None or fc is None:
        return None
    sel_ty = sel.type
    if isinstance(sel_ty, VectorType) != isinstance(cmp.type, VectorType):
        return None
    pred = cmp.predicate
    create_and = False
    if pred.is_equality:
        if not _is_zero(cmp.get_operand(1)):
            return None
        v = cmp.get_operand(0)
        if getattr(v, "opcode", None) != "and":
            return None
        and_rhs = apint_allow_poison(v.operands[1])  # type: ignore[attr-defined]
        if not _is_power2(and_rhs):
            return None
        assert and_rhs is not None
        and_mask = and_rhs
    else:
        d = decompose_bit_test_icmp(cmp.get_operand(0), cmp.get_operand(1), pred)
        if d is None:
            return None
        v, and_mask, pred = d
        if not _is_power2(and_mask):
            return None
        create_and = True
    b = ic.builder
    w_sel = scalar_width(sel_ty)
    w_and = scalar_width(v.type)
    if tc != 0 and fc != 0:
        if w_sel != w_and or (tc ^ fc) != and_mask:
            return None
        if create_and:
            if not cmp.has_one_use:
                return None
            v = b.create_and(v, int_const(sel_ty, and_mask))
        extra_in_tc = tc > fc
        if pred == P.ICMP_EQ:
            c = int_const(sel_ty, tc)
            return b.create_xor(v, c) if extra_in_tc else b.create_or(v, c)
        c = int_const(sel_ty, fc)
        return b.create_or(v, c) if extra_in_tc else b.create_xor(v, c)
    if not _is_power2(tc) and not _is_power2(fc):
        return None
    val_c = tc if tc != 0 else fc
    val_zeros = _log2(val_c)
    and_zeros = _log2(and_mask)
    should_not = tc != 0
    should_not ^= pred == P.ICMP_NE
    if create_and and should_not and val_zeros != and_zeros:
        return None
    if create_and:
        v = b.create_and(v, int_const(v.type, and_mask))
    if val_zeros > and_zeros:
        v = b.create_zext_or_trunc(v, sel_ty)
        v = b.create_shl(v, int_const(sel_ty, val_zeros - and_zeros))
    elif val_zeros < and_zeros:
        v = b.create_lshr(v, int_const(v.type, and_zeros - val_zeros))
        v = b.create_zext_or_trunc(v, sel_ty)
    else:
        v = b.create_zext_or_trunc(v, sel_ty)
    if should_not:
        v = b.create_xor(v, int_const(sel_ty, val_c))
    return v


_P_AND_B_ONE = m_one_use(m_and(m_value("b"), m_value("one")))
_P_LSHR_XZ = m_one_use(m_lshr(m_value("x"), m_value("z")))


def fold_select_icmp_and_and(ic: InstCombiner, sel_ty: object, cmp: ICmpInst, tv: Value, fv: Value) -> Instruction | None:
    """((X & Y) == 0) ? ((X >> Z) & 1) : 1 -> zext ((X & (Y | (1 << Z))) != 0)"""
    if not (
        cmp.has_one_use
        and cmp.get_operand(0).has_one_use
        and cmp.predicate == P.ICMP_EQ
        and _is_zero(cmp.get_operand(1))
        and _is_one(fv)
    ):
        return None
    m = match(tv, _P_AND_B_ONE)
    if m is None or not _is_one(m.one):
        return None
    bv = m.value("b")
    ms = match(bv, _P_LSHR_XZ)
    w = scalar_width(tv.type)
    if ms is not None:
        z = ms.value("z")
        zc = _lanes_all(z, lambda k: k < w)
        if not zc:
            return None
        x = ms.value("x")
    else:
        x = bv
    and0 = cmp.get_operand(0)
    if getattr(and0, "opcode", None) != "and":
        return None
    a0, a1 = and0.operands[0], and0.operands[1]  # type: ignore[attr-defined]
    if a0 is x:
        y = a1
    elif a1 is x:
        y = a0
    else:
        return None
    b = ic.builder
    one = int_const(tv.type, 1)
    mask_b = b.create_shl(one, ms.value("z")) if ms is not None else one
    full = b.create_or(y, mask_b)
    masked = b.create_and(x, full)
    ne = b.create_is_not_null(masked)
    return CastInst.create("zext", ne, tv.type)


def _lanes_all(v: Value, f: object) -> bool:
    c = apint(v)
    if c is not None:
        return bool(f(c))  # type: ignore[operator]
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        for k in range(v.type.count):
            e = v.get_aggregate_element(k)
            if not isinstance(e, ConstantInt) or not f(e.value):  # type: ignore[operator]
                return False
        return True
    return False


def fold_select_icmp_and_zero_shl(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """((X & C1) == 0) ? 0 : (X << C2) -> X << C2 (flags dropped) when C1 is a mask of clz(C1) == C2 ... bits"""
    if not _is_zero(cmp.get_operand(1)):
        return None
    pred = cmp.predicate
    if pred == P.ICMP_NE:
        pred = P.ICMP_EQ
        tv, fv = fv, tv
    if pred != P.ICMP_EQ:
        return None
    and_val = cmp.get_operand(0)
    if getattr(and_val, "opcode", None) != "and":
        return None
    x = and_val.operands[0]  # type: ignore[attr-defined]
    c1 = apint(and_val.operands[1])  # type: ignore[attr-defined]
    if c1 is None or not _is_zero(tv) or getattr(fv, "opcode", None) != "shl" or fv.operands[0] is not x:  # type: ignore[attr-defined]
        return None
    c2 = apint(fv.operands[1])  # type: ignore[attr-defined]
    if c2 is None:
        return None
    w = scalar_width(x.type)
    if c1 == 0 or c1 & (c1 + 1) != 0:
        return None
    if w - c1.bit_length() != c2:
        return None
    if not isinstance(fv, BinaryOperator):
        return None
    fv.nsw = False
    fv.nuw = False
    return fv


def fold_select_icmp_lshr_ashr(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """(X s> C) ? (X >>u Y) : (X >>s Y) -> X >>s Y when C s>= -1 (and the slt form)"""
    pred = cmp.predicate
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    if not _is_int_ty(cr):
        return None
    w = scalar_width(cr.type)
    from llvmpy_mid.transform.instcombine.select_util import to_signed

    ok = False
    if pred == P.ICMP_SGT and _lanes_all(cr, lambda k: to_signed(k, w) >= -1):
        ok = True
    elif pred == P.ICMP_SLT and _lanes_all(cr, lambda k: to_signed(k, w) >= 0):
        ok = True
    if not ok:
        return None
    if pred == P.ICMP_SLT:
        tv, fv = fv, tv
    if getattr(tv, "opcode", None) != "lshr" or getattr(fv, "opcode", None) != "ashr":
        return None
    x, y = tv.operands[0], tv.operands[1]  # type: ignore[attr-defined]
    if fv.operands[0] is not x or fv.operands[1] is not y or cl is not x:  # type: ignore[attr-defined]
        return None
    exact = bool(getattr(fv, "exact", False)) and bool(getattr(tv, "exact", False))
    return ic.builder.create_ashr(x, y, cmp.name, exact=exact)


def fold_select_icmp_and_bin_op(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """((X & C1) == 0) ? Y : (Y op C2) -> Y op shift(X & C1) for 0-identity ops and powers of 2"""
    if not _is_int_ty(tv) or isinstance(tv.type, VectorType) != isinstance(cmp.type, VectorType):
        return None
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    pred = cmp.predicate
    need_and = False
    if pred.is_equality:
        if not _is_zero(cr):
            return None
        if getattr(cl, "opcode", None) != "and":
            return None
        c1 = apint_allow_poison(cl.operands[1])  # type: ignore[attr-defined]
        if not _is_power2(c1):
            return None
        assert c1 is not None
        c1_log = _log2(c1)
    else:
        d = decompose_bit_test_icmp(cl, cr, pred)
        if d is None or not _is_power2(d[1]):
            return None
        cl, c1v, pred = d
        c1_log = _log2(c1v)
        need_and = True
    v = cl
    if isinstance(fv, BinaryOperator) and fv.operands[0] is tv and _is_power2(apint_allow_poison(fv.operands[1])):
        y = tv
        binop = fv
        need_xor = pred == P.ICMP_NE
    elif isinstance(tv, BinaryOperator) and tv.operands[0] is fv and _is_power2(apint_allow_poison(tv.operands[1])):
        y = fv
        binop = tv
        need_xor = pred == P.ICMP_EQ
    else:
        return None
    c2 = cast(int, apint_allow_poison(binop.operands[1]))
    ident = get_bin_op_identity(binop.opcode, binop.type, True)
    if ident is None or not ident.is_null_value:
        return None
    c2_log = _log2(c2)
    need_shift = c1_log != c2_log
    need_zext_trunc = scalar_width(y.type) != scalar_width(v.type)
    if int(need_shift) + int(need_xor) + int(need_zext_trunc) + int(need_and) > int(cmp.has_one_use) + int(binop.has_one_use):
        return None
    b = ic.builder
    if need_and:
        v = b.create_and(v, int_const(v.type, 1 << c1_log))
    if c2_log > c1_log:
        v = b.create_zext_or_trunc(v, y.type)
        v = b.create_shl(v, int_const(y.type, c2_log - c1_log))
    elif c1_log > c2_log:
        v = b.create_lshr(v, int_const(v.type, c1_log - c2_log))
        v = b.create_zext_or_trunc(v, y.type)
    else:
        v = b.create_zext_or_trunc(v, y.type)
    if need_xor:
        v = b.create_xor(v, int_const(y.type, c2))
    return b.create_bin_op(binop.opcode, y, v)


# --- counting zeros ------------------------------------------------------------------------------


def fold_select_ctlz_to_cttz(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Instruction | None:
    """x ? (bw-1) ^ ctlz(x & -x) : bw -> cttz(x)"""
    w = scalar_width(tv.type) if _is_int_ty(tv) else 0
    if not cmp.predicate.is_equality or not _is_zero(cmp.get_operand(1)) or not w:
        return None
    if cmp.predicate == P.ICMP_NE:
        tv, fv = fv, tv
    if getattr(fv, "opcode", None) != "xor" or apint(fv.operands[1]) != w - 1:  # type: ignore[attr-defined]
        return None
    ctlz = fv.operands[0]  # type: ignore[attr-defined]
    if not isinstance(ctlz, CallInst) or ctlz.intrinsic_base != "llvm.ctlz":
        return None
    if tv is not ctlz and apint(tv) != w:
        return None
    x = cmp.get_operand(0)
    arg = ctlz.get_arg(0)
    if getattr(arg, "opcode", None) != "and":
        return None
    a0, a1 = arg.operands[0], arg.operands[1]  # type: ignore[attr-defined]
    p_neg_x = m_neg(m_specific(x))
    if not ((a0 is x and match(a1, p_neg_x) is not None) or (a1 is x and match(a0, p_neg_x) is not None)):
        return None
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    module = ctlz.module
    assert module is not None
    name = intrinsic_name("llvm.cttz", [ctlz.type])
    assert name is not None
    decl = intrinsic_declaration(module, name, ctlz.function_type)
    return CallInst(ctlz.function_type, decl, [x, ctlz.get_arg(1)])


_P_CTTZ = m_intrinsic("llvm.cttz", m_value("x"))
_P_CTLZ = m_intrinsic("llvm.ctlz", m_value("x"))


def fold_select_cttz_ctlz(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """(X == 0) ? bw : cttz(X, true) -> cttz(X, false) (also ctlz, through zext/trunc, X == -1 with ~X)"""
    pred = cmp.predicate
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    if not pred.is_equality:
        return None
    sel_arg, on_zero = fv, tv
    if pred == P.ICMP_NE:
        sel_arg, on_zero = on_zero, sel_arg
    count = sel_arg
    if isinstance(sel_arg, CastInst) and sel_arg.opcode in ("zext", "trunc"):
        count = sel_arg.operands[0]
    m = match(count, _P_CTTZ)
    if m is None:
        m = match(count, _P_CTLZ)
    if m is None:
        return None
    x = m.value("x")
    if (x is not cl or not _is_zero(cr)) and (match(x, m_not(m_specific(cl))) is None or not _is_all_ones(cr)):
        return None
    ii = cast(CallInst, count)
    size = scalar_width(count.type)
    ctx = cmp.type.context
    if apint(on_zero) == size and _is_int_ty(on_zero):
        ii.set_arg(1, ConstantInt.get(ctx.i1, 0))
        drop_poison_generating_annotations(ii)
        ic.add_to_worklist(ii)
        return sel_arg
    if ii.has_one_use and sel_arg.has_one_use and not _is_one(ii.get_arg(1)):
        ii.set_arg(1, ConstantInt.get(ctx.i1, 1))
    return None


def fold_select_zero_or_ones(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Instruction | None:
    """(X u< 2) ? -X : -1 -> sext (X != 0); (X u> 1) ? -1 : -X -> sext (X != 0)"""
    if not cmp.has_one_use:
        return None
    c = apint_allow_poison(cmp.get_operand(1))
    if c is None:
        return None
    x = cmp.get_operand(0)
    p_neg = m_neg(m_specific(x))
    if cmp.predicate == P.ICMP_ULT and c == 2 and match(tv, p_neg) is not None and _is_all_ones(fv):
        return CastInst.create("sext", ic.builder.create_is_not_null(x), tv.type)
    if cmp.predicate == P.ICMP_UGT and c == 1 and match(fv, p_neg) is not None and _is_all_ones(tv):
        return CastInst.create("sext", ic.builder.create_is_not_null(x), tv.type)
    return None


# --- saturating arithmetic and absolute difference ----------------------------------------------


def canonicalize_saturated_subtract(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """(a u> b) ? a - b : 0 -> usub.sat(a, b); (a u> b) ? b - a : 0 -> -usub.sat(a, b)"""
    pred = cmp.predicate
    a, b_ = cmp.get_operand(0), cmp.get_operand(1)
    if _is_zero(tv) and _is_int_ty(tv):
        pred = pred.inverse
        tv, fv = fv, tv
    if not (_is_zero(fv) and _is_int_ty(fv)):
        return None
    bld = ic.builder
    if pred == P.ICMP_NE:
        if _is_zero(b_) and getattr(tv, "opcode", None) == "add" and tv.operands[0] is a and _is_all_ones(tv.operands[1]):  # type: ignore[attr-defined]
            return bld.create_binary_intrinsic("usub.sat", a, int_const(a.type, 1))
        return None
    if not pred.is_unsigned:
        return None
    if pred in (P.ICMP_ULE, P.ICMP_ULT):
        a, b_ = b_, a
        pred = pred.swapped
    w = scalar_width(a.type)
    is_negative = False

    def is_add_neg(v: Value, base: Value, c_of: Value) -> bool:
        c = apint(c_of)
        return (
            c is not None
            and getattr(v, "opcode", None) == "add"
            and v.operands[0] is base  # type: ignore[attr-defined]
            and apint(v.operands[1]) == (-c) & ((1 << w) - 1)  # type: ignore[attr-defined]
        )

    if match(tv, m_sub(m_specific(b_), m_specific(a))) is not None or is_add_neg(tv, b_, a):
        is_negative = True
    elif match(tv, m_sub(m_specific(a), m_specific(b_))) is None and not is_add_neg(tv, a, b_):
        return None
    if is_negative and not tv.has_one_use and not cmp.has_one_use:
        return None
    r = bld.create_binary_intrinsic("usub.sat", a, b_)
    if is_negative:
        r = bld.create_neg(r)
    return r


def canonicalize_saturated_add(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """(X u< ~C) ? X + C : -1 -> uadd.sat(X, C), and the not/wrap-test forms with two variables"""
    if not cmp.has_one_use:
        return None
    c0, c1 = cmp.get_operand(0), cmp.get_operand(1)
    pred = cmp.predicate
    bld = ic.builder
    if pred == P.ICMP_ULT and getattr(tv, "opcode", None) == "add" and _is_all_ones(fv):
        x = tv.operands[0]  # type: ignore[attr-defined]
        c = apint(tv.operands[1])  # type: ignore[attr-defined]
        cmp_c = apint(c1)
        if c is not None and x is c0 and cmp_c is not None:
            w = scalar_width(x.type)
            if cmp_c == (~c) & ((1 << w) - 1):
                return bld.create_binary_intrinsic("uadd.sat", x, int_const(x.type, c))
    if _is_all_ones(fv):
        tv, fv = fv, tv
        pred = pred.inverse
    if not _is_all_ones(tv):
        return None
    if pred in (P.ICMP_UGT, P.ICMP_UGE):
        c0, c1 = c1, c0
        pred = pred.swapped
    if pred not in (P.ICMP_ULT, P.ICMP_ULE):
        return None
    mx = match(c0, m_not(m_value("x")))
    if mx is not None:
        x = mx.value("x")
        my = match(fv, m_c_add(m_specific(x), m_value("y")))
        if my is not None and my.value("y") is c1:
            return bld.create_binary_intrinsic("uadd.sat", x, c1)
    x, y = c0, c1
    if match(fv, m_c_add(m_not(m_specific(x)), m_specific(y))) is not None:
        bo = cast(BinaryOperator, fv)
        return bld.create_binary_intrinsic("uadd.sat", bo.operands[0], bo.operands[1])
    if pred == P.ICMP_ULT:
        m = match(c0, m_c_add(m_specific(c1), m_value("y")))
        if m is not None and match(fv, m_c_add(m_specific(c1), m_specific(m.value("y")))) is not None:
            return bld.create_binary_intrinsic("uadd.sat", c1, m.value("y"))
    return None


def fold_abs_diff(ic: InstCombiner, cmp: ICmpInst, tv: Value, fv: Value) -> Value | None:
    """(A s> B) ? (A - B) : (B - A) -> abs(A - B) with no-wrap subtracts"""
    if not isinstance(tv, Instruction) or not isinstance(fv, Instruction):
        return None
    pred = cmp.predicate.strict
    a, b_ = cmp.get_operand(0), cmp.get_operand(1)
    ti, fi = tv, fv
    p_ab = m_sub(m_specific(a), m_specific(b_))
    p_ba = m_sub(m_specific(b_), m_specific(a))
    if match(fi, p_ab) is not None:
        ti, fi = fi, ti
        pred = pred.swapped
    if (
        pred == P.ICMP_SGT
        and match(ti, p_ab) is not None
        and match(fi, p_ba) is not None
        and isinstance(ti, BinaryOperator)
        and isinstance(fi, BinaryOperator)
        and (ti.nsw or ti.nuw)
        and (fi.nsw or fi.nuw)
    ):
        ti.nuw = False
        if not ti.nsw:
            ti.nsw = ti.has_one_use
        ctx = cmp.type.context
        return ic.builder.create_binary_intrinsic("abs", ti, ConstantInt.get(ctx.i1, 1))
    return None


# --- the family entry point ----------------------------------------------------------------------


def fold_select_icmp_eq(ic: InstCombiner, si: SelectInst, cmp: ICmpInst) -> Instruction | None:
    """(X op1 Y) == C ? X op2 Y : (X op3 Y) op4 C -> the false arm, for and/or/xor identities"""
    pred = cmp.predicate
    if not pred.is_equality:
        return None
    tv, fv = si.true_value, si.false_value
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    if pred == P.ICMP_NE:
        tv, fv = fv, tv
    lop = getattr(cl, "opcode", None)
    if lop not in ("and", "or", "xor"):
        return None
    x, y = cl.operands[0], cl.operands[1]  # type: ignore[attr-defined]
    top = getattr(tv, "opcode", None)
    if top not in ("and", "or", "xor"):
        return None
    t0, t1 = tv.operands[0], tv.operands[1]  # type: ignore[attr-defined]
    if not ((t0 is x and t1 is y) or (t0 is y and t1 is x)):
        return None

    def inner(v: Value, opc: str) -> bool:
        if getattr(v, "opcode", None) != opc:
            return False
        a, b = v.operands[0], v.operands[1]  # type: ignore[attr-defined]
        return (a is x and b is y) or (a is y and b is x)

    def not_of(v: Value, f: object) -> bool:
        # m_NotForbidPoison: xor V, -1 (no poison lanes)
        if getattr(v, "opcode", None) != "xor":
            return False
        a, b = v.operands[0], v.operands[1]  # type: ignore[attr-defined]
        if _all_ones_no_poison(b) and f(a):  # type: ignore[operator]
            return True
        return _all_ones_no_poison(a) and bool(f(b))  # type: ignore[operator]

    def match_false(outer: str, inner_opc: str, not_mask: int) -> bool:
        if getattr(fv, "opcode", None) != outer:
            return False
        a, b = fv.operands[0], fv.operands[1]  # type: ignore[attr-defined]
        for p, q in ((a, b), (b, a)):
            if not_mask == 1:
                if not_of(p, lambda v: inner(v, inner_opc)) and q is cr:
                    return True
            elif not_mask == 2:
                if inner(p, inner_opc) and not_of(q, lambda v: v is cr):
                    return True
            elif inner(p, inner_opc) and q is cr:
                return True
        return False

    ok = False
    if lop == "and":
        if top == "or":
            ok = match_false("or", "xor", 0) or match_false("xor", "xor", 0)
        elif top == "xor":
            ok = match_false("xor", "or", 0) or match_false("and", "or", 2)
    elif lop == "or":
        if top == "and":
            ok = match_false("xor", "xor", 0) or match_false("and", "xor", 1)
        elif top == "xor":
            ok = match_false("xor", "and", 0) or match_false("and", "and", 1)
    else:
        if top == "and":
            ok = match_false("xor", "or", 0) or match_false("and", "or", 2)
        elif top == "or":
            ok = match_false("or", "and", 0) or match_false("xor", "and", 0)
    if ok:
        return ic.replace_inst_uses_with(si, fv)
    return None


_P_AND_X_P2 = m_and(m_value("x"), m_value("y"))


def fold_select_inst_with_icmp(ic: InstCombiner, si: SelectInst, cmp: ICmpInst) -> Instruction | None:
    """LLVM ``foldSelectInstWithICmp``: the folds of a select on an integer compare, in LLVM's order."""
    r = fold_select_value_equivalence(ic, si, cmp)
    if r is not None:
        return r
    v = canonicalize_spf(ic, cmp, si.true_value, si.false_value)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = fold_select_inst_with_icmp_const(ic, si, cmp)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = canonicalize_clamp_like(ic, si, cmp)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    r = try_to_reuse_constant_from_select_in_comparison(ic, si, cmp)
    if r is not None:
        return r
    v = fold_select_icmp_and(ic, si, cmp)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    changed = False
    tv, fv = si.true_value, si.false_value
    pred = cmp.predicate
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    if cr is not cl and isinstance(cr, Constant) and not isinstance(cl, Constant):
        if cl is tv and pred == P.ICMP_EQ:
            ic.replace_operand(si, 1, cr)
            changed = True
        elif cl is fv and pred == P.ICMP_NE:
            ic.replace_operand(si, 2, cr)
            changed = True
    tv, fv = si.true_value, si.false_value
    r = fold_select_icmp_eq(ic, si, cmp)
    if r is not None:
        return r
    if (
        pred == P.ICMP_SGT
        and _is_all_ones(cr)
        and not isinstance(tv, Constant)
        and not isinstance(fv, Constant)
        and cmp.has_one_use
    ):
        b = ic.builder
        b.position_before(si)
        is_neg = b.create_is_neg(cl, cmp.name)
        ic.replace_operand(si, 0, is_neg)
        si.swap_values()
        swap_prof_metadata(si)
        return si
    if _is_int_ty(tv):
        w = scalar_width(tv.type)
        smin = 1 << (w - 1)
        x: Value | None = None
        y: int | None = None
        true_when_unset = False
        if pred.is_equality and _is_zero(cr) and getattr(cl, "opcode", None) == "and":
            yc = apint_allow_poison(cl.operands[1])  # type: ignore[attr-defined]
            if _is_power2(yc):
                x = cl.operands[0]  # type: ignore[attr-defined]
                y = yc
                true_when_unset = pred == P.ICMP_EQ
        elif pred == P.ICMP_SLT and _is_zero(cr):
            x, y, true_when_unset = cl, smin, False
        elif pred == P.ICMP_SGT and _is_all_ones(cr):
            x, y, true_when_unset = cl, smin, True
        if x is not None and y is not None:
            b = ic.builder
            mask = (1 << w) - 1

            def xor_y(v: Value) -> bool:
                return getattr(v, "opcode", None) == "xor" and v.operands[0] is x and apint(v.operands[1]) == y  # type: ignore[attr-defined]

            nv: Value | None = None
            if true_when_unset and tv is x and xor_y(fv):
                nv = b.create_and(x, int_const(x.type, ~y & mask))
            elif not true_when_unset and fv is x and xor_y(tv):
                nv = b.create_and(x, int_const(x.type, ~y & mask))
            elif true_when_unset and fv is x and xor_y(tv):
                nv = b.create_or(x, int_const(x.type, y))
            elif not true_when_unset and tv is x and xor_y(fv):
                nv = b.create_or(x, int_const(x.type, y))
            if nv is not None:
                return ic.replace_inst_uses_with(si, nv)
    r = fold_select_icmp_and_and(ic, si.type, cmp, tv, fv)
    if r is not None:
        return r
    v = fold_select_icmp_and_zero_shl(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    r = fold_select_ctlz_to_cttz(ic, cmp, tv, fv)
    if r is not None:
        return r
    r = fold_select_zero_or_ones(ic, cmp, tv, fv)
    if r is not None:
        return r
    v = fold_select_icmp_and_bin_op(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = fold_select_icmp_lshr_ashr(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = fold_select_cttz_ctlz(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = canonicalize_saturated_subtract(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = canonicalize_saturated_add(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = fold_abs_diff(ic, cmp, tv, fv)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    return si if changed else None


__all__ = [
    "canonicalize_clamp_like",
    "canonicalize_saturated_add",
    "canonicalize_saturated_subtract",
    "canonicalize_spf",
    "drop_poison_generating_annotations",
    "fold_abs_diff",
    "fold_select_ctlz_to_cttz",
    "fold_select_cttz_ctlz",
    "fold_select_icmp_and",
    "fold_select_icmp_and_and",
    "fold_select_icmp_and_bin_op",
    "fold_select_icmp_and_zero_shl",
    "fold_select_icmp_eq",
    "fold_select_icmp_lshr_ashr",
    "fold_select_inst_with_icmp",
    "fold_select_inst_with_icmp_const",
    "fold_select_value_equivalence",
    "fold_select_zero_or_ones",
    "replace_in_instruction",
    "try_to_reuse_constant_from_select_in_comparison",
]
