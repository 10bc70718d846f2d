"""``loop-rotate`` (LLVM LoopRotation.cpp, LoopRotationUtils.cpp): each rule on a small loop
compared with opt-19 (skipped without it), the parameters and options, and generated loops
compared with opt-19."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt, ours_text  # noqa: E402

_FOR_LOOP = """
define i32 @f(i32 %n, ptr %p) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %g = getelementptr i32, ptr %p, i32 %i
  %v = load i32, ptr %g
  %s.next = add i32 %s, %v
  %inc = add nsw i32 %i, 1
  br label %header
exit:
  ret i32 %s
}
"""

CASES = {
    # The plain case: a guard in the preheader (the test does not fold), a .lr.ph preheader,
    # the exit edge split, the sum leaving through a new phi.
    "for_loop": _FOR_LOOP,
    # The first test folds (0 < 100): the preheader branch becomes unconditional.
    "constant_entry": """
define void @f(ptr %p) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %c = icmp slt i32 %i, 100
  br i1 %c, label %body, label %exit
body:
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  br label %header
exit:
  ret void
}
""",
    # A value of the header used after the loop and in the loop body (SSA updater phis).
    "header_value_used_outside": """
define i32 @f(i32 %n, i32 %a) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %m = mul i32 %i, %a
  %x = add i32 %a, 7
  %c = icmp ult i32 %m, %n
  br i1 %c, label %body, label %exit
body:
  %inc = add i32 %i, %x
  call void @g(i32 %m)
  br label %header
exit:
  %r = phi i32 [ %m, %header ]
  ret i32 %r
}
declare void @g(i32)
""",
    # The latch is one increment: simplifyLoopLatch folds it into the exiting block first.
    "simplify_latch": """
define void @f(i32 %n, ptr %p) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %v = load i32, ptr %p
  %d = icmp eq i32 %v, 3
  br i1 %d, label %exit, label %latch
latch:
  %inc = add nsw i32 %i, 1
  br label %header
exit:
  ret void
}
""",
    # Header and latch both exit, a header phi only used in the header's exit: profitable.
    "exiting_latch_profitable": """
define i32 @f(i32 %n, ptr %p) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %last = phi i32 [ 0, %entry ], [ %v, %latch ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %latch, label %exit
latch:
  %v = load i32, ptr %p
  %inc = add nsw i32 %i, 1
  %d = icmp eq i32 %v, 0
  br i1 %d, label %exit, label %header
exit:
  %r = phi i32 [ %last, %header ], [ 5, %latch ]
  ret i32 %r
}
""",
    # Branch weights redistributed between the guard and the new latch.
    "branch_weights": """
define void @f(i32 %n, ptr %p) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit, !prof !0
body:
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  br label %header
exit:
  ret void
}
!0 = !{!"branch_weights", i32 3, i32 40}
""",
    # A convergent call in the header: not rotated.
    "convergent_header": """
define void @f(i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  call void @conv() convergent
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %inc = add i32 %i, 1
  br label %header
exit:
  ret void
}
declare void @conv() convergent
""",
    # Several exits from the body; invariant header code hoisted, loop metadata kept.
    "multiple_exits_loop_id": """
define i32 @f(i32 %n, i32 %a, ptr %p) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %k = shl i32 %a, 2
  %c = icmp ult i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %v = load i32, ptr %p
  %d = icmp eq i32 %v, %k
  br i1 %d, label %early, label %latch
latch:
  %inc = add i32 %i, %v
  store i32 %inc, ptr %p
  br label %header, !llvm.loop !0
early:
  ret i32 %k
exit:
  ret i32 0
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_like_opt(name: str) -> None:
    assert_same_as_opt(CASES[name], "loop-rotate")


@pytest.mark.parametrize("name", ["for_loop", "header_value_used_outside", "multiple_exits_loop_id"])
def test_rule_like_opt_under_loop_mssa(name: str) -> None:
    assert_same_as_opt(CASES[name], "loop-mssa(loop-rotate)", {"verify-memoryssa": True})


def test_rotated_loop_tests_at_the_bottom() -> None:
    # Without opt-19: the new latch ends in the loop test.
    got = ours_text(_FOR_LOOP, "loop-rotate")
    assert "body.lr.ph:" in got and "br i1 %c, label %body, label %exit\n" not in got
    assert "header:" not in got.split("body:")[1].split("exit:")[0]


def test_header_size_option_like_opt() -> None:
    got = assert_same_as_opt(_FOR_LOOP, "loop-rotate", {"rotation-max-header-size": 0})
    assert "br i1 %c, label %body, label %exit" in got


def test_no_header_duplication_param_like_opt() -> None:
    got = assert_same_as_opt(_FOR_LOOP, "loop-rotate<no-header-duplication>")
    assert "br i1 %c, label %body, label %exit" in got
    # Threshold 0 refuses even a header whose copy would fold away: the size is measured
    # before any simplification.
    assert_same_as_opt(CASES["constant_entry"], "loop-rotate<no-header-duplication;no-prepare-for-lto>")


_LTO = """
define internal void @callee() {
  ret void
}
define void @f(i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %c = icmp slt i32 %i, %n
  call void @callee()
  br i1 %c, label %body, label %exit
body:
  %inc = add i32 %i, 1
  br label %header
exit:
  ret void
}
"""


@pytest.mark.parametrize("pipeline", ["loop-rotate", "loop-rotate<prepare-for-lto>"])
def test_prepare_for_lto_like_opt(pipeline: str) -> None:
    assert_same_as_opt(_LTO, pipeline)


def test_prepare_for_lto_option_like_opt() -> None:
    got = assert_same_as_opt(_LTO, "loop-rotate", {"rotation-prepare-for-lto": True})
    assert "header:" in got


_MINSIZE = """
define void @f(i32 %n, ptr %p) minsize {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  br label %header, !llvm.loop !0
exit:
  ret void
}
"""


@pytest.mark.parametrize(
    "loop_md",
    [
        "!0 = distinct !{!0}",
        '!0 = distinct !{!0, !1}\n!1 = !{!"llvm.loop.vectorize.enable", i1 true}',
        '!0 = distinct !{!0, !1, !2}\n!1 = !{!"llvm.loop.vectorize.enable", i1 true}\n'
        '!2 = !{!"llvm.loop.isvectorized", i32 1}',
        '!0 = distinct !{!0, !1}\n!1 = !{!"llvm.loop.vectorize.enable"}',
        '!0 = distinct !{!0, !1, !2, !3}\n!1 = !{!"llvm.loop.vectorize.enable", i1 true}\n'
        '!2 = !{!"llvm.loop.vectorize.width", i32 1}\n!3 = !{!"llvm.loop.interleave.count", i32 1}',
        '!0 = distinct !{!0, !1, !2}\n!1 = !{!"llvm.loop.vectorize.enable", i1 true}\n'
        '!2 = !{!"llvm.loop.vectorize.width", i32 4}',
    ],
)
def test_minsize_and_forced_vectorization_like_opt(loop_md: str) -> None:
    # minsize disables header duplication unless the loop is forced to vectorize.
    assert_same_as_opt(_MINSIZE + loop_md + "\n", "loop-rotate")


def test_bad_param_is_an_error() -> None:
    from llvmpy_mid.errors import PipelineError

    with pytest.raises(PipelineError, match="invalid LoopRotate pass parameter 'bogus'"):
        ours_text(_FOR_LOOP, "loop-rotate<bogus>")


def test_statistics() -> None:
    """One rotation; the header's compare and branch cloned, the invariant shift hoisted."""
    import llvmpy_mid
    from llvmpy_mid.asm import parse_assembly

    module = parse_assembly(CASES["multiple_exits_loop_id"])
    stats = llvmpy_mid.run_passes(module, "loop(loop-rotate)").statistics
    assert stats.get("loop-rotate.NumRotated") == 1
    assert stats.get("loop-rotate.NumInstrsDuplicated") == 2
    assert stats.get("loop-rotate.NumInstrsHoisted") == 1


_PREDS = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]


def _gen_loop(r: random.Random) -> str:
    start = r.choice(["0", "%a", "7"])
    bound = r.choice(["%n", "10", "0"])
    pred = r.choice(_PREDS)
    inv = "  %k = xor i32 %a, 5\n" if r.random() < 0.5 else "  %k = add i32 %i, 0\n"
    use_after = r.random() < 0.5
    exit_phi = "  %r = phi i32 [ %k, %header ]\n  ret i32 %r\n" if use_after else "  ret i32 0\n"
    store = "  store i32 %k, ptr %p\n" if r.random() < 0.6 else ""
    latch_inc = r.random() < 0.5
    if latch_inc:
        body = f"body:\n{store}  br label %latch\nlatch:\n  %inc = add i32 %i, 1\n  br label %header\n"
        back = "%latch"
    else:
        body = f"body:\n{store}  %inc = add i32 %i, 1\n  br label %header\n"
        back = "%body"
    return f"""define i32 @f(i32 %a, i32 %n, ptr %p) {{
entry:
  br label %header
header:
  %i = phi i32 [ {start}, %entry ], [ %inc, {back} ]
{inv}  %c = icmp {pred} i32 %i, {bound}
  br i1 %c, label %body, label %exit
{body}exit:
{exit_phi}}}
"""


@pytest.mark.parametrize("seed", range(12))
def test_generated_loops_like_opt(seed: int) -> None:
    text = _gen_loop(random.Random(seed))
    assert_same_as_opt(text, "loop-rotate")


