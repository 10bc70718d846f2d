"""Overwrite analysis of dead store elimination: how a later (killing) write covers an
earlier (dead) one, partial-overwrite tracking, memory-intrinsic shortening and the
merging of a small constant store into a wider earlier one (after LLVM 19.1.7
``lib/Transforms/Scalar/DeadStoreElimination.cpp``: ``OverwriteResult``,
``isMaskedStoreOverwrite``, ``isPartialOverwrite``, ``memoryIsNotModifiedBetween``,
``tryToShorten``/``tryToShortenEnd``/``tryToShortenBegin`` and
``tryToMergePartialOverlappingStores``).

Partial overwrites of one dead write are kept as an interval map, end -> start of
the byte ranges [start, end) the killing writes covered so far (LLVM's
``std::map<int64_t, int64_t>``): a new range is merged with every range it touches,
and the dead write is completely overwritten once the first range covers it.

The pass itself (``DSEState``) is in :mod:`llvmpy_mid.transform.scalar.dse`.

What it does not do yet: the debug-info assignment tracking update of a shortened
intrinsic (``shortenAssignment``: ``#dbg_assign`` records are left as they are);
nothing else known missing.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from sortedcontainers import SortedDict  # type: ignore[import-untyped]

from llvmpy_mid.analysis.alias.aa_results import BatchAAResults, is_mod_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.phi_trans_addr import PHITransAddr
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.flags import GEPFlags
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.statistics import Statistic

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.data_layout import DataLayout

__all__ = [
    "OverwriteResult",
    "OverlapIntervals",
    "InstOverlapIntervals",
    "add_overlap_interval",
    "any_memset",
    "mem_intrinsic",
    "any_mem_intrinsic",
    "classify_same_base_overlap",
    "is_masked_store_overwrite",
    "is_partial_overwrite",
    "memory_is_not_modified_between",
    "try_to_shorten_end",
    "try_to_shorten_begin",
    "try_to_merge_partial_overlapping_stores",
]


NUM_COMPLETE_PARTIALS = Statistic("dse", "NumCompletePartials", "Number of stores dead by later partials")


class OverwriteResult(enum.Enum):
    """How a killing write covers a dead one (LLVM ``OverwriteResult``)."""

    BEGIN = "OW_Begin"
    COMPLETE = "OW_Complete"
    END = "OW_End"
    PARTIAL_EARLIER_WITH_FULL_LATER = "OW_PartialEarlierWithFullLater"
    MAYBE_PARTIAL = "OW_MaybePartial"
    NONE = "OW_None"
    UNKNOWN = "OW_Unknown"


OverlapIntervals = SortedDict
"""end -> start of the byte ranges already overwritten (``SortedDict[int, int]``)."""
InstOverlapIntervals = dict[Instruction, SortedDict]

_MEMSET = frozenset(("llvm.memset", "llvm.memset.inline"))
_MEM_INTRINSIC = frozenset(("llvm.memset", "llvm.memset.inline", "llvm.memcpy", "llvm.memcpy.inline", "llvm.memmove"))
_ATOMIC_MEM = frozenset(
    ("llvm.memset.element.unordered.atomic", "llvm.memcpy.element.unordered.atomic", "llvm.memmove.element.unordered.atomic")
)
_SHORTENABLE_AT_END = frozenset(
    ("llvm.memset", "llvm.memcpy", "llvm.memcpy.element.unordered.atomic", "llvm.memset.element.unordered.atomic")
)


def _base(i: Value) -> str:
    if isinstance(i, CallBase):
        return i.intrinsic_base
    return ""


def mem_intrinsic(i: Value) -> bool:
    """``isa<MemIntrinsic>``: memset/memcpy/memmove (and their ``.inline`` forms), not atomic."""
    return _base(i) in _MEM_INTRINSIC


def any_mem_intrinsic(i: Value) -> bool:
    """``isa<AnyMemIntrinsic>``: :func:`mem_intrinsic` or an element-wise atomic one."""
    b = _base(i)
    return b in _MEM_INTRINSIC or b in _ATOMIC_MEM


def mem_set(i: Value) -> bool:
    """``isa<MemSetInst>``."""
    return _base(i) in _MEMSET


def any_memset(i: Value) -> bool:
    """``isa<AnyMemSetInst>``."""
    b = _base(i)
    return b in _MEMSET or b == "llvm.memset.element.unordered.atomic"


def is_shortenable_at_the_end(i: Instruction) -> bool:
    return _base(i) in _SHORTENABLE_AT_END


def is_shortenable_at_the_beginning(i: Instruction) -> bool:
    return any_memset(i)


def _scalar_bits(ty: Type) -> int:
    """``getScalarSizeInBits`` of a vector element (0 for pointers, as LLVM)."""
    width = getattr(ty, "width", None)
    if isinstance(width, int):
        return width
    bits = getattr(ty, "bits", None)
    return bits if isinstance(bits, int) else 0


def is_masked_store_overwrite(killing_i: Instruction, dead_i: Instruction, aa: BatchAAResults) -> OverwriteResult:
    """Two ``llvm.masked.store`` of the same element size and count, through must-alias
    pointers and with the same mask: the later one covers the earlier."""
    kb = _base(killing_i)
    if not kb or kb != _base(dead_i) or kb != "llvm.masked.store":
        return OverwriteResult.UNKNOWN
    assert isinstance(killing_i, CallBase) and isinstance(dead_i, CallBase)
    kty = killing_i.get_arg(0).type
    dty = dead_i.get_arg(0).type
    assert isinstance(kty, VectorType) and isinstance(dty, VectorType)
    if _scalar_bits(kty.element_type) != _scalar_bits(dty.element_type):
        return OverwriteResult.UNKNOWN
    if kty.count != dty.count or kty.scalable != dty.scalable:
        return OverwriteResult.UNKNOWN
    kp = strip_pointer_casts(killing_i.get_arg(1))
    dp = strip_pointer_casts(dead_i.get_arg(1))
    if kp is not dp and not aa.is_must_alias(MemoryLocation.get_before_or_after(kp), MemoryLocation.get_before_or_after(dp)):
        return OverwriteResult.UNKNOWN
    if killing_i.get_arg(3) is not dead_i.get_arg(3):
        return OverwriteResult.UNKNOWN
    return OverwriteResult.COMPLETE


def classify_same_base_overlap(dead_off: int, dead_size: int, killing_off: int, killing_size: int) -> OverwriteResult:
    """Two accesses from one base pointer at constant offsets: ``COMPLETE`` when the
    killing bytes cover the dead ones, ``MAYBE_PARTIAL`` when they overlap, else ``NONE``."""
    if dead_off >= killing_off:
        if dead_off - killing_off + dead_size <= killing_size:
            return OverwriteResult.COMPLETE
        if dead_off - killing_off < killing_size:
            return OverwriteResult.MAYBE_PARTIAL
    elif killing_off - dead_off < dead_size:
        return OverwriteResult.MAYBE_PARTIAL
    return OverwriteResult.NONE


def add_overlap_interval(im: SortedDict, start: int, end: int) -> None:
    """Record that [start, end) is overwritten, merging it with every recorded range it
    overlaps or touches."""
    idx = im.bisect_left(start)
    if idx < len(im):
        key, value = im.peekitem(idx)
        if value <= end:
            start = min(start, value)
            end = max(end, key)
            del im[key]
            while idx < len(im):
                key, value = im.peekitem(idx)
                if value > end:
                    break
                end = max(end, key)
                del im[key]
    im[end] = start


def is_partial_overwrite(
    killing_loc: MemoryLocation,
    dead_loc: MemoryLocation,
    killing_off: int,
    dead_off: int,
    dead_i: Instruction,
    iol: InstOverlapIntervals,
    partial_overwrite_tracking: bool = True,
    partial_store_merging: bool = True,
) -> OverwriteResult:
    """Refine a ``MAYBE_PARTIAL`` overlap (LLVM ``isPartialOverwrite``): record the killing
    range against ``dead_i``; ``COMPLETE`` once the recorded ranges cover it; else
    ``PARTIAL_EARLIER_WITH_FULL_LATER`` when the killing write lies inside the dead one
    (a candidate for store merging), or (tracking off) ``END``/``BEGIN``."""
    killing_size = killing_loc.size.value
    dead_size = dead_loc.size.value
    if partial_overwrite_tracking and killing_off < dead_off + dead_size and killing_off + killing_size >= dead_off:
        im = iol.get(dead_i)
        if im is None:
            im = iol[dead_i] = SortedDict()
        add_overlap_interval(im, killing_off, killing_off + killing_size)
        first_end, first_start = im.peekitem(0)
        if first_start <= dead_off and first_end >= dead_off + dead_size:
            NUM_COMPLETE_PARTIALS.add()
            return OverwriteResult.COMPLETE
    if (
        partial_store_merging
        and killing_off >= dead_off
        and dead_off + dead_size > killing_off
        and killing_off - dead_off + killing_size <= dead_size
    ):
        return OverwriteResult.PARTIAL_EARLIER_WITH_FULL_LATER
    if not partial_overwrite_tracking:
        if killing_off > dead_off and killing_off < dead_off + dead_size and killing_off + killing_size >= dead_off + dead_size:
            return OverwriteResult.END
        if killing_off <= dead_off and killing_off + killing_size > dead_off:
            return OverwriteResult.BEGIN
    return OverwriteResult.UNKNOWN


def memory_is_not_modified_between(
    first_i: Instruction, second_i: Instruction, aa: BatchAAResults, dl: DataLayout, dt: DominatorTree | None
) -> bool:
    """Nothing between ``first_i`` and ``second_i`` (which it dominates) may write the
    location ``second_i`` writes, along any path (LLVM ``memoryIsNotModifiedBetween``)."""
    first_bb = first_i.parent
    second_bb = second_i.parent
    assert first_bb is not None and second_bb is not None
    if isinstance(second_i, CallBase):
        mem_loc = MemoryLocation.get_for_dest(second_i)
    else:
        mem_loc = MemoryLocation.get(second_i)
    assert mem_loc.ptr is not None
    worklist: list[tuple[BasicBlock, PHITransAddr]] = [(second_bb, PHITransAddr(mem_loc.ptr, dl, None))]
    visited: dict[BasicBlock, Value | None] = {}
    is_first_block = True
    while worklist:
        b, addr = worklist.pop()
        ptr = addr.get_addr()
        assert ptr is not None
        cur: Instruction | None = first_i.next_instruction if b is first_bb else b.first_instruction
        stop: Instruction | None
        if is_first_block:
            stop = second_i
            is_first_block = False
        else:
            stop = None
        loc = mem_loc.with_ptr(ptr)
        while cur is not None and cur is not stop:
            if cur is not second_i and cur.may_write_to_memory() and is_mod_set(aa.get_mod_ref_info(cur, loc)):
                return False
            cur = cur.next_instruction
        if b is not first_bb:
            for pred in b.predecessors:
                pred_addr = addr.copy()
                if pred_addr.needs_phi_translation_from_block(b):
                    if not pred_addr.is_potentially_phi_translatable():
                        return False
                    if pred_addr.translate_value(b, pred, dt, False) is None:
                        return False
                translated = pred_addr.get_addr()
                if pred in visited:
                    if visited[pred] is not translated:
                        return False
                    continue
                visited[pred] = translated
                worklist.append((pred, pred_addr))
    return True


def _offset_to_alignment(value: int, align: int) -> int:
    return (-value) % align


def _dest_align(call: CallBase) -> int:
    return call.attributes.param_alignment(0) or 1


def _try_to_shorten(
    dead_i: Instruction, dead_start: int, dead_size: int, killing_start: int, killing_size: int, is_overwrite_end: bool
) -> tuple[int, int] | None:
    """Trim the dead memory intrinsic's end (or beginning) that the killing write covers,
    keeping its destination alignment; the new (start, size), or None."""
    assert isinstance(dead_i, CallBase)
    pref_align = _dest_align(dead_i)
    if is_overwrite_end:
        off = _offset_to_alignment(killing_start - dead_start, pref_align)
        to_remove_start = killing_start + off
        if dead_size <= to_remove_start - dead_start:
            return None
        to_remove_size = dead_size - (to_remove_start - dead_start)
    else:
        to_remove_start = dead_start
        to_remove_size = killing_size - (dead_start - killing_start)
        off = _offset_to_alignment(to_remove_size, pref_align)
        if off != 0:
            if to_remove_size <= pref_align - off:
                return None
            to_remove_size -= pref_align - off
    new_size = dead_size - to_remove_size
    if _base(dead_i) in _ATOMIC_MEM:
        elem = dead_i.get_arg(3)
        assert isinstance(elem, ConstantInt)
        if new_size % elem.zext_value != 0:
            return None
    length = dead_i.get_arg(2)
    dead_i.set_arg(2, ConstantInt.get(length.type, new_size))
    dead_i.attributes = dead_i.attributes.without_param_attr(0, "align").with_param_attr(0, Attribute.alignment(pref_align))
    if not is_overwrite_end:
        orig_dest = dead_i.get_arg(0)
        ctx = dead_i.type.context
        gep = GetElementPtrInst(ctx.i8, orig_dest, [ConstantInt.get(length.type, to_remove_size)], flags=GEPFlags.INBOUNDS)
        gep.insert_before(dead_i)
        for rec in dead_i.take_dbg_records():  # inserted after the records before dead_i, as LLVM
            gep.add_dbg_record(rec)
        gep.debug_loc = dead_i.debug_loc
        dead_i.set_arg(0, gep)
        dead_start += to_remove_size
    return dead_start, new_size


def try_to_shorten_end(dead_i: Instruction, im: SortedDict, dead_start: int, dead_size: int) -> tuple[int, int] | None:
    """Shorten ``dead_i`` by the last recorded range when it covers the dead write's end."""
    if not im or not is_shortenable_at_the_end(dead_i):
        return None
    end, killing_start = im.peekitem(-1)
    killing_size = end - killing_start
    if killing_start > dead_start and killing_start - dead_start < dead_size and killing_size >= dead_size - (killing_start - dead_start):
        found = _try_to_shorten(dead_i, dead_start, dead_size, killing_start, killing_size, True)
        if found is not None:
            del im[end]
            return found
    return None


def try_to_shorten_begin(dead_i: Instruction, im: SortedDict, dead_start: int, dead_size: int) -> tuple[int, int] | None:
    """Shorten a memset by the first recorded range when it covers the dead write's start."""
    if not im or not is_shortenable_at_the_beginning(dead_i):
        return None
    end, killing_start = im.peekitem(0)
    killing_size = end - killing_start
    if killing_start <= dead_start and killing_size > dead_start - killing_start:
        found = _try_to_shorten(dead_i, dead_start, dead_size, killing_start, killing_size, False)
        if found is not None:
            del im[end]
            return found
    return None


def try_to_merge_partial_overlapping_stores(
    killing_i: StoreInst,
    dead_i: StoreInst,
    killing_off: int,
    dead_off: int,
    dl: DataLayout,
    aa: BatchAAResults,
    dt: DominatorTree | None,
) -> ConstantInt | None:
    """A constant store inside an earlier, wider constant store with nothing writing the
    location in between: the earlier store's value with the later one's bits patched in."""
    dv = dead_i.operands[0]
    kv = killing_i.operands[0]
    if not (
        isinstance(dv, ConstantInt)
        and dl.type_size_equals_store_size(dv.type)
        and isinstance(kv, ConstantInt)
        and dl.type_size_equals_store_size(kv.type)
        and memory_is_not_modified_between(dead_i, killing_i, aa, dl, dt)
    ):
        return None
    dead_bits = _scalar_bits(dv.type)
    killing_bits = _scalar_bits(kv.type)
    bit_offset = (killing_off - dead_off) * 8
    shift = dead_bits - bit_offset - killing_bits if dl.is_big_endian else bit_offset
    mask = ((1 << killing_bits) - 1) << shift
    merged = (dv.value & ~mask) | (kv.value << shift)
    return ConstantInt.get(dv.type, merged)
