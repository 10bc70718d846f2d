"""InstCombine folds of ``fcmp`` (LLVM 19.1.7 ``lib/Transforms/InstCombine/InstCombineCompares.cpp``:
``visitFCmpInst`` and its helpers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.instructions.cmp import FCmpInst

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_fcmp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitFCmpInst``."""
    assert isinstance(i, FCmpInst)
    return None


__all__ = ["visit_fcmp"]
