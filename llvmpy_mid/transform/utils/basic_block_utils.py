"""Block-level CFG helpers, as LLVM's ``Transforms/Utils/BasicBlockUtils.cpp``
(and ``BasicBlock::removePredecessor``, ``DominatorTree::splitBlock``).

What: :func:`split_block_predecessors` (a new block in front of a block for some
of its predecessors, phis split with ``.ph`` copies, landing pads split in two
with ``.split-lp``), :func:`split_edge`, :func:`split_critical_edge` with
:class:`CriticalEdgeSplittingOptions`, :func:`split_all_critical_edges`,
:func:`split_block`, :func:`merge_block_into_predecessor`, :func:`delete_dead_block`
(s), :func:`fold_single_entry_phi_nodes`, :func:`delete_dead_phis`,
:func:`split_block_and_insert_if_then` / :func:`split_block_and_insert_if_then_else`,
:func:`replace_successor_with`, :func:`remove_predecessor`,
:func:`create_control_flow_hub` (``unify-loop-exits`` / ``fix-irreducible``) and
:func:`remove_redundant_dbg_instrs` (``redundant-dbg-inst-elim``).

How: each follows the LLVM 19.1.7 function of the same name, including block
names, block placement, phi order and debug locations, so the passes built on
them print what ``opt-19`` prints.  The dominator tree and LoopInfo are updated
in place where a caller passes them (``dt``/``li``); a DomTreeUpdater is taken as
``dtu`` where LLVM takes one.

What it does not do: MemorySSA updates (no MemorySSA here); :func:`split_edge` into an
EH pad (LLVM's ``ehAwareSplitEdge``) returns None; the dominator tree of a critical-edge
split is updated as ``DominatorTree::splitBlock`` does (same tree as LLVM's
``applyUpdates``, children possibly in another order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.debug_records import DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, UnreachableInst
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater

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


# --- critical edges ------------------------------------------------------------------------------


class CriticalEdgeSplittingOptions:
    """What :func:`split_critical_edge` keeps up to date and how (LLVM
    ``CriticalEdgeSplittingOptions``); the ``set_*`` methods return the options."""

    __slots__ = (
        "dt",
        "li",
        "merge_identical_edges",
        "keep_one_input_phis",
        "preserve_lcssa",
        "ignore_unreachable_dests",
        "preserve_loop_simplify",
        "mssau",
    )

    def __init__(
        self,
        dt: DominatorTree | None = None,
        li: LoopInfo | None = None,
        *,
        merge_identical_edges: bool = False,
        keep_one_input_phis: bool = False,
        preserve_lcssa: bool = False,
        ignore_unreachable_dests: bool = False,
        preserve_loop_simplify: bool = True,
        mssau: MemorySSAUpdater | None = None,
    ) -> None:
        self.dt = dt
        self.li = li
        self.mssau = mssau
        self.merge_identical_edges = merge_identical_edges
        self.keep_one_input_phis = keep_one_input_phis
        self.preserve_lcssa = preserve_lcssa
        self.ignore_unreachable_dests = ignore_unreachable_dests
        self.preserve_loop_simplify = preserve_loop_simplify

    def set_merge_identical_edges(self) -> CriticalEdgeSplittingOptions:
        self.merge_identical_edges = True
        return self

    def set_keep_one_input_phis(self) -> CriticalEdgeSplittingOptions:
        self.keep_one_input_phis = True
        return self

    def set_preserve_lcssa(self) -> CriticalEdgeSplittingOptions:
        self.preserve_lcssa = True
        return self

    def set_ignore_unreachable_dests(self) -> CriticalEdgeSplittingOptions:
        self.ignore_unreachable_dests = True
        return self

    def unset_preserve_loop_simplify(self) -> CriticalEdgeSplittingOptions:
        self.preserve_loop_simplify = False
        return self


def is_critical_edge(term: Instruction, dest: BasicBlock | int, allow_identical_edges: bool = False) -> bool:
    """The edge from ``term``'s block to ``dest`` (a block or successor index) is critical:
    the source has several successors and the destination several predecessors
    (with ``allow_identical_edges``, predecessor edges all from the source count as one)
    (LLVM ``isCriticalEdge``)."""
    if isinstance(dest, int):
        dest = term.get_successor(dest)
    if term.num_successors == 1:
        return False
    # Walk the predecessor edges (terminator uses of ``dest``) only as far as needed.
    first: BasicBlock | None = None
    use = dest._use_head
    while use is not None:
        user = use.user
        if user.is_instruction and user.is_terminator_class:  # type: ignore[attr-defined]
            pred = user.parent  # type: ignore[attr-defined]
            if pred is not None:
                if first is None:
                    first = pred
                elif not allow_identical_edges or pred is not first:
                    return True
        use = use._next
    return False


def successor_number(bb: BasicBlock, succ: BasicBlock) -> int:
    """The index of ``succ`` among ``bb``'s successors (LLVM ``GetSuccessorNumber``)."""
    succs = bb.successors
    for i, s in enumerate(succs):
        if s is succ:
            return i
    raise ValueError("%s is not a successor of %s" % (succ.name, bb.name))


