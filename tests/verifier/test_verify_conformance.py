"""The verifier against LLVM's own tests and opt-19.

* Every ``.ll`` under ``llvm/test/Verifier/`` (opt-19 rejects them all): our parse-and-verify rejects
  it, and its ``CHECK`` lines are found by ``FileCheck-19`` in our output, written as the tool named in
  the ``RUN`` line writes it (``llvm-as``: "assembly parsed, but does not verify as correct!" and the
  findings; ``opt``: the findings and "input module is broken!"). For the files whose CHECK lines
  were written for a newer LLVM (opt-19 itself fails them, per ``opt19-expected.tsv``), our output
  must instead equal opt-19's.
* Every conformance file: our verdict equals opt-19's (``opt-19 -passes=verify``): accepted files
  give no finding, rejected ones give the same findings text byte for byte, and files opt-19 keeps
  with "ignoring invalid debug info" give debug-info findings only.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asm"))

from corpus import CONFORMANCE_TESTS, conformance_files, conformance_id, opt19_test_outcomes  # noqa: E402
from vcorpus import opt_results, ours  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.errors import ParseError, VerifierError  # noqa: E402

VERIFIER_FILES = sorted((CONFORMANCE_TESTS / "Verifier").glob("*.ll")) if CONFORMANCE_TESTS.is_dir() else []
ALL_FILES = conformance_files()
HAVE_TOOLS = shutil.which("opt-19") is not None and shutil.which("FileCheck-19") is not None


def _tool_output(path: Path, run_line: str) -> str:
    """What the RUN line's tool prints for ``path``, with our parser and verifier."""
    tool = "llvm-as" if "llvm-as" in run_line.split("|")[0] else "opt"
    try:
        llvmpy_mid.parse_file(path)
    except ParseError as exc:
        # As LLVM's SMDiagnostic prints it: the message, the source line, a caret under the column.
        return "%s: %s\n%s\n%s^\n" % (tool, exc, exc.source_line, " " * max(exc.column - 1, 0))
    except VerifierError as exc:
        if tool == "llvm-as":
            return "llvm-as: assembly parsed, but does not verify as correct!\n" + exc.llvm_text
        return exc.llvm_text + "llvmpy-opt: %s: error: input module is broken!\n" % path
    return ""


@pytest.mark.skipif(not HAVE_TOOLS, reason="opt-19 / FileCheck-19 not installed")
@pytest.mark.parametrize("path", VERIFIER_FILES, ids=[p.name for p in VERIFIER_FILES])
def test_verifier_folder(path: Path) -> None:
    text = path.read_text()
    run = next(line for line in text.splitlines() if "RUN:" in line)
    output = _tool_output(path, run)
    assert output, "accepted a module opt-19 rejects"
    outcome = opt19_test_outcomes().get(conformance_id(path), "PASS")
    if outcome != "PASS":
        # Written for a newer LLVM: opt-19's own output is the target.
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
def test_verdict_matches_opt19(path: Path, opt_verdicts: dict[str, tuple[str, str]]) -> None:
    kind, theirs = opt_verdicts[str(path)]
    if kind == "parse":
        pytest.skip("opt-19 rejects it while parsing (the parser tests cover it)")
    our_kind, our_text = ours(path)
    if our_kind == "parse":
        pytest.fail("our parser rejects a file opt-19 parses: %s" % our_text)
    assert our_kind == kind, "opt-19: %s\n%s\nours: %s\n%s" % (kind, theirs[:2000], our_kind, our_text[:2000])
    if kind == "broken":
        assert our_text == theirs
