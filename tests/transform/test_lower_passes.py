"""``lower-expect``, ``lower-atomic``, ``lower-invoke`` against opt-19 on small hand-made inputs."""

from __future__ import annotations

import pytest
from opt_oracle import assert_same_as_opt

EXPECT = """
define i32 @br(i64 %x) {
entry:
  %e = call i64 @llvm.expect.i64(i64 %x, i64 1)
  %c = icmp ne i64 %e, 0
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}

define i32 @sw(i32 %x) {
entry:
  %e = call i32 @llvm.expect.i32(i32 %x, i32 7)
  switch i32 %e, label %d [ i32 1, label %a
                            i32 7, label %b ]
a:
  ret i32 1
b:
  ret i32 2
d:
  ret i32 3
}

define i32 @sel(i1 %x, i32 %a, i32 %b) {
  %e = call i1 @llvm.expect.with.probability.i1(i1 %x, i1 false, double 0.8)
  %s = select i1 %e, i32 %a, i32 %b
  ret i32 %s
}

define i64 @phi(i1 %c, i64 %v) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  br label %m
m:
  %p = phi i64 [ 0, %l ], [ %v, %r ]
  %x = xor i64 %p, 1
  %e = call i64 @llvm.expect.i64(i64 %x, i64 1)
  ret i64 %e
}

declare i64 @llvm.expect.i64(i64, i64)
declare i32 @llvm.expect.i32(i32, i32)
declare i1 @llvm.expect.with.probability.i1(i1, i1, double)
"""

ATOMIC = """
define void @f(ptr %p, i32 %v, float %g, ptr %q) {
  fence seq_cst
  %a = atomicrmw add ptr %p, i32 %v monotonic
  %b = atomicrmw nand ptr %p, i32 %v seq_cst
  %c = atomicrmw umin ptr %p, i32 %v seq_cst
  %d = atomicrmw uinc_wrap ptr %p, i32 %v seq_cst
  %e = atomicrmw udec_wrap ptr %p, i32 %v seq_cst
  %f = atomicrmw fmax ptr %q, float %g seq_cst
  %h = cmpxchg ptr %p, i32 %a, i32 %b acq_rel monotonic
  %l = load atomic i32, ptr %p syncscope("singlethread") acquire, align 4
  store atomic i32 %l, ptr %p release, align 4
  ret void
}
"""

INVOKE = """
define i32 @f(i32 %x) personality ptr null {
entry:
  %r = invoke i32 @g(i32 %x) #0 [ "foo"(i32 1) ]
          to label %ok unwind label %bad
ok:
  %q = invoke fastcc i32 @h() to label %done unwind label %bad
done:
  ret i32 %q
bad:
  %p = phi i32 [ 1, %entry ], [ 2, %ok ]
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 %p
}
declare i32 @g(i32)
declare fastcc i32 @h()
attributes #0 = { nounwind }
"""


@pytest.mark.parametrize(
    "text, pipeline, options",
    [
        (EXPECT, "lower-expect", None),
        (EXPECT, "lower-expect", {"likely-branch-weight": 77, "unlikely-branch-weight": 3}),
        (ATOMIC, "lower-atomic", None),
        (INVOKE, "lower-invoke", None),
    ],
    ids=["expect", "expect-weights", "atomic", "invoke"],
)
def test_same_as_opt(text: str, pipeline: str, options: dict[str, object] | None) -> None:
    out = assert_same_as_opt(text, pipeline, options)
    assert "llvm.expect" not in out.split("declare")[0] or pipeline != "lower-expect"
