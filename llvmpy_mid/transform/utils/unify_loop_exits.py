"""``unify-loop-exits``: gives every natural loop a single exit block (LLVM
``UnifyLoopExitsPass``, Transforms/Utils/UnifyLoopExits.cpp).

What: for each loop (outer loops first) whose exiting blocks branch to two or
more blocks outside it, the exit edges are rerouted through a chain of new
``loop.exit.guard`` blocks (a control-flow hub, see
:func:`llvmpy_mid.transform.utils.basic_block_utils.create_control_flow_hub`) that
branch to the old exits on ``Guard.<exit>`` flags (or on an i32 index compared
per exit, ``merged.bb.idx``, when there are more exits than
``-max-booleans-in-control-flow-hub``, 32 by default). A value defined in the
loop and used outside it (other than in the hub) is then used through a
``<name>.moved`` phi in the first guard block, poison on paths its definition
does not dominate. The guard blocks join the parent loop.

How: LLVM 19.1.7's algorithm and naming; the dominator tree is updated through
the DomTreeUpdater, LoopInfo in place, and both are declared preserved.

What it does not do: terminators other than ``br`` (run ``lower-switch`` first, as
LLVM requires).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import create_control_flow_hub

MAX_BOOLEANS_OPTION = "max-booleans-in-control-flow-hub"
if OPTIONS.get(MAX_BOOLEANS_OPTION) is None:
    declare_option(
        MAX_BOOLEANS_OPTION,
        "uint",
        32,
        "Set the maximum number of outgoing blocks for using a boolean value to record the exiting block in "
        "CreateControlFlowHub.",
        "unify-loop-exits",
    )


def _restore_ssa(dt: DominatorTree, loop: Loop, incoming: list[BasicBlock], exit_bb: BasicBlock) -> None:
    """Uses outside ``loop`` of values defined in it go through ``.moved`` phis in ``exit_bb``."""
    external: dict[Instruction, list[Instruction]] = {}
    in_loop = loop.block_set
    for bb in loop.blocks:
        for inst in bb.instructions:
            for use in inst.uses:
                user: Instruction = use.user  # type: ignore[assignment]
                ubb = user.parent
                if ubb is exit_bb or ubb in in_loop:
                    continue
                external.setdefault(inst, []).append(user)
    for defn, users in external.items():
        phi = PHINode(defn.type, name=defn.name + ".moved")
        phi.insert_into(exit_bb, exit_bb.instructions._first)
        for inc in incoming:
            if defn.parent is inc or dt.dominates(defn, inc):
                phi.add_incoming(defn, inc)
            else:
                phi.add_incoming(PoisonValue.get(defn.type), inc)
        for user in users:
            user.replace_uses_of_with(defn, phi)


def unify_loop_exits(dt: DominatorTree, li: LoopInfo, loop: Loop, max_booleans: int | None = 32) -> bool:
    """Route ``loop``'s exits through one hub; True if it had two or more exit blocks."""
    exiting: dict[BasicBlock, None] = {}
    exits: dict[BasicBlock, None] = {}
    for bb in loop.exiting_blocks:
        exiting[bb] = None
        for succ in bb.successors:
            sl = li.loop_for(succ)
            if sl is loop or (sl is not None and loop.contains(sl)):
                continue
            exits[succ] = None
    if len(exits) <= 1:
        return False
    guards: list[BasicBlock] = []
    dtu = DomTreeUpdater(dt, strategy="eager")
    incoming = list(exiting)
    exit_bb = create_control_flow_hub(dtu, guards, incoming, list(exits), "loop.exit", max_booleans)
    _restore_ssa(dt, loop, incoming, exit_bb)
    parent = loop.parent_loop
    if parent is not None:
        for g in guards:
            li.add_block_to_loop(g, parent)
    return True


class UnifyLoopExitsPass(Pass[Function]):
    """``unify-loop-exits``: one exit block per loop."""

    name: ClassVar[str] = "unify-loop-exits"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "UnifyLoopExitsPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        max_booleans = int(OPTIONS.value(MAX_BOOLEANS_OPTION))
        changed = False
        for loop in li.loops_in_preorder():
            changed |= unify_loop_exits(dt, li, loop, max_booleans)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(LoopAnalysis)
        pa.preserve(DominatorTreeAnalysis)
        return pa


__all__ = ["UnifyLoopExitsPass", "unify_loop_exits"]
