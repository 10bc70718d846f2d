"""The no-op passes and analyses of every pipeline level (LLVM's ``no-op-module``,
``no-op-cgscc``, ``no-op-function``, ``no-op-loop``, ``no-op-loopnest``): they
change nothing and preserve everything, and exist to test pipelines, nesting
and the ``-debug-pass-manager`` log (LLVM's ``Other/`` tests use them).

What it does not do: anything else, by design.
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.passes.analysis import Analysis, AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import (
    AllAnalysesOnCGSCC,
    AllAnalysesOnFunction,
    AllAnalysesOnLoop,
    AllAnalysesOnModule,
    AnalysisSet,
    PreservedAnalyses,
)

__all__ = [
    "NoOpCGSCCAnalysis",
    "NoOpCGSCCPass",
    "NoOpFunctionAnalysis",
    "NoOpFunctionPass",
    "NoOpLoopAnalysis",
    "NoOpLoopNestPass",
    "NoOpLoopPass",
    "NoOpModuleAnalysis",
    "NoOpModulePass",
]


class _NoOpPass(Pass[Any]):
    def run(self, unit: Any, am: AnalysisManager[Any]) -> PreservedAnalyses:
        return PreservedAnalyses.all()


class NoOpModulePass(_NoOpPass):
    name: ClassVar[str] = "no-op-module"


class NoOpCGSCCPass(_NoOpPass):
    name: ClassVar[str] = "no-op-cgscc"


class NoOpFunctionPass(_NoOpPass):
    name: ClassVar[str] = "no-op-function"


class NoOpLoopPass(_NoOpPass):
    name: ClassVar[str] = "no-op-loop"


class NoOpLoopNestPass(_NoOpPass):
    """A loop-nest pass: runs on outermost loops only."""

    name: ClassVar[str] = "no-op-loopnest"
    is_loop_nest_pass: ClassVar[bool] = True


class _NoOpAnalysis(Analysis[Any, None]):
    def run(self, unit: Any, am: AnalysisManager[Any]) -> None:
        return None


class NoOpModuleAnalysis(_NoOpAnalysis):
    name: ClassVar[str] = "no-op-module"
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnModule


class NoOpCGSCCAnalysis(_NoOpAnalysis):
    name: ClassVar[str] = "no-op-cgscc"
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnCGSCC


class NoOpFunctionAnalysis(_NoOpAnalysis):
    name: ClassVar[str] = "no-op-function"
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnFunction


class NoOpLoopAnalysis(_NoOpAnalysis):
    name: ClassVar[str] = "no-op-loop"
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnLoop
