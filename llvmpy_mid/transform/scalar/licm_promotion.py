"""LICM's scalar promotion: a memory location accessed in a loop through loop-invariant,
must-aliased pointers becomes an SSA value (LLVM 19.1.7 ``promoteLoopAccessesToScalars``,
``collectPromotionCandidates`` and the ``LoopPromoter`` in
``lib/Transforms/Scalar/LICM.cpp``).

What: :func:`collect_promotion_candidates` puts the loads and stores of the loop whose
pointer is loop invariant into an alias-set tracker and keeps the must-alias sets that are
written; a set is dropped when another access of the loop may write it, and remembered as
"read outside the set" when another access may read it. For each candidate set,
:func:`promote_loop_accesses_to_scalars` checks that:

- every loop use of the pointers is an unordered load or store of one type, all atomic or
  none (an atomic promotion needs natural alignment);
- the location can be loaded in the preheader (a load safe to execute unconditionally, a
  store guaranteed to execute, or a store to a pointer dereferenceable there);
- stores may be sunk to the exits: a store guaranteed to execute or dominating every exit,
  or a writable object that no other thread can see (a function-local object not captured
  before or in the loop, or a single-threaded target / ``-licm-force-thread-model-single``);
  when the loop may throw, the object must not be visible on unwind; reads outside the set
  forbid it. Without sinkable stores only the loads are promoted.

Then the preheader loads the value (``<ptr>.promoted``), the :class:`LoopPromoter` (a
:class:`~llvmpy_mid.transform.utils.load_store_promoter.LoadAndStorePromoter`) rewrites the
loads to the values live at them through phis, and each exit block gets a store of the
live-out value with the merged AA metadata and debug location, the best proven alignment
and the merged ``DIAssignID``; LCSSA phis are added where an exit block would use a loop
value. MemorySSA is kept up to date.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
from llvmpy_mid.analysis.alias.identified_objects import is_identified_function_local
from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.analysis.alias.object_visibility import is_not_visible_on_unwind, is_writable_object
from llvmpy_mid.analysis.alias_set_tracker import AliasSetTracker
from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured_before
from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer_for_type, is_dereferenceable_pointer
from llvmpy_mid.analysis.memory_ssa import BEGINNING, END
from llvmpy_mid.analysis.memory_ssa_access import MemoryDef, MemoryUse, MemoryUseOrDef
from llvmpy_mid.analysis.remark import optimization_remark
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.transform.scalar.licm import (
    DEBUG_TYPE,
    NUM_LOAD_PROMOTED,
    NUM_LOAD_STORE_PROMOTED,
    NUM_PROMOTION_CANDIDATES,
    erase_instruction,
    is_safe_to_execute_unconditionally,
)
from llvmpy_mid.transform.scalar.licm_arith import adopt_dbg_records_of_next, is_loop_invariant
from llvmpy_mid.transform.utils.load_store_promoter import LoadAndStorePromoter
from llvmpy_mid.transform.utils.local_metadata import merge_di_assign_id
from llvmpy_mid.transform.utils.ssa_updater import SSAUpdater

if TYPE_CHECKING:
    from llvmpy_mid.analysis.alias.aa_results import AAResults
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
    from llvmpy_mid.analysis.memory_ssa import MemorySSA
    from llvmpy_mid.analysis.memory_ssa_access import MemoryAccess
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
    from llvmpy_mid.analysis.must_execute import ICFLoopSafetyInfo
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

__all__ = [
    "LoopPromoter",
    "PredIteratorCache",
    "collect_promotion_candidates",
    "is_not_captured_before_or_in_loop",
    "is_not_visible_on_unwind_in_loop",
    "is_thread_local_object",
    "promote_loop_accesses_to_scalars",
]

_STORE_SAFE = 0
_STORE_UNSAFE = 1
_STORE_SAFETY_UNKNOWN = 2


class PredIteratorCache:
    """The predecessors of blocks, computed once per block (LLVM ``PredIteratorCache``)."""

    __slots__ = ("_preds",)

    def __init__(self) -> None:
        self._preds: dict[BasicBlock, list[BasicBlock]] = {}

    def get(self, bb: BasicBlock) -> list[BasicBlock]:
        preds = self._preds.get(bb)
        if preds is None:
            preds = bb.predecessors
            self._preds[bb] = preds
        return preds

    def size(self, bb: BasicBlock) -> int:
        return len(self.get(bb))

    def clear(self) -> None:
        self._preds.clear()


# --- candidates ---------------------------------------------------------------------------------


def _memory_instructions(mssa: MemorySSA, loop: Loop) -> list[Instruction]:
    """The instructions with a MemorySSA use or def in ``loop``, block by block (LLVM
    ``foreachMemoryAccess``)."""
    out: list[Instruction] = []
    for bb in loop.blocks:
        accesses = mssa.get_block_accesses(bb)
        if accesses:
            for access in accesses:
                if isinstance(access, MemoryUseOrDef) and access.memory_inst is not None:
                    out.append(access.memory_inst)
    return out


def _is_potentially_promotable(inst: Instruction, loop: Loop) -> bool:
    if isinstance(inst, (StoreInst, LoadInst)):
        return is_loop_invariant(loop, inst.pointer_operand)
    return False


def collect_promotion_candidates(mssa: MemorySSA, aa: AAResults, loop: Loop) -> list[tuple[list[Value], bool]]:
    """The must-alias pointer sets of ``loop`` worth promoting, each with whether an access
    outside the set may read it (then only loads may be promoted)."""
    batch = BatchAAResults(aa)
    tracker = AliasSetTracker(batch)
    insts = _memory_instructions(mssa, loop)
    attempting: set[Instruction] = set()
    for inst in insts:
        if _is_potentially_promotable(inst, loop):
            attempting.add(inst)
            tracker.add(inst)

    # [alias set, has reads outside the set]
    sets: list[list[Any]] = []
    for alias_set in tracker:
        if not alias_set.is_forwarding and alias_set.is_mod and alias_set.is_must_alias:
            sets.append([alias_set, False])
    if not sets:
        return []

    for inst in insts:
        if inst in attempting:
            continue
        kept: list[list[Any]] = []
        for pair in sets:
            mr = pair[0].aliases_unknown_inst(inst, batch)
            if mr & ModRefInfo.MOD:
                continue
            if mr & ModRefInfo.REF:
                pair[1] = True
                if not pair[0].is_ref:
                    continue
            kept.append(pair)
        sets = kept
        if not sets:
            break

    return [(alias_set.pointers(), bool(reads_outside)) for alias_set, reads_outside in sets]


# --- object facts ---------------------------------------------------------------------------------


def is_not_captured_before_or_in_loop(v: Value, loop: Loop, dt: DominatorTree) -> bool:
    """``v`` is not captured before the loop or inside it: checked against the header's
    terminator, which every loop instruction reaches."""
    term = loop.header.terminator
    assert term is not None
    return not pointer_may_be_captured_before(v, True, True, term, dt)


def is_not_visible_on_unwind_in_loop(obj: Value, loop: Loop, dt: DominatorTree) -> bool:
    """A caller cannot look at ``obj`` after an unwind out of the loop."""
    not_visible, requires_no_capture = is_not_visible_on_unwind(obj)
    if not not_visible:
        return False
    return not requires_no_capture or is_not_captured_before_or_in_loop(obj, loop, dt)


def is_thread_local_object(obj: Value, loop: Loop, dt: DominatorTree, tti: TargetTransformInfo | None) -> bool:
    """No other thread can see ``obj`` while the loop runs."""
    if is_identified_function_local(obj) and is_not_captured_before_or_in_loop(obj, loop, dt):
        return True
    if tti is not None and tti.is_single_threaded():
        return True
    return bool(OPTIONS.value("licm-force-thread-model-single"))


# --- the promoter -----------------------------------------------------------------------------------


class LoopPromoter(LoadAndStorePromoter):
    """LICM's :class:`LoadAndStorePromoter`: stores the live-out value in every exit block
    and keeps the loop-safety info and MemorySSA informed of deletions."""

    def __init__(
        self,
        some_ptr: Value,
        insts: Sequence[Instruction],
        ssa: SSAUpdater,
        exit_blocks: Sequence[BasicBlock],
        insert_pts: Sequence[Instruction],
        mssa_insert_pts: list[MemoryAccess | None],
        pred_cache: PredIteratorCache,
        mssau: MemorySSAUpdater,
        li: LoopInfo,
        debug_loc: MDNode | None,
        alignment: int,
        unordered_atomic: bool,
        aa_tags: AAMDNodes,
        safety_info: ICFLoopSafetyInfo,
        can_insert_stores_in_exit_blocks: bool,
    ) -> None:
        super().__init__(insts, ssa)
        self.some_ptr = some_ptr
        self.exit_blocks = exit_blocks
        self.insert_pts = insert_pts
        self.mssa_insert_pts = mssa_insert_pts
        self.pred_cache = pred_cache
        self.mssau = mssau
        self.li = li
        self.debug_loc = debug_loc
        self.alignment = alignment
        self.unordered_atomic = unordered_atomic
        self.aa_tags = aa_tags
        self.safety_info = safety_info
        self.can_insert_stores_in_exit_blocks = can_insert_stores_in_exit_blocks
        self.uses = list(insts)

    def _maybe_insert_lcssa_phi(self, v: Value, bb: BasicBlock) -> Value:
        """``v``, or an LCSSA phi of it when ``bb`` would use a loop value from outside."""
        if v.type.type_id is TypeID.TOKEN or not isinstance(v, Instruction):
            return v
        parent = v.parent
        loop = self.li.loop_for(parent) if parent is not None else None
        if loop is None or loop.contains(bb):
            return v
        phi = PHINode(v.type, name=v.name + ".lcssa")
        phi.insert_into(bb, bb.instructions._first)
        for pred in self.pred_cache.get(bb):
            phi.add_incoming(v, pred)
        return phi

    def _insert_stores_in_loop_exit_blocks(self) -> None:
        new_id: MDNode | None = None
        mssau = self.mssau
        for i, exit_block in enumerate(self.exit_blocks):
            live_in = self.ssa.get_value_in_middle_of_block(exit_block)
            live_in = self._maybe_insert_lcssa_phi(live_in, exit_block)
            ptr = self._maybe_insert_lcssa_phi(self.some_ptr, exit_block)
            store = StoreInst(
                live_in,
                ptr,
                alignment=self.alignment,
                ordering=AtomicOrdering.UNORDERED if self.unordered_atomic else AtomicOrdering.NOT_ATOMIC,
            )
            store.insert_before(self.insert_pts[i])
            store.debug_loc = self.debug_loc
            if i == 0:
                merge_di_assign_id(store, self.uses)
                new_id = store.get_metadata("DIAssignID")
            else:
                store.set_metadata("DIAssignID", new_id)
            if self.aa_tags:
                set_aa_metadata(store, self.aa_tags)
            point = self.mssa_insert_pts[i]
            if point is None:
                access = mssau.create_memory_access_in_bb(store, None, exit_block, BEGINNING)
            else:
                access = mssau.create_memory_access_after(store, None, point)
            assert isinstance(access, MemoryDef)
            self.mssa_insert_pts[i] = access
            mssau.insert_def(access, True)

    def do_extra_rewrites_before_final_deletion(self) -> None:
        if self.can_insert_stores_in_exit_blocks:
            self._insert_stores_in_loop_exit_blocks()

    def instruction_deleted(self, inst: Instruction) -> None:
        self.safety_info.remove_instruction(inst)
        self.mssau.remove_memory_access(inst)

    def should_delete(self, inst: Instruction) -> bool:
        if isinstance(inst, StoreInst):
            return self.can_insert_stores_in_exit_blocks
        return True


# --- promotion ---------------------------------------------------------------------------------------


def _merged_debug_loc(insts: Sequence[Instruction]) -> MDNode | None:
    """LLVM ``DILocation::getMergedLocations`` over the instructions' locations."""
    if not insts:
        return None
    merged = insts[0].debug_loc
    for inst in insts[1:]:
        merged = get_merged_location(merged, inst.debug_loc)
        if merged is None:
            break
    return merged


