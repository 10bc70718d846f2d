"""Promotes stack slots to SSA registers (LLVM's Transforms/Utils/PromoteMemoryToRegister.cpp
and the iterated dominance frontier of include/llvm/Support/GenericIteratedDominanceFrontier.h).

What: :func:`is_alloca_promotable` says whether an ``alloca`` is only loaded and
stored whole (lifetime markers and droppable ``llvm.assume`` bundle uses
allowed); :func:`promote_mem_to_reg` rewrites a list of such allocas into SSA
values: loads become the value last stored (``undef`` before any store,
``poison`` in unreachable code), and phis named ``<alloca>.0``, ``.1``, ... are
placed where definitions meet. ``#dbg_declare`` records of a promoted slot turn
into ``#dbg_value`` records at its stores, loads and phis.

How, in LLVM 19's order (so the text matches ``opt-19 -passes=mem2reg``):
allocas are taken in list order, a finished one replaced by the list's last
(LLVM's swap-remove). For each alloca: uses that are neither loads nor stores
are dropped; an unused slot is erased; with one store, the loads the store
dominates take its value (``rewriteSingleStoreAlloca``); when all accesses sit in
one block, a sweep with stores sorted by position finishes it
(``promoteSingleBlockAlloca``). Otherwise the live-in blocks are computed by a
backward walk from the using blocks, and phis are queued at the iterated
dominance frontier of the defining blocks, computed with a priority queue keyed
on (dominator-tree level, DFS-in number) and pruned by liveness; the phi blocks
are sorted by function order before numbering. The renaming walk uses an
explicit worklist (the first successor continues in place, the others are
pushed with a copy of the current values), so a 10,000-block chain needs no
recursion. New phis are then simplified until none changes (InstSimplify's
phi rule), and phis in blocks with unreachable predecessors get ``poison``
for them. Load metadata survives as LLVM 19 keeps it: ``!noundef`` over an
undefined value becomes a ``store i1 true, ptr poison`` (unreachable), and
``!nonnull`` + ``!noundef`` become ``llvm.assume(icmp ne ...)`` unless the
value is known non-zero.

``#dbg_assign`` records linked to a promoted slot or its stores become
``#dbg_value`` records (assignment tracking), as LLVM 19 does.

What it does not do: the ``llvm.dbg.declare``/``llvm.dbg.assign`` call forms
(the reader turns those calls into records, as opt-19 does).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Sequence

from llvmpy_mid.analysis.assumption_cache import AssumptionCache
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_poison
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.flags import type_supports_fast_math_flags
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.demote_reg_to_stack import insert_before_taking_records
from llvmpy_mid.ir.droppable_uses import drop_droppable_use, is_droppable
from llvmpy_mid.transform.utils.debug_declare import (
    AssignmentIndex,
    AssignmentTrackingInfo,
    convert_declare_for_phi,
    convert_declare_for_store,
    dbg_variable_records_of,
    is_address_of_variable,
    starts_with_deref,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout

NUM_LOCAL_PROMOTED = Statistic("mem2reg", "NumLocalPromoted", "Number of alloca's promoted within one block")
NUM_SINGLE_STORE = Statistic("mem2reg", "NumSingleStore", "Number of alloca's promoted with a single store")
NUM_DEAD_ALLOCA = Statistic("mem2reg", "NumDeadAlloca", "Number of dead alloca's removed")
NUM_PHI_INSERT = Statistic("mem2reg", "NumPHIInsert", "Number of PHI nodes inserted")


# --- promotability ----------------------------------------------------------------------------


def _is_lifetime_marker(inst: Instruction) -> bool:
    name = inst.intrinsic_name if inst.opcode == "call" else ""  # type: ignore[attr-defined]
    return name.startswith("llvm.lifetime.start") or name.startswith("llvm.lifetime.end")


def _only_used_by_lifetime_or_droppable(v: Value, allow_droppable: bool) -> bool:
    for user in v.users:
        if not isinstance(user, Instruction) or user.opcode != "call" or not user.is_intrinsic_call:  # type: ignore[attr-defined]
            return False
        if _is_lifetime_marker(user):
            continue
        if allow_droppable and is_droppable(user):
            continue
        return False
    return True


def is_alloca_promotable(ai: AllocaInst) -> bool:
    """True when every use of ``ai`` is a plain load or store of its whole
    allocated type, a lifetime marker or a droppable use (LLVM ``isAllocaPromotable``)."""
    allocated = ai.allocated_type
    for user in ai.users:
        op = user.opcode  # type: ignore[attr-defined]
        if op == "load":
            if user.volatile or user.type is not allocated:  # type: ignore[attr-defined]
                return False
        elif op == "store":
            stored = user.get_operand(0)
            if stored is ai or stored.type is not allocated:
                return False
            if user.volatile:  # type: ignore[attr-defined]
                return False
        elif op == "call" and user.is_intrinsic_call:  # type: ignore[attr-defined]
            if not _is_lifetime_marker(user) and not is_droppable(user):  # type: ignore[arg-type]
                return False
        elif op == "bitcast":
            if not _only_used_by_lifetime_or_droppable(user, True):
                return False
        elif op == "getelementptr":
            if not user.has_all_zero_indices:  # type: ignore[attr-defined]
                return False
            if not _only_used_by_lifetime_or_droppable(user, True):
                return False
        elif op == "addrspacecast":
            if not _only_used_by_lifetime_or_droppable(user, False):
                return False
        else:
            return False
    return True


def _remove_intrinsic_users(ai: AllocaInst) -> None:
    """Erase the lifetime markers (and the casts feeding them) and drop droppable uses."""
    for use in ai.use_list():
        inst: Any = use.user
        op = inst.opcode
        if op == "load" or op == "store":
            continue
        if is_droppable(inst):
            drop_droppable_use(use)
            continue
        if not inst.type.is_void:
            for use2 in inst.use_list():
                inner: Any = use2.user
                if is_droppable(inner):
                    drop_droppable_use(use2)
                    continue
                inner.erase_from_parent()
        inst.erase_from_parent()


# --- per-alloca facts -------------------------------------------------------------------------


class _AllocaInfo:
    """LLVM's ``AllocaInfo``: where an alloca is defined and used."""

    __slots__ = ("defining_blocks", "using_blocks", "only_store", "only_block", "only_used_in_one_block", "dbg_users", "at")

    def __init__(self, ai: AllocaInst, at: AssignmentTrackingInfo) -> None:
        self.at = at
        self.defining_blocks: list[BasicBlock] = []
        self.using_blocks: list[BasicBlock] = []
        self.only_store: StoreInst | None = None
        self.only_block: BasicBlock | None = None
        self.only_used_in_one_block = True
        for user in ai.users:
            bb: BasicBlock = user.parent  # type: ignore[attr-defined]
            if user.opcode == "store":  # type: ignore[attr-defined]
                self.defining_blocks.append(bb)
                self.only_store = user  # type: ignore[assignment]
            else:
                self.using_blocks.append(bb)
            if self.only_used_in_one_block:
                if self.only_block is None:
                    self.only_block = bb
                elif self.only_block is not bb:
                    self.only_used_in_one_block = False
        self.dbg_users: list[DbgVariableRecord] = [r for r in dbg_variable_records_of(ai) if not r.is_dbg_assign]


