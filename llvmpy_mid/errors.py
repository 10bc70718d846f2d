"""The exception family of llvmpy_mid.

Library code raises these; only the command-line tools turn them into
messages and exit codes.
"""

from __future__ import annotations


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
    """An invalid module; ``diagnostics`` lists every problem found."""

    def __init__(self, diagnostics: list[str]) -> None:
        super().__init__("\n".join(diagnostics))
        self.diagnostics = diagnostics


class PipelineError(LLVMPyError):
    """An unknown pass, a malformed pipeline or a bad pass parameter."""


class DataLayoutError(IRError):
    """A malformed data layout string (message worded as LLVM's)."""
