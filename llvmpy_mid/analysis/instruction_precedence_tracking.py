"""The first "special" instruction of each block, cached (LLVM 19.1.7
``llvm/lib/Analysis/InstructionPrecedenceTracking.cpp``).

What: :class:`ImplicitControlFlowTracking` answers "is there, earlier in this
instruction's block, an instruction that may not pass control to the next one"
(a call that may throw or not return, a guard...; LLVM's
``isGuaranteedToTransferExecutionToSuccessor`` decides) and "does this block have
one". The first such instruction of a block is found once and remembered; a
client that edits a block tells the tracker (``insert_instruction_to``,
``remove_instruction``, ``remove_users_of``) exactly where LLVM's clients do, so
the answers match LLVM's, stale cache entries included.

:class:`MemoryWriteTracking` does the same for instructions that may write memory
(``llvm.experimental.widenable.condition`` excepted), for LICM's safety info.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instruction import Instruction

__all__ = ["ImplicitControlFlowTracking", "MemoryWriteTracking"]


class ImplicitControlFlowTracking:
    """LLVM ``ImplicitControlFlowTracking``."""

    __slots__ = ("_first_special",)

    def __init__(self) -> None:
        self._first_special: dict[BasicBlock, Instruction | None] = {}

    @staticmethod
    def is_special_instruction(inst: Instruction) -> bool:
        return not is_guaranteed_to_transfer_execution_to_successor(inst)

    def _fill(self, bb: BasicBlock) -> Instruction | None:
        first: Instruction | None = None
        for inst in bb.instructions:
            if not is_guaranteed_to_transfer_execution_to_successor(inst):
                first = inst
                break
        self._first_special[bb] = first
        return first

    def get_first_special_instruction(self, bb: BasicBlock) -> Instruction | None:
        cache = self._first_special
        if bb in cache:
            return cache[bb]
        return self._fill(bb)

    def has_icf(self, bb: BasicBlock) -> bool:
        """LLVM ``hasICF``: the block has an instruction that may not pass control on."""
        return self.get_first_special_instruction(bb) is not None

    def is_dominated_by_icfi_from_same_block(self, inst: Instruction) -> bool:
        """LLVM ``isDominatedByICFIFromSameBlock``."""
        bb = inst.parent
        assert bb is not None
        first = self.get_first_special_instruction(bb)
        return first is not None and first.comes_before(inst)

    def insert_instruction_to(self, inst: Instruction, bb: BasicBlock) -> None:
        if self.is_special_instruction(inst):
            self._first_special.pop(bb, None)

    def remove_instruction(self, inst: Instruction) -> None:
        bb = inst.parent
        if bb is not None and self._first_special.get(bb, False) is inst:
            del self._first_special[bb]

    def remove_users_of(self, inst: Instruction) -> None:
        for user in inst.users:
            if user.is_instruction:
                self.remove_instruction(user)  # type: ignore[arg-type]

    def clear(self) -> None:
        self._first_special.clear()


class MemoryWriteTracking(ImplicitControlFlowTracking):
    """LLVM ``MemoryWriteTracking``: the special instructions are those that may write memory."""

    __slots__ = ()

    @staticmethod
    def is_special_instruction(inst: Instruction) -> bool:
        if inst.opcode == "call":
            fn = getattr(inst, "called_function", None)
            if fn is not None and fn.name == "llvm.experimental.widenable.condition":
                return False
        return inst.may_write_to_memory()

    def _fill(self, bb: BasicBlock) -> Instruction | None:
        first: Instruction | None = None
        for inst in bb.instructions:
            if self.is_special_instruction(inst):
                first = inst
                break
        self._first_special[bb] = first
        return first

    def has_special_instructions(self, bb: BasicBlock) -> bool:
        return self.get_first_special_instruction(bb) is not None

    def is_preceded_by_special_instruction(self, inst: Instruction) -> bool:
        return self.is_dominated_by_icfi_from_same_block(inst)
