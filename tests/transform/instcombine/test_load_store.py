"""InstCombine's alloca/load/store folds (``load_store_alloca.py``, LLVM InstCombineLoadStoreAlloca.cpp)
and the Loads.cpp analyses (``analysis/loads.py``), each against opt-19 or the exact expected answer."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracles import require_llvm_tests  # noqa: E402
from opt_oracle import assert_same_as_opt  # noqa: E402

RULES = {
"store_to_load_forward": """
define i32 @f(ptr %p) {
  store i32 7, ptr %p
  %v = load i32, ptr %p
  ret i32 %v
}""",
"load_cse": """
define i32 @f(ptr %p) {
  %a = load i32, ptr %p
  %b = load i32, ptr %p
  %r = sub i32 %a, %b
  ret i32 %r
}""",
"forward_past_noalias_store": """
define i32 @f(ptr %p, ptr noalias %q) {
  %a = load i32, ptr %p
  store i32 0, ptr %q
  %b = load i32, ptr %p
  %r = add i32 %a, %b
  ret i32 %r
}""",
"no_forward_past_may_alias": """
define i32 @f(ptr %p, ptr %q) {
  %a = load i32, ptr %p
  store i32 0, ptr %q
  %b = load i32, ptr %p
  %r = add i32 %a, %b
  ret i32 %r
}""",
"load_cast_user": """
define ptr @f(ptr %p) {
  %v = load i64, ptr %p
  %q = inttoptr i64 %v to ptr
  ret ptr %q
}""",
"load_bitcast_user": """
define float @f(ptr %p) {
  %v = load i32, ptr %p
  %q = bitcast i32 %v to float
  ret float %q
}""",
"load_struct_unpack": """
define { i32, i32 } @f(ptr %p) {
  %v = load { i32, i32 }, ptr %p
  ret { i32, i32 } %v
}""",
"load_array_unpack": """
define [2 x i16] @f(ptr %p) {
  %v = load [2 x i16], ptr %p, align 4
  ret [2 x i16] %v
}""",
"load_single_elt_struct": """
define { ptr } @f(ptr %p) {
  %v = load { ptr }, ptr %p
  ret { ptr } %v
}""",
"load_select_of_allocas": """
define i32 @f(i1 %c) {
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  %v = load i32, ptr %s
  store ptr %a, ptr @sink
  store ptr %b, ptr @sink2
  ret i32 %v
}
@sink = global ptr null
@sink2 = global ptr null""",
"load_select_null_arm": """
define i32 @f(i1 %c, ptr %p) {
  %s = select i1 %c, ptr null, ptr %p
  %v = load i32, ptr %s
  ret i32 %v
}""",
"gep_index_to_zero": """
@one = constant [1 x i32] [i32 12]
define i32 @f(i64 %x) {
  %g = getelementptr inbounds [1 x i32], ptr @one, i64 0, i64 %x
  %v = load i32, ptr %g
  ret i32 %v
}""",
"store_bitcast_value": """
define void @f(ptr %p, float %x) {
  %b = bitcast float %x to i32
  store i32 %b, ptr %p
  ret void
}""",
"store_struct_unpack": """
define void @f(ptr %p, { i32, i32 } %v) {
  store { i32, i32 } %v, ptr %p
  ret void
}""",
"store_array_unpack": """
define void @f(ptr %p, [3 x i8] %v) {
  store [3 x i8] %v, ptr %p, align 2
  ret void
}""",
"dead_store_overwritten": """
define void @f(ptr %p, i32 %a) {
  store i32 1, ptr %p
  %x = add i32 %a, 1
  store i32 %x, ptr %p
  ret void
}""",
"store_loaded_value_back": """
define void @f(ptr %p) {
  %v = load i32, ptr %p
  store i32 %v, ptr %p
  ret void
}""",
"store_to_constant_global": """
@C = constant i32 5
define void @f() {
  store i32 5, ptr @C
  ret void
}""",
"store_undef": """
define void @f(ptr %p) {
  store i32 undef, ptr %p
  ret void
}""",
"store_null": """
define void @f(i32 %x) {
  store i32 %x, ptr null
  ret void
}""",
"alloca_array_size": """
define ptr @f() {
  %a = alloca i32, i32 4
  store ptr %a, ptr @sink
  ret ptr %a
}
@sink = global ptr null""",
"alloca_size_i64_one": """
define void @f() {
  %a = alloca i32, i64 1
  store ptr %a, ptr @sink
  ret void
}
@sink = global ptr null""",
"alloca_zero_sized_merge": """
define void @f() {
  %a = alloca {}
  %b = alloca [0 x i32]
  store ptr %a, ptr @sink
  store ptr %b, ptr @sink2
  ret void
}
@sink = global ptr null
@sink2 = global ptr null""",
"alloca_copied_from_constant": """
@K = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 16
define i32 @f(i64 %i) {
  %a = alloca [4 x i32], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %a, ptr align 16 @K, i64 16, i1 false)
  %g = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %i
  %v = load i32, ptr %g
  ret i32 %v
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)""",
"forward_past_other_field": """
%S = type { i32, i32 }
define i32 @f(ptr %p, i64 %i, i64 %j) {
  %a = getelementptr %S, ptr %p, i64 %i, i32 0
  %b = getelementptr %S, ptr %p, i64 %j, i32 1
  %x = load i32, ptr %a
  store i32 5, ptr %b
  %y = load i32, ptr %a
  %r = sub i32 %x, %y
  ret i32 %r
}""",
"no_forward_past_same_field_other_index": """
%S = type { i32, i32 }
define i32 @f(ptr %p, i64 %i, i64 %j) {
  %a = getelementptr %S, ptr %p, i64 %i, i32 0
  %b = getelementptr %S, ptr %p, i64 %j, i32 0
  %x = load i32, ptr %a
  store i32 5, ptr %b
  %y = load i32, ptr %a
  %r = sub i32 %x, %y
  ret i32 %r
}""",
"volatile_untouched": """
define i32 @f(ptr %p) {
  store volatile i32 1, ptr %p
  %v = load volatile i32, ptr %p
  ret i32 %v
}""",
"tbaa_no_alias_forward": """
define i32 @f(ptr %p, ptr %q) {
  %a = load i32, ptr %p, !tbaa !0
  store float 1.0, ptr %q, !tbaa !4
  %b = load i32, ptr %p, !tbaa !0
  %r = add i32 %a, %b
  ret i32 %r
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}
!4 = !{!5, !5, i64 0}
!5 = !{!"float", !2, i64 0}""",
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_matches_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


# LLVM 19.1.7 test files of this family whose whole output equals opt-19's.
LLVM_FILES = [
    "load-select.ll",
    "load-bitcast-select.ll",
    "loadstore-metadata.ll",
    "load3.ll",
    "load-no-aliasing.ll",
    "load_combine_aa.ll",
    "volatile_store.ll",
    "volatile_load_cast.ll",
    "alloca-big.ll",
    "2012-09-17-ZeroSizedAlloca.ll",
    "load-combine-metadata.ll",
    "tbaa-store-to-load.ll",
    "bitcast-store.ll",
    "memcpy-from-global.ll",
    "load-store-forward.ll",
    "mem-gep-zidx.ll",
    "vscale_alloca.ll",
    "ptr-replace-alloca.ll",
    "memcpy-to-load.ll",
    "vscale_load.ll",
    "prefetch-load.ll",
    "atomic.ll",
    "load-gep-overalign.ll",
    "intersect-accessgroup.ll",
    "load-combine-metadata-2.ll",
    "load-combine-metadata-3.ll",
    "load-combine-metadata-4.ll",
    "load-combine-metadata-dominance.ll",
]


@pytest.mark.parametrize("name", LLVM_FILES)
def test_llvm_file_matches_opt19(name: str) -> None:
    root = require_llvm_tests()
    assert_same_as_opt((root / "Transforms" / "InstCombine" / name).read_text(), "instcombine")


# --- the analyses the folds use (analysis/loads.py) ------------------------------------------------

LOADS_IR = """
@G = global [4 x i32] zeroinitializer, align 16
define void @h(ptr dereferenceable(8) %d, ptr %p, ptr noalias %q) {
  %a = alloca [2 x i64], align 8
  %g = getelementptr inbounds i8, ptr %a, i64 8
  %o = getelementptr inbounds i8, ptr %a, i64 12
  store i32 1, ptr %p
  call void @use(ptr %q)
  ret void
}
declare void @use(ptr)
"""


def test_dereferenceable_and_aligned() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer

    m = parse_assembly(LOADS_IR)
    fn = m.get_function("h")
    assert fn is not None
    dl = m.data_layout
    insts = {i.name: i for bb in fn.blocks for i in bb.instructions if i.name}
    d, p = fn.args[0], fn.args[1]
    assert is_dereferenceable_and_aligned_pointer(d, 1, 8, dl)
    assert not is_dereferenceable_and_aligned_pointer(d, 1, 9, dl)
    assert not is_dereferenceable_and_aligned_pointer(p, 1, 1, dl)
    assert is_dereferenceable_and_aligned_pointer(insts["g"], 8, 8, dl)
    assert not is_dereferenceable_and_aligned_pointer(insts["o"], 4, 8, dl)  # runs past the end
    gv = m.get_global("G")
    assert gv is not None and is_dereferenceable_and_aligned_pointer(gv, 16, 16, dl)
