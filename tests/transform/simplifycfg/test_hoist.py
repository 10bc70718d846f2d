"""SimplifyCFG's hoisting of common code from the successors of a branch or switch
(``llvmpy_mid/transform/utils/simplify_cfg_hoist.py``), against opt-19 and by refinement.

* Oracle tests: one small function per rule (hoisting with flag intersection and merged
  ``!range``; skipping a differing row; skip flags: a store skipped keeps a load, a load
  skipped keeps a store, a call that may not return keeps a ``udiv``; operands not hoisted;
  ``nomerge`` and ``convergent`` calls; identical terminators with ``<a>.<b>`` selects
  carrying ``!prof`` / ``!unpredictable`` and the phi's fast-math flags; ``ret``; switches
  with an ``unreachable`` successor; invokes; ``musttail`` mismatch; deoptimize; an
  address-taken successor; a phi value that would be undefined; debug records hoisted in
  lockstep with merged locations; the skip limit option) print what opt-19 prints, and the
  rule's mark is (or, for refusals, is not) in the output.
* Random switches whose successors share leading operations (stores among them) print the
  same results under ``lli-19`` before and after the pass, hoist into the entry block and
  give what opt-19 gives.
* Random diamonds of mixed instructions (memory, calls, fast-math, GEP flags, metadata)
  give what opt-19 gives.
* Property test: random i8 functions (two-way branches whose arms start with partly equal
  instruction sequences) are refined by the pass, and the hoisting fires in most of them.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "instcombine"))
from opt_oracle import assert_same_as_opt  # noqa: E402
from oracles import require_tools  # noqa: E402
from refinement import assert_refines, check_refines  # noqa: E402

from llvmpy_mid import parse_assembly  # noqa: E402
from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt, SimplifyCFGOptions  # noqa: E402
from llvmpy_mid.transform.utils.simplify_cfg_hoist import hoist_common_code_from_successors  # noqa: E402

PIPELINE = "simplifycfg<hoist-common-insts>"

MODULE = r"""
declare void @f0()
declare void @f1()
declare i32 @g(i32)
declare i32 @nm(i32) nomerge
declare i32 @cv(i32) convergent
declare void @may_not_return()
declare void @sink(ptr)

define i32 @basic(i1 %c, i32 %a, i32 %b, ptr %p) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = add nsw i32 %a, %b
  %l = load i32, ptr %p, align 4, !range !0
  call void @f0()
  br label %end
else:
  %y = add nuw nsw i32 %a, %b
  %m = load i32, ptr %p, align 4, !range !1
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  %s = phi i32 [ %l, %then ], [ %m, %else ]
  %t = add i32 %r, %s
  ret i32 %t
}

define i32 @skip_one(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %then, label %else
then:
  %u = mul i32 %a, 3
  %x = add i32 %a, %b
  call void @f0()
  br label %end
else:
  %v = mul i32 %b, 5
  %y = add i32 %a, %b
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  %q = phi i32 [ %u, %then ], [ %v, %else ]
  %t = add i32 %r, %q
  ret i32 %t
}

