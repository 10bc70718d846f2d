"""Inline assembler expressions (LLVM ``InlineAsm``): the callee of ``call asm ...``.

An :class:`InlineAsm` is a value of type ``ptr`` that holds the function type
of the call, the assembly template, the constraint string and four flags
(``sideeffect``, ``alignstack``, ``inteldialect``, ``unwind``). Like a
constant it is uniqued per context (in ``ctx.constants`` under a key that
starts with ``"inlineasm"``), so ``InlineAsm.get`` with equal arguments returns
the same object; unlike a constant it has no operands and is not a
``Constant`` (LLVM's class hierarchy is the same).

The constraint string is parsed as LLVM 19 parses it
(:func:`parse_constraints`) and checked against the function type by
:func:`verify`, whose messages are the ones ``llvm-as-19`` reports. The
printer is not here (the assembly layer escapes the strings).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.types import StructType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.types import FunctionType


class AsmDialect(IntEnum):
    """The assembler dialect: AT&T (the default) or Intel (``inteldialect``)."""

    ATT = 0
    INTEL = 1


class ConstraintType(IntEnum):
    """What one constraint of the constraint string describes."""

    INPUT = 0
    OUTPUT = 1
    CLOBBER = 2
    LABEL = 3


class ConstraintInfo:
    """One comma-separated constraint, parsed (LLVM ``InlineAsm::ConstraintInfo``).

    ``codes`` are the constraint codes (``"r"``, ``"{eax}"``, ``"0"``...);
    with ``|`` alternatives, ``alternatives`` holds the codes of each one and
    ``codes`` those of the first. ``matching_input`` is, for an output, the
    index of the input constraint tied to it (-1 when none).
    """

    __slots__ = (
        "type",
        "is_early_clobber",
        "is_commutative",
        "is_indirect",
        "matching_input",
        "codes",
        "alternatives",
        "alternative_matching_inputs",
    )

    def __init__(self) -> None:
        self.type = ConstraintType.INPUT
        self.is_early_clobber = False
        self.is_commutative = False
        self.is_indirect = False
        self.matching_input = -1
        self.codes: list[str] = []
        self.alternatives: list[list[str]] = []
        self.alternative_matching_inputs: list[int] = []

    @property
    def is_multiple_alternative(self) -> bool:
        return len(self.alternatives) > 1

    @property
    def has_matching_input(self) -> bool:
        return self.matching_input != -1

    def __repr__(self) -> str:
        return "<ConstraintInfo %s %r>" % (self.type.name.lower(), self.codes)


def _parse_one(text: str, so_far: list[ConstraintInfo]) -> ConstraintInfo | None:
    """Parse one constraint; None when it is malformed."""
    info = ConstraintInfo()
    n_alt = text.count("|") + 1
    if n_alt > 1:
        info.alternatives = [[] for _ in range(n_alt)]
        info.alternative_matching_inputs = [-1] * n_alt
        codes = info.alternatives[0]
    else:
        codes = info.codes
    end = len(text)
    i = 0
    # Prefix: clobber, output or label.
    if i < end and text[i] == "~":
        info.type = ConstraintType.CLOBBER
        i += 1
        if i < end and text[i] != "{":
            return None
    elif i < end and text[i] == "=":
        info.type = ConstraintType.OUTPUT
        i += 1
    elif i < end and text[i] == "!":
        info.type = ConstraintType.LABEL
        i += 1
    if i < end and text[i] == "*":
        info.is_indirect = True
        i += 1
    if i >= end:
        return None  # a prefix alone
    # Modifiers.
    while True:
        c = text[i]
        if c == "&":
            if info.type is not ConstraintType.OUTPUT or info.is_early_clobber:
                return None
            info.is_early_clobber = True
        elif c == "%":
            if info.type is ConstraintType.CLOBBER or info.is_commutative:
                return None
            info.is_commutative = True
        elif c == "#" or c == "*":
            return None  # comments and register preferences are not supported
        else:
            break
        i += 1
        if i >= end:
            return None
    alt_index = 0
    while i < end:
        c = text[i]
        if c == "{":
            close = text.find("}", i + 1)
            if close < 0:
                return None
            codes.append(text[i : close + 1])
            i = close + 1
        elif c.isdigit() and c.isascii():
            start = i
            while i < end and text[i].isdigit() and text[i].isascii():
                i += 1
            codes.append(text[start:i])
            n = int(text[start:i])
            if n >= len(so_far) or so_far[n].type is not ConstraintType.OUTPUT or info.type is not ConstraintType.INPUT:
                return None
            target = so_far[n]
            me = len(so_far)
            if n_alt > 1:
                if alt_index >= len(target.alternative_matching_inputs):
                    return None
                if target.alternative_matching_inputs[alt_index] != -1:
                    return None
                target.alternative_matching_inputs[alt_index] = me
            else:
                if target.matching_input != -1 and target.matching_input != me:
                    return None
                target.matching_input = me
        elif c == "|":
            alt_index += 1
            codes = info.alternatives[alt_index]
            i += 1
        elif c == "^":
            if i + 3 > end:
                return None
            codes.append(text[i + 1 : i + 3])
            i += 3
        elif c == "@":
            if i + 1 >= end or not text[i + 1].isdigit():
                return None
            width = int(text[i + 1])
            if width == 0 or i + 2 + width > end:
                return None
            codes.append(text[i + 2 : i + 2 + width])
            i += 2 + width
        else:
            codes.append(c)
            i += 1
    if n_alt > 1:
        info.codes = list(info.alternatives[0])
    return info


def parse_constraints(constraints: str) -> list[ConstraintInfo]:
    """Parse a constraint string; an empty list when it is malformed (as LLVM)."""
    result: list[ConstraintInfo] = []
    if not constraints:
        return result
    pieces = constraints.split(",")
    for piece in pieces:
        if not piece:
            return []  # ",," or a trailing comma
        info = _parse_one(piece, result)
        if info is None:
            return []
        result.append(info)
    return result


def verify(function_type: FunctionType, constraints: str) -> str | None:
    """Check a constraint string against the call's function type.

    Returns None when they agree, else the message ``llvm-as-19`` gives.
    """
    if function_type.is_vararg:
        return "inline asm cannot be variadic"
    infos = parse_constraints(constraints)
    if not infos and constraints:
        return "failed to parse constraints"
    outputs = inputs = clobbers = indirect = labels = 0
    for info in infos:
        kind = info.type
        if kind is ConstraintType.OUTPUT:
            if inputs - indirect != 0 or clobbers or labels:
                return "output constraint occurs after input, clobber or label constraint"
            if not info.is_indirect:
                outputs += 1
                continue
            indirect += 1
            kind = ConstraintType.INPUT  # an indirect output is passed like an input
        if kind is ConstraintType.INPUT:
            if clobbers:
                return "input constraint occurs after clobber constraint"
            inputs += 1
        elif kind is ConstraintType.CLOBBER:
            clobbers += 1
        else:
            if clobbers:
                return "label constraint occurs after clobber constraint"
            labels += 1
    ret = function_type.return_type
    if outputs == 0:
        if not ret.is_void:
            return "inline asm without outputs must return void"
    elif outputs == 1:
        if ret.is_struct:
            return "inline asm with one output cannot return struct"
    else:
        if not isinstance(ret, StructType) or len(ret.elements) != outputs:
            return "number of output constraints does not match number of return struct elements"
    if len(function_type.params) != inputs:
        return "number of input constraints does not match number of parameters"
    return None


class InlineAsm(Value):
    """``asm [sideeffect] [alignstack] [inteldialect] [unwind] "template", "constraints"``.

    Build with :meth:`get`; the type is ``ptr`` (address space 0).
    """

    __slots__ = (
        "function_type",
        "asm_string",
        "constraint_string",
        "has_side_effects",
        "is_align_stack",
        "dialect",
        "can_throw",
    )

    is_inline_asm: ClassVar[bool] = True

    function_type: FunctionType
    asm_string: str
    constraint_string: str
    has_side_effects: bool
    is_align_stack: bool
    dialect: AsmDialect
    can_throw: bool

    def __init__(
        self,
        function_type: FunctionType,
        asm_string: str,
        constraint_string: str,
        has_side_effects: bool,
        is_align_stack: bool,
        dialect: AsmDialect,
        can_throw: bool,
    ) -> None:
        Value.__init__(self, function_type.context.ptr)
        self.function_type = function_type
        self.asm_string = asm_string
        self.constraint_string = constraint_string
        self.has_side_effects = has_side_effects
        self.is_align_stack = is_align_stack
        self.dialect = dialect
        self.can_throw = can_throw

    @classmethod
    def get(
        cls,
        function_type: FunctionType,
        asm_string: str,
        constraint_string: str,
        has_side_effects: bool = False,
        is_align_stack: bool = False,
        dialect: AsmDialect = AsmDialect.ATT,
        can_throw: bool = False,
    ) -> InlineAsm:
        """The uniqued inline-asm value; raises :class:`IRError` when the
        constraints do not fit the function type."""
        key: tuple[Any, ...] = (
            "inlineasm",
            function_type,
            asm_string,
            constraint_string,
            bool(has_side_effects),
            bool(is_align_stack),
            AsmDialect(dialect),
            bool(can_throw),
        )
        table = function_type.context.constants
        found = table.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        problem = verify(function_type, constraint_string)
        if problem is not None:
            raise IRError("invalid inline asm: " + problem)
        asm = cls(function_type, asm_string, constraint_string, key[4], key[5], key[6], key[7])
        table[key] = asm
        return asm

    @property
    def is_intel_dialect(self) -> bool:
        return self.dialect is AsmDialect.INTEL

    def parse_constraints(self) -> list[ConstraintInfo]:
        """The parsed constraints of this expression."""
        return parse_constraints(self.constraint_string)

    def _key(self) -> tuple[Any, ...]:
        return (
            "inlineasm",
            self.function_type,
            self.asm_string,
            self.constraint_string,
            self.has_side_effects,
            self.is_align_stack,
            self.dialect,
            self.can_throw,
        )


__all__ = [
    "AsmDialect",
    "ConstraintInfo",
    "ConstraintType",
    "InlineAsm",
    "parse_constraints",
    "verify",
]
