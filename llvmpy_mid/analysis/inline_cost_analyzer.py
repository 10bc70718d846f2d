"""The call-site cost analysis of the inliner (LLVM 19.1.7 ``lib/Analysis/InlineCost.cpp``:
``CallAnalyzer`` and ``InlineCostCallAnalyzer``).

What: :class:`InlineCostCallAnalyzer` walks the callee as it would look inlined at one
call site. Arguments that are constants, or pointers at a constant offset from a base
(allocas of the caller: SROA candidates), are propagated through the body: instructions
that fold (constant folding, InstSimplify on binary operators, pointer compares and
differences of one base, ``llvm.is.constant``, ``llvm.objectsize``, calls that fold)
cost nothing, branches and switches on folded conditions only make their live successor
reachable and the blocks left without a live edge are dead (never costed). Every other
instruction costs ``-inline-instr-cost`` (5) unless the target calls it free; calls add
the argument setup and the call penalty; switches their expected compare tree or jump
table; loads repeated without an intervening store are counted as eliminated; uses of
an SROA-able alloca that SROA could not handle give back the savings. The threshold
starts from the parameters, adjusted by the caller's size attributes, the callee's
``inlinehint``, hot/cold call sites (cold: block frequency under 2% of the caller's
entry) and gets the speculative single-block (50%) and vector (150%) bonuses, withdrawn
when the body has several live blocks or few vector instructions; the last call to a
local function gets the 15000 bonus. The walk stops once the cost reaches the threshold
(unless the full cost is wanted) and fails on patterns that cannot be inlined
(recursion, returns_twice, dynamic allocas, indirectbr, localescape, va_start).

With an instrumentation profile summary, hot call sites whose caller and callee have
entry counts are decided by the cost-benefit analysis instead (cycle savings weighted by
block counts against the size).

What it does not do: target-specific switch lowering (jump tables, bit tests) or
inlining-threshold adjustments; the ML feature analyzer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from llvmpy_mid.analysis.inline_cost import (
    COLD_CALLING_CONV,
    COLDCC_PENALTY,
    FUNCTION_INLINE_COST_MULTIPLIER_ATTRIBUTE_NAME,
    INDIRECT_CALL_THRESHOLD,
    INT_MAX,
    INT_MIN,
    LAST_CALL_TO_STATIC_BONUS,
    LOOP_PENALTY,
    MAX_INLINE_STACK_SIZE_ATTRIBUTE_NAME,
    MAX_SIMPLIFIED_DYNAMIC_ALLOCA_TO_INLINE,
    InlineParams,
    get_callsite_cost,
    has_min_size,
    has_opt_size,
    instr_cost,
    is_sole_call_to_local_function,
    option_bool,
    option_int,
    option_is_set,
    string_fn_attr_as_int,
)
from llvmpy_mid.analysis.inline_cost_target import (
    adjust_inlining_threshold,
    get_caller_alloca_cost,
    get_estimated_number_of_case_clusters,
    get_inline_call_penalty,
    get_inliner_vector_bonus_percent,
    get_inlining_threshold_multiplier,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import BlockAddress, Constant, ConstantInt, ConstantPointerNull
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalAlias
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.types import IntegerType, PointerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value

from llvmpy_mid.analysis.address_taken import ASSUME_LIKE_INTRINSICS

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo
    from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo

_DEBUG_OR_PSEUDO = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.label", "llvm.dbg.assign", "llvm.pseudoprobe"))
_FP_BINOPS = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem"))
_BINOPS = frozenset(
    ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor") + tuple(_FP_BINOPS)
)
_OTHER_CASTS = frozenset(("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp", "addrspacecast"))

_U64 = (1 << 64) - 1

BaseOffset = tuple[Value, int, int]
"""A pointer's base, its constant offset and the offset's bit width."""


def _intrinsic_base(call: CallBase) -> str | None:
    if isinstance(call, CallInst) and call.is_intrinsic_call:
        return call.intrinsic_base
    return None


def _wrap(value: int, width: int) -> int:
    value &= (1 << width) - 1
    if value >> (width - 1):
        value -= 1 << width
    return value


def _icmp_compare(pred: str, a: int, b: int, width: int) -> bool:
    mask = (1 << width) - 1
    ua, ub = a & mask, b & mask
    sa, sb = _wrap(a, width), _wrap(b, width)
    if pred == "eq":
        return ua == ub
    if pred == "ne":
        return ua != ub
    if pred == "ugt":
        return ua > ub
    if pred == "uge":
        return ua >= ub
    if pred == "ult":
        return ua < ub
    if pred == "ule":
        return ua <= ub
    if pred == "sgt":
        return sa > sb
    if pred == "sge":
        return sa >= sb
    if pred == "slt":
        return sa < sb
    return sa <= sb


class InlineCostCallAnalyzer:
    """The cost of inlining ``callee`` at ``call`` against a threshold (see the module
    docstring). :meth:`analyze` returns ``(success, failure reason)``."""

    def __init__(
        self,
        callee: Function,
        call: CallBase,
        params: InlineParams,
        tti: TargetTransformInfo,
        get_ac: Callable[[Function], AssumptionCache] | None,
        get_bfi: Callable[[Function], BlockFrequencyInfo] | None = None,
        psi: ProfileSummaryInfo | None = None,
        ore: OptimizationRemarkEmitter | None = None,
        boost_indirect: bool = True,
        ignore_threshold: bool = False,
        record_details: bool = False,
    ) -> None:
        self.f = callee
        self.call = call
        self.params = params
        self.tti = tti
        self.get_ac = get_ac
        self.get_bfi = get_bfi
        self.psi = psi
        self.ore = ore
        module = callee.parent
        assert module is not None
        self.dl = module.data_layout
        self.instr_cost = instr_cost()
        self.call_penalty = option_int("inline-call-penalty")
        self.cost_benefit_enabled = self._is_cost_benefit_analysis_enabled()
        self.compute_full_inline_cost = bool(
            option_bool("inline-cost-full")
            or params.compute_full_inline_cost
            or ore is not None
            or self.cost_benefit_enabled
        )
        self.decided_by_cost_benefit = False
        self.cost_benefit_pair: tuple[int, int] | None = None
        """(runtime size, cycle savings) once the cost-benefit analysis got that far (LLVM ``CostBenefit``)."""
        self.cold_size = 0
        self.boost_indirect_calls = boost_indirect
        self.ignore_threshold = ignore_threshold
        self.allow_recursive_call = bool(params.allow_recursive_call)
        self.threshold = params.default_threshold
        self.cost = 0
        self.static_bonus_applied = 0
        self.load_elimination_cost = 0
        self.vector_bonus = 0
        self.single_bb_bonus = 0
        self.single_bb = True
        self.decided_by_cost_threshold = False
        self.sroa_cost_savings = 0
        self.sroa_cost_savings_lost = 0
        self.sroa_arg_costs: dict[AllocaInst, int] = {}
        # CallAnalyzer state.
        self.is_caller_recursive = False
        self.is_recursive_call = False
        self.exposes_returns_twice = False
        self.has_dynamic_alloca = False
        self.contains_no_duplicate_call = False
        self.has_return = False
        self.has_indirect_br = False
        self.has_uninlineable_intrinsic = False
        self.inits_varg_args = False
        self.allocated_size = 0
        self.num_instructions = 0
        self.num_vector_instructions = 0
        self.simplified_values: dict[Value, Constant] = {}
        self.sroa_arg_values: dict[Value, AllocaInst] = {}
        self.enabled_sroa_allocas: set[AllocaInst] = set()
        self.constant_offset_ptrs: dict[Value, BaseOffset] = {}
        self.dead_blocks: set[BasicBlock] = set()
        self.known_successors: dict[BasicBlock, BasicBlock] = {}
        self.enable_load_elimination = True
        self.load_addr_set: set[Value] = set()
        self.num_constant_args = 0
        self.num_constant_offset_ptr_args = 0
        self.num_alloca_args = 0
        self.num_constant_ptr_cmps = 0
        self.num_constant_ptr_diffs = 0
        self.num_instructions_simplified = 0
        self.record_details = record_details
        self.details: dict[Instruction, tuple[int, int, int, int]] = {}

    # --- cost bookkeeping -----------------------------------------------------------------
    def add_cost(self, inc: int) -> None:
        inc = max(INT_MIN, min(INT_MAX, inc))
        self.cost = max(INT_MIN, min(INT_MAX, self.cost + inc))

    def _sroa_arg(self, v: Value) -> AllocaInst | None:
        a = self.sroa_arg_values.get(v)
        if a is None or a not in self.enabled_sroa_allocas:
            return None
        return a

    def _disable_sroa_for_arg(self, arg: AllocaInst) -> None:
        saved = self.sroa_arg_costs.pop(arg, None)
        if saved is not None:
            self.add_cost(saved)
            self.sroa_cost_savings -= saved
            self.sroa_cost_savings_lost += saved
        self.enabled_sroa_allocas.discard(arg)
        self._disable_load_elimination()

    def _disable_sroa(self, v: Value) -> None:
        a = self._sroa_arg(v)
        if a is not None:
            self._disable_sroa_for_arg(a)

    def _handle_sroa(self, v: Value, do_not_disable: bool) -> bool:
        a = self._sroa_arg(v)
        if a is not None:
            if do_not_disable:
                self.sroa_arg_costs[a] = self.sroa_arg_costs.get(a, 0) + self.instr_cost
                self.sroa_cost_savings += self.instr_cost
                return True
            self._disable_sroa_for_arg(a)
        return False

    def _disable_load_elimination(self) -> None:
        if self.enable_load_elimination:
            self.add_cost(self.load_elimination_cost)
            self.load_elimination_cost = 0
            self.enable_load_elimination = False

    def _const(self, v: Value) -> Constant | None:
        if isinstance(v, Constant):
            return v
        return self.simplified_values.get(v)

    # --- threshold ------------------------------------------------------------------------
    def _allow_size_growth(self) -> bool:
        call = self.call
        if call.opcode == "invoke":
            term = call.normal_dest.terminator  # type: ignore[attr-defined]
        else:
            term = call.parent.terminator if call.parent is not None else None
        return not (term is not None and term.opcode == "unreachable")

    def _is_cold_call_site(self, caller_bfi: BlockFrequencyInfo | None) -> bool:
        if self.psi is not None and self.psi.has_profile_summary:
            return self.psi.is_cold_call_site(self.call, caller_bfi)
        if caller_bfi is None:
            return False
        caller = self.call.function
        assert caller is not None and self.call.parent is not None
        site = caller_bfi.frequency(self.call.parent)
        entry = caller_bfi.frequency(caller.entry_block)
        rel = option_int("cold-callsite-rel-freq")
        numerator = (rel * (1 << 31) + 50) // 100
        return site < (entry * numerator) >> 31

    def _hot_call_site_threshold(self, caller_bfi: BlockFrequencyInfo | None) -> int | None:
        psi = self.psi
        if psi is not None and psi.has_profile_summary and psi.is_hot_call_site(self.call, caller_bfi):
            return self.params.hot_call_site_threshold
        if caller_bfi is None or self.params.locally_hot_call_site_threshold is None:
            return None
        caller = self.call.function
        assert caller is not None and self.call.parent is not None
        site = caller_bfi.frequency(self.call.parent)
        limit = caller_bfi.frequency(caller.entry_block) * option_int("hot-callsite-rel-freq")
        if limit <= _U64 and site >= limit:
            return self.params.locally_hot_call_site_threshold
        return None

    def _update_threshold(self) -> None:
        if not self._allow_size_growth():
            self.threshold = 0
            return
        caller = self.call.function
        assert caller is not None
        params = self.params
        single_bb_percent = 50
        vector_percent = get_inliner_vector_bonus_percent(self.tti)
        last_call_bonus = LAST_CALL_TO_STATIC_BONUS
        if has_min_size(caller):
            if params.opt_min_size_threshold is not None:
                self.threshold = min(self.threshold, params.opt_min_size_threshold)
            single_bb_percent = 0
            vector_percent = 0
        elif has_opt_size(caller) and params.opt_size_threshold is not None:
            self.threshold = min(self.threshold, params.opt_size_threshold)
        if not has_min_size(caller):
            if self.f.attributes.has_fn_attr("inlinehint") and params.hint_threshold is not None:
                self.threshold = max(self.threshold, params.hint_threshold)
            caller_bfi = self.get_bfi(caller) if self.get_bfi is not None else None
            hot = self._hot_call_site_threshold(caller_bfi)
            if not has_opt_size(caller) and hot is not None:
                self.threshold = hot
            elif self._is_cold_call_site(caller_bfi):
                single_bb_percent = vector_percent = last_call_bonus = 0
                if params.cold_call_site_threshold is not None:
                    self.threshold = min(self.threshold, params.cold_call_site_threshold)
            elif self.psi is not None:
                if self.psi.is_function_entry_hot(self.f):
                    if params.hint_threshold is not None:
                        self.threshold = max(self.threshold, params.hint_threshold)
                elif self.psi.is_function_entry_cold(self.f):
                    single_bb_percent = vector_percent = last_call_bonus = 0
                    if params.cold_threshold is not None:
                        self.threshold = min(self.threshold, params.cold_threshold)
        self.threshold += adjust_inlining_threshold(self.tti, self.call)
        self.threshold *= get_inlining_threshold_multiplier(self.tti)
        self.single_bb_bonus = _cdiv(self.threshold * single_bb_percent, 100)
        self.vector_bonus = _cdiv(self.threshold * vector_percent, 100)
        if is_sole_call_to_local_function(self.call, self.f):
            self.cost -= last_call_bonus
            self.static_bonus_applied = last_call_bonus

    def _on_analysis_start(self) -> tuple[bool, str]:
        self._update_threshold()
        self.threshold += self.single_bb_bonus + self.vector_bonus
        self.add_cost(-get_callsite_cost(self.tti, self.call))
        if self.f.calling_conv == COLD_CALLING_CONV:
            self.cost += COLDCC_PENALTY
        if self.cost >= self.threshold and not self.compute_full_inline_cost:
            return False, "high cost"
        return True, ""

    def _should_stop(self) -> bool:
        if self.ignore_threshold or self.compute_full_inline_cost:
            return False
        if self.cost < self.threshold:
            return False
        self.decided_by_cost_threshold = True
        return True

    def _finalize_analysis(self) -> tuple[bool, str]:
        caller = self.call.function
        assert caller is not None
        if has_min_size(caller):
            from llvmpy_mid.analysis.loop_info import LoopInfo
            from llvmpy_mid.ir.dominators import DominatorTree

            li = LoopInfo(self.f, DominatorTree(self.f))
            loops = sum(1 for loop in li.top_level_loops if loop.header not in self.dead_blocks)
            self.add_cost(loops * LOOP_PENALTY)
        if self.num_vector_instructions <= self.num_instructions // 10:
            self.threshold -= self.vector_bonus
        elif self.num_vector_instructions <= self.num_instructions // 2:
            self.threshold -= _cdiv(self.vector_bonus, 2)
        attr_cost = string_fn_attr_as_int(self.call, "function-inline-cost")
        if attr_cost is not None:
            self.cost = attr_cost
        mult = string_fn_attr_as_int(self.call, FUNCTION_INLINE_COST_MULTIPLIER_ATTRIBUTE_NAME)
        if mult is not None:
            self.cost = _wrap(self.cost * mult, 32)
        attr_threshold = string_fn_attr_as_int(self.call, "function-inline-threshold")
        if attr_threshold is not None:
            self.threshold = attr_threshold
        decision = self._cost_benefit_analysis()
        if decision is not None:
            self.decided_by_cost_benefit = True
            return (True, "") if decision else (False, "Cost over threshold.")
        if self.ignore_threshold:
            return True, ""
        self.decided_by_cost_threshold = True
        if self.cost < max(1, self.threshold):
            return True, ""
        return False, "Cost over threshold."

    # --- cost-benefit analysis (profile driven) -------------------------------------------------
    def _block_profile_count(self, fn: Function, bb: BasicBlock) -> int | None:
        from llvmpy_mid.analysis.block_frequency_printers import function_entry_count, profile_count

        if self.get_bfi is None:
            return None
        entry = function_entry_count(fn)
        if entry is None:
            return None
        bfi = self.get_bfi(fn)
        return profile_count(entry, bfi.frequency(bb), bfi.frequency(fn.entry_block))

    def _is_cost_benefit_analysis_enabled(self) -> bool:
        from llvmpy_mid.analysis.block_frequency_printers import function_entry_count

        psi = self.psi
        if psi is None or not psi.has_profile_summary or self.get_bfi is None:
            return False
        if option_is_set("inline-enable-cost-benefit-analysis"):
            if not option_bool("inline-enable-cost-benefit-analysis"):
                return False
        elif psi.format != "InstrProf":
            return False
        caller = self.call.function
        if caller is None or function_entry_count(caller) is None:
            return False
        if not psi.is_hot_call_site(self.call, self.get_bfi(caller)):
            return False
        return bool(function_entry_count(self.f))

    def _cost_benefit_analysis(self) -> bool | None:
        """LLVM ``costBenefitAnalysis``: True (inline), False (do not), None (undecided)."""
        from llvmpy_mid.analysis.block_frequency_printers import function_entry_count

        if not self.cost_benefit_enabled or self.threshold == 0:
            return None
        psi = self.psi
        assert psi is not None
        unit = self.instr_cost
        savings = 0
        sv = self.simplified_values
        for bb in self.f.blocks:
            current = 0
            for inst in bb.instructions:
                if inst.opcode == "br":
                    if inst.is_conditional and isinstance(sv.get(inst.condition), ConstantInt):  # type: ignore[attr-defined]
                        current += unit
                elif inst.opcode == "switch":
                    if isinstance(sv.get(inst.operands[0]), ConstantInt):
                        current += unit
                elif inst in sv:
                    current += unit
            current *= self._block_profile_count(self.f, bb) or 0
            savings += current
        entry = function_entry_count(self.f) or 1
        savings = (savings + entry // 2) // entry
        caller = self.call.function
        assert caller is not None and self.call.parent is not None
        savings += get_callsite_cost(self.tti, self.call)
        savings *= self._block_profile_count(caller, self.call.parent) or 0
        size = self.cost - self.cold_size
        allowance = option_int("inline-size-allowance")
        size = size - allowance if size > allowance else 1
        forced_savings = string_fn_attr_as_int(self.call, "inline-cycle-savings-for-test")
        if forced_savings is not None:
            savings = forced_savings
        forced_size = string_fn_attr_as_int(self.call, "inline-runtime-cost-for-test")
        if forced_size is not None:
            size = forced_size
        self.cost_benefit_pair = (size, savings)
        hot = psi.hot_count_threshold if psi.hot_count_threshold is not None else (1 << 64) - 1
        threshold = hot * size
        savings_mult = option_int("inline-savings-multiplier") if option_is_set("inline-savings-multiplier") else 8
        profitable_mult = (
            option_int("inline-savings-profitable-multiplier") if option_is_set("inline-savings-profitable-multiplier") else 8
        )
        if savings * savings_mult >= threshold:
            return True
        if savings * profitable_mult < threshold:
            return False
        return None

    # --- the walk -------------------------------------------------------------------------
    def analyze(self) -> tuple[bool, str]:
        """LLVM ``CallAnalyzer::analyze``."""
        ok, reason = self._on_analysis_start()
        if not ok:
            return ok, reason
        f = self.f
        if f.is_declaration:
            return True, ""
        caller = self.call.function
        assert caller is not None
        for use in caller.uses:
            user = use.user
            if isinstance(user, CallBase) and user.function is caller:
                self.is_caller_recursive = True
                break
        for formal, actual in zip(f.args, self.call.args):
            if isinstance(actual, Constant):
                self.simplified_values[formal] = actual
            stripped = self._strip_and_compute_inbounds_offsets(actual)
            if stripped is not None:
                self.constant_offset_ptrs[formal] = stripped
                base = stripped[0]
                if isinstance(base, AllocaInst):
                    self.sroa_arg_values[formal] = base
                    saving = get_caller_alloca_cost(self.tti, self.call, base)
                    self.sroa_cost_savings += saving
                    self.sroa_arg_costs[base] = saving
                    self.enabled_sroa_allocas.add(base)
        self.num_constant_args = len(self.simplified_values)
        self.num_constant_offset_ptr_args = len(self.constant_offset_ptrs)
        self.num_alloca_args = len(self.sroa_arg_values)

        from llvmpy_mid.analysis.code_metrics import collect_ephemeral_values

        eph = collect_ephemeral_values(f, self.get_ac(f) if self.get_ac is not None else None)

        worklist: list[BasicBlock] = [f.entry_block]
        in_worklist: set[BasicBlock] = {f.entry_block}
        idx = 0
        while idx < len(worklist):
            if self._should_stop():
                break
            bb = worklist[idx]
            idx += 1
            if bb.instructions._first is None:
                continue
            if bb.has_address_taken:
                for user in bb.users:
                    if isinstance(user, BlockAddress):
                        for u2 in user.users:
                            if u2.opcode != "callbr" if isinstance(u2, Instruction) else True:
                                return False, "blockaddress used outside of callbr"
            cost_at_start = self.cost
            ok, reason = self._analyze_block(bb, eph)
            if not ok:
                return ok, reason
            term = bb.terminator
            assert term is not None
            next_bb: BasicBlock | None = None
            if term.opcode == "br" and term.is_conditional:  # type: ignore[attr-defined]
                cond = self.simplified_values.get(term.condition)  # type: ignore[attr-defined]
                if isinstance(cond, ConstantInt):
                    next_bb = term.successors[1 if cond.value == 0 else 0]
            elif term.opcode == "switch":
                cond = self.simplified_values.get(term.condition)  # type: ignore[attr-defined]
                if isinstance(cond, ConstantInt):
                    case = term.find_case_value(cond)  # type: ignore[attr-defined]
                    next_bb = term.default_dest if case is None else term.get_case_dest(case)  # type: ignore[attr-defined]
            if next_bb is not None:
                if next_bb not in in_worklist:
                    in_worklist.add(next_bb)
                    worklist.append(next_bb)
                self.known_successors[bb] = next_bb
                self._find_dead_blocks(bb, next_bb)
                continue
            for succ in term.successors:
                if succ not in in_worklist:
                    in_worklist.add(succ)
                    worklist.append(succ)
            if self.cost_benefit_enabled and self._block_profile_count(f, bb) == 0:
                self.cold_size += self.cost - cost_at_start
            if self.single_bb and len(term.successors) > 1:
                self.threshold -= self.single_bb_bonus
                self.single_bb = False

        if not is_sole_call_to_local_function(self.call, f) and self.contains_no_duplicate_call:
            return False, "noduplicate"
        stack_limit = option_int("inline-max-stacksize")
        if not option_is_set("inline-max-stacksize"):
            attr_limit = string_fn_attr_as_int(caller, MAX_INLINE_STACK_SIZE_ATTRIBUTE_NAME)
            if attr_limit is not None:
                stack_limit = attr_limit & _U64
        if self.allocated_size > stack_limit:
            return False, "stacksize"
        return self._finalize_analysis()

    def _find_dead_blocks(self, curr: BasicBlock, next_bb: BasicBlock) -> None:
        dead = self.dead_blocks
        known = self.known_successors

        def edge_dead(pred: BasicBlock, succ: BasicBlock) -> bool:
            k = known.get(pred)
            return pred in dead or (k is not None and k is not succ)

        def newly_dead(bb: BasicBlock) -> bool:
            return bb not in dead and all(edge_dead(p, bb) for p in bb.predecessors)

        for succ in curr.successors:
            if succ is next_bb or not newly_dead(succ):
                continue
            stack = [succ]
            while stack:
                d = stack.pop()
                if d in dead:
                    continue
                dead.add(d)
                for s in d.successors:
                    if newly_dead(s):
                        stack.append(s)

    def _analyze_block(self, bb: BasicBlock, eph: set[Value]) -> tuple[bool, str]:
        for inst in bb.instructions:
            if inst.opcode == "call":
                name = _intrinsic_base(inst)  # type: ignore[arg-type]
                if name is not None and name in _DEBUG_OR_PSEUDO:
                    continue
            if inst in eph:
                continue
            self.num_instructions += 1
            if inst.opcode == "extractelement" or isinstance(inst.type, VectorType):
                self.num_vector_instructions += 1
            before = (self.cost, self.threshold)
            if self._visit(inst):
                self.num_instructions_simplified += 1
            else:
                self.add_cost(self.instr_cost)
            if self.record_details:
                self.details[inst] = (before[0], self.cost, before[1], self.threshold)
            reason = ""
            if self.is_recursive_call and not self.allow_recursive_call:
                reason = "recursive"
            elif self.exposes_returns_twice:
                reason = "exposes returns twice"
            elif self.has_dynamic_alloca:
                reason = "dynamic alloca"
            elif self.has_indirect_br:
                reason = "indirect branch"
            elif self.has_uninlineable_intrinsic:
                reason = "uninlinable intrinsic"
            elif self.inits_varg_args:
                reason = "varargs"
            if reason:
                self._emit_never_inline(" has uninlinable pattern (", reason, ") and cost is not fully computed")
                return False, reason
            if self.is_caller_recursive and self.allocated_size > option_int("recursive-inline-max-stacksize"):
                reason = "recursive and allocates too much stack space"
                self._emit_never_inline(" is ", reason, ". Cost is not fully computed")
                return False, reason
            if self._should_stop():
                return False, "Call site analysis is not favorable to inlining."
        return True, ""

    def _emit_never_inline(self, before: str, reason: str, after: str) -> None:
        ore = self.ore
        if ore is None:
            return
        from llvmpy_mid.analysis.remark import optimization_remark_missed

        call, f = self.call, self.f
        ore.emit(
            lambda: optimization_remark_missed("inline-cost", "NeverInline", call)
            .add_arg("Callee", f)
            .add(before)
            .add_arg("InlineResult", reason)
            .add(after)
        )

    # --- pointers with constant offsets ------------------------------------------------------
    def _accumulate_gep_offset(self, gep: Value, offset: int) -> int | None:
        """The offset ``gep`` adds to ``offset`` when all its indices are (simplified to)
        constant integers, else None."""
        ops = gep.operands  # type: ignore[attr-defined]
        src: Type = gep.source_element_type  # type: ignore[attr-defined]
        cur: Type | None = None
        for i in range(1, len(ops)):
            if i == 2:
                cur = src
            elif i > 2:
                assert cur is not None
                if isinstance(cur, StructType):
                    prev = self._const(ops[i - 1])
                    assert isinstance(prev, ConstantInt)
                    cur = cur.elements[prev.value]
                else:
                    cur = cur.element_type  # type: ignore[attr-defined]
            op = ops[i]
            c = op if isinstance(op, ConstantInt) else self.simplified_values.get(op)
            if not isinstance(c, ConstantInt):
                return None
            if c.value == 0:
                continue
            if cur is not None and isinstance(cur, StructType):
                offset += self.dl.struct_layout(cur).element_offset(c.value)
                continue
            if cur is None:
                stride_ty = src
            else:
                stride_ty = cur.element_type  # type: ignore[attr-defined]
            if self.dl.is_scalable(stride_ty):
                return None
            stride = self.dl.type_store_size(stride_ty) if isinstance(cur, VectorType) else self.dl.type_alloc_size(stride_ty)
            offset += _wrap(c.value, c.type.width) * stride
        return offset

    def _strip_and_compute_inbounds_offsets(self, v: Value) -> BaseOffset | None:
        if not isinstance(v.type, PointerType):
            return None
        width = self.dl.index_size_in_bits(v.type.address_space)
        offset = 0
        seen: set[int] = {id(v)}
        while True:
            if _is_gep(v):
                if not _gep_inbounds(v):
                    return None
                acc = self._accumulate_gep_offset(v, offset)
                if acc is None:
                    return None
                offset = acc
                v = v.operands[0]  # type: ignore[attr-defined]
            elif isinstance(v, GlobalAlias):
                if v.is_interposable:
                    break
                v = v.aliasee
            else:
                break
            if id(v) in seen:
                break
            seen.add(id(v))
        iwidth = self.dl.index_type_size_in_bits(v.type)
        return (v, _wrap(offset, iwidth), iwidth)

    # --- the visitor ------------------------------------------------------------------------
    def _visit(self, inst: Instruction) -> bool:
        opcode = inst.opcode
        handler = _DISPATCH.get(opcode)
        if handler is not None:
            return handler(self, inst)
        if opcode in _BINOPS:
            if opcode == "sub" and self._visit_sub(inst):
                return True
            return self._visit_binary_operator(inst)
        if opcode in _OTHER_CASTS:
            return self._visit_cast(inst)
        return self._visit_instruction(inst)

    def _visit_instruction(self, inst: Instruction) -> bool:
        from llvmpy_mid.analysis.target_transform_info import TCK_SIZE_AND_LATENCY

        if self.tti.get_instruction_cost(inst, TCK_SIZE_AND_LATENCY) == 0:
            return True
        for op in inst.operands:
            self._disable_sroa(op)
        return False

    def _simplify_instruction(self, inst: Instruction) -> bool:
        from llvmpy_mid.analysis.constant_folding import constant_fold_inst_operands

        ops: list[Constant] = []
        for op in inst.operands:
            c = self._const(op)
            if c is None:
                return False
            ops.append(c)
        folded = constant_fold_inst_operands(inst, ops, self.dl)
        if folded is None:
            return False
        self.simplified_values[inst] = folded
        return True

    def _visit_alloca(self, inst: Instruction) -> bool:
        assert isinstance(inst, AllocaInst)
        self._disable_sroa(inst.operands[0])
        if inst.is_array_allocation:
            size = self.simplified_values.get(inst.array_size)
            if isinstance(size, ConstantInt):
                count = min(size.value, _U64)
                self.allocated_size = min(_U64, count * self.dl.type_alloc_size(inst.allocated_type) + self.allocated_size)
                if self.allocated_size > MAX_SIMPLIFIED_DYNAMIC_ALLOCA_TO_INLINE:
                    self.has_dynamic_alloca = True
                return False
        if inst.is_static_alloca:
            self.allocated_size = min(_U64, self.dl.type_alloc_size(inst.allocated_type) + self.allocated_size)
        else:
            self.has_dynamic_alloca = True
        return False

    def _visit_phi(self, inst: Instruction) -> bool:
        check_sroa = isinstance(inst.type, PointerType)
        first_c: Constant | None = None
        first_bo: BaseOffset | None = None
        first_v: Value | None = None
        parent = inst.parent
        for value, pred in inst.incoming:  # type: ignore[attr-defined]
            if pred in self.dead_blocks:
                continue
            known = self.known_successors.get(pred)
            if known is not None and known is not parent:
                continue
            if value is inst:
                continue
            c = self._const(value)
            bo: BaseOffset | None = None
            if c is None and check_sroa:
                bo = self.constant_offset_ptrs.get(value)
            if c is None and bo is None:
                return True
            if first_c is not None:
                if first_c is c:
                    continue
                return True
            if first_v is not None:
                if bo is not None and first_bo is not None and bo[0] is first_bo[0] and bo[1] == first_bo[1]:
                    continue
                return True
            if c is not None:
                first_c = c
                continue
            first_v = value
            first_bo = bo
        if first_c is not None:
            self.simplified_values[inst] = first_c
            return True
        if first_bo is not None:
            self.constant_offset_ptrs[inst] = first_bo
            assert first_v is not None
            a = self._sroa_arg(first_v)
            if a is not None:
                self.sroa_arg_values[inst] = a
        return True

    def _can_fold_inbounds_gep(self, inst: Instruction) -> bool:
        bo = self.constant_offset_ptrs.get(inst.operands[0])
        if bo is None:
            return False
        acc = self._accumulate_gep_offset(inst, bo[1])
        if acc is None:
            return False
        self.constant_offset_ptrs[inst] = (bo[0], _wrap(acc, bo[2]), bo[2])
        return True

    def _visit_gep(self, inst: Instruction) -> bool:
        ptr = inst.operands[0]
        sroa = self._sroa_arg(ptr)
        if not option_bool("disable-gep-const-evaluation") and self._simplify_instruction(inst):
            return True
        indices = inst.operands[1:]
        if (_gep_inbounds(inst) and self._can_fold_inbounds_gep(inst)) or all(
            isinstance(op, Constant) or op in self.simplified_values for op in indices
        ):
            if sroa is not None:
                self.sroa_arg_values[inst] = sroa
            return True
        if sroa is not None:
            self._disable_sroa_for_arg(sroa)
        mapped = [self.simplified_values.get(op, op) for op in indices]
        return self.tti.get_gep_cost(inst.source_element_type, ptr, mapped) == 0  # type: ignore[attr-defined]

    def _visit_bitcast(self, inst: Instruction) -> bool:
        if self._simplify_instruction(inst):
            return True
        op = inst.operands[0]
        bo = self.constant_offset_ptrs.get(op)
        if bo is not None:
            self.constant_offset_ptrs[inst] = bo
        a = self._sroa_arg(op)
        if a is not None:
            self.sroa_arg_values[inst] = a
        return True

    def _visit_ptrtoint(self, inst: Instruction) -> bool:
        if self._simplify_instruction(inst):
            return True
        op = inst.operands[0]
        ity = inst.type.scalar_type
        optype = op.type.scalar_type
        if isinstance(ity, IntegerType) and isinstance(optype, PointerType):
            if ity.width == self.dl.pointer_size_in_bits(optype.address_space):
                bo = self.constant_offset_ptrs.get(op)
                if bo is not None:
                    self.constant_offset_ptrs[inst] = bo
        a = self._sroa_arg(op)
        if a is not None:
            self.sroa_arg_values[inst] = a
        return self._tti_free(inst)

    def _visit_inttoptr(self, inst: Instruction) -> bool:
        if self._simplify_instruction(inst):
            return True
        op = inst.operands[0]
        ity = op.type.scalar_type
        if isinstance(ity, IntegerType) and ity.width <= self.dl.pointer_type_size_in_bits(inst.type):
            bo = self.constant_offset_ptrs.get(op)
            if bo is not None:
                self.constant_offset_ptrs[inst] = bo
        a = self._sroa_arg(op)
        if a is not None:
            self.sroa_arg_values[inst] = a
        return self._tti_free(inst)

    def _tti_free(self, inst: Instruction) -> bool:
        from llvmpy_mid.analysis.target_transform_info import TCK_SIZE_AND_LATENCY

        return self.tti.get_instruction_cost(inst, TCK_SIZE_AND_LATENCY) == 0

    def _visit_cast(self, inst: Instruction) -> bool:
        if self._simplify_instruction(inst):
            return True
        self._disable_sroa(inst.operands[0])
        if inst.opcode in _FP_CASTS and self._fp_op_is_expensive(inst.type):
            self.add_cost(self.call_penalty)
        return self._tti_free(inst)

    def _fp_op_is_expensive(self, ty: Type) -> bool:
        """``TTI.getFPOpCost(ty) == TCC_Expensive``: the operation may become a library call."""
        from llvmpy_mid.analysis.target_transform_info import TCC_EXPENSIVE

        return self.tti.get_fp_op_cost(ty) == TCC_EXPENSIVE

    def _is_known_non_null_in_callee(self, v: Value) -> bool:
        if isinstance(v, Argument) and v.parent is self.f and self.call.param_has_attr(v.arg_no, "nonnull"):
            return True
        return v in self.sroa_arg_values

    def _visit_cmp(self, inst: Instruction) -> bool:
        lhs, rhs = inst.operands[0], inst.operands[1]
        if self._simplify_instruction(inst):
            return True
        if inst.opcode == "fcmp":
            return False
        lbo = self.constant_offset_ptrs.get(lhs)
        if lbo is not None:
            rbo = self.constant_offset_ptrs.get(rhs)
            if rbo is not None and lbo[0] is rbo[0]:
                pred = inst.predicate.keyword  # type: ignore[attr-defined]
                result = _icmp_compare(pred, lbo[1], rbo[1], lbo[2])
                self.simplified_values[inst] = ConstantInt.get(inst.type, 1 if result else 0)
                self.num_constant_ptr_cmps += 1
                return True
        pred_name = inst.predicate.keyword  # type: ignore[attr-defined]
        if pred_name in ("eq", "ne") and isinstance(rhs, ConstantPointerNull):
            if self._is_known_non_null_in_callee(lhs):
                self.simplified_values[inst] = ConstantInt.get(inst.type, 1 if pred_name == "ne" else 0)
                return True
            if all(not isinstance(u, Instruction) or u.get_metadata("make.implicit") is not None for u in inst.users):
                return True
        return self._handle_sroa(lhs, isinstance(rhs, ConstantPointerNull))

    def _visit_sub(self, inst: Instruction) -> bool:
        lhs, rhs = inst.operands[0], inst.operands[1]
        lbo = self.constant_offset_ptrs.get(lhs)
        if lbo is not None:
            rbo = self.constant_offset_ptrs.get(rhs)
            if rbo is not None and lbo[0] is rbo[0]:
                ctx = inst.type.context
                ty = ctx.int_type(lbo[2])
                self.simplified_values[inst] = ConstantInt.get(ty, _wrap(lbo[1] - rbo[1], lbo[2]))
                self.num_constant_ptr_diffs += 1
                return True
        return False

    def _visit_binary_operator(self, inst: Instruction) -> bool:
        from llvmpy_mid.analysis.instsimplify.binops import simplify_binop
        from llvmpy_mid.analysis.simplify_query import SimplifyQuery

        lhs, rhs = inst.operands[0], inst.operands[1]
        cl = self._const(lhs)
        cr = self._const(rhs)
        fmf = int(getattr(inst, "fast_math_flags", 0)) if inst.opcode in _FP_BINOPS else 0
        simple = simplify_binop(
            inst.opcode, cl if cl is not None else lhs, cr if cr is not None else rhs, SimplifyQuery(self.dl), fmf=fmf
        )
        if isinstance(simple, Constant):
            self.simplified_values[inst] = simple
        if simple is not None:
            return True
        self._disable_sroa(lhs)
        self._disable_sroa(rhs)
        if inst.type.is_floating_point and not _is_fneg_pattern(inst) and self._fp_op_is_expensive(inst.type):
            self.add_cost(self.call_penalty)
        return False

    def _visit_fneg(self, inst: Instruction) -> bool:
        from llvmpy_mid.analysis.instsimplify.fp import simplify_fneg_inst
        from llvmpy_mid.analysis.simplify_query import SimplifyQuery

        op = inst.operands[0]
        c = self._const(op)
        simple = simplify_fneg_inst(c if c is not None else op, int(getattr(inst, "fast_math_flags", 0)), SimplifyQuery(self.dl))
        if isinstance(simple, Constant):
            self.simplified_values[inst] = simple
        if simple is not None:
            return True
        self._disable_sroa(op)
        return False

    def _visit_load(self, inst: Instruction) -> bool:
        ptr = inst.operands[0]
        if self._handle_sroa(ptr, inst.is_simple):  # type: ignore[attr-defined]
            return True
        if self.enable_load_elimination:
            seen = ptr in self.load_addr_set
            self.load_addr_set.add(ptr)
            if seen and inst.is_unordered:  # type: ignore[attr-defined]
                self.load_elimination_cost += self.instr_cost
                return True
        self.add_cost(option_int("inline-memaccess-cost"))
        return False

    def _visit_store(self, inst: Instruction) -> bool:
        if self._handle_sroa(inst.operands[1], inst.is_simple):  # type: ignore[attr-defined]
            return True
        self._disable_load_elimination()
        self.add_cost(option_int("inline-memaccess-cost"))
        return False

    def _visit_aggregate(self, inst: Instruction) -> bool:
        if self._simplify_instruction(inst):
            return True
        return self._visit_instruction(inst)

    def _simplify_call_site(self, fn: Function, call: CallBase) -> bool:
        from llvmpy_mid.analysis.constant_folding import can_constant_fold_call_to, constant_fold_call

        if not can_constant_fold_call_to(call, fn):
            return False
        args: list[Constant] = []
        for a in call.args:
            c = self._const(a)
            if c is None:
                return False
            args.append(c)
        folded = constant_fold_call(call, fn, args)
        if folded is not None:
            self.simplified_values[call] = folded
            return True
        return False

    def _visit_call_base(self, inst: Instruction) -> bool:
        call = inst
        assert isinstance(call, CallBase)
        bonus = string_fn_attr_as_int(call, "call-threshold-bonus")
        if bonus is not None:
            self.threshold += bonus
        forced = string_fn_attr_as_int(call, "call-inline-cost")
        if forced is not None:
            self.add_cost(forced)
            return True
        if call.has_fn_attr("returns_twice") and not self.f.attributes.has_fn_attr("returns_twice"):
            self.exposes_returns_twice = True
            return False
        if isinstance(call, CallInst) and call.cannot_duplicate:
            self.contains_no_duplicate_call = True
        fn = call.called_function
        indirect = fn is None
        if fn is None:
            target = self.simplified_values.get(call.called_operand)
            fn = target if isinstance(target, Function) else None
            if fn is None or fn.function_type is not call.function_type:
                self.add_cost(call.arg_size * self.instr_cost)
                if not call.only_reads_memory:
                    self._disable_load_elimination()
                return self._visit_instruction(call)
        if self._simplify_call_site(fn, call):
            return True
        iname = _intrinsic_base(call)
        if iname is not None:
            if iname == "llvm.load.relative":
                self.add_cost(3 * self.instr_cost)
                return False
            if iname in ("llvm.memset", "llvm.memcpy", "llvm.memmove"):
                self._disable_load_elimination()
                return False
            if iname in ("llvm.icall.branch.funnel", "llvm.localescape"):
                self.has_uninlineable_intrinsic = True
                return False
            if iname == "llvm.va_start":
                self.inits_varg_args = True
                return False
            if iname in ("llvm.launder.invariant.group", "llvm.strip.invariant.group"):
                a = self._sroa_arg(call.operands[0])
                if a is not None:
                    self.sroa_arg_values[call] = a
                return True
            if iname == "llvm.is.constant":
                arg = call.get_arg(0)
                c = self._const(arg)
                self.simplified_values[call] = ConstantInt.get(call.type, 1 if c is not None else 0)
                return True
            if iname == "llvm.objectsize":
                return self._simplify_objectsize(call)
            if not call.only_reads_memory and iname not in ASSUME_LIKE_INTRINSICS:
                self._disable_load_elimination()
            return self._visit_instruction(call)
        if fn is call.function:
            self.is_recursive_call = True
            if not self.allow_recursive_call:
                return False
        if self.tti.is_lowered_to_call(fn):
            self._on_lowered_call(fn, call, indirect)
        if not (call.only_reads_memory or (indirect and fn.attributes.fn_attrs.memory_effects.only_reads_memory)):
            self._disable_load_elimination()
        return self._visit_instruction(call)

    def _simplify_objectsize(self, call: CallBase) -> bool:
        from llvmpy_mid.analysis.memory_builtins import lower_object_size_call

        dyn = call.get_arg(3)
        if isinstance(dyn, ConstantInt) and dyn.value == 1:
            return False
        v = lower_object_size_call(call, self.dl, None, True)
        if isinstance(v, Constant):
            self.simplified_values[call] = v
            return True
        return False

    def _on_lowered_call(self, fn: Function, call: CallBase, indirect: bool) -> None:
        self.add_cost(call.arg_size * self.instr_cost)
        if indirect and self.boost_indirect_calls:
            params = InlineParams(
                default_threshold=INDIRECT_CALL_THRESHOLD,
                hint_threshold=self.params.hint_threshold,
                cold_threshold=self.params.cold_threshold,
                opt_size_threshold=self.params.opt_size_threshold,
                opt_min_size_threshold=self.params.opt_min_size_threshold,
                hot_call_site_threshold=self.params.hot_call_site_threshold,
                locally_hot_call_site_threshold=self.params.locally_hot_call_site_threshold,
                cold_call_site_threshold=self.params.cold_call_site_threshold,
                compute_full_inline_cost=self.params.compute_full_inline_cost,
                enable_deferral=self.params.enable_deferral,
                allow_recursive_call=self.params.allow_recursive_call,
            )
            nested = InlineCostCallAnalyzer(
                fn, call, params, self.tti, self.get_ac, self.get_bfi, self.psi, self.ore, False
            )
            ok, _ = nested.analyze()
            if ok:
                self.cost -= max(0, nested.threshold - nested.cost)
        else:
            caller = self.call.function
            assert caller is not None
            self.add_cost(get_inline_call_penalty(self.tti, caller, call, self.call_penalty))

    def _visit_ret(self, inst: Instruction) -> bool:
        free = not self.has_return
        self.has_return = True
        return free

    def _visit_br(self, inst: Instruction) -> bool:
        if inst.is_unconditional:  # type: ignore[attr-defined]
            return True
        cond = inst.condition  # type: ignore[attr-defined]
        if isinstance(cond, ConstantInt) or inst.get_metadata("make.implicit") is not None:
            return True
        return isinstance(self.simplified_values.get(cond), ConstantInt)

    def _visit_select(self, inst: Instruction) -> bool:
        check_sroa = isinstance(inst.type, PointerType)
        cond_v, tv, fv = inst.operands[0], inst.operands[1], inst.operands[2]
        tc = self._const(tv)
        fc = self._const(fv)
        cc = self.simplified_values.get(cond_v)
        if cc is None:
            if tc is not None and tc is fc:
                self.simplified_values[inst] = tc
                return True
            if not check_sroa:
                return self._visit_instruction(inst)
            tbo = self.constant_offset_ptrs.get(tv)
            fbo = self.constant_offset_ptrs.get(fv)
            if tbo is not None and fbo is not None and tbo[0] is fbo[0] and tbo[1] == fbo[1]:
                self.constant_offset_ptrs[inst] = tbo
                a = self._sroa_arg(tv)
                if a is not None:
                    self.sroa_arg_values[inst] = a
                return True
            return self._visit_instruction(inst)
        if cc.is_all_ones_value:
            selected: Value | None = tv
        elif cc.is_null_value:
            selected = fv
        else:
            selected = None
        if selected is None:
            if tc is not None and fc is not None:
                from llvmpy_mid.ir.constant_fold import constant_fold_select_instruction

                folded = constant_fold_select_instruction(cc, tc, fc)
                if folded is not None:
                    self.simplified_values[inst] = folded
                    return True
            return self._visit_instruction(inst)
        if isinstance(selected, Constant):
            self.simplified_values[inst] = selected
            return True
        if not check_sroa:
            return True
        bo = self.constant_offset_ptrs.get(selected)
        if bo is not None:
            self.constant_offset_ptrs[inst] = bo
            a = self._sroa_arg(selected)
            if a is not None:
                self.sroa_arg_values[inst] = a
        return True

    def _visit_switch(self, inst: Instruction) -> bool:
        cond = inst.operands[0]
        if isinstance(cond, ConstantInt) or isinstance(self.simplified_values.get(cond), ConstantInt):
            return True
        clusters, jt_size = get_estimated_number_of_case_clusters(self.tti, inst)  # type: ignore[arg-type]
        default = inst.default_dest  # type: ignore[attr-defined]
        first = default.instructions._first
        while first is not None and (first.opcode == "phi" or (_intrinsic_base(first) or "").startswith("llvm.dbg.")):
            first = first._next
        default_undefined = first is not None and first.opcode == "unreachable"
        unit = self.instr_cost
        if jt_size:
            if not default_undefined:
                self.add_cost(2 * unit)
            self.add_cost(jt_size * unit + 2 * unit)
        elif clusters <= 3:
            self.add_cost((clusters - int(default_undefined)) * 2 * unit)
        else:
            expected = 3 * clusters // 2 - 1
            self.add_cost(expected * 2 * unit)
        return False

    def _visit_indirectbr(self, inst: Instruction) -> bool:
        self.has_indirect_br = True
        return False

    def _visit_false(self, inst: Instruction) -> bool:
        return False

    def _visit_true(self, inst: Instruction) -> bool:
        return True

    # --- printing ---------------------------------------------------------------------------
    def stats_lines(self) -> list[str]:
        """The counters LLVM's ``InlineCostCallAnalyzer::print`` writes."""
        items: Iterable[tuple[str, object]] = (
            ("NumConstantArgs", self.num_constant_args),
            ("NumConstantOffsetPtrArgs", self.num_constant_offset_ptr_args),
            ("NumAllocaArgs", self.num_alloca_args),
            ("NumConstantPtrCmps", self.num_constant_ptr_cmps),
            ("NumConstantPtrDiffs", self.num_constant_ptr_diffs),
            ("NumInstructionsSimplified", self.num_instructions_simplified),
            ("NumInstructions", self.num_instructions),
            ("SROACostSavings", self.sroa_cost_savings),
            ("SROACostSavingsLost", self.sroa_cost_savings_lost),
            ("LoadEliminationCost", self.load_elimination_cost),
            ("ContainsNoDuplicateCall", int(self.contains_no_duplicate_call)),
            ("Cost", self.cost),
            ("Threshold", self.threshold),
        )
        return ["      %s: %s" % (k, v) for k, v in items]


