"""DataLayout-aware constant folding (LLVM ``Analysis/ConstantFolding.cpp``).

Builds on the target-independent folds of :mod:`llvmpy_mid.ir.constant_fold`
and adds what needs the data layout: GEP offsets (``getelementptr`` of
constant indices becomes ``getelementptr i8, ptr P, i64 off``, of null an
``inttoptr``), ``ptrtoint``/``inttoptr`` pairs, bit casts between vectors of
different lane counts, loads from constant globals (reading the initializer's
bytes through any type), ``sub`` of two offsets from one global, the
``and`` of known bits, comparisons through pointer casts and offsets, and the
function's denormal mode for floating-point operands. Loads and layout bit
casts live in :mod:`llvmpy_mid.analysis.constant_folding_memory`, calls
(intrinsics and libm) in :mod:`llvmpy_mid.analysis.constant_folding_calls`;
both are re-exported here.

Entry points follow LLVM's names in snake case; every one returns the
folded constant or None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset, strip_and_accumulate_constant_offsets
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir import constant_fold as cf
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    DSOLocalEquivalent,
    UndefValue,
)
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instructions.casts import CAST_OPCODES as CAST_OPCODE_ORDER
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import (
    IntegerType,
    PointerType,
    StructType,
    Type,
    TypeID,
    VectorType,
)
from llvmpy_mid.ir.value import Value
from llvmpy_mid.analysis.constant_folding_memory import (
    constant_fold_load_from_const as constant_fold_load_from_const,
    constant_fold_load_from_const_ptr as constant_fold_load_from_const_ptr,
    constant_fold_load_from_uniform_value as constant_fold_load_from_uniform_value,
    constant_fold_load_through_bitcast as constant_fold_load_through_bitcast,
    fold_bit_cast as fold_bit_cast,
    fold_reinterpret_load_from_const as fold_reinterpret_load_from_const,
    read_data_from_global as read_data_from_global,
)

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.calls import CallBase

CAST_OPCODES = frozenset(CAST_OPCODE_ORDER)
UNARY_OPCODES = frozenset(("fneg",))
FP_BINARY_OPCODES = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem"))


# --- bit casts -------------------------------------------------------------------------------------------------










# --- offsets from globals ----------------------------------------------------------------------------------


def gep_constant_offset(gep: Value, dl: DataLayout) -> int | None:
    """LLVM ``GEPOperator::accumulateConstantOffset`` for a GEP instruction or expression
    (the byte offset, or None when an index is not a constant)."""
    return accumulate_constant_offset(dl, gep, dl.index_type_size_in_bits(gep.type))


def is_constant_offset_from_global(c: Constant, dl: DataLayout) -> tuple[GlobalValue, int] | None:
    """LLVM ``IsConstantOffsetFromGlobal``: ``(global, byte offset)`` or None."""
    steps: list[ConstantExpr] = []
    v: Value = c
    while True:
        if isinstance(v, GlobalValue):
            gv = v
            break
        if isinstance(v, DSOLocalEquivalent):
            gv = v.global_value
            break
        if not isinstance(v, ConstantExpr):
            return None
        if v.opcode in ("ptrtoint", "bitcast"):
            v = v.get_operand(0)
            continue
        if v.opcode != "getelementptr":
            return None
        steps.append(v)
        v = v.get_operand(0)
    width = dl.index_type_size_in_bits(gv.type)
    offset = 0
    for gep in reversed(steps):
        g = gep_constant_offset(gep, dl)
        if g is None:
            return None
        width = dl.index_type_size_in_bits(gep.type)
        offset = _sext(offset + g, width)
    return gv, offset


def _sext(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


# --- loads from constants ------------------------------------------------------------------------------------




















# --- symbolic evaluation -------------------------------------------------------------------------------------


def _symbolically_evaluate_binop(opcode: str, op0: Constant, op1: Constant, dl: DataLayout) -> Constant | None:
    if opcode == "and":
        try:
            from llvmpy_mid.analysis.value_tracking import compute_known_bits
        except ImportError:  # pragma: no cover - value tracking is part of the package
            return None
        k0 = compute_known_bits(op0, dl)
        k1 = compute_known_bits(op1, dl)
        full = (1 << k0.bit_width) - 1
        if (k1.one | k0.zero) == full:
            return op0
        if (k0.one | k1.zero) == full:
            return op1
        zero = k0.zero | k1.zero
        one = k0.one & k1.one
        if zero | one == full and isinstance(op0.type, IntegerType):
            return ConstantInt.get(op0.type, one)
    if opcode == "sub":
        a = is_constant_offset_from_global(op0, dl)
        if a is not None:
            b = is_constant_offset_from_global(op1, dl)
            if b is not None and a[0] is b[0] and isinstance(op0.type, IntegerType):
                return ConstantInt.get(op0.type, a[1] - b[1])
    return None


def _cast_gep_indices(
    src_elt: Type, ops: Sequence[Constant], result_ty: Type, flags: int, inrange: tuple[int, int] | None,
    dl: DataLayout, tli: TargetLibraryInfo | None,
) -> Constant | None:
    """LLVM's ``CastGEPIndices``: indices of another width cast to the index type."""
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst

    idx_ty = dl.index_type(result_ty)
    idx_scalar = idx_ty.scalar_type
    changed = False
    new: list[Constant] = []
    for i in range(1, len(ops)):
        op = ops[i]
        steps_into_struct = i != 1 and isinstance(
            GetElementPtrInst.get_indexed_type(src_elt, list(ops[1:i])), StructType
        )
        if not steps_into_struct and op.type.scalar_type is not idx_scalar:
            changed = True
            new_ty = idx_ty if isinstance(op.type, VectorType) else idx_scalar
            width_from = cf.scalar_size_in_bits(op.type)
            width_to = cf.scalar_size_in_bits(new_ty)
            opc = "trunc" if width_from > width_to else "sext"
            folded = constant_fold_cast_operand(opc, op, new_ty, dl)
            if folded is None:
                return None
            new.append(folded)
        else:
            new.append(op)
    if not changed:
        return None
    c = ConstantExpr.get_gep(src_elt, ops[0], new, inrange=inrange, flags=flags)
    return constant_fold_constant(c, dl, tli)