class _LargeBlockInfo:
    """Positions of the loads and stores of allocas in a block, numbered on first query."""

    __slots__ = ("numbers",)

    def __init__(self) -> None:
        self.numbers: dict[Instruction, int] = {}

    def index(self, inst: Instruction) -> int:
        n = self.numbers.get(inst)
        if n is not None:
            return n
        numbers = self.numbers
        k = 0
        bb = inst.parent
        assert bb is not None
        for other in bb.instructions:
            op = other.opcode
            if op == "load":
                if isinstance(other._operands[0].value, AllocaInst):
                    numbers[other] = k
                    k += 1
            elif op == "store":
                if isinstance(other._operands[1].value, AllocaInst):
                    numbers[other] = k
                    k += 1
        return numbers[inst]

    def delete(self, inst: Instruction) -> None:
        self.numbers.pop(inst, None)


# --- load metadata ----------------------------------------------------------------------------


def _assume_declaration(fn: Function) -> Function:
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration

    module = fn.parent
    assert module is not None
    ctx = fn.context
    return intrinsic_declaration(module, "llvm.assume", ctx.function_type(ctx.void, [ctx.i1]))


def _add_assume_non_null(ac: AssumptionCache | None, li: LoadInst) -> None:
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.calls import CallInst
    from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate

    fn = li.function
    assert fn is not None
    decl = _assume_declaration(fn)
    cmp = ICmpInst(Predicate.ICMP_NE, li, Constant.get_null_value(li.type))
    cmp.insert_after(li)
    call = CallInst(decl.function_type, decl, [cmp])
    call.insert_after(cmp)
    if ac is not None:
        ac.register_assumption(call)


