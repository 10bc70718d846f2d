"""Liveness of SSA values and memory variables (the ``liveness`` analysis).

What: a variable is *live* at a point when some path from the point reaches a
use of it without passing its definition. The variables are the function's
SSA values (arguments and instructions with a result, except the promotable
``alloca`` slots themselves) and its memory variables (:mod:`.variables`: a
``load`` uses one, a ``store`` defines it). :class:`Liveness` answers
live-in/live-out per block and live before/after each instruction.

SSA liveness (CMU 15-745 assignment 2, Appel ch. 19): a phi's operand is used on
its incoming edge, at the end of the predecessor, not at the top of the phi's
block; a phi defines its value where it stands (so phi results are not live-in
to their own block). Hence ``OUT[B] = U_{S in succ(B)} (IN[S] U phi-uses(S, B))``
and ``IN[B] = uses(B) U (OUT[B] - defs(B))``: a backward union problem with an
empty boundary at the exits, solved by :mod:`.framework` with the phi uses as
edge transfers.

What it does not do: constants, globals and blocks are never live; memory other
than promotable ``alloca`` slots is not tracked.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dataflow.framework import DataflowProblem, DataflowResult, Direction, Domain, Meet, solve
from llvmpy_mid.analysis.dataflow.variables import FunctionVariables
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis


class Liveness:
    """The liveness of one function; sets are ints over :attr:`domain`."""

    __slots__ = ("function", "variables", "domain", "result")

    def __init__(self, function: Function, variables: FunctionVariables | None = None) -> None:
        self.function = function
        if variables is None:
            variables = FunctionVariables(function)
        self.variables = variables
        domain: Domain[object] = Domain()
        self.domain = domain
        memvars = variables.variables
        for arg in function.args:
            domain.add(arg)
        for bb in function.blocks:
            for inst in bb.instructions:
                var = memvars.get(inst)
                if var is not None:
                    domain.add(var)
                elif not inst.type.is_void:
                    domain.add(inst)
        index = domain.get

        def transfers(bb: BasicBlock) -> list[tuple[int, int]]:
            out: list[tuple[int, int]] = []
            for inst in bb.instructions:
                d = index(inst)
                kill = 0 if d is None else 1 << d
                if inst.is_phi:
                    out.append((0, kill))
                    continue
                gen = 0
                for use in inst.operand_uses:
                    u = index(use.value)
                    if u is not None:
                        gen |= 1 << u
                op = inst.opcode
                if op == "load":
                    var = variables.loaded_variable(inst)
                    if var is not None:
                        gen |= 1 << domain.number(var)
                elif op == "store":
                    var = variables.stored_variable(inst)
                    if var is not None:
                        kill |= 1 << domain.number(var)
                out.append((gen, kill))
            return out

        def edge(src: BasicBlock, dst: BasicBlock) -> tuple[int, int] | None:
            gen = 0
            for phi in dst.phis():
                for value, block in phi.incoming:
                    if block is src:
                        u = index(value)
                        if u is not None:
                            gen |= 1 << u
            return (gen, 0) if gen else None

        problem = DataflowProblem("liveness", Direction.BACKWARD, Meet.UNION, len(domain), transfers, edge_transfer=edge)
        self.result: DataflowResult = solve(function, problem, domain)

    def live_in(self, bb: BasicBlock) -> list[object]:
        return self.domain.set_of(self.result.block_in[bb])

    def live_out(self, bb: BasicBlock) -> list[object]:
        return self.domain.set_of(self.result.block_out[bb])

    def live_before(self, inst: Instruction) -> list[object]:
        return self.domain.set_of(self.result.before(inst))

    def live_after(self, inst: Instruction) -> list[object]:
        return self.domain.set_of(self.result.after(inst))

    def is_live_in(self, variable: object, bb: BasicBlock) -> bool:
        i = self.domain.get(variable)
        return i is not None and bool(self.result.block_in[bb] >> i & 1)

    def is_live_out(self, variable: object, bb: BasicBlock) -> bool:
        i = self.domain.get(variable)
        return i is not None and bool(self.result.block_out[bb] >> i & 1)


class LivenessAnalysis(FunctionAnalysis[Liveness]):
    """``liveness``: :class:`Liveness` of the function (recomputed after any change)."""

    name: ClassVar[str] = "liveness"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> Liveness:
        return Liveness(unit)


__all__ = ["Liveness", "LivenessAnalysis"]
