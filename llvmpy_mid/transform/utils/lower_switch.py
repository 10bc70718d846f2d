"""``lower-switch``: replaces every ``switch`` by a balanced binary search over
its case ranges (LLVM ``LowerSwitchPass``, lib/Transforms/Utils/LowerSwitch.cpp).

How, per switch (blocks in order; new blocks are not revisited):
- a switch in an unreachable block (no predecessors and not the entry, or its own
  single predecessor) is left for deletion with its block;
- the non-default cases are sorted (signed) and neighbouring values with the same
  destination merged into ranges ("clusters");
- the bounds of the switched value are the case range widened by what known bits
  and a subset of LazyValueInfo's range allow (``!range`` on the defining load or
  call, a phi of constants, and for a value from another block the conditions of
  the edges into the switch's block: ``icmp`` with a constant, ``and``/``or`` of
  them, a switch on the value); a default block that starts with ``unreachable``, or bounds that the
  cases fill exactly, make the most popular destination the new default;
- :func:`_Lowering.convert` builds ``NodeBlock``s (``icmp slt %v, pivot`` named
  ``Pivot``) and ``LeafBlock``s (``SwitchLeaf`` compares, ``%v.off`` for an
  offset range check), inserted right after the switch's block exactly where
  LLVM puts them, and rewrites the phis of the destinations (one incoming entry
  per new edge);
- a default block left without predecessors is deleted.

What it does not do: the rest of LazyValueInfo (ranges through arithmetic, casts,
selects and min/max clamps, conditions further up than the direct predecessors,
``range`` attributes, assumptions beyond known bits): such values keep the wider
range, so their search tree can have more blocks than opt-19's.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import ClassVar

from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.value_tracking import compute_known_bits
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, UndefValue
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import AddInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst, UnreachableInst
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import delete_dead_block, first_non_phi_or_dbg, remove_predecessor

__all__ = ["LowerSwitchPass", "lower_switch"]


def _sext(v: int, width: int) -> int:
    return v - (1 << width) if v >> (width - 1) else v


class _Case:
    """A cluster of case values [low, high] (signed) going to ``bb``."""

    __slots__ = ("low", "high", "bb")

    def __init__(self, low: int, high: int, bb: BasicBlock) -> None:
        self.low = low
        self.high = high
        self.bb = bb


def _fix_phis(succ: BasicBlock, orig: BasicBlock, new: BasicBlock | None, num_merged: int) -> None:
    """Point the first ``orig`` entry of each phi of ``succ`` at ``new`` (when given) and drop up
    to ``num_merged`` further ``orig`` entries (LLVM ``FixPhis``)."""
    for phi in list(succ.phis()):
        e = phi.num_incoming
        idx = 0
        if new is not None:
            while idx != e:
                if phi.get_incoming_block(idx) is orig:
                    phi.set_incoming_block(idx, new)
                    break
                idx += 1
            idx += 1
        left = num_merged
        drop: list[int] = []
        while left > 0 and idx < e:
            if phi.get_incoming_block(idx) is orig:
                drop.append(idx)
                left -= 1
            idx += 1
        for i in reversed(drop):
            phi.remove_incoming_value(i, delete_if_empty=True)


class _Lowering:
    """One switch being lowered: the shared state of LLVM's recursive helpers."""

    __slots__ = ("fn", "orig", "val", "default", "width", "unreachable_ranges", "_highs")

    def __init__(self, orig: BasicBlock, val: Value, default: BasicBlock, width: int) -> None:
        fn = orig.parent
        assert fn is not None
        self.fn = fn
        self.orig = orig
        self.val = val
        self.default = default
        self.width = width
        self.unreachable_ranges: list[tuple[int, int]] = []
        self._highs: list[int] = []

    def _const(self, v: int) -> ConstantInt:
        ty = self.val.type
        return ConstantInt.get(ty, v)

    def _in_unreachable(self, low: int, high: int) -> bool:
        """[low, high] lies within one of the (sorted, disjoint) unreachable ranges."""
        if not self._highs:
            self._highs = [r[1] for r in self.unreachable_ranges]
        i = bisect_left(self._highs, high)
        return i != len(self._highs) and self.unreachable_ranges[i][0] <= low

    def new_leaf(self, leaf: _Case, lower: int, upper: int) -> BasicBlock:
        orig = self.orig
        val = self.val
        ctx = val.type.context
        block = BasicBlock(ctx, "LeafBlock")
        self.fn.blocks.insert_after(block, orig)
        if leaf.low == leaf.high:
            comp = ICmpInst(Predicate.ICMP_EQ, val, self._const(leaf.low), name="SwitchLeaf")
        elif leaf.low == lower:
            comp = ICmpInst(Predicate.ICMP_SLE, val, self._const(leaf.high), name="SwitchLeaf")
        elif leaf.high == upper:
            comp = ICmpInst(Predicate.ICMP_SGE, val, self._const(leaf.low), name="SwitchLeaf")
        elif leaf.low == 0:
            comp = ICmpInst(Predicate.ICMP_ULE, val, self._const(leaf.high), name="SwitchLeaf")
        else:
            neg_lo = self._const(-leaf.low)
            add = AddInst(val, neg_lo, name=val.name + ".off")
            block.instructions.append(add)
            comp = ICmpInst(Predicate.ICMP_ULE, add, self._const(leaf.high - leaf.low), name="SwitchLeaf")
        block.instructions.append(comp)
        succ = leaf.bb
        block.instructions.append(BranchInst(succ, self.default, comp))
        for phi in list(self.default.phis()):
            phi.add_incoming(phi.incoming_value_for_block(orig), block)
        span = (leaf.high - leaf.low) & ((1 << self.width) - 1)
        for phi in list(succ.phis()):
            for _ in range(span):
                phi.remove_incoming_value(orig, delete_if_empty=True)
            idx = phi.basic_block_index(orig)
            assert idx >= 0, "switch did not go to this successor"
            phi.set_incoming_block(idx, block)
        return block

    def convert(self, cases: list[_Case], lower: int, upper: int, pred: BasicBlock) -> BasicBlock:
        """The block deciding among ``cases`` given lower <= value <= upper (LLVM ``SwitchConvert``);
        recursion depth is the log of the number of clusters."""
        if len(cases) == 1:
            only = cases[0]
            if only.low == lower and only.high == upper:
                _fix_phis(only.bb, self.orig, pred, (upper - lower) & ((1 << self.width) - 1))
                return only.bb
            return self.new_leaf(only, lower, upper)
        mid = len(cases) // 2
        lhs = cases[:mid]
        rhs = cases[mid:]
        pivot = cases[mid]
        new_lower = pivot.low
        new_upper = new_lower - 1
        if self.unreachable_ranges:
            gap_low = lhs[-1].high + 1
            gap_high = new_lower - 1
            if gap_high >= gap_low and self._in_unreachable(gap_low, gap_high):
                new_upper = lhs[-1].high
        ctx = self.val.type.context
        node = BasicBlock(ctx, "NodeBlock")
        comp = ICmpInst(Predicate.ICMP_SLT, self.val, self._const(pivot.low), name="Pivot")
        left = self.convert(lhs, lower, new_upper, node)
        right = self.convert(rhs, new_lower, upper, node)
        self.fn.blocks.insert_after(node, self.orig)
        node.instructions.append(comp)
        node.instructions.append(BranchInst(left, right, comp))
        return node


