"""Corpora and oracles for the textual-IR tests: csmith programs, LLVM's conformance files, opt-19.

What it offers:

* ``generate_csmith(out_dir, seeds)`` runs ``scripts/make-csmith-corpus.sh`` for the given
  seeds (one worker per core, each in its own sub-folder because csmith writes ``platform.info``
  into its working folder) and returns a :class:`CsmithCorpus` mapping seed and optimisation level
  (``O0``, ``O2``, ``O2g``) to the ``.ll`` path. Seeds the script drops (the program did not finish
  under ``lli-19`` in 10 s) are recorded, so callers can report them instead of losing them.
  Seeds already present in ``out_dir`` are not generated again.
* :class:`OptOracle` runs ``opt-19 -S FILE`` at most once per file and caches the result in
  memory, and (when given a folder) on disk keyed by the file's path, bytes and opt's version,
  so a rerun on the same machine costs nothing. ``prefetch`` runs many files on a thread pool.
* ``conformance_files()`` lists the ``.ll`` files of LLVM 19.1.7's tests (``tests/oracles.py``
  says where they are fetched; the default run takes its fixed sample, ``--run-slow`` all); whether opt-19 accepts a file is decided by running
  ``opt-19 -S`` on it (through the oracle), since ``opt19-expected.tsv`` records the outcome of each
  test's RUN lines, not whether the file itself parses and verifies.
* ``text_diff`` renders a short unified diff of two printed modules without their first
  (``; ModuleID``) line.

It does not parse or print IR itself; the tests call ``llvmpy_mid`` for that. Nothing here writes
into the repository: generated programs go to a temporary folder (pytest's ``tmp_path_factory``) or
to the folder named by ``LLVMPY_MID_CSMITH_DIR`` when a developer wants to keep them between runs.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(REPO_ROOT / "tests"))
from oracles import LLVM_TEST_ROOT, OPT19_RESULTS_TSV, SCRIPTS, llvm_test_files  # noqa: E402

CSMITH_SCRIPT = SCRIPTS / "make-csmith-corpus.sh"
CONFORMANCE_TESTS = LLVM_TEST_ROOT
OPT19_EXPECTED_TSV = OPT19_RESULTS_TSV

OPT = "opt-19"
LLVM_AS = "llvm-as-19"
FILECHECK = "FileCheck-19"

LEVELS: tuple[str, ...] = ("O0", "O2", "O2g")

# Thirty seeds whose programs all finish well inside the script's 10 s lli-19 limit (seeds 11, 15
# and 22 are left out: their programs run past it and the script drops them).
DEFAULT_SEEDS: tuple[int, ...] = tuple(s for s in range(1, 34) if s not in (11, 15, 22))
# The --run-slow sweep: three hundred seeds (the script drops the few that time out).
SLOW_SEEDS: tuple[int, ...] = tuple(range(1, 301))

JOBS = max(1, min(4, os.cpu_count() or 1))


def missing_tools(*names: str) -> list[str]:
    """The named programs that are not on PATH."""
    return [n for n in names if shutil.which(n) is None]


# --- csmith -----------------------------------------------------------------------------------


@dataclass
class CsmithCorpus:
    """Generated csmith programs: ``files[seed][level]`` is the ``.ll`` path; ``dropped`` lists
    seeds the script discarded."""

    root: Path
    files: dict[int, dict[str, Path]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)

    def path(self, seed: int, level: str) -> Path | None:
        entry = self.files.get(seed)
        return None if entry is None else entry.get(level)

    def all_files(self) -> list[Path]:
        return [self.files[s][lv] for s in sorted(self.files) for lv in LEVELS if lv in self.files[s]]

    def total_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.all_files())


def _seed_files(folder: Path, seed: int) -> dict[str, Path] | None:
    """The seed's ``.ll`` files when the seed is complete: every level written and a non-empty
    ``.expected`` (a generation cut off during the reference ``lli-19`` run leaves it empty; the
    seed is made again, and dropped if the program does not finish)."""
    found = {lv: folder / ("s%d.%s.ll" % (seed, lv)) for lv in LEVELS}
    expected = folder / ("s%d.expected" % seed)
    if all(p.is_file() for p in found.values()) and expected.is_file() and expected.stat().st_size > 0:
        return found
    return None


def _run_seeds(folder: Path, seeds: Sequence[int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        if _seed_files(folder, seed) is not None or (folder / ("s%d.dropped" % seed)).exists():
            continue
        subprocess.run(
            ["bash", str(CSMITH_SCRIPT), str(folder), str(seed), "1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        if _seed_files(folder, seed) is None:
            (folder / ("s%d.dropped" % seed)).write_text("dropped by make-csmith-corpus.sh\n")


def generate_csmith(out_dir: Path, seeds: Iterable[int], jobs: int = JOBS) -> CsmithCorpus:
    """Generate (or reuse) csmith programs for ``seeds`` under ``out_dir``; ``jobs`` workers run in
    parallel, worker ``k`` in ``out_dir/wk``."""
    if not CSMITH_SCRIPT.is_file():
        raise FileNotFoundError("csmith corpus script not found: %s" % CSMITH_SCRIPT)
    seed_list = list(seeds)
    jobs = max(1, min(jobs, len(seed_list)))
    folders = [out_dir / ("w%d" % k) for k in range(jobs)]
    # A seed already present in any worker folder (from an earlier run) stays where it is.
    assignment: list[list[int]] = [[] for _ in range(jobs)]
    pending: list[int] = []
    for seed in seed_list:
        for k, folder in enumerate(folders):
            if _seed_files(folder, seed) is not None or (folder / ("s%d.dropped" % seed)).exists():
                assignment[k].append(seed)
                break
        else:
            pending.append(seed)
    for i, seed in enumerate(pending):
        assignment[i % jobs].append(seed)
    threads = [threading.Thread(target=_run_seeds, args=(folders[k], assignment[k])) for k in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    corpus = CsmithCorpus(out_dir)
    for k, folder in enumerate(folders):
        for seed in assignment[k]:
            found = _seed_files(folder, seed)
            if found is None:
                corpus.dropped.add(seed)
            else:
                corpus.files[seed] = found
    return corpus


# --- opt-19 -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptResult:
    """What ``opt-19 -S FILE`` did: its exit status, its output and its diagnostics."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def accepted(self) -> bool:
        return self.returncode == 0

    def first_error_line(self) -> str:
        for line in self.stderr.splitlines():
            if line.strip():
                return line.strip()
        return "exit status %d" % self.returncode


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class OptOracle:
    """``opt-19 -S`` outputs, computed once per file. Thread-safe. Results for files below one of
    ``persist_roots`` (stable paths, such as the conformance corpus) are also kept in
    ``cache_dir`` between runs; files in temporary folders are not, so the cache does not grow."""

    def __init__(self, cache_dir: Path | None = None, persist_roots: Sequence[Path] = ()) -> None:
        self._memo: dict[str, OptResult] = {}
        self._lock = threading.Lock()
        self._cache_dir = cache_dir
        self._persist_roots = tuple(r.resolve() for r in persist_roots)
        self._version: str | None = None

    def _opt_version(self) -> str:
        if self._version is None:
            proc = subprocess.run([OPT, "--version"], capture_output=True, check=False)
            self._version = _decode(proc.stdout)
        return self._version

    def _disk_key(self, path: Path, data: bytes) -> str:
        h = hashlib.sha256()
        h.update(self._opt_version().encode())
        h.update(b"\0" + str(path).encode() + b"\0")
        h.update(data)
        return h.hexdigest()

    def _run(self, path: Path) -> OptResult:
        cache_file: Path | None = None
        resolved = path.resolve()
        if self._cache_dir is not None and any(resolved.is_relative_to(r) for r in self._persist_roots):
            cache_file = self._cache_dir / (self._disk_key(path, path.read_bytes()) + ".out")
            if cache_file.is_file():
                code_text, _, rest = _decode(cache_file.read_bytes()).partition("\n")
                err, _, out = rest.partition("\0")
                return OptResult(int(code_text), out, err)
        proc = subprocess.run([OPT, "-S", str(path), "-o", "-"], capture_output=True, check=False)
        result = OptResult(proc.returncode, _decode(proc.stdout), _decode(proc.stderr))
        if cache_file is not None:
            tmp = cache_file.with_suffix(".tmp%d" % threading.get_ident())
            payload = "%d\n%s\0%s" % (result.returncode, result.stderr.replace("\0", ""), result.stdout)
            tmp.write_bytes(payload.encode("utf-8", "surrogateescape"))
            tmp.replace(cache_file)
        return result

    def get(self, path: Path) -> OptResult:
        key = str(path)
        with self._lock:
            hit = self._memo.get(key)
        if hit is not None:
            return hit
        result = self._run(path)
        with self._lock:
            self._memo.setdefault(key, result)
            return self._memo[key]

    def prefetch(self, paths: Iterable[Path], jobs: int = JOBS) -> None:
        todo = [p for p in paths if str(p) not in self._memo]
        if not todo:
            return
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(self.get, todo))


