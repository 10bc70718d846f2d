"""``reassociate`` against opt-19: our printed module equals ``opt-19 -passes=reassociate
-S`` (ModuleID aside) on small hand-written functions, one group per rule of LLVM's
Reassociate.cpp (ranks and operand order, constant folding, x + -x / x & ~x / duplicate
and/or/xor operands, repeated adds, factoring, the minimal multiply DAG, xor of masked
values, subtract break-up and negation reuse, shifts and disjoint ors, wrap and fast-math
flags, negative FP constants, the pair map and ``-reassociate-use-cse-local``, debug records,
vectors); random expression functions against opt-19; an exhaustive property test (random
i8 trees compute the same before and after, wherever the input is not poison); csmith
programs through ``mem2reg,reassociate``.
"""

from __future__ import annotations

import itertools
import random
import subprocess
from pathlib import Path

import pytest
from loop_oracle import OPT, body, needs_opt
from pass_oracle import check_like_opt, csmith_params
from reassociate_gen import compile_int_function, gen_fp_function, gen_int_function

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.passes.options import OPTIONS
from oracles import require_tools

CASES: dict[str, str] = {
    "rank_order_and_constants": """
define i32 @f(i32 %a, i32 %b, i32 %c) {
  %x = add i32 %c, 5
  %y = add i32 %x, %a
  %z = add i32 %y, 7
  %w = add i32 %z, %b
  ret i32 %w
}
define i32 @g(i32 %a, i32 %b) {
  %x = mul i32 %b, 3
  %y = mul i32 %x, %a
  %z = mul i32 %y, 0
  ret i32 %z
}
define i32 @h(i32 %a, i32 %b) {
  %x = or i32 %b, -1
  %y = or i32 %x, %a
  ret i32 %y
}
""",
    "annihilation": """
define i32 @neg(i32 %a, i32 %b) {
  %n = sub i32 0, %a
  %x = add i32 %n, %b
  %y = add i32 %x, %a
  ret i32 %y
}
define i32 @not(i32 %a, i32 %b, i32 %c) {
  %n = xor i32 %a, -1
  %x = add i32 %n, %b
  %y = add i32 %x, %a
  %z = add i32 %y, %c
  ret i32 %z
}
define i32 @andnot(i32 %a, i32 %b) {
  %n = xor i32 %a, -1
  %x = and i32 %n, %b
  %y = and i32 %x, %a
  ret i32 %y
}
define i32 @ornot(i32 %a, i32 %b) {
  %n = xor i32 %a, -1
  %x = or i32 %b, %n
  %y = or i32 %x, %a
  ret i32 %y
}
define i32 @dups(i32 %a, i32 %b, i32 %c) {
  %x = and i32 %a, %b
  %y = and i32 %x, %a
  %p = xor i32 %b, %c
  %q = xor i32 %p, %b
  %r = xor i32 %q, %y
  ret i32 %r
}
define i32 @xorpair(i32 %a) {
  %p = xor i32 %a, 3
  %q = xor i32 %p, %a
  ret i32 %q
}
""",
    "repeated_add_and_factoring": """
define i32 @rep(i32 %a, i32 %b) {
  %x = add i32 %a, %a
  %y = add i32 %x, %b
  %z = add i32 %y, %a
  ret i32 %z
}
define i32 @factor(i32 %a, i32 %b, i32 %c) {
  %m1 = mul i32 %a, %b
  %m2 = mul i32 %a, %c
  %s = add i32 %m1, %m2
  ret i32 %s
}
define i32 @factor_neg_const(i32 %a, i32 %b) {
  %m1 = mul i32 %a, 4
  %m2 = mul i32 %b, -4
  %s = add i32 %m1, %m2
  ret i32 %s
}
define i32 @factor3(i32 %a, i32 %b, i32 %c, i32 %d) {
  %m1 = mul i32 %a, %b
  %m2 = mul i32 %c, %a
  %m3 = mul i32 %a, %d
  %s = add i32 %m1, %m2
  %t = add i32 %s, %m3
  ret i32 %t
}
""",
    "multiply_dag": """
define i32 @pow(i32 %x, i32 %y) {
  %a = mul i32 %x, %x
  %b = mul i32 %a, %x
  %c = mul i32 %b, %x
  %d = mul i32 %c, %y
  %e = mul i32 %d, %y
  ret i32 %e
}
define i32 @pow2(i32 %x, i32 %y, i32 %z) {
  %a = mul i32 %x, %y
  %b = mul i32 %a, %x
  %c = mul i32 %b, %y
  %d = mul i32 %c, %z
  %e = mul i32 %d, %z
  %f = mul i32 %e, %x
  %g = mul i32 %f, %y
  ret i32 %g
}
""",
    "xor_masks": """
define i32 @xor_or_or(i32 %x) {
  %a = or i32 %x, 123
  %b = or i32 %x, 456
  %c = xor i32 %a, %b
  ret i32 %c
}
define i32 @xor_and_or(i32 %x) {
  %a = and i32 %x, 123
  %b = or i32 %x, 456
  %c = xor i32 %a, %b
  ret i32 %c
}
define i32 @xor_const(i32 %x, i32 %y) {
  %a = or i32 %x, 123
  %b = xor i32 %a, 123
  %c = xor i32 %b, %y
  ret i32 %c
}
define i32 @xor_and_and(i32 %x) {
  %a = and i32 %x, 12
  %b = and i32 %x, 10
  %c = xor i32 %a, %b
  ret i32 %c
}
""",
    "subtract_and_negation": """
define i32 @sub1(i32 %a, i32 %b, i32 %c) {
  %x = add i32 %b, %c
  %y = sub i32 %a, %x
  ret i32 %y
}
define i32 @sub2(i32 %a, i32 %b, i32 %c) {
  %x = sub nsw i32 %a, %b
  %y = add nsw i32 %x, %c
  %z = sub i32 %y, %a
  ret i32 %z
}
define i32 @reuse_neg(i32 %a, i32 %b, i32 %c) {
  %n = sub i32 0, %b
  %x = add i32 %a, %c
  %y = sub i32 %x, %b
  %z = mul i32 %y, %n
  ret i32 %z
}
define i32 @neg_mul(i32 %a, i32 %b, i32 %c) {
  %m = mul i32 %a, %b
  %n = sub i32 0, %m
  %x = add i32 %n, %c
  ret i32 %x
}
define i32 @neg_in_mul(i32 %a, i32 %b, i32 %c) {
  %n = sub i32 0, %a
  %m = mul i32 %n, %b
  %o = mul i32 %m, %c
  ret i32 %o
}
define i32 @sub_undef(i32 %a, i32 %b) {
  %x = add i32 %a, %b
  %y = sub i32 %x, undef
  ret i32 %y
}
""",
    "shift_and_disjoint_or": """
define i32 @shl(i32 %a, i32 %b) {
  %s = shl nsw i32 %a, 3
  %m = mul i32 %s, %b
  ret i32 %m
}
define i32 @shl_nuw(i32 %a, i32 %b) {
  %s = shl nuw nsw i32 %a, 31
  %m = add i32 %s, %b
  %n = add i32 %m, %a
  ret i32 %n
}
define i32 @or_add(i32 %a, i32 %b) {
  %s = shl i32 %a, 4
  %o = or i32 %s, 3
  %x = add i32 %o, %b
  ret i32 %x
}
define i32 @or_disjoint(i32 %a, i32 %b, i32 %c) {
  %x = add i32 %a, %b
  %o = or disjoint i32 %x, %c
  ret i32 %o
}
define i32 @load_combine(ptr %p) {
  %l0 = load i8, ptr %p
  %g = getelementptr i8, ptr %p, i64 1
  %l1 = load i8, ptr %g
  %z0 = zext i8 %l0 to i32
  %z1 = zext i8 %l1 to i32
  %s1 = shl i32 %z1, 8
  %o = or i32 %z0, %s1
  ret i32 %o
}
""",
    "wrap_flags": """
define i32 @nsw_nonneg(i16 %a, i16 %b, i16 %c) {
  %x = zext i16 %a to i32
  %y = zext i16 %b to i32
  %z = zext i16 %c to i32
  %s = add nsw i32 %z, %x
  %t = add nsw i32 %s, %y
  ret i32 %t
}
define i32 @nuw_only(i32 %a, i32 %b, i32 %c) {
  %s = add nuw i32 %c, %a
  %t = add nuw i32 %s, %b
  ret i32 %t
}
define i32 @mul_nonzero(i16 %a, i16 %b, i32 %c) {
  %x = zext i16 %a to i32
  %x1 = or i32 %x, 1
  %y = zext i16 %b to i32
  %y1 = or i32 %y, 2
  %c1 = or i32 %c, 4
  %s = mul nuw i32 %c1, %x1
  %t = mul nuw i32 %s, %y1
  ret i32 %t
}
define i32 @mixed(i32 %a, i32 %b, i32 %c) {
  %s = add nsw i32 %c, %a
  %t = add i32 %s, %b
  ret i32 %t
}
""",
    "floating_point": """
define double @fast(double %a, double %b, double %c) {
  %x = fadd fast double %c, 1.0
  %y = fadd fast double %x, %a
  %z = fadd fast double %y, 2.0
  %w = fadd fast double %z, %b
  ret double %w
}
define double @no_flags(double %a, double %b, double %c) {
  %x = fadd double %c, %a
  %y = fadd double %x, %b
  ret double %y
}
define double @factor(double %a, double %b, double %c) {
  %m1 = fmul reassoc nsz double %a, %b
  %m2 = fmul reassoc nsz double %a, %c
  %s = fadd reassoc nsz double %m1, %m2
  ret double %s
}
define double @rep(double %a, double %b) {
  %x = fadd reassoc nsz double %a, %a
  %y = fadd reassoc nsz double %x, %b
  %z = fadd reassoc nsz double %y, %a
  ret double %z
}
define double @neg_const(double %a, double %b) {
  %m = fmul double %a, -4.0
  %s = fadd double %b, %m
  ret double %s
}
define double @neg_const_sub(double %a, double %b) {
  %m = fdiv double -4.0, %a
  %s = fsub double %b, %m
  ret double %s
}
define double @fneg_lower(double %a, double %b, double %c) {
  %m = fmul reassoc nsz double %a, %b
  %n = fneg reassoc nsz double %m
  %x = fadd reassoc nsz double %n, %c
  ret double %x
}
define double @fsub_break(double %a, double %b, double %c) {
  %x = fadd reassoc nsz double %b, %c
  %y = fsub reassoc nsz double %a, %x
  ret double %y
}
define float @fmul_pow(float %x) {
  %a = fmul fast float %x, %x
  %b = fmul fast float %a, %x
  %c = fmul fast float %b, %x
  ret float %c
}
""",
    "pair_map_and_blocks": """
declare void @use(i32)
define void @pairs(i32 %a, i32 %b, i32 %c, i32 %d) {
  %x = add i32 %a, %c
  %y = add i32 %x, %b
  call void @use(i32 %y)
  %p = add i32 %a, %d
  %q = add i32 %p, %b
  call void @use(i32 %q)
  %r = add i32 %c, %b
  %s = add i32 %r, %d
  call void @use(i32 %s)
  ret void
}
define i32 @blocks(i32 %a, i32 %b, i1 %f, ptr %p) {
entry:
  %l = load i32, ptr %p
  %x = add i32 %l, %a
  br i1 %f, label %t, label %e
t:
  %l2 = load i32, ptr %p
  %y = add i32 %x, %l2
  %z = add i32 %y, %b
  ret i32 %z
e:
  %m = mul i32 %x, %b
  %n = mul i32 %m, %l
  ret i32 %n
}
define i32 @loop(i32 %n, i32 %k) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %inc, %head ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %head ]
  %t = add i32 %n, %i
  %acc1 = add i32 %acc, %t
  %acc2 = add i32 %acc1, %k
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %head, label %exit
exit:
  ret i32 %acc2
}
""",
    "cross_block_pairs": """
define i32 @f(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %a4) {
entry:
  %v0 = shl i32 %a3, 10
  %v1 = xor i32 %a3, -1
  %v2 = mul nuw i32 %v1, 1
  %v3 = or i32 %v2, %v2
  %v4 = mul nuw nsw i32 3, %a4
  %v5 = shl nsw i32 %v2, 18
  br label %next
next:
  %v6 = add nuw nsw i32 %a2, %v1
  %v7 = xor i32 %v2, -1
  %v8 = add nuw i32 %v4, %v6
  %v9 = add nuw nsw i32 %v4, %v7
  %v10 = add nuw i32 %v6, %v9
  %v11 = sub i32 0, %v10
  %v12 = add nsw i32 %v8, %v9
  %r0 = mul i32 %v12, %v0
  %r1 = add i32 %r0, %v3
  %r2 = mul i32 %r1, %v5
  %r3 = xor i32 %r2, %v11
  ret i32 %r3
}
""",
    "vectors": """
define <4 x i32> @v(<4 x i32> %a, <4 x i32> %b) {
  %x = add <4 x i32> %a, <i32 1, i32 1, i32 1, i32 1>
  %y = add <4 x i32> %x, %b
  %z = add <4 x i32> %y, <i32 2, i32 2, i32 2, i32 2>
  %n = sub <4 x i32> zeroinitializer, %a
  %w = add <4 x i32> %z, %n
  ret <4 x i32> %w
}
define <2 x i8> @vx(<2 x i8> %x) {
  %a = or <2 x i8> %x, <i8 12, i8 12>
  %b = xor <2 x i8> %a, <i8 5, i8 5>
  %c = xor <2 x i8> %b, <i8 12, i8 12>
  ret <2 x i8> %c
}
define <3 x i32> @vnot_undef_lane(<3 x i32> %x, <3 x i32> %m, <3 x i32> %y) {
  %n = xor <3 x i32> %m, <i32 -1, i32 undef, i32 -1>
  %a = add <3 x i32> %n, %x
  %b = add <3 x i32> %a, %m
  %c = add <3 x i32> %b, %y
  ret <3 x i32> %c
}
define <3 x i32> @vnot_poison_lane(<3 x i32> %x, <3 x i32> %m, <3 x i32> %y) {
  %n = xor <3 x i32> %m, <i32 -1, i32 poison, i32 -1>
  %a = add <3 x i32> %n, %x
  %b = add <3 x i32> %a, %m
  %c = add <3 x i32> %b, %y
  ret <3 x i32> %c
}
define <2 x double> @vf(<2 x double> %a, <2 x double> %b) {
  %m = fmul <2 x double> %a, <double -2.0, double -2.0>
  %s = fadd <2 x double> %b, %m
  ret <2 x double> %s
}
""",
    "dead_and_unreachable": """
declare void @use(i32)
define i32 @dead_chain(i32 %a, i32 %b, ptr %p) {
entry:
  %l = load i32, ptr %p, align 4
  %x = add i32 %l, %a
  %y = mul i32 %x, 7
  %z = xor i32 %y, %b
  ret i32 %a
}
define void @unreachable_kept(i32 %a) {
entry:
  ret void
dead:
  %x = add i32 %a, 1
  %y = mul i32 %x, %x
  br label %dead
}
declare noalias ptr @calloc(i32, i32) nounwind allockind("alloc,zeroed") allocsize(0,1) "alloc-family"="malloc"
define void @dead_alloc() {
  %p = call noalias ptr @calloc(i32 5, i32 7) nounwind
  %z = icmp ne ptr %p, null
  ret void
}
declare void @llvm.assume(i1)
define i32 @dead_assume(ptr %p) {
  tail call void @llvm.assume(i1 true) [ "ignore"(ptr undef) ]
  %l = load i32, ptr %p
  ret i32 %l
}
define i1 @bools(i1 %a, i1 %b) {
  %x = and i1 %b, %a
  %y = and i1 %x, %a
  ret i1 %y
}
""",
    "debug_records": """
define i32 @f(i32 %a, i32 %b, i32 %c, i32 %d) !dbg !5 {
entry:
  %m1 = mul i32 %c, %a, !dbg !8
    #dbg_value(i32 %m1, !9, !DIExpression(), !8)
  %m2 = mul i32 %c, %b, !dbg !8
    #dbg_value(i32 %m2, !9, !DIExpression(), !8)
  %m3 = mul i32 %m1, %d, !dbg !8
    #dbg_value(i32 %m3, !9, !DIExpression(), !8)
  %m4 = mul i32 %m2, %d, !dbg !8
  %s = sub i32 %m3, %m4, !dbg !8
  %x = add i32 %s, 5, !dbg !8
    #dbg_value(i32 %x, !9, !DIExpression(), !8)
  ret i32 %x, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 1, column: 1, scope: !5)
!9 = !DILocalVariable(name: "x", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(CASES))
def test_rules_like_opt19(tmp_path: Path, name: str) -> None:
    require_tools("opt-19")
    path = tmp_path / "in.ll"
    path.write_text(CASES[name])
    check_like_opt(path, "reassociate")


def _ours(text: str) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "reassociate")
    return print_module(module)


def _opt19(text: str, *extra: str) -> str:
    assert OPT is not None
    r = subprocess.run([OPT, "-passes=reassociate", "-S", *extra], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _same(a: str, b: str) -> bool:
    def norm(t: str) -> list[str]:
        return [ln for ln in body(t).splitlines() if not ln.startswith("source_filename")]

    return norm(a) == norm(b)


@needs_opt
def test_use_cse_local_option() -> None:
    """``-reassociate-use-cse-local=false`` lets the pair map pick leaves from other blocks."""
    require_tools("opt-19")
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the option)

    text = CASES["cross_block_pairs"]
    assert not _same(_opt19(text), _opt19(text, "-reassociate-use-cse-local=false"))  # the option matters here
    with OPTIONS.overriding({"reassociate-use-cse-local": False}):
        ours = _ours(text)
    assert _same(ours, _opt19(text, "-reassociate-use-cse-local=false"))


def test_visible_rewrites() -> None:
    """Exact results of a few rules, independent of opt-19 (names LLVM gives new values)."""
    out = _ours(CASES["subtract_and_negation"] + CASES["repeated_add_and_factoring"])
    assert "%b.neg = sub i32 0, %b" in out  # BreakUpSubtract through NegateValue
    assert "%factor = mul i32 %a, 3" in out  # x+x+y+x -> 3*x + y
    assert "%reass.add = add i32 %c, %b" in out or "%reass.add = add i32 %b, %c" in out
    assert "%reass.mul = mul i32 %reass.add, %a" in out
    assert "%y = sub i32 %x, undef" in out  # a subtract of undef is left alone
    out = _ours(CASES["xor_masks"])
    assert "and.ra" in out


@needs_opt
@pytest.mark.parametrize("seed", range(24))
def test_random_integer_functions_like_opt19(seed: int) -> None:
    require_tools("opt-19")
    rng = random.Random(seed)
    text = "".join(
        gen_int_function(rng, "f%d" % k, width=rng.choice((8, 32)), size=rng.randrange(4, 16), two_blocks=k % 3 == 2)
        for k in range(6)
    )
    assert _same(_ours(text), _opt19(text))


@needs_opt
@pytest.mark.parametrize("seed", range(12))
def test_random_fast_math_functions_like_opt19(seed: int) -> None:
    require_tools("opt-19")
    rng = random.Random(1000 + seed)
    text = "".join(gen_fp_function(rng, "g%d" % k, size=rng.randrange(3, 12)) for k in range(6))
    assert _same(_ours(text), _opt19(text))


@pytest.mark.parametrize(
    "seed", [pytest.param(k, marks=[pytest.mark.slow] if k >= 3 else []) for k in range(12)]
)
def test_exhaustive_i8_semantics(seed: int) -> None:
    """Random i8 trees of two arguments compute the same value on all 65,536 inputs after
    the pass, wherever the original result is not poison."""
    rng = random.Random(500 + seed)
    text = gen_int_function(rng, "f", width=8, nargs=2, size=rng.randrange(6, 12), two_blocks=seed % 2 == 1)
    before = parse_assembly(text)
    after = parse_assembly(text)
    llvmpy_mid.run_passes(after, "reassociate")
    f0 = before.get_function("f")
    f1 = after.get_function("f")
    assert f0 is not None and f1 is not None
    run0 = compile_int_function(f0)
    run1 = compile_int_function(f1)
    for a, b in itertools.product(range(256), repeat=2):
        r0 = run0((a, b))
        if r0 is not None:
            assert run1((a, b)) == r0, (a, b, print_module(after))


def test_evaluator_sees_a_wrong_rewrite() -> None:
    """The property test's evaluator tells a wrong rewrite apart (a ``sub`` swapped)."""
    good = parse_assembly("define i8 @f(i8 %a, i8 %b) {\n  %x = sub i8 %a, %b\n  ret i8 %x\n}\n")
    bad = parse_assembly("define i8 @f(i8 %a, i8 %b) {\n  %x = sub i8 %b, %a\n  ret i8 %x\n}\n")
    g = compile_int_function(good.get_function("f"))
    h = compile_int_function(bad.get_function("f"))
    assert g((5, 3)) == 2 and h((5, 3)) == 254
    nsw = parse_assembly("define i8 @f(i8 %a, i8 %b) {\n  %x = add nsw i8 %a, %b\n  ret i8 %x\n}\n")
    assert compile_int_function(nsw.get_function("f"))((127, 1)) is None


@needs_opt
@pytest.mark.parametrize("path", csmith_params(3, ".O0.ll"))
def test_csmith_mem2reg_reassociate(path: Path) -> None:
    require_tools("opt-19")
    check_like_opt(Path(path), "mem2reg,reassociate")


@needs_opt
@pytest.mark.parametrize("path", csmith_params(2, ".O2.ll"))
def test_csmith_o2_reassociate(path: Path) -> None:
    require_tools("opt-19")
    check_like_opt(Path(path), "reassociate")
