"""Integer and floating-point compares of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``: ``simplifyICmpInst`` with its
sub-folds — booleans, compares with zero, with a constant range, with binary
operators on either side, with min/max, with intrinsics, of casts, of pointers —
``simplifyFCmpInst``, the and/or of two compares, and the threading of a
compare over a select or a phi).

What it does not do (yet): dominating-condition and ``llvm.assume`` implication
(LLVM ``isImpliedByDomCondition`` / ``isImpliedCondition``) are used only when
value tracking offers them.
"""

from __future__ import annotations

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.constants import Constant, PoisonValue, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.value import Value

RECURSION_LIMIT = u.RECURSION_LIMIT

P = Predicate


def _is_same_compare(v: Value, pred: Predicate, lhs: Value, rhs: Value) -> bool:
    """``v`` is the compare ``lhs pred rhs`` (or its swapped spelling)."""
    if not isinstance(v, CmpInst):
        return False
    cp = v.predicate
    cl = v.lhs
    cr = v.rhs
    if cp == pred and cl is lhs and cr is rhs:
        return True
    return cp == pred.swapped and cl is rhs and cr is lhs


def _cmp_sel_case(pred: Predicate, lhs: Value, rhs: Value, cond: Value, q: SimplifyQuery, max_recurse: int, tf: Constant) -> Value | None:
    v = simplify_cmp_inst(pred, lhs, rhs, q, max_recurse)
    if v is cond:
        return tf
    if v is None and _is_same_compare(cond, pred, lhs, rhs):
        return tf
    return v


