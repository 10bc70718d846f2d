"""``simplifyCFG``: one block's control flow made canonical (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``, the ``SimplifyCFGOpt`` driver).

What: :func:`simplify_cfg` runs LLVM's ``SimplifyCFGOpt::run`` on a block: it repeats
``simplifyOnce`` while a step asks for another round. ``simplifyOnce`` deletes the
block if nothing reaches it, folds a constant terminator, removes duplicate phis,
cuts predecessors whose edge would be undefined behaviour, merges the block into its
predecessor, sinks common code from its predecessors (with
``sink-common-insts``), folds a two-entry phi into a select, and then simplifies the
terminator by its kind.  The work is split as LLVM's source groups it, one module
per family:

- ``simplify_cfg_hoist``: hoisting common code from the successors;
- ``simplify_cfg_sink``: sinking common code into the common successor, merging
  compatible invokes;
- ``simplify_cfg_speculate``: ``SpeculativelyExecuteBB``, ``FoldTwoEntryPHINode``;
- ``simplify_cfg_branch_fold``: ``FoldBranchToCommonDest``, branches on values
  known in a predecessor;
- ``simplify_cfg_branch_fold_cond``: conditional branch to conditional branch,
  conditional stores, nested branches;
- ``simplify_cfg_value_compare``: value-equality comparisons (switch/branch
  threading into predecessors, icmp chains to switches, terminators on selects);
- ``simplify_cfg_switch``: switch range to icmp, dead cases, switch to select,
  condition forwarding, powers of two, range reduction;
- ``simplify_cfg_lookup``: switches to lookup tables;
- ``simplify_cfg_eh``: resume, cleanupret and landing-pad merging;
- ``simplify_cfg_unreachable``: ``unreachable`` and undefined-behaviour edges.

The dominator tree is not maintained incrementally: the pass
(``transform/scalar/simplify_cfg_pass.py``) recomputes it afterwards when asked.
"""

from __future__ import annotations

import attrs

from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.eh import LandingPadInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    IndirectBrInst,
    SwitchInst,
    UnreachableInst,
)
from llvmpy_mid.transform.utils.basic_block_utils import (
    delete_dead_block,
    is_debug_or_pseudo_probe_call,
    merge_block_into_predecessor,
)
from llvmpy_mid.transform.utils.local import (
    constant_fold_terminator,
    recursively_delete_trivially_dead_instructions,
)
from llvmpy_mid.transform.utils.local_cfg import (
    eliminate_duplicate_phi_nodes,
    try_to_simplify_uncond_branch_from_empty_block,
)
from llvmpy_mid.transform.utils.simplify_cfg_common import erase_terminator_and_dce_cond


@attrs.define(slots=True)
class SimplifyCFGOptions:
    """LLVM ``SimplifyCFGOptions`` with its defaults (the pass parameters of
    ``simplifycfg<...>`` set them)."""

    bonus_inst_threshold: int = 1
    forward_switch_cond_to_phi: bool = False
    convert_switch_range_to_icmp: bool = False
    convert_switch_to_lookup_table: bool = False
    need_canonical_loop: bool = True
    hoist_common_insts: bool = False
    sink_common_insts: bool = False
    simplify_cond_branch: bool = True
    speculate_blocks: bool = True
    speculate_unpredictables: bool = False
    ac: object | None = None


def option_enabled(name: str, default: bool) -> bool:
    """A SimplifyCFG ``cl::opt`` boolean as the command line set it."""
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get(name) is None:
        return default
    return bool(OPTIONS.value(name))


def option_int(name: str, default: int) -> int:
    """A SimplifyCFG ``cl::opt`` number as the command line set it."""
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get(name) is None:
        return default
    value = OPTIONS.value(name)
    assert isinstance(value, int)
    return value


