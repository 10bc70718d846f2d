"""``gvn``: global value numbering with load elimination and partial redundancy
elimination (LLVM 19.1.7 ``llvm/lib/Transforms/Scalar/GVN.cpp``,
``llvm/include/llvm/Transforms/Scalar/GVN.h``).

What: first every block that is the only successor of its only predecessor is
merged into it; then, until nothing changes, the blocks are walked in reverse
post-order and each instruction is simplified (InstructionSimplify), or, if it
is a load, replaced by the value memdep finds available (``gvn_load``: local
and non-local load elimination with coercion, load PRE, loop load PRE), or, for
a branch, switch or ``llvm.assume``, the equalities it implies are propagated
into the dominated code (``gvn_equality``), or else it is value numbered
(``gvn_value_table``) and replaced by a dominating leader of the same number.
A branch on a constant marks the blocks only its dead edge reaches as dead
(``addDeadBlock``): their phi inputs become poison and their loads read
"undef". Finally scalar PRE (``gvn_pre``) inserts a computation into the one
predecessor that lacks it and joins the values with a phi, splitting critical
edges and retrying as LLVM does.

Parameters ``gvn<pre;load-pre;split-backedge-load-pre;memdep>`` (and ``no-``
forms) override the options ``-enable-pre``, ``-enable-load-pre``,
``-enable-split-backedge-in-load-pre`` and ``-enable-gvn-memdep``;
``-enable-load-in-loop-pre``, ``-gvn-max-num-deps``,
``-gvn-max-block-speculations``, ``-gvn-max-num-visited-insts`` and
``-gvn-max-num-insns`` are honoured with opt-19's defaults. ``-stats`` counts
LLVM's counters.

A MemorySSA cached before ``gvn`` is kept up to date as LLVM 19 does (removed
instructions lose their accesses, PRE'd loads and the "assume(false)" store get
new ones, merged blocks and split critical edges move and rewire them) and is
reported preserved.

Remarks (``LoadElim``, ``LoadPRE``, ``LoadClobbered``) are in :mod:`.gvn_remarks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.instruction_precedence_tracking import ImplicitControlFlowTracking
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.scalar import gvn_equality, gvn_load, gvn_pre
from llvmpy_mid.transform.scalar.gvn_value_table import (
    NUM_GVN_BLOCKS,
    NUM_GVN_INSTR,
    NUM_GVN_SIMPL,
    LeaderMap,
    ValueTable,
)
from llvmpy_mid.transform.utils.assume_bundle_builder import salvage_knowledge
from llvmpy_mid.transform.utils.basic_block_utils import (
    CriticalEdgeSplittingOptions,
    is_critical_edge,
    merge_block_into_predecessor,
    split_critical_edge,
    successor_number,
)
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, salvage_debug_info
from llvmpy_mid.transform.utils.local_metadata import patch_replacement_instruction

if TYPE_CHECKING:
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value

__all__ = ["GVN", "GVNOptions", "GVNPass", "parse_gvn_options"]

_DBG_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.label", "llvm.dbg.assign"))


@attrs.define
class GVNOptions:
    """LLVM ``GVNOptions``: None means "as the command-line option says"."""

    allow_pre: bool | None = None
    allow_load_pre: bool | None = None
    allow_load_in_loop_pre: bool | None = None
    allow_load_pre_split_backedge: bool | None = None
    allow_memdep: bool | None = None


def parse_gvn_options(params: str | None) -> GVNOptions:
    """``gvn<...>`` as opt-19's ``parseGVNOptions`` reads it."""
    result = GVNOptions()
    rest = params or ""
    while rest:
        name, _, rest = rest.partition(";")
        enable = not name.startswith("no-")
        if not enable:
            name = name[3:]
        if name == "pre":
            result.allow_pre = enable
        elif name == "load-pre":
            result.allow_load_pre = enable
        elif name == "split-backedge-load-pre":
            result.allow_load_pre_split_backedge = enable
        elif name == "memdep":
            result.allow_memdep = enable
        else:
            raise PipelineError("invalid GVN pass parameter '%s' " % name)
    return result


def _option(name: str) -> Any:
    return OPTIONS.value(name)


