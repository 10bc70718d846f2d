"""Does one condition imply another? (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``:
``isImpliedCondition``, ``isImpliedByDomCondition``, with
``CmpInst::isImpliedTrueByMatchingCmp`` from ``llvm/lib/IR/Instructions.cpp``.)

What: :func:`is_implied_condition` answers True (``lhs`` true — or false,
with ``lhs_is_true=False`` — forces ``rhs`` true), False (forces it false) or
None (unknown) for boolean values built from integer compares, ``not``, and
plain or logical (``select``) and/or; :func:`is_implied_condition_pred` asks the
same of a compare given by predicate and operands;
:func:`is_implied_by_dom_condition` uses the branch of the single predecessor
of the context instruction's block.

How: LLVM's case analysis — same operands (matching predicates), a common
operand compared with constants (constant ranges), ``(A + B) <u A`` forms, and
operand orderings proven by simple facts (``X <=s X +nsw C``, ``X <=u X | Y``,
min/max, ``lshr``/``udiv``); and/or of conditions recurse up to
``MAX_ANALYSIS_RECURSION_DEPTH`` (6) levels.
"""

from __future__ import annotations

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.ir.constants import Constant, ConstantInt, get_splat_value
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.value import Value

MAX_ANALYSIS_RECURSION_DEPTH = 6
P = Predicate


def _minmax(v: Value) -> tuple[str, Value, Value] | None:
    name = u.intrinsic_name(v)
    if name in ("llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin"):
        assert isinstance(v, CallInst)
        return name, v.get_arg(0), v.get_arg(1)
    return None


def _add_like(v: Value, wrap: str) -> tuple[Value, ConstantInt] | None:
    """``X +nsw C`` / ``X +nuw C`` or ``X | C`` disjoint (LLVM ``m_NSWAddLike``/``m_NUWAddLike``)."""
    ops = u.binop(v, "add")
    if ops is not None and (u.has_nsw(v) if wrap == "nsw" else u.has_nuw(v)):
        c = u.apint(ops[1])
        if c is not None:
            return ops[0], c
    ops = u.binop(v, "or")
    if ops is not None and bool(getattr(v, "disjoint", False)):
        c = u.apint(ops[1])
        if c is not None:
            return ops[0], c
    return None


def _is_true_predicate(pred: Predicate, lhs: Value, rhs: Value) -> bool:
    """``lhs pred rhs`` holds for every value (LLVM ``isTruePredicate``; SLE/ULE)."""
    if pred.is_true_when_equal and lhs is rhs:
        return True
    if pred == P.ICMP_SLE:
        for opcode in ("add", "or"):
            ops = u.binop(rhs, opcode)
            if ops is not None and ops[0] is lhs and (opcode == "or" or u.has_nsw(rhs)):
                c = u.apint(ops[1])
                if c is not None:
                    return not c.is_negative
        mm = _minmax(rhs)
        if mm is not None and mm[0] == "llvm.smax" and (mm[1] is lhs or mm[2] is lhs):
            return True
        mm = _minmax(lhs)
        if mm is not None and mm[0] == "llvm.smin" and (mm[1] is rhs or mm[2] is rhs):
            return True
        a = _add_like(lhs, "nsw")
        b = _add_like(rhs, "nsw")
        if a is not None and b is not None and a[0] is b[0]:
            return a[1].sext_value <= b[1].sext_value
        return False
    if pred == P.ICMP_ULE:
        ops = u.binop(rhs, "add")
        if ops is not None and (ops[0] is lhs or ops[1] is lhs) and u.has_nuw(rhs):
            return True
        ops = u.binop(rhs, "or")
        if ops is not None and (ops[0] is lhs or ops[1] is lhs):
            return True
        mm = _minmax(rhs)
        if mm is not None and mm[0] == "llvm.umax" and (mm[1] is lhs or mm[2] is lhs):
            return True
        ops = u.binop(lhs, "lshr")
        if ops is not None and ops[0] is rhs:
            return True
        ops = u.binop(lhs, "udiv")
        if ops is not None and ops[0] is rhs:
            c = u.apint(ops[1])
            if c is not None and c.value > 1:
                return True
        ops = u.binop(lhs, "and")
        if ops is not None and (ops[0] is rhs or ops[1] is rhs):
            return True
        mm = _minmax(lhs)
        if mm is not None and mm[0] == "llvm.umin" and (mm[1] is rhs or mm[2] is rhs):
            return True
        a = _add_like(lhs, "nuw")
        b = _add_like(rhs, "nuw")
        if a is not None and b is not None and a[0] is b[0]:
            return a[1].value <= b[1].value
        return False
    return False


