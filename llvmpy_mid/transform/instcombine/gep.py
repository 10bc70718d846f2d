"""InstCombine folds of ``getelementptr`` (LLVM
``lib/Transforms/InstCombine/InstructionCombining.cpp``: ``visitGetElementPtrInst``,
``visitGEPOfGEP``, ``foldSelectGEP``, ``canonicalizeGEPOfConstGEPI8``,
``EmitGEPOffset``; ``lib/Analysis/Local.cpp``: ``emitGEPOffset``).

LLVM 19's canonical forms: a GEP whose indices are all constants becomes
``getelementptr i8, ptr %p, i64 <byte offset>``; indices take the pointer's
index type (sign-extended or truncated); an index over a zero-sized type is
zero; a GEP of a GEP merges when the sum of the joined indices simplifies or
the offsets are constants; a non-inbounds GEP of a dereferenceable base within
its size becomes inbounds; a GEP of a select of constants becomes a select of
GEPs. The helpers that read a GEP work on instructions and on ``getelementptr``
constant expressions alike (LLVM's ``GEPOperator``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

from llvmpy_mid.analysis.instsimplify.binops import simplify_add_inst
from llvmpy_mid.analysis.instsimplify.other import simplify_gep_inst
from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.flags import GEPFlags
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset, strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.types import ArrayType, IntegerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_GEP_INBOUNDS = int(GEPFlags.INBOUNDS) | int(GEPFlags.NUSW)

# =================================================================================================
# GEPOperator: an instruction or a constant expression
# =================================================================================================


def is_gep(v: Value) -> bool:
    """``isa<GEPOperator>(v)``."""
    return isinstance(v, GetElementPtrInst) or (isinstance(v, ConstantExpr) and v.opcode == "getelementptr")


def gep_flags(v: Value) -> int:
    """The no-wrap flags word (inbounds 1, nusw 2, nuw 4) of a GEP operator."""
    if isinstance(v, GetElementPtrInst):
        return int(v.gep_flags)
    return cast(ConstantExpr, v).flags & 7


def gep_is_inbounds(v: Value) -> bool:
    return bool(gep_flags(v) & 1)


def gep_source_element_type(v: Value) -> Type:
    if isinstance(v, GetElementPtrInst):
        return v.source_element_type
    t = cast(ConstantExpr, v).source_element_type
    assert t is not None
    return t


def gep_indices(v: Value) -> list[Value]:
    return [u.value for u in v._operands[1:]]  # type: ignore[attr-defined]


def gep_result_element_type(v: Value) -> Type | None:
    if isinstance(v, GetElementPtrInst):
        return v.result_element_type
    from llvmpy_mid.ir.instructions.gep import get_indexed_type

    return get_indexed_type(gep_source_element_type(v), gep_indices(v))


def gep_has_all_constant_indices(v: Value) -> bool:
    return all(isinstance(i, ConstantInt) for i in gep_indices(v))


def gep_has_all_zero_indices(v: Value) -> bool:
    return all(isinstance(i, ConstantInt) and i.value == 0 for i in gep_indices(v))


class GEPIndexStep:
    """One step of LLVM's ``gep_type_iterator``: the type an index selects,
    whether it indexes a struct, and whether it indexes a vector."""

    __slots__ = ("indexed_type", "is_struct", "is_vector", "parent")

    def __init__(self, indexed_type: Type, is_struct: bool, is_vector: bool, parent: Type | None = None) -> None:
        self.indexed_type = indexed_type
        self.is_struct = is_struct
        self.is_vector = is_vector
        self.parent = parent
        """The aggregate this index steps into (None for the first index)."""


def gep_type_steps(source_element_type: Type, indices: Sequence[Value]) -> list[GEPIndexStep]:
    """``gep_type_begin .. gep_type_end``: for each index, the type it selects
    (the source element type for the first), whether it indexes a struct."""
    steps: list[GEPIndexStep] = []
    cur: Type = source_element_type
    agg: Type | None = None
    for k, idx in enumerate(indices):
        if k == 0:
            steps.append(GEPIndexStep(cur, False, False))
            agg = cur
            continue
        assert agg is not None
        if isinstance(agg, StructType):
            field = _struct_index(idx)
            sel = agg.elements[field] if field is not None and 0 <= field < len(agg.elements) else agg
            steps.append(GEPIndexStep(sel, True, False, agg))
            agg = sel
        elif isinstance(agg, VectorType):
            steps.append(GEPIndexStep(agg.element_type, False, True, agg))
            agg = agg.element_type
        elif isinstance(agg, ArrayType):
            steps.append(GEPIndexStep(agg.element_type, False, False, agg))
            agg = agg.element_type
        else:
            steps.append(GEPIndexStep(agg, False, False, agg))
    return steps


def _struct_index(idx: Value) -> int | None:
    if isinstance(idx, ConstantInt):
        return idx.value
    if isinstance(idx, Constant):
        from llvmpy_mid.ir.constants import get_splat_value

        s = get_splat_value(idx)
        if isinstance(s, ConstantInt):
            return s.value
        if idx.is_null_value:
            return 0
    return None


def sequential_element_stride(dl: DataLayout, step: GEPIndexStep) -> int:
    """``getSequentialElementStride``: store size for vector elements, alloc size otherwise."""
    if step.is_vector:
        return dl.type_store_size(step.indexed_type)
    return dl.type_alloc_size(step.indexed_type)


def gep_accumulate_constant_offset(dl: DataLayout, gep: Value) -> int | None:
    """``GEPOperator::accumulateConstantOffset`` into an index-width offset (unsigned), or None."""
    width = dl.index_type_size_in_bits(gep.type)
    return accumulate_constant_offset(dl, gep, width)


def _signed(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


# =================================================================================================
# emitGEPOffset
# =================================================================================================


def create_vector_splat(builder: IRBuilder, count: int, scalable: bool, v: Value, name: str = "") -> Value:
    """``CreateVectorSplat``: insertelement into poison, then a zero-mask shuffle."""
    ctx = v.type.context
    vty = ctx.vector_type(v.type, count, scalable)
    ins = builder.create_insert_element(PoisonValue.get(vty), v, ConstantInt.get(ctx.i64, 0), name + ".splatinsert")
    return builder.create_shuffle_vector(ins, PoisonValue.get(vty), [0] * count, name + ".splat")


def create_int_cast(builder: IRBuilder, v: Value, dest: Type, is_signed: bool, name: str = "") -> Value:
    """``CreateIntCast``: trunc, sext/zext, or ``v`` itself."""
    if v.type is dest:
        return v
    sw = cast(IntegerType, v.type.scalar_type).width
    dw = cast(IntegerType, dest.scalar_type).width
    if sw > dw:
        return builder.create_cast("trunc", v, dest, name)
    if sw < dw:
        return builder.create_cast("sext" if is_signed else "zext", v, dest, name)
    return builder.create_cast("bitcast", v, dest, name)


def emit_gep_offset(builder: IRBuilder, dl: DataLayout, gep: Value, no_assumptions: bool = False) -> Value:
    """The byte offset of ``gep`` as index-type arithmetic (LLVM ``emitGEPOffset``):
    ``idx * size`` terms named ``<gep>.idx``, summed as ``<gep>.offs``."""
    int_idx_ty = dl.index_type(gep.type)
    flags = gep_flags(gep)
    nsw = bool(flags & 2) and not no_assumptions
    nuw = bool(flags & 4) and not no_assumptions
    gname = gep.name
    result: Value | None = None

    def add_offset(off: Value) -> None:
        nonlocal result
        if result is not None:
            result = builder.create_add(result, off, gname + ".offs", nuw=nuw, nsw=nsw)
        else:
            result = off

    indices = gep_indices(gep)
    steps = gep_type_steps(gep_source_element_type(gep), indices)
    for op, step in zip(indices, steps):
        if isinstance(op, Constant):
            if op.is_zero_value:
                continue
            if step.is_struct:
                field = _struct_index(op)
                assert field is not None
                parent = step.parent
                assert isinstance(parent, StructType)
                size = dl.struct_layout(parent).element_offset(field)
                if not size:
                    continue
                add_offset(_const_of(int_idx_ty, size))
                continue
        if isinstance(int_idx_ty, VectorType) and not isinstance(op.type, VectorType):
            op = create_vector_splat(builder, int_idx_ty.count, int_idx_ty.scalable, op)
        if op.type is not int_idx_ty:
            op = create_int_cast(builder, op, int_idx_ty, True, op.name + ".c")
        tsize = sequential_element_stride(dl, step)
        scalable = dl.is_scalable(step.indexed_type)
        if tsize != 1 or scalable:
            scale = create_type_size(builder, int_idx_ty.scalar_type, tsize, scalable)
            if isinstance(int_idx_ty, VectorType):
                scale = create_vector_splat(builder, int_idx_ty.count, int_idx_ty.scalable, scale)
            op = builder.create_mul(op, scale, gname + ".idx", nuw=nuw, nsw=nsw)
        add_offset(op)
    return result if result is not None else Constant.get_null_value(int_idx_ty)


def create_type_size(builder: IRBuilder, ty: Type, min_size: int, scalable: bool) -> Value:
    """``CreateTypeSize``: the constant size, or ``vscale * min`` for a scalable size."""
    c = _const_of(ty, min_size)
    if not scalable or min_size == 0:
        return c
    vs = builder.create_intrinsic("vscale", [ty], [], return_type=ty)
    if min_size == 1:
        return vs
    return builder.create_mul(vs, c)


def _const_of(ty: Type, v: int) -> Constant:
    from llvmpy_mid.transform.instcombine.common import get_int_constant

    return get_int_constant(ty, v)


def ic_emit_gep_offset(ic: InstCombiner, gep: Value, rewrite_gep: bool = False) -> Value:
    """``InstCombinerImpl::EmitGEPOffset``: with ``rewrite_gep``, a non-trivial GEP with
    other uses becomes ``gep i8, base, offset`` so the arithmetic is not duplicated."""
    builder = ic.builder
    if not rewrite_gep:
        return emit_gep_offset(builder, ic.dl, gep)
    saved = (builder.block, builder.insert_before, builder.debug_loc)
    inst = gep if isinstance(gep, Instruction) else None
    if inst is not None:
        builder.position_before(inst)
        builder.debug_loc = inst.debug_loc
    try:
        offset = emit_gep_offset(builder, ic.dl, gep)
        if (
            inst is not None
            and not gep.has_one_use
            and not gep_has_all_constant_indices(gep)
            and not gep_source_element_type(gep).is_integer_bits(8)
        ):
            ctx = gep.type.context
            new = builder.create_gep(ctx.i8, inst.operands[0], [offset], "", flags=gep_flags(gep))
            ic.replace_inst_uses_with(inst, new)
            ic.erase_inst_from_function(inst)
        return offset
    finally:
        builder.block, builder.insert_before, builder.debug_loc = saved


# =================================================================================================
# visitGetElementPtrInst
# =================================================================================================


def _create_ptr_add(builder: IRBuilder, ptr: Value, offset: Value, name: str = "", flags: int = 0) -> Value:
    """``CreatePtrAdd``: ``getelementptr i8, ptr, offset``."""
    return builder.create_gep(ptr.type.context.i8, ptr, [offset], name, flags=flags)


def fold_select_gep(ic: InstCombiner, gep: GetElementPtrInst) -> Instruction | None:
    """gep (select C, TC, FC), Idx... -> select C, (gep TC, Idx...), (gep FC, Idx...)
    for constant indices and arms (LLVM ``foldSelectGEP``)."""
    if not gep.has_all_constant_indices:
        return None
    sel = gep.pointer_operand
    if not isinstance(sel, SelectInst):
        return None
    tc, fc = sel.true_value, sel.false_value
    if not isinstance(tc, Constant) or not isinstance(fc, Constant):
        return None
    idx = gep.indices
    flags = int(gep.gep_flags)
    ty = gep.source_element_type
    b = ic.builder
    new_t = b.create_gep(ty, tc, idx, "", flags=flags)
    new_f = b.create_gep(ty, fc, idx, "", flags=flags)
    new = SelectInst(sel.condition, new_t, new_f)
    from llvmpy_mid.transform.instcombine.common import copy_metadata_from

    copy_metadata_from(new, sel)
    return new


_P_ADD_LIKE = pm.m_combine_or(pm.m_add(pm.m_value("v"), pm.m_apint("c")), pm.m_disjoint_or(pm.m_value("v"), pm.m_apint("c")))


def canonicalize_gep_of_const_gep_i8(ic: InstCombiner, gep: GetElementPtrInst, src: Value) -> Instruction | None:
    """gep T, (gep i8, base, C1), (Index + C2) -> gep T, (gep i8, base, C1 + C2 * sizeof(T)), Index
    (LLVM ``canonicalizeGEPOfConstGEPI8``)."""
    if gep.num_indices != 1:
        return None
    dl = ic.dl
    if not (gep_source_element_type(src).is_integer_bits(8) and len(src._operands) == 2):  # type: ignore[attr-defined]
        return None
    c1v = src._operands[1].value  # type: ignore[attr-defined]
    m1 = pm.match(c1v, pm.m_apint("c"))
    if m1 is None:
        return None
    base = src._operands[0].value  # type: ignore[attr-defined]
    ptr_ty = src.type.scalar_type
    index_bits = dl.index_type_size_in_bits(ptr_ty)
    m2 = pm.match(gep.operands[1], _P_ADD_LIKE)
    if m2 is None:
        return None
    if cast(IntegerType, c1v.type.scalar_type).width != index_bits:
        return None
    if cast(IntegerType, gep.operands[1].type.scalar_type).width != index_bits:
        return None
    base_ty = gep.source_element_type
    if isinstance(base_ty, VectorType) and base_ty.scalable:
        return None
    size = dl.type_alloc_size(base_ty)
    mask = (1 << index_bits) - 1
    new_off = (size * m2.apint("c") + m1.apint("c")) & mask
    if new_off == 0 or (src.has_one_use and gep.operands[1].has_one_use):
        ctx = gep.type.context
        gconst = _create_ptr_add(ic.builder, base, ConstantInt.get(ctx.int_type(index_bits), new_off))
        return GetElementPtrInst(base_ty, gconst, [m2.value("v")])
    return None


def should_merge_geps(gep: Value, src: Value) -> bool:
    """A GEP with all-zero indices merges only into a trivial or single-use source
    (LLVM ``shouldMergeGEPs``)."""
    if gep_has_all_zero_indices(gep) and not gep_has_all_constant_zero(src) and not src.has_one_use:
        return False
    return True


def gep_has_all_constant_zero(v: Value) -> bool:
    return gep_has_all_zero_indices(v)


def visit_gep_of_gep(ic: InstCombiner, gep: GetElementPtrInst, src: Value) -> Instruction | None:
    """gep (gep P, A...), B... -> one gep of P when the joined index sum simplifies
    or the offsets are constants (LLVM ``visitGEPOfGEP``)."""
    if not should_merge_geps(gep, src):
        return None
    r = canonicalize_gep_of_const_gep_i8(ic, gep, src)
    if r is not None:
        return r
    dl = ic.dl
    b = ic.builder
    ctx = gep.type.context
    ptr_ty = src.type.scalar_type
    merged_inbounds = gep_is_inbounds(src) and gep.inbounds
    src_indices = gep_indices(src)
    if gep.has_all_constant_indices and (src.has_one_use or gep_has_all_constant_indices(src)):
        steps = gep_type_steps(gep_source_element_type(src), src_indices)
        base_type = gep_source_element_type(src)
        is_first_type = True
        num_var = 0
        for k, idx in enumerate(src_indices):
            if not isinstance(idx, ConstantInt):
                base_type = steps[k].indexed_type
                is_first_type = False
                num_var = k + 1
        iw = dl.index_type_size_in_bits(ptr_ty)
        offset = 0
        if num_var != len(src_indices):
            if isinstance(base_type, VectorType) and base_type.scalable:
                return None
            const_idx: list[int] = []
            if not is_first_type:
                const_idx.append(0)
            for idx in src_indices[num_var:]:
                ci = cast(ConstantInt, idx)
                const_idx.append(_signed(ci.value, ci.width))
            offset += dl.indexed_offset_in_type(base_type, const_idx)
        g_off = accumulate_constant_offset(dl, gep, iw)
        if g_off is None:
            return None
        offset = (offset + g_off) & ((1 << iw) - 1)
        offset_old = offset
        indices, _end_ty, rem = dl.gep_indices_for_offset(base_type, _signed(offset, iw), iw)
        if rem != 0 or (not is_first_type and indices[0] != 0):
            if gep_has_all_constant_indices(src):
                new = b.create_gep(
                    ctx.i8, src._operands[0].value, [ConstantInt.get(ctx.int_type(iw), offset_old)], "",  # type: ignore[attr-defined]
                    inbounds=merged_inbounds,
                )
                return ic.replace_inst_uses_with(gep, new)
            return None
        is_inbounds = merged_inbounds
        new_indices: list[Value] = list(src_indices[:num_var])
        first_nonneg = indices[0] >= 0
        widths = _gep_index_widths(base_type, indices, iw)
        for pos in range(0 if is_first_type else 1, len(indices)):
            idx_val = indices[pos]
            new_indices.append(ConstantInt.get(ctx.int_type(widths[pos]), idx_val))
            is_inbounds = is_inbounds and ((_signed(idx_val, widths[pos]) >= 0) == first_nonneg)
        new = b.create_gep(gep_source_element_type(src), src._operands[0].value, new_indices, "", inbounds=is_inbounds)  # type: ignore[attr-defined]
        return ic.replace_inst_uses_with(gep, new)

    if gep_result_element_type(src) is not gep.source_element_type:
        return None
    new_idx: list[Value] = []
    steps = gep_type_steps(gep_source_element_type(src), src_indices)
    ends_with_sequential = bool(steps) and not steps[-1].is_struct
    if ends_with_sequential:
        so1 = src._operands[-1].value  # type: ignore[attr-defined]
        go1 = gep.operands[1]
        if so1.type is not go1.type:
            return None
        total = simplify_add_inst(go1, so1, False, False, ic.query(gep))
        if total is None:
            return None
        if len(src._operands) == 2:  # type: ignore[attr-defined]
            gep.inbounds = merged_inbounds
            ic.replace_operand(gep, 0, src._operands[0].value)  # type: ignore[attr-defined]
            ic.replace_operand(gep, 1, total)
            return gep
        new_idx.extend(src_indices[:-1])
        new_idx.append(total)
        new_idx.extend(gep.operands[2:])
    elif isinstance(gep.operands[1], Constant) and gep.operands[1].is_null_value and len(src._operands) != 1:  # type: ignore[attr-defined]
        new_idx.extend(src_indices)
        new_idx.extend(gep.operands[2:])
    if new_idx:
        new = b.create_gep(gep_source_element_type(src), src._operands[0].value, new_idx, "", inbounds=merged_inbounds)  # type: ignore[attr-defined]
        return ic.replace_inst_uses_with(gep, new)
    return None


def _gep_index_widths(base: Type, indices: Sequence[int], iw: int) -> list[int]:
    """Widths of the indices ``getGEPIndicesForOffset`` gives: 32 for struct fields, else
    the index width."""
    widths = [iw]
    ty: Type = base
    for pos in range(1, len(indices)):
        if isinstance(ty, StructType):
            widths.append(32)
            ty = ty.elements[indices[pos]]
        else:
            widths.append(iw)
            ty = cast(ArrayType, ty).element_type
    return widths


def _type_at_index(ty: Type, idx: Value) -> Type | None:
    """``GetElementPtrInst::getTypeAtIndex``."""
    if isinstance(ty, StructType):
        k = _struct_index(idx)
        if k is None or not 0 <= k < len(ty.elements):
            return None
        return ty.elements[k]
    if isinstance(ty, (ArrayType, VectorType)):
        return ty.element_type
    return None


def _fold_gep_of_phi(ic: InstCombiner, gep: GetElementPtrInst, pn: PHINode) -> Instruction | None:
    """gep (phi [gep A, ...], [gep B, ...]) -> gep (gep (phi A B) ...) when the incoming
    GEPs differ in at most one operand (LLVM ``visitGetElementPtrInst``, PHI case)."""
    op1 = pn.operands[0] if pn.operands else None
    if not isinstance(op1, GetElementPtrInst):
        return None
    if op1 is gep:
        return None
    di = -1
    n_ops = len(op1.operands)
    for op2 in pn.operands[1:]:
        if not isinstance(op2, GetElementPtrInst) or n_ops != len(op2.operands) or op1.source_element_type is not op2.source_element_type:
            return None
        if op2 is gep:
            return None
        cur_ty: Type | None = None
        for j in range(n_ops):
            a = op1.operands[j]
            bv = op2.operands[j]
            if a.type is not bv.type:
                return None
            if a is not bv:
                if di == -1:
                    if j > 1:
                        assert cur_ty is not None
                        if isinstance(cur_ty, StructType):
                            return None
                    di = j
                else:
                    return None
            if j > 0:
                if j == 1:
                    cur_ty = op1.source_element_type
                else:
                    assert cur_ty is not None
                    cur_ty = _type_at_index(cur_ty, op1.operands[j])
    if di != -1 and not pn.has_one_use:
        return None
    new_gep = cast(GetElementPtrInst, op1.clone())
    if di != -1:
        b = ic.builder
        saved = (b.block, b.insert_before, b.debug_loc)
        b.position_before(pn)
        b.debug_loc = pn.debug_loc
        new_pn = b.phi(op1.operands[di].type)
        b.block, b.insert_before, b.debug_loc = saved
        for k in range(pn.num_incoming):
            inc = cast(GetElementPtrInst, pn.get_incoming_value(k))
            new_pn.add_incoming(inc.operands[di], pn.get_incoming_block(k))
        new_gep.set_operand(di, new_pn)
    bb = gep.parent
    assert bb is not None
    first = bb.first_non_phi
    if first is not None and first.opcode in ("landingpad", "catchpad", "cleanuppad"):
        first = first.next_instruction
    assert first is not None
    new_gep.insert_before(first)
    return ic.replace_operand(gep, 0, new_gep)


_P_MUL_OR_SHL_CI = pm.m_one_use(pm.m_combine_or(pm.m_mul(pm.m_value(), pm.m_constant_int(splat=False)), pm.m_shl(pm.m_value(), pm.m_constant_int(splat=False))))
_P_PTRDIFF = pm.m_sub(pm.m_ptrtoint(pm.m_value("y")), pm.m_ptrtoint(pm.m_value("x")))


def visit_getelementptr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Simplify, canonicalize index types, constant GEPs to ``i8``, merge GEP chains,
    GEP of phi/select, infer ``inbounds`` (LLVM ``visitGetElementPtrInst``)."""
    assert isinstance(i, GetElementPtrInst)
    gep = i
    dl = ic.dl
    ptr_op = gep.operands[0]
    indices = gep.indices
    gep_type = gep.type
    gep_elt_type = gep.source_element_type
    v = simplify_gep_inst(gep_elt_type, ptr_op, indices, int(gep.gep_flags), ic.query(gep))
    if v is not None:
        return ic.replace_inst_uses_with(gep, v)

    if isinstance(gep_type, VectorType) and not gep_type.scalable:
        r = _simplify_demanded_vector_gep(ic, gep, gep_type.count)
        if r is not None:
            return r

    # Index types and zero-sized elements.
    made_change = False
    new_scalar_idx_ty = dl.index_type(gep.pointer_operand_type.scalar_type)
    steps = gep_type_steps(gep_elt_type, indices)
    b = ic.builder
    for k, step in enumerate(steps):
        if step.is_struct:
            continue
        use = gep._operands[k + 1]
        idx = use.value
        idx_ty = idx.type
        new_idx_ty: Type = (
            idx_ty.context.vector_type(new_scalar_idx_ty, idx_ty.count, idx_ty.scalable)
            if isinstance(idx_ty, VectorType)
            else new_scalar_idx_ty
        )
        elt_ty = step.indexed_type
        if elt_ty.is_sized and not (isinstance(elt_ty, VectorType) and elt_ty.scalable) and dl.type_alloc_size(elt_ty) == 0:
            if not isinstance(idx, Constant) or pm.match(idx, pm.m_zero()) is None:
                gep.set_operand(k + 1, Constant.get_null_value(new_idx_ty))
                made_change = True
                idx = gep.operands[k + 1]
                idx_ty = idx.type
        if idx_ty is not new_idx_ty:
            gep.set_operand(k + 1, create_int_cast(b, idx, new_idx_ty, True))
            made_change = True
    if made_change:
        return gep

    # Constant GEPs become i8 GEPs.
    if not gep_elt_type.is_integer_bits(8) and gep.has_all_constant_indices:
        w = dl.index_type_size_in_bits(gep_type)
        off = accumulate_constant_offset(dl, gep, w)
        if off is not None:
            new = _create_ptr_add(b, ptr_op, ConstantInt.get(gep_type.context.int_type(w), off), "", int(gep.gep_flags))
            return ic.replace_inst_uses_with(gep, new)

    # gep T, p, mul(O, C) -> gep i8, p, mul(O, C * sizeof(T)) (scalable: via vscale).
    if dl.is_scalable(gep_elt_type) or (
        not gep_elt_type.is_integer_bits(8) and gep.num_indices == 1 and pm.match(gep.operands[1], _P_MUL_OR_SHL_CI) is not None
    ):
        offset = ic_emit_gep_offset(ic, gep)
        new = _create_ptr_add(b, ptr_op, offset, "", int(gep.gep_flags))
        return ic.replace_inst_uses_with(gep, new)

    if isinstance(ptr_op, PHINode):
        return _fold_gep_of_phi(ic, gep, ptr_op)

    if is_gep(ptr_op):
        r = visit_gep_of_gep(ic, gep, ptr_op)
        if r is not None:
            return r

    if gep.num_indices == 1:
        idx1 = gep.operands[1]
        if cast(IntegerType, idx1.type.scalar_type).width == dl.index_size_in_bits(gep.pointer_address_space):
            ty_alloc_size = dl.type_alloc_size(gep_elt_type)
            if ty_alloc_size == 1:
                x = gep.pointer_operand
                m = pm.match(idx1, _P_PTRDIFF)
                if m is not None and m.x is x and m.value("y").type is gep_type:
                    y = m.value("y")
                    same = get_underlying_object(x) is get_underlying_object(y)
                    changed = False

                    def pred(u: Use) -> bool:
                        nonlocal changed
                        usr = u.user
                        ok = same or isinstance(usr, ICmpInst) or getattr(usr, "opcode", None) == "ptrtoint"
                        changed |= ok
                        return ok

                    gep.replace_uses_with_if(y, pred)
                    return gep if changed else None
            elif isinstance(idx1, BinaryOperator) and idx1.has_exact_flag:
                r = _fold_exact_index(ic, gep, idx1, ty_alloc_size)
                if r is not None:
                    return r

    if isinstance(gep_type, VectorType):
        return None

    if gep.num_indices == 1:
        r = _fold_add_index(ic, gep)
        if r is not None:
            return r

    if not gep.inbounds:
        r = _infer_inbounds(ic, gep)
        if r is not None:
            return r

    return fold_select_gep(ic, gep)


