"""SimplifyCFG's FoldBranchToCommonDest and threading through known values
(``llvmpy_mid/transform/utils/simplify_cfg_branch_fold.py``) against opt-19.

Each rule has a small function run through ``simplifycfg`` by opt-19 and by us; the
printed modules must agree, and a marker of the rule (``or.cond``, ``.old``,
``.not``, ``.critedge``, ...) must show that it fired (or, with a leading ``!``, that
it did not). The successors call a function so that if-conversion (another family)
leaves them alone. A property test runs random chains of branches under ``lli-19``
before and after our pass, and the exhaustive i8 evaluator checks pure folds.
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

SCFG = "simplifycfg"
NO_SPEC = "simplifycfg<no-speculate-blocks>"

# --- FoldBranchToCommonDest ---------------------------------------------------------------------

OR_FOLD = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid
mid:
  %a = add i32 %y, 3
  %d = icmp ult i32 %a, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

AND_FOLD = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %mid, label %e
mid:
  %d = icmp ult i32 %y, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

INVERT_CMP = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp slt i32 %x, 5
  br i1 %c, label %e, label %mid
mid:
  %d = icmp ugt i32 %y, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

INVERT_NOT = """
define i32 @f(i1 %c, i32 %y) {
entry:
  br i1 %c, label %t, label %mid
mid:
  %d = icmp ugt i32 %y, 10
  br i1 %d, label %e, label %t
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

PLAIN_OR = """
define i32 @f(i32 %x) {
entry:
  %c = icmp ult i32 %x, 5
  br i1 %c, label %t, label %mid
mid:
  %d = icmp ugt i32 %x, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

WEIGHTS = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid, !prof !0
mid:
  %d = icmp ult i32 %y, 10
  br i1 %d, label %t, label %e, !prof !1
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
!0 = !{!"branch_weights", i32 3, i32 5}
!1 = !{!"branch_weights", i32 7, i32 11}
"""

ONE_SIDED_WEIGHTS = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %mid, label %e
mid:
  %d = icmp ult i32 %y, 10
  br i1 %d, label %t, label %e, !prof !0
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
!0 = !{!"branch_weights", i32 4000000000, i32 4000000000}
"""

PREDICTABLE = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid, !prof !0
mid:
  %d = icmp ult i32 %y, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
!0 = !{!"branch_weights", i32 1000, i32 1}
"""

UNPREDICTABLE = PREDICTABLE.replace("!prof !0\n", "!prof !0, !unpredictable !1\n") + "!1 = !{}\n"

TWO_BONUS = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid
mid:
  %a = add i32 %y, 3
  %b = mul i32 %a, %x
  %d = icmp ult i32 %b, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

LIVE_OUT = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %e, label %mid
mid:
  %a = add i32 %y, 3
  %d = icmp ult i32 %a, 10
  br i1 %d, label %t, label %e
t:
  %p = phi i32 [ %a, %mid ]
  call void @g()
  ret i32 %p
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

TRAPPING = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid
mid:
  %a = udiv i32 %y, %x
  %d = icmp ult i32 %a, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

SAFE_LOAD = """
@gv = global i32 0
define i32 @f(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid
mid:
  %v = load i32, ptr @gv, align 4
  %d = icmp ult i32 %v, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

UNSAFE_LOAD = SAFE_LOAD.replace("ptr @gv", "ptr %q").replace("i32 %x)", "i32 %x, ptr %q)")

PHI_DISAGREES = """
define i32 @f(i32 %x, i32 %y) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid
mid:
  %d = icmp ult i32 %y, 10
  br i1 %d, label %t, label %e
t:
  %p = phi i32 [ 1, %entry ], [ 2, %mid ]
  call void @g()
  ret i32 %p
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

LOOP_LATCH = """
define void @f(i32 %n, i32 %m) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  call void @g()
  %i1 = add i32 %i, 1
  %c = icmp eq i32 %i1, %n
  br i1 %c, label %exit, label %latch
latch:
  %d = icmp eq i32 %i1, %m
  br i1 %d, label %exit, label %loop, !llvm.loop !0
exit:
  ret void
}
declare void @g()
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
"""

VECTOR_BONUS = """
define i32 @f(i32 %x, <2 x i32> %v) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %mid
mid:
  %a = add <2 x i32> %v, <i32 1, i32 2>
  %b = extractelement <2 x i32> %a, i32 0
  %b2 = add i32 %b, 1
  %d = icmp ult i32 %b2, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

TWO_PREDS = """
define i32 @f(i32 %x, i32 %y, i32 %z) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %t, label %p2
p2:
  %c2 = icmp eq i32 %z, 7
  br i1 %c2, label %mid, label %e
mid:
  %a = add i32 %y, 3
  %d = icmp ult i32 %a, 10
  br i1 %d, label %t, label %e
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
"""

DEBUG = """
define i32 @f(i32 %x, i32 %y) !dbg !4 {
entry:
  %c = icmp eq i32 %x, 0, !dbg !9
  br i1 %c, label %t, label %mid, !dbg !9
mid:
  %a = add i32 %y, 3, !dbg !10
    #dbg_value(i32 %a, !8, !DIExpression(), !9)
  %d = icmp ult i32 %a, 10, !dbg !9
    #dbg_value(i32 %y, !8, !DIExpression(), !9)
  br i1 %d, label %t, label %e, !dbg !10
t:
  call void @g()
  ret i32 1
e:
  call void @g()
  ret i32 2
}
declare void @g()
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, retainedNodes: !7)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !{!8}
!8 = !DILocalVariable(name: "v", scope: !4, file: !1, line: 1, type: !11)
!9 = !DILocation(line: 2, column: 1, scope: !4)
!10 = !DILocation(line: 3, column: 1, scope: !4)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
"""

# --- FoldCondBranchOnValueKnownInPredecessor ----------------------------------------------------

PHI_KNOWN = """
define void @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @g()
  br label %join
