"""SimplifyCFG's sinking of common code and merging of compatible invokes
(``llvmpy_mid/transform/utils/simplify_cfg_sink.py``), against opt-19 and by refinement.

* Oracle tests: small functions, one per rule (sinking with ``.sink`` phis and flag /
  metadata / debug-location merging, the ``.sink.split`` block when not all
  predecessors are unconditional, the one-phi profitability rule, calls to different
  callees, ``nomerge`` and ``convergent`` calls, stores to allocas, struct GEP indices,
  a tail that reaches ``unreachable``; invokes merged into ``<bb>.invoke`` with phis of
  their arguments or callees, ``<bb>.cont`` for an ``unreachable`` normal destination,
  incompatible sets, the ``simplifycfg-merge-compatible-invokes`` option) print what
  opt-19 prints; the ``!tbaa`` tag of a sunk access is the most generic of the two
  (every ordered pair of a set of old- and new-format struct-path tags). Each block keeps a call that cannot be sunk or merged at its top, so
  the families not under test here (speculation, hoisting) have nothing to do.
* LLVM's X86 tests of the family (``sink-common-code-into-unreachable``,
  ``merge-compatible-invokes-of-landingpad{,-debuginfo}``), with and without ``debugify``.
* Random shapes (20 functions a module: switches and else-if chains into two to four arms
  ending with the same operations) print what opt-19 prints; three modules in the default
  run, thirty with ``--run-slow``; likewise random invokes into one landing pad.
* Property test: random i8 functions (an if / else-if chain whose arms end with the same
  operations on differing operands) are refined by the pass on sampled inputs, and the
  pass does sink in most of them.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "instcombine"))
from opt_oracle import assert_same_as_opt, body, opt19_text, ours_text  # noqa: E402
from oracles import require_llvm_tests  # noqa: E402
from refinement import assert_refines, check_refines  # noqa: E402

from llvmpy_mid import parse_assembly, verify_module  # noqa: E402
from llvmpy_mid.ir.function import Function  # noqa: E402
from llvmpy_mid.transform.utils.simplify_cfg_sink import sink_common_code_from_predecessors  # noqa: E402

PIPELINE = "simplifycfg<sink-common-insts>"

SINK_MODULE = r"""
declare void @g(i32)
declare void @h(i32)
declare i32 @k(i32) nomerge
declare i32 @cv(i32) convergent
declare void @use(ptr)

define i32 @diamond(i1 %c, i32 %a, i32 %b, ptr %p) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g(i32 1)
  %x = add nsw i32 %a, 1
  store i32 %x, ptr %p, align 4, !tbaa !0
  br label %end
else:
  call void @h(i32 2)
  %y = add nuw nsw i32 %b, 1
  store i32 %y, ptr %p, align 4, !tbaa !0
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define void @split(i32 %s, i32 %a, i32 %b) {
entry:
  switch i32 %s, label %end [ i32 0, label %one
                              i32 1, label %two ]
one:
  call void @h(i32 7)
  call void @g(i32 %a)
  br label %end
two:
  call void @h(i32 8)
  call void @g(i32 %b)
  br label %end
end:
  ret void
}

define void @split_speculatable_only(i32 %s, i32 %a, i32 %b, ptr %p, ptr %q) {
entry:
  switch i32 %s, label %end [ i32 0, label %one
                              i32 1, label %two ]
one:
  call void @use(ptr %p)
  %x = add i32 %a, 5
  br label %end
two:
  call void @use(ptr %q)
  %y = add i32 %b, 5
  br label %end
end:
  %r = phi i32 [ %x, %one ], [ %y, %two ], [ 0, %entry ]
  ret void
}

define i32 @three_way(i32 %s, i32 %a, i32 %b, i32 %d) {
entry:
  switch i32 %s, label %c3 [ i32 0, label %c1
                             i32 1, label %c2 ]
c1:
  call void @g(i32 1)
  %x = xor i32 %a, 3
  %x2 = mul i32 %x, 3
  br label %end
c2:
  call void @g(i32 2)
  %y = xor i32 %b, 3
  %y2 = mul i32 %y, 3
  br label %end
c3:
  call void @g(i32 3)
  %z = xor i32 %d, 3
  %z2 = mul i32 %z, 3
  br label %end
end:
  %r = phi i32 [ %x2, %c1 ], [ %y2, %c2 ], [ %z2, %c3 ]
  ret i32 %r
}

