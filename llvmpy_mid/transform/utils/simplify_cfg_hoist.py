"""Hoisting code common to all successors into the branching block (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``isSafeToHoistInvoke``,
``skippedInstrFlags``, ``isSafeToHoistInstr``, ``shouldHoistCommonInstructions``,
``hoistLockstepIdenticalDbgVariableRecords``, ``hoistCommonCodeFromSuccessors``,
``hoistSuccIdenticalTerminatorToSwitchOrIf``).

What: :func:`hoist_common_code_from_successors` walks the successors of a block that
ends in a conditional branch or a switch (each successor reached only from that
block, none with its address taken, none starting with a phi) in lockstep from the
top. While the current instructions are identical (operands and special state; the
optional flags may differ) and may move above what was skipped so far, one copy
moves in front of the terminator; the others are replaced by it and erased (flags
intersected, metadata combined as ``combineMetadataForCSE`` does, debug locations
merged). A differing row is skipped, at most ``simplifycfg-hoist-common-skip-limit``
times, recording whether it reads memory, has side effects or may not transfer
control (instructions after it must then be safe to reorder across it). With
``eq_terms_only`` (``hoist-common-insts`` off) only successors holding nothing but
the terminator are considered. When all successors end in identical terminators
reached with nothing skipped, the terminator is cloned into the block in place of
the branch; for a conditional branch, phis of the new successors that disagree get
``<a>.<b>`` selects on the branch condition (copying its ``!prof`` and
``!unpredictable``). Debug records hoist in lockstep with the instructions they
precede when the records match in every successor.

Not done: the target's ``isProfitableToHoist`` (NoTTIImpl always says yes), the
dominator-tree updates (the pass keeps no tree).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgRecord, DbgVariableRecord
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, InvokeInst, UnreachableInst
from llvmpy_mid.ir.metadata import DIArgList, MDNode, Metadata, ValueAsMetadata
from llvmpy_mid.ir.instructions.flags import type_supports_fast_math_flags
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.simplify_cfg_common import add_predecessor_to_block, erase_terminator_and_dce_cond

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt


_SKIP_READ_MEM = 1
_SKIP_SIDE_EFFECT = 2
_SKIP_IMPLICIT_CONTROL_FLOW = 4

_HOIST_COMMON_SKIP_LIMIT = 20
"""LLVM's ``simplifycfg-hoist-common-skip-limit`` default."""


# --- small queries --------------------------------------------------------------------------------


def _is_dbg_intrinsic(inst: Instruction) -> bool:
    """A call of an ``llvm.dbg.*`` intrinsic (LLVM ``DbgInfoIntrinsic``)."""
    return inst.opcode == "call" and isinstance(inst, CallInst) and inst.intrinsic_name.startswith("llvm.dbg.")


def _skip_dbg_intrinsics(inst: Instruction) -> Instruction:
    while _is_dbg_intrinsic(inst):
        nxt = inst.next_instruction
        assert nxt is not None
        inst = nxt
    return inst


def _mmra_key(inst: Instruction) -> frozenset[object] | None:
    from llvmpy_mid.transform.utils.simplify_cfg_sink import _mmra_key as key

    return key(inst)


def _dbg_records_identical(a: DbgRecord, b: DbgRecord) -> bool:
    """LLVM ``DbgRecord::isIdenticalToWhenDefined`` (the debug location does not count)."""
    if isinstance(a, DbgVariableRecord):
        if not isinstance(b, DbgVariableRecord):
            return False
        return (
            a.kind is b.kind
            and _same_location_md(a._location, b._location)
            and a._variable is b._variable
            and a._expression is b._expression
            and _same_location_md(a._address, b._address)
            and a._assign_id is b._assign_id
            and a._address_expression is b._address_expression
        )
    if isinstance(a, DbgLabelRecord):
        return isinstance(b, DbgLabelRecord) and a.label is b.label
    return False