b:
  call void @h()
  br label %join
join:
  %k = phi i1 [ true, %a ], [ false, %b ]
  %s = add i32 %x, 1
  call void @use(i32 %s)
  br i1 %k, label %t, label %e
t:
  call void @g()
  ret void
e:
  call void @h()
  ret void
}
declare void @g()
declare void @h()
declare void @use(i32)
"""

EDGE_KNOWN = """
define void @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %join, label %b
b:
  call void @h()
  br label %join
join:
  %s = add i32 %x, 1
  call void @use(i32 %s)
  br i1 %c, label %t, label %e
t:
  call void @g()
  ret void
e:
  call void @h()
  ret void
}
declare void @g()
declare void @h()
declare void @use(i32)
"""

PHI_KNOWN_PARTIAL = """
define void @f(i1 %c, i1 %d, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @g()
  br label %join
b:
  call void @h()
  br label %join
join:
  %k = phi i1 [ true, %a ], [ %d, %b ]
  %z = phi i32 [ 1, %a ], [ %x, %b ]
  %s = add i32 %z, 1
  %q = icmp eq i32 %s, 2
  call void @use1(i1 %q)
  br i1 %k, label %t, label %e
t:
  call void @g()
  ret void
e:
  call void @h()
  ret void
}
declare void @g()
declare void @h()
declare void @use1(i1)
"""

LIVE_OUTSIDE = """
define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @g()
  br label %join
b:
  call void @h()
  br label %join
join:
  %k = phi i1 [ true, %a ], [ false, %b ]
  %s = add i32 %x, 1
  br i1 %k, label %t, label %e
t:
  call void @g()
  ret i32 %s
e:
  call void @h()
  ret i32 0
}
declare void @g()
declare void @h()
"""

BIG_BLOCK = """
define void @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @g()
  br label %join
b:
  call void @h()
  br label %join
join:
  %k = phi i1 [ true, %a ], [ false, %b ]
  call void @use(i32 1)
  call void @use(i32 2)
  call void @use(i32 3)
  call void @use(i32 4)
  call void @use(i32 5)
  call void @use(i32 6)
  call void @use(i32 7)
  call void @use(i32 8)
  call void @use(i32 9)
  call void @use(i32 10)
  call void @use(i32 11)
  call void @use(i32 12)
  br i1 %k, label %t, label %e
t:
  call void @g()
  ret void
