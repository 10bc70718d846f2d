"""Core metadata, debug-info nodes and module flags.

Expected behaviour comes from LLVM 19 (LangRef "Metadata"; facts checked with
``opt-19 -S`` where noted)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.debug_info import (
    DI_FLAGS,
    DI_KINDS,
    FIELD_SPECS,
    OPERAND_ORDER,
    DIEnum,
    DIExpression,
    DILocation,
    DINode,
    flags_value,
    sp_flags_from_legacy,
    split_di_flags,
    split_disp_flags,
)
from llvmpy_mid.ir.metadata import (
    ConstantAsMetadata,
    DIArgList,
    LocalAsMetadata,
    MDNode,
    MDString,
    MDTuple,
    MetadataAsValue,
    NamedMDNode,
    ValueAsMetadata,
)
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.module_flags import (
    ModuleFlagBehavior,
    add_module_flag,
    behavior_value,
    get_module_flag,
    get_module_flag_int,
    module_flag_behavior,
    module_flags,
    set_module_flag,
)
from llvmpy_mid.ir.value import User, Value


@pytest.fixture
def ctx() -> Context:
    return Context()


def s(ctx: Context, text: str) -> MDString:
    return MDString.get(ctx, text)


# --- strings and tuples ---------------------------------------------------------------------


def test_mdstring_is_uniqued(ctx: Context) -> None:
    assert s(ctx, "a") is s(ctx, "a")
    assert s(ctx, "a") is not s(ctx, "b")
    assert ctx.metadata_strings["a"] is s(ctx, "a")
    assert s(ctx, "a") is not MDString.get(Context(), "a")


def test_mdstring_keeps_arbitrary_bytes(ctx: Context) -> None:
    raw = b"\xff\x00ok"
    md = MDString.get(ctx, raw)
    assert md.bytes == raw
    assert MDString.get(ctx, raw) is md
    assert len(md) == 4


def test_uniqued_tuples_are_shared_distinct_never(ctx: Context) -> None:
    a = MDNode.get(ctx, [s(ctx, "x"), None])
    assert MDNode.get(ctx, [s(ctx, "x"), None]) is a
    assert MDTuple.get(ctx, (s(ctx, "x"), None)) is a
    assert a.is_uniqued and not a.is_distinct and not a.is_temporary and a.is_resolved
    assert a.operands == (s(ctx, "x"), None)
    d1 = MDNode.distinct(ctx, [s(ctx, "x"), None])
    d2 = MDNode.distinct(ctx, [s(ctx, "x"), None])
    assert d1 is not d2 and d1 is not a and d1.is_distinct
    assert MDNode.get(ctx, []) is MDNode.get(ctx, ())
    assert MDNode.get(ctx, [a]) is not MDNode.get(ctx, [d1])


def test_temporary_forward_reference_is_replaced(ctx: Context) -> None:
    # !0 = !{!1}; !2 = distinct !{!1}; !1 = !{!"x"}  (forward reference to !1)
    temp = MDNode.temporary(ctx)
    n0 = MDNode.get(ctx, [temp])
    n2 = MDNode.distinct(ctx, [temp])
    assert temp.is_temporary and not n0.is_resolved and n2.is_resolved
    real = MDNode.get(ctx, [s(ctx, "x")])
    temp.replace_all_uses_with(real)
    assert n0.operands == (real,) and n2.operands == (real,)
    assert MDNode.get(ctx, [real]) is n0  # re-uniqued under its new operands
    assert n0.is_resolved and n0.is_uniqued
    assert temp.num_tracking_users == 0
    temp.delete_temporary()
    assert temp.is_deleted


def test_unresolved_chain_resolves_transitively(ctx: Context) -> None:
    temp = MDNode.temporary(ctx)
    inner = MDNode.get(ctx, [temp])
    outer = MDNode.get(ctx, [inner, s(ctx, "o")])
    assert not inner.is_resolved and not outer.is_resolved
    temp.replace_all_uses_with(s(ctx, "leaf"))
    assert inner.is_resolved and outer.is_resolved
    assert MDNode.get(ctx, [MDNode.get(ctx, [s(ctx, "leaf")]), s(ctx, "o")]) is outer


def test_collision_merges_unresolved_node(ctx: Context) -> None:
    existing = MDNode.get(ctx, [s(ctx, "x")])
    temp = MDNode.temporary(ctx)
    dup = MDNode.get(ctx, [temp])
    holder = MDNode.distinct(ctx, [dup])
    outer = MDNode.get(ctx, [dup])
    temp.replace_all_uses_with(s(ctx, "x"))
    assert dup.is_deleted
    assert holder.operands == (existing,)
    assert outer.operands == (existing,) and MDNode.get(ctx, [existing]) is outer
    with pytest.raises(IRError):
        dup.replace_operand_with(0, None)


def test_self_reference_becomes_distinct(ctx: Context) -> None:
    # opt-19 prints `!0 = !{!0}` as `!0 = distinct !{!0}`.
    temp = MDNode.temporary(ctx)
    node = MDNode.get(ctx, [temp])
    temp.replace_all_uses_with(node)
    assert node.is_distinct and node.operands == (node,)
    assert node.is_resolved


def test_uniqued_cycle_stays_uniqued_and_resolves_on_request(ctx: Context) -> None:
    # opt-19 keeps `!1 = !{!2}` / `!2 = !{!1}` uniqued.
    t2 = MDNode.temporary(ctx)  # the forward reference to !2
    n1 = MDNode.get(ctx, [t2])
    n2 = MDNode.get(ctx, [n1])
    t2.replace_all_uses_with(n2)
    assert n1.operands == (n2,) and n2.operands == (n1,)
    assert n1.is_uniqued and n2.is_uniqued
    assert not n1.is_resolved
    n1.resolve_cycles()
    assert n1.is_resolved and n2.is_resolved


def test_replace_operand_with_reuniques(ctx: Context) -> None:
    node = MDNode.get(ctx, [s(ctx, "a")])
    node.replace_operand_with(0, s(ctx, "b"))
    assert node.operands == (s(ctx, "b"),)
    assert MDNode.get(ctx, [s(ctx, "b")]) is node
    assert MDNode.get(ctx, [s(ctx, "a")]) is not node
    # Resolved node colliding with an existing one: becomes distinct (LLVM).
    other = MDNode.get(ctx, [s(ctx, "c")])
    node.replace_operand_with(0, s(ctx, "c"))
    assert node.is_distinct and MDNode.get(ctx, [s(ctx, "c")]) is other
    d = MDNode.distinct(ctx, [None])
    d.replace_operand_with(0, s(ctx, "z"))
    assert d.operands == (s(ctx, "z"),) and d.is_distinct


def test_replace_all_uses_with_needs_temporary(ctx: Context) -> None:
    with pytest.raises(IRError):
        MDNode.get(ctx, []).replace_all_uses_with(None)
    temp = MDNode.temporary(ctx)
    with pytest.raises(IRError):
        temp.replace_all_uses_with(temp)


# --- values as metadata -----------------------------------------------------------------------


def test_value_as_metadata_is_uniqued_per_value(ctx: Context) -> None:
    c = ConstantInt.get(ctx.i32, 1)
    v = Value(ctx.i32)
    cm = ValueAsMetadata.get(c)
    lm = ValueAsMetadata.get(v)
    assert ValueAsMetadata.get(c) is cm and isinstance(cm, ConstantAsMetadata)
    assert isinstance(lm, LocalAsMetadata) and lm.type is ctx.i32
    assert ctx.value_metadata[c] is cm and ctx.value_metadata[v] is lm
    assert ValueAsMetadata.get_if_exists(Value(ctx.i32)) is None
    assert MDNode.get(ctx, [cm]) is MDNode.get(ctx, [ValueAsMetadata.get(c)])


def test_rauw_repoints_wrapper(ctx: Context) -> None:
    a, b = Value(ctx.i32), Value(ctx.i32)
    md = ValueAsMetadata.get(a)
    node = MDNode.distinct(ctx, [md])
    a.replace_all_uses_with(b)
    assert md.value is b
    assert ctx.value_metadata.get(b) is md and a not in ctx.value_metadata
    assert node.operands == (md,)


def test_rauw_merges_with_existing_wrapper(ctx: Context) -> None:
    a, b = Value(ctx.i32), Value(ctx.i32)
    ma, mb = ValueAsMetadata.get(a), ValueAsMetadata.get(b)
    na = MDNode.distinct(ctx, [ma, ma])
    nb = MDNode.distinct(ctx, [mb])
    a.replace_all_uses_with(b)
    assert na.operands == (mb, mb) and nb.operands == (mb,)
    assert ValueAsMetadata.get(b) is mb
    assert ma.num_tracking_users == 0


def test_rauw_merge_reuniques_uniqued_holder(ctx: Context) -> None:
    a, b = Value(ctx.i32), Value(ctx.i32)
    ma, mb = ValueAsMetadata.get(a), ValueAsMetadata.get(b)
    na = MDNode.get(ctx, [ma])
    nb = MDNode.get(ctx, [mb])
    a.replace_all_uses_with(b)
    # Both would be !{i32 %b}: the resolved one that changed turns distinct.
    assert na.operands == (mb,) and na.is_distinct
    assert MDNode.get(ctx, [mb]) is nb


def test_local_replaced_by_constant_gets_constant_wrapper(ctx: Context) -> None:
    v = Value(ctx.i32)
    c = ConstantInt.get(ctx.i32, 42)
    node = MDNode.distinct(ctx, [ValueAsMetadata.get(v)])
    v.replace_all_uses_with(c)
    op = node.operands[0]
    assert isinstance(op, ConstantAsMetadata) and op.value is c
    assert ValueAsMetadata.get(c) is op


def test_constant_replaced_by_local_is_dropped(ctx: Context) -> None:
    c = ConstantInt.get(ctx.i32, 42)
    node = MDNode.distinct(ctx, [ValueAsMetadata.get(c), s(ctx, "k")])
    c.replace_all_uses_with(Value(ctx.i32))
    assert node.operands == (None, s(ctx, "k"))


def test_deleted_global_becomes_null_and_node_distinct(ctx: Context) -> None:
    # opt-19 -passes=globaldce on `!0 = !{ptr @g}` / `!1 = !{ptr @h, i32 1}` prints
    # `!0 = distinct !{null}` / `!1 = distinct !{null, i32 1}`.
    m = Module("m", ctx)
    g = m.add_global(ctx.i32, "g")
    one = ValueAsMetadata.get(ConstantInt.get(ctx.i32, 1))
    n0 = MDNode.get(ctx, [ValueAsMetadata.get(g)])
    n1 = MDNode.get(ctx, [ValueAsMetadata.get(g), one])
    n2 = MDNode.get(ctx, [n0])
    g.erase_from_parent()
    assert n0.operands == (None,) and n0.is_distinct
    assert n1.operands == (None, one) and n1.is_distinct
    assert n2.operands == (n0,) and n2.is_uniqued
    assert g not in ctx.value_metadata


# --- metadata as value ----------------------------------------------------------------------


def test_metadata_as_value_is_uniqued(ctx: Context) -> None:
    node = MDNode.get(ctx, [s(ctx, "a")])
    mav = MetadataAsValue.get(ctx, node)
    assert MetadataAsValue.get(ctx, node) is mav
    assert mav.type is ctx.metadata and mav.is_metadata_as_value and MetadataAsValue.is_metadata_as_value
    assert mav.metadata is node
    assert MetadataAsValue.get_if_exists(ctx, node) is mav
    assert MetadataAsValue.get_if_exists(ctx, MDNode.get(ctx, [s(ctx, "zz")])) is None


def test_metadata_as_value_canonicalises_like_llvm(ctx: Context) -> None:
    # opt-19: `metadata !{i32 1}` -> `metadata i32 1`; `!{null}` and `!{}` -> `!{}`.
    one = ValueAsMetadata.get(ConstantInt.get(ctx.i32, 1))
    assert MetadataAsValue.get(ctx, MDNode.get(ctx, [one])).metadata is one
    empty = MDNode.get(ctx, [])
    assert MetadataAsValue.get(ctx, MDNode.get(ctx, [None])).metadata is empty
    assert MetadataAsValue.get(ctx, None).metadata is empty
    local = ValueAsMetadata.get(Value(ctx.i32))
    wrapped = MDNode.get(ctx, [local])
    assert MetadataAsValue.get(ctx, wrapped).metadata is wrapped


def test_metadata_as_value_follows_temporary(ctx: Context) -> None:
    temp = MDNode.temporary(ctx)
    mav = MetadataAsValue.get(ctx, temp)
    real = MDNode.get(ctx, [s(ctx, "r")])
    temp.replace_all_uses_with(real)
    assert mav.metadata is real and MetadataAsValue.get(ctx, real) is mav


def test_metadata_as_value_merges_and_moves_uses(ctx: Context) -> None:
    a, b = Value(ctx.i32), Value(ctx.i32)
    mav_a = MetadataAsValue.get(ctx, ValueAsMetadata.get(a))
    mav_b = MetadataAsValue.get(ctx, ValueAsMetadata.get(b))
    call = User(ctx.void, [mav_a])
    a.replace_all_uses_with(b)
    assert call.operands == [mav_b]
    assert mav_a.use_empty


def test_metadata_as_value_of_deleted_value_is_empty_tuple(ctx: Context) -> None:
    # opt-19 -passes=globaldce: `call @llvm.type.test(ptr null, metadata ptr @g)` -> `metadata !0`, `!0 = !{}`.
    m = Module("m", ctx)
    g = m.add_global(ctx.i32, "g")
    mav = MetadataAsValue.get(ctx, ValueAsMetadata.get(g))
    g.erase_from_parent()
    assert mav.metadata is MDNode.get(ctx, [])


# --- DIArgList ------------------------------------------------------------------------------


def test_di_arg_list_uniqued_and_follows_values(ctx: Context) -> None:
    a, b, c = Value(ctx.i32), Value(ctx.i32), Value(ctx.i32)
    ma, mb = ValueAsMetadata.get(a), ValueAsMetadata.get(b)
    al = DIArgList.get(ctx, [ma, mb])
    assert DIArgList.get(ctx, (ma, mb)) is al and DIArgList.get(ctx, [mb, ma]) is not al
    a.replace_all_uses_with(c)
    assert al.values == [c, b]
    assert DIArgList.get(ctx, [ValueAsMetadata.get(c), mb]) is al


def test_di_arg_list_merges_into_existing(ctx: Context) -> None:
    a, b, c = Value(ctx.i32), Value(ctx.i32), Value(ctx.i32)
    al_ab = DIArgList.get(ctx, [ValueAsMetadata.get(a), ValueAsMetadata.get(b)])
    al_cb = DIArgList.get(ctx, [ValueAsMetadata.get(c), ValueAsMetadata.get(b)])
    mav = MetadataAsValue.get(ctx, al_ab)
    a.replace_all_uses_with(c)
    assert mav.metadata is al_cb and MetadataAsValue.get(ctx, al_cb) is mav
    assert al_ab.num_tracking_users == 0


def test_di_arg_list_deleted_value_becomes_poison(ctx: Context) -> None:
    # opt-19 -passes=dce: `!DIArgList(i32 %x, i32 %a)` -> `!DIArgList(i32 poison, ...)`.
    m = Module("m", ctx)
    g = m.add_global(ctx.i32, "g")
    v = Value(ctx.i32)
    al = DIArgList.get(ctx, [ValueAsMetadata.get(g), ValueAsMetadata.get(v)])
    g.erase_from_parent()
    assert al.values == [PoisonValue.get(ctx.ptr), v]


# --- named metadata -------------------------------------------------------------------------


def test_named_metadata_in_module(ctx: Context) -> None:
    m = Module("m", ctx)
    named = m.get_or_insert_named_metadata("llvm.dbg.cu")
    assert isinstance(named, NamedMDNode) and m.named_metadata["llvm.dbg.cu"] is named
    temp = MDNode.temporary(ctx)
    n1 = MDNode.get(ctx, [s(ctx, "one")])
    named.add_operand(temp)
    named.add_operand(n1)
    real = MDNode.distinct(ctx, [])
    temp.replace_all_uses_with(real)
    assert named.operands == [real, n1] and len(named) == 2 and named.get_operand(0) is real
    named.set_operand(1, real)
    assert list(named) == [real, real]
    named.erase()
    assert "llvm.dbg.cu" not in m.named_metadata and named.num_operands == 0


def test_named_metadata_standalone() -> None:
    named = NamedMDNode("x")
    assert named.module is None and named.operands == []
    named.erase()


# --- module flags --------------------------------------------------------------------------


def test_module_flags_round_trip(ctx: Context) -> None:
    m = Module("m", ctx)
    assert get_module_flag(m, "Dwarf Version") is None and module_flags(m) == []
    node = add_module_flag(m, "Max", "Dwarf Version", 5)
    add_module_flag(m, ModuleFlagBehavior.WARNING, "Debug Info Version", 3)
    # clang-19 writes exactly this node: !{i32 7, !"Dwarf Version", i32 5}
    i32 = ctx.i32
    assert node is MDNode.get(
        ctx,
        [
            ValueAsMetadata.get(ConstantInt.get(i32, 7)),
            s(ctx, "Dwarf Version"),
            ValueAsMetadata.get(ConstantInt.get(i32, 5)),
        ],
    )
    assert get_module_flag_int(m, "Dwarf Version") == 5
    assert get_module_flag(m, "Debug Info Version") is ValueAsMetadata.get(ConstantInt.get(i32, 3))
    flags = module_flags(m)
    assert [(f.behavior, f.key) for f in flags] == [(7, "Dwarf Version"), (2, "Debug Info Version")]
    set_module_flag(m, "Error", "Dwarf Version", 4)
    assert get_module_flag_int(m, "Dwarf Version") == 4
    assert [f.key for f in module_flags(m)] == ["Dwarf Version", "Debug Info Version"]
    add_module_flag(m, 1, "name", s(ctx, "v"))
    assert get_module_flag(m, "name") is s(ctx, "v") and get_module_flag_int(m, "name") is None


def test_module_flags_skip_malformed_entries(ctx: Context) -> None:
    m = Module("m", ctx)
    m.get_or_insert_named_metadata("llvm.module.flags").add_operand(MDNode.get(ctx, [s(ctx, "junk")]))
    add_module_flag(m, 8, "k", 1)
    assert [f.key for f in module_flags(m)] == ["k"]


def test_module_flag_behaviors() -> None:
    assert module_flag_behavior == {
        "Error": 1, "Warning": 2, "Require": 3, "Override": 4,
        "Append": 5, "AppendUnique": 6, "Max": 7, "Min": 8,
    }
    assert behavior_value("AppendUnique") == 6 == ModuleFlagBehavior.APPEND_UNIQUE
    with pytest.raises(IRError):
        behavior_value("Sometimes")
    with pytest.raises(IRError):
        behavior_value(9)


# --- debug-info nodes -----------------------------------------------------------------------


def _file(ctx: Context) -> DINode:
    return DINode.get(
        ctx,
        "DIFile",
        [("filename", s(ctx, "a.c")), ("directory", s(ctx, "/tmp")), ("checksumkind", DIEnum.of("CSK_MD5")),
         ("checksum", s(ctx, "0123"))],
    )


def test_di_node_uniquing_and_fields(ctx: Context) -> None:
    f = _file(ctx)
    assert _file(ctx) is f and f.kind == "DIFile" and f.is_di_node
    assert f.field_names == ("filename", "directory", "checksumkind", "checksum")
    assert f.get_field("checksumkind") == DIEnum.of("CSK_MD5")
    assert f.get_field("source") is None and not f.has_field("source")
    assert f.fields["filename"] is s(ctx, "a.c")
    int_ty = DINode.get(ctx, "DIBasicType", {"name": s(ctx, "int"), "size": 32, "encoding": DIEnum.of("DW_ATE_signed")})
    # Field order, explicit defaults and empty strings do not matter (LLVM uniques by value).
    same = DINode.get(
        ctx, "DIBasicType",
        [("encoding", DIEnum.of("DW_ATE_signed")), ("size", 32), ("name", s(ctx, "int")),
         ("tag", DIEnum.of("DW_TAG_base_type")), ("flags", 0), ("align", 0)],
    )
    assert same is int_ty
    assert int_ty.field_names == ("name", "size", "encoding")  # stored as first given
    assert DINode.get(ctx, "DIBasicType", {"name": s(ctx, ""), "size": 32}) is DINode.get(
        ctx, "DIBasicType", {"size": 32}
    )
    assert int_ty.get_field("tag") == DIEnum.of("DW_TAG_base_type")
    assert DINode.distinct(ctx, "DIBasicType", {"size": 32}) is not DINode.distinct(ctx, "DIBasicType", {"size": 32})


def test_di_node_rejects_unknown_kinds_and_fields(ctx: Context) -> None:
    with pytest.raises(IRError, match="unknown debug-info node kind"):
        DINode.get(ctx, "DIBogus", {})
    with pytest.raises(IRError, match="invalid field 'colour'"):
        DINode.get(ctx, "DIBasicType", {"colour": 1})
    with pytest.raises(IRError, match="more than once"):
        DINode.get(ctx, "DIBasicType", [("size", 1), ("size", 2)])


def test_di_enum_flags(ctx: Context) -> None:
    flags = DIEnum.of("DIFlagPrototyped", "DIFlagArtificial")
    assert str(flags) == "DIFlagPrototyped | DIFlagArtificial" and flags.names == ("DIFlagPrototyped", "DIFlagArtificial")
    assert DIEnum.of("DW_TAG_member") is DIEnum.of("DW_TAG_member")
    assert hash(DIEnum.of("x")) == hash(DIEnum(("x",)))


def test_subprogram_operands_follow_llvm_operand_order(ctx: Context) -> None:
    f = _file(ctx)
    cu = DINode.distinct(ctx, "DICompileUnit", {"language": DIEnum.of("DW_LANG_C11"), "file": f,
                                                "emissionKind": DIEnum.of("FullDebug")})
    sty = DINode.get(ctx, "DISubroutineType", {"types": MDNode.get(ctx, [None])})
    sp = DINode.distinct(
        ctx, "DISubprogram",
        [("name", s(ctx, "main")), ("scope", f), ("file", f), ("line", 3), ("type", sty),
         ("spFlags", DIEnum.of("DISPFlagDefinition")), ("unit", cu)],
    )
    ops = sp.operands
    assert len(ops) == len(OPERAND_ORDER["DISubprogram"])
    # LLVM: file, scope, name, linkageName, type, unit, ...
    assert ops[:6] == (f, f, s(ctx, "main"), None, sty, cu)
    assert sp.name == "main" and sp.line == 3  # type: ignore[attr-defined]
    assert sp.get_field("virtualIndex") == 0 and sp.get_field("isDefinition") is True


def test_di_node_forward_reference_and_set_field(ctx: Context) -> None:
    temp = MDNode.temporary(ctx)
    var = DINode.get(ctx, "DILocalVariable", {"name": s(ctx, "x"), "scope": temp, "line": 2})
    assert not var.is_resolved
    sp = DINode.distinct(ctx, "DISubprogram", {"name": s(ctx, "f")})
    temp.replace_all_uses_with(sp)
    assert var.get_field("scope") is sp and var.is_resolved
    assert DINode.get(ctx, "DILocalVariable", {"scope": sp, "line": 2, "name": s(ctx, "x")}) is var
    var.set_field("line", 5)  # type: ignore[attr-defined]
    assert var.get_field("line") == 5
    assert DINode.get(ctx, "DILocalVariable", {"name": s(ctx, "x"), "scope": sp, "line": 5}) is var
    var.replace_operand_with(OPERAND_ORDER["DILocalVariable"].index("type"), sp)
    assert var.get_field("type") is sp


def test_generic_di_node_operands(ctx: Context) -> None:
    a = MDNode.get(ctx, [s(ctx, "a")])
    g = DINode.get(ctx, "GenericDINode", {"tag": DIEnum.of("DW_TAG_entry_point"), "header": s(ctx, "h"),
                                          "operands": (a, None)})
    assert g.operands == (s(ctx, "h"), a, None)
    temp = MDNode.temporary(ctx)
    g2 = DINode.get(ctx, "GenericDINode", {"tag": DIEnum.of("DW_TAG_entry_point"), "operands": (temp,)})
    temp.replace_all_uses_with(a)
    assert g2.get_field("operands") == (a,)


def test_template_value_parameter_holds_typed_constant(ctx: Context) -> None:
    three = ValueAsMetadata.get(ConstantInt.get(ctx.i32, 3))
    p = DINode.get(ctx, "DITemplateValueParameter", {"name": s(ctx, "N"), "value": three})
    assert p.get_field("value") is three and p.get_field("tag") == DIEnum.of("DW_TAG_template_value_parameter")


def test_dilocation(ctx: Context) -> None:
    sp = DINode.distinct(ctx, "DISubprogram", {"name": s(ctx, "f")})
    block = DINode.distinct(ctx, "DILexicalBlock", {"scope": sp, "line": 4})
    loc = DILocation.get(ctx, 3, 7, block)
    assert DILocation.get(ctx, 3, 7, block) is loc
    assert (loc.line, loc.column, loc.scope, loc.inlined_at, loc.is_implicit_code) == (3, 7, block, None, False)
    assert loc.subprogram is sp
    call_site = DILocation.get(ctx, 10, 1, sp)
    inlined = DILocation.get(ctx, 3, 7, block, call_site)
    assert inlined is not loc and inlined.inlined_at_location is call_site
    # Built from fields, a zero column is the default: `column: 0` is the same node (opt-19 merges them).
    assert DINode.get(ctx, "DILocation", {"line": 3, "column": 0, "scope": block}) is DILocation.get(ctx, 3, 0, block)
    assert loc.field_names == ("line", "column", "scope")
    assert loc.operands == (block, None)
    assert DILocation.distinct(ctx, 3, 7, block) is not loc
    with pytest.raises(IRError):
        DINode.get(ctx, "DILocation", {"line": 1})


def test_dilocation_with_forward_scope(ctx: Context) -> None:
    temp = MDNode.temporary(ctx)
    loc = DILocation.get(ctx, 1, 2, temp)
    sp = DINode.distinct(ctx, "DISubprogram", {"name": s(ctx, "f")})
    temp.replace_all_uses_with(sp)
    assert loc.scope is sp and DILocation.get(ctx, 1, 2, sp) is loc and loc.is_resolved


def test_diexpression(ctx: Context) -> None:
    empty = DIExpression.get(ctx)
    assert DIExpression.get(ctx, []) is empty and empty.is_empty and not empty.is_complex
    e = DIExpression.get(ctx, ["DW_OP_LLVM_convert", 32, "DW_ATE_signed", "DW_OP_LLVM_fragment", 0, 32])
    assert e.ops() == [("DW_OP_LLVM_convert", (32, "DW_ATE_signed")), ("DW_OP_LLVM_fragment", (0, 32))]
    assert e.fragment == (0, 32) and e.is_complex
    args = DIExpression.get(ctx, ["DW_OP_LLVM_arg", 0, "DW_OP_LLVM_arg", 1, "DW_OP_plus", "DW_OP_stack_value"])
    assert args.has_arg_list and args.num_location_operands == 2 and args.is_stack_value
    # What dce's salvage of `%y = add i32 %a, 1` produces (opt-19):
    assert empty.prepend_opcodes(["DW_OP_plus_uconst", 1], stack_value=True).elements == (
        "DW_OP_plus_uconst", 1, "DW_OP_stack_value",
    )
    frag = DIExpression.get(ctx, ["DW_OP_LLVM_fragment", 0, 8])
    assert frag.prepend_opcodes(["DW_OP_deref"], stack_value=True).elements == (
        "DW_OP_deref", "DW_OP_stack_value", "DW_OP_LLVM_fragment", 0, 8,
    )
    sv = DIExpression.get(ctx, ["DW_OP_plus_uconst", 4, "DW_OP_stack_value"])
    assert sv.append(["DW_OP_deref"]).elements == ("DW_OP_plus_uconst", 4, "DW_OP_deref", "DW_OP_stack_value")
    assert empty.append(["DW_OP_deref"]) is DIExpression.get(ctx, ["DW_OP_deref"])
    assert DIExpression.get(ctx, ["DW_OP_LLVM_fragment", 0, 8]).is_complex is False
    with pytest.raises(IRError):
        DINode.get(ctx, "DIExpression", {})


def test_tables_cover_every_kind() -> None:
    kinds = {
        "DILocation", "DIExpression", "DIAssignID", "GenericDINode", "DISubrange", "DIGenericSubrange",
        "DIEnumerator", "DIBasicType", "DIStringType", "DIDerivedType", "DICompositeType", "DISubroutineType",
        "DIFile", "DICompileUnit", "DISubprogram", "DILexicalBlock", "DILexicalBlockFile", "DICommonBlock",
        "DINamespace", "DIMacro", "DIMacroFile", "DIModule", "DITemplateTypeParameter",
        "DITemplateValueParameter", "DIGlobalVariable", "DILocalVariable", "DILabel", "DIObjCProperty",
        "DIImportedEntity", "DIGlobalVariableExpression",
    }
    assert set(DI_KINDS) == kinds == set(OPERAND_ORDER)
    for kind, order in OPERAND_ORDER.items():
        names = {spec.name for spec in FIELD_SPECS[kind]}
        assert set(order) <= names, kind


def test_flag_words_match_opt19() -> None:
    # Expected strings are opt-19's output for `flags: <n>` / `spFlags: <n>`.
    assert split_di_flags(196711) == (
        "DIFlagPublic", "DIFlagVirtualInheritance", "DIFlagIndirectVirtualBase", "DIFlagArtificial",
    )
    assert split_di_flags(2097216) == ("DIFlagArtificial", "2097152")
    assert split_di_flags(131072) == ("DIFlagMultipleInheritance",)
    assert split_di_flags(4) == ("DIFlagFwdDecl",)
    assert split_di_flags(0) == ()
    assert split_disp_flags(3) == ("DISPFlagVirtual", "DISPFlagPureVirtual")
    assert split_disp_flags(1028) == ("DISPFlagLocalToUnit", "1024")
    assert split_disp_flags(5120) == ("5120",)
    assert flags_value(["DIFlagPrototyped", "DIFlagArtificial"]) == DI_FLAGS["DIFlagPrototyped"] | 64
    assert flags_value(["DISPFlagDefinition", "1024"]) == 8 | 1024
    # `distinct !DISubprogram(isLocal: true, isOptimized: true, virtuality: DW_VIRTUALITY_pure_virtual)`
    assert sp_flags_from_legacy(True, True, True, 2) == DIEnum.of(
        "DISPFlagPureVirtual", "DISPFlagLocalToUnit", "DISPFlagDefinition", "DISPFlagOptimized",
    )
    assert sp_flags_from_legacy(is_definition=False) == 0


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
def test_oracle_deleted_constant_makes_node_distinct() -> None:
    text = "@g = internal global i32 0\n!named = !{!0}\n!0 = !{ptr @g}\n"
    out = subprocess.run(
        ["opt-19", "-S", "-passes=globaldce"], input=text, capture_output=True, text=True, check=True
    ).stdout
    assert "!0 = distinct !{null}" in out


# --- property: uniquing and forward references stay consistent under random edits --------------

_OPS = st.lists(
    st.tuples(st.integers(0, 4), st.lists(st.integers(0, 40), max_size=3), st.integers(0, 40)),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_OPS)
def test_random_metadata_edits_keep_uniquing_consistent(script: list[tuple[int, list[int], int]]) -> None:
    ctx = Context()
    strings = [s(ctx, "s%d" % i) for i in range(3)]
    temps: list[MDNode] = []
    nodes: list[MDNode] = []
    replaced: list[MDNode] = []

    def pick(i: int) -> object:
        pool: list[object] = [None, *strings, *temps, *nodes]
        return pool[i % len(pool)]

    for op, picks, extra in script:
        if op == 0:
            temps.append(MDNode.temporary(ctx))
        elif op in (1, 2):
            ops = [pick(i) for i in picks]
            ops = [o for o in ops if not (isinstance(o, MDNode) and o.is_deleted)]
            make = MDNode.get if op == 1 else MDNode.distinct
            nodes.append(make(ctx, ops))  # type: ignore[arg-type]
        elif op == 3 and temps:
            temp = temps.pop(extra % len(temps))
            target = pick(picks[0] if picks else extra)
            if target is temp or (isinstance(target, MDNode) and target.is_deleted):
                target = strings[0]
            temp.replace_all_uses_with(target)  # type: ignore[arg-type]
            replaced.append(temp)
        elif op == 4 and nodes:
            node = nodes[extra % len(nodes)]
            if not node.is_deleted and node.num_operands:
                new = pick(picks[0] if picks else 0)
                if not (isinstance(new, MDNode) and new.is_deleted):
                    node.replace_operand_with(extra % node.num_operands, new)  # type: ignore[arg-type]
    for temp in temps:
        temp.replace_all_uses_with(strings[1])
        replaced.append(temp)
    alive = [n for n in nodes if not n.is_deleted]
    for n in alive:
        n.resolve_cycles()
    table = ctx.metadata_nodes
    keys: dict[object, MDNode] = {}
    for n in alive:
        assert n.is_resolved
        for op in n.operands:
            assert not (isinstance(op, MDNode) and (op.is_deleted or op.is_temporary)), (n, op)
        if n.is_uniqued:
            assert table.get(n.uniquing_key()) is n
            assert keys.setdefault(n.uniquing_key(), n) is n
    for temp in replaced:
        assert temp.num_tracking_users == 0
