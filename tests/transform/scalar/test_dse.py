"""``dse`` against opt-19, one small function per rule of DeadStoreElimination.cpp
(complete, composed-partial and multi-block overwrites, reads in between, stores before
``free``/``lifetime.end`` and at the end of the function, no-op stores, store merging,
memset/memcpy shortening, calloc formation, throwing calls and escapes), and property
tests of the overwrite analysis: the same-base overlap classification and the
partial-overwrite interval map against a brute-force byte map."""

from __future__ import annotations

import random

import pytest
from opt19_compare import assert_like_opt, pass_manager_logs
from sortedcontainers import SortedDict  # type: ignore[import-untyped]

from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.transform.scalar.dse_overwrite import (
    OverwriteResult,
    add_overlap_interval,
    classify_same_base_overlap,
    is_partial_overwrite,
)
from tests.oracles import missing_tools

# --- property tests of the overwrite rules -----------------------------------------------------


def _bytes(start: int, size: int) -> set[int]:
    return set(range(start, start + size))


def test_same_base_overlap_matches_byte_map() -> None:
    rng = random.Random(16)
    for _ in range(4000):
        dead_off, killing_off = rng.randint(-8, 8), rng.randint(-8, 8)
        dead_size, killing_size = rng.randint(1, 10), rng.randint(1, 10)
        dead, killing = _bytes(dead_off, dead_size), _bytes(killing_off, killing_size)
        got = classify_same_base_overlap(dead_off, dead_size, killing_off, killing_size)
        if dead <= killing:
            assert got is OverwriteResult.COMPLETE
        elif dead & killing:
            assert got is OverwriteResult.MAYBE_PARTIAL
        else:
            assert got is OverwriteResult.NONE


def test_interval_map_matches_byte_map() -> None:
    """After any sequence of ranges, the map holds disjoint, non-touching ranges whose
    union is exactly the bytes written."""
    rng = random.Random(1916)
    for _ in range(600):
        im = SortedDict()
        written: set[int] = set()
        for _ in range(rng.randint(1, 8)):
            start = rng.randint(-20, 20)
            size = rng.randint(1, 8)
            add_overlap_interval(im, start, start + size)
            written |= _bytes(start, size)
            covered: set[int] = set()
            prev_end = None
            for end, begin in im.items():
                assert begin < end
                if prev_end is not None:
                    assert begin > prev_end  # neither overlapping nor touching
                prev_end = end
                covered |= set(range(begin, end))
            assert covered == written


def test_partial_overwrites_complete_exactly_when_covered() -> None:
    """``is_partial_overwrite`` reports ``COMPLETE`` as soon as the killing writes seen so
    far cover every byte of the dead write, and not before."""
    fn = parse_assembly("define void @f(ptr %p) {\n  store i64 0, ptr %p\n  ret void\n}").get_function("f")
    assert fn is not None
    dead_i = fn.entry_block.first_instruction
    assert dead_i is not None
    ptr = fn.args[0]
    rng = random.Random(85)
    for _ in range(500):
        dead_off, dead_size = rng.randint(0, 8), rng.randint(2, 16)
        dead = _bytes(dead_off, dead_size)
        dead_loc = MemoryLocation(ptr, LocationSize.precise(dead_size))
        iol: dict = {}
        written: set[int] = set()
        for _ in range(12):
            k_off = rng.randint(dead_off - 4, dead_off + dead_size)
            k_size = rng.randint(1, max(1, dead_size - 1))
            k_bytes = _bytes(k_off, k_size)
            if not (k_bytes & dead) or k_bytes >= dead:
                continue  # only partial overlaps reach is_partial_overwrite
            written |= k_bytes
            got = is_partial_overwrite(
                MemoryLocation(ptr, LocationSize.precise(k_size)), dead_loc, k_off, dead_off, dead_i, iol, True, False
            )
            assert (got is OverwriteResult.COMPLETE) == (dead <= written)
            if got is OverwriteResult.COMPLETE:
                break


# --- opt-19 oracle ------------------------------------------------------------------------------

