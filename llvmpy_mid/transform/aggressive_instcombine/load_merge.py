"""AggressiveInstCombine: ``foldConsecutiveLoads`` and ``foldPatternedLoads`` (LLVM
``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def fold_consecutive_loads(i: Instruction, ctx: FoldContext) -> bool:
    """LLVM ``foldConsecutiveLoads``: not yet implemented."""
    return False


def fold_patterned_loads(i: Instruction, ctx: FoldContext) -> bool:
    """LLVM ``foldPatternedLoads``: not yet implemented."""
    return False


__all__ = ["fold_consecutive_loads", "fold_patterned_loads"]
