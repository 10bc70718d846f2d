"""The fixed-point numbers block frequencies are computed with: LLVM's ``BranchProbability``
(a numerator over 2**31), ``BlockMass`` (a saturating 64-bit fraction of 1) and
``ScaledNumber<uint64_t>`` (64 significant bits times a power of two), with the same
rounding as LLVM 19, so frequencies come out bit-identical.

What: :func:`probability` (the numerator of ``n / d``), :func:`scale_by_probability`,
the :class:`Scaled` value type (product, quotient, comparison, ``to_int``) and
:func:`format_scaled` (the decimal text ``print<block-freq>`` shows for ``float =``).

How: Python integers hold the exact values; each operation rounds where LLVM's 64-bit
arithmetic rounds (products keep the 64 leading bits rounding half up on the next bit;
quotients are built to 64 bits and rounded on the remainder; probabilities round to
nearest). Learned from LLVM's documentation and by comparing with opt-19's printers.

What it does not do: exponents are not clamped to LLVM's +-16383 range, and numbers
below 2**-120 or above 2**64 print through a plain ``%g``-style fallback (LLVM switches
to its APFloat printer there; such frequencies do not occur on ordinary code).
"""

from __future__ import annotations

__all__ = [
    "ONE",
    "MASS_FULL",
    "Scaled",
    "format_scaled",
    "probability",
    "scale_by_probability",
]

ONE = 1 << 31  # BranchProbability's denominator
MASS_FULL = (1 << 64) - 1
_M64 = (1 << 64) - 1


