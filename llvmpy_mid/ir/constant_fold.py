"""Target-independent constant folding (LLVM ``IR/ConstantFold.cpp``).

These are the folds every ``ConstantExpr`` getter applies before it creates an
expression, and the base layer of the DataLayout-aware folder
(:mod:`llvmpy_mid.analysis.constant_folding`). Each function returns the
folded constant, or None when nothing simpler is known. Floating-point
arithmetic is exact IEEE through :mod:`llvmpy_mid.ir.apfloat`.

* casts: of poison/undef/null, cast pairs LLVM eliminates
  (``CastInst::isEliminableCastPair``), lane by lane on vectors, integer
  widening/narrowing, int <-> fp (out of range: poison), fp <-> fp,
  ``bitcast`` between integers and floats;
* binary operators: identities, undef/poison rules, integer arithmetic (div
  by zero, ``INT_MIN / -1`` and over-wide shifts give poison), IEEE ``fadd``
  ... ``frem``, lane by lane on vectors, constants moved right of
  commutative operators, reassociation of nested expressions, ``i1`` forms;
* ``fneg``; ``select``; ``icmp``/``fcmp`` including the relations of
  globals, block addresses, ``null`` and ``getelementptr`` of globals;
* ``extractelement``/``insertelement``/``shufflevector``,
  ``extractvalue``/``insertvalue``; ``getelementptr`` of poison/undef and
  with all-zero indices.

Not here: folds that need a DataLayout (offsets, loads, ptrtoint arithmetic):
see ``analysis/constant_folding.py``. ``ppc_fp128`` arithmetic is not folded.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import apfloat, fp_bits
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantAggregateZero,
    ConstantArray,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    ConstantVector,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instructions.casts import CAST_OPCODES
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.types import (
    ArrayType,
    FloatingPointType,
    IntegerType,
    StructType,
    Type,
    TypeID,
    VectorType,
)

_CAST_INDEX = {name: i for i, name in enumerate(CAST_OPCODES)}  # LLVM's Instruction::CastOps order

# CastInst::isEliminableCastPair's table, rows: first cast, columns: second cast.
_CAST_PAIRS = (
    (1, 0, 0, 99, 99, 0, 0, 99, 99, 99, 0, 3, 0),
    (8, 1, 9, 99, 99, 2, 17, 99, 99, 99, 2, 3, 0),
    (8, 0, 1, 99, 99, 0, 2, 99, 99, 99, 0, 3, 0),
    (0, 0, 0, 99, 99, 0, 0, 99, 99, 99, 0, 3, 0),
    (0, 0, 0, 99, 99, 0, 0, 99, 99, 99, 0, 3, 0),
    (99, 99, 99, 0, 0, 99, 99, 0, 0, 99, 99, 4, 0),
    (99, 99, 99, 0, 0, 99, 99, 0, 0, 99, 99, 4, 0),
    (99, 99, 99, 0, 0, 99, 99, 0, 0, 99, 99, 4, 0),
    (99, 99, 99, 2, 2, 99, 99, 8, 2, 99, 99, 4, 0),
    (1, 0, 0, 99, 99, 0, 0, 99, 99, 99, 7, 3, 0),
    (99, 99, 99, 99, 99, 99, 99, 99, 99, 11, 99, 15, 0),
    (5, 5, 5, 0, 0, 5, 5, 0, 0, 16, 5, 1, 14),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 12),
)

DESIRABLE_CASTS = frozenset(("trunc", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"))
DESIRABLE_BINOPS = frozenset(("add", "sub", "mul", "xor"))
COMMUTATIVE_BINOPS = frozenset(("add", "mul", "and", "or", "xor", "fadd", "fmul"))
ASSOCIATIVE_BINOPS = frozenset(("add", "mul", "and", "or", "xor"))
INT_DIV_REM = frozenset(("udiv", "sdiv", "urem", "srem"))
BINARY_OPCODES = frozenset(
    ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor")
    + ("fadd", "fsub", "fmul", "fdiv", "frem")
)


def scalar_size_in_bits(ty: Type) -> int:
    """LLVM ``Type::getScalarSizeInBits`` for integer and floating-point (vector) types."""
    st = ty.scalar_type
    if isinstance(st, IntegerType):
        return st.width
    if isinstance(st, FloatingPointType):
        return fp_bits.bit_width(st.type_id)
    return 0


def _address_space(ty: Type) -> int:
    st = ty.scalar_type
    return int(getattr(st, "address_space", 0))


def is_eliminable_cast_pair(
    first: str,
    second: str,
    src_ty: Type,
    mid_ty: Type,
    dst_ty: Type,
    src_int_ptr_ty: Type | None,
    mid_int_ptr_ty: Type | None,
    dst_int_ptr_ty: Type | None,
) -> str | None:
    """The one cast equivalent to ``second(first(x))``, or None (LLVM
    ``CastInst::isEliminableCastPair``; the pointer-sized integer types may be None)."""
    first_bc = first == "bitcast"
    second_bc = second == "bitcast"
    if not (first_bc and second_bc):
        if (first_bc and isinstance(src_ty, VectorType) != isinstance(mid_ty, VectorType)) or (
            second_bc and isinstance(mid_ty, VectorType) != isinstance(dst_ty, VectorType)
        ):
            return None
    case = _CAST_PAIRS[_CAST_INDEX[first]][_CAST_INDEX[second]]
    if case == 0 or case == 99:
        return None
    if case == 1:
        return first
    if case == 2:
        return second
    if case == 3:
        return first if not isinstance(src_ty, VectorType) and isinstance(dst_ty, IntegerType) else None
    if case == 4:
        return first if dst_ty is mid_ty else None
    if case == 5:
        return second if isinstance(src_ty, IntegerType) else None
    if case == 7:
        if _address_space(src_ty) != _address_space(dst_ty):
            return None
        mid = scalar_size_in_bits(mid_ty)
        if mid == 64:
            return "bitcast"
        if src_int_ptr_ty is None or dst_int_ptr_ty is not src_int_ptr_ty:
            return None
        return "bitcast" if mid >= scalar_size_in_bits(src_int_ptr_ty) else None
    if case == 8:
        if src_ty is dst_ty:
            return "bitcast"
        s = scalar_size_in_bits(src_ty)
        d = scalar_size_in_bits(dst_ty)
        if s < d:
            return first
        if s > d:
            return second
        return None
    if case == 9:
        return "zext"
    if case == 11:
        if mid_int_ptr_ty is None:
            return None
        s = scalar_size_in_bits(src_ty)
        if s <= scalar_size_in_bits(mid_int_ptr_ty) and s == scalar_size_in_bits(dst_ty):
            return "bitcast"
        return None
    if case == 12:
        return "addrspacecast" if _address_space(src_ty) != _address_space(dst_ty) else "bitcast"
    if case == 13:
        return first
    if case == 14:
        return "addrspacecast"
    if case == 15:
        return first
    if case == 16:
        return second
    if case == 17:
        return "uitofp"
    return None


# --- small queries on constants ------------------------------------------------------------------------


def is_all_ones(c: Constant) -> bool:
    """LLVM ``Constant::isAllOnesValue`` (a vector: its splat lane)."""
    if isinstance(c, (ConstantInt, ConstantFP)):
        return c.is_all_ones_value
    if isinstance(c.type, VectorType):
        s = get_splat_value(c)
        return s is not None and is_all_ones(s)
    return False


def is_one(c: Constant) -> bool:
    """LLVM ``Constant::isOneValue`` (integer 1, float 1.0, or a splat of it)."""
    if isinstance(c, ConstantInt):
        return c.value == 1
    if isinstance(c, ConstantFP):
        sem = apfloat.semantics_of(c.type.type_id)
        return sem is not None and c.bits == apfloat.one(sem)
    if isinstance(c.type, VectorType):
        s = get_splat_value(c)
        return s is not None and is_one(s)
    return False


def is_neg_zero_fp(c: Constant) -> bool:
    """PatternMatch ``m_NegZeroFP``: -0.0 or a vector of -0.0 lanes."""
    if isinstance(c, ConstantFP):
        return c.is_negative_zero
    if isinstance(c.type, VectorType):
        s = get_splat_value(c)
        return s is not None and is_neg_zero_fp(s)
    return False


def get_nan(ty: Type) -> Constant:
    """LLVM ``ConstantFP::getNaN``: the default quiet NaN (a splat for vectors)."""
    st = ty.scalar_type
    sem = apfloat.semantics_of(st.type_id)
    if sem is None:
        # ppc_fp128: quiet NaN in the high double, +0.0 in the low one.
        bits = 0x7FF8000000000000
    else:
        bits = apfloat.default_nan(sem)
    lane = ConstantFP.from_bits(st, bits)
    return ConstantVector.get_splat(ty, lane) if isinstance(ty, VectorType) else lane


def _int32(c: Constant, i: int) -> ConstantInt:
    return ConstantInt.get(c.type.context.i32, i)


def get_extract_element(vec: Constant, index: int) -> Constant:
    """``ConstantExpr::getExtractElement(vec, i32 index)``: folded when possible."""
    idx = _int32(vec, index)
    folded = constant_fold_extract_element(vec, idx)
    if folded is not None:
        return folded
    return ConstantExpr.create_extract_element(vec, idx)


def _cast_maybe_undesirable(opcode: str, c: Constant, dest: Type) -> Constant | None:
    if opcode in DESIRABLE_CASTS:
        return ConstantExpr.get_cast(opcode, c, dest)
    return constant_fold_cast_instruction(opcode, c, dest)


def _binop_maybe_undesirable(opcode: str, a: Constant, b: Constant) -> Constant | None:
    if opcode in DESIRABLE_BINOPS:
        return ConstantExpr.get_binary(opcode, a, b)
    return constant_fold_binary_instruction(opcode, a, b)


# --- casts -----------------------------------------------------------------------------------------------------


def _fold_cast_pair(opcode: str, inner: ConstantExpr, dest: Type) -> str | None:
    src = inner.get_operand(0)
    ctx = dest.context
    return is_eliminable_cast_pair(inner.opcode, opcode, src.type, inner.type, dest, None, ctx.i64, None)


def _fold_bitcast(value: Constant, dest: Type) -> Constant | None:
    """LLVM's ``FoldBitCast``."""
    if value.type is dest:
        return value
    if isinstance(dest, VectorType):
        if is_all_ones(value):
            return Constant.get_all_ones_value(dest)
        if isinstance(value, (ConstantInt, ConstantFP)):
            return ConstantExpr.get_cast("bitcast", ConstantVector.get([value]), dest)
        return None
    if isinstance(value, ConstantInt):
        if isinstance(dest, FloatingPointType) and dest.type_id is not TypeID.PPC_FP128:
            return ConstantFP.from_bits(dest, value.value)
        return None
    if isinstance(value, ConstantFP):
        if value.type.type_id is TypeID.PPC_FP128 or not isinstance(dest, IntegerType):
            return None
        return ConstantInt.get(dest, value.bits)
    return None


