"""``devirt<N>(...)`` (LLVM ``DevirtSCCRepeatedPass``) against opt-19: the pipeline runs again on
an SCC while a run turned an indirect call direct, at most N more times; the
``-debug-pass-manager`` log and the output equal opt-19's, and with
``-abort-on-max-devirt-iterations-reached`` hitting the limit aborts as opt-19 does."""

from __future__ import annotations

import subprocess
import sys


from tests.oracles import require_tools

require_tools("opt-19")

# @f calls through a pointer that function-attrs/gvn/instcombine resolve to @h, so a second
# run of the pipeline sees a direct call (the devirtualization LLVM's test looks for).
IR = """
declare void @readnone() readnone nounwind
define internal void @h() {
  call void @readnone()
  ret void
}
define void @f() {
  %p = alloca ptr
  store ptr @h, ptr %p
  %fp = load ptr, ptr %p
  call void %fp()
  ret void
}
"""


def _run(tool: list[str], args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(tool + args, input=IR, capture_output=True, text=True)


def test_devirt_log_and_output_like_opt() -> None:
    """One more run after the devirtualization (the log shows it), output and log as opt-19's."""
    pipeline = "-passes=cgscc(devirt<2>(function-attrs,function(sroa,gvn,instcombine)))"
    args = [pipeline, "-debug-pass-manager", "-S", "-"]
    ours = _run([sys.executable, "-m", "llvmpy_mid"], args)
    theirs = _run(["opt-19"], args)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stderr == theirs.stderr
    assert ours.stderr.count("Running pass: PostOrderFunctionAttrsPass on (f)") == 2
    assert ours.stdout.replace("<stdin>", "-") == theirs.stdout.replace("<stdin>", "-")


def test_abort_on_max_iterations_like_opt() -> None:
    args = ["-abort-on-max-devirt-iterations-reached",
            "-passes=cgscc(devirt<0>(function-attrs,function(sroa,gvn,instcombine)))", "-disable-output", "-"]
    ours = _run([sys.executable, "-m", "llvmpy_mid"], args)
    theirs = _run(["opt-19"], args)
    assert theirs.returncode < 0 and ours.returncode < 0  # both abort (SIGABRT)
    assert "LLVM ERROR: Max devirtualization iterations reached" in ours.stderr
