"""``mem2reg`` and ``reg2mem`` against opt-19: our printed module equals
``opt-19 -passes=... -S`` (ModuleID aside) and verifies, on random functions built
here (random CFGs of allocas, loads and stores, with unreachable blocks, self loops,
switches with repeated successors and uninitialised reads), on hand-made cases (the
fast paths, debug records, droppable uses, lifetime markers, phi order), on the
csmith corpus (``-O0`` files; ``-O0 -g`` for ``#dbg_declare``; ``-O2 -g`` before any
pass plus opt-19's ``declare-to-assign`` for ``#dbg_assign``: a sample by default, all
with ``--run-slow``), and the reg2mem -> mem2reg round trip. A 10,000-block chain promotes without recursion.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from opt_oracle import assert_same_as_opt, body, opt19_text

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, parse_file, print_module
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.transform.utils.promote_mem_to_reg import is_alloca_promotable
from oracles import csmith_cache_dir, require_tools

# --- random functions -------------------------------------------------------------------------


def random_function(rng: random.Random, index: int) -> str:
    """A function of random blocks over a few i32 slots; every terminator and access is random."""
    nblocks = rng.randint(1, 9)
    nslots = rng.randint(1, 4)
    lines = ["define i32 @f%d(i32 %%a, i1 %%c, i1 %%d) {" % index, "entry:"]
    for s in range(nslots):
        name = "s%d" % s if rng.random() < 0.8 else str(s)
        lines.append("  %%%s = alloca i32" % name if not name.isdigit() else "  %%%s = alloca i32" % ("x" + name))
    slots = [ln.split("=")[0].strip() for ln in lines[2:]]
    counter = 0
    for b in range(nblocks):
        if b:
            lines.append("b%d:" % b)
        values = ["%a", "0", str(rng.randint(1, 9))]
        for _ in range(rng.randint(0, 5)):
            slot = rng.choice(slots)
            if rng.random() < 0.5:
                lines.append("  store i32 %s, ptr %s" % (rng.choice(values), slot))
            else:
                counter += 1
                v = "%%v%d" % counter
                lines.append("  %s = load i32, ptr %s" % (v, slot))
                values.append(v)
        targets = ["b%d" % t for t in range(1, nblocks)] or []
        kind = rng.random()
        if not targets or kind < 0.2:
            counter += 1
            lines.append("  %%r%d = load i32, ptr %s" % (counter, rng.choice(slots)))
            lines.append("  ret i32 %%r%d" % counter)
        elif kind < 0.5:
            lines.append("  br label %%%s" % rng.choice(targets))
        elif kind < 0.85:
            lines.append("  br i1 %s, label %%%s, label %%%s" % (rng.choice(["%c", "%d"]), rng.choice(targets), rng.choice(targets)))
        else:
            t1, t2 = rng.choice(targets), rng.choice(targets)
            lines.append("  switch i32 %%a, label %%%s [ i32 1, label %%%s i32 2, label %%%s ]" % (t1, t2, t1))
    lines.append("}")
    return "\n".join(lines)


TYPES: list[tuple[str, list[str]]] = [
    ("i32", ["0", "7", "%a"]),
    ("i64", ["0", "9", "%b"]),
    ("float", ["0.0", "1.5", "%f"]),
    ("ptr", ["null", "%p"]),
    ("i1", ["true", "false", "%c"]),
    ("<2 x i16>", ["zeroinitializer", "<i16 1, i16 2>"]),
]
TYPE_INDEX = {ty: k for k, (ty, _) in enumerate(TYPES)}


def random_typed_function(rng: random.Random, idx: int, dbg: bool) -> str:
    """Slots of several types, lifetime markers, and (``dbg``) ``#dbg_declare`` records and store locations."""
    nblocks = rng.randint(2, 8)
    slots: list[tuple[str, str, list[str]]] = []
    lines = ["define void @f%d(i32 %%a, i64 %%b, float %%f, ptr %%p, i1 %%c, i1 %%d) %s{" % (idx, "!dbg !%d " % (100 + idx) if dbg else ""), "entry:"]
    for s in range(rng.randint(1, 5)):
        ty, consts = rng.choice(TYPES)
        name = "%%s%d" % s if rng.random() < 0.7 else "%%v%d_%d" % (idx, s)
        slots.append((name, ty, consts))
    for name, ty, _ in slots:
        lines.append("  %s = alloca %s" % (name, ty))
        if dbg and rng.random() < 0.7:
            var = 1000 + idx * 10 + TYPE_INDEX[ty]
            lines.append("    #dbg_declare(ptr %s, !%d, !DIExpression(), !%d)" % (name, var, 200 + idx))
    if rng.random() < 0.3:
        nm, ty, _ = slots[0]
        lines.append("  call void @llvm.lifetime.start.p0(i64 4, ptr %s)" % nm)
    cnt = 0
    known = {ty: list(c) for ty, c in TYPES}
    for b in range(nblocks):
        if b:
            lines.append("b%d:" % b)
        local = {ty: list(c) for ty, c in known.items()}
        for _ in range(rng.randint(0, 6)):
            name, ty, consts = rng.choice(slots)
            if rng.random() < 0.5:
                v = rng.choice(local[ty])
                loc = ", !dbg !%d" % (3000 + idx * 4 + rng.randint(0, 3)) if dbg else ""
                lines.append("  store %s %s, ptr %s%s" % (ty, v, name, loc))
            else:
                cnt += 1
                v = "%%l%d" % cnt
                lines.append("  %s = load %s, ptr %s" % (v, ty, name))
                local[ty].append(v)
        targets = ["b%d" % t for t in range(1, nblocks)]
        k = rng.random()
        if k < 0.15 or b == nblocks - 1 and k < 0.5:
            lines.append("  ret void")
        elif k < 0.45:
            lines.append("  br label %%%s" % rng.choice(targets))
        elif k < 0.85:
            lines.append("  br i1 %s, label %%%s, label %%%s" % (rng.choice(["%c", "%d"]), rng.choice(targets), rng.choice(targets)))
        else:
            t1, t2 = rng.choice(targets), rng.choice(targets)
            lines.append("  switch i32 %%a, label %%%s [ i32 1, label %%%s i32 2, label %%%s ]" % (t1, t2, t1))
    lines.append("}")
    return "\n".join(lines)


