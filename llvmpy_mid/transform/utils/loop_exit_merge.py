"""Merging the exits of a loop that all reach one block (the last step of
``loop-simplify``).

What: when every exit edge of a loop goes to the same block, each exiting block
with a single predecessor whose conditional branch tests a compare computed in
it is emptied by hoisting its other instructions to the preheader (when they
are safe to speculate and do not read memory, LLVM ``Loop::makeLoopInvariant``),
then its branch is folded into the predecessor's conditional branch (LLVM
``FoldBranchToCommonDest`` with no cost model): the compare is cloned into the
predecessor, the two conditions are combined into ``or.cond`` (``and``/``or``
when the second condition cannot be poison unless the first is, else the
poison-safe ``select`` form), and the emptied block is deleted with the
dominator tree and loop info updated.

How: the speculation and poison questions are the toolkit's ValueTracking
(:mod:`llvmpy_mid.analysis.value_tracking`: ``is_safe_to_speculatively_execute``,
``implies_poison``), as LLVM's LoopSimplify and SimplifyCFG ask them.

What it does not do: branch-weight merging (the predecessor's ``!prof`` is
dropped, as LLVM does without weights on both branches), MemorySSA/SCEV updates.
"""

from __future__ import annotations

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.value_tracking import implies_poison, is_safe_to_speculatively_execute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call, remove_predecessor


def _make_loop_invariant(loop: Loop, value: Value, insert_pt: Instruction | None, changed: list[bool]) -> bool:
    """LLVM ``Loop::makeLoopInvariant``: hoist ``value`` (and its operands) before
    ``insert_pt`` if that is safe; True if it is (now) invariant."""
    if not value.is_instruction:
        return True
    inst: Instruction = value  # type: ignore[assignment]
    if not loop.contains(inst):
        return True
    if not is_safe_to_speculatively_execute(inst) or inst.may_read_from_memory() or inst.is_eh_pad:
        return False
    if insert_pt is None:
        pre = loop.preheader
        if pre is None:
            return False
        insert_pt = pre.terminator
        assert insert_pt is not None
    for op in inst.operands:
        if not _make_loop_invariant(loop, op, insert_pt, changed):
            return False
    inst.move_before(insert_pt)
    inst.drop_unknown_non_debug_metadata()
    changed[0] = True
    return True


def _safe_to_merge_terminators(a: Instruction, b: Instruction) -> bool:
    if a is b:
        return False
    bb_a = a.parent
    bb_b = b.parent
    assert bb_a is not None and bb_b is not None
    succs_a = set(bb_a.successors)
    for succ in bb_b.successors:
        if succ not in succs_a:
            continue
        for phi in succ.phis():
            if phi.incoming_value_for_block(bb_a) is not phi.incoming_value_for_block(bb_b):
                return False
    return True


def _fold_recipe(bi: BranchInst, pbi: BranchInst) -> tuple[BasicBlock, str, bool] | None:
    b0, b1 = bi.get_successor(0), bi.get_successor(1)
    p0, p1 = pbi.get_successor(0), pbi.get_successor(1)
    if p0 is b0:
        return b0, "or", False
    if p1 is b1:
        return b1, "and", False
    if p0 is b1:
        return b1, "and", True
    if p1 is b0:
        return b0, "or", True
    return None


def _fold_branch_to_common_dest(bi: BranchInst) -> bool:
    """LLVM ``FoldBranchToCommonDest`` (no cost model, bonus threshold 1) for a block
    holding only its condition and branch."""
    bb = bi.parent
    assert bb is not None
    cond = bi.condition
    if not cond.is_instruction or not cond.has_one_use:
        return False
    if cond.opcode not in ("icmp", "fcmp", "select") and not isinstance(cond, BinaryOperator):  # type: ignore[attr-defined]
        return False
    if bb in bb.successors:
        return False
    preds: list[BasicBlock] = []
    for pred in bb.predecessors:
        pbi = pred.terminator
        if not isinstance(pbi, BranchInst) or not pbi.is_conditional or not _safe_to_merge_terminators(bi, pbi):
            continue
        if _fold_recipe(bi, pbi) is None:
            continue
        preds.append(pred)
    if not preds:
        return False
    bonus = 0
    for inst in bb.instructions:
        if inst is cond or inst.opcode == "br" or is_debug_or_pseudo_probe_call(inst):
            continue
        if not is_safe_to_speculatively_execute(inst):
            return False
        bonus += len(preds)
        if bonus > 2:
            return False
        for use in inst.uses:
            user: Instruction = use.user  # type: ignore[assignment]
            if user.is_phi:
                if user.get_incoming_block_for_use(use) is not bb:  # type: ignore[attr-defined]
                    return False
            elif user.parent is not bb or not inst.comes_before(user):
                return False
    if bonus > 1:
        return False
    pbi = preds[0].terminator
    assert isinstance(pbi, BranchInst)
    _perform_fold(bi, pbi)
    return True


