"""AggressiveInstCombine: ``foldGuardedFunnelShift`` (LLVM ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def fold_guarded_funnel_shift(i: Instruction, ctx: FoldContext) -> bool:
    """LLVM ``foldGuardedFunnelShift``: not yet implemented."""
    return False


__all__ = ["fold_guarded_funnel_shift"]
