"""``simplifycfg``: the function pass around :func:`simplify_cfg` (LLVM 19.1.7
``llvm/lib/Transforms/Scalar/SimplifyCFGPass.cpp``).

What: delete unreachable blocks, tail-merge the blocks that end in ``ret`` or
``resume`` (``common.ret`` with phis of the operands), then simplify every block
in function order until a whole sweep changes nothing, removing unreachable blocks
between sweeps, exactly as ``simplifyFunctionCFGImpl`` orders it. Loop headers
(targets of back edges) are found once per sweep for ``keep-loops``.

Parameters: ``simplifycfg<bonus-inst-threshold=N;forward-switch-cond;
switch-range-to-icmp;switch-to-lookup;keep-loops;hoist-common-insts;
sink-common-insts;speculate-blocks;simplify-cond-branch;speculate-unpredictables>``
and their ``no-`` forms, with opt-19's defaults; the ``-bonus-inst-threshold``,
``-keep-loops``, ``-switch-range-to-icmp``, ``-switch-to-lookup``,
``-forward-switch-cond``, ``-hoist-common-insts``, ``-sink-common-insts`` and
``-speculate-unpredictables`` command-line options override them as in LLVM.

The dominator tree is not updated step by step: the pass reports it not preserved.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.pipeline_text import parse_flag_and_int_params
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.local import remove_unreachable_blocks
from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOptions, simplify_cfg

_FLAGS = {
    "forward-switch-cond": False,
    "switch-range-to-icmp": False,
    "switch-to-lookup": False,
    "keep-loops": True,
    "hoist-common-insts": False,
    "sink-common-insts": False,
    "speculate-blocks": True,
    "simplify-cond-branch": True,
    "speculate-unpredictables": False,
}


def parse_simplify_cfg_options(params: str | None) -> SimplifyCFGOptions:
    """``simplifycfg<...>`` as opt-19's ``parseSimplifyCFGOptions`` reads it."""
    values = parse_flag_and_int_params(
        params, "SimplifyCFG", _FLAGS, {"bonus-inst-threshold": ("bonus-threshold", 1)}
    )
    return SimplifyCFGOptions(
        bonus_inst_threshold=int(values["bonus-inst-threshold"]),
        forward_switch_cond_to_phi=bool(values["forward-switch-cond"]),
        convert_switch_range_to_icmp=bool(values["switch-range-to-icmp"]),
        convert_switch_to_lookup_table=bool(values["switch-to-lookup"]),
        need_canonical_loop=bool(values["keep-loops"]),
        hoist_common_insts=bool(values["hoist-common-insts"]),
        sink_common_insts=bool(values["sink-common-insts"]),
        speculate_blocks=bool(values["speculate-blocks"]),
        simplify_cond_branch=bool(values["simplify-cond-branch"]),
        speculate_unpredictables=bool(values["speculate-unpredictables"]),
    )


def _apply_command_line_overrides(options: SimplifyCFGOptions) -> SimplifyCFGOptions:
    """LLVM ``applyCommandLineOverridesToOptions``: a given option wins over the parameter."""
    pairs = (
        ("bonus-inst-threshold", "bonus_inst_threshold"),
        ("forward-switch-cond", "forward_switch_cond_to_phi"),
        ("switch-range-to-icmp", "convert_switch_range_to_icmp"),
        ("switch-to-lookup", "convert_switch_to_lookup_table"),
        ("keep-loops", "need_canonical_loop"),
        ("hoist-common-insts", "hoist_common_insts"),
        ("sink-common-insts", "sink_common_insts"),
        ("speculate-unpredictables", "speculate_unpredictables"),
    )
    for option, field in pairs:
        if OPTIONS.get(option) is not None and OPTIONS.is_set(option):
            setattr(options, field, OPTIONS.value(option))
    return options


def _tail_merge_blocks_with_similar_function_terminators(fn: Function) -> bool:
    """Merge the blocks ending in ``ret`` (and those ending in ``resume``) into one
    ``common.ret`` / ``common.resume`` block fed by phis ``<block>.op``
    (LLVM ``tailMergeBlocksWithSimilarFunctionTerminators``)."""
    groups: dict[str, list[BasicBlock]] = {}
    for bb in fn.blocks:
        term = bb.terminator
        if term is None or term.successors:
            continue
        if term.opcode not in ("ret", "resume"):
            continue
        if _terminating_musttail_call(bb):
            continue
        prev = term.prev_instruction
        while prev is not None and _is_debug_intrinsic_call(prev):
            prev = prev.prev_instruction
        if prev is not None and prev.opcode == "call":
            callee = getattr(prev, "called_function", None)
            if callee is not None and callee.name.split(".")[:3] == ["llvm", "experimental", "deoptimize"]:
                continue
        if any(op.type.is_token for op in term.operands):
            continue
        groups.setdefault(term.opcode, []).append(bb)
    changed = False
    for blocks in groups.values():
        changed |= _perform_block_tail_merging(fn, blocks)
    return changed


def _is_debug_intrinsic_call(inst: object) -> bool:
    from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call

    return is_debug_or_pseudo_probe_call(inst) and not getattr(inst, "called_function").name == "llvm.pseudoprobe"  # type: ignore[arg-type]


def _terminating_musttail_call(bb: BasicBlock) -> bool:
    """LLVM ``BasicBlock::getTerminatingMustTailCall`` (ret after a musttail call, maybe via a bitcast)."""
    term = bb.terminator
    if term is None or term.opcode != "ret":
        return False
    prev = term.prev_instruction
    if prev is not None and prev.opcode == "bitcast":
        prev = prev.prev_instruction
    return prev is not None and prev.opcode == "call" and getattr(prev, "is_must_tail_call", False) is True


