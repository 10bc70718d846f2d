"""``sroa`` against opt-19, one small function per rule of SROA.cpp's driver and slicing:
slices and partitions with split tails, first-class aggregate loads and stores split per
leaf (with their AA tags), GEPs of selects/phis unfolded, integer copies between allocas
pre-split, out-of-bounds and zero-sized accesses dropped, escaping pointers left alone,
self-copies removed, lifetime markers, ``preserve-cfg``/``modify-cfg``, and
``-sroa-skip-mem2reg``. The partition walk is also checked on random slices against the
invariants LLVM's ``partition_iterator`` guarantees."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from opt19_compare import assert_like_opt, pass_manager_logs

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.passes.registry import REGISTRY
from llvmpy_mid.transform.scalar.sroa import parse_sroa_options
from llvmpy_mid.transform.scalar.sroa_slices import AllocaSlices, Slice
from tests.oracles import require_tools

DL = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'
MEMCPY = "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
MEMSET = "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"

CASES = {
    "split_tails": DL + MEMCPY + """
define i32 @f(ptr %src) {
  %a = alloca { i32, i32, [8 x i8] }
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %src, i64 16, i1 false)
  %g = getelementptr inbounds i8, ptr %a, i64 4
  %v = load i32, ptr %g
  %g2 = getelementptr inbounds i8, ptr %a, i64 2
  %w = load i32, ptr %g2
  store float 1.0, ptr %a
  %s = add i32 %v, %w
  ret i32 %s
}
""",
    "fca_load_store": DL + """
%pair = type { i32, [2 x float] }
define float @f(%pair %p, ptr %out) {
  %a = alloca %pair
  store %pair %p, ptr %a, !tbaa !0
  %l = load %pair, ptr %a, !tbaa !0
  store %pair %l, ptr %out
  %x = extractvalue %pair %l, 1, 1
  ret float %x
}
!0 = !{!1, !1, i64 0}
!1 = !{!"pair", !2, i64 0}
!2 = !{!"tbaa root"}
""",
    "gep_of_select": DL + """
define i32 @f(i1 %c) {
  %a = alloca [2 x i32]
  store i32 1, ptr %a
  %h = getelementptr inbounds i32, ptr %a, i64 1
  store i32 2, ptr %h
  %i = select i1 %c, i64 0, i64 1
  %g = getelementptr inbounds [2 x i32], ptr %a, i64 0, i64 %i
  %v = load i32, ptr %g
  ret i32 %v
}
""",
    "gep_of_phi": DL + """
define i32 @f(i1 %c) {
entry:
  %a = alloca [2 x i32]
  %b = alloca [2 x i32]
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %t, label %j
t:
  br label %j
j:
  %p = phi ptr [ %a, %entry ], [ %b, %t ]
  %g = getelementptr inbounds [2 x i32], ptr %p, i64 0, i64 0
  %v = load i32, ptr %g
  ret i32 %v
}
""",
    "presplit_copy_between_allocas": DL + """
define i32 @f(i64 %x) {
  %a = alloca i64
  %b = alloca i64
  store i64 %x, ptr %a
  %l = load i64, ptr %a
  store i64 %l, ptr %b
  %hi = getelementptr inbounds i8, ptr %b, i64 4
  %v = load i32, ptr %hi
  %w = load i32, ptr %b
  %s = add i32 %v, %w
  ret i32 %s
}
""",
    "presplit_store_of_foreign_load": DL + """
define void @f(ptr %src, ptr %dst) {
  %a = alloca i64
  %l = load i64, ptr %src
  store i64 %l, ptr %a
  %lo = load i32, ptr %a
  %hi.p = getelementptr inbounds i8, ptr %a, i64 4
  %hi = load i32, ptr %hi.p
  store i32 %lo, ptr %dst
  %d4 = getelementptr inbounds i8, ptr %dst, i64 4
  store i32 %hi, ptr %d4
  ret void
}
""",
    "dead_out_of_bounds_and_zero_sized": DL + MEMSET + """
define i32 @f(i32 %x) {
  %a = alloca i32
  store i32 %x, ptr %a
  %past = getelementptr inbounds i8, ptr %a, i64 8
  store i32 7, ptr %past
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 0, i1 false)
  %unused = getelementptr inbounds i8, ptr %a, i64 2
  %v = load i32, ptr %a
  ret i32 %v
}
""",
    "escape_through_call_and_ptrtoint": DL + """
