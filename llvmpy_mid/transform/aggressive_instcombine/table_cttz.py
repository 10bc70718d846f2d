"""AggressiveInstCombine: ``tryToRecognizeTableBasedCttz`` (LLVM ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def try_to_recognize_table_based_cttz(i: Instruction, ctx: FoldContext) -> bool:
    """LLVM ``tryToRecognizeTableBasedCttz``: not yet implemented."""
    return False


__all__ = ["try_to_recognize_table_based_cttz"]
