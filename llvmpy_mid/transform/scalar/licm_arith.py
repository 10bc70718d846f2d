"""LICM's reassociation of arithmetic so that an invariant part can leave the loop
(LLVM 19.1.7 ``hoistArithmetics`` and its helpers in ``lib/Transforms/Scalar/LICM.cpp``).

What: :func:`hoist_arithmetics` is asked about one instruction of the loop that plain
hoisting could not move, and tries, in LLVM's order:

- ``hoistMinMax``: ``x < a && x < b`` (logical and/or of two one-use relational integer
  compares of the same variant ``x`` against invariants, same predicate after
  canonicalisation) becomes ``x < min(a, b)``, the ``smin``/``smax``/``umin``/``umax``
  computed in the preheader (the second bound frozen when the and/or is a select);
- ``hoistGEP``: ``gep (gep p, i), c`` with ``p`` and ``c`` invariant and ``i`` variant
  (the inner gep used once) becomes ``gep (gep p, c), i`` with the inner gep in the
  preheader; ``inbounds`` is kept when both were and all indices are known non-negative;
- ``hoistAdd``/``hoistSub``: a signed compare of a one-use ``nsw`` add/sub of a variant
  and an invariant against an invariant moves the invariant to the other side
  (``x + c1 < c2`` -> ``x < c2 - c1``; ``x - c1 < c2`` -> ``x < c1 + c2``;
  ``c1 - x < c2`` -> ``x > c1 - c2``) when the new invariant operation cannot overflow;
- ``hoistMulAddAssociation``: ``(a1*b1 + a2*b2 + ...) * c`` with the ``a``'s and ``c``
  invariant (one-use adds and muls, integer or ``reassoc nsz`` floating point) becomes
  ``a1*c*b1 + a2*c*b2 + ...`` with the ``a*c`` products in the preheader, at most
  ``-licm-max-num-int-reassociations`` / ``-licm-max-num-fp-reassociations`` of them.

Each success counts in ``NumHoisted`` and its own statistic. Replaced instructions are
erased through the loop-safety info and MemorySSA updater (LICM's ``eraseInstruction``).
New instructions carry LLVM's debug locations (the insertion point's, as ``IRBuilder``) and
take over the debug records in front of the instruction they are inserted before, as LLVM's
insertion at an iterator without the head bit does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import OverflowResult
from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative
from llvmpy_mid.analysis.overflow_analysis import compute_overflow_for_signed_add, compute_overflow_for_signed_sub
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import m_logical_and, m_logical_or, m_value, match
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.transform.scalar.licm import (
    NUM_ADD_SUB_HOISTED,
    NUM_FP_ASSOCIATIONS_HOISTED,
    NUM_GEPS_HOISTED,
    NUM_HOISTED,
    NUM_INT_ASSOCIATIONS_HOISTED,
    NUM_MIN_MAX_HOISTED,
    erase_instruction,
)

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
    from llvmpy_mid.analysis.must_execute import ICFLoopSafetyInfo
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Use, Value

__all__ = [
    "hoist_arithmetics",
    "hoist_min_max",
    "hoist_gep",
    "hoist_add_sub",
    "hoist_mul_add_association",
    "is_loop_invariant",
    "adopt_dbg_records_of_next",
]

_REASSOC_NSZ = int(FastMathFlags.REASSOC | FastMathFlags.NSZ)

_P_LOGICAL_OR = m_logical_or(m_value("c1"), m_value("c2"))
_P_LOGICAL_AND = m_logical_and(m_value("c1"), m_value("c2"))


# --- shared helpers -----------------------------------------------------------------------------


def is_loop_invariant(loop: Loop, v: Value) -> bool:
    """``v`` is not an instruction of ``loop`` (LLVM ``Loop::isLoopInvariant``)."""
    if isinstance(v, Instruction):
        return not loop.contains(v)
    return True




def adopt_dbg_records_of_next(inst: Instruction) -> None:
    """LLVM's insertion before an instruction iterator without the head bit: the new
    ``inst`` takes over the debug records in front of the instruction after it."""
    nxt = inst.next_instruction
    if nxt is not None and nxt.dbg_records:
        for record in nxt.take_dbg_records():
            inst.add_dbg_record(record)


def _builder_before(inst: Instruction) -> IRBuilder:
    """``IRBuilder<> Builder(I)``: before ``inst``, with its debug location, constant folding;
    what it inserts takes over the debug records in front of its position."""
    builder = IRBuilder(before=inst, folder=ConstantFolder(), inserter=adopt_dbg_records_of_next)
    builder.debug_loc = inst.stable_debug_loc
    return builder


def _move_builder(builder: IRBuilder, inst: Instruction) -> None:
    """``Builder.SetInsertPoint(I)`` (the debug location follows the insertion point)."""
    builder.position_before(inst)
    builder.debug_loc = inst.stable_debug_loc


def _preheader_builder(loop: Loop) -> IRBuilder | None:
    preheader = loop.preheader
    term = preheader.terminator if preheader is not None else None
    if term is None:
        return None
    return _builder_before(term)


def _data_layout(inst: Instruction) -> DataLayout | None:
    module = inst.module
    return module.data_layout if module is not None else None


# --- min/max ------------------------------------------------------------------------------------


def _match_icmp_against_invariant(c: Value, loop: Loop, inverse: bool) -> tuple[Predicate, Value, Value] | None:
    """``c`` as ``icmp P x, inv`` with ``x`` variant (the predicate inverted for an or)."""
    if not isinstance(c, ICmpInst) or not c.has_one_use:
        return None
    pred = c.predicate
    lhs = c.get_operand(0)
    rhs = c.get_operand(1)
    if not lhs.type.is_integer or not pred.is_relational:
        return None
    if is_loop_invariant(loop, lhs):
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    if is_loop_invariant(loop, lhs) or not is_loop_invariant(loop, rhs):
        return None
    if inverse:
        pred = pred.inverse
    return pred, lhs, rhs


def hoist_min_max(inst: Instruction, loop: Loop, safety_info: ICFLoopSafetyInfo, mssau: MemorySSAUpdater) -> bool:
    """``x < a && x < b`` -> ``x < min(a, b)`` with the min in the preheader (``hoistMinMax``)."""
    inverse = False
    m = match(inst, _P_LOGICAL_OR)
    if m is not None:
        inverse = True
    else:
        m = match(inst, _P_LOGICAL_AND)
        if m is None:
            return False
    cond1: Value = m.c1
    cond2: Value = m.c2
    first = _match_icmp_against_invariant(cond1, loop, inverse)
    if first is None:
        return False
    second = _match_icmp_against_invariant(cond2, loop, inverse)
    if second is None:
        return False
    p1, lhs1, rhs1 = first
    p2, lhs2, rhs2 = second
    if p1 != p2 or lhs1 is not lhs2:
        return False
    use_min = p1 in (Predicate.ICMP_ULT, Predicate.ICMP_SLT, Predicate.ICMP_ULE, Predicate.ICMP_SLE)
    signed = p1.is_signed
    intrinsic = ("smin" if use_min else "smax") if signed else ("umin" if use_min else "umax")
    builder = _preheader_builder(loop)
    if builder is None:
        return False
    if isinstance(inst, SelectInst):
        rhs2 = builder.create_freeze(rhs2, rhs2.name + ".fr")
    new_rhs = builder.create_binary_intrinsic(intrinsic, rhs1, rhs2, "invariant." + intrinsic)
    _move_builder(builder, inst)
    pred = p1.inverse if inverse else p1
    new_cond = builder.create_icmp(pred, lhs1, new_rhs)
    new_cond.take_name(inst)
    inst.replace_all_uses_with(new_cond)
    erase_instruction(inst, safety_info, mssau)
    assert isinstance(cond1, Instruction) and isinstance(cond2, Instruction)
    erase_instruction(cond1, safety_info, mssau)
    erase_instruction(cond2, safety_info, mssau)
    return True


# --- gep ----------------------------------------------------------------------------------------


def hoist_gep(
    inst: Instruction,
    loop: Loop,
    safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater,
    ac: AssumptionCache | None,
    dt: DominatorTree | None,
) -> bool:
    """``gep (gep p, i), c`` -> ``gep (gep p, c), i`` with the inner gep hoisted (``hoistGEP``)."""
    if not isinstance(inst, GetElementPtrInst):
        return False
    src = inst.pointer_operand
    if not isinstance(src, GetElementPtrInst) or not src.has_one_use or not loop.contains(src):
        return False
    src_ptr = src.pointer_operand
    gep_indices = inst.indices
    if not is_loop_invariant(loop, src_ptr) or not all(is_loop_invariant(loop, i) for i in gep_indices):
        return False
    src_indices = src.indices
    if all(is_loop_invariant(loop, i) for i in src_indices):
        return False
    dl = _data_layout(inst)
    if dl is None:
        return False
    q = SimplifyQuery(dl, None, dt, ac, inst)
    in_bounds = (
        src.inbounds
        and inst.inbounds
        and all(is_known_non_negative(i, q) for i in src_indices)
        and all(is_known_non_negative(i, q) for i in gep_indices)
    )
    builder = _preheader_builder(loop)
    if builder is None:
        return False
    new_src = builder.create_gep(inst.source_element_type, src_ptr, gep_indices, "invariant.gep", inbounds=in_bounds)
    _move_builder(builder, inst)
    new_gep = builder.create_gep(src.source_element_type, new_src, src_indices, "gep", inbounds=in_bounds)
    inst.replace_all_uses_with(new_gep)
    erase_instruction(inst, safety_info, mssau)
    erase_instruction(src, safety_info, mssau)
    return True


# --- add/sub against an invariant bound ---------------------------------------------------------------


def _nsw_binop(v: Value, opcode: str) -> tuple[Value, Value] | None:
    if isinstance(v, BinaryOperator) and v.opcode == opcode and v.nsw:
        return v.get_operand(0), v.get_operand(1)
    return None


def _hoist_add(
    pred: Predicate,
    variant_lhs: Value,
    invariant_rhs: Value,
    icmp: ICmpInst,
    loop: Loop,
    safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater,
    q: SimplifyQuery,
) -> bool:
    """``x + c1 < c2`` -> ``x < c2 - c1`` (``hoistAdd``)."""
    ops = _nsw_binop(variant_lhs, "add")
    if ops is None:
        return False
    variant_op, invariant_op = ops
    if is_loop_invariant(loop, variant_op):
        variant_op, invariant_op = invariant_op, variant_op
    if is_loop_invariant(loop, variant_op) or not is_loop_invariant(loop, invariant_op):
        return False
    if compute_overflow_for_signed_sub(invariant_rhs, invariant_op, q) != OverflowResult.NEVER_OVERFLOWS:
        return False
    builder = _preheader_builder(loop)
    if builder is None:
        return False
    new_op = builder.create_sub(invariant_rhs, invariant_op, "invariant.op", nsw=True)
    icmp.predicate = pred
    icmp.set_operand(0, variant_op)
    icmp.set_operand(1, new_op)
    assert isinstance(variant_lhs, Instruction)
    erase_instruction(variant_lhs, safety_info, mssau)
    return True


def _hoist_sub(
    pred: Predicate,
    variant_lhs: Value,
    invariant_rhs: Value,
    icmp: ICmpInst,
    loop: Loop,
    safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater,
    q: SimplifyQuery,
) -> bool:
    """``x - c1 < c2`` -> ``x < c1 + c2``; ``c1 - x < c2`` -> ``x > c1 - c2`` (``hoistSub``)."""
    ops = _nsw_binop(variant_lhs, "sub")
    if ops is None:
        return False
    variant_op, invariant_op = ops
    variant_subtracted = False
    if is_loop_invariant(loop, variant_op):
        variant_op, invariant_op = invariant_op, variant_op
        variant_subtracted = True
        pred = pred.swapped
    if is_loop_invariant(loop, variant_op) or not is_loop_invariant(loop, invariant_op):
        return False
    if variant_subtracted:
        if compute_overflow_for_signed_sub(invariant_op, invariant_rhs, q) != OverflowResult.NEVER_OVERFLOWS:
            return False
    elif compute_overflow_for_signed_add(invariant_op, invariant_rhs, q) != OverflowResult.NEVER_OVERFLOWS:
        return False
    builder = _preheader_builder(loop)
    if builder is None:
        return False
    if variant_subtracted:
        new_op = builder.create_sub(invariant_op, invariant_rhs, "invariant.op", nsw=True)
    else:
        new_op = builder.create_add(invariant_op, invariant_rhs, "invariant.op", nsw=True)
    icmp.predicate = pred
    icmp.set_operand(0, variant_op)
    icmp.set_operand(1, new_op)
    assert isinstance(variant_lhs, Instruction)
    erase_instruction(variant_lhs, safety_info, mssau)
    return True


def hoist_add_sub(
    inst: Instruction,
    loop: Loop,
    safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater,
    ac: AssumptionCache | None,
    dt: DominatorTree | None,
) -> bool:
    """A signed compare of ``variant +/- invariant`` against an invariant, with the invariant
    arithmetic moved to the preheader (``hoistAddSub``)."""
    if not isinstance(inst, ICmpInst):
        return False
    pred = inst.predicate
    if not pred.is_signed:
        return False
    lhs = inst.get_operand(0)
    rhs = inst.get_operand(1)
    if is_loop_invariant(loop, lhs):
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    if is_loop_invariant(loop, lhs) or not is_loop_invariant(loop, rhs) or not lhs.has_one_use:
        return False
    dl = _data_layout(inst)
    if dl is None:
        return False
    q = SimplifyQuery(dl, None, dt, ac, inst)
    if _hoist_add(pred, lhs, rhs, inst, loop, safety_info, mssau, q):
        return True
    return _hoist_sub(pred, lhs, rhs, inst, loop, safety_info, mssau, q)


# --- (a1*b1 + a2*b2 + ...) * c --------------------------------------------------------------------------


def _is_reassociable_op(inst: Instruction, int_opcode: str, fp_opcode: str) -> bool:
    opcode = inst.opcode
    if opcode == int_opcode:
        return True
    if opcode == fp_opcode:
        assert isinstance(inst, BinaryOperator)
        return (int(inst.fast_math_flags) & _REASSOC_NSZ) == _REASSOC_NSZ
    return False


def hoist_mul_add_association(
    inst: Instruction,
    loop: Loop,
    safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater,
) -> bool:
    """``(a1*b1 + a2*b2 + ...) * c`` -> ``(a1*c)*b1 + (a2*c)*b2 + ...`` with the ``a*c``
    products in the preheader (``hoistMulAddAssociation``)."""
    if not _is_reassociable_op(inst, "mul", "fmul"):
        return False
    variant_op = inst.get_operand(0)
    invariant_op = inst.get_operand(1)
    if is_loop_invariant(loop, variant_op):
        variant_op, invariant_op = invariant_op, variant_op
    if is_loop_invariant(loop, variant_op) or not is_loop_invariant(loop, invariant_op):
        return False
    factor = invariant_op
    is_int = inst.type.scalar_type.is_integer
    limit = int(OPTIONS.value("licm-max-num-int-reassociations" if is_int else "licm-max-num-fp-reassociations"))

    changes: list[Use] = []
    adds: list[BinaryOperator] = []
    worklist: list[BinaryOperator] = []
    if isinstance(variant_op, BinaryOperator):
        worklist.append(variant_op)
    while worklist:
        bo = worklist.pop()
        if not bo.has_one_use:
            return False
        if _is_reassociable_op(bo, "add", "fadd"):
            op0 = bo.get_operand(0)
            op1 = bo.get_operand(1)
            if isinstance(op0, BinaryOperator) and isinstance(op1, BinaryOperator):
                worklist.append(op0)
                worklist.append(op1)
                adds.append(bo)
                continue
        if not _is_reassociable_op(bo, "mul", "fmul") or is_loop_invariant(loop, bo):
            return False
        u0 = bo.get_operand_use(0)
        u1 = bo.get_operand_use(1)
        if is_loop_invariant(loop, u0.value):
            changes.append(u0)
        elif is_loop_invariant(loop, u1.value):
            changes.append(u1)
        else:
            return False
        if len(changes) > limit:
            return False
    if not changes:
        return False

    builder = _preheader_builder(loop)
    if builder is None:
        return False
    if is_int:
        for add in adds:
            add.drop_poison_generating_flags()
    for use in changes:
        ins = use.user
        assert isinstance(ins, BinaryOperator)
        mul: Value
        if is_int:
            mul = builder.create_mul(use.value, factor, "factor.op.mul")
            ins.drop_poison_generating_flags()
        else:
            mul = builder.create_bin_op("fmul", use.value, factor, "factor.op.fmul")
            if isinstance(mul, BinaryOperator) and mul.parent is builder.block:
                mul.fast_math_flags = ins.fast_math_flags
        idx = use.index
        lhs = mul if idx == 0 else ins.get_operand(0)
        rhs = mul if idx == 1 else ins.get_operand(1)
        new_bo = BinaryOperator.create(ins.opcode, lhs, rhs, name=ins.name + ".reass")
        new_bo.insert_before(ins)
        adopt_dbg_records_of_next(new_bo)
        if ins.is_fp_op:
            new_bo.fast_math_flags = ins.fast_math_flags
        if variant_op is ins:
            variant_op = new_bo
        ins.replace_all_uses_with(new_bo)
        erase_instruction(ins, safety_info, mssau)

    inst.replace_all_uses_with(variant_op)
    erase_instruction(inst, safety_info, mssau)
    return True


# --- the driver -------------------------------------------------------------------------------------------


def hoist_arithmetics(
    inst: Instruction,
    loop: Loop,
    safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater,
    ac: AssumptionCache | None,
    dt: DominatorTree | None,
) -> bool:
    """Reassociate ``inst`` so that an invariant part of it is computed in the preheader
    (LLVM ``hoistArithmetics``); True when the loop changed."""
    if hoist_min_max(inst, loop, safety_info, mssau):
        NUM_HOISTED.add()
        NUM_MIN_MAX_HOISTED.add()
        return True
    if hoist_gep(inst, loop, safety_info, mssau, ac, dt):
        NUM_HOISTED.add()
        NUM_GEPS_HOISTED.add()
        return True
    if hoist_add_sub(inst, loop, safety_info, mssau, ac, dt):
        NUM_HOISTED.add()
        NUM_ADD_SUB_HOISTED.add()
        return True
    is_int = inst.type.scalar_type.is_integer
    if hoist_mul_add_association(inst, loop, safety_info, mssau):
        NUM_HOISTED.add()
        if is_int:
            NUM_INT_ASSOCIATIONS_HOISTED.add()
        else:
            NUM_FP_ASSOCIATIONS_HOISTED.add()
        return True
    return False
