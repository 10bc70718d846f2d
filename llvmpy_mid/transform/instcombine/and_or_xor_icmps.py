"""Logic of two compares (LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``:
``foldAndOrOfICmps``, ``foldXorOfICmps``, ``foldLogicOfFCmps`` and their helpers
``foldAndOrOfICmpsOfAndWithPow2``, ``foldAndOrOfICmpEqConstantAndICmp``,
``foldAndOrOfICmpsWithConstEq``, ``simplifyRangeCheck``,
``foldAndOrOfICmpsWithPow2AndWithZero``, ``foldAndOrOfICmpsUsingRanges``).

``foldLogicOfIsFPClass`` is here too (:func:`fold_logic_of_is_fpclass`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.cmp_inst_analysis import (
    decompose_bit_test_icmp,
    get_fcmp_code,
    get_icmp_code,
    get_pred_for_fcmp_code,
    get_pred_for_icmp_code,
    predicates_foldable,
)
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.fp_class_test import fcmp_to_class_test
from llvmpy_mid.ir import apfloat
from llvmpy_mid.analysis.instruction_simplify import simplify_binop, simplify_icmp_inst
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.pattern_match import m_add, m_any_zero_fp, m_all_ones, m_apint, m_apint_allow_poison, m_not, m_one, m_pos_zero_fp, m_value, m_zero, m_zero_int, match
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common as cm
from llvmpy_mid.transform.instcombine.and_or_xor_masked import fold_log_op_of_masked_icmps
from llvmpy_mid.transform.instcombine.and_or_xor_util import binop, cint, one_use, width

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P_APINT = m_apint("c")
P_APINT_P = m_apint_allow_poison("c")
P_ZERO = m_zero_int()
P_ONES = m_all_ones()
P_ONE = m_one()
P_ADD_C = m_add(m_value("x"), m_apint("c"))
P_POS_ZERO = m_pos_zero_fp()
P_ZERO_ANY = m_zero()
P_ANY_ZERO_FP = m_any_zero_fp()

EQ = Predicate.ICMP_EQ
NE = Predicate.ICMP_NE


def _apint(v: Value) -> int | None:
    m = match(v, P_APINT)
    return None if m is None else m.apint("c")


def _apint_p(v: Value) -> int | None:
    m = match(v, P_APINT_P)
    return None if m is None else m.apint("c")


def get_new_icmp_value(ic: InstCombiner, code: int, sign: bool, lhs: Value, rhs: Value) -> Value:
    """The compare for the icmp code ``code`` of ``lhs`` and ``rhs``, or true/false"""
    r = get_pred_for_icmp_code(code, sign, lhs.type)
    if isinstance(r, Constant):
        return r
    return ic.builder.create_icmp(r, lhs, rhs)


def is_sign_bit_check(pred: Predicate, c: int, w: int) -> bool | None:
    """``isSignBitCheck``: None when ``icmp pred X, C`` is no sign test, else whether it is true for negative X"""
    m = (1 << w) - 1
    sign = 1 << (w - 1)
    if pred == Predicate.ICMP_SLT:
        return True if c == 0 else None
    if pred == Predicate.ICMP_SLE:
        return True if c == m else None
    if pred == Predicate.ICMP_SGT:
        return False if c == m else None
    if pred == Predicate.ICMP_SGE:
        return False if c == 0 else None
    if pred == Predicate.ICMP_UGT:
        return True if c == sign - 1 else None
    if pred == Predicate.ICMP_UGE:
        return True if c == sign else None
    if pred == Predicate.ICMP_ULT:
        return False if c == sign else None
    if pred == Predicate.ICMP_ULE:
        return False if c == sign - 1 else None
    return None


def fold_and_or_of_icmps_of_and_with_pow2(
    ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, cxt: Instruction, is_and: bool, is_logical: bool
) -> Value | None:
    """(A & K1) == 0 | (A & K2) == 0 -> (A & (K1 | K2)) != (K1 | K2) for one-bit K1, K2 (and the and form)"""
    pred = NE if is_and else EQ
    if lhs.predicate != pred or rhs.predicate != pred:
        return None
    if match(lhs.get_operand(1), P_ZERO) is None or match(rhs.get_operand(1), P_ZERO) is None:
        return None
    la = binop(lhs.get_operand(0), "and")
    ra = binop(rhs.get_operand(0), "and")
    if la is None or ra is None:
        return None
    l1, l2 = la
    r1, r2 = ra
    if l1 is r2 or l2 is r2:
        r1, r2 = r2, r1
    if l2 is r1:
        l1, l2 = l2, l1
    if (
        l1 is r1
        and ic.is_known_to_be_a_power_of_two(l2, False, 0, cxt)
        and ic.is_known_to_be_a_power_of_two(r2, False, 0, cxt)
    ):
        b = ic.builder
        if is_logical:
            r2 = b.create_freeze(r2)
        mask = b.create_or(l2, r2)
        masked = b.create_and(l1, mask)
        return b.create_icmp(EQ if is_and else NE, masked, mask)
    return None


def fold_and_or_of_icmp_eq_constant_and_icmp(
    ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, is_and: bool, is_logical: bool
) -> Value | None:
    """(X == C) | (Other u< (X - C)) -> Other u<= (X - (C + 1)) (and the inverted and form)"""
    lhs0 = lhs.get_operand(0)
    rhs0 = rhs.get_operand(0)
    rhs1 = rhs.get_operand(1)
    lpred = lhs.predicate.inverse if is_and else lhs.predicate
    rpred = rhs.predicate.inverse if is_and else rhs.predicate
    m = match(lhs.get_operand(1), P_APINT_P)
    if lpred != EQ or m is None or not lhs0.type.scalar_type.is_integer or not (one_use(lhs) or one_use(rhs)):
        return None
    c = m.apint("c")
    w = width(lhs0.type)
    mask = (1 << w) - 1

    def match_rhs_op(v: Value) -> bool:
        ops = binop(v, "add")
        if ops is not None and ops[0] is lhs0:
            mm = match(ops[1], P_APINT_P)
            if mm is not None and mm.apint("c") == (-c) & mask:
                return True
        return c == 0 and v is lhs0

    if rpred == Predicate.ICMP_ULT and match_rhs_op(rhs1):
        oth = rhs0
    elif rpred == Predicate.ICMP_UGT and match_rhs_op(rhs0):
        oth = rhs1
    else:
        return None
    b = ic.builder
    if is_logical:
        oth = b.create_freeze(oth)
    return b.create_icmp(
        Predicate.ICMP_ULT if is_and else Predicate.ICMP_UGE,
        b.create_sub(lhs0, cint(lhs0.type, c + 1)),
        oth,
    )


def fold_and_or_of_icmps_with_const_eq(
    ic: InstCombiner, cmp0: ICmpInst, cmp1: ICmpInst, is_and: bool, is_logical: bool, cxt: Instruction
) -> Value | None:
    """(X == C) && (Y pred X) -> (X == C) && (Y pred C) (and the or form with !=)"""
    x = cmp0.get_operand(0)
    c = cmp0.get_operand(1)
    if not isinstance(c, Constant) or not is_guaranteed_not_to_be_undef_or_poison(c) or isinstance(x, Constant):
        return None
    pred0 = cmp0.predicate
    if (is_and and pred0 != EQ) or (not is_and and pred0 != NE):
        return None
    a = cmp1.get_operand(0)
    bb = cmp1.get_operand(1)
    if bb is x:
        y = a
        pred1 = cmp1.predicate
    elif a is x:
        y = bb
        pred1 = cmp1.predicate.swapped
    else:
        return None
    sub = simplify_icmp_inst(pred1, y, c, ic.query(cxt))
    b = ic.builder
    if sub is None:
        if not one_use(cmp1):
            return None
        sub = b.create_icmp(pred1, y, c)
    if is_logical:
        return b.create_logical_and(cmp0, sub) if is_and else b.create_logical_or(cmp0, sub)
    return b.create_bin_op("and" if is_and else "or", cmp0, sub)


def simplify_range_check(ic: InstCombiner, cmp0: ICmpInst, cmp1: ICmpInst, inverted: bool) -> Value | None:
    """(x s>= 0) & (x s< n) -> x u< n when n is known non-negative (and the inverted or form)"""
    start = cmp0.get_operand(1)
    if type(start) is not ConstantInt:
        return None
    pred0 = cmp0.predicate.inverse if inverted else cmp0.predicate
    w = start.type.width
    if not ((pred0 == Predicate.ICMP_SGT and start.value == (1 << w) - 1) or (pred0 == Predicate.ICMP_SGE and start.value == 0)):
        return None
    pred1 = cmp1.predicate.inverse if inverted else cmp1.predicate
    inp = cmp0.get_operand(0)
    if cmp1.get_operand(0) is inp:
        end = cmp1.get_operand(1)
    elif cmp1.get_operand(1) is inp:
        end = cmp1.get_operand(0)
        pred1 = pred1.swapped
    else:
        return None
    if pred1 == Predicate.ICMP_SLT:
        new = Predicate.ICMP_ULT
    elif pred1 == Predicate.ICMP_SLE:
        new = Predicate.ICMP_ULE
    else:
        return None
    if not ic.compute_known_bits(end, 0, cmp1).is_non_negative():
        return None
    if inverted:
        new = new.inverse
    return ic.builder.create_icmp(new, inp, end)


def fold_and_or_of_icmps_with_pow2_and_with_zero(
    ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, is_and: bool, cxt: Instruction
) -> Value | None:
    """(X == 0) | (X == P) -> (X & P) == X for P a power of two or zero (and the != and form)"""
    pred = NE if is_and else EQ
    if lhs.predicate != pred or rhs.predicate != pred:
        return None
    if match(rhs.get_operand(1), P_ZERO) is not None:
        lhs, rhs = rhs, lhs
    if not one_use(lhs) or match(lhs.get_operand(1), P_ZERO) is None:
        return None
    op = lhs.get_operand(0)
    if not one_use(rhs):
        return None
    if rhs.get_operand(0) is op:
        pow2 = rhs.get_operand(1)
    elif rhs.get_operand(1) is op:
        pow2 = rhs.get_operand(0)
    else:
        return None
    if match(pow2, P_ONE) is not None or not ic.is_known_to_be_a_power_of_two(pow2, True, 0, cxt):
        return None
    b = ic.builder
    and_ = b.create_and(op, pow2)
    return b.create_icmp(pred, and_, op)


def fold_and_or_of_icmps_using_ranges(ic: InstCombiner, icmp1: ICmpInst, icmp2: ICmpInst, is_and: bool) -> Value | None:
    """(icmp P1 V, C1) &/| (icmp P2 V, C2) -> one compare, by constant ranges (adds of constants looked through)"""
    c1 = _apint(icmp1.get_operand(1))
    c2 = _apint(icmp2.get_operand(1))
    if c1 is None or c2 is None:
        return None
    v1 = icmp1.get_operand(0)
    v2 = icmp2.get_operand(0)
    off1: int | None = None
    off2: int | None = None
    if v1 is not v2:
        m = match(v1, P_ADD_C)
        if m is not None:
            v1 = m.value("x")
            off1 = m.apint("c")
        m = match(v2, P_ADD_C)
        if m is not None:
            v2 = m.value("x")
            off2 = m.apint("c")
    if v1 is not v2:
        return None
    w = width(v1.type)
    p1 = icmp1.predicate.inverse if is_and else icmp1.predicate
    p2 = icmp2.predicate.inverse if is_and else icmp2.predicate
    cr1 = ConstantRange.make_exact_icmp_region(p1, c1, w)
    if off1 is not None:
        cr1 = cr1.subtract(off1)
    cr2 = ConstantRange.make_exact_icmp_region(p2, c2, w)
    if off2 is not None:
        cr2 = cr2.subtract(off2)
    ty = v1.type
    new_v = v1
    b = ic.builder
    mask = (1 << w) - 1
    cr = cr1.exact_union_with(cr2)
    if cr is None:
        if not (one_use(icmp1) and one_use(icmp2)) or cr1.is_wrapped_set() or cr2.is_wrapped_set():
            return None
        lower_diff = cr1.lower ^ cr2.lower
        upper_diff = ((cr1.upper - 1) & mask) ^ ((cr2.upper - 1) & mask)
        size1 = (cr1.upper - cr1.lower) & mask
        if not (lower_diff and lower_diff & (lower_diff - 1) == 0) or lower_diff != upper_diff or size1 != (cr2.upper - cr2.lower) & mask:
            return None
        cr = cr1 if cr1.lower < cr2.lower else cr2
        new_v = b.create_and(new_v, cint(ty, ~lower_diff & mask))
    if is_and:
        cr = cr.inverse()
    pred, new_c, offset = cr.get_equivalent_icmp()
    if offset & mask:
        new_v = b.create_add(new_v, cint(ty, offset))
    return b.create_icmp(pred, new_v, cint(ty, new_c))


def fold_signed_truncation_check(ic: InstCombiner, icmp0: ICmpInst, icmp1: ICmpInst, cxt: Instruction) -> Value | None:
    """(X + C01) u< C1 & (X & Mask) == 0 -> X u< HighestBit (a signed truncation check and a bit test)"""

    def trunc_check(c: ICmpInst) -> tuple[Value, int] | None:
        if c.predicate != Predicate.ICMP_ULT:
            return None
        ops = binop(c.get_operand(0), "add")
        if ops is None:
            return None
        i01 = _apint_p(ops[1])
        i1 = _apint_p(c.get_operand(1))
        if i01 is None or i1 is None or not _pow2(i01) or not _pow2(i1):
            return None
        if not (i1 > i01 and (i01 << 1) & ((1 << width(c.get_operand(0).type)) - 1) == i1):
            return None
        return ops[0], i01

    r = trunc_check(icmp1)
    if r is not None:
        other_cmp = icmp0
    else:
        r = trunc_check(icmp0)
        if r is None:
            return None
        other_cmp = icmp1
    x1, highest = r
    dec = decompose_bit_test_icmp(other_cmp.get_operand(0), other_cmp.get_operand(1), other_cmp.predicate, False)
    if dec is not None and dec[2] == EQ:
        x0, unset = dec[0], dec[1]
    else:
        ops = binop(other_cmp.get_operand(0), "and")
        mask = _apint(ops[1]) if ops is not None else None
        if ops is None or mask is None or other_cmp.predicate != EQ or match(other_cmp.get_operand(1), P_ZERO) is None:
            return None
        x0, unset = ops[0], mask
    if x1 is x0:
        x = x1
    elif getattr(x0, "opcode", None) == "trunc" and x0.get_operand(0) is x1:  # type: ignore[attr-defined]
        x = x1
    else:
        return None
    w = width(x.type)
    m = (1 << w) - 1
    sign_bits = ~(highest - 1) & m
    if not unset & sign_bits:
        return None
    if unset & ~sign_bits:
        other_highest = ((~unset & m) + 1) & m
        if not _pow2(other_highest):
            return None
        highest = min(highest, other_highest)
    return ic.builder.create_icmp(Predicate.ICMP_ULT, x, cint(x.type, highest), cxt.name + ".simplified")


def _pow2(c: int) -> bool:
    return c != 0 and c & (c - 1) == 0


def _ctpop_of(v: Value) -> Value | None:
    from llvmpy_mid.ir.instructions.calls import CallInst

    if isinstance(v, CallInst) and v.intrinsic_base == "llvm.ctpop":
        return v.get_operand(0)
    return None


def fold_is_power_of2_or_zero(ic: InstCombiner, cmp0: ICmpInst, cmp1: ICmpInst, is_and: bool) -> Value | None:
    """(ctpop(X) == 1) | (X == 0) -> ctpop(X) u< 2; (ctpop(X) != 1) & (X != 0) -> ctpop(X) u> 1"""
    ctpop = cmp0.get_operand(0)
    x = _ctpop_of(ctpop)
    if x is None or _apint(cmp0.get_operand(1)) != 1:
        return None
    if cmp1.get_operand(0) is not x or match(cmp1.get_operand(1), P_ZERO) is None:
        return None
    p0 = cmp0.predicate
    p1 = cmp1.predicate
    if is_and and p0 == NE and p1 == NE:
        return ic.builder.create_icmp(Predicate.ICMP_UGT, ctpop, cint(ctpop.type, 1))
    if not is_and and p0 == EQ and p1 == EQ:
        return ic.builder.create_icmp(Predicate.ICMP_ULT, ctpop, cint(ctpop.type, 2))
    return None


def fold_is_power_of2(ic: InstCombiner, cmp0: ICmpInst, cmp1: ICmpInst, joined_by_and: bool) -> Value | None:
    """(X != 0) & (ctpop(X) u< 2) -> ctpop(X) == 1; (X == 0) | (ctpop(X) u> 1) -> ctpop(X) != 1"""
    if joined_by_and and cmp1.predicate == NE:
        cmp0, cmp1 = cmp1, cmp0
    elif not joined_by_and and cmp1.predicate == EQ:
        cmp0, cmp1 = cmp1, cmp0
    if match(cmp0.get_operand(1), P_ZERO) is None:
        return None
    x = cmp0.get_operand(0)
    ctpop = cmp1.get_operand(0)
    if _ctpop_of(ctpop) is not x:
        return None
    c = _apint(cmp1.get_operand(1))
    if joined_by_and and cmp0.predicate == NE and cmp1.predicate == Predicate.ICMP_ULT and c == 2:
        new = EQ
    elif not joined_by_and and cmp0.predicate == EQ and cmp1.predicate == Predicate.ICMP_UGT and c == 1:
        new = NE
    else:
        return None
    from llvmpy_mid.ir.instructions.calls import CallInst

    assert isinstance(ctpop, CallInst)
    attrs = ctpop.attributes
    for kind in ("range", "nonnull", "align"):
        attrs = attrs.without_ret_attr(kind)
    ctpop.attributes = attrs
    ic.add_to_worklist(ctpop)
    return ic.builder.create_icmp(new, ctpop, cint(ctpop.type, 1))


def _fold_negative_power2_and_shifted_mask(
    ic: InstCombiner, a: Value, b: Value, d: Value, e: Value, pred_l: Predicate, pred_r: Predicate
) -> Value | None:
    """(A & B) == 0 & (A & D) != D -> A u< D for B a negated power of two and D the shifted mask below it"""
    from llvmpy_mid.ir.constants import PoisonValue
    from llvmpy_mid.ir.types import VectorType

    if pred_l != EQ or pred_r != NE:
        return None
    w = width(a.type)
    m = (1 << w) - 1

    def neg_pow2(c: int) -> bool:
        n = (-c) & m
        return c != 0 and _pow2(n)

    def shifted_mask(c: int) -> bool:
        if c == 0:
            return False
        lo = c & -c
        return _pow2(c + lo) or (c + lo) == (1 << w)

    def lanes_ok(v: Value, pred: object) -> bool:
        from llvmpy_mid.ir.pattern_match import m_cst_pred

        return match(v, m_cst_pred(lambda k: bool(pred(k.value)))) is not None  # type: ignore[attr-defined,operator]

    if not lanes_ok(b, neg_pow2) or not lanes_ok(d, shifted_mask) or not lanes_ok(e, shifted_mask):
        return None

    def lead_ones(c: int) -> int:
        n = 0
        for k in range(w - 1, -1, -1):
            if (c >> k) & 1:
                n += 1
            else:
                break
        return n

    def reducible(bv: Value, dv: Value, ev: Value) -> bool:
        mb = match(bv, P_APINT_P)
        bc = None if mb is None else mb.apint("c")
        dc = _apint(dv)
        ec = _apint(ev)
        if bc is None or dc is None or ec is None or dc != ec:
            return False
        return isinstance(bv, PoisonValue) or lead_ones(bc) == w - dc.bit_length()

    bty = b.type
    if isinstance(bty, VectorType):
        if bty.scalable or not isinstance(b, Constant) or not isinstance(d, Constant) or not isinstance(e, Constant):
            return None
        for k in range(bty.count):
            be = b.get_aggregate_element(k)
            de = d.get_aggregate_element(k)
            ee = e.get_aggregate_element(k)
            if be is None or de is None or ee is None or not reducible(be, de, ee):
                return None
    elif not reducible(b, d, e):
        return None
    return ic.builder.create_icmp(Predicate.ICMP_ULT, a, d)


def fold_power_of2_and_shifted_mask(ic: InstCombiner, cmp0: ICmpInst, cmp1: ICmpInst, joined_by_and: bool) -> Value | None:
    """(X u< P) & ((X & M) != M) -> X u< M for P a power of two and M the shifted mask just below it"""
    from llvmpy_mid.transform.instcombine.and_or_xor_masked import (
        BMASK_NOT_ALL_ONES,
        BMASK_NOT_MIXED,
        MASK_ALL_ZEROS,
        get_masked_type_for_icmp_pair,
    )

    if not joined_by_and:
        return None
    p = get_masked_type_for_icmp_pair(cmp0, cmp1)
    if p is None:
        return None
    cmp_b = BMASK_NOT_MIXED | BMASK_NOT_ALL_ONES
    if p.left & MASK_ALL_ZEROS and p.right == cmp_b:
        return _fold_negative_power2_and_shifted_mask(ic, p.a, p.b, p.d, p.e, p.pred_l, p.pred_r)
    if p.left == cmp_b and p.right & MASK_ALL_ZEROS:
        return _fold_negative_power2_and_shifted_mask(ic, p.a, p.d, p.b, p.c, p.pred_r, p.pred_l)
    return None


def fold_unsigned_underflow_check(
    ic: InstCombiner, zero_icmp: ICmpInst, unsigned_icmp: ICmpInst, is_and: bool, cxt: Instruction
) -> Value | None:
    """(A + B) u< A & (A + B) != 0 -> (0 - B) u< A when B is known non-zero (and the or form)"""
    from llvmpy_mid.analysis.known_non_zero import is_known_non_zero

    zero_op = zero_icmp.get_operand(0)
    eq_pred = zero_icmp.predicate
    if match(zero_icmp.get_operand(1), P_ZERO_ANY) is None or not eq_pred.is_equality:
        return None
    u0 = unsigned_icmp.get_operand(0)
    u1 = unsigned_icmp.get_operand(1)
    if u0 is zero_op:
        a = u1
        upred = unsigned_icmp.predicate
    elif u1 is zero_op:
        a = u0
        upred = unsigned_icmp.predicate.swapped
    else:
        return None
    ops = binop(zero_op, "add")
    if ops is None:
        return None
    if ops[0] is a:
        bv = ops[1]
    elif ops[1] is a:
        bv = ops[0]
    else:
        return None
    if not (one_use(zero_icmp) or one_use(unsigned_icmp)):
        return None
    q = ic.query(cxt)

    def nonzero_and_other(nz: Value, oth: Value) -> tuple[Value, Value] | None:
        if not is_known_non_zero(nz, q):
            nz, oth = oth, nz
        return (nz, oth) if is_known_non_zero(nz, q) else None

    b = ic.builder
    if upred == Predicate.ICMP_ULT and eq_pred == NE and is_and:
        r = nonzero_and_other(bv, a)
        if r is not None:
            return b.create_icmp(Predicate.ICMP_ULT, b.create_neg(r[0]), r[1])
    if upred == Predicate.ICMP_UGE and eq_pred == EQ and not is_and:
        r = nonzero_and_other(bv, a)
        if r is not None:
            return b.create_icmp(Predicate.ICMP_UGE, b.create_neg(r[0]), r[1])
    return None


def _match_int_part(v: Value) -> tuple[Value, int, int] | None:
    """``matchIntPart``: (From, StartBit, NumBits) of a one-use trunc (of a one-use lshr)."""
    if getattr(v, "opcode", None) != "trunc" or not one_use(v):
        return None
    x = v.get_operand(0)  # type: ignore[attr-defined]
    n_orig = width(x.type)
    n_ext = width(v.type)
    ops = binop(x, "lshr")
    if ops is not None and one_use(x):
        sh = _apint(ops[1])
        if sh is not None and sh <= n_orig - n_ext:
            return ops[0], sh, n_ext
    return x, 0, n_ext


def fold_eq_of_parts(ic: InstCombiner, cmp0: ICmpInst, cmp1: ICmpInst, is_and: bool) -> Value | None:
    """(icmp eq X0, Y0) & (icmp eq X1, Y1) -> icmp eq X01, Y01 for adjacent parts of two integers"""
    if not one_use(cmp0) or not one_use(cmp1):
        return None
    pred = EQ if is_and else NE

    def get_part(c: ICmpInst, op_no: int) -> tuple[Value, int, int] | None:
        if c.predicate == pred:
            return _match_int_part(c.get_operand(op_no))
        lhs = c.get_operand(0)
        rhs = c.get_operand(1)
        cv = _apint(rhs)
        if pred == EQ and c.predicate == Predicate.ICMP_ULT:
            if cv is None or not _pow2(cv) or binop(lhs, "xor") is None:
                return None
        elif pred == NE and c.predicate == Predicate.ICMP_UGT:
            if cv is None or cv == 0 or cv & (cv + 1) or binop(lhs, "xor") is None:
                return None
        else:
            return None
        w = width(rhs.type)
        frm = bin(cv).count("1") if pred == NE else (cv & -cv).bit_length() - 1
        return lhs.get_operand(op_no), frm, w - frm  # type: ignore[attr-defined]

    l0 = get_part(cmp0, 0)
    r0 = get_part(cmp0, 1)
    l1 = get_part(cmp1, 0)
    r1 = get_part(cmp1, 1)
    if l0 is None or r0 is None or l1 is None or r1 is None:
        return None
    if l0[0] is not l1[0] or r0[0] is not r1[0]:
        if l0[0] is not r1[0] or r0[0] is not l1[0]:
            return None
        l1, r1 = r1, l1
    if l0[1] + l0[2] != l1[1] or r0[1] + r0[2] != r1[1]:
        if l1[1] + l1[2] != l0[1] or r1[1] + r1[2] != r0[1]:
            return None
        l0, l1 = l1, l0
        r0, r1 = r1, r0
    b = ic.builder

    def extract(frm: Value, start: int, nbits: int) -> Value:
        v = frm
        if start:
            v = b.create_lshr(v, cint(v.type, start))
        ty = v.type
        from llvmpy_mid.ir.types import VectorType

        tt = ty.context.int_type(nbits)
        if isinstance(ty, VectorType):
            tt = ty.context.vector_type(tt, ty.count, ty.scalable)  # type: ignore[assignment]
        if tt is not ty:
            v = b.create_trunc(v, tt)
        return v

    lv = extract(l0[0], l0[1], l0[2] + l1[2])
    rv = extract(r0[0], r0[1], r0[2] + r1[2])
    return b.create_icmp(pred, lv, rv)


def fold_trunc_and_eq(ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, is_and: bool, lhsc: int, rhsc: int) -> Value | None:
    """(trunc x) == C1 & (x & CA) == C2 -> (x & (CA | CMAX)) == (C1 | C2) when C2 and CA miss the low bits"""
    pred_l = lhs.predicate
    want = EQ if is_and else NE
    if not (pred_l == want and pred_l == rhs.predicate and one_use(lhs) and one_use(rhs)):
        return None
    lhs0 = lhs.get_operand(0)
    rhs0 = rhs.get_operand(0)
    small_c: int | None = None
    big_c: int | None = None
    and_c: int | None = None
    v: Value | None = None
    small_bits = 0
    for tr, an, sc, bc in ((rhs0, lhs0, rhsc, lhsc), (lhs0, rhs0, lhsc, rhsc)):
        if getattr(tr, "opcode", None) != "trunc":
            continue
        src = tr.get_operand(0)  # type: ignore[attr-defined]
        ops = binop(an, "and")
        if ops is not None and ops[0] is src and _apint(ops[1]) is not None:
            small_c, big_c, and_c, v = sc, bc, _apint(ops[1]), src
            small_bits = width(tr.type)
            break
    if small_c is None or big_c is None or and_c is None or v is None:
        return None
    low = (1 << small_bits) - 1
    if low & and_c or low & big_c:
        return None
    b = ic.builder
    new_and = b.create_and(v, cint(v.type, low | and_c))
    return b.create_icmp(pred_l, new_and, cint(v.type, small_c | big_c))


def fold_and_or_of_icmps(
    ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, i: Instruction, is_and: bool, is_logical: bool = False
) -> Value | None:
    """``foldAndOrOfICmps``: (icmp1 A, B) &/| (icmp2 C, D) as one value."""
    v = fold_and_or_of_icmps_of_and_with_pow2(ic, lhs, rhs, i, is_and, is_logical)
    if v is not None:
        return v
    pred_l = lhs.predicate
    pred_r = rhs.predicate
    lhs0 = lhs.get_operand(0)
    rhs0 = rhs.get_operand(0)
    lhs1 = lhs.get_operand(1)
    rhs1 = rhs.get_operand(1)
    lhsc = _apint(lhs1)
    rhsc = _apint(rhs1)
    b = ic.builder
    if predicates_foldable(pred_l, pred_r):
        if lhs0 is rhs1 and lhs1 is rhs0:
            pred_l = pred_l.swapped
            lhs0, lhs1 = lhs1, lhs0
        if lhs0 is rhs0 and lhs1 is rhs1:
            code = get_icmp_code(pred_l) & get_icmp_code(pred_r) if is_and else get_icmp_code(pred_l) | get_icmp_code(pred_r)
            signed = lhs.predicate.is_signed or rhs.predicate.is_signed
            return get_new_icmp_value(ic, code, signed, lhs0, lhs1)
    v = fold_log_op_of_masked_icmps(ic, lhs, rhs, is_and, is_logical)
    if v is not None:
        return v
    v = fold_and_or_of_icmp_eq_constant_and_icmp(ic, lhs, rhs, is_and, is_logical)
    if v is not None:
        return v
    v = fold_and_or_of_icmp_eq_constant_and_icmp(ic, rhs, lhs, is_and, False)
    if v is not None:
        return v
    v = fold_and_or_of_icmps_with_const_eq(ic, lhs, rhs, is_and, is_logical, i)
    if v is not None:
        return v
    v = fold_and_or_of_icmps_with_const_eq(ic, rhs, lhs, is_and, False, i)
    if v is not None:
        return v
    v = fold_is_power_of2_or_zero(ic, lhs, rhs, is_and)
    if v is not None:
        return v
    v = fold_is_power_of2_or_zero(ic, rhs, lhs, is_and)
    if v is not None:
        return v
    if not is_logical:
        v = simplify_range_check(ic, lhs, rhs, not is_and)
        if v is not None:
            return v
        v = simplify_range_check(ic, rhs, lhs, not is_and)
        if v is not None:
            return v
    if is_and and not is_logical:
        v = fold_signed_truncation_check(ic, lhs, rhs, i)
        if v is not None:
            return v
    v = fold_is_power_of2(ic, lhs, rhs, is_and)
    if v is not None:
        return v
    v = fold_power_of2_and_shifted_mask(ic, lhs, rhs, is_and)
    if v is not None:
        return v
    if not is_logical:
        v = fold_unsigned_underflow_check(ic, lhs, rhs, is_and, i)
        if v is not None:
            return v
        v = fold_unsigned_underflow_check(ic, rhs, lhs, is_and, i)
        if v is not None:
            return v
    v = fold_eq_of_parts(ic, lhs, rhs, is_and)
    if v is not None:
        return v
    # (icmp ne A, 0) | (icmp ne B, 0) --> (icmp ne (A|B), 0)
    want = EQ if is_and else NE
    pred_l = lhs.predicate
    if (
        not is_logical
        and pred_l == want
        and pred_l == pred_r
        and match(lhs1, P_ZERO) is not None
        and match(rhs1, P_ZERO) is not None
        and lhs0.type is rhs0.type
    ):
        new_or = b.create_or(lhs0, rhs0)
        return b.create_icmp(pred_l, new_or, Constant.get_null_value(new_or.type))
    if (
        not is_logical
        and pred_l == want
        and pred_l == pred_r
        and match(lhs1, P_ONES) is not None
        and match(rhs1, P_ONES) is not None
        and lhs0.type is rhs0.type
    ):
        new_and = b.create_and(lhs0, rhs0)
        return b.create_icmp(pred_l, new_and, Constant.get_all_ones_value(lhs0.type))
    if not is_logical:
        v = fold_and_or_of_icmps_with_pow2_and_with_zero(ic, lhs, rhs, is_and, i)
        if v is not None:
            return v
    if lhsc is None or rhsc is None:
        return None
    v = fold_trunc_and_eq(ic, lhs, rhs, is_and, lhsc, rhsc)
    if v is not None:
        return v
    w = width(lhs0.type)
    tl = is_sign_bit_check(pred_l, lhsc, w)
    tr = is_sign_bit_check(pred_r, rhsc, w)
    if tl is not None and tr is not None and (one_use(rhs) or one_use(lhs)):
        xy = _sign_pair(lhs0, rhs0, tl, tr, is_and)
        if xy is not None:
            new_xor = b.create_xor(xy[0], xy[1])
            return b.create_is_neg(new_xor) if is_and else b.create_is_not_neg(new_xor)
    return fold_and_or_of_icmps_using_ranges(ic, lhs, rhs, is_and)


def _sign_pair(lhs0: Value, rhs0: Value, tl: bool, tr: bool, is_and: bool) -> tuple[Value, Value] | None:
    """The X, Y of the same-sign test (X & Y) < 0 | (X | Y) > -1 (and its and form)."""
    first, second = ("or", "and") if is_and else ("and", "or")
    if tl and not tr:
        ops = binop(lhs0, first)
        if ops is not None and _is_pair(rhs0, second, ops[0], ops[1]):
            return ops
    if not tl and tr:
        ops = binop(lhs0, second)
        if ops is not None and _is_pair(rhs0, first, ops[0], ops[1]):
            return ops
    return None


def _is_pair(v: Value, opcode: str, a: Value, b: Value) -> bool:
    ops = binop(v, opcode)
    return ops is not None and ((ops[0] is a and ops[1] is b) or (ops[0] is b and ops[1] is a))


def fold_xor_of_icmps(ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, i: Instruction) -> Value | None:
    """``foldXorOfICmps``: (icmp1 A, B) ^ (icmp2 A, B) -> icmp3; sign tests; ranges; the and-of-icmps rewrite"""
    pred_l = lhs.predicate
    pred_r = rhs.predicate
    lhs0 = lhs.get_operand(0)
    lhs1 = lhs.get_operand(1)
    rhs0 = rhs.get_operand(0)
    rhs1 = rhs.get_operand(1)
    b = ic.builder
    if predicates_foldable(pred_l, pred_r):
        if lhs0 is rhs1 and lhs1 is rhs0:
            lhs0, lhs1 = lhs1, lhs0
            pred_l = pred_l.swapped
        if lhs0 is rhs0 and lhs1 is rhs1:
            code = get_icmp_code(pred_l) ^ get_icmp_code(pred_r)
            signed = lhs.predicate.is_signed or rhs.predicate.is_signed
            return get_new_icmp_value(ic, code, signed, lhs0, lhs1)
    lc = _apint(lhs1)
    rc = _apint(rhs1)
    if lc is not None and rc is not None and lhs0.type is rhs0.type and lhs0.type.scalar_type.is_integer:
        w = width(lhs0.type)
        tl = is_sign_bit_check(pred_l, lc, w)
        tr = is_sign_bit_check(pred_r, rc, w)
        if (one_use(lhs) or one_use(rhs)) and tl is not None and tr is not None:
            xor_lr = b.create_xor(lhs0, rhs0)
            return b.create_is_neg(xor_lr) if tl == tr else b.create_is_not_neg(xor_lr)
        if lhs0 is rhs0:
            cr1 = ConstantRange.make_exact_icmp_region(pred_l, lc, w)
            cr2 = ConstantRange.make_exact_icmp_region(pred_r, rc, w)
            cru = cr1.exact_union_with(cr2)
            cri = cr1.exact_intersect_with(cr2)
            if cru is not None and cri is not None:
                cr = cru.exact_intersect_with(cri.inverse())
                if cr is not None:
                    if cr.is_full_set():
                        return ConstantInt.get_true(i.type)
                    if cr.is_empty_set():
                        return ConstantInt.get_false(i.type)
                    new_pred, new_c, offset = cr.get_equivalent_icmp()
                    mask = (1 << w) - 1
                    if (offset & mask == 0 and (one_use(lhs) or one_use(rhs))) or (one_use(lhs) and one_use(rhs)):
                        new_v = lhs0
                        ty = lhs0.type
                        if offset & mask:
                            new_v = b.create_add(new_v, cint(ty, offset))
                        return b.create_icmp(new_pred, new_v, cint(ty, new_c))
    q = ic.sq
    or_icmp = simplify_binop("or", lhs, rhs, q)
    if or_icmp is not None:
        and_icmp = simplify_binop("and", lhs, rhs, q)
        if and_icmp is not None:
            x: ICmpInst | None = None
            y: ICmpInst | None = None
            if or_icmp is lhs and and_icmp is rhs:
                x, y = lhs, rhs
            if or_icmp is rhs and and_icmp is lhs:
                x, y = rhs, lhs
            if x is not None and y is not None and (one_use(y) or cm.can_freely_invert_all_users_of(y, i)):
                y.predicate = y.predicate.inverse
                if not one_use(y):
                    saved = b.insert_before
                    nxt = y.next_instruction
                    assert nxt is not None
                    b.position_before(nxt)
                    not_y = b.create_not(y, y.name + ".not")
                    if saved is not None:
                        b.position_before(saved)
                    ic.worklist.push_users_to_worklist(y)
                    y.replace_uses_with_if(not_y, lambda u: u.user is not not_y)
                return b.create_and(lhs, rhs)
    return None


def fold_logic_of_fcmps(
    ic: InstCombiner, lhs: FCmpInst, rhs: FCmpInst, is_and: bool, is_logical_select: bool = False
) -> Value | None:
    """(fcmp cc0 x, y) &/| (fcmp cc1 x, y) -> fcmp (cc0 &/| cc1) x, y; ord/uno of two values"""
    lhs0 = lhs.get_operand(0)
    lhs1 = lhs.get_operand(1)
    rhs0 = rhs.get_operand(0)
    rhs1 = rhs.get_operand(1)
    pred_l = lhs.predicate
    pred_r = rhs.predicate
    if lhs0 is rhs1 and rhs0 is lhs1:
        pred_r = pred_r.swapped
        rhs0, rhs1 = rhs1, rhs0
    b = ic.builder
    if lhs0 is rhs0 and lhs1 is rhs1:
        code_l = get_fcmp_code(pred_l)
        code_r = get_fcmp_code(pred_r)
        new = code_l & code_r if is_and else code_l | code_r
        r = get_pred_for_fcmp_code(new, lhs0.type)
        if isinstance(r, Constant):
            return r
        fmf = int(lhs.fast_math_flags) & int(rhs.fast_math_flags)
        return b.create_fcmp(r, lhs0, lhs1, fast_math_flags=fmf)
    if not is_logical_select and (
        (pred_l == Predicate.FCMP_ORD and pred_r == Predicate.FCMP_ORD and is_and)
        or (pred_l == Predicate.FCMP_UNO and pred_r == Predicate.FCMP_UNO and not is_and)
    ):
        if lhs0.type is not rhs0.type:
            return None
        if match(lhs1, P_POS_ZERO) is not None and match(rhs1, P_POS_ZERO) is not None:
            return b.create_fcmp(pred_l, lhs0, rhs0)
    if is_and and _strip_sign_only_fp_ops(lhs0) is _strip_sign_only_fp_ops(rhs0):
        v = _match_is_finite_test(ic, lhs, rhs)
        if v is not None:
            return v
        v = _match_is_finite_test(ic, rhs, lhs)
        if v is not None:
            return v
    if one_use(lhs) and one_use(rhs):
        fn = ic.fn
        val_r, mask_r = fcmp_to_class_test(pred_r, fn, rhs0, rhs1)
        if val_r is not None:
            val_l, mask_l = fcmp_to_class_test(pred_l, fn, lhs0, lhs1)
            if val_l is val_r:
                mask = mask_l & mask_r if is_and else mask_l | mask_r
                return create_is_fpclass(ic, val_l, mask)
    # fabs(x) range check: and (fcmp olt x, C), (fcmp ogt x, -C) -> fcmp olt fabs(x), C
    if lhs0 is rhs0 and one_use(lhs) and one_use(rhs) and pred_l.swapped == pred_r:
        lc = _apfloat_p(lhs1)
        rc = _apfloat_p(rhs1)
        if lc is not None and rc is not None and lc.type is rc.type:
            sem = apfloat.semantics_of(lc.type.type_id)
            if sem is not None and lc.bits == apfloat.neg(sem, rc.bits):
                if _is_lt_or_le(pred_r if is_and else pred_l):
                    lc, rc = rc, lc
                    pred_l, pred_r = pred_r, pred_l
                if _is_lt_or_le(pred_l if is_and else pred_r):
                    fmf = int(lhs.fast_math_flags) | int(rhs.fast_math_flags)
                    fabs = b.create_intrinsic("fabs", [lhs0.type], [lhs0], fmf_source=None)
                    if fmf:
                        fabs.fast_math_flags = fmf
                    new_c: Value = lc
                    if lc.type is not lhs0.type:
                        from llvmpy_mid.ir.constants import ConstantVector

                        new_c = ConstantVector.get_splat(lhs0.type, lc)  # type: ignore[arg-type]
                    return b.create_fcmp(pred_l, fabs, new_c, fast_math_flags=fmf)
    return None


def _is_lt_or_le(p: Predicate) -> bool:
    return p in (Predicate.FCMP_OLT, Predicate.FCMP_OLE, Predicate.FCMP_ULT, Predicate.FCMP_ULE)


def _apfloat_p(v: Value) -> ConstantFP | None:
    """``m_APFloatAllowPoison``: the ConstantFP of a scalar or (poison-tolerant) splat."""
    from llvmpy_mid.ir.constants import get_splat_value

    if isinstance(v, ConstantFP):
        return v
    if isinstance(v, Constant):
        s = get_splat_value(v, True)
        if isinstance(s, ConstantFP):
            return s
    return None


def create_is_fpclass(ic: InstCombiner, val: Value, mask: int) -> Value:
    """``Builder.CreateIntrinsic(Intrinsic::is_fpclass, {Ty}, {Val, getInt32(Mask)})``."""
    from llvmpy_mid.ir.types import VectorType

    ty = val.type
    ctx = ty.context
    ret = ctx.i1 if not isinstance(ty, VectorType) else ctx.vector_type(ctx.i1, ty.count, ty.scalable)
    return ic.builder.create_intrinsic("is.fpclass", [ty], [val, ConstantInt.get(ctx.i32, mask)], return_type=ret)


def _strip_sign_only_fp_ops(v: Value) -> Value:
    """``stripSignOnlyFPOps``: through one fneg, then fabs, then copysign's magnitude."""
    from llvmpy_mid.ir.instructions.calls import CallInst

    if getattr(v, "opcode", None) == "fneg":
        v = v.get_operand(0)  # type: ignore[attr-defined]
    if isinstance(v, CallInst) and v.intrinsic_base == "llvm.fabs":
        v = v.get_operand(0)
    if isinstance(v, CallInst) and v.intrinsic_base == "llvm.copysign":
        v = v.get_operand(0)
    return v


