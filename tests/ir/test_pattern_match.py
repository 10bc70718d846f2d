"""Tests for llvmpy_mid.ir.pattern_match: each combinator on instructions and
constant expressions, splats with and without poison lanes, commutative
orders, captures, exhaustive checks of the integer predicates on i4, a random
check that the compiled matcher agrees with the node-by-node ``m`` methods, and
``match`` statements on the instruction classes."""

from __future__ import annotations

import random

import pytest

import llvmpy_mid
from llvmpy_mid.ir.constants import ConstantInt, ConstantVector, PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import AddInst, BinaryOperator, SubInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.pattern_match import (
    Match,
    get_splat_value,
    m_add,
    m_all_ones,
    m_apint,
    m_bind,
    m_c_add,
    m_c_icmp,
    m_c_logical_and,
    m_combine_or,
    m_constant,
    m_constant_int,
    m_deferred,
    m_disjoint_or,
    m_fneg,
    m_icmp,
    m_imm_constant,
    m_intrinsic,
    m_load,
    m_logical_and,
    m_logical_or,
    m_lowbit_mask,
    m_mul,
    m_neg,
    m_negative,
    m_nneg_zext,
    m_not,
    m_nsw_add,
    m_one,
    m_one_use,
    m_poison,
    m_power2,
    m_ptrtoint,
    m_select,
    m_sign_mask,
    m_specific,
    m_specific_int,
    m_sub,
    m_undef,
    m_value,
    m_xor,
    m_zero,
    m_zero_int,
    m_zext,
    match,
    matches,
)

IR = """
@g = global i32 0
declare i32 @llvm.umax.i32(i32, i32)
declare void @use(i32)

define i32 @f(i32 %a, i32 %b, i1 %c, i1 %d, <2 x i32> %v, float %fl, ptr %p) {
  %neg = sub i32 0, %a
  %sum = add i32 %neg, %b
  %rsum = add i32 %b, %neg
  %nota = xor i32 %a, -1
  %notr = xor i32 -1, %a
  %cmp = icmp slt i32 %a, 5
  %cmpr = icmp sgt i32 5, %a
  %sel = select i1 %cmp, i32 %a, i32 %b
  %vadd = add <2 x i32> %v, <i32 7, i32 7>
  %vpois = add <2 x i32> %v, <i32 7, i32 poison>
  %vzero = add <2 x i32> %v, zeroinitializer
  %ce = add i64 ptrtoint (ptr @g to i64), 8
  %nsw = add nsw i32 %a, %b
  %plain = add i32 %a, %b
  %dis = or disjoint i32 %a, %b
  %mx = call i32 @llvm.umax.i32(i32 %a, i32 %b)
  %dbl = add i32 %a, %a
  %land = select i1 %c, i1 %d, i1 false
  %lor = select i1 %c, i1 true, i1 %d
  %band = and i1 %c, %d
  %fn = fneg float %fl
  %fs = fsub float -0.0, %fl
  %z = zext nneg i32 %a to i64
  %z2 = zext i32 %a to i64
  %ld = load i32, ptr %p
  call void @use(i32 %plain)
  call void @use(i32 %plain)
  ret i32 %sum
}
"""


@pytest.fixture(scope="module")
def f() -> Function:
    mod = llvmpy_mid.parse_assembly(IR)
    return mod.get_function("f")


def inst(f: Function, name: str) -> Instruction:
    for i in f.instructions():
        if i.name == name:
            return i
    raise KeyError(name)


def arg(f: Function, name: str) -> llvmpy_mid.ir.value.Value:
    return next(a for a in f.args if a.name == name)


def test_two_level_with_captures(f: Function) -> None:
    m = match(inst(f, "sum"), m_add(m_neg(m_value("x")), m_value("y")))
    assert m is not None
    assert m.x is arg(f, "a") and m.y is arg(f, "b")
    assert m.value("x") is arg(f, "a")
    assert match(inst(f, "rsum"), m_add(m_neg(m_value("x")), m_value("y"))) is None
    assert match(inst(f, "nota"), m_add(m_value(), m_value())) is None


