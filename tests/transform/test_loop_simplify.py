"""``loop-simplify`` against opt-19: our printed module must equal
``opt-19 -passes=loop-simplify -S`` byte for byte (the ``; ModuleID`` line aside),
the result must verify, and the dominator tree and loop info the pass keeps
up to date must equal freshly computed ones.

Inputs: llvm-stress-19 programs (3 seeds; 120 under ``--run-slow``), hand-made loops (no preheader, several latches, shared exits, nested
loops sharing a header, exits with phis, switch/indirectbr/callbr/invoke edges,
unreachable predecessors, undef exit branches, exits merged through
``or.cond``), LLVM's conformance files of the loop folders that opt-19 parses
(a sample by default, all under ``--run-slow``) and the csmith files of
the csmith corpus (``tests/csmith_files.py``) (a sample; all under ``--run-slow``), whose ``lli-19``
output must not change. Tests skip when opt-19 or the corpora are missing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from loop_oracle import (
    CONFORMANCE,
    CSMITH_FILES,
    LLI,
    STRESS,
    body,
    check_against_opt,
    check_csmith,
    lli,
    needs_opt,
    opt19,
    stress_file,
)

import llvmpy_mid
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.asm import parse_assembly, parse_file, print_module
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.transform.utils.loop_simplify import simplify_loop







def check_text(tmp_path: Path, text: str, pipeline: str = "loop-simplify") -> None:
    path = tmp_path / "in.ll"
    path.write_text(text)
    check_against_opt(path, pipeline)


# --- hand-made loops ------------------------------------------------------------------------

CASES: dict[str, str] = {
    "two_outside_preds_phi_split": """
define i32 @f(i1 %c, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %loop
b:
  br label %loop
loop:
  %i = phi i32 [ 0, %a ], [ 1, %b ], [ %inc, %loop ]
  %j = phi i32 [ 5, %a ], [ 5, %b ], [ %i, %loop ]
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret i32 %j
}
""",
    "conditional_entry_no_preheader": """
define void @f(i1 %c, ptr %p) {
entry:
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, 10
  br i1 %cmp, label %loop, label %exit
exit:
  ret void
}
""",
    "several_latches_backedge": """
define i32 @f(ptr %p, i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %a, %l1 ], [ %b, %l2 ], [ %i, %l3 ]
  %s = phi i32 [ 0, %entry ], [ 7, %l1 ], [ 7, %l2 ], [ 7, %l3 ]
  %x = load i32, ptr %p
  %c = icmp eq i32 %x, 0
  br i1 %c, label %l1, label %mid
mid:
  %c2 = icmp sgt i32 %x, 5
  br i1 %c2, label %l2, label %l3
l1:
  %a = add i32 %i, 1
  %e1 = icmp slt i32 %a, %n
  br i1 %e1, label %header, label %exit
l2:
  %b = add i32 %i, 2
  br label %header
l3:
  %e3 = icmp slt i32 %i, %n
  br i1 %e3, label %header, label %exit
exit:
  %r = phi i32 [ %s, %l1 ], [ %i, %l3 ]
  ret i32 %r
}
""",
    "shared_exit_loopexit": """
define i32 @f(i1 %c, i32 %n) {
entry:
  br i1 %c, label %pre, label %exit
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, %n
  br i1 %cmp, label %loop, label %exit
exit:
  %r = phi i32 [ -1, %entry ], [ %inc, %loop ]
  ret i32 %r
}
""",
    "nested_shared_header_outer": """
define void @f(ptr %p, i32 %n) {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i, %inner_latch ], [ %inc, %outer_latch ]
  %x = load volatile i32, ptr %p
  %c = icmp eq i32 %x, 0
  br i1 %c, label %inner_latch, label %outer_latch
inner_latch:
  store i32 %i, ptr %p
  br label %header
outer_latch:
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, %n
  br i1 %cmp, label %header, label %exit
exit:
  ret void
}
""",
    "nested_loops_exits": """
define i32 @f(ptr %p, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %inc, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %jinc, %inner.body ]
  %x = load i32, ptr %p
  %bad = icmp eq i32 %x, 42
  br i1 %bad, label %done, label %inner.body
inner.body:
  %jinc = add i32 %j, 1
  %c = icmp slt i32 %jinc, %m
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %inc = add i32 %i, 1
  %c2 = icmp slt i32 %inc, %n
  br i1 %c2, label %outer, label %done
done:
  %r = phi i32 [ %j, %inner ], [ %inc, %outer.latch ]
  ret i32 %r
}
""",
    "switch_edges": """
