"""Module-level entities as the parser builds them: header, globals with every
property, aliases, ifuncs, comdats, function headers, attribute groups, the
intrinsic attributes LLVM's reader assigns, and the upgrades it applies."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.asm.parser import parse
from llvmpy_mid.errors import ParseError, VerifierError
from llvmpy_mid.ir.global_value import (
    ComdatSelection,
    DLLStorageClass,
    GlobalAlias,
    GlobalIFunc,
    Linkage,
    ThreadLocalMode,
    UnnamedAddr,
    Visibility,
)


def test_header() -> None:
    m = parse(
        'source_filename = "x.c"\ntarget datalayout = "e-p:32:32"\ntarget triple = "i386-pc-linux"\n'
        'module asm "a"\nmodule asm "b\\0Ac"\n',
        None,
        "t.ll",
    )
    assert m.name == "t.ll" and m.source_filename == "x.c"
    assert m.data_layout_text == "e-p:32:32" and m.data_layout.pointer_size() == 4
    assert m.target_triple == "i386-pc-linux"
    assert m.module_asm == ["a", "b", "c"]


def test_triple_without_layout_gets_opts_layout() -> None:
    m = parse('target triple = "x86_64-unknown-linux-gnu"\n', None, "t.ll")
    assert m.data_layout_text.startswith("e-m:e-p270:32:32")


def test_global_variable_properties() -> None:
    m = parse(
        "$c = comdat largest\n"
        "@a = internal thread_local(initialexec) unnamed_addr addrspace(1) constant i32 1, section \"s\", "
        "partition \"p\", comdat($c), align 8, code_model \"small\", no_sanitize_address, sanitize_memtag #0\n"
        "@b = external dllimport global i32\n@c = linkonce_odr dso_local hidden global i8 0, comdat\n"
        "@d = extern_weak global ptr\n@e = local_unnamed_addr externally_initialized global i32 0\n"
        'attributes #0 = { "bss-section"="x" }\n',
        None,
        "t.ll",
    )
    a = m.get_global("a")
    assert a is not None and a.linkage is Linkage.INTERNAL and a.is_constant_global
    assert a.thread_local_mode is ThreadLocalMode.INITIAL_EXEC and a.unnamed_addr is UnnamedAddr.GLOBAL
    assert a.address_space == 1 and a.section == "s" and a.partition == "p" and a.alignment == 8
    assert a.code_model == "small" and a.sanitizer_metadata == ("no_sanitize_address", "sanitize_memtag")
    assert a.comdat is m.comdats["c"] and m.comdats["c"].selection is ComdatSelection.LARGEST
    assert a.attributes.string_value("bss-section") == "x"
    b = m.get_global("b")
    assert b is not None and b.is_declaration and b.dll_storage_class is DLLStorageClass.DLLIMPORT
    c = m.get_global("c")
    assert c is not None and c.visibility is Visibility.HIDDEN and c.is_dso_local and c.comdat is m.comdats["c"]
    d = m.get_global("d")
    assert d is not None and d.linkage is Linkage.EXTERN_WEAK and d.is_declaration
    e = m.get_global("e")
    assert e is not None and e.externally_initialized and e.unnamed_addr is UnnamedAddr.LOCAL


def test_forward_referenced_globals_are_replaced() -> None:
    m = parse("@a = global ptr @b\n@b = global ptr @a\n@c = global ptr getelementptr (i8, ptr @d, i64 1)\n@d = global i8 0\n", None, "t.ll")
    a, b = m.get_global("a"), m.get_global("b")
    assert a is not None and b is not None
    assert a.initializer is b and b.initializer is a
    c = m.get_global("c")
    assert c is not None and c.initializer.get_operand(0) is m.get_global("d")  # type: ignore[union-attr]


def test_aliases_and_ifuncs() -> None:
    m = parse(
        "@g = global [2 x i32] zeroinitializer\n@a = weak_odr hidden alias i32, getelementptr (i32, ptr @g, i64 1)\n"
        "@b = internal alias [2 x i32], ptr @g\ndefine ptr @r() {\n  ret ptr null\n}\n@i = ifunc void (), ptr @r\n",
        None,
        "t.ll",
    )
    a = m.get_alias("a")
    assert isinstance(a, GlobalAlias) and a.linkage is Linkage.WEAK_ODR and a.visibility is Visibility.HIDDEN
    assert a.base_object is m.get_global("g")
    i = m.get_ifunc("i")
    assert isinstance(i, GlobalIFunc) and i.resolver is m.get_function("r")


def test_function_header_parts() -> None:
    m = parse(
        "declare i32 @pers(...)\n$f = comdat any\n"
        "define internal fastcc noalias ptr @f(ptr noundef byval(i32) align 4 %p, i32 %n) unnamed_addr "
        'addrspace(0) #0 section ".text.f" partition "q" comdat align 16 gc "shadow-stack" prefix i32 1 '
        "prologue i8 2 personality ptr @pers {\n  ret ptr null\n}\n"
        "attributes #0 = { noinline nounwind align=32 }\n",
        None,
        "t.ll",
    )
    f = m.get_function("f")
    assert f is not None and f.linkage is Linkage.INTERNAL and f.calling_conv == 8
    assert f.attributes.has_ret_attr("noalias") and f.attributes.has_param_attr(0, "byval")
    assert f.attributes.param_alignment(0) == 4 and [a.name for a in f.args] == ["p", "n"]
    assert f.unnamed_addr is UnnamedAddr.GLOBAL and f.section == ".text.f" and f.partition == "q"
    assert f.comdat is m.comdats["f"] and f.gc == "shadow-stack"
    assert f.prefix_data is not None and f.prologue_data is not None and f.personality is m.get_function("pers")
    # "align" inside the group becomes the function's alignment (LLVM does the same).
    assert f.alignment == 32 and f.attributes.has_fn_attr("noinline")
    assert not f.attributes.has_fn_attr("align")


def test_attribute_group_merging_and_legacy_memory_words() -> None:
    m = parse(
        "declare void @a() #0\ndeclare void @b() readonly argmemonly\n"
        "define void @c() {\n  call void @a() #1\n  ret void\n}\n"
        "attributes #0 = { nounwind memory(read) }\nattributes #1 = { cold }\n",
        None,
        "t.ll",
    )
    a, b = m.get_function("a"), m.get_function("b")
    assert a is not None and b is not None
    assert a.attributes.fn_attrs.as_string() == "nounwind memory(read)"
    assert b.attributes.fn_attrs.as_string() == "memory(argmem: read)"
    call = next(iter(m.get_function("c").entry_block))  # type: ignore[union-attr]
    assert call.attributes.fn_attrs.as_string() == "cold"  # type: ignore[attr-defined]


def test_intrinsics_get_llvms_attributes_and_new_names() -> None:
    m = parse(
        "declare i32 @llvm.ctpop.i32(i32) cold\n"
        "declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)\n"
        "declare i8* @llvm.stacksave()\n"
        "define void @f(ptr %p) {\n  call void @llvm.memcpy.p0i8.p0i8.i64(ptr %p, ptr %p, i64 1, i1 false)\n"
        "  %s = call ptr @llvm.stacksave()\n  %q = call i32 @llvm.ctlz.i32(i32 1, i1 false)\n  ret void\n}\n",
        None,
        "t.ll",
    )
    ctpop = m.get_function("llvm.ctpop.i32")
    assert ctpop is not None
    assert ctpop.attributes.fn_attrs.as_string() == (
        "nocallback nofree nosync nounwind speculatable willreturn memory(none)"
    )
    memcpy = m.get_function("llvm.memcpy.p0.p0.i64")
    assert memcpy is not None and m.get_function("llvm.memcpy.p0i8.p0i8.i64") is None
    assert memcpy.attributes.param_attrs(3).as_string() == "immarg"
    assert m.get_function("llvm.stacksave.p0") is not None
    # A call of an undeclared intrinsic declares it.
    ctlz = m.get_function("llvm.ctlz.i32")
    assert ctlz is not None and ctlz.is_declaration and ctlz.attributes.has_fn_attr("speculatable")
    # The renamed declarations come last, as LLVM makes them.
    assert [f.name for f in m.functions][-2:] == ["llvm.memcpy.p0.p0.i64", "llvm.stacksave.p0"]


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("@g = global i32 0\n@g = global i32 0\n", "redefinition of global '@g'", 2, 1),
        ("@0 = global i32 0\n@0 = global i32 0\n", "global expected to be numbered '@1' or greater", 2, 1),
        ("define void @f() {\n  ret void\n}\ndefine void @f() {\n  ret void\n}\n", "invalid redefinition of function 'f'", 4, 13),
        ("@g = internal hidden global i32 0\n", "symbol with local linkage must have default visibility", 1, 1),
        ("declare internal void @f()\n", "invalid linkage for function declaration", 1, 9),
        ("@a = common alias i32, ptr @g\n@g = global i32 0\n", "invalid linkage type for alias", 1, 1),
        ("@g = global i32 0, comdat($nope)\n", "use of undefined comdat '$nope'", 1, 27),
        ("$c = comdat any\n$c = comdat any\n", "redefinition of comdat '$c'", 2, 1),
        ("attributes #0 = { }\n", "attribute group has no attributes", 1, 1),
        ('target datalayout = "e-i64:65"\n', "number of bits must be a byte width multiple", 1, 21),
        ("source_filename = \"a\"\n@g = global i32 0\ntarget triple = \"x\"\n", "expected top-level entity", 3, 1),
    ],
)
def test_module_errors(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse(text, None, "t.ll")
    err = info.value
    assert (err.message, err.line, err.column) == (message, line, column)


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
@pytest.mark.parametrize("behavior", [1, 2, 7, 8])
@pytest.mark.parametrize("key", ["PIC Level", "PIE Level"])
def test_pic_pie_module_flags_upgraded_as_opt(behavior: int, key: str, tmp_path: Path) -> None:
    """LLVM 19 rewrites the behaviour of old PIC/PIE level flags on read (PIC: Error/Max -> Min,
    PIE: Error -> Max); the printed module equals opt-19 -S's."""
    text = '!llvm.module.flags = !{!0, !1}\n!0 = !{i32 %d, !"%s", i32 2}\n!1 = !{i32 7, !"uwtable", i32 2}\n' % (
        behavior,
        key,
    )
    src = tmp_path / "flags.ll"
    src.write_text(text)
    expected = subprocess.run(["opt-19", "-S", str(src)], capture_output=True, text=True, check=True).stdout
    assert print_module(parse_assembly(text, name=str(src))) == expected


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
@pytest.mark.parametrize("attr", ["vscale_range(0,0)", "vscale_range(0)", "vscale_range(0,4)", "vscale_range(2)"])
def test_vscale_range_zero_as_opt(attr: str, tmp_path: Path) -> None:
    """``vscale_range(0,0)`` is no attribute at all in LLVM (dropped on read); a zero minimum with
    a maximum is kept and rejected by the verifier, as opt-19 does."""
    text = "define void @f() %s {\n  ret void\n}\n" % attr
    src = tmp_path / "v.ll"
    src.write_text(text)
    ref = subprocess.run(["opt-19", "-S", str(src)], capture_output=True, text=True)
    if ref.returncode == 0:
        assert print_module(parse_assembly(text, name=str(src))) == ref.stdout
    else:
        assert "'vscale_range' minimum must be greater than 0" in ref.stderr
        with pytest.raises(VerifierError, match="'vscale_range' minimum must be greater than 0"):
            parse_assembly(text)


