"""Identity sweep of ``function(loop-simplify,lcssa)`` against opt-19 on llvm-stress-19 modules.

Each module is written by ``llvm-stress-19 -seed=N -size=S`` (every other seed with
``-enable-scalable-vectors``; sizes cycle through ``--sizes``), run through opt-19 and through
llvmpy_mid in this process (no start-up per module), and the printed modules compared (the
``; ModuleID`` line aside). Seeds that differ, or where we raise, are listed with the difference's
first lines; the last line is the identity figure.

    python benchmarks/sweep_loop_stress.py [--first 1] [--count 1000]
                                           [--sizes 50,100,300,500,1000,2000,3000]
                                           [--pipeline 'function(loop-simplify,lcssa)']
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

import llvmpy_mid  # noqa: E402
from llvmpy_mid.asm import parse_assembly, print_module  # noqa: E402


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("; ModuleID")]


def stress_args(seed: int, sizes: list[int]) -> list[str]:
    """The llvm-stress-19 options used for ``seed`` (size cycles; odd seeds scalable)."""
    args = ["-seed=%d" % seed, "-size=%d" % sizes[seed % len(sizes)]]
    if seed % 2:
        args.append("-enable-scalable-vectors")
    return args


def check_seed(seed: int, sizes: list[int], pipeline: str, tmp: Path) -> tuple[str, list[str], float]:
    """('same'|'differs'|'error'|'skip', detail lines, our seconds) for one seed."""
    path = tmp / "s.ll"
    args = stress_args(seed, sizes)
    subprocess.run(["llvm-stress-19", *args, "-o", str(path)], check=True)
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        return "skip", [r.stderr.strip()[:200]], 0.0
    t0 = time.perf_counter()
    try:
        module = parse_assembly(path.read_text())
        llvmpy_mid.run_passes(module, pipeline)
        ours = print_module(module)
    except Exception:
        return "error", traceback.format_exc().splitlines()[-6:], time.perf_counter() - t0
    elapsed = time.perf_counter() - t0
    a, b = _body(r.stdout), _body(ours)
    if a == b:
        return "same", [], elapsed
    diff = list(difflib.unified_diff(a, b, "opt-19", "ours", n=1, lineterm=""))
    return "differs", diff[:24], elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--sizes", default="50,100,300,500,1000,2000,3000")
    ap.add_argument("--pipeline", default="function(loop-simplify,lcssa)")
    ns = ap.parse_args()
    if shutil.which("opt-19") is None or shutil.which("llvm-stress-19") is None:
        sys.exit("needs opt-19 and llvm-stress-19 on PATH")
    sizes = [int(s) for s in ns.sizes.split(",")]
    counts = {"same": 0, "differs": 0, "error": 0, "skip": 0}
    ours_total = 0.0
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for seed in range(ns.first, ns.first + ns.count):
            verdict, detail, secs = check_seed(seed, sizes, ns.pipeline, tmp)
            counts[verdict] += 1
            ours_total += secs
            if verdict != "same":
                print("seed %d (%s): %s" % (seed, " ".join(stress_args(seed, sizes)), verdict), flush=True)
                for line in detail:
                    print("    " + line, flush=True)
    checked = counts["same"] + counts["differs"] + counts["error"]
    print(
        "identical: %d / %d (differs %d, errors %d, opt-19 rejected %d); our time %.1f s"
        % (counts["same"], checked, counts["differs"], counts["error"], counts["skip"], ours_total),
        flush=True,
    )


if __name__ == "__main__":
    main()
