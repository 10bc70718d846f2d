"""Exit limits and backedge-taken counts of ScalarEvolution (LLVM 19.1.7
``lib/Analysis/ScalarEvolution.cpp``: ``computeBackedgeTakenCount``, ``computeExitLimit``,
``computeExitLimitFromCond``, ``computeExitLimitFromICmp``, ``SimplifyICmpOperands``,
``SCEVAddRecExpr::getNumIterationsInRange``, ``howFarToZero``, ``howFarToNonZero``,
``howManyLessThans``, ``howManyGreaterThans``, ``computeMaxBECountForLT`` and
``computeExitLimitFromSingleExitSwitch``).

What: for each exiting block of a loop that dominates its latch and ends in a conditional
branch (on an ``icmp``, a constant, or a logical and/or of those) or in a switch with one exit
case, an :class:`ExitLimit` gives the exact number of backedges taken before that exit is
taken, a constant bound of it and a symbolic bound. :class:`BackedgeTakenInfo` combines them as
LLVM does (exact count: the sequential umin of every exit's count when all are known; constant
maximum: the minimum of the must-exits' maxima, else the maximum of the may-exits').

Not done (the answer is then "could not compute", as LLVM gives when it cannot tell): the
exhaustive evaluation of constant-evolving phis, shift-compare exits, predicated counts, loop
guards (``applyLoopGuards``), exact counts of ``<`` exits against a varying bound or with a
stride not known positive, quadratic recurrences, exits on ``with.overflow`` bits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NSW,
    FLAG_NUW,
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
    SCEVTypes,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution

__all__ = ["BackedgeTakenInfo", "ExitLimit", "compute_backedge_taken_count", "compute_exit_limit"]


def _cnc(se: ScalarEvolution) -> SCEV:
    return se.get_could_not_compute()


class ExitLimit:
    """One exit's counts (LLVM ``ScalarEvolution::ExitLimit``)."""

    __slots__ = ("exact", "constant_max", "symbolic_max", "max_or_zero")

    def __init__(self, exact: SCEV, constant_max: SCEV | None = None, symbolic_max: SCEV | None = None, max_or_zero: bool = False) -> None:
        if constant_max is None:
            constant_max = exact
        if symbolic_max is None:
            symbolic_max = exact
        if constant_max.is_zero():
            exact = constant_max
            symbolic_max = constant_max
        self.exact = exact
        self.constant_max = constant_max
        self.symbolic_max = symbolic_max
        self.max_or_zero = max_or_zero

    def has_any_info(self) -> bool:
        return not isinstance(self.exact, SCEVCouldNotCompute) or not isinstance(self.constant_max, SCEVCouldNotCompute)

    def has_full_info(self) -> bool:
        return not isinstance(self.exact, SCEVCouldNotCompute)


class BackedgeTakenInfo:
    """The exit limits of a loop's computable exits and the loop's constant maximum (LLVM
    ``BackedgeTakenInfo``)."""

    __slots__ = ("exits", "is_complete", "constant_max", "max_or_zero", "_symbolic_max")

    def __init__(self, exits: list[tuple[BasicBlock, ExitLimit]], is_complete: bool, constant_max: SCEV, max_or_zero: bool) -> None:
        self.exits = exits
        self.is_complete = is_complete
        self.constant_max = constant_max
        self.max_or_zero = max_or_zero
        self._symbolic_max: SCEV | None = None

    @staticmethod
    def unknown(se: ScalarEvolution) -> BackedgeTakenInfo:
        return BackedgeTakenInfo([], False, _cnc(se), False)

    def get_exact(self, se: ScalarEvolution) -> SCEV:
        if not self.is_complete or not self.exits:
            return _cnc(se)
        return se.get_umin_from_mismatched_types([el.exact for _, el in self.exits], sequential=True)

    def get_exact_for(self, exiting: BasicBlock, se: ScalarEvolution) -> SCEV:
        for bb, el in self.exits:
            if bb is exiting:
                return el.exact
        return _cnc(se)

    def get_symbolic_max(self, se: ScalarEvolution) -> SCEV:
        if self._symbolic_max is None:
            counts = [el.symbolic_max for _, el in self.exits if not isinstance(el.symbolic_max, SCEVCouldNotCompute)]
            self._symbolic_max = se.get_umin_from_mismatched_types(counts, sequential=True) if counts else _cnc(se)
        return self._symbolic_max

    def expressions(self) -> list[SCEV]:
        out: list[SCEV] = [self.constant_max]
        for _, el in self.exits:
            out.extend((el.exact, el.symbolic_max))
        if self._symbolic_max is not None:
            out.append(self._symbolic_max)
        return out


def compute_backedge_taken_count(se: ScalarEvolution, loop: Loop) -> BackedgeTakenInfo:
    exiting_blocks = loop.exiting_blocks
    latch = loop.latch
    exits: list[tuple[BasicBlock, ExitLimit]] = []
    could_compute = True
    must_max: SCEV | None = None
    may_max: SCEV | None = None
    must_max_or_zero = False
    is_only_exit = len(exiting_blocks) == 1
    cnc = _cnc(se)
    for exiting in exiting_blocks:
        term = exiting.terminator
        if term is not None and term.opcode == "br" and len(term.operands) == 3:
            cond = term.operands[0]
            if isinstance(cond, ConstantInt):
                exit_if_true = not loop.contains(_successor(term, 0))
                if exit_if_true == (cond.value == 0):
                    continue
        el = compute_exit_limit(se, loop, exiting, is_only_exit)
        if el.exact is cnc:
            could_compute = False
        if el.symbolic_max is not cnc:
            exits.append((exiting, el))
        if el.constant_max is not cnc and latch is not None and se.dt.dominates_block(exiting, latch):
            if must_max is None:
                must_max = el.constant_max
                must_max_or_zero = el.max_or_zero
            else:
                must_max = se.get_umin_from_mismatched_types([must_max, el.constant_max])
        elif may_max is not cnc:
            if may_max is None or el.constant_max is cnc:
                may_max = el.constant_max
            else:
                may_max = se.get_umax_from_mismatched_types([may_max, el.constant_max])
    max_count = must_max if must_max is not None else (may_max if may_max is not None else cnc)
    return BackedgeTakenInfo(exits, could_compute, max_count, must_max_or_zero and len(exiting_blocks) == 1)


