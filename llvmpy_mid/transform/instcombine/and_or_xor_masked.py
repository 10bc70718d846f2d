"""Logic of two masked equality compares (LLVM
``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``: ``getMaskedICmpType``,
``conjugateICmpMask``, ``getMaskedTypeForICmpPair``,
``foldLogOpOfMaskedICmps_NotAllZeros_BMask_Mixed``, ``foldLogOpOfMaskedICmpsAsymmetric``,
``foldLogOpOfMaskedICmps``): ``(icmp (A & B) ==/!= C) &/| (icmp (A & D) ==/!= E)``
as one ``icmp (A & X) ==/!= Y``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.cmp_inst_analysis import decompose_bit_test_icmp
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.pattern_match import m_apint, match
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.and_or_xor_util import binop, cint

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

AMASK_ALL_ONES = 1
AMASK_NOT_ALL_ONES = 2
BMASK_ALL_ONES = 4
BMASK_NOT_ALL_ONES = 8
MASK_ALL_ZEROS = 16
MASK_NOT_ALL_ZEROS = 32
AMASK_MIXED = 64
AMASK_NOT_MIXED = 128
BMASK_MIXED = 256
BMASK_NOT_MIXED = 512

EQ = Predicate.ICMP_EQ
NE = Predicate.ICMP_NE
P_APINT = m_apint("c")


def _apint(v: Value | None) -> int | None:
    if v is None:
        return None
    m = match(v, P_APINT)
    return None if m is None else m.apint("c")


def _pow2(c: int | None) -> bool:
    return c is not None and c != 0 and c & (c - 1) == 0


def get_masked_icmp_type(a: Value, b: Value, c: Value, pred: Predicate) -> int:
    """The MaskedICmpType bits that ``icmp pred (A & B), C`` satisfies"""
    ca = _apint(a)
    cb = _apint(b)
    cc = _apint(c)
    is_eq = pred == EQ
    a_pow2 = _pow2(ca)
    b_pow2 = _pow2(cb)
    mask = 0
    if cc == 0:
        mask |= (MASK_ALL_ZEROS | AMASK_MIXED | BMASK_MIXED) if is_eq else (MASK_NOT_ALL_ZEROS | AMASK_NOT_MIXED | BMASK_NOT_MIXED)
        if a_pow2:
            mask |= (AMASK_NOT_ALL_ONES | AMASK_NOT_MIXED) if is_eq else (AMASK_ALL_ONES | AMASK_MIXED)
        if b_pow2:
            mask |= (BMASK_NOT_ALL_ONES | BMASK_NOT_MIXED) if is_eq else (BMASK_ALL_ONES | BMASK_MIXED)
        return mask
    if a is c:
        mask |= (AMASK_ALL_ONES | AMASK_MIXED) if is_eq else (AMASK_NOT_ALL_ONES | AMASK_NOT_MIXED)
        if a_pow2:
            mask |= (MASK_NOT_ALL_ZEROS | AMASK_NOT_MIXED) if is_eq else (MASK_ALL_ZEROS | AMASK_MIXED)
    elif ca is not None and cc is not None and cc & ~ca == 0:
        mask |= AMASK_MIXED if is_eq else AMASK_NOT_MIXED
    if b is c:
        mask |= (BMASK_ALL_ONES | BMASK_MIXED) if is_eq else (BMASK_NOT_ALL_ONES | BMASK_NOT_MIXED)
        if b_pow2:
            mask |= (MASK_NOT_ALL_ZEROS | BMASK_NOT_MIXED) if is_eq else (MASK_ALL_ZEROS | BMASK_MIXED)
    elif cb is not None and cc is not None and cc & ~cb == 0:
        mask |= BMASK_MIXED if is_eq else BMASK_NOT_MIXED
    return mask


def conjugate_icmp_mask(mask: int) -> int:
    """The MaskedICmpType bits with == and != exchanged"""
    new = (mask & (AMASK_ALL_ONES | BMASK_ALL_ONES | MASK_ALL_ZEROS | AMASK_MIXED | BMASK_MIXED)) << 1
    new |= (mask & (AMASK_NOT_ALL_ONES | BMASK_NOT_ALL_ONES | MASK_NOT_ALL_ZEROS | AMASK_NOT_MIXED | BMASK_NOT_MIXED)) >> 1
    return new


def _decompose(lhs: Value, rhs: Value, pred: Predicate) -> tuple[Value, Value, Value, Predicate] | None:
    """The local ``decomposeBitTestICmp``: (X, mask constant, 0, eq/ne)."""
    r = decompose_bit_test_icmp(lhs, rhs, pred)
    if r is None:
        return None
    x, mask, new_pred = r
    return x, cint(x.type, mask), cint(x.type, 0), new_pred


def _and_parts(v: Value) -> tuple[Value, Value]:
    ops = binop(v, "and")
    if ops is not None:
        return ops
    return v, Constant.get_all_ones_value(v.type)


class _Pair:
    __slots__ = ("a", "b", "c", "d", "e", "pred_l", "pred_r", "left", "right")

    a: Value
    b: Value
    c: Value
    d: Value
    e: Value
    pred_l: Predicate
    pred_r: Predicate
    left: int
    right: int


def get_masked_type_for_icmp_pair(lhs: ICmpInst, rhs: ICmpInst) -> _Pair | None:
    """A, B, C, D, E and the mask types of (icmp (A & B) ==/!= C) and (icmp (A & D) ==/!= E)"""
    if not lhs.get_operand(0).type.scalar_type.is_integer or not rhs.get_operand(0).type.scalar_type.is_integer:
        return None
    pred_l = lhs.predicate
    pred_r = rhs.predicate
    l1: Value | None = lhs.get_operand(0)
    l2: Value = lhs.get_operand(1)
    assert l1 is not None
    dl = _decompose(l1, l2, pred_l)
    l21: Value | None
    l22: Value | None
    if dl is not None:
        l11, l12, l2, pred_l = dl
        l21 = l22 = l1 = None
    else:
        l11, l12 = _and_parts(l1)
        l21, l22 = _and_parts(l2)
    if not pred_l.is_equality:
        return None
    cands = (l11, l12, l21, l22)

    def in_left(v: Value) -> bool:
        return v is l11 or v is l12 or v is l21 or v is l22

    r1: Value | None = rhs.get_operand(0)
    r2: Value = rhs.get_operand(1)
    assert r1 is not None
    ok = False
    a: Value | None = None
    d: Value | None = None
    e: Value | None = None
    dr = _decompose(r1, r2, pred_r)
    if dr is not None:
        r11, r12, r2, pred_r = dr
        if in_left(r11):
            a, d = r11, r12
        elif in_left(r12):
            a, d = r12, r11
        else:
            return None
        e = r2
        r1 = None
        ok = True
    else:
        r11, r12 = _and_parts(r1)
        if in_left(r11):
            a, d, e = r11, r12, r2
            ok = True
        elif in_left(r12):
            a, d, e = r12, r11, r2
            ok = True
    if not pred_r.is_equality:
        return None
    if not ok:
        r11, r12 = _and_parts(r2)
        if in_left(r11):
            a, d, e = r11, r12, r1
        elif in_left(r12):
            a, d, e = r12, r11, r1
        else:
            return None
    del cands
    assert a is not None and d is not None and e is not None
    if l11 is a:
        b, c = l12, l2
    elif l12 is a:
        b, c = l11, l2
    elif l21 is a:
        assert l22 is not None and l1 is not None
        b, c = l22, l1
    else:
        assert l21 is not None and l1 is not None
        b, c = l21, l1
    p = _Pair()
    p.a, p.b, p.c, p.d, p.e = a, b, c, d, e
    p.pred_l, p.pred_r = pred_l, pred_r
    p.left = get_masked_icmp_type(a, b, c, pred_l)
    p.right = get_masked_icmp_type(a, d, e, pred_r)
    return p


def _fold_not_all_zeros_bmask_mixed(
    ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, is_and: bool, a: Value, b: Value, c: Value, d: Value, e: Value,
    pred_l: Predicate, pred_r: Predicate,
) -> Value | None:
    """(icmp ne (A & B), 0) & (icmp eq (A & D), E) -> one masked compare, RHS, or false"""
    bc = _apint(b)
    cc = _apint(c)
    dc = _apint(d)
    orig_e = _apint(e)
    if bc is None or cc is None or dc is None or orig_e is None:
        return None
    new_cc = EQ if is_and else NE
    ec = orig_e
    if pred_r != new_cc:
        ec ^= dc
    if bc == 0 or dc == 0:
        return None
    if bc & dc == 0:
        return None
    if (bc & dc) & ec == 0 and _pow2(bc & (bc ^ dc)):
        bord = bc | dc
        val = (bc & (bc ^ dc)) | ec
        new_and = ic.builder.create_and(a, cint(a.type, bord))
        return ic.builder.create_icmp(new_cc, new_and, cint(a.type, val))
    sub = (bc & dc) == bc
    sup = (bc & dc) == dc
    if not sub and not sup:
        return None
    if ec == 0:
        if sub:
            return cint(lhs.type, 0 if is_and else 1)
        return None
    if sup:
        return rhs
    if bc & ec:
        return rhs
    return cint(lhs.type, 0 if is_and else 1)


def fold_log_op_of_masked_icmps(ic: InstCombiner, lhs: ICmpInst, rhs: ICmpInst, is_and: bool, is_logical: bool) -> Value | None:
    """(icmp (A & B) ==/!= C) &/| (icmp (A & D) ==/!= E) -> icmp (A & X) ==/!= Y"""
    p = get_masked_type_for_icmp_pair(lhs, rhs)
    if p is None:
        return None
    a, b, c, d, e = p.a, p.b, p.c, p.d, p.e
    lmask, rmask = p.left, p.right
    mask = lmask & rmask
    bld = ic.builder
    if mask == 0:
        if not is_and:
            lmask = conjugate_icmp_mask(lmask)
            rmask = conjugate_icmp_mask(rmask)
        if lmask & MASK_NOT_ALL_ZEROS and rmask & BMASK_MIXED:
            return _fold_not_all_zeros_bmask_mixed(ic, lhs, rhs, is_and, a, b, c, d, e, p.pred_l, p.pred_r)
        if lmask & BMASK_MIXED and rmask & MASK_NOT_ALL_ZEROS:
            return _fold_not_all_zeros_bmask_mixed(ic, rhs, lhs, is_and, a, d, e, b, c, p.pred_r, p.pred_l)
        return None
    new_cc = EQ if is_and else NE
    if not is_and:
        mask = conjugate_icmp_mask(mask)
    if mask & MASK_ALL_ZEROS:
        if is_logical and not is_guaranteed_not_to_be_undef_or_poison(d):
            return None
        new_or = bld.create_or(b, d)
        new_and = bld.create_and(a, new_or)
        return bld.create_icmp(new_cc, new_and, Constant.get_null_value(a.type))
    if mask & BMASK_ALL_ONES:
        if is_logical and not is_guaranteed_not_to_be_undef_or_poison(d):
            return None
        new_or = bld.create_or(b, d)
        new_and = bld.create_and(a, new_or)
        return bld.create_icmp(new_cc, new_and, new_or)
    if mask & AMASK_ALL_ONES:
        if is_logical and not is_guaranteed_not_to_be_undef_or_poison(d):
            return None
        new_and1 = bld.create_and(b, d)
        new_and2 = bld.create_and(a, new_and1)
        return bld.create_icmp(new_cc, new_and2, a)
    cb = _apint(b)
    cd = _apint(d)
    if cb is None or cd is None:
        return None
    if mask & (MASK_NOT_ALL_ZEROS | BMASK_NOT_ALL_ONES):
        nm = cb & cd
        if nm == cb:
            return lhs
        if nm == cd:
            return rhs
    if mask & AMASK_NOT_ALL_ONES:
        nm = cb | cd
        if nm == cb:
            return lhs
        if nm == cd:
            return rhs
    if mask & (BMASK_MIXED | BMASK_NOT_MIXED):
        old_c = _apint(c)
        old_e = _apint(e)
        if old_c is None or old_e is None:
            return None

        def fold_bmixed(cc: Predicate, is_not: bool) -> Value | None:
            assert cb is not None and cd is not None and old_c is not None and old_e is not None
            cc = cc.inverse if is_not else cc
            const_c = cb ^ old_c if p.pred_l != cc else old_c
            const_e = cd ^ old_e if p.pred_r != cc else old_e
            if (cb & cd) & (const_c ^ const_e):
                return None if is_not else cint(lhs.type, 0 if is_and else 1)
            if is_not and cb & ~cd and cd & ~cb:
                return None
            if is_not:
                bd = cb & cd
                ce = const_c & const_e
            else:
                bd = cb | cd
                ce = const_c | const_e
            new_and = bld.create_and(a, cint(a.type, bd))
            return bld.create_icmp(cc, cint(a.type, ce), new_and)

        if mask & BMASK_MIXED:
            return fold_bmixed(new_cc, False)
        return fold_bmixed(new_cc, True)
    return None


__all__ = ["conjugate_icmp_mask", "fold_log_op_of_masked_icmps", "get_masked_icmp_type", "get_masked_type_for_icmp_pair"]
