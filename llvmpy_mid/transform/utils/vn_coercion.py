"""Reading a load's value out of an earlier store, load or memory intrinsic (LLVM
``VNCoercion``; ``lib/Transforms/Utils/VNCoercion.cpp``), for GVN's load elimination.

- :func:`can_coerce_must_aliased_value_to_load`: may a stored value of one type stand for
  a load of another type at the same address (no aggregates or scalable vectors, the
  store at least as wide, byte-sized, no mixing of non-integral pointers with integers
  except a null constant)?
- :func:`analyze_load_from_clobbering_store` / ``_load`` / ``_mem_inst``: the byte
  offset of the load inside the bytes an earlier access wrote (or read), or -1.
- :func:`get_value_for_load`, :func:`get_mem_inst_value_for_load`: the IR that extracts
  the load's value (ptrtoint/bitcast to an integer, a shift by the offset, which depends
  on the endianness, a truncation, then a bitcast or inttoptr), built with an
  ``IRBuilder`` at the insertion point with its debug location and LLVM's constant
  folder, unnamed, as LLVM builds it; a memset's byte is splatted with shl/or.
- :func:`get_constant_value_for_load`, :func:`get_constant_mem_inst_value_for_load`:
  the same for constants, through the DataLayout-aware constant folder.
"""

from __future__ import annotations

from llvmpy_mid.analysis.constant_folding import constant_fold_constant
from llvmpy_mid.analysis.constant_folding_memory import constant_fold_load_from_const, constant_fold_load_from_const_ptr
from llvmpy_mid.analysis.underlying_objects import get_pointer_base_with_constant_offset
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.types import PointerType, Type, VectorType
from llvmpy_mid.ir.value import Value

__all__ = [
    "analyze_load_from_clobbering_load",
    "analyze_load_from_clobbering_mem_inst",
    "analyze_load_from_clobbering_store",
    "can_coerce_must_aliased_value_to_load",
    "coerce_available_value_to_load_type",
    "get_constant_mem_inst_value_for_load",
    "get_constant_value_for_load",
    "get_mem_inst_value_for_load",
    "get_value_for_load",
    "is_mem_set",
    "is_mem_transfer",
]

_MEMSET = frozenset(("llvm.memset", "llvm.memset.inline"))
_MEMTRANSFER = frozenset(("llvm.memcpy", "llvm.memcpy.inline", "llvm.memmove"))


def is_mem_set(inst: Value) -> bool:
    """A ``MemSetInst``: a call of ``llvm.memset`` or ``llvm.memset.inline``."""
    return isinstance(inst, CallBase) and inst.intrinsic_base in _MEMSET


def is_mem_transfer(inst: Value) -> bool:
    """A ``MemTransferInst``: a call of ``llvm.memcpy``, ``llvm.memcpy.inline`` or ``llvm.memmove``."""
    return isinstance(inst, CallBase) and inst.intrinsic_base in _MEMTRANSFER


def _is_first_class_aggregate_or_scalable(ty: Type) -> bool:
    return ty.is_struct or ty.is_array or (isinstance(ty, VectorType) and ty.scalable)


def can_coerce_must_aliased_value_to_load(stored_val: Value, load_ty: Type, dl: DataLayout) -> bool:
    """May ``stored_val``, stored at the load's address, give the load of ``load_ty``
    (LLVM ``canCoerceMustAliasedValueToLoad``)?"""
    stored_ty = stored_val.type
    if stored_ty is load_ty:
        return True
    if _is_first_class_aggregate_or_scalable(load_ty) or _is_first_class_aggregate_or_scalable(stored_ty):
        return False
    store_size = dl.type_size_in_bits(stored_ty)
    if store_size % 8:
        return False
    load_size = dl.type_size_in_bits(load_ty)
    if store_size < load_size:
        return False
    stored_ni = dl.is_non_integral_pointer_type(stored_ty)
    load_ni = dl.is_non_integral_pointer_type(load_ty)
    if stored_ni != load_ni:
        if isinstance(stored_val, Constant):
            return stored_val.is_null_value
        return False
    if stored_ni and load_ni and _address_space(stored_ty) != _address_space(load_ty):
        return False
    if stored_ni and store_size != load_size:
        return False
    if stored_ty.is_target_ext or load_ty.is_target_ext:
        return False
    return True


