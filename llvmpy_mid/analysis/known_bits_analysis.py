"""``computeKnownBits`` (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``): the bits of
an integer, pointer or vector value known zero and one, from constants, every
opcode LLVM handles (bitwise operations and their ``x & -x`` / ``x ^ (x-1)``
idioms, add/sub with wrap flags, mul, divisions and remainders, shifts, casts,
select with what its condition implies, phi with LLVM's recursion rules and the
branch on the incoming edge, GEP offsets, pointer alignment, ``!range`` metadata,
``range`` attributes, ``returned`` arguments, the bit intrinsics, min/max,
saturating arithmetic, funnel shifts, vector reductions and element demands),
and ``llvm.assume`` facts valid at the query's context instruction. The
recursion is bounded by ``MAX_ANALYSIS_RECURSION_DEPTH``. Also the derived
queries ``MaskedValueIsZero``, ``isKnownNonNegative``/``Negative`` and
``haveNoCommonBitsSet``. Import them from :mod:`llvmpy_mid.analysis.value_tracking`.

What it does not do (yet): known floating-point classes (a bitcast from a float
gives nothing) and dominating conditions.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.poison_tracking import (
    get_splat_value,
    is_guaranteed_not_to_be_poison,
    is_guaranteed_not_to_be_undef,
    match_apint,
)
from llvmpy_mid.analysis.simplify_query import SimplifyQuery, as_query
from llvmpy_mid.analysis.value_tracking_support import (
    _MAX,
    _all_demanded,
    _apint,
    _exact,
    _gep_steps,
    _intrinsic,
    _is_add_all_ones_of,
    _is_all_ones,
    _is_neg_of,
    _is_operator,
    _known_bits_from_cond,
    _known_bits_from_context,
    _nsw,
    _nuw,
    _opcode,
    _operand,
    _range_attribute,
    _scalar_bit_width,
    _shuffle_demanded,
    compute_known_bits_from_range_metadata,
    get_returned_arg_operand,
    get_vscale_range,
    match_simple_recurrence,
)
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantInt,
    ConstantPointerNull,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.data_layout import FunctionPtrAlignType
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.types import IntegerType, PointerType, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.value import Value


def compute_known_bits(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> KnownBits:
    """The bits of ``v`` known zero and known one (for vectors, in every lane)
    (LLVM ``computeKnownBits``). ``v`` is an integer, a pointer, or a vector of them."""
    # With a SimplifyQuery the context is the query's, as LLVM's SimplifyQuery overloads.
    sq = as_query(q)
    return _known(v, _all_demanded(v.type), depth, sq)


def compute_known_bits_for_lanes(v: Value, demanded: int, q: SimplifyQuery | DataLayout, depth: int = 0) -> KnownBits:
    """:func:`compute_known_bits` for the lanes set in ``demanded`` only."""
    # With a SimplifyQuery the context is the query's, as LLVM's SimplifyQuery overloads.
    sq = as_query(q)
    return _known(v, demanded, depth, sq)


def _known(v: Value, demanded: int, depth: int, q: SimplifyQuery) -> KnownBits:
    ty = v.type
    if type(ty) is IntegerType:
        w = ty.width
    else:
        w = _scalar_bit_width(ty, q.dl)
    if not demanded:
        return KnownBits(w)
    if type(v) is ConstantInt:
        return KnownBits(w, ~v.value & ((1 << w) - 1), v.value)
    if isinstance(v, Constant):
        return _known_constant(v, w, demanded, depth, q)
    known = KnownBits(w)
    if isinstance(v, Argument):
        cr = _range_attribute(v)
        if cr is not None:
            known = cr.to_known_bits()
    if depth == _MAX:
        return known
    if isinstance(v, Instruction):
        known = _known_from_operator(v, demanded, known, depth, q)
    if type(ty) is PointerType:
        align = _pointer_alignment(v, q.dl)
        if align > 1:
            known = KnownBits(w, known.zero | ((align - 1) & ((1 << w) - 1)), known.one)
    if q.cxt_i is None:
        return known
    ac = q.ac
    if q.dc is None and (ac is None or ac.is_empty()):
        return known
    return _known_bits_from_context(v, known, depth, q)


def _known_constant(v: Constant, w: int, demanded: int, depth: int, q: SimplifyQuery) -> KnownBits:
    """``_known`` for constants: integers and splats, null and zero, data and element vectors,
    undef, aliases, globals' alignment and constant expressions."""
    c = match_apint(v)
    if c is not None:
        return KnownBits.make_constant(c.value, w)
    if isinstance(v, (ConstantPointerNull, ConstantAggregateZero)):
        return KnownBits(w, (1 << w) - 1, 0)
    if isinstance(v, ConstantDataVector):
        m = (1 << w) - 1
        zero = one = m
        for i, e in enumerate(v.elements):
            if not (demanded >> i) & 1:
                continue
            assert isinstance(e, ConstantInt)
            zero &= ~e.value & m
            one &= e.value
        if zero & one:
            return KnownBits(w)
        return KnownBits(w, zero, one)
    if isinstance(v, ConstantVector):
        m = (1 << w) - 1
        zero = one = m
        for i, e in enumerate(v.elements):
            if not (demanded >> i) & 1:
                continue
            if isinstance(e, PoisonValue):
                continue
            if not isinstance(e, ConstantInt):
                return KnownBits(w)
            zero &= ~e.value & m
            one &= e.value
        if zero & one:
            return KnownBits(w)
        return KnownBits(w, zero, one)
    known = KnownBits(w)
    if isinstance(v, UndefValue):
        return known
    if depth == _MAX:
        return known
    if isinstance(v, GlobalAlias):
        if not v.is_interposable:
            return _known(v.aliasee, _all_demanded(v.aliasee.type), depth + 1, q)
        return known
    if _is_operator(v):
        known = _known_from_operator(v, demanded, known, depth, q)
    if isinstance(v.type, PointerType):
        align = _pointer_alignment(v, q.dl)
        if align > 1:
            known = KnownBits(w, known.zero | ((align - 1) & ((1 << w) - 1)), known.one)
    return _known_bits_from_context(v, known, depth, q)


