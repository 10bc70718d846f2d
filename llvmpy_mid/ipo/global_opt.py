"""``globalopt``: optimise global variables and functions whose uses are all known
(LLVM lib/Transforms/IPO/GlobalOpt.cpp, ``optimizeGlobalsInModule`` and
``GlobalOptPass::run``).

Until nothing changes, each round: works on the functions
(:mod:`ipo.global_opt_functions`: dead ones deleted, unreachable blocks removed,
``unnamed_addr``, fastcc/coldcc, ``nest``/``inalloca``/``preallocated``
dropped); evaluates the static constructors of ``llvm.global_ctors`` it can
(:mod:`transform.utils.evaluator`) and folds their stores into initializers;
works on the global variables (:mod:`ipo.global_opt_process`: initializers
folded, dead ones deleted, localised, marked constant, split, the stored-once
rewrites, shrink-to-bool); resolves aliases, drops empty ``atexit`` handlers,
resolves static ifuncs and deletes dead ones. A comdat is kept whole: a member
is deleted only when every member is discardable and unused.

Options: ``-enable-coldcc-stress-test`` and ``-coldcc-rel-freq`` (the latter only
matters on targets that want coldcc for cold functions, not modelled).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis, BlockFrequencyInfo
from llvmpy_mid.analysis.constant_folding import constant_fold_constant
from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Comdat, GlobalVariable, Linkage
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.ipo.global_opt_aliases import (
    delete_dead_ifuncs,
    find_at_exit_lib_func,
    optimize_empty_global_at_exit_dtors,
    optimize_global_aliases,
    optimize_static_ifuncs,
)
from llvmpy_mid.ipo.global_opt_ctors import evaluate_static_constructor
from llvmpy_mid.ipo.global_opt_functions import optimize_functions
from llvmpy_mid.ipo.global_opt_process import comdat_of, delete_if_dead, is_def_trivially_dead, process_global
from llvmpy_mid.ipo.global_opt_cleanup import GetTLI
from llvmpy_mid.ipo.global_opt_process import LookupDomTree
from llvmpy_mid.transform.utils.ctor_utils import optimize_global_ctors_list

__all__ = ["GlobalOptPass"]

declare_option(
    "enable-coldcc-stress-test", "bool", False,
    "Enable stress test of coldcc by adding calling conv to all internal functions.", "globalopt",
)  # fmt: skip
declare_option(
    "coldcc-rel-freq", "int", 2,
    "Maximum block frequency, expressed as a percentage of caller's entry frequency, for a call site to be "
    "considered cold for enablingcoldcc", "globalopt",
)  # fmt: skip


def _not_discardable_comdats(module: Module) -> set[Comdat]:
    found: set[Comdat] = set()
    for gv in module.globals:
        c = gv.comdat
        if c is not None and (not gv.is_discardable_if_unused or not gv.use_empty):
            found.add(c)
    for fn in module.functions:
        c = fn.comdat
        if c is not None and not is_def_trivially_dead(fn):
            found.add(c)
    for ga in module.aliases:
        c = comdat_of(ga)
        if c is not None and (not ga.is_discardable_if_unused or not ga.use_empty):
            found.add(c)
    return found


def _optimize_global_vars(
    module: Module, get_tli: GetTLI, lookup_dom_tree: LookupDomTree, not_discardable: set[Comdat]
) -> bool:
    changed = False
    dl = module.data_layout
    gv: GlobalVariable | None = module.globals.first
    while gv is not None:
        nxt = gv._next
        assert nxt is None or isinstance(nxt, GlobalVariable)
        if not gv.has_name and not gv.is_declaration and not gv.has_local_linkage:
            gv.linkage = Linkage.INTERNAL
        init = gv.initializer
        if init is not None:
            folded = constant_fold_constant(init, dl, None)
            if folded is not init:
                gv.initializer = folded
        if delete_if_dead(gv, not_discardable):
            changed = True
        else:
            changed |= process_global(gv, get_tli, lookup_dom_tree)
        gv = nxt
    return changed


class GlobalOptPass(Pass[Module]):
    """Optimises the module's globals and functions whose uses are all visible."""

    name: ClassVar[str] = "globalopt"
    debug_type: ClassVar[str] = "globalopt"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager

        def get_tli(fn: Function) -> TargetLibraryInfo:
            return fam.get_result(TargetLibraryAnalysis, fn)

        def lookup_dom_tree(fn: Function) -> DominatorTree:
            return fam.get_result(DominatorTreeAnalysis, fn)

        def changed_cfg(fn: Function) -> None:
            fam.invalidate(fn, PreservedAnalyses.none())

        def on_delete(fn: Function) -> None:
            if fn in fam.cached_units():
                fam.instrumentation.run_analyses_cleared(fn.name)
            fam.clear(fn)

        def get_bfi(fn: Function) -> BlockFrequencyInfo:
            return fam.get_result(BlockFrequencyAnalysis, fn)

        def get_tti(fn: Function) -> object:
            return fam.get_result(TargetIRAnalysis, fn)

        stress = bool(OPTIONS.value("enable-coldcc-stress-test"))
        rel_freq_opt = OPTIONS.value("coldcc-rel-freq")
        rel_freq = rel_freq_opt if isinstance(rel_freq_opt, int) else 2
        changed = False
        local_change = True
        first_not_evaluated: list[int] = []
        dl = unit.data_layout
        while local_change:
            local_change = False
            not_discardable = _not_discardable_comdats(unit)
            local_change |= optimize_functions(
                unit, get_tli, lookup_dom_tree, not_discardable, changed_cfg, on_delete, stress, get_bfi, get_tti,
                rel_freq,
            )

            def should_remove(priority: int, fn: Function) -> bool:
                if first_not_evaluated and first_not_evaluated[0] != priority:
                    return False
                ok = evaluate_static_constructor(fn, dl, get_tli(fn))
                if not ok and not first_not_evaluated:
                    first_not_evaluated.append(priority)
                elif not ok:
                    first_not_evaluated[0] = priority
                return ok

            local_change |= optimize_global_ctors_list(unit, should_remove)
            local_change |= _optimize_global_vars(unit, get_tli, lookup_dom_tree, not_discardable)
            local_change |= optimize_global_aliases(unit, not_discardable)
            cxa = find_at_exit_lib_func(unit, get_tli, "cxa_atexit")
            if cxa is not None:
                local_change |= optimize_empty_global_at_exit_dtors(cxa, True)
            at_exit = find_at_exit_lib_func(unit, get_tli, "atexit")
            if at_exit is not None:
                local_change |= optimize_empty_global_at_exit_dtors(at_exit, False)
            local_change |= optimize_static_ifuncs(unit)
            local_change |= delete_dead_ifuncs(unit, not_discardable)
            changed |= local_change
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses.none()
        pa.preserve(FunctionAnalysisManagerModuleProxy)
        pa.preserve_set(CFGAnalyses)
        return pa
