"""SimplifyCFG's conditional-branch-to-conditional-branch family
(``llvmpy_mid/transform/utils/simplify_cfg_branch_fold_cond.py``) against opt-19.

Each rule has a small function run through ``simplifycfg`` by opt-19 and by us; the
printed modules must agree, and a marker of the rule (``brmerge``, ``.mux``,
``infloop``, ``condstore.split``, ...) must show that the rule fired (or, for the
refusals, that it did not). Most cases use ``simplifycfg<no-speculate-blocks>`` so
that if-conversion (another family) does not hide this family's work. A property
test runs random chains of conditional stores and nested branches under ``lli-19``
before and after our pass, and the exhaustive i8 evaluator checks the pure
branch folds.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "instcombine"))

from opt_oracle import assert_same_as_opt, ours_text  # noqa: E402
from oracles import lli_output, require_tools  # noqa: E402
from refinement import check_refines  # noqa: E402

NO_SPEC = "simplifycfg<no-speculate-blocks>"

# --- SimplifyCondBranchToCondBranch ---------------------------------------------------------

SAME_COND = """
define i32 @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %c, label %x, label %y
b:
  ret i32 0
x:
  call void @g()
  ret i32 1
y:
  call void @g()
  ret i32 2
}
declare void @g()
"""

BRMERGE_SELECT = """
define i32 @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %common, label %mid
mid:
  br i1 %d, label %common, label %other
common:
  call void @g()
  ret i32 1
other:
  call void @g()
  ret i32 2
}
declare void @g()
"""

BRMERGE_OR = """
define i32 @f(i1 %a, i1 %b) {
entry:
  %pc = and i1 %a, %b
  br i1 %pc, label %common, label %mid
mid:
  br i1 %a, label %common, label %other
common:
  call void @g()
  ret i32 1
other:
  call void @g()
  ret i32 2
}
declare void @g()
"""

BRMERGE_NOT = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  %d = icmp ult i32 %y, 7
  br i1 %c, label %mid, label %common
mid:
  br i1 %d, label %other, label %common
common:
  call void @g()
  ret i32 1
other:
  call void @g()
  ret i32 2
}
declare void @g()
"""

MUX_WEIGHTS = """
define i32 @f(i1 %c, i1 %d, i32 %v) {
entry:
  br i1 %c, label %common, label %mid, !prof !0
mid:
  br i1 %d, label %other, label %common, !prof !1
common:
  %p = phi i32 [ %v, %entry ], [ 5, %mid ]
  %q = phi i32 [ 1, %entry ], [ 1, %mid ]
  call void @g()
  ret i32 %p
other:
  %r = phi i32 [ 9, %mid ]
  call void @g()
  ret i32 %r
}
declare void @g()
!0 = !{!"branch_weights", i32 3, i32 5}
!1 = !{!"branch_weights", i32 7, i32 11}
"""

ONE_SIDED_WEIGHTS = """
define i32 @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %mid, label %common
mid:
  br i1 %d, label %common, label %other, !prof !0
common:
  %p = phi i32 [ 0, %entry ], [ 4, %mid ]
  call void @g()
  ret i32 %p
other:
  call void @g()
  ret i32 2
}
declare void @g()
!0 = !{!"branch_weights", i32 4000000000, i32 3000000000}
"""

INFLOOP = """
define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %exit, label %loop
loop:
  br i1 %d, label %exit, label %loop
exit:
  call void @g()
  ret void
}
declare void @g()
"""

PREDICTABLE = """
define i32 @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %common, label %mid, !prof !0
mid:
  br i1 %d, label %common, label %other
common:
  call void @g()
  ret i32 1
other:
  call void @g()
  ret i32 2
}
declare void @g()
!0 = !{!"branch_weights", i32 1000, i32 1}
"""

UNPREDICTABLE = PREDICTABLE.replace("!prof !0\n", "!prof !0, !unpredictable !1\n") + "!1 = !{}\n"