def test_commutative_both_orders(f: Function) -> None:
    pat = m_c_add(m_neg(m_value("x")), m_value("y"))
    for name in ("sum", "rsum"):
        m = match(inst(f, name), pat)
        assert m is not None and m.x is arg(f, "a") and m.y is arg(f, "b")


def test_not_and_neg(f: Function) -> None:
    for name in ("nota", "notr"):
        m = match(inst(f, name), m_not(m_value("x")))
        assert m is not None and m.x is arg(f, "a")
    assert not matches(inst(f, "neg"), m_not(m_value()))
    assert matches(inst(f, "neg"), m_sub(m_zero(), m_specific(arg(f, "a"))))


def test_icmp_predicates(f: Function) -> None:
    m = match(inst(f, "cmp"), m_icmp("p", m_value("x"), m_apint("c")))
    assert m is not None and m.p is Predicate.ICMP_SLT and m.c == 5 and m.x is arg(f, "a")
    assert match(inst(f, "cmpr"), m_icmp("p", m_value("x"), m_apint("c"))) is None
    m = match(inst(f, "cmpr"), m_c_icmp("p", m_value("x"), m_apint("c")))
    assert m is not None and m.p is Predicate.ICMP_SLT and m.c == 5
    assert matches(inst(f, "cmp"), m_icmp(Predicate.ICMP_SLT, m_value(), m_value()))
    assert not matches(inst(f, "cmp"), m_icmp(Predicate.ICMP_SGT, m_value(), m_value()))
    assert matches(inst(f, "cmpr"), m_c_icmp(Predicate.ICMP_SLT, m_specific(arg(f, "a")), m_value()))


def test_select_and_bind(f: Function) -> None:
    pat = m_select(m_bind("cond", m_icmp("p", m_value("x"), m_value())), m_deferred("x"), m_value("o"))
    m = match(inst(f, "sel"), pat)
    assert m is not None and m.cond is inst(f, "cmp") and m.o is arg(f, "b") and m.p is Predicate.ICMP_SLT


def test_splats(f: Function) -> None:
    m = match(inst(f, "vadd"), m_add(m_value("x"), m_apint("c")))
    assert m is not None and m.c == 7
    assert match(inst(f, "vpois"), m_add(m_value(), m_apint("c"))) is None
    m = match(inst(f, "vpois"), m_add(m_value(), m_apint("c", allow_poison=True)))
    assert m is not None and m.c == 7
    m = match(inst(f, "vadd"), m_add(m_value(), m_constant_int("k")))
    assert m is not None and isinstance(m.k, ConstantInt) and m.k.value == 7
    assert not matches(inst(f, "vadd"), m_add(m_value(), m_constant_int(splat=False)))
    assert matches(inst(f, "vzero"), m_add(m_value(), m_zero()))
    assert matches(inst(f, "vzero"), m_add(m_value(), m_zero_int()))
    assert matches(inst(f, "vzero"), m_add(m_value(), m_specific_int(0)))
    # cstval predicates let poison lanes through (LLVM cstval_pred_ty)
    ctx = inst(f, "vadd").type.context
    i32 = ctx.i32
    vec = ConstantVector.get([ConstantInt.get(i32, 1), PoisonValue.get(i32)])
    assert matches(vec, m_one())
    assert get_splat_value(vec) is None and get_splat_value(vec, allow_poison=True) is ConstantInt.get(i32, 1)


def test_constant_expressions(f: Function) -> None:
    ce = inst(f, "ce").get_operand(0)
    m = match(ce, m_ptrtoint(m_value("g")))
    assert m is not None and m.g.name == "g"
    m = match(inst(f, "ce"), m_add(m_ptrtoint(m_constant("g")), m_apint("c")))
    assert m is not None and m.c == 8
    assert matches(ce, m_constant()) and not matches(ce, m_imm_constant())
    assert matches(ConstantInt.get(ce.type, 3), m_imm_constant())


