"""Floating-point induction variables of ``indvars``: a ``phi double [C0, ...], [phi + C1, ...]``
counted against an integral constant becomes an ``i32`` recurrence (LLVM 19.1.7
``lib/Transforms/Scalar/IndVarSimplify.cpp``, ``handleFloatingPointIV`` and
``rewriteNonIntegerIVs``).

What: for each header phi whose start, step and exit bound are floating-point constants holding
exact 32-bit integers, whose increment feeds only the phi and one ``fcmp`` whose single user is
a loop-exiting branch, and whose iteration count cannot wrap the 32-bit counter, an integer phi,
``add`` and ``icmp`` replace the floating-point ones; other users of the old phi read a
``sitofp`` of the integer phi. ScalarEvolution forgets the loop afterwards.
"""

from __future__ import annotations

from typing import Any, Callable

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir.constants import ConstantFP, ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions

__all__ = ["convert_to_sint", "handle_floating_point_iv", "rewrite_non_integer_ivs"]

_NEW_PREDICATE = {
    Predicate.FCMP_OEQ: Predicate.ICMP_EQ,
    Predicate.FCMP_UEQ: Predicate.ICMP_EQ,
    Predicate.FCMP_ONE: Predicate.ICMP_NE,
    Predicate.FCMP_UNE: Predicate.ICMP_NE,
    Predicate.FCMP_OGT: Predicate.ICMP_SGT,
    Predicate.FCMP_UGT: Predicate.ICMP_SGT,
    Predicate.FCMP_OGE: Predicate.ICMP_SGE,
    Predicate.FCMP_UGE: Predicate.ICMP_SGE,
    Predicate.FCMP_OLT: Predicate.ICMP_SLT,
    Predicate.FCMP_ULT: Predicate.ICMP_SLT,
    Predicate.FCMP_OLE: Predicate.ICMP_SLE,
    Predicate.FCMP_ULE: Predicate.ICMP_SLE,
}


def convert_to_sint(c: Value) -> int | None:
    """LLVM ``ConvertToSInt``: the value of a floating-point constant when it is exactly a
    64-bit signed integer (``-0.0``, fractions, NaN and infinities are not)."""
    if not isinstance(c, ConstantFP):
        return None
    sem = apfloat.semantics_of(c.type.type_id)
    if sem is None:
        return None
    v = apfloat.to_integer(sem, c.bits, 64, True)
    if v is None:
        return None
    if apfloat.from_integer(sem, v) != c.bits:
        return None
    return v


def _is_int32(v: int) -> bool:
    return -(1 << 31) <= v < (1 << 31)


def _s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _range_ok(init: int, inc: int, exit_v: int, pred: Predicate) -> bool:
    """The no-wrap conditions on the 32-bit counter (positive and negative strides)."""
    if inc > 0:
        if init >= exit_v:
            return False
        rng = (exit_v - init) & 0xFFFFFFFF
        if pred in (Predicate.ICMP_SLE, Predicate.ICMP_SGT):
            rng = (rng + 1) & 0xFFFFFFFF
            if rng == 0:
                return False
        leftover = rng % (inc & 0xFFFFFFFF)
        if pred in (Predicate.ICMP_EQ, Predicate.ICMP_NE) and leftover != 0:
            return False
        if leftover != 0 and _s32(exit_v + inc) < exit_v:
            return False
        return True
    if init <= exit_v:
        return False
    rng = (init - exit_v) & 0xFFFFFFFF
    if pred in (Predicate.ICMP_SGE, Predicate.ICMP_SLT):
        rng = (rng + 1) & 0xFFFFFFFF
        if rng == 0:
            return False
    leftover = rng % ((-inc) & 0xFFFFFFFF)
    if pred in (Predicate.ICMP_EQ, Predicate.ICMP_NE) and leftover != 0:
        return False
    if leftover != 0 and _s32(exit_v + inc) > exit_v:
        return False
    return True


