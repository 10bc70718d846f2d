"""Constant folding of calls: intrinsics and math library functions (LLVM
``Analysis/ConstantFolding.cpp``: ``canConstantFoldCallTo``, ``ConstantFoldCall``
and the ``ConstantFoldScalarCall*`` family).

Integer intrinsics are exact (``ctpop``, ``ctlz``, ``cttz``, ``bswap``,
``bitreverse``, ``fshl``/``fshr``, ``abs``, min/max, ``scmp``/``ucmp``,
``*.with.overflow``, saturating add/sub, ``smul.fix``, vector reductions,
``get.active.lane.mask``); floating-point ones go through
:mod:`llvmpy_mid.ir.apfloat` (``fabs``, ``copysign``, rounding to integral,
``minnum``/``maxnum``/``minimum``/``maximum``, ``fma``/``fmuladd``,
``is.fpclass``, ``ldexp``, ``frexp``, ``fptoui.sat``/``fptosi.sat``,
``canonicalize``). Transcendental functions (``sin``, ``exp``, ``pow``,
``log``...) call the host's libm through Python's :mod:`math`, as LLVM does,
in double and rounded to the result type; a result that raises a
floating-point exception in C (Python: ``ValueError``/``OverflowError``, or
an underflow) is not folded.

Library calls need a :class:`TargetLibraryInfo` that knows the function;
with ``tli=None`` a declaration whose name and prototype match is accepted.
Not folded: constrained intrinsics' strict modes beyond what LLVM folds
without exceptions, target intrinsics (x86/AMDGPU/ARM/wasm), ``fp128``
``logl``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Sequence

from llvmpy_mid.ir.instructions.calls import intrinsic_base_name
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir.constrained_fp import constrained_fp_args
from llvmpy_mid.ir.function import null_pointer_is_defined
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.types import FloatingPointType, IntegerType, StructType, Type, TypeID, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instructions.calls import CallBase

_ALWAYS = frozenset(
    (
        "bswap ctpop ctlz cttz fshl fshr launder.invariant.group strip.invariant.group masked.load"
        " get.active.lane.mask abs smax smin umax umin scmp ucmp sadd.with.overflow uadd.with.overflow"
        " ssub.with.overflow usub.with.overflow smul.with.overflow umul.with.overflow sadd.sat uadd.sat"
        " ssub.sat usub.sat smul.fix smul.fix.sat bitreverse is.constant vector.reduce.add"
        " vector.reduce.mul vector.reduce.and vector.reduce.or vector.reduce.xor vector.reduce.smin"
        " vector.reduce.smax vector.reduce.umin vector.reduce.umax"
        " fabs copysign is.fpclass ceil floor round roundeven trunc nearbyint rint canonicalize"
    ).split()
)
_UNLESS_STRICT = frozenset(
    (
        "minnum maxnum minimum maximum log log2 log10 exp exp2 exp10 sqrt sin cos pow powi ldexp fma"
        " fmuladd frexp fptoui.sat fptosi.sat convert.from.fp16 convert.to.fp16"
    ).split()
)
_LIBM = frozenset(
    (
        "acos acosf asin asinf atan atanf atan2 atan2f ceil ceilf cos cosf cosh coshf exp expf exp2 exp2f"
        " fabs fabsf floor floorf fmod fmodf log logf log2 log2f log10 log10f logl nearbyint nearbyintf"
        " pow powf remainder remainderf rint rintf round roundf sin sinf sinh sinhf sqrt sqrtf tan tanf"
        " tanh tanhf trunc truncf __acos_finite __acosf_finite __asin_finite __asinf_finite"
        " __atan2_finite __atan2f_finite __cosh_finite __coshf_finite __exp_finite __expf_finite"
        " __exp2_finite __exp2f_finite __log_finite __logf_finite __log10_finite __log10f_finite"
        " __pow_finite __powf_finite __sinh_finite __sinhf_finite"
    ).split()
)

# Operands that stay scalar in a vector call (LLVM isVectorIntrinsicWithScalarOpAtArg).
_SCALAR_OPERANDS: dict[str, frozenset[int]] = {
    "abs": frozenset((1,)),
    "ctlz": frozenset((1,)),
    "cttz": frozenset((1,)),
    "powi": frozenset((1,)),
    "smul.fix": frozenset((2,)),
    "smul.fix.sat": frozenset((2,)),
    "is.fpclass": frozenset((1,)),
}


def intrinsic_base(fn: Function) -> str | None:
    """``"ctpop"`` for ``@llvm.ctpop.i32``; None when ``fn`` is not an intrinsic."""
    name = fn.name
    if not name.startswith("llvm."):
        return None
    base = intrinsic_base_name(name)
    if base == name and lookup_intrinsic(name) is None:
        return None
    return base[5:]


def _is_strict_fp(call: CallBase) -> bool:
    return call.has_fn_attr("strictfp")


def can_constant_fold_call_to(call: CallBase, fn: Function) -> bool:
    """LLVM ``canConstantFoldCallTo``: whether calls of ``fn`` may fold at all."""
    if call.is_no_builtin:
        return False
    if call.function_type is not fn.function_type:
        return False
    iid = intrinsic_base(fn)
    if iid is not None:
        if iid in _ALWAYS or iid.startswith("experimental.constrained."):
            return True
        if iid in _UNLESS_STRICT:
            return not _is_strict_fp(call)
        return False
    if not fn.name or _is_strict_fp(call):
        return False
    return fn.name in _LIBM


def constant_fold_call(
    call: CallBase,
    fn: Function,
    ops: Sequence[Constant],
    tli: TargetLibraryInfo | None = None,
    allow_non_deterministic: bool = True,
) -> Constant | None:
    """LLVM ``ConstantFoldCall``: the call's result for constant arguments ``ops``."""
    if call.is_no_builtin or not fn.name:
        return None
    iid = intrinsic_base(fn)
    if iid is None and _lib_func(fn, tli) is None:
        return None
    ty = fn.return_type
    if not allow_non_deterministic and ty.is_fp_or_fp_vector:
        return None
    name = fn.name
    if isinstance(ty, VectorType):
        if ty.scalable:
            return None
        return _fold_fixed_vector_call(name, iid, ty, list(ops), tli, call)
    if isinstance(ty, StructType):
        return _fold_struct_call(name, iid, ty, list(ops), tli, call)
    return _fold_scalar_call(name, iid, ty, list(ops), tli, call)


