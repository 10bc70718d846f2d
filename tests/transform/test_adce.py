"""``adce`` against opt-19: dead arithmetic, dead branches and loops (with ``-adce-remove-loops``
and ``-adce-remove-control-flow``), phis that keep branches alive, infinite loops, debug records
in dead and live scopes; and a sample of the csmith corpus."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths
from opt_oracle import assert_file_same_as_opt, assert_same_as_opt

from oracles import require_tools

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
!8 = !DILocalVariable(name: "v", scope: !12, file: !1, line: 2, type: !10)
!9 = !DILocation(line: 2, column: 3, scope: !5)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !DILocation(line: 4, column: 5, scope: !12)
!12 = distinct !DILexicalBlock(scope: !5, file: !1, line: 3)
!13 = !DILocalVariable(name: "w", scope: !5, file: !1, line: 2, type: !10)
"""

CASES: dict[str, str] = {
    "dead_arith_and_branch": """
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = add i32 %a, 1
  %y = mul i32 %x, %x
  br i1 %c, label %l, label %r
l:
  %z = sub i32 %y, 3
  br label %m
r:
  br label %m
m:
  ret i32 %a
}
""",
    "live_phi_keeps_branch": """
define i32 @f(i32 %a, i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  br label %m
m:
  %p = phi i32 [ 1, %l ], [ %a, %r ]
  ret i32 %p
}
""",
    "dead_loop": """
define void @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    "infinite_loop_and_side_effects": """
declare void @g()
define void @f(i1 %c, ptr %p) {
entry:
  %v = load i32, ptr %p
  br i1 %c, label %spin, label %exit
spin:
  %w = add i32 %v, 1
  br label %spin
exit:
  call void @g()
  store volatile i32 %v, ptr %p
  ret void
}
""",
    "dead_switch": """
define i32 @f(i32 %a) {
entry:
  switch i32 %a, label %d [ i32 0, label %x
                            i32 1, label %y ]
x:
  br label %d
y:
  br label %d
d:
  ret i32 0
}
""",
    "debug_scopes": """
define i32 @f(i32 %a) !dbg !5 {
entry:
  %x = add i32 %a, 1, !dbg !11
    #dbg_value(i32 %x, !8, !DIExpression(), !11)
  %y = mul i32 %a, 2, !dbg !9
    #dbg_value(i32 %y, !13, !DIExpression(), !9)
  ret i32 %y, !dbg !9
}
""" + DBG,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_adce_same_as_opt(name: str) -> None:
    assert_same_as_opt(CASES[name], "adce")


@pytest.mark.parametrize("name", ["dead_loop", "infinite_loop_and_side_effects", "dead_arith_and_branch"])
@pytest.mark.parametrize(
    "options",
    [{"adce-remove-loops": True}, {"adce-remove-control-flow": False}],
    ids=["remove-loops", "keep-control-flow"],
)
def test_adce_options_same_as_opt(name: str, options: dict[str, object]) -> None:
    assert_same_as_opt(CASES[name], "adce", options)


def test_dead_loop_removed_only_with_option() -> None:
    kept = assert_same_as_opt(CASES["dead_loop"], "adce")
    assert "%i1 = add" in kept
    removed = assert_same_as_opt(CASES["dead_loop"], "adce", {"adce-remove-loops": True})
    assert "%i1" not in removed


@pytest.mark.parametrize("path", csmith_paths()[:3], ids=lambda p: Path(p).name)
def test_adce_csmith_same_as_opt(path: Path) -> None:
    assert_file_same_as_opt(path, "adce")


def test_library_call_without_the_registry() -> None:
    """The pass functions work when called directly (their options are declared by their modules)."""
    import sys

    code = (
        "from llvmpy_mid.asm import parse_assembly\n"
        "from llvmpy_mid.ir.dominators import DominatorTree\n"
        "from llvmpy_mid.transform.scalar.adce import aggressive_dead_code_elimination\n"
        "from llvmpy_mid.transform.scalar.lower_expect_intrinsic import lower_expect_intrinsic\n"
        "m = parse_assembly('define i32 @f(i32 %a) {\\n  %x = add i32 %a, 1\\n  ret i32 %a\\n}\\n')\n"
        "f = m.get_function('f')\n"
        "print(aggressive_dead_code_elimination(f, DominatorTree(f, post=True)), lower_expect_intrinsic(f))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "(True, True, False) False"


@pytest.mark.parametrize("seed", range(8))
def test_dominator_trees_kept_up_to_date(seed: int) -> None:
    """After ADCE changed the CFG, the updated post-dominator and dominator trees equal fresh ones."""
    require_tools("llvm-stress-19")
    from llvmpy_mid.analysis.dominator_printers import format_dominator_tree
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.transform.scalar.adce import aggressive_dead_code_elimination

    src = subprocess.run(["llvm-stress-19", "-seed=%d" % seed, "-size=300"], capture_output=True, text=True).stdout
    module = parse_assembly(src)
    for fn in module.functions:
        if fn.is_declaration:
            continue
        pdt, dt = DominatorTree(fn, post=True), DominatorTree(fn)
        aggressive_dead_code_elimination(fn, pdt, dt)
        assert format_dominator_tree(pdt) == format_dominator_tree(DominatorTree(fn, post=True))
        assert format_dominator_tree(dt) == format_dominator_tree(DominatorTree(fn))


def test_trees_preserved_in_the_pass_log_as_opt() -> None:
    """``adce,adce``: the second run reuses the updated post-dominator tree, as opt-19's log shows."""
    import io

    import llvmpy_mid
    from llvmpy_mid.asm import parse_assembly

    text = CASES["dead_arith_and_branch"]
    result = llvmpy_mid.run_passes(parse_assembly(text), "adce,adce", debug_pass_manager=True, stream=io.StringIO())
    ours = [line for line in result.log if "PostDominatorTree" in line]
    r = subprocess.run(
        ["opt-19", "-passes=adce,adce", "-debug-pass-manager", "-disable-output", "-"], input=text, capture_output=True, text=True
    )
    theirs = [line for line in r.stderr.splitlines() if "PostDominatorTree" in line]
    assert ours == theirs
