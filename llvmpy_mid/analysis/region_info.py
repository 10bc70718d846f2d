"""Single-entry single-exit regions of a function and their tree (LLVM's ``RegionInfo`` /
``Region``), the ``regions`` analysis and the ``print<regions>`` printer.

What: a region is given by an entry block and an exit block (the first block after the
region, ``None`` for the top-level region that spans the whole function). Its blocks are
those the entry dominates, minus those the exit dominates when the entry dominates the exit.
:class:`RegionInfo` finds the regions LLVM 19 finds, nests them into a tree under the
top-level region and maps every reachable block to the innermost region holding it.
:class:`Region` answers ``contains``, ``blocks()`` (depth-first from the entry, never past
the exit), ``elements()`` (blocks and sub-regions as one flattened graph), ``is_simple``
(exactly one entering edge and one exiting edge), ``entering_block`` / ``exiting_block``.
:func:`format_region_info` writes what ``opt -passes='print<regions>'`` writes in the three
styles of ``-print-region-style`` (``none``, the default, ``bb`` and ``rn``).

How (the construction LLVM describes; every walk uses an explicit stack):
1. Dominator tree, post-dominator tree and dominance frontier (``domfrontier``; the
   frontier lists are turned into sets here for the membership tests).
2. Blocks are taken in post-order of the dominator tree (children in tree order), so small
   regions deep in the tree come first. For each block as a candidate entry, the candidate
   exits are its post-dominators, walked upwards; ``(entry, exit)`` is a region when the
   frontier test holds: every frontier block of the entry other than entry and exit is in
   the exit's frontier and is reached from the region only through the exit, and no
   frontier block of the exit lies strictly inside the region (when the entry does not
   dominate the exit, the entry's frontier may hold only entry and exit). Each region
   found becomes the parent of the previous one with the same entry; the walk stops where
   the entry no longer dominates the exit. A shortcut map remembers the largest exit found
   for each entry, so later walks jump over whole regions (linear CFGs stay fast). A
   "region" whose entry has a single successor that is its exit is trivial and not made.
3. The dominator tree is walked in preorder with a current region: leaving the current
   region's exit moves up to its parent; a block that starts regions hangs the outermost
   of them under the current region and enters the innermost; any other block maps to the
   current region.

What it does not do: no incremental update (LLVM's ``splitBlock`` / ``replaceExit``
helpers); after CFG edits build a new ``RegionInfo``. Blocks unreachable from the entry are
in no region (``region_for`` gives ``None``). No DOT output (``dot-regions``), no
``-verify-region-info``.
"""

from __future__ import annotations

import sys
from typing import ClassVar, Iterator, Mapping, TextIO, Union

from llvmpy_mid.analysis.block_names import block_refs
from llvmpy_mid.analysis.dominance_frontier import DominanceFrontier, DominanceFrontierAnalysis
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.dominators import block_successors as _successors
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AnalysisSet, CFGAnalyses, PreservedAnalyses

#: The ``-print-region-style`` option (``none``, ``bb`` or ``rn``; ``none`` by default, as LLVM).
PRINT_STYLE_OPTION = "print-region-style"
PRINT_STYLES = ("none", "bb", "rn")

RegionNode = Union[BasicBlock, "Region"]
"""An element of a region's flattened graph: a block, or a sub-region standing for its blocks."""

_EMPTY: set[BasicBlock] = set()




