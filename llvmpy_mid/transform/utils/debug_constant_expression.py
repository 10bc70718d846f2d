"""A ``DIExpression`` standing for a constant (LLVM ``getExpressionForConstant``).

Follows LLVM 19.1.7's ``lib/Transforms/Utils/Local.cpp``: an integer that fits in
64 signed bits, a floating-point value of at most 64 bits (its bit pattern), a
null pointer (0) or an ``inttoptr`` of an integer becomes
``!DIExpression(DW_OP_constu, N, DW_OP_stack_value)``; anything else has none.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, ConstantPointerNull
from llvmpy_mid.ir.debug_info import DIExpression
from llvmpy_mid.ir.types import Type

_U64 = (1 << 64) - 1


def _integer_expression(ci: ConstantInt) -> DIExpression | None:
    width = ci.type.width
    value = ci.value & ((1 << width) - 1)
    if width > 64:
        signed = value - (1 << width) if value >> (width - 1) else value
        if not -(1 << 63) <= signed < (1 << 63):
            return None
        value = signed
    elif width > 0 and value >> (width - 1):
        value -= 1 << width
    return _constant_value_expression(ci, value & _U64)


def _constant_value_expression(c: Constant, value: int) -> DIExpression:
    return DIExpression.get(c.type.context, ("DW_OP_constu", value, "DW_OP_stack_value"))


def get_expression_for_constant(c: Constant, ty: Type) -> DIExpression | None:
    """The expression for ``c`` (of type ``ty``), or None when it has none."""
    if isinstance(c, ConstantInt):
        return _integer_expression(c)
    if isinstance(c, ConstantFP) and ty.is_floating_point and ty.bits <= 64:  # type: ignore[attr-defined]
        return _constant_value_expression(c, c.bits & _U64)
    if not ty.is_pointer:
        return None
    if isinstance(c, ConstantPointerNull):
        return _constant_value_expression(c, 0)
    if getattr(c, "opcode", None) == "inttoptr":
        op = c._operands[0].value
        if isinstance(op, ConstantInt):
            return _integer_expression(op)
    return None


__all__ = ["get_expression_for_constant"]
