"""Constant expressions still present in LLVM 19.

LLVM 19 keeps, as constant expressions: the casts ``trunc``, ``ptrtoint``,
``inttoptr``, ``bitcast``, ``addrspacecast``; ``getelementptr`` (with
``inbounds``/``nusw``/``nuw`` and ``inrange(lo, hi)``); ``extractelement``,
``insertelement``, ``shufflevector``; and the binary ``add``, ``sub``,
``mul`` (with ``nuw``/``nsw``) and ``xor``. (icmp, fcmp, shl and the other
casts were removed; opt-19 rejects them.) Expressions are uniqued like every
constant. The ``get_*`` factories fold first, as LLVM's ``ConstantExpr::get*``
do (:mod:`llvmpy_mid.ir.constant_fold`), so ``get_add(i64 1, i64 2)`` is
``i64 3``; ``create_*`` make the expression unconditionally. A constant whose
operand is replaced (RAUW) is rebuilt through the same folder.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence, cast

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value

CAST_OPCODES = frozenset(("trunc", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"))
BINARY_OPCODES = frozenset(("add", "sub", "mul", "xor"))
WRAP_FLAG_OPCODES = frozenset(("add", "sub", "mul"))
OTHER_OPCODES = frozenset(("getelementptr", "extractelement", "insertelement", "shufflevector"))
ALL_OPCODES = CAST_OPCODES | BINARY_OPCODES | OTHER_OPCODES

# Flag bits.
NUW = 1
NSW = 2
GEP_INBOUNDS = 1
GEP_NUSW = 2
GEP_NUW = 4


class ConstantExpr(Constant):
    """A constant expression. ``opcode`` is LLVM's textual opcode."""

    __slots__ = ("opcode", "flags", "source_element_type", "inrange", "shuffle_mask")

    is_constant_expr: ClassVar[bool] = True

    opcode: str
    flags: int
    source_element_type: Type | None
    inrange: tuple[int, int] | None
    shuffle_mask: tuple[int, ...]

    def __init__(
        self,
        type: Type,
        opcode: str,
        operands: Sequence[Value],
        flags: int = 0,
        source_element_type: Type | None = None,
        inrange: tuple[int, int] | None = None,
        shuffle_mask: tuple[int, ...] = (),
    ) -> None:
        Constant.__init__(self, type, operands)
        self.opcode = opcode
        self.flags = flags
        self.source_element_type = source_element_type
        self.inrange = inrange
        self.shuffle_mask = shuffle_mask

    # --- uniquing ---------------------------------------------------------------
    @classmethod
    def _get(
        cls,
        type: Type,
        opcode: str,
        operands: Sequence[Constant],
        flags: int = 0,
        source_element_type: Type | None = None,
        inrange: tuple[int, int] | None = None,
        shuffle_mask: tuple[int, ...] = (),
    ) -> ConstantExpr:
        table = type.context.constants
        key = ("expr", opcode, type, tuple(operands), flags, source_element_type, inrange, shuffle_mask)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(type, opcode, operands, flags, source_element_type, inrange, shuffle_mask)
        return cast(ConstantExpr, c)

    def _key(self) -> Any:
        return self._key_for([u.value for u in self._operands])

    def _key_for(self, operands: list[Value]) -> Any:
        return (
            "expr",
            self.opcode,
            self.type,
            tuple(operands),
            self.flags,
            self.source_element_type,
            self.inrange,
            self.shuffle_mask,
        )

    # --- factories -------------------------------------------------------------------------------
    # ``get_*`` fold first, as LLVM's ``ConstantExpr::get*`` do (ir/constant_fold.py), and create an
    # expression only when nothing simpler is known; ``create_*`` always create one.
    @classmethod
    def create_cast(cls, opcode: str, value: Constant, to_type: Type) -> ConstantExpr:
        if opcode not in CAST_OPCODES:
            raise IRError("'%s' is not a constant-expression cast in LLVM 19" % opcode)
        return cls._get(to_type, opcode, (value,))

    @classmethod
    def get_cast(cls, opcode: str, value: Constant, to_type: Type) -> Constant:
        from llvmpy_mid.ir import constant_fold as _cf
        if opcode not in CAST_OPCODES:
            raise IRError("'%s' is not a constant-expression cast in LLVM 19" % opcode)
        folded = _cf.constant_fold_cast_instruction(opcode, value, to_type)
        if folded is not None:
            return folded
        return cls._get(to_type, opcode, (value,))

    @classmethod
    def create_binary(
        cls, opcode: str, lhs: Constant, rhs: Constant, nuw: bool = False, nsw: bool = False
    ) -> ConstantExpr:
        if opcode not in BINARY_OPCODES:
            raise IRError("'%s' is not a constant-expression binary operator in LLVM 19" % opcode)
        if lhs.type is not rhs.type:
            raise IRError("operands of constant %s have different types" % opcode)
        if not lhs.type.is_int_or_int_vector:
            raise IRError("constant %s needs integer operands" % opcode)
        flags = 0
        if opcode in WRAP_FLAG_OPCODES:
            flags = (NUW if nuw else 0) | (NSW if nsw else 0)
        elif nuw or nsw:
            raise IRError("%s has no wrap flags" % opcode)
        return cls._get(lhs.type, opcode, (lhs, rhs), flags)

    @classmethod
    def get_binary(cls, opcode: str, lhs: Constant, rhs: Constant, nuw: bool = False, nsw: bool = False) -> Constant:
        from llvmpy_mid.ir import constant_fold as _cf
        if opcode not in BINARY_OPCODES:
            raise IRError("'%s' is not a constant-expression binary operator in LLVM 19" % opcode)
        if lhs.type is not rhs.type:
            raise IRError("operands of constant %s have different types" % opcode)
        folded = _cf.constant_fold_binary_instruction(opcode, lhs, rhs)
        if folded is not None:
            return folded
        return cls.create_binary(opcode, lhs, rhs, nuw, nsw)

    @classmethod
    def get_add(cls, lhs: Constant, rhs: Constant, nuw: bool = False, nsw: bool = False) -> Constant:
        return cls.get_binary("add", lhs, rhs, nuw, nsw)

    @classmethod
    def get_sub(cls, lhs: Constant, rhs: Constant, nuw: bool = False, nsw: bool = False) -> Constant:
        return cls.get_binary("sub", lhs, rhs, nuw, nsw)

    @classmethod
    def get_mul(cls, lhs: Constant, rhs: Constant, nuw: bool = False, nsw: bool = False) -> Constant:
        return cls.get_binary("mul", lhs, rhs, nuw, nsw)

    @classmethod
    def get_xor(cls, lhs: Constant, rhs: Constant) -> Constant:
        return cls.get_binary("xor", lhs, rhs)

    @classmethod
    def get_not(cls, c: Constant) -> Constant:
        """``xor c, -1`` (LLVM ``ConstantExpr::getNot``)."""
        return cls.get_binary("xor", c, Constant.get_all_ones_value(c.type))

    @classmethod
    def get_neg(cls, c: Constant, nsw: bool = False) -> Constant:
        """``sub 0, c`` (LLVM ``ConstantExpr::getNeg``)."""
        return cls.get_binary("sub", Constant.get_null_value(c.type), c, False, nsw)

    @staticmethod
    def gep_flags_of(inbounds: bool = False, nusw: bool = False, nuw: bool = False) -> int:
        return (GEP_INBOUNDS | GEP_NUSW if inbounds else 0) | (GEP_NUSW if nusw else 0) | (GEP_NUW if nuw else 0)

    @classmethod
    def create_gep(
        cls,
        source_element_type: Type,
        pointer: Constant,
        indices: Sequence[Constant],
        inbounds: bool = False,
        nusw: bool = False,
        nuw: bool = False,
        inrange: tuple[int, int] | None = None,
        flags: int | None = None,
    ) -> ConstantExpr:
        """``getelementptr [flags] (T, ptr P, idx...)``. ``inbounds`` implies ``nusw``; ``flags``
        (GEP_* bits) replaces the three booleans when given."""
        ctx = pointer.type.context
        result: Type = pointer.type
        if not result.is_ptr_or_ptr_vector:
            raise IRError("getelementptr base must be a pointer or vector of pointers")
        if not isinstance(result, VectorType):
            for idx in indices:
                if isinstance(idx.type, VectorType):
                    result = ctx.vector_type(pointer.type, idx.type.count, idx.type.scalable)
                    break
        if flags is None:
            flags = cls.gep_flags_of(inbounds, nusw, nuw)
        return cls._get(result, "getelementptr", (pointer, *indices), flags, source_element_type, inrange)

    @classmethod
    def get_gep(
        cls,
        source_element_type: Type,
        pointer: Constant,
        indices: Sequence[Constant],
        inbounds: bool = False,
        nusw: bool = False,
        nuw: bool = False,
        inrange: tuple[int, int] | None = None,
        flags: int | None = None,
    ) -> Constant:
        """The folded ``getelementptr`` (LLVM ``ConstantExpr::getGetElementPtr``)."""
        from llvmpy_mid.ir import constant_fold as _cf
        if not pointer.type.is_ptr_or_ptr_vector:
            raise IRError("getelementptr base must be a pointer or vector of pointers")
        folded = _cf.constant_fold_get_element_ptr(source_element_type, pointer, inrange, indices)
        if folded is not None:
            return folded
        # A vector GEP splats its scalar indices (as LLVM's getGetElementPtr does).
        vty = pointer.type if isinstance(pointer.type, VectorType) else next(
            (i.type for i in indices if isinstance(i.type, VectorType)), None
        )
        if isinstance(vty, VectorType):
            indices = _canonical_vector_gep_indices(vty, source_element_type, list(indices))
        return cls.create_gep(source_element_type, pointer, indices, inbounds, nusw, nuw, inrange, flags)

    @classmethod
    def create_extract_element(cls, vector: Constant, index: Constant) -> ConstantExpr:
        vty = vector.type
        if not isinstance(vty, VectorType):
            raise IRError("extractelement needs a vector")
        return cls._get(vty.element_type, "extractelement", (vector, index))

    @classmethod
    def get_extract_element(cls, vector: Constant, index: Constant) -> Constant:
        from llvmpy_mid.ir import constant_fold as _cf
        if not isinstance(vector.type, VectorType):
            raise IRError("extractelement needs a vector")
        folded = _cf.constant_fold_extract_element(vector, index)
        if folded is not None:
            return folded
        return cls.create_extract_element(vector, index)

    @classmethod
    def create_insert_element(cls, vector: Constant, element: Constant, index: Constant) -> ConstantExpr:
        if not isinstance(vector.type, VectorType):
            raise IRError("insertelement needs a vector")
        return cls._get(vector.type, "insertelement", (vector, element, index))

    @classmethod
    def get_insert_element(cls, vector: Constant, element: Constant, index: Constant) -> Constant:
        from llvmpy_mid.ir import constant_fold as _cf
        if not isinstance(vector.type, VectorType):
            raise IRError("insertelement needs a vector")
        folded = _cf.constant_fold_insert_element(vector, element, index)
        if folded is not None:
            return folded
        return cls.create_insert_element(vector, element, index)

    @classmethod
    def create_shuffle_vector(cls, v1: Constant, v2: Constant, mask: Sequence[int]) -> ConstantExpr:
        """Mask entries are lane numbers, -1 for a poison lane."""
        vty = v1.type
        if not isinstance(vty, VectorType) or v2.type is not vty:
            raise IRError("shufflevector needs two vectors of the same type")
        result = vty.context.vector_type(vty.element_type, len(mask), vty.scalable)
        return cls._get(result, "shufflevector", (v1, v2), shuffle_mask=tuple(mask))

    @classmethod
    def get_shuffle_vector(cls, v1: Constant, v2: Constant, mask: Sequence[int]) -> Constant:
        from llvmpy_mid.ir import constant_fold as _cf
        vty = v1.type
        if not isinstance(vty, VectorType) or v2.type is not vty:
            raise IRError("shufflevector needs two vectors of the same type")
        folded = _cf.constant_fold_shuffle_vector(v1, v2, mask)
        if folded is not None:
            return folded
        return cls.create_shuffle_vector(v1, v2, mask)

    # --- queries ---------------------------------------------------------------------------
    @property
    def is_cast(self) -> bool:
        return self.opcode in CAST_OPCODES

    @property
    def has_no_unsigned_wrap(self) -> bool:
        return self.opcode in WRAP_FLAG_OPCODES and bool(self.flags & NUW)

    @property
    def has_no_signed_wrap(self) -> bool:
        return self.opcode in WRAP_FLAG_OPCODES and bool(self.flags & NSW)

    @property
    def is_inbounds(self) -> bool:
        return self.opcode == "getelementptr" and bool(self.flags & GEP_INBOUNDS)

    @property
    def gep_flags(self) -> int:
        return self.flags if self.opcode == "getelementptr" else 0

    @property
    def pointer_operand(self) -> Constant:
        return cast(Constant, self._operands[0].value)

    @property
    def indices(self) -> list[Constant]:
        return [cast(Constant, u.value) for u in self._operands[1:]]

    def _fold_operands(self, operands: list[Value]) -> Constant | None:
        """What LLVM's ``getWithOperands(..., OnlyIfReduced)`` gives for new operands: the
        folded constant, or None when only a new expression would do."""
        ops = cast("list[Constant]", operands)
        return _fold_expr(self, ops)

    def with_operands(self, operands: Sequence[Constant]) -> Constant:
        """The same expression over other operands, folded (LLVM ``getWithOperands``)."""
        folded = _fold_expr(self, list(operands))
        if folded is not None:
            return folded
        return ConstantExpr._get(
            self.type,
            self.opcode,
            operands,
            self.flags,
            self.source_element_type,
            self.inrange,
            self.shuffle_mask,
        )


