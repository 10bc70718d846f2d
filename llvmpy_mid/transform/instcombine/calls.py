"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineCalls.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_call(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``call`` (LLVM ``visit...``)."""
    return None


def visit_invoke(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``invoke`` (LLVM ``visit...``)."""
    return None


def visit_callbr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``callbr`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_call", "visit_invoke", "visit_callbr"]
