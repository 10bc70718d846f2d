"""Folding conditional branches together (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``FoldBranchToCommonDest``,
``SimplifyCondBranchToCondBranch``, ``mergeConditionalStores``,
``mergeNestedCondBranch``, ``FoldCondBranchOnValueKnownInPredecessor``).

What: :func:`fold_branch_to_common_dest` merges a block ending in a conditional
branch into a predecessor whose conditional branch shares a destination with it:
the block's few speculatable instructions (the "bonus" instructions) are cloned
into the predecessor and the two conditions are joined with ``or``/``and`` (or
their ``select`` forms) named ``or.cond``, the predecessor's condition inverted
(``.not``) when needed, ``!prof`` weights combined.
:func:`fold_cond_branch_on_value_known_in_predecessor` threads the edges from
predecessors where the branch condition is a known constant (a phi's constant
incoming value, or the predecessor branching on the same value) straight to the
destination, cloning the small block's instructions (simplified) into a
``<dest>.critedge`` block that is then merged into its predecessor.

Not done: the dominator tree and MemorySSA updates LLVM makes on the way (the
pass does not keep them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.target_transform_info import (
    TCC_FREE,
    TCK_CODE_SIZE,
    TCK_SIZE_AND_LATENCY,
    TargetTransformInfo,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, IndirectBrInst
from llvmpy_mid.ir.prof_data_utils import extract_branch_weights, fit_weights, set_branch_weights_if_nonzero
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import (
    fold_single_entry_phi_nodes,
    merge_block_into_predecessor,
    remove_predecessor,
    split_block_predecessors,
)
from llvmpy_mid.transform.utils.simplify_cfg import option_int
from llvmpy_mid.transform.utils.simplify_cfg_common import (
    clone_debug_records_remapped,
    BRANCH_PROBABILITY_ONE,
    EphemeralValueTracker,
    add_predecessor_to_block,
    branch_probability,
    clone_instructions_into_predecessor_block_and_update_ssa_uses,
    create_logical_op,
    extract_pred_succ_weights,
    is_dbg_info_intrinsic,
    is_safe_to_speculatively_execute_here,
    safe_to_merge_terminators,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.debug_records import DbgVariableRecord


# --- FoldBranchToCommonDest -------------------------------------------------------------------

def _predictable_branch_threshold(tti: TargetTransformInfo) -> int:
    """TTI's ``getPredictableBranchThreshold`` as a numerator over 2**31."""
    numerator, denominator = tti.get_predictable_branch_threshold()
    return branch_probability(numerator, denominator)


def _should_fold_cond_branches_to_common_destination(
    bi: BranchInst, pbi: BranchInst, tti: object
) -> tuple[BasicBlock, str, bool] | None:
    """The common destination, the joining operation and whether the predecessor's
    condition must be inverted, when folding ``bi`` into ``pbi`` is worth it (LLVM
    ``shouldFoldCondBranchesToCommonDestination``): not when ``pbi`` is well
    predicted towards the side that would skip the second condition."""
    true_prob: int | None = None
    likely = 0
    if isinstance(tti, TargetTransformInfo) and pbi.get_metadata("unpredictable") is None:
        weights = extract_branch_weights(pbi)
        if weights is not None and len(weights) == 2 and weights[0] + weights[1] != 0:
            true_prob = branch_probability(weights[0], weights[0] + weights[1])
            likely = _predictable_branch_threshold(tti)
    p0 = pbi.get_successor(0)
    p1 = pbi.get_successor(1)
    b0 = bi.get_successor(0)
    b1 = bi.get_successor(1)
    if p0 is b0:
        if true_prob is None or true_prob < likely:
            return (b0, "or", False)
    elif p1 is b1:
        if true_prob is None or BRANCH_PROBABILITY_ONE - true_prob < likely:
            return (b1, "and", False)
    elif p0 is b1:
        if true_prob is None or true_prob < likely:
            return (b1, "and", True)
    elif p1 is b0:
        if true_prob is None or BRANCH_PROBABILITY_ONE - true_prob < likely:
            return (b0, "or", True)
    return None


