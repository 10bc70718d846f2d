"""Verifier rules for the value-computing instructions (LLVM 19 ``Verifier::visit*``).

What is checked here, each with LLVM 19's message and the values it prints:

- ``fneg`` and the eighteen binary operators: operand types agree, the
  result has the operands' type, and the opcode's family (integer
  arithmetic, floating-point arithmetic, logic, shifts) fits that type;
- ``icmp`` / ``fcmp``: operand types agree and fit the comparison, the
  predicate belongs to it;
- the thirteen casts: the source and destination kinds, the widths
  (strictly narrowing or widening), vector shapes, address spaces;
- ``select``, ``extractelement``, ``insertelement``, ``shufflevector``,
  ``extractvalue`` and ``insertvalue``: the operand checks LLVM's
  ``isValidOperands`` / ``areInvalidOperands`` / ``getIndexedType`` make.

LLVM's classes keep a result type consistent with the operands when they are
built; ours can be broken afterwards through ``set_operand``. Where that is
possible and LLVM's visitor would not notice (the result type of
extractelement, insertelement, shufflevector and insertvalue), the same
message as the operand check is reported. The text parser can never produce
such IR, so this never disagrees with opt-19 on a file.

What is not here: LLVM 19 has no verifier check of its own for ``freeze``
and ``va_arg`` (only the generic instruction rules apply, in
``instruction_rules``), nor for the optional flags (``nuw``, ``nsw``,
``exact``, ``disjoint``, ``nneg``), which the instruction classes refuse
where they do not belong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.instructions.casts import cast_is_valid
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.instructions.vector import POISON_MASK_ELEM, get_aggregate_indexed_type
from llvmpy_mid.ir.types import FloatingPointType, IntegerType, PointerType, Type, TypeID, VectorType
from llvmpy_mid.ir.verifier.rule import RuleTable

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
    from llvmpy_mid.ir.instructions.casts import CastInst
    from llvmpy_mid.ir.instructions.cmp import CmpInst
    from llvmpy_mid.ir.instructions.vector import (
        ExtractElementInst,
        ExtractValueInst,
        InsertElementInst,
        InsertValueInst,
        ShuffleVectorInst,
    )
    from llvmpy_mid.ir.verifier.checker import Checker

_INTEGER = TypeID.INTEGER
_POINTER = TypeID.POINTER

# --- unary and binary operators --------------------------------------------------------------


def verify_unary_operator(c: Checker, inst: UnaryOperator) -> None:
    """``fneg``: the result has the operand's type, a floating-point (vector) type."""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    ty = inst.type
    if uses[0].value.type is not ty:
        # LLVM's message lacks the space between "for" and "operands".
        c.fail("Unary operators must have same type foroperands and result!", inst)
        return
    if not ty.is_fp_or_fp_vector:
        c.fail("FNeg operator only works with float types!", inst)


# opcode -> (message when the type is wrong, message when the result type differs)
_INT_ARITH = (
    "Integer arithmetic operators only work with integral types!",
    "Integer arithmetic operators must have same type for operands and result!",
)
_FP_ARITH = (
    "Floating-point arithmetic operators only work with floating-point types!",
    "Floating-point arithmetic operators must have same type for operands and result!",
)
_LOGIC = (
    "Logical operators only work with integral types!",
    "Logical operators must have same type for operands and result!",
)
_SHIFT = (
    "Shifts only work with integral types!",
    "Shift return type must be same as operands!",
)
_BINARY_FAMILY: dict[str, tuple[str, str]] = {}
for _op in ("add", "sub", "mul", "sdiv", "udiv", "srem", "urem"):
    _BINARY_FAMILY[_op] = _INT_ARITH
for _op in ("fadd", "fsub", "fmul", "fdiv", "frem"):
    _BINARY_FAMILY[_op] = _FP_ARITH
for _op in ("and", "or", "xor"):
    _BINARY_FAMILY[_op] = _LOGIC
for _op in ("shl", "lshr", "ashr"):
    _BINARY_FAMILY[_op] = _SHIFT


def verify_binary_operator(c: Checker, inst: BinaryOperator) -> None:
    """Both operands have one type, which is the result's and suits the opcode."""
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    lhs_ty = uses[0].value.type
    if lhs_ty is not uses[1].value.type:
        c.fail("Both operands to a binary operator are not of the same type!", inst)
        return
    family = _BINARY_FAMILY.get(inst.opcode)
    if family is None:
        return
    ty = inst.type
    if family is _FP_ARITH:
        kind_ok = ty.is_fp_or_fp_vector
    else:
        kind_ok = ty.is_int_or_int_vector
    if not kind_ok:
        c.fail(family[0], inst)
        return
    if ty is not lhs_ty:
        c.fail(family[1], inst)


