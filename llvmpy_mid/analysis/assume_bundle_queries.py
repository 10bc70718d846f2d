"""Reading what ``llvm.assume`` operand bundles state (LLVM 19.1.7
``llvm/lib/Analysis/AssumeBundleQueries.cpp``): :class:`RetainedKnowledge`, one fact;
:func:`get_knowledge_from_bundle`, the fact of one bundle; :func:`get_knowledge_for_value`,
the first fact about a value an assumption cache (or, without one, the value's uses) holds
that a filter accepts. The building side is ``transform/utils/assume_bundle_builder.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from llvmpy_mid.ir.attribute_kinds import AttrKind, find_attribute_kind, kind_name
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache

__all__ = ["RetainedKnowledge", "get_knowledge_for_value", "get_knowledge_from_bundle", "min_align"]


class RetainedKnowledge:
    """One fact: attribute ``kind`` with ``arg`` about ``was_on`` (LLVM ``RetainedKnowledge``)."""

    __slots__ = ("kind", "arg", "was_on")

    def __init__(self, kind: AttrKind, arg: int, was_on: Value | None) -> None:
        self.kind = kind
        self.arg = arg
        self.was_on = was_on

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RetainedKnowledge)
            and self.kind is other.kind
            and self.arg == other.arg
            and self.was_on is other.was_on
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.arg, id(self.was_on)))

    def __repr__(self) -> str:
        return "<RetainedKnowledge %s(%r, %d)>" % (kind_name(self.kind), self.was_on, self.arg)


def min_align(a: int, b: int) -> int:
    """The largest power of two dividing both (LLVM ``MinAlign``)."""
    v = a | b
    return v & -v


def get_knowledge_from_bundle(assume: CallBase, bundle_index: int) -> RetainedKnowledge | None:
    """The fact bundle ``bundle_index`` of ``assume`` states (LLVM ``getKnowledgeFromBundle``)."""
    bundle = assume.operand_bundles[bundle_index]
    kind = find_attribute_kind(bundle.tag)
    if kind is None:
        return None
    inputs = bundle.inputs
    was_on = inputs[0] if inputs else None

    def arg_or_1(i: int) -> int:
        v = inputs[i]
        return v.value if isinstance(v, ConstantInt) else 1

    arg = 0
    if len(inputs) > 1:
        arg = arg_or_1(1)
    if kind is AttrKind.ALIGNMENT and len(inputs) > 2:
        arg = min_align(arg, arg_or_1(2))
    return RetainedKnowledge(kind, arg, was_on)



def get_knowledge_for_value(
    v: Value,
    kinds: Iterable[AttrKind],
    ac: AssumptionCache | None,
    accept: Callable[[RetainedKnowledge, CallInst, int], bool],
) -> RetainedKnowledge | None:
    """The first bundle fact of one of ``kinds`` about ``v`` that ``accept(fact, assume, begin)``
    takes (``begin``: the bundle's first operand index): from the assumption cache's entries for ``v``, or (no cache) from ``v``'s uses
    as a bundle input (LLVM ``getKnowledgeForValue``)."""
    wanted = frozenset(kinds)
    if ac is not None:
        for assume, index in ac.assumptions_for(v):
            if index < 0 or not isinstance(assume, CallInst):
                continue
            rk = get_knowledge_from_bundle(assume, index)
            if rk is None or rk.was_on is not v:
                continue
            if rk.kind in wanted and accept(rk, assume, assume.operand_bundle_ranges[index][1]):
                return rk
        return None
    for use in v.uses:
        user = use.user
        if not isinstance(user, CallInst) or user.intrinsic_base != "llvm.assume" or not user.is_bundle_operand(use.index):
            continue
        for index, (_tag, begin, end) in enumerate(user.operand_bundle_ranges):
            if begin <= use.index < end:
                rk = get_knowledge_from_bundle(user, index)
                if rk is not None and rk.kind in wanted and accept(rk, user, begin):
                    return rk
                break
    return None
