"""SROA's speculation of loads through phis and selects of alloca pointers (part of
LLVM 19.1.7 lib/Transforms/Scalar/SROA.cpp: ``foldSelectInst``,
``foldPHINodeOrSelectInst``, ``isSafePHIToSpeculate``, ``speculatePHINodeLoads``,
``SelectHandSpeculativity``, ``isSafeLoadOfSelectToSpeculate``,
``SROA::isSafeSelectToSpeculate``, ``speculateSelectInstLoads``,
``rewriteMemOpOfSelect`` and ``rewriteSelectInstMemOps``).

What: a partition of an alloca whose only obstacles to promotion are phis or selects
of pointers into it gets those removed. A phi whose users are all simple loads of one
type in its own block (nothing writing memory in between) becomes a phi of loads
placed at the end of each predecessor (``<phi>.sroa.speculate.load.<pred>``), when
every such load is safe there (an edge that is not critical, or a pointer that is
safe to load unconditionally). A load of ``select c, p, q`` becomes a select of the
two loads when both may be executed unconditionally; with ``sroa<modify-cfg>`` a load
whose hands are not both safe, and a store through the select, are predicated
instead: the block is split (``<head>.then`` / ``<head>.else`` / ``<head>.cont``) and
each hand's access is placed on its own path (a hand safe to load is loaded in the
head), the loaded values meeting in a phi.

How: the safety checks use ``is_safe_to_load_unconditionally`` (analysis/loads.py);
the CFG is split with ``split_block_and_insert_if_then(_else)`` and the dominator tree
kept through the caller's DomTreeUpdater. New instructions take the debug location
of the instruction they are placed before, as SROA's IRBuilder does.

What it does not do: nothing of the LLVM functions is left out; the LLVM_DEBUG
traces are not reproduced.
"""

from __future__ import annotations

from typing import Union

from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.analysis.loads import is_safe_to_load_unconditionally, is_safe_to_load_unconditionally_for_type
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.casts import BitCastInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.instcombine.common import drop_ub_implying_attrs_and_metadata
from llvmpy_mid.transform.scalar.sroa_value_conversion import SROABuilder, adopt_dbg_records
from llvmpy_mid.transform.utils.basic_block_utils import (
    DomTreeUpdaterLike,
    split_block_and_insert_if_then,
    split_block_and_insert_if_then_else,
)

__all__ = [
    "NUM_LOADS_PREDICATED",
    "NUM_LOADS_SPECULATED",
    "NUM_STORES_PREDICATED",
    "RewriteableMemOp",
    "RewriteableMemOps",
    "SelectHandSpeculativity",
    "fold_phi_node_or_select_inst",
    "fold_select_inst",
    "is_safe_load_of_select_to_speculate",
    "is_safe_phi_to_speculate",
    "is_safe_select_to_speculate",
    "rewrite_mem_op_of_select",
    "rewrite_select_inst_mem_ops",
    "speculate_phi_node_loads",
    "speculate_select_inst_loads",
]

NUM_LOADS_SPECULATED = Statistic("sroa", "NumLoadsSpeculated", "Number of loads speculated to allow promotion")
NUM_LOADS_PREDICATED = Statistic(
    "sroa", "NumLoadsPredicated", "Number of loads rewritten into predicated loads to allow promotion"
)
NUM_STORES_PREDICATED = Statistic(
    "sroa", "NumStoresPredicated", "Number of stores rewritten into predicated loads to allow promotion"
)


# --- folding -----------------------------------------------------------------------------------


def fold_select_inst(si: SelectInst) -> Value | None:
    """The value a select always gives: the chosen hand of a constant condition, or the
    common hand (LLVM ``foldSelectInst``)."""
    cond = si.get_operand(0)
    if isinstance(cond, ConstantInt):
        return si.get_operand(2 if cond.is_zero else 1)
    tv = si.get_operand(1)
    if tv is si.get_operand(2):
        return tv
    return None


