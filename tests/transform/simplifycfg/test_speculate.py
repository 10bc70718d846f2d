"""SimplifyCFG's speculation (``llvmpy_mid/transform/utils/simplify_cfg_speculate.py``):
``FoldTwoEntryPHINode`` and ``SpeculativelyExecuteBB``, against opt-19 and by refinement.

* Oracle tests: small functions, one per rule: if/then/else and if/then merges folded
  to selects named as the phis (fast-math flags kept, ``!prof`` / ``!unpredictable``
  copied), the cost budget (``two-entry-phi-node-folding-threshold``, one expensive
  instruction with ``speculate-one-expensive-inst``), predictable branches left
  alone, i1 phis of logic ops, more than three phis, ``spec.select`` for one cheap
  instruction (and the ``phi-node-folding-threshold``), ``fcmp`` conditions, loads
  made safe by dereferenceability (and not under a sanitizer), ``spec.store.select``
  after a store or a load of a non-escaping alloca (``simplifycfg-hoist-cond-stores``),
  UB-implying metadata dropped, constant expressions in phis, ephemeral values of
  ``llvm.assume``, debug records dropped.
* Property test: random i8 functions made of if/then(/else) arms of cheap arithmetic
  are refined by the pass on sampled inputs, and most of them lose their branches.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "instcombine"))
from opt_oracle import assert_same_as_opt  # noqa: E402
from pass_oracle import csmith_params  # noqa: E402
from refinement import check_refines  # noqa: E402

MODULE = r"""
declare void @use(i32)
declare void @llvm.assume(i1)
declare ptr @get()

define i32 @diamond(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %x = add i32 %a, 1
  br label %end
f:
  %y = sub i32 %b, 2
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
  ret i32 %r
}

define i32 @diamond_nonames(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %0 = mul i32 %a, 3
  br label %end
f:
  %1 = shl i32 %b, 2
  br label %end
end:
  %2 = phi i32 [ %0, %t ], [ %1, %f ]
  ret i32 %2
}

define i32 @over_budget(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %x1 = add i32 %a, 1
  %x2 = mul i32 %x1, %b
  %x3 = xor i32 %x2, 7
  br label %end
f:
  %y1 = sub i32 %b, 2
  %y2 = and i32 %y1, %a
  br label %end
end:
  %r = phi i32 [ %x3, %t ], [ %y2, %f ]
  ret i32 %r
}

define i32 @one_expensive(i1 %c, i32 %a) {
entry:
  br i1 %c, label %t, label %f
t:
  %x = udiv i32 %a, 7
  br label %end
f:
  %y = sub i32 %a, 2
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
  ret i32 %r
}

define i32 @trapping_div(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %x = udiv i32 %a, %b
  br label %end
f:
  %y = sub i32 %a, 2
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
  ret i32 %r
}

define i32 @predictable(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f, !prof !0
t:
  %x = add i32 %a, 1
  br label %end
f:
  %y = sub i32 %b, 2
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
  ret i32 %r
}

define i32 @unpredictable(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f, !prof !0, !unpredictable !1
t:
  %x = add i32 %a, 1
  br label %end
f:
  %y = sub i32 %b, 2
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
  ret i32 %r
}

define i32 @weighted_balanced(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f, !prof !2
t:
  %x = add i32 %a, 1
  br label %end
f:
  %y = sub i32 %b, 2
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
  ret i32 %r
}

define double @fast_math(i1 %c, double %a, double %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %x = fadd double %a, 1.0
  br label %end
f:
  %y = fmul double %b, 2.0
  br label %end
end:
  %r = phi nnan nsz double [ %x, %t ], [ %y, %f ]
  ret double %r
}

define i1 @bool_logic(i1 %c, i1 %a, i1 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %x = and i1 %a, %b
  br label %end
f:
  %y = or i1 %a, %b
  br label %end
end:
  %r = phi i1 [ %x, %t ], [ %y, %f ]
  ret i1 %r
}

