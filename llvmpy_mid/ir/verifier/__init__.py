"""The IR verifier: every rule LLVM 19's verifier applies that a module can break.

``verify_module(module)`` / ``verify_function(fn)`` return normally on valid
IR and raise :class:`~llvmpy_mid.errors.VerifierError` listing **all** the
problems found; ``module_diagnostics`` / ``function_diagnostics`` return the
list instead. Each :class:`Diagnostic` carries LLVM's message, the values LLVM
prints after it, and the function, block and instruction where it was found.

Findings about debug info only (LLVM's "broken debug info") are flagged
``debug_info=True``; ``verify_module(..., debug_info=False)`` ignores them, as
``opt`` and ``llvm-as`` do (they drop the debug info with a warning).

Rules are grouped by what they look at, one module each: ``function_rules``,
``attribute_rules``, ``module_rules`` (globals, aliases, comdats, module
flags), ``block_rules``, ``instruction_rules`` (operands, SSA dominance),
``arith_rules``, ``memory_rules``, ``control_rules``, ``call_rules``,
``eh_rules``, ``intrinsic_rules``, ``metadata_rules``; ``driver`` applies them
in LLVM's order. The values are printed through the installed assembly
printer (``import llvmpy_mid`` installs it). Importing this package is cheap:
the driver (and with it every rule module) is imported on the first check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid._lazy import lazy_exports

from llvmpy_mid.errors import VerifierError

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.verifier.diagnostic import Diagnostic
    from llvmpy_mid.ir.verifier.driver import function_diagnostics, module_diagnostics

# Imported on first access (PEP 562): the driver imports every rule module.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "llvmpy_mid.ir.verifier.diagnostic": ("Diagnostic",),
    "llvmpy_mid.ir.verifier.driver": ("function_diagnostics", "module_diagnostics"),
}
_getattr, __dir__ = lazy_exports(globals(), _EXPORTS)
if not TYPE_CHECKING:
    __getattr__ = _getattr


def verify_module(module: Module, *, debug_info: bool = True) -> None:
    """Raise :class:`VerifierError` with every problem in ``module``; return if there is none.

    With ``debug_info=False`` findings about debug info alone do not count."""
    from llvmpy_mid.ir.verifier.driver import module_diagnostics

    found = module_diagnostics(module)
    if not debug_info:
        found = [d for d in found if not d.debug_info]
    if found:
        raise VerifierError(found)


def verify_function(fn: Function, *, debug_info: bool = True) -> None:
    """Raise :class:`VerifierError` with every problem in ``fn``; return if there is none."""
    from llvmpy_mid.ir.verifier.driver import function_diagnostics

    found = function_diagnostics(fn)
    if not debug_info:
        found = [d for d in found if not d.debug_info]
    if found:
        raise VerifierError(found)


def diagnostics_text(diagnostics: list[Diagnostic]) -> str:
    """The findings as LLVM's verifier prints them, one after the other."""
    return "".join(d.text for d in diagnostics)


def upgrade_debug_info(module: Module, name: str) -> bool:
    """The reader's check of a module whose ``Debug Info Version`` is 3 (LLVM's
    ``UpgradeDebugInfo``), made while its debug intrinsics are still calls: True when it finds
    nothing. Findings about debug info alone are reported in an :class:`InvalidDebugInfoWarning`
    and the debug info is dropped (False: the module is to be verified again, as the tools do,
    with every finding an error); any other finding raises :class:`VerifierError` with all of
    them (LLVM's reader aborts there)."""
    import warnings

    from llvmpy_mid.ir.debug_info_strip import strip_debug_info
    from llvmpy_mid.ir.verifier.driver import module_diagnostics

    found = module_diagnostics(module)
    if not found:
        return True
    if not all(d.debug_info for d in found):
        raise VerifierError(found)
    warnings.warn(InvalidDebugInfoWarning(name, found), stacklevel=2)
    strip_debug_info(module)
    return False


class InvalidDebugInfoWarning(UserWarning):
    """Broken debug info was dropped from the module ``name`` (LLVM's reader does the
    same); ``llvm_text`` holds the verifier's findings as LLVM prints them before
    its "ignoring invalid debug info" warning."""

    def __init__(self, name: str, diagnostics: list[Diagnostic]) -> None:
        super().__init__("ignoring invalid debug info in %s" % name)
        self.llvm_text = diagnostics_text(diagnostics)


__all__ = [
    "Diagnostic",
    "InvalidDebugInfoWarning",
    "VerifierError",
    "diagnostics_text",
    "function_diagnostics",
    "module_diagnostics",
    "upgrade_debug_info",
    "verify_function",
    "verify_module",
]
