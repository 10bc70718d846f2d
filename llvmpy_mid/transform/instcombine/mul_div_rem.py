"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineMulDivRem.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_mul(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``mul`` (LLVM ``visit...``)."""
    return None


def visit_fmul(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fmul`` (LLVM ``visit...``)."""
    return None


def visit_udiv(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``udiv`` (LLVM ``visit...``)."""
    return None


def visit_sdiv(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``sdiv`` (LLVM ``visit...``)."""
    return None


def visit_fdiv(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fdiv`` (LLVM ``visit...``)."""
    return None


def visit_urem(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``urem`` (LLVM ``visit...``)."""
    return None


def visit_srem(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``srem`` (LLVM ``visit...``)."""
    return None


def visit_frem(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``frem`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_mul", "visit_fmul", "visit_udiv", "visit_sdiv", "visit_fdiv", "visit_urem", "visit_srem", "visit_frem"]
