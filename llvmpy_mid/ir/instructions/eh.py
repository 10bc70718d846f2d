"""Exception-handling pads: ``landingpad``, ``catchpad`` and ``cleanuppad``.

* :class:`LandingPadInst` -- ``landingpad T [cleanup] (catch C | filter [N x C])*``.
  Its operands are the clause constants; a clause is a *filter* exactly when its
  constant has array type, else a *catch* (LLVM stores no other kind).
* :class:`FuncletPadInst` with :class:`CatchPadInst` (``catchpad within %cs [args]``)
  and :class:`CleanupPadInst` (``cleanuppad within %parent [args]``); operands are
  ``args..., parent pad``; the result is a ``token``.

* The funclet terminators: :class:`CatchSwitchInst` (``catchswitch``, also an
  EH pad; operands ``parent pad, [unwind dest], handlers...``; successors every
  operand after the parent pad), :class:`CatchReturnInst` (``catchret``;
  operands ``catchpad, dest``) and :class:`CleanupReturnInst` (``cleanupret``;
  operands ``cleanuppad, [unwind dest]``). ``terminators`` re-exports them.

Every pad is an EH pad (``is_eh_pad``).

The module also holds what the terminators share: :func:`regrow_operands`
(the use-list effect of LLVM reallocating a hung-off operand list: each
operand's use moves to the head of its value's list) and
:class:`TrailingSuccessorsInst`, the base of ``catchswitch`` and
``indirectbr``, whose successors are every operand after the first. LLVM's
growth policies are reproduced so that use-lists -- and with them the printed
``; preds =`` order -- match LLVM's after clauses, cases or handlers are
added. Re-pointing an operand uses ``Use.set`` (LLVM's ``Use::set``, which
moves the use to the head of the value's use-list even when the value does
not change); :func:`relink_use` is the same operation as a function.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, ClassVar, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import Constant, ConstantPointerNull
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.types import Type, TypeID
from llvmpy_mid.ir.value import Use, User, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock


def relink_use(use: Use, value: Value) -> None:
    """Point ``use`` at ``value`` and move it to the head of ``value``'s
    use-list, even if it already pointed there: ``use.set(value)``."""
    use.set(value)


def regrow_operands(user: User) -> None:
    """Replace every operand slot by a fresh one, created in index order, then
    drop the old slots: the use-list effect of LLVM's ``growHungoffUses``."""
    old = user._operands
    user._operands = [Use(u.value, user, u.index) for u in old]
    for u in old:
        u._unlink()


def check_block(what: str, value: Value) -> None:
    """Raise :class:`IRError` unless ``value`` is a basic block."""
    if not value.is_basic_block:
        raise IRError("%s must be a basic block, not %r" % (what, value))


class TrailingSuccessorsInst(Instruction):
    """A terminator whose successors are all its operands after operand 0
    (``catchswitch``: the parent pad; ``indirectbr``: the address). The operand
    list reserves room and doubles when full, as LLVM's hung-off operands of
    both instructions do."""

    __slots__ = ("_reserved",)

    is_terminator_class = True

    _reserved: int

    def _append_successor(self, block: BasicBlock) -> None:
        """Append ``block`` (already checked), regrowing the operands when full."""
        n = len(self._operands)
        if n + 1 > self._reserved:
            self._reserved = n * 2
            regrow_operands(self)
        self._append_operand(block)

    def _init_clone(self, copy: TrailingSuccessorsInst) -> None:
        """Give a fresh clone this instruction's type and operands (in index
        order), reserving exactly as many."""
        Instruction.__init__(copy, self.type, [u.value for u in self._operands])
        copy._reserved = len(self._operands)

    @property
    def successors(self) -> list[BasicBlock]:
        return [u.value for u in self._operands[1:]]  # type: ignore[misc]

    @property
    def num_successors(self) -> int:
        return len(self._operands) - 1

    def get_successor(self, index: int) -> BasicBlock:
        if not 0 <= index < len(self._operands) - 1:
            raise IndexError("%s successor %d out of range" % (self.opcode, index))
        return self._operands[index + 1].value  # type: ignore[return-value]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        check_block(self.opcode + " destination", block)
        if not 0 <= index < len(self._operands) - 1:
            raise IndexError("%s successor %d out of range" % (self.opcode, index))
        self._operands[index + 1].set(block)