def test_flags(f: Function) -> None:
    assert matches(inst(f, "nsw"), m_nsw_add(m_value(), m_value()))
    assert not matches(inst(f, "plain"), m_nsw_add(m_value(), m_value()))
    assert matches(inst(f, "dis"), m_disjoint_or(m_value(), m_value()))
    assert matches(inst(f, "z"), m_nneg_zext(m_value()))
    assert not matches(inst(f, "z2"), m_nneg_zext(m_value()))
    assert matches(inst(f, "z2"), m_zext(m_value()))


def test_intrinsic_one_use_deferred_fneg_logical(f: Function) -> None:
    m = match(inst(f, "mx"), m_intrinsic("umax", m_value("x"), m_value("y")))
    assert m is not None and m.x is arg(f, "a")
    assert matches(inst(f, "mx"), m_intrinsic("llvm.umax"))
    assert not matches(inst(f, "mx"), m_intrinsic("umin"))
    assert matches(inst(f, "cmp"), m_one_use(m_icmp(None, m_value(), m_value())))
    assert not matches(inst(f, "neg"), m_one_use(m_sub(m_value(), m_value())))
    assert not matches(inst(f, "plain"), m_one_use(m_value()))
    assert matches(inst(f, "dbl"), m_add(m_value("x"), m_deferred("x")))
    assert not matches(inst(f, "plain"), m_add(m_value("x"), m_deferred("x")))
    for name in ("fn", "fs"):
        m = match(inst(f, name), m_fneg(m_value("x")))
        assert m is not None and m.x is arg(f, "fl")
    assert matches(inst(f, "land"), m_logical_and(m_value(), m_value()))
    assert matches(inst(f, "band"), m_logical_and(m_value(), m_value()))
    assert not matches(inst(f, "lor"), m_logical_and(m_value(), m_value()))
    assert matches(inst(f, "lor"), m_logical_or(m_specific(arg(f, "c")), m_specific(arg(f, "d"))))
    assert matches(inst(f, "land"), m_c_logical_and(m_specific(arg(f, "d")), m_specific(arg(f, "c"))))
    assert matches(inst(f, "ld"), m_load(m_specific(arg(f, "p"))))
    assert matches(inst(f, "sum"), m_combine_or(m_mul(m_value(), m_value()), m_add(m_value(), m_value())))


def test_match_object() -> None:
    m = Match()
    assert m and "x" not in m and m.get("x") is None
    with pytest.raises(AttributeError, match="captured no 'x'"):
        m.x
    with pytest.raises(ValueError):
        m_value("value")
    with pytest.raises(ValueError):
        m_value("_hidden")
    # a deferred name before its capture is found when the pattern is compiled (its second use;
    # the first is interpreted and simply does not match)
    bad = m_add(m_deferred("x"), m_value("x"))
    one = ConstantInt.get(llvmpy_mid.Context().i32, 1)
    assert match(one, bad) is None
    with pytest.raises(ValueError, match="comes before"):
        match(one, bad)


@pytest.mark.parametrize(
    "make, rule",
    [
        (m_power2, lambda v, w: v != 0 and v & (v - 1) == 0),
        (m_lowbit_mask, lambda v, w: v != 0 and v & (v + 1) == 0),
        (m_sign_mask, lambda v, w: v == 1 << (w - 1)),
        (m_negative, lambda v, w: v >= 1 << (w - 1)),
        (m_all_ones, lambda v, w: v == (1 << w) - 1),
        (m_one, lambda v, w: v == 1),
        (m_zero_int, lambda v, w: v == 0),
    ],
)
def test_int_predicates_exhaustive_i4(make, rule) -> None:  # type: ignore[no-untyped-def]
    ctx = llvmpy_mid.Context()
    ty = ctx.int_type(4)
    vty = ctx.vector_type(ty, 2)
    pat = make()
    for v in range(16):
        c = ConstantInt.get(ty, v)
        assert matches(c, pat) == rule(v, 4), v
        splat = ConstantVector.get_splat(vty, c)
        assert matches(splat, pat) == rule(v, 4), v
        other = ConstantVector.get([c, ConstantInt.get(ty, (v + 1) % 16)])
        assert matches(other, pat) == (rule(v, 4) and rule((v + 1) % 16, 4))


