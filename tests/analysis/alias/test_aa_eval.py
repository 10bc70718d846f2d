"""``aa-eval`` against opt-19: what ``-passes=aa-eval`` writes to stderr (pointer pairs,
mod/ref lines, the summary), byte for byte, with each of its printing options."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias.aa_eval import AAEvaluator
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.passes.run import run_passes

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")

MODULE = """
%struct.S = type { i32, i64 }
@g = global i32 0
@arr = global [8 x i32] zeroinitializer
declare void @f(ptr)
declare void @h(ptr) readonly
declare void @n() memory(none)
define void @test(ptr %p, ptr addrspace(1) %q, ptr noalias %r, i64 %i) {
  %a = alloca %struct.S
  %b = alloca [10 x i32]
  %a1 = getelementptr %struct.S, ptr %a, i32 0, i32 1
  store i64 0, ptr %a1, !tbaa !0
  %x = load i32, ptr %a
  %y = load i32, ptr %p
  store i32 %y, ptr addrspace(1) %q
  store i32 %y, ptr getelementptr (i8, ptr @g, i64 4)
  store i32 %y, ptr %r
  %g1 = getelementptr [10 x i32], ptr %b, i64 0, i64 %i
  store i32 1, ptr %g1
  %v = load <2 x i32>, ptr %b
  %pp = getelementptr i8, ptr %b, i64 2
  %w = load i32, ptr %pp
  call void @f(ptr %a)
  %s = load { i32, [2 x float] }, ptr %p
  call void @h(ptr %p)
  call void @n()
  %e = getelementptr [8 x i32], ptr @arr, i64 0, i64 3
  store i32 2, ptr %e
  ret void
}
define void @empty() {
  ret void
}
define void @no_calls(ptr %p) {
  store i8 0, ptr %p
  ret void
}
!0 = !{!1, !1, i64 0}
!1 = !{!"long", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
"""

_ANSWER = re.compile(r"^  (NoAlias|MayAlias|MustAlias|PartialAlias( \(off -?\d+\))?|NoModRef|Just Ref|Just Mod|Both ModRef):")


def _opt(text: str, tmp_path: Path, flags: list[str], aa: str) -> str:
    assert OPT is not None
    path = tmp_path / "in.ll"
    path.write_text(text)
    proc = subprocess.run(
        [OPT, "-disable-output", "-passes=aa-eval", "-aa-pipeline=" + aa, *flags, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stderr


def _ours(text: str, flags: list[str], aa: str) -> str:
    options: dict[str, bool | str] = {flag.lstrip("-"): True for flag in flags}
    options["aa-pipeline"] = aa
    return run_passes(parse_assembly(text), "aa-eval", options=options).output


def _shape(text: str) -> list[str]:
    """The output with each answer replaced by ``X`` and the counts dropped."""
    return [_ANSWER.sub("  X:", line) for line in text.splitlines() if not re.search(r"responses|Summary|Queries", line)]


FLAG_SETS = [
    ["-print-all-alias-modref-info"],
    ["-print-no-aliases", "-print-mod"],
    ["-print-may-aliases", "-print-modref", "-print-ref"],
    ["-print-partial-aliases", "-print-must-aliases", "-print-no-modref"],
    ["-evaluate-aa-metadata", "-print-all-alias-modref-info"],
    [],
]


@needs_opt
@pytest.mark.parametrize("flags", FLAG_SETS, ids=lambda f: " ".join(f) or "none")
def test_output_as_opt19(flags: list[str], tmp_path: Path) -> None:
    """Every line and the summary, byte for byte, with BasicAA answering."""
    assert _ours(MODULE, flags, "basic-aa") == _opt(MODULE, tmp_path, flags, "basic-aa")


@needs_opt
@pytest.mark.parametrize("flags", FLAG_SETS[:1], ids=lambda f: " ".join(f))
def test_lines_as_opt19_default_pipeline(flags: list[str], tmp_path: Path) -> None:
    """With the default AA pipeline every line opt-19 writes is written, in order, with the same
    pointer/type/instruction text (the answers are the providers')."""
    assert _shape(_ours(MODULE, flags, "default")) == _shape(_opt(MODULE, tmp_path, flags, "default"))


def test_report_arithmetic() -> None:
    """PrintPercent truncates to one decimal; the short summary truncates to whole percents."""
    ev = AAEvaluator()
    ev.function_count = 1
    ev.alias_counts = [31, 3, 1, 1]
    ev.mod_ref_counts = [2, 0, 0, 18]
    assert ev.report() == (
        "===== Alias Analysis Evaluator Report =====\n"
        "  36 Total Alias Queries Performed\n"
        "  31 no alias responses (86.1%)\n"
        "  3 may alias responses (8.3%)\n"
        "  1 partial alias responses (2.7%)\n"
        "  1 must alias responses (2.7%)\n"
        "  Alias Analysis Evaluator Pointer Alias Summary: 86%/8%/2%/2%\n"
        "  20 Total ModRef Queries Performed\n"
        "  2 no mod/ref responses (10.0%)\n"
        "  0 mod responses (0.0%)\n"
        "  0 ref responses (0.0%)\n"
        "  18 mod & ref responses (90.0%)\n"
        "  Alias Analysis Evaluator Mod/Ref Summary: 10%/0%/0%/90%\n"
    )
    assert AAEvaluator().report() == ""


@needs_opt
def test_no_pointers_no_calls(tmp_path: Path) -> None:
    text = "define void @e() {\n  ret void\n}\n"
    assert _ours(text, ["-print-all-alias-modref-info"], "basic-aa") == _opt(text, tmp_path, ["-print-all-alias-modref-info"], "basic-aa")


def test_two_instances_report_in_pipeline_order() -> None:
    module = parse_assembly(MODULE)
    out = run_passes(module, "function(aa-eval),aa-eval", options={"aa-pipeline": "basic-aa"}).output
    assert out.count("===== Alias Analysis Evaluator Report =====") == 2


def test_cli_writes_report_after_output(tmp_path: Path) -> None:
    """The summary goes to stderr once the module has been written (opt destroys the pass last)."""
    from llvmpy_mid.cli import main

    path = tmp_path / "in.ll"
    path.write_text(MODULE)
    out = tmp_path / "out.ll"
    err = tmp_path / "err.txt"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        code = main(["-passes=aa-eval", "-aa-pipeline=basic-aa", "-S", "-o", str(out), str(path)])
    assert code == 0
    err.write_text(buf.getvalue())
    assert "Total Alias Queries Performed" in buf.getvalue()
    assert "define void @test" in out.read_text()
