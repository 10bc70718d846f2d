"""``memcpyopt``: memcpy/memset optimisation on MemorySSA (LLVM 19.1.7 ``MemCpyOptPass``,
lib/Transforms/Scalar/MemCpyOptimizer.cpp).

What, per instruction of each reachable block, repeated over the function until nothing
changes:

- a simple store of a simple one-use load in the same block: an aggregate copy becomes a
  ``memcpy`` (``memmove`` when the store may write the loaded bytes), placed at the store
  or, when something between modifies the source, at that point after lifting the store
  and what it needs above it (``moveUp``); otherwise the pair may feed a call slot or a
  stack move (below);
- a store of a byte-splattable value, or a constant-length memset: the stores and
  memsets that follow become memsets (:mod:`memcpy_opt_memset`); an aggregate store of
  such a value becomes a memset anyway;
- a memcpy: deleted when it copies to itself, copies zero (or undef) bytes, or copies
  from memory just allocated or started (undef contents); from a constant global of one
  repeated byte it becomes a memset; after a memset of its destination the memset is
  trimmed to the bytes the memcpy does not write (``processMemSetMemCpyDependence``);
  from memory a memcpy just filled it copies from that memcpy's source instead
  (``processMemCpyMemCpyDependence``, with a constant forward offset); from memory a
  memset just filled it becomes a memset (``performMemCpyToMemSetOptzn``); from an alloca
  a call just wrote, the call writes the destination directly
  (``performCallSlotOptzn``); between two allocas whose lives do not conflict, the allocas
  merge (``performStackMoveOptzn``);
- a memmove whose source it cannot modify becomes a memcpy;
- a call's ``byval`` argument, or a ``noalias nocapture`` read-only argument that is an
  alloca, copied by a memcpy from memory not changed since, takes the memcpy's source.

Clobbers are found with MemorySSA's walker and alias queries through batch AA; MemorySSA
is updated for every new and deleted access, so it is preserved with the CFG. Analyses
are requested in LLVM's order (TLI, AA, AC, domtree, postdomtree, MemorySSA). Memory
intrinsics are only created from stores when the target library has ``memset`` (and
``memcpy``/``memmove``), unless ``-enable-memcpyopt-without-libcalls``. ``-stats``
counts LLVM's six statistics.

What it does not do: nothing of MemCpyOptimizer.cpp is left out; MMRA metadata is not
combined when a call takes over a copy's AA metadata.
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.transform.utils.local import get_or_enforce_known_alignment
from llvmpy_mid.transform.utils.local_metadata import combine_aa_metadata
from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults, is_mod_or_ref_set, is_mod_set
from llvmpy_mid.analysis.alias.alias_result import AliasKind
from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
from llvmpy_mid.analysis.alias.object_visibility import is_not_visible_on_unwind
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.bytewise_value import is_bytewise_value
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt, UndefValue
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import VAArgInst
from llvmpy_mid.ir.pointer_casts import get_pointer_offset_from, strip_pointer_casts
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.memcpy_opt_memset import NUM_MEMSET_INFER, is_memset, try_merging_into_memset

__all__ = ["MemCpyOptPass", "MemCpyOptimizer"]

NUM_MEMCPY_INSTR = Statistic("memcpyopt", "NumMemCpyInstr", "Number of memcpy instructions deleted")
NUM_MOVE_TO_CPY = Statistic("memcpyopt", "NumMoveToCpy", "Number of memmoves converted to memcpy")
NUM_CPY_TO_SET = Statistic("memcpyopt", "NumCpyToSet", "Number of memcpys converted to memset")

_MEMCPY_BASES = ("llvm.memcpy", "llvm.memcpy.inline")


# --- memory intrinsic accessors (LLVM's MemIntrinsic classes) ------------------------------------


def is_memcpy(inst: Value) -> bool:
    """``isa<MemCpyInst>``: ``llvm.memcpy`` or ``llvm.memcpy.inline``."""
    return isinstance(inst, CallBase) and inst.intrinsic_base in _MEMCPY_BASES


def is_memmove(inst: Value) -> bool:
    return isinstance(inst, CallBase) and inst.intrinsic_base == "llvm.memmove"


def raw_dest(mi: CallBase) -> Value:
    return mi.operands[0]


def dest(mi: CallBase) -> Value:
    """``getDest``: the destination with pointer casts stripped."""
    return strip_pointer_casts(mi.operands[0])


def raw_source(mi: CallBase) -> Value:
    return mi.operands[1]


def source(mi: CallBase) -> Value:
    return strip_pointer_casts(mi.operands[1])


def length(mi: CallBase) -> Value:
    return mi.operands[2]


def dest_align(mi: CallBase) -> int | None:
    return mi.attributes.param_alignment(0)


def source_align(mi: CallBase) -> int | None:
    return mi.attributes.param_alignment(1)


def common_alignment(align: int, offset: int) -> int:
    """LLVM ``commonAlignment``: the largest power of two dividing both."""
    if offset == 0:
        return align
    low = offset & -offset
    return min(align, low)


def allocation_size(ai: AllocaInst) -> tuple[int, bool] | None:
    """``AllocaInst::getAllocationSize``: (bytes, scalable), None for a variable count."""
    module = ai.module
    assert module is not None
    dl = module.data_layout
    n = ai.operands[0]
    if not isinstance(n, ConstantInt):
        return None
    ty = ai.allocated_type
    size = dl.type_alloc_size(ty) * n.zext_value
    if size >= 1 << 64:
        return None
    return size, dl.is_scalable(ty)


def _is_lifetime_marker(inst: Value, which: str | None = None) -> bool:
    if not isinstance(inst, CallBase):
        return False
    base = inst.intrinsic_base
    if which is not None:
        return base == which
    return base in ("llvm.lifetime.start", "llvm.lifetime.end")


def is_zero_size(size: Value) -> bool:
    """LLVM ``isZeroSize``: zero, undef or poison, after simplifying an instruction."""
    if isinstance(size, Instruction):
        module = size.module
        if module is not None:
            res = simplify_instruction(size, SimplifyQuery(module.data_layout))
            if res is not None:
                size = res
    if isinstance(size, Constant):
        return isinstance(size, UndefValue) or size.is_null_value
    return False


def may_be_visible_through_unwinding(v: Value, start: Instruction, end: Instruction) -> bool:
    """May ``v``'s object be seen by a caller if something in ``[start, end)`` unwinds?"""
    fn = start.function
    assert fn is not None
    if fn.does_not_throw:
        return False
    not_visible, requires_no_capture = is_not_visible_on_unwind(get_underlying_object(v))
    if not_visible and not requires_no_capture:
        return False
    inst: Instruction | None = start
    while inst is not None and inst is not end:
        if inst.may_throw():
            return True
        inst = inst.next_instruction
    return False


