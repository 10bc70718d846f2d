"""InstCombine's and/or/xor folds (InstCombineAndOrXor.cpp): each rule's input gives
what opt-19 gives, and the result refines the input on every i4 argument."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

RULES: dict[str, str] = {
    # (X ^ C1) & C2 --> (X & C2) ^ (C1 & C2)
    "and_of_xor_const": """
define i4 @f(i4 %x) {
  %a = xor i4 %x, 5
  %b = and i4 %a, 6
  ret i4 %b
}""",
    # ~A & ~B --> ~(A | B)  (De Morgan, named .demorgan)
    "demorgan_and": """
define i4 @f(i4 %x, i4 %y) {
  %nx = xor i4 %x, -1
  %ny = xor i4 %y, -1
  %r = and i4 %nx, %ny
  ret i4 %r
}""",
    # ~A | ~B --> ~(A & B)
    "demorgan_or": """
define i4 @f(i4 %x, i4 %y) {
  %nx = xor i4 %x, -1
  %ny = xor i4 %y, -1
  %r = or i4 %nx, %ny
  ret i4 %r
}""",
    # (icmp slt x, 0) | (icmp sgt x, 5) --> icmp ugt x, 5
    "or_range_check": """
define i1 @f(i4 %x) {
  %a = icmp slt i4 %x, 0
  %b = icmp sgt i4 %x, 5
  %r = or i1 %a, %b
  ret i1 %r
}""",
    # (X | Y) ^ Y --> X & ~Y
    "xor_of_or": """
define i4 @f(i4 %x, i4 %y) {
  %o = or i4 %x, %y
  %r = xor i4 %o, %y
  ret i4 %r
}""",
    # (x == 0) & (y == 0) --> (x | y) == 0
    "and_of_eq_zero": """
define i1 @f(i4 %x, i4 %y) {
  %a = icmp eq i4 %x, 0
  %b = icmp eq i4 %y, 0
  %r = and i1 %a, %b
  ret i1 %r
}""",
    # ~(X + C) --> ~C - X
    "not_of_add": """
define i4 @f(i4 %x) {
  %a = add i4 %x, 3
  %n = xor i4 %a, -1
  ret i4 %n
}""",
    # (icmp ult a, b) | (icmp eq a, b) --> icmp ule a, b
    "or_of_icmp_codes": """
define i1 @f(i4 %a, i4 %b) {
  %x = icmp ult i4 %a, %b
  %y = icmp eq i4 %a, %b
  %r = or i1 %x, %y
  ret i1 %r
}""",
    # (icmp sgt a, b) ^ (icmp slt a, b) --> icmp ne a, b
    "xor_of_icmp_codes": """
define i1 @f(i4 %a, i4 %b) {
  %x = icmp sgt i4 %a, %b
  %y = icmp slt i4 %a, %b
  %r = xor i1 %x, %y
  ret i1 %r
}""",
    # (A & B) | (A ^ B) --> A | B
    "or_and_xor": """
define i4 @f(i4 %a, i4 %b) {
  %x = and i4 %a, %b
  %y = xor i4 %a, %b
  %r = or i4 %x, %y
  ret i4 %r
}""",
    # masked merge with an inverted mask: ((x ^ y) & ~m) ^ y --> ((x ^ y) & m) ^ x
    "masked_merge_not_mask": """
define i4 @f(i4 %x, i4 %y, i4 %m) {
  %nm = xor i4 %m, -1
  %d = xor i4 %x, %y
  %a = and i4 %d, %nm
  %r = xor i4 %a, %y
  ret i4 %r
}""",
    # masked merge with a constant mask: ((x ^ y) & 3) ^ y --> (x & 3) | (y & -4)
    "masked_merge_const": """
define i4 @f(i4 %x, i4 %y) {
  %d = xor i4 %x, %y
  %a = and i4 %d, 3
  %r = xor i4 %a, %y
  ret i4 %r
}""",
    # and(sext(A), B) --> A ? B : 0
    "and_sext_bool": """
define i4 @f(i1 %c, i4 %b) {
  %s = sext i1 %c to i4
  %r = and i4 %s, %b
  ret i4 %r
}""",
    # (X ashr 3) & Y --> (X < 0) ? Y : 0
    "and_ashr_signbit": """
define i4 @f(i4 %x, i4 %y) {
  %s = ashr i4 %x, 3
  %r = and i4 %s, %y
  ret i4 %r
}""",
    # (icmp eq x, 1) | (icmp eq x, 2) --> range compare
    "or_of_eq_consts_range": """
define i1 @f(i4 %x) {
  %a = icmp eq i4 %x, 1
  %b = icmp eq i4 %x, 2
  %r = or i1 %a, %b
  ret i1 %r
}""",
    # ~(icmp slt a, b) --> icmp sge a, b
    "not_of_icmp": """
define i1 @f(i4 %a, i4 %b) {
  %c = icmp slt i4 %a, %b
  %r = xor i1 %c, true
  ret i1 %r
}""",
    # (X | C) | V --> (X | V) | C
    "or_const_reassoc": """
define i4 @f(i4 %x, i4 %v) {
  %o = or i4 %x, 4
  %r = or i4 %o, %v
  ret i4 %r
}""",
    # xor of sign-bit tests: (x < 0) ^ (y < 0) --> (x ^ y) < 0
    "xor_of_sign_tests": """
