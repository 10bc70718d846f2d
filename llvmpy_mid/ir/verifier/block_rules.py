"""Rules on a basic block (LLVM 19 ``Verifier::visitBasicBlock``): it ends with a
terminator, and the phis at its top agree with its predecessors.

What: each leading phi has as many entries as the block has predecessor
edges; entries for the same block carry the same value; and the multiset of
incoming blocks is the multiset of predecessors. The first failing phi ends
the block's checks (LLVM's ``Check`` returns from the visitor).

How: LLVM sorts the predecessors and the (block, value) pairs by pointer and
compares them position by position, so which mismatch it prints depends on
addresses. Here blocks sort by their position in the function (blocks of
another function, or of none, after them, in the order met), and entries for
the same block keep their order in the phi; for a parsed module that is the
order in which LLVM created the objects, hence the order of its addresses in
the usual case. The positions are computed once per function (kept in the
checker's memo).

Not here: a phi's own rules (grouping, token type, operand types) are in
``control_rules``; a terminator in the middle of a block is reported when the
terminator is visited (``instruction_rules``); "Instruction has bogus parent
pointer!" cannot happen (an instruction's parent is its list's owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.verifier.checker import Checker

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.value import Value

_POSITIONS = "block-positions"


def _positions(c: Checker, fn: Function | None) -> dict[BasicBlock, int]:
    key = _POSITIONS + str(id(fn))
    found = c.memo.get(key)
    if found is not None:
        assert isinstance(found, dict)
        return found
    table: dict[BasicBlock, int] = {}
    if fn is not None:
        for i, bb in enumerate(fn.blocks):
            table[bb] = i
    c.memo[key] = table
    return table


def verify_block(c: Checker, bb: BasicBlock) -> None:
    """Check ``bb`` before its instructions are visited."""
    last = bb.instructions._last
    if last is None or not last.is_terminator_class:
        c.fail("Basic Block does not have terminator!", bb)
        return
    first = bb.instructions._first
    if first is None or not first.is_phi:
        return
    pos = _positions(c, bb.parent)
    extra: dict[BasicBlock, int] = {}

    def key(block: BasicBlock) -> int:
        k = pos.get(block)
        if k is None:
            k = extra.get(block)
            if k is None:
                k = extra[block] = len(pos) + len(extra)
        return k

    preds = bb.predecessors
    preds.sort(key=key)
    npreds = len(preds)
    node = first
    while node is not None and node.is_phi:
        blocks: list[BasicBlock] = node._blocks
        ops = node._operands
        n = len(ops)
        if n != npreds or len(blocks) != n:
            c.fail("PHINode should have one entry for each predecessor of its parent basic block!", node)
            return
        if n:
            order = sorted(range(n), key=lambda i: key(blocks[i]))
            prev_block: BasicBlock | None = None
            prev_value: Value | None = None
            for i in range(n):
                j = order[i]
                block = blocks[j]
                value = ops[j].value
                if i and block is prev_block and value is not prev_value:
                    c.fail(
                        "PHI node has multiple entries for the same basic block with different incoming values!",
                        node,
                        block,
                        value,
                        prev_value,
                    )
                    return
                if block is not preds[i]:
                    c.fail("PHI node entries do not match predecessors!", node, block, preds[i])
                    return
                prev_block = block
                prev_value = value
        node = node._next


__all__ = ["verify_block"]
