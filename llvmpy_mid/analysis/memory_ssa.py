"""MemorySSA: an SSA form for memory (LLVM 19.1.7 ``lib/Analysis/MemorySSA.cpp`` and
``include/llvm/Analysis/MemorySSA.h``).

What: every instruction that may touch memory gets a :class:`MemoryAccess`: a
:class:`MemoryDef` when it may write (or is an ordered load/store), a :class:`MemoryUse`
when it only reads. Each def/use names its *defining access* (the nearest dominating
def, phi or ``liveOnEntry``); a :class:`MemoryPhi` merges the versions reaching a
block. Defs and phis carry LLVM's ids: ``liveOnEntry`` is 0, defs are numbered 1, 2, ...
in function order as they are created, then phis in the order LLVM's
``IDFCalculator`` reports their blocks; accesses created later take the next id.

How (as LLVM): one pass over the function creates the accesses (``createNewAccess``:
``AA.getModRefInfo(I)`` decides def/use; some marker intrinsics get none; a load whose
memory cannot change is optimised to ``liveOnEntry`` at once), the phis go to the
iterated dominance frontier of the blocks with defs (``analysis/dominance_frontier.py``'s
calculator, in LLVM's raw order), then a renaming pass over the dominator tree (explicit
stack) links every access to the version reaching it; blocks the walk never reaches see
``liveOnEntry``. :meth:`MemorySSA.ensure_optimized_uses` (``OptimizeUses``, in
``memory_ssa_walker.py``) points every use at its real clobber with LLVM's version
stack and ``-memssa-check-limit``; the walkers (``get_walker()``,
``get_skip_self_walker()``, also in ``memory_ssa_walker.py``) answer clobber queries
with the caching upward-defs path search. Per-block access and def lists are Python
lists (positional edits cost the block's access count); ``dominates`` within a block
uses LLVM's lazily renumbered per-block order numbers.

The access classes (``MemoryDef``, ``MemoryUse``, ``MemoryPhi``, their operand slots and
use lists in LLVM's order, ``def_chain``, ``upward_defs``) live in
``memory_ssa_access.py`` and are re-exported here.

``MemorySSAAnalysis`` requests the dominator tree then ``AAManager`` (LLVM's ``run``);
its result is invalidated unless MemorySSA (or all function analyses) is preserved and
both AA and the dominator tree stay valid. The printers and ``verify<memoryssa>`` are in
``memory_ssa_printer.py``; the updater is ``memory_ssa_updater.py``.

What it does not do (yet): MemorySSA over a loop (LLVM's ``MemorySSA(Loop&, ...)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Iterator

from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults, is_mod_set, is_ref_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.dominance_frontier import IDFCalculator
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.memory_ssa_walker import CachingWalker, ClobberWalkerBase, MemorySSAWalker, SkipSelfWalker

from llvmpy_mid.analysis.memory_ssa_access import (
    INVALID_MEMORYACCESS_ID,
    LIVE_ON_ENTRY_STR,
    MemoryAccess,
    MemoryAccessUse,
    MemoryDef,
    MemoryPhi,
    MemoryUse,
    MemoryUseOrDef,
    def_chain,
    is_guaranteed_loop_invariant,
    optimized_def_chain,
    upward_defs,
)

#: Intrinsics that never get a memory access (``createNewAccess``).
_NO_ACCESS_INTRINSICS = frozenset(
    ("llvm.allow.runtime.check", "llvm.allow.ubsan.check", "llvm.assume",
     "llvm.experimental.noalias.scope.decl", "llvm.pseudoprobe")
)  # fmt: skip


# --- the MemorySSA of a function ----------------------------------------------------------------

BEGINNING = 0
END = 1
BEFORE_TERMINATOR = 2


def _is_ordered(inst: Instruction) -> bool:
    tp = type(inst)
    if tp is StoreInst or tp is LoadInst:
        return not inst.is_unordered  # type: ignore[attr-defined]
    return False


def is_use_trivially_optimizable_to_live_on_entry(aa: BatchAAResults | AAResults, inst: Instruction) -> bool:
    """A load of memory that cannot change (``!invariant.load``, or AA says nothing may
    modify it) is clobbered by ``liveOnEntry`` only."""
    if type(inst) is LoadInst:
        if inst.get_metadata("invariant.load") is not None:
            return True
        return not is_mod_set(aa.get_mod_ref_info_mask(MemoryLocation.get(inst)))
    return False


class MemorySSA:
    """The MemorySSA of one function (see the module docstring).

    Queries: :meth:`get_memory_access` (of an instruction: its use/def; of a block: its
    phi), :meth:`get_block_accesses` / :meth:`get_block_defs` (the live per-block lists
    — copy before editing the IR or MemorySSA while iterating), :meth:`dominates`,
    :meth:`locally_dominates`, :meth:`get_walker`, :meth:`get_skip_self_walker`,
    :meth:`ensure_optimized_uses`, :meth:`verify_memory_ssa`. The list-editing methods
    (``insert_into_lists_*``, ``move_to``, ``remove_from_*``, ``create_*``,
    ``rename_pass``) are the internals the updater (``memory_ssa_updater.py``) drives;
    passes should go through the updater."""

    def __init__(self, fn: Function, aa: AAResults, dt: DominatorTree) -> None:
        self.function = fn
        self.aa = aa
        self.dt = dt
        self._per_block_accesses: dict[BasicBlock, list[MemoryAccess]] = {}
        self._per_block_defs: dict[BasicBlock, list[MemoryAccess]] = {}
        self._value_to_access: dict[Value, MemoryAccess] = {}
        self._block_numbering: dict[MemoryAccess, int] = {}
        self._block_numbering_valid: set[BasicBlock] = set()
        self._next_id = 0
        self.is_optimized = False
        self._walker: CachingWalker | None = None
        self._skip_walker: SkipSelfWalker | None = None
        self._walker_base: ClobberWalkerBase | None = None
        entry = fn.entry_block
        assert entry is not None
        self.live_on_entry = MemoryDef(None, None, entry, self._next_id)
        self._next_id += 1
        self._build(BatchAAResults(aa))
        self.get_walker()

    # --- construction ---------------------------------------------------------------------------
    def _build(self, baa: BatchAAResults) -> None:
        fn = self.function
        defining_blocks: list[BasicBlock] = []
        per_accesses = self._per_block_accesses
        per_defs = self._per_block_defs
        create = self._create_new_access
        for bb in fn.blocks:
            accesses: list[MemoryAccess] | None = None
            defs: list[MemoryAccess] | None = None
            inst = bb.instructions.first
            while inst is not None:
                mud = create(inst, baa, None)
                if mud is not None:
                    if accesses is None:
                        accesses = per_accesses[bb] = []
                    accesses.append(mud)
                    if type(mud) is MemoryDef:
                        if defs is None:
                            defs = per_defs[bb] = []
                        defs.append(mud)
                inst = inst.next_instruction
            if defs is not None:
                defining_blocks.append(bb)
        self._place_phi_nodes(defining_blocks)
        visited: set[BasicBlock] = set()
        dt = self.dt
        entry = fn.entry_block
        assert entry is not None
        self._rename_pass(entry, self.live_on_entry, visited, False, False)
        for bb in fn.blocks:
            if bb not in visited:
                self._mark_unreachable_as_live_on_entry(bb)
        del dt

    def _place_phi_nodes(self, defining_blocks: list[BasicBlock]) -> None:
        for bb in IDFCalculator(self.dt).calculate(defining_blocks, sort=False):
            self.create_memory_phi(bb)

    def _create_new_access(
        self, inst: Instruction, aa: BatchAAResults | AAResults, template: MemoryUseOrDef | None
    ) -> MemoryUseOrDef | None:
        if isinstance(inst, CallBase):
            if inst.intrinsic_base in _NO_ACCESS_INTRINSICS:
                return None
        if not inst.may_read_from_memory() and not inst.may_write_to_memory():
            return None
        if template is not None:
            is_def = type(template) is MemoryDef
            is_use = type(template) is MemoryUse
        else:
            mr = aa.get_mod_ref_info(inst, None)
            is_def = is_mod_set(mr) or _is_ordered(inst)
            is_use = is_ref_set(mr)
        if not is_def and not is_use:
            return None
        bb = inst.parent
        assert bb is not None
        mud: MemoryUseOrDef
        if is_def:
            mud = MemoryDef(None, inst, bb, self._next_id)
            self._next_id += 1
        else:
            mud = MemoryUse(None, inst, bb)
            if is_use_trivially_optimizable_to_live_on_entry(aa, inst):
                mud.set_optimized(self.live_on_entry)
        self._value_to_access[inst] = mud
        return mud

    def _rename_block(self, bb: BasicBlock, incoming: MemoryAccess, rename_all_uses: bool) -> MemoryAccess:
        accesses = self._per_block_accesses.get(bb)
        if accesses is not None:
            for ma in accesses:
                if isinstance(ma, MemoryUseOrDef):
                    if ma._operands[0].value is None or rename_all_uses:
                        ma._operands[0].set(incoming)
                    if type(ma) is MemoryDef:
                        incoming = ma
                else:
                    incoming = ma
        return incoming

    def _rename_successor_phis(self, bb: BasicBlock, incoming: MemoryAccess, rename_all_uses: bool) -> None:
        per = self._per_block_accesses
        for succ in bb.successors:
            accesses = per.get(succ)
            if accesses is None:
                continue
            phi = accesses[0]
            if type(phi) is not MemoryPhi:
                continue
            assert isinstance(phi, MemoryPhi)
            if rename_all_uses:
                blocks = phi._blocks
                for i in range(len(blocks)):
                    if blocks[i] is bb:
                        phi._operands[i].set(incoming)
            else:
                phi.add_incoming(incoming, bb)

    def _rename_pass(
        self, root: BasicBlock, incoming: MemoryAccess, visited: set[BasicBlock], skip_visited: bool, rename_all_uses: bool
    ) -> None:
        """The renaming walk of the dominator tree below ``root`` (explicit stack)."""
        already = root in visited
        visited.add(root)
        if skip_visited and already:
            return
        incoming = self._rename_block(root, incoming, rename_all_uses)
        self._rename_successor_phis(root, incoming, rename_all_uses)
        children = self.dt.children
        stack: list[tuple[list[BasicBlock], int, MemoryAccess]] = [(children(root), 0, incoming)]
        per_defs = self._per_block_defs
        while stack:
            kids, i, incoming = stack[-1]
            if i == len(kids):
                stack.pop()
                continue
            stack[-1] = (kids, i + 1, incoming)
            child = kids[i]
            already = child in visited
            visited.add(child)
            if skip_visited and already:
                defs = per_defs.get(child)
                if defs:
                    incoming = defs[-1]
            else:
                incoming = self._rename_block(child, incoming, rename_all_uses)
            self._rename_successor_phis(child, incoming, rename_all_uses)
            stack.append((children(child), 0, incoming))

    def rename_pass(self, bb: BasicBlock, incoming: MemoryAccess, visited: set[BasicBlock]) -> None:
        """Re-link the accesses of ``bb``'s dominator subtree (skipping ``visited`` blocks)
        to the versions reaching them from ``incoming`` (LLVM's public ``renamePass``)."""
        self._rename_pass(bb, incoming, visited, True, True)

    def _mark_unreachable_as_live_on_entry(self, bb: BasicBlock) -> None:
        dt = self.dt
        per = self._per_block_accesses
        for succ in bb.successors:
            if not dt.is_reachable(succ):
                continue
            accesses = per.get(succ)
            if accesses is None or type(accesses[0]) is not MemoryPhi:
                continue
            phi = accesses[0]
            assert isinstance(phi, MemoryPhi)
            phi.add_incoming(self.live_on_entry, bb)
        accesses = per.get(bb)
        if accesses is None:
            return
        for ma in list(accesses):
            if isinstance(ma, MemoryUseOrDef):
                ma.set_defining_access(self.live_on_entry)
            else:
                accesses.remove(ma)

    # --- queries --------------------------------------------------------------------------------
    def get_memory_access(self, key: Instruction | BasicBlock) -> Any:
        """The use/def of an instruction (a :class:`MemoryUseOrDef`), or the phi of a block
        (a :class:`MemoryPhi`); None when there is none."""
        return self._value_to_access.get(key)

    def get_live_on_entry_def(self) -> MemoryDef:
        return self.live_on_entry

    @property
    def live_on_entry_def(self) -> MemoryDef:
        return self.live_on_entry

    def is_live_on_entry_def(self, access: MemoryAccess | None) -> bool:
        return access is self.live_on_entry

    def get_dom_tree(self) -> DominatorTree:
        return self.dt

    def get_aa(self) -> AAResults:
        return self.aa

    def get_block_accesses(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        """The block's accesses in order (phi first), or None; the live list."""
        return self._per_block_accesses.get(bb)

    def get_block_defs(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        """The block's phi and defs in order, or None; the live list."""
        return self._per_block_defs.get(bb)

    def get_writable_block_accesses(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        return self._per_block_accesses.get(bb)

    def get_writable_block_defs(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        return self._per_block_defs.get(bb)

    def previous_access(self, access: MemoryAccess) -> MemoryAccess | None:
        """The access before ``access`` in its block (LLVM ``--MA->getIterator()``), or None."""
        accesses = self._per_block_accesses[access.block]
        i = _index_of(accesses, access)
        return accesses[i - 1] if i > 0 else None

    def next_access(self, access: MemoryAccess) -> MemoryAccess | None:
        """The access after ``access`` in its block (LLVM ``++MA->getIterator()``), or None."""
        accesses = self._per_block_accesses[access.block]
        i = _index_of(accesses, access) + 1
        return accesses[i] if i < len(accesses) else None

    def accesses_between(self, start: MemoryAccess, end: MemoryAccess | None) -> list[MemoryAccess]:
        """The accesses strictly between ``start`` and ``end`` in ``start``'s block (to the
        block's end when ``end`` is None): LLVM's ``make_range(++Start->getIterator(),
        End->getIterator())``."""
        accesses = self._per_block_accesses[start.block]
        i = _index_of(accesses, start) + 1
        j = len(accesses) if end is None else _index_of(accesses, end)
        return accesses[i:j]

    def _renumber_block(self, bb: BasicBlock) -> None:
        numbering = self._block_numbering
        n = 0
        for ma in self._per_block_accesses[bb]:
            n += 1
            numbering[ma] = n
        self._block_numbering_valid.add(bb)

    def locally_dominates(self, dominator: MemoryAccess, dominatee: MemoryAccess) -> bool:
        """Both in one block: does ``dominator`` come first (or is it the same access)?"""
        if dominatee is dominator:
            return True
        live = self.live_on_entry
        if dominatee is live:
            return False
        if dominator is live:
            return True
        bb = dominator.block
        if bb not in self._block_numbering_valid:
            self._renumber_block(bb)
        numbering = self._block_numbering
        return numbering[dominator] < numbering[dominatee]

    def dominates(self, dominator: MemoryAccess, dominatee: MemoryAccess | MemoryAccessUse) -> bool:
        """Does ``dominator`` dominate the access ``dominatee`` (or the use slot: for a phi
        operand, the end of the incoming block)?"""
        if isinstance(dominatee, MemoryAccessUse):
            user = dominatee.user
            if isinstance(user, MemoryPhi):
                use_bb = user.get_incoming_block(dominatee)
                if use_bb is not dominator.block:
                    return self.dt.dominates_block(dominator.block, use_bb)
                value = dominatee.value
                assert value is not None
                return self.locally_dominates(dominator, value)
            dominatee = user
        if dominator is dominatee:
            return True
        if dominatee is self.live_on_entry:
            return False
        if dominator.block is not dominatee.block:
            return self.dt.dominates_block(dominator.block, dominatee.block)
        return self.locally_dominates(dominator, dominatee)

    # --- walkers --------------------------------------------------------------------------------
    def get_walker(self) -> CachingWalker:
        """The caching clobber walker (see ``memory_ssa_walker.py``)."""
        walker = self._walker
        if walker is None:
            from llvmpy_mid.analysis.memory_ssa_walker import CachingWalker, ClobberWalkerBase

            if self._walker_base is None:
                self._walker_base = ClobberWalkerBase(self, self.dt)
            walker = self._walker = CachingWalker(self, self._walker_base)
        return walker

    def get_skip_self_walker(self) -> SkipSelfWalker:
        """The walker that, for a def, looks past the def itself."""
        walker = self._skip_walker
        if walker is None:
            from llvmpy_mid.analysis.memory_ssa_walker import ClobberWalkerBase, SkipSelfWalker

            if self._walker_base is None:
                self._walker_base = ClobberWalkerBase(self, self.dt)
            walker = self._skip_walker = SkipSelfWalker(self, self._walker_base)
        return walker

    def ensure_optimized_uses(self) -> None:
        """Point every use at its clobber (LLVM ``OptimizeUses``), once."""
        if self.is_optimized:
            return
        from llvmpy_mid.analysis.memory_ssa_walker import CachingWalker, ClobberWalkerBase, OptimizeUses

        baa = BatchAAResults(self.aa)
        base = ClobberWalkerBase(self, self.dt)
        walker = CachingWalker(self, base)
        OptimizeUses(self, walker, baa, self.dt).optimize_uses()
        self.is_optimized = True

    # --- list editing (the updater's internals) -------------------------------------------------
    def _get_or_create_access_list(self, bb: BasicBlock) -> list[MemoryAccess]:
        lst = self._per_block_accesses.get(bb)
        if lst is None:
            lst = self._per_block_accesses[bb] = []
        return lst

    def _get_or_create_defs_list(self, bb: BasicBlock) -> list[MemoryAccess]:
        lst = self._per_block_defs.get(bb)
        if lst is None:
            lst = self._per_block_defs[bb] = []
        return lst

    def insert_into_lists_for_block(self, access: MemoryAccess, bb: BasicBlock, point: int) -> None:
        """Put ``access`` at the beginning (after the phi for a non-phi) or at the end
        (``END``) of ``bb``'s lists."""
        accesses = self._get_or_create_access_list(bb)
        if point == BEGINNING:
            if type(access) is MemoryPhi:
                accesses.insert(0, access)
                self._get_or_create_defs_list(bb).insert(0, access)
            else:
                pos = 0
                while pos < len(accesses) and type(accesses[pos]) is MemoryPhi:
                    pos += 1
                accesses.insert(pos, access)
                if type(access) is not MemoryUse:
                    defs = self._get_or_create_defs_list(bb)
                    dpos = 0
                    while dpos < len(defs) and type(defs[dpos]) is MemoryPhi:
                        dpos += 1
                    defs.insert(dpos, access)
        else:
            accesses.append(access)
            if type(access) is not MemoryUse:
                self._get_or_create_defs_list(bb).append(access)
        self._block_numbering_valid.discard(bb)

    def insert_into_lists_before(self, access: MemoryAccess, bb: BasicBlock, before: MemoryAccess | None) -> None:
        """Put ``access`` before ``before`` in ``bb``'s lists (at the end when None)."""
        accesses = self._per_block_accesses.get(bb)
        if accesses is None:
            assert before is None
            accesses = self._get_or_create_access_list(bb)
        if before is None:
            pos = len(accesses)
        else:
            pos = _index_of(accesses, before)
        accesses.insert(pos, access)
        if type(access) is not MemoryUse:
            defs = self._get_or_create_defs_list(bb)
            nxt: MemoryAccess | None = None
            for k in range(pos + 1, len(accesses)):
                if type(accesses[k]) is MemoryDef:
                    nxt = accesses[k]
                    break
            if nxt is None:
                defs.append(access)
            else:
                defs.insert(_index_of(defs, nxt), access)
        self._block_numbering_valid.discard(bb)

    def _prepare_for_move_to(self, access: MemoryAccess, bb: BasicBlock) -> None:
        self.remove_from_lists(access, False)
        if type(access) is MemoryDef:
            assert isinstance(access, MemoryDef)
            access.reset_optimized()
        access.set_block(bb)

    def move_to(self, access: MemoryAccess, bb: BasicBlock, where: MemoryAccess | None | int) -> None:
        """Move ``access`` into ``bb``: before the access ``where`` (None: at the end), or
        at the place ``BEGINNING``/``END`` when ``where`` is an int."""
        if isinstance(where, int):
            if type(access) is MemoryPhi:
                assert where == BEGINNING
                self._value_to_access.pop(access.block, None)
                assert bb not in self._value_to_access
                self._value_to_access[bb] = access
            self._prepare_for_move_to(access, bb)
            self.insert_into_lists_for_block(access, bb, where)
            return
        self._prepare_for_move_to(access, bb)
        self.insert_into_lists_before(access, bb, where)

    def create_memory_phi(self, bb: BasicBlock) -> MemoryPhi:
        """A new, empty phi at the start of ``bb`` (the block must have none)."""
        assert bb not in self._value_to_access
        phi = MemoryPhi(bb, self._next_id)
        self._next_id += 1
        self.insert_into_lists_for_block(phi, bb, BEGINNING)
        self._value_to_access[bb] = phi
        return phi

    def create_defined_access(
        self, inst: Instruction, definition: MemoryAccess | None, template: MemoryUseOrDef | None = None,
        creation_must_succeed: bool = True,
    ) -> MemoryUseOrDef | None:
        """A new use/def for ``inst`` defined by ``definition`` (not yet in any list); None
        if ``inst`` needs no access."""
        new = self._create_new_access(inst, self.aa, template)
        if creation_must_succeed:
            assert new is not None, "no memory access for an instruction that touches no memory"
        if new is not None:
            new.set_defining_access(definition)
        return new

    def remove_from_lookups(self, access: MemoryAccess) -> None:
        """Forget ``access`` (it must have no uses): numbering, defining access, walker
        caches and the instruction/block map."""
        assert access.use_empty(), "removing a memory access that still has uses"
        self._block_numbering.pop(access, None)
        if isinstance(access, MemoryUseOrDef):
            access.set_defining_access(None)
        if type(access) is not MemoryUse:
            self.get_walker().invalidate_info(access)
        key: Value
        if isinstance(access, MemoryUseOrDef):
            inst = access.memory_inst
            assert inst is not None
            key = inst
        else:
            key = access.block
        if self._value_to_access.get(key) is access:
            del self._value_to_access[key]

    def remove_from_lists(self, access: MemoryAccess, should_delete: bool = True) -> None:
        """Take ``access`` out of its block's lists (dropping its operands when deleted)."""
        bb = access.block
        if type(access) is not MemoryUse:
            defs = self._per_block_defs[bb]
            del defs[_index_of(defs, access)]
            if not defs:
                del self._per_block_defs[bb]
        accesses = self._per_block_accesses[bb]
        del accesses[_index_of(accesses, access)]
        if should_delete:
            access.drop_all_references()
            access.erased = True
        if not accesses:
            del self._per_block_accesses[bb]
            self._block_numbering_valid.discard(bb)

    # --- printing and checking ------------------------------------------------------------------
    def print_text(self) -> str:
        """The function with each access as a comment (``MemorySSA::print``)."""
        from llvmpy_mid.analysis.memory_ssa_printer import MemorySSAAnnotatedWriter, print_function_annotated

        return print_function_annotated(self.function, MemorySSAAnnotatedWriter(self))

    def verify_memory_ssa(self, full: bool = True) -> None:
        """Check the structure (LLVM ``verifyMemorySSA``); raises :class:`AssertionError`
        describing the first problem. ``full`` also checks phi operands against the CFG
        and that each phi incoming is the last def dominating the incoming block."""
        from llvmpy_mid.analysis.memory_ssa_verifier import verify_memory_ssa

        verify_memory_ssa(self, full)

    def __repr__(self) -> str:
        return "<MemorySSA of @%s: %d blocks with accesses>" % (self.function.name, len(self._per_block_accesses))


def _index_of(items: list[MemoryAccess], target: MemoryAccess) -> int:
    for i in range(len(items)):
        if items[i] is target:
            return i
    raise ValueError("memory access not in list")


# --- pass-manager glue --------------------------------------------------------------------------


class MemorySSAResult:
    """The ``MemorySSAAnalysis`` result: ``mssa`` (also ``get_mssa()``)."""

    __slots__ = ("mssa",)

    def __init__(self, mssa: MemorySSA) -> None:
        self.mssa = mssa

    def get_mssa(self) -> MemorySSA:
        return self.mssa

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        from llvmpy_mid.analysis.alias.aa_manager import AAManager

        checker = pa.checker(MemorySSAAnalysis)
        if not (checker.preserved() or checker.preserved_set(AllAnalysesOnFunction)):
            return True
        return inv.invalidate(AAManager) or inv.invalidate(DominatorTreeAnalysis)


class MemorySSAAnalysis(FunctionAnalysis[MemorySSAResult]):
    """``memoryssa``: the function's :class:`MemorySSA` (as ``result.mssa``)."""

    name: ClassVar[str] = "memoryssa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> MemorySSAResult:
        from llvmpy_mid.analysis.alias.aa_manager import AAManager

        dt = am.get_result(DominatorTreeAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        return MemorySSAResult(MemorySSA(unit, aa, dt))


def get_memory_ssa(am: AnalysisManager[Function], fn: Function) -> MemorySSA:
    """``AM.getResult<MemorySSAAnalysis>(F).getMSSA()``."""
    return am.get_result(MemorySSAAnalysis, fn).mssa


def iter_accesses(mssa: MemorySSA, blocks: Iterable[BasicBlock]) -> Iterator[MemoryAccess]:
    """Every access of ``blocks`` in order (a convenience for tests and passes)."""
    for bb in blocks:
        accesses = mssa.get_block_accesses(bb)
        if accesses:
            yield from list(accesses)


__all__ = [
    "BEFORE_TERMINATOR",
    "BEGINNING",
    "END",
    "INVALID_MEMORYACCESS_ID",
    "LIVE_ON_ENTRY_STR",
    "MemoryAccess",
    "MemoryAccessUse",
    "MemoryDef",
    "MemoryPhi",
    "MemorySSA",
    "MemorySSAAnalysis",
    "MemorySSAResult",
    "MemoryUse",
    "MemoryUseOrDef",
    "def_chain",
    "get_memory_ssa",
    "is_guaranteed_loop_invariant",
    "is_use_trivially_optimizable_to_live_on_entry",
    "optimized_def_chain",
    "upward_defs",
]
