"""``llvmpy-opt -print-before-all / -print-after-all / -print-changed / -time-passes`` from the
shell, compared with opt-19 (stderr byte for byte; for -time-passes the layout and row names)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

IR = """define i32 @f(i32 %a) {
entry:
  %0 = add i32 %a, 1
  ret i32 %0
}

declare void @unused()

define void @g() {
  ret void
}
"""
PIPELINE = "-passes=function(instnamer,instnamer),strip-dead-prototypes"


def _run(tool: list[str], args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    (cwd / "x.ll").write_text(IR)
    return subprocess.run([*tool, *args, "x.ll"], cwd=cwd, capture_output=True, text=True)


def ours(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-m", "llvmpy_mid"], args, cwd)


def theirs(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    assert OPT is not None
    return _run([OPT], args, cwd)


@needs_opt
@pytest.mark.parametrize("option", ["-print-after-all", "-print-before-all", "-print-changed"])
@pytest.mark.parametrize("output", [["-disable-output"], ["-S"], ["-S", "-disable-verify"]])
def test_print_options_match_opt(tmp_path: Path, option: str, output: list[str]) -> None:
    args = [PIPELINE, option, *output]
    mine, ref = ours(args, tmp_path), theirs(args, tmp_path)
    assert mine.returncode == ref.returncode == 0
    assert mine.stderr == ref.stderr
    assert mine.stdout == ref.stdout


def test_print_changed_reports_verifier_and_printer(tmp_path: Path) -> None:
    r = ours([PIPELINE, "-print-changed", "-S"], tmp_path)
    assert r.returncode == 0
    assert r.stderr.startswith("*** IR Dump At Start ***\n; ModuleID = 'x.ll'\n")
    assert r.stderr.endswith(
        "*** IR Pass VerifierPass on [module] ignored ***\n*** IR Pass PrintModulePass on [module] ignored ***\n"
    )


def _groups(report: str) -> list[tuple[str, list[str]]]:
    """(title, row names) per timer group, checking the fixed lines of LLVM's layout."""
    rule = "===" + "-" * 73 + "==="
    lines = report.split("\n")
    out: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(lines) and lines[i]:
        assert lines[i] == rule and lines[i + 2] == rule
        assert re.fullmatch(r"  Total Execution Time: \d+\.\d{4} seconds \(\d+\.\d{4} wall clock\)", lines[i + 3])
        assert lines[i + 4] == "" and lines[i + 5].endswith("   ---Wall Time---  --- Name ---")
        title = lines[i + 1].strip()
        i += 6
        names: list[str] = []
        while lines[i]:
            m = re.fullmatch(r"(?:  [ 0-9]{2,}\.\d{4} \([ 0-9]{3}\.\d%\)|        -----     )+  (.+)", lines[i])
            assert m is not None, lines[i]
            names.append(m.group(1))
            i += 1
        out.append((title, names))
        i += 1
    return out


def test_time_passes_report(tmp_path: Path) -> None:
    r = ours([PIPELINE, "-time-passes", "-disable-output"], tmp_path)
    assert r.returncode == 0
    titles = [t for t, _ in _groups(r.stderr)]
    assert titles == ["Pass execution timing report", "Analysis execution timing report", "LLVM IR Parsing"]


@needs_opt
@pytest.mark.parametrize("extra", [[], ["-disable-verify"]])
def test_time_passes_layout_matches_opt(tmp_path: Path, extra: list[str]) -> None:
    args = [PIPELINE, "-time-passes", "-disable-output", *extra]
    mine, ref = _groups(ours(args, tmp_path).stderr), _groups(theirs(args, tmp_path).stderr)
    assert [t for t, _ in mine] == [t for t, _ in ref]
    for (_, a), (_, b) in zip(mine, ref):
        assert sorted(a) == sorted(b)
        assert a[-1] == "Total"


def test_time_passes_with_output_keeps_stdout_clean(tmp_path: Path) -> None:
    r = ours([PIPELINE, "-time-passes", "-S"], tmp_path)
    assert r.returncode == 0
    assert "timing report" not in r.stdout and "define i32 @f" in r.stdout
    assert "Pass execution timing report" in r.stderr