e:
  call void @h()
  ret void
}
declare void @g()
declare void @h()
declare void @use(i32)
"""

CONVERGENT = PHI_KNOWN.replace("call void @use(i32 %s)", "call void @use(i32 %s) #0") + (
    "attributes #0 = { convergent }\n"
)

KNOWN_DEBUG = """
define void @f(i1 %c, i32 %x) !dbg !4 {
entry:
  br i1 %c, label %a, label %b
a:
  call void @g()
  br label %join
b:
  call void @h()
  br label %join
join:
  %k = phi i1 [ true, %a ], [ false, %b ]
    #dbg_value(i1 %k, !8, !DIExpression(), !9)
  %s = zext i1 %k to i32
    #dbg_value(i32 %s, !8, !DIExpression(), !9)
  call void @use(i32 %s), !dbg !9
    #dbg_value(i32 5, !8, !DIExpression(), !9)
  br i1 %k, label %t, label %e, !dbg !10
t:
  call void @g()
  ret void
e:
  call void @h()
  ret void
}
declare void @g()
declare void @h()
declare void @use(i32)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, retainedNodes: !7)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !{!8}
!8 = !DILocalVariable(name: "v", scope: !4, file: !1, line: 1, type: !11)
!9 = !DILocation(line: 2, column: 1, scope: !4)
!10 = !DILocation(line: 3, column: 1, scope: !4)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
"""

MERGE_RECORDS = KNOWN_DEBUG.split("define void @f")[0] + """
define void @f(i32 %x) !dbg !4 {
entry:
  %s = add i32 %x, 1
    #dbg_value(i32 %s, !8, !DIExpression(), !9)
  br label %next
next:
    #dbg_value(i32 0, !8, !DIExpression(), !9)
  br label %loop, !dbg !10
loop:
  %i = phi i32 [ 0, %next ], [ %i1, %loop ]
  call void @use(i32 %i)
  %i1 = add i32 %i, 1
  %c = icmp eq i32 %i1, %s
  br i1 %c, label %exit, label %loop
exit:
  ret void
}
declare void @use(i32)
""" + KNOWN_DEBUG[KNOWN_DEBUG.index("!llvm.dbg.cu"):]

SINGLE_ENTRY_PHI = """
define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %join, label %other
join:
  %k = phi i1 [ %d, %entry ]
  call void @h()
  br i1 %k, label %t, label %e
other:
  call void @g()
  ret void
t:
  call void @g()
  ret void
