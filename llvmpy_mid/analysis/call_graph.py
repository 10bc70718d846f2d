"""LLVM 19's (legacy) ``CallGraph``: one node per function plus the external
calling node and the calls-external node; bottom-up SCCs as ``scc_iterator``
yields them; the ``callgraph`` analysis and the ``print-callgraph`` /
``print-callgraph-sccs`` printers.

What: :class:`CallGraph` is built as opt-19 builds it (checked by experiment):

* every function of the module gets a node, except the debug-info intrinsics
  (``llvm.dbg.declare/value/assign/label``), which are left out entirely;
* the **external calling node** (function ``None``) gets a call record (with no
  call site) to each function that has non-local linkage or whose address is
  taken -- a use other than as the callee of a call of the function's own type,
  ignoring ``blockaddress`` uses, callback uses (``!callback`` metadata) and
  uses by assume-like intrinsics (``llvm.assume``, ``llvm.lifetime.*``, ...);
  ``llvm.used`` references do count;
* a declaration without ``nocallback`` gets a record to the **calls-external
  node** (it may call anything);
* each ``call``/``invoke``/``callbr`` in a body gives one record, in order: to
  the callee's node for a direct call (callee a function of the call's own
  type), to the calls-external node otherwise (indirect calls, inline asm,
  mismatched signatures); calls to debug-info intrinsics are skipped. Each
  callback function named by the callee's ``!callback`` metadata adds a record
  without call site after it.

Every record adds one to its target's ``num_references`` (LLVM's ``#uses``).

How: :func:`scc_postorder` is Tarjan's algorithm with explicit stacks, in
``scc_iterator``'s variant: it walks from one entry node (the external calling
node), visits children in record order (repeats included), and lists an SCC
from the top of the pending stack down to its root; the SCCs come bottom-up
(callees before callers). Nodes unreachable from the entry are in no SCC.

What it does not do: no incremental updates (``replaceExternalCallEdge``,
``removeFunctionFromModule``...) -- rebuild after a change. Node and call-site
addresses in the printed text are stable fake ones of the shape LLVM prints
(``0x55d0...``), since Python objects have no meaningful address. Nodes with
equal names (unnamed functions) print in module order.
"""

from __future__ import annotations

import sys
from typing import Callable, ClassVar, Sequence, TextIO, TypeVar

from llvmpy_mid.analysis.address_taken import ASSUME_LIKE_INTRINSICS, has_address_taken as _has_address_taken
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, ModuleAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

#: Intrinsics LLVM's call graph leaves out (``isDbgInfoIntrinsic``).
DBG_INFO_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.assign", "llvm.dbg.label"))

_NODE_ADDRESS_BASE = 0x55D0C0DE1000
_CALL_ADDRESS_BASE = 0x55D0C0A00000


class CallGraphNode:
    """A function's node (``function`` None for the external calling and calls-external nodes).

    ``records`` holds ``(call site or None, target)`` in LLVM's order.
    """

    __slots__ = ("function", "records", "num_references", "address")

    def __init__(self, function: Function | None, address: int) -> None:
        self.function = function
        self.records: list[tuple[CallBase | None, CallGraphNode]] = []
        self.num_references = 0
        self.address = address

    def callees(self) -> list[CallGraphNode]:
        """The target of each call record, in order (repeats kept)."""
        return [t for _, t in self.records]

    def add_called_function(self, call: CallBase | None, target: CallGraphNode) -> None:
        self.records.append((call, target))
        target.num_references += 1

    @property
    def name(self) -> str:
        fn = self.function
        return fn.name if fn is not None else "external node"

    def __len__(self) -> int:
        return len(self.records)

    def __repr__(self) -> str:
        return "<CallGraphNode %s>" % self.name


def _callback_encodings(callee: Function) -> list[MDNode]:
    """The callee's ``!callback`` encodings (each ``!{i64 callee_arg, ..., i1 vararg}``)."""
    md = callee.get_metadata("callback")
    if md is None:
        return []
    return [op for op in md.operands if isinstance(op, MDNode)]


def _encoding_callee_index(enc: MDNode) -> int | None:
    ops = enc.operands
    if not ops:
        return None
    first = ops[0]
    value = getattr(first, "value", None)
    if isinstance(value, ConstantInt):
        return int(value.value)
    return None


def callback_functions(call: CallBase) -> list[Function]:
    """The functions a call passes as callbacks (by the callee's ``!callback`` metadata)."""
    callee = call.called_function
    if callee is None:
        return []
    found: list[Function] = []
    nargs = call.num_args
    for enc in _callback_encodings(callee):
        idx = _encoding_callee_index(enc)
        if idx is None or idx < 0 or idx >= nargs:
            continue
        target = strip_pointer_casts(call.get_arg(idx))
        if isinstance(target, Function):
            found.append(target)
    return found


