"""memcpyopt's memset formation (LLVM 19.1.7 ``MemsetRange``, ``MemsetRanges`` and
``MemCpyOptPass::tryMergingIntoMemset``, lib/Transforms/Scalar/MemCpyOptimizer.cpp).

What: from a store of a byte-splattable value (or a constant-length memset), the
following stores and memsets of the same byte at constant offsets from the same
pointer are collected into byte ranges; each range of two or more accesses that is
worth it becomes one ``llvm.memset`` placed before the first instruction that ended the
scan, and its stores go.

How: :class:`MemsetRanges` keeps sorted, disjoint ``[start, end)`` ranges; an access
that touches or overlaps a range joins it (extending it, and merging the ranges it now
reaches); otherwise it starts a new range. The scan stops at a terminator, at any
instruction that may read or write memory other than a store/memset (calls that only
touch inaccessible memory are skipped), at a volatile or atomic store, a store of a
non-integral pointer or scalable type, a different byte, or a pointer whose offset from
the start is unknown. ``isProfitableToUseMemset``: four or more accesses, or 16 bytes or
more, or a memset among them, or (not two plain stores) more stores than the largest
legal integer would need. The new memset carries the first store's debug location and
the merged ``!DIAssignID``; MemorySSA gets a def for it after the last access seen.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from llvmpy_mid.analysis.bytewise_value import is_bytewise_value
from llvmpy_mid.ir.constants import ConstantInt, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.ir.pointer_casts import get_pointer_offset_from, strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.local_metadata import merge_di_assign_id

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.transform.scalar.memcpy_opt import MemCpyOptimizer

__all__ = ["NUM_MEMSET_INFER", "MemsetRange", "MemsetRanges", "is_memset", "try_merging_into_memset"]

NUM_MEMSET_INFER = Statistic("memcpyopt", "NumMemSetInfer", "Number of memsets inferred")


def is_memset(inst: Instruction) -> bool:
    """LLVM ``isa<MemSetInst>``: ``llvm.memset`` or ``llvm.memset.inline``."""
    return isinstance(inst, CallBase) and inst.intrinsic_base in ("llvm.memset", "llvm.memset.inline")


class MemsetRange:
    """``[start, end)`` bytes from the first pointer, the pointer and alignment of its
    first byte, and the accesses that make it up."""

    __slots__ = ("start", "end", "start_ptr", "alignment", "stores")

    def __init__(self, start: int, end: int, start_ptr: Value, alignment: int | None, first: Instruction) -> None:
        self.start = start
        self.end = end
        self.start_ptr = start_ptr
        self.alignment = alignment
        self.stores: list[Instruction] = [first]

    def is_profitable_to_use_memset(self, dl: DataLayout) -> bool:
        """LLVM ``MemsetRange::isProfitableToUseMemset``."""
        n = len(self.stores)
        if n >= 4 or self.end - self.start >= 16:
            return True
        if n < 2:
            return False
        if any(type(s) is not StoreInst for s in self.stores):
            return True
        if n == 2:
            return False
        num_bytes = (self.end - self.start) & 0xFFFFFFFF
        max_int_size = dl.largest_legal_int_width // 8 or 1
        return n > num_bytes // max_int_size + num_bytes % max_int_size


class MemsetRanges:
    """The sorted, disjoint ranges of one scan (LLVM ``MemsetRanges``)."""

    __slots__ = ("ranges", "dl")

    def __init__(self, dl: DataLayout) -> None:
        self.ranges: list[MemsetRange] = []
        self.dl = dl

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def add_inst(self, offset: int, inst: Instruction) -> None:
        if isinstance(inst, StoreInst):
            self.add_store(offset, inst)
        else:
            self.add_memset(offset, inst)

    def add_store(self, offset: int, store: StoreInst) -> None:
        size = self.dl.type_store_size(store.value_operand.type)
        self.add_range(offset, size, store.pointer_operand, store.alignment, store)

    def add_memset(self, offset: int, memset: Instruction) -> None:
        length = memset.operands[2]
        assert isinstance(length, ConstantInt)
        align = memset.attributes.param_alignment(0)  # type: ignore[attr-defined]
        self.add_range(offset, length.zext_value, strip_pointer_casts(memset.operands[0]), align, memset)

    def add_range(self, start: int, size: int, ptr: Value, alignment: int | None, inst: Instruction) -> None:
        """Add ``[start, start + size)``, merging into the ranges it touches."""
        end = start + size
        ranges = self.ranges
        i = bisect_left(ranges, start, key=lambda r: r.end)
        if i == len(ranges) or end < ranges[i].start:
            ranges.insert(i, MemsetRange(start, end, ptr, alignment, inst))
            return
        r = ranges[i]
        r.stores.append(inst)
        if r.start <= start and r.end >= end:
            return
        if start < r.start:
            r.start = start
            r.start_ptr = ptr
            r.alignment = alignment
        if end > r.end:
            r.end = end
            j = i + 1
            while j < len(ranges) and end >= ranges[j].start:
                nxt = ranges.pop(j)
                r.stores.extend(nxt.stores)
                if nxt.end > r.end:
                    r.end = nxt.end


def try_merging_into_memset(opt: MemCpyOptimizer, start_inst: Instruction, start_ptr: Value, byte_val: Value) -> Instruction | None:
    """Merge the stores/memsets after ``start_inst`` into memsets; the last memset
    made, or None."""
    module = start_inst.module
    assert module is not None
    dl = module.data_layout
    if isinstance(start_inst, StoreInst) and dl.is_scalable(start_inst.value_operand.type):
        return None
    ranges = MemsetRanges(dl)
    mem_insert_point = None
    bi = start_inst.next_instruction
    assert bi is not None
    while not bi.is_terminator:
        acc = opt.mssa.get_memory_access(bi)
        if acc is not None:
            mem_insert_point = acc
        if isinstance(bi, CallBase) and bi.only_accesses_inaccessible_memory:
            bi = bi.next_instruction
            assert bi is not None
            continue
        if isinstance(bi, StoreInst):
            if not bi.is_simple:
                break
            stored = bi.value_operand
            if dl.is_non_integral_pointer_type(stored.type.scalar_type):
                break
            if dl.is_scalable(stored.type):
                break
            stored_byte = is_bytewise_value(stored, dl)
            if isinstance(byte_val, UndefValue) and stored_byte is not None:
                byte_val = stored_byte
            if byte_val is not stored_byte:
                break
            offset = get_pointer_offset_from(bi.pointer_operand, start_ptr, dl)
            if offset is None:
                break
            ranges.add_store(offset, bi)
        elif is_memset(bi):
            if bi.is_volatile or byte_val is not bi.operands[1] or not isinstance(bi.operands[2], ConstantInt):
                break
            offset = get_pointer_offset_from(strip_pointer_casts(bi.operands[0]), start_ptr, dl)
            if offset is None:
                break
            ranges.add_memset(offset, bi)
        elif bi.may_write_to_memory() or bi.may_read_from_memory():
            break
        bi = bi.next_instruction
        assert bi is not None
    if not ranges:
        return None
    ranges.add_inst(0, start_inst)
    a_memset: Instruction | None = None
    for r in ranges.ranges:
        if len(r.stores) == 1:
            continue
        if not r.is_profitable_to_use_memset(dl):
            continue
        builder = opt.builder_before(bi)
        i64 = module.context.i64
        a_memset = opt.create_mem_set(builder, r.start_ptr, byte_val, ConstantInt.get(i64, r.end - r.start), r.alignment)
        merge_di_assign_id(a_memset, r.stores)
        a_memset.debug_loc = r.stores[0].debug_loc
        assert mem_insert_point is not None
        if mem_insert_point.memory_inst is bi:
            mem_insert_point = opt.insert_def_before(a_memset, mem_insert_point)
        else:
            mem_insert_point = opt.insert_def_after(a_memset, mem_insert_point)
        for s in r.stores:
            opt.erase_instruction(s)
        NUM_MEMSET_INFER.add()
    return a_memset
