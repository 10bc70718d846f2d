"""LLVM 19's ``LazyCallGraph`` built in full: nodes, call and ref edges, RefSCCs
and call SCCs in LLVM's post-order; ``print-lcg``; the ``lcg`` analysis.

What: one :class:`LCGNode` per function of the module (declarations included,
as ``print-lcg`` prints them; they never enter an SCC). A node's edges are
found as LLVM finds them:

* scanning the body in order, a ``call``/``invoke``/``callbr`` whose callee is a
  *defined* function of the call's own function type gives a **call** edge
  (first sighting decides the position);
* every constant operand of every instruction is collected (once each) on a
  stack; popping it, a defined function gives a **ref** edge, a
  ``blockaddress`` is ignored, anything else (constant expressions,
  aggregates, global variables through their initialiser, aliases through
  their aliasee, ifuncs through their resolver) pushes its unseen operands;
* defined functions that are known C library functions (see below) get a ref
  edge from every node that has no edge to them yet (LLVM models that code can
  be turned into library calls).

Entry edges (the DFS roots, in this order): defined functions without local
linkage, in module order; functions that non-local aliases name directly; then
the functions reachable from global-variable initialisers (same stack walk).
Functions reachable from no root (dead internal functions, targets of internal
aliases only) are in no RefSCC.

How: RefSCCs are Tarjan SCCs over all edges, walked from the roots in order;
inside each RefSCC the call SCCs are Tarjan SCCs over call edges, rooted at
the RefSCC's nodes in their stack order. Both walks use LLVM's variant (low
links propagated from the child's low link, DFS numbers restarting at each
root, a component's nodes listed from its root down the pending stack), with
explicit stacks: O(N + E).

Updates: ``replace_node_function`` lets a node stand for a function that replaced its
own (O(1)); ``refresh`` rebuilds in place. The CGSCC walk updates nodes and SCCs in place through
``llvmpy_mid.analysis.lazy_call_graph_update`` (LLVM's ``switchInternalEdgeToRef`` and
``switchInternalEdgeToCall``) and ``llvmpy_mid.passes.cgscc_update``.

What it does not do: RefSCC splitting and merging in place (``removeInternalRefEdges``,
``insertIncomingRefEdge``), ``addSplitFunction``/``removeDeadFunctions`` (a new function
or a deleted one is handled by a rebuild). The library-function test is
a table of common C library names with their prototypes (checked against
opt-19 on x86_64 Linux), not LLVM's full ``TargetLibraryInfo``; target
availability is not modelled. ``print-lcg-dot`` is not provided.
"""

from __future__ import annotations

import sys
from typing import Callable, ClassVar, Iterable, TextIO, cast

from llvmpy_mid.ir.constants import BlockAddress, Constant
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import FunctionType, Type, TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, ModuleAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses


class LCGNode:
    """A function in the graph; ``edges`` holds ``(target, is_call)`` in LLVM's order."""

    __slots__ = ("function", "edges", "call_edges", "ref_edges", "_succ", "_call_succ", "dfs", "low")

    def __init__(self, function: Function) -> None:
        self.function = function
        self.edges: list[tuple[LCGNode, bool]] = []
        self.call_edges: list[LCGNode] = []
        self.ref_edges: list[LCGNode] = []
        self._succ: list[LCGNode] = []
        self._call_succ: list[LCGNode] = []
        self.dfs = 0
        self.low = 0

    @property
    def name(self) -> str:
        return self.function.name

    def __str__(self) -> str:
        return self.function.name

    def __repr__(self) -> str:
        return "<LCGNode %s>" % self.function.name


def _elided(items: list[str], limit: int) -> str:
    """LLVM's short listing: at most ``limit + 1`` items, then ``..., last``."""
    if len(items) > limit + 1:
        items = items[: limit + 1] + ["..., " + items[-1]]
    return ", ".join(items)


class SCC:
    """A call SCC: nodes in LLVM's order (the DFS root first)."""

    __slots__ = ("nodes", "functions", "ref_scc")

    def __init__(self, nodes: list[LCGNode], ref_scc: RefSCC) -> None:
        self.nodes = nodes
        self.functions = [n.function for n in nodes]
        self.ref_scc = ref_scc

    def __len__(self) -> int:
        return len(self.nodes)

    def __str__(self) -> str:
        return "(" + _elided([n.function.name for n in self.nodes], 8) + ")"

    def __repr__(self) -> str:
        return "<SCC %s>" % self


