"""Helpers to analyse and fold compares (LLVM 19.1.7 ``llvm/lib/Analysis/CmpInstAnalysis.cpp``,
``llvm/include/llvm/Analysis/CmpInstAnalysis.h``).

The integer predicate codes are 3-bit truth tables over (less, equal, greater)
of one signedness, so ``(A < B) | (A > B)`` is code ``4 | 1 = 5`` = ``A != B``;
the floating-point codes are the predicate numbers themselves (4-bit tables over
unordered, less, greater, equal).
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector, get_splat_value
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value

P = Predicate

_ICMP_CODE: dict[Predicate, int] = {
    P.ICMP_UGT: 1,
    P.ICMP_SGT: 1,
    P.ICMP_EQ: 2,
    P.ICMP_UGE: 3,
    P.ICMP_SGE: 3,
    P.ICMP_ULT: 4,
    P.ICMP_SLT: 4,
    P.ICMP_NE: 5,
    P.ICMP_ULE: 6,
    P.ICMP_SLE: 6,
}

_UNSIGNED_FOR_CODE: tuple[Predicate | None, ...] = (
    None, P.ICMP_UGT, P.ICMP_EQ, P.ICMP_UGE, P.ICMP_ULT, P.ICMP_NE, P.ICMP_ULE, None,
)  # fmt: skip
_SIGNED_FOR_CODE: tuple[Predicate | None, ...] = (
    None, P.ICMP_SGT, P.ICMP_EQ, P.ICMP_SGE, P.ICMP_SLT, P.ICMP_NE, P.ICMP_SLE, None,
)  # fmt: skip


def _bool_constant(op_ty: Type, value: int) -> Constant:
    """``ConstantInt::get(CmpInst::makeCmpResultType(OpTy), value)``."""
    i1 = op_ty.context.i1
    c = ConstantInt.get(i1, value)
    if isinstance(op_ty, VectorType):
        return ConstantVector.get_splat(op_ty.context.vector_type(i1, op_ty.count, op_ty.scalable), c)
    return c


def get_icmp_code(pred: Predicate) -> int:
    """The 3-bit code of an icmp predicate: bit 0 ``>``, bit 1 ``==``, bit 2 ``<``
    (LLVM ``getICmpCode``)."""
    code = _ICMP_CODE.get(pred)
    if code is None:
        raise ValueError("invalid icmp predicate %r" % (pred,))
    return code


def get_predicate_for_icmp_code(code: int, sign: bool) -> Predicate | None:
    """The predicate of ``code`` (signed or unsigned flavour); None for the
    always-false (0) and always-true (7) codes."""
    if not 0 <= code <= 7:
        raise ValueError("illegal icmp code %d" % code)
    return (_SIGNED_FOR_CODE if sign else _UNSIGNED_FOR_CODE)[code]


def get_constant_for_icmp_code(code: int, op_ty: Type) -> Constant | None:
    """``false``/``true`` (splatted for vector operands ``op_ty``) for the codes 0 and 7,
    None for the others."""
    if code == 0:
        return _bool_constant(op_ty, 0)
    if code == 7:
        return _bool_constant(op_ty, 1)
    return None


def get_pred_for_icmp_code(code: int, sign: bool, op_ty: Type) -> Constant | Predicate:
    """LLVM ``getPredForICmpCode``: the constant answer for codes 0 and 7, otherwise
    the predicate to build the new compare with."""
    c = get_constant_for_icmp_code(code, op_ty)
    if c is not None:
        return c
    pred = get_predicate_for_icmp_code(code, sign)
    assert pred is not None
    return pred


def predicates_foldable(p1: Predicate, p2: Predicate) -> bool:
    """Both predicates have one signedness, or one of them is an equality
    (LLVM ``predicatesFoldable``)."""
    s1 = p1.is_signed
    s2 = p2.is_signed
    return s1 == s2 or (s1 and p2.is_equality) or (s2 and p1.is_equality)


def get_fcmp_code(pred: Predicate) -> int:
    """The 4-bit code of an fcmp predicate: its number (LLVM ``getFCmpCode``)."""
    if not 0 <= pred <= 15:
        raise ValueError("unexpected fcmp predicate %r" % (pred,))
    return int(pred)


def get_pred_for_fcmp_code(code: int, op_ty: Type) -> Constant | Predicate:
    """LLVM ``getPredForFCmpCode``: ``false``/``true`` for codes 0 and 15, otherwise
    the predicate numbered ``code``."""
    if not 0 <= code <= 15:
        raise ValueError("unexpected fcmp code %d" % code)
    if code == 0:
        return _bool_constant(op_ty, 0)
    if code == 15:
        return _bool_constant(op_ty, 1)
    return Predicate(code)


def _apint_allow_poison(v: Value) -> ConstantInt | None:
    if type(v) is ConstantInt:
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v, True)
        if type(s) is ConstantInt:
            return s
    return None


def decompose_bit_test_icmp(
    lhs: Value, rhs: Value, pred: Predicate, look_thru_trunc: bool = True
) -> tuple[Value, int, Predicate] | None:
    """Read ``lhs pred rhs`` as ``(X & Mask) ==/!= 0``; returns ``(X, Mask, eq-or-ne)``
    or None (LLVM ``decomposeBitTestICmp``). With ``look_thru_trunc``, ``X`` is the
    source of a ``trunc`` instruction ``lhs`` (the mask, zero-extended, is unchanged)."""
    ci = _apint_allow_poison(rhs)
    if ci is None:
        return None
    c = ci.value
    ty = ci.type
    assert isinstance(ty, IntegerType)
    w = ty.width
    mask_all = (1 << w) - 1
    sign = 1 << (w - 1)
    if pred == P.ICMP_SLT:
        if c != 0:
            return None
        mask, new = sign, P.ICMP_NE
    elif pred == P.ICMP_SLE:
        if c != mask_all:
            return None
        mask, new = sign, P.ICMP_NE
    elif pred == P.ICMP_SGT:
        if c != mask_all:
            return None
        mask, new = sign, P.ICMP_EQ
    elif pred == P.ICMP_SGE:
        if c != 0:
            return None
        mask, new = sign, P.ICMP_EQ
    elif pred == P.ICMP_ULT:
        if c == 0 or c & (c - 1):
            return None
        mask, new = -c & mask_all, P.ICMP_EQ
    elif pred == P.ICMP_ULE:
        c1 = (c + 1) & mask_all
        if c1 == 0 or c1 & (c1 - 1):
            return None
        mask, new = ~c & mask_all, P.ICMP_EQ
    elif pred == P.ICMP_UGT:
        c1 = (c + 1) & mask_all
        if c1 == 0 or c1 & (c1 - 1):
            return None
        mask, new = ~c & mask_all, P.ICMP_NE
    elif pred == P.ICMP_UGE:
        if c == 0 or c & (c - 1):
            return None
        mask, new = -c & mask_all, P.ICMP_NE
    else:
        return None
    x = lhs
    if look_thru_trunc and isinstance(lhs, Instruction) and lhs.opcode == "trunc":
        x = lhs.operands[0]
    return x, mask, new


__all__ = [
    "get_icmp_code",
    "get_predicate_for_icmp_code",
    "get_constant_for_icmp_code",
    "get_pred_for_icmp_code",
    "predicates_foldable",
    "get_fcmp_code",
    "get_pred_for_fcmp_code",
    "decompose_bit_test_icmp",
]
