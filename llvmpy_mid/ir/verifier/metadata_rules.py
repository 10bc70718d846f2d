"""Rules on metadata attachments and debug records. (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.checker import Checker


def verify_function_metadata(c: Checker, fn: Function) -> None:
    """The function's own attachments (``!dbg`` subprogram, ``!prof``...) and its debug locations."""


def verify_dbg_records(c: Checker, inst: Instruction) -> None:
    """The ``#dbg_*`` records attached before ``inst`` (checked before the instruction)."""


def verify_attachments(c: Checker, inst: Instruction) -> None:
    """The instruction's metadata attachments (``!range``, ``!tbaa``, ``!dbg``...)."""


def verify_module_metadata(c: Checker, module: Module) -> None:
    """Global attachments, named metadata and the debug-info graph (after module_rules)."""

