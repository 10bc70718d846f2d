"""Shared oracle helpers for the loop utility tests (loop-simplify, lcssa): run a pipeline through
opt-19 and through llvmpy_mid and compare the printed modules; the conformance loop files; the csmith
files with an lli-19 check; llvm-stress-19 programs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths

import llvmpy_mid
from llvmpy_mid.asm import parse_file, print_module
from oracles import LLVM_TEST_ROOT  # noqa: E402

OPT = shutil.which("opt-19")
LLI = shutil.which("lli-19")
STRESS = shutil.which("llvm-stress-19")
REPO = Path(__file__).resolve().parents[2]
TEST_ROOT = LLVM_TEST_ROOT / "Transforms"
LOOP_FOLDERS = ("LICM", "LoopSimplify", "LCSSA", "LoopRotate", "LoopUnroll", "IndVarSimplify", "LoopDeletion")

needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
needs_stress = pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")


def body(text: str) -> str:
    """A printed module without its ``; ModuleID`` line."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("; ModuleID"))


def opt19(path: Path, pipeline: str) -> str | None:
    """``opt-19 -passes=pipeline -S path`` (None when opt-19 rejects the file)."""
    assert OPT is not None
    r = subprocess.run([OPT, "-passes=" + pipeline, "-S", str(path)], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def check_against_opt(path: Path, pipeline: str) -> None:
    """Our output equals opt-19's (ModuleID aside) and verifies; skipped when opt-19 rejects it."""
    expected = opt19(path, pipeline)
    if expected is None:
        pytest.skip("opt-19 rejects %s" % path.name)
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline)
    assert body(print_module(module)) == body(expected)
    llvmpy_mid.verify_module(module)


def conformance_files() -> list[Path]:
    out: list[Path] = []
    for folder in LOOP_FOLDERS:
        d = TEST_ROOT / folder
        if d.is_dir():
            out.extend(sorted(d.glob("*.ll")))
    return out


CONFORMANCE = conformance_files()
CSMITH_FILES = csmith_paths()


def lli(text: str, tmp_path: Path) -> str:
    assert LLI is not None
    f = tmp_path / "run.ll"
    f.write_text(text)
    r = subprocess.run([LLI, str(f)], capture_output=True, text=True, timeout=60)
    return "%d:%s" % (r.returncode, r.stdout)


def check_csmith(path: Path, tmp_path: Path, pipeline: str) -> None:
    """As :func:`check_against_opt`, and lli-19 prints the same before and after."""
    check_against_opt(path, pipeline)
    if LLI is None:
        return
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline)
    assert lli(print_module(module), tmp_path) == lli(path.read_text(), tmp_path)


def stress_file(tmp_path: Path, seed: int, size: int, scalable: bool = False) -> Path:
    """``llvm-stress-19 -seed=seed -size=size`` (``-enable-scalable-vectors`` when ``scalable``)."""
    assert STRESS is not None
    path = tmp_path / ("stress%d.ll" % seed)
    args = [STRESS, "-seed=%d" % seed, "-size=%d" % size, "-o", str(path)]
    if scalable:
        args.append("-enable-scalable-vectors")
    subprocess.run(args, check=True)
    return path
