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

# --- argpromotion

# --- ipsccp, called-value-propagation
PARAM_PASSES += [
    ("ipsccp", "module", _IPO + "sccp:IPSCCPPass", _IPO + "sccp:parse_ipsccp_options", "<no-func-spec;func-spec>"),
]
OPTIONS_ROWS += [
    ("funcspec-max-iters", "uint", 10, "The maximum number of iterations function specialization is run", "ipsccp"),
    ("cvp-max-functions-per-value", "uint", 4, "The maximum number of functions to track per lattice value",
     "called-value-propagation"),
]
PASSES += [("called-value-propagation", "module", _IPO + "called_value_propagation:CalledValuePropagationPass")]

# --- InlineFunction users: always-inline

# --- inline cost, inline, inliner-wrapper

# --- tailcallelim, extraction, stack-safety
PASSES += [("tailcallelim", "function", "llvmpy_mid.transform.scalar.tail_recursion_elimination:TailCallElimPass")]
