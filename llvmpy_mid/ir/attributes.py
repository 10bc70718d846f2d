"""Attributes as immutable values: :class:`Attribute` and :class:`AttributeSet`.

An :class:`Attribute` is one of LLVM 19's attribute forms: enum (``nounwind``),
integer (``align 8``, ``memory(read)``, ``nofpclass(nan)``...), type
(``byval(%struct.S)``), constant range (``range(i32 0, 10)``), constant range
list (``initializes((0, 4), (8, 12))``) or string (``"key"="value"``). Integer
attributes keep LLVM's raw 64-bit encoding (``allocsize`` and ``vscale_range``
packed, ``memory`` as :class:`~llvmpy_mid.ir.memory_effects.MemoryEffects` bits),
so comparing two of them compares what LLVM compares. Typed accessors decode it.

Ordering is LLVM's ``Attribute::operator<``: every kinded attribute precedes
every string attribute; kinded ones order by kind number, string ones by key
then value. Two attributes of one kind order by value: integers by raw value;
types (LLVM leaves these unordered) by type id, then printed type; ranges by
bit width, then unsigned lower and upper bound; range lists by their bounds.
Equal attributes hash equal, so they work in sets and as dict keys.

An :class:`AttributeSet` holds at most one attribute per kind (per key for
string attributes), iterates in that order, and answers ``has``/``get`` in
O(1). Both are values: operations return new objects. The sets of a whole
function or call (function, return, then one per parameter) form an
:class:`~llvmpy_mid.ir.attribute_list.AttributeList`, defined in
:mod:`llvmpy_mid.ir.attribute_list` and re-exported here together with its
index constants (:data:`FUNCTION_INDEX`, :data:`RETURN_INDEX`,
:data:`FIRST_ARG_INDEX`).

Kinds may be named by :class:`~llvmpy_mid.ir.attribute_kinds.AttrKind` or by
their LLVM spelling; a name that is not a kind names a string attribute
(``has("noinline")`` asks for the enum attribute, ``has("frame-pointer")`` for
the string one; ``has_string`` asks for a string key unambiguously).

``as_string`` spells attributes as ``opt-19 -S`` does (``Attribute::getAsString``);
it is given a type printer when identified structs need the printer's numbering.
This module does not parse attribute text or check where an attribute may
appear (the parser and the verifier do that, using
:mod:`llvmpy_mid.ir.attribute_kinds`).
"""

from __future__ import annotations

import builtins
from typing import Callable, ClassVar, Iterable, Iterator, Union

import attrs

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attribute_kinds import (
    AllocFnKind,
    AttrForm,
    AttrKind,
    FPClass,
    UWTableKind,
    find_attribute_kind,
    format_alloc_kind,
    format_fp_class,
    kind_form,
    kind_name,
    pack_alloc_size,
    pack_vscale_range,
    unpack_alloc_size,
    unpack_vscale_range,
)
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.ir.names import escape_string
from llvmpy_mid.ir.types import IntegerType, Type

KindLike = Union[AttrKind, str]
"""An attribute kind, or a name: an LLVM kind name or a string-attribute key."""

TypePrinter = Callable[[Type], str]

_U64 = (1 << 64) - 1
_I64_MIN = -(1 << 63)
_I64_MAX = (1 << 63) - 1
_MAX_ALIGNMENT = 1 << 32


def _kind_of(kind: KindLike) -> AttrKind | str:
    """The index key of ``kind``: an :class:`AttrKind`, or a string-attribute key."""
    if isinstance(kind, str):
        found = find_attribute_kind(kind)
        return kind if found is None else found
    return kind


def _require_kind(kind: KindLike, form: AttrForm) -> AttrKind:
    if isinstance(kind, str):
        found = find_attribute_kind(kind)
        if found is None:
            raise IRError("unknown attribute kind '%s' (LLVM 19 has no such attribute)" % kind)
        kind = found
    if not AttrKind.NONE < kind < AttrKind.END:
        raise IRError("%r is not an attribute kind" % (kind,))
    actual = kind_form(kind)
    if actual is not form:
        raise IRError(
            "'%s' is %s attribute, not %s one" % (kind_name(kind), _FORM_WORDS[actual], _FORM_WORDS[form])
        )
    return kind