_FP_CASTS = frozenset(("fptrunc", "fpext", "uitofp", "sitofp", "fptoui", "fptosi"))


def _is_fneg_pattern(inst: Instruction) -> bool:
    """PatternMatch ``m_FNeg`` (``fsub -0.0, x``; any zero with ``nsz``)."""
    from llvmpy_mid.ir.pattern_match import m_fneg, m_value, match

    return match(inst, m_fneg(m_value())) is not None


def _cdiv(a: int, b: int) -> int:
    """C++ integer division (truncating toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _is_gep(v: Value) -> bool:
    if isinstance(v, Instruction):
        return v.opcode == "getelementptr"
    return isinstance(v, ConstantExpr) and v.opcode == "getelementptr"


def _gep_inbounds(v: Value) -> bool:
    if isinstance(v, ConstantExpr):
        return bool(v.flags & 1)
    return bool(getattr(v, "inbounds", False))


_Handler = Callable[[InlineCostCallAnalyzer, Instruction], bool]
_DISPATCH: dict[str, _Handler] = {
    "alloca": InlineCostCallAnalyzer._visit_alloca,
    "phi": InlineCostCallAnalyzer._visit_phi,
    "getelementptr": InlineCostCallAnalyzer._visit_gep,
    "bitcast": InlineCostCallAnalyzer._visit_bitcast,
    "ptrtoint": InlineCostCallAnalyzer._visit_ptrtoint,
    "inttoptr": InlineCostCallAnalyzer._visit_inttoptr,
    "icmp": InlineCostCallAnalyzer._visit_cmp,
    "fcmp": InlineCostCallAnalyzer._visit_cmp,
    "fneg": InlineCostCallAnalyzer._visit_fneg,
    "load": InlineCostCallAnalyzer._visit_load,
    "store": InlineCostCallAnalyzer._visit_store,
    "extractvalue": InlineCostCallAnalyzer._visit_aggregate,
    "insertvalue": InlineCostCallAnalyzer._visit_aggregate,
    "call": InlineCostCallAnalyzer._visit_call_base,
    "invoke": InlineCostCallAnalyzer._visit_call_base,
    "callbr": InlineCostCallAnalyzer._visit_call_base,
    "ret": InlineCostCallAnalyzer._visit_ret,
    "br": InlineCostCallAnalyzer._visit_br,
    "select": InlineCostCallAnalyzer._visit_select,
    "switch": InlineCostCallAnalyzer._visit_switch,
    "indirectbr": InlineCostCallAnalyzer._visit_indirectbr,
    "resume": InlineCostCallAnalyzer._visit_false,
    "cleanupret": InlineCostCallAnalyzer._visit_false,
    "catchret": InlineCostCallAnalyzer._visit_false,
    "unreachable": InlineCostCallAnalyzer._visit_true,
}
