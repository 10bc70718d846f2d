"""``phi``, ``select``, ``freeze`` and ``va_arg`` (LLVM ``PHINode``, ``SelectInst``,
``FreezeInst``, ``VAArgInst``).

A phi's incoming values are its operands; its incoming blocks are a plain
list beside them, exactly as LLVM keeps them (they are not uses, so they do
not make the phi a predecessor edge). Removing an incoming pair shifts the
later operands down by re-pointing each slot (``Use.set``), which moves those
uses to the head of their values' use-lists, as LLVM's removal does.

Operand order: select ``(condition, true_value, false_value)``; freeze
``(value,)``; va_arg ``(va_list,)``. Phi, select (of floating-point type,
possibly in arrays) may carry fast-math flags; both keep them through
:class:`~llvmpy_mid.ir.instructions.optional_flags.FastMathFlagsInst`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import swap_operand_uses
from llvmpy_mid.ir.instructions.flags import FastMathFlags, type_supports_fast_math_flags
from llvmpy_mid.ir.instructions.optional_flags import FastMathFlagsInst
from llvmpy_mid.ir.types import Type, TypeID, VectorType
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock


class PHINode(FastMathFlagsInst):
    """``phi [fmf] T [v0, %bb0], [v1, %bb1], ...``. Operands: the incoming values."""

    __slots__ = ("_blocks",)

    opcode: ClassVar[str] = "phi"
    is_phi = True

    def __init__(
        self,
        type: Type,
        incoming: Sequence[tuple[Value, BasicBlock]] = (),
        *,
        fast_math_flags: FastMathFlags | int = 0,
        name: str = "",
    ) -> None:
        for v, b in incoming:
            if v.type is not type:
                raise IRError("phi incoming value of type %s in a phi of type %s" % (v.type, type))
            if not b.is_basic_block:
                raise IRError("phi incoming block must be a basic block, not %r" % (b,))
        Instruction.__init__(self, type, [v for v, _ in incoming], name)
        self._blocks: list[BasicBlock] = [b for _, b in incoming]
        fmf = int(fast_math_flags)
        if fmf and not type_supports_fast_math_flags(type):
            raise IRError("fast-math flags on a phi of non-floating-point type %s" % type)
        self._fmf = fmf & 127

    # --- incoming pairs -----------------------------------------------------------
    @property
    def num_incoming(self) -> int:
        return len(self._blocks)

    @property
    def incoming(self) -> list[tuple[Value, BasicBlock]]:
        """The (value, block) pairs in order (a fresh list)."""
        return [(u.value, b) for u, b in zip(self._operands, self._blocks)]

    @property
    def incoming_values(self) -> list[Value]:
        return [u.value for u in self._operands]

    @property
    def incoming_blocks(self) -> list[BasicBlock]:
        """The incoming blocks (a copy; edit with the setters)."""
        return list(self._blocks)

    def add_incoming(self, value: Value, block: BasicBlock) -> None:
        if value.type is not self.type:
            raise IRError("phi incoming value of type %s in a phi of type %s" % (value.type, self.type))
        if not block.is_basic_block:
            raise IRError("phi incoming block must be a basic block, not %r" % (block,))
        self._append_operand(value)
        self._blocks.append(block)

    def get_incoming_value(self, index: int) -> Value:
        return self._operands[index].value

    def set_incoming_value(self, index: int, value: Value) -> None:
        if value.type is not self.type:
            raise IRError("phi incoming value of type %s in a phi of type %s" % (value.type, self.type))
        self._operands[index].set(value)

    def get_incoming_block(self, index: int) -> BasicBlock:
        return self._blocks[index]

    def set_incoming_block(self, index: int, block: BasicBlock) -> None:
        if not block.is_basic_block:
            raise IRError("phi incoming block must be a basic block, not %r" % (block,))
        self._blocks[index] = block

    def get_incoming_block_for_use(self, use: Use) -> BasicBlock:
        """The block paired with the operand slot ``use`` (LLVM ``getIncomingBlock(const Use&)``)."""
        if use.user is not self:
            raise IRError("the use does not belong to this phi")
        return self._blocks[use.index]

    def basic_block_index(self, block: BasicBlock) -> int:
        """The first index whose incoming block is ``block``, or -1 (blocks compare by
        identity, so ``list.index`` finds it at C speed; a miss is checked first, as the
        ``ValueError`` of ``index`` would print the block)."""
        blocks = self._blocks
        return blocks.index(block) if block in blocks else -1

    def indices_for_block(self, block: BasicBlock) -> list[int]:
        """Every index whose incoming block is ``block``, in order."""
        blocks = self._blocks
        out: list[int] = []
        i = -1
        for _ in range(blocks.count(block)):
            i = blocks.index(block, i + 1)
            out.append(i)
        return out

    def incoming_value_for_block(self, block: BasicBlock) -> Value:
        i = self.basic_block_index(block)
        if i < 0:
            raise IRError("%r is not an incoming block of this phi" % (block,))
        return self._operands[i].value

    def set_incoming_value_for_block(self, block: BasicBlock, value: Value) -> None:
        i = self.basic_block_index(block)
        if i < 0:
            raise IRError("%r is not an incoming block of this phi" % (block,))
        self.set_incoming_value(i, value)

    def replace_incoming_block_with(self, old: BasicBlock, new: BasicBlock) -> None:
        """Rename every incoming ``old`` to ``new``."""
        blocks = self._blocks
        for i in range(len(blocks)):
            if blocks[i] is old:
                blocks[i] = new

    def remove_incoming_value(self, index_or_block: int | BasicBlock, delete_if_empty: bool = False) -> Value:
        """Remove one incoming pair (by index, or the first pair from a block) and
        return its value. The later pairs shift down. When ``delete_if_empty``
        and no pair remains, the phi's uses become poison and it is erased."""
        if isinstance(index_or_block, int):
            index = index_or_block
            if not 0 <= index < len(self._blocks):
                raise IRError("phi has no incoming index %d" % index)
        else:
            index = self.basic_block_index(index_or_block)
            if index < 0:
                raise IRError("%r is not an incoming block of this phi" % (index_or_block,))
        ops = self._operands
        removed = ops[index].value
        last = len(ops) - 1
        for i in range(index, last):
            ops[i].set(ops[i + 1].value)
        ops[last]._unlink()
        del ops[last]
        del self._blocks[index]
        if not ops and delete_if_empty:
            if self._use_head is not None:
                self.replace_all_uses_with(PoisonValue.get(self.type))
            self.erase_from_parent()
        return removed

    def remove_incoming_value_if(
        self, predicate: Callable[[int], bool], delete_if_empty: bool = False
    ) -> None:
        """Remove every pair whose index satisfies ``predicate``, keeping the order
        of the others (LLVM ``removeIncomingValueIf``)."""
        ops = self._operands
        keep = [not predicate(i) for i in range(len(ops))]
        if all(keep):
            return
        write = keep.index(False)
        blocks = self._blocks
        for j in range(write + 1, len(ops)):
            if keep[j]:
                ops[write].set(ops[j].value)
                blocks[write] = blocks[j]
                write += 1
        for u in ops[write:]:
            u._unlink()
        del ops[write:]
        del blocks[write:]
        if not ops and delete_if_empty:
            if self._use_head is not None:
                self.replace_all_uses_with(PoisonValue.get(self.type))
            self.erase_from_parent()

    # --- queries --------------------------------------------------------------------
    def has_constant_value(self) -> Value | None:
        """The single value this phi merges, ignoring references to itself; None
        when it merges different values. A phi of only itself gives poison
        (LLVM ``hasConstantValue``)."""
        ops = self._operands
        if not ops:
            return None
        common = ops[0].value
        for i in range(1, len(ops)):
            v = ops[i].value
            if v is not common and v is not self:
                if common is not self:
                    return None
                common = v
        if common is self:
            return PoisonValue.get(self.type)
        return common

    def has_constant_or_undef_value(self) -> bool:
        """All incoming values are one value, this phi or undef (LLVM ``hasConstantOrUndefValue``)."""
        common: Value | None = None
        for u in self._operands:
            v = u.value
            if v is self or isinstance(v, UndefValue):
                continue
            if common is not None and v is not common:
                return False
            common = v
        return True

    @property
    def is_complete(self) -> bool:
        """Every predecessor of the parent block has an incoming pair."""
        bb = self.parent
        if bb is None:
            return False
        mine = set(self._blocks)
        return all(p in mine for p in bb.predecessors)

    # --- comparison (fast_math_flags comes from FastMathFlagsInst) --------------------
    def is_identical_to_when_defined(self, other: Instruction) -> bool:
        if not super().is_identical_to_when_defined(other):
            return False
        assert isinstance(other, PHINode)
        a = self._blocks
        b = other._blocks
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if x is not y:
                return False
        return True

    def _clone_impl(self) -> PHINode:
        c = PHINode(self.type)
        c._operands = [Use(u.value, c, i) for i, u in enumerate(self._operands)]
        c._blocks = list(self._blocks)
        c._fmf = self._fmf
        return c