def _is_lifetime_or_dbg(inst: Instruction) -> bool:
    if not inst.is_call_base:
        return False
    name: str = inst.intrinsic_name  # type: ignore[attr-defined]
    return name.startswith("llvm.dbg.") or name.startswith("llvm.lifetime.") or name == "llvm.pseudoprobe"


def first_non_phi_or_dbg_or_lifetime(bb: BasicBlock) -> Instruction | None:
    """LLVM ``getFirstNonPHIOrDbgOrLifetime``."""
    node = bb.first_non_phi
    while node is not None and _is_lifetime_or_dbg(node):
        node = node.next_instruction
    return node


def create_phis_for_split_loop_exit(preds: Sequence[BasicBlock], split_bb: BasicBlock, dest_bb: BasicBlock) -> None:
    """Keep LCSSA after ``split_bb`` was put on the exit edges from ``preds`` to
    ``dest_bb``: each value ``dest_bb``'s phis take from ``split_bb`` gets a ``.split``
    phi there (LLVM ``createPHIsForSplitLoopExit``)."""
    first = split_bb.first_non_phi
    is_lpad = first is not None and first.opcode == "landingpad"
    for phi in list(dest_bb.phis()):
        idx = phi.basic_block_index(split_bb)
        value = phi.get_incoming_value(idx)
        if value.is_instruction and value.is_phi and value.parent is split_bb:  # type: ignore[attr-defined]
            continue
        new_phi = PHINode(phi.type, name="split")
        pos = split_bb.instructions._first if is_lpad else split_bb.terminator
        assert pos is not None
        new_phi.insert_before(pos)
        for bb in preds:
            new_phi.add_incoming(value, bb)
        phi.set_incoming_value(idx, new_phi)


def split_critical_edge(
    term: Instruction, succ_num: int, options: CriticalEdgeSplittingOptions | None = None, name: str = ""
) -> BasicBlock | None:
    """Put a new block on edge ``succ_num`` of ``term`` if that edge is critical
    (LLVM ``SplitCriticalEdge``); returns the new block or None."""
    if options is None:
        options = CriticalEdgeSplittingOptions()
    if not is_critical_edge(term, succ_num, options.merge_identical_edges):
        return None
    return split_known_critical_edge(term, succ_num, options, name)


def split_known_critical_edge(
    term: Instruction, succ_num: int, options: CriticalEdgeSplittingOptions | None = None, name: str = ""
) -> BasicBlock | None:
    """LLVM ``SplitKnownCriticalEdge``: the new block ``<src>.<dest>_crit_edge`` goes
    right after the source block; the destination's phis, the dominator tree and
    loop info follow; None for an EH-pad destination (or an unreachable one when
    the options say so)."""
    if options is None:
        options = CriticalEdgeSplittingOptions()
    src = term.parent
    assert src is not None
    dest = term.get_successor(succ_num)
    first = dest.first_non_phi
    if first is not None and first.is_eh_pad:
        return None
    if options.ignore_unreachable_dests:
        node = first_non_phi_or_dbg_or_lifetime(dest)
        if node is not None and node.opcode == "unreachable":
            return None
    li = options.li
    loop_preds: list[BasicBlock] = []
    if li is not None:
        src_loop = li.loop_for(src)
        if src_loop is not None:
            for p in dest.predecessors:
                if p is src:
                    continue
                if li.loop_for(p) is not src_loop:
                    loop_preds = []
                    break
                loop_preds.append(p)
            if any(p.terminator is not None and p.terminator.opcode == "indirectbr" for p in loop_preds):
                if options.preserve_loop_simplify:
                    return None
                loop_preds = []
    ctx = term.type.context
    new_bb = BasicBlock(ctx, name if name else src.name + "." + dest.name + "_crit_edge")
    br = BranchInst(dest)
    new_bb.append(br)
    br.debug_loc = term.debug_loc
    fn = src.parent
    assert fn is not None
    fn.blocks.insert_before(new_bb, src.next_block)
    term.set_successor(succ_num, new_bb)
    idx = 0
    for phi in dest.phis():
        if idx >= phi.num_incoming or phi.get_incoming_block(idx) is not src:
            idx = phi.basic_block_index(src)
        phi.set_incoming_block(idx, new_bb)
    if options.merge_identical_edges:
        for i in range(succ_num + 1, term.num_successors):
            if term.get_successor(i) is not dest:
                continue
            remove_predecessor(dest, src, options.keep_one_input_phis)
            term.set_successor(i, new_bb)
    mssau = options.mssau
    if mssau is not None:
        mssau.wire_old_predecessors_to_new_immediate_predecessor(dest, new_bb, [src], options.merge_identical_edges)
    dt = options.dt
    if dt is not None:
        dt_split_block(dt, new_bb)
    if li is not None:
        src_loop = li.loop_for(src)
        if src_loop is not None:
            dest_loop = li.loop_for(dest)
            if dest_loop is not None:
                if src_loop is dest_loop:
                    li.add_block_to_loop(new_bb, dest_loop)
                elif src_loop.contains(dest_loop):
                    li.add_block_to_loop(new_bb, src_loop)
                elif dest_loop.contains(src_loop):
                    li.add_block_to_loop(new_bb, dest_loop)
                else:
                    parent = dest_loop.parent_loop
                    if parent is not None:
                        li.add_block_to_loop(new_bb, parent)
            if not src_loop.contains(dest):
                if options.preserve_lcssa:
                    create_phis_for_split_loop_exit([src], new_bb, dest)
                if loop_preds:
                    new_exit = split_block_predecessors(dest, loop_preds, "split", dt, li, options.preserve_lcssa)
                    if mssau is not None and new_exit is not None:
                        mssau.wire_old_predecessors_to_new_immediate_predecessor(dest, new_exit, loop_preds)
                    if options.preserve_lcssa and new_exit is not None:
                        create_phis_for_split_loop_exit(loop_preds, new_exit, dest)
    return new_bb


