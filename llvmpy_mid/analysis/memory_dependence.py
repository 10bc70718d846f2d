"""Memory dependence analysis: for a memory instruction, the earlier instruction it
depends on (LLVM ``MemoryDependenceAnalysis``; ``lib/Analysis/MemoryDependenceAnalysis.cpp``
and ``include/llvm/Analysis/MemoryDependenceAnalysis.h``).

- :class:`MemDepResult`: ``Def`` (the instruction defines the value the query reads, or
  the memory is fresh: an alloca, a ``noalias`` call, a lifetime start), ``Clobber`` (it
  may change the memory in an unknown way), ``NonLocal`` (no dependence in the query's
  block: ask :meth:`MemoryDependenceResults.get_non_local_pointer_dependency` or
  :meth:`~MemoryDependenceResults.get_non_local_call_dependency`), ``NonFuncLocal`` (none
  in the whole function), ``Unknown`` (the scan gave up) and the internal ``Invalid``
  ("dirty": the cached answer must be recomputed, from the instruction it holds).
- :class:`NonLocalDepEntry` (a block and its result, cached per query) and
  :class:`NonLocalDepResult` (also the address, phi-translated into that block).
- :class:`MemoryDependenceResults`: the lazy, caching queries, with LLVM's caches
  (local results, per-call non-local results, per-(pointer, is-load) non-local results
  with their size and AA tags, invariant.group non-local defs) and their reverse maps,
  kept exact by :meth:`~MemoryDependenceResults.remove_instruction`,
  :meth:`~MemoryDependenceResults.invalidate_cached_pointer_info` and
  :meth:`~MemoryDependenceResults.invalidate_cached_predecessors`.
- :class:`MemoryDependenceAnalysis`: the function analysis ``memdep``. Its result stays
  valid while it is preserved and AA, the assumption cache and the dominator tree are.

The answer types and the static scanning helpers live in
:mod:`llvmpy_mid.analysis.memory_dependence_result` (re-exported here).

Scanning position: LLVM's ``BasicBlock::iterator ScanIt`` is an instruction (scan the
instructions *before* it) or None (scan from the block's end). Limits:
``-memdep-block-scan-limit`` (instructions per block, 100), ``-memdep-block-number-limit``
(blocks per non-local query, 200) and LLVM's 100 results per non-local query. The
non-local walks use explicit worklists; where LLVM recurses into the predecessors a phi
translation reaches, the sub-queries run on an explicit stack of generators.

Cache entries are ordered by a per-analysis block number (LLVM orders them by block
address; the numbering keeps our order deterministic). The batch queries use one
``EarliestEscapeInfo`` per result, as LLVM's.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, ClassVar, Generator

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import (
    AAResults,
    BatchAAResults,
    is_mod_or_ref_set,
    is_mod_set,
    is_no_mod_ref,
)
from llvmpy_mid.analysis.alias.alias_result import AliasKind
from llvmpy_mid.analysis.alias.memory_location import NO_AA_TAGS, LocationSize, MemoryLocation
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.phi_trans_addr import PHITransAddr
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import BitCastInst
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, FenceInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree

from llvmpy_mid.analysis.memory_dependence_result import (
    _DIRTY_NONE,
    _NON_FUNC_LOCAL_RESULT,
    _NON_LOCAL_RESULT,
    _UNKNOWN_RESULT,
    NUM_RESULTS_LIMIT,
    MemDepResult,
    NonLocalDepEntry,
    NonLocalDepResult,
    ScanLimit,
    _can_skip_clobbering_store,
    _get_location,
    _is_complex_for_reordering,
    _is_dbg_info_intrinsic,
    _is_unordered,
    _NonLocalPointerInfo,
    _PtrKey,
    _remove_from_reverse_map,
    block_number_limit,
    block_scan_limit,
)

__all__ = [
    "NUM_RESULTS_LIMIT",
    "MemDepResult",
    "MemoryDependenceAnalysis",
    "MemoryDependenceResults",
    "NonLocalDepEntry",
    "NonLocalDepResult",
    "ScanLimit",
    "block_number_limit",
    "block_scan_limit",
]

class MemoryDependenceResults:
    """The memdep queries of one function, with their caches (LLVM
    ``MemoryDependenceResults``)."""

    def __init__(
        self,
        aa: AAResults,
        ac: AssumptionCache,
        tli: TargetLibraryInfo,
        dt: DominatorTree,
        default_block_scan_limit: int | None = None,
    ) -> None:
        self.aa = aa
        self.ac = ac
        self.tli = tli
        self.dt = dt
        self.default_block_scan_limit = block_scan_limit() if default_block_scan_limit is None else default_block_scan_limit
        from llvmpy_mid.analysis.alias.earliest_escape_info import EarliestEscapeInfo

        self.eii = EarliestEscapeInfo(dt, dt.function)
        self._local_deps: dict[Instruction, MemDepResult] = {}
        self._non_local_defs_cache: dict[Value, NonLocalDepResult] = {}
        self._reverse_non_local_defs_cache: dict[Instruction, set[Value]] = {}
        self._non_local_pointer_deps: dict[_PtrKey, _NonLocalPointerInfo] = {}
        self._reverse_non_local_ptr_deps: dict[Instruction, set[_PtrKey]] = {}
        self._non_local_deps_map: dict[Instruction, tuple[list[NonLocalDepEntry], list[bool]]] = {}
        self._reverse_local_deps: dict[Instruction, set[Instruction]] = {}
        self._reverse_non_local_deps: dict[Instruction, set[Instruction]] = {}
        self._pred_cache: dict[BasicBlock, list[BasicBlock]] = {}
        self._clobber_offsets: dict[LoadInst, int] = {}
        self._block_order: dict[BasicBlock, int] = {}

    # --- analysis-manager protocol -------------------------------------------------------------
    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        checker = pa.checker(MemoryDependenceAnalysis)
        if not checker.preserved() and not checker.preserved_set(AllAnalysesOnFunction):
            return True
        return inv.invalidate(AAManager) or inv.invalidate(AssumptionAnalysis) or inv.invalidate(DominatorTreeAnalysis)

    def get_default_block_scan_limit(self) -> int:
        return self.default_block_scan_limit

    def get_clobber_offset(self, dep_inst: LoadInst) -> int | None:
        """The offset of the partially aliasing load the last :meth:`get_dependency`
        returned as a clobber, when AA knew it."""
        return self._clobber_offsets.get(dep_inst)

    def release_memory(self) -> None:
        self._local_deps.clear()
        self._non_local_defs_cache.clear()
        self._reverse_non_local_defs_cache.clear()
        self._non_local_pointer_deps.clear()
        self._reverse_non_local_ptr_deps.clear()
        self._non_local_deps_map.clear()
        self._reverse_local_deps.clear()
        self._reverse_non_local_deps.clear()
        self._pred_cache.clear()
        self._clobber_offsets.clear()

    def _batch_aa(self) -> BatchAAResults:
        return BatchAAResults(self.aa, self.eii)

    def _preds(self, bb: BasicBlock) -> list[BasicBlock]:
        preds = self._pred_cache.get(bb)
        if preds is None:
            preds = bb.predecessors
            self._pred_cache[bb] = preds
        return preds

    def _order(self, bb: BasicBlock) -> int:
        n = self._block_order.get(bb)
        if n is None:
            n = len(self._block_order)
            self._block_order[bb] = n
        return n

    def _entry_key(self, entry: NonLocalDepEntry) -> int:
        return self._order(entry.bb)

    def _sort(self, cache: list[NonLocalDepEntry]) -> None:
        cache.sort(key=self._entry_key)

    def _find_entry(self, cache: list[NonLocalDepEntry], num_sorted: int, bb: BasicBlock) -> int:
        """The index of ``bb``'s entry among the first ``num_sorted`` (sorted) entries,
        or -1."""
        key = self._order(bb)
        i = bisect.bisect_right(cache, key, 0, num_sorted, key=self._entry_key)
        if i > 0 and cache[i - 1].bb is bb:
            return i - 1
        return -1

    @staticmethod
    def _entry_result(bb: BasicBlock) -> MemDepResult:
        fn = bb.parent
        if fn is not None and bb is not fn.entry_block:
            return _NON_LOCAL_RESULT
        return _NON_FUNC_LOCAL_RESULT

    # --- local scans --------------------------------------------------------------------------
    def _get_call_dependency_from(
        self, call: CallBase, is_read_only_call: bool, scan_it: Instruction | None, bb: BasicBlock
    ) -> MemDepResult:
        limit = self.default_block_scan_limit
        inst = bb.instructions.last if scan_it is None else scan_it.prev_instruction
        aa = self.aa
        while inst is not None:
            cur = inst
            inst = inst.prev_instruction
            if _is_dbg_info_intrinsic(cur):
                continue
            limit -= 1
            if not limit:
                return _UNKNOWN_RESULT
            mr, loc = _get_location(cur, self.tli)
            if loc is not None:
                if is_mod_or_ref_set(aa.get_mod_ref_info(call, loc)):
                    return MemDepResult.get_clobber(cur)
                continue
            if isinstance(cur, CallBase):
                if is_no_mod_ref(aa.get_mod_ref_info_calls(call, cur)):
                    if is_read_only_call and not is_mod_set(mr) and call.is_identical_to(cur):
                        return MemDepResult.get_def(cur)
                    continue
                return MemDepResult.get_clobber(cur)
            if is_mod_or_ref_set(mr):
                return MemDepResult.get_clobber(cur)
        return self._entry_result(bb)

    def get_pointer_dependency_from(
        self,
        loc: MemoryLocation,
        is_load: bool,
        scan_it: Instruction | None,
        bb: BasicBlock,
        query_inst: Instruction | None = None,
        limit: ScanLimit | None = None,
        batch_aa: BatchAAResults | None = None,
    ) -> MemDepResult:
        """The dependence of an access of ``loc`` among the instructions of ``bb`` before
        ``scan_it`` (all of them when None), invariant.group loads included."""
        if batch_aa is None:
            batch_aa = self._batch_aa()
        invariant_group_dep = _UNKNOWN_RESULT
        if query_inst is not None and isinstance(query_inst, LoadInst):
            invariant_group_dep = self.get_invariant_group_pointer_dependency(query_inst, bb)
            if invariant_group_dep.is_def():
                return invariant_group_dep
        simple_dep = self.get_simple_pointer_dependency_from(loc, is_load, scan_it, bb, query_inst, limit, batch_aa)
        if simple_dep.is_def():
            return simple_dep
        if invariant_group_dep.is_non_local():
            return invariant_group_dep
        return simple_dep

    def get_invariant_group_pointer_dependency(self, li: LoadInst, bb: BasicBlock) -> MemDepResult:
        """A dominating load or store of the same pointer with ``!invariant.group``: Def in
        ``bb``, NonLocal (cached for :meth:`get_non_local_pointer_dependency`) elsewhere."""
        if li.get_metadata("invariant.group") is None:
            return _UNKNOWN_RESULT
        from llvmpy_mid.ir.global_value import GlobalValue
        from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

        load_operand = strip_pointer_casts(li.operands[0])
        if isinstance(load_operand, GlobalValue):
            return _UNKNOWN_RESULT
        dt = self.dt
        queue: list[Value] = [load_operand]
        closest: Instruction | None = None
        while queue:
            ptr = queue.pop()
            for user in ptr.users:
                if not isinstance(user, Instruction) or user is li or not dt.dominates(user, li):
                    continue
                if isinstance(user, BitCastInst):
                    queue.append(user)
                    continue
                if isinstance(user, GetElementPtrInst) and user.has_all_zero_indices:
                    queue.append(user)
                    continue
                if (
                    isinstance(user, LoadInst) or (isinstance(user, StoreInst) and user.operands[1] is ptr)
                ) and user.get_metadata("invariant.group") is not None:
                    if closest is None or dt.dominates(closest, user):
                        closest = user
        if closest is None:
            return _UNKNOWN_RESULT
        parent = closest.parent
        assert parent is not None
        if parent is bb:
            return MemDepResult.get_def(closest)
        if li not in self._non_local_defs_cache:
            self._non_local_defs_cache[li] = NonLocalDepResult(parent, MemDepResult.get_def(closest), None)
        self._reverse_non_local_defs_cache.setdefault(closest, set()).add(li)
        return _NON_LOCAL_RESULT

    def get_simple_pointer_dependency_from(
        self,
        mem_loc: MemoryLocation,
        is_load: bool,
        scan_it: Instruction | None,
        bb: BasicBlock,
        query_inst: Instruction | None,
        limit: ScanLimit | None,
        batch_aa: BatchAAResults,
    ) -> MemDepResult:
        """The backward block scan of :meth:`get_pointer_dependency_from` (LLVM
        ``getSimplePointerDependencyFrom``)."""
        from llvmpy_mid.analysis.loads import get_pointer_alignment, is_no_alias_call
        from llvmpy_mid.analysis.underlying_objects import get_underlying_object

        is_invariant_load = False
        assert mem_loc.ptr is not None
        dl = _data_layout(bb)
        mem_loc_align = get_pointer_alignment(mem_loc.ptr, dl)
        if limit is None:
            limit = ScanLimit(self.default_block_scan_limit)
        if is_load and query_inst is not None and isinstance(query_inst, LoadInst):
            if query_inst.get_metadata("invariant.load") is not None:
                is_invariant_load = True
            mem_loc_align = query_inst.alignment
        tli = self.tli

        access_ptr: Value | None = None  # the underlying object of the location, computed once
        inst = bb.instructions.last if scan_it is None else scan_it.prev_instruction
        while inst is not None:
            cur = inst
            inst = inst.prev_instruction
            is_call = isinstance(cur, CallBase)
            base = cur.intrinsic_base if is_call else ""  # type: ignore[attr-defined]
            if base.startswith("llvm.dbg."):
                continue
            limit.value -= 1
            if not limit.value:
                return _UNKNOWN_RESULT

            if base:
                assert isinstance(cur, CallBase)
                if base == "llvm.lifetime.start":
                    arg_loc = MemoryLocation.get_after(cur.operands[1])
                    if batch_aa.is_must_alias(arg_loc, mem_loc):
                        return MemDepResult.get_def(cur)
                    continue
                if base == "llvm.masked.load" or base == "llvm.masked.store":
                    _, mloc = _get_location(cur, tli)
                    assert mloc is not None
                    r = batch_aa.alias(mloc, mem_loc)
                    if r.kind is AliasKind.NO_ALIAS:
                        continue
                    if r.kind is AliasKind.MUST_ALIAS:
                        return MemDepResult.get_def(cur)
                    if base == "llvm.masked.load":
                        continue
                    return MemDepResult.get_clobber(cur)

            tp = type(cur)
            if tp is LoadInst:
                assert isinstance(cur, LoadInst)
                if cur.is_volatile:
                    if query_inst is None or query_inst.is_volatile:
                        return MemDepResult.get_clobber(cur)
                if cur.is_atomic and cur.ordering.is_stronger_than_unordered:
                    if query_inst is None or _is_complex_for_reordering(query_inst, AtomicOrdering.NOT_ATOMIC):
                        return MemDepResult.get_clobber(cur)
                    if cur.ordering is not AtomicOrdering.MONOTONIC:
                        return MemDepResult.get_clobber(cur)
                load_loc = MemoryLocation.get(cur)
                r = batch_aa.alias(load_loc, mem_loc)
                if r.kind is AliasKind.NO_ALIAS:
                    continue
                if is_load:
                    if r.kind is AliasKind.MUST_ALIAS:
                        return MemDepResult.get_def(cur)
                    if r.kind is AliasKind.PARTIAL_ALIAS and r.offset is not None:
                        self._clobber_offsets[cur] = r.offset
                        return MemDepResult.get_clobber(cur)
                    continue
                if not is_mod_set(batch_aa.get_mod_ref_info_mask(load_loc)):
                    continue
                return MemDepResult.get_def(cur)

            if tp is StoreInst:
                assert isinstance(cur, StoreInst)
                if not _is_unordered(cur) and cur.is_atomic:
                    if query_inst is None or _is_complex_for_reordering(query_inst, AtomicOrdering.UNORDERED):
                        return MemDepResult.get_clobber(cur)
                if cur.is_volatile:
                    if query_inst is None or query_inst.is_volatile:
                        return MemDepResult.get_clobber(cur)
                if not is_mod_or_ref_set(batch_aa.get_mod_ref_info(cur, mem_loc)):
                    continue
                store_loc = MemoryLocation.get(cur)
                r = batch_aa.alias(store_loc, mem_loc)
                if r.kind is AliasKind.NO_ALIAS:
                    continue
                if r.kind is AliasKind.MUST_ALIAS:
                    return MemDepResult.get_def(cur)
                if is_invariant_load:
                    continue
                if _can_skip_clobbering_store(cur, mem_loc, mem_loc_align, batch_aa, limit.value):
                    continue
                return MemDepResult.get_clobber(cur)

            if tp is AllocaInst or (is_call and is_no_alias_call(cur)):
                if access_ptr is None:
                    access_ptr = get_underlying_object(mem_loc.ptr)
                if access_ptr is cur or batch_aa.is_must_alias(
                    MemoryLocation.get_before_or_after(cur), MemoryLocation.get_before_or_after(access_ptr)
                ):
                    return MemDepResult.get_def(cur)

            if tp is SelectInst and mem_loc.ptr is cur:
                return MemDepResult.get_def(cur)

            if cur.opcode not in _MAY_MOD_REF_OPCODES:
                continue  # AA's answer for any other instruction is NoModRef

            if is_invariant_load:
                continue

            if tp is FenceInst:
                assert isinstance(cur, FenceInst)
                if is_load and cur.ordering is AtomicOrdering.RELEASE:
                    continue

            mr = batch_aa.get_mod_ref_info(cur, mem_loc)
            if mr == ModRefInfo.NO_MOD_REF:
                continue
            if mr == ModRefInfo.REF and is_load:
                continue
            return MemDepResult.get_clobber(cur)

        return self._entry_result(bb)

    # --- get_dependency -----------------------------------------------------------------------
    def get_dependency(self, query_inst: Instruction) -> MemDepResult:
        """The dependence of a memory instruction within its own block (cached)."""
        self._clobber_offsets.clear()
        scan_pos: Instruction = query_inst
        cached = self._local_deps.get(query_inst, _DIRTY_NONE)
        if not cached.is_dirty():
            return cached
        dirty_inst = cached.get_inst()
        if dirty_inst is not None:
            scan_pos = dirty_inst
            _remove_from_reverse_map(self._reverse_local_deps, dirty_inst, query_inst)

        query_parent = query_inst.parent
        assert query_parent is not None
        result: MemDepResult
        if query_inst.prev_instruction is None:
            result = self._entry_result(query_parent)
        else:
            mr, mem_loc = _get_location(query_inst, self.tli)
            if mem_loc is not None:
                is_load = not is_mod_set(mr)
                if isinstance(query_inst, CallBase) and query_inst.intrinsic_base == "llvm.lifetime.start":
                    is_load = True
                result = self.get_pointer_dependency_from(mem_loc, is_load, scan_pos, query_parent, query_inst, None)
            elif isinstance(query_inst, CallBase):
                is_read_only = self.aa.only_reads_memory(query_inst)
                result = self._get_call_dependency_from(query_inst, is_read_only, scan_pos, query_parent)
            else:
                result = _UNKNOWN_RESULT
        self._local_deps[query_inst] = result
        dep_inst = result.get_inst()
        if dep_inst is not None:
            self._reverse_local_deps.setdefault(dep_inst, set()).add(query_inst)
        return result

    # --- non-local calls ----------------------------------------------------------------------
    def get_non_local_call_dependency(self, query_call: CallBase) -> list[NonLocalDepEntry]:
        """The dependences of a call whose local dependence is NonLocal, one entry per
        block reached backwards until a dependence (cached; the list is the cache)."""
        entry_pair = self._non_local_deps_map.get(query_call)
        if entry_pair is None:
            entry_pair = ([], [False])
            self._non_local_deps_map[query_call] = entry_pair
        cache, dirty_flag = entry_pair
        dirty_blocks: list[BasicBlock] = []
        if cache:
            if not dirty_flag[0]:
                return cache
            for e in cache:
                if e.result.is_dirty():
                    dirty_blocks.append(e.bb)
            self._sort(cache)
        else:
            qbb = query_call.parent
            assert qbb is not None
            dirty_blocks.extend(self._preds(qbb))

        is_readonly_call = self.aa.only_reads_memory(query_call)
        visited: set[BasicBlock] = set()
        num_sorted = len(cache)
        while dirty_blocks:
            dirty_bb = dirty_blocks.pop()
            if dirty_bb in visited:
                continue
            visited.add(dirty_bb)
            idx = self._find_entry(cache, num_sorted, dirty_bb)
            existing: NonLocalDepEntry | None = None
            if idx >= 0:
                if not cache[idx].result.is_dirty():
                    continue
                existing = cache[idx]
            scan_pos: Instruction | None = None
            if existing is not None:
                dirty_inst = existing.result.get_inst()
                if dirty_inst is not None:
                    scan_pos = dirty_inst
                    _remove_from_reverse_map(self._reverse_non_local_deps, dirty_inst, query_call)
            at_begin = dirty_bb.instructions.first is None if scan_pos is None else scan_pos.prev_instruction is None
            if not at_begin:
                dep = self._get_call_dependency_from(query_call, is_readonly_call, scan_pos, dirty_bb)
            else:
                dep = self._entry_result(dirty_bb)
            if existing is not None:
                existing.set_result(dep)
            else:
                cache.append(NonLocalDepEntry(dirty_bb, dep))
            if not dep.is_non_local():
                inst = dep.get_inst()
                if inst is not None:
                    self._reverse_non_local_deps.setdefault(inst, set()).add(query_call)
            else:
                dirty_blocks.extend(self._preds(dirty_bb))
        return cache

    # --- non-local pointers ---------------------------------------------------------------------
    def get_non_local_pointer_dependency(self, query_inst: Instruction, result: list[NonLocalDepResult]) -> None:
        """Fill ``result`` with the dependences of a load or store (whose local dependence
        is NonLocal) in the blocks that reach it, phi-translating the address into the
        predecessors."""
        loc = MemoryLocation.get(query_inst)
        is_load = isinstance(query_inst, LoadInst)
        from_bb = query_inst.parent
        assert from_bb is not None and loc.ptr is not None
        result.clear()
        found = self._non_local_defs_cache.pop(query_inst, None)
        if found is not None:
            result.append(found)
            def_inst = found.result.get_inst()
            assert def_inst is not None
            rev = self._reverse_non_local_defs_cache.get(def_inst)
            if rev is not None:
                rev.discard(query_inst)
            return
        ordered = isinstance(query_inst, (LoadInst, StoreInst)) and not _is_unordered(query_inst)
        if query_inst.is_volatile or ordered:
            result.append(NonLocalDepResult(from_bb, _UNKNOWN_RESULT, loc.ptr))
            return
        address = PHITransAddr(loc.ptr, _data_layout(from_bb), self.ac)
        visited: dict[BasicBlock, Value | None] = {}
        if self._get_non_local_pointer_dep_from_bb(_DepFromBBArgs(query_inst, address, loc, is_load, from_bb, result, visited, True)):
            return
        result.clear()
        result.append(NonLocalDepResult(from_bb, _UNKNOWN_RESULT, loc.ptr))

    def _get_non_local_info_for_block(
        self,
        query_inst: Instruction | None,
        loc: MemoryLocation,
        is_load: bool,
        bb: BasicBlock,
        cache: list[NonLocalDepEntry],
        num_sorted: int,
        batch_aa: BatchAAResults,
    ) -> MemDepResult:
        is_invariant_load = isinstance(query_inst, LoadInst) and query_inst.get_metadata("invariant.load") is not None
        idx = self._find_entry(cache, num_sorted, bb)
        existing = cache[idx] if idx >= 0 else None
        if existing is not None and is_invariant_load and not existing.result.is_non_func_local():
            existing = None
        if existing is not None and not existing.result.is_dirty():
            return existing.result
        scan_pos: Instruction | None = None
        assert loc.ptr is not None
        cache_key: _PtrKey = (loc.ptr, is_load)
        if existing is not None and existing.result.get_inst() is not None:
            scan_pos = existing.result.get_inst()
            assert scan_pos is not None and scan_pos.parent is bb
            _remove_from_reverse_map(self._reverse_non_local_ptr_deps, scan_pos, cache_key)
        dep = self.get_pointer_dependency_from(loc, is_load, scan_pos, bb, query_inst, None, batch_aa)
        if is_invariant_load:
            return dep
        if existing is not None:
            existing.set_result(dep)
        else:
            cache.append(NonLocalDepEntry(bb, dep))
        if not dep.is_local():
            return dep
        inst = dep.get_inst()
        assert inst is not None
        self._reverse_non_local_ptr_deps.setdefault(inst, set()).add(cache_key)
        return dep

    def _sort_cache(self, cache: list[NonLocalDepEntry], num_sorted: int) -> None:
        """Re-sort ``cache`` whose first ``num_sorted`` entries are in order."""
        added = len(cache) - num_sorted
        if added == 0:
            return
        if added <= 2:
            tail = cache[num_sorted:]
            del cache[num_sorted:]
            for e in tail:
                bisect.insort_right(cache, e, key=self._entry_key)
            return
        self._sort(cache)

    def _get_non_local_pointer_dep_from_bb(self, args: _DepFromBBArgs) -> bool:
        """LLVM ``getNonLocalPointerDepFromBB``: False when the answer cannot be given
        (treat as a clobber at the start of the predecessor).

        LLVM recurses into each predecessor a phi translation reaches; here each such
        query is a generator that yields its sub-queries to this driver, which runs them
        on an explicit stack (a long chain of translated blocks cannot overflow)."""
        stack: list[Generator[_DepFromBBArgs, bool, bool]] = [self._dep_from_bb_steps(args)]
        value = False
        started = False
        while True:
            top = stack[-1]
            try:
                request = top.send(value) if started else next(top)
            except StopIteration as done:
                stack.pop()
                value = bool(done.value)
                started = True
                if not stack:
                    return value
                continue
            stack.append(self._dep_from_bb_steps(request))
            started = False

    def _dep_from_bb_steps(self, args: _DepFromBBArgs) -> Generator[_DepFromBBArgs, bool, bool]:
        """The body of :meth:`_get_non_local_pointer_dep_from_bb`; yields sub-queries."""
        query_inst = args.query_inst
        pointer = args.pointer
        loc = args.loc
        is_load = args.is_load
        start_bb = args.start_bb
        result = args.result
        visited = args.visited
        skip_first_block = args.skip_first_block
        is_incomplete = args.is_incomplete
        addr = pointer.get_addr()
        assert addr is not None
        cache_key: _PtrKey = (addr, is_load)
        is_invariant_load = isinstance(query_inst, LoadInst) and query_inst.get_metadata("invariant.load") is not None
        while True:
            restart, is_incomplete = self._reconcile_cache(cache_key, loc, is_invariant_load, is_incomplete)
            if restart is None:
                break
            loc = restart
        cache_info = self._non_local_pointer_deps[cache_key]
        cache: list[NonLocalDepEntry] | None = cache_info.non_local_deps
        dt = self.dt

        if not is_incomplete and not is_invariant_load and cache_info.pair == (start_bb, skip_first_block):
            assert cache is not None
            if visited:
                for e in cache:
                    v = visited.get(e.bb, _MISSING)
                    if v is _MISSING or v is addr:
                        continue
                    return False
            for e in cache:
                visited[e.bb] = addr
                if e.result.is_non_local():
                    continue
                if dt.is_reachable(e.bb):
                    result.append(NonLocalDepResult(e.bb, e.result, addr))
            return True

        if not is_invariant_load:
            if not is_incomplete and not cache:
                cache_info.pair = (start_bb, skip_first_block)
            else:
                cache_info.pair = None

        worklist: list[BasicBlock] = [start_bb]
        pred_list: list[tuple[BasicBlock, PHITransAddr]] = []
        assert cache is not None
        num_sorted = len(cache)
        worklist_entries = block_number_limit()
        batch_aa = self._batch_aa()

        while worklist:
            bb = worklist.pop()
            if len(result) > NUM_RESULTS_LIMIT:
                if cache is not None and num_sorted != len(cache):
                    self._sort_cache(cache, num_sorted)
                cache_info.pair = None
                return False

            if not skip_first_block:
                assert bb in visited, "should check visited before adding to the worklist"
                assert cache is not None
                dep = self._get_non_local_info_for_block(query_inst, loc, is_load, bb, cache, num_sorted, batch_aa)
                if not dep.is_non_local():
                    if dt.is_reachable(bb):
                        result.append(NonLocalDepResult(bb, dep, addr))
                        continue

            failed = False
            if not pointer.needs_phi_translation_from_block(bb):
                skip_first_block = False
                new_blocks: list[BasicBlock] = []
                for pred in self._preds(bb):
                    seen = visited.get(pred, _MISSING)
                    if seen is _MISSING:
                        visited[pred] = addr
                        new_blocks.append(pred)
                        continue
                    if seen is not addr:
                        for nb in new_blocks:
                            del visited[nb]
                        failed = True
                        break
                if not failed:
                    if len(new_blocks) > worklist_entries:
                        for nb in new_blocks:
                            del visited[nb]
                        failed = True
                    else:
                        worklist_entries -= len(new_blocks)
                        worklist.extend(new_blocks)
                        continue
            elif not pointer.is_potentially_phi_translatable():
                failed = True
            else:
                if cache is not None and num_sorted != len(cache):
                    self._sort_cache(cache, num_sorted)
                    num_sorted = len(cache)
                cache = None
                pred_list.clear()
                for pred in self._preds(bb):
                    pred_pointer = pointer.copy()
                    pred_list.append((pred, pred_pointer))
                    pred_ptr_val = pred_pointer.translate_value(bb, pred, dt, False)
                    seen = visited.get(pred, _MISSING)
                    if seen is _MISSING:
                        visited[pred] = pred_ptr_val
                        continue
                    pred_list.pop()
                    if seen is pred_ptr_val:
                        continue
                    for p, _ in pred_list:
                        del visited[p]
                    failed = True
                    break
                if not failed:
                    for pred, pred_pointer in pred_list:
                        pred_ptr_val = pred_pointer.get_addr()
                        ok = pred_ptr_val is not None and (
                            yield _DepFromBBArgs(query_inst, pred_pointer, loc.with_ptr(pred_ptr_val), is_load, pred, result, visited)
                        )
                        if not ok:
                            result.append(NonLocalDepResult(pred, _UNKNOWN_RESULT, pred_ptr_val))
                            info = self._non_local_pointer_deps.get(cache_key)
                            if info is None:
                                info = _NonLocalPointerInfo(LocationSize.after_pointer(), NO_AA_TAGS)
                                self._non_local_pointer_deps[cache_key] = info
                            info.pair = None
                    cache_info = self._nlpi(cache_key)
                    cache = cache_info.non_local_deps
                    num_sorted = len(cache)
                    cache_info.pair = None
                    skip_first_block = False
                    continue

            # Translation failure for this block.
            if cache is None:
                cache_info = self._nlpi(cache_key)
                cache = cache_info.non_local_deps
                num_sorted = len(cache)
            cache_info.pair = None
            if skip_first_block:
                return False
            if not is_invariant_load:
                for e in reversed(cache):
                    if e.bb is not bb:
                        continue
                    e.set_result(_UNKNOWN_RESULT)
                    break
            result.append(NonLocalDepResult(bb, _UNKNOWN_RESULT, addr))

        assert cache is not None
        self._sort_cache(cache, num_sorted)
        return True

    def _nlpi(self, key: _PtrKey) -> _NonLocalPointerInfo:
        info = self._non_local_pointer_deps.get(key)
        if info is None:
            info = _NonLocalPointerInfo(LocationSize.after_pointer(), NO_AA_TAGS)
            self._non_local_pointer_deps[key] = info
        return info

    def _reconcile_cache(
        self, key: _PtrKey, loc: MemoryLocation, is_invariant_load: bool, is_incomplete: bool
    ) -> tuple[MemoryLocation | None, bool]:
        """Find or create the cache entry of ``key`` and reconcile its size and AA tags
        with ``loc``'s: returns the location to restart the query with (None to go on)
        and whether the cache is now known incomplete."""
        info = self._non_local_pointer_deps.get(key)
        if info is None:
            self._non_local_pointer_deps[key] = _NonLocalPointerInfo(loc.size, loc.aa_tags)
            return None, is_incomplete
        if is_invariant_load:
            return None, is_incomplete
        if info.size != loc.size:
            if info.size.has_value and loc.size.has_value:
                throw_out = info.size.is_precise != loc.size.is_precise or not _known_ge(info.size, loc.size)
            else:
                throw_out = not loc.size.has_value
            if not throw_out:
                return loc.with_size(info.size), is_incomplete
            info.pair = None
            info.size = loc.size
            self._clear_entries(info, key)
            is_incomplete = True
        if info.aa_tags != loc.aa_tags:
            if info.aa_tags:
                info.pair = None
                info.aa_tags = NO_AA_TAGS
                self._clear_entries(info, key)
                is_incomplete = True
            if loc.aa_tags:
                return loc.without_aa_tags(), is_incomplete
        return None, is_incomplete

    def _clear_entries(self, info: _NonLocalPointerInfo, key: _PtrKey) -> None:
        for e in info.non_local_deps:
            inst = e.result.get_inst()
            if inst is not None:
                _remove_from_reverse_map(self._reverse_non_local_ptr_deps, inst, key)
        info.non_local_deps.clear()

    # --- invalidation -------------------------------------------------------------------------
    def _remove_cached_non_local_pointer_dependencies(self, key: _PtrKey) -> None:
        ptr = key[0]
        if self._non_local_defs_cache:
            found = self._non_local_defs_cache.pop(ptr, None)
            if found is not None:
                def_inst = found.result.get_inst()
                assert def_inst is not None
                _remove_from_reverse_map(self._reverse_non_local_defs_cache, def_inst, ptr)
            if isinstance(ptr, Instruction):
                users = self._reverse_non_local_defs_cache.pop(ptr, None)
                if users is not None:
                    for entry in users:
                        self._non_local_defs_cache.pop(entry, None)
        info = self._non_local_pointer_deps.pop(key, None)
        if info is None:
            return
        for e in info.non_local_deps:
            target = e.result.get_inst()
            if target is None:
                continue
            _remove_from_reverse_map(self._reverse_non_local_ptr_deps, target, key)

    def invalidate_cached_pointer_info(self, ptr: Value) -> None:
        """Forget the non-local answers cached for ``ptr`` (loads and stores)."""
        if not ptr.type.is_pointer:
            return
        self._remove_cached_non_local_pointer_dependencies((ptr, False))
        self._remove_cached_non_local_pointer_dependencies((ptr, True))

    def invalidate_cached_predecessors(self) -> None:
        """Forget the cached predecessor lists (after a CFG change)."""
        self._pred_cache.clear()

    def remove_instruction(self, rem_inst: Instruction) -> None:
        """Forget ``rem_inst`` before it is erased: its own cached answers go, and answers
        that named it become dirty, to be recomputed from the instruction after it."""
        self.eii.remove_instruction(rem_inst)
        entry_pair = self._non_local_deps_map.pop(rem_inst, None)
        if entry_pair is not None:
            for e in entry_pair[0]:
                inst = e.result.get_inst()
                if inst is not None:
                    _remove_from_reverse_map(self._reverse_non_local_deps, inst, rem_inst)

        local = self._local_deps.pop(rem_inst, None)
        if local is not None:
            inst = local.get_inst()
            if inst is not None:
                _remove_from_reverse_map(self._reverse_local_deps, inst, rem_inst)

        if rem_inst.type.is_pointer:
            self._remove_cached_non_local_pointer_dependencies((rem_inst, False))
            self._remove_cached_non_local_pointer_dependencies((rem_inst, True))
        else:
            found = self._non_local_defs_cache.pop(rem_inst, None)
            if found is not None:
                dep_v = found.result.get_inst()
                assert dep_v is not None
                rev = self._reverse_non_local_defs_cache.get(dep_v)
                if rev is not None:
                    rev.discard(rem_inst)

        new_dirty = _DIRTY_NONE
        if not rem_inst.is_terminator:
            new_dirty = MemDepResult.get_dirty(rem_inst.next_instruction)
        next_inst = new_dirty.get_inst()

        dependents = self._reverse_local_deps.pop(rem_inst, None)
        if dependents is not None:
            assert next_inst is not None, "nothing can locally depend on a terminator"
            for dep_on in dependents:
                self._local_deps[dep_on] = new_dirty
            self._reverse_local_deps.setdefault(next_inst, set()).update(dependents)

        dependents = self._reverse_non_local_deps.pop(rem_inst, None)
        if dependents is not None:
            to_add: list[Instruction] = []
            for i in dependents:
                info_pair = self._non_local_deps_map.get(i)
                if info_pair is None:
                    info_pair = ([], [False])
                    self._non_local_deps_map[i] = info_pair
                info_pair[1][0] = True
                for e in info_pair[0]:
                    if e.result.get_inst() is not rem_inst:
                        continue
                    e.set_result(new_dirty)
                    if next_inst is not None:
                        to_add.append(i)
            if next_inst is not None and to_add:
                self._reverse_non_local_deps.setdefault(next_inst, set()).update(to_add)

        ptr_keys = self._reverse_non_local_ptr_deps.pop(rem_inst, None)
        if ptr_keys is not None:
            ptr_to_add: list[_PtrKey] = []
            for key in ptr_keys:
                info = self._nlpi(key)
                info.pair = None
                for e in info.non_local_deps:
                    if e.result.get_inst() is not rem_inst:
                        continue
                    e.set_result(new_dirty)
                    if next_inst is not None:
                        ptr_to_add.append(key)
                self._sort(info.non_local_deps)
            if next_inst is not None and ptr_to_add:
                self._reverse_non_local_ptr_deps.setdefault(next_inst, set()).update(ptr_to_add)


_MISSING: Any = object()

#: The opcodes ``AAResults.getModRefInfo(I, Loc)`` may answer other than NoModRef for.
_MAY_MOD_REF_OPCODES = frozenset(
    ("load", "store", "call", "invoke", "callbr", "fence", "va_arg", "cmpxchg", "atomicrmw", "catchpad", "catchret")
)


class _DepFromBBArgs:
    """The arguments of one ``getNonLocalPointerDepFromBB`` query."""

    __slots__ = ("query_inst", "pointer", "loc", "is_load", "start_bb", "result", "visited", "skip_first_block", "is_incomplete")

    def __init__(
        self,
        query_inst: Instruction,
        pointer: PHITransAddr,
        loc: MemoryLocation,
        is_load: bool,
        start_bb: BasicBlock,
        result: list[NonLocalDepResult],
        visited: dict[BasicBlock, Value | None],
        skip_first_block: bool = False,
        is_incomplete: bool = False,
    ) -> None:
        self.query_inst = query_inst
        self.pointer = pointer
        self.loc = loc
        self.is_load = is_load
        self.start_bb = start_bb
        self.result = result
        self.visited = visited
        self.skip_first_block = skip_first_block
        self.is_incomplete = is_incomplete


def _known_ge(a: LocationSize, b: LocationSize) -> bool:
    """``TypeSize::isKnownGE`` of two sizes with values."""
    if not a.is_scalable and b.is_scalable:
        return False
    return a.value >= b.value


def _data_layout(bb: BasicBlock) -> Any:
    from llvmpy_mid.ir.data_layout import DataLayout

    module = bb.module
    return module.data_layout if module is not None else DataLayout.default()


class MemoryDependenceAnalysis(FunctionAnalysis[MemoryDependenceResults]):
    """The ``memdep`` function analysis (LLVM ``MemoryDependenceAnalysis``)."""

    name: ClassVar[str] = "memdep"

    def __init__(self, default_block_scan_limit: int | None = None) -> None:
        self.default_block_scan_limit = default_block_scan_limit

    def run(self, unit: Function, am: AnalysisManager[Function]) -> MemoryDependenceResults:
        aa = am.get_result(AAManager, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        return MemoryDependenceResults(aa, ac, tli, dt, self.default_block_scan_limit)
