"""Function bodies as the parser builds them: numbering, forward references
and the use-list order they leave (which decides ``; preds =``), blocks
referenced before their label, and debug records."""

from __future__ import annotations

import pytest

from llvmpy_mid.asm.parser import parse
from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module


def _fn(text: str, name: str = "f") -> Function:
    m = parse(text, None, "t.ll")
    fn = m.get_function(name)
    assert fn is not None
    return fn


def test_numbered_values_may_skip_numbers() -> None:
    fn = _fn("define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  %5 = add i32 %2, 1\n  br label %7\n7:\n  ret i32 %5\n}\n")
    assert [bb.name for bb in fn.blocks] == ["", ""]
    insts = [i for bb in fn.blocks for i in bb]
    assert all(i.name == "" for i in insts)
    assert insts[1].get_operand(0) is insts[0]


def test_implicit_numbering_of_entry_block_and_results() -> None:
    fn = _fn("define i32 @f(i32) {\n  %2 = add i32 %0, 1\n  ret i32 %2\n}\n")
    assert fn.entry_block.name == "" and fn.args[0].name == ""
    with pytest.raises(ParseError) as info:
        parse("define i32 @f(i32) {\n  %1 = add i32 %0, 1\n  ret i32 %1\n}\n", None, "t.ll")
    # %1 is the unlabelled entry block, so the first instruction must be %2 or later.
    assert info.value.message == "instruction expected to be numbered '%2' or greater"


def test_forward_reference_is_replaced_and_keeps_llvm_use_order() -> None:
    fn = _fn(
        "define i32 @f(i1 %c) {\nentry:\n  br label %loop\n"
        "loop:\n  %a = phi i32 [ 0, %entry ], [ %b, %loop ]\n  %u1 = add i32 %b, 1\n  %u2 = add i32 %b, 2\n"
        "  %b = add i32 %a, 1\n  %u3 = add i32 %b, 3\n  br i1 %c, label %loop, label %exit\n"
        "exit:\n  ret i32 %b\n}\n"
    )
    b = next(i for bb in fn.blocks for i in bb if i.name == "b")
    # LLVM's RAUW of the placeholder moves the forward uses (phi, u1, u2) to b in
    # reverse order of their placeholder list, then later uses go to the head.
    users = [u.user.name for u in b.uses]  # type: ignore[attr-defined]
    assert users == ["", "u3", "a", "u1", "u2"]


def test_blocks_referenced_before_definition_and_preds_order() -> None:
    fn = _fn(
        "define void @f(i1 %cond) {\nentry:\n  br i1 %cond, label %b, label %a\n"
        "a:\n  br label %b\nb:\n  br label %c\nc:\n  ret void\n}\n"
    )
    assert [bb.name for bb in fn.blocks] == ["entry", "a", "b", "c"]
    b = fn.blocks[2]
    # opt-19 prints "; preds = %a, %entry": the most recent terminator use first.
    assert [p.name for p in b.predecessors] == ["a", "entry"]


def test_forward_block_is_moved_into_place() -> None:
    fn = _fn(
        "define void @f() {\nentry:\n  br label %late\n"
        "mid:\n  br label %late\nlate:\n  ret void\n}\n"
    )
    assert [bb.name for bb in fn.blocks] == ["entry", "mid", "late"]


def test_forward_reference_type_mismatch() -> None:
    with pytest.raises(ParseError) as info:
        parse("define void @f() {\n  %x = add i32 %y, 1\n  %y = add i64 1, 1\n  ret void\n}\n", None, "t.ll")
    assert (info.value.line, info.value.column) == (3, 3)
    assert info.value.message == "instruction forward referenced with type 'i32'"


def test_undefined_local_reports_the_first_use() -> None:
    with pytest.raises(ParseError) as info:
        parse("define void @f() {\n  %x = add i32 %zz, 1\n  %y = add i32 %aa, 1\n  ret void\n}\n", None, "t.ll")
    # Like LLVM, the alphabetically first undefined name is reported.
    assert info.value.message == "use of undefined value '%aa'"
    assert (info.value.line, info.value.column) == (3, 16)


