"""The variables the data-flow analyses speak of: SSA values and memory variables.

What: in SSA form every value is a variable with exactly one definition (its
instruction, or the function entry for an argument). Code as clang writes it at
-O0 keeps source variables in ``alloca`` slots instead; such a slot is a
*memory variable* (:class:`MemoryVariable`) when every use of the ``alloca`` is
a simple (non-volatile, non-atomic) ``load`` of it or ``store`` to it of the
allocated type (a slot mem2reg could promote): a ``store`` then *defines* the
variable and a ``load`` *uses* it, exactly as an assignment and a read do in the
course text. Nothing else can touch such a slot, so no call or other access
defines it behind our back.

:class:`FunctionVariables` finds the memory variables of a function and, for an
operand of an instruction, the key it stands for (:meth:`operand_key`): a load
of a memory variable in the same block, with no store to that variable between
the load and the use, stands for the variable itself (so ``%1 = load b;
%2 = load c; %3 = add %1, %2`` computes the expression ``b + c``); any other
operand stands for itself (an SSA value: redefined only when its defining
instruction runs again, e.g. in the next loop iteration).

What it does not do: no alias analysis: an ``alloca`` whose address escapes,
or is read or written with another type, is not a variable; globals and other
memory are not variables.
"""

from __future__ import annotations

import attrs

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value


@attrs.frozen
class MemoryVariable:
    """The variable held in a promotable ``alloca`` (printed ``[%name]``)."""

    alloca: Instruction


def _is_simple_access(inst: Instruction) -> bool:
    return not inst.is_volatile and not inst.is_atomic


def promotable_allocas(function: Function) -> list[Instruction]:
    """The ``alloca`` instructions that hold a memory variable, in function order."""
    out: list[Instruction] = []
    for bb in function.blocks:
        for inst in bb.instructions:
            if inst.opcode != "alloca":
                continue
            ty = inst.allocated_type  # type: ignore[attr-defined]
            ok = True
            for use in inst.uses:
                user = use.user
                op = getattr(user, "opcode", "")
                if op == "load":
                    ok = use.index == 0 and user.type is ty and _is_simple_access(user)  # type: ignore[arg-type]
                elif op == "store":
                    ok = use.index == 1 and user.get_operand(0).type is ty and _is_simple_access(user)  # type: ignore[arg-type]
                else:
                    ok = False
                if not ok:
                    break
            if ok:
                out.append(inst)
    return out


VariableKey = object
"""A :class:`MemoryVariable` or an SSA :class:`Value` (argument, instruction, constant, ...)."""


class FunctionVariables:
    """The memory variables of one function and the key each operand stands for."""

    __slots__ = ("function", "allocas", "variables", "_load_keys")

    def __init__(self, function: Function) -> None:
        self.function = function
        self.allocas: list[Instruction] = promotable_allocas(function)
        self.variables: dict[object, MemoryVariable] = {a: MemoryVariable(a) for a in self.allocas}
        # (load, user) pairs whose operand stands for the memory variable.
        self._load_keys: set[tuple[object, object]] = set()
        variables = self.variables
        for bb in function.blocks:
            stores: dict[object, int] = {}
            loads: dict[object, tuple[object, int]] = {}
            for inst in bb.instructions:
                for use in inst.operand_uses:
                    v = use.value
                    hit = loads.get(v)
                    if hit is not None and stores.get(hit[0], 0) == hit[1]:
                        self._load_keys.add((v, inst))
                op = inst.opcode
                if op == "load":
                    ptr = inst.get_operand(0)
                    if ptr in variables:
                        loads[inst] = (ptr, stores.get(ptr, 0))
                elif op == "store":
                    ptr = inst.get_operand(1)
                    if ptr in variables:
                        stores[ptr] = stores.get(ptr, 0) + 1

    def variable_of(self, value: Value) -> MemoryVariable | None:
        """The memory variable ``value`` (an ``alloca``) holds, if it is one."""
        return self.variables.get(value)

    def operand_key(self, user: Instruction, index: int) -> VariableKey:
        """What operand ``index`` of ``user`` stands for (see the module docstring)."""
        v = user.get_operand(index)
        if (v, user) in self._load_keys:
            return self.variables[v.get_operand(0)]  # type: ignore[attr-defined]
        return v

    def loaded_variable(self, inst: Instruction) -> MemoryVariable | None:
        """For ``load`` of a memory variable: the variable it reads."""
        if inst.opcode == "load":
            return self.variables.get(inst.get_operand(0))
        return None

    def stored_variable(self, inst: Instruction) -> MemoryVariable | None:
        """For ``store`` to a memory variable: the variable it defines."""
        if inst.opcode == "store":
            return self.variables.get(inst.get_operand(1))
        return None


def is_ssa_variable(value: Value) -> bool:
    """Arguments and instructions with a result are SSA variables."""
    if value.is_argument:
        return True
    return value.is_instruction and not value.type.is_void


__all__ = ["FunctionVariables", "MemoryVariable", "VariableKey", "is_ssa_variable", "promotable_allocas"]
