"""Pass instrumentation: callbacks around every pass and analysis run (LLVM's
``PassInstrumentationCallbacks``), and ``DebugPassManagerLog``, the
``-debug-pass-manager`` log.

How: pass managers, adaptors and analysis managers call ``PassInstrumentation``
before and after each pass, before and after each analysis computation, and
when a cached result is invalidated. Any number of callbacks may be registered
for each event. ``DebugPassManagerLog`` registers callbacks writing exactly the
lines ``opt-19 -debug-pass-manager`` writes::

    Running pass: <PassClassName> on f (3 instructions)
    Running pass: <PassClassName> on [module]
    Running analysis: <AnalysisClassName> on f
    Invalidating analysis: <AnalysisClassName> on f

Pass managers and adaptors are not logged (LLVM skips them too).

Optional passes can be skipped (LLVM's ``ShouldRunOptionalPassCallbacks``): a pass manager
asks :meth:`PassInstrumentation.run_before_pass`, which asks every ``should_run_optional``
callback (all of them, as LLVM does) unless the pass is required; a skipped pass gets the
``before_skipped_pass`` callbacks ("Skipping pass: X on f" in the log) instead of
``before_pass``, and no after-pass callback. ``passes/pass_gates.py`` holds the two gates opt
registers (``optnone`` and ``-opt-bisect-limit``).

What it does not do: no timing (``-time-passes``), statistics, IR printing or
verification between passes; those are further instrumentations to add.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TextIO

from llvmpy_mid.ir.function import Function

if TYPE_CHECKING:
    from llvmpy_mid.passes.analysis import Analysis
    from llvmpy_mid.passes.pass_manager import Pass
    from llvmpy_mid.passes.preserved import PreservedAnalyses

PassCallback = Callable[["Pass[Any]", object], None]
ShouldRunCallback = Callable[["Pass[Any]", object], bool]
AfterPassCallback = Callable[["Pass[Any]", object, "PreservedAnalyses"], None]
InvalidatedPassCallback = Callable[["Pass[Any]", "PreservedAnalyses"], None]
AnalysisCallback = Callable[["Analysis[Any, Any]", object], None]


class UnitKind:
    """How the logs name units of a kind other than function and module (loops, SCCs):
    ``name(unit)`` as in "Running analysis:" lines, ``description(unit)`` as in
    "Running pass:" lines, ``text(unit)`` as IR dumps print the unit; ``function(unit)`` the
    function a unit lies in (a loop's), for the ``optnone`` gate (None: not in one function)."""

    __slots__ = ("name", "description", "text", "function")

    def __init__(
        self,
        name: Callable[[Any], str],
        description: Callable[[Any], str],
        text: Callable[[Any], str],
        function: Callable[[Any], Function | None] | None = None,
    ) -> None:
        self.name = name
        self.description = description
        self.text = text
        self.function = function


_UNIT_KINDS: dict[type, UnitKind] = {}


def register_unit_kind(cls: type, kind: UnitKind) -> None:
    """Tell the instrumentation how to name units of class ``cls`` (the loop and CGSCC
    layers register ``Loop`` and ``SCC``)."""
    _UNIT_KINDS[cls] = kind


def unit_kind(unit: object) -> UnitKind | None:
    return _UNIT_KINDS.get(type(unit))


def unit_function(unit: object) -> Function | None:
    """The function ``unit`` is or lies in (a loop's function); None for modules and SCCs."""
    if isinstance(unit, Function):
        return unit
    kind = _UNIT_KINDS.get(type(unit))
    if kind is not None and kind.function is not None:
        return kind.function(unit)
    return None


def unit_name(unit: object) -> str:
    """How LLVM names an IR unit in its logs: the function's name, ``[module]`` for a module,
    ``(f, g)`` for an SCC, ``loop %header in function f`` for a loop."""
    if isinstance(unit, Function):
        return unit.name
    kind = _UNIT_KINDS.get(type(unit))
    if kind is not None:
        return kind.name(unit)
    return "[module]"


def unit_description(unit: object) -> str:
    """``unit_name`` plus, for a function, its instruction count (as in "Running pass:" lines),
    for an SCC its node count."""
    if isinstance(unit, Function):
        n = unit.instruction_count
        return "%s (%d instruction%s)" % (unit.name, n, "" if n == 1 else "s")
    kind = _UNIT_KINDS.get(type(unit))
    if kind is not None:
        return kind.description(unit)
    return "[module]"


class PassInstrumentation:
    """The registered callbacks; managers call the ``run_*`` methods."""

    __slots__ = (
        "should_run_optional",
        "before_skipped_pass",
        "before_pass",
        "after_pass",
        "after_pass_invalidated",
        "before_analysis",
        "after_analysis",
        "analysis_invalidated",
        "analyses_cleared",
    )

    def __init__(self) -> None:
        self.should_run_optional: list[ShouldRunCallback] = []
        """Asked before an optional (not required) pass; any False skips it."""
        self.before_skipped_pass: list[PassCallback] = []
        self.before_pass: list[PassCallback] = []
        """Before a pass that runs (LLVM's ``BeforeNonSkippedPass`` callbacks)."""
        self.after_pass: list[AfterPassCallback] = []
        self.after_pass_invalidated: list[InvalidatedPassCallback] = []
        """After a pass that deleted its unit (a loop pass removing its loop)."""
        self.before_analysis: list[AnalysisCallback] = []
        self.after_analysis: list[AnalysisCallback] = []
        self.analysis_invalidated: list[AnalysisCallback] = []
        self.analyses_cleared: list[Callable[[str], None]] = []
        """When every result of a unit is dropped at once (LLVM ``AnalysesClearedCallbacks``),
        with the unit's name as the clearing code gives it."""

    def run_before_pass(self, pass_: Pass[Any], unit: object) -> bool:
        """Whether ``pass_`` may run on ``unit``; calls the before(-skipped) callbacks."""
        gates = self.should_run_optional
        if gates and not pass_.is_required:
            run = True
            for gate in gates:  # every gate is asked, as LLVM asks them all
                if not gate(pass_, unit):
                    run = False
            if not run:
                for cb in self.before_skipped_pass:
                    cb(pass_, unit)
                return False
        for cb in self.before_pass:
            cb(pass_, unit)
        return True

    def run_after_pass(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        for cb in self.after_pass:
            cb(pass_, unit, pa)

    def run_after_pass_invalidated(self, pass_: Pass[Any], pa: PreservedAnalyses) -> None:
        for cb in self.after_pass_invalidated:
            cb(pass_, pa)

    def run_before_analysis(self, analysis: Analysis[Any, Any], unit: object) -> None:
        for cb in self.before_analysis:
            cb(analysis, unit)

    def run_after_analysis(self, analysis: Analysis[Any, Any], unit: object) -> None:
        for cb in self.after_analysis:
            cb(analysis, unit)

    def run_analysis_invalidated(self, analysis: Analysis[Any, Any], unit: object) -> None:
        for cb in self.analysis_invalidated:
            cb(analysis, unit)

    def run_analyses_cleared(self, name: str) -> None:
        for cb in self.analyses_cleared:
            cb(name)


class DebugPassManagerLog:
    """Collects the ``-debug-pass-manager`` lines in ``lines`` (and writes them to
    ``stream`` when one is given)."""

    __slots__ = ("lines", "stream")

    def __init__(self, instrumentation: PassInstrumentation, stream: TextIO | None = None) -> None:
        self.lines: list[str] = []
        self.stream = stream
        instrumentation.before_pass.append(self._on_pass)
        instrumentation.before_skipped_pass.append(self._on_skipped)
        instrumentation.before_analysis.append(self._on_analysis)
        instrumentation.analysis_invalidated.append(self._on_invalidated)
        instrumentation.analyses_cleared.append(self._on_cleared)

    def emit(self, line: str) -> None:
        """Add one line to the log (other instrumentations' debug lines go here too)."""
        self._emit(line)

    def _emit(self, line: str) -> None:
        self.lines.append(line)
        if self.stream is not None:
            self.stream.write(line + "\n")

    def _on_pass(self, pass_: Pass[Any], unit: object) -> None:
        if not pass_.is_special:
            self._emit("Running pass: %s on %s" % (pass_.log_name, unit_description(unit)))

    def _on_skipped(self, pass_: Pass[Any], unit: object) -> None:
        self._emit("Skipping pass: %s on %s" % (pass_.log_name, unit_name(unit)))

    def _on_analysis(self, analysis: Analysis[Any, Any], unit: object) -> None:
        self._emit("Running analysis: %s on %s" % (analysis.log_name, unit_name(unit)))

    def _on_invalidated(self, analysis: Analysis[Any, Any], unit: object) -> None:
        self._emit("Invalidating analysis: %s on %s" % (analysis.log_name, unit_name(unit)))

    def _on_cleared(self, name: str) -> None:
        self._emit("Clearing all analysis results for: %s" % name)
