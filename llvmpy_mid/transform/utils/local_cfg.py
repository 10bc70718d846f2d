"""Block-level cleanups of LLVM 19.1.7 ``llvm/lib/Transforms/Utils/Local.cpp`` that
SimplifyCFG (and later passes) lean on: ``TryToSimplifyUncondBranchFromEmptyBlock``
and ``EliminateDuplicatePHINodes``.

What: :func:`try_to_simplify_uncond_branch_from_empty_block` removes a block that
holds only phis and an unconditional branch, sending its predecessors to the
successor (merging the phis, the undef entries filled in as LLVM does), or, when the
successor's phis conflict, keeps it but redirects the predecessors that can go
straight (LLVM's "common predecessor" case). :func:`eliminate_duplicate_phi_nodes`
replaces each phi by the first identical phi of its block.
"""

from __future__ import annotations

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, IndirectBrInst, UnreachableInst
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.transform.utils.basic_block_utils import delete_dead_block

PHI_CSE_NUM_PHI_SMALL_SIZE = 32
"""LLVM ``-phicse-num-phi-smallsize``: up to this many phis are compared without flags."""


# --- duplicate phis --------------------------------------------------------------------------------


def eliminate_duplicate_phi_nodes(bb: BasicBlock) -> bool:
    """Replace every phi of ``bb`` identical to an earlier one by that one, then erase
    the duplicates (LLVM ``EliminateDuplicatePHINodes``). Identity is same type and the
    same incoming (value, block) pairs in order; above
    :data:`PHI_CSE_NUM_PHI_SMALL_SIZE` phis the fast-math flags must agree too (LLVM's
    set-based variant compares with ``isIdenticalTo``)."""
    phis = list(bb.phis())
    if len(phis) < 2:
        return False
    with_flags = len(phis) > PHI_CSE_NUM_PHI_SMALL_SIZE
    removed: dict[PHINode, None] = {}
    changed = False
    again = True
    while again:
        again = False
        seen: dict[tuple[object, ...], PHINode] = {}
        for phi in phis:
            if phi in removed:
                continue
            key: tuple[object, ...] = (phi.type, tuple(map(id, phi.operands)), tuple(map(id, phi.incoming_blocks)))
            if with_flags:
                key += (getattr(phi, "fast_math_flags", 0),)
            first = seen.get(key)
            if first is None:
                seen[key] = phi
                continue
            phi.replace_all_uses_with(first)
            removed[phi] = None
            changed = True
            again = True
    for phi in removed:
        phi.erase_from_parent()
    return changed


# --- empty blocks ending in an unconditional branch -------------------------------------------------


def _can_merge_values(a: Value, b: Value) -> bool:
    return a is b or isinstance(a, UndefValue) or isinstance(b, UndefValue)


def _can_propagate_predecessors_for_phis(bb: BasicBlock, succ: BasicBlock, bb_preds: set[BasicBlock]) -> bool:
    """LLVM ``CanPropagatePredecessorsForPHIs``: the phis of ``succ`` agree, for every
    common predecessor, with what ``bb`` would bring in."""
    if succ.single_predecessor is not None:
        return True
    for pn in succ.phis():
        val = pn.incoming_value_for_block(bb)
        own_phi = isinstance(val, PHINode) and val.parent is bb
        for ibb in bb_preds:
            for i in pn.indices_for_block(ibb):
                v = pn.get_incoming_value(i)
                mine = val.incoming_value_for_block(ibb) if own_phi else val  # type: ignore[attr-defined]
                if not _can_merge_values(mine, v):
                    return False
    return True


def _can_redirect_preds_of_empty_bb_to_succ(
    bb: BasicBlock, succ: BasicBlock, bb_preds: list[BasicBlock]
) -> tuple[bool, BasicBlock | None]:
    """LLVM ``CanRedirectPredsOfEmptyBBToSucc``: (possible, the one common predecessor)."""
    if next(bb.phis(), None) is None or next(succ.phis(), None) is None:
        return False, None
    if not bb.has_n_predecessors_or_more(2):
        return False, None
    if any(isinstance(p.terminator, IndirectBrInst) for p in bb_preds):
        return False, None
    bb_pred_set = set(bb_preds)
    common: BasicBlock | None = None
    for sp in dict.fromkeys(succ.predecessors):
        if sp in bb_pred_set:
            if common is not None:
                return False, None
            common = sp
    return True, common


def _select_incoming_value_for_block(old: Value, bb: BasicBlock, incoming: dict[BasicBlock, Value]) -> Value:
    if not isinstance(old, UndefValue):
        incoming.setdefault(bb, old)
        return old
    return incoming.get(bb, old)


