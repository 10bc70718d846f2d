"""``CallBase.intrinsic_base``: LLVM's ``lookupIntrinsicID`` base name for every intrinsic in the table."""

from __future__ import annotations

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.instructions.calls import CallBase, intrinsic_base_name
from llvmpy_mid.ir.pattern_match import m_intrinsic, m_value, matches

SRC = """
define void @f(i8 %x, i32 %y, <4 x float> %v, ptr %p) {
  %abs = call i8 @llvm.abs.i8(i8 %x, i1 false)
  %pop = call i32 @llvm.ctpop.i32(i32 %y)
  %rev = call i32 @llvm.bitreverse.i32(i32 %y)
  %fab = call <4 x float> @llvm.fabs.v4f32(<4 x float> %v)
  %ov = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %y, i32 %y)
  call void @llvm.memcpy.inline.p0.p0.i64(ptr %p, ptr %p, i64 4, i1 true)
  %not = call i32 @llvm.not.an.intrinsic.i32(i32 %y)
  %plain = call i32 @g(i32 %y)
  ret void
}
declare i8 @llvm.abs.i8(i8, i1)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.bitreverse.i32(i32)
declare <4 x float> @llvm.fabs.v4f32(<4 x float>)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare void @llvm.memcpy.inline.p0.p0.i64(ptr, ptr, i64, i1)
declare i32 @llvm.not.an.intrinsic.i32(i32)
declare i32 @g(i32)
"""


def test_every_intrinsic_has_its_base_name() -> None:
    m = parse_assembly(SRC)
    fn = m.get_function("f")
    assert fn is not None
    calls = [i for i in fn.blocks.first.instructions if isinstance(i, CallBase)]  # type: ignore[union-attr]
    bases = [c.intrinsic_base for c in calls]
    assert bases == [
        "llvm.abs",
        "llvm.ctpop",
        "llvm.bitreverse",
        "llvm.fabs",
        "llvm.sadd.with.overflow",
        "llvm.memcpy.inline",
        "llvm.not.an.intrinsic.i32",  # no such intrinsic: the name itself
        "",
    ]
    abs_call, _, _, _, ov, memcpy = calls[:6]
    assert matches(abs_call, m_intrinsic("llvm.abs", m_value(), m_value()))
    assert ov.is_commutative and memcpy.is_volatile  # type: ignore[attr-defined]


def test_base_name_function() -> None:
    assert intrinsic_base_name("llvm.abs.v4i16") == "llvm.abs"
    assert intrinsic_base_name("llvm.umul.fix.sat.i32") == "llvm.umul.fix.sat"
    assert intrinsic_base_name("llvm.experimental.constrained.fadd.f64") == "llvm.experimental.constrained.fadd"
