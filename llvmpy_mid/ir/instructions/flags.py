"""Small enumerations and bit sets shared by the instruction classes.

What lives here: fast-math flags, atomic orderings (with LLVM's strength
lattice), the ``atomicrmw`` operations LLVM 19 accepts, the no-wrap flags of
``getelementptr`` and the tail-call kinds of ``call``. Each member's value (or
``keyword``) is the spelling LLVM's textual IR uses; the keyword enumerations
share ``keyword`` and ``from_keyword`` through :class:`KeywordEnum`.

It does not hold any instruction class, and it does not parse or print
instructions; the assembly layer uses the keywords defined here.
"""

from __future__ import annotations

from enum import Enum, IntFlag
from typing import TYPE_CHECKING, Self

from llvmpy_mid.ir.types import ArrayType

if TYPE_CHECKING:
    from llvmpy_mid.ir.types import Type


class FastMathFlags(IntFlag):
    """Fast-math flags, with LLVM's bit positions (``FastMathFlags`` in LLVM)."""

    NONE = 0
    REASSOC = 1
    NNAN = 2
    NINF = 4
    NSZ = 8
    ARCP = 16
    CONTRACT = 32
    AFN = 64
    FAST = 127

    @property
    def keywords(self) -> str:
        """The flags as LLVM prints them: ``"fast"`` when all seven are set,
        else e.g. ``"nnan ninf"`` in LLVM's order; ``""`` for none."""
        v = int(self)
        if v == 127:
            return "fast"
        if v == 0:
            return ""
        return " ".join(kw for bit, kw in _FMF_KEYWORDS if v & bit)

    @staticmethod
    def from_keyword(keyword: str) -> FastMathFlags:
        """The flag named by one keyword (``"nnan"``, ``"fast"`` ...); KeyError if unknown."""
        return _FMF_BY_KEYWORD[keyword]


def type_supports_fast_math_flags(ty: Type) -> bool:
    """Whether phi, select and call of type ``ty`` may carry fast-math flags in
    LLVM 19: floating-point scalars or vectors, possibly inside (nested) arrays
    (not structs; opt-19 rejects ``select fast`` of ``{ float, float }``)."""
    while isinstance(ty, ArrayType):
        ty = ty.element_type
    return ty.scalar_type.is_floating_point


_FMF_KEYWORDS: tuple[tuple[int, str], ...] = (
    (1, "reassoc"),
    (2, "nnan"),
    (4, "ninf"),
    (8, "nsz"),
    (16, "arcp"),
    (32, "contract"),
    (64, "afn"),
)

_FMF_BY_KEYWORD: dict[str, FastMathFlags] = {kw: FastMathFlags(bit) for bit, kw in _FMF_KEYWORDS}
_FMF_BY_KEYWORD["fast"] = FastMathFlags.FAST


class KeywordEnum(Enum):
    """An enumeration whose member values are LLVM's keywords (no members itself)."""

    _value_: str

    @property
    def keyword(self) -> str:
        return self._value_

    @classmethod
    def from_keyword(cls, keyword: str) -> Self:
        """The member spelled ``keyword``; ValueError if there is none."""
        return cls(keyword)


class AtomicOrdering(KeywordEnum):
    """Memory orderings; the value is LLVM's keyword (``"seq_cst"``...).

    Acquire and release are not comparable with each other; use
    :meth:`is_stronger_than` / :meth:`is_at_least` rather than ``<``.
    """

    NOT_ATOMIC = "notatomic"
    UNORDERED = "unordered"
    MONOTONIC = "monotonic"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"
    SEQ_CST = "seq_cst"

    @property
    def llvm_value(self) -> int:
        """LLVM's ``AtomicOrdering`` number (consume, 3, does not exist in IR)."""
        return _ORDER_NUM[self]

    @property
    def is_atomic(self) -> bool:
        return self is not AtomicOrdering.NOT_ATOMIC

    def is_stronger_than(self, other: AtomicOrdering) -> bool:
        """Strictly stronger in LLVM's lattice (``isStrongerThan``)."""
        return self is not other and (_ORDER_NUM[other], _ORDER_NUM[self]) in _WEAKER_OR_EQUAL

    def is_at_least(self, other: AtomicOrdering) -> bool:
        """At least as strong as ``other`` (LLVM ``isAtLeastOrStrongerThan``)."""
        return (_ORDER_NUM[other], _ORDER_NUM[self]) in _WEAKER_OR_EQUAL

    @property
    def is_stronger_than_unordered(self) -> bool:
        return _ORDER_NUM[self] > 1

    @property
    def is_stronger_than_monotonic(self) -> bool:
        return _ORDER_NUM[self] > 2

    @property
    def is_acquire_or_stronger(self) -> bool:
        """acquire, acq_rel or seq_cst."""
        return self in _ACQUIRE_OR_STRONGER

    @property
    def is_release_or_stronger(self) -> bool:
        """release, acq_rel or seq_cst."""
        return self in _RELEASE_OR_STRONGER


