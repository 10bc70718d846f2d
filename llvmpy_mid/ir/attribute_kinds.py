"""The attribute kinds of LLVM 19 and the encodings of their integer values.

:class:`AttrKind` numbers every kind as LLVM 19.1's ``Attribute::AttrKind``
does. LLVM generates that enumeration from ``Attributes.td`` in five groups
(enum attributes, then type, integer, constant-range and constant-range-list
attributes), each sorted by the name of its TableGen record; ``NONE`` is 0.
The numbers here were read from libLLVM 19.1 itself
(``LLVMGetEnumAttributeKindForName``) and agree with the order in which
``opt-19 -S`` prints an attribute set (see tests/ir/test_attributes.py).

Each kind knows its textual name (``"noinline"``), its form and where it may
appear (function, parameter, return value) as LLVM 19's parser enforces it.
Integer attributes whose value packs structured data have their encodings
here too: ``nofpclass`` (:class:`FPClass`), ``allockind``
(:class:`AllocFnKind`), ``uwtable`` (:class:`UWTableKind`), and the packing
of ``allocsize`` and ``vscale_range``. ``memory(...)`` lives in
:mod:`llvmpy_mid.ir.memory_effects`.

This module holds no attribute values (see :mod:`llvmpy_mid.ir.attributes`)
and does not parse text.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag

from llvmpy_mid.errors import IRError


class AttrKind(IntEnum):
    """LLVM 19's ``Attribute::AttrKind``: ``NONE`` (0), then every kind in LLVM's order."""

    NONE = 0
    ALLOC_ALIGN = 1
    ALLOCATED_POINTER = 2
    ALWAYS_INLINE = 3
    BUILTIN = 4
    COLD = 5
    CONVERGENT = 6
    CORO_DESTROY_ONLY_WHEN_COMPLETE = 7
    DEAD_ON_UNWIND = 8
    DISABLE_SANITIZER_INSTRUMENTATION = 9
    FN_RET_THUNK_EXTERN = 10
    HOT = 11
    HYBRID_PATCHABLE = 12
    IMM_ARG = 13
    IN_REG = 14
    INLINE_HINT = 15
    JUMP_TABLE = 16
    MIN_SIZE = 17
    MUST_PROGRESS = 18
    NAKED = 19
    NEST = 20
    NO_ALIAS = 21
    NO_BUILTIN = 22
    NO_CALLBACK = 23
    NO_CAPTURE = 24
    NO_CF_CHECK = 25
    NO_DUPLICATE = 26
    NO_FREE = 27
    NO_IMPLICIT_FLOAT = 28
    NO_INLINE = 29
    NO_MERGE = 30
    NO_PROFILE = 31
    NO_RECURSE = 32
    NO_RED_ZONE = 33
    NO_RETURN = 34
    NO_SANITIZE_BOUNDS = 35
    NO_SANITIZE_COVERAGE = 36
    NO_SYNC = 37
    NO_UNDEF = 38
    NO_UNWIND = 39
    NON_LAZY_BIND = 40
    NON_NULL = 41
    NULL_POINTER_IS_VALID = 42
    OPT_FOR_FUZZING = 43
    OPTIMIZE_FOR_DEBUGGING = 44
    OPTIMIZE_FOR_SIZE = 45
    OPTIMIZE_NONE = 46
    PRESPLIT_COROUTINE = 47
    READ_NONE = 48
    READ_ONLY = 49
    RETURNED = 50
    RETURNS_TWICE = 51
    S_EXT = 52
    SAFE_STACK = 53
    SANITIZE_ADDRESS = 54
    SANITIZE_HW_ADDRESS = 55
    SANITIZE_MEM_TAG = 56
    SANITIZE_MEMORY = 57
    SANITIZE_NUMERICAL_STABILITY = 58
    SANITIZE_THREAD = 59
    SHADOW_CALL_STACK = 60
    SKIP_PROFILE = 61
    SPECULATABLE = 62
    SPECULATIVE_LOAD_HARDENING = 63
    STACK_PROTECT = 64
    STACK_PROTECT_REQ = 65
    STACK_PROTECT_STRONG = 66
    STRICT_FP = 67
    SWIFT_ASYNC = 68
    SWIFT_ERROR = 69
    SWIFT_SELF = 70
    WILL_RETURN = 71
    WRITABLE = 72
    WRITE_ONLY = 73
    Z_EXT = 74
    BY_REF = 75
    BY_VAL = 76
    ELEMENT_TYPE = 77
    IN_ALLOCA = 78
    PREALLOCATED = 79
    STRUCT_RET = 80
    ALIGNMENT = 81
    ALLOC_KIND = 82
    ALLOC_SIZE = 83
    DEREFERENCEABLE = 84
    DEREFERENCEABLE_OR_NULL = 85
    MEMORY = 86
    NO_FP_CLASS = 87
    STACK_ALIGNMENT = 88
    UW_TABLE = 89
    VSCALE_RANGE = 90
    RANGE = 91
    INITIALIZES = 92
    END = 93
    """One past the last kind (LLVM ``EndAttrKinds``)."""

    @property
    def llvm_name(self) -> str:
        """The kind's name in textual IR (``"noinline"``, ``"align"``)."""
        return _NAMES[self]

    @property
    def form(self) -> AttrForm:
        return _FORMS[self]


