"""MemorySSA's accesses: :class:`MemoryDef`, :class:`MemoryUse`, :class:`MemoryPhi`, their
operand slots and use lists, and the def-chain / upward-defs walks (LLVM 19.1.7
``include/llvm/Analysis/MemorySSA.h`` and the printing and ``upward_defs_iterator`` parts of
``lib/Analysis/MemorySSA.cpp``).

Operand slots are :class:`MemoryAccessUse` objects linked on per-access use lists in
LLVM's order (the most recently added use first), so ``uses``/``users``,
``replace_all_uses_with`` and ``replace_uses_with_if`` behave as LLVM's ``Value`` ones on
a ``MemoryAccess``. A def's operand 0 is its defining access and operand 1 its optimised
clobber; a use's optimised clobber is its defining access (with the id it was optimised
to, as LLVM keeps it). A phi keeps LLVM's reserved-space growth, which re-links its uses
when it grows (use-list order as LLVM's). Everything is re-exported by
``llvmpy_mid.analysis.memory_ssa``.
"""

from __future__ import annotations

from typing import Callable, Iterator

from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value

LIVE_ON_ENTRY_STR = "liveOnEntry"
INVALID_MEMORYACCESS_ID = -1


# --- operand slots ------------------------------------------------------------------------------


class MemoryAccessUse:
    """One operand slot of a memory access (LLVM ``Use`` on a ``MemoryAccess``):
    ``user``'s operand ``index`` is ``value`` (None for an empty slot). Linked at the
    head of ``value``'s use list, as LLVM does."""

    __slots__ = ("value", "user", "index", "_prev", "_next")

    def __init__(self, value: MemoryAccess | None, user: MemoryAccess, index: int) -> None:
        self.value = value
        self.user = user
        self.index = index
        self._prev: MemoryAccessUse | None = None
        self._next: MemoryAccessUse | None = None
        if value is not None:
            self._link(value)

    def _link(self, value: MemoryAccess) -> None:
        head = value._use_head
        self._prev = None
        self._next = head
        if head is not None:
            head._prev = self
        value._use_head = self

    def _unlink(self) -> None:
        old = self.value
        if old is None:
            return
        prev = self._prev
        nxt = self._next
        if prev is None:
            old._use_head = nxt
        else:
            prev._next = nxt
        if nxt is not None:
            nxt._prev = prev
        self._prev = self._next = None

    def set(self, value: MemoryAccess | None) -> None:
        """Point the slot at ``value`` (the use moves to the head of its list)."""
        self._unlink()
        self.value = value
        if value is not None:
            self._link(value)

    def get_user(self) -> MemoryAccess:
        return self.user

    @property
    def operand_no(self) -> int:
        return self.index

    def __repr__(self) -> str:
        return "<MemoryAccessUse %d of %s>" % (self.index, self.user)


# --- accesses -----------------------------------------------------------------------------------


class MemoryAccess:
    """A def, use or phi of MemorySSA (LLVM ``MemoryAccess``). ``block`` is its block;
    ``uses``/``users`` walk its use list (most recent first)."""

    __slots__ = ("block", "_use_head", "_operands", "erased")

    def __init__(self, block: BasicBlock) -> None:
        self.block = block
        self._use_head: MemoryAccessUse | None = None
        self._operands: list[MemoryAccessUse] = []
        self.erased = False
        """Set when MemorySSA deleted the access (what LLVM's weak handles see as null)."""

    def get_block(self) -> BasicBlock:
        return self.block

    def set_block(self, bb: BasicBlock) -> None:
        self.block = bb

    def get_id(self) -> int:
        """The id of a def or phi (``liveOnEntry`` is 0); uses have none."""
        return INVALID_MEMORYACCESS_ID

    # --- use lists ------------------------------------------------------------------------------
    @property
    def uses(self) -> Iterator[MemoryAccessUse]:
        """The slots that refer to this access, most recent first (erasing the current
        one while iterating is safe)."""
        use = self._use_head
        while use is not None:
            nxt = use._next
            yield use
            use = nxt

    @property
    def users(self) -> Iterator[MemoryAccess]:
        use = self._use_head
        while use is not None:
            nxt = use._next
            yield use.user
            use = nxt

    def use_empty(self) -> bool:
        return self._use_head is None

    def has_uses(self) -> bool:
        return self._use_head is not None

    def num_uses(self) -> int:
        n = 0
        use = self._use_head
        while use is not None:
            n += 1
            use = use._next
        return n

    def has_one_use(self) -> bool:
        head = self._use_head
        return head is not None and head._next is None

    def replace_all_uses_with(self, new: MemoryAccess) -> None:
        """Every slot referring to this access refers to ``new`` instead."""
        assert new is not self
        use = self._use_head
        while use is not None:
            use.set(new)
            use = self._use_head

    def replace_uses_with_if(self, new: MemoryAccess, predicate: Callable[[MemoryAccessUse], bool]) -> None:
        use = self._use_head
        while use is not None:
            nxt = use._next
            if predicate(use):
                use.set(new)
            use = nxt

    # --- operands -------------------------------------------------------------------------------
    @property
    def operands(self) -> list[MemoryAccess | None]:
        return [u.value for u in self._operands]

    def get_num_operands(self) -> int:
        return len(self._operands)

    def get_operand(self, i: int) -> MemoryAccess | None:
        return self._operands[i].value

    def set_operand(self, i: int, value: MemoryAccess | None) -> None:
        self._operands[i].set(value)

    def get_operand_use(self, i: int) -> MemoryAccessUse:
        return self._operands[i]

    def drop_all_references(self) -> None:
        for use in self._operands:
            use.set(None)

    def defs(self) -> list[MemoryAccess]:
        """LLVM ``defs_begin()..defs_end()``: a phi's incoming accesses, or the defining
        access of a use/def (nothing for ``liveOnEntry``)."""
        return []

    # --- text -----------------------------------------------------------------------------------
    def print_text(self, block_names: dict[BasicBlock, str] | None = None) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.print_text()

    def __repr__(self) -> str:
        return "<%s %s>" % (type(self).__name__, self.print_text())