def _simplify_demanded_vector_gep(ic: InstCombiner, gep: GetElementPtrInst, width: int) -> Instruction | None:
    from llvmpy_mid.transform.instcombine import simplify_demanded as sd

    fn = getattr(sd, "simplify_demanded_vector_elts", None)
    if fn is None:
        return None
    poison_elts: list[int] = [0]
    v: Value | None = fn(ic, gep, (1 << width) - 1, poison_elts)
    if v is None:
        return None
    if v is not gep:
        return ic.replace_inst_uses_with(gep, v)
    return gep


def _fold_exact_index(ic: InstCombiner, gep: GetElementPtrInst, ex: BinaryOperator, size: int) -> Instruction | None:
    """gep T, X, (V exact/ sizeof(T)) -> gep i8, X, V; gep T, X, (V exact/ C) ->
    gep i8, X, (V exact/ (C / sizeof(T)))."""
    if not ex.exact:
        return None
    ctx = gep.type.context
    op = ex.opcode
    v = ex.operands[0]
    c = pm.match(ex.operands[1], pm.m_apint("c"))
    single_bit = size > 0 and size & (size - 1) == 0
    tz = (size & -size).bit_length() - 1 if size else 0
    if c is not None:
        cv = c.apint("c")
        w = cast(IntegerType, ex.type.scalar_type).width
        if (single_bit and op in ("lshr", "ashr") and cv == tz) or (op in ("udiv", "sdiv") and cv == size):
            return GetElementPtrInst(ctx.i8, gep.pointer_operand, [v], flags=int(gep.gep_flags))
        if ex.has_one_use:
            new_c: int | None = None
            if single_bit and op in ("lshr", "ashr") and cv >= tz:
                new_c = cv - tz
            elif op == "udiv":
                q, rem = divmod(cv, size)
                if rem == 0:
                    new_c = q
            elif op == "sdiv":
                sc = _signed(cv, w)
                q = abs(sc) // size * (1 if sc >= 0 else -1)
                rem = sc - q * size
                if q != -1 and rem == 0:
                    new_c = q & ((1 << w) - 1)
            if new_c is not None:
                from llvmpy_mid.transform.instcombine.common import get_int_constant

                new_op = ic.builder.create_bin_op(op, v, get_int_constant(v.type, new_c))
                assert isinstance(new_op, BinaryOperator)
                new_op.exact = True
                return GetElementPtrInst(ctx.i8, gep.pointer_operand, [new_op], flags=int(gep.gep_flags))
    return None


