"""The exception family of llvmpy_mid.

Library code raises these; only the command-line tools turn them into
messages and exit codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from llvmpy_mid.ir.verifier.diagnostic import Diagnostic


class LLVMPyError(Exception):
    """Base of every error llvmpy_mid raises on purpose."""


class IRError(LLVMPyError):
    """A misuse of the IR object model (erasing a used value, a type mismatch in RAUW, ...)."""


class ParseError(LLVMPyError):
    """Malformed textual IR, located by file, line and column."""

    def __init__(self, message: str, filename: str = "<string>", line: int = 0, column: int = 0, source_line: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.source_line = source_line

    def __str__(self) -> str:
        return "%s:%d:%d: error: %s" % (self.filename, self.line, self.column, self.message)


class VerifierError(LLVMPyError):
    """An invalid module; ``diagnostics`` lists every problem found
    (:class:`llvmpy_mid.ir.verifier.Diagnostic` records: LLVM's message, the
    values it prints, and the function, block and instruction)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        count = len(diagnostics)
        head = "module does not verify: %d problem%s" % (count, "" if count == 1 else "s")
        super().__init__("\n".join([head] + [str(d) for d in diagnostics]))
        self.diagnostics = list(diagnostics)

    @property
    def llvm_text(self) -> str:
        """The findings exactly as LLVM's verifier prints them."""
        return "".join(d.text for d in self.diagnostics)


class PipelineError(LLVMPyError):
    """An unknown pass, a malformed pipeline or a bad pass parameter."""


class DataLayoutError(IRError):
    """A malformed data layout string (message worded as LLVM's)."""


class FatalError(LLVMPyError):
    """A pass gave up as LLVM's ``report_fatal_error`` does (e.g. InstCombine's fixpoint
    check); ``llvmpy-opt`` prints ``LLVM ERROR: <message>`` and exits 1, as opt-19. With
    ``gen_crash_diag`` (LLVM's default for ``report_fatal_error``), opt-19 aborts instead, and
    so does ``llvmpy-opt`` (SIGABRT, as ``not --crash`` expects)."""

    def __init__(self, message: str, gen_crash_diag: bool = False) -> None:
        super().__init__(message)
        self.gen_crash_diag = gen_crash_diag
