"""``debugify`` and ``check-debugify`` against opt-19: the printed module after
``-passes=debugify`` must be byte-identical, the result must verify, and
``check-debugify``'s report (stderr) must match opt-19's word for word."""

from __future__ import annotations

import io
import shutil
import subprocess
from contextlib import redirect_stderr

import pytest
from csmith_files import csmith_paths

from llvmpy_mid import verify_module
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.passes.run import run_passes

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")

LOOPS = """\
declare i32 @ext(i32)
declare void @v()

define i32 @loop(i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %s = phi i64 [ 0, %entry ], [ %s2, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %inc = add i32 %i, 1
  %z = zext i32 %i to i64
  %s2 = add i64 %s, %z
  store i32 %inc, ptr null
  call void @v()
  br label %header
exit:
  %r = call i32 @ext(i32 %i)
  ret i32 %r
}

define internal void @empty(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr null
  br label %b
b:
  ret void
}

define linkonce_odr i32 @odr() {
  %x = add i32 1, 2
  ret i32 %x
}

define float @tail(float %x, <4 x i32> %v, ptr %p, i1 %c) {
  %a = fadd float %x, 1.0
  %b = add <4 x i32> %v, %v
  %l = load ptr, ptr %p
  %q = alloca [3 x i8]
  %s = select i1 %c, {i8, i32} zeroinitializer, {i8, i32} zeroinitializer
  %t = musttail call float @tail(float %a, <4 x i32> %b, ptr %l, i1 %c)
  ret float %t
}

declare i64 @llvm.experimental.deoptimize.i64(...)
define i64 @deopt() {
  %x = add i64 1, 2
  %r = call i64(...) @llvm.experimental.deoptimize.i64(i64 %x) [ "deopt"() ]
  ret i64 %r
}
"""

EH = """\
declare i32 @__gxx_personality_v0(...)
declare i32 @thr()

define i32 @eh(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  %v = invoke i32 @thr() to label %ok unwind label %lp
ok:
  %w = add i32 %v, 1
  ret i32 %w
lp:
  %p = phi i32 [0, %entry]
  %lpad = landingpad { ptr, i32 } cleanup
  %e = extractvalue { ptr, i32 } %lpad, 0
  br label %after
after:
  %f = add i32 %p, 1
  br i1 %c, label %done, label %x
done:
  ret i32 %f
x:
  resume { ptr, i32 } %lpad
}

define void @wineh() personality ptr @__gxx_personality_v0 {
entry:
  invoke i32 @thr() to label %ok unwind label %cl
cl:
  %cp = cleanuppad within none []
  %q = add i32 1, 1
  cleanupret from %cp unwind to caller
ok:
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"wchar_size", i32 4}
"""

WITH_DEBUG_INFO = """\
define i32 @f(i32 %x) !dbg !5 {
  %a = add i32 %x, 1, !dbg !8
  ret i32 %a, !dbg !8
}
define i32 @g(i32 %x) {
  %a = add i32 %x, 1
  ret i32 %a
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
"""


def _opt(text: str, *args: str) -> tuple[str, str]:
    assert OPT is not None
    proc = subprocess.run([OPT, *args, "-"], input=text, capture_output=True, text=True, check=True)
    return proc.stdout, proc.stderr


def _ours(text: str, pipeline: str, options: dict[str, object] | None = None) -> tuple[str, str]:
    module = parse_assembly(text, name="<stdin>")
    err = io.StringIO()
    with redirect_stderr(err):
        run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    verify_module(module)
    return print_module(module), err.getvalue()


def _body(text: str) -> str:
    """The module text without the ``; ModuleID`` line."""
    return text.split("\n", 1)[1] if text.startswith("; ModuleID") else text


def _check_same(text: str, pipeline: str = "debugify", *opt_args: str, options: dict[str, object] | None = None) -> str:
    expected, expected_err = _opt(text, "-passes=" + pipeline, "-S", *opt_args)
    got, got_err = _ours(text, pipeline, options)
    assert _body(got) == _body(expected)
    assert got_err == expected_err
    return got


@needs_opt
@pytest.mark.parametrize("src", [LOOPS, EH], ids=["loops", "eh"])
def test_debugify_matches_opt(src: str) -> None:
    out = _check_same(src)
    assert "#dbg_value" in out and "!llvm.debugify" in out


