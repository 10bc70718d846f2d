"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineLoadStoreAlloca.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_alloca(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``alloca`` (LLVM ``visit...``)."""
    return None


def visit_load(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``load`` (LLVM ``visit...``)."""
    return None


def visit_store(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``store`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_alloca", "visit_load", "visit_store"]
