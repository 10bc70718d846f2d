"""``function-attrs`` and ``rpo-function-attrs`` against opt-19, byte for byte, on small
modules that each exercise one rule: memory effects by location (argument, global,
volatile/inaccessible, local and constant memory ignored, calls into the SCC), argument
``nocapture`` through the argument graph of an SCC, ``readonly``/``writeonly``/``readnone``
arguments, ``returned``, ``nonnull`` from call sites, ``noalias``/``nonnull``/``noundef``
returns, ``nounwind``/``nofree``/``nosync``, removal of ``convergent``, ``noreturn``,
``willreturn``, ``norecurse`` bottom-up and top-down, ``optnone``/``naked`` functions,
interposable definitions, the ``skip-non-recursive-function-attrs`` parameter, the options and
the statistics. Expected texts are what opt-19 prints, made in the test; the tests skip when
opt-19 is not installed.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.passes.statistics import Statistic, format_statistics

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


def _same(text: str, pipeline: str = "function-attrs", *flags: str, options: dict[str, object] | None = None) -> None:
    assert _body(_ours(text, pipeline, options)) == _body(_opt19(text, pipeline, *flags))


MEMORY = """
@g = global i32 0
@c = constant i32 7
declare void @unknown(ptr)
declare void @reads_arg(ptr) memory(argmem: read)
declare void @inacc() memory(inaccessiblemem: readwrite)

define i32 @arg_read(ptr %p) { %v = load i32, ptr %p
  ret i32 %v }
define void @global_write() { store i32 1, ptr @g
  ret void }
define i32 @const_read() { %v = load i32, ptr @c
  ret i32 %v }
define i32 @local_only() { %a = alloca i32
  store i32 3, ptr %a
  %v = load i32, ptr %a
  ret i32 %v }
define i32 @volatile_arg(ptr %p) { %v = load volatile i32, ptr %p
  ret i32 %v }
define void @through_call(ptr %p) { call void @reads_arg(ptr %p)
  ret void }
define void @through_call_global() { call void @reads_arg(ptr @g)
  ret void }
define void @inacc_user() { call void @inacc()
  ret void }
define void @unknown_user(ptr %p) { call void @unknown(ptr %p)
  ret void }
define i32 @unidentified(ptr %p) { %q = load ptr, ptr %p
  %v = load i32, ptr %q
  ret i32 %v }
define linkonce i32 @interposable(ptr %p) { %v = load i32, ptr %p
  ret i32 %v }
"""

SCC_MEMORY = """
define void @a(ptr %p, i32 %n) {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  store i32 %n, ptr %p
  %m = sub i32 %n, 1
  call void @b(ptr %p, i32 %m)
  br label %done
done:
  ret void
}
define void @b(ptr %p, i32 %n) {
  call void @a(ptr %p, i32 %n)
  ret void
}
"""

ARG_GRAPH = """
declare void @capture(ptr)
define void @f(ptr %x, ptr %y, i1 %c) {
  br i1 %c, label %t, label %e
t:
  call void @g(ptr %x, ptr %y, i1 %c)
  ret void
e:
  call void @capture(ptr %y)
  ret void
}
define void @g(ptr %x, ptr %y, i1 %c) {
  br i1 %c, label %t, label %e
t:
  call void @f(ptr %x, ptr %y, i1 %c)
  ret void
e:
  %v = load i32, ptr %x
  ret void
}
define void @self(ptr %p, i1 %c) {
  br i1 %c, label %t, label %e
t:
  call void @self(ptr %p, i1 %c)
  ret void
e:
  store i32 0, ptr %p
  ret void
}
"""

ACCESS = """
declare void @wo(ptr writeonly nocapture) nounwind
declare ptr @ro_ret(ptr) memory(read) nounwind
define void @writes(ptr %p) { store i32 0, ptr %p
  ret void }
define i32 @reads(ptr %p) { %g = getelementptr i8, ptr %p, i64 4
  %v = load i32, ptr %g
  ret i32 %v }
define i1 @none(ptr %p) { %c = icmp eq ptr %p, null
  ret i1 %c }
define void @via_call(ptr %p) { call void @wo(ptr %p)
  ret void }
