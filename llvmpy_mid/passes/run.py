"""``run_passes``: run pipeline text on a module from Python and say what happened.

What: :func:`run_passes` builds the pipeline (``builder.py``), runs it with
fresh analysis managers, and returns a :class:`RunResult`: whether the module
changed, the statistics (named counters; empty until passes record them) and
the ``-debug-pass-manager`` log lines when asked for. Statistics are collected
for the run alone (``passes/statistics.py``); ``options`` set pass options for
the run (``passes/options.py``).

How: "changed" compares the module's printed text before and after the run
(what ``-print-changed`` compares too), so a pass that abandons analyses
without touching the IR does not count.  ``verify_each`` verifies the module
after every pass that is not a pass manager or adaptor and raises
:class:`~llvmpy_mid.errors.VerifierError` naming the pass, as opt's
``-verify-each`` aborts.

``print_before_all``, ``print_after_all``, ``print_changed`` and
``time_passes`` attach the instrumentations of ``print_ir.py``,
``print_changed.py`` and ``timing.py``; what they print goes to ``stream``
(stderr when None), the timing report once the pipeline has run.

As opt-19, optional passes are skipped on ``optnone`` functions (with a
"Skipping pass ... due to optnone attribute" line in the log);
``opt_bisect_limit`` runs only the first N optional passes and writes opt's
``BISECT:`` lines to ``stream``. ``default<On>`` raises a ``PipelineError``
naming the passes its LLVM 19 pipeline still lacks unless
``allow_partial_pipeline=True``.

What it does not do: the input module is not verified first (the caller or
the command line does that).
"""

from __future__ import annotations

import contextlib
import io
import sys
from typing import Any, Mapping, Sequence, TextIO

import attrs

from llvmpy_mid.asm import print_module
from llvmpy_mid.errors import VerifierError
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier import module_diagnostics
from llvmpy_mid.passes.builder import build_pipeline
from llvmpy_mid.passes.instrumentation import AfterPassCallback, DebugPassManagerLog, PassInstrumentation
from llvmpy_mid.passes.pass_gates import OPT_BISECT_DISABLED, OptBisectGate, OptNoneGate
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.print_changed import PrintChanged
from llvmpy_mid.passes.print_ir import PrintIR
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import make_analysis_managers
from llvmpy_mid.passes.options import OPTIONS, OptionValue
from llvmpy_mid.passes.registry import PassRegistry
from llvmpy_mid.passes.statistics import collecting
from llvmpy_mid.passes.teardown import PipelineTeardown
from llvmpy_mid.passes.verify_invalidation import VerifyAnalysisInvalidation
from llvmpy_mid.passes.timing import TimePasses
from llvmpy_mid.passes.verify_dom_info import VerifyDomInfo
from llvmpy_mid.passes.verify_loop_info import VerifyLoopInfo


@attrs.frozen
class RunResult:
    """What a :func:`run_passes` call did."""

    changed: bool
    statistics: dict[str, int] = attrs.field(factory=dict)
    """``"debug-type.StatisticName"`` -> count (LLVM's names), non-zero counts only."""
    log: tuple[str, ...] = ()
    """The ``-debug-pass-manager`` lines (only with ``debug_pass_manager=True``)."""
    output: str = ""
    """Everything the run printed: printer passes (``print<loops>``, ``instcount`` ...) and
    instrumentation (``print_after_all``, ``time_passes`` ...); it went to ``stream`` too."""


class _Recorder(io.StringIO):
    """Keeps what is written and passes it on to ``target``."""

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self._target = target

    def write(self, text: str) -> int:
        self._target.write(text)
        return super().write(text)

    def flush(self) -> None:
        self._target.flush()


def _check_arguments(module: object, text: object, options: object) -> str:
    """The pipeline text, or a TypeError saying what is wrong with the arguments."""
    if not isinstance(module, Module):
        hint = ""
        if getattr(module, "is_global_value", False) and hasattr(module, "blocks"):
            hint = "; pass the function's module (fn.parent) and, for one function, a pipeline such as 'function(...)'"
        raise TypeError(
            "run_passes(module, passes): the first argument must be a Module, not %s%s" % (type(module).__name__, hint)
        )
    if options is not None and not isinstance(options, Mapping):
        raise TypeError("run_passes: options must be a mapping of option name to value, not %s" % type(options).__name__)
    if isinstance(text, (list, tuple)):
        if not all(isinstance(t, str) for t in text):
            raise TypeError("run_passes: a list of passes must hold pass names (str)")
        return ",".join(text)
    if not isinstance(text, str):
        raise TypeError(
            "run_passes(module, passes): passes must be pipeline text such as 'instnamer,dce'"
            " or a list of pass names, not %s" % type(text).__name__
        )
    return text


