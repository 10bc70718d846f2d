"""``loop-deletion``: delete loops that compute nothing used, and break backedges that are never
taken (LLVM 19.1.7 ``lib/Transforms/Scalar/LoopDeletion.cpp``).

What, per loop (innermost first, as the loop adaptor visits them):

1. :func:`delete_loop_if_dead` — a loop in simplified form (preheader, dedicated exits) whose
   exit is not an EH pad is deleted when it is never entered (every predecessor of the
   preheader branches on a constant away from it; exit phis become poison), or when it has at
   most one exit block, every value leaving it is loop-invariant (hoisting invariant
   computations to the preheader if need be), nothing in it has side effects, and it must end
   (the function is ``mustprogress``, or the loop and all its sub-loops are ``mustprogress`` or
   have a computable constant maximum trip count and there is no irreducible cycle).
2. Otherwise :func:`break_backedge_if_not_taken` — when ScalarEvolution's constant maximum or
   exact backedge-taken count is zero, or a symbolic execution of the first iteration
   (:func:`can_prove_exit_on_first_iteration`, ``-loop-deletion-enable-symbolic-execution``)
   shows the latch is not reached, the backedge is removed and the loop is no longer a loop.

Statistics ``NumDeleted`` and ``NumBackedgesBroken`` (``loop-delete``), remarks ``NeverExecutes``
and ``Invariant``. The pass keeps the loop analyses, ScalarEvolution and (under ``loop-mssa``)
MemorySSA.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, ClassVar

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.loop_iterator import loop_blocks_rpo
from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVCouldNotCompute
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.droppable_uses import is_droppable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.loop_utils import (
    break_loop_backedge,
    contains_irreducible_cfg,
    delete_dead_loop,
    function_must_progress,
    has_must_progress,
)

__all__ = [
    "LoopDeletionPass",
    "LoopDeletionResult",
    "break_backedge_if_not_taken",
    "can_prove_exit_on_first_iteration",
    "delete_loop_if_dead",
]

DEBUG_TYPE = "loop-delete"
NUM_DELETED = Statistic(DEBUG_TYPE, "NumDeleted", "Number of loops deleted")
NUM_BACKEDGES_BROKEN = Statistic(DEBUG_TYPE, "NumBackedgesBroken", "Number of loops for which we managed to break the backedge")


class LoopDeletionResult(IntEnum):
    UNMODIFIED = 0
    MODIFIED = 1
    DELETED = 2


def _merge(a: LoopDeletionResult, b: LoopDeletionResult) -> LoopDeletionResult:
    return LoopDeletionResult(max(a, b))


def make_loop_invariant(loop: Loop, v: Value, insert_pt: Instruction, se: ScalarEvolution | None) -> tuple[bool, bool]:
    """LLVM ``Loop::makeLoopInvariant``: ``(invariant, changed)``; hoists ``v`` and its
    operands (safe to speculate, not reading memory, not EH pads) before ``insert_pt``."""
    from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute

    changed = False
    # Explicit stack: (instruction, operands checked).
    if not isinstance(v, Instruction) or not loop.contains(v):
        return True, False
    stack: list[tuple[Instruction, bool]] = [(v, False)]
    on_stack: set[Instruction] = set()
    while stack:
        inst, ready = stack.pop()
        if not loop.contains(inst):
            continue
        if not ready:
            if inst in on_stack:
                return False, changed
            if (
                not is_safe_to_speculatively_execute(inst)
                or inst.may_read_from_memory()
                or inst.is_eh_pad
            ):
                return False, changed
            on_stack.add(inst)
            stack.append((inst, True))
            for op in reversed(list(inst.operands)):
                if isinstance(op, Instruction) and loop.contains(op):
                    stack.append((op, False))
            continue
        # Operands are invariant now (a failure returned above).
        if any(isinstance(op, Instruction) and loop.contains(op) for op in inst.operands):
            return False, changed
        inst.move_before(insert_pt)
        inst.drop_unknown_non_debug_metadata()
        if se is not None:
            se.forget_block_and_loop_dispositions(inst)
        changed = True
    return True, changed


def is_loop_dead(
    loop: Loop,
    se: ScalarEvolution,
    exiting_blocks: list[BasicBlock],
    exit_block: BasicBlock | None,
    preheader: BasicBlock,
    li: LoopInfo,
) -> tuple[bool, bool]:
    """LLVM ``isLoopDead``: ``(dead, changed)``."""
    changed = False
    all_invariant = True
    all_same = True
    if exit_block is not None:
        term = preheader.terminator
        assert term is not None
        for phi in list(exit_block.phis()):
            incoming = phi.incoming_value_for_block(exiting_blocks[0])
            all_same = all(phi.incoming_value_for_block(bb) is incoming for bb in exiting_blocks[1:])
            if not all_same:
                break
            if isinstance(incoming, Instruction):
                ok, ch = make_loop_invariant(loop, incoming, term, se)
                changed = changed or ch
                if not ok:
                    all_invariant = False
                    break
    if not all_invariant or not all_same:
        return False, changed
    for bb in loop.blocks:
        for inst in bb.instructions:
            if inst.may_have_side_effects() and not is_droppable(inst):
                return False, changed
    fn = loop.header.parent
    assert fn is not None
    if function_must_progress(fn):
        return True, changed
    if contains_irreducible_cfg(loop_blocks_rpo(loop), li):
        return False, changed
    worklist = [loop]
    while worklist:
        cur = worklist.pop()
        if has_must_progress(cur):
            continue
        if isinstance(se.get_constant_max_backedge_taken_count(cur), SCEVCouldNotCompute):
            return False, changed
        worklist.extend(cur.sub_loops)
    return True, changed


def is_loop_never_executed(loop: Loop) -> bool:
    """LLVM ``isLoopNeverExecuted``: every predecessor of the preheader branches on a constant
    to somewhere else."""
    preheader = loop.preheader
    assert preheader is not None
    if preheader.is_entry_block:
        return False
    preds = preheader.predecessors
    for pred in preds:
        term = pred.terminator
        if not isinstance(term, BranchInst) or not term.is_conditional:
            return False
        cond = term.condition
        if not isinstance(cond, ConstantInt):
            return False
        succs = term.successors
        taken = succs[0] if cond.value else succs[1]
        if taken is preheader:
            return False
    return bool(preds)


def _value_on_first_iteration(v: Value, first: dict[Value, Value], sq: SimplifyQuery) -> Value:
    """LLVM ``getValueOnFirstIteration`` (explicit stack instead of recursion)."""
    from llvmpy_mid.analysis.instruction_simplify import simplify_binop, simplify_icmp_inst

    if not isinstance(v, Instruction):
        return v
    known = first.get(v)
    if known is not None:
        return known
    stack: list[tuple[Value, bool]] = [(v, False)]
    while stack:
        cur, ready = stack.pop()
        if not isinstance(cur, Instruction) or cur in first:
            continue
        if isinstance(cur, (BinaryOperator, ICmpInst)):
            ops = cur.operands
            if not ready:
                stack.append((cur, True))
                stack.extend((o, False) for o in reversed(list(ops)))
                continue
            lhs = _first_of(ops[0], first)
            rhs = _first_of(ops[1], first)
            if isinstance(cur, BinaryOperator):
                res = simplify_binop(cur.opcode, lhs, rhs, sq)
            else:
                res = simplify_icmp_inst(cur.predicate, lhs, rhs, sq)
            first[cur] = res if res is not None else cur
        elif cur.opcode == "select":
            cond_v, true_v, false_v = cur.operands
            if not ready:
                if isinstance(cond_v, Instruction) and cond_v not in first:
                    stack.append((cur, False))
                    stack.append((cond_v, False))
                    continue
                c = _first_of(cond_v, first)
                if isinstance(c, ConstantInt):
                    chosen = true_v if c.is_all_ones_value else false_v
                    if isinstance(chosen, Instruction) and chosen not in first:
                        stack.append((cur, True))
                        stack.append((chosen, False))
                        continue
                    first[cur] = _first_of(chosen, first)
                else:
                    first[cur] = cur
            else:
                c = _first_of(cond_v, first)
                assert isinstance(c, ConstantInt)
                chosen = true_v if c.is_all_ones_value else false_v
                first[cur] = _first_of(chosen, first)
        else:
            first[cur] = cur
    return first[v]


def _first_of(v: Value, first: dict[Value, Value]) -> Value:
    if not isinstance(v, Instruction):
        return v
    return first.get(v, v)


def can_prove_exit_on_first_iteration(loop: Loop, dt: Any, li: LoopInfo) -> bool:
    """LLVM ``canProveExitOnFirstIteration``: a symbolic execution of the first iteration (in
    reverse post-order, phis of blocks with one live input replaced by it, branches on
    conditions that simplify to constants followed one way) never reaches the latch's
    backedge."""
    if not OPTIONS.value("loop-deletion-enable-symbolic-execution"):
        return False
    predecessor = loop.loop_predecessor
    latch = loop.latch
    if predecessor is None or latch is None:
        return False
    rpo = loop_blocks_rpo(loop)
    if contains_irreducible_cfg(rpo, li):
        return False
    header = loop.header
    live_blocks: set[BasicBlock] = {header}
    live_edges: set[tuple[BasicBlock, BasicBlock]] = set()

    def mark_live_edge(src: BasicBlock, dst: BasicBlock) -> None:
        live_blocks.add(dst)
        live_edges.add((src, dst))

    def mark_all_successors_live(bb: BasicBlock) -> None:
        for succ in bb.successors:
            mark_live_edge(bb, succ)

    def sole_input_on_first_iteration(pn: PHINode) -> Value | None:
        bb = pn.parent
        assert bb is not None
        if bb is header:
            return pn.incoming_value_for_block(predecessor)
        only: Value | None = None
        for pred in bb.predecessors:
            if (pred, bb) in live_edges:
                incoming = pn.incoming_value_for_block(pred)
                if isinstance(incoming, PoisonValue):
                    continue
                if only is not None and only is not incoming:
                    return None
                only = incoming
        return only if only is not None else PoisonValue.get(pn.type)

    first: dict[Value, Value] = {}
    module = header.parent.parent if header.parent is not None else None
    assert module is not None
    sq = SimplifyQuery(module.data_layout)
    for bb in rpo:
        if bb not in live_blocks:
            continue
        if li.loop_for(bb) is not loop:
            mark_all_successors_live(bb)
            continue
        term = bb.terminator
        assert term is not None
        for pn in list(bb.phis()):
            if not pn.type.is_integer:
                continue
            incoming = sole_input_on_first_iteration(pn)
            if incoming is not None and dt.dominates(incoming, term):
                first[pn] = _value_on_first_iteration(incoming, first, sq)
        if isinstance(term, BranchInst) and term.is_conditional:
            cond = term.condition
            if_true, if_false = term.successors[0], term.successors[1]
            if not isinstance(cond, ICmpInst) or not cond.type.is_integer:
                mark_all_successors_live(bb)
                continue
            known = _value_on_first_iteration(cond, first, sq)
            if known is cond:
                mark_all_successors_live(bb)
                continue
            if isinstance(known, UndefValue):
                if loop.contains(if_true) and loop.contains(if_false):
                    mark_live_edge(bb, if_true)
                continue
            if not isinstance(known, ConstantInt):
                mark_all_successors_live(bb)
                continue
            mark_live_edge(bb, if_true if known.is_all_ones_value else if_false)
        elif term.opcode == "switch":
            cond_v = term.operands[0]
            value = _value_on_first_iteration(cond_v, first, sq)
            if not isinstance(value, ConstantInt):
                mark_all_successors_live(bb)
                continue
            ops = term.operands
            dest = ops[1]
            for k in range(2, len(ops), 2):
                if ops[k] is value:
                    dest = ops[k + 1]
                    break
            assert isinstance(dest, BasicBlock)
            mark_live_edge(bb, dest)
        else:
            mark_all_successors_live(bb)
    return (latch, header) not in live_edges


def _start_loc(loop: Loop) -> Any:
    """LLVM ``Loop::getStartLoc``."""
    loop_id = loop.loop_id
    if loop_id is not None:
        for md in loop_id.operands[1:]:
            if md is not None and type(md).__name__ == "DILocation":
                return md
    pre = loop.preheader
    if pre is not None and pre.terminator is not None and pre.terminator.debug_loc is not None:
        return pre.terminator.debug_loc
    term = loop.header.terminator
    return term.debug_loc if term is not None else None


def _emit_remark(loop: Loop, name: str, text: str) -> None:
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.remark import PASSED, Remark, location_of_debug_loc

    fn = loop.header.parent
    assert fn is not None
    ore = OptimizationRemarkEmitter(fn)
    if not ore.enabled():
        return
    ore.emit(Remark(PASSED, DEBUG_TYPE, name, fn, location_of_debug_loc(_start_loc(loop))).add(text))


def break_backedge_if_not_taken(loop: Loop, dt: Any, se: ScalarEvolution, li: LoopInfo, mssa: Any) -> LoopDeletionResult:
    """LLVM ``breakBackedgeIfNotTaken``."""
    if loop.latch is None:
        return LoopDeletionResult.UNMODIFIED
    btc_max = se.get_constant_max_backedge_taken_count(loop)
    if not btc_max.is_zero():
        btc = se.get_backedge_taken_count(loop)
        if not btc.is_zero():
            if not isinstance(btc, SCEVCouldNotCompute) and se.is_known_non_zero(btc):
                return LoopDeletionResult.UNMODIFIED
            if not can_prove_exit_on_first_iteration(loop, dt, li):
                return LoopDeletionResult.UNMODIFIED
    NUM_BACKEDGES_BROKEN.add()
    break_loop_backedge(loop, dt, se, li, mssa)
    return LoopDeletionResult.DELETED


def delete_loop_if_dead(loop: Loop, dt: Any, se: ScalarEvolution, li: LoopInfo, mssa: Any) -> LoopDeletionResult:
    """LLVM ``deleteLoopIfDead``."""
    preheader = loop.preheader
    if preheader is None or not loop.has_dedicated_exits:
        return LoopDeletionResult.UNMODIFIED
    exits = loop.unique_exit_blocks
    exit_block = exits[0] if len(exits) == 1 else None
    if exit_block is not None:
        first = exit_block.first_non_phi
        if first is not None and first.is_eh_pad:
            return LoopDeletionResult.UNMODIFIED
    if exit_block is not None and is_loop_never_executed(loop):
        se.forget_loop(loop)
        for phi in list(exit_block.phis()):
            poison = PoisonValue.get(phi.type)
            for i in range(phi.num_incoming):
                phi.set_incoming_value(i, poison)
        _emit_remark(loop, "NeverExecutes", "Loop deleted because it never executes")
        delete_dead_loop(loop, dt, se, li, mssa)
        NUM_DELETED.add()
        return LoopDeletionResult.DELETED
    exiting_blocks = loop.exiting_blocks
    if exit_block is None and exits:
        return LoopDeletionResult.UNMODIFIED
    dead, changed = is_loop_dead(loop, se, exiting_blocks, exit_block, preheader, li)
    if not dead:
        return LoopDeletionResult.MODIFIED if changed else LoopDeletionResult.UNMODIFIED
    _emit_remark(loop, "Invariant", "Loop deleted because it is invariant")
    delete_dead_loop(loop, dt, se, li, mssa)
    NUM_DELETED.add()
    return LoopDeletionResult.DELETED


class LoopDeletionPass(Pass[Loop]):
    """``loop-deletion`` (LLVM ``LoopDeletionPass``)."""

    name: ClassVar[str] = "loop-deletion"

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.passes.loop_pass_manager import loop_pass_preserved_analyses

        ar = am.standard  # type: ignore[attr-defined]
        se = ar.se
        if se is None:
            return PreservedAnalyses.all()
        loop_name = unit.header.name or "<unnamed loop>"
        result = delete_loop_if_dead(unit, ar.dt, se, ar.li, ar.mssa)
        if result != LoopDeletionResult.DELETED:
            result = _merge(result, break_backedge_if_not_taken(unit, ar.dt, se, ar.li, ar.mssa))
        if result == LoopDeletionResult.UNMODIFIED:
            return PreservedAnalyses.all()
        if result == LoopDeletionResult.DELETED:
            updater = am.updater  # type: ignore[attr-defined]
            if updater is not None:
                updater.mark_loop_as_deleted(unit, loop_name)
        pa = loop_pass_preserved_analyses()
        if ar.mssa is not None:
            pa.preserve(MemorySSAAnalysis)
        return pa
