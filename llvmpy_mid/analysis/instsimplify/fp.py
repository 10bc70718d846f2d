"""Floating-point operations of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``: ``simplifyFNegInst``,
``simplifyFPOp`` (poison, undef and NaN operands under the fast-math flags),
``simplifyFAddInst`` ... ``simplifyFRemInst`` in the default floating-point
environment, and ``simplifyFCmpInst``).

What it does not do (yet): the folds that need ``computeKnownFPClass``
(never-NaN/never-infinity/sign facts about a non-constant operand) answer only
from the fast-math flags and the casts from integers; constrained (strictfp)
intrinsics are not simplified.
"""

from __future__ import annotations

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantVector, PoisonValue, get_splat_value
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value

RECURSION_LIMIT = u.RECURSION_LIMIT
P = Predicate

_NNAN = int(FastMathFlags.NNAN)
_NINF = int(FastMathFlags.NINF)
_NSZ = int(FastMathFlags.NSZ)
_REASSOC = int(FastMathFlags.REASSOC)


def _fp_const(ty: Type, value: float) -> Constant:
    st = ty.scalar_type
    c = ConstantFP.get(st, value)
    return ConstantVector.get_splat(ty, c) if isinstance(ty, VectorType) else c


def _fp_bits_const(ty: Type, bits: int) -> Constant:
    st = ty.scalar_type
    c = ConstantFP.from_bits(st, bits)
    return ConstantVector.get_splat(ty, c) if isinstance(ty, VectorType) else c


def _fp_const_from(ty: Type, c: ConstantFP) -> Constant:
    """``c`` as a constant of ``ty`` (splatted over a vector type)."""
    return ConstantVector.get_splat(ty, c) if isinstance(ty, VectorType) else c


def _nan(ty: Type) -> Constant:
    from llvmpy_mid.ir.constant_fold import get_nan

    return get_nan(ty)


def _neg_zero(ty: Type) -> Constant:
    st = ty.scalar_type
    sem = apfloat.semantics_of(st.type_id)
    if sem is None:
        return _fp_const(ty, -0.0)
    return _fp_bits_const(ty, apfloat.neg(sem, 0))


def _quiet(c: ConstantFP) -> ConstantFP:
    sem = apfloat.semantics_of(c.type.type_id)
    if sem is None:
        return c
    return ConstantFP.from_bits(c.type, apfloat.make_quiet(sem, c.bits))


def _propagate_nan(c: Constant) -> Constant:
    """The NaN operand made quiet (LLVM ``propagateNaN``)."""
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable:
        lanes: list[Constant] = []
        for i in range(ty.count):
            e = c.get_aggregate_element(i)
            if isinstance(e, PoisonValue):
                lanes.append(e)
            elif isinstance(e, ConstantFP) and e.is_nan:
                lanes.append(_quiet(e))
            else:
                lanes.append(_nan(ty.element_type))
        return ConstantVector.get(lanes)
    if isinstance(c, ConstantFP):
        return _quiet(c) if c.is_nan else _nan(ty)
    s = get_splat_value(c)
    if isinstance(s, ConstantFP) and s.is_nan:
        return ConstantVector.get_splat(ty, _quiet(s)) if isinstance(ty, VectorType) else _quiet(s)
    return _nan(ty)


def _is_inf(v: Value) -> bool:
    def test(c: Constant) -> bool:
        if not isinstance(c, ConstantFP):
            return False
        sem = apfloat.semantics_of(c.type.type_id)
        return sem is not None and apfloat.category(sem, c.bits) == apfloat.INF

    return u.fp_pred(v, test)


def _is_fp_one(v: Value) -> bool:
    return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and c.value == 1.0)