class AttrForm(IntEnum):
    """How an attribute carries its value; the order is LLVM's grouping of kinds."""

    ENUM = 0
    """Present or absent: ``nounwind``."""
    TYPE = 1
    """Carries a type: ``byval(%struct.S)``."""
    INT = 2
    """Carries an integer: ``align 8``, ``memory(read)``."""
    CONSTANT_RANGE = 3
    """Carries an integer range: ``range(i32 0, 10)``."""
    CONSTANT_RANGE_LIST = 4
    """Carries a list of 64-bit ranges: ``initializes((0, 4))``."""
    STRING = 5
    """A ``"key"="value"`` attribute (no kind number)."""


_F = 1
_P = 2
_R = 4
E = AttrForm.ENUM
T = AttrForm.TYPE
I = AttrForm.INT
R = AttrForm.CONSTANT_RANGE
L = AttrForm.CONSTANT_RANGE_LIST

# (name, form, where allowed) for kinds 1..92, in kind order. "Where allowed"
# follows LLVM 19's TableGen properties as its parser enforces them:
# ``readnone``/``readonly``/``writeonly`` are parameter attributes (on a
# function they are upgraded to ``memory(...)``), ``builtin`` is a function
# attribute valid only on call sites, and ``align`` on a function is the
# function's alignment, not an attribute.
_TABLE: tuple[tuple[str, AttrForm, int], ...] = (
    ("allocalign", E, _P),
    ("allocptr", E, _P),
    ("alwaysinline", E, _F),
    ("builtin", E, _F),
    ("cold", E, _F),
    ("convergent", E, _F),
    ("coro_only_destroy_when_complete", E, _F),
    ("dead_on_unwind", E, _P),
    ("disable_sanitizer_instrumentation", E, _F),
    ("fn_ret_thunk_extern", E, _F),
    ("hot", E, _F),
    ("hybrid_patchable", E, _F),
    ("immarg", E, _P),
    ("inreg", E, _P|_R),
    ("inlinehint", E, _F),
    ("jumptable", E, _F),
    ("minsize", E, _F),
    ("mustprogress", E, _F),
    ("naked", E, _F),
    ("nest", E, _P),
    ("noalias", E, _P|_R),
    ("nobuiltin", E, _F),
    ("nocallback", E, _F),
    ("nocapture", E, _P),
    ("nocf_check", E, _F),
    ("noduplicate", E, _F),
    ("nofree", E, _F|_P),
    ("noimplicitfloat", E, _F),
    ("noinline", E, _F),
    ("nomerge", E, _F),
    ("noprofile", E, _F),
    ("norecurse", E, _F),
    ("noredzone", E, _F),
    ("noreturn", E, _F),
    ("nosanitize_bounds", E, _F),
    ("nosanitize_coverage", E, _F),
    ("nosync", E, _F),
    ("noundef", E, _P|_R),
    ("nounwind", E, _F),
    ("nonlazybind", E, _F),
    ("nonnull", E, _P|_R),
    ("null_pointer_is_valid", E, _F),
    ("optforfuzzing", E, _F),
    ("optdebug", E, _F),
    ("optsize", E, _F),
    ("optnone", E, _F),
    ("presplitcoroutine", E, _F),
    ("readnone", E, _P),
    ("readonly", E, _P),
    ("returned", E, _P),
    ("returns_twice", E, _F),
    ("signext", E, _P|_R),
    ("safestack", E, _F),
    ("sanitize_address", E, _F),
    ("sanitize_hwaddress", E, _F),
    ("sanitize_memtag", E, _F),
    ("sanitize_memory", E, _F),
    ("sanitize_numerical_stability", E, _F),
    ("sanitize_thread", E, _F),
    ("shadowcallstack", E, _F),
    ("skipprofile", E, _F),
    ("speculatable", E, _F),
    ("speculative_load_hardening", E, _F),
    ("ssp", E, _F),
    ("sspreq", E, _F),
    ("sspstrong", E, _F),
    ("strictfp", E, _F),
    ("swiftasync", E, _P),
    ("swifterror", E, _P),
    ("swiftself", E, _P),
    ("willreturn", E, _F),
    ("writable", E, _P),
    ("writeonly", E, _P),
    ("zeroext", E, _P|_R),
    ("byref", T, _P),
    ("byval", T, _P),
    ("elementtype", T, _P),
    ("inalloca", T, _P),
    ("preallocated", T, _F|_P),
    ("sret", T, _P),
    ("align", I, _P|_R),
    ("allockind", I, _F),
    ("allocsize", I, _F),
    ("dereferenceable", I, _P|_R),
    ("dereferenceable_or_null", I, _P|_R),
    ("memory", I, _F),
    ("nofpclass", I, _P|_R),
    ("alignstack", I, _F|_P),
    ("uwtable", I, _F),
    ("vscale_range", I, _F),
    ("range", R, _P|_R),
    ("initializes", L, _P),
)