def constant_fold_cast_instruction(opcode: str, c: Constant, dest: Type) -> Constant | None:
    """LLVM ``ConstantFoldCastInstruction``."""
    if isinstance(c, PoisonValue):
        return PoisonValue.get(dest)
    if isinstance(c, UndefValue):
        if opcode in ("zext", "sext", "uitofp", "sitofp"):
            return Constant.get_null_value(dest)
        return UndefValue.get(dest)
    if c.is_null_value and dest.type_id not in (TypeID.X86_MMX, TypeID.X86_AMX) and opcode != "addrspacecast":
        try:
            return Constant.get_null_value(dest)
        except IRError:
            return None
    if isinstance(c, ConstantExpr) and c.is_cast:
        new_op = _fold_cast_pair(opcode, c, dest)
        if new_op is not None:
            return _cast_maybe_undesirable(new_op, c.get_operand(0), dest)  # type: ignore[arg-type]
    src_ty = c.type
    if (
        isinstance(c, (ConstantVector, ConstantDataVector))
        and isinstance(dest, VectorType)
        and isinstance(src_ty, VectorType)
        and dest.count == src_ty.count
    ):
        dst_elt = dest.element_type
        splat = get_splat_value(c)
        if splat is not None:
            res = _cast_maybe_undesirable(opcode, splat, dst_elt)
            if res is None:
                return None
            return ConstantVector.get_splat(dest, res)
        lanes: list[Constant] = []
        for i in range(src_ty.count):
            lane = _cast_maybe_undesirable(opcode, get_extract_element(c, i), dst_elt)
            if lane is None:
                return None
            lanes.append(lane)
        return ConstantVector.get(lanes)
    if opcode == "fptrunc" or opcode == "fpext":
        if isinstance(c, ConstantFP) and isinstance(dest, FloatingPointType):
            src_sem = apfloat.semantics_of(c.type.type_id)
            dst_sem = apfloat.semantics_of(dest.type_id)
            if src_sem is None or dst_sem is None:
                return _ppc_convert(c, dest)
            return ConstantFP.from_bits(dest, apfloat.convert(src_sem, dst_sem, c.bits))
        return None
    if opcode == "fptoui" or opcode == "fptosi":
        if isinstance(c, ConstantFP) and isinstance(dest, IntegerType):
            sem = apfloat.semantics_of(c.type.type_id)
            if sem is None:
                return None
            v = apfloat.to_integer(sem, c.bits, dest.width, opcode == "fptosi")
            if v is None:
                return PoisonValue.get(dest)
            return ConstantInt.get(dest, v)
        return None
    if opcode == "uitofp" or opcode == "sitofp":
        if isinstance(c, ConstantInt) and isinstance(dest, FloatingPointType):
            sem = apfloat.semantics_of(dest.type_id)
            if sem is None:
                return None
            v = c.sext_value if opcode == "sitofp" else c.value
            return ConstantFP.from_bits(dest, apfloat.from_integer(sem, v))
        return None
    if opcode == "zext" or opcode == "sext":
        if isinstance(c, ConstantInt) and isinstance(dest, IntegerType):
            return ConstantInt.get(dest, c.sext_value if opcode == "sext" else c.value)
        return None
    if opcode == "trunc":
        if isinstance(src_ty, VectorType):
            return None
        if isinstance(c, ConstantInt) and isinstance(dest, IntegerType):
            return ConstantInt.get(dest, c.value)
        return None
    if opcode == "bitcast":
        return _fold_bitcast(c, dest)
    return None


