"""``sink`` against opt-19, one small function per rule of Sink.cpp: arithmetic sinks
to the block of its only user, a phi use counts in the incoming block, nothing sinks
into a loop or into a block with other predecessors when it reads memory (unless
``!invariant.load``), a load never sinks above a store to its address, static allocas,
convergent calls and EH pads stay, dead users are ignored, and the whole function is
iterated to a fixpoint. The ``-debug-pass-manager`` log equals opt-19's."""

from __future__ import annotations

import pytest
from opt19_compare import assert_like_opt, pass_manager_logs

from tests.oracles import require_tools

require_tools("opt-19")

CASES = {
    "arith_to_single_user": """
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %x, 3
  br i1 %c, label %t, label %e
t:
  ret i32 %y
e:
  ret i32 0
}
""",
    "phi_use_counts_in_incoming_block": """
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = add i32 %a, 1
  br i1 %c, label %t, label %e
t:
  br label %j
e:
  br label %j
j:
  %p = phi i32 [ %x, %t ], [ 0, %e ]
  ret i32 %p
}
""",
    "not_into_loop": """
define i32 @f(i32 %a, i32 %n) {
entry:
  %x = add i32 %a, 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = add i32 %i, %x
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret i32 %s
}
""",
    "load_not_across_merge": """
define i32 @f(ptr %p, i1 %c) {
entry:
  %v = load i32, ptr %p
  br i1 %c, label %t, label %j
t:
  br label %j
j:
  ret i32 %v
}
""",
    "invariant_load_across_merge": """
define i32 @f(ptr %p, i1 %c, i1 %d) {
entry:
  %v = load i32, ptr %p, !invariant.load !0
  br i1 %c, label %mid, label %e
mid:
  br i1 %d, label %t, label %j
t:
  br label %j
j:
  ret i32 %v
e:
  ret i32 0
}
!0 = !{}
""",
    "load_stays_above_store": """
define i32 @f(ptr %p, i1 %c) {
entry:
  %v = load i32, ptr %p
  store i32 0, ptr %p
  br i1 %c, label %t, label %e
t:
  ret i32 %v
e:
  ret i32 0
}
""",
    "static_alloca_and_convergent_stay": """
declare i32 @conv(i32) convergent nounwind willreturn memory(none)
define i32 @f(i32 %a, i1 %c) {
entry:
  %m = alloca i32
  %k = call i32 @conv(i32 %a)
  br i1 %c, label %t, label %e
t:
  %l = load i32, ptr %m
  %r = add i32 %k, %l
  ret i32 %r
e:
  ret i32 0
}
""",
    "readnone_call_sinks": """
declare i32 @pure(i32) nounwind willreturn memory(none)
define i32 @f(i32 %a, i1 %c) {
entry:
  %k = call i32 @pure(i32 %a)
  br i1 %c, label %t, label %e
t:
  ret i32 %k
e:
  ret i32 0
}
""",
    "may_throw_call_stays": """
declare i32 @thrower(i32) willreturn memory(none)
define i32 @f(i32 %a, i1 %c) {
entry:
  %k = call i32 @thrower(i32 %a)
  br i1 %c, label %t, label %e
t:
  ret i32 %k
e:
  ret i32 0
}
""",
    "dead_user_ignored_and_chain_fixpoint": """
define i32 @f(i32 %a, i1 %c, i1 %d) {
entry:
  %x = add i32 %a, 1
  %y = add i32 %x, 2
  br i1 %c, label %t, label %e
t:
  br i1 %d, label %u, label %e
u:
  ret i32 %y
e:
  ret i32 0
dead:
  %z = add i32 %x, 5
  ret i32 %z
}
""",
    "multi_pred_dominated_target": """
define i32 @f(i32 %a, i1 %c, i1 %d) {
entry:
  %x = mul i32 %a, %a
  br i1 %c, label %a1, label %e
a1:
  br i1 %d, label %b1, label %j
b1:
  br label %j
j:
  ret i32 %x
e:
  ret i32 0
}
""",
    "not_into_eh_pad": """
declare i32 @__gxx_personality_v0(...)
declare void @may(i32)
define i32 @f(i32 %a) personality ptr @__gxx_personality_v0 {
entry:
  %x = add i32 %a, 1
  invoke void @may(i32 0) to label %ok unwind label %lp
ok:
  ret i32 0
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i32 %x
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sink_like_opt(name: str) -> None:
    assert_like_opt(CASES[name], "sink")


def test_sink_moves_something() -> None:
    """The oracle cases do exercise sinking (the output differs from the input)."""
    out = assert_like_opt(CASES["arith_to_single_user"], "sink")
    t_block = out.split("\nt:")[1]
    assert "%x = add i32 %a, 1" in t_block and "%y = mul" in t_block


def test_sink_pass_manager_log() -> None:
    theirs, ours = pass_manager_logs(CASES["arith_to_single_user"], "sink")
    assert ours == theirs