e:
  call void @h()
  ret void
}
declare void @g()
declare void @h()
"""

CASES = [
    # (id, text, pipeline, options, marker that must be present (or absent with a leading "!"))
    ("or-fold", OR_FOLD, SCFG, None, "%a = add i32 %y, 3\n  %d = icmp"),
    ("or-fold-select", OR_FOLD, SCFG, None, "%or.cond = select i1 %c, i1 true, i1 %d"),
    ("no-speculate-blocks", OR_FOLD, NO_SPEC, None, "!or.cond"),
    ("and-fold", AND_FOLD, SCFG, None, "%or.cond = select i1 %c, i1 %d, i1 false"),
    ("invert-cmp", INVERT_CMP, SCFG, None, "icmp sge i32 %x, 5"),
    ("invert-not", INVERT_NOT, SCFG, None, "%c.not = xor i1 %c, true"),
    ("plain-or", PLAIN_OR, SCFG, None, "%or.cond = or i1 %c, %d"),
    ("weights", WEIGHTS, SCFG, None, "!{!\"branch_weights\", i32 21, i32 67}"),
    ("one-sided-weights", ONE_SIDED_WEIGHTS, SCFG, None, "branch_weights"),
    ("predictable", PREDICTABLE, SCFG, None, "!or.cond"),
    ("predictable-threshold", PREDICTABLE, SCFG, {"predictable-branch-threshold": 100}, "or.cond"),
    ("unpredictable", UNPREDICTABLE, SCFG, None, "or.cond"),
    ("two-bonus", TWO_BONUS, SCFG, None, "!or.cond"),
    ("two-bonus-threshold", TWO_BONUS, "simplifycfg<bonus-inst-threshold=2>", None, "or.cond"),
    ("live-out", LIVE_OUT, SCFG, None, "or.cond"),
    ("trapping", TRAPPING, SCFG, None, "!or.cond"),
    ("safe-load", SAFE_LOAD, SCFG, None, "or.cond"),
    ("unsafe-load", UNSAFE_LOAD, SCFG, None, "!or.cond"),
    ("phi-disagrees", PHI_DISAGREES, SCFG, None, "!or.cond"),
    ("fold-threshold-zero", OR_FOLD, SCFG, {"simplifycfg-branch-fold-threshold": 0}, "!or.cond"),
    ("invert-threshold", INVERT_NOT, SCFG, {"simplifycfg-branch-fold-threshold": 1}, "!or.cond"),
    ("loop-latch", LOOP_LATCH, SCFG, None, "label %loop, !llvm.loop !0"),
    ("vector-bonus", VECTOR_BONUS, "simplifycfg<bonus-inst-threshold=2>", None, "or.cond"),
    (
        "vector-multiplier",
        VECTOR_BONUS,
        "simplifycfg<bonus-inst-threshold=2>",
        {"simplifycfg-branch-fold-common-dest-vector-multiplier": 1},
        "!or.cond",
    ),
    ("two-preds", TWO_PREDS, SCFG, None, "or.cond"),
    ("debug-records", DEBUG, SCFG, None, "or.cond"),
    ("phi-known", PHI_KNOWN, NO_SPEC, None, "%s.c = add i32 %x, 1"),
    ("phi-known-default", PHI_KNOWN, SCFG, None, "!br i1 %k"),
    ("edge-known", EDGE_KNOWN, NO_SPEC, None, "%s.c"),
    ("phi-known-partial", PHI_KNOWN_PARTIAL, NO_SPEC, None, "call void @use1(i1 true)"),
    ("live-outside", LIVE_OUTSIDE, NO_SPEC, None, "!.c = "),
    ("big-block", BIG_BLOCK, NO_SPEC, None, "br i1 %k"),
    ("big-block-raised", BIG_BLOCK, NO_SPEC, {"simplifycfg-max-small-block-size": 12}, "!br i1 %k"),
    ("small-block-limit", BIG_BLOCK, NO_SPEC, {"simplifycfg-max-small-block-size": 11}, "br i1 %k"),
    ("convergent", CONVERGENT, NO_SPEC, None, "br i1 %k"),
    ("known-debug", KNOWN_DEBUG, NO_SPEC, None, "#dbg_value(i32 5"),
    ("merge-keeps-records", MERGE_RECORDS, SCFG, None, "#dbg_value(i32 0"),
    ("single-entry-phi", SINGLE_ENTRY_PHI, NO_SPEC, None, "br i1 %d, label %t, label %e"),
]


@pytest.mark.parametrize("text,pipeline,options,marker", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_like_opt(text: str, pipeline: str, options: dict[str, object] | None, marker: str) -> None:
    got = assert_same_as_opt(text, pipeline, options)
    if marker.startswith("!"):
        assert marker[1:] not in got
    else:
        assert marker in got


# --- property: random programs under lli-19 -----------------------------------------------------


def _random_function(rng: random.Random, name: str) -> str:
    """A chain of blocks that compute a little and branch on compares, some to one
    of two shared exits; the exits join in phis of constants and branch again on
    a phi of booleans (so both folds of this family have work)."""
    lines = ["define internal i32 @%s(i32 %%a, i32 %%b) {" % name, "entry:"]
    n = rng.randrange(3, 7)
    vals = ["%a", "%b"]
    exits: dict[str, list[str]] = {"out0": [], "out1": []}
    block = "entry"
    for i in range(n):
        nxt = "b%d" % (i + 1)
        v = rng.choice(vals)
        op = rng.choice(["add", "xor", "mul", "and"])
        lines.append("  %%v%d = %s i32 %s, %d" % (i, op, v, rng.randrange(-5, 9)))
        vals.append("%%v%d" % i)
        pred = rng.choice(["eq", "ne", "ult", "sgt", "sle"])
        lines.append("  %%c%d = icmp %s i32 %%v%d, %d" % (i, pred, i, rng.randrange(-3, 6)))
        out = rng.choice(["out0", "out1"])
        exits[out].append(block)
        if rng.random() < 0.5:
            lines.append("  br i1 %%c%d, label %%%s, label %%%s" % (i, out, nxt))
        else:
            lines.append("  br i1 %%c%d, label %%%s, label %%%s" % (i, nxt, out))
        lines.append("%s:" % nxt)
        block = nxt
    exits["out0"].append(block)
    lines.append("  br label %out0")
    lines += [
        "out0:",
        "  %%p0 = phi i32 %s" % ", ".join("[ %d, %%%s ]" % (rng.choice((1, 2)), b) for b in exits["out0"]),
        "  call void @tick(i32 %p0)",
        "  br label %join",
    ]
    if exits["out1"]:
        lines += [
            "out1:",
            "  %%p1 = phi i32 %s" % ", ".join("[ %d, %%%s ]" % (rng.choice((20, 21)), b) for b in exits["out1"]),
            "  call void @tick(i32 %p1)",
            "  br label %join",
            "join:",
            "  %k = phi i1 [ true, %out0 ], [ false, %out1 ]",
        ]
    else:
        lines += ["join:", "  %k = phi i1 [ true, %out0 ]"]
    lines += [
        "  %m = mul i32 %a, 3",
        "  call void @tick(i32 %m)",
        "  br i1 %k, label %ra, label %rb",
        "ra:",
        "  call void @tick(i32 %b)",
        "  ret i32 %a",
        "rb:",
        "  call void @tick(i32 1)",
        "  ret i32 %b",
        "}",
    ]
    return "\n".join(lines)


def _program(seed: int, count: int) -> str:
    rng = random.Random(seed)
    fns = [_random_function(rng, "f%d" % i) for i in range(count)]
    calls = []
    for i in range(count):
        calls += [
            "  %%r%d = call i32 @f%d(i32 %%a, i32 %%b)" % (i, i),
            "  call void @tick(i32 %%r%d)" % i,
        ]
    main = """
