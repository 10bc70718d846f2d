"""Moving an SSA value or a phi into a stack slot (LLVM's Transforms/Utils/DemoteRegToStack.cpp).

What: :func:`demote_reg_to_stack` gives an instruction a slot ``<name>.reg2mem``
(an ``alloca`` at the given point, by default the top of the entry block), stores
the value right after its definition (after any phis and EH pads; in every
handler of a ``catchswitch``; at the top of an ``invoke``'s normal destination,
whose edge is split first when critical; in every successor of a ``callbr``),
and replaces every use by a ``<name>.reload`` load before it (phi uses load once
per incoming block, before that block's terminator). :func:`demote_phi_to_stack`
stores each incoming value before its block's terminator and replaces the phi
by one load after the block's phis and EH pads (before each user when the block
is a ``catchswitch`` block). An unused value is just erased.

How: LLVM 19's order of edits, so names and positions match ``opt-19``: uses are
rewritten most recent first; alignments are the data layout's preferred one for
the slot and the ABI one for loads and stores.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import CriticalEdgeSplittingOptions, split_critical_edge


def insert_before_taking_records(inst: Instruction, before: Instruction) -> None:
    """Insert ``inst`` before ``before``, after the debug records there (they now
    precede ``inst``): LLVM 19's insertion at an instruction's own iterator."""
    recs = before.take_dbg_records() if before._dbg_records else None
    inst.insert_before(before)
    if recs:
        for rec in recs:
            inst.add_dbg_record(rec)


def _new_slot(value: Instruction, alloca_point: Instruction | None) -> AllocaInst:
    fn = value.function
    assert fn is not None and fn.parent is not None
    dl = fn.parent.data_layout
    ty = value.type
    slot = AllocaInst(ty, alignment=dl.pref_alignment(ty), address_space=dl.alloca_addr_space, name=value.name + ".reg2mem")
    if alloca_point is not None:
        insert_before_taking_records(slot, alloca_point)
    else:
        first = fn.entry_block.instructions._first
        assert first is not None
        slot.insert_before(first)
    return slot


def _load(value: Value, slot: AllocaInst, name: str, volatile: bool, before: Instruction) -> LoadInst:
    fn = before.function
    assert fn is not None and fn.parent is not None
    ty = value.type
    li = LoadInst(ty, slot, volatile=volatile, alignment=fn.parent.data_layout.abi_alignment(ty), name=name)
    insert_before_taking_records(li, before)
    return li


def _store(value: Value, slot: AllocaInst, before: Instruction, at_head: bool = False) -> StoreInst:
    """A store before ``before``; ``at_head``: before its debug records too (a block's
    first insertion point), otherwise after them."""
    fn = before.function
    assert fn is not None and fn.parent is not None
    si = StoreInst(value, slot, alignment=fn.parent.data_layout.abi_alignment(value.type))
    if at_head:
        si.insert_before(before)
    else:
        insert_before_taking_records(si, before)
    return si


def _split_critical_edge(term: Instruction, succ_num: int) -> None:
    split_critical_edge(term, succ_num, CriticalEdgeSplittingOptions())


def _past_phis_and_pads(start: Instruction | None) -> Instruction | None:
    at = start
    while at is not None and (at.is_phi or at.is_eh_pad):
        if at.opcode == "catchswitch":
            break
        at = at._next
    return at


def demote_reg_to_stack(
    inst: Instruction, volatile_loads: bool = False, alloca_point: Instruction | None = None
) -> AllocaInst | None:
    """Move ``inst``'s value through a new stack slot (LLVM ``DemoteRegToStack``); None
    when ``inst`` had no uses (it is erased)."""
    if not inst.has_uses:
        inst.erase_from_parent()
        return None
    slot = _new_slot(inst, alloca_point)
    op = inst.opcode
    if op == "invoke":
        normal: BasicBlock = inst.normal_dest  # type: ignore[attr-defined]
        if normal.single_predecessor is None:
            bb = inst.parent
            assert bb is not None
            _split_critical_edge(inst, inst.successors.index(normal))
    elif op == "callbr":
        succs = inst.successors
        for i in range(len(succs)):
            if inst.successors[i].single_predecessor is None:
                _split_critical_edge(inst, i)
    reload_name = inst.name + ".reload"
    while inst.has_uses:
        user: Any = next(iter(inst.users))
        if user.is_phi:
            phi: PHINode = user
            loads: dict[BasicBlock, Value] = {}
            for i in range(phi.num_incoming):
                if phi.get_incoming_value(i) is inst:
                    block = phi.get_incoming_block(i)
                    v = loads.get(block)
                    if v is None:
                        term = block.terminator
                        assert term is not None
                        v = loads[block] = _load(inst, slot, reload_name, volatile_loads, term)
                    phi.set_incoming_value(i, v)
        else:
            v = _load(inst, slot, reload_name, volatile_loads, user)
            user.replace_uses_of_with(inst, v)
    if not inst.is_terminator:
        at = _past_phis_and_pads(inst._next)
        assert at is not None
        if at.opcode == "catchswitch":
            for handler in at.successors:
                point = handler.first_insertion_point
                assert point is not None
                _store(inst, slot, point, at_head=True)
            return slot
    elif op == "invoke":
        at = inst.normal_dest.first_insertion_point
        assert at is not None
        _store(inst, slot, at, at_head=True)
        return slot
    elif op == "callbr":
        for succ in inst.successors:
            point = succ.first_insertion_point
            assert point is not None
            _store(inst, slot, point, at_head=True)
        return slot
    else:
        raise ValueError("reg2mem cannot demote the result of a %s" % op)
    assert at is not None
    _store(inst, slot, at)
    return slot


def demote_phi_to_stack(phi: PHINode, alloca_point: Instruction | None = None) -> AllocaInst | None:
    """Replace ``phi`` by stores in its predecessors and a load (LLVM ``DemotePHIToStack``);
    None when it had no uses (it is erased)."""
    if not phi.has_uses:
        phi.erase_from_parent()
        return None
    slot = _new_slot(phi, alloca_point)
    for i in range(phi.num_incoming):
        term = phi.get_incoming_block(i).terminator
        assert term is not None
        _store(phi.get_incoming_value(i), slot, term)
    at = _past_phis_and_pads(phi)
    assert at is not None
    reload_name = phi.name + ".reload"
    if at.opcode == "catchswitch":
        for user in list(phi.users):
            v = _load(phi, slot, reload_name, False, user)  # type: ignore[arg-type]
            user.replace_uses_of_with(phi, v)
    else:
        v = _load(phi, slot, reload_name, False, at)
        phi.replace_all_uses_with(v)
    phi.erase_from_parent()
    return slot


__all__ = ["demote_phi_to_stack", "demote_reg_to_stack", "insert_before_taking_records"]
