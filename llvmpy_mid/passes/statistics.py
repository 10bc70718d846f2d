"""Named pass statistics (LLVM's ``STATISTIC(Name, "description")`` counters and
the ``-stats`` report).

What: a pass declares its counters once, at module level, with LLVM's debug
type and names::

    NUM_MERGED = Statistic("mergefunc", "NumFunctionsMerged", "Number of functions merged")
    ...
    NUM_MERGED.add()          # inside run()

Increments go to the active :class:`StatisticsCollector`: ``run_passes`` and
``llvmpy-opt`` install a fresh one for each run (:func:`collecting`), so a
run's counts are its own; outside any run a process-wide default collector
counts (as LLVM's counters are process-wide). :func:`format_statistics`
renders counts exactly as LLVM's ``PrintStatistics`` lays them out (sorted by
debug type, then name, then description; values right-aligned; a counter
never incremented is absent; nothing at all gives an empty report).

What it does not do: ``-stats-json``; statistics of passes that do not declare
``Statistic`` objects. The installed opt-19 is a release build that prints no
statistics, so the layout follows LLVM's documented output format rather than
a live comparison.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator

__all__ = ["Statistic", "StatisticsCollector", "active_collector", "collecting", "format_statistics"]


class Statistic:
    """One named counter: ``debug_type`` (the pass's ``DEBUG_TYPE``), ``name``, ``description``."""

    __slots__ = ("debug_type", "name", "description")

    def __init__(self, debug_type: str, name: str, description: str) -> None:
        self.debug_type = debug_type
        self.name = name
        self.description = description

    @property
    def key(self) -> str:
        """``"debug-type.Name"``, the key in :attr:`RunResult.statistics`."""
        return "%s.%s" % (self.debug_type, self.name)

    def add(self, amount: int = 1) -> None:
        """Add ``amount`` in the active collector."""
        _ACTIVE[-1].add(self, amount)

    @property
    def value(self) -> int:
        """The count in the active collector."""
        return _ACTIVE[-1].value(self)

    def update_max(self, value: int) -> None:
        """Raise the count in the active collector to ``value`` if it is lower (LLVM
        ``TrackingStatistic::updateMax``)."""
        collector = _ACTIVE[-1]
        current = collector.value(self)
        if value > current:
            collector.add(self, value - current)

    def __repr__(self) -> str:
        return "Statistic(%s)" % self.key


class StatisticsCollector:
    """The counts of one run, by statistic, in first-increment order."""

    __slots__ = ("_counts",)

    def __init__(self) -> None:
        self._counts: dict[Statistic, int] = {}

    def add(self, stat: Statistic, amount: int = 1) -> None:
        self._counts[stat] = self._counts.get(stat, 0) + amount

    def value(self, stat: Statistic) -> int:
        return self._counts.get(stat, 0)

    def items(self) -> list[tuple[Statistic, int]]:
        """Non-zero counts."""
        return [(s, v) for s, v in self._counts.items() if v]

    def as_dict(self) -> dict[str, int]:
        """``"debug-type.Name"`` -> count, non-zero counts only."""
        return {s.key: v for s, v in self.items()}

    def report(self) -> str:
        """The ``-stats`` report of these counts."""
        return format_statistics((s.debug_type, s.name, s.description, v) for s, v in self.items())

    def clear(self) -> None:
        self._counts.clear()


_ACTIVE: list[StatisticsCollector] = [StatisticsCollector()]


def active_collector() -> StatisticsCollector:
    """The collector that increments go to now."""
    return _ACTIVE[-1]


@contextmanager
def collecting(collector: StatisticsCollector | None = None) -> Iterator[StatisticsCollector]:
    """Make ``collector`` (a new one when None) the active collector for the ``with`` body."""
    c = collector if collector is not None else StatisticsCollector()
    _ACTIVE.append(c)
    try:
        yield c
    finally:
        _ACTIVE.pop()


_RULE = "===" + "-" * 73 + "===\n"


def format_statistics(entries: Iterable[tuple[str, str, str, int]]) -> str:
    """The ``-stats`` report for ``(debug_type, name, description, value)`` entries,
    laid out as LLVM's ``PrintStatistics``; ``""`` when there are none."""
    rows = sorted((e for e in entries if e[3]), key=lambda e: (e[0], e[1], e[2]))
    if not rows:
        return ""
    val_w = max(len(str(r[3])) for r in rows)
    type_w = max(len(r[0]) for r in rows)
    out = [_RULE, "                          ... Statistics Collected ...\n", _RULE, "\n"]
    for debug_type, _name, desc, value in rows:
        out.append("%*d %-*s - %s\n" % (val_w, value, type_w, debug_type, desc))
    out.append("\n")
    return "".join(out)
