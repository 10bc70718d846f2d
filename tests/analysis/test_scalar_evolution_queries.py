"""ScalarEvolution queries (LLVM ScalarEvolution.cpp getSCEVAtScope, evaluateAtIteration,
getConstantEvolutionLoopExitValue, getLoopInvariantPredicate, ...): exit values of generated
loops checked against running them, binomial evaluation against brute force, predicates."""

from __future__ import annotations

import random

import pytest

from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVAddRecExpr, SCEVConstant, SCEVCouldNotCompute
from llvmpy_mid.ir.instructions.cmp import Predicate
from test_scalar_evolution import _analyse, _holds, _random_loop, _value


def _exit_loop_text(w: int, start: int, step: int, pred: str, bound: int, post: bool, exit_if_true: bool) -> str:
    ty = "i%d" % w
    cmpv = "%iv.next" if post else "%iv"
    br = "br i1 %c, label %exit, label %loop" if exit_if_true else "br i1 %c, label %loop, label %exit"
    return f"""define {ty} @f({ty} %n) {{
entry:
  br label %loop
loop:
  %iv = phi {ty} [ {start}, %entry ], [ %iv.next, %loop ]
  %sq = phi {ty} [ 1, %entry ], [ %sq.next, %loop ]
  %iv.next = add {ty} %iv, {step}
  %sq.next = mul {ty} %sq, 3
  %c = icmp {pred} {ty} {cmpv}, {bound}
  {br}
exit:
  ret {ty} %iv
}}
"""


def _run(w: int, start: int, step: int, pred: str, bound: int, post: bool, exit_if_true: bool, limit: int) -> tuple[int, int, int] | None:
    """(backedges taken, %iv and %sq at the exit), or None past ``limit``."""
    mask = (1 << w) - 1
    iv = start & mask
    sq = 1
    for taken in range(limit):
        nxt = (iv + step) & mask
        if _holds(pred, nxt if post else iv, bound, w) == exit_if_true:
            return taken, iv, sq
        iv = nxt
        sq = (sq * 3) & mask
    return None


@pytest.mark.parametrize("seed", range(200))
def test_exit_values_match_execution(seed: int) -> None:
    """The value of a recurrence and of a constant-evolving phi outside their loop is what
    running the loop gives."""
    params = _random_loop(random.Random(seed))
    se, li, fn = _analyse(_exit_loop_text(*params))
    loop = li.top_level_loops[0]
    actual = _run(*params, limit=3000)
    iv = _value(fn, "iv")
    sq = _value(fn, "sq")
    iv_next = _value(fn, "iv.next")
    at = se.get_scev_at_scope(iv, None)  # type: ignore[arg-type]
    at_next = se.get_scev_at_scope(se.get_scev(iv_next), None)  # type: ignore[arg-type]
    at_sq = se.get_scev_at_scope(sq, None)  # type: ignore[arg-type]
    btc = se.get_backedge_taken_count(loop)
    w = params[0]
    if isinstance(btc, SCEVConstant):
        assert isinstance(at, SCEVConstant), params
        assert isinstance(at_next, SCEVConstant)
        if actual is not None:
            assert at.value == actual[1], params
            assert at_next.value == (actual[1] + params[2]) & ((1 << w) - 1)
            if btc.value <= 100:
                assert isinstance(at_sq, SCEVConstant), params
                assert at_sq.value == actual[2], params
    else:
        # Nothing is known at the exit: the expression stays the recurrence.
        assert at is se.get_scev(iv)  # type: ignore[arg-type]
    # Inside the loop, the value is the recurrence itself.
    assert se.get_scev_at_scope(iv, loop) is se.get_scev(iv)  # type: ignore[arg-type]