def _is_inf(v: Value) -> bool:
    """``m_Inf()``: +/-infinity (a splat too)."""
    import math

    from llvmpy_mid.ir.constants import ConstantFP, get_splat_value

    c = v if isinstance(v, ConstantFP) else (get_splat_value(v) if isinstance(v, Constant) else None)
    return isinstance(c, ConstantFP) and math.isinf(c.value)


def _match_is_finite_test(ic: InstCombiner, lhs: FCmpInst, rhs: FCmpInst) -> Value | None:
    """and (fcmp ord x, 0), (fcmp u* x, inf) -> fcmp o* x, inf"""
    pred_l = lhs.predicate
    pred_r = rhs.predicate
    if not (pred_l == Predicate.FCMP_ORD and match(lhs.get_operand(1), P_ANY_ZERO_FP) is not None):
        return None
    if not (pred_r.is_unordered and _is_inf(rhs.get_operand(1))):
        return None
    fmf = int(lhs.fast_math_flags) & int(rhs.fast_math_flags)
    return ic.builder.create_fcmp(Predicate(int(pred_r) & 7), rhs.get_operand(0), rhs.get_operand(1), fast_math_flags=fmf)


def _fcmp_with_zero(v: Value) -> tuple[Predicate, Value] | None:
    """``m_FCmp(Pred, m_Value(X), m_AnyZeroFP())``: (Pred, X)."""
    if not isinstance(v, FCmpInst) or match(v.get_operand(1), P_ANY_ZERO_FP) is None:
        return None
    return v.predicate, v.get_operand(0)


