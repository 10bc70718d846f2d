"""Debug info of the globals SRA makes (LLVM lib/Transforms/IPO/GlobalOpt.cpp
``transferSRADebugInfo``): not done yet, the parts get no ``!dbg``."""

from __future__ import annotations

from llvmpy_mid.ir.global_value import GlobalVariable

__all__ = ["transfer_sra_debug_info"]


def transfer_sra_debug_info(
    gv: GlobalVariable, ngv: GlobalVariable, fragment_offset_bits: int, fragment_size_bits: int, var_size: int
) -> None:
    """Give ``ngv`` the debug-info expressions of ``gv`` that describe its fragment."""
    return None