def promote_loop_accesses_to_scalars(
    pointer_must_aliases: Sequence[Value],
    exit_blocks: Sequence[BasicBlock],
    insert_pts: Sequence[Instruction],
    mssa_insert_pts: list[MemoryAccess | None],
    pic: PredIteratorCache | None,
    li: LoopInfo,
    dt: DominatorTree,
    ac: AssumptionCache | None,
    tli: TargetLibraryInfo | None,
    tti: TargetTransformInfo | None,
    cur_loop: Loop,
    mssau: MemorySSAUpdater,
    safety_info: ICFLoopSafetyInfo,
    ore: OptimizationRemarkEmitter | None,
    allow_speculation: bool,
    has_reads_outside_set: bool,
) -> bool:
    """Promote the location of the must-aliased ``pointer_must_aliases`` to a register in
    ``cur_loop``; True when done. ``insert_pts[i]`` is where exit block ``exit_blocks[i]``
    gets its store (its first insertion point), ``mssa_insert_pts[i]`` the access of the
    last store promotion put there (None at first; updated)."""
    NUM_PROMOTION_CANDIDATES.add()
    some_ptr = pointer_must_aliases[0]
    preheader = cur_loop.preheader
    assert preheader is not None
    ph_term = preheader.terminator
    assert ph_term is not None
    fn = preheader.parent
    module = fn.parent if fn is not None else None
    assert module is not None
    dl = module.data_layout

    dereferenceable_in_ph = False
    store_is_guaranteed_to_execute = False
    found_load_to_promote = False
    store_safety = _STORE_SAFETY_UNKNOWN
    loop_uses: list[Instruction] = []
    alignment = 1
    saw_unordered_atomic = False
    saw_not_atomic = False
    aa_tags = AAMDNodes()

    if has_reads_outside_set:
        store_safety = _STORE_UNSAFE

    if store_safety == _STORE_SAFETY_UNKNOWN and safety_info.any_block_may_throw():
        obj = get_underlying_object(some_ptr)
        if not is_not_visible_on_unwind_in_loop(obj, cur_loop, dt):
            store_safety = _STORE_UNSAFE

    access_ty: Type | None = None
    for asiv in pointer_must_aliases:
        for use in list(asiv.uses):
            ui = use.user
            if not isinstance(ui, Instruction) or not cur_loop.contains(ui):
                continue
            if isinstance(ui, LoadInst):
                if not ui.is_unordered:
                    return False
                atomic = ui.is_atomic
                saw_unordered_atomic |= atomic
                saw_not_atomic |= not atomic
                found_load_to_promote = True
                inst_alignment = ui.alignment
                if not dereferenceable_in_ph or inst_alignment > alignment:
                    if is_safe_to_execute_unconditionally(
                        ui, dt, tli, cur_loop, safety_info, ore, ph_term, ac, allow_speculation
                    ):
                        dereferenceable_in_ph = True
                        alignment = max(alignment, inst_alignment)
            elif isinstance(ui, StoreInst):
                if use.index != 1:
                    continue
                if not ui.is_unordered:
                    return False
                atomic = ui.is_atomic
                saw_unordered_atomic |= atomic
                saw_not_atomic |= not atomic
                inst_alignment = ui.alignment
                guaranteed = safety_info.is_guaranteed_to_execute(ui, dt, cur_loop)
                store_is_guaranteed_to_execute |= guaranteed
                if guaranteed:
                    dereferenceable_in_ph = True
                    if store_safety == _STORE_SAFETY_UNKNOWN:
                        store_safety = _STORE_SAFE
                    alignment = max(alignment, inst_alignment)
                if store_safety == _STORE_SAFETY_UNKNOWN:
                    store_bb = ui.parent
                    assert store_bb is not None
                    if all(dt.dominates_block(store_bb, e) for e in exit_blocks):
                        store_safety = _STORE_SAFE
                if not dereferenceable_in_ph:
                    dereferenceable_in_ph = is_dereferenceable_and_aligned_pointer_for_type(
                        ui.pointer_operand, ui.value_operand.type, ui.alignment, dl, ph_term, ac, dt, tli
                    )
            else:
                continue

            ty = ui.type if isinstance(ui, LoadInst) else ui.value_operand.type
            if access_ty is None:
                access_ty = ty
            elif access_ty is not ty:
                return False

            if not loop_uses:
                aa_tags = AAMDNodes.of(ui)
            elif aa_tags:
                aa_tags = aa_tags.merge(AAMDNodes.of(ui))
            loop_uses.append(ui)

    if saw_unordered_atomic and saw_not_atomic:
        return False
    if not dereferenceable_in_ph or access_ty is None:
        return False
    if saw_unordered_atomic and alignment < dl.type_store_size(access_ty):
        return False

    if store_safety == _STORE_SAFETY_UNKNOWN:
        obj = get_underlying_object(some_ptr)
        writable, explicitly_dereferenceable_only = is_writable_object(obj)
        if (
            writable
            and (not explicitly_dereferenceable_only or is_dereferenceable_pointer(some_ptr, access_ty, dl))
            and is_thread_local_object(obj, cur_loop, dt, tti)
        ):
            store_safety = _STORE_SAFE

    if store_safety != _STORE_SAFE and not found_load_to_promote:
        return False

    if store_safety == _STORE_SAFE:
        NUM_LOAD_STORE_PROMOTED.add()
    else:
        NUM_LOAD_PROMOTED.add()

    if ore is not None:
        first_use = loop_uses[0]
        ore.emit(
            lambda: optimization_remark(DEBUG_TYPE, "PromoteLoopAccessesToScalar", first_use).add(
                "Moving accesses to memory location out of the loop"
            )
        )

    debug_loc = _merged_debug_loc(loop_uses)
    new_phis: list[PHINode] = []
    ssa = SSAUpdater(new_phis)
    promoter = LoopPromoter(
        some_ptr,
        loop_uses,
        ssa,
        exit_blocks,
        insert_pts,
        mssa_insert_pts,
        pic if pic is not None else PredIteratorCache(),
        mssau,
        li,
        debug_loc,
        alignment,
        saw_unordered_atomic,
        aa_tags,
        safety_info,
        store_safety == _STORE_SAFE,
    )

    preheader_load: LoadInst | None = None
    if found_load_to_promote or not store_is_guaranteed_to_execute:
        preheader_load = LoadInst(
            access_ty,
            some_ptr,
            alignment=alignment,
            ordering=AtomicOrdering.UNORDERED if saw_unordered_atomic else AtomicOrdering.NOT_ATOMIC,
            name=some_ptr.name + ".promoted",
        )
        preheader_load.insert_before(ph_term)
        adopt_dbg_records_of_next(preheader_load)
        if aa_tags:
            set_aa_metadata(preheader_load, aa_tags)
        access = mssau.create_memory_access_in_bb(preheader_load, None, preheader, END)
        assert isinstance(access, MemoryUse)
        mssau.insert_use(access, True)
        ssa.add_available_value(preheader, preheader_load)
    else:
        ssa.add_available_value(preheader, PoisonValue.get(access_ty))

    verify = bool(OPTIONS.value("verify-memoryssa"))
    if verify:
        mssau.mssa.verify_memory_ssa()
    promoter.run(loop_uses)
    if verify:
        mssau.mssa.verify_memory_ssa()

    if preheader_load is not None and preheader_load.use_empty:
        erase_instruction(preheader_load, safety_info, mssau)
    return True
