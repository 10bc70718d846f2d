"""``reg2mem``: demote values that live across blocks, and every phi, to stack slots
(LLVM's Transforms/Scalar/Reg2Mem.cpp, ``RegToMemPass``).

What: critical edges are split first (keeping the dominator tree and loop info);
then a ``%"reg2mem alloca point" = bitcast i32 0 to i32`` marks the end of the
entry block's allocas, every sized instruction used outside its block or by a
phi (but the entry block's allocas) goes through
:func:`~llvmpy_mid.transform.utils.demote_reg_to_stack.demote_reg_to_stack`, and
then every phi through :func:`demote_phi_to_stack`, both lists in reverse
function order as LLVM walks them. The pass always changes the function (the
marker), as LLVM's does.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.loop_info import LoopAnalysis
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.casts import BitCastInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import CriticalEdgeSplittingOptions, split_all_critical_edges
from llvmpy_mid.transform.utils.demote_reg_to_stack import (
    demote_phi_to_stack,
    demote_reg_to_stack,
    insert_before_taking_records,
)

NUM_REGS_DEMOTED = Statistic("reg2mem", "NumRegsDemoted", "Number of registers demoted")
NUM_PHIS_DEMOTED = Statistic("reg2mem", "NumPhisDemoted", "Number of phi-nodes demoted")


def _value_escapes(inst: Instruction) -> bool:
    """``inst`` has a sized value used in another block or by a phi."""
    if not inst.type.is_sized:
        return False
    bb = inst.parent
    for user in inst.users:
        if user.parent is not bb or user.is_phi:  # type: ignore[attr-defined]
            return True
    return False


def demote_registers(fn: Function) -> bool:
    """LLVM's ``runPass`` of reg2mem (the edges are already split)."""
    entry = fn.entry_block
    at = entry.instructions._first
    while at is not None and at.opcode == "alloca":
        at = at._next
    assert at is not None
    i32 = fn.context.i32
    point = BitCastInst(ConstantInt.get(i32, 0), i32, name="reg2mem alloca point")
    if at is entry.instructions._first:
        point.insert_before(at)  # the block's head: before its debug records
    else:
        insert_before_taking_records(point, at)
    work: list[Instruction] = []
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not (inst.opcode == "alloca" and bb is entry) and _value_escapes(inst):
                work.append(inst)
    NUM_REGS_DEMOTED.add(len(work))
    for inst in reversed(work):
        demote_reg_to_stack(inst, False, point)
    phis: list[PHINode] = []
    for bb in fn.blocks:
        phis.extend(bb.phis())
    NUM_PHIS_DEMOTED.add(len(phis))
    for phi in reversed(phis):
        demote_phi_to_stack(phi, point)
    return True


def _split_all_critical_edges(fn: Function, am: AnalysisManager[Function]) -> int:
    dt = am.get_result(DominatorTreeAnalysis, fn)
    li = am.get_result(LoopAnalysis, fn)
    return split_all_critical_edges(fn, CriticalEdgeSplittingOptions(dt=dt, li=li))


class RegToMemPass(Pass[Function]):
    """``reg2mem``: the function without cross-block SSA values or phis."""

    name: ClassVar[str] = "reg2mem"

    @property
    def log_name(self) -> str:
        return "RegToMemPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        _split_all_critical_edges(unit, am)
        demote_registers(unit)
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(LoopAnalysis)
        return pa


__all__ = ["RegToMemPass", "demote_registers"]
