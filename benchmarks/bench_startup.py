"""Start-up time of ``llvmpy-opt -passes=verify`` on an empty module, beside ``opt-19``'s.

Runs each command ``--repeat`` times (default 10) on the same empty ``.ll`` file and prints the best
and median wall-clock times and the ratio ours / opt-19. The issue's aim is under 0.3 s.

Python's start-up depends on whether compiled bytecode is cached: an installed package has its
``.pyc`` files, but some sandboxes set ``PYTHONDONTWRITEBYTECODE`` and recompile every module on
every run. Both are measured: "no bytecode cache" as the environment is, and "bytecode cached"
with ``PYTHONPYCACHEPREFIX`` pointing at a scratch folder warmed by one run.

    python benchmarks/bench_startup.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timings(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        out.append(time.perf_counter() - start)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.ll"
        empty.write_text("")
        cmd = [sys.executable, "-m", "llvmpy_mid", "-passes=verify", "-disable-output", str(empty)]
        plain_env = dict(os.environ)
        plain_env["PYTHONDONTWRITEBYTECODE"] = "1"
        ours = timings(cmd, args.repeat, plain_env)
        cached_env = dict(os.environ)
        cached_env.pop("PYTHONDONTWRITEBYTECODE", None)
        cached_env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        timings(cmd, 1, cached_env)  # warm the cache
        cached = timings(cmd, args.repeat, cached_env)
        print("llvmpy-opt, no bytecode cache  best %.3f s  median %.3f s" % (min(ours), statistics.median(ours)))
        print("llvmpy-opt, bytecode cached    best %.3f s  median %.3f s" % (min(cached), statistics.median(cached)))
        if shutil.which("opt-19") is None:
            print("opt-19 is not installed: no ratio")
            return 0
        theirs = timings(["opt-19", "-passes=verify", "-disable-output", str(empty)], args.repeat)
        print("opt-19                         best %.3f s  median %.3f s" % (min(theirs), statistics.median(theirs)))
        base = statistics.median(theirs)
        print(
            "ratio (median): %.1fx without, %.1fx with bytecode cache; aim: llvmpy-opt under 0.3 s"
            % (statistics.median(ours) / base, statistics.median(cached) / base)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
