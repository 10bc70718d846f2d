"""SROA's partition rewriting (llvmpy_mid/transform/scalar/sroa_rewriter.py and its helper
modules): the type rules are checked directly, and each rewriting rule of LLVM's
``AllocaSliceRewriter`` (integer widening, vector promotion, memset/memcpy splitting, split
loads and stores, pointer/integer conversion, lifetime markers, big-endian shifts) on a small
function against opt-19's ``sroa`` output."""

from __future__ import annotations

import shutil

import pytest

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.context import Context
from llvmpy_mid.transform.scalar.sroa_value_conversion import (
    can_convert_value,
    get_type_partition,
    strip_aggregate_type_wrapping,
)

# --- type rules ---------------------------------------------------------------------------------


def _types(text: str) -> tuple[DataLayout, dict[str, object]]:
    m = parse_assembly(text)
    return m.data_layout, {g.name: g.value_type for g in m.globals}


def test_can_convert_value_rules() -> None:
    ctx = Context()
    dl = DataLayout("e-p:64:64-p1:32:32-ni:2")
    i32, i64, f32, f64 = ctx.i32, ctx.i64, ctx.float, ctx.double
    p0, p1, p2 = ctx.ptr, ctx.pointer_type(1), ctx.pointer_type(2)
    assert can_convert_value(dl, i32, i32)
    assert not can_convert_value(dl, i32, i64)  # integers of other widths never
    assert can_convert_value(dl, i32, f32) and can_convert_value(dl, f64, i64)
    assert not can_convert_value(dl, f32, f64)
    assert can_convert_value(dl, p0, i64) and can_convert_value(dl, i64, p0)
    assert not can_convert_value(dl, p0, i32)  # sizes differ
    assert can_convert_value(dl, p1, i32)
    assert not can_convert_value(dl, i64, p2) and not can_convert_value(dl, p2, i64)  # non-integral
    assert not can_convert_value(dl, p0, p1)  # pointer sizes differ
    assert can_convert_value(dl, ctx.vector_type(i32, 2), i64)
    assert can_convert_value(dl, ctx.vector_type(p0, 2), ctx.vector_type(i64, 2))
    assert not can_convert_value(dl, ctx.array_type(i32, 2), i64)  # not single-value


def test_type_partition_and_wrapping() -> None:
    dl, tys = _types(
        """
%S = type { i32, [2 x float], { i64 } }
@s = global %S zeroinitializer
@w = global { [1 x { double }] } zeroinitializer
@a = global [4 x { i16, i16 }] zeroinitializer
"""
    )
    s, w, a = tys["s"], tys["w"], tys["a"]
    assert str(strip_aggregate_type_wrapping(dl, w)) == "double"  # type: ignore[arg-type]
    assert str(get_type_partition(dl, s, 0, 4)) == "i32"  # type: ignore[arg-type]
    assert str(get_type_partition(dl, s, 4, 8)) == "[2 x float]"  # type: ignore[arg-type]
    assert str(get_type_partition(dl, s, 8, 4)) == "float"  # type: ignore[arg-type]
    assert str(get_type_partition(dl, s, 12, 8)) == "i64"  # type: ignore[arg-type]
    assert str(get_type_partition(dl, s, 0, 12)) == "{ i32, [2 x float] }"  # type: ignore[arg-type]
    assert get_type_partition(dl, s, 2, 4) is None  # type: ignore[arg-type]  # straddles two fields
    assert str(get_type_partition(dl, a, 4, 8)) == "[2 x { i16, i16 }]"  # type: ignore[arg-type]
    assert str(get_type_partition(dl, a, 6, 2)) == "i16"  # type: ignore[arg-type]
    assert get_type_partition(dl, a, 6, 4) is None  # type: ignore[arg-type]


# --- rewriting rules against opt-19 -------------------------------------------------------------

CASES = {
    "integer_widening_byte_stores": """
define i32 @f(i8 %a, i8 %b) {
  %x = alloca i32
  %p1 = getelementptr i8, ptr %x, i64 1
  %p3 = getelementptr i8, ptr %x, i64 3
  store i32 0, ptr %x
  store i8 %a, ptr %p1
  store i8 %b, ptr %p3
  %v = load i32, ptr %x
  ret i32 %v
}
""",
    "integer_widening_i16_load": """
define i16 @f(i32 %a) {
  %x = alloca i32
  store i32 %a, ptr %x
  %p = getelementptr i8, ptr %x, i64 2
  %v = load i16, ptr %p
  ret i16 %v
}
""",
    "vector_element_stores_whole_load": """
define <4 x float> @f(float %a, float %b) {
  %x = alloca <4 x float>
  store <4 x float> zeroinitializer, ptr %x
  %p1 = getelementptr float, ptr %x, i64 1
  %p3 = getelementptr float, ptr %x, i64 3
  store float %a, ptr %p1
  store float %b, ptr %p3
  %v = load <4 x float>, ptr %x
  ret <4 x float> %v
}
""",
    "vector_subvector_store_and_load": """
define <2 x i32> @f(<4 x i32> %a, <2 x i32> %b) {
  %x = alloca <4 x i32>
  store <4 x i32> %a, ptr %x
  %p = getelementptr i32, ptr %x, i64 2
  store <2 x i32> %b, ptr %p
  %q = getelementptr i32, ptr %x, i64 1
  %v = load <2 x i32>, ptr %q
  ret <2 x i32> %v
}
""",
    "vector_memset_and_memcpy": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define <4 x i32> @f(i8 %c, ptr %src) {
  %x = alloca <4 x i32>
  call void @llvm.memset.p0.i64(ptr %x, i8 %c, i64 16, i1 false)
  %p = getelementptr i8, ptr %x, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %src, i64 8, i1 false)
  %v = load <4 x i32>, ptr %x
  ret <4 x i32> %v
}
""",
    "memset_integer_splat": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define i64 @f(i8 %c) {
  %x = alloca i64
  call void @llvm.memset.p0.i64(ptr %x, i8 %c, i64 8, i1 false)
  %v = load i64, ptr %x
  ret i64 %v
}
""",
    "memset_partial_integer": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define i32 @f(i8 %c, i32 %a) {
  %x = alloca i32
  store i32 %a, ptr %x
  %p = getelementptr i8, ptr %x, i64 1
  call void @llvm.memset.p0.i64(ptr %p, i8 %c, i64 2, i1 false)
  %v = load i32, ptr %x
  ret i32 %v
}
""",
    "memcpy_split_struct": """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define i32 @f(ptr %src, ptr %dst) {
  %x = alloca { i32, float, [3 x i8] }
  call void @llvm.memcpy.p0.p0.i64(ptr %x, ptr %src, i64 12, i1 false)
  %v = load i32, ptr %x
  %p = getelementptr i8, ptr %x, i64 4
  %f = load float, ptr %p
  store float %f, ptr %dst
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %x, i64 12, i1 false)
  ret i32 %v
}
""",
    "split_integer_load_and_store": """