def _gen_nest(r: random.Random) -> str:
    """An outer loop around an inner loop with a multi-block body, side exits, values of the
    header used after the inner loop."""
    hv = ["%i", "%s", "%a"]
    hdr = []
    for k in range(r.randint(0, 3)):
        op = r.choice(["add", "mul", "xor", "shl", "sub"])
        hdr.append("  %%h%d = %s i32 %s, %s" % (k, op, r.choice(hv), r.choice(hv + ["3"])))
        hv.append("%%h%d" % k)
    if r.random() < 0.3:
        hdr.append("  %hl = load i32, ptr %p")
        hv.append("%hl")
    pred = r.choice(["slt", "ult", "ne", "eq"])
    hdr.append("  %%c = icmp %s i32 %s, %s" % (pred, r.choice(hv), r.choice(["%n", "10", "0"])))
    body = []
    side = []
    vals = list(hv)
    nb = r.randint(1, 3)
    for j in range(1, nb + 1):
        nxt = "b%d" % (j + 1) if j < nb else "latch"
        v = "%%v%d" % j
        body.append("b%d:\n  %s = add i32 %s, %s" % (j, v, r.choice(vals), r.choice(vals)))
        vals.append(v)
        if r.random() < 0.4:
            body.append("  %%e%d = icmp eq i32 %s, 7\n  br i1 %%e%d, label %%side, label %%%s" % (j, v, j, nxt))
            side.append("[ %s, %%b%d ]" % (r.choice(["%i", "%s", "0"]), j))
        else:
            body.append("  br label %%%s" % nxt)
    side_block = "side:\n  %%r2 = phi i32 %s\n  ret i32 %%r2\n" % ", ".join(side) if side else ""
    lines = "\n".join(hdr + ["  br i1 %c, label %b1, label %exit"] + body)
    return f"""define i32 @f(i32 %a, i32 %n, ptr %p) {{
entry0:
  br label %outer
outer:
  %oi = phi i32 [ 0, %entry0 ], [ %oi2, %olatch ]
  br label %entry
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %s = phi i32 [ %a, %entry ], [ %s2, %latch ]
{lines}
latch:
  %inc = add nsw i32 %i, {r.choice(["1", "%a"])}
  %s2 = add i32 %s, {r.choice(vals)}
  br label %h
exit:
  %r = phi i32 [ {r.choice(hv)}, %h ]
  br label %olatch
olatch:
  %oi2 = add i32 %oi, 1
  %oc = icmp slt i32 %oi2, %r
  br i1 %oc, label %outer, label %oexit
oexit:
  ret i32 %r
{side_block}}}
"""


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("pipeline", ["loop-rotate", "loop-mssa(loop-rotate)"])
def test_generated_nests_like_opt(seed: int, pipeline: str) -> None:
    text = _gen_nest(random.Random(seed))
    assert_same_as_opt(text, pipeline)


def _run_ours(text: str, pipeline: str, **kw: object) -> tuple[str, str]:
    import contextlib
    import io

    import llvmpy_mid
    from llvmpy_mid.asm import parse_assembly, print_module
    from opt_oracle import body

    module = parse_assembly(text, name="<stdin>")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        llvmpy_mid.run_passes(module, pipeline, stream=err, **kw)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return body(print_module(module)), err.getvalue()


@pytest.mark.parametrize("seed", range(6))
def test_generated_nests_keep_analyses(seed: int) -> None:
    """The dominator tree and LoopInfo kept by the pass equal fresh ones; MemorySSA verifies."""
    text = _gen_nest(random.Random(100 + seed))
    _run_ours(
        text,
        "loop-mssa(loop-rotate),loop(loop-rotate)",
        verify_dom_info=True,
        verify_loop_info=True,
        options={"verify-memoryssa": True},
    )


@pytest.mark.parametrize("name", ["for_loop", "header_value_used_outside", "multiple_exits_loop_id"])
def test_kept_memory_ssa_like_opt(name: str) -> None:
    """MemorySSA as the pass leaves it (printed from the cache) is opt-19's."""
    import subprocess

    from oracles import require_tools

    require_tools("opt-19")
    pipeline = "loop-mssa(loop-rotate),print<memoryssa>"
    ref = subprocess.run(["opt-19", "-passes=" + pipeline, "-disable-output", "-"], input=CASES[name],
                         capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    _, err = _run_ours(CASES[name], pipeline)
    assert err == ref.stderr


_COSTLY_HEADER = """
define void @f(i32 %n, ptr %p, i64 %w) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %z = zext i32 %i to i64
  %t = trunc i64 %w to i16
  %g = getelementptr i8, ptr %p, i64 %z
  %g0 = getelementptr i8, ptr %p, i64 0
  %m = call i32 @llvm.umin.i32(i32 %i, i32 %n)
  %e = icmp ne i32 %m, 12345
  call void @llvm.assume(i1 %e)
  %x = shl i32 %m, 2
  %f = sitofp i32 %x to double
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  store i16 %t, ptr %g
  store ptr %g0, ptr %p
  store double %f, ptr %p
  %inc = add i32 %i, 1
  br label %header
exit:
  ret void
}
declare i32 @llvm.umin.i32(i32, i32)
declare void @llvm.assume(i1)
"""


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7])
def test_header_cost_threshold_like_opt(size: int) -> None:
    """The code-size cost of the header (free casts and GEPs, intrinsics, the assume and its
    ephemeral compare skipped) against -rotation-max-header-size, as opt-19 counts it."""
    assert_same_as_opt(_COSTLY_HEADER, "loop-rotate", {"rotation-max-header-size": size})