class SimplifyCFGOpt:
    """LLVM ``SimplifyCFGOpt``: the state one block's simplification shares with the
    families (target costs, data layout, loop headers, options)."""

    __slots__ = ("tti", "dl", "loop_headers", "options", "resimplify")

    def __init__(self, tti: object, dl: DataLayout, loop_headers: set[BasicBlock], options: SimplifyCFGOptions) -> None:
        self.tti = tti
        self.dl = dl
        self.loop_headers = loop_headers
        self.options = options
        self.resimplify = False

    def request_resimplify(self) -> bool:
        """Ask for another round on the block; returns True (a change was made)."""
        self.resimplify = True
        return True

    # --- the driver ---------------------------------------------------------------------------

    def run(self, bb: BasicBlock) -> bool:
        changed = False
        while True:
            self.resimplify = False
            changed |= self.simplify_once(bb)
            if not self.resimplify:
                return changed

    def simplify_once(self, bb: BasicBlock) -> bool:
        from llvmpy_mid.transform.utils import simplify_cfg_sink as sink
        from llvmpy_mid.transform.utils import simplify_cfg_speculate as spec
        from llvmpy_mid.transform.utils.simplify_cfg_unreachable import remove_undef_introducing_predecessor

        fn = bb.parent
        assert fn is not None, "Block not embedded in function!"
        assert bb.terminator is not None, "Degenerate basic block encountered!"
        preds = bb.predecessors
        if (not preds and bb is not fn.entry_block) or bb.single_predecessor is bb:
            delete_dead_block(bb)
            return True
        changed = constant_fold_terminator(bb, True)
        changed |= eliminate_duplicate_phi_nodes(bb)
        if remove_undef_introducing_predecessor(bb, self.options.ac):
            return self.request_resimplify()
        if merge_block_into_predecessor(bb):
            return True
        if option_enabled("simplifycfg-sink-common", True) and self.options.sink_common_insts:
            if sink.sink_common_code_from_predecessors(bb) or sink.merge_compatible_invokes(bb):
                return True
        if self.options.speculate_blocks and not fn.has_fn_attribute("optforfuzzing"):
            first = bb.first_instruction
            if isinstance(first, PHINode) and len(first.incoming) == 2:
                if spec.fold_two_entry_phi_node(first, self.tti, self.dl, self.options.speculate_unpredictables):
                    return True
        term = bb.terminator
        assert term is not None
        if isinstance(term, BranchInst):
            if term.is_unconditional:
                changed |= self.simplify_uncond_branch(term)
            else:
                changed |= self.simplify_cond_branch(term)
        elif isinstance(term, SwitchInst):
            changed |= self.simplify_switch(term)
        elif isinstance(term, UnreachableInst):
            from llvmpy_mid.transform.utils.simplify_cfg_unreachable import simplify_unreachable

            changed |= simplify_unreachable(self, term)
        elif isinstance(term, IndirectBrInst):
            changed |= self.simplify_indirect_br(term)
        elif term.opcode == "resume":
            from llvmpy_mid.transform.utils.simplify_cfg_eh import simplify_resume

            changed |= simplify_resume(self, term)
        elif term.opcode == "cleanupret":
            from llvmpy_mid.transform.utils.simplify_cfg_eh import simplify_cleanup_return

            changed |= simplify_cleanup_return(self, term)
        return changed

    # --- terminators --------------------------------------------------------------------------

    def simplify_uncond_branch(self, bi: BranchInst) -> bool:
        from llvmpy_mid.transform.utils.simplify_cfg_branch_fold import fold_branch_to_common_dest
        from llvmpy_mid.transform.utils.simplify_cfg_eh import try_to_merge_landing_pad
        from llvmpy_mid.transform.utils.simplify_cfg_value_compare import (
            try_to_simplify_uncond_branch_with_icmp_in_it,
        )

        bb = bi.parent
        assert bb is not None and bb.parent is not None
        succ = bi.get_successor(0)
        need_canonical_loop = (
            self.options.need_canonical_loop
            and bool(self.loop_headers)
            and bb.has_n_predecessors_or_more(2)
            and (bb in self.loop_headers or succ in self.loop_headers)
        )
        insts = _non_debug_instructions(bb, skip_pseudo=True, skip_phis=True)
        first = insts[0]
        if first.is_terminator and bb is not bb.parent.entry_block and not need_canonical_loop:
            if try_to_simplify_uncond_branch_from_empty_block(bb):
                return True
        if isinstance(first, ICmpInst) and first.is_equality and isinstance(first.operands[1], ConstantInt):
            if len(insts) > 1 and insts[1].is_terminator:
                if try_to_simplify_uncond_branch_with_icmp_in_it(self, first):
                    return True
        if isinstance(first, LandingPadInst):
            if len(insts) > 1 and insts[1].is_terminator and try_to_merge_landing_pad(first, bi, bb):
                return True
        if self.options.speculate_blocks and fold_branch_to_common_dest(
            bi, self.tti, self.options.bonus_inst_threshold
        ):
            return self.request_resimplify()
        return False

    def simplify_cond_branch(self, bi: BranchInst) -> bool:
        from llvmpy_mid.transform.utils import simplify_cfg_branch_fold as bf
        from llvmpy_mid.transform.utils import simplify_cfg_branch_fold_cond as bfc
        from llvmpy_mid.transform.utils import simplify_cfg_value_compare as vc
        from llvmpy_mid.transform.utils.simplify_cfg_hoist import hoist_common_code_from_successors
        from llvmpy_mid.transform.utils.simplify_cfg_speculate import speculatively_execute_bb

        bb = bi.parent
        assert bb is not None and bb.parent is not None
        if not self.options.simplify_cond_branch or bb.parent.has_fn_attribute("optforfuzzing"):
            return False
        if vc.is_value_equality_comparison(bi) is not None:
            only_pred = bb.single_predecessor
            if only_pred is not None and vc.simplify_equality_comparison_with_only_predecessor(self, bi, only_pred):
                return self.request_resimplify()
            insts = _non_debug_instructions(bb, skip_pseudo=True, skip_phis=False)
            if insts[0] is bi:
                if vc.fold_value_comparison_into_predecessors(self, bi):
                    return self.request_resimplify()
            elif insts[0] is bi.condition:
                if len(insts) > 1 and insts[1] is bi and vc.fold_value_comparison_into_predecessors(self, bi):
                    return self.request_resimplify()
        if vc.simplify_branch_on_icmp_chain(self, bi):
            return True
        implied = is_implied_by_dom_condition(bi.condition, bi, self.dl)
        if implied is not None:
            old = bi.condition
            cond_ty = bi.condition.type
            bi.condition = ConstantInt.get_true(cond_ty) if implied else ConstantInt.get_false(cond_ty)
            recursively_delete_trivially_dead_instructions(old)
            return self.request_resimplify()
        if self.options.speculate_blocks and bf.fold_branch_to_common_dest(
            bi, self.tti, self.options.bonus_inst_threshold
        ):
            return self.request_resimplify()
        s0 = bi.get_successor(0)
        s1 = bi.get_successor(1)
        hoist_common = option_enabled("simplifycfg-hoist-common", True)
        if s0.single_predecessor is not None:
            if s1.single_predecessor is not None:
                if hoist_common and hoist_common_code_from_successors(self, bb, not self.options.hoist_common_insts):
                    return self.request_resimplify()
            else:
                t0 = s0.terminator
                assert t0 is not None
                if len(t0.successors) == 1 and t0.successors[0] is s1:
                    if speculatively_execute_bb(self, bi, s0):
                        return self.request_resimplify()
        elif s1.single_predecessor is not None:
            t1 = s1.terminator
            assert t1 is not None
            if len(t1.successors) == 1 and t1.successors[0] is s0:
                if speculatively_execute_bb(self, bi, s1):
                    return self.request_resimplify()
        if bf.fold_cond_branch_on_value_known_in_predecessor(bi, self.dl, self.options.ac):
            return self.request_resimplify()
        for pred in bb.predecessors:
            pbi = pred.terminator
            if isinstance(pbi, BranchInst) and pbi is not bi and pbi.is_conditional:
                if bfc.simplify_cond_branch_to_cond_branch(pbi, bi, self.dl, self.tti):
                    return self.request_resimplify()
        if option_enabled("simplifycfg-merge-cond-stores", True):
            prev = _all_predecessors_come_from_same_source(bb)
            if prev is not None:
                pbi = prev.terminator
                if isinstance(pbi, BranchInst) and pbi is not bi and pbi.is_conditional:
                    if bfc.merge_conditional_stores(pbi, bi, self.dl, self.tti):
                        return self.request_resimplify()
        if bfc.merge_nested_cond_branch(bi):
            return self.request_resimplify()
        return False

    def simplify_switch(self, si: SwitchInst) -> bool:
        from llvmpy_mid.transform.utils import simplify_cfg_switch as sw
        from llvmpy_mid.transform.utils import simplify_cfg_value_compare as vc
        from llvmpy_mid.transform.utils.simplify_cfg_hoist import hoist_common_code_from_successors
        from llvmpy_mid.transform.utils.simplify_cfg_lookup import switch_to_lookup_table

        bb = si.parent
        assert bb is not None
        if vc.is_value_equality_comparison(si) is not None:
            only_pred = bb.single_predecessor
            if only_pred is not None and vc.simplify_equality_comparison_with_only_predecessor(self, si, only_pred):
                return self.request_resimplify()
            cond = si.condition
            if isinstance(cond, SelectInst) and vc.simplify_switch_on_select(self, si, cond):
                return self.request_resimplify()
            insts = _non_debug_instructions(bb, skip_pseudo=False, skip_phis=False)
            if insts[0] is si and vc.fold_value_comparison_into_predecessors(self, si):
                return self.request_resimplify()
        if self.options.convert_switch_range_to_icmp and sw.turn_switch_range_into_icmp(self, si):
            return self.request_resimplify()
        if sw.eliminate_dead_switch_cases(si, self.options.ac, self.dl):
            return self.request_resimplify()
        if sw.try_switch_to_select(si, self.dl, self.tti):
            return self.request_resimplify()
        if self.options.forward_switch_cond_to_phi and sw.forward_switch_condition_to_phi(si):
            return self.request_resimplify()
        if self.options.convert_switch_to_lookup_table and switch_to_lookup_table(si, self.dl, self.tti):
            return self.request_resimplify()
        if sw.simplify_switch_of_powers_of_two(si, self.dl, self.tti):
            return self.request_resimplify()
        if sw.reduce_switch_range(si, self.dl, self.tti):
            return self.request_resimplify()
        parent = si.parent
        if (
            parent is not None
            and option_enabled("simplifycfg-hoist-common", True)
            and hoist_common_code_from_successors(self, parent, not self.options.hoist_common_insts)
        ):
            return self.request_resimplify()
        return False

    def simplify_indirect_br(self, ibi: IndirectBrInst) -> bool:
        from llvmpy_mid.ir.instructions.terminators import UnreachableInst as _Unreachable
        from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor
        from llvmpy_mid.transform.utils.simplify_cfg_value_compare import simplify_indirect_br_on_select

        bb = ibi.parent
        assert bb is not None
        changed = False
        seen: set[BasicBlock] = set()
        i = 0
        while i < ibi.num_destinations:
            dest = ibi.destinations[i]
            if not dest.has_address_taken or dest in seen:
                remove_predecessor(dest, bb)
                ibi.remove_destination(i)
                changed = True
                continue
            seen.add(dest)
            i += 1
        if ibi.num_destinations == 0:
            _Unreachable(bb.context).insert_before(ibi)
            erase_terminator_and_dce_cond(ibi)
            return True
        if ibi.num_destinations == 1:
            BranchInst(ibi.destinations[0]).insert_before(ibi)
            erase_terminator_and_dce_cond(ibi)
            return True
        addr = ibi.address
        if isinstance(addr, SelectInst) and simplify_indirect_br_on_select(self, ibi, addr):
            return self.request_resimplify()
        return changed