declare void @g(ptr)
define i64 @f(i32 %x) {
  %a = alloca { i32, i32 }
  store i32 %x, ptr %a
  call void @g(ptr %a)
  %b = alloca i64
  store i64 3, ptr %b
  %i = ptrtoint ptr %b to i64
  ret i64 %i
}
""",
    "self_copy_and_offset_copy": DL + MEMCPY + """
define i32 @f(i32 %x) {
  %a = alloca [4 x i32]
  store i32 %x, ptr %a
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %a, i64 16, i1 false)
  %g = getelementptr inbounds i8, ptr %a, i64 4
  call void @llvm.memcpy.p0.p0.i64(ptr %g, ptr %a, i64 4, i1 false)
  %v = load i32, ptr %g
  ret i32 %v
}
""",
    "lifetime_markers": DL + """
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
define i32 @f(i32 %x, i32 %y) {
  %a = alloca { i32, i32 }
  call void @llvm.lifetime.start.p0(i64 8, ptr %a)
  store i32 %x, ptr %a
  %g = getelementptr inbounds i8, ptr %a, i64 4
  store i32 %y, ptr %g
  %v = load i32, ptr %g
  call void @llvm.lifetime.end.p0(i64 -1, ptr %a)
  ret i32 %v
}
""",
    "select_load_needs_cfg": DL + """
define i32 @f(i1 %c, ptr %p) {
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %a, ptr %p
  %v = load i32, ptr %s
  ret i32 %v
}
""",
    "phi_and_volatile": DL + """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store volatile i32 2, ptr %b
  br i1 %c, label %t, label %j
t:
  br label %j
j:
  %p = phi ptr [ %a, %entry ], [ %b, %t ]
  %v = load i32, ptr %p
  ret i32 %v
}
""",
    "nested_aggregate_array_of_structs": DL + MEMCPY + """
%s = type { i8, i16, [3 x i8] }
define i16 @f(ptr %src) {
  %a = alloca [2 x %s]
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %src, i64 16, i1 false)
  %g = getelementptr inbounds [2 x %s], ptr %a, i64 0, i64 1, i32 1
  %v = load i16, ptr %g
  %w = load [2 x %s], ptr %a
  %e = extractvalue [2 x %s] %w, 0, 1
  %r = add i16 %v, %e
  ret i16 %r
}
""",
    "dead_alloca_and_unanalyzable": DL + """
define void @f(i64 %n) {
  %dead = alloca i32
  %dyn = alloca i32, i64 %n
  store i32 1, ptr %dyn
  ret void
}
""",
    "presplit_within_one_alloca": DL + """
define i32 @same_alloca(i64 %x) {
  %a = alloca [2 x i64]
  store i64 %x, ptr %a
  %l = load i64, ptr %a
  %hi = getelementptr inbounds i8, ptr %a, i64 8
  store i64 %l, ptr %hi
  %p4 = getelementptr inbounds i8, ptr %a, i64 4
  %v = load i32, ptr %p4
  %p12 = getelementptr inbounds i8, ptr %a, i64 12
  %w = load i32, ptr %p12
  %s = add i32 %v, %w
  ret i32 %s
}
define i32 @mismatched(i64 %x) {
  %a = alloca [2 x i64]
  store i64 %x, ptr %a
  %l = load i64, ptr %a
  %hi = getelementptr inbounds i8, ptr %a, i64 8
  store i64 %l, ptr %hi
  %p4 = getelementptr inbounds i8, ptr %a, i64 4
  %v = load i32, ptr %p4
  %p10 = getelementptr inbounds i8, ptr %a, i64 10
  %w = load i16, ptr %p10
  %w32 = zext i16 %w to i32
  %s = add i32 %v, %w32
  ret i32 %s
}
define void @three_way(ptr %src, ptr %dst) {
  %a = alloca [12 x i8]
  %l = load i96, ptr %src, !tbaa.struct !0
  store i96 %l, ptr %a
  %p2 = getelementptr inbounds i8, ptr %a, i64 2
  %b = load i16, ptr %p2
  %p8 = getelementptr inbounds i8, ptr %a, i64 8
  %c = load i32, ptr %p8
  store i16 %b, ptr %dst
  %d4 = getelementptr inbounds i8, ptr %dst, i64 4
  store i32 %c, ptr %d4
  %m = load i96, ptr %a
  store i96 %m, ptr %dst, !tbaa !1
  ret void
}
!0 = !{i64 0, i64 4, !1, i64 4, i64 8, !1}
!1 = !{!2, !2, i64 0}
!2 = !{!"int", !3, i64 0}
!3 = !{!"root"}
""",
    "unusual_inputs": DL + """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x i32>)