_FORM_WORDS = {
    AttrForm.ENUM: "an enum",
    AttrForm.TYPE: "a type",
    AttrForm.INT: "an integer",
    AttrForm.CONSTANT_RANGE: "a constant-range",
    AttrForm.CONSTANT_RANGE_LIST: "a constant-range-list",
    AttrForm.STRING: "a string",
}


def _signed(value: int, width: int) -> int:
    if value >> (width - 1):
        return value - (1 << width)
    return value


def _check_power_of_two(what: str, value: int) -> None:
    if value <= 0 or value & (value - 1):
        raise IRError("%s %d is not a power of two" % (what, value))
    if value > _MAX_ALIGNMENT:
        raise IRError("%s %d is larger than 2^32" % (what, value))


@attrs.frozen(order=False, cache_hash=True)
class Attribute:
    """One attribute. Build it with the class methods; never mutate it.

    Fields by form: enum attributes carry only ``kind``; integer ones
    ``int_value`` (LLVM's raw encoding); type ones ``type_value``; a range
    carries its integer type in ``type_value`` and ``((lower, upper),)``
    (unsigned) in ``ranges``; ``initializes`` carries signed 64-bit
    ``ranges``; a string attribute has kind ``NONE``, ``key`` and ``value``.
    """

    kind: AttrKind
    int_value: builtins.int = 0
    type_value: Type | None = None
    ranges: tuple[tuple[builtins.int, builtins.int], ...] = ()
    key: builtins.str = ""
    value: builtins.str = ""

    # --- factories ------------------------------------------------------------------------
    @classmethod
    def enum(cls, kind: KindLike) -> Attribute:
        """An enum attribute: ``Attribute.enum("nounwind")``. Instances are shared."""
        attr = _ENUM_CACHE.get(kind)
        if attr is None:
            k = _require_kind(kind, AttrForm.ENUM)
            attr = _ENUM_CACHE.get(k)
            if attr is None:
                attr = _ENUM_CACHE[k] = cls(k)
            _ENUM_CACHE[kind] = attr
        return attr

    @classmethod
    def int(cls, kind: KindLike, value: builtins.int) -> Attribute:
        """An integer attribute from its raw 64-bit value (``Attribute.int("align", 8)``).

        The typed factories (:meth:`alignment`, :meth:`alloc_size`, :meth:`memory`, ...)
        check and encode their arguments; this one only checks the width.
        """
        k = _require_kind(kind, AttrForm.INT)
        if not 0 <= value <= _U64:
            raise IRError("value %d of '%s' does not fit in 64 bits" % (value, kind_name(k)))
        return cls(k, value)

    @classmethod
    def type_attr(cls, kind: KindLike, ty: Type) -> Attribute:
        """A type attribute: ``Attribute.type_attr("byval", struct_ty)``."""
        return cls(_require_kind(kind, AttrForm.TYPE), type_value=ty)

    @classmethod
    def string(cls, key: builtins.str, value: builtins.str = "") -> Attribute:
        """A string attribute ``"key"="value"`` (``"key"`` alone when ``value`` is empty)."""
        return cls(AttrKind.NONE, key=key, value=value)

    @classmethod
    def range(
        cls, int_ty: IntegerType, lower: builtins.int, upper: builtins.int, *, allow_full_or_empty: bool = False
    ) -> Attribute:
        """``range(iN lower, upper)``: the value is in the half-open, possibly wrapping range.

        Bounds may be given signed or unsigned; they are kept unsigned. A range
        with equal bounds (the full or empty set) is refused, as LLVM's parser does,
        unless ``allow_full_or_empty`` (LLVM's ``AttrBuilder::addRangeAttr`` builds one
        from an empty intersection, e.g. when inlining).
        """
        width = int_ty.width
        lo = _range_bound(lower, width)
        hi = _range_bound(upper, width)
        if lo == hi and not allow_full_or_empty:
            raise IRError("the range should not represent the full or empty set!")
        return cls(AttrKind.RANGE, type_value=int_ty, ranges=((lo, hi),))

    @classmethod
    def initializes(cls, ranges: Iterable[tuple[builtins.int, builtins.int]]) -> Attribute:
        """``initializes((lo, hi), ...)``: byte ranges (signed 64-bit, half-open) the callee writes.

        The ranges must be non-empty, sorted and separated by a gap, as LLVM requires.
        """
        pairs = tuple((builtins.int(lo), builtins.int(hi)) for lo, hi in ranges)
        if not pairs:
            raise IRError("'initializes' needs at least one range")
        prev_hi: builtins.int | None = None
        for lo, hi in pairs:
            if not (_I64_MIN <= lo <= _I64_MAX and _I64_MIN <= hi <= _I64_MAX):
                raise IRError("'initializes' bound out of the signed 64-bit range")
            if lo == hi:
                raise IRError("the range should not represent the full or empty set!")
            if lo > hi or (prev_hi is not None and lo <= prev_hi):
                raise IRError("Invalid (unordered or overlapping) range list")
            prev_hi = hi
        return cls(AttrKind.INITIALIZES, ranges=pairs)

    @classmethod
    def alignment(cls, align: builtins.int) -> Attribute:
        """``align N`` (a power of two, at most 2^32)."""
        _check_power_of_two("alignment", align)
        return cls(AttrKind.ALIGNMENT, align)

    @classmethod
    def stack_alignment(cls, align: builtins.int) -> Attribute:
        """``alignstack(N)`` (a power of two)."""
        _check_power_of_two("stack alignment", align)
        return cls(AttrKind.STACK_ALIGNMENT, align)

    @classmethod
    def dereferenceable(cls, num_bytes: builtins.int) -> Attribute:
        """``dereferenceable(N)``, N > 0."""
        if not 0 < num_bytes <= _U64:
            raise IRError("dereferenceable bytes must be non-zero")
        return cls(AttrKind.DEREFERENCEABLE, num_bytes)

    @classmethod
    def dereferenceable_or_null(cls, num_bytes: builtins.int) -> Attribute:
        """``dereferenceable_or_null(N)``, N > 0."""
        if not 0 < num_bytes <= _U64:
            raise IRError("dereferenceable bytes must be non-zero")
        return cls(AttrKind.DEREFERENCEABLE_OR_NULL, num_bytes)

    @classmethod
    def alloc_size(cls, elem_size_arg: builtins.int, num_elems_arg: builtins.int | None = None) -> Attribute:
        """``allocsize(E[,N])``: argument numbers of the element size and count."""
        return cls(AttrKind.ALLOC_SIZE, pack_alloc_size(elem_size_arg, num_elems_arg))

    @classmethod
    def vscale_range(cls, min_value: builtins.int, max_value: builtins.int | None = None) -> Attribute:
        """``vscale_range(min,max)``; ``max_value`` None means unbounded (printed 0)."""
        return cls(AttrKind.VSCALE_RANGE, pack_vscale_range(min_value, max_value))

    @classmethod
    def uwtable(cls, kind: UWTableKind = UWTableKind.ASYNC) -> Attribute:
        """``uwtable`` (asynchronous tables) or ``uwtable(sync)``."""
        if kind is UWTableKind.NONE:
            raise IRError("uwtable kind must be sync or async")
        return cls(AttrKind.UW_TABLE, builtins.int(kind))

    @classmethod
    def alloc_kind(cls, kind: AllocFnKind | builtins.int) -> Attribute:
        """``allockind("...")`` from :class:`AllocFnKind` bits."""
        if not 0 <= kind < 64:
            raise IRError("allockind value %d out of range" % kind)
        return cls(AttrKind.ALLOC_KIND, builtins.int(kind))

    @classmethod
    def memory(cls, effects: MemoryEffects) -> Attribute:
        """``memory(...)`` for the given effects."""
        return cls(AttrKind.MEMORY, effects.data)

    @classmethod
    def nofpclass(cls, mask: FPClass | builtins.int) -> Attribute:
        """``nofpclass(...)`` for a non-zero :class:`FPClass` mask."""
        if not 0 < mask <= FPClass.ALL:
            raise IRError("invalid mask value for 'nofpclass'")
        return cls(AttrKind.NO_FP_CLASS, builtins.int(mask))

    # --- classification -------------------------------------------------------------------
    @property
    def form(self) -> AttrForm:
        if self.kind is AttrKind.NONE:
            return AttrForm.STRING
        return kind_form(self.kind)

    @property
    def is_string_attr(self) -> bool:
        return self.kind is AttrKind.NONE

    @property
    def is_enum_attr(self) -> bool:
        return self.kind is not AttrKind.NONE and kind_form(self.kind) is AttrForm.ENUM

    @property
    def is_int_attr(self) -> bool:
        return kind_form(self.kind) is AttrForm.INT

    @property
    def is_type_attr(self) -> bool:
        return kind_form(self.kind) is AttrForm.TYPE

    @property
    def is_constant_range_attr(self) -> bool:
        return self.kind is AttrKind.RANGE

    @property
    def is_constant_range_list_attr(self) -> bool:
        return self.kind is AttrKind.INITIALIZES

    @property
    def kind_name(self) -> builtins.str:
        """LLVM's name of the kind (``"align"``), or the key of a string attribute."""
        if self.kind is AttrKind.NONE:
            return self.key
        return kind_name(self.kind)

    @property
    def kind_number(self) -> builtins.int:
        """The kind's number in LLVM 19's ``Attribute::AttrKind`` (0 for string attributes)."""
        return builtins.int(self.kind)

    def has_kind(self, kind: KindLike) -> bool:
        """Whether this attribute is of ``kind`` (a kind or a string key)."""
        k = _kind_of(kind)
        if isinstance(k, builtins.str):
            return self.kind is AttrKind.NONE and self.key == k
        return self.kind == k

    # --- decoded values -------------------------------------------------------------------
    @property
    def memory_effects(self) -> MemoryEffects:
        """The effects of a ``memory`` attribute."""
        self._expect(AttrKind.MEMORY)
        return MemoryEffects(self.int_value)

    @property
    def alloc_size_args(self) -> tuple[builtins.int, builtins.int | None]:
        """(element-size argument, element-count argument or None) of ``allocsize``."""
        self._expect(AttrKind.ALLOC_SIZE)
        return unpack_alloc_size(self.int_value)

    @property
    def vscale_range_args(self) -> tuple[builtins.int, builtins.int | None]:
        """(minimum, maximum or None when unbounded) of ``vscale_range``."""
        self._expect(AttrKind.VSCALE_RANGE)
        return unpack_vscale_range(self.int_value)

    @property
    def uwtable_kind(self) -> UWTableKind:
        self._expect(AttrKind.UW_TABLE)
        return UWTableKind(self.int_value)

    @property
    def alloc_fn_kind(self) -> AllocFnKind:
        self._expect(AttrKind.ALLOC_KIND)
        return AllocFnKind(self.int_value)

    @property
    def fp_class_mask(self) -> FPClass:
        self._expect(AttrKind.NO_FP_CLASS)
        return FPClass(self.int_value)

    @property
    def range_type(self) -> IntegerType:
        """The integer type of a ``range`` attribute."""
        self._expect(AttrKind.RANGE)
        ty = self.type_value
        assert isinstance(ty, IntegerType)
        return ty

    @property
    def range_lower(self) -> builtins.int:
        """Inclusive lower bound of a ``range`` attribute, unsigned."""
        self._expect(AttrKind.RANGE)
        return self.ranges[0][0]

    @property
    def range_upper(self) -> builtins.int:
        """Exclusive upper bound of a ``range`` attribute, unsigned."""
        self._expect(AttrKind.RANGE)
        return self.ranges[0][1]

    def _expect(self, kind: AttrKind) -> None:
        if self.kind is not kind:
            raise IRError("'%s' is not a '%s' attribute" % (self.kind_name, kind_name(kind)))

    # --- ordering (LLVM Attribute::operator<) ----------------------------------------------
    def _value_key(self) -> tuple[object, ...]:
        form = kind_form(self.kind)
        if form is AttrForm.INT:
            return (self.int_value,)
        if form is AttrForm.TYPE:
            ty = self.type_value
            return (-1, "") if ty is None else (builtins.int(ty.type_id), builtins.str(ty))
        if form is AttrForm.CONSTANT_RANGE:
            ty = self.type_value
            width = ty.width if isinstance(ty, IntegerType) else 0
            return (width,) + self.ranges[0]
        if form is AttrForm.CONSTANT_RANGE_LIST:
            return self.ranges
        return ()

    def _less(self, other: Attribute) -> bool:
        sk = self.kind
        ok = other.kind
        if sk is AttrKind.NONE:
            if ok is not AttrKind.NONE:
                return False
            if self.key != other.key:
                return self.key < other.key
            return self.value < other.value
        if ok is AttrKind.NONE:
            return True
        if sk != ok:
            return sk < ok
        return self._value_key() < other._value_key()

    def __lt__(self, other: Attribute) -> bool:
        return self._less(other)

    def __gt__(self, other: Attribute) -> bool:
        return other._less(self)

    def __le__(self, other: Attribute) -> bool:
        return not other._less(self)

    def __ge__(self, other: Attribute) -> bool:
        return not self._less(other)

    # --- text -----------------------------------------------------------------------------
    def as_string(self, in_attr_group: bool = False, type_printer: TypePrinter = builtins.str) -> builtins.str:
        """The attribute as opt-19 prints it (LLVM ``Attribute::getAsString``).

        ``in_attr_group`` selects the spelling used inside ``attributes #N = { ... }``
        (``alignstack=8`` instead of ``alignstack(8)``); ``type_printer`` spells
        the type of type and range attributes.
        """
        kind = self.kind
        if kind is AttrKind.NONE:
            text = '"' + self.key + '"'
            if self.value:
                text += '="' + escape_string(self.value) + '"'
            return text
        name = kind_name(kind)
        form = kind_form(kind)
        if form is AttrForm.ENUM:
            return name
        if form is AttrForm.TYPE:
            ty = self.type_value
            return name if ty is None else name + "(" + type_printer(ty) + ")"
        if form is AttrForm.CONSTANT_RANGE:
            ty = self.range_type
            lo, hi = self.ranges[0]
            return "range(%s %d, %d)" % (type_printer(ty), _signed(lo, ty.width), _signed(hi, ty.width))
        if form is AttrForm.CONSTANT_RANGE_LIST:
            return "initializes(" + ", ".join("(%d, %d)" % pair for pair in self.ranges) + ")"
        value = self.int_value
        if kind is AttrKind.ALIGNMENT:
            return ("align=%d" if in_attr_group else "align %d") % value
        if kind is AttrKind.STACK_ALIGNMENT:
            return ("alignstack=%d" if in_attr_group else "alignstack(%d)") % value
        if kind is AttrKind.MEMORY:
            return MemoryEffects(value).as_string()
        if kind is AttrKind.NO_FP_CLASS:
            return "nofpclass(" + format_fp_class(value) + ")"
        if kind is AttrKind.ALLOC_SIZE:
            elem, num = unpack_alloc_size(value)
            return "allocsize(%d)" % elem if num is None else "allocsize(%d,%d)" % (elem, num)
        if kind is AttrKind.VSCALE_RANGE:
            vmin, vmax = unpack_vscale_range(value)
            return "vscale_range(%d,%d)" % (vmin, vmax or 0)
        if kind is AttrKind.UW_TABLE:
            if value == UWTableKind.ASYNC:
                return "uwtable"
            return "uwtable(sync)" if value == UWTableKind.SYNC else "uwtable(none)"
        if kind is AttrKind.ALLOC_KIND:
            return 'allockind("' + format_alloc_kind(value) + '")'
        return "%s(%d)" % (name, value)

    def __str__(self) -> builtins.str:
        return self.as_string()

    def __repr__(self) -> builtins.str:
        return "Attribute(%s)" % self.as_string()


