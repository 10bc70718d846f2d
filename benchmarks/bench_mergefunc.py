"""``mergefunc`` speed and scaling, beside ``opt-19 -passes=mergefunc`` on the same files.

For each size N (default 1k, 2k, 4k, 8k, 16k functions; ``--sizes`` to change, ``--quick`` for
1k and 2k) a module from ``mergefunc_corpus.make_module(N, seed)`` (a quarter exact copies, an
eighth hash-colliding near-copies) is written to a temporary file, then in one run:

* opt-19: ``opt-19 -passes=mergefunc -disable-output FILE``: wall clock (best of ``--repeat``)
  and peak RSS (``/usr/bin/time -f %M`` when present); a second run with ``-time-passes -S``
  gives its MergeFunctionsPass time and output, from which the functions it merged are counted
  (erased functions plus thunks; the installed opt-19 is a release build without ``-stats``);
* ours, in a child Python process (``--child``): parse time, the ``merge_functions`` pass alone,
  total (process start to the end of the pass), peak RSS (``resource.getrusage``), the number
  of ``FunctionComparator.compare`` calls (counted by wrapping the method in the child), tree
  lookups (one per function inserted or matched in the FnTree) and the tree's probe comparisons,
  ``NumFunctionsMerged``; the module is then printed (not timed) and compared with opt-19's;
* ours without the hash pre-filter, in a second child, for N up to ``--nohash-max`` (4096): the
  structural hash the pass uses is monkeypatched to a constant, so every function is queued and
  every tree comparison calls the comparator; time-boxed by ``--nohash-timeout`` seconds.

"cmp/lookup" is comparator calls per tree lookup. With the hash pre-filter the comparator is
only reached among equal hashes, so it stays small; the tree's own comparisons per lookup
("tree/lookup", hash first, comparator on a tie) and, without the pre-filter, comparator calls
per lookup grow like log2 N, printed beside. The growth exponent of the pass time between
successive sizes is printed with N log N's for reference (aim: no faster), and whether the
largest size is within 20x of opt-19.

    python benchmarks/bench_mergefunc.py [--sizes 1000,2000] [--quick] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from mergefunc_corpus import make_module  # noqa: E402

TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
# A -time-passes row: three or four "seconds (percent)" columns, the last one wall time, then the name.
_PASS_LINE = re.compile(r"^(?:\s+[\d.]+ \(\s*[\d.]+%\))*\s+([\d.]+) \(\s*[\d.]+%\)\s+MergeFunctionsPass\s*$")
_DEFINE = re.compile(r"^define [^@]*@([-\w$.]+|\"[^\"]*\")\(", re.M)


# --- the child: ours, measured in a fresh interpreter ---------------------------------------


def child(path: str, start: float, no_hash: bool, out: str | None) -> None:
    import resource

    from llvmpy_mid.asm import parse_file, print_module
    from llvmpy_mid.ipo import merge_functions as mf
    from llvmpy_mid.passes.statistics import collecting
    from llvmpy_mid.transform.utils import function_comparator as fc

    counts = {"compare": 0, "lookups": 0, "tree": 0}
    original_compare = fc.FunctionComparator.compare

    def counted_compare(self: fc.FunctionComparator) -> int:
        counts["compare"] += 1
        return original_compare(self)

    fc.FunctionComparator.compare = counted_compare  # type: ignore[method-assign]
    engine = getattr(mf, "MergeFunctions", None)
    if engine is not None and hasattr(engine, "_lookup"):
        original_lookup = engine._lookup

        def counted_lookup(self: object, probe: object) -> object:
            counts["lookups"] += 1
            return original_lookup(self, probe)

        engine._lookup = counted_lookup
    node = getattr(mf, "_FunctionNode", None)
    if node is not None and hasattr(node, "__lt__"):
        original_lt = node.__lt__

        def counted_lt(self: object, other: object) -> bool:
            if getattr(self, "rank", 0) is None or getattr(other, "rank", 0) is None:
                counts["tree"] += 1
            return bool(original_lt(self, other))

        node.__lt__ = counted_lt
    if no_hash:
        # The pre-filter off: every function hashes alike, so all are queued and compared.
        mf.structural_hash = lambda fn, detailed=False: 0  # type: ignore[attr-defined]

    t0 = time.perf_counter()
    module = parse_file(path)
    t1 = time.perf_counter()
    n_functions = sum(1 for fn in module.functions if not fn.is_declaration)
    with collecting() as stats:
        mf.merge_functions(module)
    t2 = time.perf_counter()
    end = time.time()
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    merged = stats.as_dict()
    if out is not None:
        Path(out).write_text(print_module(module))
    print(
        json.dumps(
            {
                "parse": t1 - t0,
                "pass": t2 - t1,
                "total": end - start,
                "rss_kb": rss_kb,
                "functions": n_functions,
                "compare": counts["compare"],
                "lookups": counts["lookups"],
                "tree": counts["tree"],
                "stats": merged,
            }
        )
    )


# --- the parent -----------------------------------------------------------------------------


def merged_in(before: str, after: str) -> int:
    """Functions merged away by a run: names gone from the module plus new forwarding thunks."""
    names_before = set(_DEFINE.findall(before))
    names_after: set[str] = set()
    thunks = 0
    blocks = after.split("\ndefine ")
    for block in blocks[1:]:
        m = _DEFINE.match("define " + block)
        if m is None:
            continue
        names_after.add(m.group(1))
        body = block.split("\n}", 1)[0].splitlines()[1:]
        if len(body) <= 3 and any(" tail call " in ln or "musttail call" in ln for ln in body):
            thunks += 1
    return len(names_before - names_after) + thunks


def run_opt(path: Path, repeat: int, out: Path) -> dict[str, float]:
    best = float("inf")
    rss_kb = 0.0
    for _ in range(repeat):
        cmd = ["opt-19", "-passes=mergefunc", "-disable-output", str(path)]
        if TIME is not None:
            cmd = [TIME, "-f", "%M"] + cmd
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - start)
        if TIME is not None:
            rss_kb = max(rss_kb, float(proc.stderr.strip().splitlines()[-1]))
    proc = subprocess.run(
        ["opt-19", "-passes=mergefunc", "-time-passes", "-S", str(path), "-o", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    pass_time = 0.0
    for line in proc.stderr.splitlines():
        m = _PASS_LINE.match(line)
        if m:
            pass_time = float(m.group(1))
            break
    return {"wall": best, "rss_kb": rss_kb, "pass": pass_time}


def run_child(path: Path, no_hash: bool, timeout: float | None, out: Path | None) -> dict[str, Any] | None:
    """Ours in a fresh interpreter: the child's JSON report, or None when ``timeout`` ran out."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(path), "--start", "%.6f" % time.time()]
    if no_hash:
        cmd.append("--no-hash")
    if out is not None:
        cmd += ["--out", str(out)]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        raise RuntimeError("child failed on %s:\n%s" % (path, proc.stderr[-3000:]))
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _body(text: str) -> str:
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("; ModuleID"))