define ptr @returns_it(ptr %p) { %q = call ptr @ro_ret(ptr %p)
  ret ptr %q }
define void @both(ptr %p) { %v = load i32, ptr %p
  store i32 %v, ptr %p
  ret void }
define void @stored(ptr %p, ptr %q) { store ptr %p, ptr %q
  ret void }
define void @writable_dropped(ptr writable dereferenceable(4) %p) { %v = load i32, ptr %p
  ret void }
"""

RETURNS = """
declare noalias ptr @malloc(i64)
declare void @use(ptr nonnull noundef)
declare ptr @maybe()
define ptr @ret_arg(ptr %p) { ret ptr %p }
define i32 @ret_same_arg(i32 %a, i1 %c) {
  br i1 %c, label %t, label %e
t:
  ret i32 %a
e:
  ret i32 %a
}
define ptr @malloc_like(i64 %n) { %m = call ptr @malloc(i64 %n)
  ret ptr %m }
define ptr @nonnull_gep(ptr nonnull %p) { %g = getelementptr inbounds i8, ptr %p, i64 1
  ret ptr %g }
define ptr @maybe_null() { %p = call ptr @maybe()
  ret ptr %p }
define void @from_callsite(ptr %p) { call void @use(ptr %p)
  ret void }
define i32 @undef_ret() { ret i32 undef }
define i32 @const_ret() { ret i32 1 }
define range(i32 0, 10) i32 @range_ok() { ret i32 5 }
define range(i32 0, 10) i32 @range_bad() { ret i32 20 }
define i32 @msan(i32 %x) sanitize_memory { ret i32 0 }
define ptr @rec_a(i1 %c) {
  br i1 %c, label %t, label %e
t:
  %r = call ptr @rec_b(i1 %c)
  ret ptr %r
e:
  ret ptr @g
}
define ptr @rec_b(i1 %c) { %r = call ptr @rec_a(i1 %c)
  ret ptr %r }
@g = global i8 0
"""

FLAGS = """
declare void @may_throw()
declare void @nounwind_decl() nounwind
declare void @conv() convergent
declare void @exit() noreturn
declare void @free(ptr)
define void @nounwind_ok() { call void @nounwind_decl()
  ret void }
define void @throws() { call void @may_throw()
  ret void }
define void @frees(ptr %p) { call void @free(ptr %p)
  ret void }
define void @atomic_store(ptr %p) { store atomic i32 0, ptr %p seq_cst, align 4
  ret void }
define void @unordered_store(ptr %p) { store atomic i32 0, ptr %p unordered, align 4
  ret void }
define void @fence_single() { fence syncscope("singlethread") seq_cst
  ret void }
define void @fence_system() { fence seq_cst
  ret void }
define void @memcpy_ok(ptr %d, ptr %s) { call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 8, i1 false)
  ret void }
define void @memcpy_volatile(ptr %d, ptr %s) { call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 8, i1 true)
  ret void }
define void @conv_caller() convergent { call void @conv()
  ret void }
define void @conv_free() convergent { ret void }
define void @dies() { call void @exit()
  unreachable }
define void @loops() {
  br label %l
l:
  br label %l
}
define void @finite(i1 %c) {
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  ret void
}
define void @mustprogress_reader(ptr %p) mustprogress {
  br label %l
l:
  %v = load i32, ptr %p
  br label %l
}
define void @naked_fn() naked { ret void }
define void @optnone_fn() optnone noinline { ret void }
define void @indirect(ptr %f) { call void %f()
  ret void }
declare void @cb_decl() nocallback
define void @nocallback_user() { call void @cb_decl()
  ret void }
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.dbg.stoppoint(i32) nounwind
define void @calls_unknown_llvm_name() { call void @llvm.dbg.stoppoint(i32 1)
  ret void }
"""

RPO = """
define internal void @leaf() { ret void }
define internal void @mid() { call void @leaf()
  call void @mid2()
  ret void }
define internal void @mid2() { call void @leaf()
  ret void }
define void @root() norecurse { call void @mid()
  ret void }
define internal void @addr_taken() { ret void }
@fp = global ptr @addr_taken
define private void @priv() { ret void }
define void @root2() norecurse { call void @priv()
  ret void }
