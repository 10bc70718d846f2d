"""Registry rows of the memory half of the middle end (issue 16): the alias-analysis
stack, MemorySSA, memdep and the passes built on them (early-cse, gvn, dse, memcpyopt,
mldst-motion, sink).

Kept apart from ``registry.py`` so each part has its own section. Each section has
passes ``(name, kind, spec)``, analyses ``(name, kind, spec)``, options ``(name, kind,
default, help, owner)`` and parameterised passes ``(name, kind, spec, parser spec,
params_help)``; ``registry.py`` adds them all. A parser spec names a function
``parse(params_text) -> object`` imported only when the pass is built.
"""

from __future__ import annotations

Row = tuple[str, str, str]
OptionRow = tuple[str, str, object, str, str]
ParamRow = tuple[str, str, str, str, str]

PASSES: list[Row] = []
ANALYSES: list[Row] = []
OPTIONS_ROWS: list[OptionRow] = []
PARAM_PASSES: list[ParamRow] = []

_ALIAS = "llvmpy_mid.analysis.alias."

# --- AA core (aa_manager.py) ------------------------------------------------------------------
ANALYSES += [("aa", "function", _ALIAS + "aa_manager:AAManager")]
ANALYSES += [("opt-remark-emit", "function", "llvmpy_mid.analysis.optimization_remark_emitter:OptimizationRemarkEmitterAnalysis")]
OPTIONS_ROWS += [("aa-pipeline", "str", "default", "A textual description of the alias analysis pipeline for handling managed aliasing queries", "aa")]

# --- basic-aa ---------------------------------------------------------------------------------
ANALYSES += [("basic-aa", "function", _ALIAS + "basic_aa:BasicAA")]
OPTIONS_ROWS += [
    ("basic-aa-recphi", "bool", True, "", "basic-aa"),
    ("basic-aa-separate-storage", "bool", True, "", "basic-aa"),
]
PASSES += [("aa-eval", "function", _ALIAS + "aa_eval:AAEvaluator")]
#: aa-eval's ``cl::opt`` flags (all hidden booleans in LLVM, default off).
AA_EVAL_OPTIONS: tuple[str, ...] = (
    "print-all-alias-modref-info",
    "print-no-aliases",
    "print-may-aliases",
    "print-partial-aliases",
    "print-must-aliases",
    "print-no-modref",
    "print-ref",
    "print-mod",
    "print-modref",
    "evaluate-aa-metadata",
)
OPTIONS_ROWS += [(_n, "bool", False, "", "aa-eval") for _n in AA_EVAL_OPTIONS]

# --- scoped-noalias-aa, tbaa, aa-eval, alias sets ------------------------------------------------
ANALYSES += [
    ("scoped-noalias-aa", "function", _ALIAS + "scoped_noalias_aa:ScopedNoAliasAA"),
    ("tbaa", "function", _ALIAS + "type_based_aa:TypeBasedAA"),
]
PASSES += [("print-alias-sets", "function", "llvmpy_mid.analysis.alias_set_tracker:AliasSetsPrinterPass")]
OPTIONS_ROWS += [
    ("enable-scoped-noalias", "bool", True, "", "scoped-noalias-aa"),
    ("enable-tbaa", "bool", True, "", "tbaa"),
    (
        "alias-set-saturation-threshold", "uint", 250,
        "The maximum total number of memory locations alias sets may contain before degradation",
        "print-alias-sets",
    ),
]  # fmt: skip

# --- globals-aa ---------------------------------------------------------------------------------
ANALYSES += [("globals-aa", "module", _ALIAS + "globals_aa:GlobalsAA")]
PASSES += [("recompute-globalsaa", "module", _ALIAS + "globals_aa:RecomputeGlobalsAAPass")]
OPTIONS_ROWS += [("enable-unsafe-globalsmodref-alias-results", "bool", False, "", "globals-aa")]

