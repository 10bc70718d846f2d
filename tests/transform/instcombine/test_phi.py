"""InstCombine's phi folds (InstCombinePHI.cpp): each rule's input gives what opt-19 gives,
and the result refines the input (branches and phis evaluated) on every small argument."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

MAX_INPUTS = 1 << 12
"""Exhaustive up to 12 argument bits, a seeded sample of that many inputs beyond."""

RULES: dict[str, str] = {
    # phi [x + 1, y + 1] -> (phi [x, y]) + 1
    'binop_const': 'define i8 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %p = add nsw i8 %x, 1\n  br label %j\nb:\n  %q = add nsw i8 %y, 1\n  br label %j\nj:\n  %r = phi i8 [ %p, %a ], [ %q, %b ]\n  ret i8 %r\n}',
    # flags intersected
    'binop_const_flags': 'define i8 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %p = add nsw nuw i8 %x, 1\n  br label %j\nb:\n  %q = add nuw i8 %y, 1\n  br label %j\nj:\n  %r = phi i8 [ %p, %a ], [ %q, %b ]\n  ret i8 %r\n}',
    # phi [zext x, zext y] -> zext phi
    'cast': 'define i32 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %p = zext i8 %x to i32\n  br label %j\nb:\n  %q = zext i8 %y to i32\n  br label %j\nj:\n  %r = phi i32 [ %p, %a ], [ %q, %b ]\n  ret i32 %r\n}',
    # phi [icmp x, 0; icmp y, 0] -> icmp phi, 0
    'cmp_const': 'define i1 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %p = icmp eq i8 %x, 0\n  br label %j\nb:\n  %q = icmp eq i8 %y, 0\n  br label %j\nj:\n  %r = phi i1 [ %p, %a ], [ %q, %b ]\n  ret i1 %r\n}',
    # phi [x, x] -> x
    'same_value': 'define i8 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %j\nb:\n  br label %j\nj:\n  %r = phi i8 [ %x, %a ], [ %x, %b ]\n  ret i8 %r\n}',
    # phi [true, false] after br c -> c
    'control_flow_cond': 'define i1 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %j\nb:\n  br label %j\nj:\n  %r = phi i1 [ true, %a ], [ false, %b ]\n  ret i1 %r\n}',
    # phi [false, true] after br c -> not c
    'control_flow_not_cond': 'define i1 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %j\nb:\n  br label %j\nj:\n  %r = phi i1 [ false, %a ], [ true, %b ]\n  ret i1 %r\n}',
    # phi of zexts and a constant, three inputs -> zext (phi)
    'zexts_three': 'define i32 @f(i1 %c1, i1 %c2, i8 %x, i8 %y) {\nentry:\n  br i1 %c1, label %a, label %m\nm:\n  br i1 %c2, label %b, label %d\na:\n  %p = zext i8 %x to i32\n  br label %j\nb:\n  %q = zext i8 %y to i32\n  br label %j\nd:\n  br label %j\nj:\n  %r = phi i32 [ %p, %a ], [ %q, %b ], [ 3, %d ]\n  ret i32 %r\n}',
    # dead induction variable
    'dead_iv': 'define void @f(i8 %n) {\nentry:\n  br label %l\nl:\n  %i = phi i8 [ 0, %entry ], [ %i.next, %l ]\n  %i.next = add i8 %i, 1\n  %c = icmp eq i8 %n, 0\n  br i1 %c, label %e, label %l\ne:\n  ret void\n}',
    # phi i128 (illegal) used by trunc and trunc(lshr 64) -> two i64 phis (opt-19 also marks the
    # high trunc nuw, a cast fold)
    'slice_illegal_phi': 'define i64 @f(i1 %c, i128 %x, i128 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %j\nb:\n  br label %j\nj:\n  %r = phi i128 [ %x, %a ], [ %y, %b ]\n  %lo = trunc i128 %r to i64\n  %s = lshr i128 %r, 64\n  %hi = trunc i128 %s to i64\n  %t = add i64 %lo, %hi\n  ret i64 %t\n}',
    # phi [x * y, x * z] -> x * phi [y, z]
    'binop_one_phi': 'define i8 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %p = mul i8 %x, %y\n  br label %j\nb:\n  %q = mul i8 %x, 7\n  br label %j\nj:\n  %r = phi i8 [ %p, %a ], [ %q, %b ]\n  ret i8 %r\n}',
    # identical phis CSE'd
    'phi_cse': 'define i8 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %j\nb:\n  br label %j\nj:\n  %r = phi i8 [ %x, %a ], [ %y, %b ]\n  %s = phi i8 [ %x, %a ], [ %y, %b ]\n  %t = add i8 %r, %s\n  ret i8 %t\n}',
    # phi compared with zero: known non-zero inputs -> a non-zero constant
    'nonzero_cmp': 'define i1 @f(i1 %c, i8 %x, i8 %y) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %p = or i8 %x, 1\n  br label %j\nb:\n  br label %j\nj:\n  %r = phi i8 [ %p, %a ], [ %y, %b ]\n  %z = icmp eq i8 %r, 0\n  ret i1 %z\n}',
}

REFINE_ONLY: dict[str, str] = {}
"""Rules whose opt-19 form needs folds not in the tree yet (none now: every rule matches opt-19)."""

NOT_EVALUATED = ("dead_iv",)
"""Loops the refinement interpreter does not run (bounded steps)."""


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(n for n in list(RULES) + list(REFINE_ONLY) if n not in NOT_EVALUATED))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES.get(name) or REFINE_ONLY[name], max_inputs=MAX_INPUTS)
    assert str(before) != str(after), "the fold did not fire"


def test_integer_typed_phi_becomes_pointer_phi() -> None:
    """phi i64 [ptrtoint p, load i64] only used as a pointer -> phi ptr [p, inttoptr (load)]
    (LLVM ``foldIntegerTypedPHI``): the integer phi and its inttoptr are gone."""
    from llvmpy_mid import parse_assembly, run_passes

    text = (
        "define i8 @f(i1 %c, ptr %p, ptr %q) {\nentry:\n  br i1 %c, label %a, label %b\n"
        "a:\n  %pi = ptrtoint ptr %p to i64\n  br label %j\n"
        "b:\n  %l = load i64, ptr %q\n  br label %j\n"
        "j:\n  %r = phi i64 [ %pi, %a ], [ %l, %b ]\n  %rp = inttoptr i64 %r to ptr\n"
        "  %v = load i8, ptr %rp\n  ret i8 %v\n}"
    )
    m = parse_assembly(text)
    run_passes(m, "instcombine")
    out = str(m)
    assert "phi ptr [ %p, %a ]" in out
    assert "phi i64" not in out and "%rp = inttoptr" not in out
