"""InstCombine's demanded-bits and demanded-elements simplification
(InstCombineSimplifyDemanded.cpp): rules against opt-19 and the refinement judge, the
known bits SimplifyDemandedBits computes against computeKnownBits (LLVM's
``-instcombine-verify-known-bits``), and SimplifyDemandedVectorElts called directly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

MAX_INPUTS = 1 << 12
"""Exhaustive up to 12 argument bits, a seeded sample of that many inputs beyond."""

RULES: dict[str, str] = {
    # sext whose extended bits are not demanded -> zext
    'sext_high_not_demanded': 'define i8 @f(i4 %x) {\n  %s = sext i4 %x to i16\n  %t = trunc i16 %s to i8\n  %r = lshr i8 %t, 0\n  ret i8 %t\n}',
    # ashr whose shifted-in bits are not demanded -> lshr
    'ashr_to_lshr_demanded': 'define i8 @f(i8 %x) {\n  %a = ashr i8 %x, 3\n  %t = trunc i8 %a to i4\n  %r = zext i4 %t to i8\n  ret i8 %r\n}',
    # shl of a constant with low demanded: constant shrunk
    'shl_shrink_constant': 'define i8 @f(i8 %x) {\n  %o = or i8 %x, -16\n  %s = shl i8 %o, 4\n  ret i8 %s\n}',
    # lshr demanded: inner constant shrinks
    'lshr_shrink_constant': 'define i8 @f(i8 %x) {\n  %o = xor i8 %x, 7\n  %s = lshr i8 %o, 4\n  ret i8 %s\n}',
    # shl nsw of value with enough sign bits, low bits not demanded -> operand
    'add_shrink_const_trunc': 'define i4 @f(i8 %x) {\n  %a = add i8 %x, 48\n  %r = trunc i8 %a to i4\n  ret i4 %r\n}',
    # mul by odd << n demanding bit n only -> shl
    'trunc_mul_demanded': 'define i1 @f(i8 %x) {\n  %m = mul i8 %x, 6\n  %l = lshr i8 %m, 1\n  %r = trunc i8 %l to i1\n  ret i1 %r\n}',
    # select arms shrunk by demanded bits
    'select_shrink_arms': 'define i4 @f(i1 %c, i8 %x) {\n  %s = select i1 %c, i8 %x, i8 -15\n  %r = trunc i8 %s to i4\n  ret i4 %r\n}',
    # (X >>u C1) << C2 with the low bits not demanded
    'shr_shl_demanded': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 3\n  %b = shl i8 %a, 3\n  %c = shl i8 %b, 1\n  ret i8 %c\n}',
    # the low bit of an add of bools
    'bswap_one_byte': 'declare i32 @llvm.bswap.i32(i32)\ndefine i8 @f(i32 %x) {\n  %b = call i32 @llvm.bswap.i32(i32 %x)\n  %r = trunc i32 %b to i8\n  ret i8 %r\n}',
    # demanded bits through zext
    'zext_demanded': 'define i8 @f(i4 %x) {\n  %o = or i4 %x, -8\n  %z = zext i4 %o to i16\n  %s = shl i16 %z, 5\n  %r = trunc i16 %s to i8\n  ret i8 %r\n}',
    # srem by power of two with only low bits demanded -> X
    'srem_low_bits': 'define i2 @f(i8 %x) {\n  %d = srem i8 %x, 8\n  %r = trunc i8 %d to i2\n  ret i2 %r\n}',
    # lshr whose shifted value has enough sign bits -> operand
    # trunc (lshr X, C) whose high bits are not demanded -> lshr (trunc X), C
    'trunc_lshr_narrowed': 'define i8 @f(i32 %x) {\n  %l = lshr i32 %x, 4\n  %t = trunc i32 %l to i8\n  %r = shl i8 %t, 4\n  ret i8 %r\n}',
    'lshr_sign_bits': 'define i4 @f(i4 %x) {\n  %s = sext i4 %x to i8\n  %l = lshr i8 %s, 4\n  %r = trunc i8 %l to i4\n  ret i4 %r\n}',
}



@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(RULES[name], max_inputs=MAX_INPUTS)
    assert str(before) != str(after), "the fold did not fire"


# --- known bits: SimplifyDemandedBits computes what computeKnownBits computes ------------------

KNOWN_BITS_FUNCTIONS = [
    """
