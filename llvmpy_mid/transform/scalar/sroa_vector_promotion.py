"""Can a partition of an alloca become one promotable vector or one wide integer?
(LLVM 19.1.7 lib/Transforms/Scalar/SROA.cpp: ``isVectorPromotionViableForSlice``,
``checkVectorTypeForPromotion``, ``checkVectorTypesForPromotion``,
``createAndCheckVectorTypesForPromotion``, ``isVectorPromotionViable``,
``isIntegerWideningViableForSlice``, ``isIntegerWideningViable``.)

Vector promotion picks a vector type whose elements every access of the partition covers
whole (loads and stores of one element or of a run of elements, splittable memory
intrinsics, lifetime markers and droppable uses); integer widening accepts a partition whose
integer accesses can all be rewritten as shifts and masks of one integer as wide as the
partition's type, when some access covers all of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.droppable_uses import is_droppable
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.transform.scalar.sroa_value_conversion import MAX_INT_BITS, can_convert_value, is_intrinsic_inst

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.transform.scalar.sroa_slices import Partition, Slice

__all__ = [
    "check_vector_type_for_promotion",
    "is_integer_widening_viable",
    "is_lifetime_start_or_end",
    "is_mem_intrinsic",
    "is_mem_set",
    "is_mem_transfer",
    "is_vector_promotion_viable",
]

_MEMSET = ("llvm.memset", "llvm.memset.inline")
_MEMTRANSFER = ("llvm.memcpy", "llvm.memcpy.inline", "llvm.memmove")


def _base(inst: object) -> str:
    return inst.intrinsic_base if isinstance(inst, CallInst) else ""


def is_mem_set(inst: object) -> bool:
    """LLVM ``isa<MemSetInst>``."""
    return _base(inst) in _MEMSET


def is_mem_transfer(inst: object) -> bool:
    """LLVM ``isa<MemTransferInst>``."""
    return _base(inst) in _MEMTRANSFER


def is_mem_intrinsic(inst: object) -> bool:
    """LLVM ``isa<MemIntrinsic>``: memset, memcpy or memmove (and their inline forms)."""
    b = _base(inst)
    return b in _MEMSET or b in _MEMTRANSFER



def is_lifetime_start_or_end(inst: object) -> bool:
    """LLVM ``IntrinsicInst::isLifetimeStartOrEnd``."""
    return _base(inst) in ("llvm.lifetime.start", "llvm.lifetime.end")


# --- vector promotion ---------------------------------------------------------------------------


def _is_vector_promotion_viable_for_slice(p: Partition, s: Slice, ty: VectorType, element_size: int, dl: DataLayout) -> bool:
    begin = max(s.begin_offset, p.begin_offset) - p.begin_offset
    begin_index = begin // element_size
    if begin_index * element_size != begin or begin_index >= ty.count:
        return False
    end = min(s.end_offset, p.end_offset) - p.begin_offset
    end_index = end // element_size
    if end_index * element_size != end or end_index > ty.count:
        return False
    n = end_index - begin_index
    ctx = ty.context
    slice_ty: Type = ty.element_type if n == 1 else ctx.vector_type(ty.element_type, n)
    split_int_ty = ctx.int_type(n * element_size * 8)
    use = s.use
    assert use is not None
    user = use.user
    if is_mem_intrinsic(user):
        assert isinstance(user, CallInst)
        if user.is_volatile:
            return False
        if not s.splittable:
            return False
    elif is_intrinsic_inst(user):
        if not is_lifetime_start_or_end(user) and not is_droppable(user):
            return False
    elif isinstance(user, LoadInst):
        if user.volatile:
            return False
        lty = user.type
        if lty.is_struct:
            return False
        if p.begin_offset > s.begin_offset or p.end_offset < s.end_offset:
            lty = split_int_ty
        if not can_convert_value(dl, slice_ty, lty):
            return False
    elif isinstance(user, StoreInst):
        if user.volatile:
            return False
        sty = user.value_operand.type
        if sty.is_struct:
            return False
        if p.begin_offset > s.begin_offset or p.end_offset < s.end_offset:
            sty = split_int_ty
        if not can_convert_value(dl, sty, slice_ty):
            return False
    else:
        return False
    return True


def check_vector_type_for_promotion(p: Partition, vty: VectorType, dl: DataLayout) -> bool:
    """Does every slice of ``p`` (and every split tail) fit ``vty``'s elements
    (LLVM ``checkVectorTypeForPromotion``)?"""
    element_bits = dl.type_size_in_bits(vty.element_type)
    if element_bits % 8:
        return False
    element_size = element_bits // 8
    if element_size == 0:
        return False
    for s in p:
        if not _is_vector_promotion_viable_for_slice(p, s, vty, element_size, dl):
            return False
    for s in p.split_tails:
        if not _is_vector_promotion_viable_for_slice(p, s, vty, element_size, dl):
            return False
    return True


class _Candidates:
    """The candidate vector types and what is known of their element types."""

    __slots__ = ("dl", "tys", "common_elt_ty", "have_common_elt_ty", "have_vec_ptr_ty", "have_common_vec_ptr_ty",
                 "common_vec_ptr_ty")

    def __init__(self, dl: DataLayout) -> None:
        self.dl = dl
        self.tys: list[VectorType] = []
        self.common_elt_ty: Type | None = None
        self.have_common_elt_ty = True
        self.have_vec_ptr_ty = False
        self.have_common_vec_ptr_ty = True
        self.common_vec_ptr_ty: VectorType | None = None

    def check(self, ty: Type) -> None:
        if not isinstance(ty, VectorType):
            return
        dl = self.dl
        if self.tys and dl.type_size_in_bits(ty) != dl.type_size_in_bits(self.tys[0]):
            self.tys.clear()
            return
        self.tys.append(ty)
        elt = ty.element_type
        if self.common_elt_ty is None:
            self.common_elt_ty = elt
        elif self.common_elt_ty is not elt:
            self.have_common_elt_ty = False
        if elt.is_pointer:
            self.have_vec_ptr_ty = True
            if self.common_vec_ptr_ty is None:
                self.common_vec_ptr_ty = ty
            elif self.common_vec_ptr_ty is not ty:
                self.have_common_vec_ptr_ty = False


def _check_vector_types_for_promotion(p: Partition, dl: DataLayout, c: _Candidates) -> VectorType | None:
    if not c.tys:
        return None
    if c.have_vec_ptr_ty and not c.have_common_vec_ptr_ty:
        return None
    tys = c.tys
    if not c.have_common_elt_ty and c.have_vec_ptr_ty:
        assert c.common_vec_ptr_ty is not None
        tys[:] = [c.common_vec_ptr_ty]
    elif not c.have_common_elt_ty and not c.have_vec_ptr_ty:
        for i, vty in enumerate(tys):
            if not vty.element_type.is_integer:
                bits = dl.type_size_in_bits(vty.element_type)
                tys[i] = vty.context.vector_type(vty.context.int_type(bits), vty.count, vty.scalable)
        # llvm::sort (not stable) by element count, then unique by element count: a stable
        # sort keeps the first of each count, as LLVM's introsort does on these short lists.
        tys.sort(key=lambda t: t.count)
        uniq: list[VectorType] = []
        for t in tys:
            if not uniq or uniq[-1].count != t.count:
                uniq.append(t)
        tys[:] = uniq
    else:
        del tys[1:]
    tys[:] = [t for t in tys if t.count <= 0xFFFF]
    for vty in tys:
        if check_vector_type_for_promotion(p, vty, dl):
            return vty
    return None


def _create_and_check_vector_types_for_promotion(
    other_tys: list[Type], candidates_copy: list[VectorType], p: Partition, dl: DataLayout, c: _Candidates
) -> VectorType | None:
    for ty in other_tys:
        if not _is_valid_element_type(ty):
            continue
        type_size = dl.type_size_in_bits(ty)
        for vty in candidates_copy:
            vector_size = dl.type_size_in_bits(vty)
            element_size = dl.type_size_in_bits(vty.element_type)
            if type_size != vector_size and type_size != element_size and type_size and vector_size % type_size == 0:
                c.check(ty.context.vector_type(ty, vector_size // type_size))
    return _check_vector_types_for_promotion(p, dl, c)


def _is_valid_element_type(ty: Type) -> bool:
    """LLVM ``VectorType::isValidElementType``: integer, floating point or pointer (not x86_mmx
    nor a non-layout target type)."""
    return ty.is_integer or ty.is_floating_point or ty.is_pointer


def is_vector_promotion_viable(p: Partition, dl: DataLayout) -> VectorType | None:
    """The vector type that the partition can be rewritten to, so that every access becomes a
    whole-vector load or store (LLVM ``isVectorPromotionViable``), or None."""
    c = _Candidates(dl)
    load_store_tys: list[Type] = []
    deferred_tys: list[Type] = []
    for s in p:
        use = s.use
        assert use is not None
        user = use.user
        ty: Type
        if isinstance(user, LoadInst):
            ty = user.type
        elif isinstance(user, StoreInst):
            ty = user.value_operand.type
        else:
            continue
        whole = s.begin_offset == p.begin_offset and s.end_offset == p.end_offset
        if ty.scalar_type.is_pointer and not whole:
            if ty not in deferred_tys:
                deferred_tys.append(ty)
            continue
        if ty not in load_store_tys:
            load_store_tys.append(ty)
        if whole:
            c.check(ty)
    copy = list(c.tys)
    vty = _create_and_check_vector_types_for_promotion(load_store_tys, copy, p, dl, c)
    if vty is not None:
        return vty
    c.tys.clear()
    return _create_and_check_vector_types_for_promotion(deferred_tys, copy, p, dl, c)


# --- integer widening ---------------------------------------------------------------------------


def _is_integer_widening_viable_for_slice(
    s: Slice, alloc_begin: int, alloca_ty: Type, dl: DataLayout, whole: list[bool]
) -> bool:
    size = dl.type_store_size(alloca_ty)
    rel_begin = s.begin_offset - alloc_begin
    rel_end = s.end_offset - alloc_begin
    use = s.use
    assert use is not None
    user = use.user
    if is_intrinsic_inst(user) and (is_lifetime_start_or_end(user) or is_droppable(user)):
        return True
    if rel_end > size:
        return False
    if isinstance(user, LoadInst):
        if user.volatile:
            return False
        lty = user.type
        if _store_size(dl, lty) > size:
            return False
        if s.begin_offset < alloc_begin:
            return False
        if not isinstance(lty, VectorType) and rel_begin == 0 and rel_end == size:
            whole[0] = True
        if isinstance(lty, IntegerType):
            if lty.width < dl.type_store_size_in_bits(lty):
                return False
        elif rel_begin != 0 or rel_end != size or not can_convert_value(dl, alloca_ty, lty):
            return False
    elif isinstance(user, StoreInst):
        vty = user.value_operand.type
        if user.volatile:
            return False
        if _store_size(dl, vty) > size:
            return False
        if s.begin_offset < alloc_begin:
            return False
        if not isinstance(vty, VectorType) and rel_begin == 0 and rel_end == size:
            whole[0] = True
        if isinstance(vty, IntegerType):
            if vty.width < dl.type_store_size_in_bits(vty):
                return False
        elif rel_begin != 0 or rel_end != size or not can_convert_value(dl, vty, alloca_ty):
            return False
    elif is_mem_intrinsic(user):
        assert isinstance(user, CallInst)
        if user.is_volatile or not isinstance(user.operands[2], ConstantInt):
            return False
        if not s.splittable:
            return False
    else:
        return False
    return True


def _store_size(dl: DataLayout, ty: Type) -> int:
    """The (known minimum) store size; a scalable type never fits a fixed alloca."""
    if dl.is_scalable(ty):
        return 1 << 64
    return dl.type_store_size(ty)


def is_integer_widening_viable(p: Partition, alloca_ty: Type, dl: DataLayout) -> bool:
    """Can every access of the partition become a shift and mask of one integer as wide as
    ``alloca_ty``, with some access covering all of it (LLVM ``isIntegerWideningViable``)?"""
    if dl.is_scalable(alloca_ty):
        return False
    bits = dl.type_size_in_bits(alloca_ty)
    if bits > MAX_INT_BITS:
        return False
    if bits != dl.type_store_size_in_bits(alloca_ty):
        return False
    int_ty = alloca_ty.context.int_type(bits) if bits else None
    if int_ty is None:
        return False
    if not can_convert_value(dl, alloca_ty, int_ty) or not can_convert_value(dl, int_ty, alloca_ty):
        return False
    whole = [p.empty() and dl.is_legal_integer(bits)]
    for s in p:
        if not _is_integer_widening_viable_for_slice(s, p.begin_offset, alloca_ty, dl, whole):
            return False
    for s in p.split_tails:
        if not _is_integer_widening_viable_for_slice(s, p.begin_offset, alloca_ty, dl, whole):
            return False
    return whole[0]


