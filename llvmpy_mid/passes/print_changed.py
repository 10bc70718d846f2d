"""``-print-changed``: show the IR after each pass that changed it (opt-19's
default ``-print-changed``, LLVM's ``IRChangedPrinter``).

What: :class:`PrintChanged` registers ``PassInstrumentation`` callbacks that
write, to a stream (stderr by default)::

    *** IR Dump At Start ***                          (the module, once)
    *** IR Dump After InstructionNamerPass on f ***   (then the changed unit)
    *** IR Dump After X on f omitted because no change ***
    *** IR Pass PassManager<Function> on f ignored ***

"Ignored" passes are the managers, adaptors, ``VerifierPass`` and
``PrintModulePass``; the top-level module pass manager is not reported
because it does not run under the instrumentation (as in opt).

How: before each non-ignored pass the unit's text is kept on a stack (passes
nest: a function pass manager runs inside an adaptor); after the pass the new
text is compared with it.

What it does not do: no ``-print-changed=diff``/``cdiff``/``quiet`` modes, no
``-filter-passes`` / ``-filter-print-funcs`` ("filtered out" lines), and a
function deleted by a module pass is not reported as "invalidated".
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from llvmpy_mid.asm import print_module
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.instrumentation import PassInstrumentation, unit_name
from llvmpy_mid.passes.print_ir import is_ignored_pass, pass_display_name, unit_text

if TYPE_CHECKING:
    from llvmpy_mid.passes.pass_manager import Pass
    from llvmpy_mid.passes.preserved import PreservedAnalyses


class PrintChanged:
    """The ``-print-changed`` report; ``module`` is dumped "At Start" before the first pass."""

    __slots__ = ("stream", "module", "_started", "_before_texts")

    def __init__(self, instrumentation: PassInstrumentation, module: Module, stream: TextIO | None = None) -> None:
        self.stream = stream
        self.module = module
        self._started = False
        self._before_texts: list[str] = []
        instrumentation.before_pass.append(self._before)
        instrumentation.after_pass.append(self._after)
        instrumentation.after_pass_invalidated.append(self._after_invalidated)

    def _out(self) -> TextIO:
        return self.stream if self.stream is not None else sys.stderr

    def _before(self, pass_: Pass[Any], unit: object) -> None:
        if not self._started:
            self._started = True
            self._out().write("*** IR Dump At Start ***\n" + print_module(self.module))
        if not is_ignored_pass(pass_):
            self._before_texts.append(unit_text(unit))

    def _after(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        name = pass_display_name(pass_)
        where = unit_name(unit)
        out = self._out()
        if is_ignored_pass(pass_):
            out.write("*** IR Pass %s on %s ignored ***\n" % (name, where))
            return
        before = self._before_texts.pop() if self._before_texts else None
        after = unit_text(unit)
        if after == before:
            out.write("*** IR Dump After %s on %s omitted because no change ***\n" % (name, where))
        else:
            out.write("*** IR Dump After %s on %s ***\n" % (name, where))
            out.write(after)

    def _after_invalidated(self, pass_: Pass[Any], pa: PreservedAnalyses) -> None:
        if not is_ignored_pass(pass_) and self._before_texts:
            self._before_texts.pop()


__all__ = ["PrintChanged"]
