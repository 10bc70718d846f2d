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
from llvmpy_mid.analysis.dataflow.variables import FunctionVariables, MemoryVariable, VariableKey
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


def _bits_of(numbers: int | list[int]) -> int:
    """The set of ``numbers`` (one number, or ascending ones) as an int, in time linear
    in its width."""
    if isinstance(numbers, int):
        return 1 << numbers
    if len(numbers) <= 8:
        bits = 0
        for e in numbers:
            bits |= 1 << e
        return bits
    buf = bytearray((numbers[-1] >> 3) + 1)
    for e in numbers:
        buf[e >> 3] |= 1 << (e & 7)
    return int.from_bytes(buf, "little")


class ExpressionTable:
    """Every expression of a function (numbered in order of first computation) and, per
    instruction, the expression it computes and the expressions it kills."""

    __slots__ = ("function", "variables", "domain", "expression_of", "_killed_by", "_killer_bits")

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
        key = variables.operand_key
        domain = self.domain
        expression_of = self.expression_of
        # Only an instruction or a store defines an operand: constants, arguments and other
        # values kill nothing, so they get no killer set (and a constant shared by many
        # expressions costs nothing). Each key's set is built from its expression numbers
        # when first asked for (a client that stops early builds none).
        killed_by: dict[VariableKey, int | list[int]] = {}  # (one number: no list to track)
        self._killed_by = killed_by
        self._killer_bits: dict[VariableKey, int] = {}
        for bb in function.blocks:
            for inst in bb.instructions:
                op = expression_opcode(inst)
                if op is None or (include is not None and not include(inst)):
                    continue
                operands = tuple(key(inst, i) for i in range(inst.num_operands))
                n = len(domain)
                e = domain.add(Expression(op, inst.type, operands))
                expression_of[inst] = e
                if e == n:
                    for k in operands:
                        if isinstance(k, (Instruction, MemoryVariable)):
                            numbers = killed_by.get(k)
                            if numbers is None:
                                killed_by[k] = e
                            elif isinstance(numbers, int):
                                if numbers != e:
                                    killed_by[k] = [numbers, e]
                            elif numbers[-1] != e:
                                numbers.append(e)

    def computes(self, inst: Instruction) -> int | None:
        return self.expression_of.get(inst)

    def kills(self, inst: Instruction) -> int:
        """The expressions ``inst`` kills (those with an operand it defines)."""
        if not self._killed_by:
            return 0
        k = self._killer(inst)  # (a void instruction is no operand: never a key)
        var = self.variables.stored_variable(inst)
        if var is not None:
            k |= self._killer(var)
        return k

    def _killer(self, key: VariableKey) -> int:
        """The expressions with operand ``key`` (those a definition of ``key`` kills)."""
        bits = self._killer_bits.get(key)
        if bits is None:
            numbers = self._killed_by.get(key)
            if numbers is None:
                return 0
            bits = self._killer_bits[key] = _bits_of(numbers)
        return bits

    @property
    def killers(self) -> dict[VariableKey, int]:
        """Each key an instruction can define (an instruction, a memory variable) -> the
        expressions with that operand."""
        return {k: self._killer(k) for k in self._killed_by}

    def uses_kills(self, bb: BasicBlock) -> list[tuple[int, int]]:
        """(expression computed, expressions killed) for each instruction of ``bb``."""
        out: list[tuple[int, int]] = []
        expression_of = self.expression_of
        for inst in bb.instructions:
            e = expression_of.get(inst)
            out.append((0 if e is None else 1 << e, self.kills(inst)))
        return out


__all__ = ["Expression", "ExpressionTable", "expression_opcode"]
