"""Registry rows of the interprocedural half of the middle end (issue 18): the inliner,
the attribute and argument passes, the whole-module global passes and extraction.

Same shape as ``registry_memory.py``: each section has passes ``(name, kind, spec)``,
analyses ``(name, kind, spec)``, options ``(name, kind, default, help, owner)`` and
parameterised passes ``(name, kind, spec, parser spec, params_help)``; ``registry.py``
adds them all. One section per pass family; a section only names its own modules.
"""

from __future__ import annotations

Row = tuple[str, str, str]
OptionRow = tuple[str, str, object, str, str]
ParamRow = tuple[str, str, str, str, str]

PASSES: list[Row] = []
ANALYSES: list[Row] = []
OPTIONS_ROWS: list[OptionRow] = []
PARAM_PASSES: list[ParamRow] = []

_IPO = "llvmpy_mid.ipo."

# --- the CGSCC layer (passes/cgscc_pass_manager.py): devirt<N>'s option
OPTIONS_ROWS += [("abort-on-max-devirt-iterations-reached", "bool", False,
                  "Abort when the max iterations for devirtualization CGSCC repeat pass is reached", "devirt")]

# --- small module passes: constmerge, elim-avail-extern, lower-global-dtors, rel-lookup-table-converter, internalize
PASSES += [
    ("constmerge", "module", _IPO + "constant_merge:ConstantMergePass"),
    ("elim-avail-extern", "module", _IPO + "elim_avail_extern:EliminateAvailableExternallyPass"),
    ("lower-global-dtors", "module", "llvmpy_mid.transform.utils.lower_global_dtors:LowerGlobalDtorsPass"),
    ("rel-lookup-table-converter", "module",
     "llvmpy_mid.transform.utils.rel_lookup_table_converter:RelLookupTableConverterPass"),
]
PARAM_PASSES += [
    ("internalize", "module", _IPO + "internalize:InternalizePass", _IPO + "internalize:parse_internalize_options",
     "<preserve-gv=GV>"),
]
OPTIONS_ROWS += [
    ("avail-extern-to-local", "bool", False,
     "Convert available_externally into locals, renaming them to avoid link-time clashes.", "elim-avail-extern"),
    ("internalize-public-api-file", "str", "", "A file containing list of symbol names to preserve", "internalize"),
    ("internalize-public-api-list", "str", "", "A list of symbol names to preserve", "internalize"),
    ("relocation-model", "str", "", "Choose relocation model (the TTI answer of rel-lookup-table-converter)",
     "rel-lookup-table-converter"),
    ("code-model", "str", "", "Choose code model (the TTI answer of rel-lookup-table-converter)",
     "rel-lookup-table-converter"),
]

# --- globaldce, deadargelim, deadarghaX0r
PARAM_PASSES += [
    ("globaldce", "module", _IPO + "global_dce:GlobalDCEPass", _IPO + "global_dce:parse_global_dce_options",
     "<vfe-linkage-unit-visibility>"),
]
OPTIONS_ROWS += [("enable-vfe", "bool", True, "Enable virtual function elimination", "globaldce")]
PASSES += [
    ("deadargelim", "module", _IPO + "dead_argument_elimination:DeadArgumentEliminationPass"),
    ("deadarghaX0r", "module", _IPO + "dead_argument_elimination:DeadArgumentHackingPass"),
]

# --- globalopt
PASSES += [("globalopt", "module", _IPO + "global_opt:GlobalOptPass")]
OPTIONS_ROWS += [
    ("enable-coldcc-stress-test", "bool", False,
     "Enable stress test of coldcc by adding calling conv to all internal functions.", "globalopt"),
    ("coldcc-rel-freq", "int", 2,
     "Maximum block frequency, expressed as a percentage of caller's entry frequency, for a call site to be "
     "considered cold for enablingcoldcc", "globalopt"),
]  # fmt: skip

