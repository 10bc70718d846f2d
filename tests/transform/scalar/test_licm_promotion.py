"""LICM's scalar promotion (``licm_promotion.py``, ``load_store_promoter.py``) and its
reassociation of arithmetic (``licm_arith.py``), rule by rule, against opt-19 on small loops
under ``loop-mssa(licm)`` with ``-verify-memoryssa``.

Each rule is exercised on both sides of its condition (promotable or not, overflow provable
or not, inside or beyond the reassociation limit); the cases where opt-19 transforms are
also checked to have changed the loop, so a case that silently stopped testing its rule
fails."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402

PIPELINE = "loop-mssa(licm)"
VERIFY = {"verify-memoryssa": True}


def _check(ir: str, options: dict[str, object] | None = None, pipeline: str = PIPELINE) -> str:
    opts: dict[str, object] = dict(VERIFY)
    opts.update(options or {})
    return assert_same_as_opt(ir, pipeline, opts)


# --- promotion ------------------------------------------------------------------------------------

_DECLS = """
@G = global i32 0
@T = thread_local global i32 0
declare void @may_throw()
declare void @reads() memory(read)
declare void @capture(ptr)
declare noalias ptr @malloc(i64)
"""


def _loop(prologue: str, body: str, exit_code: str = "", args: str = "i32 %n, i1 %c, ptr %p") -> str:
    """A counted loop with ``body`` in its header (``%latch`` is the only latch)."""
    return _DECLS + """
