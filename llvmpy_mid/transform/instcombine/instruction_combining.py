"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstructionCombining.cpp (the visitors of terminators, aggregates, landing pads, freeze, fences, allocation sites) and InstCombineAtomicRMW.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_atomicrmw(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``atomicrmw`` (LLVM ``visit...``)."""
    return None


def visit_br(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``br`` (LLVM ``visit...``)."""
    return None


def visit_fence(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fence`` (LLVM ``visit...``)."""
    return None


def visit_switch(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``switch`` (LLVM ``visit...``)."""
    return None


def visit_ret(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``ret`` (LLVM ``visit...``)."""
    return None


def visit_unreachable(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``unreachable`` (LLVM ``visit...``)."""
    return None


def visit_extractvalue(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``extractvalue`` (LLVM ``visit...``)."""
    return None


def visit_landingpad(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``landingpad`` (LLVM ``visit...``)."""
    return None


def visit_freeze(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``freeze`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_atomicrmw", "visit_br", "visit_fence", "visit_switch", "visit_ret", "visit_unreachable", "visit_extractvalue", "visit_landingpad", "visit_freeze"]
