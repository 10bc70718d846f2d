"""The constant folding the parser applies while it builds constant expressions.

LLVM's parser builds expressions through ``ConstantExpr::get*``, which run the
target-independent folder (``IR/ConstantFold.cpp``) first, so ``add (i64 1,
i64 2)`` reads as ``i64 3`` and ``getelementptr (i8, ptr @g, i64 0)`` as
``@g``. The folds live in :mod:`llvmpy_mid.ir.constant_fold`; these are the
parser's entry points onto them (None: keep the expression).
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.ir import constant_fold as cf
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.types import Type, VectorType


def fold_cast(opcode: str, value: Constant, dest: Type) -> Constant | None:
    return cf.constant_fold_cast_instruction(opcode, value, dest)


def fold_binary(opcode: str, lhs: Constant, rhs: Constant) -> Constant | None:
    return cf.constant_fold_binary_instruction(opcode, lhs, rhs)


def fold_gep(
    result_type: Type, pointer: Constant, indices: Sequence[Constant], has_inrange: bool
) -> Constant | None:
    """``result_type`` is the expression's type (a vector of pointers for a vector GEP)."""
    folded = cf.constant_fold_get_element_ptr(None, pointer, (0, 0) if has_inrange else None, indices)
    if folded is not None and isinstance(result_type, VectorType) and folded.type is not result_type:
        return None
    return folded


def fold_extract_element(vector: Constant, index: Constant) -> Constant | None:
    return cf.constant_fold_extract_element(vector, index)


def fold_insert_element(vector: Constant, element: Constant, index: Constant) -> Constant | None:
    return cf.constant_fold_insert_element(vector, element, index)


def fold_shuffle(v1: Constant, v2: Constant, mask: Sequence[int], result: VectorType) -> Constant | None:
    return cf.constant_fold_shuffle_vector(v1, v2, mask)