def reassociate_fcmps(ic: InstCombiner, bo: Instruction) -> Instruction | None:
    """and (fcmp ord X, 0), (and (fcmp ord Y, 0), Z) -> and (fcmp ord X, Y), Z (uno with or)"""
    from llvmpy_mid.ir.instructions.binary import BinaryOperator

    opcode = bo.opcode
    op0 = bo.get_operand(0)
    op1 = bo.get_operand(1)
    if _fcmp_with_zero(op1) is not None:
        op0, op1 = op1, op0
    nan_pred = Predicate.FCMP_ORD if opcode == "and" else Predicate.FCMP_UNO
    f0 = _fcmp_with_zero(op0)
    inner = binop(op1, opcode)
    if f0 is None or f0[0] != nan_pred or inner is None:
        return None
    x = f0[1]
    bo10, bo11 = inner
    f1 = _fcmp_with_zero(bo10)
    if f1 is None or f1[0] != nan_pred or x.type is not f1[1].type:
        bo10, bo11 = bo11, bo10
    f1 = _fcmp_with_zero(bo10)
    if f1 is None or f1[0] != nan_pred or x.type is not f1[1].type:
        return None
    new = ic.builder.create_fcmp(f1[0], x, f1[1])
    if isinstance(new, FCmpInst):
        assert isinstance(op0, FCmpInst) and isinstance(bo10, FCmpInst)
        new.fast_math_flags = int(op0.fast_math_flags) & int(bo10.fast_math_flags)
    return BinaryOperator.create(opcode, new, bo11)