"""


@pytest.mark.parametrize(
    "text",
    [MEMORY, SCC_MEMORY, ARG_GRAPH, ACCESS, RETURNS, FLAGS],
    ids=["memory", "scc-memory", "arg-graph", "access", "returns", "flags"],
)
def test_function_attrs_matches_opt19(text: str) -> None:
    _same(text)


def test_rpo_function_attrs_matches_opt19() -> None:
    _same(RPO, "rpo-function-attrs")
    _same(RPO, "cgscc(function-attrs),rpo-function-attrs")


@pytest.mark.parametrize("text", [SCC_MEMORY, ARG_GRAPH, FLAGS], ids=["scc-memory", "arg-graph", "flags"])
def test_skip_non_recursive_parameter(text: str) -> None:
    _same(text, "function-attrs<skip-non-recursive-function-attrs>")


def test_options() -> None:
    _same(FLAGS, "function-attrs", "-disable-nounwind-inference", options={"disable-nounwind-inference": True})
    _same(FLAGS, "function-attrs", "-disable-nofree-inference", options={"disable-nofree-inference": True})
    _same(RETURNS, "function-attrs", "-enable-nonnull-arg-prop=false", options={"enable-nonnull-arg-prop": False})


def test_bad_parameter() -> None:
    module = parse_assembly("define void @f() { ret void }")
    with pytest.raises(PipelineError, match="invalid PostOrderFunctionAttrs pass parameter 'bogus'"):
        llvmpy_mid.run_passes(module, "function-attrs<bogus>")


STATS = """
@g = global i32 20
define i32 @test_only_read_arg(ptr %ptr) {
entry:
  %l = load i32, ptr %ptr
  ret i32 %l
}
define void @test_write_global() {
entry:
  store i32 0, ptr @g
  ret void
}
"""

#: LLVM 19's own expectation for STATS (test/Transforms/FunctionAttrs/stats.ll).
STATS_EXPECTED = [
    "2 function-attrs - Number of functions with improved memory attribute",
    "1 function-attrs - Number of arguments marked nocapture",
    "1 function-attrs - Number of functions marked as nofree",
    "2 function-attrs - Number of functions marked as norecurse",
    "2 function-attrs - Number of functions marked as nosync",
    "2 function-attrs - Number of functions marked as nounwind",
    "1 function-attrs - Number of arguments marked readonly",
    "2 function-attrs - Number of functions marked as willreturn",
]


def test_statistics() -> None:
    result = llvmpy_mid.run_passes(parse_assembly(STATS), "function-attrs")
    report = format_statistics(
        ("function-attrs", key, STATS_DESCRIPTIONS[key], value) for key, value in _own(result.statistics).items()
    )
    lines = [line.strip() for line in report.splitlines() if "function-attrs -" in line]
    assert lines == STATS_EXPECTED
    from llvmpy_mid.ipo import function_attrs_common as common

    declared = {v.name: v.description for v in vars(common).values() if isinstance(v, Statistic)}
    assert all(declared[k] == text for k, text in STATS_DESCRIPTIONS.items())


def _own(stats: dict[str, int]) -> dict[str, int]:
    return {k.split(".", 1)[1]: v for k, v in stats.items() if k.startswith("function-attrs.")}


STATS_DESCRIPTIONS = {
    "NumMemoryAttr": "Number of functions with improved memory attribute",
    "NumNoCapture": "Number of arguments marked nocapture",
    "NumNoFree": "Number of functions marked as nofree",
    "NumNoRecurse": "Number of functions marked as norecurse",
    "NumNoSync": "Number of functions marked as nosync",
    "NumNoUnwind": "Number of functions marked as nounwind",
    "NumReadOnlyArg": "Number of arguments marked readonly",
    "NumWillReturn": "Number of functions marked as willreturn",
}

def _random_module(seed: int) -> str:
    """A module of 2-5 functions calling each other at random, with loads, stores, volatile
    accesses, allocas, allocations, GEPs, selects, escapes, ``nonnull`` call sites, loops,
    throwing and ``noreturn`` calls, assorted linkages and attributes."""
    rng = random.Random(seed)
    nfun = rng.randint(2, 5)
    names = ["f%d" % i for i in range(nfun)]
    rets = {n: rng.choice(["void", "ptr", "i32"]) for n in names}
    out = ["@g = global i32 0", "@c = constant i32 1",
           "declare void @ext(ptr)", "declare void @ext_ro(ptr) memory(read) nounwind",
           "declare noalias ptr @malloc(i64)", "declare void @nn(ptr nonnull noundef)",
           "declare void @thrower()", "declare void @noret() noreturn nounwind"]
    for n in names:
        link = rng.choice(["", "", "internal ", "linkonce_odr ", "weak "])
        fattrs = rng.choice(["", "", "", " nounwind", " optnone noinline", " convergent", " mustprogress", " norecurse"])
        lines = ["define %s%s @%s(ptr %%p, ptr %%q, i1 %%c)%s {" % (link, rets[n], n, fattrs), "entry:"]
        k = 0
        ptrs = ["%p", "%q", "@g"]
        for _ in range(rng.randint(1, 6)):
            op = rng.randrange(12)
            k += 1
            if op == 0:
                lines.append("  %%v%d = load i32, ptr %s" % (k, rng.choice(ptrs)))
            elif op == 1:
                lines.append("  store i32 %d, ptr %s" % (k, rng.choice(ptrs)))
            elif op == 2:
                callee = rng.choice(names)
                a, b = rng.choice(ptrs), rng.choice(ptrs)
                r = rets[callee]
                lhs = "" if r == "void" else "%%r%d = " % k
                lines.append("  %scall %s @%s(ptr %s, ptr %s, i1 %%c)" % (lhs, r, callee, a, b))
                if r == "ptr":
                    ptrs.append("%%r%d" % k)
            elif op == 3:
                lines.append("  call void @ext(ptr %s)" % rng.choice(ptrs))
            elif op == 4:
                lines.append("  call void @ext_ro(ptr %s)" % rng.choice(ptrs))
            elif op == 5:
                lines.append("  %%a%d = alloca i32" % k)
                ptrs.append("%%a%d" % k)
            elif op == 6:
                lines.append("  %%m%d = call ptr @malloc(i64 4)" % k)
                ptrs.append("%%m%d" % k)
            elif op == 7:
                lines.append("  %%gp%d = getelementptr inbounds i8, ptr %s, i64 4" % (k, rng.choice(ptrs)))
                ptrs.append("%%gp%d" % k)
            elif op == 8:
                lines.append("  %%vv%d = load volatile i32, ptr %s" % (k, rng.choice(ptrs)))
            elif op == 9:
                lines.append("  call void @nn(ptr %s)" % rng.choice(ptrs))
            elif op == 10:
                lines.append("  store ptr %s, ptr %s" % (rng.choice(ptrs), rng.choice(ptrs)))
            else:
                lines.append("  %%s%d = select i1 %%c, ptr %s, ptr %s" % (k, rng.choice(ptrs), rng.choice(ptrs)))
                ptrs.append("%%s%d" % k)
        shape = rng.randrange(4)
        if shape == 1:
            lines.append("  br i1 %c, label %a, label %b")
            lines.append("a:")
            lines.append("  call void @thrower()")
            lines.append("  br label %b")
            lines.append("b:")
        elif shape == 2:
            lines.append("  br label %l")
            lines.append("l:")
            lines.append("  br i1 %c, label %l, label %x")
            lines.append("x:")
        elif shape == 3:
            lines.append("  br i1 %c, label %a, label %b")
            lines.append("a:")
            lines.append("  call void @noret()")
            lines.append("  unreachable")
            lines.append("b:")
        r = rets[n]
        if r == "void":
            lines.append("  ret void")
        elif r == "i32":
            lines.append("  ret i32 %s" % rng.choice(["0", "undef", "%d" % k]))
        else:
            lines.append("  ret ptr %s" % rng.choice(ptrs + ["null"]))
        lines.append("}")
        out.extend(lines)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(24))
def test_random_call_graphs_match_opt19(seed: int) -> None:
    _same(_random_module(seed), "cgscc(function-attrs),rpo-function-attrs" if seed % 2 else "function-attrs")
