"""``-verify-analysis-invalidation``: catch a pass that changed the IR but claimed to
keep every analysis, or changed the CFG but claimed to keep ``CFGAnalyses``
(LLVM's ``PreservedCFGChecker`` and ``PreservedFunctionHash`` /
``PreservedModuleHash`` instrumentations).

What: :class:`VerifyAnalysisInvalidation` registers callbacks that fingerprint
the unit before each pass and compare after it, raising
:class:`AnalysisInvalidationError` with opt-19's fatal messages::

    Function @f changed by InstCombinePass without invalidating analyses
    Module changed by GlobalDCEPass without invalidating analyses
    CFG unexpectedly changed by SimplifyCFGPass

How: the fingerprint is structural, as LLVM's hash is: the function type, then
each block's opcodes and operand counts in order (names, constants and metadata
do not count); a module's is the number of defined functions and of defined
global variables (``llvm.*`` ones aside) plus each defined function's. The CFG snapshot is each block's successor list.

What it does not do: loop and SCC units are not checked (LLVM checks functions
and modules); the fingerprint is not LLVM's ``StructuralHash`` number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.instrumentation import PassInstrumentation
from llvmpy_mid.passes.preserved import CFGAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.passes.pass_manager import Pass
    from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["AnalysisInvalidationError", "VerifyAnalysisInvalidation", "cfg_snapshot", "function_fingerprint"]


class AnalysisInvalidationError(PipelineError):
    """A pass's ``PreservedAnalyses`` claims more than it kept."""


def function_fingerprint(fn: Function) -> tuple[Any, ...]:
    parts: list[Any] = [fn.function_type]
    for bb in fn.blocks:
        parts.append(tuple((inst.opcode, len(inst.operands)) for inst in bb.instructions))
    return tuple(parts)


def _module_fingerprint(module: Module) -> tuple[Any, ...]:
    """Definitions only, as LLVM's module hash: declarations and ``llvm.*`` variables do not count."""
    fns = [f for f in module.functions if not f.is_declaration]
    gvs = [g for g in module.globals if not g.is_declaration and not g.name.startswith("llvm.")]
    return (len(fns), len(gvs)) + tuple(function_fingerprint(f) for f in fns)


def cfg_snapshot(fn: Function) -> tuple[Any, ...]:
    """Each block with its successors, in order (identity-based)."""
    return tuple((id(bb), tuple(id(s) for s in bb.successors)) for bb in fn.blocks)


class VerifyAnalysisInvalidation:
    """The checking instrumentation; errors propagate out of the pass manager."""

    __slots__ = ("_stack",)

    def __init__(self, instrumentation: PassInstrumentation) -> None:
        self._stack: list[tuple[Any, Any] | None] = []
        instrumentation.before_pass.append(self._before)
        instrumentation.after_pass.append(self._after)
        instrumentation.after_pass_invalidated.append(self._after_invalidated)

    def _before(self, pass_: Pass[Any], unit: object) -> None:
        if pass_.is_special:
            return
        if isinstance(unit, Function):
            self._stack.append((function_fingerprint(unit), cfg_snapshot(unit)))
        elif isinstance(unit, Module):
            self._stack.append((_module_fingerprint(unit), None))
        else:
            self._stack.append(None)

    def _after_invalidated(self, pass_: Pass[Any], pa: PreservedAnalyses) -> None:
        if not pass_.is_special and self._stack:
            self._stack.pop()

    def _after(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        if pass_.is_special or not self._stack:
            return
        saved = self._stack.pop()
        if saved is None:
            return
        fingerprint, cfg = saved
        name = pass_.log_name
        if isinstance(unit, Function):
            if pa.are_all_preserved() and function_fingerprint(unit) != fingerprint:
                raise AnalysisInvalidationError(
                    "Function @%s changed by %s without invalidating analyses" % (unit.name, name)
                )
            if pa.all_analyses_in_set_preserved(CFGAnalyses) and cfg_snapshot(unit) != cfg:
                raise AnalysisInvalidationError("CFG unexpectedly changed by %s" % name)
        elif isinstance(unit, Module):
            if pa.are_all_preserved() and _module_fingerprint(unit) != fingerprint:
                raise AnalysisInvalidationError("Module changed by %s without invalidating analyses" % name)
