"""The answers and scanning helpers of memory dependence analysis (LLVM's
``MemDepResult``, ``NonLocalDepEntry`` and ``NonLocalDepResult`` from
``include/llvm/Analysis/MemoryDependenceAnalysis.h``, and the static helpers of
``lib/Analysis/MemoryDependenceAnalysis.cpp``: ``GetLocation``, ``canSkipClobberingStore``,
the scan limits). :mod:`llvmpy_mid.analysis.memory_dependence` holds the queries and
re-exports the public names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.analysis.alias.aa_results import BatchAAResults, is_mod_set
from llvmpy_mid.analysis.alias.alias_result import AliasKind
from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import VAArgInst
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.basic_block import BasicBlock

#: The most results a non-local pointer query collects before it gives up (LLVM
#: ``NumResultsLimit``).
NUM_RESULTS_LIMIT = 100

_INVALID = 0
_CLOBBER = 1
_DEF = 2
_NON_LOCAL = 3
_NON_FUNC_LOCAL = 4
_UNKNOWN = 5
_KIND_NAMES = ("Invalid", "Clobber", "Def", "NonLocal", "NonFuncLocal", "Unknown")


def block_scan_limit() -> int:
    """``-memdep-block-scan-limit`` (100)."""
    return _uint_option("memdep-block-scan-limit", 100)


def block_number_limit() -> int:
    """``-memdep-block-number-limit`` (200)."""
    return _uint_option("memdep-block-number-limit", 200)


def _uint_option(name: str, default: int) -> int:
    if OPTIONS.get(name) is None:
        return default
    value = OPTIONS.value(name)
    return int(value) if isinstance(value, int) else default


class MemDepResult:
    """One dependence answer (LLVM ``MemDepResult``). Immutable; compare with ``==``."""

    __slots__ = ("_kind", "_inst")

    def __init__(self, kind: int = _INVALID, inst: Instruction | None = None) -> None:
        self._kind = kind
        self._inst = inst

    # --- constructors ---------------------------------------------------------------------------
    @staticmethod
    def get_def(inst: Instruction) -> MemDepResult:
        return MemDepResult(_DEF, inst)

    @staticmethod
    def get_clobber(inst: Instruction) -> MemDepResult:
        return MemDepResult(_CLOBBER, inst)

    @staticmethod
    def get_non_local() -> MemDepResult:
        return _NON_LOCAL_RESULT

    @staticmethod
    def get_non_func_local() -> MemDepResult:
        return _NON_FUNC_LOCAL_RESULT

    @staticmethod
    def get_unknown() -> MemDepResult:
        return _UNKNOWN_RESULT

    @staticmethod
    def get_dirty(inst: Instruction | None) -> MemDepResult:
        return MemDepResult(_INVALID, inst)

    # --- queries --------------------------------------------------------------------------------
    def is_clobber(self) -> bool:
        return self._kind == _CLOBBER

    def is_def(self) -> bool:
        return self._kind == _DEF

    def is_local(self) -> bool:
        """A ``Clobber`` or a ``Def``."""
        return self._kind == _CLOBBER or self._kind == _DEF

    def is_non_local(self) -> bool:
        return self._kind == _NON_LOCAL

    def is_non_func_local(self) -> bool:
        return self._kind == _NON_FUNC_LOCAL

    def is_unknown(self) -> bool:
        return self._kind == _UNKNOWN

    def is_dirty(self) -> bool:
        return self._kind == _INVALID

    def get_inst(self) -> Instruction | None:
        """The instruction of a Def, Clobber or dirty result; None otherwise."""
        return self._inst

    @property
    def inst(self) -> Instruction | None:
        return self._inst

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemDepResult) and self._kind == other._kind and self._inst is other._inst

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self._kind, id(self._inst)))

    def __repr__(self) -> str:
        if self._inst is None:
            return "MemDepResult(%s)" % _KIND_NAMES[self._kind]
        return "MemDepResult(%s, %s)" % (_KIND_NAMES[self._kind], str(self._inst).strip())


_NON_LOCAL_RESULT = MemDepResult(_NON_LOCAL)
_NON_FUNC_LOCAL_RESULT = MemDepResult(_NON_FUNC_LOCAL)
_UNKNOWN_RESULT = MemDepResult(_UNKNOWN)
_DIRTY_NONE = MemDepResult(_INVALID)


class NonLocalDepEntry:
    """A block and the dependence found in it (LLVM ``NonLocalDepEntry``)."""

    __slots__ = ("bb", "result")

    def __init__(self, bb: BasicBlock, result: MemDepResult = _DIRTY_NONE) -> None:
        self.bb = bb
        self.result = result

    def get_bb(self) -> BasicBlock:
        return self.bb

    def get_result(self) -> MemDepResult:
        return self.result

    def set_result(self, result: MemDepResult) -> None:
        self.result = result

    def __repr__(self) -> str:
        return "NonLocalDepEntry(%s, %r)" % (self.bb.name, self.result)


class NonLocalDepResult:
    """A block, the dependence found in it and the (phi-translated) address queried there
    (LLVM ``NonLocalDepResult``)."""

    __slots__ = ("bb", "result", "address")

    def __init__(self, bb: BasicBlock, result: MemDepResult, address: Value | None) -> None:
        self.bb = bb
        self.result = result
        self.address = address

    def get_bb(self) -> BasicBlock:
        return self.bb

    def get_result(self) -> MemDepResult:
        return self.result

    def get_address(self) -> Value | None:
        return self.address

    def set_result(self, result: MemDepResult, address: Value | None) -> None:
        self.result = result
        self.address = address

    def __repr__(self) -> str:
        return "NonLocalDepResult(%s, %r)" % (self.bb.name, self.result)


class _NonLocalPointerInfo:
    """The cached non-local answers of one (pointer, is-load) key: the (start block,
    skip-first-block) pair they are complete for (None: incomplete), the per-block
    entries and the size and AA tags they were computed with."""

    __slots__ = ("pair", "non_local_deps", "size", "aa_tags")

    def __init__(self, size: LocationSize, aa_tags: Any) -> None:
        self.pair: tuple[BasicBlock, bool] | None = None
        self.non_local_deps: list[NonLocalDepEntry] = []
        self.size = size
        self.aa_tags = aa_tags


_PtrKey = tuple[Value, bool]


def _remove_from_reverse_map(reverse: dict[Instruction, set[Any]], inst: Instruction, val: Any) -> None:
    found = reverse.get(inst)
    assert found is not None, "reverse map out of sync"
    found.discard(val)
    if not found:
        del reverse[inst]


def _is_dbg_info_intrinsic(inst: Instruction) -> bool:
    """LLVM ``DbgInfoIntrinsic``: a call of an ``llvm.dbg.*`` intrinsic."""
    return isinstance(inst, CallBase) and inst.intrinsic_base.startswith("llvm.dbg.")


def _is_unordered(inst: LoadInst | StoreInst) -> bool:
    return bool(inst.is_unordered)


def _get_location(inst: Instruction, tli: TargetLibraryInfo) -> tuple[ModRefInfo, MemoryLocation | None]:
    """LLVM's ``GetLocation``: what ``inst`` does in general, and the location it accesses
    when it accesses one specific location."""
    tp = type(inst)
    if tp is LoadInst:
        assert isinstance(inst, LoadInst)
        if _is_unordered(inst):
            return ModRefInfo.REF, MemoryLocation.get(inst)
        if inst.ordering is AtomicOrdering.MONOTONIC:
            return ModRefInfo.MOD_REF, MemoryLocation.get(inst)
        return ModRefInfo.MOD_REF, None
    if tp is StoreInst:
        assert isinstance(inst, StoreInst)
        if _is_unordered(inst):
            return ModRefInfo.MOD, MemoryLocation.get(inst)
        if inst.ordering is AtomicOrdering.MONOTONIC:
            return ModRefInfo.MOD_REF, MemoryLocation.get(inst)
        return ModRefInfo.MOD_REF, None
    if tp is VAArgInst:
        return ModRefInfo.MOD_REF, MemoryLocation.get(inst)
    if isinstance(inst, CallBase):
        from llvmpy_mid.analysis.memory_builtins import get_freed_operand

        freed = get_freed_operand(inst, tli)
        if freed is not None:
            return ModRefInfo.MOD, MemoryLocation.get_after(freed)
        base = inst.intrinsic_base
        if base:
            if base in ("llvm.lifetime.start", "llvm.lifetime.end", "llvm.invariant.start"):
                return ModRefInfo.MOD, MemoryLocation.get_for_argument(inst, 1, tli)
            if base == "llvm.invariant.end":
                return ModRefInfo.MOD, MemoryLocation.get_for_argument(inst, 2, tli)
            if base == "llvm.masked.load":
                return ModRefInfo.REF, MemoryLocation.get_for_argument(inst, 0, tli)
            if base == "llvm.masked.store":
                return ModRefInfo.MOD, MemoryLocation.get_for_argument(inst, 1, tli)
    if inst.may_write_to_memory():
        return ModRefInfo.MOD_REF, None
    if inst.may_read_from_memory():
        return ModRefInfo.REF, None
    return ModRefInfo.NO_MOD_REF, None


def _is_complex_for_reordering(inst: Instruction, ordering: AtomicOrdering) -> bool:
    """Volatile, or a load/store stronger than ``ordering``, or any other memory access."""
    if inst.is_volatile:
        return True
    if isinstance(inst, (LoadInst, StoreInst)):
        return inst.ordering.is_stronger_than(ordering)
    return inst.may_read_or_write_memory()


def _can_skip_clobbering_store(
    si: StoreInst, mem_loc: MemoryLocation, mem_loc_align: int, batch_aa: BatchAAResults, scan_limit: int
) -> bool:
    """The may-aliasing store ``si`` writes back the value a load of the same location
    read in the same block with no write in between, and cannot overlap partially."""
    size = mem_loc.size
    if not size.has_value:
        return False
    if MemoryLocation.get(si).size != size:
        return False
    if size.is_scalable:
        return False
    if min(mem_loc_align, si.alignment) < size.value:
        return False
    li = si.operands[0]
    if not isinstance(li, LoadInst) or li.parent is not si.parent:
        return False
    if batch_aa.alias(MemoryLocation.get(li), mem_loc).kind is not AliasKind.MUST_ALIAS:
        return False
    visited = 0
    cur: Instruction | None = li
    while cur is not None and cur is not si:
        visited += 1
        if visited > scan_limit or is_mod_set(batch_aa.get_mod_ref_info(cur, mem_loc)):
            return False
        cur = cur.next_instruction
        while cur is not None and cur is not si and _is_dbg_info_intrinsic(cur):
            cur = cur.next_instruction
    return True


class ScanLimit:
    """A scan budget shared by several block scans (LLVM's ``unsigned *Limit``): each
    instruction examined takes one; the scan gives up (Unknown) when it reaches zero."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value
