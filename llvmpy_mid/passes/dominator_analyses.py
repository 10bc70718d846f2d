"""The dominator-tree analyses for the pass manager: ``DominatorTreeAnalysis``
("domtree") and ``PostDominatorTreeAnalysis`` ("postdomtree").

How: each wraps ``llvmpy_mid.ir.dominators.DominatorTree`` built on the function.
Both belong to ``CFGAnalyses``, so a pass that keeps the CFG keeps them.

What it does not do: printing (``print<domtree>``) belongs to the printer passes.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.preserved import AnalysisSet, CFGAnalyses


class DominatorTreeAnalysis(FunctionAnalysis[DominatorTree]):
    name: ClassVar[str] = "domtree"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> DominatorTree:
        return DominatorTree(unit)


class PostDominatorTreeAnalysis(FunctionAnalysis[DominatorTree]):
    name: ClassVar[str] = "postdomtree"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> DominatorTree:
        return DominatorTree(unit, post=True)
