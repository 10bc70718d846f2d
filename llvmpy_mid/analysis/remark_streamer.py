"""Where optimisation remarks go: printed to stderr when a pass name matches ``-pass-remarks``,
``-pass-remarks-missed`` or ``-pass-remarks-analysis``, and serialized to the
``-pass-remarks-output`` file (YAML), as opt-19 does (LLVM ``LLVMContext::diagnose``, the
``DiagnosticHandler`` remark filters of ``lib/IR/DiagnosticHandler.cpp`` and
``lib/IR/LLVMRemarkStreamer.cpp``).

One :class:`RemarkStreamer` is active at a time, installed with :func:`streaming` for the
length of a pipeline run; with none active every remark is dropped and passes skip the work
of building them (LLVM's ``ORE.allowExtraAnalysis``/``emit(lambda)``). From Python,
:func:`collecting` keeps every remark in a list::

    with collecting() as remarks:
        llvmpy_mid.run_passes(module, "gvn")
    for r in remarks:
        print(r.kind, r.pass_name, r.name, r.message)

The pass-name filters are regular expressions searched anywhere in the name, as LLVM's
``llvm::Regex::match``.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Iterator, TextIO

from llvmpy_mid.analysis.remark import ANALYSIS, ANALYSIS_ALIASING, ANALYSIS_FP_COMMUTE, MISSED, PASSED, Remark
from llvmpy_mid.analysis.remark_yaml import remark_to_yaml
from llvmpy_mid.errors import PipelineError

__all__ = ["RemarkStreamer", "active_streamer", "collecting", "compile_remark_filter", "streaming"]

_ANALYSIS_KINDS = frozenset((ANALYSIS, ANALYSIS_FP_COMMUTE, ANALYSIS_ALIASING))


def compile_remark_filter(option: str, pattern: str | None) -> re.Pattern[str] | None:
    """A ``-pass-remarks*`` pattern compiled, with opt's words when it is not a valid one."""
    if pattern is None:
        return None
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise PipelineError("Invalid regular expression '%s' in -%s: %s" % (pattern, option, exc)) from None


class RemarkStreamer:
    """The remark destinations of one run: ``passed``/``missed``/``analysis`` filters for the
    printed diagnostics (written to ``diagnostics``), an optional YAML ``output`` with its own
    pass-name ``output_filter`` (``-pass-remarks-filter``), and an optional ``keep`` list that
    receives every remark."""

    __slots__ = ("passed", "missed", "analysis", "diagnostics", "output", "output_filter", "keep")

    def __init__(
        self,
        *,
        passed: re.Pattern[str] | None = None,
        missed: re.Pattern[str] | None = None,
        analysis: re.Pattern[str] | None = None,
        diagnostics: TextIO | None = None,
        output: TextIO | None = None,
        output_filter: re.Pattern[str] | None = None,
        keep: list[Remark] | None = None,
    ) -> None:
        self.passed = passed
        self.missed = missed
        self.analysis = analysis
        self.diagnostics = diagnostics
        self.output = output
        self.output_filter = output_filter
        self.keep = keep

    def _printed_filter(self, kind: str) -> re.Pattern[str] | None:
        if kind == PASSED:
            return self.passed
        if kind == MISSED:
            return self.missed
        if kind in _ANALYSIS_KINDS:
            return self.analysis
        return None

    def is_enabled(self, pass_name: str | None = None) -> bool:
        """Whether a remark of ``pass_name`` (of any pass when None) goes anywhere (LLVM
        ``ORE.allowExtraAnalysis``: a remark file or a matching ``-pass-remarks*`` filter)."""
        if self.output is not None or self.keep is not None:
            return True
        for pattern in (self.passed, self.missed, self.analysis):
            if pattern is not None and (pass_name is None or pattern.search(pass_name)):
                return True
        return False

    def emit(self, remark: Remark) -> None:
        """Serialize, keep and print ``remark`` where it belongs."""
        if self.output is not None and (self.output_filter is None or self.output_filter.search(remark.pass_name)):
            self.output.write(remark_to_yaml(remark, remark.hotness))
        if self.keep is not None:
            self.keep.append(remark)
        pattern = self._printed_filter(remark.kind)
        if remark.is_verbose and remark.hotness is None:
            return  # LLVM's isDiagnosticEnabled: a verbose remark needs a hotness to be printed
        if pattern is not None and self.diagnostics is not None and pattern.search(remark.pass_name):
            self.diagnostics.write("remark: %s\n" % remark)


_ACTIVE: list[RemarkStreamer] = []


def active_streamer() -> RemarkStreamer | None:
    """The innermost streamer installed by :func:`streaming`, if any."""
    return _ACTIVE[-1] if _ACTIVE else None


@contextmanager
def streaming(streamer: RemarkStreamer) -> Iterator[RemarkStreamer]:
    """Send the remarks of everything run inside the block to ``streamer``."""
    _ACTIVE.append(streamer)
    try:
        yield streamer
    finally:
        _ACTIVE.remove(streamer)


@contextmanager
def collecting() -> Iterator[list[Remark]]:
    """Keep every remark emitted inside the block in the yielded list."""
    kept: list[Remark] = []
    with streaming(RemarkStreamer(keep=kept)):
        yield kept
