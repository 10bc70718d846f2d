"""The ``verify<...>`` analysis verifier passes: ``verify<domtree>``, ``verify<loops>`` and
``verify<regions>`` (LLVM 19.1.7 ``lib/IR/Dominators.cpp`` ``DominatorTreeVerifierPass``,
``lib/Analysis/LoopInfo.cpp`` ``LoopVerifierPass``, ``lib/Analysis/RegionInfo.cpp``
``RegionInfoVerifierPass``; registered by ``lib/Passes/PassRegistry.def``).

What: each pass asks the function analysis manager for the analysis (computing it when it is
not cached, which is what ``-debug-pass-manager`` shows) and checks it against the current IR:

- ``verify<domtree>``: the dominator tree equals one freshly computed (``DominatorTree.verify``);
- ``verify<loops>``: the loop forest equals a fresh one built on the dominator tree
  (``LoopInfo.verify``);
- ``verify<regions>``: only computes the region tree (LLVM checks it only under
  ``-verify-region-info``, off by default).

All preserve everything. opt-19 is a release build, where the dominator tree check is an
``assert`` that is compiled out; here a stale analysis stops the run with a
:class:`AnalysisVerificationError` naming the function, so a pass that kept a wrong analysis is
caught where it happened. On correct analyses the output is the same as opt-19's.

What it does not do: ``verify<safepoint-ir>`` (no ``gc.statepoint`` support).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = [
    "AnalysisVerificationError",
    "DominatorTreeVerifierPass",
    "LoopVerifierPass",
    "RegionInfoVerifierPass",
]


class AnalysisVerificationError(PipelineError):
    """A ``verify<...>`` pass found an analysis result that does not match the IR."""


class DominatorTreeVerifierPass(Pass[Function]):
    """``verify<domtree>``: the function's dominator tree must equal a fresh one."""

    name: ClassVar[str] = "verify<domtree>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        dt = am.get_result(DominatorTreeAnalysis, unit)
        if not dt.verify():
            raise AnalysisVerificationError(
                "verify<domtree>: the dominator tree of function '%s' is different than a freshly "
                "computed one" % unit.name)
        return PreservedAnalyses.all()


class LoopVerifierPass(Pass[Function]):
    """``verify<loops>``: the function's loop forest must equal a fresh one."""

    name: ClassVar[str] = "verify<loops>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.loop_info import LoopAnalysis

        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        try:
            li.verify(dt)
        except AssertionError as err:
            raise AnalysisVerificationError(
                "verify<loops>: loop info of function '%s' is broken: %s" % (unit.name, err)) from None
        return PreservedAnalyses.all()


class RegionInfoVerifierPass(Pass[Function]):
    """``verify<regions>``: computes the region tree (LLVM verifies it only under
    ``-verify-region-info``)."""

    name: ClassVar[str] = "verify<regions>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.region_info import RegionInfoAnalysis

        am.get_result(RegionInfoAnalysis, unit)
        return PreservedAnalyses.all()
