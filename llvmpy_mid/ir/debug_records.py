"""Debug records: ``#dbg_value``, ``#dbg_declare``, ``#dbg_assign`` and
``#dbg_label`` (LLVM 19 ``DbgVariableRecord`` and ``DbgLabelRecord``).

A record sits just before an instruction; the instruction keeps the list
(``Instruction._dbg_records``) and sets ``record.instruction``. A variable
record's location is a ``ValueAsMetadata`` (one value), a ``DIArgList``
(several values, used by ``DW_OP_LLVM_arg``) or an empty node ``!{}`` (no
location). Records register with the metadata they hold that may change
identity, so they follow ``replace_all_uses_with`` of a value and a parser's
forward references; a deleted location value turns into ``poison`` of its type,
exactly what ``opt-19`` prints (``#dbg_value(i32 poison, ...)``) when an
instruction is erased without salvaging.

Not done here: salvaging (``transform/utils``), printing (``asm``), the
verifier's checks, conversion to and from ``llvm.dbg.*`` intrinsic calls.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, ClassVar, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.debug_info import DIExpression
from llvmpy_mid.ir.metadata import (
    DIArgList,
    MDNode,
    MDTuple,
    Metadata,
    ValueAsMetadata,
    poison_as_metadata,
    track_metadata,
    untrack_metadata,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value


class DbgRecordKind(Enum):
    """The kind of a variable record; the value is the ``#dbg_<value>`` suffix."""

    DECLARE = "declare"
    VALUE = "value"
    ASSIGN = "assign"


class DbgRecord:
    """Base of debug records: the instruction it precedes and its ``!dbg`` location."""

    __slots__ = ("instruction", "_debug_loc")

    is_label_record: ClassVar[bool] = False
    is_variable_record: ClassVar[bool] = False

    instruction: Instruction | None

    def __init__(self, debug_loc: MDNode) -> None:
        self.instruction = None
        self._debug_loc = debug_loc
        track_metadata(debug_loc, self)

    @property
    def debug_loc(self) -> MDNode:
        """The record's ``DILocation`` (its last operand in text)."""
        return self._debug_loc

    @debug_loc.setter
    def debug_loc(self, loc: MDNode) -> None:
        old = self._debug_loc
        self._debug_loc = loc
        self._swap(old, loc)

    def _swap(self, old: Metadata | None, new: Metadata | None) -> None:
        """Fix tracking after a slot changed from ``old`` to ``new``."""
        if old is new:
            return
        if old is not None and self._count(old) == 0:
            untrack_metadata(old, self)
        track_metadata(new, self)

    def _count(self, md: Metadata) -> int:
        return 1 if self._debug_loc is md else 0

    @property
    def function(self) -> Function | None:
        inst = self.instruction
        return inst.function if inst is not None else None

    def remove_from_parent(self) -> None:
        """Detach from the instruction (the record stays usable)."""
        inst = self.instruction
        if inst is None:
            raise IRError("debug record is not attached to an instruction")
        inst.remove_dbg_record(self)

    def erase_from_parent(self) -> None:
        """Detach and drop the metadata references."""
        if self.instruction is not None:
            self.remove_from_parent()
        self.drop_references()

    def drop_references(self) -> None:
        """Stop following metadata changes (before forgetting the record)."""
        untrack_metadata(self._debug_loc, self)

    def clone(self) -> DbgRecord:
        raise NotImplementedError

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        untrack_metadata(old, self)
        if self._debug_loc is old:
            if not isinstance(new, MDNode):
                raise IRError("a debug record's location must stay a node")
            self._debug_loc = new
        track_metadata(new, self)