class SelectInst(FastMathFlagsInst):
    """``select [fmf] i1 %c, T %a, T %b``. Operands: ``(condition, true_value, false_value)``.
    A vector condition (``<N x i1>``) selects lane by lane between vectors of N lanes."""

    __slots__ = ()
    __match_args__ = ("condition", "true_value", "false_value")

    opcode: ClassVar[str] = "select"

    def __init__(
        self,
        condition: Value,
        true_value: Value,
        false_value: Value,
        *,
        fast_math_flags: FastMathFlags | int = 0,
        name: str = "",
    ) -> None:
        ty = true_value.type
        if condition.type is not ty.context.i1 or false_value.type is not ty or ty.type_id is TypeID.TOKEN:
            problem = SelectInst.invalid_operands_reason(condition, true_value, false_value)
            if problem:
                raise IRError(problem)
        Instruction.__init__(self, ty, (condition, true_value, false_value), name)
        fmf = int(fast_math_flags)
        if fmf and not type_supports_fast_math_flags(ty):
            raise IRError(
                "fast-math-flags specified for select without floating-point scalar or vector return type"
            )
        self._fmf = fmf & 127

    @staticmethod
    def invalid_operands_reason(condition: Value, true_value: Value, false_value: Value) -> str:
        """Why these operands cannot form a select, or ``""`` if they can (LLVM
        ``SelectInst::areInvalidOperands``)."""
        ty = true_value.type
        if false_value.type is not ty:
            return "both values to select must have same type"
        if ty.type_id is TypeID.TOKEN:
            return "select values cannot have token type"
        cty = condition.type
        if isinstance(cty, VectorType):
            if not cty.element_type.is_integer_bits(1):
                return "vector select condition element type must be i1"
            if not isinstance(ty, VectorType):
                return "selected values for vector select must be vectors"
            if ty.count != cty.count or ty.scalable != cty.scalable:
                return "vector select requires selected vectors to have the same vector length as select condition"
        elif not cty.is_integer_bits(1):
            return "select condition must be i1 or <n x i1>"
        return ""

    @property
    def condition(self) -> Value:
        return self._operands[0].value

    @property
    def true_value(self) -> Value:
        return self._operands[1].value

    @property
    def false_value(self) -> Value:
        return self._operands[2].value

    def swap_values(self) -> None:
        """Exchange the true and false values (LLVM ``swapValues``; the caller
        must invert the condition to keep the meaning)."""
        swap_operand_uses(self._operands[1], self._operands[2])

    def _clone_impl(self) -> SelectInst:
        ops = self._operands
        c = SelectInst(ops[0].value, ops[1].value, ops[2].value)
        c._fmf = self._fmf
        return c