def _clusterify(si: SwitchInst, width: int) -> tuple[list[_Case], int]:
    """Sorted, merged case clusters that do not go to the default, and their number of cases."""
    default = si.default_dest
    cases: list[_Case] = []
    for value, dest in si.cases:
        if dest is default:
            continue
        v = _sext(value.value, width)
        cases.append(_Case(v, v, dest))
    num_simple = len(cases)
    cases.sort(key=lambda c: c.low)
    if len(cases) >= 2:
        out = [cases[0]]
        for c in cases[1:]:
            cur = out[-1]
            if c.low == cur.high + 1 and c.bb is cur.bb:
                cur.high = c.high
            else:
                out.append(c)
        cases = out
    return cases, num_simple


def _signed_range_of(val: Value, si: SwitchInst, ac: AssumptionCache | None) -> tuple[int, int]:
    """Signed min and max of what the switched value can be: its known bits as an unsigned
    range, intersected with the subset of LazyValueInfo's range that :func:`_value_range_at`
    computes."""
    fn = si.function
    assert fn is not None and fn.parent is not None
    known = compute_known_bits(val, SimplifyQuery(fn.parent.data_layout, ac=ac, cxt_i=si))
    cr = ConstantRange.from_known_bits(known, False).intersect_with(_value_range_at(val, si))
    return cr.signed_min(), cr.signed_max()


