"""``-print-before-all`` / ``-print-after-all``: dump the IR unit around every pass.

What: :class:`PrintIR` registers ``PassInstrumentation`` callbacks that write,
before and/or after each pass, opt-19's header and the unit's text::

    ; *** IR Dump After InstructionNamerPass on f ***
    define i32 @f(i32 %a) { ... }
    ; *** IR Dump Before StripDeadPrototypesPass on [module] ***
    ; ModuleID = 'x.ll'
    ...

A function pass dumps the function alone, a module pass the whole module (as
``opt -S`` prints it).  Pass managers, adaptors, ``VerifierPass`` and
``PrintModulePass`` are not dumped (opt-19 skips them too).

How: the shared helpers :func:`is_ignored_pass`, :func:`pass_display_name`
and :func:`unit_text` are also used by ``print_changed.py``.

What it does not do: no ``-filter-print-funcs``, ``-print-after=<pass>``
lists or ``-print-module-scope``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from llvmpy_mid.asm import format_value, print_module
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.instrumentation import PassInstrumentation, unit_kind, unit_name

if TYPE_CHECKING:
    from llvmpy_mid.passes.pass_manager import Pass
    from llvmpy_mid.passes.preserved import PreservedAnalyses

#: Passes that IR printing and change reporting leave out (besides managers and adaptors).
_IGNORED_CLASS_NAMES: frozenset[str] = frozenset({"VerifierPass", "PrintModulePass"})

#: LLVM's names for the pass manager classes (``PassManager<Function>``).
_MANAGER_NAMES: dict[str, str] = {
    "FunctionPassManager": "PassManager<Function>",
    "ModulePassManager": "PassManager<Module>",
    "LoopPassManager": "PassManager<Loop, LoopAnalysisManager, LoopStandardAnalysisResults &, LPMUpdater &>",
    "CGSCCPassManager": "PassManager<LazyCallGraph::SCC, CGSCCAnalysisManager, LazyCallGraph &, CGSCCUpdateResult &>",
}


def pass_display_name(pass_: Pass[Any]) -> str:
    """The pass's name in IR dump headers (LLVM's class name)."""
    name = pass_.log_name
    return _MANAGER_NAMES.get(name, name)


def is_ignored_pass(pass_: Pass[Any]) -> bool:
    """Whether opt-19 leaves the pass out of IR dumps: managers, adaptors, verifier, printer."""
    return pass_.is_special or type(pass_).__name__ in _IGNORED_CLASS_NAMES


def unit_text(unit: object) -> str:
    """The unit's text as opt-19 dumps it: a function alone, or the whole module."""
    if isinstance(unit, Function):
        return format_value(unit) + "\n"
    if isinstance(unit, Module):
        return print_module(unit)
    kind = unit_kind(unit)
    return kind.text(unit) if kind is not None else ""


class PrintIR:
    """``-print-before-all`` (``before=True``) and ``-print-after-all`` (``after=True``)."""

    __slots__ = ("stream", "_running")

    def __init__(
        self,
        instrumentation: PassInstrumentation,
        *,
        before: bool = False,
        after: bool = False,
        stream: TextIO | None = None,
    ) -> None:
        self.stream = stream
        self._running: list[tuple[str, Module | None]] = []
        """The name and module of each running pass's unit, for a dump after a pass that
        deleted its unit (LLVM ``printAfterPassInvalidated``)."""
        if before:
            instrumentation.before_pass.append(self._before)
        if after:
            instrumentation.before_pass.append(self._remember)
            instrumentation.after_pass.append(self._after)
            instrumentation.after_pass_invalidated.append(self._after_invalidated)

    def _out(self) -> TextIO:
        return self.stream if self.stream is not None else sys.stderr

    def _dump(self, when: str, pass_: Pass[Any], unit: object, name: str | None = None) -> None:
        out = self._out()
        if name is None:
            name = unit_name(unit)
        out.write("; *** IR Dump %s %s on %s ***\n" % (when, pass_display_name(pass_), name))
        out.write(unit_text(unit))

    def _before(self, pass_: Pass[Any], unit: object) -> None:
        if not is_ignored_pass(pass_):
            self._dump("Before", pass_, unit)

    def _after(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        if not is_ignored_pass(pass_):
            name = self._running.pop()[0] if self._running else None  # the name before the pass, as LLVM
            self._dump("After", pass_, unit, name)

    def _remember(self, pass_: Pass[Any], unit: object) -> None:
        if not is_ignored_pass(pass_):
            self._running.append((unit_name(unit), _module_of(unit)))

    def _after_invalidated(self, pass_: Pass[Any], pa: PreservedAnalyses) -> None:
        if is_ignored_pass(pass_) or not self._running:
            return
        name, module = self._running.pop()
        out = self._out()
        out.write("; *** IR Dump After %s on %s (invalidated) ***\n" % (pass_display_name(pass_), name))
        if module is not None:
            out.write(print_module(module))


def _module_of(unit: object) -> Module | None:
    if isinstance(unit, Module):
        return unit
    if isinstance(unit, Function):
        return unit.parent
    kind = unit_kind(unit)
    fn = kind.function(unit) if kind is not None and kind.function is not None else None
    return fn.parent if fn is not None else None


__all__ = ["PrintIR", "is_ignored_pass", "pass_display_name", "unit_text"]
