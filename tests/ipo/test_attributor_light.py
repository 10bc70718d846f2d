"""``attributor-light`` and ``attributor-light-cgscc`` against opt-19, byte for byte, on small
modules that each exercise one rule: the optimistic fixpoint over a recursive SCC,
``nounwind`` through invokes and landing pads, ``nosync`` and volatile/atomic accesses,
``nofree`` of arguments through their uses, ``willreturn`` and cycles (module pass: any
cycle; CGSCC pass: bounded loops), ``mustprogress`` from internal callers, ``noreturn``,
``norecurse`` through call edges and known callers, memory behavior and locations (global,
argument, inaccessible memory, allocas), ``nocapture`` through call site arguments and
returns, ``nonnull`` from the must-be-executed context and from call sites, ``nofpclass`` of
constants, flags and call sites, attributes the
IR implies at call sites, interposable and ``optnone`` functions, ``llvm.assume`` bundles,
byval/returned/varargs/inline-asm/musttail calls, the iteration limit, and the module pass
using only the function analyses an earlier pass left cached.
Expected texts are what opt-19 prints, made in the test; the tests skip when opt-19 is not
installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.errors import PipelineError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, pipeline: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, *flags, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _same(text: str, pipeline: str = "attributor-light", *flags: str, options: dict[str, object] | None = None) -> None:
    assert _body(_ours(text, pipeline, options)) == _body(_opt19(text, pipeline, *flags))


RECURSIVE_SCC = """
define internal void @a(ptr %p, i32 %n) {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  call void @b(ptr %p, i32 %m)
  br label %done
done:
  ret void
}
define internal void @b(ptr %p, i32 %n) {
  call void @a(ptr %p, i32 %n)
  ret void
}
define void @root(ptr %p) {
  call void @a(ptr %p, i32 3)
  ret void
}
"""

EXCEPTIONS = """
declare void @may_throw()
declare void @no_throw() nounwind
declare i32 @__gxx_personality_v0(...)
define void @calls_nothrow() { call void @no_throw() ret void }
define void @calls_throw() { call void @may_throw() ret void }
define void @catches() personality ptr @__gxx_personality_v0 {
  invoke void @may_throw() to label %ok unwind label %lp
ok:
  ret void
lp:
  %x = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %x
}
"""

SYNC = """
@g = global i32 0
define i32 @plain(ptr %p) { %v = load i32, ptr %p ret i32 %v }
define i32 @vol(ptr %p) { %v = load volatile i32, ptr %p ret i32 %v }
define i32 @mono(ptr %p) { %v = load atomic i32, ptr %p monotonic, align 4 ret i32 %v }
define i32 @seq(ptr %p) { %v = load atomic i32, ptr %p seq_cst, align 4 ret i32 %v }
define void @fence() { fence seq_cst ret void }
define void @memset(ptr %p) { call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false) ret void }
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
"""

FREE_AND_CAPTURE = """
@slot = global ptr null
declare void @free(ptr)
declare void @readonly_user(ptr nocapture) nounwind memory(read)
declare ptr @passthrough(ptr returned) nounwind
define void @frees(ptr %p) { call void @free(ptr %p) ret void }
define void @escapes(ptr %p) { store ptr %p, ptr @slot ret void }
define ptr @returns(ptr %p) { ret ptr %p }
define void @to_int(ptr %p) { %i = ptrtoint ptr %p to i64 ret void }
define void @reader(ptr %p) { call void @readonly_user(ptr %p) ret void }
define void @through_gep(ptr %p) {
  %q = getelementptr i8, ptr %p, i64 4
  store i8 0, ptr %q
  ret void
}
define void @caller(ptr %p) { call void @through_gep(ptr %p) ret void }
define ptr @via_returned(ptr %p) { %r = call ptr @passthrough(ptr %p) ret ptr %r }
"""

CYCLES = """
define i32 @straight(i32 %x) { %y = add i32 %x, 1 ret i32 %y }
define void @bounded() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  %n = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %n, 10
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
define void @forever() {
entry:
  br label %loop
loop:
  br label %loop
}
define void @calls_forever() { call void @forever() ret void }
define internal void @mp_callee() { ret void }
define void @mp_caller() mustprogress { call void @mp_callee() ret void }
"""

MEMORY = """
@g = global i32 0
@internal = internal global i32 0
declare void @inacc() memory(inaccessiblemem: readwrite) nounwind willreturn
declare void @argmem(ptr) memory(argmem: readwrite) nounwind willreturn
define i32 @read_global() { %v = load i32, ptr @g ret i32 %v }
define void @write_internal() { store i32 1, ptr @internal ret void }
define void @call_inacc() { call void @inacc() ret void }
define void @both(ptr %p) { call void @inacc() store i32 0, ptr %p ret void }
define void @call_argmem(ptr %p) { call void @argmem(ptr %p) ret void }
define i32 @alloca_only() {
  %a = alloca i32
  store i32 1, ptr %a
  %v = load i32, ptr %a
  ret i32 %v
}
define void @select_objs(i1 %c, ptr %p, ptr %q) {
  %s = select i1 %c, ptr %p, ptr %q
  store i32 0, ptr %s
  ret void
}
"""

NONNULL = """
declare void @use_nonnull(ptr nonnull)
declare i8 @safe(ptr) nounwind willreturn
declare i8 @unsafe(ptr)
define void @loads(ptr %p) { %v = load i8, ptr %p ret void }
define i8 @before_nonnull(ptr %a) {
  %r = call i8 @safe(ptr %a)
  call void @use_nonnull(ptr %a)
  ret i8 %r
}
define i8 @blocked(ptr %a) {
  %r = call i8 @unsafe(ptr %a)
  call void @use_nonnull(ptr %a)
  ret i8 %r
}
define void @both_branches(ptr %a, i1 %c) {
  br i1 %c, label %t, label %f
t:
  call void @use_nonnull(ptr %a)
  ret void
f:
  call void @use_nonnull(ptr %a)
  ret void
}
define internal void @internal_callee(ptr %p) { %v = load volatile i8, ptr %p ret void }
define void @passes_alloca() {
  %a = alloca i8
  call void @internal_callee(ptr %a)
  ret void
}
define ptr @ret_alloca() { %a = alloca i8 ret ptr %a }
"""

NORECURSE = """
declare void @decl()
declare void @decl_nocallback() nocallback
define void @self() { call void @self() ret void }
define void @leaf() { ret void }
define void @calls_leaf() { call void @leaf() ret void }
define void @calls_decl() { call void @decl() ret void }
define void @calls_nocallback() { call void @decl_nocallback() ret void }
define void @indirect(ptr %f) { call void %f() ret void }
define void @x() { call void @y() ret void }
define void @y() { call void @x() ret void }
define void @z() { call void @x() ret void }
"""

SPECIAL = """
define linkonce_odr void @interposable(ptr %p) { store i32 0, ptr %p ret void }
define void @skipped(ptr %p) optnone noinline { store i32 0, ptr %p ret void }
define void @calls_special(ptr %p) {
  call void @interposable(ptr %p)
  call void @skipped(ptr %p)
  ret void
}
"""

FPCLASS = """
declare float @llvm.fabs.f32(float)
declare float @ext(float)
declare nofpclass(nan) float @ext_nonan(float)
declare void @sink(float nofpclass(inf))
declare void @sinkv(<2 x float>)
define float @f(float %x) {
  %a = call float @llvm.fabs.f32(float %x)
  ret float %a
}
define float @g(float nofpclass(zero) %x) {
  %y = call nnan float @ext(float %x)
  %z = call float @callee(float %y)
  %w = call float @callee(float %x)
  ret float %z
}
define float @callee(float %x) { ret float %x }
define internal float @k(float %x) { ret float %x }
define float @use_k() { %r = call float @k(float 2.0) %s = call float @k(float -0.0) ret float %r }
define void @mbec(float %x) {
  call void @sink(float %x)
  ret void
}
define float @via_ret() {
  %r = call float @ext_nonan(float 1.0)
  %s = call float @callee(float %r)
  ret float %s
}
define internal void @vec(<2 x float> %v) { call void @sinkv(<2 x float> %v) ret void }
define void @vecuser() { call void @vec(<2 x float> <float 1.0, float 0.0>) call void @vec(<2 x float> zeroinitializer) ret void }
define internal float @und(float %x) { ret float %x }
define float @undu() { %r = call float @und(float undef) ret float %r }
"""

MISC = """
declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.assume(i1)
declare void @varf(ptr, ...)
declare void @conv() convergent
@gv = internal global i32 0
define internal ptr @mk() { %m = call ptr @malloc(i64 4) store i32 1, ptr %m ret ptr %m }
define i32 @usemk() { %p = call ptr @mk() %v = load i32, ptr %p call void @free(ptr %p) ret i32 %v }
define void @byv(ptr byval(i32) %p) { store i32 0, ptr %p ret void }
define void @callbyv(ptr %q) { call void @byv(ptr byval(i32) %q) ret void }
define void @wr(ptr writable dereferenceable(4) %p) { %v = load i32, ptr %p ret void }
define ptr @ret_arg(ptr returned %p) { ret ptr %p }
define void @call_ret_arg(ptr %q) { %r = call ptr @ret_arg(ptr %q) store i32 0, ptr %r ret void }
define void @va(ptr %p) { call void (ptr, ...) @varf(ptr %p, ptr %p) ret void }
define void @asm1(ptr %p) { call void asm sideeffect "", "r"(ptr %p) ret void }
define void @asm2(ptr %p) { call void asm "", "r"(ptr %p) ret void }
define void @cv() { call void @conv() ret void }
define void @assume(ptr %p) { call void @llvm.assume(i1 true) [ "nonnull"(ptr %p) ] ret void }
define void @ai(ptr %p) alwaysinline { store i32 1, ptr %p ret void }
define weak void @wk(ptr %p) { store i32 1, ptr %p ret void }
define void @callwk(ptr %p) { call void @wk(ptr %p) call void @ai(ptr %p) ret void }
define internal void @mt(ptr %p) { store i32 0, ptr @gv ret void }
define void @callmt(ptr %p) { musttail call void @mt(ptr %p) ret void }
define void @indirect(ptr %f, ptr %p) { call void %f(ptr %p) ret void }
define void @cbr(ptr %p) {
  callbr void asm "", "r,!i"(ptr %p) to label %a [label %b]
a:
  ret void
b:
  ret void
}
define internal void @loopy(ptr %p, i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [0, %entry], [%j, %l]
  store i32 %i, ptr %p
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %l, label %e
e:
  ret void
}
define void @callloopy(ptr %p) { call void @loopy(ptr %p, i32 10) ret void }
define void @memcpy_vol(ptr %a, ptr %b) { call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 4, i1 true) ret void }
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define i32 @atom(ptr %p) { %o = atomicrmw add ptr %p, i32 1 seq_cst %c = cmpxchg ptr %p, i32 0, i32 1 monotonic monotonic ret i32 %o }
define void @stores_ptr(ptr %p, ptr %q) { store ptr %p, ptr %q ret void }
define ptr @phi_ret(i1 %c, ptr %a, ptr %b) {
  br i1 %c, label %x, label %y
x:
  br label %z
y:
  br label %z
z:
  %r = phi ptr [%a, %x], [%b, %y]
  ret ptr %r
}
define void @unreach() { unreachable }
define void @callunreach() { call void @unreach() ret void }
"""

FP_CASTS = """
declare void @sink(float)
declare void @sinkh(half)
declare void @sinkv(<2 x float>)
define internal void @c(float %x) { call void @sink(float %x) ret void }
define internal void @ch(half %x) { call void @sinkh(half %x) ret void }
define internal void @cv(<2 x float> %x) { call void @sinkv(<2 x float> %x) ret void }
define void @u(i32 %i, i16 %s, i64 %l, float %f, <2 x i32> %vi) {
  %a = sitofp i32 %i to float
  call void @c(float %a)
  %b = uitofp i32 %i to float
  call void @c(float %b)
  %h = uitofp i16 %s to half
  call void @ch(half %h)
  %h2 = sitofp i16 %s to half
  call void @ch(half %h2)
  %h3 = uitofp i64 %l to half
  call void @ch(half %h3)
  %n = fneg float %b
  call void @c(float %n)
  %n2 = fneg nnan float %f
  call void @c(float %n2)
  %v = sitofp <2 x i32> %vi to <2 x float>
  call void @cv(<2 x float> %v)
  ret void
}
"""

STORED = """
define void @f(i1 %c, ptr %a, ptr %b, ptr %p) {
  %s = select i1 %c, ptr %a, ptr %b
  store ptr %p, ptr %s
  ret void
}
@g = global ptr null
define void @h(ptr %p) {
  store ptr %p, ptr @g
  ret void
}
define void @k(ptr %p) {
  %a = alloca ptr
  store ptr %p, ptr %a
  ret void
}
"""


@pytest.mark.parametrize(
    "text",
    [STORED, MISC, FPCLASS, FP_CASTS, RECURSIVE_SCC, EXCEPTIONS, SYNC, FREE_AND_CAPTURE, CYCLES, MEMORY, NONNULL, NORECURSE, SPECIAL],
    ids=["stored", "misc", "fpclass", "fp-casts", "recursive-scc", "exceptions", "sync", "free-capture", "cycles", "memory", "nonnull", "norecurse", "special"],
)
def test_module_pass_matches_opt19(text: str) -> None:
    _same(text)


@pytest.mark.parametrize(
    "text",
    [RECURSIVE_SCC, CYCLES, NORECURSE, NONNULL, MISC],
    ids=["recursive-scc", "cycles", "norecurse", "nonnull", "misc"],
)
def test_cgscc_pass_matches_opt19(text: str) -> None:
    _same(text, "attributor-light-cgscc")


def test_iteration_limit_matches_opt19() -> None:
    _same(RECURSIVE_SCC, "attributor-light", "-attributor-max-iterations=1", options={"attributor-max-iterations": 1})


def test_unknown_option_is_rejected() -> None:
    module = parse_assembly(RECURSIVE_SCC)
    with pytest.raises(PipelineError, match="attributor-light"):
        llvmpy_mid.run_passes(module, "attributor-light<bogus>")


def test_long_call_chain_matches_opt19() -> None:
    """Creating an attribute updates it at once, which creates its callee's: a chain of
    calls longer than LLVM's initialization chain limit nests that deep."""
    n = 1100
    parts = [f"define void @f{i}(ptr %p) {{\n  call void @f{i + 1}(ptr %p)\n  ret void\n}}" for i in range(n - 1)]
    parts.append(f"define void @f{n - 1}(ptr %p) {{\n  store i32 0, ptr %p\n  ret void\n}}")
    _same("\n".join(parts) + "\n")


CACHED_DOMINATORS = """
@g = global i32 0

define ptr @f(ptr %p) {
entry:
  %c = icmp ne ptr %p, null
  br i1 %c, label %t, label %e
t:
  ret ptr %p
e:
  ret ptr @g
}

define ptr @h(ptr %p) {
  %r = call ptr @f(ptr %p)
  ret ptr %r
}
"""


@pytest.mark.parametrize("pipeline", ["attributor-light", "function(mem2reg),attributor-light"])
def test_module_pass_uses_cached_analyses_only(pipeline: str) -> None:
    """The module pass asks the function analysis manager for cached results only: a
    dominator tree left by ``mem2reg`` lets ``isKnownNonZero`` see the dominating null
    check on a returned value (``nonnull`` return), none is computed otherwise."""
    _same(CACHED_DOMINATORS, pipeline)
