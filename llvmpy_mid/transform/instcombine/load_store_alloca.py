"""InstCombine folds of ``alloca``, ``load`` and ``store`` (LLVM
``lib/Transforms/InstCombine/InstCombineLoadStoreAlloca.cpp``), with the
metadata helpers of ``lib/Transforms/Utils/Local.cpp`` they use
(``copyMetadataForLoad``, ``combineMetadataForCSE``, ``getOrEnforceKnownAlignment``).

* ``alloca``: canonical array size (``i32 1``, constant counts as arrays, the
  index type), zero-sized allocas merged at the top of the entry block, an
  alloca only written by a ``memcpy`` from constant memory replaced by the
  source, then the generic dead-allocation removal (``visit_alloc_site``).
* ``load``: InstSimplify, the loaded type matched to a no-op cast user,
  variable indices into one-element objects made zero, aggregate loads
  unpacked, store-to-load forwarding and load CSE in the block, loads of null
  or undef made unreachable, loads through selects of safe pointers.
* ``store``: the stored value's bitcast dropped, aggregate stores unpacked,
  stores to single-use allocas and constant memory deleted, the earlier store
  to the same place deleted, ``store (load P), P`` deleted, stores to null
  poisoned, stores of undef deleted; :func:`merge_store_into_successor` (called
  from the branch visitor) sinks two stores into their common successor.

Where LLVM asks ``AA`` (the memcpy source and the store address in constant memory,
``getModRefInfoMask``; the writes between a load and its available value,
``FindAvailableLoadedValue`` with a ``BatchAAResults``), the function's ``AAManager``
result (:attr:`InstCombiner.aa`) answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.transform.utils.local import try_enforce_alignment
from llvmpy_mid.analysis.instsimplify.other import simplify_load_inst
from llvmpy_mid.analysis.alias.aa_results import BatchAAResults, is_mod_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.loads import (
    find_available_loaded_value,
    is_bit_or_noop_pointer_castable,
    is_dereferenceable_and_aligned_pointer,
    is_safe_to_load_unconditionally_for_type,
)
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull, PoisonValue, UndefValue
from llvmpy_mid.ir.function import null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalObject, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst, get_indexed_type
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.instructions.vector import ExtractElementInst, InsertValueInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.local_metadata import combine_metadata_for_cse, copy_metadata_for_load

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

MAX_COPIED_FROM_CONSTANT_USERS = 300
"""LLVM ``-instcombine-max-copied-from-constant-users``."""

MAX_ARRAY_SIZE_FOR_COMBINE = 1024
"""LLVM ``-instcombine-maxarray-size``."""

_MEMCPY_LIKE = ("llvm.memcpy", "llvm.memmove", "llvm.memcpy.inline")


def _option(ic: InstCombiner, name: str, default: int) -> int:
    """The value in force of the InstCombine option ``name`` (``default`` if not an integer)."""
    from llvmpy_mid.transform.instcombine.combiner import option

    v = option(name)
    return int(v) if isinstance(v, (int, bool)) else default



# =================================================================================================
# alignment (Local.cpp getOrEnforceKnownAlignment)
# =================================================================================================


def get_or_enforce_known_alignment(ic: InstCombiner, v: Value, pref_align: int | None, cxt_i: Instruction) -> int:
    """The alignment known for ``v`` from its known bits, raised towards ``pref_align``
    when the object allows (LLVM ``getOrEnforceKnownAlignment``)."""
    known = ic.compute_known_bits(v, 0, cxt_i)
    tz = min(known.count_min_trailing_zeros(), 32)
    align = 1 << min(known.bit_width - 1, tz)
    if pref_align is not None and pref_align > align:
        align = max(align, try_enforce_alignment(v, pref_align, ic.dl))
    return align


# =================================================================================================
# alloca
# =================================================================================================


def _is_lifetime(i: Value) -> bool:
    return isinstance(i, CallBase) and i.intrinsic_base in ("llvm.lifetime.start", "llvm.lifetime.end")


def _is_mem_transfer(i: Value) -> bool:
    return isinstance(i, CallBase) and i.intrinsic_base in _MEMCPY_LIKE


def _is_volatile_mem_intrinsic(i: CallBase) -> bool:
    v = i.args[3] if i.arg_size > 3 else None
    return isinstance(v, ConstantInt) and v.value != 0


def is_only_copied_from_constant_memory(ic: InstCombiner, ai: AllocaInst, to_delete: list[Instruction]) -> CallBase | None:
    """The single ``memcpy``/``memmove`` from constant memory into the start of ``ai``, when
    every other use only reads it (LLVM ``isOnlyCopiedFromConstantMemory``); lifetime
    markers met on the way go to ``to_delete``."""
    limit = _option(ic, "instcombine-max-copied-from-constant-users", MAX_COPIED_FROM_CONSTANT_USERS)
    the_copy: CallBase | None = None
    worklist: list[tuple[Value, bool]] = [(ai, False)]
    visited: set[tuple[int, bool]] = set()
    while worklist:
        value, is_offset = worklist.pop()
        key = (id(value), is_offset)
        if key in visited:
            continue
        visited.add(key)
        if len(visited) > limit:
            return None
        for use in value.uses:
            i = use.user
            if isinstance(i, LoadInst):
                if not i.is_simple:
                    return None
                continue
            if isinstance(i, (PHINode, SelectInst)):
                worklist.append((i, True))
                continue
            op = getattr(i, "opcode", None)
            if op in ("bitcast", "addrspacecast") and isinstance(i, Instruction):
                worklist.append((i, is_offset))
                continue
            if isinstance(i, GetElementPtrInst):
                worklist.append((i, is_offset or not i.has_all_zero_indices))
                continue
            if isinstance(i, CallBase):
                if use.operand_no == len(i.operands) - 1:
                    continue  # the callee
                data_op = use.operand_no
                is_arg = data_op < i.arg_size
                if is_arg and i.param_has_attr(data_op, "inalloca"):
                    return None
                no_capture = is_arg and i.param_has_attr(data_op, "nocapture")
                only_reads_op = is_arg and (
                    i.param_has_attr(data_op, "byval") or i.param_has_attr(data_op, "readonly") or i.param_has_attr(data_op, "readnone")
                )
                if (i.only_reads_memory and (i._use_head is None or no_capture)) or (only_reads_op and no_capture):
                    continue
                if is_arg and i.param_has_attr(data_op, "byval"):
                    continue
            if _is_lifetime(i):
                to_delete.append(cast(Instruction, i))
                continue
            if not _is_mem_transfer(i):
                return None
            mi = cast(CallBase, i)
            if _is_volatile_mem_intrinsic(mi):
                return None
            if use.operand_no == 1:
                continue
            if the_copy is not None:
                return None
            if is_offset:
                return None
            if use.operand_no != 0:
                return None
            if is_mod_set(ic.aa.get_mod_ref_info_mask(MemoryLocation.get_before_or_after(mi.args[1]))):
                return None
            the_copy = mi
    return the_copy


def _is_dereferenceable_for_alloca_size(v: Value, ai: AllocaInst, dl: DataLayout) -> bool:
    if ai.is_array_allocation:
        return False
    size = dl.type_store_size(ai.allocated_type)
    if not size:
        return False
    return is_dereferenceable_and_aligned_pointer(v, ai.alignment or 1, size, dl, size_width=64)


def _simplify_alloca_array_size(ic: InstCombiner, ai: AllocaInst) -> Instruction | None:
    """alloca T, C -> alloca [C x T]; the count as ``i32 1`` or of the index type."""
    ctx = ai.type.context
    n = ai.array_size
    if not ai.is_array_allocation:
        if n.type.is_integer_bits(32):
            return None
        return ic.replace_operand(ai, 0, ConstantInt.get(ctx.i32, 1))
    if isinstance(n, ConstantInt):
        if n.value.bit_length() <= 64:
            new_ty = ctx.array_type(ai.allocated_type, n.value)
            new = ic.builder.alloca(new_ty, None, ai.name, alignment=ai.alignment, address_space=ai.address_space)
            new.inalloca = ai.inalloca
            from llvmpy_mid.transform.utils.local import replace_all_dbg_uses_with

            replace_all_dbg_uses_with(ai, new, new, ic.dt)
            return ic.replace_inst_uses_with(ai, new)
    if isinstance(n, UndefValue):
        return ic.replace_inst_uses_with(ai, Constant.get_null_value(ai.type))
    idx_ty = ic.dl.index_type(ai.type)
    if n.type is not idx_ty:
        from llvmpy_mid.transform.instcombine.gep import create_int_cast

        v = create_int_cast(ic.builder, n, idx_ty, False)
        return ic.replace_operand(ai, 0, v)
    return None


def visit_alloca(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Canonical array size; zero-sized allocas merged in the entry block; an alloca
    only copied from constant memory replaced by the source; dead allocations
    removed (LLVM ``visitAllocaInst``)."""
    assert isinstance(i, AllocaInst)
    ai = i
    dl = ic.dl
    r = _simplify_alloca_array_size(ic, ai)
    if r is not None:
        return r
    aty = ai.allocated_type
    if aty.is_sized and dl.type_alloc_size(aty) == 0:
        if ai.is_array_allocation:
            return ic.replace_operand(ai, 0, ConstantInt.get(ai.array_size.type, 1))
        fn = ai.function
        assert fn is not None
        entry = fn.entry_block
        assert entry is not None
        first = _first_non_phi_or_dbg(entry)
        if first is not ai:
            assert first is not None
            entry_ai = first if isinstance(first, AllocaInst) else None
            if entry_ai is None or not entry_ai.allocated_type.is_sized or dl.type_alloc_size(entry_ai.allocated_type) != 0:
                ai.move_before(first)
                return ai
            max_align = max(entry_ai.alignment or 1, ai.alignment or 1)
            entry_ai.alignment = max_align
            return ic.replace_inst_uses_with(ai, entry_ai)

    to_delete: list[Instruction] = []
    copy = is_only_copied_from_constant_memory(ic, ai, to_delete)
    if copy is not None:
        the_src = strip_pointer_casts(copy.args[1])
        alloca_align = ai.alignment or 1
        source_align = get_or_enforce_known_alignment(ic, the_src, alloca_align, ai)
        if alloca_align <= source_align and _is_dereferenceable_for_alloca_size(the_src, ai, dl) and not isinstance(the_src, Instruction):
            src_as = getattr(the_src.type, "address_space", 0)
            if ai.address_space == src_as:
                for d in to_delete:
                    ic.erase_inst_from_function(d)
                new_i = ic.replace_inst_uses_with(ai, the_src)
                ic.erase_inst_from_function(copy)
                return new_i
            replacer = PointerReplacer(ic, ai, src_as)
            if replacer.collect_users():
                for d in to_delete:
                    ic.erase_inst_from_function(d)
                replacer.replace_pointer(the_src)

    from llvmpy_mid.transform.instcombine import instruction_combining

    visit_alloc_site = getattr(instruction_combining, "visit_alloc_site", None)
    if visit_alloc_site is None:
        return None
    res: Instruction | None = visit_alloc_site(ic, ai)
    return res