def _cannot_be_negative_zero(v: Value, depth: int = 0) -> bool:
    """A conservative ``cannotBeNegativeZero``: integer conversions, ``fabs``,
    ``sqrt`` of such, constants that are not -0.0, and selects of such."""
    for _ in range(6):
        if u.intrinsic_name(v) in ("llvm.sqrt", "llvm.experimental.constrained.sqrt"):
            assert isinstance(v, CallInst)
            v = v.get_arg(0)
            continue
        break
    if u.opcode_of(v) in ("sitofp", "uitofp") or u.intrinsic_name(v) in (
        "llvm.fabs",
        "llvm.experimental.constrained.sitofp",
        "llvm.experimental.constrained.uitofp",
    ):
        return True
    if isinstance(v, Constant) and not isinstance(v, PoisonValue):
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not c.is_negative_zero)
    if u.opcode_of(v) == "fadd" and isinstance(v, Instruction):
        # x + (+0.0) is never -0.0 (-0.0 + +0.0 is +0.0 when rounding to nearest)
        return u.fp_pred(v.get_operand(1), lambda c: isinstance(c, ConstantFP) and c.bits == 0)
    if u.opcode_of(v) == "select" and isinstance(v, Instruction) and depth < 6:
        # computeKnownFPClass of a select covers both arms
        return _cannot_be_negative_zero(v.get_operand(1), depth + 1) and _cannot_be_negative_zero(
            v.get_operand(2), depth + 1
        )
    return False


def known_sign_bit_clear(v: Value) -> bool:
    """A conservative ``computeKnownFPSignBit(V) == false``: ``uitofp``, ``fabs``,
    a ``sqrt`` that is ``nnan nsz``, a non-negative constant."""
    name = u.intrinsic_name(v)
    if u.opcode_of(v) == "uitofp" or name == "llvm.fabs":
        return True
    if name in ("llvm.sqrt", "llvm.experimental.constrained.sqrt"):
        fmf = int(getattr(v, "fast_math_flags", 0))
        assert isinstance(v, CallInst)
        return bool(fmf & _NNAN) and (bool(fmf & _NSZ) or _cannot_be_negative_zero(v.get_arg(0)))
    if isinstance(v, Constant) and not isinstance(v, PoisonValue):
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not (c.bits >> (_fp_width(c) - 1)) & 1)
    return False


def _fp_width(c: ConstantFP) -> int:
    from llvmpy_mid.ir import fp_bits

    return fp_bits.bit_width(c.type.type_id)


def _fneg_of(v: Value) -> Value | None:
    """``x`` when ``v`` is ``fneg x`` or ``fsub -0.0, x`` (LLVM ``m_FNeg``)."""
    if isinstance(v, UnaryOperator):
        return v.get_operand(0)
    ops = u.binop(v, "fsub")
    if ops is not None and u.is_neg_zero_fp(ops[0]):
        return ops[1]
    return None


def _fneg_nsz_of(v: Value) -> Value | None:
    """``x`` when ``v`` is ``fsub +-0.0, x`` (LLVM ``m_FNegNSZ``)."""
    ops = u.binop(v, "fsub")
    if ops is not None and u.is_any_zero_fp(ops[0]):
        return ops[1]
    return None


