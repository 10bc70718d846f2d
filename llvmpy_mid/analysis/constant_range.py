"""Ranges of integers modulo 2**w (LLVM 19.1.7 ``llvm/lib/IR/ConstantRange.cpp``,
``llvm/include/llvm/IR/ConstantRange.h``).

What: :class:`ConstantRange` is the half-open interval ``[lower, upper)`` of
``bit_width``-bit values, wrapping around zero when ``lower > upper``;
``lower == upper`` is the full set when both are the maximum value and the
empty set when both are zero. Bounds are Python ints holding the unsigned bit
pattern. The operations — ``add``/``sub``/``multiply``/``udiv``/``sdiv``/
``urem``/``srem``/``shl``/``lshr``/``ashr``/``binary_and``/``binary_or``/
``binary_xor`` (and ``binary_op`` dispatching on an opcode name), the no-wrap
forms, the casts, ``intersect_with``/``union_with`` with LLVM's preferred-range
choice, the icmp regions, min/max, ``abs``, ``ctlz``/``cttz``/``ctpop``, the
saturating operations, overflow queries, ``from_known_bits``/``to_known_bits``
— each contain every concrete result (sound) and follow LLVM's rules so the
chosen range is LLVM's.

The objects are immutable and hashable; ``str()`` prints as LLVM does
(``full-set``, ``empty-set``, ``[lo,hi)`` with signed bounds).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.ir.instructions.cmp import Predicate

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import MDNode


def _mask(w: int) -> int:
    return (1 << w) - 1


def _sext(v: int, w: int) -> int:
    return v - (1 << w) if w and (v >> (w - 1)) & 1 else v


def _sdiv(a: int, b: int, w: int) -> int:
    """APInt ``sdiv`` on unsigned patterns: truncating signed division, result as a pattern."""
    x, y = _sext(a, w), _sext(b, w)
    q = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        q = -q
    return q & _mask(w)


def _ashr(v: int, n: int, w: int) -> int:
    return (_sext(v, w) >> min(n, w)) & _mask(w)


def _countl_zero(v: int, w: int) -> int:
    return w - v.bit_length()


def _countl_one(v: int, w: int) -> int:
    return w - (~v & _mask(w)).bit_length()


def _countr_zero(v: int, w: int) -> int:
    return w if v == 0 else (v & -v).bit_length() - 1


def _countr_one(v: int, w: int) -> int:
    return min(((v + 1) & ~v).bit_length() - 1, w)


class PreferredRangeType(IntEnum):
    """Which of two candidate ranges a lossy union/intersection keeps (LLVM ``PreferredRangeType``)."""

    SMALLEST = 0
    UNSIGNED = 1
    SIGNED = 2


class OverflowResult(IntEnum):
    """Whether an operation over two ranges overflows (LLVM ``ConstantRange::OverflowResult``)."""

    ALWAYS_OVERFLOWS_LOW = 0
    ALWAYS_OVERFLOWS_HIGH = 1
    MAY_OVERFLOW = 2
    NEVER_OVERFLOWS = 3


class ConstantRange:
    """A wrapped interval ``[lower, upper)`` of ``bit_width``-bit integers."""

    __slots__ = ("lower", "upper", "bit_width")

    lower: int
    upper: int
    bit_width: int

    def __init__(self, bit_width: int, lower: int, upper: int | None = None) -> None:
        """``ConstantRange(w, v)`` is the single value ``v``; ``ConstantRange(w, lo, hi)``
        the interval (``lo == hi`` must be 0 for empty or the maximum for full)."""
        m = _mask(bit_width)
        lower &= m
        upper = (lower + 1) & m if upper is None else upper & m
        if lower == upper and lower != 0 and lower != m:
            raise ValueError("ConstantRange: lower == upper but not min or max value")
        self.bit_width = bit_width
        self.lower = lower
        self.upper = upper

    # --- construction ----------------------------------------------------------------------
    @staticmethod
    def get_full(bit_width: int) -> ConstantRange:
        m = _mask(bit_width)
        return ConstantRange(bit_width, m, m)

    @staticmethod
    def get_empty(bit_width: int) -> ConstantRange:
        return ConstantRange(bit_width, 0, 0)

    @staticmethod
    def get_non_empty(bit_width: int, lower: int, upper: int) -> ConstantRange:
        """``[lower, upper)``, or the full set when the bounds meet."""
        m = _mask(bit_width)
        if (lower & m) == (upper & m):
            return ConstantRange.get_full(bit_width)
        return ConstantRange(bit_width, lower, upper)

    def full(self) -> ConstantRange:
        return ConstantRange.get_full(self.bit_width)

    def empty(self) -> ConstantRange:
        return ConstantRange.get_empty(self.bit_width)

    def _non_empty(self, lower: int, upper: int) -> ConstantRange:
        return ConstantRange.get_non_empty(self.bit_width, lower, upper)

    @staticmethod
    def from_known_bits(known: KnownBits, is_signed: bool) -> ConstantRange:
        """The smallest range holding every value the known bits allow."""
        w = known.bit_width
        if known.has_conflict():
            return ConstantRange.get_empty(w)
        if known.is_unknown():
            return ConstantRange.get_full(w)
        if not is_signed or known.is_negative() or known.is_non_negative():
            return ConstantRange(w, known.get_min_value(), known.get_max_value() + 1)
        sign = 1 << (w - 1)
        lo = known.get_min_value() | sign
        hi = known.get_max_value() & ~sign
        return ConstantRange(w, lo, hi + 1)

    def to_known_bits(self) -> KnownBits:
        """The bits every value of the range shares (from its unsigned bounds)."""
        w = self.bit_width
        if self.is_empty_set():
            return KnownBits(w)
        lo = self.get_unsigned_min()
        hi = self.get_unsigned_max()
        known = KnownBits.make_constant(lo, w)
        diff = lo ^ hi
        if diff:
            keep = ~_mask(diff.bit_length())
            return KnownBits(w, known.zero & keep, known.one & keep)
        return known

    @staticmethod
    def from_metadata(node: MDNode) -> ConstantRange:
        """The union of a ``!range`` node's pairs (LLVM ``getConstantRangeFromMetadata``)."""
        from llvmpy_mid.ir.constants import ConstantInt
        from llvmpy_mid.ir.metadata import ConstantAsMetadata

        ops = node.operands
        result: ConstantRange | None = None
        for i in range(0, len(ops) - 1, 2):
            lo_md, hi_md = ops[i], ops[i + 1]
            assert isinstance(lo_md, ConstantAsMetadata) and isinstance(hi_md, ConstantAsMetadata)
            lo, hi = lo_md.value, hi_md.value
            assert isinstance(lo, ConstantInt) and isinstance(hi, ConstantInt)
            cr = ConstantRange(lo.width, lo.value, hi.value)
            result = cr if result is None else result.union_with(cr)
        assert result is not None
        return result

    # --- identity --------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ConstantRange)
            and self.bit_width == other.bit_width
            and self.lower == other.lower
            and self.upper == other.upper
        )

    def __hash__(self) -> int:
        return hash((self.bit_width, self.lower, self.upper))

    def __str__(self) -> str:
        if self.is_full_set():
            return "full-set"
        if self.is_empty_set():
            return "empty-set"
        w = self.bit_width
        return "[%d,%d)" % (_sext(self.lower, w), _sext(self.upper, w))

    def __repr__(self) -> str:
        return "ConstantRange(i%d %s)" % (self.bit_width, self)

    # --- queries ----------------------------------------------------------------------------
    def is_full_set(self) -> bool:
        return self.lower == self.upper and self.lower == _mask(self.bit_width)

    def is_empty_set(self) -> bool:
        return self.lower == self.upper and self.lower == 0

    def is_wrapped_set(self) -> bool:
        return self.lower > self.upper and self.upper != 0

    def is_upper_wrapped(self) -> bool:
        return self.lower > self.upper

    def is_sign_wrapped_set(self) -> bool:
        w = self.bit_width
        return _sext(self.lower, w) > _sext(self.upper, w) and self.upper != 1 << (w - 1)

    def is_upper_sign_wrapped(self) -> bool:
        w = self.bit_width
        return _sext(self.lower, w) > _sext(self.upper, w)

    def get_single_element(self) -> int | None:
        """The one value of a one-element range, else None."""
        if self.upper == (self.lower + 1) & _mask(self.bit_width):
            return self.lower
        return None

    def get_single_missing_element(self) -> int | None:
        if self.lower == (self.upper + 1) & _mask(self.bit_width):
            return self.upper
        return None

    def is_single_element(self) -> bool:
        return self.get_single_element() is not None

    def get_set_size(self) -> int:
        if self.is_full_set():
            return 1 << self.bit_width
        return (self.upper - self.lower) & _mask(self.bit_width)

    def is_size_strictly_smaller_than(self, other: ConstantRange) -> bool:
        if self.is_full_set():
            return False
        if other.is_full_set():
            return True
        m = _mask(self.bit_width)
        return ((self.upper - self.lower) & m) < ((other.upper - other.lower) & m)

    def is_size_larger_than(self, max_size: int) -> bool:
        if self.is_full_set():
            return max_size == 0 or _mask(self.bit_width) > max_size - 1
        return ((self.upper - self.lower) & _mask(self.bit_width)) > max_size

    def is_all_negative(self) -> bool:
        if self.is_empty_set():
            return True
        if self.is_full_set():
            return False
        return not self.is_upper_sign_wrapped() and not (_sext(self.upper, self.bit_width) > 0)

    def is_all_non_negative(self) -> bool:
        return not self.is_sign_wrapped_set() and _sext(self.lower, self.bit_width) >= 0

    def is_all_positive(self) -> bool:
        if self.is_empty_set():
            return True
        if self.is_full_set():
            return False
        return not self.is_sign_wrapped_set() and _sext(self.lower, self.bit_width) > 0

    def get_unsigned_max(self) -> int:
        if self.is_full_set() or self.is_upper_wrapped():
            return _mask(self.bit_width)
        return (self.upper - 1) & _mask(self.bit_width)

    def get_unsigned_min(self) -> int:
        if self.is_full_set() or self.is_wrapped_set():
            return 0
        return self.lower

    def get_signed_max(self) -> int:
        """The largest signed value, as an unsigned pattern."""
        if self.is_full_set() or self.is_upper_sign_wrapped():
            return _mask(self.bit_width - 1) if self.bit_width else 0
        return (self.upper - 1) & _mask(self.bit_width)

    def get_signed_min(self) -> int:
        """The smallest signed value, as an unsigned pattern."""
        if self.is_full_set() or self.is_sign_wrapped_set():
            return 1 << (self.bit_width - 1)
        return self.lower

    def signed_min(self) -> int:
        """:meth:`get_signed_min` as a Python signed int."""
        return _sext(self.get_signed_min(), self.bit_width)

    def signed_max(self) -> int:
        return _sext(self.get_signed_max(), self.bit_width)

    def contains(self, v: int) -> bool:
        """``v`` (any int, taken modulo 2**w) is in the range."""
        v &= _mask(self.bit_width)
        if self.lower == self.upper:
            return self.is_full_set()
        if not self.is_upper_wrapped():
            return self.lower <= v < self.upper
        return self.lower <= v or v < self.upper

    def contains_range(self, other: ConstantRange) -> bool:
        if self.is_full_set() or other.is_empty_set():
            return True
        if self.is_empty_set() or other.is_full_set():
            return False
        if not self.is_upper_wrapped():
            if other.is_upper_wrapped():
                return False
            return self.lower <= other.lower and other.upper <= self.upper
        if not other.is_upper_wrapped():
            return other.upper <= self.upper or self.lower <= other.lower
        return other.upper <= self.upper and self.lower <= other.lower

    def get_active_bits(self) -> int:
        if self.is_empty_set():
            return 0
        return self.get_unsigned_max().bit_length()

    def get_min_signed_bits(self) -> int:
        if self.is_empty_set():
            return 0
        w = self.bit_width

        def significant(v: int) -> int:
            s = _sext(v, w)
            return (s.bit_length() if s >= 0 else (~s).bit_length()) + 1

        return max(significant(self.get_signed_min()), significant(self.get_signed_max()))

    # --- set operations -------------------------------------------------------------------
    def subtract(self, val: int) -> ConstantRange:
        if self.lower == self.upper:
            return self
        return ConstantRange(self.bit_width, self.lower - val, self.upper - val)

    def difference(self, other: ConstantRange) -> ConstantRange:
        return self.intersect_with(other.inverse())

    def inverse(self) -> ConstantRange:
        if self.is_full_set():
            return self.empty()
        if self.is_empty_set():
            return self.full()
        return ConstantRange(self.bit_width, self.upper, self.lower)

    @staticmethod
    def _preferred(a: ConstantRange, b: ConstantRange, kind: PreferredRangeType) -> ConstantRange:
        if kind == PreferredRangeType.UNSIGNED:
            if not a.is_wrapped_set() and b.is_wrapped_set():
                return a
            if a.is_wrapped_set() and not b.is_wrapped_set():
                return b
        elif kind == PreferredRangeType.SIGNED:
            if not a.is_sign_wrapped_set() and b.is_sign_wrapped_set():
                return a
            if a.is_sign_wrapped_set() and not b.is_sign_wrapped_set():
                return b
        if a.is_size_strictly_smaller_than(b):
            return a
        return b

    def intersect_with(
        self, cr: ConstantRange, kind: PreferredRangeType = PreferredRangeType.SMALLEST
    ) -> ConstantRange:
        """A range holding every value in both (exact when one range can say it)."""
        if self.is_empty_set() or cr.is_full_set():
            return self
        if cr.is_empty_set() or self.is_full_set():
            return cr
        w = self.bit_width
        lo, up, clo, cup = self.lower, self.upper, cr.lower, cr.upper
        if not self.is_upper_wrapped() and cr.is_upper_wrapped():
            return cr.intersect_with(self, kind)
        if not self.is_upper_wrapped() and not cr.is_upper_wrapped():
            if lo < clo:
                if up <= clo:
                    return self.empty()
                if up < cup:
                    return ConstantRange(w, clo, up)
                return cr
            if up < cup:
                return self
            if lo < cup:
                return ConstantRange(w, lo, cup)
            return self.empty()
        if self.is_upper_wrapped() and not cr.is_upper_wrapped():
            if clo < up:
                if cup < up:
                    return cr
                if cup <= lo:
                    return ConstantRange(w, clo, up)
                return ConstantRange._preferred(self, cr, kind)
            if clo < lo:
                if cup <= lo:
                    return self.empty()
                return ConstantRange(w, lo, cup)
            return cr
        if cup < up:
            if clo < up:
                return ConstantRange._preferred(self, cr, kind)
            if clo < lo:
                return ConstantRange(w, lo, cup)
            return cr
        if cup <= lo:
            if clo < lo:
                return self
            return ConstantRange(w, clo, up)
        return ConstantRange._preferred(self, cr, kind)

    def union_with(self, cr: ConstantRange, kind: PreferredRangeType = PreferredRangeType.SMALLEST) -> ConstantRange:
        """A range holding every value of either."""
        if self.is_full_set() or cr.is_empty_set():
            return self
        if cr.is_full_set() or self.is_empty_set():
            return cr
        w = self.bit_width
        m = _mask(w)
        lo, up, clo, cup = self.lower, self.upper, cr.lower, cr.upper
        if not self.is_upper_wrapped() and cr.is_upper_wrapped():
            return cr.union_with(self, kind)
        if not self.is_upper_wrapped() and not cr.is_upper_wrapped():
            if cup < lo or up < clo:
                return ConstantRange._preferred(ConstantRange(w, lo, cup), ConstantRange(w, clo, up), kind)
            new_lo = clo if clo < lo else lo
            new_up = cup if ((cup - 1) & m) > ((up - 1) & m) else up
            if new_lo == 0 and new_up == 0:
                return self.full()
            return ConstantRange(w, new_lo, new_up)
        if not cr.is_upper_wrapped():
            if cup <= up or clo >= lo:
                return self
            if clo <= up and lo <= cup:
                return self.full()
            if up < clo and cup < lo:
                return ConstantRange._preferred(ConstantRange(w, lo, cup), ConstantRange(w, clo, up), kind)
            if up < clo and lo <= cup:
                return ConstantRange(w, clo, up)
            return ConstantRange(w, lo, cup)
        if clo <= up or lo <= cup:
            return self.full()
        return ConstantRange(w, clo if clo < lo else lo, cup if cup > up else up)

    def exact_intersect_with(self, cr: ConstantRange) -> ConstantRange | None:
        result = self.intersect_with(cr)
        if result == self.inverse().union_with(cr.inverse()).inverse():
            return result
        return None

    def exact_union_with(self, cr: ConstantRange) -> ConstantRange | None:
        result = self.union_with(cr)
        if result == self.inverse().intersect_with(cr.inverse()).inverse():
            return result
        return None

    # --- icmp ----------------------------------------------------------------------------------
    @staticmethod
    def make_allowed_icmp_region(pred: Predicate, cr: ConstantRange) -> ConstantRange:
        """Every value ``x`` for which ``icmp pred x, y`` holds for some ``y`` in ``cr``."""
        if cr.is_empty_set():
            return cr
        w = cr.bit_width
        m = _mask(w)
        smin = 1 << (w - 1)
        if pred == Predicate.ICMP_EQ:
            return cr
        if pred == Predicate.ICMP_NE:
            if cr.is_single_element():
                return ConstantRange(w, cr.upper, cr.lower)
            return ConstantRange.get_full(w)
        if pred == Predicate.ICMP_ULT:
            umax = cr.get_unsigned_max()
            if umax == 0:
                return ConstantRange.get_empty(w)
            return ConstantRange(w, 0, umax)
        if pred == Predicate.ICMP_SLT:
            smax = cr.get_signed_max()
            if smax == smin:
                return ConstantRange.get_empty(w)
            return ConstantRange(w, smin, smax)
        if pred == Predicate.ICMP_ULE:
            return ConstantRange.get_non_empty(w, 0, cr.get_unsigned_max() + 1)
        if pred == Predicate.ICMP_SLE:
            return ConstantRange.get_non_empty(w, smin, cr.get_signed_max() + 1)
        if pred == Predicate.ICMP_UGT:
            umin = cr.get_unsigned_min()
            if umin == m:
                return ConstantRange.get_empty(w)
            return ConstantRange(w, umin + 1, 0)
        if pred == Predicate.ICMP_SGT:
            s = cr.get_signed_min()
            if s == smin - 1:
                return ConstantRange.get_empty(w)
            return ConstantRange(w, s + 1, smin)
        if pred == Predicate.ICMP_UGE:
            return ConstantRange.get_non_empty(w, cr.get_unsigned_min(), 0)
        if pred == Predicate.ICMP_SGE:
            return ConstantRange.get_non_empty(w, cr.get_signed_min(), smin)
        raise ValueError("make_allowed_icmp_region: %r is not an integer predicate" % (pred,))

    @staticmethod
    def make_satisfying_icmp_region(pred: Predicate, cr: ConstantRange) -> ConstantRange:
        """Every ``x`` for which ``icmp pred x, y`` holds for every ``y`` in ``cr``."""
        return ConstantRange.make_allowed_icmp_region(pred.inverse, cr).inverse()

    @staticmethod
    def make_exact_icmp_region(pred: Predicate, c: int, bit_width: int) -> ConstantRange:
        """Exactly the ``x`` with ``icmp pred x, c``."""
        return ConstantRange.make_allowed_icmp_region(pred, ConstantRange(bit_width, c))

    def icmp(self, pred: Predicate, other: ConstantRange) -> bool:
        """``icmp pred x, y`` holds for every ``x`` here and ``y`` in ``other``."""
        if self.is_empty_set() or other.is_empty_set():
            return True
        w = self.bit_width
        if pred == Predicate.ICMP_EQ:
            a = self.get_single_element()
            b = other.get_single_element()
            return a is not None and b is not None and a == b
        if pred == Predicate.ICMP_NE:
            return self.inverse().contains_range(other)
        if pred == Predicate.ICMP_ULT:
            return self.get_unsigned_max() < other.get_unsigned_min()
        if pred == Predicate.ICMP_ULE:
            return self.get_unsigned_max() <= other.get_unsigned_min()
        if pred == Predicate.ICMP_UGT:
            return self.get_unsigned_min() > other.get_unsigned_max()
        if pred == Predicate.ICMP_UGE:
            return self.get_unsigned_min() >= other.get_unsigned_max()
        smax, smin = _sext(self.get_signed_max(), w), _sext(self.get_signed_min(), w)
        omax, omin = _sext(other.get_signed_max(), w), _sext(other.get_signed_min(), w)
        if pred == Predicate.ICMP_SLT:
            return smax < omin
        if pred == Predicate.ICMP_SLE:
            return smax <= omin
        if pred == Predicate.ICMP_SGT:
            return smin > omax
        if pred == Predicate.ICMP_SGE:
            return smin >= omax
        raise ValueError("icmp: %r is not an integer predicate" % (pred,))

    @staticmethod
    def are_insensitive_to_signedness_of_icmp_predicate(cr1: ConstantRange, cr2: ConstantRange) -> bool:
        """Signed and unsigned comparisons of values from the two ranges agree."""
        if cr1.is_empty_set() or cr2.is_empty_set():
            return True
        return (cr1.is_all_non_negative() and cr2.is_all_non_negative()) or (
            cr1.is_all_negative() and cr2.is_all_negative()
        )

    @staticmethod
    def are_insensitive_to_signedness_of_inverted_icmp_predicate(cr1: ConstantRange, cr2: ConstantRange) -> bool:
        """Signed and unsigned comparisons of values from the two ranges always disagree."""
        if cr1.is_empty_set() or cr2.is_empty_set():
            return True
        return (cr1.is_all_non_negative() and cr2.is_all_negative()) or (
            cr1.is_all_negative() and cr2.is_all_non_negative()
        )

    @staticmethod
    def get_equivalent_pred_with_flipped_signedness(
        pred: Predicate, cr1: ConstantRange, cr2: ConstantRange
    ) -> Predicate | None:
        """The relational predicate of the other signedness that answers the same on these
        ranges, or None (LLVM ``getEquivalentPredWithFlippedSignedness``)."""
        flipped = _FLIPPED_SIGNEDNESS[pred]
        if ConstantRange.are_insensitive_to_signedness_of_icmp_predicate(cr1, cr2):
            return flipped
        if ConstantRange.are_insensitive_to_signedness_of_inverted_icmp_predicate(cr1, cr2):
            return flipped.inverse
        return None

    @staticmethod
    def make_mask_not_equal_range(mask: int, c: int, bit_width: int) -> ConstantRange:
        """Every ``x`` with ``x & mask != c`` is in the result (LLVM ``makeMaskNotEqualRange``)."""
        if (mask & c) != c:
            return ConstantRange.get_full(bit_width)
        if mask == 0:
            return ConstantRange.get_empty(bit_width)
        low = (mask & -mask)
        return ConstantRange.get_non_empty(bit_width, low + c, c)

    def get_equivalent_icmp(self) -> tuple[Predicate, int, int]:
        """``(pred, rhs, offset)`` with ``x + offset pred rhs`` exactly for ``x`` in the range."""
        w = self.bit_width
        m = _mask(w)
        smin = 1 << (w - 1)
        if self.is_full_set() or self.is_empty_set():
            return (Predicate.ICMP_ULT if self.is_empty_set() else Predicate.ICMP_UGE, 0, 0)
        one = self.get_single_element()
        if one is not None:
            return (Predicate.ICMP_EQ, one, 0)
        missing = self.get_single_missing_element()
        if missing is not None:
            return (Predicate.ICMP_NE, missing, 0)
        if self.lower == smin or self.lower == 0:
            return (Predicate.ICMP_SLT if self.lower == smin else Predicate.ICMP_ULT, self.upper, 0)
        if self.upper == smin or self.upper == 0:
            return (Predicate.ICMP_SGE if self.upper == smin else Predicate.ICMP_UGE, self.lower, 0)
        return (Predicate.ICMP_ULT, (self.upper - self.lower) & m, (-self.lower) & m)

    @staticmethod
    def make_guaranteed_no_wrap_region(opcode: str, other: ConstantRange, unsigned: bool) -> ConstantRange:
        """Every ``x`` for which ``x op y`` does not wrap (unsigned or signed) for all ``y`` in ``other``."""
        w = other.bit_width
        m = _mask(w)
        smin = 1 << (w - 1)
        if opcode == "add":
            if unsigned:
                return ConstantRange.get_non_empty(w, 0, -other.get_unsigned_max())
            s_lo, s_hi = other.signed_min(), other.signed_max()
            return ConstantRange.get_non_empty(
                w, smin - s_lo if s_lo < 0 else smin, smin - s_hi if s_hi > 0 else smin
            )
        if opcode == "sub":
            if unsigned:
                return ConstantRange.get_non_empty(w, other.get_unsigned_max(), 0)
            s_lo, s_hi = other.signed_min(), other.signed_max()
            return ConstantRange.get_non_empty(
                w, smin + s_hi if s_hi > 0 else smin, smin + s_lo if s_lo < 0 else smin
            )
        if opcode == "mul":
            if unsigned:
                v = other.get_unsigned_max()
                if v == 0:
                    return ConstantRange.get_full(w)
                return ConstantRange.get_non_empty(w, 0, m // v + 1)
            single = other.get_single_element()
            if single is not None:
                return _exact_mul_nsw_region(single, w)
            return _exact_mul_nsw_region(other.get_signed_min(), w).intersect_with(
                _exact_mul_nsw_region(other.get_signed_max(), w)
            )
        if opcode == "shl":
            amt = other.intersect_with(ConstantRange(w, 0, w))
            if amt.is_empty_set():
                return ConstantRange.get_full(w)
            umax = amt.get_unsigned_max()
            if unsigned:
                return ConstantRange.get_non_empty(w, 0, (m >> umax) + 1)
            return ConstantRange.get_non_empty(w, _ashr(smin, umax, w), _ashr(smin - 1, umax, w) + 1)
        raise ValueError("make_guaranteed_no_wrap_region: unsupported opcode %r" % opcode)

    # --- casts --------------------------------------------------------------------------------
    def zero_extend(self, width: int) -> ConstantRange:
        if self.is_empty_set():
            return ConstantRange.get_empty(width)
        if self.is_full_set() or self.is_upper_wrapped():
            lo = self.lower if self.upper == 0 else 0
            return ConstantRange(width, lo, 1 << self.bit_width)
        return ConstantRange(width, self.lower, self.upper)

    def sign_extend(self, width: int) -> ConstantRange:
        if self.is_empty_set():
            return ConstantRange.get_empty(width)
        w = self.bit_width
        mw = _mask(width)
        if self.upper == 1 << (w - 1):
            return ConstantRange(width, _sext(self.lower, w) & mw, self.upper)
        if self.is_full_set() or self.is_sign_wrapped_set():
            return ConstantRange(width, mw & ~_mask(w - 1), _mask(w - 1) + 1)
        return ConstantRange(width, _sext(self.lower, w) & mw, _sext(self.upper, w) & mw)

    def truncate(self, width: int) -> ConstantRange:
        if self.is_empty_set():
            return ConstantRange.get_empty(width)
        if self.is_full_set():
            return ConstantRange.get_full(width)
        w = self.bit_width
        lower_div, upper_div = self.lower, self.upper
        union = ConstantRange.get_empty(width)
        if self.is_upper_wrapped():
            if self.upper.bit_length() > width or _countr_one(self.upper, w) == width:
                return ConstantRange.get_full(width)
            union = ConstantRange(width, _mask(width), self.upper)
            upper_div = _mask(w)
            if lower_div == upper_div:
                return union
        if lower_div.bit_length() > width:
            adjust = lower_div & ~_mask(width)
            lower_div -= adjust
            upper_div -= adjust
        upper_width = upper_div.bit_length()
        if upper_width <= width:
            return ConstantRange(width, lower_div, upper_div).union_with(union)
        if upper_width == width + 1:
            upper_div &= ~(1 << width)
            if upper_div < lower_div:
                return ConstantRange(width, lower_div, upper_div).union_with(union)
        return ConstantRange.get_full(width)

    def zext_or_trunc(self, width: int) -> ConstantRange:
        if self.bit_width > width:
            return self.truncate(width)
        if self.bit_width < width:
            return self.zero_extend(width)
        return self

    def sext_or_trunc(self, width: int) -> ConstantRange:
        if self.bit_width > width:
            return self.truncate(width)
        if self.bit_width < width:
            return self.sign_extend(width)
        return self

    def cast_op(self, opcode: str, result_width: int) -> ConstantRange:
        """The range after the cast ``opcode`` to a ``result_width``-bit integer."""
        w = self.bit_width
        if opcode == "trunc":
            return self.truncate(result_width)
        if opcode == "sext":
            return self.sign_extend(result_width)
        if opcode == "zext":
            return self.zero_extend(result_width)
        if opcode == "bitcast":
            return self
        if opcode in ("fptoui", "fptosi"):
            return self if w == result_width else ConstantRange.get_full(result_width)
        if opcode == "uitofp":
            hi = _mask(w)
            width = max(w, result_width)
            return ConstantRange.get_non_empty(width, 0, hi + 1)
        if opcode == "sitofp":
            width = max(w, result_width)
            smin = _sext(1 << (w - 1), w)
            return ConstantRange.get_non_empty(width, smin & _mask(width), (_mask(w - 1) + 1) & _mask(width))
        return ConstantRange.get_full(result_width)

    # --- arithmetic ---------------------------------------------------------------------------
    def binary_op(self, opcode: str, other: ConstantRange) -> ConstantRange:
        """Dispatch on an LLVM binary opcode name (``add``, ``shl``, ``fadd``, ...)."""
        fn = _BINARY_OPS.get(opcode)
        if fn is None:
            return self.full()
        return fn(self, other)

    def overflowing_binary_op(self, opcode: str, other: ConstantRange, nuw: bool, nsw: bool) -> ConstantRange:
        if opcode == "add":
            return self.add_with_no_wrap(other, nuw, nsw)
        if opcode == "sub":
            return self.sub_with_no_wrap(other, nuw, nsw)
        if opcode == "mul":
            return self.multiply_with_no_wrap(other, nuw, nsw)
        return self.binary_op(opcode, other)

    def add(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        if self.is_full_set() or other.is_full_set():
            return self.full()
        m = _mask(self.bit_width)
        lo = (self.lower + other.lower) & m
        hi = (self.upper + other.upper - 1) & m
        if lo == hi:
            return self.full()
        x = ConstantRange(self.bit_width, lo, hi)
        if x.is_size_strictly_smaller_than(self) or x.is_size_strictly_smaller_than(other):
            return self.full()
        return x

    def add_with_no_wrap(
        self, other: ConstantRange, nuw: bool, nsw: bool, kind: PreferredRangeType = PreferredRangeType.SMALLEST
    ) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        if self.is_full_set() and other.is_full_set():
            return self.full()
        result = self.add(other)
        if nsw:
            result = result.intersect_with(self.sadd_sat(other), kind)
        if nuw:
            result = result.intersect_with(self.uadd_sat(other), kind)
        return result

    def sub(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        if self.is_full_set() or other.is_full_set():
            return self.full()
        m = _mask(self.bit_width)
        lo = (self.lower - other.upper + 1) & m
        hi = (self.upper - other.lower) & m
        if lo == hi:
            return self.full()
        x = ConstantRange(self.bit_width, lo, hi)
        if x.is_size_strictly_smaller_than(self) or x.is_size_strictly_smaller_than(other):
            return self.full()
        return x

    def sub_with_no_wrap(
        self, other: ConstantRange, nuw: bool, nsw: bool, kind: PreferredRangeType = PreferredRangeType.SMALLEST
    ) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        if self.is_full_set() and other.is_full_set():
            return self.full()
        result = self.sub(other)
        if nsw:
            result = result.intersect_with(self.ssub_sat(other), kind)
        if nuw:
            if self.get_unsigned_max() < other.get_unsigned_min():
                return self.empty()
            result = result.intersect_with(self.usub_sat(other), kind)
        return result

    def multiply(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)
        c = self.get_single_element()
        if c is not None:
            if c == 1:
                return other
            if c == m:
                return ConstantRange(w, 0).sub(other)
        c = other.get_single_element()
        if c is not None:
            if c == 1:
                return self
            if c == m:
                return ConstantRange(w, 0).sub(self)
        w2 = 2 * w
        lo = self.get_unsigned_min() * other.get_unsigned_min()
        hi = self.get_unsigned_max() * other.get_unsigned_max() + 1
        ur = ConstantRange(w2, lo, hi).truncate(w)
        if not ur.is_upper_wrapped() and (_sext(ur.upper, w) >= 0 or ur.upper == 1 << (w - 1)):
            return ur
        a0, a1 = self.signed_min(), self.signed_max()
        b0, b1 = other.signed_min(), other.signed_max()
        prods = (a0 * b0, a0 * b1, a1 * b0, a1 * b1)
        m2 = _mask(w2)
        sr = ConstantRange(w2, min(prods) & m2, (max(prods) + 1) & m2).truncate(w)
        return ur if ur.is_size_strictly_smaller_than(sr) else sr

    def multiply_with_no_wrap(
        self, other: ConstantRange, nuw: bool, nsw: bool, kind: PreferredRangeType = PreferredRangeType.SMALLEST
    ) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        if self.is_full_set() and other.is_full_set():
            return self.full()
        result = self.multiply(other)
        if nsw:
            result = result.intersect_with(self.smul_sat(other), kind)
        if nuw:
            result = result.intersect_with(self.umul_sat(other), kind)
        return result

    def smul_fast(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        a0, a1 = self.signed_min(), self.signed_max()
        b0, b1 = other.signed_min(), other.signed_max()
        prods = (a0 * b0, a0 * b1, a1 * b0, a1 * b1)
        lo_lim, hi_lim = -(1 << (w - 1)), (1 << (w - 1)) - 1
        if any(p < lo_lim or p > hi_lim for p in prods):
            return self.full()
        return self._non_empty(min(prods), max(prods) + 1)

    def _minmax(self, other: ConstantRange, pick: str) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        signed = pick[0] == "s"
        f = max if pick.endswith("max") else min
        if signed:
            lo = f(self.signed_min(), other.signed_min())
            hi = f(self.signed_max(), other.signed_max()) + 1
        else:
            lo = f(self.get_unsigned_min(), other.get_unsigned_min())
            hi = f(self.get_unsigned_max(), other.get_unsigned_max()) + 1
        res = self._non_empty(lo, hi)
        if signed:
            if self.is_sign_wrapped_set() or other.is_sign_wrapped_set():
                return res.intersect_with(self.union_with(other, PreferredRangeType.SIGNED), PreferredRangeType.SIGNED)
        elif self.is_wrapped_set() or other.is_wrapped_set():
            return res.intersect_with(self.union_with(other, PreferredRangeType.UNSIGNED), PreferredRangeType.UNSIGNED)
        return res

    def smax(self, other: ConstantRange) -> ConstantRange:
        return self._minmax(other, "smax")

    def umax(self, other: ConstantRange) -> ConstantRange:
        return self._minmax(other, "umax")

    def smin(self, other: ConstantRange) -> ConstantRange:
        return self._minmax(other, "smin")

    def umin(self, other: ConstantRange) -> ConstantRange:
        return self._minmax(other, "umin")

    def udiv(self, rhs: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or rhs.is_empty_set() or rhs.get_unsigned_max() == 0:
            return self.empty()
        lower = self.get_unsigned_min() // rhs.get_unsigned_max()
        rhs_umin = rhs.get_unsigned_min()
        if rhs_umin == 0:
            rhs_umin = rhs.lower if rhs.upper == 1 else 1
        upper = self.get_unsigned_max() // rhs_umin + 1
        return self._non_empty(lower, upper)

    def sdiv(self, rhs: ConstantRange) -> ConstantRange:
        w = self.bit_width
        m = _mask(w)
        smin = 1 << (w - 1)
        pos_filter = ConstantRange.get_empty(w) if w == 1 else ConstantRange(w, 1, smin)
        neg_filter = ConstantRange(w, smin, 0)
        pos_l = self.intersect_with(pos_filter)
        neg_l = self.intersect_with(neg_filter)
        pos_r = rhs.intersect_with(pos_filter)
        neg_r = rhs.intersect_with(neg_filter)

        def cr(lo: int, hi: int) -> ConstantRange:
            return ConstantRange(w, lo & m, hi & m)

        pos_res = ConstantRange.get_empty(w)
        if not pos_l.is_empty_set() and not pos_r.is_empty_set():
            pos_res = cr(_sdiv(pos_l.lower, (pos_r.upper - 1) & m, w), _sdiv((pos_l.upper - 1) & m, pos_r.lower, w) + 1)
        if not neg_l.is_empty_set() and not neg_r.is_empty_set():
            lo = _sdiv((neg_l.upper - 1) & m, neg_r.lower, w)
            if neg_l.lower == smin and neg_r.upper == 0:
                if neg_r.lower != m:
                    adj = rhs.upper if rhs.lower == m else (neg_r.upper - 1) & m
                    pos_res = pos_res.union_with(cr(lo, _sdiv(neg_l.lower, (adj - 1) & m, w) + 1))
                if neg_l.upper != (smin + 1) & m:
                    adj_l = self.lower if self.upper == (smin + 1) & m else (neg_l.lower + 1) & m
                    pos_res = pos_res.union_with(cr(lo, _sdiv(adj_l, (neg_r.upper - 1) & m, w) + 1))
            else:
                pos_res = pos_res.union_with(cr(lo, _sdiv(neg_l.lower, (neg_r.upper - 1) & m, w) + 1))
        neg_res = ConstantRange.get_empty(w)
        if not pos_l.is_empty_set() and not neg_r.is_empty_set():
            neg_res = cr(_sdiv((pos_l.upper - 1) & m, (neg_r.upper - 1) & m, w), _sdiv(pos_l.lower, neg_r.lower, w) + 1)
        if not neg_l.is_empty_set() and not pos_r.is_empty_set():
            neg_res = neg_res.union_with(
                cr(_sdiv(neg_l.lower, pos_r.lower, w), _sdiv((neg_l.upper - 1) & m, (pos_r.upper - 1) & m, w) + 1)
            )
        res = neg_res.union_with(pos_res, PreferredRangeType.SIGNED)
        if self.contains(0) and (not pos_r.is_empty_set() or not neg_r.is_empty_set()):
            res = res.union_with(ConstantRange(w, 0))
        return res

    def urem(self, rhs: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or rhs.is_empty_set() or rhs.get_unsigned_max() == 0:
            return self.empty()
        r = rhs.get_single_element()
        if r is not None:
            if r == 0:
                return self.empty()
            a = self.get_single_element()
            if a is not None:
                return ConstantRange(self.bit_width, a % r)
        if self.get_unsigned_max() < rhs.get_unsigned_min():
            return self
        upper = min(self.get_unsigned_max(), rhs.get_unsigned_max() - 1) + 1
        return self._non_empty(0, upper)

    def srem(self, rhs: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or rhs.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)
        r = rhs.get_single_element()
        if r is not None:
            if r == 0:
                return self.empty()
            a = self.get_single_element()
            if a is not None:
                x, y = _sext(a, w), _sext(r, w)
                rem = abs(x) % abs(y)
                return ConstantRange(w, (-rem if x < 0 else rem) & m)
        abs_rhs = rhs.abs()
        min_abs = abs_rhs.get_unsigned_min()
        max_abs = abs_rhs.get_unsigned_max()
        if max_abs == 0:
            return self.empty()
        if min_abs == 0:
            min_abs = 1
        min_lhs, max_lhs = self.get_signed_min(), self.get_signed_max()
        if _sext(min_lhs, w) >= 0:
            if max_lhs < min_abs:
                return self
            return ConstantRange(w, 0, min(max_lhs, max_abs - 1) + 1)
        if _sext(max_lhs, w) < 0:
            if min_lhs > ((-min_abs) & m):
                return self
            return ConstantRange(w, max(min_lhs, (-max_abs + 1) & m), 1)
        lower = max(min_lhs, (-max_abs + 1) & m)
        upper = min(max_lhs, max_abs - 1) + 1
        return ConstantRange(w, lower, upper)

    def binary_not(self) -> ConstantRange:
        return ConstantRange(self.bit_width, _mask(self.bit_width)).sub(self)

    def binary_and(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        kb = ConstantRange.from_known_bits(self.to_known_bits() & other.to_known_bits(), False)
        umin_umax = self._non_empty(0, min(other.get_unsigned_max(), self.get_unsigned_max()) + 1)
        return kb.intersect_with(umin_umax)

    def binary_or(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        kb = ConstantRange.from_known_bits(self.to_known_bits() | other.to_known_bits(), False)
        umax_umin = self._non_empty(max(self.get_unsigned_min(), other.get_unsigned_min()), 0)
        return kb.intersect_with(umax_umin)

    def binary_xor(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)
        a = self.get_single_element()
        b = other.get_single_element()
        if a is not None and b is not None:
            return ConstantRange(w, a ^ b)
        if b == m:
            return self.binary_not()
        if a == m:
            return other.binary_not()
        lk = self.to_known_bits()
        rk = other.to_known_bits()
        result = ConstantRange.from_known_bits(lk ^ rk, False)
        if w == 1:
            return result
        if (~lk.zero & m) & ~rk.one == 0:
            result = result.intersect_with(other.sub(self), PreferredRangeType.UNSIGNED)
        elif (~rk.zero & m) & ~lk.one == 0:
            result = result.intersect_with(self.sub(other), PreferredRangeType.UNSIGNED)
        return result

    def shl(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)
        lo = self.get_unsigned_min()
        hi = self.get_unsigned_max()
        amt = other.get_single_element()
        if amt is not None:
            if amt >= w:
                return self.empty()
            equal_leading = _countl_zero(lo ^ hi, w)
            if amt <= equal_leading:
                return self._non_empty((lo << amt) & m, ((hi << amt) & m) + 1)
            return self._non_empty(0, (m & ~_mask(amt)) + 1)
        other_max = other.get_unsigned_max()
        if self.is_all_negative() and other_max <= _countl_one(lo, w):
            new_hi = (hi << other.get_unsigned_min()) & m
            new_lo = (lo << other_max) & m
            return self._non_empty(new_lo, new_hi + 1)
        if other_max > _countl_zero(hi, w):
            return self.full()
        return self._non_empty((lo << other.get_unsigned_min()) & m, ((hi << other_max) & m) + 1)

    def lshr(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        hi = (self.get_unsigned_max() >> other.get_unsigned_min()) + 1
        lo = self.get_unsigned_min() >> other.get_unsigned_max()
        return self._non_empty(lo, hi)

    def ashr(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        smax, smin = self.get_signed_max(), self.get_signed_min()
        amin, amax = other.get_unsigned_min(), other.get_unsigned_max()
        pos_max = _ashr(smax, amin, w) + 1
        pos_min = _ashr(smin, amax, w)
        neg_max = _ashr(smax, amax, w) + 1
        neg_min = _ashr(smin, amin, w)
        if _sext(smin, w) >= 0:
            lo, hi = pos_min, pos_max
        elif _sext(smax, w) < 0:
            lo, hi = neg_min, neg_max
        else:
            lo, hi = neg_min, pos_max
        return self._non_empty(lo, hi)

    # --- saturating ---------------------------------------------------------------------------
    def _sat_bounds(self, lo: int, hi: int, signed: bool) -> ConstantRange:
        w = self.bit_width
        if signed:
            lim_lo, lim_hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        else:
            lim_lo, lim_hi = 0, _mask(w)
        lo = min(max(lo, lim_lo), lim_hi)
        hi = min(max(hi, lim_lo), lim_hi)
        return self._non_empty(lo, hi + 1)

    def uadd_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        return self._sat_bounds(
            self.get_unsigned_min() + other.get_unsigned_min(), self.get_unsigned_max() + other.get_unsigned_max(), False
        )

    def sadd_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        return self._sat_bounds(self.signed_min() + other.signed_min(), self.signed_max() + other.signed_max(), True)

    def usub_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        return self._sat_bounds(
            self.get_unsigned_min() - other.get_unsigned_max(), self.get_unsigned_max() - other.get_unsigned_min(), False
        )

    def ssub_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        return self._sat_bounds(self.signed_min() - other.signed_max(), self.signed_max() - other.signed_min(), True)

    def umul_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        return self._sat_bounds(
            self.get_unsigned_min() * other.get_unsigned_min(), self.get_unsigned_max() * other.get_unsigned_max(), False
        )

    def smul_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        lim_lo, lim_hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        a0, a1 = self.signed_min(), self.signed_max()
        b0, b1 = other.signed_min(), other.signed_max()
        prods = [min(max(p, lim_lo), lim_hi) for p in (a0 * b0, a0 * b1, a1 * b0, a1 * b1)]
        return self._non_empty(min(prods), max(prods) + 1)

    def ushl_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)

        def sat(v: int, n: int) -> int:
            return m if n >= w or (v << n) > m else v << n

        lo = sat(self.get_unsigned_min(), other.get_unsigned_min())
        hi = sat(self.get_unsigned_max(), other.get_unsigned_max())
        return self._non_empty(lo, hi + 1)

    def sshl_sat(self, other: ConstantRange) -> ConstantRange:
        if self.is_empty_set() or other.is_empty_set():
            return self.empty()
        w = self.bit_width
        lim_lo, lim_hi = -(1 << (w - 1)), (1 << (w - 1)) - 1

        def sat(v: int, n: int) -> int:
            if v == 0:
                return 0
            if n >= w:
                return lim_lo if v < 0 else lim_hi
            r = v << n
            return min(max(r, lim_lo), lim_hi)

        mn, mx = self.signed_min(), self.signed_max()
        amin, amax = other.get_unsigned_min(), other.get_unsigned_max()
        lo = sat(mn, amin if mn >= 0 else amax)
        hi = sat(mx, amin if mx < 0 else amax)
        return self._non_empty(lo, hi + 1)

    # --- unary intrinsics -------------------------------------------------------------------
    def abs(self, int_min_is_poison: bool = False) -> ConstantRange:
        if self.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)
        smin_pat = 1 << (w - 1)
        if self.is_sign_wrapped_set():
            if _sext(self.upper, w) > 0 or not _sext(self.lower, w) > 0:
                lo = 0
            else:
                lo = min(self.lower, (-self.upper + 1) & m)
            if int_min_is_poison:
                return ConstantRange(w, lo, smin_pat)
            return ConstantRange(w, lo, smin_pat + 1)
        s_lo, s_hi = self.signed_min(), self.signed_max()
        if int_min_is_poison and s_lo == -(1 << (w - 1)):
            if s_hi == s_lo:
                return self.empty()
            s_lo += 1
        if s_lo >= 0:
            return ConstantRange(w, s_lo, s_hi + 1)
        if s_hi < 0:
            return ConstantRange(w, -s_hi, -s_lo + 1)
        return self._non_empty(0, max(-s_lo, s_hi) + 1)

    def ctlz(self, zero_is_poison: bool = False) -> ConstantRange:
        if self.is_empty_set():
            return self.empty()
        w = self.bit_width
        m = _mask(w)
        if zero_is_poison and self.contains(0):
            if self.lower == 0:
                if (self.upper - 1) & m == 0:
                    return self.empty()
                return ConstantRange(
                    w, _countl_zero((self.upper - 1) & m, w), _countl_zero((self.lower + 1) & m, w) + 1
                )
            if (self.upper - 1) & m == 0:
                return ConstantRange(w, 0, _countl_zero(self.lower, w) + 1)
            return ConstantRange(w, 0, w)
        return self._non_empty(_countl_zero(self.get_unsigned_max(), w), _countl_zero(self.get_unsigned_min(), w) + 1)

    @staticmethod
    def _cttz_range(lower: int, upper: int, w: int) -> ConstantRange:
        m = _mask(w)
        if (lower + 1) & m == upper:
            return ConstantRange(w, _countr_zero(lower, w))
        if lower == 0:
            return ConstantRange(w, 0, w + 1)
        lcp = _countl_zero(lower ^ ((upper - 1) & m), w)
        return ConstantRange(w, 0, max(w - lcp - 1, _countr_zero(lower, w)) + 1)

    def cttz(self, zero_is_poison: bool = False) -> ConstantRange:
        if self.is_empty_set():
            return self.empty()
        w = self.bit_width
        f = ConstantRange._cttz_range
        if zero_is_poison and self.contains(0):
            if self.lower == 0:
                if self.upper == 1:
                    return self.empty()
                return f(1, self.upper, w)
            if self.upper == 1:
                return f(self.lower, 0, w)
            return f(self.lower, 0, w).union_with(f(1, self.upper, w))
        if self.is_full_set():
            return self._non_empty(0, w + 1)
        if not self.is_wrapped_set():
            return f(self.lower, self.upper, w)
        return f(self.lower, 0, w).union_with(f(0, self.upper, w))

    @staticmethod
    def _popcount_range(lower: int, upper: int, w: int) -> ConstantRange:
        m = _mask(w)
        if (lower + 1) & m == upper:
            return ConstantRange(w, bin(lower).count("1"))
        mx = (upper - 1) & m
        lcp = _countl_zero(lower ^ mx, w)
        lcp_pop = bin(lower >> (w - lcp)).count("1") if lcp else 0
        min_bits = lcp_pop + (1 if _countr_zero(lower, w) < w - lcp else 0)
        max_bits = lcp_pop + (w - lcp) - (1 if _countr_one(mx, w) < w - lcp else 0)
        return ConstantRange(w, min_bits, max_bits + 1)

    def ctpop(self) -> ConstantRange:
        if self.is_empty_set():
            return self.empty()
        w = self.bit_width
        if self.is_full_set():
            return self._non_empty(0, w + 1)
        if not self.is_wrapped_set():
            return ConstantRange._popcount_range(self.lower, self.upper, w)
        cr1 = ConstantRange(w, _countl_one(self.lower, w), w + 1)
        return cr1.union_with(ConstantRange._popcount_range(0, self.upper, w))

    def intrinsic(self, name: str, others: Sequence[ConstantRange]) -> ConstantRange:
        """LLVM ``ConstantRange::intrinsic`` by base name (``llvm.umin``, ``llvm.ctlz``, ...), this range first."""
        base = name[5:] if name.startswith("llvm.") else name
        if base in ("uadd.sat", "usub.sat", "sadd.sat", "ssub.sat", "umin", "umax", "smin", "smax"):
            fn = getattr(self, base.replace(".", "_"))
            result: ConstantRange = fn(others[0])
            return result
        flag = others[0].get_single_element() if others else None
        if base == "abs":
            return self.abs(bool(flag))
        if base == "ctlz":
            return self.ctlz(bool(flag))
        if base == "cttz":
            return self.cttz(bool(flag))
        if base == "ctpop":
            return self.ctpop()
        raise ValueError("ConstantRange.intrinsic: unsupported %r" % name)

    # --- overflow queries --------------------------------------------------------------------
    def unsigned_add_may_overflow(self, other: ConstantRange) -> OverflowResult:
        if self.is_empty_set() or other.is_empty_set():
            return OverflowResult.MAY_OVERFLOW
        m = _mask(self.bit_width)
        if self.get_unsigned_min() > (~other.get_unsigned_min() & m):
            return OverflowResult.ALWAYS_OVERFLOWS_HIGH
        if self.get_unsigned_max() > (~other.get_unsigned_max() & m):
            return OverflowResult.MAY_OVERFLOW
        return OverflowResult.NEVER_OVERFLOWS

    def signed_add_may_overflow(self, other: ConstantRange) -> OverflowResult:
        if self.is_empty_set() or other.is_empty_set():
            return OverflowResult.MAY_OVERFLOW
        w = self.bit_width
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        mn, mx, omn, omx = self.signed_min(), self.signed_max(), other.signed_min(), other.signed_max()
        if mn >= 0 and omn >= 0 and mn > hi - omn:
            return OverflowResult.ALWAYS_OVERFLOWS_HIGH
        if mx < 0 and omx < 0 and mx < lo - omx:
            return OverflowResult.ALWAYS_OVERFLOWS_LOW
        if mx >= 0 and omx >= 0 and mx > hi - omx:
            return OverflowResult.MAY_OVERFLOW
        if mn < 0 and omn < 0 and mn < lo - omn:
            return OverflowResult.MAY_OVERFLOW
        return OverflowResult.NEVER_OVERFLOWS

    def unsigned_sub_may_overflow(self, other: ConstantRange) -> OverflowResult:
        if self.is_empty_set() or other.is_empty_set():
            return OverflowResult.MAY_OVERFLOW
        if self.get_unsigned_max() < other.get_unsigned_min():
            return OverflowResult.ALWAYS_OVERFLOWS_LOW
        if self.get_unsigned_min() < other.get_unsigned_max():
            return OverflowResult.MAY_OVERFLOW
        return OverflowResult.NEVER_OVERFLOWS

    def signed_sub_may_overflow(self, other: ConstantRange) -> OverflowResult:
        if self.is_empty_set() or other.is_empty_set():
            return OverflowResult.MAY_OVERFLOW
        w = self.bit_width
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        mn, mx, omn, omx = self.signed_min(), self.signed_max(), other.signed_min(), other.signed_max()
        if mn >= 0 and omx < 0 and mn > hi + omx:
            return OverflowResult.ALWAYS_OVERFLOWS_HIGH
        if mx < 0 and omn >= 0 and mx < lo + omn:
            return OverflowResult.ALWAYS_OVERFLOWS_LOW
        if mx >= 0 and omn < 0 and mx > hi + omn:
            return OverflowResult.MAY_OVERFLOW
        if mn < 0 and omx >= 0 and mn < lo + omx:
            return OverflowResult.MAY_OVERFLOW
        return OverflowResult.NEVER_OVERFLOWS

    def unsigned_mul_may_overflow(self, other: ConstantRange) -> OverflowResult:
        if self.is_empty_set() or other.is_empty_set():
            return OverflowResult.MAY_OVERFLOW
        m = _mask(self.bit_width)
        if self.get_unsigned_min() * other.get_unsigned_min() > m:
            return OverflowResult.ALWAYS_OVERFLOWS_HIGH
        if self.get_unsigned_max() * other.get_unsigned_max() > m:
            return OverflowResult.MAY_OVERFLOW
        return OverflowResult.NEVER_OVERFLOWS


def _exact_mul_nsw_region(v: int, w: int) -> ConstantRange:
    m = _mask(w)
    if v == 0:
        return ConstantRange.get_full(w)
    s = _sext(v, w)
    mn, mx = -(1 << (w - 1)), (1 << (w - 1)) - 1
    if s == -1:
        return ConstantRange(w, (-mx) & m, mn & m)

    def div_up(a: int, b: int) -> int:
        return -((-a) // b)

    if s < 0:
        lower = div_up(mx, s)
        upper = _div_floor(mn, s)
    else:
        lower = div_up(mn, s)
        upper = _div_floor(mx, s)
    return ConstantRange.get_non_empty(w, lower & m, (upper + 1) & m)


def _div_floor(a: int, b: int) -> int:
    """Signed division rounding toward negative infinity."""
    return a // b


_FLIPPED_SIGNEDNESS = {
    Predicate.ICMP_SLT: Predicate.ICMP_ULT,
    Predicate.ICMP_SLE: Predicate.ICMP_ULE,
    Predicate.ICMP_SGT: Predicate.ICMP_UGT,
    Predicate.ICMP_SGE: Predicate.ICMP_UGE,
    Predicate.ICMP_ULT: Predicate.ICMP_SLT,
    Predicate.ICMP_ULE: Predicate.ICMP_SLE,
    Predicate.ICMP_UGT: Predicate.ICMP_SGT,
    Predicate.ICMP_UGE: Predicate.ICMP_SGE,
}

_BINARY_OPS = {
    "add": ConstantRange.add,
    "sub": ConstantRange.sub,
    "mul": ConstantRange.multiply,
    "udiv": ConstantRange.udiv,
    "sdiv": ConstantRange.sdiv,
    "urem": ConstantRange.urem,
    "srem": ConstantRange.srem,
    "shl": ConstantRange.shl,
    "lshr": ConstantRange.lshr,
    "ashr": ConstantRange.ashr,
    "and": ConstantRange.binary_and,
    "or": ConstantRange.binary_or,
    "xor": ConstantRange.binary_xor,
    "fadd": ConstantRange.add,
    "fsub": ConstantRange.sub,
    "fmul": ConstantRange.multiply,
}