def _successor(term: Instruction, index: int) -> BasicBlock:
    return term.successors[index]


def compute_exit_limit(se: ScalarEvolution, loop: Loop, exiting: BasicBlock, is_only_exit: bool) -> ExitLimit:
    latch = loop.latch
    cnc = _cnc(se)
    if latch is None or not se.dt.dominates_block(exiting, latch):
        return ExitLimit(cnc)
    term = exiting.terminator
    if term is None:
        return ExitLimit(cnc)
    if term.opcode == "br" and len(term.operands) == 3:
        exit_if_true = not loop.contains(_successor(term, 0))
        cache: dict[tuple[Value, bool], ExitLimit] = {}
        return _exit_limit_from_cond(se, loop, term.operands[0], exit_if_true, is_only_exit, cache)
    if term.opcode == "switch":
        exit_bb: BasicBlock | None = None
        for succ in term.successors:
            if not loop.contains(succ):
                if exit_bb is not None and exit_bb is not succ:
                    return ExitLimit(cnc)
                exit_bb = succ
        assert exit_bb is not None
        return _exit_limit_from_single_exit_switch(se, loop, term, exit_bb, is_only_exit)
    return ExitLimit(cnc)


def _exit_limit_from_single_exit_switch(
    se: ScalarEvolution, loop: Loop, switch: Instruction, exit_bb: BasicBlock, controls_only_exit: bool
) -> ExitLimit:
    cnc = _cnc(se)
    ops = switch.operands
    if ops[1] is exit_bb:
        return ExitLimit(cnc)
    case_value: ConstantInt | None = None
    for k in range(2, len(ops), 2):
        if ops[k + 1] is exit_bb:
            if case_value is not None:
                return ExitLimit(cnc)
            cv = ops[k]
            assert isinstance(cv, ConstantInt)
            case_value = cv
    if case_value is None or not se.is_scevable(ops[0].type):
        return ExitLimit(cnc)
    lhs = se.get_scev(ops[0])
    rhs = se.get_scev(case_value)
    el = _how_far_to_zero(se, se.get_minus_scev(lhs, rhs), loop, controls_only_exit)
    return el if el.has_any_info() else ExitLimit(cnc)


def _logical_and_or(v: Value) -> tuple[bool, Value, Value] | None:
    """``(is_and, a, b)`` for ``and``/``or`` of i1 values or their select forms."""
    if not isinstance(v, Instruction) or not v.type.is_integer or v.type.width != 1:  # type: ignore[attr-defined]
        return None
    op = v.opcode
    if op in ("and", "or"):
        return (op == "and", v.operands[0], v.operands[1])
    if op == "select":
        c, t, f = v.operands
        if c.type is not v.type:
            return None
        if isinstance(f, ConstantInt) and f.value == 0:
            return (True, c, t)
        if isinstance(t, ConstantInt) and t.value == 1:
            return (False, c, f)
    return None


def _exit_limit_from_cond(
    se: ScalarEvolution, loop: Loop, cond: Value, exit_if_true: bool, controls_only_exit: bool, cache: dict[tuple[Value, bool], ExitLimit]
) -> ExitLimit:
    key = (cond, controls_only_exit)
    el = cache.get(key)
    if el is None:
        el = _exit_limit_from_cond_impl(se, loop, cond, exit_if_true, controls_only_exit, cache)
        cache[key] = el
    return el


def _exit_limit_from_cond_impl(
    se: ScalarEvolution, loop: Loop, cond: Value, exit_if_true: bool, controls_only_exit: bool, cache: dict[tuple[Value, bool], ExitLimit]
) -> ExitLimit:
    cnc = _cnc(se)
    logical = _logical_and_or(cond)
    if logical is not None:
        return _exit_limit_from_bin_op(se, loop, cond, logical, exit_if_true, controls_only_exit, cache)
    if isinstance(cond, Instruction) and cond.opcode == "icmp":
        pred: Predicate = cond.predicate  # type: ignore[attr-defined]
        if exit_if_true:
            pred = pred.inverse
        lhs_v, rhs_v = cond.operands
        if not se.is_scevable(lhs_v.type):
            return ExitLimit(cnc)
        lhs = se.get_scev(lhs_v)
        rhs = se.get_scev(rhs_v)
        el = compute_exit_limit_from_icmp(se, loop, pred, lhs, rhs, controls_only_exit)
        if el.has_any_info():
            return el
        return ExitLimit(compute_exit_count_exhaustively(se, loop, cond, exit_if_true))
    if isinstance(cond, ConstantInt):
        if exit_if_true == (cond.value == 0):
            return ExitLimit(cnc)
        return ExitLimit(se.get_zero(cond.type))
    return ExitLimit(compute_exit_count_exhaustively(se, loop, cond, exit_if_true))


