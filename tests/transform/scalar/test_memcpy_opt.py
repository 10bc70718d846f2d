"""``memcpyopt`` against opt-19, one small function per rule of MemCpyOptimizer.cpp
(store/load pairs to memcpy/memmove, memset formation from adjacent stores and memsets,
aggregate stores of a splat, memcpy of a constant splat global, memcpy-memcpy forwarding
(with an offset), memset-memcpy trimming, memcpy from a memset, memcpy from undef,
memmove to memcpy, byval and immutable-argument forwarding, call slot and stack move,
``-enable-memcpyopt-without-libcalls``), the ``-debug-pass-manager`` log, and property
tests of the memset ranges: random stores of one byte at random offsets give sorted,
disjoint ranges covering exactly the stored bytes, and the memsets opt-19 and we form
write the bytes the stores wrote."""

from __future__ import annotations

import random

import pytest
from opt19_compare import assert_like_opt, our_output, pass_manager_logs

from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.transform.scalar.memcpy_opt_memset import MemsetRanges
from tests.oracles import require_tools

require_tools("opt-19")

DECLS = """
declare void @llvm.memcpy.p0.p0.i64(ptr nocapture writeonly, ptr nocapture readonly, i64, i1 immarg)
declare void @llvm.memmove.p0.p0.i64(ptr nocapture writeonly, ptr nocapture readonly, i64, i1 immarg)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
"""

