"""``print<branch-prob>`` and ``print<block-freq>`` byte for byte against opt-19: hand-written
CFGs (nested loops, several exits, branch_weights, switch, invoke, unreachable/noreturn/cold
paths, deoptimize returns, profile counts, compares with zero/null/one/-1/floats, an "unlikely" in-loop successor, an irreducible cycle) and csmith programs (a sample by
default, all under --run-slow); the sweeps print their match rates."""

from __future__ import annotations

import io
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths

from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo, BranchProbabilityInfo
from llvmpy_mid.analysis.block_frequency_printers import format_block_frequencies, format_branch_probabilities
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.dominators import DominatorTree

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
PRINTERS = ("print<branch-prob>", "print<block-freq>")


def opt_text(text: str, printer: str) -> str | None:
    """opt-19's printer output (warnings dropped), or None if opt rejects the input."""
    assert OPT is not None
    r = subprocess.run([OPT, "-passes=" + printer, "-disable-output", "-"], input=text.encode(), capture_output=True)
    if r.returncode != 0:
        return None
    out = r.stderr.decode("utf-8", "surrogateescape")
    return "".join(line for line in out.splitlines(keepends=True) if not line.startswith("warning: "))


def our_text(text: str, printer: str) -> str:
    module = parse_assembly(text)
    out = io.StringIO()
    for fn in module.functions:
        if fn.is_declaration:
            continue
        dt = DominatorTree(fn)
        li = LoopInfo(fn, dt)
        bpi = BranchProbabilityInfo(fn, li, dt, DominatorTree(fn, post=True))
        if printer == "print<branch-prob>":
            out.write(format_branch_probabilities(bpi))
        else:
            out.write(format_block_frequencies(BlockFrequencyInfo(fn, bpi, li)))
    return out.getvalue()


def check(text: str, printer: str) -> bool | None:
    """True/False: same/different from opt-19; None when opt-19 rejects the input."""
    want = opt_text(text, printer)
    if want is None:
        return None
    return our_text(text, printer) == want


NESTED = r"""
define void @nested(i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %olatch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %inner]
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %m
  br i1 %cj, label %inner, label %olatch
olatch:
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}
define i32 @multi_exit(i32 %n, ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %latch]
  %v = load i32, ptr %p
  %c1 = icmp eq i32 %v, 0
  br i1 %c1, label %exit1, label %b2
b2:
  %c2 = icmp sgt i32 %v, 100
  br i1 %c2, label %exit2, label %latch
latch:
  %i1 = add i32 %i, 1
  %c3 = icmp ult i32 %i1, %n
  br i1 %c3, label %loop, label %exit3
exit1:
  ret i32 1
exit2:
  ret i32 2
exit3:
  ret i32 3
}
define void @deep(i32 %n) {
entry:
  br label %l1
l1:
  br label %l2
l2:
  br label %l3
l3:
  br label %l4
l4:
  %c4 = icmp ult i32 %n, 5
  br i1 %c4, label %l4, label %e4
e4:
  %c3 = icmp ult i32 %n, 6
  br i1 %c3, label %l3, label %e3
e3:
  %c2 = icmp ult i32 %n, 7
  br i1 %c2, label %l2, label %e2
e2:
  %c1 = icmp ult i32 %n, 8
  br i1 %c1, label %l1, label %e1
e1:
  ret void
}
define void @infinite() {
entry:
  br label %l
l:
  br label %l
}
define void @infinite2(i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  br i1 %c, label %l, label %m
m:
  br label %l
r:
  ret void
}
"""

