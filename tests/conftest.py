"""Project-wide pytest configuration: the ``--run-slow`` option and the ``slow`` marker.

Tests marked ``@pytest.mark.slow`` (long oracle sweeps: hundreds of csmith seeds, long fuzzing
runs) are skipped unless ``--run-slow`` is given, so the default ``python -m pytest -q`` stays fast.
The session's csmith corpus folder is fixed here too (see ``tests/csmith_files.py``). pytest's
header says which oracles were found (``tests/oracles.py``), and the run ends with one line per
oracle that was missing, naming what skipped for it and how to get it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracles  # noqa: E402

SLOW_SKIP_REASON = "slow test: skipped unless pytest is run with --run-slow"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run tests marked 'slow' (long oracle sweeps and fuzzing runs)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long oracle sweeps, run only with --run-slow")
    # Before any test module is collected: the per-file sweeps over LLVM's tests take all files.
    if config.getoption("--run-slow"):
        os.environ[oracles.FULL_SWEEP_ENV] = "1"
    # One csmith corpus folder for the whole session (tests/csmith_files.py and the asm fixtures):
    # the developer's folder when set, else a cache keyed by the generating script and clang-19
    # (generated once per machine, like the fetched LLVM tests), else a fresh temporary one.
    if not os.environ.get("LLVMPY_MID_CSMITH_DIR"):
        cached = oracles.csmith_cache_dir()
        if cached is not None:
            os.environ["LLVMPY_MID_CSMITH_DIR"] = str(cached)
        else:
            os.environ["LLVMPY_MID_CSMITH_DIR"] = _CREATED[0] = tempfile.mkdtemp(prefix="llvmpy-csmith-")


_CREATED: list[str] = [""]


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CREATED[0]:
        shutil.rmtree(_CREATED[0], ignore_errors=True)
        os.environ.pop("LLVMPY_MID_CSMITH_DIR", None)
        _CREATED[0] = ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip_slow = pytest.mark.skip(reason=SLOW_SKIP_REASON)
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_report_header(config: pytest.Config) -> list[str]:
    return oracles.oracle_summary()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when oracles are missing: which, how many tests skipped for them, how to get them."""
    absent = oracles.absent_oracles()
    if not absent:
        return
    markers = tuple(absent) + ("not installed", " not found", "oracle")
    skipped = 0
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        skipped += any(m in reason for m in markers)
    terminalreporter.write_line(
        "oracles missing: %s -- %d tests skipped for them; run scripts/setup-oracles.sh (Debian, as root)"
        % (", ".join(absent), skipped)
    )