def simplify_fneg_inst(op: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``fneg (fneg X)`` is ``X``; constants fold."""
    if isinstance(op, Constant):
        return u.fold_unary("fneg", op, q)
    return _fneg_of(op)


IGNORE = "ignore"
TO_NEAREST = "tonearest"


def _is_default_env(ex: str, rm: str) -> bool:
    """LLVM ``isDefaultFPEnvironment``: exceptions ignored, round to nearest."""
    return ex == IGNORE and rm == TO_NEAREST


def _can_ignore_snan(ex: str, fmf: int) -> bool:
    return ex == IGNORE or bool(fmf & _NNAN)


def _can_rounding_be(rm: str, want: str) -> bool:
    return rm == want or rm == "dynamic"


def _simplify_fp_op(ops: tuple[Value, ...], fmf: int, q: SimplifyQuery, ex: str = IGNORE, rm: str = TO_NEAREST) -> Constant | None:
    """Poison, undef and NaN operands (LLVM ``simplifyFPOp``)."""
    if any(isinstance(v, PoisonValue) for v in ops):
        return u.poison(ops[0].type)
    default = _is_default_env(ex, rm)
    for v in ops:
        is_nan = u.is_nan_c(v)
        is_inf = _is_inf(v)
        is_undef = u.is_undef(q, v)
        if fmf & _NNAN and (is_nan or is_undef):
            return u.poison(v.type)
        if fmf & _NINF and (is_inf or is_undef):
            return u.poison(v.type)
        if default:
            if is_undef:
                return _nan(v.type)
            if is_nan:
                assert isinstance(v, Constant)
                return _propagate_nan(v)
        elif ex != "strict":
            if is_nan:
                assert isinstance(v, Constant)
                return _propagate_nan(v)
    return None


def _fold_fp_binop_start(
    opcode: str, op0: Value, op1: Value, fmf: int, q: SimplifyQuery, ex: str, rm: str, fp_op: bool = True
) -> tuple[Value | None, Value, Value]:
    """What every floating binary operation tries first: constant folding (with
    a constant moved to the right), in the default environment only; then, when
    ``fp_op``, the NaN/infinity/poison operand rules (LLVM ``simplifyFPOp``).
    Returns ``(result or None, op0, op1)``."""
    from llvmpy_mid.analysis.instsimplify.binops import fold_or_commute_constant

    if _is_default_env(ex, rm):
        c, op0, op1 = fold_or_commute_constant(opcode, op0, op1, q)
        if c is not None:
            return c, op0, op1
    if fp_op:
        return _simplify_fp_op((op0, op1), fmf, q, ex, rm), op0, op1
    return None, op0, op1


def simplify_fadd_inst(
    op0: Value, op1: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, ex: str = IGNORE, rm: str = TO_NEAREST
) -> Value | None:
    """``fadd``: X + -0.0, X + +0.0 (nsz or X not -0.0), nnan X + -X, ..."""
    default = _is_default_env(ex, rm)
    c, op0, op1 = _fold_fp_binop_start("fadd", op0, op1, fmf, q, ex, rm)
    if c is not None:
        return c
    snan_ok = _can_ignore_snan(ex, fmf)
    if snan_ok and (not _can_rounding_be(rm, "downward") or fmf & _NSZ) and u.is_neg_zero_fp(op1):
        return op0
    if snan_ok and u.is_pos_zero_fp(op1) and (fmf & _NSZ or _cannot_be_negative_zero(op0)):
        return op0
    if not default:
        return None
    if fmf & _NNAN:
        if _is_inf(op1):
            return op1
        for a, b in ((op0, op1), (op1, op0)):
            s = u.binop(a, "fsub")
            if s is not None and u.is_any_zero_fp(s[0]) and s[1] is b:
                return u.null(op0.type)
            if _fneg_of(a) is b and isinstance(a, UnaryOperator):
                return u.null(op0.type)
    if fmf & _NSZ and fmf & _REASSOC:
        for a, b in ((op0, op1), (op1, op0)):
            s = u.binop(a, "fsub")
            if s is not None and s[1] is b:
                return s[0]
    return None


def simplify_fsub_inst(
    op0: Value, op1: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, ex: str = IGNORE, rm: str = TO_NEAREST
) -> Value | None:
    """``fsub``: X - +0.0, X - -0.0 (nsz or X not -0.0), -0.0 - (fneg X), ..."""
    default = _is_default_env(ex, rm)
    c, op0, op1 = _fold_fp_binop_start("fsub", op0, op1, fmf, q, ex, rm)
    if c is not None:
        return c
    snan_ok = _can_ignore_snan(ex, fmf)
    if snan_ok and (not _can_rounding_be(rm, "downward") or fmf & _NSZ) and u.is_pos_zero_fp(op1):
        return op0
    if snan_ok and u.is_neg_zero_fp(op1) and (fmf & _NSZ or _cannot_be_negative_zero(op0)):
        return op0
    if snan_ok and u.is_neg_zero_fp(op0):
        x = _fneg_of(op1)
        if x is not None:
            return x
    if snan_ok and fmf & _NSZ and u.is_any_zero_fp(op0):
        s = u.binop(op1, "fsub")
        if s is not None and u.is_any_zero_fp(s[0]):
            return s[1]
        x = _fneg_of(op1)
        if x is not None:
            return x
    if not default:
        return None
    if fmf & _NNAN:
        if op0 is op1:
            return u.null(op0.type)
        if _is_inf(op0):
            return op0
        if _is_inf(op1) and isinstance(op1, Constant):
            return u.fold_unary("fneg", op1, q)
    if fmf & _NSZ and fmf & _REASSOC:
        s = u.binop(op1, "fsub")
        if s is not None and s[0] is op0:
            return s[1]
        x = u.c_binop_with(op0, "fadd", op1)
        if x is not None:
            return x
    return None


def simplify_fmul_inst(
    op0: Value, op1: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, ex: str = IGNORE, rm: str = TO_NEAREST
) -> Value | None:
    """``fmul``: constant folding, then :func:`simplify_fma_fmul`."""
    c, op0, op1 = _fold_fp_binop_start("fmul", op0, op1, fmf, q, ex, rm, fp_op=False)
    if c is not None:
        return c
    return simplify_fma_fmul(op0, op1, fmf, q, max_recurse, ex, rm)


def simplify_fma_fmul(
    op0: Value, op1: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, ex: str = IGNORE, rm: str = TO_NEAREST
) -> Value | None:
    """The multiply of ``fmul`` and ``fma``: X * 1.0, nnan nsz X * 0.0, sqrt(X) * sqrt(X)."""
    c = _simplify_fp_op((op0, op1), fmf, q, ex, rm)
    if c is not None:
        return c
    if not _is_default_env(ex, rm):
        return None
    if _is_fp_one(op0) or u.is_any_zero_fp(op0):
        op0, op1 = op1, op0
    if _is_fp_one(op1):
        return op0
    if u.is_any_zero_fp(op1):
        if fmf & _NNAN and fmf & _NSZ:
            return u.null(op0.type)
    if op0 is op1 and fmf & _REASSOC and fmf & _NNAN and fmf & _NSZ:
        args = u.intrinsic_args(op0, "llvm.sqrt")
        if args is not None:
            return args[0]
    return None


def simplify_fdiv_inst(
    op0: Value, op1: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, ex: str = IGNORE, rm: str = TO_NEAREST
) -> Value | None:
    """``fdiv``: X / 1.0, nnan X / X, (X * Y) / Y with reassoc, X / -X, ..."""
    c, op0, op1 = _fold_fp_binop_start("fdiv", op0, op1, fmf, q, ex, rm)
    if c is not None:
        return c
    if not _is_default_env(ex, rm):
        return None
    if _is_fp_one(op1):
        return op0
    if fmf & _NNAN and fmf & _NSZ and u.is_any_zero_fp(op0):
        return u.null(op0.type)
    if fmf & _NNAN:
        if op0 is op1:
            return _fp_const(op0.type, 1.0)
        if fmf & _REASSOC:
            x = u.c_binop_with(op0, "fmul", op1)
            if x is not None:
                return x
        if _fneg_nsz_of(op0) is op1 or _fneg_nsz_of(op1) is op0:
            return _fp_const(op0.type, -1.0)
        if fmf & _NINF and u.is_any_zero_fp(op1):
            return u.poison(op1.type)
    return None


def simplify_frem_inst(
    op0: Value, op1: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, ex: str = IGNORE, rm: str = TO_NEAREST
) -> Value | None:
    """``frem``: nnan +-0.0 % X is +-0.0."""
    c, op0, op1 = _fold_fp_binop_start("frem", op0, op1, fmf, q, ex, rm)
    if c is not None:
        return c
    if not _is_default_env(ex, rm):
        return None
    if fmf & _NNAN:
        if u.is_pos_zero_fp(op0):
            return u.null(op0.type)
        if u.is_neg_zero_fp(op0):
            return _neg_zero(op0.type)
    return None


def simplify_fp_binop(opcode: str, lhs: Value, rhs: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """Dispatch of the five floating-point binary operators."""
    if opcode == "fadd":
        return simplify_fadd_inst(lhs, rhs, fmf, q, max_recurse)
    if opcode == "fsub":
        return simplify_fsub_inst(lhs, rhs, fmf, q, max_recurse)
    if opcode == "fmul":
        return simplify_fmul_inst(lhs, rhs, fmf, q, max_recurse)
    if opcode == "fdiv":
        return simplify_fdiv_inst(lhs, rhs, fmf, q, max_recurse)
    return simplify_frem_inst(lhs, rhs, fmf, q, max_recurse)


def simplify_fcmp_inst(pred: Predicate, lhs: Value, rhs: Value, fmf: int, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``fcmp pred lhs, rhs`` (LLVM ``simplifyFCmpInst``, without the FP-class queries)."""
    if isinstance(lhs, Constant):
        if isinstance(rhs, Constant):
            return u.fold_compare(pred, lhs, rhs, q)
        lhs, rhs = rhs, lhs
        pred = pred.swapped
    rty = u.compare_type(lhs.type)
    if pred == P.FCMP_FALSE:
        return u.get_false(rty)
    if pred == P.FCMP_TRUE:
        return u.get_true(rty)
    if isinstance(lhs, PoisonValue) or isinstance(rhs, PoisonValue):
        return u.poison(rty)
    if u.is_undef(q, lhs) or u.is_undef(q, rhs):
        return u.get_bool(rty, pred.is_unordered)
    if lhs is rhs:
        if pred.is_true_when_equal:
            return u.get_true(rty)
        if pred.is_false_when_equal:
            return u.get_false(rty)
    if pred in (P.FCMP_ORD, P.FCMP_UNO):
        if fmf & _NNAN or (_never_nan(rhs) and _never_nan(lhs)):
            return u.get_bool(rty, pred == P.FCMP_ORD)
        if _always_nan(rhs) or _always_nan(lhs):
            return u.get_bool(rty, pred == P.FCMP_UNO)
    c = _apfloat_allow_poison(rhs)
    if c is not None and q.cxt_i is not None and _is_inf(c):
        # compare with an infinity: the outcome over the classes lhs may be in
        other = 4 if not _sign_set(c) else 2  # every other value is below +inf / above -inf
        rels = {other}
        if not _never_inf(lhs):
            rels.add(1)
        if not (fmf & _NNAN or _never_nan(lhs)):
            rels.add(8)
        outcomes = {bool(int(pred) & r) for r in rels}
        if len(outcomes) == 1:
            return u.get_bool(rty, outcomes.pop())
    if c is not None:
        if c.is_nan:
            return u.get_bool(rty, pred.is_unordered)
        if _sign_set(c) and not c.is_zero_value and _cannot_be_ordered_less_than_zero(lhs):
            if pred in (P.FCMP_UGE, P.FCMP_UGT, P.FCMP_UNE):
                return u.get_true(rty)
            if pred in (P.FCMP_OEQ, P.FCMP_OLE, P.FCMP_OLT):
                return u.get_false(rty)
        sem = apfloat.semantics_of(c.type.type_id)
        for name, is_max in (("llvm.minnum", False), ("llvm.maxnum", True)):
            args = u.intrinsic_args(lhs, name)
            if args is None or sem is None:
                continue
            c2 = _apfloat(args[1])
            if c2 is None or c2.is_nan:
                continue
            order = apfloat.compare(sem, c2.bits, c.bits)
            if (not is_max and order == apfloat.CMP_LESS) or (is_max and order == apfloat.CMP_GREATER):
                if pred in (P.FCMP_OEQ, P.FCMP_UEQ):
                    return u.get_false(rty)
                if pred in (P.FCMP_ONE, P.FCMP_UNE):
                    return u.get_true(rty)
                if pred in (P.FCMP_OGE, P.FCMP_UGE, P.FCMP_OGT, P.FCMP_UGT):
                    return u.get_bool(rty, is_max)
                if pred in (P.FCMP_OLE, P.FCMP_ULE, P.FCMP_OLT, P.FCMP_ULT):
                    return u.get_bool(rty, not is_max)
    if u.is_any_zero_fp(rhs):
        if pred in (P.FCMP_OGE, P.FCMP_ULT):
            if (fmf & _NNAN or _never_nan(lhs)) and _cannot_be_ordered_less_than_zero(lhs):
                return u.get_bool(rty, pred == P.FCMP_OGE)
        elif pred in (P.FCMP_UGE, P.FCMP_OLT):
            if _cannot_be_ordered_less_than_zero(lhs):
                return u.get_bool(rty, pred == P.FCMP_UGE)
    from llvmpy_mid.analysis.instsimplify.cmp import thread_cmp_over_select_or_phi

    return thread_cmp_over_select_or_phi(pred, lhs, rhs, q, max_recurse)


_SIGN_KEEPING = frozenset(("fpext", "fptrunc", "fneg"))
_NEVER_NEGATIVE_CALLS = frozenset(
    ("llvm.fabs", "llvm.sqrt", "llvm.experimental.constrained.sqrt", "llvm.exp", "llvm.exp2", "llvm.exp10")
)


def _never_nan(v: Value, depth: int = 0) -> bool:
    """A conservative ``isKnownNeverNaN`` (LLVM's ``computeKnownFPClass`` cases for
    NaN): ``nnan`` results, integer conversions, non-NaN constants, and values
    that keep their operand's NaN-ness (extensions, truncations, negation, fabs,
    copysign, select of two never-NaN values)."""
    if isinstance(v, Constant):
        if isinstance(v, PoisonValue):
            return True
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not c.is_nan)
    if isinstance(v, Argument):
        return _nofpclass(v) & _FC_NAN == _FC_NAN
    if not isinstance(v, Instruction) or depth >= 6:
        return False
    if int(getattr(v, "fast_math_flags", 0)) & _NNAN and v.type.scalar_type.is_floating_point:
        return True
    op = v.opcode
    if op in ("sitofp", "uitofp"):
        return True
    if op in _SIGN_KEEPING:
        return _never_nan(v.get_operand(0), depth + 1)
    if op == "select":
        return _never_nan(v.get_operand(1), depth + 1) and _never_nan(v.get_operand(2), depth + 1)
    if op == "phi":
        return all(inc is v or _never_nan(inc, depth + 1) for inc in v.operands)
    if op in ("fadd", "fsub"):
        a, b = v.get_operand(0), v.get_operand(1)
        if op == "fsub" and u.is_neg_zero_fp(a):
            return _never_nan(b, depth + 1)
        return _never_nan(a, depth + 1) and _never_nan(b, depth + 1) and (_never_inf(a, depth + 1) or _never_inf(b, depth + 1))
    if op == "fmul":
        a, b = v.get_operand(0), v.get_operand(1)
        return (
            _never_nan(a, depth + 1)
            and _never_nan(b, depth + 1)
            and (_never_inf(a, depth + 1) or _never_zero(b))
            and (_never_inf(b, depth + 1) or _never_zero(a))
        )
    if op in ("fdiv", "frem") and v.get_operand(0) is not v.get_operand(1):
        # LLVM computeKnownFPClass: only 0/0 and inf/inf make an fdiv NaN; inf % x and x % 0 an frem
        a, b = v.get_operand(0), v.get_operand(1)
        if not (_never_nan(a, depth + 1) and _never_nan(b, depth + 1)):
            return False
        fn = v.function
        if op == "fdiv":
            return (_never_inf(a, depth + 1) or _never_inf(b, depth + 1)) and (
                _never_logical_zero(a, fn) or _never_logical_zero(b, fn))
        return _never_inf(a, depth + 1) and _never_logical_zero(b, fn)
    if isinstance(v, CallBase) and _ret_nofpclass(v) & _FC_NAN == _FC_NAN:
        return True
    name = u.intrinsic_name(v)
    if name in _NAN_PRESERVING and isinstance(v, CallInst):
        return _never_nan(v.get_arg(0), depth + 1)
    if name == "llvm.sqrt" and isinstance(v, CallInst):
        arg = v.get_arg(0)
        return _never_nan(arg, depth + 1) and _cannot_be_ordered_less_than_zero(arg, depth + 1)
    if name in ("llvm.maxnum", "llvm.minnum") and isinstance(v, CallInst):
        return _never_nan(v.get_arg(0), depth + 1) or _never_nan(v.get_arg(1), depth + 1)  # one non-NaN side wins
    if name in ("llvm.maximum", "llvm.minimum") and isinstance(v, CallInst):
        return _never_nan(v.get_arg(0), depth + 1) and _never_nan(v.get_arg(1), depth + 1)
    return False