def _must_alias_values(baa: BatchAAResults, a: Value, b: Value) -> bool:
    """``isMustAlias(V1, V2)``: the one-byte locations at the two pointers must alias."""
    one = LocationSize.precise(1)
    return baa.alias(MemoryLocation(a, one), MemoryLocation(b, one)).kind is AliasKind.MUST_ALIAS


def _mem_intrinsic(b: IRBuilder, base: str, overloads: list[Type], args: list[Value], aligns: tuple[tuple[int, int | None], ...]) -> CallInst:
    """``IRBuilder::CreateMem*``: the call, with ``align`` on the pointers whose
    alignment is known."""
    ci = b.create_intrinsic(base, overloads, args, return_type=b.context.void)
    attrs = ci.attributes
    for n, a in aligns:
        if a is not None:
            attrs = attrs.with_param_attr(n, Attribute.alignment(a))
    ci.attributes = attrs
    return ci


def create_mem_set(b: IRBuilder, ptr: Value, val: Value, size: Value, align: int | None, volatile: bool = False) -> CallInst:
    i1 = b.context.i1
    return _mem_intrinsic(b, "memset", [ptr.type, size.type], [ptr, val, size, ConstantInt.get(i1, int(volatile))], ((0, align),))


def create_mem_transfer(
    b: IRBuilder, base: str, dst: Value, dst_al: int | None, src: Value, src_al: int | None, size: Value, volatile: bool = False
) -> CallInst:
    """``CreateMemCpy`` / ``CreateMemMove`` / ``CreateMemCpyInline`` (``base`` is
    ``memcpy``, ``memmove`` or ``memcpy.inline``)."""
    i1 = b.context.i1
    return _mem_intrinsic(
        b, base, [dst.type, src.type, size.type], [dst, src, size, ConstantInt.get(i1, int(volatile))], ((0, dst_al), (1, src_al))
    )


def _create_type_size(b: IRBuilder, size: int, scalable: bool) -> Value:
    """``IRBuilder::CreateTypeSize(i64, size)``: the constant, or ``vscale`` times it."""
    i64 = b.context.i64
    n = ConstantInt.get(i64, size)
    if not scalable or size == 0:
        return n
    vscale = b.create_intrinsic("vscale", [i64], [], return_type=i64)
    return vscale if size == 1 else b.create_mul(vscale, n)


def _copy_di_assign_id(to: Instruction, frm: Instruction) -> None:
    """``copyMetadata(From, {MD_DIAssignID})``."""
    md = frm.get_metadata("DIAssignID")
    if md is not None:
        to.set_metadata("DIAssignID", md)


# --- the optimiser ------------------------------------------------------------------------------