class LandingPadClause(Enum):
    """The kind of a landingpad clause."""

    CATCH = "catch"
    FILTER = "filter"


class LandingPadInst(Instruction):
    """``landingpad T [cleanup] clauses...``. Operands: the clause constants, in order."""

    __slots__ = ("_cleanup", "_reserved")

    opcode: ClassVar[str] = "landingpad"
    is_eh_pad = True

    _cleanup: bool
    _reserved: int

    def __init__(
        self,
        result_type: Type,
        clauses: Sequence[Constant] = (),
        *,
        cleanup: bool = False,
        num_reserved_clauses: int = 0,
        name: str = "",
    ) -> None:
        Instruction.__init__(self, result_type, (), name)
        self._cleanup = cleanup
        self._reserved = num_reserved_clauses
        for c in clauses:
            self.add_clause(c)

    @property
    def cleanup(self) -> bool:
        """The ``cleanup`` flag: the pad runs even when no clause matches."""
        return self._cleanup

    @cleanup.setter
    def cleanup(self, flag: bool) -> None:
        self._cleanup = flag

    @property
    def is_cleanup(self) -> bool:
        return self._cleanup

    def add_clause(self, clause: Constant) -> None:
        """Append a clause: a filter if ``clause`` has array type, else a catch."""
        if not clause.is_constant:
            raise IRError("landingpad clauses must be constants, not %r" % clause)
        n = len(self._operands)
        if self._reserved < n + 1:
            # LLVM: at least double, counting an empty list as one slot.
            self._reserved = max(n, 1) * 2
            regrow_operands(self)
        self._append_operand(clause)

    def add_catch(self, type_info: Constant) -> None:
        """Append ``catch type_info``; it must not be an array."""
        if type_info.type.type_id is TypeID.ARRAY:
            raise IRError("a catch clause cannot have array type %s (that is a filter)" % type_info.type)
        self.add_clause(type_info)

    def add_filter(self, type_infos: Constant) -> None:
        """Append ``filter type_infos``; it must be an array constant."""
        if type_infos.type.type_id is not TypeID.ARRAY:
            raise IRError("a filter clause needs an array constant, not %s" % type_infos.type)
        self.add_clause(type_infos)

    @property
    def num_clauses(self) -> int:
        return len(self._operands)

    def get_clause(self, index: int) -> Constant:
        return self._operands[index].value  # type: ignore[return-value]

    def is_catch(self, index: int) -> bool:
        return self._operands[index].value.type.type_id is not TypeID.ARRAY

    def is_filter(self, index: int) -> bool:
        return self._operands[index].value.type.type_id is TypeID.ARRAY

    def clause_kind(self, index: int) -> LandingPadClause:
        return LandingPadClause.FILTER if self.is_filter(index) else LandingPadClause.CATCH

    @property
    def clauses(self) -> list[tuple[LandingPadClause, Constant]]:
        """Each clause as ``(kind, constant)``."""
        out: list[tuple[LandingPadClause, Constant]] = []
        for use in self._operands:
            c = use.value
            kind = LandingPadClause.FILTER if c.type.type_id is TypeID.ARRAY else LandingPadClause.CATCH
            out.append((kind, c))  # type: ignore[arg-type]
        return out

    def catches_all(self) -> bool:
        """Some clause catches every exception: ``catch ptr null`` or an empty filter."""
        for use in self._operands:
            c = use.value
            ty = c.type
            if ty.type_id is TypeID.ARRAY:
                if ty.count == 0:  # type: ignore[attr-defined]
                    return True
            elif isinstance(c, ConstantPointerNull):
                return True
        return False

    def can_unwind_past(self, include_phase_one_unwind: bool = False) -> bool:
        """Whether an exception may continue unwinding past this pad's frame
        (LLVM's rule for ``invoke``'s ``mayThrow``): a cleanup pad only in
        phase one; otherwise unless some clause catches everything."""
        if self._cleanup:
            return include_phase_one_unwind
        return not self.catches_all()

    def _clone_impl(self) -> LandingPadInst:
        copy = LandingPadInst.__new__(LandingPadInst)
        Instruction.__init__(copy, self.type, [u.value for u in self._operands])
        copy._cleanup = self._cleanup
        copy._reserved = len(self._operands)
        return copy


