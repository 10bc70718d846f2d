"""Speculation: a two-entry phi to selects, a small conditional block executed unconditionally (LLVM ``FoldTwoEntryPHINode``, ``SpeculativelyExecuteBB``).

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


def fold_two_entry_phi_node(pn: PHINode, tti: object, dl: DataLayout, speculate_unpredictables: bool) -> bool:
    """Not built yet: no change."""
    return False


def speculatively_execute_bb(opt: SimplifyCFGOpt, bi: BranchInst, then_bb: BasicBlock) -> bool:
    """Not built yet: no change."""
    return False


__all__ = ["fold_two_entry_phi_node", "speculatively_execute_bb"]