define i8 @f(i8 %x, i8 %y, i1 %c) {
  %a = and i8 %x, 60
  %o = or i8 %a, 3
  %e = xor i8 %o, %y
  %s = add i8 %a, 4
  %d = sub i8 %s, %o
  %m = mul i8 %a, 6
  %l = shl i8 %o, 2
  %r = lshr i8 %l, 1
  %q = ashr i8 %o, 1
  %v = select i1 %c, i8 %a, i8 %o
  %u = udiv i8 %a, 4
  %t = srem i8 %x, 4
  %sum = add i8 %e, %d
  %sum2 = add i8 %sum, %m
  %sum3 = add i8 %sum2, %r
  %sum4 = add i8 %sum3, %q
  %sum5 = add i8 %sum4, %v
  %sum6 = add i8 %sum5, %u
  %sum7 = add i8 %sum6, %t
  ret i8 %sum7
}""",
    """
declare i8 @llvm.umax.i8(i8, i8)
declare i8 @llvm.fshl.i8(i8, i8, i8)
define i16 @f(i8 %x, i4 %y) {
  %z = zext i4 %y to i8
  %s = sext i4 %y to i16
  %w = zext i8 %x to i16
  %t = trunc i16 %s to i8
  %mx = call i8 @llvm.umax.i8(i8 %z, i8 3)
  %fs = call i8 @llvm.fshl.i8(i8 %z, i8 %x, i8 3)
  %a = add i8 %t, %mx
  %b = add i8 %a, %fs
  %bw = zext i8 %b to i16
  %c = or i16 %w, %s
  %d = add i16 %c, %bw
  ret i16 %d
}""",
    """
