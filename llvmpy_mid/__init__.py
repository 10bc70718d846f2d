"""llvmpy_mid: a pure-Python, typed compiler middle end for LLVM 19's IR.

The IR object model lives in :mod:`llvmpy_mid.ir` and textual IR in
:mod:`llvmpy_mid.asm`; their main names are re-exported here.
"""

from __future__ import annotations

from llvmpy_mid.asm import format_value, parse_assembly, parse_file, print_module
from llvmpy_mid.errors import IRError, LLVMPyError, ParseError, PipelineError, VerifierError
from llvmpy_mid.ir import (
    Argument,
    BasicBlock,
    Constant,
    ConstantFP,
    ConstantInt,
    Context,
    DataLayout,
    Function,
    GlobalVariable,
    Instruction,
    IRBuilder,
    Module,
    Type,
    Use,
    User,
    Value,
)
from llvmpy_mid.passes.run import RunResult, run_passes
from llvmpy_mid.ir.verifier import Diagnostic, function_diagnostics, module_diagnostics, verify_function, verify_module

__version__ = "0.1.0"

__all__ = [
    "Argument",
    "BasicBlock",
    "Constant",
    "ConstantFP",
    "ConstantInt",
    "Context",
    "DataLayout",
    "Diagnostic",
    "Function",
    "GlobalVariable",
    "IRBuilder",
    "IRError",
    "Instruction",
    "LLVMPyError",
    "Module",
    "ParseError",
    "PipelineError",
    "RunResult",
    "Type",
    "Use",
    "User",
    "Value",
    "VerifierError",
    "__version__",
    "format_value",
    "function_diagnostics",
    "module_diagnostics",
    "parse_assembly",
    "run_passes",
    "parse_file",
    "print_module",
    "verify_function",
    "verify_module",
]