class Region:
    """One single-entry single-exit region. ``exit`` is None only for the top-level region.
    Sub-regions are in ``children`` in the order LLVM keeps (and prints) them."""

    __slots__ = ("entry", "exit", "parent", "children", "info")

    def __init__(self, entry: BasicBlock, exit: BasicBlock | None, info: RegionInfo) -> None:
        self.entry = entry
        self.exit = exit
        self.parent: Region | None = None
        self.children: list[Region] = []
        self.info = info

    # --- structure ---------------------------------------------------------------------------
    @property
    def is_top_level_region(self) -> bool:
        return self.exit is None

    @property
    def depth(self) -> int:
        """0 for the top-level region, 1 for its children, ..."""
        d = 0
        node = self.parent
        while node is not None:
            d += 1
            node = node.parent
        return d

    def add_sub_region(self, sub: Region) -> None:
        if sub.parent is not None:
            raise ValueError("the region already has a parent")
        sub.parent = self
        self.children.append(sub)

    def __iter__(self) -> Iterator[Region]:
        return iter(self.children)

    def regions_in_preorder(self) -> list[Region]:
        """This region and all regions nested in it, parents before children."""
        out: list[Region] = []
        stack: list[Region] = [self]
        while stack:
            r = stack.pop()
            out.append(r)
            stack.extend(reversed(r.children))
        return out

    # --- membership --------------------------------------------------------------------------
    def contains_block(self, bb: BasicBlock) -> bool:
        """LLVM's rule: a block unreachable from the entry is in no region; the top-level
        region holds every reachable block; otherwise the entry must dominate the block and,
        when the entry dominates the exit, the exit must not."""
        dt = self.info.dt
        if not dt.is_reachable(bb):
            return False
        exit = self.exit
        if exit is None:
            return True
        entry = self.entry
        return dt.dominates_block(entry, bb) and not (
            dt.dominates_block(exit, bb) and dt.dominates_block(entry, exit)
        )

    def contains(self, x: BasicBlock | Region | Instruction) -> bool:
        """Whether a block (or an instruction's block) is in the region, or a region is nested
        in it (a region contains itself)."""
        if isinstance(x, Region):
            if self.exit is None:
                return True
            return self.contains_block(x.entry) and (
                (x.exit is not None and self.contains_block(x.exit)) or x.exit is self.exit
            )
        if isinstance(x, Instruction):
            parent = x.parent
            return parent is not None and self.contains_block(parent)
        return self.contains_block(x)

    def __contains__(self, x: BasicBlock | Region | Instruction) -> bool:
        return self.contains(x)

    def blocks(self) -> list[BasicBlock]:
        """The region's blocks, depth-first preorder over the CFG from the entry (successors in
        terminator order), never entering the exit (LLVM's ``block_iterator``)."""
        entry = self.entry
        seen: set[BasicBlock] = {entry}
        if self.exit is not None:
            seen.add(self.exit)
        out: list[BasicBlock] = [entry]
        stack: list[tuple[list[BasicBlock], int]] = [(_successors(entry), 0)]
        while stack:
            succs, i = stack[-1]
            while i < len(succs) and succs[i] in seen:
                i += 1
            if i == len(succs):
                stack.pop()
                continue
            stack[-1] = (succs, i + 1)
            bb = succs[i]
            seen.add(bb)
            out.append(bb)
            stack.append((_successors(bb), 0))
        return out

    def sub_region_starting_at(self, bb: BasicBlock) -> Region | None:
        """The direct sub-region whose entry is ``bb``, if any (LLVM's ``getSubRegionNode``)."""
        r = self.info.region_for(bb)
        if r is None or r is self:
            return None
        while r.parent is not None and r.parent is not self:
            r = r.parent
        if r.parent is not self or r.entry is not bb:
            return None
        return r

    def node_for(self, bb: BasicBlock) -> RegionNode:
        """``bb`` as an element of this region: the direct sub-region it starts, or itself."""
        sub = self.sub_region_starting_at(bb)
        return sub if sub is not None else bb

    def element_successors(self, node: RegionNode) -> list[RegionNode]:
        """Successors of an element in the flattened graph: a block's CFG successors, a
        sub-region's exit, each as an element, leaving out this region's exit."""
        exit = self.exit
        if isinstance(node, Region):
            if node.exit is None or node.exit is exit:
                return []
            return [self.node_for(node.exit)]
        return [self.node_for(s) for s in _successors(node) if s is not exit]

    def elements(self) -> list[RegionNode]:
        """Blocks and direct sub-regions reachable from the entry in the flattened graph,
        depth-first preorder (LLVM's ``element_iterator``)."""
        root = self.node_for(self.entry)
        seen: set[object] = {root}
        out: list[RegionNode] = [root]
        stack: list[tuple[list[RegionNode], int]] = [(self.element_successors(root), 0)]
        while stack:
            succs, i = stack[-1]
            while i < len(succs) and succs[i] in seen:
                i += 1
            if i == len(succs):
                stack.pop()
                continue
            stack[-1] = (succs, i + 1)
            node = succs[i]
            seen.add(node)
            out.append(node)
            stack.append((self.element_successors(node), 0))
        return out

    # --- entering and exiting edges ------------------------------------------------------------
    @property
    def entering_block(self) -> BasicBlock | None:
        """The only reachable predecessor of the entry outside the region, if exactly one."""
        dt = self.info.dt
        found: BasicBlock | None = None
        for pred in self.entry.predecessors:
            if dt.is_reachable(pred) and not self.contains_block(pred):
                if found is not None:
                    return None
                found = pred
        return found

    @property
    def exiting_block(self) -> BasicBlock | None:
        """The only predecessor of the exit inside the region, if exactly one."""
        exit = self.exit
        if exit is None:
            return None
        found: BasicBlock | None = None
        for pred in exit.predecessors:
            if self.contains_block(pred):
                if found is not None:
                    return None
                found = pred
        return found

    @property
    def exiting_blocks(self) -> list[BasicBlock]:
        """The exit's predecessors inside the region (one entry per edge)."""
        if self.exit is None:
            return []
        return [p for p in self.exit.predecessors if self.contains_block(p)]

    @property
    def is_simple(self) -> bool:
        """Not the top-level region, and one edge enters and one edge leaves it."""
        return self.exit is not None and self.entering_block is not None and self.exiting_block is not None

    # --- names -------------------------------------------------------------------------------
    def name_str(self, refs: Mapping[BasicBlock, str] | None = None) -> str:
        """``entry => exit`` as LLVM prints it (unnamed blocks as ``%N``; ``<Function Return>``
        for the top-level region's exit). ``refs`` may give the ``%N`` names precomputed."""
        entry_name = _plain_name(self.entry, refs)
        exit_name = "<Function Return>" if self.exit is None else _plain_name(self.exit, refs)
        return entry_name + " => " + exit_name

    def __repr__(self) -> str:
        return "<Region %s depth %d>" % (self.name_str(), self.depth)


