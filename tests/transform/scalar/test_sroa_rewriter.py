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
    assert_like_opt(CASES[name], "sroa", {"sroa-skip-mem2reg": True})


# --- random partitions against opt-19 -----------------------------------------------------------

_ACCESS_TYPES = {
    "i8": 1, "i16": 2, "i24": 3, "i32": 4, "i64": 8, "i128": 16, "half": 2, "float": 4, "double": 8, "ptr": 8,
    "<2 x i32>": 8, "<4 x i16>": 8, "<8 x i8>": 8, "<2 x float>": 8, "<4 x float>": 16, "<4 x i32>": 16,
    "<2 x i64>": 16, "<2 x ptr>": 16,
}  # fmt: skip
_ALLOCA_TYPES = {
    "i32": 4, "i64": 8, "double": 8, "ptr": 8, "i128": 16, "[8 x i8]": 8, "[16 x i8]": 16, "[3 x i32]": 12,
    "[4 x i16]": 8, "[2 x i64]": 16, "<2 x float>": 8, "<4 x i32>": 16, "<8 x i16>": 16, "<4 x float>": 16,
    "{ i32, float }": 8, "{ i8, i16, i32 }": 8, "{ i64, [2 x i32] }": 16, "{ ptr, i64 }": 16,
    "[2 x <2 x float>]": 16, "{ float, float, float, float }": 16,
}  # fmt: skip
_LAYOUTS = (
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
    "E-m:e-i64:64-n32:64-S128",
    "e-p:64:64-i64:32:64-n32",
)


def random_partition_program(seed: int) -> str:
    """One or two allocas of assorted types, loads and stores of assorted types at random
    offsets, memsets, memcpys and memmoves in and out, lifetime markers, a few volatile
    accesses and AA metadata: the inputs of every rewriting path."""
    import random

    r = random.Random(seed)
    params = ["ptr %out", "ptr %src", "i8 %byte"]
    body: list[str] = []
    allocas = []
    for k in range(r.choice((1, 1, 2))):
        ty = r.choice(sorted(_ALLOCA_TYPES))
        body.append("  %%a%d = alloca %s%s" % (k, ty, r.choice(("", ", align 1", ", align 4", ", align 16"))))
        allocas.append((k, _ALLOCA_TYPES[ty]))
    names = iter(range(1, 1000))

    def ptr_at(k: int, off: int) -> str:
        if off == 0 and r.random() < 0.7:
            return "%%a%d" % k
        t = "%%t%d" % next(names)
        body.append("  %s = getelementptr inbounds i8, ptr %%a%d, i64 %d" % (t, k, off))
        return t

    lifetime = r.random() < 0.3
    if lifetime:
        body += ["  call void @llvm.lifetime.start.p0(i64 %d, ptr %%a%d)" % (size, k) for k, size in allocas]
    for _ in range(r.randint(2, 9)):
        k, size = r.choice(allocas)
        op = r.choices(("store", "load", "memset", "copy_in", "copy_out", "copy_between"), (5, 5, 1.5, 1.5, 1.5, 1))[0]
        volatile = r.random() < 0.06
        md = r.choice(("", "", ", !tbaa !0", ", !alias.scope !3", ", !tbaa.struct !6", ", !llvm.access.group !8"))
        if op in ("store", "load"):
            ty = r.choice(sorted(_ACCESS_TYPES))
            tsize = _ACCESS_TYPES[ty]
            if tsize > size:
                continue
            off = r.randrange(0, size - tsize + 1)
            off -= off % min(r.choice((1, 2, 4, tsize, tsize)), 8)
            p = ptr_at(k, off)
            vol = " volatile" if volatile else ""
            if op == "store":
                params.append("%s %%v%d" % (ty, len(params)))
                body.append("  store%s %s %%v%d, ptr %s%s" % (vol, ty, len(params) - 1, p, md))
            else:
                t = "%%t%d" % next(names)
                body.append("  %s = load%s %s, ptr %s%s" % (t, vol, ty, p, md))
                body.append("  store %s %s, ptr %%out" % (ty, t))
            continue
        flag = "true" if volatile else "false"
        if op == "memset":
            off = r.randrange(0, size)
            p = ptr_at(k, off)
            val = r.choice(("%byte", "0", "-1", "7"))
            n = r.randint(1, size - off)
            body.append("  call void @llvm.memset.p0.i64(ptr %s, i8 %s, i64 %d, i1 %s)%s" % (p, val, n, flag, md))
        elif op in ("copy_in", "copy_out"):
            off = r.randrange(0, size)
            p = ptr_at(k, off)
            dst, src = (p, "%src") if op == "copy_in" else ("%out", p)
            fn = r.choice(("memcpy", "memcpy", "memmove"))
            n = r.randint(1, size - off)
            body.append("  call void @llvm.%s.p0.p0.i64(ptr %s, ptr %s, i64 %d, i1 %s)%s" % (fn, dst, src, n, flag, md))
        elif len(allocas) == 2:
            k2, size2 = allocas[1 - k]
            n = r.randint(1, min(size, size2))
            p1 = ptr_at(k, r.randrange(0, size - n + 1))
            p2 = ptr_at(k2, r.randrange(0, size2 - n + 1))
            body.append("  call void @llvm.memcpy.p0.p0.i64(ptr %s, ptr %s, i64 %d, i1 false)" % (p1, p2, n))
    if lifetime:
        body += ["  call void @llvm.lifetime.end.p0(i64 %d, ptr %%a%d)" % (size, k) for k, size in allocas]
    return (
        'target datalayout = "%s"\n\ndefine void @f(%s) {\n%s\n  ret void\n}\n\n'
        "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
        "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
        "declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)\n"
        "declare void @llvm.lifetime.start.p0(i64, ptr)\n"
        "declare void @llvm.lifetime.end.p0(i64, ptr)\n"
        '!0 = !{!1, !1, i64 0}\n!1 = !{!"int", !2, i64 0}\n!2 = !{!"root"}\n'
        "!3 = !{!4}\n!4 = distinct !{!4, !5}\n!5 = distinct !{!5}\n"
        "!6 = !{i64 0, i64 4, !0, i64 4, i64 4, !0, i64 8, i64 8, !7}\n!7 = !{!2, !2, i64 0}\n"
        "!8 = distinct !{}\n"
    ) % (r.choice(_LAYOUTS), ", ".join(params), "\n".join(body))


