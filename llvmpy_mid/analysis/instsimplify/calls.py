"""Calls of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``: ``simplifyCall``,
``tryConstantFoldCall``, ``simplifyIntrinsic`` with ``simplifyUnaryIntrinsic``
and ``simplifyBinaryIntrinsic``): constant folding of calls the folder knows,
then the intrinsic identities — idempotent rounding, bswap/bitreverse pairs,
ctpop of a power of two, min/max saturation and shared operands, saturating
and overflow arithmetic with undef or identity operands, funnel shifts by
zero, ``fma``/``fmuladd`` NaN and poison operands, ``ptrmask``, ``powi``,
``copysign``, ``is.fpclass`` masks, ``minnum``/``maxnum``/``minimum``/
``maximum`` with NaN or infinite operands, fixed-point multiply by zero or one,
``vector.insert``/``vector.extract`` pairs and ``gc.relocate`` of undef or null.

What it does not do (yet): ``llvm.vscale`` from ``vscale_range``, the constrained
(strictfp) intrinsics, ``ldexp``, ``load.relative``, and the folds that need
``computeKnownFPClass``.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, intrinsic_base_name
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.statepoint import gc_relocate_pointers
from llvmpy_mid.ir.types import StructType, Type
from llvmpy_mid.ir.value import Value

P = Predicate

_IDEMPOTENT = u.ROUNDING_INTRINSICS | frozenset(
    (
        "llvm.fabs",
        "llvm.canonicalize",
        "llvm.arithmetic.fence",
    )
)
_REMOVES_FRACTION = u.ROUNDING_INTRINSICS
_INVERSE_LOGS = {
    "llvm.exp": ("llvm.log",),
    "llvm.exp2": ("llvm.log2",),
    "llvm.exp10": ("llvm.log10",),
    "llvm.log": ("llvm.exp",),
    "llvm.log2": ("llvm.exp2",),
    "llvm.log10": ("llvm.exp10",),
}
_MINMAX_INVERSE = {"llvm.smax": "llvm.smin", "llvm.smin": "llvm.smax", "llvm.umax": "llvm.umin", "llvm.umin": "llvm.umax"}
_MINMAX_NONSTRICT = {"llvm.smax": P.ICMP_SGE, "llvm.smin": P.ICMP_SLE, "llvm.umax": P.ICMP_UGE, "llvm.umin": P.ICMP_ULE}


def _call_fmf(call: CallBase | None) -> int:
    if call is None:
        return 0
    return int(getattr(call, "fast_math_flags", 0))


def _saturation_point(name: str, width: int) -> int:
    """The value min/max always returns when one operand is it (LLVM ``getSaturationPoint``)."""
    if name == "llvm.smax":
        return (1 << (width - 1)) - 1
    if name == "llvm.smin":
        return 1 << (width - 1)
    if name == "llvm.umax":
        return (1 << width) - 1
    return 0


def simplify_unary_intrinsic(name: str, op0: Value, q: SimplifyQuery, call: CallBase | None) -> Value | None:
    if name in _IDEMPOTENT and u.intrinsic_name(op0) == name:
        return op0
    if name in _REMOVES_FRACTION:
        if u.intrinsic_name(op0) in _REMOVES_FRACTION or u.opcode_of(op0) in ("sitofp", "uitofp"):
            return op0
    if name == "llvm.fabs":
        from llvmpy_mid.analysis.instsimplify.fp import known_sign_bit_clear

        return op0 if known_sign_bit_clear(op0) else None
    if name == "llvm.frexp":
        from llvmpy_mid.ir.instructions.vector import ExtractValueInst

        if isinstance(op0, ExtractValueInst) and tuple(op0.indices) == (0,):
            x = op0.aggregate_operand
            if u.intrinsic_name(x) == "llvm.frexp":
                return x
        return None
    if name == "llvm.bswap" or name == "llvm.bitreverse":
        args = u.intrinsic_args(op0, name)
        if args is not None:
            return args[0]
        return None
    if name == "llvm.ctpop":
        if u.known_power_of_two(op0, q, False):
            return u.const_int(op0.type, 1)
        w = u.scalar_bits(op0.type)
        if u.masked_zero(op0, ((1 << w) - 1) & ~1, q):
            return op0
        return None
    if name in _INVERSE_LOGS:
        if _call_fmf(call) & int(FastMathFlags.REASSOC):
            for inner in _INVERSE_LOGS[name]:
                args = u.intrinsic_args(op0, inner)
                if args is not None:
                    return args[0]
            base = {"llvm.log2": 2.0, "llvm.log10": 10.0}.get(name)
            if base is not None:
                args = u.intrinsic_args(op0, "llvm.pow")
                if args is not None and isinstance(args[0], ConstantFP) and args[0].value == base:
                    return args[1]
        return None
    if name == "llvm.vector.reverse":
        args = u.intrinsic_args(op0, name)
        if args is not None:
            return args[0]
        from llvmpy_mid.analysis.instsimplify.other import is_splat_value

        if is_splat_value(op0):
            return op0
        return None
    return None


def _min_max_shared_op(name: str, op0: Value, op1: Value) -> Value | None:
    n0 = u.intrinsic_name(op0)
    if n0 not in _MINMAX_INVERSE:
        return None
    args = u.intrinsic_args(op0, n0)
    assert args is not None
    x, y = args[0], args[1]
    shared = op1 is x or op1 is y
    if not shared:
        n1 = u.intrinsic_name(op1)
        if n1 in _MINMAX_INVERSE:
            a1 = u.intrinsic_args(op1, n1)
            assert a1 is not None
            shared = (a1[0] is x and a1[1] is y) or (a1[0] is y and a1[1] is x)
    if shared:
        if n0 == name:
            return op0
        if n0 == _MINMAX_INVERSE[name]:
            return op1
    return None


def _minimum_maximum_shared_op(name: str, op0: Value, op1: Value) -> Value | None:
    if u.intrinsic_name(op0) != name:
        return None
    a0 = u.intrinsic_args(op0, name)
    assert a0 is not None
    x0, y0 = a0[0], a0[1]
    if x0 is op1 or y0 is op1:
        return op0
    n1 = u.intrinsic_name(op1)
    if not n1:
        return None
    a1 = u.intrinsic_args(op1, n1)
    if a1 is None or len(a1) < 2:
        return None
    x1, y1 = a1[0], a1[1]
    inverse = {"llvm.maxnum": "llvm.minnum", "llvm.minnum": "llvm.maxnum", "llvm.maximum": "llvm.minimum", "llvm.minimum": "llvm.maximum"}
    if (x0 is x1 and y0 is y1) or (x0 is y1 and y0 is x1):
        if n1 == name or inverse.get(n1) == name:
            return op0
    return None


def _is_icmp_true(pred: Predicate, a: Value, b: Value, q: SimplifyQuery) -> bool:
    from llvmpy_mid.analysis.instsimplify.cmp import simplify_icmp_inst

    v = simplify_icmp_inst(pred, a, b, q, u.RECURSION_LIMIT)
    return v is not None and _is_all_ones_value(v)


def _is_all_ones_value(v: Value) -> bool:
    """LLVM ``Constant::isAllOnesValue``: all ones, or a splat of it."""
    if isinstance(v, ConstantInt):
        return v.value == v.type.mask
    if isinstance(v, Constant):
        s = get_splat_value(v)
        return isinstance(s, ConstantInt) and s.value == s.type.mask
    return False


def simplify_binary_intrinsic(name: str, ret_ty: Type, op0: Value, op1: Value, q: SimplifyQuery, call: CallBase | None) -> Value | None:
    """Two-operand intrinsics (LLVM ``simplifyBinaryIntrinsic``)."""
    width = u.scalar_bits(ret_ty)
    if name == "llvm.abs":
        if u.intrinsic_args(op0, "llvm.abs") is not None:
            return op0
        return None
    if name == "llvm.cttz":
        sh = u.binop(op0, "shl")
        if sh is not None and u.is_one(sh[0]):
            return sh[1]
        return None
    if name == "llvm.ctlz":
        sh = u.binop(op0, "lshr")
        if sh is not None and u.is_negative_c(sh[0]):
            return sh[1]
        sh = u.binop(op0, "ashr")
        if sh is not None and u.is_negative_c(sh[0]):
            return u.null(ret_ty)
        return None
    if name == "llvm.ptrmask":
        if isinstance(op0, PoisonValue) or isinstance(op1, PoisonValue):
            return u.poison(op0.type)
        if u.is_undef(q, op0) or u.is_zero(op0):
            return u.null(op0.type)
        if u.cast_of(op1, "ptrtoint") is op0:
            return op0
        if u.is_all_ones(op1) or u.is_undef(q, op1):
            return op0
        from llvmpy_mid.analysis.instsimplify.cmp import _is_imm_constant

        if _is_imm_constant(op1):
            assert isinstance(op1, Constant)
            known = u.known_bits(op0, q)
            w1 = u.scalar_bits(op1.type)
            irrelevant = known.zero & ((1 << w1) - 1)
            c = u.fold_binop("or", op1, u.const_int(op1.type, irrelevant), q)
            if c is not None and _is_all_ones_value(c):
                return op0
        return None
    if name in _MINMAX_INVERSE:
        if op0 is op1:
            return op0
        from llvmpy_mid.analysis.instsimplify.cmp import _is_imm_constant

        if _is_imm_constant(op0):
            op0, op1 = op1, op0
        if u.is_undef(q, op1):
            return u.const_int(ret_ty, _saturation_point(name, width))
        c = u.apint_allow_poison(op1)
        if c is not None:
            if c.value == _saturation_point(name, width):
                return u.const_int(ret_ty, c.value)
            if c.value == _saturation_point(_MINMAX_INVERSE[name], width):
                return op0
            if u.intrinsic_name(op0) == name:
                inner = u.intrinsic_args(op0, name)
                assert inner is not None
                ic = u.apint(inner[0]) or u.apint(inner[1])
                if ic is not None:
                    from llvmpy_mid.ir.constant_fold import icmp_compare

                    if icmp_compare(ic.value, c.value, width, _MINMAX_NONSTRICT[name]):
                        return op0
        v = _min_max_shared_op(name, op0, op1)
        if v is not None:
            return v
        v = _min_max_shared_op(name, op1, op0)
        if v is not None:
            return v
        pred = _MINMAX_NONSTRICT[name]
        qn = q.get_without_undef()
        if _is_icmp_true(pred, op0, op1, qn):
            return op0
        if _is_icmp_true(pred, op1, op0, qn):
            return op1
        return None
    if name in ("llvm.scmp", "llvm.ucmp"):
        if _is_icmp_true(P.ICMP_EQ, op0, op1, q):
            return u.null(ret_ty)
        if _is_icmp_true(P.ICMP_SGT if name == "llvm.scmp" else P.ICMP_UGT, op0, op1, q):
            return u.const_int(ret_ty, 1)
        if _is_icmp_true(P.ICMP_SLT if name == "llvm.scmp" else P.ICMP_ULT, op0, op1, q):
            return u.const_int(ret_ty, -1)
        return None
    if name in ("llvm.usub.with.overflow", "llvm.ssub.with.overflow"):
        if op0 is op1 or u.is_undef(q, op0) or u.is_undef(q, op1):
            return u.null(ret_ty)
        return None
    if name in ("llvm.uadd.with.overflow", "llvm.sadd.with.overflow"):
        if u.is_undef(q, op0) or u.is_undef(q, op1):
            assert isinstance(ret_ty, StructType)
            return ConstantStruct.get(ret_ty, [u.all_ones(ret_ty.elements[0]), u.null(ret_ty.elements[1])])
        return None
    if name in ("llvm.umul.with.overflow", "llvm.smul.with.overflow"):
        if u.is_zero(op0) or u.is_zero(op1) or u.is_undef(q, op0) or u.is_undef(q, op1):
            return u.null(ret_ty)
        return None
    if name in ("llvm.uadd.sat", "llvm.sadd.sat"):
        if name == "llvm.uadd.sat" and (u.is_all_ones(op0) or u.is_all_ones(op1)):
            return u.all_ones(ret_ty)
        if u.is_undef(q, op0) or u.is_undef(q, op1):
            return u.all_ones(ret_ty)
        if u.is_zero(op1):
            return op0
        if u.is_zero(op0):
            return op1
        return None
    if name in ("llvm.usub.sat", "llvm.ssub.sat"):
        if name == "llvm.usub.sat" and (u.is_zero(op0) or u.is_all_ones(op1)):
            return u.null(ret_ty)
        if op0 is op1 or u.is_undef(q, op0) or u.is_undef(q, op1):
            return u.null(ret_ty)
        if u.is_zero(op1):
            return op0
        return None
    if name == "llvm.powi":
        if isinstance(op1, ConstantInt):
            if op1.value == 0:
                from llvmpy_mid.analysis.instsimplify.fp import _fp_const

                return _fp_const(op0.type, 1.0)
            if op1.value == 1:
                return op0
        return None
    if name == "llvm.copysign":
        if op0 is op1:
            return op0
        from llvmpy_mid.analysis.instsimplify.fp import _fneg_of

        if _fneg_of(op0) is op1 or _fneg_of(op1) is op0:
            return op1
        return None
    if name == "llvm.is.fpclass":
        if isinstance(op0, PoisonValue):
            return u.poison(ret_ty)
        if isinstance(op1, ConstantInt):
            mask = op1.value & 0x3FF
            if mask == 0x3FF:
                return u.get_true(ret_ty)
            if mask == 0:
                return u.get_false(ret_ty)
        if u.is_undef(q, op0):
            return u.undef(ret_ty)
        return None
    if name in ("llvm.maxnum", "llvm.minnum", "llvm.maximum", "llvm.minimum"):
        if op0 is op1:
            return op0
        if isinstance(op0, Constant):
            op0, op1 = op1, op0
        if u.is_undef(q, op1):
            return op0
        propagate = name in ("llvm.minimum", "llvm.maximum")
        is_min = name in ("llvm.minimum", "llvm.minnum")
        if u.is_nan_c(op1):
            if propagate:
                from llvmpy_mid.analysis.instsimplify.fp import _propagate_nan

                assert isinstance(op1, Constant)
                return _propagate_nan(op1)
            return op0
        from llvmpy_mid.analysis.instsimplify.fp import _apfloat

        cf = _apfloat(op1)
        fmf = _call_fmf(call)
        if cf is not None:
            from llvmpy_mid.ir import apfloat

            sem = apfloat.semantics_of(cf.type.type_id)
            if sem is not None:
                inf = apfloat.category(sem, cf.bits) == apfloat.INF
                largest = (cf.bits & ~(1 << (sem.width - 1))) == apfloat.largest(sem)
                if inf or (fmf & int(FastMathFlags.NINF) and largest):
                    neg = apfloat.is_negative(sem, cf.bits)
                    nnan = bool(fmf & int(FastMathFlags.NNAN))
                    if neg == is_min and (not propagate or nnan):
                        return op1
                    if neg != is_min and (propagate or nnan):
                        return op0
        v = _minimum_maximum_shared_op(name, op0, op1)
        if v is not None:
            return v
        return _minimum_maximum_shared_op(name, op1, op0)
    if name == "llvm.ldexp":
        return _simplify_ldexp(op0, op1, q, False)
    if name == "llvm.load.relative":
        if isinstance(op0, Constant) and isinstance(op1, Constant):
            return _simplify_relative_load(op0, op1, q)
        return None
    if name == "llvm.vector.extract":
        if isinstance(op1, ConstantInt) and op1.value == 0:
            args = u.intrinsic_args(op0, "llvm.vector.insert")
            if args is not None and u.is_zero(args[2]) and args[1].type is ret_ty:
                return args[1]
        return None
    return None


def _simplify_ldexp(op0: Value, op1: Value, q: SimplifyQuery, strict: bool) -> Value | None:
    """``ldexp(X, N)``: poison, undef, zero/infinite/NaN ``X``, ``N == 0`` (LLVM ``simplifyLdexp``)."""
    from llvmpy_mid.analysis.instsimplify.fp import _apfloat, _nan, _quiet, _fp_const_from

    if isinstance(op0, PoisonValue) or isinstance(op1, PoisonValue):
        return op0
    if u.is_undef(q, op0):
        return _nan(op0.type)
    if not strict and u.is_undef(q, op1):
        return op0
    c = _apfloat(op0)
    if c is not None:
        from llvmpy_mid.ir import apfloat

        sem = apfloat.semantics_of(c.type.type_id)
        cat = apfloat.category(sem, c.bits) if sem is not None else -1
        if c.is_zero_value or cat == apfloat.INF:
            return op0
    if strict:
        return None
    if c is not None and c.is_nan:
        return _fp_const_from(op0.type, _quiet(c))
    if u.is_zero_int(op1):
        return op0
    return None


def _simplify_relative_load(ptr: Constant, offset: Constant, q: SimplifyQuery) -> Value | None:
    """``load.relative(P, O)`` of a table entry ``ptrtoint X - ptrtoint P``: ``X``
    (LLVM ``simplifyRelativeLoad``)."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr

    is_offset = u.constant_folding("is_constant_offset_from_global")
    if is_offset is None:
        return None
    base = is_offset(ptr, q.dl)
    if base is None or not isinstance(offset, ConstantInt) or offset.type.width > 64:
        return None
    off = offset.sext_value
    if off % 4 != 0 if off >= 0 else (-off) % 4 != 0:
        return None
    loaded = u.fold_load(ptr, ptr.type.context.i32, q, off)
    if not isinstance(loaded, ConstantExpr):
        return None
    if loaded.opcode == "trunc":
        inner = loaded.get_operand(0)
        if not isinstance(inner, ConstantExpr):
            return None
        loaded = inner
    if loaded.opcode != "sub":
        return None
    lhs = loaded.get_operand(0)
    if not isinstance(lhs, ConstantExpr) or lhs.opcode != "ptrtoint":
        return None
    rhs = loaded.get_operand(1)
    assert isinstance(rhs, Constant)
    rbase = is_offset(rhs, q.dl)
    if rbase is None or rbase[0] is not base[0] or rbase[1] != base[1]:
        return None
    return lhs.get_operand(0)