def _ppc_convert(c: ConstantFP, dest: Type) -> Constant | None:
    """fpext/fptrunc to or from ppc_fp128: exact only through double."""
    src = c.type.type_id
    if src is TypeID.PPC_FP128 and dest.type_id is TypeID.DOUBLE and not (c.bits >> 64):
        return ConstantFP.from_bits(dest, c.bits & 0xFFFFFFFFFFFFFFFF)
    sem = apfloat.semantics_of(src)
    if dest.type_id is TypeID.PPC_FP128 and sem is not None:
        dbl = apfloat.SEMANTICS[TypeID.DOUBLE]
        d = c.bits if src is TypeID.DOUBLE else apfloat.convert(sem, dbl, c.bits)
        back = d if src is TypeID.DOUBLE else apfloat.convert(dbl, sem, d)
        if back == c.bits and apfloat.category(dbl, d) != apfloat.NAN:
            return ConstantFP.from_bits(dest, d)
    return None


# --- select ---------------------------------------------------------------------------------------------------


def _not_poison(c: Constant) -> bool:
    if isinstance(c, (PoisonValue, ConstantExpr)):
        return False
    if isinstance(c, (ConstantInt, ConstantFP, ConstantPointerNull)):
        return True
    if c.is_global_value:
        from llvmpy_mid.ir.function import Function
        from llvmpy_mid.ir.global_value import GlobalVariable

        return isinstance(c, (GlobalVariable, Function))
    if isinstance(c.type, VectorType):
        return not contains_poison_element(c) and not contains_constant_expression(c)
    return False


def contains_poison_element(c: Constant) -> bool:
    """LLVM ``Constant::containsPoisonElement`` (vectors only)."""
    ty = c.type
    if not isinstance(ty, VectorType):
        return False
    if isinstance(c, PoisonValue):
        return True
    if ty.scalable or not isinstance(c, ConstantVector):
        return False
    return any(isinstance(e, PoisonValue) for e in c.elements)


def contains_constant_expression(c: Constant) -> bool:
    """LLVM ``Constant::containsConstantExpression`` (vector lanes)."""
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable and isinstance(c, ConstantVector):
        return any(isinstance(e, ConstantExpr) for e in c.elements)
    return False


def constant_fold_select_instruction(cond: Constant, t: Constant, f: Constant) -> Constant | None:
    """LLVM ``ConstantFoldSelectInstruction``."""
    if cond.is_null_value:
        return f
    if is_all_ones(cond):
        return t
    if isinstance(cond, ConstantVector):
        vty = cond.type
        assert isinstance(vty, VectorType)
        lanes: list[Constant] = []
        for i in range(vty.count):
            te = get_extract_element(t, i)
            fe = get_extract_element(f, i)
            cl = cond.get_aggregate_element(i)
            assert cl is not None
            if isinstance(cl, PoisonValue):
                lanes.append(PoisonValue.get(te.type))
            elif te is fe:
                lanes.append(te)
            elif isinstance(cl, UndefValue):
                lanes.append(te if isinstance(te, UndefValue) else fe)
            elif isinstance(cl, ConstantInt):
                lanes.append(fe if cl.value == 0 else te)
            else:
                break
        if len(lanes) == vty.count:
            return ConstantVector.get(lanes)
    if isinstance(cond, PoisonValue):
        return PoisonValue.get(t.type)
    if isinstance(cond, UndefValue):
        return t if isinstance(t, UndefValue) else f
    if t is f:
        return t
    if isinstance(t, PoisonValue):
        return f
    if isinstance(f, PoisonValue):
        return t
    if isinstance(t, UndefValue) and _not_poison(f):
        return f
    if isinstance(f, UndefValue) and _not_poison(t):
        return t
    return None


# --- vectors and aggregates -----------------------------------------------------------------------------------