class RefSCC:
    """A reference SCC: its call SCCs in post-order of the call edges."""

    __slots__ = ("sccs", "_index")

    def __init__(self) -> None:
        self.sccs: list[SCC] = []
        self._index: dict[SCC, int] | None = None

    def position(self, scc: SCC) -> int:
        """``scc``'s index in :attr:`sccs` (LLVM's ``SCCIndices``; rebuilt after a change)."""
        index = self._index
        if index is None or len(index) != len(self.sccs):
            index = self._index = {c: i for i, c in enumerate(self.sccs)}
        return index[scc]

    def renumber(self) -> None:
        """Forget the positions after :attr:`sccs` changed."""
        self._index = None

    def __len__(self) -> int:
        return len(self.sccs)

    def __str__(self) -> str:
        return "[" + _elided([str(c) for c in self.sccs], 4) + "]"

    def __repr__(self) -> str:
        return "<RefSCC %s>" % self


# --- known library functions ---------------------------------------------------------------
# Prototype letters: v void, i i32, l "long" (i32 or i64), z size_t (the pointer-sized
# integer), h i16, p ptr, d double, f float; a trailing "." means variadic.
_LIB_PROTOS: dict[str, str] = {
    "malloc": "p:z", "calloc": "p:zz", "realloc": "p:pz", "free": "v:p",
    "memcpy": "p:ppz", "memmove": "p:ppz", "memset": "p:piz", "memcmp": "i:ppz", "memchr": "p:piz",
    "strlen": "z:p", "strnlen": "z:pz", "strcmp": "i:pp", "strncmp": "i:ppz", "strcpy": "p:pp",
    "strncpy": "p:ppz", "strcat": "p:pp", "strncat": "p:ppz", "strchr": "p:pi", "strrchr": "p:pi",
    "strstr": "p:pp", "strdup": "p:p", "strndup": "p:pz", "strtol": "l:ppi", "strtoul": "l:ppi",
    "atoi": "i:p", "atol": "l:p", "atof": "d:p", "abs": "i:i", "labs": "l:l",
    "puts": "i:p", "putchar": "i:i", "getchar": "i:", "printf": "i:p.", "fprintf": "i:pp.",
    "sprintf": "i:pp.", "snprintf": "i:pzp.", "scanf": "i:p.", "sscanf": "i:pp.", "fputs": "i:pp",
    "fputc": "i:ip", "fwrite": "z:pzzp", "fread": "z:pzzp", "fopen": "p:pp", "fclose": "i:p",
    "fflush": "i:p", "atexit": "i:p", "qsort": "v:pzzp", "isdigit": "i:i", "isascii": "i:i",
    "sqrt": "d:d", "sqrtf": "f:f", "sin": "d:d", "sinf": "f:f", "cos": "d:d", "cosf": "f:f",
    "tan": "d:d", "exp": "d:d", "expf": "f:f", "exp2": "d:d", "log": "d:d", "logf": "f:f",
    "log2": "d:d", "log10": "d:d", "pow": "d:dd", "powf": "f:ff", "fabs": "d:d", "fabsf": "f:f",
    "floor": "d:d", "floorf": "f:f", "ceil": "d:d", "ceilf": "f:f", "round": "d:d", "trunc": "d:d",
    "fmin": "d:dd", "fmax": "d:dd", "fmod": "d:dd", "atan2": "d:dd", "copysign": "d:dd",
    "htonl": "i:i", "ntohl": "i:i", "htons": "h:h", "ntohs": "h:h", "write": "l:ipz", "read": "l:ipz",
}  # fmt: skip


def _type_fits(ty: Type, code: str, size_bits: int) -> bool:
    tid = ty.type_id
    if code == "v":
        return tid is TypeID.VOID
    if code == "p":
        return tid is TypeID.POINTER
    if code == "d":
        return tid is TypeID.DOUBLE
    if code == "f":
        return tid is TypeID.FLOAT
    if tid is not TypeID.INTEGER:
        return False
    width: int = getattr(ty, "width")
    if code == "i":
        return width == 32
    if code == "h":
        return width == 16
    if code == "l":
        return width == 32 or width == 64
    return width == size_bits  # "z"


def is_known_lib_function(fn: Function, module: Module) -> bool:
    """Whether ``fn`` is a C library function LLVM knows, with its expected prototype."""
    if fn.is_intrinsic:
        return False
    proto = _LIB_PROTOS.get(fn.name)
    if proto is None:
        return False
    ret, params = proto.split(":")
    vararg = params.endswith(".")
    params = params.rstrip(".")
    fty: FunctionType = fn.function_type
    if fty.is_vararg != vararg or len(fty.params) != len(params):
        return False
    size_bits = module.data_layout.pointer_size_in_bits(0)
    if not _type_fits(fty.return_type, ret, size_bits):
        return False
    return all(_type_fits(t, c, size_bits) for t, c in zip(fty.params, params))


# --- the graph -----------------------------------------------------------------------------------


