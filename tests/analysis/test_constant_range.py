"""ConstantRange checked exhaustively against brute force.

Every range of width 3 (every lower/upper pair, the full and empty sets) is
combined with every other: each operation's result must contain every
concrete result (sound); where LLVM's operation is exact or smallest
(intersection/union of two ranges, add/sub, the icmp regions, casts of a
range to a wider type) the result must be exactly that. Width 4 runs the same
sweep for add/sub/and by default and for every operation with ``--run-slow``.
"""

from __future__ import annotations

from typing import Callable, Iterator, Optional

import pytest

from llvmpy_mid.analysis.constant_range import ConstantRange as CR
from llvmpy_mid.analysis.constant_range import PreferredRangeType
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.ir.instructions.cmp import Predicate


def all_ranges(w: int) -> Iterator[CR]:
    yield CR.get_full(w)
    yield CR.get_empty(w)
    for lo in range(1 << w):
        for hi in range(1 << w):
            if lo != hi:
                yield CR(w, lo, hi)


def members(cr: CR) -> list[int]:
    return [v for v in range(1 << cr.bit_width) if cr.contains(v)]


def sx(v: int, w: int) -> int:
    return v - (1 << w) if (v >> (w - 1)) & 1 else v


def _m(w: int) -> int:
    return (1 << w) - 1


def smallest_containing(vals: set[int], w: int) -> int:
    """The size of the smallest wrapped range holding ``vals``."""
    if not vals:
        return 0
    n = 1 << w
    s = sorted(vals)
    if len(s) == n:
        return n
    # The biggest gap between consecutive members (cyclically) is left out.
    gaps = [(s[(i + 1) % len(s)] - s[i]) % n for i in range(len(s))]
    return n - max(gaps) + 1


BinOp = Callable[[int, int, int], Optional[int]]


def sweep(w: int, op: Callable[[CR, CR], CR], concrete: BinOp, smallest: bool = False) -> None:
    ranges = list(all_ranges(w))
    mem = [members(r) for r in ranges]
    for i, a in enumerate(ranges):
        for j, b in enumerate(ranges):
            res = op(a, b)
            assert res.bit_width == w
            vals = set()
            for x in mem[i]:
                for y in mem[j]:
                    r = concrete(x, y, w)
                    if r is not None:
                        vals.add(r)
            for r in vals:
                assert res.contains(r), (a, b, res, r)
            if smallest:
                assert res.get_set_size() == smallest_containing(vals, w), (a, b, res, sorted(vals))


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


def clamp(r: int, w: int, signed: bool) -> int:
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, _m(w))
    return min(max(r, lo), hi) & _m(w)