def _convert_metadata_to_assumes(li: LoadInst, val: Value, dl: DataLayout, ac: AssumptionCache | None, dt: DominatorTree) -> None:
    """Keep ``!noundef`` / ``!nonnull`` facts of a load that is about to go (LLVM ``convertMetadataToAssumes``)."""
    if li._md is None:
        return
    if isinstance(val, UndefValue) and li.get_metadata("noundef") is not None:
        ctx = li.context
        store = StoreInst(ConstantInt.get_true(ctx.i1), PoisonValue.get(ctx.ptr), alignment=1)
        insert_before_taking_records(store, li)
        return
    if ac is not None and li.get_metadata("nonnull") is not None and li.get_metadata("noundef") is not None:
        if not _known_non_zero(val, dl, dt, ac, li):
            _add_assume_non_null(ac, li)


def _known_non_zero(val: Value, dl: DataLayout, dt: DominatorTree, ac: AssumptionCache | None, cxt: Instruction) -> bool:
    return is_known_non_zero(val, SimplifyQuery(dl=dl, dt=dt, ac=ac, cxt_i=cxt))


def _simplify_phi(phi: PHINode, dl: DataLayout, dt: DominatorTree, ac: AssumptionCache | None) -> Value | None:
    """InstSimplify on a new phi (LLVM ``simplifyInstruction``)."""
    return simplify_instruction(phi, SimplifyQuery(dl=dl, dt=dt, ac=ac))


# --- the promoter -----------------------------------------------------------------------------


