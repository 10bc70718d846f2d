"""Bitwise logic of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``: ``simplifyAndInst``,
``simplifyOrInst``, ``simplifyXorInst`` with ``simplifyOrLogic``,
``simplifyAndOrOfCmps``, ``simplifyAndOrWithICmpEq``, ``simplifyLogicOfAddSub``
and the implied-condition folds of booleans).
"""

from __future__ import annotations

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import Constant, PoisonValue
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.value import Value

import llvmpy_mid.analysis.instsimplify.binops as _b

RECURSION_LIMIT = u.RECURSION_LIMIT
P = Predicate


# --- and, or, xor -------------------------------------------------------------------------------------


def _logic_of_add_sub(op0: Value, op1: Value, opcode: str, q: SimplifyQuery) -> Value | None:
    """(X + C1) op (C2 - X) with C2 == ~C1 is 0 for and, -1 for or and xor."""
    for a, b in ((op0, op1), (op1, op0)):
        add = u.binop(a, "add")
        sub = u.binop(b, "sub")
        if add is None or sub is None:
            continue
        x, c1 = add
        c2, sx = sub
        if sx is not x or not isinstance(c1, Constant) or not isinstance(c2, Constant):
            continue
        if u.fold_binop("xor", c1, u.all_ones(c1.type), q) is c2:
            return u.null(op0.type) if opcode == "and" else u.all_ones(op0.type)
    return None


def _is_check_for_zero_and_mul_with_overflow(op0: Value, op1: Value, is_and: bool) -> bool:
    """``(x != 0) & overflow(x * y)`` / ``(x == 0) | !overflow(x * y)``
    (LLVM ``isCheckForZeroAndMulWithOverflow``)."""
    if not isinstance(op0, ICmpInst) or not u.is_zero(op0.rhs):
        return False
    x = op0.lhs
    pred = op0.predicate
    if is_and and pred == Predicate.ICMP_NE:
        target: Value | None = op1
    elif not is_and and pred == Predicate.ICMP_EQ:
        target = u.not_of(op1)
    else:
        return False
    if target is None:
        return False
    from llvmpy_mid.ir.instructions.vector import ExtractValueInst

    if not isinstance(target, ExtractValueInst) or tuple(target.indices) != (1,):
        return False
    agg = target.get_operand(0)
    name = u.intrinsic_name(agg)
    if name not in ("llvm.umul.with.overflow", "llvm.smul.with.overflow"):
        return False
    assert isinstance(agg, CallInst)
    return agg.get_arg(0) is x or agg.get_arg(1) is x


