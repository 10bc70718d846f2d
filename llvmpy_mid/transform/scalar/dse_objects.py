"""The object facts dead store elimination asks about (after LLVM 19.1.7
``lib/Transforms/Scalar/DeadStoreElimination.cpp``, the caches of ``DSEState``): is an
object invisible to the caller after the function returns or unwinds (allocas, ``byval``
and ``dead_on_unwind`` arguments, ``noalias`` calls that do not escape), may something
throw between two writes, is a dead candidate a barrier (may throw, or an atomic access
stronger than monotonic), and which MemoryDefs the upward walk may step over.

:class:`DSEObjects` holds the per-run caches; ``DSEState`` in
:mod:`llvmpy_mid.transform.scalar.dse` derives from it.
"""

from __future__ import annotations

from llvmpy_mid.analysis.alias.earliest_escape_info import EarliestEscapeInfo
from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured
from llvmpy_mid.analysis.alias.object_visibility import is_not_visible_on_unwind
from llvmpy_mid.analysis.loads import is_no_alias_call
from llvmpy_mid.analysis.memory_ssa import MemoryAccess, MemoryDef, MemoryUseOrDef
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.memory import AllocaInst, AtomicCmpXchgInst, AtomicRMWInst, FenceInst, LoadInst, StoreInst
from llvmpy_mid.ir.value import Value

__all__ = ["DSEObjects", "is_noop_intrinsic"]


def _inst(ma: MemoryUseOrDef) -> Instruction:
    """The instruction of a def or use other than ``liveOnEntry``."""
    inst = ma.memory_inst
    assert inst is not None
    return inst


def _defining(ma: MemoryUseOrDef) -> MemoryAccess:
    """The defining access of a def or use other than ``liveOnEntry``."""
    d = ma.get_defining_access()
    assert d is not None
    return d

_NOOP_INTRINSICS = frozenset(
    ("llvm.lifetime.start", "llvm.lifetime.end", "llvm.invariant.end", "llvm.launder.invariant.group", "llvm.assume")
)


def _intrinsic(i: Instruction) -> str:
    return i.intrinsic_base if isinstance(i, CallBase) else ""



def is_noop_intrinsic(i: Instruction) -> bool:
    """Intrinsics MemorySSA models as defs that neither read nor write user memory."""
    return _intrinsic(i) in _NOOP_INTRINSICS



def _stronger_than_monotonic(o: AtomicOrdering) -> bool:
    return bool(o.is_stronger_than_monotonic)




class DSEObjects:
    """The object caches of one DSE run."""

    def __init__(self, ei: EarliestEscapeInfo) -> None:
        self.ei = ei
        self.captured_before_return: dict[Value, bool] = {}
        self.invisible_to_caller_after_ret: dict[Value, bool] = {}
        self.throwing_blocks: set[BasicBlock] = set()

    def forget_stored_pointer(self, uo: Value) -> bool:
        """A store of a pointer to ``uo`` was deleted: its capture facts may change.
        True when a cached capture answer was dropped."""
        dropped = self.captured_before_return.pop(uo, None) is not None
        self.invisible_to_caller_after_ret.pop(uo, None)
        return dropped

    def is_invisible_to_caller_after_ret(self, v: Value) -> bool:
        if isinstance(v, AllocaInst):
            return True
        found = self.invisible_to_caller_after_ret.get(v)
        if found is None:
            found = False
            if not self.is_invisible_to_caller_on_unwind(v):
                found = False
            elif is_no_alias_call(v):
                found = not pointer_may_be_captured(v, True, False)
            self.invisible_to_caller_after_ret[v] = found
        return found

    def is_invisible_to_caller_on_unwind(self, v: Value) -> bool:
        not_visible, requires_no_capture = is_not_visible_on_unwind(v)
        if not not_visible:
            return False
        if not requires_no_capture:
            return True
        captured = self.captured_before_return.get(v)
        if captured is None:
            captured = pointer_may_be_captured(v, False, True)
            self.captured_before_return[v] = captured
        return not captured

    def may_throw_between(self, killing_i: Instruction, dead_i: Instruction, killing_und_obj: Value | None) -> bool:
        if killing_und_obj is not None and self.is_invisible_to_caller_on_unwind(killing_und_obj):
            return False
        if killing_i.parent is dead_i.parent:
            return killing_i.parent in self.throwing_blocks
        return bool(self.throwing_blocks)

    def is_dse_barrier(self, killing_und_obj: Value, dead_i: Instruction) -> bool:
        if dead_i.may_throw() and not self.is_invisible_to_caller_on_unwind(killing_und_obj):
            return True
        if dead_i.is_atomic:
            if isinstance(dead_i, (LoadInst, StoreInst, AtomicRMWInst)):
                return bool(_stronger_than_monotonic(dead_i.ordering))
            if isinstance(dead_i, AtomicCmpXchgInst):
                return bool(_stronger_than_monotonic(dead_i.success_ordering) or _stronger_than_monotonic(dead_i.failure_ordering))
        return False

    def can_skip_def(self, d: MemoryDef, def_visible_to_caller: bool) -> bool:
        di = _inst(d)
        if isinstance(di, CallBase) and di.only_accesses_inaccessible_memory:
            return True
        if di.may_throw() and not def_visible_to_caller:
            return True
        if isinstance(di, FenceInst):
            return True
        return is_noop_intrinsic(di)

