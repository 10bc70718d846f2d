"""Lazy code motion: the four analyses of partial-redundancy elimination and each
expression's earliest and latest placement (the ``lcm`` analysis).

What: Knoop, Rüthing and Steffen's lazy code motion as the Dragon book (9.5,
Algorithm 9.36) and CMU 15-745 present it, with every instruction a node of its
own (the book's "each statement is a block"), so placements are instruction
points: ``(bb, k)`` means "just before instruction ``k`` of ``bb``". With
``use[n]`` the expression instruction ``n`` computes and ``kill[n]`` those it
kills (:mod:`.expressions`):

1. anticipated (backward, intersection; :mod:`.anticipated_expressions`):
   ``ANT.in[n] = use[n] U (ANT.out[n] - kill[n])``, ``{}`` at the exits;
2. will-be-available (forward, intersection):
   ``AV.out[n] = (ANT.in[n] U AV.in[n]) - kill[n]``, ``{}`` at the entry;
   ``earliest[n] = ANT.in[n] - AV.in[n]``;
3. postponable (forward, intersection):
   ``PP.out[n] = (earliest[n] U PP.in[n]) - use[n]``, ``{}`` at the entry;
   ``latest[n] = (earliest[n] U PP.in[n]) & (use[n] U ~(&_{s in succ(n)} (earliest[s] U PP.in[s])))``;
4. used (backward, union): ``USED.in[n] = (use[n] U USED.out[n]) - latest[n]``, ``{}`` at the exits.

The transformation (not done here) would insert ``t = e`` before ``n`` for each
``e`` in ``latest[n] & USED.out[n]`` (:meth:`LazyCodeMotion.insertions`) and
make each original computation of ``e`` at ``n`` with ``e`` in
``use[n] & (~latest[n] U USED.out[n])`` read ``t`` instead
(:meth:`LazyCodeMotion.replacements`). Placements are safe (only where the
expression is anticipated) and computationally optimal when critical edges are
split; an edge that is not split may leave a placement before the branch of its
source block (still safe, maybe not optimal).

What it does not do: it does not move code (a PRE pass would); no edge
splitting; the latest point of an expression never falls between phis (a phi
computes no expression), but the earliest may (read it as "on entry to the
block").
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from llvmpy_mid.analysis.dataflow.anticipated_expressions import anticipated_problem
from llvmpy_mid.analysis.dataflow.expressions import Expression, ExpressionTable
from llvmpy_mid.analysis.dataflow.framework import (
    DataflowProblem,
    DataflowResult,
    Direction,
    FlowGraph,
    Meet,
    bit_indices,
    solve,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis

Point = tuple[BasicBlock, int]
"""``(bb, k)``: just before instruction ``k`` of ``bb``."""


@attrs.frozen
class ExpressionPlacement:
    """Where lazy code motion puts one expression."""

    expression: Expression
    earliest: tuple[Point, ...]
    latest: tuple[Point, ...]
    insert: tuple[Point, ...]
    replace: tuple[Instruction, ...]
    keep: tuple[Instruction, ...]
    """Original computations that stay (latest, and used nowhere else: no temporary)."""


class LazyCodeMotion:
    """The four LCM analyses of one function and the placements they give."""

    __slots__ = (
        "function",
        "table",
        "domain",
        "anticipated",
        "available",
        "postponable",
        "used",
        "uses",
        "earliest",
        "latest",
        "graph",
    )

    def __init__(self, function: Function, table: ExpressionTable | None = None) -> None:
        self.function = function
        table = self.table = table if table is not None else ExpressionTable(function)
        self.domain = table.domain
        width = len(table.domain)
        uk: dict[BasicBlock, list[tuple[int, int]]] = {bb: table.uses_kills(bb) for bb in function.blocks}
        self.uses = uk
        graph = self.graph = FlowGraph(function)
        """The CFG all four problems are solved on."""

        anticipated = self.anticipated = solve(function, anticipated_problem(table), table.domain, graph)
        ant_in: dict[BasicBlock, list[int]] = {bb: anticipated.points(bb) for bb in function.blocks}

        def av_transfers(bb: BasicBlock) -> list[tuple[int, int]]:
            ant = ant_in[bb]
            return [(ant[i] & ~kill, kill) for i, (_use, kill) in enumerate(uk[bb])]

        available = self.available = solve(
            function,
            DataflowProblem("will-be-available", Direction.FORWARD, Meet.INTERSECTION, width, av_transfers),
            table.domain,
            graph,
        )
        earliest: dict[BasicBlock, list[int]] = {}
        for bb in function.blocks:
            av = available.points(bb)
            ant = ant_in[bb]
            earliest[bb] = [ant[i] & ~av[i] for i in range(len(uk[bb]))]
        self.earliest = earliest

        def pp_transfers(bb: BasicBlock) -> list[tuple[int, int]]:
            ea = earliest[bb]
            return [(ea[i] & ~use, use) for i, (use, _kill) in enumerate(uk[bb])]

        postponable = self.postponable = solve(
            function,
            DataflowProblem("postponable", Direction.FORWARD, Meet.INTERSECTION, width, pp_transfers),
            table.domain,
            graph,
        )
        pp_in: dict[BasicBlock, list[int]] = {bb: postponable.points(bb) for bb in function.blocks}
        full = (1 << width) - 1
        latest: dict[BasicBlock, list[int]] = {}
        for bb in function.blocks:
            ea = earliest[bb]
            pp = pp_in[bb]
            ops = uk[bb]
            n = len(ops)
            row = [0] * n
            for i in range(n):
                here = ea[i] | pp[i]
                if not here:
                    continue
                if i + 1 < n:
                    nxt = ea[i + 1] | pp[i + 1]
                else:
                    nxt = full
                    term = bb.terminator
                    seen: set[BasicBlock] = set()
                    for s in term.successors if term is not None else ():
                        if s in seen or s not in earliest:
                            continue
                        seen.add(s)
                        nxt &= earliest[s][0] | pp_in[s][0]
                row[i] = here & (ops[i][0] | (full & ~nxt))
            latest[bb] = row
        self.latest = latest

        def used_transfers(bb: BasicBlock) -> list[tuple[int, int]]:
            la = latest[bb]
            return [(use & ~la[i], la[i]) for i, (use, _kill) in enumerate(uk[bb])]

        self.used = solve(
            function,
            DataflowProblem("used", Direction.BACKWARD, Meet.UNION, width, used_transfers),
            table.domain,
            graph,
        )

    # --- per point ----------------------------------------------------------------------------
    def used_out(self, bb: BasicBlock) -> list[int]:
        """USED.out[n] for each instruction ``n`` of ``bb``."""
        return self.used.points(bb)[1:]

    def insert_sets(self, bb: BasicBlock) -> list[int]:
        """For each instruction of ``bb``: the expressions to compute just before it."""
        la = self.latest[bb]
        uo = self.used_out(bb)
        return [la[i] & uo[i] for i in range(len(la))]

    def replace_sets(self, bb: BasicBlock) -> list[int]:
        """For each instruction of ``bb``: its expression if it would read the temporary."""
        la = self.latest[bb]
        uo = self.used_out(bb)
        ops = self.uses[bb]
        return [ops[i][0] & (~la[i] | uo[i]) for i in range(len(la))]

    # --- per expression ---------------------------------------------------------------------
    def placements(self) -> list[ExpressionPlacement]:
        """One record per expression, in domain order; points in block and instruction order."""
        n = len(self.domain)
        earliest: list[list[Point]] = [[] for _ in range(n)]
        latest: list[list[Point]] = [[] for _ in range(n)]
        insert: list[list[Point]] = [[] for _ in range(n)]
        replace: list[list[Instruction]] = [[] for _ in range(n)]
        keep: list[list[Instruction]] = [[] for _ in range(n)]
        for bb in self.function.blocks:
            insts = list(bb.instructions)
            ins = self.insert_sets(bb)
            rep = self.replace_sets(bb)
            ea = self.earliest[bb]
            la = self.latest[bb]
            ops = self.uses[bb]
            for i in range(len(insts)):
                for e in bit_indices(ea[i]):
                    earliest[e].append((bb, i))
                for e in bit_indices(la[i]):
                    latest[e].append((bb, i))
                for e in bit_indices(ins[i]):
                    insert[e].append((bb, i))
                use = ops[i][0]
                if use:
                    e = use.bit_length() - 1
                    (replace if rep[i] else keep)[e].append(insts[i])
        return [
            ExpressionPlacement(
                self.domain.elements[e],
                tuple(earliest[e]),
                tuple(latest[e]),
                tuple(insert[e]),
                tuple(replace[e]),
                tuple(keep[e]),
            )
            for e in range(n)
        ]

    def placement(self, expression: Expression) -> ExpressionPlacement:
        return self.placements()[self.domain.number(expression)]

    @property
    def results(self) -> dict[str, DataflowResult]:
        return {
            "anticipated": self.anticipated,
            "will-be-available": self.available,
            "postponable": self.postponable,
            "used": self.used,
        }


class LazyCodeMotionAnalysis(FunctionAnalysis[LazyCodeMotion]):
    """``lcm``: :class:`LazyCodeMotion` of the function."""

    name: ClassVar[str] = "lcm"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> LazyCodeMotion:
        return LazyCodeMotion(unit)


__all__ = ["ExpressionPlacement", "LazyCodeMotion", "LazyCodeMotionAnalysis", "Point"]