class FuncletPadInst(Instruction):
    """Base of ``catchpad`` and ``cleanuppad``. Operands: ``args..., parent pad``."""

    __slots__ = ()

    is_eh_pad = True

    def __init__(self, parent_pad: Value, args: Sequence[Value] = (), name: str = "") -> None:
        if parent_pad.type.type_id is not TypeID.TOKEN:
            raise IRError("%s: the parent pad must be a token, not %s" % (self.opcode, parent_pad.type))
        ops = list(args)
        ops.append(parent_pad)
        Instruction.__init__(self, parent_pad.type, ops, name)

    @property
    def parent_pad(self) -> Value:
        """The enclosing pad (``none`` at the top level; the catchswitch for a catchpad)."""
        return self._operands[-1].value

    @parent_pad.setter
    def parent_pad(self, pad: Value) -> None:
        self._operands[-1].set(pad)

    @property
    def num_args(self) -> int:
        return len(self._operands) - 1

    @property
    def args(self) -> list[Value]:
        return [u.value for u in self._operands[:-1]]

    @property
    def arg_operands(self) -> list[Value]:
        return self.args

    def get_arg(self, index: int) -> Value:
        if not 0 <= index < len(self._operands) - 1:
            raise IndexError("argument index %d out of range" % index)
        return self._operands[index].value

    def set_arg(self, index: int, value: Value) -> None:
        if not 0 <= index < len(self._operands) - 1:
            raise IndexError("argument index %d out of range" % index)
        self._operands[index].set(value)

    def _clone_impl(self) -> FuncletPadInst:
        return type(self)(self._operands[-1].value, [u.value for u in self._operands[:-1]])


class CatchPadInst(FuncletPadInst):
    """``catchpad within %cs [args...]``: the start of a catch handler of catchswitch ``%cs``."""

    __slots__ = ()

    opcode: ClassVar[str] = "catchpad"

    @property
    def catch_switch(self) -> CatchSwitchInst:
        return self._operands[-1].value  # type: ignore[return-value]

    @catch_switch.setter
    def catch_switch(self, cs: CatchSwitchInst) -> None:
        self._operands[-1].set(cs)

    def may_read_from_memory(self) -> bool:
        return True

    def may_write_to_memory(self) -> bool:
        return True


class CleanupPadInst(FuncletPadInst):
    """``cleanuppad within %parent [args...]``: the start of a cleanup funclet."""

    __slots__ = ()

    opcode: ClassVar[str] = "cleanuppad"

    def may_throw(self, include_phase_one_unwind: bool = False) -> bool:
        """Treated like a cleanup landingpad: only phase-one unwinding passes it."""
        return include_phase_one_unwind


