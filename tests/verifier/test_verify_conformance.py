"""The verifier against LLVM 19.1.7's own tests and opt-19.

* Every ``.ll`` under ``llvm/test/Verifier/`` that opt-19 rejects (its ``-passes=verify`` verdict,
  cached by ``vcorpus``): our parse-and-verify rejects it too, and its ``CHECK`` lines are found by
  ``FileCheck-19`` in our output, written as the tool named in the ``RUN`` line writes it
  (``llvm-as``: what the reader drops with its warning, "assembly parsed, but does not verify as
  correct!" and the findings; ``opt``: the findings and "input module is broken!"). For the files
  whose CHECK lines opt-19 itself fails (per ``llvm19-opt19.tsv``), our findings must instead equal
  opt-19's. The files opt-19 accepts are covered by the next test.
* Every conformance file: our verdict equals opt-19's (``opt-19 -passes=verify``): accepted files
  give no finding; rejected ones give the same text byte for byte (the debug info the reader
  drops with its warning, then the findings); files opt-19 keeps with "ignoring invalid debug
  info" give the same findings and warning. Files opt-19 rejects while parsing are the parser
  tests' business.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asm"))

from corpus import CONFORMANCE_TESTS, conformance_files, conformance_id, opt19_test_outcomes  # noqa: E402
from vcorpus import dropped_text, opt_results, ours  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.errors import ParseError, VerifierError  # noqa: E402

VERIFIER_FILES = sorted((CONFORMANCE_TESTS / "Verifier").glob("*.ll")) if CONFORMANCE_TESTS.is_dir() else []
ALL_FILES = conformance_files()
HAVE_TOOLS = shutil.which("opt-19") is not None and shutil.which("FileCheck-19") is not None


def _tool_output(path: Path, run_line: str) -> str:
    """What the RUN line's tool prints for ``path``, with our parser and verifier."""
    tool = "llvm-as" if "llvm-as" in run_line.split("|")[0] else "opt"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            llvmpy_mid.parse_file(path)
        except ParseError as exc:
            # As LLVM's SMDiagnostic prints it: the message, the source line, a caret under the column.
            return "%s: %s\n%s\n%s^\n" % (tool, exc, exc.source_line, " " * max(exc.column - 1, 0))
        except VerifierError as exc:
            dropped = dropped_text(caught)
            if tool == "llvm-as":
                return dropped + "llvm-as: assembly parsed, but does not verify as correct!\n" + exc.llvm_text
            return dropped + exc.llvm_text + "llvmpy-opt: %s: error: input module is broken!\n" % path
    return ""


#: Known differences, each with its reason (non-strict xfail: listed here, not hidden).
KNOWN_GAPS: dict[str, str] = {
    # The parser's (llvmpy_mid/asm) business: opt-19 rejects these while parsing and we do not,
    # or with another message; Verifier/ifunc.ll is the reverse (LLVM 19 parses the linkage and
    # lets the verifier reject it).
    "Verifier/alloc-size-failedparse.ll": "parser: allocsize indices naming one parameter",
    "Verifier/ifunc.ll": "parser rejects an ifunc linkage LLVM 19 leaves to the verifier",
    "Verifier/param-attr-align.ll": "parser: 'huge alignments are not supported yet'",
    "Verifier/recursive-type-1.ll": "parser: 'Cannot allocate unsized type' wording",
    "Verifier/recursive-type-2.ll": "parser: 'Cannot allocate unsized type' wording",
    "Verifier/recursive-type-load.ll": "parser: unsized load wording",
    "Verifier/recursive-type-store.ll": "parser: unsized store wording",
    "Verifier/scalable-vector-struct-alloca.ll": "parser: scalable vectors in structs",
    "Verifier/scalable-vector-struct-gep.ll": "parser: scalable vectors in structs",
    "Verifier/scalable-vector-struct-load.ll": "parser: scalable vectors in structs",
    "Verifier/scalable-vector-struct-store.ll": "parser: scalable vectors in structs",
    # The verifier's own open ends.
    "Verifier/alias-scope-metadata.ll": "verifier: domain operand rules and metadata slot order of !alias.scope lists",
    "Verifier/convergencectrl-invalid.ll": "verifier: function-wide convergence-region rules (need cycle info)",
    "Verifier/noalias_scope_decl.ll": "verifier: -verify-noalias-scope-decl-dom is not supported",
    "Verifier/operand-bundles-wineh.ll": "verifier: 'Missing funclet token on intrinsic call' needs funclet colouring",
}


def _known_gap(path: Path, request: pytest.FixtureRequest) -> None:
    """Run the test, as a (non-strict) expected failure when the file is a known gap."""
    reason = KNOWN_GAPS.get(conformance_id(path))
    if reason is not None:
        request.node.add_marker(pytest.mark.xfail(reason=reason, strict=False))


def _rejected_by_opt19() -> list[Path]:
    if not HAVE_TOOLS or not VERIFIER_FILES:
        return []
    verdicts = opt_results(VERIFIER_FILES)
    return [p for p in VERIFIER_FILES if verdicts[str(p)][0] in ("broken", "parse")]


REJECTED = _rejected_by_opt19()


@pytest.mark.skipif(not HAVE_TOOLS, reason="opt-19 / FileCheck-19 not installed")
@pytest.mark.parametrize("path", REJECTED, ids=[p.name for p in REJECTED])
def test_verifier_folder(path: Path, request: pytest.FixtureRequest) -> None:
    _known_gap(path, request)
    text = path.read_text()
    run = next(line for line in text.splitlines() if "RUN:" in line)
    output = _tool_output(path, run)
    assert output, "accepted a module opt-19 rejects"
    outcome = opt19_test_outcomes().get(conformance_id(path), "PASS")
    if outcome != "PASS":
        # CHECK lines opt-19 itself fails: opt-19's own output is the target.
        kind, theirs = opt_results([path])[str(path)]
        if kind == "broken":
            assert ours(path) == ("broken", theirs)
        return
    if "CHECK" not in text:
        return  # the test only asks that the tool fails (``not llvm-as < %s``)
    proc = subprocess.run(
        ["FileCheck-19", str(path)], input=output.encode(), capture_output=True, timeout=60
    )
    assert proc.returncode == 0, "FileCheck failed:\n%s\n--- our output:\n%s" % (
        proc.stderr.decode(errors="replace")[-3000:],
        output[:3000],
    )


@pytest.fixture(scope="module")
def opt_verdicts() -> dict[str, tuple[str, str]]:
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 not installed")
    return opt_results(ALL_FILES)


@pytest.mark.parametrize("path", ALL_FILES, ids=[conformance_id(p) for p in ALL_FILES])
def test_verdict_matches_opt19(
    path: Path, opt_verdicts: dict[str, tuple[str, str]], request: pytest.FixtureRequest
) -> None:
    kind, theirs = opt_verdicts[str(path)]
    if kind == "parse":
        pytest.skip("opt-19 rejects it while parsing (the parser tests cover it)")
    _known_gap(path, request)
    our_kind, our_text = ours(path)
    if our_kind == "parse":
        pytest.fail("our parser rejects a file opt-19 parses: %s" % our_text)
    assert our_kind == kind, "opt-19: %s\n%s\nours: %s\n%s" % (kind, theirs[:2000], our_kind, our_text[:2000])
    if "<0x" not in theirs:  # opt-19 names an unnumbered node by its address: no text to match
        assert our_text == theirs
