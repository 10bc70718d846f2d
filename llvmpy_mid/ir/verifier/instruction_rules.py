"""Rules every instruction obeys (LLVM ``Verifier::visitInstruction``): operands, self-reference, dominance of uses. (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.verifier.checker import Checker


def verify_instruction(c: Checker, inst: Instruction) -> None:
    """The generic checks, run after the opcode's own rules passed."""

