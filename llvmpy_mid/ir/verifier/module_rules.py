"""Rules on the module as a whole, in LLVM 19's ``Verifier::verify(Module)`` order.

The driver calls :func:`verify_global_value` for each function (before the
function's own rules, as LLVM's ``visitFunction`` starts with
``visitGlobalValue``) and :func:`verify_module_level` after all functions.
The module level runs, as LLVM does: the global variables, the aliases, the
ifuncs (``global_rules``); [the named metadata: ``metadata_rules``]; the
comdats (here); the module flags, ``!llvm.ident`` and ``!llvm.commandline``
(``module_flag_rules``). :func:`verify_globals` and :func:`verify_module_tail`
are the halves before and after the named metadata, for a driver that walks
the named metadata between them; :func:`verify_module_level` runs both.

Comdats are visited in the module's insertion order; LLVM walks its comdat
hash table, so when several COFF comdats are named after private globals the
order of those findings may differ from opt's. Not done here: the debug-info
compile-unit checks and the ``llvm.experimental.deoptimize`` calling
conventions (other rule modules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.verifier import global_rules, module_flag_rules
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.global_rules import verify_global_value

if TYPE_CHECKING:
    from llvmpy_mid.ir.module import Module


def verify_module_level(c: Checker, module: Module) -> None:
    """Everything LLVM's verify(Module) checks after the functions, but the named metadata."""
    verify_globals(c, module)
    verify_module_tail(c, module)


def verify_globals(c: Checker, module: Module) -> None:
    """Global variables, then aliases, then ifuncs, each in module order."""
    for gv in module.globals:
        global_rules.visit_global_variable(c, gv)
    for ga in module.aliases:
        global_rules.visit_alias(c, ga)
    for gi in module.ifuncs:
        global_rules.visit_ifunc(c, gi)


def verify_module_tail(c: Checker, module: Module) -> None:
    """What LLVM checks after the named metadata: comdats, module flags, idents, command lines."""
    if is_coff_triple(module.target_triple):
        for name in module.comdats:
            _visit_comdat(c, module, name)
    module_flag_rules.verify_module_flags(c, module)
    module_flag_rules.verify_module_idents(c, module)
    module_flag_rules.verify_module_command_lines(c, module)


def _visit_comdat(c: Checker, module: Module, name: str) -> None:
    """COFF has no symbol for a private global, so it cannot name a comdat."""
    gv = module.get_named_value(name)
    if gv is not None and gv.has_private_linkage:
        c.fail("comdat global value has private linkage", gv)


_FORMATS = ("xcoff", "coff", "elf", "goff", "macho", "wasm", "spirv", "dxcontainer")
_COFF_ARCH_PREFIXES = (
    "i386", "i486", "i586", "i686", "i786", "i886", "i986", "x86", "amd64", "arm", "thumb", "aarch64"
)
_COFF_OS_PREFIXES = ("windows", "win32", "mingw", "cygwin", "uefi")


def is_coff_triple(triple: str) -> bool:
    """Whether a target triple's object format is COFF (LLVM ``Triple::isOSBinFormatCOFF``):
    an explicit ``-coff`` environment, or Windows (MSVC, MinGW, Cygwin) or UEFI on x86,
    ARM or AArch64 with no other object format named."""
    if not triple:
        return False
    parts = triple.lower().split("-")
    for env in parts[3:]:
        for fmt in _FORMATS:
            if env.endswith(fmt):
                return fmt == "coff"
    arch = parts[0]
    if arch.startswith(("aarch64_be", "armeb", "thumbeb")):
        return False
    if not (arch in ("", "unknown", "arm64", "arm64ec") or arch.startswith(_COFF_ARCH_PREFIXES)):
        return False
    return any(p.startswith(_COFF_OS_PREFIXES) for p in parts[1:3])


__all__ = [
    "is_coff_triple",
    "verify_global_value",
    "verify_globals",
    "verify_module_level",
    "verify_module_tail",
]
