"""The call-graph update after a pass changed an SCC's functions (LLVM 19's
``updateCGAndAnalysisManagerForPass``, ``incorporateNewSCCRange`` and the
``CGSCCUpdateResult`` of lib/Analysis/CGSCCPassManager.cpp).

What: after a CGSCC pass (or a function pass run by the CGSCC function adaptor)
changed a function, its node's edges are found again and compared with the old ones:

* a call edge that went away or became a ref edge, inside the current SCC, splits
  the SCC (``switch_internal_edge_to_ref``): the current SCC becomes the one holding
  the changed function, the others (the old SCC object, kept by the edge's target,
  last) are queued on the adaptor's SCC worklist to be visited again;
* a new call edge (or a ref edge turned call) to a later SCC of the same RefSCC
  reorders or merges SCCs (``switch_internal_edge_to_call``): merged SCCs are
  invalidated, the current SCC becomes the target's; when SCCs moved below the
  current one they are queued before it and the current one is revisited;
* a function left without a parent (deleted) has its SCC marked invalid.

The pass managers follow :attr:`CGSCCUpdateResult.updated_c`: the remaining passes
run on the refined SCC, and the adaptor runs the whole pipeline again on it.

What it does not do: an edge to a function the graph does not know (a new function)
or to a RefSCC not visited yet is not modelled incrementally: ``rebuild`` is set and
the adaptor rebuilds the graph. Ref edges that went away inside a RefSCC stay until
the end of the walk (as LLVM 19, which no longer splits RefSCCs during the walk).
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.analysis.lazy_call_graph import SCC, LazyCallGraph, LCGNode, RefSCC
from llvmpy_mid.analysis.lazy_call_graph_update import switch_internal_edge_to_call, switch_internal_edge_to_ref
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses


class SCCWorklist:
    """LLVM's ``PriorityWorklist`` of SCCs: ``insert`` of a queued SCC moves it to the back;
    ``pop`` takes the back. Both O(1)."""

    __slots__ = ("_items", "_pos")

    def __init__(self, items: list[SCC] | None = None) -> None:
        self._items: list[SCC | None] = []
        self._pos: dict[SCC, int] = {}
        for scc in items or ():
            self.insert(scc)

    def insert(self, scc: SCC) -> None:
        items = self._items
        i = self._pos.get(scc)
        if i is not None:
            if i == len(items) - 1:
                return
            items[i] = None
        self._pos[scc] = len(items)
        items.append(scc)

    def pop(self) -> SCC:
        items = self._items
        while items:
            scc = items.pop()
            if scc is not None:
                del self._pos[scc]
                return scc
        raise IndexError("pop from an empty SCC worklist")

    def __bool__(self) -> bool:
        return bool(self._pos)

    def __contains__(self, scc: object) -> bool:
        return scc in self._pos


class CGSCCUpdateResult:
    """The adaptor's worklist and what passes report about the SCCs they changed."""

    __slots__ = ("graph", "cworklist", "invalidated", "updated_c", "rebuild", "dead", "visited_ref_sccs", "indirect_calls", "inlined_internal_edges")

    def __init__(self, graph: LazyCallGraph) -> None:
        self.graph = graph
        self.cworklist = SCCWorklist()
        self.invalidated: set[SCC] = set()
        self.updated_c: SCC | None = None
        self.rebuild = False
        self.dead: list[Function] = []
        self.visited_ref_sccs: set[RefSCC] = set()
        self.indirect_calls: dict[int, Any] = {}
        """Indirect calls seen in updated functions (LLVM's ``IndirectVHs``), by identity."""
        self.inlined_internal_edges: set[tuple[LCGNode, SCC]] = set()
        """(caller node, SCC): inlining an internal call of the caller split that SCC once
        (LLVM's ``InlinedInternalEdges``, cleared per RefSCC); see :func:`update_after_inlining`."""

    def enqueue(self, scc: SCC) -> None:
        """Put ``scc`` on the back of the worklist (moved there when already queued)."""
        self.cworklist.insert(scc)


_STACK: list[CGSCCUpdateResult] = []


def current_update_result() -> CGSCCUpdateResult | None:
    """The update result of the innermost running CGSCC walk, if any."""
    return _STACK[-1] if _STACK else None


