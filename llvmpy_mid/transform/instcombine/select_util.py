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


def swap_prof_metadata(i: Instruction) -> None:
    """``Instruction::swapProfMetadata``: exchange the two weights of ``!prof branch_weights``."""
    from llvmpy_mid.ir.metadata import MDNode, MDString

    prof = i.get_metadata("prof")
    if prof is None or prof.num_operands < 3:
        return
    head = prof.get_operand(0)
    if not isinstance(head, MDString) or head.string != "branch_weights":
        return
    first = 1
    second = prof.get_operand(1)
    if isinstance(second, MDString) and second.string == "expected":
        first = 2
    if prof.num_operands != first + 2:
        return
    ops = [prof.get_operand(k) for k in range(prof.num_operands)]
    ops[first], ops[first + 1] = ops[first + 1], ops[first]
    i.set_metadata("prof", MDNode.get(i.type.context, ops))


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


def flipped_strictness_predicate_and_constant(pred: Predicate, c: Constant) -> tuple[Predicate, Constant] | None:
    """``InstCombiner::getFlippedStrictnessPredicateAndConstant`` for integer constants."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr

    if not pred.is_relational:
        return None
    is_signed = pred.is_signed
    ty = c.type
    w = scalar_width(ty)
    will_increment = pred in (P.ICMP_ULE, P.ICMP_SLE, P.ICMP_UGT, P.ICMP_SGT)
    if will_increment:
        bad = ((1 << (w - 1)) - 1) if is_signed else (1 << w) - 1
    else:
        bad = (1 << (w - 1)) if is_signed else 0
    if isinstance(c, ConstantInt):
        if c.value == bad:
            return None
    elif isinstance(ty, VectorType):
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            if not isinstance(e, ConstantInt) or e.value == bad:
                return None
    else:
        return None
    new_pred = pred.non_strict if pred.is_strict else pred.strict
    new_c = ConstantExpr.get_add(c, int_const(ty, 1 if will_increment else -1))
    return new_pred, new_c


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
