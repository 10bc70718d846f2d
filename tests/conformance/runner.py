"""Conformance runner: LLVM 19.1.7's own regression tests, run against ``llvmpy-opt``.

What it does: for each ``.ll`` test under the fetched ``llvm/test`` (``tests/oracles.py`` says where;
``scripts/fetch-llvm-tests.sh`` fetches it) it reads the ``; RUN:`` lines (``\\``-continued lines
joined), honours ``REQUIRES:`` / ``UNSUPPORTED:`` / ``XFAIL:`` (this runner has no lit features: no
``asserts``, no registered targets), the ``lit.local.cfg`` files above the test as far as they gate
on a target or a host tool (:func:`folder_config`), lit's ``%if FEATURE %{...%} %else %{...%}``,
substitutes ``%s %S %p %t %T %% %python %llvmcheckext`` as lit does and the tools (``opt`` -> the
fork server's client, ``FileCheck`` -> ``FileCheck-19``, ``llvm-as``/``llvm-dis``/``not``/``count``/...
-> the LLVM 19 binaries in ``/usr/lib/llvm-19/bin``), runs each line with ``bash -o pipefail`` under
a timeout in a scratch folder, and classifies the test:

* ``PASS`` / ``FAIL`` (an ``XFAIL: *`` test passes when a line fails);
* ``UNSUPPORTED`` with a reason: ``missing pass: X`` (found in ``-passes=`` text before running, or
  from llvmpy-opt's "unknown ... pass" / legacy ``-passname`` error on a test opt-19 passes),
  ``missing option: -X`` (llvmpy-opt said "Unknown command line argument"), ``bitcode`` (the RUN
  line moves bitcode through the tool), ``requires asserts`` / ``requires target: ...``, ``tool X``
  (a tool this runner does not provide), ``not a target (opt-19 fails it)``
  (``tests/conformance/llvm19-opt19.tsv``, measured with opt-19, does not list it as PASS; such
  tests are not run).

``opt`` is served by one fork server per run (``opt_server.py``): the package is imported once and
each RUN line's ``opt`` is a fork, so a RUN line costs milliseconds instead of Python's start-up.

Use as a script: ``python tests/conformance/runner.py [FOLDER ...] [--markdown] [-v] [-j N]
[--write-expected]`` prints the per-folder table (folders are relative to ``llvm/test``, e.g.
``Verifier`` or ``Transforms/MergeFunc``; none means all); ``--write-expected`` (on a run of all
folders) rewrites ``expected-pass.txt`` and ``results.tsv``, from which ``readme_status.py``
generates the README's status section. From pytest, call :func:`run_tests`.

It does not implement lit itself: no ``DEFINE:``/``REDEFINE:``, no feature expressions beyond
``!``, ``&&``, ``||``, parentheses and ``*``; ``lit.local.cfg`` files are read for their target and
host-tool gates and FileCheck's ``--allow-unused-prefixes``, not executed.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(REPO_ROOT))

# Imported here, in the main thread: importing a package from several worker threads at once races.
from llvmpy_mid.errors import PipelineError  # noqa: E402
from llvmpy_mid.passes.pipeline_text import parse_pipeline  # noqa: E402
from llvmpy_mid.passes.registry import REGISTRY  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt_server import OptServer  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tests"))
from oracles import LLVM_TEST_ROOT, OPT19_RESULTS_TSV  # noqa: E402

TEST_ROOT = LLVM_TEST_ROOT
EXPECTED_TSV = OPT19_RESULTS_TSV
EXPECTED_PASS = Path(__file__).resolve().parent / "expected-pass.txt"
RESULTS_TSV = Path(__file__).resolve().parent / "results.tsv"
LLVM_BIN = Path("/usr/lib/llvm-19/bin")

LINE_TIMEOUT = 60.0

# lit features this runner has: none (no asserts build, no registered targets).
FEATURES: frozenset[str] = frozenset()

# Tools substituted by their LLVM 19 binaries.
LLVM_TOOLS = (
    "llvm-as", "llvm-dis", "llvm-link", "llvm-extract", "llvm-nm", "llvm-readobj", "lli",
    "not", "count",
)
# Tools whose use makes a test unsupported here (they test something else than opt).
UNSUPPORTED_TOOLS = ("llc", "clang", "verify-uselistorder", "split-file", "llvm-mc", "llvm-reduce")

PASS, FAIL, UNSUPPORTED = "PASS", "FAIL", "UNSUPPORTED"
NOT_A_TARGET = "not a target (opt-19 fails it)"


@dataclass(frozen=True)
class Result:
    """The outcome of one test: ``name`` is relative to ``llvm/test`` (``Verifier/x.ll``)."""

    name: str
    status: str
    reason: str = ""

    @property
    def folder(self) -> str:
        return self.name.rsplit("/", 1)[0]


@dataclass
class Directives:
    run: list[str]
    requires: list[str]
    unsupported: list[str]
    xfail: list[str]


_DIRECTIVE = re.compile(r"\b(RUN|REQUIRES|UNSUPPORTED|XFAIL):(.*)$")


def read_directives(text: str) -> Directives:
    """RUN lines (continuations joined) and the feature lines of a test file."""
    d = Directives([], [], [], [])
    pending: str | None = None
    for line in text.splitlines():
        m = _DIRECTIVE.search(line)
        if not m:
            continue
        kind, body = m.group(1), m.group(2).strip()
        if kind == "RUN":
            if pending is not None:
                body = pending + " " + body
            if body.endswith("\\"):
                pending = body[:-1].rstrip()
                continue
            pending = None
            d.run.append(body)
        elif kind == "REQUIRES":
            d.requires.extend(p.strip() for p in body.split(",") if p.strip())
        elif kind == "UNSUPPORTED":
            d.unsupported.extend(p.strip() for p in body.split(",") if p.strip())
        else:
            d.xfail.extend(p.strip() for p in body.split(",") if p.strip())
    if pending is not None:
        d.run.append(pending)
    return d


_EXPR_TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[^\s|&!()]+)")


def feature_true(expr: str, features: frozenset[str] = FEATURES) -> bool:
    """Evaluate a lit boolean feature expression; ``*`` is true, unknown names are false."""
    out: list[str] = []
    for tok in _EXPR_TOKEN.findall(expr):
        if tok == "||":
            out.append(" or ")
        elif tok == "&&":
            out.append(" and ")
        elif tok == "!":
            out.append(" not ")
        elif tok in "()":
            out.append(tok)
        else:
            out.append(" True " if tok == "*" or tok in features else " False ")
    try:
        return bool(eval("".join(out), {"__builtins__": {}}, {}))  # only True/False/and/or/not
    except SyntaxError:
        return False


def _requires_reason(expr: str) -> str:
    if "asserts" in expr:
        return "requires asserts"
    if "target" in expr:
        return "requires target: %s" % expr
    return "requires %s" % expr


def _tool_regex(tool: str) -> re.Pattern[str]:
    # As lit's ToolSubst: a whole word, not part of a path, an option or a longer name.
    return re.compile(r"(?<![\w/.%=-])" + re.escape(tool) + r"(?![\w.-])")


_OPT_RE = _tool_regex("opt")
_FILECHECK_RE = _tool_regex("FileCheck")
_TOOL_RES = [(t, _tool_regex(t)) for t in LLVM_TOOLS]
_UNSUPPORTED_TOOL_RES = [(t, _tool_regex(t)) for t in UNSUPPORTED_TOOLS]
_PERCENT = re.compile(r"%(%|s|S|p|t|T)")


_IF = re.compile(r"%if\s+(.+?)\s*%\{(.*?)%\}(?:\s*%else\s*%\{(.*?)%\})?")
_CLIENT = Path(__file__).resolve().parent / "opt_client.py"


def expand_if(line: str, features: frozenset[str] = FEATURES) -> str:
    """lit's ``%if FEATURE %{ A %} %else %{ B %}``: A when the feature expression holds, else B."""
    return _IF.sub(lambda m: m.group(2) if feature_true(m.group(1), features) else (m.group(3) or ""), line)