class MemCpyOptimizer:
    """One run of memcpyopt over a function (LLVM ``MemCpyOptPass::runImpl``)."""

    def __init__(
        self,
        tli: TargetLibraryInfo,
        aa: AAResults,
        ac: AssumptionCache | None,
        dt: DominatorTree,
        pdt: DominatorTree,
        mssa: Any,
    ) -> None:
        from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater

        self.tli = tli
        self.aa = aa
        self.ac = ac
        self.dt = dt
        self.pdt = pdt
        self.mssa = mssa
        self.mssau = MemorySSAUpdater(mssa)
        self.without_libcalls = bool(OPTIONS.value("enable-memcpyopt-without-libcalls"))
        self._bbi: Instruction | None = None
        """LLVM's ``BBI``: the next instruction the walk visits (None: the block's end)."""

    # --- MemorySSA glue -------------------------------------------------------------------------
    def access(self, inst: Instruction) -> Any:
        return self.mssa.get_memory_access(inst)

    def clobber(self, start: Any, loc: MemoryLocation, baa: BatchAAResults) -> Any:
        """``getClobberingMemoryAccess(MA, Loc, BAA)``."""
        return self.mssa.get_walker().get_clobbering_memory_access_loc(start, loc, baa)

    def clobber_of(self, inst: Instruction, baa: BatchAAResults) -> Any:
        """``getClobberingMemoryAccess(I, BAA)``."""
        return self.mssa.get_walker().get_clobbering_memory_access(inst, baa)

    def def_inst(self, ma: Any) -> Instruction | None:
        """The instruction of a MemoryDef (None for a phi, a use or live-on-entry)."""
        from llvmpy_mid.analysis.memory_ssa import MemoryDef

        if isinstance(ma, MemoryDef):
            inst: Instruction | None = ma.memory_inst
            return inst
        return None

    def erase_instruction(self, inst: Instruction) -> None:
        self.mssau.remove_memory_access(inst)
        inst.erase_from_parent()

    def builder_before(self, inst: Instruction) -> IRBuilder:
        """``IRBuilder<> Builder(I)``: before ``inst``, with its debug location."""
        b = IRBuilder(before=inst, folder=ConstantFolder())
        b.debug_loc = inst.debug_loc
        return b

    create_mem_set = staticmethod(create_mem_set)

    def insert_def_after(self, new: Instruction, after: Any, rename_uses: bool = True) -> Any:
        """``insertDef(createMemoryAccessAfter(new, nullptr, after), rename_uses)``."""
        from llvmpy_mid.analysis.memory_ssa import MemoryDef

        nd = self.mssau.create_memory_access_after(new, None, after)
        assert isinstance(nd, MemoryDef)
        self.mssau.insert_def(nd, rename_uses)
        return nd

    def insert_def_before(self, new: Instruction, before: Any, rename_uses: bool = True) -> Any:
        """``insertDef(createMemoryAccessBefore(new, nullptr, before), rename_uses)``."""
        from llvmpy_mid.analysis.memory_ssa import MemoryDef

        nd = self.mssau.create_memory_access_before(new, None, before)
        assert isinstance(nd, MemoryDef)
        self.mssau.insert_def(nd, rename_uses)
        return nd

    def accessed_between(
        self, baa: BatchAAResults, loc: MemoryLocation, start: Any, end: Any, skip_lifetime_start: list[Instruction] | None = None
    ) -> bool:
        """LLVM ``accessedBetween``: may an access strictly between ``start`` and ``end``
        (one block) mod/ref ``loc``? With ``skip_lifetime_start``, one clobbering
        ``lifetime.start`` is skipped and reported there."""
        for ma in self.mssa.accesses_between(start, end):
            inst = ma.memory_inst
            if is_mod_or_ref_set(baa.get_mod_ref_info(inst, loc)):
                if skip_lifetime_start is not None and not skip_lifetime_start and _is_lifetime_marker(inst, "llvm.lifetime.start"):
                    skip_lifetime_start.append(inst)
                    continue
                return True
        return False

    def written_between(self, baa: BatchAAResults, loc: MemoryLocation, start: Any, end: Any) -> bool:
        """LLVM ``writtenBetween``: may ``loc`` be modified between the accesses (blocks may
        differ)?"""
        from llvmpy_mid.analysis.memory_ssa import MemoryUse

        if isinstance(end, MemoryUse):
            if start.block is not end.block:
                return True
            for ma in self.mssa.accesses_between(start, end):
                if isinstance(ma, MemoryUse):
                    continue
                if is_mod_set(baa.get_mod_ref_info(ma.memory_inst, loc)):
                    return True
            return False
        clobber = self.clobber(end.defining_access, loc, baa)
        return not self.mssa.dominates(clobber, start)

    # --- the walk -------------------------------------------------------------------------------
    def run(self, fn: Function) -> bool:
        changed = False
        while self.iterate_on_function(fn):
            changed = True
        if OPTIONS.get("verify-memoryssa") is not None and OPTIONS.value("verify-memoryssa"):
            self.mssa.verify_memory_ssa()
        return changed

    def iterate_on_function(self, fn: Function) -> bool:
        changed = False
        for bb in fn.blocks:
            if not self.dt.is_reachable(bb):
                continue
            self._bbi = bb.instructions.first
            while self._bbi is not None:
                inst = self._bbi
                self._bbi = inst.next_instruction
                repeat = False
                if type(inst) is StoreInst:
                    changed |= self.process_store(inst)
                elif isinstance(inst, CallBase):
                    base = inst.intrinsic_base
                    if base in ("llvm.memset", "llvm.memset.inline"):
                        repeat = self.process_mem_set(inst)
                    elif base in _MEMCPY_BASES:
                        repeat = self.process_mem_cpy(inst)
                    elif base == "llvm.memmove":
                        repeat = self.process_mem_move(inst)
                    else:
                        for i in range(inst.arg_size):
                            if inst.param_has_attr(i, "byval"):
                                changed |= self.process_by_val_argument(inst, i)
                            elif inst.param_has_attr(i, "readonly") or inst.param_has_attr(i, "readnone"):
                                changed |= self.process_immut_argument(inst, i)
                if repeat:
                    if self._bbi is not bb.instructions.first:
                        self._bbi = self._bbi.prev_instruction if self._bbi is not None else bb.instructions.last
                    changed = True
        return changed

    # --- stores ---------------------------------------------------------------------------------
    def process_store(self, si: StoreInst) -> bool:
        if not si.is_simple:
            return False
        if si.get_metadata("nontemporal") is not None:
            return False
        module = si.module
        assert module is not None
        dl = module.data_layout
        stored = si.value_operand
        if dl.is_non_integral_pointer_type(stored.type.scalar_type):
            return False
        if isinstance(stored, LoadInst):
            return self.process_store_of_load(si, stored)
        if not (self.tli.has("memset") or self.without_libcalls):
            return False
        byte_val = is_bytewise_value(stored, dl)
        if byte_val is None:
            return False
        made = try_merging_into_memset(self, si, si.pointer_operand, byte_val)
        if made is not None:
            self._bbi = made
            return True
        ty = stored.type
        if ty.is_aggregate:
            size = dl.type_store_size(ty)
            b = self.builder_before(si)
            m = create_mem_set(b, si.pointer_operand, byte_val, ConstantInt.get(module.context.i64, size), si.alignment)
            _copy_di_assign_id(m, si)
            self.insert_def_before(m, self.access(si), False)
            self.erase_instruction(si)
            NUM_MEMSET_INFER.add()
            self._bbi = m
            return True
        return False

    def process_store_of_load(self, si: StoreInst, li: LoadInst) -> bool:
        if not li.is_simple or not li.has_one_use or li.parent is not si.parent:
            return False
        module = si.module
        assert module is not None
        dl = module.data_layout
        t = li.type
        if t.is_aggregate and (self.without_libcalls or (self.tli.has("memcpy") and self.tli.has("memmove"))):
            load_loc = MemoryLocation.get(li)
            p: Instruction | None = si
            i = li.next_instruction
            while i is not None and i is not si:
                if is_mod_set(self.aa.get_mod_ref_info(i, load_loc)):
                    p = i
                    break
                i = i.next_instruction
            if p is not None and p is not si:
                if not self.move_up(si, p, li):
                    p = None
            if p is not None:
                use_memmove = is_mod_set(self.aa.get_mod_ref_info(si, load_loc))
                b = self.builder_before(p)
                size = _create_type_size(b, dl.type_store_size(t), dl.is_scalable(t))
                m = create_mem_transfer(
                    b, "memmove" if use_memmove else "memcpy", si.pointer_operand, si.alignment, li.pointer_operand, li.alignment, size
                )
                _copy_di_assign_id(m, si)
                self.insert_def_after(m, self.access(si))
                self.erase_instruction(si)
                self.erase_instruction(li)
                NUM_MEMCPY_INSTR.add()
                self._bbi = m
                return True
        from llvmpy_mid.transform.scalar.memcpy_opt_call_slot import perform_call_slot_optzn, perform_stack_move_optzn

        baa = BatchAAResults(self.aa)

        def get_call() -> CallInst | None:
            from llvmpy_mid.analysis.memory_ssa import MemoryDef, MemoryUse

            clob = self.clobber_of(li, baa)
            if isinstance(clob, (MemoryDef, MemoryUse)):
                mi = clob.memory_inst
                return mi if isinstance(mi, CallInst) else None
            return None

        store_size = dl.type_store_size(si.value_operand.type)
        scalable = dl.is_scalable(si.value_operand.type)
        if perform_call_slot_optzn(
            self, li, si, strip_pointer_casts(si.pointer_operand), strip_pointer_casts(li.pointer_operand),
            store_size, scalable, min(si.alignment, li.alignment), baa, get_call,
        ):  # fmt: skip
            self.erase_instruction(si)
            self.erase_instruction(li)
            NUM_MEMCPY_INSTR.add()
            return True
        dest_alloca = si.pointer_operand
        src_alloca = li.pointer_operand
        if isinstance(dest_alloca, AllocaInst) and isinstance(src_alloca, AllocaInst):
            if perform_stack_move_optzn(self, li, si, dest_alloca, src_alloca, (dl.type_store_size(t), dl.is_scalable(t)), baa):
                self._bbi = _next_non_debug(si)
                self.erase_instruction(si)
                self.erase_instruction(li)
                NUM_MEMCPY_INSTR.add()
                return True
        return False

    def move_up(self, si: StoreInst, p: Instruction, li: LoadInst) -> bool:
        """LLVM ``moveUp``: lift ``si`` (and what it needs, and what may alias it) above
        ``p``; False if it cannot."""
        aa = self.aa
        store_loc = MemoryLocation.get(si)
        if is_mod_or_ref_set(aa.get_mod_ref_info(p, store_loc)):
            return False
        args: set[Instruction] = set()
        parent = si.parent

        def add_arg(v: Value) -> bool:
            if isinstance(v, Instruction) and v.parent is parent:
                if v is p:
                    return False
                args.add(v)
            return True

        if not add_arg(si.pointer_operand):
            return False
        to_lift: list[Instruction] = [si]
        mem_locs: list[MemoryLocation] = [store_loc]
        calls: list[CallBase] = []
        load_loc = MemoryLocation.get(li)
        c = si.prev_instruction
        while c is not None and c is not p:
            if not is_guaranteed_to_transfer_execution_to_successor(c):
                return False
            may_alias = is_mod_or_ref_set(aa.get_mod_ref_info(c, None))
            need_lift = False
            if c in args:
                args.discard(c)
                need_lift = True
            elif may_alias:
                need_lift = any(is_mod_or_ref_set(aa.get_mod_ref_info(c, ml)) for ml in mem_locs)
                if not need_lift:
                    need_lift = any(is_mod_or_ref_set(aa.get_mod_ref_info_call(c, call)) for call in calls)
            if not need_lift:
                c = c.prev_instruction
                continue
            if may_alias:
                if is_mod_set(aa.get_mod_ref_info(c, load_loc)):
                    return False
                if isinstance(c, CallBase):
                    if is_mod_or_ref_set(aa.get_mod_ref_info_call(p, c)):
                        return False
                    calls.append(c)
                elif isinstance(c, (LoadInst, StoreInst, VAArgInst)):
                    ml = MemoryLocation.get(c)
                    if is_mod_or_ref_set(aa.get_mod_ref_info(p, ml)):
                        return False
                    mem_locs.append(ml)
                else:
                    return False
            to_lift.append(c)
            for op in c.operands:
                if not add_arg(op):
                    return False
            c = c.prev_instruction
        mssa = self.mssa
        insert_point: Any = None
        pa = mssa.get_memory_access(p)
        if pa is not None:
            insert_point = mssa.previous_access(pa)
        else:
            i = p.prev_instruction
            while i is not None:
                ma = mssa.get_memory_access(i)
                if ma is not None:
                    insert_point = ma
                    break
                if i is li:
                    break
                i = i.prev_instruction
        for inst in reversed(to_lift):
            inst.move_before(p)
            ma = mssa.get_memory_access(inst)
            if ma is not None:
                self.mssau.move_after(ma, insert_point)
                insert_point = ma
        return True

    def process_mem_set(self, msi: CallBase) -> bool:
        if isinstance(length(msi), ConstantInt) and not msi.is_volatile:
            made = try_merging_into_memset(self, msi, dest(msi), msi.operands[1])
            if made is not None:
                self._bbi = made
                return True
        return False

    # --- memcpy ---------------------------------------------------------------------------------
    def process_mem_cpy(self, m: CallBase) -> bool:
        from llvmpy_mid.analysis.memory_ssa import MemoryDef
        from llvmpy_mid.transform.scalar.memcpy_opt_call_slot import (
            has_undef_contents,
            perform_call_slot_optzn,
            perform_stack_move_optzn,
        )

        if m.is_volatile:
            return False
        if source(m) is dest(m) or is_zero_size(length(m)):
            if self._bbi is not None:
                self._bbi = self._bbi.next_instruction
            self.erase_instruction(m)
            return True
        ma = self.access(m)
        if ma is None:
            return False
        module = m.module
        assert module is not None
        dl = module.data_layout
        gv = source(m)
        if isinstance(gv, GlobalVariable) and gv.is_constant_global and gv.has_definitive_initializer:
            init = gv.initializer
            assert init is not None
            byte_val = is_bytewise_value(init, dl)
            if byte_val is not None:
                b = self.builder_before(m)
                new_m = create_mem_set(b, raw_dest(m), byte_val, length(m), dest_align(m), False)
                self.insert_def_after(new_m, ma)
                self.erase_instruction(m)
                NUM_CPY_TO_SET.add()
                return True
        baa = BatchAAResults(self.aa)
        any_clobber = ma.defining_access
        dest_loc = MemoryLocation.get_for_dest(m)
        dest_clobber = self.clobber(any_clobber, dest_loc, baa)
        if isinstance(dest_clobber, MemoryDef):
            mdep = dest_clobber.memory_inst
            if mdep is not None and is_memset(mdep) and dest_clobber.block is m.parent:
                assert isinstance(mdep, CallBase)
                if self.process_mem_set_mem_cpy_dependence(m, mdep, baa):
                    return True
        src_clobber = self.clobber(any_clobber, MemoryLocation.get_for_source(m), baa)
        if isinstance(src_clobber, MemoryDef):
            mi = src_clobber.memory_inst
            if mi is not None:
                copy_size = length(m)
                if isinstance(copy_size, ConstantInt) and isinstance(mi, CallInst):
                    c: CallInst = mi
                    if perform_call_slot_optzn(
                        self, m, m, dest(m), source(m), copy_size.zext_value, False, dest_align(m) or 1, baa, lambda: c
                    ):
                        self.erase_instruction(m)
                        NUM_MEMCPY_INSTR.add()
                        return True
                if is_memcpy(mi):
                    assert isinstance(mi, CallBase)
                    if self.process_mem_cpy_mem_cpy_dependence(m, mi, baa):
                        return True
                if is_memset(mi):
                    assert isinstance(mi, CallBase)
                    if self.perform_mem_cpy_to_mem_set_optzn(m, mi, baa):
                        self.erase_instruction(m)
                        NUM_CPY_TO_SET.add()
                        return True
            if has_undef_contents(self, baa, source(m), src_clobber, length(m)):
                self.erase_instruction(m)
                NUM_MEMCPY_INSTR.add()
                return True
        dest_alloca = dest(m)
        src_alloca = source(m)
        n = length(m)
        if not isinstance(dest_alloca, AllocaInst) or not isinstance(src_alloca, AllocaInst) or not isinstance(n, ConstantInt):
            return False
        if perform_stack_move_optzn(self, m, m, dest_alloca, src_alloca, (n.zext_value, False), baa):
            self._bbi = _next_non_debug(m)
            self.erase_instruction(m)
            NUM_MEMCPY_INSTR.add()
            return True
        return False

    def process_mem_cpy_mem_cpy_dependence(self, m: CallBase, mdep: CallBase, baa: BatchAAResults) -> bool:
        """memcpy(b <- a); memcpy(c <- b) => memcpy(c <- a) (or memmove)."""
        if source(m) is source(mdep):
            return False
        if mdep.is_volatile:
            return False
        module = m.module
        assert module is not None
        dl = module.data_layout
        forward = 0
        if source(m) is not dest(mdep):
            off = get_pointer_offset_from(source(m), dest(mdep), dl)
            if off is None or off < 0:
                return False
            forward = off
        if forward != 0 or length(mdep) is not length(m):
            dep_len = length(mdep)
            m_len = length(m)
            if not isinstance(dep_len, ConstantInt) or not isinstance(m_len, ConstantInt):
                return False
            if dep_len.zext_value < m_len.zext_value + forward:
                return False
        b = self.builder_before(m)
        copy_source = source(mdep)
        new_copy_source: Instruction | None = None
        try:
            copy_source_align = source_align(mdep)
            m_copy_loc = MemoryLocation.get_for_source(mdep).with_size(MemoryLocation.get_for_source(m).size)
            if forward > 0:
                m_dest_offset = get_pointer_offset_from(raw_dest(m), raw_source(mdep), dl)
                if m_dest_offset == forward:
                    copy_source = dest(m)
                else:
                    copy_source = b.create_gep(module.context.i8, copy_source, [ConstantInt.get(module.context.i64, forward)], inbounds=True)
                    if isinstance(copy_source, Instruction):
                        new_copy_source = copy_source
                m_copy_loc = m_copy_loc.with_ptr(copy_source)
                if copy_source_align is not None:
                    copy_source_align = common_alignment(copy_source_align, forward)
            if self.written_between(baa, m_copy_loc, self.access(mdep), self.access(m)):
                return False
            if _must_alias_values(baa, dest(m), copy_source):
                self.erase_instruction(m)
                NUM_MEMCPY_INSTR.add()
                return True
            use_memmove = False
            if is_mod_set(baa.get_mod_ref_info(m, MemoryLocation.get_for_source(mdep))):
                if m.intrinsic_base == "llvm.memcpy.inline":
                    return False
                use_memmove = True
            if use_memmove:
                kind = "memmove"
            elif m.intrinsic_base == "llvm.memcpy.inline":
                kind = "memcpy.inline"
            else:
                kind = "memcpy"
            new_m = create_mem_transfer(b, kind, dest(m), dest_align(m), copy_source, copy_source_align, length(m), m.is_volatile)
            _copy_di_assign_id(new_m, m)
            self.insert_def_after(new_m, self.access(m))
            self.erase_instruction(m)
            NUM_MEMCPY_INSTR.add()
            return True
        finally:
            if new_copy_source is not None and not new_copy_source.has_uses:
                new_copy_source.erase_from_parent()

    def process_mem_set_mem_cpy_dependence(self, memcpy: CallBase, memset: CallBase, baa: BatchAAResults) -> bool:
        """memset(d, c, n); memcpy(d, s, k) => memset(d + k, c, n <= k ? 0 : n - k); memcpy."""
        if not _must_alias_values(baa, dest(memset), dest(memcpy)):
            return False
        module = memcpy.module
        assert module is not None
        dl = module.data_layout
        src_size = length(memcpy)
        if not is_known_non_zero(src_size, SimplifyQuery(dl, None, self.dt, self.ac, memcpy)):
            return False
        if is_mod_set(baa.get_mod_ref_info(memcpy, MemoryLocation.get_for_source(memcpy))):
            return False
        if self.accessed_between(baa, MemoryLocation.get_for_dest(memset), self.access(memset), self.access(memcpy)):
            return False
        dst = raw_dest(memcpy)
        dest_size = length(memset)
        if may_be_visible_through_unwinding(dst, memset, memcpy):
            return False
        if dest_size is src_size:
            self.erase_instruction(memset)
            return True
        alignment = 1
        d_align = max(dest_align(memset) or 1, dest_align(memcpy) or 1)
        if d_align > 1 and isinstance(src_size, ConstantInt):
            alignment = common_alignment(d_align, src_size.zext_value)
        b = IRBuilder(before=memcpy, folder=ConstantFolder())
        b.debug_loc = memset.debug_loc
        dst_ty = dest_size.type
        src_ty = src_size.type
        if dst_ty is not src_ty:
            if dst_ty.width > src_ty.width:  # type: ignore[attr-defined]
                src_size = b.create_zext(src_size, dst_ty)
            else:
                dest_size = b.create_zext(dest_size, src_ty)
        ule = b.create_icmp("ule", dest_size, src_size)
        size_diff = b.create_sub(dest_size, src_size)
        memset_len = b.create_select(ule, Constant.get_null_value(dest_size.type), size_diff)
        new_memset = create_mem_set(b, b.create_gep(module.context.i8, dst, [src_size]), memset.operands[1], memset_len, alignment)
        self.insert_def_before(new_memset, self.access(memcpy))
        self.erase_instruction(memset)
        return True

    def perform_mem_cpy_to_mem_set_optzn(self, memcpy: CallBase, memset: CallBase, baa: BatchAAResults) -> bool:
        """memset(a, c, n); memcpy(b, a, k) (k <= n) => memset(b, c, k)."""
        from llvmpy_mid.analysis.memory_ssa import MemoryDef
        from llvmpy_mid.transform.scalar.memcpy_opt_call_slot import has_undef_contents

        if not _must_alias_values(baa, raw_dest(memset), raw_source(memcpy)):
            return False
        memset_size = length(memset)
        copy_size = length(memcpy)
        if memset_size is not copy_size:
            if not isinstance(memset_size, ConstantInt) or not isinstance(copy_size, ConstantInt):
                return False
            if copy_size.zext_value > memset_size.zext_value:
                loc = MemoryLocation.get_for_source(memcpy)
                can_reduce = False
                clob = self.clobber(self.access(memset).defining_access, loc, baa)
                if isinstance(clob, MemoryDef) and has_undef_contents(self, baa, source(memcpy), clob, copy_size):
                    can_reduce = True
                if not can_reduce:
                    return False
                copy_size = memset_size
        b = self.builder_before(memcpy)
        new_m = create_mem_set(b, raw_dest(memcpy), memset.operands[1], copy_size, dest_align(memcpy))
        self.insert_def_after(new_m, self.access(memcpy))
        return True

    def process_mem_move(self, m: CallBase) -> bool:
        """A memmove that cannot modify its own source becomes a memcpy."""
        if is_mod_set(self.aa.get_mod_ref_info(m, MemoryLocation.get_for_source(m))):
            return False
        from llvmpy_mid.ir.intrinsics import intrinsic_declaration
        from llvmpy_mid.ir.type_mangling import intrinsic_name

        module = m.module
        assert module is not None
        tys = [raw_dest(m).type, raw_source(m).type, length(m).type]
        name = intrinsic_name("llvm.memcpy", tys)
        assert name is not None
        ctx = module.context
        decl = intrinsic_declaration(module, name, ctx.function_type(ctx.void, tys + [ctx.i1]))
        m.set_called_function(decl)
        NUM_MOVE_TO_CPY.add()
        return True

    # --- call arguments -------------------------------------------------------------------------
    def _memcpy_feeding(self, call: CallBase, loc: MemoryLocation) -> tuple[Any, CallBase | None, BatchAAResults]:
        from llvmpy_mid.analysis.memory_ssa import MemoryDef

        baa = BatchAAResults(self.aa)
        call_access = self.access(call)
        if call_access is None:
            return None, None, baa
        clob = self.clobber(call_access.defining_access, loc, baa)
        mdep: CallBase | None = None
        if isinstance(clob, MemoryDef):
            mi = clob.memory_inst
            if mi is not None and is_memcpy(mi):
                assert isinstance(mi, CallBase)
                mdep = mi
        return call_access, mdep, baa

    def process_by_val_argument(self, cb: CallBase, arg_no: int) -> bool:
        """A byval argument copied by a memcpy takes the memcpy's source."""
        module = cb.module
        assert module is not None
        dl = module.data_layout
        arg = cb.operands[arg_no]
        by_val_ty = cb.param_by_val_type(arg_no)
        if by_val_ty is None:
            return False
        size = dl.type_alloc_size(by_val_ty)
        scalable = dl.is_scalable(by_val_ty)
        loc = MemoryLocation(arg, LocationSize.precise(size, scalable))
        call_access, mdep, baa = self._memcpy_feeding(cb, loc)
        if call_access is None or mdep is None or mdep.is_volatile or strip_pointer_casts(arg) is not dest(mdep):
            return False
        c1 = length(mdep)
        if not isinstance(c1, ConstantInt) or scalable or c1.zext_value < size:
            return False
        by_val_align = cb.attributes.param_alignment(arg_no)
        if by_val_align is None:
            return False
        dep_align = source_align(mdep)
        if (dep_align is None or dep_align < by_val_align) and get_or_enforce_known_alignment(
            source(mdep), by_val_align, dl, cb, self.ac, self.dt
        ) < by_val_align:
            return False
        if source(mdep).type is not arg.type:
            return False
        if self.written_between(baa, MemoryLocation.get_for_source(mdep), self.access(mdep), call_access):
            return False
        combine_aa_metadata(cb, mdep)
        cb.set_arg(arg_no, source(mdep))
        NUM_MEMCPY_INSTR.add()
        return True

    def process_immut_argument(self, cb: CallBase, arg_no: int) -> bool:
        """A ``noalias nocapture`` read-only alloca argument copied by a memcpy takes the
        memcpy's source."""
        if not (cb.param_has_attr(arg_no, "noalias") and cb.param_has_attr(arg_no, "nocapture")):
            return False
        module = cb.module
        assert module is not None
        dl = module.data_layout
        arg = cb.operands[arg_no]
        ai = strip_pointer_casts(arg)
        if not isinstance(ai, AllocaInst):
            return False
        size = allocation_size(ai)
        if size is None or size[1]:
            return False
        loc = MemoryLocation(arg, LocationSize.precise(size[0]))
        call_access, mdep, baa = self._memcpy_feeding(cb, loc)
        if call_access is None or mdep is None or mdep.is_volatile or ai is not dest(mdep):
            return False
        if source(mdep).type is not arg.type:
            return False
        dep_len = length(mdep)
        if not isinstance(dep_len, ConstantInt) or size[0] != dep_len.zext_value:
            return False
        dep_align = source_align(mdep) or 1
        alloca_align = ai.alignment or 1
        if dep_align < alloca_align and get_or_enforce_known_alignment(source(mdep), alloca_align, dl, cb, self.ac, self.dt) < alloca_align:
            return False
        if self.written_between(baa, MemoryLocation.get_for_source(mdep), self.access(mdep), call_access):
            return False
        if is_mod_set(self.aa.get_mod_ref_info(cb, MemoryLocation.get_for_source(mdep))):
            return False
        combine_aa_metadata(cb, mdep)
        cb.set_arg(arg_no, source(mdep))
        NUM_MEMCPY_INSTR.add()
        return True


def _next_non_debug(inst: Instruction) -> Instruction | None:
    """``getNextNonDebugInstruction``."""
    from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call

    i = inst.next_instruction
    while i is not None and is_debug_or_pseudo_probe_call(i) and i.intrinsic_base.startswith("llvm.dbg."):  # type: ignore[attr-defined]
        i = i.next_instruction
    return i


class MemCpyOptPass(Pass[Function]):
    """``memcpyopt``: optimises memcpy/memmove/memset and the stores that could be them."""

    name: ClassVar[str] = "memcpyopt"

    @property
    def log_name(self) -> str:
        return "MemCpyOptPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis

        tli = am.get_result(TargetLibraryAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        pdt = am.get_result(PostDominatorTreeAnalysis, unit)
        mssa = am.get_result(MemorySSAAnalysis, unit)
        if not MemCpyOptimizer(tli, aa, ac, dt, pdt, _mssa_of(mssa)).run(unit):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        pa.preserve(MemorySSAAnalysis)
        return pa


def _mssa_of(result: Any) -> Any:
    """The MemorySSA of the analysis result (LLVM ``getMSSA()``)."""
    return getattr(result, "mssa", result)

