"""The inliner's cost model: parameters, the ``InlineCost`` verdict and the entry points
(LLVM 19.1.7 ``lib/Analysis/InlineCost.cpp``, ``include/llvm/Analysis/InlineCost.h``).

What: :func:`get_inline_params` builds LLVM's ``InlineParams`` from the ``-inline-*``
options (default threshold 225, ``-inline-threshold``, ``-inlinedefault-threshold``,
``-inlinehint-threshold``, ``-inline-cold-callsite-threshold``, ...);
:func:`get_attribute_based_inlining_decision` is the attribute verdict (``alwaysinline``,
``noinline``, ``optnone``, incompatible attributes, interposable callees, byval in a
non-alloca address space); :func:`get_inline_cost` runs it and then the call-site cost
analysis of :mod:`.inline_cost_analyzer`; :func:`get_callsite_cost` is the bonus for the
call instruction and its argument setup.

What it does not do: the ML feature analyzer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import attrs

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.types import PointerType

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
    from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo
    from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo

INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1

# LLVM's InlineConstants.
OPT_SIZE_THRESHOLD = 50
OPT_MIN_SIZE_THRESHOLD = 5
OPT_AGGRESSIVE_THRESHOLD = 250
INDIRECT_CALL_THRESHOLD = 100
LOOP_PENALTY = 25
LAST_CALL_TO_STATIC_BONUS = 15000
COLDCC_PENALTY = 2000
TOTAL_ALLOCA_SIZE_RECURSIVE_CALLER = 1024
MAX_SIMPLIFIED_DYNAMIC_ALLOCA_TO_INLINE = 65536
FUNCTION_INLINE_COST_MULTIPLIER_ATTRIBUTE_NAME = "function-inline-cost-multiplier"
MAX_INLINE_STACK_SIZE_ATTRIBUTE_NAME = "inline-max-stacksize"
COLD_CALLING_CONV = 9


def option_int(name: str) -> int:
    """The integer value of a registered ``-inline-*`` option."""
    from llvmpy_mid.passes.options import OPTIONS

    value = OPTIONS.value(name)
    assert isinstance(value, int)
    return int(value)


def option_bool(name: str) -> bool:
    from llvmpy_mid.passes.options import OPTIONS

    return bool(OPTIONS.value(name))


def option_str(name: str) -> str:
    from llvmpy_mid.passes.options import OPTIONS

    return str(OPTIONS.value(name))


def option_is_set(name: str) -> bool:
    from llvmpy_mid.passes.options import OPTIONS

    return OPTIONS.is_set(name)


def instr_cost() -> int:
    """``-inline-instr-cost`` (LLVM ``InlineConstants::getInstrCost``)."""
    return option_int("inline-instr-cost")


@attrs.define(slots=True)
class InlineParams:
    """LLVM ``InlineParams``: the thresholds one inlining session uses."""

    default_threshold: int = -1
    hint_threshold: int | None = None
    cold_threshold: int | None = None
    opt_size_threshold: int | None = None
    opt_min_size_threshold: int | None = None
    hot_call_site_threshold: int | None = None
    locally_hot_call_site_threshold: int | None = None
    cold_call_site_threshold: int | None = None
    compute_full_inline_cost: bool | None = None
    enable_deferral: bool | None = None
    allow_recursive_call: bool | None = False


def get_inline_params(threshold: int | None = None) -> InlineParams:
    """LLVM ``getInlineParams(Threshold)`` (no argument: ``-inlinedefault-threshold``)."""
    if threshold is None:
        threshold = option_int("inlinedefault-threshold")
    params = InlineParams()
    params.default_threshold = option_int("inline-threshold") if option_is_set("inline-threshold") else threshold
    params.hint_threshold = option_int("inlinehint-threshold")
    params.hot_call_site_threshold = option_int("hot-callsite-threshold")
    if option_is_set("locally-hot-callsite-threshold"):
        params.locally_hot_call_site_threshold = option_int("locally-hot-callsite-threshold")
    params.cold_call_site_threshold = option_int("inline-cold-callsite-threshold")
    if not option_is_set("inline-threshold"):
        params.opt_min_size_threshold = OPT_MIN_SIZE_THRESHOLD
        params.opt_size_threshold = OPT_SIZE_THRESHOLD
        params.cold_threshold = option_int("inlinecold-threshold")
    elif option_is_set("inlinecold-threshold"):
        params.cold_threshold = option_int("inlinecold-threshold")
    return params


def get_inline_params_for_levels(opt_level: int, size_opt_level: int) -> InlineParams:
    """LLVM ``getInlineParams(OptLevel, SizeOptLevel)``."""
    if opt_level > 2:
        threshold = OPT_AGGRESSIVE_THRESHOLD
    elif size_opt_level == 1:
        threshold = OPT_SIZE_THRESHOLD
    elif size_opt_level == 2:
        threshold = OPT_MIN_SIZE_THRESHOLD
    else:
        threshold = option_int("inlinedefault-threshold")
    params = get_inline_params(threshold)
    if opt_level > 2:
        params.locally_hot_call_site_threshold = option_int("locally-hot-callsite-threshold")
    return params


@attrs.frozen
class InlineCost:
    """LLVM ``InlineCost``: a cost against a threshold, or always/never with a reason."""

    cost: int = 0
    threshold: int = 0
    static_bonus_applied: int = 0
    reason: str | None = None
    cost_benefit: tuple[int, int] | None = None
    """(runtime size, cycle savings) of a decision the cost-benefit analysis made (LLVM ``CostBenefitPair``)."""

    @staticmethod
    def get(cost: int, threshold: int, static_bonus: int = 0) -> InlineCost:
        return InlineCost(cost, threshold, static_bonus)

    @staticmethod
    def always(reason: str) -> InlineCost:
        return InlineCost(INT_MIN, 0, 0, reason)

    @staticmethod
    def never(reason: str) -> InlineCost:
        return InlineCost(INT_MAX, 0, 0, reason)

    @property
    def is_always(self) -> bool:
        return self.cost == INT_MIN

    @property
    def is_never(self) -> bool:
        return self.cost == INT_MAX

    @property
    def is_variable(self) -> bool:
        return not self.is_always and not self.is_never

    def __bool__(self) -> bool:
        """Inlining is recommended (cost below threshold)."""
        return self.cost < self.threshold

    @property
    def cost_delta(self) -> int:
        return self.threshold - self.cost


def inline_cost_str(ic: InlineCost) -> str:
    """LLVM ``inlineCostStr``: ``(cost=N, threshold=M)``, ``(cost=always)`` or
    ``(cost=never)``, then ``: reason`` when there is one."""
    if ic.is_always:
        text = "(cost=always)"
    elif ic.is_never:
        text = "(cost=never)"
    else:
        text = "(cost=%d, threshold=%d)" % (ic.cost, ic.threshold)
    if ic.reason is not None:
        text += ": " + ic.reason
    return text


def string_fn_attr_as_int(call: CallBase | Function, key: str) -> int | None:
    """LLVM ``getStringFnAttrAsInt``: a string function attribute read as a decimal int."""
    attr = call.get_fn_attr(key) if isinstance(call, CallBase) else call.attributes.get_fn_attr(key)
    if attr is None:
        return None
    text = attr.value
    body = text[1:] if text.startswith("-") else text
    if not body or not body.isdigit():
        return None
    value = int(text)
    if value < INT_MIN or value > INT_MAX:
        return None
    return value


def live_use_count(fn: Function, limit: int = 2) -> int:
    """How many uses ``fn`` has, not counting dead constant users (up to ``limit``)."""
    from llvmpy_mid.analysis.code_metrics import constant_is_dead
    from llvmpy_mid.ir.global_value import GlobalValue

    count = 0
    for use in fn.uses:
        user = use.user
        if user.is_constant and not isinstance(user, GlobalValue) and constant_is_dead(user):
            continue
        count += 1
        if count >= limit:
            break
    return count


def is_sole_call_to_local_function(call: CallBase, callee: Function) -> bool:
    """The call is the one live use of the local function ``callee``."""
    return callee.has_local_linkage and live_use_count(callee) == 1 and call.called_function is callee


def has_min_size(fn: Function) -> bool:
    return fn.attributes.has_fn_attr("minsize")


def has_opt_size(fn: Function) -> bool:
    return fn.attributes.has_fn_attr("optsize") or has_min_size(fn)


def get_callsite_cost(tti: TargetTransformInfo, call: CallBase) -> int:
    """LLVM ``getCallsiteCost``: one instruction per argument (byval: a load and a store
    per pointer-sized word, at most 8), one for the call, plus the call penalty."""
    from llvmpy_mid.analysis.inline_cost_target import get_inline_call_penalty

    fn = call.function
    assert fn is not None and fn.parent is not None
    dl = fn.parent.data_layout
    unit = instr_cost()
    cost = 0
    for i in range(call.arg_size):
        byval = call.attributes.param_type_attr(i, "byval")
        if byval is None:
            callee = call.called_function
            if callee is not None and i < len(callee.args):
                byval = callee.attributes.param_type_attr(i, "byval")
        if byval is not None:
            pty = call.get_arg(i).type
            space = pty.address_space if isinstance(pty, PointerType) else 0
            type_size = dl.type_size_in_bits(byval)
            pointer_size = dl.pointer_size_in_bits(space)
            stores = min((type_size + pointer_size - 1) // pointer_size, 8)
            cost += 2 * stores * unit
        else:
            cost += unit
    cost += unit
    cost += get_inline_call_penalty(tti, fn, call, option_int("inline-call-penalty"))
    return min(cost, INT_MAX)


def get_inlining_cost_estimate(
    call: CallBase,
    tti: TargetTransformInfo,
    get_ac: Callable[[Function], AssumptionCache],
    get_bfi: Callable[[Function], BlockFrequencyInfo] | None = None,
) -> int | None:
    """LLVM ``getInliningCostEstimate``: the full cost with a zero threshold, ignoring it."""
    from llvmpy_mid.analysis.inline_cost_analyzer import InlineCostCallAnalyzer

    callee = call.called_function
    if callee is None:
        return None
    params = InlineParams(default_threshold=0, compute_full_inline_cost=True, enable_deferral=True)
    ca = InlineCostCallAnalyzer(callee, call, params, tti, get_ac, get_bfi, None, None, True, True)
    ok, _ = ca.analyze()
    return ca.cost if ok else None


__all__ = [
    "InlineCost",
    "InlineParams",
    "get_callsite_cost",
    "get_inline_params",
    "get_inline_params_for_levels",
    "get_inlining_cost_estimate",
    "inline_cost_str",
]
