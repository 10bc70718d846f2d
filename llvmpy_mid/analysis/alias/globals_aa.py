"""GlobalsAA: mod/ref of non-address-taken globals over the call graph (LLVM
``lib/Analysis/GlobalsModRef.cpp``).

Skeleton: the module analysis is in place; the rules are being ported (until then every
query gets the conservative answer).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_results import AAResultBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, ModuleAnalysis


class GlobalsAAResult(AAResultBase):
    def __init__(self, module: Module) -> None:
        self.module = module


class GlobalsAA(ModuleAnalysis[GlobalsAAResult]):
    name: ClassVar[str] = "globals-aa"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> GlobalsAAResult:
        return GlobalsAAResult(unit)
