"""The inliner's satellites against opt-19: the ``verify<...>`` analysis verifiers, remark
hotness (``-pass-remarks-with-hotness``, ``-pass-remarks-hotness-threshold``, YAML ``Hotness``),
the replay inline advisor (``-cgscc-inline-replay*``) and the module inliner's priority modes
(``-inline-priority-mode``).

Each test runs ``llvmpy-opt`` and ``opt-19`` on the same small module with the same flags and
compares what they print (IR, remarks, the remarks file, the pass-manager log); they skip when
opt-19 is not installed.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import REPO_ROOT, require_tools  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.asm import parse_assembly  # noqa: E402
from llvmpy_mid.errors import PipelineError  # noqa: E402


def _run(tool: list[str], args: list[str], text: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([*tool, *args], input=text, capture_output=True, text=True, cwd=cwd, env=env)


class _Out(io.StringIO):
    """A standard output with the ``buffer`` the command line writes bytes to."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()

    def text(self) -> str:
        return self.getvalue() + self.buffer.getvalue().decode("utf-8", "surrogateescape")


def _ours(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    """``llvmpy-opt args < text`` in this process (no interpreter start-up per call)."""
    from llvmpy_mid.cli import main

    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = _Out(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()))
    sys.stdout, sys.stderr = out, err
    try:
        code = main(args)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return subprocess.CompletedProcess(args, code, out.text(), err.getvalue())