FOUR_PHIS = """
define i32 @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %common, label %mid
mid:
  br i1 %d, label %common, label %other
common:
  %p1 = phi i32 [ 1, %entry ], [ 2, %mid ]
  %p2 = phi i32 [ 3, %entry ], [ 4, %mid ]
  %p3 = phi i32 [ 5, %entry ], [ 6, %mid ]
  %p4 = phi i32 [ 7, %entry ], [ 8, %mid ]
  %s1 = add i32 %p1, %p2
  %s2 = add i32 %p3, %p4
  %s = add i32 %s1, %s2
  call void @g()
  ret i32 %s
other:
  call void @g()
  ret i32 2
}
declare void @g()
"""

WIDENABLE = """
define i32 @f(i1 %c, i1 %d) {
entry:
  %wc = call i1 @llvm.experimental.widenable.condition()
  %g = and i1 %c, %wc
  br i1 %g, label %guarded, label %deopt
deopt:
  %r0 = call i32 (...) @llvm.experimental.deoptimize.i32() [ "deopt"() ]
  ret i32 %r0
guarded:
  br i1 %d, label %ok, label %deopt2
deopt2:
  %r1 = call i32 (...) @llvm.experimental.deoptimize.i32() [ "deopt"() ]
  ret i32 %r1
ok:
  ret i32 0
}
declare i1 @llvm.experimental.widenable.condition()
declare i32 @llvm.experimental.deoptimize.i32(...)
"""

WIDENABLE_FIRST = WIDENABLE.replace("br i1 %d, label %ok, label %deopt2", "br i1 %d, label %deopt2, label %ok")

WIDENABLE_ALONE = WIDENABLE.replace("  %g = and i1 %c, %wc\n  br i1 %g,", "  br i1 %wc,")

WIDENABLE_SIDE_EFFECT = WIDENABLE.replace("guarded:\n", "guarded:\n  store i32 1, ptr @q, align 4\n") + "@q = global i32 0\n"

# --- mergeConditionalStores -------------------------------------------------------------------

STORES_DIAMONDS = """
define void @f(i32 %a, i32 %b, ptr %p) {
entry:
  %c1 = icmp eq i32 %a, 0
  br i1 %c1, label %pt, label %pf
pt:
  %x = add i32 %a, 1
  store i32 %x, ptr %p, align 8, !tbaa !0
  br label %mid
pf:
  br label %mid
mid:
  %c2 = icmp eq i32 %b, 0
  br i1 %c2, label %qf, label %post
qf:
  store i32 %b, ptr %p, align 4, !tbaa !0
  br label %post
post:
  ret void
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
"""

STORES_TRIANGLES = """
define void @f(i32 %a, i32 %b, ptr %p) {
entry:
  %c1 = icmp ult i32 %a, 10
  br i1 %c1, label %mid, label %pf
pf:
  %x = shl i32 %a, 2
  store i32 %x, ptr %p, align 4
  br label %mid
mid:
  %c2 = icmp ugt i32 %b, 3
  br i1 %c2, label %post, label %qf
qf:
  %y = add i32 %b, %a
  store i32 %y, ptr %p, align 4
  br label %post
post:
  ret void
}
"""

STORES_SPLIT = """
define void @f(i32 %a, i32 %b, i1 %e, ptr %p) {
entry:
  br i1 %e, label %start, label %post
start:
  %c1 = icmp eq i32 %a, 0
  br i1 %c1, label %pt, label %mid
pt:
  store i32 %a, ptr %p, align 4
  br label %mid
mid:
  %c2 = icmp eq i32 %b, 0
  br i1 %c2, label %qt, label %qf
qt:
  store i32 1, ptr %p, align 4
  br label %post
qf:
  %z = add i32 %a, 5
  br label %post
post:
  %r = phi i32 [ 0, %entry ], [ 1, %qt ], [ %z, %qf ]
  call void @use(i32 %r)
  ret void
}
declare void @use(i32)
"""

STORES_NOT_WORTHWHILE = """
define void @f(i32 %a, i32 %b, ptr %p) {
entry:
  %c1 = icmp eq i32 %a, 0
  br i1 %c1, label %pt, label %mid
pt:
  %x = load i32, ptr @q, align 4
  %y = add i32 %x, 1
  store i32 %y, ptr %p, align 4
  br label %mid
mid:
  %c2 = icmp eq i32 %b, 0
  br i1 %c2, label %qt, label %post
qt:
  store i32 %b, ptr %p, align 4
  br label %post
post:
  ret void
}
@q = global i32 0
"""

