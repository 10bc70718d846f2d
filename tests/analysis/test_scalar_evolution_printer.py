"""``print<scalar-evolution>`` / ``verify<scalar-evolution>`` / ``-verify-scev`` (LLVM
ScalarEvolution.cpp): ``format_scev`` writes each expression kind as ``SCEV::print``; whole
prints of functions where our ScalarEvolution is as precise as LLVM's equal opt-19's text
(skipped without opt-19); the verifier catches a stale cached count."""

from __future__ import annotations

import io
import subprocess

import pytest

from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
from llvmpy_mid.analysis.scalar_evolution_expressions import FLAG_NSW, FLAG_NUW, FLAG_NW, SCEVTypes
from llvmpy_mid.analysis.scalar_evolution_printer import (
    SCEVVerificationError,
    constant_multiple,
    format_scalar_evolution,
    format_scev,
    small_constant_trip_multiple,
    verify_scalar_evolution,
)
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.cli import main
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from oracles import require_tools

FORMS = """
@g = global i32 0

define void @f(i32 %n, i64 %a, ptr %p, i1 %b) {
entry:
  %0 = add i32 %n, 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %c = icmp eq i32 %i.next, %n
  br i1 %c, label %exit, label %loop
exit:
  ret void
}
"""


def _se(text: str, name: str | None = None) -> tuple[ScalarEvolution, LoopInfo, object]:
    module = parse_assembly(text)
    fn = next(f for f in module.functions if not f.is_declaration and (name is None or f.name == name))
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    return ScalarEvolution(fn, None, None, dt, li), li, fn


def _val(fn: object, name: str) -> object:
    for arg in fn.args:  # type: ignore[attr-defined]
        if arg.name == name:
            return arg
    for bb in fn.blocks:  # type: ignore[attr-defined]
        for inst in bb.instructions:
            if inst.name == name:
                return inst
    raise KeyError(name)


@pytest.fixture()
def forms() -> tuple[ScalarEvolution, LoopInfo, object]:
    return _se(FORMS)


def test_leaves(forms: tuple[ScalarEvolution, LoopInfo, object]) -> None:
    se, _, fn = forms
    i32 = _val(fn, "n").type  # type: ignore[attr-defined]
    i1 = _val(fn, "b").type  # type: ignore[attr-defined]
    assert format_scev(se.get_constant(i32, -3)) == "-3"
    assert format_scev(se.get_constant(i32, 7)) == "7"
    assert format_scev(se.get_constant(i1, 1)) == "true"
    assert format_scev(se.get_constant(i1, 0)) == "false"
    assert format_scev(se.get_unknown(_val(fn, "n"))) == "%n"  # type: ignore[arg-type]
    unnamed = fn.entry_block.instructions.first  # type: ignore[attr-defined]
    assert format_scev(se.get_unknown(unnamed)) == "%0"
    module = fn.parent  # type: ignore[attr-defined]
    assert format_scev(se.get_unknown(next(iter(module.globals)))) == "@g"
    assert format_scev(se.get_could_not_compute()) == "***COULDNOTCOMPUTE***"


def test_casts_and_nary(forms: tuple[ScalarEvolution, LoopInfo, object]) -> None:
    se, _, fn = forms
    n = se.get_unknown(_val(fn, "n"))  # type: ignore[arg-type]
    a = se.get_unknown(_val(fn, "a"))  # type: ignore[arg-type]
    i64 = a.type
    i8 = n.type.context.int_type(8)  # type: ignore[union-attr]
    assert format_scev(se.get_zero_extend_expr(n, i64)) == "(zext i32 %n to i64)"  # type: ignore[arg-type]
    assert format_scev(se.get_sign_extend_expr(n, i64)) == "(sext i32 %n to i64)"  # type: ignore[arg-type]
    assert format_scev(se.get_truncate_expr(a, i8)) == "(trunc i64 %a to i8)"
    one = se.get_one(n.type)  # type: ignore[arg-type]
    add = se.get_add_expr([n, one])
    assert format_scev(add) == "(1 + %n)"
    add.flags |= FLAG_NSW
    assert format_scev(add) == "(1 + %n)<nsw>"
    add.flags |= FLAG_NUW
    assert format_scev(add) == "(1 + %n)<nuw><nsw>"
    four = se.get_constant(n.type, 4)  # type: ignore[arg-type]
    assert format_scev(se.get_mul_expr([four, n])) == "(4 * %n)"
    assert format_scev(se.get_udiv_expr(n, four)) == "(%n /u 4)"
    sz = se.get_zero_extend_expr(n, i64)  # type: ignore[arg-type]
    assert format_scev(se.get_smax_expr([a, sz])) in ("((zext i32 %n to i64) smax %a)", "(%a smax (zext i32 %n to i64))")
    mx = se.get_min_max_expr(SCEVTypes.UMIN, [a, sz])
    assert " umin " in format_scev(mx)
    seq = se.get_umin_expr([a, sz], sequential=True)
    text = format_scev(seq)
    assert text.startswith("(") and " umin_seq " in text and text.endswith(")")


