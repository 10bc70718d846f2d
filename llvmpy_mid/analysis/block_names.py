"""How analysis printers name blocks: as LLVM's ``printAsOperand`` writes a block without its
type — ``%name``, or ``%N`` (the function-local slot number) for an unnamed block.

:func:`block_refs` numbers a whole function once (O(instructions)); :func:`block_operand` names one
block (numbering its function only when the block is unnamed).

What it does not do: metadata or value names (the assembly printer does those).
"""

from __future__ import annotations

from llvmpy_mid.asm.print_names import local_name
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function

__all__ = ["block_operand", "block_refs"]


def block_refs(fn: Function) -> dict[BasicBlock, str]:
    """``%name`` or ``%N`` for every block of ``fn``."""
    refs: dict[BasicBlock, str] = {}
    slot = 0
    for arg in fn.args:
        if not arg.name:
            slot += 1
    void = fn.type.context.void
    for bb in fn.blocks:
        if bb.name:
            refs[bb] = local_name(bb.name)
        else:
            refs[bb] = "%" + str(slot)
            slot += 1
        for inst in bb.instructions:
            if not inst.name and inst.type is not void:
                slot += 1
    return refs


def block_operand(bb: BasicBlock) -> str:
    """``bb`` as ``printAsOperand`` writes it without its type."""
    if bb.name:
        return local_name(bb.name)
    fn = bb.parent
    return block_refs(fn)[bb] if fn is not None else "%<badref>"
