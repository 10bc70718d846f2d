"""``early-cse`` against opt-19, one small function per rule of EarlyCSE.cpp (commuted
operators and compares, min/max and inverted selects, load forwarding and write-back /
overwritten store removal, invariant memory, assumes and guards, branch-condition
propagation, GEP offsets, read-only and convergent calls, flag intersection, masked
intrinsics, ordering), the pipeline printing and pass-manager log, and property tests:
on random expression DAGs with duplicated subexpressions no two remaining instructions
in a dominating relation are the same SimpleValue, and the function computes the same
results before and after on random inputs (a small interpreter, no lli)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from opt19_compare import assert_like_opt, pass_manager_logs

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.transform.scalar.early_cse_keys import SimpleValue, can_handle_simple_value
from tests.oracles import require_tools

require_tools("opt-19")

CASES = {
    "commuted_binop_and_cmp": """
define i1 @f(i32 %a, i32 %b) {
  %x = add i32 %a, %b
  %y = add i32 %b, %a
  %c1 = icmp slt i32 %x, %y
  %c2 = icmp sgt i32 %y, %x
  %s = sub i32 %a, %b
  %t = sub i32 %b, %a
  %r = and i1 %c1, %c2
  %u = icmp eq i32 %s, %t
  %r2 = or i1 %r, %u
  ret i1 %r2
}
""",
    "min_max_selects": """
define void @f(i32 %a, i32 %b, ptr %p) {
  %c1 = icmp slt i32 %a, %b
  %m1 = select i1 %c1, i32 %a, i32 %b
  %c2 = icmp sgt i32 %b, %a
  %m2 = select i1 %c2, i32 %a, i32 %b
  %c3 = icmp ugt i32 %a, %b
  %m3 = select i1 %c3, i32 %a, i32 %b
  %c4 = icmp ult i32 %b, %a
  %m4 = select i1 %c4, i32 %a, i32 %b
  store volatile i32 %m1, ptr %p
  store volatile i32 %m2, ptr %p
  store volatile i32 %m3, ptr %p
  store volatile i32 %m4, ptr %p
  ret void
}
""",
    "inverted_select_conditions": """
define void @f(i32 %a, i32 %b, i8 %x, i8 %y, i1 %c, ptr %p) {
  %c1 = icmp eq i32 %a, %b
  %c2 = icmp ne i32 %a, %b
  %s1 = select i1 %c1, i8 %x, i8 %y
  %s2 = select i1 %c2, i8 %y, i8 %x
  %n = xor i1 %c, true
  %s3 = select i1 %c, i8 %x, i8 %y
  %s4 = select i1 %n, i8 %y, i8 %x
  %f1 = fcmp olt float 1.0, 2.0
  store volatile i8 %s1, ptr %p
  store volatile i8 %s2, ptr %p
  store volatile i8 %s3, ptr %p
  store volatile i8 %s4, ptr %p
  ret void
}
""",
    "load_forwarding": """
define i32 @f(ptr %p, ptr %q, i32 %v) {
  %a = load i32, ptr %p
  %b = load i32, ptr %p
  store i32 %v, ptr %q
  %c = load i32, ptr %q
  %d = load i32, ptr %p
  %s1 = add i32 %a, %b
  %s2 = add i32 %c, %d
  %s = add i32 %s1, %s2
  ret i32 %s
}
""",
    "load_type_mismatch_and_atomics": """
define i32 @f(ptr %p) {
  %a = load i32, ptr %p
  %b = load i16, ptr %p
  %c = load atomic i32, ptr %p unordered, align 4
  %d = load atomic i32, ptr %p acquire, align 4
  %e = load i32, ptr %p
  %v = load volatile i32, ptr %p
  %w = load i32, ptr %p
  %bz = zext i16 %b to i32
  %s1 = add i32 %a, %bz
  %s2 = add i32 %c, %d
  %s3 = add i32 %e, %v
  %s4 = add i32 %s1, %s2
  %s5 = add i32 %s3, %s4
  %s6 = add i32 %s5, %w
  ret i32 %s6
}
""",
    "writeback_and_overwritten_stores": """
define void @f(ptr %p, ptr %q, i32 %v) {
  %a = load i32, ptr %p
  store i32 %a, ptr %p
  store i32 1, ptr %q
  store i32 2, ptr %q
  store i32 %v, ptr %q
  %b = load i32, ptr %q
  store i32 3, ptr %q
  store volatile i32 4, ptr %q
  store i32 5, ptr %q
  ret void
}
""",
    "release_fence_keeps_loads": """
