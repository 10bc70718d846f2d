"""Types and constants: uniquing, canonical forms, exact float bit patterns."""

from __future__ import annotations

import math

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantArray,
    ConstantDataArray,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    ConstantTokenNone,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.types import TypeID


@pytest.fixture
def ctx() -> Context:
    return Context()


def test_types_are_uniqued(ctx: Context) -> None:
    assert ctx.int_type(32) is ctx.i32
    assert ctx.int_type(17) is ctx.int_type(17)
    assert ctx.pointer_type(0) is ctx.ptr
    assert ctx.pointer_type(3) is ctx.pointer_type(3)
    assert ctx.array_type(ctx.i8, 4) is ctx.array_type(ctx.i8, 4)
    assert ctx.vector_type(ctx.float, 4) is not ctx.vector_type(ctx.float, 4, scalable=True)
    assert ctx.struct_type([ctx.i32, ctx.ptr]) is ctx.struct_type([ctx.i32, ctx.ptr])
    assert ctx.struct_type([ctx.i32], packed=True) is not ctx.struct_type([ctx.i32])
    assert ctx.function_type(ctx.void, [ctx.i32], True) is ctx.function_type(ctx.void, (ctx.i32,), True)
    assert ctx.target_ext_type("spirv.Image", [ctx.i8], [1]) is ctx.target_ext_type("spirv.Image", [ctx.i8], [1])
    other = Context()
    assert other.i32 is not ctx.i32


def test_type_text(ctx: Context) -> None:
    assert str(ctx.int_type(8388607)) == "i8388607"
    assert str(ctx.pointer_type(5)) == "ptr addrspace(5)"
    assert str(ctx.vector_type(ctx.i1, 16, True)) == "<vscale x 16 x i1>"
    assert str(ctx.array_type(ctx.array_type(ctx.double, 2), 3)) == "[3 x [2 x double]]"
    assert str(ctx.struct_type([])) == "{}"
    assert str(ctx.struct_type([], packed=True)) == "<{}>"
    assert str(ctx.struct_type([ctx.i8, ctx.x86_fp80], packed=True)) == "<{ i8, x86_fp80 }>"
    assert str(ctx.function_type(ctx.i32, [ctx.ptr], True)) == "i32 (ptr, ...)"
    assert str(ctx.target_ext_type("aarch64.svcount")) == 'target("aarch64.svcount")'
    s = ctx.named_struct("struct.a b")
    assert str(s) == '%"struct.a b"' and s.is_opaque
    for name in ("half", "bfloat", "float", "double", "x86_fp80", "fp128", "ppc_fp128"):
        assert str(ctx.fp_type(name)) == name
    assert [str(t) for t in (ctx.void, ctx.label, ctx.metadata, ctx.token, ctx.x86_amx)] == [
        "void",
        "label",
        "metadata",
        "token",
        "x86_amx",
    ]


def test_integer_width_limits(ctx: Context) -> None:
    """LLVM's IntegerType::MAX_INT_BITS is 2^23: i8388608 is the widest type, i8388609 is refused."""
    with pytest.raises(ValueError):
        ctx.int_type(0)
    assert ctx.int_type(1 << 23).width == 1 << 23
    with pytest.raises(ValueError):
        ctx.int_type((1 << 23) + 1)


def test_named_struct_renaming_and_body(ctx: Context) -> None:
    a = ctx.named_struct("S")
    b = ctx.named_struct("S")
    # LLVM's collision counter starts at 0 (llvm-link's familiar %struct.S.0).
    assert a.name == "S" and b.name == "S.0"
    assert ctx.named_struct("S").name == "S.1"
    assert a is not b
    a.set_body([ctx.i32, b])
    assert not a.is_opaque and a.elements == (ctx.i32, b)
    assert not a.is_sized  # b is still opaque
    b.set_body([ctx.i8])
    a.set_body([ctx.i32, b])
    assert a.is_sized
    assert ctx.get_named_struct("S") is a