def _first_non_phi_or_dbg(bb: object) -> Instruction | None:
    inst = bb.first_non_phi  # type: ignore[attr-defined]
    while inst is not None and isinstance(inst, CallBase) and inst.intrinsic_base.startswith("llvm.dbg."):
        inst = inst.next_instruction
    return cast("Instruction | None", inst)


class PointerReplacer:
    """Rewrites the loads (through GEPs, phis, selects, memcpys, address-space casts)
    of an alloca to read another address space's pointer instead (LLVM ``PointerReplacer``)."""

    __slots__ = ("ic", "root", "from_as", "worklist", "in_worklist", "revisit", "work_map")

    def __init__(self, ic: InstCombiner, root: Instruction, from_as: int) -> None:
        self.ic = ic
        self.root = root
        self.from_as = from_as
        self.worklist: list[Instruction] = []
        self.in_worklist: set[Instruction] = set()
        self.revisit: list[Instruction] = []
        self.work_map: dict[Value, Value] = {}

    def _add(self, i: Instruction) -> None:
        if i not in self.in_worklist:
            self.in_worklist.add(i)
            self.worklist.append(i)

    def _available(self, i: Value) -> bool:
        return i is self.root or i in self.in_worklist

    def _valid_asc(self, i: Value, from_as: int) -> bool:
        if getattr(i, "opcode", None) != "addrspacecast" or not isinstance(i, Instruction):
            return False
        to_as = getattr(i.type, "address_space", 0)
        return from_as == to_as

    def collect_users(self) -> bool:
        if not self._collect(self.root):
            return False
        return all(i in self.in_worklist for i in self.revisit)

    def _collect(self, i: Instruction) -> bool:
        for u in list(i.users):
            inst = cast(Instruction, u)
            if isinstance(inst, LoadInst):
                if inst.volatile:
                    return False
                self._add(inst)
            elif isinstance(inst, PHINode):
                if any(not isinstance(v, Instruction) for v in inst.incoming_values):
                    return False
                if any(not self._available(v) for v in inst.incoming_values):
                    self.revisit.append(inst)
                    continue
                self._add(inst)
                if not self._collect(inst):
                    return False
            elif isinstance(inst, SelectInst):
                if not isinstance(inst.true_value, Instruction) or not isinstance(inst.false_value, Instruction):
                    return False
                if not self._available(inst.true_value) or not self._available(inst.false_value):
                    self.revisit.append(inst)
                    continue
                self._add(inst)
                if not self._collect(inst):
                    return False
            elif isinstance(inst, GetElementPtrInst):
                self._add(inst)
                if not self._collect(inst):
                    return False
            elif _is_mem_transfer(inst):
                if _is_volatile_mem_intrinsic(cast(CallBase, inst)):
                    return False
                self._add(inst)
            elif self._valid_asc(inst, self.from_as):
                self._add(inst)
                if not self._collect(inst):
                    return False
            elif _is_lifetime(inst):
                continue
            else:
                return False
        return True

    def replace_pointer(self, v: Value) -> None:
        self.work_map[self.root] = v
        for item in self.worklist:
            self._replace(item)

    def _replace(self, i: Instruction) -> None:
        ic = self.ic
        wm = self.work_map
        if i in wm:
            return
        if isinstance(i, LoadInst):
            v = wm[i.pointer_operand]
            new = LoadInst(i.type, v, volatile=i.volatile, alignment=i.alignment, ordering=i.ordering, sync_scope=i.sync_scope)
            from llvmpy_mid.transform.instcombine.combiner import take_name

            take_name(new, i)
            copy_metadata_for_load(new, i)
            ic.insert_new_inst_with(new, i)
            ic.replace_inst_uses_with(i, new)
            wm[i] = new
        elif isinstance(i, PHINode):
            new_ty = wm[i.get_incoming_value(0)].type
            new_pn = PHINode(new_ty, name=i.name)
            new_pn.insert_before(i)
            for k in range(i.num_incoming):
                new_pn.add_incoming(wm[i.get_incoming_value(k)], i.get_incoming_block(k))
            wm[i] = new_pn
        elif isinstance(i, GetElementPtrInst):
            v = wm[i.pointer_operand]
            new_gep = GetElementPtrInst(i.source_element_type, v, i.indices)
            ic.insert_new_inst_with(new_gep, i)
            from llvmpy_mid.transform.instcombine.combiner import take_name

            take_name(new_gep, i)
            new_gep.gep_flags = i.gep_flags
            wm[i] = new_gep
        elif isinstance(i, SelectInst):
            tv = wm.get(i.true_value, i.true_value)
            fv = wm.get(i.false_value, i.false_value)
            new_si = SelectInst(i.condition, tv, fv)
            for kind, node in i.metadata_items():
                if kind != "dbg":
                    new_si.set_metadata(kind, node)
            ic.insert_new_inst_with(new_si, i)
            from llvmpy_mid.transform.instcombine.combiner import take_name

            take_name(new_si, i)
            wm[i] = new_si
        elif _is_mem_transfer(i):
            mc = cast(CallBase, i)
            dest = wm.get(mc.args[0], mc.args[0])
            src = wm.get(mc.args[1], mc.args[1])
            b = ic.builder
            b.position_before(mc)
            b.debug_loc = mc.debug_loc
            base = mc.intrinsic_base[5:]
            args = [dest, src, mc.args[2], mc.args[3]]
            new_call = b.create_intrinsic(base, [dest.type, src.type, mc.args[2].type], args, return_type=mc.type)
            new_call.attributes = mc.attributes
            for kind in ("tbaa", "tbaa.struct", "alias.scope", "noalias"):
                md = mc.get_metadata(kind)
                if md is not None:
                    new_call.set_metadata(kind, md)
            ic.erase_inst_from_function(mc)
            wm[i] = new_call
        elif getattr(i, "opcode", None) == "addrspacecast":
            v = wm[i.operands[0]]
            if getattr(v.type, "address_space", 0) != getattr(i.type, "address_space", 0):
                new_c = CastInst.create("addrspacecast", v, i.type)
                from llvmpy_mid.transform.instcombine.combiner import take_name

                take_name(new_c, i)
                ic.insert_new_inst_with(new_c, i)
                wm[i] = new_c
            else:
                wm[i] = v


