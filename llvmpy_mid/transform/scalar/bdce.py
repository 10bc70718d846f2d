"""``bdce``: bit-tracking dead code elimination (LLVM ``BDCEPass``,
lib/Transforms/Scalar/BDCE.cpp), driven by :mod:`llvmpy_mid.analysis.demanded_bits`.

How, over the function's instructions in order:
- an instruction the analysis never reached, or an integer one with no demanded
  bit that would be trivially dead without users, is deleted;
- a ``sext`` none of whose extension bits is demanded becomes a ``zext``;
- ``and``/``or``/``xor`` with a constant that cannot change a demanded bit is
  replaced by its first operand;
- an integer operand (instruction or argument) with no demanded bit is replaced by 0.
Each rewrite first clears the poison-generating flags, metadata and return
attributes of the users it may reach (the ``clearAssumptionsOfUsers`` walk), since
they may no longer hold.  Deleted instructions have their debug uses salvaged.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.demanded_bits import DemandedBits, DemandedBitsAnalysis, int_scalar_width
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.constants import ConstantInt, Constant
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.pattern_match import m_apint, match
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.local import salvage_debug_info, would_instruction_be_trivially_dead

__all__ = ["BDCEPass", "bit_tracking_dce"]

_MASK = m_apint("c")
_POISON_METADATA = ("range", "nonnull", "align")
_POISON_RET_ATTRS = ("range", "align", "nonnull")


def _drop_poison_generating_annotations(inst: Instruction) -> None:
    """Clear flags, metadata and return attributes that can make ``inst`` poison (LLVM
    ``Instruction::dropPoisonGeneratingAnnotations``)."""
    drop = getattr(inst, "drop_poison_generating_flags", None)
    if drop is not None:
        drop()
    elif inst.opcode in ("fcmp", "call", "select", "phi") and getattr(inst, "fast_math_flags", None):
        flags = inst.fast_math_flags  # type: ignore[attr-defined]
        inst.fast_math_flags = FastMathFlags(int(flags) & ~int(FastMathFlags.NNAN | FastMathFlags.NINF))  # type: ignore[attr-defined]
    for kind in _POISON_METADATA:
        if inst.get_metadata(kind) is not None:
            inst.set_metadata(kind, None)
    if isinstance(inst, CallBase):
        attrs = inst.attributes
        for kind in _POISON_RET_ATTRS:
            if attrs.has_ret_attr(kind):
                attrs = attrs.without_ret_attr(kind)
        inst.attributes = attrs


def _clear_assumptions_of_users(inst: Instruction, db: DemandedBits) -> None:
    """Drop poison-generating annotations of the users that a changed ``inst`` may reach
    (LLVM ``clearAssumptionsOfUsers``)."""
    if db.demanded_bits(inst) == (1 << int_scalar_width(inst.type)) - 1:
        return
    visited: set[Instruction] = set()
    work: list[Instruction] = []
    for user in inst.users:
        assert isinstance(user, Instruction)
        if int_scalar_width(user.type):
            visited.add(user)
            work.append(user)
    while work:
        j = work.pop()
        _drop_poison_generating_annotations(j)
        if db.demanded_bits(j) == (1 << int_scalar_width(j.type)) - 1:
            continue
        for k in j.users:
            assert isinstance(k, Instruction)
            if k not in visited:
                visited.add(k)
                if int_scalar_width(k.type):
                    work.append(k)


def bit_tracking_dce(fn: Function, db: DemandedBits) -> bool:
    """Run BDCE over ``fn``; True when anything changed."""
    changed = False
    dead: list[Instruction] = []
    for bb in fn.blocks:
        inst = bb.instructions.first
        while inst is not None:
            nxt = inst.next_instruction
            if _visit(inst, db, dead):
                changed = True
            inst = nxt
    for inst in reversed(dead):
        salvage_debug_info(inst)
        inst.drop_all_references()
    for inst in dead:
        inst.erase_from_parent()
    return changed


def _visit(inst: Instruction, db: DemandedBits, dead: list[Instruction]) -> bool:
    if not inst.has_uses and inst.may_have_side_effects():
        return False
    width = int_scalar_width(inst.type)
    if db.is_instruction_dead(inst) or (width and db.demanded_bits(inst) == 0 and would_instruction_be_trivially_dead(inst)):
        dead.append(inst)
        return True
    if inst.opcode == "sext":
        demanded = db.demanded_bits(inst)
        src = int_scalar_width(inst.get_operand(0).type)
        leading_zeros = width - demanded.bit_length()
        if leading_zeros >= width - src:
            _clear_assumptions_of_users(inst, db)
            b = IRBuilder(before=inst, folder=ConstantFolder())
            b.debug_loc = inst.debug_loc
            zext = b.create_zext(inst.get_operand(0), inst.type, inst.name)
            inst.replace_all_uses_with(zext)
            dead.append(inst)
            return True
    if inst.is_binary_op:
        demanded = db.demanded_bits(inst)
        if demanded != (1 << width) - 1:
            m = match(inst.get_operand(1), _MASK)
            if m is not None:
                mask: int = m.c
                opc = inst.opcode
                if opc in ("or", "xor"):
                    simplify = not demanded & mask
                elif opc == "and":
                    simplify = demanded & ~mask == 0
                else:
                    simplify = False
                if simplify:
                    _clear_assumptions_of_users(inst, db)
                    inst.replace_all_uses_with(inst.get_operand(0))
                    dead.append(inst)
                    return True
    changed = False
    for index, op in enumerate(inst.operands):
        if not int_scalar_width(op.type):
            continue
        if not isinstance(op, (Instruction, Argument)):
            continue
        if not db.is_use_dead(inst, index):
            continue
        _clear_assumptions_of_users(inst, db)
        zero: Constant = ConstantInt.get(op.type, 0) if not op.type.is_vector else _vector_zero(op)
        inst.set_operand(index, zero)
        changed = True
    return changed


def _vector_zero(op: Value) -> Constant:
    from llvmpy_mid.ir.constants import ConstantAggregateZero

    return ConstantAggregateZero.get(op.type)


class BDCEPass(Pass[Function]):
    """Bit-tracking dead code elimination."""

    name: ClassVar[str] = "bdce"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        db = am.get_result(DemandedBitsAnalysis, unit)
        if not bit_tracking_dce(unit, db):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa
