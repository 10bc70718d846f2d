"""Rewriting a function from an SCCP solution (LLVM ``SCCPSolver.cpp``'s IR side).

Follows LLVM 19.1.7's ``lib/Transforms/Utils/SCCPSolver.cpp``: what ``sccp`` and
``ipsccp`` do once :class:`~llvmpy_mid.transform.utils.sccp_solver.SCCPSolver` has
solved. :func:`try_to_replace_with_constant` puts a value's constant in place of
its uses (never for a ``musttail`` call that must stay, nor a call whose result a
``clang.arc.attachedcall`` bundle uses); :func:`simplify_insts_in_block` does that
for every instruction of a block, erasing the ones that become removable, and
otherwise turns ``sext``/``sitofp``/``ashr``/``sdiv``/``srem`` of non-negative
operands into ``zext nneg``/``uitofp nneg``/``lshr``/``udiv``/``urem``
(``replaceSignedInst``) or adds the ``nuw``/``nsw``/``nneg`` flags the operand
ranges prove (``refineInstruction``); :func:`remove_non_feasible_edges` cuts the
terminator edges never found feasible: to ``unreachable`` when none is left, to
an unconditional ``br`` when one is, and for a ``switch`` by dropping cases (the
``!prof`` weights follow, as LLVM's ``SwitchInstProfUpdateWrapper`` moves them)
and sending an infeasible default to one shared ``default.unreachable`` block.

What it does not do: it keeps no statistics counters beyond the counts it returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.constant_range_analysis import constant_to_range
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, UnreachableInst
from llvmpy_mid.ir.metadata import MDNode, MDString, ValueAsMetadata
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor
from llvmpy_mid.transform.utils.local import would_instruction_be_trivially_dead

if TYPE_CHECKING:
    from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
    from llvmpy_mid.transform.utils.sccp_solver import SCCPSolver

_OVERFLOWING_OPCODES = frozenset(("add", "sub", "mul", "shl"))


def _scalar_bits(v: Value) -> int:
    return v.type.scalar_type.width  # type: ignore[attr-defined, no-any-return]


def try_to_replace_with_constant(solver: SCCPSolver, v: Value) -> bool:
    """Replace every use of ``v`` by its constant; False when it has none (or may not)."""
    const = solver.get_constant_or_null(v)
    if const is None:
        return False
    if isinstance(v, CallBase) and (
        (getattr(v, "is_must_tail_call", False) and not _can_remove_instruction(v))
        or v.get_operand_bundle("clang.arc.attachedcall") is not None
    ):
        fn = v.called_function
        if fn is not None:
            solver.add_to_must_preserve_returns_in_functions(fn)
        return False
    v.replace_all_uses_with(const)
    return True

def simplify_insts_in_block(solver: SCCPSolver, bb: BasicBlock, inserted_values: set[Value]) -> tuple[bool, int, int]:
    """Rewrite ``bb`` from the solution: constants in, signed ops made unsigned, flags refined.

    Returns (changed, instructions removed, instructions replaced).
    """
    made_changes = False
    removed = 0
    replaced = 0
    inst = bb.first_instruction
    while inst is not None:
        nxt = inst._next
        if not inst.type.is_void:
            if try_to_replace_with_constant(solver, inst):
                if _can_remove_instruction(inst):
                    inst.erase_from_parent()
                made_changes = True
                removed += 1
            elif _replace_signed_inst(solver, inserted_values, inst):
                made_changes = True
                replaced += 1
            elif _refine_instruction(solver, inserted_values, inst):
                made_changes = True
        inst = nxt
    return made_changes, removed, replaced

def remove_non_feasible_edges(
    solver: SCCPSolver, bb: BasicBlock, dtu: DomTreeUpdater | None, new_unreachable: list[BasicBlock | None]
) -> bool:
    """Drop the edges out of ``bb`` the solver never found feasible (LLVM ``removeNonFeasibleEdges``).

    ``new_unreachable`` is a one-element list holding the shared
    ``default.unreachable`` block (created on first need).
    """
    term = bb.terminator
    assert term is not None
    succs = term.successors
    feasible: dict[BasicBlock, None] = {}
    has_non_feasible = False
    edges = solver.known_feasible_edges
    for succ in succs:
        if (bb, succ) in edges:
            feasible[succ] = None
        else:
            has_non_feasible = True
    if not has_non_feasible:
        return False
    updates: list[tuple[str, BasicBlock, BasicBlock]] = []
    if not feasible:
        seen: set[BasicBlock] = set()
        for succ in succs:
            remove_predecessor(succ, bb)
            if succ not in seen:
                seen.add(succ)
                updates.append(("delete", bb, succ))
        UnreachableInst(bb.context).insert_after(term)
        term.erase_from_parent()
    elif len(feasible) == 1:
        only = next(iter(feasible))
        seen_only = False
        for succ in succs:
            if succ is only and not seen_only:
                seen_only = True
                continue
            remove_predecessor(succ, bb)
            updates.append(("delete", bb, succ))
        br = BranchInst(only)
        br.debug_loc = term.debug_loc
        br.insert_after(term)
        term.erase_from_parent()
    else:
        assert term.opcode == "switch"
        weights = _switch_weights(term)
        default = term.default_dest  # type: ignore[attr-defined]
        if default not in feasible:
            unreachable_bb = new_unreachable[0]
            if unreachable_bb is None:
                unreachable_bb = BasicBlock(bb.context, "default.unreachable", default.parent, default)
                unreachable_bb.append(UnreachableInst(bb.context))
                new_unreachable[0] = unreachable_bb
            remove_predecessor(default, bb)
            term.default_dest = unreachable_bb  # type: ignore[attr-defined]
            updates.append(("delete", bb, default))
            updates.append(("insert", bb, unreachable_bb))
        i = 0
        while i < term.num_cases:  # type: ignore[attr-defined]
            succ = term.get_case_dest(i)  # type: ignore[attr-defined]
            if succ in feasible:
                i += 1
                continue
            remove_predecessor(succ, bb)
            updates.append(("delete", bb, succ))
            if weights is not None:
                weights[i + 1] = weights[-1]
                weights.pop()
            term.remove_case(i)  # type: ignore[attr-defined]
        if weights is not None:
            _set_switch_weights(term, weights)
    if dtu is not None and updates:
        dtu.apply_updates_permissive(updates)
    return True


def _switch_weights(term: Instruction) -> list[int] | None:
    """The ``!prof`` branch weights of a switch, one per successor, or None
    (LLVM ``SwitchInstProfUpdateWrapper::init``)."""
    prof = term.get_metadata("prof")
    if prof is None:
        return None
    ops = prof.operands
    if not ops or not isinstance(ops[0], MDString) or ops[0].string != "branch_weights":
        return None
    first = 2 if len(ops) > 1 and isinstance(ops[1], MDString) else 1
    weights: list[int] = []
    for md in ops[first:]:
        c = getattr(md, "value", None)
        if not isinstance(c, ConstantInt):
            return None
        weights.append(c.value)
    if len(weights) != term.num_successors:
        return None
    return weights


def _set_switch_weights(term: Instruction, weights: list[int]) -> None:
    """Write weights back as LLVM's wrapper does: dropped when all zero or fewer than two."""
    if len(weights) < 2 or all(w == 0 for w in weights):
        term.set_metadata("prof", None)
        return
    ctx = term.context
    i32 = ctx.i32
    ops: list[object] = [MDString.get(ctx, "branch_weights")]
    ops.extend(ValueAsMetadata.get(ConstantInt.get(i32, w)) for w in weights)
    term.set_metadata("prof", MDNode.get(ctx, ops))  # type: ignore[arg-type]


def _can_remove_instruction(inst: Instruction) -> bool:
    if would_instruction_be_trivially_dead(inst):
        return True
    return inst.opcode == "load"


def _refine_instruction(solver: SCCPSolver, inserted_values: set[Value], inst: Instruction) -> bool:
    """Add ``nuw``/``nsw``/``nneg`` flags the operand ranges prove (LLVM ``refineInstruction``)."""
    op = inst.opcode
    if op in _OVERFLOWING_OPCODES:
        nuw = inst.nuw  # type: ignore[attr-defined]
        nsw = inst.nsw  # type: ignore[attr-defined]
        if nuw and nsw:
            return False
        range_a = _get_range(solver, inserted_values, inst._operands[0].value)
        range_b = _get_range(solver, inserted_values, inst._operands[1].value)
        changed = False
        if not nuw:
            region = ConstantRange.make_guaranteed_no_wrap_region(op, range_b, True)
            if region.contains_range(range_a):
                inst.nuw = True  # type: ignore[attr-defined]
                changed = True
        if not nsw:
            region = ConstantRange.make_guaranteed_no_wrap_region(op, range_b, False)
            if region.contains_range(range_a):
                inst.nsw = True  # type: ignore[attr-defined]
                changed = True
        return changed
    if op == "zext" or op == "uitofp":
        if inst.nneg:  # type: ignore[attr-defined]
            return False
        rng = _get_range(solver, inserted_values, inst._operands[0].value)
        if rng.is_all_non_negative():
            inst.nneg = True  # type: ignore[attr-defined]
            return True
        return False
    if op == "trunc":
        nuw = inst.nuw  # type: ignore[attr-defined]
        nsw = inst.nsw  # type: ignore[attr-defined]
        if nuw and nsw:
            return False
        rng = _get_range(solver, inserted_values, inst._operands[0].value)
        dest_width = _scalar_bits(inst)
        changed = False
        if not nuw and rng.get_active_bits() <= dest_width:
            inst.nuw = True  # type: ignore[attr-defined]
            changed = True
        if not nsw and rng.get_min_signed_bits() <= dest_width:
            inst.nsw = True  # type: ignore[attr-defined]
            changed = True
        return changed
    return False