define i32 @f(ptr %p) {
  %a = load i32, ptr %p
  fence release
  %b = load i32, ptr %p
  fence acquire
  %c = load i32, ptr %p
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
""",
    "invariant_load_and_start": """
declare void @clobber()
declare ptr @llvm.invariant.start.p0(i64, ptr nocapture)
define i32 @f(ptr %p, ptr %q) {
  %a = load i32, ptr %p, !invariant.load !0
  call void @clobber()
  %b = load i32, ptr %p, !invariant.load !0
  store i32 7, ptr %q
  %i = call ptr @llvm.invariant.start.p0(i64 4, ptr %q)
  %x = call ptr @llvm.invariant.start.p0(i64 4, ptr %q)
  call void @clobber()
  %c = load i32, ptr %q
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
!0 = !{}
""",
    "assume_and_guard": """
declare void @llvm.assume(i1)
declare void @llvm.experimental.guard(i1, ...)
define i1 @f(i32 %a, i32 %b) {
  %c = icmp eq i32 %a, %b
  call void @llvm.assume(i1 %c)
  %d = icmp eq i32 %a, %b
  %e = icmp ult i32 %a, 10
  call void (i1, ...) @llvm.experimental.guard(i1 %e) [ "deopt"() ]
  call void (i1, ...) @llvm.experimental.guard(i1 %e) [ "deopt"() ]
  %g = icmp ult i32 %a, 10
  %r = and i1 %d, %g
  ret i1 %r
}
""",
    "branch_condition_propagation": """
define i32 @f(i32 %a, i32 %b, i1 %x) {
entry:
  %c = icmp eq i32 %a, %b
  %d = icmp slt i32 %a, 0
  %both = and i1 %c, %d
  br i1 %both, label %t, label %e
t:
  %c2 = icmp eq i32 %a, %b
  %z = zext i1 %c2 to i32
  %zd = zext i1 %d to i32
  %r = add i32 %z, %zd
  ret i32 %r
e:
  %either = or i1 %c, %x
  br i1 %either, label %e1, label %e2
e1:
  ret i32 1
e2:
  %zz = zext i1 %c to i32
  ret i32 %zz
}
""",
    "merge_block_new_generation": """
define i32 @f(ptr %p, i1 %c) {
entry:
  %a = load i32, ptr %p
  br i1 %c, label %t, label %j
t:
  store i32 1, ptr %p
  br label %j
j:
  %b = load i32, ptr %p
  %s = add i32 %a, %b
  ret i32 %s
}
""",
    "gep_constant_offsets": """
define void @f(ptr %p, i64 %i) {
  %a = getelementptr inbounds i32, ptr %p, i64 1
  %b = getelementptr i8, ptr %p, i64 4
  %c = getelementptr i32, ptr %p, i64 %i
  %d = getelementptr inbounds i32, ptr %p, i64 %i
  %e = getelementptr { i32, i32 }, ptr %p, i64 0, i32 1
  store volatile ptr %a, ptr %p
  store volatile ptr %b, ptr %p
  store volatile ptr %c, ptr %p
  store volatile ptr %d, ptr %p
  store volatile ptr %e, ptr %p
  ret void
}
""",
    "readonly_and_convergent_calls": """
declare i32 @ro(i32) readonly nounwind willreturn
declare i32 @rn(i32) readnone nounwind willreturn
declare i32 @conv(i32) readnone convergent nounwind willreturn
declare void @w()
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = call i32 @ro(i32 %a)
  %y = call i32 @ro(i32 %a)
  %k1 = call i32 @conv(i32 %a)
  call void @w()
  %z = call i32 @ro(i32 %a)
  %n1 = call i32 @rn(i32 %a)
  br label %b
b:
  %n2 = call i32 @rn(i32 %a)
  %k2 = call i32 @conv(i32 %a)
  %s = add i32 %x, %y
  %t = add i32 %z, %n1
  %u = add i32 %n2, %k1
  %v = add i32 %s, %t
  %w2 = add i32 %u, %k2
  %r = add i32 %v, %w2
  ret i32 %r
}
""",
    "flags_intersection": """
define void @f(i32 %a, i32 %b, float %x, ptr %p) {
  %s1 = add nsw nuw i32 %a, %b
  %s2 = add nuw i32 %a, %b
  %f1 = fadd fast float %x, 1.0
  %f2 = fadd nnan float %x, 1.0
  %e1 = udiv exact i32 %a, %b
  %e2 = udiv i32 %a, %b
  store volatile i32 %s1, ptr %p
  store volatile i32 %s2, ptr %p
  store volatile float %f1, ptr %p
  store volatile float %f2, ptr %p
  store volatile i32 %e1, ptr %p
  store volatile i32 %e2, ptr %p
  ret void
}
""",
    "flags_kept_when_poison_is_ub": """
define i32 @f(i32 %a, i32 %b) {
  %s1 = add nsw i32 %a, %b
  %d = udiv i32 1, %s1
  %s2 = add i32 %a, %b
  %r = add i32 %d, %s2
  ret i32 %r
}
""",
    "masked_intrinsics": """
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
define <4 x i32> @f(ptr %p, <4 x i32> %v) {
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %p, i32 4, <4 x i1> <i1 true, i1 true, i1 false, i1 true>)
  %a = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> <i1 true, i1 false, i1 false, i1 true>, <4 x i32> undef)
  %b = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x i32> undef)
  %s = add <4 x i32> %a, %b
  ret <4 x i32> %s
}
""",
    "dead_code_and_simplify": """
