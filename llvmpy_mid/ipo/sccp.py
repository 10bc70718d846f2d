"""``ipsccp``: interprocedural sparse conditional constant propagation (LLVM ``IPSCCPPass``).

Follows LLVM 19.1.7's ``lib/Transforms/IPO/SCCP.cpp`` (``runIPSCCP``) over the shared
solver (``transform/utils/sccp_solver.py``) with ``lib/Analysis/ValueLatticeUtils.cpp``'s
tracking rules:

- every defined function gets its PredicateInfo (``transform/utils/predicate_info.py``:
  ``llvm.ssa.copy`` renames carrying branch, switch and assume facts); the return
  value of a function with an exact definition (not ``naked``) is tracked; a
  local function whose address is not taken has its arguments merged from its
  call sites (its entry becomes executable only when a live call reaches it);
  every other function is assumed called with unknown arguments (``range``
  attributes seed them);
- local, non-constant global variables with a definitive initializer that are
  only loaded and stored (non-volatile, of their own type) are tracked through
  memory;
- once solved (resolving undefined values until nothing changes), arguments found
  constant are replaced (a replaced pointer argument widens the ``memory``
  attribute of the function and its direct calls: what it did to argument
  memory it may now do to other memory), each executable block is rewritten as
  ``sccp`` does, dead blocks become ``unreachable`` (an unreachable entry too)
  and are deleted, infeasible edges cut, and the copies removed;
- a tracked return that is a non-singleton range (not including undef) becomes a
  ``range`` return attribute when the function has none; a constant or unknown
  return of an argument-tracked function is zapped to ``poison`` in every
  ``ret`` (not with ``musttail`` around), and the zapped functions and their call
  sites lose ``returned`` and the UB-implying return attributes
  (``noundef``, ``dereferenceable``, ``dereferenceable_or_null``);
- tracked globals never found overdefined lose their stores and are erased.

``ipsccp<func-spec;no-func-spec>`` parses as opt-19 does (``func-spec`` is the
default): after solving, function specialization
(``ipo/function_specialization.py``) runs up to ``-funcspec-max-iters`` rounds,
and the fully specialised functions are erased at the end.

An erased global's single ``DIGlobalVariableExpression`` gets the expression of
its initializer (``transform/utils/debug_constant_expression.py``).

What it does not do: nothing known beyond LLVM's own limits.
"""

from __future__ import annotations

from typing import Callable, ClassVar

import attrs

from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis
from llvmpy_mid.analysis.address_taken import has_address_taken as function_has_address_taken
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis
from llvmpy_mid.analysis.value_lattice import CONSTANTRANGE_INCLUDING_UNDEF
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dead_constants import remove_dead_constant_users
from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.memory_effects import IRMemLocation, MemoryEffects
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.function_specialization import FunctionSpecializer
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.debug_constant_expression import get_expression_for_constant
from llvmpy_mid.transform.utils.local import change_to_unreachable
from llvmpy_mid.transform.utils.sccp_solver import SCCPSolver, is_constant, is_overdefined

NUM_INST_REMOVED = Statistic("sccp", "NumInstRemoved", "Number of instructions removed")
NUM_ARGS_ELIMED = Statistic("sccp", "NumArgsElimed", "Number of arguments constant propagated")
NUM_GLOBAL_CONST = Statistic("sccp", "NumGlobalConst", "Number of globals found to be constant")
NUM_DEAD_BLOCKS = Statistic("sccp", "NumDeadBlocks", "Number of basic blocks unreachable")
NUM_INST_REPLACED = Statistic("sccp", "NumInstReplaced", "Number of instructions replaced with (simpler) instruction")

_UB_IMPLYING_RET_ATTRS = ("noundef", "dereferenceable", "dereferenceable_or_null")


@attrs.define
class IPSCCPOptions:
    """``ipsccp<...>`` parameters (LLVM ``IPSCCPOptions``)."""

    allow_func_spec: bool = True