def test_forget_loop_drops_values_at_scope() -> None:
    se, li, fn = _analyse(_exit_loop_text(32, 0, 1, "eq", 10, True, True))
    loop = li.top_level_loops[0]
    iv = _value(fn, "iv")
    assert isinstance(se.get_scev_at_scope(iv, None), SCEVConstant)  # type: ignore[arg-type]
    assert se.values_at_scopes
    se.forget_loop(loop)
    assert not se.values_at_scopes and not se.constant_evolution_exit_values


@pytest.mark.parametrize("seed", range(60))
def test_evaluate_at_iteration_matches_brute_force(seed: int) -> None:
    """sum op[k] * C(it, k) modulo 2^w, for recurrences of up to four operands, with constant
    and (substituted) symbolic iteration counts."""
    r = random.Random(seed)
    w = r.choice([8, 16, 32])
    mask = (1 << w) - 1
    se, li, fn = _analyse(_exit_loop_text(w, 0, 1, "eq", 5, True, True))
    loop = li.top_level_loops[0]
    ty = fn.args[0].type  # type: ignore[attr-defined]
    ops = [r.randint(0, mask) for _ in range(r.randint(2, 4))]
    rec = se.get_add_rec_expr([se.get_constant(ty, c) for c in ops], loop)
    assert isinstance(rec, SCEVAddRecExpr)
    it = r.randint(0, min(300, mask))
    # brute force: run the chain of recurrences
    vals = list(ops)
    for _ in range(it):
        for k in range(len(vals) - 1):
            vals[k] = (vals[k] + vals[k + 1]) & mask
    res = se.evaluate_at_iteration(rec, se.get_constant(ty, it))
    assert isinstance(res, SCEVConstant) and res.value == vals[0]


def _guarded_loop(pred: str) -> str:
    return f"""define void @f(i32 %n) {{
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %loop, label %exit
loop:
  %iv = phi i32 [ 0, %entry ], [ %iv.next, %loop ]
  %iv.next = add nuw nsw i32 %iv, 1
  %c = icmp {pred} i32 %iv.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
"""


def test_loop_invariant_predicate_from_latch() -> None:
    """The latch condition never becomes invariant (the backedge is taken while it holds, and
    it decreases); a predicate the backedge condition keeps true does."""
    se, li, fn = _analyse(_guarded_loop("slt"))
    loop = li.top_level_loops[0]
    n = se.get_scev(_value(fn, "n"))  # type: ignore[arg-type]
    iv_next = se.get_scev(_value(fn, "iv.next"))  # type: ignore[arg-type]
    assert isinstance(iv_next, SCEVAddRecExpr)
    assert se.get_loop_invariant_predicate(Predicate.ICMP_SLT, iv_next, n, loop) is None
    # While iv.next >s n (increasing, kept by the backedge): iv.next >s n is start >s n.
    se, li, fn = _analyse(_guarded_loop("sgt"))
    loop = li.top_level_loops[0]
    n = se.get_scev(_value(fn, "n"))  # type: ignore[arg-type]
    iv_next = se.get_scev(_value(fn, "iv.next"))  # type: ignore[arg-type]
    assert isinstance(iv_next, SCEVAddRecExpr)
    res = se.get_loop_invariant_predicate(Predicate.ICMP_SGT, iv_next, n, loop)
    assert res is not None
    assert res[0] is Predicate.ICMP_SGT and res[1] is iv_next.start and res[2] is n
    res2 = se.get_loop_invariant_predicate(Predicate.ICMP_SLT, n, iv_next, loop)
    assert res2 is not None and res2[0] is Predicate.ICMP_SGT
    # Decreasing, and the backedge keeps its inverse: the value on the first iteration.
    res3 = se.get_loop_invariant_predicate(Predicate.ICMP_SLE, iv_next, n, loop)
    assert res3 is not None and res3[0] is Predicate.ICMP_SLE
    # Equality is not monotonic.
    assert se.get_loop_invariant_predicate(Predicate.ICMP_EQ, iv_next, n, loop) is None