def _exit_limit_from_bin_op(
    se: ScalarEvolution,
    loop: Loop,
    cond: Value,
    logical: tuple[bool, Value, Value],
    exit_if_true: bool,
    controls_only_exit: bool,
    cache: dict[tuple[Value, bool], ExitLimit],
) -> ExitLimit:
    is_and, op0, op1 = logical
    cnc = _cnc(se)
    either_may_exit = is_and != exit_if_true
    el0 = _exit_limit_from_cond(se, loop, op0, exit_if_true, controls_only_exit and not either_may_exit, cache)
    el1 = _exit_limit_from_cond(se, loop, op1, exit_if_true, controls_only_exit and not either_may_exit, cache)
    neutral = 1 if is_and else 0
    if isinstance(op1, ConstantInt):
        return el0 if op1.value == neutral else el1
    if isinstance(op0, ConstantInt):
        return el1 if op0.value == neutral else el0
    be: SCEV = cnc
    cmax: SCEV = cnc
    smax: SCEV = cnc
    if either_may_exit:
        sequential = not (isinstance(cond, Instruction) and cond.opcode in ("and", "or"))
        if el0.exact is not cnc and el1.exact is not cnc:
            be = se.get_umin_from_mismatched_types([el0.exact, el1.exact], sequential)
        if el0.constant_max is cnc:
            cmax = el1.constant_max
        elif el1.constant_max is cnc:
            cmax = el0.constant_max
        else:
            cmax = se.get_umin_from_mismatched_types([el0.constant_max, el1.constant_max])
        if el0.symbolic_max is cnc:
            smax = el1.symbolic_max
        elif el1.symbolic_max is cnc:
            smax = el0.symbolic_max
        else:
            smax = se.get_umin_from_mismatched_types([el0.symbolic_max, el1.symbolic_max], sequential)
    elif el0.exact is el1.exact:
        be = el0.exact
    if cmax is cnc and be is not cnc:
        cmax = se.get_constant(be.type, se.get_unsigned_range_max(be))  # type: ignore[arg-type]
    if smax is cnc:
        smax = cmax if be is cnc else be
    return ExitLimit(be, cmax, smax, False)


def _match_binary_sub(s: SCEV) -> tuple[SCEV, SCEV] | None:
    """``(b, a)`` for ``(-1 * a) + b`` (LLVM ``MatchBinarySub``)."""
    if s.kind is not SCEVTypes.ADD or len(s.operands) != 2:
        return None
    for i in (0, 1):
        me = s.operands[i]
        if me.kind is SCEVTypes.MUL and len(me.operands) == 2 and me.operands[0].is_all_ones():
            return s.operands[1 - i], me.operands[1]
    return None


def _simplify_icmp_operands(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, depth: int = 0
) -> tuple[Predicate, SCEV, SCEV]:
    """LLVM ``SimplifyICmpOperands``: constants to the right, recurrences to the left,
    constant-bound inequalities to equalities or strict forms, ``b - a == 0`` to ``b == a``,
    trivial compares to ``x == x`` / ``x != x``, and ``<=``/``>=`` to strict forms by moving
    one operand by one where its range allows."""
    if depth >= 3:
        return pred, lhs, rhs
    changed = False
    if isinstance(lhs, SCEVConstant):
        if isinstance(rhs, SCEVConstant):
            from llvmpy_mid.analysis.scalar_evolution import _eval_icmp

            true = _eval_icmp(pred, lhs.value, rhs.value, lhs.bit_width)
            return (Predicate.ICMP_EQ if true else Predicate.ICMP_NE), lhs, lhs
        lhs, rhs = rhs, lhs
        pred = pred.swapped
        changed = True
    if isinstance(rhs, SCEVAddRecExpr):
        loop = rhs.loop
        if se.is_loop_invariant(lhs, loop) and se.properly_dominates(lhs, loop.header):
            lhs, rhs = rhs, lhs
            pred = pred.swapped
            changed = True
    if isinstance(rhs, SCEVConstant):
        w = rhs.bit_width
        ty = rhs.type
        assert ty is not None
        ra = rhs.value
        by_range = False
        if not pred.is_equality:
            exact = ConstantRange.make_exact_icmp_region(pred, ra, w)
            if exact.is_full_set():
                return Predicate.ICMP_EQ, lhs, lhs
            if exact.is_empty_set():
                return Predicate.ICMP_NE, lhs, lhs
            new_pred, new_rhs, offset = exact.get_equivalent_icmp()
            if offset == 0 and new_pred.is_equality:
                pred, rhs = new_pred, se.get_constant(ty, new_rhs)
                changed = by_range = True
        if not by_range:
            if pred.is_equality:
                if ra == 0:
                    sub = _match_binary_sub(lhs)
                    if sub is not None:
                        lhs, rhs = sub
                        changed = True
            elif pred is Predicate.ICMP_UGE:
                pred, rhs, changed = Predicate.ICMP_UGT, se.get_constant(ty, ra - 1), True
            elif pred is Predicate.ICMP_ULE:
                pred, rhs, changed = Predicate.ICMP_ULT, se.get_constant(ty, ra + 1), True
            elif pred is Predicate.ICMP_SGE:
                pred, rhs, changed = Predicate.ICMP_SGT, se.get_constant(ty, ra - 1), True
            elif pred is Predicate.ICMP_SLE:
                pred, rhs, changed = Predicate.ICMP_SLT, se.get_constant(ty, ra + 1), True
    if lhs is rhs:
        if pred.is_true_when_equal:
            return Predicate.ICMP_EQ, lhs, lhs
        if pred.is_false_when_equal:
            return Predicate.ICMP_NE, lhs, lhs
    lty = lhs.type
    if isinstance(lty, IntegerType) and rhs.type is lty:
        w = lty.width
        smax, smin, umax = (1 << (w - 1)) - 1, -(1 << (w - 1)), (1 << w) - 1
        one, minus_one = se.get_one(lty), se.get_minus_one(lty)
        if pred is Predicate.ICMP_SLE:
            if se.get_signed_range_max(rhs) != smax:
                pred, rhs, changed = Predicate.ICMP_SLT, se.get_add_expr([one, rhs], FLAG_NSW), True
            elif se.get_signed_range_min(lhs) != smin:
                pred, lhs, changed = Predicate.ICMP_SLT, se.get_add_expr([minus_one, lhs], FLAG_NSW), True
        elif pred is Predicate.ICMP_SGE:
            if se.get_signed_range_min(rhs) != smin:
                pred, rhs, changed = Predicate.ICMP_SGT, se.get_add_expr([minus_one, rhs], FLAG_NSW), True
            elif se.get_signed_range_max(lhs) != smax:
                pred, lhs, changed = Predicate.ICMP_SGT, se.get_add_expr([one, lhs], FLAG_NSW), True
        elif pred is Predicate.ICMP_ULE:
            if se.get_unsigned_range_max(rhs) != umax:
                pred, rhs, changed = Predicate.ICMP_ULT, se.get_add_expr([one, rhs], FLAG_NUW), True
            elif se.get_unsigned_range_min(lhs) != 0:
                pred, lhs, changed = Predicate.ICMP_ULT, se.get_add_expr([minus_one, lhs]), True
        elif pred is Predicate.ICMP_UGE:
            if se.get_unsigned_range_min(rhs) != 0:
                pred, rhs, changed = Predicate.ICMP_UGT, se.get_add_expr([minus_one, rhs]), True
            elif se.get_unsigned_range_max(lhs) != umax:
                pred, lhs, changed = Predicate.ICMP_UGT, se.get_add_expr([one, lhs], FLAG_NUW), True
    if changed:
        return _simplify_icmp_operands(se, pred, lhs, rhs, depth + 1)
    return pred, lhs, rhs


