"""InstCombine: ``icmp`` of casts (LLVM 19.1.7 ``lib/Transforms/InstCombine/InstCombineCompares.cpp``:
``foldICmpWithCastOp``, ``foldICmpWithTrunc``, ``foldICmpWithZextOrSext``,
``foldICmpTruncWithTruncOrExt``, ``foldICmpBitCast``).

Everything of these functions is done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.cmp_inst_analysis import decompose_bit_test_icmp
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.transform.instcombine import common
from llvmpy_mid.transform.instcombine.compares_const import fold_icmp_intrinsic_with_constant
from llvmpy_mid.transform.instcombine.compares_util import apint, int_const, is_sign_bit_check, scalar_width

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate

_ONE = pm.m_one()
_ZERO = pm.m_zero()
_ALL_ONES = pm.m_all_ones()
_UNDEF = pm.m_undef()


def _cast(v: object, *ops: str) -> CastInst | None:
    if isinstance(v, CastInst) and v.opcode in ops:
        return v
    return None


def fold_icmp_trunc_with_trunc_or_ext(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """icmp (trunc nuw/nsw X), (trunc nuw/nsw Y) or (zext/sext Y) -> icmp X, (ext Y)."""
    op0, op1 = cmp.lhs, cmp.rhs
    pred = cmp.predicate
    y_is_sext = False
    t0 = _cast(op0, "trunc")
    t1 = _cast(op1, "trunc")
    if t0 is not None and t1 is not None:
        flags = (int(t0.nuw) | int(t0.nsw) << 1) & (int(t1.nuw) | int(t1.nsw) << 1)
        if cmp.is_signed:
            if not flags & 2:
                return None
        elif not flags:
            return None
        x = t0.operands[0]
        y = t1.operands[0]
        if x.type is not y.type and (not op0.has_one_use or not op1.has_one_use):
            return None
        if not common.is_desirable_int_type(ic, scalar_width(x.type)) and common.is_desirable_int_type(ic, scalar_width(y.type)):
            x, y = y, x
            pred = pred.swapped
        y_is_sext = not flags & 1
    else:
        matched = None
        if not cmp.is_signed:
            # m_c_ICmp(m_NUWTrunc(X), m_OneUse(m_ZExt(Y)))
            for a, b, p in ((op0, op1, pred), (op1, op0, pred.swapped)):
                ta = _cast(a, "trunc")
                eb = _cast(b, "zext")
                if ta is not None and ta.nuw and eb is not None and eb.has_one_use:
                    matched = (ta.operands[0], eb.operands[0], p)
                    break
        if matched is None:
            for a, b, p in ((op0, op1, pred), (op1, op0, pred.swapped)):
                ta = _cast(a, "trunc")
                eb = _cast(b, "zext", "sext")
                if ta is not None and ta.nsw and eb is not None and eb.has_one_use:
                    matched = (ta.operands[0], eb.operands[0], p)
                    y_is_sext = _cast(op0, "sext") is not None or _cast(op1, "sext") is not None
                    break
        if matched is None:
            return None
        x, y, pred = matched
    trunc_bits = scalar_width(op0.type)
    if common.is_desirable_int_type(ic, trunc_bits) and not common.is_desirable_int_type(ic, scalar_width(x.type)):
        return None
    new_y = _create_int_cast(ic, y, x.type, y_is_sext)
    return ICmpInst(pred, x, new_y)


def _create_int_cast(ic: InstCombiner, v: object, ty: object, signed: bool) -> "ConstantExpr | Instruction | Constant | CastInst":
    """``Builder.CreateIntCast``: trunc, sext/zext, or ``v`` itself."""
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

    assert isinstance(v, Value) and isinstance(ty, Type)
    src = scalar_width(v.type)
    dst = scalar_width(ty)
    if src == dst:
        return v  # type: ignore[return-value]
    op = "trunc" if src > dst else ("sext" if signed else "zext")
    return ic.builder.create_cast(op, v, ty)  # type: ignore[return-value]


def _fp_class_of(fp_ty: object, bits: int) -> int:
    """``APFloat::classify``: the one FPClassTest bit of the value ``bits``."""
    from llvmpy_mid.ir import apfloat
    from llvmpy_mid.ir.types import Type

    assert isinstance(fp_ty, Type)
    sem = apfloat.semantics_of(fp_ty.type_id)
    assert sem is not None
    cat = apfloat.category(sem, bits)
    neg = apfloat.is_negative(sem, bits)
    if cat == apfloat.NAN:
        return 1 if apfloat.is_signaling(sem, bits) else 2
    if cat == apfloat.INF:
        return 4 if neg else 512
    if cat == apfloat.ZERO:
        return 32 if neg else 64
    if apfloat.is_denormal(sem, bits):
        return 16 if neg else 128
    return 8 if neg else 256


def fold_icmp_bitcast(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """icmp of a bitcast: of an int-to-fp, sign tests through fpext/fptrunc, fp-class tests,
    not/zext/sext/splat sources (LLVM ``foldICmpBitCast``)."""
    from llvmpy_mid.ir import apfloat
    from llvmpy_mid.ir.types import IntegerType

    bc = cmp.lhs
    if not (isinstance(bc, CastInst) and bc.opcode == "bitcast"):
        return None
    pred = cmp.predicate
    op1 = cmp.rhs
    src_op = bc.operands[0]
    src_ty = src_op.type
    dst_ty = bc.type
    b = ic.builder
    if isinstance(src_ty, VectorType) == isinstance(dst_ty, VectorType) and _scalar_bits(src_ty) == _scalar_bits(dst_ty):
        if isinstance(src_op, Instruction) and src_op.opcode == "sitofp":
            x = src_op.operands[0]
            if pred in (P.ICMP_EQ, P.ICMP_SLT, P.ICMP_NE, P.ICMP_SGT) and pm.matches(op1, _ZERO):
                return ICmpInst(pred, x, Constant.get_null_value(x.type))
            if pred == P.ICMP_SLT and pm.matches(op1, _ONE):
                return ICmpInst(pred, x, int_const(x.type, 1))
            if pred == P.ICMP_SGT and pm.matches(op1, _ALL_ONES):
                return ICmpInst(pred, x, Constant.get_all_ones_value(x.type))
        if isinstance(src_op, Instruction) and src_op.opcode == "uitofp":
            if cmp.is_equality and pm.matches(op1, _ZERO):
                x = src_op.operands[0]
                return ICmpInst(pred, x, Constant.get_null_value(x.type))
        c = apint(op1)
        if c is not None and bc.has_one_use:
            w = scalar_width(dst_ty)
            sb = is_sign_bit_check(pred, c, w) if w else None
            if sb is not None and isinstance(src_op, Instruction) and src_op.opcode in ("fpext", "fptrunc"):
                x = src_op.operands[0]
                xt = x.type
                if xt.scalar_type.type_id.name != "PPC_FP128" and src_ty.scalar_type.type_id.name != "PPC_FP128":
                    new_ty: object = xt.context.int_type(_scalar_bits(xt))
                    if isinstance(xt, VectorType):
                        new_ty = xt.context.vector_type(new_ty, xt.count, xt.scalable)  # type: ignore[arg-type]
                    nb = b.create_cast("bitcast", x, new_ty)  # type: ignore[arg-type]
                    if sb[1]:
                        return ICmpInst(P.ICMP_SLT, nb, Constant.get_null_value(nb.type))
                    return ICmpInst(P.ICMP_SGT, nb, Constant.get_all_ones_value(nb.type))
            fp_ty = src_ty.scalar_type
            fn = cmp.function
            sem = apfloat.semantics_of(fp_ty.type_id)
            if (
                fn is not None
                and not fn.has_fn_attribute("noimplicitfloat")
                and cmp.is_equality
                and sem is not None
                and not sem.explicit_int
            ):
                mask = _fp_class_of(fp_ty, c)
                if mask & (4 | 512 | 32 | 64):
                    if pred == P.ICMP_NE:
                        mask = ~mask & 1023
                    v = b.create_intrinsic("is.fpclass", [src_ty], [src_op, ConstantInt.get(src_ty.context.i32, mask)], return_type=cmp.type)
                    return ic.replace_inst_uses_with(cmp, v)
    c = apint(cmp.rhs)
    if c is None or not isinstance(dst_ty, IntegerType) or not src_ty.is_int_or_int_vector:
        return None
    w = dst_ty.width
    if cmp.is_equality and c == (1 << w) - 1 and bc.has_one_use:
        inv = common.get_freely_inverted(ic, src_op, src_op.has_one_use, b)
        if inv is not None:
            cst = b.create_cast("bitcast", inv, dst_ty)
            return ICmpInst(pred, cst, Constant.get_null_value(dst_ty))
    if cmp.is_equality and c == 0 and bc.has_one_use and isinstance(src_op, Instruction) and src_op.opcode in ("zext", "sext"):
        x = src_op.operands[0]
        xt = x.type
        if isinstance(xt, VectorType) and not xt.scalable:
            nt = xt.context.int_type(xt.count * _scalar_bits(xt))
            nc = b.create_cast("bitcast", x, nt)
            return ICmpInst(pred, nc, Constant.get_null_value(nt))
    if isinstance(src_op, Instruction) and src_op.opcode == "shufflevector" and pm.matches(src_op.operands[1], _UNDEF):
        mask_v = list(getattr(src_op, "mask"))
        if mask_v and all(m == mask_v[0] for m in mask_v):
            assert isinstance(src_ty, VectorType)
            ew = _scalar_bits(src_ty)
            part = c & ((1 << ew) - 1)
            if all((c >> (k * ew)) & ((1 << ew) - 1) == part for k in range(w // ew)):
                ext = b.create_extract_element(src_op.operands[0], ConstantInt.get(src_ty.context.i32, mask_v[0]))
                return ICmpInst(pred, ext, ConstantInt.get(src_ty.element_type, part))
    return None


def _scalar_bits(ty: object) -> int:
    """``getScalarSizeInBits``: integer width, or the FP format's width."""
    from llvmpy_mid.ir import apfloat
    from llvmpy_mid.ir.types import IntegerType, Type

    assert isinstance(ty, Type)
    s = ty.scalar_type
    if isinstance(s, IntegerType):
        return s.width
    sem = apfloat.semantics_of(s.type_id)
    if sem is not None:
        return sem.width
    return 128 if s.type_id.name == "PPC_FP128" else 0


