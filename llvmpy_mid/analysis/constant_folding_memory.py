"""Loads from constants and bit casts through memory layout (LLVM
``Analysis/ConstantFolding.cpp``: ``FoldBitCast``, ``ReadDataFromGlobal``,
``FoldReinterpretLoadFromConst``, ``ConstantFoldLoadFromConst[Ptr]``,
``ConstantFoldLoadThroughBitcast``, ``ConstantFoldLoadFromUniformValue``).

A load from a constant global reads its initializer's bytes in the data
layout's order, so any type may be loaded at any offset: an ``i16`` from the
middle of a struct, a ``double`` from an ``[8 x i8]``, a pointer from an
``inttoptr`` field. Bit casts between vectors of different lane counts are
laid out the same way. Re-exported by :mod:`llvmpy_mid.analysis.constant_folding`.
"""

from __future__ import annotations

from typing import cast

from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir import constant_fold as cf
from llvmpy_mid.ir import fp_bits
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantArray,
    ConstantDataSequential,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantStruct,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.types import (
    ArrayType,
    FloatingPointType,
    IntegerType,
    PointerType,
    StructType,
    Type,
    TypeID,
    VectorType,
)




def constant_fold_cast_operand(opcode: str, c: Constant, dest: Type, dl: DataLayout) -> Constant | None:
    from llvmpy_mid.analysis.constant_folding import constant_fold_cast_operand as fold

    return fold(opcode, c, dest, dl)


def _int_vector(ctx_ty: Type, width: int, count: int) -> VectorType:
    ctx = ctx_ty.context
    return ctx.vector_type(ctx.int_type(width), count)


def _vector_to_int(c: Constant, dest: Type, src_elt: Type, n: int, dl: DataLayout) -> int | Constant:
    """The integer of a fixed vector's lanes laid end to end (LLVM ``foldConstVectorToAPInt``);
    a constant when a lane is not a known integer (the unfolded bitcast)."""
    shift = dl.type_size_in_bits(src_elt)
    result = 0
    for i in range(n):
        e = c.get_aggregate_element(n - i - 1 if dl.is_little_endian else i)
        if e is not None and isinstance(e, UndefValue):
            result <<= shift
            continue
        if not isinstance(e, ConstantInt):
            return ConstantExpr.get_cast("bitcast", c, dest)
        result = (result << shift) | e.value
    return result & ((1 << dl.type_size_in_bits(dest)) - 1)


