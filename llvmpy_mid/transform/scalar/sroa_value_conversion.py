"""SROA's value plumbing: the name-prefixing builder, pointer adjustment, value
conversion between same-sized types, integer and vector slicing, and the choice of a
type for a partition (LLVM 19.1.7 lib/Transforms/Scalar/SROA.cpp: ``findCommonType``,
``getAdjustedPtr``, ``getAdjustedAlignment``, ``canConvertValue``, ``convertValue``,
``extractInteger``/``insertInteger``/``extractVector``/``insertVector``,
``stripAggregateTypeWrapping``, ``getTypePartition``; the builder is LLVM's
``IRBuilder<ConstantFolder, IRBuilderPrefixedInserter>``).

The functions build exactly the instructions (and names) opt-19 builds: in a release
build of LLVM the debug-only part of a name (the old pointer's name) is absent, so a
new pointer is called ``<prefix>sroa_idx`` / ``<prefix>sroa_cast``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, cast

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType, StructType, Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.transform.scalar.sroa_slices import Slice

__all__ = [
    "SROABuilder",
    "adopt_dbg_records",
    "can_convert_value",
    "common_alignment",
    "convert_value",
    "extract_integer",
    "extract_vector",
    "find_common_type",
    "get_adjusted_alignment",
    "get_adjusted_ptr",
    "get_type_partition",
    "insert_integer",
    "insert_vector",
    "is_intrinsic_inst",
    "strip_aggregate_type_wrapping",
]

MAX_INT_BITS = (1 << 23) - 1
"""LLVM ``IntegerType::MAX_INT_BITS``."""


class SROABuilder(IRBuilder):
    """An IRBuilder that folds constants and puts ``name_prefix`` before every non-empty
    name it gives (LLVM ``IRBuilderPrefixedInserter``).

    ``adopt_dbg_records`` says how the insertion point was set: before an instruction (LLVM's
    ``SetInsertPoint(Instruction *)``, an iterator without the head bit), where a new
    instruction takes over the debug records in front of that instruction, or at a block's
    first insertion point or after an instruction (head bit set), where they stay."""

    __slots__ = ("name_prefix", "adopt_dbg_records")

    name_prefix: str
    adopt_dbg_records: bool

    def __init__(self) -> None:
        super().__init__(folder=ConstantFolder())
        self.name_prefix = ""
        self.adopt_dbg_records = True

    def _put(self, inst: Instruction, name: str = "") -> Instruction:  # type: ignore[override]
        if name:
            name = self.name_prefix + name
        before = self.insert_before
        super()._put(inst, name)
        if self.adopt_dbg_records and before is not None and before._dbg_records:
            adopt_dbg_records(inst, before)
        return inst


def adopt_dbg_records(inst: Instruction, source: Instruction) -> None:
    """Move the debug records in front of ``source`` in front of ``inst`` (LLVM
    ``Instruction::adoptDbgRecords``, as ``insertBefore`` does for an iterator without the
    head bit)."""
    for rec in source.take_dbg_records():
        inst.add_dbg_record(rec)


def common_alignment(align: int, offset: int) -> int:
    """LLVM ``commonAlignment``: the largest power of two dividing ``align`` and ``offset``."""
    if offset == 0:
        return align
    return min(align, offset & -offset)


# --- pointers -----------------------------------------------------------------------------------


def get_adjusted_ptr(
    b: IRBuilder,
    dl: DataLayout,
    ptr: Value,
    offset: int,
    pointer_ty: Type,
    name_prefix: str = "",
    offset_width: int | None = None,
) -> Value:
    """``ptr`` moved ``offset`` bytes on (an inbounds ``i8`` GEP named ``sroa_idx`` whose index
    is an ``offset_width``-bit constant, by default the index width of ``ptr``) and cast to
    ``pointer_ty`` (named ``sroa_cast``) (LLVM ``getAdjustedPtr``)."""
    width = offset_width if offset_width is not None else dl.index_type_size_in_bits(ptr.type)
    offset &= (1 << width) - 1
    if offset != 0:
        idx = ConstantInt.get(b.context.int_type(width), offset)
        ptr = b.create_gep(b.context.i8, ptr, [idx], name_prefix + "sroa_idx", inbounds=True)
    return create_pointer_bitcast_or_addrspacecast(b, ptr, pointer_ty, name_prefix + "sroa_cast")


def create_pointer_bitcast_or_addrspacecast(b: IRBuilder, v: Value, ty: Type, name: str) -> Value:
    """LLVM ``CreatePointerBitCastOrAddrSpaceCast``."""
    if v.type is ty:
        return v
    src = v.type.scalar_type
    dst = ty.scalar_type
    if isinstance(src, PointerType) and isinstance(dst, PointerType) and src.address_space != dst.address_space:
        return b.create_cast("addrspacecast", v, ty, name)
    return b.create_cast("bitcast", v, ty, name)


def load_store_alignment(inst: Instruction) -> int:
    """LLVM ``getLoadStoreAlignment``."""
    assert isinstance(inst, (LoadInst, StoreInst))
    return inst.alignment


def get_adjusted_alignment(inst: Instruction, offset: int) -> int:
    """The alignment of ``inst``'s access moved ``offset`` bytes on (LLVM ``getAdjustedAlignment``)."""
    return common_alignment(load_store_alignment(inst), offset)


