"""``OptimizationRemarkEmitterAnalysis`` (LLVM ``lib/Analysis/OptimizationRemarkEmitter.cpp``).

A pass asks for the emitter of its function and hands it remarks
(:mod:`llvmpy_mid.analysis.remark`); the emitter passes them to the active
:class:`~llvmpy_mid.analysis.remark_streamer.RemarkStreamer` (``-pass-remarks*`` and
``-pass-remarks-output`` on the command line, :func:`~llvmpy_mid.analysis.remark_streamer.collecting`
from Python) and drops them when none is active. Building a remark can cost work (GVN
looks for the clobbering access); a pass checks :meth:`OptimizationRemarkEmitter.allow_extra_analysis`
first, or passes a function that builds the remark to :meth:`~OptimizationRemarkEmitter.emit`,
which calls it only when remarks go somewhere.

Hotness: under ``-pass-remarks-with-hotness`` (or a non-zero ``-pass-remarks-hotness-threshold``)
the emitter holds the function's ``BlockFrequencyAnalysis`` and gives each remark with a code
region the block's profile count (nothing without a ``function_entry_count``); remarks whose
hotness (0 when unknown) is under the threshold are dropped (``auto``: the profile summary's hot
count threshold when the summary is cached, else no remark). Such an emitter is invalidated with
its block frequencies; without hotness the result is stateless and never invalidated (as LLVM's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from llvmpy_mid.analysis.remark import Remark
from llvmpy_mid.analysis.remark_streamer import active_streamer
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.preserved import PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo

U64_MAX = (1 << 64) - 1


def hotness_threshold_option() -> int | None:
    """``-pass-remarks-hotness-threshold``: a count, or None for ``auto`` (LLVM
    ``HotnessThresholdParser``)."""
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get("pass-remarks-hotness-threshold") is None:
        return 0
    text = str(OPTIONS.value("pass-remarks-hotness-threshold"))
    if text == "auto":
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0 or value > U64_MAX:
        raise PipelineError("for the --pass-remarks-hotness-threshold option: Invalid argument '%s', "
                            "only integer or 'auto' is supported." % text)
    return value


def hotness_requested() -> bool:
    """LLVM ``getDiagnosticsHotnessRequested`` as opt sets it: ``-pass-remarks-with-hotness``, or a
    threshold other than 0."""
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get("pass-remarks-with-hotness") is not None and OPTIONS.value("pass-remarks-with-hotness"):
        return True
    threshold = hotness_threshold_option()
    return threshold is None or threshold != 0


class OptimizationRemarkEmitter:
    """The remark sink of one function."""

    __slots__ = ("function", "bfi", "threshold")

    def __init__(self, function: Function, bfi: BlockFrequencyInfo | None = None, threshold: int = 0) -> None:
        self.function = function
        self.bfi = bfi
        self.threshold = threshold
        """The least hotness a remark needs to be emitted."""

    def compute_hotness(self, remark: Remark) -> None:
        """The remark's code region's profile count, when block frequencies are held."""
        bfi = self.bfi
        block = remark.code_region
        if bfi is None or block is None:
            return
        from llvmpy_mid.analysis.block_frequency_printers import function_entry_count, profile_count

        entry = function_entry_count(self.function)
        if entry is None:
            return
        first = self.function.blocks._first
        if first is None:
            return
        remark.hotness = profile_count(entry, bfi.frequency(block), bfi.frequency(first))

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
        self.compute_hotness(remark)
        if (remark.hotness or 0) < self.threshold:
            return
        streamer.emit(remark)

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        if self.bfi is not None:
            from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis

            return inv.invalidate(BlockFrequencyAnalysis)
        return False


def standalone_emitter(fn: Function) -> OptimizationRemarkEmitter:
    """An emitter made outside the analysis manager (LLVM's ``OptimizationRemarkEmitter(F)``
    constructor): with hotness requested it computes its own block frequencies."""
    if not hotness_requested():
        return OptimizationRemarkEmitter(fn)
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo, _infos

    bpi, li = _infos(fn)
    threshold = hotness_threshold_option()
    return OptimizationRemarkEmitter(fn, BlockFrequencyInfo(fn, bpi, li), U64_MAX if threshold is None else threshold)


class OptimizationRemarkEmitterAnalysis(FunctionAnalysis[OptimizationRemarkEmitter]):
    name: ClassVar[str] = "opt-remark-emit"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> OptimizationRemarkEmitter:
        if not hotness_requested():
            return OptimizationRemarkEmitter(unit)
        from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis

        bfi = am.get_result(BlockFrequencyAnalysis, unit)
        threshold = hotness_threshold_option()
        if threshold is None:
            threshold = U64_MAX
            module = unit.parent
            if module is not None:
                from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryAnalysis

                try:
                    psi = am.outer(ProfileSummaryAnalysis, unit)
                except PipelineError:  # a lone function analysis manager
                    psi = None
                if psi is not None and psi.hot_count_threshold is not None:
                    threshold = psi.hot_count_threshold
        return OptimizationRemarkEmitter(unit, bfi, threshold)