def split_all_critical_edges(fn: object, options: CriticalEdgeSplittingOptions | None = None) -> int:
    """Split every critical edge of ``fn`` except those out of ``indirectbr`` (LLVM
    ``SplitAllCriticalEdges``); returns how many new blocks there are."""
    from llvmpy_mid.ir.function import Function

    assert isinstance(fn, Function)
    if options is None:
        options = CriticalEdgeSplittingOptions()
    broken = 0
    bb = fn.blocks._first
    while bb is not None:
        term = bb.terminator
        if term is not None and term.opcode != "indirectbr":
            n = term.num_successors
            if n > 1:
                for i in range(n):
                    if split_critical_edge(term, i, options) is not None:
                        broken += 1
        bb = bb.next_block
    return broken


# --- splitting blocks and edges ----------------------------------------------------------------


def split_block(
    old: BasicBlock,
    split_pt: Instruction,
    dt: DominatorTree | None = None,
    li: LoopInfo | None = None,
    name: str = "",
    before: bool = False,
    dtu: DomTreeUpdaterLike | None = None,
) -> BasicBlock:
    """Split ``old`` at ``split_pt`` (moved past phis and EH pads) into ``old`` and a new
    block ``<old>.split`` after it that gets ``split_pt`` onwards (LLVM ``SplitBlock``);
    with ``before`` the new block goes in front and gets what precedes ``split_pt``."""
    if before:
        return split_block_before(old, split_pt, dt, li, name, dtu)
    it: Instruction | None = split_pt
    while it is not None and (it.is_phi or it.is_eh_pad):
        it = it.next_instruction
    assert it is not None, "split point past the end of the block"
    new_bb = old.split(it, name if name else old.name + ".split")
    if li is not None:
        loop = li.loop_for(old)
        if loop is not None:
            li.add_block_to_loop(new_bb, loop)
    if dtu is not None:
        updates: list[CFGUpdate] = [("insert", old, new_bb)]
        seen: set[BasicBlock] = set()
        for succ in new_bb.successors:
            if succ not in seen:
                seen.add(succ)
                updates.append(("insert", new_bb, succ))
                updates.append(("delete", old, succ))
        dtu.apply_updates(updates)
    elif dt is not None and old in dt:
        children = dt.children(old)
        dt.add_new_block(new_bb, old)
        for child in children:
            dt.change_immediate_dominator(child, new_bb)
    return new_bb


def split_block_before(
    old: BasicBlock,
    split_pt: Instruction,
    dt: DominatorTree | None = None,
    li: LoopInfo | None = None,
    name: str = "",
    dtu: DomTreeUpdaterLike | None = None,
) -> BasicBlock:
    """A new block ``<old>.split`` in front of ``old`` taking the instructions before
    ``split_pt`` and all of ``old``'s predecessors (LLVM ``splitBlockBefore``)."""
    it: Instruction | None = split_pt
    while it is not None and (it.is_phi or it.is_eh_pad):
        it = it.next_instruction
    assert it is not None, "split point past the end of the block"
    fn = old.parent
    assert fn is not None
    new_bb = BasicBlock(old.type.context, name if name else old.name + ".split")
    fn.blocks.insert_before(new_bb, old)
    loc = it.debug_loc
    node = old.instructions._first
    while node is not None and node is not it:
        nxt = node._next
        old.instructions.remove(node)
        new_bb.instructions.append(node)
        node = nxt
    preds = old.predecessors
    for pred in preds:
        term = pred.terminator
        assert term is not None
        replace_successor_with(term, old, new_bb)
        old.replace_phi_uses_with(pred, new_bb)
    br = BranchInst(old)
    br.debug_loc = loc
    new_bb.append(br)
    if li is not None:
        loop = li.loop_for(old)
        if loop is not None:
            li.add_block_to_loop(new_bb, loop)
    if dtu is not None:
        updates: list[CFGUpdate] = [("insert", new_bb, old)]
        seen: set[BasicBlock] = set()
        for pred in new_bb.predecessors:
            if pred not in seen:
                seen.add(pred)
                updates.append(("insert", pred, new_bb))
                updates.append(("delete", pred, old))
        dtu.apply_updates(updates)
    elif dt is not None and old in dt:
        idom = dt.idom(old)
        if idom is None:
            dt.recalculate()  # a new entry block
        else:
            dt.add_new_block(new_bb, idom)
            dt.change_immediate_dominator(old, new_bb)
    return new_bb


