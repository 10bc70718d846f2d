"""BasicBlockUtils: splitting critical edges, edges and blocks, merging blocks, deleting
dead blocks.

Random CFGs (conditional branches, switches with repeated destinations, phis with one
entry per edge, self loops, unreachable blocks): after ``split_all_critical_edges`` the
function verifies, no critical edge is left but those out of ``indirectbr``, the
dominator tree kept up to date equals a fresh one and the loop info kept equals a fresh
one; the printed result equals ``opt-19 -passes=break-crit-edges`` (and the same with
``require<domtree>,require<loops>`` first, so the kept analyses are used). The csmith
corpus files go through ``break-crit-edges`` identically to opt-19 (a sample; all under
``--run-slow``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from loop_oracle import body, needs_opt, opt19
from pass_oracle import check_like_opt, csmith_params

import llvmpy_mid
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.asm import parse_assembly, parse_file, print_module
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.transform.utils.basic_block_utils import (
    CriticalEdgeSplittingOptions,
    delete_dead_block,
    eliminate_unreachable_blocks,
    is_critical_edge,
    merge_block_into_predecessor,
    split_all_critical_edges,
    split_block,
    split_edge,
)


def random_cfg(seed: int, n: int = 12) -> str:
    """A function of ``n`` blocks with random branches/switches and phis on every edge."""
    rng = random.Random(seed)
    succs: list[list[int]] = []
    for i in range(n):
        kind = rng.random()
        if kind < 0.15 or i == n - 1:
            succs.append([])
        elif kind < 0.4:
            succs.append([rng.randrange(1, n)])
        elif kind < 0.8:
            succs.append([rng.randrange(1, n), rng.randrange(1, n)])
        else:
            succs.append([rng.randrange(1, n) for _ in range(rng.randint(2, 4))])
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, ss in enumerate(succs):
        for s in ss:
            preds[s].append(i)
    lines = ["define i32 @f(i32 %x, i1 %c) {"]
    for i in range(n):
        lines.append("b%d:" % i)
        if preds[i]:
            vals = {p: rng.randrange(100) for p in preds[i]}
            entries = ", ".join("[ %d, %%b%d ]" % (vals[p], p) for p in preds[i])
            lines.append("  %%p%d = phi i32 %s" % (i, entries))
            val = "%%p%d" % i
        else:
            val = "%x"
        ss = succs[i]
        if not ss:
            lines.append("  ret i32 %s" % val)
        elif len(ss) == 1:
            lines.append("  br label %%b%d" % ss[0])
        elif len(ss) == 2 and rng.random() < 0.7:
            lines.append("  br i1 %%c, label %%b%d, label %%b%d" % (ss[0], ss[1]))
        else:
            cases = " ".join("i32 %d, label %%b%d" % (k, s) for k, s in enumerate(ss[1:]))
            lines.append("  switch i32 %s, label %%b%d [ %s ]" % (val, ss[0], cases))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _idoms(dt: DominatorTree, fn: Function) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for bb in fn.blocks:
        if dt.is_reachable(bb):
            idom = dt.idom(bb)
            out[bb.name] = idom.name if idom is not None else None
    return out


def _loops(li: LoopInfo, fn: Function) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for bb in fn.blocks:
        loop = li.loop_for(bb)
        chain: list[str] = []
        while loop is not None:
            chain.append(loop.header.name)
            loop = loop.parent_loop
        out[bb.name] = tuple(chain)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_split_all_critical_edges_keeps_analyses(seed: int) -> None:
    module = parse_assembly(random_cfg(seed))
    fn = module.get_function("f")
    assert fn is not None
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    split_all_critical_edges(fn, CriticalEdgeSplittingOptions(dt, li))
    llvmpy_mid.verify_module(module)
    for bb in fn.blocks:
        term = bb.terminator
        assert term is not None
        for i in range(term.num_successors):
            assert not is_critical_edge(term, i), "critical edge %s -> %s left" % (bb.name, term.get_successor(i).name)
    fresh = DominatorTree(fn)
    assert _idoms(dt, fn) == _idoms(fresh, fn)
    assert _loops(li, fn) == _loops(LoopInfo(fn, fresh), fn)


@needs_opt
@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("pipeline", ["break-crit-edges", "require<domtree>,require<loops>,break-crit-edges"])
def test_break_crit_edges_matches_opt(seed: int, pipeline: str, tmp_path: Path) -> None:
    path = tmp_path / "cfg.ll"
    path.write_text(random_cfg(seed))
    expected = opt19(path, pipeline)
    assert expected is not None
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline)
    assert body(print_module(module)) == body(expected)


SPLIT_MERGE = """
define i32 @g(i1 %c, i32 %a) {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %x, 3
  br i1 %c, label %l, label %r
l:
  br label %j
r:
  br label %j
j:
  %p = phi i32 [ %x, %l ], [ %y, %r ]
  ret i32 %p
}
"""


def test_split_block_and_merge_back() -> None:
    module = parse_assembly(SPLIT_MERGE)
    fn = module.get_function("g")
    assert fn is not None
    dt = DominatorTree(fn)
    entry = fn.blocks._first
    assert entry is not None
    y = entry.instructions._first.next_instruction  # type: ignore[union-attr]
    assert y is not None
    new_bb = split_block(entry, y, dt)
    assert new_bb.name == "entry.split"
    assert [i.opcode for i in entry.instructions] == ["add", "br"]
    assert _idoms(dt, fn) == _idoms(DominatorTree(fn), fn)
    llvmpy_mid.verify_module(module)
    assert merge_block_into_predecessor(new_bb, dt=dt)
    assert [i.opcode for i in entry.instructions] == ["add", "mul", "br"]
    assert _idoms(dt, fn) == _idoms(DominatorTree(fn), fn)
    llvmpy_mid.verify_module(module)


def test_split_edge_names_and_phis() -> None:
    module = parse_assembly(SPLIT_MERGE)
    fn = module.get_function("g")
    assert fn is not None
    blocks = {bb.name: bb for bb in fn.blocks}
    dt = DominatorTree(fn)
    # l -> j is not critical (l has one successor): the bottom of l is split.
    new_bb = split_edge(blocks["l"], blocks["j"], dt)
    assert new_bb is not None and new_bb.name == "l.split"
    phi = blocks["j"].instructions._first
    assert phi is not None and new_bb in phi.incoming_blocks  # type: ignore[attr-defined]
    # entry -> r: r has one predecessor, so the top of r is split.
    new_r = split_edge(blocks["entry"], blocks["r"], dt)
    assert new_r is not None and new_r.name == "r.split" and new_r.next_block is blocks["r"]
    assert _idoms(dt, fn) == _idoms(DominatorTree(fn), fn)
    llvmpy_mid.verify_module(module)


def test_delete_dead_blocks() -> None:
    module = parse_assembly(
        """
