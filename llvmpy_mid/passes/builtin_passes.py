"""The built-in IR utility passes: ``verify`` (module and function) and
``print`` (module and function), as LLVM's ``VerifierPass`` (asking for the cached
``VerifierAnalysis``),
``PrintModulePass`` and ``PrintFunctionPass``.

How: ``VerifierPass`` runs the verifier over the whole module and raises
:class:`~llvmpy_mid.errors.VerifierError` (whose ``llvm_text`` is what LLVM
prints before aborting with :data:`BROKEN_MODULE_MESSAGE`);
``FunctionVerifierPass`` (``function(verify)``) does the same for one function, through the
function-level ``VerifierAnalysis`` as LLVM logs it, and fails with
:data:`BROKEN_FUNCTION_MESSAGE`. The printing passes
write to a stream (``sys.stderr`` when none is given, resolved at run time,
as opt writes ``-passes=print`` output to stderr): the module as ``opt -S``
prints it, a function as its banner (empty by default), a newline, then the
function's text. All of them change nothing and preserve every analysis.

What it does not do: no ``verify<domtree>``-style analysis verifiers, no
``-filter-print-funcs``, no debug-info-only breakage downgrade (LLVM strips
broken debug info with a warning; here any problem raises).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.asm import format_value, print_module
from llvmpy_mid.errors import VerifierError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.driver import function_diagnostics, module_diagnostics
from llvmpy_mid.ir.verifier.diagnostic import Diagnostic
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, ModuleAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

#: What LLVM's module ``verify`` pass reports (fatally) after the findings.
BROKEN_MODULE_MESSAGE = "Broken module found, compilation aborted!"
#: What LLVM's function ``verify`` pass reports (fatally) after the findings.
BROKEN_FUNCTION_MESSAGE = "Broken function found, compilation aborted!"


class VerifierAnalysis(ModuleAnalysis[list[Diagnostic]]):
    """The verifier's findings on a module (LLVM's ``VerifierAnalysis``): cached like any
    analysis, so a second ``verify`` with nothing changed in between verifies nothing again."""

    name: ClassVar[str] = "verify"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> list[Diagnostic]:
        return module_diagnostics(unit)


class VerifierPass(Pass[Module]):
    """``verify`` at module level: raises ``VerifierError`` on a broken module."""

    name: ClassVar[str] = "verify"
    fatal_message: ClassVar[str] = BROKEN_MODULE_MESSAGE

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        diags = am.get_result(VerifierAnalysis, unit)
        if diags:
            raise VerifierError(diags)
        return PreservedAnalyses.all()


class FunctionVerifierAnalysis(FunctionAnalysis[list[Diagnostic]]):
    """The verifier's findings on one function (LLVM's ``VerifierAnalysis`` on a function)."""

    name: ClassVar[str] = "verify"

    @property
    def log_name(self) -> str:
        return "VerifierAnalysis"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> list[Diagnostic]:
        return function_diagnostics(unit)


class FunctionVerifierPass(Pass[Function]):
    """``verify`` at function level (LLVM's ``VerifierPass`` on a function)."""

    name: ClassVar[str] = "verify"
    fatal_message: ClassVar[str] = BROKEN_FUNCTION_MESSAGE

    @property
    def log_name(self) -> str:
        return "VerifierPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        diags = am.get_result(FunctionVerifierAnalysis, unit)
        if diags:
            raise VerifierError(diags)
        return PreservedAnalyses.all()


class PrintModulePass(Pass[Module]):
    """``print`` at module level: the module's text, as ``opt -S`` writes it."""

    name: ClassVar[str] = "print"

    def __init__(self, stream: TextIO | None = None, banner: str = "") -> None:
        self.stream = stream
        self.banner = banner

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        if self.banner:
            out.write(self.banner + "\n")
        out.write(print_module(unit))
        return PreservedAnalyses.all()


class PrintFunctionPass(Pass[Function]):
    """``print`` at function level: banner, newline, the function's text."""

    name: ClassVar[str] = "print"

    def __init__(self, stream: TextIO | None = None, banner: str = "") -> None:
        self.stream = stream
        self.banner = banner

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(self.banner + "\n" + format_value(unit) + "\n")
        return PreservedAnalyses.all()


__all__ = [
    "BROKEN_FUNCTION_MESSAGE",
    "BROKEN_MODULE_MESSAGE",
    "FunctionVerifierAnalysis",
    "FunctionVerifierPass",
    "PrintFunctionPass",
    "PrintModulePass",
    "VerifierPass",
]