def fold_phi_node_or_select_inst(inst: Instruction) -> Value | None:
    """A phi's single merged value, or :func:`fold_select_inst` (LLVM ``foldPHINodeOrSelectInst``)."""
    if isinstance(inst, PHINode):
        return inst.has_constant_value()
    assert isinstance(inst, SelectInst)
    return fold_select_inst(inst)


# --- helpers -------------------------------------------------------------------------------------


def _data_layout(inst: Instruction) -> DataLayout:
    fn = inst.function
    module = fn.parent if fn is not None else None
    if module is None:
        return DataLayout()
    return module.data_layout


def _builder_before(inst: Instruction) -> SROABuilder:
    """SROA's builder at ``inst`` carrying its debug location (LLVM ``SetInsertPoint(I)``):
    the first new instruction takes over the debug records in front of ``inst``."""
    irb = SROABuilder()
    irb.position_before(inst)
    irb.debug_loc = inst.debug_loc
    return irb


def _first_user(v: Value) -> Instruction:
    """LLVM ``user_back()``: the user of the most recently added use."""
    head = v._use_head
    assert head is not None
    user = head.user
    assert isinstance(user, Instruction)
    return user


# --- phis ----------------------------------------------------------------------------------------


def is_safe_phi_to_speculate(pn: PHINode) -> bool:
    """Every user of ``pn`` is a simple load of one type in ``pn``'s block with nothing
    that may write memory between the phi and it, and a load of each incoming pointer
    may be placed at the end of its predecessor (LLVM ``isSafePHIToSpeculate``)."""
    bb = pn.parent
    if bb is None:
        return False
    dl = _data_layout(pn)
    max_align = 1
    load_type = None
    for user in pn.users:
        if not isinstance(user, LoadInst) or not user.is_simple:
            return False
        if user.parent is not bb:
            return False
        if load_type is None:
            load_type = user.type
        elif load_type is not user.type:
            return False
        inst: Instruction | None = pn
        while inst is not None and inst is not user:
            if inst.may_write_to_memory():
                return False
            inst = inst._next
        if inst is None:
            return False
        max_align = max(max_align, user.alignment)
    if load_type is None:
        return False
    if dl.is_scalable(load_type):
        return False
    ap_width = dl.index_type_size_in_bits(pn.type)
    load_size = dl.type_store_size(load_type) & ((1 << ap_width) - 1)
    for i in range(pn.num_incoming):
        pred = pn.get_incoming_block(i)
        ti = pred.terminator
        if ti is None:
            return False
        in_val = pn.get_incoming_value(i)
        if ti is in_val or ti.may_have_side_effects():
            return False
        if ti.num_successors == 1:
            continue
        if is_safe_to_load_unconditionally(in_val, max_align, load_size, dl, ti, size_width=ap_width):
            continue
        return False
    return True


def speculate_phi_node_loads(pn: PHINode) -> None:
    """Replace the loads of ``pn`` by a phi of loads in the predecessors (LLVM
    ``speculatePHINodeLoads``); ``pn`` is erased."""
    some_load = _first_user(pn)
    assert isinstance(some_load, LoadInst)
    load_ty = some_load.type
    irb = _builder_before(pn)
    new_pn = irb.phi(load_ty, pn.name + ".sroa.speculated")
    aa_tags = AAMDNodes.of(some_load)
    alignment = some_load.alignment
    while pn._use_head is not None:
        li = _first_user(pn)
        li.replace_all_uses_with(new_pn)
        li.erase_from_parent()
    injected: dict[BasicBlock, Value] = {}
    for i in range(pn.num_incoming):
        pred = pn.get_incoming_block(i)
        in_val = pn.get_incoming_value(i)
        done = injected.get(pred)
        if done is not None:
            new_pn.add_incoming(done, pred)
            continue
        ti = pred.terminator
        assert ti is not None
        irb = _builder_before(ti)
        load = irb.load(load_ty, in_val, pn.name + ".sroa.speculate.load." + pred.name, alignment=alignment)
        NUM_LOADS_SPECULATED.add()
        if aa_tags:
            set_aa_metadata(load, aa_tags)
        new_pn.add_incoming(load, pred)
        injected[pred] = load
    pn.erase_from_parent()