class Row:
    """The measurements of one size."""

    __slots__ = ("n", "opt", "ours", "nohash", "nohash_run", "merged_opt", "merged_ours", "same")

    def __init__(
        self,
        n: int,
        opt: dict[str, float],
        ours: dict[str, Any],
        nohash: dict[str, Any] | None,
        nohash_run: bool,
        merged_opt: int,
        merged_ours: int,
        same: bool,
    ) -> None:
        self.n = n
        self.opt = opt
        self.ours = ours
        self.nohash = nohash
        self.nohash_run = nohash_run
        self.merged_opt = merged_opt
        self.merged_ours = merged_ours
        self.same = same


def _nlogn_exponent(na: int, nb: int) -> float:
    return math.log((nb * math.log2(nb)) / (na * math.log2(na))) / math.log(nb / na)


def _exponent(na: int, ta: float, nb: int, tb: float) -> float:
    return math.log(tb / ta) / math.log(nb / na) if ta > 0 and tb > 0 else float("nan")


def report(rows: list[Row], nohash_timeout: float) -> None:
    head = "%6s %8s %8s %8s %8s %8s %7s %8s %8s %6s %11s %11s %5s %9s %8s" % (
        "N",
        "ours s",
        "parse s",
        "pass s",
        "opt s",
        "opt pass",
        "ratio",
        "cmp/lkp",
        "tree/lkp",
        "log2N",
        "peak MB",
        "merged",
        "same",
        "nohash s",
        "cmp/lkp",
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        ours, opt, nohash = row.ours, row.opt, row.nohash
        lookups = max(1, int(ours["lookups"]))
        if nohash is not None:
            nh_time = "%9.2f" % float(nohash["pass"])
            nh_cmp = "%8.1f" % (int(nohash["compare"]) / max(1, int(nohash["lookups"])))
        elif row.nohash_run:
            nh_time, nh_cmp = "%9s" % (">%ds" % nohash_timeout), "%8s" % "-"
        else:
            nh_time, nh_cmp = "%9s" % "-", "%8s" % "-"
        print(
            "%6d %8.2f %8.2f %8.2f %8.3f %8.3f %6.1fx %8.2f %8.1f %6.1f %5.0f/%-5.0f %5d/%-5d %5s %s %s"
            % (
                row.n,
                float(ours["total"]),
                float(ours["parse"]),
                float(ours["pass"]),
                opt["wall"],
                opt["pass"],
                float(ours["total"]) / opt["wall"],
                int(ours["compare"]) / lookups,
                int(ours["tree"]) / lookups,
                math.log2(row.n),
                int(ours["rss_kb"]) / 1024,
                opt["rss_kb"] / 1024,
                row.merged_ours,
                row.merged_opt,
                "yes" if row.same else "NO",
                nh_time,
                nh_cmp,
            )
        )
    print()
    print("cmp/lkp: FunctionComparator.compare calls per tree lookup; tree/lkp: the tree's comparisons")
    print("per lookup (hash, then comparator on a tie); merged: ours (NumFunctionsMerged) / opt-19")
    print("(erased + thunks); same: printed modules identical; nohash: pass time without the pre-filter.")
    print()
    for a, b in zip(rows, rows[1:]):
        expo = _exponent(a.n, float(a.ours["pass"]), b.n, float(b.ours["pass"]))
        nlogn = _nlogn_exponent(a.n, b.n)
        verdict = "ok" if expo <= nlogn + 0.15 else "faster than N log N"
        print("pass time growth %6d -> %6d: exponent %.2f (N log N: %.2f) %s" % (a.n, b.n, expo, nlogn, verdict))
    first, last = rows[0], rows[-1]
    if len(rows) > 2:
        expo = _exponent(first.n, float(first.ours["pass"]), last.n, float(last.ours["pass"]))
        print(
            "pass time growth %6d -> %6d overall: exponent %.2f (N log N: %.2f)"
            % (first.n, last.n, expo, _nlogn_exponent(first.n, last.n))
        )
    ratio = float(last.ours["total"]) / last.opt["wall"]
    print("N=%d: ours / opt-19 = %.1fx total: %s 20x" % (last.n, ratio, "within" if ratio <= 20 else "NOT within"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    ap.add_argument("--quick", action="store_true", help="sizes 1000 and 2000 only")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="opt-19 runs per size (best taken)")
    ap.add_argument("--nohash-max", type=int, default=4096, help="largest N timed without the hash pre-filter")
    ap.add_argument("--nohash-timeout", type=float, default=600.0, help="seconds allowed to one no-hash run")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--no-hash", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.start if args.start is not None else time.time(), args.no_hash, args.out)
        return 0
    if shutil.which("opt-19") is None:
        print("opt-19 is not installed (run scripts/install-llvm-tools.sh)")
        return 1
    sizes = [1000, 2000] if args.quick else [int(s) for s in args.sizes.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="llvmpy-bench-mergefunc-"))
    rows: list[Row] = []
    for n in sizes:
        text = make_module(n, args.seed)
        path = tmp / ("mf%d.ll" % n)
        path.write_text(text)
        opt_out = tmp / ("mf%d.opt.ll" % n)
        our_out = tmp / ("mf%d.ours.ll" % n)
        opt = run_opt(path, args.repeat, opt_out)
        ours = run_child(path, False, None, our_out)
        assert ours is not None
        nohash_run = n <= args.nohash_max
        nohash = run_child(path, True, args.nohash_timeout, None) if nohash_run else None
        opt_text = opt_out.read_text()
        our_text = our_out.read_text()
        merged_ours = int(ours["stats"].get("mergefunc.NumFunctionsMerged", 0))
        rows.append(
            Row(n, opt, ours, nohash, nohash_run, merged_in(text, opt_text), merged_ours, _body(our_text) == _body(opt_text))
        )
        print(
            "N=%d: ours %.2f s (pass %.2f s), opt-19 %.3f s%s"
            % (
                n,
                float(ours["total"]),
                float(ours["pass"]),
                opt["wall"],
                "" if nohash is None else ", no-hash pass %.2f s" % float(nohash["pass"]),
            ),
            flush=True,
        )
    print()
    report(rows, args.nohash_timeout)
    if args.keep:
        print("files kept in %s" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
