"""Ordered containers with O(1) insertion and removal at a known position.

Blocks hold instructions and functions hold blocks in intrusive doubly
linked lists (each node carries ``_prev``/``_next``), like LLVM's ``ilist``.
Iteration fetches the next node before yielding the current one, so erasing
the current node while iterating is safe.
"""

from __future__ import annotations

from typing import Generic, Iterator, Protocol, TypeVar, overload


class ListNode(Protocol):
    _prev: ListNode | None
    _next: ListNode | None


N = TypeVar("N", bound=ListNode)


class ListOwner(Protocol[N]):  # pragma: no cover - typing only
    def _node_added(self, node: N) -> None: ...

    def _node_removed(self, node: N) -> None: ...


class IList(Generic[N]):
    """A linked list of nodes owned by a block or function.

    ``owner._node_added(node)`` and ``owner._node_removed(node)`` are called on
    every insertion and removal so the owner can keep parents, symbol tables
    and order numbers right.
    """

    __slots__ = ("_owner", "_first", "_last", "_size")

    def __init__(self, owner: ListOwner[N]) -> None:
        self._owner = owner
        self._first: N | None = None
        self._last: N | None = None
        self._size = 0

    # --- queries ----------------------------------------------------------------
    @property
    def first(self) -> N | None:
        return self._first

    @property
    def last(self) -> N | None:
        return self._last

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._first is not None

    def __iter__(self) -> Iterator[N]:
        node = self._first
        while node is not None:
            nxt = node._next
            yield node
            node = nxt  # type: ignore[assignment]

    def __reversed__(self) -> Iterator[N]:
        node = self._last
        while node is not None:
            prev = node._prev
            yield node
            node = prev  # type: ignore[assignment]

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
        if index <= size // 2:
            node = self._first
            for _ in range(index):
                node = node._next  # type: ignore[union-attr,assignment]
        else:
            node = self._last
            for _ in range(size - 1 - index):
                node = node._prev  # type: ignore[union-attr,assignment]
        assert node is not None
        return node

    def index(self, target: N) -> int:
        for i, node in enumerate(self):
            if node is target:
                return i
        raise ValueError("node not in list")

    # --- edits --------------------------------------------------------------------
    def append(self, node: N) -> None:
        last = self._last
        node._prev = last
        node._next = None
        if last is None:
            self._first = node
        else:
            last._next = node
        self._last = node
        self._size += 1
        self._owner._node_added(node)

    def prepend(self, node: N) -> None:
        first = self._first
        if first is None:
            self.append(node)
        else:
            self.insert_before(node, first)

    def insert_before(self, node: N, before: N | None) -> None:
        """Insert ``node`` before ``before`` (at the end when ``before`` is None)."""
        if before is None:
            self.append(node)
            return
        prev = before._prev
        node._prev = prev
        node._next = before
        before._prev = node
        if prev is None:
            self._first = node
        else:
            prev._next = node
        self._size += 1
        self._owner._node_added(node)

    def insert_after(self, node: N, after: N) -> None:
        self.insert_before(node, after._next)  # type: ignore[arg-type]

    def remove(self, node: N) -> None:
        """Unlink ``node``; the caller has checked it belongs to this list."""
        prev = node._prev
        nxt = node._next
        if prev is None:
            self._first = nxt  # type: ignore[assignment]
        else:
            prev._next = nxt
        if nxt is None:
            self._last = prev  # type: ignore[assignment]
        else:
            nxt._prev = prev
        node._prev = node._next = None
        self._size -= 1
        self._owner._node_removed(node)