# --- function-attrs, rpo-function-attrs
PARAM_PASSES += [
    ("function-attrs", "cgscc", _IPO + "function_attrs:PostOrderFunctionAttrsPass",
     _IPO + "function_attrs:parse_post_order_function_attrs_options", "<skip-non-recursive-function-attrs>"),
]
PASSES += [("rpo-function-attrs", "module", _IPO + "function_attrs:ReversePostOrderFunctionAttrsPass")]
OPTIONS_ROWS += [
    ("enable-nonnull-arg-prop", "bool", True,
     "Try to propagate nonnull argument attributes from callsites to caller functions.", "function-attrs"),
    ("disable-nounwind-inference", "bool", False,
     "Stop inferring nounwind attribute during function-attrs pass", "function-attrs"),
    ("disable-nofree-inference", "bool", False,
     "Stop inferring nofree attribute during function-attrs pass", "function-attrs"),
    ("disable-thinlto-funcattrs", "bool", True, "Don't propagate function-attrs in thinLTO", "function-attrs"),
]

# --- argpromotion
PASSES += [("argpromotion", "cgscc", _IPO + "argument_promotion:ArgumentPromotionPass")]

# --- ipsccp, called-value-propagation
PARAM_PASSES += [
    ("ipsccp", "module", _IPO + "sccp:IPSCCPPass", _IPO + "sccp:parse_ipsccp_options", "<no-func-spec;func-spec>"),
]
OPTIONS_ROWS += [
    ("funcspec-max-iters", "uint", 10, "The maximum number of iterations function specialization is run", "ipsccp"),
    ("force-specialization", "bool", False, "Force function specialization for every call site with a constant "
     "argument", "ipsccp"),
    ("funcspec-max-clones", "uint", 3, "The maximum number of clones allowed for a single function "
     "specialization", "ipsccp"),
    ("funcspec-max-discovery-iterations", "uint", 100, "The maximum number of iterations allowed when searching "
     "for transitive phis", "ipsccp"),
    ("funcspec-max-incoming-phi-values", "uint", 8, "The maximum number of incoming values a PHI node can have "
     "to be considered during the specialization bonus estimation", "ipsccp"),
    ("funcspec-max-block-predecessors", "uint", 2, "The maximum number of predecessors a basic block can have "
     "to be considered dead", "ipsccp"),
    ("funcspec-min-function-size", "uint", 300, "Don't specialize functions that have less than this number of "
     "instructions", "ipsccp"),
    ("funcspec-max-codesize-growth", "uint", 3, "Maximum codesize growth allowed per function", "ipsccp"),
    ("funcspec-min-codesize-savings", "uint", 20, "Reject specializations whose codesize savings are less than "
     "this much percent of the original function size", "ipsccp"),
    ("funcspec-min-latency-savings", "uint", 40, "Reject specializations whose latency savings are less than this "
     "much percent of the original function size", "ipsccp"),
    ("funcspec-min-inlining-bonus", "uint", 300, "Reject specializations whose inlining bonus is less than this "
     "much percent of the original function size", "ipsccp"),
    ("funcspec-on-address", "bool", False, "Enable function specialization on the address of global values",
     "ipsccp"),
    ("funcspec-for-literal-constant", "bool", False, "Enable specialization of functions that take a literal "
     "constant as an argument", "ipsccp"),
    ("cvp-max-functions-per-value", "uint", 4, "The maximum number of functions to track per lattice value",
     "called-value-propagation"),
]
PASSES += [("called-value-propagation", "module", _IPO + "called_value_propagation:CalledValuePropagationPass")]

# --- InlineFunction users: always-inline
PASSES += [("always-inline", "module", _IPO + "always_inliner:AlwaysInlinerPass")]
OPTIONS_ROWS += [
    ("enable-noalias-to-md-conversion", "bool", True,
     "Convert noalias attributes to metadata during inlining.", "always-inline"),
    ("use-noalias-intrinsic-during-inlining", "bool", True,
     "Use the llvm.experimental.noalias.scope.decl intrinsic during inlining.", "always-inline"),
    ("preserve-alignment-assumptions-during-inlining", "bool", False,
     "Convert align attributes to assumptions during inlining.", "always-inline"),
    ("max-inst-checked-for-throw-during-inlining", "uint", 4,
     "the maximum number of instructions analyzed for may throw during attribute inference in inlined body",
     "always-inline"),
]