def test_match_statements(f: Function) -> None:
    def neg_add(v: object) -> object:
        match v:
            case AddInst(SubInst(ConstantInt(value=0), x), y):
                return (x, y)
        return None

    assert neg_add(inst(f, "sum")) == (arg(f, "a"), arg(f, "b"))
    assert neg_add(inst(f, "rsum")) is None
    match inst(f, "cmp"):
        case ICmpInst(Predicate.ICMP_SLT, x, ConstantInt(value=5)):
            assert x is arg(f, "a")
        case _:
            pytest.fail("icmp did not match")
    match inst(f, "sel"):
        case SelectInst(ICmpInst(), t, e):
            assert (t, e) == (arg(f, "a"), arg(f, "b"))
        case _:
            pytest.fail("select did not match")


def _random_patterns(rng: random.Random, depth: int) -> pm.Pattern:
    leaves = [lambda: m_value("x"), lambda: m_value(), lambda: m_apint("c"), lambda: m_zero(), lambda: m_all_ones(),
              lambda: m_constant("k"), lambda: m_one_use(m_value())]
    if depth == 0:
        return rng.choice(leaves)()
    sub = lambda: _random_patterns(rng, depth - 1)  # noqa: E731
    makers = [
        lambda: m_add(sub(), sub()),
        lambda: m_c_add(sub(), sub()),
        lambda: m_xor(sub(), sub()),
        lambda: m_not(sub()),
        lambda: m_neg(sub()),
        lambda: m_sub(sub(), sub()),
        lambda: m_icmp("p", sub(), sub()),
        lambda: m_c_icmp("p", sub(), sub()),
        lambda: m_select(sub(), sub(), sub()),
        lambda: m_add(m_value("x"), m_deferred("x")),
        lambda: m_combine_or(sub(), sub()),
        lambda: rng.choice(leaves)(),
    ]
    return rng.choice(makers)()


def test_compiled_agrees_with_interpreted(f: Function) -> None:
    """The compiled matcher and the node-by-node ``m`` walk give the same answer
    and the same captures on every instruction, for random patterns."""
    rng = random.Random(13)
    values = list(f.instructions())
    for _ in range(300):
        pat = _random_patterns(rng, rng.randint(1, 3))
        for v in values:
            compiled = match(v, pat)
            caps = Match()
            interpreted = pat.m(v, caps)
            assert (compiled is not None) == interpreted, (pat, v)
            if compiled is not None:
                assert compiled.__dict__ == caps.__dict__, (pat, v)


MINMAX_IR = """
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
define void @f(i32 %a, i32 %b) {
  %i = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %u = call i32 @llvm.umin.i32(i32 %a, i32 %b)
  %c1 = icmp sgt i32 %a, %b
  %s1 = select i1 %c1, i32 %a, i32 %b
  %c2 = icmp slt i32 %a, %b
  %s2 = select i1 %c2, i32 %b, i32 %a
  %s3 = select i1 %c2, i32 %a, i32 %b
  %c4 = icmp ult i32 %a, %b
  %s4 = select i1 %c4, i32 %a, i32 %a
  ret void
}
"""


def test_min_max() -> None:
    f = llvmpy_mid.parse_assembly(MINMAX_IR).get_function("f")
    a, b = f.args
    by = {i.name: i for i in f.instructions()}
    smax = pm.m_smax(m_specific(a), m_specific(b))
    for name in ("i", "s1", "s2"):  # intrinsic, sgt select, inverse-predicate select
        assert matches(by[name], smax), name
    assert not matches(by["s3"], smax) and matches(by["s3"], pm.m_smin(m_specific(a), m_specific(b)))
    assert matches(by["u"], pm.m_umin(m_specific(a), m_specific(b)))
    assert not matches(by["u"], pm.m_umin(m_specific(b), m_specific(a)))
    assert matches(by["u"], pm.m_c_umin(m_specific(b), m_specific(a)))
    assert not matches(by["s4"], pm.m_max_or_min(m_value(), m_value()))
    m = match(by["s2"], pm.m_max_or_min(m_value("x"), m_value("y")))
    assert m is not None and (m.x, m.y) == (a, b)
