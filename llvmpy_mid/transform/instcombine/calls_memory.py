"""InstCombine's folds of the memory intrinsics (LLVM 19.1.7
``lib/Transforms/InstCombine/InstCombineCalls.cpp``: the ``AnyMemIntrinsic`` part of
``visitCallInst``, ``SimplifyAnyMemTransfer``, ``SimplifyAnyMemSet``; and
``getKnownAlignment`` of ``lib/Transforms/Utils/Local.cpp``).

``memcpy``/``memmove``/``memset`` (and their element-wise atomic forms) of zero bytes are
erased; a ``memmove`` from a constant global becomes a ``memcpy``; a copy onto itself is
erased; the destination and source alignments are raised to what known bits prove; a write to
constant memory, a copy from an otherwise unused alloca and a ``memset`` of undef get length
0; copies and sets of 1, 2, 4 or 8 bytes become an integer load and store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.alias.aa_results import is_mod_set
from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, MemoryLocation, set_aa_metadata

from llvmpy_mid.ir.constants import Constant, ConstantInt, UndefValue
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.flags import AtomicOrdering

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

MAX_ALIGNMENT_EXPONENT = 32


def get_known_alignment(ic: InstCombiner, v: Value, cxt: Instruction) -> int:
    """``getKnownAlignment``: the alignment known bits prove for pointer ``v``."""
    kb = ic.compute_known_bits(v, 0, cxt)
    tz = min(kb.count_min_trailing_zeros(), MAX_ALIGNMENT_EXPONENT)
    return 1 << min(kb.bit_width - 1, tz)


def _is_atomic(iid: str) -> bool:
    return iid.endswith(".element.unordered.atomic")


def _points_to_constant_memory(ic: InstCombiner, ptr: Value) -> bool:
    """``!isModSet(AA->getModRefInfoMask(Ptr))``, asked of the function's AA."""
    return not is_mod_set(ic.aa.get_mod_ref_info_mask(MemoryLocation.get_before_or_after(ptr)))


def _set_length_zero(mi: CallInst) -> CallInst:
    length = mi.get_arg(2)
    mi.set_arg(2, Constant.get_null_value(length.type))
    return mi


def _is_volatile(mi: CallInst, iid: str) -> bool:
    if _is_atomic(iid):
        return False
    v = mi.get_arg(3)
    return isinstance(v, ConstantInt) and v.value != 0


def _has_undef_source(mi: CallInst) -> bool:
    """``hasUndefSource``: the source is a one-use chain of GEPs/bitcasts to a one-use alloca."""
    from llvmpy_mid.ir.instructions.memory import AllocaInst

    src = mi.get_arg(1)
    while getattr(src, "opcode", None) in ("getelementptr", "bitcast"):
        if not src.has_one_use:
            return False
        src = src.operands[0]  # type: ignore[attr-defined]
    return isinstance(src, AllocaInst) and src.has_one_use


def _param_align(mi: CallInst, n: int) -> int | None:
    return mi.attributes.param_alignment(n)


def _set_param_align(mi: CallInst, n: int, align: int) -> None:
    from llvmpy_mid.ir.attributes import Attribute

    mi.attributes = mi.attributes.without_param_attr(n, "align").with_param_attr(n, Attribute.alignment(align))


def visit_mem_intrinsic(ic: InstCombiner, mi: CallInst, iid: str) -> Instruction | None | bool:
    """The memory-intrinsic part of ``visitCallInst``; False when the caller should go on."""
    length = mi.get_arg(2)
    if _is_atomic(iid) and isinstance(length, ConstantInt):
        esz = mi.get_arg(3)
        es = esz.value if isinstance(esz, ConstantInt) else 1
        if length.value >> (length.type.width - 1) or (es and length.value % es != 0):
            from llvmpy_mid.transform.instcombine.calls import create_non_terminator_unreachable

            create_non_terminator_unreachable(ic, mi)
            ic.erase_inst_from_function(mi)
            return None
    changed = False
    if isinstance(length, Constant) and length.is_null_value:
        ic.erase_inst_from_function(mi)
        return None
    if _is_volatile(mi, iid):
        return None
    if iid in ("llvm.memmove", "llvm.memmove.element.unordered.atomic"):
        from llvmpy_mid.ir.global_value import GlobalVariable

        src = mi.get_arg(1)
        if isinstance(src, GlobalVariable) and src.is_constant_global:
            from llvmpy_mid.ir.intrinsics import intrinsic_declaration
            from llvmpy_mid.ir.type_mangling import intrinsic_name

            module = ic.fn.parent
            assert module is not None
            base = "llvm.memcpy" if iid == "llvm.memmove" else "llvm.memcpy.element.unordered.atomic"
            name = intrinsic_name(base, [mi.get_arg(0).type, mi.get_arg(1).type, mi.get_arg(2).type])
            assert name is not None
            decl = intrinsic_declaration(module, name, mi.function_type)
            mi.set_called_function(decl)
            changed = True
    is_transfer = "memcpy" in iid or "memmove" in iid
    if is_transfer and mi.get_arg(1) is mi.get_arg(0):
        ic.erase_inst_from_function(mi)
        return None
    if is_transfer:
        r = _simplify_any_mem_transfer(ic, mi, iid)
        if r is not None:
            return r
    else:
        r = _simplify_any_mem_set(ic, mi, iid)
        if r is not None:
            return r
    if changed:
        return mi
    return False


