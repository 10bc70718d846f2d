"""ARM target transform information (LLVM 19.1.7
``lib/Target/ARM/ARMTargetTransformInfo.cpp``, as far as the middle end asks it): the
cost of a floating-point operation (``BasicTTIImpl::getFPOpCost``, which asks whether
``ISD::FADD`` is legal for the type on the function's subtarget, with the FP register
classes ``ARMTargetLowering`` adds).

What: ``float`` is cheap when the function's subtarget has VFP2 (single precision) and
neither soft float (``+soft-float``, ``"use-soft-float"="true"``) nor Thumb-1 only;
``double`` also needs ``fp64``; ``half`` is cheap with ``fullfp16`` (soft float or
not); every other FP type, and ``float``/``double`` under soft float, is expensive (a
library call). Of the integer types (the result of ``fptosi``...) only the legal
``i32`` is cheap.

Vectors are cheap in a NEON register (64 or 128 bits; soft float does not change it) of
integers, ``float`` (or ``half`` with ``fullfp16``), never of ``double``.

What it does not do: ARM's other costs (arithmetic, memory, casts...), which keep the
target-independent answers.
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_cost_target_arm import arm_feature_bits
from llvmpy_mid.analysis.target_transform_info import (
    TCC_BASIC,
    TCC_EXPENSIVE,
    InstructionCost,
    TargetTransformInfo,
)
from llvmpy_mid.ir.types import Type, VectorType


class ARMTargetTransformInfo(TargetTransformInfo):
    """``ARMTTIImpl``'s answers that differ from the target-independent ones."""

    __slots__ = ()

    def get_fp_op_cost(self, ty: Type) -> InstructionCost:
        fn = self.function
        if fn is None:
            return InstructionCost(TCC_EXPENSIVE)
        if str(ty) == "i32":
            # The one legal integer type: FADD's action there is the default (legal).
            return InstructionCost(TCC_BASIC)
        bits = arm_feature_bits(fn)
        if isinstance(ty, VectorType):
            return InstructionCost(TCC_BASIC if _is_neon_fadd_type(ty, bits) else TCC_EXPENSIVE)
        if str(ty) == "half" and "fullfp16" in bits:
            # The half-precision registers come with fullfp16, soft float or not.
            return InstructionCost(TCC_BASIC)
        thumb1_only = "thumb-mode" in bits and "thumb2" not in bits
        if "soft-float" in bits or thumb1_only or "vfp2sp" not in bits:
            return InstructionCost(TCC_EXPENSIVE)
        name = str(ty)
        if name == "float":
            return InstructionCost(TCC_BASIC)
        if name == "double" and "fp64" in bits:
            return InstructionCost(TCC_BASIC)
        return InstructionCost(TCC_EXPENSIVE)


def is_arm_triple(triple: str) -> bool:
    """A 32-bit ARM or Thumb triple (not AArch64's ``arm64``)."""
    return triple.startswith(("arm-", "armv", "armeb", "thumb")) or triple == "arm"


def _is_neon_fadd_type(ty: VectorType, bits: frozenset[str]) -> bool:
    """A NEON register type (64 or 128 bits, soft float or not) whose ``FADD`` is not
    expanded: not of ``double`` (no vector f64 arithmetic), ``half`` only with ``fullfp16``."""
    if "neon" not in bits or ty.scalable:
        return False
    elem = ty.element_type
    name = str(elem)
    if name in ("i8", "i16", "i32", "i64", "float"):
        width = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "float": 32}[name]
    elif name == "half" and "fullfp16" in bits:
        width = 16
    else:
        return False
    return width * ty.count in (64, 128)