class CatchSwitchInst(TrailingSuccessorsInst):
    """``%cs = catchswitch within %parent [label %h0, ...] unwind (to caller | label %u)``.

    Operands: ``parent_pad, [unwind_dest], handlers...``; successors: every
    operand after the parent pad (the unwind dest, if any, first). The result is
    a ``token``. An EH pad and a terminator.
    """

    __slots__ = ("_has_unwind",)

    opcode: ClassVar[str] = "catchswitch"
    is_eh_pad = True

    _has_unwind: bool

    def __init__(
        self,
        parent_pad: Value,
        unwind_dest: BasicBlock | None = None,
        handlers: Sequence[BasicBlock] = (),
        *,
        num_handlers: int = 0,
        name: str = "",
    ) -> None:
        if parent_pad.type.type_id is not TypeID.TOKEN:
            raise IRError("catchswitch: the parent pad must be a token, not %s" % parent_pad.type)
        if unwind_dest is None:
            Instruction.__init__(self, parent_pad.type, (parent_pad,), name)
            self._has_unwind = False
        else:
            check_block("catchswitch unwind destination", unwind_dest)
            Instruction.__init__(self, parent_pad.type, (parent_pad, unwind_dest), name)
            self._has_unwind = True
        self._reserved = max(num_handlers, len(handlers)) + len(self._operands)
        for h in handlers:  # the reserved room fits them: no regrowth
            check_block("catchswitch handler", h)
            self._append_operand(h)

    @property
    def parent_pad(self) -> Value:
        return self._operands[0].value

    @parent_pad.setter
    def parent_pad(self, pad: Value) -> None:
        self._operands[0].set(pad)

    @property
    def has_unwind_dest(self) -> bool:
        return self._has_unwind

    @property
    def unwinds_to_caller(self) -> bool:
        return not self._has_unwind

    @property
    def unwind_dest(self) -> BasicBlock | None:
        return self._operands[1].value if self._has_unwind else None  # type: ignore[return-value]

    @unwind_dest.setter
    def unwind_dest(self, block: BasicBlock) -> None:
        if not self._has_unwind:
            raise IRError("this catchswitch unwinds to the caller; it has no unwind destination to change")
        check_block("catchswitch unwind destination", block)
        self._operands[1].set(block)

    @property
    def _first_handler(self) -> int:
        return 2 if self._has_unwind else 1

    @property
    def handlers(self) -> list[BasicBlock]:
        return [u.value for u in self._operands[self._first_handler :]]  # type: ignore[misc]

    @property
    def num_handlers(self) -> int:
        return len(self._operands) - self._first_handler

    def add_handler(self, block: BasicBlock) -> None:
        check_block("catchswitch handler", block)
        self._append_successor(block)

    def remove_handler(self, handler: int | BasicBlock) -> None:
        """Remove a handler (by position or block); later handlers move up one."""
        first = self._first_handler
        ops = self._operands
        n = len(ops)
        if isinstance(handler, int):
            if not 0 <= handler < n - first:
                raise IndexError("catchswitch handler %d out of range" % handler)
            slot = first + handler
        else:
            for slot in range(first, n):
                if ops[slot].value is handler:
                    break
            else:
                raise IRError("%r is not a handler of this catchswitch" % handler)
        for cur in range(slot, n - 1):
            ops[cur].set(ops[cur + 1].value)
        self._truncate_operands(n - 1)

    def may_throw(self) -> bool:
        """When it unwinds to the caller."""
        return not self._has_unwind

    def _clone_impl(self) -> CatchSwitchInst:
        copy = CatchSwitchInst.__new__(CatchSwitchInst)
        self._init_clone(copy)
        copy._has_unwind = self._has_unwind
        return copy


class CatchReturnInst(Instruction):
    """``catchret from %catchpad to label %dest``. Operands: ``(catchpad, dest)``."""

    __slots__ = ()

    opcode: ClassVar[str] = "catchret"
    is_terminator_class = True

    def __init__(self, catch_pad: CatchPadInst | Value, successor: BasicBlock) -> None:
        if catch_pad.type.type_id is not TypeID.TOKEN:
            raise IRError("catchret: the pad must be a token, not %s" % catch_pad.type)
        check_block("catchret destination", successor)
        Instruction.__init__(self, successor.type.context.void, (catch_pad, successor))

    @property
    def catch_pad(self) -> CatchPadInst:
        return self._operands[0].value  # type: ignore[return-value]

    @catch_pad.setter
    def catch_pad(self, pad: Value) -> None:
        self._operands[0].set(pad)

    @property
    def successor(self) -> BasicBlock:
        return self._operands[1].value  # type: ignore[return-value]

    @successor.setter
    def successor(self, block: BasicBlock) -> None:
        self.set_successor(0, block)

    @property
    def catch_switch_parent_pad(self) -> Value:
        """The parent pad of the catchswitch that owns the catchpad."""
        return self.catch_pad.catch_switch.parent_pad

    @property
    def successors(self) -> list[BasicBlock]:
        return [self._operands[1].value]  # type: ignore[list-item]

    @property
    def num_successors(self) -> int:
        return 1

    def get_successor(self, index: int) -> BasicBlock:
        if index != 0:
            raise IndexError("catchret successor %d out of range" % index)
        return self._operands[1].value  # type: ignore[return-value]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        check_block("catchret destination", block)
        if index != 0:
            raise IndexError("catchret successor %d out of range" % index)
        self._operands[1].set(block)

    def may_read_from_memory(self) -> bool:
        return True

    def may_write_to_memory(self) -> bool:
        return True

    def _clone_impl(self) -> CatchReturnInst:
        return CatchReturnInst(self._operands[0].value, self._operands[1].value)  # type: ignore[arg-type]


