"""What memory a function may touch: the value of the ``memory(...)`` attribute.

A :class:`MemoryEffects` gives, for each of LLVM 19's three memory locations
(``argmem``: memory reached through pointer arguments; ``inaccessiblemem``:
memory the module cannot name; ``other``: everything else), whether it may be
read, written, both or neither (a :class:`ModRefInfo`). It packs the three
answers into one small integer exactly as LLVM does (two bits per location,
location *i* at bits ``2i``/``2i+1``), so the integer is also the raw value of
the ``memory`` attribute and orders two such attributes as LLVM does.

:meth:`MemoryEffects.as_string` spells the value as ``opt-19 -S`` prints it
(``memory(none)``, ``memory(argmem: readwrite)``, ``memory(read, argmem: none)``);
the access of ``other`` is written first, without a location, and each location
that differs from it follows. This module does not parse that text (the
assembly parser does) nor infer effects from code (function-attrs does).
"""

from __future__ import annotations

from enum import IntEnum, IntFlag
from typing import ClassVar

import attrs


class ModRefInfo(IntFlag):
    """May an access read (``REF``), write (``MOD``), both, or neither."""

    NO_MOD_REF = 0
    REF = 1
    MOD = 2
    MOD_REF = 3


class IRMemLocation(IntEnum):
    """The memory locations a ``memory(...)`` attribute distinguishes, in LLVM's order."""

    ARG_MEM = 0
    INACCESSIBLE_MEM = 1
    OTHER = 2


MOD_REF_NAMES: tuple[str, str, str, str] = ("none", "read", "write", "readwrite")
"""The spelling of each :class:`ModRefInfo` value inside ``memory(...)``, indexed by value."""

LOCATION_NAMES: tuple[str, str, str] = ("argmem", "inaccessiblemem", "other")
"""The spelling of each :class:`IRMemLocation` inside ``memory(...)`` (``other`` is never printed)."""

MOD_REF_BY_NAME: dict[str, ModRefInfo] = {name: ModRefInfo(i) for i, name in enumerate(MOD_REF_NAMES)}
LOCATION_BY_NAME: dict[str, IRMemLocation] = {
    "argmem": IRMemLocation.ARG_MEM,
    "inaccessiblemem": IRMemLocation.INACCESSIBLE_MEM,
}
"""Locations a ``memory(...)`` text may name explicitly (``other`` is the default access)."""

_ALL_LOCATIONS = (IRMemLocation.ARG_MEM, IRMemLocation.INACCESSIBLE_MEM, IRMemLocation.OTHER)
_NUM_LOCATIONS = 3
_FULL = (1 << (2 * _NUM_LOCATIONS)) - 1


def _spread(mr: int) -> int:
    """``mr`` repeated in every location's two bits."""
    mr &= 3
    return mr | (mr << 2) | (mr << 4)


