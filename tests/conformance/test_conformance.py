"""LLVM 19.1.7's own tests in the suite: no regression against ``expected-pass.txt``, no silent gains.

By default: every listed test of the folders Verifier/, Assembler/, Other/ (pass-manager tests)
and the utility-pass folders, a fixed half of the listed tests of every other folder with a
passing test, the fixed sample
(``oracles.in_sample``) of their other tests and of every other folder, through the runner's fork
server; everything else runs only with ``--run-slow``.
Without the fetched LLVM tests these skip, naming the oracle. A test listed in
``expected-pass.txt`` that no longer passes is a regression; a target test (one opt-19 passes) that
passes but is not listed asks to be added (``python tests/conformance/runner.py --write-expected``).

It does not check the reasons given for unsupported tests, only PASS against the list.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import runner  # noqa: E402

UTILITY_FOLDERS = (
    "Verifier",
    "Assembler",
    "Other",
    "Transforms/StripSymbols",
    "Transforms/InstNamer",
    "Transforms/StripDeadPrototypes",
    "Transforms/LoopSimplify",
    "Transforms/LCSSA",
)
#: The utility folders plus every folder holding a test listed as passing.
FAST_FOLDERS = tuple(
    sorted(set(UTILITY_FOLDERS) | {n.rsplit("/", 1)[0] for n in runner.load_expected_pass()})
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import FETCH_HINT, LLVM_RELEASE, have_llvm_tests, in_sample, missing_tools, note_missing  # noqa: E402

_NEEDS = missing_tools("FileCheck-19", "opt-19")
pytestmark = [
    pytest.mark.skipif(not have_llvm_tests(), reason=note_missing("LLVM %s tests" % LLVM_RELEASE, FETCH_HINT)),
    pytest.mark.skipif(bool(_NEEDS), reason=note_missing(", ".join(_NEEDS), "run scripts/setup-oracles.sh")),
]


def _check(folders: list[str], names: list[str] | None = None) -> None:
    """Run ``folders`` (or exactly ``names``: then ``folders`` only says which listed tests
    must have run) and compare with ``expected-pass.txt``."""
    results = runner.run_tests(folders, names=names)
    assert results, "no tests found in %s" % (folders or "the sample")
    expected = runner.load_expected_pass()
    ran = {r.name for r in results}
    if folders:
        in_scope = {n for n in expected if n.rsplit("/", 1)[0] in folders}
    else:
        in_scope = expected & set(names or ())
    regressions = [
        "%s: %s %s" % (r.name, r.status, r.reason)
        for r in results if r.name in expected and r.status != runner.PASS
    ]
    gained = [
        r.name for r in results
        if r.status == runner.PASS and r.name not in expected and r.reason != runner.NOT_A_TARGET
    ]
    gone = sorted(in_scope - ran)
    problems = []
    if regressions:
        problems.append("regressions (listed in expected-pass.txt, no longer pass):\n  "
                        + "\n  ".join(regressions))
    if gained:
        problems.append("new passes: add to expected-pass.txt (runner.py --write-expected):\n  "
                        + "\n  ".join(gained))
    if gone:
        problems.append("listed tests missing from the corpus:\n  " + "\n  ".join(gone))
    assert not problems, "\n".join(problems)


def _in_listed_share(name: str) -> bool:
    """The fixed half of the listed tests outside the utility folders that the default run
    takes (a stable hash, independent of ``in_sample``); ``--run-slow`` runs them all."""
    return zlib.crc32(("listed:" + name).encode()) % 2 == 0


def test_fast_folders() -> None:
    """Every listed test of the utility folders, a fixed half of the other folders' listed tests,
    and the fixed sample of their other tests (the failing and unsupported ones: a gain there is
    caught by the sample or by ``--run-slow``, which runs every test of these folders)."""
    expected = runner.load_expected_pass()
    utility = tuple(f + "/" for f in UTILITY_FOLDERS)
    names = [
        n for n in runner.list_tests(list(FAST_FOLDERS))
        if in_sample(n) or (n in expected and (n.startswith(utility) or _in_listed_share(n)))
    ]
    _check([], names)


def test_every_listed_test_is_in_the_corpus() -> None:
    """``expected-pass.txt`` names only tests that exist (without running them)."""
    present = set(runner.list_tests(list(FAST_FOLDERS)))
    gone = sorted(runner.load_expected_pass() - present)
    assert not gone, "listed tests missing from the corpus:\n  " + "\n  ".join(gone)


@pytest.mark.slow
def test_fast_folders_every_test() -> None:
    _check(list(FAST_FOLDERS))


def test_fixed_sample_of_other_folders() -> None:
    """The other folders' tests in the fixed sample (about one in thirty-two)."""
    names = [n for n in runner.list_tests(_slow_folders()) if in_sample(n)]
    _check([], names)


def _slow_folders() -> list[str]:
    if not runner.TEST_ROOT.is_dir():
        return []
    folders = {p.parent.relative_to(runner.TEST_ROOT).as_posix() for p in runner.TEST_ROOT.rglob("*.ll")}
    return sorted(folders - set(FAST_FOLDERS))


@pytest.mark.slow
def test_other_folders() -> None:
    _check(_slow_folders())


def test_table_counts_every_test() -> None:
    results = [
        runner.Result("A/x.ll", runner.PASS),
        runner.Result("A/y.ll", runner.UNSUPPORTED, "missing pass: gvn"),
        runner.Result("B/z.ll", runner.UNSUPPORTED, runner.NOT_A_TARGET),
    ]
    text = runner.table(results, markdown=True)
    assert "| A | 1 | 0 | 1 | 0 |" in text
    assert "| total | 1 | 0 | 1 | 1 |" in text


def test_directives_join_continuations() -> None:
    d = runner.read_directives(
        "; RUN: opt -S \\\n; RUN:   -passes=verify %s | FileCheck %s\n; REQUIRES: asserts\n"
    )
    assert d.run == ["opt -S -passes=verify %s | FileCheck %s"]
    assert d.requires == ["asserts"]
    assert not runner.feature_true("asserts")
    assert runner.feature_true("!asserts")
    assert runner.feature_true("*")


def test_missing_pass_detection() -> None:
    assert runner.missing_passes("function(instnamer),strip") == []
    assert runner.missing_passes("function(loop-unroll),jump-threading") == ["jump-threading", "loop-unroll"]