def debug_metadata(n: int) -> str:
    """A compile unit, one subprogram per function with its variables and locations."""
    out = [
        "!llvm.dbg.cu = !{!0}",
        "!llvm.module.flags = !{!3}",
        '!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false,'
        " runtimeVersion: 0, emissionKind: FullDebug)",
        '!1 = !DIFile(filename: "a.c", directory: "/")',
        '!3 = !{i32 2, !"Debug Info Version", i32 3}',
        "!4 = !DISubroutineType(types: !{})",
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)',
        '!6 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)',
        '!7 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)',
        "!8 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)",
        '!9 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)',
    ]
    out.append('!99 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 64)')
    for i in range(n):
        out.append('!%d = distinct !DISubprogram(name: "f%d", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)' % (100 + i, i))
        out.append('!%d = !DILocation(line: %d, scope: !%d)' % (200 + i, i + 1, 100 + i))
        for k, t in enumerate([5, 6, 7, 8, 9, 99]):
            out.append('!%d = !DILocalVariable(name: "v%d", scope: !%d, file: !1, line: %d, type: !%d)' % (1000 + i * 10 + k, k, 100 + i, k + 1, t))
        for j in range(4):
            out.append('!%d = !DILocation(line: %d, column: %d, scope: !%d)' % (3000 + i * 4 + j, 10 + j % 2, j, 100 + i))
    return "\n".join(out)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("pipeline", ["mem2reg", "reg2mem", "reg2mem,mem2reg"])