# --- inline cost, inline, inliner-wrapper
_INL = "llvmpy_mid.analysis.inline_"
PASSES += [
    ("inliner-wrapper", "module", _IPO + "inliner_wrapper:ModuleInlinerWrapperPass"),
    ("inliner-wrapper-no-mandatory-first", "module", _IPO + "inliner_wrapper:ModuleInlinerWrapperNoMandatoryFirstPass"),
    ("print<inline-cost>", "function", _INL + "cost_printer:InlineCostAnnotationPrinterPass"),
    ("print<inline-advisor>", "module", _IPO + "inliner_wrapper:InlineAdvisorPrinterPass"),
    ("module-inline", "module", _IPO + "module_inliner:ModuleInlinerPass"),
]
ANALYSES += [
    ("inline-advisor", "module", _INL + "advisor:InlineAdvisorAnalysis"),
    ("profile-summary", "module", "llvmpy_mid.analysis.profile_summary_info:ProfileSummaryAnalysis"),
]
PARAM_PASSES += [("inline", "cgscc", _IPO + "inliner:InlinerPass", _IPO + "inliner:parse_inliner_options", "<only-mandatory>")]
OPTIONS_ROWS += [
    ("inlinedefault-threshold", "int", 225, "Default amount of inlining to perform", "inline"),
    ("ignore-tti-inline-compatible", "bool", False,
     "Ignore TTI attributes compatibility check between callee/caller during inline cost calculation", "inline"),
    ("print-instruction-comments", "bool", False, "Prints comments for instruction based on inline cost analysis",
     "inline"),
    ("inline-threshold", "int", 225, "Control the amount of inlining to perform (default = 225)", "inline"),
    ("inlinehint-threshold", "int", 325, "Threshold for inlining functions with inline hint", "inline"),
    ("inline-cold-callsite-threshold", "int", 45, "Threshold for inlining cold callsites", "inline"),
    ("inline-enable-cost-benefit-analysis", "bool", False, "Enable the cost-benefit analysis for the inliner",
     "inline"),
    ("inline-savings-multiplier", "int", 8, "Multiplier to multiply cycle savings by during inlining", "inline"),
    ("inline-savings-profitable-multiplier", "int", 4,
     "A multiplier on top of cycle savings to decide whether the savings won't justify the cost", "inline"),
    ("inline-size-allowance", "int", 100,
     "The maximum size of a callee that get's inlined without sufficient cycle savings", "inline"),
    ("inlinecold-threshold", "int", 45, "Threshold for inlining functions with cold attribute", "inline"),
    ("hot-callsite-threshold", "int", 3000, "Threshold for hot callsites ", "inline"),
    ("locally-hot-callsite-threshold", "int", 525, "Threshold for locally hot callsites ", "inline"),
    ("cold-callsite-rel-freq", "int", 2,
     "Maximum block frequency, expressed as a percentage of caller's entry frequency, for a callsite to be cold in "
     "the absence of profile information.", "inline"),
    ("hot-callsite-rel-freq", "uint", 60,
     "Minimum block frequency, expressed as a multiple of caller's entry frequency, for a callsite to be hot in "
     "the absence of profile information.", "inline"),
    ("inline-instr-cost", "int", 5, "Cost of a single instruction when inlining", "inline"),
    ("inline-memaccess-cost", "int", 0, "Cost of load/store instruction when inlining", "inline"),
    ("inline-call-penalty", "int", 25, "Call penalty that is applied per callsite when inlining", "inline"),
    ("inline-max-stacksize", "uint", (1 << 64) - 1,
     "Do not inline functions with a stack size that exceeds the specified limit", "inline"),
    ("recursive-inline-max-stacksize", "uint", 1024,
     "Do not inline recursive functions with a stack size that exceeds the specified limit", "inline"),
    ("inline-cost-full", "bool", False,
     "Compute the full inline cost of a call site even when the cost exceeds the threshold.", "inline"),
    ("inline-caller-superset-nobuiltin", "bool", True,
     "Allow inlining when caller has a superset of callee's nobuiltin attributes.", "inline"),
    ("disable-gep-const-evaluation", "bool", False, "Disables evaluation of GetElementPtr with constant operands",
     "inline"),
    ("inline-remark-attribute", "bool", False,
     "Enable adding inline-remark attribute to callsites processed by inliner but decided to be not inlined",
     "inline"),
    ("inline-deferral", "bool", False, "Enable deferred inlining", "inline"),
    ("inline-deferral-scale", "int", 2, "Scale to limit the cost of inline deferral", "inline"),
    ("annotate-inline-phase", "bool", False,
     "If true, annotate inline advisor remarks with LTO and pass information.", "inline"),
    ("intra-scc-cost-multiplier", "int", 2,
     "Cost multiplier to multiply onto inlined call sites where the new call was previously an intra-SCC call "
     "(not relevant when the original call was already intra-SCC). This can accumulate over multiple inlinings "
     "(e.g. if a call site already had a cost multiplier and one of its inlined calls was also subject to this, "
     "the inlined call would have the original multiplier multiplied by intra-scc-cost-multiplier). This is to "
     "prevent tons of inlining through a child SCC which can cause terrible compile times", "inline"),
    ("keep-inline-advisor-for-printing", "bool", False, "", "inline"),
    ("inliner-function-import-stats", "str", "", "Enable inliner stats for imported functions (basic, verbose)",
     "inline"),
    ("inline-priority-mode", "str", "size", "Choose the priority mode to use in module inline", "module-inline"),
    ("max-devirt-iterations", "uint", 4, "Maximum number of devirtualization iterations of the default pipelines' "
     "inliner (the inline passes of a textual pipeline do not use it)", "inliner-wrapper"),
    ("enable-scc-inline-advisor-printing", "bool", False, "", "inline"),
]  # fmt: skip