def _symbolically_evaluate_gep(
    gep: Value, ops: Sequence[Constant], dl: DataLayout, tli: TargetLibraryInfo | None
) -> Constant | None:
    """LLVM's ``SymbolicallyEvaluateGEP``: constant indices become one byte offset."""
    src_elt, flags, inrange = _gep_info(gep)
    res_ty = gep.type
    if not src_elt.is_sized or (isinstance(src_elt, VectorType) and src_elt.scalable):
        return None
    c = _cast_gep_indices(src_elt, ops, res_ty, flags, inrange, dl, tli)
    if c is not None:
        return c
    ptr = ops[0]
    if not isinstance(ptr.type, PointerType):
        return None
    for op in ops[1:]:
        if not isinstance(op, ConstantInt):
            return None
    width = dl.index_type_size_in_bits(ptr.type)
    int_ops = [cast(ConstantInt, op).sext_value for op in ops[1:]]
    try:
        offset = dl.indexed_offset_in_type(src_elt, int_ops)
    except Exception:
        return None
    offset = _sext(offset, width)
    if inrange is not None:
        inrange = (_sext(inrange[0], width), _sext(inrange[1], width))
    overflow = False
    from llvmpy_mid.ir.constant_expr import GEP_INBOUNDS, GEP_NUSW, GEP_NUW

    while isinstance(ptr, ConstantExpr) and ptr.opcode == "getelementptr":
        inner_flags = ptr.flags
        nested = ptr.indices
        if not all(isinstance(n, ConstantInt) for n in nested):
            break
        flags &= inner_flags
        if inrange is None and ptr.inrange is not None:
            lo, hi = ptr.inrange
            inrange = (_sext(lo, width) - offset, _sext(hi, width) - offset)
        inner_src = ptr.source_element_type
        assert inner_src is not None
        try:
            inner_off = dl.indexed_offset_in_type(inner_src, [cast(ConstantInt, n).sext_value for n in nested])
        except Exception:
            return None
        total = offset + _sext(inner_off, width)
        if _sext(total, width) != total:
            overflow = True
        offset = _sext(total, width)
        ptr = cast(Constant, ptr.get_operand(0))
    if flags & GEP_NUSW and not flags & GEP_INBOUNDS and overflow:
        flags &= ~GEP_NUSW
    base_ptr = 0
    if isinstance(ptr, ConstantExpr) and ptr.opcode == "inttoptr":
        b = ptr.get_operand(0)
        if isinstance(b, ConstantInt):
            base_ptr = b.value & ((1 << width) - 1)
    pty = ptr.type
    assert isinstance(pty, PointerType)
    ctx = ptr.type.context
    if (ptr.is_null_value or base_ptr != 0) and not dl.is_non_integral_pointer_type(pty):
        ci = ConstantInt.get(ctx.int_type(width), offset + base_ptr)
        return ConstantExpr.get_cast("inttoptr", ci, res_ty)
    if not flags & GEP_INBOUNDS and offset >= 0:
        deref = _dereferenceable_bytes(ptr, dl)
        if deref and offset <= deref:
            flags |= GEP_INBOUNDS | GEP_NUSW
    del GEP_NUW
    return ConstantExpr.get_gep(
        ctx.i8, ptr, [ConstantInt.get(ctx.int_type(width), offset)], inrange=inrange, flags=flags
    )


