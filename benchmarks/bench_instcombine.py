"""Speed of ``instcombine`` beside ``opt-19`` in the same run, on the csmith corpus.

Two pipelines, on the ``--files`` largest csmith programs of the cached corpus:

* ``instcombine<no-verify-fixpoint>`` alone, on the program after opt-19's ``mem2reg`` (the
  SSA form InstCombine sees in a real pipeline);
* ``mem2reg,instcombine<no-verify-fixpoint>`` on clang-19's ``-O0`` output.

(``no-verify-fixpoint``: opt-19's plain ``instcombine`` aborts on most csmith programs because
one iteration does not reach the fixpoint; with the parameter both sides run to completion.)

For each file: our pass time alone (pass manager on a parsed module; parse and print excluded),
our whole job (parse + pipeline + print), opt-19's whole process (``opt-19 -passes=X -S``) and
opt-19's own InstCombine time (``-time-passes``); the ratios ours / opt-19's process (the issue's
aim: whole job ≤ 15× per file); the instructions our driver visited (each visitor call counted by
wrapping the visitor table in this process) and visits per second of pass time; whether the
printed text equals opt-19's.

    python benchmarks/bench_instcombine.py [--files 5]
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO_ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO_ROOT))

from bench_transforms import _body, count_instructions, opt_times, prepare, run_pipeline  # noqa: E402

from llvmpy_mid.asm import parse_file, print_module  # noqa: E402
from llvmpy_mid.transform.instcombine import driver  # noqa: E402

PIPELINES: tuple[tuple[str, str], ...] = (
    ("instcombine<no-verify-fixpoint>", "ssa"),
    ("mem2reg,instcombine<no-verify-fixpoint>", "O0"),
)

_VISITS = [0]


def _count_visits() -> None:
    """Wrap every visitor of the driver's table so each call is counted."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def counted(ic: Any, i: Any) -> Any:
            _VISITS[0] += 1
            return fn(ic, i)

        return counted

    for opcode, fn in list(driver.VISITORS.items()):
        driver.VISITORS[opcode] = wrap(fn)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=5)
    ns = ap.parse_args()
    if shutil.which("opt-19") is None:
        sys.exit("needs opt-19 on PATH")
    sys.path.insert(0, str(REPO_ROOT.parent / "tests"))
    sys.path.insert(0, str(REPO_ROOT.parent / "tests" / "asm"))
    import oracles
    from corpus import DEFAULT_SEEDS, generate_csmith

    folder = oracles.csmith_cache_dir()
    if folder is None:
        sys.exit("needs csmith and clang-19 for the corpus")
    corpus = generate_csmith(folder, DEFAULT_SEEDS)
    o0 = sorted((p for p in corpus.all_files() if p.name.endswith(".O0.ll")), key=lambda p: -p.stat().st_size)
    chosen = o0[: ns.files]
    _count_visits()
    print("## instcombine on the %d largest csmith programs\n" % len(chosen))
    print("| pipeline | file | insts | ours: pass s | whole s | opt-19: process s | InstCombine s | "
          "pass/opt process | whole/opt process | visits | visits/s | same text |")
    print("|" + "---|" * 12)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for pipeline, form in PIPELINES:
            pass_ratios: list[float] = []
            whole_ratios: list[float] = []
            for src in chosen:
                path = prepare(src, form, tmp)
                t0 = time.perf_counter()
                module = parse_file(path)
                n = count_instructions(module)
                _VISITS[0] = 0
                ps = run_pipeline(module, pipeline)
                visits = _VISITS[0]
                text = print_module(module)
                whole = time.perf_counter() - t0
                opt_whole, opt_pass, opt_text = opt_times(path, pipeline, "InstCombinePass")
                same = bool(opt_text) and _body(text) == _body(opt_text)
                pass_ratios.append(ps / opt_whole)
                whole_ratios.append(whole / opt_whole)
                print("| %s | %s | %d | %.3f | %.3f | %.3f | %.4f | %.1f× | %.1f× | %d | %.0fk | %s |" % (
                    pipeline, src.name, n, ps, whole, opt_whole, opt_pass, ps / opt_whole, whole / opt_whole,
                    visits, visits / ps / 1000 if ps > 0 else float("inf"), "yes" if same else "no"), flush=True)
            if pass_ratios:
                print("| %s | **geomean** | | | | | | %.1f× | %.1f× | | | |" % (
                    pipeline,
                    math.exp(sum(math.log(r) for r in pass_ratios) / len(pass_ratios)),
                    math.exp(sum(math.log(r) for r in whole_ratios) / len(whole_ratios))), flush=True)


if __name__ == "__main__":
    main()
