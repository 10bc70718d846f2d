"""``-verify-loop-info``: a loop forest a pass kept must be the right one.

After each function or loop pass that leaves ``LoopAnalysis`` cached for the function (it
preserved it, or nothing invalidated it), the cached ``LoopInfo`` is compared with one freshly
computed from the current CFG (``LoopInfo.verify``, LLVM ``LoopInfoBase::verify``); a
mismatch stops the run with :class:`LoopInfoMismatchError` naming the pass.

LLVM checks the same under ``-verify-loop-info`` in builds with assertions (the loop pass
manager's ``LAR.LI.verify(LAR.DT)``); opt-19 is a release build, where the option is accepted
and checks nothing, so the output with and without it is the same there and here.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cached_analysis_check import CachedAnalysisCheck
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["LoopInfoMismatchError", "VerifyLoopInfo"]


class LoopInfoMismatchError(PipelineError):
    """A pass kept a ``LoopInfo`` that no longer matches the CFG."""


class VerifyLoopInfo(CachedAnalysisCheck):
    """Registers the after-pass check on ``instrumentation``; ``attach(fam)`` names the function
    analysis manager whose cached loop forests are checked."""

    def check(self, pass_: Pass[Any], fn: Function, pa: PreservedAnalyses, fam: AnalysisManager[Function]) -> None:
        from llvmpy_mid.analysis.loop_info import LoopAnalysis
        from llvmpy_mid.ir.dominators import DominatorTree

        li = fam.get_cached_result(LoopAnalysis, fn)
        if li is None:
            return
        try:
            li.verify(DominatorTree(fn))
        except AssertionError as exc:
            raise LoopInfoMismatchError(
                "LoopInfo of function '%s' kept by pass %s is wrong: %s" % (fn.name, pass_.log_name, exc)
            ) from None
