"""``adce``: aggressive dead code elimination (LLVM ``ADCEPass``,
lib/Transforms/Scalar/ADCE.cpp).

What: an instruction is dead unless it is proven live: instructions with side
effects, EH pads and terminators other than ``br``/``switch`` are live roots;
liveness flows to the instructions a live one reads; a live phi makes its
predecessors' branches matter; and a branch is live when a live block is
control dependent on it (it is in the reverse iterated dominance frontier of the
live blocks, computed on the post-dominator tree).  Dead conditional branches
become unconditional branches to the successor nearest the function's end (by a
post-order of the reverse CFG), the other successors losing the block as a
predecessor; then every dead instruction is deleted (debug users salvaged).
Debug records (and ``llvm.dbg.*`` calls) whose scope contains no live
instruction are dropped; those in live scopes stay.

Options: ``-adce-remove-control-flow`` (default true): with false every branch is
live; ``-adce-remove-loops`` (default false): with false a branch closing a loop
(a back edge of the depth-first walk from the entry) is live, and so is every
block that cannot reach a return (the post-dominator subtrees of non-return
roots).

How it is checked: LLVM 19.1.7's Transforms/ADCE tests and identity with
``opt-19 -passes=adce`` on csmith programs.

The post-dominator tree (and a cached dominator tree) are updated with the
deleted edges through a :class:`DomTreeUpdater`, so both stay valid, as in LLVM.

What it does not do: value-profiling calls on constants are recognised by name
only (``__llvm_profile_instrument_target``).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.dominance_frontier import IDFCalculator
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.debug_info import DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, ReturnInst, SwitchInst
from llvmpy_mid.ir.metadata import Metadata
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor
from llvmpy_mid.transform.utils.local import salvage_debug_info

__all__ = ["ADCEPass", "aggressive_dead_code_elimination"]

_VALUE_PROF_FN = "__llvm_profile_instrument_target"

# Declared in the registry too (so the command line knows them before this module is imported).
declare_option("adce-remove-control-flow", "bool", True, "", "adce")
declare_option("adce-remove-loops", "bool", False, "", "adce")


class _BlockInfo:
    __slots__ = ("bb", "live", "unconditional", "has_live_phis", "cf_live", "terminator", "post_order")

    def __init__(self, bb: BasicBlock) -> None:
        self.bb = bb
        self.live = False
        term = bb.terminator
        assert term is not None
        self.terminator: Instruction = term
        self.unconditional = isinstance(term, BranchInst) and term.is_unconditional
        self.has_live_phis = False
        self.cf_live = False
        self.post_order = 0


def _is_dbg_intrinsic(inst: Instruction) -> str:
    """``declare``/``value``/``assign``/``label`` for ``llvm.dbg.*`` calls, else ``""``."""
    if not isinstance(inst, CallInst):
        return ""
    fn = inst.called_function
    if fn is None or not fn.name.startswith("llvm.dbg."):
        return ""
    kind = fn.name[9:]
    return kind if kind in ("declare", "value", "assign", "label") else ""


class _ADCE:
    """One run over one function (LLVM ``AggressiveDeadCodeElimination``)."""

    __slots__ = (
        "fn",
        "pdt",
        "remove_cf",
        "remove_loops",
        "blocks",
        "live",
        "worklist",
        "alive_scopes",
        "dead_terminators",
        "new_live_blocks",
        "assign_ids",
        "deleted_edges",
    )

    def __init__(self, fn: Function, pdt: DominatorTree) -> None:
        self.fn = fn
        self.pdt = pdt
        self.remove_cf = bool(OPTIONS.value("adce-remove-control-flow"))
        self.remove_loops = bool(OPTIONS.value("adce-remove-loops"))
        self.blocks: dict[BasicBlock, _BlockInfo] = {}
        self.live: set[Instruction] = set()
        self.worklist: list[Instruction] = []
        self.alive_scopes: set[Metadata] = set()
        self.dead_terminators: dict[BasicBlock, None] = {}
        self.new_live_blocks: dict[BasicBlock, None] = {}
        self.assign_ids: set[Metadata] | None = None
        self.deleted_edges: list[tuple[str, BasicBlock, BasicBlock]] = []

    # --- liveness ----------------------------------------------------------------------------
    def run(self) -> tuple[bool, bool, bool]:
        """(changed anything, changed a non-debug instruction, changed control flow)."""
        self.initialize()
        self.mark_live_instructions()
        return self.remove_dead_instructions()

    def is_always_live(self, inst: Instruction) -> bool:
        if inst.is_eh_pad or inst.may_have_side_effects():
            return not self.instruments_constant(inst)
        if not inst.is_terminator:
            return False
        if self.remove_cf and isinstance(inst, (BranchInst, SwitchInst)):
            return False
        return True

    @staticmethod
    def instruments_constant(inst: Instruction) -> bool:
        if isinstance(inst, CallInst):
            callee = inst.called_function
            if callee is not None and callee.name == _VALUE_PROF_FN and inst.num_args > 0:
                return isinstance(inst.get_arg(0), Constant)
        return False

    def initialize(self) -> None:
        blocks = self.blocks
        fn = self.fn
        for bb in fn.blocks:
            blocks[bb] = _BlockInfo(bb)
        for bb in fn.blocks:
            for inst in bb.instructions:
                if self.is_always_live(inst):
                    self.mark_live(inst)
        if not self.remove_cf:
            return
        if not self.remove_loops:
            self._mark_loop_back_edges_live()
        pdt = self.pdt
        for root in pdt.root_children():
            info = blocks[root]
            if isinstance(info.terminator, ReturnInst):
                continue
            stack = [root]
            while stack:
                bb = stack.pop()
                self.mark_live(blocks[bb].terminator)
                kids = pdt.children(bb)
                stack.extend(reversed(kids))
        entry = blocks[fn.entry_block]
        entry.live = True
        if entry.unconditional:
            self.mark_live(entry.terminator)
        live = self.live
        for bb, info in blocks.items():
            if info.terminator not in live:
                self.dead_terminators[bb] = None

    def _mark_loop_back_edges_live(self) -> None:
        """Depth-first from the entry: a branch to a block on the walk's stack closes a loop."""
        entry = self.fn.entry_block
        on_stack: dict[BasicBlock, bool] = {entry: True}
        self._visit_for_back_edges(entry, on_stack)
        stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(entry, entry.successors, 0)]
        while stack:
            bb, succs, i = stack[-1]
            if i < len(succs):
                stack[-1] = (bb, succs, i + 1)
                succ = succs[i]
                if succ not in on_stack:
                    on_stack[succ] = True
                    self._visit_for_back_edges(succ, on_stack)
                    stack.append((succ, succ.successors, 0))
            else:
                on_stack[bb] = False
                stack.pop()

    def _visit_for_back_edges(self, bb: BasicBlock, on_stack: dict[BasicBlock, bool]) -> None:
        term = self.blocks[bb].terminator
        if term in self.live:
            return
        for succ in bb.successors:
            if on_stack.get(succ, False):
                self.mark_live(term)
                break

    def mark_live(self, inst: Instruction) -> None:
        live = self.live
        if inst in live:
            return
        live.add(inst)
        self.worklist.append(inst)
        loc = inst.debug_loc
        if isinstance(loc, DILocation):
            self.collect_live_scopes(loc)
        bb = inst.parent
        assert bb is not None
        info = self.blocks[bb]
        if info.terminator is inst:
            self.dead_terminators.pop(bb, None)
            if not info.unconditional:
                for succ in bb.successors:
                    self.mark_block_live(self.blocks[succ])
        self.mark_block_live(info)

    def mark_block_live(self, info: _BlockInfo) -> None:
        if info.live:
            return
        info.live = True
        if not info.cf_live:
            info.cf_live = True
            self.new_live_blocks[info.bb] = None
        if info.unconditional:
            self.mark_live(info.terminator)

    def collect_live_scopes(self, loc: DILocation) -> None:
        """Add ``loc``, its scope chain up to the subprogram, and the same for every
        inlined-at location."""
        alive = self.alive_scopes
        cur: DILocation | None = loc
        while cur is not None and cur not in alive:
            alive.add(cur)
            scope: Metadata | None = cur.scope
            while isinstance(scope, DINode) and scope not in alive:
                alive.add(scope)
                if scope.kind == "DISubprogram":
                    break
                up = scope.get_field("scope")
                scope = up if isinstance(up, Metadata) else None
            ia = cur.inlined_at
            cur = ia if isinstance(ia, DILocation) else None

    def mark_phi_live(self, phi: PHINode) -> None:
        bb = phi.parent
        assert bb is not None
        info = self.blocks[bb]
        if info.has_live_phis:
            return
        info.has_live_phis = True
        for pred in bb.predecessors:
            pinfo = self.blocks[pred]
            if not pinfo.cf_live:
                pinfo.cf_live = True
                self.new_live_blocks[pred] = None

    def mark_live_instructions(self) -> None:
        worklist = self.worklist
        while True:
            while worklist:
                inst = worklist.pop()
                for op in inst.operands:
                    if isinstance(op, Instruction):
                        self.mark_live(op)
                if isinstance(inst, PHINode):
                    self.mark_phi_live(inst)
            self.mark_live_branches_from_control_dependences()
            if not worklist:
                break

    def mark_live_branches_from_control_dependences(self) -> None:
        if not self.dead_terminators:
            return
        idf = IDFCalculator(self.pdt).calculate(list(self.new_live_blocks), live_in=list(self.dead_terminators))
        self.new_live_blocks.clear()
        for bb in idf:
            term = bb.terminator
            assert term is not None
            self.mark_live(term)

    # --- rewriting ---------------------------------------------------------------------------
    def remove_dead_instructions(self) -> tuple[bool, bool, bool]:
        changed_cf = self.update_dead_regions()
        changed_non_debug = False
        live = self.live
        alive = self.alive_scopes
        dead: list[Instruction] = []
        bb = self.fn.blocks.last
        while bb is not None:
            inst = bb.instructions.last
            while inst is not None:
                if inst._dbg_records:
                    for rec in inst.dbg_records:
                        if isinstance(rec, DbgVariableRecord) and rec.is_dbg_assign and self._has_assignment_insts(rec):
                            continue
                        rloc = rec.debug_loc
                        if isinstance(rloc, DILocation) and rloc.scope in alive:
                            continue
                        rec.erase_from_parent()
                if inst not in live:
                    kind = _is_dbg_intrinsic(inst)
                    if kind:
                        loc = inst.debug_loc
                        keep = kind == "assign" and self._intrinsic_has_assignment_insts(inst)
                        if keep or (isinstance(loc, DILocation) and loc.scope in alive):
                            inst = inst.prev_instruction
                            continue
                    else:
                        changed_non_debug = True
                    dead.append(inst)
                    salvage_debug_info(inst)
                inst = inst.prev_instruction
            bb = bb._prev
        for inst in dead:
            inst.drop_all_references()
        for inst in dead:
            inst.erase_from_parent()
        return changed_cf or bool(dead), changed_non_debug, changed_cf

    def _assignment_ids(self) -> set[Metadata]:
        ids = self.assign_ids
        if ids is None:
            ids = set()
            for bb in self.fn.blocks:
                for inst in bb.instructions:
                    md = inst.get_metadata("DIAssignID")
                    if md is not None:
                        ids.add(md)
            self.assign_ids = ids
        return ids

    def _has_assignment_insts(self, rec: DbgVariableRecord) -> bool:
        aid = rec.assign_id
        return aid is not None and aid in self._assignment_ids()

    def _intrinsic_has_assignment_insts(self, call: Instruction) -> bool:
        assert isinstance(call, CallInst)
        if call.num_args < 4:
            return False
        aid = getattr(call.get_arg(3), "metadata", None)
        return aid is not None and aid in self._assignment_ids()

    def update_dead_regions(self) -> bool:
        have_post_order = False
        changed = False
        blocks = self.blocks
        for bb in list(self.dead_terminators):
            info = blocks[bb]
            if info.unconditional:
                self.live.add(info.terminator)
                continue
            if not have_post_order:
                self.compute_reverse_post_order()
                have_post_order = True
            preferred: _BlockInfo | None = None
            succs = bb.successors
            for succ in succs:
                sinfo = blocks[succ]
                if preferred is None or preferred.post_order < sinfo.post_order:
                    preferred = sinfo
            assert preferred is not None
            first = True
            removed: dict[BasicBlock, None] = {}
            for succ in succs:
                if not first or succ is not preferred.bb:
                    remove_predecessor(succ, bb)
                    removed[succ] = None
                else:
                    first = False
            self.make_unconditional(info, preferred.bb)
            for succ in removed:
                if succ is not preferred.bb:
                    self.deleted_edges.append(("delete", bb, succ))
            changed = True
        return changed

    def compute_reverse_post_order(self) -> None:
        """Number blocks in post-order of the reverse CFG, walked from each block without
        successors (blocks not reached keep 0)."""
        visited: set[BasicBlock] = set()
        number = 0
        blocks = self.blocks
        for bb in self.fn.blocks:
            if bb.successors:
                continue
            if bb in visited:
                continue
            visited.add(bb)
            stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(bb, bb.predecessors, 0)]
            while stack:
                node, preds, i = stack[-1]
                if i < len(preds):
                    stack[-1] = (node, preds, i + 1)
                    p = preds[i]
                    if p not in visited:
                        visited.add(p)
                        stack.append((p, p.predecessors, 0))
                else:
                    stack.pop()
                    blocks[node].post_order = number
                    number += 1

    def make_unconditional(self, info: _BlockInfo, target: BasicBlock) -> None:
        term = info.terminator
        loc = term.debug_loc
        if isinstance(loc, DILocation):
            self.collect_live_scopes(loc)
        if isinstance(term, BranchInst) and term.is_unconditional:
            term.set_successor(0, target)
            self.live.add(term)
            return
        br = BranchInst(target)
        br.insert_before(term)
        self.live.add(br)
        if loc is not None:
            br.debug_loc = loc
        self.live.discard(term)
        term.erase_from_parent()
        info.terminator = br


def aggressive_dead_code_elimination(
    fn: Function, pdt: DominatorTree, dt: DominatorTree | None = None
) -> tuple[bool, bool, bool]:
    """Run ADCE on ``fn``: (changed anything, changed a non-debug instruction, changed the CFG).
    ``pdt`` (and ``dt`` when given) are kept up to date through the deleted edges."""
    adce = _ADCE(fn, pdt)
    result = adce.run()
    if adce.deleted_edges:
        DomTreeUpdater(dt, pdt, "eager").apply_updates(adce.deleted_edges)
    return result


class ADCEPass(Pass[Function]):
    """Aggressive dead code elimination."""

    name: ClassVar[str] = "adce"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        dt = am.get_cached_result(DominatorTreeAnalysis, unit)
        pdt = am.get_result(PostDominatorTreeAnalysis, unit)
        changed, changed_non_debug, changed_cf = aggressive_dead_code_elimination(unit, pdt, dt)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        if not changed_cf:
            pa.preserve_set(CFGAnalyses)
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(PostDominatorTreeAnalysis)
        return pa
