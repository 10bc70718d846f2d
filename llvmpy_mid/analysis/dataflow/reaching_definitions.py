"""Reaching definitions (the ``reaching-defs`` analysis).

What: a *definition* is a point that gives a variable a value, as in the course
text (Dragon book 9.2.4; CMU 15-745): for the memory variables of -O0 code
(promotable ``alloca`` slots, :mod:`.variables`) each ``store`` to the slot is a
definition of that variable; for SSA values each argument (defined at the
function entry) and each instruction with a result is the one definition of its
value. A definition *d* of *x* reaches a point *p* when some path from just
after *d* to *p* passes no other definition of *x*. A definition kills the other
definitions of its variable: a store kills the other stores to its slot; an SSA
definition kills nothing (its value has no other definition; running it again
regenerates it). Forward, union, boundary at the entry = the arguments.

:class:`ReachingDefinitions` numbers the definitions (arguments, then the
function's instructions in order; printed ``d<k>``), and answers the
definitions reaching each block's top and bottom and each instruction point,
and :meth:`~ReachingDefinitions.variable_of` (the variable a definition
defines).

What it does not do: no may-alias definitions (stores through pointers,
calls); ``include_ssa=False`` keeps only the stores (the memory variables).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dataflow.framework import DataflowProblem, DataflowResult, Direction, Domain, Meet, solve
from llvmpy_mid.analysis.dataflow.variables import FunctionVariables, MemoryVariable
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis


class ReachingDefinitions:
    """Reaching definitions of one function; sets are ints over :attr:`domain` (the
    definitions: arguments, SSA instructions and stores)."""

    __slots__ = ("function", "variables", "domain", "defs_of", "result")

    def __init__(self, function: Function, *, include_ssa: bool = True, variables: FunctionVariables | None = None) -> None:
        self.function = function
        if variables is None:
            variables = FunctionVariables(function)
        self.variables = variables
        domain: Domain[object] = Domain()
        self.domain = domain
        self.defs_of: dict[object, int] = {}
        memvars = variables.variables
        if include_ssa:
            for arg in function.args:
                domain.add(arg)
        for bb in function.blocks:
            for inst in bb.instructions:
                var = variables.stored_variable(inst)
                if var is not None:
                    d = domain.add(inst)
                    self.defs_of[var] = self.defs_of.get(var, 0) | (1 << d)
                elif include_ssa and not inst.type.is_void and inst not in memvars:
                    domain.add(inst)
        index = domain.get
        defs_of = self.defs_of

        def transfers(bb: BasicBlock) -> list[tuple[int, int]]:
            out: list[tuple[int, int]] = []
            for inst in bb.instructions:
                d = index(inst)
                if d is None:
                    out.append((0, 0))
                    continue
                bit = 1 << d
                var = variables.stored_variable(inst)
                out.append((bit, defs_of[var] & ~bit if var is not None else 0))
            return out

        boundary = domain.bits_of(function.args) if include_ssa else 0
        problem = DataflowProblem(
            "reaching-defs", Direction.FORWARD, Meet.UNION, len(domain), transfers, boundary=boundary
        )
        self.result: DataflowResult = solve(function, problem, domain)

    def variable_of(self, definition: object) -> object:
        """The variable a definition defines: the :class:`MemoryVariable` a store writes, or
        the SSA value itself."""
        if isinstance(definition, Instruction):
            var = self.variables.stored_variable(definition)
            if var is not None:
                return var
        return definition

    def reaching_in(self, bb: BasicBlock) -> list[object]:
        return self.domain.set_of(self.result.block_in[bb])

    def reaching_out(self, bb: BasicBlock) -> list[object]:
        return self.domain.set_of(self.result.block_out[bb])

    def reaching_before(self, inst: Instruction) -> list[object]:
        return self.domain.set_of(self.result.before(inst))

    def definitions_of(self, variable: MemoryVariable | Value) -> list[object]:
        bits = self.defs_of.get(variable)
        if bits is None:
            return [variable] if variable in self.domain else []
        return self.domain.set_of(bits)


class ReachingDefinitionsAnalysis(FunctionAnalysis[ReachingDefinitions]):
    """``reaching-defs``: :class:`ReachingDefinitions` of the function."""

    name: ClassVar[str] = "reaching-defs"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> ReachingDefinitions:
        return ReachingDefinitions(unit)


__all__ = ["ReachingDefinitions", "ReachingDefinitionsAnalysis"]
