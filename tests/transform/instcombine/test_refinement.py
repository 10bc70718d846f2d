"""The refinement judge itself: it accepts correct rewrites and catches wrong ones."""

from __future__ import annotations

import pytest
from refinement import POISON, UB, assert_refines, evaluate

from llvmpy_mid import parse_assembly


def _fn(text: str, name: str = "f"):  # type: ignore[no-untyped-def]
    m = parse_assembly(text)
    f = m.get_function(name)
    assert f is not None
    return m, f


def test_evaluates_poison_flags_and_intrinsics() -> None:
    _m, f = _fn(
        """
declare i8 @llvm.umax.i8(i8, i8)
define i8 @f(i8 %x, i8 %y) {
  %a = add nuw i8 %x, %y
  %b = call i8 @llvm.umax.i8(i8 %a, i8 3)
  ret i8 %b
}"""
    )
    assert evaluate(f, [1, 1]) == 3
    assert evaluate(f, [200, 5]) == 205
    assert evaluate(f, [200, 100]) is POISON


def test_division_by_zero_is_ub() -> None:
    _m, f = _fn("define i4 @f(i4 %x, i4 %y) {\n  %d = udiv i4 %x, %y\n  ret i4 %d\n}")
    with pytest.raises(UB):
        evaluate(f, [3, 0])


def test_branches_and_phis() -> None:
    _m, f = _fn(
        """
define i4 @f(i4 %x) {
entry:
  %c = icmp slt i4 %x, 0
  br i1 %c, label %neg, label %done
neg:
  %n = sub i4 0, %x
  br label %done
done:
  %r = phi i4 [ %n, %neg ], [ %x, %entry ]
  ret i4 %r
}"""
    )
    assert evaluate(f, [0b1111]) == 1
    assert evaluate(f, [3]) == 3


def test_accepts_a_correct_rewrite() -> None:
    _m1, src = _fn("define i4 @f(i4 %x) {\n  %a = shl i4 %x, 1\n  ret i4 %a\n}")
    _m2, tgt = _fn("define i4 @f(i4 %x) {\n  %a = add i4 %x, %x\n  ret i4 %a\n}")
    assert assert_refines(src, tgt) == 16


def test_catches_a_wrong_rewrite() -> None:
    _m1, src = _fn("define i4 @f(i4 %x) {\n  %a = lshr i4 %x, 1\n  ret i4 %a\n}")
    _m2, tgt = _fn("define i4 @f(i4 %x) {\n  %a = ashr i4 %x, 1\n  ret i4 %a\n}")
    with pytest.raises(AssertionError, match="the original returns"):
        assert_refines(src, tgt)


def test_catches_added_poison_flag() -> None:
    _m1, src = _fn("define i4 @f(i4 %x, i4 %y) {\n  %a = add i4 %x, %y\n  ret i4 %a\n}")
    _m2, tgt = _fn("define i4 @f(i4 %x, i4 %y) {\n  %a = add nsw i4 %x, %y\n  ret i4 %a\n}")
    with pytest.raises(AssertionError):
        assert_refines(src, tgt)


def test_undef_in_target_is_not_a_value() -> None:
    _m1, src = _fn("define i4 @f(i4 %x) {\n  ret i4 %x\n}")
    _m2, tgt = _fn("define i4 @f(i4 %x) {\n  ret i4 undef\n}")
    with pytest.raises(AssertionError):
        assert_refines(src, tgt)


def test_vectors_lane_by_lane() -> None:
    _m1, src = _fn("define <2 x i2> @f(<2 x i2> %x) {\n  %a = mul <2 x i2> %x, <i2 1, i2 -1>\n  ret <2 x i2> %a\n}")
    _m2, tgt = _fn("define <2 x i2> @f(<2 x i2> %x) {\n  %a = sub <2 x i2> zeroinitializer, %x\n  ret <2 x i2> %a\n}")
    with pytest.raises(AssertionError):
        assert_refines(src, tgt)
    _m3, ok = _fn("define <2 x i2> @f(<2 x i2> %x) {\n  %n = sub <2 x i2> zeroinitializer, %x\n  %a = shufflevector <2 x i2> %x, <2 x i2> %n, <2 x i32> <i32 0, i32 3>\n  ret <2 x i2> %a\n}")
    assert assert_refines(src, ok) == 16
