"""``attributor-light`` and ``attributor-light-cgscc``: the Attributor run with the small
set of abstract attributes LLVM allows it (LLVM 19.1.7 ``lib/Transforms/IPO/Attributor.cpp``:
``AttributorLightPass``, ``AttributorLightCGSCCPass``, ``runAttributorLightOnFunctions``
and ``Attributor::identifyDefaultAbstractAttributes``).

The module pass runs one Attributor over every function of the module; the CGSCC pass
over one SCC's functions. Seeding creates, for each definition, the function's
``mustprogress``, ``nofree``, ``willreturn``, ``nosync`` attributes; when its definition
is exact (or inlinable ``alwaysinline``) also ``nounwind``, ``noreturn``, ``norecurse``,
its memory behavior and locations, ``nonnull`` of a pointer return, and per pointer
argument ``nonnull``, ``nocapture``, memory behavior and ``nofree``; for each call of a
defined function the call site arguments' ``nonnull``, ``nocapture``, memory behavior and
``nofree``. An attribute the IR already implies is not created. Then the fixpoint runs
(``attributor-max-iterations`` rounds at most) and the results are manifested.

Floating-point arguments, returns, call site arguments and used call results also get
``nofpclass`` (:mod:`~llvmpy_mid.ipo.attributor_fpclass`).

What it does not model: liveness (off in the light configuration anyway); callback calls
(``!callback`` brokers such as ``pthread_create``: their callees' call sites count as
unknown); the value classes of floating-point arithmetic (constants, attributes, flags,
integer casts and ``fneg`` are known).
"""

from __future__ import annotations

import sys
import threading
from typing import Callable, ClassVar

from llvmpy_mid.analysis.inline_viability import is_inline_viable
from llvmpy_mid.analysis.cfg import may_contain_irreducible_control
from llvmpy_mid.analysis.lazy_call_graph import SCC
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.loop_info import LoopAnalysis, LoopInfo
from llvmpy_mid.analysis.scalar_evolution import ScalarEvolutionAnalysis
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVConstant
from llvmpy_mid.ipo.attributor import MAX_INITIALIZATION_CHAIN_LENGTH, Attributor
from llvmpy_mid.ipo.attributor_aa import AbstractAttribute, IRAttributeAA
from llvmpy_mid.ipo.attributor_flags import (
    AAMustProgress,
    AANoFree,
    AANoRecurse,
    AANoReturn,
    AANoSync,
    AANoUnwind,
    AAWillReturn,
    _has_cycle as has_cycle,
)
from llvmpy_mid.ipo.attributor_fpclass import AANoFPClass, is_no_fp_class_compatible_type
from llvmpy_mid.ipo.attributor_memory import AAMemoryBehavior, AAMemoryLocation
from llvmpy_mid.ipo.attributor_pointers import AANoCapture, AANonNull
from llvmpy_mid.ipo.attributor_position import IRPosition
from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cgscc_pass_manager import FunctionAnalysisManagerCGSCCProxy
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, CFGAnalyses, PreservedAnalyses

__all__ = ["AttributorLightCGSCCPass", "AttributorLightPass", "run_attributor_light"]

ALLOWED = frozenset(
    (
        "AAWillReturn", "AANoUnwind", "AANoRecurse", "AANoSync", "AANoFree", "AANoReturn", "AAMemoryLocation",
        "AAMemoryBehavior", "AAUnderlyingObjects", "AANoCapture", "AAInterFnReachability",
        "AAIntraFnReachability", "AACallEdges", "AANoFPClass", "AAMustProgress", "AANonNull",
    )
)
"""The abstract attributes ``runAttributorLightOnFunctions`` allows."""


def _max_iterations() -> int:
    try:
        return int(OPTIONS.value("attributor-max-iterations"))
    except KeyError:
        return 32


def _check_and_query(a: Attributor, cls: type[IRAttributeAA], pos: IRPosition, attrs: AttributeSet) -> None:
    """``checkAndQueryIRAttr``: create ``cls`` at ``pos`` unless the IR has or implies it."""
    if attrs.has(cls.IR_KIND):
        return
    if cls.ID not in a.allowed:
        return
    if cls.is_implied_by_ir(a, pos):
        return
    a.get_or_create_aa(cls, pos)


def _create(a: Attributor, cls: type[AbstractAttribute], pos: IRPosition) -> None:
    a.get_or_create_aa(cls, pos)


