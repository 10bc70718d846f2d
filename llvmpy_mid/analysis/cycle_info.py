"""Cycles of a function's CFG, reducible or not (LLVM's ``CycleInfo``,
``include/llvm/ADT/GenericCycleImpl.h``), and ``print<cycles>``.

What: a cycle is a strongly connected region found from a header candidate; it has
one or more entries (the header first, then every block entered from outside),
its blocks (in discovery order, nested cycles' blocks included) and nested child
cycles.  Unlike natural loops, irreducible cycles are cycles too.

How: LLVM 19.1.7's algorithm: an iterative depth-first preorder numbering from the
entry block (each block's number and the last number in its subtree), then, for
each block in reverse preorder, the predecessors it is a DFS ancestor of (back
edges) seed a backward walk that collects the cycle's blocks, adopts already found
top-level cycles as children (their entries then count as blocks to walk from) and
records the extra entries.  ``print<cycles>`` writes LLVM's text: per top-level
cycle, depth first, ``depth=N: entries(a b) c d`` indented by four spaces a level,
blocks named as LLVM's SSA context names them (the name, or the slot number).

What it does not do: the incremental updates (``splitCriticalEdge``,
``addBlockToCycle``) and the cycle-based queries (exit blocks, preheaders).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AnalysisSet, CFGAnalyses, PreservedAnalyses


class Cycle:
    """One cycle: ``entries`` (header first), ``blocks`` (insertion order), ``children``."""

    __slots__ = ("entries", "blocks", "children", "parent", "depth")

    def __init__(self, header: BasicBlock) -> None:
        self.entries: list[BasicBlock] = [header]
        self.blocks: dict[BasicBlock, None] = {header: None}
        self.children: list[Cycle] = []
        self.parent: Cycle | None = None
        self.depth = 0

    @property
    def header(self) -> BasicBlock:
        return self.entries[0]

    def is_reducible(self) -> bool:
        return len(self.entries) == 1

    def contains(self, bb: BasicBlock) -> bool:
        return bb in self.blocks

    def preorder(self) -> list[Cycle]:
        """This cycle and its descendants, depth first (children in order)."""
        out: list[Cycle] = []
        stack: list[Cycle] = [self]
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(reversed(c.children))
        return out

    def __repr__(self) -> str:
        return "<Cycle %s depth %d>" % (self.header.name, self.depth)


class CycleInfo:
    """The cycles of ``function`` (LLVM ``GenericCycleInfo::compute``)."""

    __slots__ = ("function", "top_level_cycles", "_block_map")

    def __init__(self, function: Function) -> None:
        self.function = function
        self.top_level_cycles: list[Cycle] = []
        self._block_map: dict[BasicBlock, Cycle] = {}
        entry = function.blocks._first
        if entry is not None:
            self._compute(entry)

    def cycle_for(self, bb: BasicBlock) -> Cycle | None:
        """The innermost cycle holding ``bb``."""
        return self._block_map.get(bb)

    def _compute(self, entry: BasicBlock) -> None:
        start: dict[BasicBlock, int] = {}
        end: dict[BasicBlock, int] = {}
        preorder: list[BasicBlock] = []
        # LLVM's dfs(): a traverse stack of blocks and a stack of the depths at which
        # each open block was first met.
        traverse: list[BasicBlock] = [entry]
        tree_depths: list[int] = []
        counter = 0
        while traverse:
            bb = traverse[-1]
            if bb not in start:
                tree_depths.append(len(traverse))
                traverse.extend(bb.successors)
                counter += 1
                start[bb] = counter
                end[bb] = 0
                preorder.append(bb)
            else:
                if tree_depths[-1] == len(traverse):
                    end[bb] = counter
                    tree_depths.pop()
                traverse.pop()
        block_map = self._block_map
        top_map: dict[BasicBlock, Cycle] = {}
        top_level = self.top_level_cycles

        def top_level_parent(bb: BasicBlock) -> Cycle | None:
            c = top_map.get(bb)
            if c is not None:
                return c
            c = block_map.get(bb)
            if c is None:
                return None
            while c.parent is not None:
                c = c.parent
            top_map[bb] = c
            return c

        for header in reversed(preorder):
            c_start = start[header]
            c_end = end[header]

            def is_descendant(b: BasicBlock) -> bool:
                s = start.get(b, 0)
                return c_start <= s and end.get(b, 0) <= c_end

            worklist = [p for p in header.predecessors if is_descendant(p)]
            if not worklist:
                continue
            cycle = Cycle(header)
            block_map.setdefault(header, cycle)

            def process_predecessors(b: BasicBlock, cycle: Cycle = cycle) -> None:
                is_entry = False
                for p in b.predecessors:
                    if is_descendant(p):
                        worklist.append(p)
                    else:
                        is_entry = True
                if is_entry:
                    cycle.entries.append(b)

            while worklist:
                b = worklist.pop()
                if b is header:
                    continue
                parent = top_level_parent(b)
                if parent is not None:
                    if parent is not cycle:
                        # moveTopLevelCycleToNewParent: the last top-level cycle takes its slot.
                        pos = top_level.index(parent)
                        top_level[pos] = top_level[-1]
                        top_level.pop()
                        cycle.children.append(parent)
                        parent.parent = cycle
                        for blk in parent.blocks:
                            cycle.blocks.setdefault(blk, None)
                        for key, value in top_map.items():
                            if value is parent:
                                top_map[key] = cycle
                        for child_entry in parent.entries:
                            process_predecessors(child_entry)
                else:
                    block_map.setdefault(b, cycle)
                    cycle.blocks[b] = None
                    process_predecessors(b)
                    top_map.setdefault(b, cycle)
            top_level.append(cycle)
        for top in top_level:
            top.parent = None
            for c in top.preorder():
                c.depth = c.parent.depth + 1 if c.parent is not None else 1


def _block_labels(fn: Function) -> dict[BasicBlock, str]:
    """Blocks as LLVM's SSA context prints them: the name, else the local slot number."""
    from llvmpy_mid.analysis.block_names import block_refs

    return {bb: (bb.name if bb.name else ref[1:]) for bb, ref in block_refs(fn).items()}


def format_cycle_info(info: CycleInfo, header: bool = True) -> str:
    """The text of ``print<cycles>`` for one function (without its first line when
    ``header`` is false)."""
    out = ["CycleInfo for function: %s\n" % info.function.name] if header else []
    if info.top_level_cycles:
        labels = _block_labels(info.function)
        for top in info.top_level_cycles:
            for c in top.preorder():
                entries = " ".join(labels[e] for e in c.entries)
                entry_set = set(c.entries)
                rest = "".join(" " + labels[b] for b in c.blocks if b not in entry_set)
                out.append("    " * c.depth + "depth=%d: entries(%s)%s\n" % (c.depth, entries, rest))
    return "".join(out)


class CycleAnalysis(FunctionAnalysis[CycleInfo]):
    """``cycles``: the function's :class:`CycleInfo`; kept while the CFG is kept."""

    name: ClassVar[str] = "cycles"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> CycleInfo:
        return CycleInfo(unit)


class CycleInfoPrinterPass(Pass[Function]):
    """``print<cycles>``: writes :func:`format_cycle_info` to ``stream`` (stderr by default)."""

    name: ClassVar[str] = "print<cycles>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write("CycleInfo for function: %s\n" % unit.name)  # before the analysis runs, as LLVM
        out.write(format_cycle_info(am.get_result(CycleAnalysis, unit), header=False))
        return PreservedAnalyses.all()


__all__ = ["Cycle", "CycleAnalysis", "CycleInfo", "CycleInfoPrinterPass", "format_cycle_info"]
