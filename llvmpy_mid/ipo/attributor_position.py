"""The positions the Attributor reasons about (LLVM 19.1.7 ``IRPosition`` and
``SubsumingPositionIterator``, ``include/llvm/Transforms/IPO/Attributor.h`` and
``lib/Transforms/IPO/Attributor.cpp``).

A position is a kind and an anchor: a function (its ``function`` or ``returned``
position), an argument, a call site (its ``call site``, ``call site returned`` or,
with an operand number, ``call site argument`` position) or any other value (a
``floating`` position). Positions compare by kind, anchor identity and argument
number, so they key the Attributor's tables.
"""

from __future__ import annotations

import enum

from llvmpy_mid.ir.attribute_list import FIRST_ARG_INDEX, FUNCTION_INDEX, RETURN_INDEX
from llvmpy_mid.ir.attributes import AttributeList
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value

__all__ = ["IRPosition", "PositionKind", "subsuming_positions"]


class PositionKind(enum.IntEnum):
    """LLVM ``IRPosition::Kind``."""

    INVALID = 0
    FLOAT = 1
    RETURNED = 2
    CALL_SITE_RETURNED = 3
    FUNCTION = 4
    CALL_SITE = 5
    ARGUMENT = 6
    CALL_SITE_ARGUMENT = 7


_CALL_SITE_KINDS = (PositionKind.CALL_SITE, PositionKind.CALL_SITE_RETURNED, PositionKind.CALL_SITE_ARGUMENT)


class IRPosition:
    """One position: ``kind``, ``anchor`` and, for a call site argument, ``arg_no``."""

    __slots__ = ("kind", "anchor", "arg_no", "_hash")

    def __init__(self, kind: PositionKind, anchor: Value, arg_no: int = -1) -> None:
        self.kind = kind
        self.anchor = anchor
        self.arg_no = arg_no
        self._hash = hash((int(kind), id(anchor), arg_no))

    # --- constructors -----------------------------------------------------------------
    @staticmethod
    def function(fn: Function) -> IRPosition:
        return IRPosition(PositionKind.FUNCTION, fn)

    @staticmethod
    def returned(fn: Function) -> IRPosition:
        return IRPosition(PositionKind.RETURNED, fn)

    @staticmethod
    def argument(arg: Argument) -> IRPosition:
        return IRPosition(PositionKind.ARGUMENT, arg)

    @staticmethod
    def callsite_function(call: CallBase) -> IRPosition:
        return IRPosition(PositionKind.CALL_SITE, call)

    @staticmethod
    def callsite_returned(call: CallBase) -> IRPosition:
        return IRPosition(PositionKind.CALL_SITE_RETURNED, call)

    @staticmethod
    def callsite_argument(call: CallBase, arg_no: int) -> IRPosition:
        return IRPosition(PositionKind.CALL_SITE_ARGUMENT, call, arg_no)

    @staticmethod
    def value(v: Value) -> IRPosition:
        """LLVM ``IRPosition::value``: an argument's own position, a call's returned
        position, else a floating one."""
        if isinstance(v, Argument):
            return IRPosition.argument(v)
        if isinstance(v, CallBase):
            return IRPosition.callsite_returned(v)
        return IRPosition(PositionKind.FLOAT, v)

    @staticmethod
    def inst(i: Instruction) -> IRPosition:
        return IRPosition.value(i)

    # --- identity -----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, IRPosition)
            and self.kind == other.kind
            and self.anchor is other.anchor
            and self.arg_no == other.arg_no
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return "IRPosition(%s, %s, %d)" % (self.kind.name, getattr(self.anchor, "name", "?"), self.arg_no)

    # --- queries ------------------------------------------------------------------------
    @property
    def is_any_call_site_position(self) -> bool:
        return self.kind in _CALL_SITE_KINDS

    @property
    def is_argument_position(self) -> bool:
        return self.kind in (PositionKind.ARGUMENT, PositionKind.CALL_SITE_ARGUMENT)

    @property
    def is_fn_interface_kind(self) -> bool:
        return self.kind in (PositionKind.FUNCTION, PositionKind.RETURNED, PositionKind.ARGUMENT)

    @property
    def is_function_scope(self) -> bool:
        return self.kind in (PositionKind.FUNCTION, PositionKind.CALL_SITE)

    @property
    def associated_value(self) -> Value:
        if self.kind == PositionKind.CALL_SITE_ARGUMENT:
            assert isinstance(self.anchor, CallBase)
            return self.anchor.get_arg(self.arg_no)
        return self.anchor

    @property
    def associated_type(self) -> Type:
        if self.kind in (PositionKind.RETURNED, PositionKind.FUNCTION):
            fn = self.anchor
            assert isinstance(fn, Function)
            return fn.return_type
        return self.associated_value.type

    @property
    def anchor_scope(self) -> Function | None:
        """The function the anchor lives in (the function itself for a function)."""
        anchor = self.anchor
        if isinstance(anchor, Function):
            return anchor
        if isinstance(anchor, Argument):
            return anchor.parent
        if isinstance(anchor, Instruction):
            return anchor.function
        return None

    @property
    def associated_function(self) -> Function | None:
        """LLVM ``getAssociatedFunction``: the called function of a call site (whatever
        the call's function type), else the scope."""
        anchor = self.anchor
        if isinstance(anchor, CallBase):
            callee = anchor.called_operand
            return callee if isinstance(callee, Function) else None
        return self.anchor_scope

    @property
    def associated_argument(self) -> Argument | None:
        """The callee's parameter a (call site) argument position stands for."""
        if self.kind == PositionKind.ARGUMENT:
            assert isinstance(self.anchor, Argument)
            return self.anchor
        if self.kind != PositionKind.CALL_SITE_ARGUMENT:
            return None
        assert isinstance(self.anchor, CallBase)
        callee = self.anchor.called_operand
        if not isinstance(callee, Function) or self.arg_no >= len(callee.args):
            return None
        return callee.args[self.arg_no]

    @property
    def callee_arg_no(self) -> int:
        if self.kind == PositionKind.ARGUMENT:
            assert isinstance(self.anchor, Argument)
            return self.anchor.arg_no
        return self.arg_no

    @property
    def ctx_i(self) -> Instruction | None:
        """LLVM ``getCtxI``: the anchor instruction, or the scope's first instruction."""
        anchor = self.anchor
        if isinstance(anchor, Instruction):
            return anchor
        fn = self.anchor_scope
        if isinstance(anchor, (Argument, Function)) and fn is not None and not fn.is_declaration:
            first = fn.entry_block.instructions.first
            return first if isinstance(first, Instruction) else None
        return None

    # --- attribute lists ----------------------------------------------------------------
    @property
    def attr_list_anchor(self) -> Function | CallBase | None:
        """Whose attribute list holds this position's attributes (None: a floating value)."""
        if self.kind == PositionKind.ARGUMENT:
            assert isinstance(self.anchor, Argument)
            return self.anchor.parent
        if self.kind in (PositionKind.FUNCTION, PositionKind.RETURNED):
            assert isinstance(self.anchor, Function)
            return self.anchor
        if self.kind in _CALL_SITE_KINDS:
            assert isinstance(self.anchor, CallBase)
            return self.anchor
        return None

    @property
    def attr_index(self) -> int:
        if self.kind in (PositionKind.FUNCTION, PositionKind.CALL_SITE):
            return FUNCTION_INDEX
        if self.kind in (PositionKind.RETURNED, PositionKind.CALL_SITE_RETURNED):
            return RETURN_INDEX
        return self.callee_arg_no + FIRST_ARG_INDEX

    def ir_attr_list(self) -> AttributeList:
        anchor = self.attr_list_anchor
        return AttributeList.EMPTY if anchor is None else anchor.attributes