def parse_ipsccp_options(params: str) -> IPSCCPOptions:
    """``func-spec`` / ``no-func-spec`` separated by ``;`` (LLVM ``parseIPSCCPOptions``)."""
    opts = IPSCCPOptions()
    for name in params.split(";") if params else []:
        enable = True
        if name.startswith("no-"):
            enable = False
            name = name[3:]
        if name == "func-spec":
            opts.allow_func_spec = enable
        else:
            raise PipelineError("invalid IPSCCP pass parameter '%s' " % name)
    return opts


# --- ValueLatticeUtils -----------------------------------------------------------------------
def can_track_arguments_interprocedurally(fn: Function) -> bool:
    return fn.has_local_linkage and not function_has_address_taken(fn)


def can_track_returns_interprocedurally(fn: Function) -> bool:
    return fn.has_exact_definition and not fn.has_fn_attribute("naked")


def can_track_global_variable_interprocedurally(gv: GlobalVariable) -> bool:
    if gv.is_constant_global or not gv.has_local_linkage or not gv.has_definitive_initializer:
        return False
    vty = gv.value_type
    for user in gv.users:
        op = getattr(user, "opcode", None)
        if op == "store":
            val = user._operands[0].value
            if val is gv or user.is_volatile or val.type is not vty:  # type: ignore[attr-defined]
                return False
        elif op == "load":
            if user.is_volatile or user.type is not vty:  # type: ignore[attr-defined]
                return False
        else:
            return False
    return True


# --- the pass --------------------------------------------------------------------------------
def _terminating_must_tail_call(bb: BasicBlock) -> Instruction | None:
    ret = bb.terminator
    if ret is None or ret.opcode != "ret" or ret is bb.first_instruction:
        return None
    prev = ret._prev
    if not isinstance(prev, Instruction):
        return None
    if ret._operands:
        rv = ret._operands[0].value
        if rv is not prev:
            return None
        if prev.opcode == "bitcast":
            rv = prev._operands[0].value
            prev = prev._prev
            if not isinstance(prev, Instruction) or rv is not prev:
                return None
    if prev.opcode == "call" and getattr(prev, "is_must_tail_call", False):
        return prev
    return None


def _find_returns_to_zap(fn: Function, returns: list[Instruction], solver: SCCPSolver) -> None:
    if not solver.is_argument_tracked_function(fn):
        return
    if solver.must_preserve_return(fn):
        return
    for bb in fn.blocks:
        if _terminating_must_tail_call(bb) is not None:
            return
        term = bb.terminator
        if term is not None and term.opcode == "ret" and not isinstance(term._operands[0].value, UndefValue):
            returns.append(term)


def _widen_memory_for_pointer_arg(al: AttributeList) -> AttributeList:
    me = al.fn_attrs.memory_effects
    if me.is_unknown:
        return al
    me = me | MemoryEffects.from_locations(other=me.get_mod_ref(IRMemLocation.ARG_MEM))
    return al.with_fn_attr(Attribute.memory(me))


def _without_ub_ret_attrs(al: AttributeList) -> AttributeList:
    for kind in _UB_IMPLYING_RET_ATTRS:
        if al.has_ret_attr(kind):
            al = al.without_ret_attr(kind)
    return al