def split_edge(
    bb: BasicBlock, succ: BasicBlock, dt: DominatorTree | None = None, li: LoopInfo | None = None, name: str = ""
) -> BasicBlock | None:
    """Put a block on the edge ``bb`` -> ``succ`` (LLVM ``SplitEdge``): a critical edge is
    split with LCSSA kept; otherwise the top of ``succ`` or the bottom of ``bb`` is split."""
    succ_num = successor_number(bb, succ)
    term = bb.terminator
    assert term is not None
    options = CriticalEdgeSplittingOptions(dt, li).set_preserve_lcssa()
    if is_critical_edge(term, succ_num, options.merge_identical_edges):
        first = succ.first_non_phi
        if first is not None and first.is_eh_pad:
            return None  # LLVM's ehAwareSplitEdge is not done here
        return split_known_critical_edge(term, succ_num, options, name)
    if succ.single_predecessor is not None:
        front = succ.instructions._first
        assert front is not None
        return split_block(succ, front, dt, li, name, before=True)
    return split_block(bb, term, dt, li, name)


# --- merging blocks ------------------------------------------------------------------------------


_SPECIAL_TERMINATORS = frozenset(("catchswitch", "catchret", "cleanupret", "invoke", "resume", "callbr"))
"""Terminators that do more than branch (LLVM ``Instruction::isSpecialTerminator``)."""


def merge_block_into_predecessor(
    bb: BasicBlock,
    dtu: DomTreeUpdaterLike | None = None,
    li: LoopInfo | None = None,
    predecessor_with_two_successors: bool = False,
    dt: DominatorTree | None = None,
    mssau: MemorySSAUpdater | None = None,
) -> bool:
    """Fold ``bb`` into its unique predecessor when that predecessor only branches to it
    (or, with ``predecessor_with_two_successors``, branches conditionally and ``bb`` ends
    in an unconditional branch) (LLVM ``MergeBlockIntoPredecessor``); a MemorySSA
    updater ``mssau`` moves ``bb``'s memory accesses along."""
    if bb.has_address_taken:
        return False
    pred = bb.unique_predecessor
    if pred is None or pred is bb:
        return False
    pti = pred.terminator
    assert pti is not None
    if pti.opcode in _SPECIAL_TERMINATORS or pti.may_have_side_effects():
        return False
    if not predecessor_with_two_successors and pred.unique_successor is not bb:
        return False
    new_succ: BasicBlock | None = None
    fall_thru = 0
    if predecessor_with_two_successors:
        if pti.opcode != "br":
            return False
        bb_term = bb.terminator
        if bb_term is None or bb_term.opcode != "br" or bb_term.is_conditional:  # type: ignore[attr-defined]
            return False
        new_succ = bb_term.get_successor(0)
        fall_thru = 0 if pti.get_successor(0) is bb else 1
    for phi in bb.phis():
        for v in phi.incoming_values:
            if v is phi:
                return False
    first = bb.instructions._first
    if first is not None and first.is_phi:
        fold_single_entry_phi_nodes(bb)
    if dt is not None and pred in dt and bb in dt:
        for child in dt.children(bb):
            dt.change_immediate_dominator(child, pred)
    updates: list[CFGUpdate] = []
    if dtu is not None:
        pred_succs = set(pred.successors)
        seen: set[BasicBlock] = set()
        for s in bb.successors:
            if s not in pred_succs and s not in seen:
                seen.add(s)
                updates.append(("insert", pred, s))
        seen = set()
        for s in bb.successors:
            if s not in seen:
                seen.add(s)
                updates.append(("delete", bb, s))
        updates.append(("delete", pred, bb))
    sti = bb.terminator
    assert sti is not None
    node = bb.instructions._first
    mssa_start = pti if node is sti else node
    if node is not None and node is not sti:
        # Debug records before ``pti`` stay in front of the spliced range (LLVM's
        # ``splice`` at a position without the head bit).
        held = pti.take_dbg_records()
        if held:
            own = node.take_dbg_records()
            for record in held + own:
                node.add_dbg_record(record)
    while node is not None and node is not sti:
        nxt = node._next
        node.move_before(pti, preserve_dbg_records=True)
        node = nxt
    if mssau is not None:
        assert mssa_start is not None
        mssau.move_all_after_merge_blocks(bb, pred, mssa_start)
    bb.replace_all_uses_with(pred)
    if predecessor_with_two_successors:
        assert new_succ is not None
        sti.erase_from_parent()
        pti.set_successor(fall_thru, new_succ)
    else:
        # The moved terminator keeps its debug records; those of the erased one (left
        # trailing at the end of ``pred``) go in front of them, as opt-19 places them.
        trailing = pti.take_dbg_records()
        pti.erase_from_parent()
        own = sti.take_dbg_records()
        sti.remove_from_parent()
        pred.append(sti)
        for record in trailing + own:
            sti.add_dbg_record(record)
        if mssau is not None:
            term_access = mssau.get_memory_ssa().get_memory_access(sti)
            if term_access is not None:
                from llvmpy_mid.analysis.memory_ssa import END, MemoryUseOrDef

                assert isinstance(term_access, MemoryUseOrDef)
                mssau.move_to_place(term_access, pred, END)
    bb.append(UnreachableInst(bb.type.context))
    if not pred.has_name:
        taken = bb.name
        bb.set_name("")
        pred.set_name(taken)
    if li is not None:
        li.remove_block(bb)
    if dtu is not None:
        dtu.apply_updates(updates)
    if dt is not None and bb in dt:
        dt.erase_node(bb)
    delete_dead_block(bb, dtu)
    return True


