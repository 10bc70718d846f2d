"""The passes LLVM 19 marks ``isRequired()``: they run even where optional passes are
skipped (``optnone`` functions, ``-opt-bisect-limit``).

What: :data:`LLVM_REQUIRED_PASS_CLASSES` holds the class names of every LLVM 19.1.7 pass whose
``static bool isRequired()`` returns true (read from ``llvm/include``: the pass managers and
adaptors, ``RequireAnalysisPass``, the verifiers, the IR printers, most analysis printers,
``always-inline``, the coroutine passes, the sanitizers...). :func:`is_required_name` answers
for a ``-debug-pass-manager`` name (``RequireAnalysisPass<...>`` counts by its template name).

A pass class says it for itself with ``required = True`` / ``False``
(:attr:`llvmpy_mid.passes.pass_manager.Pass.required`); when it says nothing, its LLVM class
name decides through this table, so passes named as LLVM names them behave as in opt-19.

What it does not do: no CodeGen or target passes (opt never runs them).
"""

from __future__ import annotations

__all__ = ["LLVM_REQUIRED_PASS_CLASSES", "LLVMPY_REQUIRED_PASS_CLASSES", "is_required_name"]

LLVM_REQUIRED_PASS_CLASSES: frozenset[str] = frozenset(
    """
    AddDiscriminatorsPass AddressSanitizerPass AliasSetsPrinterPass AlwaysInlinerPass
    AnnotationRemarksPass AssumptionPrinterPass BitcodeWriterPass BlockFrequencyPrinterPass
    BoundsCheckingPass BranchProbabilityPrinterPass CFGOnlyPrinterPass CFGOnlyViewerPass
    CFGPrinterPass CFGSCCPrinterPass CFGViewerPass CGSCCToFunctionPassAdaptor
    CallGraphDOTPrinterPass CallGraphPrinterPass CallGraphSCCsPrinterPass CallGraphViewerPass
    CoroCleanupPass CoroConditionalWrapper CoroEarlyPass CoroElidePass CoroSplitPass
    CostModelPrinterPass CycleInfoPrinterPass DDGAnalysisPrinterPass DDGDotPrinterPass
    DataFlowSanitizerPass DelinearizationPrinterPass DemandedBitsPrinterPass
    DependenceAnalysisPrinterPass DominanceFrontierPrinterPass DominatorTreePrinterPass
    DominatorTreeVerifierPass EmbedBitcodePass EntryExitInstrumenterPass
    ExtraSimpleLoopUnswitchPassManager FunctionPropertiesPrinterPass FunctionToLoopPassAdaptor
    HWAddressSanitizerPass HipStdParAcceleratorCodeSelectionPass
    HipStdParAllocationInterpositionPass IRSimilarityAnalysisPrinterPass IVUsersPrinterPass
    InlineAdvisorAnalysisPrinterPass InlineCostAnnotationPrinterPass
    InlineSizeEstimatorAnalysisPrinterPass KCFIPass LazyCallGraphDOTPrinterPass
    LazyCallGraphPrinterPass LazyValueInfoPrinterPass LoopAccessInfoPrinterPass
    LoopCachePrinterPass LoopNestPrinterPass LoopPrinterPass LoopVerifierPass LowerAtomicPass
    LowerMatrixIntrinsicsPass MemDerefPrinterPass MemProfilerPass MemorySSAPrinterPass
    MemorySSAVerifierPass MemorySSAWalkerPrinterPass MemorySanitizerPass
    ModuleDebugInfoPrinterPass ModuleMemProfilerPass ModuleThreadSanitizerPass
    ModuleToFunctionPassAdaptor ModuleToPostOrderCGSCCPassAdaptor
    MustBeExecutedContextPrinterPass MustExecutePrinterPass NameAnonGlobalPass
    NumericalStabilitySanitizerPass PassManager PhiValuesPrinterPass PostDominatorTreePrinterPass
    PredicateInfoPrinterPass PredicateInfoVerifierPass PrintFunctionPass PrintModulePass
    ProfileSummaryPrinterPass RegionInfoPrinterPass RegionInfoVerifierPass RequireAnalysisPass
    SafepointIRVerifierPass SanitizerBinaryMetadataPass SanitizerCoveragePass
    ScalarEvolutionPrinterPass ScalarEvolutionVerifierPass StackLifetimePrinterPass
    StackSafetyGlobalPrinterPass StackSafetyPrinterPass StructuralHashPrinterPass
    ThinLTOBitcodeWriterPass ThreadSanitizerPass UniformityInfoPrinterPass VerifierPass
    """.split()
)
"""LLVM 19.1.7's required pass classes (CodeGen and target passes left out)."""

LLVMPY_REQUIRED_PASS_CLASSES: frozenset[str] = frozenset(
    """
    LivenessPrinterPass ReachingDefinitionsPrinterPass AvailableExpressionsPrinterPass
    AnticipatedExpressionsPrinterPass LazyCodeMotionPrinterPass
    """.split()
)
"""llvmpy_mid's own printers (no LLVM counterpart): required like LLVM's analysis printers."""


def is_required_name(log_name: str) -> bool:
    """Whether the pass logged as ``log_name`` is required (its name before any ``<``)."""
    lt = log_name.find("<")
    base = log_name if lt < 0 else log_name[:lt]
    return base in LLVM_REQUIRED_PASS_CLASSES or base in LLVMPY_REQUIRED_PASS_CLASSES
