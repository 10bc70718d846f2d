"""Folding conditional branches together (LLVM ``FoldBranchToCommonDest``, ``SimplifyCondBranchToCondBranch``, ``mergeConditionalStores``, ``mergeNestedCondBranch``, ``FoldCondBranchOnValueKnownInPredecessor``).

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


def fold_branch_to_common_dest(bi: BranchInst, tti: object, bonus_inst_threshold: int) -> bool:
    """Not built yet: no change."""
    return False


def fold_cond_branch_on_value_known_in_predecessor(bi: BranchInst, dl: DataLayout, ac: object | None) -> bool:
    """Not built yet: no change."""
    return False


def simplify_cond_branch_to_cond_branch(pbi: BranchInst, bi: BranchInst, dl: DataLayout, tti: object) -> bool:
    """Not built yet: no change."""
    return False


def merge_conditional_stores(pbi: BranchInst, qbi: BranchInst, dl: DataLayout, tti: object) -> bool:
    """Not built yet: no change."""
    return False


def merge_nested_cond_branch(bi: BranchInst) -> bool:
    """Not built yet: no change."""
    return False


__all__ = ["fold_branch_to_common_dest", "fold_cond_branch_on_value_known_in_predecessor", "merge_conditional_stores", "merge_nested_cond_branch", "simplify_cond_branch_to_cond_branch"]
