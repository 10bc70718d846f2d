"""Linear function test replacement of ``indvars``: a countable loop exit test becomes an
``eq``/``ne`` comparison of a unit-stride counter with its value on the exiting iteration
(LLVM 19.1.7 ``lib/Transforms/Scalar/IndVarSimplify.cpp``: ``getLoopPhiForCounter``,
``isLoopExitTestBasedOn``, ``needsLFTR``, ``hasConcreteDef``, ``isLoopCounter``,
``FindLoopCounter``, ``genLoopLimit``, ``linearFunctionTestReplace`` and the LFTR loop of
``IndVarSimplify::run``).
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NSW,
    FLAG_NUW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, UndefValue
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.ir.value import Value

__all__ = [
    "evaluate_at_iteration",
    "find_loop_counter",
    "gen_loop_limit",
    "get_loop_phi_for_counter",
    "has_concrete_def",
    "is_loop_counter",
    "is_loop_exit_test_based_on",
    "linear_function_test_replace",
    "must_execute_ub_if_poison_on_path_to",
    "needs_lftr",
    "run_lftr",
]


def _invariant(loop: Loop, v: Value) -> bool:
    return not isinstance(v, Instruction) or not loop.contains(v)


def get_loop_phi_for_counter(inc_v: Value, loop: Loop) -> PHINode | None:
    """LLVM ``getLoopPhiForCounter``: the header phi ``inc_v`` adds a loop-invariant to
    (``add``/``sub`` in either order, a two-operand ``getelementptr`` with the phi first)."""
    if not isinstance(inc_v, Instruction):
        return None
    op = inc_v.opcode
    if op not in ("add", "sub") and not (op == "getelementptr" and inc_v.num_operands == 2):
        return None
    ops = inc_v.operands
    phi = ops[0]
    if isinstance(phi, PHINode) and phi.parent is loop.header:
        return phi if _invariant(loop, ops[1]) else None
    if op == "getelementptr":
        return None
    phi = ops[1]
    if isinstance(phi, PHINode) and phi.parent is loop.header and _invariant(loop, ops[0]):
        return phi
    return None


def is_loop_exit_test_based_on(v: Value, exiting: BasicBlock) -> bool:
    """LLVM ``isLoopExitTestBasedOn``: the exit branch's ``icmp`` has ``v`` as an operand."""
    bi = exiting.terminator
    if not isinstance(bi, BranchInst) or not bi.is_conditional:
        return False
    icmp = bi.condition
    if not isinstance(icmp, ICmpInst):
        return False
    return icmp.operands[0] is v or icmp.operands[1] is v


def needs_lftr(loop: Loop, exiting: BasicBlock) -> bool:
    """LLVM ``needsLFTR``: false only for an invariant test or an ``eq``/``ne`` of a simple
    counter (or its increment) with a loop-invariant value."""
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    if not bi.is_conditional or _invariant(loop, bi.condition):
        return False
    cond = bi.condition
    if not isinstance(cond, ICmpInst):
        return True
    if cond.predicate not in (Predicate.ICMP_NE, Predicate.ICMP_EQ):
        return True
    lhs, rhs = cond.operands[0], cond.operands[1]
    if not _invariant(loop, rhs):
        if not _invariant(loop, lhs):
            return True
        lhs, rhs = rhs, lhs
    phi = lhs if isinstance(lhs, PHINode) else get_loop_phi_for_counter(lhs, loop)
    if phi is None:
        return True
    latch = loop.latch
    assert latch is not None
    idx = phi.basic_block_index(latch)
    if idx < 0:
        return True
    return phi is not get_loop_phi_for_counter(phi.get_incoming_value(idx), loop)


def has_concrete_def(v: Value) -> bool:
    """LLVM ``hasConcreteDef``: no undef can reach ``v`` (constants that are not undef,
    instructions neither reading memory nor calls, up to depth 6)."""
    visited: set[Value] = {v}
    # Explicit stack of (value, depth); every operand must be concrete.
    stack: list[tuple[Value, int]] = [(v, 0)]
    while stack:
        cur, depth = stack.pop()
        if isinstance(cur, Constant):
            if isinstance(cur, UndefValue):
                return False
            continue
        if depth >= 6:
            return False
        if not isinstance(cur, Instruction):
            return False
        if cur.may_read_from_memory() or cur.opcode in ("call", "invoke"):
            return False
        for op in cur.operands:
            if op in visited:
                continue
            visited.add(op)
            stack.append((op, depth + 1))
    return True


def _step(ar: SCEVAddRecExpr) -> SCEV:
    return ar.operands[1]


def is_loop_counter(phi: PHINode, loop: Loop, se: Any) -> bool:
    """LLVM ``isLoopCounter``: an affine recurrence of ``loop`` with step one whose latch
    input is its own increment."""
    if not se.is_scevable(phi.type):
        return False
    ar = se.get_scev(phi)
    if not isinstance(ar, SCEVAddRecExpr) or ar.loop is not loop or not ar.is_affine():
        return False
    step = _step(ar)
    if not isinstance(step, SCEVConstant) or not step.is_one():
        return False
    latch = loop.latch
    assert latch is not None
    idx = phi.basic_block_index(latch)
    if idx < 0:
        return False
    inc_v = phi.get_incoming_value(idx)
    return get_loop_phi_for_counter(inc_v, loop) is phi and isinstance(se.get_scev(inc_v), SCEVAddRecExpr)


