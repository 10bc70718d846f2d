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