def _pointer_alignment(v: Value, dl: DataLayout) -> int:
    """LLVM ``Value::getPointerAlignment`` for the cases ValueTracking meets."""
    if isinstance(v, Function):
        align = dl.function_ptr_alignment or 1
        if dl.function_ptr_align_type is FunctionPtrAlignType.MULTIPLE_OF_FUNCTION_ALIGN:
            return max(align, v.alignment or 1)
        return align
    if isinstance(v, GlobalVariable):
        if v.alignment:
            return v.alignment
        ty = v.value_type
        if ty.is_sized:
            if v.is_strong_definition_for_linker:
                # DataLayout::getPreferredAlign without an explicit alignment.
                align = dl.pref_alignment(ty)
                if v.initializer is not None and align < 16 and dl.type_size_in_bits(ty) > 128:
                    align = 16
                return align
            return dl.abi_alignment(ty)
        return 1
    if isinstance(v, Argument):
        a = v.attributes.alignment
        if a:
            return a
        sret = v.attributes.get("sret")
        if sret is not None and sret.type_value is not None and sret.type_value.is_sized:
            return dl.abi_alignment(sret.type_value)
        return 1
    if isinstance(v, AllocaInst):
        return v.alignment or 1
    if isinstance(v, CallBase):
        a = v.attributes.ret_attrs.alignment
        if not a:
            fn = v.called_function
            if fn is not None:
                a = fn.attributes.ret_attrs.alignment
        return a or 1
    if isinstance(v, Instruction) and v.opcode == "load":
        md = v.get_metadata("align")
        if md is not None:
            from llvmpy_mid.ir.metadata import ConstantAsMetadata

            ops = md.operands
            if ops and isinstance(ops[0], ConstantAsMetadata) and isinstance(ops[0].value, ConstantInt):
                return ops[0].value.value or 1
        return 1
    return 1


def _known_add_sub(
    add: bool, op0: Value, op1: Value, nsw: bool, nuw: bool, demanded: int, depth: int, q: SimplifyQuery
) -> KnownBits:
    k1 = _known(op1, demanded, depth + 1, q)
    if k1.is_unknown() and not nsw and not nuw:
        return k1
    k0 = _known(op0, demanded, depth + 1, q)
    return KnownBits.compute_for_add_sub(add, nsw, nuw, k0, k1)


