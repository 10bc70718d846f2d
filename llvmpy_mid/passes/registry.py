"""The registry of pass and analysis names (LLVM's ``PassRegistry.def`` as data).

What: one table mapping LLVM's pipeline names (``verify``, ``instcount``,
``domtree``, ...) to the class that implements them, per kind (``module``,
``cgscc``, ``function``, ``loop``), for passes and for analyses.  It answers
:func:`kind_of` (the callback :func:`llvmpy_mid.passes.pipeline_text.nest`
needs), :func:`lookup` / :func:`lookup_analysis`, and :func:`all_names` /
:func:`format_print_passes` (``-print-passes``).  ``require<X>`` and
``invalidate<X>`` / ``invalidate<all>`` are known for every registered analysis
at module and function level.

How: an entry holds an import spec ``"module.path:ClassName"``; the module is
imported on first :meth:`PassEntry.load`, so start-up never imports a pass it
does not run.  Pass authors use :func:`register_pass` / :func:`register_analysis`
as class decorators; third-party packages declare entry points in the group
``llvmpy_mid.passes`` (the object loaded is either a module whose import runs
such decorators, or a callable taking the :class:`PassRegistry`).  Entry points
are read once, on the first query of the default registry.  A pass that takes
``<params>`` registers a parser: ``parser(params_text)`` returns the arguments
given to the class (errors as :class:`~llvmpy_mid.errors.PipelineError`).

What it does not do: it builds no pass managers (``builder.py`` does) and
expands no ``default<On>`` pipeline.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Callable, Iterator, TypeVar

import attrs

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.passes.options import declare_option

KINDS: tuple[str, ...] = ("module", "cgscc", "function", "loop")
ENTRY_POINT_GROUP = "llvmpy_mid.passes"
PSEUDO_KINDS: frozenset[str] = frozenset(KINDS)
"""Levels at which ``require<X>`` / ``invalidate<X>`` / ``invalidate<all>`` exist here."""

ParamParser = Callable[[str], Any]
"""``parser(params_text)`` -> the single argument the pass class is built with."""

T = TypeVar("T", bound=type)


@attrs.define(eq=False)
class PassEntry:
    """One name of one kind: a pass, or (``analysis=True``) an analysis."""

    name: str
    kind: str
    spec: str
    params: ParamParser | None = None
    params_help: str | None = None
    """The parameter summary ``-print-passes`` shows (``<a;no-b;n=N>``)."""
    analysis: bool = False
    _loaded: type | None = None

    def load(self) -> type:
        """Import the implementing class (once)."""
        if self._loaded is None:
            module_name, sep, qualname = self.spec.partition(":")
            if not sep or not qualname:
                raise PipelineError("bad import spec '%s' for pass '%s'" % (self.spec, self.name))
            obj: Any = importlib.import_module(module_name)
            for part in qualname.split("."):
                obj = getattr(obj, part)
            if not isinstance(obj, type):
                raise PipelineError("'%s' (pass '%s') is not a class" % (self.spec, self.name))
            self._loaded = obj
        return self._loaded

    def instantiate(self, params: str | None) -> Any:
        """The pass (or analysis) object for ``name`` or ``name<params>``."""
        cls = self.load()
        if self.params is None:
            if params is not None:
                raise PipelineError("pass '%s' takes no parameters" % self.name)
            return cls()
        return cls(self.params(params if params is not None else ""))


def _split(spelled: str) -> tuple[str, str | None]:
    """``name<params>`` -> (name, params); a name without ``<...>`` -> (name, None)."""
    lt = spelled.find("<")
    if lt > 0 and spelled.endswith(">"):
        return spelled[:lt], spelled[lt + 1 : -1]
    return spelled, None


class PassRegistry:
    """Pass and analysis names by kind.  ``llvmpy_mid.passes.registry.REGISTRY`` is the default."""

    def __init__(self, *, load_entry_points: bool = False) -> None:
        self._passes: dict[str, dict[str, PassEntry]] = {}
        self._analyses: dict[str, dict[str, PassEntry]] = {}
        self._plugins_pending = load_entry_points

    # -- registration ---------------------------------------------------------------------

    def add(self, entry: PassEntry, *, replace: bool = False) -> PassEntry:
        if entry.kind not in KINDS:
            raise ValueError("unknown pass kind '%s' (one of %s)" % (entry.kind, ", ".join(KINDS)))
        if not entry.name or any(c in entry.name for c in ",()"):
            raise ValueError("invalid pass name '%s'" % entry.name)
        table = self._analyses if entry.analysis else self._passes
        by_kind = table.setdefault(entry.name, {})
        old = by_kind.get(entry.kind)
        if old is not None and not replace and old.spec != entry.spec:
            what = "analysis" if entry.analysis else "pass"
            raise ValueError("%s %s '%s' is already registered (%s)" % (entry.kind, what, entry.name, old.spec))
        by_kind[entry.kind] = entry
        return entry

    def add_pass(
        self, name: str, kind: str, spec: str, params: ParamParser | None = None, *, params_help: str | None = None
    ) -> PassEntry:
        return self.add(PassEntry(name, kind, spec, params, params_help))

    def add_analysis(self, name: str, kind: str, spec: str) -> PassEntry:
        return self.add(PassEntry(name, kind, spec, analysis=True))

    def remove(self, name: str, kind: str, *, analysis: bool = False) -> None:
        table = self._analyses if analysis else self._passes
        table.get(name, {}).pop(kind, None)
        if name in table and not table[name]:
            del table[name]

    def register_pass(
        self, name: str, kind: str, *, params: ParamParser | None = None, params_help: str | None = None
    ) -> Callable[[T], T]:
        """Class decorator: register the class as pass ``name`` of ``kind``."""

        def deco(cls: T) -> T:
            _check_pass_class(name, cls)
            entry = PassEntry(name, kind, "%s:%s" % (cls.__module__, cls.__qualname__), params, params_help)
            entry._loaded = cls
            self.add(entry, replace=True)
            return cls

        return deco

    def register_analysis(self, name: str, kind: str) -> Callable[[T], T]:
        """Class decorator: register the class as analysis ``name`` of ``kind``."""

        def deco(cls: T) -> T:
            entry = PassEntry(name, kind, "%s:%s" % (cls.__module__, cls.__qualname__), analysis=True)
            entry._loaded = cls
            self.add(entry, replace=True)
            return cls

        return deco

    # -- plugins --------------------------------------------------------------------------

    def _load_plugins(self) -> None:
        if not self._plugins_pending:
            return
        self._plugins_pending = False
        from importlib.metadata import entry_points

        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                obj = ep.load()
                if callable(obj) and not isinstance(obj, type):
                    obj(self)
            except Exception as exc:  # a broken plugin must not break every pipeline
                warnings.warn("llvmpy_mid: pass plugin '%s' failed to load: %s" % (ep.name, exc), stacklevel=2)

    # -- queries --------------------------------------------------------------------------

    def lookup(self, spelled: str, kind: str) -> PassEntry | None:
        """The pass entry for ``name`` or ``name<params>`` at ``kind`` (exact name first).
        Plugins are loaded on the first name not found among the built-in ones."""
        entry = self._lookup(spelled, kind)
        if entry is None and self._plugins_pending:
            self._load_plugins()
            entry = self._lookup(spelled, kind)
        return entry

    def _lookup(self, spelled: str, kind: str) -> PassEntry | None:
        entry = self._passes.get(spelled, {}).get(kind)
        if entry is not None:
            return entry
        base, params = _split(spelled)
        if params is None:
            return None
        entry = self._passes.get(base, {}).get(kind)
        return entry if entry is not None and entry.params is not None else None

    def lookup_analysis(self, name: str, kind: str) -> PassEntry | None:
        entry = self._analyses.get(name, {}).get(kind)
        if entry is None and self._plugins_pending:
            self._load_plugins()
            entry = self._analyses.get(name, {}).get(kind)
        return entry

    def pseudo_pass(self, spelled: str, kind: str) -> tuple[str, PassEntry | None] | None:
        """``require<X>`` -> ("require", X's entry); ``invalidate<all>`` -> ("invalidate", None);
        None when ``spelled`` is no such pseudo-pass at ``kind``."""
        base, params = _split(spelled)
        if base not in ("require", "invalidate") or params is None or kind not in PSEUDO_KINDS:
            return None
        if base == "invalidate" and params == "all":
            return ("invalidate", None)
        entry = self.lookup_analysis(params, kind)
        return None if entry is None else (base, entry)

    def no_adaptor(self, spelled: str) -> bool:
        """True for ``require<X>`` / ``invalidate<X>`` (X an analysis): opt-19 gives them no
        implicit adaptor inside an outer pipeline (the ``nest(no_adaptor=...)`` callback)."""
        base, params = _split(spelled)
        return base in ("require", "invalidate") and params is not None and params != "all"

    def kind_of(self, spelled: str) -> set[str]:
        """The kinds under which ``spelled`` (parameters included) names a pass."""
        kinds = self._kind_of(spelled)
        if not kinds and self._plugins_pending:
            self._load_plugins()
            kinds = self._kind_of(spelled)
        return kinds

    def _kind_of(self, spelled: str) -> set[str]:
        kinds = {k for k in KINDS if self._lookup(spelled, k) is not None}
        kinds.update(k for k in PSEUDO_KINDS if self.pseudo_pass(spelled, k) is not None)
        return kinds

    def entries(self, *, analyses: bool = False) -> Iterator[PassEntry]:
        self._load_plugins()
        table = self._analyses if analyses else self._passes
        for by_kind in table.values():
            yield from by_kind.values()

    def all_names(self, kind: str | None = None, *, analyses: bool = False) -> list[str]:
        """Sorted names (of one kind, or of all), pseudo-passes ``require<X>``/``invalidate<X>`` included
        for passes."""
        names = {e.name for e in self.entries(analyses=analyses) if kind is None or e.kind == kind}
        if not analyses and (kind is None or kind in PSEUDO_KINDS):
            names.add("invalidate<all>")
            for a in self.entries(analyses=True):
                if a.kind in PSEUDO_KINDS and (kind is None or a.kind == kind):
                    names.update(("require<%s>" % a.name, "invalidate<%s>" % a.name))
        return sorted(names)

    def format_print_passes(self) -> str:
        """The ``-print-passes`` listing, in opt-19's section layout."""
        out: list[str] = []
        labels = {"module": "Module", "cgscc": "CGSCC", "function": "Function", "loop": "Loop"}
        for kind in KINDS:
            entries = sorted((e for e in self.entries() if e.kind == kind), key=lambda e: e.name)
            if kind == "loop":
                out.append("LoopNest passes:")
                out.extend("  " + e.name for e in entries if e.params is None and _is_loop_nest(e))
                entries = [e for e in entries if e.params is not None or not _is_loop_nest(e)]
            out.append("%s passes:" % labels[kind])
            out.extend("  " + e.name for e in entries if e.params is None)
            out.append("%s passes with params:" % labels[kind])
            out.extend("  %s%s" % (e.name, e.params_help or "<>") for e in entries if e.params is not None)
            out.append("%s analyses:" % labels[kind])
            out.extend("  " + n for n in self.all_names(kind, analyses=True))
            if kind in ("module", "function"):
                from llvmpy_mid.analysis.alias.aa_manager import AA_ANALYSES

                out.append("%s alias analyses:" % labels[kind])
                out.extend("  " + n for n in sorted(AA_ANALYSES) if AA_ANALYSES[n][1] == (kind == "module"))
        return "\n".join(out) + "\n"


def _is_loop_nest(entry: PassEntry) -> bool:
    return bool(getattr(entry.load(), "is_loop_nest_pass", False))


REGISTRY = PassRegistry(load_entry_points=True)

_BUILTIN_PASSES: tuple[tuple[str, str, str], ...] = (
    ("verify", "module", "llvmpy_mid.passes.builtin_passes:VerifierPass"),
    ("verify", "function", "llvmpy_mid.passes.builtin_passes:FunctionVerifierPass"),
    ("print", "module", "llvmpy_mid.passes.builtin_passes:PrintModulePass"),
    ("print", "function", "llvmpy_mid.passes.builtin_passes:PrintFunctionPass"),
    ("instcount", "function", "llvmpy_mid.analysis.instcount:InstCountPass"),
    ("print<loops>", "function", "llvmpy_mid.analysis.loop_info:LoopPrinterPass"),
    ("print<cycles>", "function", "llvmpy_mid.analysis.cycle_info:CycleInfoPrinterPass"),
    ("print<domtree>", "function", "llvmpy_mid.analysis.dominator_printers:DominatorTreePrinterPass"),
    ("print<postdomtree>", "function", "llvmpy_mid.analysis.dominator_printers:PostDominatorTreePrinterPass"),
    ("print<domfrontier>", "function", "llvmpy_mid.analysis.dominator_printers:DominanceFrontierPrinterPass"),
    ("print<regions>", "function", "llvmpy_mid.analysis.region_info:RegionInfoPrinterPass"),
    ("print<branch-prob>", "function", "llvmpy_mid.analysis.block_frequency_printers:BranchProbabilityPrinterPass"),
    ("print<block-freq>", "function", "llvmpy_mid.analysis.block_frequency_printers:BlockFrequencyPrinterPass"),
    ("instnamer", "function", "llvmpy_mid.transform.utils.instnamer:InstNamerPass"),
    ("loop-simplify", "function", "llvmpy_mid.transform.utils.loop_simplify:LoopSimplifyPass"),
    ("dce", "function", "llvmpy_mid.transform.scalar.dce:DCEPass"),
    ("redundant-dbg-inst-elim", "function", "llvmpy_mid.transform.scalar.dce:RedundantDbgInstEliminationPass"),
    ("instsimplify", "function", "llvmpy_mid.transform.scalar.instsimplify:InstSimplifyPass"),
    ("break-crit-edges", "function", "llvmpy_mid.transform.utils.break_critical_edges:BreakCriticalEdgesPass"),
    ("mergereturn", "function", "llvmpy_mid.transform.utils.unify_function_exit_nodes:UnifyFunctionExitNodesPass"),
    ("unify-loop-exits", "function", "llvmpy_mid.transform.utils.unify_loop_exits:UnifyLoopExitsPass"),
    ("fix-irreducible", "function", "llvmpy_mid.transform.utils.fix_irreducible:FixIrreduciblePass"),
    ("lcssa", "function", "llvmpy_mid.transform.utils.lcssa:LCSSAPass"),
    ("sccp", "function", "llvmpy_mid.transform.scalar.sccp:SCCPPass"),
    ("reassociate", "function", "llvmpy_mid.transform.scalar.reassociate:ReassociatePass"),
    ("mem2reg", "function", "llvmpy_mid.transform.scalar.mem2reg:PromotePass"),
    ("reg2mem", "function", "llvmpy_mid.transform.scalar.reg2mem:RegToMemPass"),
    ("strip-dead-prototypes", "module", "llvmpy_mid.ipo.strip_dead_prototypes:StripDeadPrototypesPass"),
    ("inferattrs", "module", "llvmpy_mid.ipo.infer_function_attrs:InferFunctionAttrsPass"),
    ("mergefunc", "module", "llvmpy_mid.ipo.merge_functions:MergeFunctionsPass"),
    ("print<structural-hash>", "module", "llvmpy_mid.passes.structural_hash_printer:StructuralHashPrinterPass"),
    (
        "print<structural-hash><detailed>",
        "module",
        "llvmpy_mid.passes.structural_hash_printer:DetailedStructuralHashPrinterPass",
    ),
    ("strip", "module", "llvmpy_mid.ipo.strip_symbols:StripSymbolsPass"),
    ("strip-nondebug", "module", "llvmpy_mid.ipo.strip_symbols:StripNonDebugSymbolsPass"),
    ("strip-debug-declare", "module", "llvmpy_mid.ipo.strip_symbols:StripDebugDeclarePass"),
    ("strip-dead-debug-info", "module", "llvmpy_mid.ipo.strip_dead_debug_info:StripDeadDebugInfoPass"),
    ("print-lcg", "module", "llvmpy_mid.analysis.lazy_call_graph:LazyCallGraphPrinterPass"),
    ("print-callgraph", "module", "llvmpy_mid.analysis.call_graph:CallGraphPrinterPass"),
    ("print-callgraph-sccs", "module", "llvmpy_mid.analysis.call_graph:CallGraphSCCsPrinterPass"),
    ("lint", "function", "llvmpy_mid.analysis.lint:LintPass"),
    ("debugify", "module", "llvmpy_mid.transform.utils.debugify:DebugifyPass"),
    ("check-debugify", "module", "llvmpy_mid.transform.utils.debugify:CheckDebugifyPass"),
)
_DOT = "llvmpy_mid.analysis.dot_graphs:"
_BUILTIN_PASSES += (
    ("dot-cfg", "function", _DOT + "CFGPrinterPass"),
    ("dot-cfg-only", "function", _DOT + "CFGOnlyPrinterPass"),
    ("view-cfg", "function", _DOT + "CFGViewerPass"),
    ("view-cfg-only", "function", _DOT + "CFGOnlyViewerPass"),
    ("dot-dom", "function", _DOT + "DomPrinter"),
    ("dot-dom-only", "function", _DOT + "DomOnlyPrinter"),
    ("dot-post-dom", "function", _DOT + "PostDomPrinter"),
    ("dot-post-dom-only", "function", _DOT + "PostDomOnlyPrinter"),
    ("view-dom", "function", _DOT + "DomViewer"),
    ("view-dom-only", "function", _DOT + "DomOnlyViewer"),
    ("view-post-dom", "function", _DOT + "PostDomViewer"),
    ("view-post-dom-only", "function", _DOT + "PostDomOnlyViewer"),
    ("dot-callgraph", "module", _DOT + "CallGraphDOTPrinterPass"),
    ("view-callgraph", "module", _DOT + "CallGraphViewerPass"),
)

# Options of the debugify passes (declared here so the command line knows them before the
# pass module is imported; llvmpy_mid.transform.utils.debugify declares the same ones).
_NOOP = "llvmpy_mid.passes.noop_passes:"
_BUILTIN_PASSES += (
    ("no-op-module", "module", _NOOP + "NoOpModulePass"),
    ("no-op-cgscc", "cgscc", _NOOP + "NoOpCGSCCPass"),
    ("no-op-function", "function", _NOOP + "NoOpFunctionPass"),
    ("no-op-loop", "loop", _NOOP + "NoOpLoopPass"),
    ("no-op-loopnest", "loop", _NOOP + "NoOpLoopNestPass"),
    ("loop-instsimplify", "loop", "llvmpy_mid.transform.scalar.loop_inst_simplify:LoopInstSimplifyPass"),
    ("loop-deletion", "loop", "llvmpy_mid.transform.scalar.loop_deletion:LoopDeletionPass"),
    ("loop-simplifycfg", "loop", "llvmpy_mid.transform.scalar.loop_simplify_cfg:LoopSimplifyCFGPass"),
    ("make-guards-explicit", "function", "llvmpy_mid.transform.scalar.make_guards_explicit:MakeGuardsExplicitPass"),
)
_BUILTIN_ANALYSES: tuple[tuple[str, str, str], ...] = (
    ("no-op-module", "module", _NOOP + "NoOpModuleAnalysis"),
    ("no-op-cgscc", "cgscc", _NOOP + "NoOpCGSCCAnalysis"),
    ("no-op-function", "function", _NOOP + "NoOpFunctionAnalysis"),
    ("no-op-loop", "loop", _NOOP + "NoOpLoopAnalysis"),
    ("domtree", "function", "llvmpy_mid.passes.dominator_analyses:DominatorTreeAnalysis"),
    ("postdomtree", "function", "llvmpy_mid.passes.dominator_analyses:PostDominatorTreeAnalysis"),
    ("loops", "function", "llvmpy_mid.analysis.loop_info:LoopAnalysis"),
    ("scalar-evolution", "function", "llvmpy_mid.analysis.scalar_evolution:ScalarEvolutionAnalysis"),
    ("cycles", "function", "llvmpy_mid.analysis.cycle_info:CycleAnalysis"),
    ("domfrontier", "function", "llvmpy_mid.analysis.dominance_frontier:DominanceFrontierAnalysis"),
    ("regions", "function", "llvmpy_mid.analysis.region_info:RegionInfoAnalysis"),
    ("branch-prob", "function", "llvmpy_mid.analysis.block_frequency:BranchProbabilityAnalysis"),
    ("block-freq", "function", "llvmpy_mid.analysis.block_frequency:BlockFrequencyAnalysis"),
    ("lcg", "module", "llvmpy_mid.analysis.lazy_call_graph:LazyCallGraphAnalysis"),
    ("callgraph", "module", "llvmpy_mid.analysis.call_graph:CallGraphAnalysis"),
    ("verify", "module", "llvmpy_mid.passes.builtin_passes:VerifierAnalysis"),
    ("verify", "function", "llvmpy_mid.passes.builtin_passes:FunctionVerifierAnalysis"),
)
# ValueTracking's companions: assumptions, target library and target IR info.
_BUILTIN_ANALYSES += (
    ("assumptions", "function", "llvmpy_mid.analysis.assumption_cache:AssumptionAnalysis"),
    ("target-ir", "function", "llvmpy_mid.analysis.target_transform_info:TargetIRAnalysis"),
    ("target-lib-info", "function", "llvmpy_mid.analysis.target_library_info:TargetLibraryAnalysis"),
)
_BUILTIN_PASSES += (("print<assumptions>", "function", "llvmpy_mid.analysis.assumption_cache:AssumptionPrinterPass"),)
# The data-flow framework's analyses and printers (llvmpy_mid/analysis/dataflow/).
_DATAFLOW = "llvmpy_mid.analysis.dataflow."
_BUILTIN_PASSES += (
    ("print<liveness>", "function", _DATAFLOW + "printer:LivenessPrinterPass"),
    ("print<reaching-defs>", "function", _DATAFLOW + "printer:ReachingDefinitionsPrinterPass"),
    ("print<available-exprs>", "function", _DATAFLOW + "printer:AvailableExpressionsPrinterPass"),
    ("print<anticipated-exprs>", "function", _DATAFLOW + "printer:AnticipatedExpressionsPrinterPass"),
    ("print<lcm>", "function", _DATAFLOW + "printer:LazyCodeMotionPrinterPass"),
    # Ours, not an LLVM 19 pass: the course text's partial-redundancy elimination as a transform.
    ("lazy-code-motion", "function", "llvmpy_mid.transform.scalar.lazy_code_motion:LazyCodeMotionPass"),
)
_BUILTIN_ANALYSES += (
    ("liveness", "function", _DATAFLOW + "liveness:LivenessAnalysis"),
    ("reaching-defs", "function", _DATAFLOW + "reaching_definitions:ReachingDefinitionsAnalysis"),
    ("available-exprs", "function", _DATAFLOW + "available_expressions:AvailableExpressionsAnalysis"),
    ("anticipated-exprs", "function", _DATAFLOW + "anticipated_expressions:AnticipatedExpressionsAnalysis"),
    ("lcm", "function", _DATAFLOW + "lazy_code_motion:LazyCodeMotionAnalysis"),
)
# Dead-code and lowering passes (llvmpy_mid/transform/scalar, transform/utils).
_BUILTIN_PASSES += (
    ("lower-expect", "function", "llvmpy_mid.transform.scalar.lower_expect_intrinsic:LowerExpectIntrinsicPass"),
    ("lower-atomic", "function", "llvmpy_mid.transform.scalar.lower_atomic:LowerAtomicPass"),
    ("lower-invoke", "function", "llvmpy_mid.transform.utils.lower_invoke:LowerInvokePass"),
    ("lower-switch", "function", "llvmpy_mid.transform.utils.lower_switch:LowerSwitchPass"),
    ("adce", "function", "llvmpy_mid.transform.scalar.adce:ADCEPass"),
    ("print<demanded-bits>", "function", "llvmpy_mid.analysis.demanded_bits:DemandedBitsPrinterPass"),
    ("print<cost-model>", "function", "llvmpy_mid.analysis.target_transform_info:CostModelPrinterPass"),
    ("bdce", "function", "llvmpy_mid.transform.scalar.bdce:BDCEPass"),
    ("lower-constant-intrinsics", "function", "llvmpy_mid.transform.scalar.lower_constant_intrinsics:LowerConstantIntrinsicsPass"),
)
_BUILTIN_PASSES += (("loop-sink", "function", "llvmpy_mid.transform.scalar.loop_sink:LoopSinkPass"),)
_BUILTIN_PASSES += (
    ("print<scalar-evolution>", "function", "llvmpy_mid.analysis.scalar_evolution_printer:ScalarEvolutionPrinterPass"),
    ("verify<scalar-evolution>", "function", "llvmpy_mid.analysis.scalar_evolution_printer:ScalarEvolutionVerifierPass"),
)
_BUILTIN_PASSES += (
    ("verify<domtree>", "function", "llvmpy_mid.passes.verify_analyses:DominatorTreeVerifierPass"),
    ("verify<loops>", "function", "llvmpy_mid.passes.verify_analyses:LoopVerifierPass"),
    ("verify<regions>", "function", "llvmpy_mid.passes.verify_analyses:RegionInfoVerifierPass"),
)
for _n, _k, _s in _BUILTIN_PASSES:
    REGISTRY.add_pass(_n, _k, _s)

#: The built-in passes' own options (``-name=value``), declared here so the command line knows
#: them before any pass module is imported: (name, kind, default, help, pass).
_BUILTIN_OPTIONS: tuple[tuple[str, str, bool | int | str, str, str], ...] = (
    ("debugify-level", "str", "location+variables", "Kind of debug info to add", "debugify"),
    ("debugify-quiet", "bool", False, "Suppress verbose debugify output", "debugify"),
    ("mergefunc-use-aliases", "bool", False, "Allow mergefunc to create aliases", "mergefunc"),
    (
        "mergefunc-preserve-debug-info",
        "bool",
        False,
        "Preserve debug info in thunk when mergefunc transformations are made.",
        "mergefunc",
    ),
    (
        "mergefunc-verify",
        "uint",
        0,
        "How many functions in a module could be used for MergeFunctions to pass a basic correctness check. "
        "'0' disables this check. Works only with '-debug' key.",
        "mergefunc",
    ),
    ("mergefunc-explain", "bool", False, "Explain why hash-equal functions were not merged (llvmpy_mid)", "mergefunc"),
    ("cfg-func-name", "str", "", "The name of a function (or its substring) whose CFG is viewed/printed.", "dot-cfg"),
    ("cfg-dot-filename-prefix", "str", "", "The prefix used for the CFG dot file names.", "dot-cfg"),
    ("cfg-heat-colors", "bool", True, "Show heat colors in CFG", "dot-cfg"),
    ("cfg-weights", "bool", False, "Show edges labeled with weights", "dot-cfg"),
    ("cfg-raw-weights", "bool", False, "Use raw weights for labels. Use percentages as default.", "dot-cfg"),
    ("cfg-hide-unreachable-paths", "bool", False, "", "dot-cfg"),
    ("cfg-hide-deoptimize-paths", "bool", False, "", "dot-cfg"),
    ("callgraph-dot-filename-prefix", "str", "", "The prefix used for the CallGraph dot file names.", "dot-callgraph"),
    ("print-region-style", "str", "none", "style of printing regions (none, bb, rn)", "print<regions>"),
)
_BUILTIN_OPTIONS += (
    ("likely-branch-weight", "uint", 2000, "Weight of the branch likely to be taken (default = 2000)", "lower-expect"),
    ("unlikely-branch-weight", "uint", 1, "Weight of the branch unlikely to be taken (default = 1)", "lower-expect"),
    ("adce-remove-control-flow", "bool", True, "", "adce"),
    ("adce-remove-loops", "bool", False, "", "adce"),
    (
        "object-size-offset-visitor-max-visit-instructions",
        "uint",
        100,
        "Maximum number of instructions for ObjectSizeOffsetVisitor to look at",
        "lower-constant-intrinsics",
    ),
)
# opt-19's switch to debug records; records are the only in-memory form here, so it changes nothing.
_BUILTIN_OPTIONS += (
    ("try-experimental-debuginfo-iterators", "bool", False, "Enable debuginfo iterator positions, if they're built in", ""),
)
_BUILTIN_OPTIONS += (
    (
        "max-booleans-in-control-flow-hub",
        "uint",
        32,
        "Set the maximum number of outgoing blocks for using a boolean value to record the exiting block in "
        "CreateControlFlowHub.",
        "unify-loop-exits",
    ),
)
# opt's target-library options (read by the target-lib-info analysis).
_BUILTIN_OPTIONS += (
    ("disable-builtin", "str", "", "Disable specific target library builtin function", ""),
    ("disable-simplify-libcalls", "bool", False, "Disable simplify-libcalls", ""),
)
# InstCombine's and AggressiveInstCombine's cl::opt options (read through
# llvmpy_mid.transform.instcombine.combiner.option), and IR's -disable-i2p-p2i-opt.
_BUILTIN_OPTIONS += (
    ("instcombine-code-sinking", "bool", True, "Enable code sinking", "instcombine"),
    ("instcombine-max-sink-users", "uint", 32, "Maximum number of undroppable users for instruction sinking", "instcombine"),
    ("instcombine-maxarray-size", "uint", 1024, "Maximum array size considered when doing a combine", "instcombine"),
    ("instcombine-lower-dbg-declare", "uint", 1, "", "instcombine"),
    ("instcombine-max-num-phis", "uint", 512, "Maximum number phis to handle in intptr/ptrint folding", "instcombine"),
    ("instcombine-guard-widening-window", "uint", 3, "How wide an instruction window to bypass looking for another guard", "instcombine"),
    ("instcombine-max-copied-from-constant-users", "uint", 300, "Maximum users to visit in copy from constant transform", "instcombine"),
    ("instcombine-negator-enabled", "bool", True, "Should we attempt to sink negations?", "instcombine"),
    (
        "instcombine-negator-max-depth",
        "uint",
        0xFFFFFFFF,
        "What is the maximal lookup depth when trying to check for viability of negation sinking.",
        "instcombine",
    ),
    ("instcombine-verify-known-bits", "bool", False, "Verify that computeKnownBits() and SimplifyDemandedBits() are consistent", "instcombine"),
    ("enable-infer-alignment-pass", "bool", True, "Enable the InferAlignment pass, disabling alignment inference in InstCombine", "instcombine"),
    ("disable-i2p-p2i-opt", "bool", False, "Disables inttoptr/ptrtoint roundtrip optimization", ""),
    ("aggressive-instcombine-max-scan-instrs", "uint", 64, "Max number of instructions to scan for aggressive instcombine.", "aggressive-instcombine"),
    (
        "strncmp-inline-threshold",
        "uint",
        3,
        "The maximum length of a constant string for a builtin string cmp call eligible for inlining. The default value is 3.",
        "aggressive-instcombine",
    ),
    ("memchr-inline-threshold", "uint", 3, "The maximum length of a constant string to inline a memchr call.", "aggressive-instcombine"),
)
# Reassociate's cl::opt (Reassociate.cpp).
_BUILTIN_OPTIONS += (
    (
        "reassociate-use-cse-local",
        "bool",
        True,
        "Only reorder expressions within a basic block when exposing CSE opportunities",
        "reassociate",
    ),
)
# LibCallSimplifier's options (SimplifyLibCalls.cpp; read by InstCombine's library-call folds).
_BUILTIN_OPTIONS += (
    ("enable-double-float-shrink", "bool", False, "Enable unsafe double to float shrinking for math lib calls", "instcombine"),
    ("optimize-hot-cold-new", "bool", False, "Enable hot/cold operator new library calls", "instcombine"),
    (
        "optimize-existing-hot-cold-new",
        "bool",
        False,
        "Enable optimization of existing hot/cold operator new library calls",
        "instcombine",
    ),
)
# SimplifyCFG's cl::opt options (SimplifyCFG.cpp and SimplifyCFGPass.cpp; read by
# llvmpy_mid.transform.utils.simplify_cfg.option_enabled / option_int and the pass).
_BUILTIN_OPTIONS += (
    ("simplifycfg-require-and-preserve-domtree", "bool", False,
     "Temorary development switch used to gradually uplift SimplifyCFG into preserving DomTree,", "simplifycfg"),
    ("phi-node-folding-threshold", "uint", 2, "Control the amount of phi node folding to perform (default = 2)", "simplifycfg"),
    ("two-entry-phi-node-folding-threshold", "uint", 4,
     "Control the maximal total instruction cost that we are willing to speculatively execute to fold a 2-entry PHI node "
     "into a select (default = 4)", "simplifycfg"),
    ("simplifycfg-hoist-common", "bool", True, "Hoist common instructions up to the parent block", "simplifycfg"),
    ("simplifycfg-hoist-common-skip-limit", "uint", 20, "Allow reordering across at most this many instructions when hoisting",
     "simplifycfg"),
    ("simplifycfg-sink-common", "bool", True, "Sink common instructions down to the end block", "simplifycfg"),
    ("simplifycfg-hoist-cond-stores", "bool", True, "Hoist conditional stores if an unconditional store precedes", "simplifycfg"),
    ("simplifycfg-merge-cond-stores", "bool", True,
     "Hoist conditional stores even if an unconditional store does not precede - hoist multiple conditional stores into a "
     "single predicated store", "simplifycfg"),
    ("simplifycfg-merge-cond-stores-aggressively", "bool", False,
     "When merging conditional stores, do so even if the resultant basic blocks are unlikely to be if-converted as a result",
     "simplifycfg"),
    ("speculate-one-expensive-inst", "bool", True, "Allow exactly one expensive instruction to be speculatively executed",
     "simplifycfg"),
    ("max-speculation-depth", "uint", 10,
     "Limit maximum recursion depth when calculating costs of speculatively executed instructions", "simplifycfg"),
    ("simplifycfg-max-small-block-size", "int", 10, "Max size of a block which is still considered small enough to thread through",
     "simplifycfg"),
    ("simplifycfg-branch-fold-threshold", "uint", 2, "Maximum cost of combining conditions when folding branches", "simplifycfg"),
    ("simplifycfg-branch-fold-common-dest-vector-multiplier", "uint", 2,
     "Multiplier to apply to threshold when determining whether or not to fold branch to common destination when vector "
     "operations are present", "simplifycfg"),
    ("simplifycfg-merge-compatible-invokes", "bool", True, "Allow SimplifyCFG to merge invokes together when appropriate",
     "simplifycfg"),
    ("max-switch-cases-per-result", "uint", 16, "Limit cases to analyze when converting a switch to select", "simplifycfg"),
    ("bonus-inst-threshold", "uint", 1, "Control the number of bonus instructions (default = 1)", "simplifycfg"),
    ("keep-loops", "bool", True, "Preserve canonical loop structure (default = true)", "simplifycfg"),
    ("switch-range-to-icmp", "bool", False, "Convert switches into an integer range comparison (default = false)", "simplifycfg"),
    ("switch-to-lookup", "bool", False, "Convert switches to lookup tables (default = false)", "simplifycfg"),
    ("forward-switch-cond", "bool", False, "Forward switch condition to phi ops (default = false)", "simplifycfg"),
    ("hoist-common-insts", "bool", False, "hoist common instructions (default = false)", "simplifycfg"),
    ("sink-common-insts", "bool", False, "Sink common instructions (default = false)", "simplifycfg"),
    ("speculate-unpredictables", "bool", False, "Speculate unpredictable branches (default = false)", "simplifycfg"),
)
# TargetTransformInfo.cpp and CostModel.cpp (llvmpy_mid/analysis/target_transform_info.py).
_BUILTIN_OPTIONS += (
    ("predictable-branch-threshold", "uint", 99, "Use this to override the target's predictable branch threshold (%).",
     "target-ir"),
    ("cost-kind", "str", "throughput", "Target cost kind", "print<cost-model>"),
    ("type-based-intrinsic-cost", "bool", False, "Calculate intrinsics cost based only on argument types",
     "print<cost-model>"),
)
# LoopSink.cpp (llvmpy_mid/transform/scalar/loop_sink.py).
_BUILTIN_OPTIONS += (
    ("sink-freq-percent-threshold", "uint", 90,
     "Do not sink instructions that require cloning unless they execute less than this percent of the time.",
     "loop-sink"),
    ("max-uses-for-sinking", "uint", 30, "Do not sink instructions that have too many uses.", "loop-sink"),
    ("loop-deletion-enable-symbolic-execution", "bool", True,
     "Break backedge through symbolic execution of 1st iteration attempting to prove that the backedge is never taken",
     "loop-deletion"),
    ("enable-loop-simplifycfg-term-folding", "bool", True, "", "loop-simplifycfg"),
    # LCSSA.cpp and ScalarEvolution.cpp: their checks are assertions, which opt-19 (a release
    # build) does not run; the options are accepted.
    ("verify-loop-lcssa", "bool", False, "Verify loop lcssa form (time consuming)", "lcssa"),
    ("verify-scev", "bool", False, "Verify ScalarEvolution's backedge taken counts (slow)", "scalar-evolution"),
    ("verify-scev-strict", "bool", False, "Enable stricter verification with -verify-scev is passed", "scalar-evolution"),
    ("scalar-evolution-classify-expressions", "bool", True,
     "When printing analysis, include information on every instruction", "print<scalar-evolution>"),
    ("guards-predicate-pass-branch-weight", "uint", 1 << 20,
     "The probability of a guard failing is assumed to be the reciprocal of this value (default = 1 << 20)",
     "make-guards-explicit"),
)
for _name, _kind, _default, _help, _owner in _BUILTIN_OPTIONS:
    declare_option(_name, _kind, _default, _help, _owner)
# The hot/cold operator new hints (LLVM's HotColdHintParser: 0 to 255).
declare_option("cold-new-hint-value", "uint", 1, "Value to pass to hot/cold operator new for cold allocation", "instcombine", 255)
declare_option(
    "notcold-new-hint-value", "uint", 128, "Value to pass to hot/cold operator new for notcold (warm) allocation", "instcombine", 255
)
declare_option("hot-new-hint-value", "uint", 254, "Value to pass to hot/cold operator new for hot allocation", "instcombine", 255)


def _check_pass_class(name: str, cls: object) -> None:
    """A registered pass must be a class derived from ``Pass`` (the managers need its interface)."""
    from llvmpy_mid.passes.pass_manager import Pass

    if not (isinstance(cls, type) and issubclass(cls, Pass)):
        what = cls.__name__ if isinstance(cls, type) else repr(cls)
        raise TypeError(
            "register_pass('%s'): %s is not a Pass; subclass llvmpy_mid.passes.Pass"
            " (class %s(Pass[Function]): ... with run(self, unit, am) -> PreservedAnalyses)" % (name, what, what)
        )


def _parse_level(params: str) -> str:
    from llvmpy_mid.passes.default_pipeline import parse_level

    return parse_level(params)


def _parse_instcombine(params: str) -> object:
    from llvmpy_mid.transform.instcombine.driver import parse_instcombine_options

    return parse_instcombine_options(params)


REGISTRY.add_pass(
    "instcombine",
    "function",
    "llvmpy_mid.transform.instcombine.driver:InstCombinePass",
    _parse_instcombine,
    params_help="<no-use-loop-info;use-loop-info;no-verify-fixpoint;verify-fixpoint;max-iterations=N>",
)
def _parse_simplifycfg(params: str) -> object:
    from llvmpy_mid.transform.scalar.simplify_cfg_pass import parse_simplify_cfg_options

    return parse_simplify_cfg_options(params)


REGISTRY.add_pass(
    "simplifycfg",
    "function",
    "llvmpy_mid.transform.scalar.simplify_cfg_pass:SimplifyCFGPass",
    _parse_simplifycfg,
    params_help="<no-forward-switch-cond;forward-switch-cond;no-switch-range-to-icmp;switch-range-to-icmp;"
    "no-switch-to-lookup;switch-to-lookup;no-keep-loops;keep-loops;no-hoist-common-insts;hoist-common-insts;"
    "no-sink-common-insts;sink-common-insts;bonus-inst-threshold=N>",
)
def _parse_sroa(params: str) -> object:
    from llvmpy_mid.transform.scalar.sroa import parse_sroa_options

    return parse_sroa_options(params)


REGISTRY.add_pass(
    "sroa", "function", "llvmpy_mid.transform.scalar.sroa:SROAPass", _parse_sroa, params_help="<preserve-cfg;modify-cfg>"
)
declare_option("sroa-skip-mem2reg", "bool", False, "", "sroa")
REGISTRY.add_pass(
    "aggressive-instcombine",
    "function",
    "llvmpy_mid.transform.aggressive_instcombine.pass_:AggressiveInstCombinePass",
)
REGISTRY.add_pass(
    "default", "module", "llvmpy_mid.passes.default_pipeline:DefaultPipelinePass", _parse_level, params_help="<O0;O1;O2;O3;Os;Oz>"
)
_BUILTIN_ANALYSES += (("demanded-bits", "function", "llvmpy_mid.analysis.demanded_bits:DemandedBitsAnalysis"),)
_BUILTIN_ANALYSES += (("iv-users", "loop", "llvmpy_mid.analysis.iv_users:IVUsersAnalysis"),)
REGISTRY.add_pass("print<iv-users>", "loop", "llvmpy_mid.analysis.iv_users:IVUsersPrinterPass")
for _n, _k, _s in _BUILTIN_ANALYSES:
    REGISTRY.add_analysis(_n, _k, _s)


def _register_memory_rows() -> None:
    """The alias-analysis, MemorySSA and redundancy-elimination rows (``registry_memory.py``)
    and the interprocedural rows (``registry_ipo.py``)."""
    from llvmpy_mid.passes import registry_ipo, registry_memory

    for rm in (registry_memory, registry_ipo):
        _register_rows(rm)


def _register_rows(rm: Any) -> None:
    """Add one rows module's passes, analyses, options and parameterised passes."""
    for n, k, s in rm.PASSES:
        REGISTRY.add_pass(n, k, s)
    for n, k, s in rm.ANALYSES:
        REGISTRY.add_analysis(n, k, s)
    for name, kind, default, help_text, owner in rm.OPTIONS_ROWS:
        assert isinstance(default, (bool, int, str))
        declare_option(name, kind, default, help_text, owner)
    for n, k, s, parser_spec, params_help in rm.PARAM_PASSES:
        REGISTRY.add_pass(n, k, s, _lazy_parser(parser_spec), params_help=params_help)


def _lazy_parser(spec: str) -> ParamParser:
    def parse(params: str) -> object:
        module, _, name = spec.partition(":")
        return getattr(importlib.import_module(module), name)(params)

    return parse


_register_memory_rows()

# LICM (LLVM LICM.cpp; llvmpy_mid/transform/scalar/licm.py): licm and lnicm with their options.
_LICM = "llvmpy_mid.transform.scalar.licm:"
for _n, _c in (("licm", "LICMPass"), ("lnicm", "LNICMPass")):
    REGISTRY.add_pass(_n, "loop", _LICM + _c, _lazy_parser(_LICM + "parse_licm_options"), params_help="<allowspeculation>")
for _name, _kind, _default, _help in (
    ("disable-licm-promotion", "bool", False, "Disable memory promotion in LICM pass"),
    ("licm-control-flow-hoisting", "bool", False, "Enable control flow (and PHI) hoisting in LICM"),
    ("licm-force-thread-model-single", "bool", False, "Force thread model single in LICM pass"),
    ("licm-max-num-uses-traversed", "uint", 8,
     "Max num uses visited for identifying load invariance in loop using invariant start (default = 8)"),
    ("licm-max-num-fp-reassociations", "uint", 5, "Set upper limit for the number of transformations performed "
     "during a single round of hoisting the reassociated expressions."),
    ("licm-max-num-int-reassociations", "uint", 5, "Set upper limit for the number of transformations performed "
     "during a single round of hoisting the reassociated expressions."),
    ("licm-mssa-optimization-cap", "uint", 100, "Enable imprecision in LICM in pathological cases, in exchange "
     "for faster compile. Caps the MemorySSA clobbering calls."),
    ("licm-mssa-max-acc-promotion", "uint", 250, "[LICM & MemorySSA] When MSSA in LICM is disabled, this has no "
     "effect. When MSSA in LICM is enabled, then this is the maximum number of accesses allowed to be present in a "
     "loop in order to enable memory promotion."),
):
    declare_option(_name, _kind, _default, _help, "licm")


def register_pass(
    name: str, kind: str, *, params: ParamParser | None = None, params_help: str | None = None
) -> Callable[[T], T]:
    """Class decorator registering a pass in the default registry::

        @register_pass("my-pass", "function")
        class MyPass(Pass[Function]): ...
    """
    return REGISTRY.register_pass(name, kind, params=params, params_help=params_help)


def register_analysis(name: str, kind: str) -> Callable[[T], T]:
    """Class decorator registering an analysis (usable in ``require<name>``) in the default registry."""
    return REGISTRY.register_analysis(name, kind)


def kind_of(spelled: str) -> set[str]:
    """The kinds of ``spelled`` in the default registry (the ``nest`` callback)."""
    return REGISTRY.kind_of(spelled)


def no_adaptor(spelled: str) -> bool:
    """The ``nest(no_adaptor=...)`` callback of the default registry."""
    return REGISTRY.no_adaptor(spelled)


def lookup(spelled: str, kind: str) -> PassEntry | None:
    return REGISTRY.lookup(spelled, kind)


def all_names(kind: str | None = None, *, analyses: bool = False) -> list[str]:
    return REGISTRY.all_names(kind, analyses=analyses)

# LoopRotation.cpp (llvmpy_mid/transform/scalar/loop_rotation.py).
REGISTRY.add_pass(
    "loop-rotate",
    "loop",
    "llvmpy_mid.transform.scalar.loop_rotation:LoopRotatePass",
    _lazy_parser("llvmpy_mid.transform.scalar.loop_rotation:parse_loop_rotate_options"),
    params_help="<no-header-duplication;header-duplication;no-prepare-for-lto;prepare-for-lto>",
)
declare_option("rotation-max-header-size", "uint", 16, "The default maximum header size for automatic loop rotation",
               "loop-rotate")
declare_option("rotation-prepare-for-lto", "bool", False, "Run loop-rotation in the prepare-for-lto stage. This option "
               "should be used for testing only.", "loop-rotate")
declare_option("loop-rotate-multi", "bool", False,
               "Allow loop rotation multiple times in order to reach a better latch exit", "loop-rotate")

# IndVarSimplify.cpp (llvmpy_mid/transform/scalar/ind_var_simplify*.py): indvars and its options.
REGISTRY.add_pass("indvars", "loop", "llvmpy_mid.transform.scalar.ind_var_simplify:IndVarSimplifyPass")
REGISTRY.add_analysis("should-run-extra-simple-loop-unswitch", "loop",
                      "llvmpy_mid.transform.scalar.ind_var_simplify:ShouldRunExtraSimpleLoopUnswitch")
for _name, _kind, _default, _help in (
    ("replexitval", "str", "cheap", "Choose the strategy to replace exit value in IndVarSimplify"),
    ("indvars-post-increment-ranges", "bool", True, "Use post increment control-dependent ranges in IndVarSimplify"),
    ("disable-lftr", "bool", False, "Disable Linear Function Test Replace optimization"),
    ("indvars-predicate-loops", "bool", True, "Predicate conditions in read only loops"),
    ("indvars-widen-indvars", "bool", True, "Allow widening of indvars to eliminate s/zext"),
):
    declare_option(_name, _kind, _default, _help, "indvars")
# ScalarEvolutionExpander.cpp (llvmpy_mid/transform/utils/scalar_evolution_expander*.py).
declare_option("scev-cheap-expansion-budget", "uint", 4, "When performing SCEV expansion only if it is cheap to do, "
               "this controls the budget that is considered cheap (default = 4)", "indvars")