def _id_text(access: MemoryAccess | None) -> str:
    if access is not None:
        i = access.get_id()
        if i > 0:
            return str(i)
    return LIVE_ON_ENTRY_STR


class MemoryUseOrDef(MemoryAccess):
    """A def or a use: the instruction (``memory_inst``) and its defining access
    (operand 0)."""

    __slots__ = ("memory_inst", "_optimized_id")

    def __init__(self, defining: MemoryAccess | None, inst: Instruction | None, block: BasicBlock) -> None:
        MemoryAccess.__init__(self, block)
        self.memory_inst = inst
        self._optimized_id = INVALID_MEMORYACCESS_ID

    def get_memory_inst(self) -> Instruction | None:
        """The instruction (None only for ``liveOnEntry``)."""
        return self.memory_inst

    def get_defining_access(self) -> MemoryAccess | None:
        """The access this one is defined by (None only for ``liveOnEntry``)."""
        return self._operands[0].value

    @property
    def defining_access(self) -> MemoryAccess | None:
        """The same as :meth:`get_defining_access`."""
        return self._operands[0].value

    def defs(self) -> list[MemoryAccess]:
        d = self._operands[0].value
        return [d] if d is not None else []

    def set_defining_access(self, access: MemoryAccess | None, optimized: bool = False) -> None:
        """Set the defining access; with ``optimized``, record it as the optimised
        clobber instead (a use's optimised access is its defining access)."""
        if not optimized:
            self._operands[0].set(access)
            return
        assert access is not None
        self.set_optimized(access)

    def is_optimized(self) -> bool:
        raise NotImplementedError

    def get_optimized(self) -> MemoryAccess | None:
        raise NotImplementedError

    def set_optimized(self, access: MemoryAccess) -> None:
        raise NotImplementedError

    def reset_optimized(self) -> None:
        raise NotImplementedError


class MemoryUse(MemoryUseOrDef):
    """An access that only reads memory (LLVM ``MemoryUse``)."""

    __slots__ = ()

    def __init__(self, defining: MemoryAccess | None, inst: Instruction, block: BasicBlock) -> None:
        MemoryUseOrDef.__init__(self, defining, inst, block)
        self._operands = [MemoryAccessUse(defining, self, 0)]

    def set_optimized(self, access: MemoryAccess) -> None:
        """Make ``access`` the defining access and mark it as the optimised clobber."""
        self._optimized_id = access.get_id()
        self._operands[0].set(access)

    def is_optimized(self) -> bool:
        d = self._operands[0].value
        return d is not None and self._optimized_id == d.get_id()

    def get_optimized(self) -> MemoryAccess | None:
        return self._operands[0].value

    def reset_optimized(self) -> None:
        self._optimized_id = INVALID_MEMORYACCESS_ID

    def print_text(self, block_names: dict[BasicBlock, str] | None = None) -> str:
        return "MemoryUse(" + _id_text(self._operands[0].value) + ")"


