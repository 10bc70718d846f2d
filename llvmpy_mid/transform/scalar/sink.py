"""``sink``: code sinking (LLVM ``SinkingPass``, lib/Transforms/Scalar/Sink.cpp).

What: an instruction whose users all sit below its block is moved down into the
nearest block that dominates all those users, so paths that do not need its result
do not compute it.

How: each reachable block is walked bottom-up, remembering the instructions seen so
far that may write memory (the "stores"). An instruction is a candidate when it is
not a static alloca, does not write memory, is not a terminator, phi or EH pad, may
not throw, will return, is not a convergent call, and (for loads and calls) no
remembered store may modify what it reads (asked of AA). Its target is the nearest
common dominator of its users' blocks (a phi use counts in the incoming block;
users in unreachable blocks are ignored); the instruction's block must dominate it.
Walking up the dominator tree from there, the first acceptable block wins
(``IsAcceptableTarget``): never an EH-pad block; a block whose unique predecessor
is not the instruction's block is only taken when the instruction reads no memory
(or carries ``!invariant.load``), the instruction's block dominates it, and it is
not inside a loop other than the instruction's own. The instruction goes to the
target's first insertion point. The walk over all blocks repeats until nothing
moves. Analyses are asked for in LLVM's order (domtree, loops, AA); the CFG is
preserved.

What it does not do: nothing of Sink.cpp is left out (LLVM itself does not split
critical edges or sink within a block).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults, is_mod_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.loop_info import LoopAnalysis, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call

__all__ = ["SinkingPass", "iteratively_sink_instructions"]

NUM_SUNK = Statistic("sink", "NumSunk", "Number of instructions sunk")
NUM_SINK_ITER = Statistic("sink", "NumSinkIter", "Number of sinking iterations")


def _is_safe_to_move(inst: Instruction, aa: AAResults, stores: dict[Instruction, None]) -> bool:
    """LLVM ``isSafeToMove``: a writer is remembered (and never moves)."""
    if inst.may_write_to_memory():
        stores[inst] = None
        return False
    if type(inst) is LoadInst:
        loc = MemoryLocation.get(inst)
        for s in stores:
            if is_mod_set(aa.get_mod_ref_info(s, loc)):
                return False
    if inst.is_terminator or type(inst) is PHINode or inst.is_eh_pad or inst.may_throw() or not inst.will_return():
        return False
    if isinstance(inst, CallBase):
        if inst.is_convergent:
            return False
        for s in stores:
            if is_mod_set(aa.get_mod_ref_info_call(s, inst)):
                return False
    return True


def _is_eh_pad_block(bb: BasicBlock) -> bool:
    first = bb.first_non_phi
    return first is not None and first.is_eh_pad


def _is_acceptable_target(inst: Instruction, succ: BasicBlock, dt: DominatorTree, li: LoopInfo) -> bool:
    """LLVM ``IsAcceptableTarget``."""
    if _is_eh_pad_block(succ):
        return False
    bb = inst.parent
    assert bb is not None
    if succ.unique_predecessor is not bb:
        if inst.may_read_from_memory() and inst.get_metadata("invariant.load") is None:
            return False
        if not dt.dominates(bb, succ):
            return False
        succ_loop = li.loop_for(succ)
        if succ_loop is not None and succ_loop is not li.loop_for(bb):
            return False
    return True


def _sink_instruction(inst: Instruction, stores: dict[Instruction, None], dt: DominatorTree, li: LoopInfo, aa: AAResults) -> bool:
    """LLVM ``SinkInstruction``: move ``inst`` down if it can go; True if it moved."""
    if type(inst) is AllocaInst and inst.is_static_alloca:
        return False
    if not _is_safe_to_move(inst, aa, stores):
        return False
    bb = inst.parent
    assert bb is not None
    target: BasicBlock | None = None
    for use in inst.uses:
        user = use.user
        assert isinstance(user, Instruction)
        use_block = user.parent
        if type(user) is PHINode:
            use_block = user.get_incoming_block_for_use(use)
        assert use_block is not None
        if not dt.is_reachable(use_block):
            continue
        if target is not None:
            target = dt.nearest_common_dominator(target, use_block)
            assert target is not None
        else:
            target = use_block
        if not dt.dominates(bb, target):
            return False
    if target is None:
        return False
    while target is not bb and not _is_acceptable_target(inst, target, dt, li):
        up = dt.idom(target)
        assert up is not None
        target = up
    if target is bb:
        return False
    pos = target.first_insertion_point
    assert pos is not None
    inst.move_before(pos)
    return True


def _process_block(bb: BasicBlock, dt: DominatorTree, li: LoopInfo, aa: AAResults) -> bool:
    """Walk ``bb`` bottom-up, sinking what can go (LLVM ``ProcessBlock``)."""
    if not dt.is_reachable(bb):
        return False
    changed = False
    stores: dict[Instruction, None] = {}
    inst = bb.instructions.last
    while inst is not None:
        prev = inst.prev_instruction
        if not is_debug_or_pseudo_probe_call(inst) and _sink_instruction(inst, stores, dt, li, aa):
            NUM_SUNK.add()
            changed = True
        inst = prev
    return changed


def iteratively_sink_instructions(fn: Function, dt: DominatorTree, li: LoopInfo, aa: AAResults) -> bool:
    """Sink until nothing moves; True if anything did."""
    ever = False
    while True:
        changed = False
        for bb in list(fn.blocks):
            changed |= _process_block(bb, dt, li, aa)
        NUM_SINK_ITER.add()
        ever |= changed
        if not changed:
            return ever


class SinkingPass(Pass[Function]):
    """``sink``: moves instructions into successor blocks that need them."""

    name: ClassVar[str] = "sink"

    @property
    def log_name(self) -> str:
        return "SinkingPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        dt = am.get_result(DominatorTreeAnalysis, unit)
        li = am.get_result(LoopAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        if not iteratively_sink_instructions(unit, dt, li, aa):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa
