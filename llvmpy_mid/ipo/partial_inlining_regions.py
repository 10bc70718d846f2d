"""What the partial inliner outlines (LLVM 19.1.7 ``lib/Transforms/IPO/PartialInlining.cpp``:
``FunctionOutliningInfo``, ``FunctionOutliningMultiRegionInfo``,
``computeOutliningInfo`` and ``computeOutliningColdRegionsInfo``).

What: :func:`compute_outlining_info` finds the early-return shape: a chain of guarding
entry blocks from the function's entry (each a two-way branch, triangles allowed) that
reaches a returning block, the rest of the function (headed by the non-return
successor) being the region to outline; the guard chain then grows by peeling
dominating blocks that branch to the same return block, up to
``-max-num-inline-blocks`` inlined blocks. :func:`compute_outlining_cold_regions_info`
walks the CFG depth first from the entry (with an instrumentation profile) and collects
the single-entry, single-exit regions dominated by the target of a cold edge
(probability at most ``-cold-branch-ratio``) out of a warm block (profile count at least
``-min-block-execution``), whose cost is at least ``-min-region-size-ratio`` of the
function's.
"""

from __future__ import annotations

from typing import Callable

import attrs

from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
from llvmpy_mid.analysis.block_frequency_bpi import BranchProbabilityInfo
from llvmpy_mid.analysis.block_frequency_printers import function_entry_count, profile_count
from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo
from llvmpy_mid.analysis.remark import optimization_remark_analysis, optimization_remark_missed
from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ipo.partial_inlining_cost import compute_bb_inline_cost, float32
from llvmpy_mid.analysis.block_frequency_scaled import probability
from llvmpy_mid.passes.statistics import Statistic

__all__ = [
    "FunctionOutliningInfo",
    "FunctionOutliningMultiRegionInfo",
    "OutlineRegionInfo",
    "compute_outlining_cold_regions_info",
    "compute_outlining_info",
    "dominator_tree_descendants",
]

DEBUG_TYPE = "partial-inlining"

NUM_COLD_REGIONS_FOUND = Statistic(DEBUG_TYPE, "NumColdRegionsFound", "Number of cold single entry/exit regions found.")


@attrs.define
class FunctionOutliningInfo:
    """The guarding entry blocks, the return block they lead to, and the head of the
    region to outline (``NonReturnBlock``)."""

    entries: list[BasicBlock] = attrs.field(factory=list)
    return_block: BasicBlock | None = None
    non_return_block: BasicBlock | None = None
    return_block_preds: list[BasicBlock] = attrs.field(factory=list)

    @property
    def num_inlined_blocks(self) -> int:
        """The entries and the return block."""
        return len(self.entries) + 1


@attrs.define
class OutlineRegionInfo:
    """One cold region: its blocks (the header first), its exiting block and the block
    after the region (``ReturnBlock``, None when the exit has several successors)."""

    region: list[BasicBlock]
    entry_block: BasicBlock
    exit_block: BasicBlock
    return_block: BasicBlock | None


@attrs.define
class FunctionOutliningMultiRegionInfo:
    regions: list[OutlineRegionInfo] = attrs.field(factory=list)


def _return_and_other(a: BasicBlock, b: BasicBlock) -> tuple[BasicBlock | None, BasicBlock | None]:
    for ret, other in ((a, b), (b, a)):
        term = ret.terminator
        if term is not None and term.opcode == "ret":
            return ret, other
    return None, None


def _common_succ_and_other(a: BasicBlock, b: BasicBlock) -> tuple[BasicBlock | None, BasicBlock | None]:
    if a in b.successors:
        return a, b
    if b in a.successors:
        return b, a
    return None, None


def compute_outlining_info(fn: Function, max_inline_blocks: int) -> FunctionOutliningInfo | None:
    """LLVM ``computeOutliningInfo`` (see the module docstring)."""
    entry = fn.entry_block
    br = entry.terminator
    if br is None or br.opcode != "br" or len(br.successors) != 2:
        return None
    info = FunctionOutliningInfo()
    current = entry
    found = False
    while True:
        if info.num_inlined_blocks >= max_inline_blocks:
            break
        succs = current.successors
        if len(succs) != 2:
            break
        ret, other = _return_and_other(succs[0], succs[1])
        if ret is not None:
            info.entries.append(current)
            info.return_block = ret
            info.non_return_block = other
            found = True
            break
        common, other = _common_succ_and_other(succs[0], succs[1])
        if common is None or other is None:
            break
        info.entries.append(current)
        current = other
    if not found:
        return None
    # As in LLVM, the guard set the predecessor test looks at is the one found before the
    # peeling below: a peeled block's successor has a "non-entry" predecessor.
    entries: frozenset[BasicBlock] = frozenset(info.entries)

    def has_non_entry_pred(bb: BasicBlock) -> bool:
        return any(pred not in entries for pred in bb.predecessors)

    for e in info.entries:
        for succ in e.successors:
            if succ in entries:
                continue
            if succ is info.return_block:
                info.return_block_preds.append(e)
            elif succ is not info.non_return_block:
                return None
        if has_non_entry_pred(e):
            return None
    while info.num_inlined_blocks < max_inline_blocks:
        cand = info.non_return_block
        assert cand is not None
        succs = cand.successors
        if len(succs) != 2:
            break
        if has_non_entry_pred(cand):
            break
        ret, other = _return_and_other(succs[0], succs[1])
        if ret is None or other is None or ret is not info.return_block:
            break
        if other.single_predecessor is not cand:
            break
        info.entries.append(cand)
        info.non_return_block = other
        info.return_block_preds.append(cand)
    return info