# =================================================================================================
# load
# =================================================================================================


def _is_supported_atomic_type(ty: Type) -> bool:
    return ty.is_integer or ty.is_pointer or ty.is_floating_point


def combine_load_to_new_type(ic: InstCombiner, li: LoadInst, new_ty: Type, suffix: str = "") -> LoadInst:
    """A load of ``new_ty`` from ``li``'s address with its alignment, volatility,
    ordering and the metadata that still apply (LLVM ``combineLoadToNewType``)."""
    new = ic.builder.load(
        new_ty, li.pointer_operand, li.name + suffix if li.name or suffix else "", alignment=li.alignment, volatile=li.volatile
    )
    new.ordering = li.ordering
    new.sync_scope = li.sync_scope
    copy_metadata_for_load(new, li)
    return new


def _is_noop_cast(c: CastInst, dl: DataLayout) -> bool:
    op = c.opcode
    if op == "bitcast":
        return True
    if op in ("ptrtoint", "inttoptr"):
        src = c.operands[0].type
        ptr_ty = src if op == "ptrtoint" else c.type
        int_ty = c.type if op == "ptrtoint" else src
        return dl.type_size_in_bits(int_ty.scalar_type) == dl.pointer_type_size_in_bits(ptr_ty.scalar_type)
    return False


