"""Speculation: a two-entry phi to selects, a small conditional block executed
unconditionally (LLVM 19.1.7 ``SimplifyCFG.cpp``: ``FoldTwoEntryPHINode`` with
``dominatesMergePoint`` and ``computeSpeculationCost``; ``SpeculativelyExecuteBB``
with ``isSafeToSpeculateStore`` and ``validateAndCostRequiredSelects``;
``GetIfCondition`` of BasicBlockUtils and ``hoistAllInstructionsInto`` of Local).

What: :func:`fold_two_entry_phi_node` turns the phis of an if/then(/else) merge
block into ``select`` instructions on the branch condition (each named as its
phi), hoisting the cheap, safe instructions of the arms into the branching
block, when their cost (``TCK_SizeAndLatency``) stays within
``two-entry-phi-node-folding-threshold`` (one expensive instruction allowed by
``speculate-one-expensive-inst``); the branch becomes unconditional.
:func:`speculatively_execute_bb` hoists the single cheap instruction of a
"then" block (or a store that a preceding store or load of the same address
makes safe, with ``simplifycfg-hoist-cond-stores``: ``spec.store.select``) and
turns the phis of the end block into ``spec.select`` selects. Both leave
predictable branches (``!prof`` weights at or beyond the target's predictable
threshold, unless ``!unpredictable``) alone, copy ``!prof`` and
``!unpredictable`` to the selects, drop the metadata and attributes that could
imply undefined behaviour on the hoisted instructions, and drop their debug
records (``dbg.assign`` records of a speculated store follow the stored value).

What it does not do: update a dominator tree or MemorySSA (the pass keeps
neither).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute
from llvmpy_mid.analysis.target_transform_info import (
    TCC_BASIC,
    TCK_SIZE_AND_LATENCY,
    InstructionCost,
    TargetTransformInfo,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue, get_splat_value
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst
from llvmpy_mid.ir.instructions.flags import type_supports_fast_math_flags
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.pattern_match import m_imm_constant, m_not, m_select, m_value, match
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.simplify_cfg_common import EphemeralValueTracker

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt

_PROB_DEN = 1 << 31
_U32_MAX = (1 << 32) - 1


# --- small helpers ------------------------------------------------------------------------------


def _option_int(name: str, default: int) -> int:
    from llvmpy_mid.transform.utils.simplify_cfg import option_int

    return option_int(name, default)


def _option_enabled(name: str, default: bool) -> bool:
    from llvmpy_mid.transform.utils.simplify_cfg import option_enabled

    return option_enabled(name, default)


def _as_tti(tti: object, fn: Function | None) -> TargetTransformInfo:
    if isinstance(tti, TargetTransformInfo):
        return tti
    return TargetTransformInfo(fn)


def _probability(n: int, d: int) -> int:
    """LLVM ``BranchProbability::getBranchProbability(n, d)`` as its 31-bit numerator."""
    scale = 0
    while d > _U32_MAX:
        d >>= 1
        scale += 1
    n >>= scale
    if d == _PROB_DEN:
        return n
    return (n * _PROB_DEN + d // 2) // d


def _likely_threshold(tti: TargetTransformInfo) -> int:
    num, den = tti.get_predictable_branch_threshold()
    return _probability(num, den)


def _two_weights(bi: Instruction) -> tuple[int, int] | None:
    from llvmpy_mid.ir.prof_data_utils import extract_branch_weights

    w = extract_branch_weights(bi)
    if w is None or len(w) != 2:
        return None
    return (w[0], w[1])


def _callee_name(inst: Instruction) -> str:
    if not isinstance(inst, CallInst):
        return ""
    fn = inst.called_function
    return fn.name if fn is not None else ""


def _is_dbg_info_intrinsic(inst: Instruction) -> bool:
    return isinstance(inst, CallInst) and _callee_name(inst).startswith("llvm.dbg.")


def _is_dbg_assign_intrinsic(inst: Instruction) -> bool:
    return isinstance(inst, CallInst) and _callee_name(inst) == "llvm.dbg.assign"


def _is_pseudo_probe(inst: Instruction) -> bool:
    return isinstance(inst, CallInst) and _callee_name(inst) == "llvm.pseudoprobe"


def _is_debug_or_pseudo_inst(inst: Instruction) -> bool:
    return _is_dbg_info_intrinsic(inst) or _is_pseudo_probe(inst)


def _data_layout(inst: Instruction) -> DataLayout:
    bb = inst.parent
    fn = bb.parent if bb is not None else None
    module = fn.parent if fn is not None else None
    return module.data_layout if module is not None else DataLayout()


def is_safe_to_speculate(inst: Instruction) -> bool:
    """LLVM ``isSafeToSpeculativelyExecute(I)`` with no context instruction: the
    ValueTracking answer, and for a load the dereferenceability of its address
    (unordered loads outside sanitized functions)."""
    if isinstance(inst, LoadInst):
        if not inst.is_unordered:
            return False
        bb = inst.parent
        fn = bb.parent if bb is not None else None
        if fn is not None and (
            fn.has_fn_attribute("sanitize_thread")
            or fn.has_fn_attribute("sanitize_address")
            or fn.has_fn_attribute("sanitize_hwaddress")
        ):
            return False
        from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer_for_type

        return is_dereferenceable_and_aligned_pointer_for_type(
            inst.pointer_operand, inst.type, inst.alignment, _data_layout(inst)
        )
    return is_safe_to_speculatively_execute(inst)


def compute_speculation_cost(v: Value, tti: TargetTransformInfo) -> InstructionCost:
    """LLVM ``computeSpeculationCost``: the ``TCK_SizeAndLatency`` cost."""
    return tti.get_instruction_cost(v, TCK_SIZE_AND_LATENCY)


def _drop_ub_implying_attrs_and_metadata(inst: Instruction) -> None:
    """LLVM ``dropUBImplyingAttrsAndMetadata`` (a ``!DIAssignID`` attachment is debug
    information and stays)."""
    from llvmpy_mid.transform.instcombine.common import drop_ub_implying_attrs_and_metadata

    assign_id = inst.get_metadata("DIAssignID")
    drop_ub_implying_attrs_and_metadata(inst)
    if assign_id is not None and inst.get_metadata("DIAssignID") is None:
        inst.set_metadata("DIAssignID", assign_id)


def _create_select(cond: Value, t: Value, f: Value, name: str, md_from: Instruction) -> SelectInst:
    """``IRBuilder<NoFolder>(md_from).CreateSelect(cond, t, f, name, md_from)``: a select
    before ``md_from`` with its ``!prof`` / ``!unpredictable`` and its debug location."""
    sel = SelectInst(cond, t, f, name=name)
    _insert_adopting_records(sel, md_from)
    prof = md_from.get_metadata("prof")
    if prof is not None:
        sel.set_metadata("prof", prof)
    unpred = md_from.get_metadata("unpredictable")
    if unpred is not None:
        sel.set_metadata("unpredictable", unpred)
    loc = md_from.debug_loc
    if loc is not None:
        sel.debug_loc = loc
    return sel


def _insert_adopting_records(inst: Instruction, pos: Instruction) -> None:
    """Insert ``inst`` before ``pos``; the debug records in front of ``pos`` stay in front
    of ``inst`` (LLVM's ``insertBefore`` at an instruction's iterator)."""
    inst.insert_before(pos)
    for rec in pos.take_dbg_records():
        inst.add_dbg_record(rec)


def _splice_body_before(pos: Instruction, src: BasicBlock) -> None:
    """Move the instructions of ``src`` but its terminator before ``pos`` with LLVM's
    ``BasicBlock::splice`` debug-record placement: the records in front of ``pos`` go in
    front of the moved instructions, those in front of ``src``'s terminator in front
    of ``pos``; an empty range hands the terminator's records to ``pos``."""
    term = src.terminator
    assert term is not None
    moving: list[Instruction] = []
    for inst in src:
        if inst is term:
            break
        moving.append(inst)
    if not moving:
        for rec in term.take_dbg_records():
            pos.add_dbg_record(rec)
        return
    dest_recs = pos.take_dbg_records()
    last_recs = term.take_dbg_records()
    for inst in moving:
        inst.move_before(pos, preserve_dbg_records=True)
    for rec in last_recs:
        pos.add_dbg_record(rec)
    if dest_recs:
        first = moving[0]
        own = first.take_dbg_records()
        for rec in dest_recs + own:
            first.add_dbg_record(rec)