def constant_fold_extract_element(vec: Constant, index: Constant) -> Constant | None:
    """LLVM ``ConstantFoldExtractElementInstruction``."""
    vty = vec.type
    assert isinstance(vty, VectorType)
    if isinstance(vec, PoisonValue) or isinstance(index, UndefValue):
        return PoisonValue.get(vty.element_type)
    if isinstance(vec, UndefValue):
        return UndefValue.get(vty.element_type)
    if not isinstance(index, ConstantInt):
        return None
    if not vty.scalable and index.value >= vty.count:
        return PoisonValue.get(vty.element_type)
    if isinstance(vec, ConstantExpr):
        if vec.opcode == "getelementptr":
            ops: list[Constant] = []
            for op in vec.operands:
                assert isinstance(op, Constant)
                if isinstance(op.type, VectorType):
                    ops.append(ConstantExpr.get_extract_element(op, index))
                else:
                    ops.append(op)
            src = vec.source_element_type
            assert src is not None
            return ConstantExpr.get_gep(src, ops[0], ops[1:], flags=vec.flags, inrange=vec.inrange)
        if vec.opcode == "insertelement":
            ie_idx = vec.get_operand(2)
            if isinstance(ie_idx, ConstantInt):
                if ie_idx.value == index.value:
                    return vec.get_operand(1)  # type: ignore[return-value]
                inner = vec.get_operand(0)
                assert isinstance(inner, Constant)
                return ConstantExpr.get_extract_element(inner, index)
    if not vty.scalable:
        e = vec.get_aggregate_element(index.value)
        if e is not None:
            return e
    if index.value < vty.count:
        s = get_splat_value(vec)
        if s is not None:
            return s
    return None


def constant_fold_insert_element(vec: Constant, element: Constant, index: Constant) -> Constant | None:
    """LLVM ``ConstantFoldInsertElementInstruction``."""
    vty = vec.type
    assert isinstance(vty, VectorType)
    if isinstance(index, UndefValue):
        return PoisonValue.get(vty)
    if isinstance(vec, ConstantAggregateZero) and element.is_null_value:
        return vec
    if not isinstance(index, ConstantInt) or vty.scalable:
        return None
    if index.value >= vty.count:
        return PoisonValue.get(vty)
    lanes: list[Constant] = []
    for i in range(vty.count):
        lanes.append(element if i == index.value else get_extract_element(vec, i))
    return ConstantVector.get(lanes)


def constant_fold_shuffle_vector(v1: Constant, v2: Constant, mask: Sequence[int]) -> Constant | None:
    """LLVM ``ConstantFoldShuffleVectorInstruction`` (mask -1 is a poison lane)."""
    vty = v1.type
    assert isinstance(vty, VectorType)
    ctx = vty.context
    elt_ty = vty.element_type
    result = ctx.vector_type(elt_ty, len(mask), vty.scalable)
    if all(m == -1 for m in mask):
        return PoisonValue.get(result)
    if all(m == 0 for m in mask):
        first = get_extract_element(v1, 0)
        if first.is_null_value:
            return ConstantAggregateZero.get(result)
        if not vty.scalable:
            return ConstantVector.get_splat(result, first)
    if vty.scalable:
        return None
    n = vty.count
    lanes: list[Constant] = []
    for m in mask:
        if m == -1:
            lanes.append(UndefValue.get(elt_ty))
        elif m >= 2 * n:
            lanes.append(UndefValue.get(elt_ty))
        elif m >= n:
            lanes.append(get_extract_element(v2, m - n))
        else:
            lanes.append(get_extract_element(v1, m))
    return ConstantVector.get(lanes)


def constant_fold_extract_value(agg: Constant, indices: Sequence[int]) -> Constant | None:
    """LLVM ``ConstantFoldExtractValueInstruction``."""
    c: Constant | None = agg
    for i in indices:
        assert c is not None
        c = c.get_aggregate_element(i)
        if c is None:
            return None
    return c


def constant_fold_insert_value(agg: Constant, value: Constant, indices: Sequence[int]) -> Constant | None:
    """LLVM ``ConstantFoldInsertValueInstruction``."""
    if not indices:
        return value
    ty = agg.type
    if isinstance(ty, StructType):
        n = len(ty.elements)
    elif isinstance(ty, ArrayType):
        n = ty.count
    else:
        return None
    out: list[Constant] = []
    for i in range(n):
        e = agg.get_aggregate_element(i)
        if e is None:
            return None
        if indices[0] == i:
            inner = constant_fold_insert_value(e, value, indices[1:])
            if inner is None:
                return None
            e = inner
        out.append(e)
    if isinstance(ty, StructType):
        return ConstantStruct.get(ty, out)
    return ConstantArray.get(ty, out)


# --- unary and binary operators -------------------------------------------------------------------------------


def constant_fold_unary_instruction(opcode: str, c: Constant) -> Constant | None:
    """LLVM ``ConstantFoldUnaryInstruction`` (``fneg``)."""
    ty = c.type
    if opcode != "fneg":
        return None
    if isinstance(c, UndefValue) and (not isinstance(ty, VectorType) or ty.scalable):
        return c
    if isinstance(c, ConstantFP):
        return ConstantFP.from_bits(c.type, _fneg_bits(c))
    if isinstance(ty, VectorType) and not ty.scalable:
        s = get_splat_value(c)
        if s is not None:
            e = constant_fold_unary_instruction(opcode, s)
            if e is not None:
                return ConstantVector.get_splat(ty, e)
        lanes: list[Constant] = []
        for i in range(ty.count):
            r = constant_fold_unary_instruction(opcode, get_extract_element(c, i))
            if r is None:
                return None
            lanes.append(r)
        return ConstantVector.get(lanes)
    return None


def _fneg_bits(c: ConstantFP) -> int:
    tid = c.type.type_id
    if tid is TypeID.PPC_FP128:
        return c.bits ^ ((1 << 63) | (1 << 127))
    return c.bits ^ (1 << (fp_bits.bit_width(tid) - 1))


