"""InstCombine folds of vector and aggregate operations (LLVM
``lib/Transforms/InstCombine/InstCombineVectorOps.cpp``): ``visitExtractElementInst``
(``cheapToScalarize``, ``scalarizePHI``, extracts through unops / binops / compares /
casts / GEPs / shuffles / inserts, the demanded-lanes simplification),
``visitInsertValueInst`` (redundant chain members), ``visitInsertElementInst`` (index
canonicalisation, insert-chain reordering, bitcast sinking, extract/insert chains to
shuffles via ``collectShuffleElements``, ``foldConstantInsEltIntoShuffle``,
``hoistInsEltConst``, ``foldInsSequenceIntoSplat``, ``foldInsEltIntoSplat``,
``foldInsEltIntoIdentityShuffle``) and ``visitShuffleVectorInst``.

Not yet here (each fold skipped whole): ``foldBitcastExtElt``,
``foldAggregateConstructionIntoAggregateReuse``, ``narrowInsElt``, ``foldTruncInsEltPair``,
and the shuffle folds listed in :func:`visit_shufflevector`'s docstring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.instsimplify.other import (
    simplify_extract_element_inst,
    simplify_insert_element_inst,
    simplify_insert_value_inst,
    simplify_shuffle_vector_inst,
)
from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, FCmpInst, ICmpInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
)
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.common import copy_ir_flags, fold_op_into_select
from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


# =================================================================================================
# small helpers
# =================================================================================================


def _low(n: int) -> int:
    return (1 << n) - 1


def _fixed_count(ty: Type) -> int | None:
    """The lane count of a fixed vector type, None otherwise."""
    if isinstance(ty, VectorType) and not ty.scalable:
        return ty.count
    return None


def _i64(ic: InstCombiner, v: int) -> ConstantInt:
    return ConstantInt.get(ic.builder.context.int_type(64), v)


def _is_stepvector(v: Value) -> bool:
    return isinstance(v, CallBase) and v.intrinsic_base == "llvm.experimental.stepvector"


def _clone_binop(opcode: str, a: Value, b: Value, src: Value, name: str = "") -> BinaryOperator:
    """``BinaryOperator::CreateWithCopiedFlags``."""
    bo = BinaryOperator.create(opcode, a, b, name=name)
    copy_ir_flags(bo, src)
    return bo


def _clone_unop(src: UnaryOperator, a: Value) -> UnaryOperator:
    """``UnaryOperator::CreateWithCopiedFlags``."""
    return UnaryOperator.create(src.opcode, a, fast_math_flags=src.fast_math_flags)


def _clone_cmp(src: CmpInst, a: Value, b: Value) -> CmpInst:
    """``CmpInst::CreateWithCopiedFlags``."""
    if isinstance(src, FCmpInst):
        return FCmpInst(src.predicate, a, b, fast_math_flags=src.fast_math_flags)
    return ICmpInst(src.predicate, a, b)


def _is_undef(v: Value) -> bool:
    """``m_Undef``: undef or poison, or a constant vector whose lanes all are."""
    if isinstance(v, UndefValue):
        return True
    if isinstance(v, ConstantVector):
        return all(isinstance(e, UndefValue) for e in v.operands)
    return False


def _preferred_vector_index(c: ConstantInt) -> ConstantInt | None:
    """``getPreferredVectorIndex``: the index as i64, None when already i64 or too wide."""
    w = c.type.width if isinstance(c.type, IntegerType) else 64
    if w == 64 or c.value.bit_length() > 64:
        return None
    return ConstantInt.get(c.type.context.int_type(64), c.value)


# =================================================================================================
# extractelement
# =================================================================================================


def cheap_to_scalarize(v: Value, ei: Value) -> bool:
    """``cheapToScalarize``: extracting lane ``ei`` of ``v`` costs no more than a scalar op."""
    cei = ei if isinstance(ei, ConstantInt) else None
    if isinstance(v, Constant):
        return cei is not None or get_splat_value(v) is not None
    if cei is not None and _is_stepvector(v):
        n = _fixed_count(v.type)
        vt = v.type
        assert isinstance(vt, VectorType)
        return cei.value < (n if n is not None else vt.count)
    if isinstance(v, InsertElementInst) and isinstance(v.operands[2], ConstantInt):
        return cei is not None
    if not v.has_one_use:
        return False
    if isinstance(v, (LoadInst, UnaryOperator)):
        return True
    if isinstance(v, (BinaryOperator, CmpInst)):
        return cheap_to_scalarize(v.operands[0], ei) or cheap_to_scalarize(v.operands[1], ei)
    return False


def scalarize_phi(ic: InstCombiner, ei: ExtractElementInst, pn: PHINode) -> Instruction | None:
    """extractelement (phi [V, B0], [binop(phi, W), B1]), C -> scalar phi of lane C (``scalarizePHI``)."""
    extracts: list[Instruction] = []
    phi_user: Instruction | None = None
    idx = ei.index_operand
    for u in pn.users:
        if isinstance(u, ExtractElementInst):
            if u.index_operand is idx:
                extracts.append(u)
            else:
                return None
        elif phi_user is None:
            assert isinstance(u, Instruction)
            phi_user = u
        else:
            return None
    if phi_user is None:
        return None
    if (
        not phi_user.has_one_use
        or next(iter(phi_user.users)) is not pn
        or not isinstance(phi_user, BinaryOperator)
        or not cheap_to_scalarize(phi_user, idx)
    ):
        return None
    scalar_phi = PHINode(ei.type)
    ic.insert_new_inst_with(scalar_phi, pn)
    for k in range(pn.num_incoming):
        in_val = pn.get_incoming_value(k)
        in_bb = pn.incoming_blocks[k]
        if in_val is phi_user:
            b0 = phi_user
            op_id = 1 if b0.operands[0] is pn else 0
            other = b0.operands[op_id]
            op = ic.insert_new_inst_with(ExtractElementInst(other, idx, name=other.name + ".Elt"), b0)
            new_user = ic.insert_new_inst_with(_clone_binop(b0.opcode, scalar_phi, op, b0), b0)
            scalar_phi.add_incoming(new_user, in_bb)
        else:
            new_ei = ExtractElementInst(in_val, idx)
            if isinstance(in_val, Instruction) and not isinstance(in_val, PHINode):
                nxt = in_val.next_instruction
                assert nxt is not None
                ic.insert_new_inst_with(new_ei, nxt)
            else:
                pos = in_bb.first_insertion_point
                assert pos is not None
                ic.insert_new_inst_with(new_ei, pos)
            scalar_phi.add_incoming(new_ei, in_bb)
    for e in extracts:
        ic.replace_inst_uses_with(e, scalar_phi)
        ic.add_to_worklist(e)
    return ei


def _demanded_elts_by_single_user(v: Value, user: Value, vw: int) -> int:
    """``findDemandedEltsBySingleUser``."""
    if isinstance(user, ExtractElementInst):
        c = user.index_operand
        if isinstance(c, ConstantInt) and c.value < vw:
            return 1 << c.value
        return _low(vw)
    if isinstance(user, ShuffleVectorInst):
        used = 0
        op0, op1 = user.operands[0], user.operands[1]
        for m in user.mask:
            if m < 0 or m >= 2 * vw:
                continue
            if op0 is v and m < vw:
                used |= 1 << m
            if op1 is v and vw <= m < 2 * vw:
                used |= 1 << (m - vw)
        return used
    return _low(vw)


def _demanded_elts_by_all_users(v: Value, vw: int) -> int:
    """``findDemandedEltsByAllUsers``."""
    full = _low(vw)
    used = 0
    for u in v.uses:
        user = u.user
        if isinstance(user, Instruction):
            used |= _demanded_elts_by_single_user(v, user, vw)
        else:
            return full
        if used == full:
            break
    return used


def visit_extractelement(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold an ``extractelement`` (LLVM ``visitExtractElementInst``)."""
    assert isinstance(i, ExtractElementInst)
    src_vec = i.vector_operand
    index = i.index_operand
    v = simplify_extract_element_inst(src_vec, index, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    # extractelt (select C, V1, V2), Const -> select C, V1[Const], V2[Const]
    if isinstance(src_vec, SelectInst) and isinstance(src_vec.operands[0].type, IntegerType):
        if isinstance(index, Constant):
            r = fold_op_into_select(ic, i, src_vec)
            if r is not None:
                return r
    index_c = index if isinstance(index, ConstantInt) else None
    has_known_valid_index = False
    vty = i.vector_operand_type
    if index_c is not None:
        new_idx = _preferred_vector_index(index_c)
        if new_idx is not None:
            return ic.replace_operand(i, 1, new_idx)
        n = vty.count
        has_known_valid_index = index_c.value < n
        if _is_stepvector(src_vec) and index_c.value < n:
            ety = i.type
            assert isinstance(ety, IntegerType)
            res: Value
            if index_c.value.bit_length() <= ety.width:
                res = ConstantInt.get(ety, index_c.value)
            else:
                res = PoisonValue.get(ety)
            return ic.replace_inst_uses_with(i, res)
        if not vty.scalable and index_c.value >= n:
            return None
        # foldBitcastExtElt: not yet here.
        if isinstance(src_vec, PHINode):
            r = scalarize_phi(ic, i, src_vec)
            if r is not None:
                return r
    b = ic.builder
    if isinstance(src_vec, UnaryOperator) and cheap_to_scalarize(src_vec, index):
        # extelt (unop X), Index -> unop (extelt X, Index)
        e = b.create_extract_element(src_vec.operands[0], index)
        return _clone_unop(src_vec, e)
    if (
        isinstance(src_vec, BinaryOperator)
        and cheap_to_scalarize(src_vec, index)
        and (has_known_valid_index or is_safe_to_speculatively_execute(src_vec))
    ):
        # extelt (binop X, Y), Index -> binop (extelt X, Index), (extelt Y, Index)
        e0 = b.create_extract_element(src_vec.operands[0], index)
        e1 = b.create_extract_element(src_vec.operands[1], index)
        return _clone_binop(src_vec.opcode, e0, e1, src_vec)
    if isinstance(src_vec, CmpInst) and cheap_to_scalarize(src_vec, index):
        # extelt (cmp X, Y), Index -> cmp (extelt X, Index), (extelt Y, Index)
        e0 = b.create_extract_element(src_vec.operands[0], index)
        e1 = b.create_extract_element(src_vec.operands[1], index)
        return _clone_cmp(src_vec, e0, e1)
    if isinstance(src_vec, InsertElementInst):
        if isinstance(src_vec.operands[2], Constant) and index_c is not None:
            return ic.replace_operand(i, 0, src_vec.operands[0])
    elif isinstance(src_vec, GetElementPtrInst):
        gty = src_vec.type
        assert isinstance(gty, VectorType)
        if index_c is not None and index_c.value < gty.count and src_vec.has_one_use:
            if sum(1 for op in src_vec.operands if isinstance(op.type, VectorType)) == 1:
                new_ptr = src_vec.operands[0]
                if isinstance(new_ptr.type, VectorType):
                    new_ptr = b.create_extract_element(new_ptr, index_c)
                new_ops: list[Value] = []
                for op in src_vec.operands[1:]:
                    if isinstance(op.type, VectorType):
                        new_ops.append(b.create_extract_element(op, index_c))
                    else:
                        new_ops.append(op)
                gep = GetElementPtrInst(src_vec.source_element_type, new_ptr, new_ops)
                gep.inbounds = src_vec.inbounds
                return gep
    elif isinstance(src_vec, ShuffleVectorInst):
        if not vty.scalable and isinstance(index, ConstantInt):
            src_idx = src_vec.get_mask_value(index.value)
            op0_ty = src_vec.operands[0].type
            assert isinstance(op0_ty, VectorType)
            lhs_width = op0_ty.count
            if src_idx < 0:
                return ic.replace_inst_uses_with(i, PoisonValue.get(i.type))
            if src_idx < lhs_width:
                src = src_vec.operands[0]
            else:
                src_idx -= lhs_width
                src = src_vec.operands[1]
            return ExtractElementInst(src, _i64(ic, src_idx))
    elif isinstance(src_vec, CastInst):
        # extractelement (cast X), I -> cast (extractelement X, I)
        if src_vec.has_one_use and src_vec.opcode != "bitcast":
            ee = b.create_extract_element(src_vec.operands[0], index)
            return CastInst.create(src_vec.opcode, ee, i.type)
    if index_c is not None:
        n = vty.count
        if not vty.scalable and n != 1:
            poison = [0]
            if src_vec.has_one_use:
                nv = simplify_demanded_vector_elts(ic, src_vec, 1 << index_c.value, poison)
                if nv is not None:
                    return ic.replace_operand(i, 0, nv)
            else:
                demanded = _demanded_elts_by_all_users(src_vec, n)
                if demanded != _low(n):
                    nv = simplify_demanded_vector_elts(ic, src_vec, demanded, poison, 0, True)
                    if nv is not None and nv is not src_vec:
                        ic.worklist.add_value(src_vec)
                        src_vec.replace_all_uses_with(nv)
                        return i
    return None


# =================================================================================================
# insertvalue
# =================================================================================================


def visit_insertvalue(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold an ``insertvalue`` (LLVM ``visitInsertValueInst``)."""
    assert isinstance(i, InsertValueInst)
    v = simplify_insert_value_inst(i.operands[0], i.operands[1], i.indices, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    # insertvalue X, _, idx feeding a one-use chain that overwrites idx again -> X
    first = i.indices
    cur: Value = i
    depth = 0
    redundant = False
    while cur.has_one_use and depth < 10:
        u = next(iter(cur.users))
        if not isinstance(u, InsertValueInst) or u.operands[0] is not cur:
            break
        if u.indices == first:
            redundant = True
            break
        cur = u
        depth += 1
    if redundant:
        return ic.replace_inst_uses_with(i, i.operands[0])
    # foldAggregateConstructionIntoAggregateReuse: not yet here.
    return None


# =================================================================================================
# insertelement
# =================================================================================================


def visit_insertelement(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold an ``insertelement`` (LLVM ``visitInsertElementInst``)."""
    assert isinstance(i, InsertElementInst)
    vec_op, scalar_op, idx_op = i.operands[0], i.operands[1], i.operands[2]
    v = simplify_insert_element_inst(vec_op, scalar_op, idx_op, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    b = ic.builder
    if isinstance(idx_op, ConstantInt):
        new_idx = _preferred_vector_index(idx_op)
        if new_idx is not None:
            return ic.replace_operand(i, 2, new_idx)
        # inselt (inselt BaseVec, O, Hi), S, Lo -> inselt (inselt BaseVec, S, Lo), O, Hi
        if isinstance(vec_op, InsertElementInst) and vec_op.has_one_use:
            oidx = vec_op.operands[2]
            other = vec_op.operands[1]
            if (
                isinstance(oidx, ConstantInt)
                and oidx.value.bit_length() <= 64
                and not isinstance(other, Constant)
                and oidx.value > idx_op.value
            ):
                new_ins = b.create_insert_element(vec_op.operands[0], scalar_op, idx_op)
                return InsertElementInst(new_ins, other, _i64(ic, oidx.value))
    vty = i.type
    assert isinstance(vty, VectorType)
    # inselt undef, (bitcast S), Idx -> bitcast (inselt undef, S, Idx)
    if _is_undef(vec_op) and isinstance(scalar_op, CastInst) and scalar_op.opcode == "bitcast" and scalar_op.has_one_use:
        src = scalar_op.operands[0]
        sty = src.type
        if isinstance(sty, IntegerType) or sty.is_floating_point:
            new_vty = sty.context.vector_type(sty, vty.count, vty.scalable)
            new_undef: Constant = PoisonValue.get(new_vty) if isinstance(vec_op, PoisonValue) else UndefValue.get(new_vty)
            ni = b.create_insert_element(new_undef, src, idx_op)
            return CastInst.create("bitcast", ni, vty)
    # inselt (bitcast VecSrc), (bitcast S), Idx -> bitcast (inselt VecSrc, S, Idx)
    if (
        isinstance(vec_op, CastInst)
        and vec_op.opcode == "bitcast"
        and isinstance(scalar_op, CastInst)
        and scalar_op.opcode == "bitcast"
        and (vec_op.has_one_use or scalar_op.has_one_use)
    ):
        vsrc, ssrc = vec_op.operands[0], scalar_op.operands[0]
        vsty = vsrc.type
        if isinstance(vsty, VectorType) and not isinstance(ssrc.type, VectorType) and vsty.element_type is ssrc.type:
            ni = b.create_insert_element(vsrc, ssrc, idx_op)
            return CastInst.create("bitcast", ni, vty)
    # extract/insert chains into shuffles: collectShuffleElements (later).
    nw = _fixed_count(vec_op.type)
    if nw is not None:
        poison = [0]
        nv = simplify_demanded_vector_elts(ic, i, _low(nw), poison)
        if nv is not None:
            if nv is not i:
                return ic.replace_inst_uses_with(i, nv)
            return i
    return None


# =================================================================================================
# shufflevector
# =================================================================================================


def visit_shufflevector(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``shufflevector`` (LLVM ``visitShuffleVectorInst``)."""
    assert isinstance(i, ShuffleVectorInst)
    v = simplify_shuffle_vector_inst(i.operands[0], i.operands[1], i.mask, i.type, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    return None


__all__ = [
    "cheap_to_scalarize",
    "scalarize_phi",
    "visit_insertvalue",
    "visit_insertelement",
    "visit_extractelement",
    "visit_shufflevector",
]