def identify_default_abstract_attributes(a: Attributor, fn: Function) -> None:
    """LLVM ``Attributor::identifyDefaultAbstractAttributes`` for the light set."""
    if fn in a.visited_functions:
        return
    a.visited_functions.add(fn)
    if fn.is_declaration:
        return
    fpos = IRPosition.function(fn)
    amendable = a.is_function_ipo_amendable(fn)
    attrs = fn.attributes
    fn_attrs = attrs.fn_attrs
    for cls in (AAMustProgress, AANoFree, AAWillReturn, AANoSync):
        _check_and_query(a, cls, fpos, fn_attrs)
    if amendable:
        for cls2 in (AANoUnwind, AANoReturn, AANoRecurse):
            _check_and_query(a, cls2, fpos, fn_attrs)
        _create(a, AAMemoryBehavior, fpos)
        _create(a, AAMemoryLocation, fpos)
        ret_ty = fn.return_type
        if not ret_ty.is_void and ret_ty.is_pointer:
            _check_and_query(a, AANonNull, IRPosition.returned(fn), attrs.ret_attrs)
        elif not ret_ty.is_void and is_no_fp_class_compatible_type(ret_ty):
            _create(a, AANoFPClass, IRPosition.returned(fn))
    for arg in fn.args:
        apos = IRPosition.argument(arg)
        arg_attrs = attrs.param_attrs(arg.arg_no)
        if not amendable:
            if arg.type.is_pointer:
                _check_and_query(a, AANoFree, apos, arg_attrs)
            continue
        if arg.type.is_pointer:
            _check_and_query(a, AANonNull, apos, arg_attrs)
            _check_and_query(a, AANoCapture, apos, arg_attrs)
            _create(a, AAMemoryBehavior, apos)
            _check_and_query(a, AANoFree, apos, arg_attrs)
        elif is_no_fp_class_compatible_type(arg.type):
            _create(a, AANoFPClass, apos)

    def call_site_pred(inst: Instruction) -> bool:
        assert isinstance(inst, CallBase)
        callee = inst.called_operand
        if not isinstance(callee, Function):
            return True
        if callee.is_declaration:
            return True
        ret_ty = callee.return_type
        if not ret_ty.is_void and not inst.use_empty and is_no_fp_class_compatible_type(ret_ty):
            _create(a, AANoFPClass, IRPosition.callsite_returned(inst))
        cb_attrs = inst.attributes
        for i in range(inst.arg_size):
            arg_ty = inst.get_arg(i).type
            if not arg_ty.is_pointer:
                if is_no_fp_class_compatible_type(arg_ty):
                    _create(a, AANoFPClass, IRPosition.callsite_argument(inst, i))
                continue
            cs_pos = IRPosition.callsite_argument(inst, i)
            cs_attrs = cb_attrs.param_attrs(i)
            _check_and_query(a, AANonNull, cs_pos, cs_attrs)
            _check_and_query(a, AANoCapture, cs_pos, cs_attrs)
            if not cb_attrs.has_param_attr(i, "readnone"):
                _create(a, AAMemoryBehavior, cs_pos)
            _check_and_query(a, AANoFree, cs_pos, cs_attrs)
        return True

    a.check_for_all_instructions(call_site_pred, fn, ("invoke", "callbr", "call"))


def _unbounded_cycle_checker(fam: AnalysisManager[Function]) -> Callable[[Function], bool]:
    """``mayContainUnboundedCycle`` with loop info and scalar evolution: irreducible
    control, or a loop without a small constant maximal trip count."""

    def check(fn: Function) -> bool:
        li = fam.get_result(LoopAnalysis, fn)
        if may_contain_irreducible_control(fn, li):
            return True
        se = fam.get_result(ScalarEvolutionAnalysis, fn)
        for loop in li.loops_in_preorder():
            count = se.get_constant_max_backedge_taken_count(loop)
            if not isinstance(count, SCEVConstant) or count.value.bit_length() > 32:
                return True
            if (count.value + 1) & 0xFFFFFFFF == 0:
                return True
        return False

    return check


_FRAMES_PER_CHAIN_LINK = 200
"""Python frames one nested attribute creation may take (creation, update, a walk, a query)."""
_DEEP_STACK_BYTES = 1 << 30


def _run_with_deep_stack(work: Callable[[], list[Function]]) -> list[Function]:
    """Run ``work`` on a thread with a large stack and a recursion limit that lets the
    Attributor nest ``MAX_INITIALIZATION_CHAIN_LENGTH`` creations as LLVM does (creating an
    attribute updates it at once, which may create the attributes it asks, and so on)."""
    result: list[list[Function]] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    old_stack = threading.stack_size()
    threading.stack_size(_DEEP_STACK_BYTES)
    try:
        thread = threading.Thread(target=target, name="attributor")
    finally:
        threading.stack_size(old_stack)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, old_limit + MAX_INITIALIZATION_CHAIN_LENGTH * _FRAMES_PER_CHAIN_LINK))
    try:
        thread.start()
        thread.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if errors:
        raise errors[0]
    return result[0]


class _FamAnalyses:
    """``AnalysisGetter`` over a function analysis manager (the CGSCC pass)."""

    def __init__(self, fam: AnalysisManager[Function]) -> None:
        self.fam = fam

    def loop_info(self, fn: Function) -> LoopInfo | None:
        return None if fn.is_declaration else self.fam.get_result(LoopAnalysis, fn)

    def dominator_tree(self, fn: Function) -> DominatorTree | None:
        return None if fn.is_declaration else self.fam.get_result(DominatorTreeAnalysis, fn)

    def post_dominator_tree(self, fn: Function) -> DominatorTree | None:
        return None if fn.is_declaration else self.fam.get_result(PostDominatorTreeAnalysis, fn)

    def assumption_cache(self, fn: Function) -> AssumptionCache | None:
        return None if fn.is_declaration else self.fam.get_result(AssumptionAnalysis, fn)