class DbgLabelRecord(DbgRecord):
    """``#dbg_label(!label, !loc)``."""

    __slots__ = ("_label",)

    is_label_record = True

    def __init__(self, label: MDNode, debug_loc: MDNode) -> None:
        DbgRecord.__init__(self, debug_loc)
        self._label = label
        track_metadata(label, self)

    @property
    def label(self) -> MDNode:
        """The ``DILabel``."""
        return self._label

    @label.setter
    def label(self, label: MDNode) -> None:
        old = self._label
        self._label = label
        self._swap(old, label)

    def _count(self, md: Metadata) -> int:
        return (self._debug_loc is md) + (self._label is md)

    def drop_references(self) -> None:
        DbgRecord.drop_references(self)
        untrack_metadata(self._label, self)

    def clone(self) -> DbgLabelRecord:
        return DbgLabelRecord(self._label, self._debug_loc)

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        if self._label is old:
            if not isinstance(new, MDNode):
                raise IRError("a label record's label must stay a node")
            self._label = new
        DbgRecord._metadata_changed(self, old, new)

    def __repr__(self) -> str:
        return "<#dbg_label %r>" % (self._label,)


class DbgVariableRecord(DbgRecord):
    """``#dbg_value``/``#dbg_declare``/``#dbg_assign``: where a source variable lives.

    Text order: location, variable, expression, [assign id, address, address
    expression,] debug location.
    """

    __slots__ = ("kind", "_location", "_variable", "_expression", "_assign_id", "_address", "_address_expression")

    is_variable_record = True

    kind: DbgRecordKind

    def __init__(
        self,
        kind: DbgRecordKind,
        location: Metadata,
        variable: MDNode,
        expression: MDNode,
        debug_loc: MDNode,
        assign_id: MDNode | None = None,
        address: Metadata | None = None,
        address_expression: MDNode | None = None,
    ) -> None:
        DbgRecord.__init__(self, debug_loc)
        if kind is DbgRecordKind.ASSIGN:
            if assign_id is None or address is None or address_expression is None:
                raise IRError("#dbg_assign needs an assign id, an address and an address expression")
        elif assign_id is not None or address is not None or address_expression is not None:
            raise IRError("only #dbg_assign has an assign id and an address")
        self.kind = kind
        self._location = location
        self._variable = variable
        self._expression = expression
        self._assign_id = assign_id
        self._address = address
        self._address_expression = address_expression
        for md in (location, variable, expression, assign_id, address, address_expression):
            track_metadata(md, self)

    # --- factories -------------------------------------------------------------------------------------
    @staticmethod
    def create_value(value: Value, variable: MDNode, expression: MDNode, debug_loc: MDNode) -> DbgVariableRecord:
        """``#dbg_value(<value>, variable, expression, loc)``."""
        return DbgVariableRecord(DbgRecordKind.VALUE, ValueAsMetadata.get(value), variable, expression, debug_loc)

    @staticmethod
    def create_declare(address: Value, variable: MDNode, expression: MDNode, debug_loc: MDNode) -> DbgVariableRecord:
        """``#dbg_declare(ptr %addr, variable, expression, loc)``."""
        return DbgVariableRecord(DbgRecordKind.DECLARE, ValueAsMetadata.get(address), variable, expression, debug_loc)

    @staticmethod
    def create_assign(
        value: Value,
        variable: MDNode,
        expression: MDNode,
        assign_id: MDNode,
        address: Value,
        address_expression: MDNode,
        debug_loc: MDNode,
    ) -> DbgVariableRecord:
        """``#dbg_assign(value, variable, expression, !DIAssignID, ptr %addr, addr-expression, loc)``."""
        return DbgVariableRecord(
            DbgRecordKind.ASSIGN,
            ValueAsMetadata.get(value),
            variable,
            expression,
            debug_loc,
            assign_id,
            ValueAsMetadata.get(address),
            address_expression,
        )

    # --- kind ------------------------------------------------------------------------------------------
    @property
    def is_dbg_value(self) -> bool:
        return self.kind is DbgRecordKind.VALUE

    @property
    def is_dbg_declare(self) -> bool:
        return self.kind is DbgRecordKind.DECLARE

    @property
    def is_dbg_assign(self) -> bool:
        return self.kind is DbgRecordKind.ASSIGN

    # --- metadata slots --------------------------------------------------------------------------------
    @property
    def location(self) -> Metadata:
        """The raw location: ``ValueAsMetadata``, ``DIArgList`` or an empty node."""
        return self._location

    @location.setter
    def location(self, md: Metadata) -> None:
        old = self._location
        self._location = md
        self._swap(old, md)

    @property
    def variable(self) -> MDNode:
        """The ``DILocalVariable``."""
        return self._variable

    @variable.setter
    def variable(self, md: MDNode) -> None:
        old = self._variable
        self._variable = md
        self._swap(old, md)

    @property
    def expression(self) -> MDNode:
        """The ``DIExpression``."""
        return self._expression

    @expression.setter
    def expression(self, md: MDNode) -> None:
        old = self._expression
        self._expression = md
        self._swap(old, md)

    @property
    def assign_id(self) -> MDNode | None:
        """The ``DIAssignID`` of a ``#dbg_assign``."""
        return self._assign_id

    @assign_id.setter
    def assign_id(self, md: MDNode) -> None:
        self._check_assign()
        old = self._assign_id
        self._assign_id = md
        self._swap(old, md)

    @property
    def address(self) -> Metadata | None:
        """The raw address of a ``#dbg_assign`` (a ``ValueAsMetadata`` or ``!{}``)."""
        return self._address

    @address.setter
    def address(self, md: Metadata) -> None:
        self._check_assign()
        old = self._address
        self._address = md
        self._swap(old, md)

    @property
    def address_expression(self) -> MDNode | None:
        return self._address_expression

    @address_expression.setter
    def address_expression(self, md: MDNode) -> None:
        self._check_assign()
        old = self._address_expression
        self._address_expression = md
        self._swap(old, md)

    def _check_assign(self) -> None:
        if self.kind is not DbgRecordKind.ASSIGN:
            raise IRError("only #dbg_assign has an assign id and an address")

    def _count(self, md: Metadata) -> int:
        return (
            (self._debug_loc is md)
            + (self._location is md)
            + (self._variable is md)
            + (self._expression is md)
            + (self._assign_id is md)
            + (self._address is md)
            + (self._address_expression is md)
        )

    # --- location values -------------------------------------------------------------------------------
    @property
    def has_arg_list(self) -> bool:
        return isinstance(self._location, DIArgList)

    def location_values(self) -> list[Value]:
        """The values the location refers to (empty for a ``!{}`` location)."""
        loc = self._location
        if isinstance(loc, ValueAsMetadata):
            return [loc.value]
        if isinstance(loc, DIArgList):
            return [a.value for a in loc.args]
        return []

    @property
    def num_variable_location_ops(self) -> int:
        return len(self.location_values())

    def get_variable_location_op(self, index: int) -> Value:
        return self.location_values()[index]

    def replace_variable_location_op(self, old: Value | int, new: Value) -> None:
        """Replace the location value ``old`` (or the one at index ``old``) by ``new``."""
        new_md = ValueAsMetadata.get(new)
        loc = self._location
        if isinstance(loc, DIArgList):
            args = list(loc.args)
            if isinstance(old, int):
                args[old] = new_md
            else:
                found = False
                for i, a in enumerate(args):
                    if a.value is old:
                        args[i] = new_md
                        found = True
                if not found:
                    raise IRError("replace_variable_location_op: value is not a location operand")
            self.location = DIArgList.get(loc.context, args)
            return
        if isinstance(old, int):
            if old != 0 or not isinstance(loc, ValueAsMetadata):
                raise IndexError(old)
        elif not isinstance(loc, ValueAsMetadata) or loc.value is not old:
            raise IRError("replace_variable_location_op: value is not a location operand")
        self.location = new_md

    def add_variable_location_ops(self, values: Sequence[Value], expression: MDNode) -> None:
        """Append location operands (making a ``DIArgList``) and set the expression
        that refers to them (LLVM ``addVariableLocationOps``)."""
        args: list[ValueAsMetadata] = []
        loc = self._location
        if isinstance(loc, DIArgList):
            args.extend(loc.args)
        elif isinstance(loc, ValueAsMetadata):
            args.append(loc)
        args.extend(ValueAsMetadata.get(v) for v in values)
        self.expression = expression
        self.location = DIArgList.get(expression.context, args)

    def set_raw_location_values(self, values: Sequence[Value]) -> None:
        """Set the location to these values (one: a plain value; several: a DIArgList)."""
        if len(values) == 1:
            self.location = ValueAsMetadata.get(values[0])
        elif not values:
            self.location = MDTuple.get(self._variable.context, ())
        else:
            self.location = DIArgList.get(values[0].type.context, [ValueAsMetadata.get(v) for v in values])

    @property
    def is_kill_location(self) -> bool:
        """True when the location says "no value here": an empty node, no operands
        with a non-computing expression, or any undef/poison operand."""
        loc = self._location
        if isinstance(loc, MDNode):
            return True
        values = self.location_values()
        if not values:
            expr = self._expression
            return not (isinstance(expr, DIExpression) and expr.is_complex)
        for v in values:
            if isinstance(v, UndefValue):
                return True
        return False

    def set_kill_location(self) -> None:
        """Replace every location operand by ``poison`` of its type, keeping the
        ``DIArgList`` form if there is one (LLVM ``setKillLocation``)."""
        done: set[Value] = set()
        for value in self.location_values():
            if value not in done:
                done.add(value)
                self.replace_variable_location_op(value, PoisonValue.get(value.type))

    @property
    def is_kill_address(self) -> bool:
        addr = self._address
        if not isinstance(addr, ValueAsMetadata):
            return True
        return isinstance(addr.value, UndefValue)

    def set_kill_address(self) -> None:
        addr = self._address
        if isinstance(addr, ValueAsMetadata):
            self.address = ValueAsMetadata.get(PoisonValue.get(addr.type))

    def set_address_value(self, value: Value) -> None:
        self.address = ValueAsMetadata.get(value)

    @property
    def address_value(self) -> Value | None:
        addr = self._address
        return addr.value if isinstance(addr, ValueAsMetadata) else None

    # --- lifetime ----------------------------------------------------------------------------------------
    def drop_references(self) -> None:
        for md in (
            self._debug_loc,
            self._location,
            self._variable,
            self._expression,
            self._assign_id,
            self._address,
            self._address_expression,
        ):
            untrack_metadata(md, self)

    def clone(self) -> DbgVariableRecord:
        """A detached copy with the same metadata."""
        return DbgVariableRecord(
            self.kind,
            self._location,
            self._variable,
            self._expression,
            self._debug_loc,
            self._assign_id,
            self._address,
            self._address_expression,
        )

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        untrack_metadata(old, self)
        if self._location is old:
            self._location = _replacement_location(old, new)
            track_metadata(self._location, self)
        if self._address is old:
            self._address = _replacement_location(old, new)
            track_metadata(self._address, self)
        if (
            self._variable is old
            or self._expression is old
            or self._assign_id is old
            or self._address_expression is old
            or self._debug_loc is old
        ):
            if not isinstance(new, MDNode):
                raise IRError("a debug record's variable, expression, assign id and location must stay nodes")
            if self._variable is old:
                self._variable = new
            if self._expression is old:
                self._expression = new
            if self._assign_id is old:
                self._assign_id = new
            if self._address_expression is old:
                self._address_expression = new
            if self._debug_loc is old:
                self._debug_loc = new
            track_metadata(new, self)

    def __repr__(self) -> str:
        return "<#dbg_%s %r>" % (self.kind.value, self.location_values())


def _replacement_location(old: Metadata, new: Metadata | None) -> Metadata:
    if new is not None:
        return new
    if isinstance(old, ValueAsMetadata):
        return poison_as_metadata(old.type)
    # Any other location that vanished becomes "no location".
    ctx = old.context if isinstance(old, (DIArgList, MDNode)) else None
    if ctx is None:
        raise IRError("debug record location vanished")
    return MDTuple.get(ctx, ())
