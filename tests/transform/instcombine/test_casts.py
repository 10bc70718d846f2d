"""InstCombine's cast folds (InstCombineCasts.cpp): each rule's input gives what opt-19 gives;
the integer rules' results refine their inputs on every argument (the judge knows no
floating point or memory, so those rules are checked against opt-19 only)."""

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
    # zext (zext X) -> zext X
    'zext_zext': 'define i32 @f(i8 %x) {\n  %a = zext i8 %x to i16\n  %r = zext i16 %a to i32\n  ret i32 %r\n}',
    # sext (sext X) -> sext X
    'sext_sext': 'define i32 @f(i8 %x) {\n  %a = sext i8 %x to i16\n  %r = sext i16 %a to i32\n  ret i32 %r\n}',
    # trunc (trunc X) -> trunc X
    'trunc_trunc': 'define i8 @f(i32 %x) {\n  %a = trunc i32 %x to i16\n  %r = trunc i16 %a to i8\n  ret i8 %r\n}',
    # trunc (zext X) -> X
    'trunc_zext_same': 'define i8 @f(i8 %x) {\n  %a = zext i8 %x to i32\n  %r = trunc i32 %a to i8\n  ret i8 %r\n}',
    # trunc (sext X) to a width between -> sext X
    'trunc_sext_between': 'define i16 @f(i8 %x) {\n  %a = sext i8 %x to i32\n  %r = trunc i32 %a to i16\n  ret i16 %r\n}',
    # zext (trunc X) to the same type -> X & mask
    'zext_trunc_same': 'define i32 @f(i32 %x) {\n  %a = trunc i32 %x to i8\n  %r = zext i8 %a to i32\n  ret i32 %r\n}',
    # sext (trunc X) to the same type -> ashr (shl X, C), C
    'sext_trunc_same': 'define i32 @f(i32 %x) {\n  %a = trunc i32 %x to i8\n  %r = sext i8 %a to i32\n  ret i32 %r\n}',
    # sext of a known non-negative -> zext nneg
    'sext_nonneg': 'define i32 @f(i8 %x) {\n  %a = lshr i8 %x, 1\n  %r = sext i8 %a to i32\n  ret i32 %r\n}',
    # zext nneg inferred
    'zext_nneg_inferred': 'define i32 @f(i8 %x) {\n  %a = and i8 %x, 127\n  %r = zext i8 %a to i32\n  ret i32 %r\n}',
    # trunc (add (zext X), (zext Y)) -> add X, Y
    'trunc_add_zexts': 'define i8 @f(i8 %x, i8 %y) {\n  %a = zext i8 %x to i32\n  %b = zext i8 %y to i32\n  %s = add i32 %a, %b\n  %r = trunc i32 %s to i8\n  ret i8 %r\n}',
    # trunc (mul X, C) -> mul (trunc X), C'
    'trunc_mul_const': 'define i8 @f(i32 %x) {\n  %m = mul i32 %x, 300\n  %r = trunc i32 %m to i8\n  ret i8 %r\n}',
    # zext (and X, C) evaluated in the wide type
    'zext_and_const': 'define i32 @f(i16 %x, i16 %y) {\n  %a = xor i16 %x, %y\n  %b = and i16 %a, 255\n  %r = zext i16 %b to i32\n  ret i32 %r\n}',
    # trunc nuw/nsw inference
    'trunc_flags_inferred': 'define i8 @f(i32 %x) {\n  %a = lshr i32 %x, 25\n  %r = trunc i32 %a to i8\n  ret i8 %r\n}',
    # trunc (lshr (sext A), C) -> ashr A, C
    'trunc_lshr_sext': 'define i8 @f(i8 %a) {\n  %s = sext i8 %a to i32\n  %l = lshr i32 %s, 3\n  %r = trunc i32 %l to i8\n  ret i8 %r\n}',
    # trunc (lshr X, C) to i1 -> icmp ne (and X, 1<<C), 0
    'trunc_lshr_to_bool': 'define i1 @f(i8 %x) {\n  %l = lshr i8 %x, 3\n  %r = trunc i8 %l to i1\n  ret i1 %r\n}',
    # trunc (shl X, C) -> shl (trunc X), C
    'trunc_shl': 'define i16 @f(i32 %x) {\n  %s = shl i32 %x, 3\n  %r = trunc i32 %s to i16\n  ret i16 %r\n}',
    # zext (icmp slt X, 0) -> lshr X, N-1
    'zext_icmp_slt0': 'define i32 @f(i32 %x) {\n  %c = icmp slt i32 %x, 0\n  %r = zext i1 %c to i32\n  ret i32 %r\n}',
    # sext (icmp slt X, 0) -> ashr X, N-1
    'sext_icmp_slt0': 'define i32 @f(i32 %x) {\n  %c = icmp slt i32 %x, 0\n  %r = sext i1 %c to i32\n  ret i32 %r\n}',
    # zext (X & 2 != 0) -> (X >> 1) & 1
    'zext_icmp_bit': 'define i32 @f(i32 %x) {\n  %a = and i32 %x, 2\n  %c = icmp ne i32 %a, 0\n  %r = zext i1 %c to i32\n  ret i32 %r\n}',
    # sext ((X & 4) == 0) -> (X >> 2) - 1 style
    'sext_icmp_bit': 'define i32 @f(i32 %x) {\n  %a = and i32 %x, 4\n  %c = icmp eq i32 %a, 0\n  %r = sext i1 %c to i32\n  ret i32 %r\n}',
    # cast of a select with constant arms folds into the arms
    'zext_select_consts': 'define i32 @f(i1 %c) {\n  %s = select i1 %c, i8 3, i8 9\n  %r = zext i8 %s to i32\n  ret i32 %r\n}',
    # zext vector of trunc -> and
    'vec_zext_trunc': 'define <2 x i32> @f(<2 x i32> %x) {\n  %a = trunc <2 x i32> %x to <2 x i8>\n  %r = zext <2 x i8> %a to <2 x i32>\n  ret <2 x i32> %r\n}',
}

# The final form opt-19 prints also depends on the and/or/xor family (xor of a trunc is
# narrowed first there): refinement only.
REFINE_ONLY: dict[str, str] = {
    # sext (xor (trunc X), C) evaluated in the wide type with shl/ashr
    'sext_evaluated': 'target datalayout = "n8:16:32:64"\ndefine i32 @f(i16 %x) {\n  %t = trunc i16 %x to i8\n  %a = xor i8 %t, 5\n  %r = sext i8 %a to i32\n  ret i32 %r\n}',
}

OPT_ONLY: dict[str, str] = {
    # sitofp of non-negative -> uitofp nneg
    'sitofp_nonneg': 'define float @f(i8 %x) {\n  %a = lshr i8 %x, 1\n  %r = sitofp i8 %a to float\n  ret float %r\n}',
    # uitofp nneg inferred
    'uitofp_nneg': 'define float @f(i8 %x) {\n  %a = and i8 %x, 15\n  %r = uitofp i8 %a to float\n  ret float %r\n}',
    # fptosi (sitofp X) -> X
    'fptosi_sitofp': 'define i8 @f(i8 %x) {\n  %a = sitofp i8 %x to float\n  %r = fptosi float %a to i8\n  ret i8 %r\n}',
    # fptoui (uitofp X) wider -> zext
    'fptoui_uitofp_wider': 'define i32 @f(i8 %x) {\n  %a = uitofp i8 %x to float\n  %r = fptoui float %a to i32\n  ret i32 %r\n}',
    # fpext (sitofp X) exact -> sitofp X to double
    'fpext_sitofp': 'define double @f(i16 %x) {\n  %a = sitofp i16 %x to float\n  %r = fpext float %a to double\n  ret double %r\n}',
    # fptrunc (fadd (fpext X), (fpext Y)) -> fadd X, Y
    'fptrunc_fadd_fpext': 'define float @f(float %x, float %y) {\n  %a = fpext float %x to double\n  %b = fpext float %y to double\n  %s = fadd double %a, %b\n  %r = fptrunc double %s to float\n  ret float %r\n}',
    # fptrunc (fneg X) -> fneg (fptrunc X)
    'fptrunc_fneg': 'define float @f(double %x) {\n  %n = fneg double %x\n  %r = fptrunc double %n to float\n  ret float %r\n}',
    # fptrunc (fpext X) -> X
    'fptrunc_fpext': 'define float @f(float %x) {\n  %a = fpext float %x to double\n  %r = fptrunc double %a to float\n  ret float %r\n}',
    # inttoptr of a non pointer-sized integer -> zext then inttoptr
    'inttoptr_width': 'define ptr @f(i32 %x) {\n  %r = inttoptr i32 %x to ptr\n  ret ptr %r\n}',
    # ptrtoint to a non pointer-sized integer -> ptrtoint then trunc
    'ptrtoint_width': 'define i32 @f(ptr %p) {\n  %r = ptrtoint ptr %p to i32\n  ret i32 %r\n}',
    # ptrtoint (inttoptr X) -> X
    'ptrtoint_inttoptr': 'define i64 @f(i64 %x) {\n  %p = inttoptr i64 %x to ptr\n  %r = ptrtoint ptr %p to i64\n  ret i64 %r\n}',
    # bitcast (bitcast X) -> bitcast X
    'bitcast_bitcast': 'define <2 x i32> @f(i64 %x) {\n  %a = bitcast i64 %x to double\n  %r = bitcast double %a to <2 x i32>\n  ret <2 x i32> %r\n}',
    # bitcast (extractelement V, I) -> extractelement (bitcast V), I
    'bitcast_extractelt': 'define i32 @f(<2 x float> %v, i32 %i) {\n  %e = extractelement <2 x float> %v, i32 %i\n  %r = bitcast float %e to i32\n  ret i32 %r\n}',
    # bitcast (xor (bitcast X), C) on vectors -> xor X, C'
    'bitcast_logic_vec': 'define <4 x i16> @f(<4 x i16> %x) {\n  %a = bitcast <4 x i16> %x to <2 x i32>\n  %b = xor <2 x i32> %a, <i32 65537, i32 65537>\n  %r = bitcast <2 x i32> %b to <4 x i16>\n  ret <4 x i16> %r\n}',
    # addrspacecast (addrspacecast X) back -> X
    'addrspacecast_pair': 'define ptr @f(ptr %p) {\n  %a = addrspacecast ptr %p to ptr addrspace(1)\n  %r = addrspacecast ptr addrspace(1) %a to ptr\n  ret ptr %r\n}',
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES) + sorted(REFINE_ONLY))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES.get(name) or REFINE_ONLY[name], max_inputs=MAX_INPUTS)
    assert str(before) != str(after), "the fold did not fire"


@pytest.mark.parametrize("name", sorted(OPT_ONLY))
def test_fp_and_pointer_rule_as_opt19(name: str) -> None:
    out = assert_same_as_opt(OPT_ONLY[name], "instcombine")
    assert out.strip() != OPT_ONLY[name].strip()
