"""``unreachable`` and edges that are undefined behaviour (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``simplifyUnreachable``,
``passingValueIsAlwaysUndefined``, ``removeUndefIntroducingPredecessor``; and
``removeUnwindEdge`` of ``Local.cpp``).

What: :func:`simplify_unreachable` drops the instructions before an ``unreachable``
that always pass control on, and, once the block holds only ``unreachable``, cuts
every edge into it (a conditional branch becomes an ``llvm.assume`` of the other
way and a branch, a switch loses the cases, an invoke unwinding there becomes a
call, catchswitch handlers and cleanupret unwinds go), deleting the block when
nothing reaches it any more. :func:`remove_undef_introducing_predecessor` cuts the
edge of a phi input that is certainly undefined behaviour in the block (null or
undef used as a pointer, a ``noundef`` argument, a called operand, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, PoisonValue, UndefValue
from llvmpy_mid.ir.function import Function, null_pointer_is_defined
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.eh import CatchSwitchInst, CleanupReturnInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    InvokeInst,
    ReturnInst,
    SwitchInst,
    UnreachableInst,
)
from llvmpy_mid.ir.switch_prof_wrapper import SwitchInstProfUpdateWrapper
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import delete_dead_block, remove_predecessor
from llvmpy_mid.transform.utils.simplify_cfg_common import erase_terminator_and_dce_cond

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt

_UB_USER_OPCODES = frozenset(("getelementptr", "ret", "bitcast", "load", "store", "call", "callbr", "invoke"))


def remove_unwind_edge(bb: BasicBlock) -> Instruction:
    """Make ``bb``'s terminator stop unwinding: an invoke becomes a call, a cleanupret
    or catchswitch loses its unwind destination (LLVM ``removeUnwindEdge``)."""
    from llvmpy_mid.transform.utils.local import change_to_call

    ti = bb.terminator
    assert ti is not None
    if isinstance(ti, InvokeInst):
        return change_to_call(ti)
    if isinstance(ti, CleanupReturnInst):
        unwind = ti.unwind_dest
        new_ti: Instruction = CleanupReturnInst(ti.cleanup_pad, None)
    elif isinstance(ti, CatchSwitchInst):
        unwind = ti.unwind_dest
        new_cs = CatchSwitchInst(ti.parent_pad, None, ti.handlers)
        new_ti = new_cs
    else:
        raise AssertionError("Could not find unwind successor")
    new_ti.insert_before(ti)
    name = ti.name
    if name:
        ti.set_name("")
        new_ti.set_name(name)
    new_ti.debug_loc = ti.debug_loc
    assert unwind is not None
    remove_predecessor(unwind, bb)
    ti.replace_all_uses_with(new_ti)
    ti.erase_from_parent()
    return new_ti


def _first_user(inst: Instruction) -> Instruction | None:
    for user in inst.users:
        if isinstance(user, Instruction) and user.opcode in _UB_USER_OPCODES:
            return user
    return None


def _is_passing_undef_ub(cb: CallBase, arg_no: int) -> bool:
    """LLVM ``CallBase::isPassingUndefUB``."""
    return (
        cb.param_has_attr(arg_no, AttrKind.NO_UNDEF)
        or cb.param_has_attr(arg_no, AttrKind.DEREFERENCEABLE)
        or cb.param_has_attr(arg_no, AttrKind.DEREFERENCEABLE_OR_NULL)
    )


def passing_value_is_always_undefined(v: Value, inst: Instruction, ptr_value_may_be_modified: bool = False) -> bool:
    """Using constant ``v`` as ``inst``'s value is certainly undefined behaviour in
    ``inst``'s block (LLVM ``passingValueIsAlwaysUndefined``)."""
    while True:
        if not isinstance(v, Constant):
            return False
        if inst.use_empty:
            return False
        is_null = v.is_null_value
        if not (is_null or isinstance(v, UndefValue)):
            return False
        use = _first_user(inst)
        if use is None:
            return False
        if use.parent is not inst.parent or use is inst or use.comes_before(inst):
            return False
        node = inst.next_instruction
        while node is not None and node is not use:
            if not is_guaranteed_to_transfer_execution_to_successor(node):
                return False
            node = node.next_instruction
        fn = use.function
        if isinstance(use, GetElementPtrInst) and use.pointer_operand is inst:
            if not use.has_all_zero_indices and (
                not use.inbounds or null_pointer_is_defined(fn, use.pointer_address_space)
            ):
                ptr_value_may_be_modified = True
            inst = use
            continue
        if isinstance(use, ReturnInst) and isinstance(fn, Function):
            ret_attrs = fn.attributes
            no_undef = ret_attrs.has_ret_attr(AttrKind.NO_UNDEF)
            if isinstance(v, UndefValue) and no_undef:
                return True
            if is_null and no_undef and ret_attrs.has_ret_attr(AttrKind.NON_NULL):
                return not ptr_value_may_be_modified
        if use.opcode == "bitcast":
            inst = use
            continue
        if isinstance(use, LoadInst) and not use.volatile:
            return not null_pointer_is_defined(fn, use.pointer_address_space)
        if isinstance(use, StoreInst) and not use.volatile:
            return (
                not null_pointer_is_defined(fn, use.pointer_address_space)
                and use.pointer_operand is inst
            )
        if isinstance(use, CallBase):
            callee = use.called_function
            if callee is not None and callee.name == "llvm.assume" and use.args and use.args[0] is inst:
                return True
            if is_null and null_pointer_is_defined(fn):
                return False
            if use.called_operand is inst:
                return True
            for i, arg in enumerate(use.args):
                if arg is not inst:
                    continue
                if is_null:
                    if _is_passing_undef_ub(use, i) and use.param_has_attr(i, AttrKind.NON_NULL):
                        return not ptr_value_may_be_modified
                elif _is_passing_undef_ub(use, i):
                    return True
        return False