# --- control-flow hubs ---------------------------------------------------------------------------


def _reconnect_phis(out: BasicBlock, guard: BasicBlock, incoming: Sequence[BasicBlock], first_guard: BasicBlock) -> None:
    """Move ``out``'s phi entries for the ``incoming`` blocks into ``.moved`` phis of the
    first guard block; ``out`` then takes those from ``guard``."""
    from llvmpy_mid.ir.constants import UndefValue

    for phi in list(out.phis()):
        new_phi = PHINode(phi.type, name=phi.name + ".moved")
        new_phi.insert_into(first_guard, first_guard.instructions._first)
        for inc in incoming:
            value: Value = UndefValue.get(phi.type)
            if inc is out:
                value = new_phi
            elif phi.basic_block_index(inc) != -1:
                value = phi.remove_incoming_value(inc, delete_if_empty=False)
            new_phi.add_incoming(value, inc)
        if phi.num_incoming == 0:
            phi.replace_all_uses_with(new_phi)
            phi.erase_from_parent()
            continue
        phi.add_incoming(new_phi, guard)


def _redirect_to_hub(
    bb: BasicBlock, first_guard: BasicBlock, outgoing: dict[BasicBlock, int]
) -> tuple[Value | None, BasicBlock | None, BasicBlock | None]:
    br = bb.terminator
    assert br is not None and br.opcode == "br"
    conditional: bool = br.is_conditional  # type: ignore[attr-defined]
    cond: Value | None = br.condition if conditional else None  # type: ignore[attr-defined]
    succ0: BasicBlock | None = br.get_successor(0)
    succ1: BasicBlock | None = None
    if succ0 not in outgoing:
        succ0 = None
    if not conditional:
        br.set_successor(0, first_guard)
    else:
        succ1 = br.get_successor(1)
        if succ1 not in outgoing:
            succ1 = None
        if succ0 is not None and succ1 is None:
            br.set_successor(0, first_guard)
        elif succ1 is not None and succ0 is None:
            br.set_successor(1, first_guard)
        else:
            records = br.take_dbg_records()
            br.erase_from_parent()
            new_br = BranchInst(first_guard)
            bb.append(new_br)
            for rec in records:
                new_br.add_dbg_record(rec)
    return cond, succ0, succ1


