"""Loop-exit values and loop-invariant predicates of ScalarEvolution (LLVM 19.1.7
``lib/Analysis/ScalarEvolution.cpp``: ``getSCEVAtScope``/``computeSCEVAtScope``,
``getConstantEvolutionLoopExitValue``, ``SCEVAddRecExpr::evaluateAtIteration`` with
``BinomialCoefficient``, ``getLoopInvariantPredicate``, ``getMonotonicPredicateType``,
``getLoopInvariantExitCondDuringFirstIterations``, ``isKnownPredicateAt``,
``evaluatePredicate(At)``, ``isKnownOnEveryIteration``, ``isLoopBackedgeGuardedByCond``,
``isBasicBlockEntryGuardedByCond`` and a subset of ``isImpliedCond``).

What: the value an expression has when control is in a given loop scope (for a recurrence of
an inner loop: its value at the exit, from the backedge-taken count; for a header phi with no
closed form: the exhaustive constant evaluation of the loop), and the predicate facts the
induction-variable simplifier needs.

The implication of a predicate by a branch condition is a sound subset of LLVM's
``isImpliedCond``: a condition (or a conjunction on its taken side) on the same operands whose
outcome set is contained in the wanted one, a constant right-hand side whose allowed region lies
inside the satisfying one, and ``<``/``>`` conditions whose operands compare as needed by
ranges. Assumptions and guard intrinsics are not used. What is not proven is "unknown".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
    SCEVTypes,
    SCEVUnknown,
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

__all__ = [
    "evaluate_at_iteration",
    "get_constant_evolution_loop_exit_value",
    "get_loop_invariant_exit_cond_during_first_iterations",
    "get_loop_invariant_predicate",
    "get_monotonic_predicate_type",
    "get_scev_at_scope",
    "is_basic_block_entry_guarded_by_cond",
    "is_implied_cond",
    "is_loop_backedge_guarded_by_cond",
]

MONOTONICALLY_INCREASING = 0
MONOTONICALLY_DECREASING = 1
_MAX_BINOMIAL_K = 1000
_MAX_IMPLIED_DEPTH = 4


# --- evaluateAtIteration -----------------------------------------------------------------------
def _binomial_coefficient(it: SCEV, k: int, se: ScalarEvolution, result_ty: IntegerType) -> SCEV:
    """``C(it, k)`` in ``result_ty``, exact modulo 2^W (LLVM ``BinomialCoefficient``)."""
    if k == 1:
        return se.get_truncate_or_zero_extend(it, result_ty)
    if k > _MAX_BINOMIAL_K:
        return se.get_could_not_compute()
    w = result_ty.width
    t = 1
    odd_factorial = 1
    for i in range(3, k + 1):
        two = (i & -i).bit_length() - 1
        t += two
        odd_factorial = (odd_factorial * (i >> two)) & ((1 << w) - 1)
    calc_bits = w + t
    # odd_factorial is odd, so it is invertible modulo 2^W.
    inverse = pow(odd_factorial, -1, 1 << w) if w > 0 else 0
    calc_ty = se._int_type(calc_bits)
    it_ty = it.type
    assert isinstance(it_ty, IntegerType)
    dividend = se.get_truncate_or_zero_extend(it, calc_ty)
    for i in range(1, k):
        s = se.get_minus_scev(it, se.get_constant(it_ty, i))
        dividend = se.get_mul_expr([dividend, se.get_truncate_or_zero_extend(s, calc_ty)])
    div_result = se.get_udiv_expr(dividend, se.get_constant(calc_ty, 1 << t))
    return se.get_mul_expr([se.get_constant(result_ty, inverse), se.get_truncate_or_zero_extend(div_result, result_ty)])


def evaluate_at_iteration(rec: SCEVAddRecExpr, it: SCEV, se: ScalarEvolution) -> SCEV:
    """The value of ``rec`` on iteration ``it`` (LLVM ``SCEVAddRecExpr::evaluateAtIteration``):
    sum of op[k] * C(it, k), or could-not-compute."""
    return evaluate_operands_at_iteration(list(rec.operands), it, se)


def evaluate_operands_at_iteration(ops: list[SCEV], it: SCEV, se: ScalarEvolution) -> SCEV:
    result = ops[0]
    ty = result.type
    if not isinstance(ty, IntegerType) or not isinstance(it.type, IntegerType):
        return se.get_could_not_compute()
    for i in range(1, len(ops)):
        coeff = _binomial_coefficient(it, i, se, ty)
        if isinstance(coeff, SCEVCouldNotCompute):
            return coeff
        result = se.get_add_expr([result, se.get_mul_expr([ops[i], coeff])])
    return result


# --- getSCEVAtScope ----------------------------------------------------------------------------
def _loop_contains(outer: Loop, inner: Loop | None) -> bool:
    return inner is not None and outer.contains(inner)


def get_scev_at_scope(se: ScalarEvolution, s: SCEV, loop: Loop | None) -> SCEV:
    """``s`` as seen from inside ``loop`` (None: outside every loop), memoized."""
    key = (s, loop)
    cached = se.values_at_scopes.get(key)
    if cached is not None:
        return cached
    # Guard against cycles through phis: the expression stands for itself while computing.
    se.values_at_scopes[key] = s
    result = _compute_scev_at_scope(se, s, loop)
    se.values_at_scopes[key] = result
    return result


def _compute_scev_at_scope(se: ScalarEvolution, s: SCEV, loop: Loop | None) -> SCEV:
    k = s.kind
    if k in (SCEVTypes.CONSTANT, SCEVTypes.VSCALE, SCEVTypes.COULD_NOT_COMPUTE):
        return s
    if isinstance(s, SCEVAddRecExpr):
        rec: SCEV = s
        new_ops = [get_scev_at_scope(se, op, loop) for op in s.operands]
        if any(a is not b for a, b in zip(new_ops, s.operands)):
            if any(isinstance(op, SCEVCouldNotCompute) for op in new_ops):
                return s
            rec = se.get_add_rec_expr(new_ops, s.loop, s.flags & FLAG_NW)
            if not isinstance(rec, SCEVAddRecExpr):
                return rec
        assert isinstance(rec, SCEVAddRecExpr)
        if not _loop_contains(rec.loop, loop):
            btc = se.get_backedge_taken_count(rec.loop)
            if isinstance(btc, SCEVCouldNotCompute):
                return rec
            return evaluate_at_iteration(rec, btc, se)
        return rec
    if isinstance(s, SCEVUnknown):
        return _unknown_at_scope(se, s, loop)
    # Casts, n-ary expressions and udiv: the operands at scope.
    new_ops = [get_scev_at_scope(se, op, loop) for op in s.operands]
    if all(a is b for a, b in zip(new_ops, s.operands)):
        return s
    if any(isinstance(op, SCEVCouldNotCompute) for op in new_ops):
        return s
    return _with_operands(se, s, new_ops)


def _with_operands(se: ScalarEvolution, s: SCEV, ops: list[SCEV]) -> SCEV:
    k = s.kind
    ty = s.type
    if k is SCEVTypes.TRUNCATE:
        assert ty is not None
        return se.get_truncate_expr(ops[0], ty)
    if k is SCEVTypes.ZERO_EXTEND:
        assert ty is not None
        return se.get_zero_extend_expr(ops[0], ty)
    if k is SCEVTypes.SIGN_EXTEND:
        assert ty is not None
        return se.get_sign_extend_expr(ops[0], ty)
    if k is SCEVTypes.ADD:
        return se.get_add_expr(ops, s.flags)
    if k is SCEVTypes.MUL:
        return se.get_mul_expr(ops, s.flags)
    if k is SCEVTypes.UDIV:
        return se.get_udiv_expr(ops[0], ops[1])
    if k is SCEVTypes.SEQ_UMIN:
        return se.get_umin_expr(ops, sequential=True)
    if k in (SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN):
        return se.get_min_max_expr(k, ops)
    return s


def _build_constant_from_scev(se: ScalarEvolution, s: SCEV) -> Any:
    """An IR constant equal to ``s``, or None (a subset of LLVM ``BuildConstantFromSCEV``)."""
    from llvmpy_mid.ir.constants import Constant

    if isinstance(s, SCEVConstant):
        return s.ir_value
    if isinstance(s, SCEVUnknown) and isinstance(s.value, Constant):
        return s.value
    return None


def _unknown_at_scope(se: ScalarEvolution, s: SCEVUnknown, loop: Loop | None) -> SCEV:
    from llvmpy_mid.analysis.constant_folding import constant_fold_inst_operands
    from llvmpy_mid.analysis.scalar_evolution_exit_limits import _FOLDABLE
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.binary import BinaryOperator
    from llvmpy_mid.ir.instructions.other import PHINode

    inst = s.value
    if not isinstance(inst, Instruction) or inst.parent is None:
        return s
    if isinstance(inst, PHINode):
        li = se.li.loop_for(inst.parent)
        if li is not None and li.parent_loop is loop and inst.parent is li.header:
            btc = se.get_backedge_taken_count(li)
            if btc.is_zero():
                init: Value | None = None
                multiple = False
                for i in range(inst.num_incoming):
                    if not li.contains(inst.get_incoming_block(i)):
                        v = inst.get_incoming_value(i)
                        if init is None:
                            init = v
                        elif init is not v:
                            multiple = True
                            break
                if not multiple and init is not None:
                    return se.get_scev(init)
            if not isinstance(btc, SCEVCouldNotCompute) and se.is_known_non_zero(btc) and inst.num_incoming == 2:
                in_loop = 0 if li.contains(inst.get_incoming_block(0)) else 1
                be_val = inst.get_incoming_value(in_loop)
                if not isinstance(be_val, Instruction) or not li.contains(be_val):
                    return se.get_scev(be_val)
            if isinstance(btc, SCEVConstant):
                rv = get_constant_evolution_loop_exit_value(se, inst, btc.value, li)
                if rv is not None:
                    return se.get_scev(rv)
    if not (isinstance(inst, BinaryOperator) or inst.opcode in _FOLDABLE):
        return s
    if se.data_layout is None:
        return s
    operands: list[Any] = []
    improved = False
    for op in inst.operands:
        if isinstance(op, Constant):
            operands.append(op)
            continue
        if not se.is_scevable(op.type):
            return s
        orig = se.get_scev(op)
        at = get_scev_at_scope(se, orig, loop)
        improved |= orig is not at
        c = _build_constant_from_scev(se, at)
        if c is None or c.type is not op.type:
            return s
        operands.append(c)
    if not improved:
        return s
    folded = constant_fold_inst_operands(inst, operands, se.data_layout, se.tli, False)
    if folded is None:
        return s
    return se.get_scev(folded)


def _same_constant(a: Any, b: Any) -> bool:
    if a is b:
        return True
    return isinstance(a, ConstantInt) and isinstance(b, ConstantInt) and a.type is b.type and a.value == b.value


def get_constant_evolution_loop_exit_value(se: ScalarEvolution, pn: Any, bes: int, loop: Loop) -> Any:
    """The constant value of header phi ``pn`` after ``bes`` backedges, by running the loop's
    constant-evolving phis (LLVM ``getConstantEvolutionLoopExitValue``), or None."""
    from llvmpy_mid.analysis.scalar_evolution_exit_limits import (
        MAX_BRUTE_FORCE_ITERATIONS,
        _evaluate_expression,
        constant_phi_starts,
    )
    from llvmpy_mid.ir.instructions.other import PHINode

    if bes > MAX_BRUTE_FORCE_ITERATIONS:
        return None
    cache_key = (pn, bes)
    if cache_key in se.constant_evolution_exit_values:
        return se.constant_evolution_exit_values[cache_key]
    se.constant_evolution_exit_values[cache_key] = None
    header = loop.header
    latch = loop.latch
    if latch is None or se.data_layout is None:
        return None
    current = constant_phi_starts(header, latch)
    if pn not in current:
        return None
    be_value = pn.incoming_value_for_block(latch)
    iteration = 0
    while True:
        if iteration == bes:
            result = current[pn]
            se.constant_evolution_exit_values[cache_key] = result
            return result
        nxt: dict[Value, Any] = {}
        next_pn = _evaluate_expression(be_value, loop, current, se.data_layout, se.tli)
        if next_pn is None:
            return None
        nxt[pn] = next_pn
        stopped = _same_constant(next_pn, current[pn])
        others = [(p, c) for p, c in current.items() if isinstance(p, PHINode) and p is not pn and p.parent is header]
        for phi, old in others:
            if phi not in nxt:
                nv = _evaluate_expression(phi.incoming_value_for_block(latch), loop, current, se.data_layout, se.tli)
                nxt[phi] = nv
            if not _same_constant(nxt[phi], old):
                stopped = False
        if stopped:
            result = current[pn]
            se.constant_evolution_exit_values[cache_key] = result
            return result
        current = {p: c for p, c in nxt.items() if c is not None}
        iteration += 1


# --- implication -------------------------------------------------------------------------------
_OUTCOMES = {
    Predicate.ICMP_EQ: (None, frozenset("=")),
    Predicate.ICMP_NE: (None, frozenset("<>")),
    Predicate.ICMP_ULT: (False, frozenset("<")),
    Predicate.ICMP_ULE: (False, frozenset("<=")),
    Predicate.ICMP_UGT: (False, frozenset(">")),
    Predicate.ICMP_UGE: (False, frozenset(">=")),
    Predicate.ICMP_SLT: (True, frozenset("<")),
    Predicate.ICMP_SLE: (True, frozenset("<=")),
    Predicate.ICMP_SGT: (True, frozenset(">")),
    Predicate.ICMP_SGE: (True, frozenset(">=")),
}


def _pred_implies(found: Predicate, pred: Predicate) -> bool:
    """``a found b`` implies ``a pred b`` for all a, b."""
    if found is pred:
        return True
    if found is Predicate.ICMP_EQ:
        return pred.is_true_when_equal
    if pred is Predicate.ICMP_NE:
        return found.is_false_when_equal
    fs, fo = _OUTCOMES[found]
    ps, po = _OUTCOMES[pred]
    return fs is not None and fs == ps and fo <= po


def _implied_by_icmp(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, fpred: Predicate, flhs: SCEV, frhs: SCEV
) -> bool:
    if flhs.type is not lhs.type:
        return False
    # Both compares canonicalized first (LLVM isImpliedCondBalancedTypes).
    from llvmpy_mid.analysis.scalar_evolution_exit_limits import _simplify_icmp_operands

    pred, lhs, rhs = _simplify_icmp_operands(se, pred, lhs, rhs)
    if lhs is rhs:
        return pred.is_true_when_equal
    fpred, flhs, frhs = _simplify_icmp_operands(se, fpred, flhs, frhs)
    if flhs is frhs:
        return fpred.is_false_when_equal
    # Constants to the right of both.
    if isinstance(lhs, SCEVConstant) and not isinstance(rhs, SCEVConstant):
        pred, lhs, rhs = pred.swapped, rhs, lhs
    if isinstance(flhs, SCEVConstant) and not isinstance(frhs, SCEVConstant):
        fpred, flhs, frhs = fpred.swapped, frhs, flhs
    if rhs is flhs and lhs is frhs:
        fpred, flhs, frhs = fpred.swapped, frhs, flhs
    if lhs is flhs and rhs is frhs:
        return _pred_implies(fpred, pred)
    if lhs is flhs and isinstance(rhs, SCEVConstant) and isinstance(frhs, SCEVConstant):
        w = rhs.bit_width
        allowed = ConstantRange.make_allowed_icmp_region(fpred, ConstantRange(w, frhs.value))
        satisfying = ConstantRange.make_satisfying_icmp_region(pred, ConstantRange(w, rhs.value))
        return satisfying.contains_range(allowed)
    # a < b (found) with lhs <= a and b <= rhs gives lhs < rhs (and the mirrored forms).
    if fpred is pred and pred.is_relational:
        if pred in (Predicate.ICMP_UGT, Predicate.ICMP_UGE, Predicate.ICMP_SGT, Predicate.ICMP_SGE):
            pred, lhs, rhs = pred.swapped, rhs, lhs
            flhs, frhs = frhs, flhs
        le = Predicate.ICMP_SLE if pred.is_signed else Predicate.ICMP_ULE
        return (lhs is flhs or _known_full(se, le, lhs, flhs)) and (rhs is frhs or _known_full(se, le, frhs, rhs))
    return False


def _known_full(se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
    """LLVM ``isImpliedCondOperandsHelper``'s ``IsKnownPredicateFull`` (without min/max):
    non-recursive reasoning, or two recurrences of one loop with one step and the matching
    no-wrap flag compared by their starts."""
    if se.is_known_via_non_recursive_reasoning(pred, lhs, rhs):
        return True
    if (
        isinstance(lhs, SCEVAddRecExpr)
        and isinstance(rhs, SCEVAddRecExpr)
        and lhs.loop is rhs.loop
        and lhs.is_affine()
        and rhs.is_affine()
        and lhs.operands[1] is rhs.operands[1]
    ):
        nw = 4 if pred.is_signed else 2
        if lhs.flags & nw and rhs.flags & nw:
            return se.is_known_predicate(pred, lhs.start, rhs.start)
    return False


def is_implied_cond(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, cond: Value, inverse: bool, depth: int = 0
) -> bool:
    """``lhs pred rhs`` follows from ``cond`` being true (false when ``inverse``)."""
    from llvmpy_mid.analysis.scalar_evolution_exit_limits import _logical_and_or
    from llvmpy_mid.ir.instructions.cmp import ICmpInst

    if depth > _MAX_IMPLIED_DEPTH:
        return False
    lo = _logical_and_or(cond)
    if lo is not None:
        is_and, a, b = lo
        if is_and != inverse:
            return is_implied_cond(se, pred, lhs, rhs, a, inverse, depth + 1) or is_implied_cond(
                se, pred, lhs, rhs, b, inverse, depth + 1
            )
        return False
    if not isinstance(cond, ICmpInst):
        return False
    a, b = cond.operands[0], cond.operands[1]
    if not se.is_scevable(a.type):
        return False
    fpred = cond.predicate.inverse if inverse else cond.predicate
    return _implied_by_icmp(se, pred, lhs, rhs, fpred, se.get_scev(a), se.get_scev(b))


def _branch_cond(bb: BasicBlock) -> Any:
    term = bb.terminator
    if term is None or term.opcode != "br" or len(term.operands) != 3:
        return None
    return term


def _predecessor_with_unique_successor(se: ScalarEvolution, bb: BasicBlock) -> tuple[BasicBlock | None, BasicBlock]:
    pred = bb.single_predecessor
    if pred is not None:
        return pred, bb
    loop = se.li.loop_for(bb)
    if loop is not None and loop.header is bb:
        return loop.loop_predecessor, bb
    return None, bb


def is_basic_block_entry_guarded_by_cond(se: ScalarEvolution, bb: BasicBlock, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
    """A conditional branch on the chain of unique predecessors into ``bb`` implies the
    predicate (LLVM ``isBasicBlockEntryGuardedByCond``, branches only)."""
    if not se.dt.is_reachable(bb):
        return False
    if se.is_known_via_non_recursive_reasoning(pred, lhs, rhs):
        return True
    loop = se.li.loop_for(bb)
    pbb: BasicBlock | None
    if loop is not None and loop.header is bb:
        pbb = loop.loop_predecessor
    else:
        pbb = bb.single_predecessor
    cur = bb
    seen: set[BasicBlock] = set()
    while pbb is not None and pbb not in seen:
        seen.add(pbb)
        term = _branch_cond(pbb)
        if term is not None:
            succ0 = term.successors[0]
            succ1 = term.successors[1]
            if succ0 is not succ1 and is_implied_cond(se, pred, lhs, rhs, term.operands[0], succ0 is not cur):
                return True
        pbb, cur = _predecessor_with_unique_successor(se, pbb)
    return False


def is_loop_backedge_guarded_by_cond(se: ScalarEvolution, loop: Loop, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
    """``lhs pred rhs`` holds whenever the backedge of ``loop`` is taken (LLVM
    ``isLoopBackedgeGuardedByCond``: the latch's branch and the single-edge conditions
    dominating it inside the loop)."""
    if not se.dt.is_reachable(loop.header):
        return True
    if se.is_known_via_non_recursive_reasoning(pred, lhs, rhs):
        return True
    latch = loop.latch
    if latch is None:
        return False
    term = _branch_cond(latch)
    if term is not None and is_implied_cond(se, pred, lhs, rhs, term.operands[0], term.successors[0] is not loop.header):
        return True
    if se.walking_be_dominating_conds:
        return False
    se.walking_be_dominating_conds = True
    try:
        # The latch branches back exactly count times: "{0,+,1} u< count" holds on the backedge.
        count = se.get_exit_count(loop, latch)
        if not isinstance(count, SCEVCouldNotCompute) and isinstance(count.type, IntegerType):
            counter = se.get_add_rec_expr([se.get_zero(count.type), se.get_one(count.type)], loop, 2 | FLAG_NW)
            if lhs.type is count.type and _implied_by_icmp(se, pred, lhs, rhs, Predicate.ICMP_ULT, counter, count):
                return True
        bb: BasicBlock | None = latch
        while bb is not None and bb is not loop.header:
            pbb = bb.single_predecessor
            if pbb is not None:
                t = _branch_cond(pbb)
                if t is not None and t.successors[0] is not t.successors[1]:
                    if is_implied_cond(se, pred, lhs, rhs, t.operands[0], bb is not t.successors[0]):
                        return True
            bb = se.dt.idom(bb)
    finally:
        se.walking_be_dominating_conds = False
    return False


# --- isKnownViaInduction -----------------------------------------------------------------------
def _init_or_post_inc(se: ScalarEvolution, s: SCEV, loop: Loop, post: bool) -> SCEV | None:
    """LLVM ``SCEVInitRewriter``/``SCEVPostIncRewriter``: ``s`` with the recurrences of
    ``loop`` replaced by their start (or post-increment value); None when ``s`` uses values
    varying in the loop otherwise."""
    memo: dict[SCEV, SCEV] = {}
    stack: list[tuple[SCEV, bool]] = [(s, False)]
    while stack:
        cur, ready = stack.pop()
        if cur in memo:
            continue
        if isinstance(cur, SCEVAddRecExpr):
            if cur.loop is not loop:
                return None
            memo[cur] = se.get_add_expr([cur, step_recurrence(se, cur)]) if post else cur.start
            continue
        if isinstance(cur, SCEVUnknown):
            if not se.is_loop_invariant(cur, loop):
                return None
            memo[cur] = cur
            continue
        if not cur.operands:
            memo[cur] = cur
            continue
        if not ready:
            stack.append((cur, True))
            stack.extend((o, False) for o in cur.operands if o not in memo)
            continue
        ops = [memo[o] for o in cur.operands]
        memo[cur] = cur if all(a is b for a, b in zip(ops, cur.operands)) else _with_operands(se, cur, ops)
    return memo[s]


def _used_loops(s: SCEV) -> set[Loop]:
    from llvmpy_mid.analysis.scalar_evolution_expressions import walk_scev

    return {n.loop for n in walk_scev(s) if isinstance(n, SCEVAddRecExpr)}


def is_known_via_induction(se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
    """LLVM ``isKnownViaInduction``: the predicate holds on entry to the innermost loop used
    and whenever its backedge is taken, for the post-increment values."""
    loops = _used_loops(lhs) | _used_loops(rhs)
    if not loops:
        return False
    mdl: Loop | None = None
    for lp in loops:
        if mdl is None or se.dt.properly_dominates(mdl.header, lp.header):
            mdl = lp
    assert mdl is not None
    for lp in loops:
        if lp is not mdl and not se.dt.dominates_block(lp.header, mdl.header):
            return False
    lhs_init = _init_or_post_inc(se, lhs, mdl, False)
    rhs_init = _init_or_post_inc(se, rhs, mdl, False)
    if lhs_init is None or rhs_init is None:
        return False
    lhs_post = _init_or_post_inc(se, lhs, mdl, True)
    rhs_post = _init_or_post_inc(se, rhs, mdl, True)
    assert lhs_post is not None and rhs_post is not None
    if not se.is_available_at_loop_entry(lhs_init, mdl) or not se.is_available_at_loop_entry(rhs_init, mdl):
        return False
    return is_loop_backedge_guarded_by_cond(se, mdl, pred, lhs_post, rhs_post) and se.is_loop_entry_guarded_by_cond(
        mdl, pred, lhs_init, rhs_init
    )


# --- loop-invariant predicates -----------------------------------------------------------------
def get_monotonic_predicate_type(se: ScalarEvolution, lhs: SCEVAddRecExpr, pred: Predicate) -> int | None:
    if not pred.is_relational:
        return None
    greater = pred in (Predicate.ICMP_UGT, Predicate.ICMP_UGE, Predicate.ICMP_SGT, Predicate.ICMP_SGE)
    if pred.is_unsigned:
        if not lhs.has_flags(2):
            return None
        return MONOTONICALLY_INCREASING if greater else MONOTONICALLY_DECREASING
    if not lhs.has_flags(4):
        return None
    step = step_recurrence(se, lhs)
    if se.is_known_non_negative(step):
        return MONOTONICALLY_INCREASING if greater else MONOTONICALLY_DECREASING
    if se.is_known_non_positive(step):
        return MONOTONICALLY_DECREASING if greater else MONOTONICALLY_INCREASING
    return None


def step_recurrence(se: ScalarEvolution, rec: SCEVAddRecExpr) -> SCEV:
    """LLVM ``getStepRecurrence``: the step for affine recurrences, else the recurrence of the
    remaining operands."""
    if rec.is_affine():
        return rec.operands[1]
    return se.get_add_rec_expr(list(rec.operands[1:]), rec.loop)


def get_loop_invariant_predicate(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, loop: Loop, ctx: Instruction | None
) -> tuple[Predicate, SCEV, SCEV] | None:
    if not se.is_loop_invariant(rhs, loop):
        if not se.is_loop_invariant(lhs, loop):
            return None
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    if not isinstance(lhs, SCEVAddRecExpr) or lhs.loop is not loop:
        return None
    mono = get_monotonic_predicate_type(se, lhs, pred)
    if mono is None:
        return None
    p = pred if mono == MONOTONICALLY_INCREASING else pred.inverse
    if is_loop_backedge_guarded_by_cond(se, loop, p, lhs, rhs):
        return (pred, lhs.start, rhs)
    if ctx is None:
        return None
    if pred in (Predicate.ICMP_ULE, Predicate.ICMP_ULT):
        if (
            lhs.has_flags(4)
            and lhs.is_affine()
            and se.is_known_positive(lhs.operands[1])
            and se.is_known_non_negative(rhs)
            and se.is_known_predicate_at(pred.flipped_signedness, lhs, rhs, ctx)
        ):
            return (pred, lhs.start, rhs)
    return None


def _exit_cond_first_iterations_impl(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, loop: Loop, ctx: Instruction, max_iter: SCEV
) -> tuple[Predicate, SCEV, SCEV] | None:
    if not se.is_loop_invariant(rhs, loop):
        if not se.is_loop_invariant(lhs, loop):
            return None
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    if not isinstance(lhs, SCEVAddRecExpr) or lhs.loop is not loop:
        return None
    if not pred.is_relational:
        return None
    step = step_recurrence(se, lhs)
    ty = step.type
    if not isinstance(ty, IntegerType):
        return None
    one = se.get_one(ty)
    minus_one = se.get_minus_one(ty)
    if step is not one and step is not minus_one:
        return None
    if lhs.type is not max_iter.type:
        return None
    last = evaluate_at_iteration(lhs, max_iter, se)
    if isinstance(last, SCEVCouldNotCompute):
        return None
    if not is_loop_backedge_guarded_by_cond(se, loop, pred, last, rhs):
        return None
    no_overflow = Predicate.ICMP_SLE if pred.is_signed else Predicate.ICMP_ULE
    if step is minus_one:
        no_overflow = no_overflow.swapped
    start = lhs.start
    if not se.is_known_predicate_at(no_overflow, start, last, ctx):
        return None
    return (pred, start, rhs)


def get_loop_invariant_exit_cond_during_first_iterations(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, loop: Loop, ctx: Instruction, max_iter: SCEV
) -> tuple[Predicate, SCEV, SCEV] | None:
    res = _exit_cond_first_iterations_impl(se, pred, lhs, rhs, loop, ctx, max_iter)
    if res is not None:
        return res
    if max_iter.kind is SCEVTypes.UMIN:
        for op in max_iter.operands:
            res = _exit_cond_first_iterations_impl(se, pred, lhs, rhs, loop, ctx, op)
            if res is not None:
                return res
    return None
