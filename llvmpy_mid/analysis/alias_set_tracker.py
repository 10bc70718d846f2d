"""Alias sets: memory accesses grouped so that accesses of different sets never alias
(LLVM 19.1.7 ``lib/Analysis/AliasSetTracker.cpp``, ``include/llvm/Analysis/AliasSetTracker.h``),
and the ``print-alias-sets`` function pass.

What: an :class:`AliasSetTracker` takes instructions (:meth:`~AliasSetTracker.add`),
memory locations (:meth:`~AliasSetTracker.add_location`), blocks or another tracker. A
load, store, ``va_arg``, memset or memcpy/memmove adds its memory locations (with the
access kind: ``Ref``, ``Mod``); a call that only accesses its pointer arguments adds one
location per argument it may access; any other instruction that touches memory is an
*unknown instruction* of the set(s) it may interfere with. Adding a location merges all
the sets it may alias (:meth:`AliasSet.merge_set_in`); a merged set *forwards* to the set
it was merged into, and forwarding sets are reference counted and dropped as LLVM drops
them, so the printed reference counts and forwarding lines are opt-19's. A set is a
*must-alias* set while every pair of its locations is known to must-alias. When the
tracker holds more than ``-alias-set-saturation-threshold`` (250) locations it saturates:
everything goes into one may-alias ``Mod/Ref`` set.

Queries go through a :class:`~llvmpy_mid.analysis.alias.aa_results.BatchAAResults`.
Printing (:meth:`AliasSetTracker.print_text`) is LLVM's; set addresses are stable fake
ones of the shape LLVM prints (``0x55...``), since Python objects have no meaningful
address.

What it does not do: the legacy pass-manager wrapper; ``AssertingVH`` checks (a value
erased while tracked is not noticed).
"""

from __future__ import annotations

import sys
from typing import ClassVar, Iterator, TextIO

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
from llvmpy_mid.analysis.alias.alias_result import AliasKind, AliasResult, MAY_ALIAS, NO_ALIAS
from llvmpy_mid.analysis.alias.memory_location import AFTER_POINTER, BEFORE_OR_AFTER_POINTER, MemoryLocation
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import VAArgInst
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["AliasSet", "AliasSetTracker", "AliasSetsPrinterPass", "NO_ACCESS", "REF_ACCESS", "MOD_ACCESS", "MOD_REF_ACCESS"]

NO_ACCESS = 0
REF_ACCESS = 1
MOD_ACCESS = 2
MOD_REF_ACCESS = 3

SET_MUST_ALIAS = 0
SET_MAY_ALIAS = 1

_ACCESS_TEXT = ("No access ", "Ref       ", "Mod       ", "Mod/Ref   ")

_MEMSET_INTRINSICS = frozenset(("llvm.memset", "llvm.memset.inline", "llvm.memset.element.unordered.atomic"))
_MEMTRANSFER_INTRINSICS = frozenset(
    (
        "llvm.memcpy", "llvm.memcpy.inline", "llvm.memmove",
        "llvm.memcpy.element.unordered.atomic", "llvm.memmove.element.unordered.atomic",
    )
)  # fmt: skip
_DBG_INFO_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.assign", "llvm.dbg.label"))
#: Marker intrinsics that look as if they touched memory but never join an alias set.
_IGNORED_INTRINSICS = frozenset(
    (
        "llvm.allow.runtime.check", "llvm.allow.ubsan.check", "llvm.assume",
        "llvm.experimental.noalias.scope.decl", "llvm.sideeffect", "llvm.pseudoprobe",
    )
)  # fmt: skip

_ADDRESS_BASE = 0x55D0A5E70000
_ADDRESS_STEP = 0x60


def _saturation_threshold() -> int:
    return int(OPTIONS.value("alias-set-saturation-threshold"))


def _is_unused_invariant_start(inst: Instruction) -> bool:
    return isinstance(inst, CallBase) and inst.intrinsic_base == "llvm.invariant.start" and not inst.has_uses


def _access_of(mr: ModRefInfo | int) -> int:
    return int(mr) & MOD_REF_ACCESS