_NAN_PRESERVING = u.ROUNDING_INTRINSICS | frozenset(
    (
        "llvm.fabs",
        "llvm.copysign",
        "llvm.canonicalize",
        "llvm.arithmetic.fence",
        "llvm.exp",
        "llvm.exp2",
        "llvm.exp10",
    )
)


_FC_NAN = 0x3
_FC_INF = 0x4 | 0x200
_FC_ORDERED_LESS_THAN_ZERO = 0x4 | 0x8 | 0x10
_FC_NEGATIVE = _FC_ORDERED_LESS_THAN_ZERO | 0x20


def _nofpclass(v: Value) -> int:
    """The classes a ``nofpclass`` argument attribute rules out (0 when none)."""
    if isinstance(v, Argument):
        attr = v.parent.attributes.get_param_attr(v.arg_no, "nofpclass")
        if attr is not None:
            return int(attr.int_value)
    return 0


def _never_negative(v: Value) -> bool:
    """Never negative, -0.0 included (conservative): ``fabs``, ``uitofp``,
    ``nofpclass`` arguments, constants with a clear sign bit."""
    if isinstance(v, Constant):
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not c.is_nan and not _sign_set(c))
    if u.opcode_of(v) == "uitofp" or u.intrinsic_name(v) == "llvm.fabs":
        return True
    return _nofpclass(v) & _FC_NEGATIVE == _FC_NEGATIVE