def must_execute_ub_if_poison_on_path_to(root: Instruction, on_path_to: Instruction, dt: Any) -> bool:
    """LLVM ``mustExecuteUBIfPoisonOnPathTo``: assuming ``root`` is poison and following the
    users poison propagates through, some user that must trigger UB dominates ``on_path_to``."""
    from llvmpy_mid.analysis.poison_tracking import must_trigger_ub, propagates_poison

    known_poison: set[Value] = set()
    worklist: list[Instruction] = [root]
    while worklist:
        inst = worklist.pop()
        if must_trigger_ub(inst, known_poison) and dt.dominates(inst, on_path_to):
            return True
        if inst is not root and not any(
            u.value in known_poison and propagates_poison(u) for u in inst.operand_uses
        ):
            continue
        if inst not in known_poison:
            known_poison.add(inst)
            for user in inst.users:
                if isinstance(user, Instruction):
                    worklist.append(user)
    return False


def _is_almost_dead_iv(phi: PHINode, latch: BasicBlock, cond: Value) -> bool:
    """LLVM ``isAlmostDeadIV``: the phi and its increment are used only by each other and
    the exit condition."""
    inc_v = phi.incoming_value_for_block(latch)
    if any(user is not cond and user is not inc_v for user in phi.users):
        return False
    return all(user is cond or user is phi for user in inc_v.users)


def find_loop_counter(loop: Loop, exiting: BasicBlock, be_count: SCEV, se: Any, dt: Any) -> PHINode | None:
    """LLVM ``FindLoopCounter``: the best header counter at least as wide as the count (a
    legal width), preferring a dead-but-for-the-test counter, a zero start and the widest."""
    bc_width = se.get_type_size_in_bits(be_count.type)
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    cond = bi.condition
    best_phi: PHINode | None = None
    best_init: SCEV | None = None
    latch = loop.latch
    assert latch is not None
    fn = loop.header.parent
    module = fn.parent if fn is not None else None
    assert module is not None
    dl = module.data_layout
    term = exiting.terminator
    assert term is not None
    for phi in list(loop.header.phis()):
        if not is_loop_counter(phi, loop, se):
            continue
        ar = se.get_scev(phi)
        assert isinstance(ar, SCEVAddRecExpr)
        phi_width = se.get_type_size_in_bits(ar.type)
        if phi_width < bc_width or not dl.is_legal_integer(phi_width):
            continue
        if not has_concrete_def(phi):
            inc_phi = phi.incoming_value_for_block(latch)
            if not is_loop_exit_test_based_on(phi, exiting) and not is_loop_exit_test_based_on(inc_phi, exiting):
                continue
        if not isinstance(phi.type, IntegerType) and not must_execute_ub_if_poison_on_path_to(phi, term, dt):
            continue
        init = ar.start
        if best_phi is not None and not _is_almost_dead_iv(best_phi, latch, cond):
            if _is_almost_dead_iv(phi, latch, cond):
                continue
            assert best_init is not None
            if best_init.is_zero() != init.is_zero():
                if best_init.is_zero():
                    continue
            elif phi_width <= se.get_type_size_in_bits(best_phi.type):
                continue
        best_phi = phi
        best_init = init
    return best_phi


def evaluate_at_iteration(ar: SCEVAddRecExpr, it: SCEV, se: Any) -> SCEV:
    """``SCEVAddRecExpr::evaluateAtIteration``: ScalarEvolution's when it has one, else the
    affine closed form ``start + step * it``."""
    method = getattr(se, "evaluate_at_iteration", None)
    if method is not None:
        return method(ar, it)  # type: ignore[no-any-return]
    assert ar.is_affine()
    coeff = se.get_truncate_or_zero_extend(it, ar.type)
    return se.get_add_expr([ar.start, se.get_mul_expr([_step(ar), coeff])])  # type: ignore[no-any-return]


def _post_inc(ar: SCEVAddRecExpr, se: Any) -> SCEVAddRecExpr:
    """``SCEVAddRecExpr::getPostIncExpr``: the recurrence plus its step."""
    method = getattr(ar, "get_post_inc_expr", None)
    res = method(se) if method is not None else se.get_add_expr([ar, _step(ar)])
    assert isinstance(res, SCEVAddRecExpr)
    return res