def _known_mul(op0: Value, op1: Value, nsw: bool, demanded: int, depth: int, q: SimplifyQuery) -> KnownBits:
    known = _known(op1, demanded, depth + 1, q)
    known2 = _known(op0, demanded, depth + 1, q)
    non_neg = neg = False
    if nsw:
        if op0 is op1:
            non_neg = True
        else:
            non_neg = (known.is_negative() and known2.is_negative()) or (
                known.is_non_negative() and known2.is_non_negative()
            )
            if not non_neg:
                neg = (known.is_negative() and known2.is_non_negative() and known2.is_non_zero()) or (
                    known2.is_negative() and known.is_non_negative() and known.is_non_zero()
                )
    self_multiply = op0 is op1 and is_guaranteed_not_to_be_undef(op0, q.cxt_i, q.dt, depth + 1)
    result = KnownBits.mul(known, known2, self_multiply)
    if non_neg and not result.is_negative():
        result = result.make_non_negative()
    elif neg and not result.is_non_negative():
        result = result.make_negative()
    return result


def _known_and_xor_or(
    i: Value, demanded: int, lhs: KnownBits, rhs: KnownBits, depth: int, q: SimplifyQuery
) -> KnownBits:
    """LLVM ``getKnownBitsFromAndXorOr`` with its ``x & -x``, ``x ^ (x-1)`` and ``x op (x+odd)`` idioms."""
    op = _opcode(i)
    a, b = _operand(i, 0), _operand(i, 1)
    has_known_one = lhs.one != 0 or rhs.one != 0
    if op == "and":
        out = lhs & rhs
        if has_known_one and (_is_neg_of(b, a) or _is_neg_of(a, b)):
            out = lhs.blsi() if lhs.count_max_trailing_zeros() <= rhs.count_max_trailing_zeros() else rhs.blsi()
    elif op == "or":
        out = lhs | rhs
    else:
        out = lhs ^ rhs
        if has_known_one:
            if _is_add_all_ones_of(b, a):
                out = lhs.blsmsk()
            elif _is_add_all_ones_of(a, b):
                out = rhs.blsmsk()
    if not ((out.zero | out.one) & 1):
        y = _odd_partner(a, b)
        if y is None:
            y = _odd_partner(b, a)
        if y is not None:
            ky = _known(y, demanded, depth + 1, q)
            if ky.count_min_trailing_ones() > 0:
                if op == "and":
                    out = KnownBits(out.bit_width, out.zero | 1, out.one)
                else:
                    out = KnownBits(out.bit_width, out.zero, out.one | 1)
    return out


def _odd_partner(x: Value, other: Value) -> Value | None:
    """For ``op(x, other)``: the ``Y`` of ``other = x + Y``, ``x - Y`` or ``Y - x``."""
    op = _opcode(other)
    if op == "add":
        if _operand(other, 0) is x:
            return _operand(other, 1)
        if _operand(other, 1) is x:
            return _operand(other, 0)
    elif op == "sub":
        if _operand(other, 0) is x:
            return _operand(other, 1)
        if _operand(other, 1) is x:
            return _operand(other, 0)
    return None


def _adjust_for_select_arm(known: KnownBits, cond: Value, arm: Value, invert: bool, depth: int, q: SimplifyQuery) -> KnownBits:
    """LLVM ``adjustKnownBitsForSelectArm``: what the select condition says of the chosen arm."""
    if known.is_constant():
        return known
    cond_res = _known_bits_from_cond(arm, cond, KnownBits(known.bit_width), depth + 1, q, invert)
    if cond_res.is_unknown():
        return known
    cond_res = cond_res.union_with(known)
    if cond_res.has_conflict():
        return known
    if not is_guaranteed_not_to_be_undef(arm, q.cxt_i, q.dt, depth + 1):
        return known
    return cond_res


