"""Analyses (LLVM's ``lib/Analysis``), reachable from Python without knowing the modules.

Each function below computes one analysis of one function or module, as the pass
manager would (``am.get_result(X, unit)`` inside a pass caches the same objects). The
functions are named after the analyses' pipeline names (``print<loops>`` prints what
``loops(fn)`` returns); the modules that implement them keep their own names
(``loop_info``, ``call_graph``, ...)::

    import llvmpy_mid
    from llvmpy_mid import analysis

    m = llvmpy_mid.parse_file(path)
    fn = m.get_function("sum_pairs")
    dt = analysis.domtree(fn)       # DominatorTree: dt.idom(bb), dt.dominates(a, b)
    li = analysis.loops(fn)         # LoopInfo: for loop in li: loop.header, loop.depth
    cg = analysis.callgraph(m)      # CallGraph: str(cg) is print-callgraph's text

The implementing modules are imported on first use (``import llvmpy_mid.analysis`` stays
cheap): ``llvmpy_mid.ir.dominators``, ``analysis/dominance_frontier.py``,
``analysis/loop_info.py``, ``analysis/call_graph.py``, ``analysis/region_info.py``,
``analysis/dataflow``, ``analysis/lint.py``, ``analysis/instcount.py``, ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.analysis.call_graph import CallGraph
    from llvmpy_mid.analysis.dominance_frontier import DominanceFrontier
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.analysis.region_info import RegionInfo
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.module import Module


def _function_with_body(fn: object, what: str) -> Function:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.module import Module

    if not isinstance(fn, Function):
        hint = " (m.get_function(name) gives one)" if isinstance(fn, Module) else ""
        raise TypeError("%s needs a Function, not %s%s" % (what, type(fn).__name__, hint))
    if fn.is_declaration:
        raise ValueError("%s: @%s is a declaration (it has no body to analyse)" % (what, fn.name))
    return fn


def domtree(fn: Function) -> DominatorTree:
    """The dominator tree of ``fn`` (``domtree``)."""
    from llvmpy_mid.ir.dominators import DominatorTree

    return DominatorTree(_function_with_body(fn, "domtree"))


def postdomtree(fn: Function) -> DominatorTree:
    """The post-dominator tree of ``fn`` (``postdomtree``; LLVM's roots for infinite loops)."""
    from llvmpy_mid.ir.dominators import DominatorTree

    return DominatorTree(_function_with_body(fn, "postdomtree"), post=True)


def domfrontier(fn: Function) -> DominanceFrontier:
    """The dominance frontier of every block of ``fn`` (``domfrontier``)."""
    from llvmpy_mid.analysis.dominance_frontier import DominanceFrontier

    return DominanceFrontier(domtree(_function_with_body(fn, "domfrontier")))


def loops(fn: Function) -> LoopInfo:
    """The natural loops of ``fn`` (``loops``)."""
    from llvmpy_mid.analysis.loop_info import LoopInfo

    fn = _function_with_body(fn, "loops")
    return LoopInfo(fn, domtree(fn))


def regions(fn: Function) -> RegionInfo:
    """The single-entry single-exit regions of ``fn`` (``regions``)."""
    from llvmpy_mid.analysis.region_info import RegionInfo

    return RegionInfo(_function_with_body(fn, "regions"))


def callgraph(module: Module) -> CallGraph:
    """The call graph of ``module`` (``callgraph``; ``str()`` is ``print-callgraph``'s text)."""
    from llvmpy_mid.analysis.call_graph import CallGraph
    from llvmpy_mid.ir.module import Module

    if not isinstance(module, Module):
        hint = " (fn.parent is a function's module)" if hasattr(module, "blocks") else ""
        raise TypeError("callgraph needs a Module, not %s%s" % (type(module).__name__, hint))
    return CallGraph(module)


__all__ = ["callgraph", "domfrontier", "domtree", "loops", "postdomtree", "regions"]
