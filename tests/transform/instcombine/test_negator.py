"""The Negator (InstCombineNegator.cpp): ``sub`` sinks its negation into the subtrahend's
expression tree, naming new values ``<name>.neg`` as LLVM does, and undoes every partial
build when the walk fails; each case matches opt-19 and refines the input on i4."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

from llvmpy_mid import parse_assembly  # noqa: E402
from llvmpy_mid.passes.run import run_passes  # noqa: E402

CASES: dict[str, str] = {
    # 0 - (x + C) --> -C - x, the add negated as a.neg
    "add_const": """
define i4 @f(i4 %x) {
  %a = add i4 %x, 3
  %r = sub i4 0, %a
  ret i4 %r
}""",
    # y - (a - b) --> (b - a) + y
    "sub": """
define i4 @f(i4 %a, i4 %b, i4 %y) {
  %s = sub i4 %a, %b
  %r = sub i4 %y, %s
  ret i4 %r
}""",
    # y - (x + 1) ... with x+1 negated as ~x
    "add_one_to_not": """
define i4 @f(i4 %x) {
  %a = add i4 %x, 1
  %r = sub i4 0, %a
  ret i4 %r
}""",
    # y - (select c, 3, 5) --> select c, -3, -5
    "select_of_constants": """
define i4 @f(i1 %c, i4 %y) {
  %s = select i1 %c, i4 3, i4 5
  %r = sub i4 %y, %s
  ret i4 %r
}""",
    # y - zext(bool) --> y + sext(bool)
    "zext_bool": """
define i4 @f(i1 %c, i4 %y) {
  %z = zext i1 %c to i4
  %r = sub i4 %y, %z
  ret i4 %r
}""",
    # y - (x ashr 3) --> (x lshr 3) + y
    "ashr_sign_bit": """
define i4 @f(i4 %x, i4 %y) {
  %s = ashr i4 %x, 3
  %r = sub i4 %y, %s
  ret i4 %r
}""",
    # y - (x * (0 - z)) --> (z * x) + y through the mul
    "mul_of_neg": """
define i4 @f(i4 %x, i4 %y, i4 %z) {
  %n = sub i4 0, %z
  %m = mul i4 %n, %x
  %r = sub i4 %y, %m
  ret i4 %r
}""",
    # 0 - (x sdiv 3) --> x sdiv -3
    "sdiv_const": """
define i4 @f(i4 %x) {
  %d = sdiv i4 %x, 3
  %r = sub i4 0, %d
  ret i4 %r
}""",
    # 0 - (x << 2) with truly-negation: (x * -4)
    "shl_truly": """
define i4 @f(i4 %x) {
  %s = shl i4 %x, 2
  %r = sub i4 0, %s
  ret i4 %r
}""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_negation_as_opt19(name: str) -> None:
    assert_same_as_opt(CASES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(CASES))
def test_negation_refines(name: str) -> None:
    before, after = check_refines(CASES[name])
    assert str(before) != str(after), "the negation did not sink"


def test_failed_walk_leaves_no_instruction_behind() -> None:
    """y - (select c, x + 1, z): the walk builds ``~x`` for the true arm, then fails on
    ``z``; the partial build is erased again, so the output is opt-19's and has no ``.neg``."""
    text = """
define i4 @f(i1 %c, i4 %x, i4 %y, i4 %z) {
  %a = add i4 %x, 1
  %s = select i1 %c, i4 %a, i4 %z
  %r = sub i4 %y, %s
  ret i4 %r
}"""
    out = assert_same_as_opt(text, "instcombine")
    assert ".neg" not in out
    m = parse_assembly(text)
    run_passes(m, "instcombine")
    assert "sub i4 %y, %s" in str(m.get_function("f"))


def test_unnamed_value_negated_as_dot_neg() -> None:
    """LLVM appends ``.neg`` to the empty name too: the result is named ``%.neg``."""
    text = """
define i4 @f(i4 %x) {
  %1 = mul i4 %x, 3
  %2 = sub i4 0, %1
  ret i4 %2
}"""
    out = assert_same_as_opt(text, "instcombine")
    assert "%.neg" in out
