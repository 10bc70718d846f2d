"""Capture tracking (LLVM CaptureTracking.cpp): use kinds, the walk, custom trackers."""

from __future__ import annotations

from llvmpy_mid import parse_assembly
from llvmpy_mid.analysis.capture_tracking import (
    CaptureTracker,
    UseCaptureKind,
    determine_use_capture_kind,
    pointer_may_be_captured,
    pointer_may_be_captured_by,
)
from llvmpy_mid.ir.value import Use, Value

TEXT = """
@g = global ptr null
declare void @nocap(ptr nocapture)
declare void @cap(ptr)
declare void @ro(ptr) readonly nounwind
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define ptr @f(i1 %c, ptr %other) {
  %quiet = alloca i32
  store i32 1, ptr %quiet
  %l = load i32, ptr %quiet
  call void @nocap(ptr %quiet)
  call void @ro(ptr %quiet)
  call void @llvm.memset.p0.i64(ptr %quiet, i8 0, i64 4, i1 false)

  %stored = alloca i32
  store ptr %stored, ptr @g

  %viagep = alloca [2 x i32]
  %gep = getelementptr inbounds [2 x i32], ptr %viagep, i64 0, i64 1
  %sel = select i1 %c, ptr %gep, ptr %other
  call void @cap(ptr %sel)

  %vol = alloca i32
  call void @llvm.memset.p0.i64(ptr %vol, i8 0, i64 4, i1 true)

  %cmp = alloca i32
  %eq = icmp eq ptr %cmp, %other
  %eqnull = icmp eq ptr %cmp, null

  %ret = alloca i32
  ret ptr %ret
}
"""


def _values():  # type: ignore[no-untyped-def]
    m = parse_assembly(TEXT)
    fn = m.get_function("f")
    assert fn is not None
    return {i.name: i for bb in fn.blocks for i in bb.instructions if i.name}


def test_loads_stores_to_and_nocapture_calls_do_not_capture() -> None:
    v = _values()
    assert not pointer_may_be_captured(v["quiet"])


def test_storing_the_pointer_captures() -> None:
    v = _values()
    assert pointer_may_be_captured(v["stored"])


def test_capture_through_gep_and_select() -> None:
    v = _values()
    assert pointer_may_be_captured(v["viagep"])
    kinds = {u.user.name: determine_use_capture_kind(u) for u in v["gep"].uses}
    assert kinds == {"sel": UseCaptureKind.PASSTHROUGH}


def test_volatile_mem_intrinsic_captures() -> None:
    v = _values()
    assert pointer_may_be_captured(v["vol"])


def test_compare_with_a_value_captures_but_null_of_dereferenceable_does_not() -> None:
    v = _values()
    assert pointer_may_be_captured(v["cmp"])
    kinds = {u.user.name: determine_use_capture_kind(u, CaptureTracker()) for u in v["cmp"].uses}
    assert kinds == {"eq": UseCaptureKind.MAY_CAPTURE, "eqnull": UseCaptureKind.NO_CAPTURE}


def test_return_captures_only_when_asked() -> None:
    v = _values()
    assert not pointer_may_be_captured(v["ret"], return_captures=False)
    assert pointer_may_be_captured(v["ret"], return_captures=True)


class _Collect(CaptureTracker):
    def __init__(self) -> None:
        self.seen: list[Value] = []
        self.gave_up = False

    def too_many_uses(self) -> None:
        self.gave_up = True

    def captured(self, use: Use) -> bool:
        self.seen.append(use.user)
        return False  # keep walking


def test_custom_tracker_sees_every_capturing_use() -> None:
    v = _values()
    t = _Collect()
    pointer_may_be_captured_by(v["cmp"], t)
    assert sorted(u.name for u in t.seen) == ["eq"]
    assert not t.gave_up


def test_too_many_uses_gives_up() -> None:
    body = "\n".join("  store i32 %d, ptr %%a" % k for k in range(120))
    m = parse_assembly("define void @h() {\n  %a = alloca i32\n" + body + "\n  ret void\n}\n")
    fn = m.get_function("h")
    assert fn is not None
    a = next(iter(fn.blocks)).instructions.first
    assert a is not None
    t = _Collect()
    pointer_may_be_captured_by(a, t)
    assert t.gave_up
    assert pointer_may_be_captured(a)  # the simple tracker counts giving up as a capture
    assert not pointer_may_be_captured(a, max_uses_to_explore=200)