def _implied_cond_operands(pred: Predicate, alhs: Value, arhs: Value, blhs: Value, brhs: Value) -> bool | None:
    if pred in (P.ICMP_SLT, P.ICMP_SLE):
        if _is_true_predicate(P.ICMP_SLE, blhs, alhs) and _is_true_predicate(P.ICMP_SLE, arhs, brhs):
            return True
    elif pred in (P.ICMP_SGT, P.ICMP_SGE):
        if _is_true_predicate(P.ICMP_SLE, alhs, blhs) and _is_true_predicate(P.ICMP_SLE, brhs, arhs):
            return True
    elif pred in (P.ICMP_ULT, P.ICMP_ULE):
        if _is_true_predicate(P.ICMP_ULE, blhs, alhs) and _is_true_predicate(P.ICMP_ULE, arhs, brhs):
            return True
    elif pred in (P.ICMP_UGT, P.ICMP_UGE):
        if _is_true_predicate(P.ICMP_ULE, alhs, blhs) and _is_true_predicate(P.ICMP_ULE, brhs, arhs):
            return True
    return None


_IMPLIED_TRUE = {
    P.ICMP_EQ: (P.ICMP_UGE, P.ICMP_ULE, P.ICMP_SGE, P.ICMP_SLE),
    P.ICMP_UGT: (P.ICMP_NE, P.ICMP_UGE),
    P.ICMP_ULT: (P.ICMP_NE, P.ICMP_ULE),
    P.ICMP_SGT: (P.ICMP_NE, P.ICMP_SGE),
    P.ICMP_SLT: (P.ICMP_NE, P.ICMP_SLE),
}


def is_implied_true_by_matching_cmp(p1: Predicate, p2: Predicate) -> bool:
    """``A p1 B`` implies ``A p2 B`` (LLVM ``CmpInst::isImpliedTrueByMatchingCmp``)."""
    return p1 == p2 or p2 in _IMPLIED_TRUE.get(p1, ())


def is_implied_false_by_matching_cmp(p1: Predicate, p2: Predicate) -> bool:
    """``A p1 B`` implies ``A p2 B`` is false."""
    return is_implied_true_by_matching_cmp(p1, p2.inverse)


def _is_imm_constant(v: Value) -> bool:
    return v.is_constant and pm.matches(v, pm.m_imm_constant())


def _implied_cond_icmps(lhs: ICmpInst, rpred: Predicate, r0: Value, r1: Value, dl: DataLayout, lhs_is_true: bool) -> bool | None:
    l0 = lhs.lhs
    l1 = lhs.rhs
    lpred = lhs.predicate if lhs_is_true else lhs.predicate.inverse
    if l0 is r1:
        r0, r1 = r1, r0
        rpred = rpred.swapped
    if r0 is l1:
        l0, l1 = l1, l0
        lpred = lpred.swapped
    if l1 is r1:
        if l0 is not r0 or _is_imm_constant(l0):
            l0, l1 = l1, l0
            lpred = lpred.swapped
            r0, r1 = r1, r0
            rpred = rpred.swapped
    if l0 is r0 and (u.apint(l1) is not None or u.apint(r1) is not None):
        from llvmpy_mid.analysis.value_tracking import compute_constant_range

        lcr = compute_constant_range(l1, lpred.is_signed, True, None, None, None, MAX_ANALYSIS_RECURSION_DEPTH - 1)
        rcr = compute_constant_range(r1, rpred.is_signed, True, None, None, None, MAX_ANALYSIS_RECURSION_DEPTH - 1)
        dom = ConstantRange.make_allowed_icmp_region(lpred, lcr)
        if dom.icmp(rpred, rcr):
            return True
        if dom.icmp(rpred.inverse, rcr):
            return False
        if u.apint(l1) is not None and u.apint(r1) is not None:
            return None
    if l0 is r0 and l1 is r1:
        if is_implied_true_by_matching_cmp(lpred, rpred):
            return True
        if is_implied_false_by_matching_cmp(lpred, rpred):
            return False
        return None
    if l0 is r0 and lpred in (P.ICMP_ULT, P.ICMP_UGE) and rpred in (P.ICMP_ULT, P.ICMP_UGE):
        ops = u.binop(l0, "add")
        if ops is not None and ((ops[0] is l1 and ops[1] is r1) or (ops[0] is r1 and ops[1] is l1)):
            return lpred == rpred
    if lpred == rpred:
        return _implied_cond_operands(lpred, l0, l1, r0, r1)
    return None


