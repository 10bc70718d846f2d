"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_and(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``and`` (LLVM ``visit...``)."""
    return None


def visit_or(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``or`` (LLVM ``visit...``)."""
    return None


def visit_xor(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``xor`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_and", "visit_or", "visit_xor"]
