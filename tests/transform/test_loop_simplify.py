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
