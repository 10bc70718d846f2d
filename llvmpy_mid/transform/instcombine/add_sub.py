"""InstCombine folds of ``add``, ``sub``, ``fadd``, ``fsub`` and ``fneg`` (LLVM
``lib/Transforms/InstCombine/InstCombineAddSub.cpp``).

Each visitor follows LLVM 19's order of attempts: InstructionSimplify first,
then the shared binop helpers of :mod:`.common`, then the family's folds; the
first fold that fires wins. ``sub`` hands ``0 - x`` style rewrites to the
Negator (:mod:`.negator`).

Also here, because only this family and ``mul`` use it: ``narrowMathIfNoOverflow``
(LLVM keeps it in InstructionCombining.cpp) as :func:`narrow_math_if_no_overflow`.

Not done (yet): ``FAddCombine`` (the reassociating fadd/fsub combiner run under
``reassoc nsz``), ``foldFBinOpOfIntCasts``, ``OptimizePointerDifference``
(``ptrtoint`` differences of GEPs), the ``vector.reduce.fadd`` folds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import OverflowResult
from llvmpy_mid.analysis.instruction_simplify import (
    simplify_add_inst,
    simplify_fadd_inst,
    simplify_fneg_inst,
    simplify_fsub_inst,
    simplify_sub_inst,
)
from llvmpy_mid.analysis.instsimplify._util import all_ones, const_int, null
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.known_bits_analysis import have_no_common_bits_set
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantFP
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_all_ones,
    m_and,
    m_apint,
    m_ashr,
    m_c_add,
    m_c_and,
    m_c_binop,
    m_c_fadd,
    m_c_fmul,
    m_c_mul,
    Pattern,
    m_c_or,
    m_c_umax,
    m_c_umin,
    m_c_xor,
    m_c_smax,
    m_c_smin,
    m_combine_and,
    m_combine_or,
    m_constant,
    m_deferred,
    m_fdiv,
    m_fmul,
    m_fneg,
    m_fpext,
    m_fptrunc,
    m_fsub,
    m_icmp,
    m_imm_constant,
    m_instruction,
    m_intrinsic,
    m_lshr,
    m_mul,
    m_neg,
    m_not,
    m_nuw_sub,
    m_nsw_sub,
    m_one,
    m_one_use,
    m_or,
    m_power2,
    m_select,
    m_sext,
    m_shl,
    m_specific,
    m_specific_int,
    m_sub,
    m_trunc,
    m_ptrtoint,
    m_umin,
    m_udiv,
    m_urem,
    m_srem,
    m_sdiv,
    m_value,
    m_xor,
    m_zero_int,
    m_zext,
    m_zext_or_self,
    m_sext_or_self,
    m_trunc_or_self,
    m_max_or_min,
    m_cst_pred,
    match,
)
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common as cm
from llvmpy_mid.transform.instcombine.negator import negate

if TYPE_CHECKING:
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


# --- small shared helpers ------------------------------------------------------------------------


def scalar_bits(ty: Type) -> int:
    return int(ty.scalar_type.width)  # type: ignore[attr-defined]


def is_bool_ty(ty: Type) -> bool:
    st = ty.scalar_type
    return bool(st.is_integer and st.width == 1)  # type: ignore[attr-defined]


def _sext_val(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


will_not_overflow = cm.will_not_overflow
narrow_math_if_no_overflow = cm.narrow_math_if_no_overflow


def new_intrinsic_call(ic: InstCombiner, base: str, overloads: list[Type], args: list[Value]) -> CallInst:
    """A detached ``call @llvm.<base>(args)`` (LLVM ``CallInst::Create(getDeclaration(...), args)``)."""
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    module = ic.fn.parent
    full = intrinsic_name("llvm." + base, overloads)
    assert full is not None and module is not None
    ctx = overloads[0].context
    decl = intrinsic_declaration(module, full, ctx.function_type(overloads[0], [a.type for a in args]))
    return CallInst(decl.function_type, decl, args)


_FOPS = {"fadd", "fsub", "fmul", "fdiv", "frem"}


def create_fbin_fmf(ic: InstCombiner, opcode: str, a: Value, b: Value, fmf: int, name: str = "") -> Value:
    """``Builder.CreateF<op>FMF(a, b, FMFSource)``: folded, else created with ``fmf``."""
    folder = ic.builder.folder
    if folder is not None:
        v = folder.fold_bin_op(opcode, a, b)
        if v is not None:
            return v
    inst = BinaryOperator.create(opcode, a, b, fast_math_flags=fmf)
    return ic.builder.insert(inst, name)


def create_fneg_fmf(ic: InstCombiner, v: Value, fmf: int, name: str = "") -> Value:
    """``Builder.CreateFNegFMF(v, FMFSource)``."""
    return ic.builder.create_fneg(v, name, fast_math_flags=fmf)


def new_fbin(opcode: str, a: Value, b: Value, fmf: int) -> BinaryOperator:
    """``BinaryOperator::Create<op>FMF(a, b, FMFSource)`` (detached)."""
    return BinaryOperator.create(opcode, a, b, fast_math_flags=fmf)


def new_fneg(v: Value, fmf: int) -> UnaryOperator:
    return UnaryOperator(v, fast_math_flags=fmf)


_add_one = cm.add_one
_sub_one = cm.sub_one


def _not_min_signed(c: Constant) -> bool:
    """``Constant::isNotMinSignedValue``."""
    if isinstance(c, ConstantInt):
        return c.value != 1 << (c.type.width - 1)
    from llvmpy_mid.ir.constants import get_splat_value

    sp = get_splat_value(c)
    if isinstance(sp, ConstantInt):
        return sp.value != 1 << (sp.type.width - 1)
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable:
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            if not isinstance(e, ConstantInt) or e.value == 1 << (e.type.width - 1):
                return False
        return True
    return False


def _call_if_present(module: str, name: str, ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Call a fold another family owns (LLVM keeps it elsewhere) once that family has it."""
    import importlib

    fn = getattr(importlib.import_module("llvmpy_mid.transform.instcombine." + module), name, None)
    if fn is None:
        return None
    r: Instruction | None = fn(ic, i)
    return r


def _fmf(i: Value) -> int:
    return int(getattr(i, "fast_math_flags", 0))


# --- add --------------------------------------------------------------------------------------------

_P_ADD_X_ONE = m_add(m_value("x"), m_one())
_P_XOR_Y_C1 = m_xor(m_value("y"), m_apint("c1"))
_P_OR_Z_C2 = m_or(m_value("z"), m_apint("c2"))
_P_AND_Z_C2 = m_and(m_value("z"), m_apint("c2"))


def _check_for_negative_operand(ic: InstCombiner, i: BinaryOperator) -> Value | None:
    """``(X ^ C1) + 1 + RHS`` and ``(Z & C2) ^ C1`` forms -> ``RHS - (Z op C)`` (LLVM ``checkForNegativeOperand``)."""
    lhs, rhs = i.operands[0], i.operands[1]
    if not lhs.has_one_use and not rhs.has_one_use:
        return None
    b = ic.builder
    if match(rhs, _P_ADD_X_ONE) is not None:
        lhs, rhs = rhs, lhs
    m = match(lhs, _P_ADD_X_ONE)
    if m is not None:
        x = m.value("x")
        if match(rhs, _P_XOR_Y_C1) is not None:
            x, rhs = rhs, x
        m2 = match(x, _P_XOR_Y_C1)
        if m2 is not None:
            y = m2.value("y")
            c1 = m2.apint("c1")
            w = scalar_bits(i.type)
            mask = (1 << w) - 1
            m3 = match(y, _P_OR_Z_C2)
            if m3 is not None and m3.apint("c2") == ~c1 & mask:
                new_and = b.create_and(m3.value("z"), const_int(i.type, c1))
                return b.create_sub(rhs, new_and, "sub")
            m3 = match(y, _P_AND_Z_C2)
            if m3 is not None and m3.apint("c2") == c1:
                new_or = b.create_or(m3.value("z"), const_int(i.type, ~c1 & mask))
                return b.create_sub(rhs, new_or, "sub")
    lhs, rhs = i.operands[0], i.operands[1]
    if match(rhs, _P_XOR_Y_C1) is not None:
        lhs, rhs = rhs, lhs
    m = match(lhs, _P_XOR_Y_C1)
    if m is not None:
        c1 = m.apint("c1")
        if c1 & 1:
            m3 = match(m.value("y"), _P_AND_Z_C2)
            w = scalar_bits(i.type)
            mask = (1 << w) - 1
            if m3 is not None and c1 == (m3.apint("c2") + 1) & mask:
                new_or = b.create_or(m3.value("z"), const_int(i.type, ~m3.apint("c2") & mask))
                return b.create_sub(rhs, new_or, "sub")
    return None


def _nuw_add_like(v: Value) -> tuple[Value, Value] | None:
    op = getattr(v, "opcode", None)
    if op == "add" and v.nuw or op == "or" and v.disjoint:  # type: ignore[attr-defined]
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    return None


def _nsw_add_like(v: Value) -> tuple[Value, Value] | None:
    op = getattr(v, "opcode", None)
    if op == "add" and v.nsw or op == "or" and v.disjoint:  # type: ignore[attr-defined]
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    return None


def _add_like(v: Value) -> tuple[Value, Value] | None:
    op = getattr(v, "opcode", None)
    if op == "add" or op == "or" and v.disjoint:  # type: ignore[attr-defined]
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    return None


def _fold_no_wrap_add(ic: InstCombiner, add: BinaryOperator) -> Instruction | None:
    """``(zext (X +nuw C2)) + C1 -> zext (X + (C2 + trunc C1))`` and the wide-constant
    regrouping through ``sext``/``zext`` (LLVM ``foldNoWrapAdd``)."""
    op0, op1 = add.operands[0], add.operands[1]
    ty = add.type
    if not isinstance(op1, Constant):
        return None
    b = ic.builder
    m1 = match(op1, m_apint("c1"))
    if m1 is not None and getattr(op0, "opcode", None) == "zext":
        inner = _nuw_add_like(op0.operands[0])  # type: ignore[attr-defined]
        if inner is not None:
            x, c2v = inner
            m2 = match(c2v, m_apint("c2"))
            if m2 is not None:
                w = scalar_bits(ty)
                nw = scalar_bits(x.type)
                c1 = _sext_val(m1.apint("c1"), w)
                neg_c2 = _sext_val(-_sext_val(m2.apint("c2"), nw) & ((1 << w) - 1), w)
                c2 = m2.apint("c2")
                if c1 < 0 and c1 >= neg_c2:
                    new_cv = (c2 + m1.apint("c1")) & ((1 << nw) - 1)
                    if new_cv == 0:
                        return CastInst.create("zext", x, ty)
                    if op0.has_one_use:
                        return CastInst.create("zext", b.create_add(x, const_int(x.type, new_cv), nuw=True), ty)
    if op0.has_one_use:
        op = getattr(op0, "opcode", None)
        if op == "sext" or op == "zext" and op0.nneg:  # type: ignore[attr-defined]
            inner = _nsw_add_like(op0.operands[0])  # type: ignore[attr-defined]
            if inner is not None and isinstance(inner[1], Constant):
                x, narrow_c = inner
                wide_c = b.create_sext(narrow_c, ty)
                new_c = b.create_add(wide_c, op1)
                wide_x = b.create_sext(x, ty)
                return BinaryOperator.create("add", wide_x, new_c)
        if op == "zext":
            inner = _nuw_add_like(op0.operands[0])  # type: ignore[attr-defined]
            if inner is not None and isinstance(inner[1], Constant):
                x, narrow_c = inner
                wide_c = b.create_zext(narrow_c, ty)
                new_c = b.create_add(wide_c, op1)
                wide_x = b.create_zext(x, ty)
                return BinaryOperator.create("add", wide_x, new_c)
    return None