def test_random_typed_functions_with_debug_records_match_opt(seed: int, pipeline: str) -> None:
    rng = random.Random(500 + seed)
    dbg = seed == 0
    text = "declare void @llvm.lifetime.start.p0(i64, ptr nocapture)\n"
    text += "\n\n".join(random_typed_function(rng, i, dbg) for i in range(15))
    if dbg:
        text += "\n" + debug_metadata(15)
    out = assert_same_as_opt(text, pipeline)
    assert not dbg or pipeline == "reg2mem" or "#dbg_value" in out


@pytest.mark.parametrize("seed", range(6))
def test_random_functions_match_opt(seed: int) -> None:
    rng = random.Random(seed)
    text = "\n\n".join(random_function(rng, i) for i in range(25))
    assert_same_as_opt(text, "mem2reg")


@pytest.mark.parametrize("seed", range(3))
def test_random_functions_reg2mem_then_mem2reg(seed: int) -> None:
    rng = random.Random(100 + seed)
    text = "\n\n".join(random_function(rng, i) for i in range(15))
    promoted = opt19_text(text, "mem2reg")
    assert_same_as_opt(promoted, "reg2mem")
    assert_same_as_opt(promoted, "reg2mem,mem2reg")


# --- hand-made cases --------------------------------------------------------------------------

HAND = """
declare void @llvm.assume(i1)
declare void @llvm.lifetime.start.p0(i64, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64, ptr nocapture)
declare void @use(ptr)

define i32 @single_store_not_dominating(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %a, label %b
a:
  store i32 7, ptr %x
  br label %b
b:
  %v = load i32, ptr %x
  ret i32 %v
}

define i32 @single_block_read_first(i32 %n) {
entry:
  %x = alloca i32
  br label %loop
loop:
  %v = load i32, ptr %x
  store i32 %n, ptr %x
  %c = icmp eq i32 %v, 0
  br i1 %c, label %loop, label %out
out:
  ret i32 %v
}

define i32 @two_slots_phi_order(i1 %c, i32 %a, i32 %b) {
entry:
  %p = alloca i32
  %q = alloca i32
  %r = alloca i32
  store i32 %a, ptr %p
  store i32 %b, ptr %q
  store i32 1, ptr %r
  br i1 %c, label %then, label %join
then:
  store i32 %b, ptr %p
  store i32 %a, ptr %q
  store i32 2, ptr %r
  br label %join
join:
  %x = load i32, ptr %p
  %y = load i32, ptr %q
  %z = load i32, ptr %r
  %s = add i32 %x, %y
  %t = add i32 %s, %z
  ret i32 %t
}

define i32 @lifetime_and_assume(i32 %a) {
entry:
  %x = alloca i32
  call void @llvm.lifetime.start.p0(i64 4, ptr %x)
  call void @llvm.assume(i1 true) [ "align"(ptr %x, i64 4) ]
  store i32 %a, ptr %x
  %v = load i32, ptr %x
  call void @llvm.lifetime.end.p0(i64 4, ptr %x)
  ret i32 %v
}

define i32 @escapes(i32 %a) {
entry:
  %x = alloca i32
  %y = alloca i32
  store i32 %a, ptr %x
  store i32 %a, ptr %y
  call void @use(ptr %y)
  %v = load i32, ptr %x
  ret i32 %v
}

define i32 @unreachable_block(i32 %a) {
entry:
  %x = alloca i32
  store i32 %a, ptr %x
  br label %join
dead:
  store i32 5, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  store i32 3, ptr %x
  %w = load i32, ptr %x
  %s = add i32 %v, %w
  ret i32 %s
}

define float @fp_loop(i1 %c) "no-signed-zeros-fp-math"="true" {
entry:
  %x = alloca float
  store float 1.0, ptr %x
  br label %loop
loop:
  %v = load float, ptr %x
  %n = fadd float %v, 1.0
  store float %n, ptr %x
  br i1 %c, label %loop, label %out
out:
  %r = load float, ptr %x
  ret float %r
}

define ptr @slot_of_a_slot(i32 %a) {
entry:
  %x = alloca i32
  %px = alloca ptr
  store ptr %x, ptr %px
  %p = load ptr, ptr %px
  store i32 %a, ptr %p
  %v = load i32, ptr %x
  ret ptr null
}
"""


