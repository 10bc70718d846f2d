"""KnownBits transfer functions checked exhaustively against brute force.

For every width 1..3 (and 4 for the cheap operations) and every pair of
consistent KnownBits operands, each transfer function's result must be sound:
every concrete result of every pair of values the operands allow agrees with
it (poison results — division by zero, over-wide shifts, violated nuw/nsw or
exact — are left out). Where LLVM's function is optimal (and/or/xor, add/sub
without flags, shifts, min/max) the result must also be exactly the bits
common to all concrete results. The comparisons (eq, ugt, ...) must answer
True/False only when every concrete pair agrees.
"""

from __future__ import annotations

import itertools
from typing import Callable, Iterator, Optional

import pytest

from llvmpy_mid.analysis.known_bits import KnownBits


def all_known(w: int) -> Iterator[KnownBits]:
    """Every consistent KnownBits of width ``w`` (3**w of them)."""
    for digits in itertools.product((0, 1, 2), repeat=w):
        zero = one = 0
        for i, d in enumerate(digits):
            if d == 1:
                zero |= 1 << i
            elif d == 2:
                one |= 1 << i
        yield KnownBits(w, zero, one)


def values(k: KnownBits) -> list[int]:
    return [v for v in range(1 << k.bit_width) if v & k.zero == 0 and v & k.one == k.one]