del E, T, I, R, L

_NAMES: tuple[str, ...] = ("",) + tuple(row[0] for row in _TABLE) + ("",)
_FORMS: tuple[AttrForm, ...] = (AttrForm.ENUM,) + tuple(row[1] for row in _TABLE) + (AttrForm.ENUM,)
_PLACES: tuple[int, ...] = (0,) + tuple(row[2] for row in _TABLE) + (0,)
_BY_NAME: dict[str, AttrKind] = {row[0]: AttrKind(i + 1) for i, row in enumerate(_TABLE)}

ALL_KINDS: tuple[AttrKind, ...] = tuple(AttrKind(i) for i in range(1, AttrKind.END))
"""Every real kind (not ``NONE`` or ``END``), in kind order."""


def attribute_kind(name: str) -> AttrKind:
    """The kind LLVM spells ``name``; raises :class:`IRError` for an unknown name."""
    kind = _BY_NAME.get(name)
    if kind is None:
        raise IRError("unknown attribute kind '%s' (LLVM 19 has no such attribute)" % name)
    return kind


def find_attribute_kind(name: str) -> AttrKind | None:
    """The kind LLVM spells ``name``, or None (string attributes have no kind)."""
    return _BY_NAME.get(name)


def kind_name(kind: AttrKind) -> str:
    return _NAMES[kind]


def kind_form(kind: AttrKind) -> AttrForm:
    return _FORMS[kind]


def is_enum_attr_kind(kind: AttrKind) -> bool:
    return AttrKind.NONE < kind < AttrKind.END and _FORMS[kind] is AttrForm.ENUM


def is_type_attr_kind(kind: AttrKind) -> bool:
    return _FORMS[kind] is AttrForm.TYPE


def is_int_attr_kind(kind: AttrKind) -> bool:
    return _FORMS[kind] is AttrForm.INT


def is_constant_range_attr_kind(kind: AttrKind) -> bool:
    return _FORMS[kind] is AttrForm.CONSTANT_RANGE


def is_constant_range_list_attr_kind(kind: AttrKind) -> bool:
    return _FORMS[kind] is AttrForm.CONSTANT_RANGE_LIST


def can_use_as_fn_attr(kind: AttrKind) -> bool:
    """May appear among function (or call-site function) attributes."""
    return bool(_PLACES[kind] & _F)


def can_use_as_param_attr(kind: AttrKind) -> bool:
    """May appear on a parameter or call argument."""
    return bool(_PLACES[kind] & _P)


def can_use_as_ret_attr(kind: AttrKind) -> bool:
    """May appear on a return value."""
    return bool(_PLACES[kind] & _R)


def is_function_only(kind: AttrKind) -> bool:
    """Allowed on functions and nowhere else."""
    return _PLACES[kind] == _F


def is_parameter_only(kind: AttrKind) -> bool:
    """Allowed on parameters and nowhere else."""
    return _PLACES[kind] == _P


# --- encodings of integer attribute values ----------------------------------------------


class FPClass(IntFlag):
    """Floating-point value classes, the mask of ``nofpclass`` (LLVM ``FPClassTest``)."""

    NONE = 0
    S_NAN = 1
    Q_NAN = 2
    NEG_INF = 4
    NEG_NORMAL = 8
    NEG_SUBNORMAL = 16
    NEG_ZERO = 32
    POS_ZERO = 64
    POS_SUBNORMAL = 128
    POS_NORMAL = 256
    POS_INF = 512
    NAN = 3
    INF = 516
    NORMAL = 264
    SUBNORMAL = 144
    ZERO = 96
    ALL = 1023


