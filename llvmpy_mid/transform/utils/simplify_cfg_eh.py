"""Exception handling: resume, cleanupret, landing pad merging (LLVM ``simplifyResume``, ``simplifyCleanupReturn``, ``TryToMergeLandingPad``).

Placeholder while the family is written (issue 15): every entry point
reports 'no change'.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.eh import LandingPadInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, IndirectBrInst, SwitchInst, UnreachableInst
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt


def simplify_resume(opt: SimplifyCFGOpt, ri: Instruction) -> bool:
    """Not built yet: no change."""
    return False


def simplify_cleanup_return(opt: SimplifyCFGOpt, ri: Instruction) -> bool:
    """Not built yet: no change."""
    return False


def try_to_merge_landing_pad(lpad: LandingPadInst, bi: BranchInst, bb: BasicBlock) -> bool:
    """Not built yet: no change."""
    return False


__all__ = ["simplify_cleanup_return", "simplify_resume", "try_to_merge_landing_pad"]
