"""SROA's rewriting of one partition of an alloca onto a new alloca (LLVM 19.1.7
lib/Transforms/Scalar/SROA.cpp: ``AllocaSliceRewriter`` and ``SROA::rewritePartition``).

What: :func:`rewrite_partition` picks the type of the partition's new alloca (the common type
of its whole-partition accesses, a piece of the old alloca's type, the widest integer used,
a legal integer, or an ``i8`` array; then a promotable vector type or integer widening when
viable), creates ``<name>.sroa.<first slice index>`` before the old alloca (or keeps the old
alloca when nothing changes), and rewrites every slice's user: loads and stores become
accesses of the new alloca (converted, extracted from or inserted into a vector or a wide
integer), memset/memcpy/memmove become stores and loads or smaller intrinsics, lifetime
markers cover the new alloca, droppable uses are dropped, and phis and selects of the pointer
are pointed at the new alloca and queued for speculation. The new alloca is then queued for
promotion, for speculation, or for another round of slicing, as LLVM does.

How: :class:`AllocaSliceRewriter` is LLVM's visitor; its IRBuilder prefixes every name with
``<new alloca>.<slice begin>.``, as LLVM's ``IRBuilderPrefixedInserter``. Names follow a
release build of LLVM (opt-19), which leaves out the debug-only old pointer names.

Statistics: ``NumAllocaPartitionUses``, ``MaxUsesPerAllocaPartition``, ``NumNewAllocas`` and
``NumVectorized`` (the driver counts the others).

What it does not do: the LLVM_DEBUG traces are not reproduced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue
from llvmpy_mid.ir.droppable_uses import drop_droppable_use, drop_droppable_uses, is_droppable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.metadata import ValueAsMetadata
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets, strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.sroa_debug_info import assignment_markers, migrate_debug_info
from llvmpy_mid.transform.scalar.sroa_speculation import (
    RewriteableMemOps,
    is_safe_phi_to_speculate,
    is_safe_select_to_speculate,
)
from llvmpy_mid.transform.scalar.sroa_value_conversion import (
    SROABuilder,
    adopt_dbg_records,
    can_convert_value,
    common_alignment,
    convert_value,
    extract_integer,
    extract_vector,
    find_common_type,
    get_adjusted_ptr,
    get_type_partition,
    insert_integer,
    insert_vector,
)
from llvmpy_mid.transform.scalar.sroa_vector_promotion import (
    check_vector_type_for_promotion,
    is_integer_widening_viable,
    is_lifetime_start_or_end,
    is_mem_set,
    is_mem_transfer,
    is_vector_promotion_viable,
)
from llvmpy_mid.transform.utils.build_lib_calls import create_mem_cpy, create_mem_set
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead
from llvmpy_mid.transform.utils.local_metadata import copy_metadata_for_load

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.transform.scalar.sroa_slices import AllocaSlices, Partition, Slice
    from llvmpy_mid.transform.scalar.sroa_state import SROAState

__all__ = ["AllocaSliceRewriter", "rewrite_partition"]

NUM_ALLOCA_PARTITION_USES = Statistic("sroa", "NumAllocaPartitionUses", "Number of alloca partition uses rewritten")
MAX_USES_PER_ALLOCA_PARTITION = Statistic("sroa", "MaxUsesPerAllocaPartition", "Maximum number of uses of a partition")
NUM_NEW_ALLOCAS = Statistic("sroa", "NumNewAllocas", "Number of new, smaller allocas introduced")
NUM_VECTORIZED = Statistic("sroa", "NumVectorized", "Number of vectorized aggregates")

_PAR_LOOP_MD = ("llvm.mem.parallel_loop_access", "llvm.access.group")
_LAUNDER_OR_STRIP = ("llvm.launder.invariant.group", "llvm.strip.invariant.group")


def _copy_par_loop_metadata(new: Instruction, old: Instruction) -> None:
    """``New->copyMetadata(Old, {MD_mem_parallel_loop_access, MD_access_group})``."""
    for kind in _PAR_LOOP_MD:
        node = old.get_metadata(kind)
        if node is not None:
            new.set_metadata(kind, node)


def _update_assign_addresses(ii: CallInst, adjusted: Value) -> None:
    """Point the ``#dbg_assign`` records linked to the memory transfer ``ii`` at ``adjusted``
    where they name its destination (LLVM ``replaceVariableLocationOp`` on each marker)."""
    dest = strip_pointer_casts(ii.operands[0])
    for rec in assignment_markers(ii):
        in_location = any(v is dest for v in rec.location_values())
        if not (in_location or rec.address_value is dest):
            continue
        if rec.address_value is dest:
            rec.address = ValueAsMetadata.get(adjusted)
        if in_location:
            rec.replace_variable_location_op(dest, adjusted)


def _name_from_string_ref(new: Instruction, old: Instruction, irb: SROABuilder) -> None:
    """LLVM passes ``LI.getName()``, a (possibly empty) string rather than an empty Twine, so
    the prefixed inserter names the new load even when the old one had no name."""
    if not old.name:
        new.set_name(irb.name_prefix)


def _set_param_alignment(call: CallInst, arg_no: int, align: int) -> None:
    """``setDestAlignment``/``setSourceAlignment``: replace the ``align`` of a pointer argument."""
    call.attributes = call.attributes.without_param_attr(arg_no, "align").with_param_attr(arg_no, Attribute.alignment(align))


class AllocaSliceRewriter:
    """Rewrites the users of the slices of one partition to use the new alloca (LLVM
    ``AllocaSliceRewriter``). :meth:`visit` answers whether the new alloca stays promotable."""

    __slots__ = (
        "dl", "slices", "state", "old_ai", "new_ai", "new_alloca_begin_offset", "new_alloca_end_offset",
        "new_alloca_ty", "int_ty", "vec_ty", "element_ty", "element_size", "begin_offset", "end_offset",
        "new_begin_offset", "new_end_offset", "slice_size", "is_splittable", "is_split", "old_use", "old_ptr",
        "phi_users", "select_users", "irb",
    )  # fmt: skip

    def __init__(
        self,
        dl: DataLayout,
        slices: AllocaSlices,
        state: SROAState,
        old_ai: AllocaInst,
        new_ai: AllocaInst,
        new_alloca_begin_offset: int,
        new_alloca_end_offset: int,
        is_integer_promotable: bool,
        promotable_vec_ty: VectorType | None,
        phi_users: dict[PHINode, None],
        select_users: dict[SelectInst, None],
    ) -> None:
        self.dl = dl
        self.slices = slices
        self.state = state
        self.old_ai = old_ai
        self.new_ai = new_ai
        self.new_alloca_begin_offset = new_alloca_begin_offset
        self.new_alloca_end_offset = new_alloca_end_offset
        self.new_alloca_ty: Type = new_ai.allocated_type
        self.int_ty: IntegerType | None = (
            new_ai.context.int_type(dl.type_size_in_bits(new_ai.allocated_type)) if is_integer_promotable else None
        )
        self.vec_ty = promotable_vec_ty
        self.element_ty: Type | None = promotable_vec_ty.element_type if promotable_vec_ty is not None else None
        self.element_size = dl.type_size_in_bits(promotable_vec_ty.element_type) // 8 if promotable_vec_ty is not None else 0
        self.begin_offset = 0
        self.end_offset = 0
        self.new_begin_offset = 0
        self.new_end_offset = 0
        self.slice_size = 0
        self.is_splittable = False
        self.is_split = False
        self.old_use: Use | None = None
        self.old_ptr: Instruction | None = None
        self.phi_users = phi_users
        self.select_users = select_users
        self.irb = SROABuilder()

    # --- driving ----------------------------------------------------------------------------------
    def visit(self, s: Slice) -> bool:
        """Rewrite the user of slice ``s``; False when that makes the new alloca unpromotable."""
        self.begin_offset = s.begin_offset
        self.end_offset = s.end_offset
        self.is_splittable = s.splittable
        self.is_split = self.begin_offset < self.new_alloca_begin_offset or self.end_offset > self.new_alloca_end_offset
        self.new_begin_offset = max(self.begin_offset, self.new_alloca_begin_offset)
        self.new_end_offset = min(self.end_offset, self.new_alloca_end_offset)
        self.slice_size = self.new_end_offset - self.new_begin_offset
        use = s.use
        assert use is not None
        self.old_use = use
        self.old_ptr = cast(Instruction, use.value)
        user = cast(Instruction, use.user)
        irb = self.irb
        irb.position_before(user)
        irb.adopt_dbg_records = True
        irb.debug_loc = user.debug_loc
        irb.name_prefix = "%s.%d." % (self.new_ai.name, self.begin_offset)
        if isinstance(user, LoadInst):
            return self.visit_load(user)
        if isinstance(user, StoreInst):
            return self.visit_store(user)
        if isinstance(user, PHINode):
            return self.visit_phi(user)
        if isinstance(user, SelectInst):
            return self.visit_select(user)
        if isinstance(user, CallInst):
            if is_mem_set(user):
                return self.visit_mem_set(user)
            if is_mem_transfer(user):
                return self.visit_mem_transfer(user)
            if user.is_intrinsic_call:
                return self.visit_intrinsic(user)
        raise AssertionError("SROA: no rewrite rule for %s" % user)

    # --- helpers ------------------------------------------------------------------------------------
    def ptr_to_new_ai(self, address_space: int, volatile: bool) -> Value:
        """The new alloca, cast to ``address_space`` for a volatile access there (LLVM ``getPtrToNewAI``)."""
        if not volatile or address_space == self.new_ai.address_space:
            return self.new_ai
        return self.irb.create_cast("addrspacecast", self.new_ai, self.irb.context.pointer_type(address_space))

    def new_alloca_slice_ptr(self, pointer_ty: Type) -> Value:
        """The slice's address in the new alloca (LLVM ``getNewAllocaSlicePtr``)."""
        offset = self.new_begin_offset - self.new_alloca_begin_offset
        width = self.dl.index_type_size_in_bits(pointer_ty)
        return get_adjusted_ptr(self.irb, self.dl, self.new_ai, offset, pointer_ty, "", offset_width=width)

    def slice_align(self) -> int:
        """LLVM ``getSliceAlign``."""
        return common_alignment(self.new_ai.alignment, self.new_begin_offset - self.new_alloca_begin_offset)

    def index_of(self, offset: int) -> int:
        """LLVM ``getIndex``: the vector element at ``offset``."""
        return (offset - self.new_alloca_begin_offset) // self.element_size

    def delete_if_trivially_dead(self, v: Value) -> None:
        if isinstance(v, Instruction) and is_instruction_trivially_dead(v):
            self.state.dead_insts.append(v)

    def load_new_ai(self, name: str) -> LoadInst:
        """A load of the whole new alloca at its alignment."""
        return self.irb.load(self.new_alloca_ty, self.new_ai, name, alignment=self.new_ai.alignment)

    def store_new_ai(self, v: Value) -> StoreInst:
        return self.irb.store(v, self.new_ai, alignment=self.new_ai.alignment)

    def _aa_adjusted(self, tags: AAMDNodes, ty: Type) -> AAMDNodes:
        return tags.adjust_for_access_type(self.new_begin_offset - self.begin_offset, ty, self.dl)

    # --- loads --------------------------------------------------------------------------------------
    def rewrite_vectorized_load(self, li: LoadInst) -> Value:
        begin = self.index_of(self.new_begin_offset)
        end = self.index_of(self.new_end_offset)
        load = self.load_new_ai("load")
        _copy_par_loop_metadata(load, li)
        return extract_vector(self.irb, load, begin, end, "vec")

    def rewrite_integer_load(self, li: LoadInst) -> Value:
        int_ty = self.int_ty
        assert int_ty is not None
        dl = self.dl
        v: Value = self.load_new_ai("load")
        v = convert_value(dl, self.irb, v, int_ty)
        offset = self.new_begin_offset - self.new_alloca_begin_offset
        if offset > 0 or self.new_end_offset < self.new_alloca_end_offset:
            extract_ty = li.context.int_type(self.slice_size * 8)
            v = extract_integer(dl, self.irb, v, extract_ty, offset, "extract")
        lty = cast(IntegerType, li.type)
        if lty.width > self.slice_size * 8:
            v = self.irb.create_zext(v, lty)
        return v

    def visit_load(self, li: LoadInst) -> bool:
        old_op = li.operands[0]
        dl = self.dl
        irb = self.irb
        tags = AAMDNodes.of(li)
        addr_space = li.pointer_address_space
        target_ty: Type = li.context.int_type(self.slice_size * 8) if self.is_split else li.type
        is_load_past_end = dl.type_store_size(target_ty) > self.slice_size
        is_ptr_adjusted = False
        v: Value
        if self.vec_ty is not None:
            v = self.rewrite_vectorized_load(li)
        elif self.int_ty is not None and li.type.is_integer:
            v = self.rewrite_integer_load(li)
        elif (
            self.new_begin_offset == self.new_alloca_begin_offset
            and self.new_end_offset == self.new_alloca_end_offset
            and (
                can_convert_value(dl, self.new_alloca_ty, target_ty)
                or (is_load_past_end and self.new_alloca_ty.is_integer and target_ty.is_integer and not li.volatile)
            )
        ):
            new_ptr = self.ptr_to_new_ai(addr_space, li.volatile)
            new_li = irb.load(self.new_alloca_ty, new_ptr, li.name, alignment=self.new_ai.alignment, volatile=li.volatile)
            _name_from_string_ref(new_li, li, irb)
            if li.volatile:
                new_li.ordering = li.ordering
                new_li.sync_scope = li.sync_scope
            if new_li.is_atomic:
                new_li.alignment = li.alignment
            copy_metadata_for_load(new_li, li)
            if tags:
                set_aa_metadata(new_li, self._aa_adjusted(tags, new_li.type))
            v = new_li
            if isinstance(self.new_alloca_ty, IntegerType) and isinstance(target_ty, IntegerType):
                if self.new_alloca_ty.width < target_ty.width:
                    v = irb.create_zext(v, target_ty, "load.ext")
                    if dl.is_big_endian:
                        shift = ConstantInt.get(target_ty, target_ty.width - self.new_alloca_ty.width)
                        v = irb.create_shl(v, shift, "endian_shift")
        else:
            lty = irb.context.pointer_type(addr_space)
            ptr = self.new_alloca_slice_ptr(lty)
            new_li = irb.load(target_ty, ptr, li.name, alignment=self.slice_align(), volatile=li.volatile)
            _name_from_string_ref(new_li, li, irb)
            if tags:
                set_aa_metadata(new_li, self._aa_adjusted(tags, new_li.type))
            if li.volatile:
                new_li.ordering = li.ordering
                new_li.sync_scope = li.sync_scope
            _copy_par_loop_metadata(new_li, li)
            v = new_li
            is_ptr_adjusted = True
        v = convert_value(dl, irb, v, target_ty)

        if self.is_split:
            nxt = li.next_instruction
            assert li.parent is not None
            if nxt is None:
                irb.position_at_end(li.parent)
            else:
                irb.position_before(nxt)
                irb.debug_loc = nxt.debug_loc  # SetInsertPoint(BB, It) takes It's location
            irb.adopt_dbg_records = False
            placeholder = LoadInst(li.type, PoisonValue.get(irb.context.pointer_type(addr_space)), alignment=1)
            v = insert_integer(dl, irb, placeholder, v, self.new_begin_offset - self.begin_offset, "insert")
            li.replace_all_uses_with(v)
            placeholder.replace_all_uses_with(li)
            placeholder.drop_all_references()
        else:
            li.replace_all_uses_with(v)

        self.state.dead_insts.append(li)
        self.delete_if_trivially_dead(old_op)
        return not li.volatile and not is_ptr_adjusted

    # --- stores -------------------------------------------------------------------------------------
    def rewrite_vectorized_store(self, v: Value, si: StoreInst, tags: AAMDNodes) -> bool:
        vec_ty = self.vec_ty
        assert vec_ty is not None and self.element_ty is not None
        orig_v = v
        if v.type is not vec_ty:
            begin = self.index_of(self.new_begin_offset)
            end = self.index_of(self.new_end_offset)
            n = end - begin
            slice_ty: Type = self.element_ty if n == 1 else self.irb.context.vector_type(self.element_ty, n)
            if v.type is not slice_ty:
                v = convert_value(self.dl, self.irb, v, slice_ty)
            old = self.load_new_ai("load")
            v = insert_vector(self.irb, old, v, begin, "vec")
        store = self.store_new_ai(v)
        _copy_par_loop_metadata(store, si)
        if tags:
            set_aa_metadata(store, self._aa_adjusted(tags, v.type))
        self.state.dead_insts.append(si)
        migrate_debug_info(
            self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, si, store, store.pointer_operand,
            orig_v, self.dl,
        )
        return True

    def rewrite_integer_store(self, v: Value, si: StoreInst, tags: AAMDNodes) -> bool:
        int_ty = self.int_ty
        assert int_ty is not None
        dl = self.dl
        if dl.type_size_in_bits(v.type) != int_ty.width:
            old: Value = self.load_new_ai("oldload")
            old = convert_value(dl, self.irb, old, int_ty)
            offset = self.begin_offset - self.new_alloca_begin_offset
            v = insert_integer(dl, self.irb, old, si.value_operand, offset, "insert")
        v = convert_value(dl, self.irb, v, self.new_alloca_ty)
        store = self.store_new_ai(v)
        _copy_par_loop_metadata(store, si)
        if tags:
            set_aa_metadata(store, self._aa_adjusted(tags, v.type))
        migrate_debug_info(
            self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, si, store, store.pointer_operand,
            store.value_operand, dl,
        )
        self.state.dead_insts.append(si)
        return True

    def visit_store(self, si: StoreInst) -> bool:
        old_op = si.operands[1]
        dl = self.dl
        irb = self.irb
        tags = AAMDNodes.of(si)
        v = si.value_operand
        if v.type.is_pointer:
            root = strip_pointer_casts(v, inbounds=True)
            if isinstance(root, AllocaInst):
                self.state.post_promotion_worklist.insert(root)
        if self.slice_size < dl.type_store_size(v.type):
            narrow = si.context.int_type(self.slice_size * 8)
            v = extract_integer(dl, irb, v, narrow, self.new_begin_offset - self.begin_offset, "extract")
        if self.vec_ty is not None:
            return self.rewrite_vectorized_store(v, si, tags)
        if self.int_ty is not None and v.type.is_integer:
            return self.rewrite_integer_store(v, si, tags)

        if (
            self.new_begin_offset == self.new_alloca_begin_offset
            and self.new_end_offset == self.new_alloca_end_offset
            and can_convert_value(dl, v.type, self.new_alloca_ty)
        ):
            v = convert_value(dl, irb, v, self.new_alloca_ty)
            new_ptr = self.ptr_to_new_ai(si.pointer_address_space, si.volatile)
            new_si = irb.store(v, new_ptr, alignment=self.new_ai.alignment, volatile=si.volatile)
        else:
            ptr = self.new_alloca_slice_ptr(irb.context.pointer_type(si.pointer_address_space))
            new_si = irb.store(v, ptr, alignment=self.slice_align(), volatile=si.volatile)
        _copy_par_loop_metadata(new_si, si)
        if tags:
            set_aa_metadata(new_si, self._aa_adjusted(tags, v.type))
        if si.volatile:
            new_si.ordering = si.ordering
            new_si.sync_scope = si.sync_scope
        if new_si.is_atomic:
            new_si.alignment = si.alignment
        migrate_debug_info(
            self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, si, new_si,
            new_si.pointer_operand, new_si.value_operand, dl,
        )
        self.state.dead_insts.append(si)
        self.delete_if_trivially_dead(old_op)
        return new_si.pointer_operand is self.new_ai and new_si.value_operand.type is self.new_alloca_ty and not si.volatile

    # --- memset -------------------------------------------------------------------------------------
    def integer_splat(self, v: Value, size: int) -> Value:
        """The byte ``v`` repeated ``size`` times as one integer (LLVM ``getIntegerSplat``)."""
        if size == 1:
            return v
        irb = self.irb
        splat_ty = irb.context.int_type(size * 8)
        ext = irb.create_zext(v, splat_ty, "zext")
        ones = Constant.get_all_ones_value(splat_ty)
        factor = irb.create_bin_op("udiv", ones, irb.create_zext(Constant.get_all_ones_value(v.type), splat_ty))
        return irb.create_mul(ext, factor, "isplat")

    def vector_splat(self, v: Value, n: int) -> Value:
        """LLVM ``getVectorSplat``: ``IRBuilder::CreateVectorSplat`` named ``vsplat``."""
        irb = self.irb
        vty = irb.context.vector_type(v.type, n)
        ins = irb.create_insert_element(PoisonValue.get(vty), v, ConstantInt.get(irb.context.i64, 0), "vsplat.splatinsert")
        return irb.create_shuffle_vector(ins, PoisonValue.get(vty), [0] * n, "vsplat.splat")

    def visit_mem_set(self, ii: CallInst) -> bool:
        dl = self.dl
        irb = self.irb
        tags = AAMDNodes.of(ii)
        old_ptr = self.old_ptr
        assert old_ptr is not None
        length = ii.operands[2]
        if not isinstance(length, ConstantInt):
            ii.set_operand(0, self.new_alloca_slice_ptr(old_ptr.type))
            _set_param_alignment(ii, 0, self.slice_align())
            self.delete_if_trivially_dead(old_ptr)
            return False

        self.state.dead_insts.append(ii)
        alloca_ty = self.new_ai.allocated_type
        scalar_ty = alloca_ty.scalar_type
        volatile = ii.is_volatile

        if self.vec_ty is not None or self.int_ty is not None:
            can_continue = True
        elif self.begin_offset > self.new_alloca_begin_offset or self.end_offset < self.new_alloca_end_offset:
            can_continue = False
        else:
            ln = length.value
            if ln > 0xFFFFFFFF or ln == 0:
                can_continue = False
            else:
                src_ty = irb.context.vector_type(irb.context.i8, ln)
                can_continue = can_convert_value(dl, src_ty, alloca_ty) and (
                    not dl.is_scalable(scalar_ty) and dl.is_legal_integer(dl.type_size_in_bits(scalar_ty))
                )

        if not can_continue:
            size = ConstantInt.get(length.type, self.new_end_offset - self.new_begin_offset)
            dest = self.new_alloca_slice_ptr(old_ptr.type)
            new = create_mem_set(irb, dest, ii.operands[1], size, self.slice_align(), volatile)
            if tags:
                length_b = self.new_end_offset - self.new_begin_offset
                set_aa_metadata(new, tags.adjust_for_access(length_b, self.new_begin_offset - self.begin_offset))
            migrate_debug_info(
                self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, ii, new, new.operands[0], None,
                dl,
            )
            return False

        v: Value
        if self.vec_ty is not None:
            element_ty = self.element_ty
            assert element_ty is not None
            begin = self.index_of(self.new_begin_offset)
            end = self.index_of(self.new_end_offset)
            n = end - begin
            splat = self.integer_splat(ii.operands[1], dl.type_size_in_bits(element_ty) // 8)
            splat = convert_value(dl, irb, splat, element_ty)
            if n > 1:
                splat = self.vector_splat(splat, n)
            old: Value = self.load_new_ai("oldload")
            v = insert_vector(irb, old, splat, begin, "vec")
        elif self.int_ty is not None:
            size_b = self.new_end_offset - self.new_begin_offset
            v = self.integer_splat(ii.operands[1], size_b)
            if self.begin_offset != self.new_alloca_begin_offset or self.end_offset != self.new_alloca_begin_offset:
                old = self.load_new_ai("oldload")
                old = convert_value(dl, irb, old, self.int_ty)
                v = insert_integer(dl, irb, old, v, self.new_begin_offset - self.new_alloca_begin_offset, "insert")
            v = convert_value(dl, irb, v, alloca_ty)
        else:
            v = self.integer_splat(ii.operands[1], dl.type_size_in_bits(scalar_ty) // 8)
            if isinstance(alloca_ty, VectorType):
                v = self.vector_splat(v, alloca_ty.count)
            v = convert_value(dl, irb, v, alloca_ty)

        dest_as = ii.operands[0].type.address_space  # type: ignore[attr-defined]
        new_ptr = self.ptr_to_new_ai(dest_as, volatile)
        store = irb.store(v, new_ptr, alignment=self.new_ai.alignment, volatile=volatile)
        _copy_par_loop_metadata(store, ii)
        if tags:
            set_aa_metadata(store, self._aa_adjusted(tags, v.type))
        migrate_debug_info(
            self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, ii, store, store.pointer_operand, v,
            dl,
        )
        return not volatile

    # --- memcpy / memmove ---------------------------------------------------------------------------
    def visit_mem_transfer(self, ii: CallInst) -> bool:
        dl = self.dl
        irb = self.irb
        tags = AAMDNodes.of(ii)
        old_use = self.old_use
        old_ptr = self.old_ptr
        assert old_use is not None and old_ptr is not None
        is_dest = old_use.index == 0
        slice_align = self.slice_align()
        volatile = ii.is_volatile

        if not self.is_splittable:
            adjusted = self.new_alloca_slice_ptr(old_ptr.type)
            if is_dest:
                _update_assign_addresses(ii, adjusted)
                ii.set_operand(0, adjusted)
                _set_param_alignment(ii, 0, slice_align)
            else:
                ii.set_operand(1, adjusted)
                _set_param_alignment(ii, 1, slice_align)
            self.delete_if_trivially_dead(old_ptr)
            return False

        new_alloca_ty = self.new_ai.allocated_type
        emit_mem_cpy = (
            self.vec_ty is None
            and self.int_ty is None
            and (
                self.begin_offset > self.new_alloca_begin_offset
                or self.end_offset < self.new_alloca_end_offset
                or dl.is_scalable(new_alloca_ty)
                or self.slice_size != dl.type_store_size(new_alloca_ty)
                or not dl.type_size_equals_store_size(new_alloca_ty)
                or not new_alloca_ty.is_single_value
            )
        )
        if emit_mem_cpy and self.old_ai is self.new_ai:
            if self.new_end_offset != self.end_offset:
                ln = ii.operands[2]
                ii.set_operand(2, ConstantInt.get(ln.type, self.new_end_offset - self.new_begin_offset))
            return False

        self.state.dead_insts.append(ii)
        other_ptr = ii.operands[1] if is_dest else ii.operands[0]
        root = strip_pointer_casts(other_ptr, inbounds=True)
        if isinstance(root, AllocaInst):
            self.state.worklist.insert(root)

        other_ptr_ty = other_ptr.type
        other_as = other_ptr_ty.address_space  # type: ignore[attr-defined]
        offset_width = dl.index_size_in_bits(other_as)
        other_offset = (self.new_begin_offset - self.begin_offset) & ((1 << offset_width) - 1)
        other_align = ii.attributes.param_alignment(1 if is_dest else 0) or 1
        other_align = common_alignment(other_align, other_offset & ((1 << 64) - 1))

        if emit_mem_cpy:
            other_ptr = get_adjusted_ptr(irb, dl, other_ptr, other_offset, other_ptr_ty, other_ptr.name + ".", offset_width)
            our_ptr = self.new_alloca_slice_ptr(old_ptr.type)
            size = ConstantInt.get(ii.operands[2].type, self.new_end_offset - self.new_begin_offset)
            if is_dest:
                dest_ptr, dest_align, src_ptr, src_align = our_ptr, slice_align, other_ptr, other_align
            else:
                dest_ptr, dest_align, src_ptr, src_align = other_ptr, other_align, our_ptr, slice_align
            new = create_mem_cpy(irb, dest_ptr, dest_align, src_ptr, src_align, size, volatile)
            if tags:
                set_aa_metadata(new, tags.shift(self.new_begin_offset - self.begin_offset))
            if is_dest:
                migrate_debug_info(
                    self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, ii, new, dest_ptr, None, dl
                )
            else:
                base, off = strip_and_accumulate_constant_offsets(dest_ptr, dl, True)
                if isinstance(base, AllocaInst):
                    bits = _zext(off, dl, dest_ptr) * 8
                    migrate_debug_info(base, self.is_split, bits, self.slice_size * 8, ii, new, dest_ptr, None, dl)
            return False

        is_whole_alloca = (
            self.new_begin_offset == self.new_alloca_begin_offset and self.new_end_offset == self.new_alloca_end_offset
        )
        size_b = self.new_end_offset - self.new_begin_offset
        vec_ty = self.vec_ty
        int_ty = self.int_ty
        begin_index = self.index_of(self.new_begin_offset) if vec_ty is not None else 0
        end_index = self.index_of(self.new_end_offset) if vec_ty is not None else 0
        n = end_index - begin_index
        sub_int_ty = irb.context.int_type(size_b * 8) if int_ty is not None else None

        other_ty: Type
        if vec_ty is not None and not is_whole_alloca:
            other_ty = vec_ty.element_type if n == 1 else irb.context.vector_type(vec_ty.element_type, n)
        elif int_ty is not None and not is_whole_alloca:
            assert sub_int_ty is not None
            other_ty = sub_int_ty
        else:
            other_ty = self.new_alloca_ty

        adj_ptr = get_adjusted_ptr(irb, dl, other_ptr, other_offset, other_ptr_ty, other_ptr.name + ".", offset_width)
        src_align = other_align
        dst_align = slice_align
        if not is_dest:
            src_align, dst_align = dst_align, src_align

        if is_dest:
            dst_ptr = self.ptr_to_new_ai(ii.operands[0].type.address_space, volatile)  # type: ignore[attr-defined]
            src_ptr = adj_ptr
        else:
            dst_ptr = adj_ptr
            src_ptr = self.ptr_to_new_ai(ii.operands[1].type.address_space, volatile)  # type: ignore[attr-defined]

        src: Value
        if vec_ty is not None and not is_whole_alloca and not is_dest:
            src = self.load_new_ai("load")
            src = extract_vector(irb, src, begin_index, end_index, "vec")
        elif int_ty is not None and not is_whole_alloca and not is_dest:
            assert sub_int_ty is not None
            src = self.load_new_ai("load")
            src = convert_value(dl, irb, src, int_ty)
            src = extract_integer(dl, irb, src, sub_int_ty, self.new_begin_offset - self.new_alloca_begin_offset, "extract")
        else:
            load = irb.load(other_ty, src_ptr, "copyload", alignment=src_align, volatile=volatile)
            _copy_par_loop_metadata(load, ii)
            if tags:
                set_aa_metadata(load, self._aa_adjusted(tags, load.type))
            src = load

        if vec_ty is not None and not is_whole_alloca and is_dest:
            old: Value = self.load_new_ai("oldload")
            src = insert_vector(irb, old, src, begin_index, "vec")
        elif int_ty is not None and not is_whole_alloca and is_dest:
            old = self.load_new_ai("oldload")
            old = convert_value(dl, irb, old, int_ty)
            src = insert_integer(dl, irb, old, src, self.new_begin_offset - self.new_alloca_begin_offset, "insert")
            src = convert_value(dl, irb, src, self.new_alloca_ty)

        store = irb.store(src, dst_ptr, alignment=dst_align, volatile=volatile)
        _copy_par_loop_metadata(store, ii)
        if tags:
            set_aa_metadata(store, self._aa_adjusted(tags, src.type))
        if is_dest:
            migrate_debug_info(
                self.old_ai, self.is_split, self.new_begin_offset * 8, self.slice_size * 8, ii, store, dst_ptr, src, dl
            )
        else:
            base, off = strip_and_accumulate_constant_offsets(dst_ptr, dl, True)
            if isinstance(base, AllocaInst):
                bits = _zext(off, dl, dst_ptr) * 8
                migrate_debug_info(base, self.is_split, bits, self.slice_size * 8, ii, store, dst_ptr, src, dl)
        return not volatile

    # --- other intrinsics ---------------------------------------------------------------------------
    def visit_intrinsic(self, ii: CallInst) -> bool:
        self.state.dead_insts.append(ii)
        old_ptr = self.old_ptr
        assert old_ptr is not None
        if is_droppable(ii):
            drop_droppable_uses(old_ptr, lambda u: u.user is ii)
            return True
        if ii.intrinsic_base in _LAUNDER_OR_STRIP:
            return True
        assert is_lifetime_start_or_end(ii)
        if self.new_begin_offset != self.new_alloca_begin_offset or self.new_end_offset != self.new_alloca_end_offset:
            return True
        size = ConstantInt.get(ii.operands[0].type, self.new_end_offset - self.new_begin_offset)
        irb = self.irb
        ptr_ty = irb.context.pointer_type(old_ptr.type.address_space)  # type: ignore[attr-defined]
        ptr = self.new_alloca_slice_ptr(ptr_ty)
        base = "lifetime.start" if ii.intrinsic_base == "llvm.lifetime.start" else "lifetime.end"
        irb.create_intrinsic(base, [ptr.type], [size, ptr], return_type=irb.context.void)
        return True

    # --- phis and selects ---------------------------------------------------------------------------
    def fix_load_store_align(self, root: Instruction) -> None:
        """Lower the alignment of the loads and stores reached through ``root`` to the slice's
        (LLVM ``fixLoadStoreAlign``)."""
        align = self.slice_align()
        visited: set[Instruction] = {root}
        stack: list[Instruction] = [root]
        while stack:
            inst = stack.pop()
            if isinstance(inst, (LoadInst, StoreInst)):
                inst.alignment = min(inst.alignment, align)
                continue
            for user in inst.users:
                u = cast(Instruction, user)
                if u not in visited:
                    visited.add(u)
                    stack.append(u)

    def visit_phi(self, pn: PHINode) -> bool:
        old_ptr = self.old_ptr
        assert old_ptr is not None
        irb = self.irb
        saved = (irb.block, irb.insert_before, irb.debug_loc, irb.adopt_dbg_records)
        if isinstance(old_ptr, PHINode):
            bb = old_ptr.parent
            assert bb is not None
            first = bb.first_insertion_point
            if first is None:
                irb.position_at_end(bb)
            else:
                irb.position_before(first)
            irb.adopt_dbg_records = False
        else:
            irb.position_before(old_ptr)
            irb.adopt_dbg_records = True
        irb.debug_loc = old_ptr.debug_loc
        new_ptr = self.new_alloca_slice_ptr(old_ptr.type)
        for i in range(pn.num_operands):
            if pn.get_operand(i) is old_ptr:
                pn.set_operand(i, new_ptr)
        irb.block, irb.insert_before, irb.debug_loc, irb.adopt_dbg_records = saved
        self.delete_if_trivially_dead(old_ptr)
        self.fix_load_store_align(pn)
        self.phi_users[pn] = None
        return True

    def visit_select(self, si: SelectInst) -> bool:
        old_ptr = self.old_ptr
        assert old_ptr is not None
        new_ptr = self.new_alloca_slice_ptr(old_ptr.type)
        if si.get_operand(1) is old_ptr:
            si.set_operand(1, new_ptr)
        if si.get_operand(2) is old_ptr:
            si.set_operand(2, new_ptr)
        self.delete_if_trivially_dead(old_ptr)
        self.fix_load_store_align(si)
        self.select_users[si] = None
        return True


def _zext(offset: int, dl: DataLayout, ptr: Value) -> int:
    """An accumulated (signed) offset as LLVM's ``APInt::getZExtValue`` at the index width."""
    return offset & ((1 << dl.index_type_size_in_bits(ptr.type)) - 1)


# --- SROA::rewritePartition -----------------------------------------------------------------------


def rewrite_partition(state: SROAState, ai: AllocaInst, slices: AllocaSlices, p: Partition) -> AllocaInst | None:
    """Rewrite partition ``p`` of ``ai`` onto a new alloca (or ``ai`` itself when its type
    already fits) and queue the result for promotion, speculation or another round (LLVM
    ``SROA::rewritePartition``); None when nothing changed."""
    dl = state.data_layout
    ctx = ai.context
    size = p.size()
    slice_ty: Type | None = None
    slice_vec_ty: VectorType | None = None
    part = p.slices()
    common_ty, common_int_ty = (
        find_common_type(part, part[0].begin_offset, p.end_offset) if part else (None, None)
    )
    if common_ty is not None and _alloc_size(dl, common_ty) >= size:
        slice_ty = common_ty
        slice_vec_ty = common_ty if isinstance(common_ty, VectorType) else None
    if slice_ty is None:
        slice_ty = get_type_partition(dl, ai.allocated_type, p.begin_offset, size)
    if slice_ty is None and common_int_ty is not None and _alloc_size(dl, common_int_ty) >= size:
        slice_ty = common_int_ty
        slice_vec_ty = None
    int_array = isinstance(slice_ty, ArrayType) and slice_ty.element_type.is_integer
    if (slice_ty is None or int_array) and dl.is_legal_integer(size * 8):
        slice_ty = ctx.int_type(size * 8)
    if slice_vec_ty is not None and not check_vector_type_for_promotion(p, slice_vec_ty, dl):
        tp = get_type_partition(dl, ai.allocated_type, p.begin_offset, size)
        if isinstance(tp, VectorType) and check_vector_type_for_promotion(p, tp, dl):
            slice_ty = tp
    if slice_ty is None:
        slice_ty = ctx.array_type(ctx.i8, size)

    is_integer_promotable = is_integer_widening_viable(p, slice_ty, dl)
    vec_ty = None if is_integer_promotable else is_vector_promotion_viable(p, dl)
    if vec_ty is not None:
        slice_ty = vec_ty

    new_ai: AllocaInst
    if slice_ty is ai.allocated_type and p.begin_offset == 0:
        new_ai = ai
    else:
        alignment = common_alignment(ai.alignment, p.begin_offset)
        unconstrained = alignment <= dl.abi_alignment(slice_ty)
        new_ai = AllocaInst(
            slice_ty,
            alignment=dl.pref_alignment(slice_ty) if unconstrained else alignment,
            address_space=ai.address_space,
        )
        new_ai.insert_before(ai)
        adopt_dbg_records(new_ai, ai)
        new_ai.set_name("%s.sroa.%d" % (ai.name, p.si))
        loc = ai.debug_loc
        if loc is not None:
            new_ai.debug_loc = loc
        NUM_NEW_ALLOCAS.add()

    ppw_old_size = len(state.post_promotion_worklist)
    phi_users: dict[PHINode, None] = {}
    select_users: dict[SelectInst, None] = {}
    rewriter = AllocaSliceRewriter(
        dl, slices, state, ai, new_ai, p.begin_offset, p.end_offset, is_integer_promotable, vec_ty, phi_users, select_users
    )
    if vec_ty is not None:
        NUM_VECTORIZED.add()
    promotable = True
    num_uses = 0
    for s in list(p.split_tails):
        promotable &= rewriter.visit(s)
        num_uses += 1
    for s in part:
        promotable &= rewriter.visit(s)
        num_uses += 1
    NUM_ALLOCA_PARTITION_USES.add(num_uses)
    MAX_USES_PER_ALLOCA_PARTITION.update_max(num_uses)

    for phi in list(phi_users):
        if not is_safe_phi_to_speculate(phi):
            promotable = False
            phi_users.clear()
            select_users.clear()
            break

    new_selects: list[tuple[SelectInst, RewriteableMemOps]] = []
    for sel in list(select_users):
        maybe_ops = is_safe_select_to_speculate(sel, state.preserve_cfg)
        if maybe_ops is None:
            promotable = False
            phi_users.clear()
            select_users.clear()
            new_selects.clear()
            break
        new_selects.append((sel, maybe_ops))

    if promotable:
        for use in slices.dead_uses_if_promotable:
            old_inst = use.value
            drop_droppable_use(use)
            if isinstance(old_inst, Instruction) and is_instruction_trivially_dead(old_inst):
                state.dead_insts.append(old_inst)
        if not phi_users and not select_users:
            state.promotable_allocas.insert(new_ai)
        else:
            for phi in phi_users:
                state.speculatable_phis.insert(phi)
            for sel, ops in new_selects:
                if sel not in state.selects_to_rewrite:
                    state.selects_to_rewrite[sel] = ops
            state.worklist.insert(new_ai)
    else:
        while len(state.post_promotion_worklist) > ppw_old_size:
            state.post_promotion_worklist.pop()
        if new_ai is ai:
            return None
        state.worklist.insert(new_ai)
    return new_ai


def _alloc_size(dl: DataLayout, ty: Type) -> int:
    """``DL.getTypeAllocSize(ty).getFixedValue()``; a scalable type counts as no size."""
    if dl.is_scalable(ty):
        return 0
    return dl.type_alloc_size(ty)
