"""``tailcallelim`` against opt-19, one small function per rule of
TailRecursionElimination.cpp: tail marking (readnone calls with constant or argument
operands, calls no alloca reaches, escapes through stores and captured arguments that
stop marking on every later path, ``notail`` and operand bundles, ``returns_twice``),
and elimination (plain recursion, the return folded into an unconditional branch,
accumulator recursion with add/mul/umin, a known return value tracked through
``ret.known.tr``, loads moved above the call, byval arguments copied through a
temporary, varargs and dynamic allocas left alone, ``"disable-tail-calls"``)."""

from __future__ import annotations

import pytest
from opt19_compare import assert_like_opt

from tests.oracles import require_tools

require_tools("opt-19")

CASES = {
    "mark_readnone_and_unescaped": """
declare i32 @pure(i32) nounwind willreturn memory(none)
declare void @use(ptr)
declare i32 @other(i32)
define i32 @f(i32 %a) {
entry:
  %x = call i32 @pure(i32 %a)
  %y = call i32 @other(i32 %x)
  ret i32 %y
}
""",
    "escape_stops_later_marks": """
@g = global ptr null
declare void @use(ptr)
declare i32 @other(i32)
define i32 @f(i32 %a, i1 %c) {
entry:
  %p = alloca i32
  %b = call i32 @other(i32 %a)
  br i1 %c, label %esc, label %j
esc:
  store ptr %p, ptr @g
  br label %j
j:
  %d = call i32 @other(i32 %b)
  call void @use(ptr %p)
  ret i32 %d
}
""",
    "nocapture_alloca_user_not_marked": """
declare void @use(ptr nocapture)
declare i32 @other(i32)
define i32 @f(i32 %a) {
entry:
  %p = alloca i32
  call void @use(ptr %p)
  %d = call i32 @other(i32 %a)
  ret i32 %d
}
""",
    "notail_and_bundles": """
declare i32 @other(i32)
define i32 @f(i32 %a) {
entry:
  %x = notail call i32 @other(i32 %a)
  %y = call i32 @other(i32 %x) [ "deopt"() ]
  %z = call i32 @other(i32 %y) [ "kcfi"(i32 1) ]
  ret i32 %z
}
""",
    "returns_twice_blocks_marking": """
declare i32 @setjmp(ptr) returns_twice
declare i32 @other(i32)
define i32 @f(i32 %a, ptr %b) {
entry:
  %s = call i32 @setjmp(ptr %b)
  %x = call i32 @other(i32 %s)
  ret i32 %x
}
""",
    "plain_recursion": """
define void @f(i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  tail call void @f(i32 %m)
  ret void
done:
  ret void
}
""",
    "fold_return_into_branch": """
define i32 @f(i32 %n, i32 %k) {
entry:
  %c = icmp sgt i32 %n, 10
  br i1 %c, label %rec, label %done
rec:
  %m = add i32 %n, 1
  %r = tail call i32 @f(i32 %m, i32 %k)
  br label %done
done:
  %v = phi i32 [ %r, %rec ], [ %k, %entry ]
  ret i32 %v
}
""",
    "accumulator_add": """
define i32 @sum(i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %r = tail call i32 @sum(i32 %m)
  %s = add i32 %r, %n
  ret i32 %s
done:
  ret i32 0
}
""",
    "accumulator_mul_two_returns": """
define i64 @fact(i64 %n, i1 %q) {
entry:
  %c = icmp ule i64 %n, 1
  br i1 %c, label %one, label %rec
rec:
  %m = sub i64 %n, 1
  %r = tail call i64 @fact(i64 %m, i1 %q)
  %s = mul i64 %n, %r
  ret i64 %s
one:
  br i1 %q, label %a, label %b
a:
  ret i64 1
b:
  ret i64 %n
}
""",
    "accumulator_umin": """
declare i32 @llvm.umin.i32(i32, i32)
define i32 @f(ptr %p, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %v = load i32, ptr %p
  %m = sub i32 %n, 1
  %r = tail call i32 @f(ptr %p, i32 %m)
  %s = call i32 @llvm.umin.i32(i32 %v, i32 %r)
  ret i32 %s
done:
  ret i32 -1
}
""",
    "known_return_value": """
define i32 @f(i32 %n, i32 %k) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %r = tail call i32 @f(i32 %m, i32 %k)
  ret i32 %k
done:
  ret i32 7
}
""",
    "load_moves_above_readonly_call": """
define i32 @f(ptr dereferenceable(4) %p, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %r = tail call i32 @f(ptr %p, i32 %m)
  %v = load i32, ptr %p
  ret i32 %r
done:
  ret i32 0
}
""",
    "byval_argument": """
%s = type { i32, i32 }
define void @f(ptr byval(%s) align 4 %a, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  tail call void @f(ptr byval(%s) align 4 %a, i32 %m)
  ret void
done:
  ret void
}
""",
    "varargs_left_alone": """
define i32 @f(i32 %n, ...) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %r = tail call i32 (i32, ...) @f(i32 %m)
  ret i32 %r
done:
  ret i32 0
}
""",
    "dynamic_alloca_left_alone": """
declare void @use(ptr)
define i32 @f(i32 %n) {
entry:
  %p = alloca i32, i32 %n
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %r = tail call i32 @f(i32 %m)
  ret i32 %r
done:
  call void @use(ptr %p)
  ret i32 0
}
""",
    "disable_tail_calls": """
declare i32 @other(i32)
define i32 @f(i32 %n) "disable-tail-calls"="true" {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %r = tail call i32 @f(i32 %m)
  ret i32 %r
done:
  %o = call i32 @other(i32 %n)
  ret i32 %o
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tailcallelim_like_opt(name: str) -> None:
    assert_like_opt(CASES[name], "tailcallelim")


def test_tailcallelim_statistics_and_remarks() -> None:
    """The recursion becomes a loop (the header is ``tailrecurse``) and the accumulator is
    counted: the rules really fire, not only match."""
    import llvmpy_mid
    from llvmpy_mid.asm import parse_assembly, print_module

    module = parse_assembly(CASES["accumulator_add"])
    llvmpy_mid.run_passes(module, "tailcallelim")
    text = print_module(module)
    assert "tailrecurse:" in text and "accumulator.tr" in text and "call i32 @sum" not in text