define i32 @f(%s) {
entry:
%s
  br label %%loop
loop:
  %%i = phi i32 [ 0, %%entry ], [ %%i.next, %%latch ]
%s
  br label %%latch
latch:
  %%i.next = add i32 %%i, 1
  %%cmp = icmp slt i32 %%i.next, %%n
  br i1 %%cmp, label %%loop, label %%exit
exit:
%s
  ret i32 0
}
""" % (args, prologue, body, exit_code)


PROMOTION_CASES: dict[str, tuple[str, bool]] = {
    # name: (IR, whether opt-19 promotes the location)
    "global_load_store": (_loop("", "  %v = load i32, ptr @G\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G"), True),
    "store_only_guaranteed": (_loop("", "  store i32 %i, ptr @G"), True),
    "argument_unknown_object": (_loop("", "  %v = load i32, ptr %p\n  %v1 = add i32 %v, %i\n  store i32 %v1, ptr %p"), True),
    "alloca_not_captured": (
        _loop("  %a = alloca i32\n  store i32 0, ptr %a", "  %v = load i32, ptr %a\n  %v1 = add i32 %v, %i\n  store i32 %v1, ptr %a",
              "  %r = load i32, ptr %a\n  call void @capture(ptr %a)"),
        True,
    ),
    "alloca_captured_before": (
        _loop("  %a = alloca i32\n  call void @capture(ptr %a)",
              "  %v = load i32, ptr %a\n  %v1 = add i32 %v, %i\n  br i1 %c, label %st, label %latch\nst:\n  store i32 %v1, ptr %a"),
        True,
    ),
    "conditional_store_global": (
        _loop("", "  %v = load i32, ptr @G\n  br i1 %c, label %st, label %latch\nst:\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G"),
        True,
    ),
    "conditional_store_alloca": (
        _loop("  %a = alloca i32\n  store i32 0, ptr %a",
              "  %v = load i32, ptr %a\n  br i1 %c, label %st, label %latch\nst:\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr %a",
              "  %r = load i32, ptr %a"),
        True,
    ),
    "conditional_store_only_global": (_loop("", "  br i1 %c, label %st, label %latch\nst:\n  store i32 %i, ptr @G"), False),
    "thread_local_conditional_store": (
        _loop("", "  %v = load i32, ptr @T\n  br i1 %c, label %st, label %latch\nst:\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @T"),
        True,
    ),
    "may_throw_global": (
        _loop("", "  %v = load i32, ptr @G\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G\n  call void @may_throw() memory(none)"),
        True,
    ),
    "may_throw_alloca": (
        _loop("  %a = alloca i32\n  store i32 0, ptr %a",
              "  call void @may_throw() memory(none)\n  %v = load i32, ptr %a\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr %a",
              "  %r = load i32, ptr %a"),
        True,
    ),
    "may_throw_malloc_captured": (
        _loop("  %m = call ptr @malloc(i64 4)\n  call void @capture(ptr %m)",
              "  call void @may_throw() memory(none)\n  %v = load i32, ptr %m\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr %m"),
        False,
    ),
    "read_outside_set": (
        _loop("", "  %v = load i32, ptr @G\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G\n  call void @reads()"),
        True,
    ),
    "atomic_unordered": (
        _loop("", "  %v = load atomic i32, ptr @G unordered, align 4\n  %v1 = add i32 %v, 1\n"
                  "  store atomic i32 %v1, ptr @G unordered, align 4"),
        True,
    ),
    "atomic_and_plain": (
        _loop("", "  %v = load atomic i32, ptr @G unordered, align 4\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G"),
        False,
    ),
    "atomic_monotonic": (
        _loop("", "  %v = load atomic i32, ptr @G monotonic, align 4\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G"),
        False,
    ),
    "volatile_store": (_loop("", "  %v = load i32, ptr @G\n  store volatile i32 %v, ptr @G"), False),
    "different_types": (_loop("", "  %v = load i16, ptr @G\n  %w = sext i16 %v to i32\n  store i32 %w, ptr @G"), False),
    "store_of_the_pointer": (
        _loop("  %a = alloca ptr", "  %g = getelementptr i8, ptr %a, i32 %i\n  store ptr %g, ptr %a", "  %r = load ptr, ptr %a"),
        True,
    ),
    "alignment_from_guaranteed_store": (
        _loop("", "  %v = load i32, ptr %p, align 1\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr %p, align 8"),
        True,
    ),
    "must_alias_geps": (
        _loop("  %q1 = getelementptr i32, ptr %p, i64 1\n  %q2 = getelementptr i32, ptr %p, i64 1",
              "  %v = load i32, ptr %q1\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr %q2"),
        True,
    ),
    "two_locations": (
        _loop("", "  %v = load i32, ptr @G\n  store i32 %i, ptr %p\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G",
              args="i32 %n, i1 %c, ptr noalias %p"),
        True,
    ),
    "mixed_block_order": (
        _loop("", "  store i32 %i, ptr @G\n  %v = load i32, ptr @G\n  %v1 = add i32 %v, 1\n  store i32 %v1, ptr @G\n"
                  "  %v2 = load i32, ptr @G"),
        True,
    ),
}


MULTI_EXIT = _DECLS + """
define i32 @f(i32 %n, i1 %c, ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %v = load i32, ptr %p, align 4, !tbaa !0
  %v1 = add i32 %v, %i
  store i32 %v1, ptr %p, align 4, !tbaa !3
  br i1 %c, label %early, label %latch
latch:
  %i.next = add i32 %i, 1
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %loop, label %exit
early:
  ret i32 1
exit:
  ret i32 0
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"tbaa root"}
!3 = !{!4, !4, i64 0}
!4 = !{!"long", !2, i64 0}
"""

NESTED = _DECLS + """
define void @f(i32 %n, ptr %base) {
entry:
  br label %outer
outer:
  %o = phi i32 [ 0, %entry ], [ %o.next, %outer.latch ]
  %q = getelementptr i32, ptr %base, i32 %o
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %v = load i32, ptr %q, align 4
  %v1 = add i32 %v, %i
  store i32 %v1, ptr %q, align 4
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %o.next = add i32 %o, 1
  %d = icmp slt i32 %o.next, %n
  br i1 %d, label %outer, label %exit
exit:
  ret void
}
"""

DEBUG_LOCS = """
@G = global i32 0
define void @f(i32 %n) !dbg !4 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i32, ptr @G, align 4, !dbg !8
  %v1 = add i32 %v, %i, !dbg !9
  store i32 %v1, ptr @G, align 4, !dbg !10
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!8 = !DILocation(line: 3, column: 5, scope: !4)
!9 = !DILocation(line: 3, column: 7, scope: !4)
!10 = !DILocation(line: 3, column: 9, scope: !4)
"""


def _promoted(out: str) -> bool:
    """The preheader loads the location, or an exit block stores it."""
    exits = [part for part in out.split("\nexit:")[1:] + out.split("\nearly:")[1:]]
    return ".promoted = load" in out or any("store " in part.split("\n}")[0] for part in exits)


# Two stores with their own DIAssignID: every exit store gets one merged ID, the
# #dbg_assign records follow it; the preheader load takes over the records in front of
# the preheader's terminator, the exit stores go in front of the exit blocks' records.
ASSIGNMENT_TRACKING = """define void @f(i32 %n, i1 %c) !dbg !4 {
entry:
  %a = alloca i32, align 4, !DIAssignID !20
    #dbg_assign(i1 undef, !11, !DIExpression(), !20, ptr %a, !DIExpression(), !8)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %v = load i32, ptr %a, align 4, !dbg !8
  %v1 = add i32 %v, %i, !dbg !9
  store i32 %v1, ptr %a, align 4, !dbg !10, !DIAssignID !21
    #dbg_assign(i32 %v1, !11, !DIExpression(), !21, ptr %a, !DIExpression(), !10)
  br i1 %c, label %early, label %latch
latch:
  store i32 %i, ptr %a, align 4, !dbg !10, !DIAssignID !22
    #dbg_assign(i32 %i, !11, !DIExpression(), !22, ptr %a, !DIExpression(), !10)
  %i.next = add i32 %i, 1
  %cc = icmp slt i32 %i.next, %n
  br i1 %cc, label %loop, label %exit
early:
    #dbg_value(i32 %n, !11, !DIExpression(), !8)
  %r1 = load i32, ptr %a
  ret void
exit:
    #dbg_value(i32 %n, !11, !DIExpression(), !8)
  %r2 = load i32, ptr %a
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !30}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!30 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DILocation(line: 3, column: 5, scope: !4)
!9 = !DILocation(line: 3, column: 7, scope: !4)
!10 = !DILocation(line: 4, column: 9, scope: !4)
!11 = !DILocalVariable(name: "x", scope: !4, file: !1, line: 2, type: !7)
!20 = distinct !DIAssignID()
!21 = distinct !DIAssignID()
!22 = distinct !DIAssignID()"""


@pytest.mark.parametrize("name", sorted(PROMOTION_CASES))
def test_promotion_rule(name: str) -> None:
    ir, promoted = PROMOTION_CASES[name]
    out = _check(ir)
    assert _promoted(out) == promoted, out


@pytest.mark.parametrize(
    "ir", [MULTI_EXIT, NESTED, DEBUG_LOCS, ASSIGNMENT_TRACKING], ids=["multi_exit_tbaa", "nested", "debug_locs", "dbg_assign"]
)
def test_promotion_shapes(ir: str) -> None:
    out = _check(ir)
    assert _promoted(out)


@pytest.mark.parametrize("single", [False, True])
def test_force_thread_model_single(single: bool) -> None:
    ir = PROMOTION_CASES["conditional_store_only_global"][0].replace(
        "st:\n  store i32 %i, ptr @G", "st:\n  %v = load i32, ptr @G\n  %v1 = add i32 %v, %i\n  store i32 %v1, ptr @G"
    )
    _check(ir, {"licm-force-thread-model-single": single})


def test_disable_promotion() -> None:
    out = _check(PROMOTION_CASES["global_load_store"][0], {"disable-licm-promotion": True})
    assert ".promoted" not in out


# --- reassociation --------------------------------------------------------------------------------

_ARITH = """
declare void @use(i1)
declare void @usep(ptr)
declare void @usei(i32)
declare void @used(double)