# --- tailcallelim, extraction, stack-safety
PASSES += [("tailcallelim", "function", "llvmpy_mid.transform.scalar.tail_recursion_elimination:TailCallElimPass")]

# --- stack safety: stack-safety, stack-safety-local, their printers, print<stack-lifetime>
_SSA = "llvmpy_mid.analysis.stack_safety:"
ANALYSES += [
    ("stack-safety", "module", _SSA + "StackSafetyGlobalAnalysis"),
    ("stack-safety-local", "function", _SSA + "StackSafetyAnalysis"),
]
PASSES += [
    ("print<stack-safety-local>", "function", _SSA + "StackSafetyPrinterPass"),
    ("print-stack-safety", "module", _SSA + "StackSafetyGlobalPrinterPass"),
]
_SL = "llvmpy_mid.analysis.stack_lifetime:"
PARAM_PASSES += [("print<stack-lifetime>", "function", _SL + "StackLifetimePrinterPass",
                  _SL + "parse_stack_lifetime_options", "<may;must>")]
PASSES += [  # the spellings with a parameter (the pipeline parser splits at the first '<')
    ("print<stack-lifetime><may>", "function", _SL + "StackLifetimeMayPrinterPass"),
    ("print<stack-lifetime><must>", "function", _SL + "StackLifetimeMustPrinterPass"),
]
OPTIONS_ROWS += [
    ("stack-safety-max-iterations", "int", 20, "", "stack-safety"),
    ("stack-safety-print", "bool", False, "", "stack-safety"),
    ("stack-safety-run", "bool", False, "", "stack-safety"),
]

# --- extraction: extract-blocks, loop-extract
PASSES += [("extract-blocks", "module", _IPO + "block_extractor:BlockExtractorPass")]
PARAM_PASSES += [
    ("loop-extract", "module", _IPO + "loop_extractor:LoopExtractorPass",
     _IPO + "loop_extractor:parse_loop_extractor_options", "<single>"),
]
OPTIONS_ROWS += [
    ("extract-blocks-file", "str", "", "A file containing list of basic blocks to extract", "extract-blocks"),
    ("extract-blocks-erase-funcs", "bool", False, "Erase the existing functions", "extract-blocks"),
    ("aggregate-extracted-args", "bool", False, "Aggregate arguments to code-extracted functions", "extract-blocks"),
]

# --- partial-inliner
PASSES += [("partial-inliner", "module", _IPO + "partial_inlining:PartialInlinerPass")]
OPTIONS_ROWS += [
    ("disable-partial-inlining", "bool", False, "Disable partial inlining", "partial-inliner"),
    ("disable-mr-partial-inlining", "bool", False, "Disable multi-region partial inlining", "partial-inliner"),
    ("pi-force-live-exit-outline", "bool", False, "Force outline regions with live exits", "partial-inliner"),
    ("pi-mark-coldcc", "bool", False, "Mark outline function calls with ColdCC", "partial-inliner"),
    ("skip-partial-inlining-cost-analysis", "bool", False, "Skip Cost Analysis", "partial-inliner"),
    ("min-region-size-ratio", "str", "0.1",
     "Minimum ratio comparing relative sizes of each outline candidate and original function", "partial-inliner"),
    ("min-block-execution", "uint", 100, "Minimum block executions to consider its BranchProbabilityInfo valid",
     "partial-inliner"),
    ("cold-branch-ratio", "str", "0.1", "Minimum BranchProbability to consider a region cold.", "partial-inliner"),
    ("max-num-inline-blocks", "uint", 5, "Max number of blocks to be partially inlined", "partial-inliner"),
    ("max-partial-inlining", "int", -1, "Max number of partial inlining. The default is unlimited",
     "partial-inliner"),
    ("outline-region-freq-percent", "int", 75, "Relative frequency of outline region to the entry block",
     "partial-inliner"),
    ("partial-inlining-extra-penalty", "uint", 0, "A debug option to add additional penalty to the computed one.",
     "partial-inliner"),
]

