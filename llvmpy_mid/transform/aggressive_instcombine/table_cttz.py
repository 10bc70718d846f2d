"""AggressiveInstCombine: a count-trailing-zeros lookup table (de Bruijn) becomes ``llvm.cttz``
(LLVM ``tryToRecognizeTableBasedCttz``, ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``).

    load (gep inbounds [N x T], @table, 0, zext?(((x & -x) * Mul) >> Shift))
      -> zext/trunc (cttz x)            (table[0] == width: defined at zero)
      -> zext/trunc (x == 0 ? table[0] : cttz x, true)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
from llvmpy_mid.ir.constants import ConstantDataArray, ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.types import ArrayType, IntegerType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def _binop(v: Value, opcode: str) -> Instruction | None:
    return v if isinstance(v, Instruction) and v.opcode == opcode else None


def _u64(v: Value) -> int | None:
    """``m_ConstantInt(uint64_t&)``: a scalar ConstantInt that fits in 64 bits."""
    if isinstance(v, ConstantInt) and v.value < (1 << 64):
        return int(v.value)
    return None


def _is_zero_int(v: Value) -> bool:
    return isinstance(v, ConstantInt) and v.value == 0


def _is_cttz_table(table: ConstantDataArray, mul: int, shift: int, input_bits: int) -> bool:
    """LLVM ``isCTTZTable``: each in-range entry i is the shift that the multiply maps to i."""
    elements = table.elements
    length = len(elements)
    if length < input_bits or length > input_bits * 2:
        return False
    mask = ((1 << input_bits) - 1) & ~((1 << shift) - 1)
    matched = 0
    for i, c in enumerate(elements):
        assert isinstance(c, ConstantInt)
        element = int(c.value)
        if element >= input_bits:
            continue
        if (((mul << element) & ((1 << 64) - 1) & mask) >> shift) == i:
            matched += 1
    return matched == input_bits


def try_to_recognize_table_based_cttz(i: Instruction, ctx: FoldContext) -> bool:
    """A de Bruijn cttz table lookup -> llvm.cttz."""
    if not isinstance(i, LoadInst):
        return False
    access_ty = i.type
    if not isinstance(access_ty, IntegerType):
        return False
    gep = i.pointer_operand
    if not isinstance(gep, GetElementPtrInst) or not gep.inbounds or gep.num_indices != 2:
        return False
    src_ty = gep.source_element_type
    if not isinstance(src_ty, ArrayType) or src_ty.count not in (32, 64):
        return False
    gv = gep.pointer_operand
    if not isinstance(gv, GlobalVariable) or not gv.has_initializer or not gv.is_constant_global:
        return False
    data = gv.initializer
    if not isinstance(data, ConstantDataArray):
        return False
    idx0, idx2 = gep.indices
    if not _is_zero_int(idx0):
        return False
    v = idx2
    z = _binop(v, "zext")
    if z is not None:
        v = z.operands[0]
    lshr = _binop(v, "lshr")
    if lshr is None:
        return False
    shift = _u64(lshr.operands[1])
    mul = _binop(lshr.operands[0], "mul")
    if shift is None or mul is None:
        return False
    mul_c = _u64(mul.operands[1])
    band = _binop(mul.operands[0], "and")
    if mul_c is None or band is None:
        return False
    x1: Value | None = None
    for lhs, rhs in ((band.operands[0], band.operands[1]), (band.operands[1], band.operands[0])):
        neg = _binop(lhs, "sub")
        if neg is not None and _is_zero_int(neg.operands[0]) and neg.operands[1] is rhs:
            x1 = rhs
            break
    if x1 is None:
        return False
    input_bits = scalar_size_in_bits(x1.type)
    if input_bits not in (32, 64):
        return False
    log2 = input_bits.bit_length() - 1
    if shift not in (input_bits - log2, input_bits - log2 - 1):
        return False
    if not _is_cttz_table(data, mul_c, shift, input_bits):
        return False
    zero_elem = data.elements[0]
    assert isinstance(zero_elem, ConstantInt)
    defined_for_zero = zero_elem.value == input_bits
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(i)
    b.debug_loc = i.debug_loc
    x_ty = x1.type
    i1 = x_ty.context.int_type(1)
    cttz = b.create_intrinsic("cttz", [x_ty], [x1, ConstantInt.get(i1, 0 if defined_for_zero else 1)])
    if defined_for_zero:
        res = b.create_zext_or_trunc(cttz, access_ty)
    else:
        cmp = b.create_icmp("eq", x1, ConstantInt.get(x_ty, 0))
        sel = b.create_select(cmp, ConstantInt.get(x_ty, zero_elem.value), cttz)
        res = b.create_zext_or_trunc(sel, access_ty)
    i.replace_all_uses_with(res)
    return True


__all__ = ["try_to_recognize_table_based_cttz"]