def _plain_name(bb: BasicBlock, refs: Mapping[BasicBlock, str] | None) -> str:
    if bb.name:
        return bb.name
    if refs is None:
        fn = bb.parent
        refs = {b: r for b, r in block_refs(fn).items() if not b.name} if fn is not None else {}
    return refs.get(bb, "<badref>")


class RegionInfo:
    """The region tree of ``function``: ``top_level_region`` spans the function;
    ``region_for(bb)`` is the innermost region holding a reachable block."""

    __slots__ = ("function", "dt", "pdt", "top_level_region", "_region_for", "_frontier")

    def __init__(
        self,
        function: Function,
        dt: DominatorTree | None = None,
        pdt: DominatorTree | None = None,
        frontier: DominanceFrontier | None = None,
    ) -> None:
        self.function = function
        self.dt = dt if dt is not None else DominatorTree(function)
        self.pdt = pdt if pdt is not None else DominatorTree(function, post=True)
        if frontier is None:
            frontier = DominanceFrontier(self.dt)
        # Sets, for the membership tests of the region test.
        self._frontier: dict[BasicBlock, set[BasicBlock]] = {bb: set(df) for bb, df in frontier.items()}
        self._region_for: dict[BasicBlock, Region] = {}
        self.top_level_region = Region(function.entry_block, None, self)
        self._calculate()

    # --- construction --------------------------------------------------------------------------
    def _calculate(self) -> None:
        shortcut: dict[BasicBlock, BasicBlock] = {}
        for bb in self.dt.postorder(self.function.entry_block):
            self._find_regions_with_entry(bb, shortcut)
        self._build_region_tree()

    def _find_regions_with_entry(self, entry: BasicBlock, shortcut: dict[BasicBlock, BasicBlock]) -> None:
        pdt = self.pdt
        dt = self.dt
        if not pdt.is_reachable(entry):
            return
        last_region: Region | None = None
        last_exit = entry
        node = entry
        while True:
            # The next candidate exit: the post-dominator above ``node``, jumping over the
            # largest region already known to start at ``node``.
            exit = pdt.idom(shortcut.get(node, node))
            if exit is None:
                break
            if self._is_region(entry, exit):
                region = self._create_region(entry, exit)
                if region is not None:
                    if last_region is not None:
                        region.add_sub_region(last_region)
                    last_region = region
                last_exit = exit
            if not dt.dominates_block(entry, exit):
                break
            node = exit
        if last_exit is not entry:
            # Remember the largest region from ``entry``; chain through ``last_exit``'s own.
            shortcut[entry] = shortcut.get(last_exit, last_exit)

    def _is_region(self, entry: BasicBlock, exit: BasicBlock) -> bool:
        dt = self.dt
        df = self._frontier
        entry_df = df.get(entry, _EMPTY)
        if not dt.dominates_block(entry, exit):
            # The exit heads a loop around the entry: only the exit may be in the frontier.
            for s in entry_df:
                if s is not exit and s is not entry:
                    return False
            return True
        exit_df = df.get(exit, _EMPTY)
        for s in entry_df:
            if s is exit or s is entry:
                continue
            if s not in exit_df:
                return False
            # No edge may leave the region other than through the exit.
            for p in s.predecessors:
                if dt.dominates_block(entry, p) and not dt.dominates_block(exit, p):
                    return False
        for s in exit_df:
            # No edge may enter the region other than through the entry.
            if s is not exit and s is not entry and dt.is_reachable(s) and dt.dominates_block(entry, s):
                return False
        return True

    def _create_region(self, entry: BasicBlock, exit: BasicBlock) -> Region | None:
        succs = _successors(entry)
        if len(succs) <= 1 and succs and succs[0] is exit:
            return None  # trivial: a block falling through to its exit
        region = Region(entry, exit, self)
        self._region_for.setdefault(entry, region)  # the first (smallest) one stays
        return region

    def _build_region_tree(self) -> None:
        dt = self.dt
        mapping = self._region_for
        stack: list[tuple[BasicBlock, Region]] = [(self.function.entry_block, self.top_level_region)]
        while stack:
            bb, region = stack.pop()
            while bb is region.exit:
                parent = region.parent
                assert parent is not None
                region = parent
            started = mapping.get(bb)
            if started is not None:
                outer = started
                while outer.parent is not None:
                    outer = outer.parent
                region.add_sub_region(outer)
                region = started
            else:
                mapping[bb] = region
            kids = dt.children(bb)
            for i in range(len(kids) - 1, -1, -1):
                stack.append((kids[i], region))

    # --- queries ---------------------------------------------------------------------------------
    def region_for(self, bb: BasicBlock) -> Region | None:
        """The innermost region holding ``bb``; None for a block unreachable from the entry."""
        return self._region_for.get(bb)

    def __getitem__(self, bb: BasicBlock) -> Region | None:
        return self._region_for.get(bb)

    def common_region(self, a: Region | BasicBlock, b: Region | BasicBlock) -> Region | None:
        """The innermost region holding both (regions or blocks); None if a block is unreachable."""
        ra = a if isinstance(a, Region) else self.region_for(a)
        rb = b if isinstance(b, Region) else self.region_for(b)
        if ra is None or rb is None:
            return None
        node: Region | None = ra
        while node is not None and not node.contains(rb):
            node = node.parent
        return node

    def regions(self) -> list[Region]:
        """Every region, the top-level one first, parents before children (print order)."""
        return self.top_level_region.regions_in_preorder()

    def __iter__(self) -> Iterator[Region]:
        return iter(self.regions())

    def __repr__(self) -> str:
        from llvmpy_mid.ir._printing import block_ref

        count = len(self.regions())
        return "<RegionInfo of %s: %d region%s>" % (block_ref(self.function), count, "" if count == 1 else "s")