_P_ADD_ONE_USE = pm.m_one_use(pm.m_add(pm.m_value("a"), pm.m_value("b")))
_P_SEXT_NSW_ADD = pm.m_one_use(
    pm.m_combine_or(
        pm.m_sext(pm.m_one_use(pm.m_nsw_add(pm.m_value("a"), pm.m_constant_int("c")))),
        pm.m_nneg_zext(pm.m_one_use(pm.m_nsw_add(pm.m_value("a"), pm.m_constant_int("c")))),
    )
)


def _fold_add_index(ic: InstCombiner, gep: GetElementPtrInst) -> Instruction | None:
    """gep T, p, (a + b) -> gep T, (gep T, p, a), b; gep T, p, sext(a +nsw C) ->
    gep T, (gep T, p, sext a), sext C."""
    q = ic.query(gep)
    b = ic.builder
    ty = gep.source_element_type

    def can_preserve_inbounds(add_is_nsw: bool, i1: Value, i2: Value) -> bool:
        return gep.inbounds and add_is_nsw and is_known_non_negative(i1, q) and is_known_non_negative(i2, q)

    idx = gep.operands[1]
    m = pm.match(idx, _P_ADD_ONE_USE)
    if m is not None:
        i1, i2 = m.value("a"), m.value("b")
        inb = can_preserve_inbounds(cast(BinaryOperator, idx).nsw, i1, i2)
        new_ptr = b.create_gep(ty, gep.pointer_operand, [i1], "", inbounds=inb)
        return ic.replace_inst_uses_with(gep, b.create_gep(ty, new_ptr, [i2], "", inbounds=inb))
    m = pm.match(idx, _P_SEXT_NSW_ADD)
    if m is not None:
        i1 = m.value("a")
        c = m.constant_int("c")
        inb = can_preserve_inbounds(True, i1, c)
        new_ptr = b.create_gep(ty, gep.pointer_operand, [b.create_sext(i1, idx.type)], "", inbounds=inb)
        return ic.replace_inst_uses_with(gep, b.create_gep(ty, new_ptr, [b.create_sext(c, idx.type)], "", inbounds=inb))
    return None


