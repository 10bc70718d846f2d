"""MemorySSA: an SSA form for memory (LLVM 19.1.7 ``lib/Analysis/MemorySSA.cpp`` and
``include/llvm/Analysis/MemorySSA.h``).

What: every instruction that may touch memory gets a :class:`MemoryAccess`: a
:class:`MemoryDef` when it may write (or is an ordered load/store), a :class:`MemoryUse`
when it only reads. Each def/use names its *defining access* (the nearest dominating
def, phi or ``liveOnEntry``); a :class:`MemoryPhi` merges the versions reaching a
block. Defs and phis carry LLVM's ids: ``liveOnEntry`` is 0, defs are numbered 1, 2, ...
in function order as they are created, then phis in the order LLVM's
``IDFCalculator`` reports their blocks; accesses created later take the next id.

How (as LLVM): one pass over the function creates the accesses (``createNewAccess``:
``AA.getModRefInfo(I)`` decides def/use; some marker intrinsics get none; a load whose
memory cannot change is optimised to ``liveOnEntry`` at once), the phis go to the
iterated dominance frontier of the blocks with defs (``analysis/dominance_frontier.py``'s
calculator, in LLVM's raw order), then a renaming pass over the dominator tree (explicit
stack) links every access to the version reaching it; blocks the walk never reaches see
``liveOnEntry``. :meth:`MemorySSA.ensure_optimized_uses` (``OptimizeUses``, in
``memory_ssa_walker.py``) points every use at its real clobber with LLVM's version
stack and ``-memssa-check-limit``; the walkers (``get_walker()``,
``get_skip_self_walker()``, also in ``memory_ssa_walker.py``) answer clobber queries
with the caching upward-defs path search. Per-block access and def lists are Python
lists (positional edits cost the block's access count); ``dominates`` within a block
uses LLVM's lazily renumbered per-block order numbers.

Operand slots are :class:`MemoryAccessUse` objects on per-access use lists with LLVM's
order (most recently added first), so ``uses``/``users``/``replace_all_uses_with`` and
the updater's fix-ups see what LLVM's would.

``MemorySSAAnalysis`` requests the dominator tree then ``AAManager`` (LLVM's ``run``);
its result is invalidated unless MemorySSA (or all function analyses) is preserved and
both AA and the dominator tree stay valid. The printers and ``verify<memoryssa>`` are in
``memory_ssa_printer.py``; the updater is ``memory_ssa_updater.py``.

What it does not do (yet): MemorySSA over a loop (LLVM's ``MemorySSA(Loop&, ...)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Iterator

from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults, is_mod_set, is_ref_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.dominance_frontier import IDFCalculator
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.memory_ssa_walker import CachingWalker, ClobberWalkerBase, MemorySSAWalker, SkipSelfWalker

LIVE_ON_ENTRY_STR = "liveOnEntry"
INVALID_MEMORYACCESS_ID = -1

#: Intrinsics that never get a memory access (``createNewAccess``).
_NO_ACCESS_INTRINSICS = frozenset(
    ("llvm.allow.runtime.check", "llvm.allow.ubsan.check", "llvm.assume",
     "llvm.experimental.noalias.scope.decl", "llvm.pseudoprobe")
)  # fmt: skip


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


# --- the MemorySSA of a function ----------------------------------------------------------------

BEGINNING = 0
END = 1
BEFORE_TERMINATOR = 2


def _is_ordered(inst: Instruction) -> bool:
    tp = type(inst)
    if tp is StoreInst or tp is LoadInst:
        return not inst.is_unordered  # type: ignore[attr-defined]
    return False


def is_use_trivially_optimizable_to_live_on_entry(aa: BatchAAResults | AAResults, inst: Instruction) -> bool:
    """A load of memory that cannot change (``!invariant.load``, or AA says nothing may
    modify it) is clobbered by ``liveOnEntry`` only."""
    if type(inst) is LoadInst:
        if inst.get_metadata("invariant.load") is not None:
            return True
        return not is_mod_set(aa.get_mod_ref_info_mask(MemoryLocation.get(inst)))
    return False


class MemorySSA:
    """The MemorySSA of one function (see the module docstring).

    Queries: :meth:`get_memory_access` (of an instruction: its use/def; of a block: its
    phi), :meth:`get_block_accesses` / :meth:`get_block_defs` (the live per-block lists
    — copy before editing the IR or MemorySSA while iterating), :meth:`dominates`,
    :meth:`locally_dominates`, :meth:`get_walker`, :meth:`get_skip_self_walker`,
    :meth:`ensure_optimized_uses`, :meth:`verify_memory_ssa`. The list-editing methods
    (``insert_into_lists_*``, ``move_to``, ``remove_from_*``, ``create_*``,
    ``rename_pass``) are the internals the updater (``memory_ssa_updater.py``) drives;
    passes should go through the updater."""

    def __init__(self, fn: Function, aa: AAResults, dt: DominatorTree) -> None:
        self.function = fn
        self.aa = aa
        self.dt = dt
        self._per_block_accesses: dict[BasicBlock, list[MemoryAccess]] = {}
        self._per_block_defs: dict[BasicBlock, list[MemoryAccess]] = {}
        self._value_to_access: dict[Value, MemoryAccess] = {}
        self._block_numbering: dict[MemoryAccess, int] = {}
        self._block_numbering_valid: set[BasicBlock] = set()
        self._next_id = 0
        self.is_optimized = False
        self._walker: CachingWalker | None = None
        self._skip_walker: SkipSelfWalker | None = None
        self._walker_base: ClobberWalkerBase | None = None
        entry = fn.entry_block
        assert entry is not None
        self.live_on_entry = MemoryDef(None, None, entry, self._next_id)
        self._next_id += 1
        self._build(BatchAAResults(aa))
        self.get_walker()

    # --- construction ---------------------------------------------------------------------------
    def _build(self, baa: BatchAAResults) -> None:
        fn = self.function
        defining_blocks: list[BasicBlock] = []
        per_accesses = self._per_block_accesses
        per_defs = self._per_block_defs
        create = self._create_new_access
        for bb in fn.blocks:
            accesses: list[MemoryAccess] | None = None
            defs: list[MemoryAccess] | None = None
            inst = bb.instructions.first
            while inst is not None:
                mud = create(inst, baa, None)
                if mud is not None:
                    if accesses is None:
                        accesses = per_accesses[bb] = []
                    accesses.append(mud)
                    if type(mud) is MemoryDef:
                        if defs is None:
                            defs = per_defs[bb] = []
                        defs.append(mud)
                inst = inst.next_instruction
            if defs is not None:
                defining_blocks.append(bb)
        self._place_phi_nodes(defining_blocks)
        visited: set[BasicBlock] = set()
        dt = self.dt
        entry = fn.entry_block
        assert entry is not None
        self._rename_pass(entry, self.live_on_entry, visited, False, False)
        for bb in fn.blocks:
            if bb not in visited:
                self._mark_unreachable_as_live_on_entry(bb)
        del dt

    def _place_phi_nodes(self, defining_blocks: list[BasicBlock]) -> None:
        for bb in IDFCalculator(self.dt).calculate(defining_blocks, sort=False):
            self.create_memory_phi(bb)

    def _create_new_access(
        self, inst: Instruction, aa: BatchAAResults | AAResults, template: MemoryUseOrDef | None
    ) -> MemoryUseOrDef | None:
        if isinstance(inst, CallBase):
            if inst.intrinsic_base in _NO_ACCESS_INTRINSICS:
                return None
        if not inst.may_read_from_memory() and not inst.may_write_to_memory():
            return None
        if template is not None:
            is_def = type(template) is MemoryDef
            is_use = type(template) is MemoryUse
        else:
            mr = aa.get_mod_ref_info(inst, None)
            is_def = is_mod_set(mr) or _is_ordered(inst)
            is_use = is_ref_set(mr)
        if not is_def and not is_use:
            return None
        bb = inst.parent
        assert bb is not None
        mud: MemoryUseOrDef
        if is_def:
            mud = MemoryDef(None, inst, bb, self._next_id)
            self._next_id += 1
        else:
            mud = MemoryUse(None, inst, bb)
            if is_use_trivially_optimizable_to_live_on_entry(aa, inst):
                mud.set_optimized(self.live_on_entry)
        self._value_to_access[inst] = mud
        return mud

    def _rename_block(self, bb: BasicBlock, incoming: MemoryAccess, rename_all_uses: bool) -> MemoryAccess:
        accesses = self._per_block_accesses.get(bb)
        if accesses is not None:
            for ma in accesses:
                if isinstance(ma, MemoryUseOrDef):
                    if ma._operands[0].value is None or rename_all_uses:
                        ma._operands[0].set(incoming)
                    if type(ma) is MemoryDef:
                        incoming = ma
                else:
                    incoming = ma
        return incoming

    def _rename_successor_phis(self, bb: BasicBlock, incoming: MemoryAccess, rename_all_uses: bool) -> None:
        per = self._per_block_accesses
        for succ in bb.successors:
            accesses = per.get(succ)
            if accesses is None:
                continue
            phi = accesses[0]
            if type(phi) is not MemoryPhi:
                continue
            assert isinstance(phi, MemoryPhi)
            if rename_all_uses:
                blocks = phi._blocks
                for i in range(len(blocks)):
                    if blocks[i] is bb:
                        phi._operands[i].set(incoming)
            else:
                phi.add_incoming(incoming, bb)

    def _rename_pass(
        self, root: BasicBlock, incoming: MemoryAccess, visited: set[BasicBlock], skip_visited: bool, rename_all_uses: bool
    ) -> None:
        """The renaming walk of the dominator tree below ``root`` (explicit stack)."""
        already = root in visited
        visited.add(root)
        if skip_visited and already:
            return
        incoming = self._rename_block(root, incoming, rename_all_uses)
        self._rename_successor_phis(root, incoming, rename_all_uses)
        children = self.dt.children
        stack: list[tuple[list[BasicBlock], int, MemoryAccess]] = [(children(root), 0, incoming)]
        per_defs = self._per_block_defs
        while stack:
            kids, i, incoming = stack[-1]
            if i == len(kids):
                stack.pop()
                continue
            stack[-1] = (kids, i + 1, incoming)
            child = kids[i]
            already = child in visited
            visited.add(child)
            if skip_visited and already:
                defs = per_defs.get(child)
                if defs:
                    incoming = defs[-1]
            else:
                incoming = self._rename_block(child, incoming, rename_all_uses)
            self._rename_successor_phis(child, incoming, rename_all_uses)
            stack.append((children(child), 0, incoming))

    def rename_pass(self, bb: BasicBlock, incoming: MemoryAccess, visited: set[BasicBlock]) -> None:
        """Re-link the accesses of ``bb``'s dominator subtree (skipping ``visited`` blocks)
        to the versions reaching them from ``incoming`` (LLVM's public ``renamePass``)."""
        self._rename_pass(bb, incoming, visited, True, True)

    def _mark_unreachable_as_live_on_entry(self, bb: BasicBlock) -> None:
        dt = self.dt
        per = self._per_block_accesses
        for succ in bb.successors:
            if not dt.is_reachable(succ):
                continue
            accesses = per.get(succ)
            if accesses is None or type(accesses[0]) is not MemoryPhi:
                continue
            phi = accesses[0]
            assert isinstance(phi, MemoryPhi)
            phi.add_incoming(self.live_on_entry, bb)
        accesses = per.get(bb)
        if accesses is None:
            return
        for ma in list(accesses):
            if isinstance(ma, MemoryUseOrDef):
                ma.set_defining_access(self.live_on_entry)
            else:
                accesses.remove(ma)

    # --- queries --------------------------------------------------------------------------------
    def get_memory_access(self, key: Instruction | BasicBlock) -> Any:
        """The use/def of an instruction (a :class:`MemoryUseOrDef`), or the phi of a block
        (a :class:`MemoryPhi`); None when there is none."""
        return self._value_to_access.get(key)

    def get_live_on_entry_def(self) -> MemoryDef:
        return self.live_on_entry

    @property
    def live_on_entry_def(self) -> MemoryDef:
        return self.live_on_entry

    def is_live_on_entry_def(self, access: MemoryAccess | None) -> bool:
        return access is self.live_on_entry

    def get_dom_tree(self) -> DominatorTree:
        return self.dt

    def get_aa(self) -> AAResults:
        return self.aa

    def get_block_accesses(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        """The block's accesses in order (phi first), or None; the live list."""
        return self._per_block_accesses.get(bb)

    def get_block_defs(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        """The block's phi and defs in order, or None; the live list."""
        return self._per_block_defs.get(bb)

    def get_writable_block_accesses(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        return self._per_block_accesses.get(bb)

    def get_writable_block_defs(self, bb: BasicBlock) -> list[MemoryAccess] | None:
        return self._per_block_defs.get(bb)

    def previous_access(self, access: MemoryAccess) -> MemoryAccess | None:
        """The access before ``access`` in its block (LLVM ``--MA->getIterator()``), or None."""
        accesses = self._per_block_accesses[access.block]
        i = _index_of(accesses, access)
        return accesses[i - 1] if i > 0 else None

    def next_access(self, access: MemoryAccess) -> MemoryAccess | None:
        """The access after ``access`` in its block (LLVM ``++MA->getIterator()``), or None."""
        accesses = self._per_block_accesses[access.block]
        i = _index_of(accesses, access) + 1
        return accesses[i] if i < len(accesses) else None

    def accesses_between(self, start: MemoryAccess, end: MemoryAccess | None) -> list[MemoryAccess]:
        """The accesses strictly between ``start`` and ``end`` in ``start``'s block (to the
        block's end when ``end`` is None): LLVM's ``make_range(++Start->getIterator(),
        End->getIterator())``."""
        accesses = self._per_block_accesses[start.block]
        i = _index_of(accesses, start) + 1
        j = len(accesses) if end is None else _index_of(accesses, end)
        return accesses[i:j]

    def _renumber_block(self, bb: BasicBlock) -> None:
        numbering = self._block_numbering
        n = 0
        for ma in self._per_block_accesses[bb]:
            n += 1
            numbering[ma] = n
        self._block_numbering_valid.add(bb)

    def locally_dominates(self, dominator: MemoryAccess, dominatee: MemoryAccess) -> bool:
        """Both in one block: does ``dominator`` come first (or is it the same access)?"""
        if dominatee is dominator:
            return True
        live = self.live_on_entry
        if dominatee is live:
            return False
        if dominator is live:
            return True
        bb = dominator.block
        if bb not in self._block_numbering_valid:
            self._renumber_block(bb)
        numbering = self._block_numbering
        return numbering[dominator] < numbering[dominatee]

    def dominates(self, dominator: MemoryAccess, dominatee: MemoryAccess | MemoryAccessUse) -> bool:
        """Does ``dominator`` dominate the access ``dominatee`` (or the use slot: for a phi
        operand, the end of the incoming block)?"""
        if isinstance(dominatee, MemoryAccessUse):
            user = dominatee.user
            if isinstance(user, MemoryPhi):
                use_bb = user.get_incoming_block(dominatee)
                if use_bb is not dominator.block:
                    return self.dt.dominates_block(dominator.block, use_bb)
                value = dominatee.value
                assert value is not None
                return self.locally_dominates(dominator, value)
            dominatee = user
        if dominator is dominatee:
            return True
        if dominatee is self.live_on_entry:
            return False
        if dominator.block is not dominatee.block:
            return self.dt.dominates_block(dominator.block, dominatee.block)
        return self.locally_dominates(dominator, dominatee)

    # --- walkers --------------------------------------------------------------------------------
    def get_walker(self) -> CachingWalker:
        """The caching clobber walker (see ``memory_ssa_walker.py``)."""
        walker = self._walker
        if walker is None:
            from llvmpy_mid.analysis.memory_ssa_walker import CachingWalker, ClobberWalkerBase

            if self._walker_base is None:
                self._walker_base = ClobberWalkerBase(self, self.dt)
            walker = self._walker = CachingWalker(self, self._walker_base)
        return walker

    def get_skip_self_walker(self) -> SkipSelfWalker:
        """The walker that, for a def, looks past the def itself."""
        walker = self._skip_walker
        if walker is None:
            from llvmpy_mid.analysis.memory_ssa_walker import ClobberWalkerBase, SkipSelfWalker

            if self._walker_base is None:
                self._walker_base = ClobberWalkerBase(self, self.dt)
            walker = self._skip_walker = SkipSelfWalker(self, self._walker_base)
        return walker

    def ensure_optimized_uses(self) -> None:
        """Point every use at its clobber (LLVM ``OptimizeUses``), once."""
        if self.is_optimized:
            return
        from llvmpy_mid.analysis.memory_ssa_walker import CachingWalker, ClobberWalkerBase, OptimizeUses

        baa = BatchAAResults(self.aa)
        base = ClobberWalkerBase(self, self.dt)
        walker = CachingWalker(self, base)
        OptimizeUses(self, walker, baa, self.dt).optimize_uses()
        self.is_optimized = True

    # --- list editing (the updater's internals) -------------------------------------------------
    def _get_or_create_access_list(self, bb: BasicBlock) -> list[MemoryAccess]:
        lst = self._per_block_accesses.get(bb)
        if lst is None:
            lst = self._per_block_accesses[bb] = []
        return lst

    def _get_or_create_defs_list(self, bb: BasicBlock) -> list[MemoryAccess]:
        lst = self._per_block_defs.get(bb)
        if lst is None:
            lst = self._per_block_defs[bb] = []
        return lst

    def insert_into_lists_for_block(self, access: MemoryAccess, bb: BasicBlock, point: int) -> None:
        """Put ``access`` at the beginning (after the phi for a non-phi) or at the end
        (``END``) of ``bb``'s lists."""
        accesses = self._get_or_create_access_list(bb)
        if point == BEGINNING:
            if type(access) is MemoryPhi:
                accesses.insert(0, access)
                self._get_or_create_defs_list(bb).insert(0, access)
            else:
                pos = 0
                while pos < len(accesses) and type(accesses[pos]) is MemoryPhi:
                    pos += 1
                accesses.insert(pos, access)
                if type(access) is not MemoryUse:
                    defs = self._get_or_create_defs_list(bb)
                    dpos = 0
                    while dpos < len(defs) and type(defs[dpos]) is MemoryPhi:
                        dpos += 1
                    defs.insert(dpos, access)
        else:
            accesses.append(access)
            if type(access) is not MemoryUse:
                self._get_or_create_defs_list(bb).append(access)
        self._block_numbering_valid.discard(bb)

    def insert_into_lists_before(self, access: MemoryAccess, bb: BasicBlock, before: MemoryAccess | None) -> None:
        """Put ``access`` before ``before`` in ``bb``'s lists (at the end when None)."""
        accesses = self._per_block_accesses.get(bb)
        if accesses is None:
            assert before is None
            accesses = self._get_or_create_access_list(bb)
        if before is None:
            pos = len(accesses)
        else:
            pos = _index_of(accesses, before)
        accesses.insert(pos, access)
        if type(access) is not MemoryUse:
            defs = self._get_or_create_defs_list(bb)
            nxt: MemoryAccess | None = None
            for k in range(pos + 1, len(accesses)):
                if type(accesses[k]) is MemoryDef:
                    nxt = accesses[k]
                    break
            if nxt is None:
                defs.append(access)
            else:
                defs.insert(_index_of(defs, nxt), access)
        self._block_numbering_valid.discard(bb)

    def _prepare_for_move_to(self, access: MemoryAccess, bb: BasicBlock) -> None:
        self.remove_from_lists(access, False)
        if type(access) is MemoryDef:
            assert isinstance(access, MemoryDef)
            access.reset_optimized()
        access.set_block(bb)

    def move_to(self, access: MemoryAccess, bb: BasicBlock, where: MemoryAccess | None | int) -> None:
        """Move ``access`` into ``bb``: before the access ``where`` (None: at the end), or
        at the place ``BEGINNING``/``END`` when ``where`` is an int."""
        if isinstance(where, int):
            if type(access) is MemoryPhi:
                assert where == BEGINNING
                self._value_to_access.pop(access.block, None)
                assert bb not in self._value_to_access
                self._value_to_access[bb] = access
            self._prepare_for_move_to(access, bb)
            self.insert_into_lists_for_block(access, bb, where)
            return
        self._prepare_for_move_to(access, bb)
        self.insert_into_lists_before(access, bb, where)

    def create_memory_phi(self, bb: BasicBlock) -> MemoryPhi:
        """A new, empty phi at the start of ``bb`` (the block must have none)."""
        assert bb not in self._value_to_access
        phi = MemoryPhi(bb, self._next_id)
        self._next_id += 1
        self.insert_into_lists_for_block(phi, bb, BEGINNING)
        self._value_to_access[bb] = phi
        return phi

    def create_defined_access(
        self, inst: Instruction, definition: MemoryAccess | None, template: MemoryUseOrDef | None = None,
        creation_must_succeed: bool = True,
    ) -> MemoryUseOrDef | None:
        """A new use/def for ``inst`` defined by ``definition`` (not yet in any list); None
        if ``inst`` needs no access."""
        new = self._create_new_access(inst, self.aa, template)
        if creation_must_succeed:
            assert new is not None, "no memory access for an instruction that touches no memory"
        if new is not None:
            new.set_defining_access(definition)
        return new

    def remove_from_lookups(self, access: MemoryAccess) -> None:
        """Forget ``access`` (it must have no uses): numbering, defining access, walker
        caches and the instruction/block map."""
        assert access.use_empty(), "removing a memory access that still has uses"
        self._block_numbering.pop(access, None)
        if isinstance(access, MemoryUseOrDef):
            access.set_defining_access(None)
        if type(access) is not MemoryUse:
            self.get_walker().invalidate_info(access)
        key: Value
        if isinstance(access, MemoryUseOrDef):
            inst = access.memory_inst
            assert inst is not None
            key = inst
        else:
            key = access.block
        if self._value_to_access.get(key) is access:
            del self._value_to_access[key]

    def remove_from_lists(self, access: MemoryAccess, should_delete: bool = True) -> None:
        """Take ``access`` out of its block's lists (dropping its operands when deleted)."""
        bb = access.block
        if type(access) is not MemoryUse:
            defs = self._per_block_defs[bb]
            del defs[_index_of(defs, access)]
            if not defs:
                del self._per_block_defs[bb]
        accesses = self._per_block_accesses[bb]
        del accesses[_index_of(accesses, access)]
        if should_delete:
            access.drop_all_references()
            access.erased = True
        if not accesses:
            del self._per_block_accesses[bb]
            self._block_numbering_valid.discard(bb)

    # --- printing and checking ------------------------------------------------------------------
    def print_text(self) -> str:
        """The function with each access as a comment (``MemorySSA::print``)."""
        from llvmpy_mid.analysis.memory_ssa_printer import MemorySSAAnnotatedWriter, print_function_annotated

        return print_function_annotated(self.function, MemorySSAAnnotatedWriter(self))

    def verify_memory_ssa(self, full: bool = True) -> None:
        """Check the structure (LLVM ``verifyMemorySSA``); raises :class:`AssertionError`
        describing the first problem. ``full`` also checks phi operands against the CFG
        and that each phi incoming is the last def dominating the incoming block."""
        from llvmpy_mid.analysis.memory_ssa_verifier import verify_memory_ssa

        verify_memory_ssa(self, full)

    def __repr__(self) -> str:
        return "<MemorySSA of @%s: %d blocks with accesses>" % (self.function.name, len(self._per_block_accesses))


def _index_of(items: list[MemoryAccess], target: MemoryAccess) -> int:
    for i in range(len(items)):
        if items[i] is target:
            return i
    raise ValueError("memory access not in list")


# --- pass-manager glue --------------------------------------------------------------------------


class MemorySSAResult:
    """The ``MemorySSAAnalysis`` result: ``mssa`` (also ``get_mssa()``)."""

    __slots__ = ("mssa",)

    def __init__(self, mssa: MemorySSA) -> None:
        self.mssa = mssa

    def get_mssa(self) -> MemorySSA:
        return self.mssa

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        from llvmpy_mid.analysis.alias.aa_manager import AAManager

        checker = pa.checker(MemorySSAAnalysis)
        if not (checker.preserved() or checker.preserved_set(AllAnalysesOnFunction)):
            return True
        return inv.invalidate(AAManager) or inv.invalidate(DominatorTreeAnalysis)


class MemorySSAAnalysis(FunctionAnalysis[MemorySSAResult]):
    """``memoryssa``: the function's :class:`MemorySSA` (as ``result.mssa``)."""

    name: ClassVar[str] = "memoryssa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> MemorySSAResult:
        from llvmpy_mid.analysis.alias.aa_manager import AAManager

        dt = am.get_result(DominatorTreeAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        return MemorySSAResult(MemorySSA(unit, aa, dt))


def get_memory_ssa(am: AnalysisManager[Function], fn: Function) -> MemorySSA:
    """``AM.getResult<MemorySSAAnalysis>(F).getMSSA()``."""
    return am.get_result(MemorySSAAnalysis, fn).mssa


def iter_accesses(mssa: MemorySSA, blocks: Iterable[BasicBlock]) -> Iterator[MemoryAccess]:
    """Every access of ``blocks`` in order (a convenience for tests and passes)."""
    for bb in blocks:
        accesses = mssa.get_block_accesses(bb)
        if accesses:
            yield from list(accesses)


__all__ = [
    "BEFORE_TERMINATOR",
    "BEGINNING",
    "END",
    "LIVE_ON_ENTRY_STR",
    "MemoryAccess",
    "MemoryAccessUse",
    "MemoryDef",
    "MemoryPhi",
    "MemorySSA",
    "MemorySSAAnalysis",
    "MemorySSAResult",
    "MemoryUse",
    "MemoryUseOrDef",
    "def_chain",
    "get_memory_ssa",
    "is_use_trivially_optimizable_to_live_on_entry",
    "optimized_def_chain",
    "upward_defs",
]
