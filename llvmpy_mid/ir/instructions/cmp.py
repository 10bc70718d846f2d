"""Comparison instructions (LLVM ``CmpInst``, ``ICmpInst``, ``FCmpInst``) and
their predicates.

:class:`Predicate` carries LLVM's numbers (``FCMP_FALSE`` = 0 ..
``FCMP_TRUE`` = 15, ``ICMP_EQ`` = 32 .. ``ICMP_SLE`` = 41) and keywords, and
the algebra on them: inverse (logical negation), swapped (operands
exchanged), signed/unsigned variants, strictness. Operands are
``(lhs, rhs)``; the result is ``i1``, or a vector of ``i1`` with the operands'
element count. ``fcmp`` may carry fast-math flags; LLVM 19 has no flags on
``icmp`` (``samesign`` came later).

This module does not fold comparisons.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import swap_operand_uses
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.types import Type, TypeID, VectorType, mismatch_text
from llvmpy_mid.ir.value import Value


class Predicate(IntEnum):
    """A comparison predicate with LLVM's numeric value; ``keyword`` is its spelling."""

    FCMP_FALSE = 0
    FCMP_OEQ = 1
    FCMP_OGT = 2
    FCMP_OGE = 3
    FCMP_OLT = 4
    FCMP_OLE = 5
    FCMP_ONE = 6
    FCMP_ORD = 7
    FCMP_UNO = 8
    FCMP_UEQ = 9
    FCMP_UGT = 10
    FCMP_UGE = 11
    FCMP_ULT = 12
    FCMP_ULE = 13
    FCMP_UNE = 14
    FCMP_TRUE = 15
    ICMP_EQ = 32
    ICMP_NE = 33
    ICMP_UGT = 34
    ICMP_UGE = 35
    ICMP_ULT = 36
    ICMP_ULE = 37
    ICMP_SGT = 38
    ICMP_SGE = 39
    ICMP_SLT = 40
    ICMP_SLE = 41

    @property
    def keyword(self) -> str:
        """``"eq"``, ``"olt"``, ``"true"`` ..."""
        return _KEYWORD[self]

    @property
    def is_int_predicate(self) -> bool:
        return self >= 32

    @property
    def is_fp_predicate(self) -> bool:
        return self < 32

    @property
    def inverse(self) -> Predicate:
        """The predicate that is true exactly when this one is false (``eq`` <-> ``ne``,
        ``olt`` <-> ``uge``; LLVM ``getInversePredicate``)."""
        return _INVERSE[self]

    @property
    def swapped(self) -> Predicate:
        """The predicate for the operands exchanged (``slt`` <-> ``sgt``; LLVM
        ``getSwappedPredicate``)."""
        return _SWAPPED[self]

    @property
    def is_signed(self) -> bool:
        """sgt, sge, slt, sle."""
        return 38 <= self <= 41

    @property
    def is_unsigned(self) -> bool:
        """ugt, uge, ult, ule of icmp."""
        return 34 <= self <= 37

    @property
    def is_equality(self) -> bool:
        """eq, ne of icmp; oeq, one, ueq, une of fcmp (LLVM ``isEquality``)."""
        return self in _EQUALITY

    @property
    def is_relational(self) -> bool:
        return not self.is_equality

    @property
    def is_ordered(self) -> bool:
        """fcmp predicates false when an operand is NaN (oeq ... ord)."""
        return 1 <= self <= 7

    @property
    def is_unordered(self) -> bool:
        """fcmp predicates true when an operand is NaN (uno ... une)."""
        return 8 <= self <= 14

    @property
    def is_true_when_equal(self) -> bool:
        """``x pred x`` holds for every x, NaN included: eq, uge, ule, sge, sle;
        ueq, uge, ule, true (LLVM ``isTrueWhenEqual``)."""
        return self in _TRUE_WHEN_EQUAL

    @property
    def is_false_when_equal(self) -> bool:
        """``x pred x`` fails for every x: ne, ugt, ult, sgt, slt; false, one, ogt, olt."""
        return self in _FALSE_WHEN_EQUAL

    @property
    def is_strict(self) -> bool:
        """gt/lt flavours (LLVM ``isStrictPredicate``)."""
        return self in _STRICT

    @property
    def is_non_strict(self) -> bool:
        """ge/le flavours (LLVM ``isNonStrictPredicate``)."""
        return self in _NON_STRICT

    @property
    def strict(self) -> Predicate:
        """sge -> sgt, ule -> ult, oge -> ogt ...; others unchanged."""
        return _TO_STRICT.get(self, self)

    @property
    def non_strict(self) -> Predicate:
        """sgt -> sge, ult -> ule, ogt -> oge ...; others unchanged."""
        return _TO_NON_STRICT.get(self, self)

    @property
    def signed(self) -> Predicate:
        """The signed form of an unsigned icmp predicate (others unchanged)."""
        return Predicate(self + 4) if 34 <= self <= 37 else self

    @property
    def unsigned(self) -> Predicate:
        """The unsigned form of a signed icmp predicate (others unchanged)."""
        return Predicate(self - 4) if 38 <= self <= 41 else self

    @property
    def flipped_signedness(self) -> Predicate:
        """slt <-> ult and so on; an error for other predicates."""
        if 34 <= self <= 37:
            return Predicate(self + 4)
        if 38 <= self <= 41:
            return Predicate(self - 4)
        raise IRError("predicate %s has no signedness" % self.keyword)

    @staticmethod
    def from_keyword(keyword: str, fp: bool) -> Predicate:
        """The ``icmp`` (``fp`` false) or ``fcmp`` predicate spelled ``keyword``."""
        table = _FCMP_BY_KEYWORD if fp else _ICMP_BY_KEYWORD
        pred = table.get(keyword)
        if pred is None:
            raise IRError("unknown %s predicate '%s'" % ("fcmp" if fp else "icmp", keyword))
        return pred