def _same_location_md(a: Metadata | None, b: Metadata | None) -> bool:
    """Two location operands of debug records name the same values (a value's
    metadata wrapper may be a second object after a replace-all-uses)."""
    if a is b:
        return True
    if isinstance(a, ValueAsMetadata) and isinstance(b, ValueAsMetadata):
        return a.value is b.value
    if isinstance(a, DIArgList) and isinstance(b, DIArgList):
        xs = a.args
        ys = b.args
        return len(xs) == len(ys) and all(x.value is y.value for x, y in zip(xs, ys))
    return False


def _is_safe_to_hoist_invoke(bb1: BasicBlock, bb2: BasicBlock, i1: Instruction, i2: Instruction) -> bool:
    """No phi of ``bb1``'s successors would need a select on the invoke's own value
    (LLVM ``isSafeToHoistInvoke``)."""
    for succ in bb1.successors:
        for phi in succ.phis():
            v1 = phi.incoming_value_for_block(bb1)
            v2 = phi.incoming_value_for_block(bb2)
            if v1 is not v2 and (v1 is i1 or v2 is i2):
                return False
    return True


def _skipped_instr_flags(inst: Instruction) -> int:
    """What a skipped instruction forbids moving across it (LLVM ``skippedInstrFlags``)."""
    flags = 0
    if inst.may_read_from_memory():
        flags |= _SKIP_READ_MEM
    if inst.may_have_side_effects() or isinstance(inst, AllocaInst):
        flags |= _SKIP_SIDE_EFFECT
    if not is_guaranteed_to_transfer_execution_to_successor(inst):
        flags |= _SKIP_IMPLICIT_CONTROL_FLOW
    return flags


def _is_safe_to_hoist_instr(inst: Instruction, flags: int, opt: SimplifyCFGOpt) -> bool:
    """``inst`` may move above the instructions skipped before it (LLVM ``isSafeToHoistInstr``)."""
    if flags & _SKIP_READ_MEM and inst.may_write_to_memory():
        return False
    if flags & _SKIP_SIDE_EFFECT and (
        inst.may_read_from_memory() or inst.may_have_side_effects() or isinstance(inst, AllocaInst)
    ):
        return False
    if flags & _SKIP_IMPLICIT_CONTROL_FLOW:
        from llvmpy_mid.transform.utils.simplify_cfg_branch_fold import _is_safe_to_speculatively_execute

        if not _is_safe_to_speculatively_execute(inst, opt.dl):
            return False
    if isinstance(inst, CallBase) and inst.intrinsic_base == "llvm.experimental.deoptimize":
        return False
    bb = inst.parent
    for op in inst.operands:
        if isinstance(op, Instruction) and op.parent is bb:
            return False
    return True


def _should_hoist_common_instructions(i1: Instruction, i2: Instruction) -> bool:
    """LLVM ``shouldHoistCommonInstructions``: both or neither ``musttail``; no
    ``nomerge`` or ``convergent`` call."""
    if isinstance(i1, CallInst) and isinstance(i2, CallInst):
        if i1.is_must_tail_call != i2.is_must_tail_call:
            return False
    for inst in (i1, i2):
        if isinstance(inst, CallBase) and (inst.has_fn_attr("nomerge") or inst.is_convergent):
            return False
    return True


def _hoist_lockstep_identical_dbg_records(ti: Instruction, i1: Instruction, others: list[Instruction]) -> None:
    """Move the debug records in front of ``i1`` and ``others`` to ``ti``, walking them in
    lockstep and taking a row only when it is identical everywhere (LLVM
    ``hoistLockstepIdenticalDbgVariableRecords``)."""
    first = i1._dbg_records
    if not first:
        return
    lists: list[list[DbgRecord]] = [list(first)]
    for other in others:
        recs = other._dbg_records
        if not recs:
            return
        lists.append(list(recs))
    rows = min(len(lst) for lst in lists)
    for r in range(rows):
        head = lists[0][r]
        if all(_dbg_records_identical(head, lst[r]) for lst in lists[1:]):
            for lst in lists:
                rec = lst[r]
                rec.remove_from_parent()
                ti.add_dbg_record(rec)


def _adopt_dbg_records(inst: Instruction, source: Instruction) -> None:
    """``inst`` (just placed before ``source``) takes the debug records in front of
    ``source``, as LLVM's insertion before an instruction does."""
    recs = source.take_dbg_records()
    for rec in recs:
        inst.add_dbg_record(rec)


