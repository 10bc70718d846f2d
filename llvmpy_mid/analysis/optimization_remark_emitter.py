"""``OptimizationRemarkEmitterAnalysis`` (LLVM ``lib/Analysis/OptimizationRemarkEmitter.cpp``).

A pass asks for the emitter of its function and hands it remarks
(:mod:`llvmpy_mid.analysis.remark`); the emitter passes them to the active
:class:`~llvmpy_mid.analysis.remark_streamer.RemarkStreamer` (``-pass-remarks*`` and
``-pass-remarks-output`` on the command line, :func:`~llvmpy_mid.analysis.remark_streamer.collecting`
from Python) and drops them when none is active. Building a remark can cost work (GVN
looks for the clobbering access); a pass checks :meth:`OptimizationRemarkEmitter.allow_extra_analysis`
first, or passes a function that builds the remark to :meth:`~OptimizationRemarkEmitter.emit`,
which calls it only when remarks go somewhere. No hotness: without profile data LLVM
computes none either. The result is stateless and never invalidated (as LLVM's).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from llvmpy_mid.analysis.remark import Remark
from llvmpy_mid.analysis.remark_streamer import active_streamer
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.preserved import PreservedAnalyses


class OptimizationRemarkEmitter:
    """The remark sink of one function."""

    __slots__ = ("function",)

    def __init__(self, function: Function) -> None:
        self.function = function

    def allow_extra_analysis(self, pass_name: str) -> bool:
        """Whether remarks of ``pass_name`` go anywhere (LLVM ``allowExtraAnalysis``)."""
        streamer = active_streamer()
        return streamer is not None and streamer.is_enabled(pass_name)

    def enabled(self) -> bool:
        """Whether any remark goes anywhere (LLVM ``enabled``)."""
        streamer = active_streamer()
        return streamer is not None and streamer.is_enabled(None)

    def emit(self, remark: Remark | Callable[[], Remark]) -> None:
        """Emit a remark, or the remark a function builds (only called when :meth:`enabled`)."""
        streamer = active_streamer()
        if streamer is None:
            return
        if not isinstance(remark, Remark):
            if not streamer.is_enabled(None):
                return
            remark = remark()
        streamer.emit(remark)

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return False


class OptimizationRemarkEmitterAnalysis(FunctionAnalysis[OptimizationRemarkEmitter]):
    name: ClassVar[str] = "opt-remark-emit"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> OptimizationRemarkEmitter:
        return OptimizationRemarkEmitter(unit)
