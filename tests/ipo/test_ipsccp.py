"""``ipsccp`` against opt-19, byte for byte.

Each case is a small module exercising one rule of LLVM's ``runIPSCCP``: tracked
globals, return values (scalar and struct), arguments merged from call sites,
return zapping with ``returned``/``noundef`` removal, ``range`` return
attributes, the PredicateInfo facts of branches, switches and assumes, dead
blocks and functions, the ``memory`` widening after a pointer argument is
replaced, and the ``ipsccp<...>`` parameters. The expected text is what opt-19
prints, made in the test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ipo.sccp import parse_ipsccp_options

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, pipeline: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, pipeline: str) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline)
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _same(text: str, pipeline: str = "ipsccp") -> None:
    assert _body(_ours(text, pipeline)) == _body(_opt19(text, pipeline))


CASES = {
    "tracked_global": """
@g = internal global i32 7
@h = internal global i32 1
define i32 @f() {
  store i32 7, ptr @g
  %a = load i32, ptr @g
  %b = load i32, ptr @h
  store i32 %a, ptr @h
  %c = add i32 %a, %b
  ret i32 %c
}
""",
    "internal_args_and_zap": """
define internal noundef i32 @callee(i32 returned %x, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  %y = add i32 %x, 1
  ret i32 %y
e:
  ret i32 %x
}
define i32 @caller() {
  %r = call noundef i32 @callee(i32 returned 4, i1 false)
  %s = call i32 @callee(i32 4, i1 false)
  %t = add i32 %r, %s
  ret i32 %t
}
""",
    "struct_return": """
define internal { i32, i64 } @pair(i32 %a) {
  %p = insertvalue { i32, i64 } poison, i32 %a, 0
  %q = insertvalue { i32, i64 } %p, i64 9, 1
  ret { i32, i64 } %q
}
define i64 @use() {
  %s = call { i32, i64 } @pair(i32 3)
  %x = extractvalue { i32, i64 } %s, 0
  %y = extractvalue { i32, i64 } %s, 1
  %z = zext i32 %x to i64
  %w = add i64 %z, %y
  ret i64 %w
}
""",
    "range_return": """
define internal i32 @sel(i1 %c) {
  %v = select i1 %c, i32 10, i32 20
  ret i32 %v
}
define i32 @top(i1 %c) {
  %a = call i32 @sel(i1 %c)
  %b = icmp ult i32 %a, 30
  %r = zext i1 %b to i32
  ret i32 %r
}
""",
    "branch_predicates": """
declare void @use(i1)
define void @f(i32 %x) {
entry:
  %c = icmp ult i32 %x, 10
  br i1 %c, label %then, label %else
then:
  %c2 = icmp ult i32 %x, 20
  call void @use(i1 %c2)
  %c3 = icmp eq i32 %x, 5
  br i1 %c3, label %five, label %exit
five:
  %c4 = icmp eq i32 %x, 5
  call void @use(i1 %c4)
  br label %exit
else:
  %c5 = icmp uge i32 %x, 10
  call void @use(i1 %c5)
  br label %exit
exit:
  %p = phi i32 [ %x, %then ], [ %x, %five ], [ 0, %else ]
  ret void
}
""",
    "switch_and_assume": """
declare void @use(i1)
declare void @llvm.assume(i1)
define void @f(i32 %x, i32 %y) {
entry:
  switch i32 %x, label %def [ i32 1, label %one
                              i32 2, label %two ]
one:
  %a = icmp eq i32 %x, 1
  call void @use(i1 %a)
  br label %def
two:
  %b = icmp eq i32 %x, 2
  call void @use(i1 %b)
  br label %def
def:
  %cy = icmp sgt i32 %y, 5
  call void @llvm.assume(i1 %cy)
  %d = icmp sgt i32 %y, 2
  call void @use(i1 %d)
  ret void
}
""",
    "dead_internal_and_blocks": """