define <2 x i32> @vecgep() {
  %a = alloca [4 x i32]
  store i32 1, ptr %a
  %g = getelementptr i32, ptr %a, <2 x i64> <i64 0, i64 1>
  %r = call <2 x i32> @llvm.masked.gather.v2i32.v2p0(<2 x ptr> %g, i32 4, <2 x i1> <i1 true, i1 true>, <2 x i32> poison)
  ret <2 x i32> %r
}
define i32 @atomic() {
  %a = alloca i32
  store atomic i32 1, ptr %a seq_cst, align 4
  %v = load atomic i32, ptr %a acquire, align 4
  ret i32 %v
}
define i32 @varlen(ptr %s, i64 %n) {
  %a = alloca [4 x i32]
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %s, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 %n, i1 true)
  %v = load i32, ptr %a
  ret i32 %v
}
define void @zero_and_huge() {
  %z = alloca [0 x i32]
  store i32 1, ptr %z
  %h = alloca [1000000 x i8]
  %g = getelementptr inbounds i8, ptr %h, i64 999999
  store i8 1, ptr %g
  ret void
}
define ptr @selfstore() {
  %a = alloca ptr
  store ptr %a, ptr %a
  %v = load ptr, ptr %a
  ret ptr %v
}
define i32 @select_store(i1 %c) {
  %a = alloca i32
  %b = alloca i32
  store i32 0, ptr %a
  store i32 0, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  store i32 5, ptr %s
  %x = load i32, ptr %a
  %y = load i32, ptr %b
  %r = add i32 %x, %y
  ret i32 %r
}
define i1 @i1_fp80(x86_fp80 %f) {
  %a = alloca { i1, x86_fp80 }
  store i1 true, ptr %a
  %g = getelementptr inbounds { i1, x86_fp80 }, ptr %a, i32 0, i32 1
  store x86_fp80 %f, ptr %g
  %v = load i1, ptr %a
  %w = load i8, ptr %a
  %t = trunc i8 %w to i1
  %r = and i1 %v, %t
  ret i1 %r
}
define i64 @negative_gep(i64 %x) {
  %a = alloca [2 x i64]
  %g = getelementptr inbounds i8, ptr %a, i64 8
  %m = getelementptr inbounds i8, ptr %g, i64 -8
  store i64 %x, ptr %m
  %u = getelementptr i8, ptr %a, i64 -4
  store i32 0, ptr %u
  %v = load i64, ptr %a
  ret i64 %v
}
define i32 @unreachable_loop(i1 %c) {
entry:
  %a = alloca i32
  store i32 3, ptr %a
  %v = load i32, ptr %a
  ret i32 %v
dead:
  %p = phi ptr [ %q, %dead ]
  %q = getelementptr i8, ptr %p, i64 4
  store i32 1, ptr %q
  br label %dead
}
define void @addrspace_cast(i32 %x) {
  %a = alloca i32
  %c = addrspacecast ptr %a to ptr addrspace(1)
  store i32 %x, ptr addrspace(1) %c
  %d = addrspacecast ptr addrspace(1) %c to ptr
  %v = load i32, ptr %d
  ret void
}
""",
    "predicated_load_keeps_nonnull_as_range": DL + """
declare void @use(...)
define i64 @f(i1 %c, ptr dereferenceable(16) %ext) {
entry:
  %a = alloca [16 x i8]
  %b = alloca { i32, i32, i64 }
  %a0 = getelementptr inbounds i8, ptr %a, i64 0
  store i64 3, ptr %a0
  %a8 = getelementptr inbounds i8, ptr %a, i64 8
  store i64 9, ptr %a8
  %b0 = getelementptr inbounds i8, ptr %b, i64 0
  store i64 1, ptr %b0
  %b8 = getelementptr inbounds i8, ptr %b, i64 8
  store i64 5, ptr %b8
  %pa = getelementptr inbounds i8, ptr %a, i64 0
  %pb = getelementptr inbounds i8, ptr %ext, i64 8
  %s = select i1 %c, ptr %pa, ptr %pb
  br label %join
join:
  %l0 = load i64, ptr %s
  call void @use(i64 %l0)
  %l1 = load ptr, ptr %s, !nonnull !0
  call void @use(ptr %l1)
  %l2 = load float, ptr %s
  call void @use(float %l2)
  %fin = load i64, ptr %a
  ret i64 %fin
}
!0 = !{}

""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sroa_like_opt(name: str) -> None:
    require_tools("opt-19")
    assert_like_opt(CASES[name], "sroa")


