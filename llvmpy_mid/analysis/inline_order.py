"""The priority order of the module inliner's call sites (LLVM 19.1.7
``lib/Analysis/InlineOrder.cpp``: ``PriorityInlineOrder`` with ``SizePriority``).

What: a binary heap of call sites, most desirable first: the smaller the callee (in
instructions), the earlier. Priorities are computed when a call is pushed and refreshed
lazily on pop: a call whose callee grew since is pushed back and the heap popped again.
The heap moves elements exactly as libstdc++'s ``push_heap``/``pop_heap``/``make_heap``
do, so calls of equal priority come out in opt-19's order.

What it does not do: the ``cost``, ``cost-benefit`` and ``ml`` priority modes.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.ir.instructions.calls import CallBase

Entry = tuple[CallBase, int]


def _instruction_count(call: CallBase) -> int:
    callee = call.called_function
    if callee is None:
        return (1 << 32) - 1
    return callee.instruction_count


class PriorityInlineOrder:
    """LLVM ``PriorityInlineOrder<SizePriority>``."""

    def __init__(self) -> None:
        self.heap: list[CallBase] = []
        self.priorities: dict[CallBase, int] = {}
        self.history: dict[CallBase, int] = {}

    def __len__(self) -> int:
        return len(self.heap)

    def _less(self, left: CallBase, right: CallBase) -> bool:
        """``left`` has a lower priority than ``right`` (its callee is bigger)."""
        return self.priorities[right] < self.priorities[left]

    # --- libstdc++'s heap algorithms -------------------------------------------------------
    def _push_up(self, hole: int, top: int, value: CallBase) -> None:
        heap = self.heap
        parent = (hole - 1) // 2
        while hole > top and self._less(heap[parent], value):
            heap[hole] = heap[parent]
            hole = parent
            parent = (hole - 1) // 2
        heap[hole] = value

    def _adjust(self, hole: int, length: int, value: CallBase) -> None:
        heap = self.heap
        top = hole
        child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if self._less(heap[child], heap[child - 1]):
                child -= 1
            heap[hole] = heap[child]
            hole = child
        if (length & 1) == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        self._push_up(hole, top, value)

    def _push_heap(self) -> None:
        n = len(self.heap)
        if n > 1:
            self._push_up(n - 1, 0, self.heap[n - 1])

    def _pop_heap(self) -> None:
        heap = self.heap
        n = len(heap)
        if n > 1:
            value = heap[n - 1]
            heap[n - 1] = heap[0]
            self._adjust(0, n - 1, value)

    def _make_heap(self) -> None:
        n = len(self.heap)
        if n < 2:
            return
        parent = (n - 2) // 2
        while True:
            self._adjust(parent, n, self.heap[parent])
            if parent == 0:
                return
            parent -= 1

    # --- the order ---------------------------------------------------------------------------
    def push(self, call: CallBase, history_id: int) -> None:
        self.heap.append(call)
        self.priorities[call] = _instruction_count(call)
        self._push_heap()
        self.history[call] = history_id

    def pop(self) -> Entry:
        self._pop_heap()
        while True:
            back = self.heap[-1]
            old = self.priorities[back]
            new = _instruction_count(back)
            self.priorities[back] = new
            if not old < new:
                break
            self._push_heap()
            self._pop_heap()
        call = self.heap.pop()
        return call, self.history.pop(call)

    def erase_if(self, pred: Callable[[Entry], bool]) -> None:
        self.heap = [c for c in self.heap if not pred((c, self.history[c]))]
        self._make_heap()
