"""``reassociate``: reassociation of commutative expressions (LLVM ``ReassociatePass``,
lib/Transforms/Scalar/Reassociate.cpp) -- in progress (issue 15).

What is built so far is the pass's driver, without which nothing else can run:
- the blocks are visited in reverse post-order from the entry (unreachable blocks are
  never touched, as in LLVM);
- the instructions that may depend on something other than their operands (memory,
  side effects, not speculatable) get their fixed rank, in order, per block -- the part
  of LLVM's ``BuildRankMap`` that decides which erased operands are looked at again;
- each trivially dead instruction met on the walk is erased (its debug records are
  salvaged), and those of its instruction operands that are ranked are queued, after
  climbing to the root of their single-use same-opcode chain (LLVM ``EraseInst``);
- after each block the queue is drained: dead entries are erased, with the operands
  they leave dead (LLVM's ``ToRedo``/``RedoInsts`` loops).

Not done yet (the pass leaves such IR unchanged, which is always correct):
``OptimizeInst`` -- the ranks of movable instructions, ``LinearizeExprTree``,
``OptimizeExpression`` (``OptimizeAdd``/``OptimizeMul``/``OptimizeXor``/
``OptimizeAndOrXor``), ``RewriteExprTree``, ``NegateValue``/``BreakUpSubtract``,
``ConvertShiftToMul``, ``canonicalizeNegFPConstants`` and the pair map.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order
from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, salvage_debug_info

__all__ = ["ReassociatePass", "reassociate"]


def _may_have_non_def_use_dependency(inst: Instruction) -> bool:
    """Whether ``inst`` may depend on more than its operands (LLVM
    ``mayHaveNonDefUseDependency``): it touches memory or cannot be speculated."""
    if inst.may_read_from_memory() or inst.may_write_to_memory():
        return True
    return not is_safe_to_speculatively_execute(inst)


class _Reassociator:
    """The state of one run over a function: ranks and the queue of instructions to
    look at again (an insertion-ordered dict used as LLVM's ``SetVector``)."""

    __slots__ = ("rank", "redo", "changed")

    def __init__(self) -> None:
        self.rank: dict[Instruction, int] = {}
        self.redo: dict[Instruction, None] = {}
        self.changed = False

    def build_rank_map(self, fn: Function, blocks: list[object]) -> None:
        """Fixed ranks for the unmovable instructions, block by block in RPO (the part
        of LLVM ``BuildRankMap`` that the driver needs)."""
        block_rank = len(fn.args) + 2
        for bb in blocks:
            block_rank += 1
            inst_rank = block_rank << 16
            for inst in bb.instructions:  # type: ignore[attr-defined]
                if _may_have_non_def_use_dependency(inst):
                    inst_rank += 1
                    self.rank[inst] = inst_rank

    def erase_inst(self, inst: Instruction) -> None:
        """Erase the dead ``inst`` and queue the roots of its ranked operands (LLVM
        ``EraseInst``)."""
        ops = [op for op in inst.operands]
        self.rank.pop(inst, None)
        self.redo.pop(inst, None)
        salvage_debug_info(inst)
        inst.erase_from_parent()
        visited: set[Instruction] = set()
        for v in ops:
            if not isinstance(v, Instruction):
                continue
            op = v
            opcode = op.opcode
            while op.has_one_use:
                user = next(iter(op.users))
                if not isinstance(user, Instruction) or user.opcode != opcode or op in visited:
                    break
                visited.add(op)
                op = user
            if op in self.rank:
                self.redo[op] = None
        self.changed = True

    def recursively_erase_dead(self, inst: Instruction, to_redo: dict[Instruction, None]) -> None:
        """Erase ``inst`` and every operand it leaves dead, without recursion (LLVM
        ``RecursivelyEraseDeadInsts``)."""
        work = [inst]
        while work:
            i = work.pop()
            ops = [op for op in i.operands]
            self.rank.pop(i, None)
            self.redo.pop(i, None)
            salvage_debug_info(i)
            i.erase_from_parent()
            for v in ops:
                if isinstance(v, Instruction) and v._use_head is None:
                    if is_instruction_trivially_dead(v) and v not in to_redo:
                        to_redo[v] = None
            while to_redo:
                nxt, _ = to_redo.popitem()
                if is_instruction_trivially_dead(nxt):
                    work.append(nxt)
                    break

    def run(self, fn: Function) -> bool:
        blocks: list[object] = list(reverse_post_order(fn.entry_block))
        self.build_rank_map(fn, blocks)
        for bb in blocks:
            node = bb.instructions._first  # type: ignore[attr-defined]
            while node is not None:
                nxt = node._next
                if is_instruction_trivially_dead(node):
                    self.erase_inst(node)
                node = nxt
            to_redo = dict(self.redo)
            while to_redo:
                inst, _ = to_redo.popitem()
                if inst.parent is not None and is_instruction_trivially_dead(inst):
                    self.recursively_erase_dead(inst, to_redo)
                    self.changed = True
            while self.redo:
                inst = next(iter(self.redo))
                del self.redo[inst]
                if inst.parent is not None and is_instruction_trivially_dead(inst):
                    self.erase_inst(inst)
        return self.changed


def reassociate(fn: Function) -> bool:
    """Run the reassociate driver over ``fn``; True if the IR changed."""
    if fn.is_declaration:
        return False
    return _Reassociator().run(fn)


class ReassociatePass(Pass[Function]):
    """``reassociate``: reorders commutative expressions by rank (in progress: for now
    only the driver's dead-instruction cleanup)."""

    name: ClassVar[str] = "reassociate"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "ReassociatePass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if not reassociate(unit):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa
