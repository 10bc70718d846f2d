"""SimplifyCFG's switch canonicalisation (``simplify_cfg_switch``): each rule's input
gives what opt-19 gives (and the rule's mark is in the output, so the rule fired),
and random switch functions return the same values under ``lli-19`` before and
after the pass."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt, body, opt19_text  # noqa: E402
from oracles import require_tools  # noqa: E402
from switch_gen import check_same_under_lli, random_switch_function, random_switch_module  # noqa: E402

DL = 'target datalayout = "e-n8:16:32:64"\n'
CALLS = "declare void @a()\ndeclare void @b()\ndeclare void @c()\n"
SWITCH: dict[str, tuple[str, str, dict[str, object]]] = {
"range_to_icmp": (CALLS + """
define void @f(i32 %x) {
entry:
  switch i32 %x, label %other [
    i32 5, label %in
    i32 6, label %in
    i32 7, label %in
  ]
in:
  call void @a()
  ret void
other:
  call void @b()
  ret void
}""", "simplifycfg", {"switch-range-to-icmp": True}),
"range_to_icmp_weights": (CALLS + """
define void @f(i32 %x) {
entry:
  switch i32 %x, label %unr [
    i32 1, label %in
    i32 2, label %in
    i32 3, label %out
    i32 9, label %out
  ], !prof !0
in:
  call void @a()
  ret void
out:
  call void @b()
  ret void
unr:
  unreachable
}
!0 = !{!"branch_weights", i32 3, i32 10, i32 20, i32 30, i32 40}""", "simplifycfg", {"switch-range-to-icmp": True}),
"dead_cases_known_bits": (CALLS + """
define void @f(i32 %x) {
entry:
  %m = and i32 %x, 6
  switch i32 %m, label %d [
    i32 1, label %one
    i32 2, label %two
    i32 4, label %two
    i32 9, label %one
  ]
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
d:
  call void @c()
  ret void
}""", "simplifycfg", {}),
"dead_cases_order_and_weights": (CALLS + """
define void @f(i32 %x) {
entry:
  %m = and i32 %x, 6
  switch i32 %m, label %d [
    i32 1, label %one
    i32 3, label %two
    i32 2, label %one
    i32 4, label %two
    i32 5, label %d
    i32 6, label %three
  ], !prof !0
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
three:
  call void @a()
  call void @b()
  ret void
d:
  call void @c()
  ret void
}
!0 = !{!"branch_weights", i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7}""", "simplifycfg", {}),
"dead_cases_sign_bits": (CALLS + """
define void @f(i8 %y) {
entry:
  %x = sext i8 %y to i32
  switch i32 %x, label %d [
    i32 -129, label %one
    i32 -128, label %two
    i32 127, label %one
    i32 128, label %two
  ]
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
d:
  call void @c()
  ret void
}""", "simplifycfg", {}),
"default_unreachable_when_covered": (CALLS + """
define void @f(i32 %x) {
entry:
  %m = and i32 %x, 3
  switch i32 %m, label %d [
    i32 0, label %one
    i32 1, label %two
    i32 2, label %one
    i32 3, label %three
  ]
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
three:
  call void @b()
  call void @a()
  ret void
d:
  call void @c()
  ret void
}""", "simplifycfg", {}),
"missing_case_becomes_case": (DL + CALLS + """
define void @f(i32 %x) {
entry:
  %m = and i32 %x, 3
  switch i32 %m, label %d [
    i32 0, label %one
    i32 1, label %two
    i32 3, label %one
  ], !prof !0
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
d:
  call void @c()
  ret void
}
!0 = !{!"branch_weights", i32 5, i32 10, i32 20, i32 30}""", "simplifycfg", {}),
"switch_to_select_two_cases": ("""
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 10, label %a
    i32 20, label %b
  ]
a:
  br label %end
b:
  br label %end
d:
  br label %end
end:
  %r = phi i32 [ 42, %a ], [ 2, %b ], [ 4, %d ]
  ret i32 %r
}""", "simplifycfg", {}),
"switch_to_select_mask": ("""
define i8 @f(i8 %x) {
entry:
  switch i8 %x, label %d [
    i8 2, label %a
    i8 6, label %a
    i8 10, label %a
    i8 14, label %a
  ]
a:
  br label %end
d:
  br label %end
end:
  %r = phi i8 [ 7, %a ], [ 9, %d ]
  ret i8 %r
}""", "simplifycfg", {}),
"switch_to_select_or": ("""
define i8 @f(i8 %x) {
entry:
  switch i8 %x, label %d [
    i8 3, label %a
    i8 40, label %a
  ]
a:
  br label %end
d:
  br label %end
end:
  %r = phi i8 [ 7, %a ], [ 9, %d ]
  ret i8 %r
}""", "simplifycfg", {}),
"switch_to_select_through_block": ("""
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %end [
    i32 1, label %a
    i32 2, label %b
  ]
a:
  %v = add i32 %x, 10
  br label %end
b:
  br label %end