define i32 @f(i32 %a) {
  %dead = mul i32 %a, 7
  %x = add i32 %a, 0
  %y = and i32 %x, %x
  %z = add i32 %y, %a
  ret i32 %z
}
""",
    "debug_info_salvaged": """
define i32 @f(i32 %a) !dbg !5 {
  %dead = add i32 %a, 7, !dbg !9
    #dbg_value(i32 %dead, !8, !DIExpression(), !9)
  ret i32 %a, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0, retainedNodes: !7)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocalVariable(name: "v", scope: !5, file: !1, line: 1, type: !10)
!9 = !DILocation(line: 1, column: 1, scope: !5)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
""",
    "commutative_intrinsics_and_casts": """
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
define void @f(i32 %a, i32 %b, ptr %p) {
  %m1 = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %m2 = call i32 @llvm.smax.i32(i32 %b, i32 %a)
  %z1 = zext i32 %a to i64
  %z2 = zext i32 %a to i64
  %z3 = sext i32 %a to i64
  %fr1 = freeze i32 %b
  %fr2 = freeze i32 %b
  store volatile i32 %m1, ptr %p
  store volatile i32 %m2, ptr %p
  store volatile i64 %z1, ptr %p
  store volatile i64 %z2, ptr %p
  store volatile i64 %z3, ptr %p
  store volatile i32 %fr1, ptr %p
  store volatile i32 %fr2, ptr %p
  ret void
}
""",
    "aggregates_and_vectors": """
define void @f({ i32, i32 } %s, <4 x i32> %v, ptr %p) {
  %a = extractvalue { i32, i32 } %s, 0
  %b = extractvalue { i32, i32 } %s, 0
  %c = extractvalue { i32, i32 } %s, 1
  %e1 = extractelement <4 x i32> %v, i32 1
  %e2 = extractelement <4 x i32> %v, i32 1
  %sh1 = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 1, i32 0, i32 3, i32 2>
  %sh2 = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 1, i32 0, i32 3, i32 2>
  %sh3 = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 0, i32 0, i32 3, i32 2>
  store volatile i32 %a, ptr %p
  store volatile i32 %b, ptr %p
  store volatile i32 %c, ptr %p
  store volatile i32 %e1, ptr %p
  store volatile i32 %e2, ptr %p
  store volatile <4 x i32> %sh1, ptr %p
  store volatile <4 x i32> %sh2, ptr %p
  store volatile <4 x i32> %sh3, ptr %p
  ret void
}
""",
    "select_variants": """
