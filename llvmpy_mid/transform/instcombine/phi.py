"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombinePHI.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_phi(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``phi`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_phi"]