def create_control_flow_hub(
    dtu: DomTreeUpdaterLike | None,
    guard_blocks: list[BasicBlock],
    incoming: Sequence[BasicBlock],
    outgoing: Sequence[BasicBlock],
    prefix: str,
    max_control_flow_booleans: int | None = None,
) -> BasicBlock:
    """Route every edge from ``incoming`` to ``outgoing`` through a chain of new
    ``<prefix>.guard`` blocks that branch on which target was meant (i1 ``Guard.<out>``
    phis, or one i32 ``merged.bb.idx`` phi compared per target when there are more
    targets than ``max_control_flow_booleans``); phis of the targets move into the first
    guard (``.moved``). Returns the first guard block (LLVM ``CreateControlFlowHub``)."""
    from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
    from llvmpy_mid.ir.instructions.other import SelectInst
    from llvmpy_mid.transform.utils.local import invert_condition

    if len(outgoing) < 2:
        return outgoing[0]
    for inc in incoming:  # checked before anything changes
        term = inc.terminator
        if term is None or term.opcode != "br":
            from llvmpy_mid.errors import IRError

            raise IRError(
                "control-flow hub: block %%%s ends in %s; only br is supported here (LLVM requires it too:"
                " run lower-switch first)" % (inc.name, term.opcode if term is not None else "nothing")
            )
    out_index = {b: i for i, b in enumerate(outgoing)}
    updates: list[CFGUpdate] = []
    if dtu is not None:
        for inc in incoming:
            for succ in inc.successors:
                if succ in out_index:
                    updates.append(("delete", inc, succ))
    fn = incoming[0].parent
    assert fn is not None
    ctx = fn.type.context
    for _ in range(len(outgoing) - 1):
        guard_blocks.append(BasicBlock(ctx, prefix + ".guard", fn))
    first_guard = guard_blocks[0]
    predicates: dict[BasicBlock, Value] = {}
    deletion_candidates: list[Value] = []
    if max_control_flow_booleans is None or len(outgoing) <= max_control_flow_booleans:
        true_c = ConstantInt.get(ctx.i1, 1)
        false_c = ConstantInt.get(ctx.i1, 0)
        phis: list[PHINode] = []
        for out in outgoing[:-1]:
            phi = PHINode(ctx.i1, name="Guard." + out.name)
            first_guard.append(phi)
            predicates[out] = phi
            phis.append(phi)
        for inc in incoming:
            cond, s0, s1 = _redirect_to_hub(inc, first_guard, out_index)
            one_done = False
            for out, phi in zip(outgoing[:-1], phis):
                if out is not s0 and out is not s1:
                    phi.add_incoming(false_c, inc)
                elif s0 is None or s1 is None or one_done:
                    phi.add_incoming(true_c, inc)
                else:
                    assert cond is not None
                    if out is s0:
                        phi.add_incoming(cond, inc)
                    else:
                        inverted = invert_condition(cond)
                        deletion_candidates.append(cond)
                        phi.add_incoming(inverted, inc)
                    one_done = True
    else:
        i32 = ctx.i32
        idx_phi = PHINode(i32, name="merged.bb.idx")
        first_guard.append(idx_phi)
        for inc in incoming:
            cond, s0, s1 = _redirect_to_hub(inc, first_guard, out_index)
            if s0 is not None and s1 is not None:
                assert cond is not None
                term = inc.terminator
                assert term is not None
                sel = SelectInst(
                    cond, ConstantInt.get(i32, out_index[s0]), ConstantInt.get(i32, out_index[s1]), name="target.bb.idx"
                )
                sel.insert_before(term)
                idx_phi.add_incoming(sel, inc)
            else:
                target = s0 if s0 is not None else s1
                assert target is not None
                idx_phi.add_incoming(ConstantInt.get(i32, out_index[target]), inc)
        for i, out in enumerate(outgoing[:-1]):
            cmp = ICmpInst(Predicate.ICMP_EQ, idx_phi, ConstantInt.get(i32, i), name=out.name + ".predicate")
            guard_blocks[i].append(cmp)
            predicates[out] = cmp
    chain = guard_blocks + [outgoing[-1]]
    for i in range(len(guard_blocks)):
        out = outgoing[i]
        guard_blocks[i].append(BranchInst(out, chain[i + 1], predicates[out]))
    for i in range(len(guard_blocks)):
        _reconnect_phis(outgoing[i], guard_blocks[i], incoming, first_guard)
    _reconnect_phis(outgoing[-1], guard_blocks[-1], incoming, first_guard)
    if dtu is not None:
        n = len(guard_blocks)
        for inc in incoming:
            updates.append(("insert", inc, first_guard))
        for i in range(n - 1):
            updates.append(("insert", guard_blocks[i], outgoing[i]))
            updates.append(("insert", guard_blocks[i], guard_blocks[i + 1]))
        updates.append(("insert", guard_blocks[n - 1], outgoing[n - 1]))
        updates.append(("insert", guard_blocks[n - 1], outgoing[n]))
        dtu.apply_updates(updates)
    for cand in deletion_candidates:
        if cand._use_head is None and cand.is_instruction and not cand.is_erased:  # type: ignore[attr-defined]
            cand.erase_from_parent()  # type: ignore[attr-defined]
    return first_guard


# --- if-then(-else) splitting ------------------------------------------------------------------


