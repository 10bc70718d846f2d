"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineCompares.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_icmp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``icmp`` (LLVM ``visit...``)."""
    return None


def visit_fcmp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fcmp`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_icmp", "visit_fcmp"]
