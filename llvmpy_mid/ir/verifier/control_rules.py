"""Per-opcode rules for control flow (LLVM 19 ``visitReturnInst``,
``visitBranchInst``, ``visitSwitchInst``, ``visitIndirectBrInst``,
``visitPHINode``).

What: ``ret`` returns nothing from a void function and a value of the return
type otherwise; a conditional ``br`` tests an ``i1``; ``switch`` cases are
integer constants of the condition's type, none repeated; ``indirectbr``
jumps through a pointer to labels; a phi is grouped with the other phis at
the top of its block, is not a token and its incoming values have its type.

How: each rule reports its first failure and returns, as LLVM's visitors do;
the terminator placement check and the generic operand checks that LLVM runs
afterwards are in ``instruction_rules``. Switch duplicates are found with a
set of the (uniqued) case constants, so a switch costs O(cases).

Not here: ``unreachable`` has no rule of its own (LLVM only applies
``visitTerminator``); the per-predecessor phi entries are block rules
(``block_rules``); ``invoke``/``callbr``/EH terminators belong to the call and
EH rules. "PHI nodes must have at least one entry" is not an LLVM 19 rule (a
phi without entries in a block without predecessors is valid).
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.rule import RuleTable

_INTEGER = TypeID.INTEGER
_POINTER = TypeID.POINTER
_LABEL = TypeID.LABEL
_TOKEN = TypeID.TOKEN


def _ret(c: Checker, inst: Instruction) -> None:
    bb = inst.parent
    fn = bb.parent if bb is not None else None
    if fn is None:
        return
    ret_ty = fn.function_type.return_type
    ops = inst._operands
    if ret_ty.is_void:
        if ops:
            c.fail("Found return instr that returns non-void in Function of void return type!", inst, ret_ty)
    elif len(ops) != 1 or ops[0].value.type is not ret_ty:
        c.fail("Function return type does not match operand type of return inst!", inst, ret_ty)


def _br(c: Checker, inst: Instruction) -> None:
    ops = inst._operands
    if len(ops) == 3:
        cond = ops[0].value
        ty = cond.type
        if ty.type_id is not _INTEGER or not ty.is_integer_bits(1):
            c.fail("Branch condition is not 'i1' type!", inst, cond)


def _switch(c: Checker, inst: Instruction) -> None:
    if not inst.type.is_void:
        c.fail("Switch must have void result type!", inst)
        return
    ops = inst._operands
    switch_ty = ops[0].value.type
    seen: set[ConstantInt] = set()
    for i in range(2, len(ops) - 1, 2):
        value = ops[i].value
        if not isinstance(value, ConstantInt):
            c.fail("Case value is not a constant integer.", inst)
            return
        if value.type is not switch_ty:
            c.fail("Switch constants must all be same type as switch value!", inst)
            return
        if value in seen:
            c.fail("Duplicate integer as switch case", inst, value)
            return
        seen.add(value)


def _indirectbr(c: Checker, inst: Instruction) -> None:
    ops = inst._operands
    if ops[0].value.type.type_id is not _POINTER:
        c.fail("Indirectbr operand must have pointer type!", inst)
        return
    for i in range(1, len(ops)):
        if ops[i].value.type.type_id is not _LABEL:
            c.fail("Indirectbr destinations must all have pointer type!", inst)
            return


def _phi(c: Checker, inst: Instruction) -> None:
    prev = inst._prev
    if prev is not None and not prev.is_phi:
        c.fail("PHI nodes not grouped at top of basic block!", inst, inst.parent)
        return
    ty = inst.type
    if ty.type_id is _TOKEN:
        c.fail("PHI nodes cannot have token type!")
        return
    for use in inst._operands:
        if use.value.type is not ty:
            c.fail("PHI node operands are not the same type as the result!", inst)
            return


INSTRUCTION_RULES: RuleTable = {
    "ret": _ret,
    "br": _br,
    "switch": _switch,
    "indirectbr": _indirectbr,
    "phi": _phi,
}

__all__ = ["INSTRUCTION_RULES"]
