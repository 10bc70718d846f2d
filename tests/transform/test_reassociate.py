"""``reassociate`` against opt-19: our printed module equals ``opt-19 -passes=reassociate
-S`` (ModuleID aside) on hand-made functions that exercise the driver built so far: the
dead-instruction cleanup in reachable blocks (ranked operands that become dead
are erased in turn), unreachable blocks left alone, debug records of erased values
salvaged, and IR that the pass keeps as it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from loop_oracle import needs_opt
from pass_oracle import check_like_opt

from oracles import require_tools

DEAD_CHAINS = """
declare void @use(i32)

define i32 @dead_chain(i32 %a, i32 %b, ptr %p) {
entry:
  %l = load i32, ptr %p, align 4
  %x = add i32 %l, %a
  %y = mul i32 %x, 7
  %z = xor i32 %y, %b
  ret i32 %a
}

define void @unreachable_kept(i32 %a) {
entry:
  ret void
dead:
  %x = add i32 %a, 1
  %y = mul i32 %x, %x
  br label %dead
}

define i32 @loop(i32 %n, ptr %p) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %inc, %head ]
  %v = load volatile i32, ptr %p, align 4
  %dead = sdiv i32 %v, 3
  %inc = add i32 %i, 1
  %c = icmp slt i32 %inc, %n
  br i1 %c, label %head, label %exit
exit:
  call void @use(i32 %i)
  ret i32 %inc
}
"""

DEBUG = """
define i32 @salvaged(i32 %a) !dbg !5 {
entry:
  %x = add i32 %a, 5, !dbg !8
    #dbg_value(i32 %x, !9, !DIExpression(), !8)
  ret i32 %a, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "salvaged", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 1, column: 1, scope: !5)
!9 = !DILocalVariable(name: "x", scope: !5, file: !1, line: 1, type: !10)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
"""


@needs_opt
@pytest.mark.parametrize("text", [DEAD_CHAINS, DEBUG], ids=["dead_chains", "debug"])
def test_like_opt19(tmp_path: Path, text: str) -> None:
    require_tools("opt-19")
    path = tmp_path / "in.ll"
    path.write_text(text)
    check_like_opt(path, "reassociate")


@needs_opt
def test_changes_are_visible(tmp_path: Path) -> None:
    """The dead root is gone (its movable operands are not queued again, as in
    opt-19), the unreachable block is untouched."""
    require_tools("opt-19")
    import llvmpy_mid
    from llvmpy_mid.asm import parse_assembly, print_module

    module = parse_assembly(DEAD_CHAINS)
    llvmpy_mid.run_passes(module, "reassociate")
    text = print_module(module)
    assert "%z = xor" not in text
    assert "%y = mul i32 %x, 7" in text
    assert "%y = mul i32 %x, %x" in text
