"""``mem2reg``: promote stack slots to SSA registers (LLVM's Transforms/Utils/Mem2Reg.cpp,
``PromotePass``).

What: every ``alloca`` of the entry block that :func:`is_alloca_promotable`
accepts is promoted by :func:`promote_mem_to_reg`; the scan repeats until no
promotable alloca is left (promoting one can make another promotable, e.g. a
slot that only held the address of a promoted one). The CFG is never changed.

How: the dominator tree and the assumption cache come from the analysis
manager; see :mod:`llvmpy_mid.transform.utils.promote_mem_to_reg` for the
algorithm.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.promote_mem_to_reg import is_alloca_promotable, promote_mem_to_reg

NUM_PROMOTED = Statistic("mem2reg", "NumPromoted", "Number of alloca's promoted")


def promote_memory_to_register(fn: Function, am: AnalysisManager[Function]) -> bool:
    """Promote the entry block's promotable allocas until none is left; True if any was."""
    dt = am.get_result(DominatorTreeAnalysis, fn)
    ac = am.get_result(AssumptionAnalysis, fn)
    entry = fn.entry_block
    changed = False
    while True:
        allocas: list[AllocaInst] = []
        inst = entry.instructions._first
        while inst is not None and inst._next is not None:
            if isinstance(inst, AllocaInst) and is_alloca_promotable(inst):
                allocas.append(inst)
            inst = inst._next
        if not allocas:
            break
        promote_mem_to_reg(allocas, dt, ac)
        NUM_PROMOTED.add(len(allocas))
        changed = True
    return changed


class PromotePass(Pass[Function]):
    """``mem2reg``: promote the entry block's promotable allocas to registers."""

    name: ClassVar[str] = "mem2reg"

    @property
    def log_name(self) -> str:
        return "PromotePass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if not promote_memory_to_register(unit, am):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa


__all__ = ["PromotePass", "promote_memory_to_register"]