define <2 x i8> @f(<2 x i8> %x) {
  %a = and <2 x i8> %x, <i8 15, i8 15>
  %s = shl nuw <2 x i8> %a, <i8 2, i8 2>
  %o = or <2 x i8> %s, <i8 1, i8 1>
  %l = lshr exact <2 x i8> %s, <i8 1, i8 1>
  %r = add <2 x i8> %o, %l
  ret <2 x i8> %r
}""",
]


def _combiner(fn):  # type: ignore[no-untyped-def]
    from llvmpy_mid.analysis.target_folder import TargetFolder
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner
    from llvmpy_mid.transform.utils.instruction_worklist import InstructionWorklist

    wl = InstructionWorklist()
    dl = fn.parent.data_layout
    builder = IRBuilder(folder=TargetFolder(dl), inserter=wl.add)
    return InstCombiner(fn, wl, builder, dl, None, None, DominatorTree(fn))


@pytest.mark.parametrize("index", range(len(KNOWN_BITS_FUNCTIONS)))
def test_known_bits_agree_with_compute_known_bits(index: int) -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.analysis.known_bits import KnownBits
    from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
    from llvmpy_mid.ir.types import IntegerType
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_use_bits

    text = KNOWN_BITS_FUNCTIONS[index]
    count = len(list(parse_assembly(text).get_function("f").instructions()))  # type: ignore[union-attr]
    checked = 0
    for k in range(count):
        fn = parse_assembly(text).get_function("f")
        assert fn is not None
        inst = list(fn.instructions())[k]
        sty = inst.type.scalar_type
        if not isinstance(sty, IntegerType):
            continue
        ic = _combiner(fn)
        q = ic.query(inst)
        want = compute_known_bits(inst, q)
        known = KnownBits(sty.width)
        if simplify_demanded_use_bits(ic, inst, sty.mask, known, 0, q) is None:
            assert (known.zero, known.one) == (want.zero, want.one), str(inst)
            checked += 1
    assert checked >= 3


# --- demanded vector elements --------------------------------------------------------------------


def test_vector_elts_constant_lanes_not_demanded_become_poison() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

    m = parse_assembly(
        "define <4 x i8> @f(<4 x i8> %x) {\n  %a = add <4 x i8> %x, <i8 1, i8 2, i8 3, i8 4>\n  ret <4 x i8> %a\n}"
    )
    fn = m.get_function("f")
    assert fn is not None
    add = list(fn.instructions())[0]
    ic = _combiner(fn)
    out = [0]
    # Only lanes 0 and 2 demanded: the constant's lanes 1 and 3 become poison.
    r = simplify_demanded_vector_elts(ic, add, 0b0101, out)
    assert r is add
    assert str(add.operands[1]) == "<4 x i8> <i8 1, i8 poison, i8 3, i8 poison>"
    assert out[0] == 0


def test_vector_elts_insertelement_of_undemanded_lane_is_removed() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

    m = parse_assembly(
        "define <2 x i8> @f(<2 x i8> %v, i8 %s) {\n"
        "  %i = insertelement <2 x i8> %v, i8 %s, i32 1\n  ret <2 x i8> %i\n}"
    )
    fn = m.get_function("f")
    assert fn is not None
    ins = list(fn.instructions())[0]
    ic = _combiner(fn)
    out = [0]
    assert simplify_demanded_vector_elts(ic, ins, 0b01, out) is fn.args[0]
    # Nothing demanded: poison, every lane poison.
    r = simplify_demanded_vector_elts(ic, ins, 0, out)
    assert str(r) == "<2 x i8> poison" and out[0] == 0b11


def test_vector_elts_shuffle_identity_on_demanded_lanes() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

    m = parse_assembly(
        "define <4 x i8> @f(<4 x i8> %v, <4 x i8> %w) {\n"
        "  %s = shufflevector <4 x i8> %v, <4 x i8> %w, <4 x i32> <i32 0, i32 5, i32 2, i32 7>\n"
        "  ret <4 x i8> %s\n}"
    )
    fn = m.get_function("f")
    assert fn is not None
    shuf = list(fn.instructions())[0]
    ic = _combiner(fn)
    out = [0]
    # Lanes 0 and 2 read %v in place: the shuffle is %v there.
    assert simplify_demanded_vector_elts(ic, shuf, 0b0101, out) is fn.args[0]


def test_fp_class_nothing_demanded_is_poison() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import FC_ALL, simplify_demanded_use_fp_class

    m = parse_assembly("define float @f(float %x) {\n  %a = fadd float %x, 1.0\n  ret float %a\n}")
    fn = m.get_function("f")
    assert fn is not None
    add = list(fn.instructions())[0]
    ic = _combiner(fn)
    assert str(simplify_demanded_use_fp_class(ic, add, 0)) == "float poison"
    assert simplify_demanded_use_fp_class(ic, add, FC_ALL) is None


# --- demanded FP classes of a returned value (visitReturnInst's query on LLVM's
# simplify-demanded-fpclass.ll; where opt-19 returns the other select arm, the query itself
# makes the impossible arm poison and InstSimplify then picks the other arm) ---------------------

FP_CLASS_RETURNS: list[tuple[str, str | None]] = [
    ("define nofpclass(inf) float @f() {\n  ret float poison\n}", None),
    ("define nofpclass(all) float @f(float %arg) {\n  ret float %arg\n}", "float poison"),
    ("define nofpclass(inf) float @f() {\n  ret float 0.0\n}", None),
    ("define nofpclass(inf) float @f() {\n  ret float 0x7FF0000000000000\n}", "float poison"),
    ("define nofpclass(pinf) float @f() {\n  ret float 0x7FF0000000000000\n}", "float poison"),
    ("define nofpclass(pinf) float @f() {\n  ret float 0xFFF0000000000000\n}", None),
    (
        "define nofpclass(inf) float @f(i1 %cond, float nofpclass(inf) %x, float %y) {\n"
        "  %select = select i1 %cond, float %x, float %y\n  ret float %select\n}",
        None,
    ),
    (
        "define nofpclass(inf) float @f(i1 %cond, float nofpclass(nan norm zero sub) %x, float %y) {\n"
        "  %select = select i1 %cond, float %x, float %y\n  ret float %select\n}",
        "%select = select i1 %cond, float poison, float %y",
    ),
    (
        "define nofpclass(inf) float @f(i1 %cond, float %x, float nofpclass(nan norm zero sub) %y) {\n"
        "  %select = select i1 %cond, float %x, float %y\n  ret float %select\n}",
        "%select = select i1 %cond, float %x, float poison",
    ),
    (
        "define nofpclass(inf) [3 x [2 x float]] @f(i1 %cond, [3 x [2 x float]] nofpclass(nan norm zero sub) %x,"
        " [3 x [2 x float]] %y) {\n"
        "  %select = select i1 %cond, [3 x [2 x float]] %x, [3 x [2 x float]] %y\n  ret [3 x [2 x float]] %select\n}",
        "%select = select i1 %cond, [3 x [2 x float]] poison, [3 x [2 x float]] %y",
    ),
    (
        "define nofpclass(inf) float @f(i1 %cond, float %x) {\n"
        "  %select = select i1 %cond, float 0x7FF0000000000000, float %x\n  ret float %select\n}",
        "%select = select i1 %cond, float poison, float %x",
    ),
]


@pytest.mark.parametrize("index", range(len(FP_CLASS_RETURNS)))
def test_fp_class_of_returned_value(index: int) -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import FC_ALL, simplify_demanded_use_fp_class

    text, want = FP_CLASS_RETURNS[index]
    fn = parse_assembly(text).get_function("f")
    assert fn is not None
    ret = list(fn.instructions())[-1]
    attr = fn.attributes.ret_attrs.get("nofpclass")
    assert attr is not None
    ic = _combiner(fn)
    got = simplify_demanded_use_fp_class(ic, ret.operands[0], FC_ALL & ~attr.int_value, 0, ret)
    if want is None:
        assert got is None
    else:
        assert got is not None and str(got) == want


def test_vector_elts_select_with_constant_condition_demands_one_arm_per_lane() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

    m = parse_assembly(
        "define <2 x i8> @f(<2 x i8> %x) {\n"
        "  %s = select <2 x i1> <i1 true, i1 false>, <2 x i8> <i8 1, i8 2>, <2 x i8> <i8 3, i8 4>\n"
        "  %a = add <2 x i8> %s, %x\n  ret <2 x i8> %a\n}"
    )
    fn = m.get_function("f")
    assert fn is not None
    sel = list(fn.instructions())[0]
    ic = _combiner(fn)
    out = [0]
    # Lane 0 reads the true arm, lane 1 the false arm: the unread lanes become poison.
    assert simplify_demanded_vector_elts(ic, sel, 0b11, out) is sel
    assert str(sel.operands[1]) == "<2 x i8> <i8 1, i8 poison>"
    assert str(sel.operands[2]) == "<2 x i8> <i8 poison, i8 4>"


def test_vector_elts_bitcast_to_more_lanes() -> None:
    from llvmpy_mid import parse_assembly
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

    m = parse_assembly(
        "define <4 x i16> @f(<2 x i32> %x) {\n"
        "  %a = add <2 x i32> %x, <i32 1, i32 2>\n  %b = bitcast <2 x i32> %a to <4 x i16>\n  ret <4 x i16> %b\n}"
    )
    fn = m.get_function("f")
    assert fn is not None
    add, bc = list(fn.instructions())[:2]
    ic = _combiner(fn)
    out = [0]
    # Output lanes 0 and 1 come from input lane 0 only.
    assert simplify_demanded_vector_elts(ic, bc, 0b0011, out) is bc
    assert str(add.operands[1]) == "<2 x i32> <i32 1, i32 poison>"