def test_type_ids_follow_llvm_order() -> None:
    assert TypeID.HALF < TypeID.FLOAT < TypeID.VOID < TypeID.INTEGER < TypeID.FUNCTION < TypeID.POINTER
    assert TypeID.POINTER < TypeID.STRUCT < TypeID.ARRAY < TypeID.FIXED_VECTOR < TypeID.SCALABLE_VECTOR


def test_int_constants_uniqued_two_complement(ctx: Context) -> None:
    five = ConstantInt.get(ctx.i32, 5)
    assert five is ConstantInt.get(ctx.i32, 5)
    minus_one = ConstantInt.get(ctx.i8, -1)
    assert minus_one.value == 255 and minus_one.sext_value == -1 and minus_one.is_all_ones_value
    assert minus_one is ConstantInt.get(ctx.i8, 255)
    big = ConstantInt.get(ctx.int_type(200), -2)
    assert big.value == (1 << 200) - 2 and big.sext_value == -2
    assert ConstantInt.get(ctx.i1, 3).value == 1
    with pytest.raises(IRError):
        ConstantInt.get(ctx.float, 1)


def test_fp_constants_exact_bits(ctx: Context) -> None:
    assert ConstantFP.get(ctx.double, 1.0).bits == 0x3FF0000000000000
    assert ConstantFP.get(ctx.float, 0.1).bits == 0x3DCCCCCD
    assert ConstantFP.get(ctx.half, 1.0).bits == 0x3C00
    assert ConstantFP.get(ctx.bfloat, 1.0).bits == 0x3F80
    # x86_fp80 1.0 is 0xK3FFF8000000000000000 in LLVM's text.
    assert ConstantFP.get(ctx.x86_fp80, 1.0).bits == 0x3FFF8000000000000000
    # fp128 1.0 is 0xL00000000000000003FFF000000000000 (low word first) in LLVM's text.
    assert ConstantFP.get(ctx.fp128, 1.0).bits == 0x3FFF0000000000000000000000000000
    assert ConstantFP.get(ctx.double, 2.5) is ConstantFP.get(ctx.double, 2.5)
    neg_zero = ConstantFP.get(ctx.double, -0.0)
    assert neg_zero is not ConstantFP.get(ctx.double, 0.0)
    assert neg_zero.is_zero_value and not neg_zero.is_null_value and neg_zero.is_negative_zero
    nan = ConstantFP.get(ctx.double, math.nan)
    assert nan.is_nan
    assert ConstantFP.get(ctx.x86_fp80, 0.1).value == 0.1
    assert ConstantFP.get(ctx.fp128, -3.75).value == -3.75


def test_null_values(ctx: Context) -> None:
    assert Constant.get_null_value(ctx.i32) is ConstantInt.get(ctx.i32, 0)
    assert isinstance(Constant.get_null_value(ctx.ptr), ConstantPointerNull)
    assert isinstance(Constant.get_null_value(ctx.array_type(ctx.i8, 3)), ConstantAggregateZero)
    assert isinstance(Constant.get_null_value(ctx.token), ConstantTokenNone)
    assert Constant.get_null_value(ctx.double).is_null_value
    assert UndefValue.get(ctx.i32) is UndefValue.get(ctx.i32)
    assert PoisonValue.get(ctx.i32) is not UndefValue.get(ctx.i32)
    with pytest.raises(IRError):
        Constant.get_null_value(ctx.void)