_P_SUB_C_X = m_sub(m_constant("c"), m_value("x"))
_P_OU_SUB_XY = m_one_use(m_sub(m_value("x"), m_value("y")))
_P_NOT_X = m_not(m_value("x"))


def fold_add_with_constant(ic: InstCombiner, add: BinaryOperator) -> Instruction | None:
    """The ``add X, C`` folds (LLVM ``foldAddWithConstant``)."""
    op0, op1 = add.operands[0], add.operands[1]
    ty = add.type
    if match(op1, m_imm_constant()) is None:
        return None
    assert isinstance(op1, Constant)
    r = cm.fold_binop_into_select_or_phi(ic, add)
    if r is not None:
        return r
    b = ic.builder
    # add (sub C1, X), C2 --> sub (add C1, C2), X
    m = match(op0, _P_SUB_C_X)
    if m is not None:
        return BinaryOperator.create("sub", ConstantExpr.get_add(m.constant("c"), op1), m.value("x"))
    # add (sub X, Y), -1 --> add (not Y), X
    m = match(op0, _P_OU_SUB_XY)
    if m is not None and match(op1, m_all_ones()) is not None:
        return BinaryOperator.create("add", b.create_not(m.value("y")), m.value("x"))
    op = getattr(op0, "opcode", None)
    if op == "zext" and is_bool_ty(op0.operands[0].type):  # type: ignore[attr-defined]
        return SelectInst(op0.operands[0], _add_one(op1), op1)  # type: ignore[attr-defined]
    if op == "sext" and is_bool_ty(op0.operands[0].type):  # type: ignore[attr-defined]
        return SelectInst(op0.operands[0], _sub_one(op1), op1)  # type: ignore[attr-defined]
    # ~X + C --> (C-1) - X
    m = match(op0, _P_NOT_X)
    if m is not None:
        one = const_int(op1.type, 1)
        will_not_sov = will_not_overflow(ic, "sub", op1, one, add, True)
        res = BinaryOperator.create("sub", ConstantExpr.get_sub(op1, one), m.value("x"))
        res.nsw = bool(add.nsw) and will_not_sov
        return res
    bw = scalar_bits(ty)
    m = match(op0, m_one_use(m_ashr(m_value("x"), m_apint("sh", allow_poison=True))))
    if m is not None and m.apint("sh") == bw - 1 and match(op1, m_one()) is not None:
        return CastInst.create("zext", b.create_is_not_neg(m.value("x"), "isnotneg"), ty)
    mc = match(op1, m_apint("c"))
    if mc is None:
        return None
    c = mc.apint("c")
    mask = (1 << bw) - 1
    # (X | Op01C) + Op1C --> X + (Op01C + Op1C) iff the or is disjoint
    if op == "or" and op0.disjoint and match(op0.operands[1], m_imm_constant()) is not None:  # type: ignore[attr-defined]
        op01c = op0.operands[1]  # type: ignore[attr-defined]
        new_add = BinaryOperator.create("add", op0.operands[0], ConstantExpr.get_add(op01c, op1))  # type: ignore[attr-defined]
        new_add.nsw = bool(add.nsw) and will_not_overflow(ic, "add", op01c, op1, add, True)
        new_add.nuw = bool(add.nuw)
        return new_add
    m = match(op0, m_or(m_value(), m_apint("c2")))
    if m is not None and m.apint("c2") == -c & mask:
        return BinaryOperator.create("xor", op0, const_int(ty, m.apint("c2")))
    sign = 1 << (bw - 1)
    if c == sign:
        if add.nsw or add.nuw:
            return BinaryOperator.create("or", op0, op1)
        return BinaryOperator.create("xor", op0, op1)
    m = match(op0, m_zext(m_xor(m_value("x"), m_apint("c2"))))
    if m is not None:
        x = m.value("x")
        xw = scalar_bits(x.type)
        c2 = m.apint("c2")
        if c2 == 1 << (xw - 1) and _sext_val(c2, xw) & mask == c:
            return CastInst.create("sext", x, ty)
    m = match(op0, m_xor(m_value("x"), m_apint("c2")))
    if m is not None:
        x = m.value("x")
        c2 = m.apint("c2")
        if c2 == sign:
            return BinaryOperator.create("add", x, const_int(ty, c2 ^ c))
        if c2 != 0 and c2 & (c2 + 1) == 0:  # isMask
            known = ic.compute_known_bits(x, 0, add)
            if (c2 | known.zero) & mask == mask:
                return BinaryOperator.create("sub", const_int(ty, (c2 + c) & mask), x)
        if op0.has_one_use and c2 == -c & mask:
            sh = 0
            if c != 0 and c & (c - 1) == 0:
                sh = bw - c.bit_length()
            elif c2 != 0 and c2 & (c2 - 1) == 0:
                sh = bw - c2.bit_length()
            if sh and ic.masked_value_is_zero(x, mask ^ ((1 << (bw - sh)) - 1), 0, add):
                sh_c = const_int(ty, sh)
                new_shl = b.create_shl(x, sh_c, "sext")
                return BinaryOperator.create("ashr", new_shl, sh_c)
    if c == 1 and op0.has_one_use:
        if op == "sext" and is_bool_ty(op0.operands[0].type):  # type: ignore[attr-defined]
            return CastInst.create("zext", b.create_not(op0.operands[0]), ty)  # type: ignore[attr-defined]
        m = match(op0, m_ashr(m_shl(m_value("x"), m_apint("c2")), m_apint("c3")))
        if m is not None and m.apint("c2") == m.apint("c3") == bw - 1:
            not_x = b.create_not(m.value("x"))
            return BinaryOperator.create("and", not_x, const_int(ty, 1))
    if c == 1:
        m = match(op0, m_zext(m_add(m_value("x"), m_all_ones())))
        if m is not None and is_known_non_zero(m.value("x"), ic.query(add)):
            return CastInst.create("zext", m.value("x"), ty)
    return None


def _match_mul(e: Value) -> tuple[Value, int] | None:
    """``Op * C`` or ``Op << C`` (LLVM ``MatchMul``)."""
    op = getattr(e, "opcode", None)
    if op == "mul":
        m = match(e.operands[1], m_apint("c"))  # type: ignore[attr-defined]
        if m is not None:
            return e.operands[0], m.apint("c")  # type: ignore[attr-defined]
    elif op == "shl":
        m = match(e.operands[1], m_apint("c"))  # type: ignore[attr-defined]
        if m is not None:
            w = scalar_bits(e.type)
            sh = m.apint("c")
            return e.operands[0], (1 << sh) & ((1 << w) - 1) if sh < w else 0  # type: ignore[attr-defined]
    return None


def _match_rem(e: Value) -> tuple[Value, int, bool] | None:
    """``Op % C`` (srem, urem, or ``and`` with a low mask) (LLVM ``MatchRem``)."""
    op = getattr(e, "opcode", None)
    if op in ("srem", "urem", "and"):
        m = match(e.operands[1], m_apint("c"))  # type: ignore[attr-defined]
        if m is not None:
            c = m.apint("c")
            if op == "srem":
                return e.operands[0], c, True  # type: ignore[attr-defined]
            if op == "urem":
                return e.operands[0], c, False  # type: ignore[attr-defined]
            w = scalar_bits(e.type)
            c1 = (c + 1) & ((1 << w) - 1)
            if c1 != 0 and c1 & (c1 - 1) == 0:
                return e.operands[0], c1, False  # type: ignore[attr-defined]
    return None


def _match_div(e: Value, signed: bool) -> tuple[Value, int] | None:
    op = getattr(e, "opcode", None)
    m = None
    if signed and op == "sdiv" or not signed and op in ("udiv", "lshr"):
        m = match(e.operands[1], m_apint("c"))  # type: ignore[attr-defined]
    if m is None:
        return None
    c = m.apint("c")
    if op == "lshr":
        w = scalar_bits(e.type)
        c = (1 << c) & ((1 << w) - 1) if c < w else 0
    return e.operands[0], c  # type: ignore[attr-defined]


def _mul_overflows(c0: int, c1: int, w: int, signed: bool) -> bool:
    if signed:
        p = _sext_val(c0, w) * _sext_val(c1, w)
        return not -(1 << (w - 1)) <= p < 1 << (w - 1)
    return c0 * c1 >= 1 << w


def _simplify_add_with_remainder(ic: InstCombiner, i: BinaryOperator) -> Value | None:
    """``X % C0 + ((X / C0) % C1) * C0 -> X % (C0 * C1)`` and
    ``(X / C0) * C1 + (X % C0) * C2 -> (X / C0) * (C1 - C2 * C0) + X * C2``."""
    lhs, rhs = i.operands[0], i.operands[1]
    w = scalar_bits(i.type)
    mask = (1 << w) - 1
    b = ic.builder
    for a, bb in ((lhs, rhs), (rhs, lhs)):
        r = _match_rem(a)
        mm = _match_mul(bb) if r is not None else None
        if r is not None and mm is not None:
            break
    else:
        r = mm = None
    if r is not None and mm is not None and r[1] == mm[1]:
        x, c0, signed = r
        r2 = _match_rem(mm[0])
        if r2 is not None and r2[2] == signed:
            d = _match_div(r2[0], signed)
            if d is not None and d[0] is x and d[1] == c0 and not _mul_overflows(c0, r2[1], w, signed):
                nd = const_int(x.type, (c0 * r2[1]) & mask)
                return b.create_bin_op("srem" if signed else "urem", x, nd, "srem" if signed else "urem")
    mm1 = _match_mul(lhs) if lhs.has_one_use else None
    div, c1 = (mm1 if mm1 is not None else (lhs, 1))
    mm2 = _match_mul(rhs) if rhs.has_one_use else None
    rem, c2 = (mm2 if mm2 is not None else (rhs, 1))
    if getattr(div, "opcode", None) in ("srem", "urem"):
        div, rem = rem, div
        c1, c2 = c2, c1
    r = _match_rem(rem)
    if r is not None:
        x, c0, signed = r
        d = _match_div(div, signed)
        if d is not None and d[0] is x and d[1] == c0:
            new_c = (c1 - c2 * c0) & mask
            if new_c != 0 and not rem.has_one_use:
                return None
            if not is_guaranteed_not_to_be_undef(x, i, ic.dt):
                return None
            mul_xc2 = b.create_mul(x, const_int(x.type, c2))
            if new_c == 0:
                return mul_xc2
            return b.create_add(b.create_mul(div, const_int(x.type, new_c)), mul_xc2)
    return None


