"""``deadargelim`` and ``deadarghaX0r`` against opt-19, byte for byte, on small modules
that each exercise one rule: dead arguments and return values of internal functions
(scalar, struct and array returns, partially live through ``extractvalue``, through
``insertvalue`` chains returned again, recursion), calls and invokes rebuilt (the
``invoke`` edge split for a repacked struct), dead varargs, ``musttail``, ``returned``,
``allocsize``, externally visible functions (poison for unread arguments, UB-implying
attributes dropped), the hacking mode, and debug info (``DW_CC_nocall``, records before
a rebuilt call). Expected texts are what opt-19 prints, made in the test; the tests skip
when opt-19 is not installed.
"""

from __future__ import annotations

import re
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


def _same(text: str, pipeline: str = "deadargelim") -> None:
    assert _body(_ours(text, pipeline)) == _body(_opt19(text, pipeline))


SCALAR = """
define internal i32 @f(i32 %dead, i32 %live, ptr %p) {
  store i32 %live, ptr %p
  ret i32 %live
}
define internal i32 @rec(i32 %a, i32 %b) {
  %r = call i32 @rec(i32 %a, i32 %b)
  ret i32 %b
}
define void @caller(ptr %p) {
  %x = call i32 @f(i32 1, i32 2, ptr %p)
  %y = tail call i32 @rec(i32 3, i32 4)
  ret void
}
"""

STRUCT = """
define internal { i32, i64, float } @f(i32 %a) {
  %s0 = insertvalue { i32, i64, float } poison, i32 %a, 0
  %s1 = insertvalue { i32, i64, float } %s0, i64 7, 1
  %s2 = insertvalue { i32, i64, float } %s1, float 1.0, 2
  ret { i32, i64, float } %s2
}
define internal [3 x i32] @g() {
  ret [3 x i32] [i32 1, i32 2, i32 3]
}
define i64 @caller() {
  %r = call { i32, i64, float } @f(i32 5)
  %e0 = extractvalue { i32, i64, float } %r, 0
  %e1 = extractvalue { i32, i64, float } %r, 1
  %z = zext i32 %e0 to i64
  %s = add i64 %z, %e1
  %a = call [3 x i32] @g()
  %a1 = extractvalue [3 x i32] %a, 1
  %w = zext i32 %a1 to i64
  %t = add i64 %s, %w
  ret i64 %t
}
"""

TWO_CALLS = """
define internal { i32, i32 } @f(i32 %a) {
  %s = insertvalue { i32, i32 } poison, i32 %a, 0
  ret { i32, i32 } %s
}
define i32 @caller() {
  %r1 = call { i32, i32 } @f(i32 1)
  %r2 = call { i32, i32 } @f(i32 2)
  %x = extractvalue { i32, i32 } %r1, 0
  %y = extractvalue { i32, i32 } %r2, 0
  %s = add i32 %x, %y
  ret i32 %s
}
"""

INVOKE = """
define internal { i32, i32 } @f() {
  ret { i32, i32 } { i32 1, i32 2 }
}
declare i32 @__gxx_personality_v0(...)
define i32 @caller() personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke { i32, i32 } @f() to label %ok unwind label %bad
ok:
  %p = phi { i32, i32 } [ %r, %entry ]
  %e = extractvalue { i32, i32 } %p, 1
  ret i32 %e
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 0
}
"""

VARARGS = """
define internal i32 @va(i32 %a, ...) {
  ret i32 %a
}
define internal void @va_start_user(...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  ret void
}
declare void @llvm.va_start.p0(ptr)
define i32 @caller() {
  %r = call i32 (i32, ...) @va(i32 1, i32 noundef 2, double 3.0)
  call void (...) @va_start_user(i32 5)
  ret i32 %r
}
"""

MUSTTAIL = """
define internal i32 @callee(i32 %a, i32 %b) {
  ret i32 %a
}
define internal i32 @caller(i32 %a, i32 %b) {
  %r = musttail call i32 @callee(i32 %a, i32 %b)
  ret i32 %r
}
define i32 @top() {
  %r = call i32 @caller(i32 1, i32 2)
  ret i32 %r
}
"""