def test_entry_guard_and_known_predicate_at() -> None:
    se, li, fn = _analyse(_guarded_loop("slt"))
    loop = li.top_level_loops[0]
    n = se.get_scev(_value(fn, "n"))  # type: ignore[arg-type]
    zero = se.get_zero(n.type)  # type: ignore[arg-type]
    assert se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_SGT, n, zero)
    assert se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_SGE, n, zero)
    assert se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_NE, n, zero)
    assert not se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_SGT, n, se.get_one(n.type))  # type: ignore[arg-type]
    assert not se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_UGT, n, se.get_one(n.type))  # type: ignore[arg-type]
    ctx = _value(fn, "c")
    assert se.evaluate_predicate_at(Predicate.ICMP_SLE, n, zero, ctx) is False  # type: ignore[arg-type]
    assert se.evaluate_predicate_at(Predicate.ICMP_ULT, n, zero, ctx) is False  # type: ignore[arg-type]
    assert se.evaluate_predicate(Predicate.ICMP_SLE, n, zero) is None
    iv = se.get_scev(_value(fn, "iv"))  # type: ignore[arg-type]
    assert isinstance(iv, SCEVAddRecExpr)
    # iv >=s 0 on entry (0 >= 0) and on the backedge ({1,+,1} <s n, n >s 0 does not tell
    # {1,+,1} >= 0 by itself): unknown; iv <s n on every iteration holds.
    assert se.is_known_on_every_iteration(Predicate.ICMP_SLT, iv, n)


def test_exit_count_kinds() -> None:
    se, li, fn = _analyse(_guarded_loop("slt"))
    loop = li.top_level_loops[0]
    latch = loop.latch
    assert latch is not None
    cmax = se.get_exit_count(loop, latch, "constant_max")
    assert isinstance(cmax, SCEVConstant)
    assert not isinstance(se.get_exit_count(loop, latch, "symbolic_max"), SCEVCouldNotCompute)
    with pytest.raises(ValueError):
        se.get_exit_count(loop, latch, "bogus")


# --- symbolic counts checked by evaluating them ------------------------------------------------
def _eval_scev(s: object, env: dict[object, int]) -> int:
    """The value (unsigned) of a loop-invariant expression with opaque values from ``env``."""
    from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVTypes, SCEVUnknown

    assert not isinstance(s, SCEVCouldNotCompute)
    w = s.type.width  # type: ignore[attr-defined]
    mask = (1 << w) - 1

    def sg(v: int, bits: int) -> int:
        return v - (1 << bits) if v >> (bits - 1) else v

    if isinstance(s, SCEVConstant):
        return s.value
    if isinstance(s, SCEVUnknown):
        return env[s.value] & mask
    k = s.kind  # type: ignore[attr-defined]
    ops = [_eval_scev(o, env) for o in s.operands]  # type: ignore[attr-defined]
    iw = [o.type.width for o in s.operands]  # type: ignore[attr-defined]
    if k is SCEVTypes.ADD:
        return sum(ops) & mask
    if k is SCEVTypes.MUL:
        r = 1
        for o in ops:
            r = r * o & mask
        return r
    if k is SCEVTypes.UDIV:
        return ops[0] // ops[1] if ops[1] else 0
    if k is SCEVTypes.ZERO_EXTEND or k is SCEVTypes.TRUNCATE:
        return ops[0] & mask
    if k is SCEVTypes.SIGN_EXTEND:
        return sg(ops[0], iw[0]) & mask
    if k is SCEVTypes.UMAX:
        return max(ops)
    if k in (SCEVTypes.UMIN, SCEVTypes.SEQ_UMIN):
        return min(ops)
    if k is SCEVTypes.SMAX:
        return max(ops, key=lambda v: sg(v, w))
    if k is SCEVTypes.SMIN:
        return min(ops, key=lambda v: sg(v, w))
    raise AssertionError(k)


