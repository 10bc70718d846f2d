"""GVN's scalar partial redundancy elimination (LLVM 19.1.7
``llvm/lib/Transforms/Scalar/GVN.cpp``: ``performPRE``, ``performScalarPRE``,
``performScalarPREInsertion``).

What: for each instruction of each non-entry, non-EH-pad block (blocks in
depth-first order), look at its predecessors: when the value (translated
through the block's phis) has a dominating leader in all but one forward-edge
predecessor, and that one can take a copy (its edge is not critical — critical
edges are queued and split at the end of the sweep, and the sweep is retried —
not an ``indirectbr``, and the copy is speculatable or not preceded by implicit
control flow in its block), the copy goes before the predecessor's terminator
with its operands translated to that predecessor's leaders, and a ``.pre-phi``
joins the values and replaces the instruction. Compares, GEPs, loads, calls
that may read or write memory, and inline asm are not moved, as in LLVM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.depth_first import depth_first
from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.transform.scalar.gvn_value_table import NUM_GVN_INSTR, NUM_GVN_PRE
from llvmpy_mid.transform.utils.basic_block_utils import is_critical_edge, successor_number
from llvmpy_mid.transform.utils.local_metadata import patch_replacement_instruction

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.scalar.gvn import GVN

__all__ = ["depth_first", "perform_pre", "perform_scalar_pre", "perform_scalar_pre_insertion"]

_NO_PRE_OPCODES = frozenset(("alloca", "phi", "icmp", "fcmp", "getelementptr"))
_DBG_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.label", "llvm.dbg.assign"))


def perform_scalar_pre_insertion(gvn: GVN, inst: Instruction, pred: BasicBlock, curr: BasicBlock, val_no: int) -> bool:
    """Put ``inst`` (a fresh clone) at the end of ``pred`` with its operands translated
    into ``pred`` (LLVM ``performScalarPREInsertion``)."""
    vn = gvn.vn
    for i, op in enumerate(inst.operands):
        if op.is_argument or op.is_constant:
            continue
        if not vn.exists(op):
            return False
        t = vn.phi_translate(pred, curr, vn.lookup(op), gvn)
        v = gvn.find_leader(pred, t)
        if v is None:
            return False
        inst.set_operand(i, v)
    term = pred.terminator
    assert term is not None
    inst.insert_before(term)
    inst.set_name(inst.name + ".pre")
    gvn.icf.insert_instruction_to(inst, pred)
    num = vn.lookup_or_add(inst)
    vn.add(inst, num)
    gvn.leader_table.insert(num, inst, pred)
    return True


def perform_scalar_pre(gvn: GVN, cur: Instruction) -> bool:
    """LLVM ``performScalarPRE``."""
    op = cur.opcode
    if op in _NO_PRE_OPCODES or cur.is_terminator_class or cur.type.is_void:
        return False
    if cur.may_read_from_memory() or cur.may_have_side_effects():
        return False
    if op == "call":
        if cur.intrinsic_name in _DBG_INTRINSICS:  # type: ignore[attr-defined]
            return False
        if cur.is_inline_asm_call:  # type: ignore[attr-defined]
            return False
    vn = gvn.vn
    val_no = vn.lookup(cur, False)
    num_with = 0
    num_without = 0
    pre_pred: BasicBlock | None = None
    current = cur.parent
    assert current is not None
    if gvn.invalid_block_rpo_numbers:
        gvn.assign_block_rpo_number()
    rpo = gvn.block_rpo_number
    dt = gvn.dt
    pred_map: list[tuple[Value | None, BasicBlock]] = []
    for p in current.predecessors:
        if not dt.is_reachable(p):
            num_without = 2
            break
        if rpo[p] >= rpo[current]:
            num_without = 2
            break
        t = vn.phi_translate(p, current, val_no, gvn)
        pred_v = gvn.find_leader(p, t)
        if pred_v is None:
            pred_map.append((None, p))
            pre_pred = p
            num_without += 1
        elif pred_v is cur:
            num_without = 2
            break
        else:
            pred_map.append((pred_v, p))
            num_with += 1
    if num_without > 1 or num_with == 0:
        return False
    pre_instr: Instruction | None = None
    if num_without != 0:
        assert pre_pred is not None
        if not is_safe_to_speculatively_execute(cur):
            if gvn.icf.is_dominated_by_icfi_from_same_block(cur):
                return False
        term = pre_pred.terminator
        assert term is not None
        if term.opcode == "indirectbr":
            return False
        succ_num = successor_number(pre_pred, current)
        if is_critical_edge(term, succ_num):
            gvn.to_split.append((term, succ_num))
            return False
        pre_instr = cur.clone()
        if not perform_scalar_pre_insertion(gvn, pre_instr, pre_pred, current, val_no):
            pre_instr.drop_all_references()
            return False
    NUM_GVN_PRE.add()
    phi = PHINode(cur.type, name=cur.name + ".pre-phi")
    first = current.instructions._first
    if first is None:
        current.append(phi)
    else:
        phi.insert_before(first)
    for v, p in pred_map:
        if v is not None:
            patch_replacement_instruction(cur, v)
            phi.add_incoming(v, p)
        else:
            assert pre_instr is not None and pre_pred is not None
            phi.add_incoming(pre_instr, pre_pred)
    vn.add(phi, val_no)
    vn.erase_translate_cache_entry(val_no, current)
    gvn.leader_table.insert(val_no, phi, current)
    phi.debug_loc = cur.debug_loc
    cur.replace_all_uses_with(phi)
    gvn.invalidate_pointer(phi)
    vn.erase(cur)
    gvn.leader_table.erase(val_no, cur, current)
    gvn.remove_instruction(cur)
    NUM_GVN_INSTR.add()
    return True


def perform_pre(gvn: GVN) -> bool:
    """One sweep of scalar PRE, then the queued critical edges are split (LLVM ``performPRE``)."""
    changed = False
    entry = gvn.fn.entry_block
    for bb in depth_first(entry):
        if bb is entry:
            continue
        first = bb.first_non_phi
        if first is not None and first.is_eh_pad:
            continue
        inst = bb.instructions._first
        while inst is not None:
            nxt = inst._next
            changed |= perform_scalar_pre(gvn, inst)
            inst = nxt
    if gvn.split_critical_edges():
        changed = True
    return changed
