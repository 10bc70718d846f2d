"""The shipped example runs and reports what the IR core computed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def test_build_module_example_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid.examples.build_module"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "function @sum_of_squares (i64 (i64)), 3 blocks, 9 instructions" in out
    # The loop block is its own predecessor: the latch's use is the most recent.
    assert "%loop  (preds: %loop, %entry)" in out
    assert "x86_fp80 alloc size 16 bytes" in out
    assert "cloned as @sum_of_squares.1 with 9 instructions" in out
    assert "the copy now has 8 instructions; the original still has 9" in out


README_PIPELINE = "function(loop-simplify,lcssa,instnamer),strip-dead-prototypes"


def test_readme_command_uses_this_pipeline() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "llvmpy-opt -S -passes='%s'" % README_PIPELINE in readme
    assert "python -m llvmpy_mid.examples sum_pairs.ll" in readme


@pytest.mark.skipif(shutil.which("opt-19") is None or shutil.which("lli-19") is None, reason="LLVM 19 tools missing")
def test_shipped_example_through_llvmpy_opt_matches_opt(tmp_path: Path) -> None:
    """The README's main command: same text as opt-19, same program output under lli-19."""
    path = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid.examples", "sum_pairs.ll"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-S", "-passes=" + README_PIPELINE, path],
        capture_output=True, text=True, check=True,
    ).stdout
    theirs = subprocess.run(
        ["opt-19", "-S", "-passes=" + README_PIPELINE, path], capture_output=True, text=True, check=True
    ).stdout
    assert ours == theirs
    (tmp_path / "out.ll").write_text(ours)
    before = subprocess.run(["lli-19", path], capture_output=True, text=True)
    after = subprocess.run(["lli-19", str(tmp_path / "out.ll")], capture_output=True, text=True)
    assert before.stdout == after.stdout == "2025\n" and before.returncode == after.returncode == 0


FUNCTION_INFO_IR = """declare i32 @ext(i32, ...)

define internal i32 @leaf(i32 %a, i32 %b) {
entry:
  %s = add i32 %a, %b
  ret i32 %s
}

define i32 @caller(ptr %p) personality ptr null {
entry:
  %x = call i32 @leaf(i32 1, i32 2)
  %y = call i32 (i32, ...) @ext(i32 %x, i32 3)
  store ptr @leaf, ptr %p
  %z = invoke i32 @leaf(i32 %y, i32 %x) to label %ok unwind label %bad
ok:
  ret i32 %z
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 0
}
"""


def test_function_info_counts() -> None:
    """Direct call sites count calls and invokes of the function, not other uses (the store)."""
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.examples.function_info import function_info

    rows = function_info(parse_assembly(FUNCTION_INFO_IR))
    assert rows == [("ext", "1*", 1, 0, 0), ("leaf", "2", 2, 1, 2), ("caller", "1", 0, 3, 7)]


def test_function_info_from_llvmpy_opt_and_run_passes(tmp_path: Path) -> None:
    """The example is registered through the package's entry point, so llvmpy-opt knows it."""
    import io

    import llvmpy_mid
    from llvmpy_mid.examples.function_info import FunctionInfoPass, format_function_info, function_info

    (tmp_path / "f.ll").write_text(FUNCTION_INFO_IR)
    r = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-passes=function-info", "-disable-output", "-stats", str(tmp_path / "f.ll")],
        capture_output=True, text=True,
    )
    m = llvmpy_mid.parse_assembly(FUNCTION_INFO_IR)
    table = format_function_info(function_info(m))
    assert r.returncode == 0 and r.stderr.startswith(table)
    assert "3 function-info - Number of functions reported" in r.stderr
    buf = io.StringIO()
    from llvmpy_mid.passes.proxies import make_analysis_managers

    mam, _ = make_analysis_managers()
    assert FunctionInfoPass(buf).run(m, mam).are_all_preserved()
    assert buf.getvalue() == table
    assert llvmpy_mid.run_passes(m, "function-info").statistics == {"function-info.NumFunctions": 3}
