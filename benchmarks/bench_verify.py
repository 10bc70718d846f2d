"""Verifier speed on clang-19 output, beside ``opt-19 -passes=verify`` on the same files.

Reads the ``.ll`` files of ``--corpus DIR``, or generates at least ``--min-mb`` MB (default 3) of
csmith programs compiled by clang-19 (-O0, -O2, -O2 -g; see ``bench_asm.py``) into a temporary
folder. Then, in one run:

* ours: every file is parsed once without verification (not timed), then ``module_diagnostics``
  runs over all the modules (timed; best of ``--repeat``), giving instructions verified per second;
* opt-19: ``opt-19 -passes=verify -disable-output -time-passes FILE`` on each file: its
  ``VerifierPass`` wall time from the report (verification alone, comparable to ours), and the
  whole command's wall clock (process start, parse, the verification after parsing and the pass);
* ours end to end: ``parse_file`` with verification on (parse + verify), against opt's wall clock.

Ratios are ours / opt-19 (how many times slower). Any finding on a file opt-19 accepts is
reported as a false positive.

    python benchmarks/bench_verify.py [--corpus DIR] [--min-mb 3] [--repeat 3] [--keep]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_asm import generate  # noqa: E402

from llvmpy_mid import Module, module_diagnostics, parse_assembly  # noqa: E402

_PASS_LINE = re.compile(r"^\s+\S+ \(\s*[\d.]+%\)\s+\S+ \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)\s+VerifierPass\s*$")


def opt_verify_times(path: Path) -> tuple[float, float, bool]:
    """(VerifierPass wall seconds, whole command wall seconds, accepted)."""
    start = time.perf_counter()
    proc = subprocess.run(
        ["opt-19", "-passes=verify", "-disable-output", "-time-passes", str(path)], capture_output=True
    )
    wall = time.perf_counter() - start
    pass_time = 0.0
    for line in proc.stderr.decode(errors="replace").splitlines():
        m = _PASS_LINE.match(line)
        if m:
            pass_time = float(m.group(1))
            break
    return pass_time, wall, proc.returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, help="folder of .ll files (default: generate csmith programs)")
    ap.add_argument("--min-mb", type=float, default=3.0)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the generated folder")
    args = ap.parse_args()
    if shutil.which("opt-19") is None:
        print("opt-19 is not installed (run scripts/install-llvm-tools.sh)")
        return 1
    tmp: Path | None = None
    if args.corpus is not None:
        files = sorted(args.corpus.rglob("*.ll"))
    else:
        tmp = Path(tempfile.mkdtemp(prefix="llvmpy-bench-verify-"))
        files, seeds = generate(tmp, args.first_seed, int(args.min_mb * 1024 * 1024), 2)
        print("generated %d files from csmith seeds %d..%d in %s" % (len(files), seeds[0], seeds[-1], tmp))
    texts = [(f, f.read_text(errors="surrogateescape")) for f in files]
    modules: list[tuple[Path, Module]] = []
    for f, text in texts:
        try:
            modules.append((f, parse_assembly(text, name=str(f), verify=False)))
        except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
            print("skipped %s: %s" % (f, str(exc).splitlines()[0]))
    n_inst = sum(fn.instruction_count for _, m in modules for fn in m.functions)
    size = sum(len(t) for _, t in texts)
    print("corpus: %d files, %.2f MB, %d instructions" % (len(modules), size / 1e6, n_inst))

    best = float("inf")
    false_positives: list[str] = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        results = [module_diagnostics(m) for _, m in modules]
        best = min(best, time.perf_counter() - start)
    opt_pass = opt_wall = 0.0
    for (f, _), found in zip(modules, results):
        p, w, ok = opt_verify_times(f)
        opt_pass += p
        opt_wall += w
        if ok and any(not d.debug_info for d in found):
            false_positives.append(str(f))

    start = time.perf_counter()
    for f, text in texts:
        try:
            parse_assembly(text, name=str(f))
        except Exception:  # noqa: BLE001
            pass
    ours_e2e = time.perf_counter() - start

    print()
    print("%-44s %12s %14s" % ("", "seconds", "instructions/s"))
    print("%-44s %12.3f %14.0f" % ("llvmpy_mid module_diagnostics (best of %d)" % args.repeat, best, n_inst / best))
    print("%-44s %12.3f %14.0f" % ("opt-19 VerifierPass (sum of -time-passes)", opt_pass, n_inst / opt_pass if opt_pass else 0))
    print("%-44s %12.3f %14s" % ("llvmpy_mid parse + verify", ours_e2e, ""))
    print("%-44s %12.3f %14s" % ("opt-19 -passes=verify (wall, per process)", opt_wall, ""))
    print()
    if opt_pass:
        print("ratio verify only (ours / opt-19 VerifierPass): %.1fx" % (best / opt_pass))
    print("ratio end to end (ours parse+verify / opt-19 wall): %.1fx" % (ours_e2e / opt_wall))
    print("false positives (files opt-19 accepts that we reject): %d" % len(false_positives))
    for f in false_positives[:10]:
        print("  " + f)
    if tmp is not None and not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if false_positives else 0


if __name__ == "__main__":
    sys.exit(main())
