"""Stack safety (``print<stack-safety-local>``, ``print-stack-safety``) and stack lifetime
(``print<stack-lifetime><may|must>``) compared with opt-19 on small modules: GEP offsets
(constant, scaled, struct fields), memory intrinsics with variable lengths, byval calls,
``returned`` arguments, a loop that compares pointers, dead allocas, the interprocedural
fixed point through recursion and aliases; and properties that need no oracle."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.stack_safety_local import union_no_wrap

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

LOCAL = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
%S = type { i32, i8, i64 }
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare ptr @ret(ptr returned)
declare void @take_byval(ptr byval(i64))
declare void @ext(ptr)

define void @offsets(i32 %i, i64 %n, i1 %c) {
entry:
  %a = alloca [10 x i32], align 4
  %s = alloca %S, align 8
  %b = alloca i64, align 8
  %t = alloca i64, align 8
  %t4 = getelementptr i8, ptr %t, i64 4
  %g1 = getelementptr inbounds [10 x i32], ptr %a, i64 0, i64 3
  store i32 1, ptr %g1, align 4
  %j = and i32 %i, 7
  %js = sext i32 %j to i64
  %g2 = getelementptr inbounds i32, ptr %a, i64 %js
  %v = load i32, ptr %g2, align 4
  %f2 = getelementptr inbounds %S, ptr %s, i32 0, i32 2
  store i64 0, ptr %f2, align 8
  %m = and i64 %n, 15
  call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 %m, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %g1, i64 8, i1 false)
  %r = call ptr @ret(ptr %b)
  %r4 = getelementptr i8, ptr %r, i64 4
  store i32 0, ptr %r4, align 4
  call void @take_byval(ptr byval(i64) %b)
  %sel = select i1 %c, ptr %t, ptr %t4
  %w = load i8, ptr %sel, align 1
  ret void
}

define i8 @loop() {
entry:
  %x = alloca [10 x i8], align 1
  %end = getelementptr inbounds [10 x i8], ptr %x, i64 0, i64 10
  br label %body
body:
  %p = phi ptr [ %x, %entry ], [ %next, %body ]
  %next = getelementptr inbounds i8, ptr %p, i64 1
  %l = load volatile i8, ptr %p, align 1
  %done = icmp eq ptr %next, %end
  br i1 %done, label %exit, label %body
exit:
  ret i8 %l
}

define void @dead(i1 %c) {
entry:
  %x = alloca i32, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %x)
  store i32 1, ptr %x, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %x)
  br i1 %c, label %then, label %exit
then:
  store i32 2, ptr %x, align 4
  br label %exit
exit:
  call void @ext(ptr %x)
  ret void
}
"""

IPA = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
declare void @unknown(ptr)

define dso_local void @write4(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}

define dso_local void @write_at(ptr %p, i64 %k) {
  %k3 = and i64 %k, 3
  %q = getelementptr i8, ptr %p, i64 %k3
  call void @write4(ptr %q)
  ret void
}

define dso_local void @rec(ptr %p, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more
more:
  %q = getelementptr i8, ptr %p, i64 1
  %m = sub i32 %n, 1
  call void @rec(ptr %q, i32 %m)
  br label %done
done:
  store i8 0, ptr %p, align 1
  ret void
}

@alias = dso_local alias void (ptr), ptr @write4
define weak void @weak_write(ptr %p) {
  store i8 0, ptr %p, align 1
  ret void
}

define void @caller() {
  %a = alloca [8 x i8], align 4
  %b = alloca [4 x i8], align 4
  %c = alloca [4 x i8], align 4
  %d = alloca [4 x i8], align 4
  %e = alloca [4 x i8], align 4
  call void @write_at(ptr %a, i64 5)
  call void @alias(ptr %b)
  call void @rec(ptr %c, i32 3)
  call void @weak_write(ptr %d)
  call void @unknown(ptr %e)
  ret void
}
"""

LIFETIME = """
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @use(ptr)

