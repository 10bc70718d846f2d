"""InstCombine's ``xor`` visitor and the ``not`` folds (LLVM
``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``: ``visitXor``,
``foldXorToXor``, ``foldNot``, ``foldNotXor``, ``visitMaskedMerge``,
``canonicalizeAbs``).

Every attempt of LLVM 19's visitXor and foldNot is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.instruction_simplify import simplify_binop, simplify_xor_inst
from llvmpy_mid.analysis.known_bits_analysis import is_known_negative
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, UndefValue
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst, SExtInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, ICmpInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_all_ones,
    m_and,
    m_apint,
    m_apint_allow_poison,
    m_ashr,
    m_bitcast,
    m_constant,
    m_constant_int,
    m_imm_constant,
    m_lshr,
    m_neg,
    m_negative,
    m_non_negative,
    m_one,
    m_one_use,
    m_or,
    m_sext,
    m_shl,
    m_sign_mask,
    m_sub,
    m_trunc_or_self,
    m_value,
    m_xor,
    match,
)
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common as cm
from llvmpy_mid.transform.instcombine.and_or_xor_util import (
    binop,
    cint,
    element_wise_bitcast_source,
    has_pair,
    intrinsic_call,
    is_ieee_fp_scalar,
    merge_undefs_with,
    is_bool,
    is_not_of,
    not_of,
    one_use,
    other,
    width,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def _create_not(v: Value) -> BinaryOperator:
    return BinaryOperator.create("xor", v, Constant.get_all_ones_value(v.type))


def fold_xor_to_xor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(A & B) ^ (A | B) -> A ^ B; (A | ~B) ^ (~A | B) -> A ^ B; (A & ~B) ^ (~A & B) -> A ^ B; (A | B) ^ ~(A & B) -> ~(A ^ B)"""
    op0, op1 = i.lhs, i.rhs
    for x, y in ((op0, op1), (op1, op0)):
        ab = binop(x, "and")
        if ab is not None and has_pair(y, "or", ab[0], ab[1]):
            return BinaryOperator.create("xor", ab[0], ab[1])
    for opc in ("or", "and"):
        ab = binop(op0, opc)
        if ab is None:
            continue
        for a, nb in ((ab[0], ab[1]), (ab[1], ab[0])):
            b = not_of(nb)
            if b is None:
                continue
            cd = binop(op1, opc)
            if cd is not None and ((is_not_of(cd[0], a) and cd[1] is b) or (is_not_of(cd[1], a) and cd[0] is b)):
                return BinaryOperator.create("xor", a, b)
            break
    if not one_use(op0) and not one_use(op1):
        return None
    for o0, o1 in (("or", "and"), ("and", "or")):
        ab = binop(op0, o0)
        if ab is None:
            continue
        n = not_of(op1)
        if n is not None and has_pair(n, o1, ab[0], ab[1]):
            return _create_not(ic.builder.create_xor(ab[0], ab[1]))
    return None


P_NOT_AND_NOT = None


