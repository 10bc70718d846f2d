"""The priority order of the module inliner's call sites (LLVM 19.1.7
``lib/Analysis/InlineOrder.cpp``: ``PriorityInlineOrder`` with ``SizePriority``,
``CostPriority``, ``CostBenefitPriority`` and ``MLPriority``, chosen by
``-inline-priority-mode``).

What: a binary heap of call sites, most desirable first. ``size``: the smaller the callee (in
instructions), the earlier. ``cost`` (and ``ml``, which LLVM 19 orders the same way): the lower
the inline cost, always-inline first and never-inline last. ``cost-benefit``: first the sites
whose cost plus static bonus is under ``-module-inliner-top-priority-threshold`` (cheapest
first), then those the cost-benefit analysis decided (higher cycle savings over runtime size
first), then by cost. Priorities are computed when a call is pushed and refreshed lazily on pop: a call
that became less desirable since is pushed back and the heap popped again. The heap moves
elements exactly as libstdc++'s ``push_heap``/``pop_heap``/``make_heap`` do, so calls of equal
priority come out in opt-19's order.

"""

from __future__ import annotations

from typing import Any, Callable, Final

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.instructions.calls import CallBase

Entry = tuple[CallBase, int]

INT_MAX: Final = (1 << 31) - 1
INT_MIN: Final = -(1 << 31)
PRIORITY_MODES: Final = ("size", "cost", "cost-benefit", "ml")


def _instruction_count(call: CallBase) -> int:
    callee = call.called_function
    if callee is None:
        return (1 << 32) - 1
    return callee.instruction_count


def _size_more_desirable(p1: Any, p2: Any) -> bool:
    return bool(p1 < p2)


def _cost_of(ic: Any) -> int:
    """The priority cost of an ``InlineCost``: its cost, or INT_MIN/INT_MAX for always/never."""
    if ic.is_variable:
        return int(ic.cost)
    return INT_MAX if ic.is_never else INT_MIN


_U128 = (1 << 128) - 1


def _cost_benefit_more_desirable(top: int) -> Callable[[Any, Any], bool]:
    """LLVM ``CostBenefitPriority::isMoreDesirable`` over ``(cost, static bonus, (size, savings) or
    None)``; the benefit-to-cost ratios compare as LLVM's 128-bit products."""

    def more(p1: Any, p2: Any) -> bool:
        c1, b1, cb1 = p1
        c2, b2, cb2 = p2
        r1 = c1 + b1 < top
        r2 = c2 + b2 < top
        if r1 or r2:
            if r1 != r2:
                return bool(r1)
            return bool(c1 < c2)
        if cb1 is not None or cb2 is not None:
            if (cb1 is None) != (cb2 is None):
                return cb1 is not None
            lhs = (cb1[1] * cb2[0]) & _U128
            rhs = (cb2[1] * cb1[0]) & _U128
            return bool(lhs > rhs)
        return bool(c1 < c2)

    return more


def priority_functions(
    mode: str, inline_cost_of: Callable[[CallBase], Any] | None
) -> tuple[Callable[[CallBase], Any], Callable[[Any, Any], bool]]:
    """The priority of a call and the "more desirable" order of ``-inline-priority-mode=mode``
    (``inline_cost_of`` gives a call's ``InlineCost``; needed by every mode but ``size``)."""
    if mode == "size":
        return _instruction_count, _size_more_desirable
    if mode not in PRIORITY_MODES:
        raise PipelineError("for the --inline-priority-mode option: Cannot find option named '%s'!" % mode)
    if inline_cost_of is None:
        raise PipelineError("-inline-priority-mode=%s needs the inline cost of the call sites" % mode)
    get_cost = inline_cost_of
    if mode in ("cost", "ml"):
        return (lambda call: _cost_of(get_cost(call))), _size_more_desirable
    from llvmpy_mid.analysis.inline_cost import option_int

    def cost_benefit(call: CallBase) -> tuple[int, int, tuple[int, int] | None]:
        ic = get_cost(call)
        return _cost_of(ic), int(ic.static_bonus_applied), ic.cost_benefit

    return cost_benefit, _cost_benefit_more_desirable(option_int("module-inliner-top-priority-threshold"))


class PriorityInlineOrder:
    """LLVM ``PriorityInlineOrder<...Priority>``: ``priority`` computes a call's priority and
    ``more_desirable(p1, p2)`` orders two of them (the default is ``SizePriority``)."""

    def __init__(
        self,
        priority: Callable[[CallBase], Any] = _instruction_count,
        more_desirable: Callable[[Any, Any], bool] = _size_more_desirable,
    ) -> None:
        self.heap: list[CallBase] = []
        self.priorities: dict[CallBase, Any] = {}
        self.history: dict[CallBase, int] = {}
        self.priority = priority
        self.more_desirable = more_desirable

    def __len__(self) -> int:
        return len(self.heap)

    def _less(self, left: CallBase, right: CallBase) -> bool:
        """``left`` has a lower priority than ``right``."""
        return self.more_desirable(self.priorities[right], self.priorities[left])

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
        self.priorities[call] = self.priority(call)
        self._push_heap()
        self.history[call] = history_id

    def pop(self) -> Entry:
        self._pop_heap()
        while True:
            back = self.heap[-1]
            old = self.priorities[back]
            new = self.priority(back)
            self.priorities[back] = new
            if not self.more_desirable(old, new):
                break
            self._push_heap()
            self._pop_heap()
        call = self.heap.pop()
        return call, self.history.pop(call)

    def erase_if(self, pred: Callable[[Entry], bool]) -> None:
        self.heap = [c for c in self.heap if not pred((c, self.history[c]))]
        self._make_heap()
