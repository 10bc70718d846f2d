"""Small helpers the SimplifyCFG families share (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``IncomingValuesAreCompatible``,
``SafeToMergeTerminators``, ``AddPredecessorToBlock``, ``GetConstantInt``,
``EraseTerminatorAndDCECond``, ``GetBranchWeights``,
``CloneInstructionsIntoPredecessorBlockAndUpdateSSAUses``, ``createLogicalOp``,
``extractPredSuccWeights``, ``EphemeralValueTracker``).

What: each helper does what the LLVM static function of the same name does; the
families (``simplify_cfg_*.py``) import them from here rather than each keeping
its own copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantInt, ConstantPointerNull
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, IndirectBrInst, SwitchInst
from llvmpy_mid.ir.prof_data_utils import extract_branch_weights
from llvmpy_mid.ir.types import PointerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions

if TYPE_CHECKING:
    from llvmpy_mid.ir.debug_records import DbgVariableRecord


def incoming_values_are_compatible(
    bb: BasicBlock, incoming: tuple[BasicBlock, BasicBlock], equivalent: set[Value] | None = None
) -> bool:
    """Every phi of ``bb`` receives the same value from both blocks (or two values of
    ``equivalent``) (LLVM ``IncomingValuesAreCompatible``)."""
    a, b = incoming
    for phi in bb.phis():
        v0 = phi.incoming_value_for_block(a)
        v1 = phi.incoming_value_for_block(b)
        if v0 is v1:
            continue
        if equivalent is not None and v0 in equivalent and v1 in equivalent:
            continue
        return False
    return True


def safe_to_merge_terminators(si1: Instruction, si2: Instruction, fail_blocks: list[BasicBlock] | None = None) -> bool:
    """The two terminators' blocks can be merged: no common successor has phis that
    disagree about them (LLVM ``SafeToMergeTerminators``; ``fail_blocks`` collects every
    such successor, without repeats, in successor order)."""
    if si1 is si2:
        return False
    bb1 = si1.parent
    bb2 = si2.parent
    assert bb1 is not None and bb2 is not None
    succs1 = set(bb1.successors)
    fail = False
    for succ in bb2.successors:
        if succ not in succs1:
            continue
        if incoming_values_are_compatible(succ, (bb1, bb2)):
            continue
        fail = True
        if fail_blocks is None:
            break
        if succ not in fail_blocks:
            fail_blocks.append(succ)
    return not fail


def add_predecessor_to_block(succ: BasicBlock, new_pred: BasicBlock, exist_pred: BasicBlock) -> None:
    """Give every phi of ``succ`` an entry for ``new_pred`` with the value it has for
    ``exist_pred`` (LLVM ``AddPredecessorToBlock``)."""
    for phi in list(succ.phis()):
        phi.add_incoming(phi.incoming_value_for_block(exist_pred), new_pred)


def get_constant_int(v: Value, dl: DataLayout) -> ConstantInt | None:
    """``v`` as an integer constant: an integer constant itself, or a pointer constant
    (null, ``inttoptr`` of an integer) as a pointer-sized integer (LLVM ``GetConstantInt``)."""
    if isinstance(v, ConstantInt):
        return v
    ty = v.type
    if not isinstance(ty, PointerType) or dl.is_non_integral_pointer_type(ty):
        return None
    int_ty = dl.int_ptr_type_for(ty.context, ty.address_space)
    if isinstance(v, ConstantPointerNull):
        return ConstantInt.get(int_ty, 0)
    if isinstance(v, ConstantExpr) and v.opcode == "inttoptr":
        op = v.operands[0]
        if isinstance(op, ConstantInt):
            if op.type is int_ty:
                return op
            width = int_ty.width
            return ConstantInt.get(int_ty, op.value & ((1 << width) - 1))
    return None


def erase_terminator_and_dce_cond(ti: Instruction) -> None:
    """Erase a terminator and then its condition (or address) if that became dead
    (LLVM ``EraseTerminatorAndDCECond``)."""
    cond: Value | None = None
    if isinstance(ti, SwitchInst):
        cond = ti.condition
    elif isinstance(ti, BranchInst):
        if ti.is_conditional:
            cond = ti.condition
    elif isinstance(ti, IndirectBrInst):
        cond = ti.address
    ti.erase_from_parent()
    if cond is not None and isinstance(cond, Instruction):
        recursively_delete_trivially_dead_instructions(cond)


def get_branch_weights(ti: Instruction) -> list[int]:
    """The weights of a switch or of a conditional branch on an equality compare, the
    default destination's first (LLVM ``GetBranchWeights``; the caller has checked that
    ``!prof`` weights exist)."""
    weights = extract_branch_weights(ti)
    assert weights is not None, "Invalid branch-weight metadata"
    if isinstance(ti, BranchInst):
        assert len(weights) == 2
        cond = ti.condition
        if isinstance(cond, ICmpInst) and cond.predicate is Predicate.ICMP_EQ:
            weights = [weights[1], weights[0]]
    return weights



def clone_instructions_into_predecessor_block_and_update_ssa_uses(
    bb: BasicBlock, pred_block: BasicBlock, vmap: dict[Value, Value]
) -> None:
    """Copy every non-terminator of ``bb`` (the bonus instructions) before
    ``pred_block``'s terminator: operands go through ``vmap`` (which learns each copy),
    a location other than the terminator's is dropped, metadata and attributes that
    could imply undefined behaviour are dropped, the copy takes the name and the
    original becomes ``<name>.old``, and phi uses on the edge from ``pred_block`` move
    to the copy (LLVM ``CloneInstructionsIntoPredecessorBlockAndUpdateSSAUses``, ``createLogicalOp``,
``extractPredSuccWeights``, ``EphemeralValueTracker``)."""
    from llvmpy_mid.transform.instcombine.common import drop_ub_implying_attrs_and_metadata

    pti = pred_block.terminator
    assert pti is not None
    pti_loc = pti.debug_loc
    get = vmap.get
    for bonus in list(bb.instructions):
        if bonus.is_terminator:
            continue
        copy = bonus.clone()
        is_dbg = is_dbg_info_intrinsic(bonus)
        if not is_dbg and copy.debug_loc is not pti_loc:
            copy.debug_loc = None
        for use in copy.operand_uses:
            new = get(use.value)
            if new is not None and new is not use.value:
                use.set(new)
        drop_ub_implying_attrs_and_metadata(copy)
        copy.insert_before(pti)
        # Inserted before ``pti`` (no head bit): ``pti``'s debug records now precede the copy.
        for record in pti.take_dbg_records():
            copy.add_dbg_record(record)
        clone_debug_records_remapped(bonus, copy, vmap)
        if is_dbg:
            continue
        name = bonus.name
        if name:
            bonus.name = ""
            copy.name = name
        bonus.name = copy.name + ".old"
        vmap[bonus] = copy
        for use in list(bonus.uses):
            user = use.user
            if not isinstance(user, PHINode):
                continue
            if user.get_incoming_block_for_use(use) is bb:
                continue
            use.set(copy)


def is_dbg_info_intrinsic(inst: Instruction) -> bool:
    """A call of an ``llvm.dbg.*`` intrinsic (LLVM ``DbgInfoIntrinsic``)."""
    if inst.opcode != "call":
        return False
    fn = inst.called_function  # type: ignore[attr-defined]
    return fn is not None and str(fn.name).startswith("llvm.dbg.")



def create_logical_op(builder: IRBuilder, opcode: str, lhs: Value, rhs: Value, name: str = "") -> Value:
    """``lhs and/or rhs``: the plain ``and``/``or`` when poison in ``lhs`` already
    implies poison in ``rhs``, else the ``select`` form (LLVM ``createLogicalOp``)."""
    from llvmpy_mid.analysis.poison_tracking import implies_poison

    if implies_poison(rhs, lhs):
        return builder.create_bin_op(opcode, lhs, rhs, name)
    return builder.create_logical_op(opcode, lhs, rhs, name)


def extract_pred_succ_weights(pbi: BranchInst, bi: BranchInst) -> tuple[int, int, int, int] | None:
    """The two-way weights of ``pbi`` and ``bi`` (true, false of ``pbi``, then of
    ``bi``) when either has them, 1:1 standing in for the one without; None when
    neither has weights (LLVM ``extractPredSuccWeights``)."""
    pw = _two_weights(pbi)
    sw = _two_weights(bi)
    if pw is None and sw is None:
        return None
    if pw is None:
        pw = (1, 1)
    if sw is None:
        sw = (1, 1)
    return (pw[0], pw[1], sw[0], sw[1])


def _two_weights(inst: Instruction) -> tuple[int, int] | None:
    """LLVM ``extractBranchWeights(I, True, False)`` on a branch or select."""
    weights = extract_branch_weights(inst)
    if weights is None or len(weights) != 2:
        return None
    return (weights[0], weights[1])


class EphemeralValueTracker:
    """Instructions met walking a block backwards that only feed assumptions
    (assumes themselves, and side-effect-free values all of whose users are
    ephemeral) (LLVM SimplifyCFG's ``EphemeralValueTracker``)."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: set[Instruction] = set()

    def _is_ephemeral(self, inst: Instruction) -> bool:
        if inst.opcode == "call" and inst.intrinsic_name == "llvm.assume":  # type: ignore[attr-defined]
            return True
        if inst.is_terminator or inst.may_have_side_effects():
            return False
        values = self.values
        return all(u in values for u in inst.users)

    def track(self, inst: Instruction) -> bool:
        """Record ``inst`` if it is ephemeral; True if it is."""
        if self._is_ephemeral(inst):
            self.values.add(inst)
            return True
        return False

    def contains(self, inst: Instruction) -> bool:
        return inst in self.values



def is_safe_to_speculatively_execute_here(inst: Instruction, dl: DataLayout) -> bool:
    """LLVM ``isSafeToSpeculativelyExecute(I)`` with no context instruction: a load is
    safe when it is unordered, its function is not sanitized and its pointer is known
    dereferenceable and aligned; everything else as ``poison_tracking`` decides."""
    from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute
    from llvmpy_mid.ir.instructions.memory import LoadInst

    if isinstance(inst, LoadInst):
        if not inst.is_unordered:
            return False
        fn = inst.function
        if fn is not None and any(
            fn.has_fn_attribute(a)
            for a in ("sanitize_memory", "sanitize_address", "sanitize_thread", "sanitize_hwaddress")
        ):
            return False
        from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer_for_type

        align = inst.alignment or dl.abi_alignment(inst.type)
        return is_dereferenceable_and_aligned_pointer_for_type(inst.pointer_operand, inst.type, align, dl)
    return is_safe_to_speculatively_execute(inst)



BRANCH_PROBABILITY_ONE = 1 << 31
"""The denominator of LLVM's ``BranchProbability``."""


def branch_probability(numerator: int, denominator: int) -> int:
    """LLVM ``BranchProbability::getBranchProbability(N, D)`` as its numerator over
    :data:`BRANCH_PROBABILITY_ONE` (a denominator past 32 bits is first halved,
    with the numerator, until it fits; then rounded to nearest)."""
    scale = 0
    while denominator > 0xFFFFFFFF:
        denominator >>= 1
        scale += 1
    numerator >>= scale
    if denominator == BRANCH_PROBABILITY_ONE:
        return numerator
    return (numerator * BRANCH_PROBABILITY_ONE + denominator // 2) // denominator


def clone_debug_records_remapped(src: Instruction, dst: Instruction, vmap: dict[Value, Value]) -> None:
    """Copy ``src``'s debug records onto ``dst`` (after its own), their locations
    mapped through ``vmap`` (LLVM ``cloneDebugInfoFrom`` + ``RemapDbgRecord``)."""
    get = vmap.get
    for record in src.iter_dbg_records():
        rec = record.clone()
        dst.add_dbg_record(rec)
        if not rec.is_variable_record:
            continue
        var = cast("DbgVariableRecord", rec)
        for k, old in enumerate(var.location_values()):
            new = get(old)
            if new is not None and new is not old:
                var.replace_variable_location_op(k, new)
        addr = var.address_value
        if addr is not None:
            new = get(addr)
            if new is not None and new is not addr:
                var.set_address_value(new)


__all__ = [
    "clone_debug_records_remapped",
    "BRANCH_PROBABILITY_ONE",
    "EphemeralValueTracker",
    "create_logical_op",
    "extract_pred_succ_weights",
    "add_predecessor_to_block",
    "branch_probability",
    "clone_instructions_into_predecessor_block_and_update_ssa_uses",
    "erase_terminator_and_dce_cond",
    "get_branch_weights",
    "get_constant_int",
    "incoming_values_are_compatible",
    "is_dbg_info_intrinsic",
    "is_safe_to_speculatively_execute_here",
    "safe_to_merge_terminators",
]