def fold_bit_cast(c: Constant, dest: Type, dl: DataLayout) -> Constant:
    """LLVM's DataLayout-aware ``FoldBitCast`` (always gives a constant)."""
    res = constant_fold_load_from_uniform_value(c, dest, dl)
    if res is not None:
        return res
    src_ty = c.type
    if isinstance(src_ty, VectorType) and (isinstance(dest, (IntegerType, FloatingPointType))):
        if src_ty.scalable:
            return ConstantExpr.get_cast("bitcast", c, dest)
        n = src_ty.count
        src_elt = src_ty.element_type
        if isinstance(src_elt, FloatingPointType):
            c = ConstantExpr.get_cast("bitcast", c, _int_vector(c.type, fp_bits.bit_width(src_elt.type_id), n))
        bits = _vector_to_int(c, dest, src_elt, n, dl)
        if isinstance(bits, Constant):
            return bits
        if isinstance(dest, IntegerType):
            return ConstantInt.get(dest, bits)
        return ConstantFP.from_bits(dest, bits)
    if not isinstance(dest, VectorType):
        return ConstantExpr.get_cast("bitcast", c, dest)
    if isinstance(c, (ConstantFP, ConstantInt)):
        return fold_bit_cast(ConstantVector.get([c]), dest, dl)
    if not isinstance(c, (ConstantDataVector, ConstantVector)) or dest.scalable:
        return ConstantExpr.get_cast("bitcast", c, dest)
    cty = c.type
    assert isinstance(cty, VectorType)
    n_dst = dest.count
    n_src = cty.count
    if n_dst == n_src:
        return ConstantExpr.get_cast("bitcast", c, dest)
    src_elt = cty.element_type
    dst_elt = dest.element_type
    if isinstance(dst_elt, FloatingPointType):
        as_int = fold_bit_cast(c, _int_vector(c.type, fp_bits.bit_width(dst_elt.type_id), n_dst), dl)
        return ConstantExpr.get_cast("bitcast", as_int, dest)
    if isinstance(src_elt, FloatingPointType):
        c = ConstantExpr.get_cast("bitcast", c, _int_vector(c.type, fp_bits.bit_width(src_elt.type_id), n_src))
        if not isinstance(c, (ConstantVector, ConstantDataVector)):
            return c
    little = dl.is_little_endian
    out: list[Constant] = []
    assert isinstance(dst_elt, IntegerType)
    if n_dst < n_src:
        ratio = n_src // n_dst
        src_bits = cf.scalar_size_in_bits(src_elt)
        k = 0
        for _ in range(n_dst):
            acc = 0
            sh = 0 if little else src_bits * (ratio - 1)
            for _j in range(ratio):
                src = c.get_aggregate_element(k)
                k += 1
                if src is not None and isinstance(src, UndefValue):
                    v = 0
                elif isinstance(src, ConstantInt):
                    v = src.value
                else:
                    return ConstantExpr.get_cast("bitcast", c, dest)
                acc |= v << sh
                sh += src_bits if little else -src_bits
            out.append(ConstantInt.get(dst_elt, acc))
        return ConstantVector.get(out)
    ratio = n_dst // n_src
    dst_bits = dl.type_size_in_bits(dst_elt)
    for i in range(n_src):
        e = c.get_aggregate_element(i)
        if e is None:
            return ConstantExpr.get_cast("bitcast", c, dest)
        if isinstance(e, UndefValue):
            out.extend([UndefValue.get(dst_elt)] * ratio)
            continue
        if not isinstance(e, ConstantInt):
            return ConstantExpr.get_cast("bitcast", c, dest)
        sh = 0 if little else dst_bits * (ratio - 1)
        for _j in range(ratio):
            out.append(ConstantInt.get(dst_elt, e.value >> sh))
            sh += dst_bits if little else -dst_bits
    return ConstantVector.get(out)


def constant_fold_load_from_uniform_value(c: Constant, ty: Type, dl: DataLayout) -> Constant | None:
    """LLVM ``ConstantFoldLoadFromUniformValue``: a load of any type from poison, undef,
    zero or all-ones memory."""
    if isinstance(c, PoisonValue):
        return PoisonValue.get(ty)
    if isinstance(c, UndefValue):
        return UndefValue.get(ty)
    if not dl.type_size_equals_store_size(c.type):
        return None
    if c.is_null_value and ty.type_id not in (TypeID.X86_MMX, TypeID.X86_AMX):
        try:
            return Constant.get_null_value(ty)
        except Exception:
            return None
    if cf.is_all_ones(c) and (ty.is_int_or_int_vector or ty.is_fp_or_fp_vector):
        return Constant.get_all_ones_value(ty)
    return None


def constant_fold_load_through_bitcast(c: Constant, dest: Type, dl: DataLayout) -> Constant | None:
    """LLVM ``ConstantFoldLoadThroughBitcast``: the value of type ``dest`` at the start of ``c``."""
    cur: Constant | None = c
    while cur is not None:
        src = cur.type
        if src is dest:
            return cur
        if dl.is_scalable(dest) or dl.is_scalable(src):
            return None
        dsize = dl.type_size_in_bits(dest)
        ssize = dl.type_size_in_bits(src)
        if ssize < dsize:
            return None
        res = constant_fold_load_from_uniform_value(cur, dest, dl)
        if res is not None:
            return res
        if ssize == dsize and dl.is_non_integral_pointer_type(src.scalar_type) == dl.is_non_integral_pointer_type(
            dest.scalar_type
        ):
            op = "bitcast"
            if isinstance(src, IntegerType) and isinstance(dest, PointerType):
                op = "inttoptr"
            elif isinstance(src, PointerType) and isinstance(dest, IntegerType):
                op = "ptrtoint"
            if _cast_is_valid(op, src, dest):
                return constant_fold_cast_operand(op, cur, dest, dl)
        if not isinstance(src, (StructType, ArrayType, VectorType)):
            return None
        if isinstance(src, StructType):
            i = 0
            e = cur.get_aggregate_element(i)
            while e is not None and dl.type_size_in_bits(e.type) == 0:
                i += 1
                e = cur.get_aggregate_element(i)
            cur = e
        else:
            if isinstance(src, VectorType) and not dl.type_size_equals_store_size(src.element_type):
                return None
            cur = cur.get_aggregate_element(0)
    return None