def _both(args: list[str], text: str, tmp_path: Path, files: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """stdout, stderr and the named output files of opt-19 and of ours (the file names in ``args``
    are written as ``{out}/name``)."""
    require_tools("opt-19")
    results: list[list[str]] = []
    for who in ("opt", "ours"):
        out = tmp_path / who
        out.mkdir()
        argv = [a.replace("{out}", str(out)) for a in args]
        r = _run(["opt-19"], argv, text, tmp_path) if who == "opt" else _ours(argv, text)
        texts = [str(r.returncode), r.stdout, r.stderr.replace("opt-19", "TOOL").replace("llvmpy-opt", "TOOL")]
        texts += [(out / f).read_text() if (out / f).exists() else "<none>" for f in files]
        results.append(texts)
    return results[0], results[1]


# --- verify<...> ---------------------------------------------------------------------------

LOOP = """
define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %i1
}
"""


@pytest.mark.parametrize("passes", [
    "function(verify<loops>,verify<regions>)",
    "function(require<domtree>,verify<domtree>,simplifycfg,verify<domtree>)",
])
def test_verify_passes_log_like_opt19(passes: str, tmp_path: Path) -> None:
    opt, ours = _both(["-passes=" + passes, "-debug-pass-manager", "-disable-output"], LOOP, tmp_path)
    assert ours == opt


def test_verify_domtree_catches_a_stale_tree() -> None:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.passes.analysis import AnalysisManager
    from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
    from llvmpy_mid.passes.verify_analyses import AnalysisVerificationError, DominatorTreeVerifierPass

    module = parse_assembly("""
define void @f(i1 %c) {
entry:
  br i1 %c, label %a, label %m
a:
  br label %m
m:
  ret void
}
""")
    fn = module.get_function("f")
    assert isinstance(fn, Function)
    fam: AnalysisManager[Function] = AnalysisManager()
    fam.register(DominatorTreeAnalysis())
    DominatorTreeVerifierPass().run(fn, fam)  # fresh: fine
    llvmpy_mid.run_passes(module, "function(break-crit-edges)")  # a new block behind the cached tree's back
    with pytest.raises(AnalysisVerificationError):
        DominatorTreeVerifierPass().run(fn, fam)


# --- remark hotness -------------------------------------------------------------------------

HOT = """
define i32 @small(i32 %a) !prof !0 {
  %b = add i32 %a, 1
  ret i32 %b
}
define i32 @never(i32 %a) noinline !prof !0 {
  ret i32 %a
}
declare i32 @ext(i32)
define i32 @caller(i32 %n) !prof !1 {
entry:
  %x = call i32 @small(i32 %n)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %y = call i32 @never(i32 %i)
  %z = call i32 @ext(i32 %y)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit, !prof !2
exit:
  ret i32 %x
}
!0 = !{!"function_entry_count", i64 7}
!1 = !{!"function_entry_count", i64 30}
!2 = !{!"branch_weights", i32 90, i32 10}
"""

REMARKS = ["-pass-remarks=inline", "-pass-remarks-missed=inline", "-pass-remarks-analysis=inline"]


@pytest.mark.parametrize("passes,flags", [
    ("inline", ["-pass-remarks-with-hotness"]),
    ("inliner-wrapper", ["-pass-remarks-with-hotness", "-pass-remarks-hotness-threshold=100"]),
    ("inline", ["-pass-remarks-hotness-threshold", "31"]),
    ("inline", ["-pass-remarks-hotness-threshold=auto"]),
    ("inline", []),
    ("always-inline", ["-pass-remarks-with-hotness"]),
])
def test_remark_hotness_like_opt19(flags: list[str], passes: str, tmp_path: Path) -> None:
    args = ["-passes=" + passes, "-S", *REMARKS, *flags, "-pass-remarks-output={out}/r.yaml"]
    opt, ours = _both(args, HOT, tmp_path, ("r.yaml",))
    assert ours == opt


def test_invalid_hotness_threshold_is_an_error(tmp_path: Path) -> None:
    require_tools("opt-19")
    r = _ours(["-passes=inline", "-pass-remarks-hotness-threshold=xx", "-disable-output"], HOT)
    assert r.returncode != 0 and "only integer or 'auto' is supported" in r.stderr


# --- the replay inline advisor --------------------------------------------------------------

REPLAY_IR = """
define i32 @sub(i32 %a, i32 %b) !dbg !7 {
  %r = sub i32 %a, %b, !dbg !20
  ret i32 %r, !dbg !20
}
define i32 @sum(i32 %a, i32 %b) !dbg !8 {
  %c = call i32 @sub(i32 %a, i32 %b), !dbg !21
  %r = add i32 %a, %c, !dbg !21
  ret i32 %r, !dbg !21
}
define i32 @main() !dbg !9 {
  %s = call i32 @sum(i32 1, i32 2), !dbg !22
  %t = call i32 @sub(i32 %s, i32 2), !dbg !23
  ret i32 %t, !dbg !23
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "calls.cc", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !DISubroutineType(types: !{})
!7 = distinct !DISubprogram(name: "sub", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, unit: !0)
!8 = distinct !DISubprogram(name: "sum", scope: !1, file: !1, line: 4, type: !6, scopeLine: 4, unit: !0)
!9 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 8, type: !6, scopeLine: 8, unit: !0)
!20 = !DILocation(line: 2, column: 3, scope: !7)
!21 = !DILocation(line: 5, column: 10, scope: !8)
!22 = !DILocation(line: 9, column: 7, scope: !9)
!23 = !DILocation(line: 10, column: 7, scope: !9)
"""

REPLAY_TEXT = """\
remark: calls.cc:4:0: 'sub' will not be inlined into 'sum' with (cost=Never) at callsite sum:1:10;
remark: calls.cc:8:0: 'sum' inlined into 'main' with (cost=45, threshold=337) at callsite main:1:7;

remark: calls.cc:8:0: 'sub' will not be inlined into 'main' at callsite main:2:7;
"""


@pytest.mark.parametrize("passes,scope,fallback", [
    ("inline", "Function", "Original"),
    ("inline", "Function", "AlwaysInline"),
    ("inline", "Module", "NeverInline"),
    ("inliner-wrapper", "Module", "Original"),
    ("inliner-wrapper", "Function", "NeverInline"),
])
def test_replay_like_opt19(scope: str, fallback: str, passes: str, tmp_path: Path) -> None:
    replay = tmp_path / "replay.txt"
    replay.write_text(REPLAY_TEXT)
    args = ["-passes=" + passes, "-S", *REMARKS, "-cgscc-inline-replay=" + str(replay),
            "-cgscc-inline-replay-scope=" + scope, "-cgscc-inline-replay-fallback=" + fallback]
    opt, ours = _both(args, REPLAY_IR, tmp_path)
    assert ours == opt


@pytest.mark.parametrize("fmt", ["Line", "LineColumn"])
def test_replay_formats_like_opt19(fmt: str, tmp_path: Path) -> None:
    replay = tmp_path / "replay.txt"
    replay.write_text("remark: x: 'sub' inlined into 'main' at callsite main:2;\n"
                      "remark: x: 'sub' inlined into 'main' at callsite main:2:7;\n")
    args = ["-passes=inline", "-S", "-pass-remarks=inline", "-cgscc-inline-replay=" + str(replay),
            "-cgscc-inline-replay-scope=Module", "-cgscc-inline-replay-fallback=NeverInline",
            "-cgscc-inline-replay-format=" + fmt]
    opt, ours = _both(args, REPLAY_IR, tmp_path)
    assert ours == opt


@pytest.mark.parametrize("content", [None, "not a remark\n"])
def test_replay_bad_file_is_an_error(content: str | None, tmp_path: Path) -> None:
    replay = tmp_path / "replay.txt"
    if content is not None:
        replay.write_text(content)
    module = parse_assembly(REPLAY_IR)
    with pytest.raises(PipelineError, match="Could not open remarks file|Invalid remark format"):
        llvmpy_mid.run_passes(module, "inline", options={"cgscc-inline-replay": str(replay)})


def test_replay_bad_scope_is_an_error(tmp_path: Path) -> None:
    replay = tmp_path / "replay.txt"
    replay.write_text(REPLAY_TEXT)
    module = parse_assembly(REPLAY_IR)
    with pytest.raises(PipelineError, match="Cannot find option named 'function'"):
        llvmpy_mid.run_passes(module, "inline", options={"cgscc-inline-replay": str(replay),
                                                        "cgscc-inline-replay-scope": "function"})


# --- module-inline priority modes -----------------------------------------------------------

ORDER = """
define internal i32 @big(i32 %a) {
  %b1 = mul i32 %a, %a
  %b2 = mul i32 %b1, %a
  %b3 = mul i32 %b2, %a
  %b4 = udiv i32 %b3, %a
  %b5 = udiv i32 %b4, %b1
  %b6 = udiv i32 %b5, %b2
  ret i32 %b6
}
define internal i32 @mid(i32 %a) {
  %x = call i32 @big(i32 %a)
  %y = call i32 @big(i32 %x)
  %z = add i32 %x, %y
  ret i32 %z
}
define i32 @const_arg(i32 %a, i1 %f) {
  br i1 %f, label %t, label %e
t:
  %m = mul i32 %a, 3
  %n = mul i32 %m, %m
  ret i32 %n
e:
  ret i32 0
}
define i32 @top(i32 %a) {
  %1 = call i32 @mid(i32 %a)
  %2 = call i32 @const_arg(i32 %1, i1 false)
  %3 = call i32 @big(i32 %2)
  %4 = call i32 @mid(i32 %3)
  ret i32 %4
}
"""


@pytest.mark.parametrize("mode,threshold", [("size", "225"), ("cost", "40"), ("cost", "225"), ("cost-benefit", "225"),
                                            ("ml", "40")])
def test_module_inline_priority_modes_like_opt19(mode: str, threshold: str, tmp_path: Path) -> None:
    args = ["-passes=module-inline", "-S", "-inline-priority-mode=" + mode, "-inline-threshold=" + threshold,
            "-pass-remarks=inline"]
    opt, ours = _both(args, ORDER, tmp_path)
    assert ours == opt


def test_module_inline_unknown_priority_mode_is_an_error() -> None:
    module = parse_assembly(ORDER)
    with pytest.raises(PipelineError, match="Cannot find option named 'fast'"):
        llvmpy_mid.run_passes(module, "module-inline", options={"inline-priority-mode": "fast"})


# --- known FP classes the inliner's clean-up simplification relies on -----------------------

FP_CLASSES = """
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minimum.f32(float, float)
define internal i1 @div(double %a, double %b) {
  %d = fdiv double %a, %b
  %c = fcmp ord double %d, 0.0
  ret i1 %c
}
define internal i1 @rem(double %a, double %b) {
  %d = frem double %a, %b
  %c = fcmp ord double %d, 0.0
  ret i1 %c
}
define i1 @callers(double nofpclass(zero nan inf) %x, double nofpclass(zero nan) %y, double nofpclass(nan inf) %z) {
  %1 = call i1 @div(double %x, double %x)
  %2 = call i1 @div(double %x, double %y)
  %3 = call i1 @div(double %y, double %y)
  %4 = call i1 @rem(double %x, double %y)
  %5 = call i1 @rem(double %y, double %x)
  %6 = call i1 @rem(double %x, double %z)
  %r1 = and i1 %1, %2
  %r2 = and i1 %3, %4
  %r3 = and i1 %5, %6
  %r4 = and i1 %r1, %r2
  %r = and i1 %r3, %r4
  ret i1 %r
}
define i1 @daz(double nofpclass(zero nan inf) %x) "denormal-fp-math"="preserve-sign,preserve-sign" {
  %1 = call i1 @div(double %x, double %x)
  ret i1 %1
}
define i1 @minmax(float %x, float %y) {
  %a = call float @llvm.maxnum.f32(float %x, float 0.0)
  %b = call float @llvm.maxnum.f32(float %a, float %y)
  %c = fcmp olt float %b, 0.0
  %d = call float @llvm.minimum.f32(float %x, float 1.0)
  %e = fcmp ord float %d, 0.0
  %r = and i1 %c, %e
  ret i1 %r
}
"""


@pytest.mark.parametrize("passes", ["inline", "instsimplify"])
def test_known_fp_classes_like_opt19(passes: str, tmp_path: Path) -> None:
    opt, ours = _both(["-passes=" + passes, "-S"], FP_CLASSES, tmp_path)
    assert ours == opt


# --- print-profile-summary --------------------------------------------------------------------

SUMMARY = """
define void @hot() !prof !20 {
  ret void
}
define void @cold() !prof !21 {
  ret void
}
define void @mid() !prof !22 {
  ret void
}
declare void @none()
!llvm.module.flags = !{!1}
!20 = !{!"function_entry_count", i64 400}
!21 = !{!"function_entry_count", i64 1}
!22 = !{!"function_entry_count", i64 100}
!1 = !{i32 1, !"ProfileSummary", !2}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{!"ProfileFormat", !"InstrProf"}
!4 = !{!"TotalCount", i64 10000}
!5 = !{!"MaxCount", i64 10}
!6 = !{!"MaxInternalCount", i64 1}
!7 = !{!"MaxFunctionCount", i64 1000}
!8 = !{!"NumCounts", i64 3}
!9 = !{!"NumFunctions", i64 3}
!10 = !{!"DetailedSummary", !11}
!11 = !{!12, !13, !14}
!12 = !{i32 10000, i64 100, i32 1}
!13 = !{i32 999000, i64 100, i32 1}
!14 = !{i32 999999, i64 1, i32 2}
"""


@pytest.mark.parametrize("flags", [[], ["-profile-summary-hot-count=500"], ["-profile-summary-cold-count=150"]])
def test_print_profile_summary_like_opt19(flags: list[str], tmp_path: Path) -> None:
    opt, ours = _both(["-passes=print-profile-summary", "-disable-output", *flags], SUMMARY, tmp_path)
    assert ours == opt



# --- the caller's block frequencies follow inlining (module-inline keeps the caller's BFI) -----

STALE_BFI = """
define internal i32 @leaf(i32 %a) {
  %v0 = mul i32 %a, %a
  %v1 = udiv i32 %v0, %a
  %v2 = udiv i32 %v1, %a
  %v3 = udiv i32 %v2, %a
  %v4 = udiv i32 %v3, %a
  %v5 = udiv i32 %v4, %a
  %v6 = udiv i32 %v5, %a
  %v7 = udiv i32 %v6, %a
  %v8 = udiv i32 %v7, %a
  %v9 = udiv i32 %v8, %a
  %v10 = udiv i32 %v9, %a
  %v11 = udiv i32 %v10, %a
  %v12 = udiv i32 %v11, %a
  %v13 = udiv i32 %v12, %a
  %v14 = udiv i32 %v13, %a
  %v15 = udiv i32 %v14, %a
  %v16 = udiv i32 %v15, %a
  %v17 = udiv i32 %v16, %a
  %v18 = udiv i32 %v17, %a
  %v19 = udiv i32 %v18, %a
  %v20 = udiv i32 %v19, %a
  %v21 = udiv i32 %v20, %a
  %v22 = udiv i32 %v21, %a
  %v23 = udiv i32 %v22, %a
  %v24 = udiv i32 %v23, %a
  %v25 = udiv i32 %v24, %a
  %v26 = udiv i32 %v25, %a
  %v27 = udiv i32 %v26, %a
  %v28 = udiv i32 %v27, %a
  %v29 = udiv i32 %v28, %a
  ret i32 %v29
}
define internal i32 @mid(i32 %a, i1 %f) {
  br i1 %f, label %t, label %e
t:
  %r = call i32 @leaf(i32 %a)
  ret i32 %r
e:
  ret i32 0
}
define i32 @top(i32 %a, i1 %f) {
  %x = call i32 @mid(i32 %a, i1 %f)
  %y = call i32 @leaf(i32 %x)
  %z = call i32 @leaf(i32 %y)
  ret i32 %z
}
"""


def test_inlined_call_sites_keep_their_frequency(tmp_path: Path) -> None:
    """The call to @leaf brought in by @mid is not a cold call site (threshold 45) although
    @top has no entry count: the inlined blocks got frequencies (LLVM updateCallerBFI)."""
    opt, ours = _both(["-passes=module-inline", "-S", "-pass-remarks=inline", "-pass-remarks-missed=inline"],
                      STALE_BFI, tmp_path)
    assert ours == opt



# --- cost-benefit priority: decided sites ordered by cycle savings over runtime size ----------

COST_BENEFIT = """
define internal i32 @c1(i32 %a) !prof !30 {
  %b = mul i32 %a, %a
  ret i32 %b
}
define internal i32 @c2(i32 %a) !prof !30 {
  %b = add i32 %a, 7
  ret i32 %b
}
define internal i32 @c3(i32 %a) !prof !30 {
  %b = sub i32 %a, 3
  ret i32 %b
}
define i32 @top(i32 %a) !prof !31 {
  %x = call i32 @c1(i32 %a) "inline-cycle-savings-for-test"="3" "inline-runtime-cost-for-test"="50"
  %y = call i32 @c2(i32 %x) "inline-cycle-savings-for-test"="5" "inline-runtime-cost-for-test"="20"
  %z = call i32 @c3(i32 %y) "inline-cycle-savings-for-test"="2" "inline-runtime-cost-for-test"="90"
  %w = call i32 @c1(i32 %z) "inline-cycle-savings-for-test"="9" "inline-runtime-cost-for-test"="10"
  ret i32 %w
}
!llvm.module.flags = !{!1}
!30 = !{!"function_entry_count", i64 1000}
!31 = !{!"function_entry_count", i64 1000}
!1 = !{i32 1, !"ProfileSummary", !2}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{!"ProfileFormat", !"InstrProf"}
!4 = !{!"TotalCount", i64 10000}
!5 = !{!"MaxCount", i64 1000}
!6 = !{!"MaxInternalCount", i64 1}
!7 = !{!"MaxFunctionCount", i64 1000}
!8 = !{!"NumCounts", i64 3}
!9 = !{!"NumFunctions", i64 3}
!10 = !{!"DetailedSummary", !11}
!11 = !{!12, !13, !14}
!12 = !{i32 10000, i64 100, i32 1}
!13 = !{i32 999000, i64 100, i32 1}
!14 = !{i32 999999, i64 1, i32 2}
"""


@pytest.mark.parametrize("mode", ["cost-benefit", "cost"])
def test_cost_benefit_priority_like_opt19(mode: str, tmp_path: Path) -> None:
    args = ["-passes=require<profile-summary>,module-inline", "-inline-priority-mode=" + mode, "-S",
            "-pass-remarks=inline", "-pass-remarks-missed=inline"]
    opt, ours = _both(args, COST_BENEFIT, tmp_path)
    assert ours == opt