def _other_cmp_sel(tcmp: Value, fcmp: Value, cond: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    import llvmpy_mid.analysis.instsimplify.logic as logic
    from llvmpy_mid.analysis.value_tracking import implies_poison

    if u.is_zero(fcmp) and implies_poison(tcmp, cond):
        v = logic.simplify_and_inst(cond, tcmp, q, max_recurse)
        if v is not None:
            return v
    if u.is_one(tcmp) and implies_poison(fcmp, cond):
        v = logic.simplify_or_inst(cond, fcmp, q, max_recurse)
        if v is not None:
            return v
    if u.is_one(fcmp) and u.is_zero(tcmp):
        v = logic.simplify_xor_inst(cond, u.all_ones(cond.type), q, max_recurse)
        if v is not None:
            return v
    return None


def thread_cmp_over_select(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """A compare of a select: both arms compare to one answer (LLVM ``threadCmpOverSelect``)."""
    if not max_recurse:
        return None
    max_recurse -= 1
    if not isinstance(lhs, SelectInst):
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    assert isinstance(lhs, SelectInst)
    cond = lhs.condition
    tcmp = _cmp_sel_case(pred, lhs.true_value, rhs, cond, q, max_recurse, u.get_true(cond.type))
    if tcmp is None:
        return None
    fcmp = _cmp_sel_case(pred, lhs.false_value, rhs, cond, q, max_recurse, u.get_false(cond.type))
    if fcmp is None:
        return None
    if tcmp is fcmp:
        return tcmp
    if cond.type.is_vector == rhs.type.is_vector:
        return _other_cmp_sel(tcmp, fcmp, cond, q, max_recurse)
    return None


def thread_cmp_over_phi(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """A compare of a phi: every incoming value compares to one answer (LLVM ``threadCmpOverPHI``)."""
    if not max_recurse:
        return None
    max_recurse -= 1
    if not isinstance(lhs, PHINode):
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    assert isinstance(lhs, PHINode)
    from llvmpy_mid.analysis.instsimplify.binops import _value_dominates_phi

    if not _value_dominates_phi(rhs, lhs, q):
        return None
    common: Value | None = None
    for incoming, block in lhs.incoming:
        if incoming is lhs:
            continue
        v = simplify_cmp_inst(pred, incoming, rhs, q.get_with_instruction(block.terminator), max_recurse)
        if v is None or (common is not None and v is not common):
            return None
        common = v
    return common


# --- icmp sub-folds -----------------------------------------------------------------------------------


def _icmp_of_bools(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> Value | None:
    ity = u.compare_type(lhs.type)
    if not u.is_bool_ty(lhs.type):
        return None
    if u.is_zero(rhs):
        if pred in (P.ICMP_NE, P.ICMP_UGT, P.ICMP_SLT):
            return lhs
        if pred in (P.ICMP_EQ, P.ICMP_ULE, P.ICMP_SGE):
            x = u.not_of(lhs)
            if x is not None:
                return x
        elif pred in (P.ICMP_ULT, P.ICMP_SGT):
            return u.get_false(ity)
        elif pred in (P.ICMP_UGE, P.ICMP_SLE):
            return u.get_true(ity)
    elif u.is_one(rhs):
        if pred in (P.ICMP_EQ, P.ICMP_UGE, P.ICMP_SLE):
            return lhs
        if pred in (P.ICMP_NE, P.ICMP_ULT, P.ICMP_SGT):
            x = u.not_of(lhs)
            if x is not None:
                return x
        elif pred in (P.ICMP_UGT, P.ICMP_SLT):
            return u.get_false(ity)
        elif pred in (P.ICMP_ULE, P.ICMP_SGE):
            return u.get_true(ity)
    implied = _implied
    if pred == P.ICMP_UGE and implied(rhs, lhs, q):
        return u.get_true(ity)
    if pred == P.ICMP_SGE and implied(lhs, rhs, q):
        return u.get_true(ity)
    if pred == P.ICMP_ULE and implied(lhs, rhs, q):
        return u.get_true(ity)
    if pred == P.ICMP_SLE and implied(rhs, lhs, q):
        return u.get_true(ity)
    return None


def _implied(a: Value, b: Value, q: SimplifyQuery) -> bool:
    """``a`` implies ``b`` (LLVM ``isImpliedCondition(..).value_or(false)``)."""
    from llvmpy_mid.analysis.implied_condition import is_implied_condition

    return is_implied_condition(a, b, q.dl) is True


def _icmp_with_zero(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> Value | None:
    if not u.is_zero(rhs):
        return None
    ity = u.compare_type(lhs.type)
    if pred == P.ICMP_ULT:
        return u.get_false(ity)
    if pred == P.ICMP_UGE:
        return u.get_true(ity)
    if pred in (P.ICMP_EQ, P.ICMP_ULE):
        if u.known_non_zero(lhs, q):
            return u.get_false(ity)
        return None
    if pred in (P.ICMP_NE, P.ICMP_UGT):
        if u.known_non_zero(lhs, q):
            return u.get_true(ity)
        return None
    kb = u.known_bits(lhs, q)
    neg = kb.is_negative()
    nonneg = kb.is_non_negative()
    if pred == P.ICMP_SLT:
        if neg:
            return u.get_true(ity)
        if nonneg:
            return u.get_false(ity)
    elif pred == P.ICMP_SLE:
        if neg:
            return u.get_true(ity)
        if nonneg and u.known_non_zero(lhs, q):
            return u.get_false(ity)
    elif pred == P.ICMP_SGE:
        if neg:
            return u.get_false(ity)
        if nonneg:
            return u.get_true(ity)
    elif pred == P.ICMP_SGT:
        if neg:
            return u.get_false(ity)
        if nonneg and u.known_non_zero(lhs, q):
            return u.get_true(ity)
    return None


def _icmp_with_constant(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> Value | None:
    """The compare against a constant decided by the ranges (LLVM ``simplifyICmpWithConstant``)."""
    c = u.apint_allow_poison(rhs)
    if c is None:
        return None
    ity = u.compare_type(rhs.type)
    w = c.type.width
    # bitcast (uitofp X) compared for its sign bit: never negative
    bc = u.cast_of(lhs, "bitcast")
    if bc is not None and u.cast_of(bc, "uitofp") is not None and _elementwise_bitcast(lhs):
        sign = _sign_bit_check(pred, c.value, w)
        if sign is not None:
            return u.get_bool(ity, not sign)
    try:
        from llvmpy_mid.analysis.constant_range import ConstantRange  # type: ignore[import-not-found, unused-ignore]
        from llvmpy_mid.analysis.value_tracking import compute_constant_range  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return None
    rhs_cr = ConstantRange.make_exact_icmp_region(pred, c.value, w)
    if rhs_cr.is_empty_set():
        return u.get_false(ity)
    if rhs_cr.is_full_set():
        return u.get_true(ity)
    lhs_cr = compute_constant_range(lhs, pred.is_signed, q.use_instr_info)
    if not lhs_cr.is_full_set():
        if rhs_cr.contains_range(lhs_cr):
            return u.get_true(ity)
        if rhs_cr.inverse().contains_range(lhs_cr):
            return u.get_false(ity)
    if q.use_instr_info and pred.is_equality:
        mul = u.binop(lhs, "mul")
        if mul is not None:
            mc = u.apint_allow_poison(mul[1])
            if mc is not None and mc.value != 0:
                if u.has_nuw(lhs) and c.value % mc.value != 0:
                    return u.get_bool(ity, pred == P.ICMP_NE)
                if u.has_nsw(lhs):
                    a = c.sext_value
                    b = mc.sext_value
                    if abs(a) % abs(b) != 0:
                        return u.get_bool(ity, pred == P.ICMP_NE)
    return None


def _elementwise_bitcast(v: Value) -> bool:
    """A bitcast that keeps the lane count (LLVM ``m_ElementWiseBitCast``)."""
    src = u.cast_of(v, "bitcast")
    if src is None:
        return False
    a = src.type
    b = v.type
    return a.is_vector == b.is_vector and (not a.is_vector or getattr(a, "count", 0) == getattr(b, "count", 0))


def _sign_bit_check(pred: Predicate, c: int, w: int) -> bool | None:
    """LLVM ``isSignBitCheck``: True if the compare is true iff the sign bit is
    set, False iff clear, None when it is no sign test."""
    sign = 1 << (w - 1)
    mask = (1 << w) - 1
    if pred == P.ICMP_SLT:
        return True if c == 0 else None
    if pred == P.ICMP_SLE:
        return True if c == mask else None
    if pred == P.ICMP_SGT:
        return False if c == mask else None
    if pred == P.ICMP_SGE:
        return False if c == 0 else None
    if pred == P.ICMP_UGT:
        return True if c == sign - 1 else None
    if pred == P.ICMP_UGE:
        return True if c == sign else None
    if pred == P.ICMP_ULT:
        return False if c == sign else None
    if pred == P.ICMP_ULE:
        return False if c == sign - 1 else None
    return None


def _icmp_with_binop_on_lhs(pred: Predicate, lbo: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    ity = u.compare_type(rhs.type)
    y = u.c_binop_with(lbo, "or", rhs)
    if y is not None:
        if pred == P.ICMP_ULT:
            return u.get_false(ity)
        if pred == P.ICMP_UGE:
            return u.get_true(ity)
        if pred in (P.ICMP_SLT, P.ICMP_SGE):
            rk = u.known_bits(rhs, q)
            yk = u.known_bits(y, q)
            if rk.is_non_negative() and yk.is_negative():
                return u.get_bool(ity, pred == P.ICMP_SLT)
            if rk.is_negative() or yk.is_non_negative():
                return u.get_bool(ity, pred != P.ICMP_SLT)
    if u.c_binop_with(lbo, "and", rhs) is not None:
        if pred == P.ICMP_UGT:
            return u.get_false(ity)
        if pred == P.ICMP_ULE:
            return u.get_true(ity)
    ur = u.binop(lbo, "urem")
    if ur is not None and ur[1] is rhs:
        if pred in (P.ICMP_SGT, P.ICMP_SGE, P.ICMP_SLT, P.ICMP_SLE):
            if u.known_bits(rhs, q).is_non_negative():
                return u.get_bool(ity, pred in (P.ICMP_SLT, P.ICMP_SLE))
        elif pred in (P.ICMP_EQ, P.ICMP_UGT, P.ICMP_UGE):
            return u.get_false(ity)
        elif pred in (P.ICMP_NE, P.ICMP_ULT, P.ICMP_ULE):
            return u.get_true(ity)
    if ur is not None and ur[0] is rhs:
        if pred == P.ICMP_ULE:
            return u.get_true(ity)
        if pred == P.ICMP_UGT:
            return u.get_false(ity)
    sh = u.binop(lbo, "lshr")
    dv = u.binop(lbo, "udiv")
    if (sh is not None and sh[0] is rhs) or (dv is not None and dv[0] is rhs):
        if pred == P.ICMP_UGT:
            return u.get_false(ity)
        if pred == P.ICMP_ULE:
            return u.get_true(ity)
    ok = False
    if sh is not None and sh[0] is rhs:
        c = u.apint(sh[1])
        ok = c is not None and c.value != 0
    if not ok and dv is not None and dv[0] is rhs:
        c = u.apint(dv[1])
        ok = c is not None and c.value != 1
    if ok and u.known_non_zero(rhs, q):
        if pred in (P.ICMP_EQ, P.ICMP_UGE):
            return u.get_false(ity)
        if pred in (P.ICMP_NE, P.ICMP_ULT):
            return u.get_true(ity)
    outer = dv if dv is not None else sh
    if outer is not None:
        c2 = u.apint(outer[1])
        inner_mul = u.binop(outer[0], "mul")
        inner_shl = u.binop(outer[0], "shl")
        hit = False
        if c2 is not None:
            w = c2.type.width
            if inner_mul is not None and inner_mul[0] is rhs:
                c1 = u.apint(inner_mul[1])
                if c1 is not None:
                    if dv is not None:
                        hit = c1.value <= c2.value
                    else:
                        hit = c2.value < w and c1.value <= (1 << c2.value) & ((1 << w) - 1)
            if dv is not None and inner_shl is not None and inner_shl[0] is rhs:
                c1 = u.apint(inner_shl[1])
                if c1 is not None and c1.value < w:
                    hit = hit or ((1 << c1.value) & ((1 << w) - 1)) <= c2.value
        if hit:
            if pred == P.ICMP_UGT:
                return u.get_false(ity)
            if pred == P.ICMP_ULE:
                return u.get_true(ity)
    sb = u.binop(lbo, "sub")
    if sb is not None and sb[1] is rhs and pred.is_equality:
        c = u.apint_allow_poison(sb[0])
        if c is not None and c.value & 1:
            return u.get_bool(ity, pred == P.ICMP_NE)
    return None


def _try_icmp_with_adds(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> bool:
    if pred != P.ICMP_SLT or not q.use_instr_info:
        return False
    if not (u.binop(rhs, "add") is not None and u.has_nsw(rhs)):
        lhs, rhs = rhs, lhs
    if not (u.binop(rhs, "add") is not None and u.has_nsw(rhs)):
        return False
    la = u.binop(lhs, "add")
    ra = u.binop(rhs, "add")
    if la is None or ra is None or la[0] is not ra[0]:
        return False
    c1 = u.apint(la[1])
    c2 = u.apint(ra[1])
    if c1 is None or c2 is None:
        return False
    a = c1.sext_value
    b = c2.sext_value
    return (a < b and a >= 0) or (b < a and a <= 0)


def _icmp_with_binop(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    lbo = lhs if isinstance(lhs, BinaryOperator) else None
    rbo = rhs if isinstance(rhs, BinaryOperator) else None
    if max_recurse and (lbo is not None or rbo is not None):
        a = b = c = d = None
        no_lhs_wrap = no_rhs_wrap = False
        if lbo is not None and lbo.opcode == "add":
            a, b = lbo.lhs, lbo.rhs
            no_lhs_wrap = (
                pred.is_equality
                or (pred.is_unsigned and q.has_no_unsigned_wrap(lbo))
                or (pred.is_signed and q.has_no_signed_wrap(lbo))
            )
        if rbo is not None and rbo.opcode == "add":
            c, d = rbo.lhs, rbo.rhs
            no_rhs_wrap = (
                pred.is_equality
                or (pred.is_unsigned and q.has_no_unsigned_wrap(rbo))
                or (pred.is_signed and q.has_no_signed_wrap(rbo))
            )
        if (a is rhs or b is rhs) and no_lhs_wrap and a is not None and b is not None:
            v = simplify_icmp_inst(pred, b if a is rhs else a, u.null(rhs.type), q, max_recurse - 1)
            if v is not None:
                return v
        if (c is lhs or d is lhs) and no_rhs_wrap and c is not None and d is not None:
            v = simplify_icmp_inst(pred, u.null(lhs.type), d if c is lhs else c, q, max_recurse - 1)
            if v is not None:
                return v
        can = (no_lhs_wrap and no_rhs_wrap) or _try_icmp_with_adds(pred, lhs, rhs, q)
        if a is not None and c is not None and b is not None and d is not None and can:
            pair: tuple[Value, Value] | None = None
            if a is c:
                pair = (b, d)
            elif a is d:
                pair = (b, c)
            elif b is c:
                pair = (a, d)
            elif b is d:
                pair = (a, c)
            if pair is not None:
                v = simplify_icmp_inst(pred, pair[0], pair[1], q, max_recurse - 1)
                if v is not None:
                    return v
    if lbo is not None:
        v = _icmp_with_binop_on_lhs(pred, lbo, rhs, q, max_recurse)
        if v is not None:
            return v
    if rbo is not None:
        v = _icmp_with_binop_on_lhs(pred.swapped, rbo, lhs, q, max_recurse)
        if v is not None:
            return v
    ity = u.compare_type(rhs.type)
    if not pred.is_unsigned:
        n = u.neg_of(lhs)
        if n is not None and u.cast_of(n, "zext") is not None:
            c0 = u.apint(rhs)
            if c0 is not None:
                sv = c0.sext_value
                if sv > 0:
                    if pred in (P.ICMP_SLT, P.ICMP_NE):
                        return u.get_true(ity)
                    if pred in (P.ICMP_SGE, P.ICMP_EQ):
                        return u.get_false(ity)
                if sv >= 0:
                    if pred == P.ICMP_SLE:
                        return u.get_true(ity)
                    if pred == P.ICMP_SGT:
                        return u.get_false(ity)
    shl = u.binop(lhs, "shl")
    if shl is not None and u.is_power2_c(shl[0]):
        c0 = u.apint_allow_poison(rhs)
        if c0 is not None and not (c0.value != 0 and c0.value & (c0.value - 1) == 0):
            if q.has_no_signed_wrap(lhs) or q.has_no_unsigned_wrap(lhs) or u.is_one(shl[0]) or c0.value != 0:
                if pred == P.ICMP_EQ:
                    return u.get_false(ity)
                if pred == P.ICMP_NE:
                    return u.get_true(ity)
        if u.is_sign_mask(rhs):
            if pred == P.ICMP_UGT:
                return u.get_false(ity)
            if pred == P.ICMP_ULE:
                return u.get_true(ity)
    if not max_recurse or lbo is None or rbo is None or lbo.opcode != rbo.opcode:
        return None
    op = lbo.opcode
    if lbo.lhs is rbo.lhs:
        if op == "shl":
            nuw = q.has_no_unsigned_wrap(lbo) and q.has_no_unsigned_wrap(rbo)
            nsw = q.has_no_signed_wrap(lbo) and q.has_no_signed_wrap(rbo)
            if nuw and not (pred.is_signed and not nsw) and u.known_non_zero(lbo.lhs, q):
                v = simplify_icmp_inst(pred, lbo.rhs, rbo.rhs, q, max_recurse - 1)
                if v is not None:
                    return v
        elif op in ("and", "or") and pred.is_relational:
            c1 = u.apint(lbo.rhs)
            c2 = u.apint(rbo.rhs)
            if c1 is not None and c2 is not None:
                p2 = pred
                if c1.value & ~c2.value:
                    c1, c2 = c2, c1
                    p2 = p2.swapped
                if not (c1.value & ~c2.value):
                    lty = u.compare_type(lhs.type)
                    if p2 == P.ICMP_ULE:
                        return u.get_true(lty)
                    if p2 == P.ICMP_UGT:
                        return u.get_false(lty)
                    if c1.is_negative == c2.is_negative:
                        if p2 == P.ICMP_SLE:
                            return u.get_true(lty)
                        if p2 == P.ICMP_SGT:
                            return u.get_false(lty)
    if lbo.rhs is rbo.rhs:
        go = False
        if op in ("udiv", "lshr"):
            go = not pred.is_signed and q.is_exact(lbo) and q.is_exact(rbo)
        elif op == "sdiv":
            go = pred.is_equality and q.is_exact(lbo) and q.is_exact(rbo)
        elif op == "ashr":
            go = q.is_exact(lbo) and q.is_exact(rbo)
        elif op == "shl":
            nuw = q.has_no_unsigned_wrap(lbo) and q.has_no_unsigned_wrap(rbo)
            nsw = q.has_no_signed_wrap(lbo) and q.has_no_signed_wrap(rbo)
            go = (nuw or nsw) and not (not nsw and pred.is_signed)
        if go:
            v = simplify_icmp_inst(pred, lbo.lhs, rbo.lhs, q, max_recurse - 1)
            if v is not None:
                return v
    return None


def _extract_equivalent_condition(v: Value, pred: Predicate, lhs: Value, rhs: Value) -> Value | None:
    if not isinstance(v, SelectInst):
        return None
    c = v.condition
    if not isinstance(c, CmpInst):
        return None
    if pred == c.predicate and lhs is c.lhs and rhs is c.rhs:
        return c
    if pred == c.predicate.swapped and lhs is c.rhs and rhs is c.lhs:
        return c
    return None


_MINMAX_SELECT_PREDS = {
    "llvm.smax": (P.ICMP_SGT, P.ICMP_SGE),
    "llvm.smin": (P.ICMP_SLT, P.ICMP_SLE),
    "llvm.umax": (P.ICMP_UGT, P.ICMP_UGE),
    "llvm.umin": (P.ICMP_ULT, P.ICMP_ULE),
}


def _minmax(v: Value, name: str) -> tuple[Value, Value] | None:
    """The operands of a min/max ``name``: the intrinsic, or ``select (icmp)``
    of the compared values (LLVM ``m_SMax`` ... ``MaxMin_match``)."""
    args = u.intrinsic_args(v, name)
    if args is not None:
        return args[0], args[1]
    if isinstance(v, SelectInst):
        c = v.condition
        if isinstance(c, ICmpInst):
            a = c.lhs
            b = c.rhs
            tv = v.true_value
            fv = v.false_value
            if (tv is a and fv is b) or (tv is b and fv is a):
                pred = c.predicate if tv is a else c.predicate.inverse
                if pred in _MINMAX_SELECT_PREDS[name]:
                    return a, b
    return None


def _icmp_with_min_max(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    ity = u.compare_type(lhs.type)
    for maxn, minn, ge, le in (
        ("llvm.smax", "llvm.smin", P.ICMP_SGE, P.ICMP_SLE),
        ("llvm.umax", "llvm.umin", P.ICMP_UGE, P.ICMP_ULE),
    ):
        p: Predicate | None = None
        a = b = None
        eqp = ge
        mm = _minmax(lhs, maxn)
        if mm is not None and (mm[0] is rhs or mm[1] is rhs):
            a, b = (mm if mm[0] is rhs else (mm[1], mm[0]))
            eqp = ge
            p = pred
        else:
            mm = _minmax(rhs, maxn)
            if mm is not None and (mm[0] is lhs or mm[1] is lhs):
                a, b = (mm if mm[0] is lhs else (mm[1], mm[0]))
                eqp = ge
                p = pred.swapped
            else:
                mm = _minmax(lhs, minn)
                if mm is not None and (mm[0] is rhs or mm[1] is rhs):
                    a, b = (mm if mm[0] is rhs else (mm[1], mm[0]))
                    eqp = le
                    p = pred.swapped
                else:
                    mm = _minmax(rhs, minn)
                    if mm is not None and (mm[0] is lhs or mm[1] is lhs):
                        a, b = (mm if mm[0] is lhs else (mm[1], mm[0]))
                        eqp = le
                        p = pred
        if p is not None and a is not None and b is not None:
            signed = ge == P.ICMP_SGE
            le_p = P.ICMP_SLE if signed else P.ICMP_ULE
            gt_p = P.ICMP_SGT if signed else P.ICMP_UGT
            ge_p = P.ICMP_SGE if signed else P.ICMP_UGE
            lt_p = P.ICMP_SLT if signed else P.ICMP_ULT
            if p in (P.ICMP_EQ, le_p):
                for src in (lhs, rhs):
                    v = _extract_equivalent_condition(src, eqp, a, b)
                    if v is not None:
                        return v
                if max_recurse:
                    v = simplify_icmp_inst(eqp, a, b, q, max_recurse - 1)
                    if v is not None:
                        return v
            elif p in (P.ICMP_NE, gt_p):
                inv = eqp.inverse
                for src in (lhs, rhs):
                    v = _extract_equivalent_condition(src, inv, a, b)
                    if v is not None:
                        return v
                if max_recurse:
                    v = simplify_icmp_inst(inv, a, b, q, max_recurse - 1)
                    if v is not None:
                        return v
            elif p == ge_p:
                return u.get_true(ity)
            elif p == lt_p:
                return u.get_false(ity)
    if _minmax(lhs, "llvm.umin") is not None or _minmax(lhs, "llvm.smin") is not None:
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    for maxn, minn, gep, ltp in (
        ("llvm.smax", "llvm.smin", P.ICMP_SGE, P.ICMP_SLT),
        ("llvm.umax", "llvm.umin", P.ICMP_UGE, P.ICMP_ULT),
    ):
        l2 = _minmax(lhs, maxn)
        r2 = _minmax(rhs, minn)
        if l2 is not None and r2 is not None:
            if l2[0] is r2[0] or l2[0] is r2[1] or l2[1] is r2[0] or l2[1] is r2[1]:
                if pred == gep:
                    return u.get_true(ity)
                if pred == ltp:
                    return u.get_false(ity)
            break
    return None


def _icmp_with_intrinsic_on_lhs(pred: Predicate, lhs: Value, rhs: Value) -> Value | None:
    name = u.intrinsic_name(lhs)
    if not name:
        return None
    args = u.intrinsic_args(lhs, name)
    assert args is not None
    ity = u.compare_type(lhs.type)
    if name == "llvm.uadd.sat" and (args[0] is rhs or args[1] is rhs):
        if pred == P.ICMP_UGE:
            return u.get_true(ity)
        if pred == P.ICMP_ULT:
            return u.get_false(ity)
    if name == "llvm.usub.sat" and args[0] is rhs:
        if pred == P.ICMP_ULE:
            return u.get_true(ity)
        if pred == P.ICMP_UGT:
            return u.get_false(ity)
    return None


def _icmp_of_casts(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """Compares of ``ptrtoint``, ``zext`` and ``sext`` against a cast or a constant."""
    assert isinstance(lhs, CastInst)
    src = lhs.operand
    src_ty = src.type
    dst_ty = lhs.type
    ity = u.compare_type(lhs.type)
    if max_recurse and lhs.opcode == "ptrtoint" and q.dl.type_size_in_bits(src_ty) == q.dl.type_size_in_bits(dst_ty):
        if isinstance(rhs, Constant):
            rc = u.fold_cast("inttoptr", rhs, src_ty, q)
            if rc is not None:
                v = simplify_icmp_inst(pred, src, rc, q, max_recurse - 1)
                if v is not None:
                    return v
        elif isinstance(rhs, CastInst) and rhs.opcode == "ptrtoint":
            if rhs.operand.type is src_ty:
                v = simplify_icmp_inst(pred, src, rhs.operand, q, max_recurse - 1)
                if v is not None:
                    return v
    if lhs.opcode == "zext":
        if isinstance(rhs, CastInst) and rhs.opcode == "zext":
            if max_recurse and src_ty is rhs.operand.type:
                v = simplify_icmp_inst(pred.unsigned, src, rhs.operand, q, max_recurse - 1)
                if v is not None:
                    return v
        elif isinstance(rhs, CastInst) and rhs.opcode == "sext":
            if src is rhs.operand:
                if pred in (P.ICMP_ULE, P.ICMP_SGE):
                    return u.get_true(ity)
                if pred in (P.ICMP_UGT, P.ICMP_SLT):
                    return u.get_false(ity)
        elif _is_imm_constant(rhs):
            assert isinstance(rhs, Constant)
            tr = u.fold_cast("trunc", rhs, src_ty, q)
            rext = u.fold_cast("zext", tr, dst_ty, q) if tr is not None else None
            any_eq = u.fold_compare(P.ICMP_EQ, rext, rhs, q) if rext is not None else None
            if any_eq is not None and tr is not None:
                if any_eq.is_all_ones_value and max_recurse:
                    v = simplify_icmp_inst(pred.unsigned, src, tr, q, max_recurse - 1)
                    if v is not None:
                        return v
                if any_eq.is_null_value:
                    if pred in (P.ICMP_EQ, P.ICMP_UGT, P.ICMP_UGE):
                        return u.null(ity)
                    if pred in (P.ICMP_NE, P.ICMP_ULT, P.ICMP_ULE):
                        return u.all_ones(ity)
                    if pred in (P.ICMP_SGT, P.ICMP_SGE):
                        return u.fold_compare(P.ICMP_SLT, rhs, u.null(rhs.type), q)
                    if pred in (P.ICMP_SLT, P.ICMP_SLE):
                        return u.fold_compare(P.ICMP_SGE, rhs, u.null(rhs.type), q)
    if lhs.opcode == "sext":
        if isinstance(rhs, CastInst) and rhs.opcode == "sext":
            if max_recurse and src_ty is rhs.operand.type:
                v = simplify_icmp_inst(pred, src, rhs.operand, q, max_recurse - 1)
                if v is not None:
                    return v
        elif isinstance(rhs, CastInst) and rhs.opcode == "zext":
            if src is rhs.operand:
                if pred in (P.ICMP_UGE, P.ICMP_SLE):
                    return u.get_true(ity)
                if pred in (P.ICMP_ULT, P.ICMP_SGT):
                    return u.get_false(ity)
        elif _is_imm_constant(rhs):
            assert isinstance(rhs, Constant)
            tr = u.fold_cast("trunc", rhs, src_ty, q)
            rext = u.fold_cast("sext", tr, dst_ty, q) if tr is not None else None
            any_eq = u.fold_compare(P.ICMP_EQ, rext, rhs, q) if rext is not None else None
            if any_eq is not None and tr is not None:
                if any_eq.is_all_ones_value and max_recurse:
                    v = simplify_icmp_inst(pred, src, tr, q, max_recurse - 1)
                    if v is not None:
                        return v
                if any_eq.is_null_value:
                    if pred == P.ICMP_EQ:
                        return u.null(ity)
                    if pred == P.ICMP_NE:
                        return u.all_ones(ity)
                    if pred in (P.ICMP_SGT, P.ICMP_SGE):
                        return u.fold_compare(P.ICMP_SLT, rhs, u.null(rhs.type), q)
                    if pred in (P.ICMP_SLT, P.ICMP_SLE):
                        return u.fold_compare(P.ICMP_SGE, rhs, u.null(rhs.type), q)
                    if pred in (P.ICMP_UGT, P.ICMP_UGE) and max_recurse:
                        v = simplify_icmp_inst(P.ICMP_SLT, src, u.null(src_ty), q, max_recurse - 1)
                        if v is not None:
                            return v
                    if pred in (P.ICMP_ULT, P.ICMP_ULE) and max_recurse:
                        v = simplify_icmp_inst(P.ICMP_SGE, src, u.null(src_ty), q, max_recurse - 1)
                        if v is not None:
                            return v
    return None


def _is_imm_constant(v: Value) -> bool:
    """A constant that is not, and holds no, constant expression (LLVM ``m_ImmConstant``)."""
    if not isinstance(v, Constant) or isinstance(v, ConstantExpr):
        return False
    if v.type.is_vector:
        for op in v.operands:
            if isinstance(op, ConstantExpr):
                return False
    return True


def simplify_icmp_inst(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``icmp pred lhs, rhs`` (LLVM ``simplifyICmpInst``)."""
    if isinstance(lhs, Constant):
        if isinstance(rhs, Constant):
            return u.fold_compare(pred, lhs, rhs, q)
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    ity = u.compare_type(lhs.type)
    if isinstance(rhs, PoisonValue):
        return u.poison(ity)
    if u.is_undef(q, rhs) and pred.is_equality:
        return UndefValue.get(ity)
    if lhs is rhs or u.is_undef(q, rhs):
        return u.get_bool(ity, pred.is_true_when_equal)
    v = _icmp_of_bools(pred, lhs, rhs, q)
    if v is not None:
        return v
    v = _icmp_with_zero(pred, lhs, rhs, q)
    if v is not None:
        return v
    v = _icmp_with_constant(pred, lhs, rhs, q)
    if v is not None:
        return v
    v = _icmp_with_ranges(pred, lhs, rhs, q)
    if v is not None:
        return v
    if isinstance(lhs, CastInst) and (isinstance(rhs, Constant) or isinstance(rhs, CastInst)):
        v = _icmp_of_casts(pred, lhs, rhs, q, max_recurse)
        if v is not None:
            return v
    if pred.is_equality and not u.is_zero(rhs):
        is_known_non_equal = u.value_tracking("is_known_non_equal")
        if is_known_non_equal is not None and is_known_non_equal(lhs, rhs, q):
            return u.get_bool(ity, pred == P.ICMP_NE)
    v = _icmp_with_binop(pred, lhs, rhs, q, max_recurse)
    if v is not None:
        return v
    v = _icmp_with_min_max(pred, lhs, rhs, q, max_recurse)
    if v is not None:
        return v
    v = _icmp_with_intrinsic_on_lhs(pred, lhs, rhs)
    if v is not None:
        return v
    v = _icmp_with_intrinsic_on_lhs(pred.swapped, rhs, lhs)
    if v is not None:
        return v
    v = _icmp_with_dominating_assume(pred, lhs, rhs, q)
    if v is not None:
        return v
    from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition_pred

    dom = is_implied_by_dom_condition_pred(pred, lhs, rhs, q.cxt_i, q.dl)
    if dom is not None:
        return u.get_bool(ity, dom)
    if lhs.type.is_pointer:
        import llvmpy_mid.analysis.instsimplify.memory as memory

        c = memory.compute_pointer_icmp(pred, lhs, rhs, q)
        if c is not None:
            return c
    pl = u.cast_of(lhs, "ptrtoint")
    pr = u.cast_of(rhs, "ptrtoint")
    if pl is not None and pr is not None and pl.type is pr.type:
        if q.dl.type_size_in_bits(pl.type) == q.dl.type_size_in_bits(lhs.type):
            import llvmpy_mid.analysis.instsimplify.memory as memory

            c = memory.compute_pointer_icmp(pred, pl, pr, q)
            if c is not None:
                return c
    return thread_cmp_over_select_or_phi(pred, lhs, rhs, q, max_recurse)


def thread_cmp_over_select_or_phi(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """The last resort of an integer or floating compare: thread it over a
    select operand, then over a phi operand."""
    if isinstance(lhs, SelectInst) or isinstance(rhs, SelectInst):
        v = thread_cmp_over_select(pred, lhs, rhs, q, max_recurse)
        if v is not None:
            return v
    if isinstance(lhs, PHINode) or isinstance(rhs, PHINode):
        return thread_cmp_over_phi(pred, lhs, rhs, q, max_recurse)
    return None


def _get_range(v: Value, q: SimplifyQuery) -> ConstantRange | None:
    """The range ``!range`` metadata or a ``range`` attribute gives ``v`` (LLVM ``getRange``)."""
    if isinstance(v, Instruction):
        md = q.get_metadata(v, "range")
        if md is not None:
            return ConstantRange.from_metadata(md)
    attr = None
    if isinstance(v, Argument):
        attr = v.parent.attributes.get_param_attr(v.arg_no, "range")
    elif isinstance(v, CallBase):
        attr = v.attributes.get_ret_attr("range")
        if attr is None:
            fn = v.called_function
            if fn is not None:
                attr = fn.attributes.get_ret_attr("range")
    if attr is None:
        return None
    return ConstantRange(attr.range_type.width, attr.range_lower, attr.range_upper)


def _icmp_with_ranges(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> Value | None:
    """``!range`` metadata or range attributes on both sides decide the compare."""
    rcr = _get_range(rhs, q)
    if rcr is None:
        return None
    lcr = _get_range(lhs, q)
    if lcr is None:
        return None
    ity = u.compare_type(lhs.type)
    if lcr.icmp(pred, rcr):
        return u.get_true(ity)
    if lcr.icmp(pred.inverse, rcr):
        return u.get_false(ity)
    return None


def _icmp_with_dominating_assume(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery) -> Value | None:
    if q.ac is None or q.cxt_i is None:
        return None
    from llvmpy_mid.analysis.implied_condition import is_implied_condition_pred
    from llvmpy_mid.analysis.value_tracking import is_valid_assume_for_context

    for base in (lhs, rhs):
        for assume, _index in q.ac.assumptions_for(base):
            imp = is_implied_condition_pred(assume.get_arg(0), pred, lhs, rhs, q.dl)
            if imp is not None and is_valid_assume_for_context(assume, q.cxt_i, q.dt):
                return u.get_bool(u.compare_type(lhs.type), imp)
    return None


# --- dispatch -------------------------------------------------------------------------------------


def simplify_cmp_inst(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, fmf: int = 0) -> Value | None:
    """``icmp`` or ``fcmp`` by the predicate (LLVM ``simplifyCmpInst``)."""
    if pred.is_int_predicate:
        return simplify_icmp_inst(pred, lhs, rhs, q, max_recurse)
    import llvmpy_mid.analysis.instsimplify.fp as fp

    return fp.simplify_fcmp_inst(pred, lhs, rhs, fmf, q, max_recurse)


__all__ = [
    "simplify_icmp_inst",
    "simplify_cmp_inst",
    "thread_cmp_over_select",
    "thread_cmp_over_phi",
    "thread_cmp_over_select_or_phi",
]