def substitute(line: str, test: Path, tmp: Path, config: "FolderConfig | None" = None) -> str:
    """A RUN line as bash runs it here."""
    subs = {
        "%": "%",
        "s": str(test),
        "S": str(test.parent),
        "p": str(test.parent),
        "t": str(tmp / (test.name + ".tmp")),
        "T": str(tmp),
    }
    line = expand_if(line)
    line = line.replace("%python", shlex.quote(sys.executable))
    line = line.replace("%llvmcheckext", "CHECK-NOEXT")  # no extension linked into opt-19
    line = _PERCENT.sub(lambda m: subs[m.group(1)], line)
    opt = "%s -I -S %s" % (shlex.quote(sys.executable), shlex.quote(str(_CLIENT)))
    line = _OPT_RE.sub(lambda _m: opt, line)
    filecheck = "FileCheck-19"
    if config is not None and config.filecheck_args:
        filecheck += " " + config.filecheck_args
    line = _FILECHECK_RE.sub(filecheck, line)
    for tool, rx in _TOOL_RES:
        line = rx.sub(str(LLVM_BIN / tool), line)
    return line


@dataclass(frozen=True)
class FolderConfig:
    """What the ``lit.local.cfg`` files from ``llvm/test`` down to a folder say, as far as this
    runner understands them: why the folder is unsupported here (a target this runner does not
    register, a host tool missing) and extra FileCheck arguments."""

    unsupported: str = ""
    filecheck_args: str = ""


