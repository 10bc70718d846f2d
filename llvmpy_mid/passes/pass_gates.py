"""The gates that skip optional passes, as opt-19 registers them: ``optnone`` and
``-opt-bisect-limit`` (LLVM's ``OptNoneInstrumentation`` and ``OptPassGateInstrumentation``
over ``OptBisect``; ``llvm/lib/Passes/StandardInstrumentations.cpp``, ``llvm/lib/IR/OptBisect.cpp``).

What: :class:`OptNoneGate` skips every optional pass on a function carrying ``optnone`` and
on the loops of such a function; with a debug log (``-debug-pass-manager``) it writes
``Skipping pass X on f due to optnone attribute``. :class:`OptBisectGate` numbers every
optional pass run (module, SCC, function and loop passes alike) and lets only the first
``limit`` run (``-1``: all), writing ``BISECT: running pass (N) X on unit`` or
``BISECT: NOT running pass (N) X on unit`` for each. Both are ``should_run_optional``
callbacks of a :class:`~llvmpy_mid.passes.instrumentation.PassInstrumentation`; register the
``optnone`` gate first, as opt does (both are asked for every pass, so an ``optnone``
function still advances the bisect count).

Required passes (``Pass.is_required``: pass managers, adaptors, verifiers, printers,
``require<X>``...) are never asked, as in LLVM.

What it does not do: ``-opt-bisect-print-ir-path``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from llvmpy_mid.passes.instrumentation import DebugPassManagerLog, PassInstrumentation, unit_function, unit_name

if TYPE_CHECKING:
    from llvmpy_mid.passes.pass_manager import Pass

__all__ = ["OPT_BISECT_DISABLED", "OptBisectGate", "OptNoneGate"]

OPT_BISECT_DISABLED = 2**31 - 1
"""LLVM's ``OptBisect::Disabled`` (INT_MAX): the limit that turns bisecting off."""

#: Name endings LLVM's ``isIgnored`` never counts (with the pass managers and adaptors).
_IGNORED_SUFFIXES = (
    "PassManager",
    "PassAdaptor",
    "AnalysisManagerProxy",
    "DevirtSCCRepeatedPass",
    "ModuleInlinerWrapperPass",
    "VerifierPass",
    "PrintModulePass",
)


def _is_ignored(pass_: Pass[Any]) -> bool:
    if pass_.is_special:
        return True
    name = pass_.log_name
    lt = name.find("<")
    base = name if lt < 0 else name[:lt]
    return base.endswith(_IGNORED_SUFFIXES)


class OptNoneGate:
    """Skips optional passes on ``optnone`` functions and their loops."""

    __slots__ = ("log",)

    def __init__(self, instrumentation: PassInstrumentation, log: DebugPassManagerLog | None = None) -> None:
        self.log = log
        instrumentation.should_run_optional.append(self.should_run)

    def should_run(self, pass_: Pass[Any], unit: object) -> bool:
        fn = unit_function(unit)
        if fn is None or not fn.has_fn_attribute("optnone"):
            return True
        if self.log is not None:
            self.log.emit("Skipping pass %s on %s due to optnone attribute" % (pass_.log_name, fn.name))
        return False


class OptBisectGate:
    """``-opt-bisect-limit=N``: runs the first ``N`` optional passes (all with ``-1``)."""

    __slots__ = ("limit", "count", "stream")

    def __init__(self, instrumentation: PassInstrumentation, limit: int, stream: TextIO | None = None) -> None:
        self.limit = limit
        self.count = 0
        self.stream = stream
        if limit != OPT_BISECT_DISABLED:
            instrumentation.should_run_optional.append(self.should_run)

    def should_run(self, pass_: Pass[Any], unit: object) -> bool:
        if _is_ignored(pass_):
            return True
        self.count += 1
        run = self.limit == -1 or self.count <= self.limit
        out = self.stream if self.stream is not None else sys.stderr
        out.write(
            "BISECT: %srunning pass (%d) %s on %s\n" % ("" if run else "NOT ", self.count, pass_.log_name, unit_name(unit))
        )
        return run

