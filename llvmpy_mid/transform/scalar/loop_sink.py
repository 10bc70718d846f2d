"""``loop-sink``: sinking from a loop's preheader into its colder blocks (LLVM 19.1.7
``lib/Transforms/Scalar/LoopSink.cpp``).

What: the inverse of LICM's hoisting, driven by profile data. For each loop with a preheader
(innermost loops first), the preheader's instructions are visited bottom-up; an instruction
LICM could move (``can_sink_or_hoist_inst`` with sinking flags), whose users all sit in the
loop, is moved to the start of the loop blocks that need it when those blocks together run
less often than the preheader. When it goes to several blocks, the first (in loop block
order) gets the instruction and the others a clone, each clone taking the uses it dominates.

How (``findBBsToSinkInto``): the candidate set starts as the blocks using the instruction (a
phi use counts in its incoming block; a phi fed straight from the preheader stops the sink).
The loop blocks colder than the preheader are walked from coldest up; whenever a cold block
dominates a part of the set whose summed frequency is higher than its own, that part is
replaced by the cold block. A sum over more than one block is "taxed" by dividing it by
``-sink-freq-percent-threshold`` percent (code growth), and the final set must not be hotter
than the preheader, may not hold a block without an insertion point and, with more than one
block, must be all cold blocks. More than ``-max-uses-for-sinking`` use blocks stop the
search. MemorySSA is kept up to date (moved and cloned accesses); ``-verify-memoryssa``
checks it when anything changed.

Only functions with profile data (a ``function_entry_count``) are touched, as in LLVM; the
pass keeps the CFG and MemorySSA.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.block_frequency import BlockFrequencyAnalysis, BlockFrequencyInfo
from llvmpy_mid.analysis.block_frequency_printers import function_entry_count
from llvmpy_mid.analysis.block_frequency_scaled import ONE, probability
from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis
from llvmpy_mid.analysis.memory_ssa import BEGINNING, MemorySSA, MemorySSAAnalysis
from llvmpy_mid.analysis.memory_ssa_access import MemoryDef, MemoryUse, MemoryUseOrDef
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Use
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.licm import SinkAndHoistLICMFlags, can_sink_or_hoist_inst
from llvmpy_mid.transform.utils.local import replace_dominated_uses_with

__all__ = ["LoopSinkPass", "sink_loop_invariant_instructions"]

NUM_LOOP_SUNK = Statistic("loopsink", "NumLoopSunk", "Number of instructions sunk into loop")
NUM_LOOP_SUNK_CLONED = Statistic("loopsink", "NumLoopSunkCloned", "Number of cloned instructions sunk into loop")

_U64_MAX = (1 << 64) - 1


def _option(name: str, default: int) -> int:
    """The value of a ``uint`` option (its LLVM default when it is not declared)."""
    if OPTIONS.get(name) is None:
        return default
    value = OPTIONS.value(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _adjusted_sum_freq(bbs: dict[BasicBlock, None], bfi: BlockFrequencyInfo, percent: int) -> int:
    """LLVM ``adjustedSumFreq``: the saturating sum of the blocks' frequencies, divided by
    ``percent``% (a ``BranchProbability``, rounded down, saturating) over more than one block."""
    total = 0
    for bb in bbs:
        total += bfi.frequency(bb)
    if total > _U64_MAX:
        total = _U64_MAX
    if len(bbs) > 1 and total:
        num = probability(percent, 100)
        if num != ONE:
            total = _U64_MAX if num == 0 else min((total * ONE) // num, _U64_MAX)
    return total


def _find_bbs_to_sink_into(
    loop: Loop,
    use_bbs: dict[BasicBlock, None],
    cold_loop_bbs: list[BasicBlock],
    dt: DominatorTree,
    bfi: BlockFrequencyInfo,
    percent: int,
) -> dict[BasicBlock, None]:
    """LLVM ``findBBsToSinkInto``: the cheapest set of loop blocks that together dominate every
    use block, or nothing when no such set beats the preheader."""
    if not use_bbs:
        return {}
    sink_into = dict(use_bbs)
    for coldest in cold_loop_bbs:
        dominated: dict[BasicBlock, None] = {bb: None for bb in sink_into if dt.dominates(coldest, bb)}
        if not dominated:
            continue
        if _adjusted_sum_freq(dominated, bfi, percent) > bfi.frequency(coldest):
            for bb in dominated:
                del sink_into[bb]
            sink_into[coldest] = None
    for bb in sink_into:
        if bb.first_insertion_point is None:
            return {}
    preheader = loop.preheader
    assert preheader is not None
    if _adjusted_sum_freq(sink_into, bfi, percent) > bfi.frequency(preheader):
        return {}
    return sink_into


def _sink_instruction(
    loop: Loop,
    inst: Instruction,
    cold_loop_bbs: list[BasicBlock],
    loop_block_number: dict[BasicBlock, int],
    dt: DominatorTree,
    bfi: BlockFrequencyInfo,
    mssau: MemorySSAUpdater,
) -> bool:
    """LLVM ``sinkInstruction``: move ``inst`` out of the preheader into the blocks chosen by
    :func:`_find_bbs_to_sink_into` (cloning it for all but the first); True if it moved."""
    preheader = loop.preheader
    use_bbs: dict[BasicBlock, None] = {}
    for use in inst.uses:
        user = use.user
        assert isinstance(user, Instruction)
        user_bb = user.parent
        if user_bb is None or not loop.contains(user_bb):
            return False
        if type(user) is not PHINode:
            use_bbs[user_bb] = None
            continue
        phi_bb = user.get_incoming_block_for_use(use)
        if phi_bb is preheader:
            return False
        use_bbs[phi_bb] = None

    if len(use_bbs) > _option("max-uses-for-sinking", 30):
        return False
    percent = _option("sink-freq-percent-threshold", 90)
    sink_into = _find_bbs_to_sink_into(loop, use_bbs, cold_loop_bbs, dt, bfi, percent)
    if not sink_into:
        return False
    if len(sink_into) > 1 and any(bb not in loop_block_number for bb in sink_into):
        return False

    ordered = list(sink_into)
    if len(ordered) > 1:
        ordered.sort(key=loop_block_number.__getitem__)
    move_bb = ordered[0]
    mssa = mssau.get_memory_ssa()
    for target in ordered[1:]:
        clone = inst.clone()
        clone.set_name(inst.name)
        pos = target.first_insertion_point
        assert pos is not None
        clone.insert_before(pos)
        if mssa.get_memory_access(inst) is not None:
            access = mssau.create_memory_access_in_bb(clone, None, target, BEGINNING)
            if isinstance(access, MemoryDef):
                mssau.insert_def(access, True)
            elif isinstance(access, MemoryUse):
                mssau.insert_use(access, True)

        def in_target(use: Use, _bb: BasicBlock = target) -> bool:
            user = use.user
            return isinstance(user, Instruction) and user.parent is _bb and type(user) is not PHINode

        inst.replace_uses_with_if(clone, in_target)
        replace_dominated_uses_with(inst, clone, dt, target)
        NUM_LOOP_SUNK_CLONED.add()
    NUM_LOOP_SUNK.add()
    pos = move_bb.first_insertion_point
    assert pos is not None
    inst.move_before(pos)
    old_access = mssa.get_memory_access(inst)
    if isinstance(old_access, MemoryUseOrDef):
        mssau.move_to_place(old_access, move_bb, BEGINNING)
    return True


def sink_loop_invariant_instructions(
    loop: Loop, aa: AAResults, dt: DominatorTree, bfi: BlockFrequencyInfo, mssa: MemorySSA
) -> bool:
    """LLVM ``sinkLoopInvariantInstructions``: sink what can go from ``loop``'s preheader
    into its colder blocks; True when anything moved."""
    preheader = loop.preheader
    assert preheader is not None
    preheader_freq = bfi.frequency(preheader)
    if all(bfi.frequency(bb) > preheader_freq for bb in loop.blocks):
        return False

    mssau = MemorySSAUpdater(mssa)
    flags = SinkAndHoistLICMFlags(
        _option("licm-mssa-optimization-cap", 100), _option("licm-mssa-max-acc-promotion", 250), True, loop, mssa
    )
    cold_loop_bbs: list[BasicBlock] = []
    loop_block_number: dict[BasicBlock, int] = {}
    for bb in loop.blocks:
        if bfi.frequency(bb) < preheader_freq:
            cold_loop_bbs.append(bb)
            loop_block_number[bb] = len(cold_loop_bbs)
    cold_loop_bbs.sort(key=bfi.frequency)

    changed = False
    inst = preheader.instructions.last
    while inst is not None:
        prev = inst.prev_instruction
        if (
            type(inst) is not PHINode
            and can_sink_or_hoist_inst(inst, aa, dt, loop, mssau, False, flags, None)
            and _sink_instruction(loop, inst, cold_loop_bbs, loop_block_number, dt, bfi, mssau)
        ):
            changed = True
        inst = prev
    return changed


class LoopSinkPass(Pass[Function]):
    """``loop-sink`` (LLVM ``LoopSinkPass``)."""

    name: ClassVar[str] = "loop-sink"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if function_entry_count(unit) is None:
            return PreservedAnalyses.all()
        li = am.get_result(LoopAnalysis, unit)
        if not li.top_level_loops:
            return PreservedAnalyses.all()
        aa = am.get_result(AAManager, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        bfi = am.get_result(BlockFrequencyAnalysis, unit)
        mssa = am.get_result(MemorySSAAnalysis, unit).get_mssa()

        changed = False
        preorder = li.loops_in_preorder()
        while preorder:
            loop = preorder.pop()
            if loop.preheader is None:
                continue
            if sink_loop_invariant_instructions(loop, aa, dt, bfi, mssa):
                changed = True

        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        pa.preserve(MemorySSAAnalysis)
        if OPTIONS.get("verify-memoryssa") is not None and OPTIONS.value("verify-memoryssa"):
            mssa.verify_memory_ssa()
        return pa
