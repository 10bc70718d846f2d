"""``partial-inliner``: inlines the guarding part of a function into its callers and
calls the rest out of line (LLVM 19.1.7 ``lib/Transforms/IPO/PartialInlining.cpp``,
``PartialInlinerImpl`` and ``PartialInlinerPass``).

What: the functions with uses are taken from a worklist (last first). A function that
is not address-taken, not ``alwaysinline``/``noinline`` and not cold on entry is
cloned (``f.1``) and every use of it sent to the clone. With an instrumentation profile
the cold single-entry/single-exit regions of the clone are outlined first
(``f.1.<block>``); if that does not lead to any inlining, or there is no profile, the
early-return shape is used: the guarding entry blocks and the return block stay, the
rest is outlined. The clone is then inlined into each caller for which the cost model
agrees (``-skip-partial-inlining-cost-analysis`` only asks that the clone be
inline-viable): the call sequence to the outlined code must not be larger than the code
it replaces; the inliner's cost must be under its threshold, and the saved call must
outweigh the outlined call's runtime overhead weighted by its relative frequency. At
most ``-max-partial-inlining`` call sites are inlined in the module. Callers not
inlined get the original function back; the clone is erased, and the outlined
functions too when nothing was inlined. An outlined function of the early-return shape
that was inlined goes back on the worklist. The original function's entry count loses
the counts of the inlined call sites.

Options: ``-disable-partial-inlining``, ``-disable-mr-partial-inlining``,
``-pi-force-live-exit-outline``, ``-pi-mark-coldcc``,
``-skip-partial-inlining-cost-analysis``, ``-min-region-size-ratio``,
``-min-block-execution``, ``-cold-branch-ratio``, ``-max-num-inline-blocks``,
``-max-partial-inlining``, ``-outline-region-freq-percent``,
``-partial-inlining-extra-penalty``. Remarks and statistics use LLVM's names
(``partial-inlining``).

Not done: functions whose blocks have their address taken, or used other than by direct
calls and invokes, are left alone (LLVM stops on the latter).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis, BlockFrequencyInfo
from llvmpy_mid.analysis.block_frequency_bpi import BranchProbabilityInfo
from llvmpy_mid.analysis.block_frequency_printers import function_entry_count, profile_count
from llvmpy_mid.analysis.block_frequency_scaled import probability
from llvmpy_mid.analysis.inline_cost import get_callsite_cost, get_inline_params
from llvmpy_mid.analysis.inline_cost_decision import get_inline_cost
from llvmpy_mid.analysis.inline_viability import is_inline_viable
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryAnalysis, ProfileSummaryInfo
from llvmpy_mid.analysis.remark import (
    ANALYSIS,
    Remark,
    location_of_debug_loc,
    optimization_remark,
    optimization_remark_analysis,
    optimization_remark_missed,
)
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis, TargetTransformInfo
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.constants import BlockAddress
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.prof_data_utils import has_branch_weight_md
from llvmpy_mid.ipo.partial_inlining_cloner import FunctionCloner, first_call_site
from llvmpy_mid.ipo.partial_inlining_cost import U64_MAX, branch_probability, float32, outlining_costs, scale_frequency
from llvmpy_mid.ipo.partial_inlining_regions import (
    ColdRegionOptions,
    FunctionOutliningInfo,
    compute_outlining_cold_regions_info,
    compute_outlining_info,
)
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo, inline_function

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo

__all__ = ["PartialInlinerImpl", "PartialInlinerOptions", "PartialInlinerPass"]

DEBUG_TYPE = "partial-inlining"

NUM_PARTIAL_INLINED = Statistic(DEBUG_TYPE, "NumPartialInlined", "Number of callsites functions partially inlined into.")
NUM_COLD_OUTLINE_PARTIAL_INLINED = Statistic(
    DEBUG_TYPE,
    "NumColdOutlinePartialInlined",
    "Number of times functions with cold outlined regions were partially inlined into its caller(s).",
)


def _float_option(name: str) -> float:
    text = str(OPTIONS.value(name))
    try:
        return float32(float(text))
    except ValueError:
        raise PipelineError("for the --%s option: '%s' value invalid for floating point argument!" % (name, text)) \
            from None


class PartialInlinerOptions:
    """The ``cl::opt`` settings of one run."""

    __slots__ = ("disable_multi_region", "force_live_exit", "mark_cold_cc", "skip_cost_analysis", "cold",
                 "max_num_inline_blocks", "max_num_partial_inlining", "outline_region_freq_percent", "extra_penalty")

    def __init__(self) -> None:
        value = OPTIONS.value
        self.disable_multi_region = bool(value("disable-mr-partial-inlining"))
        self.force_live_exit = bool(value("pi-force-live-exit-outline"))
        self.mark_cold_cc = bool(value("pi-mark-coldcc"))
        self.skip_cost_analysis = bool(value("skip-partial-inlining-cost-analysis"))
        self.cold = ColdRegionOptions(
            _float_option("min-region-size-ratio"),
            int(value("min-block-execution")),
            _float_option("cold-branch-ratio"),
            self.skip_cost_analysis,
        )
        self.max_num_inline_blocks = int(value("max-num-inline-blocks"))
        self.max_num_partial_inlining = int(value("max-partial-inlining"))
        self.outline_region_freq_percent = int(value("outline-region-freq-percent"))
        self.extra_penalty = int(value("partial-inlining-extra-penalty"))


def _missed_remarks_enabled() -> bool:
    """LLVM ``isMissedOptRemarkEnabled(DEBUG_TYPE)``."""
    from llvmpy_mid.analysis.remark_streamer import active_streamer

    streamer = active_streamer()
    return streamer is not None and streamer.missed is not None and streamer.missed.search(DEBUG_TYPE) is not None


def _has_profile_data(fn: Function, oi: FunctionOutliningInfo) -> bool:
    """PGO counts on the function, or branch weights on a guarding entry's branch."""
    if function_entry_count(fn) is not None:
        return True
    for e in oi.entries:
        br = e.terminator
        if br is None or br.opcode != "br" or len(br.successors) != 2:
            continue
        if has_branch_weight_md(br):
            return True
    return False


