"""``structural_hash`` / ``module_structural_hash`` against opt-19's ``print<structural-hash>``.

Every expectation comes from opt-19 run in the test: the ``Module Hash`` and
``Function NAME Hash`` lines it prints (plain and ``<detailed>``) for hand-made
modules, csmith files and LLVM's MergeFunc tests; and the order in which
``opt-19 -passes=mergefunc`` writes thunks, which follows the plain hash.
"""

from __future__ import annotations

import glob
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from csmith_files import csmith_paths

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.structural_hash import module_structural_hash, structural_hash
from llvmpy_mid.passes.structural_hash_printer import format_structural_hashes
from oracles import LLVM_TEST_ROOT  # noqa: E402

OPT = shutil.which("opt-19")
pytestmark = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

PLAIN = "print<structural-hash>"
DETAILED = "print<structural-hash><detailed>"

CSMITH = [str(p) for p in csmith_paths()]
MERGEFUNC = sorted(glob.glob(str(LLVM_TEST_ROOT / "Transforms/MergeFunc/*.ll")))


def opt_hashes(text: str, pipeline: str) -> str | None:
    """opt-19's hash lines for ``text`` (None when opt-19 rejects the input)."""
    r = subprocess.run(
        ["opt-19", "-passes=" + pipeline, "-disable-output", "-"], input=text.encode(), capture_output=True
    )
    if r.returncode != 0:
        return None
    lines = r.stderr.decode("utf-8", "surrogateescape").splitlines(True)
    return "".join(l for l in lines if l.startswith(("Module Hash: ", "Function ")))


def check_both_modes(text: str) -> None:
    m = parse_assembly(text)
    for pipeline, detailed in ((PLAIN, False), (DETAILED, True)):
        expected = opt_hashes(text, pipeline)
        assert expected is not None, "opt-19 rejected the test input"
        assert format_structural_hashes(m, detailed) == expected, pipeline


# --- hand-made modules -------------------------------------------------------------------------

SIGNATURES = """
define void @empty() {
  ret void
}
define i32 @varargs(i32 %a, ...) {
  %ap = alloca ptr
  call void @llvm.va_start(ptr %ap)
  %v = va_arg ptr %ap, i32
  call void @llvm.va_end(ptr %ap)
  ret i32 %v
}
define void @varargs_only(...) {
  ret void
}
define i64 @manyargs(i8 %a, i16 %b, i32 %c, i64 %d, i128 %e, float %f, double %g, ptr %h, <2 x i32> %i,
                     { i32, i8 } %j, [2 x i64] %k, i1 %l, i7 %m) {
  %1 = zext i8 %a to i64
  %2 = sext i16 %b to i64
  %3 = add nuw nsw i64 %1, %2
  %4 = trunc i128 %e to i64
  %5 = mul i64 %3, %4
  %6 = fptosi float %f to i64
  %7 = fptoui double %g to i64
  %8 = ptrtoint ptr %h to i64
  %9 = extractelement <2 x i32> %i, i32 1
  %10 = extractvalue { i32, i8 } %j, 0
  %11 = extractvalue [2 x i64] %k, 1
  %12 = select i1 %l, i64 %5, i64 %11
  %13 = zext i7 %m to i64
  %14 = sub i64 %12, %13
  %15 = udiv i64 %14, 3
  %16 = sdiv i64 %15, -7
  %17 = urem i64 %16, 11
  %18 = srem i64 %17, 13
  %19 = shl i64 %18, 2
  %20 = lshr i64 %19, 1
  %21 = ashr exact i64 %20, 1
  %22 = and i64 %21, 255
  %23 = or disjoint i64 %22, 256
  %24 = xor i64 %23, %6
  %25 = add i64 %24, %7
  %26 = add i64 %25, %8
  ret i64 %26
}
define void @unnamed_args(i32, ptr) {
  ret void
}
define internal void @0() {
  ret void
}
declare void @llvm.va_start(ptr)
declare void @llvm.va_end(ptr)
declare void @only_declared(i32)
"""

CONSTANTS = """
define double @floats(double %x, float %y, half %h, bfloat %b, x86_fp80 %l, fp128 %q) {
  %1 = fadd double %x, 1.5
  %2 = fsub double %1, -0.0
  %3 = fmul double %2, 0x7FF0000000000000
  %4 = fdiv double %3, 0x7FF8000000000000
  %5 = frem double %4, 0x0000000000000001
  %6 = fneg double %5
  %7 = fpext float %y to double
  %8 = fadd float %y, 0x36A0000000000000
  %9 = fadd half %h, 0xH0001
  %10 = fadd bfloat %b, 0xR0001
  %11 = fadd x86_fp80 %l, 0xK00000000000000000001
  %12 = fadd x86_fp80 %11, 0xK7FFF8000000000000000
  %13 = fadd x86_fp80 %12, 0xKC00AFF00000000000000
  %14 = fadd fp128 %q, 0xL00000000000000013FFF000000000000
  %15 = fadd fp128 %14, 0xL00000000000000010000000000000000
  %16 = fadd ppc_fp128 0xM3FF00000000000000000000000000000, 0xM400000000000000001AC000000000000
  %17 = fcmp olt double %6, %7
  %18 = fcmp uno double %6, 0.0
  %19 = fptrunc double %7 to float
  %20 = sitofp i32 7 to double
  %21 = uitofp i64 -1 to double
  %22 = fadd double %20, %21
  %23 = fadd double %22, 1.0e+300
  %24 = fadd double %23, 0xFFF0000000000000
  %25 = fadd double %24, 0x7FF8000000000001
  %26 = fadd float %8, 0x7FF0000000000000
  %27 = fadd half %9, 0xH7C00
  %28 = fadd half %27, 0xH8000
  ret double %25
}
define i1 @bigints(i128 %a, i256 %b, i1000 %c) {
  %1 = add i128 %a, 170141183460469231731687303715884105727
  %2 = add i128 %1, -1
  %3 = add i256 %b, 12345678901234567890123456789012345678901234567890
  %4 = add i1000 %c, 999999999999999999999999999999999999999999999999999999999999999999999999999999999
  %5 = icmp eq i1000 %4, 0
  %6 = icmp ne i256 %3, 1
  %7 = icmp ugt i128 %2, 1
  %8 = icmp sle i128 %2, 1
  %9 = and i1 %5, %6
  %10 = or i1 %7, %8
  %11 = xor i1 %9, true
  %12 = and i1 %10, %11
  %13 = add i65 0, 18446744073709551616
  %14 = add i64 0, -9223372036854775808
  ret i1 %12
}
define <4 x i32> @vectors(<4 x i32> %a, <4 x i32> %b, ptr %p) {
  %1 = add <4 x i32> %a, <i32 1, i32 2, i32 3, i32 4>
  %2 = shufflevector <4 x i32> %1, <4 x i32> %b, <4 x i32> <i32 0, i32 5, i32 2, i32 7>
  %3 = insertelement <4 x i32> %2, i32 9, i64 0
  %4 = icmp slt <4 x i32> %3, zeroinitializer
  %5 = select <4 x i1> %4, <4 x i32> %3, <4 x i32> splat (i32 3)
  %6 = insertvalue { i32, <4 x i32> } undef, <4 x i32> %5, 1
  %7 = extractvalue { i32, <4 x i32> } %6, 1
  %8 = freeze <4 x i32> %7
  %9 = getelementptr inbounds { i32, [4 x i8], ptr }, ptr %p, i64 1, i32 2
  %10 = load <4 x i32>, ptr %9, align 16
  %11 = add <4 x i32> %8, %10
  %12 = bitcast <4 x i32> %11 to <2 x i64>
  %13 = bitcast <2 x i64> %12 to <4 x i32>
  %14 = addrspacecast ptr %p to ptr addrspace(1)
  %15 = inttoptr i64 4 to ptr
  %16 = getelementptr i8, ptr %15, i64 ptrtoint (ptr @g to i64)
  store <4 x i32> %13, ptr %16
  %17 = add <4 x i32> %13, poison
  ret <4 x i32> %17
}
define i32 @atomics(ptr %p, i32 %v) {
  fence seq_cst
  %1 = cmpxchg ptr %p, i32 0, i32 %v acq_rel monotonic
  %2 = extractvalue { i32, i1 } %1, 0
  %3 = atomicrmw add ptr %p, i32 %v seq_cst
  %4 = atomicrmw fadd ptr %p, float 1.0 monotonic
  %5 = load atomic i32, ptr %p acquire, align 4
  store atomic i32 %5, ptr %p release, align 4
  %6 = alloca i32, i32 %v, align 8
  %7 = alloca [10 x i8]
  ret i32 %3
}
@g = global i32 0
"""