def sx(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def best(results: list[int], w: int) -> KnownBits | None:
    if not results:
        return None
    m = (1 << w) - 1
    zero = one = m
    for r in results:
        zero &= ~r & m
        one &= r
    return KnownBits(w, zero, one)


BinOp = Callable[[int, int, int], Optional[int]]


def check_binary(name: str, fn: Callable[[KnownBits, KnownBits], KnownBits], concrete: BinOp, widths: tuple[int, ...], optimal: bool) -> None:
    for w in widths:
        knowns = list(all_known(w))
        vals = {id(k): values(k) for k in knowns}
        for a in knowns:
            va = vals[id(a)]
            for b in knowns:
                res = fn(a, b)
                results = []
                for x in va:
                    for y in vals[id(b)]:
                        r = concrete(x, y, w)
                        if r is not None:
                            results.append(r)
                if not results:
                    continue
                assert not res.has_conflict(), (name, a, b, res)
                for r in results:
                    assert r & res.zero == 0 and r & res.one == res.one, (name, a, b, res, r)
                if optimal:
                    assert res == best(results, w), (name, a, b, res, best(results, w))


def _m(w: int) -> int:
    return (1 << w) - 1


def add(x: int, y: int, w: int) -> int:
    return (x + y) & _m(w)


def sub(x: int, y: int, w: int) -> int:
    return (x - y) & _m(w)


def add_nsw(x: int, y: int, w: int) -> int | None:
    r = sx(x, w) + sx(y, w)
    return r & _m(w) if -(1 << (w - 1)) <= r < (1 << (w - 1)) else None


def add_nuw(x: int, y: int, w: int) -> int | None:
    return x + y if x + y <= _m(w) else None


def sub_nsw(x: int, y: int, w: int) -> int | None:
    r = sx(x, w) - sx(y, w)
    return r & _m(w) if -(1 << (w - 1)) <= r < (1 << (w - 1)) else None


def sub_nuw(x: int, y: int, w: int) -> int | None:
    return x - y if x >= y else None


def shl(x: int, y: int, w: int) -> int | None:
    return (x << y) & _m(w) if y < w else None


def lshr(x: int, y: int, w: int) -> int | None:
    return x >> y if y < w else None


def ashr(x: int, y: int, w: int) -> int | None:
    return (sx(x, w) >> y) & _m(w) if y < w else None


def udiv(x: int, y: int, w: int) -> int | None:
    return x // y if y else None


def urem(x: int, y: int, w: int) -> int | None:
    return x % y if y else None


def sdiv(x: int, y: int, w: int) -> int | None:
    a, b = sx(x, w), sx(y, w)
    if b == 0 or (a == -(1 << (w - 1)) and b == -1):
        return None
    q = abs(a) // abs(b)
    return (q if (a < 0) == (b < 0) else -q) & _m(w)


def srem(x: int, y: int, w: int) -> int | None:
    a, b = sx(x, w), sx(y, w)
    if b == 0 or (a == -(1 << (w - 1)) and b == -1):
        return None
    r = abs(a) % abs(b)
    return (-r if a < 0 else r) & _m(w)


def clamp_s(r: int, w: int) -> int:
    return min(max(r, -(1 << (w - 1))), (1 << (w - 1)) - 1) & _m(w)


CHEAP = (1, 2, 3, 4)
SMALL = (1, 2, 3)


@pytest.mark.parametrize(
    "name, fn, concrete, optimal",
    [
        ("and", lambda a, b: a & b, lambda x, y, w: x & y, True),
        ("or", lambda a, b: a | b, lambda x, y, w: x | y, True),
        ("xor", lambda a, b: a ^ b, lambda x, y, w: x ^ y, True),
        ("add", lambda a, b: KnownBits.compute_for_add_sub(True, False, False, a, b), add, True),
        ("sub", lambda a, b: KnownBits.compute_for_add_sub(False, False, False, a, b), sub, True),
        ("shl", lambda a, b: KnownBits.shl(a, b), shl, True),
        ("lshr", lambda a, b: KnownBits.lshr(a, b), lshr, True),
        ("ashr", lambda a, b: KnownBits.ashr(a, b), ashr, True),
        ("umax", KnownBits.umax, lambda x, y, w: max(x, y), True),
        ("umin", KnownBits.umin, lambda x, y, w: min(x, y), True),
        ("smax", KnownBits.smax, lambda x, y, w: max(sx(x, w), sx(y, w)) & _m(w), True),
        ("smin", KnownBits.smin, lambda x, y, w: min(sx(x, w), sx(y, w)) & _m(w), True),
    ],
)
def test_optimal_binary(name: str, fn: Callable[[KnownBits, KnownBits], KnownBits], concrete: BinOp, optimal: bool) -> None:
    check_binary(name, fn, concrete, CHEAP if name in ("and", "or", "xor", "add", "sub") else SMALL, optimal)


@pytest.mark.parametrize(
    "name, fn, concrete",
    [
        ("add nsw", lambda a, b: KnownBits.compute_for_add_sub(True, True, False, a, b), add_nsw),
        ("add nuw", lambda a, b: KnownBits.compute_for_add_sub(True, False, True, a, b), add_nuw),
        ("add nuw nsw", lambda a, b: KnownBits.compute_for_add_sub(True, True, True, a, b),
         lambda x, y, w: add_nsw(x, y, w) if add_nuw(x, y, w) is not None else None),
        ("sub nsw", lambda a, b: KnownBits.compute_for_add_sub(False, True, False, a, b), sub_nsw),
        ("sub nuw", lambda a, b: KnownBits.compute_for_add_sub(False, False, True, a, b), sub_nuw),
        ("sub nuw nsw", lambda a, b: KnownBits.compute_for_add_sub(False, True, True, a, b),
         lambda x, y, w: sub_nsw(x, y, w) if sub_nuw(x, y, w) is not None else None),
        ("mul", lambda a, b: KnownBits.mul(a, b), lambda x, y, w: (x * y) & _m(w)),
        ("mulhu", KnownBits.mulhu, lambda x, y, w: (x * y) >> w),
        ("mulhs", KnownBits.mulhs, lambda x, y, w: ((sx(x, w) * sx(y, w)) >> w) & _m(w)),
        ("udiv", lambda a, b: KnownBits.udiv(a, b), udiv),
        ("udiv exact", lambda a, b: KnownBits.udiv(a, b, True),
         lambda x, y, w: x // y if y and x % y == 0 else None),
        ("sdiv", lambda a, b: KnownBits.sdiv(a, b), sdiv),
        ("sdiv exact", lambda a, b: KnownBits.sdiv(a, b, True),
         lambda x, y, w: sdiv(x, y, w) if srem(x, y, w) == 0 else None),
        ("urem", KnownBits.urem, urem),
        ("srem", KnownBits.srem, srem),
        ("shl nuw", lambda a, b: KnownBits.shl(a, b, True, False),
         lambda x, y, w: (x << y) if y < w and (x << y) <= _m(w) else None),
        ("shl nsw", lambda a, b: KnownBits.shl(a, b, False, True),
         lambda x, y, w: (x << y) & _m(w) if y < w and sx((x << y) & _m(w), w) == sx(x, w) * (1 << y) else None),
        ("shl nuw nsw", lambda a, b: KnownBits.shl(a, b, True, True),
         lambda x, y, w: (x << y) if y < w and (x << y) <= _m(w) and sx(x << y, w) == sx(x, w) * (1 << y) else None),
        ("lshr exact", lambda a, b: KnownBits.lshr(a, b, False, True),
         lambda x, y, w: x >> y if y < w and (x >> y) << y == x else None),
        ("ashr exact", lambda a, b: KnownBits.ashr(a, b, False, True),
         lambda x, y, w: ashr(x, y, w) if y < w and (x & ((1 << y) - 1)) == 0 else None),
        ("uadd.sat", KnownBits.uadd_sat, lambda x, y, w: min(x + y, _m(w))),
        ("usub.sat", KnownBits.usub_sat, lambda x, y, w: max(x - y, 0)),
        ("sadd.sat", KnownBits.sadd_sat, lambda x, y, w: clamp_s(sx(x, w) + sx(y, w), w)),
        ("ssub.sat", KnownBits.ssub_sat, lambda x, y, w: clamp_s(sx(x, w) - sx(y, w), w)),
        ("abdu", KnownBits.abdu, lambda x, y, w: abs(x - y)),
    ],
)
def test_sound_binary(name: str, fn: Callable[[KnownBits, KnownBits], KnownBits], concrete: BinOp) -> None:
    check_binary(name, fn, concrete, SMALL, False)


def test_shift_amount_known_non_zero() -> None:
    """With ``sh_amt_non_zero`` the shift by zero is left out."""
    for name, fn, concrete in (
        ("shl", lambda a, b: KnownBits.shl(a, b, False, False, True), shl),
        ("lshr", lambda a, b: KnownBits.lshr(a, b, True), lshr),
        ("ashr", lambda a, b: KnownBits.ashr(a, b, True), ashr),
    ):
        check_binary(name, fn, lambda x, y, w, c=concrete: c(x, y, w) if y else None, SMALL, False)  # type: ignore[misc]


@pytest.mark.parametrize("w", [1, 2, 3, 4])
def test_unary_sound(w: int) -> None:
    m = _m(w)
    for k in all_known(w):
        vs = values(k)
        for name, res, conc in (
            ("abs", k.abs(False), [abs(sx(v, w)) & m for v in vs]),
            ("abs poison", k.abs(True), [abs(sx(v, w)) & m for v in vs if sx(v, w) != -(1 << (w - 1))]),
            ("reverse", k.reverse_bits(), [int(format(v, "0%db" % w)[::-1], 2) for v in vs]),
            ("blsi", k.blsi(), [v & -v & m for v in vs]),
            ("blsmsk", k.blsmsk(), [(v ^ (v - 1)) & m for v in vs]),
            ("sext", k.sext(w + 2), [sx(v, w) & _m(w + 2) for v in vs]),
            ("zext", k.zext(w + 2), vs),
            ("trunc", k.trunc(max(w - 1, 1)), [v & _m(max(w - 1, 1)) for v in vs]),
        ):
            for r in conc:
                assert r & res.zero == 0 and r & res.one == res.one, (name, k, res, r)
        if w % 8 == 0:
            pass


def test_byte_swap() -> None:
    k = KnownBits(16, 0x00F0, 0x0F01)
    assert k.byte_swap() == KnownBits(16, 0xF000, 0x010F)


@pytest.mark.parametrize("w", [1, 2, 3])
def test_comparisons_decide_only_when_certain(w: int) -> None:
    preds = {
        "eq": (KnownBits.eq, lambda x, y: x == y),
        "ne": (KnownBits.ne, lambda x, y: x != y),
        "ugt": (KnownBits.ugt, lambda x, y: x > y),
        "uge": (KnownBits.uge, lambda x, y: x >= y),
        "ult": (KnownBits.ult, lambda x, y: x < y),
        "ule": (KnownBits.ule, lambda x, y: x <= y),
        "sgt": (KnownBits.sgt, lambda x, y: sx(x, w) > sx(y, w)),
        "sge": (KnownBits.sge, lambda x, y: sx(x, w) >= sx(y, w)),
        "slt": (KnownBits.slt, lambda x, y: sx(x, w) < sx(y, w)),
        "sle": (KnownBits.sle, lambda x, y: sx(x, w) <= sx(y, w)),
    }
    knowns = list(all_known(w))
    for a in knowns:
        for b in knowns:
            for name, (fn, conc) in preds.items():
                answer = fn(a, b)
                outcomes = {conc(x, y) for x in values(a) for y in values(b)}
                if answer is not None:
                    assert outcomes == {answer}, (name, a, b, answer, outcomes)
                if name in ("ugt", "ult", "uge", "ule") and len(outcomes) == 1 and w <= 2:
                    # LLVM's unsigned comparisons decide every case the bounds decide.
                    assert answer is not None, (name, a, b)


def test_queries_and_printing() -> None:
    k = KnownBits(8, 0xF0, 0x05)
    assert k.to_string() == "0000?1?1"
    assert k.count_min_leading_zeros() == 4
    assert k.count_min_trailing_ones() == 1
    assert k.get_min_value() == 5 and k.get_max_value() == 0x0F
    assert k.count_min_sign_bits() == 4
    assert KnownBits.make_constant(-1, 4).is_all_ones()
    assert KnownBits(4, 0b0011, 0b1100).is_constant()
    assert KnownBits(4, 1, 1).has_conflict()