define void @f(i32 %a, i32 %b, float %x, float %y, <2 x i32> %va, <2 x i32> %vb, i1 %c, ptr %out) {
  %c1 = icmp slt i32 %a, %b
  %n1 = xor i1 %c1, true
  %s1 = select i1 %n1, i32 %b, i32 %a
  %s2 = select i1 %c1, i32 %a, i32 %b
  %c2 = icmp sge i32 %a, %b
  %s3 = select i1 %c2, i32 %b, i32 %a
  %c3 = icmp sle i32 %b, %a
  %s4 = select i1 %c3, i32 %b, i32 %a
  %f1 = fcmp olt float %x, %y
  %f2 = fcmp uge float %x, %y
  %t1 = select i1 %f1, float %x, float %y
  %t2 = select i1 %f2, float %y, float %x
  %f3 = fcmp ogt float %y, %x
  %t3 = select i1 %f3, float %x, float %y
  %vc = icmp ult <2 x i32> %va, %vb
  %vs1 = select <2 x i1> %vc, <2 x i32> %va, <2 x i32> %vb
  %vc2 = icmp ugt <2 x i32> %vb, %va
  %vs2 = select <2 x i1> %vc2, <2 x i32> %va, <2 x i32> %vb
  %nn = xor i1 %c, true
  %nnn = xor i1 %nn, true
  %u1 = select i1 %nnn, i32 %a, i32 %b
  %u2 = select i1 %c, i32 %a, i32 %b
  %e1 = icmp eq i32 %a, %b
  %u3 = select i1 %e1, i32 %a, i32 %b
  %e2 = icmp eq i32 %b, %a
  %u4 = select i1 %e2, i32 %a, i32 %b
  %e3 = icmp ne i32 %b, %a
  %u5 = select i1 %e3, i32 %b, i32 %a
  %k1 = select i1 %c1, i32 %a, i32 7
  %c4 = icmp sge i32 %a, %b
  %k2 = select i1 %c4, i32 7, i32 %a
  store volatile i32 %s1, ptr %out
  store volatile i32 %s2, ptr %out
  store volatile i32 %s3, ptr %out
  store volatile i32 %s4, ptr %out
  store volatile float %t1, ptr %out
  store volatile float %t2, ptr %out
  store volatile float %t3, ptr %out
  store volatile <2 x i32> %vs1, ptr %out
  store volatile <2 x i32> %vs2, ptr %out
  store volatile i32 %u1, ptr %out
  store volatile i32 %u2, ptr %out
  store volatile i32 %u3, ptr %out
  store volatile i32 %u4, ptr %out
  store volatile i32 %u5, ptr %out
  store volatile i32 %k1, ptr %out
  store volatile i32 %k2, ptr %out
  ret void
}
""",
    "vector_and_scalable_geps": """
define void @f(ptr %p, <2 x ptr> %vp, i64 %i, ptr %out) {
  %a = getelementptr i32, ptr %p, <2 x i64> <i64 1, i64 1>
  %b = getelementptr i32, ptr %p, <2 x i64> <i64 1, i64 1>
  %c = getelementptr i32, <2 x ptr> %vp, i64 1
  %d = getelementptr i32, <2 x ptr> %vp, i64 1
  %e = getelementptr <vscale x 4 x i32>, ptr %p, i64 1
  %f = getelementptr <vscale x 4 x i32>, ptr %p, i64 1
  %g = getelementptr i32, ptr %p, i64 1
  %h = getelementptr i8, ptr %p, i64 -4
  %k = getelementptr i32, ptr %p, i64 -1
  %l = getelementptr [0 x i32], ptr %p, i64 0, i64 %i
  %m = getelementptr i32, ptr %p, i64 %i
  store volatile <2 x ptr> %a, ptr %out
  store volatile <2 x ptr> %b, ptr %out
  store volatile <2 x ptr> %c, ptr %out
  store volatile <2 x ptr> %d, ptr %out
  store volatile ptr %e, ptr %out
  store volatile ptr %f, ptr %out
  store volatile ptr %g, ptr %out
  store volatile ptr %h, ptr %out
  store volatile ptr %k, ptr %out
  store volatile ptr %l, ptr %out
  store volatile ptr %m, ptr %out
  ret void
}
""",
    "deep_dominator_tree": "\n".join(
        ["define i32 @f(i32 %a, i1 %c) {", "entry:", "  %x0 = add i32 %a, 1", "  br label %b1"]
        + [
            "b%d:\n  %%x%d = add i32 %%a, 1\n  %%y%d = add i32 %%x%d, %%x%d\n  br i1 %%c, label %%b%d, label %%b%d"
            % (i, i, i, i, i - 1, i + 1, i + 1)
            for i in range(1, 400)
        ]
        + ["b400:", "  ret i32 %x0", "}"]
    ),
}


MSSA_CASES = {
    "load_across_non_aliasing_store": """