define void @f(i1 %c, i1 %d) {
entry:
  %x = alloca i32, align 4
  %y = alloca i64, align 8
  %z = alloca i8, align 1
  call void @llvm.lifetime.start.p0(i64 -1, ptr %x)
  br i1 %c, label %a, label %b
a:
  call void @llvm.lifetime.start.p0(i64 8, ptr %y)
  call void @use(ptr %y)
  call void @llvm.lifetime.end.p0(i64 -1, ptr %x)
  br label %join
b:
  call void @use(ptr %x)
  br label %join
join:
  call void @use(ptr %z)
  br i1 %d, label %loop, label %exit
loop:
  call void @llvm.lifetime.end.p0(i64 8, ptr %y)
  call void @llvm.lifetime.start.p0(i64 4, ptr %x)
  br i1 %c, label %loop, label %exit
exit:
  ret void
dead:
  call void @use(ptr %x)
  br label %exit
}
"""


def _run(tool: list[str], src: Path, pipeline: str, extra: tuple[str, ...] = ()) -> str:
    r = subprocess.run([*tool, "-passes=" + pipeline, "-disable-output", str(src), *extra], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr


def _both(text: str, pipeline: str, tmp_path: Path, extra: tuple[str, ...] = ()) -> str:
    src = tmp_path / "m.ll"
    src.write_text(text)
    theirs = _run([str(OPT)], src, pipeline, extra)
    ours = _run([sys.executable, "-m", "llvmpy_mid"], src, pipeline, extra)
    assert ours == theirs
    return ours


@needs_opt
@pytest.mark.parametrize("pipeline", ["print<stack-safety-local>", "print-stack-safety"])
def test_local_ranges_like_opt19(pipeline: str, tmp_path: Path) -> None:
    out = _both(LOCAL, pipeline, tmp_path)
    assert "x[10]: [0,10)" in out  # the loop's recurrence is bounded by its pointer compare
    assert "a[40]: [0,32)" in out  # constant, struct and scaled variable offsets
    assert "full-set" in out  # the dead alloca's late store


@needs_opt
@pytest.mark.parametrize("extra", [(), ("-stack-safety-max-iterations=0",)])
def test_interprocedural_fixed_point_like_opt19(extra: tuple[str, ...], tmp_path: Path) -> None:
    out = _both(IPA, "print-stack-safety", tmp_path, extra)
    caller = out.split("@caller")[1]
    assert "e[4]: full-set" in caller  # passed to an unknown function


@needs_opt
@pytest.mark.parametrize("kind", ["may", "must"])
def test_stack_lifetime_like_opt19(kind: str, tmp_path: Path) -> None:
    _both(LIFETIME, "print<stack-lifetime><%s>" % kind, tmp_path)


def _alive_sets(kind: str) -> list[set[str]]:
    from llvmpy_mid.analysis.stack_lifetime import StackLifetime
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.ir.instructions.memory import AllocaInst

    m = parse_assembly(LIFETIME)
    fn = m.get_function("f")
    assert fn is not None
    insts = [i for bb in fn.blocks for i in bb.instructions]
    allocas = [i for i in insts if isinstance(i, AllocaInst)]
    sl = StackLifetime(fn, allocas, kind)
    sl.run()
    return [{a.name for a in allocas if sl.is_alive_after(a, i)} for i in insts if sl.is_reachable(i)]


def test_must_alive_is_within_may_alive() -> None:
    may, must = _alive_sets("may"), _alive_sets("must")
    assert len(may) == len(must)
    assert all(b <= a for a, b in zip(may, must))
    assert any(b < a for a, b in zip(may, must))  # the join after the diamond differs


def test_union_no_wrap_never_sign_wraps() -> None:
    rng = random.Random(7)
    w = 8
    for _ in range(500):
        rs = []
        for _ in range(2):
            lo = rng.randrange(-128, 127)
            hi = rng.randrange(lo + 1, 128)
            rs.append(ConstantRange(w, lo, hi))
        u = union_no_wrap(rs[0], rs[1])
        assert not u.is_sign_wrapped_set()
        assert u.contains_range(rs[0]) and u.contains_range(rs[1])