def run_ipsccp(
    module: Module,
    get_tli: object,
    get_dt: object,
    get_ac: object,
    get_cached_trees: object,
    specializer_factory: Callable[[SCCPSolver], FunctionSpecializer] | None = None,
) -> bool:
    """Run IPSCCP over ``module``; True when it changed (LLVM ``runIPSCCP``).

    ``specializer_factory`` (when function specialization is enabled) builds the
    :class:`~llvmpy_mid.ipo.function_specialization.FunctionSpecializer`.
    """
    solver = SCCPSolver(module.data_layout, get_tli)  # type: ignore[arg-type]
    specializer = specializer_factory(solver) if specializer_factory is not None else None
    for fn in module.functions:
        if fn.is_declaration:
            continue
        solver.add_predicate_info(fn, get_dt(fn), get_ac(fn))  # type: ignore[operator]
        if can_track_returns_interprocedurally(fn):
            solver.add_tracked_function(fn)
        if can_track_arguments_interprocedurally(fn):
            solver.add_argument_tracked_function(fn)
            continue
        solver.mark_block_executable(fn.entry_block)
        for arg in fn.args:
            solver.track_value_of_argument(arg)

    for gv in list(module.globals):
        remove_dead_constant_users(gv)
        if can_track_global_variable_interprocedurally(gv):
            solver.track_value_of_global_variable(gv)

    solver.solve_while_resolved_undefs_in([f for f in module.functions])

    if specializer is not None:
        iters = 0
        max_iters = int(OPTIONS.value("funcspec-max-iters"))
        while iters < max_iters:
            iters += 1
            if not specializer.run():
                break

    made_changes = False
    removed = replaced = 0
    for fn in list(module.functions):
        if fn.is_declaration:
            continue
        entry = fn.entry_block
        if solver.is_block_executable(entry):
            replaced_pointer_arg = False
            for arg in fn.args:
                if not arg.use_empty and _try_replace_arg(solver, arg):
                    replaced_pointer_arg |= arg.type.is_pointer
                    NUM_ARGS_ELIMED.add()
            if replaced_pointer_arg:
                fn.attributes = _widen_memory_for_pointer_arg(fn.attributes)
                for use in list(fn.uses):
                    cb = use.user
                    if not isinstance(cb, CallBase) or cb.called_function is not fn:
                        continue
                    cb.attributes = _widen_memory_for_pointer_arg(cb.attributes)
            made_changes |= replaced_pointer_arg

        inserted_values: set[Value] = set()
        blocks_to_erase: list[BasicBlock] = []
        for bb in list(fn.blocks):
            if not solver.is_block_executable(bb):
                NUM_DEAD_BLOCKS.add()
                made_changes = True
                if bb is not entry:
                    blocks_to_erase.append(bb)
                continue
            changed, n_removed, n_replaced = solver.simplify_insts_in_block(bb, inserted_values)
            made_changes |= changed
            removed += n_removed
            replaced += n_replaced

        dt, pdt = get_cached_trees(fn)  # type: ignore[operator]
        dtu = DomTreeUpdater(dt=dt, pdt=pdt, strategy="lazy")
        for dead in blocks_to_erase:
            first = dead.first_non_phi
            assert first is not None
            removed += change_to_unreachable(first, False, dtu)
        if not solver.is_block_executable(entry):
            first = entry.first_non_phi
            assert first is not None
            removed += change_to_unreachable(first, False, dtu)

        new_unreachable: list[BasicBlock | None] = [None]
        for bb in list(fn.blocks):
            made_changes |= solver.remove_non_feasible_edges(bb, dtu, new_unreachable)

        for dead in blocks_to_erase:
            if not dead.has_address_taken:
                dtu.delete_bb(dead)
        dtu.flush()

        for bb in fn.blocks:
            inst = bb.first_instruction
            while inst is not None:
                nxt = inst._next
                if isinstance(inst, CallBase) and solver.get_predicate_info_for(inst) is not None:
                    inst.replace_all_uses_with(inst.get_arg(0))
                    inst.erase_from_parent()
                inst = nxt

    for pi in solver.fn_predicate_info.values():
        pi.erase_created_declarations()
    if removed:
        NUM_INST_REMOVED.add(removed)
    if replaced:
        NUM_INST_REPLACED.add(replaced)

    returns_to_zap: list[Instruction] = []
    for fn, ret_val in solver.get_tracked_ret_vals().items():
        if ret_val.is_constant_range() and not ret_val.range.is_single_element():  # type: ignore[union-attr]
            if ret_val.tag == CONSTANTRANGE_INCLUDING_UNDEF:
                continue
            if fn.attributes.has_ret_attr("range"):
                continue
            cr = ret_val.range
            assert cr is not None
            fn.attributes = fn.attributes.with_ret_attr(
                Attribute.range(fn.return_type.scalar_type, cr.lower, cr.upper)  # type: ignore[arg-type]
            )
            continue
        if fn.return_type.is_void:
            continue
        if is_constant(ret_val) or ret_val.is_unknown_or_undef():
            _find_returns_to_zap(fn, returns_to_zap, solver)

    for fn in [f for f in module.functions if f in solver.get_mrv_functions_tracked()]:
        if solver.is_struct_lattice_constant(fn, fn.return_type):
            _find_returns_to_zap(fn, returns_to_zap, solver)

    zapped: dict[Function, None] = {}
    for ret in returns_to_zap:
        fn = ret.function  # type: ignore[assignment]
        ret.set_operand(0, PoisonValue.get(fn.return_type))
        zapped[fn] = None

    for fn in zapped:
        al = fn.attributes
        for i in range(len(fn.args)):
            if al.has_param_attr(i, "returned"):
                al = al.without_param_attr(i, "returned")
        fn.attributes = _without_ub_ret_attrs(al)
        for use in list(fn.uses):
            cb = use.user
            if not isinstance(cb, CallBase):
                continue
            cal = cb.attributes
            for i in range(cb.arg_size):
                if cal.has_param_attr(i, "returned"):
                    cal = cal.without_param_attr(i, "returned")
            cb.attributes = _without_ub_ret_attrs(cal)

    for gv, lv in list(solver.get_tracked_globals().items()):
        if is_overdefined(lv):
            continue
        for user in list(gv.users):
            if isinstance(user, Instruction) and user.opcode == "store":
                user.erase_from_parent()
        gves = [md for md in gv.get_all_metadata("dbg") if getattr(md, "kind", None) == "DIGlobalVariableExpression"]
        if len(gves) == 1:
            init = gv.initializer
            assert init is not None
            expr = get_expression_for_constant(init, gv.value_type)
            if expr is not None:
                gves[0].replace_operand_with(1, expr)
        made_changes = True
        if gv.use_empty:
            gv.erase_from_parent()
        NUM_GLOBAL_CONST.add()
    if specializer is not None:
        specializer.finish()
    return made_changes


