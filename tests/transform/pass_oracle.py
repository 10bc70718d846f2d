"""Helpers shared by the tests of the toolkit passes: a sample of the csmith corpus (the
first few files in the default run, the rest ``slow``) and the check that a pipeline
prints what ``opt-19`` prints for a file."""

from __future__ import annotations

from pathlib import Path

import pytest
from loop_oracle import CSMITH_FILES, body, opt19

import llvmpy_mid
from llvmpy_mid.asm import parse_file, print_module


def csmith_params(in_default_run: int = 3, suffix: str = "") -> list[object]:
    """The csmith files (those ending in ``suffix``) as parameters; beyond the first
    ``in_default_run`` they are marked slow."""
    out: list[object] = []
    files = [p for p in CSMITH_FILES if str(p).endswith(suffix)]
    for i, p in enumerate(files):
        marks = [] if i < in_default_run else [pytest.mark.slow]
        out.append(pytest.param(p, marks=marks, id=Path(p).name))
    return out


def check_like_opt(path: Path, pipeline: str) -> None:
    """Our output of ``pipeline`` on ``path`` equals opt-19's (skipped when opt-19 rejects it)."""
    expected = opt19(Path(path), pipeline)
    if expected is None:
        pytest.skip("opt-19 rejects it")
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline)
    assert body(print_module(module)) == body(expected)
