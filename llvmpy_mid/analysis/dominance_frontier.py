"""Dominance frontiers and iterated dominance frontiers (LLVM's ``DominanceFrontier``,
the ``domfrontier`` analysis, and the ``IDFCalculator`` that places phis).

What: :class:`DominanceFrontier` maps every block in a dominator tree to its
frontier ``DF(b) = {y : b dominates a predecessor of y, b does not strictly
dominate y}``, each frontier in the order LLVM's calculation inserts it: first
the CFG successors of ``b`` that ``b`` does not immediately dominate (successor
order), then, for ``b``'s dominator-tree children from the last to the first,
the members of the child's frontier that ``b`` does not immediately dominate.
Built on a post-dominator tree it gives post-dominance frontiers (predecessors
instead of successors). :func:`iterated_dominance_frontier` returns
``DF+(S)``, the limit of ``DF(S ∪ DF+)``: the blocks where a variable defined in
``S`` needs a phi (pruned to ``live_in`` when given).

How: frontiers follow Cytron et al., in one bottom-up walk of the dominator
tree (explicit stack): a node's set is assembled when its children are done,
from its local part and its children's sets. That ``b`` strictly dominates a
member ``y`` of a child's frontier exactly when ``idom(y) is b``, so no
dominance query is needed; duplicates are dropped with one stamp per block.
The iterated frontier needs no frontiers at all: as LLVM's ``IDFCalculator``
(after Sreedhar and Gao), definition blocks go into a priority queue keyed by
dominator-tree level (deepest first); from each one its dominator subtree is
walked once, and every CFG edge leaving it to a block no deeper than the root
adds that block to the result (and to the queue). Each block is walked at most
once, so it is O(E + N log N). The result is in function block order (LLVM's
raw order is never printed: its callers sort it).

What it does not do: no incremental update; after CFG changes build a new one.
Blocks the tree does not hold (unreachable) have no frontier. LLVM prints
frontiers in the order of a pointer-keyed hash map, which differs from run to
run; the printer here uses function block order.
"""

from __future__ import annotations

import heapq
from typing import Callable, ClassVar, Iterable, Iterator

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.dominators import block_successors as _cfg_successors
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import AnalysisSet, CFGAnalyses




def _predecessors(bb: BasicBlock) -> list[BasicBlock]:
    return bb.predecessors


def _edges(post: bool) -> Callable[[BasicBlock], list[BasicBlock]]:
    """The CFG edges a tree is built on: successors, or predecessors for post-dominators."""
    return _predecessors if post else _cfg_successors


def _tree_postorder(dt: DominatorTree) -> list[BasicBlock]:
    """The tree's blocks, every block after all its children (virtual root left out)."""
    order: list[BasicBlock] = []
    stack = list(dt.root_children())
    children = dt.children
    while stack:
        bb = stack.pop()
        order.append(bb)
        stack.extend(children(bb))
    order.reverse()
    return order


class DominanceFrontier:
    """The dominance frontier of every block of ``dt`` (post-dominance frontiers
    when ``dt`` is a post-dominator tree)."""

    __slots__ = ("dt", "_frontiers")

    def __init__(self, dt: DominatorTree) -> None:
        self.dt = dt
        self._frontiers: dict[BasicBlock, list[BasicBlock]] = {}
        self._compute()

    def _compute(self) -> None:
        dt = self.dt
        out = _edges(dt.post)
        idom = dt.idom
        children = dt.children
        frontiers = self._frontiers
        mark: dict[BasicBlock, BasicBlock] = {}
        for bb in _tree_postorder(dt):
            df: list[BasicBlock] = []
            for y in out(bb):
                if mark.get(y) is not bb and y in dt and idom(y) is not bb:
                    mark[y] = bb
                    df.append(y)
            kids = children(bb)
            for k in range(len(kids) - 1, -1, -1):
                for y in frontiers[kids[k]]:
                    if mark.get(y) is not bb and idom(y) is not bb:
                        mark[y] = bb
                        df.append(y)
            frontiers[bb] = df

    # --- queries -----------------------------------------------------------------------------
    def frontier(self, bb: BasicBlock) -> list[BasicBlock]:
        """``DF(bb)`` in LLVM's order; empty for a block the tree does not hold."""
        return list(self._frontiers.get(bb, ()))

    def __getitem__(self, bb: BasicBlock) -> list[BasicBlock]:
        return self.frontier(bb)

    def __contains__(self, bb: BasicBlock) -> bool:
        return bb in self._frontiers

    def __len__(self) -> int:
        return len(self._frontiers)

    def __repr__(self) -> str:
        from llvmpy_mid.ir._printing import block_ref

        kind = "post-dominance" if self.dt.post else "dominance"
        shown = []
        for bb, df in list(self.items())[:4]:
            shown.append("%s: {%s}" % (block_ref(bb), ", ".join(block_ref(b) for b in df)))
        more = ", ..." if len(self._frontiers) > 4 else ""
        return "<DominanceFrontier (%s) of %s: %s%s>" % (kind, block_ref(self.dt.function), ", ".join(shown), more)

    def __iter__(self) -> Iterator[BasicBlock]:
        """The blocks that have a frontier, in function order."""
        frontiers = self._frontiers
        for bb in self.dt.function.blocks:
            if bb in frontiers:
                yield bb

    def items(self) -> Iterator[tuple[BasicBlock, list[BasicBlock]]]:
        """(block, frontier) pairs in function order."""
        for bb in self:
            yield bb, list(self._frontiers[bb])

    def iterated(self, blocks: Iterable[BasicBlock], live_in: Iterable[BasicBlock] | None = None) -> list[BasicBlock]:
        """``DF+(blocks)`` (see :func:`iterated_dominance_frontier`)."""
        return iterated_dominance_frontier(self.dt, blocks, live_in)