def _and_ir_flags(dst: Instruction, src: Instruction) -> None:
    from llvmpy_mid.transform.utils.simplify_cfg_sink import _and_ir_flags as and_flags

    and_flags(dst, src)


# --- the transform --------------------------------------------------------------------------------


def hoist_common_code_from_successors(opt: SimplifyCFGOpt, bb: BasicBlock, eq_terms_only: bool) -> bool:
    """Hoist the instructions every successor of ``bb`` starts with into ``bb`` (LLVM
    ``hoistCommonCodeFromSuccessors``); with ``eq_terms_only``, only when each successor
    holds just its terminator."""
    from llvmpy_mid.transform.utils.local_metadata import combine_metadata_for_cse
    from llvmpy_mid.transform.utils.simplify_cfg import option_int

    ti = bb.terminator
    assert ti is not None
    succs = ti.successors
    if len(succs) < 2:
        return False
    for succ in succs:
        if succ.has_address_taken or succ.single_predecessor is None:
            return False
    # Each row: [current instruction, skip flags].
    cursors: list[Instruction] = []
    for succ in succs:
        first = succ.first_instruction
        assert first is not None
        if isinstance(first, PHINode):
            return False
        cursors.append(first)
    if eq_terms_only:
        for cur in cursors:
            if not _skip_dbg_intrinsics(cur).is_terminator:
                return False
    if len(cursors) > 2:
        cursors = [c for c in cursors if not isinstance(c, UnreachableInst)]
        if len(cursors) < 2:
            return False
    flags = [0] * len(cursors)
    n = len(cursors)
    skip_limit = option_int("simplifycfg-hoist-common-skip-limit", _HOIST_COMMON_SKIP_LIMIT)
    num_skipped = 0
    changed = False
    while True:
        i1 = cursors[0]
        if not all(i1.is_identical_to_when_defined(cursors[k]) for k in range(1, n)):
            for k in range(n):
                cursors[k] = _skip_dbg_intrinsics(cursors[k])
            i1 = cursors[0]
        all_identical = True
        has_terminator = i1.is_terminator
        mmra1 = _mmra_key(i1) if i1.has_metadata else None
        for k in range(1, n):
            i2 = cursors[k]
            if i2.is_terminator:
                has_terminator = True
            if all_identical and (
                not i1.is_identical_to_when_defined(i2) or mmra1 != (_mmra_key(i2) if i2.has_metadata else None)
            ):
                all_identical = False
        others = cursors[1:]
        if has_terminator:
            if num_skipped or not all_identical:
                _hoist_lockstep_identical_dbg_records(ti, i1, others)
                return changed
            return _hoist_succ_identical_terminator(opt, ti, i1, others) or changed
        if all_identical:
            all_identical = _is_safe_to_hoist_instr(i1, flags[0], opt) and all(
                _is_safe_to_hoist_instr(cursors[k], flags[k], opt) and _should_hoist_common_instructions(i1, cursors[k])
                for k in range(1, n)
            )
        if all_identical:
            nxt = i1.next_instruction
            assert nxt is not None
            cursors[0] = nxt
            _hoist_lockstep_identical_dbg_records(ti, i1, others)
            i1.move_before(ti)
            _adopt_dbg_records(i1, ti)
            if _is_dbg_intrinsic(i1):
                for k in range(1, n):
                    i2 = cursors[k]
                    nxt = i2.next_instruction
                    assert nxt is not None
                    cursors[k] = nxt
                    i2.move_before(ti)
                    _adopt_dbg_records(i2, ti)
            else:
                for k in range(1, n):
                    i2 = cursors[k]
                    nxt = i2.next_instruction
                    assert nxt is not None
                    cursors[k] = nxt
                    if i2.has_uses:
                        i2.replace_all_uses_with(i1)
                    _and_ir_flags(i1, i2)
                    combine_metadata_for_cse(i1, i2, True)
                    i1.debug_loc = get_merged_location(i1.debug_loc, i2.debug_loc)
                    i2.erase_from_parent()
            changed = True
        else:
            if num_skipped >= skip_limit:
                _hoist_lockstep_identical_dbg_records(ti, i1, others)
                return changed
            for k in range(n):
                cur = cursors[k]
                nxt = cur.next_instruction
                assert nxt is not None
                cursors[k] = nxt
                flags[k] |= _skipped_instr_flags(cur)
            num_skipped += 1