# --- MemorySSA ----------------------------------------------------------------------------------
_MSSA = "llvmpy_mid.analysis.memory_ssa"
ANALYSES += [("memoryssa", "function", _MSSA + ":MemorySSAAnalysis")]
PASSES += [
    ("print<memoryssa>", "function", _MSSA + "_printer:MemorySSAPrinterPass"),
    ("print<memoryssa><no-ensure-optimized-uses>", "function", _MSSA + "_printer:MemorySSANoEnsurePrinterPass"),
    ("print<memoryssa-walker>", "function", _MSSA + "_printer:MemorySSAWalkerPrinterPass"),
    ("verify<memoryssa>", "function", _MSSA + "_printer:MemorySSAVerifierPass"),
]
OPTIONS_ROWS += [
    ("memssa-check-limit", "uint", 100,
     "The maximum number of stores/phis MemorySSAwill consider trying to walk past (default = 100)", "memoryssa"),
    ("verify-memoryssa", "bool", False, "Enable verification of MemorySSA.", "memoryssa"),
    ("dot-cfg-mssa", "str", "", "file name for generated dot file", "memoryssa"),
]  # fmt: skip

# --- memdep, phi-values --------------------------------------------------------------------------
ANALYSES += [
    ("memdep", "function", "llvmpy_mid.analysis.memory_dependence:MemoryDependenceAnalysis"),
    ("phi-values", "function", "llvmpy_mid.analysis.phi_values:PhiValuesAnalysis"),
]
PASSES += [("print<phi-values>", "function", "llvmpy_mid.analysis.phi_values:PhiValuesPrinterPass")]
PASSES += [("print-memderefs", "function", "llvmpy_mid.analysis.mem_deref_printer:MemDerefPrinterPass")]
OPTIONS_ROWS += [
    ("use-dereferenceable-at-point-semantics", "uint", 0, "Deref attributes and metadata infer facts at definition only", "print-memderefs"),
]
OPTIONS_ROWS += [
    ("memdep-block-scan-limit", "uint", 100, "The number of instructions to scan in a block in memory dependency analysis (default = 100)", "memdep"),
    ("memdep-block-number-limit", "uint", 200, "The number of blocks to scan during memory dependency analysis (default = 200)", "memdep"),
    ("gvn-add-phi-translation", "bool", False, "Enable phi-translation of add instructions", "gvn"),
    ("available-load-scan-limit", "uint", 6, "Use this to specify the default maximum number of instructions to scan backward from a given instruction, when searching for available loaded value", "instcombine"),
]

# --- early-cse ----------------------------------------------------------------------------------
PARAM_PASSES += [
    ("early-cse", "function", "llvmpy_mid.transform.scalar.early_cse:EarlyCSEPass",
     "llvmpy_mid.transform.scalar.early_cse:parse_early_cse_options", "<memssa>"),
]
OPTIONS_ROWS += [
    ("earlycse-mssa-optimization-cap", "uint", 500, "Enable imprecision in EarlyCSE in pathological cases, in exchange "
     "for faster compile. Caps the MemorySSA clobbering calls.", "early-cse"),
    ("earlycse-debug-hash", "bool", False, "Perform extra assertion checking to verify that SimpleValue's hash "
     "function is well-behaved w.r.t. its isEqual predicate", "early-cse"),
    # AssumeBundleBuilder.cpp (transform/utils/assume_bundle_builder.py), honoured by early-cse.
    ("enable-knowledge-retention", "bool", False, "enable preservation of attributes throughout code transformation",
     "assume-builder"),
    ("assume-preserve-all", "bool", False, "enable preservation of all attrbitues. even those that are unlikely to "
     "be usefull", "assume-builder"),
]