define void @f(i32 %k, ptr %p) {
entry:
  switch i32 %k, label %exit [ i32 1, label %loop
                               i32 2, label %loop ]
loop:
  %i = phi i32 [ 0, %entry ], [ 0, %entry ], [ %inc, %loop ], [ %inc, %loop ]
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  switch i32 %inc, label %exit [ i32 5, label %loop
                                 i32 6, label %loop
                                 i32 7, label %exit ]
exit:
  ret void
}
""",
    "indirectbr_into_header": """
define void @f(ptr %p, i1 %c) {
entry:
  %a = select i1 %c, ptr blockaddress(@f, %loop), ptr blockaddress(@f, %exit)
  indirectbr ptr %a, [label %loop, label %exit]
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, 10
  br i1 %cmp, label %loop, label %exit
exit:
  ret void
}
""",
    "indirectbr_exit": """
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  %a = load ptr, ptr %p
  indirectbr ptr %a, [label %loop, label %exit]
exit:
  ret void
}
""",
    "callbr_edges": """
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %pre, label %exit
pre:
  callbr void asm "", "!i"() to label %loop [label %exit]
loop:
  %i = phi i32 [ 0, %pre ], [ %inc, %loop ]
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, 10
  br i1 %cmp, label %loop, label %exit
exit:
  ret void
}
""",
    "unreachable_pred_into_body": """
define void @f(ptr %p) {
entry:
  br label %loop
dead:
  br i1 true, label %body, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %c = icmp slt i32 %i, 10
  br i1 %c, label %body, label %exit
body:
  %v = phi i32 [ %i, %loop ], [ 3, %dead ]
  store i32 %v, ptr %p
  %inc = add i32 %i, 1
  br label %loop
exit:
  ret void
}
""",
    "undef_exit_branch": """
define void @f(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  store i32 %i, ptr %p
  br i1 undef, label %exit, label %latch
latch:
  %inc = add i32 %i, 1
  br i1 poison, label %loop, label %exit
exit:
  ret void
}
""",
    "merge_exits_or_cond": """
define i32 @f(ptr %p, i32 %n, i32 %m) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %x = load i32, ptr %p
  %c1 = icmp eq i32 %x, 0
  br i1 %c1, label %exit, label %check
check:
  %t = add i32 %m, 3
  %c2 = icmp sgt i32 %i, %t
  br i1 %c2, label %exit, label %latch
latch:
  %inc = add i32 %i, 1
  %c3 = icmp slt i32 %inc, %n
  br i1 %c3, label %loop, label %exit
exit:
  ret i32 0
}
""",
    "merge_exits_and_invert": """
define void @f(ptr %p, i32 %n, i1 %z) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %x = load i32, ptr %p
  %c1 = icmp eq i32 %x, 0
  br i1 %c1, label %check, label %exit
check:
  %c2 = icmp sgt i32 %x, 9
  br i1 %c2, label %latch, label %exit
latch:
  %inc = add i32 %i, 1
  %c3 = icmp slt i32 %inc, %n
  br i1 %c3, label %loop, label %exit
exit:
  ret void
}
""",
    "landingpad_exit": """
declare void @g()
declare i32 @__gxx_personality_v0(...)
define void @f(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %pre, label %other
other:
  invoke void @g() to label %done unwind label %lpad
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %inc, %cont ]
  invoke void @g() to label %cont unwind label %lpad
cont:
  %inc = add i32 %i, 1
  %cmp = icmp slt i32 %inc, 10
  br i1 %cmp, label %loop, label %done
lpad:
  %k = phi i32 [ 1, %other ], [ %i, %loop ]
  %lp = landingpad { ptr, i32 } cleanup
  store i32 %k, ptr null
  resume { ptr, i32 } %lp
done:
  ret void
}
""",
    "loop_metadata_moves_to_backedge": """
define void @f(ptr %p, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %inc, %a ], [ %inc, %b ]
  %inc = add i32 %i, 1
  %x = load i32, ptr %p
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  %c1 = icmp slt i32 %inc, %n
  br i1 %c1, label %h, label %exit, !llvm.loop !0
b:
  br label %h, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
""",
    "unnamed_blocks": """
