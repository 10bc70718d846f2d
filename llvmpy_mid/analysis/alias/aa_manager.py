"""``AAManager``: the function analysis that builds :class:`AAResults` from the
``-aa-pipeline`` (LLVM ``AAManager`` in ``lib/Analysis/AliasAnalysis.cpp`` and
``PassBuilder::parseAAPipeline`` / ``buildDefaultAAPipeline``).

The pipeline is a comma-separated list of AA names, or ``default`` (``basic-aa``,
``scoped-noalias-aa``, ``tbaa``, then ``globals-aa`` if a cached module result exists).
It is read from the ``aa-pipeline`` option (``llvmpy-opt -aa-pipeline=...``,
``run_passes(..., options={"aa-pipeline": ...})``). A function AA is computed through the
function analysis manager, so ``-debug-pass-manager`` logs it as opt-19 does, and
becomes a dependency: its invalidation invalidates the AAManager result. A module AA
(``globals-aa``) is only used when its result is already cached on the module, found
through ``OuterAnalysisManagerProxy<ModuleAnalysisManager, Function>`` as LLVM does.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.preserved import PreservedAnalyses

#: AA name -> (import spec of its analysis class, is a module analysis), in LLVM's
#: ``PassRegistry.def`` spelling.
AA_ANALYSES: dict[str, tuple[str, bool]] = {
    "basic-aa": ("llvmpy_mid.analysis.alias.basic_aa:BasicAA", False),
    "scoped-noalias-aa": ("llvmpy_mid.analysis.alias.scoped_noalias_aa:ScopedNoAliasAA", False),
    "tbaa": ("llvmpy_mid.analysis.alias.type_based_aa:TypeBasedAA", False),
    "globals-aa": ("llvmpy_mid.analysis.alias.globals_aa:GlobalsAA", True),
}

DEFAULT_AA_PIPELINE: tuple[str, ...] = ("basic-aa", "scoped-noalias-aa", "tbaa", "globals-aa")

#: LLVM 19's other alias analyses (``PassRegistry.def``), not built here yet.
LLVM19_AA_NOT_IMPLEMENTED: frozenset[str] = frozenset(("objc-arc-aa", "scev-aa"))


def _load(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def parse_aa_pipeline(text: str) -> tuple[str, ...]:
    """The AA names of ``-aa-pipeline=text`` (``default`` expands); an unknown name is a
    :class:`PipelineError` with opt-19's wording."""
    if text == "default":
        return DEFAULT_AA_PIPELINE
    names: list[str] = []
    rest = text
    while rest:
        name, _, rest = rest.partition(",")
        if name not in AA_ANALYSES:
            if name in LLVM19_AA_NOT_IMPLEMENTED:
                from llvmpy_mid.passes.llvm_pass_names import NOT_IMPLEMENTED

                raise PipelineError("unknown alias analysis name '%s': %s" % (name, NOT_IMPLEMENTED))
            raise PipelineError("unknown alias analysis name '%s'" % name)
        names.append(name)
    return tuple(names)


class AAManagerResult(AAResults):
    """:class:`AAResults` that knows which function analyses it was built from."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        if not pa.checker(AAManager).preserved_when_stateless():
            return True
        return any(inv.invalidate(dep) for dep in self.dependencies)


class AAManager(FunctionAnalysis[AAResults]):
    """LLVM ``AAManager`` (pipeline name ``aa``)."""

    name: ClassVar[str] = "aa"

    def __init__(self, pipeline: tuple[str, ...] | None = None) -> None:
        self.pipeline = pipeline
        """The AA names; None reads the ``aa-pipeline`` option at each run."""

    def run(self, unit: Function, am: AnalysisManager[Function]) -> AAResults:
        pipeline = self.pipeline
        if pipeline is None:
            text = OPTIONS.value("aa-pipeline")
            pipeline = parse_aa_pipeline(str(text) if text is not None else "default")
        result = AAManagerResult(am.get_result(TargetLibraryAnalysis, unit))
        for name in pipeline:
            spec, is_module = AA_ANALYSES[name]
            cls = _load(spec)
            if is_module:
                from llvmpy_mid.passes.proxies import ModuleAnalysisManagerFunctionProxy

                proxy = am.get_result(ModuleAnalysisManagerFunctionProxy, unit)
                module = unit.parent
                found = proxy.get_cached_result(cls, module) if module is not None else None
                if found is not None:
                    result.add_provider(found)
                    proxy.register_outer_analysis_invalidation(cls, AAManager)
            else:
                result.add_provider(am.get_result(cls, unit))
                result.dependencies.append(cls)
        return result


def get_aa(am: AnalysisManager[Function], fn: Function) -> AAResults:
    """``AM.getResult<AAManager>(F)``."""
    return am.get_result(AAManager, fn)