NAMES_AND_CALLS = """
declare void @ext(...)
declare void @llvm.donothing()
declare void @llvm.dbg.value(metadata, metadata, metadata)
define ptr @a_very_long_function_name_that_is_longer_than_sixty_four_bytes_to_exercise_the_long_hash(ptr %p) {
  ret ptr %p
}
define ptr @exactly_sixty_four_bytes_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(ptr %p) {
  ret ptr %p
}
define ptr @sixty_five_bytes_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(ptr %p) {
  ret ptr %p
}
define ptr @len200_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(ptr %p) {
  ret ptr %p
}
define ptr @"quoted name x"(ptr %p) {
  ret ptr %p
}
define internal void @1() {
  ret void
}
define void @calls(ptr %p) {
  call void @1()
  %r = call ptr @a_very_long_function_name_that_is_longer_than_sixty_four_bytes_to_exercise_the_long_hash(ptr %p)
  %s = call ptr @exactly_sixty_four_bytes_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(ptr @sixty_five_bytes_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)
  %t = call ptr @len200_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(ptr @"quoted name x")
  call void (...) @ext(i32 1, ptr @calls, ptr blockaddress(@calls2, %b1))
  call void asm sideeffect "nop", ""()
  call void @llvm.donothing()
  tail call void @1() [ "deopt"(i32 5, ptr %p) ]
  call void @llvm.dbg.value(metadata ptr %p, metadata !1, metadata !DIExpression())
  store ptr @1, ptr %p
  ret void
}
define void @calls2(ptr %t) {
entry:
  indirectbr ptr %t, [label %b1]
b1:
  ret void
}
!1 = !{}
"""

CONTROL_FLOW = """
declare i32 @__gxx_personality_v0(...)
declare i32 @callee(i32)
declare void @may_throw()
define i32 @cfg(i32 %x, ptr %p) {
entry:
  switch i32 %x, label %def [
    i32 0, label %a
    i32 1, label %b
    i32 2, label %c
  ]
a:
  br label %join
b:
  br i1 true, label %join, label %c
c:
  %v = load volatile i32, ptr %p, align 4
  br label %join
def:
  unreachable
dead1:
  %d = add i32 1, 2
  br label %dead2
dead2:
  br label %join
join:
  %ph = phi i32 [ 0, %a ], [ 1, %b ], [ %v, %c ], [ 5, %dead2 ]
  ret i32 %ph
}
define i32 @cfg_swapped(i32 %x, ptr %p) {
entry:
  switch i32 %x, label %def [
    i32 0, label %c
    i32 1, label %b
    i32 2, label %a
  ]
a:
  br label %join
b:
  br i1 true, label %c, label %join
c:
  %v = load volatile i32, ptr %p, align 4
  br label %join
def:
  unreachable
join:
  %ph = phi i32 [ 0, %a ], [ 1, %b ], [ %v, %c ]
  ret i32 %ph
}
define void @ind(ptr %t) {
entry:
  indirectbr ptr %t, [label %b1, label %b2]
b1:
  ret void
b2:
  %q = add i32 0, 1
  br label %b1
}
define i32 @inv() personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @callee(i32 1) to label %ok unwind label %lp
ok:
  ret i32 %r
lp:
  %l = landingpad { ptr, i32 } cleanup catch ptr null filter [1 x ptr] [ptr null]
  resume { ptr, i32 } %l
}
define i32 @cbr(i32 %x) {
entry:
  callbr void asm "", "r,!i,!i"(i32 %x) to label %fall [label %ind1, label %ind2]
fall:
  ret i32 0
ind1:
  %y = add i32 %x, 1
  ret i32 %y
ind2:
  br label %fall
}
define void @funclets() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw() to label %cont unwind label %cs
cont:
  invoke void @may_throw() to label %exit unwind label %cleanup
cs:
  %s = catchswitch within none [label %h1, label %h2] unwind label %cleanup
h1:
  %c1 = catchpad within %s [ptr null, i32 64, ptr null]
  catchret from %c1 to label %exit
h2:
  %c2 = catchpad within %s [ptr null]
  catchret from %c2 to label %cont
cleanup:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
exit:
  ret void
}
define void @selfloop() {
entry:
  br label %loop
loop:
  br i1 false, label %loop, label %exit
exit:
  ret void
}
"""

