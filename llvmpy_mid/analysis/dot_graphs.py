"""The DOT passes: ``dot-cfg``, ``dot-cfg-only``, ``dot-dom``, ``dot-dom-only``,
``dot-post-dom``, ``dot-post-dom-only``, ``dot-callgraph``, the ``view-*`` forms, and the
notebook helpers :func:`function_to_dot`, :func:`module_callgraph_dot` and
:class:`DotGraph` (an object with ``_repr_svg_``).

What: each ``dot-*`` pass writes the file opt-19 writes, under the same name in the
current directory (``.<fn>.dot``, ``dom.<fn>.dot``, ``domonly.<fn>.dot``,
``postdom.<fn>.dot``, ``postdomonly.<fn>.dot``, ``<module id>.callgraph.dot``) and
reports ``Writing '<file>'...`` on stderr as opt does. ``-cfg-func-name=S`` restricts
``dot-cfg`` / ``dot-cfg-only`` / ``view-cfg*`` to functions whose name contains ``S``;
``-cfg-dot-filename-prefix=P`` replaces the leading empty prefix of CFG files;
``-callgraph-dot-filename-prefix=P`` replaces the module id of the call graph file;
``-cfg-heat-colors=false`` drops the heat colours; ``-cfg-weights`` labels branch edges
with their probability (``-cfg-raw-weights``: ``W:`` and the source block's frequency times
it); ``-cfg-hide-unreachable-paths`` / ``-cfg-hide-deoptimize-paths`` hide the blocks whose
every path ends in ``unreachable`` / a deoptimize return. ``view-*`` write the same graph to a
fresh file in the temporary directory and say where it is; no viewer is started.

How: the text comes from :mod:`llvmpy_mid.analysis.dot_writer`; dominator trees from the
``domtree`` / ``postdomtree`` analyses, the call graph from ``callgraph``, and the
probabilities and heat colours from :mod:`llvmpy_mid.analysis.block_frequency`.

What it does not do: open a viewer; ``-cfg-hide-cold-paths`` (a floating-point option);
node ids are stable stand-ins for opt's addresses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.block_frequency import cfg_heat_inputs, format_probability
from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order, terminating_deoptimize_call
from llvmpy_mid.analysis.dot_writer import HEAT_COLORS, callgraph_dot, cfg_dot, dom_tree_dot, heat_color
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.dominators import block_successors as successors
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = [
    "CallGraphDOTPrinterPass",
    "CFGOnlyPrinterPass",
    "CFGOnlyViewerPass",
    "CFGPrinterPass",
    "CFGViewerPass",
    "DomOnlyPrinter",
    "DomOnlyViewer",
    "DomPrinter",
    "DomViewer",
    "DotGraph",
    "PostDomOnlyPrinter",
    "PostDomOnlyViewer",
    "PostDomPrinter",
    "PostDomViewer",
    "function_to_dot",
    "module_callgraph_dot",
]


def _option(name: str, default: bool | str) -> bool | str:
    try:
        value = OPTIONS.value(name)
    except KeyError:
        return default
    return value if isinstance(value, (bool, str)) else default


# --- text builders -----------------------------------------------------------------------------


def function_to_dot(
    fn: Function,
    *,
    cfg_only: bool = False,
    heat_colors: bool = True,
    edge_weights: bool = False,
    raw_weights: bool = False,
    hide_unreachable: bool = False,
    hide_deoptimize: bool = False,
) -> str:
    """The ``dot-cfg`` (``cfg_only``: ``dot-cfg-only``) text of ``fn``. ``edge_weights``
    labels the edges of a branch with their probability (``raw_weights``: with the source
    block's frequency times it, ``W:<n>``); ``hide_unreachable`` / ``hide_deoptimize`` drop
    the blocks from which every path ends in ``unreachable`` / a ``llvm.experimental.deoptimize``
    return (LLVM's ``-cfg-weights``, ``-cfg-raw-weights``, ``-cfg-hide-*-paths``)."""
    probs, freqs = cfg_heat_inputs(fn)
    heat = None
    if heat_colors:
        max_freq = max(freqs.values(), default=0)

        def heat(bb: BasicBlock) -> tuple[str, str]:
            f = freqs.get(bb, 0)
            border = HEAT_COLORS[0] if f <= max_freq // 2 else HEAT_COLORS[-1]
            return border, heat_color(f, max_freq)

    def probability(src: BasicBlock, dst: BasicBlock) -> str:
        term = src.terminator
        succs = [] if term is None else term.successors
        nums = probs.get(src, [])
        total = sum(p for s, p in zip(succs, nums) if s is dst)
        return format_probability(min(total, 1 << 31))

    def extra(src: BasicBlock, k: int) -> str:
        succs = successors(src)
        if len(succs) == 1:
            return "penwidth=2"
        dst = succs[k]
        share = min(sum(p for s, p in zip(succs, probs.get(src, [])) if s is dst), 1 << 31) / (1 << 31)
        width = "%.2f" % (1 + share)
        if not raw_weights:
            return 'label="%s" penwidth=%s' % (format_probability(int(share * (1 << 31))), width)
        return 'label="W:%d" penwidth=%s' % (int(float(freqs.get(src, 0)) * share), width)

    hidden = None
    if hide_unreachable or hide_deoptimize:
        hidden = _PathHider(fn, hide_unreachable, hide_deoptimize).hidden
    return cfg_dot(
        fn,
        only=cfg_only,
        heat=heat,
        edge_probability=probability,
        edge_extra=extra if edge_weights else None,
        hidden=hidden,
    )


class _PathHider:
    """Which blocks ``-cfg-hide-unreachable-paths`` / ``-cfg-hide-deoptimize-paths`` hide: those
    all of whose successors are hidden, from exits that end in ``unreachable`` / a deoptimize
    return. As LLVM, the marks are set in post-order from the entry, a successor not yet marked
    (the target of a back edge) counting as shown; blocks the entry does not reach are shown.
    LLVM computes the marks again when asked about such a block; that changes nothing (the
    target of a back edge always ends up shown, as its path down to the back edge is), so they
    are computed once here."""

    __slots__ = ("marks",)

    def __init__(self, fn: Function, unreachable: bool, deoptimize: bool) -> None:
        marks: dict[BasicBlock, bool] = {}
        for bb in reversed(reverse_post_order(fn.entry_block)):
            succs = successors(bb)
            if succs:
                marks[bb] = all(marks.get(s, False) for s in succs)
                continue
            term = bb.terminator
            marks[bb] = (unreachable and term is not None and term.opcode == "unreachable") or (
                deoptimize and terminating_deoptimize_call(bb) is not None
            )
        self.marks = marks

    def hidden(self, bb: BasicBlock) -> bool:
        return self.marks.get(bb, False)


def dom_tree_text(fn: Function, tree: DominatorTree, *, post: bool, only: bool, title: str | None = None) -> str:
    """The ``dot-dom`` / ``dot-post-dom`` text (``only``: without block bodies)."""
    if title is None:
        title = "Post dominator tree" if post else "Dominator tree"
    if post:
        return dom_tree_dot(fn, tree.root_children(), tree.children, title=title, only=only, virtual_root=True)
    return dom_tree_dot(fn, tree.roots, tree.children, title=title, only=only)


def module_callgraph_dot(m: Module, title: str | None = None) -> str:
    """The ``dot-callgraph`` text of ``m`` (``title`` defaults to the module's name)."""
    from llvmpy_mid.analysis.call_graph import CallGraph

    return _callgraph_text(CallGraph(m), m, title)


def _callgraph_text(graph: object, m: Module, title: str | None) -> str:
    from llvmpy_mid.analysis.call_graph import CallGraph

    assert isinstance(graph, CallGraph)
    shown = [fn for fn in m.functions if fn in graph]
    index = {fn: k for k, fn in enumerate(shown)}
    nodes: list[tuple[str, list[int]]] = []
    for fn in shown:
        seen: set[int] = set()
        callees: list[int] = []
        for callee in graph.node(fn).callees():
            target = callee.function
            if target is None or target not in index:
                continue
            k = index[target]
            if k not in seen:
                seen.add(k)
                callees.append(k)
        nodes.append((fn.name, callees))
    return callgraph_dot(m.name if title is None else title, nodes)


# --- notebooks ---------------------------------------------------------------------------------


class DotGraph:
    """A DOT text that renders itself in notebooks (``_repr_svg_``) when Graphviz's ``dot``
    program is installed; without it ``_repr_svg_`` returns None and the text is still there."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        return "DotGraph(%d lines)" % self.source.count("\n")

    def to_svg(self) -> str | None:
        exe = shutil.which("dot")
        if exe is None:
            return None
        try:
            done = subprocess.run([exe, "-Tsvg"], input=self.source.encode(), capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode != 0:
            return None
        return done.stdout.decode("utf-8", "replace")

    def _repr_svg_(self) -> str | None:
        return self.to_svg()


# --- writing files -----------------------------------------------------------------------------


def _write(path: str, text: str, err: TextIO) -> bool:
    err.write("Writing '%s'..." % path)
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError:
        err.write("  error opening file for writing!\n")
        return False
    err.write("\n")
    return True


def _view(stem: str, text: str, err: TextIO) -> None:
    fd, path = tempfile.mkstemp(prefix=stem + "-", suffix=".dot")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    err.write("Writing '%s'...  done. \n" % path)
    err.write("llvmpy_mid: no graph viewer is started; the graph is in '%s'\n" % path)


def _wanted(fn: Function) -> bool:
    name = _option("cfg-func-name", "")
    return not name or str(name) in fn.name


class _FunctionDot(Pass[Function]):
    only: ClassVar[bool] = False
    view: ClassVar[bool] = False

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def _err(self) -> TextIO:
        return self.stream if self.stream is not None else sys.stderr


class _CFGBase(_FunctionDot):
    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration or not _wanted(unit):
            return PreservedAnalyses.all()
        text = function_to_dot(
            unit,
            cfg_only=self.only,
            heat_colors=bool(_option("cfg-heat-colors", True)),
            edge_weights=bool(_option("cfg-weights", False)),
            raw_weights=bool(_option("cfg-raw-weights", False)),
            hide_unreachable=bool(_option("cfg-hide-unreachable-paths", False)),
            hide_deoptimize=bool(_option("cfg-hide-deoptimize-paths", False)),
        )
        if self.view:
            _view("cfg." + unit.name, text, self._err())
        else:
            prefix = str(_option("cfg-dot-filename-prefix", ""))
            _write("%s.%s.dot" % (prefix, unit.name), text, self._err())
        return PreservedAnalyses.all()


class CFGPrinterPass(_CFGBase):
    """``dot-cfg``."""

    name: ClassVar[str] = "dot-cfg"


class CFGOnlyPrinterPass(_CFGBase):
    """``dot-cfg-only``."""

    name: ClassVar[str] = "dot-cfg-only"
    only = True


class CFGViewerPass(_CFGBase):
    """``view-cfg``."""

    name: ClassVar[str] = "view-cfg"
    view = True


class CFGOnlyViewerPass(_CFGBase):
    """``view-cfg-only``."""

    name: ClassVar[str] = "view-cfg-only"
    only = True
    view = True


class _DomBase(_FunctionDot):
    post: ClassVar[bool] = False
    stem: ClassVar[str] = "dom"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration:
            return PreservedAnalyses.all()
        from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis

        if self.post:
            tree = am.get_result(PostDominatorTreeAnalysis, unit)
        else:
            tree = am.get_result(DominatorTreeAnalysis, unit)
        # opt's viewers title the graph with an empty name (" for 'f' function").
        title = "" if self.view else None
        text = dom_tree_text(unit, tree, post=self.post, only=self.only, title=title)
        if self.view:
            _view(self.stem, text, self._err())
        else:
            _write("%s.%s.dot" % (self.stem, unit.name), text, self._err())
        return PreservedAnalyses.all()


class DomPrinter(_DomBase):
    """``dot-dom``."""

    name: ClassVar[str] = "dot-dom"


class DomOnlyPrinter(_DomBase):
    """``dot-dom-only``."""

    name: ClassVar[str] = "dot-dom-only"
    only = True
    stem = "domonly"


class PostDomPrinter(_DomBase):
    """``dot-post-dom``."""

    name: ClassVar[str] = "dot-post-dom"
    post = True
    stem = "postdom"


class PostDomOnlyPrinter(_DomBase):
    """``dot-post-dom-only``."""

    name: ClassVar[str] = "dot-post-dom-only"
    post = True
    only = True
    stem = "postdomonly"


class DomViewer(DomPrinter):
    """``view-dom``."""

    name: ClassVar[str] = "view-dom"
    view = True


class DomOnlyViewer(DomOnlyPrinter):
    """``view-dom-only``."""

    name: ClassVar[str] = "view-dom-only"
    view = True


class PostDomViewer(PostDomPrinter):
    """``view-post-dom``."""

    name: ClassVar[str] = "view-post-dom"
    view = True


class PostDomOnlyViewer(PostDomOnlyPrinter):
    """``view-post-dom-only``."""

    name: ClassVar[str] = "view-post-dom-only"
    view = True


class CallGraphDOTPrinterPass(Pass[Module]):
    """``dot-callgraph``: ``<module id>.callgraph.dot`` (or ``<prefix>.callgraph.dot``)."""

    name: ClassVar[str] = "dot-callgraph"
    view: ClassVar[bool] = False

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.call_graph import CallGraphAnalysis

        err = self.stream if self.stream is not None else sys.stderr
        graph = am.get_result(CallGraphAnalysis, unit)
        text = _callgraph_text(graph, unit, None)
        if self.view:
            _view("callgraph", text, err)
        else:
            prefix = str(_option("callgraph-dot-filename-prefix", "")) or unit.name
            _write(prefix + ".callgraph.dot", text, err)
        return PreservedAnalyses.all()


class CallGraphViewerPass(CallGraphDOTPrinterPass):
    """``view-callgraph``."""

    name: ClassVar[str] = "view-callgraph"
    view = True
