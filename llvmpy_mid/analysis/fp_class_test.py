"""Floating-point class tests of compares (LLVM ``lib/Analysis/ValueTracking.cpp``:
``fcmpImpliesClass``, ``fcmpToClassTest``; ``include/llvm/ADT/FloatingPointMode.h``:
the ``FPClassTest`` bits and ``inverse_fabs``).

An ``FPClassTest`` is the 10-bit mask ``llvm.is.fpclass`` takes. :func:`fcmp_to_class_test`
says when ``fcmp pred x, C`` is exactly ``is.fpclass(x, mask)`` (looking through a
``fabs`` of ``x``); :func:`fcmp_implies_class` gives the classes implied when the compare
is true and when it is false.
"""

from __future__ import annotations

from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir.constants import Constant, ConstantFP, get_splat_value
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.value import Value

FC_SNAN = 1
FC_QNAN = 2
FC_NEG_INF = 4
FC_NEG_NORMAL = 8
FC_NEG_SUBNORMAL = 16
FC_NEG_ZERO = 32
FC_POS_ZERO = 64
FC_POS_SUBNORMAL = 128
FC_POS_NORMAL = 256
FC_POS_INF = 512
FC_NONE = 0
FC_ALL = 1023
FC_NAN = FC_SNAN | FC_QNAN
FC_INF = FC_POS_INF | FC_NEG_INF
FC_NORMAL = FC_POS_NORMAL | FC_NEG_NORMAL
FC_SUBNORMAL = FC_POS_SUBNORMAL | FC_NEG_SUBNORMAL
FC_ZERO = FC_POS_ZERO | FC_NEG_ZERO
FC_POS_FINITE = FC_POS_NORMAL | FC_POS_SUBNORMAL | FC_POS_ZERO
FC_NEG_FINITE = FC_NEG_NORMAL | FC_NEG_SUBNORMAL | FC_NEG_ZERO
FC_FINITE = FC_POS_FINITE | FC_NEG_FINITE
FC_POSITIVE = FC_POS_FINITE | FC_POS_INF
FC_NEGATIVE = FC_NEG_FINITE | FC_NEG_INF

O = Predicate


def inv(mask: int) -> int:
    """``~Mask`` of an FPClassTest."""
    return ~mask & FC_ALL


def inverse_fabs(mask: int) -> int:
    """The classes whose fabs lies in ``mask`` (LLVM ``inverse_fabs``)."""
    new = mask & FC_NAN
    if mask & FC_POS_ZERO:
        new |= FC_ZERO
    if mask & FC_POS_SUBNORMAL:
        new |= FC_SUBNORMAL
    if mask & FC_POS_NORMAL:
        new |= FC_NORMAL
    if mask & FC_POS_INF:
        new |= FC_INF
    return new


def classify(sem: apfloat.Semantics, bits: int) -> int:
    """``APFloat::classify``: the one class of a value."""
    cat, sign, _sig, _exp = apfloat.decode(sem, bits)
    if cat == apfloat.NAN:
        return FC_SNAN if apfloat.is_signaling(sem, bits) else FC_QNAN
    if cat == apfloat.INF:
        return FC_NEG_INF if sign else FC_POS_INF
    if cat == apfloat.ZERO:
        return FC_NEG_ZERO if sign else FC_POS_ZERO
    if apfloat.is_denormal(sem, bits):
        return FC_NEG_SUBNORMAL if sign else FC_POS_SUBNORMAL
    return FC_NEG_NORMAL if sign else FC_POS_NORMAL


def _fabs_source(v: Value) -> Value | None:
    from llvmpy_mid.ir.instructions.calls import CallInst

    if isinstance(v, CallInst) and v.intrinsic_base == "llvm.fabs":
        return v.get_operand(0)
    return None


def _input_denormal_is_ieee(fn: Function | None, v: Value) -> bool:
    from llvmpy_mid.analysis.constant_folding import denormal_mode

    if fn is None:
        return True
    return denormal_mode(fn, v.type.scalar_type)[1] == "ieee"


Result = tuple[Value | None, int, int]


def _exact(v: Value, mask: int) -> Result:
    return v, mask, inv(mask)


