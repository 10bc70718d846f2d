"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineShifts.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_shl(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``shl`` (LLVM ``visit...``)."""
    return None


def visit_lshr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``lshr`` (LLVM ``visit...``)."""
    return None


def visit_ashr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``ashr`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_shl", "visit_lshr", "visit_ashr"]
