"""``TargetIRAnalysis``: the target transform information of a function (LLVM
19.1.7 ``llvm/lib/Analysis/TargetTransformInfo.cpp``).

What: opt-19 computes this analysis before ``AssumptionAnalysis`` and the
passes that ask for costs; without a target machine LLVM answers with its
default, target-independent implementation. This module provides the analysis
so the pass manager's ``-debug-pass-manager`` log names it as opt-19 does; its
result answers the few target-independent queries the middle end needs.

What it does not do (yet): costs. Every cost query a pass may add later
belongs here.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis


class TargetTransformInfo:
    """The target-independent answers (LLVM's ``NoTTIImpl``)."""

    __slots__ = ("function",)

    def __init__(self, function: Function) -> None:
        self.function = function

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        """Never invalidated by a pass's changes (as LLVM's result)."""
        return False

    def has_branch_divergence(self) -> bool:
        """No target with divergent branches is modelled."""
        return False

    def is_single_threaded(self) -> bool:
        return False


class TargetIRAnalysis(FunctionAnalysis[TargetTransformInfo]):
    """LLVM ``TargetIRAnalysis``."""

    name: ClassVar[str] = "target-ir"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> TargetTransformInfo:
        return TargetTransformInfo(unit)