define void @two_phis(i1 %c, i32 %a, i32 %b, i32 %d, i32 %e) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @h(i32 1)
  %x = mul i32 %a, %d
  call void @g(i32 %x)
  br label %end
else:
  call void @h(i32 2)
  %y = mul i32 %b, %e
  call void @g(i32 %y)
  br label %end
end:
  ret void
}

define void @different_callees(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g(i32 %a)
  br label %end
else:
  call void @h(i32 %a)
  br label %end
end:
  ret void
}

define i32 @nomerge_calls(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g(i32 1)
  %x = call i32 @k(i32 %a)
  br label %end
else:
  call void @h(i32 2)
  %y = call i32 @k(i32 %a)
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define i32 @convergent_calls(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g(i32 1)
  %x = call i32 @cv(i32 %a)
  br label %end
else:
  call void @h(i32 2)
  %y = call i32 @cv(i32 %a)
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define void @alloca_store(i1 %c, i32 %a, i32 %b) {
entry:
  %p = alloca i32
  %q = alloca i32
  call void @use(ptr %p)
  call void @use(ptr %q)
  br i1 %c, label %then, label %else
then:
  call void @g(i32 1)
  store i32 %a, ptr %p
  br label %end
else:
  call void @h(i32 2)
  store i32 %b, ptr %q
  br label %end
end:
  ret void
}

define void @unreachable_tail(i1 %c, i32 %a, i32 %b, i32 %d, i32 %e) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @use(ptr null)
  %x = mul i32 %a, %d
  call void @g(i32 %x)
  br label %end
else:
  call void @h(i32 2)
  %y = mul i32 %b, %e
  call void @g(i32 %y)
  br label %end
end:
  unreachable
}

define i32 @gep_struct(i1 %c, ptr %p) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g(i32 1)
  %x = getelementptr inbounds {i32, i32}, ptr %p, i64 0, i32 0
  %lx = load i32, ptr %x
  br label %end
else:
  call void @h(i32 2)
  %y = getelementptr {i32, i32}, ptr %p, i64 0, i32 1
  %ly = load i32, ptr %y
  br label %end
end:
  %r = phi i32 [ %lx, %then ], [ %ly, %else ]
  ret i32 %r
}

define i32 @debug_loc(i1 %c, i32 %a, i32 %b) !dbg !10 {
entry:
  br i1 %c, label %then, label %else
then:
  call void @g(i32 1), !dbg !13
  %x = add i32 %a, 1, !dbg !14
    #dbg_value(i32 %x, !12, !DIExpression(), !14)
  br label %end
else:
  call void @h(i32 2), !dbg !13
  %y = add i32 %b, 1, !dbg !15
    #dbg_value(i32 %y, !12, !DIExpression(), !15)
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

!llvm.module.flags = !{!5}
!llvm.dbg.cu = !{!6}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"root"}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = distinct !DICompileUnit(language: DW_LANG_C99, file: !7, isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!7 = !DIFile(filename: "t.c", directory: "/")
!10 = distinct !DISubprogram(name: "debug_loc", scope: !7, file: !7, line: 1, type: !11, unit: !6)
!11 = !DISubroutineType(types: !{})
!12 = !DILocalVariable(name: "v", scope: !10, file: !7, line: 2)
!13 = !DILocation(line: 2, column: 3, scope: !10)
!14 = !DILocation(line: 3, column: 5, scope: !10)
!15 = !DILocation(line: 4, column: 5, scope: !10)
"""

INVOKE_MODULE = r"""
declare void @f(i32)
declare void @f2(i32)
declare void @use(i32)
declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)

define void @merge_three(i32 %s, i32 %a, i32 %b) personality ptr @__gxx_personality_v0 {
entry:
  switch i32 %s, label %c3 [ i32 0, label %c1
                             i32 1, label %c2 ]
c1:
  invoke void @f(i32 %a) to label %invoke.cont unwind label %lpad
c2:
  invoke void @f(i32 %b) to label %invoke.cont unwind label %lpad
c3:
  invoke void @f(i32 %b) to label %invoke.cont unwind label %lpad
invoke.cont:
  ret void
lpad:
  %eh = landingpad { ptr, i32 } cleanup
  call void @use(i32 0)
  resume { ptr, i32 } %eh
}

