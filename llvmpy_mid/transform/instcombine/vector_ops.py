"""InstCombine folds of vector and aggregate operations (LLVM
``lib/Transforms/InstCombine/InstCombineVectorOps.cpp``): ``visitExtractElementInst``
(``cheapToScalarize``, ``scalarizePHI``, ``foldBitcastExtElt``, extracts through unops /
binops / compares / casts / GEPs / shuffles / inserts, the demanded-lanes simplification),
``visitInsertValueInst`` (redundant chain members,
``foldAggregateConstructionIntoAggregateReuse``), ``visitInsertElementInst`` (index
canonicalisation, insert-chain reordering, bitcast sinking, extract/insert chains to
shuffles via ``collectShuffleElements``, ``foldConstantInsEltIntoShuffle``,
``hoistInsEltConst``, ``foldInsSequenceIntoSplat``, ``foldInsEltIntoSplat``,
``foldInsEltIntoIdentityShuffle``, ``narrowInsElt``, ``foldTruncInsEltPair``) and
``visitShuffleVectorInst`` (``simplifyBinOpSplats``, ``canonicalizeInsertSplat``,
``foldSelectShuffle``, ``foldTruncShuffle``, ``narrowVectorSelect``,
``foldShuffleOfUnaryOps``, ``foldCastShuffle``, ``foldIdentityExtractShuffle``,
``foldShuffleWithInsert``, ``foldIdentityPaddedShuffles``,
``evaluateInDifferentElementOrder``, the bitcast-of-subvector extracts, shuffle merging).
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
from llvmpy_mid.ir.type_queries import primitive_size_in_bits
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


def fold_bitcast_ext_elt(ic: InstCombiner, ext: ExtractElementInst) -> Instruction | None:
    """extelt (bitcast X), C -> trunc (lshr X, C*W) / bitcast X[C] / trunc of the inserted scalar
    (``foldBitcastExtElt``)."""
    from llvmpy_mid.analysis.instsimplify.other import find_scalar_element
    from llvmpy_mid.transform.instcombine.common import is_desirable_int_type

    vec = ext.vector_operand
    if not isinstance(vec, CastInst) or vec.opcode != "bitcast":
        return None
    ext_idx = _cint64(ext.index_operand)
    if ext_idx is None:
        return None
    x = vec.operands[0]
    vty = ext.vector_operand_type
    n = vty.count
    dest = ext.type
    dest_w = _pbits(dest)
    big = ic.dl.is_big_endian
    b = ic.builder
    xt = x.type
    if isinstance(xt, IntegerType):
        if big:
            ext_idx = n - 1 - ext_idx
        sh = ext_idx * dest_w
        if not sh or (is_desirable_int_type(ic, xt.width) and vec.has_one_use):
            xv: Value = x
            if sh:
                xv = b.create_lshr(xv, ConstantInt.get(xt, sh), "extelt.offset")
            if dest.is_floating_point:
                t = b.create_trunc(xv, dest.context.int_type(dest_w))
                return CastInst.create("bitcast", t, dest)
            return CastInst.create("trunc", xv, dest)
    if not isinstance(xt, VectorType):
        return None
    if xt.count == n and xt.scalable == vty.scalable:
        elt = find_scalar_element(x, ext_idx)
        if elt is not None:
            return CastInst.create("bitcast", elt, dest)
    if xt.count < n:
        if not isinstance(x, InsertElementInst):
            return None
        ins_idx = _cint64(x.operands[2])
        if ins_idx is None:
            return None
        v0, scalar = x.operands[0], x.operands[1]
        ratio = n // xt.count
        if ext_idx // ratio != ins_idx:
            if x.has_one_use and vec.has_one_use:
                nbc = b.create_cast("bitcast", v0, vty)
                return ExtractElementInst(nbc, ext.index_operand)
            return None
        chunk = ext_idx % ratio
        if big:
            chunk = ratio - 1 - chunk
        need_src = xt.element_type.is_floating_point
        need_dest = dest.is_floating_point
        if need_src and need_dest:
            return None
        src_w = _pbits(xt.element_type)
        sh_amt = chunk * dest_w
        if (not x.has_one_use or not vec.has_one_use) and (need_src or need_dest):
            return None
        sv: Value = scalar
        if need_src:
            sv = b.create_cast("bitcast", sv, dest.context.int_type(src_w))
        if sh_amt:
            if not vec.has_one_use:
                return None
            svt = sv.type
            assert isinstance(svt, IntegerType)
            sv = b.create_lshr(sv, ConstantInt.get(svt, sh_amt))
        if need_dest:
            t = b.create_trunc(sv, dest.context.int_type(dest_w))
            return CastInst.create("bitcast", t, dest)
        return CastInst.create("trunc", sv, dest)
    return None


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
        r = fold_bitcast_ext_elt(ic, i)
        if r is not None:
            return r
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


_NOT_FOUND = 0
_FOUND = 1
_MISMATCH = 2


def fold_aggregate_construction_into_aggregate_reuse(ic: InstCombiner, orig: InsertValueInst) -> Instruction | None:
    """insertvalue (insertvalue poison, (extractvalue A, 0), 0), (extractvalue A, 1), 1 -> A, also
    through a phi of the per-predecessor source aggregates
    (``foldAggregateConstructionIntoAggregateReuse``)."""
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instructions.vector import ExtractValueInst
    from llvmpy_mid.ir.types import ArrayType, StructType

    agg_ty = orig.type
    if isinstance(agg_ty, StructType):
        n = len(agg_ty.elements)
    elif isinstance(agg_ty, ArrayType):
        n = agg_ty.count
    else:
        return None
    if n > 2 or n == 0:
        return None
    elts: list[Instruction | None] = [None] * n
    depth = 0
    limit = 2 * n
    cur: InsertValueInst | None = orig
    while depth < limit and cur is not None and any(e is None for e in elts):
        ins_val = cur.operands[1]
        if not isinstance(ins_val, Instruction):
            return None
        idx = cur.indices
        if len(idx) != 1:
            return None
        if elts[idx[0]] is None:
            elts[idx[0]] = ins_val
        nxt = cur.operands[0]
        cur = nxt if isinstance(nxt, InsertValueInst) else None
        depth += 1
    if any(e is None for e in elts):
        return None

    def find_source(elt: Instruction, k: int, use_bb: BasicBlock | None, pred: BasicBlock | None) -> tuple[int, Value | None]:
        e: Value = elt
        if use_bb is not None and pred is not None:
            if isinstance(e, PHINode) and e.parent is use_bb:
                e = e.incoming_value_for_block(pred)
        if not isinstance(e, ExtractValueInst):
            return _NOT_FOUND, None
        src = e.operands[0]
        if src.type is not agg_ty:
            return _MISMATCH, None
        if len(e.indices) != 1 or e.indices[0] != k:
            return _MISMATCH, None
        return _FOUND, src

    def find_common(use_bb: BasicBlock | None, pred: BasicBlock | None) -> tuple[int, Value | None]:
        common: Value | None = None
        for k, elt in enumerate(elts):
            assert elt is not None
            d, src = find_source(elt, k, use_bb, pred)
            if d != _FOUND:
                return d, None
            if common is None:
                common = src
            elif src is not common:
                return _MISMATCH, None
        return _FOUND, common

    d, src = find_common(None, None)
    if d != _NOT_FOUND:
        if d == _MISMATCH:
            return None
        assert src is not None
        return ic.replace_inst_uses_with(orig, src)
    use_bb: BasicBlock | None = None
    for e in elts:
        assert e is not None
        bb = e.parent
        if use_bb is None:
            use_bb = bb
            continue
        if use_bb is not bb:
            return None
    if use_bb is None:
        return None
    preds = use_bb.predecessors
    if not preds or len(preds) > 64:
        return None
    sources: dict[int, Value] = {}
    for p in preds:
        if id(p) in sources:
            continue
        d, src = find_common(use_bb, p)
        if d != _FOUND:
            return None
        assert src is not None
        sources[id(p)] = src
    b = ic.builder
    saved = (b.block, b.insert_before, b.debug_loc)
    try:
        first = use_bb.first_non_phi
        if first is not None:
            b.position_before(first)
        else:
            b.position_at_end(use_bb)
        phi = b.phi(agg_ty, orig.name + ".merged")
        for p in preds:
            phi.add_incoming(sources[id(p)], p)
    finally:
        b.block, b.insert_before, b.debug_loc = saved
    return ic.replace_inst_uses_with(orig, phi)


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
    return fold_aggregate_construction_into_aggregate_reuse(ic, i)


# =================================================================================================
# insertelement
# =================================================================================================


def _cint64(v: Value) -> int | None:
    """``m_ConstantInt(uint64_t&)``: a scalar integer constant that fits 64 bits."""
    if isinstance(v, ConstantInt) and v.value.bit_length() <= 64:
        return v.value
    return None


def _collect_single_shuffle_elements(v: Value, lhs: Value, rhs: Value, mask: list[int]) -> bool:
    """``collectSingleShuffleElements``: ``v`` is a shuffle of ``lhs`` and ``rhs``; fills ``mask``."""
    vt = v.type
    assert isinstance(vt, VectorType)
    n = vt.count
    if isinstance(v, PoisonValue):
        mask[:] = [-1] * n
        return True
    if v is lhs:
        mask.extend(range(n))
        return True
    if v is rhs:
        mask.extend(range(n, 2 * n))
        return True
    if isinstance(v, InsertElementInst):
        vec_op, scalar_op, idx_op = v.operands[0], v.operands[1], v.operands[2]
        if not isinstance(idx_op, ConstantInt):
            return False
        ins_idx = idx_op.value
        if isinstance(scalar_op, PoisonValue):
            if _collect_single_shuffle_elements(vec_op, lhs, rhs, mask):
                mask[ins_idx % n] = -1
                return True
        elif isinstance(scalar_op, ExtractElementInst):
            ec = scalar_op.operands[1]
            if isinstance(ec, ConstantInt):
                lt = lhs.type
                assert isinstance(lt, VectorType)
                src = scalar_op.operands[0]
                if src is lhs or src is rhs:
                    if _collect_single_shuffle_elements(vec_op, lhs, rhs, mask):
                        mask[ins_idx % n] = ec.value if src is lhs else ec.value + lt.count
                        return True
    return False


def _replace_extract_elements(ic: InstCombiner, ins: InsertElementInst, ext: ExtractElementInst) -> bool:
    """``replaceExtractElements``: widen the narrow vector ``ext`` reads so one shuffle can
    replace the insert/extract pairs."""
    it = ins.type
    et = ext.vector_operand_type
    assert isinstance(it, VectorType)
    n_ins, n_ext = it.count, et.count
    if it.element_type is not et.element_type or n_ext >= n_ins:
        return False
    ext_mask = list(range(n_ext)) + [-1] * (n_ins - n_ext)
    ext_vec = ext.vector_operand
    ext_inst = ext_vec if isinstance(ext_vec, Instruction) and not isinstance(ext_vec, PHINode) else None
    block = ext_inst.parent if ext_inst is not None else ext.parent
    if block is not ins.parent:
        return False
    if ins.has_one_use and isinstance(next(iter(ins.users)), InsertElementInst):
        return False
    wide = ShuffleVectorInst(ext_vec, _poison_of(ext_vec), ext_mask)
    if ext_inst is not None:
        wide.insert_after(ext_inst)
    else:
        eb = ext.parent
        assert eb is not None
        pos = eb.first_insertion_point
        assert pos is not None
        ic.insert_new_inst_with(wide, pos)
    for u in list(ext_vec.users):
        if not isinstance(u, ExtractElementInst) or u.parent is not wide.parent:
            continue
        new_ext = ExtractElementInst(wide, u.operands[1])
        ic.insert_new_inst_with(new_ext, u)
        ic.replace_inst_uses_with(u, new_ext)
        ic.add_to_worklist(u)
    return True


def _collect_shuffle_elements(
    ic: InstCombiner, v: Value, mask: list[int], permitted_rhs: Value | None, rerun: list[bool]
) -> tuple[Value, Value | None]:
    """``collectShuffleElements``: (LHS, RHS or None) and ``mask`` of a shuffle equal to the
    insert/extract chain ``v``."""
    from llvmpy_mid.ir.constants import ConstantAggregateZero

    vt = v.type
    assert isinstance(vt, VectorType)
    n = vt.count
    if isinstance(v, PoisonValue):
        mask[:] = [-1] * n
        return (PoisonValue.get(permitted_rhs.type) if permitted_rhs is not None else v), None
    if isinstance(v, ConstantAggregateZero):
        mask[:] = [0] * n
        return v, None
    if isinstance(v, InsertElementInst):
        vec_op, scalar_op, idx_op = v.operands[0], v.operands[1], v.operands[2]
        if isinstance(scalar_op, ExtractElementInst):
            ec = scalar_op.operands[1]
            if isinstance(ec, ConstantInt) and isinstance(idx_op, ConstantInt):
                ext_idx = ec.value
                ins_idx = idx_op.value
                src = scalar_op.operands[0]
                if src is permitted_rhs or permitted_rhs is None:
                    rhs = src
                    lr0, _lr1 = _collect_shuffle_elements(ic, vec_op, mask, rhs, rerun)
                    if lr0.type is not rhs.type:
                        if _replace_extract_elements(ic, v, scalar_op):
                            rerun[0] = True
                        for k in range(n):
                            mask[k] = k
                        return v, None
                    rt = rhs.type
                    assert isinstance(rt, VectorType)
                    mask[ins_idx % n] = rt.count + ext_idx
                    return lr0, rhs
                if vec_op is permitted_rhs:
                    st = src.type
                    assert isinstance(st, VectorType)
                    mask.extend(ext_idx if k == ins_idx else st.count + k for k in range(n))
                    return src, permitted_rhs
                if src.type is permitted_rhs.type and _collect_single_shuffle_elements(v, src, permitted_rhs, mask):
                    return src, permitted_rhs
    mask.extend(range(n))
    return v, None


def _is_shuffle_equivalent_to_select(shuf: ShuffleVectorInst) -> bool:
    """``isShuffleEquivalentToSelect``: every lane keeps its position."""
    ot = shuf.operands[0].type
    assert isinstance(ot, VectorType)
    if ot.scalable:
        return False
    n = ot.count
    mask = shuf.mask
    if len(mask) != n:
        return False
    return all(m == -1 or m == k or m == k + n for k, m in enumerate(mask))


def fold_ins_sequence_into_splat(ic: InstCombiner, ins: InsertElementInst) -> Instruction | None:
    """inselt (.. (inselt X, K, 0) ..), K, N-1 -> shuf (inselt X, K, 0), poison, zeroinitializer
    (``foldInsSequenceIntoSplat``)."""
    if ins.has_one_use and isinstance(next(iter(ins.users)), InsertElementInst):
        return None
    vt = ins.type
    assert isinstance(vt, VectorType)
    if vt.scalable:
        return None
    n = vt.count
    if n == 1:
        return None
    splat = ins.operands[1]
    cur: InsertElementInst | None = ins
    present = [False] * n
    first: InsertElementInst = ins
    while cur is not None:
        idx = cur.operands[2]
        if not isinstance(idx, ConstantInt) or cur.operands[1] is not splat:
            return None
        nxt_v = cur.operands[0]
        nxt = nxt_v if isinstance(nxt_v, InsertElementInst) else None
        if cur is not ins and not cur.has_one_use and (nxt is not None or idx.value != 0):
            return None
        if idx.value >= n:
            return None
        present[idx.value] = True
        first = cur
        cur = nxt
    if first is ins:
        return None
    if not isinstance(first.operands[0], PoisonValue) and not all(present):
        return None
    base: Instruction = first
    fidx = first.operands[2]
    assert isinstance(fidx, ConstantInt)
    if fidx.value != 0:
        base = InsertElementInst(PoisonValue.get(vt), splat, _i64(ic, 0))
        base.insert_before(ins)
    mask = [0 if p else -1 for p in present]
    return ShuffleVectorInst(base, PoisonValue.get(vt), mask)


def fold_ins_elt_into_splat(ins: InsertElementInst) -> Instruction | None:
    """inselt (shuf (inselt undef, X, 0), _, M), X, C -> shuf (inselt undef, X, 0), poison, M'
    (``foldInsEltIntoSplat``)."""
    shuf = ins.operands[0]
    if not isinstance(shuf, ShuffleVectorInst) or shuf.changes_length:
        return None
    st = shuf.type
    assert isinstance(st, VectorType)
    n = len(shuf.mask)
    if st.scalable or not _is_single_source(shuf.mask, n):
        return None
    if any(m != -1 and m != 0 and m != n for m in shuf.mask):
        return None
    idx = _cint64(ins.operands[2])
    if idx is None:
        return None
    x = ins.operands[1]
    op0 = shuf.operands[0]
    if not (
        isinstance(op0, InsertElementInst)
        and _is_undef(op0.operands[0])
        and op0.operands[1] is x
        and isinstance(op0.operands[2], ConstantInt)
        and op0.operands[2].value == 0
    ):
        return None
    new_mask = [0 if k == idx else shuf.get_mask_value(k) for k in range(n)]
    return ShuffleVectorInst(op0, _poison_of(op0), new_mask)


def fold_ins_elt_into_identity_shuffle(ins: InsertElementInst) -> Instruction | None:
    """inselt (shuf X, IdMask), (extelt X, C), C -> shuf X, IdMask' (``foldInsEltIntoIdentityShuffle``)."""
    shuf = ins.operands[0]
    if not isinstance(shuf, ShuffleVectorInst) or not isinstance(shuf.operands[1], PoisonValue):
        return None
    if not (is_identity_with_extract(shuf) or is_identity_with_padding(shuf)):
        return None
    idx = _cint64(ins.operands[2])
    if idx is None:
        return None
    scalar = ins.operands[1]
    x = shuf.operands[0]
    if not (
        isinstance(scalar, ExtractElementInst)
        and scalar.operands[0] is x
        and isinstance(scalar.operands[1], ConstantInt)
        and scalar.operands[1].value == idx
    ):
        return None
    old = shuf.mask
    new_mask: list[int] = []
    for k in range(len(old)):
        if k != idx:
            new_mask.append(old[k])
        elif old[k] == idx:
            return None
        else:
            new_mask.append(idx)
    return ShuffleVectorInst(x, shuf.operands[1], new_mask)


