"""Round trip against opt-19 on LLVM 19.1.7's own regression tests (fetched: ``tests/oracles.py``).

For every ``.ll`` file that ``opt-19 -S`` accepts, ``print_module(parse_file(f))`` must equal opt's
output apart from the first (``; ModuleID``) line. Files opt-19 rejects (the verifier's negative
tests, the assembler's invalid inputs, syntax newer than LLVM 19) are reported as skipped with
"not applicable" and opt's first error line: they are not counted as passing. The terminal summary
at the end of the run gives the counts per folder. Files listed in ``roundtrip-known-gaps.txt`` (with
their cause) are expected failures while they differ, and fail once they match. The default run takes the fixed sample of
``oracles.llvm_test_files``; ``--run-slow`` every file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from corpus import OptOracle, conformance_files, conformance_id, known_roundtrip_gaps, text_diff
from oracles import LLVM_TEST_ROOT, require_llvm_tests

from llvmpy_mid import ParseError, VerifierError

FILES = conformance_files()
GAPS = known_roundtrip_gaps()


@pytest.mark.parametrize("path", FILES, ids=[conformance_id(p) for p in FILES])
def test_roundtrip_conformance(conformance_oracle: OptOracle, our_text: Callable[[Path], str], path: Path) -> None:
    expected = conformance_oracle.get(path)
    if not expected.accepted:
        pytest.skip("not applicable: opt-19 rejects it: %s" % expected.first_error_line())
    name = conformance_id(path)
    gap = GAPS.get(name)
    try:
        ours = our_text(path)
    except (ParseError, VerifierError) as exc:
        if gap is not None:
            pytest.xfail("known gap (roundtrip-known-gaps.txt): %s (%s)" % (gap, str(exc).splitlines()[0]))
        raise
    diff = text_diff(expected.stdout, ours, name)
    if diff is not None and gap is not None:
        pytest.xfail("known gap (roundtrip-known-gaps.txt): %s" % gap)
    if diff is None and gap is not None:
        pytest.fail("%s now matches opt-19: remove it from tests/asm/roundtrip-known-gaps.txt" % name, pytrace=False)
    if diff is not None:
        pytest.fail(diff, pytrace=False)


def test_conformance_corpus_present() -> None:
    require_llvm_tests()
    assert len(FILES) >= 300, "LLVM 19.1.7 test tree incomplete under %s" % LLVM_TEST_ROOT