def test_debug_records_attach_to_the_following_instruction() -> None:
    fn = _fn(
        "define void @f(i32 %x) !dbg !3 {\n"
        "  #dbg_value(i32 %x, !6, !DIExpression(), !7)\n  #dbg_label(!8, !7)\n  %y = add i32 %x, 1\n"
        "    #dbg_value(i32 %y, !6, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !7)\n  ret void\n}\n"
        "!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!2}\n"
        '!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)\n'
        '!1 = !DIFile(filename: "a.c", directory: "/")\n!2 = !{i32 2, !"Debug Info Version", i32 3}\n'
        '!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, type: !4, unit: !0, spFlags: DISPFlagDefinition)\n'
        "!4 = !DISubroutineType(types: !5)\n!5 = !{null}\n"
        '!6 = !DILocalVariable(name: "x", scope: !3, file: !1, type: !9)\n!7 = !DILocation(line: 1, scope: !3)\n'
        '!8 = !DILabel(scope: !3, name: "l", file: !1, line: 2)\n!9 = !DIBasicType(name: "int", size: 32)\n'
    )
    add, ret = list(fn.entry_block)
    kinds = [type(r).__name__ for r in add.dbg_records]
    assert kinds == ["DbgVariableRecord", "DbgLabelRecord"]
    assert len(ret.dbg_records) == 1
    assert fn.get_metadata("dbg") is not None


def test_old_debug_intrinsics_become_records() -> None:
    m = parse(
        "define void @f(i32 %x) {\n"
        "  call void @llvm.dbg.value(metadata i32 %x, metadata !4, metadata !DIExpression()), !dbg !5\n"
        "  ret void\n}\ndeclare void @llvm.dbg.value(metadata, metadata, metadata)\n"
        "!llvm.module.flags = !{!0}\n!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
        '!1 = !DIFile(filename: "a.c", directory: "/")\n'
        "!2 = distinct !DISubprogram(name: \"f\", scope: !1, spFlags: 0)\n"
        "!4 = !DILocalVariable(name: \"x\", scope: !2)\n!5 = !DILocation(line: 1, scope: !2)\n",
        None,
        "t.ll",
    )
    fn = m.get_function("f")
    assert fn is not None
    (ret,) = list(fn.entry_block)
    (rec,) = ret.dbg_records
    assert rec.location.value is fn.args[0]  # type: ignore[attr-defined]
    assert m.get_function("llvm.dbg.value") is None


def test_debug_info_without_version_flag_is_stripped() -> None:
    m: Module = parse(
        "define void @f() !dbg !1 {\n  ret void, !dbg !2\n}\n!llvm.dbg.cu = !{}\n"
        '!0 = !DIFile(filename: "a.c", directory: "/")\n'
        "!1 = distinct !DISubprogram(name: \"f\", scope: !0, spFlags: 0)\n!2 = !DILocation(line: 1, scope: !1)\n",
        None,
        "t.ll",
    )
    fn = m.get_function("f")
    assert fn is not None and fn.get_metadata("dbg") is None
    assert fn.entry_block.terminator.debug_loc is None  # type: ignore[union-attr]
    assert "llvm.dbg.cu" not in m.named_metadata


def test_uselistorder_directive_reorders_uses() -> None:
    fn = _fn(
        "define i32 @f(i32 %x) {\n  %a = add i32 %x, 1\n  %b = add i32 %x, 2\n  %c = add i32 %x, 3\n"
        "  ret i32 %a\n  uselistorder i32 %x, { 2, 0, 1 }\n}\n"
    )
    # Before: c, b, a (most recent first); use i gets position indexes[i].
    assert [u.user.name for u in fn.args[0].uses] == ["b", "a", "c"]  # type: ignore[attr-defined]
