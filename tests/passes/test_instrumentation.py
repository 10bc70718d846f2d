"""-print-before-all / -print-after-all / -print-changed / -time-passes through ``run_passes``,
checked against opt-19's stderr (the live comparisons skip when opt-19 is missing)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.passes.run import run_passes
from llvmpy_mid.passes.timing import TimeRecord, format_timer_group

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

IR = """define i32 @f(i32 %a) {
entry:
  %0 = add i32 %a, 1
  ret i32 %0
}

define i32 @g(i32 %a) {
  ret i32 %a
}

declare void @d()
"""

PIPELINES = [
    "function(instnamer),strip-dead-prototypes",
    "function(instnamer,instnamer),strip-dead-prototypes",
    "strip-dead-prototypes,function(require<domtree>,instnamer)",
    "function(invalidate<all>)",
]
OPTIONS = {"print_after_all": "-print-after-all", "print_before_all": "-print-before-all", "print_changed": "-print-changed"}


def _ours(
    pipeline: str,
    *,
    print_after_all: bool = False,
    print_before_all: bool = False,
    print_changed: bool = False,
    time_passes: bool = False,
) -> str:
    out = io.StringIO()
    run_passes(
        parse_assembly(IR, name="x.ll"),
        pipeline,
        print_after_all=print_after_all,
        print_before_all=print_before_all,
        print_changed=print_changed,
        time_passes=time_passes,
        stream=out,
    )
    return out.getvalue()


def _opt_stderr(tmp_path: Path, pipeline: str, *options: str) -> str:
    assert OPT is not None
    (tmp_path / "x.ll").write_text(IR)
    # run_passes adds no verifier, so opt runs without its trailing VerifierPass.
    proc = subprocess.run(
        [OPT, "-passes=" + pipeline, *options, "-disable-verify", "-disable-output", "x.ll"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stderr


@needs_opt
@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_print_options_match_opt(tmp_path: Path, pipeline: str, option: str) -> None:
    flags = {name: name == option for name in OPTIONS}
    ours = _ours(
        pipeline,
        print_after_all=flags["print_after_all"],
        print_before_all=flags["print_before_all"],
        print_changed=flags["print_changed"],
    )
    assert ours == _opt_stderr(tmp_path, pipeline, OPTIONS[option])


@needs_opt
def test_before_and_after_together_match_opt(tmp_path: Path) -> None:
    pipeline = PIPELINES[0]
    ours = _ours(pipeline, print_before_all=True, print_after_all=True)
    assert ours == _opt_stderr(tmp_path, pipeline, "-print-before-all", "-print-after-all")


def test_print_after_all_headers_without_opt() -> None:
    text = _ours("function(instnamer),strip-dead-prototypes", print_after_all=True)
    headers = [line for line in text.splitlines() if line.startswith("; ***")]
    assert headers == [
        "; *** IR Dump After InstructionNamerPass on f ***",
        "; *** IR Dump After InstructionNamerPass on g ***",
        "; *** IR Dump After StripDeadPrototypesPass on [module] ***",
    ]
    assert "%i = add i32 %a, 1" in text
    assert text.rstrip().endswith("}")  # the module dump after the pass has no @d any more


def test_print_changed_without_opt() -> None:
    text = _ours("function(instnamer,instnamer)", print_changed=True)
    headers = [line for line in text.splitlines() if line.startswith("***")]
    assert headers == [
        "*** IR Dump At Start ***",
        "*** IR Dump After InstructionNamerPass on f ***",
        "*** IR Dump After InstructionNamerPass on f omitted because no change ***",
        "*** IR Pass PassManager<Function> on f ignored ***",
        "*** IR Dump After InstructionNamerPass on g ***",
        "*** IR Dump After InstructionNamerPass on g omitted because no change ***",
        "*** IR Pass PassManager<Function> on g ignored ***",
        "*** IR Pass ModuleToFunctionPassAdaptor on [module] ignored ***",
    ]


_ROW = re.compile(r"^((?:   ---User Time---)?(?:   --System Time--)?(?:   --User\+System--)?   ---Wall Time---  --- Name ---"
                  r"|(?:(?:  [ 0-9]{2,}\.\d{4} \([ 0-9]{3}\.\d%\))|        -----     )+  (.+))$")


def _layout(report: str) -> list[tuple[str, list[str]]]:
    """(group title, row names) per group, asserting each line's shape on the way."""
    groups: list[tuple[str, list[str]]] = []
    lines = report.split("\n")
    i = 0
    while i < len(lines) and lines[i]:
        rule = "===" + "-" * 73 + "==="
        assert lines[i] == rule and lines[i + 2] == rule
        title = lines[i + 1]
        assert title.strip() and len(title) - len(title.lstrip()) == (80 - len(title.strip())) // 2
        assert re.fullmatch(r"  Total Execution Time: \d+\.\d{4} seconds \(\d+\.\d{4} wall clock\)", lines[i + 3])
        assert lines[i + 4] == ""
        assert _ROW.match(lines[i + 5]) and "Name" in lines[i + 5]
        i += 6
        names: list[str] = []
        while lines[i]:
            m = _ROW.match(lines[i])
            assert m is not None, lines[i]
            names.append(m.group(2))
            i += 1
        groups.append((title.strip(), names))
        i += 1
    return groups


def test_format_timer_group_layout() -> None:
    text = format_timer_group("Pass execution timing report", [("A", TimeRecord(0.5, 0.0, 1.0)), ("B", TimeRecord(0.5, 0.0, 3.0))])
    lines = text.split("\n")
    assert lines[1] == " " * 26 + "Pass execution timing report"
    assert lines[3] == "  Total Execution Time: 1.0000 seconds (4.0000 wall clock)"
    # no system time at all: that column is left out, as LLVM does
    assert lines[5] == "   ---User Time---   --User+System--   ---Wall Time---  --- Name ---"
    assert lines[6] == "   0.5000 ( 50.0%)   0.5000 ( 50.0%)   3.0000 ( 75.0%)  B"  # sorted by wall time
    assert lines[7] == "   0.5000 ( 50.0%)   0.5000 ( 50.0%)   1.0000 ( 25.0%)  A"
    assert lines[8] == "   1.0000 (100.0%)   1.0000 (100.0%)   4.0000 (100.0%)  Total"
    assert text.endswith("Total\n\n")


@needs_opt
def test_time_passes_layout_matches_opt(tmp_path: Path) -> None:
    pipeline = "function(instnamer,require<domtree>),strip-dead-prototypes"
    ours = _layout(_ours(pipeline, time_passes=True))
    theirs = [g for g in _layout(_opt_stderr(tmp_path, pipeline, "-time-passes")) if g[0] != "LLVM IR Parsing"]
    assert [g[0] for g in ours] == [g[0] for g in theirs]
    for (_, ours_rows), (_, their_rows) in zip(ours, theirs):
        assert sorted(ours_rows) == sorted(their_rows)  # order follows the (differing) times


def test_time_passes_rows_without_opt() -> None:
    groups = dict(_layout(_ours("function(instnamer,require<domtree>)", time_passes=True)))
    assert sorted(groups["Pass execution timing report"]) == sorted(
        ["InstructionNamerPass", "RequireAnalysisPass<llvm::DominatorTreeAnalysis, llvm::Function, llvm::AnalysisManager<Function>>", "Total"]
    )
    assert "DominatorTreeAnalysis" in groups["Analysis execution timing report"]