class _PromoteMem2Reg:
    __slots__ = (
        "allocas",
        "dt",
        "ac",
        "dl",
        "fn",
        "alloca_lookup",
        "new_phi_nodes",
        "phi_to_alloca",
        "alloca_dbg_users",
        "alloca_at",
        "at_index",
        "assigns_to_delete",
        "bb_numbers",
        "bb_num_preds",
        "no_signed_zeros",
    )

    def __init__(self, allocas: Sequence[AllocaInst], dt: DominatorTree, ac: AssumptionCache | None) -> None:
        self.allocas: list[AllocaInst] = list(allocas)
        self.dt = dt
        self.ac = ac
        fn = dt.function
        self.fn = fn
        module = fn.parent
        assert module is not None
        self.dl: DataLayout = module.data_layout
        self.alloca_lookup: dict[AllocaInst, int] = {}
        self.new_phi_nodes: dict[tuple[int, int], PHINode] = {}
        self.phi_to_alloca: dict[PHINode, int] = {}
        self.alloca_dbg_users: list[list[DbgVariableRecord]] = []
        self.alloca_at: list[AssignmentTrackingInfo] = []
        self.at_index: AssignmentIndex | None = None
        self.assigns_to_delete: dict[DbgVariableRecord, None] = {}
        self.bb_numbers: dict[BasicBlock, int] = {}
        self.bb_num_preds: dict[BasicBlock, int] = {}
        self.no_signed_zeros = False

    def num_preds(self, bb: BasicBlock) -> int:
        n = self.bb_num_preds.get(bb)
        if n is None:
            n = self.bb_num_preds[bb] = len(bb.predecessors)
        return n

    def run(self) -> None:
        fn = self.fn
        dt = self.dt
        allocas = self.allocas
        self.alloca_dbg_users = [[] for _ in allocas]
        no_at = AssignmentTrackingInfo()
        self.alloca_at = [no_at] * len(allocas)
        lbi = _LargeBlockInfo()
        self.no_signed_zeros = fn.attributes.fn_attrs.string_value("no-signed-zeros-fp-math") == "true"

        num = 0
        while num < len(allocas):
            ai = allocas[num]
            _remove_intrinsic_users(ai)
            if not ai.has_uses:
                ai.erase_from_parent()
                num = self._remove_from_list(num)
                NUM_DEAD_ALLOCA.add()
                continue
            info = _AllocaInfo(ai, self._assignment_tracking(ai))
            if len(info.defining_blocks) == 1 and self._rewrite_single_store(ai, info, lbi):
                num = self._remove_from_list(num)
                NUM_SINGLE_STORE.add()
                continue
            if info.only_used_in_one_block and self._promote_single_block(ai, info, lbi):
                num = self._remove_from_list(num)
                NUM_LOCAL_PROMOTED.add()
                continue
            if not self.bb_numbers:
                numbers = self.bb_numbers
                for i, bb in enumerate(fn.blocks):
                    numbers[bb] = i
            if info.dbg_users:
                self.alloca_dbg_users[num] = info.dbg_users
            if not info.at.empty:
                self.alloca_at[num] = info.at
            self.alloca_lookup[ai] = num
            def_blocks = set(info.defining_blocks)
            live_in = self._compute_live_in_blocks(ai, info, def_blocks)
            phi_blocks = _iterated_dominance_frontier(dt, info.defining_blocks, def_blocks, live_in)
            bb_numbers = self.bb_numbers
            phi_blocks.sort(key=bb_numbers.__getitem__)
            version = 0
            for bb in phi_blocks:
                if self._queue_phi_node(bb, num, version):
                    version += 1
            num += 1

        if not allocas:
            self._clean_up_dbg_assigns()
            return
        self._rename()
        for ai in allocas:
            self._delete_assignment_markers(ai)
            if ai.has_uses:
                ai.replace_all_uses_with(PoisonValue.get(ai.type))
            ai.erase_from_parent()
        for users in self.alloca_dbg_users:
            for rec in users:
                if is_address_of_variable(rec) or starts_with_deref(rec.expression):
                    rec.erase_from_parent()
        self._simplify_new_phis()
        self._fill_unreachable_predecessors()
        self._clean_up_dbg_assigns()

    # --- assignment tracking ------------------------------------------------------------------
    def _assignment_tracking(self, ai: AllocaInst) -> AssignmentTrackingInfo:
        if ai._md is None or ai.get_metadata("DIAssignID") is None:
            return AssignmentTrackingInfo()
        if self.at_index is None:
            self.at_index = AssignmentIndex(self.fn)
        return AssignmentTrackingInfo(self.at_index, ai)

    def _delete_assignment_markers(self, ai: AllocaInst) -> None:
        if self.at_index is not None and ai._md is not None:
            self.at_index.delete_markers(ai)

    def _clean_up_dbg_assigns(self) -> None:
        for rec in self.assigns_to_delete:
            if rec.instruction is not None:
                rec.erase_from_parent()
        self.assigns_to_delete.clear()

    def _remove_from_list(self, num: int) -> int:
        allocas = self.allocas
        allocas[num] = allocas[-1]
        allocas.pop()
        dbg = self.alloca_dbg_users
        dbg[num] = dbg[-1]
        dbg.pop()
        at = self.alloca_at
        at[num] = at[-1]
        at.pop()
        return num

    # --- fast paths ---------------------------------------------------------------------------
    def _rewrite_single_store(self, ai: AllocaInst, info: _AllocaInfo, lbi: _LargeBlockInfo) -> bool:
        only_store = info.only_store
        assert only_store is not None
        repl: Value = only_store.get_operand(0)
        require_dominating = isinstance(repl, Instruction) or not is_guaranteed_not_to_be_poison(repl)
        store_bb = only_store.parent
        assert store_bb is not None
        store_index = -1
        info.using_blocks.clear()
        dt = self.dt
        for user in list(ai.users):
            if user is only_store:
                continue
            li: LoadInst = user  # type: ignore[assignment]
            li_bb = li.parent
            assert li_bb is not None
            if require_dominating:
                if li_bb is store_bb:
                    if store_index == -1:
                        store_index = lbi.index(only_store)
                    if store_index > lbi.index(li):
                        info.using_blocks.append(store_bb)
                        continue
                elif not dt.dominates_block(store_bb, li_bb):
                    info.using_blocks.append(li_bb)
                    continue
            if repl is li:
                repl = PoisonValue.get(li.type)
            _convert_metadata_to_assumes(li, repl, self.dl, self.ac, dt)
            li.replace_all_uses_with(repl)
            li.erase_from_parent()
            lbi.delete(li)
        if info.using_blocks:
            return False
        dl = self.dl
        info.at.update_for_deleted_store(only_store, self.assigns_to_delete, dl)
        for rec in info.dbg_users:
            if is_address_of_variable(rec):
                convert_declare_for_store(rec, only_store, dl)
                rec.erase_from_parent()
            elif starts_with_deref(rec.expression):
                rec.erase_from_parent()
        self._delete_assignment_markers(ai)
        only_store.erase_from_parent()
        lbi.delete(only_store)
        ai.erase_from_parent()
        return True

    def _promote_single_block(self, ai: AllocaInst, info: _AllocaInfo, lbi: _LargeBlockInfo) -> bool:
        stores: list[tuple[int, StoreInst]] = []
        for user in ai.users:
            if user.opcode == "store":  # type: ignore[attr-defined]
                stores.append((lbi.index(user), user))  # type: ignore[arg-type]
        stores.sort(key=lambda p: p[0])
        keys = [p[0] for p in stores]
        for user in list(ai.users):
            if user.opcode != "load":  # type: ignore[attr-defined]
                continue
            li: LoadInst = user  # type: ignore[assignment]
            at = bisect_left(keys, lbi.index(li))
            repl: Value
            if at == 0:
                if not stores:
                    repl = UndefValue.get(li.type)
                else:
                    return False
            else:
                repl = stores[at - 1][1].get_operand(0)
            _convert_metadata_to_assumes(li, repl, self.dl, self.ac, self.dt)
            if repl is li:
                repl = PoisonValue.get(li.type)
            li.replace_all_uses_with(repl)
            li.erase_from_parent()
            lbi.delete(li)
        dl = self.dl
        while ai.has_uses:
            si: StoreInst = next(iter(ai.users))  # type: ignore[assignment]
            info.at.update_for_deleted_store(si, self.assigns_to_delete, dl)
            for rec in info.dbg_users:
                if is_address_of_variable(rec):
                    convert_declare_for_store(rec, si, dl)
            si.erase_from_parent()
            lbi.delete(si)
        self._delete_assignment_markers(ai)
        ai.erase_from_parent()
        for rec in info.dbg_users:
            if is_address_of_variable(rec) or starts_with_deref(rec.expression):
                rec.erase_from_parent()
        return True

    # --- phi placement ------------------------------------------------------------------------
    def _compute_live_in_blocks(self, ai: AllocaInst, info: _AllocaInfo, def_blocks: set[BasicBlock]) -> set[BasicBlock]:
        work = list(info.using_blocks)
        i = 0
        e = len(work)
        while i != e:
            bb = work[i]
            if bb not in def_blocks:
                i += 1
                continue
            removed = False
            for inst in bb.instructions:
                op = inst.opcode
                if op == "store":
                    if inst._operands[1].value is not ai:
                        continue
                    work[i] = work[-1]
                    work.pop()
                    e -= 1
                    removed = True
                    break
                if op == "load" and inst._operands[0].value is ai:
                    break
            if not removed:
                i += 1
        live_in: set[BasicBlock] = set()
        while work:
            bb = work.pop()
            if bb in live_in:
                continue
            live_in.add(bb)
            for pred in bb.predecessors:
                if pred in def_blocks:
                    continue
                work.append(pred)
        return live_in

    def _queue_phi_node(self, bb: BasicBlock, alloca_no: int, version: int) -> bool:
        key = (self.bb_numbers[bb], alloca_no)
        if key in self.new_phi_nodes:
            return False
        ai = self.allocas[alloca_no]
        phi = PHINode(ai.allocated_type, name="%s.%d" % (ai.name, version))
        first = bb.first_instruction
        if first is None:
            bb.append(phi)
        else:
            phi.insert_before(first)
        self.new_phi_nodes[key] = phi
        self.phi_to_alloca[phi] = alloca_no
        NUM_PHI_INSERT.add()
        return True

    # --- renaming -----------------------------------------------------------------------------
    def _rename(self) -> None:
        allocas = self.allocas
        values: list[Value] = [UndefValue.get(ai.allocated_type) for ai in allocas]
        locs: list[MDNode | None] = [None] * len(allocas)
        entry = self.fn.entry_block
        worklist: list[tuple[BasicBlock, BasicBlock | None, list[Value], list[MDNode | None]]] = [
            (entry, None, values, locs)
        ]
        visited: set[BasicBlock] = set()
        phi_to_alloca = self.phi_to_alloca
        alloca_lookup = self.alloca_lookup
        dbg_users = self.alloca_dbg_users
        alloca_at = self.alloca_at
        to_delete = self.assigns_to_delete
        dl = self.dl
        dt = self.dt
        ac = self.ac
        no_signed_zeros = self.no_signed_zeros
        while worklist:
            bb, pred, inc_vals, inc_locs = worklist.pop()
            while True:
                first = bb.instructions._first
                if pred is not None and first is not None and first.is_phi and first in phi_to_alloca:
                    apn: PHINode = first
                    new_num_ops = len(apn._operands)
                    term = pred.terminator
                    num_edges = 0
                    if term is not None:
                        for s in term.successors:
                            if s is bb:
                                num_edges += 1
                    while True:
                        alloca_no = phi_to_alloca[apn]
                        loc = inc_locs[alloca_no]
                        if apn._blocks:
                            apn.debug_loc = get_merged_location(apn.debug_loc, loc)
                        else:
                            apn.debug_loc = loc
                        val = inc_vals[alloca_no]
                        for _ in range(num_edges):
                            apn.add_incoming(val, pred)
                        if no_signed_zeros and type_supports_fast_math_flags(apn.type):
                            apn.fast_math_flags = int(apn.fast_math_flags) | _NSZ
                        inc_vals[alloca_no] = apn
                        alloca_at[alloca_no].update_for_new_phi(apn, dl)
                        for rec in dbg_users[alloca_no]:
                            if is_address_of_variable(rec):
                                convert_declare_for_phi(rec, apn, dl)
                        nxt = apn._next
                        if nxt is None or not nxt.is_phi:
                            break
                        apn = nxt  # type: ignore[assignment]
                        if len(apn._operands) != new_num_ops:
                            break
                if bb in visited:
                    break
                visited.add(bb)
                inst = bb.instructions._first
                while inst is not None and not inst.is_terminator_class:
                    nxt_inst = inst._next
                    op = inst.opcode
                    if op == "load":
                        src = inst._operands[0].value
                        if isinstance(src, AllocaInst):
                            no = alloca_lookup.get(src)
                            if no is not None:
                                v = inc_vals[no]
                                _convert_metadata_to_assumes(inst, v, dl, ac, dt)
                                inst.replace_all_uses_with(v)
                                nxt_inst = inst._next
                                inst.erase_from_parent()
                    elif op == "store":
                        dest = inst._operands[1].value
                        if isinstance(dest, AllocaInst):
                            no = alloca_lookup.get(dest)
                            if no is not None:
                                inc_vals[no] = inst._operands[0].value
                                inc_locs[no] = inst.debug_loc
                                alloca_at[no].update_for_deleted_store(inst, to_delete, dl)
                                for rec in dbg_users[no]:
                                    if is_address_of_variable(rec):
                                        convert_declare_for_store(rec, inst, dl)
                                inst.erase_from_parent()
                    inst = nxt_inst
                term = bb.terminator
                succs = term.successors if term is not None else []
                if not succs:
                    break
                first_succ = succs[0]
                if len(succs) > 1:
                    seen = {first_succ}
                    for s in succs[1:]:
                        if s not in seen:
                            seen.add(s)
                            worklist.append((s, bb, list(inc_vals), list(inc_locs)))
                pred = bb
                bb = first_succ

    # --- cleanup ------------------------------------------------------------------------------
    def _simplify_new_phis(self) -> None:
        new_phis = self.new_phi_nodes
        dl = self.dl
        dt = self.dt
        ac = self.ac
        changed = True
        while changed:
            changed = False
            for key in list(new_phis):
                phi = new_phis.get(key)
                if phi is None:
                    continue
                v = _simplify_phi(phi, dl, dt, ac)
                if v is not None:
                    phi.replace_all_uses_with(v)
                    phi.erase_from_parent()
                    del new_phis[key]
                    changed = True

    def _fill_unreachable_predecessors(self) -> None:
        numbers = self.bb_numbers
        for some in self.new_phi_nodes.values():
            bb = some.parent
            assert bb is not None
            if bb.instructions._first is not some:
                continue
            if len(some._blocks) == self.num_preds(bb):
                continue
            preds = sorted(bb.predecessors, key=numbers.__getitem__)
            for b in some._blocks:
                for k in range(len(preds)):
                    if preds[k] is b:
                        del preds[k]
                        break
            bad = len(some._blocks)
            phi: Any = bb.instructions._first
            while phi is not None and phi.is_phi and len(phi._blocks) == bad:
                poison = PoisonValue.get(phi.type)
                for p in preds:
                    phi.add_incoming(poison, p)
                phi = phi._next