def _dereferenceable_bytes(ptr: Constant, dl: DataLayout) -> int:
    """LLVM ``Value::getPointerDereferenceableBytes`` for a constant pointer that cannot be
    null or freed (a global variable that is not extern_weak), else 0."""
    from llvmpy_mid.ir.global_value import GlobalVariable

    if isinstance(ptr, GlobalVariable) and not ptr.has_extern_weak_linkage:
        vt = ptr.value_type
        if vt.is_sized and not dl.is_scalable(vt):
            return dl.type_store_size(vt)
    return 0


def _gep_info(gep: Value) -> tuple[Type, int, tuple[int, int] | None]:
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst

    if isinstance(gep, ConstantExpr):
        src = gep.source_element_type
        assert src is not None
        return src, gep.flags, gep.inrange
    assert isinstance(gep, GetElementPtrInst)
    return gep.source_element_type, int(gep._gep_flags), None


# --- instructions and constant expressions ---------------------------------------------------------------


def _fold_operands_impl(
    inst_or_ce: Value,
    opcode: str,
    ops: Sequence[Constant],
    dl: DataLayout,
    tli: TargetLibraryInfo | None,
    allow_non_deterministic: bool,
) -> Constant | None:
    """LLVM's ``ConstantFoldInstOperandsImpl``."""
    dest = inst_or_ce.type
    if opcode in UNARY_OPCODES:
        return cf.constant_fold_unary_instruction(opcode, ops[0])
    if opcode in cf.BINARY_OPCODES:
        if opcode in FP_BINARY_OPCODES and not isinstance(inst_or_ce, Constant):
            return constant_fold_fp_inst_operands(
                opcode, ops[0], ops[1], dl, cast("Instruction", inst_or_ce), allow_non_deterministic
            )
        return constant_fold_binary_op_operands(opcode, ops[0], ops[1], dl)
    if opcode in CAST_OPCODES:
        return constant_fold_cast_operand(opcode, ops[0], dest, dl)
    if opcode == "getelementptr":
        src_elt, flags, inrange = _gep_info(inst_or_ce)
        if dl.is_scalable(src_elt):
            return None  # LLVM's isSupportedGetElementPtr: no scalable source types
        c = _symbolically_evaluate_gep(inst_or_ce, ops, dl, tli)
        if c is not None:
            return c
        return ConstantExpr.get_gep(src_elt, ops[0], ops[1:], inrange=inrange, flags=flags)
    if isinstance(inst_or_ce, ConstantExpr):
        return inst_or_ce.with_operands(ops)
    if opcode in ("icmp", "fcmp"):
        pred = cast(Predicate, getattr(inst_or_ce, "predicate"))
        return constant_fold_compare_inst_operands(pred, ops[0], ops[1], dl, tli, cast("Instruction", inst_or_ce))
    if opcode == "freeze":
        try:
            from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_undef_or_poison
        except ImportError:
            from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison
        return ops[0] if is_guaranteed_not_to_be_undef_or_poison(ops[0]) else None
    if opcode == "call":
        from llvmpy_mid.ir.function import Function

        fn = ops[-1]
        if isinstance(fn, Function):
            from llvmpy_mid.analysis.constant_folding_calls import can_constant_fold_call_to, constant_fold_call

            call = cast("CallBase", inst_or_ce)
            if can_constant_fold_call_to(call, fn):
                return constant_fold_call(call, fn, list(ops[:-1]), tli, allow_non_deterministic)
        return None
    if opcode == "select":
        return cf.constant_fold_select_instruction(ops[0], ops[1], ops[2])
    if opcode == "extractelement":
        return ConstantExpr.get_extract_element(ops[0], ops[1])
    if opcode == "insertelement":
        return ConstantExpr.get_insert_element(ops[0], ops[1], ops[2])
    if opcode == "extractvalue":
        return cf.constant_fold_extract_value(ops[0], getattr(inst_or_ce, "indices"))
    if opcode == "insertvalue":
        return cf.constant_fold_insert_value(ops[0], ops[1], getattr(inst_or_ce, "indices"))
    if opcode == "shufflevector":
        return ConstantExpr.get_shuffle_vector(ops[0], ops[1], getattr(inst_or_ce, "mask"))
    if opcode == "load":
        if getattr(inst_or_ce, "is_volatile", False):
            return None
        return constant_fold_load_from_const_ptr(ops[0], dest, dl)
    return None