def _logical(v: Value, is_and: bool) -> tuple[Value, Value] | None:
    """``and``/``or`` of booleans, or their ``select`` spellings (LLVM ``m_LogicalAnd``/``m_LogicalOr``)."""
    ops = u.binop(v, "and" if is_and else "or")
    if ops is not None:
        return ops
    if isinstance(v, SelectInst) and v.condition.type is v.type:
        arm = v.false_value if is_and else v.true_value
        if not isinstance(arm, Constant):
            return None
        if is_and:
            if arm.is_null_value:
                return v.condition, v.true_value
        else:
            c = u.apint(arm)
            if c is not None and c.value == 1 and (type(arm) is ConstantInt or get_splat_value(arm) is not None):
                return v.condition, v.false_value
    return None


def is_implied_condition_pred(
    lhs: Value, rpred: Predicate, r0: Value, r1: Value, dl: DataLayout, lhs_is_true: bool = True, depth: int = 0
) -> bool | None:
    """Does ``lhs`` (being ``lhs_is_true``) imply ``r0 rpred r1``? (LLVM ``isImpliedCondition``)."""
    while True:
        if depth == MAX_ANALYSIS_RECURSION_DEPTH:
            return None
        if r0.type.is_vector != lhs.type.is_vector:
            return None
        inner = u.not_of(lhs)
        if inner is None:
            break
        lhs = inner
        lhs_is_true = not lhs_is_true
        break
    if isinstance(lhs, ICmpInst):
        return _implied_cond_icmps(lhs, rpred, r0, r1, dl, lhs_is_true)
    if isinstance(lhs, Instruction) and lhs.opcode in ("and", "or", "select"):
        pair = _logical(lhs, True) if lhs_is_true else _logical(lhs, False)
        if pair is not None:
            for part in pair:
                imp = is_implied_condition_pred(part, rpred, r0, r1, dl, lhs_is_true, depth + 1)
                if imp is not None:
                    return imp
    return None


def is_implied_condition(lhs: Value, rhs: Value, dl: DataLayout, lhs_is_true: bool = True, depth: int = 0) -> bool | None:
    """Does ``lhs`` (being ``lhs_is_true``) decide the boolean ``rhs``? True, False or None."""
    if lhs is rhs:
        return lhs_is_true
    invert = False
    inner = u.not_of(rhs)
    if inner is not None:
        rhs = inner
        if lhs is rhs:
            return not lhs_is_true
        invert = True
    if isinstance(rhs, ICmpInst):
        imp = is_implied_condition_pred(lhs, rhs.predicate, rhs.lhs, rhs.rhs, dl, lhs_is_true, depth)
        if imp is None:
            return None
        return (not imp) if invert else imp
    if depth == MAX_ANALYSIS_RECURSION_DEPTH:
        return None
    pair = _logical(rhs, False)
    if pair is not None:
        for part in pair:
            if is_implied_condition(lhs, part, dl, lhs_is_true, depth + 1) is True:
                return not invert
    pair = _logical(rhs, True)
    if pair is not None:
        for part in pair:
            if is_implied_condition(lhs, part, dl, lhs_is_true, depth + 1) is False:
                return invert
    return None


def _dom_predecessor_condition(cxt: Instruction | None) -> tuple[Value, bool] | None:
    if cxt is None or cxt.parent is None:
        return None
    bb = cxt.parent
    pred = bb.single_predecessor
    if pred is None:
        return None
    term = pred.terminator
    if term is None or term.opcode != "br" or term.num_operands != 3:
        return None
    cond = term.get_operand(0)
    true_bb = term.get_successor(0)
    false_bb = term.get_successor(1)
    if true_bb is false_bb:
        return None
    return cond, true_bb is bb


def is_implied_by_dom_condition(cond: Value, cxt: Instruction | None, dl: DataLayout) -> bool | None:
    """The branch into the context's block (from its single predecessor) decides ``cond``."""
    pc = _dom_predecessor_condition(cxt)
    if pc is None:
        return None
    return is_implied_condition(pc[0], cond, dl, pc[1])


def is_implied_by_dom_condition_pred(pred: Predicate, lhs: Value, rhs: Value, cxt: Instruction | None, dl: DataLayout) -> bool | None:
    """The branch into the context's block decides ``lhs pred rhs``."""
    pc = _dom_predecessor_condition(cxt)
    if pc is None:
        return None
    return is_implied_condition_pred(pc[0], pred, lhs, rhs, dl, pc[1])


__all__ = [
    "MAX_ANALYSIS_RECURSION_DEPTH",
    "is_implied_condition",
    "is_implied_condition_pred",
    "is_implied_by_dom_condition",
    "is_implied_by_dom_condition_pred",
    "is_implied_true_by_matching_cmp",
    "is_implied_false_by_matching_cmp",
]
