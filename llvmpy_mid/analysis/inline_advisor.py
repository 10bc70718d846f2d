"""The inline advisor: whether to inline a call site, and the remarks of the decision
(LLVM 19.1.7 ``lib/Analysis/InlineAdvisor.cpp``: ``DefaultInlineAdvisor``,
``shouldInline`` with ``shouldBeDeferred``, the mandatory advice, ``inline-advisor``).

What: :class:`DefaultInlineAdvisor` asks :func:`~.inline_cost.get_inline_cost` for a
call site (with the caller's block frequencies for cold call sites) and
:func:`should_inline` turns the cost into advice: always-inline costs are taken,
costs over the threshold are refused with a ``NeverInline``/``TooCostly`` remark, and
(with deferral enabled) inlining is refused when it would block the more profitable
inlining of the caller into its own callers. The mandatory advice (``only-mandatory``
inliners) recommends exactly the calls whose attributes demand inlining. The advice
records the outcome: ``Inlined``/``AlwaysInline`` remarks with the cost and
``NotInlined`` on failure; ``-inline-remark-attribute`` writes the reason into an
``inline-remark`` call-site attribute.

What it does not do: the ML and replay advisors, imported-function statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar

from llvmpy_mid.analysis.inline_cost import (
    LAST_CALL_TO_STATIC_BONUS,
    InlineCost,
    InlineParams,
    inline_cost_str,
    option_bool,
    option_str,
    option_int,
)
from llvmpy_mid.analysis.inline_cost_decision import get_attribute_based_inlining_decision, get_inline_cost
from llvmpy_mid.analysis.remark import Remark, location_of_debug_loc
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, ModuleAnalysis
from llvmpy_mid.passes.statistics import Statistic

if TYPE_CHECKING:
    from llvmpy_mid.analysis.inline_import_stats import ImportedFunctionsInliningStatistics
    from llvmpy_mid.analysis.inline_viability import InlineResult
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo

DEBUG_TYPE = "inline"
NUM_CALLER_CALLERS_ANALYZED = Statistic("inline", "NumCallerCallersAnalyzed", "Number of caller-callers analyzed")


def set_inline_remark(call: CallBase, message: str) -> None:
    """LLVM ``setInlineRemark``: with ``-inline-remark-attribute``, an
    ``inline-remark`` call-site attribute carrying ``message``."""
    if not option_bool("inline-remark-attribute"):
        return
    call.add_fn_attr(Attribute.string("inline-remark", message))


def _missed(name: str, call: CallBase) -> Remark:
    from llvmpy_mid.analysis.remark import optimization_remark_missed

    return optimization_remark_missed(DEBUG_TYPE, name, call)


def _add_cost(remark: Remark, ic: InlineCost) -> Remark:
    if ic.is_always:
        remark.add("(cost=always)")
    elif ic.is_never:
        remark.add("(cost=never)")
    else:
        remark.add("(cost=").add_arg("Cost", ic.cost).add(", threshold=").add_arg("Threshold", ic.threshold).add(")")
    if ic.reason is not None:
        remark.add(": ").add_arg("Reason", ic.reason)
    return remark


def should_be_deferred(
    caller: Function, ic: InlineCost, get_inline_cost_of: Callable[[CallBase], InlineCost]
) -> tuple[bool, int]:
    """LLVM ``shouldBeDeferred``: ``(defer, total secondary cost)``."""
    if not caller.has_local_linkage and not caller.has_linkonce_odr_linkage:
        return False, 0
    if ic.cost <= 0:
        return False, 0
    total_secondary = 0
    candidate_cost = ic.cost - 1
    apply_last_call_bonus = caller.has_local_linkage and len(list(caller.uses)) != 1
    prevents_outer = False
    num_caller_users = 0
    for use in list(caller.uses):
        cs2 = use.user
        if not isinstance(cs2, CallBase) or cs2.called_function is not caller:
            apply_last_call_bonus = False
            continue
        ic2 = get_inline_cost_of(cs2)
        NUM_CALLER_CALLERS_ANALYZED.add()
        if not ic2:
            apply_last_call_bonus = False
            continue
        if ic2.is_always:
            continue
        if ic2.cost_delta <= candidate_cost:
            prevents_outer = True
            total_secondary += ic2.cost
            num_caller_users += 1
    if not prevents_outer:
        return False, total_secondary
    if apply_last_call_bonus:
        total_secondary -= LAST_CALL_TO_STATIC_BONUS
    scale = option_int("inline-deferral-scale")
    if scale < 0:
        return total_secondary < ic.cost, total_secondary
    total_cost = total_secondary + ic.cost * num_caller_users
    allowance = ic.cost * scale
    return total_cost < allowance, total_secondary


def should_inline(
    call: CallBase,
    get_inline_cost_of: Callable[[CallBase], InlineCost],
    ore: OptimizationRemarkEmitter,
    enable_deferral: bool,
) -> InlineCost | None:
    """LLVM ``shouldInline``: the cost when inlining should be attempted, else None."""
    ic = get_inline_cost_of(call)
    callee = call.called_function
    caller = call.function
    assert caller is not None
    if ic.is_always:
        return ic
    if not ic:
        if ic.is_never:
            ore.emit(
                lambda: _add_cost(
                    _missed("NeverInline", call)
                    .add("'")
                    .add_arg("Callee", callee)
                    .add("' not inlined into '")
                    .add_arg("Caller", caller)
                    .add("' because it should never be inlined "),
                    ic,
                )
            )
        else:
            ore.emit(
                lambda: _add_cost(
                    _missed("TooCostly", call)
                    .add("'")
                    .add_arg("Callee", callee)
                    .add("' not inlined into '")
                    .add_arg("Caller", caller)
                    .add("' because too costly to inline "),
                    ic,
                )
            )
        set_inline_remark(call, inline_cost_str(ic))
        return None
    if enable_deferral:
        defer, _ = should_be_deferred(caller, ic, get_inline_cost_of)
        if defer:
            ore.emit(
                lambda: _missed("IncreaseCostInOtherContexts", call)
                .add("Not inlining. Cost of inlining '")
                .add_arg("Callee", callee)
                .add("' increases the cost of inlining '")
                .add_arg("Caller", caller)
                .add("' in other contexts")
            )
            set_inline_remark(call, "deferred")
            return None
    return ic


def _location_suffix(remark: Remark, dloc: MDNode | None) -> None:
    """LLVM ``addLocationToRemarks``: `` at callsite f:line:col[.disc] @ ...;``."""
    if dloc is None:
        return
    from llvmpy_mid.analysis.inline_advisor_locations import callsite_location_parts

    parts = callsite_location_parts(dloc)
    if not parts:
        return
    remark.add(" at callsite ")
    for i, (name, line, column, disc) in enumerate(parts):
        if i:
            remark.add(" @ ")
        remark.add(name).add(":").add_arg("Line", line).add(":").add_arg("Column", column)
        if disc:
            remark.add(".").add_arg("Disc", disc)
    remark.add(";")


def emit_inlined_into(
    ore: OptimizationRemarkEmitter,
    dloc: MDNode | None,
    block: BasicBlock,
    callee: Function,
    caller: Function,
    always_inline: bool,
    extra: Callable[[Remark], object] | None,
    pass_name: str = DEBUG_TYPE,
) -> None:
    """LLVM ``emitInlinedInto``."""
    from llvmpy_mid.analysis.remark import PASSED

    def build() -> Remark:
        remark = Remark(PASSED, pass_name, "AlwaysInline" if always_inline else "Inlined", caller, location_of_debug_loc(dloc),
                        block)
        remark.add("'").add_arg("Callee", callee).add("' inlined into '").add_arg("Caller", caller).add("'")
        if extra is not None:
            extra(remark)
        _location_suffix(remark, dloc)
        return remark

    ore.emit(build)


class InlineAdvice:
    """LLVM ``InlineAdvice``: one decision and the recording of its outcome."""

    def __init__(self, advisor: InlineAdvisor, call: CallBase, ore: OptimizationRemarkEmitter, recommended: bool) -> None:
        self.advisor = advisor
        caller = call.function
        callee = call.called_function
        assert caller is not None and callee is not None and call.parent is not None
        self.caller = caller
        self.callee = callee
        self.dloc = call.debug_loc
        self.block = call.parent
        self.ore = ore
        self.is_inlining_recommended = recommended
        self.recorded = False

    def record_inlining(self) -> None:
        self.recorded = True
        self._record_inline_stats()
        self._record_inlining()

    def record_inlining_with_callee_deleted(self) -> None:
        self.recorded = True
        self._record_inline_stats()
        self._record_inlining_with_callee_deleted()

    def _record_inline_stats(self) -> None:
        stats = self.advisor.import_stats
        if stats is not None:
            stats.record_inline(self.caller, self.callee)

    def record_unsuccessful_inlining(self, result: InlineResult) -> None:
        self.recorded = True
        self._record_unsuccessful(result)

    def record_unattempted_inlining(self) -> None:
        self.recorded = True

    def _record_inlining(self) -> None:
        pass

    def _record_inlining_with_callee_deleted(self) -> None:
        self._record_inlining()

    def _record_unsuccessful(self, result: InlineResult) -> None:
        pass

    def _missed_at_site(self, name: str) -> Remark:
        from llvmpy_mid.analysis.remark import MISSED

        return Remark(MISSED, self.advisor.annotated_pass_name, name, self.caller, location_of_debug_loc(self.dloc),
                      self.block)


class MandatoryInlineAdvice(InlineAdvice):
    """Advice of a mandatory-only inliner (LLVM ``MandatoryInlineAdvice``)."""

    def _record_inlining(self) -> None:
        if self.is_inlining_recommended:
            emit_inlined_into(
                self.ore, self.dloc, self.block, self.callee, self.caller, True, lambda r: r.add(": always inline attribute")
            )

    def _record_unsuccessful(self, result: InlineResult) -> None:
        if self.is_inlining_recommended:
            self.ore.emit(
                lambda: self._missed_at_site("NotInlined")
                .add("'")
                .add_arg("Callee", self.callee)
                .add("' is not AlwaysInline into '")
                .add_arg("Caller", self.caller)
                .add("': ")
                .add_arg("Reason", result.message)
            )


class DefaultInlineAdvice(InlineAdvice):
    """Advice of the default advisor (LLVM ``DefaultInlineAdvice``)."""

    def __init__(
        self, advisor: InlineAdvisor, call: CallBase, oic: InlineCost | None, ore: OptimizationRemarkEmitter
    ) -> None:
        super().__init__(advisor, call, ore, oic is not None)
        self.original_call = call
        self.oic = oic

    def _record_inlining(self) -> None:
        oic = self.oic
        assert oic is not None
        emit_inlined_into(
            self.ore,
            self.dloc,
            self.block,
            self.callee,
            self.caller,
            oic.is_always,
            lambda r: _add_cost(r.add(" with "), oic),
            self.advisor.annotated_pass_name,
        )

    def _record_unsuccessful(self, result: InlineResult) -> None:
        oic = self.oic
        assert oic is not None
        set_inline_remark(self.original_call, result.message + "; " + inline_cost_str(oic))
        self.ore.emit(
            lambda: self._missed_at_site("NotInlined")
            .add("'")
            .add_arg("Callee", self.callee)
            .add("' is not inlined into '")
            .add_arg("Caller", self.caller)
            .add("': ")
            .add_arg("Reason", result.message)
        )


class InlineAdvisor:
    """LLVM ``InlineAdvisor`` with the default policy (``DefaultInlineAdvisor``)."""

    def __init__(
        self, module: Module, fam: AnalysisManager[Function], params: InlineParams, context: str | None = None
    ) -> None:
        self.module = module
        self.fam = fam
        self.params = params
        self.annotated_pass_name = DEBUG_TYPE
        """``-annotate-inline-phase`` with an inline context (LLVM ``InlineContext``: the inliner
        kind, e.g. ``"cgscc-inline"``; the LTO phase is always ``main`` here) names the remarks'
        pass ``main-<context>``."""
        if context is not None and option_bool("annotate-inline-phase"):
            self.annotated_pass_name = "main-" + context
        self.import_stats: ImportedFunctionsInliningStatistics | None = None
        mode = option_str("inliner-function-import-stats")
        self.import_stats_verbose = mode == "verbose"
        if mode not in ("", "no"):
            from llvmpy_mid.analysis.inline_import_stats import ImportedFunctionsInliningStatistics

            self.import_stats = ImportedFunctionsInliningStatistics(module)
        self.psi: ProfileSummaryInfo | None = None
        """The module's cached profile summary, set by the inliner on each run (LLVM reads
        the cached ``ProfileSummaryAnalysis`` for every call site)."""

    # --- helpers --------------------------------------------------------------------------
    def _ore(self, fn: Function) -> OptimizationRemarkEmitter:
        from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitterAnalysis

        return self.fam.get_result(OptimizationRemarkEmitterAnalysis, fn)

    def _tli(self, fn: Function) -> object:
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis

        return self.fam.get_result(TargetLibraryAnalysis, fn)

    def _tti(self, fn: Function) -> object:
        from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis

        return self.fam.get_result(TargetIRAnalysis, fn)

    def get_inline_cost_of(self, call: CallBase) -> InlineCost:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis

        callee = call.called_function
        assert callee is not None
        fam = self.fam
        ore = None
        caller = call.function
        assert caller is not None
        if _missed_remarks_enabled():
            ore = self._ore(caller)
        return get_inline_cost(
            call,
            self.params,
            self._tti(callee),  # type: ignore[arg-type]
            lambda f: fam.get_result(AssumptionAnalysis, f),
            self._tli,  # type: ignore[arg-type]
            lambda f: fam.get_result(BlockFrequencyAnalysis, f),
            self.psi,
            ore,
        )

    def default_inline_cost(self, call: CallBase) -> InlineCost | None:
        """LLVM's ``getDefaultInlineAdvice``."""
        caller = call.function
        assert caller is not None
        enable = self.params.enable_deferral
        if enable is None:
            enable = option_bool("inline-deferral")
        return should_inline(call, self.get_inline_cost_of, self._ore(caller), enable)

    def is_mandatory_always(self, call: CallBase) -> bool | None:
        """LLVM ``getMandatoryKind``: True (always), False (never), None (not mandatory)."""
        callee = call.called_function
        assert callee is not None
        decision = get_attribute_based_inlining_decision(call, callee, self._tti(callee), self._tli)  # type: ignore[arg-type]
        if decision is None:
            return None
        return bool(decision.success)

    def get_advice(self, call: CallBase, mandatory_only: bool = False) -> InlineAdvice:
        """LLVM ``InlineAdvisor::getAdvice``."""
        caller = call.function
        assert caller is not None
        if not mandatory_only:
            return DefaultInlineAdvice(self, call, self.default_inline_cost(call), self._ore(caller))
        advice = call.called_function is not caller and self.is_mandatory_always(call) is True
        return MandatoryInlineAdvice(self, call, self._ore(caller), advice)

    def on_pass_entry(self) -> None:
        pass

    def finish(self) -> None:
        """What LLVM's advisor destructor does: dump the import statistics once."""
        stats = self.import_stats
        if stats is not None:
            self.import_stats = None
            stats.dump(self.import_stats_verbose)

    def on_pass_exit(self) -> None:
        pass

    def print(self) -> str:
        """What ``print<inline-advisor>`` writes for this advisor."""
        return "Unimplemented InlineAdvisor print\n"


