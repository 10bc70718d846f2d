"""Where the test oracles live and whether they are here: one place for every test to ask.

The oracles are LLVM 19's tools (``opt-19``, ``llvm-as-19``, ``FileCheck-19``, ``lli-19``,
``clang-19``, ``llvm-stress-19``), csmith, and LLVM 19.1.7's own regression tests with the source
beside them (fetched by ``scripts/fetch-llvm-tests.sh``). ``scripts/setup-oracles.sh`` installs and
fetches all of them. Nothing here reaches outside the repository except the fetched LLVM tree,
whose folder is ``$LLVMPY_MID_LLVM_SRC`` or ``~/.cache/llvmpy-mid/llvm-19.1.7`` (the script's
default), and the tools on ``PATH``.

Tests ask :func:`require_llvm_tests` / :func:`require_tools` (which skip with the oracle's name and
how to get it) instead of building paths of their own; ``tests/conftest.py`` prints what was found
in pytest's header and one summary line per missing oracle at the end of the run.
"""

from __future__ import annotations

import os
import shutil
import zlib
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = REPO_ROOT / "scripts"
DATA = Path(__file__).resolve().parent / "data"

#: The LLVM release whose tests are the target: the one Debian's opt-19 is built from.
LLVM_RELEASE = "19.1.7"
LLVM_SRC = Path(
    os.environ.get("LLVMPY_MID_LLVM_SRC")
    or Path.home() / ".cache" / "llvmpy-mid" / ("llvm-" + LLVM_RELEASE)
)
#: ``llvm/test`` of the fetched release (Transforms, Analysis, Other, Verifier, Assembler, Bitcode).
LLVM_TEST_ROOT = LLVM_SRC / "llvm" / "test"
#: What opt-19 itself gets on each LLVM 19.1.7 test (checked in: measured with opt-19).
OPT19_RESULTS_TSV = Path(__file__).resolve().parent / "conformance" / "llvm19-opt19.tsv"

LLVM_TOOLS = ("opt-19", "llvm-as-19", "FileCheck-19", "lli-19", "clang-19", "llvm-stress-19")
CSMITH_TOOLS = ("bash", "csmith", "clang-19", "lli-19", "opt-19")

INSTALL_HINT = "run scripts/setup-oracles.sh (Debian, root) or scripts/install-llvm-tools.sh"
FETCH_HINT = "run scripts/fetch-llvm-tests.sh (Debian, root: apt-get source llvm-toolchain-19)"



def missing_tools(*names: str) -> list[str]:
    """The named programs that are not on PATH."""
    return [n for n in names if shutil.which(n) is None]


def have_llvm_tests() -> bool:
    """True when LLVM 19.1.7's test tree has been fetched."""
    return LLVM_TEST_ROOT.is_dir() and (LLVM_TEST_ROOT / "Transforms").is_dir()


def llvm_test_path(relative: str) -> Path:
    """A path inside the fetched ``llvm/test`` (``"Transforms/MergeFunc/x.ll"``); may not exist."""
    return LLVM_TEST_ROOT / relative


def note_missing(oracle: str, hint: str) -> str:
    """The skip reason for a missing oracle (conftest's summary counts skips by the name in it)."""
    return "%s not found (%s)" % (oracle, hint)


def require_tools(*names: str) -> None:
    """Skip the calling test unless every named program is on PATH."""
    missing = missing_tools(*names)
    if missing:
        pytest.skip(note_missing(", ".join(missing), INSTALL_HINT))


def require_llvm_tests() -> Path:
    """Skip the calling test unless LLVM 19.1.7's tests are fetched; returns ``llvm/test``."""
    if not have_llvm_tests():
        pytest.skip(note_missing("LLVM %s tests" % LLVM_RELEASE, FETCH_HINT))
    return LLVM_TEST_ROOT


def csmith_cache_dir() -> Path | None:
    """Where generated csmith programs are kept between runs: under ``~/.cache/llvmpy-mid``, keyed
    by the generating script's text and clang-19's path and size, so a change of either starts a
    new corpus. None when the cache folder cannot be made or the tools are missing."""
    clang = shutil.which("clang-19")
    if clang is None or shutil.which("csmith") is None:
        return None
    script = SCRIPTS / "make-csmith-corpus.sh"
    key = zlib.crc32(script.read_bytes() + clang.encode() + str(os.path.getsize(os.path.realpath(clang))).encode())
    folder = Path.home() / ".cache" / "llvmpy-mid" / ("csmith-%08x" % key)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def absent_oracles() -> dict[str, str]:
    """The oracles not on this machine, each with how to get it."""
    out = {t: INSTALL_HINT for t in missing_tools(*LLVM_TOOLS, "csmith")}
    if not have_llvm_tests():
        out["LLVM %s tests" % LLVM_RELEASE] = FETCH_HINT
    return out


def oracle_summary() -> list[str]:
    """One line per oracle for pytest's header."""
    tools = ["%s %s" % (t, "yes" if shutil.which(t) else "MISSING") for t in LLVM_TOOLS + ("csmith",)]
    tests = "LLVM %s tests: %s" % (
        LLVM_RELEASE, LLVM_TEST_ROOT if have_llvm_tests() else "MISSING (%s)" % FETCH_HINT
    )
    return ["oracles: " + ", ".join(tools), tests]


#: Set (to "1") by ``tests/conftest.py`` under ``--run-slow``: the sweeps take every file.
FULL_SWEEP_ENV = "LLVMPY_MID_FULL_SWEEP"
#: The default run's share of LLVM's test files in the per-file sweeps (1 in SAMPLE_EVERY).
SAMPLE_EVERY = 32


def full_sweep() -> bool:
    return os.environ.get(FULL_SWEEP_ENV) == "1"


def in_sample(relative: str) -> bool:
    """Whether an LLVM test (path relative to ``llvm/test``) is in the default run's fixed sample:
    a stable hash of its name, so the sample is the same on every machine and every run."""
    return zlib.crc32(relative.encode()) % SAMPLE_EVERY == 0


def llvm_test_files(folder: str = "", *, sample: bool = True) -> list[Path]:
    """The ``.ll`` files under ``llvm/test/<folder>`` (recursively); the default run's sample of
    them unless ``sample`` is false or the run is a full sweep. Empty when the tree is missing."""
    root = LLVM_TEST_ROOT / folder if folder else LLVM_TEST_ROOT
    if not have_llvm_tests() or not root.is_dir():
        return []
    files = sorted(root.rglob("*.ll"))
    if sample and not full_sweep():
        files = [p for p in files if in_sample(p.relative_to(LLVM_TEST_ROOT).as_posix())]
    return files


def lli_output(text: str, timeout: float = 120) -> str:
    """What ``lli-19`` prints running the module ``text`` (read from stdin); fails the test
    when it does not exit 0."""
    import subprocess

    r = subprocess.run(["lli-19"], input=text, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr
    return r.stdout