def split_block_and_insert_if_then_else(
    cond: Value,
    split_before: Instruction,
    make_then: bool = True,
    make_else: bool = True,
    branch_weights: MDNode | None = None,
    dtu: DomTreeUpdaterLike | None = None,
    li: LoopInfo | None = None,
    unreachable_then: bool = False,
    unreachable_else: bool = False,
) -> tuple[BasicBlock | None, BasicBlock | None]:
    """Split the block before ``split_before`` into head and tail, and branch from the head
    on ``cond`` to a new then block and/or a new else block (each falling through to the
    tail, or ending in ``unreachable``) or straight to the tail (LLVM
    ``SplitBlockAndInsertIfThenElse``). Returns (then block, else block), None for one not
    made."""
    assert make_then or make_else, "at least one branch block must be created"
    head = split_before.parent
    assert head is not None
    fn = head.parent
    assert fn is not None
    orig_succs: list[BasicBlock] = []
    if dtu is not None:
        seen: set[BasicBlock] = set()
        for succ in head.successors:
            if succ not in seen:
                seen.add(succ)
                orig_succs.append(succ)
    ctx = head.type.context
    loc = split_before.debug_loc
    # LLVM splits at the instruction's iterator (no head bit): the debug records in front
    # of it stay in the head, in front of its new terminator.
    kept_records = split_before.take_dbg_records()
    tail = head.split(split_before, "")

    def new_block(unreachable: bool) -> tuple[BasicBlock, bool]:
        bb = BasicBlock(ctx, "")
        fn.blocks.insert_before(bb, tail)
        term: Instruction = UnreachableInst(ctx) if unreachable else BranchInst(tail)
        bb.append(term)
        term.debug_loc = loc
        return bb, not unreachable

    true_bb = false_bb = tail
    then_to_tail = else_to_tail = False
    then_bb: BasicBlock | None = None
    else_bb: BasicBlock | None = None
    if make_then:
        then_bb, then_to_tail = new_block(unreachable_then)
        true_bb = then_bb
    if make_else:
        else_bb, else_to_tail = new_block(unreachable_else)
        false_bb = else_bb
    old_term = head.terminator
    assert old_term is not None
    new_term = BranchInst(true_bb, false_bb, cond)
    if branch_weights is not None:
        new_term.set_metadata("prof", branch_weights)
    new_term.insert_before(old_term)
    if new_term.debug_loc is None:
        new_term.debug_loc = old_term.debug_loc
    for rec in kept_records:
        new_term.add_dbg_record(rec)
    old_term.erase_from_parent()
    if dtu is not None:
        updates: list[CFGUpdate] = [("insert", head, true_bb), ("insert", head, false_bb)]
        if then_to_tail:
            updates.append(("insert", true_bb, tail))
        if else_to_tail:
            updates.append(("insert", false_bb, tail))
        for succ in orig_succs:
            updates.append(("insert", tail, succ))
        for succ in orig_succs:
            updates.append(("delete", head, succ))
        dtu.apply_updates(updates)
    if li is not None:
        loop = li.loop_for(head)
        if loop is not None:
            if then_to_tail:
                li.add_block_to_loop(true_bb, loop)
            if else_to_tail:
                li.add_block_to_loop(false_bb, loop)
            li.add_block_to_loop(tail, loop)
    return then_bb, else_bb


def split_block_and_insert_if_then(
    cond: Value,
    split_before: Instruction,
    unreachable: bool = False,
    branch_weights: MDNode | None = None,
    dtu: DomTreeUpdaterLike | None = None,
    li: LoopInfo | None = None,
) -> Instruction:
    """Split the block before ``split_before`` and branch on ``cond`` to a new block that
    falls through to the tail (or is ``unreachable``); returns the new block's terminator
    (LLVM ``SplitBlockAndInsertIfThen``)."""
    then_bb, _ = split_block_and_insert_if_then_else(
        cond, split_before, True, False, branch_weights, dtu, li, unreachable_then=unreachable
    )
    assert then_bb is not None
    term = then_bb.terminator
    assert term is not None
    return term


# --- redundant debug records -------------------------------------------------------------------


def _debug_variable(rec: DbgVariableRecord, with_fragment: bool) -> tuple[object, object, object]:
    """LLVM ``DebugVariable``: (variable, fragment or None, inlined-at)."""
    from llvmpy_mid.ir.di_expression import fragment_info

    frag = fragment_info(rec.expression) if with_fragment else None  # type: ignore[arg-type]
    return rec.variable, frag, getattr(rec.debug_loc, "inlined_at", None)


def _assignment_ids_in_use(fn: object) -> set[object]:
    """The ``!DIAssignID`` nodes some instruction of ``fn`` carries."""
    out: set[object] = set()
    for bb in getattr(fn, "blocks", ()):
        for inst in bb.instructions:
            if inst.has_metadata:
                md = inst.get_metadata("DIAssignID")
                if md is not None:
                    out.add(md)
    return out


def _remove_redundant_backward(bb: BasicBlock, linked: Callable[[DbgVariableRecord], bool]) -> bool:
    from llvmpy_mid.ir.debug_records import DbgLabelRecord

    doomed: list[DbgVariableRecord] = []
    seen: set[tuple[object, object, object]] = set()
    inst = bb.instructions._last
    while inst is not None:
        for rec in reversed(inst.dbg_records):
            if isinstance(rec, DbgLabelRecord):
                seen.clear()
                continue
            assert isinstance(rec, DbgVariableRecord)
            if rec.kind is DbgRecordKind.DECLARE:
                seen.clear()
                continue
            key = _debug_variable(rec, True)
            if key not in seen:
                seen.add(key)
                continue
            if rec.kind is DbgRecordKind.ASSIGN and linked(rec):
                continue
            doomed.append(rec)
        seen.clear()
        inst = inst.prev_instruction
    for rec in doomed:
        rec.erase_from_parent()
    return bool(doomed)


