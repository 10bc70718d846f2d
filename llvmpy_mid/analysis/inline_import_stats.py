"""Inliner statistics about imported functions (LLVM 19.1.7
``lib/Analysis/ImportedFunctionsInliningStatistics.cpp``, ``-inliner-function-import-stats``).

What: every inlining is recorded in a graph of functions (a function is imported when it
has ``!thinlto_src_module`` metadata); inlines into non-imported callers count as real
inlines into the importing module, propagated through the chains of imported callees.
:meth:`ImportedFunctionsInliningStatistics.dump` writes opt-19's report (``basic``: the
summary; ``verbose``: each inlined function first).
"""

from __future__ import annotations

import sys

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module


class _Node:
    __slots__ = ("imported", "inlines", "real_inlines", "callees", "visited")

    def __init__(self, imported: bool) -> None:
        self.imported = imported
        self.inlines = 0
        self.real_inlines = 0
        self.callees: list[_Node] = []
        self.visited = False


def _percent(fraction: int, whole: int) -> str:
    value = 100 * fraction / whole if whole else 0.0
    return "%.4g" % value


def _stat(msg: str, fraction: int, whole: int, of: str, line_end: bool = True) -> str:
    return "%s: %d [%s%% of %s]%s" % (msg, fraction, _percent(fraction, whole), of, "\n" if line_end else "")


class ImportedFunctionsInliningStatistics:
    """LLVM ``ImportedFunctionsInliningStatistics``."""

    def __init__(self, module: Module) -> None:
        self.module_name = module.name
        self.nodes: dict[str, _Node] = {}
        self.non_imported_callers: list[str] = []
        self.all_functions = 0
        self.imported_functions = 0
        for fn in module.functions:
            if fn.is_declaration:
                continue
            self.all_functions += 1
            self.imported_functions += int(fn.get_metadata("thinlto_src_module") is not None)

    def _node(self, fn: Function) -> _Node:
        node = self.nodes.get(fn.name)
        if node is None:
            node = _Node(fn.get_metadata("thinlto_src_module") is not None)
            self.nodes[fn.name] = node
        return node

    def record_inline(self, caller: Function, callee: Function) -> None:
        caller_node = self._node(caller)
        callee_node = self._node(callee)
        callee_node.inlines += 1
        if not caller_node.imported and not callee_node.imported:
            callee_node.real_inlines += 1
            return
        caller_node.callees.append(callee_node)
        if not caller_node.imported:
            self.non_imported_callers.append(caller.name)

    def _calculate_real_inlines(self) -> None:
        for name in sorted(set(self.non_imported_callers)):
            start = self.nodes[name]
            if start.visited:
                continue
            start.visited = True
            stack: list[tuple[_Node, int]] = [(start, 0)]
            while stack:
                node, i = stack.pop()
                if i < len(node.callees):
                    stack.append((node, i + 1))
                    child = node.callees[i]
                    child.real_inlines += 1
                    if not child.visited:
                        child.visited = True
                        stack.append((child, 0))
        self.non_imported_callers.clear()

    def dump(self, verbose: bool) -> None:
        self._calculate_real_inlines()
        ordered = sorted(self.nodes.items(), key=lambda kv: (-kv[1].inlines, -kv[1].real_inlines, kv[0]))
        out = ["------- Dumping inliner stats for [%s] -------\n" % self.module_name]
        if verbose:
            out.append("-- List of inlined functions:\n")
        imp = not_imp = imp_real = not_imp_real = 0
        for name, node in ordered:
            if node.inlines == 0:
                continue
            if node.imported:
                imp += 1
                imp_real += int(node.real_inlines > 0)
            else:
                not_imp += 1
                not_imp_real += int(node.real_inlines > 0)
            if verbose:
                out.append(
                    "Inlined %sfunction [%s]: #inlines = %d, #inlines_to_importing_module = %d\n"
                    % ("imported " if node.imported else "not imported ", name, node.inlines, node.real_inlines)
                )
        all_fns = self.all_functions
        imported = self.imported_functions
        not_imported = all_fns - imported
        out.append("-- Summary:\n")
        out.append("All functions: %d, imported functions: %d\n" % (all_fns, imported))
        out.append(_stat("inlined functions", imp + not_imp, all_fns, "all functions"))
        out.append(_stat("imported functions inlined anywhere", imp, imported, "imported functions"))
        out.append(
            _stat("imported functions inlined into importing module", imp_real, imported, "imported functions", False)
        )
        out.append(_stat(", remaining", imported - imp_real, imported, "imported functions"))
        out.append(_stat("non-imported functions inlined anywhere", not_imp, not_imported, "non-imported functions"))
        out.append(
            _stat("non-imported functions inlined into importing module", not_imp_real, not_imported, "non-imported functions")
        )
        sys.stderr.write("".join(out))
