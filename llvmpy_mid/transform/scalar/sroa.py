"""``sroa``: scalar replacement of aggregates (LLVM 19's lib/Transforms/Scalar/SROA.cpp:
``SROAPass``, ``SROA::runSROA``, ``runOnAlloca``, ``presplitLoadsAndStores``,
``splitAlloca``, ``clobberUse``, ``deleteDeadInstructions`` and ``promoteAllocas``).

What: every alloca of the entry block is sliced (:mod:`.sroa_slices`) by the byte ranges
its loads, stores, memory intrinsics and lifetime markers touch, after first-class
aggregate loads and stores are split (:mod:`.sroa_aggregates`). Integer loads that are
only stored, and stores of such loads, are pre-split at the partition boundaries so that
copies between allocas split along with them. Each partition then becomes a new, smaller
alloca (or the old one, retyped), its accesses rewritten (:mod:`.sroa_rewriter`); phis
and selects of pointers into a promotable partition have their loads speculated or
predicated (:mod:`.sroa_speculation`), debug-info declarations follow the fragments
(:mod:`.sroa_debug_info`), dead instructions are deleted, and the promotable allocas are
turned into SSA values by mem2reg's promoter. New allocas are sliced in turn, and the
whole repeats until no alloca is left to revisit.

``sroa<preserve-cfg>`` never splits blocks (a load of a select of pointers is only
speculated when both hands may be loaded unconditionally); ``sroa`` and
``sroa<modify-cfg>`` may predicate loads and stores behind new branches.
``-sroa-skip-mem2reg`` leaves the promotable allocas as they are.

How: the state of one run is :class:`.sroa_state.SROAState`; the order of every worklist
is LLVM's, so the names, order and numbering of the output match opt-19's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic, active_collector
from llvmpy_mid.transform.scalar.sroa_aggregates import AggLoadStoreRewriter, set_insert_point
from llvmpy_mid.transform.scalar.sroa_slices import AllocaSlices, Slice
from llvmpy_mid.transform.scalar.sroa_debug_info import assignment_markers, declare_records_of, migrate_debug_info_for_split
from llvmpy_mid.transform.scalar.sroa_state import SetVector, SROAState
from llvmpy_mid.transform.scalar.sroa_value_conversion import SROABuilder, get_adjusted_alignment, get_adjusted_ptr
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead
from llvmpy_mid.transform.utils.promote_mem_to_reg import is_alloca_promotable, promote_mem_to_reg

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout

__all__ = ["SROAPass", "parse_sroa_options", "run_sroa"]

NUM_ALLOCAS_ANALYZED = Statistic("sroa", "NumAllocasAnalyzed", "Number of allocas analyzed for replacement")
NUM_ALLOCA_PARTITIONS = Statistic("sroa", "NumAllocaPartitions", "Number of alloca partitions formed")
MAX_PARTITIONS_PER_ALLOCA = Statistic("sroa", "MaxPartitionsPerAlloca", "Maximum number of partitions per alloca")
NUM_PROMOTED = Statistic("sroa", "NumPromoted", "Number of allocas promoted to SSA values")
NUM_DELETED = Statistic("sroa", "NumDeleted", "Number of instructions deleted")

_MAX_BIT_VECTOR_SIZE = 1024
_PRESPLIT_LOAD_MD = ("llvm.mem.parallel_loop_access", "llvm.access.group")
_PRESPLIT_STORE_MD = ("llvm.mem.parallel_loop_access", "llvm.access.group", "DIAssignID")


def parse_sroa_options(params: str | None) -> bool:
    """``sroa<...>`` as opt-19's ``parseSROAOptions`` reads it: True for ``preserve-cfg``."""
    if not params or params == "modify-cfg":
        return False
    if params == "preserve-cfg":
        return True
    raise PipelineError(
        "invalid SROA pass parameter '%s' (either preserve-cfg or modify-cfg can be specified)" % params
    )


def _update_max(stat: Statistic, value: int) -> None:
    """LLVM ``TrackingStatistic::updateMax``."""
    collector = active_collector()
    cur = collector.value(stat)
    if value > cur:
        collector.add(stat, value - cur)


def _copy_metadata(dst: Instruction, src: Instruction, kinds: tuple[str, ...]) -> None:
    """LLVM ``Instruction::copyMetadata(Src, WL)`` with a list of kinds."""
    for kind in kinds:
        md = src.get_metadata(kind)
        if md is not None:
            dst.set_metadata(kind, md)


class _SplitOffsets:
    __slots__ = ("s", "splits")

    def __init__(self) -> None:
        self.s: Slice | None = None
        self.splits: list[int] = []


class SROA:
    """One run of SROA over a function (LLVM's ``SROA`` class)."""

    def __init__(self, state: SROAState) -> None:
        self.state = state

    # --- presplitting -------------------------------------------------------------------------
    def presplit_loads_and_stores(self, ai: AllocaInst, slices: AllocaSlices) -> bool:
        state = self.state
        loads: list[LoadInst] = []
        stores: list[StoreInst] = []
        split_offsets: dict[Instruction, _SplitOffsets] = {}
        unsplittable_loads: set[LoadInst] = set()

        for p in slices.partitions():
            for s in p:
                assert s.use is not None
                inst = s.use.user
                if not s.splittable or s.end_offset <= p.end_offset:
                    if isinstance(inst, LoadInst):
                        unsplittable_loads.add(inst)
                    elif isinstance(inst, StoreInst):
                        val = inst.value_operand
                        if isinstance(val, LoadInst):
                            unsplittable_loads.add(val)
                    continue
                if isinstance(inst, LoadInst):
                    simply_stored = True
                    for lu in inst.users:
                        if not isinstance(lu, StoreInst) or not lu.is_simple:
                            simply_stored = False
                            break
                    if not simply_stored:
                        unsplittable_loads.add(inst)
                        continue
                    loads.append(inst)
                elif isinstance(inst, StoreInst):
                    if s.use is not inst.get_operand_use(1):
                        continue
                    stored_load = inst.value_operand
                    if not isinstance(stored_load, LoadInst) or not stored_load.is_simple:
                        continue
                    stores.append(inst)
                else:
                    continue
                offsets = split_offsets.get(inst)
                if offsets is None:
                    offsets = split_offsets[inst] = _SplitOffsets()
                offsets.s = s
                offsets.splits.append(p.end_offset - s.begin_offset)

            for s in p.split_tails:
                assert s.use is not None
                offsets = split_offsets.get(s.use.user)  # type: ignore[call-overload]
                if offsets is None:
                    continue
                assert offsets.s is s
                if s.end_offset > p.end_offset:
                    offsets.splits.append(p.end_offset - s.begin_offset)

        def mismatched(si: StoreInst) -> bool:
            li = si.value_operand
            assert isinstance(li, LoadInst)
            if li in unsplittable_loads:
                return True
            load_offsets = split_offsets.get(li)
            if load_offsets is None:
                return False
            store_offsets = split_offsets.setdefault(si, _SplitOffsets())
            if load_offsets.splits == store_offsets.splits:
                return False
            unsplittable_loads.add(li)
            return True

        stores = [si for si in stores if not mismatched(si)]
        stores = [si for si in stores if si.value_operand not in unsplittable_loads]
        loads = [li for li in loads if li not in unsplittable_loads]
        if not loads and not stores:
            return False

        dl = state.data_layout
        ctx = state.context
        irb = SROABuilder()
        set_insert_point(irb, ai)
        new_slices: list[Slice] = []
        resplit_promotable: set[AllocaInst] = set()
        split_loads_map: dict[LoadInst, list[LoadInst]] = {}

        for li in loads:
            split_loads: list[LoadInst] = []
            offsets = split_offsets[li]
            ls = offsets.s
            assert ls is not None
            slice_size = ls.end_offset - ls.begin_offset
            base_offset = ls.begin_offset
            base_ptr = li.pointer_operand
            set_insert_point(irb, li)
            part_offset = 0
            part_size = offsets.splits[0]
            idx = 0
            size = len(offsets.splits)
            while True:
                part_ty = ctx.int_type(part_size * 8)
                part_ptr_ty = li.pointer_operand.type
                ptr = get_adjusted_ptr(irb, dl, base_ptr, part_offset, part_ptr_ty, base_ptr.name + ".")
                pload = irb.load(part_ty, ptr, li.name, alignment=get_adjusted_alignment(li, part_offset))
                _copy_metadata(pload, li, _PRESPLIT_LOAD_MD)
                split_loads.append(pload)
                new_slices.append(
                    Slice(base_offset + part_offset, base_offset + part_offset + part_size, pload.get_operand_use(0), False)
                )
                if idx >= size:
                    break
                part_offset = offsets.splits[idx]
                idx += 1
                part_size = (offsets.splits[idx] if idx < size else slice_size) - part_offset

            deferred_stores = False
            for lu in list(li.users):
                assert isinstance(lu, StoreInst)
                if stores and lu in split_offsets:
                    deferred_stores = True
                    continue
                store_base_ptr = lu.pointer_operand
                set_insert_point(irb, lu)
                aa_tags = AAMDNodes.of(lu)
                for k, pl in enumerate(split_loads):
                    part_offset = 0 if k == 0 else offsets.splits[k - 1]
                    part_ptr_ty = lu.pointer_operand.type
                    ptr = get_adjusted_ptr(
                        irb, dl, store_base_ptr, part_offset, part_ptr_ty, store_base_ptr.name + "."
                    )
                    pstore = irb.store(pl, ptr, alignment=get_adjusted_alignment(lu, part_offset))
                    _copy_metadata(pstore, lu, _PRESPLIT_STORE_MD)
                    if aa_tags:
                        set_aa_metadata(pstore, aa_tags.adjust_for_access_type(part_offset, pl.type, dl))
                if isinstance(store_base_ptr, AllocaInst):
                    resplit_promotable.add(store_base_ptr)
                    state.worklist.insert(store_base_ptr)
                else:
                    other = strip_pointer_casts(store_base_ptr, inbounds=True)
                    if isinstance(other, AllocaInst):
                        state.worklist.insert(other)
                state.dead_insts.append(lu)
            if deferred_stores:
                split_loads_map[li] = split_loads
            state.dead_insts.append(li)
            ls.kill()

        for si in stores:
            sli = si.value_operand
            assert isinstance(sli, LoadInst)
            li = sli
            ty = li.type
            store_size = ty.width // 8  # type: ignore[attr-defined]
            offsets = split_offsets[si]
            ss = offsets.s
            assert ss is not None
            base_offset = ss.begin_offset
            load_base_ptr = li.pointer_operand
            store_base_ptr = si.pointer_operand
            known_split_loads = split_loads_map.get(li)
            part_offset = 0
            part_size = offsets.splits[0]
            idx = 0
            size = len(offsets.splits)
            while True:
                part_ty = ctx.int_type(part_size * 8)
                load_part_ptr_ty = li.pointer_operand.type
                store_part_ptr_ty = si.pointer_operand.type
                if known_split_loads is not None:
                    pload = known_split_loads[idx]  # noqa
                else:
                    set_insert_point(irb, li)
                    ptr = get_adjusted_ptr(
                        irb, dl, load_base_ptr, part_offset, load_part_ptr_ty, load_base_ptr.name + "."
                    )
                    pload = irb.load(part_ty, ptr, li.name, alignment=get_adjusted_alignment(li, part_offset))
                    _copy_metadata(pload, li, _PRESPLIT_LOAD_MD)
                set_insert_point(irb, si)
                ptr = get_adjusted_ptr(irb, dl, store_base_ptr, part_offset, store_part_ptr_ty, store_base_ptr.name + ".")
                pstore = irb.store(pload, ptr, alignment=get_adjusted_alignment(si, part_offset))
                _copy_metadata(pstore, si, _PRESPLIT_LOAD_MD)
                new_slices.append(
                    Slice(base_offset + part_offset, base_offset + part_offset + part_size, pstore.get_operand_use(1), False)
                )
                if idx >= size:
                    break
                part_offset = offsets.splits[idx]
                idx += 1
                part_size = (offsets.splits[idx] if idx < size else store_size) - part_offset

            if known_split_loads is None:
                if isinstance(load_base_ptr, AllocaInst):
                    resplit_promotable.add(load_base_ptr)
                    state.worklist.insert(load_base_ptr)
                else:
                    other = strip_pointer_casts(load_base_ptr, inbounds=True)
                    if isinstance(other, AllocaInst):
                        state.worklist.insert(other)
            if li.has_one_use:
                state.dead_insts.append(li)
            state.dead_insts.append(si)
            ss.kill()

        slices.slices = [s for s in slices.slices if s.use is not None]
        slices.insert(new_slices)
        if resplit_promotable:
            state.promotable_allocas.remove_if(lambda a: a in resplit_promotable)
        return True

    # --- splitting ------------------------------------------------------------------------------
    def split_alloca(self, ai: AllocaInst, slices: AllocaSlices) -> bool:
        if not slices.slices:
            return False
        from llvmpy_mid.transform.scalar.sroa_rewriter import rewrite_partition

        state = self.state
        dl = state.data_layout
        num_partitions = 0
        changed = self.presplit_loads_and_stores(ai, slices)

        is_sorted = True
        alloca_size = dl.type_alloc_size(ai.allocated_type)
        if alloca_size <= _MAX_BIT_VECTOR_SIZE:
            splittable_offset = [True] * (alloca_size + 1)
            for s in slices.slices:
                for o in range(s.begin_offset + 1, min(s.end_offset, alloca_size)):
                    splittable_offset[o] = False
            for s in slices.slices:
                if not s.splittable:
                    continue
                if (s.begin_offset > alloca_size or splittable_offset[s.begin_offset]) and (
                    s.end_offset > alloca_size or splittable_offset[s.end_offset]
                ):
                    continue
                assert s.use is not None
                if isinstance(s.use.user, (LoadInst, StoreInst)):
                    s.make_unsplittable()
                    is_sorted = False
        else:
            for s in slices.slices:
                if not s.splittable:
                    continue
                if s.begin_offset == 0 and s.end_offset >= alloca_size:
                    continue
                assert s.use is not None
                if isinstance(s.use.user, (LoadInst, StoreInst)):
                    s.make_unsplittable()
                    is_sorted = False
        if not is_sorted:
            slices.slices.sort(key=Slice.sort_key)

        fragments: list[tuple[AllocaInst, int, int]] = []
        for p in slices.partitions():
            new_ai = rewrite_partition(state, ai, slices, p)
            if new_ai is not None:
                changed = True
                if new_ai is not ai:
                    size_in_bits = dl.type_size_in_bits(new_ai.allocated_type)
                    fragments.append((new_ai, p.begin_offset * 8, min(size_in_bits, p.size() * 8)))
            num_partitions += 1

        NUM_ALLOCA_PARTITIONS.add(num_partitions)
        _update_max(MAX_PARTITIONS_PER_ALLOCA, num_partitions)

        migrate_debug_info_for_split(ai, fragments, dl)
        return changed

    # --- deletion -------------------------------------------------------------------------------
    def clobber_use(self, use: Use) -> None:
        old = use.value
        use.set(PoisonValue.get(old.type))
        if isinstance(old, Instruction) and is_instruction_trivially_dead(old):
            self.state.dead_insts.append(old)

    def run_on_alloca(self, ai: AllocaInst) -> tuple[bool, bool]:
        state = self.state
        changed = False
        cfg_changed = False
        NUM_ALLOCAS_ANALYZED.add()
        if ai.parent is None:
            # Erased behind the worklist's back (LLVM would hold a dangling pointer).
            return changed, cfg_changed
        if ai.use_empty:
            ai.erase_from_parent()
            return True, False
        dl = state.data_layout
        at = ai.allocated_type
        if ai.is_array_allocation or not at.is_sized or dl.is_scalable(at) or dl.type_alloc_size(at) == 0:
            return changed, cfg_changed

        irb = SROABuilder()
        set_insert_point(irb, ai)
        if AggLoadStoreRewriter(dl, irb).rewrite(ai):
            changed = True

        slices = AllocaSlices(dl, ai)
        if slices.is_escaped():
            return changed, cfg_changed

        for dead_user in slices.dead_users:
            for dead_op in list(dead_user.operand_uses):
                self.clobber_use(dead_op)
            dead_user.replace_all_uses_with(PoisonValue.get(dead_user.type))
            state.dead_insts.append(dead_user)
            changed = True
        for dead_op in slices.dead_operands:
            self.clobber_use(dead_op)
            changed = True

        if not slices.slices:
            return changed, cfg_changed

        if self.split_alloca(ai, slices):
            changed = True

        from llvmpy_mid.transform.scalar.sroa_speculation import rewrite_select_inst_mem_ops, speculate_phi_node_loads

        while state.speculatable_phis:
            speculate_phi_node_loads(state.speculatable_phis.pop())

        remaining = list(state.selects_to_rewrite.items())
        state.selects_to_rewrite.clear()
        while remaining:
            sel, ops = remaining.pop()
            if rewrite_select_inst_mem_ops(sel, ops, None if state.preserve_cfg else state.dtu):
                cfg_changed = True
        return changed, cfg_changed

    def delete_dead_instructions(self, deleted_allocas: set[AllocaInst]) -> bool:
        dead = self.state.dead_insts
        changed = False
        while dead:
            inst = dead.pop()
            if inst.parent is None:
                continue
            if isinstance(inst, AllocaInst):
                deleted_allocas.add(inst)
                for rec in declare_records_of(inst):
                    rec.erase_from_parent()
            for rec in assignment_markers(inst):
                rec.erase_from_parent()
            inst.replace_all_uses_with(UndefValue.get(inst.type))
            for operand in inst.operand_uses:
                op = operand.value
                if isinstance(op, Instruction):
                    # LLVM nulls the operand: point it at a placeholder so ``op`` loses this use.
                    operand.set(UndefValue.get(op.type))
                    if is_instruction_trivially_dead(op):
                        dead.append(op)
            NUM_DELETED.add()
            inst.erase_from_parent()
            changed = True
        return changed

    def promote_allocas(self) -> bool:
        state = self.state
        if not state.promotable_allocas:
            return False
        NUM_PROMOTED.add(len(state.promotable_allocas))
        if not OPTIONS.value("sroa-skip-mem2reg"):
            live = [a for a in state.promotable_allocas if a.parent is not None]
            promote_mem_to_reg(live, state.dtu.get_dom_tree(), state.ac)
        state.promotable_allocas.clear()
        return True

    def run(self) -> tuple[bool, bool]:
        state = self.state
        fn = state.function
        dl = state.data_layout
        entry = fn.entry_block
        inst = entry.instructions._first
        while inst is not None and inst._next is not None:
            if isinstance(inst, AllocaInst):
                if dl.is_scalable(inst.allocated_type) and is_alloca_promotable(inst):
                    state.promotable_allocas.append(inst)
                else:
                    state.worklist.insert(inst)
            inst = inst._next

        changed = False
        cfg_changed = False
        deleted_allocas: set[AllocaInst] = set()
        while True:
            while state.worklist:
                c, cc = self.run_on_alloca(state.worklist.pop())
                changed |= c
                cfg_changed |= cc
                if self.delete_dead_instructions(deleted_allocas):
                    changed = True
                if deleted_allocas:
                    gone = deleted_allocas
                    state.worklist.remove_if(lambda a: a in gone)
                    state.post_promotion_worklist.remove_if(lambda a: a in gone)
                    state.promotable_allocas.remove_if(lambda a: a in gone)
                    deleted_allocas = set()
            if self.promote_allocas():
                changed = True
            state.worklist = state.post_promotion_worklist
            state.post_promotion_worklist = SetVector()
            if not state.worklist:
                break

        if changed and _assignment_tracking_enabled(fn):
            from llvmpy_mid.transform.utils.basic_block_utils import remove_redundant_dbg_instrs

            for bb in list(fn.blocks):
                remove_redundant_dbg_instrs(bb)
        state.cfg_changed = cfg_changed
        return changed, cfg_changed