# --- library functions --------------------------------------------------------------------------------


def _lib_func(fn: Function, tli: TargetLibraryInfo | None) -> str | None:
    """The library function ``fn`` is, if ``tli`` knows it (None: by name and prototype)."""
    if tli is not None:
        return tli.get_lib_func(fn)
    name = fn.name
    if name not in _LIBM:
        return None
    base = name[2:].split("_finite")[0] if name.startswith("__") else name
    want = TypeID.DOUBLE
    if base.endswith("f") and base[:-1] in _LIBM:
        want = TypeID.FLOAT
    elif base == "logl":
        want = TypeID.X86_FP80
    ft = fn.function_type
    if ft.is_vararg or ft.return_type.type_id is not want or not ft.params:
        return None
    if any(p.type_id is not want for p in ft.params):
        return None
    n = 2 if base.rstrip("f") in ("atan2", "fmod", "pow", "remainder") else 1
    return name if len(ft.params) == n else None


def _tli_has(tli: TargetLibraryInfo | None, func: str) -> bool:
    return True if tli is None else tli.has(func)


def _libfunc_name(name: str, fn_name_in_tli: str | None) -> str:
    """The C name behind a library function (``__exp_finite`` reads as ``exp``)."""
    if name.startswith("__") and name.endswith("_finite"):
        return name[2:-7]
    return name


_UNDERFLOW_TO_ZERO = frozenset((math.exp, math.pow))


def _host_fp(fn: Callable[..., float], args: Sequence[float], ty: Type) -> Constant | None:
    """LLVM's ``ConstantFoldFP``/``ConstantFoldBinaryFP``: the host libm in double, nothing
    when C would raise an exception (domain, range, overflow, underflow)."""
    try:
        r = fn(*args)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    if r == 0.0 and fn in _UNDERFLOW_TO_ZERO and all(a != 0.0 and not math.isinf(a) for a in args):
        return None  # an exp or pow that underflowed to zero
    if math.isnan(r) and not any(math.isnan(a) for a in args):
        return None
    if math.isinf(r) and not any(math.isinf(a) for a in args):
        return None
    if r != 0.0 and abs(r) < 2.2250738585072014e-308:
        return None  # underflow flag
    return _fp_value(r, ty)


def _fp_value(v: float, ty: Type) -> Constant | None:
    """LLVM's ``GetConstantFoldFPValue``: a double rounded to half/float/double."""
    sem = apfloat.semantics_of(ty.type_id)
    if sem is None or ty.type_id not in (TypeID.HALF, TypeID.FLOAT, TypeID.DOUBLE):
        return None
    return ConstantFP.from_bits(ty, apfloat.from_float(sem, v))


def _as_double(c: ConstantFP) -> float:
    sem = apfloat.semantics_of(c.type.type_id)
    assert sem is not None
    return apfloat.to_float(sem, c.bits)


_UNARY_LIBM: dict[str, Callable[[float], float]] = {
    "acos": math.acos,
    "asin": math.asin,
    "atan": math.atan,
    "cos": math.cos,
    "cosh": math.cosh,
    "exp": math.exp,
    "sin": math.sin,
    "sinh": math.sinh,
    "tan": math.tan,
    "tanh": math.tanh,
    "log": math.log,
    "log2": math.log2,
    "log10": math.log10,
    "sqrt": math.sqrt,
}


def _round_integral(c: ConstantFP, rm: int) -> Constant:
    sem = apfloat.semantics_of(c.type.type_id)
    assert sem is not None
    return ConstantFP.from_bits(c.type, apfloat.round_to_integral(sem, c.bits, rm))


_ROUNDING_LIBM = frozenset(("ceil", "floor", "fabs", "trunc", "rint", "nearbyint", "round", "exp2"))


def _fold_libm1(name: str, c: ConstantFP, ty: Type, tli: TargetLibraryInfo | None) -> Constant | None:
    func = tli.get_lib_func_by_name(name) if tli is not None else name
    if func is None or not _tli_has(tli, func):
        return None
    base = _libfunc_name(name, func)
    if base.endswith("f") and (base[:-1] in _UNARY_LIBM or base[:-1] in _ROUNDING_LIBM):
        base = base[:-1]
    sem = apfloat.semantics_of(c.type.type_id)
    assert sem is not None
    if base == "ceil":
        return _round_integral(c, apfloat.RM_TOWARD_POSITIVE)
    if base == "floor":
        return _round_integral(c, apfloat.RM_TOWARD_NEGATIVE)
    if base == "trunc":
        return _round_integral(c, apfloat.RM_TOWARD_ZERO)
    if base in ("rint", "nearbyint"):
        return _round_integral(c, apfloat.RM_NEAREST_EVEN)
    if base == "round":
        return _round_integral(c, apfloat.RM_NEAREST_AWAY)
    if base == "fabs":
        return ConstantFP.from_bits(c.type, apfloat.abs_(sem, c.bits))
    if base == "exp2":
        return _host_fp(math.pow, (2.0, _as_double(c)), ty)
    if base in ("log", "log2", "log10"):
        cat = apfloat.category(sem, c.bits)
        if apfloat.is_negative(sem, c.bits) or cat == apfloat.ZERO:
            return None
    if base == "sqrt" and apfloat.is_negative(sem, c.bits):
        return None
    if base == "logl":
        return None
    f = _UNARY_LIBM.get(base)
    if f is None:
        return None
    return _host_fp(f, (_as_double(c),), ty)


