"""Session fixtures for the textual-IR oracle tests, and a per-folder summary of their results.

Fixtures (all session-scoped, so each expensive step happens once per run):

* ``opt19``: the :class:`corpus.OptOracle` (``opt-19 -S`` once per file; for the conformance files
  and a kept csmith folder also cached on disk in pytest's cache folder, keyed by path, file bytes
  and opt's version).
* ``csmith_corpus`` / ``csmith_corpus_slow``: csmith programs for ``DEFAULT_SEEDS`` /
  ``SLOW_SEEDS`` generated into one temporary folder per session (``csmith_dir``; or
  ``$LLVMPY_MID_CSMITH_DIR`` when set, so a developer can keep them between runs), with opt-19's
  outputs computed up front on a thread pool.
* ``conformance_oracle``: the oracle with every conformance file already run through opt-19.
* ``our_text``: ``print_module(parse_file(path))``, computed once per file and shared by the
  round-trip and idempotence tests (a failure is remembered and reported again, briefly).

At the end of a run that executed any of the oracle tests, the terminal summary gives a table of
passed/failed/not-applicable counts per conformance folder and per csmith optimisation level.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Callable

import pytest
from corpus import (
    CONFORMANCE_TESTS,
    DEFAULT_SEEDS,
    SLOW_SEEDS,
    CsmithCorpus,
    OptOracle,
    conformance_files,
    generate_csmith,
    missing_tools,
)

CSMITH_TOOLS = ("bash", "csmith", "clang-19", "lli-19", "opt-19")


@pytest.fixture(scope="session")
def opt19(pytestconfig: pytest.Config) -> OptOracle:
    missing = missing_tools("opt-19")
    if missing:
        pytest.skip("opt-19 is not installed (run scripts/install-llvm-tools.sh)")
    cache = getattr(pytestconfig, "cache", None)
    cache_dir = cache.mkdir("llvmpy-opt19") if cache is not None else None
    roots = [CONFORMANCE_TESTS]
    keep = os.environ.get("LLVMPY_MID_CSMITH_DIR")
    if keep:
        roots.append(Path(keep))
    return OptOracle(Path(cache_dir) if cache_dir is not None else None, roots)


@pytest.fixture(scope="session")
def csmith_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where csmith programs go: ``$LLVMPY_MID_CSMITH_DIR`` if set (kept), else a temporary folder.
    The default and the slow corpus share it, so the slow sweep reuses the default seeds."""
    keep = os.environ.get("LLVMPY_MID_CSMITH_DIR")
    if keep:
        path = Path(keep)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("csmith")


def _make_corpus(folder: Path, opt19: OptOracle, seeds: tuple[int, ...]) -> CsmithCorpus:
    missing = missing_tools(*CSMITH_TOOLS)
    if missing:
        pytest.skip("csmith corpus needs %s (run scripts/install-llvm-tools.sh)" % ", ".join(missing))
    corpus = generate_csmith(folder, seeds)
    opt19.prefetch(corpus.all_files())
    return corpus


@pytest.fixture(scope="session")
def csmith_corpus(csmith_dir: Path, opt19: OptOracle) -> CsmithCorpus:
    return _make_corpus(csmith_dir, opt19, DEFAULT_SEEDS)


@pytest.fixture(scope="session")
def csmith_corpus_slow(csmith_dir: Path, opt19: OptOracle) -> CsmithCorpus:
    return _make_corpus(csmith_dir, opt19, SLOW_SEEDS)


@pytest.fixture(scope="session")
def conformance_oracle(opt19: OptOracle) -> OptOracle:
    opt19.prefetch(conformance_files())
    return opt19


@pytest.fixture(scope="session")
def our_text() -> Callable[[Path], str]:
    """``print_module(parse_file(path))`` memoised per path (exceptions are remembered too)."""
    from llvmpy_mid import parse_file, print_module

    memo: dict[str, str | Exception] = {}

    def text_of(path: Path) -> str:
        key = str(path)
        hit = memo.get(key)
        if hit is None:
            try:
                hit = print_module(parse_file(key))
            except Exception as exc:
                # This test sees the original traceback; later tests of the file a short summary.
                memo[key] = RuntimeError("parsing or printing %s failed earlier: %s: %s" % (key, type(exc).__name__, exc))
                raise
            memo[key] = hit
        if isinstance(hit, Exception):
            raise hit
        return hit

    return text_of


# --- per-folder summary -----------------------------------------------------------------------

# test function -> short column name; rows of the table are conformance folders / csmith levels.
_COLUMNS = {
    "test_roundtrip_conformance": "round trip",
    "test_idempotent_conformance": "idempotence",
    "test_roundtrip_csmith": "round trip",
    "test_roundtrip_csmith_slow": "round trip (slow)",
    "test_idempotent_csmith": "idempotence",
    "test_invalid_conformance_file": "invalid: message",
    "test_invalid_conformance_location": "invalid: location",
    "test_hand_written_invalid_input": "invalid: hand-written",
}
_outcomes: dict[str, str] = {}


def _cell_of(nodeid: str) -> tuple[str, str] | None:
    """(row, column) of a parametrized oracle test, or None for other tests."""
    _, _, rest = nodeid.partition("::")
    func, bracket, param = rest.partition("[")
    column = _COLUMNS.get(func)
    if column is None or not bracket:
        return None
    param = param[:-1]
    if "csmith" in func:
        return ("csmith " + param.rsplit("-", 1)[-1], column)  # ids look like 's12-O2g'
    if func == "test_hand_written_invalid_input":
        return ("(hand-written)", column)
    return (param.rsplit("/", 1)[0], column)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _cell_of(report.nodeid) is None:
        return
    previous = _outcomes.get(report.nodeid)
    if report.failed:
        _outcomes[report.nodeid] = "failed"
    elif report.skipped and previous != "failed":
        _outcomes[report.nodeid] = "n/a"
    elif report.when == "call" and report.passed and previous is None:
        _outcomes[report.nodeid] = "passed"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"passed": 0, "failed": 0, "n/a": 0})
    for nodeid, outcome in _outcomes.items():
        cell = _cell_of(nodeid)
        if cell is not None:
            counts[cell][outcome] += 1
    # A column whose tests were all skipped (e.g. the slow sweep without --run-slow) is left out.
    ran = sorted({c for (_, c), v in counts.items() if v["passed"] or v["failed"]}, key=list(_COLUMNS.values()).index)
    if not ran:
        return
    rows = sorted({r for (r, c) in counts if c in ran}, key=lambda r: (r.startswith("csmith"), r))
    tr = terminalreporter
    tr.section("textual IR oracle results: passed/failed/not applicable")
    width = max(len(r) for r in rows) + 2
    cw = {c: max(len(c), 11) + 2 for c in ran}
    tr.write_line("".join(["".ljust(width)] + [c.rjust(cw[c]) for c in ran]))
    totals = {c: {"passed": 0, "failed": 0, "n/a": 0} for c in ran}
    for row in rows:
        cells = []
        for c in ran:
            v = counts.get((row, c))
            if v is None:
                cells.append("".rjust(cw[c]))
                continue
            for k in totals[c]:
                totals[c][k] += v[k]
            cells.append(("%d/%d/%d" % (v["passed"], v["failed"], v["n/a"])).rjust(cw[c]))
        tr.write_line("".join([row.ljust(width)] + cells))
    tr.write_line(
        "".join(["total".ljust(width)] + [("%(passed)d/%(failed)d/%(n/a)d" % totals[c]).rjust(cw[c]) for c in ran])
    )
