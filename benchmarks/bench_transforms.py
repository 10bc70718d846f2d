"""Speed of each toolkit transform beside ``opt-19 -passes=X`` in the same run.

Two parts:

* **csmith**: the ``--files`` largest csmith programs of the cached corpus (clang-19 ``-O0``;
  for passes that want SSA, after opt-19's ``mem2reg``, as the differential harness prepares them).
  For each pass and file: our pass time alone (the pass manager running the pipeline on a parsed
  module; parse and print excluded), our whole job (parse + pass + print) and opt-19's whole
  process (``opt-19 -passes=X -S``: start-up, parse, pass, print) and opt-19's own pass time
  (``-time-passes``). Ratios are ours / opt-19: **pass / opt process** (the issue's aim: ≤ 10×)
  and **whole / opt process**. Instructions per second are the file's instruction count over our
  pass time.
* **growth**: synthetic ``-O0``-style functions of 10k to 100k instructions (a chain of diamonds
  loading, computing and storing a few locals), our pass time per size and the growth exponent k
  (time ~ N^k) between consecutive sizes; k near 1 is linear.
* ``sroa`` runs on the ``-O0`` programs with ``optnone`` taken out of their attribute groups
  (allocas intact); ``licm`` runs as ``loop-mssa(licm)`` and ``indvars`` as ``loop(indvars)``
  after mem2reg, their growth inputs a sequence of counted loops with invariant arithmetic
  (``synthetic_loops_o0``).
* **ours only** (``lazy-code-motion``: opt-19 has no such pass): our time beside our ``gvn``'s on
  the same inputs (csmith after mem2reg and the synthetic functions, with k), and gvn's ratio to
  opt-19's process; no ratio to opt-19 for the pass itself.
* A pass not registered yet (or failing on an input) is reported as "not available".
* **cfg growth** (``simplifycfg``): SSA functions of 10k to 100k basic blocks (a chain of
  diamonds, each with an empty arm, a speculatable arm and a phi) and switches of 10k to 50k
  cases (each case a block storing a distinct value), our pass time per size, opt-19's whole process,
  and k.

    python benchmarks/bench_transforms.py [--passes mem2reg,sccp] [--files 5]
                                          [--sizes 10000,20000,50000,100000] [--no-growth]
                                          [--cfg-blocks 10000,20000,50000,100000]
                                          [--switch-cases 10000,20000,50000] [--no-cfg-growth]
"""

from __future__ import annotations

import argparse
import gc
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "tests" / "asm"))

from llvmpy_mid.asm import parse_file, print_module  # noqa: E402
from llvmpy_mid.ir.module import Module  # noqa: E402
from llvmpy_mid.passes.builder import build_pipeline  # noqa: E402
from llvmpy_mid.passes.instrumentation import PassInstrumentation  # noqa: E402
from llvmpy_mid.passes.proxies import make_analysis_managers  # noqa: E402

#: pass -> input form ("O0": as clang wrote it; "ssa": after opt-19's mem2reg)
PASSES: dict[str, str] = {
    "mem2reg": "O0",
    "reg2mem": "ssa",
    "dce": "ssa",
    "adce": "ssa",
    "bdce": "ssa",
    "sccp": "ssa",
    "instsimplify": "ssa",
    "break-crit-edges": "ssa",
    "lower-switch": "ssa",
    "mergereturn": "ssa",
    "lower-expect": "ssa",
    "lower-atomic": "ssa",
    "lower-invoke": "ssa",
    "lower-constant-intrinsics": "ssa",
    "unify-loop-exits": "ssa",
    "fix-irreducible": "ssa",
    "simplifycfg": "ssa",
    "reassociate": "ssa",
    "sroa": "O0-no-optnone",
    "licm": "ssa",
    "lazy-code-motion": "ssa",
    "indvars": "ssa",
}

