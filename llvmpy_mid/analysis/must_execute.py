"""Loop safety facts: which loop instructions run whenever the loop is entered (LLVM 19.1.7
``llvm/lib/Analysis/MustExecute.cpp``: ``LoopSafetyInfo``, ``SimpleLoopSafetyInfo``,
``ICFLoopSafetyInfo``; the funclet colouring of ``llvm/lib/IR/EHPersonalities.cpp``).

What: a safety info is computed for one loop (:meth:`LoopSafetyInfo.compute_loop_safety_info`)
and then answers ``is_guaranteed_to_execute(inst, dt, loop)``: ``inst`` runs on the first
iteration of every entry into the loop. Both flavours check that every path from the header
reaches the instruction's block (``all_loop_paths_lead_to_block``: no latch, no block that may
throw and no exit that may be taken on the first iteration before it). The simple flavour
only knows "some block may throw" (and treats the header's first instruction specially); the
ICF flavour (:class:`ICFLoopSafetyInfo`, used by LICM) keeps, per block, the first instruction
that may not pass control on and the first one that may write memory
(:mod:`~llvmpy_mid.analysis.instruction_precedence_tracking`), which a client editing the
loop keeps informed through ``insert_instruction_to`` / ``remove_instruction``.

In a function with a scoped (funclet) EH personality the blocks' funclet colours are computed
as LLVM's ``colorEHFunclets``.

What it does not do: ``isGuaranteedToExecuteForEveryIteration``, ``MustBeExecutedContextExplorer``
and the ``print<must-execute>`` printers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.instruction_precedence_tracking import ImplicitControlFlowTracking, MemoryWriteTracking
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.ir.instruction import Instruction

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.function import Function

__all__ = [
    "ICFLoopSafetyInfo",
    "LoopSafetyInfo",
    "SimpleLoopSafetyInfo",
    "color_eh_funclets",
    "is_scoped_eh_personality_function",
]

_SCOPED_PERSONALITIES = frozenset(
    ("_except_handler3", "_except_handler4", "__C_specific_handler", "__CxxFrameHandler3", "ProcessCLRException",
     "__gxx_wasm_personality_v0")
)


def is_scoped_eh_personality_function(fn: Function) -> bool:
    """``fn``'s personality is a funclet-based one (LLVM ``isScopedEHPersonality(classifyEHPersonality(P))``)."""
    pers = getattr(fn, "personality", None)
    if pers is None:
        return False
    strip = getattr(pers, "strip_pointer_casts", None)
    target = strip() if strip is not None else pers
    from llvmpy_mid.ir.function import Function as _Function

    return isinstance(target, _Function) and target.name in _SCOPED_PERSONALITIES


def color_eh_funclets(fn: Function) -> dict[BasicBlock, list[BasicBlock]]:
    """Each block's funclet colours: the funclet entry blocks (or the function's entry block)
    that must contain it (LLVM ``colorEHFunclets``)."""
    entry = fn.entry_block
    colors: dict[BasicBlock, list[BasicBlock]] = {}
    worklist: list[tuple[BasicBlock, BasicBlock]] = [(entry, entry)]
    while worklist:
        visiting, color = worklist.pop()
        head = visiting.first_non_phi
        if head is not None and head.is_eh_pad:
            color = visiting
        have = colors.setdefault(visiting, [])
        if color in have:
            continue
        have.append(color)
        succ_color = color
        term = visiting.terminator
        if term is not None and term.opcode == "catchret":
            catch_pad = term.get_operand(0)
            parent_pad = catch_pad.get_operand(0) if isinstance(catch_pad, Instruction) else None
            if parent_pad is None or not parent_pad.is_instruction:
                succ_color = entry
            else:
                assert isinstance(parent_pad, Instruction) and parent_pad.parent is not None
                succ_color = parent_pad.parent
        for succ in visiting.successors:
            worklist.append((succ, succ_color))
    return colors


