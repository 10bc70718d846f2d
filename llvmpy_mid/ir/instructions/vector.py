"""Vector and aggregate element instructions: ``extractelement``,
``insertelement``, ``shufflevector``, ``extractvalue``, ``insertvalue``.

Operand order is LLVM's: extractelement ``(vector, index)``; insertelement
``(vector, element, index)``; shufflevector ``(v1, v2)``; extractvalue
``(aggregate,)``; insertvalue ``(aggregate, value)``. As in LLVM, the shuffle
mask (a tuple of lane numbers, -1 for a poison lane) and the constant index
lists of extractvalue/insertvalue are kept beside the operands, not as operands.

This module does not fold or simplify shuffles.
"""

from __future__ import annotations

from typing import ClassVar, NoReturn, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import swap_operand_uses
from llvmpy_mid.ir.types import ArrayType, StructType, Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value

POISON_MASK_ELEM = -1
"""The mask value of a poison lane."""


class ExtractElementInst(Instruction):
    """``extractelement <N x T> %v, iK %idx``. Operands: ``(vector, index)``."""

    __slots__ = ()
    __match_args__ = ("vector_operand", "index_operand")

    opcode: ClassVar[str] = "extractelement"

    def __init__(self, vector: Value, index: Value, *, name: str = "") -> None:
        vty = vector.type
        if not isinstance(vty, VectorType):
            raise IRError("extractelement needs a vector operand, not %s" % vty)
        if index.type.type_id is not TypeID.INTEGER:
            raise IRError("extractelement index must be an integer, not %s" % index.type)
        Instruction.__init__(self, vty.element_type, (vector, index), name)

    @property
    def vector_operand(self) -> Value:
        return self._operands[0].value

    @property
    def index_operand(self) -> Value:
        return self._operands[1].value

    @property
    def vector_operand_type(self) -> VectorType:
        ty = self._operands[0].value.type
        assert isinstance(ty, VectorType)
        return ty

    def _clone_impl(self) -> ExtractElementInst:
        return ExtractElementInst(self._operands[0].value, self._operands[1].value)


class InsertElementInst(Instruction):
    """``insertelement <N x T> %v, T %elt, iK %idx``. Operands: ``(vector, element, index)``."""

    __slots__ = ()
    __match_args__ = ("vector_operand", "element_operand", "index_operand")

    opcode: ClassVar[str] = "insertelement"

    def __init__(self, vector: Value, element: Value, index: Value, *, name: str = "") -> None:
        vty = vector.type
        if not isinstance(vty, VectorType):
            raise IRError("insertelement needs a vector operand, not %s" % vty)
        if element.type is not vty.element_type:
            raise IRError("insertelement element of type %s into %s" % (element.type, vty))
        if index.type.type_id is not TypeID.INTEGER:
            raise IRError("insertelement index must be an integer, not %s" % index.type)
        Instruction.__init__(self, vty, (vector, element, index), name)

    @property
    def vector_operand(self) -> Value:
        return self._operands[0].value

    @property
    def element_operand(self) -> Value:
        return self._operands[1].value

    @property
    def index_operand(self) -> Value:
        return self._operands[2].value

    def _clone_impl(self) -> InsertElementInst:
        ops = self._operands
        return InsertElementInst(ops[0].value, ops[1].value, ops[2].value)


def shuffle_mask_is_valid(source_type: Type, mask: Sequence[int]) -> bool:
    """Whether ``mask`` may shuffle two vectors of ``source_type`` (LLVM
    ``ShuffleVectorInst::isValidOperands``): each lane is -1 or below twice the
    source length; a scalable shuffle's mask is all 0 or all -1."""
    if not isinstance(source_type, VectorType) or not mask:
        return False
    if source_type.scalable:
        first = mask[0]
        if first != 0 and first != POISON_MASK_ELEM:
            return False
        for m in mask:
            if m != first:
                return False
        return True
    limit = 2 * source_type.count
    for m in mask:
        if m != POISON_MASK_ELEM and not 0 <= m < limit:
            return False
    return True


