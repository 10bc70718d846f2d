"""``lcssa`` against opt-19: our printed module must equal ``opt-19 -passes=lcssa -S``
byte for byte (the ``; ModuleID`` line aside) and verify; every loop must then
be in LCSSA form.

Inputs: llvm-stress-19 programs (3 seeds; 120 under ``--run-slow``), hand-made loops (one exit, several exits merged by an SSA update, uses
in exit-block phis, nested loops, uses in unreachable blocks, invoke results,
``#dbg_value`` records outside the loop, loops without exits), LLVM's
conformance files of the loop folders that opt-19 parses (a sample; all under
``--run-slow``) and the csmith files of the csmith corpus (``tests/csmith_files.py``) (a sample;
all under ``--run-slow``), whose ``lli-19`` output must not change.
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
from llvmpy_mid.transform.utils.lcssa import form_lcssa_recursively






DBG = """
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "a.c", directory: "/tmp")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocalVariable(name: "v", scope: !5, file: !1, line: 2, type: !10)
!9 = !DILocation(line: 2, column: 3, scope: !5)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !DILocation(line: 4, column: 5, scope: !5)
"""

CASES: dict[str, str] = {
    "single_exit": """
define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = mul i32 %inc, %i
  ret i32 %r
}
""",
    "two_exits_merge": """
define i32 @f(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %x = load i32, ptr %p
  %c1 = icmp eq i32 %x, 0
  br i1 %c1, label %e1, label %latch
latch:
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %e2
e1:
  br label %join
e2:
  br label %join
join:
  %r = add i32 %i, %x
  ret i32 %r
}
""",
    "exit_phi_use_and_unnamed": """
define i32 @f(ptr %0, i32 %1) {
2:
  br label %3
3:
  %4 = phi i32 [ 0, %2 ], [ %7, %6 ]
  %5 = load i32, ptr %0
  br i1 true, label %6, label %9
6:
  %7 = add i32 %4, 1
  %8 = icmp slt i32 %7, %1
  br i1 %8, label %3, label %9
9:
  %10 = phi i32 [ %5, %3 ], [ %7, %6 ]
  %11 = add i32 %10, %5
  ret i32 %11
}
""",
    "nested": """
define i32 @f(ptr %p, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %inc, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %jinc, %inner ]
  %jinc = add i32 %j, %i
  %c = icmp slt i32 %jinc, %m
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %inc = add i32 %i, 1
  %c2 = icmp slt i32 %inc, %n
  br i1 %c2, label %outer, label %done
done:
  %r = add i32 %jinc, %inc
  ret i32 %r
}
""",
    "use_in_unreachable": """
define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %exit
dead:
  %d = add i32 %inc, 2
  ret i32 %d
exit:
  ret i32 %inc
}
""",
    "invoke_in_loop": """
declare i32 @g()
declare i32 @__gxx_personality_v0(...)
define i32 @f(i32 %n) personality ptr @__gxx_personality_v0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %cont ]
  %v = invoke i32 @g() to label %cont unwind label %lpad
cont:
  %inc = add i32 %i, %v
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %exit
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 %i
exit:
  ret i32 %v
}
""",
    "dbg_value_outside": """
define i32 @f(i32 %n) !dbg !5 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %inc = add i32 %i, 1, !dbg !9
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
    #dbg_value(i32 %inc, !8, !DIExpression(), !11)
  ret i32 0
}
""" + DBG,
    "dbg_two_exits": """
define i32 @f(ptr %p, i32 %n) !dbg !5 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %x = load i32, ptr %p, !dbg !9
  %c1 = icmp eq i32 %x, 0
  br i1 %c1, label %e1, label %latch
latch:
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %e2
e1:
  br label %join
e2:
  br label %join
join:
    #dbg_value(i32 %x, !8, !DIExpression(), !11)
  %r = add i32 %x, 1, !dbg !11
  ret i32 %r
}
""" + DBG,
    "no_exit": """
define void @f(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  store i32 %inc, ptr %p
  br label %loop
}
""",
    "exit_not_dominated": """
define i32 @f(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]
  %x = load i32, ptr %p
  %c1 = icmp eq i32 %x, 0
  br i1 %c1, label %side, label %latch
side:
  %y = add i32 %x, 7
  %c3 = icmp eq i32 %y, 3
  br i1 %c3, label %e1, label %latch
latch:
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %loop, label %e2
e1:
  ret i32 %y
e2:
  ret i32 %inc
}
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_made_loops(tmp_path: Path, name: str) -> None:
    path = tmp_path / "in.ll"
    path.write_text(CASES[name])
    check_against_opt(path, "lcssa")


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_is_lcssa(name: str) -> None:
    module = parse_assembly(CASES[name])
    for fn in module.functions:
        if fn.is_declaration:
            continue
        dt = DominatorTree(fn)
        li = LoopInfo(fn, dt)
        for loop in li.top_level_loops:
            form_lcssa_recursively(loop, dt, li)
        for loop in li.top_level_loops:
            assert loop.is_recursively_lcssa_form(dt, li)
    llvmpy_mid.verify_module(module)





@needs_opt
@pytest.mark.parametrize("path", CONFORMANCE[:4], ids=lambda p: p.parent.name + "/" + p.name)
def test_conformance_sample(path: Path) -> None:
    check_against_opt(path, "lcssa")


@needs_opt
@pytest.mark.slow
@pytest.mark.parametrize("path", CONFORMANCE, ids=lambda p: p.parent.name + "/" + p.name)
def test_conformance_all(path: Path) -> None:
    check_against_opt(path, "lcssa")




@needs_opt
@pytest.mark.parametrize("path", CSMITH_FILES[1:3], ids=lambda p: p.name)
def test_csmith_sample(path: Path, tmp_path: Path) -> None:
    check_csmith(path, tmp_path, "lcssa")


@needs_opt
@pytest.mark.slow
@pytest.mark.parametrize("path", CSMITH_FILES, ids=lambda p: p.name)
def test_csmith_all(path: Path, tmp_path: Path) -> None:
    check_csmith(path, tmp_path, "lcssa")


# --- random IR from llvm-stress-19 (irreducible bits, many loops, vector values) -------------




@needs_opt
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed", [4, 6, 58])
def test_llvm_stress_sample(tmp_path: Path, seed: int) -> None:
    check_against_opt(stress_file(tmp_path, seed, 300), "lcssa")


@needs_opt
@pytest.mark.slow
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed", range(1, 121))
def test_llvm_stress_all(tmp_path: Path, seed: int) -> None:
    check_against_opt(stress_file(tmp_path, seed, 500), "lcssa")
