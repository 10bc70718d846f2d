"""``lower-invoke``: every ``invoke`` becomes a ``call`` followed by a branch to
its normal destination, for targets without unwinding (LLVM
``LowerInvokePass``, lib/Transforms/Utils/LowerInvoke.cpp).

The call keeps the invoke's callee, arguments, operand bundles, calling
convention, attributes, name and debug location (not its other metadata); the
unwind destination loses the block as a predecessor (its phis drop the entry).

What it does not do: delete landing pads that become unreachable (LLVM does not
either).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, InvokeInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

__all__ = ["LowerInvokePass", "lower_invokes"]


def lower_invokes(fn: Function) -> bool:
    """Replace each invoke of ``fn``; True when there was one."""
    changed = False
    for bb in fn.blocks:
        ii = bb.terminator
        if not isinstance(ii, InvokeInst):
            continue
        call = CallInst(
            ii.function_type,
            ii.called_operand,
            ii.args,
            bundles=ii.operand_bundles,
            calling_conv=ii.calling_conv,
            attributes=ii.attributes,
        )
        call.insert_before(ii)
        name = ii.name
        if name:
            ii.set_name("")
            call.set_name(name)
        call.debug_loc = ii.debug_loc
        ii.replace_all_uses_with(call)
        br = BranchInst(ii.normal_dest)
        br.insert_before(ii)
        remove_predecessor(ii.unwind_dest, bb)
        ii.erase_from_parent()
        changed = True
    return changed


class LowerInvokePass(Pass[Function]):
    """Invokes become calls."""

    name: ClassVar[str] = "lower-invoke"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if lower_invokes(unit):
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