def fold_logic_of_is_fpclass(ic: InstCombiner, bo: Instruction, op0: Value, op1: Value) -> Instruction | None:
    """op (is.fpclass x, m0), (is.fpclass x, m1) -> is.fpclass x, (m0 op m1) (a one-use fcmp counts as one)"""
    from llvmpy_mid.ir.instructions.calls import CallInst

    def class_of(v: Value) -> tuple[bool, Value | None, int]:
        if isinstance(v, CallInst) and one_use(v) and v.intrinsic_base == "llvm.is.fpclass":
            m = v.get_operand(1)
            if type(m) is ConstantInt:
                return True, v.get_operand(0), m.value
        if isinstance(v, FCmpInst) and one_use(v):
            val, mask = fcmp_to_class_test(v.predicate, ic.fn, v.get_operand(0), v.get_operand(1))
            return False, val, mask
        return False, None, 0

    is_l, val0, mask0 = class_of(op0)
    if val0 is None:
        return None
    is_r, val1, mask1 = class_of(op1)
    if val1 is None or val0 is not val1:
        return None
    opc = bo.opcode
    new = mask0 & mask1 if opc == "and" else (mask0 | mask1 if opc == "or" else mask0 ^ mask1)
    for flag, v in ((is_l, op0), (is_r, op1)):
        if flag:
            assert isinstance(v, CallInst)
            v.set_operand(1, ConstantInt.get(v.get_operand(1).type, new))
            return ic.replace_inst_uses_with(bo, v)
    return ic.replace_inst_uses_with(bo, create_is_fpclass(ic, val0, new))


