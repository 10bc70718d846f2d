"""Rules on a function itself (LLVM ``Verifier::visitFunction``): signature, arguments, linkage, intrinsic definitions. (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.verifier.checker import Checker


def verify_function(c: Checker, fn: Function) -> None:
    """Check ``fn`` as LLVM's visitFunction does (before its blocks are visited)."""

