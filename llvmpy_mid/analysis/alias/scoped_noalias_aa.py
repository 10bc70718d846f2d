"""ScopedNoAliasAA: alias and mod/ref answers from ``!alias.scope`` / ``!noalias`` scope
lists (LLVM 19.1.7 ``lib/Analysis/ScopedNoAliasAA.cpp``).

What: an access carries the scopes it belongs to (``!alias.scope``) and the scopes it is
known not to alias (``!noalias``). Scopes are grouped by their domain (a scope node's
second operand). Access A does not alias access B when, for some domain named by B's
``!noalias`` list, every scope of A in that domain is in B's ``!noalias`` list (or the same
with A and B exchanged). The same rule answers a call against a location (with the call's
own attachments) and a call against a call. Option ``-enable-scoped-noalias`` (default on)
turns the provider off. The result is stateless and never invalidated.

What it does not do: nothing left out of LLVM's provider.
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.alias.aa_results import MOD_REF, NO_MOD_REF, AAQueryInfo, AAResultBase
from llvmpy_mid.analysis.alias.alias_result import MAY_ALIAS, NO_ALIAS, AliasResult
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.memory_effects import ModRefInfo
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.preserved import PreservedAnalyses


def _enabled() -> bool:
    return bool(OPTIONS.value("enable-scoped-noalias"))


def scope_domain(scope: MDNode) -> MDNode | None:
    """``AliasScopeNode::getDomain``: a scope node's second operand, if a node."""
    if scope.num_operands < 2:
        return None
    domain = scope.get_operand(1)
    return domain if isinstance(domain, MDNode) else None


def _scopes_in_domain(scope_list: MDNode, domain: MDNode) -> set[int]:
    """The ids of the scope nodes of ``scope_list`` whose domain is ``domain``."""
    found: set[int] = set()
    for op in scope_list.operands:
        if isinstance(op, MDNode) and scope_domain(op) is domain:
            found.add(id(op))
    return found


def may_alias_in_scopes(scopes: MDNode | None, noalias: MDNode | None) -> bool:
    """LLVM ``mayAliasInScopes``: False when, in some domain of ``noalias``'s scopes, the
    scopes of ``scopes`` in that domain are not empty and all listed in ``noalias``."""
    if scopes is None or noalias is None:
        return True
    domains: dict[int, MDNode] = {}
    for op in noalias.operands:
        if isinstance(op, MDNode):
            domain = scope_domain(op)
            if domain is not None:
                domains.setdefault(id(domain), domain)
    for domain in domains.values():
        scope_nodes = _scopes_in_domain(scopes, domain)
        if not scope_nodes:
            continue
        if scope_nodes <= _scopes_in_domain(noalias, domain):
            return False
    return True


class ScopedNoAliasAAResult(AAResultBase):
    """Stateless: never invalidated (as LLVM's)."""

    __slots__ = ()

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return False

    def alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation, aaqi: AAQueryInfo, ctx_i: Instruction | None) -> AliasResult:
        if not _enabled():
            return MAY_ALIAS
        tags_a = loc_a.aa_tags
        tags_b = loc_b.aa_tags
        if not may_alias_in_scopes(tags_a.scope, tags_b.noalias):
            return NO_ALIAS
        if not may_alias_in_scopes(tags_b.scope, tags_a.noalias):
            return NO_ALIAS
        return MAY_ALIAS

    def get_mod_ref_info(self, call: CallBase, loc: MemoryLocation, aaqi: AAQueryInfo) -> ModRefInfo:
        if not _enabled():
            return MOD_REF
        if not may_alias_in_scopes(loc.aa_tags.scope, call.get_metadata("noalias")):
            return NO_MOD_REF
        if not may_alias_in_scopes(call.get_metadata("alias.scope"), loc.aa_tags.noalias):
            return NO_MOD_REF
        return MOD_REF

    def get_mod_ref_info_calls(self, call1: CallBase, call2: CallBase, aaqi: AAQueryInfo) -> ModRefInfo:
        if not _enabled():
            return MOD_REF
        if not may_alias_in_scopes(call1.get_metadata("alias.scope"), call2.get_metadata("noalias")):
            return NO_MOD_REF
        if not may_alias_in_scopes(call2.get_metadata("alias.scope"), call1.get_metadata("noalias")):
            return NO_MOD_REF
        return MOD_REF


class ScopedNoAliasAA(FunctionAnalysis[ScopedNoAliasAAResult]):
    name: ClassVar[str] = "scoped-noalias-aa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> ScopedNoAliasAAResult:
        return ScopedNoAliasAAResult()