def test_aggregate_canonical_forms(ctx: Context) -> None:
    i32 = ctx.i32
    arr = ctx.array_type(i32, 2)
    zero, one = ConstantInt.get(i32, 0), ConstantInt.get(i32, 1)
    assert isinstance(ConstantArray.get(arr, [zero, zero]), ConstantAggregateZero)
    assert isinstance(ConstantArray.get(arr, [UndefValue.get(i32)] * 2), UndefValue)
    assert isinstance(ConstantArray.get(arr, [PoisonValue.get(i32)] * 2), PoisonValue)
    data = ConstantArray.get(arr, [zero, one])
    assert isinstance(data, ConstantDataArray) and data.raw == (0, 1)
    assert data is ConstantArray.get(arr, [zero, one])
    s = ConstantDataArray.get_string(i32, b"hi")
    assert isinstance(s, ConstantDataArray) and s.is_string and s.is_c_string and s.as_bytes() == b"hi\0"
    vec = ConstantVector.get([one, one, one, one])
    assert isinstance(vec, ConstantDataVector) and vec.splat_value is one
    # arrays of pointers stay ConstantArray
    parr = ctx.array_type(ctx.ptr, 2)
    mixed = ConstantArray.get(parr, [ConstantPointerNull.get(ctx.ptr), UndefValue.get(ctx.ptr)])
    assert isinstance(mixed, ConstantArray)
    assert mixed.operands[1] is UndefValue.get(ctx.ptr)
    st = ctx.struct_type([i32, ctx.ptr])
    assert isinstance(ConstantStruct.get(st, [zero, ConstantPointerNull.get(ctx.ptr)]), ConstantAggregateZero)
    real = ConstantStruct.get(st, [one, ConstantPointerNull.get(ctx.ptr)])
    assert isinstance(real, ConstantStruct) and real.elements == [one, ConstantPointerNull.get(ctx.ptr)]
    assert isinstance(ConstantStruct.get(ctx.struct_type([]), []), ConstantAggregateZero)
    with pytest.raises(IRError):
        ConstantArray.get(arr, [zero])


def test_constant_expressions_uniqued_with_flags(ctx: Context) -> None:
    a = ConstantInt.get(ctx.i64, 7)
    b = ConstantInt.get(ctx.i64, 9)
    add = ConstantExpr.create_binary("add", a, b, nsw=True)
    assert add is ConstantExpr.create_binary("add", a, b, nsw=True)
    assert add is not ConstantExpr.create_binary("add", a, b)
    assert ConstantExpr.get_add(a, b, nsw=True) is ConstantInt.get(ctx.i64, 16)  # get_* fold, as LLVM's
    assert add.has_no_signed_wrap and not add.has_no_unsigned_wrap
    with pytest.raises(IRError, match="not a constant-expression"):
        ConstantExpr.get_cast("zext", ConstantInt.get(ctx.i32, 1), ctx.i64)
    with pytest.raises(IRError):
        ConstantExpr.get_binary("shl", a, b)
    null = ConstantPointerNull.get(ctx.ptr)
    gep = ConstantExpr.get_gep(ctx.i8, null, [a], inbounds=True)
    assert gep.is_inbounds and gep.source_element_type is ctx.i8 and gep.type is ctx.ptr
    vec_idx = ConstantVector.get([a, b])
    vgep = ConstantExpr.get_gep(ctx.i8, null, [vec_idx])
    assert str(vgep.type) == "<2 x ptr>"
    shuf = ConstantExpr.create_shuffle_vector(vec_idx, vec_idx, [1, -1, 0])
    assert str(shuf.type) == "<3 x i64>" and shuf.shuffle_mask == (1, -1, 0)


def test_rauw_in_constant_updates_in_place(ctx: Context) -> None:
    x = ConstantInt.get(ctx.i64, 1)
    y = ConstantInt.get(ctx.i64, 2)
    arr_ty = ctx.array_type(ctx.ptr, 1)
    inner = ConstantExpr.get_cast("inttoptr", x, ctx.ptr)
    arr = ConstantArray.get(arr_ty, [inner])
    assert isinstance(arr, ConstantArray)
    inner_new = ConstantExpr.get_cast("inttoptr", y, ctx.ptr)
    inner.replace_all_uses_with(inner_new)
    # updated in place: same object, new operand, still uniqued under the new key
    assert arr.operands == [inner_new]
    assert ConstantArray.get(arr_ty, [inner_new]) is arr


def test_single_value_types_as_llvm() -> None:
    """LLVM ``Type::isSingleValueType``: first-class non-aggregates, target extension types too."""
    ctx = Context()
    for ty in (ctx.i1, ctx.i32, ctx.double, ctx.ptr, ctx.vector_type(ctx.i8, 4), ctx.target_ext_type("spirv.Image", [ctx.i8], [1])):
        assert ty.is_single_value, ty
    for ty in (ctx.void, ctx.label, ctx.struct_type([ctx.i32]), ctx.array_type(ctx.i8, 2)):
        assert not ty.is_single_value, ty
