"""Exact IEEE-754 arithmetic on the bit patterns of LLVM's floating-point kinds.

Follows LLVM's ``Support/APFloat.cpp`` (``IEEEFloat``): every operation is
computed exactly on integers (a finite value is ``sig * 2**exp``) and rounded
once to the target format, round-to-nearest-ties-to-even unless told
otherwise, so there is no double rounding for ``half``/``bfloat``/``float``
and the wide kinds (``x86_fp80``, ``fp128``) are as exact as the narrow ones.

NaN rules are APFloat's: an operation with a NaN operand returns that NaN
(the left one first) made quiet, keeping its sign and payload; an invalid
operation (``inf - inf``, ``0 * inf``, ``0 / 0``, ``x rem 0``...) returns the
default NaN (positive, quiet, zero payload; ``x86_fp80`` with its integer
bit). Conversions move the payload to the top of the target's fraction.

``ppc_fp128`` (double-double) is not handled here: every entry point returns
None for it, and callers leave such operations unfolded.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final

from llvmpy_mid.ir.types import TypeID

# Categories of a decoded value.
ZERO: Final = 0
NORMAL: Final = 1  # any finite non-zero value (normal or denormal)
INF: Final = 2
NAN: Final = 3

# Rounding modes (LLVM's RoundingMode numbering).
RM_TOWARD_ZERO: Final = 0
RM_NEAREST_EVEN: Final = 1
RM_TOWARD_POSITIVE: Final = 2
RM_TOWARD_NEGATIVE: Final = 3
RM_NEAREST_AWAY: Final = 4


class Semantics:
    """A binary format: precision (with the integer bit), exponent range, width."""

    __slots__ = ("precision", "exp_bits", "emax", "emin", "bias", "width", "explicit_int", "frac_bits")

    def __init__(self, precision: int, exp_bits: int, explicit_int: bool = False) -> None:
        self.precision = precision
        self.exp_bits = exp_bits
        self.bias = (1 << (exp_bits - 1)) - 1
        self.emax = self.bias
        self.emin = 1 - self.bias
        self.explicit_int = explicit_int
        # Bits of the stored significand field.
        self.frac_bits = precision if explicit_int else precision - 1
        self.width = 1 + exp_bits + self.frac_bits


SEMANTICS: Final[dict[TypeID, Semantics]] = {
    TypeID.HALF: Semantics(11, 5),
    TypeID.BFLOAT: Semantics(8, 8),
    TypeID.FLOAT: Semantics(24, 8),
    TypeID.DOUBLE: Semantics(53, 11),
    TypeID.X86_FP80: Semantics(64, 15, True),
    TypeID.FP128: Semantics(113, 15),
}

# A decoded value: (category, sign, significand, exponent). Finite non-zero:
# (-1)**sign * sig * 2**exp. NaN: sig is the payload as APFloat keeps it (the
# fraction field; for x86_fp80 all 64 mantissa bits).
Unpacked = tuple[int, int, int, int]


def semantics_of(tid: TypeID) -> Semantics | None:
    return SEMANTICS.get(tid)


def decode(sem: Semantics, bits: int) -> Unpacked:
    fb = sem.frac_bits
    sign = (bits >> (sem.width - 1)) & 1
    e = (bits >> fb) & ((1 << sem.exp_bits) - 1)
    f = bits & ((1 << fb) - 1)
    emask = (1 << sem.exp_bits) - 1
    if sem.explicit_int:
        if e == emask:
            return (INF, sign, 0, 0) if f == 1 << 63 else (NAN, sign, f, 0)
        if e == 0:
            if f == 0:
                return (ZERO, sign, 0, 0)
            return (NORMAL, sign, f, sem.emin - 63)
        if f == 0:
            return (ZERO, sign, 0, 0)
        return (NORMAL, sign, f, e - sem.bias - 63)
    if e == emask:
        return (INF, sign, 0, 0) if f == 0 else (NAN, sign, f, 0)
    if e == 0:
        if f == 0:
            return (ZERO, sign, 0, 0)
        return (NORMAL, sign, f, sem.emin - fb)
    return (NORMAL, sign, f | (1 << fb), e - sem.bias - fb)


def _sign_bit(sem: Semantics, sign: int) -> int:
    return sign << (sem.width - 1)


def encode_special(sem: Semantics, cat: int, sign: int, payload: int = 0) -> int:
    """Zero, infinity or NaN (with ``payload`` as APFloat keeps it)."""
    top = _sign_bit(sem, sign)
    if cat == ZERO:
        return top
    emask = ((1 << sem.exp_bits) - 1) << sem.frac_bits
    if cat == INF:
        return top | emask | ((1 << 63) if sem.explicit_int else 0)
    return top | emask | (payload & ((1 << sem.frac_bits) - 1))


def default_nan(sem: Semantics, sign: int = 0) -> int:
    """APFloat's ``makeNaN()``: quiet, zero payload (x86_fp80: integer bit set)."""
    q = 1 << (sem.precision - 2)
    if sem.explicit_int:
        q |= 1 << 63
    return encode_special(sem, NAN, sign, q)