def constant_fold_constant(c: Constant, dl: DataLayout, tli: TargetLibraryInfo | None = None) -> Constant:
    """LLVM ``ConstantFoldConstant``: fold a constant expression (or vector) bottom-up."""
    if not isinstance(c, (ConstantVector, ConstantExpr)):
        return c
    return _fold_constant_impl(c, dl, tli, {})


def _fold_constant_impl(
    root: Constant, dl: DataLayout, tli: TargetLibraryInfo | None, memo: dict[int, Constant]
) -> Constant:
    """Post-order over nested expressions and vectors with an explicit stack."""
    stack: list[tuple[Constant, bool]] = [(root, False)]
    while stack:
        c, ready = stack.pop()
        if id(c) in memo:
            continue
        if not ready:
            stack.append((c, True))
            for op in c.operands:
                if isinstance(op, (ConstantVector, ConstantExpr)) and id(op) not in memo:
                    stack.append((op, False))
            continue
        ops: list[Constant] = []
        for op in c.operands:
            oc = cast(Constant, op)
            ops.append(memo.get(id(oc), oc) if isinstance(oc, (ConstantVector, ConstantExpr)) else oc)
        if isinstance(c, ConstantExpr):
            res = _fold_operands_impl(c, c.opcode, ops, dl, tli, True)
            memo[id(c)] = res if res is not None else c
        else:
            memo[id(c)] = ConstantVector.get(ops)
    return memo[id(root)]


def constant_fold_instruction(
    inst: Instruction, dl: DataLayout, tli: TargetLibraryInfo | None = None
) -> Constant | None:
    """LLVM ``ConstantFoldInstruction``: the constant an instruction with constant operands
    computes (a phi: its one non-undef incoming constant)."""
    from llvmpy_mid.ir.instructions.other import PHINode

    memo: dict[int, Constant] = {}
    if isinstance(inst, PHINode):
        common: Constant | None = None
        for v in inst.incoming_values:
            if isinstance(v, UndefValue):
                continue
            if not isinstance(v, Constant):
                return None
            c = _fold_constant_impl(v, dl, tli, memo) if isinstance(v, (ConstantVector, ConstantExpr)) else v
            if common is not None and c is not common:
                return None
            common = c
        return common if common is not None else UndefValue.get(inst.type)
    ops: list[Constant] = []
    for v in inst.operands:
        if not isinstance(v, Constant):
            return None
        ops.append(_fold_constant_impl(v, dl, tli, memo) if isinstance(v, (ConstantVector, ConstantExpr)) else v)
    return constant_fold_inst_operands(inst, ops, dl, tli)