UNNAMED = """
define i32 @f(i1 %c, i32 %a) {
entry:
  %0 = alloca i32
  %1 = alloca i32
  %x = alloca i32
  store i32 %a, ptr %0
  store i32 1, ptr %1
  store i32 2, ptr %x
  br i1 %c, label %t, label %j
t:
  store i32 5, ptr %0
  store i32 6, ptr %1
  store i32 7, ptr %x
  br label %j
j:
  %v = load i32, ptr %0
  %w = load i32, ptr %1
  %y = load i32, ptr %x
  %s = add i32 %v, %w
  %s2 = add i32 %s, %y
  br i1 %c, label %t2, label %j2
t2:
  store i32 8, ptr %0
  store i32 9, ptr %1
  br label %j2
j2:
  %v2 = load i32, ptr %0
  %w2 = load i32, ptr %1
  %r = add i32 %v2, %w2
  %r2 = add i32 %r, %s2
  ret i32 %r2
}
"""

INVOKES = """
declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)

define i32 @f(i1 %c, i32 %a) personality ptr @__gxx_personality_v0 {
entry:
  %x = invoke i32 @g(i32 %a) to label %mid unwind label %lp
mid:
  br i1 %c, label %a1, label %b1
a1:
  %y = invoke i32 @g(i32 1) to label %join unwind label %lp
b1:
  br label %join
join:
  %p = phi i32 [ %y, %a1 ], [ %x, %b1 ]
  %q = add i32 %p, %x
  br label %exit
lp:
  %z = phi i32 [ 0, %entry ], [ 1, %a1 ]
  %l = landingpad { ptr, i32 } cleanup
  br label %exit
exit:
  %r = phi i32 [ %q, %join ], [ %z, %lp ]
  ret i32 %r
}
"""


def test_unnamed_slots_phi_names_match_opt() -> None:
    """Phis of unnamed allocas are ``%.0``, ``%.01``... as LLVM names them."""
    assert ".01 = phi" in assert_same_as_opt(UNNAMED, "mem2reg")


def test_statistics_count_llvms_events() -> None:
    """LLVM's mem2reg counters: 3 slots promoted through phis (5 of them), none by a fast path."""
    result = llvmpy_mid.run_passes(parse_assembly(UNNAMED), "mem2reg")
    counts = result.statistics
    assert counts.get("mem2reg.NumPHIInsert") == 5
    assert counts.get("mem2reg.NumPromoted") == 3
    assert "mem2reg.NumSingleStore" not in counts and "mem2reg.NumLocalPromoted" not in counts


@pytest.mark.parametrize("pipeline", ["reg2mem", "reg2mem,mem2reg"])
def test_invokes_and_landing_pads_match_opt(pipeline: str) -> None:
    assert_same_as_opt(INVOKES, pipeline)


def test_hand_cases_match_opt() -> None:
    assert_same_as_opt(HAND, "mem2reg")


def test_hand_cases_reg2mem_match_opt() -> None:
    promoted = opt19_text(HAND, "mem2reg")
    assert_same_as_opt(promoted, "reg2mem")