define void @merge_unreachable_normal(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %if.then0, label %if.else
if.then0:
  invoke void @f(i32 1) to label %cont0 unwind label %lpad
cont0:
  unreachable
if.else:
  invoke void @f(i32 1) to label %cont1 unwind label %lpad
cont1:
  unreachable
lpad:
  %eh = landingpad { ptr, i32 } cleanup
  call void @use(i32 0)
  resume { ptr, i32 } %eh
}

define void @two_sets(i32 %s) personality ptr @__gxx_personality_v0 {
entry:
  switch i32 %s, label %c4 [ i32 0, label %c1
                             i32 1, label %c2
                             i32 2, label %c3 ]
c1:
  invoke void @f(i32 1) to label %invoke.cont unwind label %lpad
c2:
  invoke void @f2(i32 1) to label %invoke.cont unwind label %lpad
c3:
  invoke void @f(i32 1) to label %invoke.cont unwind label %lpad
c4:
  invoke void @f2(i32 1) to label %invoke.cont unwind label %lpad
invoke.cont:
  ret void
lpad:
  %eh = landingpad { ptr, i32 } cleanup
  call void @use(i32 0)
  resume { ptr, i32 } %eh
}

define i32 @phi_in_lpad(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %if.then0, label %if.else
if.then0:
  invoke void @f(i32 1) to label %invoke.cont unwind label %lpad
if.else:
  invoke void @f(i32 2) to label %invoke.cont unwind label %lpad
invoke.cont:
  ret i32 0
lpad:
  %p = phi i32 [ 0, %if.then0 ], [ 1, %if.else ]
  %eh = landingpad { ptr, i32 } cleanup
  call void @use(i32 %p)
  resume { ptr, i32 } %eh
}

define void @indirect(i32 %s, ptr %fa, ptr %fb) personality ptr @__gxx_personality_v0 {
entry:
  switch i32 %s, label %c3 [ i32 0, label %c1
                             i32 1, label %c2 ]
c1:
  invoke void %fa(i32 1) to label %invoke.cont unwind label %lpad
c2:
  invoke void %fb(i32 2) to label %invoke.cont unwind label %lpad
c3:
  invoke void %fb(i32 2) to label %invoke.cont unwind label %lpad
invoke.cont:
  ret void
lpad:
  %eh = landingpad { ptr, i32 } cleanup
  call void @use(i32 0)
  resume { ptr, i32 } %eh
}

