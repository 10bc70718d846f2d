"""The ``getelementptr`` instruction (LLVM ``GetElementPtrInst``) and the
indexed-type walk it is built on (:func:`get_indexed_type`).

Operands are LLVM's: ``(pointer, indices...)``. The constructor checks what
LLVM's IR-level checks cover: the base is a pointer or a vector of pointers,
every index is an integer or a vector of integers, all vector operands agree
in length (the result is then a vector of pointers), struct indices are
in-range ``i32`` constants (or splats of one), and a GEP with indices has a
sized source element type. The flags are ``GEPFlags`` (``inbounds`` implies
``nusw``, as in LLVM).

This module computes no byte offsets (that needs a data layout; see
``llvmpy_mid.ir.data_layout``) and folds nothing; the constant-expression
GEP is ``ConstantExpr.get_gep`` in ``llvmpy_mid.ir.constant_expr``.
"""

from __future__ import annotations

from typing import ClassVar, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import (
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantInt,
    ConstantVector,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import GEPFlags
from llvmpy_mid.ir.type_queries import SCALAR_TYPE_IDS
from llvmpy_mid.ir.types import (
    ArrayType,
    PointerType,
    StructType,
    Type,
    TypeID,
    VectorType,
)
from llvmpy_mid.ir.value import Value

_POINTER = TypeID.POINTER
_INTEGER = TypeID.INTEGER


def _struct_field(st: StructType, index: Value | int) -> Type | None:
    """The field a struct index selects, or None when the index is not a valid
    struct index: an ``i32`` constant (or a fixed-vector splat of one) in range."""
    n = len(st.elements)
    if isinstance(index, int):
        return st.elements[index] if 0 <= index < n else None
    ity = index.type
    if isinstance(ity, VectorType):
        if ity.scalable or not ity.element_type.is_integer_bits(32):
            return None
        if isinstance(index, ConstantAggregateZero):
            k = 0
        elif isinstance(index, (ConstantDataVector, ConstantVector)):
            splat = index.splat_value
            if not isinstance(splat, ConstantInt):
                return None
            k = splat.value
        else:
            return None
    elif isinstance(index, ConstantInt) and ity.is_integer_bits(32):
        k = index.value
    else:
        return None
    return st.elements[k] if k < n else None


def get_indexed_type(source_type: Type, indices: Sequence[Value | int]) -> Type | None:
    """The type a GEP with these indices points at (LLVM
    ``GetElementPtrInst::getIndexedType``), or None if the indices are invalid.

    The first index steps over the pointer and does not change the type; each
    further index enters an array or vector (any integer index) or a struct (an
    ``i32`` constant in range, or a splat vector of one). Python ints are
    accepted as constant indices.
    """
    ty = source_type
    for i in range(1, len(indices)):
        idx = indices[i]
        if isinstance(ty, StructType):
            field = _struct_field(ty, idx)
            if field is None:
                return None
            ty = field
            continue
        if not isinstance(idx, int) and not idx.type.is_int_or_int_vector:
            return None
        if isinstance(ty, (ArrayType, VectorType)):
            ty = ty.element_type
        else:
            return None
    return ty


class GetElementPtrInst(Instruction):
    """``getelementptr [inbounds|nusw] [nuw] T, ptr P, idx...``.
    Operands: ``(pointer, indices...)``.

    The result is the pointer type of ``P``, or a vector of pointers when ``P``
    or any index is a vector (all vectors must have the same length).
    ``result_element_type`` is the type the result points at.
    """

    __slots__ = ("_source_element_type", "_result_element_type", "_gep_flags")
    __match_args__ = ("pointer_operand",)

    opcode: ClassVar[str] = "getelementptr"

    def __init__(
        self,
        source_element_type: Type,
        pointer: Value,
        indices: Sequence[Value],
        *,
        flags: GEPFlags | int = 0,
        name: str = "",
    ) -> None:
        pty = pointer.type
        result_ty: Type = pty
        vec: VectorType | None = None
        if pty.type_id is not _POINTER:
            if not isinstance(pty, VectorType) or pty.element_type.type_id is not _POINTER:
                raise IRError("getelementptr base must be a pointer or vector of pointers, not %s" % pty)
            vec = pty
        for idx in indices:
            ity = idx.type
            if ity.type_id is _INTEGER:
                continue
            if not isinstance(ity, VectorType) or ity.element_type.type_id is not _INTEGER:
                raise IRError("getelementptr index must be an integer, not %s" % ity)
            if vec is None:
                vec = ity
                result_ty = pty.context.vector_type(pty, ity.count, ity.scalable)
            elif vec.count != ity.count or vec.scalable != ity.scalable:
                raise IRError("getelementptr vector index has a wrong number of elements")
        if len(indices) > 1:
            elem = get_indexed_type(source_element_type, indices)
            if elem is None:
                raise IRError("invalid getelementptr indices into %s" % source_element_type)
        else:
            elem = source_element_type
        if indices and source_element_type.type_id not in SCALAR_TYPE_IDS and not source_element_type.is_sized:
            raise IRError("base element of getelementptr must be sized (%s)" % source_element_type)
        ops = [pointer]
        ops += indices
        Instruction.__init__(self, result_ty, ops, name)
        self._source_element_type = source_element_type
        self._result_element_type = elem
        f = flags if type(flags) is int else int(flags)
        self._gep_flags = f | 2 if f & 1 else f

    @staticmethod
    def get_indexed_type(source_type: Type, indices: Sequence[Value | int]) -> Type | None:
        """See the module-level :func:`get_indexed_type`."""
        return get_indexed_type(source_type, indices)

    # --- operands ------------------------------------------------------------------
    @property
    def pointer_operand(self) -> Value:
        return self._operands[0].value

    @property
    def pointer_operand_type(self) -> Type:
        return self._operands[0].value.type

    @property
    def pointer_address_space(self) -> int:
        ty = self._operands[0].value.type.scalar_type
        assert isinstance(ty, PointerType)
        return ty.address_space

    @property
    def indices(self) -> list[Value]:
        return [u.value for u in self._operands[1:]]

    @property
    def num_indices(self) -> int:
        return len(self._operands) - 1

    @property
    def has_indices(self) -> bool:
        return len(self._operands) > 1

    @property
    def source_element_type(self) -> Type:
        return self._source_element_type

    @source_element_type.setter
    def source_element_type(self, ty: Type) -> None:
        self._source_element_type = ty

    @property
    def result_element_type(self) -> Type:
        return self._result_element_type

    @result_element_type.setter
    def result_element_type(self, ty: Type) -> None:
        self._result_element_type = ty

    @property
    def has_all_zero_indices(self) -> bool:
        """Every index is a ``ConstantInt`` zero (vector zeros do not count, as in LLVM)."""
        ops = self._operands
        for i in range(1, len(ops)):
            v = ops[i].value
            if not isinstance(v, ConstantInt) or v.value != 0:
                return False
        return True

    @property
    def has_all_constant_indices(self) -> bool:
        """Every index is a ``ConstantInt``."""
        ops = self._operands
        for i in range(1, len(ops)):
            if not isinstance(ops[i].value, ConstantInt):
                return False
        return True

    # --- flags ---------------------------------------------------------------------
    @property
    def gep_flags(self) -> GEPFlags:
        return GEPFlags(self._gep_flags)

    @gep_flags.setter
    def gep_flags(self, flags: GEPFlags | int) -> None:
        f = int(flags) & 7
        if f & 1:
            f |= 2
        self._gep_flags = f

    @property
    def inbounds(self) -> bool:
        return bool(self._gep_flags & 1)

    @inbounds.setter
    def inbounds(self, value: bool) -> None:
        # Clearing inbounds keeps nusw (LLVM ``withoutInBounds``).
        self._gep_flags = (self._gep_flags | 3) if value else (self._gep_flags & ~1)

    @property
    def nusw(self) -> bool:
        return bool(self._gep_flags & 2)

    @nusw.setter
    def nusw(self, value: bool) -> None:
        # Clearing nusw clears inbounds too, which implies it.
        self._gep_flags = (self._gep_flags | 2) if value else (self._gep_flags & ~3)

    @property
    def nuw(self) -> bool:
        return bool(self._gep_flags & 4)

    @nuw.setter
    def nuw(self, value: bool) -> None:
        self._gep_flags = (self._gep_flags | 4) if value else (self._gep_flags & ~4)

    def drop_poison_generating_flags(self) -> None:
        self._gep_flags = 0

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return isinstance(other, GetElementPtrInst) and self._source_element_type is other._source_element_type

    def _same_optional_data(self, other: Instruction) -> bool:
        return isinstance(other, GetElementPtrInst) and self._gep_flags == other._gep_flags

    def _clone_impl(self) -> GetElementPtrInst:
        ops = self._operands
        c = GetElementPtrInst.__new__(GetElementPtrInst)
        Instruction.__init__(c, self.type, [u.value for u in ops])
        c._source_element_type = self._source_element_type
        c._result_element_type = self._result_element_type
        c._gep_flags = self._gep_flags
        return c


__all__ = [
    "GetElementPtrInst",
    "get_indexed_type",
]
