"""Anticipated (very busy) expressions (the ``anticipated-exprs`` analysis).

What: an expression ``e = op(a, b)`` (:mod:`.expressions`) is *anticipated*
(very busy) at a point when every path from the point to an exit computes ``e``
before any redefinition of ``a`` or ``b``; computing ``e`` there would be safe
and used on every path. Going backwards through an instruction: the
instruction's definition kills expressions with that operand, then its own
computation (which reads the operands before the definition) generates its
expression: ``IN = use U (OUT - kill)``. Backward, intersection, ``OUT = {}`` at
the exits (blocks without successors), other sets start full. A block with no
path to an exit (an infinite loop) is treated as an exit: nothing is
anticipated at its bottom (:mod:`.framework`), so no placement ever moves a
computation into a loop that never ends.

What it does not do: no notion of exceptions: an instruction that may throw or
not return does not end a path.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dataflow.expressions import Expression, ExpressionTable
from llvmpy_mid.analysis.dataflow.framework import DataflowProblem, DataflowResult, Direction, Meet, solve
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis


def anticipated_problem(table: ExpressionTable) -> DataflowProblem:
    """The anticipated-expressions problem over ``table``'s expressions."""

    def transfers(bb: BasicBlock) -> list[tuple[int, int]]:
        return table.uses_kills(bb)

    return DataflowProblem("anticipated-exprs", Direction.BACKWARD, Meet.INTERSECTION, len(table.domain), transfers)


class AnticipatedExpressions:
    """Anticipated expressions of one function; sets are ints over :attr:`domain`."""

    __slots__ = ("function", "table", "domain", "result")

    def __init__(self, function: Function, table: ExpressionTable | None = None) -> None:
        self.function = function
        self.table = table if table is not None else ExpressionTable(function)
        self.domain = self.table.domain
        self.result: DataflowResult = solve(function, anticipated_problem(self.table), self.domain)

    def anticipated_in(self, bb: BasicBlock) -> list[Expression]:
        return self.domain.set_of(self.result.block_in[bb])

    def anticipated_out(self, bb: BasicBlock) -> list[Expression]:
        return self.domain.set_of(self.result.block_out[bb])

    def anticipated_before(self, inst: Instruction) -> list[Expression]:
        return self.domain.set_of(self.result.before(inst))


class AnticipatedExpressionsAnalysis(FunctionAnalysis[AnticipatedExpressions]):
    """``anticipated-exprs``: :class:`AnticipatedExpressions` of the function."""

    name: ClassVar[str] = "anticipated-exprs"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> AnticipatedExpressions:
        return AnticipatedExpressions(unit)


__all__ = ["AnticipatedExpressions", "AnticipatedExpressionsAnalysis", "anticipated_problem"]