WEIGHTS = r"""
define void @bw(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b, !prof !0
a:
  switch i32 %x, label %d [ i32 1, label %s1
                            i32 2, label %s2
                            i32 3, label %s1 ], !prof !1
b:
  br i1 %c, label %u, label %d, !prof !2
u:
  unreachable
s1:
  br label %d
s2:
  br i1 %c, label %d, label %s1, !prof !3
d:
  ret void
}
define void @sw(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 1, label %s1
                            i32 2, label %s2
                            i32 3, label %s1
                            i32 4, label %u ]
s1:
  br label %d
s2:
  br label %d
u:
  unreachable
d:
  ret void
}
define void @big(i1 %c) {
entry:
  br i1 %c, label %a, label %b, !prof !4
a:
  ret void
b:
  ret void
}
define void @zero(i1 %c) {
entry:
  br i1 %c, label %a, label %b, !prof !5
a:
  ret void
b:
  ret void
}
!0 = !{!"branch_weights", i32 3, i32 7}
!1 = !{!"branch_weights", i32 10, i32 20, i32 30, i32 40}
!2 = !{!"branch_weights", i32 1000, i32 1}
!3 = !{!"branch_weights", !"expected", i32 2000, i32 1}
!4 = !{!"branch_weights", i32 4294967295, i32 4294967295}
!5 = !{!"branch_weights", i32 0, i32 0}
"""

EH = r"""
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
declare void @abort() noreturn
declare void @coldf() cold
define void @inv(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  br i1 %c, label %nr, label %cold
nr:
  call void @abort() noreturn
  unreachable
cold:
  call void @coldf()
  br label %done
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  br label %done
done:
  ret void
}
define void @coldpath(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 3
  br i1 %c, label %a, label %b
a:
  call void @coldf()
  br label %m
b:
  br label %m
m:
  %d = icmp eq i32 %x, 9
  br i1 %d, label %u, label %r
u:
  call void @abort()
  unreachable
r:
  ret void
}
define void @loopcold(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %latch]
  %c = icmp eq i32 %i, 50
  br i1 %c, label %err, label %latch
err:
  call void @abort()
  unreachable
latch:
  %i1 = add i32 %i, 1
  %d = icmp ult i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  ret void
}
"""

CMPS = r"""
declare i32 @strcmp(ptr, ptr)
define void @cmps(ptr %p, ptr %q, i32 %x, double %f, double %g, i64 %y) {
entry:
  %s2 = call i32 @strcmp(ptr %p, ptr %q)
  %c0 = icmp eq ptr %p, %q
  br i1 %c0, label %b1, label %b2
b1:
  %c1 = icmp ne ptr %p, null
  br i1 %c1, label %b2, label %b3
b2:
  %c2 = icmp eq i32 %x, 0
  br i1 %c2, label %b3, label %b4
b3:
  %c3 = icmp slt i32 %x, 0
  br i1 %c3, label %b4, label %b5
b4:
  %c4 = icmp sgt i32 %x, -1
  br i1 %c4, label %b5, label %b6
b5:
  %c5 = icmp slt i32 %x, 1
  br i1 %c5, label %b6, label %b7
b6:
  %c6 = icmp eq i32 %x, -1
  br i1 %c6, label %b7, label %b8
b7:
  %a = and i32 %x, 8
  %c7 = icmp eq i32 %a, 0
  br i1 %c7, label %b8, label %b9
b8:
  %s = call i32 @strcmp(ptr %p, ptr %q)
  %c8 = icmp eq i32 %s, 0
  br i1 %c8, label %b9, label %b10
b9:
  %c9 = fcmp oeq double %f, %g
  br i1 %c9, label %b10, label %b11
b10:
  %c10 = fcmp une double %f, %g
  br i1 %c10, label %b11, label %b12
b11:
  %c11 = fcmp uno double %f, %g
  br i1 %c11, label %b12, label %b13
b12:
  %c12 = fcmp ord double %f, 0.0
  br i1 %c12, label %b13, label %b14
b13:
  %c13 = fcmp olt double %f, %g
  br i1 %c13, label %b14, label %b15
b14:
  %c14 = icmp ugt i64 %y, 0
  br i1 %c14, label %b15, label %b16
b15:
  %c15 = icmp ne i32 %x, 1
  br i1 %c15, label %b16, label %b17
b16:
  %c16 = icmp sge i32 %x, 0
  br i1 %c16, label %b17, label %b18
b17:
  %c17 = icmp sgt i32 %s2, 0
  br i1 %c17, label %b18, label %b19
b18:
  %c18 = icmp slt i32 %s2, 0
  br i1 %c18, label %b19, label %b20
b19:
  %c19 = icmp ne i32 %s2, 0
  br i1 %c19, label %b20, label %b21
b20:
  %c20 = fcmp one double %f, %g
  br i1 %c20, label %b21, label %b22
b21:
  %c21 = fcmp ueq double %f, %g
  br i1 %c21, label %b22, label %b22
b22:
  ret void
}
define void @unlikely(i32 %n) {
entry:
  br label %loop
loop:
  %k = phi i32 [0, %entry], [0, %reset], [%k1, %cont]
  %k1 = add i32 %k, 1
  %c = icmp sge i32 %k1, 10
  br i1 %c, label %reset, label %cont
reset:
  br label %loop
cont:
  %d = icmp ult i32 %k1, %n
  br i1 %d, label %loop, label %exit
exit:
  ret void
}
"""

IRREDUCIBLE = r"""
define void @irr(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %b, label %x
b:
  br i1 %d, label %a, label %x
x:
  ret void
}
"""

DEOPT = r"""
declare i32 @llvm.experimental.deoptimize.i32(...)
declare void @llvm.experimental.deoptimize.isVoid(...)
declare void @g()
define i32 @deopt(i1 %c, i32 %n) {
entry:
  br i1 %c, label %d, label %loop
d:
  %v = call i32 (...) @llvm.experimental.deoptimize.i32(i32 1) [ "deopt"(i32 1) ]
  ret i32 %v
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %k = icmp eq i32 %i, %n
  br i1 %k, label %d2, label %body
d2:
  call void @g()
  %w = call i32 (...) @llvm.experimental.deoptimize.i32(i32 2) [ "deopt"() ]
  ret i32 %w
body:
  %j = add i32 %i, 1
  %e = icmp slt i32 %j, 100
  br i1 %e, label %loop, label %out
out:
  ret i32 %j
}
define void @deopt_void(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  call void (...) @llvm.experimental.deoptimize.isVoid() [ "deopt"() ]
  ret void
b:
  call void @g()
  ret void
}
"""

PROFILE = r"""
define void @counted(i32 %n) !prof !0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %loop, label %exit, !prof !1, !irr_loop !2
exit:
  ret void
}
define void @huge(i1 %c) !prof !3 {
entry:
  br i1 %c, label %a, label %b, !prof !4
a:
  ret void
b:
  ret void
}
define void @no_samples(i1 %c) !prof !5 {
entry:
  br i1 %c, label %a, label %b
a:
  ret void
b:
  ret void
}
define void @synthetic(i1 %c) !prof !6 {
entry:
  ret void
}
!0 = !{!"function_entry_count", i64 7}
!1 = !{!"branch_weights", i32 99, i32 1}
!2 = !{!"loop_header_weight", i64 693}
!3 = !{!"function_entry_count", i64 18446744073709551614}
!4 = !{!"branch_weights", i32 3, i32 1}
!5 = !{!"function_entry_count", i64 -1}
!6 = !{!"synthetic_function_entry_count", i64 5}
"""

HAND = {"nested": NESTED, "weights": WEIGHTS, "eh": EH, "cmps": CMPS, "deopt": DEOPT, "profile": PROFILE}


@needs_opt
@pytest.mark.parametrize("printer", PRINTERS)
@pytest.mark.parametrize("case", sorted(HAND))
def test_hand_written(case: str, printer: str) -> None:
    text = HAND[case]
    assert our_text(text, printer) == opt_text(text, printer)


@needs_opt
@pytest.mark.parametrize("printer", PRINTERS)
def test_irreducible(printer: str) -> None:
    assert our_text(IRREDUCIBLE, printer) == opt_text(IRREDUCIBLE, printer)