def format_region_info(ri: RegionInfo, style: str = "none") -> str:
    """The region tree as LLVM's ``RegionInfo::print`` writes it (without the
    ``Region Tree for function:`` line the printer pass adds), in ``style`` ``none``, ``bb``
    (block lists) or ``rn`` (element lists)."""
    if style not in PRINT_STYLES:
        raise ValueError("unknown region print style '%s'" % style)
    refs = {b: r for b, r in block_refs(ri.function).items() if not b.name}
    out: list[str] = ["Region tree:\n"]
    # (region, level, closing): closing entries write the brace that ends a region.
    stack: list[tuple[Region, int, bool]] = [(ri.top_level_region, 0, False)]
    while stack:
        region, level, closing = stack.pop()
        pad = "  " * level
        if closing:
            out.append(pad + "} \n")
            continue
        out.append("%s[%d] %s\n" % (pad, level, region.name_str(refs)))
        if style != "none":
            out.append(pad + "{\n")
            out.append(pad + "  ")
            if style == "bb":
                for bb in region.blocks():
                    out.append(bb.name + ", ")
            else:
                for node in region.elements():
                    out.append((node.name_str(refs) if isinstance(node, Region) else node.name) + ", ")
            out.append("\n")
            stack.append((region, level, True))
        for child in reversed(region.children):
            stack.append((child, level + 1, False))
    out.append("End region tree\n")
    return "".join(out)