define i32 @skip_store_then_load(i1 %c, ptr %p, ptr %q) {
entry:
  br i1 %c, label %then, label %else
then:
  store i32 1, ptr %q, align 4
  %x = load i32, ptr %p, align 4
  call void @f0()
  br label %end
else:
  store i32 2, ptr %q, align 4
  %y = load i32, ptr %p, align 4
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define i32 @skip_load_then_store(i1 %c, ptr %p, ptr %q) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = load i32, ptr %q, align 4
  store i32 7, ptr %p, align 4
  call void @f0()
  br label %end
else:
  %y = load i32, ptr %p, align 4
  store i32 7, ptr %p, align 4
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define i32 @skip_call_then_udiv(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @may_not_return()
  %x = udiv i32 %a, %b
  %x2 = add i32 %a, %b
  call void @f0()
  br label %end
else:
  call void @f1()
  %y = udiv i32 %a, %b
  %y2 = add i32 %a, %b
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  %r2 = phi i32 [ %x2, %then ], [ %y2, %else ]
  %t = add i32 %r, %r2
  ret i32 %t
}

define i32 @operand_not_hoisted(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  %u = mul i32 %a, 3
  %x = add i32 %u, 1
  call void @f0()
  br label %end
else:
  %v = mul i32 %a, 5
  %y = add i32 %v, 1
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define i32 @calls(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = call i32 @g(i32 %a)
  %n1 = call i32 @nm(i32 %a)
  call void @f0()
  br label %end
else:
  %y = call i32 @g(i32 %a)
  %n2 = call i32 @nm(i32 %a)
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  %s = phi i32 [ %n1, %then ], [ %n2, %else ]
  %t = add i32 %r, %s
  ret i32 %t
}

define i32 @convergent_call(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = call i32 @cv(i32 %a)
  call void @f0()
  br label %end
else:
  %y = call i32 @cv(i32 %a)
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}

define i32 @terminators_with_selects(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %then, label %else, !prof !2
then:
  call void @f0()
  br label %end
else:
  call void @f0()
  br label %end
end:
  %r = phi i32 [ %a, %then ], [ %b, %else ]
  %s = phi i32 [ %a, %then ], [ %b, %else ]
  %k = phi i32 [ 1, %then ], [ 2, %else ]
  %u = add i32 %r, %s
  %v = add i32 %u, %k
  ret i32 %v
}

define float @fp_phi_select(i1 %c, float %a, float %b) {
entry:
  br i1 %c, label %then, label %else, !unpredictable !3
then:
  call void @f0()
  br label %end
else:
  call void @f0()
  br label %end
end:
  %r = phi nnan nsz float [ %a, %then ], [ %b, %else ]
  ret float %r
}

define i32 @rets(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = add i32 %a, 1
  ret i32 %x
else:
  %y = add i32 %a, 1
  ret i32 %y
}

define void @switch3(i32 %i, ptr %p) {
entry:
  switch i32 %i, label %d [
    i32 1, label %s1
    i32 2, label %s2
    i32 3, label %s3
  ]
d:
  store i32 0, ptr %p, align 4
  call void @f0()
  ret void
s1:
  store i32 0, ptr %p, align 4
  call void @f1()
  ret void
s2:
  store i32 0, ptr %p, align 4
  call void @f0()
  ret void
s3:
  unreachable
}

define void @switch_terms(i32 %i, ptr %p) {
entry:
  switch i32 %i, label %d [
    i32 1, label %s1
    i32 2, label %s2
  ]
d:
  call void @f0()
  ret void
s1:
  call void @f0()
  ret void
s2:
  call void @f0()
  ret void
}
!0 = !{i32 0, i32 10}
!1 = !{i32 10, i32 20}
!2 = !{!"branch_weights", i32 3, i32 5}
!3 = !{}
"""

MODULE2 = r"""
declare i32 @g2(i1, i32)
declare void @f0()
declare void @f1()
declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)
declare void @llvm.experimental.deoptimize.isVoid(...)

define i32 @musttail_mismatch(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = musttail call i32 @g2(i1 %c, i32 %a)
  ret i32 %x
else:
  %y = call i32 @g2(i1 %c, i32 %a)
  ret i32 %y
}

define void @deopt(i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  call void (...) @llvm.experimental.deoptimize.isVoid() [ "deopt"() ]
  ret void
else:
  call void (...) @llvm.experimental.deoptimize.isVoid() [ "deopt"() ]
  ret void
}

@addr = global ptr blockaddress(@address_taken, %then)
define i32 @address_taken(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = add i32 %a, 1
  call void @f0()
  ret i32 %x
else:
  %y = add i32 %a, 1
  call void @f1()
  ret i32 %y
}

define i32 @undef_value_no_select(i1 %c, i32 %a, ptr %p) {
entry:
  br i1 %c, label %then, label %else
then:
  call void @f0()
  br label %end
else:
  call void @f0()
  br label %end
end:
  %q = phi ptr [ %p, %then ], [ null, %else ]
  %v = load i32, ptr %q, align 4
  ret i32 %v
}
"""

INVOKE_MODULE = r"""
declare void @f0()
declare void @f1()
declare void @v(i32)
declare i32 @__gxx_personality_v0(...)
define void @invoke_void(i1 %c, i32 %a) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %then, label %else
then:
  invoke void @v(i32 %a) to label %cont unwind label %lpad
else:
  invoke void @v(i32 %a) to label %cont unwind label %lpad
cont:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @f1()
  resume { ptr, i32 } %lp
}
"""

DBG_MODULE = r"""
declare void @f0()
declare void @f1()
define i32 @dbg(i1 %c, i32 %a, i32 %b) !dbg !4 {
entry:
  br i1 %c, label %then, label %else
then:
    #dbg_value(i32 %a, !7, !DIExpression(), !11)
    #dbg_value(i32 %b, !8, !DIExpression(), !11)
  %x = add i32 %a, %b, !dbg !11
    #dbg_value(i32 %x, !7, !DIExpression(), !11)
  %u = mul i32 %a, 3, !dbg !11
  call void @f0(), !dbg !11
  br label %end, !dbg !11
else:
    #dbg_value(i32 %a, !7, !DIExpression(), !12)
    #dbg_value(i32 %a, !8, !DIExpression(), !12)
  %y = add i32 %a, %b, !dbg !12
    #dbg_value(i32 %y, !7, !DIExpression(), !12)
  %v = mul i32 %a, 3, !dbg !13
  call void @f1(), !dbg !12
  br label %end, !dbg !12
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  %s = phi i32 [ %u, %then ], [ %v, %else ]
  %t = add i32 %r, %s
  ret i32 %t
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "t.c", directory: "/")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "dbg", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DILocalVariable(name: "a", scope: !4, file: !1, line: 1, type: !9)
!8 = !DILocalVariable(name: "b", scope: !4, file: !1, line: 1, type: !9)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !DILocation(line: 2, column: 3, scope: !4)
!12 = !DILocation(line: 3, column: 5, scope: !4)
!13 = !DILocation(line: 2, column: 7, scope: !4)
"""


def _split(text: str) -> dict[str, str]:
    """One module per function: the function with every declaration, global and metadata line."""
    decls = [line for line in text.splitlines() if line.startswith("declare")]
    globs = [line for line in text.splitlines() if line.startswith("@")]
    meta = [line for line in text.splitlines() if line.startswith("!")]
    out: dict[str, str] = {}
    for m in re.finditer(r"(define [^@]*@(\w+)\(.*?\n}\n)", text, re.S):
        head = decls + [g for g in globs if "@%s," % m.group(2) in g]
        out[m.group(2)] = "\n".join(head) + "\n\n" + m.group(1) + "\n" + "\n".join(meta) + "\n"
    return out


FUNCTIONS = {**_split(MODULE), **_split(MODULE2)}

# What the output must contain: the rule fired (or, for refusals, the code stayed put).
MARKS: dict[str, list[str]] = {
    "basic": ["entry:\n  %x = add nsw i32 %a, %b\n  %l = load i32, ptr %p, align 4, !range !0", "!0 = !{i32 0, i32 20}"],
    "skip_one": ["entry:\n  %x = add i32 %a, %b\n  br i1"],
    "skip_store_then_load": ["then:", "%x = load i32, ptr %p"],
    "skip_load_then_store": ["then:", "store i32 7, ptr %p, align 4\n  call void @f0()"],
    "skip_call_then_udiv": ["entry:\n  %x2 = add i32 %a, %b", "  %x = udiv i32 %a, %b\n  call void @f0()"],
    "operand_not_hoisted": ["then:", "%x = add i32 %u, 1"],
    "calls": ["entry:\n  %x = call i32 @g(i32 %a)", "%n1 = call i32 @nm(i32 %a)\n  call void @f0()"],
    "convergent_call": ["then:", "%x = call i32 @cv(i32 %a)"],
    "terminators_with_selects": ["%a.b = select i1 %c, i32 %a, i32 %b, !prof !", "%. = select i1 %c, i32 1, i32 2"],
    "fp_phi_select": ["%a.b = select nnan nsz i1 %c, float %a, float %b, !unpredictable !"],
    "rets": ["entry:\n  %x = add i32 %a, 1\n  ret i32 %x\n}"],
    "switch3": ["entry:\n  store i32 0, ptr %p, align 4\n  switch"],
    "switch_terms": ["entry:\n  call void @f0()\n  ret void\n}"],
    "musttail_mismatch": ["then:", "musttail call"],
    "deopt": ["then:", "@llvm.experimental.deoptimize.isVoid()"],
    "address_taken": ["then:", "%x = add i32 %a, 1"],
    "undef_value_no_select": ["call void @llvm.assume(i1 %c)"],
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_hoist_rule_like_opt(name: str) -> None:
    got = assert_same_as_opt(FUNCTIONS[name], PIPELINE)
    for mark in MARKS[name]:
        assert mark in got, mark


def test_hoist_invoke_like_opt() -> None:
    got = assert_same_as_opt(INVOKE_MODULE, PIPELINE)
    assert "entry:\n  invoke void @v(i32 %a)" in got


def test_hoist_debug_records_like_opt() -> None:
    got = assert_same_as_opt(DBG_MODULE, PIPELINE)
    # The identical records hoist in pairs; the differing second row stays behind.
    assert got.count("#dbg_value(i32 %x, !7") == 2
    assert "then:" in got and "#dbg_value(i32 %b," in got


TBAA_MODULE = r"""
declare void @f0()
declare void @f1()
define i32 @tbaa(i1 %c, ptr %p) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = load i32, ptr %p, align 4, !tbaa !1
  call void @f0()
  br label %end
