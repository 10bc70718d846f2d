"""Reachability queries on the control-flow graph (LLVM ``lib/Analysis/CFG.cpp``:
``isPotentiallyReachable``, ``isPotentiallyReachableFromMany``, ``FindFunctionBackedges``).

The answer is conservative: True means "there may be a path", False means
"there is certainly none". The search explores at most
:data:`DEFAULT_MAX_BBS_TO_EXPLORE` blocks (LLVM's
``-dom-tree-reachability-max-bbs-to-explore``) and then answers True; with a
dominator tree it stops early at a block dominating the target. With loop
information (LLVM's optional ``LoopInfo``) a block inside an outermost loop reaches
every block of that loop, and the walk jumps from it straight to the loop's exits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.instruction import Instruction

DEFAULT_MAX_BBS_TO_EXPLORE = 32
"""LLVM ``DefaultMaxBBsToExplore``."""


def _outermost_loop(li: LoopInfo, bb: BasicBlock) -> Loop | None:
    loop = li.loop_for(bb)
    if loop is not None:
        while loop.parent_loop is not None:
            loop = loop.parent_loop
    return loop


def is_potentially_reachable_from_many(
    worklist: list[BasicBlock],
    stop_bb: BasicBlock,
    exclusion_set: Iterable[BasicBlock] | None = None,
    dt: DominatorTree | None = None,
    li: LoopInfo | None = None,
) -> bool:
    """May ``stop_bb`` be reached from one of the blocks of ``worklist`` without passing
    through ``exclusion_set``? (LLVM ``isPotentiallyReachableFromMany``.)"""
    excluded = set(exclusion_set) if exclusion_set is not None else set()
    if dt is not None and not dt.is_reachable(stop_bb):
        dt = None
    if excluded:
        dt = None
    holes: set[Loop] = set()
    stop_loop: Loop | None = None
    if li is not None:
        for bb in excluded:
            outer = _outermost_loop(li, bb)
            if outer is not None:
                holes.add(outer)
        stop_loop = _outermost_loop(li, stop_bb)
    limit = DEFAULT_MAX_BBS_TO_EXPLORE
    visited: set[BasicBlock] = set()
    while worklist:
        bb = worklist.pop()
        if bb in visited:
            continue
        visited.add(bb)
        if bb is stop_bb:
            return True
        if bb in excluded:
            continue
        if dt is not None and dt.dominates_block(bb, stop_bb):
            return True
        outer = None
        if li is not None:
            outer = _outermost_loop(li, bb)
            if outer is not None and outer in holes:
                outer = None
            if outer is not None and outer is stop_loop:
                return True
        limit -= 1
        if limit == 0:
            return True
        if outer is not None:
            worklist.extend(outer.exit_blocks)
        else:
            worklist.extend(bb.successors)
    return False


def is_potentially_reachable(
    a: BasicBlock,
    b: BasicBlock,
    dt: DominatorTree | None = None,
    exclusion_set: Iterable[BasicBlock] | None = None,
    li: LoopInfo | None = None,
) -> bool:
    """May block ``b`` be reached from block ``a``? (LLVM ``isPotentiallyReachable`` of
    two blocks; a block reaches itself.)"""
    excl = list(exclusion_set) if exclusion_set is not None else []
    if dt is not None:
        if dt.is_reachable(a) and not dt.is_reachable(b):
            return False
        if not excl:
            if a.is_entry_block and dt.is_reachable(b):
                return True
            if b.is_entry_block and dt.is_reachable(a):
                return False
    return is_potentially_reachable_from_many([a], b, excl, dt, li)


def is_potentially_reachable_inst(
    a: Instruction,
    b: Instruction,
    exclusion_set: Iterable[BasicBlock] | None = None,
    dt: DominatorTree | None = None,
    li: LoopInfo | None = None,
) -> bool:
    """May instruction ``b`` execute after instruction ``a``? (LLVM ``isPotentiallyReachable``
    of two instructions: in one block, ``b`` at or after ``a``, or a path from the block's
    successors back to it.)"""
    bb = a.parent
    assert bb is not None and b.parent is not None
    if bb is b.parent:
        if li is not None and li.loop_for(bb) is not None:
            return True
        if a is b or a.comes_before(b):
            return True
        if bb.is_entry_block:
            return False
        succs = list(bb.successors)
        if not succs:
            return False
        return is_potentially_reachable_from_many(succs, bb, exclusion_set, dt, li)
    return is_potentially_reachable(bb, b.parent, dt, exclusion_set, li)


def find_function_backedges(fn: object) -> list[tuple[BasicBlock, BasicBlock]]:
    """The back edges of a depth-first walk from the entry: edges to a block still on
    the walk's stack, in discovery order (LLVM ``FindFunctionBackedges``)."""
    from llvmpy_mid.ir.function import Function

    assert isinstance(fn, Function)
    result: list[tuple[BasicBlock, BasicBlock]] = []
    if not fn.blocks:
        return result
    entry = fn.entry_block
    first = entry.successors
    if not first:
        return result
    visited = {entry}
    in_stack = {entry}
    stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(entry, first, 0)]
    while stack:
        parent, succs, i = stack[-1]
        found: BasicBlock | None = None
        while i < len(succs):
            bb = succs[i]
            i += 1
            if bb not in visited:
                visited.add(bb)
                found = bb
                break
            if bb in in_stack:
                result.append((parent, bb))
        stack[-1] = (parent, succs, i)
        if found is not None:
            in_stack.add(found)
            stack.append((found, found.successors, 0))
        else:
            in_stack.discard(stack.pop()[0])
    return result


__all__ = [
    "DEFAULT_MAX_BBS_TO_EXPLORE",
    "find_function_backedges",
    "is_potentially_reachable",
    "is_potentially_reachable_from_many",
    "may_contain_irreducible_control",
]


def may_contain_irreducible_control(fn: object, li: object | None) -> bool:
    """May the CFG of ``fn`` have a cycle with more than one entry? Without loop info,
    yes; else a retreating edge of a reverse post-order walk whose target is not the
    header of a loop containing its source makes it irreducible (LLVM
    ``mayContainIrreducibleControl`` / ``containsIrreducibleCFG``)."""
    if li is None:
        return True
    from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.function import Function

    assert isinstance(fn, Function) and isinstance(li, LoopInfo)
    if fn.is_declaration:
        return False
    visited: set[BasicBlock] = set()
    for bb in reverse_post_order(fn.entry_block):
        visited.add(bb)
        for succ in bb.successors:
            if succ not in visited:
                continue
            loop = li.loop_for(bb)
            while loop is not None and loop.header is not succ:
                loop = loop.parent_loop
            if loop is None:
                return True
    return False
