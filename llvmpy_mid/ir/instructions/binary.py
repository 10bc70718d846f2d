"""Unary and binary arithmetic instructions (LLVM ``UnaryOperator``, ``BinaryOperator``).

Each binary opcode has its own small subclass of :class:`BinaryOperator`
(``AddInst`` for ``add`` ...) so that ``inst.opcode`` is a class attribute
read; :meth:`BinaryOperator.create` picks the class from an opcode string.
Operands are ``(lhs, rhs)``; ``fneg`` has the single operand ``(value,)``.

Optional flags are kept in one int, with LLVM's bit meanings: ``nuw`` = 1 and
``nsw`` = 2 on add/sub/mul/shl, ``exact`` = 1 on udiv/sdiv/lshr/ashr,
``disjoint`` = 1 on ``or``, and the :class:`FastMathFlags` bits on the
floating-point opcodes. Setting a flag the opcode does not have raises
:class:`IRError`. The word and the nuw/nsw accessors come from
:class:`~llvmpy_mid.ir.instructions.optional_flags.OptionalFlagsInst`, shared
with the casts; ``fneg`` keeps its fast-math flags through
:class:`~llvmpy_mid.ir.instructions.optional_flags.FastMathFlagsInst`.

This module does not fold or simplify; that belongs to the analyses.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.optional_flags import NSW, NUW, SOLE_FLAG, FastMathFlagsInst, OptionalFlagsInst
from llvmpy_mid.ir.types import TypeID, mismatch_text
from llvmpy_mid.ir.value import Use, Value

_REASSOC_NSZ = int(FastMathFlags.REASSOC | FastMathFlags.NSZ)
_INTEGER = TypeID.INTEGER


def swap_operand_uses(a: Use, b: Use) -> None:
    """Exchange the values of two operand slots, each slot taking the other's
    place in the use-lists (LLVM ``Use::swap``; it keeps use-list order)."""
    x = a.value
    y = b.value
    if x is y:
        return
    a.value = y
    b.value = x
    a._prev, b._prev = b._prev, a._prev
    a._next, b._next = b._next, a._next
    for u in (a, b):
        p = u._prev
        if p is None:
            u.value._use_head = u
        else:
            p._next = u
        n = u._next
        if n is not None:
            n._prev = u


class UnaryOperator(FastMathFlagsInst):
    """``fneg [fmf] T %v`` — the only unary operator of LLVM 19. Operands: ``(value,)``."""

    __slots__ = ()
    __match_args__ = ("operand",)

    opcode: ClassVar[str] = "fneg"
    is_unary_op = True

    def __init__(
        self, value: Value, *, fast_math_flags: FastMathFlags | int = 0, name: str = ""
    ) -> None:
        ty = value.type
        if not ty.scalar_type.is_floating_point:
            raise IRError("fneg needs a floating-point operand, not %s" % ty)
        Instruction.__init__(self, ty, (value,), name)
        self._fmf = int(fast_math_flags)

    @classmethod
    def create(
        cls, opcode: str, value: Value, *, fast_math_flags: FastMathFlags | int = 0, name: str = ""
    ) -> UnaryOperator:
        if opcode != "fneg":
            raise IRError("unknown unary operator '%s'" % opcode)
        return cls(value, fast_math_flags=fast_math_flags, name=name)

    @property
    def operand(self) -> Value:
        return self._operands[0].value

    def _clone_impl(self) -> UnaryOperator:
        c = UnaryOperator(self._operands[0].value)
        c._fmf = self._fmf
        return c


class BinaryOperator(OptionalFlagsInst):
    """A two-operand arithmetic or logic instruction. Operands: ``(lhs, rhs)``.

    Build one with the opcode's class (``AddInst(a, b, nsw=True)``) or with
    ``BinaryOperator.create("add", a, b, nsw=True)``.
    """

    __slots__ = ()
    __match_args__ = ("lhs", "rhs")

    is_binary_op = True
    # Per-opcode traits, set on each subclass (``has_wrap_flags`` too).
    is_fp_op: ClassVar[bool] = False
    """fadd, fsub, fmul, fdiv, frem."""
    has_exact_flag: ClassVar[bool] = False
    """exact allowed (udiv, sdiv, lshr, ashr)."""
    has_disjoint_flag: ClassVar[bool] = False
    """disjoint allowed (or)."""
    is_shift: ClassVar[bool] = False
    is_int_div_rem: ClassVar[bool] = False
    """udiv, sdiv, urem, srem: may trap on a zero divisor, so not speculatable
    without proof (they neither read nor write memory)."""
    is_bitwise_logic_op: ClassVar[bool] = False
    _commutative: ClassVar[bool] = False
    _int_associative: ClassVar[bool] = False

    def __init__(
        self,
        lhs: Value,
        rhs: Value,
        *,
        nuw: bool = False,
        nsw: bool = False,
        exact: bool = False,
        disjoint: bool = False,
        fast_math_flags: FastMathFlags | int = 0,
        name: str = "",
    ) -> None:
        ty = lhs.type
        if rhs.type is not ty:
            raise IRError("%s operands must have the same type (%s)" % (self.opcode, mismatch_text(ty, rhs.type)))
        if self.is_fp_op:
            if not ty.scalar_type.is_floating_point:
                raise IRError("%s needs floating-point operands, not %s" % (self.opcode, ty))
        elif ty.type_id is not _INTEGER and ty.scalar_type.type_id is not _INTEGER:
            raise IRError("%s needs integer operands, not %s" % (self.opcode, ty))
        # Instruction.__init__ inlined for the two operands (hot path).
        self.type = ty
        self._name = name
        self._use_head = None
        self._operands = [Use(lhs, self, 0), Use(rhs, self, 1)]
        self.parent = None
        self._prev = None
        self._next = None
        self._order = 0
        self._md = None
        self._dbg_records = None
        flags = 0
        if nuw or nsw:
            if not self.has_wrap_flags:
                raise self._missing_flag("nuw/nsw flags")
            flags = (NUW if nuw else 0) | (NSW if nsw else 0)
        if exact:
            if not self.has_exact_flag:
                raise self._missing_flag("exact flag")
            flags = SOLE_FLAG
        if disjoint:
            if not self.has_disjoint_flag:
                raise self._missing_flag("disjoint flag")
            flags = SOLE_FLAG
        if fast_math_flags:
            if not self.is_fp_op:
                raise IRError("%s cannot have fast-math flags" % self.opcode)
            flags = int(fast_math_flags) & 127
        self._flags = flags

    @staticmethod
    def class_for(opcode: str) -> type[BinaryOperator]:
        """The subclass for ``opcode`` (``"add"`` -> :class:`AddInst`)."""
        cls = BINARY_OPCODE_CLASSES.get(opcode)
        if cls is None:
            raise IRError("unknown binary operator '%s'" % opcode)
        return cls

    @staticmethod
    def create(
        opcode: str,
        lhs: Value,
        rhs: Value,
        *,
        nuw: bool = False,
        nsw: bool = False,
        exact: bool = False,
        disjoint: bool = False,
        fast_math_flags: FastMathFlags | int = 0,
        name: str = "",
    ) -> BinaryOperator:
        cls = BINARY_OPCODE_CLASSES.get(opcode)
        if cls is None:
            raise IRError("unknown binary operator '%s'" % opcode)
        return cls(
            lhs, rhs, nuw=nuw, nsw=nsw, exact=exact, disjoint=disjoint, fast_math_flags=fast_math_flags, name=name
        )

    # --- operands -----------------------------------------------------------------
    @property
    def lhs(self) -> Value:
        return self._operands[0].value

    @property
    def rhs(self) -> Value:
        return self._operands[1].value

    def swap_operands(self) -> None:
        """Exchange lhs and rhs of a commutative operator (LLVM ``swapOperands``)."""
        if not self._commutative:
            raise IRError("cannot swap the operands of non-commutative %s" % self.opcode)
        swap_operand_uses(self._operands[0], self._operands[1])

    # --- flags (flags_word, nuw and nsw come from OptionalFlagsInst) ----------------------
    @property
    def exact(self) -> bool:
        return self.has_exact_flag and bool(self._flags & SOLE_FLAG)

    @exact.setter
    def exact(self, value: bool) -> None:
        self._set_sole_flag(self.has_exact_flag, "exact", value)

    @property
    def disjoint(self) -> bool:
        return self.has_disjoint_flag and bool(self._flags & SOLE_FLAG)

    @disjoint.setter
    def disjoint(self, value: bool) -> None:
        self._set_sole_flag(self.has_disjoint_flag, "disjoint", value)

    @property
    def fast_math_flags(self) -> FastMathFlags:
        return FastMathFlags(self._flags if self.is_fp_op else 0)

    @fast_math_flags.setter
    def fast_math_flags(self, flags: FastMathFlags | int) -> None:
        if not self.is_fp_op:
            if flags:
                raise IRError("%s cannot have fast-math flags" % self.opcode)
            return
        self._flags = int(flags) & 127

    def drop_poison_generating_flags(self) -> None:
        """Clear nuw/nsw/exact/disjoint and the nnan/ninf fast-math flags
        (LLVM ``dropPoisonGeneratingFlags``)."""
        if self.is_fp_op:
            self._flags &= ~int(FastMathFlags.NNAN | FastMathFlags.NINF)
        else:
            self._flags = 0

    # --- queries --------------------------------------------------------------------------
    @property
    def is_commutative(self) -> bool:
        return self._commutative

    @property
    def is_associative(self) -> bool:
        """add, mul, and, or, xor; fadd/fmul only with both ``reassoc`` and ``nsz``."""
        if self._int_associative:
            return True
        if self.opcode == "fadd" or self.opcode == "fmul":
            return self._flags & _REASSOC_NSZ == _REASSOC_NSZ
        return False

    @property
    def is_idempotent(self) -> bool:
        """``x op x == x``: and, or."""
        return self.opcode == "and" or self.opcode == "or"

    @property
    def is_nilpotent(self) -> bool:
        """``x op x == 0``: xor."""
        return self.opcode == "xor"

    def _clone_impl(self) -> BinaryOperator:
        c = type(self)(self._operands[0].value, self._operands[1].value)
        c._flags = self._flags
        return c


class AddInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "add"
    has_wrap_flags = True
    _commutative = True
    _int_associative = True


class SubInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "sub"
    has_wrap_flags = True


class MulInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "mul"
    has_wrap_flags = True
    _commutative = True
    _int_associative = True


class UDivInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "udiv"
    has_exact_flag = True
    is_int_div_rem = True


class SDivInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "sdiv"
    has_exact_flag = True
    is_int_div_rem = True


class URemInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "urem"
    is_int_div_rem = True


class SRemInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "srem"
    is_int_div_rem = True


class ShlInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "shl"
    has_wrap_flags = True
    is_shift = True


class LShrInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "lshr"
    has_exact_flag = True
    is_shift = True


class AShrInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "ashr"
    has_exact_flag = True
    is_shift = True


class AndInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "and"
    is_bitwise_logic_op = True
    _commutative = True
    _int_associative = True


class OrInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "or"
    has_disjoint_flag = True
    is_bitwise_logic_op = True
    _commutative = True
    _int_associative = True


class XorInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "xor"
    is_bitwise_logic_op = True
    _commutative = True
    _int_associative = True


class FAddInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "fadd"
    is_fp_op = True
    _commutative = True


class FSubInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "fsub"
    is_fp_op = True


class FMulInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "fmul"
    is_fp_op = True
    _commutative = True


class FDivInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "fdiv"
    is_fp_op = True


class FRemInst(BinaryOperator):
    __slots__ = ()
    opcode: ClassVar[str] = "frem"
    is_fp_op = True


BINARY_OPCODE_CLASSES: dict[str, type[BinaryOperator]] = {
    cls.opcode: cls
    for cls in (
        AddInst,
        SubInst,
        MulInst,
        UDivInst,
        SDivInst,
        URemInst,
        SRemInst,
        ShlInst,
        LShrInst,
        AShrInst,
        AndInst,
        OrInst,
        XorInst,
        FAddInst,
        FSubInst,
        FMulInst,
        FDivInst,
        FRemInst,
    )
}
"""Binary opcode -> its class, in LLVM's opcode order."""

__all__ = [
    "swap_operand_uses",
    "UnaryOperator",
    "BinaryOperator",
    "AddInst",
    "SubInst",
    "MulInst",
    "UDivInst",
    "SDivInst",
    "URemInst",
    "SRemInst",
    "ShlInst",
    "LShrInst",
    "AShrInst",
    "AndInst",
    "OrInst",
    "XorInst",
    "FAddInst",
    "FSubInst",
    "FMulInst",
    "FDivInst",
    "FRemInst",
    "BINARY_OPCODE_CLASSES",
]