class MemoryDef(MemoryUseOrDef):
    """An access that may write memory (LLVM ``MemoryDef``); operand 1 is the optimised
    clobber when the walker has found one."""

    __slots__ = ("id",)

    def __init__(self, defining: MemoryAccess | None, inst: Instruction | None, block: BasicBlock, id: int) -> None:
        MemoryUseOrDef.__init__(self, defining, inst, block)
        self.id = id
        self._operands = [MemoryAccessUse(defining, self, 0), MemoryAccessUse(None, self, 1)]

    def get_id(self) -> int:
        return self.id

    def set_optimized(self, access: MemoryAccess) -> None:
        self._operands[1].set(access)
        self._optimized_id = access.get_id()

    def get_optimized(self) -> MemoryAccess | None:
        return self._operands[1].value

    def is_optimized(self) -> bool:
        o = self._operands[1].value
        return o is not None and self._optimized_id == o.get_id()

    def reset_optimized(self) -> None:
        self._optimized_id = INVALID_MEMORYACCESS_ID
        self._operands[1].set(None)

    def print_text(self, block_names: dict[BasicBlock, str] | None = None) -> str:
        text = "%d = MemoryDef(%s)" % (self.id, _id_text(self._operands[0].value))
        if self.is_optimized():
            text += "->" + _id_text(self._operands[1].value)
        return text


