"""MemorySSA's structural checks (LLVM 19.1.7 ``MemorySSA::verifyMemorySSA``:
``verifyOrderingDominationAndDefUses``, ``verifyDominationNumbers``,
``verifyPrevDefInPhis``, ``verifyUseInDefs``).

What it checks: every block's access and def lists hold exactly the accesses of its
instructions (and its phi) in instruction order; every def and phi dominates its uses;
every defining access lists the access among its users; with ``full``, each phi has one
incoming per predecessor edge, from predecessors only, and each incoming is the last
def of the nearest dominator (of the incoming block) that has defs; valid per-block
order numbers increase. Failures raise :class:`AssertionError` naming the problem.
Also checks that the instruction map points back at each access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.memory_ssa import MemoryAccess, MemoryDef, MemoryPhi, MemoryUse, MemoryUseOrDef

if TYPE_CHECKING:
    from llvmpy_mid.analysis.memory_ssa import MemorySSA


def _fail(text: str) -> None:
    raise AssertionError("MemorySSA verification failed: " + text)


def _verify_use_in_defs(mssa: MemorySSA, definition: MemoryAccess | None, use: MemoryAccess) -> None:
    if definition is None:
        if not mssa.is_live_on_entry_def(use):
            _fail("null defining access of %s" % use)
        return
    for user in definition.users:
        if user is use:
            return
    _fail("%s is not among the users of its defining access %s" % (use, definition))


def verify_memory_ssa(mssa: MemorySSA, full: bool = True) -> None:
    fn = mssa.function
    dt = mssa.dt
    for bb in fn.blocks:
        al = mssa.get_block_accesses(bb)
        dl = mssa.get_block_defs(bb)
        actual: list[MemoryAccess] = []
        actual_defs: list[MemoryAccess] = []
        phi = mssa.get_memory_access(bb)
        if phi is not None:
            assert isinstance(phi, MemoryPhi)
            if phi.block is not bb:
                _fail("phi of %%%s claims block %%%s" % (bb.name, phi.block.name))
            actual.append(phi)
            actual_defs.append(phi)
            for use in phi.uses:
                if not mssa.dominates(phi, use):
                    _fail("MemoryPhi %s does not dominate its use in %s" % (phi, use.user))
            if full:
                preds = bb.predecessors
                if phi.get_num_incoming_values() != len(preds):
                    _fail("incomplete MemoryPhi %s (%d predecessors)" % (phi, len(preds)))
                for i in range(phi.get_num_incoming_values()):
                    _verify_use_in_defs(mssa, phi.get_incoming_value(i), phi)
                    if not any(p is phi.get_incoming_block(i) for p in preds):
                        _fail("incoming block of %s is not a predecessor" % phi)
        inst = bb.instructions.first
        while inst is not None:
            ma = mssa.get_memory_access(inst)
            if ma is not None:
                assert isinstance(ma, MemoryUseOrDef)
                if ma.memory_inst is not inst or ma.block is not bb:
                    _fail("access %s does not belong to its instruction" % ma)
                if al is None or (type(ma) is not MemoryUse and dl is None):
                    _fail("access %s of %%%s is not on the block's lists" % (ma, bb.name))
                actual.append(ma)
                if type(ma) is MemoryDef:
                    actual_defs.append(ma)
                    for use in ma.uses:
                        if not mssa.dominates(ma, use):
                            _fail("MemoryDef %s does not dominate its use in %s" % (ma, use.user))
                if full:
                    _verify_use_in_defs(mssa, ma.get_defining_access(), ma)
            inst = inst.next_instruction
        if al is None and dl is None:
            if actual:
                _fail("block %%%s has accesses but no lists" % bb.name)
            continue
        if al is None or len(al) != len(actual) or any(a is not b for a, b in zip(al, actual)):
            _fail("access list of %%%s differs from its instructions' accesses" % bb.name)
        if dl is None:
            if actual_defs:
                _fail("block %%%s has defs but no defs list" % bb.name)
        elif len(dl) != len(actual_defs) or any(a is not b for a, b in zip(dl, actual_defs)):
            _fail("defs list of %%%s differs from its defs" % bb.name)
    # domination numbers
    numbering = mssa._block_numbering
    for bb in mssa._block_numbering_valid:
        al = mssa.get_block_accesses(bb)
        if al is None:
            continue
        last = 0
        for ma in al:
            n = numbering.get(ma)
            if n is None or n <= last:
                _fail("domination numbers of %%%s do not increase" % bb.name)
            else:
                last = n
    if full:
        for bb in fn.blocks:
            phi = mssa.get_memory_access(bb)
            if phi is None:
                continue
            for i in range(phi.get_num_incoming_values()):
                pred = phi.get_incoming_block(i)
                inc = phi.get_incoming_value(i)
                if not dt.is_reachable(pred):
                    continue
                node = pred
                while node is not None:
                    defs = mssa.get_block_defs(node)
                    if defs:
                        if defs[-1] is not inc:
                            _fail("incorrect incoming access into phi %s from %%%s" % (phi, pred.name))
                        break
                    node = dt.idom(node)


__all__ = ["verify_memory_ssa"]