def dominator_tree_descendants(dt: DominatorTree, root: BasicBlock) -> list[BasicBlock]:
    """LLVM ``DominatorTree::getDescendants``: ``root`` and every block it dominates, in
    the order of a stack walk that pushes each node's children in order."""
    if not dt.is_reachable(root):
        return []
    out: list[BasicBlock] = []
    stack = [root]
    while stack:
        bb = stack.pop()
        out.append(bb)
        stack.extend(dt.children(bb))
    return out


def _block_profile_count(bfi: BlockFrequencyInfo, bb: BasicBlock) -> int | None:
    """LLVM ``BlockFrequencyInfo::getBlockProfileCount``."""
    entry_count = function_entry_count(bfi.function)
    if entry_count is None:
        return None
    return profile_count(entry_count, bfi.frequency(bb), bfi.frequency(bfi.function.entry_block))


def compute_outlining_cold_regions_info(
    fn: Function,
    ore: OptimizationRemarkEmitter,
    psi: ProfileSummaryInfo,
    bfi: BlockFrequencyInfo,
    bpi: BranchProbabilityInfo,
    dt: DominatorTree,
    get_tti: Callable[[Function], TargetTransformInfo],
    options: ColdRegionOptions,
) -> FunctionOutliningMultiRegionInfo | None:
    """LLVM ``computeOutliningColdRegionsInfo`` (see the module docstring)."""
    if not (psi.has_profile_summary and psi.format == "InstrProf"):
        return None
    info = FunctionOutliningMultiRegionInfo()

    def single_exit(blocks: list[BasicBlock]) -> BasicBlock | None:
        members = set(blocks)
        exit_block: BasicBlock | None = None
        for block in blocks:
            for succ in block.successors:
                if succ in members:
                    continue
                if exit_block is not None:
                    first = succ.first_instruction
                    if first is not None:
                        header = blocks[0]
                        r = optimization_remark_missed(DEBUG_TYPE, "MultiExitRegion", first)
                        r.add("Region dominated by ").add_arg("Block", header.name)
                        r.add(" has more than one region exit edge.")
                        ore.emit(r)
                    return None
                exit_block = block
        return exit_block

    def count(bb: BasicBlock) -> int:
        c = _block_profile_count(bfi, bb)
        return 0 if c is None else c

    def is_cold_block(bb: BasicBlock) -> bool:
        c = _block_profile_count(bfi, bb)
        return c is not None and psi.is_cold_count(c)

    fn_tti = get_tti(fn)
    overall = 0
    for bb in fn.blocks:
        overall += compute_bb_inline_cost(bb, fn_tti)
    min_region_cost = int(float32(float32(float(overall)) * options.min_region_size_ratio))
    min_execution = options.min_block_execution
    min_prob = probability(int(float32(options.cold_branch_ratio * float32(float(min_execution)))), min_execution) \
        if min_execution else 0
    found = False
    entry = fn.entry_block
    visited: set[BasicBlock] = {entry}
    dfs = [entry]
    while dfs:
        this_bb = dfs.pop()
        if is_cold_block(this_bb) or count(this_bb) < min_execution:
            continue
        for index, succ in enumerate(this_bb.successors):
            if succ in visited:
                continue
            visited.add(succ)
            dfs.append(succ)
            if bpi.edge_probability(this_bb, index) > min_prob:
                continue
            dominated = dominator_tree_descendants(dt, succ)
            if not dominated or not dominated[0].has_n_predecessors(1):
                continue
            exit_block = single_exit(dominated)
            if exit_block is None:
                continue
            region_cost = 0
            for bb in dominated:
                parent = bb.parent
                assert parent is not None
                region_cost += compute_bb_inline_cost(bb, get_tti(parent))
            if not options.skip_cost_analysis and region_cost < min_region_cost:
                first = succ.first_instruction
                if first is not None:
                    r = optimization_remark_analysis(DEBUG_TYPE, "TooCostly", first)
                    r.add_arg("Callee", fn).add(" inline cost-savings smaller than ").add_arg("Cost", min_region_cost)
                    ore.emit(r)
                continue
            visited.update(dominated)
            info.regions.append(OutlineRegionInfo(dominated, dominated[0], exit_block, exit_block.single_successor))
            found = True
            NUM_COLD_REGIONS_FOUND.add()
    return info if found else None


@attrs.frozen
class ColdRegionOptions:
    """The options that pick cold regions."""

    min_region_size_ratio: float = float32(0.1)
    min_block_execution: int = 100
    cold_branch_ratio: float = float32(0.1)
    skip_cost_analysis: bool = False
