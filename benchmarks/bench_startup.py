"""Start-up time of ``llvmpy-opt -passes=verify`` on an empty module, beside ``opt-19``'s.

Runs each command ``--repeat`` times (default 10) on the same empty ``.ll`` file and prints the best
and median wall-clock times and the ratio ours / opt-19. The issue's aim is under 0.3 s.

    python benchmarks/bench_startup.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timings(cmd: list[str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        out.append(time.perf_counter() - start)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.ll"
        empty.write_text("")
        ours = timings([sys.executable, "-m", "llvmpy_mid", "-passes=verify", "-disable-output", str(empty)], args.repeat)
        print("llvmpy-opt  best %.3f s  median %.3f s" % (min(ours), statistics.median(ours)))
        if shutil.which("opt-19") is None:
            print("opt-19 is not installed: no ratio")
            return 0
        theirs = timings(["opt-19", "-passes=verify", "-disable-output", str(empty)], args.repeat)
        print("opt-19      best %.3f s  median %.3f s" % (min(theirs), statistics.median(theirs)))
        print("ratio (median) %.1fx; aim: llvmpy-opt under 0.3 s" % (statistics.median(ours) / statistics.median(theirs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
