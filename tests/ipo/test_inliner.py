"""``inline`` and ``inliner-wrapper`` against opt-19, byte for byte.

Small modules for the inliner's rules: cost under and over the threshold, the last
call to an internal function (deleted afterwards), ``noinline``/``alwaysinline``,
``optnone`` callers, interposable callees, recursion through the inline history,
inlining through a chain of callees bottom-up, mutually recursive SCCs, and the
``inline<only-mandatory>`` / ``inliner-wrapper`` variants; plus the remarks of
``-pass-remarks=inline``. The expected text is what opt-19 prints, made in the
test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, passes: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + passes, *flags, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return _body(r.stdout)


def _ours(text: str, passes: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, passes, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return _body(print_module(module))


CASES = {
    "small_and_big_callees": """
define internal i32 @small(i32 %a) {
  %b = add i32 %a, 1
  ret i32 %b
}
define i32 @big(i32 %a) {
  %b1 = mul i32 %a, %a
  %b2 = mul i32 %b1, %a
  %b3 = mul i32 %b2, %a
  %b4 = mul i32 %b3, %a
  %b5 = mul i32 %b4, %a
  %b6 = mul i32 %b5, %a
  %b7 = mul i32 %b6, %a
  %b8 = mul i32 %b7, %a
  %b9 = mul i32 %b8, %a
  %c1 = udiv i32 %b9, %a
  %c2 = udiv i32 %c1, %b1
  %c3 = udiv i32 %c2, %b2
  %c4 = udiv i32 %c3, %b3
  ret i32 %c4
}
define i32 @caller(i32 %x) {
  %r1 = call i32 @small(i32 %x)
  %r2 = call i32 @big(i32 %r1)
  %r3 = call i32 @big(i32 %r2)
  %r4 = call i32 @big(i32 7)
  ret i32 %r3
}
""",
    "attributes": """
define i32 @ni(i32 %a) noinline {
  ret i32 %a
}
define weak i32 @weak(i32 %a) {
  ret i32 %a
}
define i32 @ai(i32 %a) alwaysinline {
  %b = add i32 %a, 2
  ret i32 %b
}
define i32 @plain(i32 %a) {
  %b = add i32 %a, 3
  ret i32 %b
}
define i32 @caller(i32 %x) {
  %r1 = call i32 @ni(i32 %x)
  %r2 = call i32 @weak(i32 %r1)
  %r3 = call i32 @ai(i32 %r2)
  %r4 = call i32 @plain(i32 %r3) noinline
  ret i32 %r4
}
define i32 @opt(i32 %x) noinline optnone {
  %r = call i32 @plain(i32 %x)
  ret i32 %r
}
""",
    "chain_and_recursion": """
define internal i32 @leaf(i32 %a) {
  %b = shl i32 %a, 1
  ret i32 %b
}
define internal i32 @mid(i32 %a) {
  %b = call i32 @leaf(i32 %a)
  %c = call i32 @leaf(i32 %b)
  ret i32 %c
}
define i32 @top(i32 %a) {
  %b = call i32 @mid(i32 %a)
  ret i32 %b
}
define i32 @even(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %yes, label %no
yes:
  ret i32 1
no:
  %m = sub i32 %n, 1
  %r = call i32 @odd(i32 %m)
  ret i32 %r
}
define i32 @odd(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %yes, label %no
yes:
  ret i32 0
no:
  %m = sub i32 %n, 1
  %r = call i32 @even(i32 %m)
  ret i32 %r
}
define i32 @self(i32 %n) {
  %r = call i32 @self(i32 %n)
  ret i32 %r
}
""",
    "virtual_call_promoted": """
@vtable = constant { [3 x ptr] } { [3 x ptr] [ptr null, ptr @vf1, ptr @vf2] }
define internal i32 @vf1(ptr %this) {
  ret i32 1
}
define internal i32 @vf2(ptr %this) {
  ret i32 2
}
define internal i32 @dispatch(ptr %o) {
  %vt = load ptr, ptr %o
  %slot = getelementptr inbounds ptr, ptr %vt, i64 2
  %f = load ptr, ptr %slot
  %r = call i32 %f(ptr %o)
  ret i32 %r
}
define i32 @test() {
  %a = alloca ptr
  store ptr getelementptr inbounds ({ [3 x ptr] }, ptr @vtable, i64 0, i32 0, i64 0), ptr %a
  %r = call i32 @dispatch(ptr %a)
  ret i32 %r
}
""",
}


@pytest.mark.parametrize("passes", ["inline", "cgscc(inline<only-mandatory>)", "inliner-wrapper", "module-inline"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_inliner_matches_opt19(name: str, passes: str) -> None:
    text = CASES[name]
    assert _ours(text, passes) == _opt19(text, passes)


def test_inline_threshold_option() -> None:
    text = CASES["small_and_big_callees"]
    assert _ours(text, "inline", {"inline-threshold": 500}) == _opt19(text, "inline", "-inline-threshold=500")
    assert _ours(text, "inline", {"inline-threshold": -100}) == _opt19(text, "inline", "-inline-threshold=-100")
