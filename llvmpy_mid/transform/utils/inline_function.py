"""Inlining one call site (LLVM ``InlineFunction``, lib/Transforms/Utils/InlineFunction.cpp;
API of include/llvm/Transforms/Utils/Cloning.h).

What: the callee's body replaces the call. The callee is cloned into the caller
(pruned by the constant arguments, :mod:`clone_function`), ``byval`` arguments get a
caller-side copy (an entry-block alloca and a ``memcpy``), static allocas of the
callee's entry block move to the caller's entry block (with lifetime markers around
the inlined body unless asked not to), dynamic allocas are bracketed by
``llvm.stacksave``/``llvm.stackrestore``, debug locations get an ``inlinedAt``
chain, the callee's noalias scopes are cloned and ``noalias`` arguments turn into
scoped-noalias metadata, call-site attributes flow into the inlined calls, tail-call
markers are weakened, calls inlined through an ``invoke`` become invokes to its
unwind destination, ``musttail``/``deoptimize`` returns stay returns and the other
returns merge into the split-off ``<callee>.exit`` block (a phi when several return
values).

The call is deleted on success; the callee is left untouched.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from llvmpy_mid.analysis.inline_viability import InlineResult
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.flags import TailCallKind
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, CallBrInst, InvokeInst, ReturnInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.clone_function import (
    ClonedCodeInfo,
    TrackingValueMap,
    clone_and_prune_function_into,
)
from llvmpy_mid.transform.utils.inline_function_allocas import (
    add_alignment_assumptions,
    handle_byval_argument,
    handle_byval_argument_init,
    insert_lifetime_markers,
    insert_stack_save_restore,
    move_static_allocas,
)

__all__ = ["InlineFunctionInfo", "InlineResult", "inline_function"]


@attrs.define
class InlineFunctionInfo:
    """In and out parameters of :func:`inline_function` (LLVM ``InlineFunctionInfo``)."""

    static_allocas: list[AllocaInst] = attrs.field(factory=list)
    inlined_calls: list[CallBase] = attrs.field(factory=list)
    inlined_call_sites: list[CallBase] = attrs.field(factory=list)
    update_profile: bool = True
    get_assumption_cache: Callable[[Function], object] | None = None
    caller_bfi: object | None = None
    callee_bfi: object | None = None
    psi: object | None = None

    def reset(self) -> None:
        self.static_allocas.clear()
        self.inlined_calls.clear()
        self.inlined_call_sites.clear()


_OK_BUNDLES = frozenset(("deopt", "funclet", "clang.arc.attachedcall", "kcfi"))
_TAIL_ORDER = {TailCallKind.NONE: 0, TailCallKind.TAIL: 1, TailCallKind.MUSTTAIL: 2, TailCallKind.NOTAIL: 3}


def _strip(c: Constant | None) -> Constant | None:
    if c is None:
        return None
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    stripped = strip_pointer_casts(c)
    return stripped if isinstance(stripped, Constant) else c


def _intrinsic_name(inst: Instruction) -> str:
    if isinstance(inst, CallBase):
        fn = inst.called_function
        if fn is not None and fn.is_intrinsic:
            return fn.name
    return ""


def _terminating_call(bb: BasicBlock, what: str) -> CallInst | None:
    """LLVM ``getTerminatingMustTailCall`` (``what="musttail"``) /
    ``getTerminatingDeoptimizeCall``."""
    term = bb.terminator
    if not isinstance(term, ReturnInst) or term is bb.first_instruction:
        return None
    prev = term.prev_instruction
    if prev is None:
        return None
    if what == "musttail":
        rv = term.return_value
        if rv is not None:
            if rv is not prev:
                return None
            from llvmpy_mid.ir.instructions.casts import CastInst

            if isinstance(prev, CastInst) and prev.opcode == "bitcast":
                rv = prev.get_operand(0)
                prev = prev.prev_instruction
                if prev is None or rv is not prev:
                    return None
        if isinstance(prev, CallInst) and prev.is_must_tail_call:
            return prev
        return None
    if isinstance(prev, CallInst) and _intrinsic_name(prev) == "llvm.experimental.deoptimize" or (
        isinstance(prev, CallInst) and _intrinsic_name(prev).startswith("llvm.experimental.deoptimize.")
    ):
        return prev
    return None


def inline_function(
    call: CallBase,
    ifi: InlineFunctionInfo,
    *,
    merge_attributes: bool = False,
    aa_results: object | None = None,
    insert_lifetime: bool = True,
    forward_var_args_to: Function | None = None,
) -> InlineResult:
    """Inline the direct call ``call`` (LLVM ``InlineFunction``)."""
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the -options read while inlining)
    from llvmpy_mid.transform.utils import inline_function_attributes as attrs_mod
    from llvmpy_mid.transform.utils import inline_function_eh as eh
    from llvmpy_mid.transform.utils import inline_function_metadata as md

    if isinstance(call, CallBrInst):
        return InlineResult(False, "We don't inline callbr yet.")
    ifi.reset()
    callee = call.called_function
    if callee is None or callee.is_declaration:
        return InlineResult(False, "external or indirect")

    convergence_token: Value | None = None
    for bundle in call.operand_bundles:
        if bundle.tag in _OK_BUNDLES:
            continue
        if bundle.tag == "convergencectrl":
            convergence_token = bundle.inputs[0]
            continue
        return InlineResult(False, "unsupported operand bundle")
    if call.is_convergent:
        first = callee.entry_block.first_non_phi
        if first is not None and _intrinsic_name(first) == "llvm.experimental.convergence.entry":
            if convergence_token is None:
                return InlineResult(False, "convergent call needs convergencectrl operand")

    mark_no_unwind = call.does_not_throw
    orig_bb = call.parent
    assert orig_bb is not None
    caller = orig_bb.parent
    assert caller is not None
    module = caller.parent
    assert module is not None
    dl = module.data_layout

    if callee.gc:
        if not caller.gc:
            caller.gc = callee.gc
        elif callee.gc != caller.gc:
            return InlineResult(False, "incompatible GC")

    called_personality = _strip(callee.personality)
    caller_personality = _strip(caller.personality)
    if called_personality is not None:
        if caller_personality is None:
            caller.personality = called_personality
        elif called_personality is not caller_personality:
            return InlineResult(False, "incompatible personality")

    call_site_eh_pad: Instruction | None = None
    if caller_personality is not None:
        reason, call_site_eh_pad = eh.check_funclets(call, callee, caller_personality)
        if reason:
            return InlineResult(False, reason)
    eh_pad_for_call_unwinds_locally = False
    if call_site_eh_pad is not None and isinstance(call, CallInst):
        eh_pad_for_call_unwinds_locally = eh.eh_pad_unwinds_locally(call_site_eh_pad)

    last_block = caller.blocks.last
    assert last_block is not None
    returns: list[ReturnInst] = []
    info = ClonedCodeInfo()

    vmap = TrackingValueMap()
    byval_inits: list[tuple[Value, Value, object]] = []
    sa_cloner = md.ScopedAliasMetadataDeepCloner(callee)
    args = call.args
    for arg_no, formal in enumerate(callee.args):
        actual = args[arg_no]
        byval_ty = call.attributes.param_type_attr(arg_no, "byval")
        if byval_ty is not None:
            actual = handle_byval_argument(byval_ty, actual, call, callee, ifi, callee.attributes.param_alignment(arg_no))
            if actual is not args[arg_no]:
                byval_inits.append((actual, args[arg_no], byval_ty))
        vmap[formal] = actual

    add_alignment_assumptions(call, ifi)
    ac: Any = ifi.get_assumption_cache(caller) if ifi.get_assumption_cache is not None else None
    from llvmpy_mid.transform.utils.assume_bundle_builder import salvage_knowledge

    salvage_knowledge(call, ac)

    clone_and_prune_function_into(caller, callee, vmap, returns, ".i", info)
    first_new = last_block.next_block
    assert first_new is not None

    from llvmpy_mid.transform.utils.inline_function_arc import (
        attached_arc_function_kind,
        inline_retain_or_claim_rv_calls,
    )

    rv_kind = attached_arc_function_kind(call)
    if rv_kind:
        inline_retain_or_claim_rv_calls(call, rv_kind, returns)

    if ifi.update_profile:
        from llvmpy_mid.transform.utils.inline_function_profile import update_caller_bfi

        update_caller_bfi(orig_bb, vmap, ifi, callee)
        md.update_call_profile(callee, vmap, call, ifi)

    for dst, src, ty in byval_inits:
        handle_byval_argument_init(ty, dst, src, first_new, callee)  # type: ignore[arg-type]

    parent_deopt = call.get_operand_bundle("deopt")
    if parent_deopt is not None:
        eh.merge_deopt_bundles(parent_deopt.inputs, info, vmap)

    md.fixup_line_numbers(caller, first_new, call, callee.get_metadata("dbg") is not None)
    md.fixup_assignments_if_enabled(caller, first_new, call)

    sa_cloner.clone()
    sa_cloner.remap(first_new)
    md.add_alias_scope_metadata(call, vmap, dl, aa_results, info)
    attrs_mod.add_return_attributes(call, vmap, info)
    attrs_mod.add_param_and_fn_basic_attributes(call, vmap, info)
    md.propagate_mem_prof_metadata(callee, call, info, vmap)
    md.propagate_call_site_metadata(call, first_new)

    if ac is not None:
        for bb in _blocks_from(first_new):
            for inst in bb.instructions:
                if _intrinsic_name(inst) == "llvm.assume":
                    ac.register_assumption(inst)

    if convergence_token is not None:
        first = first_new.first_non_phi
        if first is not None and _intrinsic_name(first) == "llvm.experimental.convergence.entry":
            first.replace_all_uses_with(convergence_token)
            first.erase_from_parent()

    move_static_allocas(caller, first_new, ifi)

    n_params = len(callee.function_type.params)
    var_args = call.args[n_params:]
    var_attrs = [call.attributes.param_attrs(i) for i in range(n_params, len(call.args))]

    inlined_must_tail = inlined_deoptimize = False
    if info.contains_calls:
        site_tck = call.tail_call_kind if isinstance(call, CallInst) else TailCallKind.NONE
        if site_tck is TailCallKind.NOTAIL:
            site_tck = TailCallKind.NONE
        for bb in _blocks_from(first_new):
            inst_node = bb.instructions.first
            while inst_node is not None:
                nxt = inst_node._next
                ci = inst_node
                inst_node = nxt
                if not isinstance(ci, CallInst):
                    continue
                if var_args and (
                    (forward_var_args_to is not None and ci.called_function is forward_var_args_to)
                    or ci.is_must_tail_call
                ):
                    ci = eh.forward_var_args(ci, var_args, var_attrs)
                if _intrinsic_name(ci).startswith("llvm.experimental.deoptimize"):
                    inlined_deoptimize = True
                child = ci.tail_call_kind
                if child is not TailCallKind.NOTAIL:
                    child = site_tck if _TAIL_ORDER[site_tck] < _TAIL_ORDER[child] else child
                ci.tail_call_kind = child
                inlined_must_tail |= ci.is_must_tail_call
                if mark_no_unwind and not ci.does_not_throw:
                    ci.add_fn_attr(Attribute.enum("nounwind"))

    def skip_return(ri: ReturnInst) -> bool:
        bb = ri.parent
        assert bb is not None
        if inlined_must_tail and _terminating_call(bb, "musttail") is not None:
            return True
        return inlined_deoptimize and _terminating_call(bb, "deopt") is not None

    if (insert_lifetime or caller.has_fn_attribute("presplitcoroutine")) and ifi.static_allocas:
        insert_lifetime_markers(caller, first_new, ifi.static_allocas, returns, skip_return)

    if info.contains_dynamic_allocas:
        insert_stack_save_restore(first_new, returns, skip_return)

    if isinstance(call, InvokeInst):
        unwind_first = call.unwind_dest.first_non_phi
        from llvmpy_mid.ir.instructions.eh import LandingPadInst

        if isinstance(unwind_first, LandingPadInst):
            eh.handle_inlined_landing_pad(call, first_new, info)
        else:
            eh.handle_inlined_eh_pad(call, first_new, info)

    if call_site_eh_pad is not None:
        eh.nest_funclets(first_new, call_site_eh_pad, eh_pad_for_call_unwinds_locally)

    if inlined_deoptimize:
        returns = eh.handle_deoptimize_returns(caller, call, returns)

    if inlined_must_tail:
        need_cast = call.has_uses and call.type is not caller.return_type
        normal: list[ReturnInst] = []
        for ri in returns:
            rbb = ri.parent
            assert rbb is not None
            tail = _terminating_call(rbb, "musttail")
            if tail is None:
                normal.append(ri)
                continue
            if not need_cast:
                continue
            old_cast = ri.return_value
            ri.erase_from_parent()
            from llvmpy_mid.ir.instructions.casts import CastInst

            if isinstance(old_cast, CastInst) and old_cast.opcode == "bitcast":
                old_cast.erase_from_parent()
            b = IRBuilder(rbb)
            b.ret(b.create_bit_or_pointer_cast(tail, caller.return_type))
        returns = normal

    if info.contains_calls:
        for bb in _blocks_from(first_new):
            for inst in bb.instructions:
                if isinstance(inst, CallBase):
                    fn = inst.called_function
                    if not (fn is not None and fn.is_intrinsic):
                        ifi.inlined_call_sites.append(inst)
                        ifi.inlined_calls.append(inst)

    if len(returns) == 1 and first_new.next_block is None:
        _move_dbg_records(call, first_new.first_instruction)
        _splice_all(orig_bb, first_new, call)
        first_new.erase_from_parent()
        ret = returns[0]
        if isinstance(call, InvokeInst):
            br = BranchInst(call.normal_dest)
            br.insert_before(call)
            br.debug_loc = ret.debug_loc
        if call.has_uses:
            rv = ret.return_value
            call.replace_all_uses_with(PoisonValue.get(call.type) if rv is call or rv is None else rv)
        call.erase_from_parent()
        ret.erase_from_parent()
        if merge_attributes:
            attrs_mod.merge_attributes_for_inlining(caller, callee)
        return InlineResult(True)

    created_br: BranchInst | None = None
    if isinstance(call, InvokeInst):
        created_br = BranchInst(call.normal_dest)
        created_br.insert_before(call)
        after_bb = orig_bb.split(created_br, callee.name + ".exit")
    else:
        after_bb = orig_bb.split(call, callee.name + ".exit")
        # LLVM's splitBasicBlock leaves the records in front of the call behind, on the new branch.
        _move_dbg_records(call, orig_bb.terminator)
    caller_bfi: Any = ifi.caller_bfi
    if caller_bfi is not None and hasattr(caller_bfi, "set_block_freq"):
        caller_bfi.set_block_freq(after_bb, caller_bfi.frequency(orig_bb))
    entry_br = orig_bb.terminator
    assert isinstance(entry_br, BranchInst)
    entry_br.set_successor(0, first_new)
    # Move the inlined blocks (at the end of the caller) between the two halves.
    moving: BasicBlock | None = first_new
    while moving is not None:
        nxt_block = moving.next_block
        moving.move_before(after_bb)
        moving = nxt_block

    phi: PHINode | None = None
    if len(returns) > 1:
        if call.has_uses:
            phi = PHINode(callee.return_type, name=call.name)
            first_after = after_bb.first_instruction
            if first_after is None:
                after_bb.instructions.append(phi)
            else:
                after_bb.instructions.insert_before(phi, first_after)
            call.replace_all_uses_with(phi)
            for ri in returns:
                rv = ri.return_value
                assert rv is not None and ri.parent is not None
                phi.add_incoming(rv, ri.parent)
        loc = None
        for ri in returns:
            bi = BranchInst(after_bb)
            bi.insert_before(ri)
            loc = ri.debug_loc
            bi.debug_loc = loc
            ri.erase_from_parent()
        if created_br is not None:
            created_br.debug_loc = loc
    elif returns:
        ret = returns[0]
        if call.has_uses:
            rv = ret.return_value
            call.replace_all_uses_with(PoisonValue.get(call.type) if rv is call or rv is None else rv)
        return_bb = ret.parent
        assert return_bb is not None
        return_bb.replace_all_uses_with(after_bb)
        _splice_all(after_bb, return_bb, after_bb.first_instruction)
        if created_br is not None:
            created_br.debug_loc = ret.debug_loc
        ret.erase_from_parent()
        return_bb.erase_from_parent()
    elif call.has_uses:
        call.replace_all_uses_with(PoisonValue.get(call.type))

    call.erase_from_parent()
    if inlined_must_tail and not after_bb.predecessors:
        after_bb.erase_from_parent()

    callee_entry = entry_br.get_successor(0)
    callee_entry.replace_all_uses_with(orig_bb)
    # Code spliced in before the branch goes after the branch's debug records (LLVM 19's
    # insertion before an iterator without the head bit), so the records come first.
    _move_dbg_records(entry_br, callee_entry.first_instruction)
    _splice_all(orig_bb, callee_entry, entry_br)
    entry_br.erase_from_parent()
    callee_entry.erase_from_parent()

    if phi is not None:
        from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
        from llvmpy_mid.analysis.simplify_query import SimplifyQuery

        simplified = simplify_instruction(phi, SimplifyQuery(dl, ac=ac))
        if simplified is not None:
            phi.replace_all_uses_with(simplified)
            phi.erase_from_parent()

    if merge_attributes:
        attrs_mod.merge_attributes_for_inlining(caller, callee)
    return InlineResult(True)


def _blocks_from(start: BasicBlock) -> list[BasicBlock]:
    out: list[BasicBlock] = []
    bb: BasicBlock | None = start
    while bb is not None:
        out.append(bb)
        bb = bb.next_block
    return out


def _move_dbg_records(src: Instruction | None, dst: Instruction | None) -> None:
    """Put ``src``'s debug records in front of ``dst``'s own (nothing when either is missing)."""
    if src is None or dst is None or not src.dbg_records:
        return
    records = src.take_dbg_records()
    first = dst.dbg_records[0] if dst.dbg_records else None
    for rec in records:
        dst.add_dbg_record(rec, before=first)


def _splice_all(into: BasicBlock, src: BasicBlock, before: Instruction | None) -> None:
    node = src.instructions.first
    while node is not None:
        nxt = node._next
        src.instructions.remove(node)
        if before is None:
            into.instructions.append(node)
        else:
            into.instructions.insert_before(node, before)
        node = nxt

