"""Rules on global values and the module (globals, aliases, ifuncs, comdats, named metadata, module flags). (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.checker import Checker


def verify_global_value(c: Checker, gv: GlobalValue) -> None:
    """LLVM's visitGlobalValue: the checks shared by every global value."""


def verify_module_level(c: Checker, module: Module) -> None:
    """Everything LLVM's verify(Module) checks after the functions."""

