"""SimplifyCFG's exception-handling rules (``llvmpy_mid/transform/utils/simplify_cfg_eh.py``),
against opt-19.

* Oracle tests: one small function per rule (a landing pad that only resumes, with a
  ``lifetime.end`` in between, turns its invokes into calls; a resume of a phi of landing
  pads cuts off the trivial ones; a landing pad with work is kept; identical landing pad
  blocks are merged; an empty cleanup pad unwinding to the caller or to another pad,
  with phis translated; a cleanup pad merged into the one it unwinds to; a cleanup pad
  unwinding to a catchswitch, which stays a block of its own; a catchswitch's duplicate
  handlers dropped) print what
  opt-19 prints, and the rule's mark is in the output.
* Random EH shapes: functions whose invokes unwind to a mix of trivial and non-trivial
  landing pads, some joined in a common resume block, some identical, give what opt-19
  gives (the pass output also verifies).
* Random funclet shapes (cleanup pads empty or not, with phis, unwinding to one another
  or to the caller) give what opt-19 gives.
* C++ with destructors, try/catch and rethrow, compiled by clang-19 for the Itanium and the
  MSVC (funclet) exception models, through simplifycfg pipelines, gives what opt-19 gives.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))
from opt_oracle import assert_same_as_opt  # noqa: E402
from oracles import require_tools  # noqa: E402

PIPELINE = "simplifycfg"

MODULE = r"""
declare void @f(i32)
declare void @g()
declare i32 @__gxx_personality_v0(...)
declare i32 @__CxxFrameHandler3(...)
declare void @llvm.lifetime.end.p0(i64, ptr nocapture)

define void @single_resume(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @f(i32 1) to label %cont unwind label %lpad
cont:
  invoke void @f(i32 2) to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @llvm.lifetime.end.p0(i64 4, ptr %p)
  resume { ptr, i32 } %lp
}

define void @single_resume_not_empty() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @f(i32 1) to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @g()
  resume { ptr, i32 } %lp
}

define void @common_resume(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b
a:
  invoke void @f(i32 1) to label %done unwind label %lpad1
b:
  invoke void @f(i32 2) to label %done unwind label %lpad2
done:
  ret void
lpad1:
  %lp1 = landingpad { ptr, i32 } cleanup
  br label %rethrow
lpad2:
  %lp2 = landingpad { ptr, i32 } cleanup
  call void @g()
  br label %rethrow
rethrow:
  %lp = phi { ptr, i32 } [ %lp1, %lpad1 ], [ %lp2, %lpad2 ]
  resume { ptr, i32 } %lp
}

define void @common_resume_all_trivial(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b
a:
  invoke void @f(i32 1) to label %done unwind label %lpad1
b:
  invoke void @f(i32 2) to label %done unwind label %lpad2
done:
  ret void
lpad1:
  %lp1 = landingpad { ptr, i32 } cleanup
  br label %rethrow
lpad2:
  %lp2 = landingpad { ptr, i32 } catch ptr null
  br label %rethrow
rethrow:
  %lp = phi { ptr, i32 } [ %lp1, %lpad1 ], [ %lp2, %lpad2 ]
  resume { ptr, i32 } %lp
}

define void @duplicate_lpads(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b
a:
  invoke void @f(i32 1) to label %done unwind label %lpad1
b:
  invoke void @f(i32 2) to label %done unwind label %lpad2
done:
  ret void
lpad1:
  %lp1 = landingpad { ptr, i32 } catch ptr null
  br label %handler
lpad2:
  %lp2 = landingpad { ptr, i32 } catch ptr null
  br label %handler
handler:
  call void @g()
  ret void
}

define void @cleanup_to_caller() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @f(i32 1) to label %cont unwind label %ehcleanup
cont:
  invoke void @f(i32 2) to label %done unwind label %ehcleanup
done:
  ret void
ehcleanup:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
}

