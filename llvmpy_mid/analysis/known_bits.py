"""Known bits of an integer and their transfer functions (LLVM 19.1.7
``llvm/include/llvm/Support/KnownBits.h`` and ``llvm/lib/Support/KnownBits.cpp``).

What: :class:`KnownBits` holds, for a ``bit_width``-bit integer, the mask of bits
known to be zero and the mask known to be one (Python ints, bit ``i`` is value
``2**i``). A bit in both masks is a conflict: the value is poison or the code is
unreachable. The static transfer functions give the known bits of an
operation's result from its operands' — ``compute_for_add_sub``, ``mul``,
``udiv``/``sdiv``/``urem``/``srem``, ``shl``/``lshr``/``ashr``, the
saturating adds and subtracts, ``umax``/``umin``/``smax``/``smin``,
``abs``, byte swap and bit reversal — and the comparisons ``eq``, ``ugt``, ...
answer True/False when the known bits decide them, else None.

How: each function follows LLVM's rule for rule (so ValueTracking built on it
answers as opt-19 does); the results are sound (every concrete result agrees
with them — the tests check this exhaustively on small widths) and for
``and``/``or``/``xor``/add/sub and shifts by a known amount as precise as
LLVM's. Objects are treated as immutable: every operation returns a new one.
"""

from __future__ import annotations

from typing import Iterator


def _low(n: int) -> int:
    return (1 << n) - 1 if n > 0 else 0


def _countl_one(v: int, width: int) -> int:
    """Leading one bits of the ``width``-bit pattern ``v``."""
    inv = ~v & _low(width)
    return width - inv.bit_length()


def _countl_zero(v: int, width: int) -> int:
    return width - v.bit_length()


def _countr_one(v: int) -> int:
    return ((v + 1) & ~v).bit_length() - 1


def _countr_zero(v: int, width: int) -> int:
    if v == 0:
        return width
    return (v & -v).bit_length() - 1


def _sext(v: int, width: int) -> int:
    """The ``width``-bit pattern ``v`` read as a signed integer."""
    if width and v >> (width - 1):
        return v - (1 << width)
    return v