# --- GetIfCondition, dominatesMergePoint, hoistAllInstructionsInto ----------------------------


def get_if_condition(bb: BasicBlock) -> tuple[BranchInst, BasicBlock, BasicBlock] | None:
    """The conditional branch deciding which way ``bb`` (an if/then/else or if/then
    merge point with two predecessors) is reached, with the blocks reached on its
    true and false edges (LLVM ``GetIfCondition``)."""
    first = bb.first_instruction
    if isinstance(first, PHINode):
        if len(first.incoming) != 2:
            return None
        pred1 = first.get_incoming_block(0)
        pred2 = first.get_incoming_block(1)
    else:
        preds = bb.predecessors
        if len(preds) != 2:
            return None
        pred1, pred2 = preds
    br1 = pred1.terminator
    br2 = pred2.terminator
    if not isinstance(br1, BranchInst) or not isinstance(br2, BranchInst):
        return None
    if br2.is_conditional:
        if br1.is_conditional:
            return None
        pred1, pred2 = pred2, pred1
        br1, br2 = br2, br1
    if br1.is_conditional:
        if pred2.single_predecessor is None:
            return None
        if br1.get_successor(0) is bb and br1.get_successor(1) is pred2:
            return (br1, pred1, pred2)
        if br1.get_successor(0) is pred2 and br1.get_successor(1) is bb:
            return (br1, pred2, pred1)
        return None
    common = pred1.single_predecessor
    if common is None or common is not pred2.single_predecessor:
        return None
    bi = common.terminator
    if not isinstance(bi, BranchInst):
        return None
    if bi.get_successor(0) is pred1:
        return (bi, pred1, pred2)
    return (bi, pred2, pred1)


class _Budget:
    """The running cost of ``dominatesMergePoint`` and the instructions it accepted."""

    __slots__ = ("cost", "budget", "aggressive", "tti", "max_depth", "one_expensive")

    def __init__(self, budget: InstructionCost, tti: TargetTransformInfo) -> None:
        self.cost = InstructionCost(0)
        self.budget = budget
        self.aggressive: set[Instruction] = set()
        self.tti = tti
        self.max_depth = _option_int("max-speculation-depth", 10)
        self.one_expensive = _option_enabled("speculate-one-expensive-inst", True)


def _dominates_merge_point(v: Value, bb: BasicBlock, st: _Budget, depth: int = 0) -> bool:
    """LLVM ``dominatesMergePoint``: ``v`` is available at ``bb``'s branch block, or is
    an instruction of an arm that can be hoisted there within the budget (with its
    operands, recursively to ``max-speculation-depth``)."""
    if depth == st.max_depth:
        return False
    if not isinstance(v, Instruction):
        return True
    pbb = v.parent
    if pbb is bb:
        return False
    assert pbb is not None
    bi = pbb.terminator
    if not isinstance(bi, BranchInst) or bi.is_conditional or bi.get_successor(0) is not bb:
        return True
    if v in st.aggressive:
        return True
    if not is_safe_to_speculate(v):
        return False
    st.cost = st.cost + compute_speculation_cost(v, st.tti)
    if st.cost > st.budget and (
        not st.one_expensive or st.aggressive or depth > 0 or not st.cost.is_valid
    ):
        return False
    for use in v._operands:
        if not _dominates_merge_point(use.value, bb, st, depth + 1):
            return False
    st.aggressive.add(v)
    return True