def hoist_ins_elt_const(ic: InstCombiner, ins2: InsertElementInst) -> Instruction | None:
    """inselt (inselt X, Y, C1), ScalarC, C2 -> inselt (inselt X, ScalarC, C2), Y, C1 (``hoistInsEltConst``)."""
    ins1 = ins2.operands[0]
    if not isinstance(ins1, InsertElementInst) or not ins1.has_one_use:
        return None
    x, y, c1 = ins1.operands[0], ins1.operands[1], ins1.operands[2]
    sc, c2 = ins2.operands[1], ins2.operands[2]
    if (
        not isinstance(y, Constant)
        and isinstance(c1, ConstantInt)
        and isinstance(sc, Constant)
        and isinstance(c2, ConstantInt)
        and (c1.type is not c2.type or c1.value != c2.value)
    ):
        n1 = ic.builder.create_insert_element(x, sc, c2)
        return InsertElementInst(n1, y, c1)
    return None


def fold_constant_ins_elt_into_shuffle(ins: InsertElementInst) -> Instruction | None:
    """inselt (shuf X, CVec, Mask | inselt X, C1, I1), C, I -> shuf X, CVec', Mask'
    (``foldConstantInsEltIntoShuffle``)."""
    inst = ins.operands[0]
    if not isinstance(inst, Instruction) or not inst.has_one_use:
        return None
    if isinstance(inst, ShuffleVectorInst):
        cvec = inst.operands[1]
        scalar = ins.operands[1]
        idx = _cint64(ins.operands[2])
        if not isinstance(cvec, Constant) or not isinstance(scalar, Constant) or idx is None:
            return None
        if not _is_shuffle_equivalent_to_select(inst):
            return None
        mask = inst.mask
        n = len(mask)
        elts: list[Constant] = []
        new_mask: list[int] = []
        for k in range(n):
            e: Constant | None
            if k == idx:
                e = scalar
                new_mask.append(idx + n)
            else:
                e = cvec.get_aggregate_element(k)
                new_mask.append(mask[k])
            if e is None:
                return None
            elts.append(e)
        return ShuffleVectorInst(inst.operands[0], ConstantVector.get(elts), new_mask)
    if isinstance(inst, InsertElementInst):
        vt = ins.type
        assert isinstance(vt, VectorType)
        if vt.scalable:
            return None
        n = vt.count
        i0, v0 = _cint64(ins.operands[2]), ins.operands[1]
        i1, v1 = _cint64(inst.operands[2]), inst.operands[1]
        if i0 is None or i1 is None or not isinstance(v0, Constant) or not isinstance(v1, Constant):
            return None
        if i0 >= n or i1 >= n:
            return None
        values: list[Constant | None] = [None] * n
        m2 = [0] * n
        for ii, vv in ((i0, v0), (i1, v1)):
            if values[ii] is None:
                values[ii] = vv
                m2[ii] = n + ii
        full: list[Constant] = []
        for k in range(n):
            cv = values[k]
            if cv is None:
                cv = PoisonValue.get(vt.element_type)
                m2[k] = k
            full.append(cv)
        return ShuffleVectorInst(inst.operands[0], ConstantVector.get(full), m2)
    return None


