"""Switch canonicalisation: range to icmp, dead cases, switch to select, condition forwarding, powers of two, range reduction.

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


def turn_switch_range_into_icmp(opt: SimplifyCFGOpt, si: SwitchInst) -> bool:
    """Not built yet: no change."""
    return False


def eliminate_dead_switch_cases(si: SwitchInst, ac: object | None, dl: DataLayout) -> bool:
    """Not built yet: no change."""
    return False


def try_switch_to_select(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """Not built yet: no change."""
    return False


def forward_switch_condition_to_phi(si: SwitchInst) -> bool:
    """Not built yet: no change."""
    return False


def simplify_switch_of_powers_of_two(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """Not built yet: no change."""
    return False


def reduce_switch_range(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """Not built yet: no change."""
    return False


__all__ = ["eliminate_dead_switch_cases", "forward_switch_condition_to_phi", "reduce_switch_range", "simplify_switch_of_powers_of_two", "try_switch_to_select", "turn_switch_range_into_icmp"]
