"""Exception handling, deoptimization and varargs of inlined code (LLVM
InlineFunction.cpp: ``HandleInlinedLandingPad``, ``HandleInlinedEHPad``,
``HandleCallsInBlockInlinedThroughInvoke``, ``LandingPadInliningInfo``, the funclet
checks, the ``deopt`` bundle merge and vararg forwarding;
``changeToInvokeAndSplitBasicBlock`` of lib/Transforms/Utils/Local.cpp).

Funclet-based EH: the unwind-destination search of nested funclets
(``getUnwindDestToken``) is approximated by "unwinds to caller".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst, OperandBundle
from llvmpy_mid.ir.instructions.eh import (
    CatchSwitchInst,
    CleanupPadInst,
    CleanupReturnInst,
    FuncletPadInst,
    LandingPadInst,
)
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, InvokeInst, ReturnInst, ResumeInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.inline_function_funclets import UnwindDestMemo, get_unwind_dest_token

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap

__all__ = [
    "change_to_invoke_and_split_basic_block",
    "check_funclets",
    "handle_inlined_eh_pad",
    "handle_inlined_landing_pad",
]

_MSVC_CXX = "__CxxFrameHandler3"
_ASYNC = frozenset(("_except_handler3", "_except_handler4", "__C_specific_handler"))
_SCOPED = frozenset(("_except_handler3", "_except_handler4", "__C_specific_handler", "__CxxFrameHandler3",
                     "ProcessCLRException", "__gxx_wasm_personality_v0"))


def _blocks_from(start: BasicBlock) -> list[BasicBlock]:
    out: list[BasicBlock] = []
    bb: BasicBlock | None = start
    while bb is not None:
        out.append(bb)
        bb = bb.next_block
    return out


def check_funclets(call: CallBase, callee: Function, caller_personality: Constant) -> tuple[str, Instruction | None]:
    """The funclet the call sits in, and a failure reason when the callee's EH
    cannot nest there."""
    name = caller_personality.name if isinstance(caller_personality, Function) else ""
    if name not in _SCOPED:
        return "", None
    bundle = call.get_operand_bundle("funclet")
    pad = bundle.inputs[0] if bundle is not None else None
    if not isinstance(pad, Instruction):
        return "", None
    if name == _MSVC_CXX:
        if isinstance(pad, CleanupPadInst):
            for bb in callee.blocks:
                if isinstance(bb.first_non_phi, CatchSwitchInst):
                    return "catch in cleanup funclet", pad
    elif name in _ASYNC:
        for bb in callee.blocks:
            first = bb.first_non_phi
            if first is not None and first.is_eh_pad:
                return "SEH in cleanup funclet", pad
    return "", pad


def eh_pad_unwinds_locally(pad: Instruction, memo: UnwindDestMemo | None = None) -> bool:
    """The funclet ``pad`` has a known unwind destination inside the function."""
    from llvmpy_mid.ir.constants import ConstantTokenNone

    token = get_unwind_dest_token(pad, {} if memo is None else memo)
    return token is not None and not isinstance(token, ConstantTokenNone)


def change_to_invoke_and_split_basic_block(ci: CallInst, unwind_edge: BasicBlock) -> BasicBlock:
    """Turn ``ci`` into an invoke unwinding to ``unwind_edge``; the rest of its block
    goes to ``<name>.noexc`` (LLVM ``changeToInvokeAndSplitBasicBlock``)."""
    bb = ci.parent
    assert bb is not None
    split = bb.split(ci, ci.name + ".noexc")
    br = bb.terminator
    assert br is not None
    br.erase_from_parent()
    ii = InvokeInst(
        ci.function_type,
        ci.called_operand,
        split,
        unwind_edge,
        ci.args,
        bundles=ci.operand_bundles,
        calling_conv=ci.calling_conv,
        attributes=ci.attributes,
    )
    bb.instructions.append(ii)
    if ci.name:
        ii.set_name(ci.name)
    ii.debug_loc = ci.debug_loc
    prof = ci.get_metadata("prof")
    if prof is not None:
        ii.set_metadata("prof", prof)
    ci.replace_all_uses_with(ii)
    ci.erase_from_parent()
    return split


def _handle_calls_in_block(
    bb: BasicBlock, unwind_edge: BasicBlock, memo: UnwindDestMemo | None = None
) -> BasicBlock | None:
    """LLVM ``HandleCallsInBlockInlinedThroughInvoke``: the first call that may throw
    becomes an invoke (the block is split after it)."""
    for inst in list(bb.instructions):
        if not isinstance(inst, CallInst) or inst.does_not_throw:
            continue
        fn = inst.called_function
        if fn is not None and fn.is_intrinsic:
            n = fn.name
            if n.startswith("llvm.experimental.deoptimize") or n == "llvm.experimental.guard":
                continue
        if inst.get_operand_bundle("funclet") is not None:
            pad = inst.get_operand_bundle("funclet").inputs[0]  # type: ignore[union-attr]
            if isinstance(pad, Instruction) and eh_pad_unwinds_locally(pad, memo):
                continue
        change_to_invoke_and_split_basic_block(inst, unwind_edge)
        return bb
    return None


class _LandingPadInfo:
    """LLVM ``LandingPadInliningInfo``."""

    def __init__(self, ii: InvokeInst) -> None:
        self.outer_resume_dest = ii.unwind_dest
        invoke_bb = ii.parent
        assert invoke_bb is not None
        self.phi_values: list[Value] = [phi.incoming_value_for_block(invoke_bb) for phi in self.outer_resume_dest.phis()]
        lpad = self.outer_resume_dest.first_non_phi
        assert isinstance(lpad, LandingPadInst)
        self.caller_lpad = lpad
        self.inner_resume_dest: BasicBlock | None = None
        self.inner_eh_values: PHINode | None = None

    def add_incoming_phi_values_into(self, src: BasicBlock, dest: BasicBlock) -> None:
        phis = list(dest.phis())
        for value, phi in zip(self.phi_values, phis):
            phi.add_incoming(value, src)

    def inner_resume(self) -> BasicBlock:
        if self.inner_resume_dest is not None:
            return self.inner_resume_dest
        split_at = self.caller_lpad.next_instruction
        assert split_at is not None
        outer = self.outer_resume_dest
        inner = outer.split(split_at, outer.name + ".body")
        self.inner_resume_dest = inner
        outer_phis = list(outer.phis())[: len(self.phi_values)]
        insert_point = inner.first_instruction
        for outer_phi in outer_phis:
            inner_phi = PHINode(outer_phi.type, name=outer_phi.name + ".lpad-body" if outer_phi.name else "")
            if not outer_phi.name:
                inner_phi = PHINode(outer_phi.type)
            inner.instructions.insert_before(inner_phi, insert_point)
            outer_phi.replace_all_uses_with(inner_phi)
            inner_phi.add_incoming(outer_phi, outer)
        eh_phi = PHINode(self.caller_lpad.type, name="eh.lpad-body")
        inner.instructions.insert_before(eh_phi, insert_point)
        self.caller_lpad.replace_all_uses_with(eh_phi)
        eh_phi.add_incoming(self.caller_lpad, outer)
        self.inner_eh_values = eh_phi
        return inner

    def forward_resume(self, ri: ResumeInst) -> None:
        dest = self.inner_resume()
        src = ri.parent
        assert src is not None
        src.instructions.append(BranchInst(dest))
        self.add_incoming_phi_values_into(src, dest)
        assert self.inner_eh_values is not None
        self.inner_eh_values.add_incoming(ri.get_operand(0), src)
        ri.erase_from_parent()


def handle_inlined_landing_pad(ii: InvokeInst, first_new: BasicBlock, info: ClonedCodeInfo) -> None:
    """Calls inlined through an invoke become invokes of its unwind destination,
    inlined landing pads get the outer pad's clauses, resumes branch to the outer pad."""
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

    invoke_dest = ii.unwind_dest
    lp_info = _LandingPadInfo(ii)
    inlined_lpads: list[LandingPadInst] = []
    seen: set[LandingPadInst] = set()
    for bb in _blocks_from(first_new):
        term = bb.terminator
        if isinstance(term, InvokeInst):
            lp = term.landing_pad
            if lp is not None and lp not in seen:
                seen.add(lp)
                inlined_lpads.append(lp)
    outer = lp_info.caller_lpad
    for lp in inlined_lpads:
        for i in range(outer.num_clauses):
            lp.add_clause(outer.get_clause(i))
        if outer.is_cleanup:
            lp.cleanup = True
    bb_opt: BasicBlock | None = first_new
    while bb_opt is not None:
        bb = bb_opt
        if info.contains_calls:
            new_bb = _handle_calls_in_block(bb, lp_info.outer_resume_dest)
            if new_bb is not None:
                lp_info.add_incoming_phi_values_into(new_bb, lp_info.outer_resume_dest)
        term = bb.terminator
        if isinstance(term, ResumeInst):
            lp_info.forward_resume(term)
        bb_opt = bb.next_block
    invoke_bb = ii.parent
    assert invoke_bb is not None
    remove_predecessor(invoke_dest, invoke_bb)


