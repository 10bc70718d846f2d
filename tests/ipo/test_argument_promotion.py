"""``argpromotion`` against opt-19, byte for byte, on small modules that each exercise
one rule: loads at constant offsets (byte GEPs at the call site, ``.val`` names,
``<arg>.<offset>.val`` parameters), the part limit, conditional loads that need a
dereferenceable and aligned pointer (from the argument or from every caller), stores
between entry and load (alias analysis refuses), ``byval`` arguments with stores
(allocas promoted to registers, phis in LLVM's order), ``sret`` turned into
``noalias``, recursion, metadata copied to the new loads (AA tags, ``!noundef`` with
``!range``), debug locations and ``invoke`` call sites, dead pointer arguments, the
x86 ABI check on AVX-512 register use and BPF's five-argument limit; and the pass's
refusals (external, variadic, address taken, musttail, naked). Expected texts are what
opt-19 prints, made in the test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, pipeline: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, pipeline: str) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline)
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _same(text: str, pipeline: str = "argpromotion") -> str:
    ours = _body(_ours(text, pipeline))
    assert ours == _body(_opt19(text, pipeline))
    return ours


OFFSETS = """
define internal i32 @f(ptr %p) {
  %a = load i32, ptr %p, align 4
  %g = getelementptr inbounds i8, ptr %p, i64 8
  %b = load i32, ptr %g, align 8
  %s = add i32 %a, %b
  ret i32 %s
}
define i32 @g(ptr %q) {
  %r = call i32 @f(ptr %q)
  %r2 = call i32 @f(ptr %q)
  %s = add i32 %r, %r2
  ret i32 %s
}
"""

TOO_MANY_PARTS = """
define internal i32 @f(ptr %p) {
  %a = load i32, ptr %p
  %g = getelementptr i32, ptr %p, i64 1
  %b = load i32, ptr %g
  %h = getelementptr i32, ptr %p, i64 2
  %c = load i32, ptr %h
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
define i32 @g(ptr %q) {
  %r = call i32 @f(ptr %q)
  ret i32 %r
}
"""

CONDITIONAL = """
declare void @use(i32)
define internal void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %v = load i32, ptr %p, align 4
  call void @use(i32 %v)
  ret void
b:
  ret void
}
define void @g(ptr dereferenceable(4) align 4 %q, i1 %c) {
  call void @f(ptr %q, i1 %c)
  ret void
}
define internal void @f2(ptr %p, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %v = load i32, ptr %p, align 4
  call void @use(i32 %v)
  ret void
b:
  ret void
}
define void @g2(ptr %q, i1 %c) {
  call void @f2(ptr %q, i1 %c)
  ret void
}
"""

CLOBBER = """
declare void @use(i32)
define internal void @f(ptr %p, ptr %q) {
  store i32 0, ptr %q
  %v = load i32, ptr %p
  call void @use(i32 %v)
  ret void
}
define internal void @h(ptr noalias %p, ptr noalias %q) {
  store i32 0, ptr %q
  %v = load i32, ptr %p
  call void @use(i32 %v)
  ret void
}
define void @g(ptr %p, ptr %q) {
  call void @f(ptr %p, ptr %q)
  call void @h(ptr %p, ptr %q)
  ret void
}
"""

BYVAL_PHIS = """
%S = type { i8, i8, i8, i8, i8, i8, i8, i8 }
define internal i32 @f(ptr byval(%S) align 4 %p, i1 %c) {
entry:
  %g3 = getelementptr i8, ptr %p, i64 3
  %g4 = getelementptr i8, ptr %p, i64 4
  br i1 %c, label %a, label %b
a:
  store i8 1, ptr %g3, align 1
  store i8 2, ptr %g4, align 1
  br label %m
b:
  store i8 3, ptr %g3, align 1
  store i8 4, ptr %g4, align 1
  br label %m
m:
  %x = load i8, ptr %g3, align 1
  %y = load i8, ptr %g4, align 1
  %xx = zext i8 %x to i32
  %yy = zext i8 %y to i32
  %r = add i32 %xx, %yy
  ret i32 %r
}
define i32 @g(ptr %q, i1 %c) {
  %r = call i32 @f(ptr byval(%S) align 4 %q, i1 %c)
  ret i32 %r
}
"""

SRET_AND_RECURSION = """
declare void @use(i32)
define internal void @f(ptr %p, ptr sret(i32) %out) {
  %a = load i32, ptr %p, align 4
  store i32 %a, ptr %out
  ret void
}
define internal void @keeps_sret_gone(ptr sret(i32) %out, ptr %x) {
  store ptr %x, ptr %out
  ret void
}
define internal i32 @rec(ptr %p, i32 %n) {
entry:
  %v = load i32, ptr %p
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more
more:
  %m = sub i32 %n, 1
  %r = call i32 @rec(ptr %p, i32 %m)
  %s = add i32 %r, %v
  ret i32 %s
done:
  ret i32 %v
}
define internal ptr @recptr(ptr %p, i32 %n) {
  %v = load ptr, ptr %p
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more
more:
  %r = call ptr @recptr(ptr %p, i32 0)
  ret ptr %r
done:
  ret ptr %v
}
define i32 @g(ptr %q, ptr %o) {
  call void @f(ptr %q, ptr sret(i32) %o)
  call void @keeps_sret_gone(ptr sret(i32) %o, ptr %q)
  %r = call i32 @rec(ptr %q, i32 5)
  %x = call ptr @recptr(ptr %q, i32 3)
  ret i32 %r
}
"""

METADATA_DEBUG_INVOKE = """
declare void @use(i32)
declare i32 @__gxx_personality_v0(...)
define internal void @f(ptr %p, ptr %dead) {
  %v = load i32, ptr %p, align 4, !tbaa !0, !range !4, !noundef !5
  call void @use(i32 %v)
  ret void
}
define void @g(ptr %q) personality ptr @__gxx_personality_v0 {
  %d = getelementptr i8, ptr %q, i64 4
  call void @f(ptr %q, ptr %d), !dbg !10
  #dbg_value(i32 0, !14, !DIExpression(), !10)
  invoke void @f(ptr %q, ptr null) to label %ok unwind label %bad, !dbg !10
ok:
  ret void
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret void
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2}
!2 = !{!"tbaa root"}
!4 = !{i32 0, i32 10}
!5 = !{}
!llvm.module.flags = !{!20}
!llvm.dbg.cu = !{!11}
!20 = !{i32 2, !"Debug Info Version", i32 3}
!11 = distinct !DICompileUnit(language: DW_LANG_C99, file: !12, emissionKind: FullDebug)
!12 = !DIFile(filename: "a.c", directory: "/")
!13 = distinct !DISubprogram(name: "g", scope: !12, file: !12, line: 1, unit: !11, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !13)
!14 = !DILocalVariable(name: "x", scope: !13, file: !12, line: 2, type: !15)
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
"""

REFUSED = """
declare void @use(i32)
define i32 @external(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @vararg(ptr %p, ...) {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @address_taken(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @naked(ptr %p) naked {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @mt_callee(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define internal i32 @volatile(ptr %p) {
  %v = load volatile i32, ptr %p
  ret i32 %v
}
@fp = global ptr @address_taken
define i32 @g(ptr %q) {
  %a = call i32 @external(ptr %q)
  %b = call i32 (ptr, ...) @vararg(ptr %q, i32 1)
  %c = call i32 @address_taken(ptr %q)
  %d = call i32 @naked(ptr %q)
  %e = call i32 @volatile(ptr %q)
  %f = musttail call i32 @mt_callee(ptr %q)
  ret i32 %f
}
"""

X86_AVX512 = """
target triple = "x86_64-unknown-linux-gnu"
define internal void @callee512(ptr %out, ptr %in) #0 {
  %v = load <8 x i64>, ptr %in
  store <8 x i64> %v, ptr %out
  ret void
}
define void @caller256(ptr %out, ptr %in) #1 {
  call void @callee512(ptr %out, ptr %in)
  ret void
}
define internal void @callee_scalar(ptr %out, ptr %in) #0 {
  %v = load i64, ptr %in
  store i64 %v, ptr %out
  ret void
}
define void @caller256b(ptr %out, ptr %in) #1 {
  call void @callee_scalar(ptr %out, ptr %in)
  ret void
}
define internal void @callee_vec(ptr %out, ptr %in) #2 {
  %v = load <4 x i32>, ptr %in
  store <4 x i32> %v, ptr %out
  ret void
}
define void @caller_vec(ptr %out, ptr %in) #2 {
  call void @callee_vec(ptr %out, ptr %in)
  ret void
}
attributes #0 = { "target-features"="+avx512vl" "min-legal-vector-width"="512" "prefer-vector-width"="256" }
attributes #1 = { "target-features"="+avx512vl" "min-legal-vector-width"="256" "prefer-vector-width"="256" }
attributes #2 = { "min-legal-vector-width"="0" }
"""

X86_CPUS = """
target triple = "x86_64-unknown-linux-gnu"
define internal void @skx(ptr %o, ptr %i) #0 {
  %v = load <8 x i64>, ptr %i
  store <8 x i64> %v, ptr %o
  ret void
}
define void @skx_caller(ptr %o, ptr %i) #1 {
  call void @skx(ptr %o, ptr %i)
  ret void
}
define internal void @zen4(ptr %o, ptr %i) #2 {
  %v = load <8 x i64>, ptr %i
  store <8 x i64> %v, ptr %o
  ret void
}
define void @zen4_caller(ptr %o, ptr %i) #3 {
  call void @zen4(ptr %o, ptr %i)
  ret void
}
define internal void @phi_fp16(ptr %o, ptr %i) #4 {
  %v = load <8 x i64>, ptr %i
  store <8 x i64> %v, ptr %o
  ret void
}
define void @phi_fp16_caller(ptr %o, ptr %i) #5 {
  call void @phi_fp16(ptr %o, ptr %i)
  ret void
}
attributes #0 = { "target-cpu"="skylake-avx512" "min-legal-vector-width"="512" }
attributes #1 = { "target-cpu"="skylake-avx512" "min-legal-vector-width"="256" }
attributes #2 = { "target-cpu"="znver4" "min-legal-vector-width"="512" }
attributes #3 = { "target-cpu"="znver4" "min-legal-vector-width"="256" }
attributes #4 = { "target-cpu"="knl" "target-features"="+avx512fp16" "min-legal-vector-width"="512" "prefer-vector-width"="256" }
attributes #5 = { "target-cpu"="knl" "target-features"="+avx512fp16" "min-legal-vector-width"="256" "prefer-vector-width"="256" }
"""

BPF_LIMIT = """
target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
target triple = "bpf"
define internal i32 @f(ptr %a, ptr %b, i32 %c, i32 %d) {
  %x = load i32, ptr %a
  %g = getelementptr i32, ptr %a, i64 1
  %y = load i32, ptr %g
  %z = load i32, ptr %b
  %h = getelementptr i32, ptr %b, i64 1
  %w = load i32, ptr %h
  %s = add i32 %x, %y
  %t = add i32 %z, %w
  %u = add i32 %s, %t
  ret i32 %u
}
define i32 @g(ptr %a, ptr %b) {
  %r = call i32 @f(ptr %a, ptr %b, i32 1, i32 2)
  ret i32 %r
}
"""

# @spam's unused argument goes first: @hoge then no longer refers to @eggs and @barney,
# which LLVM's call graph still visits afterwards (their node stays in the graph).
DROPPED_REFERENCES = """
define void @zot() {
  call void @hoge()
  ret void
}
define internal void @hoge() {
  %t = call fastcc ptr @spam(ptr @eggs)
  %t1 = call fastcc ptr @spam(ptr @barney)
  unreachable
}
define internal fastcc ptr @spam(ptr %arg) {
  unreachable
}
define internal i1 @eggs(ptr %arg) {
  %t = call zeroext i1 @barney(ptr %arg)
  unreachable
}
define internal i1 @barney(ptr %arg) {
  ret i1 undef
}
"""


def test_functions_left_unreferenced_are_still_visited() -> None:
    out = _same(DROPPED_REFERENCES)
    assert "@eggs()" in out and "@barney()" in out


def test_loads_at_offsets_become_values() -> None:
    out = _same(OFFSETS)
    assert "define internal i32 @f(i32 %p.0.val, i32 %p.8.val)" in out


def test_at_most_two_parts() -> None:
    out = _same(TOO_MANY_PARTS)
    assert "@f(ptr %p)" in out


def test_conditional_load_needs_dereferenceable_callers() -> None:
    out = _same(CONDITIONAL)
    assert "@f(i32 %p.0.val" in out and "@f2(ptr %p" in out


def test_store_before_load_blocks_promotion_unless_noalias() -> None:
    out = _same(CLOBBER)
    assert "@f(ptr %p, ptr %q)" in out and "@h(i32 %p.0.val" in out


def test_byval_with_stores_is_promoted_to_phis() -> None:
    out = _same(BYVAL_PHIS)
    assert "phi i8" in out


def test_sret_becomes_noalias_and_recursion() -> None:
    out = _same(SRET_AND_RECURSION)
    assert "sret(" not in out.split("define i32 @g")[1]


def test_metadata_debug_records_and_invoke() -> None:
    out = _same(METADATA_DEBUG_INVOKE)
    assert "!noundef" in out and "invoke void @f(i32" in out


def test_refusals() -> None:
    out = _same(REFUSED)
    assert out.count("(ptr %p") >= 5


def test_x86_avx512_abi_compatibility() -> None:
    _same(X86_AVX512)


def test_x86_cpus_with_avx512() -> None:
    out = _same(X86_CPUS)
    assert "@skx(ptr %o, ptr %i)" in out and "@zen4(ptr %o, <8 x i64>" in out and "@phi_fp16(ptr %o, ptr %i)" in out


def test_bpf_argument_limit() -> None:
    _same(BPF_LIMIT)


@pytest.mark.parametrize("pipeline", ["argpromotion,argpromotion", "cgscc(argpromotion,function(sroa))"])
def test_in_pipelines(pipeline: str) -> None:
    _same(OFFSETS, pipeline)
    _same(SRET_AND_RECURSION, pipeline)


def test_pipeline_rejects_parameters() -> None:
    with pytest.raises(llvmpy_mid.errors.PipelineError):
        llvmpy_mid.run_passes(parse_assembly(OFFSETS), "argpromotion<max-elements=3>")


def test_debug_pass_manager_log() -> None:
    require_tools("opt-19")
    pipeline = "-passes=cgscc(argpromotion,function(gvn))"
    args = [pipeline, "-debug-pass-manager", "-disable-output", "-"]
    theirs = subprocess.run(["opt-19", *args], input=OFFSETS, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=OFFSETS, capture_output=True, text=True)
    assert "Clearing all analysis results for: \n" in theirs.stderr
    assert ours.stderr == theirs.stderr
