"""SimplifyCFG's value-equality family (``simplify_cfg_value_compare``): each rule on small
functions printed exactly as opt-19 prints them (threading through the only predecessor, folding
into predecessors with ``!prof`` weights, ``.fold.split``, ``infloop`` and ``magicptr``, icmp
chains to switches with ``switch.early.test`` and freeze, switches and indirectbrs on selects,
``switch.edge``, debug locations), and random CFGs of compares on i8 values: ``lli-19`` computes
the same results on every input before and after the pass."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.asm import parse_assembly, print_module  # noqa: E402
from oracles import lli_output, require_tools  # noqa: E402

THREAD = r"""
declare void @f(i32)

define void @thread_dead_cases(i32 %x) {
entry:
  switch i32 %x, label %next [
    i32 1, label %a
    i32 2, label %b
  ], !prof !0
next:
  switch i32 %x, label %c [
    i32 1, label %a
    i32 3, label %b
    i32 2, label %d
  ], !prof !1
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define void @thread_known(i32 %x) {
entry:
  switch i32 %x, label %c [
    i32 1, label %next
    i32 2, label %b
  ]
next:
  %cmp = icmp eq i32 %x, 1
  br i1 %cmp, label %a, label %b
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
}

define void @thread_branch_default(i32 %x) {
entry:
  %c0 = icmp ne i32 %x, 7
  br i1 %c0, label %next, label %b
next:
  %cmp = icmp eq i32 %x, 7
  br i1 %cmp, label %a, label %c
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
}

!0 = !{!"branch_weights", i32 10, i32 20, i32 30}
!1 = !{!"branch_weights", i32 1, i32 2, i32 3, i32 4}
"""


FOLD = r"""
declare void @f(i32)

define void @fold_default(i32 %x) {
entry:
  switch i32 %x, label %next [
    i32 1, label %a
    i32 2, label %b
  ], !prof !0
next:
  switch i32 %x, label %c [
    i32 3, label %a
    i32 2, label %d
    i32 4, label %b
  ], !prof !1
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define void @fold_not_default(i32 %x) {
entry:
  switch i32 %x, label %a [
    i32 5, label %next
    i32 1, label %next
    i32 9, label %b
    i32 3, label %next
  ], !prof !2
next:
  switch i32 %x, label %c [
    i32 3, label %a
    i32 1, label %d
  ]
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define void @fold_branches(i32 %x) {
entry:
  %c1 = icmp eq i32 %x, 10
  br i1 %c1, label %a, label %next, !prof !3
next:
  %c2 = icmp ne i32 %x, 20
  br i1 %c2, label %n2, label %b, !prof !4
n2:
  %c3 = icmp eq i32 %x, 30
  br i1 %c3, label %c, label %d
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define void @fold_ptr(ptr %p) {
entry:
  %c1 = icmp eq ptr %p, null
  br i1 %c1, label %a, label %next
next:
  %c2 = icmp eq ptr %p, inttoptr (i64 8 to ptr)
  br i1 %c2, label %b, label %c
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
}

define i32 @fold_split(i32 %x) {
entry:
  switch i32 %x, label %next [
    i32 1, label %end
    i32 2, label %a
  ]
next:
  switch i32 %x, label %end [
    i32 3, label %a
  ]
a:
  call void @f(i32 1)
  br label %end
end:
  %r = phi i32 [ 1, %entry ], [ 2, %next ], [ 3, %a ]
  ret i32 %r
}

define void @fold_infloop(i32 %x) {
entry:
  br label %loop
loop:
  switch i32 %x, label %a [
    i32 1, label %loop
    i32 2, label %b
  ]
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
}

define void @fold_two_preds(i32 %x, i1 %cc) {
entry:
  br i1 %cc, label %p1, label %p2
p1:
  call void @f(i32 9)
  switch i32 %x, label %next [
    i32 1, label %a
  ]
p2:
  call void @f(i32 8)
  switch i32 %x, label %next [
    i32 2, label %b
  ]
next:
  switch i32 %x, label %c [
    i32 3, label %a
    i32 4, label %b
  ]
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
}

!0 = !{!"branch_weights", i32 10, i32 20, i32 30}
!1 = !{!"branch_weights", i32 1, i32 2, i32 3, i32 4}
!2 = !{!"branch_weights", i32 7, i32 11, i32 13, i32 17, i32 19}
!3 = !{!"branch_weights", i32 5, i32 95}
!4 = !{!"branch_weights", i32 60, i32 40}
"""


CHAIN = r"""
declare void @f(i32)

define void @or_chain(i8 %x) {
entry:
  %a = icmp eq i8 %x, 5
  %b = icmp eq i8 %x, 9
  %c = icmp ult i8 %x, 3
  %o1 = or i1 %a, %b
  %o2 = or i1 %o1, %c
  br i1 %o2, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @and_chain_extra(i8 %x, i1 %e) {
entry:
  %a = icmp ne i8 %x, 5
  %b = icmp ne i8 %x, 9
  %a1 = select i1 %a, i1 %b, i1 false
  %a2 = select i1 %a1, i1 %e, i1 false
  br i1 %a2, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  %p = phi i32 [ 4, %entry ]
  call void @f(i32 %p)
  ret void
}

define void @or_chain_noundef_extra(i8 %x, i1 noundef %e) {
entry:
  %a = icmp eq i8 %x, 5
  %b = icmp eq i8 %x, 9
  %o1 = or i1 %a, %e
  %o2 = or i1 %o1, %b
  br i1 %o2, label %t, label %f
t:
  %p = phi i32 [ 4, %entry ]
  call void @f(i32 %p)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @mask_chain(i32 %x) {
entry:
  %m = and i32 %x, -3
  %a = icmp eq i32 %m, 16
  %b = icmp eq i32 %x, 1
  %o = or i1 %a, %b
  br i1 %o, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @ormask_chain(i32 %x) {
entry:
  %m = or i32 %x, 32
  %a = icmp eq i32 %m, 33
  %b = icmp eq i32 %x, 7
  %o = or i1 %a, %b
  br i1 %o, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @range_add_chain(i32 %x) {
entry:
  %off = add i32 %x, -10
  %a = icmp ult i32 %off, 3
  %b = icmp eq i32 %x, 100
  %o = or i1 %a, %b
  br i1 %o, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @ptr_chain(ptr %p) {
entry:
  %a = icmp eq ptr %p, null
  %b = icmp eq ptr %p, inttoptr (i64 4 to ptr)
  %o = or i1 %a, %b
  br i1 %o, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @ugt_and_chain(i32 %x) {
entry:
  %a = icmp ugt i32 %x, 2
  %b = icmp ne i32 %x, 7
  %o = and i1 %a, %b
  br i1 %o, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}
"""


SELECT = r"""
declare void @f(i32)

define void @switch_select(i1 %c) {
entry:
  %s = select i1 %c, i32 2, i32 7
  switch i32 %s, label %d [
    i32 2, label %a
    i32 3, label %b
  ], !prof !0
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
d:
  call void @f(i32 3)
  ret void
}

define void @switch_select_same(i1 %c, i32 %x) {
entry:
  %s = select i1 %c, i32 2, i32 3
  switch i32 %s, label %d [
    i32 2, label %a
    i32 3, label %a
  ]
a:
  call void @f(i32 1)
  ret void
d:
  call void @f(i32 3)
  ret void
}

define void @indirect_select(i1 %c) {
entry:
  %s = select i1 %c, ptr blockaddress(@indirect_select, %a), ptr blockaddress(@indirect_select, %b)
  indirectbr ptr %s, [label %a, label %b, label %d]
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
d:
  %p = phi i32 [ 3, %entry ]
  call void @f(i32 %p)
  ret void
}

define void @indirect_select_missing(i1 %c) {
entry:
  %s = select i1 %c, ptr blockaddress(@indirect_select_missing, %a), ptr blockaddress(@indirect_select_missing, %b)
  indirectbr ptr %s, [label %a, label %d]
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
d:
  call void @f(i32 3)
  ret void
}

!0 = !{!"branch_weights", i32 3, i32 5, i32 7}
"""


ICMPBR = r"""
declare void @f(i32)
declare void @g()

define i1 @edge(i8 %x) {
entry:
  switch i8 %x, label %def [
    i8 1, label %end
    i8 2, label %end
  ], !prof !0
def:
  %t = icmp eq i8 %x, 92
  br label %end
end:
  %r = phi i1 [ true, %entry ], [ %t, %def ], [ true, %entry ]
  ret i1 %r
}

define i1 @edge_ne(i8 %x) {
entry:
  switch i8 %x, label %def [
    i8 1, label %end
    i8 2, label %end
  ]
def:
  %t = icmp ne i8 %x, 92
  br label %end
end:
  %r = phi i1 [ false, %entry ], [ %t, %def ], [ false, %entry ]
  ret i1 %r
}

define i1 @known_case(i8 %x) {
entry:
  switch i8 %x, label %other [
    i8 1, label %def
    i8 2, label %end
    i8 3, label %other
  ]
def:
  %t = icmp eq i8 %x, 1
  br label %end
other:
  call void @g()
  br label %end
end:
  %r = phi i1 [ true, %entry ], [ %t, %def ], [ false, %other ]
  ret i1 %r
}

define i1 @in_cases(i8 %x) {
entry:
  switch i8 %x, label %def [
    i8 1, label %end
    i8 2, label %end
  ]
def:
  %t = icmp eq i8 %x, 2
  br label %end
end:
  %r = phi i1 [ true, %entry ], [ %t, %def ], [ true, %entry ]
  ret i1 %r
}

!0 = !{!"branch_weights", i32 9, i32 5, i32 7}
"""


EXTRA = r"""
declare void @f(i32)

define void @fold_infloop(i32 %x) {
entry:
  switch i32 %x, label %a [
    i32 1, label %loop
    i32 2, label %b
  ]
loop:
  switch i32 %x, label %a [
    i32 1, label %loop
    i32 3, label %b
  ]
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
}

define void @thread_dbg(i32 %x) !dbg !5 {
entry:
  %c0 = icmp eq i32 %x, 3, !dbg !8
  br i1 %c0, label %next, label %b, !dbg !8
next:
  %cmp = icmp eq i32 %x, 3, !dbg !9
  br i1 %cmp, label %a, label %c, !dbg !9
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
}

define void @chain_dbg(i8 %x, i1 %e) !dbg !10 {
entry:
  %a = icmp eq i8 %x, 5
  %b = icmp eq i8 %x, 9
  %o1 = or i1 %a, %e
  %o2 = or i1 %o1, %b
  br i1 %o2, label %t, label %f, !dbg !11
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "thread_dbg", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 3, column: 5, scope: !5)
!10 = distinct !DISubprogram(name: "chain_dbg", scope: !1, file: !1, line: 9, type: !6, unit: !0)
!11 = !DILocation(line: 10, column: 7, scope: !10)
"""


MORE = r"""
declare void @f(i32)

define void @two_ptr_preds(ptr %p, i1 %cc) {
entry:
  br i1 %cc, label %p1, label %p2
p1:
  call void @f(i32 9)
  %a1 = icmp eq ptr %p, null
  br i1 %a1, label %a, label %next
p2:
  call void @f(i32 8)
  %a2 = icmp eq ptr %p, inttoptr (i64 4 to ptr)
  br i1 %a2, label %b, label %next
next:
  %a3 = icmp eq ptr %p, inttoptr (i64 12 to ptr)
  br i1 %a3, label %c, label %d
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
c:
  call void @f(i32 3)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define void @dup_chain(i32 %x) {
entry:
  %a = icmp eq i32 %x, 5
  %b = icmp eq i32 %x, 5
  %c = icmp eq i32 %x, 3
  %o1 = or i1 %a, %b
  %o2 = or i1 %o1, %c
  br i1 %o2, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @ptr_chain_extra(ptr %p, ptr %q) {
entry:
  %a = icmp eq ptr %p, null
  %b = icmp eq ptr %p, inttoptr (i64 4 to ptr)
  %e = icmp eq ptr %q, null
  %o1 = or i1 %a, %e
  %o = or i1 %o1, %b
  br i1 %o, label %t, label %f
t:
  call void @f(i32 1)
  ret void
f:
  call void @f(i32 2)
  ret void
}

define void @ptrtoint_switch(ptr %p) {
entry:
  %i = ptrtoint ptr %p to i64
  switch i64 %i, label %next [
    i64 0, label %a
    i64 8, label %b
  ]
next:
  %c = icmp eq ptr %p, inttoptr (i64 16 to ptr)
  br i1 %c, label %a, label %d
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define void @dbg_between(i32 %x) {
entry:
  switch i32 %x, label %next [
    i32 1, label %a
  ]
next:
  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression()), !dbg !10
  %c = icmp eq i32 %x, 2
  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression()), !dbg !10
  br i1 %c, label %a, label %d
a:
  call void @f(i32 1)
  ret void
d:
  call void @f(i32 4)
  ret void
}

define i32 @big_switch_preds(i32 %x, i32 %y) {
entry:
  switch i32 %y, label %e [
    i32 1, label %next
    i32 2, label %next
    i32 3, label %next
  ]
e:
  switch i32 %x, label %next [
    i32 1, label %a
  ]
next:
  switch i32 %x, label %d [
    i32 2, label %a
    i32 3, label %a
    i32 4, label %a
    i32 5, label %a
    i32 6, label %a
    i32 7, label %a
    i32 8, label %a
    i32 9, label %a
    i32 10, label %a
    i32 11, label %a
    i32 12, label %a
    i32 13, label %a
    i32 14, label %a
    i32 15, label %a
    i32 16, label %a
    i32 17, label %a
    i32 18, label %a
    i32 19, label %a
    i32 20, label %a
    i32 21, label %a
    i32 22, label %a
    i32 23, label %a
    i32 24, label %a
    i32 25, label %a
    i32 26, label %a
    i32 27, label %a
    i32 28, label %a
    i32 29, label %a
    i32 30, label %a
    i32 31, label %a
    i32 32, label %a
    i32 33, label %a
    i32 34, label %a
  ]
a:
  ret i32 1
d:
  ret i32 2
}

declare void @llvm.dbg.value(metadata, metadata, metadata)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "dbg_between", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!9 = !DILocalVariable(name: "v", scope: !5, file: !1, line: 2, type: !11)
!10 = !DILocation(line: 2, column: 3, scope: !5)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
"""


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(THREAD, id="thread-through-only-predecessor"),
        pytest.param(FOLD, id="fold-into-predecessors"),
        pytest.param(CHAIN, id="icmp-chain-to-switch"),
        pytest.param(SELECT, id="terminator-on-select"),
        pytest.param(ICMPBR, id="uncond-branch-with-icmp"),
        pytest.param(EXTRA, id="infloop-and-debug-locations"),
        pytest.param(MORE, id="pointers-duplicates-debug-intrinsics-large-switch"),
    ],
)
def test_same_as_opt(text: str) -> None:
    assert_same_as_opt(text, "simplifycfg")


def test_same_as_opt_with_switch_range_to_icmp() -> None:
    assert_same_as_opt(FOLD + CHAIN.replace("declare void @f(i32)", ""), "simplifycfg<switch-range-to-icmp>")


def test_switch_cases_and_weights_exactly() -> None:
    """The folded switch lists LLVM's cases in LLVM's order with the scaled weights
    (checked against numbers worked out by hand, independently of opt-19)."""
    module = parse_assembly(FOLD)
    llvmpy_mid.run_passes(module, "simplifycfg")
    text = print_module(module)
    fn = text[text.index("define void @fold_default") :]
    fn = fn[: fn.index("\n}\n")]
    # pred default 10 is split by the successor's weights (1 + 2 + 4 valid, case 3 is handled
    # by the predecessor): cases 1 and 2 scale by 7, new cases 3 and 4 by the default 10.
    assert "i32 1, label %a\n    i32 2, label %b\n    i32 3, label %a\n    i32 4, label %b\n  ], !prof !0" in fn
    assert '!0 = !{!"branch_weights", i32 10, i32 140, i32 210, i32 20, i32 40}' in text


# --- random CFGs of compares, run before and after -----------------------------------------------

_VALUES = (0, 1, 2, 3, 5, 7, 9, 200, 255)
_YS = (0, 1, 5, 200)
_PTRS = ("null", "inttoptr (i64 8 to ptr)", "inttoptr (i64 16 to ptr)")


def _cmp(rng: random.Random, name: str, var: str, out: list[str]) -> None:
    pred = rng.choice(("eq", "eq", "ne", "ne", "ult", "ugt"))
    out.append("  %%%s = icmp %s i8 %s, %d" % (name, pred, var, rng.choice(_VALUES)))


def random_function(rng: random.Random, fname: str, md: list[str]) -> str:
    """``@fname(i8 %x, i8 %y, ptr %p)``: a DAG of blocks ending in switches, equality branches
    (on ``%x`` or on the pointer ``%p``), and/or chains of compares (maybe with one compare of
    ``%y``), switches on selects, lone compares before a join; some terminators carry random
    ``!prof`` weights (appended to ``md``); leaves return constants or join in a phi."""
    n = rng.randint(3, 7)
    n_leaves = rng.randint(2, 4)
    blocks: list[list[str]] = []
    exit_edges: dict[int, int] = {}
    used_leaves: set[int] = set()
    joins: list[str] = []

    def target(i: int) -> str:
        r = rng.random()
        if r < 0.5 and i + 1 < n:
            return "b%d" % rng.randint(i + 1, n - 1)
        if r < 0.75:
            exit_edges[i] = exit_edges.get(i, 0) + 1
            return "exit"
        leaf = rng.randrange(n_leaves)
        used_leaves.add(leaf)
        return "l%d" % leaf

    def prof(count: int) -> str:
        if rng.random() < 0.5:
            return ""
        md.append("!{!\"branch_weights\", %s}" % ", ".join("i32 %d" % rng.choice((0, 1, 3, 10, 64, 1000)) for _ in range(count)))
        return ", !prof !%d" % (len(md) - 1)

    for i in range(n):
        out = ["b%d:" % i]
        kind = rng.randrange(6)
        if kind == 0:
            var = "%x" if rng.random() < 0.85 else "%y"
            default = target(i)
            cases = rng.sample(_VALUES, rng.randint(1, 4))
            dests = [target(i) for _ in cases]
            out.append("  switch i8 %s, label %%%s [" % (var, default))
            out.extend("    i8 %d, label %%%s" % (v, d) for v, d in zip(cases, dests))
            out.append("  ]" + prof(len(cases) + 1))
        elif kind == 1:
            out.append("  %%c%d = icmp %s i8 %%x, %d" % (i, rng.choice(("eq", "ne")), rng.choice(_VALUES)))
            out.append("  br i1 %%c%d, label %%%s, label %%%s%s" % (i, target(i), target(i), prof(2)))
        elif kind == 2:
            k = rng.randint(2, 3)
            names = ["c%d_%d" % (i, j) for j in range(k)]
            for nm in names:
                _cmp(rng, nm, "%x", out)
            if rng.random() < 0.4:
                names.append("e%d" % i)
                _cmp(rng, names[-1], "%y", out)
                rng.shuffle(names)
            op = rng.choice(("or", "and"))
            acc = names[0]
            for j, nm in enumerate(names[1:]):
                new = "o%d_%d" % (i, j)
                if rng.random() < 0.5:
                    out.append("  %%%s = %s i1 %%%s, %%%s" % (new, op, acc, nm))
                elif op == "or":
                    out.append("  %%%s = select i1 %%%s, i1 true, i1 %%%s" % (new, acc, nm))
                else:
                    out.append("  %%%s = select i1 %%%s, i1 %%%s, i1 false" % (new, acc, nm))
                acc = new
            out.append("  br i1 %%%s, label %%%s, label %%%s" % (acc, target(i), target(i)))
        elif kind == 3:
            out.append("  %%s%d.c = icmp eq i8 %%y, %d" % (i, rng.choice(_YS)))
            a, b = rng.sample(_VALUES, 2)
            out.append("  %%s%d = select i1 %%s%d.c, i8 %d, i8 %d" % (i, i, a, b))
            default = target(i)
            cases = rng.sample(_VALUES, rng.randint(1, 3))
            out.append("  switch i8 %%s%d, label %%%s [" % (i, default))
            out.extend("    i8 %d, label %%%s" % (v, target(i)) for v in cases)
            out.append("  ]" + prof(len(cases) + 1))
        elif kind == 4:
            out.append("  %%c%d = icmp %s ptr %%p, %s" % (i, rng.choice(("eq", "ne")), rng.choice(_PTRS)))
            out.append("  br i1 %%c%d, label %%%s, label %%%s%s" % (i, target(i), target(i), prof(2)))
        else:
            # a lone compare of %x whose result a join block's only phi takes
            cases = rng.sample(_VALUES, rng.randint(1, 3))
            out.append("  switch i8 %%x, label %%b%d.def [" % i)
            out.extend("    i8 %d, label %%b%d.join" % (v, i) for v in cases)
            out.append("  ]" + prof(len(cases) + 1))
            out += ["b%d.def:" % i, "  %%t%d = icmp %s i8 %%x, %d" % (i, rng.choice(("eq", "ne")), rng.choice(_VALUES))]
            out.append("  br label %%b%d.join" % i)
            incoming = ", ".join(["[ true, %%b%d ]" % i] * len(cases) + ["[ %%t%d, %%b%d.def ]" % (i, i)])
            out += ["b%d.join:" % i, "  %%j%d = phi i1 %s" % (i, incoming)]
            out.append("  br i1 %%j%d, label %%%s, label %%%s" % (i, target(i), target(i)))
            joins.append("b%d.join" % i)
        blocks.append(out)
    lines = ["define i32 @%s(i8 %%x, i8 %%y, ptr %%p) {" % fname, "entry:", "  br label %b0"]
    for out in blocks:
        lines.extend(out)
    for leaf in range(n_leaves):
        lines += ["l%d:" % leaf, "  ret i32 %d" % (leaf * 11 + 3)]
    if exit_edges:
        incoming = []
        for i, count in exit_edges.items():
            src = "b%d.join" % i if "b%d.join" % i in joins else "b%d" % i
            incoming += ["[ %d, %%%s ]" % (100 + i, src)] * count
        lines += ["exit:", "  %r = phi i32 " + ", ".join(incoming), "  ret i32 %r"]
    lines.append("}")
    return "\n".join(lines) + "\n"


def random_module(seed: int, count: int) -> str:
    rng = random.Random(seed)
    md: list[str] = []
    fns = [random_function(rng, "g%d" % k, md) for k in range(count)]
    main = [
        '@fmt = private constant [7 x i8] c"%u %u\\0A\\00"',
        "declare i32 @printf(ptr, ...)",
        "define i32 @main() {",
        "entry:",
        "  br label %loop",
        "loop:",
        "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]",
    ]
    hashes = ["%h" + str(k) for k in range(count)]
    for k in range(count):
        main.append("  %%h%d = phi i32 [ 0, %%entry ], [ %%h%d.n, %%loop ]" % (k, k))
    main += ["  %x = trunc i32 %i to i8", "  %yi = lshr i32 %i, 8", "  %y = trunc i32 %yi to i8",
             "  %pi = and i32 %i, 24", "  %pz = zext i32 %pi to i64", "  %p = inttoptr i64 %pz to ptr"]
    for k in range(count):
        main += [
            "  %%r%d = call i32 @g%d(i8 %%x, i8 %%y, ptr %%p)" % (k, k),
            "  %%h%d.m = mul i32 %s, 31" % (k, hashes[k]),
            "  %%h%d.n = add i32 %%h%d.m, %%r%d" % (k, k, k),
        ]
    main += ["  %i1 = add i32 %i, 1", "  %more = icmp ult i32 %i1, 2560", "  br i1 %more, label %loop, label %done", "done:"]
    for k in range(count):
        main.append("  call i32 (ptr, ...) @printf(ptr @fmt, i32 %d, i32 %%h%d.n)" % (k, k))
    main += ["  ret i32 0", "}"]
    mds = ["!%d = %s" % (k, node) for k, node in enumerate(md)]
    return "\n".join(fns) + "\n" + "\n".join(main + mds) + "\n"


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[] if s < 3 else [pytest.mark.slow], id="seed%d" % s) for s in range(12)]
)
def test_random_compares_keep_their_results(seed: int) -> None:
    """Every (x, y) with x an i8 and y < 10 gives the same result before and after."""
    require_tools("lli-19")
    text = random_module(seed, 12)
    before = lli_output(text)
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "function(simplifycfg)")
    llvmpy_mid.verify_module(module)
    after = lli_output(print_module(module))
    assert after == before


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[] if s < 3 else [pytest.mark.slow], id="seed%d" % s) for s in range(100, 140)]
)
def test_random_compares_print_as_opt(seed: int) -> None:
    """The random functions print as opt-19 prints them, with speculation and hoisting
    (other families) turned off so that this family's folds decide the result."""
    assert_same_as_opt(
        random_module(seed, 12), "simplifycfg<no-speculate-blocks>", {"simplifycfg-hoist-common": False}
    )


BROKEN_WEIGHTS = """
declare void @f(i32)
define void @fold_branches(i32 %x) {
entry:
  %c1 = icmp eq i32 %x, 10
  br i1 %c1, label %a, label %next, !prof !0
next:
  %c2 = icmp ne i32 %x, 20
  br i1 %c2, label %a, label %b, !prof !1
a:
  call void @f(i32 1)
  ret void
b:
  call void @f(i32 2)
  ret void
}
!0 = !{!"branch_weights", i32 5, i32 95, i32 7}
!1 = !{!"branch_weights", i32 60}
"""


def test_broken_weights_are_ignored() -> None:
    """Branch weights of the wrong count (a module the verifier rejects, run unverified) do
    not stop the fold: the two compares of %x still become one switch, without weights."""
    module = parse_assembly(BROKEN_WEIGHTS, verify=False)
    llvmpy_mid.run_passes(module, "simplifycfg")
    text = print_module(module)
    assert "icmp eq i32 %x, 20" in text and "%x, 10" not in text
    assert "!prof" not in text.split("\n}\n")[0]
