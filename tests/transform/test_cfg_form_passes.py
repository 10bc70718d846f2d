"""The CFG-form passes against opt-19: ``mergereturn``, ``unify-loop-exits`` (boolean
guards, and integer guards with ``-max-booleans-in-control-flow-hub=1``) and
``fix-irreducible`` on random CFGs (``lower-switch`` first where the pass needs
branches only) and on the csmith corpus (a sample; all under ``--run-slow``): our
printed module equals opt-19's (ModuleID aside) and verifies.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from loop_oracle import OPT, body, needs_opt
from pass_oracle import csmith_params
from test_basic_block_utils import random_cfg

import llvmpy_mid
from llvmpy_mid.asm import parse_file, print_module


def _opt(path: Path, pipeline: str, extra: list[str]) -> str:
    assert OPT is not None
    r = subprocess.run([OPT, "-passes=" + pipeline, "-S", str(path), *extra], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _check(path: Path, pipeline: str, options: dict[str, str] | None = None) -> None:
    extra = ["-%s=%s" % kv for kv in (options or {}).items()]
    expected = _opt(path, pipeline, extra)
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline, options=options)
    assert body(print_module(module)) == body(expected)
    llvmpy_mid.verify_module(module)


@needs_opt
@pytest.mark.parametrize("seed", range(30))
def test_mergereturn_random(seed: int, tmp_path: Path) -> None:
    text = random_cfg(seed, 14).replace("  ret i32 %p13\n", "  unreachable\n").replace("  ret i32 %p7\n", "  unreachable\n")
    path = tmp_path / "f.ll"
    path.write_text(text)
    _check(path, "mergereturn")


@needs_opt
@pytest.mark.parametrize("seed", range(40))
def test_unify_loop_exits_random(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "f.ll"
    path.write_text(random_cfg(seed, 14))
    _check(path, "lower-switch,unify-loop-exits")


@needs_opt
@pytest.mark.parametrize("seed", range(15))
def test_unify_loop_exits_integer_guards(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "f.ll"
    path.write_text(random_cfg(seed, 14))
    _check(path, "lower-switch,unify-loop-exits", {"max-booleans-in-control-flow-hub": "1"})


@needs_opt
@pytest.mark.parametrize("seed", range(40))
def test_fix_irreducible_random(seed: int, tmp_path: Path) -> None:
    """Random CFGs are mostly irreducible; seeds where opt-19 itself builds a broken
    module (its verifier aborts) are skipped."""
    assert OPT is not None
    path = tmp_path / "f.ll"
    path.write_text(random_cfg(seed, 14))
    pipeline = "lower-switch,fix-irreducible"
    r = subprocess.run([OPT, "-passes=" + pipeline, "-S", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("opt-19 breaks the module (LLVM 19 fix-irreducible bug)")
    _check(path, pipeline)


@needs_opt
@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_fix_irreducible_keeps_loop_info(seed: int, tmp_path: Path) -> None:
    """The loop info fix-irreducible keeps prints as opt-19's."""
    assert OPT is not None
    path = tmp_path / "f.ll"
    path.write_text(random_cfg(seed, 14))
    pipeline = "lower-switch,require<loops>,fix-irreducible,print<loops>"
    r = subprocess.run([OPT, "-passes=" + pipeline, "-disable-output", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("opt-19 breaks the module (LLVM 19 fix-irreducible bug)")
    module = parse_file(str(path))
    import io

    stream = io.StringIO()
    llvmpy_mid.run_passes(module, pipeline, stream=stream)
    assert stream.getvalue() == r.stderr


@needs_opt
@pytest.mark.parametrize("path", csmith_params(2))
@pytest.mark.parametrize("pipeline", ["mergereturn", "lower-switch,unify-loop-exits", "lower-switch,fix-irreducible"])
def test_csmith(path: Path, pipeline: str) -> None:
    _check(Path(path), pipeline)


def test_switch_exit_is_a_clear_error() -> None:
    """A loop left through a switch: LLVM requires lower-switch first (release opt-19 reads
    the switch as a branch); here the pass stops with a located IRError."""
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.errors import IRError

    module = parse_assembly(
        """
define i32 @f(i32 %a, i1 %c) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %latch ]
  switch i32 %i, label %latch [ i32 5, label %e1
                                i32 7, label %e2 ]
latch:
  %n = add i32 %i, 1
  br i1 %c, label %loop, label %e1
e1:
  ret i32 1
e2:
  ret i32 2
}
"""
    )
    with pytest.raises(IRError, match="block %loop ends in switch"):
        llvmpy_mid.run_passes(module, "unify-loop-exits")
