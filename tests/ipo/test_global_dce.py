"""``globaldce`` against opt-19, byte for byte, on small modules that each exercise one
rule: roots (externally visible definitions, ``llvm.used``), discardable globals reached
only from dead code, comdat groups (an alias keeps its aliasee's group), empty
constructors leaving ``llvm.global_ctors``, dead constant users, and virtual function
elimination (``!type``, ``!vcall_visibility``, ``llvm.type.checked.load``, the module
flag, the ``vfe-linkage-unit-visibility`` parameter, ``-enable-vfe``). Expected texts are
what opt-19 prints, made in the test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.errors import PipelineError

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


def _same(text: str, pipeline: str = "globaldce", *flags: str, options: dict[str, object] | None = None) -> None:
    assert _body(_ours(text, pipeline, options)) == _body(_opt19(text, pipeline, *flags))


ROOTS = """
@used = internal global i32 1
@dead = internal global i32 2
@llvm.used = appending global [1 x ptr] [ptr @used], section "llvm.metadata"
@ext = global ptr @reached
@reached = internal global i32 3
@lo = linkonce_odr global i32 4
@ae = available_externally global i32 5
define internal void @dead_fn() {
  %x = load i32, ptr @dead
  call void @dead_fn()
  ret void
}
define void @live() {
  call void @helper()
  ret void
}
define internal void @helper() {
  store i32 0, ptr getelementptr (i8, ptr @lo, i64 0)
  ret void
}
declare void @unused_decl()
@alias_dead = internal alias i32, ptr @dead
@alias_live = alias i32, ptr @reached
@if = internal ifunc void (), ptr @resolver
define internal ptr @resolver() {
  ret ptr null
}
"""

COMDATS = """
$c = comdat any
$d = comdat any
define linkonce_odr void @c1() comdat($c) {
  ret void
}
@c2 = linkonce_odr global i32 0, comdat($c)
@c_alias = linkonce_odr unnamed_addr alias void (), ptr @c1
define linkonce_odr void @d1() comdat($d) {
  ret void
}
@d2 = linkonce_odr global i32 0, comdat($d)
define void @user() {
  call void @c_alias()
  ret void
}
"""

CTORS = """
@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @empty, ptr null }, { i32, ptr, ptr } { i32 1, ptr @work, ptr null }, { i32, ptr, ptr } { i32 65535, ptr @empty2, ptr null }]
@g = global i32 0
define internal void @empty() {
  ret void
}
define internal void @empty2() {
  ret void
}
define internal void @work() {
  store i32 1, ptr @g
  ret void
}
"""

DEAD_CONSTANT_USERS = """
@a = internal global [4 x i32] zeroinitializer
@b = internal global ptr getelementptr (i8, ptr @a, i64 4)
@keep = global ptr getelementptr (i8, ptr @c, i64 8)
@c = internal global [4 x i32] zeroinitializer
define void @f() {
  ret void
}
"""


def _vfe(visibility: int, flag: int, offset: str = "i32 0") -> str:
    return """
@vt = internal constant { [2 x ptr] } { [2 x ptr] [ptr @vf1, ptr @vf2] }, align 8, !type !0, !vcall_visibility !2
define internal void @vf1() {
  ret void
}
define internal void @vf2() {
  ret void
}
define void @call(ptr %obj, i32 %off) {
  %vtable = load ptr, ptr %obj
  %r = call { ptr, i1 } @llvm.type.checked.load(ptr %vtable, %s, metadata !"A")
  %fp = extractvalue { ptr, i1 } %r, 0
  call void %%fp()
  ret void
}
define ptr @getvt() {
  ret ptr @vt
}
declare { ptr, i1 } @llvm.type.checked.load(ptr, i32, metadata)
!llvm.module.flags = !{!1}
!0 = !{i64 0, !"A"}
!1 = !{i32 1, !"Virtual Function Elim", i32 %d}
!2 = !{i64 %d}
""".replace("%s", offset, 1).replace("%%", "%").replace("%d", str(flag), 1).replace("%d", str(visibility), 1)


@pytest.mark.parametrize("text", [ROOTS, COMDATS, CTORS, DEAD_CONSTANT_USERS], ids=["roots", "comdats", "ctors", "deadconst"])
def test_rules_like_opt19(text: str) -> None:
    _same(text)


@pytest.mark.parametrize("visibility", [0, 1, 2])
@pytest.mark.parametrize("flag", [0, 1])
def test_virtual_function_elimination(visibility: int, flag: int) -> None:
    _same(_vfe(visibility, flag))
    _same(_vfe(visibility, flag), "globaldce<vfe-linkage-unit-visibility>")


def test_vfe_variable_offset_keeps_every_entry() -> None:
    _same(_vfe(2, 1, "i32 %off"))


def test_vfe_drops_only_the_unloaded_entry() -> None:
    text = _vfe(2, 1)
    out = _ours(text, "globaldce")
    assert "@vf2" not in out and "define internal void @vf1" in out
    _same(text)


def test_enable_vfe_off() -> None:
    _same(_vfe(2, 1), "globaldce", "-enable-vfe=false", options={"enable-vfe": False})


def test_unknown_parameter_is_an_error() -> None:
    module = parse_assembly("define void @f() {\n  ret void\n}\n")
    with pytest.raises(PipelineError):
        llvmpy_mid.run_passes(module, "globaldce<bogus>")


def test_nothing_to_do_keeps_module() -> None:
    text = "define void @f() {\n  ret void\n}\n"
    assert _body(_ours(text, "globaldce")) == _body(parse_assembly(text).__str__())