# --- conversions --------------------------------------------------------------------------------


def can_convert_value(dl: DataLayout, old_ty: Type, new_ty: Type) -> bool:
    """Can :func:`convert_value` turn an ``old_ty`` value into ``new_ty`` (LLVM ``canConvertValue``)?"""
    if old_ty is new_ty:
        return True
    if old_ty.type_id is TypeID.INTEGER and new_ty.type_id is TypeID.INTEGER:
        return False
    if dl.is_scalable(new_ty) != dl.is_scalable(old_ty):
        return False
    if dl.type_size_in_bits(new_ty) != dl.type_size_in_bits(old_ty):
        return False
    if not new_ty.is_single_value or not old_ty.is_single_value:
        return False
    old_s = old_ty.scalar_type
    new_s = new_ty.scalar_type
    if isinstance(new_s, PointerType) or isinstance(old_s, PointerType):
        if isinstance(new_s, PointerType) and isinstance(old_s, PointerType):
            old_as = old_s.address_space
            new_as = new_s.address_space
            return old_as == new_as or (
                not dl.is_non_integral_address_space(old_as)
                and not dl.is_non_integral_address_space(new_as)
                and dl.pointer_size(old_as) == dl.pointer_size(new_as)
            )
        if old_s.is_integer:
            return not dl.is_non_integral_pointer_type(new_s)
        if not dl.is_non_integral_pointer_type(old_s):
            return new_s.is_integer
        return False
    if old_s.is_target_ext or new_s.is_target_ext:
        return False
    return True


def convert_value(dl: DataLayout, b: IRBuilder, v: Value, new_ty: Type) -> Value:
    """``v`` as a value of ``new_ty`` through bitcasts, ``inttoptr`` and ``ptrtoint``
    (LLVM ``convertValue``; guard with :func:`can_convert_value`)."""
    old_ty = v.type
    if old_ty is new_ty:
        return v
    if old_ty.is_int_or_int_vector and new_ty.is_ptr_or_ptr_vector:
        return b.create_cast("inttoptr", b.create_cast("bitcast", v, dl.int_ptr_type(new_ty)), new_ty)
    if old_ty.is_ptr_or_ptr_vector and new_ty.is_int_or_int_vector:
        return b.create_cast("bitcast", b.create_cast("ptrtoint", v, dl.int_ptr_type(old_ty)), new_ty)
    if old_ty.is_ptr_or_ptr_vector and new_ty.is_ptr_or_ptr_vector:
        old_as = cast(PointerType, old_ty.scalar_type).address_space
        new_as = cast(PointerType, new_ty.scalar_type).address_space
        if old_as != new_as:
            return b.create_cast("inttoptr", b.create_cast("ptrtoint", v, dl.int_ptr_type(old_ty)), new_ty)
    return b.create_cast("bitcast", v, new_ty)


