"""``globalopt`` against opt-19, byte for byte, on small modules that each exercise one
rule (constant marking, dead globals, stored-once rewrites, localisation, SRA,
shrink-to-bool, calling conventions and attributes, static constructors, aliases,
malloc to global, empty atexit handlers, static ifuncs), plus the GlobalStatus
analysis the pass is built on. Expected texts are what opt-19 prints, made in the
test; those tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.transform.utils.global_status import GlobalStatus, StoredType, analyze_global

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, pipeline: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, *flags, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _same(text: str, *flags: str, options: dict[str, object] | None = None) -> None:
    assert _body(_ours(text, "globalopt", options)) == _body(_opt19(text, "globalopt", *flags))


CASES = {
    "mark-constant": """
@g = internal global i32 7
define i32 @f() {
  %v = load i32, ptr @g
  ret i32 %v
}
""",
    "never-loaded": """
@g = internal global i32 0
@p = internal global ptr null
define void @f(ptr %q) {
  store i32 3, ptr @g
  store ptr %q, ptr @p
  ret void
}
""",
    "localize": """
@g = internal global i32 0
define i32 @main() norecurse {
  store i32 5, ptr @g
  %v = load i32, ptr @g
  ret i32 %v
}
""",
    "sra": """
@s = internal global { i32, i64 } { i32 1, i64 2 }
define i64 @f(i1 %c) {
  store i32 3, ptr @s
  %p = getelementptr { i32, i64 }, ptr @s, i32 0, i32 1
  store i64 9, ptr %p
  %a = load i32, ptr @s
  %b = load i64, ptr %p
  %z = zext i32 %a to i64
  %r = add i64 %z, %b
  ret i64 %r
}
define void @g() {
  store i32 4, ptr @s
  ret void
}
""",
    "shrink-to-bool": """
@flag = internal global i32 0
define void @set() {
  store i32 1, ptr @flag
  ret void
}
define i32 @get() {
  %v = load i32, ptr @flag
  ret i32 %v
}
""",
    "stored-once-trapping": """
@fp = internal global ptr null
declare void @target()
define void @init() {
  store ptr @target, ptr @fp
  ret void
}
define void @use() {
  %f = load ptr, ptr @fp
  call void %f()
  ret void
}
""",
    "undef-initializer": """
@g = internal global i32 undef
define void @init() {
  store i32 42, ptr @g
  ret void
}
define i32 @use() {
  %v = load i32, ptr @g
  ret i32 %v
}
""",
    "fastcc-nest": """
define internal i32 @callee(ptr nest %n, i32 %x) {
  ret i32 %x
}
define i32 @caller() {
  %r = call i32 @callee(ptr nest null, i32 1)
  ret i32 %r
}
define internal void @dead() {
  ret void
}
""",
    "ctor-evaluation": """
@g = global i32 0
@h = global [2 x i32] zeroinitializer
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]
define internal void @ctor() {
  %a = alloca i32
  store i32 3, ptr %a
  %v = load i32, ptr %a
  store i32 %v, ptr @g
  %p = getelementptr [2 x i32], ptr @h, i32 0, i32 1
  store i32 %v, ptr %p
  ret void
}
""",
    "ctor-not-evaluable": """
@g = global i32 0
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]
declare i32 @ext()
define internal void @ctor() {
  %v = call i32 @ext()
  store i32 %v, ptr @g
  ret void
}
""",
    "alias-resolution": """
define internal void @impl() {
  ret void
}
@a = alias void (), ptr @impl
@b = internal alias void (), ptr @impl
define void @user() {
  call void @b()
  ret void
}
""",
    "malloc-to-global": """
@p = internal global ptr null
declare noalias ptr @malloc(i64) allockind("alloc,uninitialized") allocsize(0)
define void @init() {
  %m = call ptr @malloc(i64 8)
  store ptr %m, ptr @p
  ret void
}
define i32 @use() {
  %q = load ptr, ptr @p
  %v = load i32, ptr %q
  ret i32 %v
}
""",
    "atexit-empty": """
declare i32 @__cxa_atexit(ptr, ptr, ptr)
define internal void @dtor(ptr %x) {
  ret void
}
define void @f() {
  %r = call i32 @__cxa_atexit(ptr @dtor, ptr null, ptr null)
  ret void
}
""",
    "static-ifunc": """
define internal void @impl() {
  ret void
}
define internal ptr @resolver() {
  ret ptr @impl
}
@ifn = internal ifunc void (), ptr @resolver
define void @user() {
  call void @ifn()
  ret void
}
""",
    "comdat-kept": """
$c = comdat any
@a = linkonce_odr global i32 1, comdat($c)
@b = linkonce_odr global i32 2, comdat($c)
define i32 @f() {
  %v = load i32, ptr @a
  ret i32 %v
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_matches_opt19(name: str) -> None:
    _same(CASES[name])


def test_coldcc_stress_option_matches_opt19() -> None:
    _same(CASES["fastcc-nest"], "-enable-coldcc-stress-test", options={"enable-coldcc-stress-test": True})


def _status(text: str, name: str) -> tuple[bool, GlobalStatus]:
    module = parse_assembly(text)
    gv = module.get_named_value(name)
    assert gv is not None
    gs = GlobalStatus()
    escapes = analyze_global(gv, gs)
    return escapes, gs


def test_global_status_stored_once_and_initializer() -> None:
    text = """
@g = internal global i32 0
define void @f() {
  store i32 0, ptr @g
  store i32 5, ptr @g
  store i32 5, ptr @g
  %v = load i32, ptr @g
  ret void
}
"""
    escapes, gs = _status(text, "g")
    assert not escapes
    assert gs.stored_type == StoredType.STORED_ONCE
    assert gs.num_stores == 3 and gs.is_loaded and not gs.is_compared


def test_global_status_escapes_when_address_stored() -> None:
    text = """
@g = internal global i32 0
@h = internal global ptr null
define void @f() {
  store ptr @g, ptr @h
  ret void
}
"""
    escapes, _ = _status(text, "g")
    assert escapes
    escapes, gs = _status(text, "h")
    assert not escapes and gs.stored_type == StoredType.STORED_ONCE and not gs.is_loaded


def test_global_status_compared_and_multiple_functions() -> None:
    text = """
@g = internal global i32 0
define i1 @f(ptr %p) {
  %c = icmp eq ptr %p, @g
  ret i1 %c
}
define i32 @h() {
  %v = load i32, ptr @g
  ret i32 %v
}
"""
    escapes, gs = _status(text, "g")
    assert not escapes and gs.is_compared and gs.has_multiple_accessing_functions