RETURNED = """
define internal ptr @f(ptr returned %p, i32 %dead) {
  ret ptr %p
}
define internal noundef i32 @g(ptr %p, i64 %n) allocsize(1) {
  ret i32 0
}
define void @caller(ptr %p) {
  %r = call ptr @f(ptr returned %p, i32 1)
  %s = call noundef i32 @g(ptr %p, i64 4) allocsize(1)
  ret void
}
"""

EXTERNAL = """
define i32 @ext(i32 noundef %dead, ptr dereferenceable(4) %d2, i32 %live, ptr byval(i32) %bv) {
  ret i32 %live
}
define linkonce_odr i32 @odr(i32 noundef %dead) {
  ret i32 0
}
define i32 @caller(ptr %p) {
  %a = call i32 @ext(i32 noundef 1, ptr dereferenceable(4) %p, i32 2, ptr byval(i32) %p)
  %b = call i32 @odr(i32 noundef 3)
  %c = add i32 %a, %b
  ret i32 %c
}
"""

ADDRESS_TAKEN = """
@fp = global ptr @taken
define internal i32 @taken(i32 %dead) {
  ret i32 0
}
define internal i32 @naked_fn(i32 %dead) naked {
  ret i32 0
}
define i32 @caller() {
  %a = call i32 @taken(i32 1)
  %b = call i32 @naked_fn(i32 2)
  %c = add i32 %a, %b
  ret i32 %c
}
"""

DEBUG = """
define internal i32 @f(i32 %dead, i32 %live) !dbg !5 {
    #dbg_value(i32 %dead, !9, !DIExpression(), !10)
  ret i32 %live, !dbg !10
}
define void @caller() !dbg !11 {
  %x = add i32 1, 2
    #dbg_value(i32 %x, !9, !DIExpression(), !12)
  %r = call i32 @f(i32 %x, i32 4), !dbg !12
  ret void, !dbg !12
}
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, emissionKind: FullDebug)
!2 = !DIFile(filename: "a.c", directory: "/")
!5 = distinct !DISubprogram(name: "f", scope: !2, file: !2, line: 1, type: !6, unit: !1, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{!8, !8, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "d", arg: 1, scope: !5, file: !2, line: 1, type: !8)
!10 = !DILocation(line: 1, scope: !5)
!11 = distinct !DISubprogram(name: "caller", scope: !2, file: !2, line: 2, type: !6, unit: !1, spFlags: DISPFlagDefinition)
!12 = !DILocation(line: 2, scope: !11)
"""


@pytest.mark.parametrize(
    "text",
    [SCALAR, STRUCT, TWO_CALLS, INVOKE, VARARGS, MUSTTAIL, RETURNED, EXTERNAL, ADDRESS_TAKEN, DEBUG],
    ids=["scalar", "struct", "two-calls", "invoke", "varargs", "musttail", "returned", "external", "address-taken", "debug"],
)
def test_rules_like_opt19(text: str) -> None:
    _same(text)


def _internalize(text: str) -> str:
    return re.sub(r"^define (linkonce_odr |internal )?", "define internal ", text, flags=re.M)


@pytest.mark.parametrize("text", [SCALAR, EXTERNAL, RETURNED], ids=["scalar", "external", "returned"])
def test_hacking_mode_treats_every_function_as_internal(text: str) -> None:
    """opt-19 no longer registers deadarghaX0r: its result on a module must be
    opt-19's deadargelim result on the same module with every definition internal."""
    assert _body(_internalize(_ours(text, "deadarghaX0r"))) == _body(_opt19(_internalize(text), "deadargelim"))


def test_hacking_mode_removes_external_arguments() -> None:
    out = _ours(EXTERNAL, "deadarghaX0r")
    assert "define i32 @ext(i32 %live)" in out


def test_struct_return_keeps_only_used_elements() -> None:
    out = _ours(STRUCT, "deadargelim")
    assert "define internal { i32, i64 } @f(i32 %a)" in out
    assert "define internal i32 @g()" in out


def test_nothing_dead_keeps_module() -> None:
    text = "define internal i32 @f(i32 %a) {\n  ret i32 %a\n}\ndefine i32 @g() {\n  %r = call i32 @f(i32 1)\n  ret i32 %r\n}\n"
    assert _body(_ours(text, "deadargelim")) == _body(str(parse_assembly(text)))
