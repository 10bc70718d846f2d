"""Incremental dominator-tree updates (``DominatorTree.insert_edge`` /
``delete_edge`` / ``apply_updates``) and ``DomTreeUpdater``: after every random
edge insertion or deletion on random CFGs the updated tree equals a fresh
computation (``verify``, checked independently here too), eagerly and lazily,
with block deletion."""

from __future__ import annotations

import random

import pytest

import llvmpy_mid
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module


class CFG:
    """A function whose block terminators are rebuilt from successor lists."""

    def __init__(self, n: int) -> None:
        self.ctx = llvmpy_mid.Context()
        self.mod = Module("m", self.ctx)
        self.fn = Function(self.ctx.function_type(self.ctx.void, [self.ctx.i32]), "f", module=self.mod)
        self.blocks = [self.fn.append_block("b%d" % i) for i in range(n)]
        self.succ: dict[BasicBlock, list[BasicBlock]] = {b: [] for b in self.blocks}
        for b in self.blocks:
            self.rebuild(b)

    def rebuild(self, bb: BasicBlock) -> None:
        term = bb.terminator
        if term is not None:
            term.erase_from_parent()
        b = IRBuilder(bb)
        succs = self.succ[bb]
        if not succs:
            b.ret_void()
        elif len(succs) == 1:
            b.br(succs[0])
        else:
            x = self.fn.args[0]
            b.switch(x, succs[0], [(ConstantInt.get(self.ctx.i32, i), s) for i, s in enumerate(succs[1:], 1)])

    def add(self, a: BasicBlock, b: BasicBlock) -> None:
        self.succ[a].append(b)
        self.rebuild(a)

    def remove(self, a: BasicBlock, b: BasicBlock) -> None:
        self.succ[a].remove(b)
        self.rebuild(a)


def random_cfg(rng: random.Random) -> CFG:
    n = rng.randint(2, 12)
    g = CFG(n)
    for _ in range(rng.randint(0, 2 * n)):
        a, b = rng.choice(g.blocks), rng.choice(g.blocks[1:])
        if b not in g.succ[a]:
            g.succ[a].append(b)
    for b in g.blocks:
        g.rebuild(b)
    return g


def same_as_fresh(dt: DominatorTree) -> None:
    fresh = DominatorTree(dt.function, dt.post)
    assert set(fresh._num) == set(dt._num)
    for bb in fresh._num:
        assert fresh.idom(bb) is dt.idom(bb), bb.name
        assert fresh.level(bb) == dt.level(bb), bb.name
        assert set(fresh.children(bb)) == set(dt.children(bb)), bb.name
    for a in fresh._num:
        for b in fresh._num:
            assert fresh.dominates_block(a, b) == dt.dominates_block(a, b)
    assert dt.verify()


def random_edit(g: CFG, rng: random.Random) -> tuple[str, BasicBlock, BasicBlock]:
    edges = [(a, b) for a in g.blocks for b in g.succ[a]]
    free = [(a, b) for a in g.blocks for b in g.blocks[1:] if b not in g.succ[a]]
    if edges and (not free or rng.random() < 0.5):
        a, b = rng.choice(edges)
        g.remove(a, b)
        return ("delete", a, b)
    a, b = rng.choice(free)
    g.add(a, b)
    return ("insert", a, b)


@pytest.mark.parametrize("post", [False, True])
def test_single_updates_match_recomputation(post: bool) -> None:
    rng = random.Random(1913 + post)
    for _ in range(200):
        g = random_cfg(rng)
        dt = DominatorTree(g.fn, post)
        for _ in range(rng.randint(1, 8)):
            kind, a, b = random_edit(g, rng)
            if kind == "insert":
                dt.insert_edge(a, b)
            else:
                dt.delete_edge(a, b)
            same_as_fresh(dt)


def test_batches_and_cancelling_updates() -> None:
    rng = random.Random(5)
    for _ in range(100):
        g = random_cfg(rng)
        dt = DominatorTree(g.fn)
        updates = [random_edit(g, rng) for _ in range(rng.randint(1, 4))]
        dt.apply_updates(updates)
        same_as_fresh(dt)
    # an insert and a delete of the same edge cancel out: the tree is untouched
    g = CFG(3)
    g.add(g.blocks[0], g.blocks[1])
    dt = DominatorTree(g.fn)
    dt.apply_updates([("insert", g.blocks[0], g.blocks[2]), ("delete", g.blocks[0], g.blocks[2])])
    same_as_fresh(dt)
    with pytest.raises(IRError):
        dt.apply_updates([("add", g.blocks[0], g.blocks[2])])


