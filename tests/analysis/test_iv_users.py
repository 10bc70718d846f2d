"""``iv-users`` (IVUsers) and ``print<iv-users>`` against opt-19: which users are recorded, in
which order, with which post-increment loops; the exact text where our ScalarEvolution knows
what LLVM's knows; the post-inc normalisation; and the analysis dropped with a deleted loop."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest

import llvmpy_mid
from llvmpy_mid.analysis.iv_users import (
    IVUsers,
    denormalize_for_post_inc_use,
    normalize_for_post_inc_use,
    normalize_for_post_inc_use_if,
)
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVAddRecExpr
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

DL = 'target datalayout = "e-m:e-i64:64-n8:16:32:64"\n'

# Integer-only loops: the recorded uses depend on what is an add recurrence, which our
# ScalarEvolution finds for these as LLVM's does (no pointers, no products by unknowns).
STRUCTURE_CASES = {
    "lcssa_post_inc": """
define i64 @f(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i64 [ %i, %loop ]
  %r2 = phi i64 [ %i.next, %loop ]
  %s = add i64 %r, %r2
  ret i64 %s
}
""",
    "nested": """
define i32 @f(i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %k = add i32 %i, %j
  %k2 = shl i32 %k, 2
  %x = xor i32 %k2, %n
  %j.next = add i32 %j, 1
  %cj = icmp ne i32 %j.next, 10
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %j.lcssa = phi i32 [ %j.next, %inner ]
  %x.lcssa = phi i32 [ %x, %inner ]
  %i.next = add i32 %i, 1
  %ci = icmp ne i32 %i.next, 20
  br i1 %ci, label %outer, label %exit
exit:
  %r = phi i32 [ %x.lcssa, %outer.latch ]
  ret i32 %r
}
""",
    "two_ivs_and_divisions": """
define i32 @f(i32 %n, i32 %d) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %j = phi i32 [ 5, %entry ], [ %j.next, %loop ]
  %s = add i32 %i, %j
  %q = udiv i32 %i, %d
  %q2 = udiv i32 %i, 4
  %i.next = add i32 %i, 1
  %j.next = add i32 %j, 2
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = add i32 %s, %q
  %r2 = add i32 %r, %q2
  ret i32 %r2
}
""",
    "ephemeral": """
declare void @llvm.assume(i1)

define void @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %t = add i32 %i, 7
  %ca = icmp ult i32 %t, 1000
  call void @llvm.assume(i1 %ca)
  %i.next = add nuw i32 %i, 1
  %c = icmp ult i32 %i.next, 50
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
""",
    "too_wide_and_illegal": """
define void @f(i128 %n, i24 %m) {
entry:
  br label %loop
loop:
  %i = phi i128 [ 0, %entry ], [ %i.next, %loop ]
  %k = phi i24 [ 0, %entry ], [ %k.next, %loop ]
  %i.next = add i128 %i, 1
  %k.next = add i24 %k, 3
  %c = icmp ult i128 %i.next, %n
  %c2 = icmp ult i24 %k.next, %m
  %c3 = and i1 %c, %c2
  br i1 %c3, label %loop, label %exit
exit:
  ret void
}
""",
    "exit_phi_not_dominated_by_latch": """
define i32 @f(i32 %n, i32 %m) {
entry:
  %b = icmp eq i32 %m, 7
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %i.next = add i32 %i, 1
  br i1 %b, label %exit, label %latch
latch:
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %i.next, %loop ], [ %i.next, %latch ]
  ret i32 %r
}
""",
    "unnamed_values": """
define i32 @f(i32 %0) {
1:
  br label %2
2:
  %3 = phi i32 [ 0, %1 ], [ %4, %2 ]
  %4 = add i32 %3, 1
  %5 = icmp slt i32 %4, %0
  br i1 %5, label %2, label %6
6:
  %7 = phi i32 [ %4, %2 ]
  ret i32 %7
}
""",
}

_USE_LINE = re.compile(r"^  (?P<operand>\S+) = (?P<rest>.*) in    (?P<user>.*)$")
_POST_INC = re.compile(r" \(post-inc with loop (%[^)]+)\)")


def _skeleton(text: str) -> list[str]:
    """The printed uses without the expressions (which measure ScalarEvolution, not IVUsers)."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("IV Users for loop "):
            out.append(line.split(" with backedge-taken count", 1)[0].rstrip(":"))
            continue
        m = _USE_LINE.match(line)
        assert m is not None, line
        out.append("%s %s in %s" % (m["operand"], _POST_INC.findall(m["rest"]), m["user"]))
    return out


