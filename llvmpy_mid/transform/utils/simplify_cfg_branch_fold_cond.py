"""Conditional branch to conditional branch (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``SimplifyCondBranchToCondBranch``,
``tryWidenCondBranchToCondBranch``, ``mergeConditionalStores`` /
``mergeConditionalStoreToAddress``, ``mergeNestedCondBranch``).

What:

- :func:`simplify_cond_branch_to_cond_branch`: a block ending in a conditional branch
  whose predecessor ends in one too: the same condition makes the second branch
  constant; a widenable predecessor branch is widened to reuse its deoptimizing
  target; conditional stores are merged; and when the block holds nothing but the
  branch and the two branches share a destination, the predecessor branches on
  ``pbi.cond | bi.cond`` (``brmerge``) straight to both destinations, with ``.mux``
  selects for the phis of the common destination and an ``infloop`` block when the
  other destination is the block itself.
- :func:`merge_conditional_stores`: two diamonds (or triangles) in a row that each
  store to the same address conditionally become one store, predicated on the
  union of the conditions, in a new block after the second diamond.
- :func:`merge_nested_cond_branch`: ``br c1, (br c2, A, B), (br c2, B, A)`` becomes
  ``br (c1 ^ c2), B, A``.

Branch weights (``!prof``) are combined as LLVM combines them. The dominator tree is
not updated (the pass does not keep one).
"""

from __future__ import annotations