define i32 @h(i32 %a) {
entry:
  ret i32 %a
dead1:
  %v = add i32 %a, 1
  br label %dead2
dead2:
  %p = phi i32 [ %v, %dead1 ]
  %q = add i32 %p, %v
  ret i32 %q
}
"""
    )
    fn = module.get_function("h")
    assert fn is not None
    assert eliminate_unreachable_blocks(fn)
    assert [bb.name for bb in fn.blocks] == ["entry"]
    llvmpy_mid.verify_module(module)
    assert not eliminate_unreachable_blocks(fn)
    m2 = parse_assembly("define void @k() {\nentry:\n  ret void\nx:\n  br label %x\n}\n")
    fn2 = m2.get_function("k")
    assert fn2 is not None
    x = fn2.blocks._last
    assert x is not None
    x.terminator.erase_from_parent()  # type: ignore[union-attr]
    x.append(llvmpy_mid.ir.instructions.terminators.UnreachableInst(x.type.context))  # type: ignore[attr-defined]
    delete_dead_block(x)
    assert [bb.name for bb in fn2.blocks] == ["entry"]


@needs_opt
@pytest.mark.parametrize("path", csmith_params())
def test_csmith_break_crit_edges(path: Path) -> None:
    check_like_opt(path, "break-crit-edges")


@pytest.mark.parametrize("seed", range(20))
def test_edits_through_dom_tree_updater(seed: int) -> None:
    """split_block / merge_block_into_predecessor / eliminate_unreachable_blocks with an
    eager DomTreeUpdater leave the tree equal to a fresh one, and the function verifies."""
    import random

    from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater

    rng = random.Random(seed)
    module = parse_assembly(random_cfg(seed, 12))
    fn = module.get_function("f")
    assert fn is not None
    dt = DominatorTree(fn)
    dtu = DomTreeUpdater(dt, strategy="eager")
    for _ in range(6):
        blocks = list(fn.blocks)
        bb = rng.choice(blocks)
        term = bb.terminator
        assert term is not None
        split_block(bb, term, dtu=dtu)
        assert _idoms(dt, fn) == _idoms(DominatorTree(fn), fn)
    merged = 0
    for bb in list(fn.blocks):
        if bb.parent is not None and bb is not fn.blocks._first and merge_block_into_predecessor(bb, dtu=dtu):
            merged += 1
            assert _idoms(dt, fn) == _idoms(DominatorTree(fn), fn)
    assert merged >= 6  # at least the blocks split off above fold back
    eliminate_unreachable_blocks(fn, dtu)
    assert _idoms(dt, fn) == _idoms(DominatorTree(fn), fn)
    llvmpy_mid.verify_module(module)
