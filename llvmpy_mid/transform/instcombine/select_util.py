"""Small pieces the ``select`` folds share (LLVM ``lib/Transforms/InstCombine/InstCombineSelect.cpp``
and the ``Instruction``/``Constant`` helpers it calls: ``swapProfMetadata``, ``isKnownInversion``,
``getFlippedStrictnessPredicateAndConstant``, ``isSignBitCheck``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.pattern_match import m_apint, m_apint_allow_poison, match
from llvmpy_mid.ir.types import IntegerType, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

P = Predicate
_P_APINT = m_apint("c")
_P_APINT_POISON = m_apint_allow_poison("c")


def apint(v: Value) -> int | None:
    """The integer of a ConstantInt or splat (LLVM ``m_APInt``), else None."""
    m = match(v, _P_APINT)
    return None if m is None else m.apint("c")


def apint_allow_poison(v: Value) -> int | None:
    """As :func:`apint`, poison lanes allowed (LLVM ``m_APIntAllowPoison``)."""
    m = match(v, _P_APINT_POISON)
    return None if m is None else m.apint("c")


def int_const(ty: Type, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: splatted over a vector type."""
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, value))
    return ConstantInt.get(ty, value)


def scalar_width(ty: Type) -> int:
    """The bit width of an integer type or of a vector's integer elements."""
    st = ty.scalar_type
    assert isinstance(st, IntegerType)
    return st.width


def to_signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


def is_sign_bit_check(pred: Predicate, c: int, width: int) -> bool | None:
    """``isSignBitCheck``: True/False = the compare is true iff the sign bit is set/clear;
    None when it is no sign test."""
    mask = (1 << width) - 1
    smin = 1 << (width - 1)
    if pred == P.ICMP_SLT:
        return True if c == 0 else None
    if pred == P.ICMP_SLE:
        return True if c == mask else None
    if pred == P.ICMP_SGT:
        return False if c == mask else None
    if pred == P.ICMP_SGE:
        return False if c == 0 else None
    if pred == P.ICMP_UGT:
        return True if c == smin - 1 else None
    if pred == P.ICMP_UGE:
        return True if c == smin else None
    if pred == P.ICMP_ULT:
        return False if c == smin else None
    if pred == P.ICMP_ULE:
        return False if c == smin - 1 else None
    return None


def is_known_inversion(x: Value, y: Value) -> bool:
    """``isKnownInversion``: ``x`` is ``not y`` as compares of one value (LLVM ValueTracking)."""
    if not isinstance(x, ICmpInst) or not isinstance(y, ICmpInst):
        return False
    a = x.get_operand(0)
    b = x.get_operand(1)
    pred1 = x.predicate
    if y.get_operand(0) is a:
        c = y.get_operand(1)
        pred2 = y.predicate
    elif y.get_operand(1) is a:
        c = y.get_operand(0)
        pred2 = y.predicate.swapped
    else:
        return False
    if b is c:
        return pred1 == pred2.inverse
    c1 = apint(b)
    c2 = apint(c)
    if c1 is None or c2 is None:
        return False
    w = scalar_width(b.type)
    cr1 = ConstantRange.make_exact_icmp_region(pred1, c1, w)
    cr2 = ConstantRange.make_exact_icmp_region(pred2, c2, w)
    return cr1.inverse() == cr2


from llvmpy_mid.transform.instcombine.common import swap_prof_metadata as swap_prof_metadata  # noqa: E402
from llvmpy_mid.transform.instcombine.compares_util import (  # noqa: E402
    get_flipped_strictness_predicate_and_constant as flipped_strictness_predicate_and_constant,
)

__all__ = [
    "apint",
    "apint_allow_poison",
    "flipped_strictness_predicate_and_constant",
    "int_const",
    "is_known_inversion",
    "is_sign_bit_check",
    "scalar_width",
    "swap_prof_metadata",
    "to_signed",
]
