"""Types as the parser reads them: primitives, derived types, identified structs
(named, numbered, opaque, packed, forward-referenced) and legacy typed pointers."""

from __future__ import annotations

import pytest

from llvmpy_mid.asm.parser import parse
from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir.types import ArrayType, FunctionType, PointerType, StructType, TargetExtType, VectorType


def _global_type(text: str, name: str = "g") -> object:
    m = parse(text, None, "t.ll")
    gv = m.get_global(name)
    assert gv is not None
    return gv.value_type


def test_primitive_and_derived_types() -> None:
    m = parse(
        "@a = global i17 0\n@b = global [3 x <4 x float>] zeroinitializer\n"
        "@c = global <vscale x 2 x i64> zeroinitializer\n@d = global { i8, ptr addrspace(3) } zeroinitializer\n"
        "@e = global <{ i8, i32 }> zeroinitializer\n@f = global x86_fp80 0xK00000000000000000000\n",
        None,
        "t.ll",
    )
    ctx = m.context
    assert m.get_global("a").value_type is ctx.int_type(17)  # type: ignore[union-attr]
    b = m.get_global("b").value_type  # type: ignore[union-attr]
    assert isinstance(b, ArrayType) and b.count == 3
    assert b.element_type is ctx.vector_type(ctx.float, 4)
    c = m.get_global("c").value_type  # type: ignore[union-attr]
    assert isinstance(c, VectorType) and c.scalable and c.count == 2
    d = m.get_global("d").value_type  # type: ignore[union-attr]
    assert d is ctx.struct_type([ctx.i8, ctx.pointer_type(3)])
    e = m.get_global("e").value_type  # type: ignore[union-attr]
    assert isinstance(e, StructType) and e.packed and e.is_literal
    assert m.get_global("f").value_type is ctx.x86_fp80  # type: ignore[union-attr]


def test_identified_structs_named_numbered_opaque_forward() -> None:
    m = parse(
        "%0 = type { i64 }\n%S = type { %T, ptr }\n%T = type <{ i8, i16 }>\n%O = type opaque\n"
        "@s = global %S zeroinitializer\n@n = global %0 zeroinitializer\n@o = external global %O\n",
        None,
        "t.ll",
    )
    s = m.get_global("s").value_type  # type: ignore[union-attr]
    assert isinstance(s, StructType) and s.name == "S" and not s.is_literal
    t = s.elements[0]
    assert isinstance(t, StructType) and t.name == "T" and t.packed
    n = m.get_global("n").value_type  # type: ignore[union-attr]
    assert isinstance(n, StructType) and n.name == "" and not n.is_literal
    o = m.get_global("o").value_type  # type: ignore[union-attr]
    assert isinstance(o, StructType) and o.is_opaque


def test_legacy_typed_pointers_read_as_ptr() -> None:
    m = parse(
        "%S = type { i32 }\n@a = global i32* null\n@b = global %S** null\n@c = global i8 addrspace(1)* null\n"
        "@d = global void (i32)* null\n@e = global [2 x i8*] zeroinitializer\n",
        None,
        "t.ll",
    )
    ctx = m.context
    assert m.get_global("a").value_type is ctx.ptr  # type: ignore[union-attr]
    assert m.get_global("b").value_type is ctx.ptr  # type: ignore[union-attr]
    assert m.get_global("c").value_type is ctx.pointer_type(1)  # type: ignore[union-attr]
    assert m.get_global("d").value_type is ctx.ptr  # type: ignore[union-attr]
    assert m.get_global("e").value_type is ctx.array_type(ctx.ptr, 2)  # type: ignore[union-attr]


def test_function_types_in_calls_and_target_types() -> None:
    m = parse(
        'declare i32 @v(i32, ...)\n@t = global target("spirv.Event") zeroinitializer\n'
        "define void @f() {\n  %r = call i32 (i32, ...) @v(i32 1, i8 2)\n  ret void\n}\n",
        None,
        "t.ll",
    )
    call = next(iter(m.get_function("f").entry_block))  # type: ignore[union-attr]
    fty = call.function_type  # type: ignore[attr-defined]
    assert isinstance(fty, FunctionType) and fty.is_vararg and len(fty.params) == 1
    t = m.get_global("t").value_type  # type: ignore[union-attr]
    assert isinstance(t, TargetExtType) and t.name == "spirv.Event"


def test_type_alias_for_non_struct() -> None:
    ty = _global_type("%I = type i32\n@g = global %I 5\n")
    assert str(ty) == "i32"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("@g = global i0 0\n", "expected type"),
        ("@g = global void* null\n", "pointers to void are invalid - use i8* instead"),
        ("@g = global <0 x i32> zeroinitializer\n", "zero element vector is illegal"),
        ("@g = global <2 x void> zeroinitializer\n", "void type only allowed for function results"),
        ("%S = type { i32 }\n%S = type { i8 }\n", "redefinition of type"),
        ("@g = external global %Missing\n", "use of undefined type named 'Missing'"),
        ("@g = global label zeroinitializer\n", "invalid type for null constant"),
    ],
)
def test_type_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse(text, None, "t.ll")
    assert info.value.message == message


def test_pointer_type_with_addrspace() -> None:
    ty = _global_type("@g = global ptr addrspace(42) null\n")
    assert isinstance(ty, PointerType) and ty.address_space == 42