def handle_floating_point_iv(
    loop: Loop, pn: PHINode, tli: Any = None, about_to_delete: Callable[[Value], None] | None = None
) -> bool:
    """LLVM ``IndVarSimplify::handleFloatingPointIV``."""
    if pn.num_incoming != 2:
        return False
    incoming_edge = 1 if loop.contains(pn.get_incoming_block(0)) else 0
    back_edge = incoming_edge ^ 1
    init_value = convert_to_sint(pn.get_incoming_value(incoming_edge))
    if init_value is None:
        return False
    incr = pn.get_incoming_value(back_edge)
    if not isinstance(incr, BinaryOperator) or incr.opcode != "fadd":
        return False
    inc_value = convert_to_sint(incr.operands[1])
    if incr.operands[0] is not pn or inc_value is None:
        return False
    users = [u.user for u in incr.uses]
    if len(users) != 2 or not all(isinstance(u, Instruction) for u in users):
        return False
    compare = users[0] if isinstance(users[0], FCmpInst) else users[1]
    if not isinstance(compare, FCmpInst) or not compare.has_one_use:
        return False
    the_br = next(iter(compare.uses)).user
    if not isinstance(the_br, BranchInst) or not the_br.is_conditional:
        return False
    br_bb = the_br.parent
    assert br_bb is not None
    succs = the_br.successors
    if not loop.contains(br_bb) or (loop.contains(succs[0]) and loop.contains(succs[1])):
        return False
    exit_value = convert_to_sint(compare.operands[1])
    if exit_value is None:
        return False
    new_pred = _NEW_PREDICATE.get(compare.predicate)
    if new_pred is None:
        return False
    if not (_is_int32(init_value) and _is_int32(inc_value) and _is_int32(exit_value)):
        return False
    if inc_value == 0:
        return False
    if not _range_ok(init_value, inc_value, exit_value, new_pred):
        return False

    i32 = pn.type.context.int_type(32)
    new_phi = PHINode(i32, name=pn.name + ".int")
    new_phi.insert_before(pn)
    new_phi.add_incoming(ConstantInt.get(i32, init_value), pn.get_incoming_block(incoming_edge))
    new_phi.debug_loc = pn.debug_loc
    new_add = BinaryOperator.create("add", new_phi, ConstantInt.get(i32, inc_value), name=incr.name + ".int")
    new_add.insert_before(incr)
    new_add.debug_loc = incr.debug_loc
    new_phi.add_incoming(new_add, pn.get_incoming_block(back_edge))
    new_compare = ICmpInst(new_pred, new_add, ConstantInt.get(i32, exit_value))
    new_compare.insert_before(the_br)
    new_compare.debug_loc = compare.debug_loc

    new_compare.take_name(compare)
    compare.replace_all_uses_with(new_compare)
    recursively_delete_trivially_dead_instructions(compare, tli, about_to_delete)
    incr.replace_all_uses_with(PoisonValue.get(incr.type))
    recursively_delete_trivially_dead_instructions(incr, tli, about_to_delete)
    if not pn.is_erased:
        header = pn.parent
        assert header is not None
        conv = CastInst.create("sitofp", new_phi, pn.type, name="indvar.conv")
        pos = header.first_insertion_point
        if pos is None:
            conv.insert_into(header)
        else:
            conv.insert_before(pos)
        conv.debug_loc = pn.debug_loc
        pn.replace_all_uses_with(conv)
        recursively_delete_trivially_dead_instructions(pn, tli, about_to_delete)
    return True


def rewrite_non_integer_ivs(
    loop: Loop, se: Any, tli: Any = None, about_to_delete: Callable[[Value], None] | None = None
) -> bool:
    """LLVM ``IndVarSimplify::rewriteNonIntegerIVs``: every header phi is tried; the loop is
    forgotten by ScalarEvolution when one changed."""
    changed = False
    for pn in list(loop.header.phis()):
        if pn.is_erased:
            continue
        changed |= handle_floating_point_iv(loop, pn, tli, about_to_delete)
    if changed and se is not None:
        se.forget_loop(loop)
    return changed
