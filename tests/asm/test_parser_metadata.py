"""Metadata as the parser builds it: numbered nodes and forward references,
uniquing, distinct nodes, named metadata, attachments and kind order, the
specialised debug-info nodes with LLVM 19's read-time rules, and
DIArgList/DIExpression."""

from __future__ import annotations

import pytest

from llvmpy_mid.asm.parser import parse
from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir.debug_info import DIEnum, DIExpression, DILocation, DINode
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, MDTuple
from llvmpy_mid.ir.module import Module


def _named(text: str, name: str = "n") -> tuple[Module, list[MDNode]]:
    m = parse(text, None, "t.ll")
    return m, m.named_metadata[name].operands


def test_forward_references_uniquing_and_distinct() -> None:
    _, (a, b, c, d) = _named(
        "!n = !{!0, !2, !3, !4}\n!0 = !{!1}\n!1 = !{}\n!2 = !{!1}\n!3 = distinct !{!1}\n!4 = !{!\"s\", i32 7, null}\n"
    )
    assert a is b  # equal uniqued tuples are one node, even through a forward reference
    assert c is not a and c.is_distinct
    assert isinstance(d, MDTuple)
    s, v, z = d.operands
    assert isinstance(s, MDString) and s.string == "s"
    assert isinstance(v, ConstantAsMetadata) and v.value.value == 7  # type: ignore[attr-defined]
    assert z is None


def test_cycles_resolve() -> None:
    _, (a,) = _named("!n = !{!0}\n!0 = !{!1}\n!1 = !{!0}\n")
    (inner,) = a.operands
    assert isinstance(inner, MDNode) and inner.operands[0] is a
    assert a.is_resolved and not a.is_distinct


def test_attachments_and_kind_registration_order() -> None:
    m = parse(
        "define void @f(ptr %p) {\n  %x = load i32, ptr %p, !zeta !0, !alpha !1, !tbaa !0\n  ret void\n}\n"
        "!0 = !{}\n!1 = !{!\"a\"}\n",
        None,
        "t.ll",
    )
    ctx = m.context
    # Custom kinds get ids in the order they appear, after LLVM's fixed kinds.
    assert ctx.md_kinds["zeta"] < ctx.md_kinds["alpha"]
    load = m.get_function("f").entry_block.first_instruction  # type: ignore[union-attr]
    assert load is not None
    assert [k for k, _ in load.metadata_items()] == ["tbaa", "zeta", "alpha"]
    assert load.get_metadata("alpha").operands[0].string == "a"  # type: ignore[union-attr]


def test_global_and_function_attachments() -> None:
    m = parse(
        "@g = global i32 0, !type !0, !type !1\ndeclare !prof !2 void @d()\n"
        "define void @f() !dbg !3 {\n  ret void\n}\n"
        "!0 = !{i64 0, !\"t\"}\n!1 = !{i64 8, !\"u\"}\n!2 = !{!\"function_entry_count\", i64 1}\n"
        "!llvm.module.flags = !{!4}\n!4 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
        '!5 = !DIFile(filename: "a", directory: "b")\n!3 = distinct !DISubprogram(name: "f", scope: !5, spFlags: DISPFlagDefinition)\n',
        None,
        "t.ll",
    )
    assert len(m.get_global("g").get_all_metadata("type")) == 2  # type: ignore[union-attr]
    assert m.get_function("d").get_metadata("prof") is not None  # type: ignore[union-attr]
    sp = m.get_function("f").get_metadata("dbg")  # type: ignore[union-attr]
    assert isinstance(sp, DINode) and sp.kind == "DISubprogram"


def test_specialised_nodes_and_their_fields() -> None:
    _, (loc, file, sp, var, comp) = _named(
        "!n = !{!0, !1, !2, !4, !5}\n"
        "!0 = !DILocation(line: 3, column: 7, scope: !2)\n"
        '!1 = !DIFile(filename: "a.c", directory: "/x", checksumkind: CSK_MD5, checksum: "00")\n'
        '!2 = distinct !DISubprogram(name: "f", scope: !1, flags: DIFlagArtificial | DIFlagPrototyped, '
        "spFlags: DISPFlagOptimized | DISPFlagDefinition)\n"
        "!3 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
        '!4 = !DILocalVariable(name: "v", arg: 1, scope: !2, type: !3)\n'
        "!5 = !DICompositeType(tag: DW_TAG_array_type, baseType: !3, size: 64, elements: !{!6})\n"
        "!6 = !DISubrange(count: 2)\n"
    )
    assert isinstance(loc, DILocation) and (loc.line, loc.column) == (3, 7) and loc.scope is sp
    assert isinstance(file, DINode) and file.get_field("checksumkind") == DIEnum.of("CSK_MD5")
    assert isinstance(sp, DINode) and sp.is_distinct
    # Flag lists are normalised to LLVM's order (so equal flag words unique to one node).
    assert sp.get_field("flags") == DIEnum.of("DIFlagArtificial", "DIFlagPrototyped")
    assert sp.get_field("spFlags") == DIEnum.of("DISPFlagDefinition", "DISPFlagOptimized")
    assert isinstance(var, DINode) and var.get_field("arg") == 1 and var.get_string("name") == "v"
    assert isinstance(comp, DINode) and comp.get_field("tag") == DIEnum.of("DW_TAG_array_type")