def fcmp_implies_class_of_class(pred: Predicate, fn: Function | None, lhs: Value, rhs_class: int, look_through_src: bool = True) -> Result:
    """(source, classes if true, classes if false) of ``fcmp pred lhs, C`` for C of class ``rhs_class``"""
    src = lhs
    if pred == O.FCMP_TRUE:
        return _exact(src, FC_ALL)
    if pred == O.FCMP_FALSE:
        return _exact(src, FC_NONE)
    orig = rhs_class
    is_neg_rhs = rhs_class & FC_NEGATIVE == rhs_class
    is_pos_rhs = rhs_class & FC_POSITIVE == rhs_class
    if rhs_class & ~FC_NAN == 0:
        return _exact(src, FC_NONE if pred.is_ordered else FC_ALL)
    if pred == O.FCMP_ORD:
        return _exact(src, inv(FC_NAN))
    if pred == O.FCMP_UNO:
        return _exact(src, FC_NAN)
    is_fabs = False
    if look_through_src:
        fs = _fabs_source(lhs)
        if fs is not None:
            src = fs
            is_fabs = True
            rhs_class = inverse_fabs(rhs_class)
    if orig & FC_ZERO == orig:
        if not _input_denormal_is_ieee(fn, lhs):
            return None, FC_ALL, FC_ALL
        table = {
            O.FCMP_OEQ: FC_ZERO,
            O.FCMP_UEQ: FC_ZERO | FC_NAN,
            O.FCMP_UNE: inv(FC_ZERO),
            O.FCMP_ONE: inv(FC_NAN) & inv(FC_ZERO),
            O.FCMP_OGT: FC_POS_SUBNORMAL | FC_POS_NORMAL | FC_POS_INF,
            O.FCMP_UGT: FC_POS_SUBNORMAL | FC_POS_NORMAL | FC_POS_INF | FC_NAN,
            O.FCMP_OGE: FC_POSITIVE | FC_NEG_ZERO,
            O.FCMP_UGE: FC_POSITIVE | FC_NEG_ZERO | FC_NAN,
            O.FCMP_OLT: FC_NEG_SUBNORMAL | FC_NEG_NORMAL | FC_NEG_INF,
            O.FCMP_ULT: FC_NEG_SUBNORMAL | FC_NEG_NORMAL | FC_NEG_INF | FC_NAN,
            O.FCMP_OLE: FC_NEGATIVE | FC_POS_ZERO,
            O.FCMP_ULE: FC_NEGATIVE | FC_POS_ZERO | FC_NAN,
        }
        return _exact(src, table[pred])
    is_denormal_rhs = orig & FC_SUBNORMAL == orig
    if orig & FC_INF == orig:
        if pred in (O.FCMP_OEQ, O.FCMP_UNE):
            if is_neg_rhs:
                mask = FC_NONE if is_fabs else FC_NEG_INF
            else:
                mask = FC_POS_INF | (FC_NEG_INF if is_fabs else 0)
        elif pred in (O.FCMP_ONE, O.FCMP_UEQ):
            if is_neg_rhs:
                mask = inv(FC_NAN) if is_fabs else inv(FC_NEG_INF) & inv(FC_NAN)
            else:
                mask = inv(FC_POS_INF) & inv(FC_NAN)
                if is_fabs:
                    mask &= inv(FC_NEG_INF)
        elif pred in (O.FCMP_OLT, O.FCMP_UGE):
            if is_neg_rhs:
                mask = FC_NONE
            else:
                mask = FC_FINITE | (0 if is_fabs else FC_NEG_INF)
        elif pred in (O.FCMP_OGE, O.FCMP_ULT):
            if is_neg_rhs:
                mask = inv(FC_NAN)
            else:
                mask = FC_POS_INF | (FC_NEG_INF if is_fabs else 0)
        elif pred in (O.FCMP_OGT, O.FCMP_ULE):
            mask = (inv(FC_NAN) if is_fabs else inv(FC_NEG_INF | FC_NAN)) if is_neg_rhs else FC_NONE
        else:  # OLE, UGT
            mask = (FC_NONE if is_fabs else FC_NEG_INF) if is_neg_rhs else inv(FC_NAN)
        if pred.is_unordered:
            mask = inv(mask)
        return _exact(src, mask)
    if pred == O.FCMP_OEQ:
        return src, rhs_class, FC_ALL
    if pred == O.FCMP_UEQ:
        return src, rhs_class | FC_NAN, inv(FC_NAN)
    if pred == O.FCMP_ONE:
        return src, inv(FC_NAN), rhs_class | FC_NAN
    if pred == O.FCMP_UNE:
        return src, FC_ALL, rhs_class
    if is_neg_rhs:
        if is_fabs:
            if pred in (O.FCMP_OGT, O.FCMP_OGE):
                return src, inv(FC_NAN), FC_NAN
            if pred in (O.FCMP_UGT, O.FCMP_UGE):
                return src, FC_ALL, FC_NONE
            if pred in (O.FCMP_OLT, O.FCMP_OLE):
                return src, FC_NONE, FC_ALL
            if pred in (O.FCMP_ULT, O.FCMP_ULE):
                return src, FC_NAN, inv(FC_NAN)
            return None, FC_ALL, FC_ALL
        le = FC_NEG_INF | FC_NEG_NORMAL
        ge = FC_POSITIVE | FC_NEG_ZERO | FC_NEG_SUBNORMAL
        if is_denormal_rhs:
            le |= FC_NEG_SUBNORMAL
        else:
            ge |= FC_NEG_NORMAL
        return _ordered_split(pred, src, le, ge, rhs_class)
    if is_pos_rhs:
        ge = FC_POS_NORMAL | FC_POS_INF
        le = FC_NEGATIVE | FC_POS_ZERO | FC_POS_SUBNORMAL
        if is_denormal_rhs:
            ge |= FC_POS_SUBNORMAL
        else:
            le |= FC_POS_NORMAL
        if is_fabs:
            ge = inverse_fabs(ge)
            le = inverse_fabs(le)
        return _ordered_split(pred, src, le, ge, rhs_class)
    return None, FC_ALL, FC_ALL


