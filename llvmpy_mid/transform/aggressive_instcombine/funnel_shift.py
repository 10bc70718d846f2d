"""AggressiveInstCombine: a funnel shift or rotate guarded against a zero amount becomes the
intrinsic (LLVM ``foldGuardedFunnelShift``, ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``).

    phi [X, Guard], [(X << S) | (Y >> (W - S)), Funnel] with Guard: br (S == 0), Phi, Funnel
      -> fshl(X, freeze Y, S)        (and the mirrored fshr form; a rotate needs no freeze)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_poison
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.pattern_match import m_apint, match
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def _is_specific_int(v: Value, c: int) -> bool:
    m = match(v, m_apint("c"))
    return m is not None and bool(m.c == c)


def _binop(v: Value, opcode: str) -> Instruction | None:
    return v if isinstance(v, Instruction) and v.opcode == opcode else None


def _match_funnel_shift(v: Value) -> tuple[str, Value, Value, Value] | None:
    """(fshl|fshr, ShVal0, ShVal1, ShAmt) of a one-use ``or`` of opposite shifts."""
    w = scalar_size_in_bits(v.type)
    orv = _binop(v, "or")
    if orv is None or not orv.has_one_use:
        return None
    a, b = orv.operands
    for shl_v, lshr_v in ((a, b), (b, a)):  # m_c_Or: operands in order, then swapped
        shl = _binop(shl_v, "shl")
        lshr = _binop(lshr_v, "lshr")
        if shl is None or lshr is None:
            continue
        amt = shl.operands[1]
        sub = _binop(lshr.operands[1], "sub")
        if sub is not None and _is_specific_int(sub.operands[0], w) and sub.operands[1] is amt:
            return "fshl", shl.operands[0], lshr.operands[0], amt
    for shl_v, lshr_v in ((a, b), (b, a)):
        shl = _binop(shl_v, "shl")
        lshr = _binop(lshr_v, "lshr")
        if shl is None or lshr is None:
            continue
        sub = _binop(shl.operands[1], "sub")
        if sub is not None and _is_specific_int(sub.operands[0], w) and lshr.operands[1] is sub.operands[1]:
            return "fshr", shl.operands[0], lshr.operands[0], sub.operands[1]
    return None


def fold_guarded_funnel_shift(i: Instruction, ctx: FoldContext) -> bool:
    """phi (S == 0 ? X : fsh-pattern(X, Y, S)) -> llvm.fshl/fshr(X, Y, S)."""
    if not isinstance(i, PHINode) or i.num_operands != 2:
        return False
    w = scalar_size_in_bits(i.type)
    if w == 0 or w & (w - 1):
        return False
    funnel_op, guard_op = 0, 1
    p0, p1 = i.operands
    found = _match_funnel_shift(p0)
    if found is None or (found[0] == "fshl" and found[1] is not p1) or (found[0] == "fshr" and found[2] is not p1):
        found = _match_funnel_shift(p1)
        if found is None or (found[0] == "fshl" and found[1] is not p0) or (found[0] == "fshr" and found[2] is not p0):
            return False
        funnel_op, guard_op = guard_op, funnel_op
    iid, sh0, sh1, amt = found
    guard_bb = i.get_incoming_block(guard_op)
    funnel_bb = i.get_incoming_block(funnel_op)
    term = guard_bb.terminator
    dt = ctx.dt
    if term is None or not dt.dominates(sh0, term) or not dt.dominates(sh1, term):
        return False
    phi_bb = i.parent
    if not isinstance(term, BranchInst) or not term.is_conditional:
        return False
    cond = term.condition
    if not (isinstance(cond, Instruction) and cond.opcode == "icmp"):
        return False
    if cond.operands[0] is not amt or not _is_specific_int(cond.operands[1], 0):
        return False
    if term.get_successor(0) is not phi_bb or term.get_successor(1) is not funnel_bb:
        return False
    if getattr(cond, "predicate", None) is not Predicate.ICMP_EQ:
        return False
    assert phi_bb is not None
    at = phi_bb.first_insertion_point
    assert at is not None
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(at)
    b.debug_loc = at.debug_loc
    if sh0 is not sh1:
        if iid == "fshl" and not is_guaranteed_not_to_be_poison(sh1):
            sh1 = b.create_freeze(sh1)
        elif iid != "fshl" and not is_guaranteed_not_to_be_poison(sh0):
            sh0 = b.create_freeze(sh0)
    call = b.create_intrinsic(iid, [i.type], [sh0, sh1, amt])
    i.replace_all_uses_with(call)
    return True


__all__ = ["fold_guarded_funnel_shift"]