def _drop_debug_users(inst: Instruction) -> None:
    from llvmpy_mid.transform.utils.local import find_dbg_records

    for rec in find_dbg_records(inst):
        rec.erase_from_parent()


def hoist_all_instructions_into(dom_block: BasicBlock, insert_pt: Instruction, bb: BasicBlock) -> None:
    """Move every instruction of ``bb`` but its terminator before ``insert_pt``, with
    ``insert_pt``'s debug location, dropping debug intrinsics and records (also
    those describing the moved values) and UB-implying metadata and attributes
    (LLVM ``hoistAllInstructionsInto``)."""
    loc = insert_pt.debug_loc
    for inst in list(bb):
        _drop_ub_implying_attrs_and_metadata(inst)
        if inst.type.context.value_metadata.get(inst) is not None:
            _drop_debug_users(inst)
        for rec in inst.take_dbg_records():
            rec.drop_references()
        if _is_debug_or_pseudo_inst(inst):
            inst.erase_from_parent()
            continue
        inst.debug_loc = loc
    _splice_body_before(insert_pt, bb)


# --- FoldTwoEntryPHINode ------------------------------------------------------------------------


def _is_not(v: Value) -> bool:
    return match(v, m_not(m_value())) is not None


def _is_any_integral_constant(v: Value) -> bool:
    if isinstance(v, ConstantInt):
        return True
    if isinstance(v, Constant) and v.type.is_vector:
        return isinstance(get_splat_value(v, allow_poison=True), ConstantInt)
    return False


def _can_hoist_not_from_both_values(v0: Value, v1: Value) -> bool:
    if not _is_not(v0):
        v0, v1 = v1, v0
    return _is_not(v0) and (_is_not(v1) or _is_any_integral_constant(v1))


_SELECT_IMM_T = m_select(m_value(), m_imm_constant(), m_value())
_SELECT_IMM_F = m_select(m_value(), m_value(), m_imm_constant())
_BINARY_OPCODES = frozenset(
    ("add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem", "shl", "lshr",
     "ashr", "and", "or", "xor")
)


def _is_bin_op_or_and(v: Value) -> bool:
    if isinstance(v, Instruction) and v.opcode in _BINARY_OPCODES:
        return True
    return match(v, _SELECT_IMM_T) is not None or match(v, _SELECT_IMM_F) is not None