STRUCT_RETURN_CALLS = [
    """%T = type { i32, i1 }
declare %T @llvm.sadd.with.overflow.i32(i32, i32)
define i32 @f(i32 %a, i32 %b) {
  %r = call %T @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  %v = extractvalue %T %r, 0
  ret i32 %v
}
""",
    """declare <{ i64, i1 }> @llvm.umul.with.overflow.i64(i64, i64)
define i1 @g(i64 %a, i64 %b) {
entry:
  %r = tail call <{ i64, i1 }> @llvm.umul.with.overflow.i64(i64 %a, i64 %b)
  %s = call <{ i64, i1 }> @llvm.umul.with.overflow.i64(i64 %b, i64 %a)
  %o = extractvalue <{ i64, i1 }> %r, 1
  %p = extractvalue <{ i64, i1 }> %s, 1
  %q = and i1 %o, %p
  ret i1 %q
}
""",
]


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
@pytest.mark.parametrize("text", STRUCT_RETURN_CALLS, ids=["named", "packed-two-calls"])
def test_with_overflow_struct_return_calls_rebuilt_as_opt(text: str, tmp_path: Path) -> None:
    """An ``*.with.overflow`` intrinsic declared with an identified or packed struct return gets the
    literal struct; its calls are rebuilt (new call, extractvalue/insertvalue pairs) as LLVM does."""
    src = tmp_path / "sr.ll"
    src.write_text(text)
    ref = subprocess.run(["opt-19", "-S", str(src)], capture_output=True, text=True, check=True).stdout
    assert print_module(parse_assembly(text, name=str(src))) == ref


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
@pytest.mark.parametrize("tag", ["0", "DW_TAG_null"])
def test_generic_dinode_null_tag_as_opt(tag: str, tmp_path: Path) -> None:
    """A zero tag prints as DW_TAG_null, and the verifier rejects it as a broken module (not as
    broken debug info), with opt-19's text."""
    text = "!named = !{!0}\n!0 = !GenericDINode(tag: %s)\n" % tag
    src = tmp_path / "g.ll"
    src.write_text(text)
    ref = subprocess.run(["opt-19", "-S", "-disable-verify", str(src)], capture_output=True, text=True, check=True)
    assert print_module(parse_assembly(text, name=str(src), verify=False)) == ref.stdout
    broken = subprocess.run(["opt-19", "-S", str(src)], capture_output=True, text=True)
    assert broken.returncode == 1 and "input module is broken" in broken.stderr
    with pytest.raises(VerifierError) as info:
        parse_assembly(text, name=str(src))
    assert info.value.llvm_text in broken.stderr


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
def test_intrinsic_remangled_from_its_signature_as_opt(tmp_path: Path) -> None:
    """A described intrinsic whose name's manglings do not match its types is renamed, its calls
    follow (``llvm.umax.i32`` declared on i16 becomes ``llvm.umax.i16``), as opt-19 -S prints."""
    text = "declare i16 @llvm.umax.i32(i16, i16)\ndefine i16 @f(i16 %a) {\n  %r = call i16 @llvm.umax.i32(i16 %a, i16 1)\n  ret i16 %r\n}\n"
    src = tmp_path / "um.ll"
    src.write_text(text)
    ref = subprocess.run(["opt-19", "-S", str(src)], capture_output=True, text=True, check=True).stdout
    assert print_module(parse_assembly(text, name=str(src))) == ref