_NSZ = 8  # FastMathFlags bit for nsz


def _iterated_dominance_frontier(
    dt: DominatorTree, def_list: list[BasicBlock], def_blocks: set[BasicBlock], live_in: set[BasicBlock]
) -> list[BasicBlock]:
    """The blocks needing a phi: the iterated dominance frontier of ``def_blocks``
    pruned to ``live_in`` (LLVM ``IDFCalculatorBase::calculate``), in LLVM's discovery order."""
    dt.update_dfs_numbers()
    heap: list[tuple[int, int, int, BasicBlock]] = []
    visited_worklist: set[BasicBlock] = set()
    visited_pq: set[BasicBlock] = set()
    seen_defs: set[BasicBlock] = set()
    tie = 0
    for bb in def_list:
        if bb in seen_defs or not dt.is_reachable(bb):
            continue
        seen_defs.add(bb)
        heapq.heappush(heap, (-dt.level(bb), -dt.dfs_numbers(bb)[0], tie, bb))
        tie += 1
        visited_worklist.add(bb)
    out: list[BasicBlock] = []
    while heap:
        neg_level, _, _, root = heapq.heappop(heap)
        root_level = -neg_level
        work = [root]
        while work:
            node = work.pop()
            for succ in node.successors:
                succ_level = dt.level(succ)
                if succ_level > root_level:
                    continue
                if succ in visited_pq:
                    continue
                visited_pq.add(succ)
                if succ not in live_in:
                    continue
                out.append(succ)
                if succ not in def_blocks:
                    heapq.heappush(heap, (-succ_level, -dt.dfs_numbers(succ)[0], tie, succ))
                    tie += 1
            for child in dt.children(node):
                if child not in visited_worklist:
                    visited_worklist.add(child)
                    work.append(child)
    return out


def promote_mem_to_reg(allocas: Sequence[AllocaInst], dt: DominatorTree, ac: AssumptionCache | None = None) -> None:
    """Promote ``allocas`` (each :func:`is_alloca_promotable`, all in ``dt``'s
    function) to SSA values (LLVM ``PromoteMemToReg``). ``ac``: the function's
    assumption cache, told about the ``llvm.assume`` calls this adds."""
    if not allocas:
        return
    _PromoteMem2Reg(allocas, dt, ac).run()


__all__ = ["drop_droppable_use", "is_alloca_promotable", "is_droppable", "promote_mem_to_reg"]