else:
  %y = load i32, ptr %p, align 4, !tbaa !4
  call void @f1()
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}
!0 = !{!"root"}
!1 = !{!2, !2, i64 0}
!2 = !{!"int", !3, i64 0}
!3 = !{!"char", !0, i64 0}
!4 = !{!5, !5, i64 0}
!5 = !{!"long", !3, i64 0}
"""


def test_hoisted_load_keeps_most_generic_tbaa_like_opt() -> None:
    got = assert_same_as_opt(TBAA_MODULE, PIPELINE)
    assert "entry:\n  %x = load i32, ptr %p, align 4, !tbaa !0" in got
    assert '!1 = !{!"char", !2, i64 0}' in got


def test_eq_terms_only_without_hoist_common_insts() -> None:
    """Without ``hoist-common-insts`` only blocks that hold just their terminator are hoisted."""
    got = assert_same_as_opt(FUNCTIONS["basic"], "simplifycfg<no-hoist-common-insts>")
    assert "!1 = !{i32 10, i32 20}" in got
    assert_same_as_opt(FUNCTIONS["terminators_with_selects"], "simplifycfg<no-hoist-common-insts>")


@pytest.mark.parametrize("limit", [0, 1])
def test_skip_limit_option(limit: int) -> None:
    got = assert_same_as_opt(FUNCTIONS["skip_one"], PIPELINE, {"simplifycfg-hoist-common-skip-limit": limit})
    assert ("entry:\n  %x = add i32 %a, %b" in got) == (limit > 0)


def test_hoist_common_option_off() -> None:
    got = assert_same_as_opt(FUNCTIONS["basic"], PIPELINE, {"simplifycfg-hoist-common": False})
    assert "!1 = !{i32 10, i32 20}" in got


# --- property test: random i8 functions are refined ----------------------------------------------

_OPS = ["add", "sub", "mul", "xor", "and", "or", "shl", "lshr", "ashr", "udiv", "urem"]
_FLAGS = {"add": ["nuw ", "nsw "], "sub": ["nuw ", "nsw "], "mul": ["nuw ", "nsw "], "shl": ["nuw ", "nsw "],
          "lshr": ["exact "], "ashr": ["exact "], "udiv": ["exact "]}  # fmt: skip


def _op(rng: random.Random, values: list[str]) -> tuple[str, str, str, str]:
    op = rng.choice(_OPS)
    flags = "".join(f for f in _FLAGS.get(op, []) if rng.random() < 0.3)
    a = rng.choice(values)
    b = rng.choice(values + [str(rng.randint(1, 7))])
    return op, flags, a, b


def _random_function(rng: random.Random) -> str:
    """``@f(i8 %x, i8 %y, i8 %z)``: a branch whose two arms start with the same operations
    (their flags may differ), with differing rows in between, then join in a phi or return."""
    n_common = rng.randint(1, 4)
    common = []
    for k in range(n_common):
        common.append(_op(rng, ["%x", "%y", "%z"] + ["%%{arm}%d" % j for j in range(k)]))
    lines = ["define i8 @f(i8 %x, i8 %y, i8 %z) {", "entry:"]
    lines.append("  %%c = icmp %s i8 %%x, %d" % (rng.choice(["ult", "sgt", "eq"]), rng.randint(0, 255)))
    lines.append("  br i1 %c, label %a, label %b")
    ret_in_arm = rng.random() < 0.3
    lasts = []
    for arm in ("a", "b"):
        lines.append(arm + ":")
        extra = 0
        for k, (op, flags, x, y) in enumerate(common):
            if rng.random() < 0.3:
                eop, _, ex, ey = _op(rng, ["%x", "%y", "%z"])
                lines.append("  %%%s.extra%d = %s i8 %s, %s" % (arm, extra, eop, ex, ey))
                extra += 1
            if rng.random() < 0.5:
                flags = "".join(f for f in _FLAGS.get(op, []) if rng.random() < 0.5)
            lines.append("  %%%s%d = %s %si8 %s, %s" % (arm, k, op, flags, x.format(arm=arm), y.format(arm=arm)))
        last = "%%%s%d" % (arm, n_common - 1)
        if extra:
            lines.append("  %%%s.sum = add i8 %s, %%%s.extra0" % (arm, last, arm))
            last = "%%%s.sum" % arm
        lasts.append(last)
        lines.append("  ret i8 %s" % last if ret_in_arm else "  br label %end")
    if not ret_in_arm:
        lines.append("end:")
        lines.append("  %%r = phi i8 [ %s, %%a ], [ %s, %%b ]" % tuple(lasts))
        lines.append("  ret i8 %r")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 15 else []) for s in range(60)])
def test_random_functions_are_refined(seed: int) -> None:
    text = _random_function(random.Random(seed))
    orig, out = check_refines(text, PIPELINE, max_inputs=512, seed=seed)
    assert out.get_function("f") is not None


def test_random_functions_mostly_hoist() -> None:
    """The hoisting itself fires on most random functions (so the refinement test tests it)."""
    fired = 0
    for seed in range(30):
        module = parse_assembly(_random_function(random.Random(seed)))
        fn = module.get_function("f")
        assert fn is not None
        opt = SimplifyCFGOpt(None, module.data_layout, set(), SimplifyCFGOptions(hoist_common_insts=True))
        before = parse_assembly(_random_function(random.Random(seed))).get_function("f")
        assert before is not None
        if hoist_common_code_from_successors(opt, fn.entry_block, False):
            fired += 1
            assert_refines(before, fn, max_inputs=256, seed=seed)
    assert fired >= 15


# --- property test: random switches under lli-19 -------------------------------------------------

_SW_OPS = ["add", "sub", "mul", "xor", "and", "or", "shl", "lshr"]


def _random_switch_function(rng: random.Random) -> str:
    """``@f(i8 %x)``: a switch on ``%x`` whose 3-4 successors start with the same
    operations on ``%x`` (stores to a global among them), with differing rows in
    between, then return or join in a phi (the global's value is part of the result)."""
    n_succ = rng.randint(3, 4)
    common = []
    for k in range(rng.randint(1, 4)):
        if rng.random() < 0.2:
            common.append(("store", "", "", ""))
            continue
        x = rng.choice(["%x32"] + ["%%{arm}%d" % j for j in range(k) if common[j][0] != "store"])
        op = rng.choice(_SW_OPS)
        flags = rng.choice(["", "nuw ", "nsw "]) if op in ("add", "sub", "mul", "shl") else ""
        common.append((op, flags, x, str(rng.randint(1, 9))))
    cases = rng.sample(range(-20, 20), n_succ - 1)
    join = rng.random() < 0.5
    lines = ["@g = global i32 0", "define i32 @f(i8 %x) {", "entry:", "  %x32 = sext i8 %x to i32"]
    lines.append("  switch i8 %%x, label %%s0 [ %s ]" % " ".join("i8 %d, label %%s%d" % (c, i + 1) for i, c in enumerate(cases)))
    lasts = []
    extra_rows = [rng.random() < 0.3 for _ in common]
    for s in range(n_succ):
        arm = "s%d" % s
        lines.append(arm + ":")
        last = "%x32"
        for k, (op, flags, x, y) in enumerate(common):
            if extra_rows[k]:
                lines.append("  %%%s.extra%d = mul i32 %%x32, %d" % (arm, k, s + 2))
            if op == "store":
                lines.append("  store i32 %s, ptr @g, align 4" % last)
                continue
            name = "%%%s%d" % (arm, k)
            lines.append("  %s = %s %si32 %s, %s" % (name, op, flags, x.format(arm=arm), y))
            last = name
        lasts.append(last)
        if join:
            lines.append("  br label %join")
        else:
            lines.append("  %%%s.g = load i32, ptr @g, align 4" % arm)
            lines.append("  %%%s.r = add i32 %s, %%%s.g" % (arm, last, arm))
            lines.append("  ret i32 %%%s.r" % arm)
    if join:
        lines.append("join:")
        lines.append("  %%r = phi i32 %s" % ", ".join("[ %s, %%s%d ]" % (v, s) for s, v in enumerate(lasts)))
        lines.append("  %gl = load i32, ptr @g, align 4")
        lines.append("  %rg = add i32 %r, %gl")
        lines.append("  ret i32 %rg")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 4 else []) for s in range(30)])
