"""``strip-dead-prototypes``: deletes function and global-variable declarations
that nothing uses (LLVM's ``StripDeadPrototypesPass``).

How: one walk over the functions erases each declaration without uses (and
counts it in the ``NumDeadPrototypes`` statistic), then one walk over the
global variables erases each unused declaration. As in LLVM, only the removal
of functions counts as a change: a run that only dropped variable
declarations still reports every analysis preserved, one that dropped a
function preserves nothing.

What it does not do: definitions, aliases and ifuncs are never removed, nor a
declaration still referenced by anything (a constant, ``llvm.used``, ...).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic

NUM_DEAD_PROTOTYPES = Statistic("strip-dead-prototypes", "NumDeadPrototypes", "Number of dead prototypes removed")


class StripDeadPrototypesPass(Pass[Module]):
    """Erases unused function and global-variable declarations."""

    name: ClassVar[str] = "strip-dead-prototypes"
    debug_type: ClassVar[str] = "strip-dead-prototypes"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        changed = False
        for fn in list(unit.functions):
            if fn.is_declaration and fn.use_empty:
                fn.erase_from_parent()
                NUM_DEAD_PROTOTYPES.add()
                changed = True
        for gv in list(unit.globals):
            if gv.is_declaration and gv.use_empty:
                gv.erase_from_parent()
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()


__all__ = ["NUM_DEAD_PROTOTYPES", "StripDeadPrototypesPass"]
