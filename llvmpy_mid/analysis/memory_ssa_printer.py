"""MemorySSA's printers and verifier pass (LLVM 19.1.7 ``lib/Analysis/MemorySSA.cpp``:
``MemorySSAAnnotatedWriter``, ``MemorySSAWalkerAnnotatedWriter``, ``MemorySSAPrinterPass``,
``MemorySSAWalkerPrinterPass``, ``MemorySSAVerifierPass``, the ``-dot-cfg-mssa`` graph).

What: ``print<memoryssa>`` writes ``MemorySSA for function: NAME`` and the function with
each access as a comment (``; 3 = MemoryPhi({entry,1},{bb,2})`` after a block's label
line, ``; 1 = MemoryDef(liveOnEntry)`` / ``; MemoryUse(2)`` before an instruction),
after optimising the uses (``print<memoryssa><no-ensure-optimized-uses>``, opt-19's
spelling, leaves them as built; it is registered as its own name). ``print<memoryssa-walker>`` adds `` - clobbered by X`` (the caching walker's
answer) to each use and def. With ``-dot-cfg-mssa=FILE`` ``print<memoryssa>`` writes the
annotated CFG as a DOT graph to FILE instead. ``verify<memoryssa>`` checks the structure
(opt-19, built without assertions, checks nothing; an error here is a bug of ours).
All output goes to stderr as opt's ``dbgs()``.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
from llvmpy_mid.analysis.memory_ssa import LIVE_ON_ENTRY_STR, MemoryAccess, MemorySSA, MemorySSAAnalysis
from llvmpy_mid.asm.printer import AssemblyAnnotationWriter, print_function
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses


class MemorySSAAnnotatedWriter(AssemblyAnnotationWriter):
    """Each access as a ``; ...`` line (phis after the block label, uses and defs before
    their instruction)."""

    def __init__(self, mssa: MemorySSA) -> None:
        self.mssa = mssa
        self._names: dict[BasicBlock, str] | None = None

    def _block_names(self) -> dict[BasicBlock, str]:
        names = self._names
        if names is None:
            from llvmpy_mid.analysis.block_names import block_refs

            names = self._names = block_refs(self.mssa.function)
        return names

    def access_text(self, ma: MemoryAccess) -> str:
        return ma.print_text(self._block_names())

    def emit_basic_block_start_annot(self, bb: BasicBlock) -> str:
        ma = self.mssa.get_memory_access(bb)
        return "; " + self.access_text(ma) + "\n" if ma is not None else ""

    def emit_instruction_annot(self, inst: Instruction) -> str:
        ma = self.mssa.get_memory_access(inst)
        return "; " + self.access_text(ma) + "\n" if ma is not None else ""


class MemorySSAWalkerAnnotatedWriter(MemorySSAAnnotatedWriter):
    """As :class:`MemorySSAAnnotatedWriter`, with each use's and def's clobber."""

    def __init__(self, mssa: MemorySSA) -> None:
        MemorySSAAnnotatedWriter.__init__(self, mssa)
        self.walker = mssa.get_walker()
        self.baa = BatchAAResults(mssa.aa)

    def emit_instruction_annot(self, inst: Instruction) -> str:
        mssa = self.mssa
        ma = mssa.get_memory_access(inst)
        if ma is None:
            return ""
        clobber = self.walker.get_clobbering_memory_access(ma, baa=self.baa)
        text = "; " + self.access_text(ma)
        if clobber is not None:
            text += " - clobbered by "
            text += LIVE_ON_ENTRY_STR if mssa.is_live_on_entry_def(clobber) else self.access_text(clobber)
        return text + "\n"


def print_function_annotated(fn: Function, writer: AssemblyAnnotationWriter) -> str:
    """``F.print(OS, &Writer)``."""
    return print_function(fn, writer)


class _PrinterPass(Pass[Function]):
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def _write(self, text: str) -> None:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(text)


class MemorySSAPrinterPass(_PrinterPass):
    """``print<memoryssa>``: the function annotated with its MemorySSA."""

    name: ClassVar[str] = "print<memoryssa>"

    def __init__(self, ensure_optimized_uses: bool = True, stream: TextIO | None = None) -> None:
        _PrinterPass.__init__(self, stream)
        self.ensure_optimized_uses = ensure_optimized_uses

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        mssa = am.get_result(MemorySSAAnalysis, unit).mssa
        if self.ensure_optimized_uses:
            mssa.ensure_optimized_uses()
        dot_file = OPTIONS.value("dot-cfg-mssa")
        if dot_file:
            from llvmpy_mid.analysis.memory_ssa_dot import write_memory_ssa_dot

            write_memory_ssa_dot(mssa, str(dot_file))
        else:
            self._write("MemorySSA for function: " + unit.name + "\n" + mssa.print_text())
        return PreservedAnalyses.all()


class MemorySSANoEnsurePrinterPass(MemorySSAPrinterPass):
    """``print<memoryssa><no-ensure-optimized-uses>``: the MemorySSA as built (uses not
    optimised first)."""

    name: ClassVar[str] = "print<memoryssa><no-ensure-optimized-uses>"

    def __init__(self, stream: TextIO | None = None) -> None:
        MemorySSAPrinterPass.__init__(self, False, stream)

    @property
    def log_name(self) -> str:
        return "MemorySSAPrinterPass"  # one LLVM class with a parameter (logged and required as such)


class MemorySSAWalkerPrinterPass(_PrinterPass):
    """``print<memoryssa-walker>``: the function with each access and its clobber."""

    name: ClassVar[str] = "print<memoryssa-walker>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        mssa = am.get_result(MemorySSAAnalysis, unit).mssa
        writer = MemorySSAWalkerAnnotatedWriter(mssa)
        self._write("MemorySSA (walker) for function: " + unit.name + "\n" + print_function(unit, writer))
        return PreservedAnalyses.all()


class MemorySSAVerifierPass(Pass[Function]):
    """``verify<memoryssa>``: checks the function's MemorySSA."""

    name: ClassVar[str] = "verify<memoryssa>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        am.get_result(MemorySSAAnalysis, unit).mssa.verify_memory_ssa()
        return PreservedAnalyses.all()


__all__ = [
    "MemorySSAAnnotatedWriter",
    "MemorySSANoEnsurePrinterPass",
    "MemorySSAPrinterPass",
    "MemorySSAVerifierPass",
    "MemorySSAWalkerAnnotatedWriter",
    "MemorySSAWalkerPrinterPass",
    "print_function_annotated",
]