def _collect_transitive_predecessors(loop: Loop, bb: BasicBlock) -> set[BasicBlock]:
    """The loop blocks from which ``bb`` is reached without passing the header again."""
    preds: set[BasicBlock] = set()
    if bb is loop.header:
        return preds
    worklist: list[BasicBlock] = []
    for pred in bb.predecessors:
        preds.add(pred)
        worklist.append(pred)
    header = loop.header
    while worklist:
        pred = worklist.pop()
        if pred is header:
            continue
        for pp in pred.predecessors:
            if pp not in preds:
                preds.add(pp)
                worklist.append(pp)
    return preds


def _can_prove_not_taken_first_iteration(exit_block: BasicBlock, dt: DominatorTree, loop: Loop) -> bool:
    """The edge into the exit ``exit_block`` is not taken on the first iteration (LLVM
    ``CanProveNotTakenFirstIteration``)."""
    from llvmpy_mid.ir.constants import Constant, ConstantInt
    from llvmpy_mid.ir.instructions.other import PHINode

    cond_exit = exit_block.single_predecessor
    if cond_exit is None:
        return False
    bi = cond_exit.terminator
    if bi is None or bi.opcode != "br" or bi.num_operands != 3:
        return False
    cond = bi.get_operand(0)
    if isinstance(cond, ConstantInt):
        return bi.get_successor(1 if cond.value != 0 else 0) is exit_block
    if cond.opcode not in ("icmp", "fcmp") if cond.is_instruction else True:  # type: ignore[attr-defined]
        return False
    lhs = cond.get_operand(0)  # type: ignore[attr-defined]
    rhs = cond.get_operand(1)  # type: ignore[attr-defined]
    if not isinstance(lhs, PHINode) or lhs.parent is not loop.header:
        return False
    pre = loop.preheader
    if pre is None:
        return False
    if lhs.basic_block_index(pre) < 0:
        return False
    iv_start = lhs.incoming_value_for_block(pre)
    from llvmpy_mid.analysis.instruction_simplify import simplify_cmp_inst
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    fn = exit_block.parent
    module = fn.parent if fn is not None else None
    if module is None:
        return False
    q = SimplifyQuery(module.data_layout, None, dt, None).get_with_instruction(bi)
    simple = simplify_cmp_inst(cond.predicate, iv_start, rhs, q)  # type: ignore[attr-defined]
    if not isinstance(simple, Constant):
        return False
    if exit_block is bi.get_successor(0):
        return bool(simple.is_zero_value)
    return bool(simple.is_all_ones_value)


class LoopSafetyInfo:
    """What the two flavours share: funclet colours and ``all_loop_paths_lead_to_block``."""

    __slots__ = ("block_colors",)

    def __init__(self) -> None:
        self.block_colors: dict[BasicBlock, list[BasicBlock]] = {}

    def get_block_colors(self) -> dict[BasicBlock, list[BasicBlock]]:
        return self.block_colors

    def copy_colors(self, new: BasicBlock, old: BasicBlock) -> None:
        """``new`` gets ``old``'s colours (a block split off ``old``)."""
        self.block_colors[new] = list(self.block_colors.get(old, []))

    def compute_block_colors(self, loop: Loop) -> None:
        fn = loop.header.parent
        if fn is not None and is_scoped_eh_personality_function(fn):
            self.block_colors = color_eh_funclets(fn)

    def block_may_throw(self, bb: BasicBlock) -> bool:
        raise NotImplementedError

    def any_block_may_throw(self) -> bool:
        raise NotImplementedError

    def compute_loop_safety_info(self, loop: Loop) -> None:
        raise NotImplementedError

    def is_guaranteed_to_execute(self, inst: Instruction, dt: DominatorTree, loop: Loop) -> bool:
        raise NotImplementedError

    def all_loop_paths_lead_to_block(self, loop: Loop, bb: BasicBlock, dt: DominatorTree) -> bool:
        """Every path from the header, on the first iteration, reaches ``bb`` (LLVM
        ``allLoopPathsLeadToBlock``)."""
        if bb is loop.header:
            return True
        preds = _collect_transitive_predecessors(loop, bb)
        for p in loop.header.predecessors:
            if p in preds:
                return False
        checked: set[BasicBlock] = set()
        for pred in preds:
            if self.block_may_throw(pred):
                return False
            if dt.dominates_block(bb, pred):
                continue
            for succ in pred.successors:
                if succ in checked:
                    continue
                checked.add(succ)
                if succ is bb or succ in preds:
                    continue
                if loop.contains(succ) or not _can_prove_not_taken_first_iteration(succ, dt, loop):
                    return False
        return True