class GVN:
    """The state of one run over a function (LLVM ``GVNPass``'s members)."""

    def __init__(
        self,
        options: GVNOptions,
        fn: Function,
        ac: Any,
        dt: DominatorTree,
        tli: Any,
        aa: Any,
        md: Any,
        li: LoopInfo,
        mssa: Any = None,
        ore: OptimizationRemarkEmitter | None = None,
    ) -> None:
        self.options = options
        self.ore = ore
        self.fn = fn
        module = fn.parent
        self.dl: DataLayout = module.data_layout if module is not None else DataLayout()
        self.ac = ac
        self.dt = dt
        self.tli = tli
        self.aa = aa
        self.md = md
        self.li = li
        self.mssau: MemorySSAUpdater | None = MemorySSAUpdater(mssa) if mssa is not None else None
        self.icf = ImplicitControlFlowTracking()
        self.vn = ValueTable(self.dl)
        self.vn.aa = aa
        self.vn.md = md
        self.vn.dt = dt
        self.leader_table = LeaderMap()
        self.instrs_to_erase: list[Instruction] = []
        self.replace_operands_with_map: dict[Value, Value] = {}
        self.dead_blocks: dict[BasicBlock, None] = {}
        """LLVM's ``SetVector DeadBlocks`` (insertion-ordered)."""
        self.to_split: list[tuple[Instruction, int]] = []
        self.block_rpo_number: dict[BasicBlock, int] = {}
        self.invalid_block_rpo_numbers = True
        self.sq = SimplifyQuery(self.dl, tli, dt, ac)
        self.max_num_deps = int(_option("gvn-max-num-deps"))
        self.max_bb_speculations = int(_option("gvn-max-block-speculations"))
        self.max_num_visited_insts = int(_option("gvn-max-num-visited-insts"))
        self.max_num_insns_per_block = int(_option("gvn-max-num-insns"))

    # --- options ---------------------------------------------------------------------------------
    def is_pre_enabled(self) -> bool:
        o = self.options.allow_pre
        return bool(_option("enable-pre")) if o is None else o

    def is_load_pre_enabled(self) -> bool:
        o = self.options.allow_load_pre
        return bool(_option("enable-load-pre")) if o is None else o

    def is_load_in_loop_pre_enabled(self) -> bool:
        o = self.options.allow_load_in_loop_pre
        return bool(_option("enable-load-in-loop-pre")) if o is None else o

    def is_load_pre_split_backedge_enabled(self) -> bool:
        o = self.options.allow_load_pre_split_backedge
        return bool(_option("enable-split-backedge-in-load-pre")) if o is None else o

    # --- bookkeeping -----------------------------------------------------------------------------
    def mark_instruction_for_deletion(self, inst: Instruction) -> None:
        self.instrs_to_erase.append(inst)

    def remove_instruction(self, inst: Instruction) -> None:
        """LLVM ``removeInstruction``: forget ``inst`` in memdep and the ICF tracker, erase it."""
        if self.md is not None:
            self.md.remove_instruction(inst)
        if self.mssau is not None:
            self.mssau.remove_memory_access(inst)
        self.icf.remove_instruction(inst)
        inst.erase_from_parent()

    def invalidate_pointer(self, v: Value) -> None:
        """``MD->invalidateCachedPointerInfo(V)`` for a pointer (or vector of pointers) value."""
        if self.md is not None and v.type.scalar_type.is_pointer:
            self.md.invalidate_cached_pointer_info(v)

    def find_leader(self, bb: BasicBlock, num: int) -> Value | None:
        """The last leader of ``num`` whose block dominates ``bb``, or the first such
        constant (LLVM ``findLeader``)."""
        leaders = self.leader_table.num_to_leaders.get(num)
        if not leaders:
            return None
        val: Value | None = None
        dominates = self.dt.dominates_block
        for v, lbb in leaders:
            if dominates(lbb, bb):
                val = v
                if v.is_constant:
                    return v
        return val

    def assign_block_rpo_number(self) -> None:
        self.block_rpo_number = {bb: i for i, bb in enumerate(reverse_post_order(self.fn.entry_block), 1)}
        self.invalid_block_rpo_numbers = False

    def cleanup_global_sets(self) -> None:
        self.vn.clear()
        self.leader_table.clear()
        self.block_rpo_number.clear()
        self.icf.clear()
        self.invalid_block_rpo_numbers = True

    # --- critical edges --------------------------------------------------------------------------
    def split_critical_edge_between(self, pred: BasicBlock, succ: BasicBlock) -> BasicBlock | None:
        """LLVM ``splitCriticalEdges(Pred, Succ)`` (loop-simplify form not insisted on)."""
        term = pred.terminator
        assert term is not None
        options = CriticalEdgeSplittingOptions(self.dt, self.li, mssau=self.mssau).unset_preserve_loop_simplify()
        bb = split_critical_edge(term, successor_number(pred, succ), options)
        if bb is not None:
            if self.md is not None:
                self.md.invalidate_cached_predecessors()
            self.invalid_block_rpo_numbers = True
        return bb

    def split_critical_edges(self) -> bool:
        """Split the edges scalar PRE scheduled (LLVM ``splitCriticalEdges()``)."""
        if not self.to_split:
            return False
        changed = False
        while self.to_split:
            term, succ_num = self.to_split.pop()
            options = CriticalEdgeSplittingOptions(self.dt, self.li, mssau=self.mssau)
            changed |= split_critical_edge(term, succ_num, options) is not None
        if changed:
            if self.md is not None:
                self.md.invalidate_cached_predecessors()
            self.invalid_block_rpo_numbers = True
        return changed

    # --- dead blocks -----------------------------------------------------------------------------
    def _descendants(self, bb: BasicBlock) -> list[BasicBlock]:
        """LLVM ``DominatorTree::getDescendants``: a stack walk of the subtree (nothing
        for an unreachable block)."""
        if not self.dt.is_reachable(bb):
            return []
        out: list[BasicBlock] = []
        children = self.dt.children
        stack = [bb]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(children(n))
        return out

    def add_dead_block(self, bb: BasicBlock) -> None:
        """Mark ``bb`` and what it dominates dead, and what only dead blocks reach;
        the phis of their live successors take poison from them (LLVM ``addDeadBlock``)."""
        dead = self.dead_blocks
        new_dead = [bb]
        frontier: dict[BasicBlock, None] = {}
        while new_dead:
            d = new_dead.pop()
            if d in dead:
                continue
            dom = self._descendants(d)
            dead.update(dict.fromkeys(dom))
            for b in dom:
                for s in b.successors:
                    if s in dead:
                        continue
                    if all(p in dead for p in s.predecessors):
                        new_dead.append(s)
                    else:
                        frontier[s] = None
        for b in frontier:
            if b in dead:
                continue
            for p in list(b.predecessors):
                if p not in dead:
                    continue
                term = p.terminator
                if term is not None and b in p.successors and is_critical_edge(term, b):
                    split = self.split_critical_edge_between(p, b)
                    if split is not None:
                        dead[split] = None
            for p in b.predecessors:
                if p not in dead:
                    continue
                for phi in b.phis():
                    phi.set_incoming_value_for_block(p, PoisonValue.get(phi.type))
                    if self.md is not None:
                        self.md.invalidate_cached_pointer_info(phi)

    def process_foldable_cond_br(self, br: Instruction) -> bool:
        """A branch on a constant: its dead edge's region is dead (LLVM ``processFoldableCondBr``)."""
        if br.num_successors != 2:
            return False
        s0, s1 = br.get_successor(0), br.get_successor(1)
        if s0 is s1:
            return False
        cond = br.get_operand(0)
        if not isinstance(cond, ConstantInt):
            return False
        dead_root: BasicBlock | None = s1 if cond.value else s0
        assert dead_root is not None
        if dead_root in self.dead_blocks:
            return False
        if dead_root.single_predecessor is None:
            parent = br.parent
            assert parent is not None
            dead_root = self.split_critical_edge_between(parent, dead_root)
        assert dead_root is not None
        self.add_dead_block(dead_root)
        return True

    def assign_val_num_for_dead_code(self) -> None:
        for bb in self.dead_blocks:
            for inst in bb.instructions:
                self.leader_table.insert(self.vn.lookup_or_add(inst), inst, bb)

    # --- instructions ----------------------------------------------------------------------------
    def replace_operands_for_in_block_equality(self, inst: Instruction) -> bool:
        changed = False
        mapping = self.replace_operands_with_map
        for i, op in enumerate(inst.operands):
            repl = mapping.get(op)
            if repl is not None:
                inst.set_operand(i, repl)
                changed = True
        return changed

    def process_instruction(self, inst: Instruction) -> bool:
        """LLVM ``processInstruction``."""
        op = inst.opcode
        if op == "call" and inst.intrinsic_name in _DBG_INTRINSICS:  # type: ignore[attr-defined]
            return False
        v = simplify_instruction(inst, self.sq)
        if v is not None:
            changed = False
            if inst.has_uses:
                self.icf.remove_users_of(inst)
                inst.replace_all_uses_with(v)
                changed = True
            if is_instruction_trivially_dead(inst, self.tli):
                self.mark_instruction_for_deletion(inst)
                changed = True
            if changed:
                self.invalidate_pointer(v)
                NUM_GVN_SIMPL.add()
                return True
        if op == "call" and inst.intrinsic_name == "llvm.assume":  # type: ignore[attr-defined]
            return gvn_equality.process_assume_intrinsic(self, inst)
        if op == "load":
            if gvn_load.process_load(self, inst):
                return True
            num = self.vn.lookup_or_add(inst)
            self.leader_table.insert(num, inst, inst.parent)  # type: ignore[arg-type]
            return False
        if op == "br":
            if not inst.is_conditional:  # type: ignore[attr-defined]
                return False
            cond = inst.get_operand(0)
            if cond.is_constant:
                return self.process_foldable_cond_br(inst)
            true_succ = inst.get_successor(0)
            false_succ = inst.get_successor(1)
            if true_succ is false_succ:
                return False
            parent = inst.parent
            assert parent is not None
            ctx = inst.type.context
            i1 = ctx.int_type(1)
            changed = gvn_equality.propagate_equality(self, cond, ConstantInt.get(i1, 1), (parent, true_succ), True)
            changed |= gvn_equality.propagate_equality(self, cond, ConstantInt.get(i1, 0), (parent, false_succ), True)
            return changed
        if op == "switch":
            cond = inst.get_operand(0)
            parent = inst.parent
            assert parent is not None
            edges: dict[BasicBlock, int] = {}
            for s in parent.successors:
                edges[s] = edges.get(s, 0) + 1
            changed = False
            for case_value, dst in inst.cases:  # type: ignore[attr-defined]
                if edges.get(dst, 0) == 1:
                    changed |= gvn_equality.propagate_equality(self, cond, case_value, (parent, dst), True)
            return changed
        if inst.type.is_void:
            return False
        vn = self.vn
        next_num = vn.next_value_number
        num = vn.lookup_or_add(inst)
        bb = inst.parent
        assert bb is not None
        if op == "alloca" or inst.is_terminator_class or op == "phi":
            self.leader_table.insert(num, inst, bb)
            return False
        if num >= next_num:
            self.leader_table.insert(num, inst, bb)
            return False
        repl = self.find_leader(bb, num)
        if repl is None:
            self.leader_table.insert(num, inst, bb)
            return False
        if repl is inst:
            return False
        patch_replacement_instruction(inst, repl)
        inst.replace_all_uses_with(repl)
        self.invalidate_pointer(repl)
        self.mark_instruction_for_deletion(inst)
        return True

    def process_block(self, bb: BasicBlock) -> bool:
        """LLVM ``processBlock``."""
        if bb in self.dead_blocks:
            return False
        self.replace_operands_with_map.clear()
        changed = self._eliminate_duplicate_phis(bb)
        to_erase = self.instrs_to_erase
        inst = bb.instructions._first
        while inst is not None:
            if self.replace_operands_with_map:
                changed |= self.replace_operands_for_in_block_equality(inst)
            changed |= self.process_instruction(inst)
            if not to_erase:
                inst = inst._next
                continue
            NUM_GVN_INSTR.add(len(to_erase))
            prev = inst._prev
            for dead in to_erase:
                salvage_knowledge(dead, self.ac)
                salvage_debug_info(dead)
                self.remove_instruction(dead)
            to_erase.clear()
            inst = bb.instructions._first if prev is None else prev._next
        return changed

    def _eliminate_duplicate_phis(self, bb: BasicBlock) -> bool:
        from llvmpy_mid.transform.utils.local_cfg import eliminate_duplicate_phi_nodes

        first = bb.instructions._first
        if first is None or not first.is_phi or first._next is None or not first._next.is_phi:
            return False
        phis = list(bb.phis())
        if not eliminate_duplicate_phi_nodes(bb):
            return False
        for phi in phis:
            if phi.is_erased:
                self.vn.erase(phi)
                if self.md is not None:
                    self.md.remove_instruction(phi)
        return True

    # --- driver ----------------------------------------------------------------------------------
    def iterate_on_function(self) -> bool:
        self.cleanup_global_sets()
        changed = False
        for bb in reverse_post_order(self.fn.entry_block):
            changed |= self.process_block(bb)
        return changed

    def run_impl(self) -> bool:
        """LLVM ``runImpl``."""
        fn = self.fn
        changed = False
        dtu = DomTreeUpdater(self.dt, strategy="lazy")
        bb = fn.blocks._first
        while bb is not None:
            nxt = bb.next_block
            if merge_block_into_predecessor(bb, dtu, self.li, mssau=self.mssau):
                if self.md is not None:
                    self.md.invalidate_cached_predecessors()
                NUM_GVN_BLOCKS.add()
                changed = True
            bb = nxt
        dtu.flush()
        while True:
            again = self.iterate_on_function()
            changed |= again
            if not again:
                break
        if self.is_pre_enabled():
            self.assign_val_num_for_dead_code()
            while gvn_pre.perform_pre(self):
                changed = True
        self.cleanup_global_sets()
        self.dead_blocks.clear()
        return changed


