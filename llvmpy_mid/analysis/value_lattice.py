"""The lattice of facts SCCP and LVI keep per value (LLVM ``ValueLatticeElement``).

Follows LLVM 19.1.7's ``include/llvm/Analysis/ValueLattice.h`` and
``lib/Analysis/ValueLattice.cpp``. An element is one of

* ``UNKNOWN`` -- nothing known yet (the top of the lattice: no executable
  definition reached so far);
* ``UNDEF`` -- the value is ``undef`` (may still become any single value);
* ``CONSTANT`` -- a single non-integer constant (integers are kept as ranges);
* ``NOTCONSTANT`` -- known to differ from one non-integer constant;
* ``CONSTANTRANGE`` -- an integer known to lie in a non-full, non-empty range;
* ``CONSTANTRANGE_INCLUDING_UNDEF`` -- the same, but the value may also be undef;
* ``OVERDEFINED`` -- nothing useful (the bottom).

Elements are mutable, as LLVM's: the ``mark_*`` and :meth:`merge_in` methods
move an element down the lattice and answer whether it changed. Ranges that
keep growing are cut off by :class:`MergeOptions` (``check_widen`` with
``max_widen_steps``): after that many extensions the element goes overdefined.
Where LLVM copies an element by value, callers use :meth:`copy`.

What it does not do: it keeps no per-element vector of facts (a vector value
is a range over all its lanes, as LLVM's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.constant_range_analysis import constant_to_range
from llvmpy_mid.ir.constants import Constant, ConstantInt, UndefValue

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instructions.cmp import Predicate
    from llvmpy_mid.ir.types import Type

UNKNOWN = 0
UNDEF = 1
CONSTANT = 2
NOTCONSTANT = 3
CONSTANTRANGE = 4
CONSTANTRANGE_INCLUDING_UNDEF = 5
OVERDEFINED = 6

_TAG_NAMES = (
    "unknown",
    "undef",
    "constant",
    "notconstant",
    "constantrange",
    "constantrange_including_undef",
    "overdefined",
)


class MergeOptions:
    """How a merge treats undef and range widening (LLVM ``MergeOptions``)."""

    __slots__ = ("may_include_undef", "check_widen", "max_widen_steps")

    def __init__(self, may_include_undef: bool = False, check_widen: bool = False, max_widen_steps: int = 1) -> None:
        self.may_include_undef = may_include_undef
        self.check_widen = check_widen
        self.max_widen_steps = max_widen_steps

    def set_may_include_undef(self, value: bool = True) -> MergeOptions:
        self.may_include_undef = value
        return self

    def set_check_widen(self, value: bool = True) -> MergeOptions:
        self.check_widen = value
        return self

    def set_max_widen_steps(self, steps: int = 1) -> MergeOptions:
        self.check_widen = True
        self.max_widen_steps = steps
        return self

    def copy(self) -> MergeOptions:
        return MergeOptions(self.may_include_undef, self.check_widen, self.max_widen_steps)


def _scalar_bits(ty: Type) -> int:
    sty = ty.scalar_type
    return sty.width if sty.is_integer else 0  # type: ignore[attr-defined]


_FULL: dict[int, ConstantRange] = {}
_EMPTY: dict[int, ConstantRange] = {}


def _full_range(bits: int) -> ConstantRange:
    """The full range of a width, shared (ranges are never changed in place)."""
    cr = _FULL.get(bits)
    if cr is None:
        cr = _FULL[bits] = ConstantRange.get_full(bits)
    return cr


def _empty_range(bits: int) -> ConstantRange:
    cr = _EMPTY.get(bits)
    if cr is None:
        cr = _EMPTY[bits] = ConstantRange.get_empty(bits)
    return cr


def _signed(v: int, bits: int) -> int:
    """An APInt printed as LLVM's ``operator<<`` does (signed)."""
    return v - (1 << bits) if bits and v >> (bits - 1) else v