# --- conformance ------------------------------------------------------------------------------


def conformance_files() -> list[Path]:
    """The ``.ll`` files of LLVM 19.1.7's tests in this run (the fixed sample, or all under
    ``--run-slow``), sorted by path; empty when the tests are not fetched."""
    return llvm_test_files()


KNOWN_GAPS = Path(__file__).resolve().parent / "roundtrip-known-gaps.txt"


def known_roundtrip_gaps() -> dict[str, str]:
    """LLVM 19.1.7 test files whose parse+print is known to differ from ``opt-19 -S``, each with
    its cause (``roundtrip-known-gaps.txt``: ``path  # cause``). The round-trip and idempotence
    tests report them as expected failures, and fail when one starts to match (remove it then)."""
    gaps: dict[str, str] = {}
    if KNOWN_GAPS.is_file():
        for line in KNOWN_GAPS.read_text().splitlines():
            name, _, cause = line.partition("#")
            if name.strip():
                gaps[name.strip()] = cause.strip()
    return gaps


def conformance_id(path: Path) -> str:
    """The file's path below ``llvm/test`` (``Transforms/SCCP/x.ll``), used as the test id."""
    return path.relative_to(CONFORMANCE_TESTS).as_posix()


def conformance_folder(path: Path) -> str:
    """The folder the project reports pass rates for (``Transforms/SCCP``)."""
    return path.parent.relative_to(CONFORMANCE_TESTS).as_posix()


