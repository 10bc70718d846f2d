"""``indvars``: induction variable simplification (LLVM 19.1.7
``lib/Transforms/Scalar/IndVarSimplify.cpp``, ``IndVarSimplify::run`` and
``IndVarSimplifyPass``).

What, per loop in simplified form (preheader, one latch, dedicated exits), in LLVM's order:

1. floating-point recurrences become integer ones (:mod:`.ind_var_simplify_fp`);
2. ``simplifyAndExtend``: the users of every header phi are simplified through
   ScalarEvolution (``simplify_users_of_iv``), the sign/zero extensions seen on the way pick
   a widest legal type, and the phi is widened to it (``create_wide_iv``), the wide phi then
   being simplified in turn (``-indvars-widen-indvars``, ``-indvars-post-increment-ranges``);
3. values leaving the loop are rewritten as closed forms of the trip count
   (``rewrite_loop_exit_values``, ``-replexitval=``), congruent phis are merged;
4. exit conditions are canonicalised, exits are folded or made loop-invariant, read-only
   loops are predicated (:mod:`.ind_var_simplify_exits`, ``-indvars-predicate-loops``);
5. linear function test replacement rewrites each countable exit test as an ``eq``/``ne``
   against the counter's limit (:mod:`.ind_var_simplify_lftr`, ``-disable-lftr``);
6. the instructions that died are deleted, preheader values used only after the loop sink
   to the exit block, exit values of header phis that can only leave on the first iteration
   are replaced by their preheader input, and dead header phis go.

Statistics ``NumWidened``, ``NumReplaced``, ``NumLFTR``, ``NumElimExt``, ``NumElimIV``
(``indvars``). A changed loop keeps the loop analyses, the CFG and (under ``loop-mssa``)
MemorySSA. Pieces provided by other modules (the SCEV expander, IV user simplification and
widening) are used when present; when one is missing, the steps needing it do nothing.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import Analysis, AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnLoop, AnalysisSet, CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic

__all__ = [
    "DEBUG_TYPE",
    "IndVarSimplify",
    "IndVarSimplifyPass",
    "REPLACE_EXIT_VALUE_MODES",
    "ShouldRunExtraSimpleLoopUnswitch",
    "is_loop_invariant_value",
]

DEBUG_TYPE = "indvars"
NUM_WIDENED = Statistic(DEBUG_TYPE, "NumWidened", "Number of indvars widened")
NUM_REPLACED = Statistic(DEBUG_TYPE, "NumReplaced", "Number of exit values replaced")
NUM_LFTR = Statistic(DEBUG_TYPE, "NumLFTR", "Number of loop exit tests replaced")
NUM_ELIM_EXT = Statistic(DEBUG_TYPE, "NumElimExt", "Number of IV sign/zero extends eliminated")
NUM_ELIM_IV = Statistic(DEBUG_TYPE, "NumElimIV", "Number of congruent IVs eliminated")

# ``-replexitval=`` spellings (LLVM ``ReplaceExitVal``) and the names LoopUtils' rewriter takes.
REPLACE_EXIT_VALUE_MODES: dict[str, str] = {
    "never": "never",
    "cheap": "cheap",
    "unusedindvarinloop": "unusedindvar",
    "noharduse": "noinvariant",
    "always": "always",
}


def replace_exit_value_mode() -> str:
    """The ``-replexitval=`` strategy (an unknown spelling is refused as opt-19 does)."""
    spelled = str(OPTIONS.value("replexitval"))
    mode = REPLACE_EXIT_VALUE_MODES.get(spelled)
    if mode is None:
        from llvmpy_mid.errors import PipelineError

        raise PipelineError("for the --replexitval option: Cannot find option named '%s'!" % spelled)
    return mode


def is_loop_invariant_value(loop: Loop, v: Value) -> bool:
    """LLVM ``Loop::isLoopInvariant``: not an instruction of the loop."""
    return not isinstance(v, Instruction) or not loop.contains(v)


def _cheap_expansion_budget() -> int:
    try:
        return int(OPTIONS.value("scev-cheap-expansion-budget"))
    except (KeyError, ValueError):
        return 4


class IndVarSimplify:
    """LLVM's ``IndVarSimplify`` object: the analyses, the dead-instruction list and the
    driver :meth:`run`."""

    def __init__(
        self, li: LoopInfo, se: Any, dt: Any, dl: Any, tli: Any, tti: Any, mssa: Any, widen_ind_vars: bool
    ) -> None:
        self.li = li
        self.se = se
        self.dt = dt
        self.dl = dl
        self.tli = tli
        self.tti = tti
        self.mssau: Any = None
        if mssa is not None:
            from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater

            self.mssau = MemorySSAUpdater(mssa)
        self.dead_insts: list[Value] = []
        self.widen_ind_vars = widen_ind_vars
        self.run_unswitching = False

    # --- helpers ---------------------------------------------------------------------------
    def about_to_delete(self) -> Callable[[Value], None] | None:
        """The callback removing a deleted instruction's MemorySSA access."""
        mssau = self.mssau
        if mssau is None:
            return None

        def remove(v: Value) -> None:
            if isinstance(v, Instruction) and mssau.get_memory_ssa().get_memory_access(v) is not None:
                mssau.remove_memory_access(v)

        return remove

    def make_rewriter(self) -> Any:
        """``SCEVExpander(*SE, DL, "indvars")`` when the expander is available."""
        try:
            from llvmpy_mid.transform.utils.scalar_evolution_expander import SCEVExpander
        except ImportError:
            return None
        try:
            return SCEVExpander(self.se, self.dl, "indvars")
        except Exception:  # pragma: no cover - an expander that cannot be built does nothing
            return None

    # --- simplifyAndExtend -----------------------------------------------------------------
    def simplify_and_extend(self, loop: Loop, rewriter: Any) -> bool:
        """LLVM ``IndVarSimplify::simplifyAndExtend``."""
        from llvmpy_mid.transform.scalar.ind_var_simplify_widen import simplify_and_extend

        changed, unswitch, elim_ext, widened = simplify_and_extend(self, loop, rewriter)
        NUM_ELIM_EXT.add(elim_ext)
        NUM_WIDENED.add(widened)
        self.run_unswitching |= unswitch
        return changed

    # --- rewriteFirstIterationLoopExitValues -------------------------------------------------
    def rewrite_first_iteration_loop_exit_values(self, loop: Loop) -> bool:
        """LLVM ``rewriteFirstIterationLoopExitValues``: an exit reached through a branch on a
        loop-invariant condition in a block dominating the latch can only be taken on the first
        iteration, so a header phi flowing out of it is its preheader input."""
        latch = loop.latch
        header = loop.header
        preheader = loop.preheader
        changed = False
        for exit_bb in loop.unique_exit_blocks:
            for pn in list(exit_bb.phis()):
                for idx in range(pn.num_incoming):
                    incoming_bb = pn.get_incoming_block(idx)
                    if latch is None or not self.dt.dominates(incoming_bb, latch):
                        continue
                    term = incoming_bb.terminator
                    if isinstance(term, BranchInst):
                        if not term.is_conditional:
                            continue
                        cond = term.condition
                    elif term is not None and term.opcode == "switch":
                        cond = term.operands[0]
                    else:
                        continue
                    if not is_loop_invariant_value(loop, cond):
                        continue
                    exit_val = pn.get_incoming_value(idx)
                    if not isinstance(exit_val, PHINode) or exit_val.parent is not header:
                        continue
                    if preheader is None:
                        continue
                    pre_idx = exit_val.basic_block_index(preheader)
                    if pre_idx != -1:
                        changed = True
                        pn.set_incoming_value(idx, exit_val.get_incoming_value(pre_idx))
                        self.se.forget_value(pn)
        return changed

    # --- sinkUnusedInvariants --------------------------------------------------------------
    def sink_unused_invariants(self, loop: Loop) -> bool:
        """LLVM ``sinkUnusedInvariants``: preheader instructions (from the bottom up, stopping
        at a phi) used neither in the preheader nor in the loop move to the single exit block,
        unless they have side effects, read memory, are debug intrinsics, EH pads or allocas."""
        from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call

        exit_block = loop.exit_block
        if exit_block is None:
            return False
        preheader = loop.preheader
        if preheader is None:
            return False
        changed = False
        insert_pt = exit_block.first_insertion_point
        pos = preheader.terminator
        assert pos is not None
        while pos.prev_instruction is not None:
            pos = pos.prev_instruction
            if isinstance(pos, PHINode):
                break
            if pos.may_have_side_effects() or pos.may_read_from_memory():
                continue
            if _is_dbg_info_intrinsic(pos) or pos.is_eh_pad or pos.opcode == "alloca":
                continue
            used_in_loop = False
            for use in pos.uses:
                user = use.user
                use_bb = user.parent if isinstance(user, Instruction) else None
                if isinstance(user, PHINode):
                    use_bb = user.get_incoming_block_for_use(use)
                if use_bb is preheader or (use_bb is not None and loop.contains(use_bb)):
                    used_in_loop = True
                    break
            if used_in_loop:
                continue
            # LLVM steps its iterator back over debug instructions before moving, and then
            # once more at the head of the loop: the instruction just above a sunk one is not
            # looked at.
            to_move = pos
            done = False
            if pos.prev_instruction is not None:
                while True:
                    prev = pos.prev_instruction
                    assert prev is not None
                    pos = prev
                    if not is_debug_or_pseudo_probe_call(pos) or pos.prev_instruction is None:
                        break
                if is_debug_or_pseudo_probe_call(pos) and pos.prev_instruction is None:
                    done = True
            else:
                done = True
            changed = True
            if insert_pt is None:
                to_move.remove_from_parent()
                to_move.insert_into(exit_block)
            else:
                to_move.move_before(insert_pt)
            self.se.forget_value(to_move)
            if done:
                break
            insert_pt = to_move
        return changed

    # --- cleanup ---------------------------------------------------------------------------
    def delete_dead_insts(self) -> bool:
        """The dead-instruction sweep at the end of LLVM's ``run`` (phis through
        ``RecursivelyDeleteDeadPHINode``, others through
        ``RecursivelyDeleteTriviallyDeadInstructions``)."""
        from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions

        changed = False
        hook = self.about_to_delete()
        while self.dead_insts:
            v = self.dead_insts.pop()
            if not isinstance(v, Instruction) or v.is_erased or v.parent is None:
                continue
            if isinstance(v, PHINode):
                changed |= self.delete_dead_phi(v)
            else:
                changed |= recursively_delete_trivially_dead_instructions(v, self.tli, hook)
        return changed

    def delete_dead_phi(self, phi: PHINode) -> bool:
        """LLVM ``RecursivelyDeleteDeadPHINode`` with the MemorySSA updater: a phi feeding only
        a chain of single-user, side-effect-free instructions that ends unused or cycles back
        goes with the chain."""
        from llvmpy_mid.ir.constants import PoisonValue
        from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions

        hook = self.about_to_delete()
        visited: set[Instruction] = set()
        inst: Instruction = phi
        while (not inst.has_uses or inst.has_one_user) and not inst.may_have_side_effects():
            if not inst.has_uses:
                return recursively_delete_trivially_dead_instructions(inst, self.tli, hook)
            if inst in visited:
                inst.replace_all_uses_with(PoisonValue.get(inst.type))
                recursively_delete_trivially_dead_instructions(inst, self.tli, hook)
                return True
            visited.add(inst)
            user = next(iter(inst.users))
            if not isinstance(user, Instruction):
                return False
            inst = user
        return False

    def delete_dead_phis(self, bb: BasicBlock) -> bool:
        """LLVM ``DeleteDeadPHIs`` on ``bb``."""
        changed = False
        for phi in list(bb.phis()):
            if not phi.is_erased:
                changed |= self.delete_dead_phi(phi)
        return changed

    # --- the driver ------------------------------------------------------------------------
    def run(self, loop: Loop) -> bool:
        """LLVM ``IndVarSimplify::run``."""
        from llvmpy_mid.transform.scalar.ind_var_simplify_exits import (
            canonicalize_exit_condition,
            optimize_loop_exits,
            predicate_loop_exits,
        )
        from llvmpy_mid.transform.scalar.ind_var_simplify_fp import rewrite_non_integer_ivs
        from llvmpy_mid.transform.scalar.ind_var_simplify_lftr import run_lftr

        if not loop.is_loop_simplify_form():
            return False
        mode = replace_exit_value_mode()  # an unknown spelling is refused before any change
        se = self.se
        changed = rewrite_non_integer_ivs(loop, se, self.tli, self.about_to_delete())

        rewriter = self.make_rewriter()
        if rewriter is not None and hasattr(rewriter, "disable_canonical_mode"):
            rewriter.disable_canonical_mode()
        changed |= self.simplify_and_extend(loop, rewriter)

        if mode != "never" and rewriter is not None:
            import llvmpy_mid.transform.utils.loop_utils as loop_utils

            rewrite_loop_exit_values = getattr(loop_utils, "rewrite_loop_exit_values", None)
            if rewrite_loop_exit_values is not None:
                rewrites = rewrite_loop_exit_values(
                    loop, self.li, self.tli, se, self.tti, rewriter, self.dt, mode, self.dead_insts
                )
                if rewrites:
                    NUM_REPLACED.add(rewrites)
                    changed = True

        if rewriter is not None and hasattr(rewriter, "replace_congruent_ivs"):
            NUM_ELIM_IV.add(rewriter.replace_congruent_ivs(loop, self.dt, self.dead_insts, self.tti))

        changed |= canonicalize_exit_condition(self, loop)

        if optimize_loop_exits(self, loop, rewriter):
            changed = True
            se.forget_topmost_loop(loop)

        if predicate_loop_exits(self, loop, rewriter):
            changed = True
            se.forget_loop(loop)

        if not OPTIONS.value("disable-lftr") and rewriter is not None:
            lftr = run_lftr(self, loop, rewriter, _cheap_expansion_budget())
            if lftr:
                NUM_LFTR.add(lftr)
                changed = True

        if rewriter is not None and hasattr(rewriter, "clear"):
            rewriter.clear()

        changed |= self.delete_dead_insts()
        changed |= self.sink_unused_invariants(loop)
        changed |= self.rewrite_first_iteration_loop_exit_values(loop)
        changed |= self.delete_dead_phis(loop.header)
        return changed