def _address_space(ty: Type) -> int:
    scalar = ty.scalar_type
    assert isinstance(scalar, PointerType)
    return scalar.address_space


def coerce_available_value_to_load_type(stored_val: Value, loaded_ty: Type, builder: IRBuilder, dl: DataLayout) -> Value:
    """``stored_val`` reinterpreted as (the low bytes of) a value of ``loaded_ty``,
    with instructions made by ``builder`` (LLVM ``coerceAvailableValueToLoadType``)."""
    assert can_coerce_must_aliased_value_to_load(stored_val, loaded_ty, dl), "materialization cannot fail"
    if isinstance(stored_val, Constant):
        stored_val = constant_fold_constant(stored_val, dl)
    stored_ty = stored_val.type
    stored_size = dl.type_size_in_bits(stored_ty)
    loaded_size = dl.type_size_in_bits(loaded_ty)
    if stored_size == loaded_size:
        if stored_ty.is_ptr_or_ptr_vector and loaded_ty.is_ptr_or_ptr_vector:
            stored_val = builder.create_cast("bitcast", stored_val, loaded_ty)
        else:
            if stored_ty.is_ptr_or_ptr_vector:
                stored_ty = dl.int_ptr_type(stored_ty)
                stored_val = builder.create_cast("ptrtoint", stored_val, stored_ty)
            cast_to = loaded_ty
            if cast_to.is_ptr_or_ptr_vector:
                cast_to = dl.int_ptr_type(cast_to)
            if stored_ty is not cast_to:
                stored_val = builder.create_cast("bitcast", stored_val, cast_to)
            if loaded_ty.is_ptr_or_ptr_vector:
                stored_val = builder.create_cast("inttoptr", stored_val, loaded_ty)
        if isinstance(stored_val, ConstantExpr):
            stored_val = constant_fold_constant(stored_val, dl)
        return stored_val

    assert stored_size >= loaded_size, "canCoerceMustAliasedValueToLoad failed"
    ctx = stored_ty.context
    if stored_ty.is_ptr_or_ptr_vector:
        stored_ty = dl.int_ptr_type(stored_ty)
        stored_val = builder.create_cast("ptrtoint", stored_val, stored_ty)
    if not stored_ty.is_integer:
        stored_ty = ctx.int_type(stored_size)
        stored_val = builder.create_cast("bitcast", stored_val, stored_ty)
    if dl.is_big_endian:
        shift = dl.type_store_size_in_bits(stored_ty) - dl.type_store_size_in_bits(loaded_ty)
        stored_val = builder.create_lshr(stored_val, ConstantInt.get(stored_val.type, shift))
    new_int_ty = ctx.int_type(loaded_size)
    stored_val = builder.create_trunc_or_bitcast(stored_val, new_int_ty)
    if loaded_ty is not new_int_ty:
        if loaded_ty.is_ptr_or_ptr_vector:
            stored_val = builder.create_cast("inttoptr", stored_val, loaded_ty)
        else:
            stored_val = builder.create_cast("bitcast", stored_val, loaded_ty)
    if isinstance(stored_val, Constant):
        stored_val = constant_fold_constant(stored_val, dl)
    return stored_val


def _analyze_load_from_clobbering_write(load_ty: Type, load_ptr: Value, write_ptr: Value, write_size_in_bits: int, dl: DataLayout) -> int:
    """The byte offset of a load of ``load_ty`` from ``load_ptr`` inside the
    ``write_size_in_bits`` bits written at ``write_ptr`` (same base, constant offsets), or -1."""
    if _is_first_class_aggregate_or_scalable(load_ty):
        return -1
    store_base, store_offset = get_pointer_base_with_constant_offset(write_ptr, dl)
    load_base, load_offset = get_pointer_base_with_constant_offset(load_ptr, dl)
    if store_base is not load_base:
        return -1
    load_size = dl.type_size_in_bits(load_ty)
    if (write_size_in_bits & 7) | (load_size & 7):
        return -1
    store_size = write_size_in_bits // 8
    load_size //= 8
    if store_offset > load_offset or store_offset + store_size < load_offset + load_size:
        return -1
    return load_offset - store_offset