# --- selects -------------------------------------------------------------------------------------


class SelectHandSpeculativity:
    """Which hands of a select may be loaded unconditionally (LLVM ``SelectHandSpeculativity``)."""

    __slots__ = ("true_val", "false_val")

    def __init__(self, true_val: bool = False, false_val: bool = False) -> None:
        self.true_val = true_val
        self.false_val = false_val

    def set_as_speculatable(self, is_true_val: bool) -> SelectHandSpeculativity:
        if is_true_val:
            self.true_val = True
        else:
            self.false_val = True
        return self

    def is_speculatable(self, is_true_val: bool) -> bool:
        return self.true_val if is_true_val else self.false_val

    def are_all_speculatable(self) -> bool:
        return self.true_val and self.false_val

    def are_any_speculatable(self) -> bool:
        return self.true_val or self.false_val

    def are_none_speculatable(self) -> bool:
        return not (self.true_val or self.false_val)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SelectHandSpeculativity)
            and self.true_val == other.true_val
            and self.false_val == other.false_val
        )

    def __hash__(self) -> int:
        return hash((self.true_val, self.false_val))

    def __repr__(self) -> str:
        return "SelectHandSpeculativity(true_val=%s, false_val=%s)" % (self.true_val, self.false_val)


RewriteableMemOp = Union[StoreInst, tuple[LoadInst, SelectHandSpeculativity]]
"""LLVM's ``RewriteableMemOp``: an unspeculatable store, or a load with the hands it may
speculate (a non-simple load has none)."""

RewriteableMemOps = list[RewriteableMemOp]


def is_safe_load_of_select_to_speculate(li: LoadInst, si: SelectInst, preserve_cfg: bool) -> SelectHandSpeculativity:
    """Which hands of ``si`` the simple load ``li`` may load unconditionally; with
    ``preserve_cfg`` the check stops at the first hand that may not (LLVM
    ``isSafeLoadOfSelectToSpeculate``)."""
    spec = SelectHandSpeculativity()
    dl = _data_layout(si)
    tv = si.get_operand(1)
    for value in (tv, si.get_operand(2)):
        if is_safe_to_load_unconditionally_for_type(value, li.type, li.alignment, dl, li):
            spec.set_as_speculatable(value is tv)
        elif preserve_cfg:
            return spec
    return spec


def is_safe_select_to_speculate(si: SelectInst, preserve_cfg: bool) -> RewriteableMemOps | None:
    """The loads and stores through ``si`` (looking through a single-use bitcast) that
    can be rewritten, or None when one cannot (LLVM ``SROA::isSafeSelectToSpeculate``):
    with ``preserve_cfg`` only simple loads whose two hands are safe to load."""
    ops: RewriteableMemOps = []
    for user in si.users:
        u: object = user
        if isinstance(u, BitCastInst) and u.has_one_use:
            u = _first_user(u)
        if isinstance(u, StoreInst):
            if u.is_volatile or preserve_cfg:
                return None
            ops.append(u)
            continue
        if not isinstance(u, LoadInst) or u.is_volatile:
            return None
        if not u.is_simple:
            if preserve_cfg:
                return None
            ops.append((u, SelectHandSpeculativity()))
            continue
        spec = is_safe_load_of_select_to_speculate(u, si, preserve_cfg)
        if preserve_cfg and not spec.are_all_speculatable():
            return None
        ops.append((u, spec))
    return ops


