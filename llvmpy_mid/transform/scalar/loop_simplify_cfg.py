"""``loop-simplifycfg``: fold constant branches and switches of a loop, delete the blocks and
exits that become dead, and merge blocks into their single predecessor (LLVM 19.1.7
``lib/Transforms/Scalar/LoopSimplifyCFG.cpp``).

What, per loop (innermost first, as the loop adaptor visits them):

1. Constant terminator folding (``-enable-loop-simplifycfg-term-folding``, on by default), on
   a loop with one latch and no irreducible cycle: :class:`ConstantTerminatorFolding` walks
   the loop's blocks in reverse post-order from the header, following only the live successor
   of a block of the loop itself (not of a sub-loop) whose ``br``/``switch`` has a constant
   condition (or two equal successors). Blocks never reached are dead; exits whose every
   predecessor is in the loop and that are never reached are dead exits. Nothing is done when
   there is nothing to fold, when the backedge would die (deleting the current loop is not
   supported), when a live block would leave the loop, or when there are dead exits and a
   token defined in the loop is used outside it or no preheader (``indirectbr`` into the
   header: opt-19 crashes there). Otherwise:

   - dead exits stay reachable through a ``switch i32 0`` ending the old preheader, whose
     default is the new preheader ``<preheader>.split`` and whose cases are the dead exits;
     their phis and landing pads become poison. When the loop no longer reaches its parent's latch it moves up to the
     innermost enclosing loop it still exits to, and LCSSA is rebuilt below it;
   - each candidate's terminator becomes ``br`` to its live successor (the dead successors
     lose it as predecessor; phis of blocks outside the loop keep one input);
   - dead blocks are deleted (loops inside them first leave LoopInfo).

2. :func:`merge_blocks_into_predecessors`: each block of the loop whose single predecessor
   belongs to this loop (not a sub-loop) and has a single successor is merged into it.

Statistics ``NumTerminatorsFolded``, ``NumLoopBlocksDeleted`` and ``NumLoopExitsDeleted``
(``loop-simplifycfg``). The dominator tree, LoopInfo, ScalarEvolution (forgotten for the
topmost loop around a changed loop) and, under ``loop-mssa``, MemorySSA stay valid.
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.loop_iterator import loop_blocks_postorder
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import (
    detach_dead_blocks,
    merge_block_into_predecessor,
    remove_predecessor,
    split_block,
)
from llvmpy_mid.transform.utils.loop_utils import erase_loop

__all__ = [
    "ConstantTerminatorFolding",
    "LoopSimplifyCFGPass",
    "constant_fold_terminators",
    "get_only_live_successor",
    "merge_blocks_into_predecessors",
    "simplify_loop_cfg",
]

DEBUG_TYPE = "loop-simplifycfg"
NUM_TERMINATORS_FOLDED = Statistic(DEBUG_TYPE, "NumTerminatorsFolded", "Number of terminators folded to unconditional branches")
NUM_LOOP_BLOCKS_DELETED = Statistic(DEBUG_TYPE, "NumLoopBlocksDeleted", "Number of loop blocks deleted")
NUM_LOOP_EXITS_DELETED = Statistic(DEBUG_TYPE, "NumLoopExitsDeleted", "Number of loop exiting edges deleted")

CFGUpdate = tuple[str, BasicBlock, BasicBlock]


def get_only_live_successor(bb: BasicBlock) -> BasicBlock | None:
    """The one successor a conditional ``br`` or a ``switch`` can reach at run time (constant
    condition, or both ``br`` destinations equal); None otherwise (LLVM
    ``getOnlyLiveSuccessor``)."""
    term = bb.terminator
    if isinstance(term, BranchInst):
        if not term.is_conditional:
            return None
        if_true = term.get_successor(0)
        if_false = term.get_successor(1)
        if if_true is if_false:
            return if_true
        cond = term.condition
        if not isinstance(cond, ConstantInt):
            return None
        return if_false if cond.is_zero else if_true
    if isinstance(term, SwitchInst):
        cond = term.condition
        if not isinstance(cond, ConstantInt):
            return None
        ops = term.operands
        for k in range(2, len(ops), 2):
            if ops[k] is cond:
                dest = ops[k + 1]
                assert isinstance(dest, BasicBlock)
                return dest
        return term.default_dest
    return None


def _remove_block_from_loops(bb: BasicBlock, first: Loop, last: Loop | None = None) -> None:
    """Take ``bb`` out of ``first`` and its parents up to (not including) ``last``."""
    current: Loop | None = first
    while current is not last:
        assert current is not None
        current.remove_block_from_loop(bb)
        current = current.parent_loop


def _innermost_loop_for(blocks: list[BasicBlock], loop: Loop, li: LoopInfo) -> Loop | None:
    """The innermost loop strictly containing ``loop`` that holds one of ``blocks`` (LLVM
    ``getInnermostLoopFor``)."""
    innermost: Loop | None = None
    for bb in blocks:
        bbl = li.loop_for(bb)
        while bbl is not None and not bbl.contains(loop.header):
            bbl = bbl.parent_loop
        if bbl is loop:
            bbl = bbl.parent_loop
        if bbl is None:
            continue
        if innermost is None or bbl.depth > innermost.depth:
            innermost = bbl
    return innermost


def _tokens_in_lcssa_form(loop: Loop, dt: Any) -> bool:
    """No token defined in ``loop`` is used outside it in reachable code (the part of LLVM's
    ``isLCSSAForm(DT, /*IgnoreTokens=*/false)`` that ``Loop.is_lcssa_form`` skips)."""
    members = loop.block_set
    for bb in loop.blocks:
        for inst in bb.instructions:
            if not inst.type.is_token:
                continue
            for use in inst.uses:
                user = use.user
                assert isinstance(user, Instruction)
                user_bb = user.get_incoming_block_for_use(use) if isinstance(user, PHINode) else user.parent
                if user_bb is not None and user_bb is not bb and user_bb not in members and dt.is_reachable(user_bb):
                    return False
    return True


def _adopt_dbg_records(new: Instruction, pos: Instruction) -> None:
    """``new`` was inserted right before ``pos``: the debug records in front of ``pos`` now
    come before ``new`` (LLVM's insertion at an iterator without the head bit)."""
    for record in pos.take_dbg_records():
        new.add_dbg_record(record)


def _verify_mssa(mssau: Any) -> None:
    if mssau is not None and OPTIONS.value("verify-memoryssa"):
        mssau.get_memory_ssa().verify_memory_ssa()


class ConstantTerminatorFolding:
    """Folds the constant terminators of one loop (LLVM ``ConstantTerminatorFoldingImpl``)."""

    def __init__(self, loop: Loop, li: LoopInfo, dt: Any, se: Any, mssau: Any) -> None:
        self.loop = loop
        self.li = li
        self.dt = dt
        self.se = se
        self.mssau = mssau
        self.dtu = DomTreeUpdater(dt, strategy="eager")
        self.dt_updates: list[CFGUpdate] = []
        self.has_irreducible_cfg = False
        self.delete_current_loop = False
        """The backedge dies with the folding (the transform then gives up)."""
        self.live_loop_blocks: set[BasicBlock] = set()
        self.dead_loop_blocks: list[BasicBlock] = []
        self.live_exit_blocks: dict[BasicBlock, None] = {}
        self.dead_exit_blocks: list[BasicBlock] = []
        self.blocks_in_loop_after_folding: set[BasicBlock] = set()
        self.fold_candidates: list[BasicBlock] = []

    # --- analysis -----------------------------------------------------------------------------
    def _irreducible(self, rpo: list[BasicBlock]) -> bool:
        """An edge inside the loop goes back in RPO to a block that is no loop header."""
        index = {bb: i for i, bb in enumerate(rpo)}
        loop = self.loop
        li = self.li
        for i, bb in enumerate(rpo):
            for succ in bb.successors:
                if loop.contains(succ) and not li.is_loop_header(succ) and i > index[succ]:
                    return True
        return False

    def _is_edge_live(self, src: BasicBlock, dst: BasicBlock) -> bool:
        if src not in self.live_loop_blocks:
            return False
        only = get_only_live_successor(src)
        return only is None or only is dst or self.li.loop_for(src) is not self.loop

    def analyze(self) -> None:
        """Which blocks and exits stay live, which terminators fold, and which blocks remain in
        the loop after folding (LLVM ``analyze``)."""
        loop = self.loop
        li = self.li
        postorder = loop_blocks_postorder(loop)
        rpo = postorder[::-1]
        if self._irreducible(rpo):
            self.has_irreducible_cfg = True
            return
        live = self.live_loop_blocks
        live.add(loop.header)
        for bb in rpo:
            if bb not in live:
                self.dead_loop_blocks.append(bb)
                continue
            only = get_only_live_successor(bb)
            take = only is not None and li.loop_for(bb) is loop
            if take:
                self.fold_candidates.append(bb)
            for succ in bb.successors:
                if not take or succ is only:
                    if loop.contains(succ):
                        live.add(succ)
                    else:
                        self.live_exit_blocks[succ] = None
        seen: set[BasicBlock] = set()
        members = loop.block_set
        for exit_bb in loop.exit_blocks:
            if exit_bb in self.live_exit_blocks or exit_bb in seen:
                continue
            seen.add(exit_bb)
            if all(p in members for p in exit_bb.predecessors):
                self.dead_exit_blocks.append(exit_bb)
        latch = loop.latch
        assert latch is not None
        self.delete_current_loop = not self._is_edge_live(latch, loop.header)
        if self.delete_current_loop:
            return
        in_loop = self.blocks_in_loop_after_folding
        in_loop.add(latch)
        for bb in postorder:
            if any(succ in in_loop and self._is_edge_live(bb, succ) for succ in bb.successors):
                in_loop.add(bb)

    # --- transformation -------------------------------------------------------------------------
    def _apply_dt_updates(self) -> None:
        self.dtu.apply_updates(self.dt_updates)
        self.dt_updates = []

    def handle_dead_exits(self) -> None:
        """Keep the dead exits reachable from a dummy ``switch i32 0`` in the preheader, so the
        loop's edges to them can go (LLVM ``handleDeadExits``)."""
        if not self.dead_exit_blocks:
            return
        loop = self.loop
        li = self.li
        dt = self.dt
        se = self.se
        mssau = self.mssau
        preheader = loop.preheader
        assert preheader is not None
        term = preheader.terminator
        assert term is not None
        # LLVM splits at the terminator without the head bit: the debug records in front of it
        # stay in the preheader.
        kept_records = term.take_dbg_records()
        new_preheader = split_block(preheader, term, dt, li)
        if mssau is not None:
            first = new_preheader.instructions._first
            assert first is not None
            mssau.move_all_after_splice_blocks(preheader, new_preheader, first)
        old_term = preheader.terminator
        assert old_term is not None
        for record in kept_records:
            old_term.add_dbg_record(record)
        builder = IRBuilder(before=old_term)
        builder.debug_loc = old_term.debug_loc
        i32 = preheader.type.context.i32
        dummy_switch = builder.switch(ConstantInt.get(i32, 0), new_preheader)
        _adopt_dbg_records(dummy_switch, old_term)
        old_term.erase_from_parent()
        index = 1
        for bb in self.dead_exit_blocks:
            dead: list[Instruction] = list(bb.phis())
            first_non_phi = bb.first_non_phi
            if first_non_phi is not None and first_non_phi.opcode == "landingpad":
                dead.append(first_non_phi)
            for inst in dead:
                if se is not None:
                    se.forget_block_and_loop_dispositions(inst)
                inst.replace_all_uses_with(PoisonValue.get(inst.type))
                inst.erase_from_parent()
            dummy_switch.add_case(ConstantInt.get(i32, index), bb)
            index += 1
            self.dt_updates.append(("insert", preheader, bb))
            NUM_LOOP_EXITS_DELETED.add()
        assert loop.preheader is new_preheader, "malformed CFG"
        outer = li.loop_for(preheader)
        if outer is not None:
            still_reachable = _innermost_loop_for(list(self.live_exit_blocks), loop, li)
            if still_reachable is not outer:
                li.change_loop_for(new_preheader, still_reachable)
                _remove_block_from_loops(new_preheader, outer, still_reachable)
                for bb in loop.blocks:
                    _remove_block_from_loops(bb, outer, still_reachable)
                outer.remove_child_loop(loop)
                if still_reachable is not None:
                    still_reachable.add_child_loop(loop)
                else:
                    li.add_top_level_loop(loop)
                fix_lcssa_loop = outer
                while fix_lcssa_loop.parent_loop is not still_reachable:
                    parent = fix_lcssa_loop.parent_loop
                    assert parent is not None
                    fix_lcssa_loop = parent
                if mssau is not None:
                    mssau.apply_updates(self.dt_updates, dt, update_dt=True)
                    self.dt_updates = []
                else:
                    self._apply_dt_updates()
                from llvmpy_mid.transform.utils.lcssa import form_lcssa_recursively

                form_lcssa_recursively(fix_lcssa_loop, dt, li)
                if se is not None:
                    se.forget_block_and_loop_dispositions()
        if mssau is not None:
            mssau.apply_updates(self.dt_updates, dt, update_dt=True)
            self.dt_updates = []
            _verify_mssa(mssau)

    def delete_dead_loop_blocks(self) -> None:
        """Delete the blocks the folding left unreachable, with the loops inside them (LLVM
        ``deleteDeadLoopBlocks``)."""
        li = self.li
        dead_blocks = self.dead_loop_blocks
        if self.mssau is not None:
            self.mssau.remove_blocks(dead_blocks)
        for bb in dead_blocks:
            if not li.is_loop_header(bb):
                continue
            dead_loop = li.loop_for(bb)
            assert dead_loop is not None and dead_loop is not self.loop, "the current loop cannot die here"
            parent = dead_loop.parent_loop
            if parent is not None:
                outer: Loop | None = parent
                while outer is not None:
                    for block in dead_loop.blocks:
                        outer.remove_block_from_loop(block)
                    outer = outer.parent_loop
                parent.remove_child_loop(dead_loop)
                li.add_top_level_loop(dead_loop)
            erase_loop(li, dead_loop)
        for bb in dead_blocks:
            assert bb is not self.loop.header, "the header of the current loop cannot be dead"
            li.remove_block(bb)
        detach_dead_blocks(dead_blocks, self.dt_updates, keep_one_input_phis=True)
        self._apply_dt_updates()
        for bb in dead_blocks:
            self.dtu.delete_bb(bb)
        NUM_LOOP_BLOCKS_DELETED.add(len(dead_blocks))

    def fold_terminators(self) -> None:
        """Replace each candidate's terminator by a branch to its live successor (LLVM
        ``foldTerminators``)."""
        loop = self.loop
        mssau = self.mssau
        for bb in self.fold_candidates:
            only = get_only_live_successor(bb)
            assert only is not None, "a fold candidate has one live successor"
            dead_succs: dict[BasicBlock, None] = {}
            duplicates = 0
            for succ in bb.successors:
                if succ is not only:
                    dead_succs[succ] = None
                    remove_predecessor(succ, bb, keep_one_input_phis=not loop.contains(succ))
                    if mssau is not None:
                        mssau.remove_edge(bb, succ)
                else:
                    duplicates += 1
            keep = not loop.contains(only)
            for _ in range(1, duplicates):
                remove_predecessor(only, bb, keep_one_input_phis=keep)
            if mssau is not None and duplicates > 1:
                mssau.remove_duplicate_phi_edges_between(bb, only)
            term = bb.terminator
            assert term is not None
            builder = IRBuilder(before=term)
            builder.debug_loc = term.debug_loc
            _adopt_dbg_records(builder.br(only), term)
            term.erase_from_parent()
            for dead in dead_succs:
                self.dt_updates.append(("delete", bb, dead))
            NUM_TERMINATORS_FOLDED.add()

    def run(self) -> bool:
        """Analyse and, when it can, fold; True when the IR changed (LLVM ``run``)."""
        loop = self.loop
        assert loop.latch is not None, "a single latch"
        self.analyze()
        if self.has_irreducible_cfg or not self.fold_candidates or self.delete_current_loop:
            return False
        if len(self.blocks_in_loop_after_folding) + len(self.dead_loop_blocks) != loop.num_blocks:
            return False
        if self.dead_exit_blocks and not (loop.is_lcssa_form(self.dt) and _tokens_in_lcssa_form(loop, self.dt)):
            return False
        if self.dead_exit_blocks and loop.preheader is None:
            # LLVM 19 crashes here (it splits a null preheader); the safe thing is to give up.
            return False
        se = self.se
        if se is not None:
            se.forget_topmost_loop(loop)
            if self.dead_loop_blocks:
                se.forget_block_and_loop_dispositions()
        self.handle_dead_exits()
        self.fold_terminators()
        if self.dead_loop_blocks:
            self.delete_dead_loop_blocks()
        else:
            self._apply_dt_updates()
        _verify_mssa(self.mssau)
        return True


def constant_fold_terminators(loop: Loop, dt: Any, li: LoopInfo, se: Any, mssau: Any) -> tuple[bool, bool]:
    """``(changed, loop deleted)`` (LLVM ``constantFoldTerminators``)."""
    if not OPTIONS.value("enable-loop-simplifycfg-term-folding"):
        return False, False
    if loop.latch is None:
        return False, False
    folder = ConstantTerminatorFolding(loop, li, dt, se, mssau)
    changed = folder.run()
    return changed, changed and folder.delete_current_loop


def merge_blocks_into_predecessors(loop: Loop, dt: Any, li: LoopInfo, mssau: Any, se: Any) -> bool:
    """Merge each block of ``loop`` into its single predecessor when that predecessor is in
    ``loop`` itself and has a single successor (LLVM ``mergeBlocksIntoPredecessors``; as
    there, an attempted merge counts as a change even when it is refused)."""
    changed = False
    dtu = DomTreeUpdater(dt, strategy="eager")
    for succ in list(loop.blocks):
        if succ.parent is None:
            continue  # merged away already
        pred = succ.single_predecessor
        if pred is None or pred.single_successor is None or li.loop_for(pred) is not loop:
            continue
        merge_block_into_predecessor(succ, dtu, li, mssau=mssau)
        _verify_mssa(mssau)
        changed = True
    if changed and se is not None:
        se.forget_block_and_loop_dispositions()
    return changed


def simplify_loop_cfg(loop: Loop, dt: Any, li: LoopInfo, se: Any, mssau: Any) -> tuple[bool, bool]:
    """``(changed, loop deleted)`` (LLVM ``simplifyLoopCFG``)."""
    changed, deleted = constant_fold_terminators(loop, dt, li, se, mssau)
    if deleted:
        return True, True
    changed |= merge_blocks_into_predecessors(loop, dt, li, mssau, se)
    if changed and se is not None:
        se.forget_topmost_loop(loop)
    return changed, False


class LoopSimplifyCFGPass(Pass[Loop]):
    """``loop-simplifycfg`` (LLVM ``LoopSimplifyCFGPass``)."""

    name: ClassVar[str] = "loop-simplifycfg"

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
        from llvmpy_mid.passes.loop_pass_manager import loop_pass_preserved_analyses

        ar = am.standard  # type: ignore[attr-defined]
        mssau = MemorySSAUpdater(ar.mssa) if ar.mssa is not None else None
        changed, deleted = simplify_loop_cfg(unit, ar.dt, ar.li, ar.se, mssau)
        if not changed:
            return PreservedAnalyses.all()
        if deleted:
            updater = am.updater  # type: ignore[attr-defined]
            if updater is not None:
                updater.mark_loop_as_deleted(unit, "loop-simplifycfg")
        pa = loop_pass_preserved_analyses()
        if ar.mssa is not None:
            pa.preserve(MemorySSAAnalysis)
        return pa