def fold_two_entry_phi_node(pn: PHINode, tti: object, dl: DataLayout, speculate_unpredictables: bool) -> bool:
    """Replace the phis of ``pn``'s block (an if/then(/else) merge point) by selects on
    the branch condition, hoisting the arms' instructions (LLVM ``FoldTwoEntryPHINode``)."""
    bb = pn.parent
    assert bb is not None
    found = get_if_condition(bb)
    if found is None:
        return False
    dom_bi, if_true, if_false = found
    if_cond = dom_bi.condition
    if isinstance(if_cond, ConstantInt):
        return False
    fn = bb.parent
    the_tti = _as_tti(tti, fn)
    dom_block = dom_bi.parent
    assert dom_block is not None
    if_blocks: list[BasicBlock] = []
    for blk in pn.incoming_blocks:
        t = blk.terminator
        if isinstance(t, BranchInst) and t.is_unconditional:
            if_blocks.append(blk)
    is_unpredictable = dom_bi.get_metadata("unpredictable") is not None
    if not is_unpredictable:
        weights = _two_weights(dom_bi)
        if weights is not None and weights[0] + weights[1] != 0:
            t_prob = _probability(weights[0], weights[0] + weights[1])
            likely = _likely_threshold(the_tti)
            f_prob = _PROB_DEN - t_prob
            if len(if_blocks) == 1:
                bb_prob = t_prob if dom_bi.get_successor(0) is bb else f_prob
                if bb_prob >= likely:
                    return False
            elif t_prob >= likely or f_prob >= likely:
                return False
    if isinstance(if_cond, PHINode) and if_cond.parent is bb:
        return False
    num_phis = 0
    for inst in bb:
        if not isinstance(inst, PHINode):
            break
        if num_phis > 2:
            return False
        num_phis += 1

    from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    budget = InstructionCost(_option_int("two-entry-phi-node-folding-threshold", 4) * TCC_BASIC)
    if speculate_unpredictables and is_unpredictable:
        budget = budget + the_tti.get_branch_mispredict_penalty()
    st = _Budget(budget, the_tti)
    changed = False
    for phi in list(bb.phis()):
        v = simplify_instruction(phi, SimplifyQuery(dl, cxt_i=phi))
        if v is not None:
            phi.replace_all_uses_with(v)
            phi.erase_from_parent()
            changed = True
            continue
        if not _dominates_merge_point(phi.get_incoming_value(0), bb, st) or not _dominates_merge_point(
            phi.get_incoming_value(1), bb, st
        ):
            return changed
    first = bb.first_instruction
    if not isinstance(first, PHINode):
        return True
    pn = first
    v0 = pn.get_incoming_value(0)
    v1 = pn.get_incoming_value(1)
    if (
        pn.type.is_integer_bits(1)
        and (_is_bin_op_or_and(v0) or _is_bin_op_or_and(v1) or _is_bin_op_or_and(if_cond))
        and not _can_hoist_not_from_both_values(v0, v1)
    ):
        return changed
    aggressive = st.aggressive
    for blk in if_blocks:
        for inst in blk:
            if inst.is_terminator:
                break
            if inst not in aggressive and not _is_debug_or_pseudo_inst(inst):
                return changed
    if any(blk.has_address_taken for blk in if_blocks):
        return changed
    for blk in if_blocks:
        hoist_all_instructions_into(dom_block, dom_bi, blk)
    while True:
        phi_node = bb.first_instruction
        if not isinstance(phi_node, PHINode):
            break
        true_val = phi_node.incoming_value_for_block(if_true)
        false_val = phi_node.incoming_value_for_block(if_false)
        sel = _create_select(if_cond, true_val, false_val, "", dom_bi)
        if type_supports_fast_math_flags(phi_node.type):
            sel.fast_math_flags = phi_node.fast_math_flags
        phi_node.replace_all_uses_with(sel)
        name = phi_node.name
        phi_node.name = ""
        if name:
            sel.name = name
        phi_node.erase_from_parent()
    br = BranchInst(bb)
    _insert_adopting_records(br, dom_bi)
    loc = dom_bi.debug_loc
    if loc is not None:
        br.debug_loc = loc
    dom_bi.erase_from_parent()
    return True


# --- SpeculativelyExecuteBB ---------------------------------------------------------------------


def _is_safe_to_speculate_store(inst: Instruction, br_bb: BasicBlock) -> Value | None:
    """The value the location of store ``inst`` already holds on the way through
    ``br_bb`` (an earlier simple store's value, or a load of a non-escaping alloca),
    making the store safe to execute unconditionally (LLVM ``isSafeToSpeculateStore``)."""
    if not isinstance(inst, StoreInst) or not inst.is_simple:
        return None
    ptr = inst.pointer_operand
    store_ty = inst.value_operand.type
    budget = 9
    node = br_bb.terminator
    while node is not None:
        cur = node
        node = node.prev_instruction
        if _is_debug_or_pseudo_inst(cur):
            continue
        if not budget:
            break
        budget -= 1
        if isinstance(cur, StoreInst):
            if (
                cur.pointer_operand is ptr
                and cur.value_operand.type is store_ty
                and cur.is_simple
                and cur.alignment >= inst.alignment
            ):
                return cur.value_operand
            return None
        if cur.may_write_to_memory():
            return None
        if isinstance(cur, LoadInst):
            if cur.pointer_operand is ptr and cur.type is store_ty and cur.is_simple and cur.alignment >= inst.alignment:
                from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured
                from llvmpy_mid.analysis.underlying_objects import get_underlying_object

                obj = get_underlying_object(ptr)
                if isinstance(obj, AllocaInst) and not pointer_may_be_captured(obj, False, True):
                    return cur
    return None