@pytest.mark.parametrize("seed", range(40))
def test_random_partitions_like_opt19(seed: int) -> None:
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 is not installed")
    from opt19_compare import assert_like_opt

    pipeline = "sroa<modify-cfg>" if seed % 2 else "sroa<preserve-cfg>"
    # Without the promotion the rewritten accesses themselves are compared.
    options: dict[str, object] | None = {"sroa-skip-mem2reg": True} if seed % 3 == 0 else None
    assert_like_opt(random_partition_program(seed), pipeline, options)


# --- debug records: #dbg_declare and assignment tracking ----------------------------------------

_DEBUG_C = """
struct S { int a; float b; long c; };
typedef float v4f __attribute__((vector_size(16)));
int f(int x, float y, struct S *src) {
  struct S s;
  s.a = x; s.b = y;
  __builtin_memcpy(&s.c, &src->c, 8);
  int v[2] = {x, 1};
  v[1] += s.a;
  return v[1] + (int)s.b + (int)s.c;
}
v4f g(float a, v4f b) { v4f w = b; w[2] = a; __builtin_memset(&w, 0, 4); return w; }
long h(struct S s, char c) {
  struct S t = s;
  __builtin_memset(&t.b, c, 4);
  *(volatile long *)&t.c = 5;
  return t.c + t.a + (long)t.b;
}
"""


@pytest.mark.parametrize("assignment_tracking", [False, True])
def test_debug_records_like_opt19(assignment_tracking: bool) -> None:
    """clang-19's ``-O2 -g`` input (``#dbg_declare`` records, or with opt-19's
    ``declare-to-assign`` the ``!DIAssignID`` links and ``#dbg_assign`` records that the
    rewritten stores and memory intrinsics carry over)."""
    import subprocess

    if shutil.which("opt-19") is None or shutil.which("clang-19") is None:
        pytest.skip("clang-19 and opt-19 are needed")
    from opt19_compare import assert_like_opt

    cc = ["clang-19", "--target=x86_64-linux-gnu", "-O2", "-g", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm"]
    r = subprocess.run([*cc, "-x", "c", "-", "-o", "-"], input=_DEBUG_C, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ir = r.stdout
    if assignment_tracking:
        r = subprocess.run(["opt-19", "-passes=declare-to-assign", "-S"], input=ir, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        ir = r.stdout
        assert "#dbg_assign" in ir
    out = assert_like_opt(ir, "sroa<preserve-cfg>")
    assert ("#dbg_assign" in out) == assignment_tracking  # the volatile slice keeps an alloca


def test_partition_statistics() -> None:
    """``NumNewAllocas``, ``NumAllocaPartitionUses``, ``MaxUsesPerAllocaPartition`` (a maximum,
    not a sum) and ``NumVectorized`` as LLVM counts them."""
    import llvmpy_mid

    m = parse_assembly(
        """
define <2 x float> @f(i32 %a, i32 %b, <2 x float> %v) {
  %x = alloca { i32, i32 }
  store i32 %a, ptr %x
  %p = getelementptr i8, ptr %x, i64 4
  store i32 %b, ptr %p
  %l = load i32, ptr %p
  %y = alloca <2 x float>
  store <2 x float> %v, ptr %y
  %q = getelementptr i8, ptr %y, i64 4
  store float 1.0, ptr %q
  %w = load <2 x float>, ptr %y
  ret <2 x float> %w
}
"""
    )
    stats = llvmpy_mid.run_passes(m, "sroa").statistics
    assert stats["sroa.NumNewAllocas"] == 2  # { i32, i32 } splits in two; <2 x float> stays
    assert stats["sroa.NumAllocaPartitionUses"] == 6
    assert stats["sroa.MaxUsesPerAllocaPartition"] == 3
    assert stats["sroa.NumVectorized"] == 1
