"""Speed of the core analyses (dominator tree, post-dominator tree, dominance frontier, loop info,
liveness) on the largest csmith functions and on synthetic CFGs of 10k-100k blocks, beside
``opt-19 -passes='print<domtree>' -disable-output`` on the same files.

Inputs:

* csmith: the ``.ll`` files of ``--csmith-dir``, or programs generated with ``tests/asm/corpus.py``
  (``generate_csmith``, ``--seeds`` seeds) into a temporary folder; the ``--top`` files holding the
  functions with the most blocks are measured (every defined function of each file);
* synthetic: one function per file of ``--sizes`` blocks (default 10k, 20k, 50k, 100k) in three
  shapes, written as ``.ll`` text: ``ladder`` (two rails joined by crossing rungs: a flat dominator
  tree), ``loops`` (nests of loops eight deep, one after another: a dominator tree as deep as the
  function is long), ``dag`` (random forward edges within a window plus random back edges). Each
  block holds a compare and a branch. A ``print<domtree>`` text that would exceed 300 million
  characters (its indentation grows with depth; opt's too) is neither built nor run through opt.

For each input, in one run: parse (not counted), then ours — ``DominatorTree``, the
post-dominator tree, ``DominanceFrontier``, ``LoopInfo`` (given the tree), liveness (through
:func:`bench_liveness`, if that analysis exists) and the ``print<domtree>`` text — each timed
(best of ``--repeat``) as seconds, blocks/s and instructions/s; and opt-19: the wall clock of
``opt-19 -passes='print<domtree>' -disable-output FILE`` (process start and parsing included), and
from ``-time-passes`` of ``print<domtree>,require<loops>`` its ``DominatorTreeAnalysis`` and
``LoopAnalysis`` times. Ratios are ours / opt-19 (how many times slower): analysis against
analysis, and our parse + tree + printed text against opt's whole command.

Growth: for each shape and analysis, the exponent k of time ~ blocks^k between consecutive sizes
and over all sizes (least squares on the logs); near-linear means k close to 1.

    python benchmarks/bench_analysis.py [--csmith-dir DIR] [--seeds 30] [--top 6]
                                        [--sizes 10000,20000,50000,100000] [--repeat 3] [--no-csmith]
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests" / "asm"))

from llvmpy_mid import parse_assembly  # noqa: E402
from llvmpy_mid.analysis.dominance_frontier import DominanceFrontier  # noqa: E402
from llvmpy_mid.analysis.dominator_printers import format_dominator_tree  # noqa: E402
from llvmpy_mid.analysis.loop_info import LoopInfo  # noqa: E402
from llvmpy_mid.ir.dominators import DominatorTree  # noqa: E402
from llvmpy_mid.ir.function import Function  # noqa: E402

ANALYSES = ("domtree", "postdomtree", "domfrontier", "loops", "liveness", "print<domtree>")
# The printed tree is indented by depth; beyond this many characters it is not built (opt
# would write gigabytes too).
PRINT_LIMIT = 300_000_000


# --- synthetic CFGs -------------------------------------------------------------------------------


def _function(name: str, succs: list[list[int]]) -> str:
    """``.ll`` text of one function whose block i branches to ``succs[i]``."""
    out = ["define void @%s(i32 %%x) {\n" % name]
    for i, ss in enumerate(succs):
        out.append("b%d:\n  %%t%d = icmp slt i32 %%x, %d\n" % (i, i, i))
        if not ss:
            out.append("  ret void\n")
        elif len(ss) == 1:
            out.append("  br label %%b%d\n" % ss[0])
        elif len(ss) == 2:
            out.append("  br i1 %%t%d, label %%b%d, label %%b%d\n" % (i, ss[0], ss[1]))
        else:
            cases = " ".join("i32 %d, label %%b%d" % (k, s) for k, s in enumerate(ss[1:]))
            out.append("  switch i32 %%x, label %%b%d [ %s ]\n" % (ss[0], cases))
    out.append("}\n")
    return "".join(out)


def ladder(n: int) -> list[list[int]]:
    """Two rails whose rungs cross: left i -> left i+1, right i+1 and right i -> right i+1,
    left i+1 (every block has two predecessors, the dominator tree is flat, frontiers hold two)."""
    succs: list[list[int]] = [[1, 2]]
    last = n - 1  # the exit
    for i in range(1, last, 2):  # odd: left rail, even: right rail
        nl = i + 2 if i + 2 < last else last
        nr = i + 3 if i + 3 < last else last
        succs.append([nl, nr])
        if len(succs) < last:
            succs.append([nr, nl])
    while len(succs) < last:
        succs.append([last])
    succs.append([])
    return succs


def nested_loops(n: int, depth: int = 8) -> list[list[int]]:
    """Loop nests ``depth`` deep, one after another: header i -> header i+1 (or the body), the
    innermost body -> latches back out, each latch -> its header or the next latch."""
    succs: list[list[int]] = [[1]]  # an entry block outside every loop
    size = 2 * depth + 1  # headers, body, latches
    nests = max(1, (n - 2) // size)
    for k in range(nests):
        base = 1 + k * size
        for d in range(depth):
            succs.append([base + d + 1])  # header d -> header d+1 / body
        succs.append([base + depth + 1])  # body -> innermost latch
        for d in range(depth - 1, -1, -1):  # latch of level d, innermost first
            latch = len(succs)
            header = base + d
            after = latch + 1  # the next latch out, or the next nest
            succs.append([header, after])
    while len(succs) < n - 1:
        succs.append([len(succs) + 1])
    succs.append([])
    return succs


def random_dag(n: int, seed: int = 1, window: int = 48, back: float = 0.08) -> list[list[int]]:
    """Each block: one or two forward edges within ``window`` blocks, sometimes a back edge."""
    rng = random.Random(seed)
    succs: list[list[int]] = []
    for i in range(n - 1):
        ss = [i + 1]
        if rng.random() < 0.6:
            ss.append(min(n - 1, i + 1 + rng.randrange(window)))
        if i > 0 and rng.random() < back:
            ss.append(rng.randrange(max(1, i - window), i + 1))
        succs.append(ss)
    succs.append([])
    return succs


SHAPES: dict[str, Callable[[int], list[list[int]]]] = {"ladder": ladder, "loops": nested_loops, "dag": random_dag}


# --- measuring ------------------------------------------------------------------------------------


def bench_liveness(functions: list[Function], repeat: int) -> float | None:
    """HOOK: liveness (``llvmpy_mid.analysis.dataflow.liveness``), written by another helper.
    Returns the best time over ``functions``, or None (with a message once) if it is missing."""
    try:
        from llvmpy_mid.analysis.dataflow.liveness import Liveness
    except ImportError as exc:
        if not _LIVENESS_WARNED:
            _LIVENESS_WARNED.append(True)
            print("liveness: skipped (llvmpy_mid.analysis.dataflow.liveness not importable: %s)" % exc)
        return None
    return best_of(repeat, lambda: [Liveness(fn) for fn in functions])


_LIVENESS_WARNED: list[bool] = []


def best_of(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def tree_text_size(dt: DominatorTree) -> int:
    """About how many characters ``print<domtree>`` writes (the indentation dominates)."""
    return sum(2 * dt.level(bb) + 40 for bb in dt)


def measure_ours(functions: list[Function], repeat: int) -> dict[str, float | None]:
    times: dict[str, float | None] = {}
    times["domtree"] = best_of(repeat, lambda: [DominatorTree(fn) for fn in functions])
    times["postdomtree"] = best_of(repeat, lambda: [DominatorTree(fn, post=True) for fn in functions])
    trees = [DominatorTree(fn) for fn in functions]
    times["domfrontier"] = best_of(repeat, lambda: [DominanceFrontier(dt) for dt in trees])
    times["loops"] = best_of(repeat, lambda: [LoopInfo(fn, dt) for fn, dt in zip(functions, trees)])
    times["liveness"] = bench_liveness(functions, repeat)
    if sum(tree_text_size(dt) for dt in trees) > PRINT_LIMIT:
        times["print<domtree>"] = None
    else:
        times["print<domtree>"] = best_of(
            repeat, lambda: [format_dominator_tree(DominatorTree(fn)) for fn in functions]
        )
    return times


_TIMING = re.compile(r"^\s+(?:[\d.]+ \(\s*[\d.]+%\)\s+)+([\d.]+) \(\s*[\d.]+%\)\s+(\S.*?)\s*$")


def measure_opt(path: Path, repeat: int, printed: bool) -> dict[str, float]:
    """opt-19's wall clock for print<domtree> (best of ``repeat``; only when ``printed``) and its
    DominatorTreeAnalysis / LoopAnalysis / parse times from -time-passes."""
    res: dict[str, float] = {}
    if printed:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(
                ["opt-19", "-passes=print<domtree>", "-disable-output", str(path)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
            )
            best = min(best, time.perf_counter() - start)
        res["wall"] = best
    proc = subprocess.run(
        ["opt-19", "-passes=require<domtree>,require<postdomtree>,require<loops>", "-disable-output",
         "-time-passes", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in proc.stderr.splitlines():
        m = _TIMING.match(line)
        if m is None:
            continue
        name = m.group(2)
        key = {"DominatorTreeAnalysis": "domtree", "PostDominatorTreeAnalysis": "postdomtree",
               "LoopAnalysis": "loops", "Parse IR": "parse"}.get(name)
        if key is not None and key not in res:
            res[key] = float(m.group(1))
    return res


def rate(count: int, seconds: float | None) -> str:
    return "%12.0f" % (count / seconds) if seconds else "%12s" % "-"


def report(title: str, path: Path, functions: list[Function], parse_s: float, repeat: int) -> dict[str, float | None]:
    blocks = sum(len(fn.blocks) for fn in functions)
    insts = sum(fn.instruction_count for fn in functions)
    ours = measure_ours(functions, repeat)
    opt = measure_opt(path, repeat, ours["print<domtree>"] is not None)
    print("\n%s: %d functions, %d blocks, %d instructions (parse %.3f s)" % (title, len(functions), blocks, insts, parse_s))
    print("  %-15s %10s %12s %12s %10s %8s" % ("analysis", "ours s", "blocks/s", "insts/s", "opt-19 s", "ratio"))
    for name in ANALYSES:
        t = ours[name]
        o = opt.get(name)
        if name == "print<domtree>":
            o = opt.get("wall")
            t = None if t is None else t + parse_s  # opt's command parses too
            label = "parse+print"
        else:
            label = name
        print(
            "  %-15s %10s %s %s %10s %8s"
            % (
                label,
                "%.4f" % t if t is not None else "skipped",
                rate(blocks, t),
                rate(insts, t),
                "%.4f" % o if o else "-",
                "%.1fx" % (t / o) if t and o else "-",
            )
        )
    return ours


def csmith_inputs(args: argparse.Namespace) -> tuple[list[Path], Path | None]:
    if args.csmith_dir is not None:
        return sorted(Path(args.csmith_dir).rglob("*.ll")), None
    from corpus import generate_csmith, missing_tools

    missing = missing_tools("bash", "csmith", "clang-19", "lli-19", "opt-19")
    if missing:
        print("csmith part skipped: missing %s" % ", ".join(missing))
        return [], None
    tmp = Path(tempfile.mkdtemp(prefix="llvmpy-bench-analysis-"))
    corpus = generate_csmith(tmp, range(1, args.seeds + 1))
    return sorted(corpus.all_files()), tmp


def growth(sizes: list[int], times: list[float]) -> tuple[list[float], float]:
    steps = [math.log(t2 / t1) / math.log(n2 / n1) for n1, n2, t1, t2 in zip(sizes, sizes[1:], times, times[1:])]
    xs = [math.log(n) for n in sizes]
    ys = [math.log(t) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return steps, slope


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csmith-dir", type=Path, help="folder of csmith .ll files (default: generate)")
    ap.add_argument("--seeds", type=int, default=30, help="csmith seeds to generate (default 30)")
    ap.add_argument("--top", type=int, default=6, help="csmith files with the largest functions to measure")
    ap.add_argument("--sizes", default="10000,20000,50000,100000")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-csmith", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep generated files")
    args = ap.parse_args()
    if shutil.which("opt-19") is None:
        print("opt-19 is not installed (run scripts/install-llvm-tools.sh)")
        return 1
    sys.setrecursionlimit(10_000)
    work = Path(tempfile.mkdtemp(prefix="llvmpy-bench-analysis-cfg-"))
    gen_tmp: Path | None = None

    # --- csmith: the files holding the largest functions ---
    if not args.no_csmith:
        files, gen_tmp = csmith_inputs(args)
        ranked: list[tuple[int, Path]] = []
        for f in files:
            try:
                m = parse_assembly(f.read_text(errors="surrogateescape"), name=str(f), verify=False)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
                print("skipped %s: %s" % (f, str(exc).splitlines()[0]))
                continue
            biggest = max((len(fn.blocks) for fn in m.functions if not fn.is_declaration), default=0)
            ranked.append((biggest, f))
        ranked.sort(key=lambda x: -x[0])
        print("csmith: %d files; largest functions (blocks): %s" % (len(ranked), ", ".join(str(b) for b, _ in ranked[: args.top])))
        for _, f in ranked[: args.top]:
            text = f.read_text(errors="surrogateescape")
            start = time.perf_counter()
            m = parse_assembly(text, name=str(f), verify=False)
            parse_s = time.perf_counter() - start
            fns = [fn for fn in m.functions if not fn.is_declaration]
            report("csmith %s" % f.name, f, fns, parse_s, args.repeat)

    # --- synthetic CFGs ---
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = [s for s in args.shapes.split(",") if s]
    table: dict[str, dict[str, list[float]]] = {}
    for shape in shapes:
        for n in sizes:
            path = work / ("%s_%d.ll" % (shape, n))
            path.write_text(_function("%s_%d" % (shape, n), SHAPES[shape](n)))
            start = time.perf_counter()
            m = parse_assembly(path.read_text(), name=str(path), verify=False)
            parse_s = time.perf_counter() - start
            fns = [fn for fn in m.functions if not fn.is_declaration]
            ours = report("%s, %d blocks" % (shape, n), path, fns, parse_s, args.repeat)
            for name, t in ours.items():
                if t is not None:
                    table.setdefault(shape, {}).setdefault(name, []).append(t)

    if len(sizes) > 1:
        print("\ngrowth exponent k (time ~ blocks^k) between sizes %s; last column: fit over all" % sizes)
        for shape, per in table.items():
            for name, ts in per.items():
                if len(ts) != len(sizes):
                    continue
                steps, slope = growth(sizes, ts)
                print("  %-7s %-15s %s   all: %.2f" % (shape, name, "  ".join("%.2f" % k for k in steps), slope))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
        if gen_tmp is not None:
            shutil.rmtree(gen_tmp, ignore_errors=True)
    else:
        print("kept %s" % work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