def _validate_and_cost_required_selects(
    bb: BasicBlock, then_bb: BasicBlock, end_bb: BasicBlock, speculated: list[int], cost: list[InstructionCost],
    tti: TargetTransformInfo,
) -> bool:
    """LLVM ``validateAndCostRequiredSelects``: the phis of ``end_bb`` can become
    selects (adding their cost to ``cost[0]``), none of them would hide undefined
    behaviour, and at most one constant expression is to be evaluated."""
    from llvmpy_mid.transform.utils.simplify_cfg_unreachable import passing_value_is_always_undefined

    have_rewritable = False
    threshold = _option_int("phi-node-folding-threshold", 2)
    for phi in end_bb.phis():
        orig_v = phi.incoming_value_for_block(bb)
        then_v = phi.incoming_value_for_block(then_bb)
        if orig_v is then_v:
            continue
        cost[0] = cost[0] + tti.get_cmp_sel_instr_cost("select", phi.type, None, TCK_SIZE_AND_LATENCY)
        if passing_value_is_always_undefined(orig_v, phi) or passing_value_is_always_undefined(then_v, phi):
            return False
        have_rewritable = True
        orig_ce = orig_v if isinstance(orig_v, ConstantExpr) else None
        then_ce = then_v if isinstance(then_v, ConstantExpr) else None
        if orig_ce is None and then_ce is None:
            continue
        orig_cost = compute_speculation_cost(orig_ce, tti) if orig_ce is not None else InstructionCost(0)
        then_cost = compute_speculation_cost(then_ce, tti) if then_ce is not None else InstructionCost(0)
        if orig_cost + then_cost > 2 * threshold * TCC_BASIC:
            return False
        speculated[0] += 1
        if speculated[0] > 1:
            return False
    return have_rewritable