def _perform_block_tail_merging(fn: Function, blocks: list[BasicBlock]) -> bool:
    from llvmpy_mid.ir.debug_loc_merge import get_merged_location
    from llvmpy_mid.ir.metadata import MDNode

    if len(blocks) < 2:
        return False
    first_term = blocks[0].terminator
    assert first_term is not None
    canonical = BasicBlock(fn.context, "common." + first_term.opcode, fn, blocks[0])
    new_ops: list[PHINode] = []
    for op in first_term.operands:
        phi = PHINode(op.type, name=canonical.name + ".op")
        canonical.append(phi)
        new_ops.append(phi)
    canonical_term = first_term.clone()
    canonical.append(canonical_term)
    for i, phi in enumerate(new_ops):
        canonical_term.set_operand(i, phi)
    common_loc: MDNode | None = None
    for bb in blocks:
        term = bb.terminator
        assert term is not None
        for op, phi in zip(term.operands, new_ops):
            phi.add_incoming(op, bb)
        loc = term.debug_loc
        if common_loc is None:
            common_loc = loc
        else:
            common_loc = get_merged_location(common_loc, loc)
        br = BranchInst(canonical)
        bb.append(br)
        br.debug_loc = term.debug_loc
        term.erase_from_parent()
    canonical_term.debug_loc = common_loc
    return True


def _loop_headers(fn: Function) -> set[BasicBlock]:
    """Targets of the function's back edges (LLVM ``FindFunctionBackedges``)."""
    from llvmpy_mid.analysis.cfg import find_function_backedges

    return {to for _, to in find_function_backedges(fn)}


def _iteratively_simplify_cfg(fn: Function, tti: object, options: SimplifyCFGOptions) -> bool:
    changed = False
    local_change = True
    loop_headers = _loop_headers(fn)
    while local_change:
        local_change = False
        bb = fn.blocks[0] if fn.blocks else None
        while bb is not None:
            nxt = bb.next_block
            if simplify_cfg(bb, tti, options, loop_headers):
                local_change = True
            # The block (or the next one) may have been deleted or moved by the step.
            bb = nxt if nxt is not None and nxt.parent is fn else _next_live(fn, bb, nxt)
        changed |= local_change
    return changed


def _next_live(fn: Function, bb: BasicBlock, nxt: BasicBlock | None) -> BasicBlock | None:
    """Where the walk goes on when the next block was deleted by the step: after ``bb``
    if it is still in the function, else nowhere (a new sweep will start)."""
    if nxt is None:
        return None
    if bb.parent is fn:
        return bb.next_block
    return None


def simplify_function_cfg(fn: Function, tti: object, options: SimplifyCFGOptions) -> bool:
    """LLVM ``simplifyFunctionCFGImpl``."""
    ever_changed = remove_unreachable_blocks(fn)
    ever_changed |= _tail_merge_blocks_with_similar_function_terminators(fn)
    ever_changed |= _iteratively_simplify_cfg(fn, tti, options)
    if not ever_changed:
        return False
    if not remove_unreachable_blocks(fn):
        return True
    while True:
        ever_changed = _iteratively_simplify_cfg(fn, tti, options)
        ever_changed |= remove_unreachable_blocks(fn)
        if not ever_changed:
            return True


class SimplifyCFGPass(Pass[Function]):
    """``simplifycfg``: LLVM's CFG canonicaliser."""

    name: ClassVar[str] = "simplifycfg"

    def __init__(self, options: SimplifyCFGOptions | None = None) -> None:
        self.options = _apply_command_line_overrides(options if options is not None else SimplifyCFGOptions())

    @property
    def log_name(self) -> str:
        return "SimplifyCFGPass"

    def pipeline_params(self) -> str:
        """The parameters as ``-print-pipeline-passes`` writes them (LLVM ``printPipeline``),
        command-line overrides applied."""
        o = _apply_command_line_overrides(attrs.evolve(self.options))
        flags = (
            ("forward-switch-cond", o.forward_switch_cond_to_phi),
            ("switch-range-to-icmp", o.convert_switch_range_to_icmp),
            ("switch-to-lookup", o.convert_switch_to_lookup_table),
            ("keep-loops", o.need_canonical_loop),
            ("hoist-common-insts", o.hoist_common_insts),
            ("sink-common-insts", o.sink_common_insts),
            ("speculate-blocks", o.speculate_blocks),
            ("simplify-cond-branch", o.simplify_cond_branch),
            ("speculate-unpredictables", o.speculate_unpredictables),
        )
        parts = ["bonus-inst-threshold=%d" % o.bonus_inst_threshold]
        parts += [("" if on else "no-") + name for name, on in flags]
        return ";".join(parts)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis

        if unit.is_declaration:
            return PreservedAnalyses.all()
        tti = am.get_result(TargetIRAnalysis, unit)
        # The command line's options are in force only while the pipeline runs.
        _apply_command_line_overrides(self.options)
        self.options.ac = am.get_result(AssumptionAnalysis, unit)
        if OPTIONS.get("simplifycfg-require-and-preserve-domtree") is not None and OPTIONS.value(
            "simplifycfg-require-and-preserve-domtree"
        ):
            from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis

            am.get_result(DominatorTreeAnalysis, unit)
        if not simplify_function_cfg(unit, tti, self.options):
            return PreservedAnalyses.all()
        return PreservedAnalyses.none()


__all__ = ["SimplifyCFGPass", "parse_simplify_cfg_options", "simplify_function_cfg"]
