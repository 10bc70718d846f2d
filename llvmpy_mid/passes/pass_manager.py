"""Passes, pass managers and the module-to-function adaptor (LLVM's new pass
manager: ``PassManager<IRUnitT>``, ``ModuleToFunctionPassAdaptor``), plus the
``require<X>`` / ``invalidate<X>`` / ``invalidate<all>`` utility passes.

How: a pass is an object with ``run(unit, am) -> PreservedAnalyses``. A pass
manager runs its passes in order; after each it invalidates the unit's results
with what the pass returned and tells the instrumentation, then returns the
intersection of all, plus "every analysis on this unit" (what survived is
valid, as LLVM does). The adaptor runs a function pass on each defined function
of a module with the function manager found through the module-level proxy,
and reports to the module level that function analyses and the proxy are
preserved (it invalidated them itself).

A pass runs only when the instrumentation's ``run_before_pass`` allows it (``optnone``,
``-opt-bisect-limit``: ``passes/pass_gates.py``); a skipped pass is not run, its unit's
analyses are kept and no after-pass callback is called, as in LLVM.

The CGSCC and loop layers are in ``cgscc_pass_manager.py`` and ``loop_pass_manager.py``.

What it does not do: no pipeline text, no registry.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Iterable, NoReturn, TypeVar

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import Analysis, AnalysisManager
from llvmpy_mid.passes.preserved import (
    AllAnalysesOnCGSCC,
    AllAnalysesOnFunction,
    AllAnalysesOnLoop,
    AllAnalysesOnModule,
    AnalysisSet,
    PreservedAnalyses,
)
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.passes.required_passes import is_required_name

UnitT = TypeVar("UnitT")


class Pass(Generic[UnitT]):
    """Base of passes over ``UnitT``: set ``name`` (the pipeline name), implement ``run``."""

    name: ClassVar[str] = ""
    is_special: ClassVar[bool] = False
    """Pass managers and adaptors: not shown in the ``-debug-pass-manager`` log."""
    required: ClassVar[bool | None] = None
    """True: never skipped (LLVM's ``isRequired()``); None: as LLVM 19 says for the class
    named :attr:`log_name` (``passes/required_passes.py``)."""

    @property
    def is_required(self) -> bool:
        """Whether the pass runs even on ``optnone`` functions and past ``-opt-bisect-limit``."""
        if self.is_special:
            return True
        req = type(self).required
        return is_required_name(self.log_name) if req is None else req

    @property
    def log_name(self) -> str:
        """The name in ``-debug-pass-manager`` lines (LLVM's class name)."""
        return type(self).__name__

    def run(self, unit: UnitT, am: AnalysisManager[UnitT]) -> PreservedAnalyses:
        raise NotImplementedError


def no_result(pass_: object) -> NoReturn:
    """A pass's ``run`` returned None: raise a :class:`PipelineError` naming the pass."""
    name = getattr(pass_, "name", "") or ""
    raise PipelineError(
        "pass %s%s returned None from run(); run must return a PreservedAnalyses"
        " (PreservedAnalyses.all() when it changed nothing, PreservedAnalyses.none() when it may have)"
        % (type(pass_).__name__, " ('%s')" % name if name else "")
    )


class PassManager(Pass[UnitT]):
    """Runs passes in sequence on one unit."""

    is_special: ClassVar[bool] = True
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnFunction

    def __init__(self, passes: Iterable[Pass[UnitT]] = ()) -> None:
        self.passes: list[Pass[UnitT]] = list(passes)

    def add(self, pass_: Pass[UnitT]) -> None:
        self.passes.append(pass_)

    def __len__(self) -> int:
        return len(self.passes)

    def run(self, unit: UnitT, am: AnalysisManager[UnitT]) -> PreservedAnalyses:
        pi = am.instrumentation
        pa = PreservedAnalyses.all()
        for p in self.passes:
            if not pi.run_before_pass(p, unit):
                continue
            pass_pa = p.run(unit, am)
            if pass_pa is None:
                no_result(p)
            am.invalidate(unit, pass_pa)
            pi.run_after_pass(p, unit, pass_pa)
            pa.intersect(pass_pa)
        pa.preserve_set(self.unit_set)
        return pa


class ModulePassManager(PassManager[Module]):
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnModule


class FunctionPassManager(PassManager[Function]):
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnFunction


class ModuleToFunctionPassAdaptor(Pass[Module]):
    """Runs ``function_pass`` on every function with a body, in module order; with
    ``eagerly_invalidate`` (``function<eager-inv>``) each function's analyses are all
    dropped after the pass, whatever it preserved."""

    is_special: ClassVar[bool] = True

    def __init__(self, function_pass: Pass[Function], eagerly_invalidate: bool = False) -> None:
        self.function_pass = function_pass
        self.eagerly_invalidate = eagerly_invalidate

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        pi = fam.instrumentation
        pa = PreservedAnalyses.all()
        for fn in list(unit.functions):
            if fn.is_declaration or not pi.run_before_pass(self.function_pass, fn):
                continue
            pass_pa = self.function_pass.run(fn, fam)
            if pass_pa is None:
                no_result(self.function_pass)
            fam.invalidate(fn, PreservedAnalyses.none() if self.eagerly_invalidate else pass_pa)
            pi.run_after_pass(self.function_pass, fn, pass_pa)
            pa.intersect(pass_pa)
        pa.preserve_set(AllAnalysesOnFunction)
        pa.preserve(FunctionAnalysisManagerModuleProxy)
        return pa


#: The unit and manager template arguments LLVM prints in ``RequireAnalysisPass<...>``, by unit set.
_REQUIRE_ARGS: dict[type[AnalysisSet], str] = {
    AllAnalysesOnModule: "llvm::Module, llvm::AnalysisManager<Module>",
    AllAnalysesOnFunction: "llvm::Function, llvm::AnalysisManager<Function>",
    AllAnalysesOnLoop: "llvm::Loop, llvm::AnalysisManager<Loop, LoopStandardAnalysisResults &>, "
    "llvm::LoopStandardAnalysisResults &, llvm::LPMUpdater &",
    AllAnalysesOnCGSCC: "llvm::LazyCallGraph::SCC, llvm::AnalysisManager<LazyCallGraph::SCC, LazyCallGraph &>, "
    "llvm::LazyCallGraph &, llvm::CGSCCUpdateResult &",
}


class RequireAnalysisPass(Pass[Any]):
    """``require<X>``: computes ``X`` on the unit and preserves everything."""

    def __init__(self, analysis: type[Analysis[Any, Any]]) -> None:
        self.analysis = analysis

    @property
    def log_name(self) -> str:
        return "RequireAnalysisPass<llvm::%s, %s>" % (self.analysis.__name__, _REQUIRE_ARGS[self.analysis.unit_set])

    def run(self, unit: Any, am: AnalysisManager[Any]) -> PreservedAnalyses:
        am.get_result(self.analysis, unit)
        return PreservedAnalyses.all()


class InvalidateAnalysisPass(Pass[Any]):
    """``invalidate<X>``: abandons ``X`` only."""

    def __init__(self, analysis: type[Analysis[Any, Any]]) -> None:
        self.analysis = analysis

    @property
    def log_name(self) -> str:
        return "InvalidateAnalysisPass<llvm::%s>" % self.analysis.__name__

    def run(self, unit: Any, am: AnalysisManager[Any]) -> PreservedAnalyses:
        return PreservedAnalyses.all().abandon(self.analysis)


class InvalidateAllAnalysesPass(Pass[Any]):
    """``invalidate<all>``: preserves nothing."""

    def run(self, unit: Any, am: AnalysisManager[Any]) -> PreservedAnalyses:
        return PreservedAnalyses.none()
