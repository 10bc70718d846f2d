"""Rules on a basic block (LLVM ``visitBasicBlock``): phi grouping and entries. (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.verifier.checker import Checker


def verify_block(c: Checker, bb: BasicBlock) -> None:
    """Check ``bb`` before its instructions are visited."""

