"""``always-inline``: inlines every call carrying ``alwaysinline`` (LLVM
``AlwaysInlinerPass``, lib/Transforms/IPO/AlwaysInliner.cpp).

How: the module's functions are visited in order. A definition that is not a
pre-split coroutine and whose body is inline-viable (:func:`is_inline_viable`) has
its direct call sites collected (users that call it, have ``alwaysinline`` on the
call or the function, and no ``noinline`` on the call); each is inlined with
attribute merging and lifetime markers (``InlineFunction``). Failures become a
missed remark ``'f' is not inlined into 'g': <reason>``; successes the remark
``'f' inlined into 'g' with (cost=always): always inline attribute``. Then a
function that is ``alwaysinline`` and trivially dead (discardable, used by block
addresses only) is deleted; members of a comdat are deleted together once the
whole comdat is dead.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.inline_viability import is_inline_viable
from llvmpy_mid.analysis.optimization_remark_emitter import standalone_emitter
from llvmpy_mid.analysis.remark import MISSED, PASSED, Remark, location_of_debug_loc
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import BlockAddress
from llvmpy_mid.ir.dead_constants import remove_dead_constant_users
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo, inline_function

__all__ = ["AlwaysInlinerPass", "always_inline_impl"]

DEBUG_TYPE = "inline"


def _location_suffix(remark: Remark, dloc: MDNode | None) -> None:
    """`` at callsite f:line:col;`` (LLVM ``addLocationToRemarks``)."""
    if dloc is None:
        return
    try:
        from llvmpy_mid.analysis.inline_advisor_locations import callsite_location_parts
    except ImportError:  # pragma: no cover - the inliner helper's module
        return
    parts = callsite_location_parts(dloc)
    if not parts:
        return
    remark.add(" at callsite ")
    for i, (name, line, column, disc) in enumerate(parts):
        if i:
            remark.add(" @ ")
        remark.add(name).add(":").add_arg("Line", line).add(":").add_arg("Column", column)
        if disc:
            remark.add(".").add_arg("Disc", disc)
    remark.add(";")


def _is_def_trivially_dead(fn: Function) -> bool:
    if not (fn.has_linkonce_linkage or fn.has_local_linkage or fn.has_available_externally_linkage):
        return False
    return all(isinstance(u, BlockAddress) for u in fn.users)


def _filter_dead_comdat_functions(dead: list[Function]) -> list[Function]:
    """LLVM ``filterDeadComdatFunctions``."""
    members: dict[int, int] = {}
    module = dead[0].parent if dead else None
    if module is not None:
        for gv in (*module.functions, *module.globals, *getattr(module, "aliases", ())):
            c = getattr(gv, "comdat", None)
            if c is not None:
                members[id(c)] = members.get(id(c), 0) + 1
    in_dead: dict[int, int] = {}
    for fn in dead:
        c = fn.comdat
        if c is not None:
            in_dead[id(c)] = in_dead.get(id(c), 0) + 1
    return [fn for fn in dead if fn.comdat is not None and in_dead[id(fn.comdat)] == members.get(id(fn.comdat), 0)]


def always_inline_impl(
    module: Module, insert_lifetime: bool, fam: AnalysisManager[Function] | None, psi: object | None = None
) -> bool:
    """LLVM ``AlwaysInlineImpl``."""
    from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis

    changed = False
    comdat_dead: list[Function] = []
    get_ac = None
    if fam is not None:
        manager = fam

        def get_ac(f: Function) -> object:
            return manager.get_result(AssumptionAnalysis, f)

    for fn in list(module.functions):
        if fn.parent is None:
            continue
        if fn.has_fn_attribute("presplitcoroutine"):
            continue
        if fn.is_declaration or not is_inline_viable(fn).success:
            continue
        calls: list[CallBase] = []
        seen: set[int] = set()
        for user in fn.users:
            if (
                isinstance(user, CallBase)
                and user.called_function is fn
                and user.has_fn_attr("alwaysinline")
                and not user.attributes.fn_attrs.has("noinline")
                and id(user) not in seen
            ):
                seen.add(id(user))
                calls.append(user)
        for call in calls:
            caller = call.function
            assert caller is not None
            dloc = call.debug_loc
            block = call.parent
            assert isinstance(block, BasicBlock)
            ore = standalone_emitter(caller)
            ifi = InlineFunctionInfo(get_assumption_cache=get_ac, psi=psi)
            if fam is not None:
                from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis

                def caller_bfi(manager: AnalysisManager[Function] = fam, caller: Function = caller) -> object:
                    return manager.get_result(BlockFrequencyAnalysis, caller)

                def callee_bfi(manager: AnalysisManager[Function] = fam, callee: Function = fn) -> object:
                    return manager.get_result(BlockFrequencyAnalysis, callee)

                ifi.caller_bfi = caller_bfi
                ifi.callee_bfi = callee_bfi
            aar = None
            if fam is not None:
                from llvmpy_mid.analysis.alias.aa_manager import AAManager

                aar = fam.get_result(AAManager, fn)
            result = inline_function(call, ifi, merge_attributes=True, aa_results=aar, insert_lifetime=insert_lifetime)
            if not result.success:
                def missed(fn: Function = fn, caller: Function = caller, reason: str = result.message) -> Remark:
                    r = Remark(MISSED, DEBUG_TYPE, "NotInlined", caller, location_of_debug_loc(dloc), block)
                    r.add("'").add_arg("Callee", fn).add("' is not inlined into '").add_arg("Caller", caller)
                    r.add("': ").add_arg("Reason", reason)
                    return r

                ore.emit(missed)
                continue

            def passed(fn: Function = fn, caller: Function = caller, dloc: MDNode | None = dloc) -> Remark:
                r = Remark(PASSED, DEBUG_TYPE, "AlwaysInline", caller, location_of_debug_loc(dloc), block)
                r.add("'").add_arg("Callee", fn).add("' inlined into '").add_arg("Caller", caller).add("'")
                r.add(" with ").add("(cost=always)").add(": ").add_arg("Reason", "always inline attribute")
                _location_suffix(r, dloc)
                return r

            ore.emit(passed)
            changed = True
        remove_dead_constant_users(fn)
        if fn.has_fn_attribute("alwaysinline") and _is_def_trivially_dead(fn):
            if fn.comdat is not None:
                comdat_dead.append(fn)
            else:
                _erase_function(fn, fam)
                changed = True
    if comdat_dead:
        for fn in _filter_dead_comdat_functions(comdat_dead):
            _erase_function(fn, fam)
            changed = True
    return changed


def _erase_function(fn: Function, fam: AnalysisManager[Function] | None) -> None:
    if fam is not None:
        fam.clear(fn)
    fn.drop_all_references()
    remove_dead_constant_users(fn)
    fn.erase_from_parent()


class AlwaysInlinerPass(Pass[Module]):
    """LLVM ``AlwaysInlinerPass``."""

    name: ClassVar[str] = "always-inline"

    def __init__(self, insert_lifetime: bool = True) -> None:
        self.insert_lifetime = insert_lifetime

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryAnalysis

        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        psi = am.get_result(ProfileSummaryAnalysis, unit)
        changed = always_inline_impl(unit, self.insert_lifetime, fam, psi)
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()