def constant_fold_inst_operands(
    inst: Instruction,
    ops: Sequence[Constant],
    dl: DataLayout,
    tli: TargetLibraryInfo | None = None,
    allow_non_deterministic: bool = True,
) -> Constant | None:
    """LLVM ``ConstantFoldInstOperands``: ``inst`` evaluated on the constants ``ops`` (for a
    call the callee is the last operand)."""
    return _fold_operands_impl(inst, inst.opcode, ops, dl, tli, allow_non_deterministic)


def _strip_inbounds_offsets(c: Constant, dl: DataLayout) -> tuple[Value, int]:
    return strip_and_accumulate_constant_offsets(c, dl, False)


def constant_fold_compare_inst_operands(
    pred: Predicate,
    lhs: Constant,
    rhs: Constant,
    dl: DataLayout,
    tli: TargetLibraryInfo | None = None,
    ctx_inst: Instruction | None = None,
) -> Constant | None:
    """LLVM ``ConstantFoldCompareInstOperands``."""
    ops0 = lhs
    ops1 = rhs
    while True:
        if isinstance(ops0, ConstantExpr):
            ce0 = ops0
            if ops1.is_null_value:
                if ce0.opcode == "inttoptr":
                    ipt = dl.int_ptr_type(ce0.type)
                    c = constant_fold_integer_cast(cast(Constant, ce0.get_operand(0)), ipt, False, dl)
                    if c is not None:
                        ops0, ops1, ctx_inst = c, Constant.get_null_value(c.type), None
                        continue
                if ce0.opcode == "ptrtoint":
                    inner = cast(Constant, ce0.get_operand(0))
                    if ce0.type is dl.int_ptr_type(inner.type):
                        ops0, ops1, ctx_inst = inner, Constant.get_null_value(inner.type), None
                        continue
            if isinstance(ops1, ConstantExpr) and ce0.opcode == ops1.opcode:
                if ce0.opcode == "inttoptr":
                    ipt = dl.int_ptr_type(ce0.type)
                    c0 = constant_fold_integer_cast(cast(Constant, ce0.get_operand(0)), ipt, False, dl)
                    c1 = constant_fold_integer_cast(cast(Constant, ops1.get_operand(0)), ipt, False, dl)
                    if c0 is not None and c1 is not None:
                        ops0, ops1, ctx_inst = c0, c1, None
                        continue
                if ce0.opcode == "ptrtoint":
                    a = cast(Constant, ce0.get_operand(0))
                    b = cast(Constant, ops1.get_operand(0))
                    if ce0.type is dl.int_ptr_type(a.type) and a.type is b.type:
                        ops0, ops1, ctx_inst = a, b, None
                        continue
            if isinstance(ops0.type, PointerType) and not pred.is_signed:
                s0, off0 = _strip_inbounds_offsets(ops0, dl)
                s1, off1 = _strip_inbounds_offsets(ops1, dl)
                if s0 is s1:
                    width = dl.index_type_size_in_bits(ops0.type)
                    signed = pred.signed if pred.is_unsigned else pred
                    m = (1 << width) - 1
                    r = cf.icmp_compare(off0 & m, off1 & m, width, signed)
                    return ConstantInt.get(ops0.type.context.i1, int(r))
        elif isinstance(ops1, ConstantExpr):
            pred = pred.swapped
            ops0, ops1 = ops1, ops0
            ctx_inst = None
            continue
        break
    f0 = flush_fp_constant(ops0, ctx_inst, False)
    if f0 is None:
        return None
    f1 = flush_fp_constant(ops1, ctx_inst, False)
    if f1 is None:
        return None
    return cf.constant_fold_compare_instruction(pred, f0, f1)


def constant_fold_unary_op_operand(opcode: str, op: Constant, dl: DataLayout) -> Constant | None:
    return cf.constant_fold_unary_instruction(opcode, op)


