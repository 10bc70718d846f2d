"""Constants as the parser reads them: integers, floats (every spelling, with
LLVM 19's exactness rule), aggregates and their canonical forms, constant
expressions and the folds LLVM 19 applies while building them (each
expectation checked against ``opt-19 -S``)."""

from __future__ import annotations

import pytest

from llvmpy_mid.asm.parser import parse
from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantAggregateZero,
    ConstantDataArray,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantPtrAuth,
    ConstantStruct,
    DSOLocalEquivalent,
    NoCFIValue,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.global_value import GlobalVariable


def _init(text: str, name: str = "g") -> Constant:
    m = parse(text, None, "t.ll")
    gv = m.get_global(name)
    assert isinstance(gv, GlobalVariable) and gv.initializer is not None
    return gv.initializer


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("i8 -1", 255),
        ("i8 300", 44),
        ("i32 u0xFFFFFFFF", 0xFFFFFFFF),
        ("i16 s0xFF", 0xFFFF),
        ("i1 true", 1),
        ("i128 170141183460469231731687303715884105727", (1 << 127) - 1),
    ],
)
def test_integers(text: str, value: int) -> None:
    c = _init("@g = global %s\n" % text)
    assert isinstance(c, ConstantInt) and c.value == value


@pytest.mark.parametrize(
    ("text", "bits"),
    [
        ("double 1.5", 0x3FF8000000000000),
        ("double -0.0", 0x8000000000000000),
        ("double +1.0", 0x3FF0000000000000),
        ("double 1.", 0x3FF0000000000000),
        ("double 0x7FF8000000000000", 0x7FF8000000000000),
        ("float 1.5", 0x3FC00000),
        ("float 0x3FB99999A0000000", 0x3DCCCCCD),
        # A signalling NaN keeps its payload (opt-19 prints float 0x7FF4000000000000).
        ("float 0x7FF4000000000000", 0x7FA00000),
        ("half 1.5", 0x3E00),
        ("half 0xH3C00", 0x3C00),
        ("bfloat 1.5", 0x3FC0),
        ("x86_fp80 0xK3FFF8000000000000000", 0x3FFF8000000000000000),
        # 0xL and 0xM put the first 16 digits in the low half, as LLVM's lexer does.
        ("fp128 0xL00000000000000003FFF000000000000", 0x3FFF000000000000 << 64),
        ("ppc_fp128 0xM3FF00000000000000000000000000000", 0x3FF0000000000000),
    ],
)
def test_floating_point_spellings(text: str, bits: int) -> None:
    c = _init("@g = global %s\n" % text)
    assert isinstance(c, ConstantFP) and c.bits == bits


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("float 0.1", "floating point constant invalid for type"),
        ("float 1.0e39", "floating point constant invalid for type"),
        ("half 65520.0", "floating point constant invalid for type"),
        ("float 0x7FF0000000000001", "floating point constant invalid for type"),
        ("x86_fp80 1.0", "floating point constant does not have type 'x86_fp80'"),
        ("float 0xH3C00", "floating point constant does not have type 'float'"),
        ("double 0", "integer constant must have integer type"),
        ("double 1e40", "integer constant must have integer type"),
        ("i32 1.5", "floating point constant invalid for type"),
        ("i32 true", "constant expression type mismatch: got type 'i1' but expected 'i32'"),
        ("i32 null", "null must be a pointer type"),
        ("i32 none", "invalid type for none constant"),
    ],
)
def test_bad_constants(text: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse("@g = global %s\n" % text, None, "t.ll")
    assert info.value.message == message


def test_aggregates_take_their_canonical_form() -> None:
    assert isinstance(_init("@g = global [2 x i32] [i32 0, i32 0]\n"), ConstantAggregateZero)
    s = _init('@g = global [3 x i8] c"ab\\00"\n')
    assert isinstance(s, ConstantDataArray) and s.as_bytes() == b"ab\x00"
    v = _init("@g = global <2 x i32> <i32 1, i32 2>\n")
    assert isinstance(v, ConstantDataVector) and v.raw == (1, 2)
    assert isinstance(_init("@g = global <2 x i32> <i32 undef, i32 undef>\n"), UndefValue)
    st = _init("@g = global { i32, ptr } { i32 1, ptr null }\n")
    assert isinstance(st, ConstantStruct)
    # An empty array initializer is undef in LLVM 19.
    assert type(_init("@g = global [0 x i32] []\n")) is UndefValue
    nested = _init("@g = global [2 x [2 x i16]] [[2 x i16] [i16 1, i16 2], [2 x i16] [i16 -1, i16 0]]\n")
    assert [e.raw for e in nested.elements] == [(1, 2), (0xFFFF, 0)]  # type: ignore[attr-defined]


def test_splat_and_special_constants() -> None:
    v = _init("@g = global <4 x i32> splat (i32 7)\n")
    assert isinstance(v, ConstantDataVector) and v.raw == (7, 7, 7, 7)
    m = parse(
        "declare void @f()\n@a = global ptr dso_local_equivalent @f\n@b = global ptr no_cfi @f\n"
        "@c = global ptr ptrauth (ptr @f, i32 2, i64 5)\n",
        None,
        "t.ll",
    )
    assert isinstance(m.get_global("a").initializer, DSOLocalEquivalent)  # type: ignore[union-attr]
    assert isinstance(m.get_global("b").initializer, NoCFIValue)  # type: ignore[union-attr]
    pa = m.get_global("c").initializer  # type: ignore[union-attr]
    assert isinstance(pa, ConstantPtrAuth) and pa.key.value == 2 and pa.discriminator.value == 5
    assert isinstance(pa.address_discriminator, ConstantPointerNull)


@pytest.mark.parametrize(
    ("expr", "folded"),
    [
        ("i64 add (i64 1, i64 2)", "i64 3"),
        ("i32 trunc (i64 300 to i32)", "i32 300"),
        ("i32 xor (i32 1, i32 3)", "i32 2"),
        ("i64 add nsw (i64 5, i64 7)", "i64 12"),
        ("i64 add (i64 undef, i64 ptrtoint (ptr @a to i64))", "i64 undef"),
        ("i64 add (i64 poison, i64 1)", "i64 poison"),
        ("i64 mul (i64 0, i64 ptrtoint (ptr @a to i64))", "i64 0"),
        ("ptr getelementptr (i8, ptr poison, i64 1)", "ptr poison"),
        ("ptr inttoptr (i64 0 to ptr)", "ptr null"),
        ("i64 ptrtoint (ptr null to i64)", "i64 0"),
        ("float bitcast (i32 1065353216 to float)", "float 1.0"),
        ("i32 extractelement (<2 x i32> <i32 1, i32 2>, i32 1)", "i32 2"),
    ],
)
def test_constant_folding_matches_opt(expr: str, folded: str) -> None:
    m = parse("@a = global i32 0\n@g = global %s\n@h = global %s\n" % (expr, folded), None, "t.ll")
    assert m.get_global("g").initializer is m.get_global("h").initializer  # type: ignore[union-attr]


def test_folds_to_the_base_and_commutes() -> None:
    m = parse(
        "@a = global [4 x i32] zeroinitializer\n"
        "@g1 = global ptr getelementptr inbounds ([4 x i32], ptr @a, i64 0, i64 0)\n"
        "@g2 = global ptr bitcast (ptr @a to ptr)\n"
        "@g3 = global i64 add (i64 0, i64 ptrtoint (ptr @a to i64))\n"
        "@g4 = global i64 mul (i64 3, i64 ptrtoint (ptr @a to i64))\n"
        "@g5 = global i16 trunc (i32 trunc (i64 ptrtoint (ptr @a to i64) to i32) to i16)\n"
        "@g6 = global ptr getelementptr inbounds ([4 x i32], ptr @a, i64 0, i64 1)\n",
        None,
        "t.ll",
    )
    a = m.get_global("a")
    assert m.get_global("g1").initializer is a  # type: ignore[union-attr]
    assert m.get_global("g2").initializer is a  # type: ignore[union-attr]
    g3 = m.get_global("g3").initializer  # type: ignore[union-attr]
    assert isinstance(g3, ConstantExpr) and g3.opcode == "ptrtoint"
    g4 = m.get_global("g4").initializer  # type: ignore[union-attr]
    assert isinstance(g4, ConstantExpr) and g4.opcode == "mul"
    assert isinstance(g4.get_operand(1), ConstantInt)  # the constant moved to the right
    g5 = m.get_global("g5").initializer  # type: ignore[union-attr]
    assert isinstance(g5, ConstantExpr) and g5.opcode == "ptrtoint" and str(g5.type) == "i16"
    g6 = m.get_global("g6").initializer  # type: ignore[union-attr]
    assert isinstance(g6, ConstantExpr) and g6.is_inbounds and len(g6.indices) == 2


def test_vector_gep_indices_are_canonical() -> None:
    c = _init(
        "@g = global <2 x ptr> getelementptr ([3 x { i32, i32 }], <2 x ptr> zeroinitializer, "
        "<2 x i32> <i32 1, i32 2>, i32 2, <2 x i32> <i32 1, i32 1>)\n"
    )
    assert isinstance(c, ConstantExpr)
    idx = c.indices
    assert str(idx[1].type) == "<2 x i32>"  # an array index is splatted
    assert isinstance(idx[2], ConstantInt) and idx[2].value == 1  # a struct index is scalar


@pytest.mark.parametrize("op", ["and", "or", "shl", "icmp eq", "zext", "sext", "fadd", "select"])
def test_removed_constant_expressions(op: str) -> None:
    word = op.split()[0]
    with pytest.raises(ParseError) as info:
        parse("@g = global i32 %s (i32 1, i32 2)\n" % op, None, "t.ll")
    assert info.value.message == "%s constexprs are no longer supported" % word


def test_blockaddress_forward_and_backward() -> None:
    m = parse(
        "@early = global ptr blockaddress(@f, %bb)\n"
        "define void @f() {\nentry:\n  br label %bb\nbb:\n  ret void\n}\n"
        "@late = global ptr blockaddress(@f, %bb)\n",
        None,
        "t.ll",
    )
    early = m.get_global("early").initializer  # type: ignore[union-attr]
    late = m.get_global("late").initializer  # type: ignore[union-attr]
    assert isinstance(early, BlockAddress) and early is late
    assert early.block.name == "bb"
    # A blockaddress is not a predecessor edge.
    assert [p.name for p in early.block.predecessors] == ["entry"]


def test_poison_and_zero_of_every_first_class_type() -> None:
    assert isinstance(_init("@g = global <4 x float> poison\n"), PoisonValue)
    assert isinstance(_init("@g = global { i8, [2 x ptr] } zeroinitializer\n"), ConstantAggregateZero)


@pytest.mark.parametrize("text,bits", [
    ("0x00010000000000000", 1 << 52),  # 17 digits with leading zeros: the value, as LLVM reads it
    ("0x10000000000000000", 0),  # 2^64 overflows: LLVM's lexer notes it, its parser never reports it
    ("0x7FF8000000000000", 0x7FF8000000000000),
])
def test_hex_double_read_as_llvm_hex_int_to_val(text: str, bits: int) -> None:
    from llvmpy_mid.asm import parse_assembly

    m = parse_assembly("define double @f() {\n  ret double %s\n}\n" % text)
    ret = m.get_function("f").blocks[0].terminator
    assert ret is not None
    value = ret.get_operand(0)
    assert isinstance(value, ConstantFP) and value.bits == bits
