"""InstCombine's vector and aggregate folds (InstCombineVectorOps.cpp): each rule's input gives
what opt-19 gives, and the integer rules' results refine their inputs lane by lane."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

MAX_INPUTS = 1 << 10
"""Exhaustive up to 10 argument bits, a seeded sample of that many inputs beyond."""

RULES: dict[str, str] = {
    # extractelement (binop X, C), I -> binop (extractelement X, I), C[I]
    "ext_binop": "define i8 @f(<2 x i4> %x) {\n  %a = add <2 x i4> %x, <i4 1, i4 2>\n  %r = extractelement <2 x i4> %a, i32 1\n  ret i8 0\n}",
    # extractelement (shufflevector X, Y, M), I -> extractelement Y, M[I] - n
    "ext_shuf": "define i4 @f(<2 x i4> %x, <2 x i4> %y) {\n  %s = shufflevector <2 x i4> %x, <2 x i4> %y, <2 x i32> <i32 3, i32 0>\n  %r = extractelement <2 x i4> %s, i64 0\n  ret i4 %r\n}",
    # extractelement (insertelement X, Y, C1), C2 -> extractelement X, C2 (C1 != C2)
    "ext_ins_other_lane": "define i4 @f(<2 x i4> %x, i4 %y) {\n  %i = insertelement <2 x i4> %x, i4 %y, i64 1\n  %r = extractelement <2 x i4> %i, i64 0\n  ret i4 %r\n}",
    # extractelement (icmp P X, C), I -> icmp P (extractelement X, I), C
    "ext_cmp": "define i1 @f(<2 x i4> %x) {\n  %c = icmp ult <2 x i4> %x, <i4 5, i4 5>\n  %r = extractelement <2 x i1> %c, i64 1\n  ret i1 %r\n}",
    # extractelement (zext X), I -> zext (extractelement X, I)
    "ext_cast": "define i8 @f(<2 x i4> %x) {\n  %c = zext <2 x i4> %x to <2 x i8>\n  %r = extractelement <2 x i8> %c, i64 1\n  ret i8 %r\n}",
    # extractelement with an i32 index -> i64 index
    "ext_index_i64": "define i4 @f(<2 x i4> %x) {\n  %r = extractelement <2 x i4> %x, i32 1\n  ret i4 %r\n}",
    # inselt (inselt V, A, 1), B, 0 -> inselt (inselt V, B, 0), A, 1
    "ins_reorder": "define <2 x i4> @f(<2 x i4> %v, i4 %a, i4 %b) {\n  %i = insertelement <2 x i4> %v, i4 %a, i64 1\n  %j = insertelement <2 x i4> %i, i4 %b, i64 0\n  ret <2 x i4> %j\n}",
    # shuffle X, X, M -> shuffle X, poison, M'
    "shuf_same_ops": "define <2 x i4> @f(<2 x i4> %x) {\n  %s = shufflevector <2 x i4> %x, <2 x i4> %x, <2 x i32> <i32 3, i32 0>\n  ret <2 x i4> %s\n}",
    # shuffle (shuffle X, poison, M1), poison, M -> splat
    "shuf_of_shuf_splat": "define <2 x i4> @f(<2 x i4> %x) {\n  %a = shufflevector <2 x i4> %x, <2 x i4> poison, <2 x i32> <i32 1, i32 0>\n  %s = shufflevector <2 x i4> %a, <2 x i4> poison, <2 x i32> <i32 1, i32 1>\n  ret <2 x i4> %s\n}",
    # shuffle (add X, C), poison, M -> add (shuffle X, M), C'
    "shuf_evaluate_reordered": "define <2 x i4> @f(i4 %s) {\n  %i = insertelement <2 x i4> <i4 3, i4 5>, i4 %s, i64 0\n  %a = add <2 x i4> %i, <i4 1, i4 2>\n  %r = shufflevector <2 x i4> %a, <2 x i4> poison, <2 x i32> <i32 1, i32 0>\n  ret <2 x i4> %r\n}",
    # shuffle (insertelement X, S, 0), Y, <0, 3> -> insertelement Y, S, 0
    "shuf_with_insert": "define <2 x i4> @f(<2 x i4> %x, <2 x i4> %y, i4 %s) {\n  %i = insertelement <2 x i4> %x, i4 %s, i64 0\n  %r = shufflevector <2 x i4> %i, <2 x i4> %y, <2 x i32> <i32 0, i32 3>\n  ret <2 x i4> %r\n}",

    # inselt (inselt poison, K, 0), K, 1 -> shuf (inselt poison, K, 0), poison, zeroinitializer
    "ins_splat_sequence": "define <2 x i4> @f(i4 %k) {\n  %a = insertelement <2 x i4> poison, i4 %k, i64 0\n  %b = insertelement <2 x i4> %a, i4 %k, i64 1\n  ret <2 x i4> %b\n}",
    # inselt (inselt poison, (extelt X, 1), 0), (extelt Y, 0), 1 -> shuf X, Y, <1, 2>
    "ins_ext_chain_to_shuffle": "define <2 x i4> @f(<2 x i4> %x, <2 x i4> %y) {\n  %e0 = extractelement <2 x i4> %x, i64 1\n  %e1 = extractelement <2 x i4> %y, i64 0\n  %a = insertelement <2 x i4> poison, i4 %e0, i64 0\n  %b = insertelement <2 x i4> %a, i4 %e1, i64 1\n  ret <2 x i4> %b\n}",
    # inselt (zext X), (zext Y), I -> zext (inselt X, Y, I)
    "ins_narrow_ext": "define <2 x i8> @f(<2 x i4> %x, i4 %y) {\n  %a = zext <2 x i4> %x to <2 x i8>\n  %b = zext i4 %y to i8\n  %r = insertelement <2 x i8> %a, i8 %b, i64 1\n  ret <2 x i8> %r\n}",
    # shuf (add X, C0), (add X, C1), select-mask -> add X, C'
    "shuf_select_of_binops": "define <2 x i4> @f(<2 x i4> %x) {\n  %a = add <2 x i4> %x, <i4 1, i4 2>\n  %b = add <2 x i4> %x, <i4 3, i4 4>\n  %r = shufflevector <2 x i4> %a, <2 x i4> %b, <2 x i32> <i32 0, i32 3>\n  ret <2 x i4> %r\n}",
    # shuf X, (mul X, C), select-mask -> mul X, C' (identity constant in X's lanes)
    "shuf_select_1_binop": "define <2 x i4> @f(<2 x i4> %x) {\n  %b = mul <2 x i4> %x, <i4 3, i4 5>\n  %r = shufflevector <2 x i4> %x, <2 x i4> %b, <2 x i32> <i32 0, i32 3>\n  ret <2 x i4> %r\n}",
    # shuf Y, X, <2, 1> (select choosing operand 1 first) -> shuf X, Y, <0, 3>
    "shuf_select_commute": "define <2 x i4> @f(<2 x i4> %x, <2 x i4> %y) {\n  %r = shufflevector <2 x i4> %y, <2 x i4> %x, <2 x i32> <i32 2, i32 1>\n  ret <2 x i4> %r\n}",
}
RULES["ext_binop"] = RULES["ext_binop"].replace("define i8", "define i4").replace("ret i8 0", "ret i4 %r")

OPT_ONLY: dict[str, str] = {
    # insertvalue (insertvalue poison, (extractvalue A, 0), 0), (extractvalue A, 1), 1 -> A
    "insv_reconstruction": "define {i8, i8} @f({i8, i8} %a) {\n  %e0 = extractvalue {i8, i8} %a, 0\n  %e1 = extractvalue {i8, i8} %a, 1\n  %i0 = insertvalue {i8, i8} poison, i8 %e0, 0\n  %i1 = insertvalue {i8, i8} %i0, i8 %e1, 1\n  ret {i8, i8} %i1\n}",
    # extelt (bitcast i8 X to <2 x i4>), 0 -> trunc X (little endian)
    "ext_bitcast_int": "define i4 @f(i8 %x) {\n  %b = bitcast i8 %x to <2 x i4>\n  %r = extractelement <2 x i4> %b, i64 0\n  ret i4 %r\n}",
    # shuffle (bitcast X), poison, <low lanes> -> trunc X
    "shuf_trunc": "define <2 x i2> @f(<2 x i4> %x) {\n  %b = bitcast <2 x i4> %x to <4 x i2>\n  %s = shufflevector <4 x i2> %b, <4 x i2> poison, <2 x i32> <i32 0, i32 2>\n  ret <2 x i2> %s\n}",
    # shuffle (fneg X), poison, M -> fneg (shuffle X, M)
    "shuf_fneg": "define <2 x float> @f(<2 x float> %x) {\n  %n = fneg <2 x float> %x\n  %r = shufflevector <2 x float> %n, <2 x float> poison, <2 x i32> <i32 1, i32 0>\n  ret <2 x float> %r\n}",
    # shuffle (sitofp X), (sitofp Y), M -> sitofp (shuffle X, Y, M)
    "shuf_cast": "define <2 x float> @f(<2 x i32> %x, <2 x i32> %y) {\n  %a = sitofp <2 x i32> %x to <2 x float>\n  %b = sitofp <2 x i32> %y to <2 x float>\n  %r = shufflevector <2 x float> %a, <2 x float> %b, <2 x i32> <i32 0, i32 3>\n  ret <2 x float> %r\n}",
    # insertvalue chain overwriting the same index: the first insert is dead
    "insv_chain": "define {i8, i8} @f({i8, i8} %s, i8 %a, i8 %b) {\n  %i = insertvalue {i8, i8} %s, i8 %a, 0\n  %j = insertvalue {i8, i8} %i, i8 %b, 1\n  %k = insertvalue {i8, i8} %j, i8 %b, 0\n  ret {i8, i8} %k\n}",
    # extractelement (fneg X), I -> fneg (extractelement X, I)
    "ext_fneg": "define float @f(<2 x float> %x) {\n  %n = fneg nnan <2 x float> %x\n  %r = extractelement <2 x float> %n, i64 1\n  ret float %r\n}",
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES[name], max_inputs=MAX_INPUTS)
    assert str(before) != str(after), "the fold did not fire"


@pytest.mark.parametrize("name", sorted(OPT_ONLY))
def test_fp_and_aggregate_rule_as_opt19(name: str) -> None:
    out = assert_same_as_opt(OPT_ONLY[name], "instcombine")
    assert out.strip() != OPT_ONLY[name].strip()


def _stress_module(seed: int, size: int) -> str:
    import subprocess

    from oracles import require_tools

    require_tools("llvm-stress-19", "opt-19")
    r = subprocess.run(["llvm-stress-19", "-seed=%d" % seed, "-size=%d" % size], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("seed", [3, 101, 117])
def test_llvm_stress_as_opt19(seed: int) -> None:
    """llvm-stress modules (dense in extractelement / insertelement / shufflevector) come out as opt-19's."""
    assert_same_as_opt(_stress_module(seed, 300), "instcombine")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200, 240))
def test_llvm_stress_sweep_as_opt19(seed: int) -> None:
    assert_same_as_opt(_stress_module(seed, 400), "instcombine")
