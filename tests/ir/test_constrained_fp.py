"""Constrained FP intrinsic metadata arguments (LLVM ``ConstrainedFPIntrinsic``): one reader in ir/constrained_fp.py."""

from __future__ import annotations

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.constrained_fp import constrained_exception_behavior, constrained_fp_args, constrained_rounding_mode
from llvmpy_mid.ir.instructions.calls import CallBase

SRC = """
define void @f(double %a, double %b, float %c) strictfp {
  %add = call double @llvm.experimental.constrained.fadd.f64(double %a, double %b, metadata !"round.downward", metadata !"fpexcept.ignore") strictfp
  %ext = call double @llvm.experimental.constrained.fpext.f64.f32(float %c, metadata !"fpexcept.maytrap") strictfp
  %cmp = call i1 @llvm.experimental.constrained.fcmp.f64(double %a, double %b, metadata !"oeq", metadata !"fpexcept.strict") strictfp
  ret void
}
declare double @llvm.experimental.constrained.fadd.f64(double, double, metadata, metadata)
declare double @llvm.experimental.constrained.fpext.f64.f32(float, metadata)
declare i1 @llvm.experimental.constrained.fcmp.f64(double, double, metadata, metadata)
"""


def test_metadata_arguments() -> None:
    m = parse_assembly(SRC)
    fn = m.get_function("f")
    assert fn is not None
    calls = [i for i in fn.blocks.first.instructions if isinstance(i, CallBase)]  # type: ignore[union-attr]
    add, ext, cmp = calls
    assert constrained_fp_args(add) == ("round.downward", "fpexcept.ignore")
    # no rounding argument: the operand before the exception behaviour is not a round.* string
    assert constrained_rounding_mode(ext) is None and constrained_exception_behavior(ext) == "fpexcept.maytrap"
    assert constrained_fp_args(cmp) == (None, "fpexcept.strict")


def test_trivially_dead_unless_strict() -> None:
    from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead

    m = parse_assembly(SRC)
    fn = m.get_function("f")
    assert fn is not None
    add, ext, cmp = [i for i in fn.blocks.first.instructions if isinstance(i, CallBase)]  # type: ignore[union-attr]
    assert is_instruction_trivially_dead(add) and is_instruction_trivially_dead(ext)
    assert not is_instruction_trivially_dead(cmp)
