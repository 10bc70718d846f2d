"""The constant folding LLVM 19 applies while it builds constant expressions.

What: LLVM's ``ConstantExpr::get*`` run the target-independent folder
(``ConstantFold.cpp``) before they create an expression, so the parser's
``add (i64 1, i64 2)`` is ``i64 3`` and ``getelementptr (i8, ptr @g, i64 0)``
is ``@g``. These functions return the folded constant, or None when LLVM
would keep the expression; each rule was checked against ``opt-19 -S``:

* casts: of poison (poison), of undef (undef), of a null value (null of the
  destination, except ``addrspacecast``), ``trunc`` of an integer, a
  ``bitcast`` to the same type, integer/float ``bitcast`` of a scalar, and
  the cast pairs ``trunc(trunc)``, ``trunc(ptrtoint)``, ``bitcast(bitcast)``;
* binary ``add``/``sub``/``mul``/``xor``: identities (``x+0``, ``0+x``,
  ``x-0``, ``x*1``, ``x^0``), poison and undef propagation, ``x*0``, integer
  arithmetic (element-wise on constant vectors), and a constant left
  operand of a commutative operator moved to the right;
* ``getelementptr``: of poison/undef, and with all-zero (or undef) indices;
* ``extractelement``/``insertelement``/``shufflevector`` of constant vectors.

Not done here: the folds that need a data layout (``ConstantFolding.cpp``)
and those on expressions LLVM 19 no longer has.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.types import FloatingPointType, IntegerType, Type, TypeID, VectorType
from llvmpy_mid.ir import fp_bits


def fold_cast(opcode: str, value: Constant, dest: Type) -> Constant | None:
    if isinstance(value, PoisonValue):
        return PoisonValue.get(dest)
    if isinstance(value, UndefValue):
        return UndefValue.get(dest)
    if opcode != "addrspacecast" and value.is_null_value and dest.type_id not in (TypeID.X86_MMX, TypeID.X86_AMX):
        try:
            return Constant.get_null_value(dest)
        except IRError:
            return None
    if isinstance(value, ConstantExpr) and value.is_cast:
        inner = value.opcode
        src = value.get_operand(0)
        assert isinstance(src, Constant)
        if opcode == "trunc" and inner == "trunc":
            return ConstantExpr.get_cast("trunc", src, dest)
        if opcode == "trunc" and inner == "ptrtoint" and not isinstance(dest, VectorType):
            return ConstantExpr.get_cast("ptrtoint", src, dest)
        if (
            opcode == "inttoptr"
            and inner == "ptrtoint"
            and src.type is dest
            and value.type.scalar_type.type_id is TypeID.INTEGER
            and value.type.scalar_type.width == 64  # type: ignore[attr-defined]
        ):
            # LLVM treats a 64-bit integer as wide enough for any pointer here.
            return src
        if opcode == "bitcast" and inner == "bitcast":
            if src.type is dest:
                return src
            return ConstantExpr.get_cast("bitcast", src, dest)
    src_ty = value.type
    if (
        isinstance(value, (ConstantVector, ConstantDataVector))
        and isinstance(dest, VectorType)
        and isinstance(src_ty, VectorType)
        and dest.count == src_ty.count
        and not dest.scalable
    ):
        # Lane by lane (a splat through its one lane); a lane that does not fold stays a cast.
        splat = value.splat_value
        lanes = [splat] if splat is not None else [value.get_aggregate_element(i) for i in range(src_ty.count)]
        out: list[Constant] = []
        for lane in lanes:
            assert lane is not None
            folded = fold_cast(opcode, lane, dest.element_type)
            out.append(folded if folded is not None else ConstantExpr.get_cast(opcode, lane, dest.element_type))
        if splat is not None:
            return ConstantVector.get_splat(dest, out[0])
        return ConstantVector.get(out)
    if opcode == "trunc":
        if isinstance(value, ConstantInt) and isinstance(dest, IntegerType):
            return ConstantInt.get(dest, value.value)
        return None
    if opcode == "bitcast":
        return _fold_bitcast(value, dest)
    return None


def _is_all_ones(c: Constant) -> bool:
    """LLVM's ``Constant::isAllOnesValue`` (a vector: its splat lane)."""
    if isinstance(c, (ConstantVector, ConstantDataVector)):
        splat = c.splat_value
        return splat is not None and splat.is_all_ones_value
    if isinstance(c, ConstantExpr):
        lane = _expr_splat_lane(c)
        return lane is not None and lane.is_all_ones_value
    return c.is_all_ones_value


def _expr_splat_lane(c: ConstantExpr) -> Constant | None:
    """The lane of ``shufflevector (insertelement (undef, X, 0), undef, zeroinitializer)`` (the
    splat form of a scalable vector, as LLVM's ``getSplatValue`` sees it), else None."""
    if c.opcode != "shufflevector" or not isinstance(c.get_operand(1), UndefValue) or any(c.shuffle_mask):
        return None
    first = c.get_operand(0)
    if not isinstance(first, ConstantExpr) or first.opcode != "insertelement":
        return None
    index = first.get_operand(2)
    if not isinstance(first.get_operand(0), UndefValue) or not isinstance(index, ConstantInt) or index.value:
        return None
    lane = first.get_operand(1)
    return lane if isinstance(lane, Constant) else None


def _fold_bitcast(value: Constant, dest: Type) -> Constant | None:
    """LLVM's ``FoldBitCast``: to a vector only all-ones folds (a scalar source becomes a one-lane
    vector first); integer <-> floating-point scalars fold; anything else stays a cast."""
    if value.type is dest:
        return value
    if isinstance(dest, VectorType):
        if _is_all_ones(value):
            return Constant.get_all_ones_value(dest)
        if isinstance(value, (ConstantInt, ConstantFP)):
            one = ConstantVector.get([value])
            return fold_cast("bitcast", one, dest) or ConstantExpr.get_cast("bitcast", one, dest)
        return None
    if isinstance(value, ConstantInt):
        if isinstance(dest, FloatingPointType) and dest.type_id != TypeID.PPC_FP128:
            return ConstantFP.from_bits(dest, value.value)
        return None
    if isinstance(value, ConstantFP):
        if value.type.type_id == TypeID.PPC_FP128 or not isinstance(dest, IntegerType):
            return None
        return ConstantInt.get(dest, value.bits)
    return None


def _vector_ints(c: Constant) -> list[ConstantInt] | None:
    """The lanes of a fixed constant vector of integers, if all are known integers."""
    ty = c.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return None
    out: list[ConstantInt] = []
    for i in range(ty.count):
        e = c.get_aggregate_element(i)
        if not isinstance(e, ConstantInt):
            return None
        out.append(e)
    return out


def _int_op(opcode: str, a: int, b: int, mask: int) -> int:
    if opcode == "add":
        return (a + b) & mask
    if opcode == "sub":
        return (a - b) & mask
    if opcode == "mul":
        return (a * b) & mask
    return a ^ b


def fold_binary(opcode: str, lhs: Constant, rhs: Constant) -> Constant | None:
    ty = lhs.type
    commutative = opcode != "sub"
    # Identities first: they return the other operand, even undef or poison.
    if opcode == "mul":
        if _is_int_value(rhs, 1):
            return lhs
        if _is_int_value(lhs, 1):
            return rhs
    else:
        if rhs.is_null_value:
            return lhs
        if commutative and lhs.is_null_value:
            return rhs
    if isinstance(lhs, PoisonValue) or isinstance(rhs, PoisonValue):
        return PoisonValue.get(ty)
    if isinstance(lhs, UndefValue) or isinstance(rhs, UndefValue):
        if opcode == "xor" and isinstance(lhs, UndefValue) and isinstance(rhs, UndefValue):
            return Constant.get_null_value(ty)
        if opcode == "mul":
            if isinstance(lhs, UndefValue) and isinstance(rhs, UndefValue):
                return lhs
            for c in (lhs, rhs):
                if isinstance(c, ConstantInt) and c.value & 1:
                    return UndefValue.get(ty)
            return Constant.get_null_value(ty)
        return UndefValue.get(ty)
    if isinstance(rhs, ConstantInt):
        if opcode == "mul" and rhs.value == 0:
            return rhs
        if isinstance(lhs, ConstantInt):
            return ConstantInt.get(ty, _int_op(opcode, lhs.value, rhs.value, lhs.type.mask))
    elif isinstance(lhs, ConstantInt):
        if commutative:
            folded = fold_binary(opcode, rhs, lhs)
            if folded is not None:
                return folded
            return ConstantExpr.get_binary(opcode, rhs, lhs)
    if isinstance(lhs, ConstantExpr) and lhs.opcode == opcode and opcode != "sub":
        # ((a op b) op c) is (a op (b op c)) when (b op c) folds to anything but an op of the
        # same kind (LLVM's ConstantFoldBinaryInstruction; all four are associative).
        inner_rhs = lhs.get_operand(1)
        assert isinstance(inner_rhs, Constant)
        t = fold_binary(opcode, inner_rhs, rhs)
        if t is None:
            t = ConstantExpr.get_binary(opcode, inner_rhs, rhs)
        if not (isinstance(t, ConstantExpr) and t.opcode == opcode):
            head = lhs.get_operand(0)
            assert isinstance(head, Constant)
            folded = fold_binary(opcode, head, t)
            return folded if folded is not None else ConstantExpr.get_binary(opcode, head, t)
    if isinstance(ty, VectorType):
        a = _vector_ints(lhs)
        b = _vector_ints(rhs)
        if a is not None and b is not None:
            mask = (1 << a[0].type.width) - 1 if a else 0
            lanes: list[Constant] = [
                ConstantInt.get(x.type, _int_op(opcode, x.value, y.value, mask)) for x, y in zip(a, b)
            ]
            return ConstantVector.get(lanes)
    return None