def constant_fold_binary_op_operands(opcode: str, lhs: Constant, rhs: Constant, dl: DataLayout) -> Constant | None:
    """LLVM ``ConstantFoldBinaryOpOperands``."""
    if isinstance(lhs, ConstantExpr) or isinstance(rhs, ConstantExpr):
        c = _symbolically_evaluate_binop(opcode, lhs, rhs, dl)
        if c is not None:
            return c
    if opcode in cf.DESIRABLE_BINOPS:
        return ConstantExpr.get_binary(opcode, lhs, rhs)
    return cf.constant_fold_binary_instruction(opcode, lhs, rhs)


# Denormal modes (LLVM DenormalMode::DenormalModeKind).
_DENORMAL_KINDS = {"ieee": "ieee", "preserve-sign": "preserve-sign", "positive-zero": "positive-zero", "dynamic": "dynamic"}


def denormal_mode(fn: Function, ty: Type) -> tuple[str, str]:
    """``(output, input)`` denormal modes of ``fn`` for ``ty`` (attributes
    ``denormal-fp-math`` and, for float, ``denormal-fp-math-f32``)."""
    attrs = fn.attributes.fn_attrs
    text: str | None = None
    if ty.type_id is TypeID.FLOAT:
        text = attrs.string_value("denormal-fp-math-f32")
    if text is None:
        text = attrs.string_value("denormal-fp-math")
    if not text:
        return ("ieee", "ieee")
    parts = text.split(",")
    out = _DENORMAL_KINDS.get(parts[0], "invalid")
    inp = _DENORMAL_KINDS.get(parts[1], "invalid") if len(parts) > 1 else out
    return (out, inp)


def flush_fp_constant(c: Constant, inst: Instruction | None, is_output: bool) -> Constant | None:
    """LLVM ``FlushFPConstant``: a denormal operand/result under the function's denormal mode
    (None for a dynamic mode)."""
    if inst is None or not isinstance(c, ConstantFP):
        return c
    fn = inst.function
    if fn is None:
        return c
    sem = apfloat.semantics_of(c.type.type_id)
    if sem is None or not apfloat.is_denormal(sem, c.bits):
        return c
    out, inp = denormal_mode(fn, c.type)
    mode = out if is_output else inp
    if mode == "dynamic":
        return None
    if mode == "preserve-sign":
        return ConstantFP.from_bits(c.type, c.bits & (1 << (sem.width - 1)))
    if mode == "positive-zero":
        return ConstantFP.from_bits(c.type, 0)
    return c


def _is_nan_constant(c: Constant) -> bool:
    """LLVM ``Constant::isNaN``: a NaN, or a vector whose lanes are all NaN."""
    if isinstance(c, ConstantFP):
        return c.is_nan
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable:
        for i in range(ty.count):
            e = c.get_aggregate_element(i)
            if not isinstance(e, ConstantFP) or not e.is_nan:
                return False
        return True
    return False


def constant_fold_fp_inst_operands(
    opcode: str,
    lhs: Constant,
    rhs: Constant,
    dl: DataLayout,
    inst: Instruction | None,
    allow_non_deterministic: bool = True,
) -> Constant | None:
    """LLVM ``ConstantFoldFPInstOperands``: with the denormal mode of the instruction's function."""
    op0 = flush_fp_constant(lhs, inst, False)
    if op0 is None:
        return None
    op1 = flush_fp_constant(rhs, inst, False)
    if op1 is None:
        return None
    if not allow_non_deterministic and inst is not None:
        fmf = getattr(inst, "fast_math_flags", None)
        if fmf is not None:
            from llvmpy_mid.ir.instructions.flags import FastMathFlags

            if int(fmf) & int(FastMathFlags.NSZ | FastMathFlags.REASSOC | FastMathFlags.CONTRACT | FastMathFlags.ARCP):
                return None
    c = constant_fold_binary_op_operands(opcode, op0, op1, dl)
    if c is None:
        return None
    c = flush_fp_constant(c, inst, True)
    if c is None:
        return None
    if not allow_non_deterministic and _is_nan_constant(c):
        return None
    return c


