"""Abstract attributes: the lattice state and the base class every deduction derives from
(LLVM 19.1.7 ``include/llvm/Transforms/IPO/Attributor.h``: ``IntegerStateBase``,
``BitIntegerState``, ``BooleanState``, ``AbstractAttribute``, ``IRAttribute``,
``AA::hasAssumedIRAttr``; ``lib/Transforms/IPO/Attributor.cpp`` for the rest).

A state is a bit set twice over: the ``assumed`` bits (optimistic, only ever shrink) and
the ``known`` bits (proven, only ever grow, always within the assumed ones). A state is
at a fixpoint when both agree and valid while anything is still assumed. An abstract
attribute owns one state for one :class:`IRPosition`; the Attributor seeds it
(``initialize``), updates it until nothing changes (``update_impl``) and writes what it
deduced into the IR (``manifest``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, ClassVar, Self

from llvmpy_mid.ipo.attributor_position import IRPosition
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import PoisonValue, UndefValue

if TYPE_CHECKING:
    from llvmpy_mid.ipo.attributor import Attributor

__all__ = [
    "AbstractAttribute",
    "ChangeStatus",
    "DepClass",
    "IRAttributeAA",
    "IR_ATTR_AAS",
    "IntState",
    "has_assumed_ir_attr",
]


class ChangeStatus(enum.IntEnum):
    UNCHANGED = 0
    CHANGED = 1


class DepClass(enum.IntEnum):
    """LLVM ``DepClassTy``: how a query depends on the queried attribute."""

    REQUIRED = 0
    OPTIONAL = 1
    NONE = 2


class IntState:
    """A ``BitIntegerState``: ``assumed`` and ``known`` bits under ``best``
    (a ``BooleanState`` is the one-bit case)."""

    __slots__ = ("assumed", "known", "best")

    def __init__(self, best: int) -> None:
        self.best = best
        self.assumed = best
        self.known = 0

    def is_valid(self) -> bool:
        return self.assumed != 0

    def is_at_fixpoint(self) -> bool:
        return self.assumed == self.known

    def indicate_optimistic_fixpoint(self) -> ChangeStatus:
        self.known = self.assumed
        return ChangeStatus.UNCHANGED

    def indicate_pessimistic_fixpoint(self) -> ChangeStatus:
        self.assumed = self.known
        return ChangeStatus.CHANGED

    def is_assumed(self, bits: int) -> bool:
        return self.assumed & bits == bits

    def is_known(self, bits: int) -> bool:
        return self.known & bits == bits

    def add_known_bits(self, bits: int) -> None:
        self.assumed |= bits
        self.known |= bits

    def remove_assumed_bits(self, bits: int) -> None:
        self.assumed = (self.assumed & ~bits) | self.known

    def remove_known_bits(self, bits: int) -> None:
        self.known &= ~bits

    def intersect_assumed_bits(self, bits: int) -> None:
        self.assumed = (self.assumed & bits) | self.known

    def clamp(self, other: IntState) -> ChangeStatus:
        """``clampStateAndIndicateChange``: meet with ``other``'s assumed bits."""
        before = self.assumed
        self.intersect_assumed_bits(other.assumed)
        return ChangeStatus.CHANGED if before != self.assumed else ChangeStatus.UNCHANGED


class AbstractAttribute:
    """One deduction for one position (LLVM ``AbstractAttribute`` with its state)."""

    ID: ClassVar[str] = ""
    BEST_STATE: ClassVar[int] = 1
    requires_callee_for_call_base: ClassVar[bool] = False
    requires_non_asm_for_call_base: ClassVar[bool] = True
    requires_callers_for_arg_or_function: ClassVar[bool] = False
    has_trivial_initializer: ClassVar[bool] = True
    is_query_aa: ClassVar[bool] = False

    __slots__ = ("pos", "state", "deps")

    def __init__(self, pos: IRPosition) -> None:
        self.pos = pos
        self.state = IntState(self.BEST_STATE)
        self.deps: dict[AbstractAttribute, DepClass] = {}

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __repr__(self) -> str:
        return "%s(%r, assumed=%d, known=%d)" % (type(self).__name__, self.pos, self.state.assumed, self.state.known)

    # --- creation ------------------------------------------------------------------------
    @classmethod
    def create_for_position(cls, pos: IRPosition) -> Self:
        """The attribute deducing this one at ``pos`` (``createForPosition``); a family whose
        positions need different classes overrides it."""
        return cls(pos)

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return True

    @classmethod
    def is_valid_position_for_update(cls, a: Attributor, pos: IRPosition) -> bool:
        fn = pos.associated_function
        if not pos.is_fn_interface_kind:
            return True
        return fn is not None and a.is_function_ipo_amendable(fn)

    # --- fixpoint hooks ------------------------------------------------------------------
    def initialize(self, a: Attributor) -> None:
        pass

    def update(self, a: Attributor) -> ChangeStatus:
        if self.state.is_at_fixpoint():
            return ChangeStatus.UNCHANGED
        return self.update_impl(a)

    def update_impl(self, a: Attributor) -> ChangeStatus:
        return self.indicate_pessimistic_fixpoint()

    def manifest(self, a: Attributor) -> ChangeStatus:
        return ChangeStatus.UNCHANGED

    def indicate_pessimistic_fixpoint(self) -> ChangeStatus:
        return self.state.indicate_pessimistic_fixpoint()

    def indicate_optimistic_fixpoint(self) -> ChangeStatus:
        return self.state.indicate_optimistic_fixpoint()

    # --- state shorthands ------------------------------------------------------------------
    def is_assumed(self, bits: int | None = None) -> bool:
        return self.state.is_assumed(self.BEST_STATE if bits is None else bits)

    def is_known(self, bits: int | None = None) -> bool:
        return self.state.is_known(self.BEST_STATE if bits is None else bits)

    def changed_since(self, before: int) -> ChangeStatus:
        return ChangeStatus.CHANGED if before != self.state.assumed else ChangeStatus.UNCHANGED


class IRAttributeAA(AbstractAttribute):
    """An attribute that manifests as one enum IR attribute (LLVM ``IRAttribute``)."""

    IR_KIND: ClassVar[str] = ""
    IMPLIED_BY_UNDEF: ClassVar[bool] = True

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        value = pos.associated_value
        if cls.IMPLIED_BY_UNDEF and isinstance(value, (UndefValue, PoisonValue)):
            return True
        return a.has_attr(pos, (cls.IR_KIND,), ignore_subsuming, cls.IR_KIND)

    @staticmethod
    def enum_attr(kind: str) -> Attribute:
        return Attribute.enum(kind)

    def deduced_attributes(self, a: Attributor) -> list[Attribute]:
        return [Attribute.enum(self.IR_KIND)] if self.is_assumed() else []

    def manifest(self, a: Attributor) -> ChangeStatus:
        if isinstance(self.pos.associated_value, UndefValue):
            return ChangeStatus.UNCHANGED
        attrs = self.deduced_attributes(a)
        if not attrs:
            return ChangeStatus.UNCHANGED
        return a.manifest_attrs(self.pos, attrs)


IR_ATTR_AAS: dict[str, type[IRAttributeAA]] = {}
"""The abstract attribute answering ``has_assumed_ir_attr`` for each IR attribute kind
(filled by the attribute families)."""

_MEMORY_BEHAVIOR_BITS = {"readnone": 3, "readonly": 2, "writeonly": 1}


def has_assumed_ir_attr(
    a: Attributor,
    querying: AbstractAttribute | None,
    pos: IRPosition,
    kind: str,
    dep: DepClass,
    ignore_subsuming: bool = False,
) -> tuple[bool, bool, AbstractAttribute | None]:
    """LLVM ``AA::hasAssumedIRAttr``: (assumed, known, the attribute asked) for ``kind`` at
    ``pos``; what the IR implies is known without asking any abstract attribute."""
    if kind in _MEMORY_BEHAVIOR_BITS:
        mb_cls = IR_ATTR_AAS["memory-behavior"]
        if mb_cls.is_implied_by_ir_kind(a, pos, kind, ignore_subsuming):  # type: ignore[attr-defined]
            return True, True, None
        if querying is None:
            return False, False, None
        mb = a.get_aa_for(mb_cls, querying, pos, dep)
        bits = _MEMORY_BEHAVIOR_BITS[kind]
        if mb is None or not mb.is_assumed(bits):
            return False, False, mb
        return True, mb.is_known(bits), mb
    aa_cls = IR_ATTR_AAS[kind]
    if aa_cls.is_implied_by_ir(a, pos, ignore_subsuming):
        return True, True, None
    if querying is None:
        return False, False, None
    aa = a.get_aa_for(aa_cls, querying, pos, dep)
    if aa is None or not aa.is_assumed():
        return False, False, aa
    return True, aa.is_known(), aa
