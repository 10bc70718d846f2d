"""Textual LLVM IR: a parser and a printer that match ``opt-19 -S``.

``parse_assembly(text)`` / ``parse_file(path)`` read ``.ll`` text into a
:class:`~llvmpy_mid.ir.module.Module`; ``print_module(module)`` (also
``str(module)``) prints it exactly as ``opt-19 -S`` would. Importing this
package installs the printer behind ``str()`` of IR values and modules.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING

from llvmpy_mid.errors import ParseError, VerifierError
from llvmpy_mid.ir import _printing

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value


VERIFY_BY_DEFAULT = True

_BITCODE_MAGIC = (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")
"""Raw bitcode and the bitcode wrapper header."""


class InputError(ParseError):
    """The input file cannot be read as textual IR (missing, unreadable, bitcode):
    a :class:`ParseError` without a line and column."""

    def __str__(self) -> str:
        return "%s: error: %s" % (self.filename, self.message)


class InputFileNotFoundError(InputError, FileNotFoundError):
    """``parse_file`` of a path that does not exist (also a ``FileNotFoundError``)."""


def parse_assembly(
    text: str | bytes,
    context: Context | None = None,
    name: str = "<string>",
    *,
    verify: bool | None = None,
    target_triple: str | None = None,
    data_layout: str | None = None,
) -> Module:
    """Parse ``.ll`` text (``bytes`` are decoded as UTF-8). Errors raise
    :class:`ParseError` located at ``name:line:col``.

    With ``verify`` (the default, as ``llvm-as`` and ``opt`` do) the module is
    then verified and an invalid one raises :class:`VerifierError`; findings
    about debug info alone only warn, as opt-19 does. ``verify=False`` returns
    the module as parsed. ``target_triple`` replaces the module's triple before
    its data layout is inferred from it (``opt -mtriple``); a non-empty ``data_layout``
    replaces the module's data layout (``opt -data-layout``)."""
    from llvmpy_mid.asm.parser import parse

    if not isinstance(text, str):
        if not isinstance(text, (bytes, bytearray, memoryview)):
            raise TypeError("parse_assembly(text): text must be a str (or UTF-8 bytes), not %s" % type(text).__name__)
        data = bytes(text)
        if data[:4] in _BITCODE_MAGIC:
            raise InputError("bitcode input is not supported; give textual IR (.ll), e.g. from llvm-dis-19", name)
        text = data.decode("utf-8", "surrogateescape")
    if context is not None and not hasattr(context, "label"):
        raise TypeError("parse_assembly: context must be a Context, not %s" % type(context).__name__)
    if not isinstance(name, str):
        raise TypeError("parse_assembly: name must be a str, not %s" % type(name).__name__)

    if not (VERIFY_BY_DEFAULT if verify is None else verify):
        return parse(text, context, name, target_triple=target_triple, data_layout=data_layout)
    from llvmpy_mid.ir.verifier import upgrade_debug_info, verify_module

    # As LLVM: the reader checks a module of the current debug-info version (dropping broken
    # debug info with a warning); the tool then verifies what it was given, unless that check
    # found nothing.
    clean: list[bool] = []
    module = parse(
        text,
        context,
        name,
        target_triple=target_triple,
        check_debug_info=lambda m: clean.append(upgrade_debug_info(m, name)),
        data_layout=data_layout,
    )
    if not (clean and clean[0]):
        verify_module(module)
    return module


def parse_file(path: str | Path, context: Context | None = None, *, verify: bool | None = None) -> Module:
    """Parse a ``.ll`` file; the module is named after the path, as opt does.

    A missing file raises :class:`InputFileNotFoundError` (a ``ParseError`` and a
    ``FileNotFoundError``); bitcode and unreadable files raise :class:`InputError`."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("parse_file(path): path must be a str or a path, not %s" % type(path).__name__)
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        err = InputFileNotFoundError("no such file", name)
        err.errno = errno.ENOENT
        raise err from None
    except OSError as exc:
        raise InputError("could not open input file: %s" % (exc.strerror or exc), name) from None
    if data[:4] in _BITCODE_MAGIC:
        raise InputError("bitcode input is not supported; give textual IR (.ll), e.g. from llvm-dis-19", name)
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


def _value_repr(value: Value) -> str:
    from llvmpy_mid.asm.repr_text import value_repr

    return value_repr(value)


def _value_ref(value: Value) -> str:
    from llvmpy_mid.asm.repr_text import value_ref

    return value_ref(value)


_printing.install_formatter(format_value, print_module)
_printing.install_diagnostic_writer(_diagnostic_writer)
_printing.install_repr_formatter(_value_repr, _value_ref)

__all__ = [
    "InputError", "InputFileNotFoundError", "ParseError", "format_value", "parse_assembly", "parse_file", "print_module",
]