def handle_inlined_eh_pad(ii: InvokeInst, first_new: BasicBlock, info: ClonedCodeInfo) -> None:
    """The funclet-EH counterpart: what unwinds to the caller now unwinds to the
    invoke's unwind destination."""
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

    unwind_dest = ii.unwind_dest
    invoke_bb = ii.parent
    assert invoke_bb is not None
    phi_values = [phi.incoming_value_for_block(invoke_bb) for phi in unwind_dest.phis()]

    def update_phis(src: BasicBlock) -> None:
        for value, phi in zip(phi_values, list(unwind_dest.phis())):
            phi.add_incoming(value, src)

    from llvmpy_mid.ir.constants import ConstantTokenNone

    memo: UnwindDestMemo = {}
    none_token = ConstantTokenNone.get(ii.type.context.token)
    for bb in _blocks_from(first_new):
        term = bb.terminator
        if isinstance(term, CleanupReturnInst) and not term.has_unwind_dest:
            pad = term.cleanup_pad
            new_cri = CleanupReturnInst(pad, unwind_dest)
            new_cri.insert_before(term)
            term.erase_from_parent()
            update_phis(bb)
            memo[pad] = none_token
        first = bb.first_non_phi
        if first is None or not first.is_eh_pad:
            continue
        if isinstance(first, CatchSwitchInst) and first.unwinds_to_caller:
            parent = first.parent_pad
            token: Value | None
            if isinstance(parent, Instruction):
                token = get_unwind_dest_token(parent, memo)
                if token is not None and not isinstance(token, ConstantTokenNone):
                    continue
            else:
                token = none_token
            new_cs = CatchSwitchInst(parent, unwind_dest, first.handlers, name=first.name)
            new_cs.insert_before(first)
            memo[new_cs] = token
            new_cs.take_name(first)
            first.replace_all_uses_with(new_cs)
            first.erase_from_parent()
            update_phis(bb)
    if info.contains_calls:
        bb_opt: BasicBlock | None = first_new
        while bb_opt is not None:
            new_bb = _handle_calls_in_block(bb_opt, unwind_dest, memo)
            if new_bb is not None:
                update_phis(new_bb)
            bb_opt = bb_opt.next_block
    remove_predecessor(unwind_dest, invoke_bb)


def nest_funclets(first_new: BasicBlock, call_site_pad: Instruction, unwinds_locally: bool) -> None:
    """Calls get the call site's ``funclet`` bundle; top-level pads nest in it."""
    from llvmpy_mid.ir.constants import ConstantTokenNone
    from llvmpy_mid.transform.utils.local import change_to_unreachable

    for bb in _blocks_from(first_new):
        for inst in list(bb.instructions):
            if not isinstance(inst, CallBase) or inst.get_operand_bundle("funclet") is not None:
                continue
            fn = inst.called_function
            if fn is not None and fn.is_intrinsic and inst.does_not_throw and not fn.name.startswith("llvm.objc."):
                continue
            bundles = list(inst.operand_bundles) + [OperandBundle("funclet", (call_site_pad,))]
            new = inst.with_operand_bundles(bundles)
            new.insert_before(inst)
            new.take_name(inst)
            inst.replace_all_uses_with(new)
            inst.erase_from_parent()
        term = bb.terminator
        if isinstance(term, CleanupReturnInst) and not term.has_unwind_dest and unwinds_locally:
            change_to_unreachable(term)
        first = bb.first_non_phi
        if first is None or not first.is_eh_pad:
            continue
        if isinstance(first, CatchSwitchInst):
            if isinstance(first.parent_pad, ConstantTokenNone):
                first.parent_pad = call_site_pad
        elif isinstance(first, FuncletPadInst):
            if isinstance(first.parent_pad, ConstantTokenNone):
                first.parent_pad = call_site_pad


