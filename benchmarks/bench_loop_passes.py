"""Speed of ``function(loop-simplify,lcssa)`` on deep loop nests, beside opt-19 in the same run.

Input: one function holding ``N`` loops nested one inside the other (or, with ``--depth D``,
``N / D`` nests ``D`` deep one after another). Each loop header is entered
from the enclosing header's conditional branch (so no loop has a preheader), and each loop exits
to the enclosing loop's latch, which the enclosing header also reaches (so no exit is dedicated):
loop-simplify must add ``N`` preheaders and ``N`` dedicated exits (each latch merges, in a phi, the
induction variable of the loop inside it), and lcssa must then close the values used outside
their loop. With ``--simple`` each header is entered only from the enclosing header and each
exit only from the loop it leaves (loop-simplify form already; lcssa closes each inner induction
variable the enclosing latch reads).

For each ``N`` of ``--sizes`` (default 250, 500, 1000, 2000): ours — parse, the pipeline
(``llvmpy_mid.run_passes``) and printing, each timed — and opt-19's wall clock for
``opt-19 -passes=... -S`` on the same file (process start, parse and print included), plus the
``-time-passes`` total of the two passes. The ratios are ours / opt-19 (how many times slower):
whole command against whole command, and pipeline against pipeline. Both outputs are compared
(the ``; ModuleID`` line aside). The growth exponent k (time ~ N^k) of our pipeline time between
consecutive sizes shows whether a step is superlinear.

    python benchmarks/bench_loop_passes.py [--sizes 250,500,1000,2000] [--depth D] [--simple]
                                              [--profile N]

``--profile N`` runs the pipeline once on the N-loop nest under cProfile and prints the 25
costliest functions (cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

import llvmpy_mid  # noqa: E402
from llvmpy_mid.asm import parse_assembly, parse_file, print_module  # noqa: E402

PIPELINE = "function(loop-simplify,lcssa)"


def _nest(out: list[str], tag: str, depth: int, pred: str, after_nest: str, simple: bool) -> None:
    """Append one nest ``depth`` deep whose blocks are named ``h<tag>_k``/``l<tag>_k``, entered
    from block ``pred`` and left to block ``after_nest``."""
    for k in range(depth):
        up = pred if k == 0 else "h%s_%d" % (tag, k - 1)
        out.append("h%s_%d:\n" % (tag, k))
        out.append("  %%i%s_%d = phi i32 [ 0, %%%s ], [ %%i%s_%d.next, %%l%s_%d ]\n" % (tag, k, up, tag, k, tag, k))
        if k + 1 < depth and simple:
            out.append("  br label %%h%s_%d\n" % (tag, k + 1))
        elif k + 1 < depth:
            out.append("  br i1 %%skip, label %%l%s_%d, label %%h%s_%d\n" % (tag, k, tag, k + 1))
        else:
            out.append("  br label %%l%s_%d\n" % (tag, k))
    for k in range(depth - 1, -1, -1):
        out.append("l%s_%d:\n" % (tag, k))
        if k + 1 < depth and simple:
            out.append("  %%u%s_%d = add i32 %%i%s_%d, %%i%s_%d\n" % (tag, k, tag, k, tag, k + 1))
        elif k + 1 < depth:
            out.append("  %%v%s_%d = phi i32 [ 0, %%h%s_%d ], [ %%i%s_%d, %%l%s_%d ]\n" % (tag, k, tag, k, tag, k + 1, tag, k + 1))
            out.append("  %%u%s_%d = add i32 %%i%s_%d, %%v%s_%d\n" % (tag, k, tag, k, tag, k))
        else:
            out.append("  %%u%s_%d = add i32 %%i%s_%d, 1\n" % (tag, k, tag, k))
        out.append("  %%i%s_%d.next = add i32 %%u%s_%d, 1\n" % (tag, k, tag, k))
        out.append("  %%c%s_%d = icmp slt i32 %%i%s_%d.next, %%n\n" % (tag, k, tag, k))
        after = after_nest if k == 0 else "l%s_%d" % (tag, k - 1)
        out.append("  br i1 %%c%s_%d, label %%h%s_%d, label %%%s\n" % (tag, k, tag, k, after))


def nested_loops(n: int, depth: int = 0, simple: bool = False) -> str:
    """``.ll`` text of one function with ``n`` loops: one nest ``n`` deep (``depth`` 0), or
    nests ``depth`` deep one after another; ``simple``: already in loop-simplify form (see the
    module doc)."""
    depth = depth or n
    nests = max(1, n // depth)
    out = ["define i32 @nest(i32 %n, i1 %skip) {\nentry:\n  br label %h0_0\n"]
    for j in range(nests):
        pred = "entry" if j == 0 else "l%d_0" % (j - 1)
        after = "exit" if j + 1 == nests else "h%d_0" % (j + 1)
        _nest(out, str(j), depth, pred, after, simple)
    out.append("exit:\n  ret i32 %%i%d_0.next\n}\n" % (nests - 1))
    return "".join(out)


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("; ModuleID")]


def _opt_pass_seconds(path: Path) -> float:
    """The ``-time-passes`` wall time opt-19 reports for LoopSimplifyPass and LCSSAPass."""
    r = subprocess.run(
        ["opt-19", "-passes=" + PIPELINE, "-time-passes", "-disable-output", str(path)],
        capture_output=True,
        text=True,
    )
    total = 0.0
    for line in r.stderr.splitlines():
        if "LoopSimplifyPass" in line or "LCSSAPass" in line:
            nums = re.findall(r"([0-9.]+) \(", line)
            if nums:
                total += float(nums[-1])
    return total


def measure(n: int, depth: int, simple: bool, tmp: Path) -> dict[str, float]:
    text = nested_loops(n, depth, simple)
    path = tmp / ("nest%d.ll" % n)
    path.write_text(text)
    t0 = time.perf_counter()
    module = parse_file(str(path))
    t1 = time.perf_counter()
    llvmpy_mid.run_passes(module, PIPELINE)
    t2 = time.perf_counter()
    ours = print_module(module)
    t3 = time.perf_counter()
    r = subprocess.run(["opt-19", "-passes=" + PIPELINE, "-S", str(path)], capture_output=True, text=True)
    t4 = time.perf_counter()
    same = r.returncode == 0 and _body(r.stdout) == _body(ours)
    return {
        "parse": t1 - t0,
        "passes": t2 - t1,
        "print": t3 - t2,
        "ours": t3 - t0,
        "opt": t4 - t3,
        "opt_passes": _opt_pass_seconds(path),
        "same": 1.0 if same else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="250,500,1000,2000")
    ap.add_argument("--profile", type=int, default=0)
    ap.add_argument("--simple", action="store_true", help="loops already in simplified form")
    ap.add_argument("--depth", type=int, default=0, help="nests this deep one after another (0: one nest)")
    ns = ap.parse_args()
    if shutil.which("opt-19") is None:
        sys.exit("needs opt-19 on PATH")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    if ns.profile:
        module = parse_assembly(nested_loops(ns.profile, ns.depth, ns.simple))
        prof = cProfile.Profile()
        prof.enable()
        llvmpy_mid.run_passes(module, PIPELINE)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return
    sizes = [int(s) for s in ns.sizes.split(",")]
    print(
        "%6s %8s %8s %8s %8s | %8s %8s | %7s %7s | %5s %s"
        % ("loops", "parse s", "passes s", "print s", "ours s", "opt s", "opt ps s", "ratio", "ps rat", "k", "same")
    )
    prev: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            m = measure(n, ns.depth, ns.simple, Path(d))
            k = ""
            if prev is not None and m["passes"] > 0 and prev[1] > 0:
                k = "%.2f" % (math.log(m["passes"] / prev[1]) / math.log(n / prev[0]))
            prev = (n, m["passes"])
            ps_ratio = m["passes"] / m["opt_passes"] if m["opt_passes"] > 0 else float("nan")
            print(
                "%6d %8.3f %8.3f %8.3f %8.3f | %8.3f %8.4f | %7.1f %7.1f | %5s %s"
                % (
                    n,
                    m["parse"],
                    m["passes"],
                    m["print"],
                    m["ours"],
                    m["opt"],
                    m["opt_passes"],
                    m["ours"] / m["opt"],
                    ps_ratio,
                    k,
                    "yes" if m["same"] else "NO",
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
