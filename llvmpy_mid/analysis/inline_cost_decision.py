"""The inliner's verdict on one call site (LLVM 19.1.7 ``lib/Analysis/InlineCost.cpp``:
``getAttributeBasedInliningDecision`` and ``getInlineCost``).

What: :func:`get_attribute_based_inlining_decision` is the attribute verdict
(``alwaysinline`` with a viable callee, ``noinline`` on the callee or the call,
``optnone`` callers, attributes that conflict, interposable callees, null-pointer
validity, byval arguments outside the alloca address space, unsplit coroutines);
:func:`get_inline_cost` returns it as an always/never cost, else runs
:class:`~.inline_cost_analyzer.InlineCostCallAnalyzer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.inline_cost import InlineCost, InlineParams
from llvmpy_mid.ir.function import Function, null_pointer_is_defined
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.types import PointerType

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
    from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo
    from llvmpy_mid.analysis.inline_viability import InlineResult
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo


def get_attribute_based_inlining_decision(
    call: CallBase,
    callee: Function | None,
    tti: TargetTransformInfo,
    get_tli: Callable[[Function], TargetLibraryInfo],
) -> InlineResult | None:
    """LLVM ``getAttributeBasedInliningDecision``: success for an always-inline call
    whose callee is viable, a failure for calls that must not be inlined, None when the
    cost analysis decides."""
    from llvmpy_mid.analysis.inline_cost_target import functions_have_compatible_attributes
    from llvmpy_mid.analysis.inline_viability import InlineResult, is_inline_viable

    if callee is None:
        return InlineResult(False, "indirect call")
    if callee.attributes.has_fn_attr("presplitcoroutine"):
        return InlineResult(False, "unsplited coroutine call")
    module = callee.parent
    alloca_space = module.data_layout.alloca_addr_space if module is not None else 0
    for i in range(call.arg_size):
        if call.param_has_attr(i, "byval"):
            pty = call.get_arg(i).type
            if isinstance(pty, PointerType) and pty.address_space != alloca_space:
                return InlineResult(False, "byval arguments without alloca address space")
    if call.has_fn_attr("alwaysinline"):
        if call.attributes.has_fn_attr("noinline"):
            return InlineResult(False, "noinline call site attribute")
        viable = is_inline_viable(callee)
        if viable.success:
            return InlineResult(True)
        return InlineResult(False, viable.message)
    caller = call.function
    assert caller is not None
    if not functions_have_compatible_attributes(caller, callee, tti, get_tli):
        return InlineResult(False, "conflicting attributes")
    if caller.attributes.has_fn_attr("optnone"):
        return InlineResult(False, "optnone attribute")
    if not null_pointer_is_defined(caller) and null_pointer_is_defined(callee):
        return InlineResult(False, "nullptr definitions incompatible")
    if callee.is_interposable:
        return InlineResult(False, "interposable")
    if callee.attributes.has_fn_attr("noinline"):
        return InlineResult(False, "noinline function attribute")
    if call.is_no_inline:
        return InlineResult(False, "noinline call site attribute")
    return None


def get_inline_cost(
    call: CallBase,
    params: InlineParams,
    tti: TargetTransformInfo,
    get_ac: Callable[[Function], AssumptionCache],
    get_tli: Callable[[Function], TargetLibraryInfo],
    get_bfi: Callable[[Function], BlockFrequencyInfo] | None = None,
    psi: ProfileSummaryInfo | None = None,
    ore: OptimizationRemarkEmitter | None = None,
    callee: Function | None = None,
) -> InlineCost:
    """LLVM ``getInlineCost``: the attribute verdict, else the call-site analysis."""
    from llvmpy_mid.analysis.inline_cost_analyzer import InlineCostCallAnalyzer

    if callee is None:
        callee = call.called_function
    decision = get_attribute_based_inlining_decision(call, callee, tti, get_tli)
    if decision is not None:
        if decision.success:
            return InlineCost.always("always inline attribute")
        return InlineCost.never(decision.message)
    assert callee is not None
    ca = InlineCostCallAnalyzer(callee, call, params, tti, get_ac, get_bfi, psi, ore)
    ok, reason = ca.analyze()
    if ca.decided_by_cost_benefit:
        ic = InlineCost.always("benefit over cost") if ok else InlineCost.never("cost over benefit")
        return InlineCost(ic.cost, ic.threshold, ic.static_bonus_applied, ic.reason, ca.cost_benefit_pair)
    if ca.decided_by_cost_threshold:
        return InlineCost.get(ca.cost, ca.threshold, ca.static_bonus_applied)
    if ok:
        return InlineCost.always("empty function")
    return InlineCost.never(reason)
