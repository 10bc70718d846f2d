"""The location of an instruction that stands for two others (LLVM 19's
``DILocation::getMergedLocation`` in lib/IR/DebugInfoMetadata.cpp).

What: :func:`get_merged_location` returns ``None`` when either location is
missing, the location itself when both are the same, otherwise the nearest
common location: the two inlined-at chains are matched from the first pair
with the same subprogram and inlined-at, then walked outwards while the pairs
merge (same line keeps the line, same line and column keep the column, the scope
becomes the nearest common scope in the subprogram). When nothing merges, a
line-0 location in the first location's scope.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.ir.debug_info import DILocation, DINode
from llvmpy_mid.ir.metadata import MDNode


def _chain(loc: DILocation) -> list[DILocation]:
    out: list[DILocation] = []
    cur: Any = loc
    while isinstance(cur, DILocation):
        out.append(cur)
        cur = cur.inlined_at
    return out


def _nearest_common_scope(s1: Any, s2: Any) -> Any:
    scopes: set[int] = set()
    while isinstance(s1, DINode):
        scopes.add(id(s1))
        if s1.kind == "DISubprogram":
            break
        s1 = s1.get_field("scope") if s1.has_field("scope") else None
    while isinstance(s2, DINode):
        if id(s2) in scopes:
            return s2
        if s2.kind == "DISubprogram":
            break
        s2 = s2.get_field("scope") if s2.has_field("scope") else None
    return None


def _merge_pair(l1: DILocation, l2: DILocation, inlined_at: MDNode | None) -> DILocation | None:
    ctx = l1.context
    if l1 is l2:
        return DILocation.get(ctx, l1.line, l1.column, l1.scope, inlined_at)
    if l1.subprogram is not l2.subprogram:
        return None
    scope = _nearest_common_scope(l1.scope, l2.scope)
    if scope is None:
        return None
    same_line = l1.line == l2.line
    line = l1.line if same_line else 0
    col = l1.column if same_line and l1.column == l2.column else 0
    return DILocation.get(ctx, line, col, scope, inlined_at)


def get_merged_location(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """The location for an instruction replacing ones at ``a`` and ``b`` (LLVM ``getMergedLocation``)."""
    if a is None or b is None:
        return None
    if a is b:
        return a
    if not isinstance(a, DILocation) or not isinstance(b, DILocation):
        return None
    a_locs = _chain(a)
    lookup: dict[tuple[int, int], int] = {}
    for i, loc in enumerate(a_locs):
        lookup.setdefault((id(loc.subprogram), id(loc.inlined_at)), i)
    b_locs: list[DILocation] = []
    a_at = -1
    b_at = -1
    cur: Any = b
    i = 0
    while isinstance(cur, DILocation):
        b_locs.append(cur)
        hit = lookup.get((id(cur.subprogram), id(cur.inlined_at)))
        if hit is not None:
            a_at = hit
            b_at = i
            break
        cur = cur.inlined_at
        i += 1
    result: MDNode | None = a_locs[a_at].inlined_at if a_at >= 0 else None
    while a_at >= 0 and b_at >= 0:
        merged = _merge_pair(a_locs[a_at], b_locs[b_at], result)
        if merged is None:
            break
        result = merged
        a_at -= 1
        b_at -= 1
    if result is not None:
        return result
    return DILocation.get(a.context, 0, 0, a.scope, None)


__all__ = ["get_merged_location"]