def test_random_switches_keep_their_results_under_lli(seed: int, tmp_path: Path) -> None:
    require_tools("lli-19")
    from switch_gen import check_same_under_lli

    text = _random_switch_function(random.Random(seed))
    after = check_same_under_lli(text, list(range(-24, 24)), PIPELINE, tmp_path)
    entry = after.split("entry:")[1].split("\ns")[0]
    assert entry.count("\n") > 2, "nothing hoisted into the entry block"
    assert_same_as_opt(text, PIPELINE)


# --- random diamonds of mixed instructions against opt-19 ----------------------------------------

_RICH_DECLS = """declare void @f(i32)
declare i32 @pure(i32) readnone nounwind willreturn
declare i32 @mayret(i32)
declare void @nm(i32) nomerge
declare float @llvm.fabs.f32(float)
"""

_RICH_KINDS = ["load", "store", "call", "pure", "fadd", "gep", "icmp", "add", "udiv", "vload", "fabs", "nm", "mayret"]


def _rich_inst(rng: random.Random, name: str, vals: list[str], fvals: list[str]) -> tuple[str, str]:
    """One instruction (text, kind of value it defines: i32 ``i``, float ``f`` or none)."""
    kind = rng.choice(_RICH_KINDS)
    x = rng.choice(vals)
    if kind == "load":
        md = rng.choice(["", ", !range !0", ", !range !1", ", !noundef !2"])
        return "  %s = load i32, ptr %%p, align %d%s" % (name, rng.choice([4, 8]), md), "i"
    if kind == "vload":
        return "  %s = load volatile i32, ptr %%q, align 4" % name, "i"
    if kind == "store":
        return "  store i32 %s, ptr %%q, align 4" % x, ""
    if kind in ("call", "nm"):
        return "  call void @%s(i32 %s)" % ("f" if kind == "call" else "nm", x), ""
    if kind in ("pure", "mayret"):
        return "  %s = call i32 @%s(i32 %s)" % (name, kind, x), "i"
    if kind == "fadd":
        return "  %s = fadd %sfloat %s, 1.0" % (name, rng.choice(["", "fast ", "nnan ", "nsz "]), rng.choice(fvals)), "f"
    if kind == "fabs":
        return "  %s = call float @llvm.fabs.f32(float %s)" % (name, rng.choice(fvals)), "f"
    if kind == "gep":
        return "  %s = getelementptr %si32, ptr %%p, i32 %s" % (name, rng.choice(["", "inbounds ", "nuw "]), x), ""
    if kind == "icmp":
        return "  %s = icmp slt i32 %s, 7" % (name, x), ""
    if kind == "add":
        return "  %s = add %si32 %s, 3" % (name, rng.choice(["", "nuw ", "nsw "]), x), "i"
    return "  %s = udiv i32 %s, %s" % (name, x, rng.choice(["7", "%b"])), "i"


