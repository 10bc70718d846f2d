"""``make-guards-explicit`` (``transform/scalar/make_guards_explicit.py``) and the guard
utilities (``analysis/guard_utils.py``, ``transform/utils/guard_utils.py``): each rule on a
small function compared with opt-19, and the widenable-branch shapes checked directly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from opt_oracle import assert_same_as_opt, body, opt19_text  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.analysis.guard_utils import (  # noqa: E402
    extract_widenable_condition,
    is_guard,
    is_guard_as_widenable_branch,
    is_widenable_branch,
    parse_widenable_branch,
    parse_widenable_guard,
)
from llvmpy_mid.asm import parse_assembly, print_module  # noqa: E402
from llvmpy_mid.ir.function import Function  # noqa: E402
from llvmpy_mid.ir.instructions.terminators import BranchInst  # noqa: E402
from llvmpy_mid.transform.utils.guard_utils import set_widenable_branch_cond, widen_widenable_branch  # noqa: E402

_DECL = "declare void @llvm.experimental.guard(i1, ...)\n"

CASES = {
    "single": _DECL
    + """
define void @f(i1 %c) {
entry:
  call void (i1, ...) @llvm.experimental.guard(i1 %c) [ "deopt"(i32 1) ]
  ret void
}""",
    # Extra guard arguments go to the deoptimize call; the function's return type picks its
    # overload, and the result is returned.
    "non_void_with_args": _DECL
    + """
define i64 @f(i1 %c, i32 %x, ptr %p) {
entry:
  %v = load i64, ptr %p
  call void (i1, ...) @llvm.experimental.guard(i1 %c, i32 %x, ptr %p) [ "deopt"(i64 %v) ]
  ret i64 %v
}""",
    # Calling conventions of the guard and its declaration, !make.implicit and the debug
    # location carry over; a constant condition still gets a branch.
    "cc_metadata_dbg": """
declare cc 10 void @llvm.experimental.guard(i1, ...)
define i32 @f(i1 %c, i32 %x) !dbg !5 {
entry:
  %a = add i32 %x, 1, !dbg !8
  call cc 10 void (i1, ...) @llvm.experimental.guard(i1 %c, i32 %a) [ "deopt"(i32 %x) ], !make.implicit !9, !dbg !8
  call void (i1, ...) @llvm.experimental.guard(i1 true) [ "deopt"() ]
  ret i32 %a
}
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "a.c", directory: "/")
!5 = distinct !DISubprogram(name: "f", scope: !2, file: !2, line: 1, type: !6, unit: !1, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 3, column: 1, scope: !5)
!9 = !{}""",
    # Guards in a loop and in several blocks; the names guarded/deopt are numbered.
    "loop": _DECL
    + """
define void @f(i1 %c, i32 %n) {
entry:
  call void (i1, ...) @llvm.experimental.guard(i1 %c) [ "deopt"(i32 0) ]
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %g = icmp slt i32 %i, 100
  call void (i1, ...) @llvm.experimental.guard(i1 %g) [ "deopt"(i32 %i) ]
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %loop, label %exit
exit:
  ret void
}""",
    # A deoptimize declaration already in the module is reused.
    "existing_deoptimize": _DECL
    + """
declare void @llvm.experimental.deoptimize.isVoid(...)
define void @f(i1 %c) {
entry:
  call void (i1, ...) @llvm.experimental.guard(i1 %c) [ "deopt"() ]
  ret void
}""",
    # A declared but unused guard: nothing changes.
    "unused_declaration": _DECL
    + """
define void @f(i1 %c) {
entry:
  ret void
}""",
    # Guards in another function only: this one has none.
    "no_guard_here": _DECL
    + """
define void @f(i1 %c) {
entry:
  ret void
}
define void @g(i1 %c) {
entry:
  call void (i1, ...) @llvm.experimental.guard(i1 %c) [ "deopt"() ]
  ret void
}""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_like_opt19(name: str) -> None:
    out = assert_same_as_opt(CASES[name], "make-guards-explicit")
    assert "call void (i1, ...) @llvm.experimental.guard(" not in out
    assert ("@llvm.experimental.widenable.condition()" in out) == (name != "unused_declaration")


def test_branch_weight_option() -> None:
    assert_same_as_opt(CASES["single"], "make-guards-explicit", {"guards-predicate-pass-branch-weight": 77})