@pytest.mark.parametrize("name", ["select_load_needs_cfg", "gep_of_select", "phi_and_volatile", "unusual_inputs"])
def test_sroa_preserve_cfg_like_opt(name: str) -> None:
    require_tools("opt-19")
    assert_like_opt(CASES[name], "sroa<preserve-cfg>")


def test_modify_cfg_predicates_where_preserve_cfg_cannot() -> None:
    require_tools("opt-19")
    modify = assert_like_opt(CASES["select_load_needs_cfg"], "sroa<modify-cfg>")
    preserve = assert_like_opt(CASES["select_load_needs_cfg"], "sroa<preserve-cfg>")
    assert modify != preserve


@pytest.mark.parametrize(
    "name", ["split_tails", "presplit_copy_between_allocas", "lifetime_markers", "presplit_within_one_alloca"]
)
def test_skip_mem2reg_like_opt(name: str) -> None:
    require_tools("opt-19")
    assert_like_opt(CASES[name], "sroa", {"sroa-skip-mem2reg": True})


def test_sroa_then_more_passes_like_opt() -> None:
    require_tools("opt-19")
    assert_like_opt(CASES["nested_aggregate_array_of_structs"], "sroa,instcombine,sroa")


def test_pipeline_text_like_opt() -> None:
    require_tools("opt-19")
    args = ["-passes=sroa,sroa<preserve-cfg>,sroa<modify-cfg>", "-print-pipeline-passes", "-disable-output"]
    ir = DL + "define void @f() {\n  ret void\n}\n"
    theirs = subprocess.run(["opt-19", *args], input=ir, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=ir, capture_output=True, text=True)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout


@pytest.mark.parametrize("pipeline", ["sroa,gvn", "sroa<preserve-cfg>,gvn"])
def test_pass_manager_log_like_opt(pipeline: str) -> None:
    """A CFG-changing run (modify-cfg predicates the load) invalidates the CFG analyses, the
    other keeps them; the dominator tree survives both."""
    require_tools("opt-19")
    theirs, ours = pass_manager_logs(CASES["select_load_needs_cfg"], pipeline)
    assert ours == theirs


def test_bad_parameter_is_a_pipeline_error() -> None:
    assert parse_sroa_options("") is False
    assert parse_sroa_options("modify-cfg") is False
    assert parse_sroa_options("preserve-cfg") is True
    with pytest.raises(PipelineError, match="invalid SROA pass parameter 'foo'"):
        parse_sroa_options("foo")
    entry = REGISTRY.lookup("sroa<preserve-cfg>", "function")
    assert entry is not None
    assert entry.instantiate("preserve-cfg").preserve_cfg is True
    assert entry.instantiate(None).preserve_cfg is False
    with pytest.raises(PipelineError):
        entry.instantiate("foo")


def _slices_of(text: str) -> AllocaSlices:
    module = parse_assembly(text)
    fn = next(f for f in module.functions if not f.is_declaration)
    ai = next(i for i in fn.entry_block.instructions if isinstance(i, AllocaInst))
    return AllocaSlices(module.data_layout, ai)


def test_slices_sorted_and_partitioned() -> None:
    s = _slices_of(CASES["split_tails"])
    assert not s.is_escaped()
    assert [(x.begin_offset, x.end_offset, x.splittable) for x in s] == [
        (0, 4, False),
        (0, 16, True),
        (2, 6, True),
        (4, 8, True),
    ]
    parts = [(p.begin_offset, p.end_offset, p.si, p.sj, len(p.split_tails)) for p in s.partitions()]
    assert parts == [(0, 4, 0, 3, 0), (4, 8, 3, 4, 2), (8, 16, 4, 4, 1)]


def test_escaping_instruction_is_recorded() -> None:
    s = _slices_of(CASES["escape_through_call_and_ptrtoint"])
    assert s.is_escaped()
    assert s.pointer_escaping_instr is not None and s.pointer_escaping_instr.opcode == "call"
    assert s.slices == [] or all(x.use is not None for x in s.slices)


def test_dead_users_are_collected() -> None:
    s = _slices_of(CASES["dead_out_of_bounds_and_zero_sized"])
    dead = sorted(i.opcode for i in s.dead_users)
    assert dead == ["call", "getelementptr", "store"]
    assert [(x.begin_offset, x.end_offset) for x in s] == [(0, 4), (0, 4)]


class _FakeOwner(AllocaSlices):
    """Slices without an alloca, for the partition walk alone."""

    def __init__(self, slices: list[Slice]) -> None:  # noqa: D107 - no alloca to walk
        self.slices = sorted(slices, key=Slice.sort_key)