def _is_known_power_of_two_or_negated(se: ScalarEvolution, s: SCEV) -> bool:
    """LLVM ``isKnownToBeAPowerOfTwo(S, OrZero=true, OrNegative=true)``."""

    def leaf(x: SCEV) -> bool:
        if not isinstance(x, SCEVConstant):
            return False
        v = x.value
        neg = (-v) & ((1 << x.bit_width) - 1)
        return (v != 0 and v & (v - 1) == 0) or (neg != 0 and neg & (neg - 1) == 0)

    if leaf(s):
        return True
    return s.kind is SCEVTypes.MUL and all(leaf(o) for o in s.operands)


def compute_exit_limit_from_icmp(
    se: ScalarEvolution, loop: Loop, pred: Predicate, lhs: SCEV, rhs: SCEV, controls_only_exit: bool
) -> ExitLimit:
    """The exit limit of ``while (lhs pred rhs)`` (LLVM ``computeExitLimitFromICmp``)."""
    cnc = _cnc(se)
    lhs = se.get_scev_at_scope(lhs, loop)
    rhs = se.get_scev_at_scope(rhs, loop)
    if se.is_loop_invariant(lhs, loop) and not se.is_loop_invariant(rhs, loop):
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    controlling_finite = (
        controls_only_exit and se.loop_has_no_abnormal_exits(loop) and se.loop_is_finite_by_assumption(loop)
    )
    pred, lhs, rhs = _simplify_icmp_operands(se, pred, lhs, rhs)
    if isinstance(rhs, SCEVConstant) and isinstance(lhs, SCEVAddRecExpr) and lhs.loop is loop:
        comp = ConstantRange.make_exact_icmp_region(pred, rhs.value, rhs.bit_width)
        ret = _num_iterations_in_range(se, lhs, comp)
        if ret is not cnc:
            return ExitLimit(ret)
    if controlling_finite and se.is_loop_invariant(rhs, loop):
        # A finite loop cannot repeat its values: the recurrence does not self-wrap.
        inner = lhs.operands[0] if lhs.kind is SCEVTypes.ZERO_EXTEND else lhs
        if (
            isinstance(inner, SCEVAddRecExpr)
            and not inner.has_no_self_wrap()
            and inner.loop is loop
            and inner.is_affine()
            and _is_known_power_of_two_or_negated(se, inner.operands[1])
        ):
            se.get_add_rec_expr(list(inner.operands), loop, se._strengthen(inner.flags | FLAG_NW, inner.operands))
        # ... and below the (un)signed wrap it cannot pass the bound without exiting.
        if pred in (Predicate.ICMP_SLT, Predicate.ICMP_ULT):
            wrap = FLAG_NSW if pred is Predicate.ICMP_SLT else FLAG_NUW
            if (
                isinstance(lhs, SCEVAddRecExpr)
                and lhs.loop is loop
                and lhs.is_affine()
                and not lhs.flags & wrap
                and lhs.has_no_self_wrap()
                and se.is_known_positive(lhs.operands[1])
            ):
                se.get_add_rec_expr(list(lhs.operands), loop, se._strengthen(lhs.flags | wrap, lhs.operands))
    lty = lhs.type
    if not isinstance(lty, IntegerType) or lty is not rhs.type:
        return ExitLimit(cnc)
    if pred is Predicate.ICMP_NE:
        el = _how_far_to_zero(se, se.get_minus_scev(lhs, rhs), loop, controls_only_exit)
        if el.has_any_info():
            return el
    elif pred is Predicate.ICMP_EQ:
        el = _how_far_to_non_zero(se, se.get_minus_scev(lhs, rhs))
        if el.has_any_info():
            return el
    elif pred in (Predicate.ICMP_SLE, Predicate.ICMP_ULE, Predicate.ICMP_SLT, Predicate.ICMP_ULT):
        if pred in (Predicate.ICMP_SLE, Predicate.ICMP_ULE):
            if not (controlling_finite and se.is_loop_invariant(rhs, loop)):
                # The addition is done in twice the width, where it cannot overflow.
                wide = se._int_type(lty.width * 2)
                if pred is Predicate.ICMP_SLE:
                    lhs, rhs = se.get_sign_extend_expr(lhs, wide), se.get_sign_extend_expr(rhs, wide)
                else:
                    lhs, rhs = se.get_zero_extend_expr(lhs, wide), se.get_zero_extend_expr(rhs, wide)
            rhs = se.get_add_expr([se.get_one(rhs.type), rhs])  # type: ignore[arg-type]
        el = _how_many_less_thans(se, lhs, rhs, loop, pred.is_signed, controls_only_exit)
        if el.has_any_info():
            return el
    elif pred in (Predicate.ICMP_SGE, Predicate.ICMP_UGE, Predicate.ICMP_SGT, Predicate.ICMP_UGT):
        if pred in (Predicate.ICMP_SGE, Predicate.ICMP_UGE):
            if not (controlling_finite and se.is_loop_invariant(rhs, loop)):
                return ExitLimit(cnc)
            rhs = se.get_add_expr([se.get_minus_one(lty), rhs])
        el = _how_many_greater_thans(se, lhs, rhs, loop, pred.is_signed, controls_only_exit)
        if el.has_any_info():
            return el
    return ExitLimit(cnc)


