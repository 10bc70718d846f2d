"""Parse and print speed of the textual-IR layer on clang-19 output, beside opt-19 -S.

Generates at least ``--min-mb`` MB (default 5) of clang-19 IR at run time with
``scripts/make-csmith-corpus.sh`` (fixed seeds from ``--first-seed`` on, each giving an
``-O0``, ``-O2`` and ``-O2 -g`` file) into a temporary folder, or reads the ``.ll`` files of
``--corpus DIR``. Then, for the whole corpus:

* parsing (``parse_assembly`` on text already in memory) and printing (``print_module``) are
  timed separately: seconds, MB/s of input text and instructions/s (instructions counted on the
  parsed modules);
* peak memory per MB of input: each file is parsed and printed again under ``tracemalloc`` and
  its peak traced allocation divided by its size (overall and worst file);
* ``opt-19 -S FILE -o OUT`` runs on the same files in the same run (wall clock, process start
  included, as a user would run it), giving the ratio of our parse + print time to opt's;
* how many files print byte-identical to opt-19 (apart from the ``; ModuleID`` line).

A file our parser rejects is reported and left out of the figures.

    python benchmarks/bench_asm.py [--min-mb 5] [--first-seed 1] [--corpus DIR] [--keep] [--no-gc]
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

from llvmpy_mid import Module, parse_assembly, print_module

REPO_ROOT = Path(__file__).resolve().parents[1]

CSMITH_SCRIPT = REPO_ROOT / "scripts" / "make-csmith-corpus.sh"
MB = 1024.0 * 1024.0


def generate(out: Path, first_seed: int, min_bytes: int, jobs: int) -> tuple[list[Path], list[int]]:
    """Run the csmith script seed by seed (``jobs`` at a time, each worker in its own folder)
    until the ``.ll`` files reach ``min_bytes``; return the files and the seeds used."""
    files: list[Path] = []
    seeds: list[int] = []
    total = 0
    seed = first_seed
    while total < min_bytes:
        batch = list(range(seed, seed + jobs))
        seed += jobs

        def run(k: int, s: int) -> None:
            subprocess.run(
                ["bash", str(CSMITH_SCRIPT), str(out / ("w%d" % k)), str(s), "1"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
            )

        threads = [threading.Thread(target=run, args=(k, s)) for k, s in enumerate(batch)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for k, s in enumerate(batch):
            found = [out / ("w%d" % k) / ("s%d.%s.ll" % (s, lv)) for lv in ("O0", "O2", "O2g")]
            if all(p.is_file() for p in found):
                seeds.append(s)
                files.extend(found)
                total += sum(p.stat().st_size for p in found)
        if seed - first_seed > 1000:
            raise RuntimeError("csmith script produced too little IR; is it installed?")
    return files, seeds


def instruction_count(module: Module) -> int:
    return sum(fn.instruction_count for fn in module.functions)


def fmt_rate(x: float) -> str:
    return "{:,.0f}".format(x)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-mb", type=float, default=5.0, help="generate at least this many MB of IR (default 5)")
    ap.add_argument("--first-seed", type=int, default=1, help="first csmith seed (default 1)")
    ap.add_argument("--corpus", type=Path, help="use the .ll files of this folder instead of generating")
    ap.add_argument("--keep", action="store_true", help="keep the generated corpus folder and print its path")
    ap.add_argument("--no-gc", action="store_true", help="disable Python's cyclic GC while parsing and printing")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)), help="parallel generators")
    args = ap.parse_args()

    for tool in ("opt-19",) + (() if args.corpus else ("csmith", "clang-19", "lli-19")):
        if shutil.which(tool) is None:
            print("error: %s is not installed (run scripts/install-llvm-tools.sh)" % tool, file=sys.stderr)
            return 1

    tmp: Path | None = None
    t0 = time.perf_counter()
    if args.corpus:
        files = sorted(args.corpus.rglob("*.ll"))
        origin = "folder %s" % args.corpus
    else:
        tmp = Path(tempfile.mkdtemp(prefix="bench-asm-"))
        files, seeds = generate(tmp, args.first_seed, int(args.min_mb * MB), args.jobs)
        origin = "csmith seeds %s, generated in %.1f s" % (",".join(map(str, seeds)), time.perf_counter() - t0)
    if not files:
        print("error: no .ll files", file=sys.stderr)
        return 1
    texts = {p: p.read_bytes().decode("utf-8", errors="surrogateescape") for p in files}

    # --- parse, then print (timed separately) ---------------------------------------------------
    modules: dict[Path, Module] = {}
    rejected: list[tuple[Path, str]] = []
    parse_times: dict[Path, float] = {}
    if args.no_gc:
        gc.disable()
    for p in files:
        text = texts[p]
        start = time.perf_counter()
        try:
            module = parse_assembly(text, name=str(p))
        except Exception as exc:  # reported below; the benchmark measures what parses
            rejected.append((p, "%s: %s" % (type(exc).__name__, exc)))
            continue
        parse_times[p] = time.perf_counter() - start
        modules[p] = module
    print_time = 0.0
    printed: dict[Path, str] = {}
    print_failed: list[tuple[Path, str]] = []
    for p, module in modules.items():
        start = time.perf_counter()
        try:
            out = print_module(module)
        except Exception as exc:
            print_failed.append((p, "%s: %s" % (type(exc).__name__, exc)))
            continue
        print_time += time.perf_counter() - start
        printed[p] = out
    if args.no_gc:
        gc.enable()

    ok_files = [p for p in files if p in printed]
    parse_time = sum(parse_times.values())
    parsed_bytes = sum(len(texts[p].encode("utf-8", "surrogateescape")) for p in modules)
    printed_bytes = sum(len(texts[p].encode("utf-8", "surrogateescape")) for p in ok_files)
    parsed_instrs = sum(instruction_count(modules[p]) for p in modules)
    printed_instrs = sum(instruction_count(modules[p]) for p in ok_files)
    modules.clear()
    gc.collect()

    # --- peak memory per MB of input ------------------------------------------------------------
    ratios: list[tuple[float, Path]] = []
    peak_sum = 0
    tracemalloc.start()
    for p in ok_files:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        module = parse_assembly(texts[p], name=str(p))
        print_module(module)
        peak = tracemalloc.get_traced_memory()[1] - base
        del module
        size = len(texts[p].encode("utf-8", "surrogateescape"))
        ratios.append((peak / size, p))
        peak_sum += peak
    tracemalloc.stop()

    # --- opt-19 -S on the same files ------------------------------------------------------------
    opt_time = 0.0
    identical = 0
    opt_out_dir = Path(tempfile.mkdtemp(prefix="bench-asm-opt-"))
    for i, p in enumerate(files):
        out_path = opt_out_dir / ("%d.ll" % i)
        start = time.perf_counter()
        proc = subprocess.run(["opt-19", "-S", str(p), "-o", str(out_path)], capture_output=True, check=False)
        elapsed = time.perf_counter() - start
        if p in printed:
            opt_time += elapsed
            if proc.returncode == 0:
                expected = out_path.read_text(errors="surrogateescape")
                if expected.split("\n", 1)[-1] == printed[p].split("\n", 1)[-1]:
                    identical += 1
    shutil.rmtree(opt_out_dir, ignore_errors=True)

    # --- report ---------------------------------------------------------------------------------
    total_bytes = sum(len(t.encode("utf-8", "surrogateescape")) for t in texts.values())
    print("corpus: %d files, %.2f MB of clang-19 IR (%s)" % (len(files), total_bytes / MB, origin))
    if rejected or print_failed:
        print("left out: %d files our parser rejects, %d our printer fails on" % (len(rejected), len(print_failed)))
        for p, why in (rejected + print_failed)[:5]:
            print("    %s: %s" % (p.name, why[:160]))
    if not ok_files:
        print("no file parsed and printed; nothing to measure")
        return 1
    gc_note = " (cyclic GC off)" if args.no_gc else ""
    print("measured: %d files, %.2f MB, %s instructions%s" % (len(ok_files), printed_bytes / MB, fmt_rate(printed_instrs), gc_note))
    print(
        "parse:        %7.2f s  %6.2f MB/s  %10s instructions/s"
        % (parse_time, parsed_bytes / MB / parse_time, fmt_rate(parsed_instrs / parse_time))
    )
    print(
        "print:        %7.2f s  %6.2f MB/s  %10s instructions/s"
        % (print_time, printed_bytes / MB / print_time, fmt_rate(printed_instrs / print_time))
    )
    ours = sum(parse_times[p] for p in ok_files) + print_time
    print(
        "parse+print:  %7.2f s  %6.2f MB/s  %10s instructions/s"
        % (ours, printed_bytes / MB / ours, fmt_rate(printed_instrs / ours))
    )
    print(
        "opt-19 -S:    %7.2f s  %6.2f MB/s  %10s instructions/s  (same files, process start included)"
        % (opt_time, printed_bytes / MB / opt_time, fmt_rate(printed_instrs / opt_time))
    )
    print("ratio: llvmpy_mid parse+print takes %.1fx the time of opt-19 -S" % (ours / opt_time))
    worst, worst_file = max(ratios, key=lambda r: r[0])
    print(
        "peak memory (parse+print, tracemalloc): %.1f MB per MB of input overall, worst %.1f (%s)"
        % (peak_sum / printed_bytes, worst, worst_file.name)
    )
    print("byte-identical with opt-19 -S (ModuleID line aside): %d of %d files" % (identical, len(ok_files)))
    if tmp is not None:
        if args.keep:
            print("corpus kept in %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