def _invert_branch(pbi: BranchInst, builder: IRBuilder) -> None:
    """Negate the branch condition (the compare itself when only the branch uses it,
    else a new ``<cond>.not``) and swap the destinations (LLVM ``InvertBranch``)."""
    cond = pbi.condition
    if isinstance(cond, CmpInst) and cond.has_one_use:
        cond.predicate = cond.inverse_predicate
    else:
        cond = builder.create_not(cond, cond.name + ".not")
    pbi.condition = cond
    pbi.swap_successors()


def _perform_branch_to_common_dest_folding(bi: BranchInst, pbi: BranchInst, tti: object) -> bool:
    """Fold ``bi``'s block into ``pbi``'s (LLVM ``performBranchToCommonDestFolding``)."""
    bb = bi.parent
    pred_block = pbi.parent
    assert bb is not None and pred_block is not None
    recipe = _should_fold_cond_branches_to_common_destination(bi, pbi, tti)
    assert recipe is not None
    _, opcode, invert_pred_cond = recipe

    annotation = bi.get_metadata("annotation")
    builder = IRBuilder(before=pbi, folder=ConstantFolder())
    builder.debug_loc = pbi.debug_loc

    def inserted(inst: Instruction) -> None:
        # Inserted before ``pbi`` (no head bit): ``pbi``'s debug records now precede ``inst``.
        for record in pbi.take_dbg_records():
            inst.add_dbg_record(record)
        if annotation is not None:
            inst.set_metadata("annotation", annotation)

    builder.inserter = inserted

    if invert_pred_cond:
        _invert_branch(pbi, builder)

    unique_succ = bi.get_successor(0) if pbi.get_successor(0) is bb else bi.get_successor(1)
    add_predecessor_to_block(unique_succ, pred_block, bb)

    weights = extract_pred_succ_weights(pbi, bi)
    if weights is not None:
        pred_true, pred_false, succ_true, succ_false = weights
        if pbi.get_successor(0) is bb:
            new_weights = [
                pred_true * succ_true,
                pred_false * (succ_false + succ_true) + pred_true * succ_false,
            ]
        else:
            new_weights = [
                pred_true * (succ_false + succ_true) + pred_false * succ_true,
                pred_false * succ_false,
            ]
        new_weights = fit_weights(new_weights)
        set_branch_weights_if_nonzero(pbi, [w & 0xFFFFFFFF for w in new_weights])
    else:
        pbi.set_metadata("prof", None)

    pbi.set_successor(0 if pbi.get_successor(0) is bb else 1, unique_succ)

    loop_md = bi.get_metadata("llvm.loop")
    if loop_md is not None:
        pbi.set_metadata("llvm.loop", loop_md)

    vmap: dict[Value, Value] = {}
    clone_instructions_into_predecessor_block_and_update_ssa_uses(bb, pred_block, vmap)

    pred_term = pred_block.terminator
    assert pred_term is not None
    clone_debug_records_remapped(bi, pred_term, vmap)

    bi_cond = vmap[bi.condition]
    pbi.condition = create_logical_op(builder, opcode, pbi.condition, bi_cond, "or.cond")
    return True


def _is_vector_op(inst: Instruction) -> bool:
    """The instruction or one of its operands has a vector type (LLVM ``isVectorOp``)."""
    if inst.type.is_vector:
        return True
    return any(op.type.is_vector for op in inst.operands)


def _is_safe_to_speculatively_execute(inst: Instruction, dl: DataLayout) -> bool:
    """:func:`is_safe_to_speculatively_execute_here` (kept under this name for callers)."""
    return is_safe_to_speculatively_execute_here(inst, dl)