def _def_range(val: Value, width: int) -> ConstantRange:
    """What LazyValueInfo knows of ``val`` from its own definition: a constant, ``!range`` on a
    load or call, a phi of constants (undef ignored); else the full set."""
    if isinstance(val, ConstantInt):
        return ConstantRange(width, val.value, val.value + 1)
    if isinstance(val, Instruction):
        node = val.get_metadata("range") if val.opcode in ("load", "call", "invoke") else None
        if node is not None:
            return ConstantRange.from_metadata(node)
        if isinstance(val, PHINode):
            result: ConstantRange | None = None
            for v in val.incoming_values:
                if isinstance(v, ConstantInt):
                    one = ConstantRange(width, v.value, v.value + 1)
                    result = one if result is None else result.union_with(one)
                elif not isinstance(v, UndefValue):
                    return ConstantRange.get_full(width)
            if result is not None:
                return result
    return ConstantRange.get_full(width)


def _condition_range(val: Value, cond: Value, is_true: bool, width: int) -> ConstantRange:
    """The values of ``val`` for which ``cond`` is ``is_true``: ``icmp`` of ``val`` with a
    constant, ``and`` of such on the true edge, ``or`` on the false edge (LVI's
    ``getValueFromCondition`` for these shapes); else the full set."""
    full = ConstantRange.get_full(width)
    if isinstance(cond, ICmpInst):
        lhs, rhs = cond.get_operand(0), cond.get_operand(1)
        pred = cond.predicate
        if lhs is not val and rhs is val and isinstance(lhs, ConstantInt):
            lhs, rhs, pred = rhs, lhs, pred.swapped
        if lhs is not val or not isinstance(rhs, ConstantInt):
            return full
        if not is_true:
            pred = pred.inverse
        return ConstantRange.make_allowed_icmp_region(pred, ConstantRange(width, rhs.value, rhs.value + 1))
    opc = getattr(cond, "opcode", "")
    if opc in ("and", "or") and cond.type.is_integer and cond.type.width == 1:  # type: ignore[attr-defined]
        if (opc == "and") != is_true:
            return full
        a = _condition_range(val, cond.get_operand(0), is_true, width)  # type: ignore[attr-defined]
        b = _condition_range(val, cond.get_operand(1), is_true, width)  # type: ignore[attr-defined]
        return a.intersect_with(b)
    return full


def _edge_range(val: Value, pred: BasicBlock, bb: BasicBlock, width: int) -> ConstantRange:
    """What the edge ``pred -> bb`` tells of ``val``: a conditional branch on it, or a switch on it."""
    full = ConstantRange.get_full(width)
    term = pred.terminator
    if isinstance(term, BranchInst) and term.is_conditional:
        t, f = term.get_successor(0), term.get_successor(1)
        if t is f:
            return full
        return _condition_range(val, term.condition, t is bb, width)
    if isinstance(term, SwitchInst) and term.condition is val:
        if term.default_dest is bb:
            result = full
            for value, dest in term.cases:
                if dest is not bb:
                    result = result.difference(ConstantRange(width, value.value, value.value + 1))
            return result
        acc = ConstantRange.get_empty(width)
        for value, dest in term.cases:
            if dest is bb:
                acc = acc.union_with(ConstantRange(width, value.value, value.value + 1))
        return acc
    return full