class AliasSet:
    """One alias set (LLVM ``AliasSet``): its memory locations, its unknown instructions,
    how it is accessed (:attr:`access`: ``NO_ACCESS``/``REF_ACCESS``/``MOD_ACCESS``/
    ``MOD_REF_ACCESS``) and whether all its locations must-alias."""

    __slots__ = ("forward", "memory_locs", "unknown_insts", "ref_count", "alias_any", "access", "alias", "address")

    def __init__(self, address: int) -> None:
        self.forward: AliasSet | None = None
        self.memory_locs: list[MemoryLocation] = []
        self.unknown_insts: list[Instruction] = []
        self.ref_count = 0
        self.alias_any = False
        self.access = NO_ACCESS
        self.alias = SET_MUST_ALIAS
        self.address = address

    # --- properties ---------------------------------------------------------------------------
    @property
    def is_ref(self) -> bool:
        return bool(self.access & REF_ACCESS)

    @property
    def is_mod(self) -> bool:
        return bool(self.access & MOD_ACCESS)

    @property
    def is_must_alias(self) -> bool:
        return self.alias == SET_MUST_ALIAS

    @property
    def is_may_alias(self) -> bool:
        return self.alias == SET_MAY_ALIAS

    @property
    def is_forwarding(self) -> bool:
        return self.forward is not None

    def __len__(self) -> int:
        return len(self.memory_locs)

    def __iter__(self) -> Iterator[MemoryLocation]:
        return iter(self.memory_locs)

    def pointers(self) -> list[Value]:
        """The distinct pointers of the set's locations, in order (LLVM ``getPointers``)."""
        seen: dict[int, Value] = {}
        for loc in self.memory_locs:
            if loc.ptr is not None:
                seen.setdefault(id(loc.ptr), loc.ptr)
        return list(seen.values())

    # --- queries ------------------------------------------------------------------------------
    def aliases_memory_location(self, loc: MemoryLocation, aa: BatchAAResults) -> AliasResult:
        """The first non-``NoAlias`` answer of ``loc`` against the set's locations;
        ``MayAlias`` if an unknown instruction may access it; else ``NoAlias``."""
        if self.alias_any:
            return MAY_ALIAS
        for mine in self.memory_locs:
            ar = aa.alias(loc, mine)
            if ar.kind is not AliasKind.NO_ALIAS:
                return ar
        for inst in self.unknown_insts:
            if aa.get_mod_ref_info(inst, loc):
                return MAY_ALIAS
        return NO_ALIAS

    def aliases_unknown_inst(self, inst: Instruction, aa: BatchAAResults) -> ModRefInfo:
        """How ``inst`` may interfere with the set (LLVM ``aliasesUnknownInst``)."""
        if self.alias_any:
            return ModRefInfo.MOD_REF
        if not inst.may_read_or_write_memory():
            return ModRefInfo.NO_MOD_REF
        for unknown in self.unknown_insts:
            if not isinstance(unknown, CallBase) or not isinstance(inst, CallBase):
                return ModRefInfo.MOD_REF
            if aa.get_mod_ref_info_call(unknown, inst) or aa.get_mod_ref_info_call(inst, unknown):
                return ModRefInfo.MOD_REF
        mr = 0
        for mine in self.memory_locs:
            mr |= aa.get_mod_ref_info(inst, mine)
            if mr == ModRefInfo.MOD_REF:
                break
        return ModRefInfo(mr)

    # --- updates (the tracker drives these) -----------------------------------------------------
    def merge_set_in(self, other: AliasSet, tracker: AliasSetTracker, aa: BatchAAResults) -> None:
        """Take ``other``'s locations and unknown instructions; ``other`` forwards here."""
        assert other.forward is None and self.forward is None
        self.access |= other.access
        self.alias |= other.alias
        if self.alias == SET_MUST_ALIAS:
            if not any(aa.is_must_alias(a, b) for a in self.memory_locs for b in other.memory_locs):
                self.alias = SET_MAY_ALIAS
        if not self.memory_locs:
            self.memory_locs, other.memory_locs = other.memory_locs, self.memory_locs
        else:
            self.memory_locs.extend(other.memory_locs)
            other.memory_locs = []
        other_had_unknown = bool(other.unknown_insts)
        if not self.unknown_insts:
            if other_had_unknown:
                self.unknown_insts, other.unknown_insts = other.unknown_insts, self.unknown_insts
                self.ref_count += 1
        elif other_had_unknown:
            self.unknown_insts.extend(other.unknown_insts)
            other.unknown_insts = []
        other.forward = self
        self.ref_count += 1
        if other_had_unknown:
            tracker._drop_ref(other)

    def _add_memory_location(self, tracker: AliasSetTracker, loc: MemoryLocation, known_must_alias: bool) -> None:
        if self.alias == SET_MUST_ALIAS and not known_must_alias:
            aa = tracker.aa
            if not any(aa.is_must_alias(loc, mine) for mine in self.memory_locs):
                self.alias = SET_MAY_ALIAS
        self.memory_locs.append(loc)
        tracker.total_alias_set_size += 1

    def _add_unknown_inst(self, inst: Instruction) -> None:
        if not self.unknown_insts:
            self.ref_count += 1
        self.unknown_insts.append(inst)
        may_write = (
            inst.may_write_to_memory()
            and not (isinstance(inst, CallBase) and inst.intrinsic_base == "llvm.experimental.guard")
            and not _is_unused_invariant_start(inst)
        )
        self.alias = SET_MAY_ALIAS
        if not may_write:
            self.access |= REF_ACCESS
        else:
            self.access = MOD_REF_ACCESS

    # --- printing -----------------------------------------------------------------------------
    def print_text(self, writer: object | None = None) -> str:
        """LLVM ``AliasSet::print`` (one set, ending in a newline)."""
        from llvmpy_mid.asm.printer import DiagnosticWriter, format_value

        dw = writer if isinstance(writer, DiagnosticWriter) else DiagnosticWriter(_module_of_set(self))
        out = ["  AliasSet[0x%x, %d] " % (self.address, self.ref_count)]
        out.append("must alias, " if self.alias == SET_MUST_ALIAS else "may alias, ")
        out.append(_ACCESS_TEXT[self.access])
        if self.forward is not None:
            out.append(" forwarding to 0x%x" % self.forward.address)
        if self.memory_locs:
            out.append("Memory locations: ")
            parts = []
            for loc in self.memory_locs:
                assert loc.ptr is not None
                size = loc.size
                if size == AFTER_POINTER:
                    size_text = "unknown after"
                elif size == BEFORE_OR_AFTER_POINTER:
                    size_text = "unknown before-or-after"
                else:
                    size_text = str(size)
                parts.append("(%s, %s)" % (dw.operand(loc.ptr), size_text))
            out.append(", ".join(parts))
        if self.unknown_insts:
            out.append("\n    %d Unknown instructions: " % len(self.unknown_insts))
            parts = []
            for inst in self.unknown_insts:
                # LLVM prints each with a fresh slot tracker (as format_value does)
                parts.append(dw.operand(inst) if inst.name else "  " + format_value(inst))
            out.append(", ".join(parts))
        out.append("\n")
        return "".join(out)

    def __repr__(self) -> str:
        return "<AliasSet 0x%x: %d locations, %d unknown>" % (self.address, len(self.memory_locs), len(self.unknown_insts))