def fold_not(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``foldNot``: De Morgan with an inverted operand, not of shifts/adds/subs/compares/selects."""
    not_op = not_of(i)
    if not_op is None:
        return None
    ty = i.type
    b = ic.builder
    # ~(~X & Y) --> (X | ~Y);  ~(~X | Y) --> (X & ~Y)
    for opc, new in (("and", "or"), ("or", "and")):
        if one_use(not_op):
            ops = binop(not_op, opc)
            if ops is not None:
                for nx, y in ((ops[0], ops[1]), (ops[1], ops[0])):
                    x = not_of(nx)
                    if x is not None:
                        not_y = b.create_not(y, y.name + ".not")
                        return BinaryOperator.create(new, x, not_y)
        if one_use(not_op) and isinstance(not_op, SelectInst) and is_bool(not_op.type) and not_op.condition.type is not_op.type:
            x = not_of(not_op.condition)
            if x is not None:
                if opc == "and" and _is_zero(not_op.false_value):
                    y = not_op.true_value
                    not_y = b.create_not(y, y.name + ".not")
                    return SelectInst(x, Constant.get_all_ones_value(ty), not_y)
                if opc == "or" and _is_ones(not_op.true_value):
                    y = not_op.false_value
                    not_y = b.create_not(y, y.name + ".not")
                    return SelectInst(x, not_y, Constant.get_null_value(ty))
    if isinstance(not_op, BinaryOperator):
        nv = not_op
        # ~((-X) | Y) --> (X - 1) & (~Y)
        if one_use(nv):
            ops = binop(nv, "or")
            if ops is not None:
                for ng, y in ((ops[0], ops[1]), (ops[1], ops[0])):
                    m = match(ng, P_NEG_ONE_USE)
                    if m is not None:
                        dec = b.create_add(m.value("x"), Constant.get_all_ones_value(ty))
                        not_y = b.create_not(y)
                        return BinaryOperator.create("and", dec, not_y)
        ops = binop(nv, "ashr")
        if ops is not None:
            x = not_of(ops[0])
            if x is not None:
                return BinaryOperator.create("ashr", x, ops[1])
        ops = binop(nv, "lshr")
        if ops is not None:
            x = not_of(ops[0])
            if x is not None and is_known_negative(x, ic.query(nv)):
                return BinaryOperator.create("ashr", x, ops[1])
        full = width(ty) - 1
        m = match(nv, P_ASHR_ONE_USE)
        if m is not None and m.apint("c") == full:
            is_not_neg = b.create_is_not_neg(m.value("x"), "isnotneg")
            return SExtInst(is_not_neg, ty)
        ops = binop(nv, "ashr")
        if ops is not None and isinstance(ops[0], Constant) and match(ops[0], P_NEGATIVE) is not None:
            return BinaryOperator.create("lshr", ConstantExpr.get_not(ops[0]), ops[1])
        ops = binop(nv, "lshr")
        if ops is not None and isinstance(ops[0], Constant) and match(ops[0], P_NON_NEGATIVE) is not None:
            return BinaryOperator.create("ashr", ConstantExpr.get_not(ops[0]), ops[1])
        m = match(nv, P_ADD_IMM)
        if m is not None:
            return BinaryOperator.create("sub", ConstantExpr.get_not(m.constant("c")), m.value("x"))
        ops = binop(nv, "sub")
        if ops is not None and (ops[0].is_constant or one_use(nv)):
            return BinaryOperator.create("add", b.create_not(ops[0]), ops[1])
        ops = binop(nv, "add")
        if ops is not None:
            for nx, y in ((ops[0], ops[1]), (ops[1], ops[0])):
                x = not_of(nx)
                if x is not None:
                    return BinaryOperator.create("sub", x, y, nuw=nv.nuw, nsw=nv.nsw)
    # not (cmp A, B) = !cmp A, B
    if isinstance(not_op, CmpInst) and (one_use(not_op) or cm.can_freely_invert_all_users_of(not_op, None)):
        not_op.predicate = not_op.predicate.inverse
        cm.freely_invert_all_users_of(ic, not_op)
        return i
    # not (bitcast (sext i1 X)) --> bitcast (sext (not i1 X))
    m = match(not_op, P_BITCAST_SEXT)
    if m is not None and is_bool(m.value("x").type):
        bc = cast(CastInst, not_op)
        sext_ty = bc.get_operand(0).type
        not_x = b.create_not(m.value("x"))
        sext = b.create_sext(not_x, sext_ty)
        return CastInst.create("bitcast", sext, ty)
    from llvmpy_mid.ir.instruction import Instruction as _I
    from llvmpy_mid.transform.instcombine.and_or_xor import sink_not_into_logical_op

    if isinstance(not_op, _I) and sink_not_into_logical_op(ic, not_op):
        return i
    # ~min(~X, Y) --> max(X, ~Y) (and the other min/max); ~is.fpclass(X, M) --> is.fpclass(X, ~M)
    if isinstance(not_op, CallInst) and one_use(not_op):
        inv = _INVERSE_MIN_MAX.get(not_op.intrinsic_base)
        if inv is not None:
            a0 = not_op.get_operand(0)
            a1 = not_op.get_operand(1)
            x = not_of(a0)
            y = a1
            if x is None:
                x = not_of(a1)
                y = a0
            if x is not None:
                not_y = b.create_not(y)
                inv_mm = b.create_binary_intrinsic(inv, x, not_y)
                return ic.replace_inst_uses_with(i, inv_mm)
        if not_op.intrinsic_base == "llvm.is.fpclass":
            class_mask = not_op.get_operand(1)
            assert isinstance(class_mask, ConstantInt)
            not_op.set_operand(1, ConstantInt.get(class_mask.type, ~class_mask.value & 1023))
            return ic.replace_inst_uses_with(i, not_op)
    if one_use(not_op) and isinstance(not_op, SelectInst):
        tv = not_op.true_value
        fv = not_op.false_value
        cmp_t = tv if isinstance(tv, CmpInst) else None
        cmp_f = fv if isinstance(fv, CmpInst) else None
        inv_t = (cmp_t is not None and one_use(cmp_t)) or isinstance(tv, Constant)
        inv_f = (cmp_f is not None and one_use(cmp_f)) or isinstance(fv, Constant)
        if inv_t and inv_f:
            if cmp_t is not None:
                cmp_t.predicate = cmp_t.predicate.inverse
            else:
                not_op.set_operand(1, ConstantExpr.get_not(cast(Constant, tv)))
            if cmp_f is not None:
                cmp_f.predicate = cmp_f.predicate.inverse
            else:
                not_op.set_operand(2, ConstantExpr.get_not(cast(Constant, fv)))
            return ic.replace_inst_uses_with(i, not_op)
    r = fold_not_xor(ic, i)
    if r is not None:
        return r
    v = cm.get_freely_inverted(ic, not_op, one_use(not_op), b)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    return None


_INVERSE_MIN_MAX = {"llvm.smax": "smin", "llvm.smin": "smax", "llvm.umax": "umin", "llvm.umin": "umax"}
P_NEG_ONE_USE = m_one_use(m_neg(m_value("x")))
P_ASHR_ONE_USE = m_one_use(m_ashr(m_value("x"), m_apint("c")))
P_NEGATIVE = m_negative()
P_NON_NEGATIVE = m_non_negative()
P_ADD_IMM = m_add(m_value("x"), m_imm_constant("c"))
P_BITCAST_SEXT = m_one_use(m_bitcast(m_one_use(m_sext(m_value("x")))))


def _is_zero(v: Value) -> bool:
    from llvmpy_mid.ir.pattern_match import m_zero_int

    return isinstance(v, Constant) and match(v, _P_ZERO) is not None


def _is_ones(v: Value) -> bool:
    return isinstance(v, Constant) and match(v, _P_ONES) is not None


from llvmpy_mid.ir.pattern_match import m_zero_int  # noqa: E402

_P_ZERO = m_zero_int()
_P_ONES = m_all_ones()


def fold_not_xor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """~((A & B) ^ (A | ?)) -> (A & B) | ~(A | ?)"""
    n = not_of(i)
    if n is None or not one_use(n):
        return None
    xy = binop(n, "xor")
    if xy is None:
        return None
    x, y = xy
    for p, q in ((x, y), (y, x)):
        ab = binop(p, "and")
        cd = binop(q, "or")
        if ab is not None and cd is not None:
            a, bb = ab
            c, d = cd
            if a is c or a is d or bb is c or bb is d:
                return BinaryOperator.create("or", p, ic.builder.create_not(q))
    return None


def visit_masked_merge(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """((x ^ y) & ~M) ^ y -> ((x ^ y) & M) ^ x; ((x ^ y) & C) ^ y -> (x & C) | (y & ~C)"""
    op0, op1 = i.lhs, i.rhs
    for bv, a in ((op0, op1), (op1, op0)):
        if not one_use(a):
            continue
        dm = binop(a, "and")
        if dm is None:
            continue
        for d, mv in ((dm[0], dm[1]), (dm[1], dm[0])):
            x = other(d, "xor", bv)
            if x is None:
                continue
            b = ic.builder
            not_m = not_of(mv)
            if not_m is not None:
                new_a = b.create_and(d, not_m)
                return BinaryOperator.create("xor", new_a, x)
            if one_use(d) and isinstance(mv, Constant):
                c = _replace_undefs_with_all_ones(mv)
                lhs = b.create_and(x, c)
                not_c = b.create_not(c)
                rhs = b.create_and(bv, not_c)
                return BinaryOperator.create("or", lhs, rhs)
            return None
    return None


def _replace_undefs_with_all_ones(c: Constant) -> Constant:
    """``Constant::replaceUndefsWith(C, -1)``."""
    from llvmpy_mid.ir.constants import ConstantVector
    from llvmpy_mid.ir.types import VectorType

    if isinstance(c, UndefValue):
        return Constant.get_all_ones_value(c.type)
    ty = c.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return c
    elts = []
    changed = False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if e is None:
            return c
        if isinstance(e, UndefValue):
            e = Constant.get_all_ones_value(ty.element_type)
            changed = True
        elts.append(e)
    return ConstantVector.get(elts) if changed else c


def canonicalize_abs(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """xor (add A, (ashr A, BW-1)), (ashr A, BW-1) -> (A < 0) ? -A : A"""
    op0, op1 = i.lhs, i.rhs
    if op0.has_n_uses(2):
        op0, op1 = op1, op0
    ty = i.type
    m = match(op1, P_ASHR_A)
    if m is None or not op1.has_n_uses(2) or m.apint("c") != width(ty) - 1:
        return None
    a = m.value("a")
    if not one_use(op0) or not has_pair(op0, "add", a, op1):
        return None
    add = cast(BinaryOperator, op0)
    is_neg = ic.builder.create_is_neg(a)
    if add.nuw:
        neg_a: Value = Constant.get_null_value(a.type)
    else:
        neg_a = ic.builder.create_neg(a, "", nsw=add.nsw)
    return SelectInst(is_neg, neg_a, a)


P_ASHR_A = m_ashr(m_value("a"), m_apint("c"))
P_OR_IMM = m_one_use(m_or(m_value("x"), m_imm_constant("c2")))
P_IMM = m_imm_constant()
P_CONST = m_constant("c")
P_TRUNC_ASHR = m_one_use(m_trunc_or_self(m_ashr(m_value("x"), m_apint_allow_poison("ca"))))
P_APINT_C = m_apint("c")
P_SUB_C_X = m_sub(m_apint("c"), m_value("x"))
P_ADD_X_C = m_add(m_value("x"), m_apint("c"))
P_OR_X_C = m_or(m_value("x"), m_apint("c"))
P_SHL_X_C = m_one_use(m_shl(m_value("x"), m_apint("c")))
P_LSHR_X_C = m_one_use(m_lshr(m_value("x"), m_apint("c")))
P_LSHR_XOR = m_lshr(m_xor(m_value("x"), m_constant_int("c1", splat=False)), m_constant_int("c2", splat=False))
P_ALL_ONES = m_all_ones()
P_SIGN_MASK = m_sign_mask()
P_ONE = m_one()
P_XOR_IMM = m_one_use(m_xor(m_value("x"), m_imm_constant("c1")))
P_AND_ANY = m_and(m_value(), m_value())


def _fold_xor_with_constant(ic: InstCombiner, i: BinaryOperator, c1: Constant) -> Instruction | None:
    """(X | C2) ^ C1 -> (X & ~C2) ^ (C1^C2); (~X | C2) ^ C1 -> (X & ~C2) ^ ~C1; xor ([trunc] ashr X, BW-1), C -> select"""
    op0 = i.lhs
    b = ic.builder
    m = match(op0, P_OR_IMM)
    if m is not None and match(c1, P_IMM) is not None:
        c2 = _replace_undefs_with_all_ones(m.constant("c2"))
        and_ = b.create_and(m.value("x"), merge_undefs_with(ConstantExpr.get_not(c2), c1))
        return BinaryOperator.create("xor", and_, merge_undefs_with(ConstantExpr.get_xor(c1, c2), c1))
    if one_use(op0):
        ops = binop(op0, "or")
        if ops is not None and isinstance(ops[1], Constant):
            x = not_of(ops[0])
            if x is not None:
                and_ = b.create_and(x, ConstantExpr.get_not(ops[1]))
                return BinaryOperator.create("xor", and_, ConstantExpr.get_not(c1))
        ops = binop(op0, "and")
        if ops is not None and isinstance(ops[1], Constant):
            x = not_of(ops[0])
            if x is not None:
                or_ = b.create_or(x, ConstantExpr.get_not(ops[1]))
                return BinaryOperator.create("xor", or_, ConstantExpr.get_not(c1))
    m = match(op0, P_TRUNC_ASHR)
    if m is not None and m.apint("ca") == width(m.value("x").type) - 1 and match(c1, P_ALL_ONES) is None:
        is_not_neg = b.create_is_not_neg(m.value("x"))
        return SelectInst(is_not_neg, i.rhs, b.create_not(i.rhs))
    return None


def visit_xor(ic: InstCombiner, inst: Instruction) -> Instruction | None:
    """``InstCombinerImpl::visitXor``."""
    i = cast(BinaryOperator, inst)
    v = simplify_xor_inst(i.lhs, i.rhs, ic.query(i))
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
    r = fold_xor_to_xor(ic, i)
    if r is not None:
        return r
    v = cm.fold_using_distributive_laws(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if ic.simplify_demanded_instruction_bits(i):
        return i
    r = fold_not(ic, i)
    if r is not None:
        return r
    r = cm.fold_bin_op_shift_with_shift(ic, i)
    if r is not None:
        return r
    op0, op1 = i.lhs, i.rhs
    ty = i.type
    b = ic.builder
    # (X & M) ^ (Y & ~M) -> (X & M) | (Y & ~M)
    for p, q in ((op0, op1), (op1, op0)):
        pm = binop(p, "and")
        if pm is None:
            continue
        mv = not_of(pm[0])
        if mv is None:
            mv = not_of(pm[1])
        if mv is None:
            continue
        if other(q, "and", mv) is not None:
            if is_guaranteed_not_to_be_undef(mv):
                return BinaryOperator.create("or", op0, op1, disjoint=True)
            return BinaryOperator.create("or", op0, op1)
    r = visit_masked_merge(ic, i)
    if r is not None:
        return r
    if isinstance(op1, Constant):
        r = _fold_xor_with_constant(ic, i, op1)
        if r is not None:
            return r
    mc = match(op1, P_APINT_C)
    if mc is not None:
        rhsc = mc.apint("c")
        w = width(ty)
        mask = (1 << w) - 1
        sign = 1 << (w - 1)
        if rhsc == sign:
            m = match(op0, P_SUB_C_X)
            if m is not None:
                return BinaryOperator.create("sub", cint(ty, m.apint("c") + rhsc), m.value("x"))
            m = match(op0, P_ADD_X_C)
            if m is not None:
                return BinaryOperator.create("add", m.value("x"), cint(ty, m.apint("c") + rhsc))
        m = match(op0, P_OR_X_C)
        if m is not None and ic.masked_value_is_zero(m.value("x"), m.apint("c"), 0, i):
            return BinaryOperator.create("xor", m.value("x"), cint(ty, m.apint("c") ^ rhsc))
        # ctlz(X) ^ (BW-1) --> cttz(X) (and back) when X is a power of two or zero and zero is poison
        if isinstance(op0, CallInst) and one_use(op0) and rhsc == w - 1:
            iid = op0.intrinsic_base
            if (
                iid in ("llvm.ctlz", "llvm.cttz")
                and match(op0.get_operand(1), P_ONE) is not None
                and ic.is_known_to_be_a_power_of_two(op0.get_operand(0), True, 0, None)
            ):
                new_base = "cttz" if iid == "llvm.ctlz" else "ctlz"
                return intrinsic_call(ic, new_base, ty, [op0.get_operand(0), ConstantInt.get_true(ty)])
        m = match(op0, P_SHL_X_C)
        if m is not None and m.apint("c") < w and rhsc == (mask << m.apint("c")) & mask:
            return BinaryOperator.create("shl", b.create_not(m.value("x")), cint(ty, m.apint("c")))
        m = match(op0, P_LSHR_X_C)
        if m is not None and m.apint("c") < w and rhsc == mask >> m.apint("c"):
            return BinaryOperator.create("lshr", b.create_not(m.value("x")), cint(ty, m.apint("c")))
    # xor (bitcast X), SignMask -> bitcast (fneg X) for IEEE X
    cast_op = element_wise_bitcast_source(op0)
    if cast_op is not None and match(op1, P_SIGN_MASK) is not None and not ic.fn.has_fn_attribute("noimplicitfloat"):
        if is_ieee_fp_scalar(cast_op.type):
            fneg = b.create_fneg(cast_op)
            return CastInst.create("bitcast", fneg, ty)
    # ((X^C1) >> C2) ^ C3 -> (X>>C2) ^ ((C1>>C2)^C3)
    if isinstance(op1, ConstantInt) and one_use(op0):
        m = match(op0, P_LSHR_XOR)
        if m is not None and isinstance(m.constant_int("c1"), ConstantInt):
            c1 = m.constant_int("c1")
            c2 = m.constant_int("c2")
            if type(c1) is ConstantInt and type(c2) is ConstantInt:
                fold = ((c1.value >> c2.value) if c2.value < width(ty) else 0) ^ op1.value
                opnd0 = b.create_lshr(m.value("x"), c2)
                from llvmpy_mid.transform.instcombine.combiner import take_name

                if not isinstance(opnd0, Constant):
                    take_name(opnd0, op0)
                return BinaryOperator.create("xor", opnd0, cint(ty, fold))
    r = cm.fold_binop_into_select_or_phi(ic, i)
    if r is not None:
        return r
    # Y ^ (X | Y) --> X & ~Y
    if one_use(op1):
        x = other(op1, "or", op0)
        if x is not None:
            return BinaryOperator.create("and", x, b.create_not(op0))
    if one_use(op0):
        x = other(op0, "or", op1)
        if x is not None:
            return BinaryOperator.create("and", x, b.create_not(op1))
    # Y ^ (X & Y) --> ~X & Y
    if one_use(op1):
        x = other(op1, "and", op0)
        if x is not None:
            return BinaryOperator.create("and", op0, b.create_not(x))
    if not isinstance(op1, Constant) and one_use(op0):
        x = other(op0, "and", op1)
        if x is not None:
            return BinaryOperator.create("and", op1, b.create_not(x))
    # (A ^ B) ^ (A | C) --> (~A & C) ^ B;  (A ^ B) ^ (B | C) --> (~B & C) ^ A
    for which in (0, 1):
        for p, q in ((op0, op1), (op1, op0)):
            if not (one_use(p) and one_use(q)):
                continue
            ab = binop(p, "xor")
            if ab is None:
                continue
            a, bb = ab
            key, rest = (a, bb) if which == 0 else (bb, a)
            c = other(q, "or", key)
            if c is not None:
                return BinaryOperator.create("xor", b.create_and(b.create_not(key), c), rest)
    # (A & B) ^ (A ^ B) -> (A | B)
    ab = binop(op0, "and")
    if ab is not None and has_pair(op1, "xor", ab[0], ab[1]):
        return BinaryOperator.create("or", ab[0], ab[1])
    ab = binop(op0, "xor")
    if ab is not None and has_pair(op1, "and", ab[0], ab[1]):
        return BinaryOperator.create("or", ab[0], ab[1])
    # (A & ~B) ^ ~A -> ~(A & B)
    ab = binop(op0, "and")
    if ab is not None:
        for a, nb in ((ab[0], ab[1]), (ab[1], ab[0])):
            bb2 = not_of(nb)
            if bb2 is not None:
                if is_not_of(op1, a):
                    return _create_not(b.create_and(a, bb2))
                break
    # (~A & B) ^ A --> A | B
    for p, q in ((op0, op1), (op1, op0)):
        ab = binop(p, "and")
        if ab is None:
            continue
        for na, bb in ((ab[0], ab[1]), (ab[1], ab[0])):
            an = not_of(na)
            if an is not None:
                if an is q:
                    return BinaryOperator.create("or", an, bb)
                break
    # (~A | B) ^ A --> ~(A & B);  A ^ (~A | B) --> ~(A & B)
    for p, q in ((op0, op1), (op1, op0)):
        if not one_use(p):
            continue
        ops = binop(p, "or")
        if ops is None:
            continue
        if is_not_of(ops[0], q):
            return _create_not(b.create_and(q, ops[1]))
        if is_not_of(ops[1], q):
            return _create_not(b.create_and(q, ops[0]))
    # (A | B) ^ (A | C) --> (B ^ C) & ~A
    if one_use(op0) and one_use(op1):
        ab = binop(op0, "or")
        cd = binop(op1, "or")
        if ab is not None and cd is not None:
            a, bb = ab
            c, d = cd
            if bb is c or bb is d:
                a, bb = bb, a
            if a is c:
                c, d = d, c
            if a is d:
                not_a = b.create_not(a)
                return BinaryOperator.create("and", b.create_xor(bb, c), not_a)
    # (A & B) ^ (A | C) --> A ? ~B : C  (i1, logical forms too)
    if is_bool(ty):
        from llvmpy_mid.transform.instcombine.and_or_xor import _logical_and_or

        la = _logical_and_or(op0, True)
        lo = _logical_and_or(op1, False)
        if la is not None and lo is not None:
            a, bb, sel0 = la
            c, d, sel1 = lo
            need_freeze = sel0 and sel1 and bb is d
            if bb is c or bb is d:
                a, bb = bb, a
            if a is c:
                c, d = d, c
            if a is d:
                if need_freeze:
                    a = b.create_freeze(a)
                not_b = b.create_not(bb)
                return SelectInst(a, not_b, c)
    if isinstance(op0, ICmpInst) and isinstance(op1, ICmpInst):
        from llvmpy_mid.transform.instcombine.and_or_xor_icmps import fold_xor_of_icmps

        v = fold_xor_of_icmps(ic, op0, op1, i)
        if v is not None:
            return ic.replace_inst_uses_with(i, v)
    from llvmpy_mid.transform.instcombine.and_or_xor import (
        canonicalize_logic_first,
        fold_bin_op_of_displaced_shifts,
        fold_bitwise_logic_with_intrinsics,
        fold_casted_bitwise_logic,
        reassociate_for_uses,
    )

    r = fold_casted_bitwise_logic(ic, i)
    if r is not None:
        return r
    r = canonicalize_abs(ic, i)
    if r is not None:
        return r
    # (X ^ C) ^ Y --> (X ^ Y) ^ C
    for p, y in ((op0, op1), (op1, op0)):
        m = match(p, P_XOR_IMM)
        if m is not None and not isinstance(m.value("x"), ConstantExpr):
            return BinaryOperator.create("xor", b.create_xor(m.value("x"), y), m.constant("c1"))
    r = reassociate_for_uses(ic, i)
    if r is not None:
        return r
    r = canonicalize_logic_first(ic, i)
    if r is not None:
        return r
    from llvmpy_mid.transform.instcombine.and_or_xor_icmps import fold_logic_of_is_fpclass

    r = fold_logic_of_is_fpclass(ic, i, op0, op1)
    if r is not None:
        return r
    r = canonicalize_conditional_negation_via_math_to_select(ic, i)
    if r is not None:
        return r
    r = fold_bin_op_of_displaced_shifts(ic, i)
    if r is not None:
        return r
    r = fold_bitwise_logic_with_intrinsics(ic, i)
    if r is not None:
        return r
    return None


def canonicalize_conditional_negation_via_math_to_select(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(X + sext(C)) ^ sext(C) -> C ? -X : X"""
    op0, op1 = i.lhs, i.rhs
    if not (one_use(op0) or one_use(op1)):
        return None
    if getattr(op1, "opcode", None) != "sext":
        return None
    cond = op1.get_operand(0)  # type: ignore[attr-defined]
    if not is_bool(cond.type):
        return None
    ops = binop(op0, "add")
    if ops is None:
        return None
    x: Value | None = None
    for s_, o in ((ops[0], ops[1]), (ops[1], ops[0])):
        if getattr(s_, "opcode", None) == "sext" and s_.get_operand(0) is cond:  # type: ignore[attr-defined]
            x = o
            break
    if x is None:
        return None
    return SelectInst(cond, ic.builder.create_neg(x, x.name + ".neg"), x)


__all__ = ["canonicalize_abs", "fold_not", "fold_not_xor", "fold_xor_to_xor", "visit_masked_merge", "visit_xor"]
