"""Depth-first preorder of a control-flow graph (LLVM ``include/llvm/ADT/DepthFirstIterator.h``,
``depth_first``): the blocks reachable from an entry, each listed when first reached, successors
taken in terminator order. An explicit stack, so deep CFGs do not overflow Python's recursion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock


def depth_first(entry: BasicBlock) -> list[BasicBlock]:
    """The blocks reachable from ``entry`` in LLVM's ``depth_first`` preorder."""
    order = [entry]
    seen = {entry}
    stack: list[tuple[list[BasicBlock], int]] = [(entry.successors, 0)]
    while stack:
        succs, k = stack[-1]
        if k < len(succs):
            stack[-1] = (succs, k + 1)
            s = succs[k]
            if s not in seen:
                seen.add(s)
                order.append(s)
                stack.append((s.successors, 0))
        else:
            stack.pop()
    return order


__all__ = ["depth_first"]
