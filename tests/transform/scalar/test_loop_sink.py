"""``loop-sink`` against opt-19: one small function per rule of LoopSink.cpp (only functions with
profile data change; an instruction sinks into the one cold block using it, not into a block
as hot as the preheader, not when a user is outside the loop or is a header phi fed from the
preheader; a phi use counts in its incoming block; several cold users get a clone each, named
after the original, unless the sum taxed by ``-sink-freq-percent-threshold`` beats the
preheader; ``-max-uses-for-sinking`` caps the use blocks; a load does not sink past a store
in the loop, a readnone call does, stores and may-write calls stay; chains sink bottom-up;
inner loops first), then randomly generated loops with random branch weights, uses and
options, each compared byte for byte with opt-19 (MemorySSA verified on our side). The
``-debug-pass-manager`` log equals opt-19's."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from opt19_compare import assert_like_opt, our_output, pass_manager_logs

from llvmpy_mid.errors import PipelineError
from tests.oracles import csmith_cache_dir, require_tools

require_tools("opt-19")

_PROF = """
!0 = !{!"function_entry_count", i64 1000}
!1 = !{!"branch_weights", i32 1, i32 20000}
!2 = !{!"branch_weights", i32 1, i32 1}
!3 = !{!"branch_weights", i32 2000, i32 1}
"""


def _loop(preheader: str, cold: str, warm: str = "", latch: str = "", exit_: str = "", prof: str = "!prof !0") -> str:
    """A loop of about 2000 iterations per entry whose ``cold`` block runs about once per
    20000 iterations and whose ``warm`` block runs on the other iterations."""
    return f"""
declare void @use(i32)
declare i32 @pure(i32) readnone nounwind willreturn
declare i32 @reads(ptr) readonly nounwind willreturn
declare void @writes(ptr) nounwind willreturn

define i32 @f(i32 %a, ptr %p, i32 %n) {prof} {{
entry:
  br label %ph
ph:
{preheader}
  br label %header
header:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  %c = icmp eq i32 %i, %a
  br i1 %c, label %cold, label %warm, !prof !1
cold:
{cold}
  br label %latch
warm:
{warm}
  br label %latch
latch:
{latch}
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %header, label %exit, !prof !3
exit:
{exit_}
  ret i32 0
}}
{_PROF}"""


def _second_cold(value: str) -> str:
    """A second cold block, using ``value``, off the warm path (so neither cold block
    dominates the other)."""
    return f"""  %d = icmp eq i32 %i, 5
  br i1 %d, label %cold2, label %warm2, !prof !1
cold2:
  %w = add i32 {value}, %i
  br label %latch
warm2:"""


CASES = {
    "sinks_into_cold_block": _loop("  %x = add i32 %a, 7", "  %u = mul i32 %x, %i"),
    "no_profile_no_change": _loop("  %x = add i32 %a, 7", "  %u = mul i32 %x, %i", prof=""),
    "not_into_block_as_hot_as_preheader": _loop("  %x = add i32 %a, 7", "", latch="  %u = mul i32 %x, %i"),
    "user_outside_loop_stays": _loop("  %x = add i32 %a, 7", "  %u = mul i32 %x, %i", exit_="  %v = add i32 %x, 1"),
    "two_cold_users_get_a_clone": _loop("  %x = add i32 %a, 7", "  %u = mul i32 %x, %i", warm=_second_cold("%x")),
    "cold_block_dominating_both_users_wins": _loop(
        "  %x = add i32 %a, 7",
        "  %u = mul i32 %x, %i\n  br label %cold2\ncold2:\n  %w = add i32 %x, %i",
    ),
    "warm_and_cold_users_stay": _loop("  %x = add i32 %a, 7", "  %u = mul i32 %x, %i", warm="  %w = add i32 %x, %i"),
    "chain_sinks_bottom_up": _loop(
        "  %g = getelementptr i32, ptr %p, i32 %a\n  %l = load i32, ptr %g\n  %x = add i32 %l, 1",
        "  %u = mul i32 %x, %i",
    ),
    "load_stays_with_store_in_loop": _loop(
        "  %l = load i32, ptr %p", "  %u = mul i32 %l, %i", warm="  store i32 %i, ptr %p"
    ),
    "load_stays_with_store_after_it_in_preheader": _loop(
        "  %l = load i32, ptr %p\n  store i32 %a, ptr %p", "  %u = mul i32 %l, %i"
    ),
    "readnone_call_sinks": _loop(
        "  %x = call i32 @pure(i32 %a)", "  %u = mul i32 %x, %i", warm="  call void @writes(ptr %p)"
    ),
    "readonly_call_stays_with_writes": _loop(
        "  %x = call i32 @reads(ptr %p)", "  %u = mul i32 %x, %i", warm="  call void @writes(ptr %p)"
    ),
    "readonly_call_sinks_in_read_only_loop": _loop("  %x = call i32 @reads(ptr %p)", "  %u = mul i32 %x, %i"),
    "store_and_call_stay": _loop("  store i32 %a, ptr %p\n  call void @use(i32 %a)", "  %u = mul i32 %a, %i"),
    "volatile_load_stays": _loop("  %l = load volatile i32, ptr %p", "  %u = mul i32 %l, %i"),
    "cold_load_clone_keeps_memoryssa": _loop("  %l = load i32, ptr %p", "  %u = mul i32 %l, %i", warm=_second_cold("%l")),
}

PHI_CASES = {
    "phi_use_counts_in_incoming_block": """
define i32 @f(i32 %a, i32 %n) !prof !0 {
entry:
  br label %ph
ph:
  %x = add i32 %a, 7
  br label %header
header:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  %c = icmp eq i32 %i, %a
  br i1 %c, label %cold, label %latch, !prof !1
cold:
  br label %latch
latch:
  %v = phi i32 [ %x, %cold ], [ 0, %header ]
  %i.next = add i32 %i, %v
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %header, label %exit, !prof !3
exit:
  ret i32 0
}
""" + _PROF,
    "header_phi_from_preheader_stays": """
define i32 @f(i32 %a, i32 %n) !prof !0 {
entry:
  br label %ph
ph:
  %x = add i32 %a, 7
  br label %header
header:
  %i = phi i32 [ %x, %ph ], [ %i.next, %latch ]
  %c = icmp eq i32 %i, %a
  br i1 %c, label %cold, label %latch, !prof !1
cold:
  %u = mul i32 %x, %i
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %header, label %exit, !prof !3
exit:
  ret i32 0
}
""" + _PROF,
    "inner_loop_first_then_outer": """
define i32 @f(i32 %a, i32 %n) !prof !0 {
entry:
  %x = add i32 %a, 7
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %olatch ]
  %y = add i32 %x, %j
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %ilatch ]
  %c = icmp eq i32 %i, %a
  br i1 %c, label %cold, label %ilatch, !prof !1
cold:
  %u = mul i32 %y, %i
  br label %ilatch
ilatch:
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %inner, label %olatch, !prof !3
olatch:
  %j.next = add i32 %j, 1
  %ocmp = icmp slt i32 %j.next, %n
  br i1 %ocmp, label %outer, label %exit, !prof !3
exit:
  ret i32 0
}
""" + _PROF,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rules_like_opt(name: str) -> None:
    assert_like_opt(CASES[name], "loop-sink", {"verify-memoryssa": True})


@pytest.mark.parametrize("name", sorted(PHI_CASES))
def test_phi_and_nest_rules_like_opt(name: str) -> None:
    assert_like_opt(PHI_CASES[name], "loop-sink", {"verify-memoryssa": True})


def test_sinking_happens_where_expected() -> None:
    """Guards the cases above against both sides doing nothing."""
    out = assert_like_opt(CASES["sinks_into_cold_block"], "loop-sink")
    assert out.index("%x = add i32 %a, 7") > out.index("cold:")
    out = assert_like_opt(CASES["two_cold_users_get_a_clone"], "loop-sink")
    assert "%x1 = add i32 %a, 7" in out
    out = assert_like_opt(CASES["no_profile_no_change"], "loop-sink")
    assert out.index("%x = add i32 %a, 7") < out.index("header:")


@pytest.mark.parametrize("percent", [50, 90, 100])
def test_freq_percent_threshold(percent: int) -> None:
    """Two cold blocks that together run 0.96 times as often as the preheader: whether the
    clone is worth it depends on the percentage."""
    ir = CASES["two_cold_users_get_a_clone"].replace("i32 1, i32 20000", "i32 1, i32 4168")
    out = assert_like_opt(ir, "loop-sink", {"sink-freq-percent-threshold": percent})
    assert ("%x1 = add" in out) == (percent == 100)


@pytest.mark.parametrize("cap", [1, 2])
def test_max_uses_for_sinking(cap: int) -> None:
    assert_like_opt(CASES["two_cold_users_get_a_clone"], "loop-sink", {"max-uses-for-sinking": cap})


def test_pass_manager_log_like_opt() -> None:
    theirs, ours = pass_manager_logs(CASES["sinks_into_cold_block"], "loop-sink")
    assert ours == theirs


def test_unknown_option_is_an_error() -> None:
    """LLVM's option is a percentage: the "ratio" spelling is unknown, a clear error."""
    with pytest.raises(PipelineError, match="sink-freq-ratio-threshold"):
        our_output(CASES["sinks_into_cold_block"], "loop-sink", {"sink-freq-ratio-threshold": 3})


# --- random loops --------------------------------------------------------------------------

_BRANCH_WEIGHTS = ((1, 1000), (1000, 1), (1, 1), (1, 20), (20, 1), (1, 100000), (3, 10))
_BACKEDGE_WEIGHTS = ((10, 1), (100, 1), (1000, 1), (1, 1), (1, 10))
_BODY = ("b1", "b2", "b3", "b4", "b5", "latch", "header")


def _random_loop(rng: random.Random) -> str:
    """The loopsink.ll shape (header -> b1 | b2; b1 -> b3 | b4 -> b5; b5, b2 -> latch) with
    random weights, a preheader of random invariant values (arithmetic, gep, load, calls) used
    in random loop blocks (sometimes through a phi, sometimes outside the loop), and random
    memory writes in the loop."""
    pre: list[str] = []
    names: list[str] = []
    for k in range(rng.randint(1, 5)):
        kind = rng.choice(("add", "mul", "gep_load", "load", "pure", "reads", "chain"))
        v = f"%v{k}"
        if kind == "add":
            pre.append(f"  {v} = add i32 %a, {k + 1}")
        elif kind == "mul" and names:
            pre.append(f"  {v} = mul i32 {rng.choice(names)}, %a")
        elif kind == "gep_load":
            pre.append(f"  %g{k} = getelementptr i32, ptr %p, i32 {k}\n  {v} = load i32, ptr %g{k}")
        elif kind == "load":
            pre.append(f"  {v} = load i32, ptr %q")
        elif kind == "pure":
            pre.append(f"  {v} = call i32 @pure(i32 %a)")
        elif kind == "reads":
            pre.append(f"  {v} = call i32 @reads(ptr %p)")
        else:
            pre.append(f"  {v} = sub i32 {rng.choice(names) if names else '%a'}, 3")
        names.append(v)
    if rng.random() < 0.2:
        pre.append("  store i32 %a, ptr %q")
    w = [*rng.choice(_BRANCH_WEIGHTS), *rng.choice(_BRANCH_WEIGHTS), *rng.choice(_BACKEDGE_WEIGHTS)]
    # the rarely taken side of each branch gets most uses
    rare = ["b1", "b3", "b4", "b5"] if w[0] < w[1] else ["b2"]
    rare.append("b3" if w[2] < w[3] else "b4")
    uses: dict[str, list[str]] = {b: [] for b in _BODY}
    exit_uses: list[str] = []
    phi_b5 = "0"
    for k, v in enumerate(names):
        for n in range(rng.randint(1, 3)):
            where = rng.choice(rare if rng.random() < 0.7 else _BODY)
            uses[where].append(f"  %u{k}.{n} = add i32 {v}, %i")
        if rng.random() < 0.1:
            exit_uses.append(f"  %e{k} = add i32 {v}, 1")
    if rng.random() < 0.3:
        phi_b5 = rng.choice(names)
    for b in ("b2", "b4", "latch"):
        r = rng.random()
        if r < 0.15:
            uses[b].append("  store i32 %i, ptr %p")
        elif r < 0.25:
            uses[b].append("  call void @writes(ptr %q)")
    body = "\n".join
    return f"""
declare i32 @pure(i32) readnone nounwind willreturn
declare i32 @reads(ptr) readonly nounwind willreturn
declare void @writes(ptr) nounwind willreturn

define i32 @f(i32 %a, ptr %p, ptr noalias %q, i32 %n) !prof !0 {{
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %ph
ph:
{body(pre)}
  br label %header
header:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
{body(uses["header"])}
  %c1 = icmp sgt i32 %i, %a
  br i1 %c1, label %b1, label %b2, !prof !1
b1:
{body(uses["b1"])}
  %c2 = icmp sgt i32 %i, 1
  br i1 %c2, label %b3, label %b4, !prof !2
b3:
{body(uses["b3"])}
  br label %b5
b4:
{body(uses["b4"])}
  br label %b5
b5:
  %p5 = phi i32 [ {phi_b5}, %b3 ], [ 1, %b4 ]
{body(uses["b5"])}
  br label %latch
b2:
{body(uses["b2"])}
  br label %latch
latch:
{body(uses["latch"])}
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %header, label %done, !prof !3
done:
{body(exit_uses) if exit_uses else ""}
  br label %exit
exit:
  ret i32 0
}}

!0 = !{{!"function_entry_count", i64 {rng.choice((1, 100, 10000))}}}
!1 = !{{!"branch_weights", i32 {w[0]}, i32 {w[1]}}}
!2 = !{{!"branch_weights", i32 {w[2]}, i32 {w[3]}}}
!3 = !{{!"branch_weights", i32 {w[4]}, i32 {w[5]}}}
""".replace("\n\n  ", "\n  ")


