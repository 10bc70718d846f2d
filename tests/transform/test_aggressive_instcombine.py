"""``aggressive-instcombine``: each rule fires as in opt-19 (same printed module) and the
result refines the original (exhaustive evaluation on small widths); LLVM's own tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "instcombine"))

from refinement import check_refines  # noqa: E402

from llvmpy_mid import parse_assembly, print_module, run_passes  # noqa: E402
from oracles import require_llvm_tests, require_tools  # noqa: E402


def body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename")))


def opt19(text: str, *options: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(
        ["opt-19", "-passes=aggressive-instcombine", *options, "-S", "-"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def ours(text: str, options: dict[str, object] | None = None) -> str:
    m = parse_assembly(text)
    run_passes(m, "aggressive-instcombine", options=options)  # type: ignore[arg-type]
    return print_module(m)


def assert_fires_like_opt(text: str, marker: str) -> str:
    """opt-19 and we print the same module, and it contains ``marker`` (the rule fired)."""
    got = ours(text)
    assert body(got) == body(opt19(text))
    assert marker in got, got
    return got


TRUNC = """
define i8 @f(i8 %a, i8 %b) {
  %x = zext i8 %a to i32
  %y = zext i8 %b to i32
  %s = add i32 %x, %y
  %m = mul i32 %s, %x
  %sh = lshr i32 %m, 1
  %t = trunc i32 %sh to i8
  ret i8 %t
}
define i4 @g(i4 %a, i1 %c) {
  %x = sext i4 %a to i16
  %y = select i1 %c, i16 %x, i16 7
  %z = xor i16 %y, 5
  %t = trunc i16 %z to i4
  ret i4 %t
}
"""


def test_trunc_expression_graph() -> None:
    out = assert_fires_like_opt(TRUNC, "xor i4")
    assert "mul i32" in out  # @f: the lshr needs all 32 bits of the product, nothing shrinks
    check_refines(TRUNC, "aggressive-instcombine")


ROTATE = """
define i8 @rotl(i8 %a, i8 %b) {
entry:
  %cmp = icmp eq i8 %b, 0
  br i1 %cmp, label %end, label %rotbb
rotbb:
  %sub = sub i8 8, %b
  %shr = lshr i8 %a, %sub
  %shl = shl i8 %a, %b
  %or = or i8 %shr, %shl
  br label %end
end:
  %cond = phi i8 [ %or, %rotbb ], [ %a, %entry ]
  ret i8 %cond
}
define i8 @fshr(i8 %a, i8 %b, i8 %c) {
entry:
  %cmp = icmp eq i8 %c, 0
  br i1 %cmp, label %end, label %fbb
fbb:
  %sub = sub i8 8, %c
  %shl = shl i8 %a, %sub
  %shr = lshr i8 %b, %c
  %or = or i8 %shl, %shr
  br label %end
end:
  %cond = phi i8 [ %or, %fbb ], [ %b, %entry ]
  ret i8 %cond
}
"""


def test_guarded_rotate_and_funnel_shift() -> None:
    out = assert_fires_like_opt(ROTATE, "@llvm.fshl.i8(i8 %a, i8 %a, i8 %b)")
    assert "@llvm.fshr.i8(i8 %a.fr, i8 %b, i8 %c)" in out or "freeze i8 %a" in out
    check_refines(ROTATE, "aggressive-instcombine")


BITS = """
define i8 @all(i8 %x) {
  %a = lshr i8 %x, 2
  %b = lshr i8 %x, 5
  %c = and i8 %a, %b
  %d = and i8 %c, 1
  ret i8 %d
}
define i8 @any(i8 %x) {
  %a = lshr i8 %x, 1
  %b = lshr i8 %x, 7
  %c = or i8 %a, %b
  %d = or i8 %c, %x
  %e = and i8 %d, 1
  ret i8 %e
}
"""


def test_any_or_all_bits_set() -> None:
    out = assert_fires_like_opt(BITS, "and i8 %x, 36")
    assert "and i8 %x, -125" in out
    check_refines(BITS, "aggressive-instcombine")


POPCOUNT = """
define i16 @popcount16(i16 %x) {
  %1 = lshr i16 %x, 1
  %2 = and i16 %1, 21845
  %3 = sub i16 %x, %2
  %4 = and i16 %3, 13107
  %5 = lshr i16 %3, 2
  %6 = and i16 %5, 13107
  %7 = add i16 %6, %4
  %8 = lshr i16 %7, 4
  %9 = add i16 %8, %7
  %10 = and i16 %9, 3855
  %11 = mul i16 %10, 257
  %12 = lshr i16 %11, 8
  ret i16 %12
}
"""


def test_popcount() -> None:
    assert_fires_like_opt(POPCOUNT, "@llvm.ctpop.i16(i16 %x)")


def test_options() -> None:
    """-strncmp-inline-threshold and -memchr-inline-threshold decide whether the calls are inlined."""
    text = """@s = constant [3 x i8] c"ab\\00"
declare i32 @strcmp(ptr, ptr)
define i1 @f(ptr %p) {
  %c = call i32 @strcmp(ptr %p, ptr @s)
  %r = icmp eq i32 %c, 0
  ret i1 %r
}
"""
    assert "sub_0" in ours(text)
    assert "sub_0" not in ours(text, {"strncmp-inline-threshold": 2})
    assert body(ours(text)) == body(opt19(text))
    assert body(ours(text, {"strncmp-inline-threshold": 2})) == body(opt19(text, "-strncmp-inline-threshold=2"))


@pytest.mark.parametrize(
    "name",
    ["trunc_phi.ll", "trunc_select_cmp.ll", "funnel.ll", "popcount.ll", "lower-table-based-cttz-basics.ll",
     "patterned-load.ll", "strncmp-1.ll", "memchr.ll", "masked-cmp.ll"],
)  # fmt: skip
def test_llvm_tests_like_opt(name: str) -> None:
    """Our output equals opt-19's on LLVM's own tests (first RUN line's options)."""
    path = require_llvm_tests() / "Transforms" / "AggressiveInstCombine" / name
    text = path.read_text()
    run = next(line for line in text.splitlines() if "RUN:" in line).split("|")[0]
    flags = [w.strip('"') for w in run.split() if w.startswith("-") and "=" in w and not w.startswith("-passes")]
    options: dict[str, object] = {}
    extra: list[str] = []
    for f in flags:
        k, _, v = f.lstrip("-").partition("=")
        if k == "data-layout":
            extra.append("-data-layout=" + v.strip('"'))
            text = 'target datalayout = "%s"\n' % v.strip('"') + text
        else:
            options[k] = v
            extra.append("-%s=%s" % (k, v))
    assert body(ours(text, options)) == body(opt19(text, *extra))
