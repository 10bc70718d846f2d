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
unknown pass that LLVM 19 has (``passes/llvm_pass_names.py``) the message goes on
``: an LLVM 19 pass not implemented in llvmpy_mid yet``, for any other a "did you mean"
suggestion (difflib) is appended, our addition. ``default<On>`` is refused with a
:class:`~llvmpy_mid.passes.default_pipeline.IncompletePipelineError` naming the LLVM 19
passes its pipeline still lacks, unless ``allow_partial_pipeline=True`` (then the passes that
exist run).

A pass that :func:`nest` wrapped in an implicit adaptor is given to the
adaptor directly; a written ``function(...)``, ``cgscc(...)``, ``loop(...)``
gets a pass manager (the difference shows in ``-print-changed``, as in opt).

What it does not do: ``coro-cond`` and ``repeat<N>`` are
refused as not supported yet; ``function<no-rerun>`` is accepted and treated
as plain ``function``.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, Sequence

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.pass_manager import (
    FunctionPassManager,
    PassManager,
    InvalidateAllAnalysesPass,
    InvalidateAnalysisPass,
    ModulePassManager,
    ModuleToFunctionPassAdaptor,
    Pass,
    RequireAnalysisPass,
)
from llvmpy_mid.passes.pipeline_text import PipelineElement, nest, parse_pipeline, print_pipeline
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
    from llvmpy_mid.passes.llvm_pass_names import not_implemented_note

    note = not_implemented_note(m.group(2), m.group(1))
    if note is not None:
        return PipelineError("%s: %s" % (message, note))
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


def _single_or_manager(e: PipelineElement, passes: list[Pass[Any]], manager: type[PassManager[Any]]) -> Pass[Any]:
    """An implicit adaptor wraps its one pass directly (as opt-19 does); a written one a manager."""
    if e.implicit and len(passes) == 1:
        return passes[0]
    return manager(passes)


def _loop_passes(elements: Sequence[PipelineElement], reg: PassRegistry) -> list[Pass[Any]]:
    out: list[Pass[Any]] = []
    for e in elements:
        if e.children is not None:
            raise _unsupported(e)
        out.append(_make_pass(e, "loop", reg))
    return out


def _function_passes(elements: Sequence[PipelineElement], reg: PassRegistry) -> list[Pass[Any]]:
    out: list[Pass[Any]] = []
    for e in elements:
        if e.children is None:
            out.append(_make_pass(e, "function", reg))
        elif e.name in ("loop", "loop-mssa"):
            from llvmpy_mid.passes.loop_pass_manager import FunctionToLoopPassAdaptor, LoopPassManager

            inner = _single_or_manager(e, _loop_passes(e.children, reg), LoopPassManager)
            out.append(FunctionToLoopPassAdaptor(inner, use_memory_ssa=e.name == "loop-mssa"))
        else:
            raise _unsupported(e)
    return out


def _eager(e: PipelineElement) -> bool:
    """``function<eager-inv>``: the adaptor drops a function's analyses after each run."""
    return e.params is not None and "eager-inv" in e.params.split(";")


def _cgscc_passes(elements: Sequence[PipelineElement], reg: PassRegistry) -> list[Pass[Any]]:
    from llvmpy_mid.passes.cgscc_pass_manager import CGSCCToFunctionPassAdaptor

    out: list[Pass[Any]] = []
    for e in elements:
        if e.children is None:
            out.append(_make_pass(e, "cgscc", reg))
        elif e.name == "function":
            inner = _single_or_manager(e, _function_passes(e.children, reg), FunctionPassManager)
            out.append(CGSCCToFunctionPassAdaptor(inner, _eager(e)))
        elif e.name == "devirt" and e.params is not None and e.params.isdigit():
            from llvmpy_mid.passes.cgscc_pass_manager import CGSCCPassManager, DevirtSCCRepeatedPass

            out.append(DevirtSCCRepeatedPass(CGSCCPassManager(_cgscc_passes(e.children, reg)), int(e.params)))
        else:
            raise _unsupported(e)
    return out


