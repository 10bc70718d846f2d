"""``lower-constant-intrinsics`` against opt-19: ``llvm.objectsize`` of allocas, arrays, globals,
byval arguments, GEP offsets (in and past the object), allocation calls (``allocsize``, C++ new),
phis and selects under min/max, null with each flag, dynamic sizes (VLA, variable malloc);
``llvm.is.constant`` of constants, globals and values, with the branches it decides folded."""

from __future__ import annotations

import pytest
from opt_oracle import assert_same_as_opt

HEAD = """
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)
declare i32 @llvm.objectsize.i32.p0(ptr, i1, i1, i1)
declare i1 @llvm.is.constant.i32(i32)
declare i1 @llvm.is.constant.p0(ptr)
declare ptr @malloc(i64) allocsize(0)
declare ptr @calloc(i64, i64) allocsize(0, 1)
declare ptr @_Znwm(i64)
@g = global [10 x i32] zeroinitializer
@w = weak global i64 0
@ext = external global [4 x i8]
"""

CASES: dict[str, str] = {
    "static": """
define void @f(i1 %c, ptr byval([42 x i8]) %bv, i32 %n) {
  %a = alloca [7 x i16]
  %arr = alloca i32, i32 5
  %p = getelementptr i8, ptr %a, i64 3
  %q = getelementptr i8, ptr %a, i64 100
  %r = getelementptr i8, ptr %a, i64 -2
  %s1 = call i64 @llvm.objectsize.i64.p0(ptr %a, i1 false, i1 false, i1 false)
  %s2 = call i64 @llvm.objectsize.i64.p0(ptr %arr, i1 false, i1 false, i1 false)
  %s3 = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 true, i1 false, i1 false)
  %s4 = call i64 @llvm.objectsize.i64.p0(ptr %q, i1 false, i1 false, i1 false)
  %s5 = call i64 @llvm.objectsize.i64.p0(ptr %r, i1 false, i1 false, i1 false)
  %s6 = call i64 @llvm.objectsize.i64.p0(ptr @g, i1 false, i1 false, i1 false)
  %s7 = call i64 @llvm.objectsize.i64.p0(ptr @w, i1 false, i1 false, i1 false)
  %s8 = call i64 @llvm.objectsize.i64.p0(ptr @w, i1 true, i1 false, i1 false)
  %s9 = call i64 @llvm.objectsize.i64.p0(ptr @ext, i1 true, i1 false, i1 false)
  %s10 = call i64 @llvm.objectsize.i64.p0(ptr %bv, i1 false, i1 false, i1 false)
  %s11 = call i64 @llvm.objectsize.i64.p0(ptr null, i1 false, i1 false, i1 false)
  %s12 = call i64 @llvm.objectsize.i64.p0(ptr null, i1 false, i1 true, i1 false)
  %m = call ptr @malloc(i64 24)
  %s13 = call i32 @llvm.objectsize.i32.p0(ptr %m, i1 false, i1 false, i1 false)
  %cm = call ptr @calloc(i64 3, i64 8)
  %s14 = call i64 @llvm.objectsize.i64.p0(ptr %cm, i1 false, i1 false, i1 false)
  %nw = call ptr @_Znwm(i64 40)
  %s15 = call i64 @llvm.objectsize.i64.p0(ptr %nw, i1 false, i1 false, i1 false)
  %sel = select i1 %c, ptr %a, ptr %arr
  %s16 = call i64 @llvm.objectsize.i64.p0(ptr %sel, i1 false, i1 false, i1 false)
  %s17 = call i64 @llvm.objectsize.i64.p0(ptr %sel, i1 true, i1 false, i1 false)
  %vm = call ptr @malloc(i64 %s1)
  %s18 = call i64 @llvm.objectsize.i64.p0(ptr %vm, i1 false, i1 false, i1 false)
  call void @use(i64 %s1, i64 %s2, i64 %s3, i64 %s4, i64 %s5, i64 %s6, i64 %s7, i64 %s8, i64 %s9)
  call void @use(i64 %s10, i64 %s11, i64 %s12, i64 %s14, i64 %s15, i64 %s16, i64 %s17, i64 %s18, i64 0)
  call void @use32(i32 %s13)
  ret void
}
declare void @use(i64, i64, i64, i64, i64, i64, i64, i64, i64)
declare void @use32(i32)
""",
    "phi_min_max": """
define i64 @f(i1 %c) {
entry:
  %a = alloca [8 x i8]
  %b = alloca [20 x i8]
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  %b4 = getelementptr i8, ptr %b, i64 4
  br label %m
m:
  %p = phi ptr [ %a, %l ], [ %b4, %r ]
  %x = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 false, i1 false, i1 false)
  %y = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 true, i1 false, i1 false)
  %z = add i64 %x, %y
  ret i64 %z
}
""",
    "dynamic": """
define i64 @f(i32 %n, i64 %k) {
  %v = alloca i16, i32 %n
  %g = getelementptr i8, ptr %v, i64 6
  %s1 = call i64 @llvm.objectsize.i64.p0(ptr %g, i1 false, i1 true, i1 true)
  %m = call ptr @calloc(i64 %k, i64 4)
  %s2 = call i64 @llvm.objectsize.i64.p0(ptr %m, i1 false, i1 true, i1 true)
  %a = alloca [3 x i64]
  %s3 = call i64 @llvm.objectsize.i64.p0(ptr %a, i1 false, i1 true, i1 true)
  %t = add i64 %s1, %s2
  %u = add i64 %t, %s3
  ret i64 %u
}
""",
    "is_constant": """
define i32 @f(i32 %x) {
entry:
  %c1 = call i1 @llvm.is.constant.i32(i32 7)
  %c2 = call i1 @llvm.is.constant.i32(i32 %x)
  %c3 = call i1 @llvm.is.constant.p0(ptr @g)
  %c4 = call i1 @llvm.is.constant.i32(i32 add (i32 1, i32 2))
  %both = and i1 %c1, %c4
  br i1 %both, label %yes, label %no
yes:
  br i1 %c2, label %dead, label %done
dead:
  ret i32 1
no:
  ret i32 2
done:
  %r = zext i1 %c3 to i32
  ret i32 %r
}
""",
    "dead_blocks_and_noreturn": """
declare void @abort() noreturn
define i32 @f(i32 %x, i1 %c) {
entry:
  %k = call i1 @llvm.is.constant.i32(i32 %x)
  br i1 %k, label %gone, label %live
gone:
  br label %exit
live:
  br i1 %c, label %stop, label %exit
stop:
  call void @abort()
  br label %exit
exit:
  %p = phi i32 [ 1, %gone ], [ 2, %live ], [ 3, %stop ]
  ret i32 %p
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_opt(name: str) -> None:
    out = assert_same_as_opt(HEAD + CASES[name], "lower-constant-intrinsics")
    body = out.split("define", 1)[1]
    assert "call i64 @llvm.objectsize" not in body and "call i1 @llvm.is.constant" not in body