def _missed_remarks_enabled() -> bool:
    """``-pass-remarks-missed`` names the inliner (LLVM ``isMissedOptRemarkEnabled``)."""
    from llvmpy_mid.analysis.remark_streamer import active_streamer

    streamer = active_streamer()
    return streamer is not None and streamer.missed is not None and streamer.missed.search(DEBUG_TYPE) is not None


class InlineAdvisorResult:
    """The ``inline-advisor`` module analysis result: the advisor of an inlining session."""

    __slots__ = ("advisor",)

    def __init__(self) -> None:
        self.advisor: InlineAdvisor | None = None

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        from llvmpy_mid.passes.preserved import PreservedAnalyses

        assert isinstance(pa, PreservedAnalyses)
        return not pa.checker(InlineAdvisorAnalysis).preserved()


class InlineAdvisorAnalysis(ModuleAnalysis[InlineAdvisorResult]):
    """LLVM ``InlineAdvisorAnalysis`` (``inline-advisor``)."""

    name: ClassVar[str] = "inline-advisor"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> InlineAdvisorResult:
        return InlineAdvisorResult()


__all__ = [
    "DefaultInlineAdvice",
    "InlineAdvice",
    "InlineAdvisor",
    "InlineAdvisorAnalysis",
    "MandatoryInlineAdvice",
    "set_inline_remark",
    "should_be_deferred",
    "should_inline",
]
