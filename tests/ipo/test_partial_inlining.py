"""``partial-inliner`` against opt-19, byte for byte, on small modules that each exercise one
rule: the early-return shape (triangles, the peeling of dominating guards and its
``-max-num-inline-blocks`` limit, phis split in two levels), the cost model (the outlined
region too small, the runtime overhead weighted by the static or profiled frequency,
``-partial-inlining-extra-penalty``), ``-max-partial-inlining``, ``noinline`` and
``alwaysinline`` callees, and profile-driven cold regions (entry counts of the outlined
function and of the original). Expected texts are what opt-19 prints, made in the test;
those tests skip when opt-19 is not installed. The last tests check rules of the helpers
without opt-19.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ipo.partial_inlining_cost import branch_probability, scale_frequency
from llvmpy_mid.ipo.partial_inlining_regions import compute_outlining_info
from llvmpy_mid.transform.utils.code_extractor_profile import normalize_exit_weights

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, args: list[str]) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=partial-inliner", *args, "-S", "-"], input=text, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, options: dict[str, bool | int | str]) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "partial-inliner", options=options)
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _args(options: dict[str, bool | int | str]) -> list[str]:
    return ["-%s=%s" % (k, ("true" if v else "false") if isinstance(v, bool) else v) for k, v in options.items()]


_BODY = "\n".join("  call void @foo()" for _ in range(8))

EARLY_RETURN = """
declare void @foo()
declare i32 @get()

define i32 @callee(i32 %x) {
entry:
  %c = icmp slt i32 %x, 0
  br i1 %c, label %ret, label %work
work:
""" + _BODY + """
  br label %ret
ret:
  %r = phi i32 [ 0, %entry ], [ 1, %work ]
  ret i32 %r
}

define i32 @caller1(i32 %a) {
  %v = call i32 @callee(i32 %a)
  ret i32 %v
}

define i32 @caller2(i32 %a) {
  %v = call i32 @callee(i32 %a)
  %w = call i32 @callee(i32 %v)
  ret i32 %w
}
"""

CHAIN = """
declare void @foo()
declare i32 @get()

define i32 @callee(i32 %x) {
b0:
  %c0 = icmp slt i32 %x, 0
  br i1 %c0, label %b1, label %ret
b1:
  %g = call i32 @get()
  %c1 = icmp slt i32 %g, %x
  br i1 %c1, label %b2, label %ret
b2:
  %c2 = icmp eq i32 %g, 7
  br i1 %c2, label %b3, label %ret
b3:
""" + _BODY + """
  br label %ret
ret:
  %r = phi i32 [ 0, %b0 ], [ 1, %b1 ], [ 2, %b2 ], [ %g, %b3 ]
  ret i32 %r
}

define i32 @caller(i32 %a) {
  %v = call i32 @callee(i32 %a)
  ret i32 %v
}
"""

TRIANGLE = """
declare void @foo()
declare i32 @get()

define i32 @callee(i32 %x) {
entry:
  %c = icmp slt i32 %x, 0
  br i1 %c, label %then, label %join
then:
  %g = call i32 @get()
  %cc = icmp slt i32 %g, %x
  br i1 %cc, label %join, label %ret
join:
""" + _BODY + """
  br label %ret
ret:
  %r = phi i32 [ 1, %then ], [ 2, %join ]
  ret i32 %r
}

define i32 @caller(i32 %a) {
  %v = call i32 @callee(i32 %a)
  ret i32 %v
}
"""

SMALL_REGION = """
declare void @foo()

define void @callee(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %work, label %ret
work:
  call void @foo()
  br label %ret
ret:
  ret void
}

define void @caller(i1 %c) {
  call void @callee(i1 %c, i32 1, i32 2)
  ret void
}
"""

ATTRS = EARLY_RETURN.replace("define i32 @callee(i32 %x) {", "define i32 @callee(i32 %x) noinline {")
ALWAYS = EARLY_RETURN.replace("define i32 @callee(i32 %x) {", "define i32 @callee(i32 %x) alwaysinline {")

WEIGHTED = EARLY_RETURN.replace(
    "br i1 %c, label %ret, label %work", "br i1 %c, label %ret, label %work, !prof !0"
) + '!0 = !{!"branch_weights", i32 1, i32 1000}\n'

PROFILED = """
declare void @foo()

define i32 @callee(i32 %x) !prof !20 {
entry:
  %c = icmp slt i32 %x, 0
  br i1 %c, label %ret, label %work, !prof !21
work:
""" + _BODY + """
  br label %ret
ret:
  %r = phi i32 [ 0, %entry ], [ 1, %work ]
  ret i32 %r
}

define i32 @caller(i32 %a) !prof !22 {
  %v = call i32 @callee(i32 %a)
  ret i32 %v
}

!llvm.module.flags = !{!1}
!1 = !{i32 1, !"ProfileSummary", !2}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{!"ProfileFormat", !"InstrProf"}
!4 = !{!"TotalCount", i64 10000}
!5 = !{!"MaxCount", i64 10}
!6 = !{!"MaxInternalCount", i64 1}
!7 = !{!"MaxFunctionCount", i64 1000}
!8 = !{!"NumCounts", i64 3}
!9 = !{!"NumFunctions", i64 3}
!10 = !{!"DetailedSummary", !11}
!11 = !{!12, !13, !14}
!12 = !{i32 10000, i64 100, i32 1}
!13 = !{i32 999000, i64 100, i32 1}
!14 = !{i32 999999, i64 1, i32 2}
!20 = !{!"function_entry_count", i64 1000}
!21 = !{!"branch_weights", i32 900, i32 100}
!22 = !{!"function_entry_count", i64 400}
"""

DEBUG = """
declare void @foo()