def _ret_nofpclass(call: CallBase) -> int:
    """The classes a ``nofpclass`` return attribute of the call (or callee) rules out."""
    attr = call.attributes.get_ret_attr("nofpclass")
    if attr is None:
        fn = call.called_function
        if fn is not None:
            attr = fn.attributes.get_ret_attr("nofpclass")
    return int(attr.int_value) if attr is not None else 0


def _always_nan(v: Value) -> bool:
    """A NaN constant, or a value whose ``nofpclass`` rules out every other class."""
    if u.is_nan_c(v):
        return True
    mask = _nofpclass(v) if isinstance(v, Argument) else (_ret_nofpclass(v) if isinstance(v, CallBase) else 0)
    return mask & 0x3FC == 0x3FC


def _never_zero(v: Value) -> bool:
    """A floating constant with no zero lane."""
    return isinstance(v, Constant) and u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not c.is_zero_value)


_FC_ZERO = 0x20 | 0x40
_FC_POS_SUBNORMAL = 0x80
_FC_SUBNORMAL = 0x10 | _FC_POS_SUBNORMAL


def _is_denormal(c: ConstantFP) -> bool:
    sem = apfloat.semantics_of(c.type.type_id)
    return sem is not None and apfloat.is_denormal(sem, c.bits)


def _never_logical_zero(v: Value, fn: Function | None) -> bool:
    """LLVM ``KnownFPClass::isKnownNeverLogicalZero`` for constants and ``nofpclass`` values: never
    a zero, nor a subnormal the function's input denormal mode flushes to zero (no function: no)."""
    if fn is None:
        return False
    from llvmpy_mid.analysis.constant_folding import denormal_mode

    mode = denormal_mode(fn, v.type.scalar_type)[1]
    if isinstance(v, Constant):
        if isinstance(v, PoisonValue):
            return True
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not c.is_zero_value and (
            mode == "ieee" or not _is_denormal(c)))
    mask = _nofpclass(v) if isinstance(v, Argument) else (_ret_nofpclass(v) if isinstance(v, CallBase) else 0)
    if mask & _FC_ZERO != _FC_ZERO:
        return False
    if mask & _FC_SUBNORMAL == _FC_SUBNORMAL or mode == "ieee":
        return True
    return mode == "preserve-sign" and mask & _FC_POS_SUBNORMAL == _FC_POS_SUBNORMAL