@pytest.mark.parametrize("seed", range(60))
def test_random_loops_like_opt(seed: int) -> None:
    rng = random.Random(seed)
    ir = _random_loop(rng)
    options: dict[str, object] = {"verify-memoryssa": True}
    if rng.random() < 0.3:
        options["sink-freq-percent-threshold"] = rng.choice((50, 75, 100))
    if rng.random() < 0.2:
        options["max-uses-for-sinking"] = rng.choice((1, 2, 3))
    assert_like_opt(ir, "loop-sink", options)


# --- csmith with a made-up profile ---------------------------------------------------------


def _with_profile(text: str, rng: random.Random) -> str:
    """Every definition gets an entry count and every conditional branch random weights."""
    pairs = ((1, 1000), (1000, 1), (1, 1), (1, 20), (20, 1), (5, 3))
    text = re.sub(r"^(define [^\n]*?)\s*\{$", r"\1 !prof !9999 {", text, flags=re.M)
    text = re.sub(
        r"^(  br i1 [^\n]*label %[^\s,]+, label %[^\s,]+)$",
        lambda m: "%s, !prof !%d" % (m.group(1), 9990 + rng.randrange(len(pairs))),
        text,
        flags=re.M,
    )
    text += '\n!9999 = !{!"function_entry_count", i64 100}\n'
    text += "".join('!%d = !{!"branch_weights", i32 %d, i32 %d}\n' % (9990 + i, a, b) for i, (a, b) in enumerate(pairs))
    return text


def _csmith_o2_files(count: int) -> list[Path]:
    folder = csmith_cache_dir()
    if folder is None:
        pytest.skip("csmith corpus unavailable")
    files = sorted((folder / "w0").glob("s*.O2.ll"))[:count]
    if not files:
        pytest.skip("csmith corpus not generated")
    return files


def test_csmith_with_profile_like_opt() -> None:
    """clang-19 -O2 csmith programs (hoisted invariants in preheaders) given random branch
    weights: our output equals opt-19's, and opt-19 sinks something in at least one."""
    sunk = 0
    for path in _csmith_o2_files(6):
        ir = _with_profile(path.read_text(), random.Random(path.name))
        out = assert_like_opt(ir, "loop-sink", {"verify-memoryssa": True})
        sunk += out != our_output(ir, "no-op-function")
    assert sunk > 0
