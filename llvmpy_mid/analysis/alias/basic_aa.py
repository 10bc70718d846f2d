"""BasicAA: the stateless, on-demand local alias analysis (LLVM
``lib/Analysis/BasicAliasAnalysis.cpp``).

Skeleton: the analysis and its result's invalidation are in place; the alias rules are
being ported (until then every query gets the conservative answer).
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.alias.aa_results import AAResultBase
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import PreservedAnalyses


class BasicAAResult(AAResultBase):
    """BasicAA's answers for one function."""

    def __init__(
        self, dl: DataLayout, fn: Function, tli: TargetLibraryInfo, ac: AssumptionCache, dt: DominatorTree | None
    ) -> None:
        self.dl = dl
        self.function = fn
        self.tli = tli
        self.ac = ac
        self.dt = dt

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return inv.invalidate(AssumptionAnalysis) or (self.dt is not None and inv.invalidate(DominatorTreeAnalysis))


class BasicAA(FunctionAnalysis[BasicAAResult]):
    name: ClassVar[str] = "basic-aa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> BasicAAResult:
        tli = am.get_result(TargetLibraryAnalysis, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout.default()
        return BasicAAResult(dl, unit, tli, ac, dt)
