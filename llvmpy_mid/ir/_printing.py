"""The hook through which values print themselves.

The IR layer knows nothing of assembly text. ``str(value)`` asks the
formatter installed here; the assembly printer installs LLVM's printer when
it is imported (``import llvmpy_mid`` does that). Until then a short
description is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

from llvmpy_mid.ir.names import format_name

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import Metadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

_formatter: Callable[[Value], str] | None = None
_module_formatter: Callable[[Module], str] | None = None


def install_formatter(
    formatter: Callable[[Value], str] | None, module_formatter: Callable[[Module], str] | None = None
) -> None:
    """Make ``formatter`` the function behind ``str(value)`` and
    ``module_formatter`` the one behind ``str(module)``."""
    global _formatter, _module_formatter
    _formatter = formatter
    _module_formatter = module_formatter


class DiagnosticWriter(Protocol):
    """Writes values as LLVM's verifier does, for one module that does not change
    while it is used: the numbering (module metadata, a function's locals) is
    computed once, as LLVM's verifier keeps one ``ModuleSlotTracker``."""

    def instruction(self, inst: Value) -> str:
        """The instruction line without its indent, metadata numbered module-wide."""
        ...

    def operand(self, value: Value) -> str:
        """``printAsOperand(OS, true)``: ``ptr @f``, ``label %3``, ``i32 %x``."""
        ...

    def metadata(self, md: Metadata) -> str:
        """``Metadata::print``: ``!3 = !{i32 1}``; other metadata as an operand."""
        ...


class _ShortWriter:
    """Until the assembly printer is installed: short references only."""

    def instruction(self, inst: Value) -> str:
        return short_ref(inst)

    def operand(self, value: Value) -> str:
        return short_ref(value)

    def metadata(self, md: Metadata) -> str:
        return "<%s>" % type(md).__name__


_writer_factory: Callable[[Module | None], DiagnosticWriter] | None = None


def install_diagnostic_writer(factory: Callable[[Module | None], DiagnosticWriter] | None) -> None:
    """Install the factory behind :func:`diagnostic_writer` (the assembly printer does)."""
    global _writer_factory
    _writer_factory = factory


def diagnostic_writer(module: Module | None) -> DiagnosticWriter:
    """A :class:`DiagnosticWriter` for ``module``."""
    if _writer_factory is not None:
        return _writer_factory(module)
    return _ShortWriter()


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
