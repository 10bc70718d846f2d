"""``select`` of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``: ``simplifySelectInst`` with
``simplifySelectWithICmpCond`` (bit tests, min/max, funnel shifts and abs, the
equality substitution ``simplifySelectWithICmpEq``), ``simplifySelectWithFCmp``,
``foldSelectWithBinaryOp`` and the logical and/or forms of boolean selects).
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.cmp_inst_analysis import decompose_bit_test_icmp
from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.instsimplify.other import simplify_with_op_replaced
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, ConstantVector, PoisonValue, get_splat_value
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.ir.value import Value

RECURSION_LIMIT = u.RECURSION_LIMIT
P = Predicate


def _select_bit_test(tv: Value, fv: Value, x: Value, y: int, true_when_unset: bool) -> Value | None:
    for a, b in ((fv, tv), (tv, fv)):
        if a is x:
            ops = u.binop(b, "and")
            if ops is not None and ops[0] is x:
                c = u.apint(ops[1])
                if c is not None and y == ~c.value & c.type.mask:
                    return fv if true_when_unset else tv
    if y and y & (y - 1) == 0:
        if fv is x:
            ops = u.binop(tv, "or")
            if ops is not None and ops[0] is x:
                c = u.apint(ops[1])
                if c is not None and c.value == y:
                    if true_when_unset and isinstance(tv, BinaryOperator) and tv.disjoint:
                        return None
                    return tv if true_when_unset else fv
        if tv is x:
            ops = u.binop(fv, "or")
            if ops is not None and ops[0] is x:
                c = u.apint(ops[1])
                if c is not None and c.value == y:
                    if not true_when_unset and isinstance(fv, BinaryOperator) and fv.disjoint:
                        return None
                    return tv if true_when_unset else fv
    return None


_MINMAX_PRED = {
    "llvm.smax": P.ICMP_SGT,
    "llvm.smin": P.ICMP_SLT,
    "llvm.umax": P.ICMP_UGT,
    "llvm.umin": P.ICMP_ULT,
}


_MINMAX_LIMIT: dict[Predicate, Callable[[int], int]] = {
    P.ICMP_SGT: lambda w: 1 << (w - 1),
    P.ICMP_SLT: lambda w: (1 << (w - 1)) - 1,
    P.ICMP_UGT: lambda w: 0,
    P.ICMP_ULT: lambda w: (1 << w) - 1,
}


def _cmp_sel_of_max_min(cl: Value, cr: Value, pred: Predicate, tv: Value, fv: Value) -> Value | None:
    if cr is tv or cr is fv:
        cl, cr = cr, cl
        pred = pred.swapped
    if cl is fv:
        tv, fv = fv, tv
        pred = pred.inverse
    x, y = cl, cr
    peeked = False
    if isinstance(fv, ShuffleVectorInst) and _is_select_shuffle(fv):
        if fv.get_operand(0) is y:
            fv = fv.get_operand(1)
        elif fv.get_operand(1) is y:
            fv = fv.get_operand(0)
        else:
            return None
        peeked = True
    name = u.intrinsic_name(fv)
    mm_pred = _MINMAX_PRED.get(name)
    if mm_pred is None or tv is not x:
        return None
    args = u.intrinsic_args(fv, name)
    assert args is not None
    if not ((args[0] is x and args[1] is y) or (args[0] is y and args[1] is x)):
        return None
    if mm_pred == pred.strict if pred.is_relational else False:
        return fv
    if peeked:
        return None
    if pred == P.ICMP_EQ:
        return fv
    if pred == P.ICMP_NE:
        return x
    inv = pred.inverse
    if inv.is_relational and mm_pred == inv.strict:
        return x
    return None


def _is_select_shuffle(sv: ShuffleVectorInst) -> bool:
    """Each lane takes the same lane of one of the two inputs (LLVM ``isSelect``)."""
    n = sv.source_length
    mask = sv.mask
    if sv.changes_length:
        return False
    used0 = used1 = False
    for i, m in enumerate(mask):
        if m == -1:
            continue
        if m == i:
            used0 = True
        elif m == i + n:
            used1 = True
        else:
            return False
    return used0 and used1


def _select_with_icmp_eq(cl: Value, cr: Value, tv: Value, fv: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    if simplify_with_op_replaced(fv, cl, cr, q.get_without_undef(), False, None, max_recurse) is tv:
        return fv
    if simplify_with_op_replaced(tv, cl, cr, q, True, None, max_recurse) is fv:
        return fv
    return None


def _select_with_icmp_cond(cond: Value, tv: Value, fv: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    if not isinstance(cond, ICmpInst):
        return None
    pred = cond.predicate
    cl = cond.lhs
    cr = cond.rhs
    v = _cmp_sel_of_max_min(cl, cr, pred, tv, fv)
    if v is not None:
        return v
    if pred == P.ICMP_NE:
        pred = P.ICMP_EQ
        tv, fv = fv, tv
    if tv.type.is_int_or_int_vector and tv is cl and fv is cr and pred in _MINMAX_LIMIT:
        # select (X pred Y), X, Y is a min/max; Y its identity limit -> X
        if u.is_specific_int(cr, _MINMAX_LIMIT[pred](u.scalar_bits(tv.type))):
            return cl
    if pred == P.ICMP_EQ and u.is_zero(cr):
        ops = u.binop(cl, "and")
        if ops is not None:
            y = u.apint(ops[1])
            if y is not None:
                v = _select_bit_test(tv, fv, ops[0], y.value, True)
                if v is not None:
                    return v
        for name, xi in (("llvm.fshl", 0), ("llvm.fshr", 1)):
            args = u.intrinsic_args(tv, name)
            if args is not None and fv is args[xi] and cl is args[2]:
                return fv
        for name in ("llvm.fshl", "llvm.fshr"):
            args = u.intrinsic_args(fv, name)
            if args is not None and args[0] is args[1] and tv is args[0] and cl is args[2]:
                return fv
        a1 = u.intrinsic_args(tv, "llvm.abs")
        n2 = u.neg_of(fv)
        if a1 is not None and a1[0] is cl and n2 is not None:
            a2 = u.intrinsic_args(n2, "llvm.abs")
            if a2 is not None and a2[0] is cl:
                return fv
        n1 = u.neg_of(tv)
        a2b = u.intrinsic_args(fv, "llvm.abs")
        if n1 is not None and a2b is not None and a2b[0] is cl:
            a1b = u.intrinsic_args(n1, "llvm.abs")
            if a1b is not None and a1b[0] is cl:
                return fv
    dec = decompose_bit_test_icmp(cl, cr, pred)
    if dec is not None:
        v = _select_bit_test(tv, fv, dec[0], dec[1], dec[2] == P.ICMP_EQ)
        if v is not None:
            return v
    if pred == P.ICMP_EQ:
        v = _select_with_icmp_eq(cl, cr, tv, fv, q, max_recurse)
        if v is not None:
            return v
        v = _select_with_icmp_eq(cr, cl, tv, fv, q, max_recurse)
        if v is not None:
            return v
        ors = u.binop(cl, "or")
        if ors is not None and u.is_zero(cr):
            for x in ors:
                v = _select_with_icmp_eq(x, cr, tv, fv, q, max_recurse)
                if v is not None:
                    return v
        ands = u.binop(cl, "and")
        if ands is not None and u.is_all_ones(cr):
            for x in ands:
                v = _select_with_icmp_eq(x, cr, tv, fv, q, max_recurse)
                if v is not None:
                    return v
    return None


def _select_with_fcmp(cond: Value, t: Value, f: Value, q: SimplifyQuery) -> Value | None:
    if not isinstance(cond, FCmpInst):
        return None
    if not ((cond.lhs is t and cond.rhs is f) or (cond.lhs is f and cond.rhs is t)):
        return None
    pred = cond.predicate
    nsz = False
    cx = q.cxt_i
    if cx is not None and hasattr(cx, "fast_math_flags") and _is_fp_math_operator(cx):
        from llvmpy_mid.ir.instructions.flags import FastMathFlags

        nsz = bool(cx.fast_math_flags & FastMathFlags.NSZ)
    if nsz or _nonzero_fp(t) or _nonzero_fp(f):
        if pred == P.FCMP_OEQ:
            return f
        if pred == P.FCMP_UNE:
            return t
    return None


def _is_fp_math_operator(i: Instruction) -> bool:
    ty = i.type
    while isinstance(ty, VectorType):
        ty = ty.element_type
    return ty.is_floating_point or i.opcode == "fcmp"


def _nonzero_fp(v: Value) -> bool:
    c: Value | None = v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        c = get_splat_value(v)
    return isinstance(c, ConstantFP) and not c.is_zero_value


def _logical_pair(v: Value, is_and: bool) -> tuple[Value, Value] | None:
    """``and a, b`` / ``select a, b, false`` (or the or forms) (LLVM ``m_LogicalAnd``/``m_LogicalOr``)."""
    ops = u.binop(v, "and" if is_and else "or")
    if ops is not None:
        return ops
    if isinstance(v, SelectInst) and v.condition.type is v.type:
        if is_and:
            f = v.false_value
            if isinstance(f, Constant) and f.is_null_value:
                return v.condition, v.true_value
        else:
            t = v.true_value
            if isinstance(t, ConstantInt) and t.value == 1:
                return v.condition, v.false_value
            if isinstance(t, Constant) and isinstance(t.type, VectorType):
                s = get_splat_value(t)
                if isinstance(s, ConstantInt) and s.value == 1:
                    return v.condition, v.false_value
    return None


def _c_logical_with(v: Value, is_and: bool, x: Value) -> Value | None:
    pair = _logical_pair(v, is_and)
    if pair is None:
        return None
    if pair[0] is x:
        return pair[1]
    if pair[1] is x:
        return pair[0]
    return None


def simplify_select_inst(cond: Value, tv: Value, fv: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``select cond, tv, fv`` (LLVM ``simplifySelectInst``)."""
    if isinstance(cond, Constant):
        if isinstance(tv, Constant) and isinstance(fv, Constant):
            from llvmpy_mid.ir.constant_fold import constant_fold_select_instruction

            c = constant_fold_select_instruction(cond, tv, fv)
            if c is not None:
                return c
        if isinstance(cond, PoisonValue):
            return u.poison(tv.type)
        if u.is_undef(q, cond):
            return fv if isinstance(fv, Constant) else tv
        if u.is_one(cond):
            return tv
        if u.is_zero(cond):
            return fv
    if cond.type is tv.type:
        cty = cond.type
        if u.is_one(tv) and u.is_zero_int(fv):
            return cond
        p = _logical_pair(cond, True)
        if p is not None and ((p[0] is tv and p[1] is fv) or (p[0] is fv and p[1] is tv)):
            return fv
        p = _logical_pair(cond, False)
        if p is not None and ((p[0] is tv and p[1] is fv) or (p[0] is fv and p[1] is tv)):
            return tv
        if _c_logical_with(cond, False, fv) is not None and u.is_zero_int(tv):
            return u.get_false(cty)
        if u.is_zero_int(fv):
            nc = u.not_of(cond)
            if nc is not None and _c_logical_with(nc, False, tv) is not None:
                return u.get_false(cty)
            nt = u.not_of(tv)
            if nt is not None and _c_logical_with(nt, False, cond) is not None:
                return u.get_false(cty)
            if _c_logical_with(cond, False, tv) is not None:
                return tv
            if _c_logical_with(tv, False, cond) is not None:
                return cond
            for a, b in ((cond, tv), (tv, cond)):
                pa = _logical_pair(a, False)
                if pa is None:
                    continue
                for x, ny in ((pa[0], pa[1]), (pa[1], pa[0])):
                    y = u.not_of(ny)
                    if y is None:
                        continue
                    pb = _logical_pair(b, False)
                    if pb is not None and ((pb[0] is x and pb[1] is y) or (pb[0] is y and pb[1] is x)):
                        return x
        if u.is_one(tv):
            nc = u.not_of(cond)
            if nc is not None and _c_logical_with(nc, True, fv) is not None:
                return u.get_true(cty)
            nf = u.not_of(fv)
            if nf is not None and _c_logical_with(nf, True, cond) is not None:
                return u.get_true(cty)
            if _c_logical_with(cond, True, fv) is not None:
                return fv
            if _c_logical_with(fv, True, cond) is not None:
                return cond
    if tv is fv:
        return tv
    if cond is tv:
        if u.is_zero_int(fv):
            return cond
        if u.is_one(fv):
            return u.get_true(cond.type)
    if cond is fv:
        if u.is_one(tv):
            return cond
        if u.is_zero_int(tv):
            return u.get_false(cond.type)
    from llvmpy_mid.analysis.value_tracking import implies_poison, is_guaranteed_not_to_be_poison

    if isinstance(tv, PoisonValue) or (u.is_undef(q, tv) and implies_poison(fv, cond)):
        return fv
    if isinstance(fv, PoisonValue) or (u.is_undef(q, fv) and implies_poison(tv, cond)):
        return tv
    ty = tv.type
    if isinstance(ty, VectorType) and not ty.scalable and isinstance(tv, Constant) and isinstance(fv, Constant):
        new_c: list[Constant] = []
        for i in range(ty.count):
            te = tv.get_aggregate_element(i)
            fe = fv.get_aggregate_element(i)
            if te is None or fe is None:
                break
            if te is fe:
                new_c.append(te)
            elif isinstance(te, PoisonValue) or (u.is_undef(q, te) and is_guaranteed_not_to_be_poison(fe)):
                new_c.append(fe)
            elif isinstance(fe, PoisonValue) or (u.is_undef(q, fe) and is_guaranteed_not_to_be_poison(te)):
                new_c.append(te)
            else:
                break
        if len(new_c) == ty.count:
            return ConstantVector.get(new_c)
    v = _select_with_icmp_cond(cond, tv, fv, q, max_recurse)
    if v is not None:
        return v
    v = _select_with_fcmp(cond, tv, fv, q)
    if v is not None:
        return v
    v = _select_with_binary_op(cond, tv, fv)
    if v is not None:
        return v
    from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition

    imp = is_implied_by_dom_condition(cond, q.cxt_i, q.dl)
    if imp is not None:
        return tv if imp else fv
    return None


def _select_with_binary_op(cond: Value, tv: Value, fv: Value) -> Value | None:
    """``select ((tv == fv) & (X == Y)), tv, fv`` with X or Y an arm (LLVM ``foldSelectWithBinaryOp``)."""
    if not isinstance(cond, BinaryOperator):
        return None
    if cond.opcode == "or":
        expected = P.ICMP_NE
    elif cond.opcode == "and":
        expected = P.ICMP_EQ
    else:
        return None
    a, b = cond.lhs, cond.rhs
    for c1, c2 in ((a, b), (b, a)):
        if not isinstance(c1, ICmpInst) or not isinstance(c2, ICmpInst):
            continue
        if not ((c1.lhs is tv and c1.rhs is fv) or (c1.lhs is fv and c1.rhs is tv)):
            continue
        if c1.predicate != c2.predicate or c1.predicate != expected:
            return None
        x, y = c2.lhs, c2.rhs
        if x is tv or x is fv or y is tv or y is fv:
            return tv if cond.opcode == "or" else fv
        return None
    return None


__all__ = ["simplify_select_inst"]
