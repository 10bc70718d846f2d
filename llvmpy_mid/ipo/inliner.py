"""The bottom-up CGSCC inliner ``inline`` (LLVM 19.1.7 ``lib/Transforms/IPO/Inliner.cpp``,
``InlinerPass``).

What: for one SCC of the call graph, the direct calls to defined functions of every
function of the SCC, in instruction order, form one worklist. Each call is put to the
inline advisor (:mod:`llvmpy_mid.analysis.inline_advisor`: the default cost-based
policy, or only the mandatory ``alwaysinline`` calls with ``inline<only-mandatory>``);
recommended calls are inlined with ``InlineFunction``, and the calls the inlined body
brought in are appended to the worklist with an inline history (a call coming from an
inlined copy of ``f`` is never inlined into a chain that already went through ``f``: it
is marked ``noinline`` instead). Calls brought into another SCC through a callee of a
different SCC cost ``-intra-scc-cost-multiplier`` times more. A callee left without live
uses that may be discarded (local linkage, or no comdat, or a comdat whose members are
all dead) is deleted. Calls to declarations get a ``NoDefinition`` remark.

Indirect calls brought in are promoted through constant vtables
(:mod:`llvmpy_mid.transform.utils.call_promotion_utils`).

After each caller's batch the call graph is updated incrementally
(:func:`llvmpy_mid.passes.cgscc_update.update_after_inlining`) and the working SCC
becomes the caller's (possibly split) SCC; an internal edge whose inlining already split
the SCC is not inlined again (LLVM's ``InlinedInternalEdges``, remark "recursive SCC
split").

What it does not do: the ML advisors. (``-cgscc-inline-replay`` wraps the advisor in
the replay advisor, ``analysis/replay_inline_advisor.py``.)
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from llvmpy_mid.analysis.inline_advisor import InlineAdvisor, InlineAdvisorAnalysis, set_inline_remark
from llvmpy_mid.analysis.inline_cost import (
    FUNCTION_INLINE_COST_MULTIPLIER_ATTRIBUTE_NAME,
    get_inline_params,
    live_use_count,
    option_int,
    string_fn_attr_as_int,
)
from llvmpy_mid.analysis.lazy_call_graph import SCC, LazyCallGraph, LazyCallGraphAnalysis
from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitterAnalysis
from llvmpy_mid.analysis.remark import Remark, optimization_remark_missed
from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cgscc_update import is_split_internal_edge, update_after_inlining
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.call_promotion_utils import try_promote_call

NUM_INLINED = Statistic("inline", "NumInlined", "Number of functions inlined")
NUM_DELETED = Statistic("inline", "NumDeleted", "Number of functions deleted because all callers found")


def parse_inliner_options(params: str | None) -> bool:
    """``inline<only-mandatory>`` (LLVM ``parseInlinerPassOptions``)."""
    from llvmpy_mid.passes.pipeline_text import parse_flag_and_int_params

    values = parse_flag_and_int_params(params or None, "InlinerPass", {"only-mandatory": False})
    return bool(values["only-mandatory"])


def _history_includes(fn: Function, history_id: int, history: list[tuple[Function, int]]) -> bool:
    while history_id != -1:
        entry = history[history_id]
        if entry[0] is fn:
            return True
        history_id = entry[1]
    return False


def _has_zero_live_uses(fn: Function) -> bool:
    return live_use_count(fn, 1) == 0


def _is_intrinsic_call(call: CallBase) -> bool:
    return call.opcode == "call" and call.is_intrinsic_call


def _no_definition_remark(call: CallBase, callee: Function) -> Remark:
    """LLVM's verbose ``NoDefinition`` remark (printed only with a hotness)."""
    caller = call.function
    assert caller is not None
    r = optimization_remark_missed("inline", "NoDefinition", call)
    r.add_arg("Callee", callee).add(" will not be inlined into ").add_arg("Caller", caller)
    return r.add(" because its definition is unavailable").set_is_verbose()


def _filter_dead_comdat_functions(dead: list[Function]) -> list[Function]:
    """LLVM ``filterDeadComdatFunctions``: keep the functions whose comdat has only
    members in ``dead``."""
    maybe_dead = set(dead)
    dead_comdats: set[int] = set()
    for fn in dead:
        comdat = fn.comdat
        if comdat is None or id(comdat) in dead_comdats:
            continue
        users = getattr(comdat, "users", [])
        if all(isinstance(u, Function) and u in maybe_dead for u in users):
            dead_comdats.add(id(comdat))
    return [fn for fn in dead if fn.comdat is None or id(fn.comdat) in dead_comdats]


