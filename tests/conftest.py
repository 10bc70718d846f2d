"""Project-wide pytest configuration: the ``--run-slow`` option and the ``slow`` marker.

Tests marked ``@pytest.mark.slow`` (long oracle sweeps: hundreds of csmith seeds, long fuzzing
runs) are skipped unless ``--run-slow`` is given, so the default ``python -m pytest -q`` stays fast.
The session's csmith corpus folder is fixed here too (see ``tests/csmith_files.py``).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

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
    # One csmith corpus folder for the whole session (tests/csmith_files.py and the asm fixtures):
    # the developer's kept folder when set, else a fresh temporary one.
    if not os.environ.get("LLVMPY_MID_CSMITH_DIR"):
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
