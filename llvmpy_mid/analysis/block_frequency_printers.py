"""The ``print<branch-prob>`` and ``print<block-freq>`` printers, writing what opt-19 writes.

What: :func:`format_branch_probabilities` lists every CFG edge (function block order,
successor order, repeated edges repeated) with its probability as
``0xNNNNNNNN / 0x80000000 = PP.PP%`` and `` [HOT edge]`` above 80%;
:func:`format_block_frequencies` lists every block with its frequency relative to the
entry (``float =``, 5 significant digits) and LLVM's integer frequency (``int =``), then,
as LLVM, the profile count when the function has a ``function_entry_count`` (``count =``)
and a terminator's ``!irr_loop`` weight (``irr_loop_header_weight =``).
The passes write to ``stream`` (stderr by default, as opt) and preserve everything.

How: the numbers come from :mod:`llvmpy_mid.analysis.block_frequency`; edges are named
as ``printAsOperand`` names blocks, BFI lines use the bare block name (empty for an
unnamed block), as LLVM does.

What it does not do: synthetic entry counts (LLVM's printer ignores them too).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.block_frequency import (
    BlockFrequencyAnalysis,
    BlockFrequencyInfo,
    BranchProbabilityAnalysis,
    BranchProbabilityInfo,
)
from llvmpy_mid.analysis.block_frequency_bpi import successors
from llvmpy_mid.analysis.block_frequency_scaled import ONE, format_scaled
from llvmpy_mid.analysis.block_names import block_refs
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, Metadata
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = [
    "BlockFrequencyPrinterPass",
    "BranchProbabilityPrinterPass",
    "format_block_frequencies",
    "format_branch_probabilities",
    "function_entry_count",
    "irr_loop_header_weight",
    "profile_count",
]

_U64_MAX = (1 << 64) - 1


def format_branch_probabilities(bpi: BranchProbabilityInfo) -> str:
    fn = bpi.function
    refs = block_refs(fn)
    out = ["Printing analysis 'Branch Probability Analysis' for function '%s':\n" % fn.name,
           "---- Branch Probabilities ----\n"]
    for bb in fn.blocks:
        for s in successors(bb):
            p = bpi.edge_probability_to(bb, s)
            out.append(
                "  edge %s -> %s probability is 0x%08x / 0x%08x = %.2f%%%s\n"
                % (refs[bb], refs[s], p, ONE, p * 100.0 / ONE, " [HOT edge]" if bpi.is_edge_hot(bb, s) else "")
            )
    return "".join(out)


def _named_count(node: Metadata | None, name: str) -> int | None:
    """N of a ``!{!"name", iK N}`` node (zero-extended), else None."""
    if not isinstance(node, MDNode):
        return None
    ops = node.operands
    if len(ops) < 2 or not isinstance(ops[0], MDString) or ops[0].string != name:
        return None
    value = ops[1].value if isinstance(ops[1], ConstantAsMetadata) else None
    return value.zext_value if isinstance(value, ConstantInt) else None


def function_entry_count(fn: Function) -> int | None:
    """LLVM's ``Function::getEntryCount`` (real counts only): the ``function_entry_count``
    of the function's ``!prof``; None without one, or when it is -1 (no samples)."""
    count = _named_count(fn.get_metadata("prof"), "function_entry_count")
    return None if count == _U64_MAX else count


def irr_loop_header_weight(bb: BasicBlock) -> int | None:
    """LLVM's ``BasicBlock::getIrrLoopHeaderWeight``: the ``loop_header_weight`` of the
    terminator's ``!irr_loop``."""
    term = bb.terminator
    return None if term is None else _named_count(term.get_metadata("irr_loop"), "loop_header_weight")


def profile_count(entry_count: int, frequency: int, entry_frequency: int) -> int:
    """LLVM's ``getProfileCountFromFreq``: entry count times frequency over the entry's
    frequency, rounded to nearest (128-bit arithmetic), capped at 2**64-1."""
    if entry_frequency == 0:
        return _U64_MAX  # LLVM divides by zero here; the entry block always has a frequency
    count = (entry_count * frequency + (entry_frequency >> 1)) // entry_frequency
    return min(count & ((1 << 128) - 1), _U64_MAX)


def format_block_frequencies(bfi: BlockFrequencyInfo) -> str:
    fn = bfi.function
    out = ["Printing analysis results of BFI for function '%s':\n" % fn.name,
           "block-frequency-info: %s\n" % fn.name]
    entry_count = function_entry_count(fn)
    entry_frequency = bfi.frequency(fn.entry_block) if entry_count is not None else 0
    for bb in fn.blocks:
        freq = bfi.frequency(bb)
        line = " - %s: float = %s, int = %d" % (bb.name, format_scaled(bfi.float_frequency(bb)), freq)
        if entry_count is not None:
            line += ", count = %d" % profile_count(entry_count, freq, entry_frequency)
        weight = irr_loop_header_weight(bb)
        if weight is not None:
            line += ", irr_loop_header_weight = %d" % weight
        out.append(line + "\n")
    out.append("\n")
    return "".join(out)


class BranchProbabilityPrinterPass(Pass[Function]):
    """``print<branch-prob>``."""

    name: ClassVar[str] = "print<branch-prob>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(format_branch_probabilities(am.get_result(BranchProbabilityAnalysis, unit)))
        return PreservedAnalyses.all()


class BlockFrequencyPrinterPass(Pass[Function]):
    """``print<block-freq>``."""

    name: ClassVar[str] = "print<block-freq>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(format_block_frequencies(am.get_result(BlockFrequencyAnalysis, unit)))
        return PreservedAnalyses.all()