def fold_branch_to_common_dest(bi: BranchInst, tti: object, bonus_inst_threshold: int) -> bool:
    """Fold ``bi``'s block into a predecessor that conditionally branches to it and to
    one of its destinations, when its other instructions are few and speculatable
    (LLVM ``FoldBranchToCommonDest``)."""
    if not bi.is_conditional:
        return False
    bb = bi.parent
    assert bb is not None
    fn = bb.parent
    assert fn is not None
    cost_kind = TCK_CODE_SIZE if fn.has_fn_attribute("minsize") else TCK_SIZE_AND_LATENCY
    cond = bi.condition
    if (
        not isinstance(cond, (CmpInst, BinaryOperator, SelectInst))
        or cond.parent is not bb
        or not cond.has_one_use
    ):
        return False
    succs = bb.successors
    if bb in succs:
        return False

    fold_threshold = option_int("simplifycfg-branch-fold-threshold", 2)
    preds: list[BasicBlock] = []
    for pred in bb.predecessors:
        pbi = pred.terminator
        if not isinstance(pbi, BranchInst) or pbi.is_unconditional or not safe_to_merge_terminators(bi, pbi):
            continue
        recipe = _should_fold_cond_branches_to_common_destination(bi, pbi, tti)
        if recipe is None:
            continue
        if isinstance(tti, TargetTransformInfo):
            ty = cond.type
            cost = tti.get_arithmetic_instr_cost(recipe[1], ty, cost_kind)
            if recipe[2]:
                pcond = pbi.condition
                if not pcond.has_one_use or not isinstance(pcond, CmpInst):
                    cost = cost + tti.get_arithmetic_instr_cost("xor", ty, cost_kind)
            if cost > fold_threshold:
                continue
        preds.append(pred)
    if not preds:
        return False

    module = fn.parent
    dl = module.data_layout if module is not None else DataLayout()
    vector_multiplier = option_int("simplifycfg-branch-fold-common-dest-vector-multiplier", 2)
    num_bonus = 0
    saw_vector_op = False
    pred_count = len(preds)
    for inst in bb:
        if inst is cond:
            continue
        if isinstance(inst, BranchInst) or is_dbg_info_intrinsic(inst):
            continue
        if not _is_safe_to_speculatively_execute(inst, dl):
            return False
        saw_vector_op |= _is_vector_op(inst)
        if not isinstance(tti, TargetTransformInfo) or tti.get_instruction_cost(inst, cost_kind) != TCC_FREE:
            num_bonus += pred_count
            if num_bonus > bonus_inst_threshold * vector_multiplier:
                return False
        for use in inst.uses:
            user = use.user
            if isinstance(user, PHINode):
                if user.get_incoming_block_for_use(use) is not bb:
                    return False
            elif not isinstance(user, Instruction) or user.parent is not bb or not inst.comes_before(user):
                return False
    if num_bonus > bonus_inst_threshold * (vector_multiplier if saw_vector_op else 1):
        return False

    pbi = preds[0].terminator
    assert isinstance(pbi, BranchInst)
    return _perform_branch_to_common_dest_folding(bi, pbi, tti)


# --- FoldCondBranchOnValueKnownInPredecessor ----------------------------------------------------


def _block_is_simple_enough_to_thread_through(bb: BasicBlock) -> bool:
    """Small enough to copy (at most ``simplifycfg-max-small-block-size`` instructions
    besides phis and values feeding only assumptions), nothing that cannot be
    duplicated, no value used outside the block or by a phi (LLVM
    ``BlockIsSimpleEnoughToThreadThrough``)."""
    max_size = option_int("simplifycfg-max-small-block-size", 10)
    size = 0
    tracker = EphemeralValueTracker()
    inst = bb.instructions._last
    while inst is not None:
        if is_dbg_info_intrinsic(inst):
            inst = inst.prev_instruction
            continue
        if isinstance(inst, CallInst) and (inst.cannot_duplicate or inst.is_convergent):
            return False
        if not tracker.track(inst) and not isinstance(inst, PHINode):
            if size > max_size:
                return False
            size += 1
        for user in inst.users:
            if not isinstance(user, Instruction) or user.parent is not bb or isinstance(user, PHINode):
                return False
        inst = inst.prev_instruction
    return True


def _get_known_value_on_edge(v: Value, from_bb: BasicBlock, to_bb: BasicBlock) -> ConstantInt | None:
    """The value ``v`` must have on the edge ``from_bb -> to_bb``: ``from_bb`` branches
    on it (LLVM ``getKnownValueOnEdge``); never for a value defined in ``to_bb``."""
    if isinstance(v, Instruction) and v.parent is to_bb:
        return None
    bi = from_bb.terminator
    if isinstance(bi, BranchInst) and bi.is_conditional and bi.condition is v:
        s0 = bi.get_successor(0)
        if s0 is not bi.get_successor(1):
            ctx = v.type.context
            return ConstantInt.get(ctx.i1, 1) if s0 is to_bb else ConstantInt.get(ctx.i1, 0)
    return None