# Targets whose costs llvmpy_mid models, and the folders whose tests need no more of the target
# than those costs (the x86-64 cost model: llvmpy_mid/analysis/target_transform_info_x86.py).
_MODELLED_TARGETS = {
    "X86": ("Transforms/SimplifyCFG", "Transforms/IndVarSimplify", "Transforms/Inline", "Transforms/ArgumentPromotion"),
    # ArgumentPromotion's ABI checks (llvmpy_mid/analysis/target_call_abi.py).
    "BPF": ("Transforms/ArgumentPromotion",),
    # The inliner's target hooks (llvmpy_mid/analysis/inline_cost_target*.py).
    "AArch64": ("Transforms/Inline",),
    "AMDGPU": ("Transforms/Inline",),
    "ARM": ("Transforms/Inline",),
    "PowerPC": ("Transforms/Inline",),
    "RISCV": ("Transforms/Inline",),
    "WebAssembly": ("Transforms/Inline",),
}


def _target_modelled(target: str, folder: Path) -> bool:
    rel = folder.relative_to(TEST_ROOT).as_posix() if TEST_ROOT in folder.parents else ""
    return any(rel == f or rel.startswith(f + "/") for f in _MODELLED_TARGETS.get(target, ()))


_TARGET_GATE = re.compile(r"""if\s+not\s+["'](\w+)["']\s+in\s+(?:config\.root\.targets|targets)""")
_CONFIGS: dict[Path, FolderConfig] = {}


def folder_config(folder: Path) -> FolderConfig:
    """The combined ``lit.local.cfg`` verdict for a test folder (cached)."""
    cached = _CONFIGS.get(folder)
    if cached is not None:
        return cached
    parent = folder_config(folder.parent) if folder != TEST_ROOT and TEST_ROOT in folder.parents else FolderConfig()
    unsupported, filecheck = parent.unsupported, parent.filecheck_args
    cfg = folder / "lit.local.cfg"
    if cfg.is_file() and not unsupported:
        text = cfg.read_text(errors="replace")
        gate = _TARGET_GATE.search(text)
        if gate and _target_modelled(gate.group(1), folder):
            pass
        elif gate:
            unsupported = "requires target: %s (lit.local.cfg; no targets registered here)" % gate.group(1)
        elif "have_needed_dot_support" in text and not Path("/usr/bin/dot").exists():
            unsupported = "host tool: /usr/bin/dot (lit.local.cfg)"
        elif "have_needed_diff_support" in text and not Path("/usr/bin/diff").exists():
            unsupported = "host tool: /usr/bin/diff (lit.local.cfg)"
        elif "sys.version_info" in text and "config.unsupported" in text:
            unsupported = "ML inliner tests (need a TensorFlow build of LLVM)"
        if "--allow-unused-prefixes" in text:
            filecheck = "--allow-unused-prefixes"
    result = FolderConfig(unsupported, filecheck)
    _CONFIGS[folder] = result
    return result


