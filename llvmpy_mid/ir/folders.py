"""Folders for :class:`~llvmpy_mid.ir.builder.IRBuilder` (LLVM ``IR/ConstantFolder.h``,
``IR/NoFolder.h``, ``IR/IRBuilderFolder.h``).

A folder is asked, before the builder creates an instruction, whether the
result is already known; it answers with a value or None (then the builder
creates the instruction). :class:`ConstantFolder` folds when every operand
is a constant, exactly as LLVM's: the opcodes that may stay constant
expressions (add, sub, mul, xor; trunc, ptrtoint, inttoptr, bitcast,
addrspacecast; getelementptr; extractelement, insertelement, shufflevector)
go through the folding ``ConstantExpr.get_*`` factories (which create the
expression when nothing simpler is known); every other opcode goes through
``ir/constant_fold.py`` and gives None when it does not fold. :class:`NoFolder`
never folds. The DataLayout-aware ``TargetFolder`` lives in the analysis layer
(``llvmpy_mid.analysis.target_folder``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.cmp import Predicate
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

# Opcodes LLVM 19 keeps as constant expressions (``isDesirableBinOp`` / ``isDesirableCastOp``).
DESIRABLE_BINOPS = frozenset(("add", "sub", "mul", "xor"))
DESIRABLE_CASTS = frozenset(("trunc", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"))


def _all_constant(*values: Value) -> bool:
    for v in values:
        if not v.is_constant:
            return False
    return True


class IRBuilderFolder:
    """The folder interface (LLVM ``IRBuilderFolder``); this base never folds."""

    __slots__ = ()

    def fold_bin_op(self, opcode: str, lhs: Value, rhs: Value, nuw: bool = False, nsw: bool = False) -> Value | None:
        return None

    def fold_unary_op(self, opcode: str, value: Value) -> Value | None:
        return None

    def fold_cmp(self, predicate: Predicate, lhs: Value, rhs: Value) -> Value | None:
        return None

    def fold_select(self, condition: Value, true_value: Value, false_value: Value) -> Value | None:
        return None

    def fold_cast(self, opcode: str, value: Value, dest_type: Type) -> Value | None:
        return None

    def fold_gep(self, source_element_type: Type, pointer: Value, indices: Sequence[Value], flags: int) -> Value | None:
        """``flags`` are ConstantExpr GEP bits (inbounds=1, nusw=2, nuw=4)."""
        return None

    def fold_extract_element(self, vector: Value, index: Value) -> Value | None:
        return None

    def fold_insert_element(self, vector: Value, element: Value, index: Value) -> Value | None:
        return None

    def fold_shuffle_vector(self, v1: Value, v2: Value, mask: Sequence[int]) -> Value | None:
        return None

    def fold_extract_value(self, aggregate: Value, indices: Sequence[int]) -> Value | None:
        return None

    def fold_insert_value(self, aggregate: Value, value: Value, indices: Sequence[int]) -> Value | None:
        return None


class NoFolder(IRBuilderFolder):
    """Never folds: every request creates an instruction (LLVM ``NoFolder``)."""

    __slots__ = ()


class ConstantFolder(IRBuilderFolder):
    """Target-independent folding of all-constant operands (LLVM ``ConstantFolder``)."""

    __slots__ = ()

    def fold_bin_op(self, opcode: str, lhs: Value, rhs: Value, nuw: bool = False, nsw: bool = False) -> Value | None:
        if not (lhs.is_constant and rhs.is_constant):
            return None
        from llvmpy_mid.ir.constant_expr import ConstantExpr
        from llvmpy_mid.ir.constant_fold import constant_fold_binary_instruction

        lc: Constant = lhs  # type: ignore[assignment]
        rc: Constant = rhs  # type: ignore[assignment]
        if opcode in DESIRABLE_BINOPS:
            return ConstantExpr.get_binary(opcode, lc, rc, nuw, nsw)
        return constant_fold_binary_instruction(opcode, lc, rc)

    def fold_unary_op(self, opcode: str, value: Value) -> Value | None:
        if not value.is_constant:
            return None
        from llvmpy_mid.ir.constant_fold import constant_fold_unary_instruction

        return constant_fold_unary_instruction(opcode, value)  # type: ignore[arg-type]

    def fold_cmp(self, predicate: Predicate, lhs: Value, rhs: Value) -> Value | None:
        if not (lhs.is_constant and rhs.is_constant):
            return None
        from llvmpy_mid.ir.constant_fold import constant_fold_compare_instruction

        return constant_fold_compare_instruction(predicate, lhs, rhs)  # type: ignore[arg-type]

    def fold_select(self, condition: Value, true_value: Value, false_value: Value) -> Value | None:
        if not _all_constant(condition, true_value, false_value):
            return None
        from llvmpy_mid.ir.constant_fold import constant_fold_select_instruction

        return constant_fold_select_instruction(condition, true_value, false_value)  # type: ignore[arg-type]

    def fold_cast(self, opcode: str, value: Value, dest_type: Type) -> Value | None:
        if not value.is_constant:
            return None
        from llvmpy_mid.ir.constant_expr import ConstantExpr
        from llvmpy_mid.ir.constant_fold import constant_fold_cast_instruction

        c: Constant = value  # type: ignore[assignment]
        if opcode in DESIRABLE_CASTS:
            return ConstantExpr.get_cast(opcode, c, dest_type)
        return constant_fold_cast_instruction(opcode, c, dest_type)

    def fold_gep(self, source_element_type: Type, pointer: Value, indices: Sequence[Value], flags: int) -> Value | None:
        if not pointer.is_constant or not _all_constant(*indices):
            return None
        from llvmpy_mid.ir.constant_expr import ConstantExpr

        return ConstantExpr.get_gep(source_element_type, pointer, indices, flags=flags)  # type: ignore[arg-type]

    def fold_extract_element(self, vector: Value, index: Value) -> Value | None:
        if not (vector.is_constant and index.is_constant):
            return None
        from llvmpy_mid.ir.constant_expr import ConstantExpr

        return ConstantExpr.get_extract_element(vector, index)  # type: ignore[arg-type]

    def fold_insert_element(self, vector: Value, element: Value, index: Value) -> Value | None:
        if not _all_constant(vector, element, index):
            return None
        from llvmpy_mid.ir.constant_expr import ConstantExpr

        return ConstantExpr.get_insert_element(vector, element, index)  # type: ignore[arg-type]

    def fold_shuffle_vector(self, v1: Value, v2: Value, mask: Sequence[int]) -> Value | None:
        if not (v1.is_constant and v2.is_constant):
            return None
        from llvmpy_mid.ir.constant_expr import ConstantExpr

        return ConstantExpr.get_shuffle_vector(v1, v2, mask)  # type: ignore[arg-type]

    def fold_extract_value(self, aggregate: Value, indices: Sequence[int]) -> Value | None:
        if not aggregate.is_constant:
            return None
        from llvmpy_mid.ir.constant_fold import constant_fold_extract_value

        return constant_fold_extract_value(aggregate, indices)  # type: ignore[arg-type]

    def fold_insert_value(self, aggregate: Value, value: Value, indices: Sequence[int]) -> Value | None:
        if not (aggregate.is_constant and value.is_constant):
            return None
        from llvmpy_mid.ir.constant_fold import constant_fold_insert_value

        return constant_fold_insert_value(aggregate, value, indices)  # type: ignore[arg-type]


__all__ = ["IRBuilderFolder", "NoFolder", "ConstantFolder", "DESIRABLE_BINOPS", "DESIRABLE_CASTS"]
