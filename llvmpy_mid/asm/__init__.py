"""Textual LLVM IR: a parser and a printer that match ``opt-19 -S``.

``parse_assembly(text)`` / ``parse_file(path)`` read ``.ll`` text into a
:class:`~llvmpy_mid.ir.module.Module`; ``print_module(module)`` (also
``str(module)``) prints it exactly as ``opt-19 -S`` would. Importing this
package installs the printer behind ``str()`` of IR values and modules.
"""

from __future__ import annotations

from pathlib import Path

from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir import _printing
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value


def parse_assembly(text: str, context: Context | None = None, name: str = "<string>") -> Module:
    """Parse ``.ll`` text. Errors raise :class:`ParseError` located at ``name:line:col``."""
    from llvmpy_mid.asm.parser import parse

    return parse(text, context, name)


def parse_file(path: str | Path, context: Context | None = None) -> Module:
    """Parse a ``.ll`` file; the module is named after the path, as opt does."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError("could not open input file: %s" % (exc.strerror or exc), name) from None
    # Bytes that are not UTF-8 survive as surrogates and are written back unchanged.
    text = data.decode("utf-8", "surrogateescape")
    return parse_assembly(text, context, name)


def print_module(module: Module) -> str:
    """The module's text exactly as ``opt-19 -S`` prints it."""
    from llvmpy_mid.asm.printer import print_module as _print_module

    return _print_module(module)


def format_value(value: Value) -> str:
    """One value as LLVM prints it (``%5 = add nsw i32 %3, 1``, ``ptr @g``, ...)."""
    from llvmpy_mid.asm.printer import format_value as _format_value

    return _format_value(value)


_printing.install_formatter(format_value, print_module)

__all__ = ["ParseError", "format_value", "parse_assembly", "parse_file", "print_module"]
