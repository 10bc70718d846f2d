"""Name tables: one per function (arguments, blocks, instructions) and one per
module (globals, functions, aliases, ifuncs), as LLVM's ``ValueSymbolTable``.

A name already taken gets a numeric suffix from a counter shared by the
whole table: ``x``, ``x1``, ``x2`` for local values and ``f.1``, ``f.2`` for
globals (the dot keeps demanglers treating the copy as a clone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from llvmpy_mid.ir.value import Value


class ValueSymbolTable:
    __slots__ = ("_map", "_last_unique", "_separator")

    def __init__(self, is_global: bool) -> None:
        self._map: dict[str, Value] = {}
        self._last_unique = 0
        self._separator = "." if is_global else ""

    def lookup(self, name: str) -> Value | None:
        return self._map.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._map

    def __len__(self) -> int:
        return len(self._map)

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def insert_unique(self, name: str, value: Value) -> str:
        """Register ``value`` under ``name`` or, if taken, under a fresh variant;
        return the name used."""
        table = self._map
        if name not in table:
            table[name] = value
            return name
        base = name + self._separator
        while True:
            self._last_unique += 1
            candidate = base + str(self._last_unique)
            if candidate not in table:
                table[candidate] = value
                return candidate

    def remove(self, value: Value) -> None:
        name = value._name
        if self._map.get(name) is value:
            del self._map[name]