def _never_inf(v: Value, depth: int = 0) -> bool:
    """A conservative ``isKnownNeverInfinity``: ``ninf`` results, finite constants,
    integer conversions into a wide enough format, and values that keep their
    operand's finiteness."""
    if isinstance(v, Constant):
        if isinstance(v, PoisonValue):
            return True
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and not c.is_nan and not _is_inf(c))
    if isinstance(v, Argument):
        return _nofpclass(v) & _FC_INF == _FC_INF
    if not isinstance(v, Instruction) or depth >= 6:
        return False
    if int(getattr(v, "fast_math_flags", 0)) & _NINF and v.type.scalar_type.is_floating_point:
        return True
    op = v.opcode
    if op in ("sitofp", "uitofp"):
        sem = apfloat.semantics_of(v.type.scalar_type.type_id)
        src_bits = u.scalar_bits(v.get_operand(0).type)
        return sem is not None and sem.emax >= src_bits - (1 if op == "sitofp" else 0)
    if op in ("fpext", "fneg"):
        return _never_inf(v.get_operand(0), depth + 1)
    if op == "select":
        return _never_inf(v.get_operand(1), depth + 1) and _never_inf(v.get_operand(2), depth + 1)
    if isinstance(v, CallBase) and _ret_nofpclass(v) & _FC_INF == _FC_INF:
        return True
    name = u.intrinsic_name(v)
    if not isinstance(v, CallInst):
        return False
    if name in _INF_PRESERVING:
        return _never_inf(v.get_arg(0), depth + 1)
    if name in ("llvm.minnum", "llvm.maxnum", "llvm.minimum", "llvm.maximum"):
        return _never_inf(v.get_arg(0), depth + 1) and _never_inf(v.get_arg(1), depth + 1)
    return name in ("llvm.sin", "llvm.cos")