define i32 @result_used(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %if.then0, label %if.else
if.then0:
  %r0 = invoke i32 @g(i32 1) to label %invoke.cont unwind label %lpad
if.else:
  %r1 = invoke i32 @g(i32 1) to label %invoke.cont unwind label %lpad
invoke.cont:
  %r = phi i32 [ %r0, %if.then0 ], [ %r1, %if.else ]
  ret i32 %r
lpad:
  %eh = landingpad { ptr, i32 } cleanup
  call void @use(i32 0)
  resume { ptr, i32 } %eh
}
"""


def _function(module: str, name: str) -> str:
    """The declarations and metadata of ``module`` with only the function ``name``."""
    out: list[str] = []
    keep = True
    for line in module.splitlines():
        if line.startswith("define "):
            keep = ("@" + name + "(") in line
        if keep or line.startswith(("declare ", "!")):
            out.append(line)
        if line == "}":
            keep = True
    return "\n".join(out) + "\n"


SINK_CASES = [
    "diamond",
    "split",
    "split_speculatable_only",
    "three_way",
    "two_phis",
    "different_callees",
    "nomerge_calls",
    "convergent_calls",
    "alloca_store",
    "unreachable_tail",
    "gep_struct",
    "debug_loc",
]

INVOKE_CASES = ["merge_three", "merge_unreachable_normal", "two_sets", "phi_in_lpad", "indirect", "result_used"]


@pytest.mark.parametrize("name", SINK_CASES)
def test_sink_like_opt(name: str) -> None:
    assert_same_as_opt(_function(SINK_MODULE, name), PIPELINE)


def test_sink_whole_module_like_opt() -> None:
    got = assert_same_as_opt(SINK_MODULE, PIPELINE)
    assert "%b.sink = phi i32" in got and ".sink.split:" in got


def test_sink_off_without_sink_common_insts() -> None:
    got = ours_text(_function(SINK_MODULE, "diamond"), "simplifycfg")
    assert ".sink" not in got
    assert_same_as_opt(_function(SINK_MODULE, "diamond"), "simplifycfg")


def test_sink_common_option_off() -> None:
    text = _function(SINK_MODULE, "three_way")
    got = assert_same_as_opt(text, PIPELINE, {"simplifycfg-sink-common": False})
    assert ".sink" not in got


@pytest.mark.parametrize("name", INVOKE_CASES)
def test_merge_invokes_like_opt(name: str) -> None:
    assert_same_as_opt(_function(INVOKE_MODULE, name), PIPELINE)


def test_merge_invokes_names() -> None:
    got = assert_same_as_opt(INVOKE_MODULE, PIPELINE)
    assert "c3.invoke:" in got and "if.else.cont:" in got


def test_merge_invokes_option_off() -> None:
    got = assert_same_as_opt(INVOKE_MODULE, PIPELINE, {"simplifycfg-merge-compatible-invokes": False})
    assert ".invoke:" not in got


# --- LLVM's own X86 tests of the family (the conformance runner skips X86/ without the target) -----

_X86_FILES = [
    "X86/sink-common-code-into-unreachable.ll",
    "X86/merge-compatible-invokes-of-landingpad.ll",
    "X86/merge-compatible-invokes-of-landingpad-debuginfo.ll",
]


@pytest.mark.parametrize("relative", _X86_FILES)
@pytest.mark.parametrize("pipeline", [PIPELINE, "debugify," + PIPELINE])
def test_llvm_x86_tests_like_opt(relative: str, pipeline: str) -> None:
    folder = require_llvm_tests() / "Transforms" / "SimplifyCFG"
    text = (folder / relative).read_text()
    expected = body(opt19_text(text, pipeline))
    # debugify names the module's source: opt-19 read it from stdin, we from a string.
    got = body(ours_text(text, pipeline)).replace('filename: "<string>"', 'filename: "<stdin>"')
    assert got == expected


# --- TBAA tags of sunk accesses: the most generic tag (getMostGenericTBAA) -------------------------

_TBAA_OLD = """
!0 = !{!"root"}
!1 = !{!"int", !0, i64 0}
!2 = !{!"short", !1, i64 0}
!3 = !{!"float", !0, i64 0}
!4 = !{!"S", !1, i64 0, !3, i64 4}
!5 = !{!"T", !4, i64 0, !1, i64 8}
!6 = !{!"other root"}
!7 = !{!"long", !6, i64 0}
!10 = !{!1, !1, i64 0}
!11 = !{!2, !2, i64 0}
!12 = !{!3, !3, i64 0}
!13 = !{!4, !1, i64 0}
!14 = !{!4, !3, i64 4}
!15 = !{!5, !1, i64 0}
!16 = !{!5, !1, i64 8}
!17 = !{!7, !7, i64 0}
!18 = !{!5, !3, i64 4}
"""

_TBAA_NEW = """
!0 = !{!"root"}
!1 = !{!0, i64 4, !"int"}
!2 = !{!0, i64 2, !"short"}
!3 = !{!0, i64 4, !"float"}
!4 = !{!0, i64 8, !"S", !1, i64 0, i64 4, !3, i64 4, i64 4}
!5 = !{!0, i64 16, !"T", !4, i64 0, i64 8, !1, i64 8, i64 4}
!10 = !{!1, !1, i64 0, i64 4}
!11 = !{!2, !2, i64 0, i64 2}
!12 = !{!3, !3, i64 0, i64 4}
!13 = !{!4, !1, i64 0, i64 4}
!14 = !{!4, !3, i64 4, i64 4}
!15 = !{!5, !1, i64 0, i64 4}
!16 = !{!5, !1, i64 8, i64 4}
!17 = !{!5, !4, i64 0, i64 8}
!18 = !{!5, !3, i64 4, i64 4}
!19 = !{!4, !4, i64 0, i64 8}
"""


def _tbaa_module(metadata: str, tags: list[int]) -> str:
    """One function per ordered pair of tags: two stores with those tags sunk into one."""
    parts = ["declare void @g(i32)", "declare void @h(i32)"]
    for a in tags:
        for b in tags:
            if a == b:
                continue
            parts.append(
                "define void @t_%d_%d(i1 %%c, i32 %%a, i32 %%b, ptr %%p) {\n"
                "entry:\n  br i1 %%c, label %%then, label %%else\n"
                "then:\n  call void @g(i32 1)\n  store i32 %%a, ptr %%p, align 4, !tbaa !%d\n  br label %%end\n"
                "else:\n  call void @h(i32 2)\n  store i32 %%b, ptr %%p, align 4, !tbaa !%d\n  br label %%end\n"
                "end:\n  ret void\n}" % (a, b, a, b)
            )
    return "\n".join(parts) + "\n" + metadata


@pytest.mark.parametrize(
    "metadata,tags", [(_TBAA_OLD, list(range(10, 19))), (_TBAA_NEW, list(range(10, 20)))], ids=["old", "new"]
)
def test_sunk_tbaa_is_most_generic_like_opt(metadata: str, tags: list[int]) -> None:
    got = assert_same_as_opt(_tbaa_module(metadata, tags), PIPELINE)
    assert got.count("!tbaa") > 0


# --- random shapes against opt-19 ------------------------------------------------------------------

_OPS_SHAPE = ["add", "sub", "mul", "xor", "and", "or", "shl"]


def _random_shape(rng: random.Random, idx: int) -> str:
    """``@f<idx>``: a switch or an if / else-if chain into two to four arms, each starting with
    its own barrier call and ending with the same one to four operations (arithmetic, loads,
    stores, calls, GEPs) on differing or equal operands, sometimes with a direct edge to the
    join; the join returns a phi of the arms' last values."""
    n_arms = rng.choice([2, 3, 4])
    kind = rng.choice(["chain", "switch"])
    direct = rng.random() < 0.4
    L: list[str] = []
    L.append("define i32 @f%d(i32 %%s, i32 %%x, i32 %%y, ptr %%p, ptr %%q) {" % idx)
    L.append("entry:")
    arms = ["a%d" % i for i in range(n_arms)]
    if kind == "switch":
        cases = " ".join("i32 %d, label %%%s" % (i, a) for i, a in enumerate(arms[1:]))
        L.append("  switch i32 %%s, label %%%s [ %s %s ]" % (arms[0], cases, ("i32 99, label %end" if direct else "")))
    else:
        L.append("  %c0 = icmp ult i32 %s, 10")
        L.append("  br i1 %%c0, label %%%s, label %%e1" % arms[0])
        for i in range(1, n_arms):
            L.append("e%d:" % i)
            L.append("  %%c%d = icmp ult i32 %%s, %d" % (i, 10 + i))
            nxt = arms[i]
            other = ("e%d" % (i + 1)) if i + 1 < n_arms else ("end" if direct else arms[0])
            L.append("  br i1 %%c%d, label %%%s, label %%%s" % (i, nxt, other))
    tail: list[tuple[str, str, bool, str]] = []
    for k in range(rng.randint(1, 4)):
        t = rng.choice(["bin", "bin", "store", "call", "load", "gep"])
        tail.append((t, rng.choice(_OPS_SHAPE), rng.random() < 0.6, rng.choice(["", "nsw ", "nuw "])))
    shared = [rng.choice(["%x", "%y", "7"]) for _ in tail]
    lasts: list[str] = []
    for ai, a in enumerate(arms):
        L.append("%s:" % a)
        L.append("  call void @barrier%d()" % ai)
        prev = rng.choice(["%x", "%y"])
        for k, (t, op, same, fl) in enumerate(tail):
            other = shared[k] if same else rng.choice(["%x", "%y", str(rng.randint(0, 9))])
            nm = "%%v%d_%d" % (ai, k)
            if t == "bin":
                L.append("  %s = %s %si32 %s, %s" % (nm, op, fl if op in ("add", "sub", "mul", "shl") else "", prev, other))
                prev = nm
            elif t == "store":
                L.append("  store i32 %s, ptr %s, align 4" % (prev, "%p" if same else rng.choice(["%p", "%q"])))
            elif t == "call":
                L.append("  %s = call i32 @use(i32 %s, i32 %s)" % (nm, prev, other))
                prev = nm
            elif t == "load":
                L.append("  %s = load i32, ptr %s, align 4" % (nm, "%p" if same else rng.choice(["%p", "%q"])))
                prev = nm
            else:
                L.append("  %sg = getelementptr inbounds i32, ptr %%p, i32 %s" % (nm, prev))
                L.append("  %s = load i32, ptr %sg, align 4" % (nm, nm))
                prev = nm
        lasts.append(prev)
        L.append("  br label %end")
    L.append("end:")
    inc = ["[ %s, %%%s ]" % (v, a) for v, a in zip(lasts, arms)]
    if direct:
        inc.append("[ %%x, %%%s ]" % ("entry" if kind == "switch" else "e%d" % (n_arms - 1)))
    L.append("  %r = phi i32 " + ", ".join(inc))
    L.append("  ret i32 %r")
    L.append("}")
    return "\n".join(L)


