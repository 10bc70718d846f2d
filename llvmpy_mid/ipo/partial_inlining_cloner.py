"""The speculative copy the partial inliner outlines from and inlines (LLVM 19.1.7
``lib/Transforms/IPO/PartialInlining.cpp``: ``PartialInlinerImpl::FunctionCloner``).

What: :class:`FunctionCloner` clones the function (``f.1``: the module's unique name for
a second ``f``) and sends every use of the original to the clone, so that inlining the
clone into its callers inlines the part left after outlining. With a single-region
plan it first splits the return block's phis in two levels (``normalize_return_block``)
so that only one edge comes back from the outlined region, then extracts the
non-return blocks (:meth:`do_single_region_outlining`); with cold regions it extracts
each one that has no live-out value (:meth:`do_multi_region_outlining`). Each
extraction is a :class:`~llvmpy_mid.transform.utils.code_extractor_profile.ProfileCodeExtractor`
over fresh dominator, loop, branch-probability and block-frequency analyses of the
clone, so that the ``codeRepl`` block's frequency is known afterwards.
:meth:`finish` sends the remaining uses of the clone back to the original, erases the
clone and, when nothing was inlined, the outlined functions.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.depth_first import depth_first
from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
from llvmpy_mid.analysis.block_frequency_bpi import BranchProbabilityInfo
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
from llvmpy_mid.analysis.remark import optimization_remark_missed
from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.transform.utils.clone_function_debug import clone_function_in_module
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.partial_inlining_cost import compute_bb_inline_cost
from llvmpy_mid.ipo.partial_inlining_regions import (
    FunctionOutliningInfo,
    FunctionOutliningMultiRegionInfo,
    OutlineRegionInfo,
)
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.code_extractor import CodeExtractorAnalysisCache
from llvmpy_mid.transform.utils.code_extractor_profile import ProfileCodeExtractor

__all__ = ["FunctionCloner", "first_call_site"]

DEBUG_TYPE = "partial-inlining"

NUM_COLD_REGIONS_OUTLINED = Statistic(
    DEBUG_TYPE, "NumColdRegionsOutlined", "Number of cold single entry/exit regions outlined."
)


def first_call_site(fn: Function) -> CallBase | None:
    """LLVM ``getOneCallSiteTo``: the first user of ``fn``, when it is a call or invoke."""
    for user in fn.users:
        if isinstance(user, CallBase) and user.opcode in ("call", "invoke"):
            return user
        return None
    return None


def _fresh_profile(fn: Function) -> tuple[DominatorTree, BranchProbabilityInfo, BlockFrequencyInfo]:
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    bpi = BranchProbabilityInfo(fn, li, dt, DominatorTree(fn, post=True))
    return dt, bpi, BlockFrequencyInfo(fn, bpi, li)


class FunctionCloner:
    """LLVM ``FunctionCloner`` (see the module docstring)."""

    def __init__(
        self,
        fn: Function,
        ore: OptimizationRemarkEmitter,
        get_tti: Callable[[Function], TargetTransformInfo],
        *,
        oi: FunctionOutliningInfo | None = None,
        omri: FunctionOutliningMultiRegionInfo | None = None,
    ) -> None:
        self.orig_func = fn
        self.ore = ore
        self.get_tti = get_tti
        vmap: dict[Value, Value] = {}
        self.cloned_func = clone_function_in_module(fn, vmap)
        self.outlined_functions: list[tuple[Function, BasicBlock]] = []
        self.is_function_inlined = False
        self.outlined_region_cost = 0
        self.cloned_oi: FunctionOutliningInfo | None = None
        self.cloned_omri: FunctionOutliningMultiRegionInfo | None = None
        self.cloned_func_bfi: BlockFrequencyInfo | None = None

        def mapped(bb: BasicBlock) -> BasicBlock:
            new = vmap[bb]
            assert isinstance(new, BasicBlock)
            return new

        if oi is not None:
            assert oi.return_block is not None and oi.non_return_block is not None
            self.cloned_oi = FunctionOutliningInfo(
                [mapped(e) for e in oi.entries],
                mapped(oi.return_block),
                mapped(oi.non_return_block),
                [mapped(e) for e in oi.return_block_preds],
            )
        if omri is not None:
            self.cloned_omri = FunctionOutliningMultiRegionInfo([
                OutlineRegionInfo(
                    [mapped(bb) for bb in r.region],
                    mapped(r.entry_block),
                    mapped(r.exit_block),
                    mapped(r.return_block) if r.return_block is not None else None,
                )
                for r in omri.regions
            ])
        fn.replace_all_uses_with(self.cloned_func)

    # --- single region ------------------------------------------------------------------
    def normalize_return_block(self) -> None:
        """LLVM ``normalizeReturnBlock``: split the return block's phis in two levels when
        more than one of their edges would come from the outlined region."""
        oi = self.cloned_oi
        if oi is None:
            return
        pre_return = oi.return_block
        assert pre_return is not None
        first = pre_return.first_instruction
        if not isinstance(first, PHINode):
            return
        num_preds_from_entries = len(oi.return_block_preds)
        if first.num_incoming <= num_preds_from_entries + 1:
            return
        split_at = pre_return.first_non_phi
        assert split_at is not None
        ret_block = pre_return.split(split_at)
        oi.return_block = ret_block
        dead: list[PHINode] = []
        for old_phi in list(pre_return.phis()):
            ret_phi = PHINode(old_phi.type, ())
            ret_block.instructions.insert_before(ret_phi, ret_block.first_non_phi)
            old_phi.replace_all_uses_with(ret_phi)
            ret_phi.add_incoming(old_phi, pre_return)
            for e in oi.return_block_preds:
                ret_phi.add_incoming(old_phi.incoming_value_for_block(e), e)
                old_phi.remove_incoming_value(e, True)
            values = old_phi.incoming_values
            if values and all(v is values[0] for v in values):
                old_phi.replace_all_uses_with(values[0])
                dead.append(old_phi)
        for phi in dead:
            phi.erase_from_parent()
        for e in oi.return_block_preds:
            term = e.terminator
            assert term is not None
            term.replace_uses_of_with(pre_return, ret_block)

    def do_single_region_outlining(self) -> Function | None:
        """LLVM ``doSingleRegionFunctionOutlining``: extract every block but the entries
        and the return block (the non-return block first, then depth-first order)."""
        oi = self.cloned_oi
        assert oi is not None and oi.non_return_block is not None
        cloned = self.cloned_func
        dt, bpi, bfi = _fresh_profile(cloned)
        self.cloned_func_bfi = bfi
        tti = self.get_tti(cloned)
        inlined = set(oi.entries)
        if oi.return_block is not None:
            inlined.add(oi.return_block)
        to_extract = [oi.non_return_block]
        self.outlined_region_cost += compute_bb_inline_cost(oi.non_return_block, tti)
        for bb in depth_first(cloned.entry_block):
            if bb in inlined or bb is oi.non_return_block:
                continue
            to_extract.append(bb)
            self.outlined_region_cost += compute_bb_inline_cost(bb, tti)
        cache = CodeExtractorAnalysisCache(cloned)
        outlined = ProfileCodeExtractor(to_extract, dt, bfi, bpi, None, allow_var_args=True).extract_code_region(cache)
        if outlined is not None:
            call = first_call_site(outlined)
            assert call is not None and call.parent is not None
            self.outlined_functions.append((outlined, call.parent))
        else:
            self._extract_failed(to_extract[0])
        return outlined

    # --- cold regions -------------------------------------------------------------------
    def do_multi_region_outlining(self, force_live_exit: bool, mark_cold_cc: bool) -> bool:
        """LLVM ``doMultiRegionFunctionOutlining``. As in LLVM, the live-out values found
        accumulate over the regions: once one region has some, the later ones are
        skipped too (unless ``-pi-force-live-exit-outline``)."""
        omri = self.cloned_omri
        assert omri is not None
        if not omri.regions:
            return False
        cloned = self.cloned_func
        dt, bpi, bfi = _fresh_profile(cloned)
        self.cloned_func_bfi = bfi
        cache = CodeExtractorAnalysisCache(cloned)
        inputs: dict[Value, None] = {}
        outputs: dict[Value, None] = {}
        sinks: dict[Value, None] = {}
        for region in omri.regions:
            region_cost = 0
            for bb in region.region:
                parent = bb.parent
                assert parent is not None
                region_cost += compute_bb_inline_cost(bb, self.get_tti(parent))
            ce = ProfileCodeExtractor(region.region, dt, bfi, bpi, None, allow_var_args=False)
            ce.find_inputs_outputs(inputs, outputs, sinks)
            if outputs and not force_live_exit:
                continue
            outlined = ce.extract_code_region(cache)
            if outlined is not None:
                call = first_call_site(outlined)
                assert call is not None and call.parent is not None
                self.outlined_functions.append((outlined, call.parent))
                NUM_COLD_REGIONS_OUTLINED.add()
                self.outlined_region_cost += region_cost
                if mark_cold_cc:
                    from llvmpy_mid.ir.calling_conv import COLD

                    outlined.calling_conv = COLD
                    call.calling_conv = COLD
            else:
                self._extract_failed(region.region[0])
        return bool(self.outlined_functions)

    def _extract_failed(self, block: BasicBlock) -> None:
        first = block.first_instruction
        if first is None or first.function is None:
            return
        r = optimization_remark_missed(DEBUG_TYPE, "ExtractFailed", first)
        self.ore.emit(lambda: r.add("Failed to extract region at block ").add_arg("Block", block))

    # --- the end ------------------------------------------------------------------------
    def finish(self) -> list[Function]:
        """LLVM ``~FunctionCloner``: the clone's remaining users go back to the original,
        the clone is erased, and the outlined functions too when nothing was inlined.
        Returns the erased functions."""
        cloned = self.cloned_func
        cloned.replace_all_uses_with(self.orig_func)
        cloned.erase_from_parent()
        erased = [cloned]
        if not self.is_function_inlined:
            for fn, _ in self.outlined_functions:
                if fn.parent is not None and not fn.has_uses:
                    fn.erase_from_parent()
                    erased.append(fn)
        return erased
