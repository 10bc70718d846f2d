"""The pass layer: LLVM's new pass manager in Python (pass and analysis managers,
preserved analyses, the module-to-function adaptor, instrumentation).

``pipeline_text`` reads and prints ``opt -passes=`` text (nesting, parameters, LLVM's implicit
adaptors); ``registry`` holds pass and analysis names (``register_pass``); ``builder`` turns
text into pass managers and ``run`` runs text on a module (``run_passes``). The command line is
still to come.
"""

from llvmpy_mid.passes.analysis import (
    Analysis,
    AnalysisManager,
    FunctionAnalysis,
    InvalidatableResult,
    Invalidator,
    ModuleAnalysis,
)
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.instrumentation import DebugPassManagerLog, PassInstrumentation, unit_description, unit_name
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
    AllAnalysesOnFunction,
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

__all__ = [
    "PipelineElement",
    "PipelineSyntaxError",
    "nest",
    "parse_pass_params",
    "parse_pipeline",
    "print_pipeline",
    "AllAnalysesOnFunction",
    "AllAnalysesOnModule",
    "Analysis",
    "AnalysisManager",
    "AnalysisSet",
    "CFGAnalyses",
    "DebugPassManagerLog",
    "DominatorTreeAnalysis",
    "FunctionAnalysis",
    "FunctionAnalysisManagerModuleProxy",
    "FunctionAnalysisManagerProxyResult",
    "FunctionPassManager",
    "InvalidatableResult",
    "InvalidateAllAnalysesPass",
    "InvalidateAnalysisPass",
    "Invalidator",
    "ModuleAnalysis",
    "ModulePassManager",
    "ModuleToFunctionPassAdaptor",
    "Pass",
    "PassInstrumentation",
    "PassManager",
    "PostDominatorTreeAnalysis",
    "PreservedAnalyses",
    "PreservedAnalysisChecker",
    "RequireAnalysisPass",
    "make_analysis_managers",
    "unit_description",
    "unit_name",
]