_PASSES_ARG = re.compile(r"""(?:^|\s)["']?--?passes(?:=|\s+)("[^"]*"|'[^']*'|[^\s"']+)""")
_BITCODE_PIPE = re.compile(
    r"llvm-as\b[^|;]*\|\s*(?:not\s+)?opt\b|(?<![\w-])opt\b[^|;]*\|\s*llvm-dis\b|(?<![\w-])opt\b[^|;]*-o\s+\S+\.bc\b"
)
_UNKNOWN_ARG = re.compile(r"Unknown command line argument '([^']*)'")
_UNKNOWN_PASS = re.compile(r"unknown (?:\w+ ){0,2}(?:pass|analysis|pass name|name) '([^']*)'")

_LEGACY_FLAG = re.compile(r"(?:^|\s)-([a-z][\w-]*)(?=\s|$)")
_KNOWN_FLAGS = frozenset({"S", "o", "disable-output", "p"})
_ADAPTORS = frozenset({"module", "cgscc", "function", "loop", "loop-mssa", "repeat", "devirt"})


_TEXT_OUTPUT = re.compile(
    r"(?:^|\s)(?:-S|--?disable-output|--?print-passes|--?help|--?version)(?=\s|$)|(?:^|\s)--?o(?=\s|=)"
)


def writes_bitcode_into_pipe(line: str) -> bool:
    """Whether an ``opt`` stage of the RUN line writes its module as bitcode (no ``-S``,
    ``-disable-output`` or ``-o``) into a pipe: opt-19 does, llvmpy-opt cannot."""
    stages = line.split("|")
    for stage in stages[:-1]:
        if _OPT_RE.search(stage) and not _TEXT_OUTPUT.search(stage) and ">" not in stage.replace("2>&1", ""):
            return True
    return False


def missing_passes(pipeline: str) -> list[str]:
    """The names in ``pipeline`` that the registry does not know (adaptors are known)."""
    try:
        elements = parse_pipeline(pipeline)
    except PipelineError:
        return []
    missing: list[str] = []
    work = list(elements)
    while work:
        e = work.pop(0)
        if e.children is not None:
            if e.name not in _ADAPTORS and not REGISTRY.kind_of(e.spelled):
                missing.append(e.spelled)
            work.extend(e.children)
            continue
        if e.name == "" or REGISTRY.kind_of(e.spelled):
            continue
        if REGISTRY.pseudo_pass(e.spelled, "module") or REGISTRY.pseudo_pass(e.spelled, "function"):
            continue
        if e.spelled not in missing:
            missing.append(e.spelled)
    return missing


def load_targets() -> dict[str, str]:
    """``opt19-expected.tsv`` as {name relative to llvm/test: opt-19's status}."""
    out: dict[str, str] = {}
    for line in EXPECTED_TSV.read_text().splitlines():
        parts = line.split("\t")
        if len(parts) >= 2:
            out[parts[0].removeprefix("llvm/test/")] = parts[1]
    return out


def load_expected_pass() -> set[str]:
    if not EXPECTED_PASS.exists():
        return set()
    return {
        ln.strip() for ln in EXPECTED_PASS.read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    }


def list_tests(folders: Sequence[str] | None = None) -> list[str]:
    """Test names (relative to llvm/test) in the given folders (not their sub-folders), or all."""
    if not folders:
        paths = TEST_ROOT.rglob("*.ll")
    else:
        paths = (p for f in folders for p in (TEST_ROOT / f).glob("*.ll"))
    return sorted(p.relative_to(TEST_ROOT).as_posix() for p in paths)