def test_deleting_one_of_two_parallel_edges_changes_nothing() -> None:
    g = CFG(3)
    g.add(g.blocks[0], g.blocks[1])
    g.add(g.blocks[1], g.blocks[2])
    g.add(g.blocks[0], g.blocks[2])
    dt = DominatorTree(g.fn)
    assert dt.idom(g.blocks[2]) is g.blocks[0]
    g.add(g.blocks[0], g.blocks[2])  # a second 0 -> 2 edge (switch case)
    g.remove(g.blocks[0], g.blocks[2])
    dt.delete_edge(g.blocks[0], g.blocks[2])
    assert dt.idom(g.blocks[2]) is g.blocks[0]
    same_as_fresh(dt)


@pytest.mark.parametrize("strategy", ["eager", "lazy"])
def test_updater_keeps_both_trees(strategy: str) -> None:
    rng = random.Random(77 if strategy == "eager" else 78)
    for _ in range(60):
        g = random_cfg(rng)
        dtu = DomTreeUpdater(DominatorTree(g.fn), DominatorTree(g.fn, post=True), strategy)  # type: ignore[arg-type]
        for _ in range(rng.randint(1, 6)):
            dtu.apply_updates([random_edit(g, rng)])
            if rng.random() < 0.3:
                same_as_fresh(dtu.get_dom_tree())
        same_as_fresh(dtu.get_dom_tree())
        same_as_fresh(dtu.get_post_dom_tree())
        assert not dtu.has_pending_updates()


@pytest.mark.parametrize("strategy", ["eager", "lazy"])
def test_delete_bb(strategy: str) -> None:
    g = CFG(4)
    b0, b1, b2, b3 = g.blocks
    g.add(b0, b1)
    g.add(b0, b2)
    g.add(b1, b3)
    g.add(b2, b3)
    # a value defined in b2 and used in b3 becomes poison when b2 goes
    x = IRBuilder(b2, b2.terminator).add(g.fn.args[0], ConstantInt.get(g.ctx.i32, 1), "x")
    user = IRBuilder(b3, b3.terminator).add(x, x, "y")
    dtu = DomTreeUpdater(DominatorTree(g.fn), DominatorTree(g.fn, post=True), strategy)  # type: ignore[arg-type]
    g.remove(b0, b2)
    dtu.apply_updates([("delete", b0, b2)])
    g.succ[b2] = []
    dtu.apply_updates([("delete", b2, b3)])
    dtu.delete_bb(b2)
    assert user.get_operand(0) is not x and type(user.get_operand(0)).__name__ == "PoisonValue"
    if strategy == "lazy":
        assert dtu.is_bb_pending_deletion(b2) and b2.parent is g.fn
        assert dtu.has_pending_updates()
        dtu.flush()
    assert not dtu.is_bb_pending_deletion(b2)
    assert b2.parent is None and b2 not in list(g.fn.blocks)
    same_as_fresh(dtu.get_dom_tree())
    same_as_fresh(dtu.get_post_dom_tree())
    with pytest.raises(IRError, match="predecessors"):
        dtu.delete_bb(b3)


def test_permissive_drops_invalid_and_duplicate_updates() -> None:
    g = CFG(3)
    b0, b1, b2 = g.blocks
    g.add(b0, b1)
    dt = DominatorTree(g.fn)
    dtu = DomTreeUpdater(dt, strategy="lazy")
    g.add(b1, b2)
    # the delete of b0->b1 contradicts the CFG, the second insert repeats an edge
    dtu.apply_updates_permissive([("insert", b1, b2), ("delete", b0, b1), ("insert", b1, b2), ("insert", b2, b2)])
    assert dtu._pending == [("insert", b1, b2)]
    same_as_fresh(dtu.get_dom_tree())
    assert dt.idom(b2) is b1


def test_recalculate_drops_pending() -> None:
    g = CFG(3)
    b0, b1, b2 = g.blocks
    dtu = DomTreeUpdater(DominatorTree(g.fn), strategy="lazy")
    g.add(b0, b1)
    g.add(b1, b2)
    dtu.apply_updates([("insert", b0, b1), ("insert", b1, b2)])
    dtu.recalculate(g.fn)
    assert not dtu.has_pending_updates()
    same_as_fresh(dtu.get_dom_tree())


def test_batches_applied_incrementally_against_the_pre_update_view() -> None:
    """Batches small for the tree go update by update over LLVM's view of the CFG
    without the later updates (inserts and deletes mixed); the result is exact."""
    rng = random.Random(3)
    for _ in range(100):
        n = rng.randint(6, 24)
        g = CFG(n)
        for _ in range(rng.randint(n, 3 * n)):
            a, b = rng.choice(g.blocks), rng.choice(g.blocks[1:])
            if b not in g.succ[a]:
                g.succ[a].append(b)
        for b in g.blocks:
            g.rebuild(b)
        dt = DominatorTree(g.fn)
        for _ in range(3):
            dt.apply_updates([random_edit(g, rng) for _ in range(rng.randint(2, 5))])
            same_as_fresh(dt)
