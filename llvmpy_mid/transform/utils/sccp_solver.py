"""The sparse conditional constant propagation solver (LLVM ``SCCPSolver``).

Follows LLVM 19.1.7's ``lib/Transforms/Utils/SCCPSolver.cpp`` and
``include/llvm/Transforms/Utils/SCCPSolver.h``: the ``sccp`` pass drives it on
one function, ``ipsccp`` on a module.

How: each value has a :class:`~llvmpy_mid.analysis.value_lattice.ValueLatticeElement`
(struct values one per field); blocks become executable when an edge into them
is found feasible. Three worklists are drained in LLVM's order -- values gone
overdefined first (their users are revisited), then values that changed to a
constant or range, then newly executable blocks (each instruction visited once).
The per-opcode visitors fold constants through the analysis constant folder
(``analysis/constant_folding.py``) and InstructionSimplify, and compute integer
ranges with :class:`~llvmpy_mid.analysis.constant_range.ConstantRange`. When the
worklists are empty, :meth:`SCCPSolver.resolved_undefs_in` sends instructions that
are still unknown to overdefined and solving goes on until nothing changes.

The solver also carries the interprocedural state ``ipsccp`` needs: tracked
return values (single and multiple), tracked global variables, functions whose
arguments are tracked from their call sites, and functions whose returns must
be preserved. The rewriting the passes share is reached through the solver as in
LLVM (:meth:`SCCPSolver.try_to_replace_with_constant`,
:meth:`SCCPSolver.simplify_insts_in_block`, :meth:`SCCPSolver.remove_non_feasible_edges`)
and lives in ``transform/utils/sccp_rewrite.py``.

``ipsccp`` gives the solver each function's PredicateInfo
(``transform/utils/predicate_info.py``): an ``llvm.ssa.copy`` it inserted takes its
operand's facts narrowed by the branch, switch or assume condition it stands
for (a copy without one just carries its operand's facts).

Function specialization seeds a clone's arguments through
:meth:`SCCPSolver.set_lattice_value_for_specialization_arguments`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.constant_folding import (
    can_constant_fold_call_to,
    constant_fold_call,
    constant_fold_cast_operand,
    constant_fold_inst_operands,
    constant_fold_load_from_const_ptr,
    constant_fold_unary_op_operand,
)
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.instruction_simplify import simplify_binop
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.analysis.value_lattice import (
    CONSTANT,
    CONSTANTRANGE,
    CONSTANTRANGE_INCLUDING_UNDEF,
    OVERDEFINED,
    UNDEF,
    UNKNOWN,
    MergeOptions,
    ValueLatticeElement,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    ConstantVector,
    UndefValue,
)
from llvmpy_mid.ir.function import Argument, Function, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BINARY_OPCODE_CLASSES
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CAST_OPCODES
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.transform.utils.predicate_info import PredicateBase, PredicateInfo
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.ir.types import Type

MAX_NUM_RANGE_EXTENSIONS = 10
"""How often a range fed through memory, calls or returns may widen before it is overdefined."""


def _max_widen_steps_opts() -> MergeOptions:
    return MergeOptions().set_max_widen_steps(MAX_NUM_RANGE_EXTENSIONS)


def is_constant(lv: ValueLatticeElement) -> bool:
    """A single constant: a constant, or a range of one element (LLVM ``SCCPSolver::isConstant``)."""
    tag = lv.tag
    if tag == CONSTANT:
        return True
    if tag == CONSTANTRANGE or tag == CONSTANTRANGE_INCLUDING_UNDEF:
        return lv.range.is_single_element()  # type: ignore[union-attr]
    return False


def is_overdefined(lv: ValueLatticeElement) -> bool:
    """Known, and not one constant (LLVM ``SCCPSolver::isOverdefined``)."""
    return lv.tag > UNDEF and not is_constant(lv)


def _int_constant(ty: Type, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: a splat for an integer vector type."""
    if ty.is_vector:
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.scalar_type, value))  # type: ignore[arg-type]
    return ConstantInt.get(ty, value)


def _bool_constant(ty: Type, value: bool) -> Constant:
    return _int_constant(ty, 1 if value else 0)


def _scalar_bits(ty: Type) -> int:
    return ty.scalar_type.width  # type: ignore[attr-defined, no-any-return]


def _attr_range(attr: object) -> ConstantRange | None:
    if attr is None:
        return None
    ty = attr.type_value  # type: ignore[attr-defined]
    lo, hi = attr.ranges[0]  # type: ignore[attr-defined]
    return ConstantRange(ty.width, lo, hi)


def call_return_range(cb: CallBase) -> ConstantRange | None:
    """The ``range(...)`` return attribute of a call site, else of its callee (LLVM ``CallBase::getRange``)."""
    attr = cb.attributes.get_ret_attr("range")
    if attr is None:
        fn = cb.called_function
        if fn is not None:
            attr = fn.attributes.get_ret_attr("range")
    return _attr_range(attr)


def argument_range(arg: Argument) -> ConstantRange | None:
    """The ``range(...)`` attribute of a parameter (LLVM ``Argument::getRange``)."""
    return _attr_range(arg.parent.attributes.get_param_attr(arg.arg_no, "range"))


def _value_from_metadata(inst: Instruction) -> ValueLatticeElement:
    ty = inst.type
    if ty.is_int_or_int_vector:
        node = inst.get_metadata("range")
        if node is not None:
            return ValueLatticeElement.get_range(ConstantRange.from_metadata(node))
        if isinstance(inst, CallBase):
            cr = call_return_range(inst)
            if cr is not None:
                return ValueLatticeElement.get_range(cr)
    if inst.get_metadata("nonnull") is not None:
        return ValueLatticeElement.get_not(ConstantPointerNull.get(ty))
    return ValueLatticeElement.get_overdefined()


def _intrinsic_id(cb: CallBase) -> str:
    """The base name of the intrinsic ``cb`` calls (``llvm.umin``), or ``""`` (LLVM ``getIntrinsicID``)."""
    fn = cb.called_function
    if fn is None or not fn.intrinsic_id:
        return ""
    return lookup_intrinsic(fn.name) or ""


