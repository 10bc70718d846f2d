"""The hook through which values print themselves.

The IR layer knows nothing of assembly text. ``str(value)`` asks the
formatter installed here; the assembly printer installs LLVM's printer when
it is imported (``import llvmpy_mid`` does that). Until then a short
description is used.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Callable, Protocol

from llvmpy_mid.ir.names import format_name

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import Metadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

_formatter: Callable[[Value], str] | None = None
_module_formatter: Callable[[Module], str] | None = None
_repr_formatter: Callable[[Value], str] | None = None
_ref_formatter: Callable[[Value], str] | None = None


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


def html_listing(text: str) -> str:
    """IR text as escaped HTML in a ``<pre>`` block, comments greyed (for ``_repr_html_``)."""
    out: list[str] = []
    escape = html.escape
    for line in text.split("\n"):
        semi = line.find(";")
        if semi >= 0 and '"' not in line[:semi]:
            out.append(escape(line[:semi], quote=False) + '<span style="color:#777">' + escape(line[semi:], quote=False) + "</span>")
        else:
            out.append(escape(line, quote=False))
    return '<pre class="llvm-ir" style="line-height:1.25">' + "\n".join(out) + "</pre>"


def install_repr_formatter(
    formatter: Callable[[Value], str] | None, ref_formatter: Callable[[Value], str] | None = None
) -> None:
    """Make ``formatter`` the function behind ``repr(value)`` and ``ref_formatter``
    the one behind :func:`value_ref` (the assembly printer installs both)."""
    global _repr_formatter, _ref_formatter
    _repr_formatter = formatter
    _ref_formatter = ref_formatter


def value_repr(value: Value) -> str:
    """``repr(value)``: ``<AddInst %7 = add nsw i32 %5, 1>``, ``<Argument i32 %x>``.

    Never raises: a value the printer cannot write gets the short form."""
    if _repr_formatter is not None:
        try:
            return _repr_formatter(value)
        except Exception:  # a repr must not fail (it appears in error messages)
            pass
    if value.is_instruction and getattr(value, "is_erased", False):
        return "<erased %s>" % type(value).__name__
    return "<%s %s>" % (type(value).__name__, short_ref(value))


def block_ref(block: Value) -> str:
    """``%entry`` or ``%7``: a block or global without its type (for analysis reprs)."""
    text = value_ref(block)
    if text.startswith("label "):
        return text[6:]
    at = text.find(" @")
    return text[at + 1 :] if at >= 0 else text


def value_ref(value: Value) -> str:
    """The value as an operand with its type (``i32 %7``, ``ptr @g``), for messages."""
    if _ref_formatter is not None:
        try:
            return _ref_formatter(value)
        except Exception:
            pass
    return short_ref(value)
