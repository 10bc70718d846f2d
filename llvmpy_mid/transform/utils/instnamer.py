"""``instnamer``: gives every unnamed argument, block and non-void instruction
of a function a name (LLVM's ``InstNamerPass``).

How: arguments without a name become ``arg``, blocks ``bb``, instructions that
produce a value ``i``; the function's symbol table makes each unique (``bb1``,
``i2``, ...) exactly as LLVM's does, so the printed text matches
``opt -passes=instnamer``. Like LLVM it reports every analysis preserved (names
do not affect any analysis).

What it does not do: it never renames a value that already has a name, and
never touches declarations (the adaptor only runs it on definitions).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses


class InstNamerPass(Pass[Function]):
    """Names the anonymous values of a function: ``arg``, ``bb``, ``i``."""

    name: ClassVar[str] = "instnamer"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "InstructionNamerPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        for arg in unit.args:
            if not arg.has_name:
                arg.set_name("arg")
        for bb in unit.blocks:
            if not bb.has_name:
                bb.set_name("bb")
            for inst in bb.instructions:
                if not inst.has_name and not inst.type.is_void:
                    inst.set_name("i")
        return PreservedAnalyses.all()


__all__ = ["InstNamerPass"]
