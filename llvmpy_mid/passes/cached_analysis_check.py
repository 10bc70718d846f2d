"""The frame of the ``-verify-dom-info``/``-verify-loop-info`` checks: after each (non-special)
function or loop pass, look at the analyses left cached for the pass's function."""

from __future__ import annotations

from typing import Any

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.instrumentation import PassInstrumentation
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["CachedAnalysisCheck"]


class CachedAnalysisCheck:
    """Registers :meth:`check` as an after-pass callback; ``attach(fam)`` names the function
    analysis manager to read (created after the instrumentation). Subclasses define
    :meth:`check`, called with the function the pass ran on (a loop pass: its loop's)."""

    def __init__(self, instrumentation: PassInstrumentation) -> None:
        self._fam: AnalysisManager[Function] | None = None
        instrumentation.after_pass.append(self._after)

    def attach(self, fam: AnalysisManager[Function]) -> None:
        self._fam = fam

    def _after(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        fam = self._fam
        if fam is None or pass_.is_special:
            return
        if isinstance(unit, Function):
            fn = unit
        else:
            parent = getattr(getattr(unit, "header", None), "parent", None)  # a Loop: its function
            if not isinstance(parent, Function):
                return
            fn = parent
        self.check(pass_, fn, pa, fam)

    def check(self, pass_: Pass[Any], fn: Function, pa: PreservedAnalyses, fam: AnalysisManager[Function]) -> None:
        raise NotImplementedError
