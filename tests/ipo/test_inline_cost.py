"""The inline cost model against opt-19's ``print<inline-cost>``, byte for byte.

Each module has calls whose callee exercises one rule of LLVM's cost analysis:
constant arguments folding instructions and branches (dead blocks), switches on
constants and variables (case clusters, unreachable defaults), SROA-able allocas
passed by pointer (savings given back on an escaping use), repeated loads,
pointer compares and differences of one base, selects, ``llvm.is.constant``,
the last call to a local function, ``inlinehint``/``minsize``/``optsize``/``cold``
attributes, coldcc, vector bonuses, recursion and dynamic allocas, and the
``function-inline-*`` call-site attributes. The expected text is what opt-19
prints, made in the test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _opt19(text: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(
        ["opt-19", "-passes=print<inline-cost>", *flags, "-disable-output", "-"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stderr


def _ours(text: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        llvmpy_mid.run_passes(module, "print<inline-cost>", options=options)  # type: ignore[arg-type]
    return err.getvalue()


CASES = {
    "constant_args_fold_branches": """
define i32 @callee(i32 %a, i32 %b) {
entry:
  %c = icmp sgt i32 %a, 10
  br i1 %c, label %big, label %small
big:
  %m = mul i32 %b, %b
  %n = add i32 %m, %a
  br label %exit
small:
  %s = sub i32 %b, %a
  br label %exit
exit:
  %p = phi i32 [ %n, %big ], [ %s, %small ]
  ret i32 %p
}
define i32 @caller(i32 %x) {
  %r1 = call i32 @callee(i32 20, i32 %x)
  %r2 = call i32 @callee(i32 %x, i32 3)
  %r3 = call i32 @callee(i32 1, i32 2)
  ret i32 %r1
}
""",
    "switches": """
define i32 @sw(i32 %a) {
entry:
  switch i32 %a, label %d [
    i32 1, label %b1
    i32 2, label %b2
    i32 3, label %b3
    i32 4, label %b4
    i32 7, label %b1
  ]
b1:
  ret i32 1
b2:
  ret i32 2
b3:
  ret i32 3
b4:
  ret i32 4
d:
  ret i32 0
}
define i32 @swu(i32 %a) {
entry:
  switch i32 %a, label %d [
    i32 1, label %b1
    i32 2, label %b2
  ]
b1:
  ret i32 1
b2:
  ret i32 2
d:
  unreachable
}
define i32 @caller(i32 %x) {
  %r1 = call i32 @sw(i32 %x)
  %r2 = call i32 @sw(i32 3)
  %r3 = call i32 @swu(i32 %x)
  ret i32 %r1
}
""",
    "sroa_and_loads": """