def probability(n: int, d: int) -> int:
    """Numerator over 2**31 of ``n / d`` rounded to nearest (``d`` > 0, ``n`` <= ``d``)."""
    if d == ONE:
        return n
    return (n * ONE + d // 2) // d


def scale_by_probability(value: int, num: int) -> int:
    """``value * num / 2**31`` rounded down (``value`` a 64-bit mass)."""
    if value == 0 or num == ONE:
        return value
    return min((value * num) >> 31, _M64)


class Scaled:
    """``digits * 2**scale`` with ``digits`` < 2**64 (LLVM's ``ScaledNumber<uint64_t>``)."""

    __slots__ = ("digits", "scale")

    def __init__(self, digits: int, scale: int = 0) -> None:
        self.digits = digits
        self.scale = scale

    @classmethod
    def from_mass(cls, mass: int) -> Scaled:
        """A block mass as a fraction of 1 (a full mass is exactly 1)."""
        if mass == MASS_FULL:
            return cls(1, 0)
        return cls(mass + 1, -64)

    def is_zero(self) -> bool:
        return self.digits == 0

    def _key(self) -> tuple[int, int]:
        return self.digits, self.scale

    def compare(self, other: Scaled) -> int:
        a, b = self.digits, other.digits
        if a == 0 or b == 0:
            return (a > b) - (a < b)
        sa, sb = self.scale, other.scale
        # compare a * 2**sa with b * 2**sb exactly
        if sa >= sb:
            a <<= sa - sb
        else:
            b <<= sb - sa
        return (a > b) - (a < b)

    def __mul__(self, other: Scaled) -> Scaled:
        if self.digits == 0:
            return self
        if other.digits == 0:
            return other
        product = self.digits * other.digits
        shift = product.bit_length() - 64
        if shift <= 0:
            return Scaled(product, self.scale + other.scale)
        digits = product >> shift
        if (product >> (shift - 1)) & 1:
            digits += 1
            if digits >> 64:
                return Scaled(1 << 63, self.scale + other.scale + shift + 1)
        return Scaled(digits, self.scale + other.scale + shift)

    def __truediv__(self, other: Scaled) -> Scaled:
        if self.digits == 0:
            return self
        if other.digits == 0:
            return Scaled(_M64, 16383)
        digits, shift = _quotient(self.digits, other.digits)
        return Scaled(digits, shift + self.scale - other.scale)

    def inverse(self) -> Scaled:
        return Scaled(1, 0) / self

    def to_int(self) -> int:
        """Rounded down, saturating at 2**64 - 1; 0 below 1."""
        if self.digits == 0:
            return 0
        if self.scale >= 0:
            if self.digits.bit_length() + self.scale > 64:
                return _M64
            return self.digits << self.scale
        if -self.scale >= 64:
            return 0
        return self.digits >> -self.scale

    def __repr__(self) -> str:
        return "Scaled(%d, %d)" % (self.digits, self.scale)


def _quotient(dividend: int, divisor: int) -> tuple[int, int]:
    """64 significant bits of ``dividend / divisor`` as (digits, power of two)."""
    shift = 0
    tz = (divisor & -divisor).bit_length() - 1
    if tz:
        divisor >>= tz
        shift -= tz
    if divisor == 1:
        return dividend, shift
    lz = 64 - dividend.bit_length()
    if lz:
        dividend <<= lz
        shift -= lz
    quotient, rem = divmod(dividend, divisor)
    # Long division, one bit at a time, until the quotient has 64 bits or nothing is left.
    while quotient < (1 << 63) and rem:
        rem <<= 1
        shift -= 1
        quotient <<= 1
        if rem >= divisor:
            quotient |= 1
            rem -= divisor
    if rem >= (divisor >> 1) + (divisor & 1):
        quotient += 1
        if quotient >> 64:
            return 1 << 63, shift + 1
    return quotient, shift


def _strip_zeros(text: str) -> str:
    end = len(text)
    while end > 0 and text[end - 1] == "0":
        end -= 1
    if end > 0 and text[end - 1] == ".":
        end += 1
    return text[:end]


def format_scaled(value: Scaled, precision: int = 5) -> str:
    """The decimal text LLVM prints for a scaled number with ``precision`` significant digits."""
    d, e = value.digits, value.scale
    if d == 0:
        return "0.0"
    whole = 0
    frac = 0  # 64-bit fraction
    low = 0  # further fraction bits (below 2**-64), 64 bits
    low_shift = 0
    if e == 0:
        whole = d
    elif e > 0:
        room = 64 - d.bit_length()
        if room >= e:
            whole = d << e
    elif e > -64:
        whole = d >> -e
        frac = (d << (64 + e)) & _M64
    elif e == -64:
        frac = d
    elif e > -120:
        frac = d >> (-e - 64)
        low = (d << (128 + e)) & _M64
        low_shift = -64 - e
    if whole == 0 and frac == 0:
        return _fallback(d, e, precision)
    text = str(whole) if whole else "0"
    significant = len(text) if whole else 0
    if frac == 0:
        return text + ".0"
    text += "."
    after_dot = len(text)
    error = 1
    low = ((frac & 0xF) << 56) | (low >> 8)
    frac >>= 4
    m60 = _M64 >> 4
    since_dot = 0
    while True:
        if low_shift:
            low_shift -= 1
            error = (error * 5) & _M64
        else:
            error = (error * 10) & _M64
        frac = (frac * 10) & _M64
        low = (low * 10) & _M64
        frac = (frac + (low >> 60)) & _M64
        low &= m60
        digit = frac >> 60
        text += chr(48 + digit)
        frac &= m60
        if significant or digit != 0:
            significant += 1
        since_dot += 1
        if not error:
            break
        if ((frac << 4) & _M64 | (low >> 60)) < error // 2:
            break
        if precision and significant > precision and since_dot >= 2:
            break
    if not precision or significant <= precision:
        return _strip_zeros(text)
    cut = max(len(text) - (significant - precision), after_dot + 1)
    if cut >= len(text):
        return _strip_zeros(text)
    if text[cut] < "5":
        return _strip_zeros(text[:cut])
    chars = list(text[:cut])
    carry = True
    for i in range(len(chars) - 1, -1, -1):
        c = chars[i]
        if c == ".":
            continue
        if c == "9":
            chars[i] = "0"
            continue
        chars[i] = chr(ord(c) + 1)
        carry = False
        break
    return _strip_zeros(("1" if carry else "") + "".join(chars))


def _fallback(d: int, e: int, precision: int) -> str:
    value = d * 2.0**e if e > -1000 else 0.0
    return "%.*g" % (precision, value)
