"""The worklist of InstCombine-style simplification passes (LLVM
``include/llvm/Transforms/Utils/InstructionWorklist.h``).

Two parts, as in LLVM:

* a stack (``push``/``remove_one``): an instruction is on it at most once; it
  comes off last-in first-out. ``remove`` only blanks its slot (O(1)), so
  ``remove_one`` may return None for a blanked slot, which a driver skips —
  :meth:`InstructionWorklist.pop` does the skipping for you;
* a deferred set (``add``): instructions added while a fold runs, moved to the
  stack in reverse order (``pop_deferred`` gives the last added first) once the
  fold is done, so they come off the stack in the order they were added.

``is_empty`` is true when both are empty. The stack keeps an index per
instruction in a dict; nothing is ever searched for in a list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value


class InstructionWorklist:
    """LIFO stack of instructions plus an ordered set of deferred ones."""

    __slots__ = ("_stack", "_index", "_deferred")

    def __init__(self) -> None:
        self._stack: list[Instruction | None] = []
        self._index: dict[Instruction, int] = {}
        # dict as an insertion-ordered set (LLVM SmallSetVector)
        self._deferred: dict[Instruction, None] = {}

    def is_empty(self) -> bool:
        return not self._stack and not self._deferred

    def __len__(self) -> int:
        """Live instructions on the stack plus deferred ones (an instruction in both counts twice)."""
        return len(self._index) + len(self._deferred)

    def __contains__(self, inst: Instruction) -> bool:
        return inst in self._index or inst in self._deferred

    # --- deferred ---------------------------------------------------------------------
    def add(self, inst: Instruction) -> None:
        """Defer ``inst``: it reaches the stack after the current fold, in order of adding."""
        self._deferred[inst] = None

    add_deferred = add

    def add_value(self, v: Value) -> None:
        """``add`` when ``v`` is an instruction."""
        if v.is_instruction:
            self._deferred[v] = None  # type: ignore[index]

    def pop_deferred(self) -> Instruction | None:
        """The most recently deferred instruction, removed; None when there is none."""
        if not self._deferred:
            return None
        return self._deferred.popitem()[0]

    # --- the stack ------------------------------------------------------------------------
    def push(self, inst: Instruction) -> None:
        """Push ``inst`` unless it is already on the stack (then its place is kept)."""
        index = self._index
        if inst not in index:
            stack = self._stack
            index[inst] = len(stack)
            stack.append(inst)

    def push_value(self, v: Value) -> None:
        if v.is_instruction:
            self.push(v)  # type: ignore[arg-type]

    def push_users_to_worklist(self, inst: Instruction) -> None:
        """Push every instruction using ``inst`` (they may simplify further now)."""
        index = self._index
        stack = self._stack
        use = inst._use_head
        while use is not None:
            user = use.user
            if user.is_instruction and user not in index:
                index[user] = len(stack)  # type: ignore[index]
                stack.append(user)  # type: ignore[arg-type]
            use = use._next

    def remove_one(self) -> Instruction | None:
        """Pop the top slot (LLVM ``removeOne``): None when the stack is empty
        or the slot was blanked by :meth:`remove`."""
        stack = self._stack
        if not stack:
            return None
        inst = stack.pop()
        if inst is not None:
            del self._index[inst]
        return inst

    def pop(self) -> Instruction | None:
        """The next live instruction off the stack (blanked slots skipped), or None.
        Deferred instructions are not looked at: move them with ``pop_deferred`` first."""
        stack = self._stack
        while stack:
            inst = stack.pop()
            if inst is not None:
                del self._index[inst]
                return inst
        return None

    def remove(self, inst: Instruction) -> None:
        """Take ``inst`` out of the stack (its slot is blanked) and the deferred set."""
        at = self._index.pop(inst, None)
        if at is not None:
            self._stack[at] = None
        self._deferred.pop(inst, None)

    def handle_use_count_decrement(self, v: Value) -> None:
        """After ``v`` lost a use: defer it, and its only user if one use is left."""
        if v.is_instruction:
            self._deferred[v] = None  # type: ignore[index]
            head = v._use_head
            if head is not None and head._next is None and head.user.is_instruction:
                self._deferred[head.user] = None  # type: ignore[index]

    def reserve(self, size: int) -> None:
        """Accepted for LLVM parity; Python lists grow on their own."""

    def zap(self) -> None:
        """Clear everything (LLVM asserts the lists are already empty)."""
        self._stack.clear()
        self._index.clear()
        self._deferred.clear()


__all__ = ["InstructionWorklist"]
