"""Which analyses a pass kept valid: ``PreservedAnalyses`` (LLVM's class of the
same name in the new pass manager) and the analysis-set markers.

How: a pass returns a ``PreservedAnalyses`` naming analysis classes and analysis
sets (marker classes deriving from ``AnalysisSet``, e.g. ``CFGAnalyses``) it
kept. ``abandon(X)`` is sticky: an abandoned analysis stays invalid even when a
set it belongs to, or everything, is later preserved, until ``preserve(X)``
names it again. ``intersect`` combines the results of passes run one after the
other. ``checker(X)`` (LLVM's ``getChecker``) answers per analysis.

What it does not do: it knows nothing of results or managers (see
``analysis.py``); analyses are identified by their class, never by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from llvmpy_mid.passes.analysis import Analysis


class AnalysisSet:
    """Base of the marker classes naming a set of analyses (never instantiated)."""


class CFGAnalyses(AnalysisSet):
    """Analyses that depend only on the CFG: blocks and their terminators' edges."""


class AllAnalysesOnModule(AnalysisSet):
    """Every analysis whose unit is a module (LLVM's ``AllAnalysesOn<Module>``)."""


class AllAnalysesOnFunction(AnalysisSet):
    """Every analysis whose unit is a function (LLVM's ``AllAnalysesOn<Function>``)."""


class AllAnalysesOnLoop(AnalysisSet):
    """Every analysis whose unit is a loop (LLVM's ``AllAnalysesOn<Loop>``)."""


class AllAnalysesOnCGSCC(AnalysisSet):
    """Every analysis whose unit is a call-graph SCC (LLVM's ``AllAnalysesOn<LazyCallGraph::SCC>``)."""


class _AllAnalyses(AnalysisSet):
    """The key that ``PreservedAnalyses.all()`` holds."""


#: What a preserved or abandoned entry is: an analysis class or a set marker class.
AnalysisKey = type


class PreservedAnalyses:
    """The set of analyses (and analysis sets) a pass preserved."""

    __slots__ = ("_preserved", "_abandoned")

    def __init__(self) -> None:
        self._preserved: set[AnalysisKey] = set()
        self._abandoned: set[AnalysisKey] = set()

    @classmethod
    def all(cls) -> PreservedAnalyses:
        """Everything preserved (a pass that changed nothing)."""
        pa = cls()
        pa._preserved.add(_AllAnalyses)
        return pa

    @classmethod
    def none(cls) -> PreservedAnalyses:
        """Nothing preserved."""
        return cls()

    def copy(self) -> PreservedAnalyses:
        pa = PreservedAnalyses()
        pa._preserved = set(self._preserved)
        pa._abandoned = set(self._abandoned)
        return pa

    # --- building --------------------------------------------------------------------
    def preserve(self, analysis: type[Analysis[Any, Any]] | AnalysisKey) -> PreservedAnalyses:
        """Mark one analysis preserved (also undoes an earlier ``abandon``)."""
        self._abandoned.discard(analysis)
        if _AllAnalyses not in self._preserved:
            self._preserved.add(analysis)
        return self

    def preserve_set(self, analysis_set: type[AnalysisSet]) -> PreservedAnalyses:
        """Mark every analysis of ``analysis_set`` preserved (abandoned ones stay abandoned)."""
        if _AllAnalyses not in self._preserved:
            self._preserved.add(analysis_set)
        return self

    def abandon(self, analysis: type[Analysis[Any, Any]] | AnalysisKey) -> PreservedAnalyses:
        """Mark one analysis invalid, whatever sets are preserved."""
        self._preserved.discard(analysis)
        self._abandoned.add(analysis)
        return self

    def intersect(self, other: PreservedAnalyses) -> PreservedAnalyses:
        """Keep only what both preserved; abandoned entries accumulate. Returns ``self``."""
        if other.are_all_preserved():
            return self
        if self.are_all_preserved():
            self._preserved = set(other._preserved)
            self._abandoned = set(other._abandoned)
            return self
        self._abandoned |= other._abandoned
        self._preserved &= other._preserved
        self._preserved -= other._abandoned
        return self

    # --- queries ---------------------------------------------------------------------
    def are_all_preserved(self) -> bool:
        """True when nothing was abandoned and everything is preserved."""
        return not self._abandoned and _AllAnalyses in self._preserved

    def all_analyses_in_set_preserved(self, analysis_set: type[AnalysisSet]) -> bool:
        """True when nothing was abandoned and the set (or everything) is preserved."""
        return not self._abandoned and (_AllAnalyses in self._preserved or analysis_set in self._preserved)

    def checker(self, analysis: type[Analysis[Any, Any]] | AnalysisKey) -> PreservedAnalysisChecker:
        """LLVM's ``getChecker<X>()``."""
        return PreservedAnalysisChecker(self, analysis)

    def preserved(self, analysis: type[Analysis[Any, Any]]) -> bool:
        """True if ``analysis``, one of its sets, the sets of its unit kind, or all are preserved
        (and it was not abandoned)."""
        return self.checker(analysis).preserved_with_sets(analysis.all_sets())

    def __repr__(self) -> str:
        kept = sorted(k.__name__ for k in self._preserved)
        gone = sorted(k.__name__ for k in self._abandoned)
        return "<PreservedAnalyses preserved=%s abandoned=%s>" % (kept, gone)


class PreservedAnalysisChecker:
    """The answers about one analysis (LLVM's ``PreservedAnalysisChecker``)."""

    __slots__ = ("_pa", "_key", "_abandoned")

    def __init__(self, pa: PreservedAnalyses, key: AnalysisKey) -> None:
        self._pa = pa
        self._key = key
        self._abandoned = key in pa._abandoned

    def preserved(self) -> bool:
        """The analysis itself (or everything) is preserved and it was not abandoned."""
        kept = self._pa._preserved
        return not self._abandoned and (_AllAnalyses in kept or self._key in kept)

    def preserved_set(self, analysis_set: type[AnalysisSet]) -> bool:
        """The set (or everything) is preserved and this analysis was not abandoned."""
        kept = self._pa._preserved
        return not self._abandoned and (_AllAnalyses in kept or analysis_set in kept)

    def preserved_when_stateless(self) -> bool:
        """Not abandoned: what a stateless analysis (AA, ORE) needs to stay valid."""
        return not self._abandoned

    def preserved_with_sets(self, sets: Iterable[type[AnalysisSet]]) -> bool:
        """``preserved()`` or ``preserved_set(s)`` for any ``s`` of ``sets``."""
        if self._abandoned:
            return False
        kept = self._pa._preserved
        if _AllAnalyses in kept or self._key in kept:
            return True
        return any(s in kept for s in sets)
