"""The expressions of a function, numbered for the expression analyses.

What: an *expression* is what a side-effect-free computation computes from its
operands: ``op(a, b)`` for a binary operator, ``fneg a``, a cast, an ``icmp`` or
``fcmp`` with its predicate, a ``select``. Its operands are variables as
:mod:`.variables` defines them (an SSA value, or a memory variable read just
before the use), so on clang's -O0 code ``%3 = add i32 %1, %2`` after loads of
``%b`` and ``%c`` is the expression ``add [%b], [%c]``, as ``b + c`` in the
course text. Two instructions compute the same expression when their opcode
(and predicate), result type and operand keys agree; wrap/exact/fast-math flags
are ignored (they only decide where the result is poison).

Following the course text (Dragon book 9.2.6; CMU 15-745), an instruction
*uses* (computes) its expression and *kills* every expression one of whose
operands it (re)defines: an instruction defines its own SSA value (run again in
a loop, it redefines it) and a ``store`` defines the memory variable it writes.
:meth:`ExpressionTable.uses_kills` gives these two sets for each instruction of
a block. A client may restrict the universe: with ``include``, an instruction
for which it answers False computes no expression (a transform that can move
only some expressions asks for those alone).

What it does not do: loads, calls, ``getelementptr`` and other instructions
are not expressions; commutative operands are not reordered (``a + b`` and
``b + a`` are two expressions, as in the text).
"""

from __future__ import annotations

from typing import Callable

import attrs

from llvmpy_mid.analysis.dataflow.framework import Domain
from llvmpy_mid.analysis.dataflow.variables import FunctionVariables, VariableKey
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.types import Type


@attrs.frozen
class Expression:
    """``opcode`` (with the predicate for compares, e.g. ``"icmp slt"``), the result type
    and the operand keys (SSA values or :class:`~.variables.MemoryVariable`)."""

    opcode: str
    type: Type
    operands: tuple[VariableKey, ...]


def expression_opcode(inst: Instruction) -> str | None:
    """The expression opcode ``inst`` computes, or None if it computes no expression."""
    if inst.is_binary_op or inst.is_unary_op or inst.is_cast:
        return inst.opcode
    op = inst.opcode
    if op == "icmp" or op == "fcmp":
        return op + " " + str(inst.predicate.keyword)  # type: ignore[attr-defined]
    if op == "select":
        return op
    return None


class ExpressionTable:
    """Every expression of a function (numbered in order of first computation) and, per
    instruction, the expression it computes and the expressions it kills."""

    __slots__ = ("function", "variables", "domain", "expression_of", "killers")

    def __init__(
        self,
        function: Function,
        variables: FunctionVariables | None = None,
        include: Callable[[Instruction], bool] | None = None,
    ) -> None:
        self.function = function
        if variables is None:
            variables = FunctionVariables(function)
        self.variables = variables
        self.domain: Domain[Expression] = Domain()
        self.expression_of: dict[Instruction, int] = {}
        self.killers: dict[VariableKey, int] = {}
        key = variables.operand_key
        domain = self.domain
        killers = self.killers
        for bb in function.blocks:
            for inst in bb.instructions:
                op = expression_opcode(inst)
                if op is None or (include is not None and not include(inst)):
                    continue
                operands = tuple(key(inst, i) for i in range(inst.num_operands))
                n = len(domain)
                e = domain.add(Expression(op, inst.type, operands))
                self.expression_of[inst] = e
                if e == n:
                    bit = 1 << e
                    for k in set(operands):
                        killers[k] = killers.get(k, 0) | bit

    def computes(self, inst: Instruction) -> int | None:
        return self.expression_of.get(inst)

    def kills(self, inst: Instruction) -> int:
        """The expressions ``inst`` kills (those with an operand it defines)."""
        killers = self.killers
        if not killers:
            return 0
        k = killers.get(inst, 0) if not inst.type.is_void else 0
        var = self.variables.stored_variable(inst)
        if var is not None:
            k |= killers.get(var, 0)
        return k

    def uses_kills(self, bb: BasicBlock) -> list[tuple[int, int]]:
        """(expression computed, expressions killed) for each instruction of ``bb``."""
        out: list[tuple[int, int]] = []
        expression_of = self.expression_of
        for inst in bb.instructions:
            e = expression_of.get(inst)
            out.append((0 if e is None else 1 << e, self.kills(inst)))
        return out


__all__ = ["Expression", "ExpressionTable", "expression_opcode"]