def _is_int_value(c: Constant, value: int) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == value
    ints = _vector_ints(c) if isinstance(c, (ConstantDataVector, ConstantVector)) else None
    if ints:
        return all(i.value == value for i in ints)
    return False


def fold_gep(
    result_type: Type, pointer: Constant, indices: Sequence[Constant], has_inrange: bool
) -> Constant | None:
    if not indices:
        return pointer
    if isinstance(pointer, PoisonValue):
        return PoisonValue.get(result_type)
    if isinstance(pointer, UndefValue):
        return UndefValue.get(result_type)
    if has_inrange:
        return None
    for idx in indices:
        if not (idx.is_null_value or isinstance(idx, UndefValue)):
            return None
    if isinstance(result_type, VectorType) and not isinstance(pointer.type, VectorType):
        return ConstantVector.get_splat(result_type, pointer)
    return pointer


def fold_extract_element(vector: Constant, index: Constant) -> Constant | None:
    vty = vector.type
    assert isinstance(vty, VectorType)
    if isinstance(vector, PoisonValue) or isinstance(index, UndefValue):
        return PoisonValue.get(vty.element_type)
    if not isinstance(index, ConstantInt):
        return None
    if not vty.scalable and index.value >= vty.count:
        return PoisonValue.get(vty.element_type)
    if vty.scalable:
        return None
    return vector.get_aggregate_element(index.value)


def fold_insert_element(vector: Constant, element: Constant, index: Constant) -> Constant | None:
    vty = vector.type
    assert isinstance(vty, VectorType)
    if isinstance(index, UndefValue):
        return PoisonValue.get(vty)
    if not isinstance(index, ConstantInt) or vty.scalable:
        return None
    if index.value >= vty.count:
        return PoisonValue.get(vty)
    lanes: list[Constant] = []
    for i in range(vty.count):
        if i == index.value:
            lanes.append(element)
            continue
        e = vector.get_aggregate_element(i)
        if e is None:
            return None
        lanes.append(e)
    return ConstantVector.get(lanes)


def fold_shuffle(v1: Constant, v2: Constant, mask: Sequence[int], result: VectorType) -> Constant | None:
    if all(m == -1 for m in mask):
        return PoisonValue.get(result)
    vty = v1.type
    assert isinstance(vty, VectorType)
    if vty.scalable or result.scalable:
        if all(m == 0 for m in mask):
            first = v1.get_aggregate_element(0) if not isinstance(v1, ConstantExpr) else None
            if first is not None and (first.is_null_value or isinstance(first, UndefValue)):
                try:
                    return ConstantVector.get_splat(result, first)
                except IRError:
                    return None
        return None
    n = vty.count
    lanes: list[Constant] = []
    for m in mask:
        if m == -1:
            lanes.append(PoisonValue.get(vty.element_type))
            continue
        src = v1 if m < n else v2
        e = src.get_aggregate_element(m % n)
        if e is None:
            return None
        lanes.append(e)
    return ConstantVector.get(lanes)