# --- integer and vector slices ------------------------------------------------------------------


def extract_integer(dl: DataLayout, b: IRBuilder, v: Value, ty: IntegerType, offset: int, name: str) -> Value:
    """The ``ty``-sized integer at byte ``offset`` of the integer ``v`` (LLVM ``extractInteger``)."""
    int_ty = cast(IntegerType, v.type)
    sh = 8 * offset
    if dl.is_big_endian:
        sh = 8 * (dl.type_store_size(int_ty) - dl.type_store_size(ty) - offset)
    if sh:
        v = b.create_lshr(v, ConstantInt.get(int_ty, sh), name + ".shift")
    if ty is not int_ty:
        v = b.create_trunc(v, ty, name + ".trunc")
    return v


def insert_integer(dl: DataLayout, b: IRBuilder, old: Value, v: Value, offset: int, name: str) -> Value:
    """``old`` with the integer ``v`` written at byte ``offset`` (LLVM ``insertInteger``)."""
    int_ty = cast(IntegerType, old.type)
    ty = cast(IntegerType, v.type)
    if ty is not int_ty:
        v = b.create_zext(v, int_ty, name + ".ext")
    sh = 8 * offset
    if dl.is_big_endian:
        sh = 8 * (dl.type_store_size(int_ty) - dl.type_store_size(ty) - offset)
    if sh:
        v = b.create_shl(v, ConstantInt.get(int_ty, sh), name + ".shift")
    if sh or ty.width < int_ty.width:
        mask = ~(ty.mask << sh) & int_ty.mask
        old = b.create_and(old, ConstantInt.get(int_ty, mask), name + ".mask")
        v = b.create_or(old, v, name + ".insert")
    return v


def extract_vector(b: IRBuilder, v: Value, begin: int, end: int, name: str) -> Value:
    """Elements ``[begin, end)`` of the vector ``v``: one element, a shorter vector, or ``v``
    (LLVM ``extractVector``)."""
    vty = cast(VectorType, v.type)
    n = end - begin
    if n == vty.count:
        return v
    if n == 1:
        return b.create_extract_element(v, ConstantInt.get(b.context.i32, begin), name + ".extract")
    from llvmpy_mid.ir.constants import PoisonValue

    return b.create_shuffle_vector(v, PoisonValue.get(vty), list(range(begin, end)), name + ".extract")


def insert_vector(b: IRBuilder, old: Value, v: Value, begin: int, name: str) -> Value:
    """``old`` with ``v`` (an element or a shorter vector) written from element ``begin``
    (LLVM ``insertVector``)."""
    vec_ty = cast(VectorType, old.type)
    ty = v.type
    if not isinstance(ty, VectorType):
        return b.create_insert_element(old, v, ConstantInt.get(b.context.i32, begin), name + ".insert")
    if ty.count == vec_ty.count:
        return v
    end = begin + ty.count
    mask = [i - begin if begin <= i < end else -1 for i in range(vec_ty.count)]
    from llvmpy_mid.ir.constants import PoisonValue

    v = b.create_shuffle_vector(v, PoisonValue.get(ty), mask, name + ".expand")
    i1 = b.context.i1
    sel: list[Constant] = [ConstantInt.get(i1, int(begin <= i < end)) for i in range(vec_ty.count)]
    return b.create_select(ConstantVector.get(sel), v, old, name + "blend")


# --- choosing a partition's type ----------------------------------------------------------------


