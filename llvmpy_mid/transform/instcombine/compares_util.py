"""Small helpers shared by the compare folds of InstCombine (constants and widths, LLVM's
``isSignBitCheck`` and ``InstCombiner::getFlippedStrictnessPredicateAndConstant``)."""

from __future__ import annotations

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector, UndefValue, get_splat_value
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common

P = Predicate


# --- small shared helpers (constants, widths) -------------------------------------------------


def int_const(ty: Type, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)`` (splatted over vectors; V taken modulo 2**width)."""
    return common.get_int_constant(ty, value)


def scalar_width(ty: Type) -> int:
    s = ty.scalar_type
    return s.width if isinstance(s, IntegerType) else 0


def apint(v: Value) -> int | None:
    """The unsigned value of an integer constant or splat (LLVM ``m_APInt``)."""
    if type(v) is ConstantInt:
        return v.value
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if type(s) is ConstantInt:
            return s.value
    return None


def apint_allow_poison(v: Value) -> int | None:
    if type(v) is ConstantInt:
        return v.value
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v, True)
        if type(s) is ConstantInt:
            return s.value
    return None


def to_signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def is_sign_bit_check(pred: Predicate, c: int, w: int) -> tuple[bool, bool] | None:
    """``(is_sign_check, true_if_signed)``: does ``X pred C`` test only the sign bit
    (LLVM ``isSignBitCheck``)? None when it does not."""
    mask = (1 << w) - 1
    smax = (1 << (w - 1)) - 1
    smin = 1 << (w - 1)
    if pred == P.ICMP_SLT:
        return (True, True) if c == 0 else None
    if pred == P.ICMP_SLE:
        return (True, True) if c == mask else None
    if pred == P.ICMP_SGT:
        return (True, False) if c == mask else None
    if pred == P.ICMP_SGE:
        return (True, False) if c == 0 else None
    if pred == P.ICMP_UGT:
        return (True, True) if c == smax else None
    if pred == P.ICMP_UGE:
        return (True, True) if c == smin else None
    if pred == P.ICMP_ULT:
        return (True, False) if c == smin else None
    if pred == P.ICMP_ULE:
        return (True, False) if c == smax else None
    return None


def get_flipped_strictness_predicate_and_constant(pred: Predicate, c: Constant) -> tuple[Predicate, Constant] | None:
    """``X <= C`` <-> ``X < C+1`` and friends, when C+1 / C-1 does not wrap
    (LLVM ``InstCombiner::getFlippedStrictnessPredicateAndConstant``)."""
    ty = c.type
    is_signed = pred.is_signed
    upred = pred.unsigned
    will_increment = upred == P.ICMP_ULE or upred == P.ICMP_UGT

    def ok(ci: ConstantInt) -> bool:
        w = ci.type.width
        v = ci.value
        if will_increment:
            return v != ((1 << (w - 1)) - 1 if is_signed else (1 << w) - 1)
        return v != ((1 << (w - 1)) if is_signed else 0)

    safe: Constant | None = None
    if isinstance(c, ConstantInt):
        if not ok(c):
            return None
    elif isinstance(ty, VectorType) and not ty.scalable:
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            if e is None:
                return None
            if isinstance(e, UndefValue):
                continue
            if not isinstance(e, ConstantInt) or not ok(e):
                return None
            if safe is None:
                safe = e
    elif isinstance(ty, VectorType):
        s = get_splat_value(c)
        if not isinstance(s, ConstantInt) or not ok(s):
            return None
    else:
        return None
    # LLVM's containsUndefOrPoisonElement looks into fixed vectors only
    if isinstance(ty, VectorType) and not ty.scalable and c.contains_undef_or_poison():
        assert safe is not None
        elems: list[Constant] = []
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            elems.append(safe if e is None or isinstance(e, UndefValue) else e)
        c = ConstantVector.get(elems)
    new_pred = pred.strict if pred.is_non_strict else pred.non_strict
    one = int_const(ty, 1 if will_increment else -1)
    return new_pred, ConstantExpr.get_add(c, one)



__all__ = [
    "apint",
    "apint_allow_poison",
    "get_flipped_strictness_predicate_and_constant",
    "int_const",
    "is_sign_bit_check",
    "scalar_width",
    "to_signed",
]