define internal i32 @never(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
define i32 @main(i32 %n) {
entry:
  %c = icmp eq i32 0, 1
  br i1 %c, label %dead, label %live
dead:
  %v = call i32 @never(i32 %n)
  ret i32 %v
live:
  ret i32 %n
}
""",
    "pointer_arg_memory": """
@g = global i32 0
define internal i32 @rd(ptr %p) memory(argmem: read) {
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @caller() {
  %a = call i32 @rd(ptr @g) memory(argmem: read)
  %b = call i32 @rd(ptr @g)
  %c = add i32 %a, %b
  ret i32 %c
}
""",
    "ranges_and_flags": """
define internal i32 @callee(i32 %x) {
  %a = add i32 %x, 1
  %b = sext i32 %a to i64
  %t = trunc i64 %b to i32
  ret i32 %t
}
define i32 @caller(i1 %c) {
  %v = select i1 %c, i32 3, i32 100
  %r = call i32 @callee(i32 %v)
  %s = call i32 @callee(i32 7)
  %u = add i32 %r, %s
  ret i32 %u
}
""",
}


SPEC_CASES = {
    # A noinline function called with two function pointers: two clones through the inlining bonus.
    "noinline_function_pointers": """
define i32 @p0(i32 %x) {
  %a = add nsw i32 %x, 1
  ret i32 %a
}
define i32 @p1(i32 %x) {
  %a = add nsw i32 %x, -1
  ret i32 %a
}
define internal i32 @f(i32 %x, ptr %p) noinline {
  %c = call i32 %p(i32 %x)
  %a = add nsw i32 %c, %x
  ret i32 %a
}
define i32 @g0(i32 %x) {
  %c = call i32 @f(i32 %x, ptr @p0)
  ret i32 %c
}
define i32 @g1(i32 %x) {
  %c = call i32 @f(i32 %x, ptr @p1)
  %d = call i32 @f(i32 %c, ptr @p1)
  ret i32 %d
}
""",
    # Literal constants, a switch made dead by them, and a clone limit.
    "literal_constants": """
declare void @use(i32)
define internal i32 @k(i32 %n, i32 %m) {
entry:
  switch i32 %n, label %d [ i32 1, label %a
                            i32 2, label %b ]
a:
  call void @use(i32 %m)
  br label %d
b:
  %x = mul i32 %m, 3
  call void @use(i32 %x)
  br label %d
d:
  %r = add i32 %n, %m
  ret i32 %r
}
define i32 @top(i32 %v) {
  %a = call i32 @k(i32 1, i32 %v)
  %b = call i32 @k(i32 2, i32 %v)
  %c = call i32 @k(i32 3, i32 %v)
  %d = call i32 @k(i32 1, i32 5)
  %s1 = add i32 %a, %b
  %s2 = add i32 %c, %d
  %s = add i32 %s1, %s2
  ret i32 %s
}
""",
}


def _same_with(text: str, pipeline: str, flags: list[str], options: dict[str, object]) -> None:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, *flags, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    assert _body(print_module(module)) == _body(r.stdout)


def test_specialization_on_function_pointers() -> None:
    text = SPEC_CASES["noinline_function_pointers"]
    _same(text)
    assert "@f.specialized.1" in _ours(text, "ipsccp")
    assert "specialized" not in _ours(text, "ipsccp<no-func-spec>")


@pytest.mark.parametrize(
    "flags",
    [
        ["-force-specialization", "-funcspec-for-literal-constant"],
        ["-force-specialization", "-funcspec-for-literal-constant", "-funcspec-max-clones=1"],
        ["-funcspec-for-literal-constant", "-funcspec-min-function-size=3"],
    ],
)
def test_specialization_options(flags: list[str]) -> None:
    options: dict[str, object] = {}
    for f in flags:
        name, _, value = f[1:].partition("=")
        options[name] = int(value) if value else True
    _same_with(SPEC_CASES["literal_constants"], "ipsccp", flags, options)


@pytest.mark.parametrize("name", sorted(CASES))
def test_like_opt19(name: str) -> None:
    _same(CASES[name])


@pytest.mark.parametrize("params", ["func-spec", "no-func-spec", "no-func-spec;func-spec"])
def test_parameters_like_opt19(params: str) -> None:
    _same(CASES["internal_args_and_zap"], "ipsccp<%s>" % params)


def test_parameter_parsing() -> None:
    assert parse_ipsccp_options("").allow_func_spec
    assert not parse_ipsccp_options("no-func-spec").allow_func_spec
    assert parse_ipsccp_options("no-func-spec;func-spec").allow_func_spec
    with pytest.raises(PipelineError, match="invalid IPSCCP pass parameter 'foo' "):
        parse_ipsccp_options("foo")


def test_copies_and_declarations_are_removed() -> None:
    module = parse_assembly(CASES["branch_predicates"])
    llvmpy_mid.run_passes(module, "ipsccp")
    text = print_module(module)
    assert "ssa.copy" not in text
