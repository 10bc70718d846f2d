"""``lower-switch`` on random switches: the printed module equals opt-19's, and ``lli-19`` computes the
same function of the switched value (checked on every i8 input) before and after."""

from __future__ import annotations

import random
import subprocess

import pytest
from opt_oracle import assert_same_as_opt

from oracles import lli_output, require_tools


def random_switch(seed: int) -> str:
    """A function ``@f(i8)`` whose switch has random cases (runs of equal destinations, a maybe
    unreachable default), destinations with phis, and a ``main`` hashing ``f`` over all i8 values."""
    rng = random.Random(seed)
    n_dest = rng.randint(1, 5)
    values = sorted(rng.sample(range(-128, 128), rng.randint(1, 24)))
    if rng.random() < 0.3:  # a contiguous run
        start = rng.randint(-128, 100)
        values = sorted(set(values) | set(range(start, start + rng.randint(2, 20))))
    unreachable_default = rng.random() < 0.3
    cond = "%x" if rng.random() < 0.6 else "%m"
    lines = ["define i32 @f(i8 %x) {", "entry:"]
    if cond == "%m":
        lines.append("  %%m = and i8 %%x, %d" % rng.choice([7, 15, 60, 127, -16]))
    cases = []
    for v in values:
        d = rng.randrange(n_dest) if rng.random() < 0.7 else (cases[-1][1] if cases else 0)
        cases.append((v, d))
    lines.append("  switch i8 %s, label %%def [" % cond)
    lines.extend("    i8 %d, label %%d%d" % (v, d) for v, d in cases)
    lines.append("  ]")
    for d in range(n_dest):
        lines += ["d%d:" % d, "  br label %join"]
    lines.append("def:")
    lines.append("  unreachable" if unreachable_default else "  br label %join")
    lines.append("join:")
    incoming = ["[ %d, %%d%d ]" % (d * 7 + 1, d) for d in range(n_dest) if any(c[1] == d for c in cases)]
    if not unreachable_default:
        incoming.append("[ 99, %def ]")
    lines.append("  %r = phi i32 " + ", ".join(incoming))
    lines += ["  ret i32 %r", "}"]
    # unused destinations are unreachable: make them return so the module stays valid
    text = "\n".join(lines) + "\n"
    for d in range(n_dest):
        if not any(c[1] == d for c in cases):
            text = text.replace("d%d:\n  br label %%join" % d, "d%d:\n  ret i32 0" % d)
    return text + MAIN


MAIN = """
@fmt = private constant [4 x i8] c"%u\\0A\\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %h = phi i32 [ 0, %entry ], [ %h2, %loop ]
  %x = trunc i32 %i to i8
  %r = call i32 @f(i8 %x)
  %h1 = mul i32 %h, 31
  %h2 = add i32 %h1, %r
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 256
  br i1 %c, label %loop, label %done
done:
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %h2)
  ret i32 0
}
"""


@pytest.mark.parametrize("seed", range(24))
def test_random_switch_same_as_opt(seed: int) -> None:
    assert_same_as_opt(random_switch(seed), "lower-switch")


@pytest.mark.parametrize("seed", range(4))
def test_random_switch_keeps_meaning(seed: int) -> None:
    require_tools("opt-19", "lli-19")
    text = random_switch(seed)
    lowered = assert_same_as_opt(text, "lower-switch")
    assert "switch" not in lowered
    if "unreachable" in text.split("define i32 @main")[0]:
        pytest.skip("an unreachable default makes values outside the cases undefined")
    assert lli_output(lowered) == lli_output(text)


def test_phi_fixups_and_names() -> None:
    text = """
define i32 @g(i32 %v) {
entry:
  switch i32 %v, label %def [
    i32 1, label %a
    i32 2, label %a
    i32 3, label %a
    i32 10, label %b
    i32 20, label %b
    i32 -5, label %def
  ]
a:
  %pa = phi i32 [ 1, %entry ], [ 1, %entry ], [ 1, %entry ]
  ret i32 %pa
b:
  %pb = phi i32 [ 2, %entry ], [ 2, %entry ]
  ret i32 %pb
def:
  %pd = phi i32 [ 3, %entry ], [ 3, %entry ]
  ret i32 %pd
}
"""
    out = assert_same_as_opt(text, "lower-switch")
    assert "NodeBlock" in out and "LeafBlock" in out and "%v.off = add i32 %v, -1" in out


PREDICATES = ("eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge")


def guarded_switch(seed: int) -> str:
    """A switch on ``%x`` in a block reached through conditions on ``%x`` (the edges LazyValueInfo
    reads): icmp with a constant, and/or of two, and a second path."""
    rng = random.Random(seed)
    values = sorted(rng.sample(range(-20, 21), rng.randint(2, 6)))
    cases = "\n".join("    i8 %d, label %%d%d" % (v, i % 2) for i, v in enumerate(values))
    c1 = "icmp %s i8 %%x, %d" % (rng.choice(PREDICATES), rng.randint(-25, 25))
    c2 = "icmp %s i8 %%x, %d" % (rng.choice(PREDICATES), rng.randint(-25, 25))
    join = rng.choice(["and", "or"])
    true_to_sw = rng.random() < 0.5
    two_paths = rng.random() < 0.4
    lines = [
        "define i32 @f(i8 %x, i1 %other) {",
        "entry:",
        "  %c1 = " + c1,
        "  %c2 = " + c2,
        "  %%c = %s i1 %%c1, %%c2" % join,
        "  br i1 %%c, label %%%s, label %%%s" % (("sw", "alt") if true_to_sw else ("alt", "sw")),
        "alt:",
        "  br i1 %other, label %sw, label %out" if two_paths else "  br label %out",
        "sw:",
        "  switch i8 %x, label %def [",
        cases,
        "  ]",
        "d0:",
        "  ret i32 0",
        "d1:",
        "  ret i32 1",
        "def:",
        "  ret i32 2",
        "out:",
        "  ret i32 3",
        "}",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(20))
def test_edge_conditions_bound_the_value_as_opt(seed: int) -> None:
    assert_same_as_opt(guarded_switch(seed), "lower-switch")