def _only_called_directly(fn: Function) -> bool:
    """Every use of ``fn`` is the callee of a call or invoke, and no block of it has its
    address taken (what the partial inliner handles)."""
    for use in fn.uses:
        user = use.user
        if not (isinstance(user, CallBase) and user.opcode in ("call", "invoke")):
            return False
        if use is not user.called_operand_use:
            return False
    return not any(bb.has_address_taken for bb in fn.blocks)


class PartialInlinerImpl:
    """LLVM ``PartialInlinerImpl`` over one module."""

    def __init__(
        self,
        module: Module,
        fam: AnalysisManager[Function],
        psi: ProfileSummaryInfo,
        options: PartialInlinerOptions,
    ) -> None:
        self.module = module
        self.fam = fam
        self.psi = psi
        self.options = options
        self.num_partial_inlining = 0

    # --- analyses ---
    def get_tti(self, fn: Function) -> TargetTransformInfo:
        return self.fam.get_result(TargetIRAnalysis, fn)

    def get_tli(self, fn: Function) -> TargetLibraryInfo:
        return self.fam.get_result(TargetLibraryAnalysis, fn)

    def get_bfi(self, fn: Function) -> BlockFrequencyInfo:
        return self.fam.get_result(BlockFrequencyAnalysis, fn)

    def get_ac(self, fn: Function) -> AssumptionCache:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis

        return self.fam.get_result(AssumptionAnalysis, fn)

    def _is_limit_reached(self) -> bool:
        limit = self.options.max_num_partial_inlining
        return limit != -1 and self.num_partial_inlining >= limit

    # --- driver ---
    def run(self) -> bool:
        worklist = [fn for fn in self.module.functions if fn.has_uses and not fn.is_declaration]
        changed = False
        while worklist:
            fn = worklist.pop()
            if fn.parent is None or not fn.has_uses:
                continue
            inlined, outlined = self.unswitch_function(fn)
            if outlined is not None:
                worklist.append(outlined)
            changed |= inlined
        return changed

    def _finish(self, cloner: FunctionCloner) -> None:
        for fn in cloner.finish():
            self.fam.clear(fn)

    def unswitch_function(self, fn: Function) -> tuple[bool, Function | None]:
        """LLVM ``unswitchFunction``: (whether some call site was partially inlined, the
        outlined function of the early-return shape when it was)."""
        from llvmpy_mid.analysis.address_taken import has_address_taken

        if has_address_taken(fn):
            return False, None
        attrs = fn.attributes
        if attrs.has_fn_attr("alwaysinline") or attrs.has_fn_attr("noinline"):
            return False, None
        if self.psi.is_function_entry_cold(fn):
            return False, None
        if not fn.has_uses or not _only_called_directly(fn):
            return False, None
        ore = OptimizationRemarkEmitter(fn)
        opts = self.options
        if (self.psi.has_profile_summary and function_entry_count(fn) is not None
                and not opts.disable_multi_region):
            dt = DominatorTree(fn)
            li = LoopInfo(fn, dt)
            bpi = BranchProbabilityInfo(fn, li, dt, DominatorTree(fn, post=True))
            omri = compute_outlining_cold_regions_info(
                fn, ore, self.psi, self.get_bfi(fn), bpi, dt, self.get_tti, opts.cold)
            if omri is not None:
                cloner = FunctionCloner(fn, ore, self.get_tti, omri=omri)
                try:
                    if cloner.do_multi_region_outlining(opts.force_live_exit, opts.mark_cold_cc):
                        if self.try_partial_inline(cloner):
                            return True, None
                finally:
                    self._finish(cloner)
        oi = compute_outlining_info(fn, opts.max_num_inline_blocks)
        if oi is None:
            return False, None
        cloner = FunctionCloner(fn, ore, self.get_tti, oi=oi)
        try:
            cloner.normalize_return_block()
            outlined = cloner.do_single_region_outlining()
            if outlined is None:
                return False, None
            if self.try_partial_inline(cloner):
                return True, outlined
            return False, None
        finally:
            self._finish(cloner)

    # --- costs ---
    def outlining_call_bb_relative_freq(self, cloner: FunctionCloner) -> int:
        """LLVM ``getOutliningCallBBRelativeFreq``: the outlined call's frequency relative
        to the entry (a probability over 2**31); without profile data a likely outlined
        region counts as at least ``-outline-region-freq-percent``."""
        bfi = cloner.cloned_func_bfi
        assert bfi is not None and cloner.cloned_oi is not None
        call_bb = cloner.outlined_functions[-1][1]
        entry_freq = bfi.frequency(cloner.cloned_func.entry_block)
        call_freq = min(bfi.frequency(call_bb), entry_freq)
        rel = branch_probability(call_freq, entry_freq)
        if _has_profile_data(cloner.orig_func, cloner.cloned_oi):
            return rel
        if rel < probability(45, 100):
            return rel
        return max(rel, probability(self.options.outline_region_freq_percent, 100))

    def should_partial_inline(self, call: CallBase, cloner: FunctionCloner, weighted_rcost: int,
                              ore: OptimizationRemarkEmitter) -> bool:
        """LLVM ``shouldPartialInline``."""
        callee = call.called_function
        assert callee is cloner.cloned_func
        if self.options.skip_cost_analysis:
            return is_inline_viable(callee).success
        caller = call.function
        assert caller is not None
        orig = cloner.orig_func
        callee_tti = self.get_tti(callee)
        ic = get_inline_cost(call, get_inline_params(), callee_tti, self.get_ac, self.get_tli, self.get_bfi,
                             self.psi, ore if _missed_remarks_enabled() else None)
        if ic.is_always:
            ore.emit(lambda: optimization_remark_analysis(DEBUG_TYPE, "AlwaysInline", call)
                     .add_arg("Callee", orig).add(" should always be fully inlined, not partially"))
            return False
        if ic.is_never:
            ore.emit(lambda: optimization_remark_missed(DEBUG_TYPE, "NeverInline", call)
                     .add_arg("Callee", orig).add(" not partially inlined into ").add_arg("Caller", caller)
                     .add(" because it should never be inlined (cost=never)"))
            return False
        if not ic:
            ore.emit(lambda: optimization_remark_analysis(DEBUG_TYPE, "TooCostly", call)
                     .add_arg("Callee", orig).add(" not partially inlined into ").add_arg("Caller", caller)
                     .add(" because too costly to inline (cost=").add_arg("Cost", ic.cost).add(", threshold=")
                     .add_arg("Threshold", ic.cost_delta + ic.cost).add(")"))
            return False
        savings = get_callsite_cost(callee_tti, call) & U64_MAX
        if savings < weighted_rcost:
            ore.emit(lambda: optimization_remark_analysis(DEBUG_TYPE, "OutliningCallcostTooHigh", call)
                     .add_arg("Callee", orig).add(" not partially inlined into ").add_arg("Caller", caller)
                     .add(" runtime overhead (overhead=").add_arg("Overhead", weighted_rcost & 0xFFFFFFFF)
                     .add(", savings=").add_arg("Savings", savings & 0xFFFFFFFF).add(")")
                     .add(" of making the outlined call is too high"))
            return False
        ore.emit(lambda: optimization_remark_analysis(DEBUG_TYPE, "CanBePartiallyInlined", call)
                 .add_arg("Callee", orig).add(" can be partially inlined into ").add_arg("Caller", caller)
                 .add(" with cost=").add_arg("Cost", ic.cost).add(" (threshold=")
                 .add_arg("Threshold", ic.cost_delta + ic.cost).add(")"))
        return True

    def _call_site_counts(self, fn: Function) -> dict[CallBase, int]:
        """LLVM ``computeCallsiteToProfCountMap``: each call site's block count in its caller."""
        counts: dict[CallBase, int] = {}
        for user in fn.users:
            if not isinstance(user, CallBase):
                continue
            caller = user.function
            block = user.parent
            if caller is None or block is None:
                continue
            bfi = self.get_bfi(caller)
            entry = function_entry_count(caller)
            counts[user] = 0 if entry is None else profile_count(
                entry, bfi.frequency(block), bfi.frequency(caller.entry_block))
        return counts

    def try_partial_inline(self, cloner: FunctionCloner) -> bool:
        """LLVM ``tryPartialInline``."""
        if not cloner.outlined_functions:
            return False
        opts = self.options
        size_cost, non_weighted_rcost = outlining_costs(
            cloner.outlined_functions, cloner.outlined_region_cost, self.get_tti, opts.extra_penalty)
        rel_freq = self.outlining_call_bb_relative_freq(cloner) if cloner.cloned_oi is not None else 0
        weighted_rcost = scale_frequency(non_weighted_rcost, rel_freq)
        orig = cloner.orig_func
        cloned = cloner.cloned_func
        if not opts.skip_cost_analysis and cloner.outlined_region_cost < size_cost:
            site = first_call_site(cloned)
            if site is not None and site.parent is not None and site.function is not None:
                dloc = site.debug_loc
                fn_of_block = site.function
                region_cost = cloner.outlined_region_cost
                OptimizationRemarkEmitter(orig).emit(
                    lambda: Remark(ANALYSIS, DEBUG_TYPE, "OutlineRegionTooSmall", fn_of_block,
                                   location_of_debug_loc(dloc))
                    .add_arg("Function", orig).add(" not partially inlined into callers (Original Size = ")
                    .add_arg("OutlinedRegionOriginalSize", region_cost)
                    .add(", Size of call sequence to outlined function = ").add_arg("NewSize", size_cost).add(")"))
            return False
        users = list(cloned.users)
        callee_entry_count = function_entry_count(orig)
        site_counts = self._call_site_counts(cloned) if callee_entry_count is not None else {}
        remaining = callee_entry_count or 0
        forward_to = cloner.outlined_functions[-1][0] if cloner.cloned_oi is not None else None
        any_inline = False
        for user in users:
            if isinstance(user, BlockAddress) or not isinstance(user, CallBase):
                continue
            if self._is_limit_reached():
                continue
            caller = user.function
            if caller is None:
                continue
            caller_ore = OptimizationRemarkEmitter(caller)
            if not self.should_partial_inline(user, cloner, weighted_rcost, caller_ore):
                continue
            remark = optimization_remark(DEBUG_TYPE, "PartiallyInlined", user)
            remark.add_arg("Callee", orig).add(" partially inlined into ").add_arg("Caller", caller)
            ifi = InlineFunctionInfo(get_assumption_cache=self.get_ac, psi=self.psi)
            result = inline_function(user, ifi, merge_attributes=False, aa_results=None, insert_lifetime=True,
                                     forward_var_args_to=forward_to)
            if not result.success:
                continue
            caller_ore.emit(remark)
            if remaining and user in site_counts:
                remaining -= min(remaining, site_counts[user])
            any_inline = True
            self.num_partial_inlining += 1
            if cloner.cloned_oi is not None:
                NUM_PARTIAL_INLINED.add()
            else:
                NUM_COLD_OUTLINE_PARTIAL_INLINED.add()
        if any_inline:
            cloner.is_function_inlined = True
            if callee_entry_count is not None:
                from llvmpy_mid.transform.utils.code_extractor_profile import set_function_entry_count

                set_function_entry_count(orig, remaining)
            OptimizationRemarkEmitter(orig).emit(
                lambda: optimization_remark(DEBUG_TYPE, "PartiallyInlined", orig)
                .add("Partially inlined into at least one caller"))
        return any_inline


class PartialInlinerPass(Pass[Module]):
    """LLVM ``PartialInlinerPass`` (``partial-inliner``)."""

    name: ClassVar[str] = "partial-inliner"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        if bool(OPTIONS.value("disable-partial-inlining")):
            return PreservedAnalyses.all()
        options = PartialInlinerOptions()
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        if not am.is_registered(ProfileSummaryAnalysis):
            am.register(ProfileSummaryAnalysis())
        psi = am.get_result(ProfileSummaryAnalysis, unit)
        if PartialInlinerImpl(unit, fam, psi, options).run():
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