def quiet_bit(sem: Semantics) -> int:
    return 1 << (sem.precision - 2)


def is_signaling(sem: Semantics, bits: int) -> bool:
    cat, _, payload, _ = decode(sem, bits)
    return cat == NAN and not payload & quiet_bit(sem)


def make_quiet(sem: Semantics, bits: int) -> int:
    """A NaN with its quiet bit set (any other value unchanged)."""
    if decode(sem, bits)[0] != NAN:
        return bits
    return bits | quiet_bit(sem)


def _round_bits(sem: Semantics, sign: int, num: int, den: int, exp2: int, rm: int = RM_NEAREST_EVEN) -> int:
    """The pattern of ``(-1)**sign * num/den * 2**exp2`` (num, den > 0) rounded to ``sem``."""
    # floor(log2(num/den))
    lg = num.bit_length() - den.bit_length()
    if (num << -lg if lg < 0 else num) < (den << lg if lg > 0 else den):
        lg -= 1
    e = lg + exp2  # value in [2**e, 2**(e+1))
    p = sem.precision
    q_exp = max(e, sem.emin) - (p - 1)
    shift = exp2 - q_exp
    if shift >= 0:
        q, r = divmod(num << shift, den)
        d = den
    else:
        d = den << -shift
        q, r = divmod(num, d)
    if r:
        up = False
        if rm == RM_NEAREST_EVEN:
            twice = r << 1
            up = twice > d or (twice == d and bool(q & 1))
        elif rm == RM_NEAREST_AWAY:
            up = (r << 1) >= d
        elif rm == RM_TOWARD_POSITIVE:
            up = not sign
        elif rm == RM_TOWARD_NEGATIVE:
            up = bool(sign)
        if up:
            q += 1
            if q == 1 << p:
                q >>= 1
                q_exp += 1
    top = _sign_bit(sem, sign)
    if q_exp + p - 1 > sem.emax:
        # Overflow: infinity, or the largest finite value when rounding toward zero's side.
        if rm == RM_TOWARD_ZERO or (rm == RM_TOWARD_POSITIVE and sign) or (rm == RM_TOWARD_NEGATIVE and not sign):
            return largest(sem, sign)
        return encode_special(sem, INF, sign)
    if q == 0:
        return top
    if q >> (p - 1):
        biased = q_exp + p - 1 + sem.bias
        frac = q if sem.explicit_int else q & ((1 << (p - 1)) - 1)
        return top | (biased << sem.frac_bits) | frac
    return top | q  # denormal


def largest(sem: Semantics, sign: int = 0) -> int:
    biased = (1 << sem.exp_bits) - 2
    frac = (1 << sem.frac_bits) - 1
    return _sign_bit(sem, sign) | (biased << sem.frac_bits) | frac


def from_exact(sem: Semantics, sign: int, num: int, den: int = 1, exp2: int = 0, rm: int = RM_NEAREST_EVEN) -> int:
    """Round an exact rational (num >= 0) to ``sem``; zero keeps ``sign``."""
    if num == 0:
        return _sign_bit(sem, sign)
    return _round_bits(sem, sign, num, den, exp2, rm)


def _nan_result(sem: Semantics, a: Unpacked, b: Unpacked, abits: int, bbits: int) -> int:
    """APFloat's NaN propagation: the left NaN, else the right one, made quiet."""
    return make_quiet(sem, abits if a[0] == NAN else bbits)


