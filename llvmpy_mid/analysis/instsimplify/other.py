"""GEP, casts, aggregates, vectors, phi, freeze and load of
InstructionSimplify (LLVM 19.1.7 ``llvm/lib/Analysis/InstructionSimplify.cpp``:
``simplifyGEPInst``,
``simplifyCastInst``, ``simplifyInsertValueInst``/``simplifyExtractValueInst``,
``simplifyInsertElementInst``/``simplifyExtractElementInst``,
``simplifyShuffleVectorInst``, ``simplifyPHINode``, ``simplifyFreezeInst``,
``simplifyLoadInst`` and ``simplifyWithOpReplaced``).
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector, PoisonValue, UndefValue, get_splat_value
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    ExtractValueInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
)
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value

RECURSION_LIMIT = u.RECURSION_LIMIT
P = Predicate


# --- operand substitution ------------------------------------------------------------------------


def simplify_with_op_replaced(
    v: Value,
    op: Value,
    rep_op: Value,
    q: SimplifyQuery,
    allow_refinement: bool,
    drop_flags: list[Instruction] | None,
    max_recurse: int = RECURSION_LIMIT,
) -> Value | None:
    """``v`` with ``op`` replaced by ``rep_op``, simplified (LLVM
    ``simplifyWithOpReplaced``); None when nothing simpler comes out."""
    if v is op:
        return rep_op
    if not max_recurse:
        return None
    max_recurse -= 1
    if isinstance(op, Constant):
        return None
    if not isinstance(v, Instruction) or isinstance(v, PHINode):
        return None
    if op.type.is_vector:
        if not v.type.is_vector or isinstance(v, (ShuffleVectorInst, CallBase)) or v.opcode == "bitcast":
            return None
    if u.intrinsic_name(v) == "llvm.is.constant" or isinstance(v, FreezeInst):
        return None
    new_ops: list[Value] = []
    any_replaced = False
    for inst_op in v.operands:
        r = simplify_with_op_replaced(inst_op, op, rep_op, q, allow_refinement, drop_flags, max_recurse)
        if r is not None:
            new_ops.append(r)
            any_replaced = inst_op is not r
        else:
            new_ops.append(inst_op)
        if isinstance(new_ops[-1], UndefValue) and not q.can_use_undef:
            return None
    if not any_replaced:
        return None
    if not allow_refinement:
        if isinstance(v, BinaryOperator):
            opc = v.opcode
            from llvmpy_mid.ir.constant_fold import get_bin_op_identity

            if new_ops[0] is get_bin_op_identity(opc, v.type, False):
                return new_ops[1]
            if new_ops[1] is get_bin_op_identity(opc, v.type, True):
                return new_ops[0]
            if opc in ("and", "or") and new_ops[0] is new_ops[1]:
                if opc == "or" and v.disjoint:
                    if drop_flags is None:
                        return None
                    drop_flags.append(v)
                return new_ops[0]
            if opc in ("sub", "xor") and new_ops[0] is rep_op and new_ops[1] is rep_op:
                return u.null(v.type)
            absorber = _absorber(opc, v.type)
            if absorber is not None and (new_ops[0] is absorber or new_ops[1] is absorber):
                from llvmpy_mid.analysis.value_tracking import implies_poison

                if implies_poison(v, op):
                    return absorber
        if isinstance(v, GetElementPtrInst):
            if len(new_ops) == 2 and u.is_zero(new_ops[1]):
                return new_ops[0]
    else:
        from llvmpy_mid.analysis.instruction_simplify import _simplify_with_operands

        r = _simplify_with_operands(v, new_ops, q, max_recurse)
        return r if r is not v else None
    const_ops: list[Constant] = []
    for nop in new_ops:
        if not isinstance(nop, Constant):
            return None
        const_ops.append(nop)
    from llvmpy_mid.analysis.value_tracking import can_create_poison, has_poison_generating_annotations

    if can_create_poison(v, drop_flags is None):
        if u.intrinsic_name(v) == "llvm.abs":
            c0 = const_ops[0]
            if not _is_not_min_signed_value(c0):
                return None
        else:
            return None
    res = u.fold_inst_operands(v, const_ops, q)
    if drop_flags is not None and res is not None and has_poison_generating_annotations(v):
        drop_flags.append(v)
    return res


def _is_not_min_signed_value(c: Constant) -> bool:
    """LLVM ``Constant::isNotMinSignedValue``."""
    if isinstance(c, ConstantInt):
        return c.value != c.type.sign_bit
    if isinstance(c.type, VectorType) and not c.type.scalable and not isinstance(c, ConstantExpr):
        for i in range(c.type.count):
            e = c.get_aggregate_element(i)
            if not isinstance(e, ConstantInt) or e.value == e.type.sign_bit:
                return False
        return True
    s = get_splat_value(c)
    return isinstance(s, ConstantInt) and s.value != s.type.sign_bit


def _absorber(opcode: str, ty: Type) -> Constant | None:
    """LLVM ``ConstantExpr::getBinOpAbsorber``: ``x op A == A`` for every x."""
    if opcode == "or":
        return u.all_ones(ty)
    if opcode in ("and", "mul"):
        return u.null(ty)
    return None


# --- getelementptr -----------------------------------------------------------------------------------


def simplify_gep_inst(
    src_ty: Type, ptr: Value, indices: Sequence[Value], flags: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT
) -> Value | None:
    """``getelementptr`` (LLVM ``simplifyGEPInst``)."""
    if not indices:
        return ptr
    ctx = ptr.type.context
    gep_ty = ptr.type
    if not isinstance(gep_ty, VectorType):
        for op in indices:
            if isinstance(op.type, VectorType):
                gep_ty = ctx.vector_type(gep_ty, op.type.count, op.type.scalable)
                break
    if ptr.type is gep_ty and all(u.is_zero(i) for i in indices):
        return ptr
    if isinstance(ptr, PoisonValue) or any(isinstance(i, PoisonValue) for i in indices):
        return u.poison(gep_ty)
    if u.is_undef(q, ptr):
        return u.undef(gep_ty)
    scalable = q.dl.is_scalable(src_ty) or any(isinstance(i.type, VectorType) and i.type.scalable for i in indices)
    dl = q.dl
    if len(indices) == 1 and not scalable and src_ty.is_sized:
        size = dl.type_alloc_size(src_ty)
        if size == 0 and ptr.type is gep_ty:
            return ptr
        as_ = ptr.type.scalar_type.address_space  # type: ignore[attr-defined]
        idx = indices[0]
        if u.scalar_bits(idx.type) == dl.pointer_size_in_bits(as_):
            r = _gep_of_pointer_difference(idx, ptr, size, gep_ty)
            if r is not None:
                return r
    from llvmpy_mid.ir.instructions.gep import get_indexed_type

    last_ty = get_indexed_type(src_ty, list(indices))
    if not scalable and last_ty is not None and dl.type_alloc_size(last_ty) == 1 and all(u.is_zero(i) for i in indices[:-1]):
        idx_w = dl.index_size_in_bits(ptr.type.scalar_type.address_space)  # type: ignore[attr-defined]
        last = indices[-1]
        if dl.type_size_in_bits(last.type) == idx_w:
            import llvmpy_mid.analysis.instsimplify.memory as memory

            base, off = memory.strip_and_accumulate_constant_offsets(ptr, dl, False)
            n = u.neg_of(last)
            if n is not None and u.cast_of(n, "ptrtoint") is base and off != 0:
                ci = ConstantInt.get(ctx.int_type(idx_w), off)
                return u.fold_cast("inttoptr", ci, gep_ty, q)
            xo = u.binop(last, "xor")
            if xo is not None and u.cast_of(xo[0], "ptrtoint") is base and u.is_all_ones(xo[1]) and off != 1:
                ci = ConstantInt.get(ctx.int_type(idx_w), off - 1)
                return u.fold_cast("inttoptr", ci, gep_ty, q)
    if not isinstance(ptr, Constant) or not all(isinstance(i, Constant) for i in indices):
        return None
    if dl.is_scalable(src_ty):
        from llvmpy_mid.ir.constant_fold import constant_fold_get_element_ptr

        return constant_fold_get_element_ptr(src_ty, ptr, None, [i for i in indices if isinstance(i, Constant)])
    return u.fold_gep(src_ty, ptr, [i for i in indices if isinstance(i, Constant)], flags, q)


def _gep_of_pointer_difference(idx: Value, ptr: Value, size: int, gep_ty: Type) -> Value | None:
    from llvmpy_mid.analysis.value_tracking import get_underlying_object

    def diff_of(v: Value) -> Value | None:
        s = u.binop(v, "sub")
        if s is None or u.cast_of(s[1], "ptrtoint") is not ptr:
            return None
        return u.cast_of(s[0], "ptrtoint")

    def ok(p: Value) -> bool:
        return p.type is gep_ty and get_underlying_object(p) is get_underlying_object(ptr)

    if size == 1:
        p = diff_of(idx)
        if p is not None and ok(p):
            return p
    sh = u.binop(idx, "ashr")
    if sh is not None and isinstance(sh[1], ConstantInt):
        p = diff_of(sh[0])
        if p is not None and sh[1].value < 64 and size == 1 << sh[1].value and ok(p):
            return p
    dv = u.binop(idx, "sdiv")
    if dv is not None and u.is_specific_int(dv[1], size):
        p = diff_of(dv[0])
        if p is not None and ok(p):
            return p
    return None


# --- casts ---------------------------------------------------------------------------------------------


def simplify_cast_inst(opcode: str, op: Value, ty: Type, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """A cast (LLVM ``simplifyCastInst``): constant folding, a cast pair that
    is a no-op, a bitcast to the same type, ``ptrtoint (ptradd P, X - ptrtoint P)``."""
    if isinstance(op, Constant):
        return u.fold_cast(opcode, op, ty, q)
    if isinstance(op, CastInst):
        src = op.operand
        src_ty = src.type
        mid_ty = op.type
        if src_ty is ty:
            from llvmpy_mid.ir.constant_fold import is_eliminable_cast_pair

            dl = q.dl
            sip = dl.int_ptr_type(src_ty) if src_ty.is_ptr_or_ptr_vector else None
            mip = dl.int_ptr_type(mid_ty) if mid_ty.is_ptr_or_ptr_vector else None
            dip = dl.int_ptr_type(ty) if ty.is_ptr_or_ptr_vector else None
            if is_eliminable_cast_pair(op.opcode, opcode, src_ty, mid_ty, ty, sip, mip, dip) == "bitcast":
                return src
    if opcode == "bitcast" and op.type is ty:
        return op
    if opcode == "ptrtoint" and isinstance(op, GetElementPtrInst) and op.num_indices == 1:
        if op.source_element_type.is_sized and q.dl.type_alloc_size(op.source_element_type) == 1:
            ptr = op.pointer_operand
            s = u.binop(op.indices[0], "sub")
            if s is not None and u.cast_of(s[1], "ptrtoint") is ptr:
                x = s[0]
                if x.type is ty and ty is q.dl.index_type(ptr.type):
                    return x
    return None


# --- aggregates and vectors ----------------------------------------------------------------------------


def simplify_insert_value_inst(agg: Value, val: Value, idxs: Sequence[int], q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``insertvalue`` (LLVM ``simplifyInsertValueInst``)."""
    if isinstance(agg, Constant) and isinstance(val, Constant):
        from llvmpy_mid.ir.constant_fold import constant_fold_insert_value

        return constant_fold_insert_value(agg, val, idxs)
    from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_poison

    if isinstance(val, PoisonValue) or (u.is_undef(q, val) and is_guaranteed_not_to_be_poison(agg)):
        return agg
    if isinstance(val, ExtractValueInst):
        src = val.aggregate_operand
        if src.type is agg.type and tuple(val.indices) == tuple(idxs):
            if isinstance(agg, PoisonValue) or (u.is_undef(q, agg) and is_guaranteed_not_to_be_poison(src)):
                return src
            if agg is src:
                return agg
    return None