@needs_opt
def test_debugify_skips_module_with_debug_info() -> None:
    _check_same(WITH_DEBUG_INFO)


@needs_opt
def test_debugify_twice_and_check() -> None:
    _check_same(LOOPS, "debugify,debugify,check-debugify")


@needs_opt
def test_debugify_locations_level() -> None:
    _check_same(LOOPS, "debugify", "-debugify-level=locations", options={"debugify-level": "locations"})


@needs_opt
def test_debugify_quiet() -> None:
    _check_same(WITH_DEBUG_INFO, "debugify", "-debugify-quiet", options={"debugify-quiet": True})


def _damage(text: str) -> str:
    """Drop some locations and records as a careless pass would, and mis-size one record."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if line.startswith("  %inc = add"):
            line = line.split(", !dbg")[0]
        elif line.startswith("  %i = phi"):
            line = line.split(", !dbg")[0]
        elif "#dbg_value(i64 %z" in line:
            continue
        elif "#dbg_value(ptr %l" in line:
            line = line.replace("ptr %l", "<2 x i32> zeroinitializer")
        elif "#dbg_value(<4 x i32> %b" in line:
            line = line.replace("<4 x i32> %b", "i16 7")
        out.append(line)
    return "\n".join(out) + "define void @added() {\n  %z = add i32 1, 1\n  ret void\n}\n"


@needs_opt
def test_check_debugify_reports_like_opt() -> None:
    debugified, _ = _opt(LOOPS, "-passes=debugify", "-S")
    # Intact: PASS and nothing else.
    _, err = _ours(debugified, "check-debugify")
    assert err == _opt(debugified, "-passes=check-debugify", "-S")[1] == "CheckModuleDebugify: PASS\n"
    damaged = _damage(debugified)
    got, got_err = _ours(damaged, "check-debugify")
    expected, expected_err = _opt(damaged, "-passes=check-debugify", "-S")
    assert got_err == expected_err
    assert "WARNING: Missing line" in got_err and "WARNING: Missing variable" in got_err
    assert "Instruction with empty DebugLoc in function added" in got_err
    assert _body(got) == _body(expected)
    # Without debugify metadata.
    assert _ours(LOOPS, "check-debugify")[1] == _opt(LOOPS, "-passes=check-debugify", "-S")[1]


@needs_opt
def test_check_debugify_error_on_missized_value() -> None:
    debugified, _ = _opt(LOOPS, "-passes=debugify", "-S")
    damaged = debugified.replace("#dbg_value(ptr %l", "#dbg_value(i32 7")
    damaged = damaged.replace("#dbg_value(float %a", "#dbg_value(double 0.0")
    _, got_err = _ours(damaged, "check-debugify")
    _, expected_err = _opt(damaged, "-passes=check-debugify", "-S")
    assert got_err == expected_err
    assert "ERROR: dbg.value operand has size 64, but its variable has size 32" in got_err
    assert got_err.endswith("CheckModuleDebugify: FAIL\n")


@needs_opt
def test_cli_log_and_stderr_match_opt() -> None:
    import sys

    args = ["-passes=debugify,check-debugify", "-disable-output", "-debug-pass-manager", "-"]
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=EH, capture_output=True, text=True)
    theirs = subprocess.run([str(OPT), *args], input=EH, capture_output=True, text=True)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout + ours.stderr == theirs.stdout + theirs.stderr


CSMITH = [str(p) for p in csmith_paths() if p.name.endswith((".O0.ll", ".O2.ll"))]


def _csmith_case(path: str) -> None:
    with open(path) as f:
        text = f.read()
    _check_same(text)
    debugified, _ = _opt(text, "-passes=debugify", "-S")
    assert _ours(debugified, "check-debugify")[1] == _opt(debugified, "-passes=check-debugify", "-S")[1]


@needs_opt
@pytest.mark.parametrize("path", CSMITH[:3], ids=lambda p: p.rsplit("/", 1)[-1])
def test_csmith_sample(path: str) -> None:
    _csmith_case(path)


@needs_opt
@pytest.mark.slow
@pytest.mark.parametrize("path", CSMITH[3:], ids=lambda p: p.rsplit("/", 1)[-1])
def test_csmith_all(path: str) -> None:
    _csmith_case(path)