def add(sem: Semantics, abits: int, bbits: int, subtract: bool = False, rm: int = RM_NEAREST_EVEN) -> int:
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN or b[0] == NAN:
        return _nan_result(sem, a, b, abits, bbits)
    bsign = b[1] ^ (1 if subtract else 0)
    if a[0] == INF:
        if b[0] == INF and a[1] != bsign:
            return default_nan(sem)
        return abits
    if b[0] == INF:
        return encode_special(sem, INF, bsign)
    if a[0] == ZERO and b[0] == ZERO:
        if a[1] == bsign:
            return _sign_bit(sem, a[1])
        return _sign_bit(sem, 1 if rm == RM_TOWARD_NEGATIVE else 0)
    if b[0] == ZERO:
        return abits
    if a[0] == ZERO:
        return bbits ^ (_sign_bit(sem, 1) if subtract else 0)
    e = min(a[3], b[3])
    x = a[2] << (a[3] - e)
    y = b[2] << (b[3] - e)
    s = (-x if a[1] else x) + (-y if bsign else y)
    if s == 0:
        return _sign_bit(sem, 1 if rm == RM_TOWARD_NEGATIVE else 0)
    return _round_bits(sem, 1 if s < 0 else 0, abs(s), 1, e, rm)


def multiply(sem: Semantics, abits: int, bbits: int, rm: int = RM_NEAREST_EVEN) -> int:
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN or b[0] == NAN:
        return _nan_result(sem, a, b, abits, bbits)
    sign = a[1] ^ b[1]
    if a[0] == INF or b[0] == INF:
        if a[0] == ZERO or b[0] == ZERO:
            return default_nan(sem)
        return encode_special(sem, INF, sign)
    if a[0] == ZERO or b[0] == ZERO:
        return _sign_bit(sem, sign)
    return _round_bits(sem, sign, a[2] * b[2], 1, a[3] + b[3], rm)


def divide(sem: Semantics, abits: int, bbits: int, rm: int = RM_NEAREST_EVEN) -> int:
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN or b[0] == NAN:
        return _nan_result(sem, a, b, abits, bbits)
    sign = a[1] ^ b[1]
    if a[0] == INF:
        return default_nan(sem) if b[0] == INF else encode_special(sem, INF, sign)
    if b[0] == INF:
        return _sign_bit(sem, sign)
    if b[0] == ZERO:
        return default_nan(sem) if a[0] == ZERO else encode_special(sem, INF, sign)
    if a[0] == ZERO:
        return _sign_bit(sem, sign)
    return _round_bits(sem, sign, a[2], b[2], a[3] - b[3], rm)


def mod(sem: Semantics, abits: int, bbits: int) -> int:
    """``fmod``: the exact remainder of the quotient truncated toward zero (sign of the left)."""
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN or b[0] == NAN:
        return _nan_result(sem, a, b, abits, bbits)
    if a[0] == INF or b[0] == ZERO:
        return default_nan(sem)
    if a[0] == ZERO or b[0] == INF:
        return abits
    e = min(a[3], b[3])
    r = (a[2] << (a[3] - e)) % (b[2] << (b[3] - e))
    if r == 0:
        return _sign_bit(sem, a[1])
    return _round_bits(sem, a[1], r, 1, e)


def remainder(sem: Semantics, abits: int, bbits: int) -> int:
    """IEEE ``remainder``: x - n*y with n the quotient rounded to nearest-even."""
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN or b[0] == NAN:
        return _nan_result(sem, a, b, abits, bbits)
    if a[0] == INF or b[0] == ZERO:
        return default_nan(sem)
    if a[0] == ZERO or b[0] == INF:
        return abits
    e = min(a[3], b[3])
    x = a[2] << (a[3] - e)
    y = b[2] << (b[3] - e)
    n, r = divmod(x, y)
    if 2 * r > y or (2 * r == y and n & 1):
        r -= y
    if r == 0:
        return _sign_bit(sem, a[1])
    sign = a[1] ^ (1 if r < 0 else 0)
    return _round_bits(sem, sign, abs(r), 1, e)


def fma(sem: Semantics, abits: int, bbits: int, cbits: int, rm: int = RM_NEAREST_EVEN) -> int:
    """``a * b + c`` rounded once."""
    a = decode(sem, abits)
    b = decode(sem, bbits)
    c = decode(sem, cbits)
    if a[0] == NAN or b[0] == NAN:
        return _nan_result(sem, a, b, abits, bbits)
    if c[0] == NAN:
        # APFloat: the product's invalid case (0 * inf) gives the default NaN before c is seen.
        if (a[0] == INF and b[0] == ZERO) or (a[0] == ZERO and b[0] == INF):
            return default_nan(sem)
        return make_quiet(sem, cbits)
    psign = a[1] ^ b[1]
    if a[0] == INF or b[0] == INF:
        if a[0] == ZERO or b[0] == ZERO:
            return default_nan(sem)
        if c[0] == INF and c[1] != psign:
            return default_nan(sem)
        return encode_special(sem, INF, psign)
    if c[0] == INF:
        return cbits
    if a[0] == ZERO or b[0] == ZERO:
        if c[0] == ZERO:
            if psign == c[1]:
                return _sign_bit(sem, psign)
            return _sign_bit(sem, 0)
        return cbits
    pe = a[3] + b[3]
    pm = a[2] * b[2]
    if c[0] == ZERO:
        return _round_bits(sem, psign, pm, 1, pe, rm)
    e = min(pe, c[3])
    x = pm << (pe - e)
    y = c[2] << (c[3] - e)
    s = (-x if psign else x) + (-y if c[1] else y)
    if s == 0:
        return _sign_bit(sem, 1 if rm == RM_TOWARD_NEGATIVE else 0)
    return _round_bits(sem, 1 if s < 0 else 0, abs(s), 1, e, rm)


