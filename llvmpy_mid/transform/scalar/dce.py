"""``dce``: dead code elimination (LLVM ``DCEPass``, Transforms/Scalar/DCE.cpp).

What: deletes every instruction that is trivially dead (no uses, no side
effects; see :func:`llvmpy_mid.transform.utils.local.is_instruction_trivially_dead`)
and then the operands that become dead in turn.  Debug records that named a
deleted value are salvaged (rewritten onto an operand) or killed.

How: one walk over the function's instructions in order, deleting as it goes;
an operand that becomes dead goes on a worklist (an insertion-ordered set, last
in first out, as LLVM's ``SmallSetVector``); the walk skips an instruction
already on the worklist, and the worklist is drained at the end.  The CFG is
never changed, so CFG analyses are kept.

What it does not do: removable allocation calls and knowledge retention
(``--enable-knowledge-retention``), which LLVM's DCE also honours.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import remove_redundant_dbg_instrs
from llvmpy_mid.transform.utils.local import erase_dead_instruction, is_instruction_trivially_dead


def _dce_instruction(inst: Instruction, worklist: dict[Instruction, None], tli: object | None) -> bool:
    if not is_instruction_trivially_dead(inst, tli):
        return False
    # LLVM's DCEInstruction: debug info salvaged, then the knowledge (-enable-knowledge-retention).
    erase_dead_instruction(inst, lambda op: worklist.setdefault(op), tli, _salvage_knowledge)
    return True


def _salvage_knowledge(inst: Value) -> None:
    from llvmpy_mid.transform.utils.assume_bundle_builder import salvage_knowledge

    assert isinstance(inst, Instruction)
    salvage_knowledge(inst)


def eliminate_dead_code(fn: Function, tli: object | None = None) -> bool:
    """Delete the trivially dead instructions of ``fn``; True if any went."""
    changed = False
    worklist: dict[Instruction, None] = {}
    for bb in list(fn.blocks):
        node = bb.instructions._first
        while node is not None:
            nxt = node._next
            if node not in worklist:
                changed |= _dce_instruction(node, worklist, tli)
            node = nxt
    while worklist:
        inst, _ = worklist.popitem()
        changed |= _dce_instruction(inst, worklist, tli)
    return changed


class DCEPass(Pass[Function]):
    """``dce``: deletes trivially dead instructions."""

    name: ClassVar[str] = "dce"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "DCEPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        tli = am.get_result(TargetLibraryAnalysis, unit)
        if not eliminate_dead_code(unit, tli):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa


class RedundantDbgInstEliminationPass(Pass[Function]):
    """``redundant-dbg-inst-elim``: drops debug records that add nothing, block by block
    (LLVM's pass of the same name, in DCE.cpp)."""

    name: ClassVar[str] = "redundant-dbg-inst-elim"

    @property
    def log_name(self) -> str:
        return "RedundantDbgInstEliminationPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        changed = False
        for bb in unit.blocks:
            changed |= remove_redundant_dbg_instrs(bb)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa


__all__ = ["DCEPass", "RedundantDbgInstEliminationPass", "eliminate_dead_code"]
