"""The module-to-function analysis-manager proxy (LLVM's
``FunctionAnalysisManagerModuleProxy``), its outer counterpart
(``ModuleAnalysisManagerFunctionProxy``: cached module results seen from a function)
and ``make_analysis_managers``.

How: the proxy is a module analysis whose result holds the function analysis
manager. When a module-level ``PreservedAnalyses`` does not preserve the proxy,
every function result is dropped (silently, as LLVM's ``clear()``); otherwise,
unless all function analyses are preserved, each function's results are
invalidated with the same ``PreservedAnalyses``. ``make_analysis_managers``
builds a linked module/function manager pair sharing one instrumentation.

What it does not do: no CGSCC or loop proxies yet.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator, ModuleAnalysis
from llvmpy_mid.passes.instrumentation import PassInstrumentation
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, AllAnalysesOnModule, PreservedAnalyses

R = TypeVar("R")


class FunctionAnalysisManagerProxyResult:
    """The proxy's result: ``manager`` is the function analysis manager."""

    __slots__ = ("manager",)

    def __init__(self, manager: AnalysisManager[Function]) -> None:
        self.manager = manager

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        if pa.are_all_preserved():
            return False
        checker = pa.checker(FunctionAnalysisManagerModuleProxy)
        if not (checker.preserved() or checker.preserved_set(AllAnalysesOnModule)):
            self.manager.clear()
            return True
        functions_preserved = pa.all_analyses_in_set_preserved(AllAnalysesOnFunction)
        cached = set(self.manager.cached_units())
        for fn in unit.functions:  # module order, as LLVM
            if fn not in cached:
                continue
            # function analyses that registered a dependence on a module analysis (the AA
            # manager on GlobalsAA) go when that module analysis goes
            fn_pa: PreservedAnalyses | None = None
            outer = self.manager.get_cached_result(ModuleAnalysisManagerFunctionProxy, fn)
            if outer is not None:
                for outer_cls, inner in list(outer.outer_invalidations.items()):
                    if inv.invalidate(outer_cls):
                        if fn_pa is None:
                            fn_pa = pa.copy()
                        for inner_cls in inner:
                            fn_pa.abandon(inner_cls)
            if fn_pa is not None:
                self.manager.invalidate(fn, fn_pa)
            elif not functions_preserved:
                self.manager.invalidate(fn, pa)
        return False


class FunctionAnalysisManagerModuleProxy(ModuleAnalysis[FunctionAnalysisManagerProxyResult]):
    name: ClassVar[str] = ""

    def __init__(self, manager: AnalysisManager[Function]) -> None:
        self.manager = manager

    @property
    def log_name(self) -> str:
        return "InnerAnalysisManagerProxy<FunctionAnalysisManager, Module>"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> FunctionAnalysisManagerProxyResult:
        return FunctionAnalysisManagerProxyResult(self.manager)


class ModuleAnalysisManagerProxyResult:
    """The outer proxy's result: cached module results, never computed from a function;
    and the function analyses to drop when a module analysis they use is invalidated
    (LLVM ``registerOuterAnalysisInvalidation``)."""

    __slots__ = ("manager", "outer_invalidations")

    def __init__(self, manager: AnalysisManager[Module]) -> None:
        self.manager = manager
        self.outer_invalidations: dict[type, list[type]] = {}

    def get_cached_result(self, cls: type[ModuleAnalysis[R]], module: Module) -> R | None:
        return self.manager.get_cached_result(cls, module)

    def register_outer_analysis_invalidation(self, outer: type, inner: type) -> None:
        """Invalidate ``inner`` (a function analysis) when ``outer`` (a module analysis) is."""
        inners = self.outer_invalidations.setdefault(outer, [])
        if inner not in inners:
            inners.append(inner)

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        for outer, inners in list(self.outer_invalidations.items()):
            inners[:] = [cls for cls in inners if not inv.invalidate(cls)]
            if not inners:
                del self.outer_invalidations[outer]
        return False


class ModuleAnalysisManagerFunctionProxy(FunctionAnalysis[ModuleAnalysisManagerProxyResult]):
    """LLVM ``ModuleAnalysisManagerFunctionProxy``: function code asks it for cached
    module analyses (``GlobalsAA`` for the AA manager, the profile summary...)."""

    name: ClassVar[str] = ""

    @property
    def log_name(self) -> str:
        return "OuterAnalysisManagerProxy<ModuleAnalysisManager, Function>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> ModuleAnalysisManagerProxyResult:
        outer = am.outer_manager
        if outer is None:
            raise RuntimeError("the function analysis manager has no module manager")
        return ModuleAnalysisManagerProxyResult(outer)


def _parent_module(fn: Function) -> Module | None:
    return fn.parent


def make_analysis_managers(
    instrumentation: PassInstrumentation | None = None,
) -> tuple[AnalysisManager[Module], AnalysisManager[Function]]:
    """A module manager and a function manager, linked both ways, sharing ``instrumentation``."""
    pi = instrumentation if instrumentation is not None else PassInstrumentation()
    mam: AnalysisManager[Module] = AnalysisManager(AllAnalysesOnModule, pi)
    fam: AnalysisManager[Function] = AnalysisManager(AllAnalysesOnFunction, pi)
    mam.register(FunctionAnalysisManagerModuleProxy(fam))
    fam.set_outer(mam, _parent_module)
    return mam, fam