def _fold_libm2(name: str, ty: Type, ops: Sequence[Constant], tli: TargetLibraryInfo | None) -> Constant | None:
    func = tli.get_lib_func_by_name(name) if tli is not None else (name if name in _LIBM else None)
    if func is None:
        return None
    a, b = ops
    if not isinstance(a, ConstantFP) or not isinstance(b, ConstantFP):
        return None
    if not _tli_has(tli, func):
        return None
    base = _libfunc_name(name, func)
    sem = apfloat.semantics_of(a.type.type_id)
    if sem is None:
        return None
    if base in ("pow", "powf"):
        return _host_fp(math.pow, (_as_double(a), _as_double(b)), ty)
    if base in ("fmod", "fmodf"):
        if _mod_is_invalid(sem, a, b):
            return None
        return ConstantFP.from_bits(ty, apfloat.mod(sem, a.bits, b.bits))
    if base in ("remainder", "remainderf"):
        if _mod_is_invalid(sem, a, b):
            return None
        return ConstantFP.from_bits(ty, apfloat.remainder(sem, a.bits, b.bits))
    if base in ("atan2", "atan2f"):
        if not name.startswith("__") and apfloat.category(sem, a.bits) == apfloat.ZERO and apfloat.category(
            sem, b.bits
        ) == apfloat.ZERO:
            return None
        return _host_fp(math.atan2, (_as_double(a), _as_double(b)), ty)
    return None


def _mod_is_invalid(sem: apfloat.Semantics, a: ConstantFP, b: ConstantFP) -> bool:
    """APFloat ``mod``/``remainder`` status is not opOK: a NaN operand, inf, zero divisor."""
    ca = apfloat.category(sem, a.bits)
    cb = apfloat.category(sem, b.bits)
    if ca == apfloat.NAN or cb == apfloat.NAN:
        return apfloat.is_signaling(sem, a.bits) or apfloat.is_signaling(sem, b.bits)
    return ca == apfloat.INF or cb == apfloat.ZERO


# --- constrained floating point (LLVM ConstrainedFPIntrinsic) -------------------------------------------

_ROUNDING_MODES = {
    "round.dynamic": None,
    "round.tonearest": apfloat.RM_NEAREST_EVEN,
    "round.downward": apfloat.RM_TOWARD_NEGATIVE,
    "round.upward": apfloat.RM_TOWARD_POSITIVE,
    "round.towardzero": apfloat.RM_TOWARD_ZERO,
    "round.tonearestaway": apfloat.RM_NEAREST_AWAY,
}


def _may_fold_constrained(call: CallBase, exact: bool) -> bool:
    """LLVM's ``mayFoldConstrained``: an operation that raised no flag always folds; one that
    did folds when the rounding mode is known and exceptions are not strict."""
    if exact:
        return True
    rounding, behavior = constrained_fp_args(call)
    if rounding == "round.dynamic":
        return False
    return behavior is not None and behavior != "fpexcept.strict"


def _evaluation_rounding(call: CallBase) -> int:
    rounding, _ = constrained_fp_args(call)
    rm = _ROUNDING_MODES.get(rounding or "round.dynamic")
    return apfloat.RM_NEAREST_EVEN if rm is None else rm


def _constrained_binary(iid: str, ty: Type, a: ConstantFP, b: ConstantFP, call: CallBase) -> Constant | None:
    sem = apfloat.semantics_of(a.type.type_id)
    if sem is None:
        return None
    op = iid[len("experimental.constrained.") :]
    rm = _evaluation_rounding(call)
    if op in ("fcmp", "fcmps"):
        return _constrained_compare(op == "fcmps", sem, a, b, call)
    if op == "fadd":
        r = apfloat.add(sem, a.bits, b.bits, False, rm)
    elif op == "fsub":
        r = apfloat.add(sem, a.bits, b.bits, True, rm)
    elif op == "fmul":
        r = apfloat.multiply(sem, a.bits, b.bits, rm)
    elif op == "fdiv":
        r = apfloat.divide(sem, a.bits, b.bits, rm)
    elif op == "frem":
        r = apfloat.mod(sem, a.bits, b.bits)
    else:
        return None
    exact = apfloat.op_status_ok(sem, op, [a.bits, b.bits], r)
    if _may_fold_constrained(call, exact):
        return ConstantFP.from_bits(ty, r)
    return None


def _constrained_compare(signaling: bool, sem: apfloat.Semantics, a: ConstantFP, b: ConstantFP, call: CallBase) -> Constant | None:
    from llvmpy_mid.ir.constant_fold import fcmp_compare
    from llvmpy_mid.ir.instructions.cmp import Predicate
    from llvmpy_mid.ir.metadata import MDString, MetadataAsValue

    pred: Predicate | None = None
    for arg in call.args:
        if isinstance(arg, MetadataAsValue) and isinstance(arg.metadata, MDString):
            text = arg.metadata.string
            if not text.startswith(("round.", "fpexcept.")):
                try:
                    pred = Predicate.from_keyword(text, True)
                except Exception:
                    return None
    if pred is None:
        return None
    if signaling:
        ok = apfloat.category(sem, a.bits) != apfloat.NAN and apfloat.category(sem, b.bits) != apfloat.NAN
    else:
        ok = not apfloat.is_signaling(sem, a.bits) and not apfloat.is_signaling(sem, b.bits)
    if not _may_fold_constrained(call, ok):
        return None
    return ConstantInt.get(call.type.scalar_type, int(fcmp_compare(sem, a.bits, b.bits, pred)))


_CONSTRAINED_ROUNDING = {
    "experimental.constrained.round": apfloat.RM_NEAREST_AWAY,
    "experimental.constrained.roundeven": apfloat.RM_NEAREST_EVEN,
    "experimental.constrained.ceil": apfloat.RM_TOWARD_POSITIVE,
    "experimental.constrained.floor": apfloat.RM_TOWARD_NEGATIVE,
    "experimental.constrained.trunc": apfloat.RM_TOWARD_ZERO,
}