P = Predicate

_FCMP_KEYWORDS = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true",
)  # fmt: skip
_ICMP_KEYWORDS = ("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle")

_KEYWORD: dict[Predicate, str] = {}
for _i, _kw in enumerate(_FCMP_KEYWORDS):
    _KEYWORD[Predicate(_i)] = _kw
for _i, _kw in enumerate(_ICMP_KEYWORDS):
    _KEYWORD[Predicate(32 + _i)] = _kw
_FCMP_BY_KEYWORD = {kw: Predicate(i) for i, kw in enumerate(_FCMP_KEYWORDS)}
_ICMP_BY_KEYWORD = {kw: Predicate(32 + i) for i, kw in enumerate(_ICMP_KEYWORDS)}

# fcmp predicates are 4-bit truth tables over (unordered, less, greater, equal)
# (bit 3 = U, bit 2 = L, bit 1 = G, bit 0 = E), so negation is the complement.
_INVERSE: dict[Predicate, Predicate] = {Predicate(i): Predicate(15 - i) for i in range(16)}
_INVERSE.update(
    {
        P.ICMP_EQ: P.ICMP_NE,
        P.ICMP_NE: P.ICMP_EQ,
        P.ICMP_UGT: P.ICMP_ULE,
        P.ICMP_ULE: P.ICMP_UGT,
        P.ICMP_UGE: P.ICMP_ULT,
        P.ICMP_ULT: P.ICMP_UGE,
        P.ICMP_SGT: P.ICMP_SLE,
        P.ICMP_SLE: P.ICMP_SGT,
        P.ICMP_SGE: P.ICMP_SLT,
        P.ICMP_SLT: P.ICMP_SGE,
    }
)


def _swap_fp(i: int) -> Predicate:
    # Exchanging the operands exchanges the "less" and "greater" bits.
    lt = (i >> 2) & 1
    gt = (i >> 1) & 1
    return Predicate((i & 0b1001) | (gt << 2) | (lt << 1))


_SWAPPED: dict[Predicate, Predicate] = {Predicate(i): _swap_fp(i) for i in range(16)}
_SWAPPED.update(
    {
        P.ICMP_EQ: P.ICMP_EQ,
        P.ICMP_NE: P.ICMP_NE,
        P.ICMP_UGT: P.ICMP_ULT,
        P.ICMP_ULT: P.ICMP_UGT,
        P.ICMP_UGE: P.ICMP_ULE,
        P.ICMP_ULE: P.ICMP_UGE,
        P.ICMP_SGT: P.ICMP_SLT,
        P.ICMP_SLT: P.ICMP_SGT,
        P.ICMP_SGE: P.ICMP_SLE,
        P.ICMP_SLE: P.ICMP_SGE,
    }
)

