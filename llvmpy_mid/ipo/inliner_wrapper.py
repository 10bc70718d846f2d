"""``inliner-wrapper`` and ``inliner-wrapper-no-mandatory-first`` (LLVM 19.1.7
``ModuleInlinerWrapperPass`` in ``lib/Transforms/IPO/Inliner.cpp``).

What: sets up the module's inline advisor (``inline-advisor``) with the default
parameters for the session, then walks the call graph bottom-up running, on each SCC,
the mandatory inliner (``inline<only-mandatory>``, left out by the
``-no-mandatory-first`` variant) and then the cost-based ``inline``. The advisor is
abandoned at the end (unless ``-keep-inline-advisor-for-printing``).

What it does not do: the ``devirt<N>`` repetition and the ML advisor modes (``-cgscc-inline-replay`` is honoured).
"""

from __future__ import annotations

import sys

from llvmpy_mid.analysis.inline_advisor import InlineAdvisor, InlineAdvisorAnalysis
from llvmpy_mid.analysis.inline_cost import InlineParams, get_inline_params, option_bool
from llvmpy_mid.analysis.lazy_call_graph import SCC
from llvmpy_mid.ipo.inliner import InlinerPass
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cgscc_pass_manager import CGSCCPassManager, ModuleToPostOrderCGSCCPassAdaptor
from llvmpy_mid.passes.pass_manager import ModulePassManager, Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy


class ModuleInlinerWrapperPass(Pass[Module]):
    """LLVM ``ModuleInlinerWrapperPass``."""

    def __init__(self, params: InlineParams | None = None, mandatory_first: bool = True) -> None:
        self.params = params
        self.mandatory_first = mandatory_first

    @property
    def log_name(self) -> str:
        return "ModuleInlinerWrapperPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        if not am.is_registered(InlineAdvisorAnalysis):
            am.register(InlineAdvisorAnalysis())
        result = am.get_result(InlineAdvisorAnalysis, unit)
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        params = self.params if self.params is not None else get_inline_params()
        result.advisor = InlineAdvisor(unit, fam, params, "always-inline")  # LLVM's InlineContext{} default
        from llvmpy_mid.analysis.replay_inline_advisor import replay_advisor_from_options

        result.advisor = replay_advisor_from_options(unit, fam, result.advisor, "always-inline")
        pm = CGSCCPassManager()
        printing = option_bool("enable-scc-inline-advisor-printing")
        if self.mandatory_first:
            pm.add(InlinerPass(True))
            if printing:
                pm.add(InlineAdvisorSCCPrinterPass())
        pm.add(InlinerPass(False))
        if printing:
            pm.add(InlineAdvisorSCCPrinterPass())
        mpm = ModulePassManager([ModuleToPostOrderCGSCCPassAdaptor(pm)])
        mpm.run(unit, am)
        pa = PreservedAnalyses.all()
        if not option_bool("keep-inline-advisor-for-printing"):
            pa.abandon(InlineAdvisorAnalysis)
            result.advisor.finish()
        return pa


class InlineAdvisorSCCPrinterPass(Pass[SCC]):
    """LLVM's CGSCC ``InlineAdvisorAnalysisPrinterPass``: the module's cached advisor,
    printed after an inliner run on an SCC (``-enable-scc-inline-advisor-printing``)."""

    @property
    def log_name(self) -> str:
        return "InlineAdvisorAnalysisPrinterPass"

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        sys.stderr.write(_advisor_text(am.outer_manager, unit.functions[0].parent if unit.functions else None))
        return PreservedAnalyses.all()


class InlineAdvisorPrinterPass(Pass[Module]):
    """``print<inline-advisor>`` (LLVM ``InlineAdvisorAnalysisPrinterPass``)."""

    @property
    def log_name(self) -> str:
        return "InlineAdvisorAnalysisPrinterPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        sys.stderr.write(_advisor_text(am, unit))
        return PreservedAnalyses.all()


def _advisor_text(mam: AnalysisManager[Module] | None, module: Module | None) -> str:
    if mam is None or module is None:
        return "SCC is empty!\n" if module is None else "No Inline Advisor\n"
    if not mam.is_registered(InlineAdvisorAnalysis):
        return "No Inline Advisor\n"
    found = mam.get_cached_result(InlineAdvisorAnalysis, module)
    if found is None or found.advisor is None:
        return "No Inline Advisor\n"
    return found.advisor.print()


class ModuleInlinerWrapperNoMandatoryFirstPass(ModuleInlinerWrapperPass):
    """``inliner-wrapper-no-mandatory-first``."""

    def __init__(self) -> None:
        super().__init__(None, False)