def _param_loop_text(w: int, start: int, step: int, pred: str, post: bool, flags: str, guard: str) -> str:
    ty = "i%d" % w
    cmpv = "%iv.next" if post else "%iv"
    entry = f"  %g = icmp {guard} {ty} %n, {start}\n  br i1 %g, label %loop, label %exit" if guard else "  br label %loop"
    return f"""define void @f({ty} %n) {{
entry:
{entry}
loop:
  %iv = phi {ty} [ {start}, %entry ], [ %iv.next, %loop ]
  %iv.next = add {flags} {ty} %iv, {step}
  %c = icmp {pred} {ty} {cmpv}, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
"""


@pytest.mark.parametrize("seed", range(150))
def test_symbolic_counts_match_execution(seed: int) -> None:
    """For ``while (iv < n)`` loops with an argument bound, the exact count (evaluated for
    every i8 value of ``n`` the loop is entered with and is defined for) is what execution
    gives, and the constant maximum bounds it."""
    r = random.Random(9000 + seed)
    w = 8
    start = r.choice([0, 1, -1, r.randint(-10, 20)])
    step = r.choice([1, 1, 2, 3, 4, -1, -2])
    pred = r.choice(["slt", "ult", "sle", "ule", "ne", "sgt", "ugt"])
    post = r.choice([True, False])
    flags = r.choice(["", "nsw", "nuw", "nuw nsw"])
    guard = r.choice(["", "sgt", "ugt", "slt", "sge"])
    text = _param_loop_text(w, start, step, pred, post, flags, guard)
    se, li, fn = _analyse(text)
    loop = li.top_level_loops[0]
    btc = se.get_backedge_taken_count(loop)
    cmax = se.get_constant_max_backedge_taken_count(loop)
    n_arg = fn.args[0]  # type: ignore[attr-defined]
    mask = (1 << w) - 1
    for n in range(256):
        if guard and not _holds(guard, n, start, w):
            continue
        iv = start & mask
        taken = None
        poison = False
        for t in range(600):
            raw = iv + (step & mask)
            nxt = raw & mask
            sraw = (iv - (1 << w) if iv >> (w - 1) else iv) + step
            if ("nuw" in flags and raw > mask) or ("nsw" in flags and not -(1 << (w - 1)) <= sraw < (1 << (w - 1))):
                poison = True
                break
            if not _holds(pred, nxt if post else iv, n, w):
                taken = t
                break
            iv = nxt
        if poison or taken is None:
            continue  # undefined or infinite: any count is right
        if not isinstance(btc, SCEVCouldNotCompute):
            assert _eval_scev(btc, {n_arg: n}) == taken, (text, n)
        if isinstance(cmax, SCEVConstant):
            assert taken <= cmax.value, (text, n)


# --- extensions of recurrences ---------------------------------------------------------------
def _ext_loop_text(start: int, step: int, pred: str, bound: int, post: bool, flags: str) -> str:
    cmpv = "%iv.next" if post else "%iv"
    return f"""define void @f(i8 %n) {{
entry:
  br label %loop
loop:
  %iv = phi i8 [ {start}, %entry ], [ %iv.next, %loop ]
  %z = zext i8 %iv to i16
  %s = sext i8 %iv to i16
  %iv.next = add {flags} i8 %iv, {step}
  %zn = zext i8 %iv.next to i16
  %sn = sext i8 %iv.next to i16
  %c = icmp {pred} i8 {cmpv}, {bound}
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
"""


