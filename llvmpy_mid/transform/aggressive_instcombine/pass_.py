"""The ``aggressive-instcombine`` pass (LLVM ``AggressiveInstCombinePass``,
``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``: ``runImpl``,
``foldUnusualPatterns``).

How: first :class:`~.trunc_inst_combine.TruncInstCombine` over the function;
then every reachable block is walked bottom-up, and each instruction is offered
to the pattern folds in LLVM's order. When anything changed, each block is
cleaned with ``SimplifyInstructionsInBlock``. The CFG changes only when a
library call is inlined into blocks (``strncmp``/``memchr``); then only the
dominator tree is kept, else all CFG analyses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar

from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.dominators import DominatorTree


class FoldContext:
    """What the pattern folds read: the function's layout, dominators, library info
    and assumptions; ``cfg_changed`` is set by a fold that changed the CFG."""

    __slots__ = ("fn", "dl", "dt", "tli", "ac", "cfg_changed")

    def __init__(
        self, fn: Function, dl: DataLayout, dt: DominatorTree, tli: TargetLibraryInfo | None, ac: AssumptionCache | None
    ) -> None:
        self.fn = fn
        self.dl = dl
        self.dt = dt
        self.tli = tli
        self.ac = ac
        self.cfg_changed = False


Fold = Callable[[Instruction, FoldContext], bool]


def _folds() -> tuple[Fold, ...]:
    """The pattern folds of ``foldUnusualPatterns``, in LLVM's order."""
    from llvmpy_mid.transform.aggressive_instcombine import (
        bit_checks,
        funnel_shift,
        lib_calls,
        load_merge,
        popcount,
        table_cttz,
    )

    return (
        bit_checks.fold_any_or_all_bits_set,
        funnel_shift.fold_guarded_funnel_shift,
        popcount.try_to_recognize_pop_count,
        table_cttz.try_to_recognize_table_based_cttz,
        load_merge.fold_consecutive_loads,
        load_merge.fold_patterned_loads,
        lib_calls.fold_lib_calls,  # may erase the instruction: last
    )


def fold_unusual_patterns(ctx: FoldContext) -> bool:
    """LLVM ``foldUnusualPatterns``: each reachable block bottom-up through the folds."""
    from llvmpy_mid.transform.utils.local import simplify_instructions_in_block

    folds = _folds()
    changed = False
    dt = ctx.dt
    for bb in list(ctx.fn.blocks):
        if not dt.is_reachable(bb):
            continue
        inst = bb.instructions.last
        while inst is not None:
            prev = inst.prev_instruction
            for fold in folds:
                if inst.parent is None:
                    break
                changed |= fold(inst, ctx)
            inst = prev
    if changed:
        for bb in list(ctx.fn.blocks):
            simplify_instructions_in_block(bb, ctx.tli)
    return changed


class AggressiveInstCombinePass(Pass[Function]):
    """``aggressive-instcombine``: expression-tree truncation and pattern recognition."""

    name: ClassVar[str] = "aggressive-instcombine"

    @property
    def log_name(self) -> str:
        return "AggressiveInstCombinePass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
        from llvmpy_mid.transform.aggressive_instcombine.trunc_inst_combine import TruncInstCombine

        ac = am.get_result(AssumptionAnalysis, unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout()
        ctx = FoldContext(unit, dl, dt, tli, ac)
        changed = TruncInstCombine(ctx).run()
        changed |= fold_unusual_patterns(ctx)
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        if ctx.cfg_changed:
            pa.preserve(DominatorTreeAnalysis)
        else:
            pa.preserve_set(CFGAnalyses)
        return pa


__all__ = ["AggressiveInstCombinePass", "FoldContext", "fold_unusual_patterns"]
