"""Is a value the same byte repeated? (LLVM 19.1.7 ``isBytewiseValue``,
``lib/Analysis/ValueTracking.cpp``.)

:func:`is_bytewise_value` returns the ``i8`` value every byte of ``v`` equals when it
can tell: any ``i8`` value itself, ``undef i8`` for undef and zero-sized values, and for
constants the splatted byte of null values, integers whose width is a multiple of 8,
``half``/``float``/``double`` bit patterns, ``inttoptr`` of such integers, and
aggregates and vectors whose elements all agree (undef elements agree with anything).
A memset of that byte writes the same memory as a store of ``v``.

What it does not do: non-constant values wider than a byte (LLVM does not either).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregate,
    ConstantDataSequential,
    ConstantFP,
    ConstantInt,
    UndefValue,
)
from llvmpy_mid.ir.types import IntegerType, TypeID
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout

__all__ = ["is_bytewise_value"]

_FP_AS_INT = {TypeID.HALF: 16, TypeID.FLOAT: 32, TypeID.DOUBLE: 64}


def _int_byte(bits: int, width: int, ctx_i8: IntegerType) -> Value | None:
    if width % 8 != 0:
        return None
    byte = bits & 0xFF
    for shift in range(8, width, 8):
        if (bits >> shift) & 0xFF != byte:
            return None
    return ConstantInt.get(ctx_i8, byte)


def is_bytewise_value(v: Value, dl: DataLayout) -> Value | None:
    """The ``i8`` every byte of ``v`` equals, or None."""
    ty = v.type
    if isinstance(ty, IntegerType) and ty.width == 8:
        return v
    i8 = ty.context.i8
    undef_i8 = UndefValue.get(i8)
    if isinstance(v, UndefValue):
        return undef_i8
    if ty.is_sized and dl.type_store_size(ty) == 0 and not dl.is_scalable(ty):
        return undef_i8
    if not isinstance(v, Constant):
        return None
    if v.is_null_value:
        return ConstantInt.get(i8, 0)
    if isinstance(v, ConstantFP):
        width = _FP_AS_INT.get(ty.type_id)
        return _int_byte(v.bits, width, i8) if width is not None else None
    if isinstance(v, ConstantInt):
        return _int_byte(v.value, v.type.width, i8)
    if getattr(v, "is_constant_expr", False) and getattr(v, "opcode", None) == "inttoptr":
        op = v.operands[0]
        if isinstance(op, ConstantInt):
            width = dl.pointer_size_in_bits(getattr(ty, "address_space", 0))
            return _int_byte(op.value & ((1 << width) - 1), width, i8)
        return None
    if isinstance(v, (ConstantDataSequential, ConstantAggregate)):
        result: Value = undef_i8
        for elem in v.elements:
            byte = is_bytewise_value(elem, dl)
            if byte is None:
                return None
            if byte is result or byte is undef_i8:
                continue
            if result is undef_i8:
                result = byte
                continue
            return None
        return result
    return None
