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

# --- globaldce, deadargelim, deadarghaX0r
PARAM_PASSES += [
    ("globaldce", "module", _IPO + "global_dce:GlobalDCEPass", _IPO + "global_dce:parse_global_dce_options",
     "<vfe-linkage-unit-visibility>"),
]
OPTIONS_ROWS += [("enable-vfe", "bool", True, "Enable virtual function elimination", "globaldce")]

# --- globalopt

# --- function-attrs, rpo-function-attrs

# --- argpromotion

# --- ipsccp, called-value-propagation
PARAM_PASSES += [
    ("ipsccp", "module", _IPO + "sccp:IPSCCPPass", _IPO + "sccp:parse_ipsccp_options", "<no-func-spec;func-spec>"),
]
OPTIONS_ROWS += [
    ("funcspec-max-iters", "uint", 10, "The maximum number of iterations function specialization is run", "ipsccp"),
]

# --- InlineFunction users: always-inline

# --- inline cost, inline, inliner-wrapper

# --- tailcallelim, extraction, stack-safety
PASSES += [("tailcallelim", "function", "llvmpy_mid.transform.scalar.tail_recursion_elimination:TailCallElimPass")]