def has_address_taken(fn: Function) -> bool:
    """LLVM's ``hasAddressTaken`` as the call graph asks it: callback uses and
    assume-like uses ignored, ``llvm.used`` counted."""
    return _has_address_taken(fn, ignore_callback_uses=True)


def _is_dbg_info_intrinsic(fn: Function) -> bool:
    return fn.name in DBG_INFO_INTRINSICS


class CallGraph:
    """The call graph of ``module`` (LLVM's legacy ``CallGraph``)."""

    __slots__ = ("module", "external_calling_node", "calls_external_node", "_nodes", "_call_addresses")

    def __init__(self, module: Module) -> None:
        self.module = module
        self._nodes: dict[Function, CallGraphNode] = {}
        self._call_addresses: dict[CallBase, int] = {}
        self.external_calling_node = CallGraphNode(None, _NODE_ADDRESS_BASE)
        self.calls_external_node = CallGraphNode(None, _NODE_ADDRESS_BASE + 0x60)
        for fn in module.functions:
            if not _is_dbg_info_intrinsic(fn):
                self._add_to_graph(fn)

    def _get_or_insert(self, fn: Function) -> CallGraphNode:
        node = self._nodes.get(fn)
        if node is None:
            node = CallGraphNode(fn, _NODE_ADDRESS_BASE + 0x80 * (len(self._nodes) + 2))
            self._nodes[fn] = node
        return node

    def _add_to_graph(self, fn: Function) -> None:
        node = self._get_or_insert(fn)
        if not fn.has_local_linkage or has_address_taken(fn):
            self.external_calling_node.add_called_function(None, node)
        if fn.is_declaration and not fn.has_fn_attribute("nocallback"):
            node.add_called_function(None, self.calls_external_node)
        calls_external = self.calls_external_node
        for bb in fn.blocks:
            for inst in bb.instructions:
                if not inst.is_call_base:
                    continue
                call: CallBase = inst  # type: ignore[assignment]
                callee = call.called_function
                if callee is None:
                    node.add_called_function(call, calls_external)
                elif not _is_dbg_info_intrinsic(callee):
                    node.add_called_function(call, self._get_or_insert(callee))
                if callee is not None and callee.get_metadata("callback") is not None:
                    for cb in callback_functions(call):
                        node.add_called_function(None, self._get_or_insert(cb))

    # --- queries ------------------------------------------------------------------------------
    def node(self, fn: Function) -> CallGraphNode:
        """The node of ``fn`` (created on demand, as LLVM's ``operator[]`` would not)."""
        node = self._nodes.get(fn)
        if node is None:
            raise KeyError("function %r is not in the call graph" % fn.name)
        return node

    def __contains__(self, fn: Function) -> bool:
        return fn in self._nodes

    def function_nodes(self) -> list[CallGraphNode]:
        """The function nodes in module order."""
        return list(self._nodes.values())

    def nodes(self) -> list[CallGraphNode]:
        """The nodes in ``print-callgraph`` order: the external calling node, then the
        function nodes by name (ties in module order). The calls-external node is not listed."""
        by_name = sorted(self._nodes.values(), key=_node_name)
        return [self.external_calling_node] + by_name

    def sccs(self) -> list[list[CallGraphNode]]:
        """The SCCs reachable from the external calling node, bottom-up (``scc_iterator``)."""
        return scc_postorder(self.external_calling_node, CallGraphNode.callees)

    def call_address(self, call: CallBase) -> int:
        """A stable fake address for a call site (printed as ``CS<0x...>``)."""
        addr = self._call_addresses.get(call)
        if addr is None:
            addr = _CALL_ADDRESS_BASE + 0x90 * len(self._call_addresses)
            self._call_addresses[call] = addr
        return addr

    def __str__(self) -> str:
        return format_call_graph(self)

    def __repr__(self) -> str:
        nodes = len(self._nodes)
        edges = sum(len(n.records) for n in self._nodes.values()) + len(self.external_calling_node.records)
        return "<CallGraph of module %r: %d function node%s, %d call edge%s>" % (
            self.module.name, nodes, "" if nodes == 1 else "s", edges, "" if edges == 1 else "s"
        )


def _node_name(node: CallGraphNode) -> str:
    fn = node.function
    return fn.name if fn is not None else ""


N = TypeVar("N")


