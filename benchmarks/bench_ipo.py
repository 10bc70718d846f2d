"""Speed of the interprocedural passes beside ``opt-19`` in the same run (issue 18).

Two parts:

* **csmith**: the ``--files`` largest csmith programs of the cached corpus, after opt-19's
  ``mem2reg`` (as the differential harness prepares them: whole programs whose functions are
  internal). For each pass and file: our pass time alone (the pass manager running the pass on a
  parsed module; parse and print excluded), our whole job (parse + pass + print) and opt-19's whole
  process (``opt-19 -passes=X -S``), the ratio **pass / opt process** and whether the printed
  modules are identical.
* **call-graph growth**: a synthetic module of N small internal functions (a binary tree of calls
  with a back edge every 64 functions, so the call graph has SCCs of several sizes, and an external
  ``main``), N from 2,500 to 20,000 by default. Our pass time per size, opt-19's whole process, and
  the growth exponent k (time ~ N^k) between consecutive sizes: the CGSCC walk should be near
  linear (k near 1).

    python benchmarks/bench_ipo.py [--passes inline,globalopt,function-attrs] [--files 5]
                                   [--functions 2500,5000,10000,20000] [--no-growth] [--no-csmith]

A pass that is not registered yet, or that fails on an input, is reported as "not available".
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

import bench_transforms as bt  # noqa: E402  (its sys.path set-up makes tests/ importable too)

from llvmpy_mid.asm import parse_file, print_module  # noqa: E402
from llvmpy_mid.passes.registry import REGISTRY  # noqa: E402

DEFAULT_PASSES = ("inline", "globalopt", "function-attrs")


def registered(name: str) -> bool:
    return any(REGISTRY.lookup(name, kind) is not None for kind in ("module", "cgscc", "function"))


def opt_process(path: Path, pipeline: str) -> tuple[float, str]:
    """opt-19's whole-process seconds for ``-passes=pipeline -S`` and its output ("" on failure)."""
    t0 = time.perf_counter()
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", str(path), "-o", "-"], capture_output=True, text=True)
    return time.perf_counter() - t0, (r.stdout if r.returncode == 0 else "")


def bench_csmith(passes: list[str], files: int, tmp: Path) -> None:
    import oracles
    from corpus import DEFAULT_SEEDS, generate_csmith

    folder = oracles.csmith_cache_dir()
    if folder is None:
        print("csmith part skipped: csmith/clang-19 missing")
        return
    corpus = generate_csmith(folder, DEFAULT_SEEDS)
    o0 = sorted((p for p in corpus.all_files() if p.name.endswith(".O0.ll")), key=lambda p: -p.stat().st_size)
    chosen = [bt.prepare(p, "ssa", tmp) for p in o0[:files]]
    print("## csmith (%d largest programs, after mem2reg)\n" % len(chosen))
    print("| pass | file | insts | ours: pass s | whole s | opt-19 process s | pass/opt process | whole/opt process | same text |")
    print("|" + "---|" * 9)
    for name in passes:
        if not registered(name):
            print("| %s | not available (not registered yet) |" % name, flush=True)
            continue
        ratios: list[float] = []
        for src in chosen:
            try:
                t0 = time.perf_counter()
                module = parse_file(src)
                insts = bt.count_instructions(module)
                pass_s = bt.run_pipeline(module, name)
                text = print_module(module)
                whole_s = time.perf_counter() - t0
            except Exception as exc:  # a pass being written may fail: report it and go on
                print("| %s | %s | not available (%s: %s) |" % (name, src.name, type(exc).__name__, exc), flush=True)
                continue
            opt_s, opt_text = opt_process(src, name)
            same = bool(opt_text) and bt._body(text) == bt._body(opt_text)
            ratios.append(pass_s / opt_s)
            print("| %s | %s | %d | %.3f | %.3f | %.3f | %.1f× | %.1f× | %s |" % (
                name, src.name, insts, pass_s, whole_s, opt_s, pass_s / opt_s, whole_s / opt_s,
                "yes" if same else "no"), flush=True)
        if ratios:
            print("| %s | **geomean pass/opt process** | | | | | %.1f× | | |" % (name, bt.geomean(ratios)), flush=True)