def _remove_redundant_forward(bb: BasicBlock, linked: Callable[[DbgVariableRecord], bool]) -> bool:
    doomed: list[DbgVariableRecord] = []
    known: dict[tuple[object, object, object], tuple[list[Value], object]] = {}
    for inst in bb.instructions:
        for rec in inst.dbg_records:
            if not isinstance(rec, DbgVariableRecord) or rec.kind is DbgRecordKind.DECLARE:
                continue
            key = _debug_variable(rec, False)
            value_kind = rec.kind is not DbgRecordKind.ASSIGN or not linked(rec)
            values = rec.location_values()
            prev = known.get(key)
            if prev is None or prev[0] != values or prev[1] is not rec.expression:
                known[key] = (values, rec.expression if value_kind else None)
                continue
            if not value_kind:
                continue
            doomed.append(rec)
    for rec in doomed:
        rec.erase_from_parent()
    return bool(doomed)


def _remove_undef_assigns_from_entry(bb: BasicBlock, linked: Callable[[DbgVariableRecord], bool]) -> bool:
    doomed: list[DbgVariableRecord] = []
    seen: set[tuple[object, object, object]] = set()
    for inst in bb.instructions:
        for rec in inst.dbg_records:
            if not isinstance(rec, DbgVariableRecord) or rec.kind is DbgRecordKind.DECLARE:
                continue
            value_kind = rec.kind is DbgRecordKind.VALUE or not linked(rec)
            key = _debug_variable(rec, False)
            if key in seen:
                continue
            if not (rec.is_kill_location and value_kind):
                seen.add(key)
            elif rec.kind is DbgRecordKind.ASSIGN:
                doomed.append(rec)
    for rec in doomed:
        rec.erase_from_parent()
    return bool(doomed)


def remove_redundant_dbg_instrs(bb: BasicBlock) -> bool:
    """Drop debug records that say nothing new: in a run of records, an earlier one for a
    variable (fragment) that a later one in the run redefines; then one that repeats the
    location and expression the variable already has; in the entry block of a module with
    assignment tracking, leading killed ``#dbg_assign`` records (LLVM
    ``RemoveRedundantDbgInstrs``)."""
    from llvmpy_mid.ir.module_flags import get_module_flag_int

    fn = bb.parent
    ids: set[object] | None = None

    def linked(rec: DbgVariableRecord) -> bool:
        nonlocal ids
        if ids is None:
            ids = _assignment_ids_in_use(fn)
        return rec.assign_id in ids

    changed = _remove_redundant_backward(bb, linked)
    mod = bb.module
    if bb.is_entry_block and mod is not None and get_module_flag_int(mod, "debug-info-assignment-tracking"):
        changed |= _remove_undef_assigns_from_entry(bb, linked)
    changed |= _remove_redundant_forward(bb, linked)
    return changed

__all__ = [
    "CFGUpdate",
    "CriticalEdgeSplittingOptions",
    "create_control_flow_hub",
    "create_phis_for_split_loop_exit",
    "first_non_phi_or_dbg_or_lifetime",
    "is_critical_edge",
    "merge_block_into_predecessor",
    "split_all_critical_edges",
    "split_block",
    "split_block_and_insert_if_then",
    "split_block_and_insert_if_then_else",
    "split_block_before",
    "split_critical_edge",
    "split_edge",
    "split_known_critical_edge",
    "successor_number",
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
    "remove_redundant_dbg_instrs",
    "replace_successor_with",
    "split_block_predecessors",
    "split_landing_pad_predecessors",
]


def fold_return_into_uncond_branch(
    ret: Instruction, bb: BasicBlock, pred: BasicBlock, dtu: DomTreeUpdaterLike | None = None
) -> Instruction:
    """Replace ``pred``'s unconditional branch to the return block ``bb`` by a copy of
    its return ``ret``; a returned phi of ``bb`` (seen through one ``extractvalue`` and
    one ``bitcast``, which are copied too) becomes its value for ``pred`` (LLVM
    ``FoldReturnIntoUncondBranch``, BasicBlockUtils.cpp). Returns the new return."""
    from llvmpy_mid.ir.instructions.casts import BitCastInst
    from llvmpy_mid.ir.instructions.vector import ExtractValueInst

    branch = pred.terminator
    assert branch is not None
    new_ret = ret.clone()
    pred.append(new_ret)
    for i, v in enumerate(new_ret.operands):
        new_bc: Instruction | None = None
        if isinstance(v, BitCastInst):
            new_bc = v.clone()
            new_bc.insert_before(new_ret)
            new_ret.set_operand(i, new_bc)
            v = v.operands[0]
        new_ev: Instruction | None = None
        if isinstance(v, ExtractValueInst):
            new_ev = v.clone()
            if new_bc is not None:
                new_ev.insert_before(new_bc)
                new_bc.set_operand(0, new_ev)
            else:
                new_ev.insert_before(new_ret)
                new_ret.set_operand(i, new_ev)
            v = v.operands[0]
        if isinstance(v, PHINode) and v.parent is bb:
            incoming = v.incoming_value_for_block(pred)
            if new_ev is not None:
                new_ev.set_operand(0, incoming)
            elif new_bc is not None:
                new_bc.set_operand(0, incoming)
            else:
                new_ret.set_operand(i, incoming)
    remove_predecessor(bb, pred)
    branch.erase_from_parent()
    if dtu is not None:
        dtu.apply_updates([("delete", pred, bb)])
    return new_ret
