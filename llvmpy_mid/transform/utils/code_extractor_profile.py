"""Code extraction that keeps the profile up to date (the ``BlockFrequencyInfo`` /
``BranchProbabilityInfo`` half of LLVM 19.1.7 ``lib/Transforms/Utils/CodeExtractor.cpp``:
the entry frequency of ``extractCodeRegion``, ``setEntryCount`` of the new function and
``calculateNewCallTerminatorWeights``).

What: :class:`ProfileCodeExtractor` is a :class:`~.code_extractor.CodeExtractor` given a
``BlockFrequencyInfo`` and a ``BranchProbabilityInfo`` of the function it extracts from.
Before the region moves it sums the frequency entering the region's header and, once
the returns are split off, the frequency leaving it for each exit block. It then gives
the new function the entry count those frequencies imply (when the old function has
one), records the entry frequency as the frequency of the ``codeRepl`` block, and, when
the region has several exits, writes ``branch_weights`` on the ``codeRepl`` terminator
(the exit frequencies normalised as LLVM's block-frequency distributions are) and sets
the matching edge probabilities.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
from llvmpy_mid.analysis.block_frequency_bpi import BranchProbabilityInfo
from llvmpy_mid.analysis.block_frequency_printers import function_entry_count, profile_count
from llvmpy_mid.analysis.block_frequency_scaled import ONE, probability
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString
from llvmpy_mid.ir.prof_data_utils import set_branch_weights
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.code_extractor import CodeExtractor

__all__ = ["ProfileCodeExtractor", "normalize_exit_weights", "set_function_entry_count"]

_U64_MAX = (1 << 64) - 1
_U32_MAX = (1 << 32) - 1


def _add_saturating(a: int, b: int) -> int:
    return min(a + b, _U64_MAX)


def _scale(frequency: int, prob: int) -> int:
    return frequency * prob // ONE


def set_function_entry_count(fn: Function, count: int, synthetic: bool = False) -> None:
    """LLVM ``Function::setEntryCount``: ``!prof !{!"function_entry_count", i64 count}``."""
    ctx = fn.type.context
    kind = "synthetic_function_entry_count" if synthetic else "function_entry_count"
    node = MDNode.get(ctx, [MDString.get(ctx, kind), ConstantAsMetadata.get(ConstantInt.get(ctx.i64, count))])
    fn.set_metadata("prof", node)


def _shift_right_and_round(n: int, shift: int) -> int:
    if not shift:
        return n
    return (n >> shift) + (1 & (n >> (shift - 1)))


def normalize_exit_weights(frequencies: Sequence[int]) -> tuple[list[int], int] | None:
    """Branch weights (one per successor, 0 for an edge never taken) and their total, as
    LLVM's ``Distribution::normalize`` scales the non-zero exit frequencies into 32 bits;
    None when no exit is taken."""
    amounts = [(i, f) for i, f in enumerate(frequencies) if f != 0]
    if not amounts:
        return None
    weights = [0] * len(frequencies)
    if len(amounts) == 1:
        weights[amounts[0][0]] = 1
        return weights, 1
    total = sum(f for _, f in amounts)
    shift = 0
    if total > _U64_MAX:
        shift = 33
    elif total > _U32_MAX:
        shift = 33 - (64 - total.bit_length())
    if not shift:
        for i, f in amounts:
            weights[i] = f
        return weights, total
    total = 0
    for i, f in amounts:
        w = max(1, _shift_right_and_round(f, shift))
        weights[i] = w
        total += w
    return weights, total


class ProfileCodeExtractor(CodeExtractor):
    """A :class:`CodeExtractor` that updates ``bfi``/``bpi`` and the profile metadata (see
    the module docstring). Both analyses are required."""

    def __init__(
        self,
        blocks: Sequence[BasicBlock],
        dt: DominatorTree | None,
        bfi: BlockFrequencyInfo,
        bpi: BranchProbabilityInfo,
        ac: object | None = None,
        allow_var_args: bool = False,
    ) -> None:
        super().__init__(blocks, dt, False, bfi, bpi, ac, allow_var_args)
        self.profile_bfi = bfi
        self.profile_bpi = bpi
        self.entry_frequency = 0
        self.exit_weights: dict[BasicBlock, int] = {}

    def _split_return_blocks(self) -> None:
        bfi = self.profile_bfi
        bpi = self.profile_bpi
        header = next(iter(self.blocks))
        entry = 0
        for pred in header.predecessors:
            if pred in self.blocks:
                continue
            entry = _add_saturating(entry, _scale(bfi.frequency(pred), bpi.edge_probability_to(pred, header)))
        self.entry_frequency = entry
        super()._split_return_blocks()
        weights: dict[BasicBlock, int] = {}
        for bb in self.blocks:
            freq = bfi.frequency(bb)
            for succ in bb.successors:
                if succ in self.blocks:
                    continue
                weights[succ] = _add_saturating(weights.get(succ, 0), _scale(freq, bpi.edge_probability_to(bb, succ)))
        self.exit_weights = weights

    def _construct_function(
        self,
        inputs: list[Value],
        outputs: list[Value],
        header: BasicBlock,
        new_root: BasicBlock,
        new_header: BasicBlock,
        old_fn: Function,
    ) -> tuple[Function, list[Value], Type | None]:
        result = super()._construct_function(inputs, outputs, header, new_root, new_header, old_fn)
        bfi = self.profile_bfi
        entry_count = function_entry_count(bfi.function)
        if entry_count is not None:
            entry_freq = bfi.frequency(bfi.function.entry_block)
            set_function_entry_count(result[0], profile_count(entry_count, self.entry_frequency, entry_freq))
        bfi.set_block_freq(new_header, self.entry_frequency)
        return result

    def _emit_call_and_branch(
        self,
        new_fn: Function,
        code_repl: BasicBlock,
        inputs: list[Value],
        outputs: list[Value],
        struct_values: list[Value],
        struct_ty: Type | None,
    ) -> Instruction:
        call = super()._emit_call_and_branch(new_fn, code_repl, inputs, outputs, struct_values, struct_ty)
        if self.num_exit_blocks > 1:
            self._set_exit_weights(code_repl)
        return call

    def _set_exit_weights(self, code_repl: BasicBlock) -> None:
        term = code_repl.terminator
        if term is None:
            return
        succs = term.successors
        freqs = [self.exit_weights.get(s, 0) for s in succs]
        normalized = normalize_exit_weights(freqs)
        if normalized is None:
            self.profile_bpi.probs[code_repl] = [0] * len(succs)
            return
        weights, total = normalized
        self.profile_bpi.probs[code_repl] = [probability(w, total) if w else 0 for w in weights]
        set_branch_weights(term, weights)