def _combine_load_to_operation_type(ic: InstCombiner, load: LoadInst) -> Instruction | None:
    """load T, P then (noop cast to U) -> load U, P (LLVM ``combineLoadToOperationType``)."""
    if not load.is_unordered:
        return None
    if load._use_head is None:
        return None
    p = load.pointer_operand
    if isinstance(p, AllocaInst) and p.swifterror:
        return None
    if isinstance(p, _swifterror_arg_types()) and _is_swifterror_arg(p):
        return None
    if load.has_one_use:
        user = load._use_head.user
        if isinstance(user, CastInst):
            dest = user.type
            if (
                _is_noop_cast(user, ic.dl)
                and load.type.is_ptr_or_ptr_vector == dest.is_ptr_or_ptr_vector
                and (not load.is_atomic or _is_supported_atomic_type(dest))
            ):
                new = combine_load_to_new_type(ic, load, dest)
                user.replace_all_uses_with(new)
                ic.erase_inst_from_function(user)
                return load
    return None


def _swifterror_arg_types() -> tuple[type, ...]:
    from llvmpy_mid.ir.function import Argument

    return (Argument,)


def _is_swifterror_arg(a: Value) -> bool:
    has = getattr(a, "has_attribute", None)
    return bool(has("swifterror")) if has is not None else False


def _common_alignment(a: int, offset: int) -> int:
    """``commonAlignment``: the largest power of two dividing both."""
    if offset == 0:
        return a
    low = offset & -offset
    return min(a, low)


def _unpack_load_to_aggregate(ic: InstCombiner, li: LoadInst) -> Instruction | None:
    """load {A} -> insertvalue poison, (load A), 0; padless struct / small array loads
    -> one load per element (LLVM ``unpackLoadToAggregate``)."""
    if not li.is_simple:
        return None
    t = li.type
    if not isinstance(t, (StructType, ArrayType)):
        return None
    name = li.name
    b = ic.builder
    dl = ic.dl
    aa_md = [(k, m) for k, m in li.metadata_items() if k in ("tbaa", "tbaa.struct", "alias.scope", "noalias")]

    def set_aa(x: Instruction) -> None:
        for k, m in aa_md:
            x.set_metadata(k, m)

    ctx = t.context
    if isinstance(t, StructType):
        n = len(t.elements)
        if n == 1:
            nl = combine_load_to_new_type(ic, li, t.elements[0], ".unpack")
            set_aa(nl)
            return ic.replace_inst_uses_with(li, b.create_insert_value(PoisonValue.get(t), nl, 0, name))
        if dl.is_scalable(t):
            return None
        sl = dl.struct_layout(t)
        if _struct_has_padding(dl, t):
            return None
        align = li.alignment
        addr = li.pointer_operand
        zero = ConstantInt.get(ctx.i32, 0)
        v: Value = PoisonValue.get(t)
        for k in range(n):
            ptr = b.create_gep(t, addr, [zero, ConstantInt.get(ctx.i32, k)], name + ".elt", inbounds=True)
            ld = b.load(t.elements[k], ptr, name + ".unpack", alignment=_common_alignment(align, sl.element_offset(k)))
            set_aa(ld)
            v = b.create_insert_value(v, ld, k)
        v.name = name
        return ic.replace_inst_uses_with(li, v)
    at = t
    et = at.element_type
    n = at.count
    if n == 1:
        nl = combine_load_to_new_type(ic, li, et, ".unpack")
        set_aa(nl)
        return ic.replace_inst_uses_with(li, b.create_insert_value(PoisonValue.get(t), nl, 0, name))
    if n > _option(ic, "instcombine-maxarray-size", MAX_ARRAY_SIZE_FOR_COMBINE):
        return None
    elt_size = dl.type_alloc_size(et)
    align = li.alignment
    addr = li.pointer_operand
    zero64 = ConstantInt.get(ctx.i64, 0)
    v = PoisonValue.get(t)
    offset = 0
    for k in range(n):
        ptr = b.create_gep(at, addr, [zero64, ConstantInt.get(ctx.i64, k)], name + ".elt", inbounds=True)
        ld = b.load(et, ptr, name + ".unpack", alignment=_common_alignment(align, offset))
        set_aa(ld)
        v = b.create_insert_value(v, ld, k)
        offset += elt_size
    v.name = name
    return ic.replace_inst_uses_with(li, v)