def speculatively_execute_bb(opt: SimplifyCFGOpt, bi: BranchInst, then_bb: BasicBlock) -> bool:
    """Hoist the one cheap instruction of ``then_bb`` (reached from ``bi``'s block on
    one edge, falling through to the block the other edge reaches) above ``bi`` and
    select the end block's phi values (LLVM ``SpeculativelyExecuteBB``)."""
    if not opt.options.speculate_blocks:
        return False
    br_cond = bi.condition
    if isinstance(br_cond, FCmpInst):
        return False
    bb = bi.parent
    assert bb is not None
    then_term = then_bb.terminator
    assert then_term is not None
    end_bb = then_term.successors[0]
    tti = _as_tti(opt.tti, bb.parent)
    threshold = _option_int("phi-node-folding-threshold", 2)
    budget = threshold * TCC_BASIC
    invert = then_bb is not bi.get_successor(0)
    if bi.get_metadata("unpredictable") is None:
        weights = _two_weights(bi)
        if weights is not None and weights[0] + weights[1] != 0:
            end_weight = weights[0] if invert else weights[1]
            if _probability(end_weight, weights[0] + weights[1]) >= _likely_threshold(tti):
                return False
    sink_candidate_uses: dict[Instruction, int] = {}
    speculated_dbg: list[Instruction] = []
    speculated = 0
    spec_store_value: Value | None = None
    spec_store: StoreInst | None = None
    eph = EphemeralValueTracker()
    hoist_cond_stores = _option_enabled("simplifycfg-hoist-cond-stores", True)
    node = then_term.prev_instruction
    while node is not None:
        inst = node
        node = node.prev_instruction
        if _is_dbg_info_intrinsic(inst) or _is_pseudo_probe(inst):
            speculated_dbg.append(inst)
            continue
        if eph.track(inst):
            continue
        speculated += 1
        if speculated > 1:
            return False
        if not is_safe_to_speculate(inst):
            if hoist_cond_stores:
                spec_store_value = _is_safe_to_speculate_store(inst, bb)
            if spec_store_value is None:
                return False
        if spec_store_value is None and compute_speculation_cost(inst, tti) > threshold * TCC_BASIC:
            return False
        if spec_store_value is not None:
            assert isinstance(inst, StoreInst)
            spec_store = inst
        for use in inst._operands:
            op = use.value
            if not isinstance(op, Instruction) or op.parent is not bb or op.may_have_side_effects():
                continue
            sink_candidate_uses[op] = sink_candidate_uses.get(op, 0) + 1
    for cand, count in sink_candidate_uses.items():
        if cand.has_n_uses(count):
            speculated += 1
            if speculated > 1:
                return False
    convert = spec_store is not None
    spec_box = [speculated]
    cost_box = [InstructionCost(0)]
    convert |= _validate_and_cost_required_selects(bb, then_bb, end_bb, spec_box, cost_box, tti)
    if not convert or cost_box[0] > budget:
        return False

    if spec_store_value is not None:
        assert spec_store is not None
        orig_v = spec_store.value_operand
        true_v: Value = orig_v
        false_v: Value = spec_store_value
        if invert:
            true_v, false_v = false_v, true_v
        sel = _create_select(br_cond, true_v, false_v, "spec.store.select", bi)
        spec_store.set_operand(0, sel)
        spec_store.debug_loc = get_merged_location(bi.debug_loc, spec_store.debug_loc)
        _retarget_assignment_markers(spec_store, orig_v, sel)

    for inst in list(then_bb):
        if spec_store_value is None or inst is not spec_store:
            if not _is_dbg_assign_intrinsic(inst):
                inst.debug_loc = None
        _drop_ub_implying_attrs_and_metadata(inst)
        if eph.contains(inst):
            inst.replace_all_uses_with(PoisonValue.get(inst.type))
            inst.erase_from_parent()
    for inst in list(then_bb):
        for rec in inst.dbg_records:
            if isinstance(rec, DbgVariableRecord) and rec.is_dbg_assign:
                continue
            rec.erase_from_parent()
    _splice_body_before(bi, then_bb)

    for phi in list(end_bb.phis()):
        orig_i = phi.basic_block_index(bb)
        then_i = phi.basic_block_index(then_bb)
        orig_v2 = phi.get_incoming_value(orig_i)
        then_v2 = phi.get_incoming_value(then_i)
        if orig_v2 is then_v2:
            continue
        tv: Value = then_v2
        fv: Value = orig_v2
        if invert:
            tv, fv = fv, tv
        v = _create_select(br_cond, tv, fv, "spec.select", bi)
        phi.set_incoming_value(orig_i, v)
        phi.set_incoming_value(then_i, v)
    for inst in speculated_dbg:
        if not _is_dbg_assign_intrinsic(inst):
            inst.erase_from_parent()
    return True


def _retarget_assignment_markers(store: StoreInst, old: Value, new: Value) -> None:
    """The ``dbg.assign`` records linked to ``store`` (by its ``!DIAssignID``) that
    name ``old`` as location name ``new`` instead (LLVM ``at::getDVRAssignmentMarkers``)."""
    aid = store.get_metadata("DIAssignID")
    if aid is None:
        return
    bb = store.parent
    fn = bb.parent if bb is not None else None
    if fn is None:
        return
    for blk in fn.blocks:
        for inst in blk:
            if not inst._dbg_records:
                continue
            for rec in inst.dbg_records:
                if isinstance(rec, DbgVariableRecord) and rec.is_dbg_assign and rec.assign_id is aid:
                    if any(v is old for v in rec.location_values()):
                        rec.replace_variable_location_op(old, new)


__all__ = [
    "compute_speculation_cost",
    "fold_two_entry_phi_node",
    "get_if_condition",
    "hoist_all_instructions_into",
    "is_safe_to_speculate",
    "speculatively_execute_bb",
]