def test_add_recurrence_flags(forms: tuple[ScalarEvolution, LoopInfo, object]) -> None:
    se, li, fn = forms
    loop = li.top_level_loops[0]
    n = se.get_unknown(_val(fn, "n"))  # type: ignore[arg-type]
    ty = n.type
    rec = se.get_add_rec_expr([n, se.get_constant(ty, 3)], loop)  # type: ignore[arg-type]
    assert format_scev(rec) == "{%n,+,3}<%loop>"
    rec.flags |= FLAG_NW
    assert format_scev(rec) == "{%n,+,3}<nw><%loop>"
    rec.flags |= FLAG_NSW
    assert format_scev(rec) == "{%n,+,3}<nsw><%loop>"
    rec.flags |= FLAG_NUW
    assert format_scev(rec) == "{%n,+,3}<nuw><nsw><%loop>"
    quad = se.get_add_rec_expr([se.get_zero(ty), se.get_one(ty), se.get_one(ty)], loop)  # type: ignore[arg-type]
    assert format_scev(quad).startswith("{0,+,1,+,1}<")


def test_trip_multiple_and_constant_multiple() -> None:
    se, li, fn = _se(CONST_LOOP, "const_loop")
    loop = li.top_level_loops[0]
    assert small_constant_trip_multiple(se, loop) == 12
    i32 = _val(fn, "i").type  # type: ignore[attr-defined]
    assert constant_multiple(se, se.get_constant(i32, 24)) == 24
    assert constant_multiple(se, se.get_zero(i32)) == 0
    # {0,+,4}<nuw>: every value is a multiple of 4.
    rec = se.get_add_rec_expr([se.get_zero(i32), se.get_constant(i32, 4)], loop, FLAG_NUW)
    assert constant_multiple(se, rec) == 4


CONST_LOOP = """
define i32 @const_loop(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, 12
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %i
}
"""

# Functions where our ScalarEvolution knows what LLVM's knows: the whole print is opt-19's.
EXACT = """
define void @two_exits(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %v = load volatile i8, ptr %p
  %c = icmp eq i8 %v, 0
  br i1 %c, label %exit, label %latch
latch:
  %i.next = add i64 %i, 3
  %x = mul i64 %i, 5
  %v2 = load volatile i8, ptr %p
  %c2 = icmp eq i8 %v2, 1
  br i1 %c2, label %exit, label %loop
exit:
  ret void
}

define i64 @straight(i64 %a, i32 %b) {
entry:
  %z = zext i32 %b to i64
  %s = sext i32 %b to i64
  %t = trunc i64 %a to i16
  %x = add nsw i64 %a, %z
  %d = udiv i64 %x, %a
  %1 = add i64 %d, 1
  ret i64 %1
}

define void @nested_unknown(ptr %p) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %s = add i32 %i, %j
  %j.next = add i32 %j, 1
  %v = load volatile i32, ptr %p
  %c = icmp eq i32 %v, 0
  br i1 %c, label %outer.latch, label %inner
outer.latch:
  %i.next = add i32 %i, 1
  %w = load volatile i32, ptr %p
  %c2 = icmp eq i32 %w, 0
  br i1 %c2, label %exit, label %outer
exit:
  ret void
}
"""


def _ours(text: str, *opts: str) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".ll", delete=False) as f:
        f.write(text)
        path = f.name
    err = io.StringIO()
    from contextlib import redirect_stderr

    with redirect_stderr(err):
        rc = main(["-passes=print<scalar-evolution>", "-disable-output", *opts, path])
    assert rc == 0, err.getvalue()
    return err.getvalue()


