"""``loop-simplify``: puts every loop into canonical form (LLVM ``LoopSimplify``).

What: for each loop, innermost first, the pass
- turns the terminators of unreachable blocks that branch into a non-header loop
  block into ``unreachable``, and resolves ``br i1 undef`` exits towards the exit;
- inserts a preheader (``<header>.preheader``) when the header has several
  outside predecessors or one that also branches elsewhere;
- gives every exit block only in-loop predecessors (``<exit>.loopexit``);
- when the header has several latches, first tries to split off an outer loop
  (``<header>.outer``) for a header phi that feeds itself on some backedges,
  else merges the backedges in one block (``<header>.backedge``);
- folds away degenerate header phis, and, when the loop has one exit block,
  hoists invariant code out of exiting blocks with one predecessor so their
  conditional branch can be folded into the predecessor's (``or.cond``; see
  :mod:`llvmpy_mid.transform.utils.loop_exit_merge`).
Names, block placement, phi order and debug locations follow LLVM 19 so that
the printed module matches ``opt-19 -passes=loop-simplify``.

How: the split helpers mirror LLVM's ``SplitBlockPredecessors`` (a new block
before the old one, phis split with ``.ph`` copies, landing pads split in two
with ``.split-lp``) and keep the dominator tree (in-place updates of
:class:`~llvmpy_mid.ir.dominators.DominatorTree`) and :class:`LoopInfo` exact,
so the pass preserves both analyses, as LLVM does.

What it does not do: ScalarEvolution and MemorySSA updates (neither exists
here); the poison reasoning used when folding exit branches is a conservative
subset of LLVM's ValueTracking (it may give ``select`` where LLVM gives ``or``
in rare cases).
"""

from __future__ import annotations

from typing import ClassVar, Sequence

from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, UnreachableInst
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import (
    dt_split_block,
    loop_start_loc,
    remove_predecessor,
    replace_successor_with,
    split_block_predecessors,
)
from llvmpy_mid.transform.utils.local import change_to_unreachable
from llvmpy_mid.transform.utils.ssa_updater import simplify_phi_node

# --- the loop-simplify steps ----------------------------------------------------------------


def _place_split_block_carefully(new_bb: BasicBlock, split_preds: Sequence[BasicBlock], loop: Loop) -> None:
    before = new_bb.prev_block
    for pred in split_preds:
        if pred is before:
            return
    found: BasicBlock | None = None
    for pred in split_preds:
        nxt = pred.next_block
        if nxt is not None and loop.contains(nxt):
            found = pred
            break
    if found is None:
        found = split_preds[0]
    new_bb.move_after(found)


def insert_preheader_for_loop(
    loop: Loop, dt: DominatorTree, li: LoopInfo, preserve_lcssa: bool = False
) -> BasicBlock | None:
    """Give ``loop`` a preheader ``<header>.preheader`` (LLVM ``InsertPreheaderForLoop``);
    None when an outside predecessor ends in ``indirectbr`` or the header cannot be split."""
    header = loop.header
    outside: list[BasicBlock] = []
    for pred in header.predecessors:
        if not loop.contains(pred):
            term = pred.terminator
            if term is not None and term.opcode == "indirectbr":
                return None
            outside.append(pred)
    new_bb = split_block_predecessors(header, outside, ".preheader", dt, li, preserve_lcssa)
    if new_bb is None:
        return None
    _place_split_block_carefully(new_bb, outside, loop)
    return new_bb


def form_dedicated_exit_blocks(
    loop: Loop, dt: DominatorTree | None, li: LoopInfo | None, preserve_lcssa: bool = False
) -> bool:
    """Split every exit block that also has predecessors outside ``loop`` so the
    loop's exit edges reach a block of their own (``<exit>.loopexit``)."""
    changed = False
    in_loop = loop.block_set
    visited: set[BasicBlock] = set()
    for bb in list(loop.blocks):
        term = bb.instructions._last
        if term is None or not term.is_terminator_class:
            continue
        succs = term.successors
        i = 0
        while i < len(succs):
            succ = succs[i]
            i += 1
            if succ in in_loop or succ in visited:
                continue
            visited.add(succ)
            if _rewrite_exit(loop, succ, dt, li, preserve_lcssa):
                changed = True
                # The split rewired this terminator: walk its live successor list.
                term = bb.instructions._last
                if term is None or not term.is_terminator_class:
                    break
                succs = term.successors
    return changed


def _rewrite_exit(
    loop: Loop, bb: BasicBlock, dt: DominatorTree | None, li: LoopInfo | None, preserve_lcssa: bool
) -> bool:
    in_loop: list[BasicBlock] = []
    dedicated = True
    loop_blocks = loop.block_set
    for pred in bb.predecessors:
        if pred in loop_blocks:
            term = pred.terminator
            if term is not None and term.opcode == "indirectbr":
                return False
            in_loop.append(pred)
        else:
            dedicated = False
    if dedicated:
        return False
    split_block_predecessors(bb, in_loop, ".loopexit", dt, li, preserve_lcssa)
    return True