def _canonicalize_lowbit_mask(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``(1 << NBits) - 1 -> ~(-1 << NBits)``."""
    m = match(i, m_add(m_one_use(m_shl(m_one(), m_value("n"))), m_all_ones()))
    if m is None:
        return None
    n = m.value("n")
    not_mask = ic.builder.create_shl(all_ones(n.type), n, "notmask")
    if isinstance(not_mask, BinaryOperator):
        not_mask.nsw = True
        not_mask.nuw = bool(i.nuw)
    r = BinaryOperator.create("xor", not_mask, all_ones(not_mask.type))
    r.name = i.name  # LLVM passes I's name; the driver keeps it when i's name moves
    return r


def _fold_to_unsigned_saturated_add(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``add (umin X, ~Y), Y -> uadd.sat(X, Y)``; ``add (umin X, ~C), C -> uadd.sat(X, C)``."""
    ty = i.type
    m = match(i, m_c_add(m_c_umin(m_value("x"), m_not(m_value("y"))), m_deferred("y")))
    if m is not None:
        return new_intrinsic_call(ic, "uadd.sat", [ty], [m.value("x"), m.value("y")])
    m = match(i, m_add(m_umin(m_value("x"), m_apint("nc")), m_apint("c")))
    if m is not None and m.apint("c") == ~m.apint("nc") & ((1 << scalar_bits(ty)) - 1):
        return new_intrinsic_call(ic, "uadd.sat", [ty], [m.value("x"), const_int(ty, m.apint("c"))])
    return None


_P_ADD_SHL_NEG = m_c_add(m_one_use(m_shl(m_one_use(m_neg(m_value("b"))), m_value("cnt"))), m_value("a"))


def _fold_add_to_ashr(i: BinaryOperator) -> Instruction | None:
    """``(X s/ 2^C) + sext(rounding check) -> X s>> C`` (LLVM ``foldAddToAshr``)."""
    m = match(i.operands[0], m_sdiv(m_value("x"), m_power2("d")))
    if m is None:
        return None
    dv = match(m.value("d"), m_apint("d"))
    if dv is None:
        return None
    w = scalar_bits(i.type)
    div_c = dv.apint("d")
    if div_c >> (w - 1):
        return None
    x = m.value("x")
    m2 = match(i.operands[1], m_sext(m_icmp("p", m_and(m_specific(x), m_apint("mask")), m_apint("mc"))))
    if m2 is None:
        return None
    pred = m2.predicate("p")
    mask_c, mcc = m2.apint("mask"), m2.apint("mc")
    smin = 1 << (w - 1)
    if (pred != Predicate.ICMP_UGT or mcc != smin) and (pred != Predicate.ICMP_EQ or mcc != mask_c):
        return None
    if pred == Predicate.ICMP_UGT:
        valid = mask_c == smin | (div_c - 1)
    else:
        valid = div_c == 2 and mask_c == smin + 1
    if not valid:
        return None
    return BinaryOperator.create("ashr", x, const_int(i.type, div_c.bit_length() - 1))


def _is_sign_bit_check(pred: Predicate, c: int, w: int) -> bool | None:
    """``isSignBitCheck``: None when not a sign test, else whether it tests "negative"."""
    smin = 1 << (w - 1)
    if pred == Predicate.ICMP_SLT:
        return True if c == 0 else None
    if pred == Predicate.ICMP_SLE:
        return True if c == (1 << w) - 1 else None
    if pred == Predicate.ICMP_SGT:
        return False if c == (1 << w) - 1 else None
    if pred == Predicate.ICMP_SGE:
        return False if c == 0 else None
    if pred == Predicate.ICMP_UGT:
        return True if c == smin - 1 else None
    if pred == Predicate.ICMP_UGE:
        return True if c == smin else None
    if pred == Predicate.ICMP_ULT:
        return False if c == smin else None
    if pred == Predicate.ICMP_ULE:
        return False if c == smin - 1 else None
    return None


def canonicalize_cond_signext_of_high_bit_extract(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``(X l>> (W - N)) +/|/- (select (X < 0), -1 << N, 0) -> X a>> (W - N)`` (LLVM
    ``canonicalizeCondSignextOfHighBitExtractToSignextHighBitExtract``)."""
    p = m_c_binop(
        m_trunc_or_self(m_combine_and(m_lshr(m_value("x"), m_instruction("low")), m_instruction("extract"))),
        m_value("sel"),
    )
    m = match(i, p)
    if m is None:
        return None
    opc = i.opcode
    x, low, extract, sel = m.value("x"), m.value("low"), m.value("extract"), m.value("sel")
    if opc == "sub" and i.operands[1] is not sel:
        return None
    had_trunc = i.type is not x.type
    if had_trunc and match(i, m_c_binop(m_one_use(m_value()), m_value())) is None:
        return None
    m2 = match(low, m_zext_or_self(m_sub(m_constant("c"), m_zext_or_self(m_value("nbits")))))
    if m2 is None:
        return None
    if match(m2.constant("c"), m_specific_int(scalar_bits(x.type))) is None:
        return None
    nbits = m2.value("nbits")

    def skip_ext(v: Value) -> Value:
        mm = match(v, m_zext_or_self(m_value("v")) if opc == "sub" else m_sext_or_self(m_value("v")))
        return mm.value("v") if mm is not None else v

    sel = skip_ext(sel)
    m3 = match(sel, m_select(m_icmp("p", m_specific(x), m_apint("thr")), m_value("sev"), m_value("zero")))
    if m3 is None:
        return None
    should = _is_sign_bit_check(m3.predicate("p"), m3.apint("thr"), scalar_bits(x.type))
    if should is None:
        return None
    sev, zero = m3.value("sev"), m3.value("zero")
    if not should:
        sev, zero = zero, sev
    if match(zero, m_zero_int()) is None and not (isinstance(zero, Constant) and zero.is_null_value):
        return None
    sev = skip_ext(sev)
    m4 = match(sev, m_shl(m_constant("base"), m_zext_or_self(m_specific(nbits))))
    if m4 is None:
        return None
    base = m4.constant("base")
    if opc == "sub":
        if match(base, m_one()) is None:
            return None
    elif match(base, m_all_ones()) is None:
        return None
    new_ashr = BinaryOperator.create("ashr", x, low)
    new_ashr.exact = bool(getattr(extract, "exact", False))
    nm = extract.name + ".sext"
    if not had_trunc:
        new_ashr.name = nm
        return new_ashr
    ic.builder.insert(new_ashr, nm)
    if new_ashr.type is i.type:
        return None  # pragma: no cover
    return CastInst.create("trunc", new_ashr, i.type)


def _factorize_math_with_shl_ops(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``add/sub (X << ShAmt), (Y << ShAmt) -> (add/sub X, Y) << ShAmt``."""
    op0, op1 = i.operands[0], i.operands[1]
    if not isinstance(op0, BinaryOperator) or not isinstance(op1, BinaryOperator):
        return None
    if not (op0.has_one_use or op1.has_one_use):
        return None
    if op0.opcode != "shl" or op1.opcode != "shl" or op1.operands[1] is not op0.operands[1]:
        return None
    x, sh, y = op0.operands[0], op0.operands[1], op1.operands[0]
    has_nsw = bool(i.nsw and op0.nsw and op1.nsw)
    has_nuw = bool(i.nuw and op0.nuw and op1.nuw)
    new_math = ic.builder.create_bin_op(i.opcode, x, y)
    if isinstance(new_math, BinaryOperator):
        new_math.nsw = has_nsw
        new_math.nuw = has_nuw
    new_shl = BinaryOperator.create("shl", new_math, sh)
    new_shl.nsw = has_nsw
    new_shl.nuw = has_nuw
    return new_shl


def _fold_box_multiply(i: BinaryOperator) -> Instruction | None:
    """``((XLo * YHi + YLo * XHi) << Half) + XLo * YLo -> X * Y``."""
    w = scalar_bits(i.type)
    if w & 1:
        return None
    half = w >> 1
    half_mask = (1 << half) - 1
    m = match(i, m_c_add(m_shl(m_value("cross"), m_specific_int(half)), m_one_use(m_mul(m_value("ylo"), m_value("xlo")))))
    if m is None:
        return None
    xlo, ylo, cross = m.value("xlo"), m.value("ylo"), m.value("cross")
    mx = match(xlo, m_and(m_value("x"), m_specific_int(half_mask)))
    my = match(ylo, m_and(m_value("y"), m_specific_int(half_mask)))
    if mx is None or my is None:
        return None
    x, y = mx.value("x"), my.value("y")
    p = m_c_add(
        m_c_mul(m_lshr(m_specific(y), m_specific_int(half)), m_combine_or(m_specific(x), m_specific(xlo))),
        m_c_mul(m_lshr(m_specific(x), m_specific_int(half)), m_combine_or(m_specific(y), m_specific(ylo))),
    )
    if match(cross, p) is not None:
        return BinaryOperator.create("mul", x, y)
    return None


_P_SQ1 = m_c_add(
    m_one_use(m_mul(m_value("a"), m_deferred("a"))),
    m_one_use(m_c_mul(m_c_add(m_shl(m_deferred("a"), m_specific_int(1)), m_value("b")), m_deferred("b"))),
)
_P_SQ2 = m_c_add(
    m_combine_or(
        m_one_use(m_shl(m_mul(m_value("a"), m_value("b")), m_specific_int(1))),
        m_one_use(m_c_mul(m_shl(m_value("a"), m_specific_int(1)), m_value("b"))),
    ),
    m_one_use(m_c_add(m_mul(m_deferred("a"), m_deferred("a")), m_mul(m_deferred("b"), m_deferred("b")))),
)


def _fold_square_sum_int(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``a*a + 2*a*b + b*b -> (a + b) * (a + b)``."""
    m = match(i, _P_SQ1) or match(i, _P_SQ2)
    if m is None:
        return None
    ab = ic.builder.create_add(m.value("a"), m.value("b"))
    return BinaryOperator.create("mul", ab, ab)


def visit_add(ic: InstCombiner, i: Instruction) -> Instruction | None:  # noqa: C901 - LLVM's order
    """Fold an ``add`` (LLVM ``InstCombinerImpl::visitAdd``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_add_inst(i.operands[0], i.operands[1], bool(i.nsw), bool(i.nuw), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if cm.simplify_associative_or_commutative(ic, i):
        return i
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    v = cm.fold_using_distributive_laws(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = _fold_box_multiply(i)
    if r is not None:
        return r
    r = _factorize_math_with_shl_ops(ic, i)
    if r is not None:
        return r
    r = fold_add_with_constant(ic, i)
    if r is not None:
        return r
    r = _fold_no_wrap_add(ic, i)
    if r is not None:
        return r
    r = cm.fold_bin_op_shift_with_shift(ic, i)
    if r is not None:
        return r
    m = match(i, _P_ADD_SHL_NEG)
    if m is not None:
        new_shl = ic.builder.create_shl(m.value("b"), m.value("cnt"))
        return BinaryOperator.create("sub", m.value("a"), new_shl)

    lhs, rhs = i.operands[0], i.operands[1]
    ty = i.type
    b = ic.builder
    if is_bool_ty(ty):
        return BinaryOperator.create("xor", lhs, rhs)
    if lhs is rhs:
        shl = BinaryOperator.create("shl", lhs, const_int(ty, 1))
        shl.nsw = bool(i.nsw)
        shl.nuw = bool(i.nuw)
        return shl
    m = match(lhs, m_neg(m_value("a")))
    if m is not None:
        a = m.value("a")
        m2 = match(rhs, m_neg(m_value("b")))
        if m2 is not None:
            return BinaryOperator.create("sub", null(ty), b.create_add(a, m2.value("b")))
        sub = BinaryOperator.create("sub", rhs, a)
        sub.nsw = bool(i.nsw) and bool(getattr(lhs, "nsw", False))
        return sub
    m = match(rhs, m_neg(m_value("b")))
    if m is not None:
        return BinaryOperator.create("sub", lhs, m.value("b"))
    v = _check_for_negative_operand(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    m = match(i, m_c_binop(m_add(m_value("a"), m_one()), m_not(m_value("b"))))
    if m is None:
        m = match(i, m_add(m_c_add(m_not(m_value("b")), m_value("a")), m_one()))
    if m is not None:
        return BinaryOperator.create("sub", m.value("a"), m.value("b"))
    m = match(lhs, m_one_use(m_c_add(m_value("a"), m_specific(rhs))))
    if m is not None:
        return BinaryOperator.create("add", m.value("a"), b.create_shl(rhs, const_int(ty, 1), "reass.add"))
    m = match(rhs, m_one_use(m_c_add(m_value("a"), m_specific(lhs))))
    if m is not None:
        return BinaryOperator.create("add", m.value("a"), b.create_shl(lhs, const_int(ty, 1), "reass.add"))
    m = match(i, m_c_add(m_add(m_value("a"), m_imm_constant("c1")), m_sub(m_imm_constant("c2"), m_value("b"))))
    if m is not None and (lhs.has_one_use or rhs.has_one_use):
        sub_v = b.create_sub(m.value("a"), m.value("b"))
        return BinaryOperator.create("add", sub_v, ConstantExpr.get_add(m.constant("c1"), m.constant("c2")))
    m = match(i, m_c_add(m_one_use(m_sub(m_imm_constant("c1"), m_value("a"))), m_value("b")))
    if m is not None:
        sub_v = b.create_sub(m.value("b"), m.value("a"), "reass.sub")
        return BinaryOperator.create("add", sub_v, m.constant("c1"))
    v = _simplify_add_with_remainder(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    w = scalar_bits(ty)
    mask = (1 << w) - 1
    m = match(lhs, m_shl(m_sdiv(m_specific(rhs), m_apint("c1")), m_apint("c2")))
    if m is not None:
        c2 = m.apint("c2")
        minus_c1 = -m.apint("c1") & mask
        if c2 < w and minus_c1 == (1 << c2) & mask:
            return BinaryOperator.create("srem", rhs, const_int(ty, minus_c1))
    m = match(i, m_c_add(m_and(m_value("a"), m_apint("c1")), m_deferred("a")))
    if m is not None:
        c1 = m.apint("c1")
        if c1 != 0 and c1 & (c1 - 1) == 0 and ic.compute_num_sign_bits(m.value("a"), 0, i) > w - c1.bit_length():
            return BinaryOperator.create("and", m.value("a"), const_int(ty, c1 - 1))
    for p, q in ((rhs, lhs), (lhs, rhs)):
        m = match(p, m_zext(m_value("a")))
        if m is not None:
            m2 = match(q, m_zext(m_nuw_sub(m_value("b"), m_specific(m.value("a")))))
            if m2 is not None:
                return CastInst.create("zext", m2.value("b"), lhs.type)
    m = match(i, m_c_binop(m_zext(m_value("a")), m_sext(m_deferred("a"))))
    if m is not None and is_bool_ty(m.value("a").type):
        return ic.replace_inst_uses_with(i, null(ty))
    if have_no_common_bits_set(lhs, rhs, ic.query(i)):
        return BinaryOperator.create("or", lhs, rhs, disjoint=True)
    r = narrow_math_if_no_overflow(ic, i)
    if r is not None:
        return r
    m = match(i, m_c_binop(m_xor(m_value("a"), m_value("b")), m_c_and(m_deferred("a"), m_deferred("b"))))
    if m is not None:
        return BinaryOperator.create("or", m.value("a"), m.value("b"))
    m = match(i, m_c_binop(m_or(m_value("a"), m_value("b")), m_c_and(m_deferred("a"), m_deferred("b"))))
    if m is not None:
        ic.replace_operand(i, 0, m.value("a"))
        ic.replace_operand(i, 1, m.value("b"))
        return i
    m = match(i, m_c_binop(m_value("a"), m_one_use(m_c_or(m_neg(m_deferred("a")), m_deferred("a")))))
    if m is not None:
        a = m.value("a")
        add_v = b.create_add(a, all_ones(a.type), "", nuw=bool(i.nuw), nsw=bool(i.nsw))
        return BinaryOperator.create("and", add_v, a)
    m = match(i, m_add(m_one_use(m_c_and(m_value("a"), m_one_use(m_neg(m_deferred("a"))))), m_all_ones()))
    if m is not None:
        a = m.value("a")
        ones = all_ones(rhs.type)
        dec = b.create_add(a, ones)
        not_v = b.create_xor(a, ones)
        return BinaryOperator.create("and", dec, not_v)
    m = match(i, m_c_add(m_one_use(m_not(m_one_use(m_mul(m_value("a"), m_apint("c1"))))), m_deferred("a")))
    if m is not None:
        new_mul = b.create_mul(m.value("a"), const_int(ty, (1 - m.apint("c1")) & mask))
        return BinaryOperator.create("add", new_mul, all_ones(ty))
    m = match(i, m_c_add(m_one_use(m_mul(m_value("a"), _M_NEG_POW2("np"))), m_value("b")))
    if m is not None:
        np_c = match(m.value("np"), m_apint("v"))
        if np_c is not None:
            v2 = np_c.apint("v")
            shl_v = b.create_shl(m.value("a"), const_int(ty, (v2 & -v2).bit_length() - 1))
            return BinaryOperator.create("sub", m.value("b"), shl_v)
    m = match(lhs, m_ashr(m_value("a"), m_apint("sh", allow_poison=True)))
    if m is not None and m.apint("sh") == w - 1:
        m2 = match(rhs, m_one_use(m_zext(m_one_use(m_icmp("p", m_specific(m.value("a")), m_zero_int())))))
        if m2 is not None and m2.predicate("p") == Predicate.ICMP_SGT:
            not_zero = b.create_is_not_null(m.value("a"), "isnotnull")
            zext = b.create_zext(not_zero, ty, "isnotnull.zext")
            return BinaryOperator.create("or", lhs, zext)
    for a, ext in ((lhs, rhs), (rhs, lhs)):
        eop = getattr(ext, "opcode", None)
        if eop != "zext" and eop != "sext":
            continue
        cond = ext.operands[0]  # type: ignore[attr-defined]
        m = match(cond, m_icmp("p", m_specific(a), m_imm_constant("c")))
        if m is None:
            continue
        # m_c_Add matched here: the predicate and the one-use test decide, no other order is tried
        if m.predicate("p") == Predicate.ICMP_EQ and ext.has_one_use:
            c = m.constant("c")
            addc = _add_one(c) if eop == "zext" else _sub_one(c)
            return ic.replace_inst_uses_with(i, b.create_select(cond, addc, a))
        break
    r = _fold_add_to_ashr(i)
    if r is not None:
        return r
    cl: list[bool] = []
    cr: list[bool] = []
    if cm.is_free_to_invert(ic, lhs, lhs.has_one_use, cl) and cl[0] and cm.is_free_to_invert(
        ic, rhs, rhs.has_one_use, cr
    ) and cr[0]:
        not_lhs = cm.get_freely_inverted(ic, lhs, lhs.has_one_use, b)
        not_rhs = cm.get_freely_inverted(ic, rhs, rhs.has_one_use, b)
        if not_lhs is not None and not_rhs is not None:
            s = b.create_add(not_lhs, not_rhs)
            return BinaryOperator.create("sub", const_int(rhs.type, -2), s)
    r = cm.try_fold_inst_with_ctpop_with_not(ic, i)
    if r is not None:
        return r
    changed = False
    if not i.nsw and will_not_overflow(ic, "add", lhs, rhs, i, True):
        changed = True
        i.nsw = True
    if not i.nuw and will_not_overflow(ic, "add", lhs, rhs, i, False):
        changed = True
        i.nuw = True
    r = _canonicalize_lowbit_mask(ic, i)
    if r is not None:
        return r
    r = canonicalize_cond_signext_of_high_bit_extract(ic, i)
    if r is not None:
        return r
    r = _fold_to_unsigned_saturated_add(ic, i)
    if r is not None:
        return r
    m = match(i, m_c_binop(m_one_use(m_intrinsic("usub.sat", m_value("a"), m_value("b"))), m_deferred("b")))
    if m is not None:
        return ic.replace_inst_uses_with(i, b.create_intrinsic("umax", [ty], [m.value("a"), m.value("b")]))
    m1 = match(lhs, m_one_use(m_intrinsic("ctpop", m_value("a"))))
    m2 = match(rhs, m_one_use(m_intrinsic("ctpop", m_value("b")))) if m1 is not None else None
    if m1 is not None and m2 is not None and have_no_common_bits_set(m1.value("a"), m2.value("b"), ic.query(i)):
        return ic.replace_inst_uses_with(
            i, b.create_intrinsic("ctpop", [ty], [b.create_or(m1.value("a"), m2.value("b"))])
        )
    r = _fold_log2_ceil(ic, i)
    if r is not None:
        return r
    r = _fold_square_sum_int(ic, i)
    if r is not None:
        return r
    r = _call_if_present("and_or_xor", "fold_bin_op_of_displaced_shifts", ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_of_select_and_cast_of_select_condition(ic, i)
    if r is not None:
        return r
    return i if changed else None


def _is_neg_pow2(c: Constant) -> bool:
    assert isinstance(c, ConstantInt)
    n = -c.value & c.type.mask
    return n != 0 and n & (n - 1) == 0


def _M_NEG_POW2(name: str | None = None) -> Pattern:
    """A negated power of two (LLVM ``m_NegatedPower2``): ``-C`` is a power of two."""
    return m_cst_pred(_is_neg_pow2, name)


def _fold_log2_ceil(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``zext(ctpop(A) >u 1) + (ctlz(A, true) ^ (BW - 1)) -> BW - ctlz(A - 1, false)``."""
    p = m_c_add(
        m_zext(m_icmp("p", m_intrinsic("ctpop", m_value("a")), m_one())),
        m_one_use(
            m_zext_or_self(
                m_one_use(
                    m_xor(
                        m_one_use(m_trunc_or_self(m_one_use(m_intrinsic("ctlz", m_deferred("a"), m_one())))),
                        m_apint("xc"),
                    )
                )
            )
        ),
    )
    m = match(i, p)
    if m is None:
        return None
    pred = m.predicate("p")
    a = m.value("a")
    if pred not in (Predicate.ICMP_UGT, Predicate.ICMP_NE) or m.apint("xc") != scalar_bits(a.type) - 1:
        return None
    b = ic.builder
    sub = b.create_add(a, all_ones(a.type))
    ctlz = b.create_intrinsic("ctlz", [a.type], [sub, ConstantInt.get_false(a.type)])
    ret = b.create_sub(const_int(a.type, scalar_bits(a.type)), ctlz, "", nuw=True, nsw=True)
    return ic.replace_inst_uses_with(i, b.create_zext_or_trunc(ret, i.type))


# --- sub ------------------------------------------------------------------------------------------


def _fold_sub_of_min_max(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``sub(add(X, Y), min(X, Y)) -> max(X, Y)`` and relatives (LLVM ``foldSubOfMinMax``)."""
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    base = getattr(op1, "intrinsic_base", "") if getattr(op1, "opcode", None) == "call" else ""
    if base not in ("llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin"):
        return None
    x, y = op1.operands[0], op1.operands[1]  # type: ignore[attr-defined]
    inv = {"llvm.smax": "smin", "llvm.smin": "smax", "llvm.umax": "umin", "llvm.umin": "umax"}[base]
    if match(op0, m_c_add(m_specific(x), m_specific(y))) is not None and (op0.has_one_use or op1.has_one_use):
        return new_intrinsic_call(ic, inv, [ty], [x, y])
    m = match(op1, m_one_use(m_umin(m_value("y"), m_value("z"))))
    if m is not None:
        yy, z = m.value("y"), m.value("z")
        m2 = match(op0, m_one_use(m_c_add(m_specific(yy), m_value("x"))))
        if m2 is not None:
            usub = ic.builder.create_intrinsic("usub.sat", [ty], [yy, z])
            return BinaryOperator.create("add", m2.value("x"), usub)
        m2 = match(op0, m_one_use(m_c_add(m_specific(z), m_value("x"))))
        if m2 is not None:
            usub = ic.builder.create_intrinsic("usub.sat", [ty], [z, yy])
            return BinaryOperator.create("add", m2.value("x"), usub)
    if base in ("llvm.smax", "llvm.smin") and match(y, m_zero_int()) is not None:
        m = match(x, m_nsw_sub(m_specific(op0), m_value("z")))
        if m is not None:
            return new_intrinsic_call(ic, inv, [ty], [op0, m.value("z")])
    return None


def _is_negation_select_user(i: Instruction, op1: Value) -> bool:
    for u in i.users:
        if getattr(u, "opcode", None) != "select":
            continue
        ops = u.operands
        if (ops[1] is op1 and ops[2] is i) or (ops[1] is i and ops[2] is op1):
            return True
    return False


def _try_to_narrow_deduce_flags(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    r = narrow_math_if_no_overflow(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    changed = False
    if not i.nsw and will_not_overflow(ic, "sub", op0, op1, i, True):
        changed = True
        i.nsw = True
    if not i.nuw and will_not_overflow(ic, "sub", op0, op1, i, False):
        changed = True
        i.nuw = True
    return i if changed else None


def visit_sub(ic: InstCombiner, i: Instruction) -> Instruction | None:  # noqa: C901 - LLVM's order
    """Fold a ``sub`` (LLVM ``InstCombinerImpl::visitSub``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_sub_inst(i.operands[0], i.operands[1], bool(i.nsw), bool(i.nuw), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    b = ic.builder
    v = cm.dyn_cast_neg_val(op1)
    if v is not None:
        res = BinaryOperator.create("add", op0, v)
        if isinstance(op1, BinaryOperator):
            if op1.nsw and i.nsw:
                res.nsw = True
        elif isinstance(op1, Constant) and _not_min_signed(op1) and i.nsw:
            res.nsw = True
        return res
    r = _factorize_math_with_shl_ops(ic, i)
    if r is not None:
        return r
    if match(op0, m_imm_constant()) is not None:
        assert isinstance(op0, Constant)
        m = match(op1, m_add(m_value("x"), m_imm_constant("c2")))
        if m is not None:
            c2 = m.constant("c2")
            will_not_sov = will_not_overflow(ic, "sub", op0, c2, i, True)
            res = BinaryOperator.create("sub", ConstantExpr.get_sub(op0, c2), m.value("x"))
            res.nsw = bool(i.nsw and op1.nsw and will_not_sov)  # type: ignore[attr-defined]
            res.nuw = bool(i.nuw and op1.nuw)  # type: ignore[attr-defined]
            return res
    is_negation = match(op0, m_zero_int()) is not None
    if not is_negation or not _is_negation_select_user(i, op1):
        neg = negate(ic, op1, is_negation and bool(i.nsw), is_negation)
        if neg is not None:
            return BinaryOperator.create("add", neg, op0)
    if is_negation:
        return _try_to_narrow_deduce_flags(ic, i)
    v = cm.fold_using_distributive_laws(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if is_bool_ty(ty):
        return BinaryOperator.create("xor", op0, op1)
    if match(op0, m_all_ones()) is not None:
        return BinaryOperator.create("xor", op1, all_ones(ty))
    m = match(op0, m_one_use(m_add(m_value("x"), m_all_ones())))
    if m is not None:
        return BinaryOperator.create("add", b.create_not(op1), m.value("x"))
    m = match(op0, m_one_use(m_c_add(m_one_use(m_sub(m_value("x"), m_value("y"))), m_value("z"))))
    if m is not None:
        xz = b.create_add(m.value("x"), m.value("z"))
        yw = b.create_add(m.value("y"), op1)
        return BinaryOperator.create("sub", xz, yw)
    m = match(op0, m_one_use(m_sub(m_value("x"), m_value("y"))))
    if m is not None:
        has_nuw = bool(i.nuw and op0.nuw)  # type: ignore[attr-defined]
        has_nsw = bool(has_nuw and i.nsw and op0.nsw)  # type: ignore[attr-defined]
        add_v = b.create_add(m.value("y"), op1, "", nuw=has_nuw, nsw=has_nsw)
        sub = BinaryOperator.create("sub", m.value("x"), add_v)
        sub.nuw = has_nuw
        sub.nsw = has_nsw
        return sub
    m = match(op0, m_add(m_value("x"), m_value("z")))
    if m is not None and match(op1, m_c_add(m_value("y"), m_specific(m.value("z")))) is not None:
        m2 = match(op1, m_c_add(m_value("y"), m_specific(m.value("z"))))
        assert m2 is not None
        return BinaryOperator.create("sub", m.value("x"), m2.value("y"))
    m = match(op0, m_one_use(m_add(m_value("x"), m_imm_constant("cx"))))
    m2 = match(op1, m_one_use(m_add(m_value("y"), m_imm_constant("cy")))) if m is not None else None
    if m is not None and m2 is not None:
        ops_sub = b.create_sub(m.value("x"), m2.value("y"))
        return BinaryOperator.create("add", ops_sub, ConstantExpr.get_sub(m.constant("cx"), m2.constant("cy")))
    k0: list[bool] = []
    k1: list[bool] = []
    if cm.is_free_to_invert(ic, op0, op0.has_one_use, k0):
        if cm.is_free_to_invert(ic, op1, op1.has_one_use, k1) and (k0[0] or k1[0]):
            not0 = cm.get_freely_inverted(ic, op0, op0.has_one_use, b)
            not1 = cm.get_freely_inverted(ic, op1, op1.has_one_use, b)
            if not0 is not None and not1 is not None:
                return BinaryOperator.create("sub", not1, not0)
    rdx = m_one_use(m_intrinsic("vector.reduce.add", m_value("v")))
    m = match(op0, rdx)
    m2 = match(op1, rdx) if m is not None else None
    if m is not None and m2 is not None and m.value("v").type is m2.value("v").type:
        s = b.create_sub(m.value("v"), m2.value("v"))
        return ic.replace_inst_uses_with(i, b.create_intrinsic("vector.reduce.add", [s.type], [s], return_type=ty))
    if isinstance(op0, Constant):
        o1 = getattr(op1, "opcode", None)
        if o1 == "zext" and is_bool_ty(op1.operands[0].type):  # type: ignore[attr-defined]
            return SelectInst(op1.operands[0], _sub_one(op0), op0)  # type: ignore[attr-defined]
        if o1 == "sext" and is_bool_ty(op1.operands[0].type):  # type: ignore[attr-defined]
            return SelectInst(op1.operands[0], _add_one(op0), op0)  # type: ignore[attr-defined]
        m = match(op1, _P_NOT_X)
        if m is not None:
            return BinaryOperator.create("add", m.value("x"), _add_one(op0))
        if isinstance(op1, SelectInst):
            r = cm.fold_op_into_select(ic, i, op1)
            if r is not None:
                return r
        from llvmpy_mid.ir.instructions.other import PHINode

        if isinstance(op1, PHINode):
            r = cm.fold_op_into_phi(ic, i, op1)
            if r is not None:
                return r
        m = match(op1, m_sub(m_imm_constant("c2"), m_value("x")))
        if m is not None:
            return BinaryOperator.create("add", m.value("x"), ConstantExpr.get_sub(op0, m.constant("c2")))
    w = scalar_bits(ty)
    mask = (1 << w) - 1
    m = match(op0, m_apint("c"))
    if m is not None:
        op0c = m.apint("c")
        if op0c != 0 and op0c & (op0c + 1) == 0:
            known = _known_bits_without_dom_cond(ic, op1, i)
            if (op0c | known.zero) & mask == mask:
                return BinaryOperator.create("xor", op1, op0)
        m2 = match(op1, m_one_use(m_and(m_value("inner"), m_apint("c2"))))
        if m2 is not None:
            inner = m2.value("inner")
            m3 = match(inner, m_sub(m_apint("c3"), m_value("x")))
            c2i = m2.apint("c2")
            neg_pow2 = c2i != 0 and (-c2i & mask) & ((-c2i & mask) - 1) == 0
            if m3 is not None and isinstance(inner, BinaryOperator) and (inner.nuw or neg_pow2):
                c3 = m3.apint("c3")
                c2c3 = c2i & c3
                c2c3m1 = (c2c3 - 1) & mask
                c2ac3 = (c2i + c3) & mask
                t = (c3 - c2c3m1) & mask
                if t != 0 and t & (t - 1) == 0 and c2c3m1 & ~c2ac3 == 0:
                    and_v = b.create_and(m3.value("x"), const_int(ty, c2i))
                    return BinaryOperator.create("add", and_v, const_int(ty, (op0c - c2c3) & mask))
    m = match(op1, m_c_add(m_specific(op0), m_value("y")))
    if m is not None:
        return BinaryOperator.create("sub", null(ty), m.value("y"))
    m = match(op0, m_sub(m_specific(op1), m_value("y")))
    if m is not None:
        return BinaryOperator.create("sub", null(ty), m.value("y"))
    m = match(op1, m_and(m_value("a"), m_value("b")))
    if m is not None and match(op0, m_c_or(m_specific(m.value("a")), m_specific(m.value("b")))) is not None:
        return BinaryOperator.create("xor", m.value("a"), m.value("b"))
    m = match(op0, m_add(m_value("a"), m_value("b")))
    if m is not None and match(op1, m_c_or(m_specific(m.value("a")), m_specific(m.value("b")))) is not None:
        return BinaryOperator.create("and", m.value("a"), m.value("b"))
    if m is not None and match(op1, m_c_and(m_specific(m.value("a")), m_specific(m.value("b")))) is not None:
        return BinaryOperator.create("or", m.value("a"), m.value("b"))
    m = match(op0, m_and(m_value("a"), m_value("b")))
    if (
        m is not None
        and match(op1, m_c_or(m_specific(m.value("a")), m_specific(m.value("b")))) is not None
        and (op0.has_one_use or op1.has_one_use)
    ):
        return BinaryOperator.create("sub", null(ty), b.create_xor(m.value("a"), m.value("b")))
    m = match(op1, m_xor(m_value("a"), m_value("b")))
    if m is not None and match(op0, m_c_or(m_specific(m.value("a")), m_specific(m.value("b")))) is not None:
        return BinaryOperator.create("and", m.value("a"), m.value("b"))
    m = match(op0, m_xor(m_value("a"), m_value("b")))
    if (
        m is not None
        and match(op1, m_c_or(m_specific(m.value("a")), m_specific(m.value("b")))) is not None
        and (op0.has_one_use or op1.has_one_use)
    ):
        return BinaryOperator.create("sub", null(ty), b.create_and(m.value("a"), m.value("b")))
    m = match(op0, m_one_use(m_c_or(m_value("y"), m_specific(op1))))
    if m is not None:
        return BinaryOperator.create("and", m.value("y"), b.create_not(op1, op1.name + ".not"))
    m = match(op0, m_one_use(m_c_and(m_specific(op1), m_one_use(m_neg(m_value("x"))))))
    if m is not None:
        return BinaryOperator.create(
            "sub", null(ty), b.create_and(op1, b.create_add(m.value("x"), all_ones(ty)))
        )
    m = match(op0, m_one_use(m_and(m_specific(op1), m_constant("c"))))
    if m is not None:
        c = m.constant("c")
        return BinaryOperator.create("sub", null(ty), b.create_and(op1, b.create_not(c)))
    for lhs_, rhs_, first in ((op0, op1, True), (op1, op0, False)):
        m = match(lhs_, m_one_use(m_c_xor(m_value("x"), m_specific(rhs_))))
        if m is not None and getattr(rhs_, "opcode", None) == "sext" and scalar_bits(rhs_.operands[0].type) == 1:  # type: ignore[attr-defined]
            cond = rhs_.operands[0]  # type: ignore[attr-defined]
            x = m.value("x")
            if first:
                return SelectInst(cond, b.create_neg(x), x)
            return SelectInst(cond, x, b.create_neg(x))
    r = cm.try_fold_inst_with_ctpop_with_not(ic, i)
    if r is not None:
        return r
    r = _fold_sub_of_min_max(ic, i)
    if r is not None:
        return r
    r = _sink_sub_into_select(ic, i, op0, op1, True)
    if r is not None:
        return r
    r = _sink_sub_into_select(ic, i, op1, op0, False)
    if r is not None:
        return r
    m = match(op1, m_c_and(m_specific(op0), m_value("y")))
    if m is not None and (op1.has_one_use or isinstance(m.value("y"), Constant)):
        y = m.value("y")
        return BinaryOperator.create("and", op0, b.create_not(y, y.name + ".not"))
    m = match(op0, _P_NOT_X)
    if m is not None:
        m2 = match(op1, m_c_max_or_min(m_specific(op0), m_value("y")))
        if m2 is not None and not op0.has_n_uses_or_more(3) and cm.is_free_to_invert(ic, m2.value("y"), m2.value("y").has_one_use):
            not_v = b.create_not(op1)
            return BinaryOperator.create("sub", not_v, m.value("x"))
    m = match(op1, _P_NOT_X)
    if m is not None:
        m2 = match(op0, m_c_max_or_min(m_specific(op1), m_value("y")))
        if m2 is not None and not op1.has_n_uses_or_more(3) and cm.is_free_to_invert(ic, m2.value("y"), m2.value("y").has_one_use):
            not_v = b.create_not(op0)
            return BinaryOperator.create("sub", m.value("x"), not_v)
    m = match(op0, m_ptrtoint(m_value("l")))
    m2 = match(op1, m_ptrtoint(m_value("r"))) if m is not None else None
    if m is not None and m2 is not None:
        v = optimize_pointer_difference(ic, m.value("l"), m2.value("r"), ty, bool(i.nuw))
        if v is not None:
            return ic.replace_inst_uses_with(i, v)
    m = match(op0, m_trunc(m_ptrtoint(m_value("l"))))
    m2 = match(op1, m_trunc(m_ptrtoint(m_value("r")))) if m is not None else None
    if m is not None and m2 is not None:
        v = optimize_pointer_difference(ic, m.value("l"), m2.value("r"), ty, False)
        if v is not None:
            return ic.replace_inst_uses_with(i, v)
    m = match(op1, m_ashr(m_value("a"), m_apint("sh")))
    if m is not None and op1.has_n_uses(2) and m.apint("sh") == w - 1:
        a = m.value("a")
        if match(op0, m_one_use(m_c_xor(m_specific(a), m_specific(op1)))) is not None:
            is_neg = b.create_is_neg(a)
            neg_a = null(a.type) if i.nuw else b.create_neg(a, "", nsw=bool(i.nsw))
            return SelectInst(is_neg, neg_a, a)
    m = match(op0, m_add(m_value("x"), m_apint("addc")))
    if m is not None:
        m2 = match(op1, m_and(m_specific(m.value("x")), m_apint("andc")))
        if m2 is not None:
            addc = m.apint("addc")
            cttz = (addc & -addc).bit_length() - 1 if addc else w
            high = mask ^ ((1 << cttz) - 1)
            if high & m2.apint("andc") == 0:
                return BinaryOperator.create("and", op0, const_int(ty, ~m2.apint("andc") & mask))
    r = canonicalize_cond_signext_of_high_bit_extract(ic, i)
    if r is not None:
        return r
    m = match(op1, m_one_use(m_intrinsic("usub.sat", m_specific(op0), m_value("y"))))
    if m is not None:
        return ic.replace_inst_uses_with(i, b.create_intrinsic("umin", [ty], [op0, m.value("y")]))
    m = match(op0, m_one_use(m_c_umax(m_value("x"), m_specific(op1))))
    if m is not None:
        return ic.replace_inst_uses_with(i, b.create_intrinsic("usub.sat", [ty], [m.value("x"), op1]))
    m = match(op1, m_one_use(m_c_umin(m_value("x"), m_specific(op0))))
    if m is not None:
        return ic.replace_inst_uses_with(i, b.create_intrinsic("usub.sat", [ty], [op0, m.value("x")]))
    m = match(op1, m_one_use(m_c_umax(m_value("x"), m_specific(op0))))
    if m is not None:
        usub = b.create_intrinsic("usub.sat", [ty], [m.value("x"), op0])
        return BinaryOperator.create("sub", null(ty), usub)
    m = match(op0, m_one_use(m_c_umin(m_value("x"), m_specific(op1))))
    if m is not None:
        usub = b.create_intrinsic("usub.sat", [ty], [op1, m.value("x")])
        return BinaryOperator.create("sub", null(ty), usub)
    if match(op0, m_specific_int(w)) is not None:
        m = match(op1, m_one_use(m_intrinsic("ctpop", m_value("x"))))
        if m is not None:
            return ic.replace_inst_uses_with(i, b.create_intrinsic("ctpop", [ty], [b.create_not(m.value("x"))]))
    m = match(op0, m_one_use(m_mul(m_value("x"), m_deferred("x"))))
    m2 = match(op1, m_one_use(m_mul(m_value("y"), m_deferred("y")))) if m is not None else None
    if m is not None and m2 is not None:
        pnsw = bool(i.nsw and op0.nsw and op1.nsw) and w > 2  # type: ignore[attr-defined]
        pnuw = bool(i.nuw and op0.nuw and op1.nuw) and w > 1  # type: ignore[attr-defined]
        x, y = m.value("x"), m2.value("y")
        add_v = b.create_add(x, y, "add", nuw=pnuw, nsw=pnsw)
        sub_v = b.create_sub(x, y, "sub", nuw=pnuw, nsw=pnsw)
        mul = b.create_mul(add_v, sub_v, "", nuw=pnuw, nsw=pnsw)
        return ic.replace_inst_uses_with(i, mul)
    m = match(op0, m_one_use(m_c_smax(m_value("x"), m_value("y"))))
    if m is not None and match(op1, m_one_use(m_c_smin(m_specific(m.value("x")), m_specific(m.value("y"))))) is not None:
        if i.nuw or i.nsw:
            s = b.create_sub(m.value("x"), m.value("y"), "sub", nsw=True)
            call = b.create_binary_intrinsic("abs", s, ConstantInt.get_true(s.type))
            return ic.replace_inst_uses_with(i, call)
    r = cm.fold_binop_of_select_and_cast_of_select_condition(ic, i)
    if r is not None:
        return r
    return _try_to_narrow_deduce_flags(ic, i)


def optimize_pointer_difference(ic: InstCombiner, lhs: Value, rhs: Value, ty: Type, is_nuw: bool) -> Value | None:
    """``&A[i] - &A[j]`` as the difference of the GEP offsets (LLVM ``OptimizePointerDifference``)."""
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
    from llvmpy_mid.transform.instcombine.gep import gep_flags, ic_emit_gep_offset

    def is_gep(v: Value) -> bool:
        return getattr(v, "opcode", None) == "getelementptr"

    swapped = False
    if not is_gep(lhs) and is_gep(rhs):
        lhs, rhs = rhs, lhs
        swapped = True
    gep1: Value | None = None
    gep2: Value | None = None
    if is_gep(lhs):
        base1 = strip_pointer_casts(lhs.operands[0])  # type: ignore[attr-defined]
        if base1 is strip_pointer_casts(rhs):
            gep1 = lhs
        elif is_gep(rhs) and base1 is strip_pointer_casts(rhs.operands[0]):  # type: ignore[attr-defined]
            gep1, gep2 = lhs, rhs
    if gep1 is None:
        return None
    rewrite = gep2 is not None
    gep1_inbounds = bool(gep_flags(gep1) & 1)
    result = ic_emit_gep_offset(ic, gep1, rewrite)
    if isinstance(result, Instruction) and is_nuw and gep2 is None and not swapped and gep1_inbounds and result.opcode == "mul":
        result.nuw = True  # type: ignore[attr-defined]
    b = ic.builder
    if gep2 is not None:
        gep2_inbounds = bool(gep_flags(gep2) & 1)
        offset = ic_emit_gep_offset(ic, gep2, rewrite)
        result = b.create_sub(result, offset, "gepdiff", nsw=gep1_inbounds and gep2_inbounds)
    if swapped:
        result = b.create_neg(result, "diff.neg")
    return b.create_sext_or_trunc(result, ty)


def m_c_max_or_min(l: Pattern, r: Pattern) -> Pattern:
    """``m_c_MaxOrMin``: any min/max with the operands in either order."""
    return m_combine_or(m_max_or_min(l, r), m_max_or_min(r, l))


def _known_bits_without_dom_cond(ic: InstCombiner, v: Value, cxt: Instruction) -> KnownBits:
    q = ic.query(cxt)
    wo = getattr(q, "get_without_dom_cond_cache", None)
    if wo is not None:
        q = wo()
    from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits

    return compute_known_bits(v, q)


def _sink_sub_into_select(ic: InstCombiner, i: BinaryOperator, sel: Value, other: Value, sel_is_lhs: bool) -> Instruction | None:
    """``sub (select C, Op1, F), Op1 -> select C, 0, (F - Op1)`` and the mirrored forms."""
    m = match(sel, m_one_use(m_select(m_value("c"), m_value("t"), m_value("f"))))
    if m is None:
        return None
    t, f = m.value("t"), m.value("f")
    if other is not t and other is not f:
        return None
    other_is_t = other is t
    hand = f if other_is_t else t
    b = ic.builder
    new_sub = b.create_sub(hand, other) if sel_is_lhs else b.create_sub(other, hand)
    zero = null(i.type)
    new_sel = SelectInst(m.value("c"), zero if other_is_t else new_sub, new_sub if other_is_t else zero)
    assert isinstance(sel, Instruction)
    for kind, node in sel.metadata_items():
        if kind != "dbg":
            new_sel.set_metadata(kind, node)
    return new_sel


# --- floating point -------------------------------------------------------------------------------


def _fold_const_fneg(ic: InstCombiner, c: Constant) -> Constant | None:
    from llvmpy_mid.analysis.constant_folding import constant_fold_unary_op_operand

    return constant_fold_unary_op_operand("fneg", c, ic.dl)


def _fold_fneg_into_constant(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``-(X * C) -> X * -C``, ``-(X / C) -> X / -C``, ``-(C / X) -> -C / X``, ``-(X + C) -> -C - X`` (nsz)."""
    m = match(i, m_fneg(m_one_use(m_instruction("op"))))
    if m is None:
        return None
    op = m.value("op")
    fmf = _fmf(i)
    o = op.opcode  # type: ignore[attr-defined]
    ops = op.operands  # type: ignore[attr-defined]
    if o == "fmul" and isinstance(ops[1], Constant):
        nc = _fold_const_fneg(ic, ops[1])
        if nc is not None:
            return new_fbin("fmul", ops[0], nc, fmf)
    if o == "fdiv" and isinstance(ops[1], Constant):
        nc = _fold_const_fneg(ic, ops[1])
        if nc is not None:
            return new_fbin("fdiv", ops[0], nc, fmf)
    if o == "fdiv" and isinstance(ops[0], Constant):
        nc = _fold_const_fneg(ic, ops[0])
        if nc is not None:
            fdiv = new_fbin("fdiv", nc, ops[1], fmf)
            op_fmf = _fmf(op)
            f = fmf
            nsz, ninf = int(FastMathFlags.NSZ), int(FastMathFlags.NINF)
            f = (f & ~nsz) | (nsz if fmf & nsz and op_fmf & nsz else 0)
            f = (f & ~ninf) | (ninf if fmf & ninf and op_fmf & ninf else 0)
            fdiv.fast_math_flags = f
            return fdiv
    if fmf & int(FastMathFlags.NSZ) and o == "fadd" and isinstance(ops[1], Constant):
        nc = _fold_const_fneg(ic, ops[1])
        if nc is not None:
            return new_fbin("fsub", nc, ops[0], fmf)
    return None


def _hoist_fneg_above_fmul_fdiv(ic: InstCombiner, op: Value, src: Instruction) -> Value | None:
    """``-(X * Y) -> (-X) * Y``; ``-(X / Y) -> (-X) / Y``."""
    fmf = _fmf(src)
    o = getattr(op, "opcode", None)
    if o == "fmul" or o == "fdiv":
        x, y = op.operands[0], op.operands[1]  # type: ignore[attr-defined]
        return create_fbin_fmf(ic, o, create_fneg_fmf(ic, x, fmf), y, fmf)
    if o == "call" and getattr(op, "intrinsic_base", "") == "llvm.ldexp":
        assert isinstance(op, CallInst)
        f = fmf | _fmf(op)
        b = ic.builder
        neg = b.create_fneg(op.operands[0], fast_math_flags=f)
        new = b.call(op.operands[-1], [neg, op.operands[1]], fast_math_flags=f)
        for kind, node in op.metadata_items():
            new.set_metadata(kind, node)
        return new
    return None


def visit_fneg(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold an ``fneg`` (LLVM ``InstCombinerImpl::visitFNeg``)."""
    op = i.operands[0]
    fmf = _fmf(i)
    v = simplify_fneg_inst(op, fmf, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = _fold_fneg_into_constant(ic, i)
    if r is not None:
        return r
    if fmf & int(FastMathFlags.NSZ):
        m = match(op, m_one_use(m_fsub(m_value("x"), m_value("y"))))
        if m is not None:
            return new_fbin("fsub", m.value("y"), m.value("x"), fmf)
    if not op.has_one_use:
        return None
    hv = _hoist_fneg_above_fmul_fdiv(ic, op, i)
    if hv is not None:
        return ic.replace_inst_uses_with(i, hv)
    if isinstance(op, SelectInst):
        cond, x, y = op.operands

        def propagate(s: SelectInst, common_operand: bool) -> None:
            f = fmf | int(op.fast_math_flags)
            if not (int(op.fast_math_flags) & int(FastMathFlags.NSZ)) and not common_operand:
                from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison

                if not is_guaranteed_not_to_be_undef_or_poison(op.condition):
                    f &= ~int(FastMathFlags.NSZ)
            s.fast_math_flags = f

        m = match(x, m_fneg(m_value("p")))
        if m is not None:
            p = m.value("p")
            neg_y = create_fneg_fmf(ic, y, fmf, y.name + ".neg")
            ns = SelectInst(cond, p, neg_y)
            propagate(ns, p is y)
            return ns
        m = match(y, m_fneg(m_value("p")))
        if m is not None:
            p = m.value("p")
            neg_x = create_fneg_fmf(ic, x, fmf, x.name + ".neg")
            ns = SelectInst(cond, neg_x, p)
            propagate(ns, p is x)
            return ns
        if match(x, m_imm_constant()) is not None or match(y, m_imm_constant()) is not None:
            neg_x = create_fneg_fmf(ic, x, fmf, x.name + ".neg")
            neg_y = create_fneg_fmf(ic, y, fmf, y.name + ".neg")
            ns = SelectInst(cond, neg_x, neg_y)
            propagate(ns, True)
            return ns
    m = match(op, m_intrinsic("copysign", m_value("x"), m_value("y")))
    if m is not None:
        f = fmf & _fmf(op)
        b = ic.builder
        neg_y = b.create_fneg(m.value("y"), fast_math_flags=f)
        x = m.value("x")
        ncs = b.create_intrinsic("copysign", [x.type], [x, neg_y])
        ncs.fast_math_flags = f
        return ic.replace_inst_uses_with(i, ncs)
    return None


def _factorize_lerp(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``Y * (1 - Z) + X * Z -> Y + Z * (X - Y)``."""
    fp_one = m_cst_pred(lambda c: isinstance(c, ConstantFP) and c.value == 1.0, int_only=False)
    m = match(
        i,
        m_c_fadd(
            m_one_use(m_c_fmul(m_value("y"), m_one_use(m_fsub(fp_one, m_value("z"))))),
            m_one_use(m_c_fmul(m_value("x"), m_deferred("z"))),
        ),
    )
    if m is None:
        return None
    fmf = _fmf(i)
    xy = create_fbin_fmf(ic, "fsub", m.value("x"), m.value("y"), fmf)
    mulz = create_fbin_fmf(ic, "fmul", m.value("z"), xy, fmf)
    return new_fbin("fadd", m.value("y"), mulz, fmf)


def _factorize_fadd_fsub(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``(X * Z) +/- (Y * Z) -> (X +/- Y) * Z``; ``(X / Z) +/- (Y / Z) -> (X +/- Y) / Z``."""
    r = _factorize_lerp(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    if not op0.has_one_use or not op1.has_one_use:
        return None
    o0, o1 = getattr(op0, "opcode", None), getattr(op1, "opcode", None)
    x = y = z = None
    is_fmul = False
    if o0 == "fmul" and o1 == "fmul":
        a, bb = op0.operands  # type: ignore[attr-defined]
        for xx, zz in ((a, bb), (bb, a)):
            c, d = op1.operands  # type: ignore[attr-defined]
            if d is zz:
                x, y, z = xx, c, zz
                break
            if c is zz:
                x, y, z = xx, d, zz
                break
        is_fmul = True
    elif o0 == "fdiv" and o1 == "fdiv" and op1.operands[1] is op0.operands[1]:  # type: ignore[attr-defined]
        x, z, y = op0.operands[0], op0.operands[1], op1.operands[0]  # type: ignore[attr-defined]
    if x is None or y is None or z is None:
        return None
    fmf = _fmf(i)
    xy = create_fbin_fmf(ic, i.opcode, x, y, fmf)
    if isinstance(xy, ConstantFP) and not _is_normal_fp(xy):
        return None
    return new_fbin("fmul" if is_fmul else "fdiv", xy, z, fmf)


def _is_normal_fp(c: ConstantFP) -> bool:
    import math

    v = c.value
    if v == 0 or math.isinf(v) or math.isnan(v):
        return False
    from llvmpy_mid.analysis.constant_folding import flush_fp_constant  # noqa: F401 - same module family

    # denormal check by the type's smallest normal
    kind = str(c.type)
    tiny = {"half": 6.103515625e-05, "bfloat": 1.1754943508222875e-38, "float": 1.1754943508222875e-38,
            "double": 2.2250738585072014e-308}.get(kind, 0.0)
    return abs(v) >= tiny


def _apfloat(v: Value) -> ConstantFP | None:
    """``m_APFloat``: a ConstantFP or a splat of one."""
    from llvmpy_mid.ir.constants import get_splat_value

    if isinstance(v, ConstantFP):
        return v
    if isinstance(v, Constant):
        s = get_splat_value(v)
        if isinstance(s, ConstantFP):
            return s
    return None


def _fp_two(c: Constant) -> bool:
    return isinstance(c, ConstantFP) and c.value == 2.0


_P_SQ_FP1 = m_c_fadd(
    m_one_use(m_fmul(m_value("a"), m_deferred("a"))),
    m_one_use(
        m_c_fmul(
            m_c_fadd(m_fmul(m_deferred("a"), m_cst_pred(_fp_two, int_only=False)), m_value("b")), m_deferred("b")
        )
    ),
)
_P_SQ_FP2 = m_c_fadd(
    m_combine_or(
        m_one_use(m_fmul(m_fmul(m_value("a"), m_value("b")), m_cst_pred(_fp_two, int_only=False))),
        m_one_use(m_c_fmul(m_fmul(m_value("a"), m_cst_pred(_fp_two, int_only=False)), m_value("b"))),
    ),
    m_one_use(m_c_fadd(m_fmul(m_deferred("a"), m_deferred("a")), m_fmul(m_deferred("b"), m_deferred("b")))),
)


def _fold_square_sum_fp(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``a*a + 2*a*b + b*b -> (a + b) * (a + b)`` (reassoc nsz)."""
    m = match(i, _P_SQ_FP1) or match(i, _P_SQ_FP2)
    if m is None:
        return None
    fmf = _fmf(i)
    ab = create_fbin_fmf(ic, "fadd", m.value("a"), m.value("b"), fmf)
    return new_fbin("fmul", ab, ab, fmf)


def visit_fadd(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold an ``fadd`` (LLVM ``InstCombinerImpl::visitFAdd``; no ``FAddCombine`` yet)."""
    assert isinstance(i, BinaryOperator)
    fmf = _fmf(i)
    v = simplify_fadd_inst(i.operands[0], i.operands[1], fmf, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if cm.simplify_associative_or_commutative(ic, i):
        return i
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_into_select_or_phi(ic, i)
    if r is not None:
        return r
    m = match(i, m_c_fadd(m_fneg(m_value("x")), m_value("y")))
    if m is not None:
        return new_fbin("fsub", m.value("y"), m.value("x"), fmf)
    m = match(i, m_c_fadd(m_one_use(m_c_fmul(m_fneg(m_value("x")), m_value("y"))), m_value("z")))
    if m is not None:
        xy = create_fbin_fmf(ic, "fmul", m.value("x"), m.value("y"), fmf)
        return new_fbin("fsub", m.value("z"), xy, fmf)
    m = match(i, m_c_fadd(m_one_use(m_fdiv(m_fneg(m_value("x")), m_value("y"))), m_value("z")))
    if m is None:
        m = match(i, m_c_fadd(m_one_use(m_fdiv(m_value("x"), m_fneg(m_value("y")))), m_value("z")))
    if m is not None:
        xy = create_fbin_fmf(ic, "fdiv", m.value("x"), m.value("y"), fmf)
        return new_fbin("fsub", m.value("z"), xy, fmf)
    r = _call_if_present("common", "fold_fbinop_of_int_casts", ic, i)
    if r is not None:
        return r
    lhs, rhs = i.operands[0], i.operands[1]
    v = cm.simplify_selects_feeding_binary_op(ic, i, lhs, rhs)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    reassoc_nsz = int(FastMathFlags.REASSOC | FastMathFlags.NSZ)
    if fmf & reassoc_nsz == reassoc_nsz:
        r = _factorize_fadd_fsub(ic, i)
        if r is not None:
            return r
        r = _fold_square_sum_fp(ic, i)
        if r is not None:
            return r
        from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands
        from llvmpy_mid.ir.pattern_match import m_any_zero_fp, m_fadd

        b = ic.builder
        m = match(
            i, m_c_fadd(m_one_use(m_intrinsic("vector.reduce.fadd", m_any_zero_fp(), m_value("x"))), m_value("y"))
        )
        if m is not None:
            x = m.value("x")
            rdx = b.create_intrinsic("vector.reduce.fadd", [x.type], [m.value("y"), x], return_type=i.type, fmf_source=i)
            return ic.replace_inst_uses_with(i, rdx)
        m = match(lhs, m_one_use(m_intrinsic("vector.reduce.fadd", m_value("start"), m_value("x"))))
        if m is not None and _apfloat(m.value("start")) is not None and _apfloat(rhs) is not None:
            sc, c = _apfloat(m.value("start")), _apfloat(rhs)
            assert sc is not None and c is not None
            new_start = constant_fold_binary_op_operands("fadd", c, sc, ic.dl)
            if new_start is not None:
                x = m.value("x")
                rdx = b.create_intrinsic("vector.reduce.fadd", [x.type], [new_start, x], return_type=i.type, fmf_source=i)
                return ic.replace_inst_uses_with(i, rdx)
        m = match(i, m_c_fadd(m_fmul(m_value("x"), m_imm_constant("mc")), m_deferred("x")))
        if m is not None:
            nc = constant_fold_binary_op_operands("fadd", m.constant("mc"), _fp_const(i.type, 1.0), ic.dl)
            if nc is not None:
                return new_fbin("fmul", m.value("x"), nc, fmf)
        m = match(
            i,
            m_c_fadd(
                m_fsub(m_fneg(m_value("x")), m_value("y")),
                m_combine_or(m_fadd(m_deferred("x"), m_value("z")), m_fadd(m_value("z"), m_deferred("x"))),
            ),
        )
        if m is not None:
            return new_fbin("fsub", m.value("z"), m.value("y"), fmf)
        # FAddCombine is not ported: it only fires where it saves instructions
    m = match(
        i,
        m_c_fadd(
            m_intrinsic("maximum", m_value("x"), m_value("y")),
            m_combine_or(
                m_intrinsic("minimum", m_deferred("x"), m_deferred("y")),
                m_intrinsic("minimum", m_deferred("y"), m_deferred("x")),
            ),
        ),
    )
    if m is not None:
        res = new_fbin("fadd", m.value("x"), m.value("y"), fmf)
        if not fmf & int(FastMathFlags.NNAN):
            res.fast_math_flags = fmf & ~int(FastMathFlags.NINF)
        return res
    return None


def visit_fsub(ic: InstCombiner, i: Instruction) -> Instruction | None:  # noqa: C901 - LLVM's order
    """Fold an ``fsub`` (LLVM ``InstCombinerImpl::visitFSub``; no ``FAddCombine`` yet)."""
    assert isinstance(i, BinaryOperator)
    fmf = _fmf(i)
    v = simplify_fsub_inst(i.operands[0], i.operands[1], fmf, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    m = match(i, m_fneg(m_value("op")))
    if m is not None:
        return new_fneg(m.value("op"), fmf)
    r = _fold_fneg_into_constant(ic, i)
    if r is not None:
        return r
    r = _call_if_present("common", "fold_fbinop_of_int_casts", ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    b = ic.builder
    nsz = bool(fmf & int(FastMathFlags.NSZ))
    if nsz or _cannot_be_negative_zero(ic, op0, i):
        m = match(op1, m_one_use(m_fsub(m_value("x"), m_value("y"))))
        if m is not None:
            new_sub = create_fbin_fmf(ic, "fsub", m.value("y"), m.value("x"), fmf)
            return new_fbin("fadd", op0, new_sub, fmf)
    if nsz and not isinstance(op0, ConstantExpr):
        m = match(op0, m_one_use(m_fneg(m_value("x"))))
        if m is not None:
            fadd = create_fbin_fmf(ic, "fadd", m.value("x"), op1, fmf)
            return new_fneg(fadd, fmf)
    if isinstance(op0, Constant) and isinstance(op1, SelectInst):
        r = cm.fold_op_into_select(ic, i, op1)
        if r is not None:
            return r
    if match(op1, m_imm_constant()) is not None:
        assert isinstance(op1, Constant)
        nc = _fold_const_fneg(ic, op1)
        if nc is not None:
            return new_fbin("fadd", op0, nc, fmf)
    m = match(op1, m_fneg(m_value("y")))
    if m is not None:
        return new_fbin("fadd", op0, m.value("y"), fmf)
    ty = i.type
    m = match(op1, m_one_use(m_fptrunc(m_fneg(m_value("y")))))
    if m is not None:
        return new_fbin("fadd", op0, b.create_cast("fptrunc", m.value("y"), ty), fmf)
    m = match(op1, m_one_use(m_fpext(m_fneg(m_value("y")))))
    if m is not None:
        return new_fbin("fadd", op0, b.create_cast("fpext", m.value("y"), ty), fmf)
    m = match(op1, m_one_use(m_c_fmul(m_fneg(m_value("x")), m_value("y"))))
    if m is not None:
        fmul = create_fbin_fmf(ic, "fmul", m.value("x"), m.value("y"), fmf)
        return new_fbin("fadd", op0, fmul, fmf)
    m = match(op1, m_one_use(m_fdiv(m_fneg(m_value("x")), m_value("y"))))
    if m is None:
        m = match(op1, m_one_use(m_fdiv(m_value("x"), m_fneg(m_value("y")))))
    if m is not None:
        fdiv = create_fbin_fmf(ic, "fdiv", m.value("x"), m.value("y"), fmf)
        return new_fbin("fadd", op0, fdiv, fmf)
    v = cm.simplify_selects_feeding_binary_op(ic, i, op0, op1)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    reassoc_nsz = int(FastMathFlags.REASSOC | FastMathFlags.NSZ)
    if fmf & reassoc_nsz == reassoc_nsz:
        m = match(op0, m_fsub(m_specific(op1), m_value("x")))
        if m is not None:
            return new_fneg(m.value("x"), fmf)
        m = match(op1, m_c_fadd(m_specific(op0), m_value("x")))
        if m is not None:
            return new_fneg(m.value("x"), fmf)
        from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands
        from llvmpy_mid.ir.constants import ConstantFP as _CFP

        m = match(op0, m_fmul(m_specific(op1), m_constant("c")))
        if m is not None:
            c = m.constant("c")
            cs = constant_fold_binary_op_operands("fsub", c, _fp_const(ty, 1.0), ic.dl)
            if cs is not None:
                return new_fbin("fmul", op1, cs, fmf)
        m = match(op1, m_fmul(m_specific(op0), m_constant("c")))
        if m is not None:
            c = m.constant("c")
            cs = constant_fold_binary_op_operands("fsub", _fp_const(ty, 1.0), c, ic.dl)
            if cs is not None:
                return new_fbin("fmul", op0, cs, fmf)
        m = match(op0, m_one_use(m_c_fadd(m_one_use(m_fsub(m_value("x"), m_value("y"))), m_value("z"))))
        if m is not None:
            xz = create_fbin_fmf(ic, "fadd", m.value("x"), m.value("z"), fmf)
            yw = create_fbin_fmf(ic, "fadd", m.value("y"), op1, fmf)
            return new_fbin("fsub", xz, yw, fmf)
        del _CFP
        rdx = m_one_use(m_intrinsic("vector.reduce.fadd", m_value("a"), m_value("v")))
        m = match(op0, rdx)
        m2 = match(op1, rdx) if m is not None else None
        if m is not None and m2 is not None and m.value("v").type is m2.value("v").type:
            s_v = create_fbin_fmf(ic, "fsub", m.value("v"), m2.value("v"), fmf)
            rdx_v = b.create_intrinsic("vector.reduce.fadd", [s_v.type], [m.value("a"), s_v], return_type=ty, fmf_source=i)
            return new_fbin("fsub", rdx_v, m2.value("a"), fmf)
        r = _factorize_fadd_fsub(ic, i)
        if r is not None:
            return r
        # FAddCombine is not ported: it only fires where it saves instructions
        m = match(op0, m_one_use(m_fsub(m_value("x"), m_value("y"))))
        if m is not None:
            fadd = create_fbin_fmf(ic, "fadd", m.value("y"), op1, fmf)
            return new_fbin("fsub", m.value("x"), fadd, fmf)
    return None


def _fp_const(ty: Type, v: float) -> Constant:
    """``ConstantFP::get(Ty, V)``: splatted over a vector type."""
    if isinstance(ty, VectorType):
        from llvmpy_mid.ir.constants import ConstantVector

        return ConstantVector.get_splat(ty, ConstantFP.get(ty.element_type, v))
    return ConstantFP.get(ty, v)


def _cannot_be_negative_zero(ic: InstCombiner, v: Value, cxt: Instruction) -> bool:
    """``cannotBeNegativeZero`` as InstructionSimplify's FP folds compute it."""
    from llvmpy_mid.analysis.instsimplify.fp import _cannot_be_negative_zero as cannot

    return cannot(v)


__all__ = [
    "visit_fneg",
    "visit_add",
    "visit_fadd",
    "visit_sub",
    "visit_fsub",
    "narrow_math_if_no_overflow",
    "will_not_overflow",
    "canonicalize_cond_signext_of_high_bit_extract",
    "fold_add_with_constant",
]
