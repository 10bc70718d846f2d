"""AggressiveInstCombine: ``foldConsecutiveLoads`` and ``foldPatternedLoads`` (LLVM
``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``).

Patterned loads: a load from a constant global at an offset only known modulo the
GEPs' common stride folds to the constant every such offset reads.
Not done yet: ``foldConsecutiveLoads`` (merging or-of-shifted loads; it needs the
target's fast-unaligned-access answer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantInt

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def fold_consecutive_loads(i: Instruction, ctx: FoldContext) -> bool:
    """LLVM ``foldConsecutiveLoads``: not yet implemented."""
    return False


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _collect_offset(gep: Value, dl: DataLayout, bw: int) -> tuple[dict[Value, int], int] | None:
    """LLVM ``GEPOperator::collectOffset``: the variable indices' scales and the constant offset."""
    from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
    from llvmpy_mid.ir.types import StructType, VectorType

    mask = (1 << bw) - 1
    ty = gep.source_element_type  # type: ignore[attr-defined]
    var: dict[Value, int] = {}
    const = 0
    first = True
    for idx in gep.operands[1:]:  # type: ignore[attr-defined]
        if first:
            cur = ty
            first = False
        elif isinstance(ty, StructType):
            assert isinstance(idx, ConstantInt)
            const += dl.struct_layout(ty).element_offset(int(idx.value))
            ty = ty.elements[int(idx.value)]
            continue
        else:
            ty = ty.element_type
            cur = ty
        if isinstance(cur, VectorType) and cur.scalable:
            return None
        size = dl.type_alloc_size(cur)
        if isinstance(idx, ConstantInt):
            w = scalar_size_in_bits(idx.type)
            v = int(idx.value)
            if v >> (w - 1) & 1:
                v -= 1 << w
            const += v * size
            continue
        var[idx] = (var.get(idx, 0) + size) & mask
    return var, const


def _stride_and_mod_offset(ptr: Value, dl: DataLayout) -> tuple[int, int]:
    """LLVM ``getStrideAndModOffsetOfGEP``."""
    from llvmpy_mid.ir.global_value import GlobalVariable

    bw = dl.index_type_size_in_bits(ptr.type)
    mask = (1 << bw) - 1
    stride: int | None = None
    mod_offset = 0
    while getattr(ptr, "opcode", "") == "getelementptr":
        got = _collect_offset(ptr, dl, bw)
        if got is None:
            break
        var, const = got
        mod_offset += const
        for scale in var.values():
            if not getattr(ptr, "inbounds", False):
                scale = (scale & -scale) & mask if scale else 0
            stride = scale if stride is None else _gcd(stride, scale)
        ptr = ptr.operands[0]  # type: ignore[attr-defined]
    if not isinstance(ptr, GlobalVariable) or not stride:
        return 1, 0
    mod_offset &= mask
    if mod_offset >> (bw - 1) & 1:
        mod_offset -= 1 << bw
    s = stride - (1 << bw) if stride >> (bw - 1) & 1 else stride
    r = abs(mod_offset) % abs(s)
    mod_offset = -r if mod_offset < 0 else r
    if mod_offset < 0:
        mod_offset += stride
    return stride, mod_offset


def fold_patterned_loads(i: Instruction, ctx: FoldContext) -> bool:
    """load (gep @C, var...) where every offset the strides allow reads the same value -> that value."""
    from llvmpy_mid.analysis.constant_folding_memory import constant_fold_load_from_const
    from llvmpy_mid.analysis.underlying_objects import get_underlying_object
    from llvmpy_mid.ir.global_value import GlobalVariable
    from llvmpy_mid.ir.instructions.memory import LoadInst

    if not isinstance(i, LoadInst) or i.is_volatile:
        return False
    ptr = i.pointer_operand
    gv = get_underlying_object(ptr)
    if not isinstance(gv, GlobalVariable) or not gv.is_constant_global or not gv.has_definitive_initializer:
        return False
    c = gv.initializer
    assert c is not None
    dl = ctx.dl
    gv_size = dl.type_alloc_size(c.type)
    if not gv_size or gv_size > 4096:
        return False
    load_ty = i.type
    stride, offset = _stride_and_mod_offset(ptr, dl)
    la = i.alignment or dl.abi_alignment(load_ty)
    if la <= (gv.alignment or 1) and stride < la:
        offset = 0
        stride = la
    ca = constant_fold_load_from_const(c, load_ty, dl, offset)
    if ca is None:
        return False
    end = gv_size - dl.type_store_size(load_ty)
    while offset <= end:
        if constant_fold_load_from_const(c, load_ty, dl, offset) is not ca:
            return False
        offset += stride
    i.replace_all_uses_with(ca)
    return True


__all__ = ["fold_consecutive_loads", "fold_patterned_loads"]