def run_one(
    name: str, targets: dict[str, str], timeout: float = LINE_TIMEOUT, server_env: dict[str, str] | None = None
) -> Result:
    """Run one test and classify it (through the fork server when ``server_env`` names one)."""
    test = TEST_ROOT / name
    if targets.get(name) != "PASS":
        return Result(name, UNSUPPORTED, NOT_A_TARGET)
    config = folder_config(test.parent)
    if config.unsupported:
        return Result(name, UNSUPPORTED, config.unsupported)
    d = read_directives(test.read_text(errors="replace"))
    for expr in d.requires:
        if not feature_true(expr):
            return Result(name, UNSUPPORTED, _requires_reason(expr))
    for expr in d.unsupported:
        if feature_true(expr):
            return Result(name, UNSUPPORTED, "unsupported: %s" % expr)
    if not d.run:
        return Result(name, UNSUPPORTED, "no RUN lines")
    xfail = any(feature_true(e) for e in d.xfail)
    d.run[:] = [expand_if(line) for line in d.run]
    for line in d.run:
        for tool, rx in _UNSUPPORTED_TOOL_RES:
            if rx.search(line):
                return Result(name, UNSUPPORTED, "tool %s" % tool)
        if _BITCODE_PIPE.search(line):
            return Result(name, UNSUPPORTED, "bitcode")
        if _OPT_RE.search(line):
            for m in _PASSES_ARG.finditer(line):
                missing = missing_passes(m.group(1).strip("'\""))
                if missing:
                    return Result(name, UNSUPPORTED, "missing pass: %s" % ", ".join(missing))
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(server_env or {})
    with tempfile.TemporaryDirectory(prefix="llvmpy-conf-") as tmpdir:
        tmp = Path(tmpdir)
        for line in d.run:
            cmd = substitute(line, test, tmp, config)
            try:
                proc = subprocess.run(
                    ["bash", "-o", "pipefail", "-c", cmd], cwd=tmp, env=env,
                    capture_output=True, text=True, errors="replace", timeout=timeout,
                )
            except subprocess.TimeoutExpired:
                return Result(name, FAIL, "timeout (%gs): %s" % (timeout, line))
            if proc.returncode == 0:
                continue
            if xfail:
                return Result(name, PASS, "xfail")
            err = proc.stderr
            arg = _UNKNOWN_ARG.search(err)
            if arg:
                return Result(name, UNSUPPORTED, "missing option: %s" % arg.group(1))
            unknown = _UNKNOWN_PASS.search(err)
            if unknown and "llvmpy-opt" in err:
                return Result(name, UNSUPPORTED, "missing pass: %s" % unknown.group(1))
            if "`opt -passname` syntax" in err:
                # opt-19 passes this target, so it still runs the flag in its legacy pass manager.
                flags = [f for f in _LEGACY_FLAG.findall(line) if f not in _KNOWN_FLAGS]
                return Result(name, UNSUPPORTED, "missing pass: legacy -%s" % (flags[0] if flags else "?"))
            if "bitcode" in err and "not supported" in err:
                return Result(name, UNSUPPORTED, "bitcode")
            if writes_bitcode_into_pipe(line):
                return Result(name, UNSUPPORTED, "bitcode (opt writes bitcode into the pipe)")
            first = next((ln for ln in err.splitlines() if ln.strip()), "exit %d" % proc.returncode)
            return Result(name, FAIL, "%s :: %s" % (line[:80], first[:160]))
    if xfail:
        return Result(name, FAIL, "unexpectedly passed (XFAIL)")
    return Result(name, PASS)


def run_tests(
    folders: Sequence[str] | None = None,
    *,
    jobs: int | None = None,
    timeout: float = LINE_TIMEOUT,
    names: Sequence[str] | None = None,
) -> list[Result]:
    """Run the tests of ``folders`` (all when empty), or exactly ``names``, on a thread pool with
    one fork server; results sorted by name."""
    targets = load_targets()
    names = list(names) if names is not None else list_tests(folders)
    workers = jobs or min(32, (os.cpu_count() or 2) + 2)
    with OptServer(limit=timeout) as server, ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda n: run_one(n, targets, timeout, server.env()), names))
    return sorted(results, key=lambda r: r.name)