from llvmpy_mid.analysis.block_frequency_bpi import terminating_deoptimize_call
from llvmpy_mid.analysis.block_frequency_scaled import probability
from llvmpy_mid.analysis.target_transform_info import (
    TCC_BASIC,
    TCK_SIZE_AND_LATENCY,
    InstructionCost,
    TargetTransformInfo,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder, NoFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.prof_data_utils import fit_weights, set_branch_weights_if_nonzero
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor, split_block_predecessors
from llvmpy_mid.transform.utils.simplify_cfg_common import _two_weights as _two_weights
from llvmpy_mid.transform.utils.simplify_cfg_common import (
    add_predecessor_to_block,
    create_logical_op,
    extract_pred_succ_weights,
)

_U64 = (1 << 64) - 1


# --- small queries --------------------------------------------------------------------------


def _is_debug_intrinsic(inst: Instruction) -> bool:
    """A call of an ``llvm.dbg.*`` intrinsic (what ``instructionsWithoutDebug`` skips)."""
    if inst.opcode != "call":
        return False
    fn = getattr(inst, "called_function", None)
    if fn is None:
        return False
    name: str = fn.name
    return name.startswith("llvm.dbg.")


def _first_non_debug(bb: BasicBlock) -> Instruction | None:
    inst = bb.first_instruction
    while inst is not None and _is_debug_intrinsic(inst):
        inst = inst.next_instruction
    return inst


def _set_two_weights(inst: Instruction, true_weight: int, false_weight: int) -> None:
    """SimplifyCFG's ``setBranchWeights`` for two halved 64-bit weights."""
    fitted = fit_weights([true_weight & _U64, false_weight & _U64])
    set_branch_weights_if_nonzero(inst, [fitted[0] & 0xFFFFFFFF, fitted[1] & 0xFFFFFFFF])


def _is_widenable_condition(v: Value) -> bool:
    if not isinstance(v, Instruction) or v.opcode != "call":
        return False
    fn = getattr(v, "called_function", None)
    return fn is not None and fn.name == "llvm.experimental.widenable.condition"


def _is_widenable_branch(bi: BranchInst) -> bool:
    """``br (widenable.condition())`` or ``br (and c, widenable.condition())`` with the
    condition used once (LLVM ``isWidenableBranch``)."""
    if not bi.is_conditional:
        return False
    cond = bi.condition
    if not cond.has_one_use:
        return False
    if _is_widenable_condition(cond):
        return True
    if not isinstance(cond, BinaryOperator) or cond.opcode != "and":
        return False
    a = cond.operands[0]
    b = cond.operands[1]
    if _is_widenable_condition(a) and a.has_one_use:
        return True
    return _is_widenable_condition(b) and b.has_one_use


def _as_tti(tti: object) -> TargetTransformInfo:
    """The target answers (LLVM's ``NoTTIImpl`` when the caller has none)."""
    return tti if isinstance(tti, TargetTransformInfo) else TargetTransformInfo()


def _predictable_branch_threshold(tti: object) -> int:
    """TTI's predictable-branch threshold as a ``BranchProbability`` numerator over 2^31."""
    num, den = _as_tti(tti).get_predictable_branch_threshold()
    return probability(num, den)


def _probability(num: int, den: int) -> int:
    """LLVM ``BranchProbability::getBranchProbability`` for 64-bit counts."""
    shift = 0
    while den > 0xFFFFFFFF:
        den >>= 1
        shift += 1
    return probability(num >> shift, den)


# --- widening a guard branch ----------------------------------------------------------------


def _try_widen_cond_branch_to_cond_branch(pbi: BranchInst, bi: BranchInst) -> bool:
    """LLVM ``tryWidenCondBranchToCondBranch``: when ``pbi`` is a widenable branch to
    ``bi``'s block and its false target ends the function, point ``bi``'s deoptimizing
    successor at that target instead."""
    if_true = pbi.get_successor(0)
    if_false = pbi.get_successor(1)
    bb = bi.parent
    assert bb is not None
    if not _is_widenable_branch(pbi) or if_true is not bb or bb.single_predecessor is None:
        return False
    first = if_false.first_instruction
    if first is not None and first.is_phi:
        return False
    if if_false.successors:
        return False
    for idx in (1, 0):
        succ = bi.get_successor(idx)
        if succ is not if_false and terminating_deoptimize_call(succ) is not None and _no_side_effects(bb):
            remove_predecessor(succ, bb)
            bi.set_successor(idx, if_false)
            return True
    return False


def _no_side_effects(bb: BasicBlock) -> bool:
    for inst in bb:
        if inst.may_write_to_memory() or inst.may_have_side_effects():
            return False
    return True


# --- SimplifyCondBranchToCondBranch ---------------------------------------------------------


def simplify_cond_branch_to_cond_branch(pbi: BranchInst, bi: BranchInst, dl: DataLayout, tti: object) -> bool:
    """Fold ``bi`` using its predecessor's conditional branch ``pbi`` (LLVM
    ``SimplifyCondBranchToCondBranch``)."""
    from llvmpy_mid.transform.utils.simplify_cfg import option_enabled

    assert pbi.is_conditional and bi.is_conditional
    bb = bi.parent
    pbb = pbi.parent
    assert bb is not None and pbb is not None
    if pbi.condition is bi.condition and pbi.get_successor(0) is not pbi.get_successor(1):
        if bb.single_predecessor is not None:
            cond_is_true = pbi.get_successor(0) is bb
            i1 = bb.type.context.i1
            bi.condition = ConstantInt.get_true(i1) if cond_is_true else ConstantInt.get_false(i1)
            return True
    if _try_widen_cond_branch_to_cond_branch(pbi, bi):
        return True
    if option_enabled("simplifycfg-merge-cond-stores", True) and merge_conditional_stores(pbi, bi, dl, tti):
        return True
    if _first_non_debug(bb) is not bi:
        return False
    p0 = pbi.get_successor(0)
    p1 = pbi.get_successor(1)
    b0 = bi.get_successor(0)
    b1 = bi.get_successor(1)
    if p0 is b0:
        pbi_op, bi_op = 0, 0
    elif p0 is b1:
        pbi_op, bi_op = 0, 1
    elif p1 is b0:
        pbi_op, bi_op = 1, 0
    elif p1 is b1:
        pbi_op, bi_op = 1, 1
    else:
        return False
    if pbi.get_successor(pbi_op) is bb:
        return False
    if pbi.get_metadata("unpredictable") is None:
        pred = _two_weights(pbi)
        if pred is not None and pred[0] + pred[1] != 0:
            common_prob = _probability(pred[pbi_op], pred[0] + pred[1])
            if common_prob >= _predictable_branch_threshold(tti):
                return False
    common_dest = pbi.get_successor(pbi_op)
    num_phis = 0
    for _phi in common_dest.phis():
        if num_phis > 2:
            return False
        num_phis += 1
    other_dest = bi.get_successor(bi_op ^ 1)
    if other_dest is bb:
        fn = bb.parent
        assert fn is not None
        inf_loop = BasicBlock(bb.type.context, "infloop", fn)
        inf_loop.append(BranchInst(inf_loop))
        other_dest = inf_loop

    builder = IRBuilder(before=pbi, folder=NoFolder())
    builder.debug_loc = pbi.debug_loc
    pbi_cond: Value = pbi.condition
    if pbi_op:
        pbi_cond = builder.create_not(pbi_cond, pbi_cond.name + ".not")
    bi_cond: Value = bi.condition
    if bi_op:
        bi_cond = builder.create_not(bi_cond, bi_cond.name + ".not")
    cond = create_logical_op(builder, "or", pbi_cond, bi_cond, "brmerge")
    pbi.condition = cond
    pbi.set_successor(0, common_dest)
    pbi.set_successor(1, other_dest)

    weights = extract_pred_succ_weights(pbi, bi)
    pred_common = pred_other = succ_common = succ_other = 0
    if weights is not None:
        pt, pf, st, sf = weights
        pred_common = pf if pbi_op else pt
        pred_other = pt if pbi_op else pf
        succ_common = sf if bi_op else st
        succ_other = st if bi_op else sf
        _set_two_weights(
            pbi,
            (pred_common * (succ_common + succ_other) + pred_other * succ_common) & _U64,
            (pred_other * succ_other) & _U64,
        )

    add_predecessor_to_block(other_dest, pbb, bb)

    for phi in list(common_dest.phis()):
        biv = phi.incoming_value_for_block(bb)
        pbb_idx = phi.basic_block_index(pbb)
        pbiv = phi.get_incoming_value(pbb_idx)
        if biv is pbiv:
            continue
        nv = builder.create_select(pbi_cond, pbiv, biv, pbiv.name + ".mux")
        phi.set_incoming_value(pbb_idx, nv)
        if weights is not None and isinstance(nv, Instruction):
            _set_two_weights(
                nv,
                (pred_common * (succ_common + succ_other)) & _U64,
                (pred_other * succ_common) & _U64,
            )
    return True


# --- conditional stores -----------------------------------------------------------------------


def _find_unique_store_in_blocks(bb1: BasicBlock | None, bb2: BasicBlock | None) -> StoreInst | None:
    """The one store in the two blocks (None when there are none or several) (LLVM
    ``findUniqueStoreInBlocks``)."""
    found: StoreInst | None = None
    for bb in (bb1, bb2):
        if bb is None:
            continue
        for inst in bb:
            if isinstance(inst, StoreInst):
                if found is not None:
                    return None
                found = inst
    return found


def _ensure_value_available_in_successor(v: Value, bb: BasicBlock, alternative: Value | None = None) -> Value:
    """A value that stands for ``v`` (defined in ``bb``) in ``bb``'s only successor: an
    existing phi that receives it (and ``alternative`` from the other predecessor), or
    a new ``simplifycfg.merge`` phi (LLVM ``ensureValueAvailableInSuccessor``)."""
    succ = bb.single_successor
    assert succ is not None
    found: PHINode | None = None
    other: BasicBlock | None = None
    for phi in succ.phis():
        if phi.incoming_value_for_block(bb) is v:
            found = phi
            if alternative is None:
                break
            if other is None:
                preds = succ.predecessors
                other = preds[1] if preds[0] is bb else preds[0]
            if phi.incoming_value_for_block(other) is alternative:
                break
            found = None
    if found is not None:
        return found
    if alternative is None and (not isinstance(v, Instruction) or v.parent is not bb):
        return v
    phi = PHINode(v.type, name="simplifycfg.merge")
    first = succ.first_instruction
    if first is None:
        succ.append(phi)
    else:
        phi.insert_before(first)
    phi.add_incoming(v, bb)
    for pred in succ.predecessors:
        if pred is not bb:
            phi.add_incoming(alternative if alternative is not None else PoisonValue.get(v.type), pred)
    return phi


def _merge_aa_metadata(dest: Instruction, a: Instruction, b: Instruction) -> None:
    """``dest`` gets the alias metadata that holds for both ``a`` and ``b`` (LLVM
    ``AAMDNodes::merge``: the most generic TBAA tag, no ``tbaa.struct``, the common
    scopes, the shared ``noalias`` lists)."""
    from llvmpy_mid.analysis.type_based_alias_analysis import get_most_generic_tbaa
    from llvmpy_mid.transform.utils.local_metadata import md_intersect, most_generic_alias_scope

    dest.set_metadata("tbaa", get_most_generic_tbaa(a.get_metadata("tbaa"), b.get_metadata("tbaa")))
    dest.set_metadata("tbaa.struct", None)
    dest.set_metadata("alias.scope", most_generic_alias_scope(a.get_metadata("alias.scope"), b.get_metadata("alias.scope")))
    dest.set_metadata("noalias", md_intersect(a.get_metadata("noalias"), b.get_metadata("noalias")))


def _is_worthwhile(bb: BasicBlock | None, tti: object, budget: int) -> bool:
    """The block holds only cheap arithmetic and GEPs besides stores, so merging its
    store lets it be if-converted (LLVM's ``IsWorthwhile``; every store counts as free,
    as LLVM 19's ``find`` test makes it)."""
    if bb is None:
        return True
    target = _as_tti(tti)
    cost = InstructionCost(0)
    for inst in bb:
        if _is_debug_intrinsic(inst) or inst.is_terminator or isinstance(inst, StoreInst):
            continue
        if not isinstance(inst, (BinaryOperator, GetElementPtrInst)):
            return False
        cost = cost + target.get_instruction_cost(inst, TCK_SIZE_AND_LATENCY)
        if cost > budget:
            return False
    return True


def _merge_conditional_store_to_address(
    ptb: BasicBlock | None,
    pfb: BasicBlock,
    qtb: BasicBlock | None,
    qfb: BasicBlock,
    post_bb: BasicBlock,
    address: Value,
    invert_p: bool,
    invert_q: bool,
    tti: object,
) -> bool:
    """LLVM ``mergeConditionalStoreToAddress``."""
    from llvmpy_mid.transform.utils.simplify_cfg import option_enabled, option_int

    p_store = _find_unique_store_in_blocks(ptb, pfb)
    q_store = _find_unique_store_in_blocks(qtb, qfb)
    if p_store is None or q_store is None:
        return False
    if not q_store.is_unordered or not p_store.is_unordered or p_store.value_operand.type is not q_store.value_operand.type:
        return False
    q_head = qfb.single_predecessor
    assert q_head is not None
    for inst in q_head:
        if inst.may_read_or_write_memory():
            return False
    for inst in qfb:
        if inst is not q_store and inst.may_read_or_write_memory():
            return False
    if qtb is not None:
        for inst in qtb:
            if inst is not q_store and inst.may_read_or_write_memory():
                return False
    it = p_store.next_instruction
    while it is not None:
        if it.may_read_or_write_memory():
            return False
        it = it.next_instruction

    if not option_enabled("simplifycfg-merge-cond-stores-aggressively", False):
        budget = option_int("phi-node-folding-threshold", 2) * TCC_BASIC
        for blk in (ptb, pfb, qtb, qfb):
            if not _is_worthwhile(blk, tti, budget):
                return False

    if post_bb.has_n_predecessors_or_more(3):
        true_pred = qtb if qtb is not None else q_head
        new_bb = split_block_predecessors(post_bb, [qfb, true_pred], "condstore.split")
        if new_bb is None:
            return False
        post_bb = new_bb

    p_head = pfb.single_predecessor
    assert p_head is not None
    p_term = p_head.terminator
    q_term = q_head.terminator
    assert isinstance(p_term, BranchInst) and isinstance(q_term, BranchInst)
    p_cond = p_term.condition
    q_cond = q_term.condition

    p_parent = p_store.parent
    q_parent = q_store.parent
    assert p_parent is not None and q_parent is not None
    p_phi = _ensure_value_available_in_successor(p_store.value_operand, p_parent)
    q_phi = _ensure_value_available_in_successor(q_store.value_operand, q_parent, p_phi)

    post_first = post_bb.first_insertion_point
    assert post_first is not None
    qb = IRBuilder(before=post_first, folder=ConstantFolder())
    qb.debug_loc = post_first.stable_debug_loc
    p_pred = p_cond if p_parent is ptb else qb.create_not(p_cond)
    q_pred = q_cond if q_parent is qtb else qb.create_not(q_cond)
    if invert_p:
        p_pred = qb.create_not(p_pred)
    if invert_q:
        q_pred = qb.create_not(q_pred)
    combined = qb.create_or(p_pred, q_pred)

    then_term = _split_block_and_insert_if_then(combined, post_first)
    store = StoreInst(q_phi, address)
    store.insert_before(then_term)
    loc = then_term.stable_debug_loc
    if loc is not None:
        store.debug_loc = loc
    _merge_aa_metadata(store, p_store, q_store)
    store.alignment = min(p_store.alignment, q_store.alignment)
    q_store.erase_from_parent()
    p_store.erase_from_parent()
    return True




def _split_block_and_insert_if_then(cond: Value, split_before: Instruction) -> Instruction:
    """Split the block before ``split_before`` and branch on ``cond`` to a new block
    that falls through to the tail; returns the new block's terminator (LLVM
    ``SplitBlockAndInsertIfThen`` without weights or unreachable)."""
    head = split_before.parent
    assert head is not None
    fn = head.parent
    assert fn is not None
    ctx = head.type.context
    tail = head.split(split_before, "")
    then_bb = BasicBlock(ctx, "")
    fn.blocks.insert_before(then_bb, tail)
    then_br = BranchInst(tail)
    then_bb.append(then_br)
    then_br.debug_loc = split_before.debug_loc
    old_term = head.terminator
    assert old_term is not None
    new_term = BranchInst(then_bb, tail, cond)
    new_term.insert_before(old_term)
    new_term.debug_loc = old_term.debug_loc
    old_term.erase_from_parent()
    return then_br


def _one_pred_one_succ(bb: BasicBlock, pred: BasicBlock, succ: BasicBlock) -> bool:
    return bb.single_predecessor is pred and bb.single_successor is succ


def merge_conditional_stores(pbi: BranchInst, qbi: BranchInst, dl: DataLayout, tti: object) -> bool:
    """Two diamonds (or triangles) in a row that store to the same address each
    become one predicated store after the second (LLVM ``mergeConditionalStores``)."""
    pbb = pbi.parent
    qbb = qbi.parent
    assert pbb is not None and qbb is not None
    ptb: BasicBlock | None = pbi.get_successor(0)
    pfb: BasicBlock | None = pbi.get_successor(1)
    qtb: BasicBlock | None = qbi.get_successor(0)
    qfb: BasicBlock | None = qbi.get_successor(1)
    assert ptb is not None and pfb is not None and qtb is not None and qfb is not None
    post_bb = qfb.single_successor
    if qtb.single_successor is qfb:
        post_bb = qfb
    if post_bb is None:
        return False
    invert_p = invert_q = False
    if pfb is qbb:
        ptb, pfb = pfb, ptb
        invert_p = True
    if qfb is post_bb:
        qtb, qfb = qfb, qtb
        invert_q = True
    if ptb is qbb:
        ptb = None
    if qtb is post_bb:
        qtb = None
    assert pfb is not None and qfb is not None

    if not _one_pred_one_succ(pfb, pbb, qbb) or not _one_pred_one_succ(qfb, qbb, post_bb):
        return False
    if (ptb is not None and not _one_pred_one_succ(ptb, pbb, qbb)) or (
        qtb is not None and not _one_pred_one_succ(qtb, qbb, post_bb)
    ):
        return False
    if not qbb.has_n_uses(2):
        return False

    p_addresses: list[Value] = []
    seen_p: set[Value] = set()
    for bb in (ptb, pfb):
        if bb is None:
            continue
        for inst in bb:
            if isinstance(inst, StoreInst):
                ptr = inst.pointer_operand
                if ptr not in seen_p:
                    seen_p.add(ptr)
                    p_addresses.append(ptr)
    q_addresses: set[Value] = set()
    for bb in (qtb, qfb):
        if bb is None:
            continue
        for inst in bb:
            if isinstance(inst, StoreInst):
                q_addresses.add(inst.pointer_operand)
    common = _intersect_in_place_order(p_addresses, q_addresses)
    changed = False
    for address in common:
        changed |= _merge_conditional_store_to_address(ptb, pfb, qtb, qfb, post_bb, address, invert_p, invert_q, tti)
    return changed


def _intersect_in_place_order(items: list[Value], keep: set[Value]) -> list[Value]:
    """The members of ``items`` that ``keep`` holds, in the order a small
    ``SmallPtrSet`` leaves them after ``set_intersect`` (a removed slot takes the last
    element)."""
    out = list(items)
    if len(out) > 4:
        return [v for v in out if v in keep]
    i = 0
    end = len(out)
    while i < end:
        if out[i] not in keep:
            end -= 1
            out[i] = out[end]
        else:
            i += 1
    return out[:end]


# --- nested conditional branches ------------------------------------------------------------


def _simple_successor(bb: BasicBlock, succ: BasicBlock) -> BranchInst | None:
    """``succ`` holds only a conditional branch to two blocks other than itself and
    ``bb``, neither starting with a phi (the test in LLVM ``mergeNestedCondBranch``)."""
    if succ is bb:
        return None
    first = succ.first_instruction
    term = succ.terminator
    if first is None or first is not term or not isinstance(term, BranchInst) or not term.is_conditional:
        return None
    s1 = term.get_successor(0)
    s2 = term.get_successor(1)
    if s1 is succ or s2 is succ or s1 is bb or s2 is bb:
        return None
    f1 = s1.first_instruction
    f2 = s2.first_instruction
    if (f1 is not None and f1.is_phi) or (f2 is not None and f2.is_phi):
        return None
    return term


def merge_nested_cond_branch(bi: BranchInst) -> bool:
    """``br c1, (br c2, A, B), (br c2, B, A)`` becomes ``br (c1 ^ c2), B, A`` (LLVM
    ``mergeNestedCondBranch``)."""
    bb = bi.parent
    assert bb is not None
    bb1 = bi.get_successor(0)
    bb2 = bi.get_successor(1)
    bb1bi = _simple_successor(bb, bb1)
    if bb1bi is None:
        return False
    bb2bi = _simple_successor(bb, bb2)
    if bb2bi is None:
        return False
    if (
        bb1bi.condition is not bb2bi.condition
        or bb1bi.get_successor(0) is not bb2bi.get_successor(1)
        or bb1bi.get_successor(1) is not bb2bi.get_successor(0)
    ):
        return False
    bb3 = bb1bi.get_successor(0)
    bb4 = bb1bi.get_successor(1)
    builder = IRBuilder(before=bi, folder=ConstantFolder())
    builder.debug_loc = bi.stable_debug_loc
    bi.condition = builder.create_xor(bi.condition, bb1bi.condition)
    remove_predecessor(bb1, bb)
    bi.set_successor(0, bb4)
    remove_predecessor(bb2, bb)
    bi.set_successor(1, bb3)
    has_weight = False
    w = _two_weights(bi)
    if w is not None:
        has_weight = True
    else:
        w = (1, 1)
    w1 = _two_weights(bb1bi)
    if w1 is not None:
        has_weight = True
    else:
        w1 = (1, 1)
    w2 = _two_weights(bb2bi)
    if w2 is not None:
        has_weight = True
    else:
        w2 = (1, 1)
    if has_weight:
        _set_two_weights(
            bi,
            (w[0] * w1[1] + w[1] * w2[0]) & _U64,
            (w[0] * w1[0] + w[1] * w2[1]) & _U64,
        )
    return True


__all__ = ["merge_conditional_stores", "merge_nested_cond_branch", "simplify_cond_branch_to_cond_branch"]