def simplify_intrinsic(call: CallBase, fn: Function, args: Sequence[Value], q: SimplifyQuery) -> Value | None:
    """An intrinsic call by its arity (LLVM ``simplifyIntrinsic``)."""
    name = intrinsic_base_name(fn.name)
    n = len(args)
    ret_ty = fn.function_type.return_type
    if n == 0:
        if name == "llvm.vscale":
            caller = call.function
            attr = caller.attributes.get_fn_attr("vscale_range") if caller is not None else None
            if attr is not None:
                lo, hi = attr.vscale_range_args
                if hi is not None and lo == hi:
                    return u.const_int(ret_ty, lo)
        return None
    if n == 1:
        return simplify_unary_intrinsic(name, args[0], q, call)
    if n == 2:
        return simplify_binary_intrinsic(name, ret_ty, args[0], args[1], q, call)
    if name in ("llvm.masked.load", "llvm.masked.gather"):
        mask = args[2]
        if _mask_all_zero_or_undef(mask):
            return args[3]
        return None
    if name in ("llvm.fshl", "llvm.fshr"):
        a0, a1, amt = args[0], args[1], args[2]
        if u.is_undef(q, a0) and u.is_undef(q, a1):
            return u.undef(ret_ty)
        keep = a0 if name == "llvm.fshl" else a1
        if u.is_undef(q, amt):
            return keep
        c = u.apint(amt)
        if c is not None and c.value % c.type.width == 0:
            return keep
        if u.is_zero(a0) and u.is_zero(a1):
            return u.null(ret_ty)
        if u.is_all_ones(a0) and u.is_all_ones(a1):
            return u.all_ones(ret_ty)
        return None
    if name.startswith("llvm.experimental.constrained."):
        return _constrained(name[len("llvm.experimental.constrained.") :], call, args, q)
    if name in ("llvm.fma", "llvm.fmuladd"):
        from llvmpy_mid.analysis.instsimplify.fp import _simplify_fp_op

        return _simplify_fp_op(tuple(args[:3]), 0, q)
    if name in ("llvm.smul.fix", "llvm.smul.fix.sat"):
        a0, a1, scale = args[0], args[1], args[2]
        if isinstance(a0, Constant):
            a0, a1 = a1, a0
        if u.is_zero(a1) or u.is_undef(q, a1):
            return u.null(ret_ty)
        if isinstance(scale, ConstantInt):
            w = u.scalar_bits(ret_ty)
            if scale.value < w - 1 and u.is_specific_int(a1, 1 << scale.value):
                return a0
        return None
    if name == "llvm.vector.insert":
        vec, sub, idx = args[0], args[1], args[2]
        if isinstance(idx, ConstantInt) and idx.value == 0:
            ex = u.intrinsic_args(sub, "llvm.vector.extract")
            if ex is not None and u.is_zero(ex[1]):
                x = ex[0]
                if (u.is_undef(q, vec) or vec is x) and x.type is ret_ty:
                    return x
        return None
    if name == "llvm.experimental.gc.relocate":
        return _gc_relocate(call, ret_ty)
    return None


