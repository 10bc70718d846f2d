"""BasicAA against opt-19: every answer ``aa-eval -print-all-alias-modref-info`` prints with
``-aa-pipeline=basic-aa`` on hand-written functions covering each rule (identified
objects, escapes, object sizes, GEP decomposition with variable indices, phis, selects,
calls), byte for byte; property tests of the GEP decomposition."""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias.basic_aa import decompose_gep_expression, max_index_size_in_bits
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset
from llvmpy_mid.passes.run import run_passes

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")
DL = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'


def _opt(text: str, tmp_path: Path, extra: tuple[str, ...] = ()) -> str:
    assert OPT is not None
    path = tmp_path / "in.ll"
    path.write_text(text)
    proc = subprocess.run(
        [OPT, "-disable-output", "-passes=aa-eval", "-aa-pipeline=basic-aa", "-print-all-alias-modref-info", *extra, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stderr


def _ours(text: str, options: dict[str, bool | str] | None = None) -> str:
    opts: dict[str, bool | str] = {"aa-pipeline": "basic-aa", "print-all-alias-modref-info": True}
    opts.update(options or {})
    stream = io.StringIO()
    run_passes(parse_assembly(text), "aa-eval", options=opts, stream=stream)
    return stream.getvalue()


CASES: dict[str, str] = {
    "identified_objects": DL + """
@g1 = global i32 0
@g2 = global [4 x i32] zeroinitializer
@c = constant i32 3
declare ptr @malloc(i64)
declare noalias ptr @nam(i64)
define void @f(ptr %p, ptr noalias %q, ptr byval(i32) %b) {
  %a = alloca i32
  %a2 = alloca [8 x i8]
  %m = call ptr @malloc(i64 16)
  %n = call ptr @nam(i64 4)
  store i32 0, ptr %a
  store i32 0, ptr %a2
  store i32 0, ptr %p
  store i32 0, ptr %q
  store i32 0, ptr %b
  store i32 0, ptr @g1
  store i32 0, ptr @g2
  %x = load i32, ptr @c
  store i32 0, ptr %m
  store i32 0, ptr %n
  store i32 0, ptr null
  store i32 0, ptr undef
  ret void
}
""",
    "escapes": DL + """
declare ptr @get()
declare void @take(ptr)
declare void @take_nc(ptr nocapture)
define void @f(ptr %p) {
  %a = alloca i32
  %b = alloca i32
  %c = alloca i32
  call void @take(ptr %b)
  call void @take_nc(ptr %c)
  %r = call ptr @get()
  %l = load ptr, ptr %p
  store i32 1, ptr %a
  store i32 1, ptr %b
  store i32 1, ptr %c
  store i32 1, ptr %r
  store i32 1, ptr %l
  %i = inttoptr i64 1234 to ptr
  store i32 1, ptr %i
  ret void
}
""",
    "gep_constant": DL + """
%S = type { i32, [3 x i16], i64 }
define void @f(ptr %p, i64 %n) {
  %a = alloca %S
  %f0 = getelementptr %S, ptr %a, i32 0, i32 0
  %f1 = getelementptr %S, ptr %a, i32 0, i32 1, i64 1
  %f1b = getelementptr %S, ptr %a, i32 0, i32 1, i64 2
  %f2 = getelementptr inbounds %S, ptr %a, i32 0, i32 2
  %b8 = getelementptr i8, ptr %a, i64 6
  %neg = getelementptr inbounds i8, ptr %f2, i64 -8
  store i32 0, ptr %f0
  store i16 0, ptr %f1
  store i16 0, ptr %f1b
  store i64 0, ptr %f2
  store i32 0, ptr %b8
  store i64 0, ptr %a
  store i32 0, ptr %neg
  %p1 = getelementptr i32, ptr %p, i64 1
  %p2 = getelementptr i32, ptr %p, i64 2
  %pm = getelementptr i8, ptr %p, i64 -2
  store i32 0, ptr %p
  store i32 0, ptr %p1
  store i64 0, ptr %p2
  store i32 0, ptr %pm
  ret void
}
""",
    "gep_variable": DL + """
define void @f(ptr %p, i64 %i, i32 %j, i64 %k) {
  %pi = getelementptr i32, ptr %p, i64 %i
  %i1 = add nsw i64 %i, 1
  %pi1 = getelementptr i32, ptr %p, i64 %i1
  %i2 = shl nsw i64 %i, 1
  %pi2 = getelementptr i16, ptr %p, i64 %i2
  %i3 = or disjoint i64 %i2, 1
  %pi3 = getelementptr i16, ptr %p, i64 %i3
  %sj = sext i32 %j to i64
  %pj = getelementptr i32, ptr %p, i64 %sj
  %j1 = add nsw i32 %j, 1
  %sj1 = sext i32 %j1 to i64
  %pj1 = getelementptr i32, ptr %p, i64 %sj1
  %zj = zext i32 %j to i64
  %pz = getelementptr [2 x i32], ptr %p, i64 %zj, i64 1
  %pz0 = getelementptr [2 x i32], ptr %p, i64 %zj, i64 0
  %m4 = mul i64 %k, 4
  %pk = getelementptr i8, ptr %p, i64 %m4
  %pk1 = getelementptr i8, ptr %pk, i64 2
  %pjj = getelementptr [4 x i32], ptr %p, i64 %sj, i64 %sj
  %pjj1 = getelementptr i32, ptr %p, i32 %j
  store i32 0, ptr %pi
  store i32 0, ptr %pi1
  store i16 0, ptr %pi2
  store i16 0, ptr %pi3
  store i32 0, ptr %pj
  store i32 0, ptr %pj1
  store i32 0, ptr %pz
  store i32 0, ptr %pz0
  store i32 0, ptr %pk
  store i16 0, ptr %pk1
  store i32 0, ptr %pjj
  store i32 0, ptr %pjj1
  ret void
}
""",
    "gep_ranges_and_nonzero": DL + """
define void @f(ptr %p, i8 %x, i64 %y, i64 %z) {
  %a = alloca [16 x i8]
  %zx = zext i8 %x to i64
  %big = add nuw nsw i64 %zx, 256
  %pa = getelementptr i8, ptr %p, i64 %big
  %m = and i64 %y, 3
  %pm = getelementptr i8, ptr %p, i64 %m
  %pm8 = getelementptr i8, ptr %p, i64 8
  %nz = or i64 %y, 1
  %pnz = getelementptr i64, ptr %p, i64 %nz
  %ne = add i64 %z, 1
  %pz = getelementptr i32, ptr %p, i64 %z
  %pne = getelementptr i32, ptr %p, i64 %ne
  %ax = getelementptr [16 x i8], ptr %a, i64 0, i64 %y
  %ax4 = getelementptr i8, ptr %a, i64 4
  store i8 0, ptr %pa
  store i8 0, ptr %p
  store i8 0, ptr %pm
  store i32 0, ptr %pm8
  store i64 0, ptr %pnz
  store i32 0, ptr %pz
  store i32 0, ptr %pne
  store i8 0, ptr %ax
  store i32 0, ptr %ax4
  store i64 0, ptr %a
  ret void
}
""",
    "phis_and_selects": DL + """
define void @f(ptr %p, ptr noalias %q, i1 %c, i64 %n) {
entry:
  %a = alloca [10 x i32]
  %b = alloca i32
  %s = select i1 %c, ptr %a, ptr %b
  %s2 = select i1 %c, ptr %b, ptr %a
  %s3 = select i1 %c, ptr %q, ptr %b
  store i32 0, ptr %s
  store i32 0, ptr %s2
  store i32 0, ptr %s3
  br i1 %c, label %then, label %loop
then:
  br label %loop
loop:
  %ph = phi ptr [ %a, %entry ], [ %b, %then ], [ %next, %loop ]
  %ph2 = phi ptr [ %b, %entry ], [ %a, %then ], [ %ph, %loop ]
  %iv = phi ptr [ %a, %entry ], [ %a, %then ], [ %iv.next, %loop ]
  %next = getelementptr i32, ptr %ph, i64 1
  %iv.next = getelementptr inbounds i32, ptr %iv, i64 1
  store i32 1, ptr %ph
  store i32 1, ptr %ph2
  store i32 1, ptr %iv
  store i32 1, ptr %iv.next
  store i32 1, ptr %q
  %cmp = icmp ult ptr %iv, %p
  br i1 %cmp, label %loop, label %exit
exit:
  %lc = phi ptr [ %iv, %loop ]
  store i32 2, ptr %lc
  ret void
}
""",
    "calls": DL + """
declare void @unknown(ptr)
declare void @ro(ptr) memory(read)
declare void @argonly(ptr) memory(argmem: readwrite)
declare void @argro(ptr readonly) memory(argmem: readwrite)
declare void @none() memory(none)
declare noalias ptr @malloc(i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.assume(i1)
declare ptr @llvm.stacksave()
declare void @llvm.stackrestore(ptr)
declare void @llvm.experimental.guard(i1, ...)
declare {}* @llvm.invariant.start.p0(i64, ptr nocapture)
define void @f(ptr %p, ptr %q, ptr noalias %r, i1 %c, i64 %n) {
  %a = alloca [8 x i32]
  %b = alloca i32
  %d = alloca i32, i64 %n
  call void @unknown(ptr %p)
  call void @ro(ptr %q)
  call void @argonly(ptr %a)
  call void @argro(ptr %b)
  call void @none()
  %m = call ptr @malloc(i64 8)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %p, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr %r, i8 0, i64 4, i1 false)
  call void @llvm.assume(i1 %c)
  %ss = call ptr @llvm.stacksave()
  call void @llvm.stackrestore(ptr %ss)
  call void (i1, ...) @llvm.experimental.guard(i1 %c) [ "deopt"() ]
  %inv = call {}* @llvm.invariant.start.p0(i64 4, ptr %q)
  tail call void @unknown(ptr %q)
  store i32 0, ptr %a
  store i32 0, ptr %b
  store i32 0, ptr %d
  store i32 0, ptr %p
  store i32 0, ptr %q
  store i32 0, ptr %r
  store i32 0, ptr %m
  ret void
}
""",
    "object_sizes": DL + """
@small = global i16 0
@arr = global [2 x i32] zeroinitializer
define void @f(ptr %p, ptr dereferenceable(16) %dp, i1 %c) {
  %a = alloca i8
  %b = alloca [4 x i8], align 4
  store i64 0, ptr %p
  store i8 0, ptr %a
  store i64 0, ptr %b
  store i32 0, ptr %b
  store i64 0, ptr @small
  store i64 0, ptr @arr
  %g = getelementptr i32, ptr @arr, i64 1
  store i32 0, ptr %g
  store i8 0, ptr %dp
  %s = select i1 %c, ptr %a, ptr %b
  store i32 0, ptr %s
  ret void
}
""",
    "separate_storage_and_null": DL + """
declare void @llvm.assume(i1)
define void @f(ptr %p, ptr %q, ptr %r) null_pointer_is_valid {
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p, ptr %q) ]
  store i32 0, ptr %p
  store i32 0, ptr %q
  store i32 0, ptr %r
  store i32 0, ptr null
  ret void
}
define void @g(ptr %p, ptr %q) {
  store i32 0, ptr %p
  store i32 0, ptr %q
  store i32 0, ptr null
  store i32 0, ptr addrspace(1) null
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p, ptr %q) ]
  ret void
}
""",
    "mod_ref_mask": DL + """
@c = constant [4 x i32] zeroinitializer
@v = global i32 0
declare void @unknown()
define void @f(ptr noalias readonly %ro, i1 %x) {
  %a = alloca i32
  %s = select i1 %x, ptr @c, ptr %ro
  %l1 = load i32, ptr @c
  %l2 = load i32, ptr %ro
  %l3 = load i32, ptr %s
  %l4 = load i32, ptr @v
  call void @unknown()
  ret void
}
""",
    "scalable_vectors": DL + """
define void @f(ptr %p) vscale_range(1,16) {
  %a = alloca <vscale x 4 x i32>
  %g = getelementptr <vscale x 4 x i32>, ptr %a, i64 1
  %h = getelementptr i32, ptr %a, i64 2
  store <vscale x 4 x i32> zeroinitializer, ptr %a
  store <vscale x 4 x i32> zeroinitializer, ptr %g
  store i32 0, ptr %h
  %vs = call i64 @llvm.vscale.i64()
  %vs16 = mul nsw i64 %vs, 16
  %pv = getelementptr i8, ptr %p, i64 %vs16
  store <vscale x 4 x i32> zeroinitializer, ptr %p
  store <vscale x 4 x i32> zeroinitializer, ptr %pv
  ret void
}
declare i64 @llvm.vscale.i64()
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(CASES))
def test_aa_eval_as_opt19(name: str, tmp_path: Path) -> None:
    text = CASES[name]
    assert _ours(text) == _opt(text, tmp_path)


@needs_opt
@pytest.mark.parametrize("option", ["-basic-aa-recphi=0", "-basic-aa-separate-storage=0"])
def test_options_as_opt19(option: str, tmp_path: Path) -> None:
    text = CASES["phis_and_selects"] if "recphi" in option else CASES["separate_storage_and_null"]
    name, _, value = option.lstrip("-").partition("=")
    assert _ours(text, {name: value == "1"}) == _opt(text, tmp_path, (option,))


# --- GEP decomposition properties -----------------------------------------------------------------

_LAYOUTS = [
    "",
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
    "e-p:32:32-i64:64",
    "E-p:64:64:64:32-i64:32",
]


def _random_gep_module(rng: random.Random, layout: str) -> str:
    """A function with one chain of constant GEPs over random aggregate types."""
    scalars = ["i8", "i16", "i32", "i64", "float", "double", "ptr", "i1", "i128"]

    def rand_type(depth: int) -> str:
        r = rng.random()
        if depth > 2 or r < 0.4:
            return rng.choice(scalars)
        if r < 0.7:
            return "[%d x %s]" % (rng.randint(1, 5), rand_type(depth + 1))
        return "{ %s }" % ", ".join(rand_type(depth + 1) for _ in range(rng.randint(1, 4)))

    lines = ['target datalayout = "%s"' % layout, "define void @f(ptr %p) {"]
    cur = "%p"
    for n in range(rng.randint(1, 5)):
        ty = rand_type(0)
        idx = ["i64 %d" % rng.randint(-4, 4)]
        t = ty
        while True:
            if t.startswith("["):
                count, _, elem = t[1:-1].partition(" x ")
                idx.append("i32 %d" % rng.randint(0, int(count) - 1 + rng.randint(0, 1)))
                t = elem
            elif t.startswith("{"):
                fields = _split_fields(t[2:-2])
                k = rng.randint(0, len(fields) - 1)
                idx.append("i32 %d" % k)
                t = fields[k]
            else:
                break
            if rng.random() < 0.3:
                break
        flag = "inbounds " if rng.random() < 0.5 else ""
        lines.append("  %%g%d = getelementptr %s%s, ptr %s, %s" % (n, flag, ty, cur, ", ".join(idx)))
        cur = "%%g%d" % n
    lines.append("  store i8 0, ptr %s" % cur)
    lines.append("  ret void\n}")
    return "\n".join(lines) + "\n"


def _split_fields(text: str) -> list[str]:
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return out


@pytest.mark.parametrize("seed", range(60))
def test_decomposed_constant_offset_matches_folded_offset(seed: int) -> None:
    """A chain of constant GEPs decomposes to its base with the constant-folded byte offset."""
    rng = random.Random(seed)
    layout = rng.choice(_LAYOUTS)
    module = parse_assembly(_random_gep_module(rng, layout))
    dl = module.data_layout
    fn = module.get_function("f")
    assert fn is not None
    store = fn.entry_block.instructions.last.prev_instruction  # type: ignore[union-attr]
    ptr = store.operands[1]  # type: ignore[union-attr]
    width = max_index_size_in_bits(dl)
    d = decompose_gep_expression(ptr, dl)
    # fold the chain by hand (at most 6 steps, as the decomposition)
    total = 0
    v = ptr
    steps = 0
    while getattr(v, "opcode", "") == "getelementptr" and steps < 6:
        off = accumulate_constant_offset(dl, v, dl.index_size_in_bits(0))
        assert off is not None
        total += off
        v = v.operands[0]  # type: ignore[attr-defined]
        steps += 1
    assert d.base is v
    assert not d.var_indices
    mask = (1 << dl.index_size_in_bits(0)) - 1
    assert (d.offset - total) & mask == 0
    assert -(1 << (width - 1)) <= d.offset < (1 << (width - 1))


@pytest.mark.parametrize("seed", range(30))
def test_decomposed_variable_index_evaluates_like_the_gep(seed: int) -> None:
    """For random values of the variable index, base + offset + sum(scale * index) equals the
    GEP's byte offset computed with that value substituted."""
    rng = random.Random(1000 + seed)
    k = rng.randint(-3, 3)
    m = rng.choice([1, 2, 3, 4, 8])
    c = rng.randint(-5, 5)
    text = (
        DL
        + "define void @f(ptr %%p, i32 %%x) {\n  %%s = sext i32 %%x to i64\n  %%m = mul nsw i64 %%s, %d\n"
        "  %%a = add nsw i64 %%m, %d\n  %%g = getelementptr inbounds [4 x i32], ptr %%p, i64 %%a, i64 %d\n"
        "  %%h = getelementptr i16, ptr %%g, i64 %%s\n  store i8 0, ptr %%h\n  ret void\n}\n"
    ) % (m, c, k % 4)
    module = parse_assembly(text)
    dl = module.data_layout
    fn = module.get_function("f")
    assert fn is not None
    h = [i for i in fn.entry_block.instructions if i.name == "h"][0]
    d = decompose_gep_expression(h, dl)
    assert d.base is fn.get_arg(0)
    (index,) = d.var_indices
    assert index.val.v is fn.get_arg(1)
    for _ in range(5):
        x = rng.randint(-1000, 1000)
        expected = (x * m + c) * 16 + (k % 4) * 4 + x * 2
        assert d.offset + index.scale * x == expected


@needs_opt
def test_csmith_sample_agrees_with_opt19() -> None:
    """A sample of ``benchmarks/aa_agreement.py``: one csmith program after mem2reg, every
    answer identical to opt-19's."""
    bench = Path(__file__).resolve().parents[3] / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        import aa_agreement
    finally:
        sys.path.remove(str(bench))
    files = aa_agreement.default_files(1)
    if not files:
        pytest.skip("csmith corpus not found")
    agg = aa_agreement.run(files, True, "basic-aa")
    assert agg.ours_no_opt_must == 0
    assert agg.ours_no_opt_other == 0
    assert agg.exact_share == 1.0, agg.report()


# --- query modes ----------------------------------------------------------------------------------

_LOOP = DL + """
define void @f(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i32, ptr %a, i64 %i
  %i.next = add nsw i64 %i, 1
  %q = getelementptr i32, ptr %a, i64 %i.next
  store i32 0, ptr %p
  store i32 0, ptr %q
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
"""


def _loop_locations() -> tuple[object, object, object]:
    from llvmpy_mid.analysis.alias.aa_manager import AAManager
    from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
    from llvmpy_mid.passes.instrumentation import PassInstrumentation
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.passes.proxies import make_analysis_managers

    module = parse_assembly(_LOOP)
    fn = module.get_function("f")
    assert fn is not None
    values = {i.name: i for bb in fn.blocks for i in bb.instructions}
    _mam, fam = make_analysis_managers(PassInstrumentation())
    with OPTIONS.overriding({"aa-pipeline": "basic-aa"}):
        aa = fam.get_result(AAManager, fn)
    four = LocationSize.precise(4)
    return aa, MemoryLocation(values["p"], four), MemoryLocation(values["q"], four)


def test_cross_iteration_mode_does_not_equate_loop_values() -> None:
    """``a[i]`` and ``a[i + 1]`` do not overlap in one iteration, but may across iterations
    (BatchAA's cross-iteration mode: the two ``%i`` may be different values)."""
    from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults
    from llvmpy_mid.analysis.alias.alias_result import AliasKind

    aa, p, q = _loop_locations()
    assert isinstance(aa, AAResults)
    assert aa.alias(p, q).kind is AliasKind.NO_ALIAS  # type: ignore[arg-type]
    batch = BatchAAResults(aa)
    batch.enable_cross_iteration_mode()
    assert batch.alias(p, q).kind is AliasKind.MAY_ALIAS  # type: ignore[arg-type]
    # the same GEP of a loop-varying index names a different address in another iteration
    assert batch.alias(p, p).kind is AliasKind.MAY_ALIAS  # type: ignore[arg-type]
    assert aa.alias(p, p).kind is AliasKind.MUST_ALIAS  # type: ignore[arg-type]


def test_batch_cache_answers_like_fresh_queries() -> None:
    """A batch keeps its cache across queries; every answer equals a fresh query's, in both orders,
    and the swapped query's PartialAlias offset changes sign."""
    from llvmpy_mid.analysis.alias.aa_manager import AAManager
    from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
    from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
    from llvmpy_mid.ir.instructions.memory import StoreInst
    from llvmpy_mid.passes.instrumentation import PassInstrumentation
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.passes.proxies import make_analysis_managers

    for name in ("gep_constant", "gep_variable", "phis_and_selects", "object_sizes"):
        module = parse_assembly(CASES[name])
        fn = module.get_function("f")
        assert fn is not None
        _mam, fam = make_analysis_managers(PassInstrumentation())
        with OPTIONS.overriding({"aa-pipeline": "basic-aa"}):
            aa = fam.get_result(AAManager, fn)
        dl = module.data_layout
        locs = [
            MemoryLocation(i.operands[1], LocationSize.precise(dl.type_store_size(i.operands[0].type)))
            for bb in fn.blocks
            for i in bb.instructions
            if isinstance(i, StoreInst)
        ]
        batch = BatchAAResults(aa)
        for a in locs:
            for b in locs:
                fresh = aa.alias(a, b)
                got = batch.alias(a, b)
                assert got == fresh and got.offset == fresh.offset, (name, a, b)
                back = aa.alias(b, a)
                assert back == fresh
                if fresh.offset is not None:
                    assert back.offset == -fresh.offset