define i32 @cleanup_to_pad(i1 %c) personality ptr @__CxxFrameHandler3 {
entry:
  br i1 %c, label %a, label %b
a:
  invoke void @f(i32 1) to label %mid unwind label %ehcleanup
b:
  invoke void @f(i32 2) to label %mid unwind label %ehcleanup
mid:
  invoke void @f(i32 3) to label %done unwind label %outer
done:
  ret i32 0
ehcleanup:
  %x = phi i32 [ 1, %a ], [ 2, %b ]
  %cp = cleanuppad within none []
  cleanupret from %cp unwind label %outer
outer:
  %z = phi i32 [ %x, %ehcleanup ], [ 3, %mid ]
  %cp2 = cleanuppad within none []
  call void @f(i32 %z)
  cleanupret from %cp2 unwind to caller
}

define i32 @cleanup_sinks_phi(i1 %c) personality ptr @__CxxFrameHandler3 {
entry:
  br i1 %c, label %a, label %b
a:
  invoke void @f(i32 1) to label %done unwind label %ehcleanup
b:
  invoke void @f(i32 2) to label %done unwind label %ehcleanup
done:
  ret i32 0
ehcleanup:
  %y = phi i32 [ 10, %a ], [ 20, %b ]
  %cp = cleanuppad within none []
  cleanupret from %cp unwind label %outer
outer:
  %cp2 = cleanuppad within none []
  call void @f(i32 %y)
  cleanupret from %cp2 unwind to caller
}

define void @merge_cleanuppads() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @f(i32 1) to label %done unwind label %first
done:
  ret void
first:
  %cp1 = cleanuppad within none []
  call void @f(i32 2) [ "funclet"(token %cp1) ]
  cleanupret from %cp1 unwind label %second
second:
  %cp2 = cleanuppad within none []
  call void @f(i32 3) [ "funclet"(token %cp2) ]
  cleanupret from %cp2 unwind to caller
}

define void @cleanup_unwinds_to_catchswitch() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %try.cont unwind label %ehcleanup
ehcleanup:
  %0 = cleanuppad within none []
  call void @f(i32 1)
  cleanupret from %0 unwind label %catch.dispatch
catch.dispatch:
  %cs1 = catchswitch within none [label %catch] unwind label %ehcleanup.1
catch:
  %1 = catchpad within %cs1 [ptr null, i32 64, ptr null]
  catchret from %1 to label %try.cont
try.cont:
  ret void
ehcleanup.1:
  %2 = cleanuppad within none []
  cleanupret from %2 unwind to caller
}

define void @duplicate_catch_handlers() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %exit unwind label %catch.pad
catch.pad:
  %cs1 = catchswitch within none [label %catch.body, label %catch.body2] unwind to caller
catch.body:
  %catch = catchpad within %cs1 [ptr null, i32 0, ptr null]
  catchret from %catch to label %exit
catch.body2:
  %catch2 = catchpad within %cs1 [ptr null, i32 0, ptr null]
  catchret from %catch2 to label %exit