def _visit_references(stack: list[Constant], seen: set[Value], found: Callable[[Function], None]) -> None:
    """Pop constants off ``stack``; report defined functions, expand other constants."""
    while stack:
        c = stack.pop()
        if isinstance(c, Function):
            if not c.is_declaration:
                found(c)
            continue
        if isinstance(c, BlockAddress):
            continue
        for use in c.operand_uses:
            op = use.value
            if op.is_constant and op not in seen:
                seen.add(op)
                stack.append(cast(Constant, op))


class LazyCallGraph:
    """The call graph of ``module``, fully built (LLVM's ``LazyCallGraph``)."""

    __slots__ = ("module", "_nodes", "entry_nodes", "lib_functions", "_ref_sccs", "_scc_of", "_ref_scc_of")

    def __init__(self, module: Module) -> None:
        self.module = module
        self._build()

    def _build(self) -> None:
        module = self.module
        self._nodes: dict[Function, LCGNode] = {}
        self.lib_functions: list[Function] = []
        self.entry_nodes: list[LCGNode] = []
        self._ref_sccs: list[RefSCC] = []
        self._scc_of: dict[Function, SCC] = {}
        self._ref_scc_of: dict[Function, RefSCC] = {}
        for fn in module.functions:
            self._nodes[fn] = LCGNode(fn)
        self._find_entries()
        for node in self._nodes.values():
            self._populate(node)
        self._build_ref_sccs()

    # --- construction -------------------------------------------------------------------
    def _find_entries(self) -> None:
        module = self.module
        entries: list[LCGNode] = []
        in_entries: set[LCGNode] = set()

        def add(fn: Function) -> None:
            node = self._nodes[fn]
            if node not in in_entries:
                in_entries.add(node)
                entries.append(node)

        for fn in module.functions:
            if fn.is_declaration:
                continue
            if is_known_lib_function(fn, module):
                self.lib_functions.append(fn)
            if not fn.has_local_linkage:
                add(fn)
        for alias in module.aliases:
            if alias.has_local_linkage:
                continue
            target = alias.aliasee
            if isinstance(target, Function) and not target.is_declaration:
                add(target)
        stack: list[Constant] = []
        seen: set[Value] = set()
        for gv in module.globals:
            init = gv.initializer
            if init is not None and init not in seen:
                seen.add(init)
                stack.append(init)
        _visit_references(stack, seen, add)
        self.entry_nodes = entries

    def _populate(self, node: LCGNode) -> None:
        nodes = self._nodes
        edges = node.edges
        targets: set[LCGNode] = set()
        seen: set[Value] = set()
        callees: set[Function] = set()
        stack: list[Constant] = []

        def add(fn: Function, is_call: bool) -> None:
            target = nodes[fn]
            if target not in targets:
                targets.add(target)
                edges.append((target, is_call))

        for bb in node.function.blocks:
            for inst in bb.instructions:
                if inst.is_call_base:
                    callee = getattr(inst, "called_function")
                    if callee is not None and not callee.is_declaration and callee not in callees:
                        callees.add(callee)
                        seen.add(callee)
                        add(callee, True)
                for use in inst.operand_uses:
                    op = use.value
                    if op.is_constant and op not in seen:
                        seen.add(op)
                        stack.append(cast(Constant, op))
        _visit_references(stack, seen, lambda fn: add(fn, False))
        for fn in self.lib_functions:
            if fn not in seen:
                add(fn, False)
        node.call_edges = [t for t, c in edges if c]
        node.ref_edges = [t for t, c in edges if not c]
        node._succ = [t for t, _ in edges]
        node._call_succ = node.call_edges

    def _build_ref_sccs(self) -> None:
        ref_sccs = self._ref_sccs

        def form_ref_scc(members: list[LCGNode]) -> None:
            rc = RefSCC()
            for n in members:
                n.dfs = n.low = 0

            def form_scc(scc_nodes: list[LCGNode]) -> None:
                scc = SCC(scc_nodes, rc)
                rc.sccs.append(scc)
                for n in scc_nodes:
                    n.dfs = n.low = -1
                    self._scc_of[n.function] = scc
                    self._ref_scc_of[n.function] = rc

            _tarjan(members, True, form_scc)
            ref_sccs.append(rc)

        _tarjan(self.entry_nodes, False, form_ref_scc)

    # --- updates --------------------------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild the whole graph in place, from the module as it is now (O(N + E)); the
        object stays the same, so a cached analysis result stays valid."""
        self._build()

    def replace_node_function(self, node: LCGNode, new: Function) -> None:
        """Let ``node`` stand for ``new``, a function that replaced its own one with the
        same calls and references (LLVM ``RefSCC::replaceNodeFunction``); the node keeps
        its place, its edges and its SCC."""
        old = node.function
        node.function = new
        self._nodes[new] = self._nodes.pop(old)
        self.lib_functions = [new if fn is old else fn for fn in self.lib_functions]
        scc = self._scc_of.pop(old, None)
        if scc is not None:
            self._scc_of[new] = scc
            scc.functions[:] = [new if fn is old else fn for fn in scc.functions]
        ref_scc = self._ref_scc_of.pop(old, None)
        if ref_scc is not None:
            self._ref_scc_of[new] = ref_scc

    # --- queries --------------------------------------------------------------------------
    def node(self, fn: Function) -> LCGNode | None:
        return self._nodes.get(fn)

    def nodes(self) -> Iterable[LCGNode]:
        """Every node (in module order as built; a node whose function was replaced comes last)."""
        return self._nodes.values()

    def postorder_ref_sccs(self) -> list[RefSCC]:
        return list(self._ref_sccs)

    def sccs_in_postorder(self) -> list[SCC]:
        return [scc for rc in self._ref_sccs for scc in rc.sccs]

    def scc_of(self, fn: Function) -> SCC | None:
        return self._scc_of.get(fn)

    def ref_scc_of(self, fn: Function) -> RefSCC | None:
        return self._ref_scc_of.get(fn)


def _tarjan(roots: list[LCGNode], calls_only: bool, form: Callable[[list[LCGNode]], None]) -> None:
    """LLVM's Tarjan variant over all edges (or call edges only), forming components
    in post-order; a formed component's nodes must be given ``dfs == -1`` by ``form``."""
    for root in roots:
        if root.dfs != 0:
            continue
        root.dfs = root.low = 1
        next_number = 2
        pending: list[LCGNode] = []
        walk: list[tuple[LCGNode, int]] = [(root, 0)]
        while walk:
            n, i = walk.pop()
            succ = n._call_succ if calls_only else n._succ
            count = len(succ)
            while i < count:
                child = succ[i]
                if child.dfs == 0:
                    walk.append((n, i))
                    child.dfs = child.low = next_number
                    next_number += 1
                    n = child
                    succ = n._call_succ if calls_only else n._succ
                    count = len(succ)
                    i = 0
                    continue
                if child.dfs != -1 and child.low < n.low:
                    n.low = child.low
                i += 1
            pending.append(n)
            if n.low != n.dfs:
                continue
            root_number = n.dfs
            k = len(pending)
            while k > 0 and pending[k - 1].dfs >= root_number:
                k -= 1
            members = pending[k:]
            members.reverse()
            del pending[k:]
            form(members)