def _ordered_split(pred: Predicate, src: Value, le: int, ge: int, rhs_class: int) -> Result:
    if pred in (O.FCMP_OGT, O.FCMP_OGE):
        return src, ge, inv(ge) | rhs_class
    if pred in (O.FCMP_UGT, O.FCMP_UGE):
        return src, ge | FC_NAN, inv(ge | FC_NAN) | rhs_class
    if pred in (O.FCMP_OLT, O.FCMP_OLE):
        return src, le, inv(le) | rhs_class
    if pred in (O.FCMP_ULT, O.FCMP_ULE):
        return src, le | FC_NAN, inv(le | FC_NAN) | rhs_class
    return None, FC_ALL, FC_ALL


def _is_smallest_normalized(sem: apfloat.Semantics, bits: int) -> bool:
    """``APFloat::isSmallestNormalized`` (either sign): exponent field 1, fraction 0."""
    magnitude = bits & ((1 << (sem.width - 1)) - 1)
    want = 1 << sem.frac_bits
    if sem.explicit_int:
        want |= 1 << (sem.frac_bits - 1)
    return magnitude == want


def fcmp_implies_class_of_const(
    pred: Predicate, fn: Function | None, lhs: Value, c: ConstantFP, look_through_src: bool = True
) -> Result:
    """``fcmpImpliesClass`` with an APFloat right-hand side (smallest-normal compares refined)"""
    sem = apfloat.semantics_of(c.type.type_id)
    if sem is None:
        return None, FC_ALL, FC_ALL
    bits = c.bits
    negative = apfloat.is_negative(sem, bits)
    if not negative and _is_smallest_normalized(sem, bits):
        src = lhs
        is_fabs = False
        if look_through_src:
            fs = _fabs_source(lhs)
            if fs is not None:
                src, is_fabs = fs, True
        if pred in (O.FCMP_OLT, O.FCMP_UGE):
            mask = FC_ZERO | FC_SUBNORMAL
            if not is_fabs:
                mask |= FC_NEG_NORMAL | FC_NEG_INF
        elif pred in (O.FCMP_OGE, O.FCMP_ULT):
            mask = FC_POS_INF | FC_POS_NORMAL
            if is_fabs:
                mask |= FC_NEG_INF | FC_NEG_NORMAL
        else:
            return fcmp_implies_class_of_class(pred, fn, lhs, classify(sem, bits), look_through_src)
        if pred.is_unordered:
            mask = inv(mask)
        return _exact(src, mask)
    return fcmp_implies_class_of_class(pred, fn, lhs, classify(sem, bits), look_through_src)


def fcmp_to_class_test(
    pred: Predicate, fn: Function | None, lhs: Value, rhs: Value, look_through_src: bool = True
) -> tuple[Value | None, int]:
    """(x, mask) with ``fcmp pred lhs, rhs`` == ``is.fpclass(x, mask)``, or (None, all)"""
    c: Constant | None = rhs if isinstance(rhs, ConstantFP) else (get_splat_value(rhs, True) if isinstance(rhs, Constant) else None)
    if not isinstance(c, ConstantFP):
        return None, FC_ALL
    src, if_true, if_false = fcmp_implies_class_of_const(pred, fn, lhs, c, look_through_src)
    if src is not None and if_true == inv(if_false):
        return src, if_true
    return None, FC_ALL


__all__ = [
    "FC_ALL",
    "FC_NAN",
    "classify",
    "fcmp_implies_class_of_class",
    "fcmp_implies_class_of_const",
    "fcmp_to_class_test",
    "inverse_fabs",
]