def analyze_load_from_clobbering_store(load_ty: Type, load_ptr: Value, dep_si: StoreInst, dl: DataLayout) -> int:
    """The offset of the load inside the bytes ``dep_si`` stores, or -1."""
    stored_val = dep_si.operands[0]
    if _is_first_class_aggregate_or_scalable(stored_val.type):
        return -1
    if not can_coerce_must_aliased_value_to_load(stored_val, load_ty, dl):
        return -1
    return _analyze_load_from_clobbering_write(load_ty, load_ptr, dep_si.operands[1], dl.type_size_in_bits(stored_val.type), dl)


def analyze_load_from_clobbering_load(load_ty: Type, load_ptr: Value, dep_li: LoadInst, dl: DataLayout) -> int:
    """The offset of the load inside the bytes the earlier load ``dep_li`` read, or -1."""
    if dep_li.type.is_struct or dep_li.type.is_array:
        return -1
    if not can_coerce_must_aliased_value_to_load(dep_li, load_ty, dl):
        return -1
    return _analyze_load_from_clobbering_write(load_ty, load_ptr, dep_li.operands[0], dl.type_size_in_bits(dep_li.type), dl)


def analyze_load_from_clobbering_mem_inst(load_ty: Type, load_ptr: Value, mi: Instruction, dl: DataLayout) -> int:
    """The offset of the load inside the bytes the memset writes, or inside the bytes a
    memcpy/memmove copies from a constant global whose value is foldable; else -1."""
    assert isinstance(mi, CallBase)
    size_cst = mi.operands[2]
    if not isinstance(size_cst, ConstantInt):
        return -1
    mem_size_in_bits = size_cst.zext_value * 8
    dest = mi.operands[0]
    if is_mem_set(mi):
        if dl.is_non_integral_pointer_type(load_ty):
            val = mi.operands[1]
            if not isinstance(val, ConstantInt) or not val.is_zero:
                return -1
        return _analyze_load_from_clobbering_write(load_ty, load_ptr, dest, mem_size_in_bits, dl)
    assert is_mem_transfer(mi)
    src = mi.operands[1]
    if not isinstance(src, Constant):
        return -1
    from llvmpy_mid.analysis.underlying_objects import get_underlying_object

    gv = get_underlying_object(src)
    if not isinstance(gv, GlobalVariable) or not gv.is_constant or not gv.has_definitive_initializer:
        return -1
    offset = _analyze_load_from_clobbering_write(load_ty, load_ptr, dest, mem_size_in_bits, dl)
    if offset == -1:
        return offset
    if constant_fold_load_from_const_ptr(src, load_ty, dl, _index_apint(dl, src, offset)) is not None:
        return offset
    return -1


def _index_apint(dl: DataLayout, ptr: Value, offset: int) -> int:
    """``APInt(IndexSize, Offset)`` read back as a signed offset."""
    bits = dl.index_type_size_in_bits(ptr.type)
    v = offset & ((1 << bits) - 1)
    return v - (1 << bits) if v >> (bits - 1) else v


def _builder_at(insert_pt: Instruction) -> IRBuilder:
    """``IRBuilder<> Builder(InsertPt)``: before ``insert_pt``, with its debug location,
    folding constants with the plain constant folder."""
    builder = IRBuilder(before=insert_pt, folder=ConstantFolder())
    builder.debug_loc = insert_pt.stable_debug_loc
    return builder




def _get_store_value_for_load_helper(src_val: Value, offset: int, load_ty: Type, builder: IRBuilder, dl: DataLayout) -> Value:
    src_ty = src_val.type
    if (
        isinstance(src_ty, PointerType)
        and isinstance(load_ty, PointerType)
        and src_ty.address_space == load_ty.address_space
    ):
        return src_val
    ctx = src_ty.context
    store_size = (dl.type_size_in_bits(src_ty) + 7) // 8
    load_size = (dl.type_size_in_bits(load_ty) + 7) // 8
    if src_ty.is_ptr_or_ptr_vector:
        src_val = builder.create_cast("ptrtoint", src_val, dl.int_ptr_type(src_ty))
    if not src_val.type.is_integer:
        src_val = builder.create_cast("bitcast", src_val, ctx.int_type(store_size * 8))
    if dl.is_little_endian:
        shift = offset * 8
    else:
        shift = (store_size - load_size - offset) * 8
    if shift:
        src_val = builder.create_lshr(src_val, ConstantInt.get(src_val.type, shift))
    if load_size != store_size:
        src_val = builder.create_trunc_or_bitcast(src_val, ctx.int_type(load_size * 8))
    return src_val