STORES_BUDGET = """
define void @f(i32 %a, i32 %b, ptr %p) {
entry:
  %c1 = icmp eq i32 %a, 0
  br i1 %c1, label %pt, label %mid
pt:
  %x1 = add i32 %a, 1
  %x2 = mul i32 %x1, %b
  %x3 = xor i32 %x2, 5
  store i32 %x3, ptr %p, align 4
  br label %mid
mid:
  %c2 = icmp eq i32 %b, 0
  br i1 %c2, label %qt, label %post
qt:
  store i32 %b, ptr %p, align 4
  br label %post
post:
  ret void
}
"""

STORES_GEPS = """
define void @f(i32 %a, i64 %i, ptr %p) {
entry:
  %c1 = icmp eq i32 %a, 0
  br i1 %c1, label %pt, label %mid
pt:
  %g1 = getelementptr inbounds i8, ptr %p, i64 4
  %g2 = getelementptr inbounds i32, ptr %g1, i64 %i
  %x = add i32 %a, 3
  store i32 %x, ptr %p, align 4
  store i32 %x, ptr %g2, align 4
  br label %mid
mid:
  %c2 = icmp sgt i64 %i, 0
  br i1 %c2, label %qt, label %post
qt:
  %y = getelementptr i32, ptr %p, i64 %i
  %z = trunc i64 %i to i32
  store i32 %z, ptr %p, align 4
  br label %post
post:
  ret void
}
"""

STORES_ONE_GEP = STORES_GEPS.replace("  store i32 %x, ptr %g2, align 4\n", "").replace("  %z = trunc i64 %i to i32\n  store i32 %z", "  store i32 7")

STORES_VOLATILE = STORES_TRIANGLES.replace("store i32 %x, ptr %p", "store volatile i32 %x, ptr %p")

# --- mergeNestedCondBranch --------------------------------------------------------------------

NESTED = """
define i32 @f(i1 %c1, i1 %c2) {
entry:
  br i1 %c1, label %bb1, label %bb2, !prof !0
bb1:
  br i1 %c2, label %bb3, label %bb4, !prof !1
bb2:
  br i1 %c2, label %bb4, label %bb3
bb3:
  call void @g()
  ret i32 3
bb4:
  call void @g()
  ret i32 4
}
declare void @g()
!0 = !{!"branch_weights", i32 2, i32 3}
!1 = !{!"branch_weights", i32 5, i32 7}
"""

NESTED_PHI = """
define i32 @f(i1 %c1, i1 %c2) {
entry:
  br i1 %c1, label %bb1, label %bb2
bb1:
  br i1 %c2, label %bb3, label %bb4
bb2:
  br i1 %c2, label %bb4, label %bb3
bb3:
  %r = phi i32 [ 1, %bb1 ], [ 2, %bb2 ]
  call void @g()
  ret i32 %r
bb4:
  call void @g()
  ret i32 4
}
declare void @g()
"""

DEBUG_AND_TBAA = """
define i32 @f(i1 %c, i1 %d, i32 %v, ptr %p, i32 %a, i32 %b) !dbg !5 {
entry:
  br i1 %c, label %common, label %mid, !dbg !10
mid:
  br i1 %d, label %other, label %common, !dbg !11
common:
  %q = phi i32 [ %v, %entry ], [ 5, %mid ], !dbg !12
  %c1 = icmp eq i32 %a, 0, !dbg !12
  br i1 %c1, label %pt, label %pf, !dbg !12
pt:
  store i32 %a, ptr %p, align 4, !dbg !13, !tbaa !20
  br label %m2, !dbg !13
pf:
  br label %m2, !dbg !13
m2:
  %c2 = icmp eq i32 %b, 0, !dbg !14
  br i1 %c2, label %qt, label %post, !dbg !14
qt:
  store i32 %b, ptr %p, align 2, !dbg !15, !tbaa !21
  br label %post, !dbg !15
post:
  ret i32 %q, !dbg !16
other:
  ret i32 9, !dbg !16
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 2, column: 1, scope: !5)
!11 = !DILocation(line: 3, column: 1, scope: !5)
!12 = !DILocation(line: 4, column: 1, scope: !5)
!13 = !DILocation(line: 5, column: 1, scope: !5)
!14 = !DILocation(line: 6, column: 1, scope: !5)
!15 = !DILocation(line: 7, column: 1, scope: !5)
!16 = !DILocation(line: 8, column: 1, scope: !5)
!20 = !{!22, !22, i64 0}
!21 = !{!23, !23, i64 0}
!22 = !{!"int", !24, i64 0}
!23 = !{!"short", !24, i64 0}
!24 = !{!"omnipotent char", !25, i64 0}
!25 = !{!"Simple C/C++ TBAA"}
"""

