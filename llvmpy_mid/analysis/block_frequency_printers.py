"""The ``print<branch-prob>`` and ``print<block-freq>`` printers, writing what opt-19 writes.

What: :func:`format_branch_probabilities` lists every CFG edge (function block order,
successor order, repeated edges repeated) with its probability as
``0xNNNNNNNN / 0x80000000 = PP.PP%`` and `` [HOT edge]`` above 80%;
:func:`format_block_frequencies` lists every block with its frequency relative to the
entry (``float =``, 5 significant digits) and LLVM's integer frequency (``int =``).
The passes write to ``stream`` (stderr by default, as opt) and preserve everything.

How: the numbers come from :mod:`llvmpy_mid.analysis.block_frequency`; edges are named
as ``printAsOperand`` names blocks, BFI lines use the bare block name (empty for an
unnamed block), as LLVM does.

What it does not do: ``count =`` (profile counts) and ``irr_loop_header_weight =``.
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
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = [
    "BlockFrequencyPrinterPass",
    "BranchProbabilityPrinterPass",
    "format_block_frequencies",
    "format_branch_probabilities",
]


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


def format_block_frequencies(bfi: BlockFrequencyInfo) -> str:
    fn = bfi.function
    out = ["Printing analysis results of BFI for function '%s':\n" % fn.name,
           "block-frequency-info: %s\n" % fn.name]
    for bb in fn.blocks:
        out.append(
            " - %s: float = %s, int = %d\n" % (bb.name, format_scaled(bfi.float_frequency(bb)), bfi.frequency(bb))
        )
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
