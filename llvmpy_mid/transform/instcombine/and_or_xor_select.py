"""``(A & C) | (B & D)`` as a select (LLVM ``InstCombineAndOrXor.cpp``:
``getSelectCondition``, ``matchSelectFromAndOr``).

The condition may hide behind bitcasts (``peekThroughBitcast``); the select
is then made in the condition's lane count and cast back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import m_all_ones, m_constant, m_not, m_sext, m_value, m_xor, m_zero, match
from llvmpy_mid.transform.instcombine.common import peek_through_bitcast
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.and_or_xor_util import is_bool, is_not_of, not_of, one_use, width

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P_SEXT = m_sext(m_value("c"))
P_SEXT_NOT = m_sext(m_not(m_value("c")))
P_XOR_SEXT_C = m_xor(m_sext(m_value("c")), m_constant("k"))
P_ZERO = m_zero()
P_ONES = m_all_ones()


def _is_int(v: Value) -> bool:
    return bool(v.type.scalar_type.is_integer)


def get_select_condition(ic: InstCombiner, a: Value, b: Value, ab_is_the_same: bool) -> Value | None:
    """The i1 condition ``c`` with A = sext(c) (or c) and B = ~A, or None"""
    ty = a.type
    if not _is_int(a) or not _is_int(b):
        return None
    bld = ic.builder
    if (a is b) if ab_is_the_same else is_not_of(b, a):
        if is_bool(ty):
            return a
        a = peek_through_bitcast(a)
        if _is_int(a):
            nsb = ic.compute_num_sign_bits(a)
            if nsb == width(a.type) and nsb <= width(ty):
                return bld.create_trunc(a, _cmp_result_type(a.type))
        return None
    if ab_is_the_same:
        return None
    if isinstance(a, Constant) and isinstance(b, Constant):
        if a is ConstantExpr.get_not(b) and ic.compute_num_sign_bits(a) == width(ty):
            return bld.create_zext_or_trunc(a, _cmp_result_type(ty))
    m = match(a, P_SEXT)
    if m is not None:
        cond = m.value("c")
        if is_bool(cond.type):
            mb = match(b, P_SEXT_NOT)
            if mb is not None and mb.value("c") is cond:
                return cond
            if one_use(b):
                nb = not_of(b)
                if nb is not None:
                    nb = peek_through_bitcast(nb, True)
                    mn = match(nb, P_SEXT)
                    if mn is not None and mn.value("c") is cond:
                        return cond
    if not isinstance(ty, VectorType):
        return None
    ma = match(a, P_XOR_SEXT_C)
    mb2 = match(b, P_XOR_SEXT_C)
    if ma is not None and mb2 is not None and ma.value("c") is mb2.value("c"):
        cond = ma.value("c")
        ac = ma.constant("k")
        bc = mb2.constant("k")
        if is_bool(cond.type) and _are_inverse_vector_bitmasks(ac, bc):
            ac = ConstantExpr.get_cast("trunc", ac, _cmp_result_type(ty))
            return bld.create_xor(cond, ac)
    return None


def _are_inverse_vector_bitmasks(c1: Constant, c2: Constant) -> bool:
    ty = c1.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return False
    for k in range(ty.count):
        e1 = c1.get_aggregate_element(k)
        e2 = c2.get_aggregate_element(k)
        if e1 is None or e2 is None:
            return False
        z1 = match(e1, P_ZERO) is not None
        z2 = match(e2, P_ZERO) is not None
        o1 = match(e1, P_ONES) is not None
        o2 = match(e2, P_ONES) is not None
        if not ((z1 and o2) or (z2 and o1)):
            return False
    return True


def _cmp_result_type(ty: Type) -> Type:
    """``CmpInst::makeCmpResultType``."""
    i1 = ty.context.i1
    if isinstance(ty, VectorType):
        return ty.context.vector_type(i1, ty.count, ty.scalable)
    return i1


def match_select_from_and_or(
    ic: InstCombiner, a: Value, b: Value, c: Value, d: Value, invert_false_val: bool = False
) -> Value | None:
    """(A & B) | (C & D) -> A' ? B : D when C is ~A (or, inverted, (A & B) | ~(A | D) -> A' ? B : ~D)"""
    orig_ty = a.type
    a = peek_through_bitcast(a, True)
    c = peek_through_bitcast(c, True)
    cond = get_select_condition(ic, a, c, invert_false_val)
    if cond is None:
        return None
    bld = ic.builder
    sel_ty = a.type
    cty = cond.type
    if isinstance(cty, VectorType):
        elts = cty.count
        total = width(sel_ty) * (sel_ty.count if isinstance(sel_ty, VectorType) else 1)
        sel_ty = sel_ty.context.vector_type(sel_ty.context.int_type(total // elts), elts, cty.scalable)
    bc_b = bld.create_cast("bitcast", b, sel_ty)
    if invert_false_val:
        d = bld.create_not(d)
    bc_d = bld.create_cast("bitcast", d, sel_ty)
    sel = bld.create_select(cond, bc_b, bc_d)
    return bld.create_cast("bitcast", sel, orig_ty)


def fold_and_or_of_select_using_implied_cond(ic: InstCombiner, op: Value, si: SelectInst, is_and: bool) -> Instruction | None:
    """Op & (select C, T, F) -> select Op, (T or F as Op implies C), false (Op | ... -> select Op, true, ...)
    (LLVM ``foldAndOrOfSelectUsingImpliedCond``, InstCombineSelect.cpp)"""
    from llvmpy_mid.analysis.implied_condition import is_implied_condition

    if si.condition.type is not op.type:
        return None
    implied = is_implied_condition(op, si.condition, ic.dl, is_and)
    if implied is None:
        return None
    v = si.true_value if implied else si.false_value
    if is_and:
        return SelectInst(op, v, Constant.get_null_value(op.type))
    return SelectInst(op, Constant.get_all_ones_value(op.type), v)


__all__ = ["fold_and_or_of_select_using_implied_cond", "get_select_condition", "match_select_from_and_or"]