define i64 @f(i32 %a, i32 %b, ptr %o) {
  %x = alloca { i32, i32 }
  store i32 %a, ptr %x
  %p = getelementptr i8, ptr %x, i64 4
  store i32 %b, ptr %p
  %v = load i64, ptr %x
  store i64 %v, ptr %o
  ret i64 %v
}
""",
    "pointer_integer_conversion": """
define i64 @f(ptr %p) {
  %x = alloca ptr
  store ptr %p, ptr %x
  %v = load i64, ptr %x
  ret i64 %v
}
""",
    "float_int_conversion_and_vectors_of_pointers": """
define <2 x i64> @f(<2 x ptr> %p, float %a) {
  %x = alloca <2 x ptr>
  store <2 x ptr> %p, ptr %x
  %v = load <2 x i64>, ptr %x
  %y = alloca i32
  store float %a, ptr %y
  %w = load i32, ptr %y
  %e = insertelement <2 x i64> %v, i64 0, i32 0
  ret <2 x i64> %e
}
""",
    "lifetime_markers_on_split_alloca": """
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @g(ptr)
define i32 @f(i32 %a) {
  %x = alloca { i32, i32 }
  call void @llvm.lifetime.start.p0(i64 8, ptr %x)
  store i32 %a, ptr %x
  %p = getelementptr i8, ptr %x, i64 4
  call void @g(ptr %p)
  %v = load i32, ptr %x
  call void @llvm.lifetime.end.p0(i64 8, ptr %x)
  ret i32 %v
}
""",
    "escaped_partition_keeps_slice_pointers": """
declare void @g(ptr)
define i8 @f(i8 %a) {
  %x = alloca [16 x i8]
  %p = getelementptr i8, ptr %x, i64 8
  store i8 %a, ptr %p
  %q = getelementptr i8, ptr %x, i64 12
  call void @g(ptr %q)
  %v = load i8, ptr %p
  ret i8 %v
}
""",
    "big_endian_integer_widening": """
target datalayout = "E-p:64:64-i64:64-n8:16:32:64"
define i32 @f(i8 %a, i16 %b) {
  %x = alloca i32
  store i32 0, ptr %x
  store i8 %a, ptr %x
  %p = getelementptr i8, ptr %x, i64 2
  store i16 %b, ptr %p
  %v = load i32, ptr %x
  ret i32 %v
}
""",
    "phi_of_slice_pointers": """
define i32 @f(i1 %c, i32 %a, i32 %b) {
entry:
  %x = alloca [2 x i32]
  %p1 = getelementptr i8, ptr %x, i64 4
  store i32 %a, ptr %x
  store i32 %b, ptr %p1
  br i1 %c, label %t, label %j
t:
  br label %j
j:
  %p = phi ptr [ %x, %entry ], [ %p1, %t ]
  %v = load i32, ptr %p
  ret i32 %v
}
""",
    "select_of_slice_pointers": """
define i32 @f(i1 %c, i32 %a, i32 %b) {
  %x = alloca [2 x i32]
  %p1 = getelementptr i8, ptr %x, i64 4
  store i32 %a, ptr %x
  store i32 %b, ptr %p1
  %p = select i1 %c, ptr %x, ptr %p1
  %v = load i32, ptr %p
  ret i32 %v
}
""",
    "tbaa_and_volatile_accesses": """
define i32 @f(i32 %a) {
  %x = alloca { i32, i32 }
  %p = getelementptr i8, ptr %x, i64 4
  store i32 %a, ptr %p, !tbaa !0
  store volatile i32 %a, ptr %x
  %v = load volatile i32, ptr %x
  %w = load i32, ptr %p, !tbaa !0
  %s = add i32 %v, %w
  ret i32 %s
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"root"}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rewriting_like_opt19(name: str) -> None:
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 is not installed")
    from opt19_compare import assert_like_opt

    for pipeline in ("sroa<preserve-cfg>", "sroa<modify-cfg>"):
        assert_like_opt(CASES[name], pipeline)