def _module_of_set(alias_set: AliasSet) -> Module | None:
    for inst in alias_set.unknown_insts:
        return inst.module
    for loc in alias_set.memory_locs:
        ptr = loc.ptr
        if isinstance(ptr, Instruction):
            return ptr.module
    return None


class AliasSetTracker:
    """The alias sets of the accesses added so far (LLVM ``AliasSetTracker``)."""

    __slots__ = ("aa", "_sets", "pointer_map", "total_alias_set_size", "alias_any_set", "_next_address")

    def __init__(self, aa: BatchAAResults) -> None:
        self.aa = aa
        self._sets: dict[AliasSet, None] = {}
        """The live sets (forwarding ones included), in creation order."""
        self.pointer_map: dict[Value | None, AliasSet] = {}
        """Pointer value -> the set its locations went into (maybe forwarding)."""
        self.total_alias_set_size = 0
        self.alias_any_set: AliasSet | None = None
        """The one set everything goes into once the tracker is saturated."""
        self._next_address = _ADDRESS_BASE

    # --- the sets -------------------------------------------------------------------------------
    @property
    def alias_sets(self) -> list[AliasSet]:
        """Every live set, forwarding ones included, in LLVM's list order."""
        return list(self._sets)

    def __iter__(self) -> Iterator[AliasSet]:
        return iter(list(self._sets))

    def __len__(self) -> int:
        return len(self._sets)

    @property
    def is_saturated(self) -> bool:
        return self.alias_any_set is not None

    def clear(self) -> None:
        self.pointer_map.clear()
        self._sets.clear()
        self.total_alias_set_size = 0
        self.alias_any_set = None

    def _new_set(self) -> AliasSet:
        alias_set = AliasSet(self._next_address)
        self._next_address += _ADDRESS_STEP
        self._sets[alias_set] = None
        return alias_set

    # --- reference counting -----------------------------------------------------------------------
    def _drop_ref(self, alias_set: AliasSet) -> None:
        """One reference fewer; a set nobody refers to leaves the tracker (and drops its
        reference to the set it forwards to, and so on, iteratively)."""
        cur: AliasSet | None = alias_set
        while cur is not None:
            assert cur.ref_count >= 1, "invalid alias set reference count"
            cur.ref_count -= 1
            if cur.ref_count:
                return
            fwd = cur.forward
            if fwd is not None:
                cur.forward = None
            else:
                self.total_alias_set_size -= len(cur.memory_locs)
            self._sets.pop(cur, None)
            if cur is self.alias_any_set:
                self.alias_any_set = None
            cur = fwd

    def _collapse_forwarding(self, alias_set: AliasSet) -> AliasSet:
        """The set ``alias_set`` finally forwards to; a reference held on ``alias_set`` is
        moved there, and every set on the way forwards straight to it (LLVM
        ``collapseForwardingIn``)."""
        if alias_set.forward is None:
            return alias_set
        chain = [alias_set]
        nxt: AliasSet | None = alias_set.forward
        while nxt is not None:
            chain.append(nxt)
            nxt = nxt.forward
        final = chain[-1]
        for i in range(len(chain) - 3, -1, -1):
            target = chain[i + 1]
            final.ref_count += 1
            self._drop_ref(target)
            chain[i].forward = final
        final.ref_count += 1
        self._drop_ref(chain[0])
        return final

    # --- finding and merging sets ---------------------------------------------------------------
    def _merge_alias_sets_for_location(self, loc: MemoryLocation, ptr_set: AliasSet | None) -> tuple[AliasSet | None, bool]:
        found: AliasSet | None = None
        must_alias_all = True
        for alias_set in list(self._sets):
            if alias_set.forward is not None or alias_set not in self._sets:
                continue
            if alias_set is not ptr_set:
                ar = alias_set.aliases_memory_location(loc, self.aa)
                if ar.kind is AliasKind.NO_ALIAS:
                    continue
                if ar.kind is not AliasKind.MUST_ALIAS:
                    must_alias_all = False
            if found is None:
                found = alias_set
            else:
                found.merge_set_in(alias_set, self, self.aa)
        return found, must_alias_all

    def _find_alias_set_for_unknown_inst(self, inst: Instruction) -> AliasSet | None:
        found: AliasSet | None = None
        for alias_set in list(self._sets):
            if alias_set.forward is not None or alias_set not in self._sets:
                continue
            if not alias_set.aliases_unknown_inst(inst, self.aa):
                continue
            if found is None:
                found = alias_set
            else:
                found.merge_set_in(alias_set, self, self.aa)
        return found

    def get_alias_set_for(self, loc: MemoryLocation) -> AliasSet:
        """The set ``loc`` belongs to, adding it (and merging sets) as needed."""
        ptr = loc.ptr
        entry = self.pointer_map.get(ptr)
        if entry is not None:
            entry = self._collapse_forwarding(entry)
            self.pointer_map[ptr] = entry
            if loc in entry.memory_locs:
                return entry
        if self.alias_any_set is not None:
            alias_set = self.alias_any_set
            must_alias_all = False
        else:
            merged, must_alias_all = self._merge_alias_sets_for_location(loc, entry)
            if merged is not None:
                alias_set = merged
            else:
                alias_set = self._new_set()
                must_alias_all = True
        alias_set._add_memory_location(self, loc, must_alias_all)
        if entry is not None:
            entry = self._collapse_forwarding(entry)
            self.pointer_map[ptr] = entry
            assert entry is alias_set, "locations of one pointer in two alias sets"
        else:
            alias_set.ref_count += 1
            self.pointer_map[ptr] = alias_set
        return alias_set

    def _merge_all_alias_sets(self) -> AliasSet:
        """Saturation: one may-alias ``Mod/Ref`` set takes everything; the others forward to it."""
        previous = list(self._sets)
        any_set = self._new_set()
        self.alias_any_set = any_set
        any_set.alias = SET_MAY_ALIAS
        any_set.access = MOD_REF_ACCESS
        any_set.alias_any = True
        for cur in previous:
            fwd = cur.forward
            if fwd is not None:
                cur.forward = any_set
                any_set.ref_count += 1
                self._drop_ref(fwd)
                continue
            any_set.merge_set_in(cur, self, self.aa)
        return any_set

    def _add_memory_location(self, loc: MemoryLocation, access: int) -> AliasSet:
        alias_set = self.get_alias_set_for(loc)
        alias_set.access |= access
        if self.alias_any_set is None and self.total_alias_set_size > _saturation_threshold():
            return self._merge_all_alias_sets()
        return alias_set

    # --- adding -----------------------------------------------------------------------------
    def add_location(self, loc: MemoryLocation) -> None:
        """``add(const MemoryLocation &)``: a location with no access kind."""
        self._add_memory_location(loc, NO_ACCESS)

    def add_unknown(self, inst: Instruction) -> None:
        """``addUnknown``: an instruction whose accesses are not described by locations."""
        if isinstance(inst, CallBase):
            base = inst.intrinsic_base
            if base in _DBG_INFO_INTRINSICS or base in _IGNORED_INTRINSICS:
                return
        if not inst.may_read_or_write_memory():
            return
        alias_set = self._find_alias_set_for_unknown_inst(inst)
        if alias_set is None:
            alias_set = self._new_set()
        alias_set._add_unknown_inst(inst)

    def add(self, inst: Instruction) -> None:
        """Add one instruction (LLVM ``add(Instruction *)``)."""
        tp = type(inst)
        if tp is LoadInst or tp is StoreInst:
            assert isinstance(inst, (LoadInst, StoreInst))
            if inst.ordering.is_stronger_than_monotonic:
                self.add_unknown(inst)
                return
            self._add_memory_location(MemoryLocation.get(inst), REF_ACCESS if tp is LoadInst else MOD_ACCESS)
            return
        if tp is VAArgInst:
            self._add_memory_location(MemoryLocation.get(inst), MOD_REF_ACCESS)
            return
        if isinstance(inst, CallBase):
            base = inst.intrinsic_base
            if base in _MEMSET_INTRINSICS:
                self._add_memory_location(MemoryLocation.get_for_dest(inst), MOD_ACCESS)
                return
            if base in _MEMTRANSFER_INTRINSICS:
                self._add_memory_location(MemoryLocation.get_for_dest(inst), MOD_ACCESS)
                self._add_memory_location(MemoryLocation.get_for_source(inst), REF_ACCESS)
                return
            if inst.only_accesses_arg_memory:
                self._add_arg_mem_call(inst)
                return
        self.add_unknown(inst)

    def _add_arg_mem_call(self, call: CallBase) -> None:
        aa = self.aa
        call_mask = int(aa.get_memory_effects(call).get_mod_ref())
        if _is_unused_invariant_start(call):
            call_mask &= ModRefInfo.REF
        for idx, arg in enumerate(call.args):
            if not arg.type.is_pointer:
                continue
            loc = MemoryLocation.get_for_argument(call, idx, None)
            arg_mask = int(aa.get_arg_mod_ref_info(call, idx)) & call_mask
            if arg_mask:
                self._add_memory_location(loc, _access_of(arg_mask))

    def add_block(self, bb: BasicBlock) -> None:
        for inst in bb.instructions:
            self.add(inst)

    def add_tracker(self, other: AliasSetTracker) -> None:
        """Add everything another tracker (with the same AA) holds."""
        for alias_set in list(other._sets):
            if alias_set.forward is not None:
                continue
            for inst in alias_set.unknown_insts:
                self.add(inst)
            for loc in alias_set.memory_locs:
                self._add_memory_location(loc, alias_set.access)

    # --- printing -----------------------------------------------------------------------------
    def print_text(self) -> str:
        """LLVM ``AliasSetTracker::print``."""
        from llvmpy_mid.asm.printer import DiagnosticWriter

        module = None
        for alias_set in self._sets:
            module = _module_of_set(alias_set)
            if module is not None:
                break
        writer = DiagnosticWriter(module)
        out = ["Alias Set Tracker: %d" % len(self._sets)]
        if self.alias_any_set is not None:
            out.append(" (Saturated)")
        out.append(" alias sets for %d pointer values.\n" % len(self.pointer_map))
        for alias_set in self._sets:
            out.append(alias_set.print_text(writer))
        out.append("\n")
        return "".join(out)

    def __str__(self) -> str:
        return self.print_text()


class AliasSetsPrinterPass(Pass[Function]):
    """``print-alias-sets``: adds every instruction of the function to a tracker and
    prints it (to stderr by default, as opt-19)."""

    name: ClassVar[str] = "print-alias-sets"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        aa = am.get_result(AAManager, unit)
        tracker = AliasSetTracker(BatchAAResults(aa))
        out = self.stream if self.stream is not None else sys.stderr
        text = ["Alias sets for function '%s':\n" % unit.name]
        for bb in unit.blocks:
            for inst in bb.instructions:
                tracker.add(inst)
        text.append(tracker.print_text())
        out.write("".join(text))
        return PreservedAnalyses.all()
