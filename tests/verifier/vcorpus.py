"""Developer script and test helper: our verifier against opt-19 on real files.

``python tests/verifier/vcorpus.py [paths...]`` runs ``opt-19 -passes=verify
-disable-output`` and our reader and verifier (``ours``: what ``llvmpy-opt`` does on
reading) on every ``.ll`` of LLVM 19.1.7's tests (default) or the given files/folders,
and lists:

* false positives: files opt-19 keeps where we find the module broken;
* misses: files opt-19 rejects, or keeps dropping broken debug info, where we do not;
* text mismatches: same verdict, different text (opt-19's stderr before its
  "input module is broken!" line, or its whole stderr for dropped debug info;
  texts where opt-19 names a node by its address, ``<0x...>``, are not compared).

opt-19's results are cached in ``/tmp/llvmpy-vcorpus-opt.json`` (by path,
size and mtime). Files that either parser rejects are not counted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "asm"))

from corpus import CONFORMANCE_TESTS  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.errors import ParseError, VerifierError  # noqa: E402
from llvmpy_mid.ir.verifier import InvalidDebugInfoWarning  # noqa: E402

CACHE = Path("/tmp/llvmpy-vcorpus-opt.json")
BROKEN_TAIL = ": error: input module is broken!"


def opt_verify(path: Path) -> tuple[str, str]:
    """('ok' | 'broken' | 'debuginfo' | 'parse', opt's diagnostics text)."""
    proc = subprocess.run(
        ["opt-19", "-passes=verify", "-disable-output", str(path)], capture_output=True, timeout=60
    )
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode == 0:
        if "ignoring invalid debug info" in err:
            return "debuginfo", err
        return "ok", ""
    lines = err.splitlines(keepends=True)
    if lines and BROKEN_TAIL in lines[-1]:
        return "broken", "".join(lines[:-1])
    return "parse", err


def opt_results(files: list[Path]) -> dict[str, tuple[str, str]]:
    cache: dict[str, list[str]] = {}
    if CACHE.is_file():
        cache = json.loads(CACHE.read_text())
    out: dict[str, tuple[str, str]] = {}
    dirty = False
    for f in files:
        st = f.stat()
        key = "%s|%d|%d" % (f, st.st_size, int(st.st_mtime))
        hit = cache.get(key)
        if hit is None:
            hit = list(opt_verify(f))
            cache[key] = hit
            dirty = True
        out[str(f)] = (hit[0], hit[1])
    if dirty:
        CACHE.write_text(json.dumps(cache))
    return out


def ours(path: Path) -> tuple[str, str]:
    """Our verdict on ``path`` as ``opt_verify`` words opt-19's: the file read and verified as
    ``llvmpy-opt`` does (debug info broken in a module of the current debug-info version is
    dropped with a warning, then the module is verified with every finding an error), and the
    text opt-19 writes for it (the dropped findings, the warning line, the findings that break
    the module)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            llvmpy_mid.parse_file(path)
        except ParseError as exc:
            return "parse", str(exc)
        except VerifierError as exc:
            return "broken", dropped_text(caught) + exc.llvm_text
    dropped = dropped_text(caught)
    return ("debuginfo", dropped) if dropped else ("ok", "")


def dropped_text(caught: list[warnings.WarningMessage]) -> str:
    """What opt-19 writes for debug info it drops: the findings, then its warning."""
    return "".join(
        w.message.llvm_text + "warning: %s\n" % w.message
        for w in caught
        if isinstance(w.message, InvalidDebugInfoWarning)
    )


def collect(args: list[str]) -> list[Path]:
    roots = [Path(a) for a in args] or [CONFORMANCE_TESTS]
    files: list[Path] = []
    for r in roots:
        files.extend(sorted(r.rglob("*.ll")) if r.is_dir() else [r])
    return files


def main(argv: list[str]) -> int:
    files = collect(argv)
    theirs = opt_results(files)
    fp, miss, diff, agree = [], [], [], 0
    for f in files:
        t_kind, t_text = theirs[str(f)]
        if t_kind == "parse":
            continue
        o_kind, o_text = ours(f)
        if o_kind == "parse":
            continue
        if t_kind in ("ok", "debuginfo") and o_kind == "broken":
            fp.append((f, o_text))
        elif t_kind != o_kind:
            miss.append((f, t_text))
        elif o_text != t_text and "<0x" not in t_text:
            diff.append((f, t_text, o_text))
        else:
            agree += 1
    for f, text in fp:
        print("FALSE POSITIVE %s\n%s" % (f, text[:800]))
    for f, text in miss:
        print("MISSED %s\n  opt-19 says:\n%s" % (f, text[:800]))
    for f, t, o in diff:
        print("TEXT DIFFERS %s\n  opt-19:\n%s  ours:\n%s" % (f, t[:800], o[:800]))
    print("files %d: agree %d, false positives %d, missed %d, text differs %d" % (len(files), agree, len(fp), len(miss), len(diff)))
    return 1 if fp else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main(sys.argv[1:]))