def push_update_result(ur: CGSCCUpdateResult) -> None:
    _STACK.append(ur)


def pop_update_result() -> None:
    _STACK.pop()


def fingerprint(fn: Function) -> tuple[int, ...]:
    """What the call graph depends on in ``fn``: its instructions' function operands."""
    refs: list[int] = []
    for bb in fn.blocks:
        for inst in bb.instructions:
            refs.append(len(inst.operands))
            for op in inst.operands:
                if isinstance(op, Function):
                    refs.append(id(op))
    return tuple(refs)


def snapshot(scc: SCC) -> list[tuple[Function, tuple[int, ...]]]:
    return [(fn, fingerprint(fn)) for fn in scc.functions]


def _update_proxy_pa() -> PreservedAnalyses:
    from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy

    pa = PreservedAnalyses.none()
    pa.preserve_set(AllAnalysesOnFunction)
    pa.preserve(FunctionAnalysisManagerCGSCCProxy)
    return pa


def _incorporate(new_sccs: list[SCC], node: LCGNode, c: SCC, am: AnalysisManager[SCC], ur: CGSCCUpdateResult) -> SCC:
    from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy

    if not new_sccs:
        return c
    ur.enqueue(c)
    old = c
    c = ur.graph.scc_of(node.function) or new_sccs[0]
    had_fam = am.get_cached_result(FunctionAnalysisManagerCGSCCProxy, old) is not None
    pa = _update_proxy_pa()
    am.invalidate(old, pa)
    if had_fam:
        am.get_result(FunctionAnalysisManagerCGSCCProxy, c)
    for scc in reversed(new_sccs):
        if scc is c:
            continue
        ur.enqueue(scc)
        if had_fam:
            am.get_result(FunctionAnalysisManagerCGSCCProxy, scc)
        am.invalidate(scc, pa)
    return c


def update_for_pass(c: SCC, fn: Function, am: AnalysisManager[SCC], ur: CGSCCUpdateResult) -> SCC:
    """Bring ``fn``'s node up to date after a pass changed it; returns the current SCC."""
    from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy

    graph = ur.graph
    node = graph.node(fn)
    if node is None or ur.rebuild:
        return c
    for bb in fn.blocks:
        for inst in bb.instructions:
            if inst.is_call_base and getattr(inst, "called_function") is None:
                ur.indirect_calls.setdefault(id(inst), inst)
    old_edges = list(node.edges)
    old_calls = list(node.call_edges)
    node.edges = []
    try:
        graph._populate(node)
    except KeyError:  # an edge to a function created after the graph was built
        ur.rebuild = True
        return c
    new_edges = list(node.edges)
    new_call_list = list(node.call_edges)
    new_calls = set(new_call_list)
    new_targets = {t for t, _ in new_edges}
    old_call_set = set(old_calls)
    old_targets = {t for t, _ in old_edges}
    rc = c.ref_scc
    initial = c
    for t, _ in new_edges:
        if t in old_targets:
            continue
        tc = graph.scc_of(t.function)
        if tc is None or (tc.ref_scc is not rc and not _visited(tc, ur)):
            ur.rebuild = True
    # Dead edges first (old order), then demoted call edges.
    calls_now = list(old_calls)
    for t, was_call in old_edges:
        if t in new_targets or not was_call:
            continue
        calls_now.remove(t)
        node._call_succ = calls_now
        if graph.scc_of(t.function) is c:
            c = _incorporate(switch_internal_edge_to_ref(graph, c, t), node, c, am, ur)
    for t, is_call in new_edges:
        if is_call or t not in old_call_set:
            continue
        calls_now.remove(t)
        node._call_succ = calls_now
        if graph.scc_of(t.function) is c:
            c = _incorporate(switch_internal_edge_to_ref(graph, c, t), node, c, am, ur)
    # Promoted ref edges, then new call edges.
    promoted = [t for t in new_call_list if t in old_targets and t not in old_call_set]
    promoted += [t for t in new_call_list if t not in old_targets]
    for t in promoted:
        tc = graph.scc_of(t.function)
        if tc is None or tc.ref_scc is not rc or tc is c:
            calls_now.append(t)
            node._call_succ = calls_now
            continue
        sccs = rc.sccs
        initial_index = rc.position(c)
        had_fam = False
        merged = switch_internal_edge_to_call(graph, c, tc)
        calls_now.append(t)
        node._call_succ = calls_now
        pa = _update_proxy_pa()
        for m in merged:
            had_fam = had_fam or am.get_cached_result(FunctionAnalysisManagerCGSCCProxy, m) is not None
            ur.invalidated.add(m)
            am.invalidate(m, pa)
        if merged:
            c = tc
            if had_fam:
                am.get_result(FunctionAnalysisManagerCGSCCProxy, c)
            am.invalidate(c, pa)
        new_index = rc.position(c)
        if initial_index < new_index:
            ur.enqueue(c)
            for moved in reversed(sccs[initial_index:new_index]):
                ur.enqueue(moved)
    node._call_succ = node.call_edges = [t for t in new_call_list]
    for t in old_targets - new_targets:
        if t.function.parent is None:
            mark_dead(t.function, am, ur)
    if c is not initial:
        ur.updated_c = c
    return c