exit:
  ret void
}
"""


def _split(text: str) -> dict[str, str]:
    """One module per function, with every declaration."""
    decls = [line for line in text.splitlines() if line.startswith("declare")]
    out: dict[str, str] = {}
    for m in re.finditer(r"(define [^@]*@(\w+)\(.*?\n}\n)", text, re.S):
        out[m.group(2)] = "\n".join(decls) + "\n\n" + m.group(1)
    return out


FUNCTIONS = _split(MODULE)

MARKS: dict[str, tuple[list[str], list[str]]] = {
    # name: (must be in the output, must not be in the output)
    "single_resume": (["call void @f(i32 1)\n  call void @f(i32 2)\n  ret void"], ["landingpad", "resume {"]),
    "single_resume_not_empty": (["invoke void @f(i32 1)", "resume { ptr, i32 } %lp"], []),
    "common_resume": (["  call void @f(i32 1)\n  br label %done", "resume { ptr, i32 } %lp2"], ["lpad1:"]),
    "common_resume_all_trivial": (["call void @f(i32 2)\n  br label %done"], ["landingpad", "resume {"]),
    "duplicate_lpads": (["unwind label %lpad2\n\nb:", "lpad2:                                            ; preds = %a, %b"], ["lpad1:"]),
    "cleanup_to_caller": (["call void @f(i32 1)\n  call void @f(i32 2)"], ["cleanuppad"]),
    "cleanup_to_pad": (["%z = phi i32 [ 3, %mid ], [ 2, %b ], [ 1, %a ]"], ["ehcleanup:"]),
    "cleanup_sinks_phi": (["%y = phi i32 [ 10, %a ], [ 20, %b ]\n  %cp = cleanuppad"], ["outer:"]),
    "cleanup_unwinds_to_catchswitch": (
        ["cleanupret from %0 unwind label %catch.dispatch", "catchswitch within none [label %catch] unwind to caller"],
        ["ehcleanup.1"],
    ),
    "duplicate_catch_handlers": (["catchswitch within none [label %catch.body] unwind to caller"], ["catch.body2"]),
    "merge_cleanuppads": (["call void @f(i32 2) [ \"funclet\"(token %cp1) ]\n  call void @f(i32 3) [ \"funclet\"(token %cp1) ]"], ["%cp2"]),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_eh_rule_like_opt(name: str) -> None:
    got = assert_same_as_opt(FUNCTIONS[name], PIPELINE)
    present, absent = MARKS[name]
    for mark in present:
        assert mark in got, mark
    for mark in absent:
        assert mark not in got, mark


def test_resume_with_debug_records_like_opt() -> None:
    """Debug records between a landing pad and its resume do not keep the pad alive."""
    text = FUNCTIONS["single_resume"].replace(
        "  call void @llvm.lifetime.end.p0(i64 4, ptr %p)\n",
        "  call void @llvm.lifetime.end.p0(i64 4, ptr %p)\n    #dbg_value(ptr %p, !4, !DIExpression(), !5)\n",
    ) + (
        "!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!2}\n"
        '!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: true, emissionKind: FullDebug)\n'
        '!1 = !DIFile(filename: "t.c", directory: "/")\n!2 = !{i32 2, !"Debug Info Version", i32 3}\n'
        '!3 = distinct !DISubprogram(name: "s", scope: !1, file: !1, line: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
        '!4 = !DILocalVariable(name: "p", scope: !3, file: !1, line: 1)\n!5 = !DILocation(line: 1, scope: !3)\n'
    )
    text = text.replace("define void @single_resume(ptr %p) personality ptr @__gxx_personality_v0 {",
                        "define void @single_resume(ptr %p) personality ptr @__gxx_personality_v0 !dbg !3 {")
    got = assert_same_as_opt(text, PIPELINE)
    assert "landingpad" not in got


NOUNWIND_TEMPLATE = """
declare void @nothrow() nounwind
declare void @f(i32)
declare i32 @PERS(...)

