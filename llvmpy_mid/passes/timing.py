"""``-time-passes``: time every pass and analysis and print LLVM's timing report.

What: :class:`TimePasses` registers ``PassInstrumentation`` callbacks that
accumulate, per pass class and per analysis class (LLVM's names, as in the
``-debug-pass-manager`` log), user, system and wall time.  :func:`format_timer_group`
lays out one group exactly as LLVM's ``TimerGroup`` report does::

    ===-------------------------------------------------------------------------===
                              Pass execution timing report
    ===-------------------------------------------------------------------------===
      Total Execution Time: 0.0012 seconds (0.0013 wall clock)

       ---User Time---   --System Time--   --User+System--   ---Wall Time---  --- Name ---
       0.0008 ( 66.7%)   0.0000 (  0.0%)   0.0008 ( 61.5%)   0.0009 ( 69.2%)  VerifierPass
       ...
       0.0012 (100.0%)   0.0000 (100.0%)   0.0012 (100.0%)   0.0013 (100.0%)  Total

A column whose total is zero is left out, rows are sorted by wall time,
largest first.  :meth:`TimePasses.report` gives the "Pass execution timing
report" and "Analysis execution timing report" groups.

How: timers nest as in LLVM: when a pass asks for an analysis, the pass's
timer pauses while the analysis runs, so each time is exclusive.  Pass managers
and adaptors are not timed.  CPU times come from ``getrusage`` (``os.times``
where that is missing), wall time from ``time.perf_counter``.

What it does not do: no ``-time-passes-per-run`` (one row per pass instance),
no memory column, no JSON output.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable

import attrs

from llvmpy_mid.passes.instrumentation import PassInstrumentation

if TYPE_CHECKING:
    from llvmpy_mid.passes.analysis import Analysis
    from llvmpy_mid.passes.pass_manager import Pass
    from llvmpy_mid.passes.preserved import PreservedAnalyses

try:
    import resource

    def _cpu_times() -> tuple[float, float]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return (usage.ru_utime, usage.ru_stime)

except ImportError:  # pragma: no cover - not on Linux

    def _cpu_times() -> tuple[float, float]:
        t = os.times()
        return (t.user, t.system)


@attrs.frozen
class TimeRecord:
    """User, system and wall seconds."""

    user: float = 0.0
    system: float = 0.0
    wall: float = 0.0

    @property
    def process(self) -> float:
        return self.user + self.system

    def __add__(self, other: TimeRecord) -> TimeRecord:
        return TimeRecord(self.user + other.user, self.system + other.system, self.wall + other.wall)

    def __sub__(self, other: TimeRecord) -> TimeRecord:
        return TimeRecord(self.user - other.user, self.system - other.system, self.wall - other.wall)


def now() -> TimeRecord:
    """The process's CPU times and the wall clock, as one record."""
    user, system = _cpu_times()
    return TimeRecord(user, system, time.perf_counter())


_RULE = "===" + "-" * 73 + "==="


def _value(val: float, total: float) -> str:
    if total < 1e-7:
        return "        -----     "
    return "  %7.4f (%5.1f%%)" % (val, val * 100 / total)


def _columns(total: TimeRecord) -> list[Callable[[TimeRecord], float]]:
    cols: list[Callable[[TimeRecord], float]] = []
    if total.user:
        cols.append(lambda r: r.user)
    if total.system:
        cols.append(lambda r: r.system)
    if total.process:
        cols.append(lambda r: r.process)
    cols.append(lambda r: r.wall)
    return cols


def format_timer_group(description: str, rows: Iterable[tuple[str, TimeRecord]]) -> str:
    """One timer group in LLVM's layout (header, totals, rows by wall time, ``Total``)."""
    ordered = sorted(rows, key=lambda row: row[1].wall, reverse=True)
    total = TimeRecord()
    for _, rec in ordered:
        total = total + rec
    padding = max(0, (80 - len(description)) // 2)
    lines = [_RULE, " " * padding + description, _RULE]
    lines.append("  Total Execution Time: %5.4f seconds (%5.4f wall clock)" % (total.process, total.wall))
    lines.append("")
    head = ""
    if total.user:
        head += "   ---User Time---"
    if total.system:
        head += "   --System Time--"
    if total.process:
        head += "   --User+System--"
    head += "   ---Wall Time---  --- Name ---"
    lines.append(head)
    cols = _columns(total)
    for name, rec in ordered + [("Total", total)]:
        lines.append("".join(_value(col(rec), col(total)) for col in cols) + "  " + name)
    return "\n".join(lines) + "\n\n"


class TimePasses:
    """Accumulates pass and analysis times; :meth:`report` formats them."""

    __slots__ = ("pass_times", "analysis_times", "_stack")

    def __init__(self, instrumentation: PassInstrumentation) -> None:
        self.pass_times: dict[str, TimeRecord] = {}
        self.analysis_times: dict[str, TimeRecord] = {}
        # Running timers: (table, name, time accumulated so far, start of the current slice).
        self._stack: list[tuple[dict[str, TimeRecord], str, TimeRecord, TimeRecord]] = []
        instrumentation.before_pass.append(self._before_pass)
        instrumentation.after_pass.append(self._after_pass)
        instrumentation.after_pass_invalidated.append(self._after_pass_invalidated)
        instrumentation.before_analysis.append(self._before_analysis)
        instrumentation.after_analysis.append(self._after_analysis)

    def start(self, table: dict[str, TimeRecord], name: str) -> None:
        """Start timing ``name`` in ``table``, pausing the timer running now."""
        t = now()
        if self._stack:
            tab, nm, acc, since = self._stack[-1]
            self._stack[-1] = (tab, nm, acc + (t - since), t)
        self._stack.append((table, name, TimeRecord(), t))

    def stop(self) -> None:
        """Stop the innermost timer, add its time to its table, resume the outer one."""
        if not self._stack:
            return
        t = now()
        table, name, acc, since = self._stack.pop()
        table[name] = table.get(name, TimeRecord()) + acc + (t - since)
        if self._stack:
            tab, nm, acc2, _ = self._stack[-1]
            self._stack[-1] = (tab, nm, acc2, t)

    def _before_pass(self, pass_: Pass[Any], unit: object) -> None:
        if not pass_.is_special:
            self.start(self.pass_times, pass_.log_name)

    def _after_pass(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        if not pass_.is_special:
            self.stop()

    def _after_pass_invalidated(self, pass_: Pass[Any], pa: PreservedAnalyses) -> None:
        if not pass_.is_special:
            self.stop()

    def _before_analysis(self, analysis: Analysis[Any, Any], unit: object) -> None:
        self.start(self.analysis_times, analysis.log_name)

    def _after_analysis(self, analysis: Analysis[Any, Any], unit: object) -> None:
        self.stop()

    def report(self) -> str:
        """The pass group, then the analysis group (only groups that timed something)."""
        out = ""
        if self.pass_times:
            out += format_timer_group("Pass execution timing report", self.pass_times.items())
        if self.analysis_times:
            out += format_timer_group("Analysis execution timing report", self.analysis_times.items())
        return out


__all__ = ["TimePasses", "TimeRecord", "format_timer_group", "now"]