_ZERO_ANY = m_zero()
_NOT_V = m_not(m_value("v"))


def fold_check_for_zero_and_mul_with_overflow(
    ic: InstCombiner, si: Instruction, cond: Value, op1: Value, is_and: bool
) -> Instruction | None:
    """``select (X != 0), ov(X * Y), false`` and ``select (X == 0), true, !ov(X * Y)`` with
    ``ov`` the overflow bit of ``[us]mul.with.overflow`` -> the overflow test alone, Y frozen:
    X == 0 never overflows, but a poison Y must not leak (LLVM ``visitSelectInst``'s use of
    ``isCheckForZeroAndMulWithOverflow``; the bitwise forms are InstructionSimplify's)."""
    from llvmpy_mid.ir.instructions.calls import CallInst
    from llvmpy_mid.ir.instructions.other import FreezeInst
    from llvmpy_mid.ir.instructions.vector import ExtractValueInst

    if not (isinstance(cond, ICmpInst) and match(cond.rhs, _ZERO_ANY)):
        return None
    pred = cond.predicate
    if is_and and pred == Predicate.ICMP_NE:
        ov: Value | None = op1
    elif not is_and and pred == Predicate.ICMP_EQ:
        m = match(op1, _NOT_V)
        ov = m.value("v") if m is not None else None
    else:
        return None
    if not (isinstance(ov, ExtractValueInst) and tuple(ov.indices) == (1,)):
        return None
    call = ov.aggregate_operand
    if not (isinstance(call, CallInst) and call.intrinsic_base in ("llvm.umul.with.overflow", "llvm.smul.with.overflow")):
        return None
    x = cond.lhs
    if call.get_arg(0) is x:
        y_use = call.arg_uses[1]
    elif call.get_arg(1) is x:
        y_use = call.arg_uses[0]
    else:
        return None
    y = y_use.value
    fr = FreezeInst(y, name=y.name + ".fr")
    ic.insert_new_inst_before(fr, call)
    ic.replace_use(y_use, fr)
    return ic.replace_inst_uses_with(si, op1)


__all__ = [
    "create_is_fpclass",
    "fold_check_for_zero_and_mul_with_overflow",
    "fold_logic_of_is_fpclass",
    "fold_and_or_of_icmps",
    "fold_and_or_of_icmps_using_ranges",
    "fold_logic_of_fcmps",
    "fold_xor_of_icmps",
    "reassociate_fcmps",
    "get_new_icmp_value",
    "is_sign_bit_check",
    "simplify_range_check",
]
