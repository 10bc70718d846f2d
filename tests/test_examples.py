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