def _assignment_tracking_enabled(fn: Function) -> bool:
    """LLVM ``isAssignmentTrackingEnabled``: the module flag ``debug-info-assignment-tracking``."""
    from llvmpy_mid.ir.module_flags import get_module_flag_int

    mod = fn.parent
    return mod is not None and bool(get_module_flag_int(mod, "debug-info-assignment-tracking"))


def run_sroa(fn: Function, dtu: DomTreeUpdater, ac: Any, preserve_cfg: bool) -> tuple[bool, bool]:
    """Run SROA over ``fn``; (changed, CFG changed) (LLVM ``SROA::runSROA``)."""
    return SROA(SROAState(fn, dtu, ac, preserve_cfg)).run()


class SROAPass(Pass[Function]):
    """``sroa``: scalar replacement of aggregates."""

    name: ClassVar[str] = "sroa"

    def __init__(self, preserve_cfg: bool = False) -> None:
        self.preserve_cfg = preserve_cfg

    @property
    def log_name(self) -> str:
        return "SROAPass"

    def pipeline_params(self) -> str:
        """``-print-pipeline-passes`` spelling (LLVM ``SROAPass::printPipeline``)."""
        return "preserve-cfg" if self.preserve_cfg else "modify-cfg"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration:
            return PreservedAnalyses.all()
        dt = am.get_result(DominatorTreeAnalysis, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        dtu = DomTreeUpdater(dt, strategy="lazy")
        changed, cfg_changed = run_sroa(unit, dtu, ac, self.preserve_cfg)
        dtu.flush()
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        if not cfg_changed:
            pa.preserve_set(CFGAnalyses)
        pa.preserve(DominatorTreeAnalysis)
        return pa
