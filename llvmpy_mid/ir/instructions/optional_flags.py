"""Bases of the instructions that keep optional flags in one word beside their operands.

:class:`OptionalFlagsInst` is the base of the binary operators and the casts.
Its ``_flags`` int has LLVM's bit meanings: ``nuw`` = 1 and ``nsw`` = 2 where
the opcode has wrap flags (``has_wrap_flags``: add, sub, mul, shl, trunc), and
otherwise a single flag in bit 1 (``exact``, ``disjoint``, ``nneg``) or the
fast-math bits. It provides ``flags_word``, ``nuw``, ``nsw``, the setter
rule of the single flags and the "has no ... flag" error, so each is written
once. The constructors (hot) test the class traits inline and compute the
word themselves; they only call here to build the error.

:class:`FastMathFlagsInst` is the base of ``fneg``, ``phi`` and ``select``,
whose whole optional word is the fast-math flags, allowed when the result type
is floating point (possibly inside arrays). The floating-point binary
operators, ``fcmp`` and ``call`` keep theirs in their own classes (their base
classes or legality rules differ).

This module defines no opcode and no constructor; the subclasses set the
flags word when they are built.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import FastMathFlags, type_supports_fast_math_flags

NUW = 1
"""The ``nuw`` bit of the flags word."""
NSW = 2
"""The ``nsw`` bit of the flags word."""
SOLE_FLAG = 1
"""The bit of an opcode's single flag (``exact``, ``disjoint``, ``nneg``)."""


class OptionalFlagsInst(Instruction):
    """An instruction with an optional-flags word (binary operators, casts)."""

    __slots__ = ("_flags",)

    _flags: int

    has_wrap_flags: ClassVar[bool] = False
    """nuw/nsw allowed (add, sub, mul, shl, trunc)."""

    def _missing_flag(self, what: str) -> IRError:
        """The error for setting ``what`` (``"nsw flag"``, ``"nuw/nsw flags"``)
        on an opcode that does not have it."""
        return IRError("%s has no %s" % (self.opcode, what))

    def _set_sole_flag(self, allowed: bool, keyword: str, value: bool) -> None:
        """Setter of a single flag: setting it replaces the word, clearing it
        empties the word; setting a flag the opcode lacks (not ``allowed``)
        raises IRError, clearing it does nothing."""
        if not allowed:
            if value:
                raise self._missing_flag(keyword + " flag")
            return
        self._flags = SOLE_FLAG if value else 0

    def _set_wrap_bit(self, bit: int, keyword: str, value: bool) -> None:
        if not self.has_wrap_flags:
            if value:
                raise self._missing_flag(keyword + " flag")
            return
        self._flags = (self._flags | bit) if value else (self._flags & ~bit)

    @property
    def flags_word(self) -> int:
        """The raw optional-flags word (LLVM's ``SubclassOptionalData`` meaning)."""
        return self._flags

    @property
    def nuw(self) -> bool:
        return self.has_wrap_flags and bool(self._flags & NUW)

    @nuw.setter
    def nuw(self, value: bool) -> None:
        self._set_wrap_bit(NUW, "nuw", value)

    @property
    def nsw(self) -> bool:
        return self.has_wrap_flags and bool(self._flags & NSW)

    @nsw.setter
    def nsw(self, value: bool) -> None:
        self._set_wrap_bit(NSW, "nsw", value)

    def _same_optional_data(self, other: Instruction) -> bool:
        return isinstance(other, OptionalFlagsInst) and self._flags == other._flags


class FastMathFlagsInst(Instruction):
    """An instruction whose optional word is its fast-math flags, allowed on a
    floating-point result (``fneg``, ``phi``, ``select``)."""

    __slots__ = ("_fmf",)

    _fmf: int

    @property
    def fast_math_flags(self) -> FastMathFlags:
        return FastMathFlags(self._fmf)

    @fast_math_flags.setter
    def fast_math_flags(self, flags: FastMathFlags | int) -> None:
        f = int(flags)
        if f and not type_supports_fast_math_flags(self.type):
            raise IRError("fast-math flags on a %s of non-floating-point type %s" % (self.opcode, self.type))
        self._fmf = f & 127

    def _same_optional_data(self, other: Instruction) -> bool:
        return isinstance(other, FastMathFlagsInst) and self._fmf == other._fmf


__all__ = ["OptionalFlagsInst", "FastMathFlagsInst", "NUW", "NSW", "SOLE_FLAG"]