@pytest.mark.parametrize("seed", range(40))
def test_partitions_keep_llvm_invariants(seed: int) -> None:
    rng = random.Random(seed)
    slices = []
    for _ in range(rng.randint(1, 12)):
        b = rng.randint(0, 30)
        slices.append(Slice(b, b + rng.randint(1, 12), None, rng.random() < 0.5))
    owner = _FakeOwner(slices)
    ordered = owner.slices
    seen: list[int] = []
    last_end = -1
    for p in owner.partitions():
        assert p.begin_offset < p.end_offset
        assert p.begin_offset >= last_end
        last_end = p.end_offset
        for i in range(p.si, p.sj):
            s = ordered[i]
            seen.append(i)
            assert p.begin_offset <= s.begin_offset < p.end_offset
            if not s.splittable:
                assert s.end_offset <= p.end_offset, "an unsplittable slice crosses a partition end"
        for t in p.split_tails:
            assert t.splittable and t.begin_offset < p.begin_offset < t.end_offset
        # An unsplittable slice never starts inside a partition it does not belong to.
        for s in ordered:
            if not s.splittable and p.begin_offset < s.begin_offset < p.end_offset:
                assert p.si <= ordered.index(s) < p.sj
    assert seen == list(range(len(ordered)))


_RANDOM_SIZES = {
    "i1": 1, "i8": 1, "i16": 2, "i24": 3, "i32": 4, "i64": 8, "float": 4, "double": 8, "ptr": 8,
    "<2 x i32>": 8, "<4 x i8>": 4, "<2 x float>": 8,
}
_RANDOM_ALLOCAS = {
    "[16 x i8]": 16, "{ i32, i32, i64 }": 16, "[4 x i32]": 16, "{ i8, i16, i32, double }": 16,
    "<4 x i32>": 16, "i64": 8, "[2 x { float, i32 }]": 16, "[24 x i8]": 24,
}


def _random_program(seed: int) -> str:
    """One alloca accessed by random loads, stores, memcpys and memsets of random types at
    random (mostly in-bounds) offsets; the loaded values are passed to a call."""
    r = random.Random(seed)
    at = r.choice(sorted(_RANDOM_ALLOCAS))
    size = _RANDOM_ALLOCAS[at]
    lines = ["  %%a = alloca %s" % at]
    vals: list[tuple[str, str]] = []
    for n in range(1, r.randint(2, 9) + 1):
        k = r.random()
        t = r.choice(sorted(_RANDOM_SIZES))
        off = r.randint(0, size - _RANDOM_SIZES[t]) if r.random() < 0.9 else r.randint(0, size + 4)
        length = r.randint(1, size - off) if off < size else 4
        p = "%%p%d" % n
        lines.append("  %s = getelementptr inbounds i8, ptr %%a, i64 %d" % (p, off))
        if k < 0.4:
            lines.append("  %%v%d = load %s, ptr %s" % (n, t, p))
            vals.append((t, "%%v%d" % n))
        elif k < 0.75:
            if vals and r.random() < 0.5:
                t, v = r.choice(vals)
            elif t == "ptr":
                v = "%q"
            elif t.startswith("<"):
                v = "zeroinitializer"
            elif t in ("float", "double"):
                v = "0.0"
            else:
                v = "1" if t == "i1" else str(r.randint(0, 100))
            lines.append("  store %s %s, ptr %s" % (t, v, p))
        elif k < 0.85:
            lines.append("  call void @llvm.memcpy.p0.p0.i64(ptr %s, ptr %%src, i64 %d, i1 false)" % (p, length))
        elif k < 0.93:
            vol = r.choice(["false", "false", "true"])
            lines.append("  call void @llvm.memcpy.p0.p0.i64(ptr %%dst, ptr %s, i64 %d, i1 %s)" % (p, length, vol))
        else:
            lines.append("  call void @llvm.memset.p0.i64(ptr %s, i8 %d, i64 %d, i1 false)" % (p, r.randint(0, 255), length))
    sink = "".join("  call void @use(%s %s)\n" % tv for tv in vals)
    return (
        DL + MEMCPY + MEMSET + "declare void @use(...)\n"
        "define void @f(ptr %%src, ptr %%dst, ptr %%q) {\n%s\n%s  ret void\n}\n" % ("\n".join(lines), sink)
    )


@pytest.mark.parametrize("seed", range(25))
def test_random_alloca_programs_like_opt(seed: int) -> None:
    """Slicing, partitioning, presplitting and rewriting agree with opt-19 on random access
    patterns (overlapping, splittable and not, out of bounds)."""
    require_tools("opt-19")
    assert_like_opt(_random_program(seed * 37 + 11), "sroa")