class GVNPass(Pass[Function]):
    """``gvn``: LLVM's global value numbering."""

    name: ClassVar[str] = "gvn"

    def __init__(self, options: GVNOptions | None = None) -> None:
        self.options = options if options is not None else GVNOptions()

    @property
    def log_name(self) -> str:
        return "GVNPass"

    def pipeline_params(self) -> str:
        """The parameters as ``-print-pipeline-passes`` writes them (LLVM ``printPipeline``)."""
        o = self.options
        out = ""
        if o.allow_pre is not None:
            out += ("" if o.allow_pre else "no-") + "pre;"
        if o.allow_load_pre is not None:
            out += ("" if o.allow_load_pre else "no-") + "load-pre;"
        if o.allow_load_pre_split_backedge is not None:
            out += ("" if o.allow_load_pre_split_backedge else "no-") + "split-backedge-load-pre;"
        if o.allow_memdep is not None:
            out += ("" if o.allow_memdep else "no-") + "memdep"
        return out

    def is_memdep_enabled(self) -> bool:
        o = self.options.allow_memdep
        return bool(_option("enable-gvn-memdep")) if o is None else o

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.alias.aa_manager import AAManager
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.loop_info import LoopAnalysis
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitterAnalysis
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
        from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis

        if unit.is_declaration:
            return PreservedAnalyses.all()
        # In GVNPass::run's order, so -debug-pass-manager logs as opt-19 does.
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        md = None
        if self.is_memdep_enabled():
            from llvmpy_mid.analysis.memory_dependence import MemoryDependenceAnalysis

            md = am.get_result(MemoryDependenceAnalysis, unit)
        li = am.get_result(LoopAnalysis, unit)
        mssa_result = am.get_cached_result(MemorySSAAnalysis, unit)
        ore = am.get_result(OptimizationRemarkEmitterAnalysis, unit)
        mssa = mssa_result.mssa if mssa_result is not None else None
        gvn = GVN(self.options, unit, ac, dt, tli, aa, md, li, mssa, ore)
        if not gvn.run_impl():
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(TargetLibraryAnalysis)
        pa.preserve(LoopAnalysis)
        if mssa is not None:
            pa.preserve(MemorySSAAnalysis)
        return pa
