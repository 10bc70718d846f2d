"""``get_splat_value`` (LLVM ``Constant::getSplatValue(AllowPoison)``): the one copy, in ir/constants.py."""

from __future__ import annotations

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir import constant_fold, pattern_match, constants
from llvmpy_mid.analysis import poison_tracking, value_tracking
from llvmpy_mid.ir.constants import ConstantInt, ConstantVector, PoisonValue, get_splat_value


def test_one_copy_re_exported() -> None:
    assert pattern_match.get_splat_value is constants.get_splat_value
    assert poison_tracking.get_splat_value is constants.get_splat_value
    assert value_tracking.get_splat_value is constants.get_splat_value
    assert not hasattr(constant_fold, "splat_value")


def test_llvm_semantics() -> None:
    m = parse_assembly("define <2 x i32> @f(<2 x i32> %x) {\n  ret <2 x i32> %x\n}\n")
    i32 = m.context.i32
    one, two, p = ConstantInt.get(i32, 1), ConstantInt.get(i32, 2), PoisonValue.get(i32)
    # strict mode: any mismatch, poison included, is not a splat
    assert get_splat_value(ConstantVector.get([one, p, one])) is None
    assert get_splat_value(ConstantVector.get([one, p, one]), allow_poison=True) is one
    assert get_splat_value(ConstantVector.get([p, one, p]), allow_poison=True) is one
    assert get_splat_value(ConstantVector.get([one, p, two]), allow_poison=True) is None
    # an all-poison vector is the poison vector constant, which LLVM does not call a splat
    assert get_splat_value(ConstantVector.get([p, p]), allow_poison=True) is None
    # scalars and non-constants are not splats
    assert get_splat_value(one) is None
    fn = m.get_function("f")
    assert fn is not None
    assert get_splat_value(fn.args[0]) is None


def test_vector_splats_answer_all_ones_and_one_as_llvm() -> None:
    """``Constant::isAllOnesValue``/``isOneValue`` look through a vector splat (both vector forms)."""
    from llvmpy_mid.ir.constants import ConstantDataVector

    m = parse_assembly("define void @f() {\n  ret void\n}\n")
    ctx = m.context
    t, f = ConstantInt.get(ctx.i1, 1), ConstantInt.get(ctx.i1, 0)
    assert ConstantVector.get([t, t]).is_all_ones_value and ConstantVector.get([t, t]).is_one_value
    assert not ConstantVector.get([t, f]).is_all_ones_value
    v4 = ctx.vector_type(ctx.i32, 4)
    ones = ConstantDataVector.get_raw(v4, [0xFFFFFFFF] * 4)
    assert ones.is_all_ones_value and not ones.is_one_value
    assert ConstantDataVector.get_raw(v4, [1, 1, 1, 1]).is_one_value
    assert not ConstantDataVector.get_raw(v4, [1, 2, 1, 1]).is_one_value


def test_instsimplify_sext_vector_compare_like_opt19() -> None:
    """``icmp sgt (sext <2 x i1> x), zeroinitializer`` folds to false through the compare of
    the truncated constant, which needs the all-true vector to count as all-ones."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "transform"))
    from opt_oracle import assert_same_as_opt

    out = assert_same_as_opt(
        "define <2 x i1> @f(<2 x i1> %x) {\n  %s = sext <2 x i1> %x to <2 x i32>\n"
        "  %c = icmp sgt <2 x i32> %s, zeroinitializer\n  ret <2 x i1> %c\n}\n",
        "instsimplify",
    )
    assert "ret <2 x i1> zeroinitializer" in out