def _register_assumption(ac: object | None, call: Instruction) -> None:
    if ac is not None:
        ac.register_assumption(call)  # type: ignore[attr-defined]


def _assume_and_branch(bi: BranchInst, bb: BasicBlock, ac: object | None) -> None:
    """Before ``bi``: ``llvm.assume`` of the way that does not go to ``bb`` and a branch the other way."""
    b = IRBuilder(before=bi)
    b.debug_loc = bi.debug_loc
    cond = bi.condition
    if bi.get_successor(0) is bb:
        assumed = b.create_not(cond)
        other = bi.get_successor(1)
    else:
        assumed = cond
        other = bi.get_successor(0)
    call = b.create_intrinsic("assume", [], [assumed], return_type=b.context.void)
    _register_assumption(ac, call)
    b.br(other)


def remove_undef_introducing_predecessor(bb: BasicBlock, ac: object | None) -> bool:
    """Cut the first edge whose phi input is certainly undefined behaviour in ``bb``
    (LLVM ``removeUndefIntroducingPredecessor``)."""
    for phi in list(bb.phis()):
        for value, pred in phi.incoming:
            if not passing_value_is_always_undefined(value, phi):
                continue
            t = pred.terminator
            if isinstance(t, BranchInst):
                remove_predecessor(bb, pred)
                if t.is_unconditional:
                    b = IRBuilder(before=t)
                    b.debug_loc = t.debug_loc
                    b.unreachable()
                else:
                    _assume_and_branch(t, bb, ac)
                t.erase_from_parent()
                return True
            if isinstance(t, SwitchInst):
                fn = bb.parent
                assert fn is not None
                unreachable = BasicBlock(bb.context, "unreachable", fn, bb)
                unreachable.append(UnreachableInst(bb.context))
                for i in range(t.num_cases):
                    if t.get_case_dest(i) is bb:
                        remove_predecessor(bb, pred)
                        t.set_case_dest(i, unreachable)
                if t.default_dest is bb:
                    remove_predecessor(bb, pred)
                    t.default_dest = unreachable
                return True
    return False


def simplify_unreachable(opt: SimplifyCFGOpt, ui: UnreachableInst) -> bool:
    """LLVM ``SimplifyCFGOpt::simplifyUnreachable``."""
    bb = ui.parent
    assert bb is not None
    changed = False
    ui._dbg_records = None
    while True:
        prev = ui.prev_instruction
        if prev is None or not is_guaranteed_to_transfer_execution_to_successor(prev):
            break
        prev._dbg_records = None
        if prev.has_uses:
            prev.replace_all_uses_with(PoisonValue.get(prev.type))
        prev.erase_from_parent()
        changed = True
    if bb.first_instruction is not ui:
        return changed
    preds = list(dict.fromkeys(bb.predecessors))
    for pred in preds:
        ti = pred.terminator
        assert ti is not None
        if isinstance(ti, BranchInst):
            if all(s is bb for s in ti.successors):
                UnreachableInst(bb.context).insert_before(ti)
                ti.erase_from_parent()
                changed = True
            else:
                assert ti.is_conditional
                _assume_and_branch(ti, bb, opt.options.ac)
                erase_terminator_and_dce_cond(ti)
                changed = True
        elif isinstance(ti, SwitchInst):
            with SwitchInstProfUpdateWrapper(ti) as su:
                i = 0
                while i < ti.num_cases:
                    if ti.get_case_dest(i) is not bb:
                        i += 1
                        continue
                    remove_predecessor(bb, pred)
                    su.remove_case(i)
                    changed = True
        elif isinstance(ti, InvokeInst):
            if ti.unwind_dest is bb:
                call = remove_unwind_edge(pred)
                if isinstance(call, CallBase) and not call.does_not_throw:
                    call.add_fn_attr(Attribute.enum("nounwind"))
                changed = True
        elif isinstance(ti, CatchSwitchInst):
            if ti.unwind_dest is bb:
                remove_unwind_edge(pred)
                changed = True
                continue
            j = 0
            while j < ti.num_handlers:
                if ti.handlers[j] is bb:
                    ti.remove_handler(j)
                    changed = True
                    continue
                j += 1
            if ti.num_handlers == 0:
                unwind = ti.unwind_dest
                if unwind is not None:
                    pred.replace_all_uses_with(unwind)
                else:
                    for eh_pred in list(pred.predecessors):
                        remove_unwind_edge(eh_pred)
                UnreachableInst(bb.context).insert_before(ti)
                ti.erase_from_parent()
                changed = True
        elif isinstance(ti, CleanupReturnInst):
            UnreachableInst(bb.context).insert_before(ti)
            ti.erase_from_parent()
            changed = True
    fn = bb.parent
    assert fn is not None
    if not bb.predecessors and bb is not fn.entry_block:
        delete_dead_block(bb)
        return True
    return changed


__all__ = [
    "passing_value_is_always_undefined",
    "remove_undef_introducing_predecessor",
    "remove_unwind_edge",
    "simplify_unreachable",
]
