"""llvmpy_mid: a pure-Python, typed compiler middle end for LLVM 19's IR.

Quickstart (``llvmpy_mid.examples.path`` names the example that ships with the package)::

    import llvmpy_mid
    from llvmpy_mid import analysis, examples

    m = llvmpy_mid.parse_file(examples.path("sum_pairs.ll"))   # or parse_assembly(text)
    fn = m.get_function("sum_pairs")
    print(repr(fn), repr(fn.entry_block.first_instruction))    # <Function i32 (i32) @sum_pairs> ...
    print(fn)                                    # the IR text, as `opt-19 -S` prints it
    print(analysis.loops(fn))                    # <LoopInfo of @sum_pairs: 2 loops (1 top-level) ...>
    result = llvmpy_mid.run_passes(m, ["loop-simplify", "instnamer", "print<loops>"])
    print(result.changed, result.output)         # what print<loops> printed (also on stderr)

    from llvmpy_mid.ir import Context, Module, Function, IRBuilder
    ctx = Context()
    mod = Module("demo", ctx)
    f = Function(ctx.function_type(ctx.i32, [ctx.i32]), "inc", module=mod, arg_names=["x"])
    b = IRBuilder(f.append_block("entry"))
    b.ret(b.add(f.args[0], 1, "y"))              # Python numbers become constants of the other operand's type
    llvmpy_mid.verify_module(mod)

The IR object model lives in :mod:`llvmpy_mid.ir` and textual IR in
:mod:`llvmpy_mid.asm`; their main names are re-exported here. The re-exports
are lazy (PEP 562): ``import llvmpy_mid`` imports only the error classes and
:mod:`llvmpy_mid.asm` (which installs the assembly printer behind ``str()``);
the IR classes, the verifier and the pass runner are imported when one of
their names is first read from this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid._lazy import lazy_exports

# Importing the asm package installs the printer behind str() of IR values and modules.
from llvmpy_mid.asm import format_value, parse_assembly, parse_file, print_module
from llvmpy_mid.errors import IRError, LLVMPyError, ParseError, PipelineError, VerifierError

if TYPE_CHECKING:
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
    from llvmpy_mid.ir.verifier import (
        Diagnostic,
        function_diagnostics,
        module_diagnostics,
        verify_function,
        verify_module,
    )
    from llvmpy_mid.passes.run import RunResult, run_passes

__version__ = "0.1.0"

# Where each lazily exported name lives; the module is imported on first access (PEP 562).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "llvmpy_mid.ir.basic_block": ("BasicBlock",),
    "llvmpy_mid.ir.builder": ("IRBuilder",),
    "llvmpy_mid.ir.constants": ("Constant", "ConstantFP", "ConstantInt"),
    "llvmpy_mid.ir.context": ("Context",),
    "llvmpy_mid.ir.data_layout": ("DataLayout",),
    "llvmpy_mid.ir.function": ("Argument", "Function"),
    "llvmpy_mid.ir.global_value": ("GlobalVariable",),
    "llvmpy_mid.ir.instruction": ("Instruction",),
    "llvmpy_mid.ir.module": ("Module",),
    "llvmpy_mid.ir.types": ("Type",),
    "llvmpy_mid.ir.value": ("Use", "User", "Value"),
    "llvmpy_mid.ir.verifier": (
        "Diagnostic", "function_diagnostics", "module_diagnostics", "verify_function", "verify_module",
    ),
    "llvmpy_mid.passes.run": ("RunResult", "run_passes"),
}
_getattr, __dir__ = lazy_exports(globals(), _EXPORTS)
if not TYPE_CHECKING:
    __getattr__ = _getattr


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
