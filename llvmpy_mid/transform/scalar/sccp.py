"""``sccp``: sparse conditional constant propagation on one function (LLVM ``SCCPPass``).

Follows LLVM 19.1.7's ``lib/Transforms/Scalar/SCCP.cpp`` over the shared solver
(``transform/utils/sccp_solver.py``): the entry block is executable, every
argument overdefined; the solver runs until no instruction is left unknown
(``resolvedUndefsIn``). Then, block by block in function order, values found
constant replace their uses (the instruction is erased when that is safe),
``sext``/``sitofp``/``ashr``/``sdiv``/``srem`` on operands proven non-negative
become their unsigned forms, and ``nuw``/``nsw``/``nneg`` flags are added where
the operand ranges prove them. Blocks never found executable lose their code
(``changeToUnreachable``), edges never found feasible are removed from
``br``/``switch``/``indirectbr`` (an infeasible switch default goes to one new
``default.unreachable`` block), and the dead blocks whose address is not taken
are deleted. Only the dominator tree stays valid, through a lazy
``DomTreeUpdater`` when one was computed.

What it does not do: nothing interprocedural (that is ``ipsccp``).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.local import change_to_unreachable
from llvmpy_mid.transform.utils.sccp_solver import SCCPSolver


NUM_INST_REMOVED = Statistic("sccp", "NumInstRemoved", "Number of instructions removed")
NUM_DEAD_BLOCKS = Statistic("sccp", "NumDeadBlocks", "Number of basic blocks unreachable")
NUM_INST_REPLACED = Statistic("sccp", "NumInstReplaced", "Number of instructions replaced with (simpler) instruction")


def run_sccp(fn: Function, dtu: DomTreeUpdater | None = None, tli: TargetLibraryInfo | None = None) -> bool:
    """Run SCCP on ``fn``; True when it changed (LLVM ``runSCCP``).

    ``dtu`` keeps a dominator tree up to date (lazily); without one, a tree-less
    updater still deletes the dead blocks at the end, as LLVM's does.
    """
    if dtu is None:
        dtu = DomTreeUpdater(strategy="lazy")
    module = fn.parent
    assert module is not None
    solver = SCCPSolver(module.data_layout, (lambda f: tli) if tli is not None else None)
    solver.mark_block_executable(fn.blocks.first)  # type: ignore[arg-type]
    for arg in fn.args:
        solver.mark_overdefined(arg)
    resolved = True
    while resolved:
        solver.solve()
        resolved = solver.resolved_undefs_in(fn)

    made_changes = False
    inserted_values: set[Value] = set()
    blocks_to_erase: list[BasicBlock] = []
    removed = replaced = 0
    for bb in list(fn.blocks):
        if not solver.is_block_executable(bb):
            blocks_to_erase.append(bb)
            made_changes = True
            continue
        changed, n_removed, n_replaced = solver.simplify_insts_in_block(bb, inserted_values)
        made_changes |= changed
        removed += n_removed
        replaced += n_replaced

    for dead in blocks_to_erase:
        first = dead.first_non_phi
        assert first is not None
        removed += change_to_unreachable(first, False, dtu)
    if blocks_to_erase:
        NUM_DEAD_BLOCKS.add(len(blocks_to_erase))
    if removed:
        NUM_INST_REMOVED.add(removed)
    if replaced:
        NUM_INST_REPLACED.add(replaced)

    new_unreachable: list[BasicBlock | None] = [None]
    for bb in list(fn.blocks):
        if solver.remove_non_feasible_edges(bb, dtu, new_unreachable):
            made_changes = True

    for dead in blocks_to_erase:
        if not dead.has_address_taken:
            dtu.delete_bb(dead)
    dtu.flush()
    return made_changes


class SCCPPass(Pass[Function]):
    """Sparse conditional constant propagation (``-passes=sccp``)."""

    name: ClassVar[str] = "sccp"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "SCCPPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        tli = am.get_result(TargetLibraryAnalysis, unit)
        dt = am.get_cached_result(DominatorTreeAnalysis, unit)
        if not run_sccp(unit, DomTreeUpdater(dt=dt, strategy="lazy"), tli):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        return pa


__all__ = ["SCCPPass", "run_sccp"]
