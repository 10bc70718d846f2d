"""``TargetFolder``: IRBuilder folding with the DataLayout (LLVM
``include/llvm/Analysis/TargetFolder.h``).

As :class:`~llvmpy_mid.ir.folders.ConstantFolder`, but every constant it
makes is passed through ``constant_fold_constant(c, dl)`` and the opcodes that
are not constant expressions fold through the DataLayout-aware
``analysis/constant_folding.py`` entry points (so ``ptrtoint``/``inttoptr``
pairs, GEP offsets and loads from constant globals fold as opt-19's
InstCombine builder folds them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.ir.folders import DESIRABLE_BINOPS, DESIRABLE_CASTS, ConstantFolder

if TYPE_CHECKING:
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instructions.cmp import Predicate
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value


class TargetFolder(ConstantFolder):
    """Constant folding that knows the target's DataLayout."""

    __slots__ = ("dl",)

    def __init__(self, dl: DataLayout) -> None:
        self.dl = dl

    def _fold(self, v: Value | None) -> Value | None:
        if v is None or not v.is_constant:
            return v
        from llvmpy_mid.analysis.constant_folding import constant_fold_constant

        return constant_fold_constant(v, self.dl)  # type: ignore[arg-type]

    def fold_bin_op(self, opcode: str, lhs: Value, rhs: Value, nuw: bool = False, nsw: bool = False) -> Value | None:
        if not (lhs.is_constant and rhs.is_constant):
            return None
        if opcode in DESIRABLE_BINOPS:
            return self._fold(ConstantFolder.fold_bin_op(self, opcode, lhs, rhs, nuw, nsw))
        from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands

        lc: Constant = lhs  # type: ignore[assignment]
        rc: Constant = rhs  # type: ignore[assignment]
        return constant_fold_binary_op_operands(opcode, lc, rc, self.dl)

    def fold_binary_intrinsic(self, base: str, lhs: Value, rhs: Value, ty: Type) -> Value | None:
        """``FoldBinaryIntrinsic``: ``llvm.<base>(lhs, rhs)`` of two constants (LLVM
        ``ConstantFoldBinaryIntrinsic``), else None."""
        if not (lhs.is_constant and rhs.is_constant):
            return None
        from llvmpy_mid.analysis.constant_folding_calls import fold_intrinsic_call2

        return fold_intrinsic_call2(base, ty, [lhs, rhs])  # type: ignore[list-item]

    def fold_cmp(self, predicate: Predicate, lhs: Value, rhs: Value) -> Value | None:
        if not (lhs.is_constant and rhs.is_constant):
            return None
        from llvmpy_mid.analysis.constant_folding import constant_fold_compare_inst_operands

        return constant_fold_compare_inst_operands(predicate, lhs, rhs, self.dl)  # type: ignore[arg-type]

    def fold_cast(self, opcode: str, value: Value, dest_type: Type) -> Value | None:
        if not value.is_constant:
            return None
        if opcode in DESIRABLE_CASTS:
            return self._fold(ConstantFolder.fold_cast(self, opcode, value, dest_type))
        from llvmpy_mid.analysis.constant_folding import constant_fold_cast_operand

        return constant_fold_cast_operand(opcode, value, dest_type, self.dl)  # type: ignore[arg-type]

    def fold_gep(self, source_element_type: Type, pointer: Value, indices: Sequence[Value], flags: int) -> Value | None:
        return self._fold(ConstantFolder.fold_gep(self, source_element_type, pointer, indices, flags))

    def fold_extract_element(self, vector: Value, index: Value) -> Value | None:
        return self._fold(ConstantFolder.fold_extract_element(self, vector, index))

    def fold_insert_element(self, vector: Value, element: Value, index: Value) -> Value | None:
        return self._fold(ConstantFolder.fold_insert_element(self, vector, element, index))

    def fold_shuffle_vector(self, v1: Value, v2: Value, mask: Sequence[int]) -> Value | None:
        return self._fold(ConstantFolder.fold_shuffle_vector(self, v1, v2, mask))


__all__ = ["TargetFolder"]