def _opt19(text: str, *opts: str) -> str:
    r = subprocess.run(
        ["opt-19", "-passes=print<scalar-evolution>", "-disable-output", *opts, "-"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stderr


def test_whole_prints_match_opt19() -> None:
    require_tools("opt-19")
    assert _ours(EXACT) == _opt19(EXACT)


def test_loop_counts_only_match_opt19() -> None:
    """``-scalar-evolution-classify-expressions=0``: only the loops' counts (constant trip count,
    its trip multiple)."""
    require_tools("opt-19")
    opt = "-scalar-evolution-classify-expressions=0"
    assert _ours(CONST_LOOP, opt) == _opt19(CONST_LOOP, opt)


def test_print_in_process_starts_with_classification() -> None:
    se, _, _ = _se(CONST_LOOP)
    text = format_scalar_evolution(se)
    assert text.startswith("Classifying expressions for: @const_loop\n  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]\n")
    assert "Loop %loop: backedge-taken count is i32 11\n" in text
    assert "Loop %loop: Trip multiple is 12\n" in text


def test_verify_accepts_fresh_and_catches_stale_count() -> None:
    se, li, fn = _se(CONST_LOOP)
    loop = li.top_level_loops[0]
    assert format_scev(se.get_backedge_taken_count(loop)) == "11"
    verify_scalar_evolution(se, err=io.StringIO())
    cmp = _val(fn, "c")
    cmp.set_operand(1, ConstantInt.get(cmp.operands[1].type, 20))  # type: ignore[attr-defined]
    err = io.StringIO()
    with pytest.raises(SCEVVerificationError):
        verify_scalar_evolution(se, err=err)
    lines = err.getvalue().splitlines()
    assert lines[0].startswith("Trip Count for Loop at depth 1 containing: %loop<header><latch><exiting>")
    assert lines[1:5] == [" Changed!", "Old: 11", "New: 19", "Delta: -8"]
    se.forget_loop(loop)
    verify_scalar_evolution(se, err=io.StringIO())


def test_verify_pass_and_verify_scev_option_run_clean() -> None:
    import tempfile
    from contextlib import redirect_stderr

    with tempfile.NamedTemporaryFile("w", suffix=".ll", delete=False) as f:
        f.write(CONST_LOOP)
        path = f.name
    err = io.StringIO()
    with redirect_stderr(err):
        rc = main(["-passes=print<scalar-evolution>,verify<scalar-evolution>,loop(loop-deletion)", "-verify-scev", "-disable-output", path])
    assert rc == 0, err.getvalue()
    assert "Trip multiple is 12" in err.getvalue()


PTR_LOOP = """
define void @ptr_loop(ptr %a, ptr %b, i64 %n) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %p.next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p.next = getelementptr i8, ptr %p, i64 4
  %i.next = add i64 %i, 1
  %c = icmp eq i64 %i.next, %n
  br i1 %c, label %exit, label %loop
exit:
  ret void
}
"""


def test_verify_does_not_subtract_pointers() -> None:
    """A stale pointer expression is not compared (LLVM needs a common base); no crash."""
    se, _, fn = _se(PTR_LOOP)
    for name in ("p", "p.next", "i", "i.next"):
        se.get_scev(_val(fn, name))  # type: ignore[arg-type]
    phi = _val(fn, "p")
    phi.set_operand(0, _val(fn, "b"))  # type: ignore[attr-defined]
    verify_scalar_evolution(se, err=io.StringIO())


COUNTED = """
define void @two_const_exits(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %c = icmp eq i64 %i, 20
  br i1 %c, label %exit, label %latch
latch:
  store volatile i64 %i, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %c2 = icmp ult i64 %i.next, 10
  br i1 %c2, label %loop, label %exit
exit:
  ret void
}

define void @nested_const(ptr %p) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  store volatile i32 %j, ptr %p
  %j.next = add nuw nsw i32 %j, 1
  %c = icmp ult i32 %j.next, 8
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %i.next = add nuw nsw i32 %i, 1
  %c2 = icmp ult i32 %i.next, 6
  br i1 %c2, label %outer, label %exit
exit:
  ret void
}
"""


def test_counted_loops_match_opt19() -> None:
    """Per-exit counts of a two-exit loop, inner loops printed before their parent, trip
    multiples of constant counts: opt-19's text."""
    require_tools("opt-19")
    opt = "-scalar-evolution-classify-expressions=0"
    assert _ours(COUNTED, opt) == _opt19(COUNTED, opt)


# Expressions createSCEV builds from more opcodes (LLVM 19.1.7 createSCEV/createNodeForPHI): a
# pointer bitcast is its operand, a pointer select on a constant picks an arm, sdiv/srem of
# non-negative operands are udiv/urem, ashr by zero is its operand and ashr of shl is a sign
# extension of a truncation, an LCSSA phi is its incoming value.
CREATE_FORMS = """
define void @f(ptr %p, i32 %n, i64 %w) {
entry:
  %b = bitcast ptr %p to ptr
  %s = select i1 true, ptr %b, ptr null
  %z = zext i32 %n to i64
  %q = sdiv i64 %z, 7
  %r = srem i64 %z, 5
  %neg = sdiv i64 %w, 3
  %a0 = ashr i64 %w, 0
  %sh = shl i64 %w, 40
  %x = ashr i64 %sh, 40
  %sh2 = shl i64 %w, 40
  %x2 = ashr i64 %sh2, 32
  %sh3 = shl i64 %w, 8
  %ad = add i64 %sh3, 768
  %x3 = ashr i64 %ad, 8
  br label %loop
loop:
  %iv = phi i64 [ 0, %entry ], [ %iv.next, %loop ]
  %iv.next = add nuw nsw i64 %iv, 1
  %c = icmp ult i64 %iv.next, 100
  br i1 %c, label %loop, label %exit
exit:
  %lcssa = phi i64 [ %iv.next, %loop ]
  %plcssa = phi ptr [ %s, %loop ]
  %use = add i64 %lcssa, %q
  ret void
}
"""


def test_created_forms_match_opt19() -> None:
    require_tools("opt-19")
    assert _ours(CREATE_FORMS) == _opt19(CREATE_FORMS)
