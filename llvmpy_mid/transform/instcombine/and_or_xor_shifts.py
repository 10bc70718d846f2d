"""Shift idioms of ``or`` (LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``:
``convertOrOfShiftsToFunnelShift``, ``matchFunnelShift``, ``matchBSwapOrBitReverse``).

The bswap/bitreverse recognizer itself is the shared toolkit's
(:mod:`llvmpy_mid.transform.utils.bswap_idiom`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import ZExtInst
from llvmpy_mid.ir.pattern_match import m_apint, m_apint_allow_poison, match
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.bswap_idiom import recognize_bswap_or_bitreverse_idiom
from llvmpy_mid.transform.instcombine.and_or_xor_util import binop, cint, intrinsic_call, merge_undefs_with, one_use, width

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P_APINT_P = m_apint_allow_poison("c")
P_APINT = m_apint("c")


def _apint_p(v: Value) -> int | None:
    m = match(v, P_APINT_P)
    return None if m is None else m.apint("c")


def _is_int(v: Value, want: int) -> bool:
    m = match(v, P_APINT)
    return m is not None and m.apint("c") == want


def _const_lanes_ult(c: Constant, bound: int) -> bool:
    """``m_SpecificInt_ICMP(ICMP_ULT, bound)``: every non-poison lane (at least one) is below ``bound``."""
    ty = c.type
    if isinstance(c, ConstantInt):
        return c.value < bound
    if not isinstance(ty, VectorType) or ty.scalable:
        return False
    seen = False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if isinstance(e, PoisonValue):
            continue
        if not isinstance(e, ConstantInt) or e.value >= bound:
            return False
        seen = True
    return seen


def _is_specific_int_allow_poison(c: Constant, want: int) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == want
    ty = c.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return False
    seen = False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if isinstance(e, UndefValue):
            continue
        if not isinstance(e, ConstantInt) or e.value != want:
            return False
        seen = True
    return seen


def _neg_of(v: Value) -> Value | None:
    """``m_Neg(m_Value(X))``: X."""
    ops = binop(v, "sub")
    if ops is None:
        return None
    z = ops[0]
    if isinstance(z, Constant) and _is_zero(z):
        return ops[1]
    return None


def _is_zero(c: Constant) -> bool:
    from llvmpy_mid.ir.pattern_match import m_zero_int

    return match(c, _P_ZERO) is not None


from llvmpy_mid.ir.pattern_match import m_zero_int  # noqa: E402

_P_ZERO = m_zero_int()


def _and_mask(v: Value, mask: int) -> Value | None:
    """``m_And(m_Value(X), m_SpecificInt(mask))``: X."""
    ops = binop(v, "and")
    if ops is not None and _is_int(ops[1], mask):
        return ops[0]
    return None


def _match_shift_amount(
    ic: InstCombiner, l: Value, r: Value, w: int, sh_val0: Value, sh_val1: Value, or_i: Instruction
) -> Value | None:
    """The funnel amount when L and R are complementary shift amounts, or None"""
    li = _apint_p(l)
    ri = _apint_p(r)
    if li is not None and ri is not None:
        if li < w and ri < w and (li + ri) & ((1 << w) - 1) == w & ((1 << w) - 1):
            return cint(l.type, li)
    if isinstance(l, Constant) and isinstance(r, Constant):
        if _const_lanes_ult(l, w) and _const_lanes_ult(r, w):
            s = ConstantExpr.get_add(l, r)
            if _is_specific_int_allow_poison(s, w):
                return merge_undefs_with(l, r)
    ops = binop(r, "sub")
    if ops is not None and one_use(r) and ops[1] is l and _is_int(ops[0], w):
        known = ic.compute_known_bits(l, 0, or_i)
        return l if known.get_max_value() < w else None
    if sh_val0 is not sh_val1:
        return None
    if w & (w - 1):
        return None
    mask = w - 1
    x = _and_mask(l, mask)
    if x is not None:
        rn = _and_mask(r, mask)
        if rn is not None and _neg_of(rn) is x:
            return x
    rn = _and_mask(r, mask)
    if rn is not None and _neg_of(rn) is l:
        return l
    if getattr(l, "opcode", None) == "zext":
        x = _and_mask(l.get_operand(0), mask)  # type: ignore[attr-defined]
        if x is not None:
            if rn is not None:
                nz = _neg_of(rn)
                if nz is not None and getattr(nz, "opcode", None) == "zext" and _and_mask(nz.get_operand(0), mask) is x:  # type: ignore[attr-defined]
                    return l
            if getattr(r, "opcode", None) == "zext":
                inner = _and_mask(r.get_operand(0), mask)  # type: ignore[attr-defined]
                if inner is not None and _neg_of(inner) is x:
                    return l
    return None


def convert_or_of_shifts_to_funnel_shift(ic: InstCombiner, or_i: Instruction) -> tuple[str, list[Value]] | None:
    """or (shl X, C), (lshr Y, BW - C) -> ('fshl', [X, Y, C]) and the other funnel/rotate forms"""
    w = width(or_i.type)
    or0 = or_i.get_operand(0)
    or1 = or_i.get_operand(1)
    if not isinstance(or0, Instruction) or not isinstance(or1, Instruction):
        return None
    is_fshl = True
    args: list[Value] = []
    if isinstance(or0, BinaryOperator) and isinstance(or1, BinaryOperator):
        if (
            not one_use(or0)
            or not one_use(or1)
            or or0.opcode not in ("shl", "lshr")
            or or1.opcode not in ("shl", "lshr")
            or or0.opcode == or1.opcode
        ):
            return None
        if or0.opcode == "lshr":
            or0, or1 = or1, or0
        sh_val0, sh_amt0 = or0.lhs, or0.rhs
        sh_val1, sh_amt1 = or1.lhs, or1.rhs
        amt = _match_shift_amount(ic, sh_amt0, sh_amt1, w, sh_val0, sh_val1, or_i)
        if amt is None:
            amt = _match_shift_amount(ic, sh_amt1, sh_amt0, w, sh_val0, sh_val1, or_i)
            is_fshl = False
        if amt is None:
            return None
        args = [sh_val0, sh_val1, amt]
    elif isinstance(or0, ZExtInst) or isinstance(or1, ZExtInst):
        if not isinstance(or1, ZExtInst):
            or0, or1 = or1, or0
        if not one_use(or0) or getattr(or0, "opcode", None) != "shl":
            return None
        zext_high = or0.get_operand(0)
        hs = _apint_of(or0.get_operand(1))
        if hs is None:
            return None
        if not isinstance(or1, ZExtInst) or getattr(zext_high, "opcode", None) != "zext":
            return None
        low = or1.get_operand(0)
        high = zext_high.get_operand(0)  # type: ignore[attr-defined]
        high_size = width(high.type)
        low_size = width(low.type)
        if hs < low_size or hs > w - high_size:
            return None
        for u in zext_high.users:
            xy = binop(u, "or")
            if xy is None:
                continue
            x, y = xy
            if not isinstance(y, ZExtInst):
                x, y = y, x
            sh = binop(x, "shl")
            if sh is None or sh[0] is not or1:
                continue
            ls = _apint_of(sh[1])
            if ls is None or y is not zext_high or not ic.dt.dominates(u, or_i):
                continue
            if ls + hs != w:
                continue
            args = [u, u, cint(or0.type, hs)]
            break
    if not args:
        return None
    return ("fshl" if is_fshl else "fshr"), args


def _apint_of(v: Value) -> int | None:
    m = match(v, P_APINT)
    return None if m is None else m.apint("c")


def match_funnel_shift(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """or (shl X, C), (lshr Y, BW - C) -> fshl(X, Y, C) (the UB-safe funnel and rotate idioms)"""
    r = convert_or_of_shifts_to_funnel_shift(ic, i)
    if r is None:
        return None
    base, args = r
    return intrinsic_call(ic, base, i.type, args)


def match_bswap_or_bitreverse(
    ic: InstCombiner, i: Instruction, match_bswaps: bool, match_bit_reversals: bool
) -> Instruction | None:
    """An or of shifted/masked byte (bit) parts that is a bswap (bitreverse) -> the intrinsic"""
    insts: list[Instruction] = []
    if not recognize_bswap_or_bitreverse_idiom(i, match_bswaps, match_bit_reversals, insts):
        return None
    last = insts.pop()
    last.remove_from_parent()
    for inst in insts:
        ic.worklist.push(inst)
    return last


def match_or_concat(ic: InstCombiner, i: Instruction) -> Value | None:
    """concat(bswap(x), bswap(y)) -> bswap(concat(y, x)) (bitreverse likewise), for halves of the width"""
    op0 = i.get_operand(0)
    op1 = i.get_operand(1)
    ty = i.type
    w = width(ty)
    if w & 1:
        return None
    half = w // 2
    if not isinstance(op0, ZExtInst):
        op0, op1 = op1, op0
    if not isinstance(op0, ZExtInst) or not one_use(op0):
        return None
    lower = op0.get_operand(0)
    sh = binop(op1, "shl")
    if sh is None or not one_use(op1) or not isinstance(op1, Instruction):
        return None
    shl_val = sh[0]
    c = _apint_of(sh[1])
    if c is None or not isinstance(shl_val, ZExtInst) or not one_use(shl_val):
        return None
    upper = shl_val.get_operand(0)
    if c != half or lower.type is not upper.type or width(lower.type) != half:
        return None
    from llvmpy_mid.ir.instructions.calls import CallInst

    if not isinstance(lower, CallInst) or not isinstance(upper, CallInst):
        return None
    base = lower.intrinsic_base
    if base not in ("llvm.bswap", "llvm.bitreverse") or upper.intrinsic_base != base:
        return None
    lo = upper.get_operand(0)
    hi = lower.get_operand(0)
    b = ic.builder
    new_lower = b.create_zext(lo, ty)
    new_upper = b.create_zext(hi, ty)
    new_upper = b.create_shl(new_upper, cint(ty, half))
    binop_v = b.create_or(new_lower, new_upper)
    return b.create_unary_intrinsic(base[5:], binop_v)


__all__ = ["convert_or_of_shifts_to_funnel_shift", "match_bswap_or_bitreverse", "match_funnel_shift", "match_or_concat"]