class ShuffleVectorInst(Instruction):
    """``shufflevector <N x T> %a, <N x T> %b, <M x i32> mask``. Operands: ``(v1, v2)``.

    ``mask`` is a tuple of lane numbers (``i < N`` picks ``v1[i]``, ``N <= i < 2N``
    picks ``v2[i - N]``, -1 gives poison). The result is ``<M x T>``, scalable
    when the sources are.
    """

    __slots__ = ("_mask",)

    opcode: ClassVar[str] = "shufflevector"

    def __init__(self, v1: Value, v2: Value, mask: Sequence[int], *, name: str = "") -> None:
        vty = v1.type
        if not isinstance(vty, VectorType) or v2.type is not vty:
            raise IRError("shufflevector needs two vectors of the same type (%s, %s)" % (vty, v2.type))
        mask_t = tuple(mask)
        if not shuffle_mask_is_valid(vty, mask_t):
            raise IRError("invalid shufflevector mask %r for %s" % (mask_t, vty))
        ctx = vty.context
        Instruction.__init__(self, ctx.vector_type(vty.element_type, len(mask_t), vty.scalable), (v1, v2), name)
        self._mask = mask_t

    @property
    def mask(self) -> tuple[int, ...]:
        return self._mask

    def set_mask(self, mask: Sequence[int]) -> None:
        """Replace the mask; its length must stay the result's length."""
        mask_t = tuple(mask)
        if len(mask_t) != len(self._mask):
            raise IRError("a new shufflevector mask must keep the result length %d" % len(self._mask))
        if not shuffle_mask_is_valid(self._operands[0].value.type, mask_t):
            raise IRError("invalid shufflevector mask %r" % (mask_t,))
        self._mask = mask_t

    def get_mask_value(self, lane: int) -> int:
        return self._mask[lane]

    @property
    def source_length(self) -> int:
        ty = self._operands[0].value.type
        assert isinstance(ty, VectorType)
        return ty.count

    @property
    def changes_length(self) -> bool:
        return len(self._mask) != self.source_length

    @property
    def is_identity(self) -> bool:
        """Takes one source unchanged (poison lanes allowed), without changing
        the length (LLVM ``isIdentity``)."""
        n = self.source_length
        if len(self._mask) != n or self._operands[0].value.type.type_id is TypeID.SCALABLE_VECTOR:
            return False
        uses_first = uses_second = False
        for i, m in enumerate(self._mask):
            if m == POISON_MASK_ELEM:
                continue
            if m == i:
                uses_first = True
            elif m == i + n:
                uses_second = True
            else:
                return False
        return not (uses_first and uses_second)

    def commute(self) -> None:
        """Exchange the two sources and rewrite the mask to match (LLVM ``commute``)."""
        n = self.source_length
        self._mask = tuple(m if m < 0 else (m + n if m < n else m - n) for m in self._mask)
        swap_operand_uses(self._operands[0], self._operands[1])

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return isinstance(other, ShuffleVectorInst) and self._mask == other._mask

    def _clone_impl(self) -> ShuffleVectorInst:
        return ShuffleVectorInst(self._operands[0].value, self._operands[1].value, self._mask)


def get_aggregate_indexed_type(aggregate_type: Type, indices: Sequence[int]) -> Type | None:
    """The type reached from ``aggregate_type`` through constant ``indices``
    (LLVM ``ExtractValueInst::getIndexedType``), or None when an index is out of
    range or meets a type that is not a struct or array. Vectors cannot be
    entered (extractelement does that)."""
    ty = aggregate_type
    for idx in indices:
        if isinstance(ty, StructType):
            if not 0 <= idx < len(ty.elements):
                return None
            ty = ty.elements[idx]
        elif isinstance(ty, ArrayType):
            if not 0 <= idx < ty.count:
                return None
            ty = ty.element_type
        else:
            return None
    return ty


class _IndexedAggregateInst(Instruction):
    """What extractvalue and insertvalue share: the aggregate operand 0 and the
    constant index list into it (kept beside the operands)."""

    __slots__ = ("_indices",)

    _indices: tuple[int, ...]

    def _bad_indices(self, aggregate: Value, idx: tuple[int, ...]) -> NoReturn:
        """Raise the constructor's error for ``idx``, which reach no type in
        ``aggregate`` (the constructors test that inline: they are hot)."""
        if not idx:
            raise IRError("%s needs at least one index" % self.opcode)
        raise IRError("invalid %s indices %r into %s" % (self.opcode, idx, aggregate.type))

    @staticmethod
    def get_indexed_type(aggregate_type: Type, indices: Sequence[int]) -> Type | None:
        return get_aggregate_indexed_type(aggregate_type, indices)

    @property
    def aggregate_operand(self) -> Value:
        return self._operands[0].value

    @property
    def indices(self) -> tuple[int, ...]:
        return self._indices

    @property
    def num_indices(self) -> int:
        return len(self._indices)

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return isinstance(other, _IndexedAggregateInst) and self._indices == other._indices


class ExtractValueInst(_IndexedAggregateInst):
    """``extractvalue {..} %agg, i, j...``. Operands: ``(aggregate,)``; the index
    list is ``indices``."""

    __slots__ = ()

    opcode: ClassVar[str] = "extractvalue"

    def __init__(self, aggregate: Value, indices: Sequence[int], *, name: str = "") -> None:
        idx = tuple(indices)
        ty = get_aggregate_indexed_type(aggregate.type, idx) if idx else None
        if ty is None:
            self._bad_indices(aggregate, idx)
        Instruction.__init__(self, ty, (aggregate,), name)
        self._indices = idx

    def _clone_impl(self) -> ExtractValueInst:
        return ExtractValueInst(self._operands[0].value, self._indices)


class InsertValueInst(_IndexedAggregateInst):
    """``insertvalue {..} %agg, T %val, i, j...``. Operands: ``(aggregate, value)``;
    the index list is ``indices``."""

    __slots__ = ()

    opcode: ClassVar[str] = "insertvalue"

    def __init__(self, aggregate: Value, value: Value, indices: Sequence[int], *, name: str = "") -> None:
        idx = tuple(indices)
        ty = get_aggregate_indexed_type(aggregate.type, idx) if idx else None
        if ty is None:
            self._bad_indices(aggregate, idx)
        if value.type is not ty:
            raise IRError("insertvalue operand and field disagree in type: %s vs %s" % (value.type, ty))
        Instruction.__init__(self, aggregate.type, (aggregate, value), name)
        self._indices = idx

    @property
    def inserted_value_operand(self) -> Value:
        return self._operands[1].value

    def _clone_impl(self) -> InsertValueInst:
        return InsertValueInst(self._operands[0].value, self._operands[1].value, self._indices)


__all__ = [
    "POISON_MASK_ELEM",
    "ExtractElementInst",
    "InsertElementInst",
    "ShuffleVectorInst",
    "shuffle_mask_is_valid",
    "ExtractValueInst",
    "InsertValueInst",
    "get_aggregate_indexed_type",
]