def scc_postorder(entry: N, successors: Callable[[N], Sequence[N]]) -> list[list[N]]:
    """Tarjan's SCCs of the nodes reachable from ``entry``, callees first; each SCC lists
    its nodes from the last visited down to the SCC's root (as ``scc_iterator``)."""
    visit_number: dict[N, int] = {}
    done = -1
    counter = 1
    pending: list[N] = [entry]
    visit_number[entry] = counter
    # Each frame: node, its successors, next child index, lowest visit number seen.
    frames: list[list[object]] = [[entry, successors(entry), 0, counter]]
    result: list[list[N]] = []
    while frames:
        frame = frames[-1]
        node: N = frame[0]  # type: ignore[assignment]
        succ: Sequence[N] = frame[1]  # type: ignore[assignment]
        i: int = frame[2]  # type: ignore[assignment]
        low: int = frame[3]  # type: ignore[assignment]
        descended = False
        while i < len(succ):
            child = succ[i]
            i += 1
            num = visit_number.get(child)
            if num is None:
                counter += 1
                visit_number[child] = counter
                pending.append(child)
                frame[2] = i
                frame[3] = low
                frames.append([child, successors(child), 0, counter])
                descended = True
                break
            if num != done and num < low:
                low = num
        if descended:
            continue
        frames.pop()
        if frames and low < frames[-1][3]:  # type: ignore[operator]
            frames[-1][3] = low
        if low != visit_number[node]:
            continue
        scc: list[N] = []
        while True:
            top = pending.pop()
            visit_number[top] = done
            scc.append(top)
            if top is node:
                break
        result.append(scc)
    return result


def scc_has_cycle(scc: Sequence[CallGraphNode]) -> bool:
    """Whether an SCC has a cycle: more than one node, or a node that calls itself."""
    if len(scc) > 1:
        return True
    node = scc[0]
    return any(t is node for _, t in node.records)


# --- printing and the pass-manager glue ---------------------------------------------------------


def format_node(graph: CallGraph, node: CallGraphNode) -> str:
    """One node as ``CallGraphNode::print`` writes it."""
    fn = node.function
    head = "Call graph node for function: '%s'" % fn.name if fn is not None else "Call graph node <<null function>>"
    out = ["%s<<0x%x>>  #uses=%d\n" % (head, node.address, node.num_references)]
    for call, target in node.records:
        cs = "None" if call is None else "0x%x" % graph.call_address(call)
        tfn = target.function
        what = "function '%s'" % tfn.name if tfn is not None else "external node"
        out.append("  CS<%s> calls %s\n" % (cs, what))
    out.append("\n")
    return "".join(out)


def format_call_graph(graph: CallGraph) -> str:
    """The ``print-callgraph`` text, as opt-19 writes it (addresses aside)."""
    return "".join(format_node(graph, n) for n in graph.nodes())


def format_call_graph_sccs(graph: CallGraph) -> str:
    """The ``print-callgraph-sccs`` text, as opt-19 writes it."""
    out = ["SCCs for the program in PostOrder:"]
    for number, scc in enumerate(graph.sccs(), 1):
        out.append("\nSCC #%d: %s" % (number, ", ".join(n.name for n in scc)))
        if len(scc) == 1 and scc_has_cycle(scc):
            out.append(" (Has self-loop).")
    out.append("\n")
    return "".join(out)


class CallGraphAnalysis(ModuleAnalysis[CallGraph]):
    """``callgraph``: the module's :class:`CallGraph`."""

    name: ClassVar[str] = "callgraph"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> CallGraph:
        return CallGraph(unit)


class _Printer(Pass[Module]):
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def _text(self, graph: CallGraph) -> str:
        raise NotImplementedError

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        graph = am.get_result(CallGraphAnalysis, unit)
        out = self.stream if self.stream is not None else sys.stderr
        out.write(self._text(graph))
        return PreservedAnalyses.all()


class CallGraphPrinterPass(_Printer):
    """``print-callgraph``: writes :func:`format_call_graph` (stderr by default, as opt)."""

    name: ClassVar[str] = "print-callgraph"

    def _text(self, graph: CallGraph) -> str:
        return format_call_graph(graph)


class CallGraphSCCsPrinterPass(_Printer):
    """``print-callgraph-sccs``: writes :func:`format_call_graph_sccs` (stderr by default)."""

    name: ClassVar[str] = "print-callgraph-sccs"

    def _text(self, graph: CallGraph) -> str:
        return format_call_graph_sccs(graph)


__all__ = [
    "ASSUME_LIKE_INTRINSICS",
    "CallGraph",
    "CallGraphAnalysis",
    "CallGraphNode",
    "CallGraphPrinterPass",
    "CallGraphSCCsPrinterPass",
    "DBG_INFO_INTRINSICS",
    "callback_functions",
    "format_call_graph",
    "format_call_graph_sccs",
    "format_node",
    "has_address_taken",
    "scc_has_cycle",
    "scc_postorder",
]
