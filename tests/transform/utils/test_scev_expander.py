"""SCEVExpander (LLVM ScalarEvolutionExpander.cpp): expressions built from small loops are expanded,
the module passes opt-19's verifier and lli-19 computes what the expression means; plus the cost
model, safety checks, the cleaner, congruent IVs and rewrite_loop_exit_values."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEV
from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.loop_utils import rewrite_loop_exit_values
from llvmpy_mid.transform.utils.scalar_evolution_expander import (
    SCEVExpander,
    SCEVExpanderCleaner,
    is_safe_to_expand,
    is_safe_to_expand_at,
)
from oracles import require_tools

M32 = (1 << 32) - 1

COUNTED_LOOP = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
define i32 @f(i32 %n, i32 %a) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 0
}
"""

INPUTS = [(0, 5), (1, 7), (5, 3), (9, -4), (13, 100), (200, -77)]


class Env:
    def __init__(self, text: str) -> None:
        self.module: Module = parse_assembly(text)
        self.fn: Function = [f for f in self.module.functions if not f.is_declaration][0]
        self.dt = DominatorTree(self.fn)
        self.li = LoopInfo(self.fn, self.dt)
        self.se = ScalarEvolution(self.fn, None, None, self.dt, self.li)
        self.blocks = {b.name: b for b in self.fn.blocks}
        self.values: dict[str, Value] = {i.name: i for b in self.fn.blocks for i in b.instructions if i.name}
        for a in self.fn.args:
            self.values[a.name] = a

    @property
    def loop(self) -> Loop:
        return list(self.li)[0]

    def scev(self, name: str) -> SCEV:
        return self.se.get_scev(self.values[name])

    def const(self, v: int, bits: int = 32) -> SCEV:
        return self.se.get_constant(self.module.context.int_type(bits), v)

    def expander(self) -> SCEVExpander:
        return SCEVExpander(self.se, self.module.data_layout, "indvars")

    def exit_ret(self) -> Instruction:
        t = self.blocks["exit"].terminator
        assert t is not None
        return t

    def text(self) -> str:
        return print_module(self.module)


def _verify(text: str, tmp_path: Path) -> None:
    require_tools("opt-19")
    f = tmp_path / "v.ll"
    f.write_text(text)
    r = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr + text


