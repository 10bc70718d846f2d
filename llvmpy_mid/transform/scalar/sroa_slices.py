"""The slices of an alloca and their partitions, as SROA sees them (LLVM 19's
lib/Transforms/Scalar/SROA.cpp: ``Slice``, ``AllocaSlices``, ``AllocaSlices::SliceBuilder``,
``Partition`` and ``AllocaSlices::partition_iterator``; the walk is LLVM's ``PtrUseVisitor``,
include/llvm/Analysis/PtrUseVisitor.h and lib/Analysis/PtrUseVisitor.cpp).

What: :class:`AllocaSlices` walks every use of an alloca's address, through GEPs of constant
offset, bitcasts, address-space casts, phis and selects, and records one :class:`Slice` (a
byte range ``[begin, end)`` and the use that touches it) per load, store, memset, memcpy,
memmove, lifetime marker and invariant-group launder/strip. Uses SROA cannot follow (calls,
``ptrtoint``, compares, a store of the address, an access at an unknown offset, ...) leave
``pointer_escaping_instr`` set and no slices. Accesses wholly outside the alloca mark their
instruction dead (``dead_users``) or, for phi/select inputs, their operand
(``dead_operands``); uses by ``llvm.assume`` go to ``dead_uses_if_promotable``. The slices
are sorted by begin offset, unsplittable before splittable, then by decreasing end.

:meth:`AllocaSlices.partitions` yields the :class:`Partition` s: maximal byte ranges that no
unsplittable slice crosses, each with the slices that start in it and the tails of
splittable slices begun in an earlier partition that still overlap it.

How: the use walk is an explicit stack of (use, offset known, offset) entries; each use is
visited once. Offsets are unsigned integers of the alloca pointer's index width, as LLVM's
``APInt``. As in LLVM, one :class:`Partition` object is updated in place and yielded again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout

__all__ = ["AllocaSlices", "Partition", "Slice", "SliceBuilder"]

_UINT64_MAX = (1 << 64) - 1

_MEM_TRANSFER = frozenset(("llvm.memcpy", "llvm.memcpy.inline", "llvm.memmove"))
_MEM_SET = frozenset(("llvm.memset", "llvm.memset.inline"))
_DBG_INFO = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.label"))
_LIFETIME = frozenset(("llvm.lifetime.start", "llvm.lifetime.end"))
_LAUNDER_OR_STRIP = frozenset(("llvm.launder.invariant.group", "llvm.strip.invariant.group"))
_DROPPABLE = frozenset(("llvm.assume", "llvm.pseudoprobe"))


def _limited_value(v: int) -> int:
    """LLVM ``APInt::getLimitedValue()``: the value, capped at UINT64_MAX."""
    return v if v <= _UINT64_MAX else _UINT64_MAX



class Slice:
    """A byte range ``[begin_offset, end_offset)`` of an alloca used by ``use``, and whether
    the use may be split at any byte (LLVM ``Slice``). A killed slice has no use."""

    __slots__ = ("begin_offset", "end_offset", "use", "splittable")

    def __init__(self, begin_offset: int, end_offset: int, use: Use | None, splittable: bool) -> None:
        self.begin_offset = begin_offset
        self.end_offset = end_offset
        self.use = use
        self.splittable = splittable

    def is_splittable(self) -> bool:
        return self.splittable

    def make_unsplittable(self) -> None:
        self.splittable = False

    def get_use(self) -> Use | None:
        return self.use

    def is_dead(self) -> bool:
        return self.use is None

    def kill(self) -> None:
        self.use = None

    def sort_key(self) -> tuple[int, bool, int]:
        """LLVM ``Slice::operator<``: increasing begin, unsplittable first, decreasing end."""
        return (self.begin_offset, self.splittable, -self.end_offset)

    def same_range(self, other: Slice) -> bool:
        """LLVM ``Slice::operator==``: same offsets and splittability."""
        return (
            self.splittable == other.splittable
            and self.begin_offset == other.begin_offset
            and self.end_offset == other.end_offset
        )

    def __repr__(self) -> str:
        user = self.use.user if self.use is not None else None
        return "<Slice [%d,%d)%s %r>" % (
            self.begin_offset,
            self.end_offset,
            " (splittable)" if self.splittable else "",
            user,
        )


def _slice_key(s: Slice) -> tuple[int, bool, int]:
    return (s.begin_offset, s.splittable, -s.end_offset)


class Partition:
    """A run of slices no unsplittable slice crosses (LLVM ``Partition``): the slices
    ``slices_owner.slices[si:sj]`` start in ``[begin_offset, end_offset)``; ``split_tails``
    are splittable slices begun earlier that reach into it."""

    __slots__ = ("slices_owner", "begin_offset", "end_offset", "si", "sj", "split_tails")

    def __init__(self, owner: AllocaSlices, si: int) -> None:
        self.slices_owner = owner
        self.begin_offset = 0
        self.end_offset = 0
        self.si = si
        self.sj = si
        self.split_tails: list[Slice] = []

    def size(self) -> int:
        assert self.begin_offset < self.end_offset, "Partitions must span some bytes!"
        return self.end_offset - self.begin_offset

    def empty(self) -> bool:
        """No slice starts in the partition: it only spans split tails."""
        return self.si == self.sj

    def slices(self) -> list[Slice]:
        return self.slices_owner.slices[self.si : self.sj]

    def split_slice_tails(self) -> list[Slice]:
        return self.split_tails

    def __iter__(self) -> Iterator[Slice]:
        s = self.slices_owner.slices
        for i in range(self.si, self.sj):
            yield s[i]

    def __repr__(self) -> str:
        return "<Partition [%d,%d) slices %d..%d, %d tails>" % (
            self.begin_offset,
            self.end_offset,
            self.si,
            self.sj,
            len(self.split_tails),
        )


class AllocaSlices:
    """The slices of one alloca (LLVM ``AllocaSlices``); built by :class:`SliceBuilder`."""

    __slots__ = (
        "alloca",
        "slices",
        "dead_users",
        "dead_uses_if_promotable",
        "dead_operands",
        "pointer_escaping_instr",
    )

    def __init__(self, dl: DataLayout, ai: AllocaInst) -> None:
        self.alloca = ai
        self.slices: list[Slice] = []
        self.dead_users: list[Instruction] = []
        self.dead_uses_if_promotable: list[Use] = []
        self.dead_operands: list[Use] = []
        self.pointer_escaping_instr: Instruction | None = None
        builder = SliceBuilder(dl, ai, self)
        builder.visit_ptr(ai)
        if builder.escaped or builder.aborted:
            bad = builder.escaping_inst if builder.escaping_inst is not None else builder.aborting_inst
            assert bad is not None, "Did not track a bad instruction"
            self.pointer_escaping_instr = bad
            return
        live = [s for s in self.slices if s.use is not None]
        live.sort(key=_slice_key)
        self.slices = live

    def is_escaped(self) -> bool:
        return self.pointer_escaping_instr is not None

    def erase(self, start: int, stop: int) -> None:
        del self.slices[start:stop]

    def insert(self, new_slices: Sequence[Slice]) -> None:
        """Add slices, keeping the order (LLVM: stable sort of the new ones, then an
        in-place merge in which old slices come first among equals)."""
        merged = self.slices + sorted(new_slices, key=_slice_key)
        merged.sort(key=_slice_key)
        self.slices = merged

    def __iter__(self) -> Iterator[Slice]:
        return iter(self.slices)

    def __len__(self) -> int:
        return len(self.slices)

    def partitions(self) -> Iterator[Partition]:
        """The partitions of the slices, in offset order (LLVM ``partition_iterator``)."""
        slices = self.slices
        se = len(slices)
        p = Partition(self, 0)
        if se == 0:
            return
        max_split_end = 0
        while True:
            # LLVM partition_iterator::advance()
            if p.split_tails:
                if p.end_offset >= max_split_end:
                    p.split_tails.clear()
                    max_split_end = 0
                else:
                    end = p.end_offset
                    p.split_tails = [s for s in p.split_tails if s.end_offset > end]
            if p.si == se:
                return
            formed = False
            if p.si != p.sj:
                for i in range(p.si, p.sj):
                    s = slices[i]
                    if s.splittable and s.end_offset > p.end_offset:
                        p.split_tails.append(s)
                        if s.end_offset > max_split_end:
                            max_split_end = s.end_offset
                p.si = p.sj
                if p.si == se:
                    p.begin_offset = p.end_offset
                    p.end_offset = max_split_end
                    formed = True
                elif p.split_tails and slices[p.si].begin_offset != p.end_offset and not slices[p.si].splittable:
                    p.begin_offset = p.end_offset
                    p.end_offset = slices[p.si].begin_offset
                    formed = True
            if not formed:
                first = slices[p.si]
                p.begin_offset = first.begin_offset if not p.split_tails else p.end_offset
                p.end_offset = first.end_offset
                p.sj += 1
                if not first.splittable:
                    while p.sj != se and slices[p.sj].begin_offset < p.end_offset:
                        nxt = slices[p.sj]
                        if not nxt.splittable and nxt.end_offset > p.end_offset:
                            p.end_offset = nxt.end_offset
                        p.sj += 1
                else:
                    while p.sj != se and slices[p.sj].begin_offset < p.end_offset and slices[p.sj].splittable:
                        if slices[p.sj].end_offset > p.end_offset:
                            p.end_offset = slices[p.sj].end_offset
                        p.sj += 1
                    if p.sj != se and slices[p.sj].begin_offset < p.end_offset:
                        p.end_offset = slices[p.sj].begin_offset
            # The end of the walk: no slice left and no split tail pending.
            if p.si == se and not p.split_tails:
                return
            yield p


class SliceBuilder:
    """Walks the uses of an alloca's address and records slices into an
    :class:`AllocaSlices` (LLVM ``AllocaSlices::SliceBuilder`` over ``PtrUseVisitor``)."""

    __slots__ = (
        "dl",
        "alloc_size",
        "as_",
        "mem_transfer_slice_map",
        "phi_or_select_sizes",
        "visited_dead_insts",
        "worklist",
        "visited_uses",
        "u",
        "is_offset_known",
        "offset",
        "offset_mask",
        "aborted",
        "escaped",
        "aborting_inst",
        "escaping_inst",
    )

    def __init__(self, dl: DataLayout, ai: AllocaInst, slices: AllocaSlices) -> None:
        self.dl = dl
        self.alloc_size = dl.type_alloc_size(ai.allocated_type)
        self.as_ = slices
        self.mem_transfer_slice_map: dict[Instruction, int] = {}
        self.phi_or_select_sizes: dict[Instruction, int] = {}
        self.visited_dead_insts: set[Instruction] = set()
        self.worklist: list[tuple[Use, bool, int]] = []
        self.visited_uses: set[Use] = set()
        self.u: Use = None  # type: ignore[assignment]
        self.is_offset_known = True
        self.offset = 0
        self.offset_mask = 0
        self.aborted = False
        self.escaped = False
        self.aborting_inst: Instruction | None = None
        self.escaping_inst: Instruction | None = None

    # --- PtrUseVisitor ----------------------------------------------------------------------
    def set_aborted(self, inst: Instruction) -> None:
        self.aborted = True
        self.aborting_inst = inst

    def set_escaped(self, inst: Instruction) -> None:
        self.escaped = True
        self.escaping_inst = inst

    def set_escaped_and_aborted(self, inst: Instruction) -> None:
        self.set_escaped(inst)
        self.set_aborted(inst)

    def visit_ptr(self, inst: Instruction) -> None:
        width = self.dl.index_type_size_in_bits(inst.type)
        self.offset_mask = (1 << width) - 1
        self.is_offset_known = True
        self.offset = 0
        self.enqueue_users(inst)
        worklist = self.worklist
        while worklist:
            use, known, offset = worklist.pop()
            self.u = use
            self.is_offset_known = known
            if known:
                self.offset = offset
            user = use.user
            assert isinstance(user, Instruction)
            self.visit(user)
            if self.aborted:
                break

    def enqueue_users(self, inst: Value) -> None:
        visited = self.visited_uses
        known = self.is_offset_known
        offset = self.offset
        for use in inst.uses:
            if use not in visited:
                visited.add(use)
                self.worklist.append((use, known, offset))

    def adjust_offset_for_gep(self, gep: Instruction) -> bool:
        if not self.is_offset_known:
            return False
        width = self.dl.index_type_size_in_bits(gep.type)
        tmp = accumulate_constant_offset(self.dl, gep, width)
        if tmp is None:
            return False
        if tmp >> (width - 1):
            tmp -= 1 << width
        self.offset = (self.offset + tmp) & self.offset_mask
        return True

    # --- dispatch ---------------------------------------------------------------------------
    def visit(self, inst: Instruction) -> None:
        op = inst.opcode
        if op == "load":
            self.visit_load(inst)
        elif op == "store":
            self.visit_store(inst)
        elif op == "getelementptr":
            self.visit_gep(inst)
        elif op == "bitcast" or op == "addrspacecast":
            if inst.use_empty:
                self.mark_as_dead(inst)
            else:
                self.enqueue_users(inst)
        elif op == "phi" or op == "select":
            self.visit_phi_node_or_select_inst(inst)
        elif op == "call":
            base: str = inst.intrinsic_base  # type: ignore[attr-defined]
            if not base:
                self.set_escaped_and_aborted(inst)
            elif base in _MEM_TRANSFER:
                self.visit_mem_transfer(inst)
            elif base in _MEM_SET:
                self.visit_mem_set(inst)
            elif base in _DBG_INFO:
                return
            else:
                self.visit_intrinsic(inst, base)
        elif op == "invoke" or op == "callbr":
            self.set_escaped_and_aborted(inst)
        elif op == "ptrtoint":
            self.set_escaped(inst)
        else:
            self.set_aborted(inst)

    # --- SliceBuilder -----------------------------------------------------------------------
    def mark_as_dead(self, inst: Instruction) -> None:
        if inst not in self.visited_dead_insts:
            self.visited_dead_insts.add(inst)
            self.as_.dead_users.append(inst)

    def insert_use(self, inst: Instruction, offset: int, size: int, splittable: bool = False) -> None:
        alloc_size = self.alloc_size
        if size == 0 or offset >= alloc_size:
            self.mark_as_dead(inst)
            return
        begin = offset
        end = begin + size
        if size > alloc_size - begin:
            end = alloc_size
        self.as_.slices.append(Slice(begin, end, self.u, splittable))

    def visit_gep(self, gep: Instruction) -> None:
        if gep.use_empty:
            self.mark_as_dead(gep)
            return
        if not self.adjust_offset_for_gep(gep):
            self.is_offset_known = False
            self.offset = 0
        self.enqueue_users(gep)

    def handle_load_or_store(self, ty: object, inst: Instruction, offset: int, size: int, volatile: bool) -> None:
        from llvmpy_mid.ir.types import Type

        assert isinstance(ty, Type)
        splittable = ty.is_integer and not volatile and self.dl.type_size_equals_store_size(ty)
        self.insert_use(inst, offset, size, splittable)

    def visit_load(self, li: Instruction) -> None:
        if not self.is_offset_known:
            self.set_aborted(li)
            return
        ty = li.type
        if self.dl.is_scalable(ty):
            self.set_aborted(li)
            return
        size = self.dl.type_store_size(ty)
        self.handle_load_or_store(ty, li, self.offset, size, li.is_volatile)

    def visit_store(self, si: Instruction) -> None:
        val = si.get_operand(0)
        if val is self.u.value:
            self.set_escaped_and_aborted(si)
            return
        if not self.is_offset_known:
            self.set_aborted(si)
            return
        ty = val.type
        if self.dl.is_scalable(ty):
            self.set_aborted(si)
            return
        size = self.dl.type_store_size(ty)
        alloc_size = self.alloc_size
        if size > alloc_size or self.offset > alloc_size - size:
            self.mark_as_dead(si)
            return
        self.handle_load_or_store(ty, si, self.offset, size, si.is_volatile)

    def visit_mem_set(self, ii: Instruction) -> None:
        length = ii.get_operand(2)
        clen = length if isinstance(length, ConstantInt) else None
        if (clen is not None and clen.value == 0) or (self.is_offset_known and self.offset >= self.alloc_size):
            self.mark_as_dead(ii)
            return
        if not self.is_offset_known:
            self.set_aborted(ii)
            return
        if clen is not None:
            size = _limited_value(clen.value)
        else:
            size = self.alloc_size - _limited_value(self.offset)
        self.insert_use(ii, self.offset, size, clen is not None)

    def visit_mem_transfer(self, ii: Instruction) -> None:
        length = ii.get_operand(2)
        clen = length if isinstance(length, ConstantInt) else None
        if clen is not None and clen.value == 0:
            self.mark_as_dead(ii)
            return
        if ii in self.visited_dead_insts:
            return
        if not self.is_offset_known:
            self.set_aborted(ii)
            return
        slices = self.as_.slices
        if self.offset >= self.alloc_size:
            idx = self.mem_transfer_slice_map.get(ii)
            if idx is not None:
                slices[idx].kill()
            self.mark_as_dead(ii)
            return
        raw_offset = _limited_value(self.offset)
        size = _limited_value(clen.value) if clen is not None else self.alloc_size - raw_offset
        ptr = self.u.value
        volatile = ii.is_volatile
        if ptr is ii.get_operand(0) and ptr is ii.get_operand(1):
            if not volatile:
                self.mark_as_dead(ii)
                return
            self.insert_use(ii, self.offset, size, False)
            return
        prev_idx = self.mem_transfer_slice_map.get(ii)
        inserted = prev_idx is None
        if prev_idx is None:
            self.mem_transfer_slice_map[ii] = len(slices)
        else:
            prev = slices[prev_idx]
            if not volatile and prev.begin_offset == raw_offset:
                prev.kill()
                self.mark_as_dead(ii)
                return
            prev.make_unsplittable()
        self.insert_use(ii, self.offset, size, inserted and clen is not None)

    def visit_intrinsic(self, ii: Instruction, base: str) -> None:
        if base in _DROPPABLE:
            self.as_.dead_uses_if_promotable.append(self.u)
            return
        if not self.is_offset_known:
            self.set_aborted(ii)
            return
        if base in _LIFETIME:
            length = ii.get_operand(0)
            assert isinstance(length, ConstantInt)
            size = min((self.alloc_size - _limited_value(self.offset)) & _UINT64_MAX, _limited_value(length.value))
            self.insert_use(ii, self.offset, size, True)
            return
        if base in _LAUNDER_OR_STRIP:
            self.insert_use(ii, self.offset, self.alloc_size, True)
            self.enqueue_users(ii)
            return
        # PtrUseVisitor: any other intrinsic call escapes the pointer, and SliceBuilder
        # gives up on it.
        self.set_escaped_and_aborted(ii)

    def has_unsafe_phi_or_select_use(self, root: Instruction) -> tuple[Instruction | None, int]:
        """(unsafe user or None, the largest size loaded or stored through ``root``)."""
        dl = self.dl
        visited: set[Instruction] = {root}
        used = self.u.value
        stack: list[tuple[Value, Instruction]] = [(used, root)]
        size = 0
        while stack:
            used_i, inst = stack.pop()
            op = inst.opcode
            if op == "load":
                ty = inst.type
                if dl.is_scalable(ty):
                    self.set_aborted(inst)
                    return None, size
                size = max(size, dl.type_store_size(ty))
                continue
            if op == "store":
                val = inst.get_operand(0)
                if val is used_i:
                    return inst, size
                ty = val.type
                if dl.is_scalable(ty):
                    self.set_aborted(inst)
                    return None, size
                size = max(size, dl.type_store_size(ty))
                continue
            if op == "getelementptr":
                if not inst.has_all_zero_indices:  # type: ignore[attr-defined]
                    return inst, size
            elif op not in ("bitcast", "phi", "select", "addrspacecast"):
                return inst, size
            for user in inst.users:
                assert isinstance(user, Instruction)
                if user not in visited:
                    visited.add(user)
                    stack.append((inst, user))
        return None, size

    def visit_phi_node_or_select_inst(self, inst: Instruction) -> None:
        if inst.use_empty:
            self.mark_as_dead(inst)
            return
        if inst.opcode == "phi":
            bb = inst.parent
            if bb is not None and bb.first_insertion_point is None:
                self.set_aborted(inst)
                return
        from llvmpy_mid.transform.scalar.sroa_speculation import fold_phi_node_or_select_inst

        result = fold_phi_node_or_select_inst(inst)
        if result is not None:
            if result is self.u.value:
                self.enqueue_users(inst)
            else:
                self.as_.dead_operands.append(self.u)
            return
        if not self.is_offset_known:
            self.set_aborted(inst)
            return
        size = self.phi_or_select_sizes.get(inst, 0)
        if not size:
            unsafe, size = self.has_unsafe_phi_or_select_use(inst)
            self.phi_or_select_sizes[inst] = size
            if unsafe is not None:
                self.set_aborted(unsafe)
                return
            # A scalable access aborted the walk inside the helper.
            if self.aborted:
                return
        if self.offset >= self.alloc_size:
            self.as_.dead_operands.append(self.u)
            return
        self.insert_use(inst, self.offset, size)