define void @t() personality ptr @PERS {
entry:
  invoke void @nothrow() to label %done unwind label %ehcleanup
done:
  ret void
ehcleanup:
  %cp = cleanuppad within none []
  call void @f(i32 1) [ "funclet"(token %cp) ]
  cleanupret from %cp unwind to caller
}
"""


@pytest.mark.parametrize(
    "personality,becomes_call",
    [("__CxxFrameHandler3", True), ("__C_specific_handler", False), ("_except_handler3", False)],
)
def test_invoke_of_nounwind_function_by_personality(personality: str, becomes_call: bool) -> None:
    """A nounwind invoke becomes a call unless the personality catches asynchronous
    exceptions (LLVM ``canSimplifyInvokeNoUnwind``)."""
    got = assert_same_as_opt(NOUNWIND_TEMPLATE.replace("PERS", personality), PIPELINE)
    assert ("invoke void @nothrow()" not in got) == becomes_call


def test_invoke_of_nounwind_function_kept_under_eh_asynch() -> None:
    text = NOUNWIND_TEMPLATE.replace("PERS", "__CxxFrameHandler3") + (
        '!llvm.module.flags = !{!0}\n!0 = !{i32 2, !"eh-asynch", i32 1}\n'
    )
    got = assert_same_as_opt(text, PIPELINE)
    assert "invoke void @nothrow()" in got


# --- random EH shapes against opt-19 --------------------------------------------------------------


def _random_eh_function(rng: random.Random) -> str:
    """Invokes in a chain of blocks, each unwinding to one of a few landing pads; a pad is
    trivial (cleanup, then resume or a branch to a shared resume block) or does work
    (a call) and may be an identical copy of another pad branching to the same handler."""
    n_inv = rng.randint(2, 4)
    n_pads = rng.randint(1, 3)
    kinds = [rng.choice(["resume", "shared", "work", "handler"]) for _ in range(n_pads)]
    lines = [
        "declare void @f(i32)",
        "declare void @g()",
        "declare i32 @__gxx_personality_v0(...)",
        "",
        "define void @t(i32 %n) personality ptr @__gxx_personality_v0 {",
        "entry:",
        "  br label %b0",
    ]
    for i in range(n_inv):
        nxt = "b%d" % (i + 1) if i + 1 < n_inv else "done"
        pad = rng.randrange(n_pads)
        lines.append("b%d:" % i)
        if rng.random() < 0.3 and i + 2 <= n_inv:
            lines.append("  %%c%d = icmp eq i32 %%n, %d" % (i, i))
            lines.append("  br i1 %%c%d, label %%s%d, label %%%s" % (i, i, nxt))
            lines.append("s%d:" % i)
        lines.append("  invoke void @f(i32 %d) to label %%%s unwind label %%pad%d" % (i, nxt, pad))
    lines.append("done:")
    lines.append("  ret void")
    shared = []
    for p, kind in enumerate(kinds):
        clause = "cleanup" if kind != "handler" else "catch ptr null"
        lines.append("pad%d:" % p)
        lines.append("  %%lp%d = landingpad { ptr, i32 } %s" % (p, clause))
        if kind == "resume":
            lines.append("  resume { ptr, i32 } %%lp%d" % p)
        elif kind == "shared":
            shared.append(p)
            lines.append("  br label %rethrow")
        elif kind == "work":
            lines.append("  call void @g()")
            if rng.random() < 0.5:
                shared.append(p)
                lines.append("  br label %rethrow")
            else:
                lines.append("  resume { ptr, i32 } %%lp%d" % p)
        else:
            lines.append("  br label %handler")
    if shared:
        lines.append("rethrow:")
        lines.append(
            "  %%lp = phi { ptr, i32 } %s" % ", ".join("[ %%lp%d, %%pad%d ]" % (p, p) for p in shared)
        )
        lines.append("  resume { ptr, i32 } %lp")
    if "handler" in kinds:
        lines.append("handler:")
        lines.append("  call void @g()")
        lines.append("  ret void")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 12 else []) for s in range(50)])
def test_random_eh_shapes_like_opt(seed: int) -> None:
    assert_same_as_opt(_random_eh_function(random.Random(seed)), PIPELINE)


def _random_funclet_function(rng: random.Random) -> str:
    """MSVC-style funclets: invokes unwinding to cleanup pads, some empty, some doing
    work or using a phi of the invoking blocks, each unwinding to a later pad or to
    the caller."""
    n_inv = rng.randint(2, 5)
    n_pads = rng.randint(1, 4)
    head = ["declare void @f(i32)", "declare void @g()", "declare i32 @__CxxFrameHandler3(...)", ""]
    body = ["define i32 @t(i32 %n) personality ptr @__CxxFrameHandler3 {", "entry:", "  br label %b0"]
    preds: dict[int, list[str]] = {p: [] for p in range(n_pads)}
    for i in range(n_inv):
        nxt = "b%d" % (i + 1) if i + 1 < n_inv else "done"
        pad = rng.randrange(n_pads)
        body.append("b%d:" % i)
        blk = "b%d" % i
        if rng.random() < 0.4 and i + 1 < n_inv:
            body.append("  %%c%d = icmp eq i32 %%n, %d" % (i, i))
            body.append("  br i1 %%c%d, label %%s%d, label %%%s" % (i, i, nxt))
            body.append("s%d:" % i)
            blk = "s%d" % i
        body.append("  invoke void @f(i32 %d) to label %%%s unwind label %%pad%d" % (i, nxt, pad))
        preds[pad].append(blk)
    body += ["done:", "  ret i32 0"]
    pads: list[list[str]] = []
    for p in range(n_pads):
        pad = ["  %%cp%d = cleanuppad within none []" % p]
        if rng.random() < 0.4:
            pad.append('  call void @g() [ "funclet"(token %%cp%d) ]' % p)
        tgt = rng.randrange(p + 1, n_pads + 1)
        if tgt < n_pads and rng.random() < 0.7:
            pad.append("  cleanupret from %%cp%d unwind label %%pad%d" % (p, tgt))
            preds[tgt].append("pad%d" % p)
        else:
            pad.append("  cleanupret from %%cp%d unwind to caller" % p)
        pads.append(pad)
    for p in range(n_pads):
        body.append("pad%d:" % p)
        if preds[p] and rng.random() < 0.6:
            vals = ", ".join("[ %d, %%%s ]" % (rng.randint(0, 3), b) for b in preds[p])
            body.append("  %%v%d = phi i32 %s" % (p, vals))
            if rng.random() < 0.5:
                pads[p].insert(1, '  call void @f(i32 %%v%d) [ "funclet"(token %%cp%d) ]' % (p, p))
        body += pads[p]
    body.append("}")
    return "\n".join(head + body) + "\n"


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 12 else []) for s in range(60)])
def test_random_funclet_shapes_like_opt(seed: int) -> None:
    assert_same_as_opt(_random_funclet_function(random.Random(seed)), PIPELINE)


# --- C++ exception code from clang-19 -------------------------------------------------------------

CPP_SOURCES = {
    "dtors": r"""extern "C" int printf(const char*, ...);
