"""LLVM 19's ``verifyRangeMetadata``: the pairs of a ``!range`` (or, for a
global, ``!absolute_symbol``) list must be integers of the value's type,
non-empty, disjoint, not contiguous and in increasing signed order, the last
pair wrapping around to the first included.

Not done here: where the attachment may stand (``attachment_rules`` and
``global_rules`` check that before calling :func:`verify_range_like`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.md_operands import const_int, llvm_operands, signed_value

if TYPE_CHECKING:
    from llvmpy_mid.ir.types import Type


def _intervals(lo: int, hi: int, width: int) -> list[tuple[int, int]]:
    """The half-open pieces of [0, 2**width) a ConstantRange [lo, hi) covers."""
    top = 1 << width
    if lo == hi:
        return [(0, top)] if lo == top - 1 else []
    if lo < hi:
        return [(lo, hi)]
    return [(lo, top), (0, hi)]


def _disjoint(a: tuple[int, int], b: tuple[int, int], width: int) -> bool:
    for x0, x1 in _intervals(a[0], a[1], width):
        for y0, y1 in _intervals(b[0], b[1], width):
            if x0 < y1 and y0 < x1:
                return False
    return True


def _contiguous(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[1] == b[0] or a[0] == b[1]



def verify_range_like(c: Checker, value: Any, node: MDNode, ty: Type, absolute: bool) -> None:
    """LLVM's ``verifyRangeMetadata`` for ``!range`` (and ``!absolute_symbol`` with ``absolute``)."""
    ops = llvm_operands(node)
    n = len(ops)
    if n % 2 != 0:
        c.fail("Unfinished range!", node)
        return
    if n == 0:
        c.fail("It should have at least one range!", node)
        return
    scalar = ty.scalar_type
    width = 0
    last: tuple[int, int] | None = None
    first: tuple[int, int] | None = None
    for i in range(0, n, 2):
        low = const_int(ops[i])
        if low is None:
            c.fail("The lower limit must be an integer!", None)
            return
        high = const_int(ops[i + 1])
        if high is None:
            c.fail("The upper limit must be an integer!", None)
            return
        if high.type is not low.type or high.type is not scalar:
            c.fail("Range types must match instruction type!", value)
            return
        width = high.type.width
        lo, hi = low.value, high.value
        if lo == hi and lo != (1 << width) - 1 and lo != 0:
            c.fail("The upper and lower limits cannot be the same value", value)
            return
        cur = (lo, hi)
        empty = lo == hi and lo == 0
        full = lo == hi and lo == (1 << width) - 1
        if empty or (not absolute and full):
            c.fail("Range must not be empty!", node)
            return
        if last is not None:
            if not _disjoint(cur, last, width):
                c.fail("Intervals are overlapping", node)
                return
            if not signed_value(lo, width) > signed_value(last[0], width):
                c.fail("Intervals are not in order", node)
                return
            if _contiguous(cur, last):
                c.fail("Intervals are contiguous", node)
                return
        else:
            first = cur
        last = cur
    if n > 4 and first is not None and last is not None:
        if not _disjoint(first, last, width):
            c.fail("Intervals are overlapping", node)
            return
        if _contiguous(first, last):
            c.fail("Intervals are contiguous", node)


__all__ = ["verify_range_like"]
