"""Value-equality comparisons in SimplifyCFG (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``isValueEqualityComparison``,
``GetValueEqualityComparisonCases``, ``EliminateBlockCases``, ``ValuesOverlap``,
``SimplifyEqualityComparisonWithOnlyPredecessor``,
``PerformValueComparisonIntoPredecessorFolding``,
``FoldValueComparisonIntoPredecessors``, ``SimplifyTerminatorOnSelect``,
``SimplifySwitchOnSelect``, ``SimplifyIndirectBrOnSelect``,
``tryToSimplifyUncondBranchWithICmpInIt`` and, with ``ConstantComparesGatherer``,
``SimplifyBranchOnICmpChain``).

What: a *value-equality comparison* is a ``switch`` on a value or a conditional
``br`` on ``icmp eq/ne V, C``; both are read as a list of ``(constant, block)``
cases and a default block.  With them the pass

- threads a comparison through its only predecessor when that predecessor compares
  the same value (the outcome is known, or some switch cases are dead);
- folds a block holding only such a comparison into each predecessor that compares
  the same value, building one ``switch`` there (cases in LLVM's order, ``!prof``
  weights scaled as LLVM scales them, an ``infloop`` block for self-loops,
  ``.fold.split`` blocks where phis disagree, ``magicptr`` for pointers);
- turns an ``or``/``and`` chain of compares of one value against constants into a
  ``switch`` (cases in decreasing unsigned order, one unmatched condition tested
  first in ``switch.early.test``'s predecessor, frozen when it may be poison);
- folds a switch or ``indirectbr`` on a ``select`` of two constants into a branch;
- for a block holding only ``icmp eq/ne V, C`` and a ``br``, reached from a switch
  on ``V``, folds the compare or adds a ``switch.edge`` case for ``C``.

Not done: the dominator tree is not updated (the pass does not keep one), as the
other SimplifyCFG families.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import BlockAddress, ConstantInt
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, IndirectBrInst, SwitchInst, UnreachableInst
from llvmpy_mid.ir.pattern_match import m_add, m_and, m_apint, m_logical_and, m_logical_or, m_or, m_value, match
from llvmpy_mid.ir.prof_data_utils import (
    extract_branch_weights,
    fit_weights,
    has_branch_weight_md,
    set_branch_weights_if_nonzero,
)
from llvmpy_mid.ir.switch_prof_wrapper import SwitchInstProfUpdateWrapper
from llvmpy_mid.ir.types import PointerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor, split_block, split_block_predecessors
from llvmpy_mid.transform.utils.simplify_cfg_common import (
    add_predecessor_to_block,
    erase_terminator_and_dce_cond,
    get_branch_weights,
    get_constant_int,
    safe_to_merge_terminators,
)

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt

_U64 = (1 << 64) - 1

Case = tuple[ConstantInt, BasicBlock]
"""One case of a value-equality comparison: the constant and the block it goes to."""

_P_ANY_OR = m_logical_or(m_value(), m_value())
_P_OR = m_logical_or(m_value("a"), m_value("b"))
_P_AND = m_logical_and(m_value("a"), m_value("b"))
_P_AND_MASK = m_and(m_value("x"), m_apint("c"))
_P_OR_MASK = m_or(m_value("x"), m_apint("c"))
_P_ADD_OFFSET = m_add(m_value("x"), m_apint("c"))


def _builder_at(term: Instruction) -> IRBuilder:
    """An IRBuilder before ``term`` carrying its debug location (what the driver's
    builder is when a terminator is simplified)."""
    b = IRBuilder(before=term, folder=ConstantFolder())
    b.debug_loc = term.debug_loc
    return b


# --- reading comparisons ------------------------------------------------------------------------


def _value_equality_comparison(ti: Instruction, dl: DataLayout) -> Value | None:
    """The value ``ti`` compares against constants, or None (LLVM
    ``isValueEqualityComparison``)."""
    cv: Value | None = None
    if isinstance(ti, SwitchInst):
        bb = ti.parent
        assert bb is not None
        # Large switches are folded into predecessors only when they have few.
        if not bb.has_n_predecessors_or_more(128 // ti.num_successors):
            cv = ti.condition
    elif isinstance(ti, BranchInst):
        if ti.is_conditional:
            cond = ti.condition
            if isinstance(cond, ICmpInst) and cond.has_one_use and cond.is_equality:
                if get_constant_int(cond.operands[1], dl) is not None:
                    cv = cond.operands[0]
    if cv is not None and isinstance(cv, Instruction) and cv.opcode == "ptrtoint":
        ptr = cv.operands[0]
        pty = ptr.type
        if isinstance(pty, PointerType) and cv.type is dl.int_ptr_type_for(pty.context, pty.address_space):
            cv = ptr
    return cv


def is_value_equality_comparison(ti: Instruction) -> Value | None:
    """The value the terminator ``ti`` compares against constants (a switch's
    condition, or ``V`` of a branch on ``icmp eq/ne V, C``), or None (LLVM
    ``isValueEqualityComparison``)."""
    return _value_equality_comparison(ti, _data_layout_of(ti))


def _data_layout_of(inst: Instruction) -> DataLayout:
    bb = inst.parent
    fn = bb.parent if bb is not None else None
    module = fn.parent if fn is not None else None
    return module.data_layout if module is not None else DataLayout()


def _comparison_cases(ti: Instruction, dl: DataLayout) -> tuple[list[Case], BasicBlock]:
    """The cases of a value-equality comparison and its default block (LLVM
    ``GetValueEqualityComparisonCases``)."""
    if isinstance(ti, SwitchInst):
        return ti.cases, ti.default_dest
    assert isinstance(ti, BranchInst)
    icmp = ti.condition
    assert isinstance(icmp, ICmpInst)
    is_eq = icmp.predicate is Predicate.ICMP_EQ
    c = get_constant_int(icmp.operands[1], dl)
    assert c is not None
    return [(c, ti.get_successor(0 if is_eq else 1))], ti.get_successor(1 if is_eq else 0)


def _values_overlap(c1: list[Case], c2: list[Case]) -> bool:
    """Some constant is a case of both lists (LLVM ``ValuesOverlap``)."""
    if not c1 or not c2:
        return False
    values = {id(v) for v, _ in c1}
    return any(id(v) in values for v, _ in c2)


def _comparison_weights(ti: Instruction) -> list[int]:
    """The weights of a comparison, the default's first (``get_branch_weights``); an
    empty list for weights a broken module carries (a branch with other than two)."""
    weights = extract_branch_weights(ti)
    if weights is None or (isinstance(ti, BranchInst) and len(weights) != 2):
        return []
    return get_branch_weights(ti)


# --- threading through the only predecessor -----------------------------------------------------


def simplify_equality_comparison_with_only_predecessor(opt: SimplifyCFGOpt, ti: Instruction, pred: BasicBlock) -> bool:
    """When the only predecessor ``pred`` compares the same value as ``ti``, drop the
    cases of ``ti`` it rules out, or branch straight to the one destination it
    implies (LLVM ``SimplifyEqualityComparisonWithOnlyPredecessor``)."""
    dl = opt.dl
    pti = pred.terminator
    assert pti is not None
    pred_val = _value_equality_comparison(pti, dl)
    if pred_val is None:
        return False
    this_val = _value_equality_comparison(ti, dl)
    assert this_val is not None, "This isn't a value comparison!!"
    if this_val is not pred_val:
        return False

    pred_cases, pred_def = _comparison_cases(pti, dl)
    pred_cases = [c for c in pred_cases if c[1] is not pred_def]
    this_cases, this_def = _comparison_cases(ti, dl)
    this_cases = [c for c in this_cases if c[1] is not this_def]

    tibb = ti.parent
    assert tibb is not None
    if pred_def is tibb:
        # The value is none of the predecessor's cases here.
        if not _values_overlap(pred_cases, this_cases):
            return False
        if isinstance(ti, BranchInst):
            assert len(this_cases) == 1, "Branch can only have one case!"
            _builder_at(ti).br(this_def)
            remove_predecessor(this_cases[0][1], pred_def)
            erase_terminator_and_dce_cond(ti)
            return True
        assert isinstance(ti, SwitchInst)
        wrapper = SwitchInstProfUpdateWrapper(ti)
        dead = {id(v) for v, _ in pred_cases}
        i = ti.num_cases
        while i > 0:
            i -= 1
            value = ti.get_case_value(i)
            if id(value) in dead:
                remove_predecessor(ti.get_case_dest(i), pred_def)
                wrapper.remove_case(i)
        wrapper.commit()
        return True

    # Otherwise the block is the destination of exactly one of the predecessor's values.
    tiv: ConstantInt | None = None
    for value, dest in pred_cases:
        if dest is tibb:
            if tiv is not None:
                return False
            tiv = value
    assert tiv is not None, "No edge from pred to succ?"
    real_dest: BasicBlock | None = None
    for value, dest in this_cases:
        if value is tiv:
            real_dest = dest
            break
    if real_dest is None:
        real_dest = this_def
    check_edge: BasicBlock | None = real_dest
    for succ in tibb.successors:
        if succ is not check_edge:
            remove_predecessor(succ, tibb)
        else:
            check_edge = None
    _builder_at(ti).br(real_dest)
    erase_terminator_and_dce_cond(ti)
    return True


# --- folding into predecessors ------------------------------------------------------------------


def _perform_folding(opt: SimplifyCFGOpt, ti: Instruction, cv: Value, pti: Instruction) -> Value:
    """Replace ``pti`` by one switch that does what ``pti`` then ``ti`` do; returns the
    compared value as the new switch reads it (LLVM
    ``PerformValueComparisonIntoPredecessorFolding``)."""
    dl = opt.dl
    bb = ti.parent
    pred = pti.parent
    assert bb is not None and pred is not None
    bb_cases, bb_default = _comparison_cases(ti, dl)
    pred_cases, pred_default = _comparison_cases(pti, dl)
    pred_cases = list(pred_cases)
    new_successors: dict[BasicBlock, int] = {}

    weights: list[int] = []
    pred_has_weights = has_branch_weight_md(pti)
    succ_has_weights = has_branch_weight_md(ti)
    if pred_has_weights:
        weights = _comparison_weights(pti)
        if len(weights) != 1 + len(pred_cases):
            pred_has_weights = succ_has_weights = False
    elif succ_has_weights:
        weights = [1] * (1 + len(pred_cases))
    succ_weights: list[int] = []
    if succ_has_weights:
        succ_weights = _comparison_weights(ti)
        if len(succ_weights) != 1 + len(bb_cases):
            pred_has_weights = succ_has_weights = False
    elif pred_has_weights:
        succ_weights = [1] * (1 + len(bb_cases))
    has_weights = pred_has_weights or succ_has_weights

    if pred_default is bb:
        # Only the cases of ti the predecessor does not send elsewhere stay live.
        handled: set[int] = set()
        i = 0
        e = len(pred_cases)
        while i != e:
            value, dest = pred_cases[i]
            if dest is not bb:
                handled.add(id(value))
                i += 1
                continue
            pred_cases[i], pred_cases[-1] = pred_cases[-1], pred_cases[i]
            if has_weights:
                weights[0] = (weights[0] + weights[i + 1]) & _U64
                weights[i + 1], weights[-1] = weights[-1], weights[i + 1]
                weights.pop()
            pred_cases.pop()
            e -= 1
        if pred_default is not bb_default:
            remove_predecessor(pred_default, pred)
            pred_default = bb_default
            new_successors[bb_default] = new_successors.get(bb_default, 0) + 1
        cases_from_pred = len(weights)
        valid_total = 0
        for k, (value, dest) in enumerate(bb_cases):
            if id(value) not in handled and dest is not bb_default:
                pred_cases.append((value, dest))
                new_successors[dest] = new_successors.get(dest, 0) + 1
                if has_weights:
                    weights.append((weights[0] * succ_weights[k + 1]) & _U64)
                    valid_total = (valid_total + succ_weights[k + 1]) & _U64
        if has_weights:
            valid_total = (valid_total + succ_weights[0]) & _U64
            for k in range(1, cases_from_pred):
                weights[k] = (weights[k] * valid_total) & _U64
            weights[0] = (weights[0] * succ_weights[0]) & _U64
    else:
        # Only the cases of ti for the values the predecessor sends to bb are live.
        handled_values: dict[int, ConstantInt] = {}
        weight_for: dict[int, int] = {}
        i = 0
        e = len(pred_cases)
        while i != e:
            value, dest = pred_cases[i]
            if dest is not bb:
                i += 1
                continue
            handled_values[id(value)] = value
            if has_weights:
                weight_for[id(value)] = weights[i + 1]
                weights[i + 1], weights[-1] = weights[-1], weights[i + 1]
                weights.pop()
            pred_cases[i], pred_cases[-1] = pred_cases[-1], pred_cases[i]
            pred_cases.pop()
            e -= 1
        for value, dest in bb_cases:
            if id(value) in handled_values:
                if has_weights:
                    weights.append(weight_for.get(id(value), 0))
                pred_cases.append((value, dest))
                new_successors[dest] = new_successors.get(dest, 0) + 1
                del handled_values[id(value)]
        for value in sorted(handled_values.values(), key=lambda c: c.value):
            if has_weights:
                weights.append(weight_for.get(id(value), 0))
            pred_cases.append((value, bb_default))
            new_successors[bb_default] = new_successors.get(bb_default, 0) + 1

    for succ, count in new_successors.items():
        for _ in range(count):
            add_predecessor_to_block(succ, pred, bb)

    builder = _builder_at(pti)
    pty = cv.type
    if isinstance(pty, PointerType):
        cv = builder.create_cast("ptrtoint", cv, dl.int_ptr_type_for(pty.context, pty.address_space), "magicptr")
    new_si = SwitchInst(cv, pred_default, num_cases=len(pred_cases))
    builder.insert(new_si)
    new_si.debug_loc = pti.debug_loc
    for value, dest in pred_cases:
        new_si.add_case(value, dest)
    if has_weights:
        set_branch_weights_if_nonzero(new_si, [w & 0xFFFFFFFF for w in fit_weights(weights)])
    erase_terminator_and_dce_cond(pti)

    # bb still a successor means an infinite loop: keep it as one.
    inf_loop: BasicBlock | None = None
    for k in range(new_si.num_successors):
        if new_si.get_successor(k) is bb:
            if inf_loop is None:
                fn = bb.parent
                assert fn is not None
                inf_loop = BasicBlock(bb.context, "infloop", fn)
                inf_loop.append(BranchInst(inf_loop))
            new_si.set_successor(k, inf_loop)
    return cv


def fold_value_comparison_into_predecessors(opt: SimplifyCFGOpt, ti: Instruction) -> bool:
    """Fold the value-equality comparison ``ti`` (alone in its block) into each
    predecessor that compares the same value (LLVM
    ``FoldValueComparisonIntoPredecessors``)."""
    bb = ti.parent
    assert bb is not None
    dl = opt.dl
    cv = _value_equality_comparison(ti, dl)
    assert cv is not None, "Not a comparison?"
    changed = False
    preds = list(dict.fromkeys(bb.predecessors))
    while preds:
        pred = preds.pop()
        if pred is bb:
            continue
        pti = pred.terminator
        assert pti is not None
        if _value_equality_comparison(pti, dl) is not cv:
            continue
        fail_blocks: list[BasicBlock] = []
        if not safe_to_merge_terminators(ti, pti, fail_blocks):
            for succ in fail_blocks:
                if split_block_predecessors(succ, [bb], ".fold.split") is None:
                    return False
        cv = _perform_folding(opt, ti, cv, pti)
        changed = True
    return changed


# --- terminators on selects ---------------------------------------------------------------------


def _simplify_terminator_on_select(
    old_term: Instruction, cond: Value, true_bb: BasicBlock, false_bb: BasicBlock, true_weight: int, false_weight: int
) -> bool:
    """Replace ``old_term`` by a branch on ``cond`` to ``true_bb``/``false_bb``, dropping
    its other edges; an edge to a block it did not reach is unreachable (LLVM
    ``SimplifyTerminatorOnSelect``)."""
    bb = old_term.parent
    assert bb is not None
    keep1: BasicBlock | None = true_bb
    keep2: BasicBlock | None = false_bb if true_bb is not false_bb else None
    for succ in old_term.successors:
        if succ is keep1:
            keep1 = None
        elif succ is keep2:
            keep2 = None
        else:
            remove_predecessor(succ, bb, keep_one_input_phis=True)
    builder = IRBuilder(before=old_term)
    builder.debug_loc = old_term.debug_loc
    if keep1 is None and keep2 is None:
        if true_bb is false_bb:
            builder.br(true_bb)
        else:
            new_bi = builder.cond_br(cond, true_bb, false_bb)
            if true_weight != false_weight:
                set_branch_weights_if_nonzero(new_bi, [true_weight, false_weight])
    elif keep1 is not None and (keep2 is not None or true_bb is false_bb):
        # Neither selected block was a successor: this point is unreachable.
        UnreachableInst(old_term.context).insert_before(old_term)
    elif keep1 is None:
        builder.br(true_bb)
    else:
        builder.br(false_bb)
    erase_terminator_and_dce_cond(old_term)
    return True


def simplify_switch_on_select(opt: SimplifyCFGOpt, si: SwitchInst, select: SelectInst) -> bool:
    """``switch (select c, X, Y)`` on constants ``X``, ``Y`` becomes a branch on ``c``
    (LLVM ``SimplifySwitchOnSelect``)."""
    tv = select.operands[1]
    fv = select.operands[2]
    if not isinstance(tv, ConstantInt) or not isinstance(fv, ConstantInt):
        return False
    cond = select.operands[0]
    ti = si.find_case_value(tv)
    fi = si.find_case_value(fv)
    true_bb = si.default_dest if ti is None else si.get_case_dest(ti)
    false_bb = si.default_dest if fi is None else si.get_case_dest(fi)
    true_weight = false_weight = 0
    if has_branch_weight_md(si):
        weights = _comparison_weights(si)
        if len(weights) == 1 + si.num_cases:
            true_weight = weights[0 if ti is None else ti + 1] & 0xFFFFFFFF
            false_weight = weights[0 if fi is None else fi + 1] & 0xFFFFFFFF
    return _simplify_terminator_on_select(si, cond, true_bb, false_bb, true_weight, false_weight)


def simplify_indirect_br_on_select(opt: SimplifyCFGOpt, ibi: IndirectBrInst, select: SelectInst) -> bool:
    """``indirectbr (select c, blockaddress A, blockaddress B)`` becomes ``br c, A, B``
    (LLVM ``SimplifyIndirectBrOnSelect``)."""
    tba = select.operands[1]
    fba = select.operands[2]
    if not isinstance(tba, BlockAddress) or not isinstance(fba, BlockAddress):
        return False
    return _simplify_terminator_on_select(ibi, select.operands[0], tba.block, fba.block, 0, 0)


# --- a compare alone before an unconditional branch ---------------------------------------------


def try_to_simplify_uncond_branch_with_icmp_in_it(opt: SimplifyCFGOpt, icmp: ICmpInst) -> bool:
    """``icmp eq/ne V, C`` alone in a block reached from a switch on ``V``: fold the
    compare when the switch decides it, else give the switch a case for ``C`` to a
    new ``switch.edge`` block so the phi using the compare gets constants (LLVM
    ``tryToSimplifyUncondBranchWithICmpInIt``)."""
    bb = icmp.parent
    assert bb is not None
    if isinstance(bb.first_instruction, PHINode) or not icmp.has_one_use:
        return False
    v = icmp.operands[0]
    cst = icmp.operands[1]
    assert isinstance(cst, ConstantInt)
    pred = bb.single_predecessor
    if pred is None:
        return False
    si = pred.terminator
    if not isinstance(si, SwitchInst) or si.condition is not v:
        return False
    ctx = bb.context
    if si.default_dest is not bb:
        vval = si.find_case_dest(bb)
        assert vval is not None, "Should have a unique destination value"
        icmp.set_operand(0, vval)
        simplified = simplify_instruction(icmp, SimplifyQuery(opt.dl, cxt_i=icmp))
        if simplified is not None:
            icmp.replace_all_uses_with(simplified)
            icmp.erase_from_parent()
        return opt.request_resimplify()
    if si.find_case_value(cst) is not None:
        known = ConstantInt.get_false(ctx.i1) if icmp.predicate is Predicate.ICMP_EQ else ConstantInt.get_true(ctx.i1)
        icmp.replace_all_uses_with(known)
        icmp.erase_from_parent()
        return opt.request_resimplify()
    term = bb.terminator
    assert term is not None
    succ_block = term.successors[0]
    use_head = icmp._use_head
    assert use_head is not None
    phi_use = use_head.user
    if not isinstance(phi_use, PHINode) or phi_use is not succ_block.first_instruction:
        return False
    if isinstance(phi_use.next_instruction, PHINode):
        return False
    default_cst = ConstantInt.get_true(ctx.i1)
    new_cst = ConstantInt.get_false(ctx.i1)
    if icmp.predicate is Predicate.ICMP_EQ:
        default_cst, new_cst = new_cst, default_cst
    icmp.replace_all_uses_with(default_cst)
    icmp.erase_from_parent()
    fn = bb.parent
    assert fn is not None
    new_bb = BasicBlock(ctx, "switch.edge", fn, bb)
    wrapper = SwitchInstProfUpdateWrapper(si)
    w0 = wrapper.get_successor_weight(0)
    new_w: int | None = None
    if w0 is not None:
        new_w = (w0 + 1) >> 1
        wrapper.set_successor_weight(0, new_w)
    wrapper.add_case(cst, new_bb, new_w)
    wrapper.commit()
    builder = IRBuilder(new_bb)
    builder.debug_loc = si.debug_loc
    builder.br(succ_block)
    phi_use.add_incoming(new_cst, new_bb)
    return True


# --- or/and chains of compares to a switch ------------------------------------------------------


class _ConstantComparesGatherer:
    """The value an ``or`` chain of ``==`` compares (or an ``and`` chain of ``!=``
    compares) tests, the constants it is tested against, and at most one other
    condition of the chain (LLVM ``ConstantComparesGatherer``)."""

    __slots__ = ("dl", "comp_value", "extra", "vals", "used_icmps")

    def __init__(self, cond: Instruction, dl: DataLayout) -> None:
        self.dl = dl
        self.comp_value: Value | None = None
        self.extra: Value | None = None
        self.vals: list[ConstantInt] = []
        self.used_icmps = 0
        self._gather(cond)

    def _set_value_once(self, new: Value) -> bool:
        if self.comp_value is not None and self.comp_value is not new:
            return False
        self.comp_value = new
        return True

    def _match_instruction(self, inst: Instruction, is_eq: bool) -> bool:
        if not isinstance(inst, ICmpInst):
            return False
        c = get_constant_int(inst.operands[1], self.dl)
        if c is None:
            return False
        lhs = inst.operands[0]
        pred = inst.predicate
        if pred is (Predicate.ICMP_EQ if is_eq else Predicate.ICMP_NE):
            # (x & ~2^z) == y  <=>  x == y || x == y | 2^z  when y has bit z clear
            m = match(lhs, _P_AND_MASK)
            if m is not None:
                w = c.width
                mask = ~m.c & ((1 << w) - 1)
                if _is_power_of_2(mask) and (c.value & ~mask) == c.value:
                    if not self._set_value_once(m.x):
                        return False
                    self.vals.append(c)
                    self.vals.append(ConstantInt.get(c.type, c.value | mask))
                    self.used_icmps += 1
                    return True
            # (x | 2^z) == y  <=>  x == y || x == y & ~2^z  when y has bit z set
            m = match(lhs, _P_OR_MASK)
            if m is not None:
                mask = m.c
                if _is_power_of_2(mask) and (c.value | mask) == c.value:
                    if not self._set_value_once(m.x):
                        return False
                    self.vals.append(c)
                    self.vals.append(ConstantInt.get(c.type, c.value & ~mask))
                    self.used_icmps += 1
                    return True
            if not self._set_value_once(lhs):
                return False
            self.used_icmps += 1
            self.vals.append(c)
            return True
        w = c.width
        span = ConstantRange.make_exact_icmp_region(pred, c.value, w)
        candidate = lhs
        m = match(lhs, _P_ADD_OFFSET)
        if m is not None:
            span = span.subtract(m.c)
            candidate = m.x
        if not is_eq:
            span = span.inverse()
        if span.is_size_larger_than(8) or span.is_empty_set():
            return False
        if not self._set_value_once(candidate):
            return False
        ty = c.type
        mask = (1 << w) - 1
        tmp = span.lower
        while tmp != span.upper:
            self.vals.append(ConstantInt.get(ty, tmp))
            tmp = (tmp + 1) & mask
        self.used_icmps += 1
        return True

    def _gather(self, v: Value) -> None:
        is_eq = match(v, _P_ANY_OR) is not None
        chain = _P_OR if is_eq else _P_AND
        stack: list[Value] = [v]
        visited: set[Value] = {v}
        while stack:
            v = stack.pop()
            if isinstance(v, Instruction):
                m = match(v, chain)
                if m is not None:
                    op0: Value = m.a
                    op1: Value = m.b
                    if op1 not in visited:
                        visited.add(op1)
                        stack.append(op1)
                    if op0 not in visited:
                        visited.add(op0)
                        stack.append(op0)
                    continue
                if self._match_instruction(v, is_eq):
                    continue
            if self.extra is None:
                self.extra = v
                continue
            self.comp_value = None
            break


def _is_power_of_2(x: int) -> bool:
    return x != 0 and (x & (x - 1)) == 0


def simplify_branch_on_icmp_chain(opt: SimplifyCFGOpt, bi: BranchInst) -> bool:
    """``br (X == a || X == b ...), T, F`` (or ``X != a && ...``) becomes a switch on
    ``X``; one other condition of the chain is tested first in a block of its own
    (LLVM ``SimplifyBranchOnICmpChain``)."""
    cond = bi.condition
    if not isinstance(cond, Instruction):
        return False
    dl = opt.dl
    gatherer = _ConstantComparesGatherer(cond, dl)
    comp_val = gatherer.comp_value
    extra = gatherer.extra
    if comp_val is None or gatherer.used_icmps <= 1:
        return False
    true_when_equal = match(cond, _P_ANY_OR) is not None
    # Decreasing unsigned order, duplicates dropped.
    values: list[ConstantInt] = []
    for c in sorted(gatherer.vals, key=lambda c: c.value, reverse=True):
        if not values or values[-1] is not c:
            values.append(c)
    if extra is not None and len(values) < 2:
        return False
    default_bb = bi.get_successor(1)
    edge_bb = bi.get_successor(0)
    if not true_when_equal:
        default_bb, edge_bb = edge_bb, default_bb
    bb = bi.parent
    assert bb is not None
    if extra is not None:
        new_bb = split_block(bb, bi, name="switch.early.test")
        old_ti = bb.terminator
        assert old_ti is not None
        builder = _builder_at(old_ti)
        if not is_guaranteed_not_to_be_undef_or_poison(extra, bi, None):
            extra = builder.create_freeze(extra)
        if true_when_equal:
            builder.cond_br(extra, edge_bb, new_bb)
        else:
            builder.cond_br(extra, new_bb, edge_bb)
        old_ti.erase_from_parent()
        add_predecessor_to_block(edge_bb, bb, new_bb)
        bb = new_bb
    builder = _builder_at(bi)
    cty = comp_val.type
    if isinstance(cty, PointerType):
        comp_val = builder.create_cast("ptrtoint", comp_val, dl.int_ptr_type_for(cty.context, cty.address_space), "magicptr")
    new_si = SwitchInst(comp_val, default_bb, num_cases=len(values))
    builder.insert(new_si)
    for c in values:
        new_si.add_case(c, edge_bb)
    for phi in list(edge_bb.phis()):
        in_val = phi.incoming_value_for_block(bb)
        for _ in range(len(values) - 1):
            phi.add_incoming(in_val, bb)
    erase_terminator_and_dce_cond(bi)
    return True


__all__ = [
    "fold_value_comparison_into_predecessors",
    "is_value_equality_comparison",
    "simplify_branch_on_icmp_chain",
    "simplify_equality_comparison_with_only_predecessor",
    "simplify_indirect_br_on_select",
    "simplify_switch_on_select",
    "try_to_simplify_uncond_branch_with_icmp_in_it",
]