def _is_dbg_info_intrinsic(inst: Instruction) -> bool:
    """LLVM ``isa<DbgInfoIntrinsic>``: a call of ``llvm.dbg.*``."""
    if inst.opcode != "call":
        return False
    callee = getattr(inst, "called_function", None)
    name = getattr(callee, "name", "") if callee is not None else ""
    return isinstance(name, str) and name.startswith("llvm.dbg.")


class ShouldRunExtraSimpleLoopUnswitch(Analysis[Loop, None]):
    """LLVM's marker loop analysis (``SimpleLoopUnswitch.h``): ``indvars`` computes and keeps
    it when it made exits loop-invariant, asking a later ``simple-loop-unswitch`` to run again."""

    name: ClassVar[str] = "should-run-extra-simple-loop-unswitch"
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnLoop

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> None:
        return None


class IndVarSimplifyPass(Pass[Loop]):
    """``indvars`` (LLVM ``IndVarSimplifyPass``)."""

    name: ClassVar[str] = "indvars"

    def __init__(self, widen_ind_vars: bool = True) -> None:
        self.widen_ind_vars = widen_ind_vars

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.passes.loop_pass_manager import loop_pass_preserved_analyses

        ar = am.standard  # type: ignore[attr-defined]
        se = ar.se
        if se is None:
            return PreservedAnalyses.all()
        fn = unit.header.parent
        assert fn is not None
        module = fn.parent
        dl = module.data_layout if module is not None else None
        widen = self.widen_ind_vars and bool(OPTIONS.value("indvars-widen-indvars"))
        ivs = IndVarSimplify(ar.li, se, ar.dt, dl, ar.tli, ar.tti, ar.mssa, widen)
        if not ivs.run(unit):
            return PreservedAnalyses.all()
        pa = loop_pass_preserved_analyses()
        pa.preserve_set(CFGAnalyses)
        if ivs.run_unswitching:
            am.get_result(ShouldRunExtraSimpleLoopUnswitch, unit)
            pa.preserve(ShouldRunExtraSimpleLoopUnswitch)
        if ar.mssa is not None:
            pa.preserve(MemorySSAAnalysis)
        return pa