def _cast_is_valid(op: str, src: Type, dest: Type) -> bool:
    from llvmpy_mid.ir.instructions.casts import cast_is_valid

    return bool(cast_is_valid(op, src, dest))


def read_data_from_global(c: Constant, offset: int, out: bytearray, start: int, count: int, dl: DataLayout) -> bool:
    """LLVM ``ReadDataFromGlobal``: write ``count`` bytes of ``c`` from byte ``offset`` into
    ``out[start:]`` (in memory order); False when a byte is not known."""
    work: list[tuple[Constant, int, int, int]] = [(c, offset, start, count)]
    while work:
        c, offset, start, count = work.pop()
        if count <= 0:
            continue
        if isinstance(c, (ConstantAggregateZero, UndefValue)):
            continue
        if isinstance(c, ConstantInt):
            w = c.type.width
            if w & 7:
                return False
            nbytes = w // 8
            v = c.value
            i = 0
            while i != count and offset != nbytes:
                n = offset if dl.is_little_endian else nbytes - offset - 1
                out[start + i] = (v >> (n * 8)) & 0xFF
                offset += 1
                i += 1
            continue
        if isinstance(c, ConstantFP):
            tid = c.type.type_id
            width = {TypeID.DOUBLE: 64, TypeID.FLOAT: 32, TypeID.HALF: 16}.get(tid)
            if width is None:
                return False
            work.append((ConstantInt.get(c.type.context.int_type(width), c.bits), offset, start, count))
            continue
        if isinstance(c, ConstantStruct):
            st = c.type
            assert isinstance(st, StructType)
            layout = dl.struct_layout(st)
            index = layout.element_containing_offset(offset)
            cur_off = layout.element_offset(index)
            offset -= cur_off
            pending: list[tuple[Constant, int, int, int]] = []
            while True:
                elt = c.get_aggregate_element(index)
                assert elt is not None
                esize = dl.type_alloc_size(elt.type)
                if offset < esize:
                    pending.append((elt, offset, start, count))
                index += 1
                if index == len(st.elements):
                    break
                next_off = layout.element_offset(index)
                gap = next_off - cur_off - offset
                if count <= gap:
                    break
                start += gap
                count -= gap
                offset = 0
                cur_off = next_off
            work.extend(reversed(pending))
            continue
        if isinstance(c, (ConstantArray, ConstantVector, ConstantDataSequential)):
            ty = c.type
            if isinstance(ty, ArrayType):
                n = ty.count
                esize = dl.type_alloc_size(ty.element_type)
            else:
                assert isinstance(ty, VectorType)
                n = ty.count
                if not dl.type_size_equals_store_size(ty.element_type):
                    return False
                esize = dl.type_store_size(ty.element_type)
            if esize == 0:
                continue
            index = offset // esize
            off = offset - index * esize
            pending = []
            while index != n:
                elt = c.get_aggregate_element(index)
                assert elt is not None
                pending.append((elt, off, start, count))
                written = esize - off
                if written >= count:
                    break
                off = 0
                count -= written
                start += written
                index += 1
            work.extend(reversed(pending))
            continue
        if isinstance(c, ConstantExpr) and c.opcode == "inttoptr":
            src = c.get_operand(0)
            if src.type is dl.int_ptr_type(c.type):
                work.append((cast(Constant, src), offset, start, count))
                continue
        return False
    return True