def merge_deopt_bundles(parent_inputs: Sequence[Value], info: ClonedCodeInfo, vmap: TrackingValueMap) -> None:
    """Prepend the call site's ``deopt`` state to each inlined call's ``deopt`` bundle."""
    for i, site in enumerate(info.operand_bundle_call_sites):
        if not isinstance(site, CallBase) or site.is_erased:
            continue
        bundles: list[OperandBundle] = []
        for b in site.operand_bundles:
            if b.tag != "deopt":
                bundles.append(b)
                continue
            bundles.append(OperandBundle("deopt", tuple(parent_inputs) + tuple(b.inputs)))
        new = site.with_operand_bundles(bundles)
        new.insert_before(site)
        site.replace_all_uses_with(new)
        vmap.value_replaced(site, new)
        site.erase_from_parent()
        info.operand_bundle_call_sites[i] = new


def forward_var_args(ci: CallInst, var_args: Sequence[Value], var_attrs: Sequence[AttributeSet]) -> CallInst:
    """A copy of ``ci`` with the call site's variadic arguments appended."""
    attrs = ci.attributes
    n = len(ci.function_type.params)
    params = list(ci.args) + list(var_args)
    new = CallInst(ci.function_type, ci.called_operand, params, calling_conv=ci.calling_conv)
    new_attrs = attrs
    if attrs or var_attrs:
        sets = [attrs.param_attrs(i) for i in range(n)] + list(var_attrs)
        new_attrs = attrs.with_param_sets(sets)
    new.attributes = new_attrs
    new.insert_before(ci)
    new.debug_loc = ci.debug_loc
    ci.replace_all_uses_with(new)
    ci.erase_from_parent()
    return new


def handle_deoptimize_returns(caller: Function, call: CallBase, returns: list[ReturnInst]) -> list[ReturnInst]:
    """Returns after ``llvm.experimental.deoptimize`` stay returns (retyped to the
    caller's return type when needed); the others are merged as usual."""
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.transform.utils.inline_function import _terminating_call

    if caller.return_type is call.type:
        return [ri for ri in returns if ri.parent is None or _terminating_call(ri.parent, "deopt") is None]
    normal: list[ReturnInst] = []
    for ri in returns:
        bb = ri.parent
        assert bb is not None
        deopt = _terminating_call(bb, "deopt")
        if deopt is None:
            normal.append(ri)
            continue
        ri.erase_from_parent()
        args = list(deopt.args)
        bundles = list(deopt.operand_bundles)
        attrs = deopt.attributes
        cc = deopt.calling_conv
        deopt.erase_from_parent()
        b = IRBuilder(bb)
        ret_ty = caller.return_type
        from llvmpy_mid.ir.intrinsics import intrinsic_declaration
        from llvmpy_mid.ir.type_mangling import intrinsic_name

        module = caller.parent
        assert module is not None
        full = intrinsic_name("llvm.experimental.deoptimize", [ret_ty]) or "llvm.experimental.deoptimize"
        decl = intrinsic_declaration(module, full, b.context.function_type(ret_ty, [], is_vararg=True))
        decl.calling_conv = cc
        new_call = b.call(decl, args, bundles=bundles)
        new_call.calling_conv = cc
        new_call.attributes = attrs
        if ret_ty is b.context.void:
            b.ret()
        else:
            b.ret(new_call)
    return normal