# --- gvn ----------------------------------------------------------------------------------------
PARAM_PASSES += [
    (
        "gvn", "function", "llvmpy_mid.transform.scalar.gvn:GVNPass", "llvmpy_mid.transform.scalar.gvn:parse_gvn_options",
        "<no-pre;pre;no-load-pre;load-pre;no-split-backedge-load-pre;split-backedge-load-pre;no-memdep;memdep>",
    ),
]
OPTIONS_ROWS += [
    ("enable-pre", "bool", True, "", "gvn"),
    ("enable-load-pre", "bool", True, "", "gvn"),
    ("enable-load-in-loop-pre", "bool", True, "", "gvn"),
    ("enable-split-backedge-in-load-pre", "bool", False, "", "gvn"),
    ("enable-gvn-memdep", "bool", True, "", "gvn"),
    ("gvn-max-num-deps", "uint", 100, "Max number of dependences to attempt Load PRE (default = 100)", "gvn"),
    (
        "gvn-max-block-speculations", "uint", 600,
        "Max number of blocks we're willing to speculate on (and recurse into) when deducing if a value is "
        "fully available or not in GVN (default = 600)",
        "gvn",
    ),
    (
        "gvn-max-num-visited-insts", "uint", 100,
        "Max number of visited instructions when trying to find dominating value of select dependency (default = 100)",
        "gvn",
    ),
    ("gvn-max-num-insns", "uint", 100, "Max number of instructions to scan in each basic block in GVN (default = 100)", "gvn"),
    # Read by analysis/capture_tracking.py (LLVM CaptureTracking.cpp), which GVN's AA queries reach.
    ("capture-tracking-max-uses-to-explore", "uint", 100, "Maximal number of uses to explore.", "capture-tracking"),
    # LLVM AliasAnalysis.cpp: only the legacy pass manager's AA reads it, so it changes nothing here, as in opt-19.
    ("disable-basic-aa", "bool", False, "", "aa"),
]  # fmt: skip

# --- dse ----------------------------------------------------------------------------------------
PASSES += [("dse", "function", "llvmpy_mid.transform.scalar.dse:DSEPass")]
OPTIONS_ROWS += [
    ("enable-dse-partial-overwrite-tracking", "bool", True, "Enable partial-overwrite tracking in DSE", "dse"),
    ("enable-dse-partial-store-merging", "bool", True, "Enable partial store merging in DSE", "dse"),
    ("dse-memoryssa-scanlimit", "uint", 150, "The number of memory instructions to scan for dead store elimination (default = 150)", "dse"),
    ("dse-memoryssa-walklimit", "uint", 90, "The maximum number of steps while walking upwards to find MemoryDefs that may be killed (default = 90)", "dse"),
    ("dse-memoryssa-partial-store-limit", "uint", 5, "The maximum number candidates that only partially overwrite the killing MemoryDef to consider (default = 5)", "dse"),
    ("dse-memoryssa-defs-per-block-limit", "uint", 5000, "The number of MemoryDefs we consider as candidates to eliminated other stores per basic block (default = 5000)", "dse"),
    ("dse-memoryssa-samebb-cost", "uint", 1, "The cost of a step in the same basic block as the killing MemoryDef(default = 1)", "dse"),
    ("dse-memoryssa-otherbb-cost", "uint", 5, "The cost of a step in a different basic block than the killing MemoryDef(default = 5)", "dse"),
    ("dse-memoryssa-path-check-limit", "uint", 50, "The maximum number of blocks to check when trying to prove that all paths to an exit go through a killing block (default = 50)", "dse"),
    ("dse-optimize-memoryssa", "bool", True, "Allow DSE to optimize memory accesses.", "dse"),
]

# --- memcpyopt ----------------------------------------------------------------------------------
PASSES += [("memcpyopt", "function", "llvmpy_mid.transform.scalar.memcpy_opt:MemCpyOptPass")]
OPTIONS_ROWS += [("enable-memcpyopt-without-libcalls", "bool", False, "Enable memcpyopt even when libcalls are disabled", "memcpyopt")]

# --- mldst-motion, sink ---------------------------------------------------------------------------
PASSES += [("sink", "function", "llvmpy_mid.transform.scalar.sink:SinkingPass")]
PARAM_PASSES += [
    ("mldst-motion", "function", "llvmpy_mid.transform.scalar.merged_load_store_motion:MergedLoadStoreMotionPass",
     "llvmpy_mid.transform.scalar.merged_load_store_motion:parse_merged_load_store_motion_options",
     "<no-split-footer-bb;split-footer-bb>"),
]
