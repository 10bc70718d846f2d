"""The symbol-stripping passes of LLVM's ``StripSymbols.cpp``: ``strip``,
``strip-nondebug`` and ``strip-debug-declare``.

What:

* ``strip`` (``StripSymbolsPass``) removes all debug info
  (:func:`llvmpy_mid.ir.debug_info_strip.strip_debug_info`), then the names of
  every local-linkage global variable and function, of every argument, block
  and instruction, and of every identified struct type the module uses; the
  printer then numbers them (``@0``, ``%0``, ``%struct.S`` -> ``%0``).
* ``strip-nondebug`` (``StripNonDebugSymbolsPass``) removes the same names
  but keeps debug info and any name starting with ``llvm.dbg``.
* ``strip-debug-declare`` (``StripDebugDeclarePass``) erases the calls of
  the ``llvm.dbg.declare`` intrinsic and its declaration. As in LLVM 19,
  ``#dbg_declare`` records are left alone (opt-19 prints them unchanged:
  parsed modules hold records, never the intrinsic).

How: globals and functions named in ``llvm.used`` / ``llvm.compiler.used``
(through pointer casts) and those globals themselves keep their names; the
struct types come from the printer's ``TypeFinder`` walk. Each pass reports
the CFG analyses preserved, as LLVM does.

What it does not do: aliases and ifuncs keep their names (LLVM's walk only
visits variables and functions); ``strip-dead-debug-info`` is not here.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.asm.print_types import find_struct_types
from llvmpy_mid.ir.constants import ConstantArray
from llvmpy_mid.ir.debug_info_strip import strip_debug_info
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.global_rules import strip_pointer_casts
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses

_DBG_PREFIX = "llvm.dbg"


def _used_values(module: Module) -> set[int]:
    """Ids of ``llvm.used``, ``llvm.compiler.used`` and the globals they list."""
    used: set[int] = set()
    for name in ("llvm.used", "llvm.compiler.used"):
        gv = module.get_global(name)
        if gv is None:
            continue
        used.add(id(gv))
        init = gv.initializer if not gv.is_declaration else None
        if isinstance(init, ConstantArray):
            for op in init.operands:
                target = strip_pointer_casts(op)
                if isinstance(target, GlobalValue):
                    used.add(id(target))
    return used


def strip_symbol_names(module: Module, preserve_debug: bool) -> None:
    """Clear the names LLVM's ``StripSymbolNames`` clears (see the module doc);
    with ``preserve_debug``, names starting with ``llvm.dbg`` stay."""
    used = _used_values(module)
    for gv in module.globals:
        if gv.has_local_linkage and id(gv) not in used:
            if not (preserve_debug and gv.name.startswith(_DBG_PREFIX)):
                gv.set_name("")
    for fn in module.functions:
        if fn.has_local_linkage and id(fn) not in used:
            if not (preserve_debug and fn.name.startswith(_DBG_PREFIX)):
                fn.set_name("")
        for arg in fn.args:
            if arg.name and not (preserve_debug and arg.name.startswith(_DBG_PREFIX)):
                arg.set_name("")
        for bb in fn.blocks:
            if bb.name and not (preserve_debug and bb.name.startswith(_DBG_PREFIX)):
                bb.set_name("")
            for inst in bb.instructions:
                if inst.name and not (preserve_debug and inst.name.startswith(_DBG_PREFIX)):
                    inst.set_name("")
    for sty in find_struct_types(module):
        if sty.is_literal or not sty.name:
            continue
        if preserve_debug and sty.name.startswith(_DBG_PREFIX):
            continue
        sty.set_name("")


def strip_debug_declare(module: Module) -> None:
    """Erase the calls of ``llvm.dbg.declare`` and its declaration."""
    declare = module.get_function("llvm.dbg.declare")
    if declare is None:
        return
    for use in list(declare.uses):
        user = use.user
        if isinstance(user, CallInst) and user.parent is not None:
            user.erase_from_parent()
    if declare.use_empty:
        declare.erase_from_parent()


def _cfg_preserved() -> PreservedAnalyses:
    return PreservedAnalyses.none().preserve_set(CFGAnalyses)


class StripSymbolsPass(Pass[Module]):
    """``strip``: debug info and local symbol names go."""

    name: ClassVar[str] = "strip"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        strip_debug_info(unit)
        strip_symbol_names(unit, False)
        return _cfg_preserved()


class StripNonDebugSymbolsPass(Pass[Module]):
    """``strip-nondebug``: local symbol names go, debug info and ``llvm.dbg*`` names stay."""

    name: ClassVar[str] = "strip-nondebug"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        strip_symbol_names(unit, True)
        return _cfg_preserved()


class StripDebugDeclarePass(Pass[Module]):
    """``strip-debug-declare``: calls of ``llvm.dbg.declare`` go (records stay, as in LLVM 19)."""

    name: ClassVar[str] = "strip-debug-declare"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        strip_debug_declare(unit)
        return _cfg_preserved()


__all__ = [
    "StripDebugDeclarePass",
    "StripNonDebugSymbolsPass",
    "StripSymbolsPass",
    "strip_debug_declare",
    "strip_symbol_names",
]
