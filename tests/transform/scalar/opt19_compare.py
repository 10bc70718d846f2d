"""Shared by the sink, mldst-motion and memcpyopt tests: run a pipeline on IR text with
opt-19 and with llvmpy_mid and compare the printed modules (``; ModuleID`` aside), or
compare the ``-debug-pass-manager`` logs of the two command-line programs."""

from __future__ import annotations

import subprocess
import sys

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module


def body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("; ModuleID"))


def opt19_output(ir: str, pipeline: str, *extra: str) -> str:
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", *extra], input=ir, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return body(r.stdout)


def our_output(ir: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(ir, name="<stdin>")
    llvmpy_mid.run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return body(print_module(module))


def assert_like_opt(ir: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    """Our output of ``pipeline`` on ``ir`` equals opt-19's; returns it."""
    extra = ["-%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v) for k, v in (options or {}).items()]
    expected = opt19_output(ir, pipeline, *extra)
    assert our_output(ir, pipeline, options) == expected
    return expected


def pass_manager_logs(ir: str, pipeline: str) -> tuple[str, str]:
    """(opt-19's, ours) ``-debug-pass-manager -disable-output`` logs."""
    args = ["-passes=" + pipeline, "-debug-pass-manager", "-disable-output"]
    theirs = subprocess.run(["opt-19", *args], input=ir, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=ir, capture_output=True, text=True)
    return theirs.stdout + theirs.stderr, ours.stdout + ours.stderr