_ENUM_CACHE: dict[AttrKind | str, Attribute] = {}
"""Shared enum attributes, by kind and by name."""


def _range_bound(value: int, width: int) -> int:
    if not -(1 << (width - 1)) <= value < (1 << width):
        raise IRError("range bound %d does not fit in i%d" % (value, width))
    return value & ((1 << width) - 1)


def _sort_key(attr: Attribute) -> tuple[int, int, str]:
    # Within one set every kind (and every string key) occurs once, so the
    # kind number, or the key of a string attribute, decides LLVM's order.
    if attr.kind is AttrKind.NONE:
        return (1, 0, attr.key)
    return (0, int(attr.kind), "")


def _index_key(attr: Attribute) -> AttrKind | str:
    return attr.key if attr.kind is AttrKind.NONE else attr.kind


class AttributeSet:
    """An immutable set of attributes with at most one per kind, in LLVM's order.

    ``AttributeSet(attrs)`` keeps the last of several attributes of one kind.
    Every modifier returns a new set; ``EMPTY`` is the empty one.
    """

    __slots__ = ("_attrs", "_index", "_hash")

    EMPTY: ClassVar[AttributeSet]

    _attrs: tuple[Attribute, ...]
    _index: dict[AttrKind | str, Attribute]
    _hash: int

    def __init__(self, attributes: Iterable[Attribute] = ()) -> None:
        index: dict[AttrKind | str, Attribute] = {}
        for attr in attributes:
            index[_index_key(attr)] = attr
        self._index = index
        self._attrs = tuple(sorted(index.values(), key=_sort_key))
        self._hash = -1

    @classmethod
    def _from_index(cls, index: dict[AttrKind | str, Attribute]) -> AttributeSet:
        result = cls.__new__(cls)
        result._index = index
        result._attrs = tuple(sorted(index.values(), key=_sort_key))
        result._hash = -1
        return result

    # --- queries ----------------------------------------------------------------------------
    def has(self, kind: KindLike) -> bool:
        """Whether an attribute of ``kind`` (a kind, kind name or string key) is present."""
        return _kind_of(kind) in self._index

    def get(self, kind: KindLike) -> Attribute | None:
        """The attribute of ``kind``, or None."""
        return self._index.get(_kind_of(kind))

    def has_string(self, key: str) -> bool:
        """Whether the string attribute ``key`` is present (even if ``key`` names a kind)."""
        return key in self._index

    def get_string(self, key: str) -> Attribute | None:
        """The string attribute ``key``, or None."""
        return self._index.get(key)

    def string_value(self, key: str) -> str | None:
        """The value of string attribute ``key`` ("" for a bare ``"key"``), or None."""
        attr = self._index.get(key)
        return None if attr is None else attr.value

    @property
    def string_attributes(self) -> tuple[Attribute, ...]:
        """The string attributes, by key."""
        return tuple(a for a in self._attrs if a.kind is AttrKind.NONE)

    # --- typed getters ----------------------------------------------------------------------
    def _int(self, kind: AttrKind) -> int | None:
        attr = self._index.get(kind)
        return None if attr is None else attr.int_value

    @property
    def alignment(self) -> int | None:
        """The ``align`` value in bytes, or None."""
        return self._int(AttrKind.ALIGNMENT)

    @property
    def stack_alignment(self) -> int | None:
        """The ``alignstack`` value in bytes, or None."""
        return self._int(AttrKind.STACK_ALIGNMENT)

    @property
    def dereferenceable_bytes(self) -> int:
        """The ``dereferenceable`` byte count, 0 when absent (as in LLVM)."""
        return self._int(AttrKind.DEREFERENCEABLE) or 0

    @property
    def dereferenceable_or_null_bytes(self) -> int:
        """The ``dereferenceable_or_null`` byte count, 0 when absent."""
        return self._int(AttrKind.DEREFERENCEABLE_OR_NULL) or 0

    def type_attr(self, kind: KindLike) -> Type | None:
        """The type carried by the type attribute ``kind`` (``"byval"``...), or None."""
        attr = self._index.get(_require_kind(kind, AttrForm.TYPE))
        return None if attr is None else attr.type_value

    @property
    def by_val_type(self) -> Type | None:
        return self.type_attr(AttrKind.BY_VAL)

    @property
    def struct_ret_type(self) -> Type | None:
        return self.type_attr(AttrKind.STRUCT_RET)

    @property
    def by_ref_type(self) -> Type | None:
        return self.type_attr(AttrKind.BY_REF)

    @property
    def preallocated_type(self) -> Type | None:
        return self.type_attr(AttrKind.PREALLOCATED)

    @property
    def in_alloca_type(self) -> Type | None:
        return self.type_attr(AttrKind.IN_ALLOCA)

    @property
    def element_type(self) -> Type | None:
        return self.type_attr(AttrKind.ELEMENT_TYPE)

    @property
    def alloc_size_args(self) -> tuple[int, int | None] | None:
        raw = self._int(AttrKind.ALLOC_SIZE)
        return None if raw is None else unpack_alloc_size(raw)

    @property
    def vscale_range_args(self) -> tuple[int, int | None] | None:
        raw = self._int(AttrKind.VSCALE_RANGE)
        return None if raw is None else unpack_vscale_range(raw)

    @property
    def uwtable_kind(self) -> UWTableKind:
        """The ``uwtable`` kind, ``NONE`` when absent."""
        return UWTableKind(self._int(AttrKind.UW_TABLE) or 0)

    @property
    def alloc_kind(self) -> AllocFnKind:
        """The ``allockind`` bits, ``UNKNOWN`` when absent."""
        return AllocFnKind(self._int(AttrKind.ALLOC_KIND) or 0)

    @property
    def memory_effects(self) -> MemoryEffects:
        """The ``memory`` effects; unknown (may touch anything) when absent."""
        raw = self._int(AttrKind.MEMORY)
        return MemoryEffects.UNKNOWN if raw is None else MemoryEffects(raw)

    @property
    def nofpclass(self) -> FPClass:
        """The ``nofpclass`` mask, ``NONE`` when absent."""
        return FPClass(self._int(AttrKind.NO_FP_CLASS) or 0)

    @property
    def constant_range(self) -> tuple[IntegerType, int, int] | None:
        """(type, unsigned lower, unsigned upper) of ``range``, or None."""
        attr = self._index.get(AttrKind.RANGE)
        if attr is None:
            return None
        return (attr.range_type, attr.ranges[0][0], attr.ranges[0][1])

    @property
    def initializes(self) -> tuple[tuple[int, int], ...]:
        """The ``initializes`` ranges, empty when absent."""
        attr = self._index.get(AttrKind.INITIALIZES)
        return () if attr is None else attr.ranges

    # --- new sets ---------------------------------------------------------------------------
    def add(self, attr: Attribute) -> AttributeSet:
        """This set with ``attr`` added, replacing any attribute of its kind."""
        key = _index_key(attr)
        if self._index.get(key) == attr:
            return self
        index = dict(self._index)
        index[key] = attr
        return AttributeSet._from_index(index)

    def add_all(self, attributes: Iterable[Attribute]) -> AttributeSet:
        """This set with every attribute of ``attributes`` added (later ones win)."""
        index = dict(self._index)
        for attr in attributes:
            index[_index_key(attr)] = attr
        if index == self._index:
            return self
        return AttributeSet._from_index(index)

    def remove(self, kind: KindLike) -> AttributeSet:
        """This set without the attribute of ``kind`` (itself when there is none)."""
        key = _kind_of(kind)
        if key not in self._index:
            return self
        index = dict(self._index)
        del index[key]
        return AttributeSet._from_index(index) if index else AttributeSet.EMPTY

    def remove_all(self, kinds: Iterable[KindLike]) -> AttributeSet:
        """This set without the attributes of any of ``kinds``."""
        index = dict(self._index)
        for kind in kinds:
            index.pop(_kind_of(kind), None)
        if len(index) == len(self._index):
            return self
        return AttributeSet._from_index(index) if index else AttributeSet.EMPTY

    # --- container protocol -----------------------------------------------------------------
    def __iter__(self) -> Iterator[Attribute]:
        return iter(self._attrs)

    def __len__(self) -> int:
        return len(self._attrs)

    def __bool__(self) -> bool:
        return bool(self._attrs)

    def __contains__(self, item: object) -> bool:
        """``attr in s``: that exact attribute; ``"align" in s``: any attribute of the kind."""
        if isinstance(item, Attribute):
            return self._index.get(_index_key(item)) == item
        if isinstance(item, (str, AttrKind)):
            return self.has(item)
        return False

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, AttributeSet):
            return NotImplemented
        return self._attrs == other._attrs

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = hash(self._attrs)
            if h == -1:
                h = -2
            self._hash = h
        return h

    def as_string(self, in_attr_group: bool = False, type_printer: TypePrinter = str) -> str:
        """The attributes separated by spaces, as opt-19 prints them."""
        return " ".join(a.as_string(in_attr_group, type_printer) for a in self._attrs)

    def __repr__(self) -> str:
        return "AttributeSet(%s)" % self.as_string()


AttributeSet.EMPTY = AttributeSet()


# AttributeList and its index constants live in llvmpy_mid.ir.attribute_list,
# which imports this module; re-exported from here, last, so that every name
# that module needs is bound whichever of the two is imported first.
from llvmpy_mid.ir.attribute_list import (  # noqa: E402
    FIRST_ARG_INDEX as FIRST_ARG_INDEX,
    FUNCTION_INDEX as FUNCTION_INDEX,
    RETURN_INDEX as RETURN_INDEX,
    AttributeList as AttributeList,
)