class MemoryPhi(MemoryAccess):
    """The merge of the memory versions reaching a block from its predecessors (LLVM
    ``MemoryPhi``): incoming access ``i`` comes from block ``get_incoming_block(i)``."""

    __slots__ = ("id", "_blocks", "_reserved")

    def __init__(self, block: BasicBlock, id: int, num_preds: int = 0) -> None:
        MemoryAccess.__init__(self, block)
        self.id = id
        self._blocks: list[BasicBlock] = []
        self._reserved = num_preds

    def get_id(self) -> int:
        return self.id

    # --- incoming -------------------------------------------------------------------------------
    @property
    def incoming_values(self) -> list[MemoryAccess]:
        return [u.value for u in self._operands]  # type: ignore[misc]

    @property
    def blocks(self) -> list[BasicBlock]:
        return list(self._blocks)

    def defs(self) -> list[MemoryAccess]:
        return self.incoming_values

    def get_num_incoming_values(self) -> int:
        return len(self._operands)

    def get_incoming_value(self, i: int) -> MemoryAccess:
        value = self._operands[i].value
        assert value is not None
        return value

    def set_incoming_value(self, i: int, value: MemoryAccess) -> None:
        self._operands[i].set(value)

    def get_incoming_block(self, i: int | MemoryAccessUse) -> BasicBlock:
        """The block of incoming slot ``i`` (or of the slot ``i`` when it is a use of this phi)."""
        if isinstance(i, MemoryAccessUse):
            assert i.user is self
            i = i.index
        return self._blocks[i]

    def set_incoming_block(self, i: int, bb: BasicBlock) -> None:
        self._blocks[i] = bb

    def add_incoming(self, value: MemoryAccess, bb: BasicBlock) -> None:
        ops = self._operands
        n = len(ops)
        if n == self._reserved:
            # LLVM reallocates the slots, re-linking every existing use at the head of
            # its value's list (which reorders use lists as LLVM's do)
            self._reserved = max(n + n // 2, 2)
            for use in ops:
                use.set(use.value)
        ops.append(MemoryAccessUse(value, self, n))
        self._blocks.append(bb)

    def get_basic_block_index(self, bb: BasicBlock) -> int:
        blocks = self._blocks
        for i in range(len(blocks)):
            if blocks[i] is bb:
                return i
        return -1

    def get_incoming_value_for_block(self, bb: BasicBlock) -> MemoryAccess:
        i = self.get_basic_block_index(bb)
        assert i >= 0
        return self.get_incoming_value(i)

    def unordered_delete_incoming(self, i: int) -> None:
        """Remove incoming ``i`` by moving the last incoming into its place."""
        ops = self._operands
        last = len(ops) - 1
        if i != last:
            ops[i].set(ops[last].value)
            self._blocks[i] = self._blocks[last]
        ops[last].set(None)
        del ops[last]
        del self._blocks[last]

    def unordered_delete_incoming_if(self, pred: Callable[[MemoryAccess, BasicBlock], bool]) -> None:
        i = 0
        while i < len(self._operands):
            if pred(self.get_incoming_value(i), self._blocks[i]):
                self.unordered_delete_incoming(i)
            else:
                i += 1

    def unordered_delete_incoming_block(self, bb: BasicBlock) -> None:
        self.unordered_delete_incoming_if(lambda _v, b: b is bb)

    def unordered_delete_incoming_value(self, access: MemoryAccess) -> None:
        self.unordered_delete_incoming_if(lambda v, _b: v is access)

    def print_text(self, block_names: dict[BasicBlock, str] | None = None) -> str:
        parts: list[str] = []
        names = block_names
        for use, bb in zip(self._operands, self._blocks):
            if bb.name:
                name = bb.name
            else:
                if names is None:
                    fn = bb.parent
                    from llvmpy_mid.analysis.block_names import block_refs

                    names = block_refs(fn) if fn is not None else {}
                name = names.get(bb, "<badref>")
            parts.append("{" + name + "," + _id_text(use.value) + "}")
        return "%d = MemoryPhi(%s)" % (self.id, ",".join(parts))


# --- def chains and upward defs -----------------------------------------------------------------


def def_chain(access: MemoryAccess | None, up_to: MemoryAccess | None = None) -> Iterator[MemoryAccess]:
    """``access``, its defining access, that one's, ... up to (not including) ``up_to``;
    a phi ends the chain (LLVM ``def_chain``)."""
    ma = access
    while ma is not None and ma is not up_to:
        yield ma
        if isinstance(ma, MemoryUseOrDef):
            ma = ma._operands[0].value
        else:
            ma = None


def optimized_def_chain(access: MemoryAccess | None) -> Iterator[MemoryAccess]:
    """Like :func:`def_chain` but following optimised clobbers where known."""
    ma = access
    while ma is not None:
        yield ma
        if isinstance(ma, MemoryUseOrDef):
            ma = ma.get_optimized() if ma.is_optimized() else ma._operands[0].value
        else:
            ma = None


def _is_guaranteed_loop_invariant_base(ptr: Value) -> bool:
    from llvmpy_mid.ir.instructions.memory import AllocaInst
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    ptr = strip_pointer_casts(ptr)
    if not isinstance(ptr, Instruction):
        return True
    return isinstance(ptr, AllocaInst)


def is_guaranteed_loop_invariant(ptr: Value) -> bool:
    """``upward_defs_iterator::IsGuaranteedLoopInvariant``: the pointer has the same
    value in every iteration of any cycle (defined in the entry block, a global or
    argument, an alloca, or a constant-index GEP of one)."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr
    from llvmpy_mid.ir.constants import ConstantInt
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    ptr = strip_pointer_casts(ptr)
    if isinstance(ptr, Instruction):
        parent = ptr.parent
        if parent is not None and parent.is_entry_block:
            return True
    if isinstance(ptr, GetElementPtrInst):
        return _is_guaranteed_loop_invariant_base(ptr.operands[0]) and ptr.has_all_constant_indices
    if isinstance(ptr, ConstantExpr) and ptr.opcode == "getelementptr":
        ops = ptr.operands
        return _is_guaranteed_loop_invariant_base(ops[0]) and all(isinstance(v, ConstantInt) for v in ops[1:])
    return _is_guaranteed_loop_invariant_base(ptr)


def upward_defs(access: MemoryAccess, loc: MemoryLocation, dt: DominatorTree) -> Iterator[tuple[MemoryAccess, MemoryLocation, BasicBlock | None]]:
    """LLVM ``upward_defs``: for each incoming of the phi ``access`` (or the defining
    access of a use/def), ``(incoming access, location, incoming block)``; through a phi
    the location's pointer is phi-translated into the incoming block (PHITransAddr,
    dominating values only) and its size widened to before-or-after-pointer unless the
    pointer is loop invariant."""
    if isinstance(access, MemoryPhi):
        bb = access.block
        ptr = loc.ptr
        for i in range(len(access._operands)):
            pred = access._blocks[i]
            value = access._operands[i].value
            assert value is not None
            cur = loc
            if ptr is not None:
                from llvmpy_mid.analysis.phi_trans_addr import PHITransAddr

                fn = bb.parent
                assert fn is not None and fn.parent is not None
                translator = PHITransAddr(ptr, fn.parent.data_layout, None)
                addr = translator.translate_value(bb, pred, dt, True)
                if addr is not None and addr is not cur.ptr:
                    cur = cur.with_ptr(addr)
                assert cur.ptr is not None
                if not is_guaranteed_loop_invariant(cur.ptr):
                    from llvmpy_mid.analysis.alias.memory_location import LocationSize

                    cur = cur.with_size(LocationSize.before_or_after_pointer())
            yield value, cur, pred
    else:
        for d in access.defs():
            yield d, loc, None


__all__ = [
    "INVALID_MEMORYACCESS_ID",
    "LIVE_ON_ENTRY_STR",
    "MemoryAccess",
    "MemoryAccessUse",
    "MemoryDef",
    "MemoryPhi",
    "MemoryUse",
    "MemoryUseOrDef",
    "def_chain",
    "is_guaranteed_loop_invariant",
    "optimized_def_chain",
    "upward_defs",
]