class CleanupReturnInst(Instruction):
    """``cleanupret from %pad unwind (to caller | label %dest)``. Operands: ``(pad, [dest])``."""

    __slots__ = ()

    opcode: ClassVar[str] = "cleanupret"
    is_terminator_class = True

    def __init__(self, cleanup_pad: CleanupPadInst | Value, unwind_dest: BasicBlock | None = None) -> None:
        if cleanup_pad.type.type_id is not TypeID.TOKEN:
            raise IRError("cleanupret: the pad must be a token, not %s" % cleanup_pad.type)
        void = cleanup_pad.type.context.void
        if unwind_dest is None:
            Instruction.__init__(self, void, (cleanup_pad,))
        else:
            check_block("cleanupret unwind destination", unwind_dest)
            Instruction.__init__(self, void, (cleanup_pad, unwind_dest))

    @property
    def cleanup_pad(self) -> CleanupPadInst:
        return self._operands[0].value  # type: ignore[return-value]

    @cleanup_pad.setter
    def cleanup_pad(self, pad: Value) -> None:
        self._operands[0].set(pad)

    @property
    def has_unwind_dest(self) -> bool:
        return len(self._operands) == 2

    @property
    def unwinds_to_caller(self) -> bool:
        return len(self._operands) == 1

    @property
    def unwind_dest(self) -> BasicBlock | None:
        ops = self._operands
        return ops[1].value if len(ops) == 2 else None  # type: ignore[return-value]

    @unwind_dest.setter
    def unwind_dest(self, block: BasicBlock) -> None:
        if len(self._operands) != 2:
            raise IRError("this cleanupret unwinds to the caller; it has no unwind destination to change")
        check_block("cleanupret unwind destination", block)
        self._operands[1].set(block)

    @property
    def successors(self) -> list[BasicBlock]:
        ops = self._operands
        return [ops[1].value] if len(ops) == 2 else []  # type: ignore[list-item]

    @property
    def num_successors(self) -> int:
        return len(self._operands) - 1

    def get_successor(self, index: int) -> BasicBlock:
        if index != 0 or len(self._operands) != 2:
            raise IndexError("cleanupret successor %d out of range" % index)
        return self._operands[1].value  # type: ignore[return-value]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        if index != 0 or len(self._operands) != 2:
            raise IndexError("cleanupret successor %d out of range" % index)
        check_block("cleanupret unwind destination", block)
        self._operands[1].set(block)

    def may_throw(self) -> bool:
        """When it unwinds to the caller."""
        return len(self._operands) == 1

    def _clone_impl(self) -> CleanupReturnInst:
        return CleanupReturnInst(self._operands[0].value, self.unwind_dest)


__all__ = [
    "CatchPadInst",
    "CatchReturnInst",
    "CatchSwitchInst",
    "CleanupReturnInst",
    "CleanupPadInst",
    "FuncletPadInst",
    "LandingPadClause",
    "LandingPadInst",
    "regrow_operands",
    "relink_use",
    "TrailingSuccessorsInst",
]