def get_bin_op_identity(opcode: str, ty: Type, allow_rhs: bool) -> Constant | None:
    """LLVM ``ConstantExpr::getBinOpIdentity`` (NSZ false)."""
    if opcode in ("add", "or", "xor"):
        return Constant.get_null_value(ty)
    if opcode == "mul":
        return _int_splat(ty, 1)
    if opcode == "and":
        return Constant.get_all_ones_value(ty)
    if opcode == "fadd":
        return _fp_splat(ty, -0.0)
    if opcode == "fmul":
        return _fp_splat(ty, 1.0)
    if not allow_rhs:
        return None
    if opcode in ("sub", "shl", "lshr", "ashr", "fsub"):
        return Constant.get_null_value(ty)
    if opcode in ("sdiv", "udiv"):
        return _int_splat(ty, 1)
    if opcode == "fdiv":
        return _fp_splat(ty, 1.0)
    return None


def _int_splat(ty: Type, v: int) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, v))
    return ConstantInt.get(ty, v)


def _fp_splat(ty: Type, v: float) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, _fp_splat(ty.element_type, v))
    return ConstantFP.get(ty, v)


def _apint_of(c: Constant) -> ConstantInt | None:
    """PatternMatch ``m_APInt``: an integer or a splat of one."""
    if isinstance(c, ConstantInt):
        return c
    if isinstance(c.type, VectorType):
        s = get_splat_value(c)
        if isinstance(s, ConstantInt):
            return s
    return None


def _fold_binary_undef(opcode: str, c1: Constant, c2: Constant) -> Constant:
    """The undef rules of ConstantFoldBinaryInstruction (a scalar or scalable operand is undef)."""
    ty = c1.type
    u1 = isinstance(c1, UndefValue)
    u2 = isinstance(c2, UndefValue)
    if opcode == "xor" and u1 and u2:
        return Constant.get_null_value(ty)
    if opcode in ("xor", "add", "sub"):
        return UndefValue.get(ty)
    if opcode == "and":
        return c1 if u1 and u2 else Constant.get_null_value(ty)
    if opcode == "mul":
        if u1 and u2:
            return c1
        for c in (c1, c2):
            ci = _apint_of(c)
            if ci is not None and ci.value & 1:
                return UndefValue.get(ty)
        return Constant.get_null_value(ty)
    if opcode in INT_DIV_REM:
        if u2 or c2.is_null_value:
            return PoisonValue.get(ty)
        return Constant.get_null_value(ty)
    if opcode == "or":
        return c1 if u1 and u2 else Constant.get_all_ones_value(ty)
    if opcode in ("lshr", "ashr", "shl"):
        if u2:
            return PoisonValue.get(ty)
        return Constant.get_null_value(ty)
    if opcode == "fsub" and is_neg_zero_fp(c1) and u2:
        return c2
    # fadd, fsub, fmul, fdiv, frem
    if u1 and u2:
        return c1
    return get_nan(ty)


