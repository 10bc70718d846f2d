"""``licm`` / ``lnicm`` (``transform/scalar/licm.py``) and the loop safety info
(``analysis/must_execute.py``): each hoist/sink rule on a small loop, compared with opt-19
(with ``-verify-memoryssa``), the options and parameters, the remarks, and random loops."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.analysis.loop_info import LoopInfo  # noqa: E402
from llvmpy_mid.analysis.must_execute import ICFLoopSafetyInfo, SimpleLoopSafetyInfo  # noqa: E402
from llvmpy_mid.asm import parse_assembly  # noqa: E402
from llvmpy_mid.errors import PipelineError  # noqa: E402
from llvmpy_mid.ir.dominators import DominatorTree  # noqa: E402

DECLS = """
declare i32 @pure(i32) readnone nounwind willreturn
declare i32 @reads(ptr) readonly nounwind willreturn
declare i32 @argreads(ptr) memory(argmem: read) nounwind willreturn
declare void @effect()
declare void @llvm.assume(i1)
declare ptr @llvm.invariant.start.p0(i64, ptr nocapture)
"""


def _loop(body: str, exit_uses: str = "%i", args: str = "i32 %a, i32 %b, ptr %p, ptr %q, i32 %n, i1 %c") -> str:
    return (
        DECLS
        + """
define i32 @f(%s) {
entry:
  br label %%loop
loop:
  %%i = phi i32 [ 0, %%entry ], [ %%i.next, %%latch ]
%s
latch:
  %%i.next = add i32 %%i, 1
  %%cmp = icmp slt i32 %%i.next, %%n
  br i1 %%cmp, label %%loop, label %%exit
exit:
  %%r = add i32 %s, 0
  ret i32 %%r
}
"""
        % (args, body, exit_uses)
    )


RULES = {
    # Invariant arithmetic is hoisted; a division only when its divisor is known non-zero.
    "hoist_arith_and_division": _loop(
        """  %x = add i32 %a, %b
  %d1 = sdiv i32 %a, 7
  %d2 = udiv i32 %a, %b
  %s = add i32 %x, %i
  %t = add i32 %s, %d1
  %u = add i32 %t, %d2
  br label %latch""",
        "%u",
    ),
    # A conditional division is not hoisted; a conditional add is (speculatable).
    "conditional_block": _loop(
        """  br i1 %c, label %then, label %latch
then:
  %d = udiv i32 %a, %b
  %e = add i32 %a, %b
  store i32 %d, ptr %p
  store i32 %e, ptr %q
  br label %latch""",
    ),
    # A load of a pointer the loop writes stays; one of an unwritten pointer is hoisted.
    "loads_and_stores": _loop(
        """  %v = load i32, ptr %p
  %w = load i32, ptr %q
  %x = add i32 %v, %w
  %g = getelementptr i32, ptr %q, i32 %i
  store i32 %x, ptr %g
  br label %latch""",
    ),
    # Calls: readnone hoisted, readonly hoisted only without writes in the loop, unknown stays.
    "calls": _loop(
        """  %k1 = call i32 @pure(i32 %a)
  %k2 = call i32 @reads(ptr %p)
  %k3 = call i32 @argreads(ptr %q)
  %s1 = add i32 %k1, %k2
  %s2 = add i32 %s1, %k3
  br i1 %c, label %eff, label %latch
eff:
  call void @effect()
  br label %latch""",
        "%s2",
    ),
    # Values only used after the loop are sunk into the exit (``.le``).
    "sink_to_exit": _loop(
        """  %m = mul i32 %i, %b
  %m2 = add i32 %m, %a
  br label %latch""",
        "%m2",
    ),
    # Unnamed in-loop operands of a sunk value get LCSSA phis named ``.lcssa`` (then numbered).
    "sink_unnamed_operands": _loop(
        """  %0 = mul i32 %i, %b
  %1 = add i32 %0, %i
  %m = shl i32 %1, %0
  %m2 = lshr i32 %m, %0
  br label %latch""",
        "%m2",
    ),
    # A store to a pointer only this loop touches is promoted (load in the preheader, store in
    # the exit); fdiv arcp by an invariant becomes a multiplication by a hoisted reciprocal.
    "promote_and_reciprocal": _loop(
        """  %old = load i32, ptr %p
  %new = add i32 %old, %i
  store i32 %new, ptr %p
  %fa = sitofp i32 %i to float
  %fb = sitofp i32 %a to float
  %fd = fdiv arcp float %fa, %fb
  %fi = fptosi float %fd to i32
  br label %latch""",
        "%fi",
    ),
    # invariant.start before the loop makes the load invariant; assume is hoisted.
    "invariant_start_and_assume": (
        DECLS
        + """
define i32 @f(ptr %p, i32 %n, i32 %a) {
entry:
  %inv = call ptr @llvm.invariant.start.p0(i64 4, ptr %p)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %v = load i32, ptr %p
  %ok = icmp sgt i32 %a, 0
  call void @llvm.assume(i1 %ok)
  store i32 %i, ptr %p
  %acc2 = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret i32 %acc2
}
"""
    ),
    # A nest: the inner loop's invariant moves to the outer preheader under lnicm, step by step
    # under licm.
    "nest": """
define i32 @f(i32 %a, i32 %b, i32 %n) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %x = mul i32 %a, %b
  %y = add i32 %x, %j
  %i.next = add i32 %i, 1
  %ci = icmp slt i32 %i.next, %n
  br i1 %ci, label %inner, label %outer.latch
outer.latch:
  %j.next = add i32 %j, %y
  %cj = icmp slt i32 %j.next, %n
  br i1 %cj, label %outer, label %exit
exit:
  ret i32 %j.next
}
""",
}

PIPELINES = ("licm", "loop-mssa(licm<no-allowspeculation>)", "loop-mssa(lnicm)")


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_matches_opt19(name: str, pipeline: str) -> None:
    assert_same_as_opt(RULES[name], pipeline, {"verify-memoryssa": True})


@pytest.mark.parametrize(
    "options",
    [
        {"disable-licm-promotion": True},
        {"licm-mssa-max-acc-promotion": 1},
        {"licm-mssa-optimization-cap": 0},
        {"licm-control-flow-hoisting": True},
    ],
)
@pytest.mark.parametrize("name", ["promote_and_reciprocal", "loads_and_stores", "conditional_block"])
def test_options_match_opt19(name: str, options: dict[str, object]) -> None:
    assert_same_as_opt(RULES[name], "licm", options)


CONTROL_FLOW = """
define i32 @f(i32 %a, i32 %b, i32 %n, i1 %c) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %merge ]
  br i1 %c, label %then, label %else
then:
  %x = add i32 %a, 1
  br label %merge
else:
  %y = mul i32 %b, 3
  br label %merge
