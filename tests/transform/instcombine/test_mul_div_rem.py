"""InstCombine's mul/div/rem folds (InstCombineMulDivRem.cpp): each rule's input gives what
opt-19 gives, and the result refines the input on every i4 argument (division by zero
and overflow are undefined behaviour in the original, so anything goes there)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

RULES: dict[str, str] = {
    # X * 2^C --> X << C
    "mul_pow2": """
define i4 @f(i4 %x) {
  %r = mul i4 %x, 4
  ret i4 %r
}""",
    # X * -1 --> 0 - X
    "mul_minus_one": """
define i4 @f(i4 %x) {
  %r = mul nsw i4 %x, -1
  ret i4 %r
}""",
    # (X << C2) * C1 --> X * (C1 << C2)
    "mul_of_shl_const": """
define i4 @f(i4 %x) {
  %s = shl i4 %x, 1
  %r = mul i4 %s, 3
  ret i4 %r
}""",
    # (X + C1) * C --> X * C + C1 * C
    "mul_of_add_const": """
define i4 @f(i4 %x) {
  %a = add i4 %x, 3
  %r = mul i4 %a, 3
  ret i4 %r
}""",
    # -X * -Y --> X * Y
    "mul_neg_neg": """
define i4 @f(i4 %x, i4 %y) {
  %a = sub i4 0, %x
  %b = sub i4 0, %y
  %r = mul i4 %a, %b
  ret i4 %r
}""",
    # X * zext(bool) --> select bool, X, 0
    "mul_zext_bool": """
define i4 @f(i4 %x, i1 %c) {
  %z = zext i1 %c to i4
  %r = mul i4 %z, %x
  ret i4 %r
}""",
    # (X / Y) * Y --> X - X % Y
    "mul_of_div": """
define i4 @f(i4 %x, i4 %y) {
  %d = udiv i4 %x, %y
  %r = mul i4 %d, %y
  ret i4 %r
}""",
    # X * (1 << Z) --> X << Z
    "mul_shl_one": """
define i4 @f(i4 %x, i4 %z) {
  %s = shl i4 1, %z
  %r = mul i4 %x, %s
  ret i4 %r
}""",
    # (X udiv C1) udiv C2 --> X udiv (C1 * C2)
    "udiv_of_udiv": """
define i8 @f(i8 %x) {
  %a = udiv i8 %x, 3
  %r = udiv i8 %a, 5
  ret i8 %r
}""",
    # X udiv 2^C --> X lshr C
    "udiv_pow2": """
define i4 @f(i4 %x) {
  %r = udiv i4 %x, 4
  ret i4 %r
}""",
    # X udiv (1 << Y) --> X lshr Y
    "udiv_shl_one": """
define i4 @f(i4 %x, i4 %y) {
  %s = shl i4 1, %y
  %r = udiv i4 %x, %s
  ret i4 %r
}""",
    # X sdiv -1 --> 0 -nsw X
    "sdiv_minus_one": """
define i4 @f(i4 %x) {
  %r = sdiv i4 %x, -1
  ret i4 %r
}""",
    # X sdiv exact 4 --> X ashr exact 2
    "sdiv_exact_pow2": """
define i4 @f(i4 %x) {
  %r = sdiv exact i4 %x, 4
  ret i4 %r
}""",
    # X sdiv INT_MIN --> zext (X == INT_MIN)
    "sdiv_signmask": """
define i4 @f(i4 %x) {
  %r = sdiv i4 %x, -8
  ret i4 %r
}""",
    # non-negative operands: sdiv --> udiv
    "sdiv_to_udiv": """
define i4 @f(i4 %x, i4 %y) {
  %a = lshr i4 %x, 1
  %b = lshr i4 %y, 1
  %r = sdiv i4 %a, %b
  ret i4 %r
}""",
    # 1 udiv X --> zext (X == 1)
    "udiv_one_by": """
define i4 @f(i4 %x) {
  %r = udiv i4 1, %x
  ret i4 %r
}""",
    # X urem 2^C --> X & (2^C - 1)
    "urem_pow2": """
define i4 @f(i4 %x) {
  %r = urem i4 %x, 4
  ret i4 %r
}""",
    # X srem -C --> X srem C
    "srem_negative_const": """
define i4 @f(i4 %x) {
  %r = srem i4 %x, -3
  ret i4 %r
}""",
    # non-negative operands: srem --> urem
    "srem_to_urem": """
define i4 @f(i4 %x, i4 %y) {
  %a = lshr i4 %x, 1
  %b = lshr i4 %y, 1
  %r = srem i4 %a, %b
  ret i4 %r
}""",
    # X urem C (negative) --> select (X u< C), X, X - C
    "urem_negative": """
define i4 @f(i4 %x) {
  %r = urem i4 %x, -3
  ret i4 %r
}""",
    # (X * Y) udiv (X * Z) with nuw --> Y udiv Z
    "udiv_common_factor": """
define i4 @f(i4 %x, i4 %y, i4 %z) {
  %a = mul nuw i4 %x, %y
  %b = mul nuw i4 %x, %z
  %r = udiv i4 %a, %b
  ret i4 %r
}""",
}

# Rules whose final form also depends on other families' folds (icmp canonical
# predicates, and-operand order): checked for refinement only.
REFINE_ONLY: dict[str, str] = {
    # X udiv C (negative) --> zext (X uge C)
    "udiv_negative": """
define i4 @f(i4 %x) {
  %r = udiv i4 %x, -3
  ret i4 %r
}""",
    # X urem (1 << Y) --> X & ((1 << Y) - 1)
    "urem_shl_one": """
define i4 @f(i4 %x, i4 %y) {
  %s = shl i4 1, %y
  %r = urem i4 %x, %s
  ret i4 %r
}""",
}

FP_RULES: dict[str, str] = {
    # X * -1.0 --> fneg X
    "fmul_minus_one": """
define float @f(float %x) {
  %r = fmul float %x, -1.0
  ret float %r
}""",
    # -X * -Y --> X * Y
    "fmul_neg_neg": """
define float @f(float %x, float %y) {
  %a = fneg float %x
  %b = fneg float %y
  %r = fmul float %a, %b
  ret float %r
}""",
    # X / 4.0 --> X * 0.25 (exact inverse)
    "fdiv_exact_inverse": """
define double @f(double %x) {
  %r = fdiv double %x, 4.0
  ret double %r
}""",
    # phi [0.0, entry], [phi * x, loop] stays 0.0 (nnan nsz)
    "fmul_zero_recurrence": """
define double @f(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %prod = phi double [ 0.0, %entry ], [ %mul, %loop ]
  %q = getelementptr inbounds double, ptr %p, i64 %i
  %x = load double, ptr %q, align 8
  %mul = fmul nnan nsz double %prod, %x
  %i.next = add nuw i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %mul
}""",
    # -X / C --> X / -C
    "fdiv_neg_by_const": """
define float @f(float %x) {
  %n = fneg float %x
  %r = fdiv float %n, 3.0
  ret float %r
}""",
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES) + sorted(REFINE_ONLY))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES.get(name) or REFINE_ONLY[name])
    assert str(before) != str(after), "the fold did not fire"


@pytest.mark.parametrize("name", sorted(FP_RULES))
def test_fp_rule_as_opt19(name: str) -> None:
    out = assert_same_as_opt(FP_RULES[name], "instcombine")
    assert out.strip() != FP_RULES[name].strip()
