"""Keeping MemorySSA right while a pass edits the IR (LLVM 19.1.7
``lib/Analysis/MemorySSAUpdater.cpp``, ``include/llvm/Analysis/MemorySSAUpdater.h``).

What a pass calls (Python spellings of LLVM's):

- :meth:`MemorySSAUpdater.remove_memory_access` ``(access_or_instruction,
  optimize_phis=False)``: before erasing an instruction: its uses take its defining
  access (a phi's single incoming value), optimised users forget their cached clobber,
  and with ``optimize_phis`` the phis that used it are simplified when trivial.
- :meth:`create_memory_access_in_bb` ``(inst, definition, bb, point)`` (``BEGINNING``,
  ``END``), :meth:`create_memory_access_before` ``(inst, definition, before)``,
  :meth:`create_memory_access_after` ``(inst, definition, after)``: a new use/def for a
  new instruction, placed in the block's lists; ``definition`` may be None — then call
  :meth:`insert_def` / :meth:`insert_use` to link it (and to re-link what follows it,
  ``rename_uses=True``), as LLVM's passes do.
- :meth:`insert_def` ``(def, rename_uses=False)``, :meth:`insert_use` ``(use,
  rename_uses=False)``: find the def reaching the new access (adding phis where paths
  now merge different versions, removing phis that turn out trivial) and, for a def,
  point the accesses it now dominates at it.
- :meth:`move_before` / :meth:`move_after` ``(what, where)``, :meth:`move_to_place`
  ``(what, bb, point)``: move a use/def (after moving its instruction).
- :meth:`remove_blocks` ``(dead_blocks)``, :meth:`change_to_unreachable` ``(inst)``,
  :meth:`remove_edge`, :meth:`remove_duplicate_phi_edges_between`,
  :meth:`move_all_after_splice_blocks`, :meth:`move_all_after_merge_blocks`,
  :meth:`wire_old_predecessors_to_new_immediate_predecessor`,
  :meth:`update_phis_when_inserting_unique_backedge_block`: CFG edits.

How: as LLVM (the on-demand SSA construction of Braun et al. for the reaching def,
iterated dominance frontiers for new phis, ``fixupDefs`` for the accesses below a new
def, renaming with ``MemorySSA.rename_pass``). LLVM's tracking value handles (cache
entries and phi operands that follow a phi when it is replaced) are a forwarding map
here; its weak handles check ``access.erased``. The recursive reaching-def search runs
on an explicit stack (generators), so deep CFGs do not overflow Python's stack.

- :meth:`apply_updates` ``(updates, dt, update_dt=False)`` / :meth:`apply_insert_updates`:
  CFG edges inserted (phis added at the targets and their iterated frontier, uses no
  longer dominated re-pointed) or deleted.

- :meth:`clone_uses_and_defs`, :meth:`update_for_cloned_block_into_pred`,
  :meth:`update_for_cloned_loop`, :meth:`update_exit_blocks_for_cloned_loop`: accesses
  for cloned code (``vmap`` maps originals to clones).

What it does not do (yet): ``apply_updates`` of a batch mixing insertions and deletions
takes the deletions first (valid, but phis may differ from LLVM's, which reads the CFG
through a view that still has the deleted edges).
"""

from __future__ import annotations

from typing import Generator, Iterable, Mapping