SOUND: list[tuple[str, Callable[[CR, CR], CR], BinOp]] = [
    ("multiply", CR.multiply, lambda x, y, w: (x * y) & _m(w)),
    ("udiv", CR.udiv, lambda x, y, w: x // y if y else None),
    ("sdiv", CR.sdiv, sdiv),
    ("urem", CR.urem, lambda x, y, w: x % y if y else None),
    ("srem", CR.srem, srem),
    ("shl", CR.shl, lambda x, y, w: (x << y) & _m(w) if y < w else None),
    ("lshr", CR.lshr, lambda x, y, w: x >> y if y < w else None),
    ("ashr", CR.ashr, lambda x, y, w: (sx(x, w) >> y) & _m(w) if y < w else None),
    ("and", CR.binary_and, lambda x, y, w: x & y),
    ("or", CR.binary_or, lambda x, y, w: x | y),
    ("xor", CR.binary_xor, lambda x, y, w: x ^ y),
    ("umax", CR.umax, lambda x, y, w: max(x, y)),
    ("umin", CR.umin, lambda x, y, w: min(x, y)),
    ("smax", CR.smax, lambda x, y, w: max(sx(x, w), sx(y, w)) & _m(w)),
    ("smin", CR.smin, lambda x, y, w: min(sx(x, w), sx(y, w)) & _m(w)),
    ("uadd_sat", CR.uadd_sat, lambda x, y, w: clamp(x + y, w, False)),
    ("usub_sat", CR.usub_sat, lambda x, y, w: clamp(x - y, w, False)),
    ("sadd_sat", CR.sadd_sat, lambda x, y, w: clamp(sx(x, w) + sx(y, w), w, True)),
    ("ssub_sat", CR.ssub_sat, lambda x, y, w: clamp(sx(x, w) - sx(y, w), w, True)),
    ("umul_sat", CR.umul_sat, lambda x, y, w: clamp(x * y, w, False)),
    ("smul_sat", CR.smul_sat, lambda x, y, w: clamp(sx(x, w) * sx(y, w), w, True)),
    ("ushl_sat", CR.ushl_sat, lambda x, y, w: clamp(x << y, w, False) if y < w else None),
    ("sshl_sat", CR.sshl_sat, lambda x, y, w: clamp(sx(x, w) << y, w, True) if y < w else None),
    ("add nuw", lambda a, b: a.add_with_no_wrap(b, True, False), lambda x, y, w: x + y if x + y <= _m(w) else None),
    ("add nsw", lambda a, b: a.add_with_no_wrap(b, False, True),
     lambda x, y, w: (sx(x, w) + sx(y, w)) & _m(w) if -(1 << (w - 1)) <= sx(x, w) + sx(y, w) < (1 << (w - 1)) else None),
    ("sub nuw", lambda a, b: a.sub_with_no_wrap(b, True, False), lambda x, y, w: x - y if x >= y else None),
    ("sub nsw", lambda a, b: a.sub_with_no_wrap(b, False, True),
     lambda x, y, w: (sx(x, w) - sx(y, w)) & _m(w) if -(1 << (w - 1)) <= sx(x, w) - sx(y, w) < (1 << (w - 1)) else None),
    ("mul nuw", lambda a, b: a.multiply_with_no_wrap(b, True, False), lambda x, y, w: x * y if x * y <= _m(w) else None),
    ("mul nsw", lambda a, b: a.multiply_with_no_wrap(b, False, True),
     lambda x, y, w: (sx(x, w) * sx(y, w)) & _m(w) if -(1 << (w - 1)) <= sx(x, w) * sx(y, w) < (1 << (w - 1)) else None),
    ("smul_fast", CR.smul_fast, lambda x, y, w: (sx(x, w) * sx(y, w)) & _m(w)),
]


@pytest.mark.parametrize("name, op, concrete", SOUND, ids=[s[0] for s in SOUND])
def test_binary_sound_i3(name: str, op: Callable[[CR, CR], CR], concrete: BinOp) -> None:
    sweep(3, op, concrete)


@pytest.mark.parametrize("name, op, concrete", [
    ("add", CR.add, lambda x, y, w: (x + y) & _m(w)),
    ("sub", CR.sub, lambda x, y, w: (x - y) & _m(w)),
])
def test_add_sub_sound_i3(name: str, op: Callable[[CR, CR], CR], concrete: BinOp) -> None:
    sweep(3, op, concrete)


@pytest.mark.slow
@pytest.mark.parametrize("name, op, concrete", SOUND, ids=[s[0] for s in SOUND])
def test_binary_sound_i4(name: str, op: Callable[[CR, CR], CR], concrete: BinOp) -> None:
    sweep(4, op, concrete)


@pytest.mark.parametrize("name, op, concrete", [
    ("add", CR.add, lambda x, y, w: (x + y) & _m(w)),
    ("sub", CR.sub, lambda x, y, w: (x - y) & _m(w)),
    ("and", CR.binary_and, lambda x, y, w: x & y),
])
def test_core_sound_i4(name: str, op: Callable[[CR, CR], CR], concrete: BinOp) -> None:
    """The operations every range client uses, exhaustively on i4 in the default run."""
    sweep(4, op, concrete)


@pytest.mark.parametrize("w", [3, 4])
def test_intersect_union(w: int) -> None:
    ranges = list(all_ranges(w))
    mem = [set(members(r)) for r in ranges]
    for i, a in enumerate(ranges):
        for j, b in enumerate(ranges):
            inter = mem[i] & mem[j]
            uni = mem[i] | mem[j]
            for kind in PreferredRangeType:
                ri = a.intersect_with(b, kind)
                ru = a.union_with(b, kind)
                assert inter <= set(members(ri)), (a, b, ri)
                assert uni <= set(members(ru)), (a, b, ru)
            ex = a.exact_intersect_with(b)
            if ex is not None:
                assert set(members(ex)) == inter
            exu = a.exact_union_with(b)
            if exu is not None:
                assert set(members(exu)) == uni
            assert a.contains_range(b) == (mem[j] <= mem[i]), (a, b)
            assert a.difference(b).contains_range(CR.get_empty(w))


ICMP = {
    Predicate.ICMP_EQ: lambda x, y, w: x == y,
    Predicate.ICMP_NE: lambda x, y, w: x != y,
    Predicate.ICMP_ULT: lambda x, y, w: x < y,
    Predicate.ICMP_ULE: lambda x, y, w: x <= y,
    Predicate.ICMP_UGT: lambda x, y, w: x > y,
    Predicate.ICMP_UGE: lambda x, y, w: x >= y,
    Predicate.ICMP_SLT: lambda x, y, w: sx(x, w) < sx(y, w),
    Predicate.ICMP_SLE: lambda x, y, w: sx(x, w) <= sx(y, w),
    Predicate.ICMP_SGT: lambda x, y, w: sx(x, w) > sx(y, w),
    Predicate.ICMP_SGE: lambda x, y, w: sx(x, w) >= sx(y, w),
}


@pytest.mark.parametrize("w", [3, 4])
def test_icmp_regions(w: int) -> None:
    n = 1 << w
    for pred, f in ICMP.items():
        for c in range(n):
            exact = CR.make_exact_icmp_region(pred, c, w)
            assert set(members(exact)) == {x for x in range(n) if f(x, c, w)}, (pred, c, exact)
        for cr in all_ranges(w):
            ys = members(cr)
            allowed = CR.make_allowed_icmp_region(pred, cr)
            satisfying = CR.make_satisfying_icmp_region(pred, cr)
            for x in range(n):
                if any(f(x, y, w) for y in ys):
                    assert allowed.contains(x), (pred, cr, allowed, x)
                if satisfying.contains(x):
                    assert all(f(x, y, w) for y in ys), (pred, cr, satisfying, x)
            for other in all_ranges(w) if w == 3 else ():
                xs = members(other)
                if other.icmp(pred, cr):
                    assert all(f(x, y, w) for x in xs for y in ys), (pred, other, cr)


@pytest.mark.parametrize("w", [3, 4])
def test_unary_and_casts(w: int) -> None:
    m = _m(w)
    for cr in all_ranges(w):
        xs = members(cr)
        checks = [
            ("abs", cr.abs(False), {abs(sx(x, w)) & m for x in xs}, w),
            ("abs poison", cr.abs(True), {abs(sx(x, w)) & m for x in xs if sx(x, w) != -(1 << (w - 1))}, w),
            ("ctlz", cr.ctlz(False), {w - x.bit_length() for x in xs}, w),
            ("ctlz poison", cr.ctlz(True), {w - x.bit_length() for x in xs if x}, w),
            ("cttz", cr.cttz(False), {(x & -x).bit_length() - 1 if x else w for x in xs}, w),
            ("cttz poison", cr.cttz(True), {(x & -x).bit_length() - 1 for x in xs if x}, w),
            ("ctpop", cr.ctpop(), {bin(x).count("1") for x in xs}, w),
            ("zext", cr.zero_extend(w + 2), set(xs), w + 2),
            ("sext", cr.sign_extend(w + 2), {sx(x, w) & _m(w + 2) for x in xs}, w + 2),
            ("trunc", cr.truncate(w - 1), {x & _m(w - 1) for x in xs}, w - 1),
            ("not", cr.binary_not(), {~x & m for x in xs}, w),
            ("inverse", cr.inverse(), set(range(1 << w)) - set(xs), w),
        ]
        for name, res, vals, rw in checks:
            assert res.bit_width == rw
            for v in vals:
                assert res.contains(v), (name, cr, res, v)
        if not cr.is_wrapped_set():
            assert set(members(cr.zero_extend(w + 2))) == set(xs)
        if not cr.is_sign_wrapped_set():
            assert set(members(cr.sign_extend(w + 2))) == {sx(x, w) & _m(w + 2) for x in xs}
        assert set(members(cr.inverse())) == set(range(1 << w)) - set(xs)
        kb = cr.to_known_bits()
        for x in xs:
            assert x & kb.zero == 0 and x & kb.one == kb.one
        for signed in (False, True):
            back = CR.from_known_bits(kb, signed)
            for x in xs:
                assert back.contains(x)


def test_from_known_bits_exact_bounds() -> None:
    kb = KnownBits(4, 0b1000, 0b0001)
    assert (CR.from_known_bits(kb, False).lower, CR.from_known_bits(kb, False).upper) == (1, 8)
    sk = KnownBits(4, 0b0000, 0b0001)
    assert str(CR.from_known_bits(sk, True)) == "[-7,-8)"


def test_printing_and_queries() -> None:
    assert str(CR.get_full(8)) == "full-set"
    assert str(CR.get_empty(8)) == "empty-set"
    assert str(CR(8, 250, 5)) == "[-6,5)"
    r = CR(8, 10, 20)
    assert r.get_single_element() is None and CR(8, 7).get_single_element() == 7
    assert r.get_equivalent_icmp() == (Predicate.ICMP_ULT, 10, 246)
    assert CR(8, 0, 20).get_equivalent_icmp() == (Predicate.ICMP_ULT, 20, 0)
    assert r.binary_op("add", CR(8, 1)) == CR(8, 11, 21)
    assert r.binary_op("frem", r).is_full_set()
    with pytest.raises(ValueError):
        CR(8, 5, 5)


def test_flipped_signedness_and_mask_ranges() -> None:
    w = 3
    rel = [p for p in ICMP if p not in (Predicate.ICMP_EQ, Predicate.ICMP_NE)]
    ranges = list(all_ranges(w))
    for a in ranges:
        for b in ranges:
            for pred in rel:
                flipped = CR.get_equivalent_pred_with_flipped_signedness(pred, a, b)
                if flipped is None:
                    continue
                for x in members(a):
                    for y in members(b):
                        assert ICMP[pred](x, y, w) == ICMP[flipped](x, y, w), (pred, a, b, flipped)
    for mask in range(8):
        for c in range(8):
            cr = CR.make_mask_not_equal_range(mask, c, w)
            for x in range(8):
                if x & mask != c:
                    assert cr.contains(x), (mask, c, cr, x)