class IDFCalculator:
    """Iterated dominance frontiers over one tree, for many definition sets (as
    mem2reg asks per variable): the block order used to sort results is
    computed once."""

    __slots__ = ("dt", "_order")

    def __init__(self, dt: DominatorTree) -> None:
        self.dt = dt
        self._order: dict[BasicBlock, int] | None = None

    def calculate(
        self, def_blocks: Iterable[BasicBlock], live_in: Iterable[BasicBlock] | None = None, sort: bool = True,
        edges: Callable[[BasicBlock], list[BasicBlock]] | None = None,
    ) -> list[BasicBlock]:
        """``DF+(def_blocks)`` in function block order; with ``live_in``, only blocks in
        it are reported or explored (pruned SSA). Blocks outside the tree are ignored.
        ``sort=False`` keeps the order LLVM's calculator reports them in (MemorySSA
        numbers its phis in that order). ``edges`` replaces the CFG edges followed (LLVM's
        calculator over a ``GraphDiff`` view, which lists successors last to first)."""
        dt = self.dt
        dt.update_dfs_numbers()  # LLVM's calculator numbers the tree (print<domtree> shows it)
        out = _edges(dt.post) if edges is None else edges
        level = dt.level
        dfs_numbers = dt.dfs_numbers
        children = dt.children
        defs = {bb for bb in def_blocks if bb in dt}
        live = None if live_in is None else set(live_in)
        heap: list[tuple[int, int, int, BasicBlock]] = []
        tie = 0
        for bb in defs:
            heap.append((-level(bb), -dfs_numbers(bb)[0], tie, bb))
            tie += 1
        heapq.heapify(heap)
        queued: set[BasicBlock] = set()
        walked: set[BasicBlock] = set()
        result: list[BasicBlock] = []
        while heap:
            neg_level, _, _, root = heapq.heappop(heap)
            root_level = -neg_level
            if root in walked:
                continue
            walked.add(root)
            work = [root]
            while work:
                node = work.pop()
                for succ in out(node):
                    if succ in queued or succ not in dt:
                        continue
                    succ_level = level(succ)
                    if succ_level > root_level:
                        continue
                    queued.add(succ)
                    if live is not None and succ not in live:
                        continue
                    result.append(succ)
                    if succ not in defs:
                        heapq.heappush(heap, (-succ_level, -dfs_numbers(succ)[0], tie, succ))
                        tie += 1
                for child in children(node):
                    if child not in walked:
                        walked.add(child)
                        work.append(child)
        if not sort:
            return result
        order = self._order
        if order is None:
            order = self._order = {bb: i for i, bb in enumerate(dt.function.blocks)}
        result.sort(key=order.__getitem__)
        return result


def iterated_dominance_frontier(
    dt: DominatorTree, blocks: Iterable[BasicBlock], live_in: Iterable[BasicBlock] | None = None
) -> list[BasicBlock]:
    """``DF+(blocks)`` in function block order: where phis for a variable defined in
    ``blocks`` go (only blocks in ``live_in`` when it is given). For many sets over
    one tree, keep an :class:`IDFCalculator`."""
    return IDFCalculator(dt).calculate(blocks, live_in)


# --- pass-manager glue ------------------------------------------------------------------------


class DominanceFrontierAnalysis(FunctionAnalysis[DominanceFrontier]):
    """``domfrontier``: the function's :class:`DominanceFrontier`; kept while the CFG is kept."""

    name: ClassVar[str] = "domfrontier"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> DominanceFrontier:
        return DominanceFrontier(am.get_result(DominatorTreeAnalysis, unit))


__all__ = [
    "DominanceFrontier",
    "DominanceFrontierAnalysis",
    "IDFCalculator",
    "iterated_dominance_frontier",
]
