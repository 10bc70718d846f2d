"""Available expressions (the ``available-exprs`` analysis).

What: an expression ``e = op(a, b)`` (:mod:`.expressions`) is *available* at a
point when every path from the entry to the point computes ``e`` and, after the
last computation, redefines neither ``a`` nor ``b``. Exactly as the course text
(Dragon book 9.2.6, CMU 15-745) defines the sets, going through an instruction
in order: it first *generates* the expression it computes, then *kills* every
expression with an operand it defines; so a block generates ``e`` when it
computes ``e`` with no later redefinition of an operand, and kills ``e`` when
it redefines an operand of ``e`` (the block's ``kill`` keeps ``e`` even if a
later computation regenerates it; ``OUT = gen U (IN - kill)`` is the same
either way). Forward, intersection, ``IN[entry] = {}``, other sets start full.
Code no path from the entry reaches is treated as an entry (nothing is
available at its top; see :mod:`.framework`).

What it does not do: no value numbering (``%x = add %a, %b`` and a copy of it
with other SSA operands are different expressions); memory is not an operand
except through memory variables.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dataflow.expressions import Expression, ExpressionTable
from llvmpy_mid.analysis.dataflow.framework import DataflowProblem, DataflowResult, Direction, Meet, solve
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis


def available_problem(table: ExpressionTable) -> DataflowProblem:
    """The available-expressions problem over ``table``'s expressions."""

    def transfers(bb: BasicBlock) -> list[tuple[int, int]]:
        return [(use & ~kill, kill) for use, kill in table.uses_kills(bb)]

    return DataflowProblem("available-exprs", Direction.FORWARD, Meet.INTERSECTION, len(table.domain), transfers)


class AvailableExpressions:
    """Available expressions of one function; sets are ints over :attr:`domain`."""

    __slots__ = ("function", "table", "domain", "result")

    def __init__(self, function: Function, table: ExpressionTable | None = None) -> None:
        self.function = function
        self.table = table if table is not None else ExpressionTable(function)
        self.domain = self.table.domain
        self.result: DataflowResult = solve(function, available_problem(self.table), self.domain)

    def available_in(self, bb: BasicBlock) -> list[Expression]:
        return self.domain.set_of(self.result.block_in[bb])

    def available_out(self, bb: BasicBlock) -> list[Expression]:
        return self.domain.set_of(self.result.block_out[bb])

    def available_before(self, inst: Instruction) -> list[Expression]:
        return self.domain.set_of(self.result.before(inst))

    def gen(self, bb: BasicBlock) -> list[Expression]:
        return self.domain.set_of(self.result.block_gen[bb])

    def kill(self, bb: BasicBlock) -> list[Expression]:
        return self.domain.set_of(self.result.block_kill[bb])

    def is_redundant(self, inst: Instruction) -> bool:
        """Whether ``inst`` computes an expression already available before it."""
        e = self.table.computes(inst)
        return e is not None and bool(self.result.before(inst) >> e & 1)


class AvailableExpressionsAnalysis(FunctionAnalysis[AvailableExpressions]):
    """``available-exprs``: :class:`AvailableExpressions` of the function."""

    name: ClassVar[str] = "available-exprs"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> AvailableExpressions:
        return AvailableExpressions(unit)


__all__ = ["AvailableExpressions", "AvailableExpressionsAnalysis", "available_problem"]
