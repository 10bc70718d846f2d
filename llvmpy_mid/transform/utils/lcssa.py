"""``lcssa``: loop-closed SSA form (LLVM ``LCSSA``).

What: every value defined in a loop and used outside it is routed through a
phi in the loop's exit blocks (``<value>.lcssa``, one incoming entry per
predecessor), and the outside uses are rewritten to those phis; when the value
reaches its uses through several exits, an SSA update merges the exit phis
(new phis carry the value's own name, as LLVM's). ``#dbg_value`` records
outside the loop follow the rewrite. Loops are processed innermost first.

How: only values of the loop's own blocks that dominate an exit (walking the
dominator tree up from the exits, in LLVM's order, jumping over sub-loops) are
candidates.
:func:`form_lcssa_for_instructions` follows LLVM's worklist: for each
instruction with uses outside its innermost loop, insert phis at the top of
each exit block the definition dominates, rewrite uses in exit blocks and
(one phi) directly, otherwise through :class:`SSAUpdater`; phis that land in
another loop are queued again; unused new phis are deleted at the end. Uses
in unreachable blocks become ``poison``.

What it does not do: ScalarEvolution/MemorySSA bookkeeping; the CFG is never
changed, so all CFG analyses survive.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.metadata import ValueAsMetadata
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.ssa_updater import SSAUpdater

ExitCache = dict[Loop, list[BasicBlock]]


def _dbg_records_using(value: Value) -> list[object]:
    """The variable records whose location mentions ``value`` (LLVM ``findDbgValues``)."""
    md = ValueAsMetadata.get_if_exists(value)
    if md is None or not md._users:
        return []
    out: list[object] = []
    seen: set[int] = set()
    for holder in list(md._users):
        if getattr(holder, "is_variable_record", False):
            if id(holder) not in seen:
                seen.add(id(holder))
                out.append(holder)
        elif getattr(holder, "is_di_arg_list", False):
            users = holder._users  # type: ignore[attr-defined]
            for rec in list(users or ()):
                if getattr(rec, "is_variable_record", False) and id(rec) not in seen:
                    seen.add(id(rec))
                    out.append(rec)
    return out


def form_lcssa_for_instructions(
    worklist: list[Instruction],
    dt: DominatorTree,
    li: LoopInfo,
    exit_cache: ExitCache | None = None,
    phis_to_remove: list[PHINode] | None = None,
    inserted_phis: list[PHINode] | None = None,
) -> bool:
    """Rewrite the outside-loop uses of each instruction in ``worklist`` through
    exit-block phis (LLVM ``formLCSSAForInstructions``)."""
    if exit_cache is None:
        exit_cache = {}
    local_remove: dict[PHINode, None] = {}
    pred_cache: dict[BasicBlock, list[BasicBlock]] = {}
    changed = False
    while worklist:
        inst = worklist.pop()
        inst_bb = inst.parent
        assert inst_bb is not None
        loop = li.loop_for(inst_bb)
        assert loop is not None
        exits = exit_cache.get(loop)
        if exits is None:
            exits = exit_cache[loop] = loop.exit_blocks
        if not exits:
            continue
        to_rewrite: list[Use] = []
        for use in inst.use_list():
            user: Instruction = use.user  # type: ignore[assignment]
            user_bb = user.parent
            assert user_bb is not None
            if not dt.is_reachable(user_bb):
                use.set(PoisonValue.get(inst.type))
                continue
            if user.is_phi:
                user_bb = user.get_incoming_block_for_use(use)  # type: ignore[attr-defined]
            if user_bb is not inst_bb and not loop.contains(user_bb):
                to_rewrite.append(use)
        if not to_rewrite:
            continue
        dom_bb = inst_bb
        if inst.opcode == "invoke":
            dom_bb = inst.normal_dest  # type: ignore[attr-defined]
        added: list[PHINode] = []
        post_process: list[PHINode] = []
        local_inserted: list[PHINode] = []
        updater = SSAUpdater(local_inserted)
        updater.initialize(inst.type, inst.name)
        name = inst.name + ".lcssa"
        for exit_bb in exits:
            if not dt.dominates_block(dom_bb, exit_bb) or not dt.is_reachable(dom_bb):
                continue
            if updater.has_value_for_block(exit_bb):
                continue
            phi = PHINode(inst.type, name=name)
            phi.insert_into(exit_bb, exit_bb.instructions._first)
            changed = True
            phi.debug_loc = inst.debug_loc
            preds = pred_cache.get(exit_bb)
            if preds is None:
                preds = pred_cache[exit_bb] = exit_bb.predecessors
            for pred in preds:
                phi.add_incoming(inst, pred)
                if not loop.contains(pred):
                    to_rewrite.append(phi.operand_uses[phi.num_incoming - 1])
            added.append(phi)
            updater.add_available_value(exit_bb, phi)
            other = li.loop_for(exit_bb)
            if other is not None and not loop.contains(other):
                post_process.append(phi)
        exit_set = set(exits)
        for use in to_rewrite:
            user = use.user  # type: ignore[assignment]
            user_bb = user.parent
            assert user_bb is not None
            if user.is_phi:
                user_bb = user.get_incoming_block_for_use(use)  # type: ignore[attr-defined]
            first = user_bb.instructions._first
            if first is not None and first.is_phi and user_bb in exit_set:
                use.set(first)
                continue
            if len(added) == 1:
                use.set(added[0])
                continue
            updater.rewrite_use(use)
        for rec in _dbg_records_using(inst):
            host = rec.instruction  # type: ignore[attr-defined]
            if host is None:
                continue
            user_bb = host.parent
            if user_bb is None or user_bb is inst_bb or loop.contains(user_bb):
                continue
            v = added[0] if len(added) == 1 else updater.find_value_for_block(user_bb)
            if v is not None:
                rec.replace_variable_location_op(inst, v)  # type: ignore[attr-defined]
        for phi in local_inserted:
            parent = phi.parent
            assert parent is not None
            other = li.loop_for(parent)
            if other is not None and not loop.contains(other):
                post_process.append(phi)
            if inserted_phis is not None:
                inserted_phis.append(phi)
        for phi in post_process:
            if phi.has_uses:
                worklist.append(phi)
        for phi in added:
            if not phi.has_uses:
                local_remove[phi] = None
        changed = True
    if phis_to_remove is not None:
        phis_to_remove.extend(local_remove)
    else:
        for phi in local_remove:
            if not phi.has_uses:
                phi.erase_from_parent()
    return changed


def _blocks_dominating_exits(
    loop: Loop, dt: DominatorTree, li: LoopInfo, exits: list[BasicBlock]
) -> list[BasicBlock]:
    """The blocks of ``loop`` itself (not of a sub-loop) that dominate an exit, found by walking
    up the dominator tree from each exit block to the header (in LLVM's order): only their values
    can be used outside the loop and were not closed already by a sub-loop. A walk that enters a
    sub-loop jumps to that sub-loop's header (the dominator chain from a block of a loop to its
    header stays in the loop), so a deep nest costs each loop its own blocks, not its sub-loops'."""
    found: dict[BasicBlock, None] = {}
    work = list(exits)
    header = loop.header
    in_loop = loop.block_set
    get_idom = dt.idom
    loop_for = li.loop_for
    while work:
        bb = work.pop()
        if bb is header:
            continue
        idom = get_idom(bb)
        if idom is None or idom not in in_loop:
            continue
        inner = loop_for(idom)
        if inner is not loop and inner is not None:
            while inner.parent_loop is not loop and inner.parent_loop is not None:
                inner = inner.parent_loop
            idom = inner.header
        if idom not in found:
            found[idom] = None
            work.append(idom)
    return [bb for bb in found if loop_for(bb) is loop]