def fold_icmp_with_trunc(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """(trunc X) pred C -> a mask test of X."""
    op0, op1 = cmp.lhs, cmp.rhs
    pred = cmp.predicate
    t = _cast(op0, "trunc")
    if t is None or not t.has_one_use:
        return None
    c = apint(op1)
    if c is None:
        return None
    x = t.operands[0]
    dec = decompose_bit_test_icmp(op0, op1, pred, True)
    if dec is not None:
        xx, mask, npred = dec
        a = ic.builder.create_and(xx, int_const(xx.type, mask))
        return ICmpInst(npred, a, Constant.get_null_value(xx.type))
    w = scalar_width(op0.type)
    m = (1 << w) - 1
    neg = -c & m
    if pred == P.ICMP_ULT and c != 0 and neg & (neg - 1) == 0 and neg != 0:
        mask_c = int_const(x.type, c)
        a = ic.builder.create_and(x, mask_c)
        return ICmpInst(P.ICMP_NE, a, mask_c)
    nc = ~c & m
    if pred == P.ICMP_UGT and nc != 0 and nc & (nc - 1) == 0:
        mask_c = int_const(x.type, (c + 1) & m)
        a = ic.builder.create_and(x, mask_c)
        return ICmpInst(P.ICMP_EQ, a, mask_c)
    if isinstance(x, CallInst) and x.intrinsic_base in ("llvm.cttz", "llvm.ctlz"):
        src_bits = scalar_width(x.type)
        max_ret = src_bits
        if pm.matches(x.args[1], _ONE):
            max_ret -= 1
        if max_ret.bit_length() - 1 + 1 <= w:
            return fold_icmp_intrinsic_with_constant(ic, cmp, x, c)
    return None


def fold_icmp_with_zext_or_sext(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """icmp (ext X), (ext Y) or C -> icmp X, Y or C' on the narrow type."""
    c0 = _cast(cmp.lhs, "zext", "sext")
    if c0 is None:
        return None
    x = c0.operands[0]
    is_signed_ext = c0.opcode == "sext"
    is_signed_cmp = cmp.is_signed
    op1 = cmp.rhs
    c1 = _cast(op1, "zext", "sext")
    if c1 is not None:
        y = c1.operands[0]
        z0 = c0.opcode == "zext"
        z1 = c1.opcode == "zext"
        if z0 != z1:
            if cmp.is_equality and scalar_width(x.type) == 1 and scalar_width(y.type) == 1:
                return ICmpInst(cmp.predicate, ic.builder.create_or(x, y), Constant.get_null_value(x.type))
            if (z0 and c0.nneg) or (z1 and c1.nneg):
                is_signed_ext = True
            else:
                return None
        if x.type is not y.type:
            if not cmp.lhs.has_one_use and not op1.has_one_use:
                return None
            op = "sext" if is_signed_ext else "zext"
            if scalar_width(x.type) < scalar_width(y.type):
                x = ic.builder.create_cast(op, x, y.type)
            elif scalar_width(y.type) < scalar_width(x.type):
                y = ic.builder.create_cast(op, y, x.type)
            else:
                return None
        if cmp.is_equality:
            return ICmpInst(cmp.predicate, x, y)
        if is_signed_cmp and is_signed_ext:
            return ICmpInst(cmp.predicate, x, y)
        return ICmpInst(cmp.predicate.unsigned, x, y)
    if not isinstance(op1, Constant):
        return None
    src_ty = c0.operands[0].type
    res = common.get_lossless_trunc(op1, src_ty, c0.opcode, ic.dl)
    if res is not None:
        if cmp.is_equality:
            return ICmpInst(cmp.predicate, x, res)
        if is_signed_ext and is_signed_cmp:
            return ICmpInst(cmp.predicate, x, res)
        return ICmpInst(cmp.predicate.unsigned, x, res)
    if is_signed_cmp or not is_signed_ext or not isinstance(op1, ConstantInt):
        return None
    if cmp.predicate == P.ICMP_ULT:
        return ICmpInst(P.ICMP_SGT, x, Constant.get_all_ones_value(src_ty))
    return ICmpInst(P.ICMP_SLT, x, Constant.get_null_value(src_ty))


def fold_icmp_with_cast_op(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """icmp (cast X), (cast Y) or C: int-to-ptr round trips, ptrtoint, trunc, zext/sext."""
    s0 = common.simplify_int_to_ptr_round_trip_cast(ic, cmp.lhs)
    s1 = common.simplify_int_to_ptr_round_trip_cast(ic, cmp.rhs)
    if s0 is not None or s1 is not None:
        return ICmpInst(cmp.predicate, s0 if s0 is not None else cmp.lhs, s1 if s1 is not None else cmp.rhs)
    c0 = cmp.lhs
    if not isinstance(c0, CastInst):
        return None
    op1 = cmp.rhs
    if not isinstance(op1, (Constant, CastInst)):
        return None
    src = c0.operands[0]
    src_ty = src.type
    dst_ty = c0.type
    if c0.opcode == "ptrtoint":
        st = src_ty.scalar_type
        dt = dst_ty.scalar_type
        if ic.dl.pointer_type_size_in_bits(st) == scalar_width(dt):
            new1 = None
            if isinstance(op1, (Instruction, ConstantExpr)) and op1.opcode == "ptrtoint":
                if op1.operands[0].type is src.type:
                    new1 = op1.operands[0]
            elif isinstance(op1, Constant):
                new1 = ConstantExpr.get_cast("inttoptr", op1, src_ty)
            if new1 is not None:
                return ICmpInst(cmp.predicate, src, new1)
    r = fold_icmp_with_trunc(ic, cmp)
    if r is not None:
        return r
    return fold_icmp_with_zext_or_sext(ic, cmp)


__all__ = [
    "fold_icmp_trunc_with_trunc_or_ext",
    "fold_icmp_bitcast",
    "fold_icmp_with_cast_op",
]