def _find_phi_to_partition_loops(loop: Loop, dt: DominatorTree) -> PHINode | None:
    for phi in list(loop.header.phis()):
        simple = simplify_phi_node(phi, dt)
        if simple is not None:
            phi.replace_all_uses_with(simple)
            phi.erase_from_parent()
            continue
        for value, block in phi.incoming:
            if value is phi and loop.contains(block):
                return phi
    return None


def _add_block_and_preds_to_set(start: BasicBlock, stop: BasicBlock, blocks: set[BasicBlock]) -> None:
    work = [start]
    while work:
        bb = work.pop()
        if bb not in blocks:
            blocks.add(bb)
            if bb is not stop:
                work.extend(bb.predecessors)


def _separate_nested_loop(
    loop: Loop, preheader: BasicBlock | None, dt: DominatorTree, li: LoopInfo, preserve_lcssa: bool
) -> Loop | None:
    """Split an outer loop off ``loop`` when a header phi only feeds itself on
    some backedges (those edges then belong to an inner loop)."""
    if preheader is None:
        return None
    for bb in loop.blocks:
        for inst in bb.instructions:
            if inst.is_call_base and inst.is_convergent:  # type: ignore[attr-defined]
                return None
    header = loop.header
    phi = _find_phi_to_partition_loops(loop, dt)
    if phi is None:
        return None
    outer_preds: list[BasicBlock] = []
    for value, block in phi.incoming:
        if value is not phi or not loop.contains(block):
            term = block.terminator
            if term is not None and term.opcode == "indirectbr":
                return None
            outer_preds.append(block)
    new_bb = split_block_predecessors(header, outer_preds, ".outer", dt, li, preserve_lcssa)
    assert new_bb is not None
    _place_split_block_carefully(new_bb, outer_preds, loop)
    new_outer = li.allocate_loop(new_bb)
    new_outer.blocks.clear()
    new_outer.block_set.clear()
    parent = loop.parent_loop
    if parent is not None:
        parent.replace_child_loop_with(loop, new_outer)
    else:
        li.change_top_level_loop(loop, new_outer)
    loop.parent_loop = None
    new_outer.add_child_loop(loop)
    for bb in loop.blocks:
        new_outer.add_block_entry(bb)
    loop.move_to_header(header)
    in_inner: set[BasicBlock] = set()
    for pred in header.predecessors:
        if dt.dominates_block(header, pred):
            _add_block_and_preds_to_set(pred, header, in_inner)
    subs = loop.sub_loops
    i = 0
    while i < len(subs):
        if subs[i].header in in_inner:
            i += 1
        else:
            child = subs.pop(i)
            child.parent_loop = None
            new_outer.add_child_loop(child)
    i = 0
    blocks = loop.blocks
    while i < len(blocks):
        bb = blocks[i]
        if bb not in in_inner:
            loop.remove_block_from_loop(bb)
            if li.loop_for(bb) is loop:
                li.change_loop_for(bb, new_outer)
            continue
        i += 1
    form_dedicated_exit_blocks(loop, dt, li, preserve_lcssa)
    if preserve_lcssa:
        from llvmpy_mid.transform.utils.lcssa import form_lcssa

        form_lcssa(loop, dt, li)
    return new_outer


def _insert_unique_backedge_block(
    loop: Loop, preheader: BasicBlock | None, dt: DominatorTree, li: LoopInfo
) -> BasicBlock | None:
    header = loop.header
    fn = header.parent
    assert fn is not None
    if preheader is None:
        return None
    backedge_blocks: list[BasicBlock] = []
    for pred in header.predecessors:
        term = pred.terminator
        if term is not None and term.opcode == "indirectbr":
            return None
        if pred is not preheader:
            backedge_blocks.append(pred)
    be = BasicBlock(header.type.context, header.name + ".backedge")
    fn.blocks.insert_before(be, backedge_blocks[-1].next_block)
    be_term = BranchInst(header)
    be.append(be_term)
    first = header.first_non_phi
    be_term.debug_loc = first.debug_loc if first is not None else None
    for phi in list(header.phis()):
        new_phi = PHINode(phi.type, name=phi.name + ".be")
        new_phi.insert_before(be_term)
        pre_idx = -1
        unique = True
        unique_value: Value | None = None
        for i, (value, block) in enumerate(phi.incoming):
            if block is preheader:
                pre_idx = i
            else:
                new_phi.add_incoming(value, block)
                if unique:
                    if unique_value is None:
                        unique_value = value
                    elif unique_value is not value:
                        unique = False
        assert pre_idx >= 0, "phi has no preheader entry"
        if pre_idx != 0:
            phi.set_incoming_value(0, phi.get_incoming_value(pre_idx))
            phi.set_incoming_block(0, phi.get_incoming_block(pre_idx))
        phi.remove_incoming_value_if(lambda i: i != 0, delete_if_empty=False)
        phi.add_incoming(new_phi, be)
        if unique and unique_value is not None:
            new_phi.replace_all_uses_with(unique_value)
            new_phi.erase_from_parent()
    loop_md: MDNode | None = None
    for bb in backedge_blocks:
        term = bb.terminator
        assert term is not None
        if loop_md is None:
            loop_md = term.get_metadata("llvm.loop")
        term.set_metadata("llvm.loop", None)
        replace_successor_with(term, header, be)
    be_term.set_metadata("llvm.loop", loop_md)
    li.add_block_to_loop(be, loop)
    dt_split_block(dt, be)
    return be


