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

from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import BlockAddress, PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.local import change_to_unreachable
from llvmpy_mid.transform.utils.sccp_solver import SCCPSolver


def _has_address_taken(bb: BasicBlock) -> bool:
    for user in bb.users:
        if isinstance(user, BlockAddress):
            return True
    return False


def run_sccp(fn: Function, dtu: object | None = None, tli: TargetLibraryInfo | None = None) -> bool:
    """Run SCCP on ``fn``; True when it changed (LLVM ``runSCCP``)."""
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
    for bb in list(fn.blocks):
        if not solver.is_block_executable(bb):
            blocks_to_erase.append(bb)
            made_changes = True
            continue
        changed, _, _ = solver.simplify_insts_in_block(bb, inserted_values)
        made_changes |= changed

    for dead in blocks_to_erase:
        first = dead.first_non_phi
        assert first is not None
        change_to_unreachable(first, False, dtu)

    new_unreachable: list[BasicBlock | None] = [None]
    for bb in list(fn.blocks):
        if solver.remove_non_feasible_edges(bb, dtu, new_unreachable):
            made_changes = True

    for dead in blocks_to_erase:
        if not _has_address_taken(dead):
            _delete_dead_block(dead, dtu)
    if dtu is not None:
        dtu.flush()  # type: ignore[attr-defined]
    return made_changes


def _delete_dead_block(bb: BasicBlock, dtu: object | None) -> None:
    """``DTU.deleteBB``: the block's code goes (uses become poison) and the block leaves the function."""
    if dtu is not None:
        dtu.delete_bb(bb)  # type: ignore[attr-defined]
        return
    inst = bb.instructions.last
    while inst is not None:
        prev = inst._prev
        if inst.has_uses:
            inst.replace_all_uses_with(PoisonValue.get(inst.type))
        inst.erase_from_parent()
        inst = prev
    bb.erase_from_parent()


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
        dtu = _make_dtu(dt)
        if not run_sccp(unit, dtu, tli):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        return pa


def _make_dtu(dt: object | None) -> object | None:
    """A lazy DomTreeUpdater over a cached dominator tree (None when none was computed)."""
    if dt is None:
        return None
    import importlib

    # Imported by name until transform/utils' DomTreeUpdater lands in every checkout.
    module = importlib.import_module("llvmpy_mid.analysis.dom_tree_updater")
    return module.DomTreeUpdater(dt=dt, strategy="lazy")  # type: ignore[no-any-return]


__all__ = ["SCCPPass", "run_sccp"]
