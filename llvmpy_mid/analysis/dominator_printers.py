"""The dominance printers: ``print<domtree>``, ``print<postdomtree>`` and
``print<domfrontier>``, writing what opt-19 writes.

What: :func:`format_dominator_tree` renders a (post-)dominator tree as LLVM's
printer does: a header naming the function, the DFS-number state of LLVM's tree
(``DFSNumbers invalid: N slow queries.`` until it has been numbered), every node
in preorder indented by depth as ``[depth] %block {dfs-in,dfs-out} [level]`` (the
post-dominator tree starts at its virtual root `` <<exit node>>``), then the
roots. :func:`format_dominance_frontier` renders each block's frontier. The
passes write to ``stream`` (stderr by default, as opt) and preserve everything.

How: blocks are named as ``printAsOperand`` names them (``%name``, or the slot
number of an unnamed block, counted once per function). The DFS numbers and the
slow-query count are the ones LLVM's tree would hold (see
``DominatorTree.printed_dfs_numbers``); -1 prints as 4294967295, as LLVM's
unsigned fields do.

What it does not do: opt lists frontiers in the order of a pointer-keyed hash
map, which changes from run to run; here they come in function block order
(each frontier's own order is LLVM's).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.dominance_frontier import DominanceFrontier, DominanceFrontierAnalysis
from llvmpy_mid.analysis.block_names import block_refs
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

_RULE = "=============================--------------------------------\n"
_U32 = 0xFFFFFFFF


def format_dominator_tree(dt: DominatorTree) -> str:
    """What ``print<domtree>`` (or, for a post-dominator tree, ``print<postdomtree>``)
    writes for the tree's function."""
    fn = dt.function
    refs = block_refs(fn)
    kind = "PostDominator" if dt.post else "Dominator"
    out: list[str] = [
        "%sTree for function: %s\n" % (kind, fn.name),
        _RULE,
        "Inorder %s Tree: " % kind,
    ]
    if not dt.dfs_info_valid:
        out.append("DFSNumbers invalid: %d slow queries." % dt.slow_queries)
    out.append("\n")
    numbers = dt.printed_dfs_numbers
    stack: list[tuple[BasicBlock | None, int]]
    if dt.post:
        stack = [(None, 1)]
    else:
        stack = [(bb, 1) for bb in reversed(dt.roots)]
    children = dt.children
    while stack:
        bb, depth = stack.pop()
        dfs_in, dfs_out = numbers(bb)
        if bb is None:
            name = " <<exit node>>"
            kids = dt.root_children()
        else:
            name = refs.get(bb, "<badref>")
            kids = children(bb)
        out.append(
            "%s[%d] %s {%d,%d} [%d]\n" % ("  " * depth, depth, name, dfs_in & _U32, dfs_out & _U32, depth - 1)
        )
        for k in range(len(kids) - 1, -1, -1):
            stack.append((kids[k], depth + 1))
    out.append("Roots: ")
    for root in dt.roots:
        out.append(refs.get(root, "<badref>"))
        out.append(" ")
    out.append("\n")
    return "".join(out)


def format_dominance_frontier(df: DominanceFrontier) -> str:
    """What ``print<domfrontier>`` writes for the frontier's function (blocks in function order)."""
    fn = df.dt.function
    refs = block_refs(fn)
    out: list[str] = ["DominanceFrontier for function: %s\n" % fn.name]
    for bb, frontier in df.items():
        out.append("  DomFrontier for BB %s is:\t" % refs.get(bb, "<badref>"))
        for y in frontier:
            out.append(" ")
            out.append(refs.get(y, "<badref>"))
        out.append("\n")
    return "".join(out)


class _PrinterPass(Pass[Function]):
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def _write(self, text: str) -> None:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(text)


class DominatorTreePrinterPass(_PrinterPass):
    """``print<domtree>``: writes :func:`format_dominator_tree` of the function's dominator tree."""

    name: ClassVar[str] = "print<domtree>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        self._write(format_dominator_tree(am.get_result(DominatorTreeAnalysis, unit)))
        return PreservedAnalyses.all()


class PostDominatorTreePrinterPass(_PrinterPass):
    """``print<postdomtree>``: writes :func:`format_dominator_tree` of the post-dominator tree."""

    name: ClassVar[str] = "print<postdomtree>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        self._write(format_dominator_tree(am.get_result(PostDominatorTreeAnalysis, unit)))
        return PreservedAnalyses.all()


class DominanceFrontierPrinterPass(_PrinterPass):
    """``print<domfrontier>``: writes :func:`format_dominance_frontier`."""

    name: ClassVar[str] = "print<domfrontier>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        self._write(format_dominance_frontier(am.get_result(DominanceFrontierAnalysis, unit)))
        return PreservedAnalyses.all()


__all__ = [
    "DominanceFrontierPrinterPass",
    "DominatorTreePrinterPass",
    "PostDominatorTreePrinterPass",
    "block_refs",
    "format_dominance_frontier",
    "format_dominator_tree",
]