DEBUG_RECORDS = """
define void @f(i32 %a, i32 %b, ptr %p) !dbg !5 {
entry:
  %c1 = icmp eq i32 %a, 0, !dbg !10
    #dbg_value(i32 %a, !30, !DIExpression(), !10)
  br i1 %c1, label %pt, label %mid, !dbg !10
pt:
    #dbg_value(i32 1, !30, !DIExpression(), !13)
  store i32 %a, ptr %p, align 4, !dbg !13
    #dbg_value(i32 2, !30, !DIExpression(), !13)
  br label %mid, !dbg !13
mid:
  %c2 = icmp eq i32 %b, 0, !dbg !14
  br i1 %c2, label %qt, label %post, !dbg !14
qt:
  store i32 %b, ptr %p, align 4, !dbg !15
    #dbg_value(i32 3, !30, !DIExpression(), !15)
  br label %post, !dbg !15
post:
    #dbg_value(i32 4, !30, !DIExpression(), !16)
  ret void, !dbg !16
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, unit: !0, retainedNodes: !7)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 2, column: 1, scope: !5)
!13 = !DILocation(line: 5, column: 1, scope: !5)
!14 = !DILocation(line: 6, column: 1, scope: !5)
!15 = !DILocation(line: 7, column: 1, scope: !5)
!16 = !DILocation(line: 8, column: 1, scope: !5)
!30 = !DILocalVariable(name: "v", scope: !5, file: !1, line: 1, type: !31)
!31 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
"""

CASES = [
    # (id, text, pipeline, options, marker that must be present (or absent with a leading "!"))
    ("same-cond", SAME_COND, NO_SPEC, None, "!br i1 %c, label %a"),
    ("brmerge-select", BRMERGE_SELECT, NO_SPEC, None, "%brmerge = select i1 %c, i1 true, i1 %d"),
    ("brmerge-select-default", BRMERGE_SELECT, "simplifycfg", None, "brmerge"),
    ("brmerge-or", BRMERGE_OR, NO_SPEC, None, "%brmerge = or i1 %pc, %a"),
    ("brmerge-not", BRMERGE_NOT, NO_SPEC, None, "%c.not = xor i1 %c, true"),
    ("mux-weights", MUX_WEIGHTS, NO_SPEC, None, ".mux = select"),
    ("one-sided-weights", ONE_SIDED_WEIGHTS, NO_SPEC, None, ".mux = select"),
    ("infloop", INFLOOP, NO_SPEC, None, "infloop:"),
    ("predictable", PREDICTABLE, NO_SPEC, None, "!brmerge"),
    ("unpredictable", UNPREDICTABLE, NO_SPEC, None, "brmerge"),
    ("four-phis", FOUR_PHIS, NO_SPEC, None, "!brmerge"),
    ("widenable", WIDENABLE, NO_SPEC, None, "!deopt2:"),
    ("widenable-first", WIDENABLE_FIRST, NO_SPEC, None, "!deopt2:"),
    ("widenable-alone", WIDENABLE_ALONE, NO_SPEC, None, "!deopt2:"),
    ("widenable-side-effect", WIDENABLE_SIDE_EFFECT, NO_SPEC, None, "deopt2:"),
    ("stores-diamonds", STORES_DIAMONDS, NO_SPEC, None, "simplifycfg.merge"),
    ("stores-triangles", STORES_TRIANGLES, NO_SPEC, None, "store i32 %simplifycfg.merge"),
    ("stores-split", STORES_SPLIT, NO_SPEC, None, "condstore.split"),
    ("stores-not-worthwhile", STORES_NOT_WORTHWHILE, NO_SPEC, None, "!simplifycfg.merge"),
    (
        "stores-aggressive",
        STORES_NOT_WORTHWHILE,
        NO_SPEC,
        {"simplifycfg-merge-cond-stores-aggressively": True},
        "simplifycfg.merge",
    ),
    ("stores-budget", STORES_BUDGET, NO_SPEC, None, "!simplifycfg.merge"),
    ("stores-budget-raised", STORES_BUDGET, NO_SPEC, {"phi-node-folding-threshold": 4}, "simplifycfg.merge"),
    ("stores-off", STORES_TRIANGLES, NO_SPEC, {"simplifycfg-merge-cond-stores": False}, "!simplifycfg.merge"),
    ("stores-volatile", STORES_VOLATILE, NO_SPEC, None, "!simplifycfg.merge"),
    ("stores-two-in-block", STORES_GEPS, NO_SPEC, None, "!simplifycfg.merge"),
    ("stores-geps", STORES_ONE_GEP, NO_SPEC, None, "!simplifycfg.merge"),
    ("stores-geps-threshold-1", STORES_ONE_GEP, NO_SPEC, {"phi-node-folding-threshold": 1}, "!simplifycfg.merge"),
    ("stores-geps-threshold-3", STORES_ONE_GEP, NO_SPEC, {"phi-node-folding-threshold": 3}, "simplifycfg.merge"),
    ("nested", NESTED, NO_SPEC, None, "xor i1 %c1, %c2"),
    ("debug-records", DEBUG_RECORDS, NO_SPEC, None, "simplifycfg.merge"),
    ("debug-records-default", DEBUG_RECORDS, "simplifycfg", None, "#dbg_value(i32 4"),
    ("debug-and-tbaa", DEBUG_AND_TBAA, NO_SPEC, None, "ptr %p, align 2, !dbg !10, !tbaa !11"),
    ("debug-and-tbaa-default", DEBUG_AND_TBAA, "simplifycfg", None, "%v.mux = select i1 %c, i32 %v, i32 5, !dbg !6"),
    ("nested-phi", NESTED_PHI, NO_SPEC, None, "!xor i1 %c1, %c2"),
]