_ORDER_NUM: dict[AtomicOrdering, int] = {
    AtomicOrdering.NOT_ATOMIC: 0,
    AtomicOrdering.UNORDERED: 1,
    AtomicOrdering.MONOTONIC: 2,
    AtomicOrdering.ACQUIRE: 4,
    AtomicOrdering.RELEASE: 5,
    AtomicOrdering.ACQ_REL: 6,
    AtomicOrdering.SEQ_CST: 7,
}


def _order_pairs() -> frozenset[tuple[int, int]]:
    # (weaker, stronger) pairs of LLVM's ordering lattice, reflexive and transitive.
    edges = {(0, 1), (1, 2), (2, 4), (2, 5), (4, 6), (5, 6), (6, 7)}
    nums = (0, 1, 2, 4, 5, 6, 7)
    pairs = {(n, n) for n in nums} | edges
    changed = True
    while changed:
        changed = False
        for a, b in list(pairs):
            for c, d in list(pairs):
                if b == c and (a, d) not in pairs:
                    pairs.add((a, d))
                    changed = True
    return frozenset(pairs)


_WEAKER_OR_EQUAL = _order_pairs()
_ACQUIRE_OR_STRONGER = frozenset((AtomicOrdering.ACQUIRE, AtomicOrdering.ACQ_REL, AtomicOrdering.SEQ_CST))
_RELEASE_OR_STRONGER = frozenset((AtomicOrdering.RELEASE, AtomicOrdering.ACQ_REL, AtomicOrdering.SEQ_CST))


class AtomicRMWBinOp(KeywordEnum):
    """The operations of ``atomicrmw`` that LLVM 19 accepts (checked with opt-19;
    ``usub_cond``, ``usub_sat``, ``fmaximum`` and ``fminimum`` came later)."""

    XCHG = "xchg"
    ADD = "add"
    SUB = "sub"
    AND = "and"
    NAND = "nand"
    OR = "or"
    XOR = "xor"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    FADD = "fadd"
    FSUB = "fsub"
    FMAX = "fmax"
    FMIN = "fmin"
    UINC_WRAP = "uinc_wrap"
    UDEC_WRAP = "udec_wrap"

    @property
    def is_fp_operation(self) -> bool:
        """fadd, fsub, fmax, fmin (LLVM ``isFPOperation``)."""
        return self in _RMW_FP


_RMW_FP = frozenset((AtomicRMWBinOp.FADD, AtomicRMWBinOp.FSUB, AtomicRMWBinOp.FMAX, AtomicRMWBinOp.FMIN))


class GEPFlags(IntFlag):
    """``getelementptr`` no-wrap flags with LLVM 19's bits (``GEPNoWrapFlags``).

    ``inbounds`` implies ``nusw``: :func:`normalize_gep_flags` adds it, and the
    printer writes ``inbounds`` alone for the pair.
    """

    NONE = 0
    INBOUNDS = 1
    NUSW = 2
    NUW = 4

    @property
    def keywords(self) -> str:
        """As opt-19 prints them: ``"inbounds nuw"``, ``"nusw"``, ``""``..."""
        v = int(self)
        parts: list[str] = []
        if v & 1:
            parts.append("inbounds")
        elif v & 2:
            parts.append("nusw")
        if v & 4:
            parts.append("nuw")
        return " ".join(parts)


def normalize_gep_flags(flags: GEPFlags | int) -> GEPFlags:
    """``flags`` with ``nusw`` added when ``inbounds`` is set."""
    v = int(flags)
    if v & 1:
        v |= 2
    return GEPFlags(v)


class TailCallKind(KeywordEnum):
    """The marker before ``call``; the value is the keyword (``""`` for none)."""

    NONE = ""
    TAIL = "tail"
    MUSTTAIL = "musttail"
    NOTAIL = "notail"


SYNC_SCOPE_SYSTEM = ""
"""The default synchronisation scope (printed as nothing)."""
SYNC_SCOPE_SINGLETHREAD = "singlethread"

__all__ = [
    "FastMathFlags",
    "type_supports_fast_math_flags",
    "KeywordEnum",
    "AtomicOrdering",
    "AtomicRMWBinOp",
    "GEPFlags",
    "normalize_gep_flags",
    "TailCallKind",
    "SYNC_SCOPE_SYSTEM",
    "SYNC_SCOPE_SINGLETHREAD",
]