# --- inline misc: remark hotness (analysis/optimization_remark_emitter.py)
OPTIONS_ROWS += [
    ("pass-remarks-with-hotness", "bool", False, "With PGO, include profile count in optimization remarks",
     "opt-remark-emit"),
    ("pass-remarks-hotness-threshold", "str", "0",
     "Minimum profile count required for an optimization remark to be output. Use 'auto' to apply the threshold "
     "from profile summary", "opt-remark-emit"),
]
# --- inline misc: the replay inline advisor (analysis/replay_inline_advisor.py)
OPTIONS_ROWS += [
    ("cgscc-inline-replay", "str", "", "Optimization remarks file containing inline remarks to be replayed by cgscc "
     "inlining.", "inline"),
    ("cgscc-inline-replay-scope", "str", "Function", "Whether inline replay should be applied to the entire Module or "
     "just the Functions (default) that are present as callers in remarks during cgscc inlining.", "inline"),
    ("cgscc-inline-replay-fallback", "str", "Original", "How cgscc inline replay treats sites that don't come from "
     "the replay. Original: defers to original advisor, AlwaysInline: inline all sites not in replay, NeverInline: "
     "inline no sites not in replay", "inline"),
    ("cgscc-inline-replay-format", "str", "LineColumnDiscriminator", "How cgscc inline replay file is formatted",
     "inline"),
]
# --- inline misc: the module inliner's priority order (analysis/inline_order.py)
OPTIONS_ROWS += [
    ("module-inliner-top-priority-threshold", "int", 0,
     "The cost threshold for call sites that get inlined without the cost-benefit analysis", "module-inline"),
]
# --- inline target hooks: AArch64 and AMDGPU (analysis/inline_cost_target_{aarch64,amdgpu}.py)
OPTIONS_ROWS += [
    ("call-penalty-sm-change", "uint", 5, "Penalty of calling a function that requires a change to PSTATE.SM",
     "inline"),
    ("inline-call-penalty-sm-change", "uint", 10, "Penalty of inlining a call that requires a change to PSTATE.SM",
     "inline"),
    ("aarch64-min-jump-table-entries", "uint", 13, "Set minimum number of entries to use a jump table on AArch64",
     "inline"),
    ("amdgpu-inline-arg-alloca-cost", "uint", 4000, "Cost of alloca argument", "inline"),
    ("amdgpu-inline-arg-alloca-cutoff", "uint", 256, "Maximum alloca size to use for inline cost", "inline"),
    ("amdgpu-inline-max-bb", "uint", 1100,
     "Maximum number of BBs allowed in a function after inlining (compile time constraint)", "inline"),
]

# --- attributor-light, attributor-light-cgscc (ipo/attributor*.py)
PASSES += [
    ("attributor-light", "module", _IPO + "attributor_light:AttributorLightPass"),
    ("attributor-light-cgscc", "cgscc", _IPO + "attributor_light:AttributorLightCGSCCPass"),
]
OPTIONS_ROWS += [
    ("attributor-max-iterations", "uint", 32, "Maximal number of fixpoint iterations.", "attributor-light"),
]
# --- inline misc: print-profile-summary (analysis/profile_summary_printer.py)
PASSES += [("print-profile-summary", "module", "llvmpy_mid.analysis.profile_summary_printer:ProfileSummaryPrinterPass")]
OPTIONS_ROWS += [
    ("profile-summary-hot-count", "uint", 0, "A fixed hot count that overrides the count derived from "
     "profile-summary-cutoff-hot", "profile-summary"),
    ("profile-summary-cold-count", "uint", 0, "A fixed cold count that overrides the count derived from "
     "profile-summary-cutoff-cold", "profile-summary"),
]