def _simplify_any_mem_transfer(ic: InstCombiner, mi: CallInst, iid: str) -> Instruction | None:
    """``SimplifyAnyMemTransfer``."""
    dst_align = get_known_alignment(ic, mi.get_arg(0), mi)
    copy_dst = _param_align(mi, 0)
    if copy_dst is None or copy_dst < dst_align:
        _set_param_align(mi, 0, dst_align)
        return mi
    src_align = get_known_alignment(ic, mi.get_arg(1), mi)
    copy_src = _param_align(mi, 1)
    if copy_src is None or copy_src < src_align:
        _set_param_align(mi, 1, src_align)
        return mi
    if _points_to_constant_memory(ic, mi.get_arg(0)):
        return _set_length_zero(mi)
    if _has_undef_source(mi) and not _is_volatile(mi, iid):
        return _set_length_zero(mi)
    length = mi.get_arg(2)
    if not isinstance(length, ConstantInt):
        return None
    size = length.value
    if size > 8 or size & (size - 1):
        return None
    atomic = _is_atomic(iid)
    if atomic and (copy_dst < size or copy_src < size):
        return None
    ity = ic.fn.context.int_type(size * 8)
    src = mi.get_arg(1)
    dest = mi.get_arg(0)
    b = ic.builder
    volatile = _is_volatile(mi, iid)
    ordering = AtomicOrdering.UNORDERED if atomic else AtomicOrdering.NOT_ATOMIC
    ld = b.load(ity, src, alignment=copy_src, volatile=volatile, ordering=ordering)
    # the tags of the copy: a !tbaa.struct whose one field is the whole copy gives its !tbaa
    aa_copy_md = AAMDNodes.of(mi).adjust_for_access(size)
    set_aa_metadata(ld, aa_copy_md)
    par = mi.get_metadata("llvm.mem.parallel_loop_access")
    if par is not None:
        ld.set_metadata("llvm.mem.parallel_loop_access", par)
    ag = mi.get_metadata("llvm.access.group")
    if ag is not None:
        ld.set_metadata("llvm.access.group", ag)
    st = b.store(ld, dest, alignment=copy_dst, volatile=volatile, ordering=ordering)
    set_aa_metadata(st, aa_copy_md)
    if par is not None:
        st.set_metadata("llvm.mem.parallel_loop_access", par)
    if ag is not None:
        st.set_metadata("llvm.access.group", ag)
    da = mi.get_metadata("DIAssignID")
    if da is not None:
        st.set_metadata("DIAssignID", da)
    return _set_length_zero(mi)


def _simplify_any_mem_set(ic: InstCombiner, mi: CallInst, iid: str) -> Instruction | None:
    """``SimplifyAnyMemSet``."""
    known = get_known_alignment(ic, mi.get_arg(0), mi)
    cur = _param_align(mi, 0)
    if cur is None or cur < known:
        _set_param_align(mi, 0, known)
        return mi
    if _points_to_constant_memory(ic, mi.get_arg(0)):
        return _set_length_zero(mi)
    fill = mi.get_arg(1)
    if isinstance(fill, UndefValue):
        return _set_length_zero(mi)
    length = mi.get_arg(2)
    if not isinstance(length, ConstantInt) or not isinstance(fill, ConstantInt) or fill.type.width != 8:
        return None
    n = length.value
    align = cur
    atomic = _is_atomic(iid)
    if atomic and align < n:
        return None
    if n <= 8 and n & (n - 1) == 0:
        ity = ic.fn.context.int_type(n * 8)
        val = ConstantInt.get(ity, (fill.value * 0x0101010101010101) & ity.mask)
        st = ic.builder.store(
            val,
            mi.get_arg(0),
            alignment=align,
            volatile=_is_volatile(mi, iid),
            ordering=AtomicOrdering.UNORDERED if atomic else AtomicOrdering.NOT_ATOMIC,
        )
        da = mi.get_metadata("DIAssignID")
        if da is not None:
            st.set_metadata("DIAssignID", da)
        return _set_length_zero(mi)
    return None


__all__ = ["get_known_alignment", "visit_mem_intrinsic"]