def constant_fold_cast_operand(opcode: str, c: Constant, dest: Type, dl: DataLayout) -> Constant | None:
    """LLVM ``ConstantFoldCastOperand``."""
    if opcode == "ptrtoint":
        if isinstance(c, ConstantExpr):
            folded: Constant | None = None
            if c.opcode == "inttoptr":
                folded = constant_fold_integer_cast(
                    cast(Constant, c.get_operand(0)), dl.int_ptr_type(c.type), False, dl
                )
            elif c.opcode == "getelementptr":
                base, off = strip_and_accumulate_constant_offsets(c, dl, True)
                width = dl.index_type_size_in_bits(c.type)
                if isinstance(base, Constant) and base.is_null_value:
                    folded = ConstantInt.get(c.type.context.int_type(width), off)
                else:
                    idx = c.indices
                    if len(idx) == 1 and c.source_element_type is c.type.context.i8:
                        ptr = c.pointer_operand
                        sub = idx[0]
                        idx_ty = dl.index_type(ptr.type)
                        if (
                            isinstance(sub, ConstantExpr)
                            and sub.type is idx_ty
                            and sub.opcode == "sub"
                            and cast(Constant, sub.get_operand(0)).is_null_value
                        ):
                            folded = ConstantExpr.get_sub(
                                ConstantExpr.get_cast("ptrtoint", ptr, idx_ty), cast(Constant, sub.get_operand(1))
                            )
            if folded is not None:
                return constant_fold_integer_cast(folded, dest, False, dl)
    elif opcode == "inttoptr":
        if isinstance(c, ConstantExpr) and c.opcode == "ptrtoint":
            src = cast(Constant, c.get_operand(0))
            if cf.scalar_size_in_bits(c.type) >= dl.pointer_type_size_in_bits(src.type):
                if cf._address_space(src.type) == cf._address_space(dest):
                    return fold_bit_cast(src, dest, dl)
    elif opcode == "bitcast":
        return fold_bit_cast(c, dest, dl)
    if opcode in cf.DESIRABLE_CASTS:
        return ConstantExpr.get_cast(opcode, c, dest)
    return cf.constant_fold_cast_instruction(opcode, c, dest)


def constant_fold_integer_cast(c: Constant, dest: Type, is_signed: bool, dl: DataLayout) -> Constant | None:
    """LLVM ``ConstantFoldIntegerCast``: trunc, sext or zext to ``dest``."""
    src = c.type
    if src is dest:
        return c
    if cf.scalar_size_in_bits(src) > cf.scalar_size_in_bits(dest):
        return constant_fold_cast_operand("trunc", c, dest, dl)
    return constant_fold_cast_operand("sext" if is_signed else "zext", c, dest, dl)


def can_constant_fold_call_to(call: CallBase, callee: Function) -> bool:
    """LLVM ``canConstantFoldCallTo`` (see :mod:`llvmpy_mid.analysis.constant_folding_calls`)."""
    from llvmpy_mid.analysis import constant_folding_calls

    return constant_folding_calls.can_constant_fold_call_to(call, callee)


def constant_fold_call(
    call: CallBase,
    callee: Function,
    ops: Sequence[Constant],
    tli: TargetLibraryInfo | None = None,
    allow_non_deterministic: bool = True,
) -> Constant | None:
    """LLVM ``ConstantFoldCall`` (see :mod:`llvmpy_mid.analysis.constant_folding_calls`)."""
    from llvmpy_mid.analysis import constant_folding_calls

    return constant_folding_calls.constant_fold_call(call, callee, list(ops), tli, allow_non_deterministic)


def is_math_lib_call_no_op(call: CallBase, tli: TargetLibraryInfo | None) -> bool:
    """LLVM ``isMathLibCallNoop`` (see :mod:`llvmpy_mid.analysis.constant_folding_calls`)."""
    from llvmpy_mid.analysis import constant_folding_calls

    return constant_folding_calls.is_math_lib_call_no_op(call, tli)
