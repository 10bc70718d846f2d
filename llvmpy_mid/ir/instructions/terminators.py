"""Terminators: the instructions that end a basic block.

Operand order (LLVM's ``getOperand(i)``) and successor order (LLVM's
``getSuccessor(i)``) of each class:

=============  ==============================================  ==========================
instruction    operands                                        successors
=============  ==============================================  ==========================
ret            ``[value]``                                     none
br             ``dest`` or ``cond, false_dest, true_dest``     ``true_dest, false_dest``
switch         ``cond, default, v0, d0, v1, d1, ...``          ``default, d0, d1, ...``
indirectbr     ``address, d0, d1, ...``                        ``d0, d1, ...``
invoke         ``args..., bundles..., normal, unwind, callee``  ``normal, unwind``
callbr         ``args..., bundles..., default, i0.., callee``  ``default, i0, i1, ...``
resume         ``value``                                       none
catchswitch    ``parent, [unwind], h0, h1, ...``               ``[unwind], h0, h1, ...``
catchret       ``catchpad, dest``                              ``dest``
cleanupret     ``cleanuppad, [unwind]``                        ``[unwind]``
unreachable    none                                            none
=============  ==============================================  ==========================

Block predecessors are computed from the uses of a block, so the order in
which operands are created matters (it is the printed ``; preds =`` order).
Constructors fill operands in index order, as LLVM 19 does; ``switch``,
``indirectbr`` and ``catchswitch`` keep LLVM's reserved capacity and grow it
with LLVM's policy, re-creating every operand use on growth as LLVM's
reallocation does; removing a case, destination or handler moves operands the
way LLVM does. ``set_successor`` and these edits move the edited use to the
head of the block's use-list even when the block does not change (LLVM's
``Use::set``).

The funclet terminators (``catchswitch``, ``catchret``, ``cleanupret``) are
defined with the EH pads in :mod:`llvmpy_mid.ir.instructions.eh` and
re-exported here.

``swap_successors`` on a conditional ``br`` exchanges the two uses in place
(keeping use-list order) and swaps a two-weight ``!prof`` ``branch_weights``
node, as LLVM does. Switch ``!prof`` weights are left to the caller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterable, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attributes import AttributeList
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import swap_operand_uses
from llvmpy_mid.ir.instructions.calls import BundleLike, CallBase
from llvmpy_mid.ir.instructions.eh import (
    CatchReturnInst,
    CatchSwitchInst,
    CleanupReturnInst,
    LandingPadInst,
    TrailingSuccessorsInst,
    check_block,
    regrow_operands,
)
from llvmpy_mid.ir.metadata import MDNode, MDString
from llvmpy_mid.ir.types import FunctionType, TypeID
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.context import Context


class ReturnInst(Instruction):
    """``ret void`` or ``ret T %v``. Operands: ``()`` or ``(value,)``."""

    __slots__ = ()
    __match_args__ = ("return_value",)

    opcode: ClassVar[str] = "ret"
    is_terminator_class = True

    def __init__(self, context: Context, value: Value | None = None) -> None:
        Instruction.__init__(self, context.void, () if value is None else (value,))

    @property
    def return_value(self) -> Value | None:
        ops = self._operands
        return ops[0].value if ops else None

    @property
    def num_successors(self) -> int:
        return 0

    def _clone_impl(self) -> ReturnInst:
        return ReturnInst(self.type.context, self.return_value)


class BranchInst(Instruction):
    """``br label %dest`` or ``br i1 %cond, label %true, label %false``.

    Built as LLVM's ``BranchInst::Create``: ``BranchInst(dest)`` or
    ``BranchInst(true_dest, false_dest, cond)`` (or :meth:`conditional`).
    Operands: ``(dest,)`` or ``(cond, false_dest, true_dest)``; successor 0 is
    the true destination.
    """

    __slots__ = ()

    opcode: ClassVar[str] = "br"
    is_terminator_class = True

    def __init__(self, if_true: BasicBlock, if_false: BasicBlock | None = None, condition: Value | None = None) -> None:
        check_block("br destination", if_true)
        ctx = if_true.type.context
        if if_false is None:
            if condition is not None:
                raise IRError("br: a condition needs two destinations")
            Instruction.__init__(self, ctx.void, (if_true,))
            return
        check_block("br destination", if_false)
        if condition is None:
            raise IRError("br: two destinations need a condition")
        if condition.type is not ctx.i1:
            raise IRError("br: the condition must be i1, not %s" % condition.type)
        Instruction.__init__(self, ctx.void, (condition, if_false, if_true))

    @classmethod
    def conditional(cls, condition: Value, if_true: BasicBlock, if_false: BasicBlock) -> BranchInst:
        """``br i1 condition, label if_true, label if_false``."""
        return cls(if_true, if_false, condition)

    @property
    def is_conditional(self) -> bool:
        return len(self._operands) == 3

    @property
    def is_unconditional(self) -> bool:
        return len(self._operands) == 1

    @property
    def condition(self) -> Value:
        if len(self._operands) != 3:
            raise IRError("an unconditional br has no condition")
        return self._operands[0].value

    @condition.setter
    def condition(self, value: Value) -> None:
        if len(self._operands) != 3:
            raise IRError("an unconditional br has no condition")
        if value.type is not value.type.context.i1:
            raise IRError("br: the condition must be i1, not %s" % value.type)
        self._operands[0].set(value)

    @property
    def successors(self) -> list[BasicBlock]:
        ops = self._operands
        if len(ops) == 1:
            return [ops[0].value]  # type: ignore[list-item]
        return [ops[2].value, ops[1].value]  # type: ignore[list-item]

    @property
    def num_successors(self) -> int:
        return 1 if len(self._operands) == 1 else 2

    def get_successor(self, index: int) -> BasicBlock:
        ops = self._operands
        if not 0 <= index < (1 if len(ops) == 1 else 2):
            raise IndexError("br successor %d out of range" % index)
        return ops[len(ops) - 1 - index].value  # type: ignore[return-value]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        check_block("br destination", block)
        ops = self._operands
        if not 0 <= index < (1 if len(ops) == 1 else 2):
            raise IndexError("br successor %d out of range" % index)
        ops[len(ops) - 1 - index].set(block)

    def swap_successors(self) -> None:
        """Exchange the two destinations (the caller inverts the condition),
        swapping a two-weight ``branch_weights`` ``!prof`` node too."""
        ops = self._operands
        if len(ops) != 3:
            raise IRError("swap_successors needs a conditional br")
        swap_operand_uses(ops[1], ops[2])
        self._swap_prof_metadata()

    def _swap_prof_metadata(self) -> None:
        prof = self.get_metadata("prof")
        if prof is None or prof.num_operands < 1:
            return
        head = prof.get_operand(0)
        if not isinstance(head, MDString) or head.string != "branch_weights":
            return
        first = 1
        second = prof.get_operand(1) if prof.num_operands > 1 else None
        if isinstance(second, MDString) and second.string == "expected":
            first = 2
        if prof.num_operands != first + 2:
            return
        ops = list(prof.operands)
        ops[first], ops[first + 1] = ops[first + 1], ops[first]
        self.set_metadata("prof", MDNode.get(self.type.context, ops))

    def _clone_impl(self) -> BranchInst:
        ops = self._operands
        if len(ops) == 1:
            return BranchInst(ops[0].value)  # type: ignore[arg-type]
        return BranchInst(ops[2].value, ops[1].value, ops[0].value)  # type: ignore[arg-type]


class SwitchInst(Instruction):
    """``switch T %cond, label %default [ T v0, label %d0 ... ]``.

    Operands: ``cond, default, v0, d0, v1, d1, ...``; successors: ``default, d0, d1, ...``.
    ``cases`` are added in order; ``num_cases`` reserves room for more (LLVM's
    ``NumCases``; the parser reserves exactly the cases it read).
    """

    __slots__ = ("_reserved",)

    opcode: ClassVar[str] = "switch"
    is_terminator_class = True

    _reserved: int

    def __init__(
        self,
        condition: Value,
        default_dest: BasicBlock,
        cases: Sequence[tuple[ConstantInt, BasicBlock]] = (),
        num_cases: int = 0,
    ) -> None:
        if condition.type.type_id is not TypeID.INTEGER:
            raise IRError("switch: the condition must be an integer, not %s" % condition.type)
        check_block("switch default destination", default_dest)
        Instruction.__init__(self, condition.type.context.void, (condition, default_dest))
        self._reserved = 2 + 2 * max(num_cases, len(cases))
        for value, dest in cases:
            self.add_case(value, dest)

    # --- condition and default -----------------------------------------------------
    @property
    def condition(self) -> Value:
        return self._operands[0].value

    @condition.setter
    def condition(self, value: Value) -> None:
        if value.type is not self._operands[0].value.type:
            raise IRError("switch: a new condition must keep the type %s" % self._operands[0].value.type)
        self._operands[0].set(value)

    @property
    def default_dest(self) -> BasicBlock:
        return self._operands[1].value  # type: ignore[return-value]

    @default_dest.setter
    def default_dest(self, block: BasicBlock) -> None:
        check_block("switch default destination", block)
        self._operands[1].set(block)

    # --- cases ------------------------------------------------------------------------
    @property
    def num_cases(self) -> int:
        return (len(self._operands) - 2) >> 1

    @property
    def cases(self) -> list[tuple[ConstantInt, BasicBlock]]:
        """``(value, destination)`` of each case, in order."""
        ops = self._operands
        return [(ops[i].value, ops[i + 1].value) for i in range(2, len(ops), 2)]  # type: ignore[misc]

    @property
    def case_values(self) -> list[ConstantInt]:
        return [u.value for u in self._operands[2::2]]  # type: ignore[misc]

    @property
    def case_dests(self) -> list[BasicBlock]:
        return [u.value for u in self._operands[3::2]]  # type: ignore[misc]

    def _case_slot(self, index: int) -> int:
        if not 0 <= index < (len(self._operands) - 2) >> 1:
            raise IndexError("switch case %d out of range" % index)
        return 2 + 2 * index

    def get_case_value(self, index: int) -> ConstantInt:
        return self._operands[self._case_slot(index)].value  # type: ignore[return-value]

    def set_case_value(self, index: int, value: ConstantInt) -> None:
        self._check_case_value(value)
        self._operands[self._case_slot(index)].set(value)

    def get_case_dest(self, index: int) -> BasicBlock:
        return self._operands[self._case_slot(index) + 1].value  # type: ignore[return-value]

    def set_case_dest(self, index: int, block: BasicBlock) -> None:
        check_block("switch case destination", block)
        self._operands[self._case_slot(index) + 1].set(block)

    def _check_case_value(self, value: Value) -> None:
        if not isinstance(value, ConstantInt) or value.type is not self._operands[0].value.type:
            raise IRError(
                "switch case values must be %s constants, not %r" % (self._operands[0].value.type, value)
            )

    def add_case(self, value: ConstantInt, dest: BasicBlock) -> None:
        """Append a case (LLVM ``addCase``; duplicates are the verifier's business)."""
        self._check_case_value(value)
        check_block("switch case destination", dest)
        n = len(self._operands)
        if n + 2 > self._reserved:
            self._reserved = n * 3
            regrow_operands(self)
        self._append_operand(value)
        self._append_operand(dest)

    def remove_case(self, index: int) -> None:
        """Remove case ``index``; the last case takes its place (LLVM ``removeCase``)."""
        slot = self._case_slot(index)
        ops = self._operands
        n = len(ops)
        if slot + 2 != n:
            ops[slot].set(ops[n - 2].value)
            ops[slot + 1].set(ops[n - 1].value)
        self._truncate_operands(n - 2)

    def find_case_value(self, value: ConstantInt | int) -> int | None:
        """The index of the case for ``value`` (a constant or an int), or None (the default)."""
        ops = self._operands
        if isinstance(value, int):
            ty = ops[0].value.type
            value = ConstantInt.get(ty, value)
        for i in range(2, len(ops), 2):
            if ops[i].value is value:
                return (i - 2) >> 1
        return None

    def find_case_dest(self, block: BasicBlock) -> ConstantInt | None:
        """The value of the one case that goes to ``block``; None when ``block`` is
        the default, or no case or several go there (LLVM ``findCaseDest``)."""
        ops = self._operands
        if ops[1].value is block:
            return None
        found: ConstantInt | None = None
        for i in range(3, len(ops), 2):
            if ops[i].value is block:
                if found is not None:
                    return None
                found = ops[i - 1].value  # type: ignore[assignment]
        return found

    # --- successors ---------------------------------------------------------------------
    @property
    def successors(self) -> list[BasicBlock]:
        return [u.value for u in self._operands[1::2]]  # type: ignore[misc]

    @property
    def num_successors(self) -> int:
        return len(self._operands) >> 1

    def get_successor(self, index: int) -> BasicBlock:
        if not 0 <= index < len(self._operands) >> 1:
            raise IndexError("switch successor %d out of range" % index)
        return self._operands[2 * index + 1].value  # type: ignore[return-value]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        check_block("switch destination", block)
        if not 0 <= index < len(self._operands) >> 1:
            raise IndexError("switch successor %d out of range" % index)
        self._operands[2 * index + 1].set(block)

    def _clone_impl(self) -> SwitchInst:
        copy = SwitchInst.__new__(SwitchInst)
        Instruction.__init__(copy, self.type, [u.value for u in self._operands])
        copy._reserved = len(self._operands)
        return copy


class IndirectBrInst(TrailingSuccessorsInst):
    """``indirectbr ptr %addr, [label %d0, ...]``. Operands: ``address, d0, d1, ...``;
    the successors are the destinations."""

    __slots__ = ()

    opcode: ClassVar[str] = "indirectbr"

    def __init__(self, address: Value, destinations: Sequence[BasicBlock] = (), num_dests: int = 0) -> None:
        if address.type.type_id is not TypeID.POINTER:
            raise IRError("indirectbr: the address must be a pointer, not %s" % address.type)
        Instruction.__init__(self, address.type.context.void, (address,))
        self._reserved = 1 + max(num_dests, len(destinations))
        for d in destinations:  # the reserved room fits them: no regrowth
            check_block("indirectbr destination", d)
            self._append_operand(d)

    @property
    def address(self) -> Value:
        return self._operands[0].value

    @address.setter
    def address(self, value: Value) -> None:
        if value.type.type_id is not TypeID.POINTER:
            raise IRError("indirectbr: the address must be a pointer, not %s" % value.type)
        self._operands[0].set(value)

    @property
    def destinations(self) -> list[BasicBlock]:
        return [u.value for u in self._operands[1:]]  # type: ignore[misc]

    @property
    def num_destinations(self) -> int:
        return len(self._operands) - 1

    def add_destination(self, block: BasicBlock) -> None:
        check_block("indirectbr destination", block)
        self._append_successor(block)

    def remove_destination(self, index: int) -> None:
        """Remove destination ``index``; the last one takes its place (LLVM ``removeDestination``)."""
        ops = self._operands
        n = len(ops)
        if not 0 <= index < n - 1:
            raise IndexError("indirectbr destination %d out of range" % index)
        ops[index + 1].set(ops[n - 1].value)
        self._truncate_operands(n - 1)

    def _clone_impl(self) -> IndirectBrInst:
        copy = IndirectBrInst.__new__(IndirectBrInst)
        self._init_clone(copy)
        return copy


class InvokeInst(CallBase):
    """``invoke [cc] T callee(args) [bundles] to label %normal unwind label %unwind``.

    Operands: ``args..., bundle inputs..., normal_dest, unwind_dest, callee``;
    successors: ``normal_dest, unwind_dest``.
    """

    __slots__ = ()

    opcode: ClassVar[str] = "invoke"
    is_terminator_class = True

    def __init__(
        self,
        function_type: FunctionType,
        callee: Value,
        normal_dest: BasicBlock,
        unwind_dest: BasicBlock,
        args: Sequence[Value] = (),
        *,
        bundles: Iterable[BundleLike] = (),
        name: str = "",
        calling_conv: int = 0,
        attributes: AttributeList | None = None,
    ) -> None:
        check_block("invoke normal destination", normal_dest)
        check_block("invoke unwind destination", unwind_dest)
        self._init_call(function_type, callee, args, bundles, (normal_dest, unwind_dest), name, calling_conv, attributes)

    @property
    def normal_dest(self) -> BasicBlock:
        return self._operands[-3].value  # type: ignore[return-value]

    @normal_dest.setter
    def normal_dest(self, block: BasicBlock) -> None:
        check_block("invoke normal destination", block)
        self._operands[-3].set(block)

    @property
    def unwind_dest(self) -> BasicBlock:
        return self._operands[-2].value  # type: ignore[return-value]

    @unwind_dest.setter
    def unwind_dest(self, block: BasicBlock) -> None:
        check_block("invoke unwind destination", block)
        self._operands[-2].set(block)

    @property
    def landing_pad(self) -> LandingPadInst | None:
        """The landingpad that starts the unwind destination, if it has one."""
        pad = self.unwind_dest.first_non_phi
        return pad if isinstance(pad, LandingPadInst) else None

    @property
    def successors(self) -> list[BasicBlock]:
        ops = self._operands
        return [ops[-3].value, ops[-2].value]  # type: ignore[list-item]

    @property
    def num_successors(self) -> int:
        return 2

    def get_successor(self, index: int) -> BasicBlock:
        if index == 0:
            return self._operands[-3].value  # type: ignore[return-value]
        if index == 1:
            return self._operands[-2].value  # type: ignore[return-value]
        raise IndexError("invoke successor %d out of range" % index)

    def set_successor(self, index: int, block: BasicBlock) -> None:
        check_block("invoke destination", block)
        if index not in (0, 1):
            raise IndexError("invoke successor %d out of range" % index)
        self._operands[-3 + index].set(block)

    def may_throw(self, include_phase_one_unwind: bool = False) -> bool:
        """LLVM 19's rule: an invoke may throw only past a landingpad that may
        let the exception continue (see :meth:`LandingPadInst.can_unwind_past`);
        an invoke that unwinds to another kind of pad does not."""
        pad = self.unwind_dest.first_non_phi
        if isinstance(pad, LandingPadInst):
            return pad.can_unwind_past(include_phase_one_unwind)
        return False

    def _clone_impl(self) -> InvokeInst:
        copy = InvokeInst.__new__(InvokeInst)
        self._copy_call_state(copy)
        return copy

    def with_operand_bundles(self, bundles: Iterable[BundleLike]) -> InvokeInst:
        new = InvokeInst(
            self.function_type,
            self.callee,
            self.normal_dest,
            self.unwind_dest,
            self.args,
            bundles=bundles,
            name=self.name,
        )
        self._finish_rebuild(new)
        return new


class CallBrInst(CallBase):
    """``callbr T callee(args) to label %default [label %i0, ...]``.

    Operands: ``args..., bundle inputs..., default_dest, indirect dests..., callee``;
    successors: ``default_dest, indirect dests...``.
    """

    __slots__ = ("_num_indirect",)

    opcode: ClassVar[str] = "callbr"
    is_terminator_class = True

    _num_indirect: int

    def __init__(
        self,
        function_type: FunctionType,
        callee: Value,
        default_dest: BasicBlock,
        indirect_dests: Sequence[BasicBlock] = (),
        args: Sequence[Value] = (),
        *,
        bundles: Iterable[BundleLike] = (),
        name: str = "",
        calling_conv: int = 0,
        attributes: AttributeList | None = None,
    ) -> None:
        check_block("callbr default destination", default_dest)
        for d in indirect_dests:
            check_block("callbr indirect destination", d)
        self._num_indirect = len(indirect_dests)
        extras: list[Value] = [default_dest]
        extras.extend(indirect_dests)
        self._init_call(function_type, callee, args, bundles, extras, name, calling_conv, attributes)

    @property
    def num_indirect_dests(self) -> int:
        return self._num_indirect

    @property
    def default_dest(self) -> BasicBlock:
        return self._operands[-2 - self._num_indirect].value  # type: ignore[return-value]

    @default_dest.setter
    def default_dest(self, block: BasicBlock) -> None:
        check_block("callbr default destination", block)
        self._operands[-2 - self._num_indirect].set(block)

    @property
    def indirect_dests(self) -> list[BasicBlock]:
        ops = self._operands
        n = len(ops)
        return [ops[i].value for i in range(n - 1 - self._num_indirect, n - 1)]  # type: ignore[misc]

    def get_indirect_dest(self, index: int) -> BasicBlock:
        if not 0 <= index < self._num_indirect:
            raise IndexError("callbr indirect destination %d out of range" % index)
        return self._operands[-1 - self._num_indirect + index].value  # type: ignore[return-value]

    def set_indirect_dest(self, index: int, block: BasicBlock) -> None:
        check_block("callbr indirect destination", block)
        if not 0 <= index < self._num_indirect:
            raise IndexError("callbr indirect destination %d out of range" % index)
        self._operands[-1 - self._num_indirect + index].set(block)

    @property
    def successors(self) -> list[BasicBlock]:
        ops = self._operands
        n = len(ops)
        return [ops[i].value for i in range(n - 2 - self._num_indirect, n - 1)]  # type: ignore[misc]

    @property
    def num_successors(self) -> int:
        return self._num_indirect + 1

    def get_successor(self, index: int) -> BasicBlock:
        if not 0 <= index <= self._num_indirect:
            raise IndexError("callbr successor %d out of range" % index)
        return self._operands[-2 - self._num_indirect + index].value  # type: ignore[return-value]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        check_block("callbr destination", block)
        if not 0 <= index <= self._num_indirect:
            raise IndexError("callbr successor %d out of range" % index)
        self._operands[-2 - self._num_indirect + index].set(block)

    def may_throw(self) -> bool:
        """Never, as LLVM 19's ``Instruction::mayThrow`` has no case for callbr."""
        return False

    def _clone_impl(self) -> CallBrInst:
        copy = CallBrInst.__new__(CallBrInst)
        self._copy_call_state(copy)
        copy._num_indirect = self._num_indirect
        return copy

    def with_operand_bundles(self, bundles: Iterable[BundleLike]) -> CallBrInst:
        new = CallBrInst(
            self.function_type,
            self.callee,
            self.default_dest,
            self.indirect_dests,
            self.args,
            bundles=bundles,
            name=self.name,
        )
        self._finish_rebuild(new)
        return new


class ResumeInst(Instruction):
    """``resume T %exn``: continue unwinding. Operands: ``(value,)``."""

    __slots__ = ()

    opcode: ClassVar[str] = "resume"
    is_terminator_class = True

    def __init__(self, value: Value) -> None:
        Instruction.__init__(self, value.type.context.void, (value,))

    @property
    def value(self) -> Value:
        return self._operands[0].value

    @property
    def num_successors(self) -> int:
        return 0

    def may_throw(self) -> bool:
        return True

    def _clone_impl(self) -> ResumeInst:
        return ResumeInst(self._operands[0].value)


class UnreachableInst(Instruction):
    """``unreachable``. No operands."""

    __slots__ = ()

    opcode: ClassVar[str] = "unreachable"
    is_terminator_class = True

    def __init__(self, context: Context) -> None:
        Instruction.__init__(self, context.void)

    @property
    def num_successors(self) -> int:
        return 0

    def _clone_impl(self) -> UnreachableInst:
        return UnreachableInst(self.type.context)


__all__ = [
    "BranchInst",
    "CallBrInst",
    "CatchReturnInst",
    "CatchSwitchInst",
    "CleanupReturnInst",
    "IndirectBrInst",
    "InvokeInst",
    "ResumeInst",
    "ReturnInst",
    "SwitchInst",
    "UnreachableInst",
]