def _replace_undef_values_in_phi(pn: PHINode, incoming: dict[BasicBlock, Value]) -> None:
    true_undef: list[int] = []
    for i, (v, ibb) in enumerate(pn.incoming):
        if not isinstance(v, UndefValue):
            continue
        known = incoming.get(ibb)
        if known is None:
            true_undef.append(i)
            continue
        pn.set_incoming_value(i, known)
    poison = sum(1 for i in true_undef if isinstance(pn.get_incoming_value(i), PoisonValue))
    if poison != 0 and poison != len(true_undef):
        undef = UndefValue.get(pn.type)
        for i in true_undef:
            pn.set_incoming_value(i, undef)


def _redirect_values_from_predecessors_to_phi(
    bb: BasicBlock, bb_preds: list[BasicBlock], pn: PHINode, common: BasicBlock | None
) -> None:
    old = pn.remove_incoming_value(bb, False)
    incoming: dict[BasicBlock, Value] = {}
    for v, ibb in pn.incoming:
        if not isinstance(v, UndefValue):
            incoming.setdefault(ibb, v)
    if isinstance(old, PHINode) and old.parent is bb:
        for pv, pbb in old.incoming:
            if pbb is common:
                continue
            pn.add_incoming(_select_incoming_value_for_block(pv, pbb, incoming), pbb)
        if common is not None:
            pn.add_incoming(old.incoming_value_for_block(common), bb)
    else:
        for pbb in bb_preds:
            if pbb is common:
                continue
            pn.add_incoming(_select_incoming_value_for_block(old, pbb, incoming), pbb)
        if common is not None:
            pn.add_incoming(old, bb)
    _replace_undef_values_in_phi(pn, incoming)


def try_to_simplify_uncond_branch_from_empty_block(bb: BasicBlock) -> bool:
    """Fold ``bb`` (only phis, debug records and ``br label %succ``) into its successor
    (LLVM ``TryToSimplifyUncondBranchFromEmptyBlock``). Not for the entry block."""
    fn = bb.parent
    assert fn is not None and bb is not fn.entry_block
    term = bb.terminator
    assert isinstance(term, BranchInst)
    succ = term.get_successor(0)
    if bb is succ:
        return False
    preds = bb.predecessors
    bb_pred_set = set(preds)
    killable = _can_propagate_predecessors_for_phis(bb, succ, bb_pred_set)
    common: BasicBlock | None = None
    mergeable = killable
    if not killable:
        mergeable, common = _can_redirect_preds_of_empty_bb_to_succ(bb, succ, preds)
    if not killable and not mergeable:
        return False
    if succ.single_predecessor is None:
        for phi in bb.phis():
            for use in phi.uses:
                user = use.user
                if not isinstance(user, PHINode) or user.get_incoming_block_for_use(use) is not bb:
                    return False
    loop_md = term.get_metadata("llvm.loop")
    if loop_md is not None:
        for p in preds:
            pt = p.terminator
            if pt is not None and pt.get_metadata("llvm.loop") is not None:
                return False
    if next(succ.phis(), None) is not None:
        pred_list = preds  # with repeats, in predecessor order (LLVM's PredBlockVector)
        for pn in list(succ.phis()):
            _redirect_values_from_predecessors_to_phi(bb, pred_list, pn, common)
    if succ.single_predecessor is not None:
        records = term._dbg_records
        term._dbg_records = None
        term.erase_from_parent()
        insert_at = succ.first_non_phi
        assert insert_at is not None
        node = bb.instructions._first
        while node is not None:
            nxt = node._next
            node.move_before(insert_at, preserve_dbg_records=True)
            node = nxt
        if records:
            for r in records:
                r.instruction = insert_at
            if insert_at._dbg_records is None:
                insert_at._dbg_records = []
            insert_at._dbg_records[0:0] = records
    else:
        first = bb.first_instruction
        while isinstance(first, PHINode):
            first.erase_from_parent()
            first = bb.first_instruction
    bterm = bb.terminator
    if bterm is not None and loop_md is not None:
        for p in bb.predecessors:
            pt = p.terminator
            assert pt is not None
            pt.set_metadata("llvm.loop", loop_md)
    if killable:
        bb.replace_all_uses_with(succ)
        if not succ.has_name:
            taken = bb.name
            bb.set_name("")
            succ.set_name(taken)
        last = bb.terminator
        if last is not None:
            last.erase_from_parent()
        bb.append(UnreachableInst(bb.context))
        delete_dead_block(bb)
    elif mergeable:
        keep_in = bb_pred_set

        def redirect(use: Use) -> bool:
            user = use.user
            if isinstance(user, Instruction):
                parent = user.parent
                return parent is not common and parent in keep_in
            return False

        bb.replace_uses_with_if(succ, redirect)
    return True


__all__ = [
    "PHI_CSE_NUM_PHI_SMALL_SIZE",
    "eliminate_duplicate_phi_nodes",
    "try_to_simplify_uncond_branch_from_empty_block",
]