def _delete_dead_preds(loop: Loop, preserve_lcssa: bool) -> bool:
    changed = False
    header = loop.header
    in_loop = loop.block_set
    for bb in list(loop.blocks):
        if bb is header:
            continue
        bad: dict[BasicBlock, None] | None = None
        for pred in bb.predecessors:
            if pred not in in_loop:
                if bad is None:
                    bad = {}
                bad[pred] = None
        if bad is None:
            continue
        for pred in bad:
            term = pred.terminator
            assert term is not None
            change_to_unreachable(term, preserve_lcssa)
            changed = True
    return changed


def _simplify_one_loop(
    loop: Loop, worklist: list[Loop], dt: DominatorTree, li: LoopInfo, preserve_lcssa: bool
) -> bool:
    changed = False
    while True:  # ReprocessLoop
        changed |= _delete_dead_preds(loop, preserve_lcssa)
        exiting = loop.exiting_blocks
        for bb in exiting:
            term = bb.terminator
            if term is not None and term.opcode == "br" and term.is_conditional:  # type: ignore[attr-defined]
                cond = term.condition  # type: ignore[attr-defined]
                if isinstance(cond, UndefValue):
                    term.condition = ConstantInt.get(  # type: ignore[attr-defined]
                        cond.type, 0 if loop.contains(term.get_successor(0)) else 1
                    )
                    changed = True
        preheader = loop.preheader
        if preheader is None:
            preheader = insert_preheader_for_loop(loop, dt, li, preserve_lcssa)
            if preheader is not None:
                changed = True
        if form_dedicated_exit_blocks(loop, dt, li, preserve_lcssa):
            changed = True
        latch = loop.latch
        if latch is None:
            num_backedges = len(loop.latches)
            if num_backedges < 8:
                outer = _separate_nested_loop(loop, preheader, dt, li, preserve_lcssa)
                if outer is not None:
                    worklist.append(outer)
                    changed = True
                    continue
            latch = _insert_unique_backedge_block(loop, preheader, dt, li)
            if latch is not None:
                changed = True
        break
    for phi in list(loop.header.phis()):
        simple = simplify_phi_node(phi, dt)
        if simple is not None:
            if not preserve_lcssa or _replacement_preserves_lcssa(li, phi, simple):
                phi.replace_all_uses_with(simple)
                phi.erase_from_parent()
                changed = True
    from llvmpy_mid.transform.utils.loop_exit_merge import fold_exiting_blocks

    if fold_exiting_blocks(loop, exiting, preheader, dt, li, preserve_lcssa):
        changed = True
    return changed


def _replacement_preserves_lcssa(li: LoopInfo, frm: Instruction, to: Value) -> bool:
    if not to.is_instruction:
        return True
    to_bb = to.parent  # type: ignore[attr-defined]
    from_bb = frm.parent
    assert from_bb is not None
    to_loop = li.loop_for(to_bb)
    if to_loop is None:
        return True
    if to_bb is from_bb:
        return True
    from_loop = li.loop_for(from_bb)
    return from_loop is not None and to_loop.contains(from_loop)


def simplify_loop(loop: Loop, dt: DominatorTree, li: LoopInfo, preserve_lcssa: bool = False) -> bool:
    """Put ``loop`` and every loop nested in it into loop-simplify form, innermost
    loops first (LLVM ``simplifyLoop``). Keeps ``dt`` and ``li`` up to date."""
    worklist: list[Loop] = [loop]
    i = 0
    while i < len(worklist):
        worklist.extend(worklist[i].sub_loops)
        i += 1
    changed = False
    while worklist:
        changed |= _simplify_one_loop(worklist.pop(), worklist, dt, li, preserve_lcssa)
    return changed


class LoopSimplifyPass(Pass[Function]):
    """``loop-simplify``: canonical loops (preheader, one backedge, dedicated exits)."""

    name: ClassVar[str] = "loop-simplify"

    @property
    def log_name(self) -> str:
        return "LoopSimplifyPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis

        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        am.get_result(AssumptionAnalysis, unit)  # LoopSimplifyPass::run asks for it (logged as opt-19)
        changed = False
        for loop in list(li.top_level_loops):
            changed |= simplify_loop(loop, dt, li, False)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(LoopAnalysis)
        from llvmpy_mid.transform.utils.lcssa import _keep_scalar_evolution

        _keep_scalar_evolution(unit, am, pa)
        return pa


__all__ = [
    "LoopSimplifyPass",
    "form_dedicated_exit_blocks",
    "insert_preheader_for_loop",
    "simplify_loop",
]