# The names ``nofpclass(...)`` uses, in the order opt-19 tries them when it
# prints a mask: the widest group that fits is written and its bits removed.
FP_CLASS_NAMES: tuple[tuple[str, int], ...] = (
    ("all", 1023),
    ("nan", 3),
    ("snan", 1),
    ("qnan", 2),
    ("inf", 516),
    ("ninf", 4),
    ("pinf", 512),
    ("zero", 96),
    ("nzero", 32),
    ("pzero", 64),
    ("sub", 144),
    ("nsub", 16),
    ("psub", 128),
    ("norm", 264),
    ("nnorm", 8),
    ("pnorm", 256),
)
FP_CLASS_BY_NAME: dict[str, int] = dict(FP_CLASS_NAMES)
"""Mask of each name accepted inside ``nofpclass(...)``."""


def format_fp_class(mask: int) -> str:
    """The words opt-19 prints inside ``nofpclass(...)`` for ``mask`` (``"nan ninf"``)."""
    if not 0 < mask <= FPClass.ALL:
        raise IRError("nofpclass mask %d out of range 1..1023" % mask)
    words: list[str] = []
    for name, bits in FP_CLASS_NAMES:
        if mask & bits == bits:
            words.append(name)
            mask &= ~bits
            if not mask:
                break
    return " ".join(words)


class AllocFnKind(IntFlag):
    """What an allocator function does: the value of ``allockind`` (LLVM ``AllocFnKind``)."""

    UNKNOWN = 0
    ALLOC = 1
    REALLOC = 2
    FREE = 4
    UNINITIALIZED = 8
    ZEROED = 16
    ALIGNED = 32


ALLOC_KIND_NAMES: tuple[tuple[str, int], ...] = (
    ("alloc", 1),
    ("realloc", 2),
    ("free", 4),
    ("uninitialized", 8),
    ("zeroed", 16),
    ("aligned", 32),
)
"""The words of ``allockind("...")`` in the order opt-19 prints them."""
ALLOC_KIND_BY_NAME: dict[str, int] = dict(ALLOC_KIND_NAMES)


def format_alloc_kind(kind: int) -> str:
    """The comma-separated words inside ``allockind("...")``: ``"alloc,zeroed"``."""
    return ",".join(name for name, bit in ALLOC_KIND_NAMES if kind & bit)


class UWTableKind(IntEnum):
    """Which unwind table a function needs: the value of ``uwtable``."""

    NONE = 0
    SYNC = 1
    ASYNC = 2
    """Also what a bare ``uwtable`` means."""


UWTABLE_DEFAULT = UWTableKind.ASYNC

ALLOC_SIZE_NUM_ELEMS_NOT_PRESENT = 0xFFFFFFFF
"""The low half of a packed ``allocsize`` without an element-count argument."""


def pack_alloc_size(elem_size_arg: int, num_elems_arg: int | None = None) -> int:
    """The raw value of ``allocsize(elem_size_arg[, num_elems_arg])``."""
    if not 0 <= elem_size_arg < ALLOC_SIZE_NUM_ELEMS_NOT_PRESENT:
        raise IRError("allocsize argument index %d out of range" % elem_size_arg)
    if num_elems_arg is None:
        low = ALLOC_SIZE_NUM_ELEMS_NOT_PRESENT
    else:
        if not 0 <= num_elems_arg < ALLOC_SIZE_NUM_ELEMS_NOT_PRESENT:
            raise IRError("allocsize argument index %d out of range" % num_elems_arg)
        low = num_elems_arg
    return (elem_size_arg << 32) | low


def unpack_alloc_size(raw: int) -> tuple[int, int | None]:
    """(element-size argument, element-count argument or None) of a packed ``allocsize``."""
    low = raw & 0xFFFFFFFF
    return raw >> 32, (None if low == ALLOC_SIZE_NUM_ELEMS_NOT_PRESENT else low)


def pack_vscale_range(min_value: int, max_value: int | None = None) -> int:
    """The raw value of ``vscale_range(min, max)``; ``max_value`` None means unbounded (printed 0).

    LLVM keeps no attribute whose raw value is 0 (``vscale_range(0,0)``), so that is
    refused here; a zero minimum with a maximum is kept for the verifier to reject, as
    are its other rules (powers of two, min <= max).
    """
    if not 0 <= min_value <= 0xFFFFFFFF or (min_value == 0 and not max_value):
        raise IRError("vscale_range(0,0) is no attribute (LLVM drops it); minimum must be in 0..2^32-1")
    high = 0 if max_value is None else max_value
    if not 0 <= high <= 0xFFFFFFFF:
        raise IRError("vscale_range maximum %d out of range" % high)
    return (min_value << 32) | high


def unpack_vscale_range(raw: int) -> tuple[int, int | None]:
    """(minimum, maximum or None when unbounded) of a packed ``vscale_range``."""
    high = raw & 0xFFFFFFFF
    return raw >> 32, (high or None)