def gen_loop_limit(
    ind_var: PHINode, exiting: BasicBlock, exit_count: SCEV, use_post_inc: bool, loop: Loop, rewriter: Any, se: Any
) -> Value:
    """LLVM ``genLoopLimit``: the counter's value after ``exit_count`` backedges (post- or
    pre-increment), computed in the count's width when the counter is wider and either its
    start or the count is not constant."""
    ar = se.get_scev(ind_var)
    assert isinstance(ar, SCEVAddRecExpr)
    if isinstance(ind_var.type, IntegerType) and se.get_type_size_in_bits(ar.type) > se.get_type_size_in_bits(
        exit_count.type
    ):
        if not isinstance(ar.start, SCEVConstant) or not isinstance(exit_count, SCEVConstant):
            tr = se.get_truncate_expr(ar, exit_count.type)
            assert isinstance(tr, SCEVAddRecExpr)
            ar = tr
    ar_base = _post_inc(ar, se) if use_post_inc else ar
    iv_limit = evaluate_at_iteration(ar_base, exit_count, se)
    term = exiting.terminator
    assert term is not None
    return rewriter.expand_code_for(iv_limit, ar_base.type, term)  # type: ignore[no-any-return]


def linear_function_test_replace(
    ivs: Any, loop: Loop, exiting: BasicBlock, exit_count: SCEV, ind_var: PHINode, rewriter: Any
) -> bool:
    """LLVM ``IndVarSimplify::linearFunctionTestReplace``."""
    from llvmpy_mid.transform.scalar.loop_deletion import make_loop_invariant

    se = ivs.se
    latch = loop.latch
    assert latch is not None
    inc_var = ind_var.incoming_value_for_block(latch)
    assert isinstance(inc_var, Instruction)
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    cmp_ind_var: Value = ind_var
    use_post_inc = False
    if exiting is latch:
        safe = (
            isinstance(ind_var.type, IntegerType)
            or is_loop_exit_test_based_on(inc_var, exiting)
            or must_execute_ub_if_poison_on_path_to(inc_var, bi, ivs.dt)
        )
        if safe:
            use_post_inc = True
            cmp_ind_var = inc_var
    if isinstance(inc_var, BinaryOperator):
        ar = se.get_scev(inc_var)
        if isinstance(ar, SCEVAddRecExpr):
            if inc_var.nuw:
                inc_var.nuw = ar.has_flags(FLAG_NUW)
            if inc_var.nsw:
                inc_var.nsw = ar.has_flags(FLAG_NSW)

    exit_cnt = gen_loop_limit(ind_var, exiting, exit_count, use_post_inc, loop, rewriter, se)
    pred = Predicate.ICMP_NE if loop.contains(bi.successors[0]) else Predicate.ICMP_EQ
    builder = IRBuilder(before=bi, folder=ConstantFolder())
    orig_cond = bi.condition
    if isinstance(orig_cond, Instruction):
        builder.debug_loc = orig_cond.debug_loc
    cmp_size = se.get_type_size_in_bits(cmp_ind_var.type)
    exit_size = se.get_type_size_in_bits(exit_cnt.type)
    if cmp_size > exit_size:
        extended = False
        iv = se.get_scev(cmp_ind_var)
        truncated = se.get_truncate_expr(iv, exit_cnt.type)
        if se.get_zero_extend_expr(truncated, cmp_ind_var.type) is iv:
            extended = True
            exit_cnt = builder.create_zext(exit_cnt, ind_var.type, "wide.trip.count")
        elif se.get_sign_extend_expr(truncated, cmp_ind_var.type) is iv:
            extended = True
            exit_cnt = builder.create_sext(exit_cnt, ind_var.type, "wide.trip.count")
        if extended:
            preheader = loop.preheader
            if preheader is not None and preheader.terminator is not None:
                make_loop_invariant(loop, exit_cnt, preheader.terminator, None)
        else:
            cmp_ind_var = builder.create_trunc(cmp_ind_var, exit_cnt.type, "lftr.wideiv")
    cond = builder.create_icmp(pred, cmp_ind_var, exit_cnt, "exitcond")
    bi.condition = cond
    ivs.dead_insts.append(orig_cond)
    return True


def _exit_count(se: Any, loop: Loop, exiting: BasicBlock) -> SCEV:
    return se.get_exit_count(loop, exiting)  # type: ignore[no-any-return]


def run_lftr(ivs: Any, loop: Loop, rewriter: Any, budget: int) -> int:
    """The LFTR loop of ``IndVarSimplify::run``: the number of exit tests rewritten."""
    from llvmpy_mid.transform.scalar.ind_var_simplify_exits import is_safe_to_expand_with

    se = ivs.se
    preheader = loop.preheader
    assert preheader is not None
    pre_term = preheader.terminator
    assert pre_term is not None
    count = 0
    for exiting in loop.exiting_blocks:
        bi = exiting.terminator
        if not isinstance(bi, BranchInst):
            continue
        if ivs.li.loop_for(exiting) is not loop:
            continue
        if not needs_lftr(loop, exiting):
            continue
        exit_count = _exit_count(se, loop, exiting)
        if isinstance(exit_count, SCEVCouldNotCompute):
            continue
        if exit_count.is_zero():
            continue
        ind_var = find_loop_counter(loop, exiting, exit_count, se, ivs.dt)
        if ind_var is None:
            continue
        if rewriter.is_high_cost_expansion([exit_count], loop, budget, ivs.tti, pre_term):
            continue
        if not is_safe_to_expand_with(rewriter, exit_count, se):
            continue
        if linear_function_test_replace(ivs, loop, exiting, exit_count, ind_var, rewriter):
            count += 1
    return count