@G1 = global i32 0
@G2 = global i32 0
define i32 @f() {
  %v1 = load i32, ptr @G1
  store i32 0, ptr @G2
  %v2 = load i32, ptr @G1
  %d = sub i32 %v1, %v2
  ret i32 %d
}
""",
    "writeback_across_non_aliasing_store": """
@G1 = global i32 0
@G2 = global i32 0
define void @f() {
  %v1 = load i32, ptr @G1
  store i32 0, ptr @G2
  store i32 %v1, ptr @G1
  ret void
}
""",
    "readonly_call_across_unrelated_store": """
declare i32 @ro(ptr) readonly nounwind willreturn
define i32 @f(ptr noalias %p, ptr noalias %q) {
  %a = call i32 @ro(ptr %p) memory(argmem: read)
  store i32 1, ptr %q
  %b = call i32 @ro(ptr %p) memory(argmem: read)
  %s = add i32 %a, %b
  ret i32 %s
}
""",
    "memory_phi_merge": """
@G1 = global i32 0
@G2 = global i32 0
define i32 @f(i1 %c) {
entry:
  %v1 = load i32, ptr @G1
  br i1 %c, label %t, label %j
t:
  store i32 1, ptr @G2
  br label %j
j:
  %v2 = load i32, ptr @G1
  store i32 %v2, ptr @G1
  %d = sub i32 %v1, %v2
  ret i32 %d
}
""",
}




@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("pipeline", ["early-cse", "early-cse<memssa>"])
def test_early_cse_like_opt(name: str, pipeline: str) -> None:
    assert_like_opt(CASES[name], pipeline)


@pytest.mark.parametrize("name", sorted(MSSA_CASES))
def test_early_cse_memssa_like_opt(name: str) -> None:
    ours = assert_like_opt(MSSA_CASES[name], "early-cse<memssa>")
    assert ours != assert_like_opt(MSSA_CASES[name], "early-cse") or name == "readonly_call_across_unrelated_store"


def test_pass_manager_log_memssa() -> None:
    theirs, ours = pass_manager_logs(MSSA_CASES["load_across_non_aliasing_store"], "early-cse<memssa>")
    assert ours == theirs


@pytest.mark.parametrize("cap", [0, 1])
def test_mssa_optimization_cap(cap: int) -> None:
    assert_like_opt(MSSA_CASES["memory_phi_merge"], "early-cse<memssa>", {"earlycse-mssa-optimization-cap": cap})


def test_early_cse_changes_something() -> None:
    out = assert_like_opt(CASES["commuted_binop_and_cmp"], "early-cse")
    assert "%y = add" not in out and "%c2" not in out


@pytest.mark.parametrize(
    "pipeline", ["early-cse", "early-cse<memssa>", "early-cse<memssa;memssa>", "function(early-cse<memssa>,early-cse)"]
)
def test_print_pipeline_passes(pipeline: str) -> None:
    args = ["-passes=" + pipeline, "-print-pipeline-passes", "-disable-output"]
    ir = "define void @f() {\n  ret void\n}\n"
    theirs = subprocess.run(["opt-19", *args], input=ir, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=ir, capture_output=True, text=True)
    assert ours.stdout == theirs.stdout and ours.returncode == 0


@pytest.mark.parametrize("params", ["bogus", "no-memssa", ";memssa"])
def test_bad_parameter_is_an_error(params: str) -> None:
    module = parse_assembly("define void @f() {\n  ret void\n}\n")
    with pytest.raises(PipelineError):
        llvmpy_mid.run_passes(module, "early-cse<%s>" % params)
    args = ["-passes=early-cse<%s>" % params, "-disable-output"]
    ir = "define void @f() {\n  ret void\n}\n"
    theirs = subprocess.run(["opt-19", *args], input=ir, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=ir, capture_output=True, text=True)
    assert theirs.returncode != 0 and ours.returncode != 0
    assert ours.stderr.replace("llvmpy-opt", "opt-19") == theirs.stderr


def test_pass_manager_log() -> None:
    theirs, ours = pass_manager_logs(CASES["load_forwarding"], "early-cse")
    assert ours == theirs


def test_pass_manager_log_unchanged_function() -> None:
    theirs, ours = pass_manager_logs("define void @f() {\n  ret void\n}\n", "early-cse,early-cse")
    assert ours == theirs


def test_debug_hash_option_accepted() -> None:
    assert_like_opt(CASES["min_max_selects"], "early-cse", {"earlycse-debug-hash": True})


# --- property tests --------------------------------------------------------------------------

_BINOPS = ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr")
_PREDS = ("eq", "ne", "ult", "ugt", "slt", "sge", "ule", "sgt")
_MASK = 0xFF


def _random_function(rng: random.Random) -> str:
    """A function over three i8 arguments: a diamond whose blocks compute random
    expressions with many duplicated (often commuted) subexpressions, compares and
    selects; every value ends in a running xor that is returned."""
    lines = ["define i8 @f(i8 %a, i8 %b, i8 %c) {", "entry:"]
    vals = ["%a", "%b", "%c", "3", "0"]
    conds: list[str] = []
    count = [0]

    def fresh() -> str:
        count[0] += 1
        return "%%v%d" % count[0]

    def emit_block(pool: list[str], cpool: list[str], n: int) -> str:
        acc = "0"
        for _ in range(n):
            kind = rng.random()
            name = fresh()
            if kind < 0.55:
                op = rng.choice(_BINOPS)
                x, y = rng.choice(pool), rng.choice(pool)
                if op in ("shl", "lshr"):
                    y = str(rng.randrange(8))
                lines.append("  %s = %s i8 %s, %s" % (name, op, x, y))
                if rng.random() < 0.5 and op in ("add", "mul", "and", "or", "xor"):
                    dup = fresh()
                    lines.append("  %s = %s i8 %s, %s" % (dup, op, y, x))
                    pool.append(dup)
                pool.append(name)
            elif kind < 0.75:
                x, y = rng.choice(pool), rng.choice(pool)
                pred = rng.choice(_PREDS)
                lines.append("  %s = icmp %s i8 %s, %s" % (name, pred, x, y))
                cpool.append(name)
                continue
            elif cpool:
                cond = rng.choice(cpool)
                x, y = rng.choice(pool), rng.choice(pool)
                if rng.random() < 0.3:
                    notc = fresh()
                    lines.append("  %s = xor i1 %s, true" % (notc, cond))
                    cond = notc
                    x, y = y, x
                lines.append("  %s = select i1 %s, i8 %s, i8 %s" % (name, cond, x, y))
                pool.append(name)
            else:
                continue
            nacc = fresh()
            lines.append("  %s = xor i8 %s, %s" % (nacc, acc, name))
            acc = nacc
        return acc

    acc0 = emit_block(vals, conds, rng.randrange(6, 14))
    cond = fresh()
    lines.append("  %s = icmp ult i8 %s, %s" % (cond, rng.choice(vals), rng.choice(vals)))
    lines.append("  br i1 %s, label %%t, label %%e" % cond)
    lines.append("t:")
    acc1 = emit_block(list(vals), list(conds) + [cond], rng.randrange(3, 8))
    lines.append("  br label %j")
    lines.append("e:")
    acc2 = emit_block(list(vals), list(conds) + [cond], rng.randrange(3, 8))
    lines.append("  br label %j")
    lines.append("j:")
    lines.append("  %%p = phi i8 [ %s, %%t ], [ %s, %%e ]" % (acc1, acc2))
    acc3 = emit_block(list(vals), list(conds), rng.randrange(2, 6))
    lines.append("  %%r1 = xor i8 %s, %%p" % acc0)
    lines.append("  %%r = xor i8 %%r1, %s" % acc3)
    lines.append("  ret i8 %r")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cmp(pred: str, x: int, y: int) -> bool:
    sx, sy = (x ^ 0x80) - 0x80, (y ^ 0x80) - 0x80
    return {
        "eq": x == y, "ne": x != y, "ult": x < y, "ugt": x > y, "ule": x <= y, "uge": x >= y,
        "slt": sx < sy, "sgt": sx > sy, "sle": sx <= sy, "sge": sx >= sy,
    }[pred]


def _evaluate(fn: object, args: tuple[int, int, int]) -> int:
    """Run the function (integers, compares, selects, phis, branches) on ``args``."""
    env: dict[object, int] = {}
    for arg, v in zip(fn.args, args):  # type: ignore[attr-defined]
        env[arg] = v

    def val(v: object) -> int:
        if isinstance(v, ConstantInt):
            return v.value & (1 if v.type.width == 1 else _MASK)
        return env[v]

    bb = fn.entry_block  # type: ignore[attr-defined]
    prev = None
    while True:
        for inst in bb.instructions:
            op = inst.opcode
            ops = inst.operands
            if op == "phi":
                env[inst] = val(next(v for v, b in inst.incoming if b is prev))
            elif op == "icmp":
                pred = Predicate(inst.predicate).keyword
                env[inst] = int(_cmp(pred, val(ops[0]), val(ops[1])))
            elif op == "select":
                env[inst] = val(ops[1]) if val(ops[0]) else val(ops[2])
            elif op == "br":
                if len(ops) == 1:
                    nxt = ops[0]
                else:
                    nxt = inst.successors[0] if val(ops[0]) else inst.successors[1]
                prev, bb = bb, nxt
                break
            elif op == "ret":
                return val(ops[0])
            else:
                x, y = val(ops[0]), val(ops[1])
                width_mask = 1 if inst.type.width == 1 else _MASK
                r = {
                    "add": x + y, "sub": x - y, "mul": x * y, "and": x & y, "or": x | y, "xor": x ^ y,
                    "shl": x << y if y < 8 else 0, "lshr": x >> y if y < 8 else 0,
                }[op]
                env[inst] = r & width_mask


@pytest.mark.parametrize("seed", range(25))
def test_random_dags_are_cse_closed_and_equivalent(seed: int) -> None:
    rng = random.Random(seed)
    text = _random_function(rng)
    before = parse_assembly(text)
    after = parse_assembly(text)
    llvmpy_mid.run_passes(after, "early-cse")
    llvmpy_mid.verify_module(after)
    f0 = before.get_function("f")
    f1 = after.get_function("f")
    for _ in range(40):
        args = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        assert _evaluate(f0, args) == _evaluate(f1, args), (text, args)
    # No instruction that dominates another computes the same SimpleValue.
    from llvmpy_mid.ir.dominators import DominatorTree

    dt = DominatorTree(f1)
    insts = [i for bb in f1.blocks for i in bb.instructions if can_handle_simple_value(i)]
    seen: dict[SimpleValue, list[object]] = {}
    for inst in insts:
        seen.setdefault(SimpleValue(inst), []).append(inst)
    for group in seen.values():
        for x in group:
            for y in group:
                if x is not y:
                    assert not dt.dominates(x, y), (str(x), str(y))
    # And the output is opt-19's.
    assert_like_opt(text, "early-cse")


KNOWLEDGE = """
declare void @clobber()
define i32 @f(ptr %p, ptr dereferenceable(8) %q, i1 %c) {
entry:
  %a = load i32, ptr %p, align 4
  %b = load i32, ptr %p, align 4
  %g = getelementptr inbounds i8, ptr %p, i64 8
  %x = load i16, ptr %g, align 2
  %y = load i16, ptr %g, align 2
  %u = load i32, ptr %q, align 4
  %v = load i32, ptr %q, align 4
  store i32 %a, ptr %p, align 4
  %s = add i32 %a, %b
  %xz = zext i16 %x to i32
  %yz = zext i16 %y to i32
  %t = add i32 %xz, %yz
  %w = add i32 %u, %v
  %r1 = add i32 %s, %t
  %r = add i32 %r1, %w
  ret i32 %r
}
"""


@pytest.mark.parametrize("pipeline", ["early-cse", "early-cse<memssa>"])
def test_knowledge_retention(pipeline: str) -> None:
    out = assert_like_opt(KNOWLEDGE, pipeline, {"enable-knowledge-retention": True})
    assert '"dereferenceable"' in out


@pytest.mark.parametrize("name", ["memory_phi_merge", "load_across_non_aliasing_store", "writeback_and_overwritten_stores"])
def test_memory_ssa_after_early_cse(name: str) -> None:
    """The MemorySSA early-cse<memssa> keeps up to date prints as opt-19's."""
    ir = MSSA_CASES.get(name) or CASES[name]
    args = ["-passes=early-cse<memssa>,print<memoryssa>", "-disable-output"]
    theirs = subprocess.run(["opt-19", *args], input=ir, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=ir, capture_output=True, text=True)
    assert theirs.returncode == 0 and ours.returncode == 0
    assert ours.stdout + ours.stderr == theirs.stdout + theirs.stderr
