"""Questions LLVM's ``Type`` class answers that ``types.py`` leaves out.

What: :data:`SCALAR_TYPE_IDS` (integer, pointer and floating-point type ids:
the types that are always sized and may be vector elements without further
checks), :data:`FIXED_PRIMITIVE_BITS` (sizes that do not depend on a data
layout), :func:`primitive_size_in_bits` (``Type::getPrimitiveSizeInBits``)
and :func:`can_losslessly_bitcast` (``Type::canLosslesslyBitCastTo``).

How: a type-id lookup for the leaf sizes; a vector multiplies its element's
size by its count and keeps its scalability.

What it does not do: consult a data layout (``data_layout.DataLayout`` sizes
pointers, aggregates and target types) or decide castability between two
types for a cast opcode (``instructions.casts`` does).
"""

from __future__ import annotations

from llvmpy_mid.ir.types import IntegerType, Type, TypeID, VectorType

SCALAR_TYPE_IDS = frozenset(
    (
        TypeID.INTEGER,
        TypeID.POINTER,
        TypeID.HALF,
        TypeID.BFLOAT,
        TypeID.FLOAT,
        TypeID.DOUBLE,
        TypeID.X86_FP80,
        TypeID.FP128,
        TypeID.PPC_FP128,
    )
)
"""Integer, pointer and floating-point type ids (always sized)."""

FIXED_PRIMITIVE_BITS: dict[TypeID, int] = {
    TypeID.HALF: 16,
    TypeID.BFLOAT: 16,
    TypeID.FLOAT: 32,
    TypeID.DOUBLE: 64,
    TypeID.X86_FP80: 80,
    TypeID.FP128: 128,
    TypeID.PPC_FP128: 128,
    TypeID.X86_MMX: 64,
    TypeID.X86_AMX: 8192,
}
"""Sizes in bits of the types whose size does not depend on the layout."""

_INTEGER = TypeID.INTEGER
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR
_X86_MMX = TypeID.X86_MMX
_X86_AMX = TypeID.X86_AMX


def primitive_size_in_bits(ty: Type) -> tuple[int, bool]:
    """(bits, scalable) as LLVM's ``getPrimitiveSizeInBits``: 0 for pointers and
    every non-primitive type; a vector is its element's size times its count."""
    tid = ty.type_id
    if tid is _INTEGER and isinstance(ty, IntegerType):
        return ty.width, False
    if (tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR) and isinstance(ty, VectorType):
        elt_bits, _ = primitive_size_in_bits(ty.element_type)
        return ty.count * elt_bits, ty.scalable
    return FIXED_PRIMITIVE_BITS.get(tid, 0), False


def can_losslessly_bitcast(src: Type, dst: Type) -> bool:
    """LLVM's ``Type::canLosslesslyBitCastTo``: the same type, two vectors of one
    size, or a 64-bit vector and x86_mmx / an 8192-bit vector and x86_amx."""
    if src is dst:
        return True
    if not src.is_first_class or not dst.is_first_class:
        return False
    src_vec = src.type_id is _FIXED_VECTOR or src.type_id is _SCALABLE_VECTOR
    dst_vec = dst.type_id is _FIXED_VECTOR or dst.type_id is _SCALABLE_VECTOR
    if src_vec and dst_vec:
        return primitive_size_in_bits(src) == primitive_size_in_bits(dst)
    for a, b in ((src, dst), (dst, src)):
        if a.type_id is _FIXED_VECTOR:
            bits = primitive_size_in_bits(a)[0]
            if b.type_id is _X86_MMX and bits == 64:
                return True
            if b.type_id is _X86_AMX and bits == 8192:
                return True
    return False


__all__ = ["FIXED_PRIMITIVE_BITS", "SCALAR_TYPE_IDS", "can_losslessly_bitcast", "primitive_size_in_bits"]
