"""Textual LLVM IR: a parser and a printer that match ``opt-19 -S``.

``parse_assembly(text)`` / ``parse_file(path)`` read ``.ll`` text into a
:class:`~llvmpy_mid.ir.module.Module`; ``print_module(module)`` (also
``str(module)``) prints it exactly as ``opt-19 -S`` would. Importing this
package installs the printer behind ``str()`` of IR values and modules.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from llvmpy_mid.errors import ParseError, VerifierError
from llvmpy_mid.ir import _printing

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value


VERIFY_BY_DEFAULT = True


def parse_assembly(
    text: str, context: Context | None = None, name: str = "<string>", *, verify: bool | None = None
) -> Module:
    """Parse ``.ll`` text. Errors raise :class:`ParseError` located at ``name:line:col``.

    With ``verify`` (the default, as ``llvm-as`` and ``opt`` do) the module is
    then verified and an invalid one raises :class:`VerifierError`; findings
    about debug info alone only warn, as opt-19 does. ``verify=False`` returns
    the module as parsed."""
    from llvmpy_mid.asm.parser import parse

    module = parse(text, context, name)
    if VERIFY_BY_DEFAULT if verify is None else verify:
        _verify_parsed(module, name)
    return module


def _verify_parsed(module: Module, name: str) -> None:
    from llvmpy_mid.ir.verifier import InvalidDebugInfoWarning, module_diagnostics

    found = module_diagnostics(module)
    if not found:
        return
    if all(d.debug_info for d in found):
        # As LLVM's reader (UpgradeDebugInfo): broken debug info is dropped with a warning.
        from llvmpy_mid.ir.debug_info_strip import strip_debug_info

        warnings.warn(InvalidDebugInfoWarning(name, found), stacklevel=3)
        strip_debug_info(module)
        return
    raise VerifierError([d for d in found if not d.debug_info])


def parse_file(path: str | Path, context: Context | None = None, *, verify: bool | None = None) -> Module:
    """Parse a ``.ll`` file; the module is named after the path, as opt does."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError("could not open input file: %s" % (exc.strerror or exc), name) from None
    # Bytes that are not UTF-8 survive as surrogates and are written back unchanged.
    text = data.decode("utf-8", "surrogateescape")
    return parse_assembly(text, context, name, verify=verify)


def print_module(module: Module) -> str:
    """The module's text exactly as ``opt-19 -S`` prints it."""
    from llvmpy_mid.asm.printer import print_module as _print_module

    return _print_module(module)


def format_value(value: Value) -> str:
    """One value as LLVM prints it (``%5 = add nsw i32 %3, 1``, ``ptr @g``, ...)."""
    from llvmpy_mid.asm.printer import format_value as _format_value

    return _format_value(value)


def _diagnostic_writer(module: Module | None) -> _printing.DiagnosticWriter:
    from llvmpy_mid.asm.printer import DiagnosticWriter

    return DiagnosticWriter(module)


_printing.install_formatter(format_value, print_module)
_printing.install_diagnostic_writer(_diagnostic_writer)

__all__ = ["ParseError", "format_value", "parse_assembly", "parse_file", "print_module"]
