"""AggressiveInstCombine: chains testing several bits of one value become one mask test
(LLVM ``foldAnyOrAllBitsSet``, ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``).

    ((X >> a) & (X >> b) & ... & 1)      -> zext ((X & M) == M)
    ((X >> a) | (X >> b) | ...) & 1      -> zext ((X & M) != 0)      (M has bits a, b, ...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.pattern_match import m_apint, match
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


class _MaskOps:
    __slots__ = ("root", "mask", "match_and_chain", "found_and1", "width")

    def __init__(self, width: int, match_ands: bool) -> None:
        self.root: Value | None = None
        self.mask = 0
        self.match_and_chain = match_ands
        self.found_and1 = False
        self.width = width


def _binop(v: Value, opcode: str) -> Instruction | None:
    return v if isinstance(v, Instruction) and v.opcode == opcode else None


def _is_one(v: Value) -> bool:
    m = match(v, m_apint("c"))
    return m is not None and bool(m.c == 1)


def _match_and_or_chain(v: Value, mops: _MaskOps) -> bool:
    """LLVM ``matchAndOrChain`` (a tree walk; the chains are short)."""
    if mops.match_and_chain:
        a = _binop(v, "and")
        if a is not None and _is_one(a.operands[1]):
            mops.found_and1 = True
            return _match_and_or_chain(a.operands[0], mops)
        if a is not None:
            return _match_and_or_chain(a.operands[0], mops) and _match_and_or_chain(a.operands[1], mops)
    else:
        o = _binop(v, "or")
        if o is not None:
            return _match_and_or_chain(o.operands[0], mops) and _match_and_or_chain(o.operands[1], mops)
    candidate = v
    bit_index: int | None = None
    sh = _binop(v, "lshr")
    if sh is not None:
        m = match(sh.operands[1], m_apint("c"))
        if m:
            candidate = sh.operands[0]
            bit_index = m.c
    if mops.root is None:
        mops.root = candidate
    if bit_index is not None and bit_index >= mops.width:
        return False
    mops.mask |= 1 << (bit_index if bit_index is not None else 0)
    return mops.root is candidate


def _one_use_and(v: Value) -> bool:
    x = _binop(v, "and")
    return x is not None and x.has_one_use


def fold_any_or_all_bits_set(i: Instruction, ctx: FoldContext) -> bool:
    """and/or chains of single-bit tests of one value -> one masked compare."""
    if i.opcode != "and":
        return False
    a, b = i.operands
    if _one_use_and(a) or _one_use_and(b):
        match_all = True
    elif (o := _binop(a, "or")) is not None and o.has_one_use and _is_one(b):
        match_all = False
    else:
        return False
    mops = _MaskOps(scalar_size_in_bits(i.type), match_all)
    if match_all:
        if not _match_and_or_chain(i, mops) or not mops.found_and1:
            return False
    elif not _match_and_or_chain(a, mops):
        return False
    assert mops.root is not None
    bld = IRBuilder(folder=ConstantFolder())
    bld.position_before(i)
    bld.debug_loc = i.debug_loc
    mask = _const_int(i.type, mops.mask)
    masked = bld.create_and(mops.root, mask)
    cmp = bld.create_icmp("eq", masked, mask) if match_all else bld.create_is_not_null(masked)
    i.replace_all_uses_with(bld.create_zext(cmp, i.type))
    return True


def _const_int(ty: object, v: int) -> Constant:
    """``ConstantInt::get(Ty, V)`` (a splat for a vector type)."""
    from llvmpy_mid.ir.constants import ConstantVector
    from llvmpy_mid.ir.types import IntegerType, VectorType

    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, v))
    assert isinstance(ty, IntegerType)
    return ConstantInt.get(ty, v)


__all__ = ["fold_any_or_all_bits_set"]
