"""The pass layer: LLVM's new pass manager in Python.

Pass and analysis managers for modules, call-graph SCCs, functions and loops, the adaptors between
them, preserved analyses and instrumentation (``pass_manager``, ``cgscc_pass_manager``,
``loop_pass_manager``, ``analysis``, ``proxies``, ``preserved``, ``instrumentation``);
``pipeline_text`` reads and prints ``opt -passes=`` text; ``registry`` holds pass and analysis names
(``register_pass``), ``options`` the passes' own options, ``statistics`` their counters;
``builder`` turns text into pass managers and ``run`` runs text on a module (``run_passes``).

The names below are re-exported lazily (PEP 562): importing one submodule does not import the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid._lazy import lazy_exports

if TYPE_CHECKING:
    from llvmpy_mid.passes.analysis import (
        Analysis,
        AnalysisManager,
        FunctionAnalysis,
        InvalidatableResult,
        Invalidator,
        ModuleAnalysis,
    )
    from llvmpy_mid.passes.dominator_analyses import (
        DominatorTreeAnalysis,
        PostDominatorTreeAnalysis,
    )
    from llvmpy_mid.passes.instrumentation import (
        DebugPassManagerLog,
        PassInstrumentation,
        unit_description,
        unit_name,
    )
    from llvmpy_mid.passes.pass_manager import (
        FunctionPassManager,
        InvalidateAllAnalysesPass,
        InvalidateAnalysisPass,
        ModulePassManager,
        ModuleToFunctionPassAdaptor,
        Pass,
        PassManager,
        RequireAnalysisPass,
    )
    from llvmpy_mid.passes.pipeline_text import (
        PipelineElement,
        PipelineSyntaxError,
        nest,
        parse_pass_params,
        parse_pipeline,
        print_pipeline,
    )
    from llvmpy_mid.passes.preserved import (
        AllAnalysesOnCGSCC,
        AllAnalysesOnFunction,
        AllAnalysesOnLoop,
        AllAnalysesOnModule,
        AnalysisSet,
        CFGAnalyses,
        PreservedAnalyses,
        PreservedAnalysisChecker,
    )
    from llvmpy_mid.passes.proxies import (
        FunctionAnalysisManagerModuleProxy,
        FunctionAnalysisManagerProxyResult,
        make_analysis_managers,
    )
    from llvmpy_mid.passes.registry import (
        register_analysis,
        register_pass,
    )
    from llvmpy_mid.passes.options import (
        PassOption,
        declare_option,
    )
    from llvmpy_mid.passes.statistics import (
        Statistic,
    )
    from llvmpy_mid.passes.builder import (
        build_pipeline,
    )
    from llvmpy_mid.passes.run import (
        RunResult,
        run_passes,
    )
    from llvmpy_mid.passes.loop_pass_manager import (
        FunctionToLoopPassAdaptor,
        LoopAnalysisManager,
        LoopPassManager,
        LPMUpdater,
        LoopStandardAnalysisResults,
    )
    from llvmpy_mid.passes.cgscc_pass_manager import (
        CGSCCPassManager,
        ModuleToPostOrderCGSCCPassAdaptor,
        CGSCCToFunctionPassAdaptor,
    )

_EXPORTS: dict[str, tuple[str, ...]] = {
    "llvmpy_mid.passes.analysis": ("Analysis", "AnalysisManager", "FunctionAnalysis", "InvalidatableResult", "Invalidator", "ModuleAnalysis"),
    "llvmpy_mid.passes.dominator_analyses": ("DominatorTreeAnalysis", "PostDominatorTreeAnalysis"),
    "llvmpy_mid.passes.instrumentation": ("DebugPassManagerLog", "PassInstrumentation", "unit_description", "unit_name"),
    "llvmpy_mid.passes.pass_manager": ("FunctionPassManager", "InvalidateAllAnalysesPass", "InvalidateAnalysisPass", "ModulePassManager", "ModuleToFunctionPassAdaptor", "Pass", "PassManager", "RequireAnalysisPass"),
    "llvmpy_mid.passes.pipeline_text": ("PipelineElement", "PipelineSyntaxError", "nest", "parse_pass_params", "parse_pipeline", "print_pipeline"),
    "llvmpy_mid.passes.preserved": ("AllAnalysesOnCGSCC", "AllAnalysesOnFunction", "AllAnalysesOnLoop", "AllAnalysesOnModule", "AnalysisSet", "CFGAnalyses", "PreservedAnalyses", "PreservedAnalysisChecker"),
    "llvmpy_mid.passes.proxies": ("FunctionAnalysisManagerModuleProxy", "FunctionAnalysisManagerProxyResult", "make_analysis_managers"),
    "llvmpy_mid.passes.registry": ("register_analysis", "register_pass"),
    "llvmpy_mid.passes.options": ("PassOption", "declare_option"),
    "llvmpy_mid.passes.statistics": ("Statistic",),
    "llvmpy_mid.passes.builder": ("build_pipeline",),
    "llvmpy_mid.passes.run": ("RunResult", "run_passes"),
    "llvmpy_mid.passes.loop_pass_manager": ("FunctionToLoopPassAdaptor", "LoopAnalysisManager", "LoopPassManager", "LPMUpdater", "LoopStandardAnalysisResults"),
    "llvmpy_mid.passes.cgscc_pass_manager": ("CGSCCPassManager", "ModuleToPostOrderCGSCCPassAdaptor", "CGSCCToFunctionPassAdaptor"),
}
_getattr, __dir__ = lazy_exports(globals(), _EXPORTS)
if not TYPE_CHECKING:
    __getattr__ = _getattr


__all__ = [
    "AllAnalysesOnCGSCC",
    "AllAnalysesOnFunction",
    "AllAnalysesOnLoop",
    "AllAnalysesOnModule",
    "Analysis",
    "AnalysisManager",
    "AnalysisSet",
    "CFGAnalyses",
    "CGSCCPassManager",
    "CGSCCToFunctionPassAdaptor",
    "DebugPassManagerLog",
    "DominatorTreeAnalysis",
    "FunctionAnalysis",
    "FunctionAnalysisManagerModuleProxy",
    "FunctionAnalysisManagerProxyResult",
    "FunctionPassManager",
    "FunctionToLoopPassAdaptor",
    "InvalidatableResult",
    "InvalidateAllAnalysesPass",
    "InvalidateAnalysisPass",
    "Invalidator",
    "LPMUpdater",
    "LoopAnalysisManager",
    "LoopPassManager",
    "LoopStandardAnalysisResults",
    "ModuleAnalysis",
    "ModulePassManager",
    "ModuleToFunctionPassAdaptor",
    "ModuleToPostOrderCGSCCPassAdaptor",
    "Pass",
    "PassInstrumentation",
    "PassManager",
    "PassOption",
    "PipelineElement",
    "PipelineSyntaxError",
    "PostDominatorTreeAnalysis",
    "PreservedAnalyses",
    "PreservedAnalysisChecker",
    "RequireAnalysisPass",
    "RunResult",
    "Statistic",
    "build_pipeline",
    "declare_option",
    "make_analysis_managers",
    "nest",
    "parse_pass_params",
    "parse_pipeline",
    "print_pipeline",
    "register_analysis",
    "register_pass",
    "run_passes",
    "unit_description",
    "unit_name",
]
