"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineVectorOps.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_insertvalue(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``insertvalue`` (LLVM ``visit...``)."""
    return None


def visit_insertelement(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``insertelement`` (LLVM ``visit...``)."""
    return None


def visit_extractelement(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``extractelement`` (LLVM ``visit...``)."""
    return None


def visit_shufflevector(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``shufflevector`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_insertvalue", "visit_insertelement", "visit_extractelement", "visit_shufflevector"]