def synthetic_call_graph(n_functions: int) -> str:
    """N internal functions ``@f<i>``: each computes on its argument, calls its two children
    ``2i+1`` and ``2i+2`` (when they exist) and, every 64th function, its parent (a cycle through
    the call graph, so SCCs of several sizes form); an external ``@main`` calls ``@f0``."""
    out: list[str] = []
    for i in range(n_functions):
        kids = [k for k in (2 * i + 1, 2 * i + 2) if k < n_functions]
        body = ["define internal i32 @f%d(i32 %%x, ptr %%p) {" % i, "entry:",
                "  %%a = mul i32 %%x, %d" % (i % 7 + 3), "  %%b = add i32 %%a, %d" % i,
                "  %c = icmp sgt i32 %b, 100", "  br i1 %c, label %work, label %done", "work:",
                "  store i32 %b, ptr %p, align 4"]
        acc = "%b"
        for j, k in enumerate(kids):
            body.append("  %%r%d = call i32 @f%d(i32 %s, ptr %%p)" % (j, k, acc))
            body.append("  %%s%d = xor i32 %%r%d, %s" % (j, j, acc))
            acc = "%%s%d" % j
        if i and i % 64 == 0:
            body.append("  %%up = call i32 @f%d(i32 %s, ptr %%p)" % ((i - 1) // 2, acc))
            acc = "%up"
        body += ["  br label %done", "done:", "  %%v = phi i32 [ %s, %%work ], [ %%x, %%entry ]" % acc,
                 "  ret i32 %v", "}", ""]
        out.extend(body)
    out += ["define i32 @main() {", "entry:", "  %p = alloca i32, align 4",
            "  %r = call i32 @f0(i32 1, ptr %p)", "  ret i32 %r", "}", ""]
    return "\n".join(out)


def bench_growth(passes: list[str], sizes: list[int], tmp: Path) -> None:
    print("\n## call-graph growth (synthetic module of N internal functions)\n")
    print("| pass | functions | insts | ours: pass s | opt-19 process s | pass/opt process | k (ours) | k (opt-19) |")
    print("|" + "---|" * 8)
    for name in passes:
        if not registered(name):
            print("| %s | not available (not registered yet) |" % name, flush=True)
            continue
        prev: tuple[int, float] | None = None
        prev_opt: tuple[int, float] | None = None
        for n in sizes:
            src = tmp / ("callgraph-%d.ll" % n)
            if not src.is_file():
                src.write_text(synthetic_call_graph(n))
            try:
                module = parse_file(src)
                insts = bt.count_instructions(module)
                pass_s = bt.run_pipeline(module, name)
            except Exception as exc:
                print("| %s | %d | not available (%s: %s) |" % (name, n, type(exc).__name__, exc), flush=True)
                break
            opt_s, _ = opt_process(src, name)
            print("| %s | %d | %d | %.2f | %.2f | %.1f× | %s | %s |" % (
                name, n, insts, pass_s, opt_s, pass_s / opt_s, bt.growth_exponent(prev, n, pass_s),
                bt.growth_exponent(prev_opt, n, opt_s)), flush=True)
            prev, prev_opt = (n, pass_s), (n, opt_s)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--passes", default=",".join(DEFAULT_PASSES))
    ap.add_argument("--files", type=int, default=5)
    ap.add_argument("--functions", default="2500,5000,10000,20000")
    ap.add_argument("--no-growth", action="store_true")
    ap.add_argument("--no-csmith", action="store_true")
    args = ap.parse_args()
    passes = [p for p in args.passes.split(",") if p]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if not args.no_csmith:
            bench_csmith(passes, args.files, tmp)
        if not args.no_growth:
            bench_growth(passes, [int(s) for s in args.functions.split(",")], tmp)


if __name__ == "__main__":
    main()
