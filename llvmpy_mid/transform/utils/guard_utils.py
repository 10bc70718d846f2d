"""Rewriting guards as control flow, and widening widenable branches (LLVM 19.1.7
``lib/Transforms/Utils/GuardUtils.cpp``).

- :func:`make_guard_control_flow_explicit` splits the block before a call of
  ``llvm.experimental.guard``: the head branches on the guard's condition (weighted
  ``-guards-predicate-pass-branch-weight`` to 1, the guard's ``!make.implicit`` kept) to the
  rest of the block, named ``guarded``, or to a new block ``deopt`` that calls
  ``llvm.experimental.deoptimize`` with the guard's extra arguments and ``deopt`` bundle and
  returns its result. With ``use_wc`` the branch condition becomes
  ``and cond, widenable.condition()`` so the branch stays widenable. The guard itself is left
  in place (first instruction of ``guarded``) for the caller to erase.
- :func:`widen_widenable_branch` adds a condition to a widenable branch and
  :func:`set_widenable_branch_cond` replaces its non-widenable part, both keeping the shape
  :func:`~llvmpy_mid.analysis.guard_utils.parse_widenable_branch` recognises.
"""

from __future__ import annotations

from llvmpy_mid.analysis.guard_utils import WIDENABLE_CONDITION, parse_widenable_branch
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.intrinsics import intrinsic_declaration
from llvmpy_mid.ir.prof_data_utils import create_branch_weights
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.transform.utils.basic_block_utils import split_block_and_insert_if_then

__all__ = ["make_guard_control_flow_explicit", "set_widenable_branch_cond", "widen_widenable_branch"]


def _builder_before(inst: Instruction) -> IRBuilder:
    """An IRBuilder before ``inst`` that gives new instructions ``inst``'s debug location (as
    LLVM's ``IRBuilder(Instruction *)``)."""
    builder = IRBuilder(before=inst)
    builder.debug_loc = inst.debug_loc
    return builder


def _adopt_dbg_records(new: Value, pos: Instruction) -> None:
    """``new`` was inserted right before ``pos``: the debug records in front of ``pos`` now
    come before ``new`` (LLVM's insertion at an iterator without the head bit)."""
    if isinstance(new, Instruction) and new.next_instruction is pos:
        for record in pos.take_dbg_records():
            new.add_dbg_record(record)


def make_guard_control_flow_explicit(deopt_intrinsic: Function, guard: CallInst, use_wc: bool) -> BranchInst:
    """LLVM ``makeGuardControlFlowExplicit``; returns the new guarding branch."""
    bundle = guard.get_operand_bundle("deopt")
    assert bundle is not None, "a guard carries a deopt bundle"
    args = guard.args[1:]
    check_bb = guard.parent
    assert check_bb is not None
    deopt_term = split_block_and_insert_if_then(guard.get_arg(0), guard, unreachable=True)
    check_bi = check_bb.terminator
    assert isinstance(check_bi, BranchInst)
    # The split branches to the new block when the condition holds; a guard deoptimizes when
    # it does not.
    check_bi.swap_successors()
    check_bi.get_successor(0).set_name("guarded")
    check_bi.get_successor(1).set_name("deopt")
    make_implicit = guard.get_metadata("make.implicit")
    if make_implicit is not None:
        check_bi.set_metadata("make.implicit", make_implicit)
    weight = int(OPTIONS.value("guards-predicate-pass-branch-weight"))
    check_bi.set_metadata("prof", create_branch_weights(guard.type.context, [weight, 1]))
    builder = _builder_before(deopt_term)
    deopt_call = builder.call(deopt_intrinsic, args, bundles=[bundle], calling_conv=guard.calling_conv)
    _adopt_dbg_records(deopt_call, deopt_term)
    if deopt_intrinsic.return_type.is_void:
        builder.ret()
    else:
        deopt_call.set_name("deoptcall")
        builder.ret(deopt_call)
    deopt_term.erase_from_parent()
    if use_wc:
        builder = _builder_before(check_bi)
        fn = check_bb.parent
        module = fn.parent if fn is not None else None
        assert module is not None
        ctx = guard.type.context
        decl = intrinsic_declaration(module, WIDENABLE_CONDITION, ctx.function_type(ctx.i1, []))
        wc = builder.call(decl, [], "widenable_cond", calling_conv=0)
        _adopt_dbg_records(wc, check_bi)
        check_bi.condition = builder.and_(check_bi.condition, wc, "exiplicit_guard_cond")
        assert parse_widenable_branch(check_bi) is not None, "the branch must be widenable"
    return check_bi


def widen_widenable_branch(widenable_br: BranchInst, new_cond: Value) -> None:
    """LLVM ``widenWidenableBranch``: the branch also requires ``new_cond``."""
    parsed = parse_widenable_branch(widenable_br)
    assert parsed is not None, "a widenable branch"
    builder = _builder_before(widenable_br)
    if parsed.condition is None:
        widenable_br.condition = builder.and_(new_cond, parsed.widenable_condition.value)
        _adopt_dbg_records(widenable_br.condition, widenable_br)
    else:
        c = parsed.condition
        c.set(builder.and_(new_cond, c.value))
        _adopt_dbg_records(c.value, widenable_br)
        wc_and = widenable_br.condition
        assert isinstance(wc_and, Instruction)
        wc_and.move_before(widenable_br)
    assert parse_widenable_branch(widenable_br) is not None, "the branch stays widenable"


def set_widenable_branch_cond(widenable_br: BranchInst, new_cond: Value) -> None:
    """LLVM ``setWidenableBranchCond``: the branch's non-widenable condition becomes
    ``new_cond``."""
    parsed = parse_widenable_branch(widenable_br)
    assert parsed is not None, "a widenable branch"
    if parsed.condition is None:
        builder = _builder_before(widenable_br)
        widenable_br.condition = builder.and_(new_cond, parsed.widenable_condition.value)
        _adopt_dbg_records(widenable_br.condition, widenable_br)
    else:
        wc_and = widenable_br.condition
        assert isinstance(wc_and, Instruction)
        wc_and.move_before(widenable_br)
        parsed.condition.set(new_cond)
    assert parse_widenable_branch(widenable_br) is not None, "the branch stays widenable"