# --- printing and the pass-manager glue --------------------------------------------------------


def format_lcg(graph: LazyCallGraph, module: Module) -> str:
    """The ``print-lcg`` text, as opt-19 writes it."""
    out = ["Printing the call graph for module: %s\n\n" % module.name]
    for fn in module.functions:
        node = graph.node(fn)
        out.append("  Edges in function: %s\n" % fn.name)
        if node is not None:
            for target, is_call in node.edges:
                out.append("    %s -> %s\n" % ("call" if is_call else "ref ", target.function.name))
        out.append("\n")
    for rc in graph.postorder_ref_sccs():
        out.append("  RefSCC with %d call SCCs:\n" % len(rc.sccs))
        for scc in rc.sccs:
            out.append("    SCC with %d functions:\n" % len(scc.nodes))
            for n in scc.nodes:
                out.append("      %s\n" % n.function.name)
        out.append("\n")
    return "".join(out)


class LazyCallGraphAnalysis(ModuleAnalysis[LazyCallGraph]):
    """``lcg``: the module's :class:`LazyCallGraph`."""

    name: ClassVar[str] = "lcg"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> LazyCallGraph:
        # LLVM builds the graph with each defined function's TargetLibraryInfo, computed through
        # the function analysis manager (so -debug-pass-manager logs it).
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
        from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy

        if am.is_registered(FunctionAnalysisManagerModuleProxy):
            fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
            for fn in unit.functions:
                if not fn.is_declaration:
                    fam.get_result(TargetLibraryAnalysis, fn)
        return LazyCallGraph(unit)


class LazyCallGraphPrinterPass(Pass[Module]):
    """``print-lcg``: writes :func:`format_lcg` to a stream (stderr by default, as opt)."""

    name: ClassVar[str] = "print-lcg"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        graph = am.get_result(LazyCallGraphAnalysis, unit)
        out = self.stream if self.stream is not None else sys.stderr
        out.write(format_lcg(graph, unit))
        return PreservedAnalyses.all()


__all__ = [
    "LCGNode",
    "LazyCallGraph",
    "LazyCallGraphAnalysis",
    "LazyCallGraphPrinterPass",
    "RefSCC",
    "SCC",
    "format_lcg",
    "is_known_lib_function",
]