def _simplify_and_commutative(op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    ty = op0.type
    if u.not_of(op0) is op1:
        return u.null(ty)
    if u.c_binop_with(op0, "or", op1) is not None:
        return op1
    ors = u.binop(op0, "or")
    if ors is not None:
        for x, ny in ((ors[0], ors[1]), (ors[1], ors[0])):
            y = u.not_of(ny)
            if y is not None:
                o1 = u.binop(op1, "or")
                if o1 is not None and ((o1[0] is x and o1[1] is y) or (o1[1] is x and o1[0] is y)):
                    return x
    if _is_check_for_zero_and_mul_with_overflow(op0, op1, True):
        return op1
    if u.neg_of(op0) is op1 and u.known_power_of_two(op1, q, True):
        return op1
    ops = u.binop(op0, "add")
    if ops is not None and ops[0] is op1 and u.is_all_ones(ops[1]) and u.known_power_of_two(op1, q, True):
        return u.null(ty)
    sh1 = u.binop(op0, "shl")
    if sh1 is not None:
        s1 = u.apint(sh1[1])
        add = u.binop(op1, "add")
        if s1 is not None and add is not None and u.is_all_ones(add[1]):
            sh2 = u.binop(add[0], "shl")
            if sh2 is not None and sh2[0] is sh1[0]:
                s2 = u.apint(sh2[1])
                if s2 is not None and s1.value >= s2.value and u.known_power_of_two(sh1[0], q, True):
                    return u.null(ty)
    return _simplify_and_or_with_icmp_eq("and", op0, op1, q, max_recurse)


def _simplify_and_or_with_icmp_eq(opcode: str, op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """``(A == B) & f(A)``: substitute B for A in the other operand; an absorber
    or identity result decides (LLVM ``simplifyAndOrWithICmpEq``)."""
    if not isinstance(op0, ICmpInst) or not op0.predicate.is_equality:
        return None
    pred = op0.predicate
    a = op0.lhs
    b = op0.rhs
    import llvmpy_mid.analysis.instsimplify.other as other

    def decide(res: Value) -> Value | None:
        rty = res.type
        absorber = u.null(rty) if opcode == "and" else u.all_ones(rty)
        identity = u.all_ones(rty) if opcode == "and" else u.null(rty)
        if pred == (Predicate.ICMP_EQ if opcode == "and" else Predicate.ICMP_NE):
            if res is absorber:
                return absorber
            if res is identity:
                return op0
            return None
        if res is absorber:
            return op1
        return None

    qn = q.get_without_undef()
    res = other.simplify_with_op_replaced(op1, a, b, qn, True, None, max_recurse)
    if res is not None:
        return decide(res)
    res = other.simplify_with_op_replaced(op1, b, a, qn, True, None, max_recurse)
    if res is not None:
        return decide(res)
    return None


def simplify_and_inst(op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``and``: X & poison, X & X, X & 0, X & -1, X & ~X, masks of shifts, ..."""
    c, op0, op1 = _b.fold_or_commute_constant("and", op0, op1, q)
    if c is not None:
        return c
    ty = op0.type
    if isinstance(op1, PoisonValue):
        return op1
    if u.is_undef(q, op1):
        return u.null(ty)
    if op0 is op1:
        return op0
    if u.is_zero(op1):
        return u.null(ty)
    if u.is_all_ones(op1):
        return op0
    v = _simplify_and_commutative(op0, op1, q, max_recurse)
    if v is not None:
        return v
    v = _simplify_and_commutative(op1, op0, q, max_recurse)
    if v is not None:
        return v
    v = _logic_of_add_sub(op0, op1, "and", q)
    if v is not None:
        return v
    mask = u.apint(op1)
    if mask is not None:
        w = mask.type.width
        m = (1 << w) - 1
        inv = ~mask.value & m
        sh = u.binop(op0, "shl")
        if sh is not None:
            amt = u.apint(sh[1])
            if amt is not None and (inv >> amt.value if amt.value < w else 0) == 0:
                return op0
        sh = u.binop(op0, "lshr")
        if sh is not None:
            amt = u.apint(sh[1])
            if amt is not None and ((inv << amt.value) & m if amt.value < w else 0) == 0:
                return op0
    if mask is not None and mask.value and mask.value & (mask.value - 1) == 0:
        add = u.binop(op0, "add")
        if add is not None and u.is_all_ones(add[1]) and u.known_power_of_two(add[0], q, False):
            kb = u.known_bits(add[0], q)
            maxv = ~kb.zero & ((1 << kb.bit_width) - 1)
            if mask.value.bit_length() >= maxv.bit_length():
                return u.null(ty)
    v = _simplify_and_or_of_cmps(q, op0, op1, True)
    if v is not None:
        return v
    v = _b.simplify_associative_binop("and", op0, op1, q, max_recurse)
    if v is not None:
        return v
    v = _b.expand_commutative_binop("and", op0, op1, "or", q, max_recurse)
    if v is not None:
        return v
    v = _b.expand_commutative_binop("and", op0, op1, "xor", q, max_recurse)
    if v is not None:
        return v
    if isinstance(op0, SelectInst) or isinstance(op1, SelectInst):
        if u.is_bool_ty(ty):
            if isinstance(op1, SelectInst) and op1.condition is op0 and u.is_zero(op1.false_value):
                return op1
            if isinstance(op0, SelectInst) and op0.condition is op1 and u.is_zero(op0.false_value):
                return op0
        v = _b.thread_binop_over_select("and", op0, op1, q, max_recurse)
        if v is not None:
            return v
    if isinstance(op0, PHINode) or isinstance(op1, PHINode):
        v = _b.thread_binop_over_phi("and", op0, op1, q, max_recurse)
        if v is not None:
            return v
    if q.use_instr_info and mask is not None:
        ors = u.binop(op0, "or")
        if ors is not None:
            for xs, y in ((ors[0], ors[1]), (ors[1], ors[0])):
                sh = u.binop(xs, "shl")
                if sh is None or not _b.has_nuw_inst(xs):
                    continue
                amt = u.apint(sh[1])
                if amt is None:
                    continue
                w = mask.type.width
                cnt = min(amt.value, w)
                ky = u.known_bits(y, q)
                effy = (~ky.zero & ((1 << w) - 1)).bit_length()
                if effy <= cnt:
                    kx = u.known_bits(sh[0], q)
                    effx = (~kx.zero & ((1 << w) - 1)).bit_length()
                    bits_y = (1 << effy) - 1
                    bits_x = (((1 << effx) - 1) << cnt) & ((1 << w) - 1)
                    if bits_y & ~mask.value == 0 and bits_x & mask.value == 0:
                        return y
                    if bits_x & ~mask.value == 0 and bits_y & mask.value == 0:
                        return xs
                break
    xo = u.binop(op0, "xor")
    if xo is not None:
        for x, orv in ((xo[0], xo[1]), (xo[1], xo[0])):
            if not isinstance(orv, BinaryOperator):
                continue
            yo = u.c_binop_with(orv, "or", x)
            if yo is None:
                continue
            x1 = u.binop(op1, "xor")
            if x1 is not None and ((x1[0] is orv and x1[1] is yo) or (x1[1] is orv and x1[0] is yo)):
                return u.null(ty)
    if _xor_pair_with_inverted_constants(op0, op1):
        return u.null(ty)
    v = _implied_and_or(op0, op1, q, True)
    if v is not None:
        return v
    return _b.simplify_by_dom_eq("and", op0, op1, q, max_recurse)


def _xor_pair_with_inverted_constants(op0: Value, op1: Value) -> bool | None:
    """``(A ^ C1)`` and ``(A ^ ~C1)``."""
    x0 = u.binop(op0, "xor")
    x1 = u.binop(op1, "xor")
    if x0 is None or x1 is None or x0[0] is not x1[0]:
        return None
    c1 = u.apint(x0[1])
    if c1 is None:
        return None
    if u.is_specific_int(x1[1], ~c1.value):
        return True
    return None


def _implied_and_or(op0: Value, op1: Value, q: SimplifyQuery, is_and: bool) -> Value | None:
    """For booleans: one operand implies the other (LLVM ``isImpliedCondition``)."""
    if not u.is_bool_ty(op0.type):
        return None
    from llvmpy_mid.analysis.implied_condition import is_implied_condition

    implied = is_implied_condition(op0, op1, q.dl, is_and)
    if is_and:
        if implied is True:
            return op0
        if implied is False:
            return u.get_false(op0.type)
        implied = is_implied_condition(op1, op0, q.dl, True)
        if implied is True:
            return op1
        if implied is False:
            return u.get_false(op1.type)
        return None
    if implied is False:
        return op0
    if implied is True:
        return u.get_true(op0.type)
    implied = is_implied_condition(op1, op0, q.dl, False)
    if implied is False:
        return op1
    if implied is True:
        return u.get_true(op1.type)
    return None


def _simplify_and_or_of_cmps(q: SimplifyQuery, op0: Value, op1: Value, is_and: bool) -> Value | None:
    """Two compares (possibly under one kind of cast) combined by and/or."""
    cast0 = op0 if isinstance(op0, CastInst) else None
    cast1 = op1 if isinstance(op1, CastInst) else None
    if cast0 is not None and cast1 is not None and cast0.opcode == cast1.opcode and cast0.src_type is cast1.src_type:
        op0 = cast0.operand
        op1 = cast1.operand
    else:
        cast0 = None
    v: Value | None = None
    if isinstance(op0, ICmpInst) and isinstance(op1, ICmpInst):
        v = simplify_and_of_icmps(op0, op1, q) if is_and else simplify_or_of_icmps(op0, op1, q)
    if isinstance(op0, FCmpInst) and isinstance(op1, FCmpInst):
        v = simplify_and_or_of_fcmps(q, op0, op1, is_and)
    if v is None:
        return None
    if cast0 is None:
        return v
    if isinstance(v, Constant):
        return u.fold_cast(cast0.opcode, v, cast0.type, q)
    return None


def _simplify_or_logic(x: Value, y: Value) -> Value | None:
    """The or folds that need no analysis (LLVM ``simplifyOrLogic``)."""
    ty = x.type
    if u.not_of(y) is x:
        return u.all_ones(ty)
    ny = u.not_of(y)
    if ny is not None and u.c_binop_with(ny, "and", x) is not None:
        return u.all_ones(ty)
    if u.c_binop_with(y, "and", x) is not None:
        return x

    def same_pair(v: Value, opcode: str, a: Value, b: Value) -> bool:
        ops = u.binop(v, opcode)
        return ops is not None and ((ops[0] is a and ops[1] is b) or (ops[0] is b and ops[1] is a))

    xo = u.binop(x, "xor")
    if xo is not None and same_pair(y, "or", xo[0], xo[1]):
        return y
    nx = u.not_of(x)
    if nx is not None:
        xo2 = u.binop(nx, "xor")
        if xo2 is not None and same_pair(y, "or", xo2[0], xo2[1]):
            return u.all_ones(ty)
    xa = u.binop(x, "and")
    if xa is not None:
        for a, nb in ((xa[0], xa[1]), (xa[1], xa[0])):
            b = u.not_of(nb)
            if b is not None and same_pair(y, "xor", a, b):
                return y
    xx = u.binop(x, "xor")
    if xx is not None:
        for na, b in ((xx[0], xx[1]), (xx[1], xx[0])):
            a2 = u.not_of(na)
            if a2 is not None and same_pair(y, "and", a2, b):
                return x
    xr = u.binop(x, "or")
    if xr is not None:
        for na, b in ((xr[0], xr[1]), (xr[1], xr[0])):
            a3 = u.not_of(na)
            if a3 is not None and same_pair(y, "xor", a3, b):
                return u.all_ones(ty)
    if xa is not None:
        nyv = u.not_of(y)
        if nyv is not None:
            for nota, b in ((xa[0], xa[1]), (xa[1], xa[0])):
                a4 = u.not_of(nota)
                if a4 is not None and same_pair(nyv, "or", a4, b):
                    return nota
    from llvmpy_mid.analysis.instsimplify.select import _logical_pair

    lx = _logical_pair(x, True)
    if lx is not None:
        nyl = u.not_of(y)
        ly = _logical_pair(nyl, False) if nyl is not None else None
        if ly is not None:
            for nota, b in ((lx[0], lx[1]), (lx[1], lx[0])):
                a5 = u.not_of(nota)
                if a5 is not None and ((ly[0] is a5 and ly[1] is b) or (ly[0] is b and ly[1] is a5)):
                    return nota
    if nx is not None:
        xo3 = u.binop(nx, "xor")
        if xo3 is not None and same_pair(y, "and", xo3[0], xo3[1]):
            return x
        xa3 = u.binop(nx, "and")
        if xa3 is not None and same_pair(y, "xor", xa3[0], xa3[1]):
            return x
    return None


def simplify_or_inst(op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``or``: X | poison, X | -1, X | X, X | 0, X | ~X, funnel shifts, ..."""
    c, op0, op1 = _b.fold_or_commute_constant("or", op0, op1, q)
    if c is not None:
        return c
    ty = op0.type
    if isinstance(op1, PoisonValue):
        return op1
    if u.is_undef(q, op1) or u.is_all_ones(op1):
        return u.all_ones(ty)
    if op0 is op1 or u.is_zero(op1):
        return op0
    v = _simplify_or_logic(op0, op1)
    if v is not None:
        return v
    v = _simplify_or_logic(op1, op0)
    if v is not None:
        return v
    v = _logic_of_add_sub(op0, op1, "or", q)
    if v is not None:
        return v
    for a, b in ((op0, op1), (op1, op0)):
        shl = u.binop(a, "shl")
        lshr = u.binop(b, "lshr")
        if shl is not None and lshr is not None and u.is_all_ones(shl[0]) and u.is_all_ones(lshr[0]):
            x, y = shl[1], lshr[1]
            for p, other_ in ((x, y), (y, x)):
                s = u.binop(p, "sub")
                if s is not None and s[1] is other_:
                    cc = u.apint(s[0])
                    if cc is not None and cc.value <= u.scalar_bits(x.type):
                        return u.all_ones(x.type)
            break
    for a, b in ((op0, op1), (op1, op0)):
        args = u.intrinsic_args(a, "llvm.fshl")
        if args is not None:
            sh = u.binop(b, "shl")
            if sh is not None and sh[0] is args[0] and sh[1] is args[2]:
                return a
    for a, b in ((op0, op1), (op1, op0)):
        args = u.intrinsic_args(a, "llvm.fshr")
        if args is not None:
            sh = u.binop(b, "lshr")
            if sh is not None and sh[0] is args[1] and sh[1] is args[2]:
                return a
    v = _simplify_and_or_with_icmp_eq("or", op0, op1, q, max_recurse)
    if v is not None:
        return v
    v = _simplify_and_or_with_icmp_eq("or", op1, op0, q, max_recurse)
    if v is not None:
        return v
    v = _simplify_and_or_of_cmps(q, op0, op1, False)
    if v is not None:
        return v
    if _is_check_for_zero_and_mul_with_overflow(op0, op1, False):
        return op1
    if _is_check_for_zero_and_mul_with_overflow(op1, op0, False):
        return op0
    v = _b.simplify_associative_binop("or", op0, op1, q, max_recurse)
    if v is not None:
        return v
    v = _b.expand_commutative_binop("or", op0, op1, "and", q, max_recurse)
    if v is not None:
        return v
    if isinstance(op0, SelectInst) or isinstance(op1, SelectInst):
        if u.is_bool_ty(ty):
            if isinstance(op1, SelectInst) and op1.condition is op0 and u.is_one(op1.true_value):
                return op1
            if isinstance(op0, SelectInst) and op0.condition is op1 and u.is_one(op0.true_value):
                return op0
        v = _b.thread_binop_over_select("or", op0, op1, q, max_recurse)
        if v is not None:
            return v
    a0 = u.binop(op0, "and")
    a1 = u.binop(op1, "and")
    if a0 is not None and a1 is not None:
        c1 = u.apint(a0[1])
        c2 = u.apint(a1[1])
        if c1 is not None and c2 is not None and c1.value == ~c2.value & c2.type.mask:
            a, b = a0[0], a1[0]
            if _is_mask(c2.value):
                n = u.c_binop_with(a, "add", b)
                if n is not None and u.masked_zero(n, c2.value, q):
                    return a
            if _is_mask(c1.value):
                n = u.c_binop_with(b, "add", a)
                if n is not None and u.masked_zero(n, c1.value, q):
                    return b
    if isinstance(op0, PHINode) or isinstance(op1, PHINode):
        v = _b.thread_binop_over_phi("or", op0, op1, q, max_recurse)
        if v is not None:
            return v
    if _xor_pair_with_inverted_constants(op0, op1):
        return u.all_ones(ty)
    v = _implied_and_or(op0, op1, q, False)
    if v is not None:
        return v
    return _b.simplify_by_dom_eq("or", op0, op1, q, max_recurse)


def _is_mask(v: int) -> bool:
    return v != 0 and v & (v + 1) == 0


def simplify_xor_inst(op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``xor``: X ^ poison, X ^ undef, X ^ 0, X ^ X, X ^ ~X, ..."""
    c, op0, op1 = _b.fold_or_commute_constant("xor", op0, op1, q)
    if c is not None:
        return c
    ty = op0.type
    if isinstance(op1, PoisonValue):
        return op1
    if u.is_undef(q, op1):
        return op1
    if u.is_zero(op1):
        return op0
    if op0 is op1:
        return u.null(ty)
    if u.not_of(op0) is op1 or u.not_of(op1) is op0:
        return u.all_ones(ty)

    def fold_and_or_not(x: Value, y: Value) -> Value | None:
        xa = u.binop(x, "and")
        if xa is not None:
            for na, b in ((xa[0], xa[1]), (xa[1], xa[0])):
                a = u.not_of(na)
                if a is not None:
                    yo = u.binop(y, "or")
                    if yo is not None and ((yo[0] is a and yo[1] is b) or (yo[0] is b and yo[1] is a)):
                        return a
        xo = u.binop(x, "or")
        if xo is not None:
            for na, b in ((xo[0], xo[1]), (xo[1], xo[0])):
                a = u.not_of(na)
                if a is not None:
                    ya = u.binop(y, "and")
                    if ya is not None and ((ya[0] is a and ya[1] is b) or (ya[0] is b and ya[1] is a)):
                        return na
        return None

    v = fold_and_or_not(op0, op1)
    if v is not None:
        return v
    v = fold_and_or_not(op1, op0)
    if v is not None:
        return v
    v = _logic_of_add_sub(op0, op1, "xor", q)
    if v is not None:
        return v
    v = _b.simplify_associative_binop("xor", op0, op1, q, max_recurse)
    if v is not None:
        return v
    return _b.simplify_by_dom_eq("xor", op0, op1, q, max_recurse)


# --- and/or of compares ----------------------------------------------------------------------------


def _unsigned_range_check(zero_icmp: ICmpInst, ucmp: ICmpInst, is_and: bool, q: SimplifyQuery) -> Value | None:
    """``(Y ==/!= 0)`` with an unsigned compare of ``Y`` (LLVM ``simplifyUnsignedRangeCheck``)."""
    eq_pred = zero_icmp.predicate
    if not eq_pred.is_equality or not u.is_zero(zero_icmp.rhs):
        return None
    y = zero_icmp.lhs
    sub = u.binop(y, "sub")
    if sub is not None:
        a, b = sub
        up: Predicate | None = None
        if ucmp.lhs is a and ucmp.rhs is b:
            up = ucmp.predicate
        elif ucmp.lhs is b and ucmp.rhs is a:
            up = ucmp.predicate.swapped
        if up is not None and up.is_unsigned:
            if up in (P.ICMP_UGE, P.ICMP_ULE) and eq_pred == P.ICMP_NE and not is_and:
                return u.get_true(ucmp.type)
            if up in (P.ICMP_ULT, P.ICMP_UGT) and eq_pred == P.ICMP_EQ and is_and:
                return u.get_false(ucmp.type)
            if eq_pred == P.ICMP_NE and up in (P.ICMP_ULT, P.ICMP_UGT):
                return ucmp if is_and else zero_icmp
            if eq_pred == P.ICMP_EQ and up in (P.ICMP_ULE, P.ICMP_UGE):
                return zero_icmp if is_and else ucmp
        up = None
        if ucmp.lhs is y and ucmp.rhs is a:
            up = ucmp.predicate
        elif ucmp.lhs is a and ucmp.rhs is y:
            up = ucmp.predicate.swapped
        if up is not None:
            if up == P.ICMP_UGE and is_and and eq_pred == P.ICMP_NE and u.known_non_zero(b, q):
                return ucmp
            if up == P.ICMP_ULT and not is_and and eq_pred == P.ICMP_EQ and u.known_non_zero(b, q):
                return ucmp
    if ucmp.rhs is y and ucmp.predicate.is_unsigned:
        x = ucmp.lhs
        up2 = ucmp.predicate
    elif ucmp.lhs is y and ucmp.predicate.is_unsigned:
        x = ucmp.rhs
        up2 = ucmp.predicate.swapped
    else:
        return None
    if up2 == P.ICMP_UGT and eq_pred == P.ICMP_EQ and u.known_non_zero(x, q):
        return zero_icmp if is_and else ucmp
    if up2 == P.ICMP_ULE and eq_pred == P.ICMP_NE and u.known_non_zero(x, q):
        return ucmp if is_and else zero_icmp
    if up2 == P.ICMP_ULT and eq_pred == P.ICMP_NE:
        return ucmp if is_and else zero_icmp
    if up2 == P.ICMP_UGE and eq_pred == P.ICMP_EQ:
        return zero_icmp if is_and else ucmp
    if up2 == P.ICMP_ULT and eq_pred == P.ICMP_EQ and is_and:
        return u.get_false(ucmp.type)
    if up2 == P.ICMP_UGE and eq_pred == P.ICMP_NE and not is_and:
        return u.get_true(ucmp.type)
    return None


def _and_or_of_icmps_with_constants(c0: ICmpInst, c1: ICmpInst, is_and: bool) -> Value | None:
    if c0.lhs is not c1.lhs:
        return None
    k0 = u.apint(c0.rhs)
    k1 = u.apint(c1.rhs)
    if k0 is None or k1 is None:
        return None
    try:
        from llvmpy_mid.analysis.constant_range import ConstantRange  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    w = k0.type.width
    r0 = ConstantRange.make_exact_icmp_region(c0.predicate, k0.value, w)
    r1 = ConstantRange.make_exact_icmp_region(c1.predicate, k1.value, w)
    if is_and and r0.intersect_with(r1).is_empty_set():
        return u.get_false(c0.type)
    if not is_and and r0.union_with(r1).is_full_set():
        return u.get_true(c0.type)
    if r0.contains_range(r1):
        return c1 if is_and else c0
    if r1.contains_range(r0):
        return c0 if is_and else c1
    return None


def _and_or_of_icmps_with_add(op0: ICmpInst, op1: ICmpInst, q: SimplifyQuery, is_and: bool) -> Value | None:
    add = u.binop(op0.lhs, "add")
    if add is None:
        return None
    v = add[0]
    c0 = u.apint(add[1])
    c1 = u.apint(op0.rhs)
    if c0 is None or c1 is None:
        return None
    if op1.lhs is not v:
        return None
    add_inst = op0.lhs
    if add_inst.get_operand(1) is not op1.rhs:  # type: ignore[attr-defined]
        return None
    ity = op0.type
    nsw = q.has_no_signed_wrap(add_inst)
    nuw = q.has_no_unsigned_wrap(add_inst)
    w = c0.type.width
    delta = (c1.value - c0.value) & ((1 << w) - 1)
    p0 = op0.predicate
    p1 = op1.predicate
    if is_and:
        if c0.sext_value > 0:
            if delta == 2:
                if p0 == P.ICMP_ULT and p1 == P.ICMP_SGT:
                    return u.get_false(ity)
                if p0 == P.ICMP_SLT and p1 == P.ICMP_SGT and nsw:
                    return u.get_false(ity)
            if delta == 1:
                if p0 == P.ICMP_ULE and p1 == P.ICMP_SGT:
                    return u.get_false(ity)
                if p0 == P.ICMP_SLE and p1 == P.ICMP_SGT and nsw:
                    return u.get_false(ity)
        if c0.value != 0 and nuw:
            if delta == 2 and p0 == P.ICMP_ULT and p1 == P.ICMP_UGT:
                return u.get_false(ity)
            if delta == 1 and p0 == P.ICMP_ULE and p1 == P.ICMP_UGT:
                return u.get_false(ity)
        return None
    if c0.sext_value > 0:
        if delta == 2:
            if p0 == P.ICMP_UGE and p1 == P.ICMP_SLE:
                return u.get_true(ity)
            if p0 == P.ICMP_SGE and p1 == P.ICMP_SLE and nsw:
                return u.get_true(ity)
        if delta == 1:
            if p0 == P.ICMP_UGT and p1 == P.ICMP_SLE:
                return u.get_true(ity)
            if p0 == P.ICMP_SGT and p1 == P.ICMP_SLE and nsw:
                return u.get_true(ity)
    if c0.value != 0 and nuw:
        if delta == 2 and p0 == P.ICMP_UGE and p1 == P.ICMP_ULE:
            return u.get_true(ity)
        if delta == 1 and p0 == P.ICMP_UGT and p1 == P.ICMP_ULE:
            return u.get_true(ity)
    return None


def _and_or_of_icmps_with_ctpop(c0: ICmpInst, c1: ICmpInst, is_and: bool) -> Value | None:
    args = u.intrinsic_args(c0.lhs, "llvm.ctpop")
    if args is None:
        return None
    c = u.apint(c0.rhs)
    if c is None or c.value == 0 or c1.lhs is not args[0] or not u.is_zero_int(c1.rhs):
        return None
    if not is_and and c0.predicate == P.ICMP_EQ and c1.predicate == P.ICMP_NE:
        return c1
    if is_and and c0.predicate == P.ICMP_NE and c1.predicate == P.ICMP_EQ:
        return c1
    return None


def simplify_and_of_icmps(op0: ICmpInst, op1: ICmpInst, q: SimplifyQuery) -> Value | None:
    """``icmp & icmp`` (LLVM ``simplifyAndOfICmps``)."""
    return _and_or_of_icmps(op0, op1, q, True)


def simplify_or_of_icmps(op0: ICmpInst, op1: ICmpInst, q: SimplifyQuery) -> Value | None:
    """``icmp | icmp`` (LLVM ``simplifyOrOfICmps``)."""
    return _and_or_of_icmps(op0, op1, q, False)


def _and_or_of_icmps(op0: ICmpInst, op1: ICmpInst, q: SimplifyQuery, is_and: bool) -> Value | None:
    v = _unsigned_range_check(op0, op1, is_and, q)
    if v is not None:
        return v
    v = _unsigned_range_check(op1, op0, is_and, q)
    if v is not None:
        return v
    v = _and_or_of_icmps_with_constants(op0, op1, is_and)
    if v is not None:
        return v
    v = _and_or_of_icmps_with_ctpop(op0, op1, is_and)
    if v is not None:
        return v
    v = _and_or_of_icmps_with_ctpop(op1, op0, is_and)
    if v is not None:
        return v
    v = _and_or_of_icmps_with_add(op0, op1, q, is_and)
    if v is not None:
        return v
    return _and_or_of_icmps_with_add(op1, op0, q, is_and)


def simplify_and_or_of_fcmps(q: SimplifyQuery, lhs: FCmpInst, rhs: FCmpInst, is_and: bool) -> Value | None:
    """``ord``/``uno`` against zero combined with another compare of the same value."""
    l0, l1 = lhs.lhs, lhs.rhs
    r0, r1 = rhs.lhs, rhs.rhs
    if l0.type is not r0.type:
        return None
    pl = lhs.predicate
    pr = rhs.predicate
    if pl in (P.FCMP_ORD, P.FCMP_UNO) and ((pr.is_ordered and is_and) or (pr.is_unordered and not is_and)):
        if (l0 is r0 or l0 is r1) and u.is_pos_zero_fp(l1):
            return rhs if pl.is_ordered == pr.is_ordered else u.get_bool(lhs.type, not is_and)
    if pr in (P.FCMP_ORD, P.FCMP_UNO) and ((pl.is_ordered and is_and) or (pl.is_unordered and not is_and)):
        if (r0 is l0 or r0 is l1) and u.is_pos_zero_fp(r1):
            return lhs if pl.is_ordered == pr.is_ordered else u.get_bool(lhs.type, not is_and)
    return None


__all__ = [
    "simplify_and_inst",
    "simplify_or_inst",
    "simplify_xor_inst",
    "simplify_and_of_icmps",
    "simplify_or_of_icmps",
    "simplify_and_or_of_fcmps",
]
