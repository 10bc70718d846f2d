"""``deadargelim`` (and ``deadarghaX0r``): removes the arguments a function never
reads and the return values no caller uses (LLVM 19's
``DeadArgumentEliminationPass``, lib/Transforms/IPO/DeadArgumentElimination.cpp).

How, in four phases over the module:

1. *Dead varargs*: a local variadic definition whose address is not taken, that
   never calls ``llvm.va_start`` nor makes a ``musttail`` call, loses its
   ``...``; its calls drop the extra arguments (and their attributes).
2. *Liveness survey*: every argument and every return value ("return value"
   ``i`` is element ``i`` of a returned struct or array, or the one scalar) is
   *live* or *maybe live*. A maybe-live value records the uses (arguments of
   other functions, return values of its own function) that would make it
   live; marking something live later propagates along those records. A
   function is wholly live when it is externally visible (unless hacking, as
   ``deadarghaX0r`` does), when its address escapes, when it is naked or has
   ``inalloca``/``preallocated`` parameters, or when it makes a ``musttail``
   call to something unknown. Variadic functions and those making or receiving
   ``musttail`` calls keep all their arguments. Liveness then flows from
   wholly live functions to their ``musttail`` callers.
3. *Rewrite*: each function that lost something is rebuilt with the smaller
   signature (:mod:`llvmpy_mid.ipo.dead_argument_rewrite`).
4. *Callers of visible functions*: an unread argument of an exactly defined
   function that could not be removed is passed as ``poison`` by its direct
   callers, and the UB-implying attributes (``noundef``, ``dereferenceable``,
   ``dereferenceable_or_null``) on it are dropped.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.instructions.vector import ExtractValueInst, InsertValueInst
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.ipo.dead_argument_rewrite import (
    NUM_ARGUMENTS_ELIMINATED,
    NUM_RET_VALS_ELIMINATED,
    delete_dead_varargs,
    num_ret_vals,
    rewrite_function,
)
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic

NUM_ARGUMENTS_REPLACED_WITH_POISON = Statistic(
    "deadargelim", "NumArgumentsReplacedWithPoison", "Number of unread args replaced with poison"
)

#: The attributes an argument replaced by poison must lose (LLVM ``getUBImplyingAttributes``).
UB_IMPLYING_ATTRIBUTES = ("noundef", "dereferenceable", "dereferenceable_or_null")

#: An argument (``is_arg`` True) or a return value of a function, by number.
RetOrArg = tuple[Function, int, bool]


class Liveness(Enum):
    LIVE = 0
    MAYBE_LIVE = 1


def get_terminating_must_tail_call(bb: BasicBlock) -> CallInst | None:
    """The ``musttail`` call right before ``bb``'s ``ret`` (through one bitcast),
    if any (LLVM ``BasicBlock::getTerminatingMustTailCall``)."""
    ret = bb.instructions._last
    if not isinstance(ret, ReturnInst) or ret is bb.instructions._first:
        return None
    prev = ret.prev_instruction
    if prev is None:
        return None
    rv = ret.return_value
    if rv is not None:
        if rv is not prev:
            return None
        if prev.opcode == "bitcast":
            inner = prev.get_operand(0)
            prev = prev.prev_instruction
            if prev is None or inner is not prev:
                return None
    if isinstance(prev, CallInst) and prev.is_must_tail_call:
        return prev
    return None


class DeadArgumentEliminationPass(Pass[Module]):
    """Deletes dead arguments and return values of internal functions."""

    name: ClassVar[str] = "deadargelim"
    debug_type: ClassVar[str] = "deadargelim"

    def __init__(self, should_hack_arguments: bool = False) -> None:
        self.should_hack_arguments = should_hack_arguments
        self._live_functions: set[Function] = set()
        self._live_values: set[RetOrArg] = set()
        self._uses: dict[RetOrArg, list[RetOrArg]] = {}

    @property
    def log_name(self) -> str:
        return "DeadArgumentEliminationPass"

    # --- liveness bookkeeping ------------------------------------------------------------------
    def _is_live(self, ra: RetOrArg) -> bool:
        return ra[0] in self._live_functions or ra in self._live_values

    def _propagate_liveness(self, start: RetOrArg) -> None:
        stack = [start]
        uses = self._uses
        live_values = self._live_values
        while stack:
            ra = stack.pop()
            for user in uses.pop(ra, ()):
                if not self._is_live(user):
                    live_values.add(user)
                    stack.append(user)

    def _mark_live_value(self, ra: RetOrArg) -> None:
        if self._is_live(ra):
            return
        self._live_values.add(ra)
        self._propagate_liveness(ra)

    def _mark_live_function(self, fn: Function) -> None:
        self._live_functions.add(fn)
        for i in range(len(fn.args)):
            self._propagate_liveness((fn, i, True))
        for i in range(num_ret_vals(fn)):
            self._propagate_liveness((fn, i, False))

    def _mark_value(self, ra: RetOrArg, liveness: Liveness, maybe_live_uses: list[RetOrArg]) -> None:
        if liveness is Liveness.LIVE:
            self._mark_live_value(ra)
            return
        for use in maybe_live_uses:
            if self._is_live(use):
                self._mark_live_value(ra)
                break
            self._uses.setdefault(use, []).append(ra)

    def _mark_if_not_live(self, ra: RetOrArg, maybe_live_uses: list[RetOrArg]) -> Liveness:
        if self._is_live(ra):
            return Liveness.LIVE
        maybe_live_uses.append(ra)
        return Liveness.MAYBE_LIVE

    # --- the survey -----------------------------------------------------------------------------
    def _survey_use(self, first: Use, maybe_live_uses: list[RetOrArg], ret_val_num: int = -1) -> Liveness:
        """How one use of an argument or returned value bears on its liveness;
        insertvalue chains are followed with an explicit stack."""
        stack: list[tuple[Use, int]] = [(first, ret_val_num)]
        while stack:
            use, rv_num = stack.pop()
            if self._survey_one(use, rv_num, maybe_live_uses, stack) is Liveness.LIVE:
                return Liveness.LIVE
        return Liveness.MAYBE_LIVE

    def _survey_one(
        self, use: Use, rv_num: int, maybe_live_uses: list[RetOrArg], stack: list[tuple[Use, int]]
    ) -> Liveness:
        user = use.user
        if isinstance(user, ReturnInst):
            bb = user.parent
            fn = bb.parent if bb is not None else None
            if fn is None:
                return Liveness.LIVE
            if rv_num != -1:
                return self._mark_if_not_live((fn, rv_num, False), maybe_live_uses)
            result = Liveness.MAYBE_LIVE
            for ri in range(num_ret_vals(fn)):
                sub = self._mark_if_not_live((fn, ri, False), maybe_live_uses)
                if result is not Liveness.LIVE:
                    result = sub
            return result
        if isinstance(user, InsertValueInst):
            if use.index != 0 and user.indices:
                rv_num = user.indices[0]
            for inner in user.uses:
                stack.append((inner, rv_num))
            return Liveness.MAYBE_LIVE
        if isinstance(user, CallBase):
            callee = user.called_operand
            if isinstance(callee, Function) and use.index < user.num_args + user.num_total_bundle_operands:
                if user.is_bundle_operand(use.index):
                    return Liveness.LIVE
                arg_no = use.index
                if arg_no >= len(callee.function_type.params):
                    return Liveness.LIVE
                return self._mark_if_not_live((callee, arg_no, True), maybe_live_uses)
        return Liveness.LIVE

    def _survey_uses(self, value: Value, maybe_live_uses: list[RetOrArg]) -> Liveness:
        for use in value.uses:
            if self._survey_use(use, maybe_live_uses) is Liveness.LIVE:
                return Liveness.LIVE
        return Liveness.MAYBE_LIVE

    def _survey_function(self, fn: Function) -> None:
        attrs = fn.attributes
        if attrs.has_attr_somewhere("inalloca") or attrs.has_attr_somewhere("preallocated"):
            self._mark_live_function(fn)
            return
        if fn.has_fn_attribute("naked"):
            self._mark_live_function(fn)
            return
        ret_count = num_ret_vals(fn)
        ret_liveness = [Liveness.MAYBE_LIVE] * ret_count
        maybe_live_ret_uses: list[list[RetOrArg]] = [[] for _ in range(ret_count)]

        has_must_tail_calls = False
        for bb in fn.blocks:
            tc = get_terminating_must_tail_call(bb)
            if tc is not None:
                has_must_tail_calls = True
                callee = tc.called_operand
                if not isinstance(callee, Function) or callee.is_declaration:
                    self._mark_live_function(fn)
                    return

        if not fn.has_local_linkage and (not self.should_hack_arguments or fn.is_intrinsic):
            self._mark_live_function(fn)
            return

        num_live_ret_vals = 0
        has_must_tail_callers = False
        for use in fn.uses:
            cb = use.user
            if (
                not isinstance(cb, CallBase)
                or use is not cb.called_operand_use
                or cb.function_type is not fn.function_type
                or cb.opcode == "callbr"
            ):
                self._mark_live_function(fn)
                return
            if isinstance(cb, CallInst) and cb.is_must_tail_call:
                has_must_tail_callers = True
            if num_live_ret_vals == ret_count:
                continue
            for ret_use in cb.uses:
                ext = ret_use.user
                if isinstance(ext, ExtractValueInst) and ext.indices:
                    idx = ext.indices[0]
                    if idx < ret_count and ret_liveness[idx] is not Liveness.LIVE:
                        ret_liveness[idx] = self._survey_uses(ext, maybe_live_ret_uses[idx])
                        if ret_liveness[idx] is Liveness.LIVE:
                            num_live_ret_vals += 1
                    continue
                aggregate_uses: list[RetOrArg] = []
                if self._survey_use(ret_use, aggregate_uses) is Liveness.LIVE:
                    num_live_ret_vals = ret_count
                    ret_liveness = [Liveness.LIVE] * ret_count
                    break
                for ri in range(ret_count):
                    if ret_liveness[ri] is not Liveness.LIVE:
                        maybe_live_ret_uses[ri].extend(aggregate_uses)

        for ri in range(ret_count):
            self._mark_value((fn, ri, False), ret_liveness[ri], maybe_live_ret_uses[ri])

        keep_all_args = fn.is_vararg or has_must_tail_callers or has_must_tail_calls
        for i, arg in enumerate(fn.args):
            arg_uses: list[RetOrArg] = []
            result = Liveness.LIVE if keep_all_args else self._survey_uses(arg, arg_uses)
            self._mark_value((fn, i, True), result, arg_uses)

    def _propagate_virt_must_call_liveness(self) -> None:
        new_live = set(self._live_functions)
        while new_live:
            found: set[Function] = set()
            for fn in new_live:
                for user in fn.users:
                    if isinstance(user, CallInst) and user.is_must_tail_call:
                        caller = user.caller
                        if caller is not None and caller not in self._live_functions:
                            found.add(caller)
            for caller in found:
                self._mark_live_function(caller)
            new_live = found

    # --- phase 4 --------------------------------------------------------------------------------
    def _remove_dead_arguments_from_callers(self, fn: Function) -> bool:
        if not fn.has_exact_definition:
            return False
        if fn.has_local_linkage and fn not in self._live_functions and not fn.is_vararg:
            return False
        if fn.has_fn_attribute("naked") or fn.use_empty:
            return False
        unused: list[int] = []
        changed = False
        for arg in fn.args:
            pattrs = fn.attributes.param_attrs(arg.arg_no)
            if (
                not pattrs.has("swifterror")
                and arg.use_empty
                and not (pattrs.has("byval") or pattrs.has("inalloca") or pattrs.has("preallocated"))
            ):
                if arg.context.value_metadata.get(arg) is not None:
                    arg.replace_all_uses_with(PoisonValue.get(arg.type))
                    changed = True
                unused.append(arg.arg_no)
                fn.attributes = _without_ub_implying(fn.attributes, arg.arg_no)
        if not unused:
            return False
        for use in list(fn.uses):
            cb = use.user
            if not isinstance(cb, CallBase) or use is not cb.called_operand_use or cb.function_type is not fn.function_type:
                continue
            for arg_no in unused:
                old = cb.get_arg(arg_no)
                cb.set_arg(arg_no, PoisonValue.get(old.type))
                cb.attributes = _without_ub_implying(cb.attributes, arg_no)
                NUM_ARGUMENTS_REPLACED_WITH_POISON.add()
                changed = True
        return changed

    # --- driver ---------------------------------------------------------------------------------
    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        try:
            changed = self._run(unit)
        finally:
            self._live_functions = set()
            self._live_values = set()
            self._uses = {}
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()

    def _run(self, module: Module) -> bool:
        changed = False
        for fn in list(module.functions):
            if fn.is_vararg and fn.parent is module:
                changed |= delete_dead_varargs(fn)
        for fn in module.functions:
            self._survey_function(fn)
        self._propagate_virt_must_call_liveness()
        live_values = self._live_values
        for fn in list(module.functions):
            if fn in self._live_functions:
                continue
            arg_alive = [(fn, i, True) in live_values for i in range(len(fn.args))]
            ret_alive = [(fn, i, False) in live_values for i in range(num_ret_vals(fn))]
            changed |= rewrite_function(fn, arg_alive, ret_alive)
        for fn in module.functions:
            changed |= self._remove_dead_arguments_from_callers(fn)
        return changed


def _without_ub_implying(attrs: AttributeList, arg_no: int) -> AttributeList:
    pattrs = attrs.param_attrs(arg_no)
    if not any(pattrs.has(kind) for kind in UB_IMPLYING_ATTRIBUTES):
        return attrs
    return attrs.with_param_attrs(arg_no, pattrs.remove_all(UB_IMPLYING_ATTRIBUTES))


class DeadArgumentHackingPass(DeadArgumentEliminationPass):
    """``deadarghaX0r``: the same pass, also on externally visible functions
    (LLVM's bugpoint-only ``DAH``)."""

    name: ClassVar[str] = "deadarghaX0r"

    def __init__(self, should_hack_arguments: bool = True) -> None:
        super().__init__(should_hack_arguments)


__all__ = [
    "DeadArgumentEliminationPass",
    "DeadArgumentHackingPass",
    "NUM_ARGUMENTS_ELIMINATED",
    "NUM_ARGUMENTS_REPLACED_WITH_POISON",
    "NUM_RET_VALS_ELIMINATED",
    "UB_IMPLYING_ATTRIBUTES",
    "get_terminating_must_tail_call",
]
