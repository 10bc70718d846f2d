"""Selects of booleans: the logical and/or forms (LLVM ``lib/Transforms/InstCombine/InstCombineSelect.cpp``:
``InstCombinerImpl::foldSelectOfBools``).

``select c, true, x`` is ``c || x`` and ``select c, x, false`` is ``c && x``; they become the
bitwise ``or``/``and`` only when ``x`` is poison whenever ``c`` is (LLVM 19's ``impliesPoison``
rule), since the select form stops poison in ``x`` from leaking when ``c`` decides alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from llvmpy_mid.analysis.implied_condition import is_implied_condition
from llvmpy_mid.analysis.poison_tracking import implies_poison
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import (
    m_c_and,
    m_c_logical_and,
    m_c_logical_or,
    m_c_or,
    m_deferred,
    m_logical_and,
    m_logical_or,
    m_not,
    m_one,
    m_one_use,
    m_select,
    m_specific,
    m_value,
    m_zero,
    match,
)
from llvmpy_mid.ir.types import IntegerType

if TYPE_CHECKING:
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_P_ONE = m_one()
_P_ZERO = m_zero()
_P_SEL_A_ONE_B = m_one_use(m_select(m_value("a"), m_one(), m_value("b")))
_P_SEL_A_B_ZERO = m_one_use(m_select(m_value("a"), m_value("b"), m_zero()))
_P_LAND_AB = m_logical_and(m_value("a"), m_value("b"))
_P_LOR_AB = m_logical_or(m_value("a"), m_value("b"))
_P_LAND_NOT_NOT = m_logical_and(m_not(m_value("a")), m_not(m_value("b")))
_P_LOR_NOT_NOT = m_logical_or(m_not(m_value("a")), m_not(m_value("b")))
_P_SEL_A_ONE_B_ANY = m_select(m_value("a"), m_one(), m_value("b"))
_P_SEL_A_B_ZERO_ANY = m_select(m_value("a"), m_value("b"), m_zero())
_P_XOR_FORM = m_c_logical_and(
    m_not(m_logical_and(m_value("a"), m_value("b"))), m_c_logical_or(m_deferred("a"), m_deferred("b"))
)
_P_LAND_NOT_C_B = m_c_logical_and(m_not(m_value("c")), m_value("b"))
_P_LAND_NOT_C_A = m_c_logical_and(m_not(m_value("c")), m_value("a"))


def _is_one(v: Value) -> bool:
    return match(v, _P_ONE) is not None


def _is_zero(v: Value) -> bool:
    return match(v, _P_ZERO) is not None


def _is_const_expr(v: Value) -> bool:
    return isinstance(v, ConstantExpr)


def _common() -> Any:
    """The shared InstCombine helpers (``common.py``), when present."""
    try:
        from llvmpy_mid.transform.instcombine import common
    except ImportError:  # pragma: no cover - the module comes from another part of the work
        return None
    return common


def _and_or_xor_fn(name: str) -> Callable[..., Any] | None:
    """A fold of the and/or/xor family (``and_or_xor_icmps.py`` or ``and_or_xor.py``), when present."""
    import importlib

    for mod in ("and_or_xor_icmps", "and_or_xor"):
        try:
            m = importlib.import_module("llvmpy_mid.transform.instcombine." + mod)
        except ImportError:  # pragma: no cover - the module comes from another part of the work
            continue
        fn = getattr(m, name, None)
        if callable(fn):
            return cast("Callable[..., Any]", fn)
    return None


def fold_select_of_bools(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """select c, true, x -> or c, x / select c, x, false -> and c, x when poison-safe, and the
    other i1 select identities of LLVM's ``foldSelectOfBools``"""
    cond, tv, fv = si.condition, si.true_value, si.false_value
    sel_ty = si.type
    st = sel_ty.scalar_type
    if not (isinstance(st, IntegerType) and st.width == 1) or isinstance(cond, Constant) or tv.type is not cond.type:
        return None
    one = Constant.get_all_ones_value(sel_ty)
    zero = Constant.get_null_value(sel_ty)
    b = ic.builder

    if _is_one(tv):
        if implies_poison(fv, cond):
            return BinaryOperator.create("or", cond, fv)
        m = match(cond, _P_SEL_A_ONE_B)
        if m is not None and implies_poison(fv, m.value("b")):
            return ic.replace_inst_uses_with(si, b.create_logical_or(m.value("a"), b.create_or(m.value("b"), fv)))
        if isinstance(cond, FCmpInst) and isinstance(fv, FCmpInst):
            fn = _and_or_xor_fn("fold_logic_of_fcmps")
            if fn is not None:
                v = fn(ic, cond, fv, False, True)
                if v is not None:
                    return ic.replace_inst_uses_with(si, v)
        mc = match(cond, _P_LAND_AB)
        mf = match(fv, _P_LAND_AB)
        if mc is not None and mf is not None and (cond.has_one_use or fv.has_one_use):
            a, bb = mc.value("a"), mc.value("b")
            c, d = mf.value("a"), mf.value("b")
            cond_logic_and = isinstance(cond, SelectInst)
            false_logic_and = isinstance(fv, SelectInst)

            def and_factorization(common: Value, inner_cond: Value, inner_val: Value, sel_first: bool = False) -> Instruction:
                inner_sel = b.create_select(inner_cond, one, inner_val)
                if sel_first:
                    common, inner_sel = inner_sel, common
                if false_logic_and or (cond_logic_and and common is a):
                    return SelectInst(common, inner_sel, zero)
                return BinaryOperator.create("and", common, inner_sel)

            if a is c:
                return and_factorization(a, bb, d)
            if a is d:
                return and_factorization(a, bb, c)
            if bb is c:
                return and_factorization(bb, a, d)
            if bb is d:
                return and_factorization(bb, a, c, cond_logic_and and false_logic_and)

    if _is_zero(fv):
        if implies_poison(tv, cond):
            return BinaryOperator.create("and", cond, tv)
        m = match(cond, _P_SEL_A_B_ZERO)
        if m is not None and implies_poison(tv, m.value("b")):
            return ic.replace_inst_uses_with(si, b.create_logical_and(m.value("a"), b.create_and(m.value("b"), tv)))
        if isinstance(cond, FCmpInst) and isinstance(tv, FCmpInst):
            fn = _and_or_xor_fn("fold_logic_of_fcmps")
            if fn is not None:
                v = fn(ic, cond, tv, True, True)
                if v is not None:
                    return ic.replace_inst_uses_with(si, v)
        mc = match(cond, _P_LOR_AB)
        mt = match(tv, _P_LOR_AB)
        if mc is not None and mt is not None and (cond.has_one_use or tv.has_one_use):
            a, bb = mc.value("a"), mc.value("b")
            c, d = mt.value("a"), mt.value("b")
            cond_logic_or = isinstance(cond, SelectInst)
            true_logic_or = isinstance(tv, SelectInst)

            def or_factorization(common: Value, inner_cond: Value, inner_val: Value, sel_first: bool = False) -> Instruction:
                inner_sel = b.create_select(inner_cond, inner_val, zero)
                if sel_first:
                    common, inner_sel = inner_sel, common
                if true_logic_or or (cond_logic_or and common is a):
                    return SelectInst(common, one, inner_sel)
                return BinaryOperator.create("or", common, inner_sel)

            if a is c:
                return or_factorization(a, bb, d)
            if a is d:
                return or_factorization(a, bb, c)
            if bb is c:
                return or_factorization(bb, a, d)
            if bb is d:
                return or_factorization(bb, a, c, cond_logic_or and true_logic_or)

    # select a, false, b -> select !a, b, false (full constants only)
    if tv is zero:
        not_cond = b.create_not(cond, "not." + cond.name)
        return SelectInst(not_cond, fv, zero)
    if fv is one:
        not_cond = b.create_not(cond, "not." + cond.name)
        return SelectInst(not_cond, one, tv)

    m = match(si, _P_LAND_NOT_NOT)
    if m is not None and (cond.has_one_use or tv.has_one_use):
        a, bb = m.value("a"), m.value("b")
        if not _is_const_expr(a) and not _is_const_expr(bb):
            return _not_inst(b.create_select(a, one, bb))
    m = match(si, _P_LOR_NOT_NOT)
    if m is not None and (cond.has_one_use or fv.has_one_use):
        a, bb = m.value("a"), m.value("b")
        if not _is_const_expr(a) and not _is_const_expr(bb):
            return _not_inst(b.create_select(a, bb, zero))

    m = match(cond, _P_SEL_A_ONE_B_ANY)
    if m is not None and _is_one(tv) and fv is m.value("b"):
        return ic.replace_operand(si, 0, m.value("a"))
    m = match(cond, _P_SEL_A_B_ZERO_ANY)
    if m is not None and tv is m.value("b") and _is_zero(fv):
        return ic.replace_operand(si, 0, m.value("a"))

    m = match(si, _P_XOR_FORM)
    if m is not None:
        return BinaryOperator.create("xor", m.value("a"), m.value("b"))

    # select (~a | c), a, b -> select a, (select c, true, b), false
    m = match(cond, m_one_use(m_c_or(m_not(m_specific(tv)), m_value("c"))))
    if m is not None:
        orv = b.create_select(m.value("c"), one, fv)
        return SelectInst(tv, orv, zero)
    cm = _common()
    # select (c & b), a, b -> select b, (select ~c, true, a), false
    m = match(cond, m_one_use(m_c_and(m_value("c"), m_specific(fv))))
    if m is not None and cm is not None:
        c = m.value("c")
        not_c = cm.get_freely_inverted(ic, c, c.has_one_use, b)
        if not_c is not None:
            orv = b.create_select(not_c, one, tv)
            return SelectInst(fv, orv, zero)
    # select (a | c), a, b -> select a, true, (select ~c, b, false)
    m = match(cond, m_one_use(m_c_or(m_specific(tv), m_value("c"))))
    if m is not None and cm is not None:
        c = m.value("c")
        not_c = cm.get_freely_inverted(ic, c, c.has_one_use, b)
        if not_c is not None:
            andv = b.create_select(not_c, fv, zero)
            return SelectInst(tv, one, andv)
    # select (c & ~b), a, b -> select b, true, (select c, a, false)
    m = match(cond, m_one_use(m_c_and(m_value("c"), m_not(m_specific(fv)))))
    if m is not None:
        andv = b.create_select(m.value("c"), tv, zero)
        return SelectInst(fv, one, andv)

    if _is_zero(fv) or _is_one(tv):
        is_and = _is_zero(fv)
        op1 = tv if is_and else fv
        from llvmpy_mid.transform.instcombine.and_or_xor_icmps import fold_check_for_zero_and_mul_with_overflow

        r0 = fold_check_for_zero_and_mul_with_overflow(ic, si, cond, op1, is_and)
        if r0 is not None:
            return r0
        if isinstance(cond, ICmpInst) and isinstance(op1, ICmpInst):
            fn = _and_or_xor_fn("fold_and_or_of_icmps")
            if fn is not None:
                v = fn(ic, cond, op1, si, is_and, True)
                if v is not None:
                    return ic.replace_inst_uses_with(si, v)

    dl = ic.dl
    m = match(cond, _P_LOR_AB)
    if m is not None and _is_zero(fv):
        if is_implied_condition(tv, m.value("b"), dl) is False:
            return ic.replace_operand(si, 0, m.value("a"))
    m = match(tv, _P_LOR_AB)
    if m is not None and _is_zero(fv):
        if is_implied_condition(cond, m.value("b"), dl) is False:
            return ic.replace_operand(si, 1, m.value("a"))
    m = match(fv, _P_LAND_AB)
    if m is not None and _is_one(tv):
        if is_implied_condition(cond, m.value("b"), dl, False) is True:
            return ic.replace_operand(si, 2, m.value("a"))
    m = match(cond, _P_LAND_AB)
    if m is not None and _is_one(tv):
        if is_implied_condition(fv, m.value("b"), dl, False) is True:
            return ic.replace_operand(si, 0, m.value("a"))

    if _is_one(tv):
        mf = match(fv, _P_LAND_NOT_C_B)
        if mf is not None:
            c = mf.value("c")
            mc = match(cond, m_c_logical_and(m_specific(c), m_value("a")))
            if mc is not None:
                may_freeze = (
                    isinstance(cond, SelectInst)
                    and isinstance(fv, SelectInst)
                    and match(fv.true_value, m_not(m_specific(cond.true_value))) is not None
                )
                if may_freeze:
                    c = b.create_freeze(c)
                return SelectInst(c, mc.value("a"), mf.value("b"))
        mc2 = match(cond, _P_LAND_NOT_C_A)
        if mc2 is not None:
            c = mc2.value("c")
            mf2 = match(fv, m_c_logical_and(m_specific(c), m_value("b")))
            if mf2 is not None:
                may_freeze = (
                    isinstance(cond, SelectInst)
                    and isinstance(fv, SelectInst)
                    and match(cond.true_value, m_not(m_specific(fv.true_value))) is not None
                )
                if may_freeze:
                    c = b.create_freeze(c)
                return SelectInst(c, mf2.value("b"), mc2.value("a"))
    return None


def _not_inst(v: Value) -> Instruction:
    """``BinaryOperator::CreateNot(V)``: ``xor V, -1``."""
    return BinaryOperator.create("xor", v, Constant.get_all_ones_value(v.type))


__all__ = ["fold_select_of_bools"]