def _num_iterations_in_range(se: ScalarEvolution, rec: SCEVAddRecExpr, rng: ConstantRange) -> SCEV:
    """LLVM ``SCEVAddRecExpr::getNumIterationsInRange`` for affine recurrences with constant
    operands: the first iteration whose value is outside ``rng``."""
    cnc = _cnc(se)
    if rng.is_full_set():
        return cnc
    if not rec.is_affine() or not all(isinstance(op, SCEVConstant) for op in rec.operands):
        return cnc
    start = rec.operands[0]
    step = rec.operands[1]
    assert isinstance(start, SCEVConstant) and isinstance(step, SCEVConstant)
    w = start.bit_width
    mask = (1 << w) - 1
    if start.value:
        rng = rng.subtract(start.value)
    if not rng.contains(0):
        return se.get_zero(start.type)  # type: ignore[arg-type]
    a = step.value
    a_signed = step.signed_value
    end = ((rng.upper - 1) & mask) if a_signed >= 1 else rng.lower
    if a == 0:
        return cnc
    exit_val = ((end + a) & mask) // a
    val = (a * exit_val) & mask
    if rng.contains(val):
        return cnc
    return se.get_constant(start.type, exit_val)  # type: ignore[arg-type]


def _how_far_to_zero(se: ScalarEvolution, v: SCEV, loop: Loop, controls_only_exit: bool) -> ExitLimit:
    """Iterations until ``v`` becomes zero (LLVM ``howFarToZero``)."""
    cnc = _cnc(se)
    if isinstance(v, SCEVConstant):
        return ExitLimit(v if v.is_zero() else cnc)
    rec = v
    while rec.kind.name in ("ZERO_EXTEND", "SIGN_EXTEND"):
        rec = rec.operands[0]
    if not isinstance(rec, SCEVAddRecExpr) or rec.loop is not loop:
        return ExitLimit(cnc)
    if not rec.is_affine():
        return ExitLimit(cnc)
    start = rec.operands[0]
    step = rec.operands[1]
    if not se.is_loop_invariant(step, loop):
        return ExitLimit(cnc)
    count_down = se.is_known_negative(step)
    if not count_down and not se.is_known_non_negative(step):
        return ExitLimit(cnc)
    distance = start if count_down else se.get_negative_scev(start)
    ty = distance.type
    assert isinstance(ty, IntegerType)
    if isinstance(step, SCEVConstant) and (step.is_one() or step.is_all_ones()):
        max_be = se.get_unsigned_range_max(distance)
        # A rotated "i != n" loop counts n - 1: when n is known non-zero on entry, the
        # bound is umax(n) - 1.
        plus_one = se.get_add_expr([distance, se.get_one(ty)])
        if se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_NE, plus_one, se.get_zero(ty)):
            max_be = min(max_be, (se.get_unsigned_range_max(plus_one) - 1) & ((1 << ty.width) - 1))
        return ExitLimit(distance, se.get_constant(ty, max_be), distance)
    if controls_only_exit and rec.has_no_self_wrap() and se.loop_has_no_abnormal_exits(loop):
        if not se.loop_is_finite_by_assumption(loop) and not se.is_known_non_zero(step):
            return ExitLimit(cnc)
        exact = se.get_udiv_expr(distance, se.get_negative_scev(step) if count_down else step)
        cmax = se.get_constant(ty, se.get_unsigned_range_max(exact))
        return ExitLimit(exact, cmax, exact)
    if not isinstance(step, SCEVConstant) or step.is_zero():
        return ExitLimit(cnc)
    e = _solve_lin_equation_with_overflow(se, step.value, step.bit_width, se.get_negative_scev(start))
    if e is cnc:
        return ExitLimit(cnc)
    m = se.get_constant(ty, se.get_unsigned_range_max(e))
    return ExitLimit(e, m, e)


def _solve_lin_equation_with_overflow(se: ScalarEvolution, a: int, w: int, b: SCEV) -> SCEV:
    """The least unsigned ``x`` with ``a * x == b (mod 2^w)`` (LLVM
    ``SolveLinEquationWithOverflow``); ``b`` must be a constant unless ``a`` is odd."""
    cnc = _cnc(se)
    mult2 = (a & -a).bit_length() - 1
    ty = b.type
    assert isinstance(ty, IntegerType)
    if mult2:
        if not isinstance(b, SCEVConstant):
            return cnc
        if b.value and ((b.value & -b.value).bit_length() - 1) < mult2:
            return cnc
    modulus = 1 << (w - mult2)
    ad = (a >> mult2) % modulus
    inv = pow(ad, -1, modulus) if modulus > 1 else 0
    d = se.get_constant(ty, 1 << mult2)
    prod = se.get_mul_expr([b, se.get_constant(ty, inv)])
    return se.get_udiv_expr(prod, d)