def get_value_for_load(src_val: Value, offset: int, load_ty: Type, insert_pt: Instruction, dl: DataLayout) -> Value:
    """The value of a load of ``load_ty`` at byte ``offset`` into the stored (or loaded)
    value ``src_val``, built before ``insert_pt`` (LLVM ``getValueForLoad``)."""
    assert offset + dl.type_store_size(load_ty) <= dl.type_store_size(src_val.type)
    builder = _builder_at(insert_pt)
    src_val = _get_store_value_for_load_helper(src_val, offset, load_ty, builder, dl)
    return coerce_available_value_to_load_type(src_val, load_ty, builder, dl)


def get_constant_value_for_load(src_val: Constant, offset: int, load_ty: Type, dl: DataLayout) -> Constant | None:
    """The constant a load of ``load_ty`` at byte ``offset`` into ``src_val`` reads."""
    assert offset + dl.type_store_size(load_ty) <= dl.type_store_size(src_val.type)
    return constant_fold_load_from_const(src_val, load_ty, dl, _signed32(offset))


def _signed32(offset: int) -> int:
    v = offset & 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def get_mem_inst_value_for_load(src_inst: Instruction, offset: int, load_ty: Type, insert_pt: Instruction, dl: DataLayout) -> Value | None:
    """The value a load of ``load_ty`` at byte ``offset`` reads from what the memset
    wrote (its byte splatted with shl/or), or from the constant global a memcpy/memmove
    copied (LLVM ``getMemInstValueForLoad``)."""
    assert isinstance(src_inst, CallBase)
    ctx = load_ty.context
    load_size = dl.type_size_in_bits(load_ty) // 8
    builder = _builder_at(insert_pt)
    if is_mem_set(src_inst):
        val = src_inst.operands[1]
        if load_size != 1:
            val = builder.create_zext_or_bitcast(val, ctx.int_type(load_size * 8))
        one_elt = val
        num_bytes_set = 1
        while num_bytes_set != load_size:
            if num_bytes_set * 2 <= load_size:
                sh_val = builder.create_shl(val, ConstantInt.get(val.type, num_bytes_set * 8))
                val = builder.create_or(val, sh_val)
                num_bytes_set <<= 1
                continue
            sh_val = builder.create_shl(val, ConstantInt.get(val.type, 8))
            val = builder.create_or(one_elt, sh_val)
            num_bytes_set += 1
        return coerce_available_value_to_load_type(val, load_ty, builder, dl)
    src = src_inst.operands[1]
    assert isinstance(src, Constant)
    return constant_fold_load_from_const_ptr(src, load_ty, dl, _index_apint(dl, src, offset))


def get_constant_mem_inst_value_for_load(src_inst: Instruction, offset: int, load_ty: Type, dl: DataLayout) -> Constant | None:
    """The constant a load reads from what a memset of a constant byte wrote, or from the
    constant global a memcpy/memmove copied (LLVM ``getConstantMemInstValueForLoad``)."""
    assert isinstance(src_inst, CallBase)
    ctx = load_ty.context
    load_size = dl.type_size_in_bits(load_ty) // 8
    if is_mem_set(src_inst):
        val = src_inst.operands[1]
        if not isinstance(val, ConstantInt):
            return None
        width = load_size * 8
        byte_bits = val.type.width
        pattern = val.zext_value
        splat = 0
        for i in range(0, width, byte_bits):
            splat |= pattern << i
        splat &= (1 << width) - 1
        return constant_fold_load_from_const(ConstantInt.get(ctx.int_type(width), splat), load_ty, dl, 0)
    src = src_inst.operands[1]
    assert isinstance(src, Constant)
    return constant_fold_load_from_const_ptr(src, load_ty, dl, _index_apint(dl, src, offset))