struct S { int v; S(int x):v(x){} ~S(){ printf("d%d\n", v); } };
void may_throw(int x);
void nothrow_fn(int x) noexcept;
int f(int a) {
  S s1(a);
  if (a > 3) { S s2(a+1); may_throw(a); nothrow_fn(a); }
  else { S s3(a+2); may_throw(a); nothrow_fn(a); }
  try { may_throw(a * 2); } catch (int e) { return e; } catch (...) { return -1; }
  return a;
}
int g(int a) {
  try { S t(a); nothrow_fn(a); may_throw(a); } catch (...) { throw; }
  return 0;
}
""",
    "loops_and_switch": r"""extern "C" int printf(const char*, ...);
struct A { int v; A(int x):v(x){} ~A(){ printf("A%d\n", v); } };
struct B { A a; A b; B(int x):a(x),b(x+1){} };
void thrower(int x);
int nt(int x) noexcept;
int h(int n) {
  int r = 0;
  for (int i = 0; i < n; ++i) {
    try {
      B b(i);
      if (i & 1) { A t(i); thrower(i); r += nt(i); }
      else { A t(i); thrower(i); r += nt(i); }
    } catch (int e) {
      r += e;
      try { thrower(e); } catch (...) { r -= 1; }
    } catch (...) {
      throw;
    }
  }
  return r;
}
int k(int x) {
  A a1(x);
  switch (x) {
  case 0: { A z(0); thrower(0); break; }
  case 1: { A z(1); thrower(0); break; }
  case 2: { A z(2); thrower(0); break; }
  default: thrower(x);
  }
  return nt(x);
}
""",
}

CPP_PIPELINES = ("simplifycfg", "mem2reg,simplifycfg<hoist-common-insts;sink-common-insts>")


def _cpp_params() -> list[object]:
    out: list[object] = []
    for name in sorted(CPP_SOURCES):
        for target in ("itanium", "msvc"):
            for level in ("-O0", "-O1"):
                for pipeline in CPP_PIPELINES:
                    slow = not (level == "-O1" and pipeline == CPP_PIPELINES[1])
                    out.append(
                        pytest.param(
                            name, target, level, pipeline, marks=[pytest.mark.slow] if slow else [],
                            id="%s-%s%s-%s" % (name, target, level, pipeline.split(",")[0]),
                        )
                    )
    return out


@pytest.mark.parametrize("name,target,level,pipeline", _cpp_params())
def test_cpp_exception_code_like_opt(name: str, target: str, level: str, pipeline: str, tmp_path: Path) -> None:
    require_tools("clang-19", "opt-19")
    src = tmp_path / "t.cpp"
    src.write_text(CPP_SOURCES[name])
    args = ["clang-19", "-x", "c++", "-fexceptions", "-fcxx-exceptions", "-S", "-emit-llvm", level,
            "-Xclang", "-disable-llvm-passes", str(src), "-o", "-"]  # fmt: skip
    if target == "msvc":
        args.insert(1, "--target=x86_64-pc-windows-msvc")
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("clang-19 cannot compile it here: " + r.stderr[:200])
    assert_same_as_opt(r.stdout, pipeline)
