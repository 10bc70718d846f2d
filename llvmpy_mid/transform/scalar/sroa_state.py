"""The state one run of SROA carries between its phases (the fields of the ``SROA`` class in
LLVM 19's lib/Transforms/Scalar/SROA.cpp).

What: :class:`SROAState` holds the function being rewritten, its data layout and context, the
dominator-tree updater and assumption cache, whether the CFG must be preserved, and the
worklists the slicing, rewriting, speculation and promotion phases share: the allocas still
to slice (``worklist``), those to revisit after promotion (``post_promotion_worklist``),
the instructions to delete (``dead_insts``), the allocas to promote, the phis whose loads
are to be speculated and the selects whose memory operations are to be rewritten.

How: :class:`SetVector` is LLVM's ``SetVector`` (insertion order, no duplicates, O(1)
insert, membership and pop of the last element). ``dead_insts`` is LLVM's vector of
``WeakVH``: a list that may hold an instruction twice or one already erased; the deleter
skips those (:func:`is_erased`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Iterator, TypeVar

from llvmpy_mid.ir.instruction import Instruction

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instructions.memory import AllocaInst
    from llvmpy_mid.ir.instructions.other import PHINode, SelectInst

T = TypeVar("T")

__all__ = ["SROAState", "SetVector", "is_erased"]


class SetVector(Generic[T]):
    """An insertion-ordered set (LLVM ``SetVector``): ``insert`` returns whether the
    element was new, ``pop`` removes and returns the last one."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: dict[T, None] = dict.fromkeys(items)

    def insert(self, item: T) -> bool:
        if item in self._items:
            return False
        self._items[item] = None
        return True

    def add(self, item: T) -> bool:
        return self.insert(item)

    def append(self, item: T) -> bool:
        return self.insert(item)

    def pop(self) -> T:
        """Remove and return the last element (LLVM ``pop_back_val``)."""
        return self._items.popitem()[0]

    def pop_back_val(self) -> T:
        return self.pop()

    def back(self) -> T:
        return next(reversed(self._items))

    def remove(self, item: T) -> bool:
        if item in self._items:
            del self._items[item]
            return True
        return False

    def discard(self, item: T) -> None:
        self._items.pop(item, None)

    def remove_if(self, predicate: Callable[[T], bool]) -> bool:
        doomed = [item for item in self._items if predicate(item)]
        for item in doomed:
            del self._items[item]
        return bool(doomed)

    def clear(self) -> None:
        self._items.clear()

    def take_vector(self) -> list[T]:
        """The elements in order; the set is left empty (LLVM ``takeVector``)."""
        out = list(self._items)
        self._items.clear()
        return out

    def copy(self) -> SetVector[T]:
        return SetVector(self._items)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items))

    def __getitem__(self, index: int) -> T:
        return list(self._items)[index]

    def __repr__(self) -> str:
        return "SetVector(%r)" % list(self._items)


def is_erased(inst: Instruction) -> bool:
    """Whether ``inst`` has left its block (a ``WeakVH`` to it would be null)."""
    return inst.parent is None


class SROAState:
    """What LLVM's ``SROA`` object holds during one ``runSROA`` of a function."""

    def __init__(
        self,
        function: Function,
        dtu: DomTreeUpdater,
        ac: AssumptionCache | None,
        preserve_cfg: bool,
    ) -> None:
        self.function = function
        module = function.parent
        assert module is not None, "SROA needs a function inside a module"
        self.data_layout: DataLayout = module.data_layout
        self.context: Context = function.context
        self.dtu = dtu
        self.ac = ac
        self.preserve_cfg = preserve_cfg
        # Allocas still to slice; new allocas are pushed here unless promotable.
        self.worklist: SetVector[AllocaInst] = SetVector()
        # Allocas to slice again once the current promotion round is done.
        self.post_promotion_worklist: SetVector[AllocaInst] = SetVector()
        # Instructions to delete (LLVM's SmallVector<WeakVH>): duplicates and erased ones allowed.
        self.dead_insts: list[Instruction] = []
        # Allocas mem2reg may promote at the end of the round, in push order.
        self.promotable_allocas: SetVector[AllocaInst] = SetVector()
        # Phis whose loads are to be speculated before promotion.
        self.speculatable_phis: SetVector[PHINode] = SetVector()
        # Selects whose loads/stores are to be rewritten before promotion (SmallMapVector).
        self.selects_to_rewrite: dict[SelectInst, Any] = {}
        # Whether the CFG changed in this run (select rewriting may split blocks).
        self.cfg_changed = False