#: pass -> the pipeline text it runs as, ours and opt-19's (the pass name when absent)
PIPELINES: dict[str, str] = {"licm": "loop-mssa(licm)", "indvars": "loop(indvars)"}

#: passes opt-19 has no counterpart of -> the pass of ours (and opt-19's) shown beside them
OURS_ONLY: dict[str, str] = {"lazy-code-motion": "gvn"}


def run_pipeline(module: Module, pipeline: str) -> float:
    """Seconds the pass manager takes to run ``pipeline`` on ``module`` (no parse, no print)."""
    mpm = build_pipeline(pipeline)
    mam, _fam = make_analysis_managers(PassInstrumentation())
    gc.collect()  # the modules measured before are garbage: their collection is not this pass's cost
    t0 = time.perf_counter()
    mpm.run(module, mam)
    return time.perf_counter() - t0


def count_instructions(module: Module) -> int:
    return sum(len(bb.instructions) for fn in module.functions for bb in fn.blocks)


def opt_times(path: Path, pipeline: str, log_name: str | None) -> tuple[float, float, str]:
    """(opt-19 whole-process seconds, opt-19 -time-passes seconds of the pass, its output)."""
    t0 = time.perf_counter()
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", str(path), "-o", "-"], capture_output=True, text=True)
    whole = time.perf_counter() - t0
    t = subprocess.run(["opt-19", "-passes=" + pipeline, "-time-passes", "-disable-output", str(path)],
                       capture_output=True, text=True)
    own = 0.0
    for line in t.stderr.splitlines():
        if log_name and log_name in line:
            nums = re.findall(r"([0-9.]+) \(", line)
            if nums:
                own += float(nums[-1])
    return whole, own, r.stdout if r.returncode == 0 else ""


def strip_optnone(path: Path, tmp: Path) -> Path:
    """``path`` without ``optnone`` in its attribute groups (clang's ``-O0`` marks every
    function so, and a pass skips such functions): the allocas stay intact."""
    text = path.read_text()
    if "optnone" not in text:
        return path
    out = tmp / (path.stem + ".no-optnone.ll")
    if not out.is_file():
        lines = [re.sub(r" optnone\b", "", line) if line.startswith("attributes #") else line
                 for line in text.splitlines(keepends=True)]
        out.write_text("".join(lines))
    return out


def prepare(path: Path, form: str, tmp: Path) -> Path:
    if form == "O0":
        return path
    if form == "O0-no-optnone":
        return strip_optnone(path, tmp)
    out = tmp / (path.stem + ".ssa.ll")
    if not out.is_file():
        subprocess.run(["opt-19", "-passes=mem2reg", "-S", str(path), "-o", str(out)], check=True)
    return out


def log_name_of(pipeline: str) -> str | None:
    from llvmpy_mid.passes.registry import REGISTRY

    entry = (REGISTRY.lookup(pipeline, "function") or REGISTRY.lookup(pipeline, "module")
             or REGISTRY.lookup(pipeline, "loop"))
    if entry is None:
        return None
    cls = entry.load()
    return cls.__name__


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("; ModuleID")]


class Row:
    """One measured file: our pass time and whole job beside opt-19's process."""

    __slots__ = ("insts", "pass_s", "whole_s", "opt_whole_s", "opt_pass_s", "same")

    def __init__(self, path: Path, pipeline: str, log: str | None) -> None:
        t0 = time.perf_counter()
        module = parse_file(path)
        self.insts = count_instructions(module)
        self.pass_s = run_pipeline(module, pipeline)
        text = print_module(module)
        self.whole_s = time.perf_counter() - t0
        self.opt_whole_s, self.opt_pass_s, opt_text = opt_times(path, pipeline, log)
        self.same = bool(opt_text) and _body(text) == _body(opt_text)

    @property
    def ratio(self) -> float:
        """Our pass time over opt-19's whole process."""
        return self.pass_s / self.opt_whole_s


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def growth_exponent(prev: tuple[int, float] | None, n: int, seconds: float) -> str:
    """k in time ~ N^k between the previous (size, time) and this one ("" for the first)."""
    if prev is None or prev[1] <= 0 or seconds <= 0:
        return ""
    return "%.2f" % (math.log(seconds / prev[1]) / math.log(n / prev[0]))