define void @f(i32 %n, i32 %a, i32 %b, ptr %p, i64 %ia, i64 %ib, double %fa, double %fb, double %fc) {
entry:
  br label %loop
loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %loop ]
  %x64 = sext i32 %x to i64
  %xd = sitofp i32 %x to double
{body}
  %x.next = add i32 %x, 1
  %done = icmp slt i32 %x.next, %n
  br i1 %done, label %loop, label %exit
exit:
  ret void
}
"""

def _arith(body: str) -> str:
    return _ARITH.replace("{body}", body)


_REL_PREDS = ["slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def _min_max_body(pred: str, form: str, swap: bool) -> str:
    second = "icmp %s i32 %%b, %%x" % pred if swap else "icmp %s i32 %%x, %%b" % pred
    combine = {
        "and": "and i1 %c1, %c2",
        "or": "or i1 %c1, %c2",
        "select_and": "select i1 %c1, i1 %c2, i1 false",
        "select_or": "select i1 %c1, i1 true, i1 %c2",
    }[form]
    return "  %%c1 = icmp %s i32 %%x, %%a\n  %%c2 = %s\n  %%r = %s\n  call void @use(i1 %%r)" % (pred, second, combine)


@pytest.mark.parametrize("form", ["and", "or", "select_and", "select_or"])
@pytest.mark.parametrize("pred", _REL_PREDS)
def test_hoist_min_max(pred: str, form: str) -> None:
    out = _check(_arith(_min_max_body(pred, form, False)))
    assert "invariant." in out


@pytest.mark.parametrize("pred", ["slt", "ugt", "eq"])
def test_hoist_min_max_mismatch(pred: str) -> None:
    # swapped second compare: the same predicate after swapping, or a different one
    _check(_arith(_min_max_body(pred, "and", True)))
    # second compare used twice: not one-use, nothing happens
    body = _min_max_body(pred, "or", False) + "\n  call void @use(i1 %c2)"
    out = _check(_arith(body))
    assert "invariant." not in out


@pytest.mark.parametrize("inbounds", ["inbounds ", ""])
@pytest.mark.parametrize("index", ["%ia", "7", "-7"])
def test_hoist_gep(inbounds: str, index: str) -> None:
    body = (
        "  %%g1 = getelementptr %si8, ptr %%p, i64 %%x64\n"
        "  %%g2 = getelementptr %si8, ptr %%g1, i64 %s\n"
        "  call void @usep(ptr %%g2)"
    ) % (inbounds, inbounds, index)
    out = _check(_arith(body))
    assert "invariant.gep" in out or "getelementptr" in out.split("loop:")[0]


_ADD_SUB_FORMS = {
    "add": "add nsw i32 %x, {c1}",
    "add_swapped": "add nsw i32 {c1}, %x",
    "sub": "sub nsw i32 %x, {c1}",
    "sub_variant_subtracted": "sub nsw i32 {c1}, %x",
    "add_no_nsw": "add i32 %x, {c1}",
}


@pytest.mark.parametrize("form", sorted(_ADD_SUB_FORMS))
@pytest.mark.parametrize("pred", ["slt", "sge", "ult"])
@pytest.mark.parametrize("consts", [("5", "100"), ("%a", "%b"), ("2147483647", "-5")])
def test_hoist_add_sub(form: str, pred: str, consts: tuple[str, str]) -> None:
    c1, c2 = consts
    expr = _ADD_SUB_FORMS[form].format(c1=c1)
    body = "  %%e = %s\n  %%r = icmp %s i32 %%e, %s\n  call void @use(i1 %%r)" % (expr, pred, c2)
    _check(_arith(body))


def test_hoist_add_sub_provable() -> None:
    body = "  %e = add nsw i32 %x, 5\n  %r = icmp slt i32 %e, 100\n  call void @use(i1 %r)"
    out = _check(_arith(body))
    assert "icmp slt i32 %x, 95" in out


_MUL_ADD_INT = (
    "  %m1 = mul nsw i32 %a, %x\n  %m2 = mul nsw i32 %x, %b\n  %s = add nsw i32 %m1, %m2\n"
    "  %r = mul nuw i32 %s, %n\n  call void @usei(i32 %r)"
)
_MUL_ADD_FP = (
    "  %m1 = fmul reassoc nsz double %fa, %xd\n  %m2 = fmul reassoc nsz double %xd, %fb\n"
    "  %s = fadd reassoc nsz double %m1, %m2\n  %r = fmul reassoc nsz double %s, %fc\n  call void @used(double %r)"
)


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_hoist_mul_add_association(limit: int) -> None:
    out = _check(_arith(_MUL_ADD_INT), {"licm-max-num-int-reassociations": limit})
    assert ("factor.op.mul" in out) == (limit >= 2)
    out = _check(_arith(_MUL_ADD_FP), {"licm-max-num-fp-reassociations": limit})
    assert ("factor.op.fmul" in out) == (limit >= 2)


@pytest.mark.parametrize(
    "body",
    [
        # a plain variant * invariant: one change, no adds
        "  %m = mul i32 %x, %a\n  %r = mul i32 %m, %b\n  call void @usei(i32 %r)",
        # fmul without nsz is not reassociable
        "  %m = fmul reassoc double %xd, %fa\n  %r = fmul reassoc double %m, %fb\n  call void @used(double %r)",
        # the inner product used twice
        "  %m = mul i32 %x, %a\n  %r = mul i32 %m, %b\n  call void @usei(i32 %r)\n  call void @usei(i32 %m)",
        # constants fold in the preheader
        "  %m = mul i32 %x, 3\n  %r = mul i32 %m, 5\n  call void @usei(i32 %r)",
    ],
    ids=["mul_mul", "fmul_no_nsz", "two_uses", "constants"],
)
def test_hoist_mul_variants(body: str) -> None:
    _check(_arith(body))


# Every fold next to debug records: what a fold inserts before an instruction takes over the
# records in front of it (LLVM's insertion at an iterator without the head bit).
DEBUG_RECORDS = """declare void @use(i1)
declare void @usep(ptr)
declare void @usei(i32)
define void @f(i32 %n, i32 %a, i32 %b, ptr %p, ptr %q) !dbg !4 {
entry:
  %g0 = getelementptr i8, ptr %p, i32 %a
    #dbg_value(i32 %a, !11, !DIExpression(), !8)
  br label %loop
loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %loop ]
  %x64 = sext i32 %x to i64
    #dbg_value(i32 %x, !11, !DIExpression(), !8)
  %c1 = icmp slt i32 %x, %a
    #dbg_value(i32 %x, !11, !DIExpression(), !8)
  %c2 = icmp slt i32 %x, %b
    #dbg_value(i32 %b, !11, !DIExpression(), !8)
  %r = and i1 %c1, %c2, !dbg !9
  call void @use(i1 %r)
  %g1 = getelementptr i8, ptr %p, i64 %x64
    #dbg_value(i32 %a, !11, !DIExpression(), !8)
  %g2 = getelementptr i8, ptr %g1, i64 7, !dbg !9
  call void @usep(ptr %g2)
    #dbg_value(i32 %n, !11, !DIExpression(), !8)
  %e = add nsw i32 %x, 5
    #dbg_value(i32 %e, !11, !DIExpression(), !8)
  %r2 = icmp slt i32 %e, 100
  call void @use(i1 %r2)
  %m1 = mul i32 %a, %x
    #dbg_value(i32 %m1, !11, !DIExpression(), !8)
  %m2 = mul i32 %x, %b
  %s = add i32 %m1, %m2
    #dbg_value(i32 %s, !11, !DIExpression(), !8)
  %rr = mul i32 %s, %n
  call void @usei(i32 %rr)
  %v = load i32, ptr %q
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %q
  %x.next = add i32 %x, 1
  %done = icmp slt i32 %x.next, %n
    #dbg_value(i32 %x, !11, !DIExpression(), !8)
  br i1 %done, label %loop, label %exit