@pytest.mark.parametrize("text,pipeline,options,marker", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_like_opt(text: str, pipeline: str, options: dict[str, object] | None, marker: str) -> None:
    got = assert_same_as_opt(text, pipeline, options)
    if marker.startswith("!"):
        assert marker[1:] not in got
    elif marker:
        assert marker in got


# --- property: random programs under lli-19 ---------------------------------------------------


def _random_function(rng: random.Random, name: str) -> str:
    """A chain of diamonds and triangles storing to two globals, with nested
    branches on shared conditions, returning a value built along the way."""
    lines = ["define internal i32 @%s(i32 %%a, i32 %%b) {" % name, "entry:"]
    conds = []
    for i in range(3):
        pred = rng.choice(["eq", "ne", "ult", "sgt", "ule"])
        lhs = rng.choice(["%a", "%b"])
        lines.append("  %%k%d = icmp %s i32 %s, %d" % (i, pred, lhs, rng.randrange(-3, 8)))
        conds.append("%%k%d" % i)
    cur = "entry"
    n = rng.randrange(2, 5)
    for i in range(n):
        c = rng.choice(conds)
        g = rng.choice(["@g0", "@g1"])
        then_b, else_b, join = "t%d" % i, "e%d" % i, "j%d" % i
        shape = rng.choice(["diamond", "triangle", "triangle-f", "nested"])
        val = rng.choice(["%a", "%b", "%%d%d" % (i - 1) if i else "%a"])
        if shape == "nested":
            c2 = rng.choice(conds)
            lines += [
                "  br i1 %s, label %%%s, label %%%s" % (c, then_b, else_b),
                "%s:" % then_b,
                "  br i1 %s, label %%x%d, label %%y%d" % (c2, i, i),
                "%s:" % else_b,
                "  br i1 %s, label %%y%d, label %%x%d" % (c2, i, i),
                "x%d:" % i,
                "  store i32 %d, ptr %s, align 4" % (rng.randrange(100), g),
                "  br label %%%s" % join,
                "y%d:" % i,
                "  br label %%%s" % join,
                "%s:" % join,
                "  %%d%d = phi i32 [ 1, %%x%d ], [ 2, %%y%d ]" % (i, i, i),
            ]
        else:
            lines.append("  br i1 %s, label %%%s, label %%%s" % (c, then_b, join if shape == "triangle" else else_b)
                         if shape != "triangle-f" else "  br i1 %s, label %%%s, label %%%s" % (c, join, else_b))
            if shape in ("diamond", "triangle"):
                lines += [
                    "%s:" % then_b,
                    "  %%v%d = add i32 %s, %d" % (i, val, rng.randrange(1, 9)),
                    "  store i32 %%v%d, ptr %s, align 4" % (i, g),
                    "  br label %%%s" % join,
                ]
            if shape in ("diamond", "triangle-f"):
                lines += [
                    "%s:" % else_b,
                    "  store i32 %s, ptr %s, align 4" % (val, g),
                    "  br label %%%s" % join,
                ]
            incoming = []
            if shape in ("diamond", "triangle"):
                incoming.append("[ %%v%d, %%%s ]" % (i, then_b))
            if shape in ("diamond", "triangle-f"):
                incoming.append("[ 7, %%%s ]" % else_b)
            if shape != "diamond":
                incoming.append("[ 3, %%%s ]" % cur)
            lines += ["%s:" % join, "  %%d%d = phi i32 %s" % (i, ", ".join(incoming))]
        cur = join
    lines += ["  ret i32 %%d%d" % (n - 1), "}"]
    return "\n".join(lines)


def _program(seed: int, count: int) -> str:
    rng = random.Random(seed)
    fns = [_random_function(rng, "f%d" % i) for i in range(count)]
    calls = []
    for i in range(count):
        calls += [
            "  %%r%d = call i32 @f%d(i32 %%a, i32 %%b)" % (i, i),
            "  %%l%d = load i32, ptr @g0, align 4" % i,
            "  %%m%d = load i32, ptr @g1, align 4" % i,
            "  call void @mix(i32 %%r%d, i32 %%l%d, i32 %%m%d)" % (i, i, i),
        ]
    main = """
@g0 = internal global i32 0
@g1 = internal global i32 0
@acc = internal global i32 0
@fmt = private constant [4 x i8] c"%%u\\0A\\00"
declare i32 @printf(ptr, ...)

define internal void @mix(i32 %%x, i32 %%y, i32 %%z) {
  %%o = load i32, ptr @acc, align 4
  %%h1 = mul i32 %%o, 31
  %%h2 = add i32 %%h1, %%x
  %%h3 = mul i32 %%h2, 17
  %%h4 = xor i32 %%h3, %%y
  %%h5 = mul i32 %%h4, 13
  %%h6 = add i32 %%h5, %%z
  store i32 %%h6, ptr @acc, align 4
  ret void
}

define internal void @one(i32 %%a, i32 %%b) {
%s
  ret void
}

define i32 @main() {
entry:
  br label %%outer
outer:
  %%a = phi i32 [ -4, %%entry ], [ %%a1, %%outer.next ]
  br label %%inner
inner:
  %%b = phi i32 [ -4, %%outer ], [ %%b1, %%inner ]
  call void @one(i32 %%a, i32 %%b)
  %%b1 = add i32 %%b, 1
  %%bd = icmp eq i32 %%b1, 10
  br i1 %%bd, label %%outer.next, label %%inner
outer.next:
  %%a1 = add i32 %%a, 1
  %%ad = icmp eq i32 %%a1, 10
  br i1 %%ad, label %%done, label %%outer
done:
  %%r = load i32, ptr @acc, align 4
  %%p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %%r)
  ret i32 0
}
""" % "\n".join(calls)
    return main + "\n" + "\n\n".join(fns) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_random_programs_keep_their_output(seed: int) -> None:
    require_tools("lli-19")
    text = _program(seed, 12)
    before = lli_output(text)
    for pipeline, options in ((NO_SPEC, None), ("simplifycfg", {"simplifycfg-merge-cond-stores-aggressively": True})):
        after = ours_text(text, pipeline, options)
        assert lli_output(after) == before


def test_random_programs_fire_the_rules() -> None:
    """The random programs do reach this family (so the property test means something)."""
    text = _program(0, 12)
    after = ours_text(text, NO_SPEC, {"simplifycfg-merge-cond-stores-aggressively": True})
    assert "simplifycfg.merge" in after or "condstore.split" in after
    assert "xor i1" in after


@pytest.mark.parametrize("seed", range(2))
def test_random_programs_like_opt(seed: int) -> None:
    assert_same_as_opt(_program(seed + 10, 6), NO_SPEC)


# --- exhaustive i8 evaluation of the pure branch folds ----------------------------------------

PURE = """
define i8 @f(i8 %x, i8 %y) {
entry:
  %c = icmp ult i8 %x, 40
  %d = icmp sgt i8 %y, -3
  br i1 %c, label %mid, label %common
mid:
  br i1 %d, label %other, label %common
common:
  %p = phi i8 [ %x, %entry ], [ %y, %mid ]
  br label %n
other:
  br label %n
n:
  %q = phi i8 [ %p, %common ], [ 77, %other ]
  %e = icmp eq i8 %q, 5
  %k = icmp ugt i8 %y, 100
  br i1 %e, label %n1, label %n2
n1:
  br i1 %k, label %r3, label %r4
n2:
  br i1 %k, label %r4, label %r3
r3:
  %s = add i8 %q, 3
  ret i8 %s
r4:
  ret i8 %q
}
"""


def test_pure_folds_refine() -> None:
    _, after = check_refines(PURE, NO_SPEC, max_inputs=4096)
    text = str(after)
    assert "brmerge" in text and "xor i1 %e, %k" in text


# --- random branch graphs -----------------------------------------------------------------------


def _random_branch_graph(seed: int, loops: bool = False) -> str:
    """A random acyclic graph of blocks (with ``loops``, some blocks branch to
    themselves) that branch on conditions computed in the entry block, some with
    ``!prof`` weights or a leading instruction, all joining in a phi at the exit."""
    rng = random.Random(seed)
    n = rng.randrange(4, 9)
    conds = ["%%k%d" % i for i in range(4)]
    lines = ["define i8 @f(i8 %x, i8 %y) {", "entry:"]
    for i in range(4):
        pred = rng.choice(["eq", "ne", "ult", "sgt", "ule", "slt"])
        lines.append("  %%k%d = icmp %s i8 %s, %d" % (i, pred, rng.choice(["%x", "%y"]), rng.randrange(-5, 6)))
    lines.append("  br label %b0")
    weights: list[str] = []
    exit_in: list[str] = []
    for i in range(n):
        lines.append("b%d:" % i)
        succs = ["b%d" % j for j in range(i + 1, n)] + ["exit"]
        s0 = rng.choice(succs)
        s1 = rng.choice([s for s in succs if s != s0] or ["exit"])
        if s0 == s1 and loops:
            s0 = "b%d" % i
        if loops and s0 != s1 and rng.random() < 0.15:
            s1 = "b%d" % i
        if rng.random() < 0.2:
            lines.append("  %%t%d = add i8 %%x, %d" % (i, i))
        prof = ""
        if rng.random() < 0.4:
            prof = ", !prof !%d" % len(weights)
            weights.append('!%d = !{!"branch_weights", i32 %d, i32 %d}' % (len(weights), rng.randrange(0, 60), rng.randrange(1, 60)))
        if s0 == s1:
            lines.append("  br label %%%s" % s0)
        else:
            lines.append("  br i1 %s, label %%%s, label %%%s%s" % (rng.choice(conds), s0, s1, prof))
        for s in (s0, s1):
            if s == "exit" and "b%d" % i not in exit_in:
                exit_in.append("b%d" % i)
    lines.append("exit:")
    if not exit_in:
        lines.append("  ret i8 0")
    else:
        incoming = ", ".join("[ %s, %%%s ]" % (rng.choice(["%x", "%y", str(rng.randrange(9))]), b) for b in exit_in)
        lines += ["  %%r = phi i8 %s" % incoming, "  ret i8 %r"]
    lines.append("}")
    return "\n".join(lines + weights) + "\n"


@pytest.mark.parametrize("seed", range(6))
def test_random_branch_graphs_like_opt(seed: int) -> None:
    text = _random_branch_graph(seed)
    assert_same_as_opt(text, NO_SPEC)
    check_refines(text, NO_SPEC, max_inputs=512, seed=seed)


@pytest.mark.parametrize("seed", range(3))
def test_random_branch_graphs_with_loops_like_opt(seed: int) -> None:
    assert_same_as_opt(_random_branch_graph(seed + 100, loops=True), NO_SPEC)
