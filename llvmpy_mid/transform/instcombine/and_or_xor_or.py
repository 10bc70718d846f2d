"""InstCombine's ``or`` visitor (LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``:
``visitOr``, ``foldOrToXor``, ``foldOrOfInversions`` and the ``or``-only folds).

The helpers ``visitAnd`` shares live in :mod:`.and_or_xor`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from llvmpy_mid.analysis.instruction_simplify import simplify_and_inst, simplify_binop, simplify_or_inst
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, get_splat_value
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst, ZExtInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_all_ones,
    m_and,
    m_apint,
    m_apint_allow_poison,
    m_ashr,
    m_c_add,
    m_c_and,
    m_c_or,
    m_c_xor,
    m_combine_or,
    m_constant,
    m_constant_int,
    m_cst_pred,
    m_imm_constant,
    m_lshr,
    m_mul,
    m_neg,
    m_not,
    m_nsw_sub,
    m_one,
    m_one_use,
    m_or,
    m_power2,
    m_select,
    m_sext,
    m_sext_or_self,
    m_shl,
    m_sign_mask,
    m_sub,
    m_value,
    m_xor,
    m_zext,
    m_zext_or_self,
    match,
)
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common as cm
from llvmpy_mid.transform.instcombine.and_or_xor_icmps import (
    fold_and_or_of_icmps,
    fold_logic_of_fcmps,
    fold_logic_of_is_fpclass,
    reassociate_fcmps,
)
from llvmpy_mid.transform.instcombine.and_or_xor_util import (
    binop,
    cint,
    element_wise_bitcast_source,
    has_pair,
    intrinsic_call,
    is_known_inversion,
    is_bool,
    is_ieee_fp_scalar,
    is_not_of,
    not_of,
    one_use,
    other,
    width,
)

from llvmpy_mid.transform.instcombine.and_or_xor import (
    P_APINT_C,
    P_SEXT_BOOL,
    P_SIGN_MASK,
    P_ZERO,
    _create_not,
    _fold_fcmp_pair,
    _fold_icmp_pairs,
    _fold_simple_recurrence,
    _fold_with_implied_cond,
    _no_implicit_float,
    _take_name,
    canonicalize_logic_first,
    fold_bin_op_of_displaced_shifts,
    fold_binop_of_sext_bool_to_select,
    fold_bitwise_logic_with_intrinsics,
    fold_casted_bitwise_logic,
    fold_complex_and_or_patterns,
    match_de_morgans_laws,
    reassociate_for_uses,
    simplify_and_or_with_op_replaced,
    sink_not_into_other_hand_of_logical_op,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def fold_or_to_xor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(A & B) | ~(A | B) -> ~(A ^ B); (A ^ B) | ~(A | B) -> ~(A & B); (A & ~B) | (~A & B) -> A ^ B"""
    op0, op1 = i.lhs, i.rhs
    if one_use(op0) or one_use(op1):
        ab = binop(op0, "and")
        if ab is not None:
            n = not_of(op1)
            if n is not None and has_pair(n, "or", ab[0], ab[1]):
                return _create_not(ic.builder.create_xor(ab[0], ab[1]))
        ab = binop(op0, "xor")
        if ab is not None:
            n = not_of(op1)
            if n is not None and has_pair(n, "or", ab[0], ab[1]):
                return _create_not(ic.builder.create_and(ab[0], ab[1]))
    ab = binop(op0, "and")
    if ab is not None:
        for a, nb in ((ab[0], ab[1]), (ab[1], ab[0])):
            b = not_of(nb)
            if b is None:
                continue
            cd = binop(op1, "and")
            if cd is not None and ((is_not_of(cd[0], a) and cd[1] is b) or (is_not_of(cd[1], a) and cd[0] is b)):
                return BinaryOperator.create("xor", a, b)
            break
    return None