def _delete_function(fn: Function) -> None:
    """Drop the body and remove ``fn`` from its module (LLVM's ``makeFunctionBodyUnreachable``
    and the deletion at the end of the CGSCC walk)."""
    from llvmpy_mid.ir.dead_constants import remove_dead_constant_users

    fn.drop_all_references()
    for bb in list(fn.blocks):
        fn.blocks.remove(bb)
    remove_dead_constant_users(fn)
    if fn.parent is not None and fn._use_head is None:
        fn.erase_from_parent()


class InlinerPass(Pass[SCC]):
    """LLVM ``InlinerPass`` (``inline``, ``inline<only-mandatory>``)."""

    is_special: ClassVar[bool] = False

    def __init__(self, only_mandatory: object = False) -> None:
        self.only_mandatory = bool(only_mandatory)
        self.owned_advisor: InlineAdvisor | None = None

    @property
    def log_name(self) -> str:
        return "InlinerPass"

    def _advisor(self, module: Module, am: AnalysisManager[SCC], fam: AnalysisManager[Function]) -> InlineAdvisor:
        from llvmpy_mid.passes.cgscc_pass_manager import ModuleAnalysisManagerCGSCCProxy  # noqa: F401

        outer = am.outer_manager
        if outer is not None:
            cached = outer.get_cached_result(InlineAdvisorAnalysis, module) if outer.is_registered(InlineAdvisorAnalysis) else None
            if cached is not None and cached.advisor is not None:
                return cached.advisor
        if self.owned_advisor is None or self.owned_advisor.module is not module or self.owned_advisor.fam is not fam:
            from llvmpy_mid.passes.teardown import at_pipeline_end

            advisor = InlineAdvisor(module, fam, get_inline_params(), "cgscc-inline")
            from llvmpy_mid.analysis.replay_inline_advisor import replay_advisor_from_options

            advisor = replay_advisor_from_options(module, fam, advisor)
            self.owned_advisor = advisor
            if advisor.import_stats is not None:
                at_pipeline_end(advisor.finish)  # LLVM dumps the statistics when the pass is destroyed
        return self.owned_advisor

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy

        if not unit.functions:
            return PreservedAnalyses.all()
        module = unit.functions[0].parent
        if module is None:
            return PreservedAnalyses.all()
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerCGSCCProxy, unit).manager
        advisor = self._advisor(module, am, fam)
        advisor.psi = self._psi(am, module)
        graph = self._graph(am, module)
        scc_functions = set(unit.functions)
        cur_scc = unit
        inlined_callees: list[Function] = []

        calls: list[tuple[CallBase, int]] = []
        for fn in unit.functions:
            ore = fam.get_result(OptimizationRemarkEmitterAnalysis, fn)
            for bb in fn.blocks:
                for inst in bb.instructions:
                    if not isinstance(inst, CallBase):
                        continue
                    callee = inst.called_function
                    if callee is None:
                        continue
                    if not callee.is_declaration:
                        calls.append((inst, -1))
                    elif not _is_intrinsic_call(inst):
                        set_inline_remark(inst, "unavailable definition")
                        ore.emit(functools.partial(_no_definition_remark, inst, callee))
        if not calls:
            return PreservedAnalyses.all()

        history: list[tuple[Function, int]] = []
        dead_functions: list[Function] = []
        dead_in_comdats: list[Function] = []
        changed = False
        intra_mult = option_int("intra-scc-cost-multiplier")
        i = 0
        while i < len(calls):
            caller = calls[i][0].function
            if caller is None or caller not in scc_functions or caller.parent is None:
                i += 1
                continue
            did_inline = False
            while i < len(calls) and calls[i][0].function is caller:
                call, history_id = calls[i]
                i += 1
                callee = call.called_function
                if callee is None or call.parent is None:
                    continue
                if history_id != -1 and _history_includes(callee, history_id, history):
                    set_inline_remark(call, "recursive")
                    call.add_fn_attr(Attribute.enum("noinline"))
                    continue
                if is_split_internal_edge(caller, callee, cur_scc):
                    set_inline_remark(call, "recursive SCC split")
                    continue
                advice = advisor.get_advice(call, self.only_mandatory)
                if not advice.is_inlining_recommended:
                    advice.record_unattempted_inlining()
                    continue
                callee_scc = graph.scc_of(callee) if graph is not None else None
                callee_in_current = callee in scc_functions
                cost_mult = string_fn_attr_as_int(call, FUNCTION_INLINE_COST_MULTIPLIER_ATTRIBUTE_NAME)
                if cost_mult is None:
                    cost_mult = 1
                result, ifi = _inline(call, fam, advisor.psi)
                if not result.success:
                    advice.record_unsuccessful_inlining(result)
                    continue
                did_inline = True
                inlined_callees.append(callee)
                NUM_INLINED.add()
                new_sites: list[CallBase] = list(ifi.inlined_call_sites)
                if new_sites:
                    new_history = len(history)
                    history.append((callee, history_id))
                    for icb in reversed(new_sites):
                        new_callee = icb.called_function
                        if new_callee is None and try_promote_call(icb):
                            new_callee = icb.called_function
                        if new_callee is None or new_callee.is_declaration:
                            continue
                        calls.append((icb, new_history))
                        if (
                            graph is not None
                            and callee_scc is not None
                            and not callee_in_current
                            and graph.scc_of(new_callee) is callee_scc
                        ):
                            icb.add_fn_attr(
                                Attribute.string(FUNCTION_INLINE_COST_MULTIPLIER_ATTRIBUTE_NAME, str(cost_mult * intra_mult))
                            )
                deleted = False
                if (
                    callee.is_discardable_if_unused
                    and _has_zero_live_uses(callee)
                    and not (graph is not None and callee in graph.lib_functions)
                ):
                    if callee.has_local_linkage or not callee.has_comdat:
                        calls[i:] = [c for c in calls[i:] if c[0].function is not callee]
                        if callee not in dead_functions:
                            callee.drop_all_references()
                            dead_functions.append(callee)
                        deleted = True
                    elif callee not in dead_in_comdats:
                        dead_in_comdats.append(callee)
                if deleted:
                    advice.record_inlining_with_callee_deleted()
                else:
                    advice.record_inlining()
            if not did_inline:
                continue
            changed = True
            # LLVM updates the call graph after each caller's batch; the SCC being worked
            # on becomes the (possibly split) SCC of the caller.
            cur_scc = update_after_inlining(cur_scc, caller, inlined_callees, am)
            inlined_callees = []
            scc_functions = set(cur_scc.functions)
            fam.invalidate(caller, PreservedAnalyses.none())

        if dead_in_comdats:
            for fn in _filter_dead_comdat_functions(dead_in_comdats):
                if _has_zero_live_uses(fn) and fn not in dead_functions:
                    fn.drop_all_references()
                    dead_functions.append(fn)
        for fn in dead_functions:
            fam.clear(fn)
            _delete_function(fn)
            NUM_DELETED.add()
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses.none()
        pa.preserve(FunctionAnalysisManagerCGSCCProxy)
        pa.preserve_set(AllAnalysesOnFunction)
        return pa

    @staticmethod
    def _psi(am: AnalysisManager[SCC], module: Module) -> ProfileSummaryInfo | None:
        from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryAnalysis

        outer = am.outer_manager
        if outer is None or not outer.is_registered(ProfileSummaryAnalysis):
            return None
        return outer.get_cached_result(ProfileSummaryAnalysis, module)

    @staticmethod
    def _graph(am: AnalysisManager[SCC], module: Module) -> LazyCallGraph | None:
        outer = am.outer_manager
        if outer is None:
            return None
        found: Any = outer.get_cached_result(LazyCallGraphAnalysis, module)
        return found if isinstance(found, LazyCallGraph) else None


def _inline(call: CallBase, fam: AnalysisManager[Function], psi: ProfileSummaryInfo | None) -> tuple[Any, Any]:
    from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis
    from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo, inline_function

    caller = call.function
    callee = call.called_function
    assert caller is not None and callee is not None
    ifi = InlineFunctionInfo(
        get_assumption_cache=lambda f: fam.get_result(AssumptionAnalysis, f),
        caller_bfi=fam.get_result(BlockFrequencyAnalysis, caller),
        callee_bfi=fam.get_result(BlockFrequencyAnalysis, callee),
        psi=psi,
    )
    result = inline_function(call, ifi, merge_attributes=True)
    return result, ifi
