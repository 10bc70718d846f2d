"""The shipped example runs and reports what the IR core computed."""

from __future__ import annotations

import subprocess
import sys


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