class BrokenModuleError(VerifierError):
    """``verify_each`` found the module broken after a pass."""


def _verify_after(module: Module) -> AfterPassCallback:
    def check(pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        if pass_.is_special:
            return
        found = module_diagnostics(module)
        if found:
            err = BrokenModuleError(found)
            err.args = ("Broken module found after pass %s, compilation aborted!\n%s" % (pass_.log_name, err.args[0]),)
            raise err

    return check


def run_passes(
    module: Module,
    text: str | Sequence[str],
    *,
    verify_each: bool = False,
    debug_pass_manager: bool = False,
    registry: PassRegistry | None = None,
    print_before_all: bool = False,
    print_after_all: bool = False,
    print_changed: bool = False,
    time_passes: bool = False,
    verify_analysis_invalidation: bool = False,
    options: Mapping[str, OptionValue | None] | None = None,
    stream: TextIO | None = None,
    opt_bisect_limit: int = OPT_BISECT_DISABLED,
    allow_partial_pipeline: bool = False,
    verify_dom_info: bool = False,
    verify_loop_info: bool = False,
) -> RunResult:
    """Run ``opt -passes=``-style ``text`` on ``module`` (in place).

    ``text`` is pipeline text (``"function(instnamer),strip"``) or a list of pass
    names, run in order (joined with ``,``). ``options`` sets pass options for this
    run (``{"mergefunc-use-aliases": True}``); the statistics the passes counted are
    in the result. ``verify_each`` (or ``verify_dom_info`` alone) also checks every dominator tree a
    pass says it preserved against a fresh one (``DominatorTreeMismatchError``); ``verify_loop_info``
    checks every cached ``LoopInfo`` after each pass (``LoopInfoMismatchError``). What printer passes
    and instrumentation print goes to ``stream``
    (stderr when None, as opt) and is also kept in ``RunResult.output``."""
    text = _check_arguments(module, text, options)
    if options and options.get("aa-pipeline") is not None:
        from llvmpy_mid.analysis.alias.aa_manager import parse_aa_pipeline

        parse_aa_pipeline(str(options["aa-pipeline"]))  # opt checks it before running anything
    mpm = build_pipeline(text, registry=registry, allow_partial_pipeline=allow_partial_pipeline)
    stream = _Recorder(stream if stream is not None else sys.stderr)
    pi = PassInstrumentation()
    log = DebugPassManagerLog(pi) if debug_pass_manager else None
    OptNoneGate(pi, log)
    OptBisectGate(pi, opt_bisect_limit, stream)
    if print_before_all or print_after_all:
        PrintIR(pi, before=print_before_all, after=print_after_all, stream=stream)
    if print_changed:
        PrintChanged(pi, module, stream=stream)
    timer = TimePasses(pi) if time_passes else None
    if verify_each:
        pi.after_pass.append(_verify_after(module))
    if verify_analysis_invalidation:
        VerifyAnalysisInvalidation(pi)
    dom_check = VerifyDomInfo(pi, stream) if verify_each or verify_dom_info else None
    loop_check = VerifyLoopInfo(pi) if verify_loop_info else None
    mam, _fam = make_analysis_managers(pi)
    if dom_check is not None:
        dom_check.attach(_fam)
    if loop_check is not None:
        loop_check.attach(_fam)
    before = print_module(module)
    teardown = PipelineTeardown()
    with collecting() as stats, OPTIONS.overriding(options or {}), contextlib.redirect_stderr(stream):
        with teardown.active():
            mpm.run(module, mam)
        teardown.finish()
    changed = print_module(module) != before
    if timer is not None:
        stream.write(timer.report())
    return RunResult(
        changed=changed,
        statistics=stats.as_dict(),
        log=tuple(log.lines) if log is not None else (),
        output=stream.getvalue(),
    )


__all__ = ["BrokenModuleError", "RunResult", "run_passes"]