def speculate_select_inst_loads(si: SelectInst, li: LoadInst) -> None:
    """``load (select c, p, q)`` -> ``select c, (load p), (load q)`` (LLVM
    ``speculateSelectInstLoads``); ``li``'s users move to the new select."""
    assert li.is_simple, "only simple loads are speculated"
    tv = si.get_operand(1)
    fv = si.get_operand(2)
    irb = _builder_before(li)
    align = li.alignment
    tl = irb.load(li.type, tv, li.name + ".sroa.speculate.load.true", alignment=align)
    fl = irb.load(li.type, fv, li.name + ".sroa.speculate.load.false", alignment=align)
    NUM_LOADS_SPECULATED.add(2)
    tags = AAMDNodes.of(li)
    if tags:
        set_aa_metadata(tl, tags)
        set_aa_metadata(fl, tags)
    v = irb.create_select(si.get_operand(0), tl, fl, li.name + ".sroa.speculated")
    li.replace_all_uses_with(v)


def rewrite_mem_op_of_select(
    si: SelectInst, inst: LoadInst | StoreInst, spec: SelectHandSpeculativity, dtu: DomTreeUpdaterLike | None
) -> None:
    """Predicate ``inst`` (a load or store through ``si``) on ``si``'s condition: split its
    block and give each hand its own access, a speculatable hand's load staying in the
    head; the loaded values meet in a phi (LLVM ``rewriteMemOpOfSelect``)."""
    is_load = isinstance(inst, LoadInst)
    head = inst.parent
    assert head is not None
    cond = si.get_operand(0)
    prof = si.get_metadata("prof")
    if spec.are_none_speculatable():
        split_block_and_insert_if_then_else(cond, inst, True, True, prof, dtu)
    else:
        split_block_and_insert_if_then(cond, inst, False, prof, dtu)
        if spec.is_speculatable(True):
            head_term = head.terminator
            assert isinstance(head_term, BranchInst)
            head_term.swap_successors()
    head_bi = head.terminator
    assert isinstance(head_bi, BranchInst)
    tail = inst.parent
    assert tail is not None
    tail.set_name(head.name + ".cont")
    pn: PHINode | None = None
    if is_load:
        pn = PHINode(inst.type)
        pn.insert_before(inst)
    ptr_index = 0 if is_load else 1
    for succ in head_bi.successors:
        is_then = succ is head_bi.get_successor(0)
        succ_idx = 0 if is_then else 1
        new_bb = head if succ is tail else succ
        cond_op = inst.clone()
        if new_bb is not head:
            new_bb.set_name(head.name + (".then" if is_then else ".else"))
            if is_load:
                NUM_LOADS_PREDICATED.add()
            else:
                NUM_STORES_PREDICATED.add()
        else:
            drop_ub_implying_attrs_and_metadata(cond_op)
            NUM_LOADS_SPECULATED.add()
        term = new_bb.terminator
        assert term is not None
        cond_op.insert_before(term)
        adopt_dbg_records(cond_op, term)
        cond_op.set_operand(ptr_index, si.get_operand(1 + succ_idx))
        if pn is not None:
            cond_op.set_name(inst.name + (".then" if is_then else ".else") + ".val")
            pn.add_incoming(cond_op, new_bb)
    if pn is not None:
        pn.take_name(inst)
        inst.replace_all_uses_with(pn)


def rewrite_select_inst_mem_ops(si: SelectInst, ops: RewriteableMemOps, dtu: DomTreeUpdaterLike | None) -> bool:
    """Rewrite each memory operation through ``si`` (speculated or predicated), then
    erase them, the bitcasts of ``si`` and ``si`` (LLVM ``rewriteSelectInstMemOps``).
    ``dtu`` is None when the CFG must be preserved. True when the CFG changed."""
    cfg_changed = False
    for op in ops:
        inst: LoadInst | StoreInst
        if isinstance(op, tuple):
            inst, spec = op
        else:
            inst, spec = op, SelectHandSpeculativity()
        if spec.are_all_speculatable():
            assert isinstance(inst, LoadInst)
            speculate_select_inst_loads(si, inst)
        else:
            rewrite_mem_op_of_select(si, inst, spec, dtu)
            cfg_changed = True
        inst.erase_from_parent()
    for user in list(si.users):
        assert isinstance(user, Instruction)
        user.erase_from_parent()
    si.erase_from_parent()
    return cfg_changed
