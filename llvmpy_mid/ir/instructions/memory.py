"""Memory instructions: ``alloca``, ``load``, ``store``, ``fence``, ``cmpxchg``
and ``atomicrmw`` (LLVM ``AllocaInst`` ... ``AtomicRMWInst``).

Operand order is LLVM's: alloca ``(array_size,)``; load ``(pointer,)``; store
``(value, pointer)``; fence none; cmpxchg ``(pointer, compare, new_value)``;
atomicrmw ``(pointer, value)``. ``getelementptr`` lives in
``llvmpy_mid.ir.instructions.gep``; ``GetElementPtrInst`` and
``get_indexed_type`` are re-exported here so older imports keep working.

``alignment`` is in bytes; 0 means "not given yet" (the parser and the IR
builder fill it from the data layout, as LLVM does, so printed IR always has
one). ``sync_scope`` is a string: ``""`` for the system scope,
``"singlethread"``, or a target's named scope.

Memory effects follow LLVM's ``mayReadFromMemory``/``mayWriteToMemory``: a
load reads, and also counts as writing when volatile or ordered stronger than
``unordered``; a store writes, and also reads in those cases; fence, cmpxchg
and atomicrmw read and write. This module computes no addresses or offsets
(that needs a data layout) and does not verify orderings (the verifier does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import (
    AtomicOrdering,
    AtomicRMWBinOp,
)
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst, get_indexed_type
from llvmpy_mid.ir.types import (
    PointerType,
    Type,
    TypeID,
    mismatch_text,
)
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context

_POINTER = TypeID.POINTER
_INTEGER = TypeID.INTEGER
_NOT_ATOMIC = AtomicOrdering.NOT_ATOMIC
_UNORDERED = AtomicOrdering.UNORDERED
MAX_ALIGNMENT = 1 << 32
"""The largest alignment LLVM 19 accepts (opt-19 rejects 2**33 as "huge")."""


def _check_alignment(alignment: int) -> int:
    if alignment and (alignment & (alignment - 1) or alignment > MAX_ALIGNMENT or alignment < 0):
        raise IRError("alignment %d is not a power of two up to 2**32" % alignment)
    return alignment


def _pointer_type(ptr: Value, what: str) -> PointerType:
    ty = ptr.type
    if not isinstance(ty, PointerType):
        raise IRError("%s needs a pointer operand, not %s" % (what, ty))
    return ty


# =====================================================================================
# alloca
# =====================================================================================


class AllocaInst(Instruction):
    """``alloca [inalloca] [swifterror] T[, N] , align A[, addrspace(S)]``.
    Operands: ``(array_size,)`` (``i32 1`` unless given). The result is a
    pointer in ``address_space``."""

    __slots__ = ("_allocated_type", "_alignment", "_inalloca", "_swifterror")

    opcode: ClassVar[str] = "alloca"

    def __init__(
        self,
        allocated_type: Type,
        array_size: Value | None = None,
        *,
        alignment: int = 0,
        address_space: int = 0,
        inalloca: bool = False,
        swifterror: bool = False,
        name: str = "",
    ) -> None:
        ctx = allocated_type.context
        if array_size is None:
            array_size = ConstantInt.get(ctx.i32, 1)
        elif array_size.type.type_id is not _INTEGER:
            raise IRError("alloca element count must have integer type, not %s" % array_size.type)
        ptr = ctx.ptr if address_space == 0 else ctx.pointer_type(address_space)
        Instruction.__init__(self, ptr, (array_size,), name)
        self._allocated_type = allocated_type
        self._alignment = _check_alignment(alignment) if alignment else 0
        self._inalloca = inalloca
        self._swifterror = swifterror

    @property
    def allocated_type(self) -> Type:
        return self._allocated_type

    @allocated_type.setter
    def allocated_type(self, ty: Type) -> None:
        self._allocated_type = ty

    @property
    def array_size(self) -> Value:
        return self._operands[0].value

    @property
    def is_array_allocation(self) -> bool:
        """True unless the element count is the constant 1."""
        n = self._operands[0].value
        return not (isinstance(n, ConstantInt) and n.value == 1)

    @property
    def is_static_alloca(self) -> bool:
        """A constant-count alloca in the entry block, not used with inalloca."""
        if not isinstance(self._operands[0].value, ConstantInt):
            return False
        bb = self.parent
        return bb is not None and bb.is_entry_block and not self._inalloca

    @property
    def address_space(self) -> int:
        ty = self.type
        assert isinstance(ty, PointerType)
        return ty.address_space

    @property
    def alignment(self) -> int:
        return self._alignment

    @alignment.setter
    def alignment(self, value: int) -> None:
        self._alignment = _check_alignment(value)

    @property
    def inalloca(self) -> bool:
        return self._inalloca

    @inalloca.setter
    def inalloca(self, value: bool) -> None:
        self._inalloca = value

    @property
    def swifterror(self) -> bool:
        return self._swifterror

    @swifterror.setter
    def swifterror(self, value: bool) -> None:
        self._swifterror = value

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        # inalloca and swifterror are compared too (LLVM leaves them out): never equal
        # two allocas the backend must treat differently.
        return (
            isinstance(other, AllocaInst)
            and self._allocated_type is other._allocated_type
            and (ignore_alignment or self._alignment == other._alignment)
            and self._inalloca == other._inalloca
            and self._swifterror == other._swifterror
        )

    def _clone_impl(self) -> AllocaInst:
        ty = self.type
        assert isinstance(ty, PointerType)
        return AllocaInst(
            self._allocated_type,
            self._operands[0].value,
            alignment=self._alignment,
            address_space=ty.address_space,
            inalloca=self._inalloca,
            swifterror=self._swifterror,
        )


# =====================================================================================
# load / store / shared access state
# =====================================================================================


class SyncScopedInst(Instruction):
    """An instruction with a ``sync_scope``: fence and the memory accesses.

    The memory queries give the answer of fence, cmpxchg and atomicrmw:
    atomic, reading and writing; load and store narrow them."""

    __slots__ = ("_sync_scope",)

    _sync_scope: str

    @property
    def sync_scope(self) -> str:
        return self._sync_scope

    @sync_scope.setter
    def sync_scope(self, value: str) -> None:
        self._sync_scope = value

    @property
    def is_atomic(self) -> bool:
        return True

    def may_read_from_memory(self) -> bool:
        return True

    def may_write_to_memory(self) -> bool:
        return True


class MemoryAccessInst(SyncScopedInst):
    """Shared state of load, store, cmpxchg and atomicrmw: ``volatile``,
    ``alignment``, ``sync_scope`` and the pointer operand (``ordering`` lives
    in the subclasses, cmpxchg having two)."""

    __slots__ = ("_volatile", "_alignment")

    _volatile: bool
    _alignment: int

    @property
    def pointer_operand(self) -> Value:
        """The address: operand 0 (store, whose value comes first, overrides this)."""
        return self._operands[0].value

    @property
    def pointer_address_space(self) -> int:
        return _pointer_type(self.pointer_operand, self.opcode).address_space

    @property
    def volatile(self) -> bool:
        return self._volatile

    @volatile.setter
    def volatile(self, value: bool) -> None:
        self._volatile = value

    @property
    def is_volatile(self) -> bool:
        return self._volatile

    @property
    def alignment(self) -> int:
        return self._alignment

    @alignment.setter
    def alignment(self, value: int) -> None:
        self._alignment = _check_alignment(value)

    def _same_access(self, other: MemoryAccessInst, ignore_alignment: bool) -> bool:
        # LLVM compares no alignment on cmpxchg and atomicrmw; here it counts for
        # every access unless ignored (an access never merges into a more aligned one).
        return (
            self._volatile == other._volatile
            and (ignore_alignment or self._alignment == other._alignment)
            and self._sync_scope == other._sync_scope
        )


class _OrderedAccessInst(MemoryAccessInst):
    """A memory access with one ``ordering`` (load, store, atomicrmw)."""

    __slots__ = ("_ordering",)

    _ordering: AtomicOrdering

    @property
    def ordering(self) -> AtomicOrdering:
        return self._ordering

    @ordering.setter
    def ordering(self, value: AtomicOrdering) -> None:
        self._ordering = value

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return (
            isinstance(other, _OrderedAccessInst)
            and self._ordering is other._ordering
            and self._same_access(other, ignore_alignment)
        )


class _LoadStoreInst(_OrderedAccessInst):
    """What load and store share: the simple/unordered queries and the rule
    that an access ordered stronger than ``unordered`` or volatile also counts
    as the other kind of memory access (a load as writing, a store as reading)."""

    __slots__ = ()

    @property
    def is_atomic(self) -> bool:
        return self._ordering is not _NOT_ATOMIC

    @property
    def is_simple(self) -> bool:
        """Neither atomic nor volatile (LLVM ``isSimple``)."""
        return self._ordering is _NOT_ATOMIC and not self._volatile

    @property
    def is_unordered(self) -> bool:
        """Not volatile and at most ``unordered`` (LLVM ``isUnordered``)."""
        o = self._ordering
        return (o is _NOT_ATOMIC or o is _UNORDERED) and not self._volatile

    def _orders_memory(self) -> bool:
        """Volatile or ordered stronger than ``unordered`` (not :attr:`is_unordered`)."""
        o = self._ordering
        return self._volatile or not (o is _NOT_ATOMIC or o is _UNORDERED)


class LoadInst(_LoadStoreInst):
    """``load [atomic] [volatile] T, ptr P [syncscope(S)] [ordering], align A``.
    Operands: ``(pointer,)``."""

    __slots__ = ()
    __match_args__ = ("pointer_operand",)

    opcode: ClassVar[str] = "load"

    def __init__(
        self,
        type: Type,
        pointer: Value,
        *,
        volatile: bool = False,
        alignment: int = 0,
        ordering: AtomicOrdering = _NOT_ATOMIC,
        sync_scope: str = "",
        name: str = "",
    ) -> None:
        if pointer.type.type_id is not _POINTER:
            raise IRError("load operand must be a pointer, not %s" % pointer.type)
        Instruction.__init__(self, type, (pointer,), name)
        self._volatile = volatile
        self._alignment = _check_alignment(alignment) if alignment else 0
        self._ordering = ordering
        self._sync_scope = sync_scope

    def may_write_to_memory(self) -> bool:
        return self._orders_memory()

    def _clone_impl(self) -> LoadInst:
        return LoadInst(
            self.type,
            self._operands[0].value,
            volatile=self._volatile,
            alignment=self._alignment,
            ordering=self._ordering,
            sync_scope=self._sync_scope,
        )


class StoreInst(_LoadStoreInst):
    """``store [atomic] [volatile] T V, ptr P [syncscope(S)] [ordering], align A``.
    Operands: ``(value, pointer)``; the type is void."""

    __slots__ = ()
    __match_args__ = ("value_operand", "pointer_operand")

    opcode: ClassVar[str] = "store"

    def __init__(
        self,
        value: Value,
        pointer: Value,
        *,
        volatile: bool = False,
        alignment: int = 0,
        ordering: AtomicOrdering = _NOT_ATOMIC,
        sync_scope: str = "",
    ) -> None:
        if pointer.type.type_id is not _POINTER:
            raise IRError("store address must be a pointer, not %s" % pointer.type)
        Instruction.__init__(self, value.type.context.void, (value, pointer))
        self._volatile = volatile
        self._alignment = _check_alignment(alignment) if alignment else 0
        self._ordering = ordering
        self._sync_scope = sync_scope

    @property
    def value_operand(self) -> Value:
        return self._operands[0].value

    @property
    def pointer_operand(self) -> Value:
        return self._operands[1].value

    def may_read_from_memory(self) -> bool:
        return self._orders_memory()

    def will_return(self) -> bool:
        """A volatile store may trap or never return (LangRef; opt-19's
        function-attrs does not infer ``willreturn`` over one)."""
        return not self._volatile

    def _clone_impl(self) -> StoreInst:
        return StoreInst(
            self._operands[0].value,
            self._operands[1].value,
            volatile=self._volatile,
            alignment=self._alignment,
            ordering=self._ordering,
            sync_scope=self._sync_scope,
        )


# =====================================================================================
# fence / cmpxchg / atomicrmw
# =====================================================================================

_FENCE_ORDERINGS = frozenset(
    (AtomicOrdering.ACQUIRE, AtomicOrdering.RELEASE, AtomicOrdering.ACQ_REL, AtomicOrdering.SEQ_CST)
)


class FenceInst(SyncScopedInst):
    """``fence [syncscope(S)] ordering``. No operands; the type is void."""

    __slots__ = ("_ordering",)

    opcode: ClassVar[str] = "fence"

    def __init__(self, context: Context, ordering: AtomicOrdering, *, sync_scope: str = "") -> None:
        if ordering not in _FENCE_ORDERINGS:
            raise IRError("fence ordering must be acquire, release, acq_rel or seq_cst, not %s" % ordering.value)
        Instruction.__init__(self, context.void)
        self._ordering = ordering
        self._sync_scope = sync_scope

    @property
    def ordering(self) -> AtomicOrdering:
        return self._ordering

    @ordering.setter
    def ordering(self, value: AtomicOrdering) -> None:
        if value not in _FENCE_ORDERINGS:
            raise IRError("fence ordering must be acquire, release, acq_rel or seq_cst, not %s" % value.value)
        self._ordering = value

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return (
            isinstance(other, FenceInst)
            and self._ordering is other._ordering
            and self._sync_scope == other._sync_scope
        )

    def _clone_impl(self) -> FenceInst:
        return FenceInst(self.type.context, self._ordering, sync_scope=self._sync_scope)


class AtomicCmpXchgInst(MemoryAccessInst):
    """``cmpxchg [weak] [volatile] ptr P, T cmp, T new [syncscope(S)] success failure, align A``.
    Operands: ``(pointer, compare, new_value)``; the result is ``{ T, i1 }``."""

    __slots__ = ("_success", "_failure", "_weak")

    opcode: ClassVar[str] = "cmpxchg"

    def __init__(
        self,
        pointer: Value,
        compare: Value,
        new_value: Value,
        success_ordering: AtomicOrdering,
        failure_ordering: AtomicOrdering,
        *,
        weak: bool = False,
        volatile: bool = False,
        alignment: int = 0,
        sync_scope: str = "",
        name: str = "",
    ) -> None:
        if pointer.type.type_id is not _POINTER:
            raise IRError("cmpxchg operand must be a pointer, not %s" % pointer.type)
        ty = compare.type
        if new_value.type is not ty:
            raise IRError("cmpxchg compare and new values must have the same type (%s)" % mismatch_text(ty, new_value.type))
        ctx = ty.context
        Instruction.__init__(self, ctx.struct_type((ty, ctx.i1)), (pointer, compare, new_value), name)
        self._success = success_ordering
        self._failure = failure_ordering
        self._weak = weak
        self._volatile = volatile
        self._alignment = _check_alignment(alignment) if alignment else 0
        self._sync_scope = sync_scope

    @property
    def compare_operand(self) -> Value:
        return self._operands[1].value

    @property
    def new_value_operand(self) -> Value:
        return self._operands[2].value

    @property
    def success_ordering(self) -> AtomicOrdering:
        return self._success

    @success_ordering.setter
    def success_ordering(self, value: AtomicOrdering) -> None:
        self._success = value

    @property
    def failure_ordering(self) -> AtomicOrdering:
        return self._failure

    @failure_ordering.setter
    def failure_ordering(self, value: AtomicOrdering) -> None:
        self._failure = value

    @property
    def merged_ordering(self) -> AtomicOrdering:
        """One ordering at least as strong as both (LLVM ``getMergedOrdering``)."""
        s = self._success
        f = self._failure
        if f is AtomicOrdering.SEQ_CST:
            return f
        if f is AtomicOrdering.ACQUIRE:
            if s is AtomicOrdering.MONOTONIC:
                return AtomicOrdering.ACQUIRE
            if s is AtomicOrdering.RELEASE:
                return AtomicOrdering.ACQ_REL
        return s

    @property
    def weak(self) -> bool:
        return self._weak

    @weak.setter
    def weak(self, value: bool) -> None:
        self._weak = value

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return (
            isinstance(other, AtomicCmpXchgInst)
            and self._success is other._success
            and self._failure is other._failure
            and self._weak == other._weak
            and self._same_access(other, ignore_alignment)
        )

    def _clone_impl(self) -> AtomicCmpXchgInst:
        ops = self._operands
        return AtomicCmpXchgInst(
            ops[0].value,
            ops[1].value,
            ops[2].value,
            self._success,
            self._failure,
            weak=self._weak,
            volatile=self._volatile,
            alignment=self._alignment,
            sync_scope=self._sync_scope,
        )


class AtomicRMWInst(_OrderedAccessInst):
    """``atomicrmw [volatile] op ptr P, T V [syncscope(S)] ordering, align A``.
    Operands: ``(pointer, value)``; the result has the value's type."""

    __slots__ = ("_operation",)

    opcode: ClassVar[str] = "atomicrmw"

    def __init__(
        self,
        operation: AtomicRMWBinOp,
        pointer: Value,
        value: Value,
        ordering: AtomicOrdering,
        *,
        volatile: bool = False,
        alignment: int = 0,
        sync_scope: str = "",
        name: str = "",
    ) -> None:
        if pointer.type.type_id is not _POINTER:
            raise IRError("atomicrmw operand must be a pointer, not %s" % pointer.type)
        Instruction.__init__(self, value.type, (pointer, value), name)
        self._operation = operation
        self._ordering = ordering
        self._volatile = volatile
        self._alignment = _check_alignment(alignment) if alignment else 0
        self._sync_scope = sync_scope

    @property
    def operation(self) -> AtomicRMWBinOp:
        return self._operation

    @operation.setter
    def operation(self, value: AtomicRMWBinOp) -> None:
        self._operation = value

    @property
    def value_operand(self) -> Value:
        return self._operands[1].value

    @property
    def is_floating_point_operation(self) -> bool:
        return self._operation.is_fp_operation

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return (
            isinstance(other, AtomicRMWInst)
            and self._operation is other._operation
            and super().has_same_special_state(other, ignore_alignment)
        )

    def _clone_impl(self) -> AtomicRMWInst:
        ops = self._operands
        return AtomicRMWInst(
            self._operation,
            ops[0].value,
            ops[1].value,
            self._ordering,
            volatile=self._volatile,
            alignment=self._alignment,
            sync_scope=self._sync_scope,
        )


__all__ = [
    "MAX_ALIGNMENT",
    "SyncScopedInst",
    "MemoryAccessInst",
    "AllocaInst",
    "LoadInst",
    "StoreInst",
    "FenceInst",
    "AtomicCmpXchgInst",
    "AtomicRMWInst",
    "GetElementPtrInst",
    "get_indexed_type",
]