def _int_binop(opcode: str, a: ConstantInt, b: ConstantInt) -> Constant | None:
    ty = a.type
    w = ty.width
    x = a.value
    y = b.value
    if opcode == "add":
        return ConstantInt.get(ty, x + y)
    if opcode == "sub":
        return ConstantInt.get(ty, x - y)
    if opcode == "mul":
        return ConstantInt.get(ty, x * y)
    if opcode == "and":
        return ConstantInt.get(ty, x & y)
    if opcode == "or":
        return ConstantInt.get(ty, x | y)
    if opcode == "xor":
        return ConstantInt.get(ty, x ^ y)
    if opcode == "udiv":
        return ConstantInt.get(ty, x // y)
    if opcode == "urem":
        return ConstantInt.get(ty, x % y)
    if opcode == "sdiv" or opcode == "srem":
        sx = a.sext_value
        sy = b.sext_value
        if sy == -1 and sx == -(1 << (w - 1)):
            return PoisonValue.get(ty)
        q = abs(sx) // abs(sy)
        if (sx < 0) != (sy < 0):
            q = -q
        return ConstantInt.get(ty, q if opcode == "sdiv" else sx - q * sy)
    if opcode in ("shl", "lshr", "ashr"):
        if y >= w:
            return PoisonValue.get(ty)
        if opcode == "shl":
            return ConstantInt.get(ty, x << y)
        if opcode == "lshr":
            return ConstantInt.get(ty, x >> y)
        return ConstantInt.get(ty, a.sext_value >> y)
    return None


def _fp_binop(opcode: str, a: ConstantFP, b: ConstantFP) -> Constant | None:
    sem = apfloat.semantics_of(a.type.type_id)
    if sem is None:
        return None
    if opcode == "fadd":
        r = apfloat.add(sem, a.bits, b.bits)
    elif opcode == "fsub":
        r = apfloat.add(sem, a.bits, b.bits, subtract=True)
    elif opcode == "fmul":
        r = apfloat.multiply(sem, a.bits, b.bits)
    elif opcode == "fdiv":
        r = apfloat.divide(sem, a.bits, b.bits)
    elif opcode == "frem":
        r = apfloat.mod(sem, a.bits, b.bits)
    else:
        return None
    return ConstantFP.from_bits(a.type, r)


def _fold_and_of_global_ptrtoint(c1: ConstantExpr, mask: ConstantInt) -> Constant | None:
    """``and (ptrtoint @g), m`` is 0 when m only keeps bits below @g's alignment."""
    gv = c1.get_operand(0)
    if not isinstance(gv, GlobalValue):
        return None
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.global_value import GlobalVariable

    align = 1
    module = gv.parent
    if module is not None:
        dl = module.data_layout
        align = global_pointer_alignment(gv, dl)
        if isinstance(gv, Function) and not dl.function_ptr_alignment:
            align = 4
    elif isinstance(gv, GlobalVariable):
        align = gv.alignment or 1
    if align > 1:
        width = mask.type.width
        low = min(width, align.bit_length() - 1)
        if mask.value & ((1 << low) - 1) == mask.value:
            return Constant.get_null_value(mask.type)
    return None


def global_pointer_alignment(gv: GlobalValue, dl: DataLayout) -> int:
    """LLVM ``Value::getPointerAlignment`` for a global object (bytes)."""
    from llvmpy_mid.ir.data_layout import FunctionPtrAlignType
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.global_value import GlobalObject, GlobalVariable

    if not isinstance(gv, GlobalObject):
        return 1
    own = gv.alignment or 0
    if isinstance(gv, Function):
        fpa = dl.function_ptr_alignment or 1
        if dl.function_ptr_align_type is FunctionPtrAlignType.INDEPENDENT:
            return fpa
        return max(fpa, own or 1)
    if not own and isinstance(gv, GlobalVariable):
        vt = gv.value_type
        if vt.is_sized:
            if gv.is_strong_definition_for_linker:
                return preferred_global_alignment(gv, dl)
            return dl.abi_alignment(vt)
    return own or 1


def preferred_global_alignment(gv: GlobalValue, dl: DataLayout) -> int:
    """LLVM ``DataLayout::getPreferredAlign(const GlobalVariable *)``."""
    from llvmpy_mid.ir.global_value import GlobalVariable

    assert isinstance(gv, GlobalVariable)
    own = gv.alignment or 0
    if own and gv.section:
        return own
    vt = gv.value_type
    align = dl.pref_alignment(vt)
    if own:
        align = own if own >= align else max(own, dl.abi_alignment(vt))
    elif gv.initializer is not None and align < 16 and dl.type_size_in_bits(vt) > 128:
        align = 16
    return align


def constant_fold_binary_instruction(opcode: str, lhs: Constant, rhs: Constant) -> Constant | None:
    """LLVM ``ConstantFoldBinaryInstruction``."""
    c1 = lhs
    c2 = rhs
    ty = c1.type
    identity = get_bin_op_identity(opcode, ty, False)
    if identity is not None:
        if c1 is identity:
            return c2
        if c2 is identity:
            return c1
    else:
        identity = get_bin_op_identity(opcode, ty, True)
        if identity is not None and c2 is identity:
            return c1
    if isinstance(c1, PoisonValue) or isinstance(c2, PoisonValue):
        return PoisonValue.get(ty)
    scalable = isinstance(ty, VectorType) and ty.scalable
    if (not isinstance(ty, VectorType) or scalable) and (isinstance(c1, UndefValue) or isinstance(c2, UndefValue)):
        return _fold_binary_undef(opcode, c1, c2)
    if isinstance(c2, ConstantInt):
        if opcode == "mul" and c2.value == 0:
            return c2
        if opcode in ("udiv", "sdiv") and c2.value == 0:
            return PoisonValue.get(c2.type)
        if opcode in ("urem", "srem"):
            if c2.value == 1:
                return Constant.get_null_value(c2.type)
            if c2.value == 0:
                return PoisonValue.get(c2.type)
        if opcode == "and":
            if c2.value == 0:
                return c2
            if isinstance(c1, ConstantExpr) and c1.opcode == "ptrtoint":
                folded = _fold_and_of_global_ptrtoint(c1, c2)
                if folded is not None:
                    return folded
        if opcode == "or" and c2.is_all_ones_value:
            return c2
    elif isinstance(c1, ConstantInt):
        if opcode in COMMUTATIVE_BINOPS:
            return _binop_maybe_undesirable(opcode, c2, c1)
    if isinstance(c1, ConstantInt):
        if isinstance(c2, ConstantInt):
            r = _int_binop(opcode, c1, c2)
            if r is not None:
                return r
        if opcode in ("sdiv", "udiv", "urem", "srem", "lshr", "ashr", "shl") and c1.value == 0:
            return c1
    elif isinstance(c1, ConstantFP):
        if isinstance(c2, ConstantFP):
            r = _fp_binop(opcode, c1, c2)
            if r is not None:
                return r
    elif isinstance(ty, VectorType):
        s2 = get_splat_value(c2)
        if s2 is not None:
            if opcode in INT_DIV_REM and s2.is_null_value:
                return PoisonValue.get(ty)
            s1 = get_splat_value(c1)
            if s1 is not None:
                res = _binop_maybe_undesirable(opcode, s1, s2)
                if res is None:
                    return None
                return ConstantVector.get_splat(ty, res)
        if not ty.scalable:
            lanes: list[Constant] = []
            for i in range(ty.count):
                a = get_extract_element(c1, i)
                b = get_extract_element(c2, i)
                if opcode in INT_DIV_REM and b.is_null_value:
                    return PoisonValue.get(ty)
                res = _binop_maybe_undesirable(opcode, a, b)
                if res is None:
                    return None
                lanes.append(res)
            return ConstantVector.get(lanes)
    if isinstance(c1, ConstantExpr):
        if opcode in ASSOCIATIVE_BINOPS and c1.opcode == opcode:
            inner_rhs = c1.get_operand(1)
            assert isinstance(inner_rhs, Constant)
            t = get_binary_folded(opcode, inner_rhs, c2)
            if t is not None and not (isinstance(t, ConstantExpr) and t.opcode == opcode):
                head = c1.get_operand(0)
                assert isinstance(head, Constant)
                return get_binary_folded(opcode, head, t)
    elif isinstance(c2, ConstantExpr):
        if opcode in COMMUTATIVE_BINOPS:
            return constant_fold_binary_instruction(opcode, c2, c1)
    if isinstance(ty, IntegerType) and ty.width == 1:
        if opcode in ("add", "sub"):
            return ConstantExpr.get_binary("xor", c1, c2)
        if opcode in ("shl", "lshr", "ashr", "sdiv", "udiv"):
            return c1
        if opcode in ("urem", "srem"):
            return ConstantInt.get(ty, 0)
    return None


def get_binary_folded(opcode: str, a: Constant, b: Constant) -> Constant | None:
    """LLVM ``ConstantExpr::get(opcode, a, b)`` as ConstantFold uses it: an expression when
    LLVM 19 keeps that operator as one, else only the folded result (or None)."""
    if opcode in DESIRABLE_BINOPS:
        return ConstantExpr.get_binary(opcode, a, b)
    return constant_fold_binary_instruction(opcode, a, b)


# --- comparisons ----------------------------------------------------------------------------------------------


def icmp_compare(a: int, b: int, width: int, pred: Predicate) -> bool:
    """LLVM ``ICmpInst::compare`` on unsigned patterns of ``width`` bits."""
    if pred is Predicate.ICMP_EQ:
        return a == b
    if pred is Predicate.ICMP_NE:
        return a != b
    if pred >= Predicate.ICMP_SGT:
        half = 1 << (width - 1)
        a = a - (half << 1) if a & half else a
        b = b - (half << 1) if b & half else b
    if pred is Predicate.ICMP_UGT or pred is Predicate.ICMP_SGT:
        return a > b
    if pred is Predicate.ICMP_UGE or pred is Predicate.ICMP_SGE:
        return a >= b
    if pred is Predicate.ICMP_ULT or pred is Predicate.ICMP_SLT:
        return a < b
    return a <= b


# Which fcmp predicates hold for each APFloat comparison result (bit order: lt, eq, gt, unordered).
_FCMP_MASK = {
    apfloat.CMP_LESS: 0b0100,
    apfloat.CMP_EQUAL: 0b0001,
    apfloat.CMP_GREATER: 0b0010,
    apfloat.CMP_UNORDERED: 0b1000,
}


def fcmp_compare(sem: apfloat.Semantics, a: int, b: int, pred: Predicate) -> bool:
    """LLVM ``FCmpInst::compare``: the predicate number's bits are (U, L, G, E)."""
    return bool(int(pred) & _FCMP_MASK[apfloat.compare(sem, a, b)])


def _globals_potentially_equal(g1: GlobalValue, g2: GlobalValue) -> Predicate | None:
    from llvmpy_mid.ir.global_value import GlobalAlias, GlobalVariable

    def unsafe(g: GlobalValue) -> bool:
        if g.is_interposable or g.has_global_unnamed_addr:
            return True
        if isinstance(g, GlobalVariable):
            vt = g.value_type
            if not vt.is_sized or _is_empty_type(vt):
                return True
        return False

    if not isinstance(g1, GlobalAlias) and not isinstance(g2, GlobalAlias):
        if not unsafe(g1) and not unsafe(g2):
            return Predicate.ICMP_NE
    return None


def _is_empty_type(ty: Type) -> bool:
    """LLVM ``Type::isEmptyTy``: a struct/array with no non-empty element."""
    stack = [ty]
    while stack:
        t = stack.pop()
        if isinstance(t, ArrayType):
            if t.count == 0:
                continue
            stack.append(t.element_type)
        elif isinstance(t, StructType):
            stack.extend(t.elements)
        else:
            return False
    return True


def _gep_all_zero_indices(ce: ConstantExpr) -> bool:
    """LLVM ``GEPOperator::hasAllZeroIndices``: every index the integer 0 (a vector index,
    even all zero, does not count)."""
    for idx in ce.indices:
        if not isinstance(idx, ConstantInt) or idx.value:
            return False
    return True


def _complexity(c: Constant) -> int:
    if isinstance(c, ConstantExpr):
        return 3
    if isinstance(c, GlobalValue):
        return 2
    if isinstance(c, BlockAddress):
        return 1
    return 0


def evaluate_icmp_relation(v1: Constant, v2: Constant) -> Predicate | None:
    """LLVM's ``evaluateICmpRelation``: a predicate known true of (v1, v2), or None."""
    if v1 is v2:
        return Predicate.ICMP_EQ
    if not v1.type.is_pointer:
        return None
    if _complexity(v1) < _complexity(v2):
        swapped = evaluate_icmp_relation(v2, v1)
        return swapped.swapped if swapped is not None else None
    from llvmpy_mid.ir.global_value import GlobalAlias

    if isinstance(v1, BlockAddress):
        if isinstance(v2, BlockAddress):
            if v2.function is not v1.function:
                return Predicate.ICMP_NE
        elif isinstance(v2, ConstantPointerNull):
            return Predicate.ICMP_NE
    elif isinstance(v1, GlobalValue):
        if isinstance(v2, GlobalValue):
            return _globals_potentially_equal(v1, v2)
        if isinstance(v2, BlockAddress):
            return Predicate.ICMP_NE
        if isinstance(v2, ConstantPointerNull):
            if not v1.has_extern_weak_linkage and not isinstance(v1, GlobalAlias) and v1.address_space == 0:
                return Predicate.ICMP_UGT
    elif isinstance(v1, ConstantExpr) and v1.opcode == "getelementptr":
        base = v1.get_operand(0)
        if isinstance(v2, ConstantPointerNull):
            if isinstance(base, GlobalValue) and not base.has_extern_weak_linkage and v1.is_inbounds:
                return Predicate.ICMP_UGT
        elif isinstance(v2, GlobalValue):
            if isinstance(base, GlobalValue) and base is not v2:
                if _gep_all_zero_indices(v1):
                    return _globals_potentially_equal(base, v2)
                return None
        elif isinstance(v2, ConstantExpr) and v2.opcode == "getelementptr":
            base2 = v2.get_operand(0)
            if isinstance(base, GlobalValue) and isinstance(base2, GlobalValue) and base is not base2:
                if _gep_all_zero_indices(v1) and _gep_all_zero_indices(v2):
                    return _globals_potentially_equal(base, base2)
                return None
    return None


_RELATION_RESULTS: dict[Predicate, tuple[frozenset[Predicate], frozenset[Predicate]]] = {}


def _rel(true: tuple[Predicate, ...], false: tuple[Predicate, ...]) -> tuple[frozenset[Predicate], frozenset[Predicate]]:
    return (frozenset(true), frozenset(false))


P = Predicate
_RELATION_RESULTS.update(
    {
        P.ICMP_ULT: _rel((P.ICMP_ULT, P.ICMP_NE, P.ICMP_ULE), (P.ICMP_UGT, P.ICMP_EQ, P.ICMP_UGE)),
        P.ICMP_SLT: _rel((P.ICMP_SLT, P.ICMP_NE, P.ICMP_SLE), (P.ICMP_SGT, P.ICMP_EQ, P.ICMP_SGE)),
        P.ICMP_UGT: _rel((P.ICMP_UGT, P.ICMP_NE, P.ICMP_UGE), (P.ICMP_ULT, P.ICMP_EQ, P.ICMP_ULE)),
        P.ICMP_SGT: _rel((P.ICMP_SGT, P.ICMP_NE, P.ICMP_SGE), (P.ICMP_SLT, P.ICMP_EQ, P.ICMP_SLE)),
        P.ICMP_ULE: _rel((P.ICMP_ULT, P.ICMP_ULE), (P.ICMP_UGT,)),
        P.ICMP_SLE: _rel((P.ICMP_SLT, P.ICMP_SLE), (P.ICMP_SGT,)),
        P.ICMP_UGE: _rel((P.ICMP_UGT, P.ICMP_UGE), (P.ICMP_ULT,)),
        P.ICMP_SGE: _rel((P.ICMP_SGT, P.ICMP_SGE), (P.ICMP_SLT,)),
        P.ICMP_NE: _rel((P.ICMP_NE,), (P.ICMP_EQ,)),
    }
)
del P


def _cmp_result_type(c: Constant) -> Type:
    ty = c.type
    ctx = ty.context
    if isinstance(ty, VectorType):
        return ctx.vector_type(ctx.i1, ty.count, ty.scalable)
    return ctx.i1


def _bool_constant(ty: Type, value: bool) -> Constant:
    return Constant.get_all_ones_value(ty) if value else Constant.get_null_value(ty)


def constant_fold_compare_instruction(pred: Predicate, lhs: Constant, rhs: Constant) -> Constant | None:
    """LLVM ``ConstantFoldCompareInstruction``."""
    c1 = lhs
    c2 = rhs
    while True:
        rty = _cmp_result_type(c1)
        if pred is Predicate.FCMP_FALSE:
            return Constant.get_null_value(rty)
        if pred is Predicate.FCMP_TRUE:
            return Constant.get_all_ones_value(rty)
        if isinstance(c1, PoisonValue) or isinstance(c2, PoisonValue):
            return PoisonValue.get(rty)
        if isinstance(c1, UndefValue) or isinstance(c2, UndefValue):
            is_int = pred.is_int_predicate
            # LLVM tests ICmpInst::isEquality: eq/ne of icmp only (fcmp ueq/one fold like other fcmps)
            if pred in (Predicate.ICMP_EQ, Predicate.ICMP_NE) or (is_int and c1 is c2):
                return UndefValue.get(rty)
            if is_int:
                return _bool_constant(rty, pred.is_true_when_equal)
            return _bool_constant(rty, pred.is_unordered)
        if c2.is_null_value:
            if pred is Predicate.ICMP_UGE:
                return Constant.get_all_ones_value(rty)
            if pred is Predicate.ICMP_ULT:
                return Constant.get_null_value(rty)
        ty = c1.type
        if isinstance(ty, IntegerType) and ty.width == 1:
            if pred is Predicate.ICMP_EQ:
                if isinstance(c2, ConstantInt):
                    return ConstantExpr.get_binary("xor", c1, ConstantExpr.get_not(c2))
                return ConstantExpr.get_binary("xor", ConstantExpr.get_not(c1), c2)
            if pred is Predicate.ICMP_NE:
                return ConstantExpr.get_binary("xor", c1, c2)
        if isinstance(c1, ConstantInt) and isinstance(c2, ConstantInt):
            return ConstantInt.get(rty, int(icmp_compare(c1.value, c2.value, c1.type.width, pred)))
        if isinstance(c1, ConstantFP) and isinstance(c2, ConstantFP):
            sem = apfloat.semantics_of(c1.type.type_id)
            if sem is None:
                return None
            return ConstantInt.get(rty, int(fcmp_compare(sem, c1.bits, c2.bits, pred)))
        if isinstance(ty, VectorType):
            s1 = get_splat_value(c1)
            if s1 is not None:
                s2 = get_splat_value(c2)
                if s2 is not None:
                    elt = constant_fold_compare_instruction(pred, s1, s2)
                    if elt is not None:
                        return ConstantVector.get_splat(rty, elt)  # type: ignore[arg-type]
            if ty.scalable:
                return None
            lanes: list[Constant] = []
            for i in range(ty.count):
                r = constant_fold_compare_instruction(pred, get_extract_element(c1, i), get_extract_element(c2, i))
                if r is None:
                    return None
                lanes.append(r)
            return ConstantVector.get(lanes)
        if ty.is_fp_or_fp_vector:
            if c1 is c2:
                if pred is Predicate.FCMP_ONE:
                    return ConstantInt.get(rty, 0)
                if pred is Predicate.FCMP_UEQ:
                    return ConstantInt.get(rty, 1)
            return None
        rel = evaluate_icmp_relation(c1, c2)
        if rel is not None:
            if rel is Predicate.ICMP_EQ:
                return ConstantInt.get(rty, int(pred.is_true_when_equal))
            true_set, false_set = _RELATION_RESULTS[rel]
            if pred in true_set:
                return ConstantInt.get(rty, 1)
            if pred in false_set:
                return ConstantInt.get(rty, 0)
        if (not isinstance(c1, ConstantExpr) and isinstance(c2, ConstantExpr)) or (
            c1.is_null_value and not c2.is_null_value
        ):
            pred = pred.swapped
            c1, c2 = c2, c1
            continue
        return None


# --- getelementptr ---------------------------------------------------------------------------------------------


def gep_result_type(pointer: Constant, indices: Sequence[Constant]) -> Type:
    """LLVM ``GetElementPtrInst::getGEPReturnType``."""
    ty = pointer.type
    if isinstance(ty, VectorType):
        return ty
    for idx in indices:
        it = idx.type
        if isinstance(it, VectorType):
            return ty.context.vector_type(ty, it.count, it.scalable)
    return ty


def constant_fold_get_element_ptr(
    source_element_type: Type | None,
    pointer: Constant,
    inrange: tuple[int, int] | None,
    indices: Sequence[Constant],
) -> Constant | None:
    """LLVM ``ConstantFoldGetElementPtr`` (target independent)."""
    if not indices:
        return pointer
    result = gep_result_type(pointer, indices)
    if isinstance(pointer, PoisonValue):
        return PoisonValue.get(result)
    if isinstance(pointer, UndefValue):
        return UndefValue.get(result)
    if inrange is not None:
        return None
    for idx in indices:
        if not (idx.is_null_value or isinstance(idx, UndefValue)):
            return None
    if isinstance(result, VectorType) and not isinstance(pointer.type, VectorType):
        return ConstantVector.get_splat(result, pointer)
    return pointer