def _opt_print(text: str, pipeline: str = "print<iv-users>") -> str:
    assert OPT is not None
    r = subprocess.run([OPT, "-passes=" + pipeline, "-disable-output", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr


def _our_print(text: str, pipeline: str = "print<iv-users>") -> str:
    module = parse_assembly(text)
    stream = io.StringIO()
    llvmpy_mid.run_passes(module, pipeline, stream=stream)
    return stream.getvalue()


@needs_opt
@pytest.mark.parametrize("name", sorted(STRUCTURE_CASES))
def test_recorded_uses_match_opt(name: str) -> None:
    text = DL + STRUCTURE_CASES[name]
    expected = _skeleton(_opt_print(text))
    assert expected, "opt-19 printed nothing"
    assert _skeleton(_our_print(text)) == expected


@needs_opt
def test_no_legal_integers_records_nothing() -> None:
    text = STRUCTURE_CASES["lcssa_post_inc"]  # no datalayout: no native integer width
    assert _our_print(text) == _opt_print(text)


@needs_opt
def test_exact_text_matches_opt() -> None:
    """Where the expressions and the trip count are known alike, the text is opt-19's."""
    text = DL + STRUCTURE_CASES["lcssa_post_inc"]
    assert _our_print(text) == _opt_print(text)


@needs_opt
@pytest.mark.parametrize("middle", ["no-op-loop", "loop-deletion"])
def test_loop_deletion_drops_the_analysis(middle: str) -> None:
    """LLVM's Transforms/LoopDeletion/invalidation.ll: the analysis of a deleted loop is
    never asked for again; the module is opt-19's."""
    text = """
define void @foo(i64 %n, i64 %m) nounwind {
entry:
  br label %bb
bb:
  %x.0 = phi i64 [ 0, %entry ], [ %t0, %bb2 ]
  %t0 = add i64 %x.0, 1
  %t1 = icmp slt i64 %x.0, %n
  br i1 %t1, label %bb2, label %return
bb2:
  %t2 = icmp slt i64 %x.0, %m
  br i1 %t1, label %bb, label %return
return:
  ret void
}
"""
    pipeline = "require<iv-users>,%s,require<iv-users>" % middle
    assert OPT is not None
    r = subprocess.run(
        [OPT, "-passes=" + pipeline, "-S", "-debug-pass-manager", "-"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    module = parse_assembly(text)
    result = llvmpy_mid.run_passes(module, pipeline, stream=io.StringIO(), debug_pass_manager=True)
    body = [line for line in print_module(module).splitlines() if not line.startswith(("; ModuleID", "source_filename"))]
    assert body == [line for line in r.stdout.splitlines() if not line.startswith(("; ModuleID", "source_filename"))]
    runs = sum(1 for line in result.log if line.startswith("Running analysis: IVUsersAnalysis on loop %bb"))
    assert runs == 1  # computed once, kept by no-op-loop, never recomputed for a deleted loop
    # The log is opt-19's, with "Clearing all analysis results for: bb" after the deletion.
    tail = ("Running pass: VerifierPass", "Running analysis: VerifierAnalysis", "Running pass: PrintModulePass")
    assert list(result.log) == [line for line in r.stderr.splitlines() if not line.startswith(tail)]


def _analysis(text: str) -> tuple[ScalarEvolution, LoopInfo, DominatorTree, object]:
    module = parse_assembly(DL + text)
    fn = next(f for f in module.functions if not f.is_declaration)
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    se = ScalarEvolution(fn, None, None, dt, li)
    return se, li, dt, fn


def test_erased_user_is_forgotten() -> None:
    se, li, dt, _ = _analysis(STRUCTURE_CASES["lcssa_post_inc"])
    loop = li.top_level_loops[0]
    iu = IVUsers(loop, None, li, dt, se)
    users = [u.user for u in iu]
    assert [u.name for u in users] == ["r", "r2", "c"]
    sum_inst = next(iter(users[0].users))
    assert isinstance(sum_inst, Instruction)
    sum_inst.replace_all_uses_with(users[1])
    sum_inst.erase_from_parent()
    users[0].erase_from_parent()
    assert [u.user.name for u in iu] == ["r2", "c"]
    assert not iu.is_iv_user_or_operand(users[0])


def test_post_inc_use_expression_and_stride() -> None:
    se, li, dt, _ = _analysis(STRUCTURE_CASES["lcssa_post_inc"])
    loop = li.top_level_loops[0]
    iu = IVUsers(loop, None, li, dt, se)
    uses = list(iu)
    r_use = uses[0]
    assert list(r_use.post_inc_loops) == [loop]
    rec = iu.get_replacement_expr(r_use)
    assert isinstance(rec, SCEVAddRecExpr)
    expr = iu.get_expr(r_use)  # {0,+,1} used after the increment: normalised to {-1,+,1}
    assert isinstance(expr, SCEVAddRecExpr) and expr.start.signed_value == -1  # type: ignore[attr-defined]
    stride = iu.get_stride(r_use, loop)
    assert stride is not None and stride.is_one()
    c_use = uses[2]
    assert not c_use.post_inc_loops and iu.get_expr(c_use) is iu.get_replacement_expr(c_use)


def test_normalisation_inverts_for_quadratic_recurrences() -> None:
    se, li, _, fn = _analysis(STRUCTURE_CASES["nested"])
    outer = li.top_level_loops[0]
    inner = outer.sub_loops[0]
    i32 = fn.type.context.int_type(32)  # type: ignore[attr-defined]
    a, b, c = (se.get_constant(i32, v) for v in (3, 5, 7))
    quad = se.get_add_rec_expr([a, b, c], inner)
    norm = normalize_for_post_inc_use(quad, [inner], se)
    assert isinstance(norm, SCEVAddRecExpr)
    # {a,+,b,+,c} decremented: step b - c, start a - (b - c).
    assert [o.signed_value for o in norm.operands] == [3 - (5 - 7), 5 - 7, 7]  # type: ignore[attr-defined]
    assert denormalize_for_post_inc_use(norm, [inner], se) is quad
    nested = se.get_add_rec_expr([se.get_add_rec_expr([a, b], outer), c], inner)
    only_outer = normalize_for_post_inc_use_if(nested, lambda ar: ar.loop is outer, se)
    assert isinstance(only_outer, SCEVAddRecExpr) and only_outer.loop is inner
    assert [o.signed_value for o in only_outer.start.operands] == [3 - 5, 5]  # type: ignore[attr-defined]
    assert normalize_for_post_inc_use(nested, [], se) is nested
