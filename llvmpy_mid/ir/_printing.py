"""The hook through which values print themselves.

The IR layer knows nothing of assembly text. ``str(value)`` asks the
formatter installed here; the assembly printer installs LLVM's printer when
it is imported (``import llvmpy_mid`` does that). Until then a short
description is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.ir.names import format_name

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import Metadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

_formatter: Callable[[Value], str] | None = None
_module_formatter: Callable[[Module], str] | None = None
_operand_formatter: Callable[[Value], str] | None = None
_metadata_formatter: Callable[[Metadata, Module | None], str] | None = None
_metadata_printer_factory: Callable[[Module | None], Callable[[Metadata], str]] | None = None


def install_formatter(
    formatter: Callable[[Value], str] | None, module_formatter: Callable[[Module], str] | None = None
) -> None:
    """Make ``formatter`` the function behind ``str(value)`` and
    ``module_formatter`` the one behind ``str(module)``."""
    global _formatter, _module_formatter
    _formatter = formatter
    _module_formatter = module_formatter


def install_operand_formatters(
    operand: Callable[[Value], str] | None,
    metadata: Callable[[Metadata, Module | None], str] | None,
    metadata_printer: Callable[[Module | None], Callable[[Metadata], str]] | None = None,
) -> None:
    """Install LLVM's ``printAsOperand`` (``ptr @f``, ``label %3``) and
    ``Metadata::print`` (``!0 = !{...}``) behind :func:`format_operand` and
    :func:`format_metadata`; the verifier writes its diagnostics with them."""
    global _operand_formatter, _metadata_formatter, _metadata_printer_factory
    _operand_formatter = operand
    _metadata_formatter = metadata
    _metadata_printer_factory = metadata_printer


def format_operand(value: Value) -> str:
    """``value`` as an operand with its type, as LLVM's ``printAsOperand(OS, true)``."""
    if _operand_formatter is not None:
        return _operand_formatter(value)
    return short_ref(value)


def format_metadata(md: Metadata, module: Module | None = None) -> str:
    """A metadata node as LLVM's ``Metadata::print`` writes it, numbered as in ``module``."""
    if _metadata_formatter is not None:
        return _metadata_formatter(md, module)
    return "<%s>" % type(md).__name__


def metadata_printer(module: Module | None) -> Callable[[Metadata], str]:
    """:func:`format_metadata` bound to ``module``, numbering its metadata only once:
    for printing many nodes of a module that does not change meanwhile."""
    if _metadata_printer_factory is not None:
        return _metadata_printer_factory(module)
    return lambda md: format_metadata(md, module)


def format_module(module: Module) -> str:
    if _module_formatter is not None:
        return _module_formatter(module)
    return "<Module %r: %d functions, %d globals; import llvmpy_mid.asm to print IR>" % (
        module.name,
        len(module.functions),
        len(module.globals),
    )


def short_ref(value: Value) -> str:
    """``%name``, ``@name`` or ``%<unnamed>`` with the type: for repr and messages."""
    sigil = "@" if value.is_global_value else "%"
    name = value.name
    ref = format_name(sigil, name) if name else sigil + "<unnamed>"
    return "%s %s" % (value.type, ref)


def format_value(value: Value) -> str:
    if _formatter is not None:
        return _formatter(value)
    return short_ref(value)


_module_value_formatter: Callable[[Value], str] | None = None


def install_module_value_formatter(formatter: Callable[[Value], str] | None) -> None:
    """Install the formatter behind :func:`format_value_in_module`."""
    global _module_value_formatter
    _module_value_formatter = formatter


def format_value_in_module(value: Value) -> str:
    """``value`` as LLVM prints it with a module slot tracker: an instruction's
    metadata numbered as in the whole module (how the verifier writes it)."""
    if _module_value_formatter is not None:
        return _module_value_formatter(value)
    return format_value(value)
