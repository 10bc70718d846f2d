"""GlobalOpt's work on functions (LLVM lib/Transforms/IPO/GlobalOpt.cpp:
``OptimizeFunctions``, ``hasChangeableCC``, ``ChangeCalleesToFastCall``,
``RemoveAttribute``, ``RemovePreallocated``, ``changeCallSitesToColdCC``).

Each function (not ``naked``): unnamed definitions become internal; dead
discardable ones are deleted; unreachable blocks of definitions are removed;
the function is analysed as a global (``unnamed_addr``). For local functions
only called directly: ``inalloca`` and ``preallocated`` (no invokes, no musttail
callers) are removed, the C calling convention becomes ``coldcc`` under
``-enable-coldcc-stress-test`` else ``fastcc`` (not for varargs or musttail),
and ``nest`` is dropped.

Not modelled: targets that want ``coldcc`` for cold functions
(``TTI::useColdCCForColdCall`` is false on every target but PowerPC with
``-ppc-enable-coldcc``), so block frequencies are not asked for.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
from llvmpy_mid.analysis.address_taken import has_address_taken as function_has_address_taken
from llvmpy_mid.ir import calling_conv
from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import BlockAddress, ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Comdat, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst, ReturnInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.global_opt_cleanup import GetTLI
from llvmpy_mid.ipo.global_opt_process import LookupDomTree, delete_if_dead, process_global
from llvmpy_mid.ipo.global_opt_stats import NUM_COLD_CC, NUM_FAST_CALL_FNS, NUM_INTERNAL_FUNC, NUM_NEST_REMOVED
from llvmpy_mid.transform.utils.local import remove_unreachable_blocks

__all__ = ["function_has_address_taken", "optimize_functions", "strip_attr"]

_CHANGEABLE = (calling_conv.C, 70)  # C and x86_thiscallcc


def strip_attr(attrs: AttributeList, kind: str) -> AttributeList:
    """``attrs`` without ``kind`` in the first slot (function, return, parameters) having it."""
    if attrs.fn_attrs.has(kind):
        return attrs.without_fn_attr(kind)
    if attrs.ret_attrs.has(kind):
        return attrs.without_ret_attr(kind)
    arg_no = attrs.param_with_attr(kind)
    if arg_no is not None:
        return attrs.without_param_attr(arg_no, kind)
    return attrs


def _remove_attribute(fn: Function, kind: str) -> None:
    fn.attributes = strip_attr(fn.attributes, kind)
    for user in fn.users:
        if isinstance(user, CallBase):
            user.attributes = strip_attr(user.attributes, kind)


def _is_must_tail(v: Value) -> bool:
    return isinstance(v, CallInst) and v.is_must_tail_call


def _terminating_must_tail_call(fn: Function) -> bool:
    for bb in fn.blocks:
        term = bb.terminator
        if not isinstance(term, ReturnInst):
            continue
        prev = term.prev_instruction
        if prev is None:
            continue
        rv = term.operands[0] if term.num_operands else None
        if getattr(prev, "opcode", None) == "bitcast":
            if rv is not None and rv is not prev:
                continue
            rv = prev.get_operand(0)
            prev = prev.prev_instruction
            if prev is None:
                continue
        if _is_must_tail(prev) and (rv is None or rv is prev):
            return True
    return False


def _has_changeable_cc_impl(fn: Function) -> bool:
    if fn.calling_conv not in _CHANGEABLE:
        return False
    if fn.is_vararg:
        return False
    for user in fn.users:
        if isinstance(user, BlockAddress):
            continue
        if _is_must_tail(user):
            return False
    if _terminating_must_tail_call(fn):
        return False
    return not function_has_address_taken(fn)


def _has_must_tail_callers(fn: Function) -> bool:
    return any(isinstance(u, CallBase) and _is_must_tail(u) for u in fn.users)


def _has_invoke_callers(fn: Function) -> bool:
    return any(isinstance(u, InvokeInst) for u in fn.users)


def _set_callers_cc(fn: Function, cc: int) -> None:
    for user in fn.users:
        # LLVM casts every non-blockaddress user to a call; a dead cast left by an
        # earlier pass (its users are all assume-like) is skipped here instead.
        if isinstance(user, CallBase):
            user.calling_conv = cc


def _next_non_debug(inst: Instruction) -> Instruction | None:
    nxt = inst.next_instruction
    while nxt is not None and isinstance(nxt, CallInst) and nxt.intrinsic_name.startswith("llvm.dbg."):
        nxt = nxt.next_instruction
    return nxt


def _remove_preallocated(fn: Function) -> None:
    _remove_attribute(fn, "preallocated")
    module = fn.parent
    assert module is not None
    dl = module.data_layout
    for user in list(fn.users):
        if not isinstance(user, CallBase):
            continue
        setup = None
        bundles = []
        for b in user.operand_bundles:
            if b.tag == "preallocated" and setup is None:
                setup = b.inputs[0]
            else:
                bundles.append(b)
        assert isinstance(setup, CallBase)
        count_c = setup.get_arg(0)
        assert isinstance(count_c, ConstantInt)
        arg_count = count_c.value
        new_cb = user.with_operand_bundles(bundles)
        new_cb.insert_before(user)
        user.replace_all_uses_with(new_cb)
        new_cb.take_name(user)
        user.erase_from_parent()

        builder = IRBuilder(before=setup)
        save = builder.create_intrinsic("stacksave", [module.context.ptr], [], return_type=module.context.ptr)
        after = _next_non_debug(new_cb)
        if after is not None:
            builder.position_before(after)
        builder.create_intrinsic("stackrestore", [module.context.ptr], [save], return_type=module.context.void)
        allocas: list[Value | None] = [None] * arg_count
        for use_call in list(setup.users):
            assert isinstance(use_call, CallBase)
            idx_c = use_call.get_arg(1)
            assert isinstance(idx_c, ConstantInt)
            idx = idx_c.value
            repl = allocas[idx]
            if repl is None:
                attr = use_call.get_fn_attr("preallocated")
                assert attr is not None
                arg_ty = attr.type_value
                assert arg_ty is not None
                before = _next_non_debug(setup)
                assert before is not None
                builder.position_before(before)
                repl = builder.alloca(
                    arg_ty, None, "paarg", alignment=dl.pref_alignment(arg_ty),
                    address_space=use_call.type.address_space,  # type: ignore[attr-defined]
                )
                allocas[idx] = repl
            use_call.replace_all_uses_with(repl)
            use_call.erase_from_parent()
        setup.erase_from_parent()


def _is_cold_call_site(call: CallBase, bfi: BlockFrequencyInfo, rel_freq: int) -> bool:
    fn = call.function
    assert fn is not None and call.parent is not None
    site = bfi.frequency(call.parent)
    entry = bfi.frequency(fn.entry_block)
    prob = (rel_freq * (1 << 31) + 50) // 100
    return site < (entry * prob) >> 31


def _has_only_cold_calls(
    fn: Function, get_bfi: Callable[[Function], BlockFrequencyInfo], changeable: Callable[[Function], bool], rel_freq: int
) -> bool:
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not isinstance(inst, CallInst):
                continue
            if inst.is_inline_asm_call:
                continue
            callee = inst.called_function
            if callee is None:
                return False
            if callee.intrinsic_id:
                continue
            if not callee.has_local_linkage:
                return False
            if not changeable(callee):
                return False
            if not _is_cold_call_site(inst, get_bfi(fn), rel_freq):
                return False
    return True


def optimize_functions(
    module: Module,
    get_tli: GetTLI,
    lookup_dom_tree: LookupDomTree,
    not_discardable: set[Comdat],
    changed_cfg: Callable[[Function], None],
    on_delete_fn: Callable[[Function], None],
    coldcc_stress: bool,
    get_bfi: Callable[[Function], BlockFrequencyInfo],
    get_tti: Callable[[Function], object],
    rel_freq: int,
) -> bool:
    """One pass over the module's functions; whether anything changed."""
    changed = False
    cc_cache: dict[int, bool] = {}

    def changeable(fn: Function) -> bool:
        key = id(fn)
        if key not in cc_cache:
            cc_cache[key] = _has_changeable_cc_impl(fn)
        return cc_cache[key]

    # Which functions only make cold calls (asked for the analyses' sake: no target
    # modelled here wants coldcc for cold functions).
    for fn in list(module.functions):
        _has_only_cold_calls(fn, get_bfi, changeable, rel_freq)

    for fn in list(module.functions):
        if fn.parent is not module:
            continue
        if fn.has_fn_attribute("naked"):
            continue
        if not fn.has_name and not fn.is_declaration and not fn.has_local_linkage:
            fn.linkage = Linkage.INTERNAL
        if delete_if_dead(fn, not_discardable, on_delete_fn):
            changed = True
            continue
        if not fn.is_declaration:
            if remove_unreachable_blocks(fn):
                changed = True
                changed_cfg(fn)
        changed |= process_global(fn, get_tli, lookup_dom_tree)
        if not fn.has_local_linkage:
            continue
        if (
            fn.attributes.has_attr_somewhere("inalloca")
            and not function_has_address_taken(fn)
            and not _has_must_tail_callers(fn)
            and not fn.is_vararg
        ):
            _remove_attribute(fn, "inalloca")
            changed = True
        if fn.attributes.has_attr_somewhere("preallocated"):
            if not function_has_address_taken(fn) and not _has_must_tail_callers(fn) and not _has_invoke_callers(fn):
                _remove_preallocated(fn)
                changed = True
            continue
        if changeable(fn):
            NUM_INTERNAL_FUNC.add()
            get_tti(fn)
            if coldcc_stress:
                cc_cache.pop(id(fn), None)
                fn.calling_conv = calling_conv.COLD
                _set_callers_cc(fn, calling_conv.COLD)
                changed = True
                NUM_COLD_CC.add()
        if changeable(fn):
            fn.calling_conv = calling_conv.FAST
            _set_callers_cc(fn, calling_conv.FAST)
            NUM_FAST_CALL_FNS.add()
            changed = True
        if fn.attributes.has_attr_somewhere("nest") and not function_has_address_taken(fn):
            _remove_attribute(fn, "nest")
            NUM_NEST_REMOVED.add()
            changed = True
    return changed