def _perform_fold(bi: BranchInst, pbi: BranchInst) -> None:
    bb = bi.parent
    pred = pbi.parent
    assert bb is not None and pred is not None
    recipe = _fold_recipe(bi, pbi)
    assert recipe is not None
    _common, opc, invert = recipe
    loc = pbi.debug_loc
    annotation = bi.get_metadata("annotation")

    def place(inst: Instruction, name: str) -> Instruction:
        inst.insert_before(pbi)
        if name:
            inst.set_name(name)
        if loc is not None:
            inst.debug_loc = loc
        if annotation is not None:
            inst.set_metadata("annotation", annotation)
        return inst

    if invert:
        pcond = pbi.condition
        if isinstance(pcond, CmpInst) and pcond.has_one_use:
            pcond.predicate = pcond.inverse_predicate
        else:
            if isinstance(pcond, ConstantInt):
                pcond = ConstantInt.get(pcond.type, 0 if pcond.value else 1)
            else:
                one = ConstantInt.get(pcond.type, 1)
                pcond = place(BinaryOperator.create("xor", pcond, one), pcond.name + ".not")
            pbi.condition = pcond
        pbi.swap_successors()
    unique_succ = bi.get_successor(0) if pbi.get_successor(0) is bb else bi.get_successor(1)
    for phi in unique_succ.phis():
        phi.add_incoming(phi.incoming_value_for_block(bb), pred)
    pbi.set_metadata("prof", None)
    pbi.set_successor(0 if pbi.get_successor(0) is bb else 1, unique_succ)
    loop_md = bi.get_metadata("llvm.loop")
    if loop_md is not None:
        pbi.set_metadata("llvm.loop", loop_md)
    vmap: dict[Value, Value] = {}
    for inst in list(bb.instructions):
        if inst.is_terminator:
            continue
        clone = inst.clone()
        if not is_debug_or_pseudo_probe_call(inst) and pbi.debug_loc is not clone.debug_loc:
            clone.debug_loc = None
        for i, op in enumerate(clone.operands):
            mapped = vmap.get(op)
            if mapped is not None:
                clone.set_operand(i, mapped)
        clone.drop_unknown_non_debug_metadata()
        clone.insert_before(pbi)
        if is_debug_or_pseudo_probe_call(inst):
            continue
        name = inst.name
        inst.set_name("")
        clone.set_name(name)
        inst.set_name(clone.name + ".old")
        vmap[inst] = clone
        for use in list(inst.uses):
            user: Instruction = use.user  # type: ignore[assignment]
            if user.is_phi and user.get_incoming_block_for_use(use) is not bb:  # type: ignore[attr-defined]
                use.set(clone)
    bi_cond = vmap[bi.condition]
    lhs = pbi.condition
    if implies_poison(bi_cond, lhs):
        new_cond: Instruction = BinaryOperator.create(opc, lhs, bi_cond)
    else:
        true_c = ConstantInt.get(lhs.type, 1)
        false_c = ConstantInt.get(lhs.type, 0)
        if opc == "and":
            new_cond = SelectInst(lhs, bi_cond, false_c)
        else:
            new_cond = SelectInst(lhs, true_c, bi_cond)
    place(new_cond, "or.cond")
    pbi.condition = new_cond


def fold_exiting_blocks(
    loop: Loop,
    exiting: list[BasicBlock],
    preheader: BasicBlock | None,
    dt: DominatorTree,
    li: LoopInfo,
    preserve_lcssa: bool,
) -> bool:
    """When all exits of ``loop`` reach one block, hoist what can be hoisted out
    of single-predecessor exiting blocks and fold their branch into the
    predecessor's, deleting the block."""
    unique: BasicBlock | None = None
    for bb in exiting:
        for succ in bb.successors:
            if loop.contains(succ):
                continue
            if unique is None:
                unique = succ
            elif unique is not succ:
                return False
    changed = False
    for bb in exiting:
        if bb.single_predecessor is None:
            continue
        bi = bb.terminator
        if not isinstance(bi, BranchInst) or not bi.is_conditional:
            continue
        ci = bi.condition
        if not ci.is_instruction or ci.opcode not in ("icmp", "fcmp") or ci.parent is not bb:  # type: ignore[attr-defined]
            continue
        all_invariant = True
        any_invariant = [False]
        insert_pt = preheader.terminator if preheader is not None else None
        node = bb.instructions._first
        while node is not bi:
            inst = node
            node = node.next_instruction
            if inst is ci or is_debug_or_pseudo_probe_call(inst):
                continue
            if not _make_loop_invariant(loop, inst, insert_pt, any_invariant):
                all_invariant = False
                break
        if any_invariant[0]:
            changed = True
        if not all_invariant:
            continue
        if not _fold_branch_to_common_dest(bi):
            continue
        changed = True
        li.remove_block(bb)
        kids = dt.children(bb)
        parent = dt.idom(bb)
        assert parent is not None
        for kid in reversed(kids):
            dt.change_immediate_dominator(kid, parent)
        dt.erase_node(bb)
        succ0, succ1 = bi.get_successor(0), bi.get_successor(1)
        remove_predecessor(succ0, bb, preserve_lcssa)
        remove_predecessor(succ1, bb, preserve_lcssa)
        for inst in list(bb.instructions):
            inst.drop_all_references()
        for inst in reversed(list(bb.instructions)):
            inst.erase_from_parent()
        bb.erase_from_parent()
    return changed


__all__ = ["fold_exiting_blocks"]