DEBUG = """
define i32 @f(i32 %a, i1 %c) !dbg !4 {
entry:
  %x = alloca i32
  %y = alloca i64
    #dbg_declare(ptr %x, !9, !DIExpression(), !10)
    #dbg_declare(ptr %y, !11, !DIExpression(), !10)
  store i32 %a, ptr %x, !dbg !10
  store i64 1, ptr %y, !dbg !10
  br i1 %c, label %t, label %j, !dbg !10
t:
  store i32 3, ptr %x, !dbg !12
  store i64 2, ptr %y, !dbg !12
  br label %j, !dbg !12
j:
  %v = load i32, ptr %x, !dbg !13
  %w = load i64, ptr %y, !dbg !13
  %w32 = trunc i64 %w to i32
  %s = add i32 %v, %w32
  ret i32 %s, !dbg !13
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, spFlags: DISPFlagDefinition)
!5 = !DISubroutineType(types: !6)
!6 = !{!7}
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "x", scope: !4, file: !1, line: 2, type: !7)
!11 = !DILocalVariable(name: "y", scope: !4, file: !1, line: 2, type: !8)
!10 = !DILocation(line: 2, column: 3, scope: !4)
!12 = !DILocation(line: 3, column: 5, scope: !4)
!13 = !DILocation(line: 4, column: 7, scope: !4)
"""


def test_debug_records_match_opt() -> None:
    assert_same_as_opt(DEBUG, "mem2reg")


def test_is_alloca_promotable() -> None:
    module = parse_assembly(HAND)
    verdict = {}
    for fn in module.functions:
        if fn.is_declaration:
            continue
        for inst in fn.entry_block.instructions:
            if isinstance(inst, AllocaInst):
                verdict[(fn.name, inst.name)] = is_alloca_promotable(inst)
    assert verdict[("escapes", "x")] is True
    assert verdict[("escapes", "y")] is False
    assert verdict[("lifetime_and_assume", "x")] is True
    assert verdict[("slot_of_a_slot", "x")] is False  # stored as a value
    assert verdict[("slot_of_a_slot", "px")] is True


# --- a deep CFG -------------------------------------------------------------------------------


def test_deep_chain_promotes_without_recursion() -> None:
    n = 10_000
    lines = ["define i32 @deep(i32 %a, i1 %c) {", "entry:", "  %x = alloca i32", "  store i32 %a, ptr %x", "  br label %b1"]
    for i in range(1, n):
        lines += [
            "b%d:" % i,
            "  %%v%d = load i32, ptr %%x" % i,
            "  %%n%d = add i32 %%v%d, 1" % (i, i),
            "  store i32 %%n%d, ptr %%x" % i,
            "  br i1 %%c, label %%b%d, label %%b%d" % (i + 1, max(1, i - 1)),
        ]
    lines += ["b%d:" % n, "  %r = load i32, ptr %x", "  ret i32 %r", "}"]
    text = "\n".join(lines)
    module = parse_assembly(text)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(400)  # the pass must not recurse per block
    try:
        llvmpy_mid.run_passes(module, "mem2reg")
    finally:
        sys.setrecursionlimit(old)
    llvmpy_mid.verify_module(module)
    fn = module.get_function("deep")
    assert fn is not None
    assert not any(i.opcode in ("alloca", "load", "store") for bb in fn.blocks for i in bb.instructions)
    phis = sum(1 for bb in fn.blocks for _ in bb.phis())
    assert phis == n - 2  # b1..b9998 have two predecessors
    require_tools("opt-19")
    assert body(print_module(module)) == body(opt19_text(text, "mem2reg"))


# --- csmith -----------------------------------------------------------------------------------


def _csmith_o0() -> list[Path]:
    folder = csmith_cache_dir()
    if folder is None:
        return []
    return sorted(folder.glob("w*/*.O0.ll"), key=lambda p: (p.parent.name, p.name))


_CSMITH = _csmith_o0()
_SAMPLE = _CSMITH[:6]


def _check_csmith(path: Path, pipeline: str) -> None:
    require_tools("opt-19")
    if not path.exists():
        pytest.skip("%s was removed from the csmith cache" % path.name)
    text = path.read_text()
    expected = opt19_text(text, pipeline)
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline)
    llvmpy_mid.verify_module(module)
    assert body(print_module(module)) == body(expected)


