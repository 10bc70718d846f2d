"""Debug info of a global shrunk to a flag (LLVM lib/Transforms/IPO/GlobalOpt.cpp,
the ``DIExpression`` part of ``TryToShrinkGlobalToBoolean``): the new global keeps
the old one's ``!dbg`` attachments (the value-recomputing expression is not built
yet)."""

from __future__ import annotations

from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.global_value import GlobalVariable

__all__ = ["shrink_debug_info"]


def shrink_debug_info(gv: GlobalVariable, new_gv: GlobalVariable, other_val: Constant) -> None:
    """Attach to ``new_gv`` the debug-info expressions describing ``gv``."""
    for node in gv.get_all_metadata("dbg"):
        new_gv.add_metadata("dbg", node)