def _random_rich_function(rng: random.Random) -> str:
    """A diamond whose arms run the same random rows (loads with metadata, volatile loads,
    stores, calls that may not return, ``nomerge`` calls, fast-math, GEP flags, division),
    some rows differing between the arms."""
    plans = [(rng.random() < 0.3, rng.randrange(1 << 30), rng.randrange(1 << 30)) for _ in range(rng.randint(1, 5))]
    lines = [_RICH_DECLS, "define i32 @t(i1 %c, i32 %a, i32 %b, float %x, ptr %p, ptr %q) {", "entry:"]
    lines.append("  br i1 %c, label %A, label %B")
    lasts = []
    for arm in ("A", "B"):
        lines.append(arm + ":")
        vals = ["%a", "%b"]
        fvals = ["%x"]
        for k, (differ, s1, s2) in enumerate(plans):
            name = "%%%s%d" % (arm, k)
            text, ty = _rich_inst(random.Random(s2 if differ and arm == "B" else s1), name, vals, fvals)
            lines.append(text)
            if ty == "i":
                vals.append(name)
            elif ty == "f":
                fvals.append(name)
        lasts.append(vals[-1])
        lines.append("  br label %end")
    lines += ["end:", "  %%r = phi i32 [ %s, %%A ], [ %s, %%B ]" % tuple(lasts), "  ret i32 %r", "}"]
    lines.append("!0 = !{i32 0, i32 10}\n!1 = !{i32 5, i32 20}\n!2 = !{}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 15 else []) for s in range(100)])
def test_random_mixed_diamonds_like_opt(seed: int) -> None:
    assert_same_as_opt(_random_rich_function(random.Random(seed)), PIPELINE)