@attrs.frozen(order=False)
class MemoryEffects:
    """Per-location access kinds, packed two bits per location (LLVM ``MemoryEffects``).

    Build one with the class methods (:meth:`none`, :meth:`unknown`,
    :meth:`arg_mem_only`, ...), :meth:`from_locations` or :meth:`from_int`;
    combine with ``|`` (either may happen) and ``&`` (both must allow it).
    """

    data: int = attrs.field(default=_FULL)

    UNKNOWN: ClassVar[MemoryEffects]
    NONE: ClassVar[MemoryEffects]

    # --- construction ---------------------------------------------------------
    @classmethod
    def from_int(cls, value: int) -> MemoryEffects:
        """The effects whose packed form (the raw ``memory`` attribute value) is ``value``."""
        if not 0 <= value <= _FULL:
            raise ValueError("memory effects value %d out of range 0..%d" % (value, _FULL))
        return cls(value)

    @classmethod
    def from_locations(
        cls,
        argmem: ModRefInfo | int = ModRefInfo.NO_MOD_REF,
        inaccessiblemem: ModRefInfo | int = ModRefInfo.NO_MOD_REF,
        other: ModRefInfo | int = ModRefInfo.NO_MOD_REF,
    ) -> MemoryEffects:
        """The effects with the given access for each location."""
        return cls((int(argmem) & 3) | ((int(inaccessiblemem) & 3) << 2) | ((int(other) & 3) << 4))

    @classmethod
    def with_all(cls, mr: ModRefInfo | int) -> MemoryEffects:
        """The same access ``mr`` for every location."""
        return cls(_spread(int(mr)))

    @classmethod
    def unknown(cls) -> MemoryEffects:
        """May read and write any memory (a function without a ``memory`` attribute)."""
        return cls(_FULL)

    @classmethod
    def none(cls) -> MemoryEffects:
        """Touches no memory: ``memory(none)``."""
        return cls(0)

    @classmethod
    def read_only(cls) -> MemoryEffects:
        """May read any memory, writes none: ``memory(read)``."""
        return cls(_spread(ModRefInfo.REF))

    @classmethod
    def write_only(cls) -> MemoryEffects:
        """May write any memory, reads none: ``memory(write)``."""
        return cls(_spread(ModRefInfo.MOD))

    @classmethod
    def arg_mem_only(cls, mr: ModRefInfo | int = ModRefInfo.MOD_REF) -> MemoryEffects:
        """Accesses only memory its pointer arguments point to."""
        return cls.from_locations(argmem=mr)

    @classmethod
    def inaccessible_mem_only(cls, mr: ModRefInfo | int = ModRefInfo.MOD_REF) -> MemoryEffects:
        """Accesses only memory the module cannot reach."""
        return cls.from_locations(inaccessiblemem=mr)

    @classmethod
    def inaccessible_or_arg_mem_only(cls, mr: ModRefInfo | int = ModRefInfo.MOD_REF) -> MemoryEffects:
        """Accesses only argument pointees and inaccessible memory."""
        return cls.from_locations(argmem=mr, inaccessiblemem=mr)

    # --- queries --------------------------------------------------------------
    def get_mod_ref(self, location: IRMemLocation | None = None) -> ModRefInfo:
        """The access kind for ``location``, or the union over all locations when None."""
        if location is None:
            d = self.data
            return ModRefInfo((d | (d >> 2) | (d >> 4)) & 3)
        return ModRefInfo((self.data >> (2 * int(location))) & 3)

    def with_mod_ref(self, location: IRMemLocation, mr: ModRefInfo | int) -> MemoryEffects:
        """A copy with ``location``'s access replaced by ``mr``."""
        shift = 2 * int(location)
        return MemoryEffects((self.data & ~(3 << shift)) | ((int(mr) & 3) << shift))

    def without_location(self, location: IRMemLocation) -> MemoryEffects:
        """A copy in which ``location`` is not accessed."""
        return self.with_mod_ref(location, ModRefInfo.NO_MOD_REF)

    def to_int(self) -> int:
        """The packed form: the raw value of the ``memory`` attribute."""
        return self.data

    @property
    def does_not_access_memory(self) -> bool:
        return self.data == 0

    @property
    def only_reads_memory(self) -> bool:
        """No location may be written."""
        return not (self.get_mod_ref() & ModRefInfo.MOD)

    @property
    def only_writes_memory(self) -> bool:
        """No location may be read."""
        return not (self.get_mod_ref() & ModRefInfo.REF)

    @property
    def only_accesses_arg_pointees(self) -> bool:
        return self.without_location(IRMemLocation.ARG_MEM).data == 0

    @property
    def only_accesses_inaccessible_mem(self) -> bool:
        return self.without_location(IRMemLocation.INACCESSIBLE_MEM).data == 0

    @property
    def only_accesses_inaccessible_or_arg_mem(self) -> bool:
        return self.get_mod_ref(IRMemLocation.OTHER) == ModRefInfo.NO_MOD_REF

    @property
    def is_unknown(self) -> bool:
        return self.data == _FULL

    def __or__(self, other: MemoryEffects) -> MemoryEffects:
        """Effects allowing what either allows."""
        return MemoryEffects(self.data | other.data)

    def __and__(self, other: MemoryEffects) -> MemoryEffects:
        """Effects allowing only what both allow."""
        return MemoryEffects(self.data & other.data)

    def includes(self, other: MemoryEffects) -> bool:
        """Every access ``other`` allows, this allows too."""
        return (other.data & ~self.data) == 0

    # --- text -----------------------------------------------------------------
    def as_string(self) -> str:
        """The attribute as opt-19 prints it, e.g. ``memory(readwrite, argmem: none)``."""
        data = self.data
        other = (data >> 4) & 3
        parts: list[str] = []
        # The access of "other" is the default and comes first; it is left out
        # when it is "none" and some location does access memory.
        if other != 0 or data == 0:
            parts.append(MOD_REF_NAMES[other])
        for loc in (IRMemLocation.ARG_MEM, IRMemLocation.INACCESSIBLE_MEM):
            mr = (data >> (2 * int(loc))) & 3
            if mr != other:
                parts.append(LOCATION_NAMES[loc] + ": " + MOD_REF_NAMES[mr])
        return "memory(" + ", ".join(parts) + ")"

    def __str__(self) -> str:
        return self.as_string()

    def __repr__(self) -> str:
        return "MemoryEffects(%s)" % self.as_string()


MemoryEffects.UNKNOWN = MemoryEffects(_FULL)
MemoryEffects.NONE = MemoryEffects(0)

ALL_LOCATIONS: tuple[IRMemLocation, ...] = _ALL_LOCATIONS
"""Every memory location, in LLVM's order."""