_INF_PRESERVING = u.ROUNDING_INTRINSICS | frozenset(
    (
        "llvm.fabs",
        "llvm.copysign",
        "llvm.canonicalize",
        "llvm.arithmetic.fence",
        "llvm.sqrt",
    )
)


def _cannot_be_ordered_less_than_zero(v: Value, depth: int = 0) -> bool:
    """Never a negative number (-0.0 and NaN allowed) (LLVM
    ``KnownFPClass::cannotBeOrderedLessThanZero``, conservative cases)."""
    if isinstance(v, Constant):
        if isinstance(v, PoisonValue):
            return True
        return u.fp_pred(v, lambda c: isinstance(c, ConstantFP) and (c.is_nan or c.is_zero_value or not _sign_set(c)))
    if isinstance(v, Argument):
        return _nofpclass(v) & _FC_ORDERED_LESS_THAN_ZERO == _FC_ORDERED_LESS_THAN_ZERO
    if not isinstance(v, Instruction) or depth >= 6:
        return False
    op = v.opcode
    if op == "uitofp":
        return True
    if u.intrinsic_name(v) == "llvm.powi" and isinstance(v, CallInst):
        exp = v.get_arg(1)
        if u.known_bits(exp, SimplifyQuery(_dl_of(v))).zero & 1:
            return True
        return _never_negative(v.get_arg(0))
    if op in ("fpext", "fptrunc"):
        return _cannot_be_ordered_less_than_zero(v.get_operand(0), depth + 1)
    if op == "select":
        return _cannot_be_ordered_less_than_zero(v.get_operand(1), depth + 1) and _cannot_be_ordered_less_than_zero(
            v.get_operand(2), depth + 1
        )
    if op == "fdiv" and v.get_operand(0) is v.get_operand(1):
        return True  # x / x is 1.0 or NaN
    if op == "fadd":
        return _cannot_be_ordered_less_than_zero(v.get_operand(0), depth + 1) and _cannot_be_ordered_less_than_zero(
            v.get_operand(1), depth + 1
        )
    name = u.intrinsic_name(v)
    if isinstance(v, CallInst):
        if name in ("llvm.maxnum", "llvm.maximum"):
            return any(
                _cannot_be_ordered_less_than_zero(a, depth + 1) and _never_nan(a, depth + 1) for a in (v.get_arg(0), v.get_arg(1))
            )
        if name in ("llvm.minnum", "llvm.minimum"):
            return all(_cannot_be_ordered_less_than_zero(a, depth + 1) for a in (v.get_arg(0), v.get_arg(1)))
    return name in _NEVER_NEGATIVE_CALLS


def _dl_of(i: Instruction) -> DataLayout:
    m = i.module
    return m.data_layout if m is not None else DataLayout()


def _sign_set(c: ConstantFP) -> bool:
    return bool((c.bits >> (_fp_width(c) - 1)) & 1)


def _apfloat(v: Value) -> ConstantFP | None:
    if isinstance(v, ConstantFP):
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if isinstance(s, ConstantFP):
            return s
    return None


def _apfloat_allow_poison(v: Value) -> ConstantFP | None:
    if isinstance(v, ConstantFP):
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v, True)
        if isinstance(s, ConstantFP):
            return s
    return None


__all__ = [
    "simplify_fneg_inst",
    "simplify_fadd_inst",
    "simplify_fsub_inst",
    "simplify_fmul_inst",
    "simplify_fma_fmul",
    "simplify_fdiv_inst",
    "simplify_frem_inst",
    "simplify_fp_binop",
    "simplify_fcmp_inst",
]
