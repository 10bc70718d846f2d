"""TypeBasedAA: alias and mod/ref answers from struct-path ``!tbaa`` access tags (LLVM
19.1.7 ``lib/Analysis/TypeBasedAliasAnalysis.cpp``, the ``TypeBasedAAResult`` provider).

What: two accesses whose tags do not match (neither accessed object may be a subobject
of the other in the type DAG, and both types share a root) do not alias; both the old
and the new (size-aware) struct-path formats are read, through the tag helpers of
:mod:`llvmpy_mid.analysis.type_based_alias_analysis`. A tag with the "constant" flag set
describes memory nothing modifies: its location's mod/ref mask is ``NoModRef`` and a call
carrying such a tag has no memory effects. A call's ``!tbaa`` tag is matched against a
location's tag or another call's. Option ``-enable-tbaa`` (default on) turns the
provider off. The result is stateless and never invalidated.

What it does not do: nothing left out of LLVM's provider.
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.alias.aa_results import MOD_REF, NO_MOD_REF, AAQueryInfo, AAResultBase
from llvmpy_mid.analysis.alias.alias_result import MAY_ALIAS, NO_ALIAS, AliasResult
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.type_based_alias_analysis import is_type_immutable_tag, tbaa_aliases
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.memory_effects import MemoryEffects, ModRefInfo
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.preserved import PreservedAnalyses


def _enabled() -> bool:
    return bool(OPTIONS.value("enable-tbaa"))


class TypeBasedAAResult(AAResultBase):
    """Stateless: never invalidated (as LLVM's)."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return False

    def alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation, aaqi: AAQueryInfo, ctx_i: Instruction | None) -> AliasResult:
        if not _enabled():
            return MAY_ALIAS
        if tbaa_aliases(loc_a.aa_tags.tbaa, loc_b.aa_tags.tbaa):
            return MAY_ALIAS
        return NO_ALIAS

    def get_mod_ref_info_mask(self, loc: MemoryLocation, aaqi: AAQueryInfo, ignore_locals: bool) -> ModRefInfo:
        if not _enabled():
            return MOD_REF
        tag = loc.aa_tags.tbaa
        if tag is not None and is_type_immutable_tag(tag):
            return NO_MOD_REF
        return MOD_REF

    def get_memory_effects(self, call: CallBase, aaqi: AAQueryInfo) -> MemoryEffects:
        if not _enabled():
            return MemoryEffects.unknown()
        tag = call.get_metadata("tbaa")
        if tag is not None and is_type_immutable_tag(tag):
            return MemoryEffects.none()
        return MemoryEffects.unknown()

    def get_function_memory_effects(self, fn: Function) -> MemoryEffects:
        return MemoryEffects.unknown()

    def get_mod_ref_info(self, call: CallBase, loc: MemoryLocation, aaqi: AAQueryInfo) -> ModRefInfo:
        if not _enabled():
            return MOD_REF
        loc_tag = loc.aa_tags.tbaa
        if loc_tag is not None:
            call_tag = call.get_metadata("tbaa")
            if call_tag is not None and not tbaa_aliases(loc_tag, call_tag):
                return NO_MOD_REF
        return MOD_REF

    def get_mod_ref_info_calls(self, call1: CallBase, call2: CallBase, aaqi: AAQueryInfo) -> ModRefInfo:
        if not _enabled():
            return MOD_REF
        tag1 = call1.get_metadata("tbaa")
        if tag1 is not None:
            tag2 = call2.get_metadata("tbaa")
            if tag2 is not None and not tbaa_aliases(tag1, tag2):
                return NO_MOD_REF
        return MOD_REF


class TypeBasedAA(FunctionAnalysis[TypeBasedAAResult]):
    name: ClassVar[str] = "tbaa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> TypeBasedAAResult:
        return TypeBasedAAResult()
