"""Block-level CFG helpers, as LLVM's ``Transforms/Utils/BasicBlockUtils.cpp``
(and ``BasicBlock::removePredecessor``, ``DominatorTree::splitBlock``).

What: :func:`split_block_predecessors` (a new block in front of a block for some
of its predecessors, phis split with ``.ph`` copies, landing pads split in two
with ``.split-lp``), :func:`split_edge`, :func:`split_critical_edge` with
:class:`CriticalEdgeSplittingOptions`, :func:`split_all_critical_edges`,
:func:`split_block`, :func:`merge_block_into_predecessor`, :func:`delete_dead_block`
(s), :func:`fold_single_entry_phi_nodes`, :func:`delete_dead_phis`,
:func:`replace_successor_with` and :func:`remove_predecessor`.

How: each follows the LLVM 19.1.7 function of the same name, including block
names, block placement, phi order and debug locations, so the passes built on
them print what ``opt-19`` prints.  The dominator tree and LoopInfo are updated
in place where a caller passes them (``dt``/``li``); a DomTreeUpdater is taken as
``dtu`` where LLVM takes one.

What it does not do: MemorySSA updates (no MemorySSA here).
"""

from __future__ import annotations

from typing import Protocol, Sequence

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, UnreachableInst
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.value import Value

CFGUpdate = tuple[str, BasicBlock, BasicBlock]
"""A dominator-tree update: ("insert" | "delete", from, to)."""


class DomTreeUpdaterLike(Protocol):
    """What these helpers ask of a DomTreeUpdater (``analysis/dom_tree_updater.py``)."""

    def apply_updates(self, updates: list[CFGUpdate]) -> None: ...

    def delete_bb(self, bb: BasicBlock) -> None: ...

# --- small CFG helpers ------------------------------------------------------------------------


def replace_successor_with(term: Instruction, old: BasicBlock, new: BasicBlock) -> None:
    """Point every successor slot of ``term`` that names ``old`` at ``new``, in
    successor order (LLVM ``replaceSuccessorWith``)."""
    succs = term.successors
    for i in range(len(succs)):
        if succs[i] is old:
            term.set_successor(i, new)


