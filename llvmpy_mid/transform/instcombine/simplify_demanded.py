"""Demanded bits and demanded vector elements for InstCombine (LLVM
``lib/Transforms/InstCombine/InstCombineSimplifyDemanded.cpp``).

Stub: nothing is simplified yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.analysis.known_bits import KnownBits
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def simplify_demanded_bits(ic: InstCombiner, i: Instruction, op_num: int, demanded: int, known: KnownBits, depth: int = 0) -> bool:
    """``SimplifyDemandedBits``: True when operand ``op_num`` of ``i`` was replaced.
    ``known`` is filled in place with what is known of that operand."""
    return False


def simplify_demanded_instruction_bits(ic: InstCombiner, i: Instruction) -> bool:
    """``SimplifyDemandedInstructionBits``: all of ``i``'s bits demanded; True when ``i`` changed."""
    return False


__all__ = ["simplify_demanded_bits", "simplify_demanded_instruction_bits"]
