"""Pass-manager behaviour matched to LLVM 19.1.7 after its own tests in ``llvm/test/Other``
showed a difference: ``function<eager-inv>`` (the adaptor drops a function's analyses after
each run) and ``-verify-each`` after a loop pass (the loop's function is verified).

The logs are compared with opt-19's ``-debug-pass-manager`` output when it is installed; the
lines that matter are also asserted on their own, so the tests mean something without it.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.cli import main

OPT = shutil.which("opt-19")

MODULE = """\
declare void @bar()
define void @foo(i32 %n) {
entry:
  br label %loop
loop:
  %iv = phi i32 [ 0, %entry ], [ %iv.next, %loop ]
  %iv.next = add i32 %iv, 1
  call void @bar()
  %cmp = icmp eq i32 %iv, %n
  br i1 %cmp, label %exit, label %loop
exit:
  ret void
}
"""


def _ours(args: list[str], path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main([*args, "-disable-output", str(path)]) == 0
    return err.getvalue()


def _opt(args: list[str], path: Path) -> str:
    assert OPT is not None
    done = subprocess.run([OPT, *args, "-disable-output", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.mark.parametrize("eager", [False, True])
def test_function_adaptor_eager_invalidation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, eager: bool) -> None:
    path = tmp_path / "m.ll"
    path.write_text(MODULE)
    adaptor = "function<eager-inv>" if eager else "function"
    args = ["-disable-verify", "-debug-pass-manager", "-passes=%s(require<no-op-function>)" % adaptor]
    log = _ours(args, path, monkeypatch)
    assert ("Invalidating analysis: NoOpFunctionAnalysis on foo" in log) is eager
    if OPT is not None:
        assert log == _opt(args, path)


@pytest.mark.parametrize("eager", [False, True])
def test_cgscc_function_adaptor_eager_invalidation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, eager: bool
) -> None:
    path = tmp_path / "m.ll"
    path.write_text(MODULE)
    adaptor = "function<eager-inv>" if eager else "function"
    args = ["-disable-verify", "-debug-pass-manager", "-passes=cgscc(%s(require<no-op-function>))" % adaptor]
    log = _ours(args, path, monkeypatch)
    lines = [ln for ln in log.splitlines() if ln.endswith("NoOpFunctionAnalysis on foo")]
    expected = ["Running analysis: NoOpFunctionAnalysis on foo"]
    if eager:
        expected.append("Invalidating analysis: NoOpFunctionAnalysis on foo")
    assert lines == expected
    if OPT is not None:
        assert lines == [ln for ln in _opt(args, path).splitlines() if ln.endswith("NoOpFunctionAnalysis on foo")]


def test_verify_each_after_a_loop_pass_verifies_the_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.ll"
    path.write_text(MODULE)
    args = ["-debug-pass-manager", "-verify-each", "-passes=no-op-module,function(no-op-function,loop(no-op-loop))"]
    log = _ours(args, path, monkeypatch)
    steps = [ln for ln in log.splitlines() if ln.startswith(("Running pass", "Verifying"))]
    assert steps[steps.index("Running pass: NoOpLoopPass on loop %loop in function foo") + 1] == "Verifying function foo"
    if OPT is not None:
        assert steps == [ln for ln in _opt(args, path).splitlines() if ln.startswith(("Running pass", "Verifying"))]