def _random_shapes_module(seed: int) -> str:
    rng = random.Random(seed)
    out = ["declare i32 @use(i32, i32)"] + ["declare void @barrier%d()" % i for i in range(4)]
    out.extend(_random_shape(rng, i) for i in range(20))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s > 3 else []) for s in range(1, 31)]
)
def test_random_shapes_like_opt(seed: int) -> None:
    got = assert_same_as_opt(_random_shapes_module(seed), PIPELINE)
    assert ".sink" in got


def _random_invokes(rng: random.Random, idx: int) -> str:
    """``@f<idx>``: a switch into two to four arms, each with its own barrier call and an
    invoke (of ``@f``, ``@g`` or a pointer argument) unwinding to one landing pad (maybe with a
    phi), normally returning to a common block (maybe with a phi of the results) or to its
    own ``unreachable`` block."""
    n = rng.choice([2, 3, 4])
    L = ["define i32 @f%d(i32 %%s, i32 %%x, i32 %%y, ptr %%fp, ptr %%fq) personality ptr @pers {" % idx, "entry:"]
    arms = ["a%d" % i for i in range(n)]
    cases = " ".join("i32 %d, label %%%s" % (i, a) for i, a in enumerate(arms[1:]))
    L.append("  switch i32 %%s, label %%%s [ %s ]" % (arms[0], cases))
    unreachable_normal = rng.random() < 0.3
    lpad_phi = rng.random() < 0.3
    cont_phi = rng.random() < 0.5
    res: list[tuple[str, str]] = []
    for i, a in enumerate(arms):
        L.append("%s:" % a)
        L.append("  call void @barrier%d()" % i)
        callee = rng.choice(["@f", "@f", "@f", "@g", "%fp", "%fq"])
        arg = rng.choice(["%x", "%y", "1", "2"])
        nd = ("u%d" % i) if unreachable_normal and rng.random() < 0.9 else "cont"
        L.append("  %%r%d = invoke i32 %s(i32 %s) to label %%%s unwind label %%lpad" % (i, callee, arg, nd))
        if nd != "cont":
            L.append("u%d:" % i)
            L.append("  unreachable")
        else:
            res.append(("%%r%d" % i if cont_phi else "0", a))
    L.append("cont:")
    if res:
        L.append("  %c = phi i32 " + ", ".join("[ %s, %%%s ]" % r for r in res))
        L.append("  ret i32 %c")
    else:
        L.append("  ret i32 0")
    L.append("lpad:")
    if lpad_phi:
        vals = [rng.choice(["0", "1"]) for _ in arms]
        L.append("  %lp = phi i32 " + ", ".join("[ %s, %%%s ]" % (v, a) for v, a in zip(vals, arms)))
    L.append("  %eh = landingpad { ptr, i32 } cleanup")
    L.append("  call void @cleanup(i32 %s)" % ("%lp" if lpad_phi else "0"))
    L.append("  resume { ptr, i32 } %eh")
    L.append("}")
    if not res:
        # cont unreachable from anywhere: drop it
        i = L.index("cont:")
        del L[i:i + 2]
    return "\n".join(L)


