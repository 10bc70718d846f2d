"""InstCombine folds of casts (LLVM ``lib/Transforms/InstCombine/InstCombineCasts.cpp``):
``commonCastTransforms``, ``EvaluateInDifferentType`` with ``canEvaluateTruncated`` /
``canEvaluateZExtd`` / ``canEvaluateSExtd``, ``visitTrunc`` (``narrowBinOp``,
``narrowFunnelShift``, ``shrinkSplatShuffle``, ``shrinkInsertElt``,
``foldVecTruncToExtElt``, the ``nuw``/``nsw`` inference LLVM 19 does), ``visitZExt``
(``transformZExtICmp``, ``nneg`` inference), ``visitSExt`` (``transformSExtICmp``),
the floating-point casts (``fptrunc`` shrinking, ``foldItoFPtoI``), ``ptrtoint`` /
``inttoptr``, ``bitcast`` (vector resizing through integer casts,
``canonicalizeBitCastExtElt``, ``foldBitCastBitwiseLogic``, ``foldBitCastSelect``)
and ``addrspacecast``.

Not yet here (each fold skipped whole): the ``vscale`` folds; ``foldFPtoI`` sees the classes a small local analysis proves
(the tree has no ``computeKnownFPClass`` yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_folding import (
    constant_fold_cast_operand,
    constant_fold_integer_cast,
)
from llvmpy_mid.analysis.instsimplify._util import const_int
from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative
from llvmpy_mid.analysis.select_pattern import UNKNOWN, match_select_pattern
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constant_fold import is_eliminable_cast_pair as _ir_is_eliminable_cast_pair
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.vector import ExtractElementInst, InsertElementInst, ShuffleVectorInst
from llvmpy_mid.ir.types import FloatingPointType, IntegerType, PointerType, Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.combiner import take_name
from llvmpy_mid.transform.utils.local import replace_all_dbg_uses_with
from llvmpy_mid.transform.instcombine.simplify_demanded import FC_NEG_NORMAL, FC_POS_NORMAL, possible_fp_classes
from llvmpy_mid.transform.instcombine.common import (
    intrinsic_base_of,
    fold_op_into_phi,
    fold_op_into_select,
    is_desirable_int_type,
    should_change_type,
)

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


# --- small helpers --------------------------------------------------------------------------------


def _low(n: int) -> int:
    return (1 << n) - 1 if n > 0 else 0


def _sw(ty: Type) -> int:
    """``getScalarSizeInBits`` (0 for non-integer, non-FP scalars)."""
    s = ty.scalar_type
    if isinstance(s, IntegerType):
        return s.width
    if isinstance(s, FloatingPointType):
        return s.bits
    return 0


def _opc(v: Value) -> str | None:
    return getattr(v, "opcode", None)


def _ops(v: Value) -> list[Value]:
    return v.operands  # type: ignore[attr-defined,no-any-return]


def _apint(v: Value) -> int | None:
    m = pm.match(v, _P_APINT)
    return None if m is None else m.apint("c")


_P_APINT = pm.m_apint("c")
_P_IMM = pm.m_imm_constant()
_P_UNDEF = pm.m_undef()
_P_ZERO = pm.m_zero_int()
_P_ONE = pm.m_one()
_P_POW2 = pm.m_power2()


def _is_bool(ty: Type) -> bool:
    s = ty.scalar_type
    return isinstance(s, IntegerType) and s.width == 1


def _with_scalar(ty: Type, scalar: Type) -> Type:
    """``Type::getWithNewType``: ``scalar``, or a vector of it shaped like ``ty``."""
    if isinstance(ty, VectorType):
        return ty.context.vector_type(scalar, ty.count, ty.scalable)
    return scalar


def _int_ty(ty: Type, width: int) -> Type:
    """``ty`` with its scalar replaced by ``iwidth``."""
    return _with_scalar(ty, ty.context.int_type(width))


def _lanes_all(v: Value, pred: object) -> bool:
    from llvmpy_mid.transform.instcombine.shifts import _lanes_all as la

    return la(v, pred)  # type: ignore[arg-type]


def create_integer_cast(v: Value, ty: Type, is_signed: bool) -> CastInst:
    """``CastInst::CreateIntegerCast``: trunc, zext/sext or bitcast by the widths."""
    sb, db = _sw(v.type), _sw(ty)
    opc = "bitcast" if sb == db else "trunc" if sb > db else "sext" if is_signed else "zext"
    return CastInst.create(opc, v, ty)


def _create_int_cast(ic: InstCombiner, v: Value, ty: Type, is_signed: bool, name: str = "") -> Value:
    """``IRBuilder::CreateIntCast``."""
    if v.type is ty:
        return v
    sb, db = _sw(v.type), _sw(ty)
    opc = "bitcast" if sb == db else "trunc" if sb > db else "sext" if is_signed else "zext"
    return ic.builder.create_cast(opc, v, ty, name)


def _take_name_insert(ic: InstCombiner, new: Instruction, old: Instruction) -> Instruction:
    take_name(new, old)
    return ic.insert_new_inst_with(new, old)


# --- isEliminableCastPair ------------------------------------------------------------------------


def is_eliminable_cast_pair(ic: InstCombiner, ci1: Instruction, ci2: Instruction) -> str | None:
    """``InstCombinerImpl::isEliminableCastPair``: the one cast equal to ``ci2(ci1(x))``, or None
    (never an inttoptr/ptrtoint through an integer of another width than the pointer's)."""
    src_ty = ci1.operands[0].type
    mid_ty = ci1.type
    dst_ty = ci2.type
    dl = ic.dl

    def ip(t: Type) -> Type | None:
        return dl.int_ptr_type(t) if isinstance(t.scalar_type, PointerType) else None

    src_ip = ip(src_ty)
    dst_ip = ip(dst_ty)
    res = _ir_is_eliminable_cast_pair(ci1.opcode, ci2.opcode, src_ty, mid_ty, dst_ty, src_ip, ip(mid_ty), dst_ip)
    if (res == "inttoptr" and src_ty is not dst_ip) or (res == "ptrtoint" and dst_ty is not src_ip):
        res = None
    return res


# --- commonCastTransforms ------------------------------------------------------------------------


def _is_element_wise_bitcast(ci: Instruction) -> bool:
    """``m_ElementWiseBitCast``: a bitcast that keeps the lane count (scalars too)."""
    s, d = ci.operands[0].type, ci.type
    if isinstance(s, VectorType) != isinstance(d, VectorType):
        return False
    if isinstance(s, VectorType) and isinstance(d, VectorType):
        return s.count == d.count and s.scalable == d.scalable
    return True


def common_cast_transforms(ic: InstCombiner, ci: Instruction) -> Instruction | None:
    """``commonCastTransforms``: folds shared by every cast."""
    assert isinstance(ci, CastInst)
    src = ci.operands[0]
    ty = ci.type
    if isinstance(src, Constant):
        res = constant_fold_cast_operand(ci.opcode, src, ty, ic.dl)
        if res is not None:
            return ic.replace_inst_uses_with(ci, res)
    if isinstance(src, CastInst):
        new_opc = is_eliminable_cast_pair(ic, src, ci)
        if new_opc is not None:
            new_cast = CastInst.create(new_opc, src.operands[0], ty)
            if src.has_one_use:
                replace_all_dbg_uses_with(src, new_cast, ci, ic.dt)
            return new_cast
    if isinstance(src, SelectInst):
        cmp = src.condition
        is_cmp = isinstance(cmp, Instruction) and cmp.opcode in ("icmp", "fcmp")
        if (
            not is_cmp
            or _ops(cmp)[0].type is not src.type
            or (ci.opcode == "trunc" and should_change_type(ic, ci.operands[0].type, ci.type))
        ):
            if ci.opcode != "bitcast" or _is_element_wise_bitcast(ci):
                nv = fold_op_into_select(ic, ci, src)
                if nv is not None:
                    replace_all_dbg_uses_with(src, nv, ci, ic.dt)
                    return nv
    if isinstance(src, PHINode):
        if (
            not isinstance(src.type, IntegerType)
            or not isinstance(ci.type, IntegerType)
            or should_change_type(ic, ci.operands[0].type, ci.type)
        ):
            nv = fold_op_into_phi(ic, ci, src)
            if nv is not None:
                return nv
    if isinstance(src, ShuffleVectorInst) and src.has_one_use and pm.matches(src.operands[1], _P_UNDEF):
        x = src.operands[0]
        sty, dty = x.type, ty
        if (
            isinstance(sty, VectorType)
            and not sty.scalable
            and isinstance(dty, VectorType)
            and not dty.scalable
            and sty.count == dty.count
            and _prim_bits(sty) == _prim_bits(dty)
        ):
            cast_x = ic.builder.create_cast(ci.opcode, x, dty)
            return ShuffleVectorInst(cast_x, PoisonValue.get(cast_x.type), src.mask)
    return None


def _prim_bits(ty: Type) -> int:
    from llvmpy_mid.ir.type_queries import primitive_size_in_bits

    return int(primitive_size_in_bits(ty)[0])


# --- EvaluateInDifferentType and its predicates ----------------------------------------------------


def evaluate_in_different_type(ic: InstCombiner, v: Value, ty: Type, is_signed: bool) -> Value:
    """``EvaluateInDifferentType``: emit ``v`` computed in ``ty`` (after a ``canEvaluate*`` said yes)."""
    if isinstance(v, Constant):
        r = constant_fold_integer_cast(v, ty, is_signed, ic.dl)
        assert r is not None
        return r
    assert isinstance(v, Instruction)
    opc = v.opcode
    res: Instruction
    if opc in ("add", "sub", "mul", "and", "or", "xor", "ashr", "lshr", "shl", "udiv", "urem"):
        lhs = evaluate_in_different_type(ic, v.operands[0], ty, is_signed)
        rhs = evaluate_in_different_type(ic, v.operands[1], ty, is_signed)
        res = BinaryOperator.create(opc, lhs, rhs)
    elif opc in ("trunc", "zext", "sext"):
        if v.operands[0].type is ty:
            return v.operands[0]
        res = create_integer_cast(v.operands[0], ty, opc == "sext")
    elif opc == "select":
        t = evaluate_in_different_type(ic, v.operands[1], ty, is_signed)
        f = evaluate_in_different_type(ic, v.operands[2], ty, is_signed)
        res = SelectInst(v.operands[0], t, f)
    elif isinstance(v, PHINode):
        npn = PHINode(ty)
        for k in range(v.num_incoming):
            nv = evaluate_in_different_type(ic, v.get_incoming_value(k), ty, is_signed)
            npn.add_incoming(nv, v.get_incoming_block(k))
        res = npn
    elif opc in ("fptoui", "fptosi"):
        res = CastInst.create(opc, v.operands[0], ty)
    elif opc == "call":
        assert intrinsic_base_of(v) == "vscale"
        from llvmpy_mid.ir.intrinsics import intrinsic_declaration
        from llvmpy_mid.ir.types import FunctionType

        mod = v.module
        assert mod is not None
        fn = intrinsic_declaration(mod, "llvm.vscale." + str(ty), ty.context.function_type(ty, []))
        res = CallInst(fn.function_type, fn, [])
    elif isinstance(v, ShuffleVectorInst):
        assert isinstance(ty, VectorType)
        vty = v.operands[0].type
        assert isinstance(vty, VectorType)
        fixed = ty.context.vector_type(ty.element_type, vty.count, vty.scalable)
        a = evaluate_in_different_type(ic, v.operands[0], fixed, is_signed)
        b2 = evaluate_in_different_type(ic, v.operands[1], fixed, is_signed)
        res = ShuffleVectorInst(a, b2, v.mask)
    else:
        raise AssertionError("EvaluateInDifferentType: unexpected %s" % opc)
    take_name(res, v)
    return ic.insert_new_inst_with(res, v)


def _can_always_evaluate_in_type(v: Value, ty: Type) -> bool:
    if isinstance(v, Constant):
        return pm.matches(v, _P_IMM)
    if _opc(v) in ("zext", "sext", "trunc") and _ops(v)[0].type is ty:
        return True
    return False


def _can_not_evaluate_in_type(v: Value) -> bool:
    return not isinstance(v, Instruction) or not v.has_one_use


def _fp_int_size_in_bits(ty: Type, signed: bool) -> int:
    """``APFloatBase::semanticsIntSizeInBits``: the integer width holding every finite value."""
    sem = apfloat.semantics_of(ty.type_id)
    if sem is None:
        return 1 << 30
    # The largest finite value is (2 - 2^(1-p)) * 2^maxExp: maxExp + 1 bits.
    max_exp = (1 << (sem.exp_bits - 1)) - 1
    size = max_exp + 1
    if signed:
        size += 1
    return size


def can_evaluate_truncated(v: Value, ty: Type, ic: InstCombiner, cxt: Instruction) -> bool:
    """``canEvaluateTruncated``: ``trunc(v)`` can be computed by computing ``v`` in ``ty``."""
    if _can_always_evaluate_in_type(v, ty):
        return True
    if _can_not_evaluate_in_type(v):
        return False
    assert isinstance(v, Instruction)
    i = v
    opc = i.opcode
    orig_bw = _sw(i.type)
    bw = _sw(ty)
    if opc in ("add", "sub", "mul", "and", "or", "xor"):
        return can_evaluate_truncated(i.operands[0], ty, ic, cxt) and can_evaluate_truncated(i.operands[1], ty, ic, cxt)
    if opc in ("udiv", "urem"):
        mask = _low(orig_bw) & ~_low(bw)
        if ic.masked_value_is_zero(i.operands[0], mask, 0, i) and ic.masked_value_is_zero(i.operands[1], mask, 0, i):
            return can_evaluate_truncated(i.operands[0], ty, ic, i) and can_evaluate_truncated(i.operands[1], ty, ic, i)
        return False
    if opc == "shl":
        amt = ic.compute_known_bits(i.operands[1], 0, None)
        if amt.get_max_value() < bw:
            return can_evaluate_truncated(i.operands[0], ty, ic, cxt) and can_evaluate_truncated(i.operands[1], ty, ic, cxt)
        return False
    if opc == "lshr":
        amt = ic.compute_known_bits(i.operands[1], 0, None)
        shifted = _low(orig_bw) & ~_low(bw)
        if amt.get_max_value() < bw and ic.masked_value_is_zero(i.operands[0], shifted, 0, cxt):
            return can_evaluate_truncated(i.operands[0], ty, ic, cxt) and can_evaluate_truncated(i.operands[1], ty, ic, cxt)
        return False
    if opc == "ashr":
        amt = ic.compute_known_bits(i.operands[1], 0, None)
        shifted_bits = orig_bw - bw
        if amt.get_max_value() < bw and shifted_bits < ic.compute_num_sign_bits(i.operands[0], 0, cxt):
            return can_evaluate_truncated(i.operands[0], ty, ic, cxt) and can_evaluate_truncated(i.operands[1], ty, ic, cxt)
        return False
    if opc in ("trunc", "zext", "sext"):
        return True
    if opc == "select":
        return can_evaluate_truncated(i.operands[1], ty, ic, cxt) and can_evaluate_truncated(i.operands[2], ty, ic, cxt)
    if isinstance(i, PHINode):
        for inc in i.incoming_values:
            if not can_evaluate_truncated(inc, ty, ic, cxt):
                return False
        return True
    if opc in ("fptoui", "fptosi"):
        in_ty = i.operands[0].type.scalar_type
        return bw >= _fp_int_size_in_bits(in_ty, opc == "fptosi")
    if opc == "shufflevector":
        return can_evaluate_truncated(i.operands[0], ty, ic, cxt) and can_evaluate_truncated(i.operands[1], ty, ic, cxt)
    return False


def can_evaluate_zextd(v: Value, ty: Type, ic: InstCombiner, cxt: Instruction) -> int | None:
    """``canEvaluateZExtd``: None when ``v`` cannot be computed in ``ty``, else ``BitsToClear``."""
    if _can_always_evaluate_in_type(v, ty):
        return 0
    if _can_not_evaluate_in_type(v):
        return None
    assert isinstance(v, Instruction)
    i = v
    opc = i.opcode
    if opc in ("zext", "sext", "trunc"):
        return 0
    if opc in ("and", "or", "xor", "add", "sub", "mul"):
        btc = can_evaluate_zextd(i.operands[0], ty, ic, cxt)
        if btc is None:
            return None
        tmp = can_evaluate_zextd(i.operands[1], ty, ic, cxt)
        if tmp is None:
            return None
        if btc == 0 and tmp == 0:
            return 0
        if tmp == 0 and opc in ("and", "or", "xor"):
            vsize = _sw(v.type)
            if ic.masked_value_is_zero(i.operands[1], _low(vsize) & ~_low(vsize - btc), 0, cxt):
                return 0 if opc == "and" else btc
        return None
    if opc == "shl":
        amt = _apint(i.operands[1])
        if amt is None:
            return None
        btc = can_evaluate_zextd(i.operands[0], ty, ic, cxt)
        if btc is None:
            return None
        return btc - amt if amt < btc else 0
    if opc == "lshr":
        amt = _apint(i.operands[1])
        if amt is None:
            return None
        btc = can_evaluate_zextd(i.operands[0], ty, ic, cxt)
        if btc is None:
            return None
        return min(btc + amt, _sw(v.type))
    if opc == "select":
        tmp = can_evaluate_zextd(i.operands[1], ty, ic, cxt)
        if tmp is None:
            return None
        btc = can_evaluate_zextd(i.operands[2], ty, ic, cxt)
        if btc is None or tmp != btc:
            return None
        return btc
    if isinstance(i, PHINode):
        btc = can_evaluate_zextd(i.get_incoming_value(0), ty, ic, cxt)
        if btc is None:
            return None
        for k in range(1, i.num_incoming):
            tmp = can_evaluate_zextd(i.get_incoming_value(k), ty, ic, cxt)
            if tmp is None or tmp != btc:
                return None
        return btc
    if opc == "call" and intrinsic_base_of(i) == "vscale":
        return 0
    return None


def can_evaluate_sextd(v: Value, ty: Type) -> bool:
    """``canEvaluateSExtd``: ``v`` can be computed in the wider ``ty`` keeping its low bits."""
    if _can_always_evaluate_in_type(v, ty):
        return True
    if _can_not_evaluate_in_type(v):
        return False
    assert isinstance(v, Instruction)
    opc = v.opcode
    if opc in ("sext", "zext", "trunc"):
        return True
    if opc in ("and", "or", "xor", "add", "sub", "mul"):
        return can_evaluate_sextd(v.operands[0], ty) and can_evaluate_sextd(v.operands[1], ty)
    if opc == "select":
        return can_evaluate_sextd(v.operands[1], ty) and can_evaluate_sextd(v.operands[2], ty)
    if isinstance(v, PHINode):
        return all(can_evaluate_sextd(inc, ty) for inc in v.incoming_values)
    return False


# --- trunc ----------------------------------------------------------------------------------------


def _fold_vec_trunc_to_ext_elt(ic: InstCombiner, trunc: Instruction) -> Instruction | None:
    """trunc (lshr (bitcast <N x iK> X), C) -> extractelement X', C / width"""
    op = trunc.operands[0]
    dest = trunc.type
    if not op.has_one_use or not isinstance(dest, IntegerType):
        return None
    shift = 0
    vec_input: Value | None = None
    if _opc(op) == "bitcast":
        vec_input = _ops(op)[0]
    elif _opc(op) == "lshr" and _opc(_ops(op)[0]) == "bitcast":
        sv = _ops(op)[1]
        if not isinstance(sv, ConstantInt):
            s = _splat_const_int(sv)
            if s is None:
                return None
            sv = s
        vec_input = _ops(_ops(op)[0])[0]
        shift = sv.value
    if vec_input is None or not isinstance(vec_input.type, VectorType):
        return None
    vty = vec_input.type
    vec_width = _prim_bits(vty)
    dest_width = dest.width
    if vec_width % dest_width or shift % dest_width:
        return None
    n = vec_width // dest_width
    if vty.element_type is not dest:
        vty2 = dest.context.vector_type(dest, n, False)
        vec_input = ic.builder.create_cast("bitcast", vec_input, vty2, "bc")
    elt = shift // dest_width
    if ic.dl.is_big_endian:
        elt = n - 1 - elt
    return ExtractElementInst(vec_input, ConstantInt.get(dest.context.i32, elt))


def _splat_const_int(v: Value) -> ConstantInt | None:
    from llvmpy_mid.ir.constants import get_splat_value

    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if isinstance(s, ConstantInt):
            return s
    return None


def narrow_funnel_shift(ic: InstCombiner, trunc: Instruction) -> Instruction | None:
    """trunc (or (shl X, A), (lshr Y, W - A)) -> fshl/fshr on the narrow type (LLVM ``narrowFunnelShift``)."""
    dest = trunc.type
    nw = _sw(dest)
    ww = _sw(trunc.operands[0].type)
    if nw & (nw - 1):
        return None
    o = trunc.operands[0]
    if _opc(o) != "or" or not o.has_one_use:
        return None
    or0, or1 = _ops(o)
    if not isinstance(or0, BinaryOperator) or not isinstance(or1, BinaryOperator):
        return None
    if or0.opcode not in ("shl", "lshr") or or1.opcode not in ("shl", "lshr"):
        return None
    if not or0.has_one_use or not or1.has_one_use or or0.opcode == or1.opcode:
        return None
    if or0.opcode == "lshr":
        or0, or1 = or1, or0
    sv0, sa0 = or0.operands
    sv1, sa1 = or1.operands

    def match_amt(l: Value, r: Value, width: int) -> Value | None:
        max_w = width.bit_length() - 1
        hi = _low(ww) & ~_low(max_w)
        if sv0 is sv1 or ic.masked_value_is_zero(l, hi, 0, None):
            if _opc(r) == "sub" and r.has_one_use and _apint(_ops(r)[0]) == width and _ops(r)[1] is l:
                return l
        if sv0 is not sv1:
            return None
        mask = width - 1
        if _opc(l) == "and" and _apint(_ops(l)[1]) == mask:
            x = _ops(l)[0]
            if _opc(r) == "and" and _apint(_ops(r)[1]) == mask and _is_neg_of(_ops(r)[0], x):
                return x
        if _opc(l) == "zext" and _opc(_ops(l)[0]) == "and" and _apint(_ops(_ops(l)[0])[1]) == mask:
            x = _ops(_ops(l)[0])[0]
            if _opc(r) == "zext":
                rr = _ops(r)[0]
                if _opc(rr) == "and" and _apint(_ops(rr)[1]) == mask and _is_neg_of(_ops(rr)[0], x):
                    return x
        return None

    sh_amt = match_amt(sa0, sa1, nw)
    is_fshl = True
    if sh_amt is None:
        sh_amt = match_amt(sa1, sa0, nw)
        is_fshl = False
    if sh_amt is None:
        return None
    hi_mask = _low(ww) & ~_low(nw)
    if not ic.masked_value_is_zero(sv1, hi_mask, 0, trunc):
        return None
    b = ic.builder
    narrow_amt = b.create_zext_or_trunc(sh_amt, dest)
    x = y = b.create_trunc(sv0, dest)
    if sv0 is not sv1:
        y = b.create_trunc(sv1, dest)
    call = b.create_intrinsic("fshl" if is_fshl else "fshr", [dest], [x, y, narrow_amt])
    return ic.replace_inst_uses_with(trunc, call)


def _is_neg_of(v: Value, x: Value) -> bool:
    return _opc(v) == "sub" and pm.matches(_ops(v)[0], _P_ZERO) and _ops(v)[1] is x


def narrow_bin_op(ic: InstCombiner, trunc: Instruction) -> Instruction | None:
    """trunc (binop X, C) -> binop (trunc X), C' and friends (LLVM ``narrowBinOp``)."""
    src_ty = trunc.operands[0].type
    dest = trunc.type
    src_w = _sw(src_ty)
    dest_w = _sw(dest)
    if not isinstance(src_ty, VectorType) and not should_change_type(ic, src_ty, dest):
        return None
    bo = trunc.operands[0]
    if not isinstance(bo, BinaryOperator) or not bo.has_one_use:
        return None
    b0, b1 = bo.operands
    opc = bo.opcode
    b = ic.builder
    if opc in ("and", "or", "xor", "add", "sub", "mul"):
        if isinstance(b0, Constant):
            nc = _trunc_const(ic, b0, dest)
            tx = b.create_trunc(b1, dest)
            return BinaryOperator.create(opc, nc, tx)
        if isinstance(b1, Constant):
            nc = _trunc_const(ic, b1, dest)
            tx = b.create_trunc(b0, dest)
            return BinaryOperator.create(opc, tx, nc)
        if _opc(b0) in ("zext", "sext") and _ops(b0)[0].type is dest:
            n1 = b.create_trunc(b1, dest)
            return BinaryOperator.create(opc, _ops(b0)[0], n1)
        if _opc(b1) in ("zext", "sext") and _ops(b1)[0].type is dest:
            n0 = b.create_trunc(b0, dest)
            return BinaryOperator.create(opc, n0, _ops(b1)[0])
    elif opc in ("lshr", "ashr"):
        if _opc(b0) == "trunc" and isinstance(b1, Constant):
            a = _ops(b0)[0]
            max_amt = src_w - dest_w
            if _lanes_all(b1, lambda x: x <= max_amt):
                sh = constant_fold_integer_cast(b1, a.type, True, ic.dl)
                if sh is not None:
                    from llvmpy_mid.transform.instcombine.shifts import _merge_undefs_with

                    sh = _merge_undefs_with(sh, b1)
                    if opc == "ashr":
                        shift = b.create_ashr(a, sh, bo.name, exact=bo.exact)
                    else:
                        shift = b.create_lshr(a, sh, bo.name, exact=bo.exact)
                    return CastInst.create("bitcast" if shift.type is dest else "trunc", shift, dest)
    return narrow_funnel_shift(ic, trunc)


def _trunc_const(ic: InstCombiner, c: Constant, ty: Type) -> Constant:
    """``ConstantExpr::getTrunc`` (folded for plain constants)."""
    r = constant_fold_cast_operand("trunc", c, ty, ic.dl)
    return r if r is not None else ConstantExpr.get_cast("trunc", c, ty)


def _shrink_splat_shuffle(ic: InstCombiner, trunc: Instruction) -> Instruction | None:
    shuf = trunc.operands[0]
    if (
        isinstance(shuf, ShuffleVectorInst)
        and shuf.has_one_use
        and pm.matches(shuf.operands[1], _P_UNDEF)
        and len(set(shuf.mask)) <= 1
        and shuf.type is shuf.operands[0].type
    ):
        narrow = ic.builder.create_trunc(shuf.operands[0], trunc.type)
        return ShuffleVectorInst(narrow, PoisonValue.get(narrow.type), shuf.mask)
    return None


def shrink_insert_elt(ic: InstCombiner, trunc: Instruction) -> Instruction | None:
    """trunc/fptrunc (inselt undef, X, Idx) -> inselt undef, (trunc X), Idx (LLVM ``shrinkInsertElt``)."""
    ins = trunc.operands[0]
    if not isinstance(ins, InsertElementInst) or not ins.has_one_use:
        return None
    dest = trunc.type
    vec, scalar, idx = ins.operands
    if pm.matches(vec, _P_UNDEF):
        narrow_undef = UndefValue.get(dest)
        narrow = ic.builder.create_cast(trunc.opcode, scalar, dest.scalar_type)
        return InsertElementInst(narrow_undef, narrow, idx)
    return None


def visit_trunc(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``trunc`` (LLVM ``visitTrunc``)."""
    assert isinstance(i, CastInst)
    r = common_cast_transforms(ic, i)
    if r is not None:
        return r
    src = i.operands[0]
    dest = i.type
    src_ty = src.type
    dest_w = _sw(dest)
    src_w = _sw(src_ty)
    b = ic.builder
    if (isinstance(dest, VectorType) or should_change_type(ic, src_ty, dest)) and can_evaluate_truncated(src, dest, ic, i):
        res = evaluate_in_different_type(ic, src, dest, False)
        return ic.replace_inst_uses_with(i, res)
    if isinstance(dest, IntegerType) and dest_w * 2 < src_w:
        new_dest = dest.context.int_type(dest_w * 2)
        if should_change_type(ic, src_ty, new_dest) and can_evaluate_truncated(src, new_dest, ic, i):
            res = evaluate_in_different_type(ic, src, new_dest, False)
            return CastInst.create("trunc", res, dest)
    if isinstance(src, SelectInst) and match_select_pattern(src)[0] != UNKNOWN:
        return None
    if ic.simplify_demanded_instruction_bits(i):
        return i
    if dest_w == 1:
        zero = Constant.get_null_value(src_ty)
        if _opc(src) in ("lshr", "ashr") and src.has_one_use:
            inner, c2 = _ops(src)
            if _opc(inner) == "shl" and pm.matches(c2, _P_IMM):
                c1 = _apint(_ops(inner)[0])
                if c1 is not None and c1 & (c1 - 1) == 0 and c1:
                    assert isinstance(c2, Constant)
                    log2 = const_int(src_ty, c1.bit_length() - 1)
                    cmp_c = _fold_sub(ic, c2, log2)
                    return ICmpInst(Predicate.ICMP_EQ, _ops(inner)[1], cmp_c)
        if _opc(src) == "lshr" and src.has_one_use and pm.matches(_ops(src)[1], _P_IMM):
            x, c = _ops(src)
            one = const_int(src_ty, 1)
            mask_c = b.create_shl(one, c)
            and_ = b.create_and(x, mask_c)
            return ICmpInst(Predicate.ICMP_NE, and_, zero)
        if _opc(src) == "or" and src.has_one_use:
            for k in (0, 1):
                l = _ops(src)[k]
                x = _ops(src)[1 - k]
                if _opc(l) == "lshr" and _ops(l)[0] is x and pm.matches(_ops(l)[1], _P_IMM):
                    c = _ops(l)[1]
                    one = const_int(src_ty, 1)
                    mask_c = b.create_shl(one, c)
                    and_ = b.create_and(x, b.create_or(mask_c, one))
                    return ICmpInst(Predicate.ICMP_NE, and_, zero)
        if _opc(src) == "shl":
            cs = _apint(_ops(src)[0])
            if cs is not None and cs & 1:
                return ICmpInst(Predicate.ICMP_EQ, _ops(src)[1], zero)
        if (i.nuw or i.nsw) and _opc(src) == "xor":
            return ICmpInst(Predicate.ICMP_NE, _ops(src)[0], _ops(src)[1])
    if _opc(src) == "lshr" and _opc(_ops(src)[0]) == "sext" and isinstance(_ops(src)[1], Constant):
        a = _ops(_ops(src)[0])[0]
        shc = _ops(src)[1]
        assert isinstance(shc, Constant)
        c = shc
        a_w = _sw(a.type)
        max_amt = src_w - max(dest_w, a_w)
        is_exact = bool(getattr(src, "exact", False))
        if _lanes_all(c, lambda x: x <= max_amt):

            def new_sh_amt(width: int) -> Constant:
                return _clamp_trunc(ic, shc, width - 1, a.type)

            if a.type is dest:
                from llvmpy_mid.transform.instcombine.shifts import _merge_undefs_with

                sh = _merge_undefs_with(new_sh_amt(dest_w), c)
                new = BinaryOperator.create("ashr", a, sh)
                new.exact = is_exact
                return new
            if src.has_one_use:
                sh = new_sh_amt(a_w)
                shift = b.create_ashr(a, sh, "", exact=is_exact)
                return create_integer_cast(shift, dest, True)
    r = narrow_bin_op(ic, i)
    if r is not None:
        return r
    r = _shrink_splat_shuffle(ic, i)
    if r is not None:
        return r
    r = shrink_insert_elt(ic, i)
    if r is not None:
        return r
    if src.has_one_use and (isinstance(src_ty, VectorType) or should_change_type(ic, src_ty, dest)):
        if _opc(src) == "shl" and isinstance(_ops(src)[1], Constant):
            a, c = _ops(src)
            assert isinstance(c, Constant)
            if not (_opc(a) in ("lshr", "ashr") and isinstance(_ops(a)[1], Constant)):
                thr = dest_w & _low(_sw(c.type))
                if _lanes_all(c, lambda x: x < thr):
                    nt = b.create_trunc(a, dest, (a.name + ".tr") if a.name else ".tr")
                    return BinaryOperator.create("shl", nt, _trunc_const(ic, c, dest))
    r = _fold_vec_trunc_to_ext_elt(ic, i)
    if r is not None:
        return r
    if _opc(src) == "extractelement" and src.has_one_use:
        vec, idx = _ops(src)
        cst = idx if isinstance(idx, ConstantInt) else None
        if cst is not None:
            vty = vec.type
            assert isinstance(vty, VectorType)
            if src_w % dest_w == 0:
                ratio = src_w // dest_w
                n = vty.count * ratio
                vi = cst.value
                new_idx = (vi + 1) * ratio - 1 if ic.dl.is_big_endian else vi * ratio
                bc_to = dest.context.vector_type(dest, n, vty.scalable)
                bc = b.create_cast("bitcast", vec, bc_to)
                return ExtractElementInst(bc, ConstantInt.get(dest.context.i32, new_idx))
    if src.has_one_use and intrinsic_base_of(src) == "ctlz":
        z = _ops(src)[0]
        if _opc(z) == "zext":
            a = _ops(z)[0]
            bb = _ops(src)[1]
            a_w = _sw(a.type)
            if a_w == dest_w and a_w > src_w.bit_length() - 1:
                wd = const_int(a.type, src_w - a_w)
                narrow = b.create_intrinsic("ctlz", [dest], [a, bb])
                return BinaryOperator.create("add", narrow, wd)
    changed = False
    if not i.nsw and ic.compute_max_significant_bits(src, 0, i) <= dest_w:
        i.nsw = True
        changed = True
    if not i.nuw and ic.masked_value_is_zero(src, _low(src_w) & ~_low(dest_w), 0, i):
        i.nuw = True
        changed = True
    return i if changed else None


def _fold_sub(ic: InstCombiner, a: Constant, b: Constant) -> Constant:
    from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands

    r = constant_fold_binary_op_operands("sub", a, b, ic.dl)
    return r if r is not None else ConstantExpr.get_sub(a, b)


def _clamp_trunc(ic: InstCombiner, c: Constant, max_amt: int, to: Type) -> Constant:
    """trunc (C u< MaxAmt ? C : MaxAmt) to ``to``, lane-wise (poison lanes kept)."""
    ty = c.type
    if isinstance(c, ConstantInt):
        v = c.value if c.value < max_amt else max_amt
        r = constant_fold_cast_operand("trunc", ConstantInt.get(ty, v), to, ic.dl)
        assert r is not None
        return r
    assert isinstance(ty, VectorType)
    elts: list[Constant] = []
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        assert e is not None
        if isinstance(e, ConstantInt):
            e = ConstantInt.get(ty.element_type, e.value if e.value < max_amt else max_amt)
        elts.append(e)
    nc = ConstantVector.get(elts)
    r = constant_fold_cast_operand("trunc", nc, to, ic.dl)
    assert r is not None
    return r


# --- zext -----------------------------------------------------------------------------------------


def transform_zext_icmp(ic: InstCombiner, cmp: ICmpInst, zext: Instruction) -> Instruction | None:
    """zext (icmp ...) -> bit arithmetic (LLVM ``transformZExtICmp``)."""
    b = ic.builder
    op1cv = _apint(cmp.operands[1])
    pred = cmp.predicate
    zty = zext.type
    if op1cv is not None:
        if pred == Predicate.ICMP_SLT and op1cv == 0:
            inp = cmp.operands[0]
            sh = const_int(inp.type, _sw(inp.type) - 1)
            inp = b.create_lshr(inp, sh, (inp.name + ".lobit") if inp.name else ".lobit")
            if inp.type is not zty:
                inp = _create_int_cast(ic, inp, zty, False)
            return ic.replace_inst_uses_with(zext, inp)
        if op1cv == 0 and pred.is_equality:
            known = ic.compute_known_bits(cmp.operands[0], 0, zext)
            kzm = ~known.zero & known.mask
            sh_amt = kzm.bit_length() - 1 if kzm else -1
            is_expect = kzm != 0 and kzm & (kzm - 1) == 0 and _sw(zty) != sh_amt + 1
            if is_expect and (cmp.operands[0].type is zty or pred == Predicate.ICMP_NE or sh_amt == 0):
                inp = cmp.operands[0]
                if sh_amt:
                    inp = b.create_lshr(inp, const_int(inp.type, sh_amt), (inp.name + ".lobit") if inp.name else ".lobit")
                if pred == Predicate.ICMP_EQ:
                    inp = b.create_xor(inp, const_int(inp.type, 1))
                if zty is inp.type:
                    return ic.replace_inst_uses_with(zext, inp)
                return ic.replace_inst_uses_with(zext, _create_int_cast(ic, inp, zty, False))
    if pred.is_equality and zty is cmp.operands[0].type:
        a = cmp.operands[0]
        if cmp.has_one_use and pm.matches(cmp.operands[1], _P_ZERO) and _opc(a) == "and" and a.has_one_use:
            for k in (0, 1):
                s = _ops(a)[k]
                x = _ops(a)[1 - k]
                if _opc(s) == "shl" and pm.matches(_ops(s)[0], _P_ONE):
                    sh_amt_v = _ops(s)[1]
                    if pred == Predicate.ICMP_EQ:
                        x = b.create_not(x)
                    lshr = b.create_lshr(x, sh_amt_v)
                    and1 = b.create_and(lshr, const_int(x.type, 1))
                    return ic.replace_inst_uses_with(zext, and1)
    return None


def visit_zext(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``zext`` (LLVM ``visitZExt``)."""
    assert isinstance(i, CastInst)
    if i.has_one_use and _opc(i.users[0]) == "trunc" and not isinstance(i.operands[0], Constant):
        return None
    r = common_cast_transforms(ic, i)
    if r is not None:
        return r
    src = i.operands[0]
    src_ty = src.type
    dest = i.type
    b = ic.builder
    if _is_bool(src_ty) and i.nneg:
        return ic.replace_inst_uses_with(i, Constant.get_null_value(dest))
    if should_change_type(ic, src_ty, dest):
        btc = can_evaluate_zextd(src, dest, ic, i)
        if btc is not None:
            res = evaluate_in_different_type(ic, src, dest, False)
            if isinstance(src, Instruction) and src.has_one_use:
                replace_all_dbg_uses_with(src, res, i, ic.dt)
            kept = _sw(src_ty) - btc
            dbs = _sw(dest)
            if ic.masked_value_is_zero(res, _low(dbs) & ~_low(kept), 0, i):
                return ic.replace_inst_uses_with(i, res)
            return BinaryOperator.create("and", res, const_int(res.type, _low(kept)))
    if _opc(src) == "trunc":
        a = _ops(src)[0]
        ss, ms, ds = _sw(a.type), _sw(src_ty), _sw(dest)
        if ss < ds:
            and_ = b.create_and(a, const_int(a.type, _low(ms)), (src.name + ".mask") if src.name else ".mask")
            return CastInst.create("zext", and_, dest)
        if ss == ds:
            return BinaryOperator.create("and", a, const_int(a.type, _low(ms)))
        tr = b.create_trunc(a, dest)
        return BinaryOperator.create("and", tr, const_int(tr.type, _low(ms)))
    if isinstance(src, ICmpInst):
        return transform_zext_icmp(ic, src, i)
    if _opc(src) == "and" and src.has_one_use:
        t, c = _ops(src)
        if _opc(t) == "trunc" and isinstance(c, Constant) and _ops(t)[0].type is dest:
            return BinaryOperator.create("and", _ops(t)[0], b.create_zext(c, dest))
    if _opc(src) == "xor" and src.has_one_use and isinstance(_ops(src)[1], Constant):
        and_v, c = _ops(src)
        if _opc(and_v) == "and" and and_v.has_one_use and _ops(and_v)[1] is c:
            t = _ops(and_v)[0]
            if _opc(t) == "trunc" and _ops(t)[0].type is dest:
                x = _ops(t)[0]
                assert isinstance(c, Constant)
                zc = b.create_zext(c, dest)
                return BinaryOperator.create("xor", b.create_and(x, zc), zc)
    if _opc(src) == "and":
        t, c = _ops(src)
        if _opc(t) == "trunc" and isinstance(c, Constant) and _ops(t)[0].type is dest:
            return BinaryOperator.create("and", _ops(t)[0], b.create_zext(c, dest))
    if not i.nneg:
        if i.has_one_use and _sw(src_ty) > (_sw(dest) - 1).bit_length():
            u = i.users[0]
            if _opc(u) in ("shl", "lshr", "ashr") and _ops(u)[1] is i:
                i.nneg = True
                return i
        if is_known_non_negative(src, ic.query(i)):
            i.nneg = True
            return i
    return None


# --- sext -----------------------------------------------------------------------------------------


def transform_sext_icmp(ic: InstCombiner, cmp: ICmpInst, sext: Instruction) -> Instruction | None:
    """sext (icmp ...) -> bit arithmetic (LLVM ``transformSExtICmp``)."""
    op0, op1 = cmp.operands
    pred = cmp.predicate
    b = ic.builder
    sty = sext.type
    if not isinstance(op1.type.scalar_type, IntegerType):
        return None
    if pred == Predicate.ICMP_SLT and pm.matches(op1, _P_ZERO):
        sh = const_int(op0.type, _sw(op0.type) - 1)
        inp = b.create_ashr(op0, sh, (op0.name + ".lobit") if op0.name else ".lobit")
        if inp.type is not sty:
            inp = _create_int_cast(ic, inp, sty, True)
        return ic.replace_inst_uses_with(sext, inp)
    if isinstance(op1, ConstantInt):
        c = op1.value
        if cmp.has_one_use and pred.is_equality and (c == 0 or c & (c - 1) == 0):
            known = ic.compute_known_bits(op0, 0, sext)
            kzm = ~known.zero & known.mask
            if kzm and kzm & (kzm - 1) == 0:
                inp = cmp.operands[0]
                if c != 0 and c != kzm:
                    v = Constant.get_all_ones_value(sty) if pred == Predicate.ICMP_NE else Constant.get_null_value(sty)
                    return ic.replace_inst_uses_with(sext, v)
                w = known.bit_width
                if (c != 0) == (pred == Predicate.ICMP_NE):
                    sh_amt = (kzm & -kzm).bit_length() - 1
                    if sh_amt:
                        inp = b.create_lshr(inp, const_int(inp.type, sh_amt))
                    inp = b.create_add(inp, Constant.get_all_ones_value(inp.type), "sext")
                else:
                    sh_amt = w - kzm.bit_length()
                    if sh_amt:
                        inp = b.create_shl(inp, const_int(inp.type, sh_amt))
                    inp = b.create_ashr(inp, const_int(inp.type, w - 1), "sext")
                if sty is inp.type:
                    return ic.replace_inst_uses_with(sext, inp)
                return create_integer_cast(inp, sty, True)
    return None


def visit_sext(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``sext`` (LLVM ``visitSExt``)."""
    assert isinstance(i, CastInst)
    if i.has_one_use and _opc(i.users[0]) == "trunc":
        return None
    r = common_cast_transforms(ic, i)
    if r is not None:
        return r
    src = i.operands[0]
    src_ty = src.type
    dest = i.type
    sbs = _sw(src_ty)
    dbs = _sw(dest)
    b = ic.builder
    if is_known_non_negative(src, ic.query(i)):
        return CastInst.create("zext", src, dest, nneg=True)
    if should_change_type(ic, src_ty, dest) and can_evaluate_sextd(src, dest):
        res = evaluate_in_different_type(ic, src, dest, True)
        if ic.compute_num_sign_bits(res, 0, i) > dbs - sbs:
            return ic.replace_inst_uses_with(i, res)
        sh = const_int(dest, dbs - sbs)
        return BinaryOperator.create("ashr", b.create_shl(res, sh, "sext"), sh)
    if _opc(src) == "trunc":
        x = _ops(src)[0]
        xbs = _sw(x.type)
        if ic.compute_num_sign_bits(x, 0, i) > xbs - sbs:
            return create_integer_cast(x, dest, True)
        if src.has_one_use and x.type is dest:
            sh = const_int(dest, dbs - sbs)
            return BinaryOperator.create("ashr", b.create_shl(x, sh), sh)
        if src.has_one_use and _opc(x) == "lshr" and _apint_allow_poison(_ops(x)[1]) == xbs - sbs:
            y = _ops(x)[0]
            ashr = b.create_ashr(y, const_int(y.type, xbs - sbs))
            return create_integer_cast(ashr, dest, True)
    if isinstance(src, ICmpInst):
        return transform_sext_icmp(ic, src, i)
    if _opc(src) == "ashr" and _opc(_ops(src)[0]) == "shl":
        shl = _ops(src)[0]
        ca = _ops(src)[1]
        ba = _ops(shl)[1]
        t = _ops(shl)[0]
        if (
            _opc(t) == "trunc"
            and isinstance(ba, Constant)
            and isinstance(ca, Constant)
            and pm.matches(ca, _P_IMM)
            and _elementwise_equal(ba, ca)
            and _ops(t)[0].type is dest
        ):
            assert isinstance(ca, Constant)
            a = _ops(t)[0]
            wide = constant_fold_cast_operand("sext", ca, dest, ic.dl)
            assert wide is not None
            num_low = _fold_sub(ic, const_int(dest, sbs), wide)
            new_sh = _fold_sub(ic, const_int(dest, dbs), num_low)
            from llvmpy_mid.transform.instcombine.shifts import _merge_undefs_with

            new_sh = _merge_undefs_with(_merge_undefs_with(new_sh, ba), ca)
            a2 = b.create_shl(a, new_sh, i.name)
            return BinaryOperator.create("ashr", a2, new_sh)
    if _opc(src) == "ashr" and src.has_one_use and _opc(_ops(src)[0]) == "trunc" and _apint(_ops(src)[1]) == sbs - 1:
        x = _ops(_ops(src)[0])[0]
        xty = x.type
        xbs = _sw(xty)
        shl_c = const_int(xty, xbs - sbs)
        ashr_c = const_int(xty, xbs - 1)
        if xty is dest:
            return BinaryOperator.create("ashr", b.create_shl(x, shl_c), ashr_c)
        if _ops(src)[0].has_one_use:
            ashr = b.create_ashr(b.create_shl(x, shl_c), ashr_c)
            return create_integer_cast(ashr, dest, True)
    return None


def _apint_allow_poison(v: Value) -> int | None:
    from llvmpy_mid.transform.instcombine.shifts import _apint_allow_poison as f

    return f(v)


def _elementwise_equal(a: Constant, b: Constant) -> bool:
    """``Constant::isElementWiseEqual``: equal lane by lane, a poison lane matching anything
    (an undef lane that is not poison matches nothing)."""
    if a is b:
        return True
    ty = a.type
    if not isinstance(ty, VectorType) or ty.scalable or b.type is not ty:
        return False
    if not isinstance(ty.element_type, (IntegerType, FloatingPointType)):
        return False
    for k in range(ty.count):
        x = a.get_aggregate_element(k)
        y = b.get_aggregate_element(k)
        if x is None or y is None:
            return False
        if isinstance(x, PoisonValue) or isinstance(y, PoisonValue):
            continue
        if isinstance(x, UndefValue) or isinstance(y, UndefValue):
            return False
        if x is not y:
            return False
    return True


# --- floating-point casts ---------------------------------------------------------------------------


def _mantissa(ty: Type) -> int:
    s = ty.scalar_type
    if isinstance(s, FloatingPointType):
        if s.type_id == TypeID.PPC_FP128:
            return -1
        return s.mantissa_bits
    return 0


def _fits_in(c: ConstantFP, dst_id: TypeID) -> bool:
    src = apfloat.semantics_of(c.type.type_id)
    dst = apfloat.semantics_of(dst_id)
    if src is None or dst is None:
        return False
    nb = apfloat.convert(src, dst, c.bits)
    back = apfloat.convert(dst, src, nb)
    return back == c.bits


def _shrink_fp_constant(c: ConstantFP, prefer_bf: bool) -> Type | None:
    ctx = c.type.context
    if c.type.type_id == TypeID.PPC_FP128:
        return None
    if prefer_bf and _fits_in(c, TypeID.BFLOAT):
        return ctx.bfloat
    if not prefer_bf and _fits_in(c, TypeID.HALF):
        return ctx.half
    if _fits_in(c, TypeID.FLOAT):
        return ctx.float
    if c.type.type_id == TypeID.DOUBLE:
        return None
    if _fits_in(c, TypeID.DOUBLE):
        return ctx.double
    return None


def _shrink_fp_constant_vector(v: Value, prefer_bf: bool) -> Type | None:
    ty = v.type
    if not isinstance(v, Constant) or not isinstance(ty, VectorType) or ty.scalable:
        return None
    min_t: Type | None = None
    for k in range(ty.count):
        e = v.get_aggregate_element(k)
        if isinstance(e, UndefValue):
            continue
        if not isinstance(e, ConstantFP):
            return None
        t = _shrink_fp_constant(e, prefer_bf)
        if t is None:
            return None
        if min_t is None or _mantissa(t) > _mantissa(min_t):
            min_t = t
    return ty.context.vector_type(min_t, ty.count, False) if min_t is not None else None


def _minimum_fp_type(v: Value, prefer_bf: bool) -> Type:
    if _opc(v) == "fpext" and isinstance(v, Instruction):
        return v.operands[0].type
    if isinstance(v, ConstantFP):
        t = _shrink_fp_constant(v, prefer_bf)
        if t is not None:
            return t
    if isinstance(v, ConstantExpr) and v.opcode == "fpext":
        return v.operands[0].type
    t2 = _shrink_fp_constant_vector(v, prefer_bf)
    if t2 is not None:
        return t2
    return v.type


def is_known_exact_cast_int_to_fp(ic: InstCombiner, i: Instruction) -> bool:
    """``isKnownExactCastIntToFP``: the int-to-FP cast never rounds."""
    src = i.operands[0]
    src_ty = src.type
    is_signed = i.opcode == "sitofp"
    src_size = _sw(src_ty) - (1 if is_signed else 0)
    dest_sig = _mantissa(i.type)
    if src_size <= dest_sig:
        return True
    if _opc(src) in ("fptosi", "fptoui"):
        f = _ops(src)[0]
        src_sig = _mantissa(f.type)
        if not is_signed and _opc(src) == "fptosi":
            src_sig += 1
        if src_sig > 0 and dest_sig > 0 and src_sig <= dest_sig:
            return True
    known = ic.compute_known_bits(src, 0, i)
    sig_bits = _sw(src_ty) - known.count_min_leading_zeros() - known.count_min_trailing_zeros()
    return sig_bits <= dest_sig


def visit_fptrunc(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fptrunc`` (LLVM ``visitFPTrunc``)."""
    r = common_cast_transforms(ic, i)
    if r is not None:
        return r
    ty = i.type
    b = ic.builder
    bo = i.operands[0]
    prefer_bf = ty.scalar_type.type_id == TypeID.BFLOAT
    if isinstance(bo, BinaryOperator) and bo.has_one_use:
        lmin = _minimum_fp_type(bo.operands[0], prefer_bf)
        rmin = _minimum_fp_type(bo.operands[1], prefer_bf)
        op_w = _mantissa(bo.type)
        lw = _mantissa(lmin)
        rw = _mantissa(rmin)
        sw = max(lw, rw)
        dw = _mantissa(ty)
        opc = bo.opcode
        if opc in ("fadd", "fsub"):
            if op_w >= 2 * dw + 1 and dw >= sw:
                lhs = b.create_cast("fptrunc", bo.operands[0], ty)
                rhs = b.create_cast("fptrunc", bo.operands[1], ty)
                ri = BinaryOperator.create(opc, lhs, rhs)
                ri.fast_math_flags = bo.fast_math_flags
                return ri
        elif opc == "fmul":
            if op_w >= lw + rw and dw >= sw:
                lhs = b.create_cast("fptrunc", bo.operands[0], ty)
                rhs = b.create_cast("fptrunc", bo.operands[1], ty)
                ri = BinaryOperator.create("fmul", lhs, rhs)
                ri.fast_math_flags = bo.fast_math_flags
                return ri
        elif opc == "fdiv":
            if op_w >= 2 * dw and dw >= sw:
                lhs = b.create_cast("fptrunc", bo.operands[0], ty)
                rhs = b.create_cast("fptrunc", bo.operands[1], ty)
                ri = BinaryOperator.create("fdiv", lhs, rhs)
                ri.fast_math_flags = bo.fast_math_flags
                return ri
        elif opc == "frem":
            if sw != op_w:
                mt = lmin if lw == sw else rmin
                lhs = b.create_cast("fptrunc", bo.operands[0], mt)
                rhs = b.create_cast("fptrunc", bo.operands[1], mt)
                exact = b.create_bin_op("frem", lhs, rhs)
                if isinstance(exact, BinaryOperator):
                    exact.fast_math_flags = bo.fast_math_flags
                sb, db = _sw(exact.type), _sw(ty)
                return CastInst.create("bitcast" if sb == db else "fptrunc" if sb > db else "fpext", exact, ty)
    op = i.operands[0]
    if isinstance(op, Instruction) and op.has_one_use:
        fmf = _fmf_of(op)
        if _opc(op) == "fneg" or (_opc(op) == "fsub" and pm.matches(op, _P_FNEG)):
            m = pm.match(op, _P_FNEG)
            assert m is not None
            inner = b.create_cast("fptrunc", m.value("x"), ty)
            if isinstance(inner, Instruction) and fmf:
                _set_fmf(inner, fmf)
            neg = UnaryOperator.create("fneg", inner)
            neg.fast_math_flags = _fmf_of(op)
            return neg
        if isinstance(op, SelectInst):
            cond, tv, fv = op.operands
            if _opc(tv) == "fpext" and _ops(tv)[0].type is ty:
                ny = b.create_cast("fptrunc", fv, ty)
                _set_fmf_if(ny, fmf)
                sel = b.create_select(cond, _ops(tv)[0], ny, "narrow.sel", fast_math_flags=fmf or None)
                _copy_select_md_v(sel, op)
                return ic.replace_inst_uses_with(i, sel)
            if _opc(fv) == "fpext" and _ops(fv)[0].type is ty:
                ny = b.create_cast("fptrunc", tv, ty)
                _set_fmf_if(ny, fmf)
                sel = b.create_select(cond, ny, _ops(fv)[0], "narrow.sel", fast_math_flags=fmf or None)
                _copy_select_md_v(sel, op)
                return ic.replace_inst_uses_with(i, sel)
    iid = intrinsic_base_of(op)
    if iid in ("ceil", "fabs", "floor", "nearbyint", "rint", "round", "roundeven", "trunc"):
        assert isinstance(op, CallInst)
        s = op.operands[0]
        if s.has_one_use:
            ok = True
            if iid != "fabs":
                ok = _opc(s) == "fpext" and _ops(s)[0].type is ty
            if ok:
                inner = b.create_cast("fptrunc", s, ty)
                call = b.create_intrinsic(iid, [ty], [inner], fmf_source=op)
                return ic.replace_inst_uses_with(i, call)
    r = shrink_insert_elt(ic, i)
    if r is not None:
        return r
    src = i.operands[0]
    if _opc(src) in ("sitofp", "uitofp") and isinstance(src, Instruction):
        if is_known_exact_cast_int_to_fp(ic, src):
            return CastInst.create(src.opcode, src.operands[0], ty)
    return None


_P_FNEG = pm.m_fneg(pm.m_value("x"))


def _fmf_of(i: Value) -> int:
    f = getattr(i, "fast_math_flags", 0)
    return int(f)


def _set_fmf(i: Instruction, fmf: int) -> None:
    try:
        i.fast_math_flags = fmf  # type: ignore[attr-defined]
    except Exception:  # pragma: no cover - instructions without FMF
        pass


def _set_fmf_if(v: Value, fmf: int) -> None:
    if fmf and isinstance(v, Instruction):
        _set_fmf(v, fmf)


def visit_fpext(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fpext`` (LLVM ``visitFPExt``)."""
    src = i.operands[0]
    if _opc(src) in ("sitofp", "uitofp") and isinstance(src, Instruction):
        if is_known_exact_cast_int_to_fp(ic, src):
            return CastInst.create(src.opcode, src.operands[0], i.type)
    return common_cast_transforms(ic, i)


def fold_ito_fp_to_i(ic: InstCombiner, fi: Instruction) -> Instruction | None:
    """fpto[su]i ([su]itofp X) -> X, ext X or trunc X (LLVM ``foldItoFPtoI``)."""
    opi = fi.operands[0]
    if _opc(opi) not in ("uitofp", "sitofp") or not isinstance(opi, Instruction):
        return None
    x = opi.operands[0]
    xty = x.type
    dest = fi.type
    out_signed = fi.opcode == "fptosi"
    if not is_known_exact_cast_int_to_fp(ic, opi):
        if _sw(dest) > _mantissa(opi.type):
            return None
    if _sw(dest) > _sw(xty):
        if opi.opcode == "sitofp" and out_signed:
            return CastInst.create("sext", x, dest)
        return CastInst.create("zext", x, dest)
    if _sw(dest) < _sw(xty):
        return CastInst.create("trunc", x, dest)
    return ic.replace_inst_uses_with(fi, x)


def _fold_fp_to_i(ic: InstCombiner, fi: Instruction) -> Instruction | None:
    """fpto[su]i of a value never normal -> 0 (LLVM ``foldFPtoI``)."""
    mask = FC_POS_NORMAL if fi.opcode == "fptoui" else (FC_POS_NORMAL | FC_NEG_NORMAL)
    if not possible_fp_classes(fi.operands[0]) & mask:
        return ic.replace_inst_uses_with(fi, Constant.get_null_value(fi.type))
    return None


def visit_fptoui(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fptoui`` (LLVM ``visitFPToUI``)."""
    r = fold_ito_fp_to_i(ic, i)
    if r is not None:
        return r
    r = _fold_fp_to_i(ic, i)
    if r is not None:
        return r
    return common_cast_transforms(ic, i)


def visit_fptosi(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fptosi`` (LLVM ``visitFPToSI``)."""
    r = fold_ito_fp_to_i(ic, i)
    if r is not None:
        return r
    r = _fold_fp_to_i(ic, i)
    if r is not None:
        return r
    return common_cast_transforms(ic, i)


def visit_uitofp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``uitofp`` (LLVM ``visitUIToFP``)."""
    assert isinstance(i, CastInst)
    r = common_cast_transforms(ic, i)
    if r is not None:
        return r
    if not i.nneg and is_known_non_negative(i.operands[0], ic.sq):
        i.nneg = True
        return i
    return None


def visit_sitofp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``sitofp`` (LLVM ``visitSIToFP``)."""
    r = common_cast_transforms(ic, i)
    if r is not None:
        return r
    if is_known_non_negative(i.operands[0], ic.sq):
        return CastInst.create("uitofp", i.operands[0], i.type, nneg=True)
    return None


# --- pointer casts ----------------------------------------------------------------------------------


def visit_inttoptr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``inttoptr`` (LLVM ``visitIntToPtr``)."""
    pty = i.type.scalar_type
    assert isinstance(pty, PointerType)
    as_ = pty.address_space
    if _sw(i.operands[0].type) != ic.dl.pointer_size_in_bits(as_):
        ty = _with_scalar(i.operands[0].type, ic.dl.int_ptr_type_for(i.type.context, as_))
        p = ic.builder.create_zext_or_trunc(i.operands[0], ty)
        return CastInst.create("inttoptr", p, i.type)
    return common_cast_transforms(ic, i)


def visit_ptrtoint(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``ptrtoint`` (LLVM ``visitPtrToInt``)."""
    src = i.operands[0]
    src_ty = src.type
    ty = i.type
    pty = src_ty.scalar_type
    assert isinstance(pty, PointerType)
    as_ = pty.address_space
    b = ic.builder
    if _sw(ty) != ic.dl.pointer_size_in_bits(as_):
        ipt = _with_scalar(src_ty, ic.dl.int_ptr_type_for(ty.context, as_))
        p = b.create_cast("ptrtoint", src, ipt)
        return create_integer_cast(p, ty, False)
    if src.has_one_use and intrinsic_base_of(src) == "ptrmask":
        ptr, mask = _ops(src)[0], _ops(src)[1]
        if mask.type is ty:
            return BinaryOperator.create("and", b.create_cast("ptrtoint", ptr, ty), mask)
    emit_gep_offset = getattr(_gep_module(), "emit_gep_offset", None)
    if _opc(src) == "getelementptr" and emit_gep_offset is not None:
        base_ptr = _ops(src)[0]
        if src.has_one_use and isinstance(base_ptr, ConstantPointerNull):
            off = emit_gep_offset(b, ic.dl, src)
            return ic.replace_inst_uses_with(i, _create_int_cast(ic, off, ty, False))
        if src.has_one_use and _opc(base_ptr) == "inttoptr" and base_ptr.has_one_use and _ops(base_ptr)[0].type is ty:
            base = _ops(base_ptr)[0]
            off = emit_gep_offset(b, ic.dl, src)
            new = BinaryOperator.create("add", base, off)
            from llvmpy_mid.transform.instcombine.gep import gep_flags

            fl = int(gep_flags(src))
            if fl & 4 or (fl & 2 and is_known_non_negative(off, ic.query(i))):
                new.nuw = True
            return new
    if _opc(src) == "insertelement" and src.has_one_use:
        vec_p, scalar, idx = _ops(src)
        if _opc(vec_p) == "inttoptr" and _ops(vec_p)[0].type is ty:
            nc = b.create_cast("ptrtoint", scalar, ty.scalar_type)
            return InsertElementInst(_ops(vec_p)[0], nc, idx)
    return common_cast_transforms(ic, i)


def _gep_module() -> object:
    from llvmpy_mid.transform.instcombine import gep

    return gep


def visit_addrspacecast(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``addrspacecast`` (LLVM ``visitAddrSpaceCast``)."""
    return common_cast_transforms(ic, i)


# --- bitcast ----------------------------------------------------------------------------------------


def optimize_vector_resize_with_integer_bit_casts(ic: InstCombiner, in_val: Value, dest: VectorType) -> Instruction | None:
    """bitcast (zext/trunc (bitcast V)) between vectors -> shufflevector
    (LLVM ``optimizeVectorResizeWithIntegerBitCasts``)."""
    src_ty = in_val.type
    assert isinstance(src_ty, VectorType)
    if src_ty.element_type is not dest.element_type:
        if _prim_bits(src_ty.element_type) != _prim_bits(dest.element_type):
            return None
        src_ty = dest.context.vector_type(dest.element_type, src_ty.count, False)
        in_val = ic.builder.create_cast("bitcast", in_val, src_ty)
    big = ic.dl.is_big_endian
    se = src_ty.count
    de = dest.count
    mask = list(range(se))
    if se > de:
        v2: Constant = PoisonValue.get(src_ty)
        mask = mask[se - de:] if big else mask[:de]
    else:
        v2 = Constant.get_null_value(src_ty)
        delta = de - se
        mask = [se] * delta + mask if big else mask + [se] * delta
    return ShuffleVectorInst(in_val, v2, mask)


def _canonicalize_bitcast_ext_elt(ic: InstCombiner, bc: Instruction) -> Instruction | None:
    src = bc.operands[0]
    if _opc(src) != "extractelement" or not src.has_one_use:
        return None
    vec, idx = _ops(src)
    dest = bc.type
    vty = vec.type
    assert isinstance(vty, VectorType)
    if isinstance(dest, (IntegerType, FloatingPointType, PointerType)):
        nvt = dest.context.vector_type(dest, vty.count, vty.scalable)
        nbc = ic.builder.create_cast("bitcast", vec, nvt, "bc")
        return ExtractElementInst(nbc, idx)
    if isinstance(dest, VectorType) and not vty.scalable and vty.count == 1:
        return CastInst.create("bitcast", vec, dest)
    return None


def _is_fp_ty(ty: Type) -> bool:
    return isinstance(ty.scalar_type, FloatingPointType)


def _is_int_ty(ty: Type) -> bool:
    return isinstance(ty.scalar_type, IntegerType)


def _bit_or_pointer_cast(v: Value, ty: Type) -> CastInst:
    """``CastInst::CreateBitOrPointerCast``."""
    if isinstance(v.type.scalar_type, PointerType) and _is_int_ty(ty):
        return CastInst.create("ptrtoint", v, ty)
    if _is_int_ty(v.type) and isinstance(ty.scalar_type, PointerType):
        return CastInst.create("inttoptr", v, ty)
    return CastInst.create("bitcast", v, ty)


def _fold_bitcast_bitwise_logic(ic: InstCombiner, bc: Instruction) -> Instruction | None:
    dest = bc.type
    bo = bc.operands[0]
    if not isinstance(bo, BinaryOperator) or not bo.has_one_use or bo.opcode not in ("and", "or", "xor"):
        return None
    if not isinstance(dest, VectorType) or not isinstance(bo.type, VectorType):
        return None
    b = ic.builder
    b0, b1 = bo.operands
    if _is_fp_ty(dest):
        if _opc(b0) == "bitcast" and b0.has_one_use and _opc(b1) == "bitcast" and b1.has_one_use:
            x, y = _ops(b0)[0], _ops(b1)[0]
            if _is_fp_ty(x.type) and _is_int_ty(y.type):
                c = b.create_cast("bitcast", b0, y.type)
                nb = b.create_bin_op(bo.opcode, c, y)
                return _bit_or_pointer_cast(nb, dest)
            if _is_int_ty(x.type) and _is_fp_ty(y.type):
                c = b.create_cast("bitcast", b1, x.type)
                nb = b.create_bin_op(bo.opcode, c, x)
                return _bit_or_pointer_cast(nb, dest)
        return None
    if not _is_int_ty(dest):
        return None
    if _opc(b0) == "bitcast" and b0.has_one_use:
        x = _ops(b0)[0]
        if x.type is dest and not isinstance(x, Constant):
            c1 = b.create_cast("bitcast", b1, dest)
            return BinaryOperator.create(bo.opcode, x, c1)
    if _opc(b1) == "bitcast" and b1.has_one_use:
        x = _ops(b1)[0]
        if x.type is dest and not isinstance(x, Constant):
            c0 = b.create_cast("bitcast", b0, dest)
            return BinaryOperator.create(bo.opcode, c0, x)
    if isinstance(b1, Constant):
        c0 = b.create_cast("bitcast", b0, dest)
        cc = b.create_cast("bitcast", b1, dest)
        return BinaryOperator.create(bo.opcode, c0, cc)
    return None


def _fold_bitcast_select(ic: InstCombiner, bc: Instruction) -> Instruction | None:
    sel = bc.operands[0]
    if not isinstance(sel, SelectInst) or not sel.has_one_use:
        return None
    cond, tv, fv = sel.operands
    dest = bc.type
    cty = cond.type
    if isinstance(cty, VectorType):
        if not isinstance(dest, VectorType) or cty.count != dest.count or cty.scalable != dest.scalable:
            return None
    if isinstance(dest, VectorType) != isinstance(tv.type, VectorType):
        return None
    b = ic.builder
    if _opc(tv) == "bitcast" and tv.has_one_use:
        x = _ops(tv)[0]
        if x.type is dest and not isinstance(x, Constant):
            cv = b.create_cast("bitcast", fv, dest)
            new = SelectInst(cond, x, cv)
            _copy_select_md(new, sel)
            return new
    if _opc(fv) == "bitcast" and fv.has_one_use:
        x = _ops(fv)[0]
        if x.type is dest and not isinstance(x, Constant):
            cv = b.create_cast("bitcast", tv, dest)
            new = SelectInst(cond, cv, x)
            _copy_select_md(new, sel)
            return new
    return None


def _copy_select_md_v(new: Value, src: Instruction) -> None:
    if isinstance(new, Instruction):
        _copy_select_md(new, src)


def _copy_select_md(new: Instruction, src: Instruction) -> None:
    for kind in ("prof", "unpredictable"):
        md = src.get_metadata(kind)
        if md is not None:
            new.set_metadata(kind, md)


def visit_bitcast(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``bitcast`` (LLVM ``visitBitCast``)."""
    src = i.operands[0]
    src_ty = src.type
    dest = i.type
    b = ic.builder
    if dest is src_ty:
        return ic.replace_inst_uses_with(i, src)
    if isinstance(dest, VectorType) and not dest.scalable:
        if dest.count == 1 and src_ty.type_id == TypeID.X86_MMX:
            elem = b.create_cast("bitcast", src, dest.element_type)
            return InsertElementInst(PoisonValue.get(dest), elem, Constant.get_null_value(i.context.i32))
        if isinstance(src_ty, IntegerType):
            if _opc(src) in ("trunc", "zext"):
                bcin = _ops(src)[0]
                if _opc(bcin) == "bitcast" and isinstance(_ops(bcin)[0].type, VectorType):
                    r = optimize_vector_resize_with_integer_bit_casts(ic, _ops(bcin)[0], dest)
                    if r is not None:
                        return r
            v = optimize_integer_to_vector_insertions(ic, i)
            if v is not None:
                return ic.replace_inst_uses_with(i, v)
    if isinstance(src_ty, VectorType) and not src_ty.scalable:
        if src_ty.count == 1:
            if not isinstance(dest, VectorType):
                elem = b.create_extract_element(src, Constant.get_null_value(i.context.i32))
                return CastInst.create("bitcast", elem, dest)
            if isinstance(src, InsertElementInst):
                return CastInst.create("bitcast", src.operands[1], dest)
        bw = _sw(dest)
        if _opc(src) == "insertelement" and src.has_one_use:
            bcx, y, idx = _ops(src)
            if _opc(bcx) == "bitcast" and bcx.has_one_use and isinstance(idx, ConstantInt):
                x = _ops(bcx)[0]
                if (
                    isinstance(dest, IntegerType)
                    and x.type is dest
                    and isinstance(y.type, IntegerType)
                    and is_desirable_int_type(ic, bw)
                ):
                    index = idx.value
                    if ic.dl.is_big_endian:
                        index = src_ty.count - 1 - index
                    if index == 0:
                        ew = _sw(y.type)
                        mask_c = _low(bw) & ~_low(ew)
                        and_x = b.create_and(x, const_int(dest, mask_c))
                        zy = b.create_zext(y, dest)
                        return BinaryOperator.create("or", and_x, zy)
    if isinstance(src, ShuffleVectorInst):
        s0, s1 = src.operands
        sty = src.type
        s0ty = s0.type
        assert isinstance(sty, VectorType) and isinstance(s0ty, VectorType)
        if (
            src.has_one_use
            and isinstance(dest, VectorType)
            and dest.count == sty.count
            and dest.scalable == sty.scalable
            and sty.count == s0ty.count
            and sty.scalable == s0ty.scalable
        ):
            if (_opc(s0) == "bitcast" and isinstance(s0, Instruction) and _ops(s0)[0].type is dest) or (
                _opc(s1) == "bitcast" and isinstance(s1, Instruction) and _ops(s1)[0].type is dest
            ):
                lhs = b.create_cast("bitcast", s0, dest)
                rhs = b.create_cast("bitcast", s1, dest)
                return ShuffleVectorInst(lhs, rhs, src.mask)
        if isinstance(dest, IntegerType) and sty.count % 2 == 0 and src.has_one_use and _is_reverse(src):
            name = ""
            if ic.dl.is_legal_integer(dest.width) and _sw(src_ty) == 8:
                name = "bswap"
            elif _sw(src_ty) == 1:
                name = "bitreverse"
            if name:
                scalar_x = b.create_cast("bitcast", s0, dest)
                call = b.create_intrinsic(name, [dest], [scalar_x])
                return ic.replace_inst_uses_with(i, call)
    if isinstance(src, PHINode):
        r = optimize_bitcast_from_phi(ic, i, src)
        if r is not None:
            return r
    r = _canonicalize_bitcast_ext_elt(ic, i)
    if r is not None:
        return r
    r = _fold_bitcast_bitwise_logic(ic, i)
    if r is not None:
        return r
    r = _fold_bitcast_select(ic, i)
    if r is not None:
        return r
    return common_cast_transforms(ic, i)


def _collect_insertion_elements(
    ic: InstCombiner, v: Value, shift: int, elements: list[Value | None], elt_ty: Type, big_endian: bool
) -> bool:
    """``collectInsertionElements``: the vector lanes an or/shl/zext tree of ``v`` fills."""
    esize = _prim_bits(elt_ty)
    if isinstance(v, UndefValue):
        return True
    if v.type is elt_ty:
        if isinstance(v, Constant) and v.is_null_value:
            return True
        idx = shift // esize
        if big_endian:
            idx = len(elements) - idx - 1
        if elements[idx] is not None:
            return False
        elements[idx] = v
        return True
    if isinstance(v, Constant):
        n = _prim_bits(v.type) // esize
        if n == 1:
            bc = constant_fold_cast_operand("bitcast", v, elt_ty, ic.dl)
            if bc is None:
                bc = ConstantExpr.get_cast("bitcast", v, elt_ty)
            return _collect_insertion_elements(ic, bc, shift, elements, elt_ty, big_endian)
        c: Constant = v
        if not isinstance(c.type, IntegerType):
            ity = c.type.context.int_type(_prim_bits(c.type))
            cc = constant_fold_cast_operand("bitcast", c, ity, ic.dl)
            c = cc if cc is not None else ConstantExpr.get_cast("bitcast", c, ity)
        eity = c.type.context.int_type(esize)
        from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands

        for k in range(n):
            sh = k * esize
            piece = constant_fold_binary_op_operands("lshr", c, const_int(c.type, sh), ic.dl)
            if piece is None:
                return False
            piece = _trunc_const(ic, piece, eity)
            if not _collect_insertion_elements(ic, piece, sh + shift, elements, elt_ty, big_endian):
                return False
        return True
    if not v.has_one_use or not isinstance(v, Instruction):
        return False
    opc = v.opcode
    if opc == "bitcast":
        if isinstance(v.operands[0].type, VectorType):
            return False
        return _collect_insertion_elements(ic, v.operands[0], shift, elements, elt_ty, big_endian)
    if opc == "zext":
        if _prim_bits(v.operands[0].type) % esize:
            return False
        return _collect_insertion_elements(ic, v.operands[0], shift, elements, elt_ty, big_endian)
    if opc == "or":
        return _collect_insertion_elements(ic, v.operands[0], shift, elements, elt_ty, big_endian) and (
            _collect_insertion_elements(ic, v.operands[1], shift, elements, elt_ty, big_endian)
        )
    if opc == "shl":
        ci = v.operands[1]
        if not isinstance(ci, ConstantInt):
            return False
        shift += ci.value
        if shift % esize:
            return False
        return _collect_insertion_elements(ic, v.operands[0], shift, elements, elt_ty, big_endian)
    return False


def optimize_integer_to_vector_insertions(ic: InstCombiner, ci: Instruction) -> Value | None:
    """bitcast (or (shl (zext A), K), (zext B)) to <N x T> -> insertelement chain
    (LLVM ``optimizeIntegerToVectorInsertions``)."""
    dest = ci.type
    assert isinstance(dest, VectorType)
    elements: list[Value | None] = [None] * dest.count
    if not _collect_insertion_elements(ic, ci.operands[0], 0, elements, dest.element_type, ic.dl.is_big_endian):
        return None
    result: Value = Constant.get_null_value(dest)
    i32 = dest.context.i32
    for k, e in enumerate(elements):
        if e is None:
            continue
        result = ic.builder.create_insert_element(result, e, ConstantInt.get(i32, k))
    return result


def optimize_bitcast_from_phi(ic: InstCombiner, ci: Instruction, pn: PHINode) -> Instruction | None:
    """A -> B bitcasts around a web of phis of B: the phis become phis of A
    (LLVM ``optimizeBitCastFromPhi``)."""
    from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst

    if all(isinstance(u, StoreInst) for u in ci.users):
        return None
    src_ty = ci.operands[0].type
    dest = ci.type
    worklist: list[PHINode] = [pn]
    old: dict[PHINode, None] = {pn: None}
    while worklist:
        opn = worklist.pop()
        for inc in opn.incoming_values:
            if isinstance(inc, Constant):
                continue
            if isinstance(inc, LoadInst):
                addr = inc.operands[0]
                if addr is ci or isinstance(addr, LoadInst):
                    return None
                if inc.has_one_use and inc.is_simple:
                    continue
                return None
            if isinstance(inc, PHINode):
                if inc not in old:
                    old[inc] = None
                    worklist.append(inc)
                continue
            if _opc(inc) != "bitcast" or not isinstance(inc, Instruction):
                return None
            if inc.operands[0].type is not dest or inc.type is not src_ty:
                return None
    for opn in old:
        for u in opn.users:
            if isinstance(u, StoreInst):
                if not u.is_simple or u.operands[0] is not opn:
                    return None
            elif _opc(u) == "bitcast" and isinstance(u, Instruction):
                if u.type is not dest or u.operands[0].type is not src_ty:
                    return None
            elif isinstance(u, PHINode):
                if u not in old:
                    return None
            else:
                return None
    b = ic.builder
    new_pns: dict[PHINode, PHINode] = {}
    for opn in old:
        b.position_before(opn)
        new_pns[opn] = b.phi(dest)
    for opn in old:
        npn = new_pns[opn]
        for j in range(opn.num_incoming):
            v = opn.get_incoming_value(j)
            nv: Value
            if isinstance(v, Constant):
                c = constant_fold_cast_operand("bitcast", v, dest, ic.dl)
                nv = c if c is not None else ConstantExpr.get_cast("bitcast", v, dest)
            elif isinstance(v, LoadInst):
                from llvmpy_mid.transform.instcombine.load_store_alloca import combine_load_to_new_type

                b.position_before(v)
                nv = combine_load_to_new_type(ic, v, dest)
                ic.replace_inst_uses_with(v, PoisonValue.get(v.type))
                ic.erase_inst_from_function(v)
            elif isinstance(v, PHINode):
                nv = new_pns[v]
            else:
                nv = _ops(v)[0]
            npn.add_incoming(nv, opn.get_incoming_block(j))
    ret: Instruction | None = None
    for opn in old:
        npn = new_pns[opn]
        for u in list(opn.users):
            if isinstance(u, StoreInst):
                b.position_before(u)
                b.debug_loc = u.debug_loc
                nbc = b.create_cast("bitcast", npn, src_ty)
                u.set_operand(0, nbc)
                ic.worklist.push(u)
            elif _opc(u) == "bitcast" and isinstance(u, Instruction):
                r = ic.replace_inst_uses_with(u, npn)
                if u is ci:
                    ret = r
    return ret


def _is_reverse(s: ShuffleVectorInst) -> bool:
    """``ShuffleVectorInst::isReverse``: one source, lanes read back to front (undef lanes allowed)."""
    m = s.mask
    n = len(m)
    src_ty = s.operands[0].type
    assert isinstance(src_ty, VectorType)
    if n != src_ty.count:
        return False
    uses_l = uses_r = False
    all_undef = True
    for k, e in enumerate(m):
        if e < 0:
            continue
        all_undef = False
        if e == n - 1 - k:
            uses_l = True
        elif e == 2 * n - 1 - k:
            uses_r = True
        else:
            return False
    return not all_undef and uses_l != uses_r


__all__ = [
    "can_evaluate_sextd",
    "can_evaluate_truncated",
    "can_evaluate_zextd",
    "common_cast_transforms",
    "create_integer_cast",
    "evaluate_in_different_type",
    "fold_ito_fp_to_i",
    "is_eliminable_cast_pair",
    "is_known_exact_cast_int_to_fp",
    "narrow_bin_op",
    "narrow_funnel_shift",
    "optimize_bitcast_from_phi",
    "optimize_integer_to_vector_insertions",
    "optimize_vector_resize_with_integer_bit_casts",
    "shrink_insert_elt",
    "transform_sext_icmp",
    "transform_zext_icmp",
    "visit_addrspacecast",
    "visit_bitcast",
    "visit_fpext",
    "visit_fptosi",
    "visit_fptoui",
    "visit_fptrunc",
    "visit_inttoptr",
    "visit_ptrtoint",
    "visit_sext",
    "visit_sitofp",
    "visit_trunc",
    "visit_uitofp",
    "visit_zext",
]