def _non_debug_instructions(bb: BasicBlock, skip_pseudo: bool, skip_phis: bool) -> list[Instruction]:
    """The block's instructions without debug intrinsics (and pseudo probes, and phis,
    when asked); LLVM's ``instructionsWithoutDebug`` / ``getFirstNonPHIOrDbg``. Only the
    first few are needed, so the walk stops after three."""
    out: list[Instruction] = []
    for inst in bb:
        if skip_phis and isinstance(inst, PHINode):
            continue
        if _is_debug_intrinsic(inst) or (skip_pseudo and is_debug_or_pseudo_probe_call(inst)):
            continue
        out.append(inst)
        if len(out) == 3:
            break
    return out


def _is_debug_intrinsic(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    callee = inst.operands[-1] if inst.operands else None
    name = getattr(callee, "name", "")
    return isinstance(name, str) and name.startswith("llvm.dbg.")


def _all_predecessors_come_from_same_source(bb: BasicBlock) -> BasicBlock | None:
    """The one block every predecessor of ``bb`` has as single predecessor, when each
    predecessor has one successor too (LLVM ``allPredecessorsComeFromSameSource``)."""
    pred_pred: BasicBlock | None = None
    for p in bb.predecessors:
        pp = p.single_predecessor
        if pp is None or (pred_pred is not None and pp is not pred_pred):
            return None
        pred_pred = pp
    return pred_pred


def simplify_cfg(
    bb: BasicBlock,
    tti: object,
    options: SimplifyCFGOptions | None = None,
    loop_headers: set[BasicBlock] | None = None,
) -> bool:
    """Simplify ``bb`` until no step asks for another round (LLVM ``simplifyCFG``).
    ``loop_headers`` protects loop headers when ``options.need_canonical_loop`` is on."""
    fn = bb.parent
    assert fn is not None
    module = fn.parent
    dl = module.data_layout if module is not None else DataLayout()
    return SimplifyCFGOpt(tti, dl, loop_headers or set(), options or SimplifyCFGOptions()).run(bb)


__all__ = ["SimplifyCFGOpt", "SimplifyCFGOptions", "option_enabled", "option_int", "simplify_cfg"]