@pytest.mark.parametrize("seed", range(200))
def test_extended_recurrences_match_execution(seed: int) -> None:
    """Where zext/sext of an i8 recurrence folds into an i16 recurrence, its value on every
    iteration the loop runs is the extension of the i8 value (and the ranges hold them)."""
    r = random.Random(20000 + seed)
    start = r.choice([0, 1, -1, 100, -100, r.randint(-128, 127)])
    step = r.choice([1, 1, 2, 3, -1, -2, 5])
    pred = r.choice(["slt", "ult", "sle", "ule", "ne", "sgt", "ugt"])
    bound = r.choice([0, 10, 100, 127, -128, -1, r.randint(-128, 127)])
    post = r.choice([True, False])
    flags = r.choice(["", "", "nsw", "nuw"])
    se, li, fn = _analyse(_ext_loop_text(start, step, pred, bound, post, flags))
    # The values on each iteration, stopping at poison (the loop is undefined from there).
    values: list[int] = []
    iv = start & 0xFF
    for _ in range(400):
        values.append(iv)
        raw = iv + (step & 0xFF)
        sraw = (iv - 256 if iv >= 128 else iv) + step
        if ("nuw" in flags and raw > 255) or ("nsw" in flags and not -128 <= sraw <= 127):
            return  # the next branch is on poison: the whole run is undefined
        nxt = raw & 0xFF
        if not _holds(pred, nxt if post else iv, bound, 8):
            break
        iv = nxt
    else:
        return  # long or infinite
    def sx(v: int) -> int:
        return (v - 256 if v >= 128 else v) & 0xFFFF
    for name, fnc, shift in (("z", lambda v: v, 0), ("s", sx, 0), ("zn", lambda v: v, 1), ("sn", sx, 1)):
        s = se.get_scev(_value(fn, name))  # type: ignore[arg-type]
        ur = se.get_unsigned_range(s)
        sr = se.get_signed_range(s)
        for t, v in enumerate(values):
            if shift:
                v = (v + step) & 0xFF
            want = fnc(v)
            assert ur.contains(want) and sr.contains(want), (name, t, seed)
            if isinstance(s, SCEVAddRecExpr):
                got = se.evaluate_at_iteration(s, se.get_constant(s.type, t))  # type: ignore[arg-type]
                assert isinstance(got, SCEVConstant) and got.value == want, (name, t, seed, s)


# --- against opt-19 --------------------------------------------------------------------------
_BTC_RE = __import__("re").compile(r"^Loop %loop: backedge-taken count is (.*)$", __import__("re").M)


@pytest.mark.parametrize("seed", range(100))
def test_symbolic_counts_like_opt(seed: int) -> None:
    """The exact backedge-taken count of guarded ``<``/``<=``/``!=`` loops against an argument
    is opt-19's, printed alike; where opt-19 has none, none is given here."""
    import subprocess

    from oracles import require_tools

    require_tools("opt-19")
    try:
        from llvmpy_mid.analysis.scalar_evolution_printer import format_scev
    except ImportError:  # pragma: no cover - the printer is another module
        pytest.skip("no SCEV printer")
    r = random.Random(9000 + seed)
    w = r.choice([8, 32])
    start = r.choice([0, 1, -1, r.randint(-10, 20)])
    step = r.choice([1, 1, 2, 3, 4, -1, -2])
    pred = r.choice(["slt", "ult", "sle", "ule", "ne", "sgt", "ugt"])
    post = r.choice([True, False])
    flags = r.choice(["", "nsw", "nuw", "nuw nsw"])
    guard = r.choice(["", "sgt", "ugt", "slt", "sge"])
    text = _param_loop_text(w, start, step, pred, post, flags, guard)
    out = subprocess.run(
        ["opt-19", "-passes=print<scalar-evolution>", "-disable-output", "-"], input=text, capture_output=True, text=True
    ).stderr
    se, li, fn = _analyse(text)
    # The order of opt's printer: every value's expression (and its value at the exit) first.
    loop = li.top_level_loops[0]
    for bb in fn.blocks:  # type: ignore[attr-defined]
        for inst in bb.instructions:
            if se.is_scevable(inst.type):
                sv = se.get_scev(inst)
                se.get_scev_at_scope(sv, li.loop_for(bb))
                se.get_unsigned_range(sv)
                se.get_signed_range(sv)
                se.get_scev_at_scope(sv, None)
    btc = se.get_backedge_taken_count(loop)
    m = _BTC_RE.search(out)
    if m is None:
        assert isinstance(btc, SCEVCouldNotCompute), text
    elif not isinstance(btc, SCEVCouldNotCompute):
        want = m.group(1)
        if isinstance(btc, SCEVConstant):  # printed with its type
            want = want.split(" ", 1)[1]
        assert format_scev(btc) == want, text