def is_debug_or_pseudo_probe_call(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    fn = inst.called_function  # type: ignore[attr-defined]
    if fn is None:
        return False
    name: str = fn.name
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


def first_non_phi_or_dbg(bb: BasicBlock) -> Instruction | None:
    node = bb.first_non_phi
    while node is not None and is_debug_or_pseudo_probe_call(node):
        node = node.next_instruction
    return node


def loop_start_loc(loop: Loop) -> MDNode | None:
    """LLVM ``Loop::getStartLoc``: the first location in the loop ID, else the
    preheader's terminator location, else the header's terminator location."""
    loop_id = loop.loop_id
    if loop_id is not None:
        for op in loop_id.operands[1:]:
            if isinstance(op, DILocation):
                return op
    pre = loop.preheader
    if pre is not None:
        term = pre.terminator
        if term is not None and term.debug_loc is not None:
            return term.debug_loc
    term = loop.header.terminator
    return term.debug_loc if term is not None else None


def remove_predecessor(bb: BasicBlock, pred: BasicBlock, keep_one_input_phis: bool = False) -> None:
    """Drop ``pred``'s entry from ``bb``'s phis, folding phis that become
    trivial unless ``keep_one_input_phis`` (LLVM ``BasicBlock::removePredecessor``)."""
    first = bb.instructions._first
    if first is None or not first.is_phi:
        return
    num_preds = first.num_incoming
    for phi in list(bb.phis()):
        phi.remove_incoming_value(pred, delete_if_empty=not keep_one_input_phis)
        if keep_one_input_phis or num_preds == 1:
            continue
        value = phi.has_constant_value()
        if value is not None:
            phi.replace_all_uses_with(value)
            phi.erase_from_parent()


def dt_split_block(dt: DominatorTree, new_bb: BasicBlock) -> None:
    """Update ``dt`` for ``new_bb``, just inserted with one successor in front of
    some of that successor's predecessors (LLVM ``DominatorTree::splitBlock``)."""
    succ = new_bb.successors[0]
    preds = new_bb.predecessors
    dominates_succ = True
    for p in succ.predecessors:
        if p is not new_bb and not dt.dominates_block(succ, p) and dt.is_reachable(p):
            dominates_succ = False
            break
    idom: BasicBlock | None = None
    for p in preds:
        if dt.is_reachable(p):
            idom = p if idom is None else dt.nearest_common_dominator(idom, p)
    if idom is None:
        return
    dt.add_new_block(new_bb, idom)
    if dominates_succ:
        dt.change_immediate_dominator(succ, new_bb)


# --- SplitBlockPredecessors -----------------------------------------------------------------


def _update_analysis_information(
    old_bb: BasicBlock,
    new_bb: BasicBlock,
    preds: Sequence[BasicBlock],
    dt: DominatorTree | None,
    li: LoopInfo | None,
    preserve_lcssa: bool,
) -> bool:
    """Dominator tree and loop info after splitting ``preds`` off ``old_bb`` into
    ``new_bb``; returns whether one of the preds leaves a loop (for LCSSA)."""
    if dt is not None:
        dt_split_block(dt, new_bb)
    if li is None:
        return False
    assert dt is not None
    loop = li.loop_for(old_bb)
    has_loop_exit = False
    is_loop_entry = loop is not None
    makes_new_header = False
    for pred in preds:
        if not dt.is_reachable(pred):
            continue
        if preserve_lcssa:
            pl = li.loop_for(pred)
            if pl is not None and not pl.contains(old_bb):
                has_loop_exit = True
        if loop is None:
            continue
        if loop.contains(pred):
            is_loop_entry = False
        else:
            makes_new_header = True
    if loop is None:
        return has_loop_exit
    if is_loop_entry:
        innermost: Loop | None = None
        for pred in preds:
            pl = li.loop_for(pred)
            while pl is not None and not pl.contains(old_bb):
                pl = pl.parent_loop
            if pl is not None and (innermost is None or innermost.depth < pl.depth):
                innermost = pl
        if innermost is not None:
            li.add_block_to_loop(new_bb, innermost)
    else:
        li.add_block_to_loop(new_bb, loop)
        if makes_new_header:
            loop.move_to_header(new_bb)
    return has_loop_exit


def _update_phi_nodes(
    orig_bb: BasicBlock, new_bb: BasicBlock, preds: Sequence[BasicBlock], br: Instruction, has_loop_exit: bool
) -> None:
    pred_set = set(preds)
    for phi in list(orig_bb.phis()):
        in_val: Value | None = None
        if not has_loop_exit:
            in_val = phi.incoming_value_for_block(preds[0])
            for value, block in phi.incoming:
                if block not in pred_set:
                    continue
                if value is not in_val:
                    in_val = None
                    break
        if in_val is not None:
            blocks = phi.incoming_blocks
            phi.remove_incoming_value_if(lambda i: blocks[i] in pred_set, delete_if_empty=False)
            phi.add_incoming(in_val, new_bb)
            continue
        new_phi = PHINode(phi.type, name=phi.name + ".ph")
        new_phi.insert_before(br)
        for i in range(phi.num_incoming - 1, -1, -1):
            block = phi.get_incoming_block(i)
            if block in pred_set:
                value = phi.remove_incoming_value(i, delete_if_empty=False)
                new_phi.add_incoming(value, block)
        phi.add_incoming(new_phi, new_bb)


def _can_split_predecessors(bb: BasicBlock) -> bool:
    first = bb.first_non_phi
    if first is None:
        return True
    return first.opcode == "landingpad" or not first.is_eh_pad


def split_block_predecessors(
    bb: BasicBlock,
    preds: Sequence[BasicBlock],
    suffix: str,
    dt: DominatorTree | None = None,
    li: LoopInfo | None = None,
    preserve_lcssa: bool = False,
) -> BasicBlock | None:
    """Move the edges from ``preds`` to a new block ``<bb><suffix>`` placed just
    before ``bb`` that branches to it; phis of ``bb`` are split accordingly.
    Returns the new block, or None when ``bb`` starts with an EH pad that cannot
    be split (LLVM ``SplitBlockPredecessors``)."""
    if not _can_split_predecessors(bb):
        return None
    first = bb.first_non_phi
    if first is not None and first.opcode == "landingpad":
        return split_landing_pad_predecessors(bb, preds, suffix, suffix + ".split-lp", dt, li, preserve_lcssa)[0]
    fn = bb.parent
    assert fn is not None
    new_bb = BasicBlock(bb.type.context, bb.name + suffix)
    fn.blocks.insert_before(new_bb, bb)
    br = BranchInst(bb)
    new_bb.append(br)
    loop: Loop | None = None
    old_latch: BasicBlock | None = None
    if li is not None and li.is_loop_header(bb):
        loop = li.loop_for(bb)
        assert loop is not None
        br.debug_loc = loop_start_loc(loop)
        old_latch = loop.latch
    else:
        first_real = first_non_phi_or_dbg(bb)
        br.debug_loc = first_real.debug_loc if first_real is not None else None
    for pred in preds:
        term = pred.terminator
        assert term is not None
        replace_successor_with(term, bb, new_bb)
    if not preds:
        for phi in bb.phis():
            phi.add_incoming(PoisonValue.get(phi.type), new_bb)
    has_loop_exit = _update_analysis_information(bb, new_bb, preds, dt, li, preserve_lcssa)
    if preds:
        _update_phi_nodes(bb, new_bb, preds, br, has_loop_exit)
    if old_latch is not None and loop is not None and li is not None:
        new_latch = loop.latch
        if new_latch is not old_latch and new_latch is not None:
            old_term = old_latch.terminator
            new_term = new_latch.terminator
            assert old_term is not None and new_term is not None
            new_term.set_metadata("llvm.loop", old_term.get_metadata("llvm.loop"))
            inner = li.loop_for(old_latch)
            if inner is not None and inner.latch is not old_latch:
                old_term.set_metadata("llvm.loop", None)
    return new_bb


def split_landing_pad_predecessors(
    orig: BasicBlock,
    preds: Sequence[BasicBlock],
    suffix1: str,
    suffix2: str,
    dt: DominatorTree | None,
    li: LoopInfo | None,
    preserve_lcssa: bool,
) -> list[BasicBlock]:
    """LLVM ``SplitLandingPadPredecessors``: ``preds`` go to ``<orig><suffix1>``, the
    other predecessors to ``<orig><suffix2>``; each gets a copy of the landing pad."""
    fn = orig.parent
    assert fn is not None
    ctx = orig.type.context
    first = orig.first_non_phi
    assert first is not None
    new1 = BasicBlock(ctx, orig.name + suffix1)
    fn.blocks.insert_before(new1, orig)
    br1 = BranchInst(orig)
    new1.append(br1)
    br1.debug_loc = first.debug_loc
    for pred in preds:
        term = pred.terminator
        assert term is not None
        term.replace_uses_of_with(orig, new1)
    has_exit = _update_analysis_information(orig, new1, preds, dt, li, preserve_lcssa)
    _update_phi_nodes(orig, new1, preds, br1, has_exit)
    preds2 = [p for p in orig.predecessors if p is not new1]
    new_bbs = [new1]
    new2: BasicBlock | None = None
    if preds2:
        new2 = BasicBlock(ctx, orig.name + suffix2)
        fn.blocks.insert_before(new2, orig)
        new_bbs.append(new2)
        br2 = BranchInst(orig)
        new2.append(br2)
        br2.debug_loc = first.debug_loc
        for pred in preds2:
            term = pred.terminator
            assert term is not None
            term.replace_uses_of_with(orig, new2)
        has_exit = _update_analysis_information(orig, new2, preds2, dt, li, preserve_lcssa)
        _update_phi_nodes(orig, new2, preds2, br2, has_exit)
    lpad = first
    clone1 = lpad.clone()
    clone1.set_name("lpad" + suffix1)
    clone1.insert_into(new1, new1.first_insertion_point)
    if new2 is not None:
        clone2 = lpad.clone()
        clone2.set_name("lpad" + suffix2)
        clone2.insert_into(new2, new2.first_insertion_point)
        if lpad.has_uses:
            phi = PHINode(lpad.type, name="lpad.phi")
            phi.insert_before(lpad)
            phi.add_incoming(clone1, new1)
            phi.add_incoming(clone2, new2)
            lpad.replace_all_uses_with(phi)
        lpad.erase_from_parent()
    else:
        lpad.replace_all_uses_with(clone1)
        lpad.erase_from_parent()
    return new_bbs





# --- dead blocks and phis ------------------------------------------------------------------------


def detach_dead_blocks(
    blocks: Sequence[BasicBlock], updates: list[CFGUpdate] | None = None, keep_one_input_phis: bool = False
) -> None:
    """Cut ``blocks`` out of the CFG: their successors forget them, their instructions
    go (uses become poison) and each is left holding ``unreachable`` (LLVM
    ``detachDeadBlocks``); the deleted edges are added to ``updates``."""
    for bb in blocks:
        seen: set[BasicBlock] = set()
        for succ in bb.successors:
            remove_predecessor(succ, bb, keep_one_input_phis)
            if updates is not None and succ not in seen:
                seen.add(succ)
                updates.append(("delete", bb, succ))
        insts = bb.instructions
        while insts._last is not None:
            inst: Instruction = insts._last
            if inst._use_head is not None:
                inst.replace_all_uses_with(PoisonValue.get(inst.type))
            inst._dbg_records = None
            inst.erase_from_parent()
        bb.append(UnreachableInst(bb.type.context))


def delete_dead_blocks(
    blocks: Sequence[BasicBlock], dtu: DomTreeUpdaterLike | None = None, keep_one_input_phis: bool = False
) -> None:
    """Delete ``blocks``, all of whose predecessors are among them (LLVM ``DeleteDeadBlocks``)."""
    updates: list[CFGUpdate] | None = [] if dtu is not None else None
    detach_dead_blocks(blocks, updates, keep_one_input_phis)
    if dtu is not None:
        assert updates is not None
        dtu.apply_updates(updates)
    for bb in blocks:
        if dtu is not None:
            dtu.delete_bb(bb)
        else:
            bb._drop_address_taken_uses()
            bb.erase_from_parent()


def delete_dead_block(bb: BasicBlock, dtu: DomTreeUpdaterLike | None = None, keep_one_input_phis: bool = False) -> None:
    """Delete ``bb``, which has no predecessors (LLVM ``DeleteDeadBlock``)."""
    delete_dead_blocks([bb], dtu, keep_one_input_phis)


def eliminate_unreachable_blocks(
    fn: object, dtu: DomTreeUpdaterLike | None = None, keep_one_input_phis: bool = False
) -> bool:
    """Delete every block not reachable from the entry (LLVM ``EliminateUnreachableBlocks``)."""
    from llvmpy_mid.ir.function import Function

    assert isinstance(fn, Function)
    entry = fn.blocks._first
    reachable: set[BasicBlock] = set()
    if entry is not None:
        reachable.add(entry)
        stack = [entry]
        while stack:
            for succ in stack.pop().successors:
                if succ not in reachable:
                    reachable.add(succ)
                    stack.append(succ)
    dead = [bb for bb in fn.blocks if bb not in reachable]
    delete_dead_blocks(dead, dtu, keep_one_input_phis)
    return bool(dead)


def fold_single_entry_phi_nodes(bb: BasicBlock) -> bool:
    """Replace the phis of a block with one predecessor by their incoming value
    (LLVM ``FoldSingleEntryPHINodes``)."""
    first = bb.instructions._first
    if first is None or not first.is_phi:
        return False
    while True:
        phi = bb.instructions._first
        if phi is None or not phi.is_phi:
            break
        value = phi.get_incoming_value(0)
        phi.replace_all_uses_with(value if value is not phi else PoisonValue.get(phi.type))
        phi.erase_from_parent()
    return True


def delete_dead_phis(bb: BasicBlock, tli: object | None = None) -> bool:
    """Delete the phis of ``bb`` that only feed dead code or themselves (LLVM ``DeleteDeadPHIs``)."""
    from llvmpy_mid.transform.utils.local import recursively_delete_dead_phi_node

    changed = False
    for phi in list(bb.phis()):
        if not phi.is_erased:
            changed |= recursively_delete_dead_phi_node(phi, tli)
    return changed

__all__ = [
    "CFGUpdate",
    "DomTreeUpdaterLike",
    "delete_dead_block",
    "delete_dead_blocks",
    "delete_dead_phis",
    "detach_dead_blocks",
    "dt_split_block",
    "eliminate_unreachable_blocks",
    "fold_single_entry_phi_nodes",
    "first_non_phi_or_dbg",
    "is_debug_or_pseudo_probe_call",
    "loop_start_loc",
    "remove_predecessor",
    "replace_successor_with",
    "split_block_predecessors",
    "split_landing_pad_predecessors",
]
