"""Who may see or write an underlying object (LLVM 19.1.7 ``isNotVisibleOnUnwind`` and
``isWritableObject``, free functions of ``lib/Analysis/AliasAnalysis.cpp``).

- :func:`is_not_visible_on_unwind`: an alloca, a ``byval`` or ``dead_on_unwind``
  argument cannot be seen by the caller once the function unwinds; a ``noalias`` call
  result cannot either, provided it is not captured before the unwind (the second
  element of the answer says the caller must check that).
- :func:`is_writable_object`: an alloca, a ``byval`` argument or a ``noalias`` call
  result may be written; a ``writable`` argument too, but only as far as it is
  explicitly dereferenceable (second element). Globals are not: provenance to write
  them is not known.

Used by memcpyopt (and DSE's unwind rules).
"""

from __future__ import annotations

from llvmpy_mid.analysis.loads import is_no_alias_call
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.value import Value

__all__ = ["is_not_visible_on_unwind", "is_writable_object"]


def is_not_visible_on_unwind(obj: Value) -> tuple[bool, bool]:
    """``(not_visible, requires_no_capture_before_unwind)`` for an underlying object."""
    if isinstance(obj, AllocaInst):
        return True, False
    if isinstance(obj, Argument):
        return obj.has_attribute("byval") or obj.has_attribute("dead_on_unwind"), False
    if is_no_alias_call(obj):
        return True, True
    return False, False


def is_writable_object(obj: Value) -> tuple[bool, bool]:
    """``(writable, explicitly_dereferenceable_only)`` for an underlying object."""
    if isinstance(obj, AllocaInst):
        return True, False
    if isinstance(obj, Argument):
        if obj.has_attribute("writable"):
            return True, True
        return obj.has_attribute("byval"), False
    return is_no_alias_call(obj), False