def _can_ignore_operand_bundles(call: CallBase) -> bool:
    return call.intrinsic_base == "llvm.assume"


def subsuming_positions(pos: IRPosition) -> list[IRPosition]:
    """The position, then those whose attributes also hold for it (LLVM
    ``SubsumingPositionIterator``)."""
    out = [pos]
    kind = pos.kind
    if kind in (PositionKind.ARGUMENT, PositionKind.RETURNED):
        scope = pos.anchor_scope
        assert scope is not None
        out.append(IRPosition.function(scope))
        return out
    anchor = pos.anchor
    if not isinstance(anchor, CallBase):
        return out
    plain = not anchor.has_operand_bundles or _can_ignore_operand_bundles(anchor)
    callee = anchor.called_operand
    if kind == PositionKind.CALL_SITE:
        if plain and isinstance(callee, Function):
            out.append(IRPosition.function(callee))
    elif kind == PositionKind.CALL_SITE_RETURNED:
        if plain and isinstance(callee, Function):
            out.append(IRPosition.returned(callee))
            out.append(IRPosition.function(callee))
            for arg in callee.args:
                if callee.attributes.has_param_attr(arg.arg_no, "returned") and arg.arg_no < anchor.arg_size:
                    out.append(IRPosition.callsite_argument(anchor, arg.arg_no))
                    out.append(IRPosition.value(anchor.get_arg(arg.arg_no)))
                    out.append(IRPosition.argument(arg))
        out.append(IRPosition.callsite_function(anchor))
    elif kind == PositionKind.CALL_SITE_ARGUMENT:
        if plain and isinstance(callee, Function):
            param = pos.associated_argument
            if param is not None:
                out.append(IRPosition.argument(param))
            out.append(IRPosition.function(callee))
        out.append(IRPosition.value(pos.associated_value))
    return out
