"""Exception handling in SimplifyCFG: trivial ``resume`` and ``cleanupret`` blocks,
identical landing pads (LLVM 19.1.7 ``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``:
``simplifyResume``, ``isCleanupBlockEmpty``, ``simplifyCommonResume``,
``simplifySingleResume``, ``removeEmptyCleanup``, ``mergeCleanupPad``,
``simplifyCleanupReturn``, ``TryToMergeLandingPad``).

What:

- :func:`simplify_resume`: a block that only re-raises what its own landing pad caught
  (nothing between them but debug and ``lifetime.end`` intrinsics) is deleted and
  every invoke unwinding to it becomes a call. When the resumed value is a phi of
  landing pads, each incoming block that is such a trivial landing pad (branching
  only here) is cut off: its invokes become calls, its branch becomes
  ``unreachable``, and the resume block goes when nothing reaches it.
- :func:`simplify_cleanup_return`: a ``cleanupret`` that unwinds to a block starting
  with a cleanup pad that only it reaches absorbs that pad (one pad, a branch); an
  empty cleanup pad is removed, its predecessors unwinding straight to its unwind
  destination (phis translated, phis used further on sunk into it) or, when it
  unwinds to the caller, their invokes becoming calls.
- :func:`try_to_merge_landing_pad`: a landing pad block that only branches on is
  replaced by an identical one (same landing pad, same branch) of another
  predecessor of its successor, when that successor has no phis.

The dominator tree is not updated (the pass keeps none).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.eh import CleanupPadInst, CleanupReturnInst, LandingPadInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, InvokeInst, UnreachableInst
from llvmpy_mid.transform.utils.basic_block_utils import delete_dead_block, remove_predecessor

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt


_BENIGN_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.label", "llvm.lifetime.end"))


def _is_cleanup_block_empty(first: Instruction | None, end: Instruction | None) -> bool:
    """Every instruction from ``first`` up to (not including) ``end`` is a debug or
    ``lifetime.end`` intrinsic (LLVM ``isCleanupBlockEmpty``)."""
    inst = first
    while inst is not None and inst is not end:
        if not isinstance(inst, CallInst):
            return False
        if inst.intrinsic_base not in _BENIGN_INTRINSICS:
            return False
        inst = inst.next_instruction
    return True


def _is_dbg_intrinsic(inst: Instruction) -> bool:
    return isinstance(inst, CallInst) and inst.intrinsic_name.startswith("llvm.dbg.")


def _is_used_outside_of_block(inst: Instruction, bb: BasicBlock) -> bool:
    """LLVM ``Instruction::isUsedOutsideOfBlock`` (a phi use counts where its edge comes from)."""
    for use in inst.uses:
        user = use.user
        if isinstance(user, PHINode):
            if user.incoming_blocks[use.index] is not bb:
                return True
        elif isinstance(user, Instruction) and user.parent is not bb:
            return True
    return False


def _unique(blocks: list[BasicBlock]) -> list[BasicBlock]:
    seen: set[BasicBlock] = set()
    out: list[BasicBlock] = []
    for b in blocks:
        if b not in seen:
            seen.add(b)
            out.append(b)
    return out


def _replace_terminator_with_unreachable(term: Instruction) -> None:
    """Put ``unreachable`` where ``term`` was; it takes the terminator's debug records."""
    bb = term.parent
    assert bb is not None
    ur = UnreachableInst(bb.context)
    ur.insert_before(term)
    ur.debug_loc = term.debug_loc
    for rec in term.take_dbg_records():
        ur.add_dbg_record(rec)
    term.erase_from_parent()


# --- resume ---------------------------------------------------------------------------------------


def simplify_resume(opt: SimplifyCFGOpt, ri: Instruction) -> bool:
    """LLVM ``simplifyResume``: a resume of a phi of landing pads, or of its own block's
    landing pad."""
    bb = ri.parent
    assert bb is not None
    value = ri.operands[0]
    if isinstance(value, PHINode):
        return _simplify_common_resume(ri, value)
    first = bb.first_non_phi
    if isinstance(first, LandingPadInst) and value is first:
        return _simplify_single_resume(ri, first)
    return False


def _simplify_common_resume(ri: Instruction, phi: PHINode) -> bool:
    """LLVM ``simplifyCommonResume``."""
    from llvmpy_mid.transform.utils.simplify_cfg_unreachable import remove_unwind_edge

    bb = ri.parent
    assert bb is not None
    if not _is_cleanup_block_empty(bb.first_non_phi, ri):
        return False
    trivial: list[BasicBlock] = []
    blocks = phi.incoming_blocks
    values = phi.incoming_values
    for inc_bb, inc_value in zip(blocks, values):
        if inc_bb.unique_successor is not bb:
            continue
        lpad = inc_bb.first_non_phi
        if not isinstance(lpad, LandingPadInst) or inc_value is not lpad:
            continue
        if _is_cleanup_block_empty(lpad.next_instruction, inc_bb.terminator) and inc_bb not in trivial:
            trivial.append(inc_bb)
    if not trivial:
        return False
    for tbb in trivial:
        while phi.basic_block_index(tbb) != -1:
            remove_predecessor(bb, tbb, True)
        for pred in list(tbb.predecessors):
            remove_unwind_edge(pred)
        term = tbb.terminator
        assert term is not None
        recs = term.take_dbg_records()
        term.erase_from_parent()
        ur = UnreachableInst(tbb.context)
        ur.insert_into(tbb)
        for rec in recs:
            ur.add_dbg_record(rec)
    if not bb.predecessors:
        delete_dead_block(bb)
    return True