define void @f(i1 %0, ptr %1) {
  br i1 %0, label %3, label %8
3:
  %4 = phi i32 [ 0, %2 ], [ %5, %3 ], [ %5, %6 ]
  %5 = add i32 %4, 1
  store i32 %5, ptr %1
  br i1 %0, label %3, label %6
6:
  %7 = icmp slt i32 %5, 9
  br i1 %7, label %3, label %8
8:
  ret void
}
""",
    "infinite_loop_no_exit": """
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %loop, label %other
other:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ 1, %other ], [ %inc, %loop ]
  store i32 %i, ptr %p
  %inc = add i32 %i, 1
  br label %loop
}
""",
}


# --- issue 22: the exit merge asks ValueTracking (poison, speculation) ----------------------------
# The exiting block %b holds BODY; what can be hoisted is, then %b's branch folds into the header's
# as ``or`` (when %cmp cannot be poison unless %c0 is) or as ``select``; an instruction that is not
# safe to speculate stays, and with it the block.

EXIT_MERGE_TEMPLATE = """
define i1 @f(<4 x i32> %v, <vscale x 4 x i32> %sv, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %c0 = icmp eq i32 %i, %n
  br i1 %c0, label %exit, label %b
b:
BODY
  br i1 %cmp, label %exit, label %latch
latch:
  %i1 = add i32 %i, 1
  br label %h
exit:
  ret i1 false
}
"""

_SV = "<vscale x 4 x i32>"


def _scalable_splat(value: int) -> str:
    return (
        "shufflevector (%s insertelement (%s poison, i32 %d, i64 0), %s poison, <vscale x 4 x i32> zeroinitializer)"
        % (_SV, _SV, value, _SV)
    )


EXIT_MERGE_BODIES: dict[str, str] = {
    "extract_in_range": "%e = extractelement <4 x i32> <i32 1, i32 2, i32 3, i32 4>, i32 3\n%cmp = icmp sgt i32 %e, 7",
    "extract_out_of_range": "%e = extractelement <4 x i32> <i32 1, i32 2, i32 3, i32 4>, i32 4\n%cmp = icmp sgt i32 %e, 7",
    "extract_variable_index": "%e = extractelement <4 x i32> <i32 1, i32 2, i32 3, i32 4>, i32 %n\n%cmp = icmp sgt i32 %e, 7",
    "extract_scalable_in_range": "%e = extractelement <vscale x 4 x i32> zeroinitializer, i32 3\n%cmp = icmp sgt i32 %e, 7",
    "extract_scalable_beyond_min": "%e = extractelement <vscale x 4 x i32> zeroinitializer, i32 4\n%cmp = icmp sgt i32 %e, 7",
    "insert_in_range": "%w = insertelement <4 x i32> zeroinitializer, i32 5, i32 2\n"
    "%e = extractelement <4 x i32> %w, i32 0\n%cmp = icmp sgt i32 %e, 7",
    "insert_out_of_range": "%w = insertelement <4 x i32> zeroinitializer, i32 5, i32 9\n"
    "%e = extractelement <4 x i32> %w, i32 0\n%cmp = icmp sgt i32 %e, 7",
    "shuffle_full_mask": "%w = shufflevector <4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32> zeroinitializer,"
    " <4 x i32> <i32 0, i32 5, i32 2, i32 3>\n%e = extractelement <4 x i32> %w, i32 1\n%cmp = icmp sgt i32 %e, 7",
    "shuffle_poison_lane": "%w = shufflevector <4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32> zeroinitializer,"
    " <4 x i32> <i32 0, i32 poison, i32 2, i32 3>\n%e = extractelement <4 x i32> %w, i32 1\n%cmp = icmp sgt i32 %e, 7",
    "shl_in_range": "%e = shl i32 3, 4\n%cmp = icmp sgt i32 %e, 7",
    "add_nsw_constant": "%e = add nsw i32 2147483647, 1\n%cmp = icmp sgt i32 %e, 7",
    "udiv_fixed_splat": "%d = udiv <4 x i32> %v, <i32 3, i32 3, i32 3, i32 3>\n"
    "%e = extractelement <4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "udiv_fixed_splat_zero": "%d = udiv <4 x i32> %v, zeroinitializer\n"
    "%e = extractelement <4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "udiv_fixed_not_splat": "%d = udiv <4 x i32> %v, <i32 3, i32 4, i32 3, i32 3>\n"
    "%e = extractelement <4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "urem_scalable_splat": "%%d = urem %s %%sv, %s\n" % (_SV, _scalable_splat(3))
    + "%e = extractelement <vscale x 4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "urem_scalable_splat_zero": "%%d = urem %s %%sv, zeroinitializer\n" % _SV
    + "%e = extractelement <vscale x 4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "sdiv_scalable_splat_minus_one": "%%d = sdiv %s %%sv, %s\n" % (_SV, _scalable_splat(-1))
    + "%e = extractelement <vscale x 4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "srem_minus_one_constant_numerator": "%d = srem <4 x i32> <i32 7, i32 7, i32 7, i32 7>, <i32 -1, i32 -1, i32 -1, i32 -1>\n"
    "%e = extractelement <4 x i32> %d, i32 0\n%cmp = icmp eq i32 %e, %i",
    "srem_minus_one_min_numerator": "%d = srem i32 -2147483648, -1\n%cmp = icmp eq i32 %d, %i",
    "sdiv_scalar_minus_one": "%d = sdiv i32 %n, -1\n%cmp = icmp eq i32 %d, %i",
    "sdiv_scalar_five": "%d = sdiv i32 %n, 5\n%cmp = icmp eq i32 %d, %i",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(EXIT_MERGE_BODIES))
def test_exit_merge_value_tracking(tmp_path: Path, name: str) -> None:
    body_text = "\n".join("  " + line for line in EXIT_MERGE_BODIES[name].splitlines())
    check_text(tmp_path, EXIT_MERGE_TEMPLATE.replace("BODY", body_text), "function(loop-simplify,lcssa)")


UNDEF_PHI = """
define i32 @f(i1 %c, i32 %a) {
entry:
  %x = add i32 %a, 1
  br label %h
h:
  %p = phi i32 [ %x, %entry ], [ undef, %h ]
  br i1 %c, label %h, label %e
e:
  ret i32 %p
}
"""


@needs_opt
def test_header_phi_with_undef_folds_to_maybe_poison_value(tmp_path: Path) -> None:
    """LLVM 19.1.7's simplifyPHINode drops an undef input without asking whether the
    common value may be poison: ``phi [ %x, %entry ], [ undef, %h ]`` becomes ``%x``."""
    check_text(tmp_path, UNDEF_PHI)
    module = parse_assembly(UNDEF_PHI)
    llvmpy_mid.run_passes(module, "loop-simplify")
    assert "phi" not in str(module.get_function("f"))


@needs_opt
@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_made_loops(tmp_path: Path, name: str) -> None:
    check_text(tmp_path, CASES[name])


@needs_opt
@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_made_loops_then_lcssa(tmp_path: Path, name: str) -> None:
    check_text(tmp_path, CASES[name], "loop-simplify,lcssa")


@pytest.mark.parametrize("name", sorted(CASES))
def test_analyses_kept_up_to_date(name: str) -> None:
    """The dominator tree and loop info the pass updates in place equal fresh ones."""
    module = parse_assembly(CASES[name])
    for fn in module.functions:
        if fn.is_declaration:
            continue
        dt = DominatorTree(fn)
        li = LoopInfo(fn, dt)
        for loop in list(li.top_level_loops):
            simplify_loop(loop, dt, li)
        fresh = DominatorTree(fn)
        for bb in fn.blocks:
            assert dt.is_reachable(bb) == fresh.is_reachable(bb)
            if fresh.is_reachable(bb):
                assert dt.idom(bb) is fresh.idom(bb), bb.name
        li.verify(fresh)
        for loop in li.loops_in_preorder():
            if any(p.terminator is not None and p.terminator.opcode == "indirectbr" for p in loop.header.predecessors):
                continue
            assert loop.preheader is not None or loop.header.is_entry_block
    llvmpy_mid.verify_module(module)


def test_pass_preserves_domtree_and_loops() -> None:
    from llvmpy_mid.analysis.loop_info import LoopAnalysis
    from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
    from llvmpy_mid.transform.utils.loop_simplify import LoopSimplifyPass

    module = parse_assembly(CASES["several_latches_backedge"])
    fn = next(f for f in module.functions if not f.is_declaration)
    from llvmpy_mid.passes.run import make_analysis_managers
    from llvmpy_mid.passes.instrumentation import PassInstrumentation

    _mam, fam = make_analysis_managers(PassInstrumentation())
    pa = LoopSimplifyPass().run(fn, fam)
    assert pa.preserved(DominatorTreeAnalysis)
    assert pa.preserved(LoopAnalysis)
    assert not pa.are_all_preserved()


# --- conformance and csmith corpora ---------------------------------------------------------





@needs_opt
@pytest.mark.parametrize("path", CONFORMANCE[:4], ids=lambda p: p.parent.name + "/" + p.name)
def test_conformance_sample(path: Path) -> None:
    check_against_opt(path, "loop-simplify")


@needs_opt
@pytest.mark.slow
@pytest.mark.parametrize("path", CONFORMANCE, ids=lambda p: p.parent.name + "/" + p.name)
def test_conformance_all(path: Path) -> None:
    check_against_opt(path, "loop-simplify")




@needs_opt
@pytest.mark.parametrize("path", CSMITH_FILES[:3], ids=lambda p: p.name)
def test_csmith_sample(path: Path, tmp_path: Path) -> None:
    check_csmith(path, tmp_path, "loop-simplify")


@needs_opt
@pytest.mark.slow
@pytest.mark.parametrize("path", CSMITH_FILES, ids=lambda p: p.name)
def test_csmith_all(path: Path, tmp_path: Path) -> None:
    check_csmith(path, tmp_path, "loop-simplify")


# --- random IR from llvm-stress-19 (irreducible bits, many loops, vector values) -------------




@needs_opt
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed", [4, 6, 58])
def test_llvm_stress_sample(tmp_path: Path, seed: int) -> None:
    check_against_opt(stress_file(tmp_path, seed, 300), "loop-simplify")


@needs_opt
@pytest.mark.slow
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed", range(1, 121))
def test_llvm_stress_all(tmp_path: Path, seed: int) -> None:
    check_against_opt(stress_file(tmp_path, seed, 500), "loop-simplify")


# Issue 22: modules where ``function(loop-simplify,lcssa)`` differed from opt-19 (an in-range
# extractelement taken for possibly poison: ``select`` for ``or``; a division by a fixed or
# scalable splat taken for unsafe to speculate: an exit left unfolded). (seed, size, scalable)
ISSUE22_SEEDS = [(18, 1000, False), (73, 500, True), (611, 300, True), (709, 300, True), (989, 300, True)]
ISSUE22_SEEDS_SLOW = [
    (19, 2000, True), (39, 1000, True), (53, 1000, True), (117, 2000, True), (193, 1000, True),
    (195, 3000, True), (201, 2000, True), (215, 2000, True), (244, 3000, False), (263, 1000, True),
    (327, 2000, True), (361, 1000, True), (367, 500, True), (381, 500, True), (433, 3000, True),
    (459, 1000, True), (479, 500, True), (523, 2000, True), (545, 3000, True), (549, 500, True),
    (621, 2000, True), (657, 3000, True), (671, 3000, True), (691, 2000, True), (711, 1000, True),
    (733, 2000, True), (737, 300, True), (747, 2000, True), (831, 2000, True), (955, 500, True),
    (971, 2000, True), (985, 2000, True), (997, 500, True),
]


@needs_opt
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed,size,scalable", ISSUE22_SEEDS)
def test_llvm_stress_issue22(tmp_path: Path, seed: int, size: int, scalable: bool) -> None:
    check_against_opt(stress_file(tmp_path, seed, size, scalable), "function(loop-simplify,lcssa)")


@needs_opt
@pytest.mark.slow
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed,size,scalable", ISSUE22_SEEDS_SLOW)
def test_llvm_stress_issue22_all(tmp_path: Path, seed: int, size: int, scalable: bool) -> None:
    check_against_opt(stress_file(tmp_path, seed, size, scalable), "function(loop-simplify,lcssa)")


@needs_opt
@pytest.mark.slow
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed", range(1001, 1201))
def test_llvm_stress_scalable_sweep(tmp_path: Path, seed: int) -> None:
    """Sizes 50-3,000, every other seed with scalable vectors (as benchmarks/sweep_loop_stress.py)."""
    size = (50, 100, 300, 500, 1000, 2000, 3000)[seed % 7]
    check_against_opt(stress_file(tmp_path, seed, size, bool(seed % 2)), "function(loop-simplify,lcssa)")


ARGUMENT_CONDITION_EXIT_MERGE = """
define void @f(i1 %c, i32 %n, ptr %p) {
entry:
  br label %h
h:
  %v = load volatile i32, ptr %p
  br i1 %c, label %l, label %exit
l:
  %x = icmp eq i32 %v, %n
  br i1 %x, label %exit, label %h
exit:
  ret void
}
"""


@needs_opt
def test_exit_merge_inverts_an_argument_condition(tmp_path: Path) -> None:
    """Merging two exits whose first branch tests a function argument (not a compare) and
    needs inverting adds ``xor %c, true`` named ``%c.not``, as opt-19 does."""
    check_text(tmp_path, ARGUMENT_CONDITION_EXIT_MERGE)
    module = parse_assembly(ARGUMENT_CONDITION_EXIT_MERGE)
    llvmpy_mid.run_passes(module, "loop-simplify")
    assert "%c.not = xor i1 %c, true" in str(module.get_function("f"))
