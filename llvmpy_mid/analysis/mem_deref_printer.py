"""``print-memderefs`` (LLVM ``lib/Analysis/MemDerefPrinter.cpp``): for every load of a
function, whether its pointer is known dereferenceable for the loaded type
(``isDereferenceablePointer``) and, if so, whether also at the load's alignment
(``isDereferenceableAndAlignedPointer``), printed as opt-19 prints it::

    Memory Dereferencibility of pointers in function 'f'
    The following are dereferenceable:
      %p = alloca i32, align 4\t(aligned)

The queries get no context instruction, as LLVM's printer passes none.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer_for_type, is_dereferenceable_pointer
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["MemDerefPrinterPass"]


class MemDerefPrinterPass(Pass[Function]):
    """``print-memderefs``: the dereferenceable load pointers of each function, to stderr."""

    name: ClassVar[str] = "print-memderefs"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.asm.printer import format_value

        out = self.stream if self.stream is not None else sys.stderr
        out.write("Memory Dereferencibility of pointers in function '%s'\n" % unit.name)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout()
        deref: list[Value] = []
        aligned: set[int] = set()
        for bb in unit.blocks:
            for inst in bb.instructions:
                if not isinstance(inst, LoadInst):
                    continue
                ptr = inst.pointer_operand
                if is_dereferenceable_pointer(ptr, inst.type, dl):
                    deref.append(ptr)
                if is_dereferenceable_and_aligned_pointer_for_type(ptr, inst.type, inst.alignment or 1, dl):
                    aligned.add(id(ptr))
        out.write("The following are dereferenceable:\n")
        for v in deref:
            text = format_value(v)
            if v.is_instruction:
                text = "  " + text  # Value::print indents an instruction as in a block
            out.write("  %s\t(%s)\n" % (text, "aligned" if id(v) in aligned else "unaligned"))
        return PreservedAnalyses.all()