def _random_invokes_module(seed: int) -> str:
    rng = random.Random(seed)
    out = ["declare i32 @f(i32)", "declare i32 @g(i32)", "declare void @cleanup(i32)", "declare i32 @pers(...)"]
    out += ["declare void @barrier%d()" % i for i in range(4)]
    out += [_random_invokes(rng, i) for i in range(20)]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s > 3 else []) for s in range(1, 31)]
)
def test_random_invokes_like_opt(seed: int) -> None:
    got = assert_same_as_opt(_random_invokes_module(seed), PIPELINE)
    assert ".invoke:" in got


# --- property test: random i8 functions are refined ----------------------------------------------

_OPS = ["add", "sub", "mul", "xor", "and", "or", "shl", "lshr"]


def _random_function(rng: random.Random) -> str:
    """``@f(i8 %x, i8 %y)``: an if / else-if chain of two or three arms ending with the
    same operations (differing operands), sometimes with a direct edge to the join."""
    n_arms = rng.choice([2, 3])
    direct = n_arms == 2 and rng.random() < 0.5
    tail = [
        (rng.choice(_OPS), rng.choice(["", "nuw ", "nsw "]), rng.random() < 0.5, rng.random() < 0.6)
        for _ in range(rng.randint(1, 3))
    ]
    shared = [rng.choice(["%x", "%y", str(rng.randint(0, 5))]) for _ in tail]
    lines = ["define i8 @f(i8 %x, i8 %y) {", "entry:"]
    lines.append("  %%c0 = icmp ult i8 %%x, %d" % rng.randint(1, 255))
    lines.append("  br i1 %c0, label %a0, label %e1")
    lines.append("e1:")
    lines.append("  %%c1 = icmp sgt i8 %%y, %d" % rng.randint(-100, 100))
    if n_arms == 3:
        lines.append("  br i1 %c1, label %a1, label %a2")
    elif direct:
        lines.append("  br i1 %c1, label %a1, label %end")
    else:
        lines.append("  br i1 %c1, label %a1, label %a0")
    lasts: list[str] = []
    for arm in range(n_arms):
        lines.append("a%d:" % arm)
        prev = "%x" if arm % 2 == 0 else "%y"
        if rng.random() < 0.5:
            lines.append("  %%p%d = %s i8 %s, %d" % (arm, rng.choice(["add", "xor"]), prev, rng.randint(1, 9)))
            prev = "%%p%d" % arm
        for k, (op, flags, prev_first, same) in enumerate(tail):
            if op in ("shl", "lshr"):
                other = "1" if same else str(rng.choice([1, 2, 3]))
            else:
                other = shared[k] if same else rng.choice(["%x", "%y", str(rng.randint(0, 5))])
            name = "%%t%d_%d" % (arm, k)
            flag = flags if op in ("add", "sub", "mul", "shl") and rng.random() < 0.7 else ""
            if prev_first or op in ("shl", "lshr"):
                lines.append("  %s = %s %si8 %s, %s" % (name, op, flag, prev, other))
            else:
                lines.append("  %s = %s %si8 %s, %s" % (name, op, flag, other, prev))
            prev = name
        lasts.append(prev)
        lines.append("  br label %end")
    lines.append("end:")
    incoming = ["[ %s, %%a%d ]" % (v, i) for i, v in enumerate(lasts)]
    if direct:
        incoming.append("[ %y, %e1 ]")
    lines.append("  %r = phi i8 " + ", ".join(incoming))
    lines.append("  ret i8 %r")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _sink_directly(text: str) -> tuple[Function, Function, bool]:
    """The function of ``text`` before and after :func:`sink_common_code_from_predecessors`
    ran on its join block until it reported no change."""
    before = parse_assembly(text)
    after = parse_assembly(text)
    fn = after.get_function("f")
    assert fn is not None
    end = next(bb for bb in fn.blocks if bb.name == "end")
    changed = False
    while sink_common_code_from_predecessors(end):
        changed = True
    verify_module(after)
    orig = before.get_function("f")
    assert orig is not None
    return orig, fn, changed


@pytest.mark.parametrize("seed", range(10))
def test_random_functions_are_refined(seed: int) -> None:
    rng = random.Random(seed)
    sunk = 0
    for _ in range(5):
        text = _random_function(rng)
        orig, fn, changed = _sink_directly(text)
        assert_refines(orig, fn, max_inputs=256, seed=seed)
        sunk += changed
        check_refines(text, PIPELINE, max_inputs=128, seed=seed)
    assert sunk >= 1