def table(results: Iterable[Result], *, markdown: bool = False) -> str:
    """Per-folder PASS / FAIL / UNSUPPORTED counts (non-targets counted apart), with totals."""
    counts: dict[str, Counter[str]] = {}
    for r in results:
        key = "not-target" if r.reason == NOT_A_TARGET else r.status
        counts.setdefault(r.folder, Counter())[key] += 1
    cols = [PASS, FAIL, UNSUPPORTED, "not-target"]
    total: Counter[str] = Counter()
    rows = []
    for folder in sorted(counts):
        total.update(counts[folder])
        rows.append([folder] + [str(counts[folder][c]) for c in cols])
    rows.append(["total"] + [str(total[c]) for c in cols])
    head = ["folder", "pass", "fail", "unsupported", "not a target"]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * 4) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    fmt = "  ".join("%-" + str(widths[0]) + "s" if i == 0 else "%" + str(w) + "s"
                    for i, w in enumerate(widths))
    return "\n".join(fmt % tuple(r) for r in [head] + rows)


def write_expected(
    results: Iterable[Result], path: Path = EXPECTED_PASS, results_path: Path = RESULTS_TSV
) -> None:
    """``expected-pass.txt`` (what passes) and ``results.tsv`` (every test: status and reason, the
    data of the README's generated status section)."""
    rows = sorted(results, key=lambda r: r.name)
    header = (
        "# LLVM 19.1.7 tests (relative to llvm/test) that llvmpy-opt passes.\n"
        "# Regenerate: python tests/conformance/runner.py --write-expected\n"
    )
    path.write_text(header + "".join(r.name + "\n" for r in rows if r.status == PASS))
    results_path.write_text(
        "# test\tstatus\treason -- python tests/conformance/runner.py --write-expected\n"
        + "".join(
            "%s\t%s\t%s\n" % (r.name, r.status, r.reason.replace("\t", " ")[:160])
            for r in rows if r.reason != NOT_A_TARGET
        )
    )


def load_results(path: Path = RESULTS_TSV) -> list[Result]:
    """The last full run, as ``write_expected`` stored it."""
    out: list[Result] = []
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        name, status, reason = (line.split("\t") + ["", ""])[:3]
        out.append(Result(name, status, reason))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", help="folders under llvm/test (default: all)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every non-PASS test")
    ap.add_argument("-j", "--jobs", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=LINE_TIMEOUT, help="seconds per RUN line")
    ap.add_argument("--write-expected", action="store_true",
                    help="rewrite expected-pass.txt from this run (run on all folders)")
    ap.add_argument("-k", "--match", action="append", default=[], metavar="GLOB",
                    help="only the tests whose file name matches GLOB (repeatable), e.g. -k 'icmp*'")
    args = ap.parse_args(argv)
    folders = [f.strip("/") for f in args.folders]
    if not TEST_ROOT.is_dir():
        print("runner: LLVM 19.1.7's tests are not at %s; fetch them with scripts/fetch-llvm-tests.sh "
              "(or point $LLVMPY_MID_LLVM_SRC at a copy)" % TEST_ROOT, file=sys.stderr)
        return 1
    missing = [f for f in folders if not (TEST_ROOT / f).is_dir()]
    if missing:
        print("runner: no such folder under %s: %s" % (TEST_ROOT, ", ".join(missing)), file=sys.stderr)
        return 1
    if args.match:
        if args.write_expected:
            print("--write-expected needs a run on all folders", file=sys.stderr)
            return 2
        import fnmatch

        names = [n for n in list_tests(folders) if any(fnmatch.fnmatch(n.rsplit("/", 1)[-1], g) for g in args.match)]
        results = run_tests(names=names, jobs=args.jobs, timeout=args.timeout)
    else:
        results = run_tests(folders, jobs=args.jobs, timeout=args.timeout)
    if args.verbose:
        for r in results:
            if r.status != PASS or r.reason:
                print("%-11s %s  [%s]" % (r.status, r.name, r.reason))
        print()
    print(table(results, markdown=args.markdown))
    if args.write_expected:
        if folders:
            print("--write-expected needs a run on all folders", file=sys.stderr)
            return 2
        write_expected(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