@pytest.mark.parametrize("seed", range(40))
def test_products_of_recurrences_match_execution(seed: int) -> None:
    """Products of recurrences of one loop (and with invariants) fold to recurrences whose
    value on each iteration is the product's."""
    r = random.Random(30000 + seed)
    a0, a1, b0, b1, k = (r.randint(-50, 50) for _ in range(5))
    text = f"""define void @f(i16 %n) {{
entry:
  br label %loop
loop:
  %a = phi i16 [ {a0}, %entry ], [ %a.next, %loop ]
  %b = phi i16 [ {b0}, %entry ], [ %b.next, %loop ]
  %p = mul i16 %a, %b
  %q = mul i16 %p, %a
  %s = mul i16 %a, {k}
  %a.next = add i16 %a, {a1}
  %b.next = add i16 %b, {b1}
  %c = icmp ne i16 %a.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
"""
    se, li, fn = _analyse(text)
    for name in ("p", "q", "s"):
        assert isinstance(se.get_scev(_value(fn, name)), (SCEVAddRecExpr, SCEVConstant))  # type: ignore[arg-type]
    for t in range(30):
        a = (a0 + t * a1) & 0xFFFF
        b = (b0 + t * b1) & 0xFFFF
        want = {"p": a * b & 0xFFFF, "q": a * b * a & 0xFFFF, "s": a * k & 0xFFFF}
        for name, v in want.items():
            s = se.get_scev(_value(fn, name))  # type: ignore[arg-type]
            if isinstance(s, SCEVAddRecExpr):
                got = se.evaluate_at_iteration(s, se.get_constant(s.type, t))  # type: ignore[arg-type]
                assert isinstance(got, SCEVConstant) and got.value == v, (name, t, seed)


_SELECT_PREDS = ["slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "eq", "ne"]


@pytest.mark.parametrize("seed", range(60))
def test_select_expressions_match_evaluation(seed: int) -> None:
    """Selects turned into min/max expressions (or kept opaque) have the select's value for
    every pair of i8 arguments."""
    r = random.Random(40000 + seed)
    pred = r.choice(_SELECT_PREDS)
    x = r.randint(-3, 3)
    form = r.choice(["max", "min", "zero"])
    if form == "zero":
        rhs, tv, fv = "0", f"%ct", "%fa"
        pre = f"  %ct = add i8 %b, {r.choice([0, 1, 2])}\n  %fa = add i8 %a, %b\n"
    else:
        rhs = "%b"
        pre = f"  %la = add i8 %a, {x}\n  %lb = add i8 %b, {x}\n"
        tv, fv = ("%la", "%lb") if form == "max" else ("%lb", "%la")
    text = f"""define i8 @f(i8 %a, i8 %b) {{
entry:
{pre}  %c = icmp {pred} i8 %a, {rhs}
  %s = select i1 %c, i8 {tv}, i8 {fv}
  ret i8 %s
}}
"""
    se, li, fn = _analyse(text)
    s = se.get_scev(_value(fn, "s"))  # type: ignore[arg-type]
    from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVUnknown

    if isinstance(s, SCEVUnknown):
        return
    a_arg, b_arg = fn.args  # type: ignore[attr-defined]
    for a in range(0, 256, 7):
        for b in range(0, 256, 11):
            cond = _holds(pred, a, 0 if form == "zero" else b, 8)
            vals = {"%la": a + x, "%lb": b + x, "%ct": b + int(pre.split("add i8 %b, ")[1][0]) if form == "zero" else 0, "%fa": a + b}
            want = (vals[tv] if cond else vals[fv]) & 0xFF
            assert _eval_scev(s, {a_arg: a, b_arg: b}) == want, (text, a, b)