def _infer_inbounds(ic: InstCombiner, gep: GetElementPtrInst) -> Instruction | None:
    """gep p, C -> gep inbounds p, C when p is dereferenceable (not null, not freed)
    for at least the offset's bytes."""
    from llvmpy_mid.analysis.loads import get_pointer_dereferenceable_bytes

    dl = ic.dl
    ptr_op = gep.pointer_operand
    iw = dl.index_size_in_bits(gep.pointer_address_space)
    base, base_off = strip_and_accumulate_constant_offsets(ptr_op, dl, False)
    deref, can_be_null, can_be_freed = get_pointer_dereferenceable_bytes(base, dl)
    if can_be_null or can_be_freed or deref == 0:
        return None
    g = accumulate_constant_offset(dl, gep, iw)
    if g is None:
        return None
    total = _signed(base_off + g, iw)
    if total < 0:
        return None
    if total <= deref:
        return GetElementPtrInst(gep.source_element_type, ptr_op, gep.indices, flags=_GEP_INBOUNDS, name=gep.name)
    return None


__all__ = [
    "canonicalize_gep_of_const_gep_i8",
    "create_int_cast",
    "create_vector_splat",
    "emit_gep_offset",
    "fold_select_gep",
    "gep_accumulate_constant_offset",
    "gep_flags",
    "gep_has_all_constant_indices",
    "gep_has_all_zero_indices",
    "gep_indices",
    "gep_is_inbounds",
    "gep_result_element_type",
    "gep_source_element_type",
    "gep_type_steps",
    "ic_emit_gep_offset",
    "is_gep",
    "should_merge_geps",
    "visit_gep_of_gep",
    "visit_getelementptr",
]
