"""Round trip against opt-19 on csmith programs: ``print_module(parse_file(f))`` equals
``opt-19 -S f`` apart from the first (``; ModuleID``) line, for every ``.O0.ll``, ``.O2.ll`` and
``.O2g.ll`` that ``scripts/make-csmith-corpus.sh`` writes.

The default run covers the thirty seeds of ``corpus.DEFAULT_SEEDS`` (90 files); ``--run-slow`` adds
a sweep over ``corpus.SLOW_SEEDS`` (three hundred seeds). The programs are generated once per session
into a temporary folder and opt-19 runs once per file. A mismatch fails with a short unified diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from corpus import DEFAULT_SEEDS, LEVELS, SLOW_SEEDS, CsmithCorpus, OptOracle, text_diff

from llvmpy_mid import parse_file, print_module


def _check(corpus: CsmithCorpus, opt19: OptOracle, our_text: Callable[[Path], str], seed: int, level: str) -> None:
    path = corpus.path(seed, level)
    if path is None:
        pytest.skip("seed %d was dropped by make-csmith-corpus.sh (program did not finish under lli-19)" % seed)
    expected = opt19.get(path)
    if not expected.accepted:
        pytest.fail("opt-19 rejects clang-19's output %s: %s" % (path.name, expected.first_error_line()))
    diff = text_diff(expected.stdout, our_text(path), path.name)
    if diff is not None:
        pytest.fail(diff, pytrace=False)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", DEFAULT_SEEDS, ids=lambda s: "s%d" % s)
def test_roundtrip_csmith(
    csmith_corpus: CsmithCorpus, opt19: OptOracle, our_text: Callable[[Path], str], seed: int, level: str
) -> None:
    _check(csmith_corpus, opt19, our_text, seed, level)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SLOW_SEEDS, ids=lambda s: "s%d" % s)
def test_roundtrip_csmith_slow(
    csmith_corpus_slow: CsmithCorpus, opt19: OptOracle, our_text: Callable[[Path], str], seed: int, level: str
) -> None:
    _check(csmith_corpus_slow, opt19, our_text, seed, level)


def test_default_corpus_has_thirty_programs(csmith_corpus: CsmithCorpus) -> None:
    # The issue asks for at least 30 seeds in the default run; a dropped seed would lower that.
    assert not csmith_corpus.dropped, "seeds dropped by the corpus script: %s" % sorted(csmith_corpus.dropped)
    assert len(csmith_corpus.files) >= 30


def test_module_id_line_names_the_path(csmith_corpus: CsmithCorpus, opt19: OptOracle) -> None:
    # opt prints the path it was given; parse_file names the module after the path it was given.
    path = csmith_corpus.path(DEFAULT_SEEDS[0], "O2")
    assert path is not None
    ours = print_module(parse_file(path))
    assert ours.split("\n", 1)[0] == opt19.get(path).stdout.split("\n", 1)[0]


def test_str_of_module_is_print_module(csmith_corpus: CsmithCorpus) -> None:
    path = csmith_corpus.path(DEFAULT_SEEDS[0], "O0")
    assert path is not None
    module = parse_file(path)
    assert str(module) == print_module(module)
