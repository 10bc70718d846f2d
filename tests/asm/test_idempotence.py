"""Idempotence: printing, parsing the printed text and printing again gives the same text, and
``llvm-as-19`` accepts the text we print.

Runs on the default csmith corpus (every ``.O0.ll``/``.O2.ll``/``.O2g.ll``) and on every
conformance file opt-19 accepts (the others are skipped as not applicable). The first print is
shared with the round-trip tests (see ``our_text`` in conftest), so each file is parsed twice in a
whole run, not three times.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

import pytest
from corpus import (
    DEFAULT_SEEDS,
    LEVELS,
    LLVM_AS,
    CsmithCorpus,
    OptOracle,
    conformance_files,
    conformance_id,
    known_roundtrip_gaps,
    missing_tools,
    text_diff,
)

from llvmpy_mid import ParseError, parse_assembly, print_module

FILES = conformance_files()
GAPS = known_roundtrip_gaps()


def _check(path: Path, label: str, our_text: Callable[[Path], str]) -> None:
    first = our_text(path)
    # Parsed under the same name, so even the ModuleID line must come out the same.
    second = print_module(parse_assembly(first, name=str(path)))
    if first != second:
        diff = text_diff("; ModuleID\n" + first, "; ModuleID\n" + second, label)
        pytest.fail("printing is not idempotent (expected = first print, actual = second)\n%s" % diff, pytrace=False)
    if missing_tools(LLVM_AS):
        pytest.skip("llvm-as-19 is not installed")
    proc = subprocess.run(
        [LLVM_AS, "-", "-o", "/dev/null"], input=first.encode(), capture_output=True, check=False
    )
    if proc.returncode != 0:
        pytest.fail(
            "llvm-as-19 rejects our printed text of %s:\n%s" % (label, proc.stderr.decode(errors="replace")[:2000]),
            pytrace=False,
        )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", DEFAULT_SEEDS, ids=lambda s: "s%d" % s)
def test_idempotent_csmith(csmith_corpus: CsmithCorpus, our_text: Callable[[Path], str], seed: int, level: str) -> None:
    path = csmith_corpus.path(seed, level)
    if path is None:
        pytest.skip("seed %d was dropped by make-csmith-corpus.sh" % seed)
    _check(path, path.name, our_text)


@pytest.mark.parametrize("path", FILES, ids=[conformance_id(p) for p in FILES])
def test_idempotent_conformance(conformance_oracle: OptOracle, our_text: Callable[[Path], str], path: Path) -> None:
    if not conformance_oracle.get(path).accepted:
        pytest.skip("not applicable: opt-19 rejects it")
    gap = GAPS.get(conformance_id(path))
    if gap is not None:
        try:
            _check(path, conformance_id(path), our_text)
        except (pytest.fail.Exception, ParseError):
            pytest.xfail("known round-trip gap (roundtrip-known-gaps.txt): %s" % gap)
        return
    _check(path, conformance_id(path), our_text)
