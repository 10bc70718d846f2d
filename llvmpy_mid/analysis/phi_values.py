"""The non-phi values a phi may take (LLVM ``PhiValues``; ``lib/Analysis/PhiValues.cpp``)
and its printer ``print<phi-values>``.

For a phi, :meth:`PhiValues.get_values_for_phi` gives the values that are not phis and
reach it through chains of phis. The phis are grouped into strongly connected
components (Tarjan's algorithm with LLVM's depth numbering, walked with an explicit
stack so long phi chains do not overflow); each component's set of reachable values,
in LLVM's insertion order, is computed once and shared by its phis.

What it does not do: LLVM tracks every value it has seen with callback value handles
so a deleted or replaced value invalidates the components that reach it; here a user
that changes the IR calls :meth:`PhiValues.invalidate_value` itself (no LLVM 19 pass
keeps the result across changes: it is invalidated unless preserved).
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar, TextIO

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses


class PhiValues:
    """The phi-values results of one function, computed on demand (LLVM ``PhiValues``)."""

    def __init__(self, fn: Function) -> None:
        self.function = fn
        self._next_depth = 0
        self._depth: dict[PHINode, int] = {}
        # Component root depth -> the values (phis included) reaching the component, and
        # the non-phi ones; dicts used as insertion-ordered sets.
        self._reachable: dict[int, dict[Value, None]] = {}
        self._non_phi_reachable: dict[int, dict[Value, None]] = {}

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        checker = pa.checker(PhiValuesAnalysis)
        return not (checker.preserved() or checker.preserved_set(AllAnalysesOnFunction))

    def _process_phi(self, root_phi: PHINode, stack: list[PHINode]) -> None:
        depth = self._depth
        reachable_map = self._reachable
        # Each frame: [phi, its root depth number, its incoming values, next index, pending child].
        frames: list[list[Any]] = []

        def start(phi: PHINode) -> None:
            self._next_depth += 1
            depth[phi] = self._next_depth
            frames.append([phi, self._next_depth, list(phi.incoming_values), 0, None])

        start(root_phi)
        while frames:
            frame = frames[-1]
            phi: PHINode = frame[0]
            root: int = frame[1]
            ops: list[Value] = frame[2]
            i: int = frame[3]
            child: PHINode | None = frame[4]
            if child is not None:
                frame[4] = None
                d = depth[child]
                if d not in reachable_map:
                    depth[phi] = min(depth[phi], d)
                i += 1
            descended = False
            while i < len(ops):
                op = ops[i]
                if isinstance(op, PHINode):
                    d = depth.get(op, 0)
                    if d == 0:
                        frame[3] = i
                        frame[4] = op
                        start(op)
                        descended = True
                        break
                    if d not in reachable_map:
                        depth[phi] = min(depth[phi], d)
                i += 1
            if descended:
                continue
            frames.pop()
            stack.append(phi)
            if depth[phi] != root:
                continue
            reachable = reachable_map.setdefault(root, {})
            while True:
                component_phi = stack.pop()
                reachable[component_phi] = None
                for op in component_phi.incoming_values:
                    if isinstance(op, PHINode):
                        op_depth = depth.setdefault(op, 0)
                        if op_depth != root:
                            found = reachable_map.get(op_depth)
                            if found is not None:
                                for v in found:
                                    reachable[v] = None
                    else:
                        reachable[op] = None
                if not stack:
                    break
                top = stack[-1]
                if depth.get(top, 0) < root:
                    break
                depth[top] = root
            non_phi = self._non_phi_reachable.setdefault(root, {})
            for v in reachable:
                if not isinstance(v, PHINode):
                    non_phi[v] = None

    def get_values_for_phi(self, pn: PHINode) -> list[Value]:
        """The non-phi values reaching ``pn`` through phis, in LLVM's order."""
        d = self._depth.get(pn, 0)
        if d == 0:
            stack: list[PHINode] = []
            self._process_phi(pn, stack)
            d = self._depth[pn]
        return list(self._non_phi_reachable.setdefault(d, {}))

    def invalidate_value(self, v: Value) -> None:
        """Forget the components ``v`` reaches (before ``v`` is deleted or replaced)."""
        invalid = [n for n, values in self._reachable.items() if v in values]
        for n in invalid:
            for value in self._reachable[n]:
                if isinstance(value, PHINode):
                    self._depth.pop(value, None)
            self._non_phi_reachable.pop(n, None)
            del self._reachable[n]

    def release_memory(self) -> None:
        self._depth.clear()
        self._non_phi_reachable.clear()
        self._reachable.clear()

    def format(self) -> str:
        """LLVM ``PhiValues::print``: each phi of the function with its values."""
        from llvmpy_mid.asm import format_value
        from llvmpy_mid.ir import _printing

        writer = _printing.diagnostic_writer(self.function.parent)
        out: list[str] = []
        for bb in self.function.blocks:
            for pn in bb.phis():
                ref = writer.operand(pn)
                ty = str(pn.type) + " "
                if ref.startswith(ty):
                    ref = ref[len(ty):]
                out.append("PHI %s has values:\n" % ref)
                n = self._depth.get(pn, 0)
                values = self._non_phi_reachable.get(n)
                if values is None:
                    out.append("  UNKNOWN\n")
                elif not values:
                    out.append("  NONE\n")
                else:
                    for v in values:
                        if v.is_instruction:
                            out.append("  " + writer.instruction(v).lstrip(" ") + "\n")
                        elif v.is_global_value:
                            out.append("  " + format_value(v) + "\n")
                        else:
                            out.append("  " + writer.operand(v) + "\n")
        return "".join(out)


class PhiValuesAnalysis(FunctionAnalysis[PhiValues]):
    """The ``phi-values`` function analysis."""

    name: ClassVar[str] = "phi-values"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PhiValues:
        return PhiValues(unit)


class PhiValuesPrinterPass(Pass[Function]):
    """``print<phi-values>``: every phi's values, to standard error."""

    name: ClassVar[str] = "print<phi-values>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write("PHI Values for function: %s\n" % unit.name)
        pv = am.get_result(PhiValuesAnalysis, unit)
        for bb in unit.blocks:
            for pn in bb.phis():
                pv.get_values_for_phi(pn)
        out.write(pv.format())
        return PreservedAnalyses.all()