def _try_replace_arg(solver: SCCPSolver, arg: Value) -> bool:
    if arg.type.is_struct:
        n = len(arg.type.elements)  # type: ignore[attr-defined]
        if any((arg, i) not in solver.struct_value_state for i in range(n)):
            for i in range(n):
                solver.get_struct_value_state(arg, i)
    elif arg not in solver.value_state:
        solver.get_value_state(arg)
    return solver.try_to_replace_with_constant(arg)


class IPSCCPPass(Pass[Module]):
    """Interprocedural sparse conditional constant propagation (``-passes=ipsccp``)."""

    name: ClassVar[str] = "ipsccp"
    debug_type: ClassVar[str] = "sccp"

    def __init__(self, options: IPSCCPOptions | None = None) -> None:
        self.options = options if options is not None else IPSCCPOptions()

    @property
    def log_name(self) -> str:
        return "IPSCCPPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager

        def get_tli(fn: Function) -> TargetLibraryInfo:
            return fam.get_result(TargetLibraryAnalysis, fn)

        def get_dt(fn: Function) -> object:
            return fam.get_result(DominatorTreeAnalysis, fn)

        def get_ac(fn: Function) -> object:
            return fam.get_result(AssumptionAnalysis, fn)

        def get_cached_trees(fn: Function) -> tuple[object, object]:
            return fam.get_cached_result(DominatorTreeAnalysis, fn), fam.get_cached_result(PostDominatorTreeAnalysis, fn)

        def get_tti(fn: Function) -> object:
            return fam.get_result(TargetIRAnalysis, fn)

        def get_bfi(fn: Function) -> object:
            return fam.get_result(BlockFrequencyAnalysis, fn)

        factory: Callable[[SCCPSolver], FunctionSpecializer] | None = None
        if self.options.allow_func_spec:

            def factory(solver: SCCPSolver) -> FunctionSpecializer:
                return FunctionSpecializer(solver, unit, fam, get_bfi, get_tli, get_tti, get_ac)

        if not run_ipsccp(unit, get_tli, get_dt, get_ac, get_cached_trees, factory):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(PostDominatorTreeAnalysis)
        pa.preserve(FunctionAnalysisManagerModuleProxy)
        return pa


__all__ = [
    "IPSCCPOptions",
    "IPSCCPPass",
    "can_track_arguments_interprocedurally",
    "can_track_global_variable_interprocedurally",
    "can_track_returns_interprocedurally",
    "function_has_address_taken",
    "parse_ipsccp_options",
    "run_ipsccp",
]