def sqrt(sem: Semantics, bits: int) -> int | None:
    """Correctly rounded square root (None for a negative operand: the caller decides)."""
    cat, sign, sig, exp = decode(sem, bits)
    if cat == NAN:
        return make_quiet(sem, bits)
    if cat == ZERO:
        return bits
    if sign:
        return None
    if cat == INF:
        return bits
    # sqrt(sig * 2**exp): make exp even and scale for precision + guard bits.
    if exp & 1:
        sig <<= 1
        exp -= 1
    k = max(0, 2 * (sem.precision + 4) - sig.bit_length())
    k += k & 1
    n = sig << k
    root = math.isqrt(n)
    exact = root * root == n
    # root <= sqrt(n) < root + 1: a sticky bit below the root keeps the rounding exact.
    num = (root << 1) | (0 if exact else 1)
    return _round_bits(sem, 0, num, 1, (exp - k) // 2 - 1)


def neg(sem: Semantics, bits: int) -> int:
    return bits ^ _sign_bit(sem, 1)


def abs_(sem: Semantics, bits: int) -> int:
    return bits & ~_sign_bit(sem, 1)


def copysign(sem: Semantics, bits: int, sign_from: int) -> int:
    s = _sign_bit(sem, 1)
    return (bits & ~s) | (sign_from & s)


# Comparison results (LLVM's APFloat::cmpResult).
CMP_LESS: Final = 0
CMP_EQUAL: Final = 1
CMP_GREATER: Final = 2
CMP_UNORDERED: Final = 3


def compare(sem: Semantics, abits: int, bbits: int) -> int:
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN or b[0] == NAN:
        return CMP_UNORDERED
    ka = _order_key(a)
    kb = _order_key(b)
    if ka[0] != kb[0]:
        return CMP_LESS if ka[0] < kb[0] else CMP_GREATER
    if ka[0] != 0:
        return CMP_EQUAL
    # Both finite.
    x = _signed_value(a)
    y = _signed_value(b)
    e = min(x[1], y[1])
    xv = x[0] << (x[1] - e)
    yv = y[0] << (y[1] - e)
    if xv == yv:
        return CMP_EQUAL
    return CMP_LESS if xv < yv else CMP_GREATER


def _order_key(u: Unpacked) -> tuple[int]:
    if u[0] == INF:
        return (-1 if u[1] else 1,)
    return (0,)


def _signed_value(u: Unpacked) -> tuple[int, int]:
    if u[0] == ZERO:
        return (0, 0)
    return (-u[2] if u[1] else u[2], u[3])


def convert(src: Semantics, dst: Semantics, bits: int, rm: int = RM_NEAREST_EVEN) -> int:
    """``fpext``/``fptrunc``: the value rounded to ``dst`` (NaN payloads moved as APFloat does)."""
    cat, sign, sig, exp = decode(src, bits)
    if cat == ZERO or cat == INF:
        return encode_special(dst, cat, sign)
    if cat == NAN:
        special = src.explicit_int and dst is not src and (not sig >> 63 & 1 or not sig >> 62 & 1)
        shift = dst.precision - src.precision
        payload = sig << shift if shift >= 0 else sig >> -shift
        if dst.explicit_int and not special:
            payload |= 1 << 63
        if not payload & quiet_bit(dst):
            # An sNaN converts to a qNaN (this also keeps a NaN that lost its payload a NaN).
            payload |= quiet_bit(dst)
        return encode_special(dst, NAN, sign, payload)
    return _round_bits(dst, sign, sig, 1, exp, rm)


def to_integer(sem: Semantics, bits: int, width: int, signed: bool, rm: int = RM_TOWARD_ZERO) -> int | None:
    """The value rounded (toward zero by default) as an integer in range, else None
    (APFloat's ``opInvalidOp``: NaN, infinity, out of range)."""
    cat, sign, sig, exp = decode(sem, bits)
    if cat == NAN or cat == INF:
        return None
    if cat == ZERO:
        return 0
    v = _round_integral_int(sign, sig, exp, rm)
    if signed:
        if not -(1 << (width - 1)) <= v < (1 << (width - 1)):
            return None
    elif not 0 <= v < (1 << width):
        return None
    return v


def _round_integral_int(sign: int, sig: int, exp: int, rm: int) -> int:
    """The signed integer a finite value rounds to in mode ``rm``."""
    if exp >= 0:
        mag = sig << exp
        return -mag if sign else mag
    q, r = divmod(sig, 1 << -exp)
    if r:
        half = 1 << (-exp - 1)
        if rm == RM_NEAREST_EVEN:
            if r > half or (r == half and q & 1):
                q += 1
        elif rm == RM_NEAREST_AWAY:
            if r >= half:
                q += 1
        elif rm == RM_TOWARD_POSITIVE:
            if not sign:
                q += 1
        elif rm == RM_TOWARD_NEGATIVE:
            if sign:
                q += 1
    return -q if sign else q


def round_to_integral(sem: Semantics, bits: int, rm: int) -> int:
    """``floor``/``ceil``/``trunc``/``round``/``roundeven``/``rint``: an integral value in
    the same format (zero keeps the sign; NaN made quiet)."""
    cat, sign, sig, exp = decode(sem, bits)
    if cat == NAN:
        return make_quiet(sem, bits)
    if cat != NORMAL or exp >= 0:
        return bits
    v = _round_integral_int(sign, sig, exp, rm)
    if v == 0:
        return _sign_bit(sem, sign)
    return _round_bits(sem, sign, abs(v), 1, 0)


def from_integer(sem: Semantics, value: int, rm: int = RM_NEAREST_EVEN) -> int:
    """``sitofp``/``uitofp`` of an exact integer."""
    if value == 0:
        return 0
    return _round_bits(sem, 1 if value < 0 else 0, abs(value), 1, 0, rm)


def category(sem: Semantics, bits: int) -> int:
    return decode(sem, bits)[0]


def is_negative(sem: Semantics, bits: int) -> bool:
    return bool((bits >> (sem.width - 1)) & 1)


def is_denormal(sem: Semantics, bits: int) -> bool:
    e = (bits >> sem.frac_bits) & ((1 << sem.exp_bits) - 1)
    return e == 0 and bool(bits & ((1 << sem.frac_bits) - 1))


def to_fraction_parts(sem: Semantics, bits: int) -> tuple[int, int] | None:
    """A finite value as (signed significand, exponent), None for inf/NaN."""
    cat, sign, sig, exp = decode(sem, bits)
    if cat == ZERO:
        return (0, 0)
    if cat != NORMAL:
        return None
    return (-sig if sign else sig, exp)


def one(sem: Semantics, sign: int = 0) -> int:
    return from_integer(sem, -1 if sign else 1)


def min_num(sem: Semantics, abits: int, bbits: int, maximum: bool) -> int:
    """``minnum``/``maxnum`` as LLVM 19's APFloat: a NaN operand gives the other one
    (unchanged); zeros of both signs give -0 (min) or +0 (max)."""
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN:
        return bbits
    if b[0] == NAN:
        return abits
    if a[0] == ZERO and b[0] == ZERO and a[1] != b[1]:
        neg_one = abits if a[1] else bbits
        pos_one = bbits if a[1] else abits
        return pos_one if maximum else neg_one
    c = compare(sem, bbits, abits)
    if maximum:
        return bbits if c == CMP_GREATER else abits
    return bbits if c == CMP_LESS else abits


def minimum(sem: Semantics, abits: int, bbits: int, maximum_: bool) -> int:
    """``minimum``/``maximum`` as LLVM 19's APFloat: a NaN operand is the result (the left
    first, unchanged); -0 < +0."""
    a = decode(sem, abits)
    b = decode(sem, bbits)
    if a[0] == NAN:
        return abits
    if b[0] == NAN:
        return bbits
    if a[0] == ZERO and b[0] == ZERO and a[1] != b[1]:
        neg_one = abits if a[1] else bbits
        pos_one = bbits if a[1] else abits
        return pos_one if maximum_ else neg_one
    c = compare(sem, bbits, abits)
    if maximum_:
        return bbits if c == CMP_GREATER else abits
    return bbits if c == CMP_LESS else abits


# --- ppc_fp128 (double-double: the high double in the low 64 bits) -------------------------------

PPC_SIGN_BITS: Final = (1 << 63) | (1 << 127)


def ppc_is_negative(bits: int) -> bool:
    return bool(bits >> 63 & 1)


def ppc_neg(bits: int) -> int:
    """APFloat ``changeSign`` of a double-double: both halves negated."""
    return bits ^ PPC_SIGN_BITS


def ppc_copysign(bits: int, sign_from: int) -> int:
    return ppc_neg(bits) if ppc_is_negative(bits) != ppc_is_negative(sign_from) else bits


def ppc_from_double(dbits: int) -> int:
    """A double as a double-double (low half +0.0)."""
    return dbits & 0xFFFFFFFFFFFFFFFF


def to_float(sem: Semantics, bits: int) -> float:
    """The value as a Python float (correctly rounded; NaN gives a NaN)."""
    dbl = SEMANTICS[TypeID.DOUBLE]
    d = bits if sem is dbl else convert(sem, dbl, bits)
    import struct

    return float(struct.unpack("<d", d.to_bytes(8, "little"))[0])


def from_float(sem: Semantics, value: float) -> int:
    """A Python float (a double) converted to ``sem`` (rounded to nearest-even)."""
    import struct

    d = int.from_bytes(struct.pack("<d", value), "little")
    dbl = SEMANTICS[TypeID.DOUBLE]
    return d if sem is dbl else convert(dbl, sem, d)


def _exact_value(u: Unpacked) -> Fraction:
    if u[0] == ZERO:
        return Fraction(0)
    v = Fraction(u[2]) * (Fraction(2) ** u[3])
    return -v if u[1] else v


def op_status_ok(sem: Semantics, op: str, operands: list[int], result: int) -> bool:
    """Whether APFloat's operation ``op`` (``fadd``, ``fsub``, ``fmul``, ``fdiv``, ``frem``,
    ``fma``) on ``operands`` giving ``result`` raised no flag (``opOK``: exact, no invalid
    operation, division by zero, overflow or underflow)."""
    us = [decode(sem, x) for x in operands]
    if any(u[0] == NAN and not u[2] & quiet_bit(sem) for u in us):
        return False
    if any(u[0] == NAN for u in us):
        return True
    r = decode(sem, result)
    if r[0] == NAN:
        return False
    if op == "fdiv" and us[1][0] == ZERO:
        return False
    if any(u[0] == INF for u in us):
        return True
    if r[0] == INF:
        return False
    if op == "frem":
        return True
    vals = [_exact_value(u) for u in us]
    if op == "fadd":
        exact = vals[0] + vals[1]
    elif op == "fsub":
        exact = vals[0] - vals[1]
    elif op == "fmul":
        exact = vals[0] * vals[1]
    elif op == "fdiv":
        exact = vals[0] / vals[1]
    elif op == "fma":
        exact = vals[0] * vals[1] + vals[2]
    else:
        return False
    return exact == _exact_value(r)
