"""Conversion instructions (LLVM ``CastInst`` and its thirteen subclasses).

Each cast opcode has its own class (``TruncInst``, ``ZExtInst`` ... as in
LLVM), so ``inst.opcode`` is a class attribute; :meth:`CastInst.create` picks
the class from an opcode string. The operand is ``(value,)`` and the
instruction's type is the destination type.

Optional flags (LLVM 19, checked with opt-19): ``trunc`` may carry ``nuw``
(bit 1) and ``nsw`` (bit 2); ``zext`` and ``uitofp`` may carry ``nneg``
(bit 1). LLVM 19 accepts no fast-math flags on any cast (opt-19 rejects
``fptrunc fast`` and ``fpext nnan``). The flags word and the nuw/nsw
accessors are shared with the binary operators through
:class:`~llvmpy_mid.ir.instructions.optional_flags.OptionalFlagsInst`.

:func:`cast_is_valid` states LLVM's type rules for every cast; the
constructors apply it. This module does not fold casts or choose a cast
opcode for a pair of types.
"""

from __future__ import annotations

from typing import Callable, ClassVar, TypeVar

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.optional_flags import NSW, NUW, SOLE_FLAG, OptionalFlagsInst
from llvmpy_mid.ir.type_queries import primitive_size_in_bits
from llvmpy_mid.ir.types import (
    FloatingPointType,
    IntegerType,
    PointerType,
    Type,
    TypeID,
    VectorType,
)
from llvmpy_mid.ir.value import Value

CAST_OPCODES: tuple[str, ...] = (
    "trunc",
    "zext",
    "sext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "fptrunc",
    "fpext",
    "ptrtoint",
    "inttoptr",
    "bitcast",
    "addrspacecast",
)
"""Cast opcodes in LLVM's opcode order."""


def _element_count(ty: Type) -> tuple[int, bool]:
    """(count, scalable) of a vector; (0, False) for a scalar, so comparing the
    counts also checks that both or neither are vectors."""
    if isinstance(ty, VectorType):
        return ty.count, ty.scalable
    return 0, False


_INTEGER = TypeID.INTEGER
_POINTER = TypeID.POINTER
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR


def _elements(src: Type, dst: Type) -> tuple[Type, Type] | None:
    """The element types of two vectors of the same length, the types
    themselves for two scalars, None when the shapes differ."""
    st = src.type_id
    if st is _FIXED_VECTOR or st is _SCALABLE_VECTOR:
        assert isinstance(src, VectorType)
        if dst.type_id is not st:
            return None
        assert isinstance(dst, VectorType)
        if src.count != dst.count:
            return None
        return src.element_type, dst.element_type
    dt = dst.type_id
    if dt is _FIXED_VECTOR or dt is _SCALABLE_VECTOR:
        return None
    return src, dst


_T = TypeVar("_T", bound=Type)


def _pair_of(kind: type[_T], src: Type, dst: Type) -> tuple[_T, _T] | None:
    """The element types of ``src`` and ``dst`` (see :func:`_elements`) when
    both are ``kind``, else None."""
    pair = _elements(src, dst)
    if pair is None:
        return None
    s, d = pair
    if isinstance(s, kind) and isinstance(d, kind):
        return s, d
    return None


def _valid_trunc(src: Type, dst: Type) -> bool:
    p = _pair_of(IntegerType, src, dst)
    return p is not None and p[0].width > p[1].width


def _valid_ext(src: Type, dst: Type) -> bool:
    p = _pair_of(IntegerType, src, dst)
    return p is not None and p[0].width < p[1].width


def _valid_fptrunc(src: Type, dst: Type) -> bool:
    p = _pair_of(FloatingPointType, src, dst)
    return p is not None and p[0].bits > p[1].bits


def _valid_fpext(src: Type, dst: Type) -> bool:
    p = _pair_of(FloatingPointType, src, dst)
    return p is not None and p[0].bits < p[1].bits


def _valid_int_to_fp(src: Type, dst: Type) -> bool:
    p = _elements(src, dst)
    return p is not None and p[0].type_id is _INTEGER and isinstance(p[1], FloatingPointType)


