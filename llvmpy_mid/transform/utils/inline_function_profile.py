"""Profile counts of inlined code (LLVM ``updateCallProfile`` / ``updateProfileCallee``,
lib/Transforms/Utils/InlineFunction.cpp)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.clone_function import TrackingValueMap
    from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo

__all__ = ["update_call_profile"]


def update_call_profile(callee: Function, vmap: TrackingValueMap, call: CallBase, ifi: InlineFunctionInfo) -> None:
    return None
