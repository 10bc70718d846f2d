"""``mergereturn``: one return block and one unreachable block per function (LLVM
``UnifyFunctionExitNodesPass``, Transforms/Utils/UnifyFunctionExitNodes.cpp).

What: when several blocks end in ``unreachable``, each branches instead to a new
block ``UnifiedUnreachableBlock`` holding the only ``unreachable``; when several
blocks return, each branches to a new block ``UnifiedReturnBlock`` that returns
(a phi ``UnifiedRetVal`` gathers the returned values of a non-void function).
The new blocks go at the end of the function, unreachable first.

How: LLVM's two walks over the blocks, in function order; the debug records in
front of a replaced terminator stay in front of the new branch.

What it does not do: nothing is kept of the analyses when the function changes
(as LLVM's pass, which preserves none).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, ReturnInst, UnreachableInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses


def _replace_terminator(bb: BasicBlock, new: Instruction) -> None:
    """Swap ``bb``'s terminator for ``new``, keeping the debug records before it."""
    old = bb.terminator
    assert old is not None
    records = old.take_dbg_records()
    old.erase_from_parent()
    bb.append(new)
    for rec in records:
        new.add_dbg_record(rec)


def unify_unreachable_blocks(fn: Function) -> bool:
    """Send every ``unreachable`` block to one ``UnifiedUnreachableBlock``."""
    blocks = [bb for bb in fn.blocks if bb.terminator is not None and bb.terminator.opcode == "unreachable"]
    if len(blocks) <= 1:
        return False
    ctx = fn.type.context
    unified = BasicBlock(ctx, "UnifiedUnreachableBlock", fn)
    unified.append(UnreachableInst(ctx))
    for bb in blocks:
        _replace_terminator(bb, BranchInst(unified))
    return True


def unify_return_blocks(fn: Function) -> bool:
    """Send every returning block to one ``UnifiedReturnBlock`` (values through ``UnifiedRetVal``)."""
    blocks = [bb for bb in fn.blocks if bb.terminator is not None and bb.terminator.opcode == "ret"]
    if len(blocks) <= 1:
        return False
    ctx = fn.type.context
    unified = BasicBlock(ctx, "UnifiedReturnBlock", fn)
    ret_ty = fn.return_type
    phi: PHINode | None = None
    if ret_ty.is_void:
        unified.append(ReturnInst(ctx))
    else:
        phi = PHINode(ret_ty, name="UnifiedRetVal")
        unified.append(phi)
        unified.append(ReturnInst(ctx, phi))
    for bb in blocks:
        if phi is not None:
            term = bb.terminator
            assert term is not None
            phi.add_incoming(term.operands[0], bb)
        _replace_terminator(bb, BranchInst(unified))
    return True


class UnifyFunctionExitNodesPass(Pass[Function]):
    """``mergereturn``: one return block, one unreachable block."""

    name: ClassVar[str] = "mergereturn"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "UnifyFunctionExitNodesPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        changed = unify_unreachable_blocks(unit)
        changed |= unify_return_blocks(unit)
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()


__all__ = ["UnifyFunctionExitNodesPass", "unify_return_blocks", "unify_unreachable_blocks"]
