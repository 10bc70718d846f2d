"""The blocks of a loop in depth-first order from its header (LLVM ``LoopIterator.h``:
``LoopBlocksDFS``, ``LoopBlocksRPO``).

A depth-first walk from the header that follows each block's successors in terminator order
and never leaves the loop (a successor counts when it belongs to the loop or to one of its
subloops). :func:`loop_blocks_postorder` lists the blocks as the walk finishes them and
:func:`loop_blocks_rpo` in reverse, so a block comes before its successors except along the
back edges. The walk keeps an explicit stack (no recursion).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.ir.basic_block import BasicBlock

__all__ = ["loop_blocks_postorder", "loop_blocks_rpo"]


def loop_blocks_postorder(loop: Loop) -> list[BasicBlock]:
    """The loop's blocks in depth-first post-order from the header (LLVM ``LoopBlocksDFS``)."""
    members = loop.block_set
    header = loop.header
    seen = {header}
    order: list[BasicBlock] = []
    stack = [(header, list(_successors(header)), 0)]
    while stack:
        bb, succs, i = stack[-1]
        while i < len(succs) and (succs[i] in seen or succs[i] not in members):
            i += 1
        if i == len(succs):
            stack.pop()
            order.append(bb)
            continue
        nxt = succs[i]
        stack[-1] = (bb, succs, i + 1)
        seen.add(nxt)
        stack.append((nxt, list(_successors(nxt)), 0))
    return order


def loop_blocks_rpo(loop: Loop) -> list[BasicBlock]:
    """The loop's blocks in reverse post-order from the header (LLVM ``LoopBlocksRPO``)."""
    order = loop_blocks_postorder(loop)
    order.reverse()
    return order


def _successors(bb: BasicBlock) -> list[BasicBlock]:
    term = bb.terminator
    return list(term.successors) if term is not None else []
