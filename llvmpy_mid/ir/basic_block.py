"""Basic blocks (LLVM ``BasicBlock``): a label value owning a list of instructions.

A block's predecessors are the terminators among its users, in use-list
order (that order is what ``; preds =`` prints). Phi nodes name their
incoming blocks without using them, exactly as in LLVM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.ilist import IList
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instructions.other import PHINode
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.symbol_table import ValueSymbolTable


class BasicBlock(Value):
    """A basic block. ``instructions`` is an O(1)-editable list view."""

    __slots__ = ("parent", "_prev", "_next", "instructions", "_order_valid")

    is_basic_block = True

    parent: Function | None

    def __init__(
        self,
        context: Context,
        name: str = "",
        parent: Function | None = None,
        insert_before: BasicBlock | None = None,
    ) -> None:
        if not hasattr(context, "label"):
            raise TypeError(
                "BasicBlock(context, name='', parent=None): the first argument must be a Context, not %s"
                " (fn.append_block(name) makes a block at the end of a function)" % type(context).__name__
            )
        if not isinstance(name, str):
            raise TypeError("BasicBlock: the name must be a str, not %s" % type(name).__name__)
        Value.__init__(self, context.label, name)
        self.parent = None
        self._prev: BasicBlock | None = None
        self._next: BasicBlock | None = None
        self.instructions: IList[Instruction] = IList(self)
        self._order_valid = True
        if parent is not None:
            parent.blocks.insert_before(self, insert_before)

    # --- list ownership hooks -------------------------------------------------------
    def _node_added(self, inst: Instruction) -> None:
        inst.parent = self
        prev = inst._prev
        if self._order_valid:
            if inst._next is None:
                inst._order = prev._order + 1 if prev is not None else 0
            else:
                self._order_valid = False
        fn = self.parent
        if fn is not None:
            fn._repr_cache = None
            if inst._name:
                inst._name = fn.symbol_table.insert_unique(inst._name, inst)

    def _append_instruction(self, inst: Instruction) -> None:
        """``instructions.append`` and ``_node_added`` in one step, for builders
        (the same effect, without two calls per instruction)."""
        insts = self.instructions
        last: Instruction | None = insts._last
        inst._prev = last
        inst._next = None
        if last is None:
            insts._first = inst
            inst._order = 0
        else:
            last._next = inst
            inst._order = last._order + 1
        insts._last = inst
        insts._size += 1
        inst.parent = self
        fn = self.parent
        if fn is not None:
            fn._repr_cache = None
            name = inst._name
            if name:
                table = fn.symbol_table
                names = table._map
                if name in names:
                    inst._name = table.insert_unique(name, inst)
                else:
                    names[name] = inst

    def _node_removed(self, inst: Instruction) -> None:
        inst.parent = None
        fn = self.parent
        if fn is not None:
            fn._repr_cache = None
            if inst._name:
                fn.symbol_table.remove(inst)

    def _renumber(self) -> None:
        order = 0
        node = self.instructions._first
        while node is not None:
            node._order = order
            order += 1
            node = node._next
        self._order_valid = True

    def _symbol_table(self) -> ValueSymbolTable | None:
        fn = self.parent
        return fn.symbol_table if fn is not None else None

    def _numbering_changed(self) -> None:
        fn = self.parent
        if fn is not None:
            fn._repr_cache = None

    # --- position ----------------------------------------------------------------
    @property
    def module(self) -> Module | None:
        fn = self.parent
        return fn.parent if fn is not None else None

    @property
    def next_block(self) -> BasicBlock | None:
        return self._next

    @property
    def prev_block(self) -> BasicBlock | None:
        return self._prev

    @property
    def is_entry_block(self) -> bool:
        fn = self.parent
        return fn is not None and fn.blocks._first is self

    def remove_from_parent(self) -> None:
        """Detach from the function, keeping the instructions."""
        fn = self.parent
        if fn is None:
            raise IRError("block is not in a function")
        fn.blocks.remove(self)

    @property
    def has_address_taken(self) -> bool:
        """A ``blockaddress`` of this block exists (LLVM ``BasicBlock::hasAddressTaken``)."""
        from llvmpy_mid.ir.constants import BlockAddress

        for user in self.users:
            if isinstance(user, BlockAddress):
                return True
        return False

    def _drop_address_taken_uses(self) -> None:
        """Replace each ``blockaddress`` of this block by ``inttoptr (i32 1)``, as
        LLVM does when a block whose address is taken is deleted."""
        from llvmpy_mid.ir.constant_expr import ConstantExpr
        from llvmpy_mid.ir.constants import BlockAddress, ConstantInt

        for user in list(self.users):
            if isinstance(user, BlockAddress):
                one = ConstantInt.get(self.type.context.i32, 1)
                user.replace_all_uses_with(ConstantExpr.get_cast("inttoptr", one, user.type))
                user.destroy_constant()

    def erase_from_parent(self) -> None:
        """Detach and destroy the block and its instructions.

        Refuses while the block is used (by a branch or ``blockaddress``) or
        while one of its instructions is used outside it.
        """
        if self._use_head is not None:
            raise IRError("cannot erase block %r: it still has uses (branches or blockaddress)" % self)
        for inst in self.instructions:
            for user in inst.users:
                if not (isinstance(user, Instruction) and user.parent is self):
                    raise IRError("cannot erase block %r: %r is used outside it" % (self, inst))
        for inst in self.instructions:
            inst.drop_all_references()
        for inst in reversed(self.instructions):
            inst._dbg_records = None
            inst.erase_from_parent()
        if self.parent is not None:
            self.parent.blocks.remove(self)

    def move_before(self, other: BasicBlock) -> None:
        """Move this block before ``other`` in the same function."""
        fn = other.parent
        if fn is None or self.parent is not fn:
            raise IRError("move_before: blocks of different functions")
        fn.blocks.remove(self)
        fn.blocks.insert_before(self, other)

    def move_after(self, other: BasicBlock) -> None:
        fn = other.parent
        if fn is None or self.parent is not fn:
            raise IRError("move_after: blocks of different functions")
        fn.blocks.remove(self)
        fn.blocks.insert_before(self, other._next)

    # --- instructions --------------------------------------------------------------------
    def __iter__(self) -> Iterator[Instruction]:
        return iter(self.instructions)

    def __len__(self) -> int:
        return len(self.instructions)

    def append(self, inst: Instruction) -> Instruction:
        """Insert ``inst`` at the end of the block and return it."""
        if not isinstance(inst, Instruction):
            raise TypeError("BasicBlock.append needs an Instruction, not %s" % type(inst).__name__)
        inst._check_detached()
        self.instructions.append(inst)
        return inst

    @property
    def terminator(self) -> Instruction | None:
        """The last instruction if it is a terminator."""
        last: Instruction | None = self.instructions._last
        if last is not None and last.is_terminator_class:
            return last
        return None

    @property
    def first_instruction(self) -> Instruction | None:
        return self.instructions.first

    def phis(self) -> Iterator[PHINode]:
        """The phi nodes at the top of the block."""
        node = self.instructions._first
        while node is not None and node.is_phi:
            nxt = node._next
            yield node
            node = nxt

    @property
    def first_non_phi(self) -> Instruction | None:
        node: Instruction | None = self.instructions._first
        while node is not None and node.is_phi:
            node = node._next
        return node

    @property
    def first_insertion_point(self) -> Instruction | None:
        """The first instruction that is neither a phi nor an EH pad (LLVM ``getFirstInsertionPt``)."""
        node = self.first_non_phi
        if node is not None and node.is_eh_pad:
            node = node._next
        return node

    # --- CFG -------------------------------------------------------------------------------
    @property
    def predecessors(self) -> list[BasicBlock]:
        """Blocks whose terminator branches here, in LLVM's order (duplicates kept)."""
        preds: list[BasicBlock] = []
        use = self._use_head
        while use is not None:
            user = use.user
            if user.is_instruction and user.is_terminator_class:  # type: ignore[attr-defined]
                parent = user.parent  # type: ignore[attr-defined]
                if parent is not None:
                    preds.append(parent)
            use = use._next
        return preds

    @property
    def successors(self) -> list[BasicBlock]:
        term = self.terminator
        return term.successors if term is not None else []

    @property
    def single_predecessor(self) -> BasicBlock | None:
        """The predecessor if there is exactly one predecessor edge (the walk stops at the second)."""
        found: BasicBlock | None = None
        use = self._use_head
        while use is not None:
            user = use.user
            if user.is_instruction and user.is_terminator_class:  # type: ignore[attr-defined]
                parent = user.parent  # type: ignore[attr-defined]
                if parent is not None:
                    if found is not None:
                        return None
                    found = parent
            use = use._next
        return found

    @property
    def unique_predecessor(self) -> BasicBlock | None:
        """The predecessor if all predecessor edges come from one block (the walk stops at a second one)."""
        found: BasicBlock | None = None
        use = self._use_head
        while use is not None:
            user = use.user
            if user.is_instruction and user.is_terminator_class:  # type: ignore[attr-defined]
                parent = user.parent  # type: ignore[attr-defined]
                if parent is not None:
                    if found is not None and parent is not found:
                        return None
                    found = parent
            use = use._next
        return found

    @property
    def single_successor(self) -> BasicBlock | None:
        term = self.terminator
        if term is None or term.num_successors != 1:
            return None
        return term.get_successor(0)

    @property
    def unique_successor(self) -> BasicBlock | None:
        """The successor if all successor edges go to one block (the walk stops at a second one)."""
        term = self.terminator
        if term is None:
            return None
        n: int = term.num_successors
        if n == 0:
            return None
        first: BasicBlock = term.get_successor(0)
        for i in range(1, n):
            if term.get_successor(i) is not first:
                return None
        return first

    @property
    def num_predecessors(self) -> int:
        return len(self.predecessors)

    def has_n_predecessors(self, n: int) -> bool:
        """Exactly ``n`` predecessor edges, counted only as far as needed (LLVM ``hasNPredecessors``)."""
        return self._count_predecessors(n + 1) == n

    def has_n_predecessors_or_more(self, n: int) -> bool:
        """At least ``n`` predecessor edges (LLVM ``hasNPredecessorsOrMore``)."""
        return self._count_predecessors(n) >= n

    def _count_predecessors(self, limit: int) -> int:
        count = 0
        use = self._use_head
        while use is not None and count < limit:
            user = use.user
            if user.is_instruction and user.is_terminator_class and user.parent is not None:  # type: ignore[attr-defined]
                count += 1
            use = use._next
        return count

    def replace_phi_uses_with(self, old: BasicBlock, new: BasicBlock) -> None:
        """In this block's phis, rename incoming block ``old`` to ``new``."""
        for phi in self.phis():
            phi.replace_incoming_block_with(old, new)

    def replace_successors_phi_uses_with(self, old: BasicBlock, new: BasicBlock) -> None:
        """In every successor's phis, rename incoming block ``old`` to ``new``."""
        for succ in self.successors:
            succ.replace_phi_uses_with(old, new)

    def replace_all_uses_with(self, new: Value) -> None:
        """RAUW for a block also renames it in the phis of its successors (as LLVM)."""
        if not isinstance(new, BasicBlock):
            raise IRError("a block can only be replaced by a block")
        self.replace_successors_phi_uses_with(self, new)
        Value.replace_all_uses_with(self, new)

    def split(self, at: Instruction, name: str = "") -> BasicBlock:
        """Move ``at`` and everything after it into a new block placed after this
        one, end this block with ``br label %new``, and rename this block to the
        new one in the successors' phis (LLVM ``splitBasicBlock``)."""
        from llvmpy_mid.ir.instructions.terminators import BranchInst

        if at.parent is not self:
            raise IRError("split: the instruction is not in this block")
        if self.terminator is None:
            raise IRError("split: the block has no terminator")
        fn = self.parent
        new_bb = BasicBlock(self.type.context, name)
        if fn is not None:
            fn.blocks.insert_before(new_bb, self._next)
        node: Instruction | None = at
        while node is not None:
            nxt = node._next
            self.instructions.remove(node)
            new_bb.instructions.append(node)
            node = nxt
        br = BranchInst(new_bb)
        br.debug_loc = at.debug_loc
        self.instructions.append(br)
        new_bb.replace_successors_phi_uses_with(self, new_bb)
        return new_bb
