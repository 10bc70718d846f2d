"""Which underlying objects are *identified* (LLVM 19.1.7 ``isNoAliasCall``,
``isIdentifiedObject`` and ``isIdentifiedFunctionLocal``, free functions of
``lib/Analysis/AliasAnalysis.cpp``).

- :func:`is_no_alias_call`: a call whose result is ``noalias`` (on the call or the callee);
- :func:`is_identified_object`: an alloca, a global that is not an alias, a ``noalias``
  call result, a ``noalias`` or ``byval`` argument: two different identified objects
  never alias;
- :func:`is_identified_function_local`: the same without globals.

``analysis/loads.py`` re-exports them for its older importers.
"""

from __future__ import annotations

from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalValue
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.value import Value

__all__ = ["is_identified_function_local", "is_identified_object", "is_no_alias_call"]


def is_no_alias_call(v: Value) -> bool:
    """A call whose result is ``noalias`` (LLVM ``isNoAliasCall``)."""
    if not isinstance(v, CallBase):
        return False
    if v.attributes.ret_attrs.has("noalias"):
        return True
    fn = v.called_function
    return fn is not None and fn.attributes.ret_attrs.has("noalias")


def _is_no_alias_or_byval_argument(v: Value) -> bool:
    if not isinstance(v, Argument):
        return False
    attrs = v.attributes
    return attrs.has("noalias") or attrs.has("byval")


def is_identified_object(v: Value) -> bool:
    """Alloca, global (not an alias), ``noalias`` call or argument, ``byval`` argument
    (LLVM ``isIdentifiedObject``)."""
    if isinstance(v, AllocaInst):
        return True
    if isinstance(v, GlobalValue) and not isinstance(v, GlobalAlias):
        return True
    return is_no_alias_call(v) or _is_no_alias_or_byval_argument(v)


def is_identified_function_local(v: Value) -> bool:
    """LLVM ``isIdentifiedFunctionLocal``."""
    return isinstance(v, AllocaInst) or is_no_alias_call(v) or _is_no_alias_or_byval_argument(v)
