"""AggressiveInstCombine: the bit-twiddling population count becomes ``llvm.ctpop``
(LLVM ``tryToRecognizePopCount``, ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``).

    v = x - ((x >> 1) & 0x55..); v = (v & 0x33..) + ((v >> 2) & 0x33..);
    v = (v + (v >> 4)) & 0x0F..; (v * 0x01..) >> (W - 8)          -> ctpop(x)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.pattern_match import m_apint, match
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def _splat8(width: int, byte: int) -> int:
    return int.from_bytes(bytes([byte]) * (width // 8), "little")


def _binop(v: Value, opcode: str) -> Instruction | None:
    return v if isinstance(v, Instruction) and v.opcode == opcode else None


def _is_int(v: Value, c: int) -> bool:
    m = match(v, m_apint("c"))
    return m is not None and bool(m.c == c)


def _and_with(v: Value, c: int) -> Value | None:
    """X of ``X & c``."""
    a = _binop(v, "and")
    return a.operands[0] if a is not None and _is_int(a.operands[1], c) else None


def _lshr_by(v: Value, c: int) -> Value | None:
    s = _binop(v, "lshr")
    return s.operands[0] if s is not None and _is_int(s.operands[1], c) else None


def try_to_recognize_pop_count(i: Instruction, ctx: FoldContext) -> bool:
    """The classic SWAR popcount -> llvm.ctpop."""
    if i.opcode != "lshr":
        return False
    ty = i.type
    if not (ty.is_integer or (ty.is_vector and ty.scalar_type.is_integer)):
        return False
    w = scalar_size_in_bits(ty)
    if not (8 < w <= 128 and w % 8 == 0):
        return False
    m55, m33, m0f, m01 = (_splat8(w, b) for b in (0x55, 0x33, 0x0F, 0x01))
    mul = _binop(i.operands[0], "mul")
    if mul is None or not _is_int(mul.operands[1], m01) or not _is_int(i.operands[1], w - 8):
        return False
    add4 = _and_with(mul.operands[0], m0f)
    add4i = _binop(add4, "add") if add4 is not None else None
    if add4i is None:
        return False
    shift_op0: Value | None = None
    for x, y in ((add4i.operands[0], add4i.operands[1]), (add4i.operands[1], add4i.operands[0])):
        inner = _lshr_by(x, 4)
        if inner is not None and y is inner:
            shift_op0 = inner
            break
    add2 = _binop(shift_op0, "add") if shift_op0 is not None else None
    if add2 is None:
        return False
    and_op0: Value | None = None
    for x, y in ((add2.operands[0], add2.operands[1]), (add2.operands[1], add2.operands[0])):
        cand = _and_with(x, m33)
        if cand is None:
            continue
        other = _and_with(y, m33)
        if other is not None and _lshr_by(other, 2) is cand:
            and_op0 = cand
            break
    sub = _binop(and_op0, "sub") if and_op0 is not None else None
    if sub is None:
        return False
    root, sub_op1 = sub.operands
    inner1 = _and_with(sub_op1, m55)
    if inner1 is None or _lshr_by(inner1, 1) is not root:
        return False
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(i)
    b.debug_loc = i.debug_loc
    i.replace_all_uses_with(b.create_intrinsic("ctpop", [ty], [root]))
    return True


__all__ = ["try_to_recognize_pop_count"]
