"""GVN's load elimination and load PRE (LLVM 19.1.7
``llvm/lib/Transforms/Scalar/GVN.cpp``: ``AvailableValue``,
``AnalyzeLoadAvailability``, ``processLoad``, ``processNonLocalLoad``,
``ConstructSSAForLoadSet``, ``IsValueFullyAvailableInBlock``,
``PerformLoadPRE``, ``performLoopLoadPRE``, ``findLoadToHoistIntoPred``,
``eliminatePartiallyRedundantLoad``, ``findDominatingValue``).

What: memdep names the instruction a load depends on, in its block or in each
predecessor region. A defining store gives its stored value, a defining load
its value, an ``alloca``/``lifetime.start`` undef, an allocation its initial
value, a select of two pointers a select of two dominating loads; a clobbering
store, load or memory intrinsic that covers the loaded bytes gives the bytes
by VNCoercion. A load available in every predecessor region is replaced by the
SSAUpdater's phi web; one unavailable in exactly one predecessor is reloaded
there (PHI-translating the address, splitting a critical edge or hoisting an
identical load of the other successor into the predecessor) when that is safe;
a loop header load clobbered only in one non-latch-dominating loop block is
reloaded in that block and the preheader. Dead predecessors supply undef.

Limits as opt-19: ``-gvn-max-num-deps`` (100), ``-gvn-max-block-speculations``
(600), ``-gvn-max-num-visited-insts`` (100), ``-gvn-max-num-insns`` (100). A cached
MemorySSA is kept up to date; the remarks are :mod:`.gvn_remarks`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer_for_type
from llvmpy_mid.analysis.memory_ssa import BEFORE_TERMINATOR, MemoryDef, MemoryUse
from llvmpy_mid.analysis.phi_trans_addr import PHITransAddr
from llvmpy_mid.ir.constants import UndefValue
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.transform.scalar.gvn_remarks import report_load_elim, report_load_pre, report_may_clobbered_load
from llvmpy_mid.transform.scalar.gvn_value_table import (
    IS_VALUE_FULLY_AVAILABLE_IN_BLOCK_NUM_SPECULATIONS_MAX,
    MAX_BB_SPECULATION_CUTOFF_REACHED_TIMES,
    NUM_GVN_LOAD,
    NUM_PRE_LOAD,
    NUM_PRE_LOAD_MOVED_2_CE_PRED,
    NUM_PRE_LOOP_LOAD,
)
from llvmpy_mid.transform.utils import vn_coercion
from llvmpy_mid.transform.utils.local_metadata import combine_metadata_for_cse
from llvmpy_mid.transform.utils.ssa_updater import SSAUpdater

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.scalar.gvn import GVN

__all__ = ["AvailableValue", "AvailableValueInBlock", "process_load", "process_non_local_load"]

SIMPLE_VAL = 0
LOAD_VAL = 1
MEM_INTRIN = 2
UNDEF_VAL = 3
SELECT_VAL = 4

_AA_MD = ("tbaa", "tbaa.struct", "alias.scope", "noalias")
_COERCED_LOAD_KEEP = ("dereferenceable", "dereferenceable_or_null", "invariant.load", "invariant.group")
_MEM_INTRINSICS = ("llvm.memset", "llvm.memcpy", "llvm.memmove", "llvm.memcpy.inline", "llvm.memset.inline")


# Availability states of IsValueFullyAvailableInBlock.
_UNAVAILABLE = 0
_AVAILABLE = 1
_SPECULATIVELY_AVAILABLE = 2


class AvailableValue:
    """A value a load can be replaced with, and how to make it (LLVM ``AvailableValue``)."""

    __slots__ = ("val", "kind", "offset", "v1", "v2")

    def __init__(self, val: Value | None, kind: int, offset: int = 0, v1: Value | None = None, v2: Value | None = None) -> None:
        self.val = val
        self.kind = kind
        self.offset = offset
        self.v1 = v1
        self.v2 = v2

    def materialize_adjusted_value(self, load: Instruction, insert_pt: Instruction, gvn: GVN) -> Value:
        """The value of ``load`` built before ``insert_pt`` (LLVM ``MaterializeAdjustedValue``)."""
        load_ty = load.type
        dl = gvn.dl
        kind = self.kind
        val = self.val
        assert val is not None
        if kind == SIMPLE_VAL:
            res = val
            if res.type is not load_ty:
                res = vn_coercion.get_value_for_load(res, self.offset, load_ty, insert_pt, dl)
            return res
        if kind == LOAD_VAL:
            coerced: Instruction = val  # type: ignore[assignment]
            if coerced.type is load_ty and self.offset == 0:
                combine_metadata_for_cse(coerced, load, False)
                return coerced
            res = vn_coercion.get_value_for_load(coerced, self.offset, load_ty, insert_pt, dl)
            if coerced.get_metadata("noundef") is None:
                coerced.drop_unknown_non_debug_metadata(_COERCED_LOAD_KEEP)
            return res
        if kind == MEM_INTRIN:
            got = vn_coercion.get_mem_inst_value_for_load(cast("Instruction", val), self.offset, load_ty, insert_pt, dl)
            assert got is not None
            return got
        if kind == SELECT_VAL:
            sel: Instruction = val  # type: ignore[assignment]
            assert self.v1 is not None and self.v2 is not None
            new = SelectInst(sel.get_operand(0), self.v1, self.v2)
            new.insert_before(sel)
            return new
        raise AssertionError("should not materialize a value from a dead block")


class AvailableValueInBlock:
    """An available value at the end of a block (LLVM ``AvailableValueInBlock``)."""

    __slots__ = ("bb", "av")

    def __init__(self, bb: BasicBlock, av: AvailableValue) -> None:
        self.bb = bb
        self.av = av

    def materialize_adjusted_value(self, load: Instruction, gvn: GVN) -> Value:
        term = self.bb.terminator
        assert term is not None
        return self.av.materialize_adjusted_value(load, term, gvn)


# --- availability -------------------------------------------------------------------------------


def _is_lifetime_start(inst: Instruction) -> bool:
    return inst.opcode == "call" and inst.intrinsic_base == "llvm.lifetime.start"  # type: ignore[attr-defined]


def _is_mem_intrinsic(inst: Instruction) -> bool:
    """A memset, memcpy or memmove (inline forms included) (LLVM ``MemIntrinsic``)."""
    return inst.opcode == "call" and inst.intrinsic_base in _MEM_INTRINSICS  # type: ignore[attr-defined]


def _prev_non_debug(inst: Instruction) -> Instruction | None:
    p = inst._prev
    while p is not None and p.opcode == "call" and p.intrinsic_name.startswith("llvm.dbg."):  # type: ignore[attr-defined]
        p = p._prev
    return p


def find_dominating_value(loc: MemoryLocation, load_ty: Any, frm: Instruction, gvn: GVN) -> Value | None:
    """A load of ``loc.ptr`` of type ``load_ty`` not clobbered before ``frm``, in ``frm``'s
    extended basic block (LLVM ``findDominatingValue``)."""
    visited = 0
    from_bb = frm.parent
    batch = BatchAAResults(gvn.aa)
    limit = gvn.max_num_visited_insts
    bb = from_bb
    while bb is not None:
        inst = frm if bb is from_bb else bb.terminator
        while inst is not None:
            visited += 1
            if visited > limit:
                return None
            if batch.get_mod_ref_info(inst, loc) & ModRefInfo.MOD:
                return None
            if inst.opcode == "load" and inst.get_operand(0) is loc.ptr and inst.type is load_ty:
                return inst
            inst = _prev_non_debug(inst)
        bb = bb.single_predecessor
    return None


def analyze_load_availability(gvn: GVN, load: Instruction, dep: Any, address: Value | None) -> AvailableValue | None:
    """What ``load`` reads, given its local dependence ``dep`` (LLVM ``AnalyzeLoadAvailability``)."""
    dep_inst: Instruction = dep.get_inst()
    dl = gvn.dl
    load_atomic = load.is_atomic
    if dep.is_clobber():
        op = dep_inst.opcode
        if op == "store":
            if address is not None and load_atomic <= dep_inst.is_atomic:
                offset = vn_coercion.analyze_load_from_clobbering_store(load.type, address, cast(StoreInst, dep_inst), dl)
                if offset != -1:
                    return AvailableValue(dep_inst.get_operand(0), SIMPLE_VAL, offset)
        if op == "load":
            if dep_inst is not load and address is not None and load_atomic <= dep_inst.is_atomic:
                load_ty = load.type
                offset = -1
                if vn_coercion.can_coerce_must_aliased_value_to_load(dep_inst, load_ty, dl):
                    clobber_off = gvn.md.get_clobber_offset(dep_inst)
                    offset = -1 if clobber_off is None or clobber_off < 0 else clobber_off
                if offset == -1:
                    offset = vn_coercion.analyze_load_from_clobbering_load(load_ty, address, cast(LoadInst, dep_inst), dl)
                if offset != -1:
                    return AvailableValue(dep_inst, LOAD_VAL, offset)
        if _is_mem_intrinsic(dep_inst):
            if address is not None and not load_atomic:
                offset = vn_coercion.analyze_load_from_clobbering_mem_inst(load.type, address, dep_inst, dl)
                if offset != -1:
                    return AvailableValue(dep_inst, MEM_INTRIN, offset)
        report_may_clobbered_load(gvn.ore, load, dep_inst, gvn.dt)
        return None
    op = dep_inst.opcode
    if op == "alloca" or _is_lifetime_start(dep_inst):
        return AvailableValue(UndefValue.get(load.type), SIMPLE_VAL)
    from llvmpy_mid.analysis.memory_builtins import get_initial_value_of_allocation

    init = get_initial_value_of_allocation(dep_inst, gvn.tli, load.type)
    if init is not None:
        return AvailableValue(init, SIMPLE_VAL)
    if op == "store":
        stored = dep_inst.get_operand(0)
        if not vn_coercion.can_coerce_must_aliased_value_to_load(stored, load.type, dl):
            return None
        if dep_inst.is_atomic < load_atomic:
            return None
        return AvailableValue(stored, SIMPLE_VAL)
    if op == "load":
        if not vn_coercion.can_coerce_must_aliased_value_to_load(dep_inst, load.type, dl):
            return None
        if dep_inst.is_atomic < load_atomic:
            return None
        return AvailableValue(dep_inst, LOAD_VAL)
    if op == "select":
        loc = MemoryLocation.get(load)
        v1 = find_dominating_value(loc.with_ptr(dep_inst.get_operand(1)), load.type, dep_inst, gvn)
        if v1 is None:
            return None
        v2 = find_dominating_value(loc.with_ptr(dep_inst.get_operand(2)), load.type, dep_inst, gvn)
        if v2 is None:
            return None
        return AvailableValue(dep_inst, SELECT_VAL, 0, v1, v2)
    return None


def analyze_load_availability_deps(
    gvn: GVN, load: Instruction, deps: list[Any], values_per_block: list[AvailableValueInBlock], unavailable: list[BasicBlock]
) -> None:
    """Sort the non-local dependences into available values and blockers."""
    dead = gvn.dead_blocks
    for dep in deps:
        dep_bb = dep.get_bb()
        info = dep.get_result()
        if dep_bb in dead:
            values_per_block.append(AvailableValueInBlock(dep_bb, AvailableValue(None, UNDEF_VAL)))
            continue
        if not info.is_local():
            unavailable.append(dep_bb)
            continue
        av = analyze_load_availability(gvn, load, info, dep.get_address())
        if av is not None:
            values_per_block.append(AvailableValueInBlock(dep_bb, av))
        else:
            unavailable.append(dep_bb)


def construct_ssa_for_load_set(gvn: GVN, load: Instruction, values_per_block: list[AvailableValueInBlock]) -> Value:
    """The value ``load`` has, joining the available values with phis (LLVM ``ConstructSSAForLoadSet``)."""
    load_bb = load.parent
    assert load_bb is not None
    if len(values_per_block) == 1 and gvn.dt.properly_dominates(values_per_block[0].bb, load_bb):
        return values_per_block[0].materialize_adjusted_value(load, gvn)
    new_phis: list[PHINode] = []
    updater = SSAUpdater(new_phis)
    updater.initialize(load.type, load.name)
    for avb in values_per_block:
        bb = avb.bb
        av = avb.av
        if av.kind == UNDEF_VAL:
            continue
        if updater.has_value_for_block(bb):
            continue
        if bb is load_bb and (av.kind == SIMPLE_VAL or av.kind == LOAD_VAL) and av.val is load:
            continue
        updater.add_available_value(bb, avb.materialize_adjusted_value(load, gvn))
    return updater.get_value_in_middle_of_block(load_bb)


def _replace_values_per_block_entry(values_per_block: list[AvailableValueInBlock], old: Value, new: Value) -> None:
    for avb in values_per_block:
        av = avb.av
        if av.val is old:
            av.val = new
        if av.kind == SELECT_VAL:
            if av.v1 is old:
                av.v1 = new
            if av.v2 is old:
                av.v2 = new


def _is_value_fully_available_in_block(gvn: GVN, bb: BasicBlock, states: dict[BasicBlock, int]) -> bool:
    """LLVM ``IsValueFullyAvailableInBlock`` (iterative, with its speculation budget)."""
    worklist = [bb]
    unavailable_bb: BasicBlock | None = None
    num_new = 0
    budget = gvn.max_bb_speculations
    while worklist:
        cur = worklist.pop()
        state = states.get(cur)
        if state is not None:
            if state == _UNAVAILABLE:
                unavailable_bb = cur
                break
            continue
        states[cur] = _SPECULATIVELY_AVAILABLE
        num_new += 1
        out_of_budget = num_new > budget
        preds = cur.predecessors
        if out_of_budget or not preds:
            if out_of_budget:
                MAX_BB_SPECULATION_CUTOFF_REACHED_TIMES.add()
            states[cur] = _UNAVAILABLE
            unavailable_bb = cur
            break
        worklist.extend(preds)
    stat = IS_VALUE_FULLY_AVAILABLE_IN_BLOCK_NUM_SPECULATIONS_MAX
    if num_new > stat.value:
        stat.add(num_new - stat.value)
    if unavailable_bb is not None:
        worklist = list(unavailable_bb.successors)
        while worklist:
            b = worklist.pop()
            st = states.get(b)
            if st is None or st != _SPECULATIVELY_AVAILABLE:
                continue
            states[b] = _UNAVAILABLE
            worklist.extend(b.successors)
        return False
    return True


def _must_suppress_speculation(load: Instruction) -> bool:
    if not load.is_unordered:  # type: ignore[attr-defined]
        return True
    fn = load.function
    assert fn is not None
    return fn.has_fn_attribute("sanitize_thread") or fn.has_fn_attribute("sanitize_address") or fn.has_fn_attribute("sanitize_hwaddress")


def _is_safe_to_speculatively_execute_load(gvn: GVN, load: Instruction, ctx_i: Instruction | None) -> bool:
    """LLVM ``isSafeToSpeculativelyExecute(Load, CtxI, AC, DT)``."""
    if _must_suppress_speculation(load):
        return False
    align = load.alignment or gvn.dl.abi_alignment(load.type)  # type: ignore[attr-defined]
    return is_dereferenceable_and_aligned_pointer_for_type(load.get_operand(0), load.type, align, gvn.dl, ctx_i, gvn.ac, gvn.dt)


def _is_debug_or_pseudo(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    name: str = inst.intrinsic_name  # type: ignore[attr-defined]
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


_SPECIAL_TERMINATORS = frozenset(("catchswitch", "catchret", "cleanupret", "invoke", "resume", "callbr"))


def find_load_to_hoist_into_pred(gvn: GVN, pred: BasicBlock, load_bb: BasicBlock, load: Instruction) -> Instruction | None:
    """An identical load at the top of ``pred``'s other successor that could move into
    ``pred`` (LLVM ``findLoadToHoistIntoPred``)."""
    term = pred.terminator
    assert term is not None
    if term.num_successors != 2 or term.opcode in _SPECIAL_TERMINATORS:
        return None
    succ = term.get_successor(0)
    if succ is load_bb:
        succ = term.get_successor(1)
    if succ.single_predecessor is None:
        return None
    num_insts = gvn.max_num_insns_per_block
    for inst in succ.instructions:
        if _is_debug_or_pseudo(inst):
            continue
        num_insts -= 1
        if num_insts == 0:
            return None
        if not inst.is_identical_to(load):
            continue
        dep = gvn.md.get_dependency(inst)
        if dep.is_non_local() and not gvn.icf.is_dominated_by_icfi_from_same_block(inst):
            return inst
        return None
    return None


def eliminate_partially_redundant_load(
    gvn: GVN,
    load: Instruction,
    values_per_block: list[AvailableValueInBlock],
    available_loads: dict[BasicBlock, Value],
    critical_edge_pred_and_load: dict[BasicBlock, Instruction] | None,
) -> None:
    """Reload in each of ``available_loads``' blocks, then replace ``load`` (LLVM
    ``eliminatePartiallyRedundantLoad``)."""
    li = gvn.li
    for unavailable_block, load_ptr in available_loads.items():
        term = unavailable_block.terminator
        assert term is not None
        new_load = LoadInst(
            load.type,
            load_ptr,
            volatile=load.is_volatile,
            alignment=load.alignment or gvn.dl.abi_alignment(load.type),  # type: ignore[attr-defined]
            ordering=load.ordering,  # type: ignore[attr-defined]
            sync_scope=load.sync_scope,  # type: ignore[attr-defined]
            name=load.name + ".pre",
        )
        new_load.insert_before(term)
        new_load.debug_loc = load.debug_loc
        mssau = gvn.mssau
        if mssau is not None:
            new_access = mssau.create_memory_access_in_bb(new_load, None, unavailable_block, BEFORE_TERMINATOR)
            if isinstance(new_access, MemoryDef):
                mssau.insert_def(new_access, True)
            else:
                assert isinstance(new_access, MemoryUse)
                mssau.insert_use(new_access, True)
        for kind in _AA_MD:
            node = load.get_metadata(kind)
            if node is not None:
                new_load.set_metadata(kind, node)
        for kind in ("invariant.load", "invariant.group", "range"):
            node = load.get_metadata(kind)
            if node is not None:
                new_load.set_metadata(kind, node)
        access = load.get_metadata("llvm.access.group")
        if access is not None and li.loop_for(load.parent) is li.loop_for(unavailable_block):  # type: ignore[arg-type]
            new_load.set_metadata("llvm.access.group", access)
        values_per_block.append(AvailableValueInBlock(unavailable_block, AvailableValue(new_load, SIMPLE_VAL)))
        gvn.md.invalidate_cached_pointer_info(load_ptr)
        if critical_edge_pred_and_load is not None:
            old_load = critical_edge_pred_and_load.get(unavailable_block)
            if old_load is not None:
                NUM_PRE_LOAD_MOVED_2_CE_PRED.add()
                gvn.icf.insert_instruction_to(new_load, unavailable_block)
                combine_metadata_for_cse(new_load, old_load, False)
                old_load.replace_all_uses_with(new_load)
                _replace_values_per_block_entry(values_per_block, old_load, new_load)
                val_no = gvn.vn.lookup(old_load, False)
                if val_no:
                    gvn.leader_table.erase(val_no, old_load, old_load.parent)  # type: ignore[arg-type]
                gvn.vn.erase(old_load)
                gvn.remove_instruction(old_load)
    v = construct_ssa_for_load_set(gvn, load, values_per_block)
    gvn.icf.remove_users_of(load)
    load.replace_all_uses_with(v)
    if isinstance(v, PHINode):
        v.take_name(load)
    if v.is_instruction:
        v.debug_loc = load.debug_loc  # type: ignore[attr-defined]
    gvn.invalidate_pointer(v)
    gvn.mark_instruction_for_deletion(load)
    report_load_pre(gvn.ore, load)


def perform_load_pre(
    gvn: GVN, load: Instruction, values_per_block: list[AvailableValueInBlock], unavailable_blocks: list[BasicBlock]
) -> bool:
    """LLVM ``PerformLoadPRE``."""
    blockers = set(unavailable_blocks)
    load_bb = load.parent
    assert load_bb is not None
    tmp_bb = load_bb
    icf = gvn.icf
    must_ensure_safety = icf.is_dominated_by_icfi_from_same_block(load)
    while True:
        single = tmp_bb.single_predecessor
        if single is None:
            break
        tmp_bb = single
        if tmp_bb is load_bb:
            return False
        if tmp_bb in blockers:
            return False
        term = tmp_bb.terminator
        assert term is not None
        if term.num_successors != 1:
            return False
        must_ensure_safety = must_ensure_safety or icf.has_icf(tmp_bb)
    load_bb = tmp_bb
    pred_loads: dict[BasicBlock, Value | None] = {}
    states: dict[BasicBlock, int] = {}
    for avb in values_per_block:
        states[avb.bb] = _AVAILABLE
    for ub in unavailable_blocks:
        states[ub] = _UNAVAILABLE
    critical_edge_pred_split: list[BasicBlock] = []
    critical_edge_pred_and_load: dict[BasicBlock, Instruction] = {}
    dt = gvn.dt
    for pred in load_bb.predecessors:
        pterm = pred.terminator
        assert pterm is not None
        if pterm.is_eh_pad:
            return False
        if _is_value_fully_available_in_block(gvn, pred, states):
            continue
        if pterm.num_successors != 1:
            if pterm.opcode == "indirectbr":
                return False
            first = load_bb.first_non_phi
            if first is not None and first.is_eh_pad:
                return False
            if not gvn.is_load_pre_split_backedge_enabled() and dt.dominates_block(load_bb, pred):
                return False
            hoist = find_load_to_hoist_into_pred(gvn, pred, load_bb, load)
            if hoist is not None:
                critical_edge_pred_and_load[pred] = hoist
            else:
                critical_edge_pred_split.append(pred)
        else:
            pred_loads[pred] = None
    num_insert_preds = len(pred_loads) + len(critical_edge_pred_split)
    if num_insert_preds > 1:
        return False
    if must_ensure_safety:
        if critical_edge_pred_split:
            if not _is_safe_to_speculatively_execute_load(gvn, load, load_bb.first_non_phi):
                return False
        for p in pred_loads:
            if not _is_safe_to_speculatively_execute_load(gvn, load, p.terminator):
                return False
        for p in critical_edge_pred_and_load:
            if not _is_safe_to_speculatively_execute_load(gvn, load, p.terminator):
                return False
    for orig_pred in critical_edge_pred_split:
        new_pred = gvn.split_critical_edge_between(orig_pred, load_bb)
        assert new_pred is not None
        pred_loads[new_pred] = None
    for p in critical_edge_pred_and_load:
        pred_loads[p] = None
    can_do_pre = True
    new_insts: list[Instruction] = []
    dl = gvn.dl
    for unavailable_pred in list(pred_loads):
        load_ptr: Value | None = load.get_operand(0)
        cur = load.parent
        assert cur is not None
        while cur is not load_bb:
            single = cur.single_predecessor
            assert single is not None
            address = PHITransAddr(load_ptr, dl, gvn.ac)
            load_ptr = address.translate_with_insertion(cur, single, dt, new_insts)
            if load_ptr is None:
                can_do_pre = False
                break
            cur = single
        if load_ptr is not None:
            address = PHITransAddr(load_ptr, dl, gvn.ac)
            load_ptr = address.translate_with_insertion(load_bb, unavailable_pred, dt, new_insts)
        if load_ptr is None:
            can_do_pre = False
            break
        pred_loads[unavailable_pred] = load_ptr
    if not can_do_pre:
        while new_insts:
            new_insts.pop().erase_from_parent()
        return bool(critical_edge_pred_split)
    for inst in new_insts:
        _update_location_after_hoist(inst)
        gvn.vn.lookup_or_add(inst)
    eliminate_partially_redundant_load(gvn, load, values_per_block, pred_loads, critical_edge_pred_and_load)  # type: ignore[arg-type]
    NUM_PRE_LOAD.add()
    return True


def _update_location_after_hoist(inst: Instruction) -> None:
    """LLVM ``Instruction::updateLocationAfterHoist`` for what PHI translation inserts
    (GEPs, adds, casts: never calls): the location is dropped."""
    if inst.opcode != "call":
        inst.debug_loc = None


def perform_loop_load_pre(
    gvn: GVN, load: Instruction, values_per_block: list[AvailableValueInBlock], unavailable_blocks: list[BasicBlock]
) -> bool:
    """LLVM ``performLoopLoadPRE``."""
    li = gvn.li
    load_bb = load.parent
    assert load_bb is not None
    loop = li.loop_for(load_bb)
    if loop is None or loop.header is not load_bb:
        return False
    preheader = loop.preheader
    latch = loop.latch
    if preheader is None or latch is None:
        return False
    load_ptr = load.get_operand(0)
    if load_ptr.is_instruction and loop.contains(load_ptr):  # type: ignore[arg-type]
        return False
    if gvn.icf.is_dominated_by_icfi_from_same_block(load):
        return False
    loop_block: BasicBlock | None = None
    dt = gvn.dt
    for blocker in unavailable_blocks:
        if not loop.contains(blocker):
            continue
        if loop_block is not None:
            return False
        if li.loop_for(blocker) is not loop:
            return False
        if dt.dominates_block(blocker, latch):
            return False
        bterm = blocker.terminator
        assert bterm is not None
        if bterm.may_write_to_memory():
            return False
        loop_block = blocker
    if loop_block is None:
        return False
    from llvmpy_mid.analysis.loads import _can_be_freed

    if _can_be_freed(load_ptr):
        return False
    available_loads: dict[BasicBlock, Value] = {loop_block: load_ptr}
    available_loads[preheader] = load_ptr
    eliminate_partially_redundant_load(gvn, load, values_per_block, available_loads, None)
    NUM_PRE_LOOP_LOAD.add()
    return True


# --- the entry points ---------------------------------------------------------------------------


def process_non_local_load(gvn: GVN, load: Instruction) -> bool:
    """LLVM ``processNonLocalLoad``."""
    fn = load.function
    assert fn is not None
    if fn.has_fn_attribute("sanitize_address") or fn.has_fn_attribute("sanitize_hwaddress"):
        return False
    deps: list[Any] = []
    gvn.md.get_non_local_pointer_dependency(load, deps)
    num_deps = len(deps)
    if num_deps > gvn.max_num_deps:
        return False
    if num_deps == 1:
        res = deps[0].get_result()
        if not res.is_def() and not res.is_clobber():
            return False
    changed = False
    ptr = load.get_operand(0)
    if ptr.is_instruction and ptr.opcode == "getelementptr":  # type: ignore[attr-defined]
        from llvmpy_mid.transform.scalar.gvn_pre import perform_scalar_pre

        for idx in ptr.operands[1:]:  # type: ignore[attr-defined]
            if idx.is_instruction:
                changed |= perform_scalar_pre(gvn, idx)
    values_per_block: list[AvailableValueInBlock] = []
    unavailable: list[BasicBlock] = []
    analyze_load_availability_deps(gvn, load, deps, values_per_block, unavailable)
    if not values_per_block:
        return changed
    if not unavailable:
        v = construct_ssa_for_load_set(gvn, load, values_per_block)
        gvn.icf.remove_users_of(load)
        load.replace_all_uses_with(v)
        if isinstance(v, PHINode):
            v.take_name(load)
        if v.is_instruction:
            if load.debug_loc is not None and load.parent is v.parent:  # type: ignore[attr-defined]
                v.debug_loc = load.debug_loc  # type: ignore[attr-defined]
        gvn.invalidate_pointer(v)
        gvn.mark_instruction_for_deletion(load)
        NUM_GVN_LOAD.add()
        report_load_elim(gvn.ore, load, v)
        return True
    if not gvn.is_pre_enabled() or not gvn.is_load_pre_enabled():
        return changed
    if not gvn.is_load_in_loop_pre_enabled() and gvn.li.loop_for(load.parent) is not None:  # type: ignore[arg-type]
        return changed
    if perform_loop_load_pre(gvn, load, values_per_block, unavailable) or perform_load_pre(
        gvn, load, values_per_block, unavailable
    ):
        return True
    return changed


def process_load(gvn: GVN, load: Instruction) -> bool:
    """Replace ``load`` by the value it reads, locally or through phis (LLVM ``processLoad``)."""
    md = gvn.md
    if md is None:
        return False
    if not load.is_unordered:  # type: ignore[attr-defined]
        return False
    if not load.has_uses:
        gvn.mark_instruction_for_deletion(load)
        return True
    dep = md.get_dependency(load)
    if dep.is_non_local():
        return process_non_local_load(gvn, load)
    if not dep.is_local():
        return False
    av = analyze_load_availability(gvn, load, dep, load.get_operand(0))
    if av is None:
        return False
    value = av.materialize_adjusted_value(load, load, gvn)
    gvn.icf.remove_users_of(load)
    load.replace_all_uses_with(value)
    gvn.mark_instruction_for_deletion(load)
    if gvn.mssau is not None:
        gvn.mssau.remove_memory_access(load)
    NUM_GVN_LOAD.add()
    report_load_elim(gvn.ore, load, value)
    gvn.invalidate_pointer(value)
    return True
