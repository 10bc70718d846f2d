"""How much redundancy ``lazy-code-motion`` (ours, the course text's PRE) removes beside GVN.

For each of N csmith programs of the cached corpus (clang-19 ``-O0`` after opt-19's ``mem2reg``,
as the differential harness prepares SSA input), the instructions in the module before and after:

* our ``gvn`` (the LLVM 19 pass: value numbering, load elimination, scalar and load PRE);
* our ``lazy-code-motion`` (lexically identical, speculatable expressions over SSA values only:
  no loads, no commutative matching, no constant folding);
* our ``gvn,lazy-code-motion`` (what lazy code motion still finds after GVN);
* ``opt-19 -passes=gvn`` (the reference for what GVN should remove).

"Removed" is before − after (LCM may also add a few instructions: the computations it places on
split edges; the counts are net). The table gives the totals, the share of all instructions, how
many programs each changes, and how many our passes' outputs verify.

    python benchmarks/lcm_vs_gvn.py [--csmith 100] [--first 1]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "asm"), str(ROOT / "tests" / "differential")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import harness  # noqa: E402
import oracles  # noqa: E402

from llvmpy_mid import run_passes  # noqa: E402
from llvmpy_mid.asm import parse_file  # noqa: E402
from llvmpy_mid.ir.module import Module  # noqa: E402
from llvmpy_mid.ir.verifier import verify_module  # noqa: E402

COLUMNS = ("gvn (ours)", "lazy-code-motion", "gvn,lazy-code-motion (ours)", "gvn (opt-19)")


def count_instructions(module: Module) -> int:
    return sum(len(bb.instructions) for fn in module.functions for bb in fn.blocks)


@dataclass
class Column:
    removed: int = 0
    changed: int = 0
    verified: int = 0
    failed: int = 0
    seconds: float = 0.0
    per_program: list[int] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


def ours(path: Path, pipeline: str, stats: dict[str, int]) -> tuple[int | None, int, float]:
    """(instructions after, instructions before, pass seconds) or (None, before, 0) on failure;
    the run's lazy-code-motion statistics are added to ``stats``."""
    module = parse_file(path)
    before = count_instructions(module)
    t0 = time.perf_counter()
    try:
        result = run_passes(module, pipeline)
        seconds = time.perf_counter() - t0
        verify_module(module)
    except Exception:
        return None, before, 0.0
    for key, value in result.statistics.items():
        if key.startswith("lazy-code-motion."):
            stats[key] = stats.get(key, 0) + value
    return count_instructions(module), before, seconds


def theirs(path: Path) -> int | None:
    r = subprocess.run(["opt-19", "-passes=gvn", str(path), "-o", "-", "-S"], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return harness.count_instructions(r.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csmith", type=int, default=100, help="number of csmith programs")
    ap.add_argument("--first", type=int, default=1, help="first csmith seed")
    args = ap.parse_args(argv)
    from corpus import generate_csmith

    folder = oracles.csmith_cache_dir() or Path(tempfile.mkdtemp(prefix="llvmpy-csmith-"))
    corpus = generate_csmith(Path(folder), range(args.first, args.first + args.csmith))
    cases = harness.csmith_cases(corpus.all_files())
    cols = {name: Column() for name in COLUMNS}
    total = 0
    programs = 0
    for case in cases:
        path, err = harness.prepared_input(case, "ssa")
        if path is None:
            continue
        programs += 1
        size0 = None
        for name, pipeline in (("gvn (ours)", "gvn"), ("lazy-code-motion", "lazy-code-motion"),
                               ("gvn,lazy-code-motion (ours)", "gvn,lazy-code-motion")):
            col = cols[name]
            after, before, seconds = ours(path, pipeline, col.stats)
            size0 = before
            if after is None:
                col.failed += 1
                col.per_program.append(0)
                continue
            col.verified += 1
            col.removed += before - after
            col.changed += after != before
            col.seconds += seconds
            col.per_program.append(before - after)
        assert size0 is not None
        # opt-19 counts printed lines; count our input the same way so the difference is fair.
        printed0 = harness.count_instructions(path.read_text())
        after19 = theirs(path)
        col = cols["gvn (opt-19)"]
        if after19 is None:
            col.failed += 1
            col.per_program.append(0)
        else:
            col.verified += 1
            col.removed += printed0 - after19
            col.changed += after19 != printed0
            col.per_program.append(printed0 - after19)
        total += size0
    lcm = cols["lazy-code-motion"].per_program
    gvn = cols["gvn (ours)"].per_program
    print("%d csmith programs (seeds %d..%d, after opt-19's mem2reg), %d instructions in all\n"
          % (programs, args.first, args.first + args.csmith - 1, total))
    print("| pass | instructions removed | share of all | programs changed | runs (ours: verified) | failures | pass time (s) |")
    print("|---|---|---|---|---|---|---|")
    for name in COLUMNS:
        c = cols[name]
        print("| %s | %d | %.2f%% | %d | %d | %d | %s |" % (
            name, c.removed, 100.0 * c.removed / max(1, total), c.changed, c.verified, c.failed,
            "%.1f" % c.seconds if name != "gvn (opt-19)" else "–"))
    more = sum(1 for a, b in zip(lcm, gvn) if a > b)
    less = sum(1 for a, b in zip(lcm, gvn) if a < b)
    print("\nlazy-code-motion removes more than our gvn on %d programs, fewer on %d, as many on %d."
          % (more, less, len(lcm) - more - less))
    both = cols["gvn,lazy-code-motion (ours)"].per_program
    extra = [b - g for b, g in zip(both, gvn)]
    print("After our gvn, lazy-code-motion removes %d more instructions (net), on %d programs."
          % (sum(extra), sum(1 for x in extra if x > 0)))
    for name in ("lazy-code-motion", "gvn,lazy-code-motion (ours)"):
        st = cols[name].stats
        print("%s: %d computations inserted, %d replaced (a replaced one may become a phi: the static"
              " count is not what lazy code motion minimises, the count on each path is)."
              % (name, st.get("lazy-code-motion.NumInserted", 0), st.get("lazy-code-motion.NumReplaced", 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