class _CachedFamAnalyses:
    """``AnalysisGetter`` with ``CachedOnly`` (the module pass): only what an earlier pass
    left in the function analysis manager, so e.g. dominator trees and assumption caches
    kept by a preceding ``function(mem2reg)`` help ``isKnownNonZero``."""

    def __init__(self, fam: AnalysisManager[Function]) -> None:
        self.fam = fam

    def loop_info(self, fn: Function) -> LoopInfo | None:
        return None if fn.is_declaration else self.fam.get_cached_result(LoopAnalysis, fn)

    def dominator_tree(self, fn: Function) -> DominatorTree | None:
        return None if fn.is_declaration else self.fam.get_cached_result(DominatorTreeAnalysis, fn)

    def post_dominator_tree(self, fn: Function) -> DominatorTree | None:
        return None if fn.is_declaration else self.fam.get_cached_result(PostDominatorTreeAnalysis, fn)

    def assumption_cache(self, fn: Function) -> AssumptionCache | None:
        return None if fn.is_declaration else self.fam.get_cached_result(AssumptionAnalysis, fn)


def _cached_unbounded_cycle_checker(fam: AnalysisManager[Function]) -> Callable[[Function], bool]:
    """``mayContainUnboundedCycle`` under ``CachedOnly``: the loop rule when loop info and
    scalar evolution are both cached, else any cycle counts."""
    full = _unbounded_cycle_checker(fam)

    def check(fn: Function) -> bool:
        if fam.get_cached_result(LoopAnalysis, fn) is None:
            return has_cycle(fn)
        if fam.get_cached_result(ScalarEvolutionAnalysis, fn) is None:
            return has_cycle(fn)
        return full(fn)

    return check


def run_attributor_light(
    functions: list[Function],
    module_pass: bool,
    fam: AnalysisManager[Function] | None = None,
    cached_only: bool = False,
) -> list[Function]:
    """``runAttributorLightOnFunctions``: the functions whose attributes changed."""
    if not functions:
        return []
    return _run_with_deep_stack(lambda: _run(functions, module_pass, fam, cached_only))


def _run(
    functions: list[Function], module_pass: bool, fam: AnalysisManager[Function] | None, cached_only: bool
) -> list[Function]:
    """Seed every function, run the fixpoint, manifest; the functions that changed."""
    if not functions:
        return []
    inlineable = [
        fn
        for fn in functions
        if not fn.is_declaration and fn.attributes.has_fn_attr("alwaysinline") and is_inline_viable(fn).success
    ]
    a = Attributor(
        functions,
        ALLOWED,
        module_pass=module_pass,
        max_iterations=_max_iterations(),
        inlineable=inlineable,
        unbounded_cycle_check=_cycle_check(fam, cached_only),
        analyses=None if fam is None else _CachedFamAnalyses(fam) if cached_only else _FamAnalyses(fam),
    )
    for fn in functions:
        identify_default_abstract_attributes(a, fn)
    a.run()
    return a.modified_functions()


def _cycle_check(fam: AnalysisManager[Function] | None, cached_only: bool) -> Callable[[Function], bool] | None:
    if fam is None:
        return None
    return _cached_unbounded_cycle_checker(fam) if cached_only else _unbounded_cycle_checker(fam)


def _invalidate(changed: list[Function], fam: AnalysisManager[Function]) -> None:
    fn_pa = PreservedAnalyses()
    fn_pa.preserve_set(CFGAnalyses)
    for fn in changed:
        fam.invalidate(fn, fn_pa)
        for use in fn.uses:
            user = use.user
            if isinstance(user, CallBase) and user.called_function is fn:
                caller = user.function
                if caller is not None:
                    fam.invalidate(caller, fn_pa)


class AttributorLightPass(Pass[Module]):
    """The light Attributor over the whole module."""

    name: ClassVar[str] = "attributor-light"
    debug_type: ClassVar[str] = "attributor-light"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        changed = run_attributor_light(list(unit.functions), True, fam, cached_only=True)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses.none()
        pa.preserve_set(CFGAnalyses)
        return pa


class AttributorLightCGSCCPass(Pass[SCC]):
    """The light Attributor over one SCC of the call graph."""

    name: ClassVar[str] = "attributor-light-cgscc"
    debug_type: ClassVar[str] = "attributor-light"

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        functions = list(unit.functions)
        if not functions:
            return PreservedAnalyses.all()
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerCGSCCProxy, unit).manager
        changed = run_attributor_light(functions, False, fam)
        if not changed:
            return PreservedAnalyses.all()
        _invalidate(changed, fam)
        pa = PreservedAnalyses()
        pa.preserve(FunctionAnalysisManagerCGSCCProxy)
        pa.preserve_set(AllAnalysesOnFunction)
        return pa
