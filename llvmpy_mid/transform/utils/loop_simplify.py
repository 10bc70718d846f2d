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
from llvmpy_mid.transform.utils.ssa_updater import simplify_phi_node

# --- small CFG helpers ----------------------------------------------------------------------


def replace_successor_with(term: Instruction, old: BasicBlock, new: BasicBlock) -> None:
    """Point every successor slot of ``term`` that names ``old`` at ``new``, in
    successor order (LLVM ``replaceSuccessorWith``)."""
    succs = term.successors
    for i in range(len(succs)):
        if succs[i] is old:
            term.set_successor(i, new)


def _is_debug_or_probe_call(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    fn = inst.called_function  # type: ignore[attr-defined]
    if fn is None:
        return False
    name: str = fn.name
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


def _first_non_phi_or_dbg(bb: BasicBlock) -> Instruction | None:
    node = bb.first_non_phi
    while node is not None and _is_debug_or_probe_call(node):
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


def change_to_unreachable(inst: Instruction, preserve_lcssa: bool = False) -> int:
    """Replace ``inst`` and everything after it by ``unreachable``, removing the
    block from its successors' phis (LLVM ``changeToUnreachable`` without updaters)."""
    bb = inst.parent
    assert bb is not None
    for succ in bb.successors:
        remove_predecessor(succ, bb, preserve_lcssa)
    ui = UnreachableInst(bb.type.context)
    ui.insert_before(inst)
    ui.debug_loc = inst.debug_loc
    removed = 0
    node: Instruction | None = inst
    while node is not None:
        nxt = node.next_instruction
        if node.has_uses:
            node.replace_all_uses_with(PoisonValue.get(node.type))
        node.erase_from_parent()
        removed += 1
        node = nxt
    return removed


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
        return _split_landing_pad_predecessors(bb, preds, suffix, suffix + ".split-lp", dt, li, preserve_lcssa)[0]
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
        first_real = _first_non_phi_or_dbg(bb)
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


def _split_landing_pad_predecessors(
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
        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        changed = False
        for loop in list(li.top_level_loops):
            changed |= simplify_loop(loop, dt, li, False)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(LoopAnalysis)
        return pa


__all__ = [
    "LoopSimplifyPass",
    "change_to_unreachable",
    "dt_split_block",
    "form_dedicated_exit_blocks",
    "insert_preheader_for_loop",
    "loop_start_loc",
    "remove_predecessor",
    "replace_successor_with",
    "simplify_loop",
    "split_block_predecessors",
]