def fold_reinterpret_load_from_const(c: Constant, load_ty: Type, offset: int, dl: DataLayout) -> Constant | None:
    """LLVM ``FoldReinterpretLoadFromConst``: read the bytes of ``c`` at ``offset`` as ``load_ty``."""
    if isinstance(load_ty, VectorType) and load_ty.scalable:
        return None
    if not isinstance(load_ty, IntegerType):
        if not (isinstance(load_ty, (FloatingPointType, PointerType, VectorType))):
            return None
        map_ty = load_ty.context.int_type(dl.type_size_in_bits(load_ty))
        res = fold_reinterpret_load_from_const(c, map_ty, offset, dl)
        if res is None:
            return None
        if res.is_null_value and load_ty.type_id not in (TypeID.X86_MMX, TypeID.X86_AMX):
            return Constant.get_null_value(load_ty)
        cast_ty = dl.int_ptr_type(load_ty) if load_ty.is_ptr_or_ptr_vector else load_ty
        res = fold_bit_cast(res, cast_ty, dl)
        if load_ty.is_ptr_or_ptr_vector:
            if res.is_null_value:
                return Constant.get_null_value(load_ty)
            if dl.is_non_integral_pointer_type(load_ty.scalar_type):
                return None
            res = ConstantExpr.get_cast("inttoptr", res, load_ty)
        return res
    nbytes = (load_ty.width + 7) // 8
    if nbytes > 32 or nbytes == 0:
        return None
    if offset <= -nbytes:
        return PoisonValue.get(load_ty)
    if dl.is_scalable(c.type):
        return None
    init_size = dl.type_alloc_size(c.type)
    if offset >= init_size:
        return PoisonValue.get(load_ty)
    raw = bytearray(32)
    start = 0
    left = nbytes
    if offset < 0:
        start = -offset
        left += offset
        offset = 0
    if not read_data_from_global(c, offset, raw, start, left, dl):
        return None
    data = bytes(raw[:nbytes])
    value = int.from_bytes(data, "little" if dl.is_little_endian else "big")
    return ConstantInt.get(load_ty, value)


def _constant_at_offset(base: Constant, offset: int, dl: DataLayout) -> Constant | None:
    """LLVM's ``getConstantAtOffset``: the aggregate element starting exactly at ``offset``."""
    if offset == 0:
        return base
    if not isinstance(base, (ConstantArray, ConstantStruct, ConstantVector, ConstantDataSequential)):
        return None
    indices, _, rest = dl.gep_indices_for_offset(base.type, offset)
    if rest != 0 or indices[0] != 0:
        return None
    c: Constant | None = base
    for idx in indices[1:]:
        if idx < 0 or idx.bit_length() >= 32:
            return None
        assert c is not None
        c = c.get_aggregate_element(idx)
        if c is None:
            return None
    return c


def constant_fold_load_from_const(c: Constant, ty: Type, dl: DataLayout, offset: int = 0) -> Constant | None:
    """LLVM ``ConstantFoldLoadFromConst``: a load of ``ty`` at ``offset`` bytes into ``c``."""
    at = _constant_at_offset(c, offset, dl)
    if at is not None:
        res = constant_fold_load_through_bitcast(at, ty, dl)
        if res is not None:
            return res
    if not dl.is_scalable(c.type) and offset >= dl.type_alloc_size(c.type):
        return PoisonValue.get(ty)
    res = constant_fold_load_from_uniform_value(c, ty, dl)
    if res is not None:
        return res
    if -(1 << 63) <= offset < (1 << 63):
        return fold_reinterpret_load_from_const(c, ty, offset, dl)
    return None


def constant_fold_load_from_const_ptr(c: Constant, ty: Type, dl: DataLayout, offset: int = 0) -> Constant | None:
    """LLVM ``ConstantFoldLoadFromConstPtr``: a load of ``ty`` from pointer ``c`` (+ ``offset``)
    into a constant global with a definitive initializer."""
    from llvmpy_mid.analysis.value_tracking import get_underlying_object
    from llvmpy_mid.ir.global_value import GlobalVariable

    gv = get_underlying_object(c)
    if not isinstance(gv, GlobalVariable) or not gv.is_constant_global or not _has_definitive_initializer(gv):
        return None
    init = gv.initializer
    assert init is not None
    base, off = strip_and_accumulate_constant_offsets(c, dl, True)
    if base is gv:
        res = constant_fold_load_from_const(init, ty, dl, offset + off)
        if res is not None:
            return res
    return constant_fold_load_from_uniform_value(init, ty, dl)


def _has_definitive_initializer(gv: GlobalValue) -> bool:
    """LLVM ``GlobalVariable::hasDefinitiveInitializer``."""
    init = getattr(gv, "initializer", None)
    if init is None:
        return False
    if gv.is_interposable:
        return False
    return not bool(getattr(gv, "externally_initialized", False))