class ValueLatticeElement:
    """One lattice element; see the module docstring for the states."""

    __slots__ = ("tag", "num_range_extensions", "const_val", "range")

    tag: int
    num_range_extensions: int
    const_val: Constant | None
    range: ConstantRange | None

    def __init__(self) -> None:
        self.tag = UNKNOWN
        self.num_range_extensions = 0
        self.const_val = None
        self.range = None

    # --- construction -----------------------------------------------------------------
    def copy(self) -> ValueLatticeElement:
        """A copy (LLVM's copy constructor: the extension count travels with a range)."""
        res = ValueLatticeElement()
        res.tag = self.tag
        if self.tag == CONSTANTRANGE or self.tag == CONSTANTRANGE_INCLUDING_UNDEF:
            res.range = self.range
            res.num_range_extensions = self.num_range_extensions
        elif self.tag == CONSTANT or self.tag == NOTCONSTANT:
            res.const_val = self.const_val
        return res

    def assign(self, other: ValueLatticeElement) -> None:
        """Become a copy of ``other`` (LLVM's copy assignment)."""
        self.tag = other.tag
        self.const_val = None
        self.range = None
        self.num_range_extensions = 0
        if other.tag == CONSTANTRANGE or other.tag == CONSTANTRANGE_INCLUDING_UNDEF:
            self.range = other.range
            self.num_range_extensions = other.num_range_extensions
        elif other.tag == CONSTANT or other.tag == NOTCONSTANT:
            self.const_val = other.const_val

    @staticmethod
    def get(c: Constant) -> ValueLatticeElement:
        res = ValueLatticeElement()
        res.mark_constant(c)
        return res

    @staticmethod
    def get_not(c: Constant) -> ValueLatticeElement:
        res = ValueLatticeElement()
        res.mark_not_constant(c)
        return res

    @staticmethod
    def get_range(cr: ConstantRange, may_include_undef: bool = False) -> ValueLatticeElement:
        if cr.is_full_set():
            return ValueLatticeElement.get_overdefined()
        res = ValueLatticeElement()
        if cr.is_empty_set():
            if may_include_undef:
                res.mark_undef()
            return res
        res.mark_constant_range(cr, MergeOptions(may_include_undef))
        return res

    @staticmethod
    def get_overdefined() -> ValueLatticeElement:
        res = ValueLatticeElement()
        res.tag = OVERDEFINED
        return res

    # --- queries ------------------------------------------------------------------------
    def is_undef(self) -> bool:
        return self.tag == UNDEF

    def is_unknown(self) -> bool:
        return self.tag == UNKNOWN

    def is_unknown_or_undef(self) -> bool:
        return self.tag <= UNDEF

    def is_constant(self) -> bool:
        return self.tag == CONSTANT

    def is_not_constant(self) -> bool:
        return self.tag == NOTCONSTANT

    def is_constant_range_including_undef(self) -> bool:
        return self.tag == CONSTANTRANGE_INCLUDING_UNDEF

    def is_constant_range(self, undef_allowed: bool = True) -> bool:
        tag = self.tag
        if tag == CONSTANTRANGE:
            return True
        if tag == CONSTANTRANGE_INCLUDING_UNDEF:
            return undef_allowed or self.range.is_single_element()  # type: ignore[union-attr]
        return False

    def is_overdefined(self) -> bool:
        return self.tag == OVERDEFINED

    def get_constant(self) -> Constant:
        assert self.tag == CONSTANT and self.const_val is not None
        return self.const_val

    def get_not_constant(self) -> Constant:
        assert self.tag == NOTCONSTANT and self.const_val is not None
        return self.const_val

    def get_constant_range(self, undef_allowed: bool = True) -> ConstantRange:
        assert self.is_constant_range(undef_allowed) and self.range is not None
        return self.range

    def as_constant_integer(self) -> int | None:
        """The one integer (zero-extended bits) this element stands for, or None."""
        if self.tag == CONSTANT and isinstance(self.const_val, ConstantInt):
            return self.const_val.zext_value
        if self.is_constant_range():
            return self.range.get_single_element()  # type: ignore[union-attr]
        return None

    def as_constant_range(self, bits_or_type: int | Type, undef_allowed: bool = False) -> ConstantRange:
        """The element as a range of ``bits`` width (empty when unknown, full when nothing is known)."""
        bits = bits_or_type if isinstance(bits_or_type, int) else _scalar_bits(bits_or_type)
        if self.is_constant_range(undef_allowed):
            return self.range  # type: ignore[return-value]
        if self.tag == CONSTANT:
            return constant_to_range(self.const_val)  # type: ignore[arg-type]
        if self.tag == UNKNOWN:
            return _empty_range(bits)
        return _full_range(bits)

    # --- moving down ------------------------------------------------------------------
    def mark_overdefined(self) -> bool:
        if self.tag == OVERDEFINED:
            return False
        self.tag = OVERDEFINED
        self.const_val = None
        self.range = None
        return True

    def mark_undef(self) -> bool:
        if self.tag == UNDEF:
            return False
        assert self.tag == UNKNOWN
        self.tag = UNDEF
        return True

    def mark_constant(self, c: Constant, may_include_undef: bool = False) -> bool:
        if isinstance(c, UndefValue):
            return self.mark_undef()
        if self.tag == CONSTANT:
            assert self.const_val is c, "marking constant with a different value"
            return False
        if isinstance(c, ConstantInt):
            return self.mark_constant_range(
                ConstantRange(c.type.width, c.zext_value),
                MergeOptions(may_include_undef),
            )
        assert self.tag <= UNDEF
        self.tag = CONSTANT
        self.const_val = c
        return True

    def mark_not_constant(self, c: Constant) -> bool:
        if isinstance(c, ConstantInt):
            bits = c.type.width
            v = c.zext_value
            return self.mark_constant_range(ConstantRange(bits, (v + 1) & ((1 << bits) - 1), v))
        if isinstance(c, UndefValue):
            return False
        if self.tag == NOTCONSTANT:
            assert self.const_val is c, "marking !constant with a different value"
            return False
        assert self.tag == UNKNOWN
        self.tag = NOTCONSTANT
        self.const_val = c
        return True

    def mark_constant_range(self, new_r: ConstantRange, opts: MergeOptions | None = None) -> bool:
        assert not new_r.is_empty_set(), "only non-empty sets"
        if new_r.is_full_set():
            return self.mark_overdefined()
        if opts is None:
            opts = MergeOptions()
        old_tag = self.tag
        if old_tag == UNDEF or old_tag == CONSTANTRANGE_INCLUDING_UNDEF or opts.may_include_undef:
            new_tag = CONSTANTRANGE_INCLUDING_UNDEF
        else:
            new_tag = CONSTANTRANGE
        if old_tag == CONSTANTRANGE or old_tag == CONSTANTRANGE_INCLUDING_UNDEF:
            self.tag = new_tag
            if self.range == new_r:
                return new_tag != old_tag
            if opts.check_widen:
                self.num_range_extensions += 1
                if self.num_range_extensions > opts.max_widen_steps:
                    return self.mark_overdefined()
            self.range = new_r
            return True
        assert old_tag <= CONSTANT
        self.num_range_extensions = 0
        self.tag = new_tag
        self.const_val = None
        self.range = new_r
        return True

    def merge_in(self, rhs: ValueLatticeElement, opts: MergeOptions | None = None) -> bool:
        """Join ``rhs`` into this element; True when this element changed."""
        rtag = rhs.tag
        tag = self.tag
        if rtag == UNKNOWN or tag == OVERDEFINED:
            return False
        if rtag == OVERDEFINED:
            self.mark_overdefined()
            return True
        if opts is None:
            opts = MergeOptions()
        if tag == UNDEF:
            if rtag == UNDEF:
                return False
            if rtag == CONSTANT:
                return self.mark_constant(rhs.const_val, True)  # type: ignore[arg-type]
            if rtag == CONSTANTRANGE or rtag == CONSTANTRANGE_INCLUDING_UNDEF:
                return self.mark_constant_range(rhs.range, opts.copy().set_may_include_undef())  # type: ignore[arg-type]
            return self.mark_overdefined()
        if tag == UNKNOWN:
            self.assign(rhs)
            return True
        if tag == CONSTANT:
            if rtag == CONSTANT and self.const_val is rhs.const_val:
                return False
            if rtag == UNDEF:
                return False
            c = self.const_val
            assert c is not None
            if c.type.is_vector and c.type.scalar_type.is_integer:
                left = constant_to_range(c)
                new_r = left.union_with(rhs.as_constant_range(left.bit_width, True))
                return self.mark_constant_range(
                    new_r, opts.copy().set_may_include_undef(rtag == CONSTANTRANGE_INCLUDING_UNDEF)
                )
            self.mark_overdefined()
            return True
        if tag == NOTCONSTANT:
            if rtag == NOTCONSTANT and self.const_val is rhs.const_val:
                return False
            self.mark_overdefined()
            return True
        # A constant range.
        if rtag == UNDEF:
            self.tag = CONSTANTRANGE_INCLUDING_UNDEF
            return tag != CONSTANTRANGE_INCLUDING_UNDEF
        cur = self.range
        assert cur is not None
        new_r = cur.union_with(rhs.as_constant_range(cur.bit_width, True))
        return self.mark_constant_range(
            new_r, opts.copy().set_may_include_undef(rtag == CONSTANTRANGE_INCLUDING_UNDEF)
        )

    # --- comparisons ------------------------------------------------------------------
    def get_compare(
        self, pred: Predicate, ty: Type, other: ValueLatticeElement, dl: DataLayout
    ) -> Constant | None:
        """The constant result of ``self <pred> other`` when the facts decide it."""
        if self.tag == UNKNOWN or other.tag == UNKNOWN:
            return None
        if self.tag == UNDEF or other.tag == UNDEF:
            return None
        if self.tag == CONSTANT and other.tag == CONSTANT:
            from llvmpy_mid.analysis.constant_folding import constant_fold_compare_inst_operands

            return constant_fold_compare_inst_operands(pred, self.const_val, other.const_val, dl)  # type: ignore[arg-type]
        from llvmpy_mid.ir.instructions.cmp import Predicate as _P

        if pred == _P.ICMP_EQ or pred == _P.ICMP_NE:
            if (self.tag == NOTCONSTANT and other.tag == CONSTANT and self.const_val is other.const_val) or (
                self.tag == CONSTANT and other.tag == NOTCONSTANT and self.const_val is other.const_val
            ):
                if pred == _P.ICMP_NE:
                    return ConstantInt.get_true(ty)
                return ConstantInt.get_false(ty)
        if not self.is_constant_range() or not other.is_constant_range():
            return None
        cr = self.range
        other_cr = other.range
        assert cr is not None and other_cr is not None
        if cr.icmp(pred, other_cr):
            return ConstantInt.get_true(ty)
        if cr.icmp(pred.inverse, other_cr):
            return ConstantInt.get_false(ty)
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValueLatticeElement) or self.tag != other.tag:
            return False
        if self.tag == CONSTANT or self.tag == NOTCONSTANT:
            return self.const_val is other.const_val
        if self.tag == CONSTANTRANGE or self.tag == CONSTANTRANGE_INCLUDING_UNDEF:
            return self.range == other.range
        return True

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        tag = self.tag
        if tag == UNKNOWN:
            return "unknown"
        if tag == UNDEF:
            return "undef"
        if tag == OVERDEFINED:
            return "overdefined"
        if tag == NOTCONSTANT:
            return f"notconstant<{self.const_val}>"
        rng = self.range
        if tag == CONSTANTRANGE_INCLUDING_UNDEF:
            assert rng is not None
            return f"constantrange incl. undef <{_signed(rng.lower, rng.bit_width)}, {_signed(rng.upper, rng.bit_width)}>"
        if tag == CONSTANTRANGE:
            assert rng is not None
            return f"constantrange<{_signed(rng.lower, rng.bit_width)}, {_signed(rng.upper, rng.bit_width)}>"
        return f"constant<{self.const_val}>"

    def __repr__(self) -> str:
        return f"ValueLatticeElement({self})"


__all__ = [
    "CONSTANT",
    "CONSTANTRANGE",
    "CONSTANTRANGE_INCLUDING_UNDEF",
    "MergeOptions",
    "NOTCONSTANT",
    "OVERDEFINED",
    "UNDEF",
    "UNKNOWN",
    "ValueLatticeElement",
]