GLOBALS = """
@g1 = global i32 0
@g2 = external global i64
@g3 = internal constant [3 x i8] c"ab\\00"
@g4 = global { i32, [4 x i8], ptr } zeroinitializer
@g5 = global <4 x float> zeroinitializer
@g6 = global double 1.0
@g7 = global ptr null
@g8 = global half 0xH3C00
@g9 = global x86_fp80 0xK3FFF8000000000000000
@g10 = global fp128 0xL00000000000000003FFF000000000000
@g11 = global ppc_fp128 0xM3FF00000000000000000000000000000
@g12 = global bfloat 0xR3F80
@g13 = global i128 5
@g14 = global float 2.0
@g15 = global [2 x <2 x i32>] zeroinitializer
@g16 = extern_weak global i32
@llvm.used = appending global [1 x ptr] [ptr @g1], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @g6], section "llvm.metadata"
@llvm.my.thing = global i32 1
@a1 = alias i32, ptr @g1
declare void @f_decl()
define void @f() {
  ret void
}
"""


@pytest.mark.parametrize(
    "text",
    [SIGNATURES, CONSTANTS, NAMES_AND_CALLS, CONTROL_FLOW, GLOBALS],
    ids=["signatures", "constants", "names-and-calls", "control-flow", "globals"],
)
def test_hand_made_modules_match_opt(text: str) -> None:
    check_both_modes(text)


def test_declarations_only_module_hash_is_the_initial_value() -> None:
    text = "declare void @f()\n@g = external global i32\n@llvm.x = global i32 0\n"
    check_both_modes(text)
    m = parse_assembly(text)
    assert module_structural_hash(m) == 4
    assert structural_hash(list(m.functions)[0]) == 4


def test_globals_count_in_the_module_hash_only_when_defined_and_not_llvm() -> None:
    base = "define void @f() {\n  ret void\n}\n"
    with_defined = "@x = global i32 0\n" + base
    with_external = "@x = external global i32\n" + base
    with_llvm = "@llvm.x = global i32 0\n" + base
    with_float = "@x = global float 0.0\n" + base
    hashes = {}
    for name, text in [("base", base), ("defined", with_defined), ("external", with_external),
                       ("llvm", with_llvm), ("float", with_float)]:  # fmt: skip
        check_both_modes(text)
        hashes[name] = module_structural_hash(parse_assembly(text))
    assert hashes["external"] == hashes["base"] == hashes["llvm"]
    assert len({hashes["base"], hashes["defined"], hashes["float"]}) == 3


def test_plain_hash_ignores_names_constants_and_predicates() -> None:
    a = "define i32 @a(i32 %x) {\n  %c = icmp eq i32 %x, 1\n  %r = add i32 %x, 7\n  ret i32 %r\n}\n"
    b = "define i32 @b(i32 %y) {\n  %c = icmp slt i32 %y, 9\n  %r = add i32 %y, 8\n  ret i32 %r\n}\n"
    check_both_modes(a + b)
    m = parse_assembly(a + b)
    fa, fb = list(m.functions)
    assert structural_hash(fa) == structural_hash(fb)
    assert structural_hash(fa, detailed=True) != structural_hash(fb, detailed=True)


# --- the printer pass through the pipeline ------------------------------------------------------


@pytest.mark.parametrize("pipeline", [PLAIN, DETAILED])
def test_printer_pass_cli_matches_opt(tmp_path: Path, pipeline: str) -> None:
    path = tmp_path / "in.ll"
    path.write_text(CONTROL_FLOW + SIGNATURES)
    args = ["-passes=" + pipeline, "-disable-output", "-debug-pass-manager", str(path)]
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], capture_output=True)
    theirs = subprocess.run(["opt-19", *args], capture_output=True)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stderr.decode() == theirs.stderr.decode()
    assert ours.stdout == theirs.stdout == b""


