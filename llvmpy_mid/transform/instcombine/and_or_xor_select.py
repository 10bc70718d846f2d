"""``(A & C) | (B & D)`` as a select (LLVM ``InstCombineAndOrXor.cpp``:
``getSelectCondition``, ``matchSelectFromAndOr``).

Only the forms without bitcasts are done: when the condition would be found
through a bitcast (``peekThroughBitcast``), the fold is skipped whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import m_not, m_sext, m_value, match
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.and_or_xor_util import is_bool, is_not_of, not_of, one_use, width

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P_SEXT = m_sext(m_value("c"))
P_SEXT_NOT = m_sext(m_not(m_value("c")))


def _is_int(v: Value) -> bool:
    return bool(v.type.scalar_type.is_integer)


def get_select_condition(ic: InstCombiner, a: Value, b: Value, ab_is_the_same: bool) -> Value | None:
    """The i1 condition ``c`` with A = sext(c) (or c) and B = ~A, or None"""
    ty = a.type
    if not _is_int(a) or not _is_int(b):
        return None
    if (a is b) if ab_is_the_same else is_not_of(b, a):
        if is_bool(ty):
            return a
        if getattr(a, "opcode", None) == "bitcast":
            return None
        if ic.compute_num_sign_bits(a) == width(ty):
            return ic.builder.create_trunc(a, _cmp_result_type(ty))
        return None
    if ab_is_the_same:
        return None
    if isinstance(a, Constant) and isinstance(b, Constant):
        if a is ConstantExpr.get_not(b) and ic.compute_num_sign_bits(a) == width(ty):
            return ic.builder.create_zext_or_trunc(a, _cmp_result_type(ty))
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
                    if getattr(nb, "opcode", None) == "bitcast":
                        return None
                    mn = match(nb, P_SEXT)
                    if mn is not None and mn.value("c") is cond:
                        return cond
    # the non-splat vector constant forms are not done
    return None


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
    if getattr(a, "opcode", None) == "bitcast" or getattr(c, "opcode", None) == "bitcast":
        return None
    cond = get_select_condition(ic, a, c, invert_false_val)
    if cond is None:
        return None
    if cond.type is not ic.fn.context.i1 and not is_bool(cond.type):
        return None
    if isinstance(cond.type, VectorType) and cond.type is not _cmp_result_type(a.type):
        return None
    if invert_false_val:
        d = ic.builder.create_not(d)
    return ic.builder.create_select(cond, b, d)


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
