"""``module-inline``: the whole-module inliner with a priority order (LLVM 19.1.7
``lib/Transforms/IPO/ModuleInliner.cpp``, ``ModuleInlinerPass``).

What: every direct call to a defined function in the module, function by function, goes
into :class:`~llvmpy_mid.analysis.inline_order.PriorityInlineOrder` (most desirable
first); calls are popped and put to the default inline advisor, inlined with
``InlineFunction``; the calls the inlined body brings in are pushed with an inline
history (a chain never goes through the same callee twice). A local callee left without
uses (dead constant users dropped) that is not a known library function is deleted at
the end.

The order follows ``-inline-priority-mode`` (``size``, ``cost``, ``cost-benefit``, ``ml``:
``analysis/inline_order.py``).

What it does not do: the ML advisor (``-enable-ml-inliner``).
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_advisor import InlineAdvisor, InlineAdvisorAnalysis, set_inline_remark
from llvmpy_mid.analysis.inline_cost import get_inline_params
from llvmpy_mid.analysis.inline_order import PRIORITY_MODES, PriorityInlineOrder, priority_functions
from llvmpy_mid.ipo.inliner import NUM_DELETED, NUM_INLINED, _history_includes, _inline
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.transform.utils.call_promotion_utils import try_promote_call


class ModuleInlinerPass(Pass[Module]):
    """LLVM ``ModuleInlinerPass`` (``module-inline``)."""

    @property
    def log_name(self) -> str:
        return "ModuleInlinerPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.lazy_call_graph import is_known_lib_function
        from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryAnalysis
        from llvmpy_mid.ir.dead_constants import remove_dead_constant_users

        from llvmpy_mid.analysis.inline_cost import option_str
        from llvmpy_mid.errors import PipelineError

        mode = option_str("inline-priority-mode")
        if mode not in PRIORITY_MODES:
            raise PipelineError("for the --inline-priority-mode option: Cannot find option named '%s'!" % mode)
        if not am.is_registered(InlineAdvisorAnalysis):
            am.register(InlineAdvisorAnalysis())
        result = am.get_result(InlineAdvisorAnalysis, unit)
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        if result.advisor is None or result.advisor.fam is not fam:
            result.advisor = InlineAdvisor(unit, fam, get_inline_params(), "module-inline")
        advisor = result.advisor
        advisor.psi = (
            am.get_cached_result(ProfileSummaryAnalysis, unit) if am.is_registered(ProfileSummaryAnalysis) else None
        )
        calls = PriorityInlineOrder(*priority_functions(mode, advisor.get_inline_cost_of))
        for fn in list(unit.functions):
            for bb in fn.blocks:
                for inst in bb.instructions:
                    if not isinstance(inst, CallBase):
                        continue
                    callee = inst.called_function
                    if callee is None:
                        continue
                    if not callee.is_declaration:
                        calls.push(inst, -1)
                    elif not (inst.opcode == "call" and inst.is_intrinsic_call):
                        set_inline_remark(inst, "unavailable definition")
        if not len(calls):
            return PreservedAnalyses.all()
        history: list[tuple[Function, int]] = []
        dead: list[Function] = []
        changed = False
        while len(calls):
            call, history_id = calls.pop()
            callee = call.called_function
            if callee is None or call.parent is None:
                continue
            if history_id != -1 and _history_includes(callee, history_id, history):
                set_inline_remark(call, "recursive")
                continue
            advice = advisor.get_advice(call, False)
            if not advice.is_inlining_recommended:
                advice.record_unattempted_inlining()
                continue
            outcome, ifi = _inline(call, fam, advisor.psi)
            if not outcome.success:
                advice.record_unsuccessful_inlining(outcome)
                continue
            changed = True
            NUM_INLINED.add()
            new_sites: list[CallBase] = list(ifi.inlined_call_sites)
            if new_sites:
                new_history = len(history)
                history.append((callee, history_id))
                for icb in reversed(new_sites):
                    new_callee = icb.called_function
                    if new_callee is None and try_promote_call(icb):
                        new_callee = icb.called_function
                    if new_callee is not None and not new_callee.is_declaration:
                        calls.push(icb, new_history)
            deleted = False
            if callee.has_local_linkage:
                remove_dead_constant_users(callee)
                if callee._use_head is None and not is_known_lib_function(callee, unit):
                    gone = callee
                    calls.erase_if(lambda entry: entry[0].function is gone)
                    callee.drop_all_references()
                    dead.append(callee)
                    deleted = True
            if deleted:
                advice.record_inlining_with_callee_deleted()
            else:
                advice.record_inlining()
        for fn in dead:
            fam.clear(fn)
            if fn.parent is not None and fn._use_head is None:
                fn.erase_from_parent()
            NUM_DELETED.add()
        if not changed:
            return PreservedAnalyses.all()
        return PreservedAnalyses.none()