# --- corpora --------------------------------------------------------------------------------------


def _check_file(path: str) -> bool:
    """Compare both modes on one file; False when opt-19 rejects it."""
    text = Path(path).read_text()
    if opt_hashes(text, PLAIN) is None:
        return False
    check_both_modes(text)
    return True


@pytest.mark.skipif(not CSMITH, reason="no csmith corpus (csmith/clang-19 missing)")
@pytest.mark.parametrize("index", [0, 1, 2])
def test_csmith_sample(index: int) -> None:
    path = CSMITH[(index * 17) % len(CSMITH)]
    assert _check_file(path), path


@pytest.mark.slow
@pytest.mark.skipif(not CSMITH, reason="no csmith corpus (csmith/clang-19 missing)")
def test_csmith_all() -> None:
    for path in CSMITH:
        assert _check_file(path), path


@pytest.mark.skipif(not MERGEFUNC, reason="MergeFunc conformance tests not found")
def test_mergefunc_conformance_sample() -> None:
    for path in MERGEFUNC[::12]:
        _check_file(path)


@pytest.mark.slow
@pytest.mark.skipif(not MERGEFUNC, reason="MergeFunc conformance tests not found")
def test_mergefunc_conformance_all() -> None:
    checked = sum(_check_file(path) for path in MERGEFUNC)
    assert checked >= 90


# --- MergeFunctions sorts by the plain hash --------------------------------------------------------

_OPS = ["add", "sub", "mul", "xor", "and", "or", "shl"]


def _merge_module(seed: int, pairs: int) -> str:
    """``pairs`` pairs of identical external functions (some pairs share a shape, so
    their hashes collide while their constants differ), in shuffled order."""
    rng = random.Random(seed)
    shapes: list[tuple[list[str], bool, int]] = []
    funcs = []
    for i in range(pairs):
        if shapes and rng.random() < 0.3:
            ops, branch, nargs = rng.choice(shapes)
        else:
            ops = [rng.choice(_OPS) for _ in range(rng.randint(2, 8))]
            branch, nargs = rng.random() < 0.3, rng.choice([1, 1, 2])
            shapes.append((ops, branch, nargs))
        lines, prev = [], "%a"
        for j, op in enumerate(ops):
            lines.append("  %%v%d = %s i32 %s, %d" % (j, op, prev, rng.randint(1, 1000)))
            prev = "%%v%d" % j
        if branch:
            lines.append("  %%c = icmp eq i32 %s, 0\n  br i1 %%c, label %%t, label %%f" % prev)
            lines.append("t:\n  ret i32 1\nf:\n  ret i32 %s" % prev)
        else:
            lines.append("  ret i32 %s" % prev)
        params = "i32 %a" + (", i32 %b" if nargs == 2 else "")
        for suffix in "ab":
            funcs.append("define i32 @f%d_%s(%s) {\nentry:\n%s\n}\n" % (i, suffix, params, "\n".join(lines)))
    rng.shuffle(funcs)
    return "\n".join(funcs)


def _predicted_thunk_order(text: str) -> list[str]:
    """Functions stably sorted by plain hash; the later of each identical pair becomes a
    thunk (named by the larger name) when it is reached, and thunks go to the module's end."""
    fns = [f for f in parse_assembly(text).functions if not f.is_declaration]
    ordered = sorted(fns, key=structural_hash)  # sorted() is stable, as LLVM's stable_sort
    seen: set[str] = set()
    order = []
    for f in ordered:
        pair = f.name.rsplit("_", 1)[0]
        if pair in seen:
            order.append(pair + "_b")
        seen.add(pair)
    return order


@pytest.mark.parametrize("seed", range(6))
def test_mergefunc_thunk_order_follows_the_plain_hash(seed: int) -> None:
    text = _merge_module(seed, 6 + seed * 2)
    r = subprocess.run(["opt-19", "-passes=mergefunc", "-S", "-"], input=text.encode(), capture_output=True, check=True)
    thunks = re.findall(r"^define i32 @(\w+)\(i32 %0", r.stdout.decode(), re.M)
    assert thunks == _predicted_thunk_order(text)