CASES = {
    "aggregate_load_store_to_memcpy": """
%T = type { i8, i32 }
define void @f(ptr noalias %a, ptr noalias %b) {
  %v = load %T, ptr %a, align 4
  store %T %v, ptr %b, align 4
  ret void
}
""",
    "aggregate_load_store_may_alias_to_memmove": """
%T = type { i8, i32 }
define void @f(ptr %a, ptr %b) {
  %v = load %T, ptr %a, align 4
  store %T %v, ptr %b, align 8
  ret void
}
""",
    "adjacent_stores_to_memset": """
define void @f(ptr %p) {
  store i32 0, ptr %p, align 4
  %p1 = getelementptr inbounds i8, ptr %p, i64 4
  store i32 0, ptr %p1, align 4
  %p2 = getelementptr inbounds i8, ptr %p, i64 8
  store i64 0, ptr %p2, align 4
  %p3 = getelementptr inbounds i8, ptr %p, i64 16
  store i16 0, ptr %p3, align 4
  ret void
}
""",
    "two_stores_stay": """
define void @f(ptr %p) {
  store i32 -1, ptr %p, align 4
  %p1 = getelementptr inbounds i8, ptr %p, i64 4
  store i32 -1, ptr %p1, align 4
  ret void
}
""",
    "stores_and_memset_merge": """
define void @f(ptr %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 7, i64 8, i1 false)
  %p1 = getelementptr inbounds i8, ptr %p, i64 8
  store i8 7, ptr %p1, align 1
  ret void
}
""",
    "aggregate_splat_store_to_memset": """
define void @f(ptr %p) {
  store [4 x i32] zeroinitializer, ptr %p, align 4
  ret void
}
""",
    "memcpy_from_constant_splat_global": """
@g = private unnamed_addr constant [16 x i8] c"\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01\\01"
define void @f(ptr %p) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr @g, i64 16, i1 false)
  ret void
}
""",
    "memcpy_from_mutable_zero_global_stays": """
@m = internal global [16 x i8] zeroinitializer
define void @f(ptr %p) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr @m, i64 16, i1 false)
  ret void
}
""",
    "memcpy_memcpy_forwarding": """
define void @f(ptr noalias %a, ptr noalias %b, ptr noalias %c) {
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %b, i64 16, i1 false)
  ret void
}
""",
    "memcpy_memcpy_forwarding_offset": """
define void @f(ptr noalias %a, ptr noalias %b, ptr noalias %c) {
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 16, i1 false)
  %b4 = getelementptr inbounds i8, ptr %b, i64 4
  call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %b4, i64 8, i1 false)
  ret void
}
""",
    "memset_memcpy_trim": """
define void @f(ptr noalias %d, ptr noalias %s, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  ret void
}
""",
    "memcpy_of_memset": """
define void @f(ptr noalias %a, ptr noalias %b) {
  call void @llvm.memset.p0.i64(ptr %a, i8 3, i64 32, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 16, i1 false)
  ret void
}
""",
    "memcpy_of_memset_through_equal_geps": """
define void @f(ptr %d) {
  %a = alloca [20 x i8], align 4
  %i1 = getelementptr i8, ptr %a, i64 4
  call void @llvm.memset.p0.i64(ptr %i1, i8 0, i64 1, i1 false)
  %i2 = getelementptr i8, ptr %a, i64 4
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %i2, i64 1, i1 false)
  ret void
}
""",
    "memcpy_from_fresh_alloca": """
define void @f(ptr %d) {
  %a = alloca [16 x i8], align 1
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %a, i64 16, i1 false)
  ret void
}
""",
    "memmove_to_memcpy": """
define void @f(ptr %d) {
  %a = alloca [16 x i8], align 1
  call void @llvm.memset.p0.i64(ptr %a, i8 1, i64 16, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %a, i64 16, i1 false)
  ret void
}
""",
    "zero_size_and_self_copy": """
define void @f(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 0, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %d, i64 8, i1 false)
  ret void
}
""",
    "byval_forwarding": """
%S = type { i64, i64 }
declare void @use(ptr byval(%S) align 8)
define void @f(ptr align 8 %s) {
  %t = alloca %S, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %t, ptr align 8 %s, i64 16, i1 false)
  call void @use(ptr byval(%S) align 8 %t)
  ret void
}
""",
    "immut_argument_forwarding": """
declare void @read(ptr noalias nocapture readonly)
define void @f(ptr align 8 %s) {
  %t = alloca [16 x i8], align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %t, ptr align 8 %s, i64 16, i1 false)
  call void @read(ptr noalias nocapture readonly %t)
  ret void
}
""",
    "call_slot": """
declare void @fill(ptr nocapture writeonly) nounwind
define void @f() {
  %src = alloca [16 x i8], align 8
  %dst = alloca [16 x i8], align 8
  call void @fill(ptr %src)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 16, i1 false)
  call void @fill(ptr %dst)
  ret void
}
""",
    "stack_move": """
declare void @use(ptr nocapture)
define void @f() {
  %src = alloca [16 x i8], align 4
  %dst = alloca [16 x i8], align 8
  call void @llvm.lifetime.start.p0(i64 16, ptr %src)
  call void @llvm.lifetime.start.p0(i64 16, ptr %dst)
  store i32 1, ptr %src, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 4 %src, i64 16, i1 false)
  call void @use(ptr %dst)
  call void @llvm.lifetime.end.p0(i64 16, ptr %src)
  call void @llvm.lifetime.end.p0(i64 16, ptr %dst)
  ret void
}
""",
    "store_of_load_moved_up": """
%T = type { i32, i32 }
define void @f(ptr noalias %a, ptr noalias %b, ptr noalias %c) {
  %v = load %T, ptr %a, align 4
  store i32 0, ptr %a, align 4
  store %T %v, ptr %b, align 4
  ret void
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_memcpyopt_like_opt(name: str) -> None:
    assert_like_opt(DECLS + CASES[name], "memcpyopt")


def test_memcpyopt_does_something() -> None:
    out = assert_like_opt(DECLS + CASES["adjacent_stores_to_memset"], "memcpyopt")
    assert "call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 18, i1 false)" in out


NO_LIBCALLS = """
target triple = "amdgcn--"
define void @f(ptr %p) {
  store i32 0, ptr %p, align 4
  %p1 = getelementptr inbounds i8, ptr %p, i64 4
  store i32 0, ptr %p1, align 4
  %p2 = getelementptr inbounds i8, ptr %p, i64 8
  store i32 0, ptr %p2, align 4
  %p3 = getelementptr inbounds i8, ptr %p, i64 12
  store i32 0, ptr %p3, align 4
  ret void
}
"""


@pytest.mark.parametrize("enabled", [False, True])
def test_without_libcalls_option(enabled: bool) -> None:
    out = assert_like_opt(NO_LIBCALLS, "memcpyopt", {"enable-memcpyopt-without-libcalls": enabled})
    assert ("llvm.memset" in out) == enabled


def test_memcpyopt_pass_manager_log() -> None:
    theirs, ours = pass_manager_logs(DECLS + CASES["memcpy_memcpy_forwarding"], "memcpyopt")
    assert ours == theirs


# --- property tests of the memset ranges --------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_memset_ranges_cover_exactly_the_stored_bytes(seed: int) -> None:
    """Ranges stay sorted and apart (a gap of at least one byte), hold every access once,
    and cover exactly the union of the added byte intervals."""
    rng = random.Random(seed)
    ranges = MemsetRanges(DataLayout.default())
    covered: set[int] = set()
    tokens = []
    for k in range(rng.randint(1, 30)):
        start = rng.randint(-20, 60)
        size = rng.randint(1, 9)
        token = object()
        tokens.append(token)
        ranges.add_range(start, size, None, None, token)  # type: ignore[arg-type]
        covered.update(range(start, start + size))
    rs = ranges.ranges
    for a, b in zip(rs, rs[1:]):
        assert a.end < b.start
    got: set[int] = set()
    for r in rs:
        got.update(range(r.start, r.end))
    assert got == covered
    held = [s for r in rs for s in r.stores]
    assert sorted(map(id, held)) == sorted(map(id, tokens))


def _random_store_function(rng: random.Random) -> str:
    byte = rng.choice([0, 0xFF, 0x2A])
    lines = ["define void @f(ptr %p) {"]
    for k in range(rng.randint(2, 10)):
        width = rng.choice([8, 16, 32, 64])
        off = rng.randint(0, 24)
        value = int.from_bytes(bytes([byte]) * (width // 8), "little")
        if value >= 1 << (width - 1):
            value -= 1 << width
        lines.append("  %%q%d = getelementptr inbounds i8, ptr %%p, i64 %d" % (k, off))
        lines.append("  store i%d %d, ptr %%q%d, align 1" % (width, value, k))
    lines.append("  ret void\n}")
    return "\n".join(lines)


def _bytes_written(text: str) -> dict[int, int]:
    """Interpret a straight-line function of GEP+store / memset on %p: offset -> byte."""
    import re

    mem: dict[int, int] = {}
    offsets = {"%p": 0}
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"(%\S+) = getelementptr inbounds i8, ptr (%\S+), i64 (-?\d+)", line)
        if m:
            offsets[m.group(1)] = offsets[m.group(2)] + int(m.group(3))
            continue
        m = re.match(r"store i(\d+) (-?\d+), ptr (%[^,]+), align", line)
        if m:
            width, value, at = int(m.group(1)), int(m.group(2)) & ((1 << int(m.group(1))) - 1), offsets[m.group(3)]
            for i in range(width // 8):
                mem[at + i] = (value >> (8 * i)) & 0xFF
            continue
        m = re.match(r"call void @llvm\.memset\.p0\.i64\(ptr (?:align \d+ )?(%[^,]+), i8 (-?\d+), i64 (\d+), i1 false\)", line)
        if m:
            at = offsets[m.group(1)]
            for i in range(int(m.group(3))):
                mem[at + i] = int(m.group(2)) & 0xFF
    return mem


@pytest.mark.parametrize("seed", range(12))
def test_random_adjacent_stores_like_opt(seed: int) -> None:
    """Random stores of one repeated byte: our output equals opt-19's, and the memsets
    write the bytes the stores wrote."""
    rng = random.Random(seed)
    text = DECLS + _random_store_function(rng)
    out = our_output(text, "memcpyopt")
    assert _bytes_written(out) == _bytes_written(text)
    assert_like_opt(text, "memcpyopt")



def test_statistics() -> None:
    """``-stats``: memsets inferred from the four stores and from an aggregate store (one
    counter, though two modules count it), one memmove made a memcpy
    (and then a memset: its source was just memset), one memcpy deleted (copying from a
    fresh alloca); each counter reported once."""
    import subprocess
    import sys

    import llvmpy_mid
    from llvmpy_mid.asm import parse_assembly

    text = DECLS + CASES["adjacent_stores_to_memset"].replace("@f", "@f1") + CASES["memmove_to_memcpy"].replace("@f", "@f2")
    text += CASES["memcpy_from_fresh_alloca"].replace("@f", "@f3") + CASES["aggregate_splat_store_to_memset"].replace("@f", "@f4")
    result = llvmpy_mid.run_passes(parse_assembly(text), "memcpyopt")
    stats = {k: v for k, v in result.statistics.items() if k.startswith("memcpyopt.")}
    assert stats == {
        "memcpyopt.NumMemSetInfer": 2, "memcpyopt.NumMoveToCpy": 1, "memcpyopt.NumMemCpyInstr": 1, "memcpyopt.NumCpyToSet": 1,
    }  # fmt: skip
    cli = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-passes=memcpyopt", "-stats", "-disable-output"], input=text, capture_output=True, text=True
    )
    assert cli.stderr.count("Number of memsets inferred") == 1


# --- random copy/set/store/call sequences against opt-19 ------------------------------------------

FUZZ_DECLS = """
declare void @llvm.memcpy.p0.p0.i64(ptr nocapture writeonly, ptr nocapture readonly, i64, i1 immarg)
declare void @llvm.memmove.p0.p0.i64(ptr nocapture writeonly, ptr nocapture readonly, i64, i1 immarg)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)
declare void @use(ptr)
declare void @use_nc(ptr nocapture)
declare void @read_imm(ptr noalias nocapture readonly)
declare void @fill(ptr nocapture writeonly) nounwind
declare void @byv(ptr byval([16 x i8]) align 8)
%T = type { i32, i64 }
"""

def _random_copy_function(seed: int) -> str:
    """A function of random memcpy/memset/memmove, load/store pairs, GEPs, calls
    (byval, immutable, writeonly, capturing) and lifetime markers over allocas and arguments."""
    r = random.Random(seed)
    lines = ["define void @f(ptr noalias align 8 %a0, ptr align 8 %a1, i64 %n, i1 %c) {", "entry:"]
    ptrs = ["%a0", "%a1"]
    nalloca = r.randint(1, 4)
    for i in range(nalloca):
        lines.append("  %%s%d = alloca [16 x i8], align %d" % (i, r.choice([1, 4, 8, 16])))
        ptrs.append("%%s%d" % i)
    k = 0
    for _ in range(r.randint(2, 12)):
        op = r.randint(0, 11)
        p, q = r.choice(ptrs), r.choice(ptrs)
        if op == 0:
            sz = r.choice(["16", "8", "4", "%n"])
            lines.append("  call void @llvm.memcpy.p0.p0.i64(ptr align %d %s, ptr align %d %s, i64 %s, i1 false)" % (r.choice([1,4,8]), p, r.choice([1,4,8]), q, sz))
        elif op == 1:
            sz = r.choice(["16", "8", "4", "%n"])
            lines.append("  call void @llvm.memset.p0.i64(ptr align %d %s, i8 %d, i64 %s, i1 false)" % (r.choice([1,4,8]), p, r.choice([0, 1, 255]), sz))
        elif op == 2:
            lines.append("  %%v%d = load %%T, ptr %s, align 8" % (k, p))
            lines.append("  store %%T %%v%d, ptr %s, align 8" % (k, q))
            k += 1
        elif op == 3:
            off = r.choice([0, 4, 8])
            lines.append("  %%g%d = getelementptr inbounds i8, ptr %s, i64 %d" % (k, p, off))
            ptrs.append("%%g%d" % k)
            k += 1
        elif op == 4:
            lines.append("  store i32 %d, ptr %s, align 4" % (r.choice([0, -1, 7]), p))
        elif op == 5:
            lines.append("  call void @%s(ptr %s)" % (r.choice(["use", "use_nc", "fill"]), p))
        elif op == 6:
            lines.append("  call void @read_imm(ptr %s)" % p)
        elif op == 7:
            lines.append("  call void @byv(ptr byval([16 x i8]) align 8 %s)" % p)
        elif op == 8 and p.startswith("%s"):
            lines.append("  call void @llvm.lifetime.%s.p0(i64 16, ptr %s)" % (r.choice(["start", "end"]), p))
        elif op == 9:
            lines.append("  call void @llvm.memmove.p0.p0.i64(ptr %s, ptr %s, i64 8, i1 false)" % (p, q))
        elif op == 10:
            lines.append("  %%l%d = load i64, ptr %s, align 8" % (k, p))
            lines.append("  store i64 %%l%d, ptr %s, align 8" % (k, q))
            k += 1
        elif op == 11:
            lines.append("  br i1 %%c, label %%b%d, label %%b%d" % (k, k))
            lines.append("b%d:" % k)
            k += 1
    lines.append("  ret void\n}")
    return FUZZ_DECLS + "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [1, 7, 19, 23, 42, 58, 77, 101, 150, 202, 333, 404, 545])
def test_random_copy_sequences_like_opt(seed: int) -> None:
    assert_like_opt(_random_copy_function(seed), "memcpyopt", {"verify-memoryssa": True})
