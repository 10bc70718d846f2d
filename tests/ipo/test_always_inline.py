"""``always-inline`` against opt-19, byte for byte, on small modules that each exercise one
rule of the pass or of InlineFunction: pruning by constant arguments, merged returns (a phi
in ``<callee>.exit``), static allocas moved to the entry with lifetime markers, dynamic
allocas with stacksave/stackrestore, byval copies, invokes and landing pads, debug
locations with ``inlinedAt``, noalias scopes, return attributes, tail-call markers, dead
callee deletion (comdats), and viability (recursion, indirectbr). Expected texts are what
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


def _same(text: str, pipeline: str = "always-inline") -> None:
    assert _body(_ours(text, pipeline)) == _body(_opt19(text, pipeline))


CASES = {
    "prune_and_merge": """
define internal i32 @callee(i32 %x, ptr %p) alwaysinline {
entry:
  %a = alloca i32, align 4
  store i32 %x, ptr %a
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %then, label %else
then:
  %v = load i32, ptr %a
  %r = add i32 %v, 1
  ret i32 %r
else:
  %q = load i32, ptr %p
  ret i32 %q
}
define i32 @caller(i32 %y, ptr %p) {
entry:
  %r1 = call i32 @callee(i32 %y, ptr %p)
  %r2 = call i32 @callee(i32 5, ptr %p)
  %s = add i32 %r1, %r2
  ret i32 %s
}
""",
    "switch_and_phi": """
define linkonce_odr i32 @callee(i32 %x) alwaysinline {
entry:
  switch i32 %x, label %d [ i32 1, label %one
                            i32 2, label %two ]
one:
  br label %join
two:
  br label %join
d:
  br label %join
join:
  %p = phi i32 [ 10, %one ], [ 20, %two ], [ 30, %d ]
  ret i32 %p
}
define i32 @caller(i32 %y) {
  %a = call i32 @callee(i32 2)
  %b = call i32 @callee(i32 %y)
  %s = add i32 %a, %b
  ret i32 %s
}
""",
    "dynamic_alloca_and_loop": """
declare void @use(ptr)
define internal void @callee(i32 %n) alwaysinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %m = alloca i8, i32 %n
  call void @use(ptr %m)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
define void @caller(i32 %n) {
  call void @callee(i32 %n)
  ret void
}
""",
    "byval": """