merge:
  %p = phi i32 [ %x, %then ], [ %y, %else ]
  %s = add i32 %p, %i
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret i32 %s
}
"""


@pytest.mark.parametrize("flag", [False, True])
def test_control_flow_hoisting_matches_opt19(flag: bool) -> None:
    assert_same_as_opt(CONTROL_FLOW, "licm", {"licm-control-flow-hoisting": flag, "verify-memoryssa": True})


def test_parameters_are_parsed_and_printed_as_opt19() -> None:
    from llvmpy_mid.transform.scalar.licm import parse_licm_options

    assert parse_licm_options("no-allowspeculation").allow_speculation is False
    assert parse_licm_options("").allow_speculation is True
    with pytest.raises(PipelineError, match="invalid LICM pass parameter 'bogus' "):
        parse_licm_options("bogus")
    module = parse_assembly(RULES["nest"])
    with pytest.raises(PipelineError, match="requires MemorySSA"):
        llvmpy_mid.run_passes(module, "loop(licm)")


def test_remarks_hoisted_and_sunk() -> None:
    from llvmpy_mid.analysis.remark_streamer import collecting

    module = parse_assembly(RULES["sink_to_exit"].replace("%m = mul i32 %i, %b", "%m = mul i32 %i, %b\n  %h = add i32 %a, %b\n  store i32 %h, ptr %q"))
    with collecting() as remarks:
        llvmpy_mid.run_passes(module, "licm")
    names = sorted({r.name for r in remarks})
    assert "Hoisted" in names and "InstSunk" in names


def _safety(text: str) -> tuple[object, object, DominatorTree, object]:
    module = parse_assembly(text)
    fn = next(f for f in module.functions if not f.is_declaration)
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    loop = li.top_level_loops[0]
    return fn, loop, dt, li


def test_guaranteed_to_execute_follows_paths_from_the_header() -> None:
    fn, loop, dt, _ = _safety(RULES["conditional_block"])
    blocks = {bb.name: bb for bb in fn.blocks}  # type: ignore[attr-defined]
    for info in (ICFLoopSafetyInfo(), SimpleLoopSafetyInfo()):
        info.compute_loop_safety_info(loop)  # type: ignore[arg-type]
        then_inst = blocks["then"].first_instruction
        latch_inst = blocks["latch"].first_instruction
        assert not info.is_guaranteed_to_execute(then_inst, dt, loop)  # type: ignore[arg-type]
        assert info.is_guaranteed_to_execute(latch_inst, dt, loop)  # type: ignore[arg-type]


def test_icf_safety_info_sees_calls_that_may_not_return() -> None:
    fn, loop, dt, _ = _safety(RULES["calls"])
    blocks = {bb.name: bb for bb in fn.blocks}  # type: ignore[attr-defined]
    info = ICFLoopSafetyInfo()
    info.compute_loop_safety_info(loop)  # type: ignore[arg-type]
    assert info.any_block_may_throw()
    assert info.block_may_throw(blocks["eff"]) and not info.block_may_throw(blocks["loop"])
    assert not info.does_not_write_memory_before(blocks["latch"].first_instruction, loop)  # type: ignore[arg-type]
    assert info.does_not_write_memory_before(blocks["loop"].first_instruction, loop)  # type: ignore[arg-type]


# --- random loops ---------------------------------------------------------------------------------

_BINOPS = ("add", "sub", "mul", "and", "xor", "shl", "sdiv", "udiv", "srem")


def _random_loop(rng: random.Random) -> str:
    vals = ["%a", "%b", "%i", "7", "0"]
    lines: list[str] = []
    blocks: list[tuple[str, list[str]]] = [("loop", lines)]
    counter = 0

    def fresh() -> str:
        nonlocal counter
        counter += 1
        return "%%v%d" % counter

    cur = lines
    for _ in range(rng.randint(3, 10)):
        k = rng.random()
        name = fresh()
        if k < 0.5:
            op = rng.choice(_BINOPS)
            cur.append("  %s = %s i32 %s, %s" % (name, op, rng.choice(vals), rng.choice(vals)))
            vals.append(name)
        elif k < 0.65:
            ptr = rng.choice(["%p", "%q"])
            cur.append("  %s = load i32, ptr %s" % (name, ptr))
            vals.append(name)
        elif k < 0.75:
            cur.append("  store i32 %s, ptr %s" % (rng.choice(vals), rng.choice(["%p", "%q"])))
        elif k < 0.85:
            callee = rng.choice(["@pure(i32 %s)" % rng.choice(vals), "@reads(ptr %p)"])
            cur.append("  %s = call i32 %s" % (name, callee))
            vals.append(name)
        elif cur is lines:
            label = "b%d" % counter
            cur.append("  br i1 %%c, label %%%s, label %%latch" % label)
            cur = []
            blocks.append((label, cur))
    cur.append("  br label %latch")
    used = [v for v in vals if v.startswith("%v") and all(not blk[0].startswith("b") for blk in blocks)]
    exit_use = used[-1] if used else "%i"
    body = "\n".join(lines) + "\n" + "".join("%s:\n%s\n" % (n, "\n".join(b)) for n, b in blocks[1:])
    return _loop(body.rstrip("\n"), exit_use)


@pytest.mark.parametrize("seed", range(40))
def test_random_loops_match_opt19(seed: int) -> None:
    text = _random_loop(random.Random(seed))
    assert_same_as_opt(text, "licm", {"verify-memoryssa": True})


def _random_nest(rng: random.Random) -> str:
    """Two nested loops, the inner one with a conditional block, memory through %p, %q and a
    gep of the outer loop; values used in the outer latch and after the nest."""
    counter = [0]

    def emit(k: int, vals: list[str], out: list[str]) -> None:
        for _ in range(k):
            counter[0] += 1
            name = "%%v%d" % counter[0]
            r = rng.random()
            if r < 0.55:
                out.append("  %s = %s i32 %s, %s" % (name, rng.choice(_BINOPS), rng.choice(vals), rng.choice(vals)))
                vals.append(name)
            elif r < 0.7:
                out.append("  %s = load i32, ptr %s" % (name, rng.choice(["%p", "%q", "%g"])))
                vals.append(name)
            elif r < 0.8:
                out.append("  store i32 %s, ptr %s" % (rng.choice(vals), rng.choice(["%p", "%q", "%g"])))
            elif r < 0.9:
                out.append("  %s = call i32 @pure(i32 %s)" % (name, rng.choice(vals)))
                vals.append(name)
            else:
                out.append("  %s = call i32 @reads(ptr %%p)" % name)
                vals.append(name)

    outer_vals = ["%a", "%b", "%j", "3", "0"]
    outer: list[str] = []
    emit(rng.randint(0, 3), outer_vals, outer)
    inner_vals = outer_vals + ["%i"]
    inner: list[str] = []
    emit(rng.randint(2, 7), inner_vals, inner)
    cond: list[str] = list()
    emit(rng.randint(1, 3), list(inner_vals), cond)
    after_vals = list(inner_vals)
    after: list[str] = []
    emit(rng.randint(0, 3), after_vals, after)
    nl = "\n"
    return DECLS + f"""
define i32 @f(i32 %a, i32 %b, ptr %p, ptr %q, i32 %n, i1 %c) {{
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  %g = getelementptr i32, ptr %q, i32 {rng.choice(["%a", "%j", "1"])}
{nl.join(outer)}
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner.latch ]
{nl.join(inner)}
  br i1 %c, label %cond, label %inner.latch
cond:
{nl.join(cond)}
  br label %inner.latch
inner.latch:
  %i.next = add i32 %i, 1
  %ci = icmp slt i32 %i.next, %n
  br i1 %ci, label %inner, label %outer.latch
outer.latch:
  %u = add i32 {rng.choice(inner_vals)}, 1
{nl.join(after)}
  %j.next = add i32 %j, 1
  %cj = icmp slt i32 %j.next, %n
  br i1 %cj, label %outer, label %exit
exit:
  %r = add i32 {rng.choice(after_vals)}, %u
  ret i32 %r
}}
"""


@pytest.mark.parametrize("pipeline", ["licm", "loop-mssa(lnicm)"])
@pytest.mark.parametrize("seed", range(15))
def test_random_nests_match_opt19(seed: int, pipeline: str) -> None:
    assert_same_as_opt(_random_nest(random.Random(seed)), pipeline, {"verify-memoryssa": True})