from llvmpy_mid.analysis.dominance_frontier import IDFCalculator
from llvmpy_mid.analysis.memory_ssa import (
    BEFORE_TERMINATOR,
    BEGINNING,
    END,
    MemoryAccess,
    MemoryAccessUse,
    MemoryDef,
    MemoryPhi,
    MemorySSA,
    MemoryUse,
    MemoryUseOrDef,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value

_PrevDefGen = Generator[BasicBlock, MemoryAccess, MemoryAccess]


def _only_single_value(phi: MemoryPhi) -> MemoryAccess | None:
    """The phi's incoming value when all are the same, else None."""
    result: MemoryAccess | None = None
    for use in phi._operands:
        value = use.value
        if result is None:
            result = value
        elif value is not result:
            return None
    return result


def _unique_predecessor(bb: BasicBlock) -> BasicBlock | None:
    """``getUniquePredecessor``: the one predecessor block (edges to it may repeat)."""
    found: BasicBlock | None = None
    for pred in bb.predecessors:
        if found is None:
            found = pred
        elif pred is not found:
            return None
    return found


def _set_memory_phi_value_for_block(phi: MemoryPhi, bb: BasicBlock, new_def: MemoryAccess) -> None:
    i = phi.get_basic_block_index(bb)
    assert i != -1, "block not found in the phi"
    blocks = phi._blocks
    while i < len(blocks) and blocks[i] is bb:
        phi.set_incoming_value(i, new_def)
        i += 1


class MemorySSAUpdater:
    """Updates one :class:`MemorySSA` (see the module docstring)."""

    __slots__ = ("mssa", "_inserted_phis", "_visited_blocks", "_non_opt_phis", "_replaced")

    def __init__(self, mssa: MemorySSA) -> None:
        self.mssa = mssa
        self._inserted_phis: list[MemoryPhi] = []
        self._visited_blocks: set[BasicBlock] = set()
        self._non_opt_phis: set[MemoryPhi] = set()
        self._replaced: dict[MemoryAccess, MemoryAccess] = {}

    def get_memory_ssa(self) -> MemorySSA:
        return self.mssa

    # --- value-handle emulation -----------------------------------------------------------------
    def _track(self, access: MemoryAccess) -> MemoryAccess:
        """What a tracking handle on ``access`` now points to (replaced accesses forward)."""
        replaced = self._replaced
        while access in replaced:
            access = replaced[access]
        return access

    def _rauw(self, old: MemoryAccess, new: MemoryAccess) -> None:
        old.replace_all_uses_with(new)
        self._replaced[old] = new

    # --- the reaching def -----------------------------------------------------------------------
    def _previous_def_from_end_cached(
        self, bb: BasicBlock, cache: dict[BasicBlock, MemoryAccess]
    ) -> MemoryAccess | None:
        defs = self.mssa.get_block_defs(bb)
        if defs:
            last = defs[-1]
            cache.setdefault(bb, last)
            return last
        return None

    def _previous_def_recursive_gen(self, bb: BasicBlock, cache: dict[BasicBlock, MemoryAccess]) -> _PrevDefGen:
        """LLVM ``getPreviousDefRecursive`` as a generator: it yields a block whenever it needs
        ``getPreviousDefFromEnd`` of that block, and receives the answer."""
        mssa = self.mssa
        cached = cache.get(bb)
        if cached is not None:
            return self._track(cached)
        if not mssa.dt.is_reachable(bb):
            return mssa.live_on_entry
        pred = _unique_predecessor(bb)
        if pred is not None:
            self._visited_blocks.add(bb)
            result = yield pred
            cache.setdefault(bb, result)
            return result
        if bb in self._visited_blocks:
            phi_new = mssa.create_memory_phi(bb)
            cache.setdefault(bb, phi_new)
            return phi_new
        self._visited_blocks.add(bb)
        phi_ops: list[MemoryAccess] = []
        unique_incoming = True
        single: MemoryAccess | None = None
        preds = bb.predecessors
        for p in preds:
            if mssa.dt.is_reachable(p):
                incoming = yield p
                if single is None:
                    single = incoming
                elif incoming is not single:
                    unique_incoming = False
                phi_ops.append(incoming)
            else:
                phi_ops.append(mssa.live_on_entry)
        phi = mssa.get_memory_access(bb)
        assert phi is None or isinstance(phi, MemoryPhi)
        ops = [self._track(op) for op in phi_ops]
        result2 = self._try_remove_trivial_phi(phi, ops)
        if result2 is phi and unique_incoming and single is not None:
            single = self._track(single)
            if phi is not None:
                assert phi.get_num_incoming_values() == 0, "expected an empty phi"
                self._rauw(phi, single)
                self.remove_memory_access(phi)
            result2 = single
        elif result2 is phi and not (unique_incoming and single is not None):
            if phi is None:
                phi = mssa.create_memory_phi(bb)
            if phi.get_num_incoming_values() != 0:
                ops = [self._track(op) for op in phi_ops]
                if any(phi.get_incoming_value(k) is not ops[k] for k in range(len(ops))):
                    for k in range(len(ops)):
                        phi.set_incoming_value(k, ops[k])
                        phi.set_incoming_block(k, preds[k])
            else:
                ops = [self._track(op) for op in phi_ops]
                for k in range(len(preds)):
                    phi.add_incoming(ops[k], preds[k])
                self._inserted_phis.append(phi)
            result2 = phi
        assert result2 is not None
        self._visited_blocks.discard(bb)
        cache.setdefault(bb, result2)
        return result2

    def _get_previous_def_recursive(self, bb: BasicBlock, cache: dict[BasicBlock, MemoryAccess]) -> MemoryAccess:
        """Run :meth:`_previous_def_recursive_gen` on an explicit stack."""
        stack: list[_PrevDefGen] = [self._previous_def_recursive_gen(bb, cache)]
        value: MemoryAccess | None = None
        while True:
            try:
                if value is None:
                    request = next(stack[-1])
                else:
                    request = stack[-1].send(value)
            except StopIteration as stop:
                stack.pop()
                value = stop.value
                assert value is not None
                if not stack:
                    return value
                continue
            found = self._previous_def_from_end_cached(request, cache)
            if found is not None:
                value = found
            else:
                stack.append(self._previous_def_recursive_gen(request, cache))
                value = None

    def get_previous_def_from_end(self, bb: BasicBlock, cache: dict[BasicBlock, MemoryAccess] | None = None) -> MemoryAccess:
        """The def reaching the end of ``bb`` (creating phis where needed)."""
        if cache is None:
            cache = {}
        found = self._previous_def_from_end_cached(bb, cache)
        if found is not None:
            return found
        return self._get_previous_def_recursive(bb, cache)

    def get_previous_def_in_block(self, ma: MemoryAccess) -> MemoryAccess | None:
        """The def or phi before ``ma`` in its block, or None."""
        mssa = self.mssa
        defs = mssa.get_block_defs(ma.block)
        if not defs:
            return None
        if type(ma) is not MemoryUse:
            i = _index(defs, ma)
            return defs[i - 1] if i > 0 else None
        accesses = mssa.get_block_accesses(ma.block)
        assert accesses is not None
        i = _index(accesses, ma) - 1
        while i >= 0:
            if type(accesses[i]) is not MemoryUse:
                return accesses[i]
            i -= 1
        return None

    def get_previous_def(self, ma: MemoryAccess) -> MemoryAccess:
        """The def reaching ``ma``: the one before it in its block, else the one reaching the
        block's start."""
        local = self.get_previous_def_in_block(ma)
        if local is not None:
            return local
        return self._get_previous_def_recursive(ma.block, {})

    # --- trivial phis ---------------------------------------------------------------------------
    def _trivial_phi_step(
        self, phi: MemoryPhi | None, operands: list[MemoryAccess] | None
    ) -> tuple[MemoryAccess | None, list[object] | None]:
        """One ``tryRemoveTrivialPhi`` up to its ``recursePhi``: ``(answer, None)``, or
        ``(None, frame)`` when the phi was replaced and the users of the replacement are
        to be retried (``frame`` = [replacement, its users, next index])."""
        if phi is not None and phi in self._non_opt_phis:
            return phi, None
        if operands is None:
            assert phi is not None
            operands = phi.incoming_values
        same: MemoryAccess | None = None
        for op in operands:
            if op is phi or op is same:
                continue
            if same is not None:
                return phi, None
            same = op
        if same is None:
            return self.mssa.live_on_entry, None
        if phi is not None:
            self._rauw(phi, same)
            self.remove_memory_access(phi)
        # LLVM keeps a tracking handle on every user and retries those that are phis;
        # only phis can be replaced while the retries run, so the phi users suffice
        phis: list[MemoryAccess] = []
        use = same._use_head
        while use is not None:
            user = use.user
            if type(user) is MemoryPhi:
                phis.append(user)
            use = use._next
        return None, [same, phis, 0]

    def _try_remove_trivial_phi(self, phi: MemoryPhi | None, operands: list[MemoryAccess] | None = None) -> MemoryAccess | None:
        """LLVM ``tryRemoveTrivialPhi``: a phi whose operands are all one access (or itself)
        is replaced by that access, then the phis using that access are retried (LLVM's
        ``recursePhi``; an explicit stack here). Returns what stands for the phi (the phi
        itself when it stays; None only for no phi with distinct operands)."""
        answer, frame = self._trivial_phi_step(phi, operands)
        if frame is None:
            return answer
        stack = [frame]
        while stack:
            top = stack[-1]
            users = top[1]
            k = top[2]
            assert isinstance(users, list) and isinstance(k, int)
            if k < len(users):
                top[2] = k + 1
                user = users[k]
                assert isinstance(user, MemoryAccess)
                user = self._track(user)
                if isinstance(user, MemoryPhi) and not user.erased:
                    sub = self._trivial_phi_step(user, None)[1]
                    if sub is not None:
                        stack.append(sub)
                continue
            stack.pop()
        first = frame[0]
        assert isinstance(first, MemoryAccess)
        return self._track(first)

    def try_remove_trivial_phi(self, phi: MemoryPhi) -> MemoryAccess | None:
        """Public ``tryRemoveTrivialPhi(Phi)``."""
        return self._try_remove_trivial_phi(phi, None)

    def try_remove_trivial_phis(self, phis: Iterable[MemoryPhi]) -> None:
        for phi in list(phis):
            if not phi.erased:
                self._try_remove_trivial_phi(phi, None)

    # --- inserting accesses ---------------------------------------------------------------------
    def insert_use(self, mu: MemoryUse, rename_uses: bool = False) -> None:
        """Link the new use ``mu`` to the def reaching it (LLVM ``insertUse``)."""
        self._visited_blocks.clear()
        self._inserted_phis.clear()
        mu.set_defining_access(self.get_previous_def(mu))
        if rename_uses and self._inserted_phis:
            visited: set[BasicBlock] = set()
            mssa = self.mssa
            defs = mssa.get_block_defs(mu.block)
            if defs:
                first_def: MemoryAccess | None = defs[0]
                if type(first_def) is MemoryDef:
                    first_def = first_def.get_defining_access()
                assert first_def is not None
                mssa.rename_pass(mu.block, first_def, visited)
            for phi in list(self._inserted_phis):
                if not phi.erased:
                    self._rename_from_phi(phi, visited)

    def _rename_from_phi(self, phi: MemoryPhi, visited: set[BasicBlock]) -> None:
        # LLVM passes a null incoming value: the phi's block starts from the phi itself
        self.mssa._rename_pass(phi.block, phi, visited, True, True)

    def insert_def(self, md: MemoryDef, rename_uses: bool = False) -> None:
        """Link the new def ``md`` into the def chains (LLVM ``insertDef``): it takes the def
        reaching it, defs and phis that used that def below it now use ``md``, phis are
        added where ``md``'s version merges with others; with ``rename_uses``, the uses
        below are re-linked too."""
        mssa = self.mssa
        if not mssa.dt.is_reachable(md.block):
            md.set_defining_access(mssa.live_on_entry)
            return
        self._visited_blocks.clear()
        self._inserted_phis.clear()
        def_before = self.get_previous_def(md)
        def_before_same_block = def_before.block is md.block and not (
            isinstance(def_before, MemoryPhi) and any(p is def_before for p in self._inserted_phis)
        )
        if def_before_same_block:

            def not_use_nor_md(use: MemoryAccessUse) -> bool:
                user = use.user
                return type(user) is not MemoryUse and user is not md

            def_before.replace_uses_with_if(md, not_use_nor_md)
        md.set_defining_access(def_before)
        fixup: list[MemoryAccess] = list(self._inserted_phis)
        existing_phis: list[MemoryPhi] = []
        new_phi_index = len(self._inserted_phis)
        if not def_before_same_block:
            defining_blocks: list[BasicBlock] = [md.block]
            for p in self._inserted_phis:
                if not p.erased and p.block not in defining_blocks:
                    defining_blocks.append(p.block)
            new_inserted: list[MemoryPhi] = []
            for bb_idf in IDFCalculator(mssa.dt).calculate(defining_blocks, sort=False):
                mphi = mssa.get_memory_access(bb_idf)
                if mphi is None:
                    mphi = mssa.create_memory_phi(bb_idf)
                    new_inserted.append(mphi)
                elif not any(e is mphi for e in existing_phis):
                    existing_phis.append(mphi)
                self._non_opt_phis.add(mphi)
            for mphi in new_inserted:
                for pred in mphi.block.predecessors:
                    mphi.add_incoming(self.get_previous_def_from_end(pred, {}), pred)
            new_phi_index = len(self._inserted_phis)
            for mphi in new_inserted:
                self._inserted_phis.append(mphi)
                fixup.append(mphi)
            fixup.append(md)
        new_phi_index_end = len(self._inserted_phis)
        while fixup:
            starting = len(self._inserted_phis)
            self._fixup_defs(fixup)
            fixup = list(self._inserted_phis[starting:])
        if new_phi_index_end - new_phi_index:
            self.try_remove_trivial_phis(self._inserted_phis[new_phi_index:new_phi_index_end])
        if rename_uses:
            visited: set[BasicBlock] = set()
            defs = mssa.get_block_defs(md.block)
            assert defs
            first_def: MemoryAccess | None = defs[0]
            if type(first_def) is MemoryDef:
                first_def = first_def.get_defining_access()
            assert first_def is not None
            mssa.rename_pass(md.block, first_def, visited)
            for phi in list(self._inserted_phis):
                if not phi.erased:
                    self._rename_from_phi(phi, visited)
            for phi in existing_phis:
                if not phi.erased:
                    self._rename_from_phi(phi, visited)

    def _fixup_defs(self, new_defs: list[MemoryAccess]) -> None:
        mssa = self.mssa
        seen: set[BasicBlock] = set()
        worklist: list[BasicBlock] = []
        for new_def in new_defs:
            if new_def.erased:
                continue
            defs = mssa.get_block_defs(new_def.block)
            assert defs is not None
            if isinstance(new_def, MemoryPhi):
                self._non_opt_phis.discard(new_def)
            i = _index(defs, new_def) + 1
            if i < len(defs):
                nxt = defs[i]
                assert isinstance(nxt, MemoryDef)
                nxt.set_defining_access(new_def)
                continue
            for succ in new_def.block.successors:
                mp = mssa.get_memory_access(succ)
                if mp is not None:
                    _set_memory_phi_value_for_block(mp, new_def.block, new_def)
                else:
                    worklist.append(succ)
            while worklist:
                fixup_block = worklist.pop()
                fdefs = mssa.get_block_defs(fixup_block)
                if fdefs:
                    first = fdefs[0]
                    assert isinstance(first, MemoryDef), "phis should have been handled"
                    first.set_defining_access(self.get_previous_def(first))
                    return
                for succ in fixup_block.successors:
                    mp = mssa.get_memory_access(succ)
                    if mp is not None:
                        _set_memory_phi_value_for_block(mp, fixup_block, new_def)
                    elif succ not in seen:
                        seen.add(succ)
                        worklist.append(succ)

    # --- creating accesses ----------------------------------------------------------------------
    def create_memory_access_in_bb(
        self, inst: Instruction, definition: MemoryAccess | None, bb: BasicBlock, point: int,
        creation_must_succeed: bool = True,
    ) -> MemoryUseOrDef | None:
        """A new access for ``inst`` at ``point`` (``BEGINNING``: after the phi; ``END``) of
        ``bb``'s lists; None when ``inst`` needs none (only if not ``creation_must_succeed``)."""
        new = self.mssa.create_defined_access(inst, definition, None, creation_must_succeed)
        if new is not None:
            self.mssa.insert_into_lists_for_block(new, bb, point)
        return new

    def create_memory_access_before(
        self, inst: Instruction, definition: MemoryAccess | None, before: MemoryUseOrDef
    ) -> MemoryUseOrDef:
        """A new access for ``inst`` placed just before the access ``before`` (same block)."""
        assert inst.parent is before.block, "new and old access must be in the same block"
        new = self.mssa.create_defined_access(inst, definition)
        assert new is not None
        self.mssa.insert_into_lists_before(new, before.block, before)
        return new

    def create_memory_access_after(
        self, inst: Instruction, definition: MemoryAccess | None, after: MemoryAccess
    ) -> MemoryUseOrDef:
        """A new access for ``inst`` placed just after the access ``after`` (same block)."""
        assert inst.parent is after.block, "new and old access must be in the same block"
        new = self.mssa.create_defined_access(inst, definition)
        assert new is not None
        self.mssa.insert_into_lists_before(new, after.block, self.mssa.next_access(after))
        return new

    # --- moving ---------------------------------------------------------------------------------
    def _move_to(self, what: MemoryUseOrDef, bb: BasicBlock, where: MemoryAccess | None | int) -> None:
        for user in what.users:
            if isinstance(user, MemoryPhi):
                self._non_opt_phis.add(user)
        defining = what.get_defining_access()
        assert defining is not None
        what.replace_all_uses_with(defining)
        self.mssa.move_to(what, bb, where)
        if isinstance(what, MemoryDef):
            self.insert_def(what, True)
        else:
            assert isinstance(what, MemoryUse)
            self.insert_use(what, True)
        self._non_opt_phis.clear()

    def move_before(self, what: MemoryUseOrDef, where: MemoryUseOrDef) -> None:
        """Move ``what`` just before ``where`` (its instruction already moved there)."""
        self._move_to(what, where.block, where)

    def move_after(self, what: MemoryUseOrDef, where: MemoryUseOrDef) -> None:
        """Move ``what`` just after ``where`` (its instruction already moved there)."""
        nxt = self.mssa.next_access(where)
        self._move_to(what, where.block, nxt)

    def move_to_place(self, what: MemoryUseOrDef, bb: BasicBlock, point: int) -> None:
        """Move ``what`` to ``BEGINNING``, ``END`` or ``BEFORE_TERMINATOR`` of ``bb``."""
        if point != BEFORE_TERMINATOR:
            self._move_to(what, bb, point)
            return
        term = bb.terminator
        where = self.mssa.get_memory_access(term) if term is not None else None
        if where is not None:
            self.move_before(what, where)
        else:
            self._move_to(what, bb, END)

    def _move_all_accesses(self, from_bb: BasicBlock, to_bb: BasicBlock, start: Instruction) -> None:
        mssa = self.mssa
        accs = mssa.get_block_accesses(from_bb)
        if not accs:
            return
        first: MemoryAccess | None = None
        inst: Instruction | None = start
        while inst is not None:
            first = mssa.get_memory_access(inst)
            if first is not None:
                break
            inst = inst.next_instruction
        if first is not None:
            mud: MemoryAccess | None = first
            while mud is not None:
                accs = mssa.get_block_accesses(from_bb)
                nxt = mssa.next_access(mud) if accs is not None and any(a is mud for a in accs) else None
                mssa.move_to(mud, to_bb, END)
                mud = nxt
        defs = mssa.get_block_defs(from_bb)
        if defs and isinstance(defs[0], MemoryPhi):
            self._try_remove_trivial_phi(defs[0])

    def move_all_after_splice_blocks(self, from_bb: BasicBlock, to_bb: BasicBlock, start: Instruction) -> None:
        """``from_bb``'s instructions from ``start`` on were spliced into the new block ``to_bb``."""
        assert self.mssa.get_block_accesses(to_bb) is None
        self._move_all_accesses(from_bb, to_bb, start)
        for succ in to_bb.successors:
            mphi = self.mssa.get_memory_access(succ)
            if mphi is not None:
                mphi.set_incoming_block(mphi.get_basic_block_index(from_bb), to_bb)

    def move_all_after_merge_blocks(self, from_bb: BasicBlock, to_bb: BasicBlock, start: Instruction) -> None:
        """``from_bb`` (whose only predecessor is ``to_bb``) was merged into ``to_bb``."""
        self._move_all_accesses(from_bb, to_bb, start)
        for succ in from_bb.successors:
            mphi = self.mssa.get_memory_access(succ)
            if mphi is not None:
                mphi.set_incoming_block(mphi.get_basic_block_index(from_bb), to_bb)

    def wire_old_predecessors_to_new_immediate_predecessor(
        self, old: BasicBlock, new: BasicBlock, preds: list[BasicBlock], identical_edges_were_merged: bool = True
    ) -> None:
        """``preds`` of ``old`` now branch to the new block ``new``, which branches to ``old``."""
        mssa = self.mssa
        assert mssa.get_block_accesses(new) is None
        phi = mssa.get_memory_access(old)
        if phi is None:
            return
        if len(old.predecessors) == 1:
            mssa.move_to(phi, new, BEGINNING)
            return
        new_phi = mssa.create_memory_phi(new)
        preds_set = list(preds)

        def moved(ma: MemoryAccess, b: BasicBlock) -> bool:
            for k, p in enumerate(preds_set):
                if p is b:
                    new_phi.add_incoming(ma, b)
                    if not identical_edges_were_merged:
                        del preds_set[k]
                    return True
            return False

        phi.unordered_delete_incoming_if(moved)
        phi.add_incoming(new_phi, new)
        self._try_remove_trivial_phi(new_phi)

    def update_phis_when_inserting_unique_backedge_block(
        self, header: BasicBlock, preheader: BasicBlock, be_block: BasicBlock
    ) -> None:
        """A new block ``be_block`` now takes every back edge of ``header``."""
        mssa = self.mssa
        mphi = mssa.get_memory_access(header)
        if mphi is None:
            return
        new_phi = mssa.create_memory_phi(be_block)
        for i in range(mphi.get_num_incoming_values()):
            ibb = mphi.get_incoming_block(i)
            if ibb is not preheader:
                new_phi.add_incoming(mphi.get_incoming_value(i), ibb)
        from_pre = mphi.get_incoming_value_for_block(preheader)
        mphi.set_incoming_value(0, from_pre)
        mphi.set_incoming_block(0, preheader)
        for i in range(mphi.get_num_incoming_values() - 1, 0, -1):
            mphi.unordered_delete_incoming(i)
        mphi.add_incoming(new_phi, be_block)
        self._try_remove_trivial_phi(new_phi)

    # --- cloned code ----------------------------------------------------------------------------
    def _new_defining_access_for_clone(
        self, ma: MemoryAccess, vmap: Mapping[Value, Value], phi_map: dict[MemoryPhi, MemoryAccess]
    ) -> MemoryAccess:
        """LLVM ``getNewDefiningAccessForClone``: what a clone's access is defined by."""
        mssa = self.mssa
        while True:
            if isinstance(ma, MemoryDef):
                if ma is mssa.live_on_entry:
                    return ma
                inst = ma.memory_inst
                assert inst is not None
                new_inst = vmap.get(inst)
                if isinstance(new_inst, Instruction):
                    found = mssa.get_memory_access(new_inst)
                    if found is None or isinstance(found, MemoryUse):
                        d = ma.get_defining_access()
                        assert d is not None
                        ma = d
                        continue
                    return found  # type: ignore[no-any-return]
                return ma
            assert isinstance(ma, MemoryPhi)
            return phi_map.get(ma, ma)

    def clone_uses_and_defs(
        self, bb: BasicBlock, new_bb: BasicBlock, vmap: Mapping[Value, Value],
        phi_map: dict[MemoryPhi, MemoryAccess], clone_was_simplified: bool = False,
    ) -> None:
        """Give the clones (``vmap``) of ``bb``'s memory instructions in ``new_bb`` their
        accesses, defined through ``vmap`` and ``phi_map`` (LLVM ``cloneUsesAndDefs``)."""
        mssa = self.mssa
        accesses = mssa.get_block_accesses(bb)
        if not accesses:
            return
        for ma in list(accesses):
            if not isinstance(ma, MemoryUseOrDef):
                continue
            inst = ma.memory_inst
            assert inst is not None
            new_inst = vmap.get(inst)
            if not isinstance(new_inst, Instruction):
                continue
            d = ma.get_defining_access()
            assert d is not None
            new = mssa.create_defined_access(
                new_inst, self._new_defining_access_for_clone(d, vmap, phi_map),
                None if clone_was_simplified else ma, False,
            )
            if new is not None:
                mssa.insert_into_lists_for_block(new, new_bb, END)

    def update_for_cloned_block_into_pred(self, bb: BasicBlock, p1: BasicBlock, vmap: Mapping[Value, Value]) -> None:
        """``bb``'s instructions were cloned (and simplified) into its predecessor ``p1``."""
        phi_map: dict[MemoryPhi, MemoryAccess] = {}
        mphi = self.mssa.get_memory_access(bb)
        if mphi is not None:
            phi_map[mphi] = mphi.get_incoming_value_for_block(p1)
        self.clone_uses_and_defs(bb, p1, vmap, phi_map, True)

    def update_for_cloned_loop(
        self, loop_blocks: list[BasicBlock], exit_blocks: list[BasicBlock], vmap: Mapping[Value, Value],
        ignore_incoming_with_no_clones: bool = False,
    ) -> None:
        """The loop's blocks (in RPO) and exit blocks were cloned (``vmap``): the clones get
        phis and accesses (LLVM ``updateForClonedLoop``)."""
        mssa = self.mssa
        phi_map: dict[MemoryPhi, MemoryAccess] = {}
        everything = list(loop_blocks) + list(exit_blocks)
        for bb in everything:
            new_bb = vmap.get(bb)
            if not isinstance(new_bb, BasicBlock):
                continue
            assert mssa.get_block_accesses(new_bb) is None, "cloned block should have no accesses"
            mphi = mssa.get_memory_access(bb)
            if mphi is not None:
                phi_map[mphi] = mssa.create_memory_phi(new_bb)
            self.clone_uses_and_defs(bb, new_bb, vmap, phi_map)
        for bb in everything:
            mphi = mssa.get_memory_access(bb)
            if mphi is None:
                continue
            new_phi = phi_map.get(mphi)
            if not isinstance(new_phi, MemoryPhi):
                continue
            new_preds = set(new_phi.block.predecessors)
            for i in range(mphi.get_num_incoming_values()):
                incoming = mphi.get_incoming_value(i)
                inc_bb = mphi.get_incoming_block(i)
                mapped = vmap.get(inc_bb)
                if isinstance(mapped, BasicBlock):
                    inc_bb = mapped
                elif ignore_incoming_with_no_clones:
                    continue
                if inc_bb not in new_preds:
                    continue
                new_phi.add_incoming(self._new_defining_access_for_clone(incoming, vmap, phi_map), inc_bb)
            single = _only_single_value(new_phi)
            if single is not None:
                phi_map[mphi] = single
                self.remove_memory_access(new_phi)

    def update_exit_blocks_for_cloned_loop(
        self, exit_blocks: list[BasicBlock], vmaps: list[Mapping[Value, Value]], dt: DominatorTree
    ) -> None:
        """Each clone of an exit block now branches to its original's successor: the edges
        are inserted into MemorySSA (``dt`` already has them)."""
        updates: list[tuple[str, BasicBlock, BasicBlock]] = []
        for exit_bb in exit_blocks:
            for vmap in vmaps:
                new_exit = vmap.get(exit_bb)
                if isinstance(new_exit, BasicBlock):
                    term = new_exit.terminator
                    assert term is not None
                    updates.append(("insert", new_exit, term.successors[0]))
        self.apply_insert_updates(updates, dt)

    # --- CFG edge updates -----------------------------------------------------------------------
    def apply_updates(
        self, updates: list[tuple[str, BasicBlock, BasicBlock]], dt: DominatorTree, update_dt: bool = False
    ) -> None:
        """CFG edges ``("insert" | "delete", from, to)`` were added or removed (LLVM
        ``applyUpdates``); with ``update_dt`` the dominator tree is updated here too (else
        the caller has done it). Insertions only or deletions only are handled as LLVM
        does. A batch mixing both takes the deletions first (each leaves its target's phi)
        and then the insertions against the final tree: LLVM instead inserts first, reading
        the CFG through a view that still has the deleted edges, so phis may be placed (and
        numbered) differently, though the result is a valid MemorySSA either way."""
        inserts = [u for u in updates if u[0] == "insert"]
        deletes = [u for u in updates if u[0] != "insert"]
        if update_dt:
            dt.apply_updates(updates)
        if inserts and deletes:
            for _, a, b in deletes:
                self.remove_edge(a, b)
            self.apply_insert_updates(inserts, dt)
            return
        if inserts:
            self.apply_insert_updates(inserts, dt)
        for _, a, b in deletes:
            self.remove_edge(a, b)

    def apply_insert_updates(self, updates: list[tuple[str, BasicBlock, BasicBlock]], dt: DominatorTree) -> None:
        """The edges of ``updates`` were inserted and ``dt`` is up to date (LLVM
        ``applyInsertUpdates``): phis are added (or extended) at their targets and at the
        iterated frontier, and uses no longer dominated by their defs are re-pointed."""
        mssa = self.mssa

        def get_last_def(bb: BasicBlock) -> MemoryAccess:
            while True:
                defs = mssa.get_block_defs(bb)
                if defs:
                    return defs[-1]
                preds = bb.predecessors  # with repeated edges, as LLVM counts them
                if len(preds) != 1:
                    if not dt.is_reachable(bb):
                        return mssa.live_on_entry
                    idom = dt.idom(bb)
                    if idom is not None and idom is not bb:
                        bb = idom
                        continue
                    return mssa.live_on_entry
                if not dt.is_reachable(bb):
                    return mssa.live_on_entry
                bb = preds[0]

        added: dict[BasicBlock, list[BasicBlock]] = {}
        for _, a, b in updates:
            lst = added.setdefault(b, [])
            if not any(x is a for x in lst):
                lst.append(a)
        prev: dict[BasicBlock, list[BasicBlock]] = {}
        edge_count: dict[tuple[BasicBlock, BasicBlock], int] = {}
        new_blocks: list[BasicBlock] = []
        for bb, added_set in added.items():
            prev_set = prev.setdefault(bb, [])
            for pi in bb.predecessors:
                if not any(x is pi for x in added_set) and not any(x is pi for x in prev_set):
                    prev_set.append(pi)
                edge_count[(pi, bb)] = edge_count.get((pi, bb), 0) + 1
            if not prev_set:
                assert len(added_set) == 1, "can only add one predecessor to a new block"
                new_blocks.append(bb)
        for bb in new_blocks:
            del added[bb]
        blocks_with_defs_to_replace: list[BasicBlock] = []
        inserted: list[MemoryPhi] = []
        for _, _a, b in updates:
            if b in added and mssa.get_memory_access(b) is None:
                inserted.append(mssa.create_memory_phi(b))
        for bb, added_set in added.items():
            prev_set = prev[bb]
            last_def_added = [(p, get_last_def(p)) for p in added_set]
            new_phi = mssa.get_memory_access(bb)
            assert isinstance(new_phi, MemoryPhi)
            if new_phi.get_num_incoming_values():
                for pred, last in last_def_added:
                    for _ in range(edge_count.get((pred, bb), 0)):
                        new_phi.add_incoming(last, pred)
            else:
                def_p1 = get_last_def(prev_set[0])
                if all(last is def_p1 for _, last in last_def_added):
                    self._rauw(new_phi, def_p1)
                    self.remove_memory_access(new_phi)
                    continue
                for pred, last in last_def_added:
                    for _ in range(edge_count.get((pred, bb), 0)):
                        new_phi.add_incoming(last, pred)
                for pred in prev_set:
                    for _ in range(edge_count.get((pred, bb), 0)):
                        new_phi.add_incoming(def_p1, pred)
            prev_idom: BasicBlock | None = prev_set[0]
            for p in prev_set:
                assert prev_idom is not None
                prev_idom = dt.nearest_common_dominator(prev_idom, p)
            new_idom = dt.idom(bb)
            assert prev_idom is not None and new_idom is not None
            if prev_idom is not new_idom:
                blocks_with_defs_to_replace.append(prev_idom)
                nxt = prev_idom
                while True:
                    up = dt.idom(nxt)
                    if up is None or up is new_idom:
                        break
                    blocks_with_defs_to_replace.append(up)
                    nxt = up
        self.try_remove_trivial_phis(inserted)
        to_process = [p.block for p in inserted if not p.erased]
        if to_process:
            idf_blocks = IDFCalculator(dt).calculate(to_process, sort=False, edges=_reversed_successors)
            to_fill: list[MemoryPhi] = []
            for bb in idf_blocks:
                if mssa.get_memory_access(bb) is None:
                    phi = mssa.create_memory_phi(bb)
                    inserted.append(phi)
                    to_fill.append(phi)
            for bb in idf_blocks:
                phi = mssa.get_memory_access(bb)
                assert isinstance(phi, MemoryPhi)
                if not any(p is phi for p in to_fill):
                    for i in range(phi.get_num_incoming_values()):
                        phi.set_incoming_value(i, get_last_def(phi.get_incoming_block(i)))
                else:
                    for pi in bb.predecessors:
                        phi.add_incoming(get_last_def(pi), pi)
        for block in blocks_with_defs_to_replace:
            defs = mssa.get_block_defs(block)
            if not defs:
                continue
            for d in list(defs):
                dominating = d.block
                for use in list(d.uses):
                    user = use.user
                    if isinstance(user, MemoryPhi):
                        dominated = user.get_incoming_block(use)
                        if not dt.dominates_block(dominating, dominated):
                            use.set(get_last_def(dominated))
                    else:
                        dominated = user.block
                        if not dt.dominates_block(dominating, dominated):
                            dom_phi = mssa.get_memory_access(dominated)
                            if dom_phi is not None:
                                use.set(dom_phi)
                            else:
                                idom2 = dt.idom(dominated)
                                assert idom2 is not None, "block must have an immediate dominator"
                                use.set(get_last_def(idom2))
                            assert isinstance(user, MemoryUseOrDef)
                            user.reset_optimized()
        self.try_remove_trivial_phis(inserted)

    # --- removing -------------------------------------------------------------------------------
    def remove_memory_access(self, ma: MemoryAccess | Instruction, optimize_phis: bool = False) -> None:
        """Delete an access (or the access of an instruction, if it has one): its users take
        its defining access (a phi's single incoming value), cached clobbers of users are
        dropped; with ``optimize_phis``, phis among its users are simplified if trivial.
        Call it before erasing the instruction."""
        mssa = self.mssa
        if isinstance(ma, Instruction):
            found = mssa.get_memory_access(ma)
            if found is None:
                return
            ma = found
        assert isinstance(ma, MemoryAccess)
        assert not mssa.is_live_on_entry_def(ma), "removing the live-on-entry def"
        new_target: MemoryAccess | None
        if isinstance(ma, MemoryPhi):
            new_target = _only_single_value(ma)
            assert new_target is not None or ma.use_empty(), "cannot delete this memory phi"
        else:
            assert isinstance(ma, MemoryUseOrDef)
            new_target = ma.get_defining_access()
        phis_to_check: list[MemoryPhi] = []
        if type(ma) is not MemoryUse and not ma.use_empty():
            assert new_target is not None and new_target is not ma
            self._replaced[ma] = new_target
            while True:
                use = ma._use_head
                if use is None:
                    break
                user = use.user
                if isinstance(user, MemoryUseOrDef):
                    user.reset_optimized()
                if optimize_phis and isinstance(user, MemoryPhi):
                    if not any(p is user for p in phis_to_check):
                        phis_to_check.append(user)
                use.set(new_target)
        mssa.remove_from_lookups(ma)
        mssa.remove_from_lists(ma)
        while phis_to_check:
            mp = phis_to_check.pop()
            if not mp.erased:
                self._try_remove_trivial_phi(mp)

    def remove_edge(self, from_bb: BasicBlock, to_bb: BasicBlock) -> None:
        """The edge ``from_bb -> to_bb`` was deleted (every copy of it)."""
        mphi = self.mssa.get_memory_access(to_bb)
        if mphi is not None:
            mphi.unordered_delete_incoming_block(from_bb)
            self._try_remove_trivial_phi(mphi)

    def remove_duplicate_phi_edges_between(self, from_bb: BasicBlock, to_bb: BasicBlock) -> None:
        """``from_bb`` now reaches ``to_bb`` by one edge only: keep one incoming for it."""
        mphi = self.mssa.get_memory_access(to_bb)
        if mphi is not None:
            found = [False]

            def duplicate(_ma: MemoryAccess, b: BasicBlock) -> bool:
                if b is not from_bb:
                    return False
                if found[0]:
                    return True
                found[0] = True
                return False

            mphi.unordered_delete_incoming_if(duplicate)
            self._try_remove_trivial_phi(mphi)

    def remove_blocks(self, dead_blocks: Iterable[BasicBlock]) -> None:
        """Forget the accesses of ``dead_blocks`` (about to be deleted) and their incomings
        in the phis of live successors."""
        mssa = self.mssa
        dead = list(dict.fromkeys(dead_blocks))
        dead_set = set(dead)
        for bb in dead:
            term = bb.terminator
            assert term is not None, "basic block without a terminator"
            for succ in term.successors:
                if succ not in dead_set:
                    mp = mssa.get_memory_access(succ)
                    if mp is not None:
                        mp.unordered_delete_incoming_block(bb)
                        self._try_remove_trivial_phi(mp)
            acc = mssa.get_block_accesses(bb)
            if acc:
                for ma in acc:
                    ma.drop_all_references()
        for bb in dead:
            acc = mssa.get_block_accesses(bb)
            if not acc:
                continue
            for ma in list(acc):
                mssa.remove_from_lookups(ma)
                mssa.remove_from_lists(ma)

    def change_to_unreachable(self, inst: Instruction) -> None:
        """``inst`` and everything after it in its block become ``unreachable``: their
        accesses go, and the block leaves its successors' phis."""
        bb = inst.parent
        assert bb is not None
        cur: Instruction | None = inst
        while cur is not None:
            nxt = cur.next_instruction
            self.remove_memory_access(cur)
            cur = nxt
        updated: list[MemoryPhi] = []
        for succ in bb.successors:
            self.remove_duplicate_phi_edges_between(bb, succ)
            mphi = self.mssa.get_memory_access(succ)
            if mphi is not None:
                mphi.unordered_delete_incoming_block(bb)
                updated.append(mphi)
        self.try_remove_trivial_phis(updated)


def _reversed_successors(bb: BasicBlock) -> list[BasicBlock]:
    """Successors as LLVM's ``GraphDiff`` lists them (last to first)."""
    return bb.successors[::-1]


def _index(items: list[MemoryAccess], target: MemoryAccess) -> int:
    for i in range(len(items)):
        if items[i] is target:
            return i
    raise ValueError("memory access not in list")


__all__ = ["BEFORE_TERMINATOR", "BEGINNING", "END", "MemorySSAUpdater"]
