"""AggressiveInstCombine: ``foldAnyOrAllBitsSet`` (LLVM ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def fold_any_or_all_bits_set(i: Instruction, ctx: FoldContext) -> bool:
    """LLVM ``foldAnyOrAllBitsSet``: not yet implemented."""
    return False


__all__ = ["fold_any_or_all_bits_set"]
