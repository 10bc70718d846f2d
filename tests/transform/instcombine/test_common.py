"""InstCombine's shared binary-operator machinery (``common.py``, LLVM InstructionCombining.cpp
and the InstCombiner.h statics): each rule's input gives what opt-19 gives (the visitors call the
shared helpers at LLVM's points), the integer rules refine their input on every argument, and the
helpers' own contracts are checked directly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from llvmpy_mid import parse_assembly  # noqa: E402
from llvmpy_mid.analysis.cfg import is_potentially_reachable  # noqa: E402
from llvmpy_mid.ir.constants import ConstantInt, ConstantVector, PoisonValue, UndefValue  # noqa: E402
from llvmpy_mid.ir.context import Context  # noqa: E402
from llvmpy_mid.ir.dominators import DominatorTree  # noqa: E402
from llvmpy_mid.ir.instructions.cmp import Predicate  # noqa: E402
from llvmpy_mid.transform.instcombine import common  # noqa: E402
from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

RULES = {
"reassoc_consts": """
define i4 @f(i4 %a) {
  %x = add i4 %a, 5
  %y = add i4 %x, 7
  ret i4 %y
}""",
"reassoc_nuw_kept": """
define i4 @f(i4 %a) {
  %x = add nuw i4 %a, 2
  %y = add nuw i4 %x, 3
  ret i4 %y
}""",
"two_const_ops": """
define i4 @f(i4 %a, i4 %b) {
  %x = xor i4 %a, 5
  %y = xor i4 %b, 3
  %z = xor i4 %x, %y
  ret i4 %z
}""",
"complexity_order": """
define i4 @f(i4 %a) {
  %y = and i4 7, %a
  ret i4 %y
}""",
"factor_mul_add": """
define i4 @f(i4 %a, i4 %b, i4 %c) {
  %x = mul i4 %a, %b
  %y = mul i4 %a, %c
  %z = add i4 %x, %y
  ret i4 %z
}""",
"factor_shl_as_mul": """
define i4 @f(i4 %a) {
  %x = shl i4 %a, 1
  %z = add i4 %x, %a
  ret i4 %z
}""",
"factor_and_or": """
define i4 @f(i4 %a, i4 %b, i4 %c) {
  %x = and i4 %a, %b
  %y = and i4 %a, %c
  %z = or i4 %x, %y
  ret i4 %z
}""",
"expand_and_over_or": """
define i4 @f(i4 %a, i4 %b) {
  %n = xor i4 %a, -1
  %o = or i4 %a, %b
  %z = and i4 %o, %n
  ret i4 %z
}""",
"select_into_binop": """
define i4 @f(i1 %c, i4 %a) {
  %s = select i1 %c, i4 3, i4 %a
  %r = add i4 %s, 4
  ret i4 %r
}""",
"selects_same_cond": """
define i4 @f(i1 %c, i4 %a, i4 %b) {
  %s = select i1 %c, i4 %a, i4 0
  %t = select i1 %c, i4 0, i4 %b
  %r = or i4 %s, %t
  ret i4 %r
}""",
"zext_cond_select": """
define i4 @f(i1 %c, i4 %t, i4 %e) {
  %z = zext i1 %c to i4
  %s = select i1 %c, i4 %t, i4 %e
  %r = add i4 %z, %s
  ret i4 %r
}""",
"sext_cond_select": """
define i4 @f(i1 %c, i4 %t, i4 %e) {
  %z = sext i1 %c to i4
  %s = select i1 %c, i4 %t, i4 %e
  %r = and i4 %s, %z
  ret i4 %r
}""",
"op_into_phi": """
define i4 @f(i1 %c, i4 %a) {
entry:
  br i1 %c, label %t, label %e
t:
  br label %m
e:
  br label %m
m:
  %p = phi i4 [ 1, %t ], [ %a, %e ]
  %r = add i4 %p, 5
  ret i4 %r
}""",
"phi_operands_identity": """
define i4 @f(i1 %c, i4 %x, i4 %y) {
entry:
  br i1 %c, label %t, label %e
t:
  br label %m
e:
  br label %m
m:
  %p = phi i4 [ 0, %t ], [ %x, %e ]
  %q = phi i4 [ %y, %t ], [ 0, %e ]
  %r = add i4 %p, %q
  ret i4 %r
}""",
"phi_operands_consts": """
define i4 @f(i1 %c, i4 %x, i4 %y) {
entry:
  br i1 %c, label %t, label %e
t:
  br label %m
e:
  br label %m
m:
  %p = phi i4 [ 3, %t ], [ %x, %e ]
  %q = phi i4 [ 2, %t ], [ %y, %e ]
  %r = mul i4 %p, %q
  ret i4 %r
}""",
"shift_with_shift_same_op": """
define i4 @f(i4 %x, i4 %y, i4 %m) {
  %a = shl i4 %x, 1
  %b = and i4 %a, %m
  %c = shl i4 %y, 1
  %r = and i4 %b, %c
  ret i4 %r
}""",
"shift_with_shift_mask": """
define i4 @f(i4 %x, i4 %y) {
  %a = lshr i4 %x, 1
  %b = and i4 %a, 5
  %c = lshr i4 %y, 1
  %r = or i4 %b, %c
  ret i4 %r
}""",
"sext_bool_binop": """
define i4 @f(i1 %b) {
  %s = sext i1 %b to i4
  %r = and i4 %s, 6
  ret i4 %r
}""",
"narrow_zext_add": """
define i8 @f(i4 %a, i4 %b) {
  %x = and i4 %a, 3
  %y = and i4 %b, 3
  %zx = zext i4 %x to i8
  %zy = zext i4 %y to i8
  %r = add i8 %zx, %zy
  %t = trunc i8 %r to i4
  %z = zext i4 %t to i8
  ret i8 %z
}""",
}
VEC_RULES = {
"vector_shuffles_same_mask": """
define <4 x i8> @f(<4 x i8> %a, <4 x i8> %b) {
  %x = shufflevector <4 x i8> %a, <4 x i8> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %y = shufflevector <4 x i8> %b, <4 x i8> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %r = add <4 x i8> %x, %y
  ret <4 x i8> %r
}""",
"vector_shuffle_const": """
define <4 x i8> @f(<4 x i8> %a) {
  %x = shufflevector <4 x i8> %a, <4 x i8> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %r = mul <4 x i8> %x, <i8 1, i8 2, i8 3, i8 4>
  ret <4 x i8> %r
}""",
"vector_concat": """
define <4 x i8> @f(<2 x i8> %a, <2 x i8> %b, <2 x i8> %c, <2 x i8> %d) {
  %x = shufflevector <2 x i8> %a, <2 x i8> %b, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %y = shufflevector <2 x i8> %c, <2 x i8> %d, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %r = xor <4 x i8> %x, %y
  ret <4 x i8> %r
}""",
"vector_reverse": """
define <4 x i8> @f(<4 x i8> %a, <4 x i8> %b) {
  %x = call <4 x i8> @llvm.vector.reverse.v4i8(<4 x i8> %a)
  %y = call <4 x i8> @llvm.vector.reverse.v4i8(<4 x i8> %b)
  %r = sub <4 x i8> %x, %y
  ret <4 x i8> %r
}
declare <4 x i8> @llvm.vector.reverse.v4i8(<4 x i8>)""",
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_matches_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(VEC_RULES))
def test_vector_rule_matches_opt19(name: str) -> None:
    assert_same_as_opt(VEC_RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES[name])
    assert str(before.get_function("f")) != str(after.get_function("f")), "the rule did not fire"


CTPOP_NOT = """
define i4 @f(i4 %x) {
  %n = xor i4 %x, -1
  %p = call i4 @llvm.ctpop.i4(i4 %n)
  %r = add i4 %p, 3
  ret i4 %r
}
declare i4 @llvm.ctpop.i4(i4)"""


def test_ctpop_of_not_is_folded() -> None:
    """C + ctpop(~x) -> (C + width) - ctpop(x): the not is gone (opt-19 then turns the sub of
    7 into a xor), and the result refines the input."""
    before, after = check_refines(CTPOP_NOT)
    text = str(after.get_function("f"))
    assert "xor i4 %x, -1" not in text and "@llvm.ctpop.i4(i4 %x)" in text
    assert "xor i4 %1, 7" in text or "sub i4 7, %1" in text


# --- the helpers' own contracts -------------------------------------------------------------------

HELPERS = """
define i8 @g(i8 %a, i8 %b, i1 %c) {
  %neg = sub i8 0, %a
  %not = xor i8 %b, -1
  %z = zext i1 %c to i8
  %add = add i8 %a, %b
  %s1 = select i1 %c, i8 %a, i8 %b
  %s2 = select i1 %c, i8 %b, i8 %a
  %mx = call i8 @llvm.smax.i8(i8 %a, i8 %b)
  %mn = call i8 @llvm.smin.i8(i8 %b, i8 %a)
  %cmp = icmp eq i8 %a, %b
  %sel = select i1 %cmp, i8 1, i8 2
  %u = add i8 %neg, %not
  ret i8 %u
}
declare i8 @llvm.smax.i8(i8, i8)
declare i8 @llvm.smin.i8(i8, i8)
"""


def _values() -> dict[str, object]:
    m = parse_assembly(HELPERS)
    fn = m.get_function("g")
    assert fn is not None
    vals: dict[str, object] = {a.name: a for a in fn.args}
    for bb in fn.blocks:
        for i in bb.instructions:
            if i.name:
                vals[i.name] = i
    return vals


def test_get_complexity_ranks() -> None:
    v = _values()
    ctx = Context()
    assert common.get_complexity(UndefValue.get(ctx.i8)) == 0
    assert common.get_complexity(ConstantInt.get(ctx.i8, 3)) == 1
    assert common.get_complexity(v["a"]) == 3  # type: ignore[arg-type]
    for name in ("neg", "not", "z"):
        assert common.get_complexity(v[name]) == 4, name  # type: ignore[arg-type]
    assert common.get_complexity(v["add"]) == 5  # type: ignore[arg-type]


def test_canonical_predicates() -> None:
    non = {Predicate.ICMP_NE, Predicate.ICMP_ULE, Predicate.ICMP_SLE, Predicate.ICMP_UGE, Predicate.ICMP_SGE,
           Predicate.FCMP_ONE, Predicate.FCMP_OLE, Predicate.FCMP_OGE}
    for p in Predicate:
        assert common.is_canonical_predicate(p) == (p not in non), p


def test_add_one_sub_one_wrap_and_splat() -> None:
    ctx = Context()
    assert common.add_one(ConstantInt.get(ctx.i8, 255)) is ConstantInt.get(ctx.i8, 0)
    assert common.sub_one(ConstantInt.get(ctx.i8, 0)) is ConstantInt.get(ctx.i8, 255)
    vty = ctx.vector_type(ctx.i8, 2, False)
    five = ConstantVector.get_splat(vty, ConstantInt.get(ctx.i8, 5))
    assert common.add_one(five) is ConstantVector.get_splat(vty, ConstantInt.get(ctx.i8, 6))


def test_safe_vector_constant_replaces_undef_lanes() -> None:
    ctx = Context()
    u = UndefValue.get(ctx.i8)
    c = ConstantVector.get([ConstantInt.get(ctx.i8, 7), u])
    # identity on the right for add, mul; 1 for urem's divisor; 0 on the left for shifts and sub
    assert str(common.get_safe_vector_constant_for_binop("add", c, True)) == "<2 x i8> <i8 7, i8 0>"
    assert str(common.get_safe_vector_constant_for_binop("mul", c, True)) == "<2 x i8> <i8 7, i8 1>"
    assert str(common.get_safe_vector_constant_for_binop("urem", c, True)) == "<2 x i8> <i8 7, i8 1>"
    assert str(common.get_safe_vector_constant_for_binop("shl", c, False)) == "<2 x i8> <i8 7, i8 0>"
    assert str(common.get_safe_vector_constant_for_binop("sdiv", c, False)) == "<2 x i8> <i8 7, i8 0>"


def test_dyn_cast_neg_val() -> None:
    v = _values()
    ctx = Context()
    assert common.dyn_cast_neg_val(v["neg"]) is v["a"]  # type: ignore[arg-type]
    assert common.dyn_cast_neg_val(ConstantInt.get(ctx.i8, 3)) is ConstantInt.get(ctx.i8, 253)
    assert common.dyn_cast_neg_val(v["add"]) is None  # type: ignore[arg-type]
    mixed = ConstantVector.get([ConstantInt.get(ctx.i8, 1), PoisonValue.get(ctx.i8)])
    assert common.dyn_cast_neg_val(mixed) is not None


def test_match_symmetric_pair() -> None:
    v = _values()
    assert common.match_symmetric_pair(v["s1"], v["s2"]) == (v["a"], v["b"])  # type: ignore[arg-type]
    assert common.match_symmetric_pair(v["mx"], v["mn"]) == (v["a"], v["b"])  # type: ignore[arg-type]
    assert common.match_symmetric_pair(v["s1"], v["s1"]) is None  # type: ignore[arg-type]


def test_freely_invertible_without_builder() -> None:
    v = _values()
    # ~(~b) is b: free, and it consumes the not
    consume: list[bool] = []
    assert common.get_freely_inverted(None, v["not"], False, None, consume) is v["b"]  # type: ignore[arg-type]
    assert consume == [True]
    # a compare is invertible only when all its uses change
    assert not common.is_free_to_invert(None, v["cmp"], False)  # type: ignore[arg-type]
    assert common.is_free_to_invert(None, v["cmp"], True)  # type: ignore[arg-type]
    # a plain argument is not
    assert not common.is_free_to_invert(None, v["a"], True)  # type: ignore[arg-type]


def test_can_freely_invert_all_users_of() -> None:
    v = _values()
    assert common.can_freely_invert_all_users_of(v["cmp"], None)  # type: ignore[arg-type]
    assert not common.can_freely_invert_all_users_of(v["a"], None)  # type: ignore[arg-type]


def test_is_potentially_reachable() -> None:
    m = parse_assembly("""
define void @h(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %a
b:
  ret void
}
""")
    fn = m.get_function("h")
    assert fn is not None
    blocks = {bb.name: bb for bb in fn.blocks}
    dt = DominatorTree(fn)
    assert is_potentially_reachable(blocks["entry"], blocks["a"], dt)
    assert is_potentially_reachable(blocks["a"], blocks["a"], dt)
    assert not is_potentially_reachable(blocks["a"], blocks["b"], dt)
    assert not is_potentially_reachable(blocks["b"], blocks["entry"], dt)