def bench_csmith(passes: list[str], files: int, tmp: Path) -> None:
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
          "whole/opt process | insts/s | same text |")
    print("|" + "---|" * 11)
    for name in passes:
        if name in OURS_ONLY:
            continue  # in its own table (bench_ours_only)
        log = log_name_of(name)
        if log is None:
            print("| %s | not available (not registered yet) |" % name)
            continue
        ratios = []
        for src in chosen:
            try:
                r = Row(prepare(src, PASSES.get(name, "ssa"), tmp), PIPELINES.get(name, name), log)
            except Exception as exc:  # a pass being written may still fail: report, go on
                print("| %s | %s | not available (%s: %s) |" % (name, src.name, type(exc).__name__, exc), flush=True)
                continue
            ratios.append(r.ratio)
            print("| %s | %s | %d | %.3f | %.3f | %.3f | %.4f | %.1f× | %.1f× | %.0fk | %s |" % (
                name, src.name, r.insts, r.pass_s, r.whole_s, r.opt_whole_s, r.opt_pass_s, r.ratio,
                r.whole_s / r.opt_whole_s, r.insts / r.pass_s / 1000 if r.pass_s > 0 else float("inf"),
                "yes" if r.same else "no"), flush=True)
        if ratios:
            print("| %s | **geomean pass/opt process** | | | | | | %.1f× | | | |" % (name, geomean(ratios)), flush=True)


