"""``lazy-code-motion``: partial-redundancy elimination by lazy code motion, as a
transform. LLVM 19 has no such pass (its PRE lives inside ``gvn``); the name and
the pass are ours, the course text's algorithm made to move code.

What: an expression computed more than once along some path (partially
redundant) is computed once at the latest safe points instead, and every later
computation reads that result. No path computes an expression more often than
before, and none computes one it did not compute before (the placement is safe:
only where the expression is anticipated).

How: Knoop, Rüthing and Steffen's lazy code motion (Dragon book 9.5, Algorithm
9.36; CMU 15-745), with the four analyses of
:mod:`llvmpy_mid.analysis.dataflow.lazy_code_motion` (anticipated,
will-be-available, postponable, used) giving, at every instruction point, the
expressions to compute there and the computations to replace:

1. the universe is restricted to expressions whose operands are SSA values
   (arguments, instructions, constants; not clang -O0 memory variables) and
   that are safe to speculate (no memory access, no trap:
   ``is_safe_to_speculatively_execute``), computed in reachable blocks; of
   those, only expressions computed twice or more, or once on a cycle, can move
   (each expression's bit is solved on its own, and a single acyclic computation
   stays), so the problems are solved over these alone; when there are none
   there is nothing to do;
2. critical edges are split (``split_all_critical_edges``) so the placement is
   optimal; split blocks that end up empty are merged back (and their
   destinations' use-lists put back in order, so untouched code prints as before);
3. per expression, before anything moves, the placement is checked: each
   operand dominates each insertion point, and a forward must-availability
   problem (gen: an insertion; kill: a definition of an operand) shows the
   expression available just before every computation to replace. An
   expression that fails is left alone. An insertion the expression is already
   available at is dropped (with an edge that cannot be split, e.g. into an EH
   pad, the analysis may place one before the branch and another after it);
4. a clone of one computation (its poison-generating flags intersected with
   those of every computation it replaces, other metadata dropped) goes to each
   insertion point, except that a computation standing at its own insertion
   point is the definition itself; every replaced computation's uses are
   rewired to the definition reaching it (the toolkit's ``SSAUpdater`` builds
   the phis) and the computation is deleted.

Statistics: ``NumInserted`` (clones placed), ``NumReplaced`` (computations
deleted).

What it does not do: no loads or other memory (GVN's load PRE), no
commutative or value-number matching (``a + b`` and ``b + a`` are two
expressions, as in the text), no edge splitting out of ``indirectbr`` or into
EH pads (placements stay safe there, maybe not optimal).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.call_graph import scc_postorder
from llvmpy_mid.analysis.dataflow.expressions import ExpressionTable, expression_opcode
from llvmpy_mid.analysis.dataflow.framework import DataflowProblem, Direction, Meet, bit_indices, solve
from llvmpy_mid.analysis.dataflow.lazy_code_motion import LazyCodeMotion
from llvmpy_mid.analysis.dataflow.variables import FunctionVariables, MemoryVariable
from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.early_cse_keys import and_ir_flags
from llvmpy_mid.transform.utils.basic_block_utils import split_all_critical_edges
from llvmpy_mid.transform.utils.ssa_updater import SSAUpdater

__all__ = ["LazyCodeMotionPass", "lazy_code_motion"]

NUM_INSERTED = Statistic("lazy-code-motion", "NumInserted", "Number of computations inserted")
NUM_REPLACED = Statistic("lazy-code-motion", "NumReplaced", "Number of redundant computations replaced")


class _Plan:
    """What lazy code motion does to one expression."""

    __slots__ = ("index", "insert_before", "replace")

    def __init__(self, index: int, insert_before: list[Instruction], replace: list[Instruction]) -> None:
        self.index = index
        self.insert_before = insert_before
        """The instructions a computation goes just before."""
        self.replace = replace
        """The computations that read the reaching definition instead."""


def _reachable_and_cyclic(fn: Function) -> tuple[set[BasicBlock], set[BasicBlock]]:
    """The blocks reachable from the entry, and those of them on a cycle of the CFG."""
    reachable: set[BasicBlock] = set()
    cyclic: set[BasicBlock] = set()
    for scc in scc_postorder(fn.entry_block, lambda bb: bb.successors):
        reachable.update(scc)
        if len(scc) > 1 or scc[0] in scc[0].successors:
            cyclic.update(scc)
    return reachable, cyclic


def _candidates(fn: Function, reachable: set[BasicBlock], cyclic: set[BasicBlock]) -> set[Instruction]:
    """The computations lazy code motion may move (SSA operands, speculatable, in reachable
    blocks) of the expressions computed twice or more, or once on a cycle.

    Every bit of the LCM problems is solved on its own, so an expression left out changes
    nothing for the others; and one computed once, on no cycle, is never moved (its only
    computation is its latest point, used nowhere after): the problems are solved over
    these alone, their width the candidates' count, not every expression's. (An expression
    is keyed here as :class:`~llvmpy_mid.analysis.dataflow.expressions.Expression` is:
    opcode, type and operand keys.)"""
    variables = FunctionVariables(fn)
    key = variables.operand_key
    first: dict[tuple[object, ...], Instruction] = {}
    out: set[Instruction] = set()
    for bb in fn.blocks:
        if bb not in reachable:
            continue
        on_cycle = bb in cyclic
        for inst in bb.instructions:
            op = expression_opcode(inst)
            if op is None or not is_safe_to_speculatively_execute(inst):
                continue
            operands = [key(inst, i) for i in range(inst.num_operands)]
            if any(isinstance(k, MemoryVariable) for k in operands):
                continue
            expression = (op, inst.type, *operands)
            seen = first.setdefault(expression, inst)
            if seen is not inst:
                out.add(seen)
                out.add(inst)
            elif on_cycle:
                out.add(inst)
    return out


def _plans(fn: Function, lcm: LazyCodeMotion, dt: DominatorTree) -> list[_Plan]:
    """The checked placement of every expression that has computations to replace."""
    blocks = list(fn.blocks)
    insts: dict[BasicBlock, list[Instruction]] = {bb: list(bb.instructions) for bb in blocks}
    inserts: dict[BasicBlock, list[int]] = {bb: lcm.insert_sets(bb) for bb in blocks}
    uses = lcm.uses

    width = len(lcm.domain)
    full = (1 << width) - 1

    def transfers(bb: BasicBlock) -> list[tuple[int, int]]:
        if not dt.is_reachable(bb):
            # No path from the entry runs here: its edges into live code constrain nothing.
            return [(full, 0)] * len(uses[bb])
        ins = inserts[bb]
        return [(ins[i] & ~kill, kill) for i, (_use, kill) in enumerate(uses[bb])]

    available = solve(
        fn,
        DataflowProblem("lcm-availability", Direction.FORWARD, Meet.INTERSECTION, width, transfers),
        lcm.domain,
        lcm.graph,
    )
    n = width
    insert_before: list[list[Instruction]] = [[] for _ in range(n)]
    replace: list[list[Instruction]] = [[] for _ in range(n)]
    bad = 0
    for bb in blocks:
        reachable = dt.is_reachable(bb)
        row = insts[bb]
        ins = inserts[bb]
        rep = lcm.replace_sets(bb)
        avail = available.points(bb)
        if not reachable:
            continue  # no insertion in dead code (and no computation there is in the universe)
        for i, inst in enumerate(row):
            for e in bit_indices(ins[i] & ~avail[i]):
                # (An insertion where an earlier one already reaches on every path is dropped:
                # a latest point before a branch with an unsplit edge is followed by more.)
                insert_before[e].append(inst)
                if inst.is_phi or inst.is_eh_pad:  # nothing may go before it (e.g. a catchswitch)
                    bad |= 1 << e
            r = rep[i]
            if r:
                replace[r.bit_length() - 1].append(inst)
                if not (avail[i] | ins[i]) & r:
                    bad |= r
    plans: list[_Plan] = []
    for e in range(n):
        if not replace[e] or bad >> e & 1:
            continue
        operands = [v for v in replace[e][0].operands if isinstance(v, Instruction)]
        if all(dt.dominates(v, at) for at in insert_before[e] for v in operands):
            plans.append(_Plan(e, insert_before[e], replace[e]))
    return plans


def _flags_of_all(inst: Instruction, others: list[Instruction], carrier: Instruction | None) -> Instruction:
    """Intersect ``inst``'s flags with those of every computation in ``others``; with
    ``carrier`` (an instruction already holding that intersection, of which ``inst``'s flags
    are a superset) one intersection does. The carrier to pass next."""
    if carrier is not None:
        and_ir_flags(inst, carrier)
        return carrier
    for other in others:
        if other is not inst:
            and_ir_flags(inst, other)
    return inst


def _apply(plans: list[_Plan]) -> tuple[int, int]:
    """Insert, rewire and delete as planned; (inserted, replaced)."""
    inserted = 0
    defs_of: list[list[Instruction]] = []
    for plan in plans:
        model = plan.replace[0]
        replaced = set(plan.replace)
        defs: list[Instruction] = []
        carrier: Instruction | None = None
        for at in plan.insert_before:
            if at in replaced:
                # The computation stands at its own insertion point: it is the definition.
                carrier = _flags_of_all(at, plan.replace, carrier)
                defs.append(at)
                continue
            clone = model.clone()
            carrier = _flags_of_all(clone, plan.replace, carrier)
            clone.drop_unknown_non_debug_metadata()
            clone.insert_before(at)
            if model.name:
                clone.name = model.name + ".lcm"
            defs.append(clone)
            inserted += 1
        defs_of.append(defs)
    dead: list[Instruction] = []
    for plan, defs in zip(plans, defs_of):
        model = plan.replace[0]
        kept = set(defs)
        updater = SSAUpdater()
        updater.initialize(model.type, model.name + ".lcm.phi" if model.name else "")
        in_block: dict[BasicBlock, list[Instruction]] = {}
        for d in defs:
            bb = d.parent
            assert bb is not None
            in_block.setdefault(bb, []).append(d)
        for bb, ds in in_block.items():
            last = ds[0]
            for d in ds[1:]:
                if last.comes_before(d):
                    last = d
            updater.add_available_value(bb, last)
        for r in plan.replace:
            if r in kept:
                continue
            bb = r.parent
            assert bb is not None
            value: Value | None = None
            for d in in_block.get(bb, ()):
                if d.comes_before(r) and (value is None or value.comes_before(d)):  # type: ignore[attr-defined]
                    value = d
            if value is None:
                value = updater.get_value_in_middle_of_block(bb)
            r.replace_all_uses_with(value)
            dead.append(r)
    for r in dead:
        r.erase_from_parent()
    return inserted, len(dead)


_UseOrder = list[tuple[object, int]]


def _use_order(bb: BasicBlock) -> _UseOrder:
    return [(u.user, u.index) for u in bb.uses]


def _merge_back_empty(new_blocks: list[BasicBlock], orders: dict[BasicBlock, _UseOrder]) -> int:
    """Undo the split of each new block that still only branches on; how many stay. A
    destination left with its original edges gets its original use-list order back (so
    ``; preds =`` prints as before)."""
    stay = 0
    touched: list[BasicBlock] = []
    for s in reversed(new_blocks):
        term = s.terminator
        pred = s.single_predecessor
        if term is None or term is not s.instructions.first or term.num_successors != 1 or pred is None:
            stay += 1
            continue
        dest = term.get_successor(0)
        if dest is s or pred is s or s.has_address_taken or term.dbg_records:
            stay += 1
            continue
        pterm = pred.terminator
        assert pterm is not None
        for i in range(pterm.num_successors):
            if pterm.get_successor(i) is s:
                pterm.set_successor(i, dest)
        for phi in dest.phis():
            phi.replace_incoming_block_with(s, pred)
        s.erase_from_parent()
        touched.append(dest)
    for dest in dict.fromkeys(touched):
        want = orders.get(dest)
        now = _use_order(dest)
        if want is None or now == want or set(now) != set(want):
            continue
        for user, index in reversed(want):
            user.get_operand_use(index).set(dest)  # type: ignore[attr-defined]
    return stay


def lazy_code_motion(fn: Function) -> bool:
    """Run lazy code motion on ``fn``; True if it changed (including split edges kept)."""
    if fn.is_declaration:
        return False
    reachable, cyclic = _reachable_and_cyclic(fn)
    candidates = _candidates(fn, reachable, cyclic)
    if not candidates:
        return False  # nothing computed twice or on a cycle: nothing can improve
    before = set(fn.blocks)
    orders = {bb: _use_order(bb) for bb in fn.blocks}
    split_all_critical_edges(fn)
    new_blocks = [bb for bb in fn.blocks if bb not in before]
    dt = DominatorTree(fn)
    table = ExpressionTable(fn, FunctionVariables(fn), candidates.__contains__)
    lcm = LazyCodeMotion(fn, table)
    plans = _plans(fn, lcm, dt)
    inserted, replaced = _apply(plans) if plans else (0, 0)
    if inserted:
        NUM_INSERTED.add(inserted)
    if replaced:
        NUM_REPLACED.add(replaced)
    stay = _merge_back_empty(new_blocks, orders)
    return bool(inserted or replaced or stay)


class LazyCodeMotionPass(Pass[Function]):
    """``lazy-code-motion``: partial-redundancy elimination (ours; not an LLVM 19 pass)."""

    name: ClassVar[str] = "lazy-code-motion"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if not lazy_code_motion(unit):
            return PreservedAnalyses.all()
        return PreservedAnalyses.none()
