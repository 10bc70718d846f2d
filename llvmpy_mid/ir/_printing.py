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
    from llvmpy_mid.ir.value import Value

_formatter: Callable[[Value], str] | None = None


def install_formatter(formatter: Callable[[Value], str] | None) -> None:
    """Make ``formatter`` the function behind ``str(value)``."""
    global _formatter
    _formatter = formatter


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