class SimpleLoopSafetyInfo(LoopSafetyInfo):
    """LLVM ``SimpleLoopSafetyInfo``: one "may throw" bit for the loop and one for its header."""

    __slots__ = ("may_throw", "header_may_throw")

    def __init__(self) -> None:
        super().__init__()
        self.may_throw = False
        self.header_may_throw = False

    def block_may_throw(self, bb: BasicBlock) -> bool:
        return self.may_throw

    def any_block_may_throw(self) -> bool:
        return self.may_throw

    def compute_loop_safety_info(self, loop: Loop) -> None:
        self.header_may_throw = not _block_transfers_execution(loop.header)
        self.may_throw = self.header_may_throw
        for bb in loop.blocks[1:]:
            self.may_throw = self.may_throw or not _block_transfers_execution(bb)
            if self.may_throw:
                break
        self.compute_block_colors(loop)

    def is_guaranteed_to_execute(self, inst: Instruction, dt: DominatorTree, loop: Loop) -> bool:
        bb = inst.parent
        assert bb is not None
        if bb is loop.header:
            if not self.header_may_throw:
                return True
            from llvmpy_mid.transform.utils.basic_block_utils import first_non_phi_or_dbg

            return first_non_phi_or_dbg(bb) is inst
        return self.all_loop_paths_lead_to_block(loop, bb, dt)


def _block_transfers_execution(bb: BasicBlock) -> bool:
    """LLVM ``isGuaranteedToTransferExecutionToSuccessor(const BasicBlock *)``: every
    instruction but the terminator passes control on."""
    for inst in bb.instructions:
        if inst.is_terminator:
            break
        if not is_guaranteed_to_transfer_execution_to_successor(inst):
            return False
    return True


class ICFLoopSafetyInfo(LoopSafetyInfo):
    """LLVM ``ICFLoopSafetyInfo``: per-block implicit control flow and memory writes, kept
    current by the client."""

    __slots__ = ("may_throw", "icf", "mw")

    def __init__(self) -> None:
        super().__init__()
        self.may_throw = False
        self.icf = ImplicitControlFlowTracking()
        self.mw = MemoryWriteTracking()

    def block_may_throw(self, bb: BasicBlock) -> bool:
        return self.icf.has_icf(bb)

    def any_block_may_throw(self) -> bool:
        return self.may_throw

    def compute_loop_safety_info(self, loop: Loop) -> None:
        self.icf.clear()
        self.mw.clear()
        self.may_throw = False
        for bb in loop.blocks:
            if self.icf.has_icf(bb):
                self.may_throw = True
                break
        self.compute_block_colors(loop)

    def insert_instruction_to(self, inst: Instruction, bb: BasicBlock) -> None:
        """``inst`` is about to be placed in ``bb``."""
        self.icf.insert_instruction_to(inst, bb)
        self.mw.insert_instruction_to(inst, bb)

    def remove_instruction(self, inst: Instruction) -> None:
        """``inst`` is about to leave its block (still in it)."""
        self.icf.remove_instruction(inst)
        self.mw.remove_instruction(inst)

    def is_guaranteed_to_execute(self, inst: Instruction, dt: DominatorTree, loop: Loop) -> bool:
        bb = inst.parent
        assert bb is not None
        return not self.icf.is_dominated_by_icfi_from_same_block(inst) and self.all_loop_paths_lead_to_block(
            loop, bb, dt
        )

    def does_not_write_memory_before_block(self, bb: BasicBlock, loop: Loop) -> bool:
        """No instruction on a path from the header to ``bb`` may write memory."""
        if bb is loop.header:
            return True
        for pred in _collect_transitive_predecessors(loop, bb):
            if self.mw.has_special_instructions(pred):
                return False
        return True

    def does_not_write_memory_before(self, inst: Instruction, loop: Loop) -> bool:
        """No instruction before ``inst`` in the loop (first iteration) may write memory."""
        bb = inst.parent
        assert bb is not None
        return not self.mw.is_preceded_by_special_instruction(inst) and self.does_not_write_memory_before_block(
            bb, loop
        )