def _shift_amount_non_zero(i: Value, amt_known: KnownBits, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    from llvmpy_mid.analysis.known_non_zero import _non_zero  # isKnownNonZero calls back into known bits

    return amt_known.is_non_zero() or (
        amt_known.get_max_value() < amt_known.bit_width and _non_zero(_operand(i, 1), demanded, depth + 1, q)
    )


def _known_from_operator(i: Value, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    """LLVM ``computeKnownBitsFromOperator`` (instructions and constant expressions)."""
    op = _opcode(i)
    w = known.bit_width
    m = (1 << w) - 1
    if op == "load":
        assert isinstance(i, Instruction)
        md = q.get_metadata(i, "range")
        if md is not None:
            return compute_known_bits_from_range_metadata(md, w)
        return known
    if op in ("and", "or", "xor"):
        rhs = _known(_operand(i, 1), demanded, depth + 1, q)
        lhs = _known(_operand(i, 0), demanded, depth + 1, q)
        return _known_and_xor_or(i, demanded, lhs, rhs, depth, q)
    if op == "mul":
        return _known_mul(_operand(i, 0), _operand(i, 1), _nsw(q, i), demanded, depth, q)
    if op == "udiv":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.udiv(a, b, _exact(q, i))
    if op == "sdiv":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.sdiv(a, b, _exact(q, i))
    if op == "select":
        cond = _operand(i, 0)
        t = _adjust_for_select_arm(_known(_operand(i, 1), demanded, depth + 1, q), cond, _operand(i, 1), False, depth, q)
        f = _adjust_for_select_arm(_known(_operand(i, 2), demanded, depth + 1, q), cond, _operand(i, 2), True, depth, q)
        return t.intersect_with(f)
    if op in ("ptrtoint", "inttoptr", "zext", "trunc"):
        src = _operand(i, 0)
        src_known = _known(src, demanded, depth + 1, q)
        if op == "zext" and q.use_instr_info and bool(getattr(i, "nneg", False)) and not src_known.is_negative():
            src_known = src_known.make_non_negative()
        return src_known.zext_or_trunc(w)
    if op == "bitcast":
        src = _operand(i, 0)
        sty = src.type
        if (isinstance(sty, (IntegerType, PointerType))) and not isinstance(i.type, VectorType):
            return _known(src, _all_demanded(sty), depth + 1, q)
        if (
            isinstance(sty, VectorType)
            and not sty.scalable
            and isinstance(sty.element_type, IntegerType)
            and (isinstance(i.type, IntegerType) or (isinstance(i.type, VectorType) and not i.type.scalable
                                                     and isinstance(i.type.element_type, IntegerType)))
        ):
            sub = sty.element_type.width
            if w % sub == 0:
                n_elts = i.type.count if isinstance(i.type, VectorType) else 1
                scale = w // sub
                sub_demanded = 0
                for e in range(n_elts):
                    if (demanded >> e) & 1:
                        sub_demanded |= 1 << (e * scale)
                zero = one = 0
                for part in range(scale):
                    ks = _known(src, sub_demanded << part, depth + 1, q)
                    shift = (part if q.dl.is_little_endian else scale - 1 - part) * sub
                    zero |= ks.zero << shift
                    one |= ks.one << shift
                return KnownBits(w, zero, one)
        return known
    if op == "sext":
        src = _operand(i, 0)
        return _known(src, demanded, depth + 1, q).sext(w)
    if op in ("shl", "lshr", "ashr"):
        val = _known(_operand(i, 0), demanded, depth + 1, q)
        amt = _known(_operand(i, 1), demanded, depth + 1, q)
        non_zero = _shift_amount_non_zero(i, amt, demanded, depth, q)
        if op == "shl":
            res = KnownBits.shl(val, amt, _nuw(q, i), _nsw(q, i), non_zero)
            c = _apint(_operand(i, 0))
            if c is not None:
                tz = w if c == 0 else (c & -c).bit_length() - 1
                res = KnownBits(w, res.zero | ((1 << tz) - 1), res.one)
            return res
        if op == "lshr":
            res = KnownBits.lshr(val, amt, non_zero, _exact(q, i))
            c = _apint(_operand(i, 0))
            if c is not None:
                lz = w - c.bit_length()
                res = KnownBits(w, res.zero | (m & ~((1 << (w - lz)) - 1)), res.one)
            return res
        return KnownBits.ashr(val, amt, non_zero, _exact(q, i))
    if op in ("add", "sub"):
        return _known_add_sub(op == "add", _operand(i, 0), _operand(i, 1), _nsw(q, i), _nuw(q, i), demanded, depth, q)
    if op == "srem":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.srem(a, b)
    if op == "urem":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.urem(a, b)
    if op == "alloca":
        assert isinstance(i, AllocaInst)
        align = i.alignment or 1
        return KnownBits(w, known.zero | ((align - 1) & m), known.one)
    if op == "getelementptr":
        return _known_gep(i, known, depth, q)
    if op == "phi":
        assert isinstance(i, PHINode)
        return _known_phi(i, demanded, known, depth, q)
    if op in ("call", "invoke"):
        assert isinstance(i, CallBase)
        return _known_call(i, demanded, known, depth, q)
    if op == "shufflevector":
        if not isinstance(i, ShuffleVectorInst):  # LLVM: nothing for a shufflevector expression
            return KnownBits(w)
        split = _shuffle_demanded(i, demanded)
        if split is None:
            return KnownBits(w)
        dl_, dr_ = split
        zero = one = m
        if dl_:
            k = _known(_operand(i, 0), dl_, depth + 1, q)
            zero, one = k.zero, k.one
            if k.is_unknown():
                return k
        if dr_:
            k2 = _known(_operand(i, 1), dr_, depth + 1, q)
            zero &= k2.zero
            one &= k2.one
        return KnownBits(w, zero, one)
    if op == "insertelement":
        ty = i.type
        assert isinstance(ty, VectorType)
        if ty.scalable:
            return KnownBits(w)
        vec, elt, idx = _operand(i, 0), _operand(i, 1), _operand(i, 2)
        vec_demanded = demanded
        needs_elt = True
        if isinstance(idx, ConstantInt) and idx.value < ty.count:
            vec_demanded &= ~(1 << idx.value)
            needs_elt = bool((demanded >> idx.value) & 1)
        zero = one = m
        if needs_elt:
            k = _known(elt, 1, depth + 1, q)
            if k.is_unknown():
                return k
            zero, one = k.zero, k.one
        if vec_demanded:
            k2 = _known(vec, vec_demanded, depth + 1, q)
            zero &= k2.zero
            one &= k2.one
        return KnownBits(w, zero, one)
    if op == "extractelement":
        vec, idx = _operand(i, 0), _operand(i, 1)
        vty = vec.type
        assert isinstance(vty, VectorType)
        if vty.scalable:
            return KnownBits(w)
        vec_demanded = (1 << vty.count) - 1
        if isinstance(idx, ConstantInt) and idx.value < vty.count:
            vec_demanded = 1 << idx.value
        return _known(vec, vec_demanded, depth + 1, q)
    if op == "extractvalue":
        agg = _operand(i, 0)
        indices: tuple[int, ...] = tuple(getattr(i, "indices", ()))
        if isinstance(agg, CallBase) and indices == (0,):
            base = _intrinsic(agg)
            if base in ("llvm.uadd.with.overflow", "llvm.sadd.with.overflow"):
                return _known_add_sub(True, agg.get_arg(0), agg.get_arg(1), False, False, demanded, depth, q)
            if base in ("llvm.usub.with.overflow", "llvm.ssub.with.overflow"):
                return _known_add_sub(False, agg.get_arg(0), agg.get_arg(1), False, False, demanded, depth, q)
            if base in ("llvm.umul.with.overflow", "llvm.smul.with.overflow"):
                return _known_mul(agg.get_arg(0), agg.get_arg(1), False, demanded, depth, q)
        return known
    if op == "freeze":
        src = _operand(i, 0)
        if is_guaranteed_not_to_be_poison(src, q.cxt_i, q.dt, depth + 1):
            return _known(src, _all_demanded(src.type), depth + 1, q)
        return known
    return known


def _known_gep(i: Value, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    w = known.bit_width
    base = _operand(i, 0)
    known = _known(base, _all_demanded(base.type), depth + 1, q)
    acc = 0
    dl = q.dl
    for idx, st, elt_ty in _gep_steps(i):
        if known.is_unknown():
            break
        if isinstance(idx, Constant) and idx.is_null_value:
            continue
        if st is not None:
            c = idx
            if isinstance(c.type, VectorType) and isinstance(c, Constant):
                s = get_splat_value(c)
                c = s if s is not None else c
            assert isinstance(c, ConstantInt)
            acc += dl.struct_layout(st).element_offset(c.value)
            continue
        if not elt_ty.is_sized:
            return KnownBits(w)
        iw = _scalar_bit_width(idx.type, dl)
        ib = _known(idx, _all_demanded(idx.type), depth + 1, q)
        scalable = isinstance(elt_ty, VectorType) and elt_ty.scalable
        size = dl.type_alloc_size(elt_ty)
        if scalable:
            tz = (size & -size).bit_length() - 1 if size else 0
            scaling = KnownBits(iw, (1 << min(tz, iw)) - 1, 0)
        elif ib.is_constant():
            ic = (ib.get_constant() * size) & ((1 << iw) - 1)
            sv = ic - (1 << iw) if iw and ic >> (iw - 1) else ic
            acc += sv
            continue
        else:
            scaling = KnownBits.make_constant(size, iw)
        ib = KnownBits.mul(ib, scaling).sext_or_trunc(w)
        known = KnownBits.compute_for_add_sub(True, False, False, known, ib)
    acc &= (1 << w) - 1
    if not known.is_unknown() and acc:
        known = KnownBits.compute_for_add_sub(True, False, False, known, KnownBits.make_constant(acc, w))
    return known


def _known_phi(p: PHINode, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    w = known.bit_width
    m = (1 << w) - 1
    rec = match_simple_recurrence(p)
    if rec is not None:
        bo, r, step = rec
        opc = bo.opcode
        if opc in ("lshr", "ashr", "shl") and bo.get_operand(0) is p:
            k2 = _known(r, demanded, depth + 1, q.get_with_instruction(p))
            if opc == "shl":
                known = KnownBits(w, known.zero | ((1 << k2.count_min_trailing_zeros()) - 1), known.one)
            elif opc == "lshr":
                lz = k2.count_min_leading_zeros()
                known = KnownBits(w, known.zero | (m & ~((1 << (w - lz)) - 1)), known.one)
            else:
                lz = k2.count_min_leading_zeros()
                lo = k2.count_min_leading_ones()
                known = KnownBits(
                    w, known.zero | (m & ~((1 << (w - lz)) - 1)), known.one | (m & ~((1 << (w - lo)) - 1))
                )
        if opc in ("add", "sub", "and", "or", "mul"):
            op_num = 0 if p.get_operand(0) is r else 1
            r_inst = p.get_incoming_block(op_num).terminator
            l_inst = p.get_incoming_block(1 - op_num).terminator
            k2 = _known(r, demanded, depth + 1, q.get_with_instruction(r_inst))
            k3 = _known(step, demanded, depth + 1, q.get_with_instruction(l_inst))
            tz = min(k2.count_min_trailing_zeros(), k3.count_min_trailing_zeros())
            known = KnownBits(w, known.zero | ((1 << tz) - 1), known.one)
            if opc in ("add", "sub", "mul") and _nsw(q, bo):
                if opc == "add":
                    if k2.is_non_negative() and k3.is_non_negative():
                        known = known.make_non_negative()
                    elif k2.is_negative() and k3.is_negative():
                        known = known.make_negative()
                elif opc == "sub" and bo.get_operand(0) is p:
                    if k2.is_non_negative() and k3.is_negative():
                        known = known.make_non_negative()
                    elif k2.is_negative() and k3.is_non_negative():
                        known = known.make_negative()
                elif opc == "mul" and k2.is_non_negative() and k3.is_non_negative():
                    known = known.make_non_negative()
            return known
    if p.num_incoming == 0:
        return known
    if depth < _MAX - 1 and known.is_unknown():
        cv = p.has_constant_value()
        if isinstance(cv, UndefValue):
            return known
        zero = one = m
        block = p.parent
        for k in range(p.num_incoming):
            inc = p.get_incoming_value(k)
            if inc is p:
                continue
            term = p.get_incoming_block(k).terminator
            rq = q.get_with_instruction(term)
            k2 = _known(inc, demanded, _MAX - 1, rq)
            if not k2.is_constant() and isinstance(term, BranchInst) and term.is_conditional:
                cond = term.condition
                if isinstance(cond, ICmpInst):
                    a, b = cond.get_operand(0), cond.get_operand(1)
                    pred = cond.predicate
                    rhs_c: int | None = None
                    if a is inc:
                        rhs_c = _apint(b)
                    elif b is inc:
                        rhs_c = _apint(a)
                        pred = pred.swapped
                    if rhs_c is not None:
                        ts, fs = term.get_successor(0), term.get_successor(1)
                        if (ts is block) != (fs is block):
                            if fs is block:
                                pred = pred.inverse
                            cr = ConstantRange.make_exact_icmp_region(pred, rhs_c, w)
                            union = k2.union_with(cr.to_known_bits())
                            if union.has_conflict():
                                return KnownBits(w)
                            k2 = union
            zero &= k2.zero
            one &= k2.one
            if zero == 0 and one == 0:
                break
        return KnownBits(w, zero, one)
    return known


def _known_call(call: CallBase, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    w = known.bit_width
    m = (1 << w) - 1
    md = q.get_metadata(call, "range")
    if md is not None:
        known = compute_known_bits_from_range_metadata(md, w)
    cr = _range_attribute(call)
    if cr is not None:
        known = known.union_with(cr.to_known_bits())
    rv = get_returned_arg_operand(call)
    if rv is not None and rv.type is call.type:
        known = known.union_with(_known(rv, _all_demanded(rv.type), depth + 1, q))
        if known.has_conflict():
            known = KnownBits(w)
    base = _intrinsic(call)
    if not base:
        return known

    def arg(k: int) -> KnownBits:
        return _known(call.get_arg(k), demanded, depth + 1, q)

    if base == "llvm.abs":
        flag = call.get_arg(1)
        return arg(0).abs(isinstance(flag, ConstantInt) and flag.value == 1)
    if base == "llvm.bitreverse":
        k = arg(0).reverse_bits()
        return KnownBits(w, known.zero | k.zero, known.one | k.one)
    if base == "llvm.bswap":
        k = arg(0).byte_swap()
        return KnownBits(w, known.zero | k.zero, known.one | k.one)
    if base in ("llvm.ctlz", "llvm.cttz"):
        k = arg(0)
        possible = k.count_max_leading_zeros() if base == "llvm.ctlz" else k.count_max_trailing_zeros()
        flag = call.get_arg(1)
        if isinstance(flag, ConstantInt) and flag.width == 1 and flag.value == 1:
            possible = min(possible, w - 1)
        low = possible.bit_length()
        return KnownBits(w, known.zero | (m & ~((1 << low) - 1)), known.one)
    if base == "llvm.ctpop":
        low = arg(0).count_max_population().bit_length()
        return KnownBits(w, known.zero | (m & ~((1 << low) - 1)), known.one)
    if base in ("llvm.fshl", "llvm.fshr"):
        sa = _apint(call.get_arg(2))
        if sa is None:
            return known
        amt = sa % w
        if base == "llvm.fshr":
            amt = w - amt
        k2 = arg(0)
        k3 = arg(1)
        zero = ((k2.zero << amt) & m) | (k3.zero >> (w - amt))
        one = ((k2.one << amt) & m) | (k3.one >> (w - amt))
        return KnownBits(w, zero, one)
    if base in _SAT_MINMAX:
        return _SAT_MINMAX[base](arg(0), arg(1))
    if base == "llvm.vector.reverse":
        ty = call.type
        assert isinstance(ty, VectorType)
        n = ty.count if not ty.scalable else 1
        rev = int(format(demanded, "0%db" % n)[::-1], 2) if n > 1 else demanded
        return _known(call.get_arg(0), rev, depth + 1, q)
    if base in (
        "llvm.vector.reduce.and",
        "llvm.vector.reduce.or",
        "llvm.vector.reduce.umax",
        "llvm.vector.reduce.umin",
        "llvm.vector.reduce.smax",
        "llvm.vector.reduce.smin",
    ):
        src = call.get_arg(0)
        return _known(src, _all_demanded(src.type), depth + 1, q)
    if base == "llvm.vector.reduce.xor":
        src = call.get_arg(0)
        k = _known(src, _all_demanded(src.type), depth + 1, q)
        vty = src.type
        assert isinstance(vty, VectorType)
        even = vty.count % 2 == 0
        zero, one = k.zero, k.one
        if even:
            zero |= one
        if vty.scalable or even:
            one = 0
        return KnownBits(w, zero, one)
    if base == "llvm.ptrmask":
        k = arg(0)
        mask = call.get_arg(1)
        k2 = _known(mask, demanded, depth + 1, q).anyext_or_trunc(w)
        return k & k2
    if base == "llvm.x86.sse42.crc32.64.64":
        return KnownBits(w, known.zero | (m & ~((1 << 32) - 1)), known.one)
    if base == "llvm.vscale":
        fn = call.function
        if fn is None:
            return known
        return get_vscale_range(fn, w).to_known_bits()
    return known


_SAT_MINMAX = {
    "llvm.uadd.sat": KnownBits.uadd_sat,
    "llvm.usub.sat": KnownBits.usub_sat,
    "llvm.sadd.sat": KnownBits.sadd_sat,
    "llvm.ssub.sat": KnownBits.ssub_sat,
    "llvm.umin": KnownBits.umin,
    "llvm.umax": KnownBits.umax,
    "llvm.smin": KnownBits.smin,
    "llvm.smax": KnownBits.smax,
}


def masked_value_is_zero(v: Value, mask: int, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """Every bit of ``v`` selected by ``mask`` is known zero (LLVM ``MaskedValueIsZero``)."""
    known = compute_known_bits(v, q, depth)
    return (mask & ~known.zero) == 0


def is_known_non_negative(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """The sign bit of ``v`` is known zero."""
    return compute_known_bits(v, q, depth).is_non_negative()


def is_known_positive(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """``v`` is known > 0 (signed)."""
    from llvmpy_mid.analysis.known_non_zero import is_known_non_zero

    sq = as_query(q)
    if isinstance(v, ConstantInt):
        return v.sext_value > 0
    known = compute_known_bits(v, sq, depth)
    if known.is_negative():
        return False
    if known.is_non_negative() and known.is_non_zero():
        return True
    return known.is_non_negative() and is_known_non_zero(v, sq, depth)


def is_known_negative(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """The sign bit of ``v`` is known one."""
    return compute_known_bits(v, q, depth).is_negative()


def have_no_common_bits_set(lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout) -> bool:
    """No bit can be one in both ``lhs`` and ``rhs`` (LLVM ``haveNoCommonBitsSet``)."""
    sq = as_query(q)
    if _no_common_bits_special(lhs, rhs, sq) or _no_common_bits_special(rhs, lhs, sq):
        return True
    a = compute_known_bits(lhs, sq)
    b = compute_known_bits(rhs, sq)
    return ((a.zero | b.zero) & a.mask) == a.mask


def _not_operand(v: Value) -> Value | None:
    """``m`` of ``xor m, -1`` or ``xor -1, m`` (LLVM ``m_Not``)."""
    if _opcode(v) != "xor":
        return None
    if _all_ones_allow_poison(_operand(v, 1)):
        return _operand(v, 0)
    if _all_ones_allow_poison(_operand(v, 0)):
        return _operand(v, 1)
    return None


def _all_ones_allow_poison(v: Value) -> bool:
    """LLVM ``m_AllOnes``: all ones, in every lane that is not poison."""
    if _is_all_ones(v):
        return True
    if not isinstance(v.type, VectorType) or not v.is_constant:
        return False
    from llvmpy_mid.ir import pattern_match as pm

    pat = _ALL_ONES_PATTERN.get(0)
    if pat is None:
        pat = _ALL_ONES_PATTERN[0] = pm.m_all_ones()
    return pm.matches(v, pat)


_ALL_ONES_PATTERN: dict[int, Any] = {}


def _and_operands(v: Value) -> tuple[Value, Value] | None:
    if _opcode(v) != "and":
        return None
    return _operand(v, 0), _operand(v, 1)


def _no_common_bits_special(lhs: Value, rhs: Value, q: SimplifyQuery) -> bool:
    """LLVM ``haveNoCommonBitsSetSpecialCases``: ``(X & ~M)`` against ``(Y & M)``,
    ``X`` against ``(Y & ~X)``, ``X`` against ``((X & Y) ^ Y)``, ``ext Y`` against
    ``ext ~Y``, ``(A & B)`` against ``~(A | B)`` (the values named must not be undef)."""

    def not_undef(v: Value) -> bool:
        return is_guaranteed_not_to_be_undef(v, q.cxt_i, q.dt)

    la = _and_operands(lhs)
    ra = _and_operands(rhs)
    if la is not None and ra is not None:
        for k in range(2):
            mask = _not_operand(la[k])
            if mask is not None and (ra[0] is mask or ra[1] is mask) and not_undef(mask):
                return True
    if ra is not None:
        for k in range(2):
            if _not_operand(ra[k]) is lhs and not_undef(lhs):
                return True
    if _opcode(rhs) == "xor":
        for k in range(2):
            inner = _and_operands(_operand(rhs, k))
            y = _operand(rhs, 1 - k)
            if inner is not None and ((inner[0] is lhs and inner[1] is y) or (inner[1] is lhs and inner[0] is y)):
                if not_undef(lhs) and not_undef(y):
                    return True
    if _opcode(lhs) in ("zext", "sext") and _opcode(rhs) in ("zext", "sext"):
        y = _operand(lhs, 0)
        if _not_operand(_operand(rhs, 0)) is y and not_undef(y):
            return True
    if la is not None:
        inner_or = _not_operand(rhs)
        if inner_or is not None and _opcode(inner_or) == "or":
            a, b = la
            o0, o1 = _operand(inner_or, 0), _operand(inner_or, 1)
            if ((o0 is a and o1 is b) or (o0 is b and o1 is a)) and not_undef(a) and not_undef(b):
                return True
    return False