def _simplify_single_resume(ri: Instruction, lpad: LandingPadInst) -> bool:
    """LLVM ``simplifySingleResume``."""
    from llvmpy_mid.transform.utils.simplify_cfg_unreachable import remove_unwind_edge

    bb = ri.parent
    assert bb is not None
    if not _is_cleanup_block_empty(lpad.next_instruction, ri):
        return False
    for pred in list(bb.predecessors):
        remove_unwind_edge(pred)
    delete_dead_block(bb)
    return True


# --- cleanupret -----------------------------------------------------------------------------------


def _remove_empty_cleanup(ri: CleanupReturnInst) -> bool:
    """LLVM ``removeEmptyCleanup``."""
    from llvmpy_mid.transform.utils.simplify_cfg_unreachable import remove_unwind_edge

    bb = ri.parent
    assert bb is not None
    pad = ri.cleanup_pad
    if not isinstance(pad, Instruction) or pad.parent is not bb:
        return False
    if not pad.has_one_use:
        return False
    if not _is_cleanup_block_empty(pad.next_instruction, ri):
        return False
    unwind = ri.unwind_dest
    if unwind is not None:
        dest_pad = unwind.first_non_phi
        assert dest_pad is not None
        preds = bb.predecessors
        for dest_pn in list(unwind.phis()):
            idx = dest_pn.basic_block_index(bb)
            assert idx != -1
            src = dest_pn.incoming_values[idx]
            translate = isinstance(src, PHINode) and src.parent is bb
            for pred in preds:
                if translate:
                    assert isinstance(src, PHINode)
                    dest_pn.add_incoming(src.incoming_value_for_block(pred), pred)
                else:
                    dest_pn.add_incoming(src, pred)
        for pn in list(bb.phis()):
            if pn.use_empty or not _is_used_outside_of_block(pn, bb):
                continue
            for upred in unwind.predecessors:
                if upred is not bb:
                    pn.add_incoming(pn, upred)
            pn.move_before(dest_pad)
            pn.add_incoming(PoisonValue.get(pn.type), bb)
    for pred in list(bb.predecessors):
        if unwind is None:
            remove_unwind_edge(pred)
        else:
            remove_predecessor(bb, pred)
            term = pred.terminator
            assert term is not None
            term.replace_uses_of_with(bb, unwind)
    delete_dead_block(bb)
    return True


def _merge_cleanup_pad(ri: CleanupReturnInst) -> bool:
    """LLVM ``mergeCleanupPad``: the cleanup pad this one unwinds to (reached only from
    here) is folded into it."""
    unwind = ri.unwind_dest
    if unwind is None:
        return False
    bb = ri.parent
    if unwind.single_predecessor is not bb or bb is None:
        return False
    succ_pad = unwind.first_instruction
    if not isinstance(succ_pad, CleanupPadInst):
        return False
    pred_pad = ri.cleanup_pad
    succ_pad.replace_all_uses_with(pred_pad)
    succ_pad.erase_from_parent()
    BranchInst(unwind).insert_into(bb)
    ri.erase_from_parent()
    return True


def simplify_cleanup_return(opt: SimplifyCFGOpt, ri: Instruction) -> bool:
    """LLVM ``simplifyCleanupReturn``."""
    assert isinstance(ri, CleanupReturnInst)
    if isinstance(ri.operands[0], UndefValue):
        return False
    if _merge_cleanup_pad(ri):
        return True
    return _remove_empty_cleanup(ri)


# --- landing pads ---------------------------------------------------------------------------------


def try_to_merge_landing_pad(lpad: LandingPadInst, bi: BranchInst, bb: BasicBlock) -> bool:
    """``bb`` (a landing pad and a branch) is replaced by an identical landing pad block
    of another predecessor of its successor (LLVM ``TryToMergeLandingPad``)."""
    succ = bb.unique_successor
    assert succ is not None
    if isinstance(succ.first_instruction, PHINode):
        return False
    for other in succ.predecessors:
        if other is bb:
            continue
        lpad2 = other.first_instruction
        if not isinstance(lpad2, LandingPadInst) or not lpad2.is_identical_to(lpad):
            continue
        inst = lpad2.next_instruction
        while inst is not None and _is_dbg_intrinsic(inst):
            inst = inst.next_instruction
        if not isinstance(inst, BranchInst) or not inst.is_identical_to(bi):
            continue
        for pred in _unique(bb.predecessors):
            ii = pred.terminator
            assert isinstance(ii, InvokeInst)
            ii.unwind_dest = other
        for dbg in [i for i in other if _is_dbg_intrinsic(i)]:
            dbg.erase_from_parent()
        for s in _unique(bb.successors):
            remove_predecessor(s, bb)
        _replace_terminator_with_unreachable(bi)
        return True
    return False


__all__ = ["simplify_cleanup_return", "simplify_resume", "try_to_merge_landing_pad"]