@pytest.mark.parametrize("path", _SAMPLE, ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_sample_matches_opt(path: Path) -> None:
    _check_csmith(path, "mem2reg")


@pytest.mark.slow
@pytest.mark.parametrize("path", _CSMITH, ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_all_match_opt(path: Path) -> None:
    _check_csmith(path, "mem2reg")


@pytest.mark.slow
@pytest.mark.parametrize("path", _CSMITH[:20], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_reg2mem_match_opt(path: Path) -> None:
    _check_csmith(path, "reg2mem")


# -O2 -g: phis to demote, and debug records where the new loads, stores and slots go
_CSMITH_O2G = [q.parent / (q.name.split(".")[0] + ".O2g.ll") for q in _CSMITH]


@pytest.mark.parametrize("path", _CSMITH_O2G[:2], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_optimized_debug_round_trip_sample(path: Path) -> None:
    _check_csmith(path, "reg2mem,mem2reg")


@pytest.mark.slow
@pytest.mark.parametrize("path", _CSMITH_O2G[:40], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
@pytest.mark.parametrize("pipeline", ["reg2mem", "reg2mem,mem2reg"])
def test_csmith_optimized_debug_match_opt(path: Path, pipeline: str) -> None:
    _check_csmith(path, pipeline)


# --- csmith at -O0 -g: #dbg_declare records become #dbg_value records -------------------------

_CSMITH_C = sorted({p.with_suffix("").with_suffix(".c") for p in _CSMITH}, key=lambda p: (p.parent.name, p.name))


def _check_csmith_debug(cfile: Path, tmp_path: Path, assignment_tracking: bool = False) -> None:
    """clang-19 -O0 -g (``#dbg_declare``), or -O2 -g before any pass and opt-19's
    ``declare-to-assign`` (``#dbg_assign``); then mem2reg against opt-19's."""
    require_tools("opt-19", "clang-19")
    if not cfile.exists():
        pytest.skip("%s was removed from the csmith cache" % cfile.name)
    out = tmp_path / (cfile.stem + ".g.ll")
    level = ["-O2", "-Xclang", "-disable-llvm-passes"] if assignment_tracking else ["-O0", "-Xclang", "-disable-O0-optnone"]
    cmd = ["clang-19", "-S", "-emit-llvm", "-g", *level, "-w", "-I/usr/include/csmith", str(cfile), "-o", str(out)]
    if shutil.which("csmith") is None or subprocess.run(cmd, capture_output=True).returncode != 0:
        pytest.skip("clang-19 could not compile %s" % cfile.name)
    if assignment_tracking:
        text = opt19_text(out.read_text(), "declare-to-assign")
        assert "#dbg_assign" in text
        out.write_text(text)
    _check_csmith(out, "mem2reg")


@pytest.mark.parametrize("cfile", _CSMITH_C[:2], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_debug_sample_matches_opt(cfile: Path, tmp_path: Path) -> None:
    _check_csmith_debug(cfile, tmp_path)


@pytest.mark.parametrize("cfile", _CSMITH_C[2:4], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_assignment_tracking_sample_matches_opt(cfile: Path, tmp_path: Path) -> None:
    _check_csmith_debug(cfile, tmp_path, assignment_tracking=True)


@pytest.mark.slow
@pytest.mark.parametrize("cfile", _CSMITH_C[:40], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_debug_matches_opt(cfile: Path, tmp_path: Path) -> None:
    _check_csmith_debug(cfile, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("cfile", _CSMITH_C[:40], ids=lambda p: "%s/%s" % (p.parent.name, p.name))
def test_csmith_assignment_tracking_matches_opt(cfile: Path, tmp_path: Path) -> None:
    _check_csmith_debug(cfile, tmp_path, assignment_tracking=True)
