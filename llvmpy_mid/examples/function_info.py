"""The pass-author walkthrough: a ``function-info`` module pass (the first assignment of the
compiler-course text the project follows).

For each function of the module it reports the name, the number of arguments (``*`` for a
variadic function), the number of direct call sites in the whole module, the number of basic
blocks and the number of instructions. Declarations are listed too (0 blocks, 0 instructions),
since they can be called.

Run it::

    python -m llvmpy_mid.examples.function_info prog.ll               # from Python (this file)
    llvmpy-opt -passes=function-info -disable-output prog.ll           # registered as a plugin
    python -c "import llvmpy_mid, llvmpy_mid.examples.function_info as fi; \\
        print(llvmpy_mid.run_passes(llvmpy_mid.parse_file('prog.ll'), 'function-info'))"

``llvmpy-opt`` finds the pass through the entry point this package declares in its
``pyproject.toml`` (group ``llvmpy_mid.passes``): importing this module runs the
``@register_pass`` decorator below, which is all a third-party package needs to do too.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.registry import register_pass
from llvmpy_mid.passes.statistics import Statistic

# Step 1: statistics are declared once, at module level, with the pass's debug type.
NUM_FUNCTIONS = Statistic("function-info", "NumFunctions", "Number of functions reported")

_CALLS = ("call", "invoke", "callbr")


def direct_call_sites(module: Module) -> dict[Function, int]:
    """How many call/invoke/callbr instructions in ``module`` call each function directly.

    One walk over the module's instructions: O(instructions). (Walking every function's use-list
    would work too; a use that is not the callee of a call, e.g. a stored address, must not count.)"""
    counts: dict[Function, int] = {}
    for fn in module.functions:
        for bb in fn.blocks:
            for inst in bb.instructions:
                if inst.opcode in _CALLS:
                    callee = inst.operands[-1]  # LLVM keeps the callee as the last operand
                    if isinstance(callee, Function):
                        counts[callee] = counts.get(callee, 0) + 1
    return counts


def function_info(module: Module) -> list[tuple[str, str, int, int, int]]:
    """(name, number of arguments, direct call sites, blocks, instructions) per function."""
    calls = direct_call_sites(module)
    rows = []
    for fn in module.functions:
        nargs = str(len(fn.args)) + ("*" if fn.function_type.is_vararg else "")
        blocks = len(fn.blocks)
        insts = sum(len(bb.instructions) for bb in fn.blocks)
        rows.append((fn.name, nargs, calls.get(fn, 0), blocks, insts))
    return rows


def format_function_info(rows: list[tuple[str, str, int, int, int]]) -> str:
    header = ("Name", "Args", "Calls", "Blocks", "Insts")
    width = max([len(header[0])] + [len(r[0]) for r in rows])
    lines = ["%-*s %5s %6s %7s %6s" % (width, *header)]
    lines += ["%-*s %5s %6d %7d %6d" % (width, *r) for r in rows]
    return "\n".join(lines) + "\n"


# Step 2: the pass is a class with ``run(unit, analysis_manager) -> PreservedAnalyses``;
# the decorator gives it its pipeline name and level.
@register_pass("function-info", "module")
class FunctionInfoPass(Pass[Module]):
    """Writes the function-info table (to stderr, as opt's printer passes do)."""

    name: ClassVar[str] = "function-info"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        rows = function_info(unit)
        NUM_FUNCTIONS.add(len(rows))
        (self.stream if self.stream is not None else sys.stderr).write(format_function_info(rows))
        # Step 3: say what stayed valid. Nothing was changed, so every analysis is preserved.
        return PreservedAnalyses.all()


def main(argv: list[str]) -> int:
    import llvmpy_mid

    if len(argv) != 1:
        print("usage: python -m llvmpy_mid.examples.function_info FILE.ll", file=sys.stderr)
        return 1
    module = llvmpy_mid.parse_file(argv[0])
    sys.stdout.write(format_function_info(function_info(module)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
