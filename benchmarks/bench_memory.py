"""Speed of the memory analyses and passes beside opt-19 in the same run (issue 16).

* **csmith**: the ``--files`` largest csmith programs of the cached corpus as clang-19 ``-O0``
  wrote them (allocas, loads and stores intact: the memory-heavy form), for ``aa-eval``,
  MemorySSA construction (``require<memoryssa>``), ``gvn``, ``dse``, ``early-cse<memssa>`` and
  ``memcpyopt``: our pass time (pass manager only, parse and print excluded), our whole job, opt-19's
  whole process and its own ``-time-passes`` figure, and the ratios ours / opt-19 process.
* **growth**: synthetic ``-O0``-style functions of 10k to 100k instructions (about half of them
  loads and stores of four locals through a chain of diamonds), our pass time and the growth
  exponent k between consecutive sizes (time ~ N^k; k near 1 is linear). ``aa-eval`` is left out
  of growth: it queries every pair of pointers, quadratic by definition (in LLVM too).
* **limits**: the walker and scan limits in force (LLVM's cl::opt defaults), which bound the work
  per query and so keep the growth near-linear.

    python benchmarks/bench_memory.py [--passes aa-eval,gvn] [--files 5] [--sizes 10000,20000,50000]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_transforms import (  # noqa: E402
    Row,
    count_instructions,
    geomean,
    growth_exponent,
    log_name_of,
    opt_times,
    run_pipeline,
    synthetic_o0,
)

from llvmpy_mid.asm import parse_file  # noqa: E402

#: pass -> the name opt-19's -time-passes shows (None: the registered class name)
PASSES: dict[str, str | None] = {
    "aa-eval": "AAEvaluator",
    "require<memoryssa>": "MemorySSAAnalysis",
    "gvn": None,
    "dse": None,
    "early-cse<memssa>": None,
    "memcpyopt": None,
}

#: The limits that bound each query (option name, what it caps).
LIMITS = (
    ("memssa-check-limit", "MemorySSA walker: clobber checks per query"),
    ("memdep-block-scan-limit", "memdep: instructions scanned per block"),
    ("memdep-block-number-limit", "memdep: blocks scanned per non-local query"),
    ("dse-memoryssa-scanlimit", "DSE: MemoryDefs/uses scanned per store"),
    ("dse-memoryssa-walklimit", "DSE: walker steps per store"),
    ("earlycse-mssa-optimization-cap", "EarlyCSE: MemorySSA clobber queries"),
    ("capture-tracking-max-uses-to-explore", "capture tracking: uses per pointer"),
)


def _registered(name: str) -> bool:
    from llvmpy_mid.passes.registry import REGISTRY

    base = name.split("<", 1)[0]
    if base == "require":
        inner = name[len("require<"):-1]
        return REGISTRY.lookup_analysis(inner, "function") is not None
    return REGISTRY.lookup(base, "function") is not None


def _log(name: str) -> str | None:
    fixed = PASSES.get(name)
    return fixed if fixed is not None else log_name_of(name.split("<", 1)[0])


def bench_csmith(passes: list[str], files: int) -> None:
    import oracles
    from corpus import DEFAULT_SEEDS, generate_csmith

    folder = oracles.csmith_cache_dir()
    if folder is None:
        print("csmith part skipped: csmith/clang-19 missing")
        return
    corpus = generate_csmith(folder, DEFAULT_SEEDS)
    o0 = sorted((p for p in corpus.all_files() if p.name.endswith(".O0.ll")), key=lambda p: -p.stat().st_size)
    chosen = o0[:files]
    print("## csmith (%d largest -O0 programs)\n" % len(chosen))
    print("| pass | file | insts | ours: pass s | whole s | opt-19: process s | pass s | pass/opt process | "
          "whole/opt process | same text |")
    print("|" + "---|" * 10)
    for name in passes:
        if not _registered(name):
            print("| %s | (not registered) |" % name)
            continue
        log = _log(name)
        ratios = []
        for path in chosen:
            r = Row(path, name, log)
            ratios.append(r.ratio)
            print("| %s | %s | %d | %.3f | %.3f | %.3f | %.4f | %.1f× | %.1f× | %s |" % (
                name, path.name, r.insts, r.pass_s, r.whole_s, r.opt_whole_s, r.opt_pass_s, r.ratio,
                r.whole_s / r.opt_whole_s, "yes" if r.same else "no"), flush=True)
        if ratios:
            print("| %s | **geomean pass/opt process** | | | | | | %.1f× | | |" % (name, geomean(ratios)), flush=True)


def bench_growth(passes: list[str], sizes: list[int], tmp: Path) -> None:
    print("\n## growth (synthetic -O0-style functions, about half loads and stores)\n")
    print("| pass | insts | memory insts | ours: pass s | opt-19: process s | pass/opt process | k |")
    print("|---|---|---|---|---|---|---|")
    for name in passes:
        if name == "aa-eval" or not _registered(name):
            continue
        prev: tuple[int, float] | None = None
        for size in sizes:
            path = tmp / ("mem%d.ll" % size)
            if not path.is_file():
                path.write_text(synthetic_o0(size))
            module = parse_file(path)
            n = count_instructions(module)
            mem = sum(1 for fn in module.functions for bb in fn.blocks for i in bb.instructions
                      if i.opcode in ("load", "store"))
            ps = run_pipeline(module, name)
            opt_whole, _own, _text = opt_times(path, name, _log(name))
            k = growth_exponent(prev, n, ps)
            prev = (n, ps)
            print("| %s | %d | %d | %.3f | %.3f | %.1f× | %s |" % (name, n, mem, ps, opt_whole, ps / opt_whole, k),
                  flush=True)


def print_limits() -> None:
    from llvmpy_mid.passes.options import OPTIONS

    print("\n## limits in force (LLVM 19's defaults)\n")
    print("| option | value | bounds |")
    print("|---|---|---|")
    for name, what in LIMITS:
        try:
            value: object = OPTIONS.value(name)
        except KeyError:
            value = "(not declared)"
        print("| -%s | %s | %s |" % (name, value, what))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--passes", default=",".join(PASSES))
    ap.add_argument("--files", type=int, default=5)
    ap.add_argument("--sizes", default="10000,20000,50000,100000")
    ap.add_argument("--no-growth", action="store_true")
    ap.add_argument("--no-csmith", action="store_true")
    ns = ap.parse_args()
    if shutil.which("opt-19") is None:
        sys.exit("needs opt-19 on PATH")
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the options)

    passes = [p for p in ns.passes.split(",") if p]
    print_limits()
    with tempfile.TemporaryDirectory() as d:
        if not ns.no_csmith:
            bench_csmith(passes, ns.files)
        if not ns.no_growth:
            bench_growth(passes, [int(s) for s in ns.sizes.split(",")], Path(d))


if __name__ == "__main__":
    main()