_EQUALITY = frozenset((P.ICMP_EQ, P.ICMP_NE, P.FCMP_OEQ, P.FCMP_ONE, P.FCMP_UEQ, P.FCMP_UNE))
# "x pred x" for any x (NaN included): always true / always false.
_TRUE_WHEN_EQUAL = frozenset(
    (P.ICMP_EQ, P.ICMP_UGE, P.ICMP_ULE, P.ICMP_SGE, P.ICMP_SLE, P.FCMP_TRUE, P.FCMP_UEQ, P.FCMP_UGE, P.FCMP_ULE)
)
_FALSE_WHEN_EQUAL = frozenset(
    (P.ICMP_NE, P.ICMP_UGT, P.ICMP_ULT, P.ICMP_SGT, P.ICMP_SLT, P.FCMP_FALSE, P.FCMP_ONE, P.FCMP_OGT, P.FCMP_OLT)
)
_STRICT = frozenset(
    (P.ICMP_UGT, P.ICMP_ULT, P.ICMP_SGT, P.ICMP_SLT, P.FCMP_OGT, P.FCMP_OLT, P.FCMP_UGT, P.FCMP_ULT)
)
_NON_STRICT = frozenset(
    (P.ICMP_UGE, P.ICMP_ULE, P.ICMP_SGE, P.ICMP_SLE, P.FCMP_OGE, P.FCMP_OLE, P.FCMP_UGE, P.FCMP_ULE)
)
_TO_STRICT: dict[Predicate, Predicate] = {
    P.ICMP_UGE: P.ICMP_UGT,
    P.ICMP_ULE: P.ICMP_ULT,
    P.ICMP_SGE: P.ICMP_SGT,
    P.ICMP_SLE: P.ICMP_SLT,
    P.FCMP_OGE: P.FCMP_OGT,
    P.FCMP_OLE: P.FCMP_OLT,
    P.FCMP_UGE: P.FCMP_UGT,
    P.FCMP_ULE: P.FCMP_ULT,
}
_TO_NON_STRICT: dict[Predicate, Predicate] = {v: k for k, v in _TO_STRICT.items()}


_INTEGER = TypeID.INTEGER
_POINTER = TypeID.POINTER
_ICMP_PREDICATES = frozenset(p for p in Predicate if p >= 32)
_FCMP_PREDICATES = frozenset(p for p in Predicate if p < 32)


def _result_type(ty: Type) -> Type:
    ctx = ty.context
    if isinstance(ty, VectorType):
        return ctx.vector_type(ctx.i1, ty.count, ty.scalable)
    return ctx.i1


class CmpInst(Instruction):
    """Base of ``icmp`` and ``fcmp``. Operands: ``(lhs, rhs)``."""

    __slots__ = ("_predicate",)
    __match_args__ = ("predicate", "lhs", "rhs")

    _predicate: Predicate

    @property
    def predicate(self) -> Predicate:
        return self._predicate

    @predicate.setter
    def predicate(self, pred: Predicate) -> None:
        self._check_predicate(pred)
        self._predicate = Predicate(pred)

    def _check_predicate(self, pred: Predicate) -> None:
        raise NotImplementedError

    @property
    def lhs(self) -> Value:
        return self._operands[0].value

    @property
    def rhs(self) -> Value:
        return self._operands[1].value

    @property
    def inverse_predicate(self) -> Predicate:
        return _INVERSE[self._predicate]

    @property
    def swapped_predicate(self) -> Predicate:
        return _SWAPPED[self._predicate]

    def swap_operands(self) -> None:
        """Exchange the operands and swap the predicate so the result is unchanged
        (LLVM ``swapOperands``)."""
        self._predicate = _SWAPPED[self._predicate]
        swap_operand_uses(self._operands[0], self._operands[1])

    def inverse_in_place(self) -> None:
        """Replace the predicate by its inverse (the result is negated)."""
        self._predicate = _INVERSE[self._predicate]

    @property
    def is_signed(self) -> bool:
        return self._predicate.is_signed

    @property
    def is_unsigned(self) -> bool:
        return self._predicate.is_unsigned

    @property
    def is_equality(self) -> bool:
        return self._predicate in _EQUALITY

    @property
    def is_commutative(self) -> bool:
        """eq/ne for icmp; equality and (un)ordered-ness predicates, false and
        true for fcmp (LLVM ``isCommutative``)."""
        return _SWAPPED[self._predicate] is self._predicate