define i1 @f(i4 %x, i4 %y) {
  %a = icmp slt i4 %x, 0
  %b = icmp slt i4 %y, 0
  %r = xor i1 %a, %b
  ret i1 %r
}""",
    # (A ^ B) ^ (A | C) --> (~A & C) ^ B
    "xor_xor_or": """
define i4 @f(i4 %a, i4 %b, i4 %c) {
  %x = xor i4 %a, %b
  %o = or i4 %a, %c
  %r = xor i4 %x, %o
  ret i4 %r
}""",
    # (X + 4) & 4 --> (X & 4) ^ 4
    "and_of_add_one_bit": """
define i4 @f(i4 %x) {
  %a = add i4 %x, 4
  %r = and i4 %a, 4
  ret i4 %r
}""",
    # or (shl X, 3), (lshr X, 5) on i8 --> fshl(X, X, 3)  (matchFunnelShift)
    "rotate_to_fshl": """
define i8 @f(i8 %x) {
  %l = shl i8 %x, 3
  %r = lshr i8 %x, 5
  %o = or i8 %l, %r
  ret i8 %o
}""",
    # or (shl X, 8), (lshr X, 8) on i16 --> bswap(X)  (recognizeBSwapOrBitReverseIdiom)
    "bswap_i16": """
define i16 @f(i16 %x) {
  %l = shl i16 %x, 8
  %r = lshr i16 %x, 8
  %o = or i16 %l, %r
  ret i16 %o
}""",
    # (X & 4) != 0 | (X & 8) != 0 --> (X & 12) != 0  (foldLogOpOfMaskedICmps)
    "masked_icmps_or": """
define i1 @f(i4 %x) {
  %a = and i4 %x, 4
  %b = and i4 %x, -8
  %c = icmp ne i4 %a, 0
  %d = icmp ne i4 %b, 0
  %r = or i1 %c, %d
  ret i1 %r
}""",
    # (X & 1) == 0 & (X & 2) == 0 --> (X & 3) == 0
    "masked_icmps_and": """
define i1 @f(i4 %x) {
  %a = and i4 %x, 1
  %b = and i4 %x, 2
  %c = icmp eq i4 %a, 0
  %d = icmp eq i4 %b, 0
  %r = and i1 %c, %d
  ret i1 %r
}""",
    # (X u< 8) & (Y u< 8) --> (X | Y) u< 8
    "both_ult_pow2": """
define i1 @f(i4 %x, i4 %y) {
  %a = icmp ult i4 %x, 4
  %b = icmp ult i4 %y, 4
  %r = and i1 %a, %b
  ret i1 %r
}""",
    # xor (add X, (ashr X, 3)), (ashr X, 3) --> abs as select  (canonicalizeAbs)
    "xor_abs_idiom": """
define i4 @f(i4 %x) {
  %s = ashr i4 %x, 3
  %a = add i4 %x, %s
  %r = xor i4 %a, %s
  ret i4 %r
}""",
    # ~(~X s>> Y) --> X s>> Y
    "not_ashr_not": """
define i4 @f(i4 %x, i4 %y) {
  %n = xor i4 %x, -1
  %s = ashr i4 %n, %y
  %r = xor i4 %s, -1
  ret i4 %r
}""",
    # (A | B) ^ (A | C) --> (B ^ C) & ~A
    "xor_of_ors": """
define i4 @f(i4 %a, i4 %b, i4 %c) {
  %x = or i4 %a, %b
  %y = or i4 %a, %c
  %r = xor i4 %x, %y
  ret i4 %r
}""",
}


FP_RULES: dict[str, str] = {
    # (fcmp olt x, y) | (fcmp oeq x, y) --> fcmp ole x, y  (fcmp codes)
    "or_of_fcmp_codes": """
define i1 @f(float %x, float %y) {
  %a = fcmp olt float %x, %y
  %b = fcmp oeq float %x, %y
  %r = or i1 %a, %b
  ret i1 %r
}""",
    # (fcmp ord x, 0) & (fcmp ord y, 0) --> fcmp ord x, y
    "and_of_ord": """
define i1 @f(float %x, float %y) {
  %a = fcmp ord float %x, 0.0
  %b = fcmp ord float %y, 0.0
  %r = and i1 %a, %b
  ret i1 %r
}""",
    # (fcmp oeq x, 0) | (fcmp ueq fabs(x), inf) --> is.fpclass(x, zero|inf|nan)
    "or_of_class_tests": """
define i1 @f(half %x) {
  %fabs = call half @llvm.fabs.f16(half %x)
  %cmpinf = fcmp ueq half %fabs, 0xH7C00
  %cmpzero = fcmp oeq half %x, 0xH0000
  %r = or i1 %cmpzero, %cmpinf
  ret i1 %r
}
declare half @llvm.fabs.f16(half)""",
    # (fcmp ord x, 0) & ((fcmp ord y, 0) & z) --> (fcmp ord x, y) & z  (reassociateFCmps)
    "reassociate_fcmps": """
define i1 @f(float %x, float %y, i1 %z) {
  %a = fcmp ord float %x, 0.0
  %b = fcmp ord float %y, 0.0
  %i = and i1 %b, %z
  %r = and i1 %a, %i
  ret i1 %r
}""",
}


@pytest.mark.parametrize("name", sorted(FP_RULES))
def test_fp_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(FP_RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES[name])
    assert str(before) != str(after), "the fold did not fire"