def _struct_has_padding(dl: DataLayout, st: StructType) -> bool:
    return dl.struct_layout(st).has_padding


def _is_object_size_less_than_or_eq(v: Value, max_size: int, dl: DataLayout) -> bool:
    visited: set[int] = set()
    worklist: list[Value] = [v]
    while worklist:
        p = strip_pointer_casts(worklist.pop())
        if id(p) in visited:
            continue
        visited.add(id(p))
        if isinstance(p, SelectInst):
            worklist.append(p.true_value)
            worklist.append(p.false_value)
            continue
        if isinstance(p, PHINode):
            worklist.extend(p.incoming_values)
            continue
        if isinstance(p, GlobalAlias):
            if p.is_interposable:
                return False
            worklist.append(p.aliasee)
            continue
        if isinstance(p, AllocaInst):
            if not p.allocated_type.is_sized:
                return False
            cs = p.array_size
            if not isinstance(cs, ConstantInt):
                return False
            if dl.is_scalable(p.allocated_type):
                return False
            if cs.value * dl.type_alloc_size(p.allocated_type) > max_size:
                return False
            continue
        if isinstance(p, GlobalVariable):
            if not p.has_definitive_initializer or not p.is_constant_global:
                return False
            if dl.type_alloc_size(p.value_type) > max_size:
                return False
            continue
        return False
    return True


def _can_replace_gep_idx_with_zero(ic: InstCombiner, gepi: GetElementPtrInst, mem_i: Instruction) -> int | None:
    ops = gepi.operands
    if len(ops) < 2:
        return None
    idx = 1
    while idx < len(ops):
        v = ops[idx]
        if isinstance(v, ConstantInt) and v.value == 0:
            idx += 1
            continue
        break
    if idx == len(ops):
        return None
    if isinstance(ops[idx], Constant):
        return None
    src_ty = gepi.source_element_type
    dl = ic.dl
    if dl.is_scalable(src_ty):
        return None
    alloc_ty = get_indexed_type(src_ty, ops[1 : idx + 1])
    if alloc_ty is None or not alloc_ty.is_sized:
        return None
    size = dl.type_alloc_size(alloc_ty)
    if idx + 1 != len(ops) and not gepi.inbounds:
        return None
    if not _is_object_size_less_than_or_eq(ops[0], size, dl):
        return None
    for k in range(idx + 1, len(ops)):
        if not ic.compute_known_bits(ops[k], 0, mem_i).is_non_negative():
            return None
    return idx


def _replace_gep_idx_with_zero(ic: InstCombiner, ptr: Value, mem_i: Instruction) -> Instruction | None:
    """gep T, P, 0, %x where P's object holds one T -> gep T, P, 0, 0 (LLVM ``replaceGEPIdxWithZero``)."""
    if isinstance(ptr, GetElementPtrInst):
        idx = _can_replace_gep_idx_with_zero(ic, ptr, mem_i)
        if idx is not None:
            new = ptr.clone()
            new.set_operand(idx, Constant.get_null_value(ptr.operands[idx].type))
            ic.insert_new_inst_before(new, ptr)
            return new
    return None


def _can_simplify_null_load_or_gep(li: LoadInst, op: Value) -> bool:
    fn = li.function
    if isinstance(op, GetElementPtrInst):
        if isinstance(op.operands[0], ConstantPointerNull) and not null_pointer_is_defined(fn, op.pointer_address_space):
            return True
    if isinstance(op, UndefValue) or (isinstance(op, ConstantPointerNull) and not null_pointer_is_defined(fn, li.pointer_address_space)):
        return True
    return False


def _create_non_terminator_unreachable(ic: InstCombiner, at: Instruction) -> None:
    """``CreateNonTerminatorUnreachable``: ``store i1 true, ptr poison`` before ``at``."""
    ctx = at.type.context
    st = StoreInst(ConstantInt.get(ctx.i1, 1), PoisonValue.get(ctx.ptr), alignment=1)
    ic.insert_new_inst_with(st, at)