class FreezeInst(Instruction):
    """``freeze T %v``: an arbitrary but fixed value where ``%v`` is undef or poison.
    Operands: ``(value,)``."""

    __slots__ = ()
    __match_args__ = ("operand",)

    opcode: ClassVar[str] = "freeze"

    def __init__(self, value: Value, *, name: str = "") -> None:
        Instruction.__init__(self, value.type, (value,), name)

    @property
    def operand(self) -> Value:
        return self._operands[0].value

    def _clone_impl(self) -> FreezeInst:
        return FreezeInst(self._operands[0].value)


class VAArgInst(Instruction):
    """``va_arg ptr %list, T``: the next variadic argument; it reads and advances
    the list in memory. Operands: ``(va_list,)``."""

    __slots__ = ()

    opcode: ClassVar[str] = "va_arg"

    def __init__(self, va_list: Value, type: Type, *, name: str = "") -> None:
        Instruction.__init__(self, type, (va_list,), name)

    @property
    def pointer_operand(self) -> Value:
        return self._operands[0].value

    def may_read_from_memory(self) -> bool:
        return True

    def may_write_to_memory(self) -> bool:
        return True

    def _clone_impl(self) -> VAArgInst:
        return VAArgInst(self._operands[0].value, self.type)


__all__ = ["PHINode", "SelectInst", "FreezeInst", "VAArgInst"]
