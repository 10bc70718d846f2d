"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineAddSub.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_fneg(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fneg`` (LLVM ``visit...``)."""
    return None


def visit_add(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``add`` (LLVM ``visit...``)."""
    return None


def visit_fadd(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fadd`` (LLVM ``visit...``)."""
    return None


def visit_sub(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``sub`` (LLVM ``visit...``)."""
    return None


def visit_fsub(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fsub`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_fneg", "visit_add", "visit_fadd", "visit_sub", "visit_fsub"]