def _check_default_pipelines(elements: Sequence[PipelineElement], reg: PassRegistry) -> None:
    """Refuse a ``default<On>`` whose LLVM 19 pipeline holds passes that do not exist here."""
    from llvmpy_mid.passes.default_pipeline import LEVELS, IncompletePipelineError, missing_passes

    work = list(elements)
    while work:
        e = work.pop()
        if e.children is not None:
            work.extend(e.children)
        elif e.name == "default" and e.params in LEVELS:
            missing = missing_passes(e.params, reg)
            if missing:
                raise IncompletePipelineError(e.params, missing)


def build_pipeline(
    text: str, *, registry: PassRegistry | None = None, allow_partial_pipeline: bool = False
) -> ModulePassManager:
    """The module pass manager running ``text`` (``opt -passes=`` syntax).

    ``default<On>`` raises :class:`~llvmpy_mid.passes.default_pipeline.IncompletePipelineError`
    (a ``PipelineError``) while LLVM 19's pipeline for that level holds passes llvmpy_mid lacks;
    ``allow_partial_pipeline=True`` runs the part that exists instead."""
    reg = registry if registry is not None else REGISTRY
    try:
        elements = nest(parse_pipeline(text), reg.kind_of, no_adaptor=reg.no_adaptor)
    except PipelineError as exc:
        raise _with_suggestion(exc, reg) from exc
    if not allow_partial_pipeline:
        _check_default_pipelines(elements, reg)
    mpm = ModulePassManager()
    for e in elements:
        if e.children is None:
            mp: Pass[Module] = _make_pass(e, "module", reg)
            mpm.add(mp)
        elif e.name == "function":
            inner_fn = _single_or_manager(e, _function_passes(e.children, reg), FunctionPassManager)
            mpm.add(ModuleToFunctionPassAdaptor(inner_fn, _eager(e)))
        elif e.name == "cgscc":
            from llvmpy_mid.passes.cgscc_pass_manager import CGSCCPassManager, ModuleToPostOrderCGSCCPassAdaptor

            inner = _single_or_manager(e, _cgscc_passes(e.children, reg), CGSCCPassManager)
            mpm.add(ModuleToPostOrderCGSCCPassAdaptor(inner))
        else:
            raise _unsupported(e)
    return mpm


def nested_pipeline_text(text: str, *, registry: PassRegistry | None = None) -> str:
    """``text`` with LLVM's implicit adaptors written out (``opt -print-pipeline-passes``);
    a top-level ``default<On>`` is written as the part of LLVM's pipeline that runs here."""
    from llvmpy_mid.passes.default_pipeline import LEVELS, default_pipeline_text

    reg = registry if registry is not None else REGISTRY
    parts: list[str] = []
    for e in nest(parse_pipeline(text), reg.kind_of, no_adaptor=reg.no_adaptor):
        if e.children is None and e.name == "default" and e.params in LEVELS:
            parts.append(default_pipeline_text(e.params, reg))
        else:
            parts.append(print_pipeline([_with_canonical_params(e, reg)]))
    return ",".join(p for p in parts if p)


_LEAF_KINDS = ("function", "module", "loop", "cgscc")


def _with_canonical_params(element: PipelineElement, reg: PassRegistry) -> PipelineElement:
    """``element`` with each pass that defines ``pipeline_params()`` written with its full,
    canonical parameter list, as opt-19's ``printPipeline`` writes it (``simplifycfg`` ->
    ``simplifycfg<bonus-inst-threshold=1;...>``); other passes keep their text. Iterative."""
    import attrs

    def canonical(e: PipelineElement) -> PipelineElement:
        for kind in _LEAF_KINDS:
            entry = reg.lookup(e.spelled, kind)
            if entry is None or entry.analysis:
                continue
            cls = entry.load()
            if not hasattr(cls, "pipeline_params"):
                return e
            params = entry.instantiate(e.params).pipeline_params()
            return attrs.evolve(e, name=e.name, params=params)
        return e

    # Rebuild bottom-up without recursion: post-order over the tree.
    order: list[PipelineElement] = []
    stack = [element]
    while stack:
        e = stack.pop()
        order.append(e)
        if e.children:
            stack.extend(e.children)
    done: dict[int, PipelineElement] = {}
    for e in reversed(order):
        if e.children is None:
            done[id(e)] = canonical(e)
        else:
            done[id(e)] = attrs.evolve(e, children=tuple(done[id(c)] for c in e.children))
    return done[id(element)]


__all__ = ["build_pipeline", "nested_pipeline_text", "suggest"]
