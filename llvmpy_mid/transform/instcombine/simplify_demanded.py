"""Demanded bits and demanded vector elements for InstCombine (LLVM
``lib/Transforms/InstCombine/InstCombineSimplifyDemanded.cpp``).

Entry points (the combiner's ``SimplifyDemanded*`` family):

* :func:`simplify_demanded_bits` (``SimplifyDemandedBits``): narrow operand
  ``op_num`` of an instruction given the bits its user demands; fills ``known``.
* :func:`simplify_demanded_instruction_bits` (``SimplifyDemandedInstructionBits``).
* :func:`simplify_demanded_use_bits` / :func:`simplify_multiple_use_demanded_bits`
  (the per-opcode workers, ``SimplifyDemandedUseBits`` /
  ``SimplifyMultipleUseDemandedBits``).
* :func:`simplify_demanded_vector_elts` (``SimplifyDemandedVectorElts``): the
  poison lanes come back through a one-element list ``poison_out`` (``poison_out[0]``
  is the lane mask, bit ``i`` = lane ``i``).
* :func:`simplify_demanded_use_fp_class` (``SimplifyDemandedUseFPClass``); the
  class masks are LLVM's ``FPClassTest`` bits.

Masks are Python ints: bit ``i`` of a demanded mask is bit ``i`` of each lane.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands
from llvmpy_mid.analysis.instsimplify._util import const_int
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.known_bits_analysis import (
    _adjust_for_select_arm,
    _known_and_xor_or,
    _no_common_bits_special,
    _pointer_alignment,
    compute_known_bits,
)
from llvmpy_mid.analysis.num_sign_bits import compute_num_sign_bits
from llvmpy_mid.analysis.value_tracking_support import (
    _MAX,
    _known_bits_from_context,
    _scalar_bit_width,
)
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, ConstantVector, PoisonValue, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.optional_flags import OptionalFlagsInst
from llvmpy_mid.ir.types import IntegerType, PointerType, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.local import salvage_debug_info

if TYPE_CHECKING:
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


# --- small APInt helpers ------------------------------------------------------------------------


def _low(n: int) -> int:
    return (1 << n) - 1 if n > 0 else 0


def _clz(x: int, w: int) -> int:
    return w - x.bit_length()


def _ctz(x: int, w: int) -> int:
    return w if x == 0 else (x & -x).bit_length() - 1


def _subset(a: int, b: int) -> bool:
    return (a & ~b) == 0


def _set_known(known: KnownBits, k: KnownBits) -> None:
    known.zero = k.zero
    known.one = k.one


def _int_value(ty: Type, v: int) -> Constant:
    """``Constant::getIntegerValue(Ty, V)`` for integer (vector) types."""
    return const_int(ty, v)


_P_APINT = pm.m_apint("c")
_P_CONSTANT_INT = pm.m_constant_int("c")


def _apint(v: Value) -> int | None:
    m = pm.match(v, _P_APINT)
    return None if m is None else m.apint("c")


def _const_int(v: Value) -> int | None:
    """``m_ConstantInt`` (a ConstantInt or a splat of one)."""
    m = pm.match(v, _P_CONSTANT_INT)
    return None if m is None else int(m.c.value)


@contextmanager
def _insert_point_guard(ic: InstCombiner, at: Instruction) -> Iterator[None]:
    """``IRBuilderBase::InsertPointGuard`` + ``SetInsertPoint(at)``."""
    b = ic.builder
    saved = (b.block, b.insert_before, b.debug_loc)
    b.position_before(at)
    b.debug_loc = at.debug_loc
    try:
        yield
    finally:
        b.block, b.insert_before, b.debug_loc = saved


def _shrink_demanded_constant(i: Instruction, op_num: int, demanded: int) -> bool:
    """``ShrinkDemandedConstant``: clear the bits of a constant operand that are not demanded."""
    op = i.operands[op_num]
    c = _apint(op)
    if c is None:
        return False
    if _subset(c, demanded):
        return False
    i.set_operand(op_num, const_int(op.type, c & demanded))
    return True


def _bit_width(ty: Type, ic: InstCombiner) -> int:
    return _scalar_bit_width(ty, ic.dl)


def _drop_poison_flags(i: Instruction) -> None:
    """``Instruction::dropPoisonGeneratingFlags``."""
    drop = getattr(i, "drop_poison_generating_flags", None)
    if drop is not None:
        drop()


def _drop_wrap(i: Instruction) -> None:
    if isinstance(i, OptionalFlagsInst) and i.has_wrap_flags:
        i.nsw = False
        i.nuw = False


# --- entry points ---------------------------------------------------------------------------------


def simplify_demanded_instruction_bits(ic: InstCombiner, i: Instruction, known: KnownBits | None = None) -> bool:
    """``SimplifyDemandedInstructionBits``: all of ``i``'s bits demanded; True when ``i`` changed.
    ``known`` (optional, LLVM's second overload) is filled with ``i``'s known bits."""
    if known is None:
        known = KnownBits(_bit_width(i.type, ic))
    v = simplify_demanded_use_bits(ic, i, _low(known.bit_width), known, 0, ic.query(i))
    if v is None:
        return False
    if v is i:
        return True
    ic.replace_inst_uses_with(i, v)
    return True


def simplify_demanded_bits(
    ic: InstCombiner,
    i: Instruction,
    op_num: int,
    demanded: int,
    known: KnownBits,
    depth: int = 0,
    q: SimplifyQuery | None = None,
) -> bool:
    """``SimplifyDemandedBits``: True when operand ``op_num`` of ``i`` was replaced.
    ``known`` is filled in place with what is known of that operand. ``q`` is the
    query (default: the combiner's with ``i`` as context, as LLVM's short overload)."""
    if q is None:
        q = ic.query(i)
    v = i.operands[op_num]
    if isinstance(v, Constant):
        _set_known(known, compute_known_bits(v, q, depth))
        return False
    known.zero = 0
    known.one = 0
    if demanded == 0:
        ic.replace_operand(i, op_num, UndefValue.get(v.type))
        return True
    if depth == _MAX:
        return False
    if not isinstance(v, Instruction):
        _set_known(known, compute_known_bits(v, q, depth))
        return False
    if v.has_one_use:
        new = simplify_demanded_use_bits(ic, v, demanded, known, depth, q)
    else:
        new = simplify_multiple_use_demanded_bits(ic, v, demanded, known, depth, q)
    if new is None:
        return False
    if isinstance(v, Instruction):
        salvage_debug_info(v)
    ic.replace_operand(i, op_num, new)
    return True


def _sdb(ic: InstCombiner, i: Instruction, op: int, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> bool:
    return simplify_demanded_bits(ic, i, op, demanded, known, depth, q)


def _funnel_shift_rotate_user(ic: InstCombiner, i: Instruction) -> bool:
    """Whether ``i``'s single user is an ``or`` forming a rotate (fshl/fshr with equal
    data operands) per ``convertOrOfShiftsToFunnelShift``."""
    if not i.has_one_use:
        return False
    user = i.users[0]
    if not isinstance(user, Instruction) or user.opcode != "or":
        return False
    from llvmpy_mid.transform.instcombine.and_or_xor_shifts import convert_or_of_shifts_to_funnel_shift

    res = convert_or_of_shifts_to_funnel_shift(ic, user)
    if res is None:
        return False
    iid, args = res
    return iid in ("fshl", "fshr") and args[0] is args[1]


def simplify_demanded_use_bits(
    ic: InstCombiner, i: Instruction, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery
) -> Value | None:
    """``SimplifyDemandedUseBits``: None = nothing changed; ``i`` = simplified in place;
    another value = ``i`` equals it where these bits are demanded."""
    w = known.bit_width
    full = _low(w)
    vty = i.type
    lhs_known = KnownBits(w)
    rhs_known = KnownBits(w)
    op = i.opcode

    def disable_wrap(nlz: int) -> Instruction:
        if nlz > 0:
            _drop_wrap(i)
        return i

    if op == "and":
        if _sdb(ic, i, 1, demanded, rhs_known, depth + 1, q) or _sdb(
            ic, i, 0, demanded & ~rhs_known.zero & full, lhs_known, depth + 1, q
        ):
            return i
        k = _known_and_xor_or(i, 1, lhs_known, rhs_known, depth, q)
        _set_known(known, k)
        if _subset(demanded, k.zero | k.one):
            return _int_value(vty, k.one)
        if _subset(demanded, lhs_known.zero | rhs_known.one):
            return i.operands[0]
        if _subset(demanded, rhs_known.zero | lhs_known.one):
            return i.operands[1]
        if _shrink_demanded_constant(i, 1, demanded & ~lhs_known.zero):
            return i
    elif op == "or":
        if _sdb(ic, i, 1, demanded, rhs_known, depth + 1, q) or _sdb(
            ic, i, 0, demanded & ~rhs_known.one & full, lhs_known, depth + 1, q
        ):
            _drop_poison_flags(i)
            return i
        k = _known_and_xor_or(i, 1, lhs_known, rhs_known, depth, q)
        _set_known(known, k)
        if _subset(demanded, k.zero | k.one):
            return _int_value(vty, k.one)
        if _subset(demanded, lhs_known.one | rhs_known.zero):
            return i.operands[0]
        if _subset(demanded, rhs_known.one | lhs_known.zero):
            return i.operands[1]
        if _shrink_demanded_constant(i, 1, demanded):
            return i
        assert isinstance(i, BinaryOperator)
        if not i.disjoint:
            a, b = i.operands[0], i.operands[1]
            if (
                _no_common_bits_special(a, b, q)
                or _no_common_bits_special(b, a, q)
                or ((lhs_known.zero | rhs_known.zero) & full) == full
            ):
                i.disjoint = True
                return i
    elif op == "xor":
        if _sdb(ic, i, 1, demanded, rhs_known, depth + 1, q) or _sdb(ic, i, 0, demanded, lhs_known, depth + 1, q):
            return i
        if demanded == 1:
            ma = pm.match(i.operands[0], _P_CTPOP_X)
            mb = pm.match(i.operands[1], _P_CTPOP_X)
            if ma is not None and mb is not None:
                with _insert_point_guard(ic, i):
                    x = ic.builder.create_xor(ma.value("x"), mb.value("x"))
                    return ic.builder.create_unary_intrinsic("ctpop", x)
        k = _known_and_xor_or(i, 1, lhs_known, rhs_known, depth, q)
        _set_known(known, k)
        if _subset(demanded, k.zero | k.one):
            return _int_value(vty, k.one)
        if _subset(demanded, rhs_known.zero):
            return i.operands[0]
        if _subset(demanded, lhs_known.zero):
            return i.operands[1]
        if _subset(demanded, rhs_known.zero | lhs_known.zero):
            new_or = BinaryOperator.create("or", i.operands[0], i.operands[1])
            if demanded == full:
                new_or.disjoint = True
            name = i.name
            if name:
                i.name = ""
                new_or.name = name
            return ic.insert_new_inst_with(new_or, i)
        if _subset(demanded, rhs_known.zero | rhs_known.one) and _subset(rhs_known.one, lhs_known.one):
            and_c = _int_value(vty, ~rhs_known.one & demanded & full)
            new_and = BinaryOperator.create("and", i.operands[0], and_c)
            return ic.insert_new_inst_with(new_and, i)
        c = _apint(i.operands[1])
        if c is not None and c != full:
            if (c | (~demanded & full)) == full:
                i.set_operand(1, const_int(vty, full))
                return i
            if _shrink_demanded_constant(i, 1, demanded):
                return i
        lhs_inst = i.operands[0]
        if isinstance(lhs_inst, Instruction) and lhs_inst.opcode == "and" and lhs_inst.has_one_use:
            xor_rhs = _const_int_only(i.operands[1])
            and_rhs = _const_int_only(lhs_inst.operands[1])
            if xor_rhs is not None and and_rhs is not None and (lhs_known.one & rhs_known.one & demanded) != 0:
                new_mask = ~(lhs_known.one & rhs_known.one & demanded) & full
                and_c = const_int(vty, new_mask & and_rhs)
                new_and = BinaryOperator.create("and", i.operands[0], and_c)
                ic.insert_new_inst_with(new_and, i)
                xor_c = const_int(vty, new_mask & xor_rhs)
                new_xor = BinaryOperator.create("xor", new_and, xor_c)
                return ic.insert_new_inst_with(new_xor, i)
    elif op == "select":
        if _sdb(ic, i, 2, demanded, rhs_known, depth + 1, q) or _sdb(ic, i, 1, demanded, lhs_known, depth + 1, q):
            return i
        if _canonicalize_select_constant(i, 1, demanded) or _canonicalize_select_constant(i, 2, demanded):
            return i
        cond = i.operands[0]
        lk = _adjust_for_select_arm(lhs_known, cond, i.operands[1], False, depth, q)
        rk = _adjust_for_select_arm(rhs_known, cond, i.operands[2], True, depth, q)
        _set_known(known, lk.intersect_with(rk))
    elif op in ("trunc", "zext"):
        if op == "trunc":
            m = pm.match(i.operands[0], _P_ONEUSE_LSHR_C)
            if m is not None:
                c = m.apint("c")
                if c < vty.scalar_type.width and c <= _clz(demanded, w):  # type: ignore[attr-defined]
                    with _insert_point_guard(ic, i):
                        t = ic.builder.create_trunc(m.value("x"), vty)
                        return ic.builder.create_lshr(t, const_int(vty, c))
        src_w = i.operands[0].type.scalar_type.width  # type: ignore[attr-defined]
        in_demanded = demanded & _low(src_w)
        in_known = KnownBits(src_w)
        if _sdb(ic, i, 0, in_demanded, in_known, depth + 1, q):
            _drop_poison_flags(i)
            return i
        if op == "zext" and isinstance(i, CastInst) and i.nneg and not in_known.is_negative():
            in_known = in_known.make_non_negative()
        _set_known(known, in_known.zext_or_trunc(w))
    elif op == "sext":
        src_w = i.operands[0].type.scalar_type.width  # type: ignore[attr-defined]
        in_demanded = demanded & _low(src_w)
        if demanded.bit_length() > src_w:
            in_demanded |= 1 << (src_w - 1)
        in_known = KnownBits(src_w)
        if _sdb(ic, i, 0, in_demanded, in_known, depth + 1, q):
            return i
        if in_known.is_non_negative() or demanded.bit_length() <= src_w:
            new = CastInst.create("zext", i.operands[0], vty)
            name = i.name
            if name:
                i.name = ""
                new.name = name
            return ic.insert_new_inst_with(new, i)
        _set_known(known, in_known.sext(w))
    elif op == "add":
        if (demanded & 1) == 0:
            m = pm.match(i, _P_ADD_ZEXT_SEXT)
            if m is not None:
                x, y = m.value("x"), m.value("y")
                if _is_bool(x.type) and x.type is y.type:
                    with _insert_point_guard(ic, i):
                        bld = ic.builder
                        and_not = bld.create_and(bld.create_not(x), y)
                        return bld.create_sext(and_not, vty)
            m = pm.match(i, _P_ADD_SEXT_SEXT)
            if m is not None:
                x, y = m.value("x"), m.value("y")
                if (
                    _is_bool(x.type)
                    and x.type is y.type
                    and (i.operands[0].has_one_use or i.operands[1].has_one_use)
                ):
                    with _insert_point_guard(ic, i):
                        bld = ic.builder
                        return bld.create_sext(bld.create_or(x, y), vty)
        nlz = _clz(demanded, w)
        from_ops = _low(w - nlz)
        if _shrink_demanded_constant(i, 1, from_ops) or _sdb(ic, i, 1, from_ops, rhs_known, depth + 1, q):
            return disable_wrap(nlz)
        ntz = _countr_one(~demanded & rhs_known.zero & full)
        from_lhs = from_ops & ~_low(ntz)
        if _shrink_demanded_constant(i, 0, from_lhs) or _sdb(ic, i, 0, from_lhs, lhs_known, depth + 1, q):
            return disable_wrap(nlz)
        if _subset(from_ops, rhs_known.zero):
            return i.operands[0]
        if _subset(from_ops, lhs_known.zero):
            return i.operands[1]
        c = _apint(i.operands[1])
        if c is not None and demanded and c == 1 << (demanded.bit_length() - 1):
            with _insert_point_guard(ic, i):
                return ic.builder.create_xor(i.operands[0], const_int(vty, c))
        assert isinstance(i, BinaryOperator)
        _set_known(known, KnownBits.compute_for_add_sub(True, i.nsw, i.nuw, lhs_known, rhs_known))
    elif op == "sub":
        nlz = _clz(demanded, w)
        from_ops = _low(w - nlz)
        if _shrink_demanded_constant(i, 1, from_ops) or _sdb(ic, i, 1, from_ops, rhs_known, depth + 1, q):
            return disable_wrap(nlz)
        ntz = _countr_one(~demanded & rhs_known.zero & full)
        from_lhs = from_ops & ~_low(ntz)
        if _shrink_demanded_constant(i, 0, from_lhs) or _sdb(ic, i, 0, from_lhs, lhs_known, depth + 1, q):
            return disable_wrap(nlz)
        if _subset(from_ops, rhs_known.zero):
            return i.operands[0]
        if from_ops == 1 and _subset(from_ops, lhs_known.zero):
            return i.operands[1]
        assert isinstance(i, BinaryOperator)
        _set_known(known, KnownBits.compute_for_add_sub(False, i.nsw, i.nuw, lhs_known, rhs_known))
    elif op == "mul":
        nlz = _clz(demanded, w)
        from_ops = _low(w - nlz)
        if (
            _shrink_demanded_constant(i, 0, from_ops)
            or _sdb(ic, i, 0, from_ops, lhs_known, depth + 1, q)
            or _shrink_demanded_constant(i, 1, from_ops)
            or _sdb(ic, i, 1, from_ops, rhs_known, depth + 1, q)
        ):
            disable_wrap(nlz)
            return i
        if demanded and demanded & (demanded - 1) == 0:
            ctz = _ctz(demanded, w)
            c = _apint(i.operands[1])
            if c is not None and _ctz(c, w) == ctz:
                shl = BinaryOperator.create("shl", i.operands[0], const_int(vty, ctz))
                return ic.insert_new_inst_with(shl, i)
        if i.operands[0] is i.operands[1] and demanded < 4:
            and1 = BinaryOperator.create("and", i.operands[0], const_int(vty, 1))
            return ic.insert_new_inst_with(and1, i)
        _set_known(known, compute_known_bits(i, q, depth))
    elif op == "shl":
        r = _demanded_shl(ic, i, demanded, known, depth, q)
        if r is not None:
            return r
    elif op == "lshr":
        r = _demanded_lshr(ic, i, demanded, known, depth, q)
        if r is not None:
            return r
    elif op == "ashr":
        r = _demanded_ashr(ic, i, demanded, known, depth, q)
        if r is not None:
            return r
    elif op == "udiv":
        sa = _apint(i.operands[1])
        if sa is not None:
            rtz = _ctz(sa, w)
            in_mask = full & ~_low(rtz)
            if _sdb(ic, i, 0, in_mask, lhs_known, depth + 1, q):
                _drop_poison_flags(i)
                return i
            assert isinstance(i, BinaryOperator)
            _set_known(known, KnownBits.udiv(lhs_known, KnownBits.make_constant(sa, w), i.exact))
        else:
            _set_known(known, compute_known_bits(i, q, depth))
    elif op == "srem":
        r = _demanded_srem(ic, i, demanded, known, lhs_known, depth, q)
        if r is not None:
            return r
    elif op == "call":
        r = _demanded_call(ic, i, demanded, known, lhs_known, rhs_known, depth, q)
        if r is not None:
            return r
    else:
        _set_known(known, compute_known_bits(i, q, depth))

    if isinstance(vty, PointerType):
        align = _pointer_alignment(i, ic.dl)
        if align > 1:
            known.zero |= (align - 1) & full
    if not isinstance(vty, PointerType) and _subset(demanded, known.zero | known.one):
        return _int_value(vty, known.one)
    return None


def _countr_one(x: int) -> int:
    return (~x & (x + 1)).bit_length() - 1


def _is_bool(ty: Type) -> bool:
    s = ty.scalar_type
    return isinstance(s, IntegerType) and s.width == 1


def _const_int_only(v: Value) -> int | None:
    """``m_ConstantInt(ConstantInt*&)``: a ConstantInt or a splat vector of one."""
    if isinstance(v, ConstantInt):
        return v.value
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = v.splat_value if isinstance(v, ConstantVector) else getattr(v, "splat_value", None)
        if isinstance(s, ConstantInt):
            return s.value
    return None


_P_CTPOP_X = pm.m_intrinsic("ctpop", pm.m_value("x"))
_P_ONEUSE_LSHR_C = pm.m_one_use(pm.m_lshr(pm.m_value("x"), pm.m_apint("c")))
_P_ADD_ZEXT_SEXT = pm.m_c_add(pm.m_one_use(pm.m_zext(pm.m_value("x"))), pm.m_one_use(pm.m_sext(pm.m_value("y"))))
_P_ADD_SEXT_SEXT = pm.m_add(pm.m_sext(pm.m_value("x")), pm.m_sext(pm.m_value("y")))
_P_ICMP_X_C = pm.m_icmp("p", pm.m_value("x"), pm.m_apint("c"))
_P_SHR_C = pm.m_combine_or(pm.m_lshr(pm.m_value(), pm.m_apint("c")), pm.m_ashr(pm.m_value(), pm.m_apint("c")))
_P_LSHR_IMMC_X = pm.m_lshr(pm.m_imm_constant("c"), pm.m_value("x"))
_P_SHL_IMMC_X = pm.m_shl(pm.m_imm_constant("c"), pm.m_value("x"))
_P_ASHR_SHL = pm.m_ashr(pm.m_shl(pm.m_value("x"), pm.m_apint("l")), pm.m_apint("r"))
_P_NOT_X = pm.m_not(pm.m_value("x"))
_P_EXTRACT_ELT = pm.m_extract_element(pm.m_value("vec"), pm.m_apint("c"))


def _canonicalize_select_constant(i: Instruction, op_num: int, demanded: int) -> bool:
    sel_c = _apint(i.operands[op_num])
    if sel_c is None:
        return False
    m = pm.match(i.operands[0], _P_ICMP_X_C)
    if m is None or isinstance(m.value("x"), Constant) or m.value("x").type.scalar_type != i.type.scalar_type:
        return _shrink_demanded_constant(i, op_num, demanded)
    cmp_c = m.apint("c")
    if cmp_c == sel_c:
        return False
    if (cmp_c & demanded) == (sel_c & demanded):
        i.set_operand(op_num, const_int(i.type, cmp_c))
        return True
    return _shrink_demanded_constant(i, op_num, demanded)


def _demanded_shl(
    ic: InstCombiner, i: Instruction, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery
) -> Value | None:
    w = known.bit_width
    full = _low(w)
    vty = i.type
    assert isinstance(i, BinaryOperator)
    sa = _apint(i.operands[1])
    if sa is not None:
        m = pm.match(i.operands[0], _P_SHR_C)
        if m is not None and isinstance(i.operands[0], Instruction):
            r = simplify_shr_shl_demanded_bits(ic, i.operands[0], m.apint("c"), i, sa, demanded, known)
            if r is not None:
                return r
        if _funnel_shift_rotate_user(ic, i):
            _set_known(known, compute_known_bits(i, q, depth))
            return None
        shift = min(sa, w - 1)
        if _ctz(demanded, w) >= shift:
            if i.nsw:
                num_hi = w - _ctz(demanded, w)
                sign_bits = ic.compute_num_sign_bits(i.operands[0], depth + 1, q.cxt_i)
                if sign_bits > shift and sign_bits - shift >= num_hi:
                    return i.operands[0]
            m = pm.match(i.operands[0], _P_LSHR_IMMC_X)
            if m is not None:
                c = m.value("c")
                assert isinstance(c, Constant)
                amt = const_int(vty, shift)
                new_c = constant_fold_binary_op_operands("shl", c, amt, ic.dl)
                if new_c is not None and constant_fold_binary_op_operands("lshr", new_c, amt, ic.dl) is c:
                    lshr = BinaryOperator.create("lshr", new_c, m.value("x"))
                    return ic.insert_new_inst_with(lshr, i)
        in_mask = demanded >> shift
        if i.nsw:
            in_mask |= full & ~_low(w - (shift + 1))
        elif i.nuw:
            in_mask |= full & ~_low(w - shift)
        if simplify_demanded_bits(ic, i, 0, in_mask, known, depth + 1, q):
            return i
        _set_known(known, KnownBits.shl(known.copy(), KnownBits.make_constant(shift, w), i.nuw, i.nsw))
    else:
        ctlz = _clz(demanded, w)
        if ctlz:
            from_op = _low(w - ctlz)
            if simplify_demanded_bits(ic, i, 0, from_op, known, depth + 1, q):
                _drop_poison_flags(i)
                return i
        _set_known(known, compute_known_bits(i, q, depth))
    return None


def _demanded_lshr(
    ic: InstCombiner, i: Instruction, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery
) -> Value | None:
    w = known.bit_width
    full = _low(w)
    vty = i.type
    sa = _apint(i.operands[1])
    if sa is None:
        _set_known(known, compute_known_bits(i, q, depth))
        return None
    shift = min(sa, w - 1)
    if _funnel_shift_rotate_user(ic, i):
        _set_known(known, compute_known_bits(i, q, depth))
        return None
    if _clz(demanded, w) >= shift:
        num_hi = w - _ctz(demanded, w)
        sign_bits = ic.compute_num_sign_bits(i.operands[0], depth + 1, q.cxt_i)
        if sign_bits >= num_hi:
            return i.operands[0]
        m = pm.match(i.operands[0], _P_SHL_IMMC_X)
        if m is not None:
            c = m.value("c")
            assert isinstance(c, Constant)
            amt = const_int(vty, shift)
            new_c = constant_fold_binary_op_operands("lshr", c, amt, ic.dl)
            if new_c is not None and constant_fold_binary_op_operands("shl", new_c, amt, ic.dl) is c:
                shl = BinaryOperator.create("shl", new_c, m.value("x"))
                return ic.insert_new_inst_with(shl, i)
    in_mask = (demanded << shift) & full
    if simplify_demanded_bits(ic, i, 0, in_mask, known, depth + 1, q):
        _drop_poison_flags(i)
        return i
    known.zero >>= shift
    known.one >>= shift
    if shift:
        known.zero |= full & ~_low(w - shift)
    return None


def _demanded_ashr(
    ic: InstCombiner, i: Instruction, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery
) -> Value | None:
    w = known.bit_width
    assert isinstance(i, BinaryOperator)
    sign_bits = ic.compute_num_sign_bits(i.operands[0], depth + 1, q.cxt_i)
    num_hi = w - _ctz(demanded, w)
    if sign_bits >= num_hi:
        return i.operands[0]
    if demanded == 1:
        new = BinaryOperator.create("lshr", i.operands[0], i.operands[1], name=i.name)
        return ic.insert_new_inst_with(new, i)
    sa = _apint(i.operands[1])
    if sa is None:
        _set_known(known, compute_known_bits(i, q, depth))
        return None
    shift = min(sa, w - 1)
    in_mask = (demanded << shift) & _low(w)
    shifted_in_demanded = _clz(demanded, w) < shift
    if shifted_in_demanded:
        in_mask |= 1 << (w - 1)
    if simplify_demanded_bits(ic, i, 0, in_mask, known, depth + 1, q):
        _drop_poison_flags(i)
        return i
    if (known.zero >> (w - 1)) & 1 or not shifted_in_demanded:
        lshr = BinaryOperator.create("lshr", i.operands[0], i.operands[1])
        lshr.exact = i.exact
        name = i.name
        if name:
            i.name = ""
            lshr.name = name
        return ic.insert_new_inst_with(lshr, i)
    _set_known(known, KnownBits.ashr(known.copy(), KnownBits.make_constant(shift, w), shift != 0, i.exact))
    return None


def _demanded_srem(
    ic: InstCombiner, i: Instruction, demanded: int, known: KnownBits, lhs_known: KnownBits, depth: int, q: SimplifyQuery
) -> Value | None:
    w = known.bit_width
    full = _low(w)
    rem = _apint(i.operands[1])
    if rem is not None:
        if rem == full:
            # X % -1 demands every bit: no known bits computed (LLVM breaks out here).
            _finish_unknown(known)
            return None
        ra = rem if not rem >> (w - 1) else (-rem) & full
        if ra and ra & (ra - 1) == 0:
            if demanded < ra:
                return i.operands[0]
            low_bits = ra - 1
            mask2 = low_bits | (1 << (w - 1))
            if simplify_demanded_bits(ic, i, 0, mask2, lhs_known, depth + 1, q):
                return i
            zero = lhs_known.zero & low_bits
            one = lhs_known.one & low_bits
            if lhs_known.is_non_negative() or _subset(low_bits, lhs_known.zero):
                zero |= ~low_bits & full
            if lhs_known.is_negative() and (low_bits & lhs_known.one):
                one |= ~low_bits & full
            known.zero = zero
            known.one = one
            return None
    _set_known(known, compute_known_bits(i, q, depth))
    return None


def _finish_unknown(known: KnownBits) -> None:
    known.zero = 0
    known.one = 0
    return None


def _demanded_call(
    ic: InstCombiner,
    i: Instruction,
    demanded: int,
    known: KnownBits,
    lhs_known: KnownBits,
    rhs_known: KnownBits,
    depth: int,
    q: SimplifyQuery,
) -> Value | None:
    w = known.bit_width
    full = _low(w)
    vty = i.type
    from llvmpy_mid.transform.instcombine.common import intrinsic_base_of

    name = "llvm." + intrinsic_base_of(i)
    computed = False
    if name == "llvm.abs":
        if demanded == 1:
            return i.operands[0]
    elif name == "llvm.ctpop":
        m = pm.match(i.operands[0], _P_NOT_X)
        if demanded == 1 and w % 2 == 0 and m is not None:
            from llvmpy_mid.ir.instructions.calls import CallInst

            with _insert_point_guard(ic, i):
                call = ic.builder.create_unary_intrinsic("ctpop", m.value("x"))
            assert isinstance(call, CallInst)
            return call
    elif name == "llvm.bswap":
        nlz = _clz(demanded, w) // 8 * 8
        ntz = _ctz(demanded, w) // 8 * 8
        if w - nlz - ntz == 8:
            if nlz > ntz:
                new = BinaryOperator.create("lshr", i.operands[0], const_int(vty, nlz - ntz))
            else:
                new = BinaryOperator.create("shl", i.operands[0], const_int(vty, ntz - nlz))
            nm = i.name
            if nm:
                i.name = ""
                new.name = nm
            return ic.insert_new_inst_with(new, i)
    elif name == "llvm.ptrmask":
        mask_w = i.operands[1].type.scalar_type.width  # type: ignore[attr-defined]
        rk = KnownBits(mask_w)
        if _sdb(ic, i, 0, demanded, lhs_known, depth + 1, q) or _sdb(
            ic, i, 1, (demanded & ~lhs_known.zero) & _low(mask_w), rk, depth + 1, q
        ):
            return i
        rk = rk.anyext_or_trunc(w)
        k = lhs_known & rk
        known.zero, known.one = k.zero, k.one
        computed = True
        if _subset(demanded, k.zero) and not pm.matches(i.operands[1], _P_ZERO):
            return ic.replace_operand(i, 1, Constant.get_null_value(i.operands[1].type))
        if _subset(demanded, rk.one | lhs_known.zero):
            return i.operands[0]
        if _shrink_demanded_constant(i, 1, (demanded & ~lhs_known.zero) & _low(mask_w)):
            return i
        r = _ptrmask_of_gep(ic, i)
        if r is not None:
            return r
    elif name in ("llvm.fshl", "llvm.fshr"):
        sa = _apint(i.operands[2])
        if sa is not None:
            shift = sa % w
            if name == "llvm.fshr":
                shift = w - shift
            dm_lhs = demanded >> shift
            dm_rhs = (demanded << (w - shift)) & full
            if i.operands[0] is not i.operands[1]:
                if _sdb(ic, i, 0, dm_lhs, lhs_known, depth + 1, q) or _sdb(ic, i, 1, dm_rhs, rhs_known, depth + 1, q):
                    return i
            else:
                lk = compute_known_bits(i.operands[0], ic.query(i), depth + 1)
                lhs_known.zero, lhs_known.one = lk.zero, lk.one
                if _subset(dm_lhs, lk.zero | lk.one) and _apint(i.operands[0]) != lk.one:
                    ic.replace_operand(i, 0, _int_value(vty, lk.one))
                    return i
                rk = compute_known_bits(i.operands[1], ic.query(i), depth + 1)
                rhs_known.zero, rhs_known.one = rk.zero, rk.one
                if _subset(dm_rhs, rk.zero | rk.one) and _apint(i.operands[1]) != rk.one:
                    ic.replace_operand(i, 1, _int_value(vty, rk.one))
                    return i
            known.zero = ((lhs_known.zero << shift) | (rhs_known.zero >> (w - shift))) & full
            known.one = ((lhs_known.one << shift) | (rhs_known.one >> (w - shift))) & full
            computed = True
    elif name == "llvm.umax":
        c = _apint(i.operands[1])
        if c is not None and _ctz(demanded, w) >= c.bit_length():
            return i.operands[0]
    elif name == "llvm.umin":
        c = _apint(i.operands[1])
        if c is not None and _ctz(demanded, w) >= w - _clo(c, w):
            return i.operands[0]
    if not computed:
        _set_known(known, compute_known_bits(i, q, depth))
    return None


_P_ZERO = pm.m_zero()
_U64 = (1 << 64) - 1


def _ptrmask_of_gep(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """(ptrmask (gep i8 P, Idx), M) -> (ptrmask (gep i8 P, Idx'), M) where Idx' keeps of the
    index's bits below P's known alignment only those M keeps."""
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst

    gep = i.operands[0]
    mask = i.operands[1]
    is_gep = isinstance(gep, GetElementPtrInst) or (isinstance(gep, ConstantExpr) and gep.opcode == "getelementptr")
    src_ty = getattr(gep, "source_element_type", None)
    if (
        not is_gep
        or gep.num_operands != 2  # type: ignore[attr-defined]
        or not isinstance(src_ty, IntegerType)
        or src_ty.width != 8
        or not isinstance(gep.operands[1], ConstantInt)  # type: ignore[attr-defined]
        or not isinstance(mask, ConstantInt)
        or gep.operands[1].type.width > 64  # type: ignore[attr-defined]
        or mask.type.width > 64
    ):
        return None
    inner = gep.operands[0]  # type: ignore[attr-defined]
    gep_index = gep.operands[1].value  # type: ignore[attr-defined]
    pk = ic.compute_known_bits(inner, 1, i)
    if pk.is_zero():
        return None
    tz = pk.count_min_trailing_zeros()
    align_bits = ((1 << tz) - 1) & _U64
    masked = (gep_index & ~align_bits & _U64) | (gep_index & align_bits & mask.value)
    if masked == gep_index:
        return None
    b = ic.builder
    b.position_before(i)
    idx_ty = ic.dl.index_type(inner.type)
    inbounds = bool(gep.flags & 1) if isinstance(gep, ConstantExpr) else bool(gep.inbounds)  # type: ignore[attr-defined]
    new_gep = b.create_gep(src_ty, inner, [const_int(idx_ty, masked)], gep.name, inbounds=inbounds)
    ic.replace_operand(i, 0, new_gep)
    return i


def _clo(x: int, w: int) -> int:
    return _clz(~x & _low(w), w)


def simplify_multiple_use_demanded_bits(
    ic: InstCombiner, i: Instruction, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery
) -> Value | None:
    """``SimplifyMultipleUseDemandedBits``: a simpler value for this one use, ``i`` untouched."""
    w = known.bit_width
    ity = i.type
    op = i.opcode
    if op in ("and", "or", "xor"):
        rk = compute_known_bits(i.operands[1], q, depth + 1)
        lk = compute_known_bits(i.operands[0], q, depth + 1)
        k = _known_and_xor_or(i, 1, lk, rk, depth, q)
        k = _known_bits_from_context(i, k, depth, q)
        _set_known(known, k)
        if _subset(demanded, k.zero | k.one):
            return _int_value(ity, k.one)
        if op == "and":
            if _subset(demanded, lk.zero | rk.one):
                return i.operands[0]
            if _subset(demanded, rk.zero | lk.one):
                return i.operands[1]
        elif op == "or":
            if _subset(demanded, lk.one | rk.zero):
                return i.operands[0]
            if _subset(demanded, rk.one | lk.zero):
                return i.operands[1]
        else:
            if _subset(demanded, rk.zero):
                return i.operands[0]
            if _subset(demanded, lk.zero):
                return i.operands[1]
        return None
    if op in ("add", "sub"):
        assert isinstance(i, BinaryOperator)
        nlz = _clz(demanded, w)
        from_ops = _low(w - nlz)
        rk = compute_known_bits(i.operands[1], q, depth + 1)
        if _subset(from_ops, rk.zero):
            return i.operands[0]
        lk = compute_known_bits(i.operands[0], q, depth + 1)
        if op == "add" and _subset(from_ops, lk.zero):
            return i.operands[1]
        k = KnownBits.compute_for_add_sub(op == "add", i.nsw, i.nuw, lk, rk)
        _set_known(known, _known_bits_from_context(i, k, depth, q))
        return None
    k = compute_known_bits(i, q, depth)
    _set_known(known, k)
    if _subset(demanded, k.zero | k.one):
        return _int_value(ity, k.one)
    if op == "ashr":
        m = pm.match(i, _P_ASHR_SHL)
        if m is not None:
            l, r = m.apint("l"), m.apint("r")
            if l == r and l < w and _subset(demanded, _low(w - r)):
                return m.value("x")
    return None


def simplify_shr_shl_demanded_bits(
    ic: InstCombiner, shr: Instruction, shr_amt: int, shl: Instruction, shl_amt: int, demanded: int, known: KnownBits
) -> Value | None:
    """``simplifyShrShlDemandedBits``: ``(X >> C1) << C2`` -> ``X << (C2 - C1)`` or
    ``X >> (C1 - C2)`` when the bits where they differ are not demanded."""
    if not shl_amt or not shr_amt:
        return None
    var_x = shr.operands[0]
    w = var_x.type.scalar_type.width  # type: ignore[attr-defined]
    full = _low(w)
    if shl_amt >= w or shr_amt >= w:
        return None
    known.one = 0
    known.zero = (known.zero | _low(shl_amt - 1)) & demanded
    is_lshr = shr.opcode == "lshr"
    if is_lshr:
        mask1 = ((full >> shr_amt) << shl_amt) & full
    else:
        mask1 = full << shl_amt & full  # ashr of all ones stays all ones
    if shr_amt <= shl_amt:
        mask2 = (full << (shl_amt - shr_amt)) & full
    else:
        mask2 = (full >> (shr_amt - shl_amt)) if is_lshr else full
    if (mask1 & demanded) != (mask2 & demanded):
        return None
    if shr_amt == shl_amt:
        return var_x
    if not shr.has_one_use:
        return None
    assert isinstance(shl, BinaryOperator) and isinstance(shr, BinaryOperator)
    if shr_amt < shl_amt:
        new = BinaryOperator.create("shl", var_x, const_int(var_x.type, shl_amt - shr_amt))
        new.nsw = shl.nsw
        new.nuw = shl.nuw
    else:
        new = BinaryOperator.create(shr.opcode, var_x, const_int(var_x.type, shr_amt - shl_amt))
        if shr.exact:
            new.exact = True
    return ic.insert_new_inst_with(new, shl)


# --- demanded vector elements -------------------------------------------------------------------


def simplify_demanded_vector_elts(
    ic: InstCombiner,
    v: Value,
    demanded: int,
    poison_out: list[int],
    depth: int = 0,
    allow_multiple_users: bool = False,
) -> Value | None:
    """``SimplifyDemandedVectorElts``: a simpler value for the demanded lanes of ``v``,
    None when nothing changed; ``poison_out[0]`` receives the mask of lanes known poison."""
    from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst

    vty = v.type
    if not isinstance(vty, VectorType) or vty.scalable:
        return None
    vw = vty.count
    elt_mask = _low(vw)
    if isinstance(v, PoisonValue):
        poison_out[0] = elt_mask
        return None
    if demanded == 0:
        poison_out[0] = elt_mask
        return PoisonValue.get(vty)
    poison_out[0] = 0
    if isinstance(v, Constant):
        if demanded == elt_mask:
            return None
        ept = PoisonValue.get(vty.element_type)
        elts: list[Constant] = []
        undef = 0
        for k in range(vw):
            if not (demanded >> k) & 1:
                elts.append(ept)
                undef |= 1 << k
                continue
            e = v.get_aggregate_element(k)
            if e is None:
                return None
            elts.append(e)
            if isinstance(e, PoisonValue):
                undef |= 1 << k
        poison_out[0] = undef
        new_cv = ConstantVector.get(elts)
        return new_cv if new_cv is not v else None
    if depth == 10:
        return None
    if not allow_multiple_users and not v.has_one_use:
        if depth != 0:
            return None
        demanded = elt_mask
    if not isinstance(v, Instruction):
        return None
    i = v
    made_change = False

    def set_op(inst: Instruction, op_num: int, dem: int) -> int:
        nonlocal made_change
        out = [0]
        r = simplify_demanded_vector_elts(ic, inst.operands[op_num], dem, out, depth + 1)
        if r is not None:
            ic.replace_operand(inst, op_num, r)
            made_change = True
        return out[0]

    poison = 0
    poison2 = 0
    poison3 = 0
    op = i.opcode
    if op == "insertelement":
        idx = i.operands[2]
        if not isinstance(idx, ConstantInt):
            set_op(i, 0, demanded)
        else:
            idx_no = idx.value
            pre = demanded
            if idx_no < vw:
                pre &= ~(1 << idx_no)
            if pre == 0:
                m = pm.match(i.operands[1], _P_EXTRACT_ELT)
                if m is not None and m.apint("c") == idx_no and m.value("vec").type is i.type:
                    return m.value("vec")
            poison = set_op(i, 0, pre)
            if idx_no >= vw or not (demanded >> idx_no) & 1:
                ic.worklist.push(i)
                poison_out[0] = poison
                return i.operands[0]
            poison &= ~(1 << idx_no)
    elif op == "shufflevector":
        assert isinstance(i, ShuffleVectorInst)
        op_ty = i.operands[0].type
        assert isinstance(op_ty, VectorType)
        ow = op_ty.count
        mask = i.mask
        if all(e == 0 for e in mask) and demanded == elt_mask:
            if not isinstance(i.operands[1], PoisonValue):
                i.set_operand(1, PoisonValue.get(op_ty))
                made_change = True
            lp = set_op(i, 0, 1)
            poison = elt_mask if lp & 1 else 0
        else:
            left = right = 0
            for k in range(vw):
                if (demanded >> k) & 1:
                    mv = mask[k]
                    if mv >= 0:
                        if mv < ow:
                            left |= 1 << mv
                        else:
                            right |= 1 << (mv - ow)
            lp = set_op(i, 0, left)
            rp = set_op(i, 1, right)
            if vw == ow:
                ident = True
                for k in range(vw):
                    if (demanded >> k) & 1 and mask[k] != k:
                        ident = False
                        break
                if ident:
                    poison_out[0] = poison
                    return i.operands[0]
            new_poison = False
            lidx = lval = ridx = rval = -1
            luni = runi = True
            for k in range(vw):
                mv = mask[k]
                if mv < 0:
                    poison |= 1 << k
                elif not (demanded >> k) & 1:
                    new_poison = True
                    poison |= 1 << k
                elif mv < ow:
                    if (lp >> mv) & 1:
                        new_poison = True
                        poison |= 1 << k
                    else:
                        lidx = k if lidx == -1 else ow
                        lval = mv if lval == -1 else ow
                        luni = luni and mv == k
                else:
                    if (rp >> (mv - ow)) & 1:
                        new_poison = True
                        poison |= 1 << k
                    else:
                        ridx = k if ridx == -1 else ow
                        rval = mv - ow if rval == -1 else ow
                        runi = runi and (mv - ow) == k
            if ow == vw:
                new_op: Value | None = None
                new_val: Constant | None = None
                at = -1
                if 0 <= lidx < ow and runi and isinstance(i.operands[0], ConstantVector):
                    new_op = i.operands[1]
                    new_val = i.operands[0].operands[lval]  # type: ignore[assignment]
                    at = lidx
                if 0 <= ridx < ow and luni and isinstance(i.operands[1], ConstantVector):
                    new_op = i.operands[0]
                    new_val = i.operands[1].operands[rval]  # type: ignore[assignment]
                    at = ridx
                if new_op is not None and new_val is not None:
                    from llvmpy_mid.ir.instructions.vector import InsertElementInst

                    ins = InsertElementInst(new_op, new_val, ConstantInt.get(i.context.i64, at), name=i.name)
                    ic.insert_new_inst_with(ins, i)
                    poison_out[0] = poison
                    return ins
            if new_poison:
                i.set_mask([-1 if (poison >> k) & 1 else mask[k] for k in range(vw)])
                made_change = True
    elif op == "select":
        cond = i.operands[0]
        if isinstance(cond.type, VectorType):
            poison = set_op(i, 0, demanded)
        dl_ = demanded
        dr_ = demanded
        if isinstance(cond, ConstantVector):
            for k in range(vw):
                ce = cond.get_aggregate_element(k)
                if ce is None or isinstance(ce, ConstantExpr):
                    continue
                if ce.is_null_value:
                    dl_ &= ~(1 << k)
                else:
                    dr_ &= ~(1 << k)
        poison2 = set_op(i, 1, dl_)
        poison3 = set_op(i, 2, dr_)
        poison = poison2 & poison3
    elif op == "bitcast":
        in_ty = i.operands[0].type
        if isinstance(in_ty, VectorType) and not in_ty.scalable:
            iw = in_ty.count
            in_dem = 0
            ratio = 0
            if vw == iw:
                ratio = 1
                in_dem = demanded
            elif vw % iw == 0:
                ratio = vw // iw
                for k in range(vw):
                    if (demanded >> k) & 1:
                        in_dem |= 1 << (k // ratio)
            elif iw % vw == 0:
                ratio = iw // vw
                for k in range(iw):
                    if (demanded >> (k // ratio)) & 1:
                        in_dem |= 1 << k
            if ratio:
                p2 = set_op(i, 0, in_dem)
                if vw == iw:
                    poison = p2
                elif vw % iw == 0:
                    for k in range(vw):
                        if (p2 >> (k // ratio)) & 1:
                            poison |= 1 << k
                else:
                    for k in range(vw):
                        if ((p2 >> (k * ratio)) & _low(ratio)) == _low(ratio):
                            poison |= 1 << k
    elif op in ("fptrunc", "fpext"):
        poison = set_op(i, 0, demanded)
    elif op == "getelementptr":
        from llvmpy_mid.ir.instructions.gep import GetElementPtrInst

        if isinstance(i, GetElementPtrInst) and not _gep_may_index_struct(i):
            for k in range(i.num_operands):
                o = i.operands[k]
                if (k == 0 and pm.matches(o, _P_UNDEF)) or (k != 0 and pm.matches(o, _P_POISON)):
                    poison_out[0] = elt_mask
                    return None
                if isinstance(o.type, VectorType):
                    po = set_op(i, k, demanded)
                    if k == 0:
                        poison |= po

    if isinstance(i, BinaryOperator) and op not in _DIV_REM_SHIFT:
        x, y = i.operands[0], i.operands[1]
        if demanded == 1 and not x.has_one_use and not y.has_one_use and i.has_one_use:
            u = _find_shuf_bo(ic, i, True) or _find_shuf_bo(ic, i, False)
            if u is not None:
                poison_out[0] = poison
                return u
        poison = set_op(i, 0, demanded)
        poison2 = set_op(i, 1, demanded)
        poison &= poison2
    poison_out[0] = poison
    if poison == elt_mask:
        return PoisonValue.get(i.type)
    return i if made_change else None


_DIV_REM_SHIFT = frozenset(("udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr"))
_P_UNDEF = pm.m_undef()
_P_POISON = pm.m_poison()


def _gep_may_index_struct(gep: Instruction) -> bool:
    """Whether an index after the first steps into a struct (LLVM's ``isStruct`` walk)."""
    from llvmpy_mid.ir.types import ArrayType, StructType

    ty = gep.source_element_type  # type: ignore[attr-defined]
    for idx in gep.operands[2:]:
        if isinstance(ty, StructType):
            return True
        if isinstance(ty, (ArrayType, VectorType)):
            ty = ty.element_type
        else:
            return False
    return False


def _find_shuf_bo(ic: InstCombiner, bo: Instruction, shuf_as_op0: bool) -> Value | None:
    """The ``bo (shuf X, zeromask), Y`` (or commuted) dominating ``bo X, Y``."""
    from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst

    x, y = bo.operands[0], bo.operands[1]
    shuf_op = x if shuf_as_op0 else y
    other = y if shuf_as_op0 else x
    for u in list(other.users):
        if not isinstance(u, Instruction) or u.opcode != bo.opcode:
            continue
        a, b = u.operands[0], u.operands[1]
        cands: list[tuple[Value, Value]] = []
        if bo.is_commutative:
            cands = [(a, b), (b, a)]
        elif shuf_as_op0:
            cands = [(a, b)]
        else:
            cands = [(b, a)]
        for s, o in cands:
            if o is not other or not isinstance(s, ShuffleVectorInst) or s.operands[0] is not shuf_op:
                continue
            mask = s.mask
            if all(e == 0 or e == -1 for e in mask) and mask[0] != -1 and ic.dt.dominates(u, bo):
                return u
    return None


# --- demanded floating-point classes ---------------------------------------------------------------

FC_SNAN = 1 << 0
FC_QNAN = 1 << 1
FC_NEG_INF = 1 << 2
FC_NEG_NORMAL = 1 << 3
FC_NEG_SUBNORMAL = 1 << 4
FC_NEG_ZERO = 1 << 5
FC_POS_ZERO = 1 << 6
FC_POS_SUBNORMAL = 1 << 7
FC_POS_NORMAL = 1 << 8
FC_POS_INF = 1 << 9
FC_ALL = (1 << 10) - 1
FC_NAN = FC_SNAN | FC_QNAN
FC_INF = FC_NEG_INF | FC_POS_INF
FC_ZERO = FC_NEG_ZERO | FC_POS_ZERO
FC_NEGATIVE = FC_NEG_INF | FC_NEG_NORMAL | FC_NEG_SUBNORMAL | FC_NEG_ZERO
FC_POSITIVE = FC_POS_INF | FC_POS_NORMAL | FC_POS_SUBNORMAL | FC_POS_ZERO
"""LLVM's ``FPClassTest`` bits."""

_SIGN_PAIRS = (
    (FC_NEG_INF, FC_POS_INF),
    (FC_NEG_NORMAL, FC_POS_NORMAL),
    (FC_NEG_SUBNORMAL, FC_POS_SUBNORMAL),
    (FC_NEG_ZERO, FC_POS_ZERO),
)


def fneg_fp_classes(m: int) -> int:
    """``llvm::fneg(FPClassTest)``: the classes with their signs swapped."""
    out = m & FC_NAN
    for n, p in _SIGN_PAIRS:
        if m & n:
            out |= p
        if m & p:
            out |= n
    return out


def _fabs_classes(m: int) -> int:
    """``KnownFPClass::fabs``: every class made positive."""
    return (m & (FC_NAN | FC_POSITIVE)) | (fneg_fp_classes(m) & FC_POSITIVE)


def _inverse_fabs(m: int) -> int:
    """``llvm::inverse_fabs``: the source classes whose fabs lands in ``m``."""
    pos = m & (FC_NAN | FC_POSITIVE)
    return pos | fneg_fp_classes(pos & FC_POSITIVE)


def _unknown_sign(m: int) -> int:
    """``llvm::unknown_sign``: ``m`` with both signs of each class."""
    return m | fneg_fp_classes(m)


def _fp_const_class(c: ConstantFP) -> int:
    from llvmpy_mid.ir import apfloat

    sem = apfloat.semantics_of(c.type.type_id)
    if sem is None:
        return FC_ALL
    cat = apfloat.category(sem, c.bits)
    neg = apfloat.is_negative(sem, c.bits)
    if cat == apfloat.NAN:
        return FC_SNAN if apfloat.is_signaling(sem, c.bits) else FC_QNAN
    if cat == apfloat.INF:
        return FC_NEG_INF if neg else FC_POS_INF
    if cat == apfloat.ZERO:
        return FC_NEG_ZERO if neg else FC_POS_ZERO
    if apfloat.is_denormal(sem, c.bits):
        return FC_NEG_SUBNORMAL if neg else FC_POS_SUBNORMAL
    return FC_NEG_NORMAL if neg else FC_POS_NORMAL


def _int_to_fp_may_be_inf(i: Instruction) -> bool:
    """``ilogb(largest(FP)) < IntSize`` of computeKnownFPClass's int-to-FP case."""
    from llvmpy_mid.ir import apfloat

    sem = apfloat.semantics_of(i.type.scalar_type.type_id)
    if sem is None:
        return True
    int_size: int = i.operands[0].type.scalar_type.width  # type: ignore[attr-defined]
    if i.opcode == "sitofp":
        int_size -= 1
    max_exp = (1 << (sem.exp_bits - 1)) - 1
    return max_exp < int_size


def possible_fp_classes(v: Value, depth: int = 0) -> int:
    """The classes ``v`` may have (the part of ``computeKnownFPClass`` the folds here rely on:
    constants, ``nofpclass`` arguments and calls, int-to-FP casts, fneg/fabs/copysign, fmul by
    a zero, select); anything else may be of any class."""
    from llvmpy_mid.ir.function import Argument

    if isinstance(v, ConstantFP):
        return _fp_const_class(v)
    if isinstance(v, Constant) and isinstance(v.type, VectorType) and not v.type.scalable:
        if isinstance(v, UndefValue):
            return FC_ALL
        m = 0
        for k in range(v.type.count):
            e = v.get_aggregate_element(k)
            if isinstance(e, UndefValue):
                continue
            if not isinstance(e, ConstantFP):
                return FC_ALL
            m |= _fp_const_class(e)
        return m
    if isinstance(v, Argument):
        attr = v.attributes.get("nofpclass")
        return FC_ALL & ~attr.int_value if attr is not None else FC_ALL
    if depth >= _MAX or not isinstance(v, Instruction):
        return FC_ALL
    opc = v.opcode
    if opc in ("sitofp", "uitofp"):
        m = FC_ALL & ~FC_NAN
        if not _int_to_fp_may_be_inf(v):
            m &= ~FC_INF
        if opc == "uitofp":
            m &= ~FC_NEGATIVE
        return m
    if opc == "fneg":
        return fneg_fp_classes(possible_fp_classes(v.operands[0], depth + 1))
    if opc == "select":
        return possible_fp_classes(v.operands[1], depth + 1) | possible_fp_classes(v.operands[2], depth + 1)
    if opc == "fmul":
        a = possible_fp_classes(v.operands[0], depth + 1)
        b = possible_fp_classes(v.operands[1], depth + 1)
        for x, y in ((a, b), (b, a)):
            if not x & ~FC_ZERO and not y & (FC_NAN | FC_INF):
                return FC_ZERO
        return FC_ALL
    from llvmpy_mid.transform.instcombine.common import intrinsic_base_of

    base = intrinsic_base_of(v)
    if base == "fabs":
        return _fabs_classes(possible_fp_classes(v.operands[0], depth + 1))
    if base == "copysign":
        return _copysign_classes(possible_fp_classes(v.operands[0], depth + 1), possible_fp_classes(v.operands[1], depth + 1))
    return FC_ALL


def _copysign_classes(mag: int, sign: int) -> int:
    """``KnownFPClass::copysign``: the magnitude's classes with the sign's sign."""
    m = _fabs_classes(mag)
    if not sign & (FC_POSITIVE | FC_NAN):
        return fneg_fp_classes(m)
    if not sign & (FC_NEGATIVE | FC_NAN):
        return m
    return _unknown_sign(m)


def _fp_class_constant(ty: Type, mask: int) -> Constant | None:
    """``getFPClassConstant``: the one value of a class that has one bit pattern."""
    if mask == 0:
        return PoisonValue.get(ty)
    if mask == FC_POS_ZERO:
        return Constant.get_null_value(ty)
    if mask == FC_NEG_ZERO:
        return _fp_splat(ty, -0.0)
    if mask == FC_POS_INF:
        return _fp_splat(ty, float("inf"))
    if mask == FC_NEG_INF:
        return _fp_splat(ty, float("-inf"))
    return None


def _fp_splat(ty: Type, value: float) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantFP.get(ty.element_type, value))
    if not isinstance(ty, VectorType) and not hasattr(ty, "bits"):
        # Aggregates (arrays, structs) have no single-pattern constant here.
        raise _NoConstant
    return ConstantFP.get(ty, value)


class _NoConstant(Exception):
    pass


def _class_constant(ty: Type, mask: int) -> Constant | None:
    try:
        return _fp_class_constant(ty, mask)
    except _NoConstant:
        return None


def simplify_demanded_use_fp_class(
    ic: InstCombiner,
    v: Value,
    demanded: int,
    depth: int = 0,
    cxt_i: Instruction | None = None,
    known_out: list[int] | None = None,
) -> Value | None:
    """``SimplifyDemandedUseFPClass``: a simpler value where only the classes in ``demanded``
    matter; None = nothing changed, ``v`` itself = an operand was simplified in place.
    ``known_out[0]`` (optional) receives the classes ``v`` may have (``KnownFPClasses``)."""
    r, known = _sdufpc(ic, v, demanded, depth)
    if known_out is not None:
        known_out[0] = known
    return r


def _sdufpc(ic: InstCombiner, v: Value, demanded: int, depth: int) -> tuple[Value | None, int]:
    vty = v.type
    if demanded == 0:
        return (None if isinstance(v, UndefValue) else PoisonValue.get(vty)), FC_ALL
    if depth == _MAX:
        return None, FC_ALL
    if not isinstance(v, Instruction):
        known = possible_fp_classes(v, depth + 1)
        folded = _class_constant(vty, demanded & known)
        return (None if folded is v else folded), known
    i = v
    if not i.has_one_use:
        return None, FC_ALL
    opc = i.opcode
    base = ""
    if opc == "call":
        from llvmpy_mid.transform.instcombine.common import intrinsic_base_of

        base = intrinsic_base_of(i)
    if opc == "fneg":
        r, k = _sdfpc(ic, i, 0, fneg_fp_classes(demanded), depth + 1)
        if r:
            return i, FC_ALL
        known = fneg_fp_classes(k)
    elif base == "fabs":
        r, k = _sdfpc(ic, i, 0, _inverse_fabs(demanded), depth + 1)
        if r:
            return i, FC_ALL
        known = _fabs_classes(k)
    elif base == "arithmetic.fence":
        r, k = _sdfpc(ic, i, 0, demanded, depth + 1)
        if r:
            return i, FC_ALL
        known = k
    elif base == "copysign":
        r, k = _sdfpc(ic, i, 0, _unknown_sign(demanded), depth + 1)
        if r:
            return i, FC_ALL
        if not demanded & FC_POSITIVE:
            i.set_operand(1, _fp_splat(vty, -1.0))
            return i, FC_ALL
        if not demanded & FC_NEGATIVE:
            i.set_operand(1, Constant.get_null_value(vty))
            return i, FC_ALL
        known = _copysign_classes(k, possible_fp_classes(i.operands[1], depth + 1))
    elif opc == "select":
        r2, k_rhs = _sdfpc(ic, i, 2, demanded, depth + 1)
        if r2:
            return i, FC_ALL
        r1, k_lhs = _sdfpc(ic, i, 1, demanded, depth + 1)
        if r1:
            return i, FC_ALL
        if not k_lhs & demanded:
            return i.operands[2], FC_ALL
        if not k_rhs & demanded:
            return i.operands[1], FC_ALL
        known = k_lhs | k_rhs
    else:
        known = possible_fp_classes(i, depth + 1)
    return _class_constant(vty, demanded & known), known


def _sdfpc(ic: InstCombiner, i: Instruction, op_num: int, demanded: int, depth: int) -> tuple[bool, int]:
    """``SimplifyDemandedFPClass`` and the operand's known classes."""
    v = i.operands[op_num]
    new, known = _sdufpc(ic, v, demanded, depth)
    if new is None:
        return False, known
    if isinstance(v, Instruction):
        salvage_debug_info(v)
    ic.replace_operand(i, op_num, new)
    return True, known


def simplify_demanded_fp_class(ic: InstCombiner, i: Instruction, op_num: int, demanded: int, depth: int = 0) -> bool:
    """``SimplifyDemandedFPClass``: True when operand ``op_num`` of ``i`` was replaced."""
    return _sdfpc(ic, i, op_num, demanded, depth)[0]


__all__ = [
    "FC_ALL",
    "FC_NEG_NORMAL",
    "FC_POS_NORMAL",
    "fneg_fp_classes",
    "possible_fp_classes",
    "simplify_demanded_bits",
    "simplify_demanded_fp_class",
    "simplify_demanded_instruction_bits",
    "simplify_demanded_use_bits",
    "simplify_demanded_use_fp_class",
    "simplify_demanded_vector_elts",
    "simplify_multiple_use_demanded_bits",
    "simplify_shr_shl_demanded_bits",
]