def _lli_results(text: str, tmp_path: Path, inputs: list[tuple[int, int]], bits: int = 32) -> list[int]:
    """Call ``@f(n, a)`` for each input under lli-19 and return the results (unsigned)."""
    require_tools("lli-19")
    calls = []
    for k, (n, a) in enumerate(inputs):
        calls.append(
            "  %%r%d = call i%d @f(i32 %d, i32 %d)\n  %%z%d = zext i%d %%r%d to i64\n"
            "  call i32 (ptr, ...) @printf(ptr @fmt, i64 %%z%d)\n" % (k, bits, n, a, k, bits, k, k)
        )
    main = (
        '@fmt = private constant [6 x i8] c"%llu\\0A\\00"\n'
        "declare i32 @printf(ptr, ...)\n"
        "define i32 @main() {\n" + "".join(calls) + "  ret i32 0\n}\n"
    )
    f = tmp_path / "run.ll"
    f.write_text(text + "\n" + main)
    r = subprocess.run(["lli-19", str(f)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [int(x) for x in r.stdout.split()]


def _return(env: Env, v: Value) -> None:
    """Make ``@f`` return ``v`` (at the exit)."""
    ret = env.exit_ret()
    ret.set_operand(0, v)


def _check(env: Env, tmp_path: Path, expected: Callable[[int, int], int]) -> None:
    text = env.text()
    _verify(text, tmp_path)
    got = _lli_results(text, tmp_path, INPUTS)
    assert got == [expected(n & M32, a & M32) & M32 for n, a in INPUTS], text


def _last_i(n: int) -> int:
    """The value of ``%i`` on the last iteration of COUNTED_LOOP."""
    return max(n, 1) - 1


def _s32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


# --- loop-invariant expressions ---------------------------------------------------------------------

INVARIANT_CASES: list[tuple[str, Callable[[Env], SCEV], Callable[[int, int], int]]] = [
    (
        "4n+a",
        lambda e: e.se.get_add_expr([e.se.get_mul_expr([e.const(4), e.scev("n")]), e.scev("a")]),
        lambda n, a: 4 * n + a,
    ),
    ("a-n", lambda e: e.se.get_minus_scev(e.scev("a"), e.scev("n")), lambda n, a: a - n),
    ("n*a*a", lambda e: e.se.get_mul_expr([e.scev("n"), e.scev("a"), e.scev("a")]), lambda n, a: n * a * a),
    ("-n", lambda e: e.se.get_negative_scev(e.scev("n")), lambda n, a: -n),
    ("n/8", lambda e: e.se.get_udiv_expr(e.scev("n"), e.const(8)), lambda n, a: n // 8),
    ("n/7", lambda e: e.se.get_udiv_expr(e.scev("n"), e.const(7)), lambda n, a: n // 7),
    ("smax", lambda e: e.se.get_smax_expr([e.scev("n"), e.scev("a")]), lambda n, a: max(_s32(n), _s32(a))),
    ("smin", lambda e: e.se.get_smin_expr([e.scev("n"), e.scev("a")]), lambda n, a: min(_s32(n), _s32(a))),
    ("umax", lambda e: e.se.get_umax_expr([e.scev("n"), e.scev("a"), e.const(9)]), lambda n, a: max(n, a, 9)),
    ("umin", lambda e: e.se.get_umin_expr([e.scev("n"), e.scev("a")]), lambda n, a: min(n, a)),
    ("seq_umin", lambda e: e.se.get_umin_expr([e.scev("n"), e.scev("a")], True), lambda n, a: min(n, a)),
    (
        "trunc(zext)",
        lambda e: e.se.get_truncate_expr(
            e.se.get_add_expr([e.se.get_zero_extend_expr(e.scev("n"), e.module.context.i64), e.const(1 << 32 | 3, 64)]),
            e.module.context.i32,
        ),
        lambda n, a: n + 3,
    ),
    (
        "sext(trunc)",
        lambda e: e.se.get_sign_extend_expr(
            e.se.get_truncate_expr(e.scev("a"), e.module.context.i8), e.module.context.i32
        ),
        lambda n, a: ((a & 0xFF) ^ 0x80) - 0x80,
    ),
]


@pytest.mark.parametrize("name,build,expected", INVARIANT_CASES, ids=[c[0] for c in INVARIANT_CASES])
def test_invariant_expression_at_exit(
    name: str, build: Callable[[Env], SCEV], expected: Callable[[int, int], int], tmp_path: Path
) -> None:
    env = Env(COUNTED_LOOP)
    v = env.expander().expand_code_for(build(env), None, env.exit_ret())
    _return(env, v)
    _check(env, tmp_path, expected)


def test_invariant_expression_is_hoisted_to_the_preheader(tmp_path: Path) -> None:
    env = Env(COUNTED_LOOP.replace("entry:\n  br label %loop", "entry:\n  br label %ph\nph:\n  br label %loop").replace(
        "[ 0, %entry ]", "[ 0, %ph ]"))
    env.li = LoopInfo(env.fn, env.dt)
    ex = env.expander()
    s = env.se.get_add_expr([env.se.get_mul_expr([env.const(5), env.scev("n")]), env.scev("a")])
    latch_term = env.blocks["loop"].terminator
    assert latch_term is not None
    v = ex.expand_code_for(s, None, latch_term)
    assert isinstance(v, Instruction) and v.parent is env.blocks["ph"]
    # The same expression again is the same value; so is a rebuilt one.
    assert ex.expand_code_for(s, None, latch_term) is v
    assert ex.is_inserted_instruction(v)


def test_udiv_by_unknown_stays_put_and_is_unsafe() -> None:
    env = Env(COUNTED_LOOP)
    s = env.se.get_udiv_expr(env.scev("n"), env.scev("a"))
    assert not is_safe_to_expand(s, env.se)
    assert is_safe_to_expand(env.se.get_udiv_expr(env.scev("n"), env.const(3)), env.se)
    assert not is_safe_to_expand(env.se.get_could_not_compute(), env.se)
    assert is_safe_to_expand_at(env.scev("n"), env.exit_ret(), env.se)
    # A value of the loop is not available at the top of the entry block.
    first = env.blocks["entry"].first_instruction
    assert first is not None
    assert not is_safe_to_expand_at(env.scev("i.next"), first, env.se)


# --- add recurrences ----------------------------------------------------------------------------------


def _rec(env: Env, start: SCEV, step: SCEV) -> SCEV:
    return env.se.get_add_rec_expr([start, step], env.loop)


def test_canonical_mode_uses_the_canonical_iv(tmp_path: Path) -> None:
    env = Env(COUNTED_LOOP)
    s = _rec(env, env.scev("a"), env.const(3))
    v = env.expander().expand_code_for(s, None, env.exit_ret())
    _return(env, v)
    text = env.text()
    assert "%i.lcssa = phi i32 [ %i, %loop ]" in text
    assert "indvar" not in text
    _check(env, tmp_path, lambda n, a: a + 3 * _last_i(n))


def test_canonical_mode_creates_indvar_when_missing(tmp_path: Path) -> None:
    src = COUNTED_LOOP.replace("[ 0, %entry ]", "[ 10, %entry ]")
    src = src.replace("icmp ult i32 %i.next, %n", "icmp ult i32 %i.next, 20")
    env = Env(src)
    s = _rec(env, env.const(5), env.scev("a"))
    latch_term = env.blocks["loop"].terminator
    assert latch_term is not None
    v = env.expander().expand_code_for(s, None, latch_term)
    text = env.text()
    assert "%indvar = phi i32 [ %indvar.next, %loop ], [ 0, %entry ]" in text
    assert "%indvar.next = add i32 %indvar, 1" in text
    # Carry the in-loop value out through an exit phi.
    from llvmpy_mid.ir.builder import IRBuilder

    b = IRBuilder(env.blocks["exit"], env.blocks["exit"].first_instruction)
    pn = b.phi(v.type, "out", [(v, env.blocks["loop"])])
    _return(env, pn)
    _check(env, tmp_path, lambda n, a: 5 + a * 9)


def test_literal_mode_creates_a_named_phi(tmp_path: Path) -> None:
    env = Env(COUNTED_LOOP)
    ex = env.expander()
    ex.disable_canonical_mode()
    s = _rec(env, env.scev("a"), env.const(3))
    v = ex.expand_code_for(s, None, env.exit_ret())
    _return(env, v)
    text = env.text()
    assert "%indvars.iv = phi i32 [ %indvars.iv.next, %loop ], [ %a, %entry ]" in text
    assert "%indvars.iv.next = add i32 %indvars.iv, 3" in text
    assert "%indvars.iv.lcssa = phi i32 [ %indvars.iv, %loop ]" in text
    assert ex.get_inserted_ivs()
    _check(env, tmp_path, lambda n, a: a + 3 * _last_i(n))


def test_literal_mode_reuses_a_matching_phi_and_post_inc(tmp_path: Path) -> None:
    env = Env(COUNTED_LOOP)
    ex = env.expander()
    ex.disable_canonical_mode()
    one = env.const(1)
    latch_term = env.blocks["loop"].terminator
    assert latch_term is not None
    assert ex.expand_code_for(_rec(env, env.const(0), one), None, latch_term) is env.values["i"]
    ex.set_post_inc({env.loop})
    v = ex.expand_code_for(_rec(env, one, one), None, env.exit_ret())
    ex.clear_post_inc()
    _return(env, v)
    assert "%i.next.lcssa = phi i32 [ %i.next, %loop ]" in env.text()
    _check(env, tmp_path, lambda n, a: _last_i(n) + 1)


def test_existing_value_is_reused() -> None:
    env = Env(COUNTED_LOOP.replace("entry:\n", "entry:\n  %m = mul i32 %n, %a\n"))
    ex = env.expander()
    before = env.text()
    assert ex.expand_code_for(env.scev("m"), None, env.exit_ret()) is env.values["m"]
    assert env.text() == before
    # {1,+,1} is needed at the top of the header, where %i.next is not available yet.
    latch_term = env.blocks["loop"].terminator
    assert latch_term is not None
    v = ex.expand_code_for(env.scev("i.next"), None, latch_term)
    assert v is not env.values["i.next"] and isinstance(v, Instruction) and v.parent is env.blocks["loop"]


def test_quadratic_recurrence(tmp_path: Path) -> None:
    env = Env(COUNTED_LOOP)
    s = env.se.get_add_rec_expr([env.scev("a"), env.const(2), env.const(1)], env.loop)
    v = env.expander().expand_code_for(s, None, env.exit_ret())
    _return(env, v)
    # {a,+,2,+,1} at iteration k is a + 2k + k(k-1)/2.
    _check(env, tmp_path, lambda n, a: a + 2 * _last_i(n) + _last_i(n) * (_last_i(n) - 1) // 2)


# --- cleaner, costs -----------------------------------------------------------------------------------


def test_cleaner_removes_unused_expansions() -> None:
    env = Env(COUNTED_LOOP)
    before = env.text()
    ex = env.expander()
    with SCEVExpanderCleaner(ex):
        ex.expand_code_for(_rec(env, env.scev("a"), env.scev("n")), None, env.exit_ret())
        ex.expand_code_for(env.se.get_mul_expr([env.scev("a"), env.scev("n")]), None, env.exit_ret())
        assert env.text() != before
    # As in LLVM, the LCSSA phi made for the outside use of %i is not the expander's and stays.
    after = env.text().replace("  %i.lcssa = phi i32 [ %i, %loop ]\n", "")
    assert after == before


def test_cleaner_keeps_used_expansions() -> None:
    env = Env(COUNTED_LOOP)
    ex = env.expander()
    with SCEVExpanderCleaner(ex) as cleaner:
        v = ex.expand_code_for(env.se.get_mul_expr([env.scev("a"), env.scev("n")]), None, env.exit_ret())
        cleaner.mark_result_used()
    assert isinstance(v, Instruction) and v.parent is not None


def test_high_cost_expansion_budget() -> None:
    env = Env(COUNTED_LOOP)
    tti = TargetTransformInfo(env.fn)
    ex = env.expander()
    at = env.exit_ret()
    cheap = env.se.get_add_expr([env.scev("n"), env.scev("a")])
    assert not ex.is_high_cost_expansion([cheap], env.loop, 4, tti, at)
    assert ex.is_high_cost_expansion([cheap], env.loop, 0, tti, at)
    # An unsigned division is TCC_Expensive (4): with an add it is over a budget of 4.
    div = env.se.get_add_expr([env.se.get_udiv_expr(env.scev("n"), env.scev("a")), env.const(1)])
    assert ex.is_high_cost_expansion([div], env.loop, 4, tti, at)
    assert not ex.is_high_cost_expansion([div], env.loop, 5, tti, at)
    assert not ex.is_high_cost_expansion([env.scev("a")], env.loop, 0, tti, at)
    # Without a cost model every expansion is high-cost.
    assert ex.is_high_cost_expansion([cheap], env.loop, 4, None, at)


LIMIT_LOOP = COUNTED_LOOP.replace("entry:\n", "entry:\n  %lim = mul i32 %n, %a\n").replace(
    "icmp ult i32 %i.next, %n", "icmp ult i32 %i.next, %lim"
)


def test_related_existing_expansion_from_exit_compare() -> None:
    env = Env(LIMIT_LOOP)
    ex = env.expander()
    tti = TargetTransformInfo(env.fn)
    at = env.exit_ret()
    # Both compare operands are instructions: either one counts as an existing expansion.
    assert ex.get_related_existing_expansion(env.scev("i.next"), at, env.loop) is env.values["i.next"]
    assert ex.get_related_existing_expansion(env.scev("lim"), at, env.loop) is env.values["lim"]
    assert not ex.is_high_cost_expansion([env.scev("i.next")], env.loop, 0, tti, at)
    # With an argument on one side the compare does not count (LLVM matches two instructions).
    env2 = Env(COUNTED_LOOP)
    assert env2.expander().get_related_existing_expansion(env2.scev("i.next"), env2.exit_ret(), env2.loop) is None


# --- congruent IVs -----------------------------------------------------------------------------------

CONGRUENT = """
define i32 @f(i32 %n, i32 %a) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %k = phi i32 [ %a, %entry ], [ %k, %loop ]
  %i.next = add i32 %i, 1
  %j.next = add i32 %j, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %j.next, %loop ]
  %rk = phi i32 [ %k, %loop ]
  %s = add i32 %r, %rk
  ret i32 %s
}
"""


def test_replace_congruent_ivs(tmp_path: Path) -> None:
    env = Env(CONGRUENT)
    dead: list[Value] = []
    n = env.expander().replace_congruent_ivs(env.loop, env.dt, dead, TargetTransformInfo(env.fn))
    assert n == 2  # %j is %i; %k is the constant-over-the-loop %a
    for d in dead:
        if isinstance(d, Instruction) and d.parent is not None and not d.has_uses:
            d.erase_from_parent()
    text = env.text()
    assert "%j =" not in text and "%k =" not in text
    _check(env, tmp_path, lambda n, a: _last_i(n) + 1 + a)


# --- rewrite_loop_exit_values ----------------------------------------------------------------------------

EXIT_VALUES = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
define i32 @f(i32 %n, i32 %a) {
entry:
  %p = alloca i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ %a, %entry ], [ %s.next, %loop ]
  %i.next = add nuw nsw i32 %i, 1
  %s.next = add i32 %s, 3
  STORE
  %c = icmp ult i32 %i.next, 10
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %s.next, %loop ]
  ret i32 %r
}
"""


def _rewrite(src: str, mode: str) -> tuple[Env, int, list[Any]]:
    env = Env(src)
    tti = TargetTransformInfo(env.fn)
    ex = env.expander()
    ex.disable_canonical_mode()
    dead: list[Any] = []
    n = rewrite_loop_exit_values(env.loop, env.li, None, env.se, tti, ex, env.dt, mode, dead)
    return env, n, dead


@pytest.mark.parametrize("mode", ["cheap", "noharduse", "noinvariant", "unusedindvar", "always"])
def test_rewrite_exit_value_of_counted_loop(mode: str, tmp_path: Path) -> None:
    env, n, dead = _rewrite(EXIT_VALUES.replace("STORE", ""), mode)
    if mode == "unusedindvar":
        # %s.next is an IV update whose phi is used only by it: rewritten.
        pass
    assert n == 1
    text = env.text()
    assert "%r = phi" not in text  # the single-entry LCSSA phi is folded away
    assert "add i32 %a, 30" in text
    assert dead and dead[0] is env.values["s.next"] or not dead
    _check(env, tmp_path, lambda n, a: a + 30)


def test_rewrite_exit_value_never_and_bad_mode() -> None:
    env, n, _ = _rewrite(EXIT_VALUES.replace("STORE", ""), "never")
    assert n == 0 and "%r = phi" in env.text()
    with pytest.raises(ValueError):
        _rewrite(EXIT_VALUES.replace("STORE", ""), "sometimes")


def test_rewrite_exit_value_hard_use(tmp_path: Path) -> None:
    src = EXIT_VALUES.replace("STORE", "store volatile i32 %s.next, ptr %p")
    env, n, _ = _rewrite(src, "noharduse")
    assert n == 0
    env, n, _ = _rewrite(src, "always")
    assert n == 1
    _check(env, tmp_path, lambda n, a: a + 30)


def test_rewrite_exit_value_constant_despite_hard_use(tmp_path: Path) -> None:
    src = EXIT_VALUES.replace("STORE", "store volatile i32 %s.next, ptr %p")
    src = src.replace("[ %a, %entry ], [ %s.next", "[ 4, %entry ], [ %s.next")
    env, n, _ = _rewrite(src, "noharduse")
    assert n == 1
    assert "ret i32 34" in env.text()
    _check(env, tmp_path, lambda n, a: 34)


def test_rewrite_exit_value_in_literal_phi_form_is_lcssa_safe(tmp_path: Path) -> None:
    # The exit value depends on the trip count %n: it is expanded after the loop.
    src = EXIT_VALUES.replace("STORE", "").replace("icmp ult i32 %i.next, 10", "icmp ult i32 %i.next, %n")
    env, n, _ = _rewrite(src, "always")
    assert n == 1
    for pn in env.blocks["exit"].phis():
        assert isinstance(pn, PHINode)
    _check(env, tmp_path, lambda n, a: a + 3 * (_last_i(n) + 1))


def test_unusedindvar_only_rewrites_ivs_without_other_users(tmp_path: Path) -> None:
    src = EXIT_VALUES.replace("STORE", "%m = mul i32 %s, %s")
    src = src.replace("[ %s.next, %loop ]\n  ret", "[ %s, %loop ]\n  ret")
    env, n, _ = _rewrite(src, "unusedindvar")
    assert n == 0  # %s is also used by %m
    env, n, _ = _rewrite(src, "cheap")
    assert n == 1
    _check(env, tmp_path, lambda n, a: a + 27)


def test_hoist_iv_inc_moves_the_increment_chain() -> None:
    src = """
define i32 @f(i32 %n, i32 %a) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %u = mul i32 %i, %a
  %i.next = add nuw i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 0
}
"""
    env = Env(src)
    ex = env.expander()
    inc = env.values["i.next"]
    use = env.values["u"]
    assert isinstance(inc, Instruction) and isinstance(use, Instruction)
    assert ex.hoist_iv_inc(inc, use)
    assert inc.next_instruction is use
    # Already dominating: nothing moves.
    assert ex.hoist_iv_inc(inc, use)
    # The increment cannot go above the phi it uses.
    first = env.blocks["loop"].first_instruction
    assert isinstance(first, PHINode)
    assert not ex.hoist_iv_inc(inc, first)


def test_canonical_induction_variable_query() -> None:
    from llvmpy_mid.transform.utils.scalar_evolution_expander import get_canonical_induction_variable

    env = Env(COUNTED_LOOP)
    assert get_canonical_induction_variable(env.loop) is env.values["i"]
    env2 = Env(COUNTED_LOOP.replace("add i32 %i, 1", "add i32 %i, 2"))
    assert get_canonical_induction_variable(env2.loop) is None


WIDE_IV_LOOP = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
define i32 @f(i32 %n, i32 %a) {
entry:
  %n64 = zext i32 %n to i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n64
  br i1 %c, label %loop, label %exit
exit:
  ret i32 0
}
"""


def test_narrow_recurrence_over_a_wider_canonical_iv(tmp_path: Path) -> None:
    env = Env(WIDE_IV_LOOP)
    s = _rec(env, env.scev("a"), env.const(3))
    latch_term = env.blocks["loop"].terminator
    assert latch_term is not None
    v = env.expander().expand_code_for(s, None, latch_term)
    text = env.text()
    assert "trunc i64" in text and "indvar" not in text
    from llvmpy_mid.ir.builder import IRBuilder

    b = IRBuilder(env.blocks["exit"], env.blocks["exit"].first_instruction)
    pn = b.phi(v.type, "out", [(v, env.blocks["loop"])])
    _return(env, pn)
    _check(env, tmp_path, lambda n, a: a + 3 * _last_i(n))


# --- through indvars, against opt-19 ----------------------------------------------------------------

CONGRUENT_WIDTHS = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
TRIPLE
define void @f(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  store volatile i32 %j, ptr %p
  store volatile i64 %k, ptr %p
  %i.next = add i32 %i, 1
  %j.next = add i32 %j, 1
  %k.next = add i64 %k, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %j.next, %loop ]
  store volatile i32 %r, ptr %p
  ret void
}
"""


@pytest.mark.parametrize("triple", ["", 'target triple = "x86_64-unknown-linux-gnu"'], ids=["no-target", "x86-64"])
def test_congruent_ivs_and_exit_value_through_indvars(triple: str) -> None:
    """Congruent phis go (through a truncation of the wide one when the target truncates for
    free, with LLVM's ``indvars<N>`` names) and the exit value is the expanded trip count."""
    require_tools("opt-19")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from opt_oracle import assert_same_as_opt

    text = assert_same_as_opt(CONGRUENT_WIDTHS.replace("TRIPLE", triple), "indvars")
    assert "%j =" not in text
    assert ("trunc i64 %k to i32" in text) == bool(triple)


EXIT_VALUE_MODES = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
define i32 @hard_use(i32 %a, ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ %a, %entry ], [ %s.next, %loop ]
  %i.next = add nuw nsw i32 %i, 1
  %s.next = add i32 %s, 3
  store volatile i32 %s.next, ptr %p
  %c = icmp ult i32 %i.next, 10
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %s.next, %loop ]
  ret i32 %r
}
define i32 @constant_trip(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 7, %entry ], [ %s.next, %loop ]
  %i.next = add nuw nsw i32 %i, 1
  %s.next = add i32 %s, 3
  %c = icmp ult i32 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ %s.next, %loop ]
  ret i32 %r
}
define i64 @guarded(i64 %n, ptr %p) {
entry:
  %c0 = icmp sgt i64 %n, 0
  br i1 %c0, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 7, %entry ], [ %s.next, %loop ]
  %i.next = add nuw nsw i64 %i, 1
  %s.next = add i64 %s, 3
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i64 [ %s.next, %loop ]
  br label %done
done:
  %q = phi i64 [ 0, %entry ], [ %r, %exit ]
  ret i64 %q
}
"""


@pytest.mark.parametrize("mode", ["never", "cheap", "noharduse", "unusedindvarinloop", "always"])
def test_exit_value_modes_through_indvars(mode: str) -> None:
    """-replexitval as opt-19: a value with a side-effecting user in the loop is rewritten only
    under ``always``; constant and cheap exit values otherwise."""
    require_tools("opt-19")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from opt_oracle import assert_same_as_opt

    text = assert_same_as_opt(EXIT_VALUE_MODES, "indvars", {"replexitval": mode})
    assert ("add i32 %a, 30" in text) == (mode == "always")