exit:
    #dbg_value(i32 %n, !11, !DIExpression(), !8)
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized, retainedNodes: !6)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DILocation(line: 3, column: 5, scope: !4)
!9 = !DILocation(line: 4, column: 7, scope: !4)
!11 = !DILocalVariable(name: "x", scope: !4, file: !1, line: 2, type: !7)"""


def test_reassociation_keeps_debug_records_in_place() -> None:
    out = _check(DEBUG_RECORDS)
    for name in ("invariant.smin", "invariant.gep", "factor.op.mul", "icmp slt i32 %x, 95"):
        assert name in out


# --- random loops ---------------------------------------------------------------------------------
# Seeded random loops: memory accesses of several kinds (plain, atomic, volatile; through
# globals, allocas, arguments, must-aliased geps; with throwing and reading calls, conditional
# blocks, early exits, an optional outer loop), and arithmetic in the shapes the reassociation
# rules look for (with near misses). Each is compared with opt-19 as a whole.

import random  # noqa: E402

_MEM_PTRS = ["@G1", "@G2", "%a1", "%a2", "%p", "%q", "%gp1", "%gp2", "%ga"]


def _random_memory_loop(seed: int) -> str:
    rng = random.Random(seed)
    nested = rng.random() < 0.4
    out = [
        "@G1 = global i32 0", "@G2 = global [4 x i32] zeroinitializer",
        "declare void @may_throw() memory(none)", "declare void @reads() memory(read)", "declare void @capture(ptr)",
        "define i32 @f(i32 %n, i1 %c, i1 %d, ptr %p, ptr noalias %q) {", "entry:",
        "  %a1 = alloca i32", "  %a2 = alloca [2 x i64]",
        "  %gp1 = getelementptr i32, ptr %p, i64 1", "  %gp2 = getelementptr i32, ptr %p, i64 1",
        "  %ga = getelementptr [4 x i32], ptr @G2, i64 0, i64 2",
    ]  # fmt: skip
    if rng.random() < 0.3:
        out.append("  call void @capture(ptr %a1)")
    if nested:
        out += ["  br label %outer", "outer:", "  %o = phi i32 [ 0, %entry ], [ %o.next, %olatch ]"]
        out += ["  store i32 %%o, ptr %s" % rng.choice(_MEM_PTRS) for _ in range(rng.randint(0, 2))]
    out.append("  br label %loop")
    names = ["loop"] + ["b%d" % k for k in range(1, rng.randint(1, 4))] + ["latch"]
    values = ["%i"]
    for k, name in enumerate(names[:-1]):
        out.append(name + ":")
        if name == "loop":
            out.append("  %%i = phi i32 [ 0, %%%s ], [ %%i.next, %%latch ]" % ("outer" if nested else "entry"))
        for _ in range(rng.randint(1, 5)):
            ptr = rng.choice(_MEM_PTRS)
            ty = "i32" if rng.random() < 0.85 else rng.choice(["i64", "i8"])
            r = rng.random()
            v = "%%v%d" % len(out)
            if r < 0.4:
                kind = rng.random()
                if kind < 0.08:
                    out.append("  %s = load atomic %s, ptr %s unordered, align 4" % (v, ty, ptr))
                elif kind < 0.12:
                    out.append("  %s = load volatile %s, ptr %s" % (v, ty, ptr))
                else:
                    out.append("  %s = load %s, ptr %s" % (v, ty, ptr))
                if ty == "i32":
                    values.append(v)
            elif r < 0.8:
                val = rng.choice(values) if ty == "i32" else "0"
                atomic = " atomic" if rng.random() < 0.08 else ""
                order = " unordered, align 4" if atomic else ""
                out.append("  store%s %s %s, ptr %s%s" % (atomic, ty, val, ptr, order))
            elif r < 0.88:
                out.append("  %s = add i32 %s, %s" % (v, rng.choice(values), rng.choice(values)))
                values.append(v)
            else:
                out.append("  call void @%s()" % rng.choice(["may_throw", "reads"]))
        nxt = names[k + 1]
        if k + 1 < len(names) - 1 and rng.random() < 0.5:
            out.append("  br i1 %%c, label %%%s, label %%latch" % nxt)
        elif rng.random() < 0.2:
            out.append("  br i1 %%d, label %%early, label %%%s" % nxt)
        else:
            out.append("  br label %%%s" % nxt)
    out += ["latch:", "  %i.next = add i32 %i, 1", "  %cmp = icmp slt i32 %i.next, %n",
            "  br i1 %%cmp, label %%loop, label %%%s" % ("olatch" if nested else "exit")]  # fmt: skip
    if nested:
        out += ["olatch:", "  %%ov = load i32, ptr %s" % rng.choice(_MEM_PTRS), "  %ov1 = add i32 %ov, %o",
                "  store i32 %%ov1, ptr %s" % rng.choice(_MEM_PTRS), "  %o.next = add i32 %o, 1",
                "  %oc = icmp slt i32 %o.next, %n", "  br i1 %oc, label %outer, label %exit"]  # fmt: skip
    out += ["early:", "  %e1 = load i32, ptr %a1", "  ret i32 %e1", "exit:", "  %x1 = load i32, ptr %a1",
            "  %x2 = load i64, ptr %a2", "  %x3 = trunc i64 %x2 to i32", "  %x4 = add i32 %x1, %x3", "  ret i32 %x4", "}"]  # fmt: skip
    return "\n".join(out) + "\n"


_PREDS = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_INV = ["%a", "%b", "%n", "7", "-3", "100", "2147483647", "%k"]
_FINV = ["%fa", "%fb", "2.0"]


def _random_arith_loop(seed: int) -> str:
    rng = random.Random(seed)
    var, fvar, conds, ptrs, body = ["%x"], ["%xd"], [], [], []
    names = iter("%%t%d" % i for i in range(1000))
    for _ in range(rng.randint(2, 6)):
        kind = rng.randrange(4)
        v = next(names)
        if kind == 0:
            p, a = rng.choice(_PREDS), rng.choice(var)
            c1, c2 = next(names), next(names)
            first = (a, rng.choice(_INV)) if rng.random() < 0.7 else (rng.choice(_INV), a)
            body.append("  %s = icmp %s i32 %s, %s" % ((c1, p) + first))
            body.append("  %s = icmp %s i32 %s, %s" % (c2, rng.choice([p, p, rng.choice(_PREDS)]), a, rng.choice(_INV)))
            form = rng.choice(["and i1 %s, %s", "or i1 %s, %s", "select i1 %s, i1 %s, i1 false", "select i1 %s, i1 true, i1 %s"])
            body.append("  %s = %s" % (v, form % (c1, c2)))
            conds.append(v)
        elif kind == 1:
            e = next(names)
            a, b = rng.choice(var), rng.choice(_INV)
            if rng.random() < 0.4:
                a, b = b, a
            body.append("  %s = %s i32 %s, %s" % (e, rng.choice(["add nsw", "sub nsw", "add"]), a, b))
            body.append("  %s = icmp %s i32 %s, %s" % (v, rng.choice(_PREDS), e, rng.choice(_INV)))
            conds.append(v)
        elif kind == 2:
            g = next(names)
            body.append("  %s = getelementptr %si32, ptr %%p, i64 %s" % (g, rng.choice(["", "inbounds "]), rng.choice(["%x64", "%k64"])))
            body.append("  %s = getelementptr %si8, ptr %s, i64 %s" % (v, rng.choice(["", "inbounds "]), g, rng.choice(["%a64", "%k64", "4", "-4"])))
            ptrs.append(v)
        else:
            m1, m2, s = next(names), next(names), next(names)
            if rng.random() < 0.4:
                fm = rng.choice(["reassoc nsz ", "fast ", "reassoc "])
                body += ["  %s = fmul %sdouble %s, %%xd" % (m1, fm, rng.choice(_FINV)),
                         "  %s = fmul %sdouble %s, %s" % (m2, fm, rng.choice(fvar), rng.choice(_FINV)),
                         "  %s = fadd %sdouble %s, %s" % (s, fm, m1, m2),
                         "  %s = fmul %sdouble %s, %s" % (v, fm, s, rng.choice(_FINV))]  # fmt: skip
                fvar.append(v)
            else:
                fl = rng.choice(["", "nsw ", "nuw nsw "])
                body += ["  %s = mul %si32 %s, %s" % (m1, fl, rng.choice(_INV), rng.choice(var)),
                         "  %s = mul %si32 %s, %s" % (m2, fl, rng.choice(var), rng.choice(_INV)),
                         "  %s = add %si32 %s, %s" % (s, fl, m1, m2),
                         "  %s = mul %si32 %s, %s" % (v, fl, s, rng.choice(_INV))]  # fmt: skip
                var.append(v)
    body += ["  call void @use(i1 %s)" % c for c in conds]
    body += ["  call void @usep(ptr %s)" % p for p in ptrs]
    body += ["  call void @usei(i32 %s)" % x for x in var[1:]]
    body += ["  call void @used(double %s)" % x for x in fvar[1:]]
    return (
        _ARITH.replace("%xd = sitofp i32 %x to double", "%xd = sitofp i32 %x to double\n  %k64 = zext i32 %k to i64\n  %a64 = sext i32 %a to i64")
        .replace("double %fc)", "double %fc, i32 %k0)")
        .replace("entry:\n", "entry:\n  %k = and i32 %k0, 1023\n")
        .replace("{body}", "\n".join(body))
    )


@pytest.mark.parametrize("seed", range(25))
def test_random_memory_loop(seed: int) -> None:
    _check(_random_memory_loop(seed))


@pytest.mark.parametrize("seed", range(25))
def test_random_arith_loop(seed: int) -> None:
    _check(_random_arith_loop(seed))
