"""Brute-force checks of llvmpy_mid.analysis.dataflow on random CFGs (hypothesis).

Random functions mix SSA values (arguments, entry-block values, phis, values of the same
block) with memory variables (loads and stores of allocas) over random branch structures,
including loops, unreachable blocks and infinite loops. Each analysis is compared, at every
instruction point, with its definition evaluated by searching paths in the point graph:
- liveness: live iff some path from the point reaches a use before a definition (phi
  operands used at the end of the incoming block);
- available expressions: available iff no path from a start (the entry, or the top of a
  block the entry does not reach) arrives with the expression not computed since its last kill;
- anticipated expressions: anticipated iff every path from the point computes it before a
  kill and before it may end (an exit, or a block that cannot reach an exit);
- lazy code motion: every insertion is anticipated (safe), and every replaced computation
  finds the temporary computed on every path to it with no kill since (correct).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import llvmpy_mid  # noqa: F401  (installs the printer)
from llvmpy_mid.analysis.dataflow.anticipated_expressions import AnticipatedExpressions
from llvmpy_mid.analysis.dataflow.available_expressions import AvailableExpressions
from llvmpy_mid.analysis.dataflow.lazy_code_motion import LazyCodeMotion
from llvmpy_mid.analysis.dataflow.liveness import Liveness
from llvmpy_mid.analysis.dataflow.variables import MemoryVariable
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction

VARS = ("v0", "v1")


def random_function(seed: int, nblocks: int) -> Function:
    rng = random.Random(seed)
    names = ["b%d" % i for i in range(nblocks)]
    succs: list[list[int]] = []
    for i in range(nblocks):
        r = rng.random()
        if i > 0 and r < 0.2:
            succs.append([])
        elif r < 0.55:
            succs.append([rng.randrange(1, nblocks)] if nblocks > 1 else [])
        else:
            pair = [rng.randrange(1, nblocks), rng.randrange(1, nblocks)] if nblocks > 1 else []
            succs.append(pair[:1] if pair and pair[0] == pair[1] else pair)
    preds: list[list[int]] = [[] for _ in range(nblocks)]
    for i, ss in enumerate(succs):
        for s in dict.fromkeys(ss):
            preds[s].append(i)
    lines = ["define i32 @f(i32 %a0, i32 %a1, i1 %c) {"]
    entry_vals: list[str] = []
    last_val = ["%a0"] * nblocks
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return "%%t%d" % counter[0]

    body: list[list[str]] = [[] for _ in range(nblocks)]
    for i in range(nblocks):
        out = body[i]
        pool = ["%a0", "%a1"] + entry_vals
        if i == 0:
            out += ["  %%%s = alloca i32" % v for v in VARS]
            out += ["  store i32 %%a%d, ptr %%%s" % (k, v) for k, v in enumerate(VARS) if rng.random() < 0.7]
        phis: list[str] = []
        if i > 0 and preds[i] and rng.random() < 0.5:
            p = "%%p%d" % i
            phis.append(p)
        local: list[str] = []
        for _ in range(rng.randrange(0, 5)):
            kind = rng.random()
            if kind < 0.35:
                v = rng.choice(VARS)
                w = rng.choice(VARS)
                x, y, z = fresh(), fresh(), fresh()
                out += [
                    "  %s = load i32, ptr %%%s" % (x, v),
                    "  %s = load i32, ptr %%%s" % (y, w),
                    "  %s = %s i32 %s, %s" % (z, rng.choice(("add", "mul")), x, y),
                ]
                local.append(z)
            elif kind < 0.65:
                z = fresh()
                ops = pool + local + phis
                out.append("  %s = %s i32 %s, %s" % (z, rng.choice(("add", "mul")), rng.choice(ops), rng.choice(["%a1"] + phis)))
                local.append(z)
            else:
                out.append("  store i32 %s, ptr %%%s" % (rng.choice(pool + local + phis), rng.choice(VARS)))
        if i == 0:
            entry_vals.extend(local)
        last_val[i] = (local or phis or ["%a1"])[-1]
        body[i] = [p for p in phis] + out  # phis filled below
    for i in range(nblocks):
        lines.append("%s:" % names[i])
        out = body[i]
        if out and out[0].startswith("%p"):
            incoming = ", ".join("[ %s, %%%s ]" % (last_val[p], names[p]) for p in preds[i])
            out[0] = "  %s = phi i32 %s" % (out[0], incoming)
        lines += out
        ss = succs[i]
        if not ss:
            lines.append("  ret i32 %s" % last_val[i])
        elif len(ss) == 1:
            lines.append("  br label %%%s" % names[ss[0]])
        else:
            lines.append("  br i1 %%c, label %%%s, label %%%s" % (names[ss[0]], names[ss[1]]))
    lines.append("}")
    fn = parse_assembly("\n".join(lines) + "\n").get_function("f")
    assert fn is not None
    return fn


# --- the point graph ---------------------------------------------------------------------------


def _succs(bb: BasicBlock) -> list[BasicBlock]:
    return list(dict.fromkeys(bb.successors))


def _reach(roots: list[BasicBlock], edges: dict[BasicBlock, list[BasicBlock]]) -> set[BasicBlock]:
    seen = set(roots)
    stack = list(roots)
    while stack:
        for n in edges[stack.pop()]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def _uses(inst: Instruction, var: object) -> bool:
    if inst.is_phi:
        return False
    if isinstance(var, MemoryVariable):
        return inst.opcode == "load" and inst.get_operand(0) is var.alloca
    return any(op is var for op in inst.operands)


def _defines(inst: Instruction, var: object) -> bool:
    if isinstance(var, MemoryVariable):
        return inst.opcode == "store" and inst.get_operand(1) is var.alloca
    return inst is var


def brute_live(fn: Function, var: object, bb: BasicBlock, k: int) -> bool:
    seen: set[tuple[BasicBlock, int]] = set()
    stack = [(bb, k)]
    while stack:
        b, i = stack.pop()
        if (b, i) in seen:
            continue
        seen.add((b, i))
        insts = list(b.instructions)
        if i < len(insts):
            if _uses(insts[i], var):
                return True
            if not _defines(insts[i], var):
                stack.append((b, i + 1))
            continue
        for s in _succs(b):
            for phi in s.phis():
                if any(v is var and p is b for v, p in phi.incoming):
                    return True
            stack.append((s, 0))
    return False


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 7))
def test_liveness_equals_path_search(seed: int, nblocks: int) -> None:
    fn = random_function(seed, nblocks)
    live = Liveness(fn)
    for bb in fn.blocks:
        pts = live.result.points(bb)
        for k, bits in enumerate(pts):
            for i, var in enumerate(live.domain.elements):
                assert bool(bits >> i & 1) == brute_live(fn, var, bb, k), (seed, bb.name, k, var)


def _table_events(fn: Function, table: object) -> dict[BasicBlock, list[tuple[int, int]]]:
    """(computes, kills) per instruction, the kills derived here from the operand keys."""
    from llvmpy_mid.analysis.dataflow.expressions import ExpressionTable

    assert isinstance(table, ExpressionTable)
    exprs = table.domain.elements
    out: dict[BasicBlock, list[tuple[int, int]]] = {}
    for bb in fn.blocks:
        row = []
        for inst in bb.instructions:
            e = table.computes(inst)
            kill = 0
            for j, ex in enumerate(exprs):
                if any(_defines(inst, op) for op in ex.operands):
                    kill |= 1 << j
            row.append((0 if e is None else 1 << e, kill))
        out[bb] = row
    return out


def brute_available(fn: Function, events: dict[BasicBlock, list[tuple[int, int]]], e: int) -> set[tuple[BasicBlock, int]]:
    """Points where e is NOT available."""
    bit = 1 << e
    blocks = list(fn.blocks)
    succs = {bb: _succs(bb) for bb in blocks}
    reached = _reach([blocks[0]], succs)
    starts = [blocks[0]] + [bb for bb in blocks if bb not in reached]
    seen: set[tuple[BasicBlock, int, bool]] = set()
    stack = [(bb, 0, False) for bb in starts]
    bad: set[tuple[BasicBlock, int]] = set()
    while stack:
        b, i, avail = stack.pop()
        if (b, i, avail) in seen:
            continue
        seen.add((b, i, avail))
        if not avail:
            bad.add((b, i))
        ev = events[b]
        if i < len(ev):
            use, kill = ev[i]
            a = (avail or bool(use & bit)) and not kill & bit
            stack.append((b, i + 1, a))
        else:
            stack.extend((s, 0, avail) for s in succs[b])
    return bad


def brute_anticipated(fn: Function, events: dict[BasicBlock, list[tuple[int, int]]], e: int, bb: BasicBlock, k: int) -> bool:
    bit = 1 << e
    blocks = list(fn.blocks)
    succs = {b: _succs(b) for b in blocks}
    preds: dict[BasicBlock, list[BasicBlock]] = {b: [] for b in blocks}
    for b in blocks:
        for s in succs[b]:
            preds[s].append(b)
    can_exit = _reach([b for b in blocks if not succs[b]], preds)
    seen: set[tuple[BasicBlock, int]] = set()
    stack = [(bb, k)]
    while stack:
        b, i = stack.pop()
        if (b, i) in seen:
            continue
        seen.add((b, i))
        ev = events[b]
        if i < len(ev):
            use, kill = ev[i]
            if use & bit:
                continue
            if kill & bit:
                return False
            stack.append((b, i + 1))
        else:
            if not succs[b] or b not in can_exit:
                return False
            stack.extend((s, 0) for s in succs[b])
    return True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 7))
def test_available_and_anticipated_equal_path_search(seed: int, nblocks: int) -> None:
    fn = random_function(seed, nblocks)
    av = AvailableExpressions(fn)
    ant = AnticipatedExpressions(fn, av.table)
    events = _table_events(fn, av.table)
    assert events == {bb: av.table.uses_kills(bb) for bb in fn.blocks}
    for e in range(len(av.domain)):
        bad = brute_available(fn, events, e)
        for bb in fn.blocks:
            apts = av.result.points(bb)
            npts = ant.result.points(bb)
            for k in range(len(apts)):
                assert bool(apts[k] >> e & 1) == ((bb, k) not in bad), (seed, "avail", bb.name, k, e)
                assert bool(npts[k] >> e & 1) == brute_anticipated(fn, events, e, bb, k), (seed, "ant", bb.name, k, e)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 7))
def test_lcm_is_safe_and_correct(seed: int, nblocks: int) -> None:
    fn = random_function(seed, nblocks)
    lcm = LazyCodeMotion(fn)
    events = _table_events(fn, lcm.table)
    for e, pl in enumerate(lcm.placements()):
        # Safe: every insertion point anticipates e; latest points are within earliest U pp.
        for bb, k in pl.insert:
            assert brute_anticipated(fn, events, e, bb, k), (seed, bb.name, k)
        # Correct: the temporary reaches every replaced computation on every path.
        inserted: dict[BasicBlock, list[tuple[int, int]]] = {}
        for bb in fn.blocks:
            row = []
            insert_here = {k for b, k in pl.insert if b is bb}
            for k, (_use, kill) in enumerate(events[bb]):
                inst = list(bb.instructions)[k]
                gen = 1 << e if (k in insert_here or inst in pl.keep) else 0
                row.append((gen, kill))
            inserted[bb] = row
        # An insertion happens before instruction k: model it as computed at k (kills of k
        # apply after, as for an original computation at k).
        bad = brute_available(fn, inserted, e)
        for inst in pl.replace:
            bb = inst.parent
            assert bb is not None
            k = list(bb.instructions).index(inst)
            in_here = any(b is bb and kk == k for b, kk in pl.insert)
            assert in_here or (bb, k) not in bad, (seed, bb.name, k)