def _how_far_to_non_zero(se: ScalarEvolution, v: SCEV) -> ExitLimit:
    cnc = _cnc(se)
    if isinstance(v, SCEVConstant):
        return ExitLimit(se.get_zero(v.type) if not v.is_zero() else cnc)  # type: ignore[arg-type]
    return ExitLimit(cnc)


def _can_iv_overflow_on_lt(se: ScalarEvolution, rhs: SCEV, stride: SCEV, signed: bool) -> bool:
    w = se.get_type_size_in_bits(rhs.type)  # type: ignore[arg-type]
    if signed:
        max_rhs = se.get_signed_range_max(rhs)
        max_stride_m1 = se.get_signed_range_max(stride) - 1
        max_value = (1 << (w - 1)) - 1
    else:
        max_rhs = se.get_unsigned_range_max(rhs)
        max_stride_m1 = se.get_unsigned_range_max(stride) - 1
        max_value = (1 << w) - 1
    return max_value - max_stride_m1 < max_rhs


def _can_iv_overflow_on_gt(se: ScalarEvolution, rhs: SCEV, stride: SCEV, signed: bool) -> bool:
    w = se.get_type_size_in_bits(rhs.type)  # type: ignore[arg-type]
    if signed:
        min_rhs = se.get_signed_range_min(rhs)
        max_stride_m1 = se.get_signed_range_max(stride) - 1
        min_value = -(1 << (w - 1))
    else:
        min_rhs = se.get_unsigned_range_min(rhs)
        max_stride_m1 = se.get_unsigned_range_max(stride) - 1
        min_value = 0
    return min_value + max_stride_m1 > min_rhs


def _compute_max_be_count_for_lt(se: ScalarEvolution, start: SCEV, stride: SCEV, end: SCEV, w: int, signed: bool) -> SCEV:
    ty = stride.type
    assert isinstance(ty, IntegerType)
    if signed and w == 1:
        return se.get_zero(ty)
    if signed and se.is_known_negative(stride):
        return _cnc(se)
    mask = (1 << w) - 1
    if signed:
        min_start = se.get_signed_range_min(start)
        min_stride = se.get_signed_range_min(stride)
        stride_for_max = max(1, min_stride)
        limit = ((1 << (w - 1)) - 1) - (stride_for_max - 1)
        max_end = min(se.get_signed_range_max(end), limit)
        max_end = max(max_end, min_start)
    else:
        min_start = se.get_unsigned_range_min(start)
        min_stride = se.get_unsigned_range_min(stride)
        stride_for_max = max(1, min_stride)
        limit = mask - (stride_for_max - 1)
        max_end = min(se.get_unsigned_range_max(end), limit)
        max_end = max(max_end, min_start)
    delta = (max_end - min_start) & mask
    return se.get_udiv_ceil_scev(se.get_constant(ty, delta), se.get_constant(ty, stride_for_max))


def _how_many_less_thans(se: ScalarEvolution, lhs: SCEV, rhs: SCEV, loop: Loop, signed: bool, controls_only_exit: bool) -> ExitLimit:
    """``while (lhs < rhs)`` for an affine ``lhs`` of ``loop`` with a positive stride (LLVM
    ``howManyLessThans``; no exact count when ``rhs`` varies in the loop)."""
    cnc = _cnc(se)
    iv = lhs
    if not isinstance(iv, SCEVAddRecExpr) or iv.loop is not loop or not iv.is_affine():
        return ExitLimit(cnc)
    no_wrap = controls_only_exit and iv.has_flags(FLAG_NSW if signed else FLAG_NUW)
    stride = iv.operands[1]
    if not se.is_known_positive(stride):
        return ExitLimit(cnc)
    if not stride.is_one() and not no_wrap:
        if _can_iv_overflow_on_lt(se, rhs, stride, signed) and not _can_assume_no_self_wrap(se, iv, rhs, loop, controls_only_exit):
            return ExitLimit(cnc)
    start = iv.operands[0]
    w = se.get_type_size_in_bits(lhs.type)  # type: ignore[arg-type]
    ty = stride.type
    assert isinstance(ty, IntegerType)
    if not se.is_loop_invariant(rhs, loop):
        vmax = _compute_max_be_count_for_lt(se, start, stride, rhs, w, signed)
        return ExitLimit(cnc, vmax, vmax)
    be, be_if_taken = _less_than_count(se, start, stride, rhs, loop, signed)
    max_or_zero = False
    if isinstance(be, SCEVConstant):
        cmax: SCEV = be
    elif isinstance(be_if_taken, SCEVConstant):
        cmax = be_if_taken
        max_or_zero = True
    else:
        cmax = _compute_max_be_count_for_lt(se, start, stride, rhs, w, signed)
    if isinstance(cmax, SCEVCouldNotCompute) and not isinstance(be, SCEVCouldNotCompute):
        cmax = se.get_constant(ty, se.get_unsigned_range_max(be))
    smax = cmax if isinstance(be, SCEVCouldNotCompute) else be
    return ExitLimit(be, cmax, smax, max_or_zero)


