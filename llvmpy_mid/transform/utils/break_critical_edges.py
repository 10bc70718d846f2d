"""``break-crit-edges``: puts a new block on every critical edge (LLVM
``BreakCriticalEdgesPass``, Transforms/Utils/BreakCriticalEdges.cpp).

What: an edge is critical when its source has several successors and its
destination several predecessors; each one (except those out of ``indirectbr``
and into EH pads) gets a block ``<src>.<dest>_crit_edge`` that only branches on,
placed right after the source, with the destination's phis renamed to it.

How: :func:`llvmpy_mid.transform.utils.basic_block_utils.split_all_critical_edges`;
a dominator tree or loop info already cached for the function is kept up to date
and declared preserved, as LLVM does.

What it does not do: post-dominator tree and MemorySSA updates (LLVM's new-PM pass
updates neither either).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.loop_info import LoopAnalysis
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import CriticalEdgeSplittingOptions, split_all_critical_edges


class BreakCriticalEdgesPass(Pass[Function]):
    """``break-crit-edges``: a new block on each critical edge."""

    name: ClassVar[str] = "break-crit-edges"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "BreakCriticalEdgesPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        dt = am.get_cached_result(DominatorTreeAnalysis, unit)
        li = am.get_cached_result(LoopAnalysis, unit)
        if split_all_critical_edges(unit, CriticalEdgeSplittingOptions(dt, li)) == 0:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(LoopAnalysis)
        return pa


__all__ = ["BreakCriticalEdgesPass"]