class ICmpInst(CmpInst):
    """``icmp pred T lhs, rhs`` over integers, pointers or vectors of them."""

    __slots__ = ()

    opcode: ClassVar[str] = "icmp"

    def __init__(self, predicate: Predicate, lhs: Value, rhs: Value, *, name: str = "") -> None:
        if predicate not in _ICMP_PREDICATES:
            raise IRError("icmp needs an integer predicate, not %r" % (predicate,))
        ty = lhs.type
        if rhs.type is not ty:
            raise IRError("icmp operands must have the same type (%s)" % mismatch_text(ty, rhs.type))
        tid = ty.type_id
        if tid is _INTEGER or tid is _POINTER:
            result: Type = ty.context.i1
        else:
            tid = ty.scalar_type.type_id
            if not isinstance(ty, VectorType) or (tid is not _INTEGER and tid is not _POINTER):
                raise IRError("icmp needs integer or pointer operands, not %s" % ty)
            result = _result_type(ty)
        Instruction.__init__(self, result, (lhs, rhs), name)
        self._predicate = predicate if type(predicate) is Predicate else Predicate(predicate)

    def _check_predicate(self, pred: Predicate) -> None:
        if pred not in _ICMP_PREDICATES:
            raise IRError("icmp needs an integer predicate, not %r" % (pred,))

    @property
    def signed_predicate(self) -> Predicate:
        return self._predicate.signed

    @property
    def unsigned_predicate(self) -> Predicate:
        return self._predicate.unsigned

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return isinstance(other, ICmpInst) and self._predicate is other._predicate

    def _clone_impl(self) -> ICmpInst:
        return ICmpInst(self._predicate, self._operands[0].value, self._operands[1].value)


class FCmpInst(CmpInst):
    """``fcmp [fmf] pred T lhs, rhs`` over floating-point values or vectors."""

    __slots__ = ("_fmf",)

    opcode: ClassVar[str] = "fcmp"

    def __init__(
        self,
        predicate: Predicate,
        lhs: Value,
        rhs: Value,
        *,
        fast_math_flags: FastMathFlags | int = 0,
        name: str = "",
    ) -> None:
        if predicate not in _FCMP_PREDICATES:
            raise IRError("fcmp needs a floating-point predicate, not %r" % (predicate,))
        ty = lhs.type
        if rhs.type is not ty:
            raise IRError("fcmp operands must have the same type (%s)" % mismatch_text(ty, rhs.type))
        if not ty.scalar_type.is_floating_point:
            raise IRError("fcmp needs floating-point operands, not %s" % ty)
        Instruction.__init__(self, _result_type(ty), (lhs, rhs), name)
        self._predicate = predicate if type(predicate) is Predicate else Predicate(predicate)
        self._fmf = int(fast_math_flags) & 127

    def _check_predicate(self, pred: Predicate) -> None:
        if pred not in _FCMP_PREDICATES:
            raise IRError("fcmp needs a floating-point predicate, not %r" % (pred,))

    @property
    def fast_math_flags(self) -> FastMathFlags:
        return FastMathFlags(self._fmf)

    @fast_math_flags.setter
    def fast_math_flags(self, flags: FastMathFlags | int) -> None:
        self._fmf = int(flags) & 127

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return isinstance(other, FCmpInst) and self._predicate is other._predicate

    def _same_optional_data(self, other: Instruction) -> bool:
        return isinstance(other, FCmpInst) and self._fmf == other._fmf

    def _clone_impl(self) -> FCmpInst:
        c = FCmpInst(self._predicate, self._operands[0].value, self._operands[1].value)
        c._fmf = self._fmf
        return c


__all__ = ["Predicate", "CmpInst", "ICmpInst", "FCmpInst"]
