"""Small value helpers the ``and``/``or``/``xor`` folds share (support for
LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``).

They read operands the way LLVM's ``m_Specific``/``m_c_BinOp`` matchers do,
without building a pattern per call (a pattern with a run-time value would be
compiled anew each time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector, UndefValue
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.pattern_match import m_apint, m_not, m_value, match
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_BINARY = frozenset(
    ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor")
)

P_NOT = m_not(m_value("x"))
_P_APINT = m_apint("c")


def cint(ty: Type, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: the integer, splatted for a vector type."""
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, value))
    return ConstantInt.get(ty, value)


def width(ty: Type) -> int:
    """``getScalarSizeInBits`` of an integer (vector) type."""
    w: int = ty.scalar_type.width  # type: ignore[attr-defined]
    return w


def is_bool(ty: Type) -> bool:
    """``isIntOrIntVectorTy(1)``."""
    st = ty.scalar_type
    return bool(st.is_integer) and width(ty) == 1


def binop(v: Value, opcode: str) -> tuple[Value, Value] | None:
    """The operands of ``v`` when it is an ``opcode`` instruction or constant expression."""
    if getattr(v, "opcode", None) != opcode:
        return None
    ops = v._operands  # type: ignore[attr-defined]
    return ops[0].value, ops[1].value


def other(v: Value, opcode: str, x: Value) -> Value | None:
    """``m_c_BinOp(opcode, m_Specific(x), m_Value(Y))``: Y, or None."""
    if getattr(v, "opcode", None) != opcode:
        return None
    ops = v._operands  # type: ignore[attr-defined]
    if ops[0].value is x:
        return ops[1].value  # type: ignore[no-any-return]
    if ops[1].value is x:
        return ops[0].value  # type: ignore[no-any-return]
    return None


def has_pair(v: Value, opcode: str, a: Value, b: Value) -> bool:
    """``m_c_BinOp(opcode, m_Specific(a), m_Specific(b))``."""
    if getattr(v, "opcode", None) != opcode:
        return False
    ops = v._operands  # type: ignore[attr-defined]
    x = ops[0].value
    y = ops[1].value
    return (x is a and y is b) or (x is b and y is a)


def not_of(v: Value) -> Value | None:
    """``m_Not(m_Value(X))``: X, or None."""
    m = match(v, P_NOT)
    return None if m is None else m.value("x")


def is_not_of(v: Value, x: Value) -> bool:
    """``m_Not(m_Specific(x))``."""
    return not_of(v) is x


def one_use(v: Value) -> bool:
    """``hasOneUse``."""
    h = v._use_head
    return h is not None and h._next is None


def is_constant(v: Value) -> bool:
    return bool(v.is_constant)


def intrinsic_call(ic: InstCombiner, base: str, ty: Type, args: list[Value]) -> CallInst:
    """``CallInst::Create(Intrinsic::getDeclaration(M, ID, {ty}), args)``: a detached call of
    ``llvm.<base>`` overloaded on ``ty`` (declared in the module when missing)."""
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    module = ic.fn.parent
    assert module is not None
    full = intrinsic_name("llvm." + base, [ty])
    assert full is not None
    decl = intrinsic_declaration(module, full, ty.context.function_type(ty, [a.type for a in args]))
    return CallInst.create(decl, args)


def merge_undefs_with(c: Constant, other_c: Constant) -> Constant:
    """``Constant::mergeUndefsWith(C, Other)``: lanes undef (or poison) in Other become undef in C."""
    if isinstance(c, UndefValue):
        return c
    ty = c.type
    if isinstance(other_c, UndefValue):
        return UndefValue.get(ty)
    if not isinstance(ty, VectorType) or ty.scalable:
        return c
    elts = []
    changed = False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        o = other_c.get_aggregate_element(k)
        if o is None or e is None:
            return c
        if not isinstance(e, UndefValue) and isinstance(o, UndefValue):
            e = UndefValue.get(ty.element_type)
            changed = True
        elts.append(e)
    return ConstantVector.get(elts) if changed else c


def element_wise_bitcast_source(v: Value) -> Value | None:
    """``m_ElementWiseBitCast(m_Value(X))``: X of a bitcast instruction keeping the lane count."""
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.types import VectorType

    if not isinstance(v, Instruction) or v.opcode != "bitcast":
        return None
    x = v.get_operand(0)
    st = x.type
    dt = v.type
    if isinstance(st, VectorType) != isinstance(dt, VectorType):
        return None
    if isinstance(st, VectorType) and isinstance(dt, VectorType) and (st.count != dt.count or st.scalable != dt.scalable):
        return None
    return x


def is_ieee_fp_scalar(ty: Type) -> bool:
    """``EltTy->isFloatingPointTy() && EltTy->isIEEE()``: every FP type but ppc_fp128."""
    st = ty.scalar_type
    return bool(st.is_floating_point) and str(st) != "ppc_fp128"


from llvmpy_mid.transform.instcombine.select_util import is_known_inversion as is_known_inversion  # noqa: E402

__all__ = [
    "P_NOT",
    "binop",
    "cint",
    "element_wise_bitcast_source",
    "is_ieee_fp_scalar",
    "has_pair",
    "intrinsic_call",
    "is_known_inversion",
    "merge_undefs_with",
    "is_bool",
    "is_constant",
    "is_not_of",
    "not_of",
    "one_use",
    "other",
    "width",
]
