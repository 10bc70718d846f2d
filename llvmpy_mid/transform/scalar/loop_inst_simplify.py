"""``loop-instsimplify``: InstSimplify over the blocks of one loop (LLVM 19.1.7
``lib/Transforms/Scalar/LoopInstSimplify.cpp``).

What: the loop's blocks are visited in reverse post-order from the header
(:func:`~llvmpy_mid.analysis.loop_iterator.loop_blocks_rpo`), so a definition is seen before its
non-phi uses. Each used instruction that ``simplify_instruction`` reduces to another value has
its uses rewritten one by one (a replacement that would break LCSSA form is skipped; a use in
unreachable code is rewritten but not followed); unused trivially dead instructions are
collected and deleted, with their dead operands, after each round. A round only revisits the
instructions whose operands changed; a new round is needed only when a phi already visited in
this round got a new operand. Under ``loop-mssa`` the function's MemorySSA is kept up to date
(an access replaced by the replacement's access, deleted instructions' accesses removed) and
checked after each round with ``-verify-memoryssa``.

The pass keeps the CFG, the loop analyses and, under ``loop-mssa``, MemorySSA.
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.loop_iterator import loop_blocks_rpo
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, recursively_delete_trivially_dead_instructions

__all__ = ["LoopInstSimplifyPass", "simplify_loop_inst"]

NUM_SIMPLIFIED = Statistic("loop-instsimplify", "NumSimplified", "Number of redundant instructions simplified")


def simplify_loop_inst(loop: Loop, dt: Any, li: Any, ac: Any, tli: Any, mssa: Any = None) -> bool:
    """Simplify the instructions of ``loop`` to a fixpoint; True when anything changed (LLVM
    ``simplifyLoopInst``)."""
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater

    fn = loop.header.parent
    module = fn.parent if fn is not None else None
    assert module is not None
    sq = SimplifyQuery(module.data_layout, tli, dt, ac)
    mssau = MemorySSAUpdater(mssa) if mssa is not None else None
    verify = mssa is not None and bool(OPTIONS.value("verify-memoryssa"))
    to_simplify: set[Instruction] = set()
    next_round: set[Instruction] = set()
    visited_phis: set[PHINode] = set()
    dead: list[Value | None] = []
    rpo = loop_blocks_rpo(loop)
    changed = False
    while True:
        if verify:
            mssa.verify_memory_ssa()
        first_round = not to_simplify
        for bb in rpo:
            for inst in bb.instructions:
                if isinstance(inst, PHINode):
                    visited_phis.add(inst)
                if inst._use_head is None:
                    if is_instruction_trivially_dead(inst, tli):
                        dead.append(inst)
                    continue
                if not first_round and inst not in to_simplify:
                    continue
                v = simplify_instruction(inst, sq.get_with_instruction(inst))
                if v is None or not li.replacement_preserves_lcssa_form(inst, v):
                    continue
                for use in list(inst.uses):
                    user = use.user
                    use.set(v)
                    assert isinstance(user, Instruction)
                    if not dt.is_reachable(user.parent):
                        continue
                    if isinstance(user, PHINode) and user in visited_phis:
                        next_round.add(user)
                        continue
                    if not first_round and loop.contains(user):
                        to_simplify.add(user)
                if mssau is not None and isinstance(v, Instruction):
                    access = mssa.get_memory_access(inst)
                    if access is not None:
                        replacement = mssa.get_memory_access(v)
                        if replacement is not None:
                            access.replace_all_uses_with(replacement)
                if is_instruction_trivially_dead(inst, tli):
                    dead.append(inst)
                NUM_SIMPLIFIED.add()
                changed = True
        if dead:
            changed = True
            about = _remove_access(mssau) if mssau is not None else None
            recursively_delete_trivially_dead_instructions(dead, tli, about)
        if verify:
            mssa.verify_memory_ssa()
        if not next_round:
            break
        to_simplify, next_round = next_round, set()
        visited_phis.clear()
        dead = []
    return changed


def _remove_access(mssau: Any) -> Any:
    def remove(v: Value) -> None:
        if isinstance(v, Instruction):
            mssau.remove_memory_access(v)

    return remove


class LoopInstSimplifyPass(Pass[Loop]):
    """``loop-instsimplify`` (LLVM ``LoopInstSimplifyPass``)."""

    name: ClassVar[str] = "loop-instsimplify"

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.passes.loop_pass_manager import loop_pass_preserved_analyses

        ar = am.standard  # type: ignore[attr-defined]
        if not simplify_loop_inst(unit, ar.dt, ar.li, ar.ac, ar.tli, ar.mssa):
            return PreservedAnalyses.all()
        pa = loop_pass_preserved_analyses()
        pa.preserve_set(CFGAnalyses)
        if ar.mssa is not None:
            pa.preserve(MemorySSAAnalysis)
        return pa