def narrow_ins_elt(ic: InstCombiner, ins: InsertElementInst) -> Instruction | None:
    """inselt (ext X), (ext Y), I -> ext (inselt X, Y, I) (``narrowInsElt``)."""
    vec = ins.operands[0]
    if not vec.has_one_use:
        return None
    scalar = ins.operands[1]
    if not isinstance(vec, CastInst) or not isinstance(scalar, CastInst):
        return None
    op = vec.opcode
    if op not in ("fpext", "sext", "zext") or scalar.opcode != op:
        return None
    x, y = vec.operands[0], scalar.operands[0]
    if x.type.scalar_type is not y.type:
        return None
    ni = ic.builder.create_insert_element(x, y, ins.operands[2])
    return CastInst.create(op, ni, ins.type)


def fold_trunc_ins_elt_pair(ic: InstCombiner, ins: InsertElementInst, big_endian: bool) -> Instruction | None:
    """inselt (inselt undef, (trunc X), 2k), (trunc (lshr X, BW/2)), 2k+1 -> bitcast (inselt (bitcast
    undef), X, k) (``foldTruncInsEltPair``)."""
    vt = ins.type
    assert isinstance(vt, VectorType)
    if vt.scalable or vt.count & 1:
        return None
    idx1 = _cint64(ins.operands[2])
    vec_op = ins.operands[0]
    if idx1 is None or not isinstance(vec_op, InsertElementInst):
        return None
    idx0 = _cint64(vec_op.operands[2])
    base = vec_op.operands[0]
    if idx0 is None or not _is_undef(base):
        return None
    if idx0 + 1 != idx1 or idx0 & 1:
        return None
    scalar0, scalar_op = vec_op.operands[1], ins.operands[1]
    low, high = (scalar_op, scalar0) if big_endian else (scalar0, scalar_op)
    if not isinstance(low, CastInst) or low.opcode != "trunc":
        return None
    x = low.operands[0]
    if not isinstance(high, CastInst) or high.opcode != "trunc":
        return None
    sh = high.operands[0]
    if not isinstance(sh, BinaryOperator) or sh.opcode != "lshr" or sh.operands[0] is not x:
        return None
    sh_amt = _cint64(sh.operands[1])
    if sh_amt is None:
        return None
    src_ty = x.type
    sw = src_ty.width if isinstance(src_ty, IntegerType) else 0
    ew = vt.element_type.width if isinstance(vt.element_type, IntegerType) else 0
    if not isinstance(src_ty, IntegerType) or sw != ew * 2 or sh_amt != ew:
        return None
    cast_ty = src_ty.context.vector_type(src_ty, vt.count // 2)
    b = ic.builder
    cb = b.create_cast("bitcast", base, cast_ty)
    new_index = idx1 // 2 if big_endian else idx0 // 2
    ni = b.create_insert_element(cb, x, new_index)
    return CastInst.create("bitcast", ni, vt)


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
    # insert (extract V, C1), C2 chains -> shufflevector (collectShuffleElements)
    if not vty.scalable and isinstance(idx_op, ConstantInt) and idx_op.value.bit_length() <= 64:
        if isinstance(scalar_op, ExtractElementInst):
            ext_vec = scalar_op.operands[0]
            ec = scalar_op.operands[1]
            evt = ext_vec.type
            if (
                isinstance(ec, ConstantInt)
                and ec.value.bit_length() <= 64
                and isinstance(evt, VectorType)
                and not evt.scalable
                and ec.value < evt.count
            ):
                if not i.has_one_use or not isinstance(next(iter(i.users)), InsertElementInst):
                    rerun = [True]
                    while rerun[0]:
                        rerun[0] = False
                        mask: list[int] = []
                        l, r = _collect_shuffle_elements(ic, i, mask, None, rerun)
                        if l is not i and r is not i:
                            if r is None:
                                r = _poison_of(l)
                            return ShuffleVectorInst(l, r, mask)
    nw = _fixed_count(vec_op.type)
    if nw is not None:
        poison = [0]
        nv = simplify_demanded_vector_elts(ic, i, _low(nw), poison)
        if nv is not None:
            if nv is not i:
                return ic.replace_inst_uses_with(i, nv)
            return i
    r2 = fold_constant_ins_elt_into_shuffle(i)
    if r2 is not None:
        return r2
    r2 = hoist_ins_elt_const(ic, i)
    if r2 is not None:
        return r2
    r2 = fold_ins_sequence_into_splat(ic, i)
    if r2 is not None:
        return r2
    r2 = fold_ins_elt_into_splat(i)
    if r2 is not None:
        return r2
    r2 = fold_ins_elt_into_identity_shuffle(i)
    if r2 is not None:
        return r2
    r2 = narrow_ins_elt(ic, i)
    if r2 is not None:
        return r2
    return fold_trunc_ins_elt_pair(ic, i, ic.dl.is_big_endian)


# =================================================================================================
# shufflevector
# =================================================================================================


def _is_zero_mask(mask: tuple[int, ...] | list[int]) -> bool:
    """``m_ZeroMask``: every lane picks element 0 or is poison."""
    return all(m == 0 or m == -1 for m in mask)


def _is_single_source(mask: tuple[int, ...] | list[int], n: int) -> bool:
    uses_lhs = uses_rhs = False
    for m in mask:
        if m == -1:
            continue
        if m < n:
            uses_lhs = True
        else:
            uses_rhs = True
        if uses_lhs and uses_rhs:
            return False
    return uses_lhs or uses_rhs


def _is_identity_mask_impl(mask: tuple[int, ...] | list[int], n: int) -> bool:
    if not _is_single_source(mask, n):
        return False
    for k, m in enumerate(mask):
        if m != -1 and m != k and m != n + k:
            return False
    return True


def _src_count(shuf: ShuffleVectorInst) -> int:
    t = shuf.operands[0].type
    assert isinstance(t, VectorType)
    return t.count


def is_identity_with_padding(shuf: ShuffleVectorInst) -> bool:
    """``ShuffleVectorInst::isIdentityWithPadding``."""
    if shuf.type.scalable:  # type: ignore[attr-defined]
        return False
    n = _src_count(shuf)
    mask = shuf.mask
    if len(mask) <= n or not _is_identity_mask_impl(mask, n):
        return False
    return all(m == -1 for m in mask[n:])


def is_identity_with_extract(shuf: ShuffleVectorInst) -> bool:
    """``ShuffleVectorInst::isIdentityWithExtract``."""
    if shuf.type.scalable:  # type: ignore[attr-defined]
        return False
    n = _src_count(shuf)
    mask = shuf.mask
    return len(mask) < n and _is_identity_mask_impl(mask, n)


def _widen_mask(scale: int, mask: list[int] | tuple[int, ...]) -> list[int] | None:
    """``widenShuffleMaskElts``."""
    if scale == 1:
        return list(mask)
    if len(mask) % scale:
        return None
    out: list[int] = []
    for k in range(0, len(mask), scale):
        sl = mask[k : k + scale]
        front = sl[0]
        if front < 0:
            if any(e != front for e in sl):
                return None
            out.append(front)
        else:
            if front % scale:
                return None
            for j in range(1, scale):
                if sl[j] != front + j:
                    return None
            out.append(front // scale)
    return out


def _narrow_mask(scale: int, mask: list[int] | tuple[int, ...]) -> list[int]:
    """``narrowShuffleMaskElts``."""
    out: list[int] = []
    for m in mask:
        for j in range(scale):
            out.append(m if m < 0 else scale * m + j)
    return out


def scale_shuffle_mask_elts(num_dst: int, mask: list[int] | tuple[int, ...]) -> list[int] | None:
    """``scaleShuffleMaskElts``: ``mask`` re-expressed over ``num_dst`` elements, None when it cannot be."""
    n = len(mask)
    if n == num_dst:
        return list(mask)
    if n > num_dst:
        if n % num_dst:
            return None
        return _widen_mask(n // num_dst, mask)
    if num_dst % n:
        return None
    return _narrow_mask(num_dst // n, mask)


def _unary_mask(mask: tuple[int, ...] | list[int], n: int) -> list[int]:
    """``createUnaryMask``: lanes of operand 1 renumbered onto operand 0."""
    return [m - n if m >= n else m for m in mask]


def _poison_of(v: Value) -> PoisonValue:
    return PoisonValue.get(v.type)


def simplify_binop_splats(ic: InstCombiner, svi: ShuffleVectorInst) -> Instruction | None:
    """splat (binop (splat X), Y) -> splat (binop X, Y) (``simplifyBinOpSplats``)."""
    op0 = svi.operands[0]
    if not isinstance(svi.operands[1], PoisonValue) or not _is_zero_mask(svi.mask) or not op0.has_one_use:
        return None
    if not isinstance(op0, BinaryOperator):
        return None

    def is_splat0(v: Value) -> bool:
        return isinstance(v, ShuffleVectorInst) and isinstance(v.operands[1], PoisonValue) and _is_zero_mask(v.mask)

    a, b2 = op0.operands[0], op0.operands[1]
    if isinstance(a, ShuffleVectorInst) and is_splat0(a):
        x, y = a.operands[0], b2
    elif isinstance(b2, ShuffleVectorInst) and is_splat0(b2):
        x, y = a, b2.operands[0]
    else:
        return None
    if x.type is not y.type:
        return None
    if not is_safe_to_speculatively_execute(op0):
        return None
    nbo = ic.builder.create_bin_op(op0.opcode, x, y)
    if isinstance(nbo, Instruction):
        copy_ir_flags(nbo, op0)
    return ShuffleVectorInst(nbo, _poison_of(nbo), svi.mask)


def canonicalize_insert_splat(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (inselt poison, X, C), poison, <C,C,..> -> shuf (inselt poison, X, 0), poison, <0,0,..>
    (``canonicalizeInsertSplat``)."""
    op0, op1 = shuf.operands[0], shuf.operands[1]
    mask = shuf.mask
    if not (
        isinstance(op0, InsertElementInst)
        and op0.has_one_use
        and isinstance(op0.operands[0], PoisonValue)
        and isinstance(op0.operands[2], ConstantInt)
        and op0.operands[2].value.bit_length() <= 64
    ):
        return None
    if not isinstance(op1, PoisonValue) or _is_zero_mask(mask) or op0.operands[2].value == 0:
        return None
    poison_vec = PoisonValue.get(shuf.type)
    new_ins = ic.builder.create_insert_element(poison_vec, op0.operands[1], 0)
    new_mask = [-1 if m == -1 else 0 for m in mask]
    return ShuffleVectorInst(new_ins, _poison_of(new_ins), new_mask)


def fold_trunc_shuffle(shuf: ShuffleVectorInst, big_endian: bool) -> Instruction | None:
    """shuf (bitcast X), poison, <low lanes> -> trunc X (``foldTruncShuffle``)."""
    dest = shuf.type
    op0 = shuf.operands[0]
    if not (isinstance(op0, CastInst) and op0.opcode == "bitcast") or not isinstance(shuf.operands[1], PoisonValue):
        return None
    assert isinstance(dest, VectorType)
    if not isinstance(dest.element_type, IntegerType):
        return None
    x = op0.operands[0]
    st = x.type
    if not isinstance(st, VectorType) or not isinstance(st.element_type, IntegerType):
        return None
    if st.count != dest.count or st.element_type.width % dest.element_type.width:
        return None
    ratio = st.element_type.width // dest.element_type.width
    for k, m in enumerate(shuf.mask):
        if m == -1:
            continue
        lsb = (k + 1) * ratio - 1 if big_endian else k * ratio
        if m != lsb:
            return None
    return CastInst.create("trunc", x, dest)


def narrow_vector_select(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (sel (shuf NarrowCond, poison, WideMask), X, Y), poison, NarrowMask ->
    sel NarrowCond, (shuf X, NarrowMask), (shuf Y, NarrowMask) (``narrowVectorSelect``)."""
    if not isinstance(shuf.operands[1], PoisonValue) or not is_identity_with_extract(shuf):
        return None
    sel = shuf.operands[0]
    if not isinstance(sel, SelectInst) or not sel.has_one_use:
        return None
    cond, x, y = sel.operands[0], sel.operands[1], sel.operands[2]
    dt = shuf.type
    assert isinstance(dt, VectorType)
    if not (isinstance(cond, ShuffleVectorInst) and cond.has_one_use and isinstance(cond.operands[1], PoisonValue)):
        return None
    narrow_cond = cond.operands[0]
    nct = narrow_cond.type
    if not isinstance(nct, VectorType) or nct.count != dt.count or not is_identity_with_padding(cond):
        return None
    b = ic.builder
    nx = b.create_shuffle_vector(x, _poison_of(x), shuf.mask)
    ny = b.create_shuffle_vector(y, _poison_of(y), shuf.mask)
    return SelectInst(narrow_cond, nx, ny)


def _fneg_or_fabs(v: Value) -> Value | None:
    if isinstance(v, UnaryOperator) and v.opcode == "fneg":
        return v.operands[0]
    if isinstance(v, CallBase) and v.intrinsic_base == "llvm.fabs":
        return v.operands[0]
    return None


def _fabs_call(ic: InstCombiner, shuf: ShuffleVectorInst, x: Value) -> CallBase:
    from llvmpy_mid.ir.instructions.calls import CallInst
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration

    fn = shuf.function
    assert fn is not None and fn.parent is not None
    ty = shuf.type
    decl = intrinsic_declaration(fn.parent, "llvm.fabs." + _mangle(ty), ty.context.function_type(ty, [ty]))
    return CallInst(decl.function_type, decl, [x])


def _mangle(ty: Type) -> str:
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    full = intrinsic_name("llvm.fabs", [ty])
    assert full is not None
    return full[len("llvm.fabs.") :]


def fold_shuffle_of_unary_ops(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (fneg/fabs X), (fneg/fabs Y), M -> fneg/fabs (shuf X, Y, M) (``foldShuffleOfUnaryOps``)."""
    s0 = shuf.operands[0]
    if not isinstance(s0, Instruction):
        return None
    x = _fneg_or_fabs(s0)
    if x is None:
        return None
    is_fneg = s0.opcode == "fneg"
    b = ic.builder
    s0_fmf = getattr(s0, "fast_math_flags", 0)
    if s0.has_one_use and isinstance(shuf.operands[1], PoisonValue):
        ns = b.create_shuffle_vector(x, _poison_of(x), shuf.mask)
        if is_fneg:
            return UnaryOperator.create("fneg", ns, fast_math_flags=s0_fmf)
        call = _fabs_call(ic, shuf, ns)
        call.fast_math_flags = s0_fmf  # type: ignore[attr-defined]
        return call
    s1 = shuf.operands[1]
    if not isinstance(s1, Instruction):
        return None
    y = _fneg_or_fabs(s1)
    if y is None or s0.opcode != s1.opcode or (not s0.has_one_use and not s1.has_one_use):
        return None
    ns = b.create_shuffle_vector(x, y, shuf.mask)
    fmf = int(s0_fmf) & int(getattr(s1, "fast_math_flags", 0))
    if is_fneg:
        return UnaryOperator.create("fneg", ns, fast_math_flags=fmf)
    call = _fabs_call(ic, shuf, ns)
    call.fast_math_flags = fmf  # type: ignore[attr-defined]
    return call


_SHUFFLE_CASTS = frozenset(("fptosi", "fptoui", "sitofp", "uitofp"))


def fold_cast_shuffle(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (cast X), (cast Y), M -> cast (shuf X, Y, M) (``foldCastShuffle``)."""
    c0, c1 = shuf.operands[0], shuf.operands[1]
    if not isinstance(c0, CastInst) or not isinstance(c1, CastInst) or c0.opcode != c1.opcode:
        return None
    x, y = c0.operands[0], c1.operands[0]
    if x.type is not y.type or c0.opcode not in _SHUFFLE_CASTS:
        return None
    sty = shuf.type
    opty = c0.type
    assert isinstance(sty, VectorType) and isinstance(opty, VectorType)
    if sty.count > opty.count:
        return None
    xt = x.type
    assert isinstance(xt, VectorType)
    if xt.count * _pbits(xt.element_type) > opty.count * _pbits(opty.element_type):
        return None
    if not c0.has_one_use and not c1.has_one_use:
        return None
    ns = ic.builder.create_shuffle_vector(x, y, shuf.mask)
    return CastInst.create(c0.opcode, ns, sty)


def fold_identity_extract_shuffle(shuf: ShuffleVectorInst) -> Instruction | None:
    """extract-subvector (bitcast (inselt ?, X, 0)) -> bitcast X; extract-subvector (shuf X, Y, M)
    -> shuf X, Y, M' (``foldIdentityExtractShuffle``)."""
    op0, op1 = shuf.operands[0], shuf.operands[1]
    if not is_identity_with_extract(shuf) or not isinstance(op1, PoisonValue):
        return None
    st = shuf.type
    assert isinstance(st, VectorType)
    if isinstance(op0, CastInst) and op0.opcode == "bitcast":
        ins = op0.operands[0]
        if isinstance(ins, InsertElementInst):
            idx = ins.operands[2]
            if isinstance(idx, ConstantInt) and idx.value == 0:
                x = ins.operands[1]
                if _prim_bits(x.type) == _prim_bits(st):
                    return CastInst.create("bitcast", x, st)
    if not isinstance(op0, ShuffleVectorInst) or not op0.has_one_use:
        return None
    inner = op0.mask
    new_mask = [m if m == -1 else inner[k] for k, m in enumerate(shuf.mask)]
    return ShuffleVectorInst(op0.operands[0], op0.operands[1], new_mask)


def _prim_bits(ty: Type) -> int:
    return _pbits(ty)


def _pbits(ty: Type) -> int:
    """``Type::getPrimitiveSizeInBits`` (0 for pointers and aggregates)."""
    return primitive_size_in_bits(ty)[0]


def fold_shuffle_with_insert(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (inselt X, ?, C), ?, M -> shuf X, ?, M when M skips C; shuf (inselt ?, S, C), V1, M
    -> inselt V1, S, C' (``foldShuffleWithInsert``)."""
    v0, v1 = shuf.operands[0], shuf.operands[1]
    mask = list(shuf.mask)
    n = len(mask)
    inp = _src_count(shuf)

    def const_idx(v: Value) -> int | None:
        if isinstance(v, InsertElementInst):
            c = v.operands[2]
            if isinstance(c, ConstantInt) and c.value.bit_length() <= 64:
                return c.value
        return None

    c = const_idx(v0)
    if c is not None and c not in mask:
        assert isinstance(v0, InsertElementInst)
        return ic.replace_operand(shuf, 0, v0.operands[0])
    c = const_idx(v1)
    if c is not None and c + inp not in mask:
        assert isinstance(v1, InsertElementInst)
        return ic.replace_operand(shuf, 1, v1.operands[0])
    if n != inp:
        return None

    def scalar_into_op1(a: Value, m: list[int]) -> tuple[Value, ConstantInt] | None:
        if not isinstance(a, InsertElementInst) or not isinstance(a.operands[2], ConstantInt):
            return None
        idx_c = a.operands[2]
        sidx = idx_c.sext_value
        new_idx = -1
        for k in range(n):
            if m[k] == -1 or m[k] == n + k:
                continue
            if new_idx != -1 or m[k] != sidx:
                return None
            new_idx = k
        if new_idx == -1:
            return None
        return a.operands[1], ConstantInt.get(idx_c.type, new_idx)

    r = scalar_into_op1(v0, mask)
    if r is not None:
        return InsertElementInst(v1, r[0], r[1])
    commuted = [-1 if m == -1 else (m + n if m < n else m - n) for m in mask]
    r = scalar_into_op1(v1, commuted)
    if r is not None:
        return InsertElementInst(v0, r[0], r[1])
    return None


def fold_identity_padded_shuffles(shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (widen X), (widen Y), M -> shuf X, Y, M' (``foldIdentityPaddedShuffles``)."""
    s0, s1 = shuf.operands[0], shuf.operands[1]
    if not isinstance(s0, ShuffleVectorInst) or not is_identity_with_padding(s0):
        return None
    if not isinstance(s1, ShuffleVectorInst) or not is_identity_with_padding(s1):
        return None
    x, y = s0.operands[0], s1.operands[0]
    xt = x.type
    assert isinstance(xt, VectorType)

    def pow2(k: int) -> bool:
        return k > 0 and k & (k - 1) == 0

    wide = len(s0.mask)
    if x.type is not y.type or not pow2(len(shuf.mask)) or not pow2(wide) or not pow2(xt.count) or _is_undef(x) or _is_undef(y):
        return None
    narrow = xt.count
    new_mask = [-1] * len(shuf.mask)
    for k, m in enumerate(shuf.mask):
        if m == -1:
            continue
        if m < wide:
            if s0.get_mask_value(m) == -1:
                continue
            new_mask[k] = m
        else:
            if s1.get_mask_value(m - wide) == -1:
                continue
            new_mask[k] = m - (wide - narrow)
    return ShuffleVectorInst(x, y, new_mask)


_REORDERABLE = frozenset(
    (
        "add", "fadd", "sub", "fsub", "mul", "fmul", "fdiv", "frem", "shl", "lshr", "ashr", "and", "or", "xor",
        "icmp", "fcmp", "trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc", "fpext",
        "getelementptr",
    )
)
_DIVREM = frozenset(("udiv", "sdiv", "urem", "srem"))


def can_evaluate_shuffled(v: Value, mask: tuple[int, ...] | list[int], depth: int = 5) -> bool:
    """``canEvaluateShuffled``: ``v`` can be recomputed with its lanes in ``mask``'s order."""
    if isinstance(v, Constant):
        return True
    if not isinstance(v, Instruction) or not v.has_one_use or depth == 0:
        return False
    op = v.opcode
    if op in _DIVREM or op in _REORDERABLE:
        if op in _DIVREM and -1 in mask:
            return False
        t = v.type
        if isinstance(t, VectorType) and len(mask) > t.count:
            return False
        return all(can_evaluate_shuffled(o, mask, depth - 1) for o in v.operands)
    if op == "insertelement":
        c = v.operands[2]
        if not isinstance(c, ConstantInt):
            return False
        elt = min(c.value, (1 << 64) - 1)
        if sum(1 for m in mask if m == elt) > 1:
            return False
        return can_evaluate_shuffled(v.operands[0], mask, depth - 1)
    return False


def _build_new(ic: InstCombiner, i: Instruction, ops: list[Value]) -> Value:
    """``buildNew``: ``i`` rebuilt on ``ops`` at ``i``'s position."""
    b = ic.builder
    b.position_before(i)
    b.debug_loc = i.debug_loc
    op = i.opcode
    if isinstance(i, BinaryOperator):
        nv = b.create_bin_op(op, ops[0], ops[1])
        if isinstance(nv, BinaryOperator):
            if nv.has_wrap_flags:
                nv.nuw = i.nuw
                nv.nsw = i.nsw
            if nv.has_exact_flag:
                nv.exact = i.exact
            if nv.is_fp_op:
                nv.fast_math_flags = i.fast_math_flags
        return nv
    if isinstance(i, ICmpInst):
        return b.create_icmp(i.predicate, ops[0], ops[1])
    if isinstance(i, FCmpInst):
        return b.create_fcmp(i.predicate, ops[0], ops[1])
    if isinstance(i, CastInst):
        src_t = ops[0].type
        assert isinstance(src_t, VectorType)
        dest = i.type.context.vector_type(i.type.scalar_type, src_t.count, src_t.scalable)
        return b.create_cast(op, ops[0], dest)
    assert isinstance(i, GetElementPtrInst)
    return b.create_gep(i.source_element_type, ops[0], ops[1:], inbounds=i.inbounds)


def evaluate_in_different_element_order(ic: InstCombiner, v: Value, mask: tuple[int, ...] | list[int]) -> Value:
    """``evaluateInDifferentElementOrder``: ``v`` recomputed with its lanes in ``mask``'s order."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr
    from llvmpy_mid.ir.constants import ConstantAggregateZero

    vt = v.type
    assert isinstance(vt, VectorType)
    ety = vt.element_type
    nty = ety.context.vector_type(ety, len(mask))
    if isinstance(v, PoisonValue):
        return PoisonValue.get(nty)
    if _is_undef(v):
        return UndefValue.get(nty)
    if isinstance(v, ConstantAggregateZero):
        return ConstantAggregateZero.get(nty)
    if isinstance(v, Constant):
        return ConstantExpr.get_shuffle_vector(v, PoisonValue.get(vt), mask)
    assert isinstance(v, Instruction)
    if v.opcode == "insertelement":
        c = v.operands[2]
        assert isinstance(c, ConstantInt)
        elt = min(c.value, (1 << 64) - 1)
        index = mask.index(elt) if elt in mask else -1
        nv = evaluate_in_different_element_order(ic, v.operands[0], mask)
        if index < 0:
            return nv
        b = ic.builder
        b.position_before(v)
        b.debug_loc = v.debug_loc
        return b.create_insert_element(nv, v.operands[1], index)
    new_ops: list[Value] = []
    rebuild = len(mask) != vt.count
    for o in v.operands:
        no = evaluate_in_different_element_order(ic, o, mask) if isinstance(o.type, VectorType) else o
        new_ops.append(no)
        rebuild = rebuild or no is not o
    if rebuild:
        return _build_new(ic, v, new_ops)
    return v


def _is_shuffle_extracting_from_lhs(svi: ShuffleVectorInst, mask: tuple[int, ...]) -> bool:
    """``isShuffleExtractingFromLHS``: the mask picks a contiguous run of the first operand."""
    n = _src_count(svi)
    beg = mask[0] & 0xFFFFFFFF
    end = mask[-1] & 0xFFFFFFFF
    if beg > end or end >= n or end - beg != len(mask) - 1:
        return False
    return all((m & 0xFFFFFFFF) == beg + k for k, m in enumerate(mask))


def _is_select_shuffle(shuf: ShuffleVectorInst) -> bool:
    """``ShuffleVectorInst::isSelect``: lanes stay in place, both operands used."""
    mask = shuf.mask
    n = len(mask)
    if shuf.changes_length or _is_single_source(mask, n):
        return False
    return all(m == -1 or m == k or m == n + k for k, m in enumerate(mask))


def _commute_mask(mask: list[int] | tuple[int, ...], n: int) -> list[int]:
    """``commuteShuffleMask``."""
    return [-1 if m == -1 else (m + n if m < n else m - n) for m in mask]


def fold_select_shuffle_of_select_shuffle(shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf X, (shuf X, Y, M1), M -> shuf X, Y, M' (``foldSelectShuffleOfSelectShuffle``)."""
    op0, op1 = shuf.operands[0], shuf.operands[1]
    mask = list(shuf.mask)
    n = len(mask)
    if (
        isinstance(op0, ShuffleVectorInst)
        and _is_select_shuffle(op0)
        and (op0.operands[0] is op1 or op0.operands[1] is op1)
    ):
        op0, op1 = op1, op0
        mask = _commute_mask(mask, n)
    if not isinstance(op1, ShuffleVectorInst) or not _is_select_shuffle(op1):
        return None
    if op1.operands[0] is not op0 and op1.operands[1] is not op0:
        return None
    x, y = op1.operands[0], op1.operands[1]
    mask1 = list(op1.mask)
    if y is op0:
        x, y = y, x
        mask1 = _commute_mask(mask1, n)
    new_mask = [mask[k] if mask[k] < n else mask1[k] for k in range(n)]
    return ShuffleVectorInst(x, y, new_mask)


_DIVREM_SHIFT = frozenset(("udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr"))


def fold_select_shuffle_with_1_binop(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (bop X, C), X, M -> bop X, C' (``foldSelectShuffleWith1Binop``)."""
    from llvmpy_mid.analysis.instsimplify.fp import _never_nan
    from llvmpy_mid.ir.constant_expr import ConstantExpr
    from llvmpy_mid.ir.constant_fold import get_bin_op_identity
    from llvmpy_mid.transform.instcombine.common import get_safe_vector_constant_for_binop

    op0, op1 = shuf.operands[0], shuf.operands[1]
    if isinstance(op0, BinaryOperator) and op0.operands[0] is op1 and isinstance(op0.operands[1], Constant):
        op0_is_binop = True
        bo = op0
    elif isinstance(op1, BinaryOperator) and op1.operands[0] is op0 and isinstance(op1.operands[1], Constant):
        op0_is_binop = False
        bo = op1
    else:
        return None
    c = bo.operands[1]
    assert isinstance(c, Constant)
    opc = bo.opcode
    id_c = get_bin_op_identity(opc, shuf.type, True)
    if id_c is None:
        return None
    x = op1 if op0_is_binop else op0
    st = shuf.type
    assert isinstance(st, VectorType)
    if st.element_type.is_floating_point and not _never_nan(x):
        return None
    mask = shuf.mask
    new_c = ConstantExpr.get_shuffle_vector(c, id_c, mask) if op0_is_binop else ConstantExpr.get_shuffle_vector(id_c, c, mask)
    might = -1 in mask and opc in _DIVREM_SHIFT
    if might:
        new_c = get_safe_vector_constant_for_binop(opc, new_c, True)
    nbo = BinaryOperator.create(opc, x, new_c)
    copy_ir_flags(nbo, bo)
    if -1 in mask and not might:
        nbo.drop_poison_generating_flags()
    return nbo


def _alternate_binop(ic: InstCombiner, bo: BinaryOperator) -> tuple[str, Value, Constant] | None:
    """``getAlternateBinop``: shl X, C -> mul X, 1<<C; or disjoint -> add; sub 0, X -> mul X, -1."""
    from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands
    from llvmpy_mid.ir.constants import Constant as _C

    b0, b1 = bo.operands[0], bo.operands[1]
    ty = bo.type
    if bo.opcode == "shl":
        if isinstance(b1, _C) and not _has_constant_expr(b1):
            one = _int_splat(ty, 1)
            r = constant_fold_binary_op_operands("shl", one, b1, ic.dl)
            if r is not None:
                return "mul", b0, r
    elif bo.opcode == "or":
        if bo.disjoint and isinstance(b1, Constant):
            return "add", b0, b1
    elif bo.opcode == "sub":
        if _is_zero_int(b0):
            return "mul", b1, Constant.get_all_ones_value(ty)
    return None


def _has_constant_expr(c: Constant) -> bool:
    from llvmpy_mid.ir import pattern_match as pm

    return not pm.matches(c, pm.m_imm_constant())


def _int_splat(ty: Type, v: int) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, v))
    return ConstantInt.get(ty, v)


def _is_zero_int(v: Value) -> bool:
    """``m_ZeroInt``: an integer zero (vector lanes may be poison)."""
    from llvmpy_mid.ir import pattern_match as pm

    return isinstance(v.type.scalar_type, IntegerType) and pm.matches(v, pm.m_zero())


def fold_select_shuffle(ic: InstCombiner, shuf: ShuffleVectorInst) -> Instruction | None:
    """shuf (bop X, C0), (bop Y, C1), M -> bop (shuf X, Y, M), C' and the select-shuffle
    canonicalisations (``foldSelectShuffle``)."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr
    from llvmpy_mid.transform.instcombine.common import and_ir_flags, get_safe_vector_constant_for_binop

    if not _is_select_shuffle(shuf):
        return None
    n = len(shuf.mask)
    if not _is_undef(shuf.operands[1]) and shuf.get_mask_value(0) >= n:
        shuf.commute()
        return shuf
    r = fold_select_shuffle_of_select_shuffle(shuf)
    if r is not None:
        return r
    r = fold_select_shuffle_with_1_binop(ic, shuf)
    if r is not None:
        return r
    b0, b1 = shuf.operands[0], shuf.operands[1]
    if not isinstance(b0, BinaryOperator) or not isinstance(b1, BinaryOperator):
        return None
    c0: Constant | None = None
    c1: Constant | None = None
    if isinstance(b0.operands[0], Constant) and isinstance(b1.operands[0], Constant):
        c0, x = b0.operands[0], b0.operands[1]
        c1, y = b1.operands[0], b1.operands[1]
        constants_are_op1 = False
    else:

        def op1_const_or_neg(bo: BinaryOperator) -> tuple[Value, Constant | None] | None:
            if isinstance(bo.operands[1], Constant):
                return bo.operands[0], bo.operands[1]
            if bo.opcode == "sub" and _is_zero_int(bo.operands[0]):
                return bo.operands[1], None
            return None

        m0 = op1_const_or_neg(b0)
        m1 = op1_const_or_neg(b1)
        if m0 is None or m1 is None:
            return None
        x, c0 = m0
        y, c1 = m1
        constants_are_op1 = True
    opc0, opc1 = b0.opcode, b1.opcode
    drop_nsw = False
    if constants_are_op1 and opc0 != opc1:
        if opc0 == "shl" or opc1 == "shl":
            drop_nsw = True
        alt0 = _alternate_binop(ic, b0)
        if alt0 is not None:
            opc0, c0 = alt0[0], alt0[2]
        else:
            alt1 = _alternate_binop(ic, b1)
            if alt1 is not None:
                opc1, c1 = alt1[0], alt1[2]
    if opc0 != opc1 or c0 is None or c1 is None:
        return None
    bopc = opc0
    mask = shuf.mask
    new_c = ConstantExpr.get_shuffle_vector(c0, c1, mask)
    might = -1 in mask and bopc in _DIVREM_SHIFT
    if might:
        new_c = get_safe_vector_constant_for_binop(bopc, new_c, constants_are_op1)
    b = ic.builder
    if x is y:
        v = x
    else:
        if not b0.has_one_use and not b1.has_one_use:
            return None
        if might and not constants_are_op1:
            return None
        v = b.create_shuffle_vector(x, y, mask)
    nbo = b.create_bin_op(bopc, v, new_c) if constants_are_op1 else b.create_bin_op(bopc, new_c, v)
    if isinstance(nbo, BinaryOperator):
        copy_ir_flags(nbo, b0)
        and_ir_flags(nbo, b1)
        if drop_nsw:
            nbo.nsw = False
        if -1 in mask and not might:
            nbo.drop_poison_generating_flags()
    return ic.replace_inst_uses_with(shuf, nbo)


def visit_shufflevector(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``shufflevector`` (LLVM ``visitShuffleVectorInst``)."""
    assert isinstance(i, ShuffleVectorInst)
    lhs, rhs = i.operands[0], i.operands[1]
    q = ic.query(i)
    v = simplify_shuffle_vector_inst(lhs, rhs, i.mask, i.type, q)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = simplify_binop_splats(ic, i)
    if r is not None:
        return r
    if _is_zero_mask(i.mask) and not isinstance(rhs, PoisonValue):
        return ic.replace_operand(i, 1, _poison_of(rhs))
    lty = lhs.type
    sty = i.type
    assert isinstance(lty, VectorType) and isinstance(sty, VectorType)
    if lty.scalable:
        return None
    vwidth = sty.count
    lhs_width = lty.count
    b = ic.builder
    # shuffle (bitcast X), (bitcast Y), Mask -> bitcast (shuffle X, Y, Mask)
    if isinstance(lhs, CastInst) and lhs.opcode == "bitcast" and isinstance(rhs, CastInst) and rhs.opcode == "bitcast":
        x, y = lhs.operands[0], rhs.operands[0]
        xt = x.type
        if (
            isinstance(xt, VectorType)
            and xt is y.type
            and _pbits(xt.element_type) == _pbits(sty.element_type)
            and (lhs.has_one_use or rhs.has_one_use)
        ):
            nv = b.create_shuffle_vector(x, y, i.mask, i.name + ".uncasted")
            return CastInst.create("bitcast", nv, sty)
    mask = i.mask
    # shuf (bitcast X), undef, Mask -> bitcast X' when the scaled shuffle of X simplifies
    if isinstance(lhs, CastInst) and lhs.opcode == "bitcast" and _is_undef(rhs) and vwidth == lhs_width:
        x = lhs.operands[0]
        xt = x.type
        if isinstance(xt, VectorType) and not xt.scalable:
            scaled = scale_shuffle_mask_elts(xt.count, mask)
            if scaled is not None:
                sv = simplify_shuffle_vector_inst(x, UndefValue.get(xt), scaled, xt, q)
                if sv is not None:
                    return CastInst.create("bitcast", sv, sty)
    # shuffle x, x, mask -> shuffle x, poison, mask'
    if lhs is rhs:
        return ShuffleVectorInst(lhs, _poison_of(lhs), _unary_mask(mask, lhs_width))
    # shuffle undef, x, mask -> shuffle x, undef, mask'
    if _is_undef(lhs):
        i.commute()
        return i
    r = canonicalize_insert_splat(ic, i)
    if r is not None:
        return r
    r = fold_select_shuffle(ic, i)
    if r is not None:
        return r
    r = fold_trunc_shuffle(i, ic.dl.is_big_endian)
    if r is not None:
        return r
    r = narrow_vector_select(ic, i)
    if r is not None:
        return r
    r = fold_shuffle_of_unary_ops(ic, i)
    if r is not None:
        return r
    r = fold_cast_shuffle(ic, i)
    if r is not None:
        return r
    poison = [0]
    dv = simplify_demanded_vector_elts(ic, i, _low(vwidth), poison)
    if dv is not None:
        if dv is not i:
            return ic.replace_inst_uses_with(i, dv)
        return i
    r = fold_identity_extract_shuffle(i)
    if r is not None:
        return r
    r = fold_shuffle_with_insert(ic, i)
    if r is not None:
        return r
    r = fold_identity_padded_shuffles(i)
    if r is not None:
        return r
    mask = i.mask
    lhs, rhs = i.operands[0], i.operands[1]
    if isinstance(rhs, PoisonValue) and can_evaluate_shuffled(lhs, mask):
        nv = evaluate_in_different_element_order(ic, lhs, mask)
        return ic.replace_inst_uses_with(i, nv)
    made_change = False
    if _is_shuffle_extracting_from_lhs(i, mask):
        made_change = _fold_bitcasts_of_extracting_shuffle(ic, i, mask)
    return _merge_shuffles(i, mask, lhs_width, vwidth, made_change)


def _fold_bitcasts_of_extracting_shuffle(ic: InstCombiner, svi: ShuffleVectorInst, mask: tuple[int, ...]) -> bool:
    """bitcast (shuf V, <contiguous run>) -> extractelement (bitcast V), k (the SROA pattern)."""
    v = svi.operands[0]
    src_ty = v.type
    assert isinstance(src_ty, VectorType)
    src_elem_bits = ic.dl.type_size_in_bits(src_ty.element_type)
    vec_bits = src_ty.count * _pbits(src_ty.element_type)
    bcs = [u for u in svi.users if isinstance(u, CastInst) and u.opcode == "bitcast" and not u.use_empty]
    new_bcs: dict[int, Value] = {}
    made_change = False
    b = ic.builder
    for bc in bcs:
        beg = mask[0]
        tgt = bc.type
        tgt_bits = ic.dl.type_size_in_bits(tgt)
        if not tgt_bits:
            continue
        tgt_n = vec_bits // tgt_bits
        if vec_bits != tgt_n * tgt_bits:
            continue
        if isinstance(tgt, VectorType) or not (isinstance(tgt, IntegerType) or tgt.is_floating_point or tgt.is_pointer):
            continue
        cast_ty = tgt.context.vector_type(tgt, tgt_n)
        if (src_elem_bits * beg) % tgt_bits:
            sm = [-1] * src_ty.count
            for k in range(len(mask)):
                sm[k] = beg + k
            v = b.create_shuffle_vector(v, _poison_of(v), sm, svi.name + ".extract")
            beg = 0
        beg //= tgt_bits // src_elem_bits
        key = id(cast_ty)
        nbc = new_bcs.get(key)
        if nbc is None:
            nbc = b.create_cast("bitcast", v, cast_ty, svi.name + ".bc")
            new_bcs[key] = nbc
        ext = b.create_extract_element(nbc, beg, svi.name + ".extract")
        ic.replace_inst_uses_with(bc, ext)
        made_change = True
    return made_change


def _merge_shuffles(
    svi: ShuffleVectorInst, mask: tuple[int, ...], lhs_width: int, vwidth: int, made_change: bool
) -> Instruction | None:
    """shuf (shuf V1, V2, M1), (shuf ..), M -> one shuffle when the merged mask is a splat or one of
    the original masks."""
    lhs, rhs = svi.operands[0], svi.operands[1]
    lhs_shuf = lhs if isinstance(lhs, ShuffleVectorInst) else None
    rhs_shuf = rhs if isinstance(rhs, ShuffleVectorInst) else None
    if lhs_shuf is not None and not isinstance(lhs_shuf.operands[1], PoisonValue) and not isinstance(rhs, PoisonValue):
        lhs_shuf = None
    if rhs_shuf is not None and not isinstance(rhs_shuf.operands[1], PoisonValue):
        rhs_shuf = None
    if lhs_shuf is None and rhs_shuf is None:
        return svi if made_change else None
    lhs_op0: Value | None = None
    lhs_op1: Value | None = None
    rhs_op0: Value | None = None
    lhs_op0_w = rhs_op0_w = 0
    if lhs_shuf is not None:
        lhs_op0, lhs_op1 = lhs_shuf.operands[0], lhs_shuf.operands[1]
        lhs_op0_w = _src_count(lhs_shuf)
    if rhs_shuf is not None:
        rhs_op0 = rhs_shuf.operands[0]
        rhs_op0_w = _src_count(rhs_shuf)
    new_lhs: Value = lhs
    new_rhs: Value | None = rhs
    if lhs_shuf is not None:
        assert lhs_op0 is not None and lhs_op1 is not None
        if isinstance(rhs, PoisonValue):
            new_lhs, new_rhs = lhs_op0, lhs_op1
        elif lhs_op0_w == lhs_width:
            new_lhs = lhs_op0
    if rhs_shuf is not None and rhs_op0_w == lhs_width:
        assert rhs_op0 is not None
        new_rhs = rhs_op0
    if lhs_op0 is rhs_op0:
        assert lhs_op0 is not None
        new_lhs = lhs_op0
        new_rhs = None
    if new_lhs is lhs and new_rhs is rhs:
        return svi if made_change else None
    lhs_mask: tuple[int, ...] | None = None
    rhs_mask: tuple[int, ...] | None = None
    if new_lhs is not lhs:
        assert lhs_shuf is not None
        lhs_mask = lhs_shuf.mask
    if rhs_shuf is not None and new_rhs is not rhs:
        rhs_mask = rhs_shuf.mask
    new_lhs_w = lhs_op0_w if new_lhs is not lhs else lhs_width
    new_mask: list[int] = []
    is_splat = True
    splat_elt = -1
    rhs_poison = isinstance(rhs, PoisonValue)
    for k in range(vwidth):
        m = mask[k]
        if m < 0:
            e = -1
        elif m < lhs_width:
            if new_lhs is not lhs:
                assert lhs_mask is not None
                e = lhs_mask[m]
                if e >= lhs_op0_w and isinstance(lhs_op1, PoisonValue):
                    e = -1
            else:
                e = m
        else:
            if rhs_poison:
                e = -1
            elif new_rhs is not rhs:
                assert rhs_mask is not None
                e = rhs_mask[m - lhs_width]
                if e >= rhs_op0_w:
                    e = -1
            else:
                e = m - lhs_width
            if e >= 0 and new_rhs is not None and new_lhs is not new_rhs:
                e += new_lhs_w
        if e >= 0:
            if splat_elt >= 0 and splat_elt != e:
                is_splat = False
            splat_elt = e
        new_mask.append(e)
    nm = tuple(new_mask)
    if is_splat or nm == lhs_mask or nm == rhs_mask or nm == mask:
        if new_rhs is None:
            new_rhs = _poison_of(new_lhs)
        return ShuffleVectorInst(new_lhs, new_rhs, new_mask)
    return svi if made_change else None


__all__ = [
    "cheap_to_scalarize",
    "scalarize_phi",
    "visit_insertvalue",
    "visit_insertelement",
    "visit_extractelement",
    "visit_shufflevector",
]
