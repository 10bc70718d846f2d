"""``indvars`` (LLVM IndVarSimplify.cpp): the driver's own rules on small loops compared with
opt-19 (skipped without it) — floating-point IVs, linear function test replacement, exit
folding, preheader sinking, first-iteration exit values, the options — plus generated
loops whose results lli-19 checks before and after the pass."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt, ours_text  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opt19_compare import pass_manager_logs  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.asm import parse_assembly  # noqa: E402
from llvmpy_mid.errors import PipelineError  # noqa: E402
from llvmpy_mid.ir.constants import ConstantFP  # noqa: E402
from llvmpy_mid.transform.scalar.ind_var_simplify_fp import convert_to_sint  # noqa: E402

LLI = shutil.which("lli-19")
DL = 'target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"\n'

_FP_LOOP = """
define void @f() {
entry:
  br label %loop
loop:
  %x = phi double [ START, %entry ], [ %x.next, %loop ]
  call void @use(double %x)
  %x.next = fadd double %x, STEP
  %c = fcmp PRED double %x.next, LIMIT
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
declare void @use(double)
"""


def _fp_loop(start: str, step: str, pred: str, limit: str) -> str:
    return _FP_LOOP.replace("START", start).replace("STEP", step).replace("PRED", pred).replace("LIMIT", limit)


CASES = {
    # handleFloatingPointIV: an integral double recurrence becomes i32 (sitofp for other users).
    "fp_up": _fp_loop("0.0", "1.0", "olt", "1.0e2"),
    "fp_down": _fp_loop("1.0e2", "-2.0", "ogt", "0.0"),
    # A fractional step, an inexact equality landing and a start above the exit: left alone.
    "fp_fraction": _fp_loop("0.0", "5.0e-01", "olt", "1.0e1"),
    "fp_ne_misses_limit": _fp_loop("0.0", "3.0", "une", "1.0e1"),
    "fp_wrong_direction": _fp_loop("2.0e1", "1.0", "olt", "1.0e1"),
    # The phi has no other user: it disappears with the fadd.
    "fp_dead_phi": """
define void @f(ptr %p) {
entry:
  br label %loop
loop:
  %x = phi float [ 3.0, %entry ], [ %x.next, %loop ]
  store i32 0, ptr %p
  %x.next = fadd float %x, 3.0
  %c = fcmp une float %x.next, 30.0
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    # sinkUnusedInvariants: preheader values used only after the loop move to the exit (the one
    # just above a sunk instruction is skipped, as LLVM's iterator does).
    "sink_from_preheader": """
define i32 @f(i32 %a, i32 %b, i32 %n, ptr %p) {
entry:
  %x = add i32 %a, %b
  %y = mul i32 %x, 3
  %z = sub i32 %a, 7
  %w = xor i32 %z, %b
  br label %loop
loop:
  store volatile i32 %z, ptr %p
  %v = load volatile i32, ptr %p
  %c = icmp ne i32 %v, 0
  br i1 %c, label %loop, label %exit
exit:
  %r = add i32 %y, %w
  ret i32 %r
}
""",
    # rewriteFirstIterationLoopExitValues: an exit on an invariant condition before the latch.
    "first_iteration_exit_values": """
define i32 @f(i1 %inv, i32 %n, ptr %p) {
entry:
  br label %loop
loop:
  %iv = phi i32 [ 5, %entry ], [ %iv.next, %latch ]
  %s = phi i32 [ 9, %entry ], [ %s.next, %latch ]
  br i1 %inv, label %exit, label %latch
latch:
  %s.next = load volatile i32, ptr %p
  %iv.next = add i32 %iv, 1
  %c = load volatile i1, ptr %p
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %iv, %loop ], [ %s.next, %latch ]
  %r2 = phi i32 [ %s, %loop ], [ 0, %latch ]
  %t = add i32 %r, %r2
  ret i32 %t
}
""",
    # optimizeLoopExits: the latch exit (20 iterations) can never be reached before the
    # header's exit (10 iterations) is taken: folded.
    "fold_dominated_exit": """
define i32 @f(ptr %p) {
entry:
  br label %loop
loop:
  %iv = phi i32 [ 0, %entry ], [ %iv.next, %latch ]
  %c1 = icmp ult i32 %iv, 10
  br i1 %c1, label %latch, label %exit1
latch:
  store i32 %iv, ptr %p
  %iv.next = add nuw nsw i32 %iv, 1
  %c2 = icmp ult i32 %iv.next, 20
  br i1 %c2, label %loop, label %exit2
exit1:
  ret i32 1
exit2:
  ret i32 2
}
""",
    # LFTR: the latch test becomes `icmp ne` of the post-incremented counter and its limit.
    "lftr_constant_limit": DL
    + """
define void @f(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %a
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    "lftr_guarded_limit": DL
    + """
define void @f(ptr %p, i64 %n) {
entry:
  %g = icmp sgt i64 %n, 0
  br i1 %g, label %loop, label %exit
loop:
  %iv = phi i64 [ 0, %entry ], [ %iv.next, %loop ]
  %a = getelementptr inbounds i32, ptr %p, i64 %iv
  store i32 0, ptr %a
  %iv.next = add nsw i64 %iv, 1
  %c = icmp slt i64 %iv.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    "lftr_unsigned_guard": DL
    + """
define void @f(ptr %p, i32 %n) {
entry:
  %g = icmp ugt i32 %n, 0
  br i1 %g, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %a
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_like_opt(name: str) -> None:
    assert_same_as_opt(CASES[name], "indvars")


def test_fp_iv_becomes_integer() -> None:
    got = ours_text(CASES["fp_up"], "indvars")
    assert "phi i32 [ 0, %entry ]" in got and "sitofp i32" in got and "fcmp" not in got
    untouched = ours_text(CASES["fp_fraction"], "indvars")
    assert "phi double" in untouched and "fcmp olt" in untouched


def test_lftr_rewrites_exit_test() -> None:
    got = ours_text(CASES["lftr_constant_limit"], "indvars")
    assert "%exitcond = icmp ne i32 %i.next, 100" in got


@pytest.mark.parametrize(
    "name, options",
    [
        ("lftr_constant_limit", {"disable-lftr": True}),
        ("fold_dominated_exit", {"indvars-predicate-loops": False}),
        ("first_iteration_exit_values", {"replexitval": "never"}),
        ("first_iteration_exit_values", {"replexitval": "always"}),
        ("lftr_guarded_limit", {"indvars-widen-indvars": False}),
    ],
)
def test_options_like_opt(name: str, options: dict[str, object]) -> None:
    assert_same_as_opt(CASES[name], "indvars", options)


_PREDICATED = DL + """
define void @f(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %iv = phi i32 [ 0, %entry ], [ %iv.next, %latch ]
  %c1 = icmp ult i32 %iv, %n
  br i1 %c1, label %latch, label %exit
latch:
  %v = load i32, ptr %p
  %iv.next = add nuw nsw i32 %iv, 1
  %c2 = icmp ult i32 %iv.next, 100
  br i1 %c2, label %loop, label %exit
exit:
  ret void
}
"""


def test_predicated_exits_ask_for_extra_unswitching_like_opt() -> None:
    # predicateLoopExits computes and keeps ShouldRunExtraSimpleLoopUnswitch (-debug-pass-manager).
    pytest.importorskip("subprocess")
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 not installed")
    theirs, ours = pass_manager_logs(_PREDICATED, "indvars")
    assert "ShouldRunExtraSimpleLoopUnswitch" in theirs
    assert ours == theirs


def test_disable_lftr_keeps_exit_test() -> None:
    got = ours_text(CASES["lftr_constant_limit"], "indvars", {"disable-lftr": True})
    assert "exitcond" not in got


def test_unknown_replexitval_is_refused() -> None:
    module = parse_assembly(CASES["lftr_constant_limit"])
    with pytest.raises(PipelineError, match="replexitval"):
        llvmpy_mid.run_passes(module, "indvars", options={"replexitval": "sometimes"})


def test_convert_to_sint() -> None:
    module = parse_assembly("define void @f() {\n  ret void\n}\n")
    ctx = module.context
    dbl = ctx.double if hasattr(ctx, "double") else ctx.double_type()
    assert convert_to_sint(ConstantFP.get(dbl, 3.0)) == 3
    assert convert_to_sint(ConstantFP.get(dbl, -7.0)) == -7
    assert convert_to_sint(ConstantFP.get(dbl, 0.5)) is None
    assert convert_to_sint(ConstantFP.get(dbl, -0.0)) is None
    assert convert_to_sint(ConstantFP.get(dbl, float("inf"))) is None
    assert convert_to_sint(ConstantFP.get(dbl, 2.0**70)) is None


# --- generated loops checked by lli-19 ------------------------------------------------------

_PREDS = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]


def _generated(r: random.Random) -> str:
    """A counted loop (maybe rotated, maybe with an early exit) returning a value derived from
    its induction variables; every run ends within 300 iterations (a guard counter)."""
    w = r.choice([8, 16, 32, 64])
    ty = "i%d" % w
    start = r.randint(-5, 20)
    step = r.choice([1, 1, 2, -1, 3])
    bound = r.randint(-10, 60)
    # Wrap flags only where at most 301 steps from the start cannot wrap (no poison, no UB).
    flags = r.choice(["", "nsw", "nuw", "nuw nsw"]) if w >= 16 and 0 <= start and step > 0 else ""
    pred = r.choice(_PREDS)
    cmpv = r.choice(["%iv", "%iv.next"])
    exit_on_true = r.random() < 0.5
    br = "br i1 %%c, label %%%s, label %%%s" % (("exit", "latch") if exit_on_true else ("latch", "exit"))
    early = r.random() < 0.4
    mul = r.randint(1, 5)
    early_text = (
        "  %%e = icmp eq %s %%iv, %d\n  br i1 %%e, label %%exit, label %%body\nbody:\n" % (ty, r.randint(0, 30))
        if early
        else "  br label %body\nbody:\n"
    )
    early_in1 = "[ %iv, %loop ], " if early else ""
    early_in2 = "[ %j, %loop ], " if early else ""
    return f"""{DL}
define i32 @main() {{
entry:
  br label %loop
loop:
  %iv = phi {ty} [ {start}, %entry ], [ %iv.next, %latch ]
  %j = phi {ty} [ 0, %entry ], [ %j.next, %latch ]
  %guard = phi i32 [ 0, %entry ], [ %guard.next, %latch ]
{early_text}  %j.next = add {ty} %j, {mul}
  %iv.next = add {flags} {ty} %iv, {step}
  %c = icmp {pred} {ty} {cmpv}, {bound}
  {br}
latch:
  %guard.next = add i32 %guard, 1
  %g = icmp ult i32 %guard.next, 300
  br i1 %g, label %loop, label %exit
exit:
  %r1 = phi {ty} {early_in1}[ %iv.next, %body ], [ %iv.next, %latch ]
  %r2 = phi {ty} {early_in2}[ %j.next, %body ], [ %j.next, %latch ]
  %s = add {ty} %r1, %r2
  %t = {"trunc" if w > 8 else "add"} {ty} %s{" to i8" if w > 8 else ", 0"}
  %z = zext i8 %t to i32
  ret i32 %z
}}
"""


def _run(text: str, tmp_path: Path, name: str) -> tuple[int, str]:
    assert LLI is not None
    f = tmp_path / name
    f.write_text(text)
    r = subprocess.run([LLI, str(f)], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout


@pytest.mark.skipif(LLI is None, reason="lli-19 not installed")
@pytest.mark.parametrize("seed", [s if s < 12 else pytest.param(s, marks=pytest.mark.slow) for s in range(40)])
def test_generated_loops_keep_their_result(seed: int, tmp_path: Path) -> None:
    text = _generated(random.Random(seed))
    for pipeline in ("indvars", "loop(loop-rotate,indvars)"):
        got = ours_text(text, pipeline)
        assert _run(got, tmp_path, "after.ll") == _run(text, tmp_path, "before.ll"), pipeline