def test_legacy_subprogram_fields_become_spflags() -> None:
    # opt-19 prints spFlags: DISPFlagVirtual | DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized
    _, (sp,) = _named(
        "!n = !{!0}\n!0 = distinct !DISubprogram(name: \"f\", isDefinition: true, isLocal: true, "
        "isOptimized: true, virtuality: DW_VIRTUALITY_virtual, virtualIndex: 0)\n"
    )
    assert isinstance(sp, DINode)
    assert sp.get_field("spFlags") == DIEnum.of(
        "DISPFlagVirtual", "DISPFlagLocalToUnit", "DISPFlagDefinition", "DISPFlagOptimized"
    )
    assert not sp.has_field("isLocal")


def test_objc_property_getter_setter_swap_and_integer_dwarf_names() -> None:
    # LLVM 19's parser stores the two strings swapped (opt-19 prints setter: "p", getter: "setP:").
    _, (prop, basic) = _named(
        '!n = !{!0, !1}\n!0 = !DIObjCProperty(name: "p", setter: "setP:", getter: "p")\n'
        '!1 = !DIBasicType(tag: 36, name: "int", encoding: 5)\n'
    )
    assert isinstance(prop, DINode)
    assert prop.get_string("setter") == "p" and prop.get_string("getter") == "setP:"
    assert isinstance(basic, DINode) and basic.get_field("encoding") == DIEnum.of("DW_ATE_signed")


def test_composite_types_with_identifier_are_distinct_and_shared() -> None:
    # opt-19 makes a DICompositeType with an identifier distinct (ODR type uniquing).
    _, (a, b) = _named(
        '!n = !{!0, !1}\n!0 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", identifier: "_ZTS1S")\n'
        '!1 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", identifier: "_ZTS1S")\n'
    )
    assert a is b and a.is_distinct


def test_expressions_and_arg_lists() -> None:
    m = parse(
        "define void @f(i32 %a, i32 %b) {\n"
        "  call void @g(metadata !DIArgList(i32 %a, i32 %b), metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, "
        "1, DW_OP_plus, DW_OP_stack_value))\n  ret void\n}\ndeclare void @g(metadata, metadata)\n",
        None,
        "t.ll",
    )
    call = m.get_function("f").entry_block.first_instruction  # type: ignore[union-attr]
    arglist, expr = (a.metadata for a in call.args)  # type: ignore[attr-defined, union-attr]
    assert [v.value.name for v in arglist.args] == ["a", "b"]
    assert isinstance(expr, DIExpression)
    assert expr.elements == ("DW_OP_LLVM_arg", 0, "DW_OP_LLVM_arg", 1, "DW_OP_plus", "DW_OP_stack_value")


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("!n = !{!1}\n", "use of undefined metadata '!1'", 9),
        ("!0 = !{}\n!0 = !{}\n", "Metadata id is already used", 1),  # at line 3, as llvm-as
        ("!0 = !DILocation(line: 1)\n", "missing required field 'scope'", 25),
        ("!0 = !DIBasicType(bogus: 1)\n", "invalid field 'bogus'", 19),
        ("!0 = !DIBasicType(size: 1, size: 2)\n", "field 'size' cannot be specified more than once", 28),
        ("!0 = !DICompileUnit(language: DW_LANG_C99, file: null)\n", "missing 'distinct', required for !DICompileUnit", 6),
        ("!0 = !DISubprogram(name: \"f\")\n", "missing 'distinct', required for !DISubprogram that is a Definition", 6),
        ("!0 = !DIBasicType(name: 7)\n", "expected string constant", 25),
        ("!0 = !DIBasicType(encoding: nope)\n", "expected DWARF type attribute encoding", 29),
        ("!0 = !DIArgList(i32 1)\n", "expected metadata type", 6),
        ("!n = !{!DIArgList(i32 1)}\n", "found DIArgList outside of function", 8),
    ],
)
def test_metadata_errors(text: str, message: str, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse(text, None, "t.ll")
    assert (info.value.message, info.value.column) == (message, column)
