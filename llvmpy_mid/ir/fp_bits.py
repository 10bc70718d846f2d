"""Exact bit patterns of LLVM's floating-point kinds.

Floating-point constants are stored as the integer bit pattern of their
type (half 16, bfloat 16, float 32, double 64, x86_fp80 80, fp128 128,
ppc_fp128 128 bits: the high double in the low 64 bits, as LLVM stores it).
These helpers convert Python floats to and from those patterns.
"""

from __future__ import annotations

import math
import struct

from llvmpy_mid.ir.types import TypeID

# (exponent bits, stored fraction bits, explicit integer bit) for the IEEE-like formats.
_LAYOUT: dict[TypeID, tuple[int, int, bool]] = {
    TypeID.HALF: (5, 10, False),
    TypeID.BFLOAT: (8, 7, False),
    TypeID.FLOAT: (8, 23, False),
    TypeID.DOUBLE: (11, 52, False),
    TypeID.X86_FP80: (15, 64, True),
    TypeID.FP128: (15, 112, False),
}


def double_to_bits(value: float) -> int:
    return int.from_bytes(struct.pack("<d", value), "little")


def bits_to_double(bits: int) -> float:
    return float(struct.unpack("<d", (bits & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little"))[0])


def _round_double_to_float_bits(value: float) -> int:
    """Round a double to single precision (nearest-even), giving the 32-bit pattern."""
    if math.isnan(value):
        dbits = double_to_bits(value)
        sign = dbits >> 63
        payload = (dbits >> 29) & 0x7FFFFF
        return (sign << 31) | 0x7F800000 | (payload | 0x400000)
    try:
        return int.from_bytes(struct.pack("<f", value), "little")
    except OverflowError:
        return 0xFF800000 if value < 0 else 0x7F800000


def _encode_wide(value: float, exp_bits: int, frac_bits: int, explicit: bool) -> int:
    """Encode a double exactly in a format at least as wide as double."""
    bias = (1 << (exp_bits - 1)) - 1
    dbits = double_to_bits(value)
    sign = dbits >> 63
    top = sign << (exp_bits + frac_bits)
    max_exp = (1 << exp_bits) - 1
    int_bit = (1 << (frac_bits - 1)) if explicit else 0
    if math.isnan(value):
        dfrac = dbits & ((1 << 52) - 1)
        mant = int_bit | (dfrac << (frac_bits - 52 - (1 if explicit else 0)))
        return top | (max_exp << frac_bits) | mant
    if math.isinf(value):
        return top | (max_exp << frac_bits) | (int_bit if explicit else 0)
    if value == 0.0:
        return top
    mantissa, exponent = math.frexp(abs(value))  # value = mantissa * 2**exponent, 0.5 <= m < 1
    # Normalised: 1.f * 2**(exponent-1)
    biased = exponent - 1 + bias
    # 53 significant bits at most; scale the mantissa to an integer.
    sig = int(mantissa * (1 << 53))  # exact: mantissa has at most 53 bits
    shift = (frac_bits + (0 if explicit else 1)) - 53
    sig <<= shift
    if not explicit:
        sig &= (1 << frac_bits) - 1
    return top | (biased << frac_bits) | sig


def float_to_bits(type_id: TypeID, value: float) -> int:
    """The bit pattern of ``value`` converted (rounding to nearest) to the given kind."""
    if type_id is TypeID.DOUBLE:
        return double_to_bits(value)
    if type_id is TypeID.FLOAT:
        return _round_double_to_float_bits(value)
    if type_id is TypeID.HALF:
        if math.isnan(value):
            dbits = double_to_bits(value)
            return ((dbits >> 63) << 15) | 0x7C00 | 0x200 | ((dbits >> 42) & 0x1FF)
        try:
            return int.from_bytes(struct.pack("<e", value), "little")
        except OverflowError:
            return 0xFC00 if value < 0 else 0x7C00
    if type_id is TypeID.BFLOAT:
        fbits = _round_double_to_float_bits(value)
        if (fbits & 0x7F800000) == 0x7F800000 and fbits & 0x7FFFFF:
            return (fbits >> 16) | 0x40
        rounding = 0x7FFF + ((fbits >> 16) & 1)
        return ((fbits + rounding) >> 16) & 0xFFFF
    if type_id is TypeID.PPC_FP128:
        return double_to_bits(value)  # high part = value, low part = +0.0
    layout = _LAYOUT.get(type_id)
    if layout is None:
        raise ValueError("not a floating-point kind: %s" % type_id)
    return _encode_wide(value, *layout)


def bits_to_float(type_id: TypeID, bits: int) -> float:
    """The value of a bit pattern as a Python float (rounded when wider than double)."""
    if type_id is TypeID.DOUBLE:
        return bits_to_double(bits)
    if type_id is TypeID.FLOAT:
        return float(struct.unpack("<f", (bits & 0xFFFFFFFF).to_bytes(4, "little"))[0])
    if type_id is TypeID.HALF:
        return float(struct.unpack("<e", (bits & 0xFFFF).to_bytes(2, "little"))[0])
    if type_id is TypeID.BFLOAT:
        return float(struct.unpack("<f", ((bits & 0xFFFF) << 16).to_bytes(4, "little"))[0])
    if type_id is TypeID.PPC_FP128:
        return bits_to_double(bits) + bits_to_double(bits >> 64)
    layout = _LAYOUT.get(type_id)
    if layout is None:
        raise ValueError("not a floating-point kind: %s" % type_id)
    exp_bits, frac_bits, explicit = layout
    bias = (1 << (exp_bits - 1)) - 1
    sign = -1.0 if (bits >> (exp_bits + frac_bits)) & 1 else 1.0
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    frac = bits & ((1 << frac_bits) - 1)
    if exponent == (1 << exp_bits) - 1:
        frac_no_int = frac & ((1 << (frac_bits - 1)) - 1) if explicit else frac
        return sign * math.inf if frac_no_int == 0 else math.nan
    if explicit:
        significand = frac / (1 << (frac_bits - 1))
        e = max(exponent, 1) - bias
    elif exponent == 0:
        significand = frac / (1 << frac_bits)
        e = 1 - bias
    else:
        significand = 1.0 + frac / (1 << frac_bits)
        e = exponent - bias
    try:
        return sign * math.ldexp(significand, e)
    except OverflowError:
        return sign * math.inf


def bit_width(type_id: TypeID) -> int:
    """Width in bits of a floating-point kind's pattern."""
    return _WIDTH[type_id]


_WIDTH = {
    TypeID.HALF: 16,
    TypeID.BFLOAT: 16,
    TypeID.FLOAT: 32,
    TypeID.DOUBLE: 64,
    TypeID.X86_FP80: 80,
    TypeID.FP128: 128,
    TypeID.PPC_FP128: 128,
}


def is_negative_zero(type_id: TypeID, bits: int) -> bool:
    width = _WIDTH[type_id]
    if type_id is TypeID.PPC_FP128:
        return (bits & 0xFFFFFFFFFFFFFFFF) == 1 << 63
    return bits == 1 << (width - 1)


def is_nan(type_id: TypeID, bits: int) -> bool:
    if type_id is TypeID.PPC_FP128:
        return math.isnan(bits_to_double(bits))
    exp_bits, frac_bits, explicit = _LAYOUT[type_id]
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    frac = bits & ((1 << frac_bits) - 1)
    if explicit:
        frac &= (1 << (frac_bits - 1)) - 1
    return exponent == (1 << exp_bits) - 1 and frac != 0