CASES = {
    "complete_overwrite": """
define void @f(ptr %p) {
  store i32 1, ptr %p
  store i32 2, ptr %p
  ret void
}
""",
    "read_in_between": """
define i32 @f(ptr %p) {
  store i32 1, ptr %p
  %v = load i32, ptr %p
  store i32 2, ptr %p
  ret i32 %v
}
""",
    "wider_kills_narrow": """
define void @f(ptr %p) {
  %q = getelementptr i8, ptr %p, i64 2
  store i8 1, ptr %q
  store i64 0, ptr %p
  ret void
}
""",
    "partials_compose": """
define void @f(ptr %p) {
  %q = getelementptr i8, ptr %p, i64 4
  store i64 0, ptr %p
  store i32 1, ptr %p
  store i32 2, ptr %q
  ret void
}
""",
    "store_merging": """
define void @f(ptr %p) {
  %q = getelementptr i8, ptr %p, i64 1
  store i32 0, ptr %p
  store i8 7, ptr %q
  ret void
}
""",
    "memset_shorten_end": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define void @f(ptr %p) {
  call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 32, i1 false)
  %q = getelementptr i8, ptr %p, i64 16
  store i64 1, ptr %q
  %r = getelementptr i8, ptr %p, i64 24
  store i64 1, ptr %r
  ret void
}
""",
    "memset_shorten_begin": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define void @f(ptr %p) {
  call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 32, i1 false)
  store i64 1, ptr %p
  ret void
}
""",
    "alloca_dead_at_end": """
declare void @g(ptr)
define void @f() {
  %a = alloca i32
  store i32 1, ptr %a
  ret void
}
""",
    "store_before_free": """
declare void @free(ptr nocapture) allockind("free")
define void @f(ptr %p) {
  store i32 1, ptr %p
  call void @free(ptr %p)
  ret void
}
""",
    "store_before_lifetime_end": """
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @use(ptr)
define void @f() {
  %a = alloca i32
  call void @use(ptr %a)
  store i32 1, ptr %a
  call void @llvm.lifetime.end.p0(i64 4, ptr %a)
  ret void
}
""",
    "noop_store_of_loaded_value": """
define void @f(ptr %p) {
  %v = load i32, ptr %p
  store i32 %v, ptr %p
  ret void
}
""",
    "noop_store_with_clobber": """
define void @f(ptr %p, ptr %q) {
  %v = load i32, ptr %p
  store i32 0, ptr %q
  store i32 %v, ptr %p
  ret void
}
""",
    "malloc_memset_to_calloc": """
declare noalias ptr @malloc(i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define ptr @f(i64 %n) {
  %m = call ptr @malloc(i64 %n)
  call void @llvm.memset.p0.i64(ptr %m, i8 0, i64 %n, i1 false)
  ret ptr %m
}
""",
    "throwing_call_between": """
declare void @may_throw()
define void @f(ptr %p) {
  store i32 1, ptr %p
  call void @may_throw()
  store i32 2, ptr %p
  ret void
}
""",
    "multiblock_diamond": """
define void @f(ptr %p, i1 %c) {
entry:
  store i32 1, ptr %p
  br i1 %c, label %a, label %b
a:
  store i32 2, ptr %p
  br label %j
b:
  store i32 3, ptr %p
  br label %j
j:
  ret void
}
""",
    "multiblock_one_side_reads": """
define i32 @f(ptr %p, i1 %c) {
entry:
  store i32 1, ptr %p
  br i1 %c, label %a, label %b
a:
  %v = load i32, ptr %p
  br label %j
b:
  br label %j
j:
  %r = phi i32 [ %v, %a ], [ 0, %b ]
  store i32 3, ptr %p
  ret i32 %r
}
""",
    "redundant_after_memset": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define void @f(ptr %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 16, i1 false)
  %q = getelementptr i8, ptr %p, i64 4
  store i32 0, ptr %q
  ret void
}
""",
    "volatile_kept": """
define void @f(ptr %p) {
  store volatile i32 1, ptr %p
  store i32 2, ptr %p
  ret void
}
""",
    "escaped_alloca_kept_before_call": """
declare void @use(ptr)
define void @f() {
  %a = alloca i32
  call void @use(ptr %a)
  store i32 1, ptr %a
  call void @use(ptr %a)
  store i32 2, ptr %a
  ret void
}
""",
    "loop_store": """
