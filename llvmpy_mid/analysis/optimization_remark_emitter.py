"""``OptimizationRemarkEmitterAnalysis`` (LLVM ``lib/Analysis/OptimizationRemarkEmitter.cpp``).

llvmpy_mid emits no optimisation remarks yet; the analysis exists so that passes request it
where LLVM's do, and ``-debug-pass-manager`` logs it in opt-19's order. Its result is
stateless and, without hotness information, never invalidated (as LLVM's).
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.preserved import PreservedAnalyses


class OptimizationRemarkEmitter:
    """The remark sink of one function (remarks are dropped)."""

    __slots__ = ("function",)

    def __init__(self, function: Function) -> None:
        self.function = function

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return False


class OptimizationRemarkEmitterAnalysis(FunctionAnalysis[OptimizationRemarkEmitter]):
    name: ClassVar[str] = "opt-remark-emit"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> OptimizationRemarkEmitter:
        return OptimizationRemarkEmitter(unit)
