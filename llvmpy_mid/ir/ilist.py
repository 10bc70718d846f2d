"""Ordered containers with O(1) insertion and removal at a known position.

Blocks hold instructions and functions hold blocks in intrusive doubly
linked lists (each node carries ``_prev``/``_next``), like LLVM's ``ilist``.
Iteration fetches the next node before yielding the current one, so erasing
the current node while iterating is safe. Erasing the *next* node is safe too:
when the fetched next node has left the list (its ``parent`` is no longer the
list's owner), iteration resumes after the current node instead. Only when
both the current and the fetched next node have left does iteration stop,
with an :class:`~llvmpy_mid.errors.IRError` (there is no position left to
continue from).
"""

from __future__ import annotations

from typing import Any, Generic, Iterator, Protocol, TypeVar, overload

from llvmpy_mid.errors import IRError

# Nodes are any objects with ``_prev``/``_next`` slots (instructions, blocks,
# globals); the links are reached through ``Any`` because each node class
# types them with its own class.
N = TypeVar("N")


_LOST = (
    "list changed during iteration: the current node and the %s one were both removed,"
    " so there is no place to continue from (iterate over a copy, list(...), instead)"
)


class ListOwner(Protocol):  # pragma: no cover - typing only
    def _node_added(self, node: Any) -> None: ...

    def _node_removed(self, node: Any) -> None: ...


class IList(Generic[N]):
    """A linked list of nodes owned by a block or function.

    ``owner._node_added(node)`` and ``owner._node_removed(node)`` are called on
    every insertion and removal so the owner can keep parents, symbol tables
    and order numbers right.
    """

    __slots__ = ("_owner", "_first", "_last", "_size")

    def __init__(self, owner: ListOwner) -> None:
        self._owner = owner
        self._first: Any = None
        self._last: Any = None
        self._size = 0

    # --- queries ----------------------------------------------------------------
    @property
    def first(self) -> N | None:
        first: N | None = self._first
        return first

    @property
    def last(self) -> N | None:
        last: N | None = self._last
        return last

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._first is not None

    def __iter__(self) -> Iterator[N]:
        owner = self._owner
        node = self._first
        while node is not None:
            nxt = node._next
            yield node
            if nxt is not None and nxt.parent is not owner:
                # The next node left while ``node`` was visited: go on after ``node``.
                if node.parent is not owner:
                    raise IRError(_LOST % "next")
                nxt = node._next
            node = nxt

    def __reversed__(self) -> Iterator[N]:
        owner = self._owner
        node = self._last
        while node is not None:
            prev = node._prev
            yield node
            if prev is not None and prev.parent is not owner:
                if node.parent is not owner:
                    raise IRError(_LOST % "previous")
                prev = node._prev
            node = prev

    @overload
    def __getitem__(self, index: int) -> N: ...

    @overload
    def __getitem__(self, index: slice) -> list[N]: ...

    def __getitem__(self, index: int | slice) -> N | list[N]:
        if isinstance(index, slice):
            return list(self)[index]
        size = self._size
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("list index out of range")
        node: Any
        if index <= size // 2:
            node = self._first
            for _ in range(index):
                node = node._next
        else:
            node = self._last
            for _ in range(size - 1 - index):
                node = node._prev
        result: N = node
        return result

    def __repr__(self) -> str:
        shown: list[str] = []
        node = self._first
        while node is not None and len(shown) < 3:
            shown.append(repr(node))
            node = node._next
        more = ", ..." if self._size > 3 else ""
        return "<IList of %d: [%s%s]>" % (self._size, ", ".join(shown), more)

    def index(self, target: N) -> int:
        for i, node in enumerate(self):
            if node is target:
                return i
        raise ValueError("node not in list")

    # --- edits --------------------------------------------------------------------
    def append(self, node: N) -> None:
        n: Any = node
        last = self._last
        n._prev = last
        n._next = None
        if last is None:
            self._first = n
        else:
            last._next = n
        self._last = n
        self._size += 1
        self._owner._node_added(n)

    def prepend(self, node: N) -> None:
        self.insert_before(node, self._first)

    def insert_before(self, node: N, before: N | None) -> None:
        """Insert ``node`` before ``before`` (at the end when ``before`` is None)."""
        if before is None:
            self.append(node)
            return
        n: Any = node
        b: Any = before
        prev = b._prev
        n._prev = prev
        n._next = b
        b._prev = n
        if prev is None:
            self._first = n
        else:
            prev._next = n
        self._size += 1
        self._owner._node_added(n)

    def insert_after(self, node: N, after: N) -> None:
        a: Any = after
        self.insert_before(node, a._next)

    def remove(self, node: N) -> None:
        """Unlink ``node``; the caller has checked it belongs to this list."""
        n: Any = node
        prev = n._prev
        nxt = n._next
        if prev is None:
            self._first = nxt
        else:
            prev._next = nxt
        if nxt is None:
            self._last = prev
        else:
            nxt._prev = prev
        n._prev = n._next = None
        self._size -= 1
        self._owner._node_removed(n)
