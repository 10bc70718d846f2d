"""ScopedNoAliasAA: !alias.scope/!noalias scopes (LLVM ``lib/Analysis/ScopedNoAliasAA.cpp``).

Skeleton: the analysis is in place; the rules are being ported (until then every query
gets the conservative answer).
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.alias.aa_results import AAResultBase
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.preserved import PreservedAnalyses


class ScopedNoAliasAAResult(AAResultBase):
    """Stateless: never invalidated (as LLVM's)."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return False


class ScopedNoAliasAA(FunctionAnalysis[ScopedNoAliasAAResult]):
    name: ClassVar[str] = "scoped-noalias-aa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> ScopedNoAliasAAResult:
        return ScopedNoAliasAAResult()