# --- comparisons ------------------------------------------------------------------------------


def verify_icmp(c: Checker, inst: CmpInst) -> None:
    """``icmp``: same-typed integer or pointer (vector) operands, an integer predicate."""
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    ty = uses[0].value.type
    if ty is not uses[1].value.type:
        c.fail("Both operands to ICmp instruction are not of the same type!", inst)
        return
    scalar = ty.scalar_type.type_id
    if scalar is not _INTEGER and scalar is not _POINTER:
        c.fail("Invalid operand types for ICmp instruction", inst)
        return
    pred = inst.predicate
    if not isinstance(pred, Predicate) or not pred.is_int_predicate:
        c.fail("Invalid predicate in ICmp instruction!", inst)


def verify_fcmp(c: Checker, inst: CmpInst) -> None:
    """``fcmp``: same-typed floating-point (vector) operands, a floating-point predicate."""
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    ty = uses[0].value.type
    if ty is not uses[1].value.type:
        c.fail("Both operands to FCmp instruction are not of the same type!", inst)
        return
    if not ty.is_fp_or_fp_vector:
        c.fail("Invalid operand types for FCmp instruction", inst)
        return
    pred = inst.predicate
    if not isinstance(pred, Predicate) or not pred.is_fp_predicate:
        c.fail("Invalid predicate in FCmp instruction!", inst)


# --- select -----------------------------------------------------------------------------------


def verify_select(c: Checker, inst: Instruction) -> None:
    """The condition and values fit together (LLVM ``areInvalidOperands``), and
    the values have the select's type."""
    uses = inst.operand_uses
    if len(uses) != 3:
        return
    cond = uses[0].value
    true_value = uses[1].value
    if SelectInst.invalid_operands_reason(cond, true_value, uses[2].value):
        c.fail("Invalid operands for select instruction!", inst)
        return
    if true_value.type is not inst.type:
        c.fail("Select values must have same type as select instruction!", inst)


# --- vector elements ----------------------------------------------------------------------------


def verify_extractelement(c: Checker, inst: ExtractElementInst) -> None:
    """A vector and an integer index; the result is the vector's element type."""
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    vty = uses[0].value.type
    if (
        not isinstance(vty, VectorType)
        or uses[1].value.type.type_id is not _INTEGER
        or inst.type is not vty.element_type
    ):
        c.fail("Invalid extractelement operands!", inst)


def verify_insertelement(c: Checker, inst: InsertElementInst) -> None:
    """A vector, an element of its element type, an integer index; the result is the vector's type."""
    uses = inst.operand_uses
    if len(uses) != 3:
        return
    vty = uses[0].value.type
    if (
        not isinstance(vty, VectorType)
        or uses[1].value.type is not vty.element_type
        or uses[2].value.type.type_id is not _INTEGER
        or inst.type is not vty
    ):
        c.fail("Invalid insertelement operands!", inst)


def _shuffle_is_valid(v1_ty: Type, v2_ty: Type, mask: tuple[int, ...], result: Type) -> bool:
    """LLVM ``ShuffleVectorInst::isValidOperands`` with a mask, plus the result type."""
    if not isinstance(v1_ty, VectorType) or v2_ty is not v1_ty:
        return False
    limit = 2 * v1_ty.count
    for m in mask:
        if m != POISON_MASK_ELEM and m >= limit:
            return False
    if v1_ty.scalable:
        if not mask:
            return False
        first = mask[0]
        if first != 0 and first != POISON_MASK_ELEM:
            return False
        for m in mask:
            if m != first:
                return False
    return (
        isinstance(result, VectorType)
        and result.element_type is v1_ty.element_type
        and result.count == len(mask)
        and result.scalable == v1_ty.scalable
    )


def verify_shufflevector(c: Checker, inst: ShuffleVectorInst) -> None:
    """Two vectors of one type and a mask that picks lanes of them."""
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    if not _shuffle_is_valid(uses[0].value.type, uses[1].value.type, tuple(inst.mask), inst.type):
        c.fail("Invalid shufflevector operands!", inst)


# --- aggregates ---------------------------------------------------------------------------------


def verify_extractvalue(c: Checker, inst: ExtractValueInst) -> None:
    """The indices lead into the aggregate to a field of the result's type."""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    if get_aggregate_indexed_type(uses[0].value.type, inst.indices) is not inst.type:
        c.fail("Invalid ExtractValueInst operands!", inst)


def verify_insertvalue(c: Checker, inst: InsertValueInst) -> None:
    """The indices lead into the aggregate to a field of the inserted value's type."""
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    agg_ty = uses[0].value.type
    if get_aggregate_indexed_type(agg_ty, inst.indices) is not uses[1].value.type or inst.type is not agg_ty:
        c.fail("Invalid InsertValueInst operands!", inst)