def _fold_expr(ce: ConstantExpr, ops: list[Constant]) -> Constant | None:
    from llvmpy_mid.ir import constant_fold as _cf
    op = ce.opcode
    if op in CAST_OPCODES:
        return _cf.constant_fold_cast_instruction(op, ops[0], ce.type)
    if op in BINARY_OPCODES:
        return _cf.constant_fold_binary_instruction(op, ops[0], ops[1])
    if op == "getelementptr":
        return _cf.constant_fold_get_element_ptr(ce.source_element_type, ops[0], ce.inrange, ops[1:])
    if op == "extractelement":
        return _cf.constant_fold_extract_element(ops[0], ops[1])
    if op == "insertelement":
        return _cf.constant_fold_insert_element(ops[0], ops[1], ops[2])
    if op == "shufflevector":
        return _cf.constant_fold_shuffle_vector(ops[0], ops[1], ce.shuffle_mask)
    return None


def _canonical_vector_gep_indices(vty: VectorType, source_element_type: Type, indices: list[Constant]) -> list[Constant]:
    """LLVM ``getGetElementPtr``'s index canonicalisation for a vector GEP: a struct index is
    scalar (a vector one becomes its splat value), a sequential one is a vector (a scalar one
    is splatted)."""
    from llvmpy_mid.ir.constants import get_splat_value
    from llvmpy_mid.ir.types import StructType

    out: list[Constant] = []
    ty: Type | None = None  # the type indexed by the next index; None: the pointer operand
    for idx in indices:
        if isinstance(ty, StructType):
            if isinstance(idx.type, VectorType):
                splat = get_splat_value(idx)
                idx = splat if isinstance(splat, Constant) else idx
            out.append(idx)
            value = getattr(idx, "value", None)
            ty = ty.elements[value] if isinstance(value, int) and 0 <= value < len(ty.elements) else None
            continue
        out.append(idx if isinstance(idx.type, VectorType) else _splat_index(vty, idx))
        ty = source_element_type if ty is None else getattr(ty, "element_type", None)
    return out


def _splat_index(vty: VectorType, idx: Constant) -> Constant:
    """``ConstantVector::getSplat`` of a scalar GEP index over ``vty``'s element count."""
    from llvmpy_mid.ir.constants import ConstantVector

    return ConstantVector.get_splat(vty.context.vector_type(idx.type, vty.count, vty.scalable), idx)
