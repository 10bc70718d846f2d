"""Random SCEV expressions over a counted loop, expanded by SCEVExpander (canonical and literal
mode, in the loop and after it): the module verifies under opt-19 and lli-19 computes what the
expression means, evaluated here from its definition (modular arithmetic, add recurrences by
their binomial closed form)."""

from __future__ import annotations

import random
import subprocess
from math import comb
from pathlib import Path

import pytest

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEV, SCEVAddRecExpr, SCEVConstant, SCEVTypes, SCEVUnknown
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.value import Value
from oracles import require_tools
from test_scev_expander import COUNTED_LOOP, INPUTS, Env, _last_i, _return

N_EXPRS = 24


def _mask(w: int) -> int:
    return (1 << w) - 1


def _sx(v: int, w: int) -> int:
    v &= _mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def evaluate(s: SCEV, env: dict[Value, int], k: int | dict[Loop, int]) -> int:
    """The unsigned value of ``s`` with the opaque values in ``env`` and the recurrences at
    iteration ``k`` (one for every loop, or per loop)."""
    w = s.type.width  # type: ignore[union-attr]
    kind = s.kind
    if isinstance(s, SCEVConstant):
        return s.value
    if isinstance(s, SCEVUnknown):
        return env[s.value] & _mask(w)
    ops = [evaluate(o, env, k) for o in s.operands]
    ws = [o.type.width for o in s.operands]  # type: ignore[union-attr]
    if kind is SCEVTypes.ADD:
        return sum(ops) & _mask(w)
    if kind is SCEVTypes.MUL:
        r = 1
        for o in ops:
            r = r * o & _mask(w)
        return r
    if kind is SCEVTypes.UDIV:
        return ops[0] // ops[1]
    if kind is SCEVTypes.TRUNCATE or kind is SCEVTypes.ZERO_EXTEND:
        return ops[0] & _mask(w)
    if kind is SCEVTypes.SIGN_EXTEND:
        return _sx(ops[0], ws[0]) & _mask(w)
    if kind in (SCEVTypes.UMAX, SCEVTypes.UMIN, SCEVTypes.SEQ_UMIN):
        return max(ops) if kind is SCEVTypes.UMAX else min(ops)
    if kind in (SCEVTypes.SMAX, SCEVTypes.SMIN):
        sv = [_sx(o, w) for o in ops]
        return (max(sv) if kind is SCEVTypes.SMAX else min(sv)) & _mask(w)
    assert isinstance(s, SCEVAddRecExpr)
    it = k[s.loop] if isinstance(k, dict) else k
    return sum(o * comb(it, j) for j, o in enumerate(ops)) & _mask(w)


def random_expr(env: Env, rng: random.Random, depth: int) -> SCEV:
    se = env.se
    i32 = env.module.context.i32
    i64 = env.module.context.i64
    if depth == 0 or rng.random() < 0.25:
        choice = rng.randrange(5)
        if choice == 0:
            return env.scev("n")
        if choice == 1:
            return env.scev("a")
        if choice == 2:
            return env.const(rng.choice([0, 1, 2, 3, 7, 8, 255, -1, -5, 1 << 31]))
        start = rng.choice([env.const(rng.randrange(-9, 10)), env.scev("a"), env.scev("n")])
        step = rng.choice([env.const(rng.randrange(-4, 5)), env.scev("a")])
        return se.get_add_rec_expr([start, step], env.loop)
    op = rng.randrange(9)
    x = random_expr(env, rng, depth - 1)
    if op == 0:
        return se.get_add_expr([x, random_expr(env, rng, depth - 1)])
    if op == 1:
        return se.get_minus_scev(x, random_expr(env, rng, depth - 1))
    if op == 2:
        return se.get_mul_expr([x, random_expr(env, rng, depth - 1)])
    if op == 3:
        return se.get_udiv_expr(x, env.const(rng.choice([1, 2, 3, 4, 16, 5])))
    if op == 4:
        kind = rng.choice([SCEVTypes.SMAX, SCEVTypes.UMAX, SCEVTypes.SMIN, SCEVTypes.UMIN])
        return se.get_min_max_expr(kind, [x, random_expr(env, rng, depth - 1)])
    if op == 5:
        return se.get_umin_expr([x, random_expr(env, rng, depth - 1)], True)
    if op == 6:
        wide = se.get_zero_extend_expr(x, i64) if rng.random() < 0.5 else se.get_sign_extend_expr(x, i64)
        return se.get_truncate_expr(se.get_add_expr([wide, env.const(rng.randrange(-3, 4), 64)]), i32)
    if op == 7:
        return se.get_sign_extend_expr(se.get_truncate_expr(x, env.module.context.i8), i32)
    return se.get_add_rec_expr([x, env.const(rng.randrange(1, 4))], env.loop) if not _has_rec(x) else x


def _has_rec(s: SCEV) -> bool:
    return s.kind is SCEVTypes.ADD_REC or any(_has_rec(o) for o in s.operands)


def _run(text: str, tmp_path: Path) -> list[int]:
    require_tools("opt-19", "lli-19")
    f = tmp_path / "v.ll"
    f.write_text(text)
    r = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr + text
    from test_scev_expander import _lli_results

    return _lli_results(text, tmp_path, INPUTS)


@pytest.mark.parametrize("seed", [s if s < 8 else pytest.param(s, marks=pytest.mark.slow) for s in range(N_EXPRS)])
@pytest.mark.parametrize("where", ["exit", "latch"])
@pytest.mark.parametrize("canonical", [True, False], ids=["canonical", "literal"])
def test_random_expansion(seed: int, where: str, canonical: bool, tmp_path: Path) -> None:
    require_tools("opt-19", "lli-19")
    rng = random.Random(seed * 7919 + 13)
    env = Env(COUNTED_LOOP)
    s = random_expr(env, rng, 3)
    ex = env.expander()
    if not canonical:
        ex.disable_canonical_mode()
    if where == "exit":
        v = ex.expand_code_for(s, None, env.exit_ret())
        _return(env, v)
    else:
        latch_term = env.blocks["loop"].terminator
        assert latch_term is not None
        v = ex.expand_code_for(s, None, latch_term)
        exit_bb = env.blocks["exit"]
        b = IRBuilder(exit_bb, exit_bb.first_instruction)
        pn = b.phi(v.type, "out", [(v, env.blocks["loop"])])
        _return(env, pn)
    text = env.text()
    got = _run(text, tmp_path)
    n_arg, a_arg = env.values["n"], env.values["a"]
    want = [evaluate(s, {n_arg: n, a_arg: a}, _last_i(n & 0xFFFFFFFF)) for n, a in INPUTS]
    assert got == want, text


NESTED = """
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
define i32 @f(i32 %n, i32 %a) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 3
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %j.next = add i32 %j, 1
  %co = icmp ult i32 %j.next, %n
  br i1 %co, label %outer, label %exit
exit:
  ret i32 0
}
"""


def nested_expr(env: Env, rng: random.Random, depth: int, outer: Loop, inner: Loop) -> SCEV:
    se = env.se
    if depth == 0 or rng.random() < 0.3:
        choice = rng.randrange(5)
        if choice == 0:
            return env.scev("n")
        if choice == 1:
            return env.scev("a")
        if choice == 2:
            return env.const(rng.randrange(-9, 10))
        ostart = rng.choice([env.const(rng.randrange(-9, 10)), env.scev("a")])
        orec = se.get_add_rec_expr([ostart, rng.choice([env.const(rng.randrange(-4, 5)), env.scev("n")])], outer)
        if choice == 3:
            return orec
        istart = rng.choice([orec, env.scev("n"), env.const(rng.randrange(-9, 10))])
        return se.get_add_rec_expr([istart, rng.choice([env.const(rng.randrange(-4, 5)), env.scev("a")])], inner)
    op = rng.randrange(4)
    x = nested_expr(env, rng, depth - 1, outer, inner)
    y = nested_expr(env, rng, depth - 1, outer, inner)
    if op == 0:
        return se.get_add_expr([x, y])
    if op == 1:
        return se.get_minus_scev(x, y)
    if op == 2:
        return se.get_mul_expr([x, y])
    return se.get_min_max_expr(rng.choice([SCEVTypes.SMAX, SCEVTypes.UMIN]), [x, y])


@pytest.mark.parametrize("seed", [s if s < 4 else pytest.param(s, marks=pytest.mark.slow) for s in range(12)])
@pytest.mark.parametrize("where", ["exit", "outer.latch", "inner"])
@pytest.mark.parametrize("canonical", [True, False], ids=["canonical", "literal"])
def test_random_nested_expansion(seed: int, where: str, canonical: bool, tmp_path: Path) -> None:
    require_tools("opt-19", "lli-19")
    rng = random.Random(seed * 104729 + 5)
    env = Env(NESTED)
    outer = env.li.loop_for(env.blocks["outer"])
    inner = env.li.loop_for(env.blocks["inner"])
    assert outer is not None and inner is not None
    s = nested_expr(env, rng, 3, outer, inner)
    ex = env.expander()
    if not canonical:
        ex.disable_canonical_mode()
    term = env.blocks[where].terminator
    assert term is not None
    v = ex.expand_code_for(s, None, term)
    if where == "exit":
        _return(env, v)
    else:
        chain = ["outer.latch", "exit"] if where == "inner" else ["exit"]
        prev_block = env.blocks[where]
        for name in chain:
            bb = env.blocks[name]
            b = IRBuilder(bb, bb.first_instruction)
            v = b.phi(v.type, "out", [(v, prev_block)])
            prev_block = bb
        _return(env, v)
    text = env.text()
    got = _run(text, tmp_path)
    n_arg, a_arg = env.values["n"], env.values["a"]
    want = [evaluate(s, {n_arg: n, a_arg: a}, {outer: _last_i(n & 0xFFFFFFFF), inner: 2}) for n, a in INPUTS]
    assert got == want, text