def _constrained_round(iid: str, ty: Type, sem: apfloat.Semantics, op: ConstantFP, call: CallBase) -> Constant | None:
    """The constrained rounding intrinsics of LLVM's ``ConstantFoldScalarCall1``."""
    if iid in ("experimental.constrained.nearbyint", "experimental.constrained.rint"):
        rounding, _ = constrained_fp_args(call)
        rm = _ROUNDING_MODES.get(rounding or "round.dynamic")
        if rm is None:
            return None
    else:
        rm = _CONSTRAINED_ROUNDING[iid]
    _, behavior = constrained_fp_args(call)
    cat = apfloat.category(sem, op.bits)
    bits = op.bits
    if cat in (apfloat.ZERO, apfloat.NORMAL):
        bits = apfloat.round_to_integral(sem, op.bits, rm)
        if iid == "experimental.constrained.rint" and bits != op.bits and behavior == "fpexcept.strict":
            return None
    elif apfloat.is_signaling(sem, op.bits):
        if behavior != "fpexcept.ignore":
            return None
        bits = apfloat.default_nan(sem)
    return ConstantFP.from_bits(ty, bits)


# --- scalar calls ----------------------------------------------------------------------------------------


def _fold_scalar_call(
    name: str, iid: str | None, ty: Type, ops: list[Constant], tli: TargetLibraryInfo | None, call: CallBase
) -> Constant | None:
    if len(ops) == 1:
        return _fold_call1(name, iid, ty, ops[0], tli, call)
    if len(ops) == 2:
        if iid is None:
            return _fold_libm2(name, ty, ops, tli)
        return fold_intrinsic_call2(iid, ty, ops, call)
    if len(ops) == 3:
        return _fold_call3(iid, ty, ops, call)
    return None


def _int_max(ty: IntegerType, signed: bool) -> int:
    return (1 << (ty.width - 1)) - 1 if signed else ty.mask