def _fp_env(call: CallBase, args: Sequence[Value], has_rounding: bool) -> tuple[str, str]:
    """``(exception behaviour, rounding mode)`` of a constrained FP call, read as LLVM's
    ``ConstrainedFPIntrinsic`` reads them (defaults: ``fpexcept.strict``, ``round.tonearest``)."""
    from llvmpy_mid.ir.constrained_fp import constrained_fp_args

    rm, ex = constrained_fp_args(call)
    return (ex[len("fpexcept."):] if ex else "strict",
            rm[len("round."):] if rm and has_rounding else "tonearest")


def _constrained(op: str, call: CallBase, args: Sequence[Value], q: SimplifyQuery) -> Value | None:
    """``llvm.experimental.constrained.*``: the FP folds in the call's environment."""
    import llvmpy_mid.analysis.instsimplify.fp as fp

    fmf = _call_fmf(call)
    binary = {
        "fadd": fp.simplify_fadd_inst,
        "fsub": fp.simplify_fsub_inst,
        "fmul": fp.simplify_fmul_inst,
        "fdiv": fp.simplify_fdiv_inst,
        "frem": fp.simplify_frem_inst,
    }.get(op)
    if binary is not None:
        ex, rm = _fp_env(call, args, True)
        return binary(args[0], args[1], fmf, q, u.RECURSION_LIMIT, ex, rm)
    if op == "ldexp":
        return _simplify_ldexp(args[0], args[1], q, True)
    if op == "fma":
        ex, rm = _fp_env(call, args, True)
        return fp._simplify_fp_op(tuple(args[:3]), 0, q, ex, rm)
    return None


