"""``print<structural-hash>`` and ``print<structural-hash><detailed>``: opt-19's
structural-hash printer (LLVM ``StructuralHashPrinterPass``).

What: writes ``Module Hash: H`` and then ``Function NAME Hash: H`` for every
function definition (declarations are skipped), in module order, to stderr
as opt does. ``H`` is lower-case hexadecimal *without* zero padding (what
opt-19 prints, e.g. ``fbff2f8e607587f``), NAME the raw name (no ``@``, no
quoting; an unnamed function prints an empty name).

How: :func:`llvmpy_mid.ir.structural_hash.module_structural_hash` and
:func:`~llvmpy_mid.ir.structural_hash.structural_hash`; the detailed pass
passes ``detailed=True``. Both log as ``StructuralHashPrinterPass`` under
``-debug-pass-manager``, as opt-19 does for either spelling.

What it does not do: change the module (it preserves every analysis).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.structural_hash import module_structural_hash, structural_hash
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["DetailedStructuralHashPrinterPass", "StructuralHashPrinterPass", "format_structural_hashes"]


def format_structural_hashes(module: Module, detailed: bool = False) -> str:
    """The text opt-19's structural-hash printer writes for ``module``."""
    out = ["Module Hash: %x\n" % module_structural_hash(module, detailed)]
    for fn in module.functions:
        if fn.is_declaration:
            continue
        out.append("Function %s Hash: %x\n" % (fn.name, structural_hash(fn, detailed)))
    return "".join(out)


class StructuralHashPrinterPass(Pass[Module]):
    """``print<structural-hash>``: the plain (opcode-only) hashes."""

    name: ClassVar[str] = "print<structural-hash>"
    detailed: ClassVar[bool] = False

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    @property
    def log_name(self) -> str:
        return "StructuralHashPrinterPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(format_structural_hashes(unit, self.detailed))
        return PreservedAnalyses.all()


class DetailedStructuralHashPrinterPass(StructuralHashPrinterPass):
    """``print<structural-hash><detailed>``: the detailed hashes (types, predicates, operands)."""

    name: ClassVar[str] = "print<structural-hash><detailed>"
    detailed: ClassVar[bool] = True