def synthetic_o0(n_insts: int) -> str:
    """An ``-O0``-style function of about ``n_insts`` instructions: 4 locals, a chain of diamonds."""
    out = ["define i32 @f(i32 %n) {\nentry:\n"]
    for v in "abcd":
        out.append("  %%%s = alloca i32, align 4\n  store i32 %%n, ptr %%%s, align 4\n" % (v, v))
    out.append("  br label %b0\n")
    per_block = 22  # instructions per diamond below
    blocks = max(1, n_insts // per_block)
    for k in range(blocks):
        nxt = "b%d" % (k + 1) if k + 1 < blocks else "exit"
        out.append(
            "b{k}:\n  %x{k} = load i32, ptr %a, align 4\n  %y{k} = load i32, ptr %b, align 4\n"
            "  %s{k} = add nsw i32 %x{k}, %y{k}\n  %c{k} = icmp slt i32 %s{k}, {k}\n"
            "  br i1 %c{k}, label %t{k}, label %e{k}\n"
            "t{k}:\n  %u{k} = load i32, ptr %c, align 4\n  %m{k} = mul nsw i32 %u{k}, 3\n"
            "  store i32 %m{k}, ptr %c, align 4\n  %z{k} = xor i32 %m{k}, %s{k}\n"
            "  store i32 %z{k}, ptr %a, align 4\n  br label %j{k}\n"
            "e{k}:\n  %w{k} = load i32, ptr %d, align 4\n  %q{k} = sub nsw i32 %w{k}, %x{k}\n"
            "  store i32 %q{k}, ptr %d, align 4\n  %r{k} = shl i32 %q{k}, 1\n"
            "  store i32 %r{k}, ptr %b, align 4\n  br label %j{k}\n"
            "j{k}:\n  %g{k} = load i32, ptr %a, align 4\n  %h{k} = and i32 %g{k}, 255\n"
            "  store i32 %h{k}, ptr %a, align 4\n  br label %{nxt}\n".format(k=k, nxt=nxt))
    out.append("exit:\n  %res = load i32, ptr %a, align 4\n  ret i32 %res\n}\n")
    return "".join(out)


def bench_growth(passes: list[str], sizes: list[int], tmp: Path) -> None:
    print("\n## growth (synthetic -O0-style functions)\n")
    print("| pass | insts | ours: pass s | opt-19: process s | pass/opt process | k |")
    print("|---|---|---|---|---|---|")
    for name in passes:
        if name in OURS_ONLY:
            continue
        log = log_name_of(name)
        if log is None:
            print("| %s | not available (not registered yet) |" % name)
            continue
        prev: tuple[int, float] | None = None
        make, stem = GROWTH_INPUTS.get(name, (synthetic_o0, "syn"))
        pipeline = PIPELINES.get(name, name)
        for size in sizes:
            src = tmp / ("%s%d.ll" % (stem, size))
            if not src.is_file():
                src.write_text(make(size))
            path = prepare(src, PASSES.get(name, "ssa"), tmp)
            module = parse_file(path)
            n = count_instructions(module)
            try:
                ps = run_pipeline(module, pipeline)
            except Exception as exc:
                print("| %s | %d | not available (%s: %s) |" % (name, n, type(exc).__name__, exc), flush=True)
                break
            opt_whole, _own, _text = opt_times(path, pipeline, log)
            k = growth_exponent(prev, n, ps)
            prev = (n, ps)
            print("| %s | %d | %.3f | %.3f | %.1f× | %s |" % (name, n, ps, opt_whole, ps / opt_whole, k), flush=True)


def synthetic_loops_o0(n_insts: int) -> str:
    """An ``-O0``-style function of about ``n_insts`` instructions: a sequence of counted
    loops, each computing two loop-invariant values from locals stored once at entry (what
    LICM hoists after mem2reg), accumulating into a local and storing to ``%arr[i]``."""
    out = ["define i32 @f(i32 %n, ptr noalias %arr) {\nentry:\n"]
    for v in ("x", "y", "acc", "i"):
        out.append("  %%%s = alloca i32, align 4\n  store i32 %%n, ptr %%%s, align 4\n" % (v, v))
    out.append("  br label %p0\n")
    per_loop = 20  # instructions per loop below
    loops = max(1, n_insts // per_loop)
    for k in range(loops):
        nxt = "p%d" % (k + 1) if k + 1 < loops else "exit"
        out.append(
            "p{k}:\n  store i32 0, ptr %i, align 4\n  br label %h{k}\n"
            "h{k}:\n  %iv{k} = load i32, ptr %i, align 4\n  %c{k} = icmp slt i32 %iv{k}, %n\n"
            "  br i1 %c{k}, label %b{k}, label %{nxt}\n"
            "b{k}:\n  %x{k} = load i32, ptr %x, align 4\n  %y{k} = load i32, ptr %y, align 4\n"
            "  %s{k} = add nsw i32 %x{k}, {k}\n  %m{k} = mul nsw i32 %s{k}, %y{k}\n"
            "  %a{k} = load i32, ptr %acc, align 4\n  %t{k} = add nsw i32 %a{k}, %m{k}\n"
            "  %u{k} = xor i32 %t{k}, %iv{k}\n  store i32 %u{k}, ptr %acc, align 4\n"
            "  %e{k} = sext i32 %iv{k} to i64\n  %g{k} = getelementptr inbounds i32, ptr %arr, i64 %e{k}\n"
            "  store i32 %u{k}, ptr %g{k}, align 4\n  %j{k} = add nsw i32 %iv{k}, 1\n"
            "  store i32 %j{k}, ptr %i, align 4\n  br label %h{k}\n".format(k=k, nxt=nxt))
    out.append("exit:\n  %res = load i32, ptr %acc, align 4\n  ret i32 %res\n}\n")
    return "".join(out)


#: pass -> (the generator of its growth inputs, their file stem) when not ``synthetic_o0``
GROWTH_INPUTS = {"licm": (synthetic_loops_o0, "loops"), "indvars": (synthetic_loops_o0, "loops")}


def bench_ours_only(passes: list[str], files: int, sizes: list[int], tmp: Path, growth: bool, csmith: bool) -> None:
    """The passes opt-19 has no counterpart of, beside the pass of ours closest to them (its
    own time, and its ratio to opt-19's process): no ratio to opt-19 for the pass itself."""
    import oracles
    from corpus import DEFAULT_SEEDS, generate_csmith

    for name in passes:
        other = OURS_ONLY.get(name)
        if other is None:
            continue
        print("\n## %s (ours only: opt-19 has no such pass) beside our %s\n" % (name, other))
        log = log_name_of(name)
        other_log = log_name_of(other)
        if log is None or other_log is None:
            print("%s: not available (not registered yet)" % (name if log is None else other))
            continue
        inputs: list[tuple[str, Path]] = []
        folder = oracles.csmith_cache_dir() if csmith else None
        if folder is not None:
            corpus = generate_csmith(folder, DEFAULT_SEEDS)
            o0 = sorted((p for p in corpus.all_files() if p.name.endswith(".O0.ll")), key=lambda p: -p.stat().st_size)
            inputs += [(p.name, prepare(p, PASSES.get(name, "ssa"), tmp)) for p in o0[:files]]
        if growth:
            for size in sizes:
                src = tmp / ("syn%d.ll" % size)
                if not src.is_file():
                    src.write_text(synthetic_o0(size))
                inputs.append(("synthetic %d" % size, prepare(src, PASSES.get(name, "ssa"), tmp)))
        print("| input | insts | %s: pass s | k | our %s: pass s | k | %s / %s | opt-19 %s: process s | "
              "%s pass/opt process |" % (name, other, name, other, other, other))
        print("|" + "---|" * 9)
        warm = tmp / "warm-up.ll"
        warm.write_text(synthetic_o0(200))
        for pipeline in (PIPELINES.get(name, name), PIPELINES.get(other, other)):  # imports out of the timings
            try:
                run_pipeline(parse_file(prepare(warm, PASSES.get(name, "ssa"), tmp)), pipeline)
            except Exception:
                pass
        prev: tuple[int, float] | None = None
        prev_other: tuple[int, float] | None = None
        for label, path in inputs:
            module = parse_file(path)
            n = count_instructions(module)
            try:
                ps = run_pipeline(module, PIPELINES.get(name, name))
            except Exception as exc:
                print("| %s | %d | not available (%s: %s) |" % (label, n, type(exc).__name__, exc), flush=True)
                continue
            other_ps = run_pipeline(parse_file(path), PIPELINES.get(other, other))
            opt_whole, _own, _text = opt_times(path, PIPELINES.get(other, other), other_log)
            synthetic = label.startswith("synthetic")
            k = growth_exponent(prev, n, ps) if synthetic else ""
            k_other = growth_exponent(prev_other, n, other_ps) if synthetic else ""
            if synthetic:
                prev, prev_other = (n, ps), (n, other_ps)
            print("| %s | %d | %.3f | %s | %.3f | %s | %.2f× | %.3f | %.1f× |" % (
                label, n, ps, k, other_ps, k_other, ps / other_ps if other_ps > 0 else float("inf"), opt_whole,
                other_ps / opt_whole), flush=True)


def synthetic_cfg(n_blocks: int) -> str:
    """An SSA function of about ``n_blocks`` blocks: a chain of diamonds (an empty arm, an arm
    with one add, a join with a phi), the shape SimplifyCFG turns into straight-line selects."""
    out = ["define i32 @f(i32 %x0) {\nentry:\n  br label %b1\n"]
    diamonds = max(1, n_blocks // 4)
    for k in range(1, diamonds + 1):
        out.append(
            "b{k}:\n  %c{k} = icmp slt i32 %x{p}, {k}\n  br i1 %c{k}, label %t{k}, label %e{k}\n"
            "t{k}:\n  %a{k} = add i32 %x{p}, {k}\n  br label %j{k}\n"
            "e{k}:\n  br label %j{k}\n"
            "j{k}:\n  %x{k} = phi i32 [ %a{k}, %t{k} ], [ %x{p}, %e{k} ]\n  br label %b{n}\n".format(
                k=k, p=k - 1, n=k + 1))
    out.append("b%d:\n  ret i32 %%x%d\n}\n" % (diamonds + 1, diamonds))
    return "".join(out)


def synthetic_switch(n_cases: int) -> str:
    """A switch of ``n_cases`` cases, each to its own block storing a distinct value and joining
    the exit. (A shape where every case block only feeds one phi is quadratic in LLVM too:
    ``CanPropagatePredecessorsForPHIs`` scans the whole phi for each empty case block.)"""
    out = ["@g = global i32 0\n\ndefine void @s(i32 %x) {\nentry:\n  switch i32 %x, label %def [\n"]
    out.extend("    i32 %d, label %%c%d\n" % (k * 3, k) for k in range(n_cases))
    out.append("  ]\n")
    out.extend("c%d:\n  store i32 %d, ptr @g, align 4\n  br label %%ret\n" % (k, k * 7 + 1) for k in range(n_cases))
    out.append("def:\n  br label %ret\nret:\n  ret void\n}\n")
    return "".join(out)


def bench_cfg_growth(blocks: list[int], cases: list[int], tmp: Path) -> None:
    if log_name_of("simplifycfg") is None:
        return
    print("\n## cfg growth (simplifycfg on synthetic SSA functions)\n")
    print("| shape | size | insts | ours: pass s | opt-19: process s | pass/opt process | k |")
    print("|---|---|---|---|---|---|---|")
    for shape, sizes, make in (("blocks", blocks, synthetic_cfg), ("switch cases", cases, synthetic_switch)):
        prev: tuple[int, float] | None = None
        for size in sizes:
            path = tmp / ("cfg-%s-%d.ll" % (shape[0], size))
            path.write_text(make(size))
            module = parse_file(path)
            n = count_instructions(module)
            ps = run_pipeline(module, "simplifycfg")
            opt_whole, _own, _text = opt_times(path, "simplifycfg", "SimplifyCFGPass")
            k = ""
            if prev is not None and prev[1] > 0 and ps > 0:
                k = "%.2f" % (math.log(ps / prev[1]) / math.log(size / prev[0]))
            prev = (size, ps)
            print("| %s | %d | %d | %.3f | %.3f | %.1f× | %s |" % (shape, size, n, ps, opt_whole, ps / opt_whole, k),
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--passes", default=",".join(PASSES))
    ap.add_argument("--files", type=int, default=5)
    ap.add_argument("--sizes", default="10000,20000,50000,100000")
    ap.add_argument("--no-growth", action="store_true")
    ap.add_argument("--no-csmith", action="store_true")
    ap.add_argument("--cfg-blocks", default="10000,20000,50000,100000")
    ap.add_argument("--switch-cases", default="10000,20000,50000")
    ap.add_argument("--no-cfg-growth", action="store_true")
    ns = ap.parse_args()
    if shutil.which("opt-19") is None:
        sys.exit("needs opt-19 on PATH")
    passes = [p for p in ns.passes.split(",") if p]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if not ns.no_csmith:
            bench_csmith(passes, ns.files, tmp)
        if not ns.no_growth:
            bench_growth(passes, [int(s) for s in ns.sizes.split(",")], tmp)
        if any(p in OURS_ONLY for p in passes):
            bench_ours_only(passes, ns.files, [int(s) for s in ns.sizes.split(",")], tmp, not ns.no_growth,
                            not ns.no_csmith)
        if not ns.no_cfg_growth and "simplifycfg" in passes:
            bench_cfg_growth([int(s) for s in ns.cfg_blocks.split(",")], [int(s) for s in ns.switch_cases.split(",")], tmp)


if __name__ == "__main__":
    main()
