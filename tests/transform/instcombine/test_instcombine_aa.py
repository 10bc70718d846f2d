"""InstCombine asks the function's alias analysis (the ``AAManager`` result) where LLVM asks
``AA``: load forwarding past writes (``FindAvailableLoadedValue`` with a ``BatchAAResults``),
stores and memory intrinsics into constant memory and the copy source of an alloca
(``getModRefInfoMask``). Each case is compared with opt-19, under the default AA pipeline
and under narrower ``-aa-pipeline`` settings (which must change the answer where a
provider is left out)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt, ours_text  # noqa: E402

CASES: dict[str, str] = {
    # BasicAA: a noalias argument and another argument do not alias.
    "forward_past_noalias_arg_store": """
define i32 @f(ptr %p, ptr noalias %q) {
  %a = load i32, ptr %p
  store i32 0, ptr %q
  %b = load i32, ptr %p
  %r = add i32 %a, %b
  ret i32 %r
}""",
    # BasicAA: the same base with a variable index scaled past the access does not overlap.
    "forward_past_disjoint_gep_store": """
define i32 @f(ptr %p, i64 %i) {
  %g0 = getelementptr inbounds [2 x i32], ptr %p, i64 %i, i64 0
  %g1 = getelementptr inbounds [2 x i32], ptr %p, i64 %i, i64 1
  store i32 5, ptr %g0
  store i32 9, ptr %g1
  %v = load i32, ptr %g0
  ret i32 %v
}""",
    # A non-escaping alloca is not written by an unknown call.
    "forward_past_call_local_alloca": """
declare void @unknown()
define i32 @f() {
  %a = alloca i32
  store i32 3, ptr %a
  call void @unknown()
  %v = load i32, ptr %a
  ret i32 %v
}""",
    # The alloca escapes to the call: the load stays.
    "no_forward_past_call_escaped_alloca": """
declare void @use(ptr)
define i32 @f() {
  %a = alloca i32
  store i32 3, ptr %a
  call void @use(ptr %a)
  %v = load i32, ptr %a
  ret i32 %v
}""",
    # A call that only reads memory, and one that writes only its (other) argument memory.
    "forward_past_readonly_and_argmem_calls": """
declare void @ro() memory(read)
declare void @wr(ptr) memory(argmem: write)
define i32 @f(ptr %p, ptr noalias %q) {
  %a = load i32, ptr %p
  call void @ro()
  call void @wr(ptr %q)
  %b = load i32, ptr %p
  %r = sub i32 %a, %b
  ret i32 %r
}""",
    # TBAA: int and float accesses do not alias (only with tbaa in the pipeline).
    "forward_past_tbaa_store": """
define i32 @f(ptr %p, ptr %q) {
  store i32 1, ptr %p, !tbaa !1
  store float 2.0, ptr %q, !tbaa !4
  %v = load i32, ptr %p, !tbaa !1
  ret i32 %v
}
!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"int", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}
!4 = !{!5, !5, i64 0}
!5 = !{!"float", !3, i64 0}
""",
    # Scoped noalias metadata (only with scoped-noalias-aa in the pipeline).
    "forward_past_scoped_noalias_store": """
define i32 @f(ptr %p, ptr %q) {
  %a = load i32, ptr %p, !alias.scope !2
  store i32 0, ptr %q, !noalias !2
  %b = load i32, ptr %p, !alias.scope !2
  %r = add i32 %a, %b
  ret i32 %r
}
!0 = distinct !{!0, !"dom"}
!1 = distinct !{!1, !0, !"scope"}
!2 = !{!1}
""",
    # getModRefInfoMask: stores into a constant global or a noalias readonly argument go.
    "store_to_constant_memory": """
@C = constant i32 7
define void @f(ptr noalias readonly %r, i1 %c) {
  store i32 7, ptr @C
  store i32 1, ptr %r
  %s = select i1 %c, ptr @C, ptr %r
  store i32 2, ptr %s
  ret void
}""",
    # ... and memset/memcpy into it get length zero, then vanish.
    "mem_intrinsics_to_constant_memory": """
