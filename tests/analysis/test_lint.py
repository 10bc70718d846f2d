"""``lint`` against opt-19: the text ``-passes=lint`` writes to stderr, byte for byte, on
hand-made modules covering each check, LLVM's Lint tests and csmith files."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths

from llvmpy_mid.analysis.lint import LintPass, lint_function
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction
from llvmpy_mid.passes.registry import REGISTRY
from oracles import LLVM_TEST_ROOT  # noqa: E402

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")
CSMITH = [str(p) for p in csmith_paths()]
CONFORMANCE = LLVM_TEST_ROOT / "Analysis/Lint"
DL = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'


def _opt(path: Path) -> str:
    assert OPT is not None
    proc = subprocess.run([OPT, "-disable-output", "-passes=lint", str(path)], capture_output=True, text=True, check=True)
    return "".join(line for line in proc.stderr.splitlines(keepends=True) if not line.startswith("warning:"))


def _ours(text: str) -> str:
    module = parse_assembly(text)
    return "".join(lint_function(fn) for fn in module.functions)


def _check(text: str, path: Path) -> str:
    path.write_text(text)
    expected = _opt(path)
    assert _ours(text) == expected
    return expected


HAND_MADE: dict[str, str] = {
    "memory": DL + """
@g = global i32 0, align 4
@c = constant i32 1
@arr = global [4 x i32] zeroinitializer, align 16
@ext = external global i32
@wk = weak global i32 0
%S = type { i32, i64 }
@gs = global %S zeroinitializer
define void @f(ptr %p) {
  %v = load i32, ptr null
  store i32 1, ptr undef
  store i32 1, ptr @c
  store i32 1, ptr @f
  %l = load i32, ptr @f
  %q = getelementptr i32, ptr @arr, i64 4
  %l2 = load i32, ptr %q
  %l3 = load i64, ptr @g
  %l4 = load i32, ptr @g, align 8
  %l5 = load i32, ptr inttoptr (i64 -1 to ptr)
  %l6 = load i32, ptr inttoptr (i64 1 to ptr)
  %l7 = load i32, ptr getelementptr (i8, ptr @g, i64 -1)
  store i32 0, ptr getelementptr (%S, ptr @gs, i32 0, i32 1)
  store i32 0, ptr @ext, align 16
  store i32 0, ptr @wk, align 16
  %x = cmpxchg ptr null, i32 0, i32 1 seq_cst seq_cst
  %y = atomicrmw add ptr @c, i32 1 seq_cst
  %va = va_arg ptr null, i32
  ret void
}
""",
    "arithmetic": """
define i32 @f(i32 %x, i1 %c) {
  %s = shl i32 %x, 32
  %s2 = lshr i32 %x, 40
  %s3 = ashr i32 %x, 31
  %xx = xor i32 undef, undef
  %ss = sub i32 undef, undef
  %d = udiv i32 %x, 0
  %z = and i32 %x, 0
  %d2 = srem i32 %x, %z
  %sh = shl i32 %x, %z
  %zz = zext i1 %c to i32
  %m = shl i32 %zz, 1
  %y = and i32 %m, 1
  %d3 = udiv i32 %x, %y
  %d4 = sdiv i32 %x, undef
  %d5 = urem <2 x i32> <i32 1, i32 2>, <i32 1, i32 undef>
  %e = extractelement <4 x i32> zeroinitializer, i32 7
  %ie = insertelement <4 x i32> zeroinitializer, i32 1, i32 9
  ret i32 0
}
""",
    "calls": DL + """
%S = type { i32, i64 }
@g = global [4 x i32] zeroinitializer, align 4
declare void @foo(i32)
declare fastcc void @bar()
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare void @sr(ptr sret(%S))
declare ptr @retp(ptr returned)
declare void @use(ptr)
declare void @na(ptr noalias, ptr)
define void @v(...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr null)
  ret void
}
define void @f(ptr %p) {
  %a = alloca [2 x i64], align 8
  %b = alloca i32, align 4
  call void @foo(i32 1, i32 2)
  call void @foo(i64 1)
  call i32 @foo(i32 1)
  call void @bar()
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %a, ptr @g, i64 32, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %a, i64 4, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr null, ptr undef, i64 4, i1 false)
  call void @llvm.memset.p0.i64(ptr %b, i8 0, i64 8, i1 false)
  call void @llvm.memset.p0.i64(ptr null, i8 0, i64 0, i1 false)
  call void @sr(ptr sret(%S) %b)
  call void null()
  %q = call ptr @retp(ptr null)
  store i32 0, ptr %q
  tail call void @use(ptr %b)
  %g1 = getelementptr i8, ptr %p, i64 8
  %g2 = getelementptr i8, ptr %p, i64 8
  call void @na(ptr %g1, ptr %g2)
  call void @na(ptr %p, ptr null)
  ret void
}
""",
    "tracing_values": DL + """
define void @f(i1 %c, ptr %p) {
entry:
  %b = alloca i64, align 8
  store ptr null, ptr %b
  %ld = load ptr, ptr %b
  store i32 0, ptr %ld
  %sel = select i1 %c, ptr null, ptr null
  store i32 0, ptr %sel
  %i2p = inttoptr i64 -1 to ptr
  %ll = load i8, ptr %i2p
  %agg = insertvalue {ptr, i32} undef, ptr null, 0
  %ev = extractvalue {ptr, i32} %agg, 0
  %l3 = load i8, ptr %ev
  store ptr undef, ptr %p
  br label %next
next:
  %ph = phi ptr [ null, %entry ]
  %l4 = load i8, ptr %ph
  %fw = load ptr, ptr %p
  store i8 0, ptr %fw
  %r = getelementptr i8, ptr %b, i64 2
  %l5 = load i16, ptr %r, align 4
  %l6 = load i16, ptr %r, align 2
  ret void
}
""",
    "control": """
declare void @use(ptr)
define ptr @r(i1 %c) {
  %a = alloca i32
  %g = getelementptr i8, ptr %a, i64 1
  br i1 %c, label %x, label %y
x:
  ret ptr %g
y:
  %a2 = alloca i32, align 4
  store i32 1, ptr %a
  call void @use(ptr %a)
  unreachable
}
define void @u() {
  unreachable
}
define void @u2() {
  %x = add i32 1, 2
  unreachable
}
define void @nr() noreturn {
  ret void
}
define void @ib() {
  indirectbr ptr null, []
}
define void @ib2() {
  indirectbr ptr @ib2, [label %x]
x:
  ret void
}
define void @0() {
  ret void
}
define internal void @1() {
  ret void
}
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_hand_made(name: str, tmp_path: Path) -> None:
    assert _check(HAND_MADE[name], tmp_path / (name + ".ll"))  # every module has findings


@needs_opt
@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason="no conformance tests")
@pytest.mark.parametrize("name", ["check-zero-divide.ll", "noalias-readonly.ll"])
def test_llvm_tests(name: str, tmp_path: Path) -> None:
    _check((CONFORMANCE / name).read_text(), tmp_path / name)


def test_pass_writes_to_stream_and_is_registered() -> None:
    module = parse_assembly("define i32 @f(i32 %a) {\n  %b = sdiv i32 %a, 0\n  ret i32 %b\n}\n")
    out = io.StringIO()
    fn = next(iter(module.functions))
    LintPass(out).run(fn, AnalysisManager(AllAnalysesOnFunction))
    assert out.getvalue() == "Undefined behavior: Division by zero\n  %b = sdiv i32 %a, 0\n"
    assert REGISTRY.lookup("lint", "function") is not None


def _csmith_case(path: str, tmp_path: Path) -> None:
    _check(Path(path).read_text(), tmp_path / Path(path).name)


@needs_opt
@pytest.mark.skipif(not CSMITH, reason="no csmith corpus")
@pytest.mark.parametrize("path", CSMITH[:: max(1, len(CSMITH) // 3)][:3])
def test_csmith_sample(path: str, tmp_path: Path) -> None:
    _csmith_case(path, tmp_path)


@pytest.mark.slow
@needs_opt
@pytest.mark.skipif(not CSMITH, reason="no csmith corpus")
@pytest.mark.parametrize("path", CSMITH)
def test_csmith_all(path: str, tmp_path: Path) -> None:
    _csmith_case(path, tmp_path)