class KnownBits:
    """Bits known zero and known one of a ``bit_width``-bit integer (LLVM ``KnownBits``)."""

    __slots__ = ("zero", "one", "bit_width")

    zero: int
    one: int
    bit_width: int

    def __init__(self, bit_width: int, zero: int = 0, one: int = 0) -> None:
        self.bit_width = bit_width
        self.zero = zero
        self.one = one

    # --- construction -----------------------------------------------------------------------
    @staticmethod
    def make_constant(value: int, bit_width: int) -> KnownBits:
        """Every bit known: the value ``value`` (taken modulo ``2**bit_width``)."""
        mask = _low(bit_width)
        v = value & mask
        return KnownBits(bit_width, ~v & mask, v)

    @staticmethod
    def unknown(bit_width: int) -> KnownBits:
        """Nothing known."""
        return KnownBits(bit_width)

    def copy(self) -> KnownBits:
        return KnownBits(self.bit_width, self.zero, self.one)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, KnownBits)
            and self.bit_width == other.bit_width
            and self.zero == other.zero
            and self.one == other.one
        )

    def __hash__(self) -> int:
        return hash((self.bit_width, self.zero, self.one))

    def __repr__(self) -> str:
        return "KnownBits(%s)" % self.to_string()

    def to_string(self) -> str:
        """LLVM's ``print``: most significant bit first, ``0``/``1``/``?``/``!`` (conflict)."""
        out = []
        for n in range(self.bit_width - 1, -1, -1):
            z = (self.zero >> n) & 1
            o = (self.one >> n) & 1
            out.append("!" if z and o else "0" if z else "1" if o else "?")
        return "".join(out)

    # --- queries ----------------------------------------------------------------------------
    @property
    def mask(self) -> int:
        return _low(self.bit_width)

    def has_conflict(self) -> bool:
        return (self.zero & self.one) != 0

    def is_constant(self) -> bool:
        return (self.zero | self.one) == self.mask

    def get_constant(self) -> int:
        """The value when :meth:`is_constant` (its unsigned pattern)."""
        return self.one

    def is_unknown(self) -> bool:
        return self.zero == 0 and self.one == 0

    def is_sign_unknown(self) -> bool:
        bit = 1 << (self.bit_width - 1)
        return not ((self.zero | self.one) & bit)

    def is_zero(self) -> bool:
        return self.zero == self.mask

    def is_all_ones(self) -> bool:
        return self.one == self.mask

    def is_negative(self) -> bool:
        return self.bit_width > 0 and bool((self.one >> (self.bit_width - 1)) & 1)

    def is_non_negative(self) -> bool:
        return self.bit_width > 0 and bool((self.zero >> (self.bit_width - 1)) & 1)

    def is_non_zero(self) -> bool:
        return self.one != 0

    def is_strictly_positive(self) -> bool:
        return self.is_non_negative() and self.is_non_zero()

    def get_min_value(self) -> int:
        """The smallest unsigned value the bits allow."""
        return self.one

    def get_max_value(self) -> int:
        """The largest unsigned value the bits allow."""
        return ~self.zero & self.mask

    def get_signed_min_value(self) -> int:
        """The smallest signed value, as an unsigned pattern."""
        w = self.bit_width
        v = self.one
        if not ((self.zero >> (w - 1)) & 1):
            v |= 1 << (w - 1)
        return v

    def get_signed_max_value(self) -> int:
        """The largest signed value, as an unsigned pattern."""
        w = self.bit_width
        v = ~self.zero & self.mask
        if not ((self.one >> (w - 1)) & 1):
            v &= ~(1 << (w - 1))
        return v

    def count_min_trailing_zeros(self) -> int:
        return min(_countr_one(self.zero), self.bit_width)

    def count_min_trailing_ones(self) -> int:
        return min(_countr_one(self.one), self.bit_width)

    def count_min_leading_zeros(self) -> int:
        return _countl_one(self.zero, self.bit_width)

    def count_min_leading_ones(self) -> int:
        return _countl_one(self.one, self.bit_width)

    def count_min_sign_bits(self) -> int:
        if self.is_non_negative():
            return self.count_min_leading_zeros()
        if self.is_negative():
            return self.count_min_leading_ones()
        return 1

    def count_max_significant_bits(self) -> int:
        return self.bit_width - self.count_min_sign_bits() + 1

    def count_max_trailing_zeros(self) -> int:
        return _countr_zero(self.one, self.bit_width)

    def count_max_trailing_ones(self) -> int:
        return _countr_zero(self.zero, self.bit_width)

    def count_max_leading_zeros(self) -> int:
        return _countl_zero(self.one, self.bit_width)

    def count_max_leading_ones(self) -> int:
        return _countl_zero(self.zero, self.bit_width)

    def count_min_population(self) -> int:
        return bin(self.one).count("1")

    def count_max_population(self) -> int:
        return self.bit_width - bin(self.zero).count("1")

    def count_max_active_bits(self) -> int:
        return self.bit_width - self.count_min_leading_zeros()

    # --- edits (return new objects) -------------------------------------------------------
    def make_negative(self) -> KnownBits:
        bit = 1 << (self.bit_width - 1)
        return KnownBits(self.bit_width, self.zero & ~bit, self.one | bit)

    def make_non_negative(self) -> KnownBits:
        bit = 1 << (self.bit_width - 1)
        return KnownBits(self.bit_width, self.zero | bit, self.one & ~bit)

    def set_all_zero(self) -> KnownBits:
        return KnownBits(self.bit_width, self.mask, 0)

    def intersect_with(self, other: KnownBits) -> KnownBits:
        """What both know (LLVM ``intersectWith``: the result holds for a value described by either)."""
        return KnownBits(self.bit_width, self.zero & other.zero, self.one & other.one)

    def union_with(self, other: KnownBits) -> KnownBits:
        """What either knows (LLVM ``unionWith``: both describe the same value)."""
        return KnownBits(self.bit_width, self.zero | other.zero, self.one | other.one)

    # --- width changes ----------------------------------------------------------------------
    def trunc(self, width: int) -> KnownBits:
        m = _low(width)
        return KnownBits(width, self.zero & m, self.one & m)

    def anyext(self, width: int) -> KnownBits:
        return KnownBits(width, self.zero, self.one)

    def zext(self, width: int) -> KnownBits:
        high = _low(width) & ~self.mask
        return KnownBits(width, self.zero | high, self.one)

    def sext(self, width: int) -> KnownBits:
        high = _low(width) & ~self.mask
        zero, one = self.zero, self.one
        sign = 1 << (self.bit_width - 1)
        if zero & sign:
            zero |= high
        if one & sign:
            one |= high
        return KnownBits(width, zero, one)

    def zext_or_trunc(self, width: int) -> KnownBits:
        if width > self.bit_width:
            return self.zext(width)
        if width < self.bit_width:
            return self.trunc(width)
        return self

    def sext_or_trunc(self, width: int) -> KnownBits:
        if width > self.bit_width:
            return self.sext(width)
        if width < self.bit_width:
            return self.trunc(width)
        return self

    def anyext_or_trunc(self, width: int) -> KnownBits:
        if width > self.bit_width:
            return self.anyext(width)
        if width < self.bit_width:
            return self.trunc(width)
        return self

    def sext_in_reg(self, src_width: int) -> KnownBits:
        """Sign-extend the low ``src_width`` bits in place."""
        if src_width == self.bit_width:
            return self
        return self.trunc(src_width).sext(self.bit_width)

    def extract_bits(self, num_bits: int, position: int) -> KnownBits:
        m = _low(num_bits)
        return KnownBits(num_bits, (self.zero >> position) & m, (self.one >> position) & m)

    def concat(self, lo: KnownBits) -> KnownBits:
        """This value above ``lo``."""
        s = lo.bit_width
        return KnownBits(self.bit_width + s, (self.zero << s) | lo.zero, (self.one << s) | lo.one)

    def make_ge(self, val: int) -> KnownBits:
        """These bits narrowed by "the value is unsigned-greater-or-equal to ``val``"."""
        w = self.bit_width
        n = _countl_one(self.zero | val, w)
        masked = val & ~_low(w - n)
        return KnownBits(w, self.zero, self.one | masked)

    # --- bitwise ------------------------------------------------------------------------------
    def __and__(self, other: KnownBits) -> KnownBits:
        return KnownBits(self.bit_width, self.zero | other.zero, self.one & other.one)

    def __or__(self, other: KnownBits) -> KnownBits:
        return KnownBits(self.bit_width, self.zero & other.zero, self.one | other.one)

    def __xor__(self, other: KnownBits) -> KnownBits:
        z = (self.zero & other.zero) | (self.one & other.one)
        o = (self.zero & other.one) | (self.one & other.zero)
        return KnownBits(self.bit_width, z, o)

    def __invert__(self) -> KnownBits:
        return KnownBits(self.bit_width, self.one, self.zero)

    def byte_swap(self) -> KnownBits:
        n = self.bit_width // 8
        return KnownBits(
            self.bit_width,
            int.from_bytes(self.zero.to_bytes(n, "little"), "big"),
            int.from_bytes(self.one.to_bytes(n, "little"), "big"),
        )

    def reverse_bits(self) -> KnownBits:
        w = self.bit_width

        def rev(v: int) -> int:
            return int(format(v, "0%db" % w)[::-1], 2) if w else 0

        return KnownBits(w, rev(self.zero), rev(self.one))

    # --- arithmetic -----------------------------------------------------------------------
    @staticmethod
    def _add_carry(lhs: KnownBits, rhs: KnownBits, carry_zero: bool, carry_one: bool) -> KnownBits:
        w = lhs.bit_width
        m = _low(w)
        sum_zero = (lhs.get_max_value() + rhs.get_max_value() + (0 if carry_zero else 1)) & m
        sum_one = (lhs.get_min_value() + rhs.get_min_value() + (1 if carry_one else 0)) & m
        carry_known_zero = ~(sum_zero ^ lhs.zero ^ rhs.zero) & m
        carry_known_one = (sum_one ^ lhs.one ^ rhs.one) & m
        known = (lhs.zero | lhs.one) & (rhs.zero | rhs.one) & (carry_known_zero | carry_known_one)
        return KnownBits(w, ~sum_zero & known, sum_one & known)

    @staticmethod
    def compute_for_add_carry(lhs: KnownBits, rhs: KnownBits, carry: KnownBits) -> KnownBits:
        """``lhs + rhs + carry`` with a 1-bit carry."""
        return KnownBits._add_carry(lhs, rhs, bool(carry.zero & 1), bool(carry.one & 1))

    @staticmethod
    def compute_for_sub_borrow(lhs: KnownBits, rhs: KnownBits, borrow: KnownBits) -> KnownBits:
        """``lhs - rhs - borrow`` with a 1-bit borrow."""
        return KnownBits._add_carry(lhs, ~rhs, bool(borrow.one & 1), bool(borrow.zero & 1))

    @staticmethod
    def compute_for_add_sub(add: bool, nsw: bool, nuw: bool, lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        """``lhs + rhs`` (``add``) or ``lhs - rhs``, with the wrap flags' knowledge."""
        w = lhs.bit_width
        if lhs.is_unknown() and rhs.is_unknown():
            return KnownBits(w)
        m = _low(w)
        top = w - 1
        if not lhs.is_unknown() and not rhs.is_unknown():
            if add:
                out = KnownBits._add_carry(lhs, rhs, True, False)
            else:
                out = KnownBits._add_carry(lhs, ~rhs, False, True)
            zero, one = out.zero, out.one
        else:
            zero = one = 0
        if nuw:
            if add:
                min_val = min(lhs.get_min_value() + rhs.get_min_value(), m)
                if nsw:
                    n = _countl_one(min_val & _low(top), top)
                    one |= _low(top) & ~_low(top - n)
                one |= m & ~_low(w - _countl_one(min_val, w))
            else:
                max_val = max(lhs.get_max_value() - rhs.get_min_value(), 0)
                if nsw:
                    n = _countl_zero(max_val & _low(top), top)
                    zero |= _low(top) & ~_low(top - n)
                zero |= m & ~_low(w - _countl_zero(max_val, w))
        if nsw:
            smin = -(1 << top)
            smax = (1 << top) - 1
            if add:
                lo = _sext(lhs.get_signed_min_value(), w) + _sext(rhs.get_signed_min_value(), w)
                hi = _sext(lhs.get_signed_max_value(), w) + _sext(rhs.get_signed_max_value(), w)
            else:
                lo = _sext(lhs.get_signed_min_value(), w) - _sext(rhs.get_signed_max_value(), w)
                hi = _sext(lhs.get_signed_max_value(), w) - _sext(rhs.get_signed_min_value(), w)
            lo = min(max(lo, smin), smax)
            hi = min(max(hi, smin), smax)
            sign = 1 << top
            if lo >= 0:
                n = _countl_one(lo & _low(top), top)
                one |= _low(top) & ~_low(top - n)
                zero |= sign
            if hi < 0:
                n = _countl_zero(hi & _low(top), top)
                zero |= _low(top) & ~_low(top - n)
                one |= sign
        if zero & one:
            return KnownBits(w, m, 0)
        return KnownBits(w, zero, one)

    @staticmethod
    def _sat_add_sub(add: bool, signed: bool, lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        res = KnownBits.compute_for_add_sub(add, False, False, lhs, rhs)
        w = res.bit_width
        m = _low(w)
        sign = 1 << (w - 1)
        zero, one = res.zero, res.one

        def sign_known(k: KnownBits) -> bool:
            return bool((k.zero | k.one) & sign)

        overflow: bool | None = None
        if signed:
            if sign_known(lhs) and sign_known(rhs) and sign_known(res):
                if add:
                    overflow = (
                        lhs.is_non_negative() == rhs.is_non_negative()
                        and res.is_non_negative() != lhs.is_non_negative()
                    )
                else:
                    overflow = (
                        lhs.is_non_negative() != rhs.is_non_negative()
                        and res.is_non_negative() != lhs.is_non_negative()
                    )
        elif add:
            if lhs.get_max_value() + rhs.get_max_value() <= m:
                overflow = False
            elif lhs.get_min_value() + rhs.get_min_value() > m:
                overflow = True
        else:
            if lhs.get_min_value() >= rhs.get_max_value():
                overflow = False
            elif lhs.get_max_value() < rhs.get_min_value():
                overflow = True
        if signed:
            if add:
                if lhs.is_non_negative() and rhs.is_non_negative():
                    one &= ~sign
                    zero |= sign
                if lhs.is_negative() and rhs.is_negative():
                    one |= sign
                    zero &= ~sign
            else:
                if lhs.is_negative() and rhs.is_non_negative():
                    one |= sign
                    zero &= ~sign
                elif lhs.is_non_negative() and rhs.is_negative():
                    one &= ~sign
                    zero |= sign
        else:
            if add:
                leading = max(lhs.count_min_leading_ones(), rhs.count_min_leading_ones())
            else:
                leading = max(lhs.count_min_leading_zeros(), rhs.count_min_leading_ones())
            high = m & ~_low(w - leading)
            if add:
                one |= high
                zero &= ~high
            else:
                zero |= high
                one &= ~high
        if overflow is not None:
            if not overflow:
                return KnownBits(w, zero, one)
            if signed:
                c = sign if lhs.is_negative() else sign - 1
            elif add:
                c = m
            else:
                c = 0
            return KnownBits(w, ~c & m, c)
        if signed:
            zero &= sign
            one &= sign
        elif add:
            zero = 0
        else:
            one = 0
        return KnownBits(w, zero, one)

    @staticmethod
    def sadd_sat(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        return KnownBits._sat_add_sub(True, True, lhs, rhs)

    @staticmethod
    def ssub_sat(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        return KnownBits._sat_add_sub(False, True, lhs, rhs)

    @staticmethod
    def uadd_sat(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        return KnownBits._sat_add_sub(True, False, lhs, rhs)

    @staticmethod
    def usub_sat(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        return KnownBits._sat_add_sub(False, False, lhs, rhs)

    @staticmethod
    def mul(lhs: KnownBits, rhs: KnownBits, no_undef_self_multiply: bool = False) -> KnownBits:
        """``lhs * rhs``; ``no_undef_self_multiply`` when both are one well-defined value."""
        w = lhs.bit_width
        m = _low(w)
        prod = lhs.get_max_value() * rhs.get_max_value()
        lead_z = 0 if prod > m else _countl_zero(prod, w)
        trail_known0 = min(_countr_one(lhs.zero | lhs.one), w)
        trail_known1 = min(_countr_one(rhs.zero | rhs.one), w)
        trail_zero0 = lhs.count_min_trailing_zeros()
        trail_zero1 = rhs.count_min_trailing_zeros()
        trail_z = trail_zero0 + trail_zero1
        smallest = min(trail_known0 - trail_zero0, trail_known1 - trail_zero1)
        result_known = min(smallest + trail_z, w)
        bottom = ((lhs.one & _low(trail_known0)) * (rhs.one & _low(trail_known1))) & m
        low = _low(result_known)
        zero = (m & ~_low(w - lead_z)) | (~bottom & low)
        one = bottom & low
        if no_undef_self_multiply and w > 1:
            zero |= 2
        return KnownBits(w, zero, one)

    @staticmethod
    def mulhs(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        w = lhs.bit_width
        return KnownBits.mul(lhs.sext(2 * w), rhs.sext(2 * w)).extract_bits(w, w)

    @staticmethod
    def mulhu(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        w = lhs.bit_width
        return KnownBits.mul(lhs.zext(2 * w), rhs.zext(2 * w)).extract_bits(w, w)

    @staticmethod
    def _div_low_bit(known: KnownBits, lhs: KnownBits, rhs: KnownBits, exact: bool) -> KnownBits:
        if not exact:
            return known
        w = known.bit_width
        zero, one = known.zero, known.one
        if lhs.one & 1:
            one |= 1
        min_tz = lhs.count_min_trailing_zeros() - rhs.count_max_trailing_zeros()
        max_tz = lhs.count_max_trailing_zeros() - rhs.count_min_trailing_zeros()
        if min_tz >= 0:
            zero |= _low(min_tz)
            if min_tz == max_tz:
                one |= (1 << min_tz) & _low(w)
        elif max_tz < 0:
            zero, one = _low(w), 0
        if zero & one:
            return KnownBits(w, _low(w), 0)
        return KnownBits(w, zero, one)

    @staticmethod
    def udiv(lhs: KnownBits, rhs: KnownBits, exact: bool = False) -> KnownBits:
        w = lhs.bit_width
        if lhs.is_zero() or rhs.is_zero():
            return KnownBits(w, _low(w), 0)
        min_denom = rhs.get_min_value()
        max_num = lhs.get_max_value()
        max_res = max_num if min_denom == 0 else max_num // min_denom
        lead_z = _countl_zero(max_res, w)
        known = KnownBits(w, _low(w) & ~_low(w - lead_z), 0)
        return KnownBits._div_low_bit(known, lhs, rhs, exact)

    @staticmethod
    def sdiv(lhs: KnownBits, rhs: KnownBits, exact: bool = False) -> KnownBits:
        if lhs.is_non_negative() and rhs.is_non_negative():
            return KnownBits.udiv(lhs, rhs, exact)
        w = lhs.bit_width
        m = _low(w)
        if lhs.is_zero() or rhs.is_zero():
            return KnownBits(w, m, 0)

        def sdiv_trunc(a: int, b: int) -> int:
            q = abs(a) // abs(b)
            return q if (a < 0) == (b < 0) else -q

        res: int | None = None
        smin = -(1 << (w - 1))
        if lhs.is_negative() and rhs.is_negative():
            denom = _sext(rhs.get_signed_max_value(), w)
            num = _sext(lhs.get_signed_min_value(), w)
            res = (1 << (w - 1)) - 1 if (num == smin and denom == -1) else sdiv_trunc(num, denom)
        elif lhs.is_negative() and rhs.is_non_negative():
            if exact or ((-lhs.get_signed_max_value()) & m) >= rhs.get_signed_max_value():
                denom = _sext(rhs.get_signed_min_value(), w)
                num = _sext(lhs.get_signed_min_value(), w)
                res = num if denom == 0 else sdiv_trunc(num, denom)
        elif lhs.is_strictly_positive() and rhs.is_negative():
            if exact or lhs.get_signed_min_value() >= ((-rhs.get_signed_min_value()) & m):
                denom = _sext(rhs.get_signed_max_value(), w)
                num = _sext(lhs.get_signed_max_value(), w)
                res = sdiv_trunc(num, denom)
        zero = one = 0
        if res is not None:
            r = res & m
            if res >= 0:
                zero = m & ~_low(w - _countl_zero(r, w))
            else:
                one = m & ~_low(w - _countl_one(r, w))
        return KnownBits._div_low_bit(KnownBits(w, zero, one), lhs, rhs, exact)

    @staticmethod
    def rem_get_low_bits(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        w = lhs.bit_width
        if not rhs.is_zero() and (rhs.zero & 1):
            low = _low(rhs.count_min_trailing_zeros())
            return KnownBits(w, lhs.zero & low, lhs.one & low)
        return KnownBits(w)

    @staticmethod
    def urem(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        known = KnownBits.rem_get_low_bits(lhs, rhs)
        w = lhs.bit_width
        m = _low(w)
        if rhs.is_constant() and _is_power_of_two(rhs.get_constant()):
            high = ~(rhs.get_constant() - 1) & m
            return KnownBits(w, known.zero | high, known.one)
        leaders = max(lhs.count_min_leading_zeros(), rhs.count_min_leading_zeros())
        return KnownBits(w, known.zero | (m & ~_low(w - leaders)), known.one)

    @staticmethod
    def srem(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        known = KnownBits.rem_get_low_bits(lhs, rhs)
        w = lhs.bit_width
        m = _low(w)
        zero, one = known.zero, known.one
        if rhs.is_constant() and _is_power_of_two(rhs.get_constant()):
            low_bits = rhs.get_constant() - 1
            if lhs.is_non_negative() or (low_bits & ~lhs.zero) == 0:
                zero |= ~low_bits & m
            if lhs.is_negative() and (low_bits & lhs.one):
                one |= ~low_bits & m
            return KnownBits(w, zero, one)
        zero |= m & ~_low(w - lhs.count_min_leading_zeros())
        return KnownBits(w, zero, one)

    # --- min/max ------------------------------------------------------------------------------
    @staticmethod
    def umax(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        if lhs.get_min_value() >= rhs.get_max_value():
            return lhs
        if rhs.get_min_value() >= lhs.get_max_value():
            return rhs
        left = lhs.make_ge(rhs.get_min_value())
        right = rhs.make_ge(lhs.get_min_value())
        return left.intersect_with(right)

    @staticmethod
    def umin(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        return ~KnownBits.umax(~lhs, ~rhs)

    @staticmethod
    def _flip_sign_max(k: KnownBits) -> KnownBits:
        sign = 1 << (k.bit_width - 1)
        zero = (k.zero & ~sign) | (k.one & sign)
        one = (k.one & ~sign) | (k.zero & sign)
        return KnownBits(k.bit_width, zero, one)

    @staticmethod
    def _flip_sign_min(k: KnownBits) -> KnownBits:
        sign = 1 << (k.bit_width - 1)
        zero = (k.one & ~sign) | (k.zero & sign)
        one = (k.zero & ~sign) | (k.one & sign)
        return KnownBits(k.bit_width, zero, one)

    @staticmethod
    def smax(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        f = KnownBits._flip_sign_max
        return f(KnownBits.umax(f(lhs), f(rhs)))

    @staticmethod
    def smin(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        f = KnownBits._flip_sign_min
        return f(KnownBits.umax(f(lhs), f(rhs)))

    @staticmethod
    def abdu(lhs: KnownBits, rhs: KnownBits) -> KnownBits:
        diff = KnownBits.compute_for_add_sub(False, False, True, KnownBits.umax(lhs, rhs), KnownBits.umin(lhs, rhs))
        d0 = KnownBits.compute_for_add_sub(False, False, False, lhs, rhs)
        d1 = KnownBits.compute_for_add_sub(False, False, False, rhs, lhs)
        return diff.union_with(d0.intersect_with(d1))

    # --- shifts -------------------------------------------------------------------------------
    @staticmethod
    def _shift_amounts(rhs: KnownBits, min_amt: int, max_amt: int) -> Iterator[int]:
        """The shift amounts in ``[min_amt, max_amt]`` consistent with ``rhs``'s known bits
        (LLVM's shift transfer functions try each)."""
        zmask = rhs.zero & 0xFFFFFFFF
        omask = rhs.one & 0xFFFFFFFF
        for amt in range(min_amt, max_amt + 1):
            if not (zmask & amt) and (omask | amt) == amt:
                yield amt

    @staticmethod
    def _max_shift_amount(max_value: int, w: int) -> int:
        if w & (w - 1) == 0:
            return max_value & (w - 1)
        return min(max_value, w - 1)

    @staticmethod
    def shl(
        lhs: KnownBits, rhs: KnownBits, nuw: bool = False, nsw: bool = False, sh_amt_non_zero: bool = False
    ) -> KnownBits:
        w = lhs.bit_width
        m = _low(w)
        sign = 1 << (w - 1)
        min_amt = min(rhs.get_min_value(), w)
        if min_amt == 0 and sh_amt_non_zero:
            min_amt = 1
        if lhs.is_unknown():
            zero = _low(min(min_amt, w))
            if nuw and nsw and min_amt != 0:
                zero |= sign
            return KnownBits(w, zero & m, 0)
        max_amt = KnownBits._max_shift_amount(rhs.get_max_value(), w)
        # LLVM computes these bounds in unsigned arithmetic: 0 - 1 wraps to "no bound".
        if nuw and nsw:
            max_amt = min(max_amt, _unsigned_dec(lhs.count_max_leading_zeros()))
        if nuw:
            max_amt = min(max_amt, lhs.count_max_leading_zeros())
        if nsw:
            max_amt = min(max_amt, _unsigned_dec(max(lhs.count_max_leading_zeros(), lhs.count_max_leading_ones())))
        if min_amt == 0 and max_amt == w - 1 and (w & (w - 1)) == 0:
            zero = _low(lhs.count_min_trailing_zeros())
            one = sign if lhs.is_all_ones() else 0
            if nsw:
                if lhs.is_non_negative():
                    zero, one = zero | sign, one & ~sign
                if lhs.is_negative():
                    zero, one = zero & ~sign, one | sign
            return KnownBits(w, zero, one)
        zero = one = m
        for amt in KnownBits._shift_amounts(rhs, min_amt, max_amt):
            kz = ((lhs.zero << amt) | _low(amt)) & m
            ko = (lhs.one << amt) & m
            if nsw:
                out_zero = _ushl_overflows(lhs.zero, amt, w)
                out_one = _ushl_overflows(lhs.one, amt, w)
                if nuw and amt != 0:
                    out_zero = True
                if out_zero:
                    kz, ko = kz | sign, ko & ~sign
                elif out_one:
                    kz, ko = kz & ~sign, ko | sign
            zero &= kz
            one &= ko
            if zero == 0 and one == 0:
                break
        if zero & one:
            return KnownBits(w, m, 0)
        return KnownBits(w, zero, one)

    @staticmethod
    def lshr(lhs: KnownBits, rhs: KnownBits, sh_amt_non_zero: bool = False, exact: bool = False) -> KnownBits:
        w = lhs.bit_width
        m = _low(w)
        min_amt = min(rhs.get_min_value(), w)
        if min_amt == 0 and sh_amt_non_zero:
            min_amt = 1
        if lhs.is_unknown():
            return KnownBits(w, m & ~_low(w - min_amt), 0)
        max_amt = KnownBits._max_shift_amount(rhs.get_max_value(), w)
        if exact:
            first_one = lhs.count_max_trailing_zeros()
            if first_one < min_amt:
                return KnownBits(w, m, 0)
            max_amt = min(max_amt, first_one)
        zero = one = m
        for amt in KnownBits._shift_amounts(rhs, min_amt, max_amt):
            kz = (lhs.zero >> amt) | (m & ~_low(w - amt))
            ko = lhs.one >> amt
            zero &= kz
            one &= ko
            if zero == 0 and one == 0:
                break
        if zero & one:
            return KnownBits(w, m, 0)
        return KnownBits(w, zero, one)

    @staticmethod
    def ashr(lhs: KnownBits, rhs: KnownBits, sh_amt_non_zero: bool = False, exact: bool = False) -> KnownBits:
        w = lhs.bit_width
        m = _low(w)
        min_amt = min(rhs.get_min_value(), w)
        if min_amt == 0 and sh_amt_non_zero:
            min_amt = 1
        if lhs.is_unknown():
            if min_amt == w:
                return KnownBits(w, m, 0)
            return KnownBits(w)
        max_amt = KnownBits._max_shift_amount(rhs.get_max_value(), w)
        if exact:
            first_one = lhs.count_max_trailing_zeros()
            if first_one < min_amt:
                return KnownBits(w, m, 0)
            max_amt = min(max_amt, first_one)
        zero = one = m
        for amt in KnownBits._shift_amounts(rhs, min_amt, max_amt):
            zero &= _ashr_pattern(lhs.zero, amt, w)
            one &= _ashr_pattern(lhs.one, amt, w)
            if zero == 0 and one == 0:
                break
        if zero & one:
            return KnownBits(w, m, 0)
        return KnownBits(w, zero, one)

    # --- comparisons: True/False when decided, else None --------------------------------
    @staticmethod
    def eq(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        if lhs.is_constant() and rhs.is_constant():
            return lhs.get_constant() == rhs.get_constant()
        if (lhs.one & rhs.zero) or (rhs.one & lhs.zero):
            return False
        return None

    @staticmethod
    def ne(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        r = KnownBits.eq(lhs, rhs)
        return None if r is None else not r

    @staticmethod
    def ugt(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        if lhs.get_max_value() <= rhs.get_min_value():
            return False
        if lhs.get_min_value() > rhs.get_max_value():
            return True
        return None

    @staticmethod
    def uge(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        r = KnownBits.ugt(rhs, lhs)
        return None if r is None else not r

    @staticmethod
    def ult(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        return KnownBits.ugt(rhs, lhs)

    @staticmethod
    def ule(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        return KnownBits.uge(rhs, lhs)

    @staticmethod
    def sgt(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        w = lhs.bit_width
        if _sext(lhs.get_signed_max_value(), w) <= _sext(rhs.get_signed_min_value(), w):
            return False
        if _sext(lhs.get_signed_min_value(), w) > _sext(rhs.get_signed_max_value(), w):
            return True
        return None

    @staticmethod
    def sge(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        r = KnownBits.sgt(rhs, lhs)
        return None if r is None else not r

    @staticmethod
    def slt(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        return KnownBits.sgt(rhs, lhs)

    @staticmethod
    def sle(lhs: KnownBits, rhs: KnownBits) -> bool | None:
        return KnownBits.sge(rhs, lhs)

    # --- unary --------------------------------------------------------------------------------
    def abs(self, int_min_is_poison: bool = False) -> KnownBits:
        """``llvm.abs``; ``int_min_is_poison`` is its second operand."""
        if self.is_non_negative():
            return self
        w = self.bit_width
        m = _low(w)
        sign = 1 << (w - 1)
        if self.is_negative():
            tmp = self
            if int_min_is_poison and bin(self.zero).count("1") + 2 == w:
                tmp = KnownBits(w, self.zero, self.one | (1 << self.count_min_trailing_zeros()))
            result = KnownBits.compute_for_add_sub(False, int_min_is_poison, False, KnownBits.make_constant(0, w), tmp)
            if int_min_is_poison and tmp.count_min_population() == 1 and tmp.count_max_population() != 1:
                tmp = KnownBits(w, tmp.zero | sign, tmp.one & ~sign)
                lo = w - tmp.count_min_leading_zeros()
                bits = _low(w - 1) & ~_low(lo)
                result = KnownBits(w, result.zero, result.one | bits)
            return result
        max_tz = self.count_max_trailing_zeros()
        min_tz = self.count_min_trailing_zeros()
        zero = _low(min_tz)
        one = 0
        if max_tz == min_tz and max_tz < w:
            one |= 1 << max_tz
        if int_min_is_poison or (self.one != 0 and self.one != sign):
            one &= ~sign
            zero |= sign
        return KnownBits(w, zero & m, one)

    def blsi(self) -> KnownBits:
        """``x & -x``."""
        w = self.bit_width
        mx = self.count_max_trailing_zeros()
        zero = self.zero | (_low(w) & ~_low(min(mx + 1, w)))
        mn = self.count_min_trailing_zeros()
        one = (1 << mx) if (mx == mn and mx < w) else 0
        return KnownBits(w, zero, one)

    def blsmsk(self) -> KnownBits:
        """``x ^ (x - 1)``."""
        w = self.bit_width
        mx = self.count_max_trailing_zeros()
        zero = _low(w) & ~_low(min(mx + 1, w))
        one = _low(min(self.count_min_trailing_zeros() + 1, w))
        return KnownBits(w, zero, one)


def _unsigned_dec(v: int) -> int:
    """``v - 1`` in 32-bit unsigned arithmetic (0 wraps to 2**32 - 1)."""
    return v - 1 if v else 0xFFFFFFFF


def _is_power_of_two(v: int) -> bool:
    return v > 0 and (v & (v - 1)) == 0


def _ushl_overflows(v: int, amt: int, w: int) -> bool:
    """APInt ``ushl_ov``: shifting ``v`` left by ``amt`` loses a set bit."""
    if amt >= w:
        return v != 0
    return (v >> (w - amt)) != 0


def _ashr_pattern(v: int, amt: int, w: int) -> int:
    """The ``w``-bit pattern ``v`` shifted right arithmetically by ``amt``."""
    return (_sext(v, w) >> amt) & _low(w)