# --- casts --------------------------------------------------------------------------------------


def _scalar_bits(ty: Type) -> int:
    """LLVM ``getScalarSizeInBits``: the element width of an integer or
    floating-point (vector) type, 0 for anything else (pointers included)."""
    scalar = ty.scalar_type
    if isinstance(scalar, IntegerType):
        return scalar.width
    if isinstance(scalar, FloatingPointType):
        return scalar.bits
    return 0


def _element_count(ty: Type) -> tuple[int, bool] | None:
    """(count, scalable) of a vector type, None for anything else."""
    if isinstance(ty, VectorType):
        return ty.count, ty.scalable
    return None


def _address_space(ty: Type) -> int:
    """The address space of a pointer or vector of pointers (-1 if neither)."""
    scalar = ty.scalar_type
    return scalar.address_space if isinstance(scalar, PointerType) else -1


# trunc/zext/sext/fptrunc/fpext: (integral: True for integer (vector) operands, False for
# floating-point ones; the messages for a bad source, a bad result, a vector/scalar
# mismatch and a wrong width; True when the result must be narrower).
_RESIZE: dict[str, tuple[bool, str, str, str, str, bool]] = {
    "trunc": (
        True,
        "Trunc only operates on integer",
        "Trunc only produces integer",
        "trunc source and destination must both be a vector or neither",
        "DestTy too big for Trunc",
        True,
    ),
    "zext": (
        True,
        "ZExt only operates on integer",
        "ZExt only produces an integer",
        "zext source and destination must both be a vector or neither",
        "Type too small for ZExt",
        False,
    ),
    "sext": (
        True,
        "SExt only operates on integer",
        "SExt only produces an integer",
        "sext source and destination must both be a vector or neither",
        "Type too small for SExt",
        False,
    ),
    "fptrunc": (
        False,
        "FPTrunc only operates on FP",
        "FPTrunc only produces an FP",
        "fptrunc source and destination must both be a vector or neither",
        "DestTy too big for FPTrunc",
        True,
    ),
    "fpext": (
        False,
        "FPExt only operates on FP",
        "FPExt only produces an FP",
        "fpext source and destination must both be a vector or neither",
        "DestTy too small for FPExt",
        False,
    ),
}


def verify_resize_cast(c: Checker, inst: CastInst) -> None:
    """trunc, zext, sext, fptrunc, fpext: integer (or floating-point) on both
    sides, both vectors or neither, and the width strictly changes the right way.
    (As in LLVM 19, the element counts of two vectors are not compared.)"""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    spec = _RESIZE.get(inst.opcode)
    if spec is None:
        return
    integral, bad_src, bad_dst, bad_shape, bad_width, narrows = spec
    src = uses[0].value.type
    dst = inst.type
    if integral and isinstance(src, IntegerType) and isinstance(dst, IntegerType):
        # The common case: two scalar integers, only the widths to compare.
        if not (src.width > dst.width if narrows else src.width < dst.width):
            c.fail(bad_width, inst)
        return
    if integral:
        src_ok = src.is_int_or_int_vector
        dst_ok = dst.is_int_or_int_vector
    else:
        src_ok = src.is_fp_or_fp_vector
        dst_ok = dst.is_fp_or_fp_vector
    if not src_ok:
        c.fail(bad_src, inst)
        return
    if not dst_ok:
        c.fail(bad_dst, inst)
        return
    if src.is_vector != dst.is_vector:
        c.fail(bad_shape, inst)
        return
    src_bits = _scalar_bits(src)
    dst_bits = _scalar_bits(dst)
    if not (src_bits > dst_bits if narrows else src_bits < dst_bits):
        c.fail(bad_width, inst)


# fptoui/fptosi/uitofp/sitofp: (source is integral, LLVM's name for the message prefix)
_FP_INT: dict[str, tuple[bool, str]] = {
    "fptoui": (False, "FPToUI"),
    "fptosi": (False, "FPToSI"),
    "uitofp": (True, "UIToFP"),
    "sitofp": (True, "SIToFP"),
}


def verify_fp_int_cast(c: Checker, inst: CastInst) -> None:
    """fptoui, fptosi, uitofp, sitofp: both vectors or neither, the right kinds,
    and vectors of one element count."""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    spec = _FP_INT.get(inst.opcode)
    if spec is None:
        return
    from_int, name = spec
    src = uses[0].value.type
    dst = inst.type
    src_vec = src.is_vector
    dst_vec = dst.is_vector
    if src_vec != dst_vec:
        c.fail(name + " source and dest must both be vector or scalar", inst)
        return
    if from_int:
        if not src.is_int_or_int_vector:
            c.fail(name + " source must be integer or integer vector", inst)
            return
        if not dst.is_fp_or_fp_vector:
            c.fail(name + " result must be FP or FP vector", inst)
            return
    else:
        if not src.is_fp_or_fp_vector:
            c.fail(name + " source must be FP or FP vector", inst)
            return
        if not dst.is_int_or_int_vector:
            c.fail(name + " result must be integer or integer vector", inst)
            return
    if src_vec and _element_count(src) != _element_count(dst):
        c.fail(name + " source and dest vector length mismatch", inst)


