"""Which pointer arguments ``argpromotion`` may promote, and into which parts
(LLVM lib/Transforms/IPO/ArgumentPromotion.cpp, ``findArgParts`` and
``allCallersPassValidPointerForArgument``).

What: an argument can be promoted when every use, through bitcasts and GEPs
with constant indices, is a simple load (or, for a ``byval`` argument with an
explicit alignment, a simple store to it) at a constant offset, or the same
argument passed at the same position to a recursive call. Each offset is one
*part* with one type; parts may not overlap, at most ``max_elements`` of them
(0: no limit). Loading the parts in the callers must not introduce a fault: an
access that is not executed on every path through the entry block needs the
argument (or every caller's operand) to be dereferenceable and aligned enough.
Finally alias analysis must show that nothing writes a loaded location between
the function entry and the load (not needed for ``byval`` stores, which stay
inside the callee's copy).

How: the entry block is scanned first for accesses that are guaranteed to
execute (they give the part its representative instruction, whose metadata the
promoted loads copy), then the uses are walked with an explicit stack in
LLVM's order (the oldest use first).
"""

from __future__ import annotations

import attrs

from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.types import Type, TypeID
from llvmpy_mid.ir.value import Use

__all__ = ["ArgPart", "find_arg_parts"]


@attrs.define(slots=True)
class ArgPart:
    """One promoted piece of an argument: its type, the alignment to load it
    with, and an access guaranteed to execute (for metadata), if any."""

    ty: Type
    alignment: int
    must_exec_instr: Instruction | None


class _Refused(Exception):
    """The argument cannot be promoted."""


def _significant_bits(value: int) -> int:
    return (value if value >= 0 else ~value).bit_length() + 1


class _PartCollector:
    """The state of ``findArgParts`` shared by the entry scan and the use walk."""

    __slots__ = ("arg", "dl", "max_elements", "is_recursive", "parts", "needed_align", "needed_deref_bytes")

    def __init__(self, arg: Argument, dl: DataLayout, max_elements: int, is_recursive: bool) -> None:
        self.arg = arg
        self.dl = dl
        self.max_elements = max_elements
        self.is_recursive = is_recursive
        self.parts: dict[int, ArgPart] = {}
        self.needed_align = 1
        self.needed_deref_bytes = 0

    def too_many_parts(self) -> bool:
        return self.max_elements > 0 and len(self.parts) > self.max_elements

    def end_user(self, inst: LoadInst | StoreInst, ty: Type, guaranteed: bool) -> bool | None:
        """None: ``inst`` does not access the argument; else whether it can be promoted."""
        if not inst.is_simple:
            return False
        dl = self.dl
        base, offset = strip_and_accumulate_constant_offsets(inst.pointer_operand, dl, True)
        if base is not self.arg:
            return None
        if _significant_bits(offset) >= 64:
            return False
        if dl.is_scalable(ty):
            return False
        size = dl.type_store_size(ty)
        if self.is_recursive and ty.type_id is TypeID.POINTER:
            return False
        align = inst.alignment
        part = self.parts.get(offset)
        first_at_offset = part is None
        if part is None:
            part = ArgPart(ty, align, inst if guaranteed else None)
            self.parts[offset] = part
        if self.too_many_parts():
            return False
        if part.ty is not ty:
            return False
        if not guaranteed and (first_at_offset or part.alignment < align):
            if offset < 0:
                return False
            if offset % align:
                return False
            self.needed_deref_bytes = max(self.needed_deref_bytes, offset + size)
            self.needed_align = max(self.needed_align, align)
        part.alignment = max(part.alignment, align)
        return True


def _all_callers_pass_valid_pointer(
    arg: Argument, recursive_calls: set[CallBase], align: int, deref_bytes: int, dl: DataLayout
) -> bool:
    """Every caller passes a pointer dereferenceable for ``deref_bytes`` and
    aligned to ``align`` (recursive calls are not asked)."""
    if is_dereferenceable_and_aligned_pointer(arg, align, deref_bytes, dl, size_width=64):
        return True
    callee = arg.parent
    for user in callee.users:
        if not isinstance(user, CallBase):
            return False
        if user in recursive_calls:
            continue
        if not is_dereferenceable_and_aligned_pointer(user.get_arg(arg.arg_no), align, deref_bytes, dl, size_width=64):
            return False
    return True


