"""Value-equality comparisons: threading a switch or equality branch through its predecessor, folding it into predecessors, icmp chains to switches, terminators on selects (LLVM ``isValueEqualityComparison`` and friends).

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


def is_value_equality_comparison(ti: Instruction) -> Value | None:
    """Not built yet: no change."""
    return None


def simplify_equality_comparison_with_only_predecessor(opt: SimplifyCFGOpt, ti: Instruction, pred: BasicBlock) -> bool:
    """Not built yet: no change."""
    return False


def fold_value_comparison_into_predecessors(opt: SimplifyCFGOpt, ti: Instruction) -> bool:
    """Not built yet: no change."""
    return False


def simplify_branch_on_icmp_chain(opt: SimplifyCFGOpt, bi: BranchInst) -> bool:
    """Not built yet: no change."""
    return False


def try_to_simplify_uncond_branch_with_icmp_in_it(opt: SimplifyCFGOpt, icmp: ICmpInst) -> bool:
    """Not built yet: no change."""
    return False


def simplify_switch_on_select(opt: SimplifyCFGOpt, si: SwitchInst, select: SelectInst) -> bool:
    """Not built yet: no change."""
    return False


def simplify_indirect_br_on_select(opt: SimplifyCFGOpt, ibi: IndirectBrInst, select: SelectInst) -> bool:
    """Not built yet: no change."""
    return False


__all__ = ["fold_value_comparison_into_predecessors", "is_value_equality_comparison", "simplify_branch_on_icmp_chain", "simplify_equality_comparison_with_only_predecessor", "simplify_indirect_br_on_select", "simplify_switch_on_select", "try_to_simplify_uncond_branch_with_icmp_in_it"]