def _form_lcssa_impl(loop: Loop, dt: DominatorTree, li: LoopInfo, exit_cache: ExitCache) -> bool:
    exits = exit_cache.get(loop)
    if exits is None:
        exits = exit_cache[loop] = loop.exit_blocks
    if not exits:
        return False
    worklist: list[Instruction] = []
    for bb in _blocks_dominating_exits(loop, dt, li, exits):
        for inst in bb.instructions:
            head = inst._use_head
            if head is None:
                continue
            if head._next is None:
                user: Instruction = head.user  # type: ignore[assignment]
                if user.parent is bb and not user.is_phi:
                    continue
            if inst.type.type_id is TypeID.TOKEN:
                continue
            worklist.append(inst)
    return form_lcssa_for_instructions(worklist, dt, li, exit_cache)


def form_lcssa(loop: Loop, dt: DominatorTree, li: LoopInfo) -> bool:
    """Put ``loop`` (not its sub-loops, which must already be) into LCSSA form."""
    return _form_lcssa_impl(loop, dt, li, {})


def _form_recursively(loop: Loop, dt: DominatorTree, li: LoopInfo, exit_cache: ExitCache) -> bool:
    order: list[Loop] = []
    stack: list[tuple[Loop, int]] = [(loop, 0)]
    while stack:
        cur, i = stack.pop()
        if i < len(cur.sub_loops):
            stack.append((cur, i + 1))
            stack.append((cur.sub_loops[i], 0))
        else:
            order.append(cur)
    changed = False
    for cur in order:
        changed |= _form_lcssa_impl(cur, dt, li, exit_cache)
    return changed


def form_lcssa_recursively(loop: Loop, dt: DominatorTree, li: LoopInfo) -> bool:
    """LCSSA for ``loop`` and every loop nested in it, innermost first."""
    return _form_recursively(loop, dt, li, {})


class LCSSAPass(Pass[Function]):
    """``lcssa``: loop-closed SSA form for every loop of the function."""

    name: ClassVar[str] = "lcssa"

    @property
    def log_name(self) -> str:
        return "LCSSAPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        changed = False
        cache: ExitCache = {}
        for loop in li.top_level_loops:
            changed |= _form_recursively(loop, dt, li, cache)
        if not changed:
            return PreservedAnalyses.all()
        from llvmpy_mid.analysis.block_frequency import BranchProbabilityAnalysis
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis

        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        pa.preserve(BranchProbabilityAnalysis)  # the terminators are untouched
        pa.preserve(MemorySSAAnalysis)  # new phis touch no memory
        _keep_scalar_evolution(unit, am, pa)
        return pa


def _keep_scalar_evolution(unit: Function, am: AnalysisManager[Function], pa: PreservedAnalyses) -> None:
    """ScalarEvolution is kept, as LLVM's pass keeps it: a cached one forgets what it knew."""
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolutionAnalysis

    se = am.get_cached_result(ScalarEvolutionAnalysis, unit)
    if se is not None:
        se.forget_all_loops()
    pa.preserve(ScalarEvolutionAnalysis)


__all__ = ["LCSSAPass", "form_lcssa", "form_lcssa_for_instructions", "form_lcssa_recursively"]
