"""``called-value-propagation``: ``!callees`` metadata on indirect calls (LLVM ``CalledValuePropagationPass``).

Follows LLVM 19.1.7's ``lib/Transforms/IPO/CalledValuePropagation.cpp`` over a
sparse solver shaped as ``include/llvm/Analysis/SparsePropagation.h``'s
``SparseSolver``.

How: the lattice value of a key is *undefined*, a *set of functions* (sorted by
name, at most ``-cvp-max-functions-per-value`` = 4 of them), *overdefined* or
*untracked*. Keys are a value in one of three groupings: a register (an SSA
value), the return value of a function, or the contents of a global variable.
Constants start as the function they strip to (null: the empty set), the
arguments of local functions whose address is not taken and all instructions
start undefined, other arguments overdefined; returns of functions with an
exact definition start undefined and trackable globals (as ``ipsccp`` decides)
start from their initializer. Direct calls of tracked functions merge actual
into formal arguments and the return into the call; loads and stores of
globals go through the global's contents; ``select`` merges both arms; ``phi``
merges its feasible incoming values; any other instruction with uses is
overdefined. Blocks become executable from the entries of functions that may be
called from outside and from calls; branch and switch conditions are never
constants here, so both ways are feasible once the condition is known.

When solved, every indirect call seen whose callee is a non-empty set of
functions gets ``!callees !{ptr @f, ...}``. The pass reports every analysis
preserved, as LLVM's does.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ipo.sccp import (
    can_track_arguments_interprocedurally,
    can_track_global_variable_interprocedurally,
    can_track_returns_interprocedurally,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantPointerNull
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDNode, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

UNDEFINED = 0
FUNCTION_SET = 1
OVERDEFINED = 2
UNTRACKED = 3

REGISTER = 0
RETURN = 1
MEMORY = 2

LatticeVal = tuple[int, tuple[Function, ...]]
Key = tuple[Value, int]

_UNDEF: LatticeVal = (UNDEFINED, ())
_OVERDEFINED: LatticeVal = (OVERDEFINED, ())
_UNTRACKED: LatticeVal = (UNTRACKED, ())


def _max_functions_per_value() -> int:
    return int(OPTIONS.value("cvp-max-functions-per-value"))


class _CVPSolver:
    """The sparse solver with CVP's lattice function folded in."""

    def __init__(self) -> None:
        self.value_state: dict[Key, LatticeVal] = {}
        self.bb_executable: set[BasicBlock] = set()
        self.known_feasible_edges: set[tuple[BasicBlock, BasicBlock]] = set()
        self.bb_work_list: list[BasicBlock] = []
        self.value_work_list: list[Value] = []
        self.indirect_calls: dict[CallBase, None] = {}
        self.max_functions = _max_functions_per_value()

    # --- lattice function -------------------------------------------------------------------
    def _compute_constant(self, c: Value) -> LatticeVal:
        if isinstance(c, ConstantPointerNull):
            return (FUNCTION_SET, ())
        stripped = strip_pointer_casts(c)
        if isinstance(stripped, Function):
            return (FUNCTION_SET, (stripped,))
        return _OVERDEFINED

    def _compute_lattice_val(self, key: Key) -> LatticeVal:
        v, group = key
        if group == REGISTER:
            if isinstance(v, Instruction):
                return _UNDEF
            if isinstance(v, Argument):
                if can_track_arguments_interprocedurally(v.parent):
                    return _UNDEF
                return _OVERDEFINED
            if v.is_constant:
                return self._compute_constant(v)
            return _OVERDEFINED
        if isinstance(v, GlobalVariable):
            if can_track_global_variable_interprocedurally(v):
                init = v.initializer
                assert init is not None
                return self._compute_constant(init)
        elif isinstance(v, Function):
            if can_track_returns_interprocedurally(v):
                return _UNDEF
        return _OVERDEFINED

    def merge(self, x: LatticeVal, y: LatticeVal) -> LatticeVal:
        if x == _OVERDEFINED or y == _OVERDEFINED:
            return _OVERDEFINED
        if x == _UNDEF and y == _UNDEF:
            return _UNDEF
        union: list[Function] = []
        a = x[1]
        b = y[1]
        i = j = 0
        while i < len(a) and j < len(b):
            na = a[i].name
            nb = b[j].name
            if na < nb:
                union.append(a[i])
                i += 1
            elif nb < na:
                union.append(b[j])
                j += 1
            else:
                union.append(a[i])
                i += 1
                j += 1
        union.extend(a[i:])
        union.extend(b[j:])
        if len(union) > self.max_functions:
            return _OVERDEFINED
        return (FUNCTION_SET, tuple(union))

    # --- solver -------------------------------------------------------------------------------
    def get_value_state(self, key: Key) -> LatticeVal:
        lv = self.value_state.get(key)
        if lv is not None:
            return lv
        lv = self._compute_lattice_val(key)
        if lv == _UNTRACKED:
            return lv
        self.value_state[key] = lv
        return lv

    def get_existing_value_state(self, key: Key) -> LatticeVal:
        return self.value_state.get(key, _UNTRACKED)

    def _update_state(self, key: Key, lv: LatticeVal) -> None:
        if self.value_state.get(key) == lv:
            return
        self.value_state[key] = lv
        self.value_work_list.append(key[0])

    def mark_block_executable(self, bb: BasicBlock) -> None:
        if bb in self.bb_executable:
            return
        self.bb_executable.add(bb)
        self.bb_work_list.append(bb)

    def _mark_edge_executable(self, src: BasicBlock, dest: BasicBlock) -> None:
        edge = (src, dest)
        if edge in self.known_feasible_edges:
            return
        self.known_feasible_edges.add(edge)
        if dest in self.bb_executable:
            for phi in dest.phis():
                self._visit_phi(phi)
        else:
            self.mark_block_executable(dest)

    def _feasible_successors(self, term: Instruction) -> list[bool]:
        n = term.num_successors
        if n == 0:
            return []
        op = term.opcode
        if op == "br" and not term.is_conditional:  # type: ignore[attr-defined]
            return [True]
        if op != "br" and op != "switch":
            return [True] * n
        cond = term.condition  # type: ignore[attr-defined]
        lv = self.get_value_state((cond, REGISTER))
        if lv == _UNDEF:
            return [False] * n
        # Overdefined, untracked, or a function set (never a ConstantInt): every way is open.
        return [True] * n

    def _is_edge_feasible(self, src: BasicBlock, dest: BasicBlock) -> bool:
        term = src.terminator
        if term is None:
            return False
        feasible = self._feasible_successors(term)
        for i, ok in enumerate(feasible):
            if ok and term.get_successor(i) is dest:
                return True
        return False

    def _visit_terminator(self, term: Instruction) -> None:
        bb = term.parent
        assert bb is not None
        for i, ok in enumerate(self._feasible_successors(term)):
            if ok:
                self._mark_edge_executable(bb, term.get_successor(i))

    def _visit_phi(self, phi: Instruction) -> None:
        key: Key = (phi, REGISTER)
        pniv = self.get_value_state(key)
        if pniv == _OVERDEFINED or pniv == _UNTRACKED:
            return
        ops = phi._operands
        if len(ops) > 64:
            self._update_state(key, _OVERDEFINED)
            return
        blocks = phi.incoming_blocks  # type: ignore[attr-defined]
        bb = phi.parent
        assert bb is not None
        for i in range(len(ops)):
            if not self._is_edge_feasible(blocks[i], bb):
                continue
            op_val = self.get_value_state((ops[i].value, REGISTER))
            if op_val != pniv:
                pniv = self.merge(pniv, op_val)
            if pniv == _OVERDEFINED:
                break
        self._update_state(key, pniv)

    def visit_inst(self, inst: Instruction) -> None:
        if inst.opcode == "phi":
            self._visit_phi(inst)
            return
        changed: dict[Key, LatticeVal] = {}
        self._compute_instruction_state(inst, changed)
        for key, lv in changed.items():
            if lv != _UNTRACKED:
                self._update_state(key, lv)
        if inst.is_terminator:
            self._visit_terminator(inst)

    def _compute_instruction_state(self, inst: Instruction, changed: dict[Key, LatticeVal]) -> None:
        op = inst.opcode
        if op == "call" or op == "invoke":
            assert isinstance(inst, CallBase)
            self._visit_call_base(inst, changed)
        elif op == "load":
            reg: Key = (inst, REGISTER)
            ptr = inst._operands[0].value
            if isinstance(ptr, GlobalVariable):
                changed[reg] = self.merge(self.get_value_state(reg), self.get_value_state((ptr, MEMORY)))
            else:
                changed[reg] = _OVERDEFINED
        elif op == "ret":
            fn = inst.function
            assert fn is not None
            if fn.return_type.is_void:
                return
            ret_key: Key = (fn, RETURN)
            changed[ret_key] = self.merge(
                self.get_value_state((inst._operands[0].value, REGISTER)), self.get_value_state(ret_key)
            )
        elif op == "select":
            changed[(inst, REGISTER)] = self.merge(
                self.get_value_state((inst._operands[1].value, REGISTER)),
                self.get_value_state((inst._operands[2].value, REGISTER)),
            )
        elif op == "store":
            ptr = inst._operands[1].value
            if not isinstance(ptr, GlobalVariable):
                return
            mem: Key = (ptr, MEMORY)
            changed[mem] = self.merge(
                self.get_value_state((inst._operands[0].value, REGISTER)), self.get_value_state(mem)
            )
        else:
            if inst.use_empty:
                return
            changed[(inst, REGISTER)] = _OVERDEFINED

    def _visit_call_base(self, cb: CallBase, changed: dict[Key, LatticeVal]) -> None:
        fn = cb.called_function
        reg: Key = (cb, REGISTER)
        if fn is None:
            self.indirect_calls[cb] = None
        if fn is None or not can_track_returns_interprocedurally(fn):
            if cb.type.is_void:
                return
            changed[reg] = _OVERDEFINED
            return
        self.mark_block_executable(fn.entry_block)
        ret_key: Key = (fn, RETURN)
        for arg in fn.args:
            formal: Key = (arg, REGISTER)
            actual: Key = (cb.get_arg(arg.arg_no), REGISTER)
            changed[formal] = self.merge(self.get_value_state(formal), self.get_value_state(actual))
        if cb.type.is_void:
            return
        changed[reg] = self.merge(self.get_value_state(reg), self.get_value_state(ret_key))

    def solve(self) -> None:
        vwl = self.value_work_list
        bwl = self.bb_work_list
        executable = self.bb_executable
        while bwl or vwl:
            while vwl:
                v = vwl.pop()
                for user in list(v.users):
                    if isinstance(user, Instruction) and user.parent in executable:
                        self.visit_inst(user)
            while bwl:
                bb = bwl.pop()
                for inst in list(bb):
                    self.visit_inst(inst)


def run_called_value_propagation(module: Module) -> bool:
    """Attach ``!callees`` to indirect calls with a known set of targets; True when any was."""
    solver = _CVPSolver()
    for fn in module.functions:
        if not fn.is_declaration and not can_track_arguments_interprocedurally(fn):
            solver.mark_block_executable(fn.entry_block)
    solver.solve()
    changed = False
    for call in solver.indirect_calls:
        lv = solver.get_existing_value_state((call.called_operand, REGISTER))
        if lv[0] != FUNCTION_SET or not lv[1]:
            continue
        ctx = module.context
        node = MDNode.get(ctx, [ValueAsMetadata.get(f) for f in lv[1]])
        call.set_metadata("callees", node)
        changed = True
    return changed


class CalledValuePropagationPass(Pass[Module]):
    """Adds ``!callees`` metadata to indirect calls (``-passes=called-value-propagation``)."""

    name: ClassVar[str] = "called-value-propagation"
    debug_type: ClassVar[str] = "called-value-propagation"

    @property
    def log_name(self) -> str:
        return "CalledValuePropagationPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        run_called_value_propagation(unit)
        return PreservedAnalyses.all()


__all__ = ["CalledValuePropagationPass", "run_called_value_propagation"]