def _fold_or_of_overflow_checks(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """umul.with.overflow: ov | (mul != 0) -> (A != 0) & (B != 0); ov | (icmp res, C2) -> ov | (icmp X, C2 -/+ C1)"""
    from llvmpy_mid.ir.instructions.calls import CallInst

    op0, op1 = i.lhs, i.rhs
    b = ic.builder
    for ov, cmp in ((op0, op1), (op1, op0)):
        wo = _extract_of(ov, 1)
        if wo is None or not isinstance(cmp, ICmpInst):
            continue
        mul = cmp.get_operand(0)
        if _extract_of(mul, 0) is not wo or match(cmp.get_operand(1), P_ZERO) is None:
            continue
        if (one_use(ov) or (one_use(cmp) and one_use(mul))) and cmp.predicate == Predicate.ICMP_NE:
            if isinstance(wo, CallInst) and wo.intrinsic_base == "llvm.umul.with.overflow":
                nn_a = b.create_is_not_null(wo.get_operand(0))
                nn_b = b.create_is_not_null(wo.get_operand(1))
                return BinaryOperator.create("and", nn_a, nn_b)
        break
    for ov, cmp in ((op0, op1), (op1, op0)):
        wo = _extract_of(ov, 1)
        if wo is None or not isinstance(wo, CallInst):
            continue
        base = wo.intrinsic_base
        if base not in _WITH_OVERFLOW:
            continue
        if not isinstance(cmp, ICmpInst) or not one_use(cmp) or _extract_of(cmp.get_operand(0), 0) is not wo:
            continue
        c2 = match(cmp.get_operand(1), P_APINT_C)
        if c2 is None:
            continue
        opcode, signed = _WITH_OVERFLOW[base]
        pred = cmp.predicate
        if opcode not in ("add", "sub") or not (pred.is_equality or signed == pred.is_signed):
            return None
        c1 = match(wo.get_operand(1), P_APINT_C)
        if c1 is None:
            return None
        lhs = wo.get_operand(0)
        w = width(lhs.type)
        mask = (1 << w) - 1
        c1v = c1.apint("c")
        c2v = c2.apint("c")
        if pred.is_signed:
            a = c2v - (1 << w) if c2v >> (w - 1) else c2v
            k = c1v - (1 << w) if c1v >> (w - 1) else c1v
            new = a - k if opcode == "add" else a + k
            overflow = not (-(1 << (w - 1)) <= new < (1 << (w - 1)))
        else:
            new = c2v - c1v if opcode == "add" else c2v + c1v
            overflow = not (0 <= new <= mask)
        if not overflow or pred.is_equality:
            new_cmp = b.create_icmp(pred, lhs, cint(lhs.type, new & mask))
            return BinaryOperator.create("or", ov, new_cmp)
        return None
    return None


_WITH_OVERFLOW = {
    "llvm.sadd.with.overflow": ("add", True),
    "llvm.uadd.with.overflow": ("add", False),
    "llvm.ssub.with.overflow": ("sub", True),
    "llvm.usub.with.overflow": ("sub", False),
    "llvm.smul.with.overflow": ("mul", True),
    "llvm.umul.with.overflow": ("mul", False),
}


def _extract_of(v: Value, index: int) -> Value | None:
    """``m_ExtractValue<index>(m_Value(X))``: X."""
    from llvmpy_mid.ir.instructions.vector import ExtractValueInst

    if isinstance(v, ExtractValueInst) and tuple(v.indices) == (index,):
        return v.get_operand(0)
    return None


# --- visitOr ----------------------------------------------------------------------------------

P_XOR_CV = m_one_use(m_xor(m_value("x"), m_apint("cv")))
P_MUL_XY = m_one_use(m_mul(m_value("x"), m_value("y")))
P_OR_CI = m_or(m_value("a"), m_constant_int("ci", splat=False))
P_CONSTANT_INT = m_constant_int(splat=False)
P_SEL = m_select(m_value("c"), m_value("t"), m_value("f"))
P_ASHR_NSWSUB = m_one_use(m_ashr(m_nsw_sub(m_value("y"), m_value("x")), m_apint("s")))
P_LOWBIT_MASK_UPTO = m_add(m_shl(m_one(), m_value("x")), m_all_ones())
P_SHL_ONE = m_shl(m_one(), m_value("x"))
P_AND_C1 = m_one_use(m_and(m_value("x"), m_apint("c1")))


def fold_or_of_inversions(ic: InstCombiner, i: BinaryOperator) -> Value | None:
    """(A & B) | (C & D) -> A ^ D when A == ~C and B == ~D (as compares)"""

    ab = binop(i.lhs, "and")
    cd = binop(i.rhs, "and")
    if ab is None or cd is None:
        return None
    c1, c2 = ab
    c3, c4 = cd
    if is_known_inversion(c1, c3) and is_known_inversion(c2, c4):
        return ic.builder.create_xor(c1, c4)
    if is_known_inversion(c1, c4) and is_known_inversion(c2, c3):
        return ic.builder.create_xor(c1, c3)
    return None


def _fold_or_of_masked_ands(ic: InstCombiner, i: BinaryOperator) -> Instruction | Value | None:
    """(A & C0) | (B & C1) folds with complementary or disjoint masks, and the select forms"""
    from llvmpy_mid.transform.instcombine.and_or_xor_select import match_select_from_and_or

    op0, op1 = i.lhs, i.rhs
    ty = i.type
    b = ic.builder
    ac = binop(op0, "and")
    bd = binop(op1, "and")
    if ac is None or bd is None:
        return None
    a, c = ac
    bv, d = bd
    m0 = match(c, P_APINT_C)
    m1 = match(d, P_APINT_C)
    if m0 is not None and m1 is not None:
        c0 = m0.apint("c")
        c1 = m1.apint("c")
        mask = (1 << width(ty)) - 1
        if c0 == ~c1 & mask:
            x = other(a, "or", bv)
            if x is not None:
                return BinaryOperator.create("or", b.create_and(x, cint(ty, c0)), bv)
            x = other(bv, "or", a)
            if x is not None:
                return BinaryOperator.create("or", b.create_and(x, cint(ty, c1)), a)
            x = other(a, "xor", bv)
            if x is not None:
                return BinaryOperator.create("xor", b.create_and(x, cint(ty, c0)), bv)
            x = other(bv, "xor", a)
            if x is not None:
                return BinaryOperator.create("xor", b.create_and(x, cint(ty, c1)), a)
        if c0 & c1 == 0:
            x = other(a, "or", bv)
            if x is not None and ic.masked_value_is_zero(x, ~c0 & mask, 0, i):
                return BinaryOperator.create("and", a, cint(ty, c0 | c1))
            x = other(bv, "or", a)
            if x is not None and ic.masked_value_is_zero(x, ~c1 & mask, 0, i):
                return BinaryOperator.create("and", bv, cint(ty, c0 | c1))
            ma = match(a, P_OR_X_C)
            if ma is not None:
                x = ma.value("x")
                mb = binop(bv, "or")
                if mb is not None and mb[0] is x:
                    mc3 = match(mb[1], P_APINT_C)
                    c2 = ma.apint("oc")
                    if mc3 is not None:
                        c3 = mc3.apint("c")
                        if c2 & ~c0 & mask == 0 and c3 & ~c1 & mask == 0:
                            or_ = b.create_or(x, cint(ty, c2 | c3), "bitfield")
                            return BinaryOperator.create("and", or_, cint(ty, c0 | c1))
    if one_use(op0) or one_use(op1):
        for p in ((a, c, bv, d), (a, c, d, bv), (c, a, bv, d), (c, a, d, bv), (bv, d, a, c), (bv, d, c, a), (d, bv, a, c), (d, bv, c, a)):
            v = match_select_from_and_or(ic, p[0], p[1], p[2], p[3])
            if v is not None:
                return v
    return None


P_OR_X_C = m_or(m_value("x"), m_apint("oc"))


def visit_or(ic: InstCombiner, inst: Instruction) -> Instruction | None:
    """``InstCombinerImpl::visitOr``."""
    i = cast(BinaryOperator, inst)
    v = simplify_or_inst(i.lhs, i.rhs, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if cm.simplify_associative_or_commutative(ic, i):
        return i
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    if ic.simplify_demanded_instruction_bits(i):
        return i
    r = fold_or_to_xor(ic, i)
    if r is not None:
        return r
    r = fold_complex_and_or_patterns(ic, i)
    if r is not None:
        return r
    v = fold_or_of_inversions(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    v = cm.fold_using_distributive_laws(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    op0, op1 = i.lhs, i.rhs
    ty = i.type
    b = ic.builder
    r = _fold_with_implied_cond(ic, i, False)
    if r is not None:
        return r
    r = cm.fold_binop_into_select_or_phi(ic, i)
    if r is not None:
        return r
    from llvmpy_mid.transform.instcombine.and_or_xor_shifts import (
        match_bswap_or_bitreverse,
        match_funnel_shift,
        match_or_concat,
    )

    r = match_bswap_or_bitreverse(ic, i, True, True)
    if r is not None:
        return r
    r = match_funnel_shift(ic, i)
    if r is not None:
        return r
    concat = match_or_concat(ic, i)
    if concat is not None:
        return ic.replace_inst_uses_with(i, concat)
    r = cm.fold_bin_op_shift_with_shift(ic, i)
    if r is not None:
        return r
    r = cm.try_fold_inst_with_ctpop_with_not(ic, i)
    if r is not None:
        return r
    # (X ^ C) | Y -> (X | Y) ^ C iff Y & C == 0
    for xo, y in ((op0, op1), (op1, op0)):
        m = match(xo, P_XOR_CV)
        if m is None:
            continue
        cv = m.apint("cv")
        if cv != (1 << width(ty)) - 1 and ic.masked_value_is_zero(y, cv, 0, i):
            or_ = b.create_or(m.value("x"), y)
            return BinaryOperator.create("xor", or_, cint(ty, cv))
        break
    # or disjoint (mul X, Y), X --> mul X, (Y + 1)
    if i.disjoint:
        for mo, x in ((op0, op1), (op1, op0)):
            m = match(mo, P_MUL_XY)
            if m is not None and m.value("x") is x:
                inc = b.create_add(m.value("y"), cint(ty, 1))
                return BinaryOperator.create("mul", x, inc)
    res = _fold_or_of_masked_ands(ic, i)
    if res is not None:
        if isinstance(res, BinaryOperator) and res.parent is None:
            return res
        return ic.replace_inst_uses_with(i, res)
    # (Cond & C) | ~(Cond | D) -> Cond ? C : ~D
    ac = binop(op0, "and")
    n = not_of(op1)
    bd = binop(n, "or") if n is not None else None
    if ac is not None and bd is not None and (one_use(op0) or one_use(op1)):
        from llvmpy_mid.transform.instcombine.and_or_xor_select import match_select_from_and_or

        a, c = ac
        bv, d = bd
        for p in ((a, c, bv, d), (a, c, d, bv), (c, a, bv, d), (c, a, d, bv)):
            v = match_select_from_and_or(ic, p[0], p[1], p[2], p[3], True)
            if v is not None:
                return ic.replace_inst_uses_with(i, v)
    # (A ^ B) | ((B ^ C) ^ A) -> (A ^ B) | C  (both orders)
    for xo, oo in ((op0, op1), (op1, op0)):
        ab = binop(xo, "xor")
        if ab is None:
            continue
        a, bv = ab
        cx = _xor_xor_other(oo, bv, a)
        if cx is None:
            cx = _xor_xor_other(oo, a, bv)
        if cx is not None:
            return BinaryOperator.create("or", xo, cx)
    r = match_de_morgans_laws(ic, i)
    if r is not None:
        return r
    r = _fold_or_with_xor(ic, i)
    if r is not None:
        return r
    r = _fold_icmp_pairs(ic, i, False)
    if r is not None:
        return r
    r = _fold_fcmp_pair(ic, i, False)
    if r is not None:
        return r
    r = reassociate_fcmps(ic, i)
    if r is not None:
        return r
    r = fold_casted_bitwise_logic(ic, i)
    if r is not None:
        return r
    r = fold_binop_of_sext_bool_to_select(ic, i)
    if r is not None:
        return r
    # or(sext(A), B) --> A ? -1 : B
    for s, o in ((op0, op1), (op1, op0)):
        if one_use(s):
            m = match(s, P_SEXT_BOOL)
            if m is not None and is_bool(m.value("a").type):
                return SelectInst(m.value("a"), Constant.get_all_ones_value(ty), o)
    # (X|C) | V --> (X|V) | C
    if one_use(op0) and match(op1, P_CONSTANT_INT) is None:
        m = match(op0, P_OR_CI)
        if m is not None:
            inner = b.create_or(m.value("a"), op1)
            _take_name(inner, op0)
            return BinaryOperator.create("or", inner, m.constant_int("ci"))
    # (or (bool?A:B),(bool?C:D)) --> (bool?(or A,C):(or B,D))
    if one_use(op0) and one_use(op1):
        m0 = match(op0, P_SEL)
        m1 = match(op1, P_SEL)
        if m0 is not None and m1 is not None and m0.value("c") is m1.value("c"):
            or_t = b.create_or(m0.value("t"), m1.value("t"))
            or_f = b.create_or(m0.value("f"), m1.value("f"))
            return SelectInst(m0.value("c"), or_t, or_f)
    # or(ashr(subNSW(Y, X), N - 1), X) --> X s> Y ? -1 : X
    for s, x in ((op0, op1), (op1, op0)):
        m = match(s, P_ASHR_NSWSUB)
        if m is not None and m.value("x") is x and m.apint("s") == width(ty) - 1:
            cmp = b.create_icmp(Predicate.ICMP_SGT, x, m.value("y"))
            return SelectInst(cmp, Constant.get_all_ones_value(ty), x)
    # ((A & B) ^ A) | ((A & B) ^ B) -> A ^ B
    for lv, rv in ((op0, op1), (op1, op0)):
        r2 = _try_xor_opt(lv, rv)
        if r2 is not None:
            return r2
    from llvmpy_mid.transform.instcombine.add_sub import canonicalize_cond_signext_of_high_bit_extract

    r = canonicalize_cond_signext_of_high_bit_extract(ic, i)
    if r is not None:
        return r
    r = _fold_or_of_overflow_checks(ic, i)
    if r is not None:
        return r
    if sink_not_into_other_hand_of_logical_op(ic, i):
        return i
    # (1 << X) | ((1 << X) + -1)  -->  -1 l>> (bitwidth(x) - 1 - X)
    for av, sv in ((op0, op1), (op1, op0)):
        m = match(av, P_LOWBIT_MASK_UPTO)
        if m is None:
            continue
        ms = match(sv, P_SHL_ONE)
        if ms is not None and ms.value("x") is m.value("x"):
            if one_use(op0) or one_use(op1):
                sub = b.create_sub(cint(ty, width(ty) - 1), m.value("x"))
                return BinaryOperator.create("lshr", Constant.get_all_ones_value(ty), sub)
            break
    r = _fold_simple_recurrence(ic, i)
    if r is not None:
        return r
    # (A & B) | (C | D) -> C | (D | (A & B)) when D is (A & ?) or (B & ?)
    for ao, oo in ((op0, op1), (op1, op0)):
        if not (one_use(ao) and one_use(oo)):
            continue
        ab = binop(ao, "and")
        cd = binop(oo, "or")
        if ab is None or cd is None:
            continue
        a, bv = ab
        c, d = cd
        if one_use(d) and (other(d, "and", a) is not None or other(d, "and", bv) is not None):
            return BinaryOperator.create("or", c, b.create_or(d, b.create_and(a, bv)))
        if one_use(c) and (other(c, "and", a) is not None or other(c, "and", bv) is not None):
            return BinaryOperator.create("or", b.create_or(c, b.create_and(a, bv)), d)
        break
    r = reassociate_for_uses(ic, i)
    if r is not None:
        return r
    r = canonicalize_logic_first(ic, i)
    if r is not None:
        return r
    r = fold_logic_of_is_fpclass(ic, i, op0, op1)
    if r is not None:
        return r
    r = fold_bin_op_of_displaced_shifts(ic, i)
    if r is not None:
        return r
    # or (bitcast X), SignMask -> bitcast (fneg (fabs X)) for IEEE X
    cast_op = element_wise_bitcast_source(op0)
    if cast_op is not None and match(op1, P_SIGN_MASK) is not None and not _no_implicit_float(ic):
        if is_ieee_fp_scalar(cast_op.type):
            fabs = b.create_unary_intrinsic("fabs", cast_op)
            fneg_fabs = b.create_fneg(fabs)
            return CastInst.create("bitcast", fneg_fabs, ty)
    # (X & C1) | C2 -> X & (C1 | C2) iff (X & C2) == C2
    m = match(op0, P_AND_C1)
    if m is not None:
        mc = match(op1, P_APINT_C)
        if mc is not None:
            c2 = mc.apint("c")
            known = ic.compute_known_bits(m.value("x"), 0, i)
            if known.one & c2 == c2:
                return BinaryOperator.create("and", m.value("x"), cint(ty, m.apint("c1") | c2))
    r = fold_bitwise_logic_with_intrinsics(ic, i)
    if r is not None:
        return r
    zero = Constant.get_null_value(ty)
    v = simplify_and_or_with_op_replaced(ic, op0, op1, zero, False)
    if v is not None:
        return BinaryOperator.create("or", v, op1)
    v = simplify_and_or_with_op_replaced(ic, op1, op0, zero, False)
    if v is not None:
        return BinaryOperator.create("or", op0, v)
    if i.disjoint:
        from llvmpy_mid.transform.instcombine.add_sub import _simplify_add_with_remainder

        v = _simplify_add_with_remainder(ic, i)
        if v is not None:
            return ic.replace_inst_uses_with(i, v)
    return None


def _xor_xor_other(v: Value, p: Value, q: Value) -> Value | None:
    """``m_c_Xor(m_c_Xor(m_Specific(p), m_Value(C)), m_Specific(q))``: C."""
    ops = binop(v, "xor")
    if ops is None:
        return None
    for inner, o in ((ops[0], ops[1]), (ops[1], ops[0])):
        if o is not q:
            continue
        c = other(inner, "xor", p)
        if c is not None:
            return c
    return None


def _try_xor_opt(lhs: Value, rhs: Value) -> Instruction | None:
    """((A & B) ^ A) | ((A & B) ^ B) -> A ^ B"""
    ops = binop(lhs, "xor")
    if ops is None:
        return None
    for andv, a in ((ops[0], ops[1]), (ops[1], ops[0])):
        ab = binop(andv, "and")
        if ab is None or ab[0] is not a:
            continue
        bv = ab[1]
        rops = binop(rhs, "xor")
        if rops is None:
            return None
        for ra, rb in ((rops[0], rops[1]), (rops[1], rops[0])):
            if rb is bv and binop(ra, "and") == (a, bv):
                return BinaryOperator.create("xor", a, bv)
        return None
    return None


def _fold_or_with_xor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(A | ?) | (A ^ B) -> (A | ?) | B; (A & B) | (A ^ B) -> A | B; ~A | (A ^ B) -> ~(A & B); ..."""
    op0, op1 = i.lhs, i.rhs
    if binop(op0, "xor") is not None:
        op0, op1 = op1, op0
    ab = binop(op1, "xor")
    if ab is None:
        return None
    a, bv = ab
    b = ic.builder
    if other(op0, "or", a) is not None:
        return BinaryOperator.create("or", op0, bv)
    if other(op0, "or", bv) is not None:
        return BinaryOperator.create("or", op0, a)
    if has_pair(op0, "and", a, bv):
        return BinaryOperator.create("or", a, bv)
    either = one_use(op0) or one_use(op1)
    if either and (is_not_of(op0, a) or is_not_of(op0, bv)):
        return _create_not(b.create_and(a, bv))
    n = not_of(op0)
    if either and n is not None and isinstance(n, BinaryOperator) and other(n, "and", a) is not None:
        return _create_not(b.create_and(n, bv))
    if either and n is not None and isinstance(n, BinaryOperator) and other(n, "and", bv) is not None:
        return _create_not(b.create_and(n, a))
    if one_use(op0) and one_use(op1):
        ops = binop(op0, "or")
        if ops is not None:
            c: Value | None = None
            for target in (a, bv):
                if is_not_of(ops[0], target):
                    c = ops[1]
                elif is_not_of(ops[1], target):
                    c = ops[0]
                if c is not None:
                    break
            if c is not None:
                nand = b.create_not(b.create_and(a, bv), "nand")
                return BinaryOperator.create("or", nand, c)
    return None


__all__ = ["fold_or_of_inversions", "fold_or_to_xor", "visit_or"]
