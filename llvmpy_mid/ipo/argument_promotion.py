"""``argpromotion``: pass pointer arguments that are only read by value (LLVM 19's
``ArgumentPromotionPass``, lib/Transforms/IPO/ArgumentPromotion.cpp).

What: a CGSCC pass. For each function of the SCC that is local, not naked,
not variadic, without ``inalloca`` parameters, only called directly (with its
own function type, never ``musttail``) and making no ``musttail`` call, each
pointer argument is examined (:mod:`llvmpy_mid.ipo.argument_promotion_parts`);
an ``sret`` argument becomes ``noalias`` on the way (on the function and its
calls, whether or not anything is promoted). The arguments whose parts the
callers can pass in the same way as the callee expects
(:mod:`llvmpy_mid.analysis.target_call_abi`) are promoted, unless the new
signature would exceed the target's argument limit: the function is replaced
(:mod:`llvmpy_mid.ipo.argument_promotion_rewrite`) and the SCC is walked again
until nothing changes. A function that calls itself, or an SCC of several
functions, is recursive: then no part may be a pointer.

How: the new function takes the place of the old one in its SCC node (the
module adaptor rebuilds the call graph, as the references changed); the old
function's analyses are dropped and its callers' analyses other than the CFG
ones are invalidated.

What it does not do: the part limit (LLVM's ``MaxElements``, 2) is a constructor
argument only, as in LLVM 19 whose pipeline text takes no parameter for this pass;
the x86 ABI check reads the subtarget from the feature string only
(:mod:`llvmpy_mid.analysis.target_call_abi`).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.lazy_call_graph import SCC, LazyCallGraphAnalysis
from llvmpy_mid.analysis.target_call_abi import are_types_abi_compatible, max_num_args
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.types import Type, TypeID
from llvmpy_mid.ipo.argument_promotion_parts import ArgPart, find_arg_parts
from llvmpy_mid.ipo.argument_promotion_rewrite import PromotedParts, do_promotion
from llvmpy_mid.ipo.dead_argument_elimination import get_terminating_must_tail_call
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, CFGAnalyses, PreservedAnalyses

__all__ = ["ArgumentPromotionPass", "promote_arguments"]


def _direct_calls_only(fn: Function) -> bool | None:
    """None when some use of ``fn`` is not a plain direct call; else whether it calls itself."""
    recursive = False
    for use in fn.uses:
        cb = use.user
        if not isinstance(cb, CallBase) or use is not cb.called_operand_use:
            return None
        if cb.function_type is not fn.function_type or getattr(cb, "is_must_tail_call", False):
            return None
        if cb.function is fn:
            recursive = True
    return recursive


def _replace_sret_with_noalias(fn: Function, arg: Argument) -> None:
    arg_no = arg.arg_no
    noalias = Attribute.enum("noalias")
    fn.attributes = fn.attributes.without_param_attr(arg_no, "sret").with_param_attr(arg_no, noalias)
    for use in fn.uses:
        cb = use.user
        assert isinstance(cb, CallBase)
        cb.attributes = cb.attributes.without_param_attr(arg_no, "sret").with_param_attr(arg_no, noalias)


def _abi_compatible(types: list[Type], fn: Function) -> bool:
    for use in fn.uses:
        cb = use.user
        if not isinstance(cb, CallBase):
            return False
        caller = cb.function
        callee = cb.called_function
        if caller is None or callee is None or not are_types_abi_compatible(caller, callee, types):
            return False
    return True


def promote_arguments(
    fn: Function, fam: AnalysisManager[Function], max_elements: int, is_recursive: bool
) -> Function | None:
    """Promote what can be promoted of ``fn``'s pointer arguments; the new
    function, or None when ``fn`` is left as it is (LLVM ``promoteArguments``)."""
    if fn.is_declaration or fn.has_fn_attribute("naked") or not fn.has_local_linkage or fn.is_vararg:
        return None
    if fn.attributes.has_attr_somewhere("inalloca"):
        return None
    pointer_args = [arg for arg in fn.args if arg.type.type_id is TypeID.POINTER]
    if not pointer_args:
        return None
    self_recursive = _direct_calls_only(fn)
    if self_recursive is None:
        return None
    is_recursive = is_recursive or self_recursive
    for bb in fn.blocks:
        if get_terminating_must_tail_call(bb) is not None:
            return None
    module = fn.parent
    assert module is not None
    dl = module.data_layout
    aa = fam.get_result(AAManager, fn)

    to_promote: PromotedParts = {}
    num_args_after = len(fn.function_type.params)
    for arg in pointer_args:
        if fn.attributes.has_param_attr(arg.arg_no, "sret"):
            _replace_sret_with_noalias(fn, arg)
        parts: list[tuple[int, ArgPart]] | None = find_arg_parts(arg, dl, aa, max_elements, is_recursive)
        if parts is None:
            continue
        if _abi_compatible([part.ty for _, part in parts], fn):
            num_args_after += len(parts) - 1
            to_promote[arg] = parts
    if not to_promote:
        return None
    if num_args_after > max_num_args(fn):
        return None
    return do_promotion(fn, fam, to_promote)


def _replace_node_function(am: AnalysisManager[SCC], scc: SCC, index: int, new: Function) -> None:
    """``new`` takes the place of the SCC's function ``index`` in the call graph."""
    node = scc.nodes[index]
    graph = am.outer(LazyCallGraphAnalysis, scc) if am.outer_manager is not None else None
    if graph is not None and graph.node(node.function) is node:
        graph.replace_node_function(node, new)
    else:
        node.function = new
    scc.functions[index] = new


class ArgumentPromotionPass(Pass[SCC]):
    """Promote by-reference arguments to by-value ones (LLVM ``argpromotion``)."""

    name: ClassVar[str] = "argpromotion"

    def __init__(self, max_elements: int = 2) -> None:
        self.max_elements = max_elements

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        changed = False
        while True:
            local_change = False
            fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerCGSCCProxy, unit).manager
            is_recursive = len(unit) > 1
            for index, node in enumerate(unit.nodes):
                old = node.function
                new = promote_arguments(old, fam, self.max_elements, is_recursive)
                if new is None:
                    continue
                local_change = True
                _replace_node_function(am, unit, index, new)
                if old in fam.cached_units():  # LLVM logs the (now empty) name of the old function
                    fam.instrumentation.run_analyses_cleared(old.name)
                fam.clear(old)
                old.erase_from_parent()
                keep_cfg = PreservedAnalyses()
                keep_cfg.preserve_set(CFGAnalyses)
                for user in new.users:
                    caller = user.function if isinstance(user, CallBase) else None
                    if caller is not None:
                        fam.invalidate(caller, keep_cfg)
            changed = changed or local_change
            if not local_change:
                break
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(FunctionAnalysisManagerCGSCCProxy)
        pa.preserve_set(AllAnalysesOnFunction)
        return pa