def simplify_insert_element_inst(vec: Value, val: Value, idx: Value, q: SimplifyQuery) -> Value | None:
    """``insertelement`` (LLVM ``simplifyInsertElementInst``)."""
    if isinstance(vec, Constant) and isinstance(val, Constant) and isinstance(idx, Constant):
        return u.fold_insert_element(vec, val, idx)
    vty = vec.type
    if isinstance(idx, ConstantInt) and isinstance(vty, VectorType) and not vty.scalable and idx.value >= vty.count:
        return u.poison(vty)
    if u.is_undef(q, idx):
        return u.poison(vty)
    from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_poison

    if isinstance(val, PoisonValue) or (u.is_undef(q, val) and is_guaranteed_not_to_be_poison(vec)):
        return vec
    if isinstance(val, ExtractElementInst) and val.vector_operand is vec and val.index_operand is idx:
        return vec
    return None


def simplify_extract_value_inst(agg: Value, idxs: Sequence[int], q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``extractvalue`` through the chain of ``insertvalue`` that built the aggregate."""
    if isinstance(agg, Constant):
        from llvmpy_mid.ir.constant_fold import constant_fold_extract_value

        return constant_fold_extract_value(agg, idxs)
    n = len(idxs)
    ivi = agg if isinstance(agg, InsertValueInst) else None
    want = tuple(idxs)
    while ivi is not None:
        ins = tuple(ivi.indices)
        common = min(len(ins), n)
        if ins[:common] == want[:common]:
            if n == len(ins):
                return ivi.inserted_value_operand
            break
        nxt = ivi.aggregate_operand
        ivi = nxt if isinstance(nxt, InsertValueInst) else None
    return None


def simplify_extract_element_inst(vec: Value, idx: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``extractelement`` (LLVM ``simplifyExtractElementInst``)."""
    vty = vec.type
    assert isinstance(vty, VectorType)
    if isinstance(vec, Constant):
        if isinstance(idx, Constant):
            return u.fold_extract_element(vec, idx)
        if u.is_undef(q, vec):
            return u.undef(vty.element_type)
    if u.is_undef(q, idx):
        return u.poison(vty.element_type)
    if isinstance(idx, ConstantInt):
        if not vty.scalable and idx.value >= vty.count:
            return u.poison(vty.element_type)
        if idx.value < vty.count:
            s = _get_splat_value(vec)
            if s is not None:
                return s
        e = find_scalar_element(vec, idx.value)
        if e is not None:
            return e
    else:
        if isinstance(vec, InsertElementInst) and vec.index_operand is idx:
            return vec.element_operand
        s = _get_splat_value(vec)
        if s is not None:
            return s
    return None


def _get_splat_value(v: Value) -> Value | None:
    """The scalar every lane of ``v`` holds (LLVM ``getSplatValue``): a splat
    constant, or ``shufflevector (insertelement ?, X, 0), ?, zeroinitializer``."""
    if isinstance(v, Constant):
        return get_splat_value(v)
    if isinstance(v, ShuffleVectorInst) and all(m == 0 for m in v.mask):
        ins = v.get_operand(0)
        if isinstance(ins, InsertElementInst) and u.is_zero_int(ins.index_operand):
            return ins.element_operand
    return None


def is_splat_value(v: Value) -> bool:
    """Every lane of ``v`` is the same value (LLVM ``isSplatValue``, without the
    recursion through binary operators): a splat constant or a broadcast shuffle."""
    if isinstance(v, Constant):
        return isinstance(v.type, VectorType) and get_splat_value(v) is not None
    if isinstance(v, ShuffleVectorInst):
        mask = v.mask
        first = next((m for m in mask if m >= 0), None)
        return first is not None and all(m == first or m < 0 for m in mask)
    return False


def find_scalar_element(v: Value, idx: int) -> Value | None:
    """The scalar at lane ``idx`` of ``v`` when it can be read off the IR
    (LLVM ``findScalarElement``), iteratively."""
    for _ in range(64):
        vty = v.type
        if not isinstance(vty, VectorType):
            return None
        width = vty.count
        if not vty.scalable and idx >= width:
            return u.poison(vty.element_type)
        if isinstance(v, Constant):
            return v.get_aggregate_element(idx)
        if isinstance(v, InsertElementInst):
            ie_idx = v.index_operand
            if not isinstance(ie_idx, ConstantInt):
                if v.element_operand is v:
                    return None
                return None
            if ie_idx.value == idx:
                return v.element_operand
            if vty.scalable:
                return None
            v = v.vector_operand
            continue
        if isinstance(v, ShuffleVectorInst):
            if vty.scalable:
                return None
            lhs_width = v.source_length
            m = v.mask[idx]
            if m < 0:
                return u.poison(vty.element_type)
            if m < lhs_width:
                v = v.get_operand(0)
                idx = m
            else:
                v = v.get_operand(1)
                idx = m - lhs_width
            continue
        ops = u.binop(v, "add")
        if ops is not None and isinstance(v, BinaryOperator):
            if u.is_zero(ops[1]):
                v = ops[0]
                continue
        return None
    return None


def _fold_identity_shuffles(dest: int, op0: Value, op1: Value, mask_val: int, root: Value | None, max_recurse: int) -> Value | None:
    while True:
        if not max_recurse:
            return None
        max_recurse -= 1
        if mask_val == -1:
            return None
        n = op0.type.count  # type: ignore[attr-defined]
        root_elt = mask_val
        source = op0
        if mask_val >= n:
            root_elt = mask_val - n
            source = op1
        if isinstance(source, ShuffleVectorInst):
            op0 = source.get_operand(0)
            op1 = source.get_operand(1)
            mask_val = source.get_mask_value(root_elt)
            continue
        if root is None:
            root = source
        if root is not source or root_elt != dest:
            return None
        return root


def simplify_shuffle_vector_inst(op0: Value, op1: Value, mask: Sequence[int], ret_ty: Type, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``shufflevector`` (LLVM ``simplifyShuffleVectorInst``)."""
    if all(m == -1 for m in mask):
        return u.poison(ret_ty)
    in_ty = op0.type
    assert isinstance(in_ty, VectorType)
    n_mask = len(mask)
    scalable = in_ty.scalable
    indices = list(mask)
    if not scalable:
        n = in_ty.count
        sel0 = any(0 <= m < n for m in indices)
        sel1 = any(m >= n for m in indices)
        if not sel0:
            op0 = u.poison(in_ty)
        if not sel1:
            op1 = u.poison(in_ty)
    if isinstance(op0, Constant) and isinstance(op1, Constant):
        return u.fold_shuffle_vector(op0, op1, mask)
    if not scalable and isinstance(op0, Constant) and not isinstance(op1, Constant):
        op0, op1 = op1, op0
        n = in_ty.count
        indices = [-1 if m < 0 else (m + n if m < n else m - n) for m in indices]
    if not scalable and isinstance(op0, InsertElementInst):
        c = op0.element_operand
        ic = op0.index_operand
        if isinstance(c, Constant) and isinstance(ic, ConstantInt):
            ins = ic.value
            if all(m == ins or m == -1 for m in indices):
                vals: list[Constant] = [c if m != -1 else u.poison(c.type) for m in indices]
                return ConstantVector.get(vals)
    if isinstance(op0, ShuffleVectorInst) and u.is_undef(q, op1) and ret_ty is in_ty:
        m0 = op0.mask
        if all(x == m0[0] for x in m0):
            return op0
    if scalable or -1 in indices:
        return None
    root: Value | None = None
    for i in range(n_mask):
        root = _fold_identity_shuffles(i, op0, op1, indices[i], root, max_recurse)
        if root is None or root.type is not ret_ty:
            return None
    return root


# --- phi, freeze, load ---------------------------------------------------------------------------------


def simplify_phi_node(pn: PHINode, incoming: Sequence[Value], q: SimplifyQuery) -> Value | None:
    """A phi whose incoming values are one value (undef and poison aside)."""
    common: Value | None = None
    has_poison = False
    has_undef = False
    for v in incoming:
        if v is pn:
            continue
        if isinstance(v, PoisonValue):
            has_poison = True
            continue
        if u.is_undef(q, v):
            has_undef = True
            continue
        if common is not None and v is not common:
            return None
        common = v
    if common is None:
        return u.undef(pn.type) if has_undef else u.poison(pn.type)
    if has_poison or has_undef:
        from llvmpy_mid.analysis.instsimplify.binops import _value_dominates_phi

        return common if _value_dominates_phi(common, pn, q) else None
    return common


def simplify_freeze_inst(op: Value, q: SimplifyQuery) -> Value | None:
    """``freeze X`` is ``X`` when ``X`` is never undef or poison."""
    from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_undef_or_poison

    if is_guaranteed_not_to_be_undef_or_poison(op, q.cxt_i, q.dt):
        return op
    return None


def simplify_load_inst(li: LoadInst, ptr: Value, q: SimplifyQuery) -> Value | None:
    """A load from constant memory (LLVM ``simplifyLoadInst``)."""
    if li.is_volatile:
        return None
    if isinstance(ptr, Constant):
        return u.fold_load(ptr, li.type, q)
    from llvmpy_mid.analysis.value_tracking import get_underlying_object

    gv = get_underlying_object(ptr)
    if not isinstance(gv, GlobalVariable) or not gv.is_constant_global or not _has_definitive_initializer(gv):
        return None
    init = gv.initializer
    assert init is not None
    c = u.fold_load_uniform(init, li.type, q)
    if c is not None:
        return c
    import llvmpy_mid.analysis.instsimplify.memory as memory

    base, off = memory.strip_and_accumulate_constant_offsets(ptr, q.dl, True, True)
    if base is gv:
        return u.fold_load(gv, li.type, q, off)
    return None


def _has_definitive_initializer(gv: GlobalVariable) -> bool:
    if gv.initializer is None or gv.is_declaration:
        return False
    if getattr(gv, "externally_initialized", False):
        return False
    linkage = str(getattr(gv, "linkage", ""))
    return not any(w in linkage for w in ("weak", "linkonce", "common", "extern_weak", "available_externally"))


__all__ = [
    "simplify_with_op_replaced",
    "simplify_gep_inst",
    "simplify_cast_inst",
    "simplify_insert_value_inst",
    "simplify_insert_element_inst",
    "simplify_extract_value_inst",
    "simplify_extract_element_inst",
    "simplify_shuffle_vector_inst",
    "simplify_phi_node",
    "simplify_freeze_inst",
    "simplify_load_inst",
    "find_scalar_element",
]
