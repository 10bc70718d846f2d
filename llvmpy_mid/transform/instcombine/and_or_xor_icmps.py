"""Logic of two compares (LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``:
``foldAndOrOfICmps``, ``foldXorOfICmps``, ``foldLogicOfFCmps`` and their helpers
``foldAndOrOfICmpsOfAndWithPow2``, ``foldAndOrOfICmpEqConstantAndICmp``,
``foldAndOrOfICmpsWithConstEq``, ``simplifyRangeCheck``,
``foldAndOrOfICmpsWithPow2AndWithZero``, ``foldAndOrOfICmpsUsingRanges``).

Not yet done (each skipped whole; the chain goes on to the next attempt):
``foldIsPowerOf2OrZero``, ``foldSignedTruncationCheck``,
``foldIsPowerOf2``, ``foldPowerOf2AndShiftedMask``, ``foldUnsignedUnderflowCheck``,
``foldEqOfParts``, the ``(trunc x) == C1 & (and x, CA) == C2`` fold; in
``foldLogicOfFCmps`` the is-finite test, the ``is.fpclass`` merge and the fabs range check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.cmp_inst_analysis import (
    get_fcmp_code,
    get_icmp_code,
    get_pred_for_fcmp_code,
    get_pred_for_icmp_code,
    predicates_foldable,
)
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.instruction_simplify import simplify_binop, simplify_icmp_inst
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.pattern_match import m_add, m_all_ones, m_apint, m_apint_allow_poison, m_one, m_pos_zero_fp, m_value, m_zero_int, match
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

EQ = Predicate.ICMP_EQ
NE = Predicate.ICMP_NE


def _apint(v: Value) -> int | None:
    m = match(v, P_APINT)
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
    if not is_logical:
        v = simplify_range_check(ic, lhs, rhs, not is_and)
        if v is not None:
            return v
        v = simplify_range_check(ic, rhs, lhs, not is_and)
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
    # the (trunc x) == C1 & (and x, CA) == C2 fold is not done
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
                    not_y = b.create_not(y, y.name + ".not" if y.name else "")
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
    # the is-finite test, the is.fpclass merge and the fabs range check are not done
    return None


__all__ = [
    "fold_and_or_of_icmps",
    "fold_and_or_of_icmps_using_ranges",
    "fold_logic_of_fcmps",
    "fold_xor_of_icmps",
    "get_new_icmp_value",
    "is_sign_bit_check",
    "simplify_range_check",
]