def visit_load(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """InstSimplify, load type canonicalisation, zero GEP indices, aggregate unpacking,
    forwarding from an earlier load/store, loads of null, loads through selects
    (LLVM ``visitLoadInst``)."""
    assert isinstance(i, LoadInst)
    li = i
    op = li.pointer_operand
    res = simplify_load_inst(li, op, ic.query(li))
    if res is not None:
        return ic.replace_inst_uses_with(li, res)
    r = _combine_load_to_operation_type(ic, li)
    if r is not None:
        return r
    new_gepi = _replace_gep_idx_with_zero(ic, op, li)
    if new_gepi is not None:
        return ic.replace_operand(li, 0, new_gepi)
    r = _unpack_load_to_aggregate(ic, li)
    if r is not None:
        return r
    avail, is_load_cse = find_available_loaded_value(li, BatchAAResults(ic.aa))
    if avail is not None:
        if is_load_cse:
            combine_metadata_for_cse(cast(Instruction, avail), li, False)
        name = li.name + ".cast"
        return ic.replace_inst_uses_with(li, _create_bit_or_pointer_cast(ic, avail, li.type, name))
    if not li.is_unordered:
        return None
    if _can_simplify_null_load_or_gep(li, op):
        _create_non_terminator_unreachable(ic, li)
        return ic.replace_inst_uses_with(li, PoisonValue.get(li.type))
    if op.has_one_use:
        if isinstance(op, SelectInst):
            align = li.alignment
            dl = ic.dl
            s1, s2 = op.operands[1], op.operands[2]
            if is_safe_to_load_unconditionally_for_type(s1, li.type, align, dl, op) and is_safe_to_load_unconditionally_for_type(
                s2, li.type, align, dl, op
            ):
                b = ic.builder
                v1 = b.load(li.type, s1, s1.name + ".val", alignment=align)
                v2 = b.load(li.type, s2, s2.name + ".val", alignment=align)
                v1.ordering = li.ordering
                v1.sync_scope = li.sync_scope
                v2.ordering = li.ordering
                v2.sync_scope = li.sync_scope
                return SelectInst(op.condition, v1, v2)
            fn = op.function
            if isinstance(s1, ConstantPointerNull) and not null_pointer_is_defined(fn, li.pointer_address_space):
                return ic.replace_operand(li, 0, s2)
            if isinstance(s2, ConstantPointerNull) and not null_pointer_is_defined(fn, li.pointer_address_space):
                return ic.replace_operand(li, 0, s1)
    return None


def _create_bit_or_pointer_cast(ic: InstCombiner, v: Value, ty: Type, name: str) -> Value:
    """``CreateBitOrPointerCast``: ptrtoint, inttoptr, bitcast or ``v`` itself."""
    if v.type is ty:
        return v
    src_ptr = v.type.is_ptr_or_ptr_vector
    dst_ptr = ty.is_ptr_or_ptr_vector
    if src_ptr and not dst_ptr:
        return ic.builder.create_cast("ptrtoint", v, ty, name)
    if dst_ptr and not src_ptr:
        return ic.builder.create_cast("inttoptr", v, ty, name)
    return ic.builder.create_cast("bitcast", v, ty, name)


# =================================================================================================
# store
# =================================================================================================

_STORE_MD = (
    "DIAssignID", "tbaa", "prof", "fpmath", "tbaa.struct", "alias.scope", "noalias",
    "nontemporal", "llvm.mem.parallel_loop_access", "llvm.access.group",
)  # fmt: skip


def combine_store_to_new_value(ic: InstCombiner, si: StoreInst, v: Value) -> StoreInst:
    """A store of ``v`` to ``si``'s address keeping alignment, ordering and the metadata
    that apply (LLVM ``combineStoreToNewValue``)."""
    new = ic.builder.store(v, si.pointer_operand, alignment=si.alignment, volatile=si.volatile)
    new.ordering = si.ordering
    new.sync_scope = si.sync_scope
    for kind, node in si.metadata_items():
        if kind in _STORE_MD:
            new.set_metadata(kind, node)
    return new


def _like_bit_cast_from_vector(ic: InstCombiner, v: Value) -> Value | None:
    u: Value | None = None
    while isinstance(v, InsertValueInst):
        e = v.inserted_value_operand
        if not isinstance(e, ExtractElementInst):
            return None
        w = e.vector_operand
        if u is None:
            u = w
        elif u is not w:
            return None
        ci = e.index_operand
        if not isinstance(ci, ConstantInt) or v.num_indices != 1 or ci.value != v.indices[0]:
            return None
        v = v.aggregate_operand
    if not isinstance(v, UndefValue) or u is None:
        return None
    ut = u.type
    vt = v.type
    dl = ic.dl
    assert isinstance(ut, VectorType)
    if dl.type_store_size_in_bits(ut) != dl.type_store_size_in_bits(vt):
        return None
    if isinstance(vt, ArrayType):
        if vt.count != ut.count:
            return None
    else:
        st = cast(StructType, vt)
        if len(st.elements) != ut.count:
            return None
        if any(e is not ut.element_type for e in st.elements):
            return None
    return u


def _combine_store_to_value_type(ic: InstCombiner, si: StoreInst) -> bool:
    """store (bitcast X), P -> store X, P (LLVM ``combineStoreToValueType``)."""
    if not si.is_unordered:
        return False
    p = si.pointer_operand
    if isinstance(p, AllocaInst) and p.swifterror:
        return False
    if _is_swifterror_arg(p):
        return False
    v = si.value_operand
    if getattr(v, "opcode", None) == "bitcast" and isinstance(v, Instruction):
        v = v.operands[0]
        if not si.is_atomic or _is_supported_atomic_type(v.type):
            combine_store_to_new_value(ic, si, v)
            return True
    u = _like_bit_cast_from_vector(ic, v)
    if u is not None:
        if not si.is_atomic or _is_supported_atomic_type(u.type):
            combine_store_to_new_value(ic, si, u)
            return True
    return False


def _unpack_store_to_aggregate(ic: InstCombiner, si: StoreInst) -> bool:
    """store {A, B} V, P -> one store per element (LLVM ``unpackStoreToAggregate``)."""
    if not si.is_simple:
        return False
    v = si.value_operand
    t = v.type
    if not isinstance(t, (StructType, ArrayType)):
        return False
    b = ic.builder
    dl = ic.dl
    ctx = t.context
    aa_md = [(k, m) for k, m in si.metadata_items() if k in ("tbaa", "tbaa.struct", "alias.scope", "noalias")]
    if isinstance(t, StructType):
        count = len(t.elements)
        if count == 1:
            combine_store_to_new_value(ic, si, b.create_extract_value(v, 0))
            return True
        if dl.is_scalable(t) or _struct_has_padding(dl, t):
            return False
        sl = dl.struct_layout(t)
        align = si.alignment
        elt_name = v.name + ".elt"
        addr = si.pointer_operand
        addr_name = addr.name + ".repack"
        zero = ConstantInt.get(ctx.i32, 0)
        for k in range(count):
            ptr = b.create_gep(t, addr, [zero, ConstantInt.get(ctx.i32, k)], addr_name, inbounds=True)
            val = b.create_extract_value(v, k, elt_name)
            ns = b.store(val, ptr, alignment=_common_alignment(align, sl.element_offset(k)))
            for km, m in aa_md:
                ns.set_metadata(km, m)
        return True
    at = t
    n = at.count
    if n == 1:
        combine_store_to_new_value(ic, si, b.create_extract_value(v, 0))
        return True
    if n > _option(ic, "instcombine-maxarray-size", MAX_ARRAY_SIZE_FOR_COMBINE):
        return False
    elt_size = dl.type_alloc_size(at.element_type)
    align = si.alignment
    elt_name = v.name + ".elt"
    addr = si.pointer_operand
    addr_name = addr.name + ".repack"
    zero64 = ConstantInt.get(ctx.i64, 0)
    offset = 0
    for k in range(n):
        ptr = b.create_gep(at, addr, [zero64, ConstantInt.get(ctx.i64, k)], addr_name, inbounds=True)
        val = b.create_extract_value(v, k, elt_name)
        ns = b.store(val, ptr, alignment=_common_alignment(align, offset))
        for km, m in aa_md:
            ns.set_metadata(km, m)
        offset += elt_size
    return True


def equivalent_address_values(a: Value, b: Value) -> bool:
    """The same value, or identical arithmetic/cast/phi/GEP instructions
    (LLVM ``equivalentAddressValues``)."""
    from llvmpy_mid.analysis.loads import are_equivalent_address_values

    return are_equivalent_address_values(a, b)


def _can_simplify_null_store_or_gep(si: StoreInst) -> bool:
    fn = si.function
    asp = si.pointer_address_space
    if null_pointer_is_defined(fn, asp):
        return False
    ptr = si.pointer_operand
    if isinstance(ptr, GetElementPtrInst):
        ptr = ptr.operands[0]
    return isinstance(ptr, ConstantPointerNull)


def _is_debug_or_pseudo(i: Instruction) -> bool:
    if not isinstance(i, CallBase):
        return False
    base = i.intrinsic_base
    return base.startswith("llvm.dbg.") or base == "llvm.pseudoprobe"


def visit_store(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Value-type canonicalisation, aggregate unpacking, dead stores (to single-use
    allocas, constant memory, overwritten in the block, storing what was loaded),
    stores to null and of undef (LLVM ``visitStoreInst``)."""
    assert isinstance(i, StoreInst)
    si = i
    val = si.value_operand
    ptr = si.pointer_operand
    if _combine_store_to_value_type(ic, si):
        ic.erase_inst_from_function(si)
        return None
    if _unpack_store_to_aggregate(ic, si):
        ic.erase_inst_from_function(si)
        return None
    new_gepi = _replace_gep_idx_with_zero(ic, ptr, si)
    if new_gepi is not None:
        return ic.replace_operand(si, 1, new_gepi)
    if not si.is_unordered:
        return None
    if ptr.has_one_use:
        if isinstance(ptr, AllocaInst):
            ic.erase_inst_from_function(si)
            return None
        if isinstance(ptr, GetElementPtrInst):
            base = ptr.operands[0]
            if isinstance(base, AllocaInst) and base.has_one_use:
                ic.erase_inst_from_function(si)
                return None
    if not is_mod_set(ic.aa.get_mod_ref_info_mask(MemoryLocation.get_before_or_after(ptr))):
        ic.erase_inst_from_function(si)
        return None
    # Really simple DSE: an earlier store to the same place in the last 6 instructions.
    scan = 6
    prev = si.prev_instruction
    while prev is not None and scan:
        if _is_debug_or_pseudo(prev):
            prev = prev.prev_instruction
            continue
        scan -= 1
        if isinstance(prev, StoreInst):
            if (
                prev.is_unordered
                and equivalent_address_values(prev.operands[1], si.operands[1])
                and prev.value_operand.type is si.value_operand.type
            ):
                ic.worklist.push(si)
                ic.erase_inst_from_function(prev)
                return None
            break
        if isinstance(prev, LoadInst):
            if prev is val and equivalent_address_values(prev.operands[0], ptr):
                ic.erase_inst_from_function(si)
                return None
            break
        if prev.may_write_to_memory() or prev.may_read_from_memory() or prev.may_throw():
            break
        prev = prev.prev_instruction
    if _can_simplify_null_store_or_gep(si):
        if not isinstance(val, PoisonValue):
            return ic.replace_operand(si, 0, PoisonValue.get(val.type))
        return None
    if isinstance(ptr, UndefValue):
        # a store to undef is an unreachable marker: what must reach it goes, and what follows
        from llvmpy_mid.transform.instcombine.instruction_combining import remove_instructions_before_unreachable

        if remove_instructions_before_unreachable(ic, si):
            return si
        blocks: list[BasicBlock] = []
        nxt = si.next_instruction
        if nxt is not None:
            ic.handle_unreachable_from(nxt, blocks)
            ic.handle_potentially_dead_blocks(blocks)
        return None
    if isinstance(val, UndefValue):
        ic.erase_inst_from_function(si)
        return None
    return None


def merge_store_into_successor(ic: InstCombiner, si: StoreInst) -> bool:
    """if () { *P = v1; } else { *P = v2 }, or *P = v1; if () { *P = v2; } ->
    a phi of the values and one store in the successor (LLVM ``mergeStoreIntoSuccessor``)."""
    if not si.is_unordered:
        return False
    store_bb = si.parent
    assert store_bb is not None
    term = store_bb.terminator
    assert term is not None
    dest_bb = term.get_successor(0)
    preds = dest_bb.predecessors
    if len(preds) != 2:
        return False
    other_bb = preds[1] if preds[0] is store_bb else preds[0]
    if store_bb is dest_bb or other_bb is dest_bb:
        return False
    other_br = other_bb.terminator
    if not isinstance(other_br, BranchInst) or other_br is other_bb.first_instruction:
        return False
    dl = ic.dl

    def mergeable(o: Instruction | None) -> bool:
        if not isinstance(o, StoreInst) or o.pointer_operand is not si.pointer_operand:
            return False
        return is_bit_or_noop_pointer_castable(o.value_operand.type, si.value_operand.type, dl) and si.has_same_special_state(o)

    other_store: StoreInst | None = None
    if other_br.is_unconditional:
        bbi = other_br.prev_instruction
        while bbi is not None and _is_debug_or_pseudo(bbi):
            if bbi is other_bb.first_instruction:
                return False
            bbi = bbi.prev_instruction
        if bbi is None or not mergeable(bbi):
            return False
        other_store = cast(StoreInst, bbi)
    else:
        if other_br.get_successor(0) is not store_bb and other_br.get_successor(1) is not store_bb:
            return False
        bbi = other_br
        while True:
            if mergeable(bbi):
                other_store = cast(StoreInst, bbi)
                break
            if bbi.may_read_from_memory() or bbi.may_throw() or bbi.may_write_to_memory() or bbi is other_bb.first_instruction:
                return False
            prev = bbi.prev_instruction
            assert prev is not None
            bbi = prev
        cur = store_bb.first_instruction
        while cur is not None and cur is not si:
            if cur.may_read_from_memory() or cur.may_throw() or cur.may_write_to_memory():
                return False
            cur = cur.next_instruction
    assert other_store is not None
    merged_val = other_store.value_operand
    from llvmpy_mid.ir.debug_loc_merge import get_merged_location

    merged_loc = get_merged_location(si.debug_loc, other_store.debug_loc)
    if merged_val is not si.value_operand:
        pn = PHINode(si.value_operand.type, name="storemerge")
        pn.add_incoming(si.value_operand, store_bb)
        b = ic.builder
        b.position_before(other_store)
        b.debug_loc = other_store.debug_loc
        pn.add_incoming(_create_bit_or_pointer_cast(ic, merged_val, pn.type, ""), other_bb)
        first = dest_bb.first_instruction
        assert first is not None
        ic.insert_new_inst_before(pn, first)
        pn.debug_loc = merged_loc
        merged_val = pn
    first = dest_bb.first_non_phi
    while first is not None and first.opcode in ("landingpad", "catchpad", "cleanuppad"):
        first = first.next_instruction
    assert first is not None
    new_si = StoreInst(merged_val, si.operands[1], volatile=si.volatile, alignment=si.alignment, ordering=si.ordering, sync_scope=si.sync_scope)
    ic.insert_new_inst_before(new_si, first)
    new_si.debug_loc = merged_loc
    aa_kinds = ("tbaa", "tbaa.struct", "alias.scope", "noalias")
    if any(si.get_metadata(k) is not None for k in aa_kinds):
        for k in aa_kinds:
            a = si.get_metadata(k)
            bmd = other_store.get_metadata(k)
            if a is not None and a is bmd:
                new_si.set_metadata(k, a)
    ic.erase_inst_from_function(si)
    ic.erase_inst_from_function(other_store)
    return True


__all__ = [
    "MAX_ARRAY_SIZE_FOR_COMBINE",
    "MAX_COPIED_FROM_CONSTANT_USERS",
    "PointerReplacer",
    "combine_load_to_new_type",
    "combine_metadata_for_cse",
    "combine_store_to_new_value",
    "copy_metadata_for_load",
    "equivalent_address_values",
    "get_or_enforce_known_alignment",
    "is_only_copied_from_constant_memory",
    "merge_store_into_successor",
    "try_enforce_alignment",
    "visit_alloca",
    "visit_load",
    "visit_store",
]