def opt19_test_outcomes() -> dict[str, str]:
    """``opt19-expected.tsv``: test path below ``llvm/test`` -> ``PASS``/``FAIL``/``UNSUPPORTED``."""
    outcomes: dict[str, str] = {}
    if not OPT19_EXPECTED_TSV.is_file():
        return outcomes
    for line in OPT19_EXPECTED_TSV.read_text().splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0].startswith("llvm/test/"):
            outcomes[parts[0][len("llvm/test/") :]] = parts[1]
    return outcomes


# --- comparing printed modules ----------------------------------------------------------------


def drop_module_id(text: str) -> str:
    """The text without its first line when that line is ``; ModuleID = ...``."""
    if text.startswith("; ModuleID"):
        nl = text.find("\n")
        return "" if nl < 0 else text[nl + 1 :]
    return text


def text_diff(expected: str, actual: str, label: str, max_lines: int = 40) -> str | None:
    """``None`` when the texts are equal apart from the ModuleID line; otherwise a short unified
    diff (expected = opt-19, actual = ours) headed by the first differing line number."""
    exp = drop_module_id(expected)
    act = drop_module_id(actual)
    if exp == act:
        return None
    exp_lines = exp.splitlines(keepends=True)
    act_lines = act.splitlines(keepends=True)
    first = next(
        (i for i, (a, b) in enumerate(zip(exp_lines, act_lines)) if a != b),
        min(len(exp_lines), len(act_lines)),
    )
    diff = list(
        difflib.unified_diff(exp_lines, act_lines, "opt-19 -S " + label, "llvmpy_mid " + label, n=2)
    )
    shown = diff[:max_lines]
    more = len(diff) - len(shown)
    head = "%s: output differs from opt-19 -S (first difference at line %d, after the ModuleID line; %d vs %d lines)\n" % (
        label,
        first + 2,
        len(exp_lines) + 1,
        len(act_lines) + 1,
    )
    text = head + "".join(line if line.endswith("\n") else line + "\n" for line in shown)
    if more > 0:
        text += "... %d more diff lines\n" % more
    return text
