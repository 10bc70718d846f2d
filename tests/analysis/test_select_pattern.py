"""matchSelectPattern on integer selects, checked by evaluation on every i4 input.

Each select below is built from compares and arms LLVM recognises (direct and
swapped min/max, abs/nabs against 0, -1 and 1, sign-extended operands, clamps,
not-ed operands, the sign-bit unsigned forms); whatever flavor
``match_select_pattern`` reports must be what the select computes on every
input, the flavors LLVM finds are found, and an equality compare is never a
min/max.
"""

from __future__ import annotations

import itertools

import pytest

from llvmpy_mid import parse_assembly
from llvmpy_mid.analysis.select_pattern import match_select_pattern

M = 15


def sx(v: int) -> int:
    return v - 16 if v & 8 else v


CASES = [
    ("icmp slt i4 %x, %y", "%x", "%y", "smin"),
    ("icmp sgt i4 %x, %y", "%y", "%x", "smin"),
    ("icmp uge i4 %x, %y", "%x", "%y", "umax"),
    ("icmp ult i4 %y, %x", "%x", "%y", "umax"),
    ("icmp slt i4 %x, 0", "%nx", "%x", "abs"),
    ("icmp slt i4 %x, 1", "%nx", "%x", "abs"),
    ("icmp sgt i4 %x, -1", "%x", "%nx", "abs"),
    ("icmp sge i4 %x, 1", "%x", "%nx", "abs"),
    ("icmp slt i4 %x, 0", "%x", "%nx", "nabs"),
    ("icmp sgt i4 %x, 0", "%nx", "%x", "nabs"),
    ("icmp slt i4 %x, 3", "3", "%sminx", "smax"),
    ("icmp sgt i4 %x, %y", "%notx", "%noty", "smin"),
    ("icmp ult i4 %x, %y", "%notx", "%noty", "umax"),
    ("icmp slt i4 %x, 0", "%x", "7", "umax"),
    ("icmp sgt i4 %x, -1", "%x", "-8", "umin"),
    ("icmp eq i4 %x, %y", "%x", "%y", "unknown"),
    ("icmp slt i4 %x, %y", "%y", "%y", "unknown"),
]


def evaluate(name: str, x: int, y: int) -> int:
    return {
        "%x": x, "%y": y, "%nx": -x & M, "%notx": ~x & M, "%noty": ~y & M,
        "%sminx": x if sx(x) < 6 else 6,
    }.get(name, int(name) & M if name.lstrip("-").isdigit() else 0)


def cmp(text: str, x: int, y: int) -> bool:
    pred, a, b = text.split()[1], text.split()[3].rstrip(","), text.split()[4]
    va, vb = evaluate(a, x, y), evaluate(b, x, y)
    return {"slt": sx(va) < sx(vb), "sgt": sx(va) > sx(vb), "sge": sx(va) >= sx(vb), "uge": va >= vb,
            "ult": va < vb, "eq": va == vb}[pred]


@pytest.mark.parametrize("cond, t, f, expected", CASES)
def test_flavor_found_and_true(cond: str, t: str, f: str, expected: str) -> None:
    m = parse_assembly(f"""
declare i4 @llvm.smin.i4(i4, i4)
define i4 @f(i4 %x, i4 %y) {{
  %nx = sub nsw i4 0, %x
  %notx = xor i4 %x, -1
  %noty = xor i4 %y, -1
  %sminx = call i4 @llvm.smin.i4(i4 %x, i4 6)
  %c = {cond}
  %s = select i1 %c, i4 {t}, i4 {f}
  ret i4 %s
}}""")
    fn = m.get_function("f")
    sel = [i for i in fn.blocks[0] if i.name == "s"][0]
    flavor, lhs, rhs = match_select_pattern(sel)
    assert flavor == expected
    for x, y in itertools.product(range(16), repeat=2):
        if sx(x) == -8 and flavor in ("abs", "nabs"):
            continue
        r = evaluate(t, x, y) if cmp(cond, x, y) else evaluate(f, x, y)
        want = {
            "smin": lambda a, b: a if sx(a) <= sx(b) else b,
            "smax": lambda a, b: a if sx(a) >= sx(b) else b,
            "umin": min, "umax": max,
            "abs": lambda a, b: abs(sx(x)) & M, "nabs": lambda a, b: -abs(sx(x)) & M,
        }.get(flavor)
        if want is None:
            continue
        a, b = evaluate(t, x, y), evaluate(f, x, y)
        assert r == want(a, b), (cond, t, f, flavor, x, y, r)
