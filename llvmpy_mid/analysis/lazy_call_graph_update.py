"""In-place edge switches inside a RefSCC of the lazy call graph (LLVM 19's
``LazyCallGraph::RefSCC::switchInternalEdgeToRef`` and ``switchInternalEdgeToCall``,
lib/Analysis/LazyCallGraph.cpp).

What: the CGSCC update after a pass changed a function's calls.

* :func:`switch_internal_edge_to_ref`: a call edge inside one SCC became a ref edge
  (or went away). The SCC's nodes are walked again over call edges (LLVM's Tarjan
  variant, the target node forced into the old SCC object first: every node that
  reaches it joins it); the sub-SCCs that no longer reach the target become new SCC
  objects placed before the old one in the RefSCC's post-order. Returns them.
* :func:`switch_internal_edge_to_call`: a ref edge between two SCCs of one RefSCC
  became a call edge. When the target comes later in the post-order, the SCCs
  between them are reordered (those connected to the source after the others, then
  those the target reaches first); the ones on a cycle through the new edge merge
  into the target's SCC. Returns the merged-away SCCs (empty: no cycle formed).

How: the callers keep each node's ``_call_succ`` as the call edges of the moment
(before the switched edge changes kind); cost: the nodes of the SCCs involved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.analysis.lazy_call_graph import SCC, LazyCallGraph, LCGNode, RefSCC


def _set_scc(graph: LazyCallGraph, node: LCGNode, scc: SCC) -> None:
    graph._scc_of[node.function] = scc
    graph._ref_scc_of[node.function] = scc.ref_scc


def _sync_functions(scc: SCC) -> None:
    scc.functions[:] = [n.function for n in scc.nodes]


def switch_internal_edge_to_ref(graph: LazyCallGraph, old: SCC, target: LCGNode) -> list[SCC]:
    """Re-form ``old`` (holding ``target``) after a call edge to ``target`` from inside it
    stopped being a call; the new SCCs (post-order) come before ``old`` in its RefSCC."""
    from llvmpy_mid.analysis.lazy_call_graph import SCC

    rc: RefSCC = old.ref_scc
    worklist = list(old.nodes)
    members = set(worklist)
    for n in worklist:
        n.dfs = n.low = 0
    target.dfs = target.low = -1
    old.nodes = [target]
    in_old: set[LCGNode] = {target}
    new_sccs: list[SCC] = []
    for root in worklist:
        if root.dfs != 0:
            continue
        root.dfs = root.low = 1
        next_number = 2
        pending: list[LCGNode] = []
        stack: list[tuple[LCGNode, int]] = [(root, 0)]
        while stack:
            n, i = stack.pop()
            succ = n._call_succ
            restart = False
            while i < len(succ):
                child = succ[i]
                if child not in members:
                    i += 1
                    continue
                if child.dfs == 0:
                    stack.append((n, i))
                    child.dfs = child.low = next_number
                    next_number += 1
                    n, i, succ = child, 0, child._call_succ
                    continue
                if child.dfs == -1:
                    if child in in_old:
                        joined = [n] + pending + [m for m, _ in reversed(stack)]
                        pending = []
                        stack = []
                        for m in joined:
                            m.dfs = m.low = -1
                            in_old.add(m)
                        old.nodes.extend(joined)
                        restart = True
                        break
                    i += 1
                    continue
                if child.low < n.low:
                    n.low = child.low
                i += 1
            if restart:
                break
            pending.append(n)
            if n.low != n.dfs:
                continue
            root_number = n.dfs
            k = len(pending)
            while k > 0 and pending[k - 1].dfs >= root_number:
                k -= 1
            comp = pending[k:]
            comp.reverse()
            del pending[k:]
            scc = SCC(comp, rc)
            new_sccs.append(scc)
            for m in comp:
                m.dfs = m.low = -1
    for m in old.nodes:
        _set_scc(graph, m, old)
    _sync_functions(old)
    for scc in new_sccs:
        for m in scc.nodes:
            _set_scc(graph, m, scc)
    if new_sccs:
        idx = rc.position(old)
        rc.sccs[idx:idx] = new_sccs
        rc.renumber()
    return new_sccs


def _reaches(scc: SCC, connected: set[SCC], graph: LazyCallGraph) -> bool:
    for n in scc.nodes:
        for t in n._call_succ:
            if graph._scc_of.get(t.function) in connected:
                return True
    return False


def switch_internal_edge_to_call(graph: LazyCallGraph, source: SCC, target: SCC) -> list[SCC]:
    """Reorder/merge the RefSCC's SCCs for a new call edge ``source -> target`` (the
    edge not yet among the source node's ``_call_succ``). Returns the SCCs merged into
    ``target`` (removed from the RefSCC); empty when no cycle formed."""
    rc = source.ref_scc
    sccs = rc.sccs
    if source is target:
        return []
    s_idx = rc.position(source)
    t_idx = rc.position(target)
    if t_idx < s_idx:
        return []
    rc.renumber()
    connected: set[SCC] = {source}
    for c in sccs[s_idx + 1 : t_idx + 1]:
        if _reaches(c, connected, graph):
            connected.add(c)
    window = sccs[s_idx : t_idx + 1]
    part = [c for c in window if c not in connected] + [c for c in window if c in connected]
    sccs[s_idx : t_idx + 1] = part
    if target not in connected:
        return []
    s_idx = rc.position(source)
    if s_idx + 1 < t_idx:
        reach: set[SCC] = {target}
        work = [target]
        while work:
            c = work.pop()
            for n in c.nodes:
                for t in n._call_succ:
                    ec = graph._scc_of.get(t.function)
                    if ec is None or ec.ref_scc is not rc or rc.position(ec) <= s_idx:
                        continue
                    if ec not in reach:
                        reach.add(ec)
                        work.append(ec)
        window = sccs[s_idx + 1 : t_idx + 1]
        part = [c for c in window if c in reach] + [c for c in window if c not in reach]
        sccs[s_idx + 1 : t_idx + 1] = part
        rc.renumber()
        t_idx = s_idx + len([c for c in window if c in reach])
    merged = sccs[s_idx:t_idx]
    for c in merged:
        target.nodes.extend(c.nodes)
        for n in c.nodes:
            _set_scc(graph, n, target)
        c.nodes = []
        c.functions = []
    del sccs[s_idx:t_idx]
    rc.renumber()
    _sync_functions(target)
    return merged


__all__ = ["switch_internal_edge_to_call", "switch_internal_edge_to_ref"]