def _run(text: str) -> Function:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "make-guards-explicit")
    llvmpy_mid.verify_module(module)
    fn = module.get_function("f")
    assert fn is not None
    return fn


@pytest.mark.parametrize("name", ["single", "non_void_with_args", "loop", "cc_metadata_dbg"])
def test_result_is_widenable_guard(name: str) -> None:
    """Every guard became a widenable branch whose deopt side deoptimizes; its checks are the
    guard's condition."""
    fn = _run(CASES[name])
    branches = [bb.terminator for bb in fn.blocks if is_widenable_branch(bb.terminator)]
    assert branches and not any(is_guard(i) for bb in fn.blocks for i in bb.instructions)
    for br in branches:
        assert is_guard_as_widenable_branch(br)
        parsed = parse_widenable_branch(br)
        assert parsed is not None and parsed.condition is not None
        assert parse_widenable_guard(br) == [parsed.condition.value]
        assert extract_widenable_condition(br) is parsed.widenable_condition.value
        assert parsed.if_true.name.startswith("guarded") and parsed.if_false.name.startswith("deopt")


_WIDENABLE = """
declare i1 @llvm.experimental.widenable.condition()
declare void @llvm.experimental.deoptimize.isVoid(...)
define void @f(i1 %a, i1 %b) {
entry:
  %wc = call i1 @llvm.experimental.widenable.condition()
  %cond = %SHAPE%
  br i1 %cond, label %ok, label %deopt
deopt:
  call void (...) @llvm.experimental.deoptimize.isVoid() [ "deopt"() ]
  ret void
ok:
  ret void
}"""


@pytest.mark.parametrize("shape", ["and i1 %a, %wc", "and i1 %wc, %a"])
@pytest.mark.parametrize("how", ["widen", "set"])
def test_widen_and_set_keep_the_branch_widenable(shape: str, how: str) -> None:
    module = parse_assembly(_WIDENABLE.replace("%SHAPE%", shape))
    fn = module.get_function("f")
    assert fn is not None
    entry = fn.blocks.first
    br = entry.terminator
    assert isinstance(br, BranchInst) and is_widenable_branch(br)
    b = fn.args[1]
    if how == "widen":
        widen_widenable_branch(br, b)
        assert sorted(v.name for v in parse_widenable_guard(br)) == ["a", "b"]
    else:
        set_widenable_branch_cond(br, b)
        assert [v.name for v in parse_widenable_guard(br)] == ["b"]
    assert is_widenable_branch(br) and is_guard_as_widenable_branch(br)
    llvmpy_mid.verify_module(module)


def test_not_widenable() -> None:
    """A widenable condition with a second use, or an ``or``, is no widenable branch."""
    text = _WIDENABLE.replace("%SHAPE%", "or i1 %a, %wc")
    fn = parse_assembly(text).get_function("f")
    assert fn is not None
    assert not is_widenable_branch(fn.blocks.first.terminator)
    text = _WIDENABLE.replace("%SHAPE%", "and i1 %a, %wc").replace("  br i1", "  %x = xor i1 %wc, true\n  br i1")
    fn = parse_assembly(text).get_function("f")
    assert fn is not None
    assert not is_widenable_branch(fn.blocks.first.terminator)
    assert extract_widenable_condition(fn.blocks.first.terminator) is None


def test_print_is_stable() -> None:
    """Running the pass twice changes nothing the second time (no guards are left)."""
    module = parse_assembly(CASES["loop"])
    llvmpy_mid.run_passes(module, "make-guards-explicit")
    once = print_module(module)
    result = llvmpy_mid.run_passes(module, "make-guards-explicit")
    assert print_module(module) == once and not result.changed


@pytest.mark.parametrize("name", sorted(CASES))
def test_debug_records_like_opt19(name: str) -> None:
    """After debugify: the records in front of a guard end up in front of the widenable
    condition, as in opt-19."""
    text = CASES[name]
    expected = opt19_text(text, "debugify,make-guards-explicit")
    module = parse_assembly(text, name="<stdin>")
    llvmpy_mid.run_passes(module, "debugify,make-guards-explicit")
    llvmpy_mid.verify_module(module)
    assert body(print_module(module)) == body(expected)