define i32 @callee(i32 %x) !dbg !5 {
entry:
  %c = icmp slt i32 %x, 0, !dbg !8
  br i1 %c, label %ret, label %work, !dbg !8
work:
""" + "\n".join("  call void @foo(), !dbg !9" for _ in range(8)) + """
  br label %ret, !dbg !10
ret:
  %r = phi i32 [ 0, %entry ], [ 1, %work ]
  ret i32 %r, !dbg !10
}

define i32 @caller(i32 %a) !dbg !11 {
  %v = call i32 @callee(i32 %a), !dbg !12
  ret i32 %v, !dbg !12
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!2 = !{}
!3 = !{i32 2, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "callee", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 4, column: 6, scope: !5)
!9 = !DILocation(line: 5, column: 5, scope: !5)
!10 = !DILocation(line: 6, column: 1, scope: !5)
!11 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!12 = !DILocation(line: 11, column: 3, scope: !11)
"""

CASES = {
    "debug_info": (DEBUG, {"skip-partial-inlining-cost-analysis": True}),
    "early_return_default": (EARLY_RETURN, {}),
    "early_return_skip_cost": (EARLY_RETURN, {"skip-partial-inlining-cost-analysis": True}),
    "early_return_limit_one_site": (EARLY_RETURN, {"skip-partial-inlining-cost-analysis": True,
                                                   "max-partial-inlining": 1}),
    "early_return_penalty": (EARLY_RETURN, {"partial-inlining-extra-penalty": 2000}),
    "chain_peeled": (CHAIN, {"skip-partial-inlining-cost-analysis": True}),
    "chain_max_blocks_2": (CHAIN, {"skip-partial-inlining-cost-analysis": True, "max-num-inline-blocks": 2}),
    "chain_max_blocks_3": (CHAIN, {"max-num-inline-blocks": 3}),
    "triangle": (TRIANGLE, {"skip-partial-inlining-cost-analysis": True}),
    "region_too_small": (SMALL_REGION, {}),
    "noinline_callee": (ATTRS, {"skip-partial-inlining-cost-analysis": True}),
    "alwaysinline_callee": (ALWAYS, {"skip-partial-inlining-cost-analysis": True}),
    "branch_weights": (WEIGHTED, {}),
    "profiled_single_region": (PROFILED, {"skip-partial-inlining-cost-analysis": True}),
    "profiled_cold_region": (PROFILED, {"skip-partial-inlining-cost-analysis": True, "min-block-execution": 1}),
    "disabled": (EARLY_RETURN, {"disable-partial-inlining": True}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_opt19(name: str) -> None:
    text, options = CASES[name]
    assert _body(_ours(text, options)) == _body(_opt19(text, _args(options)))


def test_remarks_against_opt19() -> None:
    from llvmpy_mid.analysis.remark_streamer import collecting

    require_tools("opt-19")
    for text in (EARLY_RETURN, SMALL_REGION):
        r = subprocess.run(["opt-19", "-passes=partial-inliner", "-pass-remarks=partial-inlining",
                            "-pass-remarks-analysis=partial-inlining", "-disable-output", "-"],
                           input=text, capture_output=True, text=True)
        expected = [line.split("remark: ", 1)[1] for line in r.stderr.splitlines() if "remark: " in line]
        module = parse_assembly(text)
        with collecting() as remarks:
            llvmpy_mid.run_passes(module, "partial-inliner")
        got = [str(rm) for rm in remarks if rm.kind in ("Passed", "Analysis")]
        assert got == expected


# --- rules of the helpers (no opt-19) ------------------------------------------------------
def test_outlining_info_respects_max_blocks() -> None:
    module = parse_assembly(CHAIN)
    callee = module.get_function("callee")
    assert callee is not None
    full = compute_outlining_info(callee, 5)
    assert full is not None
    # b1 is peeled; b2 is not: its predecessor b1 was not a guard before peeling (as LLVM)
    assert [b.name for b in full.entries] == ["b0", "b1"]
    assert full.non_return_block is not None and full.non_return_block.name == "b2"
    two = compute_outlining_info(callee, 2)
    assert two is not None and [b.name for b in two.entries] == ["b0"]
    assert two.non_return_block is not None and two.non_return_block.name == "b1"
    assert compute_outlining_info(callee, 1) is None


def test_branch_probability_scales_wide_counts() -> None:
    assert branch_probability(1, 2) == 1 << 30
    wide = branch_probability(1 << 40, 1 << 41)
    assert wide == 1 << 30
    assert scale_frequency(-1, 1 << 31) == (1 << 64) - 1
    assert scale_frequency(100, 1 << 30) == 50


def test_exit_weights_fit_in_32_bits() -> None:
    assert normalize_exit_weights([0, 0]) is None
    assert normalize_exit_weights([5, 0]) == ([1, 0], 1)
    weights, total = normalize_exit_weights([1 << 40, 1 << 40, 3])  # type: ignore[misc]
    assert total == sum(weights) and total < 1 << 32
    assert weights[2] >= 1