declare void @escape(ptr)
define i32 @callee(ptr %p, ptr %q) {
  %a = load i32, ptr %p
  %g = getelementptr inbounds i32, ptr %p, i64 1
  %b = load i32, ptr %g
  %c = load i32, ptr %q
  %d = load i32, ptr %q
  %cmp = icmp eq ptr %p, null
  %diff1 = ptrtoint ptr %g to i64
  %diff2 = ptrtoint ptr %p to i64
  %diff = sub i64 %diff1, %diff2
  %t = trunc i64 %diff to i32
  %pc = icmp ult ptr %p, %g
  %sel = select i1 %pc, i32 %a, i32 %b
  store i32 %sel, ptr %p
  %s = add i32 %a, %b
  %s2 = add i32 %s, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %t
  ret i32 %s4
}
define i32 @callee2(ptr %p) {
  store i32 1, ptr %p
  call void @escape(ptr %p)
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @caller(ptr %x) {
  %a = alloca [4 x i32]
  %r1 = call i32 @callee(ptr %a, ptr %x)
  %r2 = call i32 @callee(ptr %x, ptr %x)
  %r3 = call i32 @callee2(ptr %a)
  ret i32 %r1
}
""",
    "attributes_and_bonuses": """
define internal i32 @once(i32 %a) {
  %b = mul i32 %a, %a
  ret i32 %b
}
define i32 @hint(i32 %a) inlinehint {
  %b = mul i32 %a, %a
  ret i32 %b
}
define i32 @coldfn(i32 %a) cold {
  %b = mul i32 %a, %a
  ret i32 %b
}
define coldcc i32 @ccold(i32 %a) {
  %b = mul i32 %a, %a
  ret i32 %b
}
define <4 x i32> @vec(<4 x i32> %a) {
  %b = mul <4 x i32> %a, %a
  %c = add <4 x i32> %b, %a
  ret <4 x i32> %c
}
define i32 @caller(i32 %x, <4 x i32> %v) {
  %r1 = call i32 @once(i32 %x)
  %r2 = call i32 @hint(i32 %x)
  %r3 = call i32 @coldfn(i32 %x)
  %r4 = call i32 @ccold(i32 %x)
  %r5 = call <4 x i32> @vec(<4 x i32> %v)
  %r6 = call i32 @hint(i32 %x) "function-inline-cost"="7" "function-inline-threshold"="3"
  %r7 = call i32 @hint(i32 %x) "call-threshold-bonus"="100" "function-inline-cost-multiplier"="4"
  ret i32 %r1
}
define i32 @small(i32 %x) minsize {
  %r = call i32 @hint(i32 %x)
  ret i32 %r
}
define i32 @opt(i32 %x) optsize {
  %r = call i32 @hint(i32 %x)
  ret i32 %r
}
""",
    "cold_call_site_and_unreachable": """
declare void @abort() noreturn
define i32 @callee(i32 %a) {
  %b = mul i32 %a, %a
  %c = add i32 %b, 3
  ret i32 %c
}
define i32 @caller(i32 %x, i1 %c) {
entry:
  br i1 %c, label %rare, label %common, !prof !0
rare:
  %r1 = call i32 @callee(i32 %x)
  ret i32 %r1
common:
  %r2 = call i32 @callee(i32 %x)
  br label %dead
dead:
  %r3 = call i32 @callee(i32 %r2)
  call void @abort()
  unreachable
}
!0 = !{!"branch_weights", i32 1, i32 1000}
""",
    "patterns_that_stop": """
declare i32 @setjmp(ptr) returns_twice
define i32 @rec(i32 %a) {
  %b = call i32 @rec(i32 %a)
  ret i32 %b
}
define i32 @dyn(i32 %n) {
  %p = alloca i32, i32 %n
  store i32 0, ptr %p
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @rt(ptr %b) {
  %v = call i32 @setjmp(ptr %b)
  ret i32 %v
}
define i32 @isc(i32 %a) {
  %k = call i1 @llvm.is.constant.i32(i32 %a)
  br i1 %k, label %t, label %f
t:
  ret i32 1
f:
  %m = mul i32 %a, %a
  ret i32 %m
}
declare i1 @llvm.is.constant.i32(i32)
define i32 @caller(i32 %x, ptr %b) {
  %r1 = call i32 @rec(i32 %x)
  %r2 = call i32 @dyn(i32 %x)
  %r3 = call i32 @dyn(i32 4)
  %r4 = call i32 @rt(ptr %b)
  %r5 = call i32 @isc(i32 5)
  %r6 = call i32 @isc(i32 %x)
  ret i32 %r1
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_inline_cost_matches_opt19(name: str) -> None:
    text = CASES[name]
    assert _ours(text) == _opt19(text)


@pytest.mark.parametrize(
    "options, flags",
    [
        ({"inline-threshold": 50}, ("-inline-threshold=50",)),
        ({"inline-instr-cost": 3, "inline-call-penalty": 10}, ("-inline-instr-cost=3", "-inline-call-penalty=10")),
        ({"inlinehint-threshold": 1000}, ("-inlinehint-threshold=1000",)),
        ({"inline-cold-callsite-threshold": 0}, ("-inline-cold-callsite-threshold=0",)),
    ],
)
def test_inline_cost_options(options: dict[str, object], flags: tuple[str, ...]) -> None:
    text = CASES["attributes_and_bonuses"] + CASES["cold_call_site_and_unreachable"].replace("@callee", "@callee_c").replace(
        "@caller", "@caller_c"
    ).replace("declare void @abort() noreturn", "declare void @abort() noreturn\n")
    assert _ours(text, options) == _opt19(text, *flags)
