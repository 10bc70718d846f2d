"""``dse``: dead store elimination on MemorySSA (LLVM 19.1.7 ``DSEPass``,
``lib/Transforms/Scalar/DeadStoreElimination.cpp``).

What: every MemoryDef whose write location is known (stores, memory intrinsics,
argmem-only calls that write one pointer) and every ``free``/``lifetime.end`` is a
*killing* candidate; from it the pass walks up the MemorySSA def chain
(``get_dom_memory_def``) for an earlier write it may kill, checks that no read of the
earlier write's location happens on any path before the killing write (the uses of the
candidate, through MemoryPhis, within ``-dse-memoryssa-scanlimit``), and that every path
from the candidate to the function's exit passes through a killing write (the
post-dominator tree, with ``-dse-memoryssa-path-check-limit``), unless the object is
invisible to the caller after return. Dead writes are deleted together with the
instructions only they used. Overlapping writes are classified by
:mod:`~llvmpy_mid.transform.scalar.dse_overwrite`: complete overwrites (also composed
from several partial ones) kill; a small constant store inside a wider one merges into
it (``-enable-dse-partial-store-merging``); memset/memcpy whose end or start is
overwritten are shortened (``-enable-dse-partial-overwrite-tracking``). Then:
stores of the value already in memory (a load of the same address with no write in
between, the initial value of an allocation, a value implied by a dominating equality
test, or a byte a dominating memset wrote) are deleted; ``malloc`` followed by a
``memset`` of zero becomes ``calloc``; and writes to objects not visible to the caller
that nothing reads before the function returns are deleted
(``eliminate_dead_writes_at_end_of_function``).

Modules: this one has the walk and the driver (``DSEState``, :func:`eliminate_dead_stores`,
``DSEPass``); the overwrite rules are in :mod:`~llvmpy_mid.transform.scalar.dse_overwrite`,
the object facts and caches in :mod:`~llvmpy_mid.transform.scalar.dse_objects`, no-op
stores and calloc folding in :mod:`~llvmpy_mid.transform.scalar.dse_noop`.

Limits (LLVM's ``cl::opt``s with their defaults): ``-dse-memoryssa-scanlimit`` (150),
``-dse-memoryssa-walklimit`` (90), ``-dse-memoryssa-partial-store-limit`` (5),
``-dse-memoryssa-defs-per-block-limit`` (5000), ``-dse-memoryssa-samebb-cost`` (1),
``-dse-memoryssa-otherbb-cost`` (5), ``-dse-memoryssa-path-check-limit`` (50),
``-dse-optimize-memoryssa`` (true).

Analyses (in ``DSEPass::run``'s order): AAManager, TargetLibraryAnalysis,
DominatorTreeAnalysis, MemorySSAAnalysis, PostDominatorTreeAnalysis, LoopAnalysis;
preserves the CFG analyses, MemorySSA and LoopInfo when it changes something.

What it does not do yet: the ``dse-memoryssa`` debug counter; the assignment
tracking update of shortened intrinsics (``#dbg_assign``).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults, is_ref_set
from llvmpy_mid.analysis.alias.alias_result import NO_ALIAS, AliasKind
from llvmpy_mid.analysis.alias.earliest_escape_info import EarliestEscapeInfo
from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order
from llvmpy_mid.analysis.cfg import may_contain_irreducible_control
from llvmpy_mid.analysis.loads import is_identified_object
from llvmpy_mid.analysis.loop_info import LoopAnalysis, LoopInfo
from llvmpy_mid.analysis.memory_builtins import (
    ObjectSizeOpts,
    get_freed_operand,
    get_object_size,
)
from llvmpy_mid.analysis.memory_ssa import MemoryAccess, MemoryDef, MemoryPhi, MemorySSA, MemorySSAAnalysis, MemoryUseOrDef
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.analysis.underlying_objects import get_pointer_base_with_constant_offset, get_underlying_object
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function, null_pointer_is_defined
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.dse_noop import (
    NUM_REDUNDANT_STORES,
    eliminate_redundant_stores_of_existing_values,
    store_is_noop,
    try_fold_into_calloc,
)
from llvmpy_mid.transform.scalar.dse_objects import DSEObjects, _defining, _inst, is_noop_intrinsic
from llvmpy_mid.transform.scalar.dse_overwrite import (
    InstOverlapIntervals,
    OverwriteResult,
    classify_same_base_overlap,
    is_masked_store_overwrite,
    is_partial_overwrite,
    mem_intrinsic,
    try_to_merge_partial_overlapping_stores,
    try_to_shorten_begin,
    try_to_shorten_end,
)
from llvmpy_mid.transform.utils.assume_bundle_builder import salvage_knowledge
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, salvage_debug_info

__all__ = ["DSEPass", "DSEState", "eliminate_dead_stores"]

_DT = "dse"
NUM_REMAINING_STORES = Statistic(_DT, "NumRemainingStores", "Number of stores remaining after DSE")
NUM_FAST_STORES = Statistic(_DT, "NumFastStores", "Number of stores deleted")
NUM_FAST_OTHER = Statistic(_DT, "NumFastOther", "Number of other instrs removed")
NUM_MODIFIED_STORES = Statistic(_DT, "NumModifiedStores", "Number of stores modified")
NUM_CFG_CHECKS = Statistic(_DT, "NumCFGChecks", "Number of stores modified")
NUM_CFG_TRIES = Statistic(_DT, "NumCFGTries", "Number of stores modified")
NUM_CFG_SUCCESS = Statistic(_DT, "NumCFGSuccess", "Number of stores modified")
NUM_GET_DOM_MEMORY_DEF_PASSED = Statistic(
    _DT, "NumGetDomMemoryDefPassed", "Number of times a valid candidate is returned from getDomMemoryDef"
)
NUM_DOM_MEM_DEF_CHECKS = Statistic(_DT, "NumDomMemDefChecks", "Number iterations check for reads in getDomMemoryDef")

# Declared in the registry too (so the command line knows them before this module is imported).
declare_option("enable-dse-partial-overwrite-tracking", "bool", True, "Enable partial-overwrite tracking in DSE", "dse")
declare_option("enable-dse-partial-store-merging", "bool", True, "Enable partial store merging in DSE", "dse")
declare_option("dse-memoryssa-scanlimit", "uint", 150, "The number of memory instructions to scan for dead store elimination (default = 150)", "dse")
declare_option("dse-memoryssa-walklimit", "uint", 90, "The maximum number of steps while walking upwards to find MemoryDefs that may be killed (default = 90)", "dse")
declare_option("dse-memoryssa-partial-store-limit", "uint", 5, "The maximum number candidates that only partially overwrite the killing MemoryDef to consider (default = 5)", "dse")
declare_option("dse-memoryssa-defs-per-block-limit", "uint", 5000, "The number of MemoryDefs we consider as candidates to eliminated other stores per basic block (default = 5000)", "dse")
declare_option("dse-memoryssa-samebb-cost", "uint", 1, "The cost of a step in the same basic block as the killing MemoryDef(default = 1)", "dse")
declare_option("dse-memoryssa-otherbb-cost", "uint", 5, "The cost of a step in a different basic block than the killing MemoryDef(default = 5)", "dse")
declare_option("dse-memoryssa-path-check-limit", "uint", 50, "The maximum number of blocks to check when trying to prove that all paths to an exit go through a killing block (default = 50)", "dse")
declare_option("dse-optimize-memoryssa", "bool", True, "Allow DSE to optimize memory accesses.", "dse")



def _opt_int(name: str) -> int:
    v = OPTIONS.value(name)
    assert isinstance(v, int)
    return int(v)


class _Limits:
    """The option values, read once per run."""

    __slots__ = (
        "partial_tracking", "partial_merging", "scan", "walk", "partial", "defs_per_block",
        "same_bb_cost", "other_bb_cost", "path_check", "optimize",
    )

    def __init__(self) -> None:
        self.partial_tracking = bool(OPTIONS.value("enable-dse-partial-overwrite-tracking"))
        self.partial_merging = bool(OPTIONS.value("enable-dse-partial-store-merging"))
        self.scan = _opt_int("dse-memoryssa-scanlimit")
        self.walk = _opt_int("dse-memoryssa-walklimit")
        self.partial = _opt_int("dse-memoryssa-partial-store-limit")
        self.defs_per_block = _opt_int("dse-memoryssa-defs-per-block-limit")
        self.same_bb_cost = _opt_int("dse-memoryssa-samebb-cost")
        self.other_bb_cost = _opt_int("dse-memoryssa-otherbb-cost")
        self.path_check = _opt_int("dse-memoryssa-path-check-limit")
        self.optimize = bool(OPTIONS.value("dse-optimize-memoryssa"))


class _Budget:
    """The three per-killing-def budgets of ``get_dom_memory_def`` (LLVM passes them by reference)."""

    __slots__ = ("scan", "walk", "partial")

    def __init__(self, scan: int, walk: int, partial: int) -> None:
        self.scan = scan
        self.walk = walk
        self.partial = partial


class DSEState(DSEObjects):
    """The state of one run of DSE on a function (LLVM ``DSEState``)."""

    def __init__(
        self,
        fn: Function,
        aa: AAResults,
        mssa: MemorySSA,
        dt: DominatorTree,
        pdt: DominatorTree,
        tli: TargetLibraryInfo,
        li: LoopInfo,
    ) -> None:
        super().__init__(EarliestEscapeInfo(dt, fn, li))
        self.fn = fn
        self.aa = aa
        self.batch_aa = BatchAAResults(aa, self.ei)
        self.mssa = mssa
        self.dt = dt
        self.pdt = pdt
        self.tli = tli
        module = fn.parent
        assert module is not None
        self.dl = module.data_layout
        self.li = li
        self.limits = _Limits()
        self.mem_defs: list[MemoryDef] = []
        self.skip_stores: set[MemoryAccess] = set()
        self.post_order_numbers: dict[BasicBlock, int] = {}
        self.iols: dict[BasicBlock, InstOverlapIntervals] = {}
        self.should_iterate_end_of_function_dse = False
        self.to_remove: list[Instruction] = []
        self._loc_cache: dict[Instruction, MemoryLocation | None] = {}
        self._uo_cache: dict[Value, Value] = {}
        self._base_cache: dict[Value, tuple[Value, int]] = {}
        self._size_cache: dict[Value, int | None] = {}

        po = 0
        rpo = reverse_post_order(fn.entry_block)
        for bb in reversed(rpo):
            self.post_order_numbers[bb] = po
            po += 1
            for inst in bb:
                ma = mssa.get_memory_access(inst)
                if ma is None and inst.may_throw():
                    self.throwing_blocks.add(bb)
                if (
                    isinstance(ma, MemoryDef)
                    and len(self.mem_defs) < self.limits.defs_per_block
                    and (self.get_loc_for_write(inst) is not None or self.is_mem_terminator_inst(inst))
                ):
                    self.mem_defs.append(ma)
        for arg in fn.args:
            if arg.type.is_pointer and (
                arg.attributes.has("byval") or arg.attributes.has("inalloca") or arg.attributes.has("preallocated")
            ):
                self.invisible_to_caller_after_ret[arg] = True
        self.contains_irreducible_loops = may_contain_irreducible_control(fn, li)
        self.any_unreachable_exit = any(_ends_in_unreachable(r) for r in pdt.roots)

    # --- small queries --------------------------------------------------------------------------
    @staticmethod
    def push_mem_uses(acc: MemoryAccess, worklist: list[MemoryAccess], visited: set[MemoryAccess]) -> None:
        for user in acc.users:
            if isinstance(user, MemoryAccess) and user not in visited:
                visited.add(user)
                worklist.append(user)

    def strengthen_location_size(self, inst: Instruction, size: LocationSize) -> LocationSize:
        """``__memset_chk``/``__memcpy_chk`` with a constant length write exactly that many bytes."""
        if isinstance(inst, CallBase):
            f = self.tli.get_lib_func_for_call(inst)
            if f is not None and self.tli.has(f) and f in ("memset_chk", "memcpy_chk"):
                n = inst.get_arg(2)
                if isinstance(n, ConstantInt):
                    return LocationSize.precise(n.zext_value)
        return size

    def _pointer_size(self, v: Value) -> int | None:
        cache = self._size_cache
        if v in cache:
            return cache[v]
        opts = ObjectSizeOpts(null_is_unknown_size=null_pointer_is_defined(self.fn))
        size = cache[v] = get_object_size(v, self.dl, self.tli, opts)
        return size

    def is_overwrite(
        self, killing_i: Instruction, dead_i: Instruction, killing_loc: MemoryLocation, dead_loc: MemoryLocation
    ) -> tuple[OverwriteResult, int, int]:
        """How the write of ``killing_i`` covers the write of ``dead_i``, with the two
        offsets from their common base when they were computed (LLVM ``isOverwrite``)."""
        if not self.is_guaranteed_loop_independent(dead_i, killing_i, dead_loc):
            return OverwriteResult.UNKNOWN, 0, 0
        killing_size = self.strengthen_location_size(killing_i, killing_loc.size)
        assert dead_loc.ptr is not None and killing_loc.ptr is not None
        dead_ptr = strip_pointer_casts(dead_loc.ptr)
        killing_ptr = strip_pointer_casts(killing_loc.ptr)
        dead_und = self.underlying_object(dead_ptr)
        killing_und = self.underlying_object(killing_ptr)
        if dead_und is killing_und and killing_size.is_precise and is_identified_object(killing_und):
            obj_size = self._pointer_size(killing_und)
            if (
                obj_size is not None
                and killing_size.has_value
                and not killing_size.is_scalable
                and obj_size == killing_size.value
            ):
                return OverwriteResult.COMPLETE, 0, 0
        if not killing_size.is_precise or not dead_loc.size.is_precise:
            if mem_intrinsic(killing_i) and mem_intrinsic(dead_i):
                assert isinstance(killing_i, CallBase) and isinstance(dead_i, CallBase)
                if killing_i.get_arg(2) is dead_i.get_arg(2) and self.batch_aa.is_must_alias(dead_loc, killing_loc):
                    return OverwriteResult.COMPLETE, 0, 0
            return is_masked_store_overwrite(killing_i, dead_i, self.batch_aa), 0, 0
        if dead_loc.size.is_scalable or killing_size.is_scalable:
            return OverwriteResult.UNKNOWN, 0, 0
        k_size = killing_size.value
        d_size = dead_loc.size.value
        aar = self.batch_aa.alias(killing_loc, dead_loc)
        if aar.kind is AliasKind.MUST_ALIAS and k_size >= d_size:
            return OverwriteResult.COMPLETE, 0, 0
        if aar.kind is AliasKind.PARTIAL_ALIAS and aar.offset is not None:
            off = aar.offset
            if off >= 0 and off + d_size <= k_size:
                return OverwriteResult.COMPLETE, 0, 0
        if dead_und is not killing_und:
            if aar == NO_ALIAS:
                return OverwriteResult.NONE, 0, 0
            return OverwriteResult.UNKNOWN, 0, 0
        dead_base, dead_off = self.base_with_constant_offset(dead_ptr)
        killing_base, killing_off = self.base_with_constant_offset(killing_ptr)
        if dead_base is not killing_base:
            return OverwriteResult.UNKNOWN, killing_off, dead_off
        return classify_same_base_overlap(dead_off, d_size, killing_off, k_size), killing_off, dead_off

    def get_loc_for_write(self, inst: Instruction) -> MemoryLocation | None:
        """The one location ``inst`` writes (cached until the instruction is shortened)."""
        cache = self._loc_cache
        if inst in cache:
            return cache[inst]
        loc: MemoryLocation | None
        if not inst.may_write_to_memory():
            loc = None
        elif isinstance(inst, CallBase):
            loc = MemoryLocation.get_for_dest_of_call(inst, self.tli)
        else:
            loc = MemoryLocation.get_or_none(inst)
        cache[inst] = loc
        return loc

    # Pointer facts do not change while DSE only deletes instructions; the caches are
    # cleared when malloc becomes calloc (the object itself is replaced).
    def underlying_object(self, v: Value) -> Value:
        found = self._uo_cache.get(v)
        if found is None:
            found = self._uo_cache[v] = get_underlying_object(v)
        return found

    def base_with_constant_offset(self, v: Value) -> tuple[Value, int]:
        found = self._base_cache.get(v)
        if found is None:
            found = self._base_cache[v] = get_pointer_base_with_constant_offset(v, self.dl)
        return found

    def clear_pointer_caches(self) -> None:
        self._uo_cache.clear()
        self._base_cache.clear()
        self._size_cache.clear()

    def is_removable(self, inst: Instruction) -> bool:
        if isinstance(inst, StoreInst):
            return inst.is_unordered
        if isinstance(inst, CallBase):
            if mem_intrinsic(inst):
                vol = inst.get_arg(3)
                return not (isinstance(vol, ConstantInt) and vol.value)
            base = inst.intrinsic_base
            if base in ("llvm.lifetime.start", "llvm.lifetime.end"):
                return False
            return inst.use_empty and inst.will_return() and inst.does_not_throw and not inst.is_terminator
        return False

    def is_complete_overwrite(self, def_loc: MemoryLocation, def_inst: Instruction, use_inst: Instruction) -> bool:
        if not use_inst.may_write_to_memory():
            return False
        if isinstance(use_inst, CallBase) and use_inst.only_accesses_inaccessible_memory:
            return False
        cc = self.get_loc_for_write(use_inst)
        if cc is None:
            return False
        return self.is_overwrite(use_inst, def_inst, cc, def_loc)[0] is OverwriteResult.COMPLETE

    def is_write_at_end_of_function(self, d: MemoryDef, def_loc: MemoryLocation) -> bool:
        """Nothing reads the location of ``d`` before the function returns."""
        worklist: list[MemoryAccess] = []
        visited: set[MemoryAccess] = set()
        self.push_mem_uses(d, worklist, visited)
        i = 0
        scan_limit = self.limits.scan
        while i < len(worklist):
            if len(worklist) >= scan_limit:
                return False
            use_access = worklist[i]
            i += 1
            if isinstance(use_access, MemoryPhi):
                assert def_loc.ptr is not None
                if not self.is_guaranteed_loop_invariant(def_loc.ptr):
                    return False
                self.push_mem_uses(use_access, worklist, visited)
                continue
            assert isinstance(use_access, MemoryUseOrDef)
            use_inst = _inst(use_access)
            if self.is_read_clobber(def_loc, use_inst):
                return False
            if isinstance(use_access, MemoryDef):
                self.push_mem_uses(use_access, worklist, visited)
        return True

    def get_loc_for_terminator(self, inst: Instruction) -> tuple[MemoryLocation, bool] | None:
        """The location a ``lifetime.end`` ends (False) or a ``free`` releases (True)."""
        if not isinstance(inst, CallBase):
            return None
        if inst.intrinsic_base == "llvm.lifetime.end":
            n = inst.get_arg(0)
            if isinstance(n, ConstantInt) and n.type.width <= 64:
                return MemoryLocation(inst.get_arg(1), LocationSize.precise(n.zext_value)), False
            return None
        freed = get_freed_operand(inst, self.tli)
        if freed is not None:
            return MemoryLocation.get_after(freed), True
        return None

    def is_mem_terminator_inst(self, inst: Instruction) -> bool:
        if not isinstance(inst, CallBase):
            return False
        return inst.intrinsic_base == "llvm.lifetime.end" or get_freed_operand(inst, self.tli) is not None

    def is_mem_terminator(self, loc: MemoryLocation, access_i: Instruction, maybe_term: Instruction) -> bool:
        found = self.get_loc_for_terminator(maybe_term)
        if found is None:
            return False
        term_loc, is_free = found
        assert loc.ptr is not None and term_loc.ptr is not None
        loc_uo = self.underlying_object(loc.ptr)
        if loc_uo is not self.underlying_object(term_loc.ptr):
            return False
        if is_free:
            return self.batch_aa.is_must_alias(
                MemoryLocation.get_before_or_after(term_loc.ptr), MemoryLocation.get_before_or_after(loc_uo)
            )
        return self.is_overwrite(maybe_term, access_i, term_loc, loc)[0] is OverwriteResult.COMPLETE

    def is_read_clobber(self, def_loc: MemoryLocation, use_inst: Instruction) -> bool:
        if is_noop_intrinsic(use_inst):
            return False
        if isinstance(use_inst, StoreInst):
            return use_inst.ordering.is_stronger_than(AtomicOrdering.MONOTONIC)
        if not use_inst.may_read_from_memory():
            return False
        if isinstance(use_inst, CallBase) and use_inst.only_accesses_inaccessible_memory:
            return False
        return is_ref_set(self.batch_aa.get_mod_ref_info(use_inst, def_loc))

    def is_guaranteed_loop_independent(self, current: Instruction, killing_def: Instruction, current_loc: MemoryLocation) -> bool:
        if current.parent is killing_def.parent:
            return True
        assert current.parent is not None and killing_def.parent is not None
        current_loop = self.li.loop_for(current.parent)
        if not self.contains_irreducible_loops and current_loop is not None and current_loop is self.li.loop_for(killing_def.parent):
            return True
        assert current_loc.ptr is not None
        return self.is_guaranteed_loop_invariant(current_loc.ptr)

    def is_guaranteed_loop_invariant(self, ptr: Value) -> bool:
        ptr = strip_pointer_casts(ptr)
        if getattr(ptr, "opcode", None) == "getelementptr":
            ops = ptr.operands  # type: ignore[attr-defined]
            if all(isinstance(ops[k], ConstantInt) for k in range(1, len(ops))):
                ptr = strip_pointer_casts(ops[0])
        if isinstance(ptr, Instruction):
            bb = ptr.parent
            assert bb is not None
            return bb.is_entry_block or (not self.contains_irreducible_loops and self.li.loop_for(bb) is None)
        return True

    # --- the upward walk ------------------------------------------------------------------------
    def get_dom_memory_def(
        self,
        killing_def: MemoryDef,
        start_access: MemoryAccess,
        killing_loc: MemoryLocation,
        killing_und_obj: Value,
        budget: _Budget,
        is_mem_term: bool,
    ) -> MemoryAccess | None:
        """The next earlier access (a MemoryDef that may be killed, or a MemoryPhi to
        look through) from ``start_access``, or None (LLVM ``getDomMemoryDef``)."""
        if budget.scan == 0 or budget.walk == 0:
            return None
        limits = self.limits
        mssa = self.mssa
        current: MemoryAccess = start_access
        killing_i = _inst(killing_def)
        can_optimize = limits.optimize and _defining(killing_def) is start_access and not killing_i.may_read_from_memory()
        current_loc: MemoryLocation | None = None
        killing_block = killing_def.block
        while True:
            if mssa.is_live_on_entry_def(current):
                if can_optimize and current is not _defining(killing_def):
                    killing_def.set_optimized(current)
                return None
            step_cost = limits.same_bb_cost if killing_block is current.block else limits.other_bb_cost
            if budget.walk <= step_cost:
                return None
            budget.walk -= step_cost
            if isinstance(current, MemoryPhi):
                return current
            assert isinstance(current, MemoryDef)
            current_def = current
            current_i = _inst(current_def)
            if self.can_skip_def(current_def, not self.is_invisible_to_caller_on_unwind(killing_und_obj)):
                can_optimize = False
                current = _defining(current_def)
                continue
            if self.may_throw_between(killing_i, current_i, killing_und_obj):
                return None
            if self.is_dse_barrier(killing_und_obj, current_i):
                return None
            if not (isinstance(current_i, CallBase) and current_i.is_intrinsic_call) and self.is_read_clobber(killing_loc, current_i):
                return None
            for user in current.users:
                if isinstance(user, MemoryUseOrDef) and not mssa.dominates(start_access, user):
                    if self.is_read_clobber(killing_loc, _inst(user)):
                        return None
            current_loc = self.get_loc_for_write(current_i)
            if current_loc is None or not self.is_removable(current_i):
                can_optimize = False
                current = _defining(current_def)
                continue
            if not self.is_guaranteed_loop_independent(current_i, killing_i, current_loc):
                can_optimize = False
                current = _defining(current_def)
                continue
            if is_mem_term:
                if not self.is_mem_terminator(current_loc, current_i, killing_i):
                    can_optimize = False
                    current = _defining(current_def)
                    continue
            else:
                ow = self.is_overwrite(killing_i, current_i, killing_loc, current_loc)[0]
                if can_optimize:
                    if current_def is not _defining(killing_def) and ow in (
                        OverwriteResult.COMPLETE,
                        OverwriteResult.MAYBE_PARTIAL,
                    ):
                        killing_def.set_optimized(current_def)
                    if ow is not OverwriteResult.NONE:
                        can_optimize = False
                if ow is OverwriteResult.UNKNOWN or ow is OverwriteResult.NONE:
                    current = _defining(current_def)
                    continue
                if ow is OverwriteResult.MAYBE_PARTIAL:
                    if budget.partial <= 1:
                        budget.walk -= 1
                        current = _defining(current_def)
                        continue
                    budget.partial -= 1
            break

        assert current_loc is not None and isinstance(current, MemoryDef)
        killing_defs: dict[Instruction, None] = {killing_i: None}
        maybe_dead_access: MemoryDef = current
        maybe_dead_loc = current_loc
        maybe_dead_i = _inst(maybe_dead_access)
        dt = self.dt
        worklist: list[MemoryAccess] = []
        visited: set[MemoryAccess] = set()
        self.push_mem_uses(maybe_dead_access, worklist, visited)
        i = 0
        while i < len(worklist):
            use_access = worklist[i]
            if budget.scan < len(worklist) - i:
                return None
            i += 1
            budget.scan -= 1
            NUM_DOM_MEM_DEF_CHECKS.add()
            if isinstance(use_access, MemoryPhi):
                phi_block = use_access.block
                if any(dt.properly_dominates(_parent(ki), phi_block) for ki in killing_defs):
                    continue
                self.push_mem_uses(use_access, worklist, visited)
                continue
            assert isinstance(use_access, MemoryUseOrDef)
            use_inst = _inst(use_access)
            if any(dt.dominates(ki, use_inst) for ki in killing_defs):
                continue
            if self.is_mem_terminator(maybe_dead_loc, maybe_dead_i, use_inst):
                continue
            if is_noop_intrinsic(use_inst):
                self.push_mem_uses(use_access, worklist, visited)
                continue
            if use_inst.may_throw() and not self.is_invisible_to_caller_on_unwind(killing_und_obj):
                return None
            if self.is_read_clobber(maybe_dead_loc, use_inst):
                return None
            if maybe_dead_access is use_access:
                assert maybe_dead_loc.ptr is not None
                if not self.is_guaranteed_loop_invariant(maybe_dead_loc.ptr):
                    return None
            if killing_def is use_access or maybe_dead_access is use_access:
                continue
            if isinstance(use_access, MemoryDef):
                if self.is_complete_overwrite(maybe_dead_loc, maybe_dead_i, use_inst):
                    maybe_killing_block = _parent(use_inst)
                    if self.post_order_numbers.get(maybe_killing_block, 0) < self.post_order_numbers.get(maybe_dead_access.block, 0):
                        if not self.is_invisible_to_caller_after_ret(killing_und_obj):
                            killing_defs[use_inst] = None
                    else:
                        return None
                else:
                    self.push_mem_uses(use_access, worklist, visited)

        if not self.is_invisible_to_caller_after_ret(killing_und_obj):
            killing_blocks: dict[BasicBlock, None] = {}
            for kd in killing_defs:
                killing_blocks[_parent(kd)] = None
            pdt = self.pdt
            blocks = list(killing_blocks)
            common: BasicBlock | None = blocks[0]
            for bb in blocks[1:]:
                if common is None:
                    break
                common = pdt.nearest_common_dominator(common, bb)
            dead_block = maybe_dead_access.block
            if common is not None and not pdt.dominates(common, dead_block):
                if not self.any_unreachable_exit:
                    return None
                common = None
            if common is not None and common in killing_blocks:
                return maybe_dead_access
            path_list: list[BasicBlock] = []
            in_list: set[BasicBlock] = set()
            if common is not None:
                path_list.append(common)
                in_list.add(common)
            else:
                for r in pdt.roots:
                    if not _ends_in_unreachable(r) and r not in in_list:
                        path_list.append(r)
                        in_list.add(r)
            NUM_CFG_TRIES.add()
            k = 0
            while k < len(path_list):
                NUM_CFG_CHECKS.add()
                cur_bb = path_list[k]
                k += 1
                if cur_bb in killing_blocks:
                    continue
                if cur_bb is dead_block:
                    return None
                if not dt.is_reachable(cur_bb):
                    continue
                for pred in cur_bb.predecessors:
                    if pred not in in_list:
                        in_list.add(pred)
                        path_list.append(pred)
                if len(path_list) >= limits.path_check:
                    return None
            NUM_CFG_SUCCESS.add()
        return maybe_dead_access

    # --- deletion -------------------------------------------------------------------------------
    def delete_dead_instruction(self, si: Instruction, deleted: set[MemoryAccess] | None = None) -> None:
        """Delete ``si`` and the instructions only it used (LLVM ``deleteDeadInstruction``)."""
        updater = MemorySSAUpdater(self.mssa)
        now_dead: list[Instruction] = [si]
        NUM_FAST_OTHER.add(-1)
        while now_dead:
            dead_inst = now_dead.pop()
            NUM_FAST_OTHER.add()
            salvage_debug_info(dead_inst)
            salvage_knowledge(dead_inst)
            ma = self.mssa.get_memory_access(dead_inst)
            is_mem_def = isinstance(ma, MemoryDef)
            if ma is not None:
                if isinstance(ma, MemoryDef):
                    self.skip_stores.add(ma)
                    if deleted is not None:
                        deleted.add(ma)
                    mi = _inst(ma)
                    if isinstance(mi, StoreInst) and mi.operands[0].type.is_pointer:
                        if self.forget_stored_pointer(get_underlying_object(mi.operands[0])):
                            self.should_iterate_end_of_function_dse = True
                updater.remove_memory_access(ma)
            iol = self.iols.get(_parent(dead_inst))
            if iol is not None:
                iol.pop(dead_inst, None)
            for idx, op in enumerate(dead_inst.operands):
                if isinstance(op, Instruction):
                    dead_inst.set_operand(idx, PoisonValue.get(op.type))
                    if is_instruction_trivially_dead(op, self.tli):
                        now_dead.append(op)
            self.ei.remove_instruction(dead_inst)
            if is_mem_def and dead_inst.type.is_void:
                dead_inst.erase_from_parent()
            else:
                self.to_remove.append(dead_inst)

    def eliminate_dead_writes_at_end_of_function(self) -> bool:
        made_change = False
        while True:
            self.should_iterate_end_of_function_dse = False
            for d in reversed(self.mem_defs):
                if d in self.skip_stores:
                    continue
                def_i = _inst(d)
                def_loc = self.get_loc_for_write(def_i)
                if def_loc is None or not self.is_removable(def_i):
                    continue
                assert def_loc.ptr is not None
                uo = self.underlying_object(def_loc.ptr)
                if not self.is_invisible_to_caller_after_ret(uo):
                    continue
                if self.is_write_at_end_of_function(d, def_loc):
                    self.delete_dead_instruction(def_i)
                    NUM_FAST_STORES.add()
                    made_change = True
            if not self.should_iterate_end_of_function_dse:
                return made_change

    def remove_partially_overlapped_stores(self, iol: InstOverlapIntervals) -> bool:
        changed = False
        for dead_i, im in list(iol.items()):
            loc = self.get_loc_for_write(dead_i)
            assert loc is not None and loc.ptr is not None
            ptr = strip_pointer_casts(loc.ptr)
            dead_size = loc.size.value
            _, dead_start = get_pointer_base_with_constant_offset(ptr, self.dl)
            found = try_to_shorten_end(dead_i, im, dead_start, dead_size)
            if found is not None:
                dead_start, dead_size = found
                self._loc_cache.pop(dead_i, None)
                changed = True
            if not im:
                continue
            if try_to_shorten_begin(dead_i, im, dead_start, dead_size) is not None:
                self._loc_cache.pop(dead_i, None)
                changed = True
        return changed

def _parent(i: Instruction) -> BasicBlock:
    bb = i.parent
    assert bb is not None
    return bb


def _ends_in_unreachable(bb: BasicBlock) -> bool:
    term = bb.terminator
    return term is not None and term.opcode == "unreachable"


def eliminate_dead_stores(
    fn: Function, aa: AAResults, mssa: MemorySSA, dt: DominatorTree, pdt: DominatorTree, tli: TargetLibraryInfo, li: LoopInfo
) -> bool:
    """Run DSE on ``fn``; True when it changed something (LLVM ``eliminateDeadStores``)."""
    made_change = False
    state = DSEState(fn, aa, mssa, dt, pdt, tli, li)
    limits = state.limits
    i = 0
    while i < len(state.mem_defs):
        killing_def = state.mem_defs[i]
        i += 1
        if killing_def in state.skip_stores:
            continue
        killing_i = _inst(killing_def)
        is_mem_term = state.is_mem_terminator_inst(killing_i)
        killing_loc: MemoryLocation | None
        if is_mem_term:
            term = state.get_loc_for_terminator(killing_i)
            killing_loc = term[0] if term is not None else None
        else:
            killing_loc = state.get_loc_for_write(killing_i)
        if killing_loc is None:
            continue
        assert killing_loc.ptr is not None
        killing_und_obj = state.underlying_object(killing_loc.ptr)
        budget = _Budget(limits.scan, limits.walk, limits.partial)
        to_check: list[MemoryAccess] = [_defining(killing_def)]
        in_check: set[MemoryAccess] = set(to_check)
        deleted: set[MemoryAccess] = set()
        shortened = False
        k = 0
        while k < len(to_check):
            current = to_check[k]
            k += 1
            if current in deleted:
                continue
            dead_access = state.get_dom_memory_def(killing_def, current, killing_loc, killing_und_obj, budget, is_mem_term)
            if dead_access is None:
                continue
            if isinstance(dead_access, MemoryPhi):
                phi_block = dead_access.block
                for incoming in dead_access.incoming_values:
                    inc_block = incoming.block
                    if (
                        state.post_order_numbers.get(inc_block, 0) > state.post_order_numbers.get(phi_block, 0)
                        and incoming not in in_check
                    ):
                        in_check.add(incoming)
                        to_check.append(incoming)
                continue
            assert isinstance(dead_access, MemoryDef)
            dead_i = _inst(dead_access)
            nxt = _defining(dead_access)
            if nxt not in in_check:
                in_check.add(nxt)
                to_check.append(nxt)
            NUM_GET_DOM_MEMORY_DEF_PASSED.add()
            dead_loc = state.get_loc_for_write(dead_i)
            assert dead_loc is not None and dead_loc.ptr is not None
            if is_mem_term:
                if killing_und_obj is not state.underlying_object(dead_loc.ptr):
                    continue
                state.delete_dead_instruction(dead_i, deleted)
                NUM_FAST_STORES.add()
                made_change = True
                continue
            ow, killing_off, dead_off = state.is_overwrite(killing_i, dead_i, killing_loc, dead_loc)
            if ow is OverwriteResult.MAYBE_PARTIAL:
                iol = state.iols.setdefault(_parent(dead_i), {})
                ow = is_partial_overwrite(
                    killing_loc, dead_loc, killing_off, dead_off, dead_i, iol, limits.partial_tracking, limits.partial_merging
                )
            if limits.partial_merging and ow is OverwriteResult.PARTIAL_EARLIER_WITH_FULL_LATER:
                if isinstance(dead_i, StoreInst) and isinstance(killing_i, StoreInst) and dt.dominates(dead_i, killing_i):
                    merged = try_to_merge_partial_overlapping_stores(
                        killing_i, dead_i, killing_off, dead_off, state.dl, state.batch_aa, dt
                    )
                    if merged is not None:
                        dead_i.set_operand(0, merged)
                        NUM_MODIFIED_STORES.add()
                        made_change = True
                        shortened = True
                        state.delete_dead_instruction(killing_i, deleted)
                        iol2 = state.iols.get(_parent(dead_i))
                        if iol2 is not None:
                            iol2.pop(dead_i, None)
                        break
            if ow is OverwriteResult.COMPLETE:
                state.delete_dead_instruction(dead_i, deleted)
                NUM_FAST_STORES.add()
                made_change = True
        if not shortened and store_is_noop(state, killing_def, killing_und_obj):
            state.delete_dead_instruction(killing_i)
            NUM_REDUNDANT_STORES.add()
            made_change = True
            continue
        if not shortened and try_fold_into_calloc(state, killing_def, killing_und_obj):
            state.delete_dead_instruction(killing_i)
            made_change = True
            continue

    if limits.partial_tracking:
        for iol in list(state.iols.values()):
            if state.remove_partially_overlapped_stores(iol):
                made_change = True
    if eliminate_redundant_stores_of_existing_values(state):
        made_change = True
    if state.eliminate_dead_writes_at_end_of_function():
        made_change = True
    while state.to_remove:
        state.to_remove.pop().erase_from_parent()
    return made_change


class DSEPass(Pass[Function]):
    """Dead store elimination (LLVM ``DSEPass``)."""

    name: ClassVar[str] = "dse"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        aa = am.get_result(AAManager, unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        mssa = am.get_result(MemorySSAAnalysis, unit).get_mssa()
        pdt = am.get_result(PostDominatorTreeAnalysis, unit)
        li = am.get_result(LoopAnalysis, unit)
        changed = eliminate_dead_stores(unit, aa, mssa, dt, pdt, tli, li)
        NUM_REMAINING_STORES.add(sum(1 for bb in unit.blocks for inst in bb if isinstance(inst, StoreInst)))
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        pa.preserve(MemorySSAAnalysis)
        pa.preserve(LoopAnalysis)
        return pa