# --- pass-manager glue ----------------------------------------------------------------------------


class RegionInfoAnalysis(FunctionAnalysis[RegionInfo]):
    """``regions``: the function's :class:`RegionInfo`; kept while the CFG is kept."""

    name: ClassVar[str] = "regions"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> RegionInfo:
        dt = am.get_result(DominatorTreeAnalysis, unit)
        pdt = am.get_result(PostDominatorTreeAnalysis, unit)
        return RegionInfo(unit, dt, pdt, am.get_result(DominanceFrontierAnalysis, unit))


def _print_style() -> str:
    if OPTIONS.get(PRINT_STYLE_OPTION) is None:
        return "none"
    style = str(OPTIONS.value(PRINT_STYLE_OPTION))
    if style not in PRINT_STYLES:
        raise PipelineError("for the --%s option: Cannot find option named '%s'!" % (PRINT_STYLE_OPTION, style))
    return style


class RegionInfoPrinterPass(Pass[Function]):
    """``print<regions>``: writes ``Region Tree for function: NAME`` and the region tree to
    ``stream`` (stderr by default, as opt), in the ``-print-region-style`` style unless
    ``style`` is given."""

    name: ClassVar[str] = "print<regions>"

    def __init__(self, stream: TextIO | None = None, style: str | None = None) -> None:
        self.stream = stream
        self.style = style

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        style = self.style if self.style is not None else _print_style()
        out = self.stream if self.stream is not None else sys.stderr
        ri = am.get_result(RegionInfoAnalysis, unit)
        out.write("Region Tree for function: %s\n" % unit.name)
        out.write(format_region_info(ri, style))
        return PreservedAnalyses.all()


__all__ = [
    "PRINT_STYLES",
    "PRINT_STYLE_OPTION",
    "Region",
    "RegionInfo",
    "RegionInfoAnalysis",
    "RegionInfoPrinterPass",
    "RegionNode",
    "format_region_info",
]