def _valid_fp_to_int(src: Type, dst: Type) -> bool:
    p = _elements(src, dst)
    return p is not None and isinstance(p[0], FloatingPointType) and p[1].type_id is _INTEGER


def _valid_ptrtoint(src: Type, dst: Type) -> bool:
    p = _elements(src, dst)
    return p is not None and p[0].type_id is _POINTER and p[1].type_id is _INTEGER


def _valid_inttoptr(src: Type, dst: Type) -> bool:
    p = _elements(src, dst)
    return p is not None and p[0].type_id is _INTEGER and p[1].type_id is _POINTER


def _valid_addrspacecast(src: Type, dst: Type) -> bool:
    p = _elements(src, dst)
    if p is None:
        return False
    s, d = p
    return isinstance(s, PointerType) and isinstance(d, PointerType) and s.address_space != d.address_space


def _valid_bitcast(src: Type, dst: Type) -> bool:
    if not src.is_first_class or not dst.is_first_class or src.is_aggregate or dst.is_aggregate:
        return False
    src_s = src.scalar_type
    dst_s = dst.scalar_type
    src_ptr = isinstance(src_s, PointerType)
    dst_ptr = isinstance(dst_s, PointerType)
    if src_ptr != dst_ptr:
        return False
    if not isinstance(src_s, PointerType) or not isinstance(dst_s, PointerType):
        # Non-pointers: the sizes (and scalability) must agree.
        return primitive_size_in_bits(src) == primitive_size_in_bits(dst)
    if src_s.address_space != dst_s.address_space:
        return False
    src_ec = _element_count(src)
    dst_ec = _element_count(dst)
    # A vector of one pointer and a pointer convert into each other.
    if src_ec[0] and dst_ec[0]:
        return src_ec == dst_ec
    if src_ec[0]:
        return src_ec == (1, False)
    if dst_ec[0]:
        return dst_ec == (1, False)
    return True


_VALIDATORS: dict[str, Callable[[Type, Type], bool]] = {
    "trunc": _valid_trunc,
    "zext": _valid_ext,
    "sext": _valid_ext,
    "fptoui": _valid_fp_to_int,
    "fptosi": _valid_fp_to_int,
    "uitofp": _valid_int_to_fp,
    "sitofp": _valid_int_to_fp,
    "fptrunc": _valid_fptrunc,
    "fpext": _valid_fpext,
    "ptrtoint": _valid_ptrtoint,
    "inttoptr": _valid_inttoptr,
    "bitcast": _valid_bitcast,
    "addrspacecast": _valid_addrspacecast,
}


def cast_is_valid(opcode: str, src_ty: Type, dst_ty: Type) -> bool:
    """Whether ``opcode`` may convert ``src_ty`` to ``dst_ty`` (LLVM ``castIsValid``).

    Both types must be first-class, non-aggregate types; vector casts keep the
    element count (except ``bitcast``, which compares total sizes and lets a
    one-pointer vector and a pointer convert). Integer and floating-point
    widening/narrowing must strictly change the width; ``addrspacecast`` must
    change the address space; ``bitcast`` keeps the size of non-pointers and
    the address space of pointers.
    """
    check = _VALIDATORS.get(opcode)
    return check is not None and check(src_ty, dst_ty)