def _verify_pointer_int_cast(c: Checker, inst: CastInst, to_int: bool, name: str, src_msg: str, dst_msg: str) -> None:
    """ptrtoint (``to_int``) or inttoptr: a pointer (vector) and an integer
    (vector) of the same shape, with LLVM's messages for the opcode."""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    src = uses[0].value.type
    dst = inst.type
    if not (src.is_ptr_or_ptr_vector if to_int else src.is_int_or_int_vector):
        c.fail(src_msg, inst)
        return
    if not (dst.is_int_or_int_vector if to_int else dst.is_ptr_or_ptr_vector):
        c.fail(dst_msg, inst)
        return
    if src.is_vector != dst.is_vector:
        c.fail(name + " type mismatch", inst)
        return
    if src.is_vector and _element_count(src) != _element_count(dst):
        c.fail(name + " Vector width mismatch", inst)


def verify_ptrtoint(c: Checker, inst: CastInst) -> None:
    """A pointer (vector) to an integer (vector) of the same shape."""
    _verify_pointer_int_cast(c, inst, True, "PtrToInt", "PtrToInt source must be pointer", "PtrToInt result must be integral")


def verify_inttoptr(c: Checker, inst: CastInst) -> None:
    """An integer (vector) to a pointer (vector) of the same shape."""
    _verify_pointer_int_cast(
        c, inst, False, "IntToPtr", "IntToPtr source must be an integral", "IntToPtr result must be a pointer"
    )


def verify_bitcast(c: Checker, inst: CastInst) -> None:
    """LLVM ``castIsValid(BitCast, ...)``: same size, pointers only to pointers
    of the same address space."""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    if not cast_is_valid("bitcast", uses[0].value.type, inst.type):
        c.fail("Invalid bitcast", inst)


def verify_addrspacecast(c: Checker, inst: CastInst) -> None:
    """A pointer (vector) to a pointer (vector) in another address space, keeping the length."""
    uses = inst.operand_uses
    if len(uses) != 1:
        return
    src = uses[0].value.type
    dst = inst.type
    if not src.is_ptr_or_ptr_vector:
        c.fail("AddrSpaceCast source must be a pointer", inst)
        return
    if not dst.is_ptr_or_ptr_vector:
        c.fail("AddrSpaceCast result must be a pointer", inst)
        return
    if _address_space(src) == _address_space(dst):
        c.fail("AddrSpaceCast must be between different address spaces", inst)
        return
    if src.is_vector and _element_count(src) != _element_count(dst):
        c.fail("AddrSpaceCast vector pointer number of elements mismatch", inst)


INSTRUCTION_RULES: RuleTable = {"fneg": verify_unary_operator}
for _op in _BINARY_FAMILY:
    INSTRUCTION_RULES[_op] = verify_binary_operator
INSTRUCTION_RULES.update(
    {
        "icmp": verify_icmp,
        "fcmp": verify_fcmp,
        "select": verify_select,
        "extractelement": verify_extractelement,
        "insertelement": verify_insertelement,
        "shufflevector": verify_shufflevector,
        "extractvalue": verify_extractvalue,
        "insertvalue": verify_insertvalue,
    }
)
for _op in _RESIZE:
    INSTRUCTION_RULES[_op] = verify_resize_cast
for _op in _FP_INT:
    INSTRUCTION_RULES[_op] = verify_fp_int_cast
INSTRUCTION_RULES["ptrtoint"] = verify_ptrtoint
INSTRUCTION_RULES["inttoptr"] = verify_inttoptr
INSTRUCTION_RULES["bitcast"] = verify_bitcast
INSTRUCTION_RULES["addrspacecast"] = verify_addrspacecast

__all__ = [
    "INSTRUCTION_RULES",
    "verify_addrspacecast",
    "verify_binary_operator",
    "verify_bitcast",
    "verify_extractelement",
    "verify_extractvalue",
    "verify_fcmp",
    "verify_fp_int_cast",
    "verify_icmp",
    "verify_insertelement",
    "verify_insertvalue",
    "verify_inttoptr",
    "verify_ptrtoint",
    "verify_resize_cast",
    "verify_select",
    "verify_shufflevector",
    "verify_unary_operator",
]