define void @f(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %g = getelementptr i32, ptr %p, i64 %i
  store i32 0, ptr %g
  store i32 1, ptr %g
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    "dominating_condition": """
define void @f(ptr %p) {
entry:
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, 4
  br i1 %c, label %t, label %e
t:
  store i32 4, ptr %p
  br label %e
e:
  ret void
}
""",

    "dead_on_unwind_arg": """
declare void @may_throw()
define void @f(ptr dead_on_unwind noalias %p) {
  store i32 1, ptr %p
  call void @may_throw()
  store i32 2, ptr %p
  ret void
}
""",
    "noalias_call_not_escaping": """
declare noalias ptr @malloc(i64) allockind("alloc,uninitialized") allocsize(0)
declare void @may_throw()
define void @f() {
  %m = call ptr @malloc(i64 4)
  store i32 1, ptr %m
  call void @may_throw()
  store i32 2, ptr %m
  ret void
}
""",
    "masked_store_overwrite": """
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
define void @f(ptr %p, <4 x i32> %a, <4 x i32> %b, <4 x i1> %m) {
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %a, ptr %p, i32 4, <4 x i1> %m)
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %b, ptr %p, i32 4, <4 x i1> %m)
  ret void
}
""",
    "atomic_release_barrier": """
define void @f(ptr %p, ptr %q) {
  store i32 1, ptr %p
  store atomic i32 0, ptr %q release, align 4
  store i32 2, ptr %p
  ret void
}
""",
    "monotonic_ok": """
define void @f(ptr %p, ptr noalias %q) {
  store i32 1, ptr %p
  store atomic i32 0, ptr %q monotonic, align 4
  store i32 2, ptr %p
  ret void
}
""",
    "memcpy_shorten_end": """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @f(ptr noalias %p, ptr noalias %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p, ptr %s, i64 32, i1 false)
  %q = getelementptr i8, ptr %p, i64 20
  store i64 1, ptr %q
  %r = getelementptr i8, ptr %p, i64 28
  store i32 1, ptr %r
  ret void
}
""",
    "atomic_memset_shorten": """
declare void @llvm.memset.element.unordered.atomic.p0.i64(ptr, i8, i64, i32)
define void @f(ptr %p) {
  call void @llvm.memset.element.unordered.atomic.p0.i64(ptr align 4 %p, i8 0, i64 32, i32 4)
  %q = getelementptr i8, ptr %p, i64 16
  store atomic i64 1, ptr %q unordered, align 8
  %r = getelementptr i8, ptr %p, i64 24
  store atomic i64 1, ptr %r unordered, align 8
  ret void
}
""",
    "unreachable_exit": """
declare void @abort() noreturn
define void @f(ptr %p, i1 %c) {
entry:
  store i32 1, ptr %p
  br i1 %c, label %a, label %b
a:
  store i32 2, ptr %p
  ret void
b:
  call void @abort()
  unreachable
}
""",
    "loop_header_phi_kill": """
define void @f(ptr noalias %p, i32 %n) {
entry:
  store i32 0, ptr %p
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  store i32 %i, ptr %p
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    "partial_limit": """
define void @f(ptr %p) {
  %p1 = getelementptr i8, ptr %p, i64 1
  %p2 = getelementptr i8, ptr %p, i64 2
  %p3 = getelementptr i8, ptr %p, i64 3
  store i32 0, ptr %p
  store i8 1, ptr %p
  store i8 2, ptr %p1
  store i8 3, ptr %p2
  store i8 4, ptr %p3
  ret void
}
""",
    "store_of_calloc_zero": """
declare noalias ptr @calloc(i64, i64) allockind("alloc,zeroed") allocsize(0,1)
define ptr @f() {
  %m = call ptr @calloc(i64 1, i64 4)
  store i32 0, ptr %m
  ret ptr %m
}
""",
    "calloc_after_null_check": """
declare noalias ptr @malloc(i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define ptr @f(i64 %n) {
entry:
  %m = call ptr @malloc(i64 %n)
  %c = icmp eq ptr %m, null
  br i1 %c, label %done, label %set
set:
  call void @llvm.memset.p0.i64(ptr %m, i8 0, i64 %n, i1 false)
  br label %done
done:
  ret ptr %m
}
""",
    "free_kills_multiblock": """
declare void @free(ptr nocapture) allockind("free")
define void @f(ptr %p, i1 %c) {
entry:
  store i32 1, ptr %p
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  call void @free(ptr %p)
  ret void
}
""",
    "calloc_keeps_debug_records_first": """
declare noalias ptr @malloc(i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define ptr @f(i64 %n) !dbg !4 {
  %x = add i64 %n, 1, !dbg !9
    #dbg_value(i64 %x, !8, !DIExpression(), !9)
  %m = call ptr @malloc(i64 %n), !dbg !10
  call void @llvm.memset.p0.i64(ptr %m, i8 0, i64 %n, i1 false), !dbg !9
  ret ptr %m, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!8 = !DILocalVariable(name: "x", scope: !4, file: !1, line: 1, type: !7)
!9 = !DILocation(line: 1, column: 1, scope: !4)
!10 = !DILocation(line: 2, column: 3, scope: !4)
""",
    "memset_begin_gep_after_debug_records": """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define void @f(ptr %p) !dbg !4 {
  %q = getelementptr i8, ptr %p, i64 8
    #dbg_value(ptr %q, !8, !DIExpression(), !9)
  call void @llvm.memset.p0.i64(ptr align 16 %p, i8 0, i64 40, i1 false), !dbg !9
  store i64 2, ptr %p, align 16, !dbg !9
  store i64 2, ptr %q, align 8, !dbg !9
  ret void, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DIBasicType(name: "ptr", size: 64, encoding: DW_ATE_unsigned)
!8 = !DILocalVariable(name: "q", scope: !4, file: !1, line: 1, type: !7)
!9 = !DILocation(line: 1, column: 1, scope: !4)
""",
}


def _require_opt() -> None:
    if missing_tools("opt-19"):
        pytest.skip("opt-19 is not installed")


@pytest.mark.parametrize("name", sorted(CASES))
def test_like_opt19(name: str) -> None:
    _require_opt()
    assert_like_opt(CASES[name], "dse")


@pytest.mark.parametrize(
    "options",
    [
        {"enable-dse-partial-store-merging": False},
        {"enable-dse-partial-overwrite-tracking": False},
        {"dse-memoryssa-walklimit": 2},
        {"dse-optimize-memoryssa": False},
    ],
)
def test_options_like_opt19(options: dict[str, object]) -> None:
    _require_opt()
    for name in ("store_merging", "partials_compose", "memset_shorten_end", "multiblock_diamond"):
        assert_like_opt(CASES[name], "dse", options)


def test_pass_manager_log_like_opt19() -> None:
    _require_opt()
    theirs, ours = pass_manager_logs(CASES["complete_overwrite"], "dse")
    assert ours == theirs