class CastInst(OptionalFlagsInst):
    """A conversion of ``(value,)`` to the instruction's type.

    Build one with the opcode's class (``ZExtInst(v, ctx.i64, nneg=True)``) or
    ``CastInst.create("zext", v, ctx.i64)``.
    """

    __slots__ = ()
    __match_args__ = ("operand",)

    is_cast = True
    has_nneg_flag: ClassVar[bool] = False
    """nneg allowed (zext, uitofp)."""

    def __init__(
        self,
        value: Value,
        dest_type: Type,
        *,
        nuw: bool = False,
        nsw: bool = False,
        nneg: bool = False,
        name: str = "",
    ) -> None:
        if not _VALIDATORS[self.opcode](value.type, dest_type):
            raise IRError("invalid cast opcode for cast from '%s' to '%s'" % (value.type, dest_type))
        Instruction.__init__(self, dest_type, (value,), name)
        flags = 0
        if nuw or nsw:
            if not self.has_wrap_flags:
                raise self._missing_flag("nuw/nsw flags")
            flags = (NUW if nuw else 0) | (NSW if nsw else 0)
        if nneg:
            if not self.has_nneg_flag:
                raise self._missing_flag("nneg flag")
            flags = SOLE_FLAG
        self._flags = flags

    @staticmethod
    def class_for(opcode: str) -> type[CastInst]:
        cls = CAST_OPCODE_CLASSES.get(opcode)
        if cls is None:
            raise IRError("unknown cast opcode '%s'" % opcode)
        return cls

    @staticmethod
    def create(
        opcode: str,
        value: Value,
        dest_type: Type,
        *,
        nuw: bool = False,
        nsw: bool = False,
        nneg: bool = False,
        name: str = "",
    ) -> CastInst:
        cls = CAST_OPCODE_CLASSES.get(opcode)
        if cls is None:
            raise IRError("unknown cast opcode '%s'" % opcode)
        return cls(value, dest_type, nuw=nuw, nsw=nsw, nneg=nneg, name=name)

    @staticmethod
    def cast_is_valid(opcode: str, src_ty: Type, dst_ty: Type) -> bool:
        """See the module-level :func:`cast_is_valid`."""
        return cast_is_valid(opcode, src_ty, dst_ty)

    # --- operands and types ----------------------------------------------------------
    @property
    def operand(self) -> Value:
        return self._operands[0].value

    @property
    def src_type(self) -> Type:
        return self._operands[0].value.type

    @property
    def dest_type(self) -> Type:
        return self.type

    # --- flags (flags_word, nuw and nsw come from OptionalFlagsInst) -----------------------
    @property
    def nneg(self) -> bool:
        return self.has_nneg_flag and bool(self._flags & SOLE_FLAG)

    @nneg.setter
    def nneg(self, value: bool) -> None:
        self._set_sole_flag(self.has_nneg_flag, "nneg", value)

    def drop_poison_generating_flags(self) -> None:
        self._flags = 0

    # --- queries -----------------------------------------------------------------------------
    @property
    def is_integer_cast(self) -> bool:
        """trunc, zext, sext (LLVM ``isIntegerCast``, without the bitcast case)."""
        return self.opcode == "trunc" or self.opcode == "zext" or self.opcode == "sext"

    # No special state of its own: the result type is compared by is_identical_to,
    # the source type follows from the operand, the nneg flag is optional data.

    def _clone_impl(self) -> CastInst:
        c = type(self)(self._operands[0].value, self.type)
        c._flags = self._flags
        return c


class TruncInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "trunc"
    has_wrap_flags = True


class ZExtInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "zext"
    has_nneg_flag = True


class SExtInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "sext"


class FPToUIInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "fptoui"


class FPToSIInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "fptosi"


class UIToFPInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "uitofp"
    has_nneg_flag = True


class SIToFPInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "sitofp"


class FPTruncInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "fptrunc"


class FPExtInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "fpext"


class PtrToIntInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "ptrtoint"


class IntToPtrInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "inttoptr"


class BitCastInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "bitcast"


class AddrSpaceCastInst(CastInst):
    __slots__ = ()
    opcode: ClassVar[str] = "addrspacecast"


CAST_OPCODE_CLASSES: dict[str, type[CastInst]] = {
    cls.opcode: cls
    for cls in (
        TruncInst,
        ZExtInst,
        SExtInst,
        FPToUIInst,
        FPToSIInst,
        UIToFPInst,
        SIToFPInst,
        FPTruncInst,
        FPExtInst,
        PtrToIntInst,
        IntToPtrInst,
        BitCastInst,
        AddrSpaceCastInst,
    )
}
"""Cast opcode -> its class."""

__all__ = [
    "CAST_OPCODES",
    "CAST_OPCODE_CLASSES",
    "cast_is_valid",
    "CastInst",
    "TruncInst",
    "ZExtInst",
    "SExtInst",
    "FPToUIInst",
    "FPToSIInst",
    "UIToFPInst",
    "SIToFPInst",
    "FPTruncInst",
    "FPExtInst",
    "PtrToIntInst",
    "IntToPtrInst",
    "BitCastInst",
    "AddrSpaceCastInst",
]