def random_cfg(seed: int) -> str:
    """A random function: branches on compares with 0/-1/null/floats, switches, cold calls,
    noreturn paths, branch_weights; loops and irreducible cycles arise at random."""
    r = random.Random(seed)
    n = r.randint(3, 14)
    lines = ["declare void @abort() noreturn", "declare void @coldf() cold",
             "define void @f(i32 %x, ptr %p, double %d) {"]
    conds = ["icmp eq i32 %x, 0", "icmp slt i32 %x, 5", "icmp ne ptr %p, null", "fcmp olt double %d, 1.0",
             "icmp sgt i32 %x, -1", "icmp ugt i32 %x, 7", "fcmp oeq double %d, 0.0"]
    for i in range(n):
        lines.append("b%d:" % i)
        k = r.random()
        if r.random() < 0.1:
            lines.append("  call void @coldf()")
        if i == n - 1 or k < 0.08:
            if r.random() < 0.15 and i != 0:
                lines.append("  call void @abort()\n  unreachable")
            else:
                lines.append("  ret void")
            continue

        def target() -> str:
            return "b%d" % r.randrange(1, n)

        if k < 0.3:
            lines.append("  br label %%%s" % target())
        elif k < 0.8:
            lines.append("  %%c%d = %s" % (i, r.choice(conds)))
            prof = ", !prof !%d" % r.randrange(3) if r.random() < 0.2 else ""
            lines.append("  br i1 %%c%d, label %%%s, label %%%s%s" % (i, target(), target(), prof))
        else:
            cases = " ".join("i32 %d, label %%%s" % (j, target()) for j in range(r.randint(1, 4)))
            lines.append("  switch i32 %%x, label %%%s [ %s ]" % (target(), cases))
    lines += ["}", '!0 = !{!"branch_weights", i32 1, i32 2000}', '!1 = !{!"branch_weights", i32 0, i32 0}',
              '!2 = !{!"branch_weights", i32 70, i32 30}']
    return "\n".join(lines) + "\n"


def _random_sweep(seeds: range, min_rate: float) -> None:
    counts = {p: [0, 0] for p in PRINTERS}
    bad: list[str] = []
    for seed in seeds:
        text = random_cfg(seed)
        for printer in PRINTERS:
            ok = check(text, printer)
            if ok is None:
                continue
            counts[printer][1] += 1
            counts[printer][0] += bool(ok)
            if not ok:
                bad.append("seed %d %s" % (seed, printer))
    for printer, (good, total) in counts.items():
        print("random CFGs, %s: %d/%d match opt-19" % (printer, good, total))
        assert total and good / total >= min_rate, bad[:20]


@needs_opt
def test_random_cfgs() -> None:
    _random_sweep(range(25), 1.0)


@needs_opt
@pytest.mark.slow
def test_random_cfgs_many() -> None:
    _random_sweep(range(400), 1.0)


@needs_opt
def test_pass_registry_names(tmp_path: Path) -> None:
    import sys

    src = tmp_path / "in.ll"
    src.write_text(NESTED)
    for printer in PRINTERS:
        got = subprocess.run([sys.executable, "-m", "llvmpy_mid", "-passes=" + printer, "-disable-output", str(src)],
                             capture_output=True, text=True)
        assert got.returncode == 0, got.stderr
        assert got.stderr == opt_text(NESTED, printer)


def _sweep(paths: list[Path], min_rate: float) -> None:
    counts = {p: [0, 0] for p in PRINTERS}
    bad: list[str] = []
    for path in paths:
        text = path.read_text(errors="surrogateescape")
        for printer in PRINTERS:
            try:
                ok = check(text, printer)
            except Exception as e:  # our parser may reject what opt accepts: count as a miss
                ok = False
                bad.append("%s %s: %r" % (path.name, printer, e))
            if ok is None:
                continue
            counts[printer][1] += 1
            if ok:
                counts[printer][0] += 1
            else:
                bad.append("%s %s" % (path.name, printer))
    for printer, (good, total) in counts.items():
        print("%s: %d/%d match opt-19" % (printer, good, total))
        if total:
            assert good / total >= min_rate, bad[:20]


@needs_opt
def test_csmith_sample() -> None:
    paths = [p for p in csmith_paths() if p.suffix == ".ll"][:3]
    if not paths:
        pytest.skip("no csmith corpus")
    _sweep(paths, 1.0)


@needs_opt
@pytest.mark.slow
def test_csmith_all() -> None:
    paths = [p for p in csmith_paths() if p.suffix == ".ll"]
    if not paths:
        pytest.skip("no csmith corpus")
    _sweep(paths, 1.0)
