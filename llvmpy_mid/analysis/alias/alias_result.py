"""The answer to an alias query (LLVM's ``AliasResult``, ``llvm/Analysis/AliasAnalysis.h``).

Four kinds, ordered as LLVM orders them: ``NoAlias`` (the two locations never overlap),
``MayAlias``, ``PartialAlias`` (they overlap, but neither starts where the other does or
they differ in size) and ``MustAlias`` (they start at the same address). A
``PartialAlias`` may carry the offset of the second location's start relative to the
first's (:attr:`AliasResult.offset`); :meth:`AliasResult.swap` negates it when the
query's operands are exchanged. The text form is LLVM's ``operator<<``
(``PartialAlias (off 4)``), which ``aa-eval`` prints.
"""

from __future__ import annotations

import enum

import attrs


class AliasKind(enum.IntEnum):
    NO_ALIAS = 0
    MAY_ALIAS = 1
    PARTIAL_ALIAS = 2
    MUST_ALIAS = 3


_NAMES = ("NoAlias", "MayAlias", "PartialAlias", "MustAlias")


@attrs.frozen(slots=True)
class AliasResult:
    """One alias answer; compare with ``==`` against :data:`NO_ALIAS` etc. (the offset
    does not take part in equality, as in LLVM)."""

    kind: AliasKind
    offset: int | None = attrs.field(default=None, eq=False)

    @property
    def has_offset(self) -> bool:
        return self.offset is not None

    def with_offset(self, offset: int) -> AliasResult:
        """This ``PartialAlias`` with a known offset (LLVM ``setOffset``; LLVM keeps only
        offsets that fit its 23-bit field)."""
        if -(1 << 22) <= offset < (1 << 22):
            return AliasResult(self.kind, offset)
        return AliasResult(self.kind)

    def swap(self, do_swap: bool = True) -> AliasResult:
        """The answer for the exchanged query: the offset changes sign."""
        if do_swap and self.offset is not None:
            return AliasResult(self.kind, -self.offset)
        return self

    def __bool__(self) -> bool:
        """True unless ``NoAlias`` (LLVM's ``operator bool``)."""
        return self.kind is not AliasKind.NO_ALIAS

    def __str__(self) -> str:
        text = _NAMES[self.kind]
        if self.kind is AliasKind.PARTIAL_ALIAS and self.offset is not None:
            text += " (off %d)" % self.offset
        return text


NO_ALIAS = AliasResult(AliasKind.NO_ALIAS)
MAY_ALIAS = AliasResult(AliasKind.MAY_ALIAS)
PARTIAL_ALIAS = AliasResult(AliasKind.PARTIAL_ALIAS)
MUST_ALIAS = AliasResult(AliasKind.MUST_ALIAS)
