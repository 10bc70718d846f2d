"""MemorySSA's clobber walkers and use optimiser (LLVM 19.1.7 ``lib/Analysis/MemorySSA.cpp``:
``ClobberWalker``, ``ClobberWalkerBase``, ``CachingWalker``, ``SkipSelfWalker``,
``DoNothingMemorySSAWalker``, ``OptimizeUses``, ``instructionClobbersQuery``).

What: ``walker.get_clobbering_memory_access(access)`` is the nearest dominating access
that may really clobber ``access``'s location (for a def, its own location; with
``loc``, that location from ``access`` upwards); the answer for a use or def is cached
on the access (``is_optimized``/``get_optimized``). :class:`SkipSelfWalker` looks past
the def it is asked about. :class:`OptimizeUses` (``MemorySSA.ensure_optimized_uses``)
points every use at its clobber in one dominator-tree walk.

How (as LLVM): the walker follows defining accesses upwards, asking AA at each def
(``instructionClobbersQuery``: marker intrinsics clobber nothing, calls ask the
call-call mod/ref, loads only clobber loads they cannot be reordered with, otherwise
"may it modify the location"); at a phi it splits into one path per incoming
(``upward_defs``: the address phi-translated, widened when not loop invariant) and runs
the paths as LLVM's ``tryOptimizePhi`` does: paused searches up to the phi's walk target
(the last def of the nearest dominator with defs), terminated paths, and the most
dominated clobber as the answer, or the phi itself when the paths disagree. The walk is
bounded by ``-memssa-check-limit`` (default 100) defs per query, as LLVM; a query that
runs out returns the def where it stopped. ``!invariant.group`` loads and stores find
the most dominating access of the same pointer with the same metadata first.
``OptimizeUses`` keeps LLVM's version stack, per-location lower bounds and last kills,
and skips a use with more than ``-memssa-check-limit`` stores to disambiguate.

The walk limit is a :class:`WalkLimit` (LLVM's ``unsigned &UpwardWalkLimit``); the public
entry points without one use a fresh ``-memssa-check-limit``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults, is_mod_or_ref_set, is_mod_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.memory_ssa import (
    MemoryAccess,
    MemoryDef,
    MemoryPhi,
    MemoryUse,
    MemoryUseOrDef,
    def_chain,
    is_use_trivially_optimizable_to_live_on_entry,
    upward_defs,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS

if TYPE_CHECKING:
    from llvmpy_mid.analysis.memory_ssa import MemorySSA

#: Intrinsics that MemorySSA models as defs but that clobber nothing.
_MARKER_INTRINSICS = frozenset(
    ("llvm.allow.runtime.check", "llvm.allow.ubsan.check", "llvm.invariant.start", "llvm.invariant.end",
     "llvm.assume", "llvm.experimental.noalias.scope.decl", "llvm.pseudoprobe")
)  # fmt: skip

_FENCE_LIKE_OPCODES = frozenset(("fence", "catchpad", "catchret"))

_EMPTY_LOC = MemoryLocation(None)


def max_check_limit() -> int:
    """``-memssa-check-limit`` (default 100)."""
    try:
        value = OPTIONS.value("memssa-check-limit")
    except KeyError:  # the registry (which declares it) is not loaded
        return 100
    return int(value) if isinstance(value, int) else 100


class WalkLimit:
    """How many more defs a walk may look at (LLVM's ``unsigned &UpwardWalkLimit``)."""

    __slots__ = ("value",)

    def __init__(self, value: int | None = None) -> None:
        self.value = max_check_limit() if value is None else value

    def __repr__(self) -> str:
        return "WalkLimit(%d)" % self.value


# --- the clobber predicate ----------------------------------------------------------------------


def are_loads_reorderable(use: LoadInst, may_clobber: LoadInst) -> bool:
    """May ``use`` be hoisted above ``may_clobber`` (both loads)?"""
    if use.is_volatile and may_clobber.is_volatile:
        return False
    seq_cst_use = use.ordering is AtomicOrdering.SEQ_CST
    clobber_is_acquire = may_clobber.ordering.is_at_least(AtomicOrdering.ACQUIRE)
    return not (seq_cst_use or clobber_is_acquire)


def instruction_clobbers_query(
    md: MemoryDef, use_loc: MemoryLocation, use_inst: Instruction | None, aa: BatchAAResults | AAResults
) -> bool:
    """Does the def ``md`` clobber ``use_loc`` as read by ``use_inst`` (LLVM
    ``instructionClobbersQuery``)?"""
    def_inst = md.memory_inst
    assert def_inst is not None
    if isinstance(def_inst, CallBase):
        base = def_inst.intrinsic_base
        if base and base in _MARKER_INTRINSICS:
            return False
    if use_inst is not None and isinstance(use_inst, CallBase):
        return is_mod_or_ref_set(aa.get_mod_ref_info_call(def_inst, use_inst))
    if type(def_inst) is LoadInst and type(use_inst) is LoadInst:
        return not are_loads_reorderable(use_inst, def_inst)
    return is_mod_set(aa.get_mod_ref_info(def_inst, use_loc))


def def_clobbers_use_or_def(md: MemoryDef, mu: MemoryUseOrDef, aa: BatchAAResults | AAResults) -> bool:
    """LLVM ``MemorySSAUtil::defClobbersUseOrDef``."""
    inst = mu.memory_inst
    assert inst is not None
    key = memory_loc_or_call(inst)
    loc = key[1] if not key[0] else _EMPTY_LOC
    assert isinstance(loc, MemoryLocation)
    return instruction_clobbers_query(md, loc, inst, aa)


def memory_loc_or_call(inst: Instruction) -> tuple[object, ...]:
    """LLVM ``MemoryLocOrCall`` as a hashable key: ``(True, callee, *args)`` for a call,
    ``(False, location)`` otherwise (the empty location for a fence)."""
    if isinstance(inst, CallBase):
        return (True, inst.called_operand, *inst.args)
    if type(inst).__name__ == "FenceInst":
        return (False, _EMPTY_LOC)
    loc = MemoryLocation.get_or_none(inst)
    return (False, loc if loc is not None else _EMPTY_LOC)


def _is_fence_like(inst: Instruction) -> bool:
    return inst.opcode in _FENCE_LIKE_OPCODES


# --- the path search ----------------------------------------------------------------------------


class UpwardsMemoryQuery:
    """One clobber query (LLVM ``UpwardsMemoryQuery``)."""

    __slots__ = ("is_call", "starting_loc", "inst", "original_access", "skip_self_access")

    def __init__(self, inst: Instruction | None = None, access: MemoryAccess | None = None) -> None:
        self.is_call = inst is not None and isinstance(inst, CallBase)
        self.starting_loc = _EMPTY_LOC
        self.inst = inst
        self.original_access = access
        self.skip_self_access = False
        if inst is not None and not self.is_call:
            loc = MemoryLocation.get_or_none(inst)
            self.starting_loc = loc if loc is not None else _EMPTY_LOC


class _DefPath:
    __slots__ = ("loc", "first", "last", "previous")

    def __init__(self, loc: MemoryLocation, first: MemoryAccess, last: MemoryAccess, previous: int | None) -> None:
        self.loc = loc
        self.first = first
        self.last = last
        self.previous = previous


_TerminatedPath = tuple[MemoryAccess, int]


class ClobberWalker:
    """LLVM ``ClobberWalker``: the upward search with paths through phis."""

    __slots__ = ("mssa", "dt", "aa", "query", "limit", "paths", "visited_phis")

    def __init__(self, mssa: MemorySSA, dt: DominatorTree) -> None:
        self.mssa = mssa
        self.dt = dt
        self.aa: BatchAAResults | None = None
        self.query: UpwardsMemoryQuery | None = None
        self.limit: WalkLimit | None = None
        self.paths: list[_DefPath] = []
        self.visited_phis: set[tuple[MemoryAccess, MemoryLocation]] = set()

    def _get_walk_target(self, phi: MemoryPhi) -> MemoryAccess:
        mssa = self.mssa
        idom = self.dt.idom
        bb = idom(phi.block)
        while bb is not None:
            defs = mssa.get_block_defs(bb)
            if defs:
                return defs[-1]
            bb = idom(bb)
        return mssa.live_on_entry

    def _walk_to_phi_or_clobber(
        self, desc: _DefPath, stop_at: MemoryAccess | None = None, skip_stop_at: MemoryAccess | None = None
    ) -> tuple[MemoryAccess, bool]:
        limit = self.limit
        assert limit is not None
        query = self.query
        assert query is not None
        aa = self.aa
        assert aa is not None
        live = self.mssa.live_on_entry
        limit_already_reached = False
        if not limit.value:
            limit.value = 1
            limit_already_reached = True
        current: MemoryAccess | None = desc.last
        while current is not None:
            desc.last = current
            if current is stop_at or current is skip_stop_at:
                return current, False
            if type(current) is MemoryDef:
                assert isinstance(current, MemoryDef)
                if current is live:
                    return current, True
                limit.value -= 1
                if not limit.value:
                    return current, True
                if instruction_clobbers_query(current, desc.loc, query.inst, aa):
                    return current, True
            if isinstance(current, MemoryUseOrDef):
                current = current._operands[0].value
            else:
                current = None
        if limit_already_reached:
            limit.value = 0
        assert isinstance(desc.last, MemoryPhi), "walk ended at a non-clobber that is not a phi"
        return desc.last, False

    def _add_searches(self, phi: MemoryPhi, paused: list[int], prior: int) -> None:
        paths = self.paths
        for access, loc, _ in upward_defs(phi, paths[prior].loc, self.dt):
            paused.append(len(paths))
            paths.append(_DefPath(loc, access, access, prior))

    def _get_blocking_access(
        self, stop_where: MemoryAccess, paused: list[int], new_paused: list[int], terminated: list[_TerminatedPath]
    ) -> _TerminatedPath | None:
        paths = self.paths
        visited = self.visited_phis
        query = self.query
        assert query is not None
        mssa = self.mssa
        while paused:
            index = paused.pop()
            node = paths[index]
            key = (node.last, node.loc)
            if key in visited:
                continue
            visited.add(key)
            skip_stop_where: MemoryAccess | None = None
            if query.skip_self_access and node.loc == query.starting_loc:
                assert isinstance(query.original_access, MemoryDef)
                skip_stop_where = query.original_access
            result, known = self._walk_to_phi_or_clobber(node, stop_where, skip_stop_where)
            if known:
                term = (result, index)
                if not mssa.dominates(result, stop_where):
                    return term
                terminated.append(term)
                continue
            if result is stop_where or result is skip_stop_where:
                if result is not skip_stop_where:
                    new_paused.append(index)
                continue
            assert isinstance(result, MemoryPhi)
            self._add_searches(result, paused, index)
        return None

    def _move_dominated_path_to_end(self, lst: list[_TerminatedPath]) -> None:
        dominates = self.mssa.dominates
        dom = 0
        for i in range(1, len(lst)):
            if not dominates(lst[i][0], lst[dom][0]):
                dom = i
        last = len(lst) - 1
        if last != dom:
            lst[last], lst[dom] = lst[dom], lst[last]

    def _try_optimize_phi(
        self, phi: MemoryPhi, start: MemoryAccess, loc: MemoryLocation
    ) -> tuple[_TerminatedPath, list[_TerminatedPath]]:
        paths = self.paths
        paths.append(_DefPath(loc, start, phi, None))
        prior_paths_size = len(paths)
        paused: list[int] = []
        new_paused: list[int] = []
        terminated: list[_TerminatedPath] = []
        self._add_searches(phi, paused, 0)
        current = phi
        dt = self.dt
        while True:
            target = self._get_walk_target(current)
            blocker = self._get_blocking_access(target, paused, new_paused, terminated)
            if blocker is not None:
                n: int | None = blocker[1]
                while n is not None and n >= prior_paths_size:
                    n = paths[n].previous
                assert n is not None
                return (paths[n].last, n), []
            if not new_paused:
                self._move_dominated_path_to_end(terminated)
                result = terminated.pop()
                return result, terminated
            def_chain_end: MemoryAccess | None = None
            clobbers: list[_TerminatedPath] = []
            for index in new_paused:
                res, known = self._walk_to_phi_or_clobber(paths[index])
                if known:
                    clobbers.append((res, index))
                else:
                    def_chain_end = res
            if terminated:
                if def_chain_end is None:
                    for ma in def_chain(target):
                        def_chain_end = ma
                assert def_chain_end is not None
                chain_bb = def_chain_end.block
                for tp in terminated:
                    if dt.dominates_block(chain_bb, tp[0].block):
                        clobbers.append(tp)
            if clobbers:
                self._move_dominated_path_to_end(clobbers)
                result = clobbers.pop()
                return result, clobbers
            assert isinstance(def_chain_end, MemoryPhi)
            prior_paths_size = len(paths)
            paused.clear()
            for index in new_paused:
                self._add_searches(def_chain_end, paused, index)
            new_paused.clear()
            current = def_chain_end

    def find_clobber(self, baa: BatchAAResults, start: MemoryAccess, query: UpwardsMemoryQuery, limit: WalkLimit) -> MemoryAccess:
        """The clobber of ``query`` walking up from ``start`` (LLVM ``findClobber``)."""
        self.aa = baa
        self.query = query
        self.limit = limit
        if not limit.value:
            limit.value += 1
        current: MemoryAccess = start
        if type(start) is MemoryUse:
            d = start.get_defining_access()
            assert d is not None
            current = d
        first = _DefPath(query.starting_loc, current, current, None)
        result, known = self._walk_to_phi_or_clobber(first)
        if not known:
            last = first.last
            assert isinstance(last, MemoryPhi)
            try:
                primary, _others = self._try_optimize_phi(last, current, query.starting_loc)
            finally:
                self.paths.clear()
                self.visited_phis.clear()
            result = primary[0]
        return result


# --- !invariant.group ---------------------------------------------------------------------------


def _load_store_pointer(inst: Instruction) -> Value | None:
    tp = type(inst)
    if tp is LoadInst:
        return inst.operands[0]
    if tp is StoreInst:
        return inst.operands[1]
    return None


def get_invariant_group_clobbering_instruction(inst: Instruction, dt: DominatorTree) -> Instruction | None:
    """The most dominating load/store of the same pointer (through bitcasts and all-zero
    GEPs) that also has ``!invariant.group`` (LLVM ``getInvariantGroupClobberingInstruction``)."""
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    if inst.get_metadata("invariant.group") is None or inst.is_volatile:
        return None
    ptr0 = _load_store_pointer(inst)
    if ptr0 is None:
        return None
    ptr0 = strip_pointer_casts(ptr0)
    if isinstance(ptr0, Constant):
        return None
    queue: list[Value] = [ptr0]
    most: Instruction = inst
    while queue:
        ptr = queue.pop()
        for user in ptr.users:
            if not isinstance(user, Instruction) or user is inst or not dt.dominates(user, most):
                continue
            if user.opcode == "bitcast":
                queue.append(user)
                continue
            if isinstance(user, GetElementPtrInst):
                if user.has_all_zero_indices:
                    queue.append(user)
                continue
            if user.get_metadata("invariant.group") is not None and _load_store_pointer(user) is ptr and not user.is_volatile:
                most = user
    return None if most is inst else most


# --- the walkers --------------------------------------------------------------------------------


class ClobberWalkerBase:
    """The shared search state of the caching and skip-self walkers (LLVM
    ``MemorySSA::ClobberWalkerBase``)."""

    __slots__ = ("walker", "mssa")

    def __init__(self, mssa: MemorySSA, dt: DominatorTree) -> None:
        self.walker = ClobberWalker(mssa, dt)
        self.mssa = mssa

    def get_clobbering_memory_access_loc(
        self, start: MemoryAccess, loc: MemoryLocation, baa: BatchAAResults, limit: WalkLimit
    ) -> MemoryAccess:
        """The clobber of ``loc`` from ``start`` (a def or phi) upwards; not cached."""
        assert type(start) is not MemoryUse, "a use cannot be a defining access"
        if loc.ptr is None:
            return start
        if isinstance(start, MemoryUseOrDef):
            if start is self.mssa.live_on_entry:
                return start
            inst = start.memory_inst
            assert inst is not None
            if not isinstance(inst, CallBase) and _is_fence_like(inst):
                return start
        query = UpwardsMemoryQuery()
        query.original_access = start
        query.starting_loc = loc
        return self.walker.find_clobber(baa, start, query, limit)

    def get_clobbering_memory_access_base(
        self, ma: MemoryAccess, baa: BatchAAResults, limit: WalkLimit, skip_self: bool, use_invariant_group: bool = True
    ) -> MemoryAccess:
        """The clobber of the use/def ``ma`` (cached on it); a phi is its own answer."""
        if not isinstance(ma, MemoryUseOrDef):
            return ma
        start = ma
        mssa = self.mssa
        inst = start.memory_inst
        assert inst is not None
        if use_invariant_group:
            found = get_invariant_group_clobbering_instruction(inst, mssa.dt)
            if found is not None:
                clobber = mssa.get_memory_access(found)
                assert clobber is not None
                if type(clobber) is MemoryUse:
                    d = clobber.get_defining_access()
                    assert d is not None
                    return d
                return clobber  # type: ignore[no-any-return]
        is_optimized = False
        if start.is_optimized():
            if not skip_self or type(start) is not MemoryDef:
                opt = start.get_optimized()
                assert opt is not None
                return opt
            is_optimized = True
        if not isinstance(inst, CallBase) and _is_fence_like(inst):
            return start
        query = UpwardsMemoryQuery(inst, start)
        if is_use_trivially_optimizable_to_live_on_entry(baa, inst):
            live = mssa.live_on_entry
            start.set_optimized(live)
            return live
        optimized: MemoryAccess
        if not is_optimized:
            defining = start.get_defining_access()
            assert defining is not None
            if defining is mssa.live_on_entry:
                start.set_optimized(defining)
                return defining
            optimized = self.walker.find_clobber(baa, defining, query, limit)
            start.set_optimized(optimized)
        else:
            opt2 = start.get_optimized()
            assert opt2 is not None
            optimized = opt2
        if skip_self and type(optimized) is MemoryPhi and type(start) is MemoryDef and limit.value:
            query.skip_self_access = True
            return self.walker.find_clobber(baa, optimized, query, limit)
        return optimized


class MemorySSAWalker:
    """The walker interface (LLVM ``MemorySSAWalker``).

    ``get_clobbering_memory_access(x)``: ``x`` is a memory access or an instruction with
    one; with ``loc``, the clobber of that location from the access (a def or phi)
    upwards. LLVM's overloads are accepted positionally: ``(x, baa)``, ``(x, baa, limit)``,
    ``(x, loc, baa)``, ``(x, loc, baa, limit)``. ``baa`` defaults to a fresh
    :class:`BatchAAResults` on the MemorySSA's AA; ``limit`` to a fresh
    ``-memssa-check-limit`` (pass a :class:`WalkLimit` to share a budget across queries;
    it is decremented as LLVM's ``unsigned &UpwardWalkLimit``)."""

    __slots__ = ("mssa",)

    def __init__(self, mssa: MemorySSA) -> None:
        self.mssa = mssa

    def _arguments(
        self, x: MemoryAccess | Instruction, loc: MemoryLocation | BatchAAResults | None,
        baa: BatchAAResults | WalkLimit | None, limit: WalkLimit | None,
    ) -> tuple[MemoryAccess, MemoryLocation | None, BatchAAResults, WalkLimit]:
        """Sort out LLVM's overloads: ``(access)``, ``(access, baa[, limit])``, ``(access,
        loc[, baa[, limit]])``, an instruction for its access."""
        if isinstance(x, MemoryAccess):
            ma = x
        else:
            found = self.mssa.get_memory_access(x)
            assert found is not None, "instruction has no memory access"
            ma = found
        if isinstance(loc, BatchAAResults):
            if isinstance(baa, WalkLimit):
                limit = baa
            baa = loc
            loc = None
        if not isinstance(baa, BatchAAResults):
            if isinstance(baa, WalkLimit):
                limit = baa
            baa = BatchAAResults(self.mssa.aa)
        if limit is None:
            limit = WalkLimit()
        return ma, loc, baa, limit

    def get_clobbering_memory_access_loc(
        self, start: MemoryAccess, loc: MemoryLocation, baa: BatchAAResults | None = None, limit: WalkLimit | None = None
    ) -> MemoryAccess:
        """``getClobberingMemoryAccess(MA, Loc, BAA)``: the same as
        ``get_clobbering_memory_access(start, loc, baa)``."""
        return self.get_clobbering_memory_access(start, loc, baa, limit)

    def get_clobbering_memory_access(
        self, x: MemoryAccess | Instruction, loc: MemoryLocation | BatchAAResults | None = None,
        baa: BatchAAResults | WalkLimit | None = None, limit: WalkLimit | None = None,
    ) -> MemoryAccess:
        raise NotImplementedError

    def invalidate_info(self, ma: MemoryAccess) -> None:
        """Forget what was cached about ``ma``."""


class _ClobberWalker(MemorySSAWalker):
    """The two walkers over a :class:`ClobberWalkerBase`; ``_skip_self`` tells them apart."""

    __slots__ = ("base",)

    _skip_self: ClassVar[bool] = False

    def __init__(self, mssa: MemorySSA, base: ClobberWalkerBase) -> None:
        MemorySSAWalker.__init__(self, mssa)
        self.base = base

    def get_clobbering_memory_access(
        self, x: MemoryAccess | Instruction, loc: MemoryLocation | BatchAAResults | None = None,
        baa: BatchAAResults | WalkLimit | None = None, limit: WalkLimit | None = None,
    ) -> MemoryAccess:
        ma, loc2, baa2, limit2 = self._arguments(x, loc, baa, limit)
        if loc2 is not None:
            return self.base.get_clobbering_memory_access_loc(ma, loc2, baa2, limit2)
        return self.base.get_clobbering_memory_access_base(ma, baa2, limit2, self._skip_self)

    def invalidate_info(self, ma: MemoryAccess) -> None:
        if isinstance(ma, MemoryUseOrDef):
            ma.reset_optimized()


class CachingWalker(_ClobberWalker):
    """The default walker (LLVM ``MemorySSA::CachingWalker``): answers are cached as each
    use/def's optimised access."""

    __slots__ = ()

    def get_clobbering_memory_access_without_invariant_group(
        self, ma: MemoryAccess, baa: BatchAAResults, limit: WalkLimit
    ) -> MemoryAccess:
        return self.base.get_clobbering_memory_access_base(ma, baa, limit, False, False)


class SkipSelfWalker(_ClobberWalker):
    """LLVM ``MemorySSA::SkipSelfWalker``: for a def, the clobber above the def itself
    (a query through a phi does not stop at the def it started from)."""

    __slots__ = ()

    _skip_self: ClassVar[bool] = True


class DoNothingMemorySSAWalker(MemorySSAWalker):
    """Answers the defining access (LLVM ``DoNothingMemorySSAWalker``)."""

    __slots__ = ()

    def get_clobbering_memory_access(
        self, x: MemoryAccess | Instruction, loc: MemoryLocation | BatchAAResults | None = None,
        baa: BatchAAResults | WalkLimit | None = None, limit: WalkLimit | None = None,
    ) -> MemoryAccess:
        ma = self._arguments(x, loc, baa, limit)[0]
        if isinstance(ma, MemoryUseOrDef):
            d = ma.get_defining_access()
            assert d is not None
            return d
        return ma


# --- OptimizeUses -------------------------------------------------------------------------------


class _MemlocStackInfo:
    __slots__ = ("stack_epoch", "pop_epoch", "lower_bound", "lower_bound_block", "last_kill", "last_kill_valid")

    def __init__(self) -> None:
        self.stack_epoch = 0
        self.pop_epoch = 0
        self.lower_bound = 0
        self.lower_bound_block: BasicBlock | None = None
        self.last_kill = 0
        self.last_kill_valid = False


class OptimizeUses:
    """Point every use at its clobber in one preorder walk of the dominator tree (LLVM
    ``MemorySSA::OptimizeUses``)."""

    __slots__ = ("mssa", "walker", "aa", "dt")

    def __init__(self, mssa: MemorySSA, walker: CachingWalker, aa: BatchAAResults, dt: DominatorTree) -> None:
        self.mssa = mssa
        self.walker = walker
        self.aa = aa
        self.dt = dt

    def optimize_uses(self) -> None:
        version_stack: list[MemoryAccess] = [self.mssa.live_on_entry]
        loc_info: dict[tuple[object, ...], _MemlocStackInfo] = {}
        epochs = [1, 1]  # stack epoch, pop epoch
        limit_cap = max_check_limit()
        for bb in self.dt:
            self._optimize_uses_in_block(bb, epochs, version_stack, loc_info, limit_cap)

    def _optimize_uses_in_block(
        self, bb: BasicBlock, epochs: list[int], version_stack: list[MemoryAccess],
        loc_stack_info: dict[tuple[object, ...], _MemlocStackInfo], limit_cap: int,
    ) -> None:
        accesses = self.mssa.get_block_accesses(bb)
        if accesses is None:
            return
        dt = self.dt
        while True:
            back_block = version_stack[-1].block
            if dt.dominates_block(back_block, bb):
                break
            while version_stack[-1].block is back_block:
                version_stack.pop()
            epochs[1] += 1
        aa = self.aa
        for ma in accesses:
            if type(ma) is not MemoryUse:
                version_stack.append(ma)
                epochs[0] += 1
                continue
            assert isinstance(ma, MemoryUse)
            if ma.is_optimized():
                continue
            inst = ma.memory_inst
            assert inst is not None
            key = memory_loc_or_call(inst)
            info = loc_stack_info.get(key)
            if info is None:
                info = loc_stack_info[key] = _MemlocStackInfo()
            stack_epoch, pop_epoch = epochs
            if info.pop_epoch != pop_epoch:
                info.pop_epoch = pop_epoch
                info.stack_epoch = stack_epoch
                lbb = info.lower_bound_block
                if lbb is not None and lbb is not bb and not dt.dominates_block(lbb, bb):
                    info.lower_bound = 0
                    info.lower_bound_block = version_stack[0].block
                    info.last_kill_valid = False
            elif info.stack_epoch != stack_epoch:
                info.pop_epoch = pop_epoch
                info.stack_epoch = stack_epoch
            if not info.last_kill_valid:
                info.last_kill = len(version_stack) - 1
                info.last_kill_valid = True
            upper = len(version_stack) - 1
            if upper - info.lower_bound > limit_cap:
                info.last_kill_valid = False
                continue
            found = False
            limit = WalkLimit(limit_cap)
            use_loc = key[1] if not key[0] else _EMPTY_LOC
            assert isinstance(use_loc, MemoryLocation)
            while upper > info.lower_bound:
                top = version_stack[upper]
                if type(top) is MemoryPhi:
                    result = self.walker.get_clobbering_memory_access_without_invariant_group(ma, aa, limit)
                    while version_stack[upper] is not result:
                        assert upper != 0
                        upper -= 1
                    found = True
                    break
                assert isinstance(top, MemoryDef)
                if instruction_clobbers_query(top, use_loc, inst, aa):
                    found = True
                    break
                upper -= 1
            if found or upper < info.last_kill:
                ma.set_defining_access(version_stack[upper], True)
                info.last_kill = upper
            else:
                ma.set_defining_access(version_stack[info.last_kill], True)
            info.lower_bound = len(version_stack) - 1
            info.lower_bound_block = bb


__all__ = [
    "CachingWalker",
    "ClobberWalker",
    "ClobberWalkerBase",
    "DoNothingMemorySSAWalker",
    "MemorySSAWalker",
    "OptimizeUses",
    "SkipSelfWalker",
    "UpwardsMemoryQuery",
    "WalkLimit",
    "are_loads_reorderable",
    "def_clobbers_use_or_def",
    "get_invariant_group_clobbering_instruction",
    "instruction_clobbers_query",
    "max_check_limit",
]