@acc = internal global i32 0
@fmt = private constant [4 x i8] c"%%u\\0A\\00"
declare i32 @printf(ptr, ...)

define internal void @tick(i32 %%x) {
  %%o = load i32, ptr @acc, align 4
  %%h1 = mul i32 %%o, 31
  %%h2 = add i32 %%h1, %%x
  store i32 %%h2, ptr @acc, align 4
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
  %%a = phi i32 [ -6, %%entry ], [ %%a1, %%outer.next ]
  br label %%inner
inner:
  %%b = phi i32 [ -6, %%outer ], [ %%b1, %%inner ]
  call void @one(i32 %%a, i32 %%b)
  %%b1 = add i32 %%b, 1
  %%bd = icmp eq i32 %%b1, 12
  br i1 %%bd, label %%outer.next, label %%inner
outer.next:
  %%a1 = add i32 %%a, 1
  %%ad = icmp eq i32 %%a1, 12
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
    text = _program(seed, 10)
    before = lli_output(text)
    for pipeline in (SCFG, NO_SPEC, "simplifycfg<bonus-inst-threshold=3>"):
        assert lli_output(ours_text(text, pipeline)) == before


def test_random_programs_fire_the_rules() -> None:
    """The random programs do reach this family (so the property test means something)."""
    text = _program(0, 10)
    assert "or.cond" in ours_text(text, "simplifycfg<bonus-inst-threshold=3>")
    assert "br i1 %k" not in ours_text(text, NO_SPEC)


@pytest.mark.parametrize("seed", range(3))
def test_random_programs_like_opt(seed: int) -> None:
    assert_same_as_opt(_program(seed + 10, 5), "simplifycfg<bonus-inst-threshold=3>")


# --- exhaustive i8 evaluation ---------------------------------------------------------------------

PURE_FOLD = """
define i8 @f(i8 %x, i8 %y) {
entry:
  %c = icmp ult i8 %x, 40
  br i1 %c, label %t, label %mid
mid:
  %s = add i8 %y, 7
  %d = icmp sgt i8 %s, -3
  br i1 %d, label %t, label %mid2
mid2:
  %e = icmp eq i8 %x, %y
  br i1 %e, label %e2, label %t
t:
  %r = udiv i8 %x, 3
  ret i8 %r
e2:
  %r2 = sub i8 %x, %y
  ret i8 %r2
}
"""

PURE_KNOWN = """
define i8 @f(i8 %x, i8 %y) {
entry:
  %c = icmp ult i8 %x, 40
  br i1 %c, label %a, label %b
a:
  %va = add i8 %x, 1
  %ca = icmp eq i8 %va, %y
  br i1 %ca, label %join, label %r5
b:
  br label %join
join:
  %k = phi i1 [ true, %a ], [ false, %b ]
  br i1 %k, label %r3, label %r4
r3:
  %w = udiv i8 %x, 7
  ret i8 %w
r4:
  %u = urem i8 %y, 9
  ret i8 %u
r5:
  ret i8 0
}
"""


@pytest.mark.parametrize(
    "text,pipeline,marker,max_inputs",
    [
        (PURE_FOLD, SCFG, "or.cond", 1 << 11),
        (PURE_KNOWN, NO_SPEC, "!br i1 %k", 1 << 11),
        pytest.param(PURE_FOLD, SCFG, "or.cond", 1 << 16, marks=pytest.mark.slow),
        pytest.param(PURE_KNOWN, NO_SPEC, "!br i1 %k", 1 << 16, marks=pytest.mark.slow),
    ],
    ids=["fold", "known", "fold-exhaustive", "known-exhaustive"],
)
def test_pure_folds_refine(text: str, pipeline: str, marker: str, max_inputs: int) -> None:
    """i8 evaluation (a sample by default, all 65536 inputs when slow): the folded
    function refines the original, and the fold did fire (as it does in opt-19)."""
    got = assert_same_as_opt(text, pipeline)
    if marker.startswith("!"):
        assert marker[1:] not in got
    else:
        assert marker in got
    check_refines(text, pipeline, max_inputs=max_inputs)
