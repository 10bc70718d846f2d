"""Analyses and the per-unit analysis manager (LLVM's ``AnalysisInfoMixin`` and
``AnalysisManager<IRUnitT>`` of the new pass manager).

How: an analysis is a class with a ``name`` (its pipeline name, e.g.
``"domtree"``), the sets it belongs to, and ``run(unit, am) -> result``. An
``AnalysisManager`` serves one kind of IR unit (module or function): it computes
a result on first request and caches it per unit, in computation order.
``invalidate(unit, pa)`` asks every cached result whether it survives ``pa``: a
result with an ``invalidate(unit, pa, inv) -> bool`` method decides itself (and
may ask ``inv`` about the analyses it depends on); any other result survives when
its analysis, one of its sets, all analyses on its unit kind, or everything is
preserved. A manager may have an outer manager (the module manager of a function
manager): ``am.outer(X, unit)`` returns the outer unit's cached ``X`` result,
never computing it, as LLVM's outer proxy does.

What it does not do: it does not track that a function result used a module
result (LLVM's ``registerOuterAnalysisInvalidation``); the module-to-function
proxy is in ``proxies.py``.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.instrumentation import PassInstrumentation
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, AllAnalysesOnModule, AnalysisSet, PreservedAnalyses

UnitT = TypeVar("UnitT")
ResultT = TypeVar("ResultT")
R = TypeVar("R")


@runtime_checkable
class InvalidatableResult(Protocol):
    """A result that decides its own invalidation (LLVM's ``Result::invalidate``)."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool: ...


class Analysis(Generic[UnitT, ResultT]):
    """Base of analyses over ``UnitT`` producing ``ResultT``. Subclass ``FunctionAnalysis``
    or ``ModuleAnalysis``; set ``name`` and ``sets``; implement ``run``."""

    name: ClassVar[str] = ""
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnFunction
    """The ``AllAnalysesOn...`` set of this analysis's unit kind."""
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = ()
    """Further sets this analysis belongs to (e.g. ``CFGAnalyses``)."""

    @classmethod
    def all_sets(cls) -> tuple[type[AnalysisSet], ...]:
        return (cls.unit_set,) + cls.sets

    @property
    def log_name(self) -> str:
        """The name in ``-debug-pass-manager`` lines (LLVM's class name)."""
        return type(self).__name__

    def run(self, unit: UnitT, am: AnalysisManager[UnitT]) -> ResultT:
        raise NotImplementedError

    def invalidate_result(self, result: ResultT, unit: UnitT, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        """Whether ``result`` is invalid after ``pa`` (True drops it)."""
        if isinstance(result, InvalidatableResult):
            return result.invalidate(unit, pa, inv)
        return not pa.checker(type(self)).preserved_with_sets(self.all_sets())


class FunctionAnalysis(Analysis[Function, ResultT]):
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnFunction


class ModuleAnalysis(Analysis[Module, ResultT]):
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnModule


class Invalidator:
    """Decides, once per analysis, whether a cached result of one unit is invalid."""

    __slots__ = ("_am", "_unit", "_pa", "_results", "_decided")

    def __init__(self, am: AnalysisManager[Any], unit: Any, pa: PreservedAnalyses, results: dict[type, Any]) -> None:
        self._am = am
        self._unit = unit
        self._pa = pa
        self._results = results
        self._decided: dict[type, bool] = {}

    def invalidate(self, analysis: type[Analysis[Any, Any]]) -> bool:
        """True if ``analysis``'s result on this unit is invalid (or not cached)."""
        decided = self._decided.get(analysis)
        if decided is not None:
            return decided
        if analysis not in self._results:
            return True
        instance = self._am.analysis(analysis)
        answer = instance.invalidate_result(self._results[analysis], self._unit, self._pa, self)
        self._decided[analysis] = answer
        return answer


class AnalysisManager(Generic[UnitT]):
    """Lazily computes and caches analysis results for units of one kind."""

    __slots__ = ("unit_set", "instrumentation", "outer_manager", "_outer_unit", "_analyses", "_results")

    def __init__(
        self,
        unit_set: type[AnalysisSet] = AllAnalysesOnFunction,
        instrumentation: PassInstrumentation | None = None,
    ) -> None:
        self.unit_set = unit_set
        self.instrumentation = instrumentation if instrumentation is not None else PassInstrumentation()
        self.outer_manager: AnalysisManager[Any] | None = None
        self._outer_unit: Callable[[UnitT], Any] | None = None
        self._analyses: dict[type, Analysis[UnitT, Any]] = {}
        self._results: dict[UnitT, dict[type, Any]] = {}

    # --- registration ----------------------------------------------------------------
    def register(self, analysis: Analysis[UnitT, Any]) -> None:
        """Use this instance for its class (for analyses with constructor parameters)."""
        self._analyses[type(analysis)] = analysis

    def is_registered(self, cls: type[Analysis[UnitT, Any]]) -> bool:
        """Whether an instance of ``cls`` is registered (or was made) here."""
        return cls in self._analyses

    def analysis(self, cls: type[Analysis[UnitT, R]]) -> Analysis[UnitT, R]:
        """The registered instance of ``cls``; one is made with no arguments if none is."""
        found = self._analyses.get(cls)
        if found is None:
            try:
                found = cls()
            except TypeError as exc:
                raise PipelineError("analysis %s needs registering with its parameters" % cls.__name__) from exc
            self._analyses[cls] = found
        return found

    def set_outer(self, outer: AnalysisManager[Any], outer_unit: Callable[[UnitT], Any]) -> None:
        """Link the manager of enclosing units; ``outer_unit(unit)`` gives a unit's enclosing unit."""
        self.outer_manager = outer
        self._outer_unit = outer_unit

    # --- results ---------------------------------------------------------------------
    def get_result(self, cls: type[Analysis[UnitT, R]], unit: UnitT) -> R:
        """The result of ``cls`` on ``unit``, computed now if not cached."""
        results = self._results.get(unit)
        if results is not None and cls in results:
            cached: R = results[cls]
            return cached
        analysis = self.analysis(cls)
        pi = self.instrumentation
        pi.run_before_analysis(analysis, unit)
        result = analysis.run(unit, self)
        pi.run_after_analysis(analysis, unit)
        self._results.setdefault(unit, {})[cls] = result
        return result

    def get_cached_result(self, cls: type[Analysis[UnitT, R]], unit: UnitT) -> R | None:
        """The cached result, or None; never computes."""
        results = self._results.get(unit)
        if results is None:
            return None
        found: R | None = results.get(cls)
        return found

    def outer(self, cls: type[Analysis[Any, R]], unit: UnitT) -> R | None:
        """The cached result of ``cls`` on ``unit``'s enclosing unit (never computed here)."""
        if self.outer_manager is None or self._outer_unit is None:
            raise PipelineError("analysis manager has no outer manager")
        outer_result: R | None = self.outer_manager.get_cached_result(cls, self._outer_unit(unit))
        return outer_result

    def invalidate(self, unit: UnitT, pa: PreservedAnalyses) -> None:
        """Drop the results on ``unit`` that ``pa`` does not keep, in computation order."""
        if pa.all_analyses_in_set_preserved(self.unit_set):
            return
        results = self._results.get(unit)
        if not results:
            return
        inv = Invalidator(self, unit, pa, results)
        doomed = [cls for cls in list(results) if inv.invalidate(cls)]
        pi = self.instrumentation
        for cls in doomed:
            del results[cls]
            pi.run_analysis_invalidated(self._analyses[cls], unit)
        if not results:
            del self._results[unit]

    def clear(self, unit: UnitT | None = None) -> None:
        """Forget every cached result (of ``unit`` only, when given), without logging."""
        if unit is None:
            self._results.clear()
        else:
            self._results.pop(unit, None)

    def cached_units(self) -> list[UnitT]:
        return list(self._results)