def _less_than_count(se: ScalarEvolution, start: SCEV, stride: SCEV, rhs: SCEV, loop: Loop, signed: bool) -> tuple[SCEV, SCEV | None]:
    """The exact count of ``{start,+,stride} < rhs`` for a loop-invariant ``rhs`` and the
    count when the backedge is taken at least once (LLVM ``howManyLessThans``' symbolic part)."""
    ty = stride.type
    assert isinstance(ty, IntegerType)
    cond = Predicate.ICMP_SLT if signed else Predicate.ICMP_ULT
    start_minus_stride = se.get_minus_scev(start, stride)
    if se.is_loop_entry_guarded_by_cond(loop, cond, start_minus_stride, start) and se.is_loop_entry_guarded_by_cond(
        loop, cond, start_minus_stride, rhs
    ):
        numerator = se.get_minus_scev(se.get_add_expr([rhs, se.get_minus_one(ty)]), start_minus_stride)
        return se.get_udiv_expr(numerator, stride), None
    be_if_taken: SCEV | None = None
    cond_ge = Predicate.ICMP_SGE if signed else Predicate.ICMP_UGE
    cond_gt = Predicate.ICMP_SGT if signed else Predicate.ICMP_UGT
    if (
        se.is_loop_entry_guarded_by_cond(loop, cond_ge, rhs, start)
        or se.is_known_predicate(cond_ge, rhs, start)
        or se.is_loop_entry_guarded_by_cond(loop, cond_gt, rhs, se.get_add_expr([start, se.get_minus_one(ty)]))
    ):
        end = rhs
    else:
        end = se.get_smax_expr([rhs, start]) if signed else se.get_umax_expr([rhs, start])
        be_if_taken = se.get_udiv_ceil_scev(se.get_minus_scev(rhs, start), stride)
    one = se.get_one(ty)
    may_add_overflow = True
    if isinstance(stride, SCEVConstant) and stride.value and not stride.value & (stride.value - 1):
        may_add_overflow = False
    elif start is stride or start is se.get_minus_scev(stride, one):
        may_add_overflow = False
    delta = se.get_minus_scev(end, start)
    if not may_add_overflow:
        be = se.get_udiv_expr(se.get_add_expr([delta, se.get_minus_scev(stride, one)]), stride)
    else:
        be = se.get_udiv_ceil_scev(delta, stride)
    return be, be_if_taken


def _can_assume_no_self_wrap(se: ScalarEvolution, iv: SCEVAddRecExpr, rhs: SCEV, loop: Loop, controls_only_exit: bool) -> bool:
    if not se.is_loop_invariant(rhs, loop):
        return False
    step = iv.operands[1]
    if not isinstance(step, SCEVConstant) or not step.value or (step.value & (step.value - 1)):
        return False
    if not controls_only_exit or not se.loop_has_no_abnormal_exits(loop):
        return False
    return se.loop_is_finite_by_assumption(loop)


def _how_many_greater_thans(se: ScalarEvolution, lhs: SCEV, rhs: SCEV, loop: Loop, signed: bool, controls_only_exit: bool) -> ExitLimit:
    """``while (lhs > rhs)`` for a decreasing affine ``lhs`` (LLVM ``howManyGreaterThans``; the
    exact count only when it is a constant)."""
    cnc = _cnc(se)
    iv = lhs
    if not isinstance(iv, SCEVAddRecExpr) or iv.loop is not loop or not iv.is_affine():
        return ExitLimit(cnc)
    if not se.is_loop_invariant(rhs, loop):
        return ExitLimit(cnc)
    no_wrap = controls_only_exit and iv.has_flags(FLAG_NSW if signed else FLAG_NUW)
    stride = se.get_negative_scev(iv.operands[1])
    if not se.is_known_positive(stride):
        return ExitLimit(cnc)
    if not stride.is_one() and not no_wrap:
        if _can_iv_overflow_on_gt(se, rhs, stride, signed):
            return ExitLimit(cnc)
    start = iv.operands[0]
    ty = stride.type
    assert isinstance(ty, IntegerType)
    w = ty.width
    mask = (1 << w) - 1
    cond = Predicate.ICMP_SGT if signed else Predicate.ICMP_UGT
    end = rhs
    if not se.is_loop_entry_guarded_by_cond(loop, cond, se.get_add_expr([start, stride]), rhs):
        if not se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_SGE if signed else Predicate.ICMP_UGE, start, rhs):
            end = se.get_smin_expr([rhs, start]) if signed else se.get_min_max_expr(SCEVTypes.UMIN, [rhs, start])
    one = se.get_one(ty)
    be: SCEV = se.get_udiv_expr(se.get_add_expr([se.get_minus_scev(start, end), se.get_minus_scev(stride, one)]), stride)
    if isinstance(be, SCEVConstant):
        cmax: SCEV = be
    else:
        if signed:
            max_start = se.get_signed_range_max(start)
            min_stride = se.get_signed_range_min(stride)
            limit = -(1 << (w - 1)) + (min_stride - 1)
            min_end = max(se.get_signed_range_min(rhs), limit)
        else:
            max_start = se.get_unsigned_range_max(start)
            min_stride = se.get_unsigned_range_min(stride)
            limit = min_stride - 1
            min_end = max(se.get_unsigned_range_min(rhs), limit)
        if min_stride <= 0:
            return ExitLimit(cnc)
        cmax = se.get_udiv_ceil_scev(se.get_constant(ty, (max_start - min_end) & mask), se.get_constant(ty, min_stride))  # noqa
    smax = cmax if be is cnc else be
    return ExitLimit(be, cmax, smax)


# --- brute-force evaluation (LLVM computeExitCountExhaustively) -----------------------------