def _fold_call1(
    name: str, iid: str | None, ty: Type, op: Constant, tli: TargetLibraryInfo | None, call: CallBase
) -> Constant | None:
    if iid == "is.constant":
        return ConstantInt.get(ty.context.i1, 1) if _is_manifest_constant(op) else None
    if isinstance(op, PoisonValue) and iid == "canonicalize":
        return PoisonValue.get(ty)
    if isinstance(op, UndefValue):
        if iid in ("cos", "ctpop", "fptoui.sat", "fptosi.sat", "canonicalize"):
            return Constant.get_null_value(ty)
        if iid in ("bswap", "bitreverse", "launder.invariant.group", "strip.invariant.group"):
            return op
    if isinstance(op, ConstantPointerNull) and iid in ("launder.invariant.group", "strip.invariant.group"):
        fn = call.function
        aspace = int(getattr(op.type, "address_space", 0))
        if fn is not None and not null_pointer_is_defined(fn, aspace):
            return op
        return None
    if isinstance(op, ConstantFP):
        sem = apfloat.semantics_of(op.type.type_id)
        if sem is None:
            if iid == "canonicalize" and not op.bits & 0x7FFFFFFFFFFFFFFF:
                return ConstantFP.from_bits(ty, op.bits & (1 << 63))  # a fresh double-double zero
            return None
        if iid == "convert.to.fp16":
            half = apfloat.SEMANTICS[TypeID.HALF]
            return ConstantInt.get(ty, apfloat.convert(sem, half, op.bits))
        if iid in ("fptoui.sat", "fptosi.sat") and isinstance(ty, IntegerType):
            return ConstantInt.get(ty, _saturating_to_int(sem, op.bits, ty.width, iid == "fptosi.sat"))
        if iid == "canonicalize":
            return _canonicalize(ty, call, sem, op)
        if ty.type_id not in (TypeID.HALF, TypeID.FLOAT, TypeID.DOUBLE):
            return None
        rm = _ROUNDING.get(iid or "")
        if rm is not None:
            return _round_integral(op, rm)
        if iid == "fabs":
            return ConstantFP.from_bits(ty, apfloat.abs_(sem, op.bits))
        if iid is not None and iid.startswith("experimental.constrained."):
            if iid in _CONSTRAINED_ROUNDING or iid in (
                "experimental.constrained.nearbyint",
                "experimental.constrained.rint",
            ):
                return _constrained_round(iid, ty, sem, op, call)
            return None
        if apfloat.category(sem, op.bits) in (apfloat.INF, apfloat.NAN):
            return None
        x = _as_double(op)
        if iid in ("log", "log2", "log10", "exp", "sin", "cos", "sqrt"):
            return _host_fp(_UNARY_LIBM[iid], (x,), ty)
        if iid == "exp2":
            return _host_fp(math.pow, (2.0, x), ty)
        if iid == "exp10":
            return _host_fp(math.pow, (10.0, x), ty)
        if iid is not None:
            return None
        return _fold_libm1(name, op, ty, tli)
    if isinstance(op, ConstantInt):
        v = op.value
        w = op.type.width
        if iid == "bswap":
            return ConstantInt.get(ty, int.from_bytes(v.to_bytes(w // 8, "little"), "big"))
        if iid == "ctpop":
            return ConstantInt.get(ty, v.bit_count())
        if iid == "bitreverse":
            return ConstantInt.get(ty, int(format(v, "0%db" % w)[::-1], 2))
        if iid == "convert.from.fp16":
            half = apfloat.SEMANTICS[TypeID.HALF]
            dst = apfloat.semantics_of(ty.type_id)
            if dst is None:
                if ty.type_id is not TypeID.PPC_FP128:
                    return None
                dbl = apfloat.convert(half, apfloat.SEMANTICS[TypeID.DOUBLE], v & 0xFFFF)
                return ConstantFP.from_bits(ty, apfloat.ppc_from_double(dbl))
            return ConstantFP.from_bits(ty, apfloat.convert(half, dst, v & 0xFFFF))
        return None
    if iid is not None and iid.startswith("vector.reduce."):
        return _fold_vector_reduce(iid, op)
    return None


_ROUNDING: dict[str, int] = {
    "nearbyint": apfloat.RM_NEAREST_EVEN,
    "rint": apfloat.RM_NEAREST_EVEN,
    "round": apfloat.RM_NEAREST_AWAY,
    "roundeven": apfloat.RM_NEAREST_EVEN,
    "ceil": apfloat.RM_TOWARD_POSITIVE,
    "floor": apfloat.RM_TOWARD_NEGATIVE,
    "trunc": apfloat.RM_TOWARD_ZERO,
}


def _is_manifest_constant(c: Constant) -> bool:
    """LLVM ``Constant::isManifestConstant``: no global addresses inside."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr

    stack = [c]
    while stack:
        x = stack.pop()
        if isinstance(x, ConstantExpr) or x.is_global_value:
            return False
        if isinstance(x, (ConstantVector, ConstantStruct)) or type(x).__name__ == "ConstantArray":
            stack.extend(op for op in x.operands if isinstance(op, Constant))
    return True


def _saturating_to_int(sem: apfloat.Semantics, bits: int, width: int, signed: bool) -> int:
    cat, sign, sig, exp = apfloat.decode(sem, bits)
    if cat == apfloat.NAN:
        return 0
    lo = -(1 << (width - 1)) if signed else 0
    hi = (1 << (width - 1)) - 1 if signed else (1 << width) - 1
    if cat == apfloat.INF:
        return lo if sign else hi
    if cat == apfloat.ZERO:
        return 0
    v = sig << exp if exp >= 0 else sig >> -exp
    v = -v if sign else v
    return max(lo, min(hi, v))


def _canonicalize(ty: Type, call: CallBase, sem: apfloat.Semantics, op: ConstantFP) -> Constant | None:
    """LLVM's ``constantFoldCanonicalize``: zeros, normals and infinities fold; denormals by
    the function's denormal mode; NaNs never."""
    from llvmpy_mid.analysis.constant_folding import denormal_mode

    cat = apfloat.category(sem, op.bits)
    if cat == apfloat.ZERO:
        return op
    if ty.type_id is TypeID.X86_FP80:
        return None
    if cat == apfloat.INF or (cat == apfloat.NORMAL and not apfloat.is_denormal(sem, op.bits)):
        return op
    fn = call.function
    if cat == apfloat.NAN or fn is None:
        return None
    out, inp = denormal_mode(fn, ty)
    if out == "ieee" and inp == "ieee":
        return op
    if inp == "dynamic" or (inp == "ieee" and out == "dynamic"):
        return None
    negative = apfloat.is_negative(sem, op.bits)
    positive = not negative or inp == "positive-zero" or (out == "positive-zero" and inp == "ieee")
    return ConstantFP.from_bits(ty, 0 if positive else 1 << (sem.width - 1))


def _const_int_or_undef(c: Constant) -> tuple[bool, ConstantInt | None]:
    """LLVM's ``getConstIntOrUndef``: (ok, the integer or None for undef)."""
    if isinstance(c, ConstantInt):
        return True, c
    if isinstance(c, UndefValue):
        return True, None
    return False, None


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


def fold_intrinsic_call2(iid: str, ty: Type, ops: Sequence[Constant], call: CallBase | None = None) -> Constant | None:
    """LLVM ``ConstantFoldIntrinsicCall2`` (also ``ConstantFoldBinaryIntrinsic``)."""
    a, b = ops
    if isinstance(ty, FloatingPointType) and iid in ("maxnum", "minnum", "maximum", "minimum"):
        if isinstance(a, UndefValue):
            return b
        if isinstance(b, UndefValue):
            return a
    if isinstance(a, ConstantFP):
        sem = apfloat.semantics_of(a.type.type_id)
        if sem is None:
            if iid == "copysign" and isinstance(b, ConstantFP) and b.type is a.type:
                return ConstantFP.from_bits(ty, apfloat.ppc_copysign(a.bits, b.bits))
            return None
        if isinstance(b, ConstantFP):
            if b.type is not a.type:
                return None
            if iid.startswith("experimental.constrained."):
                return _constrained_binary(iid, ty, a, b, call) if call is not None else None
            if iid == "copysign":
                return ConstantFP.from_bits(ty, apfloat.copysign(sem, a.bits, b.bits))
            if iid in ("minnum", "maxnum"):
                return ConstantFP.from_bits(ty, apfloat.min_num(sem, a.bits, b.bits, iid == "maxnum"))
            if iid in ("minimum", "maximum"):
                return ConstantFP.from_bits(ty, apfloat.minimum(sem, a.bits, b.bits, iid == "maximum"))
            if ty.type_id not in (TypeID.HALF, TypeID.FLOAT, TypeID.DOUBLE):
                return None
            if iid == "pow":
                return _host_fp(math.pow, (_as_double(a), _as_double(b)), ty)
            return None
        if isinstance(b, ConstantInt):
            if iid == "ldexp":
                return ConstantFP.from_bits(ty, _scalbn(sem, a.bits, b.sext_value))
            if iid == "is.fpclass":
                return ConstantInt.get(ty, int(_is_fpclass(sem, a.bits, b.value)))
            if iid == "powi":
                e = _signed(b.value & 0xFFFFFFFF, 32) if b.type.width >= 32 else b.sext_value
                tid = ty.type_id
                if tid in (TypeID.HALF, TypeID.FLOAT):
                    x = _as_double(a)
                    fsem = apfloat.SEMANTICS[TypeID.FLOAT]
                    try:
                        r = math.pow(apfloat.to_float(fsem, apfloat.from_float(fsem, x)), e)
                    except (ValueError, OverflowError, ZeroDivisionError):
                        r = math.inf if e < 0 or abs(x) > 1 else 0.0
                    fbits = apfloat.from_float(fsem, r)
                    if tid is TypeID.HALF:
                        return ConstantFP.from_bits(ty, apfloat.convert(fsem, sem, fbits))
                    return ConstantFP.from_bits(ty, fbits)
                if tid is TypeID.DOUBLE:
                    try:
                        r = math.pow(_as_double(a), e)
                    except (ValueError, OverflowError, ZeroDivisionError):
                        return None
                    return _fp_value(r, ty)
                return None
        return None
    if isinstance(a.type, IntegerType) and isinstance(b.type, IntegerType):
        ok0, c0 = _const_int_or_undef(a)
        ok1, c1 = _const_int_or_undef(b)
        if not ok0 or not ok1:
            return None
        w = a.type.width
        if iid in ("smax", "smin", "umax", "umin"):
            assert isinstance(ty, IntegerType)
            if isinstance(a, PoisonValue) or isinstance(b, PoisonValue):
                return PoisonValue.get(ty)
            if c0 is None and c1 is None:
                return UndefValue.get(ty)
            if c0 is None or c1 is None:
                sat = {
                    "smax": (1 << (w - 1)) - 1,
                    "smin": 1 << (w - 1),
                    "umax": ty.mask,
                    "umin": 0,
                }[iid]
                return ConstantInt.get(ty, sat)
            x, y = (c0.sext_value, c1.sext_value) if iid[0] == "s" else (c0.value, c1.value)
            pick_first = x > y if iid.endswith("max") else x < y
            return c0 if pick_first else ConstantInt.get(ty, c1.value)
        if iid in ("scmp", "ucmp"):
            if isinstance(a, PoisonValue) or isinstance(b, PoisonValue):
                return PoisonValue.get(ty)
            if c0 is None or c1 is None:
                return ConstantInt.get(ty, 0)
            x, y = (c0.sext_value, c1.sext_value) if iid == "scmp" else (c0.value, c1.value)
            return ConstantInt.get(ty, 1 if x > y else (-1 if x < y else 0))
        if iid.endswith(".with.overflow"):
            assert isinstance(ty, StructType)
            if iid in ("usub.with.overflow", "ssub.with.overflow") and (c0 is None or c1 is None):
                return Constant.get_null_value(ty)
            if iid in ("uadd.with.overflow", "sadd.with.overflow") and (c0 is None or c1 is None):
                return ConstantStruct.get(
                    ty, [Constant.get_all_ones_value(ty.elements[0]), Constant.get_null_value(ty.elements[1])]
                )
            if c0 is None or c1 is None:
                return Constant.get_null_value(ty)
            res, ov = _overflow_op(iid, c0, c1)
            return ConstantStruct.get(ty, [ConstantInt.get(ty.elements[0], res), ConstantInt.get(ty.elements[1], int(ov))])
        if iid in ("uadd.sat", "sadd.sat", "usub.sat", "ssub.sat"):
            assert isinstance(ty, IntegerType)
            if isinstance(a, PoisonValue) or isinstance(b, PoisonValue):
                return PoisonValue.get(ty)
            if c0 is None and c1 is None:
                return UndefValue.get(ty)
            if c0 is None or c1 is None:
                return Constant.get_all_ones_value(ty) if "add" in iid else Constant.get_null_value(ty)
            signed = iid[0] == "s"
            x, y = (c0.sext_value, c1.sext_value) if signed else (c0.value, c1.value)
            r = x + y if "add" in iid else x - y
            lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, ty.mask)
            return ConstantInt.get(ty, max(lo, min(hi, r)))
        if iid in ("cttz", "ctlz"):
            assert c1 is not None
            if c1.value == 1 and (c0 is None or c0.value == 0):
                return PoisonValue.get(ty)
            if c0 is None:
                return Constant.get_null_value(ty)
            v = c0.value
            if iid == "cttz":
                n = w if v == 0 else (v & -v).bit_length() - 1
            else:
                n = w - v.bit_length()
            return ConstantInt.get(ty, n)
        if iid == "abs":
            assert c1 is not None
            if c1.value == 1 and (c0 is None or c0.value == 1 << (w - 1)):
                return UndefValue.get(ty)
            if c0 is None:
                return Constant.get_null_value(ty)
            return ConstantInt.get(ty, abs(c0.sext_value))
        return None
    return None


def _overflow_op(iid: str, a: ConstantInt, b: ConstantInt) -> tuple[int, bool]:
    w = a.type.width
    signed = iid[0] == "s"
    x, y = (a.sext_value, b.sext_value) if signed else (a.value, b.value)
    op = iid[1:4]
    r = x + y if op == "add" else (x - y if op == "sub" else x * y)
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    return r, not lo <= r <= hi


def _scalbn(sem: apfloat.Semantics, bits: int, e: int) -> int:
    cat, sign, sig, exp = apfloat.decode(sem, bits)
    if cat == apfloat.NAN:
        return apfloat.make_quiet(sem, bits)
    if cat != apfloat.NORMAL:
        return bits
    return apfloat.from_exact(sem, sign, sig, 1, exp + e)


def _is_fpclass(sem: apfloat.Semantics, bits: int, mask: int) -> bool:
    cat, sign, sig, exp = apfloat.decode(sem, bits)
    if cat == apfloat.NAN:
        return bool(mask & (1 if apfloat.is_signaling(sem, bits) else 2))
    if cat == apfloat.INF:
        return bool(mask & (4 if sign else 0x200))
    if cat == apfloat.ZERO:
        return bool(mask & (0x20 if sign else 0x40))
    if apfloat.is_denormal(sem, bits):
        return bool(mask & (0x10 if sign else 0x80))
    return bool(mask & (8 if sign else 0x100))


def _fold_call3(iid: str | None, ty: Type, ops: Sequence[Constant], call: CallBase) -> Constant | None:
    a, b, c = ops
    if iid is None:
        return None
    if isinstance(a, ConstantFP) and isinstance(b, ConstantFP) and isinstance(c, ConstantFP):
        sem = apfloat.semantics_of(a.type.type_id)
        if sem is None:
            return None
        if iid in ("fma", "fmuladd"):
            return ConstantFP.from_bits(ty, apfloat.fma(sem, a.bits, b.bits, c.bits))
        if iid in ("experimental.constrained.fma", "experimental.constrained.fmuladd"):
            r = apfloat.fma(sem, a.bits, b.bits, c.bits, _evaluation_rounding(call))
            if _may_fold_constrained(call, apfloat.op_status_ok(sem, "fma", [a.bits, b.bits, c.bits], r)):
                return ConstantFP.from_bits(ty, r)
            return None
    if iid in ("smul.fix", "smul.fix.sat"):
        if isinstance(a, PoisonValue) or isinstance(b, PoisonValue):
            return PoisonValue.get(ty)
        ok0, c0 = _const_int_or_undef(a)
        ok1, c1 = _const_int_or_undef(b)
        if not ok0 or not ok1:
            return None
        if c0 is None or c1 is None:
            return Constant.get_null_value(ty)
        assert isinstance(c, ConstantInt)
        w = c0.type.width
        prod = (c0.sext_value * c1.sext_value) >> c.value
        if iid == "smul.fix.sat":
            prod = max(-(1 << (w - 1)), min((1 << (w - 1)) - 1, prod))
        return ConstantInt.get(ty, prod)
    if iid in ("fshl", "fshr"):
        oks = [_const_int_or_undef(x) for x in ops]
        if not all(ok for ok, _ in oks):
            return None
        c0, c1, c2 = (v for _, v in oks)
        right = iid == "fshr"
        if c2 is None:
            return ops[1] if right else ops[0]
        if c0 is None and c1 is None:
            return UndefValue.get(ty)
        w = c2.type.width
        sh = c2.value % w
        if not sh:
            return ops[1] if right else ops[0]
        lshr = sh if right else w - sh
        shl = w - sh if right else sh
        mask = (1 << w) - 1
        if c0 is None:
            assert c1 is not None
            return ConstantInt.get(ty, c1.value >> lshr)
        if c1 is None:
            return ConstantInt.get(ty, (c0.value << shl) & mask)
        return ConstantInt.get(ty, ((c0.value << shl) & mask) | (c1.value >> lshr))
    return None


def _fold_vector_reduce(iid: str, op: Constant) -> Constant | None:
    """LLVM's ``constantFoldVectorReduce``."""
    from llvmpy_mid.ir.constant_fold import contains_poison_element

    vt = op.type
    if not isinstance(vt, VectorType) or vt.scalable:
        return None
    et = vt.element_type
    if isinstance(op, ConstantAggregateZero):
        return ConstantInt.get(et, 0)
    if isinstance(op, PoisonValue) or contains_poison_element(op):
        return PoisonValue.get(et)
    if not isinstance(op, (ConstantVector, ConstantDataVector)):
        return None
    lanes = [op.get_aggregate_element(i) for i in range(vt.count)]
    if not all(isinstance(x, ConstantInt) for x in lanes):
        return None
    ints = [x for x in lanes if isinstance(x, ConstantInt)]
    w = ints[0].type.width
    kind = iid[len("vector.reduce.") :]
    acc = ints[0].value
    for x in ints[1:]:
        v = x.value
        if kind == "add":
            acc += v
        elif kind == "mul":
            acc *= v
        elif kind == "and":
            acc &= v
        elif kind == "or":
            acc |= v
        elif kind == "xor":
            acc ^= v
        elif kind in ("smin", "smax"):
            sa, sv = _signed(acc & ((1 << w) - 1), w), _signed(v, w)
            acc = min(sa, sv) if kind == "smin" else max(sa, sv)
        elif kind == "umin":
            acc = min(acc, v)
        elif kind == "umax":
            acc = max(acc, v)
        acc &= (1 << w) - 1
    return ConstantInt.get(et, acc)


def _fold_fixed_vector_call(
    name: str, iid: str | None, vty: VectorType, ops: list[Constant], tli: TargetLibraryInfo | None, call: CallBase
) -> Constant | None:
    ety = vty.element_type
    if iid == "masked.load":
        return _fold_masked_load(vty, ops, call)
    if iid == "get.active.lane.mask":
        a, b = ops[0], ops[1]
        if isinstance(a, ConstantInt) and isinstance(b, ConstantInt):
            return ConstantVector.get([ConstantInt.get(ety, int(a.value + i < b.value)) for i in range(vty.count)])
        return None
    scalar_ops = _SCALAR_OPERANDS.get(iid or "", frozenset())
    out: list[Constant] = []
    for i in range(vty.count):
        lane: list[Constant] = []
        for j, op in enumerate(ops):
            if j in scalar_ops:
                lane.append(op)
                continue
            e = op.get_aggregate_element(i)
            if e is None:
                return None
            lane.append(e)
        r = _fold_scalar_call(name, iid, ety, lane, tli, call)
        if r is None:
            return None
        out.append(r)
    return ConstantVector.get(out)


def _fold_masked_load(vty: VectorType, ops: list[Constant], call: CallBase) -> Constant | None:
    """``llvm.masked.load`` from a constant: each lane from memory or the pass-through value."""
    from llvmpy_mid.analysis.constant_folding_memory import constant_fold_load_from_const_ptr

    fn = call.function
    module = fn.parent if fn is not None else None
    if module is None:
        return None
    ptr, mask, passthru = ops[0], ops[2], ops[3]
    data = constant_fold_load_from_const_ptr(ptr, vty, module.data_layout)
    out: list[Constant] = []
    for i in range(vty.count):
        m = mask.get_aggregate_element(i)
        if m is None:
            return None
        p = passthru.get_aggregate_element(i)
        v = data.get_aggregate_element(i) if data is not None else None
        if isinstance(m, UndefValue):
            if p is not None:
                out.append(p)
            elif v is not None:
                out.append(v)
            else:
                return None
        if m.is_null_value:
            if p is None:
                return None
            out.append(p)
        elif isinstance(m, ConstantInt) and m.value == 1:
            if v is None:
                return None
            out.append(v)
        else:
            return None
    if len(out) != vty.count:
        return None
    return ConstantVector.get(out)


def _fold_struct_call(
    name: str, iid: str | None, sty: StructType, ops: list[Constant], tli: TargetLibraryInfo | None, call: CallBase
) -> Constant | None:
    if iid == "frexp":
        t0 = sty.elements[0]
        t1 = sty.elements[1].scalar_type
        if isinstance(t0, VectorType) and t0.scalable:
            return PoisonValue.get(sty) if isinstance(ops[0], PoisonValue) else None
        if isinstance(t0, VectorType):
            r0: list[Constant] = []
            r1: list[Constant] = []
            for i in range(t0.count):
                e = ops[0].get_aggregate_element(i)
                if e is None:
                    return None
                pair = _frexp(e, t1)
                if pair is None:
                    return None
                r0.append(pair[0])
                r1.append(pair[1])
            return ConstantStruct.get(sty, [ConstantVector.get(r0), ConstantVector.get(r1)])
        pair = _frexp(ops[0], t1)
        if pair is None:
            return None
        return ConstantStruct.get(sty, list(pair))
    return _fold_scalar_call(name, iid, sty, ops, tli, call)


def _frexp(op: Constant, int_ty: Type) -> tuple[Constant, Constant] | None:
    if isinstance(op, PoisonValue):
        return op, PoisonValue.get(int_ty)
    if not isinstance(op, ConstantFP):
        return None
    sem = apfloat.semantics_of(op.type.type_id)
    if sem is None:
        # ppc_fp128: the high double's frexp, the low double scaled by the same power.
        dbl = apfloat.SEMANTICS[TypeID.DOUBLE]
        hi = op.bits & 0xFFFFFFFFFFFFFFFF
        cat, sign, sig, exp = apfloat.decode(dbl, hi)
        if cat != apfloat.NORMAL:
            return op, ConstantInt.get(int_ty, 0)
        e = sig.bit_length() + exp
        mant = apfloat.from_exact(dbl, sign, sig, 1, exp - e)
        lo = _scalbn(dbl, op.bits >> 64, -e)
        return ConstantFP.from_bits(op.type, mant | (lo << 64)), ConstantInt.get(int_ty, e)
    cat, sign, sig, exp = apfloat.decode(sem, op.bits)
    if cat == apfloat.NAN:
        return ConstantFP.from_bits(op.type, apfloat.make_quiet(sem, op.bits)), ConstantInt.get(int_ty, 0)
    if cat != apfloat.NORMAL:
        return op, ConstantInt.get(int_ty, 0)
    e = sig.bit_length() + exp  # value = m * 2**e with 0.5 <= m < 1
    mant = apfloat.from_exact(sem, sign, sig, 1, exp - e)
    return ConstantFP.from_bits(op.type, mant), ConstantInt.get(int_ty, e)


def _fp_less(sem: apfloat.Semantics, bits: int, v: float) -> bool:
    return apfloat.compare(sem, bits, apfloat.from_float(sem, v)) == apfloat.CMP_LESS


def _fp_greater(sem: apfloat.Semantics, bits: int, v: float) -> bool:
    return apfloat.compare(sem, bits, apfloat.from_float(sem, v)) == apfloat.CMP_GREATER


# Argument ranges (double, float) inside which these functions neither overflow nor underflow.
_SAFE_RANGES: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "exp": ((-745.0, 709.0), (-103.0, 88.0)),
    "exp2": ((-1074.0, 1023.0), (-149.0, 127.0)),
    "sinh": ((-710.0, 710.0), (-89.0, 89.0)),
    "cosh": ((-710.0, 710.0), (-89.0, 89.0)),
}


def _libm_base(func: str) -> str:
    """``"exp"`` for the LibFunc names ``exp``, ``expf``, ``expl``."""
    for base in ("log10", "log2", "log", "exp2", "exp", "sin", "cos", "tan", "atan2", "atan", "asin", "acos",
                 "sinh", "cosh", "sqrt", "pow", "fmod", "remainder"):
        if func in (base, base + "f", base + "l"):
            return base
    return func


def is_math_lib_call_no_op(call: CallBase, tli: TargetLibraryInfo | None) -> bool:
    """LLVM ``isMathLibCallNoop``: a libm call on constants that sets no ``errno`` and
    raises no exception (it may be deleted when its result is unused)."""
    if call.is_no_builtin or _is_strict_fp(call):
        return False
    fn = call.called_function
    if fn is None or tli is None:
        return False
    func = tli.get_lib_func(fn)
    if func is None:
        return False
    base = _libm_base(func)
    args = call.args
    if len(args) == 1:
        c = args[0]
        if not isinstance(c, ConstantFP):
            return False
        sem = apfloat.semantics_of(c.type.type_id)
        if sem is None:
            return False
        cat = apfloat.category(sem, c.bits)
        neg = apfloat.is_negative(sem, c.bits)
        tid = c.type.type_id
        if base in ("log", "log2", "log10"):
            return cat == apfloat.NAN or (cat != apfloat.ZERO and not neg)
        if base in _SAFE_RANGES:
            rng = _SAFE_RANGES[base]
            if tid is TypeID.DOUBLE:
                lo, hi = rng[0]
            elif tid is TypeID.FLOAT:
                lo, hi = rng[1]
            else:
                return False
            return not (_fp_less(sem, c.bits, lo) or _fp_greater(sem, c.bits, hi))
        if base in ("sin", "cos"):
            return cat != apfloat.INF
        if base == "tan":
            if tid in (TypeID.DOUBLE, TypeID.FLOAT, TypeID.HALF):
                return _host_fp(math.tan, (_as_double(c),), c.type) is not None
            return False
        if base == "atan":
            return True
        if base in ("asin", "acos"):
            return not (_fp_less(sem, c.bits, -1.0) or _fp_greater(sem, c.bits, 1.0))
        if base == "sqrt":
            return cat == apfloat.NAN or cat == apfloat.ZERO or not neg
        return False
    if len(args) == 2:
        a0 = args[0]
        b0 = args[1]
        if not isinstance(a0, ConstantFP) or not isinstance(b0, ConstantFP):
            return False
        sem = apfloat.semantics_of(a0.type.type_id)
        if sem is None:
            return False
        ca = apfloat.category(sem, a0.bits)
        cb = apfloat.category(sem, b0.bits) if b0.type is a0.type else apfloat.NORMAL
        if base == "pow":
            if a0.type.type_id in (TypeID.DOUBLE, TypeID.FLOAT, TypeID.HALF) and a0.type is b0.type:
                return _host_fp(math.pow, (_as_double(a0), _as_double(b0)), a0.type) is not None
            return False
        if base in ("fmod", "remainder"):
            return ca == apfloat.NAN or cb == apfloat.NAN or (ca != apfloat.INF and cb != apfloat.ZERO)
        if base == "atan2":
            return ca != apfloat.ZERO or cb != apfloat.ZERO
    return False