@C = constant [8 x i8] zeroinitializer
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @f(ptr %src) {
  call void @llvm.memset.p0.i64(ptr @C, i8 0, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr @C, ptr %src, i64 8, i1 false)
  ret void
}""",
    # isOnlyCopiedFromConstantMemory: the copy source is a noalias readonly argument.
    "alloca_copied_from_readonly_arg": """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define i32 @f(ptr noalias readonly align 4 dereferenceable(16) %src, i64 %i) {
  %a = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %src, i64 16, i1 false)
  %g = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %i
  %v = load i32, ptr %g
  ret i32 %v
}""",
    # The source may be written: the copy stays.
    "alloca_copied_from_plain_arg": """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define i32 @f(ptr %src, i64 %i) {
  %a = alloca [4 x i32], align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %src, i64 16, i1 false)
  %g = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %i
  %v = load i32, ptr %g
  ret i32 %v
}""",
    # A small memcpy becomes a load and a store tagged from its !tbaa.struct (adjustForAccess).
    "memcpy_tbaa_struct_to_tbaa": """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @f(ptr %a, ptr %b, ptr %c, ptr %d) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %b, i64 4, i1 false), !tbaa.struct !0
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %c, ptr align 4 %d, i64 4, i1 false), !tbaa.struct !4
  ret void
}
!0 = !{i64 0, i64 4, !1}
!1 = !{!2, !2, i64 0}
!2 = !{!"float", !3}
!3 = !{!"Simple C/C++ TBAA"}
!4 = !{i64 0, i64 2, !1, i64 2, i64 2, !1}
""",
}

PIPELINES = ("default", "basic-aa", "tbaa", "scoped-noalias-aa", "")


@pytest.mark.parametrize("aa_pipeline", PIPELINES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_instcombine_uses_aa_like_opt19(name: str, aa_pipeline: str) -> None:
    assert_same_as_opt(CASES[name], "instcombine", {"aa-pipeline": aa_pipeline})


def _loads_left(text: str) -> int:
    return sum(1 for line in text.splitlines() if " = load " in line)


@pytest.mark.parametrize(
    "name,with_provider,without_provider",
    [
        ("forward_past_tbaa_store", "tbaa", "basic-aa"),
        ("forward_past_scoped_noalias_store", "scoped-noalias-aa", "basic-aa"),
        ("forward_past_noalias_arg_store", "basic-aa", "tbaa"),
    ],
)
def test_the_provider_decides(name: str, with_provider: str, without_provider: str) -> None:
    """The fold needs its provider: with it one load fewer remains than without it."""
    with_it = _loads_left(ours_text(CASES[name], "instcombine", {"aa-pipeline": with_provider}))
    without_it = _loads_left(ours_text(CASES[name], "instcombine", {"aa-pipeline": without_provider}))
    assert with_it < without_it


def test_constant_memory_needs_basic_aa() -> None:
    """Without BasicAA nothing knows ``@C`` is constant: the store stays."""
    text = CASES["store_to_constant_memory"]
    assert "store i32 7, ptr @C" not in ours_text(text, "instcombine", {"aa-pipeline": "basic-aa"})
    assert "store i32 7, ptr @C" in ours_text(text, "instcombine", {"aa-pipeline": "tbaa"})


_SEVEN_BETWEEN = """
define i32 @f(ptr %p, i32 %n) {
  %a = load i32, ptr %p
  %x1 = mul i32 %a, %n
  %x2 = mul i32 %x1, %n
  %x3 = mul i32 %x2, %n
  %x4 = mul i32 %x3, %n
  %x5 = mul i32 %x4, %n
  %x6 = mul i32 %x5, %n
  %x7 = mul i32 %x6, %n
  %b = load i32, ptr %p
  %r = sub i32 %b, %x7
  ret i32 %r
}"""


@pytest.mark.parametrize("limit", [6, 10, 0])
def test_available_load_scan_limit(limit: int) -> None:
    """``-available-load-scan-limit``: 6 instructions by default, so the second load is
    kept; 10 reaches the first load; 0 scans nothing in InstCombine's form."""
    got = assert_same_as_opt(_SEVEN_BETWEEN, "instcombine", {"available-load-scan-limit": limit})
    assert got.count("load i32") == (1 if limit == 10 else 2)
