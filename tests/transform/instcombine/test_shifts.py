"""InstCombine's shift folds (InstCombineShifts.cpp): each rule's input gives what opt-19
gives, and the result refines the input on every i8 argument."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

MAX_INPUTS = 1 << 12
"""Exhaustive up to 12 argument bits, a seeded sample of that many inputs beyond."""

RULES: dict[str, str] = {
    # shl (shl X, C1), C2 -> shl X, C1+C2
    'shl_shl': 'define i8 @f(i8 %x) {\n  %a = shl i8 %x, 2\n  %r = shl i8 %a, 3\n  ret i8 %r\n}',
    # lshr (lshr X, C1), C2 -> lshr X, C1+C2
    'lshr_lshr': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 2\n  %r = lshr i8 %a, 3\n  ret i8 %r\n}',
    # oversized lshr of lshr -> 0
    'lshr_lshr_oversized': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 5\n  %r = lshr i8 %a, 4\n  ret i8 %r\n}',
    # ashr (ashr X, C1), C2 -> ashr X, min(C1+C2, w-1)
    'ashr_ashr': 'define i8 @f(i8 %x) {\n  %a = ashr i8 %x, 5\n  %r = ashr i8 %a, 4\n  ret i8 %r\n}',
    # (X << C) >>u C -> X & (-1 >>u C)
    'shl_lshr_same': 'define i8 @f(i8 %x) {\n  %a = shl i8 %x, 3\n  %r = lshr i8 %a, 3\n  ret i8 %r\n}',
    # (X >> C) << C -> X & (-1 << C)
    'lshr_shl_same': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 3\n  %r = shl i8 %a, 3\n  ret i8 %r\n}',
    # (X <<nuw C1) >>u C2 -> X >>u (C2 - C1)
    'shl_nuw_lshr': 'define i8 @f(i8 %x) {\n  %a = shl nuw i8 %x, 2\n  %r = lshr i8 %a, 5\n  ret i8 %r\n}',
    # (X <<nsw C1) >>s C2 -> X >>s (C2 - C1)
    'shl_nsw_ashr': 'define i8 @f(i8 %x) {\n  %a = shl nsw i8 %x, 2\n  %r = ashr i8 %a, 5\n  ret i8 %r\n}',
    # (X <<nsw C1) >>s C2 with C1 > C2 -> X <<nsw (C1 - C2)
    'shl_nsw_ashr_left': 'define i8 @f(i8 %x) {\n  %a = shl nsw i8 %x, 5\n  %r = ashr i8 %a, 2\n  ret i8 %r\n}',
    # (C2 << X) << C1 -> (C2 << C1) << X
    'const_shl_var_shl': 'define i8 @f(i8 %x) {\n  %a = shl i8 3, %x\n  %r = shl i8 %a, 2\n  ret i8 %r\n}',
    # shl nuw/nsw inference from known bits
    'shl_flags_inferred': 'define i8 @f(i8 %x) {\n  %a = and i8 %x, 7\n  %r = shl i8 %a, 2\n  ret i8 %r\n}',
    # lshr exact inference from known trailing zeros
    'lshr_exact_inferred': 'define i8 @f(i8 %x, i8 %y) {\n  %a = shl i8 %x, 3\n  %n = and i8 %y, 3\n  %r = lshr i8 %a, %n\n  ret i8 %r\n}',
    # ashr of a known non-negative -> lshr
    'ashr_nonneg_to_lshr': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 1\n  %r = ashr i8 %a, %x\n  ret i8 %r\n}',
    # shift by one-use sext amount -> zext amount
    'shift_amt_sext': 'define i8 @f(i8 %x, i4 %y) {\n  %s = sext i4 %y to i8\n  %r = shl i8 %x, %s\n  ret i8 %r\n}',
    # ashr (shl (zext X), C), C -> sext X
    'ashr_shl_zext': 'define i8 @f(i4 %x) {\n  %z = zext i4 %x to i8\n  %a = shl i8 %z, 4\n  %r = ashr i8 %a, 4\n  ret i8 %r\n}',
    # (iN ~X) u>> (N-1) -> zext (X > -1)
    'lshr_not_signbit': 'define i8 @f(i8 %x) {\n  %n = xor i8 %x, -1\n  %r = lshr i8 %n, 7\n  ret i8 %r\n}',
    # lshr (sext i1 X), C -> select X, (-1 >>u C), 0
    'lshr_sext_bool': 'define i8 @f(i1 %x) {\n  %s = sext i1 %x to i8\n  %r = lshr i8 %s, 3\n  ret i8 %r\n}',
    # shl (zext i1 X), C -> select X, 1 << C, 0
    'shl_zext_bool': 'define i8 @f(i1 %x) {\n  %z = zext i1 %x to i8\n  %r = shl i8 %z, 5\n  ret i8 %r\n}',
    # (X * C2) << C1 -> X * (C2 << C1)
    'shl_of_mul': 'define i8 @f(i8 %x) {\n  %m = mul i8 %x, 3\n  %r = shl i8 %m, 2\n  ret i8 %r\n}',
    # 1 << (7 - X) -> 128 >>u X
    'one_shl_sub': 'define i8 @f(i8 %x) {\n  %s = sub i8 7, %x\n  %r = shl i8 1, %s\n  ret i8 %r\n}',
    # ashr (X -nsw Y), N-1 -> sext (X < Y)
    'ashr_nsw_sub_signbit': 'define i8 @f(i8 %x, i8 %y) {\n  %s = sub nsw i8 %x, %y\n  %r = ashr i8 %s, 7\n  ret i8 %r\n}',
    # lshr (X -nsw Y), N-1 -> zext (X < Y)
    'lshr_nsw_sub_signbit': 'define i8 @f(i8 %x, i8 %y) {\n  %s = sub nsw i8 %x, %y\n  %r = lshr i8 %s, 7\n  ret i8 %r\n}',
    # ashr (xor X, -1), Y -> xor (ashr X, Y), -1
    'ashr_not': 'define i8 @f(i8 %x, i8 %y) {\n  %n = xor i8 %x, -1\n  %r = ashr i8 %n, %y\n  ret i8 %r\n}',
    # (x << y) >> y -> x & (-1 >> y)
    'shl_lshr_var': 'define i8 @f(i8 %x, i8 %y) {\n  %a = shl i8 %x, %y\n  %r = lshr i8 %a, %y\n  ret i8 %r\n}',
    # (x >> y) << y -> x & (-1 << y)
    'lshr_shl_var': 'define i8 @f(i8 %x, i8 %y) {\n  %a = lshr i8 %x, %y\n  %r = shl i8 %a, %y\n  ret i8 %r\n}',
    # shift (A srem 8) -> shift (A and 7)
    'shift_amt_srem_pow2': 'define i8 @f(i8 %x, i8 %a) {\n  %m = srem i8 %a, 8\n  %r = shl i8 %x, %m\n  ret i8 %r\n}',
    # shift of (or X, 7) amount -> 7
    'shift_amt_or_max': 'define i8 @f(i8 %x, i8 %a) {\n  %m = or i8 %a, 7\n  %r = lshr i8 %x, %m\n  ret i8 %r\n}',
    # vector splat shl of shl
    'vec_shl_shl': 'define <2 x i8> @f(<2 x i8> %x) {\n  %a = shl <2 x i8> %x, <i8 1, i8 1>\n  %r = shl <2 x i8> %a, <i8 2, i8 2>\n  ret <2 x i8> %r\n}',
    # (X >>u C) << C with C < shift: (X << (C - C1)) & mask
    'lshr_shl_diff': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 2\n  %r = shl i8 %a, 5\n  ret i8 %r\n}',
    # shl (binop (shl X, C0), Y), C1 -> binop (shl X, C0+C1), (shl Y, C1)
    'shift_of_shifted_logic': 'define i8 @f(i8 %x, i8 %y) {\n  %a = shl i8 %x, 2\n  %o = xor i8 %a, %y\n  %r = shl i8 %o, 3\n  ret i8 %r\n}',
    # lshr (or X, C), C2 -> or (lshr X, C2), C>>C2
    'lshr_of_or_const': 'define i8 @f(i8 %x) {\n  %o = or i8 %x, 96\n  %r = lshr i8 %o, 4\n  ret i8 %r\n}',
    # lshr (mul nuw X, 2^N+1), N for half width -> X
    'lshr_mul_splat': 'define i8 @f(i8 %x) {\n  %m = mul nuw i8 %x, 17\n  %r = lshr i8 %m, 4\n  ret i8 %r\n}',
    # ashr (sext X), C -> sext (ashr X, C)
    'ashr_sext': 'define i32 @f(i8 %x) {\n  %s = sext i8 %x to i32\n  %r = ashr i32 %s, 3\n  ret i32 %r\n}',
    # lshr (zext X), C -> zext (lshr X, C)
    'lshr_zext': 'define i32 @f(i8 %x) {\n  %s = zext i8 %x to i32\n  %r = lshr i32 %s, 3\n  ret i32 %r\n}',
    # (X >>s 7) with demanded low bit only -> lshr
    'ashr_demanded_one_bit': 'define i8 @f(i8 %x, i8 %y) {\n  %a = ashr i8 %x, %y\n  %r = trunc i8 %a to i1\n  %z = zext i1 %r to i8\n  ret i8 %z\n}',
}

# The final form also needs the and/or/xor family (the and of two zexts): refinement only.
REFINE_ONLY: dict[str, str] = {
    # (X + Y) >> 1 with bool-like X, Y -> X & Y
    'lshr_add_bools': 'define i8 @f(i1 %a, i1 %b) {\n  %x = zext i1 %a to i8\n  %y = zext i1 %b to i8\n  %s = add i8 %x, %y\n  %r = lshr i8 %s, 1\n  ret i8 %r\n}',
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES) + sorted(REFINE_ONLY))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES.get(name) or REFINE_ONLY[name], max_inputs=MAX_INPUTS)
    assert str(before) != str(after), "the fold did not fire"