def _gc_relocate(call: CallBase, ret_ty: Type) -> Value | None:
    """Undef is undef after relocation (also for an undef/none token); null stays null."""
    gcr = gc_relocate_pointers(call)
    if gcr is None:
        return None
    _token, base, derived = gcr
    if isinstance(derived, UndefValue) or isinstance(base, UndefValue):
        return u.undef(ret_ty)
    if ret_ty.is_pointer and isinstance(derived, ConstantPointerNull):
        return ConstantPointerNull.get(ret_ty)
    return None


def _mask_all_zero_or_undef(mask: Value) -> bool:
    if not isinstance(mask, Constant):
        return False
    if mask.is_null_value or isinstance(mask, UndefValue):
        return True
    ty = mask.type
    if not ty.is_vector or getattr(ty, "scalable", True):
        return False
    for i in range(getattr(ty, "count", 0)):
        e = mask.get_aggregate_element(i)
        if e is None:
            return False
        if not (e.is_null_value or isinstance(e, UndefValue)):
            return False
    return True


def _try_constant_fold_call(call: CallBase, callee: Value, args: Sequence[Value], q: SimplifyQuery) -> Value | None:
    if not isinstance(callee, Function):
        return None
    from llvmpy_mid.ir.metadata import MetadataAsValue

    can_fold = u.constant_folding("can_constant_fold_call_to")
    fold = u.constant_folding("constant_fold_call")
    if can_fold is None or fold is None or not can_fold(call, callee):
        return None
    consts: list[Constant] = []
    for a in args:
        if isinstance(a, Constant):
            consts.append(a)
        elif isinstance(a, MetadataAsValue):
            continue
        else:
            return None
    r: Value | None = fold(call, callee, consts, q.tli)
    return r


def simplify_call(call: CallBase, callee: Value, args: Sequence[Value], q: SimplifyQuery) -> Value | None:
    """A call (LLVM ``simplifyCall``): undef/null callee, constant folding, intrinsics."""
    if getattr(call, "is_must_tail_call", False):
        return None
    tk = getattr(call, "tail_call_kind", None)
    if tk is not None and str(getattr(tk, "keyword", "")) == "musttail":
        return None
    if isinstance(callee, (UndefValue, ConstantPointerNull)):
        return u.poison(call.type)
    v = _try_constant_fold_call(call, callee, args, q)
    if v is not None:
        return v
    if isinstance(callee, Function) and callee.intrinsic_id:
        return simplify_intrinsic(call, callee, args, q)
    return None


__all__ = ["simplify_call", "simplify_intrinsic", "simplify_unary_intrinsic", "simplify_binary_intrinsic"]