def _value_range_at(val: Value, si: SwitchInst) -> ConstantRange:
    """A subset of LazyValueInfo's ``getConstantRange(val, si)``: the definition's range in the
    switch's block; for a value from elsewhere, the union over the block's predecessors of what
    each edge's condition allows (intersected with the definition's range when it is in that
    predecessor)."""
    width = val.type.width  # type: ignore[attr-defined]
    bb = si.parent
    assert bb is not None
    if isinstance(val, Instruction) and val.parent is bb:
        return _def_range(val, width)
    if not isinstance(val, (Instruction, Argument)):
        return _def_range(val, width)
    preds = list(dict.fromkeys(bb.predecessors))
    if not preds:
        return ConstantRange.get_full(width)
    result = ConstantRange.get_empty(width)
    for pred in preds:
        edge = _edge_range(val, pred, bb, width)
        if isinstance(val, Instruction) and val.parent is pred:
            edge = edge.intersect_with(_def_range(val, width))
        result = result.union_with(edge)
        if result.is_full_set():
            break
    return result


def _process_switch(si: SwitchInst, delete_list: dict[BasicBlock, None], ac: AssumptionCache | None) -> None:
    orig = si.parent
    assert orig is not None
    fn = orig.parent
    assert fn is not None
    default = si.default_dest
    preds = orig.predecessors
    if (orig is not fn.entry_block and not preds) or orig.single_predecessor is orig:
        delete_list[orig] = None
        return
    ty = si.condition.type
    assert isinstance(ty, IntegerType)
    width = ty.width
    mask = (1 << width) - 1
    cases, num_simple = _clusterify(si, width)
    if not cases:
        br = BranchInst(default)
        br.insert_before(si)
        _fix_phis(default, orig, orig, mask)
        si.erase_from_parent()
        return
    if isinstance(first_non_phi_or_dbg(default), UnreachableInst):
        lower, upper = cases[0].low, cases[-1].high
        default_unreachable = True
    else:
        smin, smax = _signed_range_of(si.condition, si, ac)
        lower = min(smin, cases[0].low)
        upper = max(smax, cases[-1].high)
        default_unreachable = ((lower + num_simple - 1 - upper) & mask) == 0
    val = si.condition
    lowering = _Lowering(orig, val, default, width)
    if default_unreachable:
        smax_all = (1 << (width - 1)) - 1
        ranges: list[list[int]] = [[-(1 << (width - 1)), smax_all]]
        popularity: dict[BasicBlock, int] = {}
        max_pop = 0
        pop_succ: BasicBlock | None = None
        for c in cases:
            last = ranges[-1]
            if last[0] == c.low:
                ranges.pop()
            else:
                last[1] = c.low - 1
            if c.high != smax_all:
                ranges.append([c.high + 1, smax_all])
            pop = popularity.get(c.bb, 0) + (c.high - c.low + 1)
            popularity[c.bb] = pop
            if pop > max_pop:
                max_pop = pop
                pop_succ = c.bb
        assert pop_succ is not None
        lowering.unreachable_ranges = [(r[0], r[1]) for r in ranges]
        for _ in range(si.num_cases + 1 - num_simple):
            remove_predecessor(default, orig)
        default = pop_succ
        lowering.default = default
        cases = [c for c in cases if c.bb is not pop_succ]
        if not cases:
            br = BranchInst(default)
            br.insert_before(si)
            si.erase_from_parent()
            for _ in range(max_pop - 1):
                remove_predecessor(pop_succ, orig)
            return
        lowering.val = si.condition
    switch_block = lowering.convert(cases, lower, upper, orig)
    if switch_block is not default:
        _fix_phis(default, orig, None, mask)
    BranchInst(switch_block).insert_before(si)
    old_default = si.default_dest
    si.erase_from_parent()
    if not old_default.predecessors:
        delete_list[old_default] = None


def lower_switch(fn: Function, ac: AssumptionCache | None = None) -> bool:
    """Lower every switch of ``fn`` (``ac``: assumptions for known bits); True when there was one."""
    changed = False
    delete_list: dict[BasicBlock, None] = {}
    for bb in list(fn.blocks):
        if bb in delete_list:
            continue
        term = bb.terminator
        if isinstance(term, SwitchInst):
            changed = True
            _process_switch(term, delete_list, ac)
    if delete_list:
        for bb in delete_list:
            delete_dead_block(bb)
    return changed


class LowerSwitchPass(Pass[Function]):
    """Switches become binary searches of conditional branches."""

    name: ClassVar[str] = "lower-switch"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        # LLVM asks for LazyValueInfo, which computes the assumption cache: it is always there.
        if lower_switch(unit, am.get_result(AssumptionAnalysis, unit)):
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