def update_after_inlining(c: SCC, caller: Function, inlined_callees: list[Function], am: AnalysisManager[SCC]) -> SCC:
    """The inliner's update after inlining into ``caller`` (LLVM's Inliner.cpp): the call
    graph is brought up to date and, when that split ``c`` (or ``c`` is queued again) and one
    of the inlined callees was in ``c``, the (caller, ``c``) pair is remembered so that
    :func:`is_split_internal_edge` stops inlining that edge again. Returns the current SCC."""
    ur = current_update_result()
    if ur is None:
        return c
    old = c
    c = update_for_pass(c, caller, am, ur)
    node = ur.graph.node(caller)
    if node is not None and (c is not old or old in ur.cworklist):
        if any(ur.graph.scc_of(f) is old for f in inlined_callees):
            ur.inlined_internal_edges.add((node, old))
    return c


def is_split_internal_edge(caller: Function, callee: Function, c: SCC) -> bool:
    """Whether a call ``caller -> callee`` inside ``c`` must not be inlined: the caller was
    split out of ``c`` by inlining before (LLVM's "recursive SCC split" remark)."""
    ur = current_update_result()
    if ur is None or not ur.inlined_internal_edges:
        return False
    graph = ur.graph
    node = graph.node(caller)
    return node is not None and graph.scc_of(callee) is c and (node, c) in ur.inlined_internal_edges


def _visited(scc: SCC, ur: CGSCCUpdateResult) -> bool:
    return scc.ref_scc in ur.visited_ref_sccs


def mark_dead(fn: Function, am: AnalysisManager[SCC], ur: CGSCCUpdateResult) -> None:
    """A deleted function: its call edges become refs, its SCC is not visited again."""
    if fn in ur.dead:
        return
    graph = ur.graph
    node = graph.node(fn)
    if node is None:
        return
    ur.dead.append(fn)
    node._call_succ = []
    node.call_edges = []
    node.edges = [(t, False) for t, _ in node.edges]
    from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy

    pi = am.instrumentation
    pi.run_analyses_cleared(fn.name)  # the function's results (every defined function has some)
    scc = graph.scc_of(fn)
    if scc is not None:
        if am.get_cached_result(FunctionAnalysisManagerCGSCCProxy, scc) is not None:
            pi.run_analyses_cleared(str(scc))
        am.clear(scc)
        ur.invalidated.add(scc)


def sync_after_pass(
    c: SCC, before: list[tuple[Function, tuple[int, ...]]], am: AnalysisManager[SCC], ur: CGSCCUpdateResult
) -> SCC:
    """Update the graph for the functions of ``before`` a pass changed or deleted."""
    dead: list[Function] = []
    for fn, fp in before:
        if fn.parent is None:
            dead.append(fn)
        elif fingerprint(fn) != fp:
            c = update_for_pass(c, fn, am, ur)
    for fn in dead:
        mark_dead(fn, am, ur)
    return c


__all__ = [
    "CGSCCUpdateResult",
    "SCCWorklist",
    "current_update_result",
    "fingerprint",
    "is_split_internal_edge",
    "mark_dead",
    "snapshot",
    "sync_after_pass",
    "update_after_inlining",
    "update_for_pass",
]