def find_common_type(slices: Iterable[Slice], begin_offset: int, end_offset: int) -> tuple[Type | None, IntegerType | None]:
    """(the type every whole-partition load and store uses, or None; the widest
    byte-multiple integer type such an access uses that fits) over ``slices`` (LLVM
    ``findCommonType``; ``begin_offset`` is the first slice's begin offset)."""
    ty: Type | None = None
    ty_is_common = True
    ity: IntegerType | None = None
    for s in slices:
        use = s.use
        assert use is not None
        user = use.user
        if is_intrinsic_inst(user):
            continue
        if s.begin_offset != begin_offset or s.end_offset != end_offset:
            continue
        user_ty: Type | None = None
        if isinstance(user, LoadInst):
            user_ty = user.type
        elif isinstance(user, StoreInst):
            user_ty = user.value_operand.type
        if isinstance(user_ty, IntegerType):
            if user_ty.width % 8 != 0 or user_ty.width // 8 > end_offset - begin_offset:
                continue
            if ity is None or ity.width < user_ty.width:
                ity = user_ty
        if user_ty is None or (ty is not None and ty is not user_ty):
            ty_is_common = False
        else:
            ty = user_ty
    return (ty if ty_is_common else None), ity


def is_intrinsic_inst(user: object) -> bool:
    """LLVM ``isa<IntrinsicInst>``: a call (not an invoke) of an ``llvm.*`` function."""
    return isinstance(user, CallInst) and user.is_intrinsic_call


def strip_aggregate_type_wrapping(dl: DataLayout, ty: Type) -> Type:
    """``ty`` without the single-element (or first-element-covering) arrays and structs
    that wrap a type of the same size (LLVM ``stripAggregateTypeWrapping``)."""
    while True:
        if ty.is_single_value:
            return ty
        alloc_size = dl.type_alloc_size(ty)
        size = dl.type_size_in_bits(ty)
        if isinstance(ty, ArrayType):
            inner = ty.element_type
        elif isinstance(ty, StructType):
            sl = dl.struct_layout(ty)
            if not sl.element_offsets:
                return ty
            inner = ty.elements[sl.element_containing_offset(0)]
        else:
            return ty
        if alloc_size > dl.type_alloc_size(inner) or size > dl.type_size_in_bits(inner):
            return ty
        ty = inner


def get_type_partition(dl: DataLayout, ty: Type, offset: int, size: int) -> Type | None:
    """A type inside ``ty`` that covers exactly ``size`` bytes from ``offset``: an element,
    a sub-array or a sub-struct, or None (LLVM ``getTypePartition``)."""
    while True:
        alloc = dl.type_alloc_size(ty)
        if offset == 0 and alloc == size:
            return strip_aggregate_type_wrapping(dl, ty)
        if offset > alloc or alloc - offset < size:
            return None
        if isinstance(ty, (ArrayType, VectorType)):
            if isinstance(ty, VectorType) and ty.scalable:
                return None
            elem = ty.element_type
            count = ty.count
            esize = dl.type_alloc_size(elem)
            if esize == 0:
                return None
            skipped = offset // esize
            if skipped >= count:
                return None
            offset -= skipped * esize
            if offset > 0 or size < esize:
                if offset + size > esize:
                    return None
                ty = elem
                continue
            if size == esize:
                return strip_aggregate_type_wrapping(dl, elem)
            n = size // esize
            if n * esize != size:
                return None
            return ty.context.array_type(elem, n)
        if not isinstance(ty, StructType):
            return None
        sl = dl.struct_layout(ty)
        if sl.is_scalable:
            return None
        if offset >= sl.size:
            return None
        end = offset + size
        if end > sl.size:
            return None
        index = sl.element_containing_offset(offset)
        offset -= sl.element_offset(index)
        elem = ty.elements[index]
        esize = dl.type_alloc_size(elem)
        if offset >= esize:
            return None
        if offset > 0 or size < esize:
            if offset + size > esize:
                return None
            ty = elem
            continue
        if size == esize:
            return strip_aggregate_type_wrapping(dl, elem)
        stop = len(ty.elements)
        if end < sl.size:
            end_index = sl.element_containing_offset(end)
            if index == end_index:
                return None
            if sl.element_offset(end_index) != end:
                return None
            stop = end_index
        sub = ty.context.struct_type(list(ty.elements[index:stop]), ty.packed)
        if size != dl.struct_layout(sub).size:
            return None
        return sub
