"""WidenIV (LLVM SimplifyIndVar.cpp createWideIV) through ``indvars``: small loops whose IV is
extended (sext/zext users, arithmetic and bitwise users, widened compares, add users only
extended, LCSSA phis, narrower extensions) compared with opt-19's ``-passes=indvars``; random
loops with extended IV users run with ``lli-19`` before and after (same output) and checked by
opt-19's verifier."""

from __future__ import annotations

import random
import subprocess

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from oracles import lli_output, require_tools

HEADER = """target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
declare void @use(i32)
declare void @use1(i1)
declare void @use64(i64)
"""

CASES = {
    "sext_gep_and_nsw_add_and_lcssa": """
define void @f(ptr %A, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %s
  store i32 %i, ptr %p
  %a = add nsw i32 %i, 3
  %as = sext i32 %a to i64
  %q = getelementptr inbounds i32, ptr %A, i64 %as
  store i32 0, ptr %q
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit.loopexit
exit.loopexit:
  %lc = phi i32 [ %i.next, %loop ]
  call void @use(i32 %lc)
  br label %exit
exit:
  ret void
}""",
    "zext_and_nuw_mul": """
define void @f(ptr %A, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %z = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %z
  %v = load i32, ptr %p
  %m = mul nuw i32 %i, 2
  %mz = zext i32 %m to i64
  %q = getelementptr inbounds i32, ptr %A, i64 %mz
  store i32 %v, ptr %q
  %i.next = add nuw i32 %i, 1
  %c = icmp ult i32 %i.next, 1000
  br i1 %c, label %loop, label %exit
exit:
  ret void
}""",
    "variant_sub_and_trunc_users": """
define i32 @f(ptr %A, i32 %n, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %s
  %v = load i32, ptr %p
  %t = sub nsw i32 %v, %i
  %ts = sext i32 %t to i64
  call void @use64(i64 %ts)
  %u = and i32 %i, 7
  call void @use(i32 %u)
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 500
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %i
}""",
    "udiv_user": """
define void @f(ptr %A) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %d = udiv i32 %i, 3
  %dz = zext i32 %d to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %dz
  store i32 1, ptr %p
  %z = zext i32 %i to i64
  call void @use64(i64 %z)
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, 300
  br i1 %c, label %loop, label %exit
exit:
  ret void
}""",
    "bitwise_users": """
define void @f(ptr %A, i32 %m) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = sext i32 %i to i64
  call void @use64(i64 %s)
  %a = and i32 %i, %m
  %as = sext i32 %a to i64
  call void @use64(i64 %as)
  %o = shl i32 %i, 2
  %os = sext i32 %o to i64
  call void @use64(i64 %os)
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  ret void
}""",
    "unsigned_compare": """
define void @f(ptr %A, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %z = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %z
  store i32 0, ptr %p
  %i.next = add nuw i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}""",
    "variant_add_with_compare": """
define void @f(ptr %A, ptr %B, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i32, ptr %B
  %a = add nsw i32 %i, %v
  %as = sext i32 %a to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %as
  store i32 0, ptr %p
  %cmp.a = icmp slt i32 %a, 77
  call void @use1(i1 %cmp.a)
  %s = sext i32 %i to i64
  call void @use64(i64 %s)
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 1000
  br i1 %c, label %loop, label %exit
exit:
  ret void
}""",
    "lcssa_phi_two_exits": """
define i32 @f(ptr %A, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %A, i64 %s
  %v = load i32, ptr %p
  %e = icmp eq i32 %v, 0
  br i1 %e, label %out, label %latch
latch:
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, 1000
  br i1 %c, label %loop, label %out
out:
  %r = phi i32 [ %i, %loop ], [ %i.next, %latch ]
  ret i32 %r
}""",
    "i16_extended_to_i32_and_i64": """
define void @f(ptr %A) {
entry:
  br label %loop
loop:
  %i = phi i16 [ 0, %entry ], [ %i.next, %loop ]
  %s = sext i16 %i to i32
  call void @use(i32 %s)
  %s2 = sext i16 %i to i64
  call void @use64(i64 %s2)
  %i.next = add nsw i16 %i, 1
  %c = icmp slt i16 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  ret void
}""",
}