def _fold_cond_branch_on_value_known_in_predecessor_once(
    bi: BranchInst, dl: DataLayout, ac: object | None
) -> bool | None:
    """One threading step: True/False for changed/unchanged, None for 'changed, try
    again' (LLVM ``FoldCondBranchOnValueKnownInPredecessorImpl``)."""
    from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    bb = bi.parent
    assert bb is not None
    cond = bi.condition
    known: dict[ConstantInt, list[BasicBlock]] = {}
    if isinstance(cond, PHINode) and cond.parent is bb:
        if cond.num_incoming == 1:
            fold_single_entry_phi_nodes(bb)
            return True
        for value, block in cond.incoming:
            if isinstance(value, ConstantInt):
                blocks = known.setdefault(value, [])
                if block not in blocks:
                    blocks.append(block)
    else:
        for pred in bb.predecessors:
            cb = _get_known_value_on_edge(cond, pred, bb)
            if cb is not None:
                blocks = known.setdefault(cb, [])
                if pred not in blocks:
                    blocks.append(pred)
    if not known:
        return False
    if not _block_is_simple_enough_to_thread_through(bb):
        return False

    for cb, pred_bbs in known.items():
        real_dest = bi.get_successor(0 if cb.value & 1 else 1)
        if real_dest is bb:
            continue
        if any(isinstance(p.terminator, IndirectBrInst) for p in pred_bbs):
            continue
        edge_bb = split_block_predecessors(bb, pred_bbs, ".critedge")
        if edge_bb is None:
            continue
        edge_bb.name = real_dest.name + ".critedge"
        edge_bb.move_before(real_dest)
        add_predecessor_to_block(real_dest, edge_bb, bb)

        insert_pt = edge_bb.first_insertion_point
        assert insert_pt is not None
        translate: dict[Value, Value] = {cond: cb}
        query = SimplifyQuery(dl, ac=ac)  # type: ignore[arg-type]
        pending_dbg: list[Instruction] = []
        bbi = bb.instructions._first
        while bbi is not None and bbi is not bi:
            if isinstance(bbi, PHINode):
                translate[bbi] = bbi.incoming_value_for_block(edge_bb)
                pending_dbg.append(bbi)
                bbi = bbi.next_instruction
                continue
            n: Instruction | None = bbi.clone()
            assert n is not None
            n.insert_before(insert_pt)
            if bbi.name:
                n.name = bbi.name + ".c"
            for use in n.operand_uses:
                new = translate.get(use.value)
                if new is not None:
                    use.set(new)
            simplified = simplify_instruction(n, query)
            if simplified is not None:
                if bbi.has_uses:
                    translate[bbi] = simplified
                if not n.may_have_side_effects():
                    n.erase_from_parent()
                    n = None
            elif bbi.has_uses:
                translate[bbi] = n
            if n is not None:
                for earlier in pending_dbg:
                    clone_debug_records_remapped(earlier, n, {})
                pending_dbg.clear()
                clone_debug_records_remapped(bbi, n, {})
                if ac is not None and isinstance(n, CallInst) and n.intrinsic_name == "llvm.assume":
                    register = getattr(ac, "register_assumption", None)
                    if register is not None:
                        register(n)
            else:
                pending_dbg.append(bbi)
            bbi = bbi.next_instruction
        for earlier in pending_dbg:
            clone_debug_records_remapped(earlier, insert_pt, {})
        clone_debug_records_remapped(bi, insert_pt, {})

        remove_predecessor(bb, edge_bb)
        edge_bi = edge_bb.terminator
        assert isinstance(edge_bi, BranchInst)
        edge_bi.set_successor(0, real_dest)
        edge_bi.debug_loc = bi.debug_loc
        merge_block_into_predecessor(edge_bb)
        return None
    return False


def fold_cond_branch_on_value_known_in_predecessor(bi: BranchInst, dl: DataLayout, ac: object | None) -> bool:
    """Thread the edges of predecessors in which the branch condition is a known
    constant to the destination it selects, as long as steps succeed (LLVM
    ``FoldCondBranchOnValueKnownInPredecessor``)."""
    ever_changed = False
    while True:
        result = _fold_cond_branch_on_value_known_in_predecessor_once(bi, dl, ac)
        if result is None:
            ever_changed = True
            continue
        return ever_changed or result


__all__ = ["fold_branch_to_common_dest", "fold_cond_branch_on_value_known_in_predecessor"]
