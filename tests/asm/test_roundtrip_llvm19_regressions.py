"""Round-trip regressions found on LLVM 19.1.7's own tests: each case is a minimal input that once
printed differently from ``opt-19 -S``; the test parses and prints it and compares with opt-19's
output for the same file (the ``; ModuleID`` line aside)."""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path

import pytest
from oracles import require_tools

import llvmpy_mid

CASES: dict[str, str] = {
    # LLVM's reader drops debug info the verifier finds broken (here a !dbg location whose
    # subprogram is not the function's), warning instead of failing.
    "broken-debug-info-stripped": """
define void @f(ptr %p) !dbg !4 {
  ret void, !dbg !7
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, unit: !0)
!7 = !DILocation(line: 2, scope: !8)
!8 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 1, unit: !0)
""",
    # Undeclared intrinsics are declared in the order of the names written (LLVM's sorted map of
    # forward references), each under the name its call's types mangle to.
    "implicit-intrinsic-declarations": """
define void @f(float %a, double %b, ptr %p) {
  %r0 = call float @llvm.rint.i32.f32(float %a)
  %r1 = call double @llvm.rint.f64.f64(double %b)
  %r2 = call i32 @llvm.lrint.i32.f32(float %a)
  %r3 = call i64 @llvm.llrint.i64.f64(double %b)
  call void @llvm.coro.await.suspend.void(ptr %p, ptr %p, ptr %p)
  call void (i1, ...) @llvm.experimental.guard(i1 true) [ "deopt"() ]
  ret void
}
""",
    # An intrinsic declared to return a named struct gets the literal struct (calls rebuilt field
    # by field), then its typed-pointer name is remangled.
    "named-struct-return-intrinsic": """
%pair = type { <8 x i8>, <8 x i8> }

declare %pair @llvm.aarch64.neon.ld2.v8i8.p0i8(i8*)

define %pair @f(i8* %a) {
  %v = call %pair @llvm.aarch64.neon.ld2.v8i8.p0i8(i8* %a)
  ret %pair %v
}
""",
    # A gc.relocate call ends with a comment naming the base and derived pointers it relocates
    # (from the statepoint's gc-live bundle, or undef for an undef token), after its attachments.
    "gc-relocate-comment": """
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @g()

define ptr addrspace(1) @f(ptr addrspace(1) %a, ptr addrspace(1) %b) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @g, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) null) ]
  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 1), !foo !0
  %n = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 2, i32 2)
  %u = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token undef, i32 0, i32 0)
  ret ptr addrspace(1) %r
}

!0 = !{}
""",
    # `splat` of a scalable vector: zeroinitializer, undef (also for poison) or LLVM's
    # shufflevector-of-insertelement expression.
    "scalable-splat": """
define <vscale x 4 x i32> @f(<vscale x 4 x i32> %x) {
  %a = add <vscale x 4 x i32> %x, splat (i32 1)
  %b = add <vscale x 4 x i32> %a, splat (i32 0)
  %c = fadd <vscale x 2 x float> zeroinitializer, splat (float 1.0)
  %d = add <vscale x 4 x i32> %x, splat (i32 poison)
  %e = and <vscale x 1 x i32> zeroinitializer, bitcast (<vscale x 2 x i16> splat (i16 -1) to <vscale x 1 x i32>)
  ret <vscale x 4 x i32> %b
}
""",
    # Bitcast folding as LLVM's FoldBitCast: to a vector only all-ones folds and a scalar becomes
    # a one-lane vector first; same-length vectors fold lane by lane; vector -> scalar stays.
    "bitcast-folds": """
@a = global i64 bitcast (<2 x float> bitcast (i64 -1 to <2 x float>) to i64)
@c = global i64 bitcast (<2 x float> <float 1.0, float 2.0> to i64)
@d = global <2 x i32> bitcast (i64 7 to <2 x i32>)
@f = global i64 bitcast (<2 x i32> bitcast (i64 7 to <2 x i32>) to i64)
@g = global <2 x i32> bitcast (<2 x float> <float 1.0, float 2.0> to <2 x i32>)
@h = global <1 x i64> bitcast (i64 7 to <1 x i64>)
@i = global double bitcast (<1 x i64> <i64 7> to double)
@j = global <4 x i16> bitcast (<2 x i32> <i32 -1, i32 -1> to <4 x i16>)
""",
    # Intrinsics declared in an older argument form are upgraded with their calls, as LLVM's
    # UpgradeIntrinsicFunction/UpgradeIntrinsicCall do.
    "old-intrinsic-argument-forms": """
@a = global [8 x i8] zeroinitializer

declare i32 @llvm.ctlz.i32(i32) nounwind readnone
declare <2 x i64> @llvm.cttz.v2i64(<2 x i64>)
declare i64 @llvm.objectsize.i64(ptr, i1)
declare i32 @llvm.objectsize.i32.p0(ptr, i1, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i32, i1)
declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i32, i1)
declare void @llvm.var.annotation(ptr, ptr, ptr, i32)
declare void @llvm.stackprotectorcheck(ptr)

define i32 @f(i32 %x, <2 x i64> %v, ptr %p, ptr %q) !dbg !4 {
  %c = call i32 @llvm.ctlz.i32(i32 %x), !dbg !5
  %t = tail call <2 x i64> @llvm.cttz.v2i64(<2 x i64> %v)
  %s = call i64 @llvm.objectsize.i64(ptr @a, i1 false)
  %s2 = call i32 @llvm.objectsize.i32.p0(ptr %p, i1 true, i1 true)
  call void @llvm.memset.p0.i64(ptr nonnull %p, i8 0, i64 8, i32 4, i1 false)
  call void @llvm.memcpy.p0.p0.i32(ptr align 2 %p, ptr %q, i32 8, i32 0, i1 true)
  call void @llvm.var.annotation(ptr %p, ptr %q, ptr %q, i32 1)
  call void @llvm.stackprotectorcheck(ptr %p)
  ret i32 %c
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, unit: !0)
!5 = !DILocation(line: 2, scope: !4)
""",
    # A quoted label is a name even when it is all digits ("2": is %"2", not block 2), and
    # `$N:` is a label.
    "quoted-numeric-labels": """
define i32 @f(i32 %X) {
  %1 = alloca i32
  br label %2
  br label %3
3:
  br label %"2"
"2":
  %"5" = add i32 1, 1
  br label %$N
$N:
  %4 = add i32 %"5", 1
  ret i32 %4
}
""",
    # DWARF enumeration fields written as numbers print by name when LLVM knows one.
    "numeric-dwarf-enums": """
!named = !{!0, !3, !4, !5}
!0 = distinct !DICompileUnit(language: 12, file: !1, emissionKind: 2, nameTableKind: 1)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !DICompositeType(tag: DW_TAG_structure_type, runtimeLang: 6)
!4 = !DISubroutineType(cc: 3, types: null)
!5 = !DIBasicType(tag: 36, name: "x", size: 8, encoding: 16)
""",
    # opt-19 gives a module with a target triple but no data layout the target's layout; an
    # unwritten address space of a global or alloca stays 0 even when that layout says G1/A5.
    "datalayout-from-triple-amdgcn": """
target triple = "amdgcn-amd-amdhsa"

@g = global i32 0

define ptr @f() {
  %a = alloca i32
  store i32 1, ptr %a
  ret ptr @g
}
""",
    "datalayout-from-triple-thumb-ios": 'target triple = "thumbv7-apple-ios7.0.0"\n',
    "datalayout-from-triple-arm-eabi": 'target triple = "thumbv6m-none-eabi"\n',
    "datalayout-from-triple-arm64-iphoneos": 'target triple = "arm64-apple-iphoneos"\n',
    "datalayout-from-triple-nvptx64": 'target triple = "nvptx64-nvidia-cuda"\n',
    "datalayout-from-triple-wasm32": 'target triple = "wasm32-unknown-unknown"\n',
    "datalayout-from-triple-ppc64": 'target triple = "powerpc64-unknown-linux-gnu"\n',
    "datalayout-from-triple-sparc64": 'target triple = "sparc64-unknown-linux"\n',
    "explicit-layout-a5-g1": """
target datalayout = "A5-G1"

@g = global i32 0

define void @f() {
  %a = alloca i32
  %b = alloca i32, addrspace(5)
  ret void
}
""",
}


def _strip_module_id(text: str) -> str:
    return text.split("\n", 1)[1] if text.startswith("; ModuleID") else text


@pytest.mark.parametrize("name", sorted(CASES))
def test_prints_as_opt19(tmp_path: Path, name: str) -> None:
    require_tools("opt-19")
    src = tmp_path / (name + ".ll")
    src.write_text(CASES[name].lstrip("\n"))
    done = subprocess.run(["opt-19", "-S", str(src), "-o", "-"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = llvmpy_mid.print_module(llvmpy_mid.parse_file(src))
    assert _strip_module_id(ours) == _strip_module_id(done.stdout)


def test_broken_debug_info_warns() -> None:
    with pytest.warns(UserWarning, match="ignoring invalid debug info"):
        m = llvmpy_mid.parse_assembly(CASES["broken-debug-info-stripped"])
    assert m.get_function("f") is not None
    assert "!dbg" not in llvmpy_mid.print_module(m)