MAX_BRUTE_FORCE_ITERATIONS = 100
MAX_CONSTANT_EVOLVING_DEPTH = 32
_FOLDABLE = frozenset(
    ("icmp", "fcmp", "select", "getelementptr", "load", "extractvalue")
    + ("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp", "ptrtoint", "inttoptr",
       "bitcast", "addrspacecast")
)


def _can_constant_evolve(inst: Instruction, loop: Loop) -> bool:
    from llvmpy_mid.ir.instructions.binary import BinaryOperator
    from llvmpy_mid.ir.instructions.other import PHINode

    if not loop.contains(inst):
        return False
    if isinstance(inst, PHINode):
        return inst.parent is loop.header
    return isinstance(inst, BinaryOperator) or inst.opcode in _FOLDABLE


def _constant_evolving_phi(v: Value, loop: Loop) -> Instruction | None:
    """The one header phi whose value alone (with constants) determines ``v`` (LLVM
    ``getConstantEvolvingPHI``), or None."""
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.other import PHINode

    if not isinstance(v, Instruction) or not _can_constant_evolve(v, loop):
        return None
    if isinstance(v, PHINode):
        return v
    phi_map: dict[Instruction, Instruction] = {}
    # Post-order over the operand tree (explicit stack), each instruction mapped to its phi.
    stack: list[tuple[Instruction, int, bool]] = [(v, 0, False)]
    failed: set[Instruction] = set()
    while stack:
        inst, depth, ready = stack.pop()
        if inst in phi_map or inst in failed:
            continue
        if depth > MAX_CONSTANT_EVOLVING_DEPTH:
            failed.add(inst)
            continue
        pending: list[Instruction] = []
        found: Instruction | None = None
        ok = True
        for op in inst.operands:
            if isinstance(op, Constant):
                continue
            if not isinstance(op, Instruction) or not _can_constant_evolve(op, loop):
                ok = False
                break
            p: Instruction | None = op if isinstance(op, PHINode) else phi_map.get(op)
            if p is None:
                if op in failed:
                    ok = False
                    break
                pending.append(op)
                continue
            if found is not None and found is not p:
                ok = False
                break
            found = p
        if not ok:
            failed.add(inst)
            continue
        if pending and not ready:
            stack.append((inst, depth, True))
            stack.extend((o, depth + 1, False) for o in pending)
            continue
        if pending:
            failed.add(inst)
            continue
        if found is None:
            failed.add(inst)
        else:
            phi_map[inst] = found
    return phi_map.get(v)


def _evaluate_expression(v: Value, loop: Loop, vals: dict[Value, Any], dl: Any, tli: Any) -> Any:
    """``v`` folded to a constant with the instructions of ``vals`` known (LLVM
    ``EvaluateExpression``), or None."""
    from llvmpy_mid.analysis.constant_folding import constant_fold_inst_operands
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.other import PHINode

    if isinstance(v, Constant):
        return v
    if not isinstance(v, Instruction):
        return None
    stack: list[tuple[Instruction, bool]] = [(v, False)]
    while stack:
        inst, ready = stack.pop()
        if inst in vals:
            continue
        if not _can_constant_evolve(inst, loop) or isinstance(inst, PHINode):
            return None
        if not ready:
            stack.append((inst, True))
            for op in inst.operands:
                if isinstance(op, Instruction) and op not in vals:
                    stack.append((op, False))
            continue
        ops: list[Any] = []
        for op in inst.operands:
            c = vals.get(op) if isinstance(op, Instruction) else (op if isinstance(op, Constant) else None)
            if c is None:
                return None
            ops.append(c)
        folded = constant_fold_inst_operands(inst, ops, dl, tli, False)
        if folded is None:
            return None
        vals[inst] = folded
    return vals.get(v)


def constant_phi_starts(header: BasicBlock, latch: BasicBlock) -> dict[Value, Any]:
    """The header phis whose every value from outside the latch is one constant, with that
    constant: the start of LLVM's brute-force evaluation of constant-evolving phis."""
    from llvmpy_mid.ir.constants import Constant

    starts: dict[Value, Any] = {}
    for phi in header.phis():
        start: Constant | None = None
        ok = True
        for i in range(phi.num_incoming):
            if phi.get_incoming_block(i) is latch:
                continue
            val = phi.get_incoming_value(i)
            if not isinstance(val, Constant) or (start is not None and start is not val):
                ok = False
                break
            start = val
        if ok and start is not None:
            starts[phi] = start
    return starts


def compute_exit_count_exhaustively(se: ScalarEvolution, loop: Loop, cond: Value, exit_when: bool) -> SCEV:
    """Run the loop's constant-evolving header phis up to 100 iterations and count the
    iterations before ``cond`` becomes ``exit_when`` (an i32 count), or could-not-compute."""
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.other import PHINode

    cnc = _cnc(se)
    pn = _constant_evolving_phi(cond, loop)
    if not isinstance(pn, PHINode) or pn.num_incoming != 2:
        return cnc
    header = loop.header
    latch = loop.latch
    if latch is None or se.data_layout is None:
        return cnc
    current = constant_phi_starts(header, latch)
    if pn not in current:
        return cnc
    i32 = header.type.context.i32
    for iteration in range(MAX_BRUTE_FORCE_ITERATIONS):
        vals = dict(current)
        value = _evaluate_expression(cond, loop, vals, se.data_layout, se.tli)
        if not isinstance(value, ConstantInt):
            return cnc
        if value.value == int(exit_when):
            return se.get_constant(i32, iteration)
        nxt: dict[Value, Any] = {}
        for phi in [p for p in current if isinstance(p, PHINode) and p.parent is header]:
            be = phi.incoming_value_for_block(latch)
            c = _evaluate_expression(be, loop, dict(current), se.data_layout, se.tli)
            if c is not None:
                nxt[phi] = c
        current = nxt
    return cnc