def _scan_entry_block(collector: _PartCollector) -> None:
    entry = collector.arg.parent.entry_block
    for inst in entry.instructions:
        result: bool | None = None
        if isinstance(inst, LoadInst):
            result = collector.end_user(inst, inst.type, True)
        elif isinstance(inst, StoreInst):
            result = collector.end_user(inst, inst.value_operand.type, True)
        if result is False:
            raise _Refused
        if not is_guaranteed_to_transfer_execution_to_successor(inst):
            break


def _walk_uses(
    collector: _PartCollector, stores_allowed: bool, loads: list[LoadInst], recursive_calls: set[CallBase]
) -> None:
    arg = collector.arg
    worklist: list[Use] = []
    visited: set[Use] = set()

    def append_uses(value: object) -> None:
        for use in value.uses:  # type: ignore[attr-defined]
            if use not in visited:
                visited.add(use)
                worklist.append(use)

    append_uses(arg)
    while worklist:
        use = worklist.pop()
        user = use.user
        opcode = getattr(user, "opcode", "")
        if opcode == "bitcast" and user.is_instruction:
            append_uses(user)
            continue
        if isinstance(user, GetElementPtrInst):
            if not user.has_all_constant_indices:
                raise _Refused
            append_uses(user)
            continue
        if isinstance(user, LoadInst):
            if not collector.end_user(user, user.type, False):
                raise _Refused
            loads.append(user)
            continue
        if stores_allowed and isinstance(user, StoreInst) and use.index == 1:
            if not collector.end_user(user, user.value_operand.type, False):
                raise _Refused
            continue
        if isinstance(user, CallBase) and user.called_function is not None and user.called_function is user.function:
            if use.value is not arg or use.index != arg.arg_no:
                raise _Refused
            if collector.too_many_parts():
                raise _Refused
            recursive_calls.add(user)
            continue
        raise _Refused


def _parts_overlap(parts: list[tuple[int, ArgPart]], dl: DataLayout) -> bool:
    end = parts[0][0]
    for offset, part in parts:
        if offset < end:
            return True
        end = offset + dl.type_store_size(part.ty)
    return False


def _inverse_reachable_block_modifies(
    aa: AAResults, start: BasicBlock, loc: MemoryLocation, seen: set[BasicBlock]
) -> bool:
    """May a block from which ``start`` is reached (``start`` included) modify ``loc``?"""
    if start in seen:
        return False
    seen.add(start)
    stack = [start]
    while stack:
        bb = stack.pop()
        if aa.can_basic_block_modify(bb, loc):
            return True
        for pred in bb.predecessors:
            if pred not in seen:
                seen.add(pred)
                stack.append(pred)
    return False


def _loads_are_transparent(loads: list[LoadInst], aa: AAResults) -> bool:
    for load in loads:
        bb = load.parent
        assert bb is not None
        loc = MemoryLocation.get(load)
        first = bb.instructions.first
        assert first is not None
        if aa.can_instruction_range_mod_ref(first, load, loc, ModRefInfo.MOD):
            return False
        seen: set[BasicBlock] = set()
        for pred in bb.predecessors:
            if _inverse_reachable_block_modifies(aa, pred, loc, seen):
                return False
    return True


def find_arg_parts(
    arg: Argument, dl: DataLayout, aa: AAResults, max_elements: int, is_recursive: bool
) -> list[tuple[int, ArgPart]] | None:
    """The parts of ``arg`` sorted by offset ([] for an unused argument), or
    None when it cannot be promoted."""
    if arg.use_empty:
        return []
    attrs_ = arg.attributes
    stores_allowed = attrs_.by_val_type is not None and attrs_.alignment is not None
    collector = _PartCollector(arg, dl, max_elements, is_recursive)
    loads: list[LoadInst] = []
    recursive_calls: set[CallBase] = set()
    try:
        _scan_entry_block(collector)
        _walk_uses(collector, stores_allowed, loads, recursive_calls)
    except _Refused:
        return None
    if collector.needed_deref_bytes or collector.needed_align > 1:
        if not _all_callers_pass_valid_pointer(
            arg, recursive_calls, collector.needed_align, collector.needed_deref_bytes, dl
        ):
            return None
    if not collector.parts:
        return []
    parts = sorted(collector.parts.items(), key=lambda item: item[0])
    if _parts_overlap(parts, dl):
        return None
    if stores_allowed:
        return parts
    if not _loads_are_transparent(loads, aa):
        return None
    return parts