def _hoist_succ_identical_terminator(
    opt: SimplifyCFGOpt, ti: Instruction, i1: Instruction, others: list[Instruction]
) -> bool:
    """Replace ``ti`` by a copy of the identical terminator ``i1`` its successors end
    in; for a conditional branch, phis that disagree get selects (LLVM
    ``hoistSuccIdenticalTerminatorToSwitchOrIf``)."""
    from llvmpy_mid.transform.utils.simplify_cfg_unreachable import passing_value_is_always_undefined

    bi = ti if isinstance(ti, BranchInst) else None
    ti_parent = ti.parent
    bb1 = i1.parent
    i2 = others[0]
    bb2 = i2.parent
    assert ti_parent is not None and bb1 is not None and bb2 is not None
    if isinstance(i1, InvokeInst) and (bi is None or not _is_safe_to_hoist_invoke(bb1, bb2, i1, i2)):
        return False
    if i1.opcode == "callbr":
        return False
    succs1 = i1.successors
    other_blocks: list[BasicBlock] = []
    for other in others:
        ob = other.parent
        assert ob is not None
        other_blocks.append(ob)
    for succ in succs1:
        for phi in succ.phis():
            v1 = phi.incoming_value_for_block(bb1)
            for ob in other_blocks:
                v2 = phi.incoming_value_for_block(ob)
                if v1 is v2:
                    continue
                if (
                    bi is None
                    or passing_value_is_always_undefined(v1, phi)
                    or passing_value_is_always_undefined(v2, phi)
                ):
                    return False
    _hoist_lockstep_identical_dbg_records(ti, i1, others)
    nt = i1.clone()
    nt.insert_before(ti)
    _adopt_dbg_records(nt, ti)
    if not nt.type.is_void:
        i1.replace_all_uses_with(nt)
        for other in others:
            other.replace_all_uses_with(nt)
        name = i1.name
        if name:
            i1.name = ""
            nt.name = name
    loc: MDNode | None = i1.debug_loc
    for other in others:
        if loc is None:
            break
        loc = get_merged_location(loc, other.debug_loc)
    nt.debug_loc = loc

    if bi is not None:
        cond = bi.condition
        prof = bi.get_metadata("prof")
        unpredictable = bi.get_metadata("unpredictable")
        first_new: Instruction | None = None
        inserted: dict[tuple[int, int], SelectInst] = {}
        for succ in succs1:
            for phi in succ.phis():
                v1 = phi.incoming_value_for_block(bb1)
                v2 = phi.incoming_value_for_block(bb2)
                if v1 is v2:
                    continue
                key = (id(v1), id(v2))
                sel = inserted.get(key)
                if sel is None:
                    fmf = phi._fmf if type_supports_fast_math_flags(phi.type) else 0
                    sel = SelectInst(cond, v1, v2, fast_math_flags=fmf, name=_value_name(v1) + "." + _value_name(v2))
                    sel.insert_before(nt)
                    if first_new is None:
                        first_new = sel
                        _adopt_dbg_records(sel, nt)
                    if loc is not None:
                        sel.debug_loc = loc
                    if prof is not None:
                        sel.set_metadata("prof", prof)
                    if unpredictable is not None:
                        sel.set_metadata("unpredictable", unpredictable)
                    inserted[key] = sel
                for idx, blk in enumerate(phi.incoming_blocks):
                    if blk is bb1 or blk is bb2:
                        phi.set_incoming_value(idx, sel)

    for succ in succs1:
        add_predecessor_to_block(succ, ti_parent, bb1)
    erase_terminator_and_dce_cond(ti)
    return True


def _value_name(v: Value) -> str:
    return v.name if v.name else ""


__all__ = ["hoist_common_code_from_successors"]