%struct = type { i32, i64 }
declare void @use(ptr)
define internal void @callee(ptr byval(%struct) align 8 %s) alwaysinline {
  store i32 1, ptr %s
  call void @use(ptr %s)
  ret void
}
define internal i32 @reader(ptr byval(%struct) %s) alwaysinline memory(read) {
  %v = load i32, ptr %s
  ret i32 %v
}
define i32 @caller(ptr %p) {
  call void @callee(ptr byval(%struct) align 8 %p)
  %v = call i32 @reader(ptr byval(%struct) %p)
  ret i32 %v
}
""",
    "invoke_landingpad": """
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
define internal void @callee() alwaysinline personality ptr @__gxx_personality_v0 {
entry:
  call void @may_throw()
  invoke void @may_throw() to label %cont unwind label %lpad
cont:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
define void @caller(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @callee() to label %ok unwind label %outer
ok:
  ret void
outer:
  %x = phi i32 [ 7, %entry ]
  %lp = landingpad { ptr, i32 } catch ptr null
  ret void
}
""",
    "noalias_scopes": """
declare void @ext(ptr)
define internal void @callee(ptr noalias %a, ptr %b) alwaysinline {
  %v = load i32, ptr %b, align 4
  store i32 %v, ptr %a, align 4
  call void @ext(ptr %a)
  ret void
}
define void @caller(ptr %x, ptr %y) {
  call void @callee(ptr noalias %x, ptr %y)
  call void @callee(ptr %x, ptr %y)
  ret void
}
""",
    "return_attributes_and_tail": """
declare ptr @get(ptr)
define internal ptr @callee(ptr %p) alwaysinline {
  %r = tail call ptr @get(ptr %p)
  ret ptr %r
}
define ptr @caller(ptr %p) {
  %r = notail call nonnull dereferenceable(8) ptr @callee(ptr readonly %p) nounwind
  ret ptr %r
}
""",
    "not_viable": """
define void @rec(i32 %n) alwaysinline {
  call void @rec(i32 %n)
  ret void
}
define internal void @ib(ptr %t) alwaysinline {
  indirectbr ptr %t, [label %a]
a:
  ret void
}
define void @caller(ptr %t) {
  call void @rec(i32 1)
  call void @ib(ptr %t)
  call void @ni() noinline
  ret void
}
define internal void @ni() alwaysinline {
  ret void
}
""",
    "comdat": """
$c = comdat any
define linkonce_odr void @f() alwaysinline comdat($c) {
  ret void
}
define void @caller() {
  call void @f()
  ret void
}
""",
    "debug_locations": """
define internal i32 @callee(i32 %x) alwaysinline !dbg !10 {
  %y = add i32 %x, 1, !dbg !12
  ret i32 %y, !dbg !12
}
define i32 @caller(i32 %x) !dbg !5 {
  %r = call i32 @callee(i32 %x), !dbg !8
  %s = call i32 @callee(i32 %r), !dbg !9
  ret i32 %s, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 3, column: 3, scope: !5)
!10 = distinct !DISubprogram(name: "callee", scope: !1, file: !1, line: 9, type: !6, unit: !0)
!12 = !DILocation(line: 10, column: 5, scope: !10)
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_always_inline_matches_opt19(name: str) -> None:
    _same(CASES[name])


def test_attribute_merge_on_inlining() -> None:
    _same(
        """
define internal void @callee() alwaysinline sspstrong "probe-stack"="inline-asm" "min-legal-vector-width"="512" {
  ret void
}
define void @caller() ssp "min-legal-vector-width"="128" "no-nans-fp-math"="true" {
  call void @callee()
  ret void
}
"""
    )

MORE_CASES = {
    "assignment_tracking": """
define internal void @callee(i32 %v) alwaysinline !dbg !10 {
  %a = alloca i32, align 4, !DIAssignID !20
  #dbg_assign(i1 undef, !11, !DIExpression(), !20, ptr %a, !DIExpression(), !12)
  store i32 %v, ptr %a, align 4, !DIAssignID !21
  #dbg_assign(i32 %v, !11, !DIExpression(), !21, ptr %a, !DIExpression(), !12)
  call void @use(ptr %a), !dbg !12
  ret void, !dbg !12
}
declare void @use(ptr)
define void @caller(i32 %x) !dbg !5 {
  call void @callee(i32 %x), !dbg !8
  call void @callee(i32 1), !dbg !9
  ret void, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!5 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 3, column: 3, scope: !5)
!10 = distinct !DISubprogram(name: "callee", scope: !1, file: !1, line: 9, type: !6, unit: !0, retainedNodes: !13)
!11 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 9, type: !14)
!12 = !DILocation(line: 10, column: 5, scope: !10)
!13 = !{!11}
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = distinct !DIAssignID()
!21 = distinct !DIAssignID()
""",
    "callee_return_attributes": """
declare ptr @get(ptr)
declare i32 @geti()
define internal nonnull dereferenceable(16) ptr @callee(ptr %p) alwaysinline {
  %r = call ptr @get(ptr %p)
  ret ptr %r
}
define internal noundef range(i32 0, 10) i32 @callee2() alwaysinline {
  %r = call range(i32 5, 20) i32 @geti()
  ret i32 %r
}
define ptr @caller(ptr %p) {
  %r = call ptr @callee(ptr %p)
  %v = call i32 @callee2()
  ret ptr %r
}
""",
    "strictfp_caller": """
define internal float @callee(float %a, float %b) alwaysinline {
  %s = fadd float %a, %b
  %c = fcmp olt float %s, %a
  %r = select i1 %c, float %s, float %b
  %t = call float @llvm.ceil.f32(float %r)
  ret float %t
}
declare float @llvm.ceil.f32(float)
define float @caller(float %x) strictfp {
  %r = call float @callee(float %x, float 1.0) strictfp
  ret float %r
}
""",
    "musttail_and_varargs": """
declare i32 @target(i32, ...)
define internal i32 @fwd(i32 %x, ...) alwaysinline {
  %r = musttail call i32 (i32, ...) @target(i32 %x, ...)
  ret i32 %r
}
define i32 @caller(i32 %a) {
  %r = call i32 (i32, ...) @fwd(i32 %a, i32 7, double 1.0)
  ret i32 %r
}
define i32 @caller2(i32 %a, ...) {
  %r = musttail call i32 (i32, ...) @fwd(i32 %a, ...)
  ret i32 %r
}
""",
    "deoptimize": """
declare i8 @llvm.experimental.deoptimize.i8(...)
define internal i8 @callee(i1 %c) alwaysinline {
  br i1 %c, label %deopt, label %ok
deopt:
  %v = call i8 (...) @llvm.experimental.deoptimize.i8(i32 1) [ "deopt"(i32 2) ]
  ret i8 %v
ok:
  ret i8 3
}
define i32 @caller(i1 %c) {
  %v = call i8 @callee(i1 %c) [ "deopt"(i32 9) ]
  %w = zext i8 %v to i32
  ret i32 %w
}
""",
    "sample_profile_scaling": """
declare void @ext()
define internal void @callee() alwaysinline !prof !14 {
  call void @ext(), !prof !15
  ret void
}
define void @caller() {
  call void @callee(), !prof !16
  ret void
}
!llvm.module.flags = !{!1}
!1 = !{i32 1, !"ProfileSummary", !2}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{!"ProfileFormat", !"SampleProfile"}
!4 = !{!"TotalCount", i64 10000}
!5 = !{!"MaxCount", i64 10}
!6 = !{!"MaxInternalCount", i64 1}
!7 = !{!"MaxFunctionCount", i64 2000}
!8 = !{!"NumCounts", i64 2}
!9 = !{!"NumFunctions", i64 2}
!10 = !{!"DetailedSummary", !11}
!11 = !{!12, !13, !17}
!12 = !{i32 10000, i64 100, i32 1}
!13 = !{i32 999000, i64 100, i32 1}
!17 = !{i32 999999, i64 1, i32 2}
!14 = !{!"function_entry_count", i64 1000}
!15 = !{!"branch_weights", i32 2000}
!16 = !{!"branch_weights", i32 400}
""",
    "memprof": """
declare ptr @_Znam(i64)
define internal ptr @callee() alwaysinline {
  %p = call ptr @_Znam(i64 10), !memprof !0, !callsite !5
  ret ptr %p
}
define ptr @caller() {
  %p = call ptr @callee(), !callsite !6
  ret ptr %p
}
!0 = !{!1, !3}
!1 = !{!2, !"notcold"}
!2 = !{i64 1, i64 2, i64 3}
!3 = !{!4, !"cold"}
!4 = !{i64 1, i64 2, i64 4}
!5 = !{i64 1}
!6 = !{i64 2, i64 3}
""",
}


@pytest.mark.parametrize("name", sorted(MORE_CASES))
def test_always_inline_special_calls_match_opt19(name: str) -> None:
    _same(MORE_CASES[name])