_OVERFLOWING_OPCODES = frozenset(("add", "sub", "mul", "shl"))
_WITH_OVERFLOW = {
    "llvm.sadd.with.overflow": ("add", "nsw"),
    "llvm.uadd.with.overflow": ("add", "nuw"),
    "llvm.ssub.with.overflow": ("sub", "nsw"),
    "llvm.usub.with.overflow": ("sub", "nuw"),
    "llvm.smul.with.overflow": ("mul", "nsw"),
    "llvm.umul.with.overflow": ("mul", "nuw"),
}
_RANGE_INTRINSICS = frozenset(
    (
        "llvm.uadd.sat",
        "llvm.usub.sat",
        "llvm.sadd.sat",
        "llvm.ssub.sat",
        "llvm.umin",
        "llvm.umax",
        "llvm.smin",
        "llvm.smax",
        "llvm.abs",
        "llvm.ctlz",
        "llvm.cttz",
        "llvm.ctpop",
    )
)
"""The intrinsics whose result ConstantRange computes (LLVM ``ConstantRange::isIntrinsicSupported``)."""
_SPECIAL_TERMINATORS = frozenset(("invoke", "callbr", "catchswitch", "cleanupret", "catchret"))


class SCCPSolver:
    """The lattice state and worklists of one SCCP run (LLVM ``SCCPSolver``/``SCCPInstVisitor``)."""

    __slots__ = (
        "dl",
        "get_tli",
        "bb_executable",
        "value_state",
        "struct_value_state",
        "tracked_globals",
        "tracked_ret_vals",
        "tracked_multiple_ret_vals",
        "invalidated",
        "mrv_functions_tracked",
        "must_preserve_returns_in_functions",
        "tracking_incoming_arguments",
        "overdefined_inst_work_list",
        "inst_work_list",
        "bb_work_list",
        "known_feasible_edges",
        "additional_users",
        "fn_predicate_info",
        "_dispatch",
    )

    def __init__(self, dl: DataLayout, get_tli: Callable[[Function], TargetLibraryInfo | None] | None = None) -> None:
        self.dl = dl
        self.get_tli = get_tli
        self.bb_executable: set[BasicBlock] = set()
        self.value_state: dict[Value, ValueLatticeElement] = {}
        self.struct_value_state: dict[tuple[Value, int], ValueLatticeElement] = {}
        self.tracked_globals: dict[GlobalVariable, ValueLatticeElement] = {}
        self.tracked_ret_vals: dict[Function, ValueLatticeElement] = {}
        self.tracked_multiple_ret_vals: dict[tuple[Function, int], ValueLatticeElement] = {}
        self.invalidated: dict[Value, None] = {}
        self.mrv_functions_tracked: set[Function] = set()
        self.must_preserve_returns_in_functions: set[Function] = set()
        self.tracking_incoming_arguments: set[Function] = set()
        self.overdefined_inst_work_list: list[Value] = []
        self.inst_work_list: list[Value] = []
        self.bb_work_list: list[BasicBlock] = []
        self.known_feasible_edges: set[tuple[BasicBlock, BasicBlock]] = set()
        self.additional_users: dict[Value, dict[Instruction, None]] = {}
        self.fn_predicate_info: dict[Function, PredicateInfo] = {}
        d: dict[str, Callable[[Instruction], None]] = {}
        for op in CAST_OPCODES:
            d[op] = self._visit_cast
        for op in BINARY_OPCODE_CLASSES:
            d[op] = self._visit_binary_operator
        d["phi"] = self._visit_phi
        d["ret"] = self._visit_return
        for op in ("br", "switch", "indirectbr", "cleanupret", "catchret"):
            d[op] = self._visit_terminator
        d["catchswitch"] = self._visit_catch_switch
        d["invoke"] = self._visit_invoke
        d["callbr"] = self._visit_invoke
        d["call"] = self._visit_call
        for op in ("resume", "unreachable", "fence"):
            d[op] = self._visit_nothing
        d["select"] = self._visit_select
        d["fneg"] = self._visit_unary_operator
        d["freeze"] = self._visit_freeze
        d["icmp"] = self._visit_cmp
        d["fcmp"] = self._visit_cmp
        d["extractvalue"] = self._visit_extract_value
        d["insertvalue"] = self._visit_insert_value
        d["store"] = self._visit_store
        d["load"] = self._visit_load
        d["getelementptr"] = self._visit_gep
        self._dispatch = d

    # --- state lookup ---------------------------------------------------------------------
    def get_value_state(self, v: Value) -> ValueLatticeElement:
        """The element of ``v``, seeded from the constant itself on first sight."""
        lv = self.value_state.get(v)
        if lv is None:
            lv = self.value_state[v] = ValueLatticeElement()
            if v.is_constant:
                lv.mark_constant(v)  # type: ignore[arg-type]
        return lv

    def _state(self, v: Value) -> ValueLatticeElement:
        """LLVM's ``ValueState[V]``: the entry, created unknown when absent (no seeding)."""
        lv = self.value_state.get(v)
        if lv is None:
            lv = self.value_state[v] = ValueLatticeElement()
        return lv

    def get_struct_value_state(self, v: Value, i: int) -> ValueLatticeElement:
        key = (v, i)
        lv = self.struct_value_state.get(key)
        if lv is None:
            lv = self.struct_value_state[key] = ValueLatticeElement()
            if v.is_constant:
                elt = v.get_aggregate_element(i)  # type: ignore[attr-defined]
                if elt is None:
                    lv.mark_overdefined()
                else:
                    lv.mark_constant(elt)
        return lv

    def get_lattice_value_for(self, v: Value) -> ValueLatticeElement:
        lv = self.value_state.get(v)
        assert lv is not None, "value not in the solver's state"
        return lv

    def get_struct_lattice_value_for(self, v: Value) -> list[ValueLatticeElement]:
        n = len(v.type.elements)  # type: ignore[attr-defined]
        return [self.struct_value_state[(v, i)] for i in range(n)]

    def remove_lattice_value_for(self, v: Value) -> None:
        self.value_state.pop(v, None)

    # --- worklists and marking ------------------------------------------------------------
    def _push_to_work_list(self, iv: ValueLatticeElement, v: Value) -> None:
        if iv.tag == OVERDEFINED:
            wl = self.overdefined_inst_work_list
        else:
            wl = self.inst_work_list
        if not wl or wl[-1] is not v:
            wl.append(v)

    def _mark_constant(self, iv: ValueLatticeElement, v: Value, c: Constant, may_include_undef: bool = False) -> bool:
        if not iv.mark_constant(c, may_include_undef):
            return False
        self._push_to_work_list(iv, v)
        return True

    def _mark_constant_v(self, v: Value, c: Constant) -> bool:
        return self._mark_constant(self._state(v), v, c)

    def _mark_constant_range(self, iv: ValueLatticeElement, v: Value, cr: ConstantRange) -> bool:
        if not iv.mark_constant_range(cr):
            return False
        self._push_to_work_list(iv, v)
        return True

    def _mark_overdefined(self, iv: ValueLatticeElement, v: Value) -> bool:
        if not iv.mark_overdefined():
            return False
        self._push_to_work_list(iv, v)
        return True

    def mark_overdefined(self, v: Value) -> None:
        """Send ``v`` (every field of a struct) to overdefined."""
        ty = v.type
        if ty.is_struct:
            for i in range(len(ty.elements)):  # type: ignore[attr-defined]
                self._mark_overdefined(self.get_struct_value_state(v, i), v)
        else:
            self._mark_overdefined(self._state(v), v)

    def _merge_in_value(
        self, iv: ValueLatticeElement, v: Value, merge_with: ValueLatticeElement, opts: MergeOptions | None = None
    ) -> bool:
        if iv.merge_in(merge_with, opts):
            self._push_to_work_list(iv, v)
            return True
        return False

    def _merge_in_value_v(self, v: Value, merge_with: ValueLatticeElement, opts: MergeOptions | None = None) -> bool:
        return self._merge_in_value(self._state(v), v, merge_with, opts)

    def mark_block_executable(self, bb: BasicBlock) -> bool:
        """Make ``bb`` executable and queue it; False when it already was."""
        if bb in self.bb_executable:
            return False
        self.bb_executable.add(bb)
        self.bb_work_list.append(bb)
        return True

    def _mark_edge_executable(self, source: BasicBlock, dest: BasicBlock) -> bool:
        edge = (source, dest)
        if edge in self.known_feasible_edges:
            return False
        self.known_feasible_edges.add(edge)
        if not self.mark_block_executable(dest):
            for phi in dest.phis():
                self._visit_phi(phi)
        return True

    def is_block_executable(self, bb: BasicBlock) -> bool:
        return bb in self.bb_executable

    def is_edge_feasible(self, source: BasicBlock, dest: BasicBlock) -> bool:
        return (source, dest) in self.known_feasible_edges

    def _add_additional_user(self, v: Value, user: Instruction) -> None:
        users = self.additional_users.get(v)
        if users is None:
            users = self.additional_users[v] = {}
        users[user] = None

    def _operand_changed_state(self, inst: Instruction) -> None:
        if inst.parent in self.bb_executable:
            self.visit(inst)

    def _mark_users_as_changed(self, v: Value) -> None:
        # Solving never edits the IR, so the use-list may be walked in place.
        use = v._use_head
        if isinstance(v, Function):
            while use is not None:
                user = use.user
                if isinstance(user, CallBase):
                    self._handle_call_result(user)
                use = use._next
        else:
            executable = self.bb_executable
            dispatch = self._dispatch
            while use is not None:
                user = use.user
                if user.is_instruction and user.parent in executable:  # type: ignore[attr-defined]
                    visit = dispatch.get(user.opcode)  # type: ignore[attr-defined]
                    if visit is None:
                        self.mark_overdefined(user)
                    else:
                        visit(user)  # type: ignore[arg-type]
                use = use._next
        extra = self.additional_users.get(v)
        if extra:
            for inst in list(extra):
                self._operand_changed_state(inst)

    # --- interprocedural tracking ---------------------------------------------------------
    def track_value_of_global_variable(self, gv: GlobalVariable) -> None:
        """Follow the contents of a scalar global through its stores and loads."""
        if gv.value_type.is_single_value:
            iv = self.tracked_globals.get(gv)
            if iv is None:
                iv = self.tracked_globals[gv] = ValueLatticeElement()
            init = gv.initializer
            assert init is not None
            iv.mark_constant(init)

    def add_tracked_function(self, fn: Function) -> None:
        """Track ``fn``'s return value (one element per field of a struct return)."""
        rty = fn.return_type
        if rty.is_struct:
            self.mrv_functions_tracked.add(fn)
            for i in range(len(rty.elements)):  # type: ignore[attr-defined]
                self.tracked_multiple_ret_vals.setdefault((fn, i), ValueLatticeElement())
        elif not rty.is_void:
            self.tracked_ret_vals.setdefault(fn, ValueLatticeElement())

    def add_to_must_preserve_returns_in_functions(self, fn: Function) -> None:
        self.must_preserve_returns_in_functions.add(fn)

    def must_preserve_return(self, fn: Function) -> bool:
        return fn in self.must_preserve_returns_in_functions

    def add_argument_tracked_function(self, fn: Function) -> None:
        self.tracking_incoming_arguments.add(fn)

    def is_argument_tracked_function(self, fn: Function) -> bool:
        return fn in self.tracking_incoming_arguments

    def get_argument_tracked_functions(self) -> set[Function]:
        return self.tracking_incoming_arguments

    def get_tracked_ret_vals(self) -> dict[Function, ValueLatticeElement]:
        return self.tracked_ret_vals

    def get_tracked_globals(self) -> dict[GlobalVariable, ValueLatticeElement]:
        return self.tracked_globals

    def get_mrv_functions_tracked(self) -> set[Function]:
        return self.mrv_functions_tracked

    def track_value_of_argument(self, arg: Argument) -> None:
        """Seed an argument from its ``range`` attribute, else overdefined."""
        if arg.type.is_int_or_int_vector:
            cr = argument_range(arg)
            if cr is not None:
                self._mark_constant_range(self._state(arg), arg, cr)
                return
        self.mark_overdefined(arg)

    def is_struct_lattice_constant(self, fn: Function, sty: Type) -> bool:
        for i in range(len(sty.elements)):  # type: ignore[attr-defined]
            if not is_constant(self.tracked_multiple_ret_vals[(fn, i)]):
                return False
        return True

    def set_lattice_value_for_specialization_arguments(
        self, fn: Function, args: list[tuple[Argument, Constant]]
    ) -> None:
        """Seed the arguments of the clone ``fn``: the specialised ones constant, the
        others copied from the original function (LLVM ``setLatticeValueForSpecializationArguments``)."""
        it = 0
        old_fn = args[0][0].parent
        for new_arg, old_arg in zip(fn.args, old_fn.args):
            ty = new_arg.type
            if it < len(args) and args[it][0] is old_arg:
                actual = args[it][1]
                if ty.is_struct:
                    for i in range(len(ty.elements)):  # type: ignore[attr-defined]
                        lv = self.struct_value_state.setdefault((new_arg, i), ValueLatticeElement())
                        elt = actual.get_aggregate_element(i)
                        if elt is not None:
                            lv.mark_constant(elt)
                else:
                    self._state(new_arg).mark_constant(actual)
                it += 1
            elif ty.is_struct:
                for i in range(len(ty.elements)):  # type: ignore[attr-defined]
                    old = self.struct_value_state.setdefault((old_arg, i), ValueLatticeElement())
                    self.struct_value_state[(new_arg, i)] = old.copy()
            else:
                self.value_state[new_arg] = self._state(old_arg).copy()

    def mark_function_unreachable(self, fn: Function) -> None:
        for bb in fn.blocks:
            self.bb_executable.discard(bb)

    # --- constants out of the lattice -----------------------------------------------------
    def get_constant(self, lv: ValueLatticeElement, ty: Type) -> Constant | None:
        """The one constant ``lv`` stands for, or None."""
        tag = lv.tag
        if tag == CONSTANT:
            return lv.const_val
        if tag == CONSTANTRANGE or tag == CONSTANTRANGE_INCLUDING_UNDEF:
            single = lv.range.get_single_element()  # type: ignore[union-attr]
            if single is not None:
                return _int_constant(ty, single)
        return None

    def _get_constant_int(self, lv: ValueLatticeElement, ty: Type) -> ConstantInt | None:
        c = self.get_constant(lv, ty)
        return c if isinstance(c, ConstantInt) else None

    def get_constant_or_null(self, v: Value) -> Constant | None:
        """The constant to put for ``v``: its value, undef when never defined, None when overdefined."""
        ty = v.type
        if ty.is_struct:
            lvs = self.get_struct_lattice_value_for(v)
            if any(is_overdefined(lv) for lv in lvs):
                return None
            vals: list[Constant] = []
            for i, lv in enumerate(lvs):
                ety = ty.elements[i]  # type: ignore[attr-defined]
                c = self.get_constant(lv, ety) if is_constant(lv) else None
                vals.append(c if c is not None else UndefValue.get(ety))
            return ConstantStruct.get(ty, vals)  # type: ignore[arg-type]
        lv = self.get_lattice_value_for(v)
        if is_overdefined(lv):
            return None
        if is_constant(lv):
            return self.get_constant(lv, ty)
        return UndefValue.get(ty)

    # --- the visitors -------------------------------------------------------------------
    def visit(self, inst: Instruction) -> None:
        """Re-evaluate ``inst`` (an operand changed, or its block became executable)."""
        fn = self._dispatch.get(inst.opcode)
        if fn is None:
            self.mark_overdefined(inst)
        else:
            fn(inst)

    def _visit_nothing(self, inst: Instruction) -> None:
        return None

    def _visit_phi(self, phi: Instruction) -> None:
        if phi.type.is_struct:
            self.mark_overdefined(phi)
            return
        state = self.get_value_state(phi)
        if state.tag == OVERDEFINED:
            return
        ops = phi._operands
        n = len(ops)
        if n > 64:
            self.mark_overdefined(phi)
            return
        blocks = phi.incoming_blocks  # type: ignore[attr-defined]
        bb = phi.parent
        edges = self.known_feasible_edges
        num_active = 0
        phi_state = state.copy()
        for i in range(n):
            if (blocks[i], bb) not in edges:
                continue
            phi_state.merge_in(self.get_value_state(ops[i].value))
            num_active += 1
            if phi_state.tag == OVERDEFINED:
                break
        self._merge_in_value_v(phi, phi_state, MergeOptions().set_max_widen_steps(num_active + 1))
        ref = self.get_value_state(phi)
        ref.num_range_extensions = max(num_active, ref.num_range_extensions)

    def _visit_return(self, inst: Instruction) -> None:
        if not inst._operands:
            return
        fn = inst.parent.parent  # type: ignore[union-attr]
        result = inst._operands[0].value
        if self.tracked_ret_vals and not result.type.is_struct:
            tracked = self.tracked_ret_vals.get(fn)  # type: ignore[arg-type]
            if tracked is not None:
                self._merge_in_value(tracked, fn, self.get_value_state(result))  # type: ignore[arg-type]
                return
        if self.tracked_multiple_ret_vals and result.type.is_struct and fn in self.mrv_functions_tracked:
            for i in range(len(result.type.elements)):  # type: ignore[attr-defined]
                self._merge_in_value(
                    self.tracked_multiple_ret_vals[(fn, i)],
                    fn,
                    self.get_struct_value_state(result, i),
                )

    def _visit_terminator(self, inst: Instruction) -> None:
        feasible = self._get_feasible_successors(inst)
        bb = inst.parent
        assert bb is not None
        for i, ok in enumerate(feasible):
            if ok:
                self._mark_edge_executable(bb, inst.get_successor(i))

    def _visit_catch_switch(self, inst: Instruction) -> None:
        self.mark_overdefined(inst)
        self._visit_terminator(inst)

    def _visit_invoke(self, inst: Instruction) -> None:
        self._visit_call_base(inst)  # type: ignore[arg-type]
        self._visit_terminator(inst)

    def _get_feasible_successors(self, term: Instruction) -> list[bool]:
        n = term.num_successors
        succs = [False] * n
        op = term.opcode
        if op == "br":
            if not term.is_conditional:  # type: ignore[attr-defined]
                succs[0] = True
                return succs
            cond = term.condition  # type: ignore[attr-defined]
            bc = self.get_value_state(cond)
            ci = self._get_constant_int(bc, cond.type)
            if ci is None:
                if not bc.is_unknown_or_undef():
                    succs[0] = succs[1] = True
                return succs
            succs[1 if ci.value == 0 else 0] = True
            return succs
        if op in _SPECIAL_TERMINATORS:
            return [True] * n
        if op == "switch":
            cases = term.cases  # type: ignore[attr-defined]
            if not cases:
                succs[0] = True
                return succs
            cond = term.condition  # type: ignore[attr-defined]
            sc = self.get_value_state(cond)
            ci = self._get_constant_int(sc, cond.type)
            if ci is not None:
                for idx, (value, _) in enumerate(cases):
                    if value is ci:
                        succs[idx + 1] = True
                        return succs
                succs[0] = True
                return succs
            if sc.is_constant_range(False):
                rng = sc.range
                assert rng is not None
                reachable = 0
                for idx, (value, _) in enumerate(cases):
                    if rng.contains(value.value):
                        succs[idx + 1] = True
                        reachable += 1
                succs[0] = rng.is_size_larger_than(reachable)
                return succs
            if not sc.is_unknown_or_undef():
                return [True] * n
            return succs
        if op == "indirectbr":
            addr = term.address  # type: ignore[attr-defined]
            iv = self.get_value_state(addr)
            target = self.get_constant(iv, addr.type)
            if not isinstance(target, BlockAddress):
                if not iv.is_unknown_or_undef():
                    return [True] * n
                return succs
            block = target.block
            for i in range(n):
                if term.get_successor(i) is block:
                    succs[i] = True
                    return succs
            return succs
        return [True] * n

    def _visit_cast(self, inst: Instruction) -> None:
        if self._state(inst).tag == OVERDEFINED:
            return
        src = inst._operands[0].value
        op_st = self.get_value_state(src)
        if op_st.tag <= UNDEF:
            return
        op_c = self.get_constant(op_st, src.type)
        if op_c is not None:
            c = constant_fold_cast_operand(inst.opcode, op_c, inst.type, self.dl)
            if c is not None:
                self._mark_constant_v(inst, c)
                return
        dest = inst.type
        if dest.is_int_or_int_vector and src.type.is_int_or_int_vector and inst.opcode != "bitcast":
            lv = self.get_value_state(inst)
            op_range = op_st.as_constant_range(src.type, False)
            res = op_range.cast_op(inst.opcode, _scalar_bits(dest))
            self._merge_in_value(lv, inst, ValueLatticeElement.get_range(res))
        else:
            self.mark_overdefined(inst)

    def _handle_extract_of_with_overflow(self, evi: Instruction, wo: CallBase, idx: int, kind: tuple[str, str]) -> None:
        lhs = wo.get_arg(0)
        rhs = wo.get_arg(1)
        left = self.get_value_state(lhs)
        right = self.get_value_state(rhs)
        self._add_additional_user(lhs, evi)
        self._add_additional_user(rhs, evi)
        if left.tag <= UNDEF or right.tag <= UNDEF:
            return
        ty = lhs.type
        lr = left.as_constant_range(ty, False)
        rr = right.as_constant_range(ty, False)
        if idx == 0:
            res = lr.binary_op(kind[0], rr)
            self._merge_in_value_v(evi, ValueLatticeElement.get_range(res))
        else:
            region = ConstantRange.make_guaranteed_no_wrap_region(kind[0], rr, kind[1] == "nuw")
            if region.contains_range(lr):
                self._mark_constant_v(evi, _bool_constant(evi.type, False))
                return
            self.mark_overdefined(evi)

    def _visit_extract_value(self, evi: Instruction) -> None:
        if evi.type.is_struct:
            self.mark_overdefined(evi)
            return
        if self._state(evi).tag == OVERDEFINED:
            self.mark_overdefined(evi)
            return
        indices = evi.indices  # type: ignore[attr-defined]
        if len(indices) != 1:
            self.mark_overdefined(evi)
            return
        agg = evi._operands[0].value
        if agg.type.is_struct:
            i = indices[0]
            if isinstance(agg, CallBase):
                kind = _WITH_OVERFLOW.get(_intrinsic_id(agg))
                if kind is not None:
                    self._handle_extract_of_with_overflow(evi, agg, i, kind)
                    return
            elt = self.get_struct_value_state(agg, i).copy()
            self._merge_in_value(self.get_value_state(evi), evi, elt)
        else:
            self.mark_overdefined(evi)

    def _visit_insert_value(self, ivi: Instruction) -> None:
        sty = ivi.type
        if not sty.is_struct:
            self.mark_overdefined(ivi)
            return
        if is_overdefined(self._state(ivi)):
            self.mark_overdefined(ivi)
            return
        indices = ivi.indices  # type: ignore[attr-defined]
        if len(indices) != 1:
            self.mark_overdefined(ivi)
            return
        aggr = ivi._operands[0].value
        idx = indices[0]
        for i in range(len(sty.elements)):  # type: ignore[attr-defined]
            if i != idx:
                elt = self.get_struct_value_state(aggr, i).copy()
                self._merge_in_value(self.get_struct_value_state(ivi, i), ivi, elt)
                continue
            val = ivi._operands[1].value
            if val.type.is_struct:
                self._mark_overdefined(self.get_struct_value_state(ivi, i), ivi)
            else:
                in_val = self.get_value_state(val).copy()
                self._merge_in_value(self.get_struct_value_state(ivi, i), ivi, in_val)

    def _visit_select(self, inst: Instruction) -> None:
        if inst.type.is_struct:
            self.mark_overdefined(inst)
            return
        if self._state(inst).tag == OVERDEFINED:
            self.mark_overdefined(inst)
            return
        ops = inst._operands
        cond = ops[0].value
        cond_value = self.get_value_state(cond)
        if cond_value.tag <= UNDEF:
            return
        ci = self._get_constant_int(cond_value, cond.type)
        if ci is not None:
            chosen = ops[2].value if ci.value == 0 else ops[1].value
            self._merge_in_value_v(inst, self.get_value_state(chosen))
            return
        tval = self.get_value_state(ops[1].value)
        fval = self.get_value_state(ops[2].value)
        state = self._state(inst)
        changed = state.merge_in(tval)
        changed = state.merge_in(fval) or changed
        if changed:
            self._push_to_work_list(state, inst)

    def _visit_unary_operator(self, inst: Instruction) -> None:
        self._visit_one_operand(inst, False)

    def _visit_freeze(self, inst: Instruction) -> None:
        if inst.type.is_struct:
            self.mark_overdefined(inst)
            return
        self._visit_one_operand(inst, True)

    def _visit_one_operand(self, inst: Instruction, freeze: bool) -> None:
        """``fneg`` folds its constant operand; ``freeze`` keeps one that is neither undef nor poison."""
        v0 = self.get_value_state(inst._operands[0].value)
        iv = self._state(inst)
        if is_overdefined(iv):
            self.mark_overdefined(inst)
            return
        if v0.tag <= UNDEF:
            return
        if is_constant(v0):
            op_c = self.get_constant(v0, inst.type)
            c: Constant | None = None
            if op_c is not None:
                if freeze:
                    c = op_c if is_guaranteed_not_to_be_undef_or_poison(op_c) else None
                else:
                    c = constant_fold_unary_op_operand(inst.opcode, op_c, self.dl)
            if c is not None:
                self._mark_constant(iv, inst, c)
                return
        self.mark_overdefined(inst)

    def _visit_binary_operator(self, inst: Instruction) -> None:
        ops = inst._operands
        op0 = ops[0].value
        op1 = ops[1].value
        v1 = self.get_value_state(op0)
        v2 = self.get_value_state(op1)
        iv = self._state(inst)
        if iv.tag == OVERDEFINED:
            return
        if v1.tag <= UNDEF or v2.tag <= UNDEF:
            return
        if v1.tag == OVERDEFINED and v2.tag == OVERDEFINED:
            self.mark_overdefined(inst)
            return
        if v1.tag == CONSTANT or v2.tag == CONSTANT:
            a: Value = op0
            b: Value = op1
            if is_constant(v1):
                a = self.get_constant(v1, op0.type) or op0
            if is_constant(v2):
                b = self.get_constant(v2, op1.type) or op1
            r = simplify_binop(inst.opcode, a, b, SimplifyQuery(self.dl))
            if r is not None and r.is_constant:
                new_v = ValueLatticeElement()
                new_v.mark_constant(r, True)  # type: ignore[arg-type]
                self._merge_in_value_v(inst, new_v)
                return
        ty = inst.type
        if not ty.is_int_or_int_vector:
            self.mark_overdefined(inst)
            return
        ra = v1.as_constant_range(ty, False)
        rb = v2.as_constant_range(ty, False)
        opcode = inst.opcode
        if opcode in _OVERFLOWING_OPCODES:
            r_range = ra.overflowing_binary_op(opcode, rb, inst.nuw, inst.nsw)  # type: ignore[attr-defined]
        else:
            r_range = ra.binary_op(opcode, rb)
        self._merge_in_value_v(inst, ValueLatticeElement.get_range(r_range))

    def _visit_cmp(self, inst: Instruction) -> None:
        if is_overdefined(self._state(inst)):
            self.mark_overdefined(inst)
            return
        ops = inst._operands
        v1 = self.get_value_state(ops[0].value)
        v2 = self.get_value_state(ops[1].value)
        c = v1.get_compare(inst.predicate, inst.type, v2, self.dl)  # type: ignore[attr-defined]
        if c is not None:
            cv = ValueLatticeElement()
            cv.mark_constant(c)
            self._merge_in_value_v(inst, cv)
            return
        if (v1.tag <= UNDEF or v2.tag <= UNDEF) and not is_constant(self._state(inst)):
            return
        self.mark_overdefined(inst)

    def _visit_gep(self, inst: Instruction) -> None:
        if is_overdefined(self._state(inst)):
            self.mark_overdefined(inst)
            return
        operands: list[Constant] = []
        for use in inst._operands:
            v = use.value
            state = self.get_value_state(v)
            if state.tag <= UNDEF:
                return
            if is_overdefined(state):
                self.mark_overdefined(inst)
                return
            c = self.get_constant(state, v.type)
            if c is None:
                self.mark_overdefined(inst)
                return
            operands.append(c)
        folded = constant_fold_inst_operands(inst, operands, self.dl)
        if folded is not None:
            self._mark_constant_v(inst, folded)

    def _visit_store(self, inst: Instruction) -> None:
        val = inst._operands[0].value
        if val.type.is_struct:
            return
        ptr = inst._operands[1].value
        if not self.tracked_globals or not isinstance(ptr, GlobalVariable):
            return
        iv = self.tracked_globals.get(ptr)
        if iv is None:
            return
        self._merge_in_value(iv, ptr, self.get_value_state(val), MergeOptions().set_check_widen(False))
        if iv.tag == OVERDEFINED:
            del self.tracked_globals[ptr]

    def _visit_load(self, inst: Instruction) -> None:
        if inst.type.is_struct or inst.is_volatile:
            self.mark_overdefined(inst)
            return
        if self._state(inst).tag == OVERDEFINED:
            self.mark_overdefined(inst)
            return
        ptr_v = inst._operands[0].value
        ptr_val = self.get_value_state(ptr_v)
        if ptr_val.tag <= UNDEF:
            return
        iv = self._state(inst)
        if is_constant(ptr_val):
            ptr = self.get_constant(ptr_val, ptr_v.type)
            assert ptr is not None
            if isinstance(ptr, ConstantPointerNull):
                if null_pointer_is_defined(inst.function, ptr_v.type.address_space):  # type: ignore[attr-defined]
                    self._mark_overdefined(iv, inst)
                return
            if isinstance(ptr, GlobalVariable) and self.tracked_globals:
                tracked = self.tracked_globals.get(ptr)
                if tracked is not None:
                    self._merge_in_value(iv, inst, tracked, _max_widen_steps_opts())
                    return
            c = constant_fold_load_from_const_ptr(ptr, inst.type, self.dl)
            if c is not None:
                self._mark_constant(iv, inst, c)
                return
        self._merge_in_value_v(inst, _value_from_metadata(inst))

    def _visit_call(self, inst: Instruction) -> None:
        assert isinstance(inst, CallBase)
        self._visit_call_base(inst)

    def _visit_call_base(self, cb: CallBase) -> None:
        self._handle_call_result(cb)
        self._handle_call_arguments(cb)

    def _handle_call_overdefined(self, cb: CallBase) -> None:
        fn = cb.called_function
        ty = cb.type
        if ty.is_void:
            return
        if ty.is_struct:
            self.mark_overdefined(cb)
            return
        if fn is not None and fn.is_declaration:
            if can_constant_fold_call_to(cb, fn):
                operands: list[Constant] = []
                for a in cb.args:
                    aty = a.type
                    if aty.is_struct:
                        self.mark_overdefined(cb)
                        return
                    if aty.is_metadata:
                        continue
                    state = self.get_value_state(a)
                    if state.tag <= UNDEF:
                        return
                    if is_overdefined(state):
                        self.mark_overdefined(cb)
                        return
                    c = self.get_constant(state, aty)
                    assert c is not None
                    operands.append(c)
                if is_overdefined(self.get_value_state(cb)):
                    self.mark_overdefined(cb)
                    return
                tli = self.get_tli(fn) if self.get_tli is not None else None
                folded = constant_fold_call(cb, fn, operands, tli)
                if folded is not None:
                    self._mark_constant_v(cb, folded)
                    return
        self._merge_in_value_v(cb, _value_from_metadata(cb))

    def _handle_call_arguments(self, cb: CallBase) -> None:
        fn = cb.called_function
        if fn is None or fn not in self.tracking_incoming_arguments:
            return
        self.mark_block_executable(fn.blocks.first)  # type: ignore[arg-type]
        actuals = cb.args
        only_reads = None
        for formal, actual in zip(fn.args, actuals):
            if formal.has_attribute("byval"):
                if only_reads is None:
                    only_reads = fn.attributes.fn_attrs.memory_effects.only_reads_memory
                if not only_reads:
                    self.mark_overdefined(formal)
                    continue
            if formal.type.is_struct:
                for i in range(len(formal.type.elements)):  # type: ignore[attr-defined]
                    call_arg = self.get_struct_value_state(actual, i).copy()
                    self._merge_in_value(
                        self.get_struct_value_state(formal, i), formal, call_arg, _max_widen_steps_opts()
                    )
            else:
                self._merge_in_value_v(formal, self.get_value_state(actual), _max_widen_steps_opts())

    def _handle_call_result(self, cb: CallBase) -> None:
        fn = cb.called_function
        if fn is not None and fn.intrinsic_id:
            name = _intrinsic_id(cb)
            if name == "llvm.ssa.copy":
                self._handle_ssa_copy(cb)
                return
            if name in _RANGE_INTRINSICS:
                op_ranges: list[ConstantRange] = []
                for a in cb.args:
                    state = self.get_value_state(a)
                    if state.tag <= UNDEF:
                        return
                    op_ranges.append(state.as_constant_range(a.type, False))
                result = op_ranges[0].intrinsic(name, op_ranges[1:])
                self._merge_in_value_v(cb, ValueLatticeElement.get_range(result))
                return
        if fn is None or fn.is_declaration:
            self._handle_call_overdefined(cb)
            return
        rty = fn.return_type
        if rty.is_struct:
            if fn not in self.mrv_functions_tracked:
                self._handle_call_overdefined(cb)
                return
            for i in range(len(rty.elements)):  # type: ignore[attr-defined]
                self._merge_in_value(
                    self.get_struct_value_state(cb, i),
                    cb,
                    self.tracked_multiple_ret_vals[(fn, i)],
                    _max_widen_steps_opts(),
                )
        else:
            tracked = self.tracked_ret_vals.get(fn)
            if tracked is None:
                self._handle_call_overdefined(cb)
                return
            self._merge_in_value_v(cb, tracked, _max_widen_steps_opts())

    def _handle_ssa_copy(self, cb: CallBase) -> None:
        """A PredicateInfo copy: its operand's facts narrowed by the branch or assume fact."""
        iv = self._state(cb)
        if iv.tag == OVERDEFINED:
            return
        copy_of = cb.get_arg(0)
        copy_of_val = self.get_value_state(copy_of)
        pi = self.get_predicate_info_for(cb)
        constraint = pi.get_constraint() if pi is not None else None
        if constraint is None:
            self._merge_in_value(iv, cb, copy_of_val)
            return
        pred, other = constraint
        if self.get_value_state(other).tag == UNKNOWN:
            self._add_additional_user(other, cb)
            return
        cond_val = self.get_value_state(other)
        if cond_val.is_constant_range() or copy_of_val.is_constant_range():
            bits = _scalar_bits(copy_of.type) if copy_of.type.is_int_or_int_vector else self.dl.pointer_size_in_bits()
            imposed = ConstantRange.get_full(bits)
            if cond_val.is_constant_range():
                imposed = ConstantRange.make_allowed_icmp_region(pred, cond_val.range)  # type: ignore[arg-type]
            copy_of_cr = copy_of_val.as_constant_range(copy_of.type, True)
            if copy_of_cr.is_empty_set():
                copy_of_cr = ConstantRange.get_full(copy_of_cr.bit_width)
            new_cr = imposed.intersect_with(copy_of_cr)
            if not copy_of_cr.contains_range(new_cr) and copy_of_cr.get_single_missing_element() is not None:
                new_cr = copy_of_cr
            self._add_additional_user(other, cb)
            self._merge_in_value(iv, cb, ValueLatticeElement.get_range(new_cr, False))
            return
        if pred == Predicate.ICMP_EQ and (cond_val.is_constant() or cond_val.is_not_constant()):
            self._add_additional_user(other, cb)
            self._merge_in_value(iv, cb, cond_val)
            return
        if pred == Predicate.ICMP_NE and cond_val.is_constant():
            self._add_additional_user(other, cb)
            self._merge_in_value(iv, cb, ValueLatticeElement.get_not(cond_val.get_constant()))
            return
        self._merge_in_value(iv, cb, copy_of_val)

    # --- PredicateInfo (ipsccp) -------------------------------------------------------------
    def add_predicate_info(self, fn: Function, dt: DominatorTree, ac: AssumptionCache) -> None:
        """Build ``fn``'s PredicateInfo (inserting its ``llvm.ssa.copy`` calls)."""
        from llvmpy_mid.transform.utils.predicate_info import PredicateInfo

        self.fn_predicate_info[fn] = PredicateInfo(fn, dt, ac)

    def get_predicate_info_for(self, inst: Instruction) -> PredicateBase | None:
        if not self.fn_predicate_info:
            return None
        bb = inst.parent
        pi = self.fn_predicate_info.get(bb.parent) if bb is not None else None  # type: ignore[arg-type]
        return pi.get_predicate_info_for(inst) if pi is not None else None

    # --- solving ------------------------------------------------------------------------
    def solve(self) -> None:
        """Drain the worklists: overdefined values first, then changed values, then blocks."""
        od_wl = self.overdefined_inst_work_list
        wl = self.inst_work_list
        bb_wl = self.bb_work_list
        invalidated = self.invalidated
        while bb_wl or wl or od_wl:
            while od_wl:
                v = od_wl.pop()
                invalidated.pop(v, None)
                self._mark_users_as_changed(v)
            while wl:
                v = wl.pop()
                invalidated.pop(v, None)
                if v.type.is_struct or self.get_value_state(v).tag != OVERDEFINED:
                    self._mark_users_as_changed(v)
            while bb_wl:
                bb = bb_wl.pop()
                for inst in bb:
                    self.visit(inst)

    def resolved_undef(self, inst: Instruction) -> bool:
        """Send ``inst`` to overdefined when it is still unknown; True when it changed."""
        ty = inst.type
        if ty.is_void:
            return False
        if ty.is_struct:
            if isinstance(inst, CallBase):
                fn = inst.called_function
                if fn is not None and fn in self.mrv_functions_tracked:
                    return False
            if inst.opcode == "extractvalue" or inst.opcode == "insertvalue":
                return False
            for i in range(len(ty.elements)):  # type: ignore[attr-defined]
                lv = self.get_struct_value_state(inst, i)
                if lv.tag == UNKNOWN:
                    self._mark_overdefined(lv, inst)
                    return True
            return False
        lv = self.get_value_state(inst)
        if lv.tag != UNKNOWN:
            return False
        if isinstance(inst, CallBase):
            fn = inst.called_function
            if fn is not None and fn in self.tracked_ret_vals:
                return False
        if inst.opcode == "load":
            return False
        self.mark_overdefined(inst)
        return True

    def resolved_undefs_in(self, fn: Function) -> bool:
        """:meth:`resolved_undef` over the executable blocks of ``fn``."""
        made_change = False
        executable = self.bb_executable
        for bb in fn.blocks:
            if bb not in executable:
                continue
            for inst in bb:
                if self.resolved_undef(inst):
                    made_change = True
        return made_change

    def solve_while_resolved_undefs_in(self, functions: list[Function]) -> None:
        resolved = True
        while resolved:
            self.solve()
            resolved = False
            for fn in functions:
                if self.resolved_undefs_in(fn):
                    resolved = True

    def solve_while_resolved_undefs(self) -> None:
        resolved = True
        while resolved:
            self.solve()
            resolved = False
            for v in list(self.invalidated):
                if isinstance(v, Instruction) and self.resolved_undef(v):
                    resolved = True
        self.invalidated.clear()

    def _invalidate(self, call: CallBase) -> None:
        to_invalidate: list[Instruction] = [call]
        while to_invalidate:
            inst = to_invalidate.pop()
            if inst in self.invalidated:
                continue
            self.invalidated[inst] = None
            if inst.parent not in self.bb_executable:
                continue
            v: Value | None = None
            if inst.opcode == "ret":
                fn = inst.parent.parent
                if fn in self.tracked_ret_vals:
                    self.tracked_ret_vals[fn] = ValueLatticeElement()
                    v = fn
                elif fn in self.mrv_functions_tracked:
                    for i in range(len(fn.return_type.elements)):  # type: ignore[attr-defined]
                        self.tracked_multiple_ret_vals[(fn, i)] = ValueLatticeElement()
                    v = fn
            elif inst.type.is_struct:
                for i in range(len(inst.type.elements)):  # type: ignore[attr-defined]
                    if (inst, i) in self.struct_value_state:
                        self.struct_value_state[(inst, i)] = ValueLatticeElement()
                        v = inst
            elif inst in self.value_state:
                self.value_state[inst] = ValueLatticeElement()
                v = inst
            if v is not None:
                for user in v.users:
                    if isinstance(user, Instruction):
                        to_invalidate.append(user)
                extra = self.additional_users.get(v)
                if extra:
                    to_invalidate.extend(extra)

    def reset_lattice_value_for(self, call: CallBase) -> None:
        """Forget what was found for ``call`` and its users, then recompute its result."""
        self._invalidate(call)
        self._handle_call_result(call)

    # --- rewriting the IR from the solution (sccp_rewrite.py) -----------------------------
    def try_to_replace_with_constant(self, v: Value) -> bool:
        """Replace every use of ``v`` by its constant; False when it has none (or may not)."""
        from llvmpy_mid.transform.utils.sccp_rewrite import try_to_replace_with_constant

        return try_to_replace_with_constant(self, v)

    def simplify_insts_in_block(self, bb: BasicBlock, inserted_values: set[Value]) -> tuple[bool, int, int]:
        """Rewrite ``bb`` from the solution; (changed, instructions removed, instructions replaced)."""
        from llvmpy_mid.transform.utils.sccp_rewrite import simplify_insts_in_block

        return simplify_insts_in_block(self, bb, inserted_values)

    def remove_non_feasible_edges(self, bb: BasicBlock, dtu: DomTreeUpdater | None, new_unreachable: list[BasicBlock | None]) -> bool:
        """Drop the edges out of ``bb`` never found feasible (LLVM ``removeNonFeasibleEdges``)."""
        from llvmpy_mid.transform.utils.sccp_rewrite import remove_non_feasible_edges

        return remove_non_feasible_edges(self, bb, dtu, new_unreachable)


__all__ = [
    "MAX_NUM_RANGE_EXTENSIONS",
    "SCCPSolver",
    "argument_range",
    "call_return_range",
    "is_constant",
    "is_overdefined",
]
