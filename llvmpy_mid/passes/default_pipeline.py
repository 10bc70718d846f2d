"""``default<O0>`` .. ``default<O3>``, ``default<Os>``, ``default<Oz>``: LLVM 19's
standard optimisation pipelines, made of the passes that exist here.

What: :func:`default_pipeline_text` returns, for a level, LLVM's pipeline with
every pass that is not registered removed (a pipeline whose passes are all
missing goes too); :class:`DefaultPipelinePass` (registered as the module pass
``default<level>``) runs it. As passes land, the pipelines grow by themselves.
:func:`missing_passes` names what a level still lacks; the pipeline builder refuses an
incomplete ``default<level>`` with :class:`IncompletePipelineError` unless the caller asks for
the partial pipeline (``build_pipeline(..., allow_partial_pipeline=True)``,
``llvmpy-opt -allow-partial-pipeline``).

How: ``default_pipelines/<level>.txt`` holds what ``opt-19
-passes='default<On>' -print-pipeline-passes`` prints (without the trailing
``verify`` opt adds to every run). It is parsed with the pipeline reader;
``require<X>`` / ``invalidate<X>`` stay when ``X`` is a registered analysis;
a pass whose registered form takes no parameters keeps its name only when the
text gives it none or ``<>``; nested pipelines keep their name and parameters.

What it does not do: ``thinlto-pre-link<On>``, ``thinlto<On>``,
``lto-pre-link<On>``, ``lto<On>`` are not known; passes here do not take
LLVM's per-level tuning (they run with their defaults).
"""

from __future__ import annotations

from importlib import resources

import attrs

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.passes.pass_manager import ModulePassManager
from llvmpy_mid.passes.pipeline_text import PipelineElement, parse_pipeline, print_pipeline
from llvmpy_mid.passes.registry import KINDS, PassRegistry

__all__ = [
    "LEVELS",
    "DefaultPipelinePass",
    "IncompletePipelineError",
    "default_pipeline_text",
    "llvm_default_pipeline_text",
    "missing_passes",
    "parse_level",
]

LEVELS: tuple[str, ...] = ("O0", "O1", "O2", "O3", "Os", "Oz")

_CONTAINERS = frozenset({"module", "cgscc", "function", "loop", "loop-mssa", "devirt", "coro-cond", "repeat"})
#: Nested pipelines the builder runs today (``coro-cond`` and ``repeat<N>`` not yet).
_BUILT_CONTAINERS = frozenset({"module", "cgscc", "function", "loop", "loop-mssa", "devirt"})


class IncompletePipelineError(PipelineError):
    """``default<level>`` while LLVM 19's pipeline for ``level`` holds passes not implemented here."""

    def __init__(self, level: str, missing: list[str]) -> None:
        super().__init__(
            "unknown pass name 'default<%s>': LLVM 19's default<%s> pipeline is not complete in llvmpy_mid yet; "
            "it lacks %s" % (level, level, ", ".join(missing))
        )
        self.level = level
        self.missing = missing


def llvm_default_pipeline_text(level: str) -> str:
    """LLVM 19's full ``default<level>`` pipeline text."""
    if level not in LEVELS:
        raise PipelineError("invalid optimization level for default pipeline: '%s'" % level)
    return resources.files("llvmpy_mid.passes").joinpath("default_pipelines/%s.txt" % level).read_text().strip()


def _known(e: PipelineElement, reg: PassRegistry) -> PipelineElement | None:
    """``e`` as this project can run it, or None when it names no registered pass."""
    for kind in KINDS:
        if reg.pseudo_pass(e.spelled, kind) is not None:
            return e
        entry = reg.lookup(e.spelled, kind)
        if entry is not None:
            return e
        bare = reg.lookup(e.name, kind)
        if bare is not None and bare.params is None and e.params in (None, ""):
            return attrs.evolve(e, params=None)
    return None


def _prune(elements: tuple[PipelineElement, ...], reg: PassRegistry) -> tuple[PipelineElement, ...]:
    out: list[PipelineElement] = []
    for e in elements:
        if e.children is None:
            kept = _known(e, reg)
            if kept is not None:
                out.append(kept)
        elif e.name in _BUILT_CONTAINERS:
            children = _prune(e.children, reg)
            if children:
                out.append(attrs.evolve(e, children=children))
        elif e.name == "coro-cond":
            # coro-cond runs its passes only on a module with coroutine intrinsics; the coroutine
            # passes do not exist here, so the partial pipeline leaves it out (as opt-19 does for
            # a module without coroutines).
            continue
        elif e.name in _CONTAINERS:
            # repeat<N> is not built: its passes run once, in place.
            out.extend(_prune(e.children, reg))
    return tuple(out)


def missing_passes(level: str, registry: PassRegistry | None = None) -> list[str]:
    """The names in LLVM 19's ``default<level>`` pipeline that llvmpy_mid cannot run yet, in
    pipeline order, each once: passes by name (with the parameters when the pass exists but
    not with those), ``require<X>``/``invalidate<X>`` of missing analyses, and the nested
    pipelines the builder does not run (``coro-cond``)."""
    from llvmpy_mid.passes.registry import REGISTRY

    reg = registry if registry is not None else REGISTRY
    out: list[str] = []
    seen: set[str] = set()

    def note(name: str) -> None:
        if name not in seen:
            seen.add(name)
            out.append(name)

    work = list(reversed(parse_pipeline(llvm_default_pipeline_text(level))))
    while work:
        e = work.pop()
        if e.children is not None:
            if e.name not in _BUILT_CONTAINERS:
                note(e.name)
            work.extend(reversed(e.children))
        elif _known(e, reg) is None:
            if e.name in ("require", "invalidate") or any(reg.lookup(e.name, k) is not None for k in KINDS):
                note(e.spelled)
            else:
                note(e.name)
    return out


def default_pipeline_text(level: str, registry: PassRegistry | None = None) -> str:
    """``default<level>`` as pipeline text of registered passes (may be ``""``)."""
    from llvmpy_mid.passes.registry import REGISTRY

    reg = registry if registry is not None else REGISTRY
    return print_pipeline(_prune(tuple(parse_pipeline(llvm_default_pipeline_text(level))), reg))


def parse_level(params: str) -> str:
    """The ``<params>`` of ``default<...>``: one of :data:`LEVELS` (opt-19's error otherwise)."""
    if params not in LEVELS:
        raise PipelineError("unknown pass name 'default<%s>'" % params)
    return params


class DefaultPipelinePass(ModulePassManager):
    """``default<level>``: a module pass manager holding the level's pipeline of registered passes."""

    def __init__(self, level: str) -> None:
        from llvmpy_mid.passes.builder import build_pipeline

        self.level = level
        self.text = default_pipeline_text(level)
        super().__init__(build_pipeline(self.text).passes if self.text else ())