end:
  %r = phi i32 [ %v, %a ], [ 5, %b ], [ 0, %entry ]
  ret i32 %r
}""", "simplifycfg", {}),
"forward_condition": (CALLS + """
define i32 @f(i32 %x, i1 %c) {
entry:
  br i1 %c, label %sw, label %end
sw:
  switch i32 %x, label %d [
    i32 17, label %end
    i32 19, label %e1
    i32 21, label %e2
  ]
e1:
  br label %end
e2:
  br label %end
d:
  call void @a()
  br label %end
end:
  %r = phi i32 [ 0, %entry ], [ 17, %sw ], [ 19, %e1 ], [ 21, %e2 ], [ 1, %d ]
  ret i32 %r
}""", "simplifycfg", {"forward-switch-cond": True}),
"powers_of_two": (DL + CALLS + """
define void @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 1, label %one
    i32 2, label %two
    i32 8, label %three
    i32 16, label %one
  ]
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
three:
  call void @c()
  ret void
d:
  unreachable
}""", "simplifycfg", {}),
"reduce_range": (DL + CALLS + """
define void @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 -8, label %one
    i32 0, label %two
    i32 8, label %three
    i32 16, label %one
    i32 24, label %two
  ]
one:
  call void @a()
  ret void
two:
  call void @b()
  ret void
three:
  call void @c()
  ret void
d:
  ret void
}""", "simplifycfg", {}),
}

# A line each rule's output must hold (the rule fired).
MARKS: dict[str, str] = {
    "range_to_icmp": "%x.off = add i32 %x, -5",
    "range_to_icmp_weights": '!{!"branch_weights", i32 30, i32 73}',
    "dead_cases_known_bits": "i32 2, label",
    "dead_cases_sign_bits": "i32 127, label",
    "dead_cases_order_and_weights": "i32 4, label %two\n    i32 2, label %one",
    "default_unreachable_when_covered": "entry.unreachabledefault:",
    "missing_case_becomes_case": "i32 2, label %d",
    "switch_to_select_two_cases": "%switch.select2 = select",
    "switch_to_select_mask": "%switch.and = and i8",
    "switch_to_select_or": "%switch.selectcmp.case2",
    "switch_to_select_through_block": "i32 11, i32 %switch.select",
    "forward_condition": "[ %x, %sw ]",
    "powers_of_two": "@llvm.cttz.i32(i32 %x, i1 true)",
    "reduce_range": "@llvm.fshl.i32",
}

# Lines that must be gone from the output (dead cases).
GONE: dict[str, list[str]] = {
    "dead_cases_known_bits": ["i32 1, label", "i32 9, label"],
    "dead_cases_sign_bits": ["i32 -129, label", "i32 128, label"],
}


@pytest.mark.parametrize("name", sorted(SWITCH))
def test_rule_like_opt19(name: str) -> None:
    text, pipeline, options = SWITCH[name]
    got = assert_same_as_opt(text, pipeline, options)
    assert MARKS[name] in got
    for line in GONE.get(name, []):
        assert line not in got


PROPERTY_PIPELINES = (
    "simplifycfg",
    "simplifycfg<switch-range-to-icmp;forward-switch-cond>",
)


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 6 else []) for s in range(40)]
)
@pytest.mark.parametrize("pipeline", PROPERTY_PIPELINES)
def test_random_switches_keep_their_results(seed: int, pipeline: str, tmp_path: Path) -> None:
    require_tools("lli-19")
    text, inputs = random_switch_module(seed)
    check_same_under_lli(text, inputs, pipeline, tmp_path)


ORACLE_PIPELINES = (
    "simplifycfg<switch-to-lookup;switch-range-to-icmp>",
    "simplifycfg",
    "simplifycfg<forward-switch-cond;switch-to-lookup>",
)


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 12 else []) for s in range(300)]
)
def test_random_switches_like_opt19(seed: int) -> None:
    assert_same_as_opt(random_switch_function(seed), ORACLE_PIPELINES[seed % 3])


@pytest.mark.parametrize(
    "flags",
    [
        ["-switch-range-to-icmp"],
        ["-switch-to-lookup"],
        ["-forward-switch-cond=true", "-switch-range-to-icmp"],
        ["-switch-to-lookup=false", "-switch-range-to-icmp=false"],
    ],
)
def test_command_line_options_take_effect(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``llvmpy-opt -passes=simplifycfg -switch-...`` behaves as opt-19 with the same flags
    (the options are set after the pipeline is built, and still count)."""
    from llvmpy_mid.cli import main

    text = """target datalayout = "e-n8:16:32:64"
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 4, label %a
    i32 5, label %b
    i32 6, label %c
    i32 7, label %e
  ]
a:
  br label %end
b:
  br label %end
c:
  br label %end
e:
  br label %end
d:
  br label %end
end:
  %r = phi i32 [ 10, %a ], [ 2000, %b ], [ 7, %c ], [ 5, %e ], [ 0, %d ]
  ret i32 %r
}
define void @g(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 1, label %a
    i32 2, label %a
  ]
a:
  call void @h()
  ret void
d:
  ret void
}
declare void @h()
"""
    src = tmp_path / "in.ll"
    src.write_text(text)
    expected = opt19_text(text, "simplifycfg", *flags)
    assert main(["-S", "-passes=simplifycfg", *flags, str(src)]) == 0
    got = capsys.readouterr().out
    assert body(got) == body(expected)