def _get_range(solver: SCCPSolver, inserted_values: set[Value], v: Value) -> ConstantRange:
    if v.is_constant:
        return constant_to_range(v)  # type: ignore[arg-type]
    if v in inserted_values:
        return ConstantRange.get_full(_scalar_bits(v))
    return solver.get_lattice_value_for(v).as_constant_range(v.type, False)


def _is_non_negative(solver: SCCPSolver, v: Value) -> bool:
    if v.is_constant:
        return isinstance(v, ConstantInt) and not v.is_negative
    iv = solver.get_lattice_value_for(v)
    return iv.is_constant_range(False) and iv.range.is_all_non_negative()  # type: ignore[union-attr]


def _replace_signed_inst(solver: SCCPSolver, inserted_values: set[Value], inst: Instruction) -> bool:
    """sext/sitofp -> zext/uitofp nneg, ashr -> lshr, sdiv/srem -> udiv/urem on non-negative operands."""
    op = inst.opcode
    new: Instruction
    if op == "sext" or op == "sitofp":
        op0 = inst._operands[0].value
        if op0 in inserted_values or not _is_non_negative(solver, op0):
            return False
        new = CastInst.create("zext" if op == "sext" else "uitofp", op0, inst.type)
        new.nneg = True
    elif op == "ashr":
        op0 = inst._operands[0].value
        if op0 in inserted_values or not _is_non_negative(solver, op0):
            return False
        new = BinaryOperator.create("lshr", op0, inst._operands[1].value)
        new.exact = inst.exact  # type: ignore[attr-defined]
    elif op == "sdiv" or op == "srem":
        op0 = inst._operands[0].value
        op1 = inst._operands[1].value
        if (
            op0 in inserted_values
            or op1 in inserted_values
            or not _is_non_negative(solver, op0)
            or not _is_non_negative(solver, op1)
        ):
            return False
        new = BinaryOperator.create("udiv" if op == "sdiv" else "urem", op0, op1)
        if op == "sdiv":
            new.exact = inst.exact  # type: ignore[attr-defined]
    else:
        return False
    new.insert_before(inst)
    for rec in inst.take_dbg_records():
        new.add_dbg_record(rec)
    name = inst.name
    if name:
        inst.name = ""
        new.name = name
    inserted_values.add(new)
    inst.replace_all_uses_with(new)
    new.debug_loc = inst.debug_loc
    solver.remove_lattice_value_for(inst)
    inst.erase_from_parent()
    return True


__all__ = ["remove_non_feasible_edges", "simplify_insts_in_block", "try_to_replace_with_constant"]