def _strip(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename")))


def _opt19(text: str, pipeline: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, pipeline: str = "indvars") -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline)
    llvmpy_mid.verify_module(module)
    return print_module(module)


@pytest.mark.parametrize("name", sorted(CASES))
def test_widening_like_opt19(name: str) -> None:
    text = HEADER + CASES[name] + "\n"
    expected = _opt19(text, "indvars")
    got = _ours(text)
    assert "indvars.iv" in expected  # the case does widen
    assert _strip(got) == _strip(expected)


def test_wide_iv_info_defaults() -> None:
    from llvmpy_mid.transform.utils.simplify_indvar_widen import WideIVInfo

    wi = WideIVInfo()
    assert (wi.narrow_iv, wi.width_ty, wi.is_signed) == (None, None, False)


# --- random loops: same program output ----------------------------------------------------------

_USES = [
    "  %{n}.e = sext i32 {v} to i64\n  %{n}.p = getelementptr inbounds i32, ptr @buf, i64 %{n}.e\n"
    "  %{n}.l = load i32, ptr %{n}.p\n  %{n} = add i32 %{n}.l, 0",
    "  %{n}.e = zext i32 {v} to i64\n  %{n}.r = urem i64 %{n}.e, 64\n  %{n} = trunc i64 %{n}.r to i32",
    "  %{n} = add nsw i32 {v}, {c}",
    "  %{n} = sub nsw i32 {c}, {v}",
    "  %{n} = mul nsw i32 {v}, 3",
    "  %{n}.c = icmp slt i32 {v}, {c}\n  %{n} = zext i1 %{n}.c to i32",
    "  %{n}.c = icmp ult i32 {v}, {c}\n  %{n} = select i1 %{n}.c, i32 {v}, i32 7",
    "  %{n}.e = sext i32 {v} to i64\n  %{n}.m = mul i64 %{n}.e, 3\n  %{n} = trunc i64 %{n}.m to i32",
    "  %{n} = and i32 {v}, 255",
    "  %{n} = shl nsw i32 {v}, 1",
]


def _random_program(rng: random.Random) -> str:
    start = rng.choice([0, 1, 5, -3])
    step = rng.choice([1, 2, -1])
    trip = rng.randint(3, 40)
    end = start + step * trip
    pred = "slt" if step > 0 else "sgt"
    flags = rng.choice(["nsw", "nuw nsw"] if start >= 0 and step > 0 else ["nsw"])
    body: list[str] = []
    vals = ["%i"]
    for k in range(rng.randint(2, 6)):
        name = "u%d" % k
        body.append(rng.choice(_USES).format(n=name, v=rng.choice(vals), c=rng.randint(-20, 60)))
        vals.append("%" + name)
    acc = "%acc"
    for v in vals[1:]:
        body.append("  %%x%s = xor i32 %s, %s" % (v[1:], acc, v))
        body.append("  %%y%s = mul i32 %%x%s, 16777619" % (v[1:], v[1:]))
        acc = "%%y%s" % v[1:]
    return (
        'target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"\n'
        + """@fmt = private constant [7 x i8] c"%d %d\\0A\\00"
@buf = global [64 x i32] [i32 3, i32 1, i32 4, i32 1, i32 5, i32 9, i32 2, i32 6, i32 5, i32 3, i32 5, i32 8,"""
        + ", ".join("i32 %d" % (i * 7 % 13) for i in range(52))
        + """]
declare i32 @printf(ptr, ...)
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ """
        + str(start)
        + """, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
"""
        + "\n".join(body)
        + "\n  %%acc.next = add i32 %s, 1\n  %%i.next = add %s i32 %%i, %d\n  %%c = icmp %s i32 %%i.next, %d\n"
        % (acc, flags, step, pred, end)
        + """  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %acc.next, %loop ]
  %ri = phi i32 [ %i, %loop ]
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r, i32 %ri)
  ret i32 0
}
"""
    )


@pytest.mark.parametrize("seed", [s if s < 6 else pytest.param(s, marks=pytest.mark.slow) for s in range(16)])
def test_random_loops_keep_behaviour(seed: int) -> None:
    require_tools("lli-19", "opt-19")
    text = _random_program(random.Random(seed))
    _opt19(text, "verify")
    before = lli_output(text)
    got = _ours(text)
    _opt19(got, "verify")
    assert lli_output(got) == before
