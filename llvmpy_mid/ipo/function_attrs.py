"""``function-attrs`` and ``rpo-function-attrs``: attributes deduced bottom-up and top-down
over the call graph (LLVM 19.1.7 ``lib/Transforms/IPO/FunctionAttrs.cpp``,
``PostOrderFunctionAttrsPass`` and ``ReversePostOrderFunctionAttrsPass``).

``function-attrs`` is a CGSCC pass: the module adaptor visits the call graph's SCCs callees
first, so what is learnt of a callee serves its callers. On one SCC (without the ``optnone``,
``naked`` and pre-split coroutine functions, which count as unknown calls) it infers, in
LLVM's order: ``returned`` arguments, the SCC's memory effects
(:mod:`~llvmpy_mid.ipo.function_attrs_memory`), argument ``nocapture``/access attributes and
``nonnull`` from call sites (:mod:`~llvmpy_mid.ipo.function_attrs_arguments`), removal of
``convergent``, ``noreturn``, ``willreturn``, ``noundef`` returns; when every call in the
SCC is direct, also ``noalias`` and ``nonnull`` returns
(:mod:`~llvmpy_mid.ipo.function_attrs_returns`), ``nounwind``/``nofree``/``nosync`` and
``norecurse`` (:mod:`~llvmpy_mid.ipo.function_attrs_flags`); finally the attributes the
others imply (``inferAttributesFromOthers``). With ``<skip-non-recursive-function-attrs>``
a one-function SCC without a self edge only gets its argument attributes.

The changed functions and their direct callers have their function analyses invalidated
(CFG analyses kept); the pass then reports every function analysis preserved.

``rpo-function-attrs`` is a module pass: top-down ``norecurse`` for internal functions.

What it does not do: ThinLTO summary propagation (``thinLTOPropagateFunctionAttrs``).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.lazy_call_graph import SCC, LazyCallGraph, LazyCallGraphAnalysis
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ipo.function_attrs_arguments import add_argument_attrs, add_argument_returned_attrs
from llvmpy_mid.ipo.function_attrs_common import SCCNodeSet
from llvmpy_mid.ipo.function_attrs_flags import (
    add_no_recurse_attrs,
    add_no_return_attrs,
    add_will_return,
    deduce_function_attribute_in_rpo,
    infer_attrs_from_function_bodies,
    infer_convergent,
)
from llvmpy_mid.ipo.function_attrs_memory import AARGetter, add_memory_attrs
from llvmpy_mid.ipo.function_attrs_returns import add_no_alias_attrs, add_no_undef_attrs, add_non_null_attrs
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.infer_lib_func_attrs import infer_attributes_from_others

__all__ = [
    "PostOrderFunctionAttrsPass",
    "ReversePostOrderFunctionAttrsPass",
    "derive_attrs_in_post_order",
    "parse_post_order_function_attrs_options",
]


def parse_post_order_function_attrs_options(params: str) -> bool:
    """``skip-non-recursive-function-attrs`` or nothing (opt-19's
    ``parsePostOrderFunctionAttrsPassOptions``)."""
    result = False
    for name in params.split(";") if params else []:
        if name == "skip-non-recursive-function-attrs":
            result = True
        else:
            raise PipelineError("invalid PostOrderFunctionAttrs pass parameter '%s' " % name)
    return result


def _create_scc_node_set(functions: list[Function]) -> tuple[SCCNodeSet, bool]:
    """The SCC's functions to infer for, and whether the SCC has an unknown call."""
    nodes: SCCNodeSet = {}
    has_unknown_call = False
    for fn in functions:
        attrs = fn.attributes
        if attrs.has_fn_attr("optnone") or attrs.has_fn_attr("naked") or attrs.has_fn_attr("presplitcoroutine"):
            has_unknown_call = True
            continue
        if not has_unknown_call:
            for bb in fn.blocks:
                for inst in bb.instructions:
                    if isinstance(inst, CallBase) and inst.called_function is None:
                        has_unknown_call = True
                        break
                if has_unknown_call:
                    break
        nodes[fn] = None
    return nodes, has_unknown_call


def derive_attrs_in_post_order(
    functions: list[Function], aar_getter: AARGetter, arg_attrs_only: bool = False
) -> dict[Function, None]:
    """Infer the attributes of one SCC; the functions that changed (LLVM ``deriveAttrsInPostOrder``)."""
    nodes, has_unknown_call = _create_scc_node_set(functions)
    changed: dict[Function, None] = {}
    if not nodes:
        return changed
    if arg_attrs_only:
        add_argument_attrs(nodes, changed)
        return changed
    add_argument_returned_attrs(nodes, changed)
    add_memory_attrs(nodes, aar_getter, changed)
    add_argument_attrs(nodes, changed)
    infer_convergent(nodes, changed)
    add_no_return_attrs(nodes, changed)
    add_will_return(nodes, changed)
    add_no_undef_attrs(nodes, changed)
    if not has_unknown_call:
        add_no_alias_attrs(nodes, changed)
        add_non_null_attrs(nodes, changed)
        infer_attrs_from_function_bodies(nodes, changed)
        add_no_recurse_attrs(nodes, changed)
    for fn in nodes:
        if infer_attributes_from_others(fn):
            changed[fn] = None
    return changed


class PostOrderFunctionAttrsPass(Pass[SCC]):
    """Deduces function, argument and return attributes bottom-up over the call graph."""

    name: ClassVar[str] = "function-attrs"
    debug_type: ClassVar[str] = "function-attrs"

    def __init__(self, skip_non_recursive: bool = False) -> None:
        self.skip_non_recursive = skip_non_recursive

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        arg_attrs_only = False
        if len(unit) == 1 and self.skip_non_recursive:
            node = unit.nodes[0]
            if not any(target is node for target, _ in node.edges):
                arg_attrs_only = True
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerCGSCCProxy, unit).manager

        def aar_getter(fn: Function) -> AAResults:
            return fam.get_result(AAManager, fn)

        changed = derive_attrs_in_post_order(list(unit.functions), aar_getter, arg_attrs_only)
        if not changed:
            return PreservedAnalyses.all()
        fn_pa = PreservedAnalyses()
        fn_pa.preserve_set(CFGAnalyses)
        for fn in changed:
            fam.invalidate(fn, fn_pa)
            u = fn._use_head
            while u is not None:
                user = u.user
                if isinstance(user, CallBase) and user.called_function is fn:
                    caller = user.function
                    if caller is not None:
                        fam.invalidate(caller, fn_pa)
                u = u._next
        pa = PreservedAnalyses()
        pa.preserve(FunctionAnalysisManagerCGSCCProxy)
        pa.preserve_set(AllAnalysesOnFunction)
        return pa


class ReversePostOrderFunctionAttrsPass(Pass[Module]):
    """Deduces ``norecurse`` top-down for internal functions."""

    name: ClassVar[str] = "rpo-function-attrs"
    debug_type: ClassVar[str] = "function-attrs"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        graph: LazyCallGraph = am.get_result(LazyCallGraphAnalysis, unit)
        if not deduce_function_attribute_in_rpo(unit, graph):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(LazyCallGraphAnalysis)
        return pa
