"""Pipeline text to pass managers (LLVM's ``PassBuilder::parsePassPipeline``).

What: :func:`build_pipeline` reads ``opt -passes=`` text and returns the
:class:`~llvmpy_mid.passes.pass_manager.ModulePassManager` that runs it.

How: :func:`~llvmpy_mid.passes.pipeline_text.parse_pipeline` reads the text,
:func:`~llvmpy_mid.passes.pipeline_text.nest` resolves kinds and implicit
adaptors with the registry's ``kind_of``, then each element becomes a pass:
``function(...)`` a module-to-function adaptor around a function pass manager,
``require<X>`` / ``invalidate<X>`` / ``invalidate<all>`` the utility passes,
anything else the registry's class (built with its parsed parameters).  Errors
are :class:`~llvmpy_mid.errors.PipelineError` worded as opt-19's; for an
unknown pass a "did you mean" suggestion (difflib) is appended, our addition.

What it does not do: CGSCC and loop pipelines (``cgscc(...)``, ``loop(...)``,
``devirt<N>``, ``coro-cond``, ``repeat<N>``) are refused as not supported yet;
``function<eager-inv>`` is accepted and treated as plain ``function``;
``default<On>`` is not expanded.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, Sequence

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.pass_manager import (
    FunctionPassManager,
    InvalidateAllAnalysesPass,
    InvalidateAnalysisPass,
    ModulePassManager,
    ModuleToFunctionPassAdaptor,
    Pass,
    RequireAnalysisPass,
)
from llvmpy_mid.passes.pipeline_text import PipelineElement, nest, parse_pipeline
from llvmpy_mid.passes.registry import REGISTRY, PassRegistry

_UNKNOWN = re.compile(r"^unknown (?:(module|cgscc|function|loop) pass|pass name) '(.*)'$")


def suggest(bad: str, kind: str | None, registry: PassRegistry) -> str | None:
    """The registered name closest to ``bad`` (of ``kind`` when given), if any is close."""
    candidates = registry.all_names(kind)
    found = difflib.get_close_matches(bad, candidates, n=1, cutoff=0.6)
    return found[0] if found else None


def _with_suggestion(exc: PipelineError, registry: PassRegistry) -> PipelineError:
    message = str(exc)
    m = _UNKNOWN.match(message)
    if m is None:
        return exc
    name = suggest(m.group(2), m.group(1), registry)
    if name is None:
        return exc
    return PipelineError("%s (did you mean '%s'?)" % (message, name))


def _make_pass(e: PipelineElement, kind: str, registry: PassRegistry) -> Pass[Any]:
    pseudo = registry.pseudo_pass(e.spelled, kind)
    if pseudo is not None:
        what, entry = pseudo
        if entry is None:
            return InvalidateAllAnalysesPass()
        analysis = entry.load()
        return RequireAnalysisPass(analysis) if what == "require" else InvalidateAnalysisPass(analysis)
    entry = registry.lookup(e.spelled, kind)
    if entry is None:  # nest accepted it, so this is a registry change in between
        raise PipelineError("unknown %s pass '%s'" % (kind, e.spelled))
    params = None if entry.name == e.spelled else e.params
    obj = entry.instantiate(params)
    if not isinstance(obj, Pass):
        raise PipelineError("'%s' (%s) is not a pass" % (e.spelled, entry.spec))
    return obj


def _unsupported(e: PipelineElement) -> PipelineError:
    return PipelineError("'%s' pipelines are not supported yet" % e.spelled)


def _function_passes(elements: Sequence[PipelineElement], registry: PassRegistry) -> FunctionPassManager:
    fpm = FunctionPassManager()
    for e in elements:
        if e.children is not None:
            raise _unsupported(e)
        fp: Pass[Function] = _make_pass(e, "function", registry)
        fpm.add(fp)
    return fpm


def build_pipeline(text: str, *, registry: PassRegistry | None = None) -> ModulePassManager:
    """The module pass manager running ``text`` (``opt -passes=`` syntax)."""
    reg = registry if registry is not None else REGISTRY
    try:
        elements = nest(parse_pipeline(text), reg.kind_of, no_adaptor=reg.no_adaptor)
    except PipelineError as exc:
        raise _with_suggestion(exc, reg) from exc
    mpm = ModulePassManager()
    for e in elements:
        if e.children is None:
            mp: Pass[Module] = _make_pass(e, "module", reg)
            mpm.add(mp)
        elif e.name == "function":
            mpm.add(ModuleToFunctionPassAdaptor(_function_passes(e.children, reg)))
        else:
            raise _unsupported(e)
    return mpm


__all__ = ["build_pipeline", "suggest"]
