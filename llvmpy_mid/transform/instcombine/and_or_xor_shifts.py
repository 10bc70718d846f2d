"""Shift idioms of ``or`` (LLVM ``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``:
``matchBSwapOrBitReverse``, ``matchFunnelShift`` / ``convertOrOfShiftsToFunnelShift``).

Not yet done: both return None (no fold), so ``visitOr`` goes on to its next attempt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def match_bswap_or_bitreverse(
    ic: InstCombiner, i: Instruction, match_bswaps: bool, match_bit_reversals: bool
) -> Instruction | None:
    """An or of shifted/masked parts that is a bswap or bitreverse -> the intrinsic (not yet done)"""
    return None


def match_funnel_shift(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """or (shl X, C), (lshr Y, BW - C) -> fshl(X, Y, C) (not yet done)"""
    return None


__all__ = ["match_bswap_or_bitreverse", "match_funnel_shift"]