define i1 @bool_not(i1 %c, i1 %a, i1 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  %x = xor i1 %a, true
  br label %end
f:
  br label %end
end:
  %r = phi i1 [ %x, %t ], [ true, %f ]
  ret i1 %r
}

define i32 @three_phis(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  br label %end
f:
  br label %end
end:
  %r1 = phi i32 [ %a, %t ], [ %b, %f ]
  %r2 = phi i32 [ %b, %t ], [ %a, %f ]
  %r3 = phi i32 [ 1, %t ], [ 2, %f ]
  %s1 = add i32 %r1, %r2
  %s2 = add i32 %s1, %r3
  ret i32 %s2
}

define i32 @four_phis(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %t, label %f
t:
  br label %end
f:
  br label %end
end:
  %r1 = phi i32 [ %a, %t ], [ %b, %f ]
  %r2 = phi i32 [ %b, %t ], [ %a, %f ]
  %r3 = phi i32 [ 1, %t ], [ 2, %f ]
  %r4 = phi i32 [ 3, %t ], [ 4, %f ]
  %s1 = add i32 %r1, %r2
  %s2 = add i32 %s1, %r3
  %s3 = add i32 %s2, %r4
  ret i32 %s3
}

define i32 @triangle(i32 %a, i32 %b) {
entry:
  %c = icmp ult i32 %a, %b
  br i1 %c, label %then, label %end
then:
  %s = sub i32 %b, %a
  br label %end
end:
  %r = phi i32 [ %s, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @triangle_inverted(i32 %a, i32 %b) {
entry:
  %c = icmp ult i32 %a, %b
  br i1 %c, label %end, label %then, !prof !2
then:
  %s = sub i32 %b, %a
  br label %end
end:
  %r = phi i32 [ %s, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @triangle_two_insts(i32 %a, i32 %b) {
entry:
  %c = icmp ult i32 %a, %b
  br i1 %c, label %then, label %end
then:
  %s = sub i32 %b, %a
  %t = mul i32 %s, %s
  br label %end
end:
  %r = phi i32 [ %t, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @triangle_sink_candidate(i32 %a, i32 %b) {
entry:
  %c = icmp ult i32 %a, %b
  %m = mul i32 %a, %b
  br i1 %c, label %then, label %end
then:
  %s = sub i32 %m, %a
  br label %end
end:
  %r = phi i32 [ %s, %then ], [ 0, %entry ]
  ret i32 %r
}

define float @triangle_fcmp(float %a, float %b) {
entry:
  %c = fcmp olt float %a, %b
  br i1 %c, label %then, label %end
then:
  %s = fsub float %b, %a
  br label %end
end:
  %r = phi float [ %s, %then ], [ 0.0, %entry ]
  ret float %r
}

define i32 @load_deref(i1 %c, ptr dereferenceable(4) align 4 %p) {
entry:
  br i1 %c, label %then, label %end
then:
  %v = load i32, ptr %p, align 4, !range !3, !noundef !4
  br label %end
end:
  %r = phi i32 [ %v, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @load_not_deref(i1 %c, ptr %p) {
entry:
  br i1 %c, label %then, label %end
then:
  %v = load i32, ptr %p, align 4
  br label %end
end:
  %r = phi i32 [ %v, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @load_asan(i1 %c, ptr dereferenceable(4) align 4 %p) sanitize_address {
entry:
  br i1 %c, label %then, label %end
then:
  %v = load i32, ptr %p, align 4
  br label %end
end:
  %r = phi i32 [ %v, %then ], [ 0, %entry ]
  ret i32 %r
}

define void @cond_store(i1 %c, ptr %p, i32 %a) {
entry:
  store i32 0, ptr %p, align 4
  br i1 %c, label %then, label %end
then:
  store i32 %a, ptr %p, align 4
  br label %end
end:
  ret void
}

define void @cond_store_inverted(i1 %c, ptr %p, i32 %a) {
entry:
  store i32 0, ptr %p, align 4
  br i1 %c, label %end, label %then
then:
  store i32 %a, ptr %p, align 4
  br label %end
end:
  ret void
}

define void @cond_store_after_call(i1 %c, ptr %p, i32 %a) {
entry:
  store i32 0, ptr %p, align 4
  call void @use(i32 1)
  br i1 %c, label %then, label %end
then:
  store i32 %a, ptr %p, align 4
  br label %end
end:
  ret void
}

define i32 @cond_store_alloca(i1 %c, i32 %a) {
entry:
  %x = alloca i32, align 4
  store i32 5, ptr %x, align 4
  call void @use(i32 0)
  %old = load i32, ptr %x, align 4
  br i1 %c, label %then, label %end
then:
  store i32 %a, ptr %x, align 4
  br label %end
end:
  %r = load i32, ptr %x, align 4
  ret i32 %r
}

define i64 @constexpr_phi(i1 %c) {
entry:
  br i1 %c, label %then, label %end
then:
  br label %end
end:
  %r = phi i64 [ ptrtoint (ptr @get to i64), %then ], [ 0, %entry ]
  ret i64 %r
}

define i32 @ephemeral(i32 %a, i32 %b) {
entry:
  %c = icmp ult i32 %a, %b
  br i1 %c, label %then, label %end
then:
  %s = sub i32 %b, %a
  %pos = icmp sgt i32 %s, 0
  call void @llvm.assume(i1 %pos)
  br label %end
end:
  %r = phi i32 [ %s, %then ], [ 0, %entry ]
  ret i32 %r
}

define i32 @ub_value(i1 %c, i32 %a) {
entry:
  br i1 %c, label %then, label %end
then:
  %s = add i32 %a, 1
  br label %end
end:
  %r = phi i32 [ %s, %then ], [ 0, %entry ]
  %d = udiv i32 100, %r
  ret i32 %d
}

!0 = !{!"branch_weights", i32 1000, i32 1}
!1 = !{}
!2 = !{!"branch_weights", i32 3, i32 5}
!3 = !{i32 0, i32 10}
!4 = !{}
"""

CASES = [
    "diamond", "diamond_nonames", "over_budget", "one_expensive", "trapping_div", "predictable",
    "unpredictable", "weighted_balanced", "fast_math", "bool_logic", "bool_not", "three_phis",
    "four_phis", "triangle", "triangle_inverted", "triangle_two_insts", "triangle_sink_candidate",
    "triangle_fcmp", "load_deref", "load_not_deref", "load_asan", "cond_store", "cond_store_inverted",
    "cond_store_after_call", "cond_store_alloca", "constexpr_phi", "ephemeral", "ub_value",
]


def _function(module: str, name: str) -> str:
    """The module's declarations and metadata with only function ``@name``."""
    parts = re.split(r"(?m)^(?=define )", module)
    head = parts[0]
    body = next(p for p in parts[1:] if p.startswith("define") and ("@%s(" % name) in p.split("\n", 1)[0])
    body = body.split("\n}\n", 1)[0] + "\n}\n"
    meta = "\n".join(line for line in module.splitlines() if line.startswith("!"))
    return head + body + "\n" + meta + "\n"


@pytest.mark.parametrize("name", CASES)
def test_speculation_like_opt(name: str) -> None:
    assert_same_as_opt(_function(MODULE, name), "simplifycfg")


def test_whole_module_like_opt() -> None:
    got = assert_same_as_opt(MODULE, "simplifycfg")
    assert "%spec.select = select i1 %c, i32 %s, i32 0" in got
    assert "%spec.store.select = select i1 %c, i32 %a, i32 0" in got
    assert "%r = select nnan nsz i1 %c, double %x, double %y" in got


@pytest.mark.parametrize(
    "options",
    [
        {"two-entry-phi-node-folding-threshold": 1},
        {"two-entry-phi-node-folding-threshold": 8},
        {"phi-node-folding-threshold": 0},
        {"phi-node-folding-threshold": 4},
        {"speculate-one-expensive-inst": False},
        {"max-speculation-depth": 1},
        {"simplifycfg-hoist-cond-stores": False},
        {"predictable-branch-threshold": 50},
    ],
    ids=lambda o: "%s=%s" % next(iter(o.items())),
)
def test_options_like_opt(options: dict[str, object]) -> None:
    assert_same_as_opt(MODULE, "simplifycfg", options)


def test_speculate_blocks_off_like_opt() -> None:
    got = assert_same_as_opt(MODULE, "simplifycfg<no-speculate-blocks>")
    assert "spec.select" not in got


DEBUG_MODULE = r"""
define i32 @f(i32 %a, i32 %b) !dbg !5 {
entry:
  %c = icmp ult i32 %a, %b, !dbg !10
    #dbg_value(i32 %a, !9, !DIExpression(), !10)
  br i1 %c, label %then, label %end, !dbg !11
then:
  %s = sub i32 %b, %a, !dbg !12
    #dbg_value(i32 %s, !9, !DIExpression(), !12)
  br label %end, !dbg !13
end:
  %r = phi i32 [ %s, %then ], [ 0, %entry ], !dbg !14
  ret i32 %r, !dbg !14
}

define i32 @g(i1 %c, i32 %a, i32 %b) !dbg !15 {
entry:
  %k = add i32 %a, %b
    #dbg_value(i32 %k, !18, !DIExpression(), !16)
  br i1 %c, label %t, label %f, !dbg !16
t:
  %x = add i32 %a, 1, !dbg !17
    #dbg_value(i32 %x, !18, !DIExpression(), !17)
  br label %end
f:
  %y = sub i32 %b, 2, !dbg !17
  br label %end
end:
  %r = phi i32 [ %x, %t ], [ %y, %f ]
    #dbg_value(i32 %r, !18, !DIExpression(), !17)
  ret i32 %r
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{!8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "s", scope: !5, file: !1, line: 2, type: !8)
!10 = !DILocation(line: 2, column: 1, scope: !5)
!11 = !DILocation(line: 3, column: 1, scope: !5)
!12 = !DILocation(line: 4, column: 1, scope: !5)
!13 = !DILocation(line: 5, column: 1, scope: !5)
!14 = !DILocation(line: 6, column: 1, scope: !5)
!15 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized, retainedNodes: !2)
!16 = !DILocation(line: 7, column: 1, scope: !15)
!17 = !DILocation(line: 8, column: 1, scope: !15)
!18 = !DILocalVariable(name: "x", scope: !15, file: !1, line: 2, type: !8)
"""


def test_debug_records_like_opt() -> None:
    got = assert_same_as_opt(DEBUG_MODULE, "simplifycfg")
    assert "#dbg_value(i32 %s" not in got
    assert "#dbg_value(i32 %a" in got


ASSIGN_MODULE = r"""
define void @f(i1 %c, i32 %a) !dbg !5 {
entry:
  %x = alloca i32, align 4, !DIAssignID !20
    #dbg_assign(i1 undef, !9, !DIExpression(), !20, ptr %x, !DIExpression(), !10)
  store i32 0, ptr %x, align 4, !DIAssignID !21, !dbg !10
    #dbg_assign(i32 0, !9, !DIExpression(), !21, ptr %x, !DIExpression(), !10)
  br i1 %c, label %then, label %end, !dbg !11
then:
  store i32 %a, ptr %x, align 4, !DIAssignID !22, !dbg !12
    #dbg_assign(i32 %a, !9, !DIExpression(), !22, ptr %x, !DIExpression(), !12)
    #dbg_value(i32 %a, !9, !DIExpression(), !12)
  br label %end, !dbg !13
end:
  call void @use(ptr %x)
  ret void, !dbg !14
}
declare void @use(ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4, !30}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!30 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{!8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "s", scope: !5, file: !1, line: 2, type: !8)
!10 = !DILocation(line: 2, column: 1, scope: !5)
!11 = !DILocation(line: 3, column: 1, scope: !5)
!12 = !DILocation(line: 4, column: 1, scope: !5)
!13 = !DILocation(line: 5, column: 1, scope: !5)
!14 = !DILocation(line: 6, column: 1, scope: !5)
!20 = distinct !DIAssignID()
!21 = distinct !DIAssignID()
!22 = distinct !DIAssignID()
"""


def test_speculated_store_keeps_assignment_tracking_like_opt() -> None:
    got = assert_same_as_opt(ASSIGN_MODULE, "simplifycfg")
    assert "#dbg_assign(i32 %spec.store.select" in got


# --- property test: random i8 functions are refined -----------------------------------------------

_OPS = ["add", "sub", "mul", "xor", "and", "or", "shl", "lshr", "udiv", "ashr"]


def _random_arm(rng: random.Random, tag: str, lines: list[str]) -> str:
    prev = rng.choice(["%x", "%y"])
    for k in range(rng.choice([0, 1, 1, 2, 3])):
        op = rng.choice(_OPS)
        if op == "udiv":
            other = str(rng.randint(1, 9))
        elif op in ("shl", "lshr", "ashr"):
            other = str(rng.randint(0, 7))
        else:
            other = rng.choice(["%x", "%y", str(rng.randint(0, 9))])
        name = "%%%s%d" % (tag, k)
        lines.append("  %s = %s i8 %s, %s" % (name, op, prev, other))
        prev = name
    return prev


def _random_function(rng: random.Random) -> str:
    """``@f(i8 %x, i8 %y)``: a compare, then an if/then or if/then/else whose arms compute a
    few cheap operations, merging into one or two phis."""
    pred = rng.choice(["eq", "ne", "ult", "slt", "ugt", "sge"])
    lines = ["define i8 @f(i8 %x, i8 %y) {", "entry:", "  %%c = icmp %s i8 %%x, %%y" % pred]
    diamond = rng.random() < 0.5
    if diamond:
        lines.append("  br i1 %c, label %t, label %e")
        lines.append("t:")
        vt = _random_arm(rng, "t", lines)
        lines.append("  br label %end")
        lines.append("e:")
        ve = _random_arm(rng, "e", lines)
        lines.append("  br label %end")
        lines.append("end:")
        lines.append("  %%r = phi i8 [ %s, %%t ], [ %s, %%e ]" % (vt, ve))
        if rng.random() < 0.5:
            lines.append("  %%q = phi i8 [ %d, %%t ], [ %%x, %%e ]" % rng.randint(0, 9))
            lines.append("  %s = add i8 %%r, %%q" % "%out")
        else:
            lines.append("  %out = add i8 %r, 0")
    else:
        if rng.random() < 0.5:
            lines.append("  br i1 %c, label %t, label %end")
        else:
            lines.append("  br i1 %c, label %end, label %t")
        lines.append("t:")
        vt = _random_arm(rng, "t", lines)
        lines.append("  br label %end")
        lines.append("end:")
        lines.append("  %%r = phi i8 [ %s, %%t ], [ %s, %%entry ]" % (vt, rng.choice(["%x", "%y", "7"])))
        lines.append("  %out = add i8 %r, 0")
    lines.append("  ret i8 %out")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(6))
def test_random_functions_are_refined(seed: int) -> None:
    rng = random.Random(seed)
    flattened = 0
    for _ in range(6):
        text = _random_function(rng)
        _before, after = check_refines(text, "simplifycfg", max_inputs=256, seed=seed)
        fn = after.get_function("f")
        assert fn is not None
        flattened += len(fn.blocks) == 1
    assert flattened >= 2


# --- csmith programs: the whole pass after mem2reg, as opt-19 prints it ---------------------------


@pytest.mark.parametrize("path", csmith_params(in_default_run=2, suffix=".O0.ll"))
@pytest.mark.parametrize("triple", ["x86_64", "none"])
def test_csmith_like_opt(path: Path, triple: str) -> None:
    """A csmith program (``-O0``, promoted by mem2reg) through simplifycfg, as opt-19 prints it:
    with its x86-64 triple (costed by the x86 model) and without one (LLVM's
    target-independent costs)."""
    text = Path(path).read_text()
    if triple == "none":
        text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("target triple"))
    assert_same_as_opt(text, "mem2reg,simplifycfg")
