"""Loop rotation: turn a loop with its test at the top into one tested at the bottom (LLVM
19.1.7 ``lib/Transforms/Utils/LoopRotationUtils.cpp``).

What :func:`loop_rotation` does to a loop in simplified form whose header ends in a
conditional branch leaving the loop and whose latch does not exit (or was just folded into
the last exit, or rotating removes a header phi only used by the header's exit, or the latch
exit is a deoptimizing one):

1. :meth:`LoopRotate.simplify_loop_latch` first folds a latch made of one cheap increment
   (and casts) into its exiting single predecessor.
2. :meth:`LoopRotate.rotate_loop` checks the header's size (:mod:`code_metrics`, against the
   threshold; no rotation when not duplicatable, convergent, of invalid cost, or, preparing
   for LTO, calling an inline candidate), then copies the header into the preheader: header
   phis map to their preheader inputs, invariant instructions that touch no memory are
   hoisted, the others cloned, remapped and simplified (``simplify_instruction``); debug
   records go along with their instructions (without duplicating those already at the end of
   the preheader). The preheader now ends in the header's conditional branch; the old
   header's uses outside it are rewritten through the SSA updater (phis where both versions
   meet), the header's successor becomes the header, the dominator tree, MemorySSA and
   ScalarEvolution (``forget_topmost_loop``) are updated, and the preheader branch is folded
   when it is constant, else edges are split to give the loop a preheader and dedicated
   exits again. The old header is finally merged into its predecessor when it can be. Branch
   weights are redistributed between the preheader test and the new latch test.

Statistics (``loop-rotate``): NumNotRotatedDueToHeaderSize, NumInstrsHoisted,
NumInstrsDuplicated, NumRotated.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.analysis.code_metrics import CodeMetrics, ConvergenceKind, collect_ephemeral_values
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, UndefValue
from llvmpy_mid.ir.debug_records import DbgRecord, DbgVariableRecord
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.statistics import Statistic

__all__ = ["LoopRotate", "loop_rotation"]

DEBUG_TYPE = "loop-rotate"
NUM_NOT_ROTATED_DUE_TO_HEADER_SIZE = Statistic(
    DEBUG_TYPE, "NumNotRotatedDueToHeaderSize", "Number of loops not rotated due to the header size"
)
NUM_INSTRS_HOISTED = Statistic(DEBUG_TYPE, "NumInstrsHoisted", "Number of instructions hoisted into loop preheader")
NUM_INSTRS_DUPLICATED = Statistic(
    DEBUG_TYPE, "NumInstrsDuplicated", "Number of instructions cloned into loop preheader"
)
NUM_ROTATED = Statistic(DEBUG_TYPE, "NumRotated", "Number of loops rotated")

declare_option(
    "loop-rotate-multi",
    "bool",
    False,
    "Allow loop rotation multiple times in order to reach a better latch exit",
    DEBUG_TYPE,
)

_ZERO_TRIP_COUNT_WEIGHTS = (1, 127)
_HIGH_BIT = 1 << 31


def _verify_mssa(mssau: Any) -> None:
    if mssau is not None and OPTIONS.value("verify-memoryssa"):
        mssau.mssa.verify_memory_ssa()


def _record_hash(rec: DbgVariableRecord) -> tuple[tuple[int, ...], int, int]:
    return (tuple(id(v) for v in rec.location_values()), id(rec.variable), id(rec.expression))


def _rewrite_uses_of_cloned_instructions(
    orig_header: BasicBlock,
    orig_preheader: BasicBlock,
    value_map: dict[Value, Value],
    se: Any,
    inserted_phis: list[PHINode],
) -> None:
    """LLVM ``RewriteUsesOfClonedInstructions``."""
    from llvmpy_mid.transform.utils.local import find_dbg_records
    from llvmpy_mid.transform.utils.ssa_updater import SSAUpdater

    for phi in list(orig_header.phis()):
        phi.remove_incoming_value(phi.basic_block_index(orig_preheader))
    ssa = SSAUpdater(inserted_phis)
    for orig_val in list(orig_header.instructions):
        if orig_val._use_head is None:
            continue
        pre_val = value_map[orig_val]
        ssa.initialize(orig_val.type, orig_val.name)
        if se is not None:
            se.forget_value(orig_val)
        ssa.add_available_value(orig_header, orig_val)
        ssa.add_available_value(orig_preheader, pre_val)
        for use in list(orig_val.uses):
            user = use.user
            assert isinstance(user, Instruction)
            if not isinstance(user, PHINode):
                user_bb = user.parent
                if user_bb is orig_header:
                    continue
                if user_bb is orig_preheader:
                    use.set(pre_val)
                    continue
            ssa.rewrite_use(use)
        for rec in find_dbg_records(orig_val):
            marked = rec.instruction
            if marked is None:
                continue
            user_bb = marked.parent
            if user_bb is orig_header or user_bb is None:
                continue
            new_val: Value
            if user_bb is orig_preheader:
                new_val = pre_val
            elif ssa.has_value_for_block(user_bb):
                new_val = ssa.get_value_in_middle_of_block(user_bb)
            else:
                new_val = UndefValue.get(orig_val.type)
            rec.replace_variable_location_op(orig_val, new_val)


def _profitable_to_rotate_loop_exiting_latch(loop: Loop) -> bool:
    header = loop.header
    bi = header.terminator
    assert isinstance(bi, BranchInst) and bi.is_conditional
    header_exit = bi.get_successor(0)
    if loop.contains(header_exit):
        header_exit = bi.get_successor(1)
    for phi in header.phis():
        if any(isinstance(u, Instruction) and u.parent is not header_exit for u in phi.users):
            continue
        return True
    return False


def _postdominating_deoptimize_call(bb: BasicBlock) -> Instruction | None:
    from llvmpy_mid.analysis.block_frequency_bpi import terminating_deoptimize_call

    visited = {bb}
    while True:
        succ = bb.unique_successor
        if succ is None:
            break
        if succ in visited:
            return None
        visited.add(succ)
        bb = succ
    return terminating_deoptimize_call(bb)


def _can_rotate_deoptimizing_latch_exit(loop: Loop) -> bool:
    latch = loop.latch
    assert latch is not None
    bi = latch.terminator
    if not isinstance(bi, BranchInst) or not bi.is_conditional:
        return False
    exit_bb = bi.get_successor(1)
    if loop.contains(exit_bb):
        exit_bb = bi.get_successor(0)
    if _postdominating_deoptimize_call(exit_bb) is None:
        return False
    exits = loop.unique_exit_blocks
    return any(_postdominating_deoptimize_call(e) is None for e in exits)


def _update_branch_weights(
    pre_bi: Instruction, loop_bi: Instruction, has_conditional_preheader: bool, swapped: bool
) -> None:
    """LLVM ``updateBranchWeights``."""
    from llvmpy_mid.ir.prof_data_utils import extract_branch_weights_md, set_branch_weights

    md = pre_bi.get_metadata("prof")
    if md is None or not _is_branch_weights(md):
        return
    if md is not loop_bi.get_metadata("prof"):
        return
    weights = extract_branch_weights_md(md)
    if weights is None or len(weights) != 2:
        return
    exit_w, back_w = weights[0] & 0xFFFFFFFF, weights[1] & 0xFFFFFFFF
    if swapped:
        exit_w, back_w = back_w, exit_w
    if exit_w > 0 and back_w > 0:
        exit0 = 0
        if has_conditional_preheader:
            if back_w >= exit_w:
                exit0 = _ZERO_TRIP_COUNT_WEIGHTS[0]
                while exit_w < _ZERO_TRIP_COUNT_WEIGHTS[1] + exit0:
                    if back_w & _HIGH_BIT or exit_w & _HIGH_BIT:
                        break
                    back_w <<= 1
                    exit_w <<= 1
            else:
                exit0 = exit_w - back_w
        elif exit_w > back_w:
            back_w = exit_w
        exit1 = exit_w - exit0
        enter = exit1
        loop_back = back_w - enter
    elif exit_w == 0:
        if back_w == 0:
            exit0 = exit1 = enter = loop_back = 0
        else:
            exit0 = exit1 = 0
            enter = 1
            loop_back = back_w
    else:
        exit0 = exit1 = 1
        enter = loop_back = 0
    set_branch_weights(loop_bi, [loop_back, exit1] if swapped else [exit1, loop_back], False)
    if has_conditional_preheader:
        set_branch_weights(pre_bi, [enter, exit0] if swapped else [exit0, enter], False)


def _is_branch_weights(md: Any) -> bool:
    ops = md.operands
    if not ops or ops[0] is None or not getattr(ops[0], "is_md_string", False):
        return False
    return bool(ops[0].string == "branch_weights")


def _clone_records_from(
    dest: Instruction, src: Instruction, start: DbgRecord | None, value_map: dict[Value, Value], seen: set[Any]
) -> None:
    """Copy ``src``'s debug records from ``start`` on to before ``dest`` (after its own),
    remapped through ``value_map``; copies of records already in ``seen`` are dropped."""
    recs = src.dbg_records
    if start is None or start not in recs:
        return
    for rec in recs[recs.index(start):]:
        copy = rec.clone()
        dest.add_dbg_record(copy)
        if isinstance(copy, DbgVariableRecord):
            for old in copy.location_values():
                new = value_map.get(old)
                if new is not None and new is not old:
                    copy.replace_variable_location_op(old, new)
            addr = copy.address_value if copy.is_dbg_assign else None
            if addr is not None:
                new_addr = value_map.get(addr)
                if new_addr is not None:
                    copy.set_address_value(new_addr)
            if _record_hash(copy) in seen:
                copy.erase_from_parent()


class LoopRotate:
    """One rotation job (LLVM ``LoopRotate``)."""

    def __init__(
        self,
        max_header_size: int,
        li: LoopInfo,
        tti: Any,
        ac: Any,
        dt: Any,
        se: Any,
        mssau: Any,
        sq: SimplifyQuery,
        rotation_only: bool,
        is_util_mode: bool,
        prepare_for_lto: bool,
    ) -> None:
        self.max_header_size = max_header_size
        self.li = li
        self.tti = tti
        self.ac = ac
        self.dt = dt
        self.se = se
        self.mssau = mssau
        self.sq = sq
        self.rotation_only = rotation_only
        self.is_util_mode = is_util_mode
        self.prepare_for_lto = prepare_for_lto

    # --- the checks ---------------------------------------------------------------------------
    def _header_too_costly(self, loop: Loop, header: BasicBlock) -> bool:
        eph = collect_ephemeral_values(loop, self.ac)
        metrics = CodeMetrics()
        metrics.analyze_basic_block(header, self.tti, eph, self.prepare_for_lto)
        if metrics.not_duplicatable or metrics.convergence != ConvergenceKind.NONE:
            return True
        if not metrics.num_insts.is_valid:
            return True
        if metrics.num_insts > self.max_header_size:
            NUM_NOT_ROTATED_DUE_TO_HEADER_SIZE.add()
            return True
        return self.prepare_for_lto and metrics.num_inline_candidates > 0

    def rotate_loop(self, loop: Loop, simplified_latch: bool) -> bool:
        """LLVM ``rotateLoop``: True if the loop was rotated."""
        if loop.num_blocks == 1:
            return False
        rotated = False
        while True:
            if not self._rotate_once(loop, simplified_latch):
                return rotated
            rotated = True
            simplified_latch = False
            if not (OPTIONS.value("loop-rotate-multi") and _can_rotate_deoptimizing_latch_exit(loop)):
                return True

    def _rotate_once(self, loop: Loop, simplified_latch: bool) -> bool:
        from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
        from llvmpy_mid.transform.utils.basic_block_utils import (
            CriticalEdgeSplittingOptions,
            fold_single_entry_phi_nodes,
            merge_block_into_predecessor,
            remove_predecessor,
            remove_redundant_dbg_instrs,
            split_critical_edge,
        )

        li, dt, se, mssau = self.li, self.dt, self.se, self.mssau
        orig_header = loop.header
        orig_latch = loop.latch
        bi = orig_header.terminator
        if not isinstance(bi, BranchInst) or bi.is_unconditional:
            return False
        if not loop.is_loop_exiting(orig_header):
            return False
        if orig_latch is None:
            return False
        if (
            loop.is_loop_exiting(orig_latch)
            and not simplified_latch
            and not self.is_util_mode
            and not _profitable_to_rotate_loop_exiting_latch(loop)
            and not _can_rotate_deoptimizing_latch_exit(loop)
        ):
            return False
        if self._header_too_costly(loop, orig_header):
            return False
        orig_preheader = loop.preheader
        if orig_preheader is None or not loop.has_dedicated_exits:
            return False
        if se is not None:
            se.forget_topmost_loop(loop)
            se.forget_block_and_loop_dispositions()
        _verify_mssa(mssau)

        exit_bb = bi.get_successor(0)
        new_header = bi.get_successor(1)
        swapped = loop.contains(exit_bb)
        if swapped:
            exit_bb, new_header = new_header, exit_bb
        fold_single_entry_phi_nodes(new_header)

        value_map: dict[Value, Value] = {}
        value_map_mssa: dict[Value, Value] = {}
        insts = list(orig_header.instructions)
        idx = 0
        while idx < len(insts) and isinstance(insts[idx], PHINode):
            phi = insts[idx]
            assert isinstance(phi, PHINode)
            value_map[phi] = phi.incoming_value_for_block(orig_preheader)
            idx += 1
        entry_br = orig_preheader.terminator
        assert entry_br is not None
        seen: set[Any] = set()
        for rec in entry_br.dbg_records:
            if isinstance(rec, DbgVariableRecord):
                seen.add(_record_hash(rec))
        noalias_decls = [
            i for i in insts if getattr(i, "intrinsic_name", None) == "llvm.experimental.noalias.scope.decl"
        ]
        fn = orig_header.parent
        presplit = fn is not None and fn.has_fn_attribute("presplitcoroutine")
        next_start: DbgRecord | None = None
        if idx < len(insts):
            recs = insts[idx].dbg_records
            next_start = recs[0] if recs else None
        while idx < len(insts):
            inst = insts[idx]
            idx += 1
            nxt = insts[idx] if idx < len(insts) else None
            if (
                _has_loop_invariant_operands(loop, inst)
                and not inst.may_read_from_memory()
                and not inst.may_write_to_memory()
                and not inst.is_terminator
                and not _is_dbg_intrinsic(inst)
                and inst.opcode != "alloca"
                and not presplit
            ):
                if next_start is not None:
                    _clone_records_from(entry_br, inst, next_start, value_map, seen)
                nrecs = nxt.dbg_records if nxt is not None else []
                next_start = nrecs[0] if nrecs else None
                inst.move_before(entry_br)
                _adopt_records(inst, entry_br)
                NUM_INSTRS_HOISTED.add()
                continue
            c = inst.clone()
            c.insert_before(entry_br)
            _adopt_records(c, entry_br)
            NUM_INSTRS_DUPLICATED.add()
            if next_start is not None:
                _clone_records_from(c, inst, next_start, value_map, seen)
                next_start = None
            _remap(c, value_map)
            v = simplify_instruction(c, self.sq.get_with_instruction(c))
            keep: Instruction | None = c
            if v is not None and li.replacement_preserves_lcssa_form(c, v):
                value_map[inst] = v
                if not c.may_have_side_effects():
                    c.erase_from_parent()
                    keep = None
            else:
                value_map[inst] = c
            if keep is not None:
                if inst.name:
                    keep.name = inst.name
                if getattr(keep, "intrinsic_name", None) == "llvm.assume" and self.ac is not None:
                    self.ac.register_assumption(keep)
                if mssau is not None:
                    value_map_mssa[inst] = keep

        if noalias_decls:
            self._duplicate_noalias_scopes(noalias_decls, orig_header, new_header, orig_preheader, value_map)

        for succ in orig_header.successors:
            for phi in list(succ.phis()):
                phi.add_incoming(phi.incoming_value_for_block(orig_header), orig_preheader)
        trailing = entry_br.take_dbg_records()
        entry_br.erase_from_parent()
        new_term = orig_preheader.terminator
        if new_term is not None:
            for rec in trailing:
                new_term.add_dbg_record(rec)

        if mssau is not None:
            value_map_mssa[orig_header] = orig_preheader
            mssau.update_for_cloned_block_into_pred(orig_header, orig_preheader, value_map_mssa)

        inserted_phis: list[PHINode] = []
        _rewrite_uses_of_cloned_instructions(orig_header, orig_preheader, value_map, se, inserted_phis)
        if inserted_phis:
            _insert_debug_values_for_phis(orig_header, inserted_phis)

        loop.move_to_header(new_header)

        if dt is not None:
            updates = [("insert", orig_preheader, exit_bb), ("insert", orig_preheader, new_header),
                       ("delete", orig_preheader, orig_header)]
            if mssau is not None:
                # LLVM's applyUpdates order: the insertions first, then the deleted edge
                # (deleting first would let the old header's trivial phi be replaced by a def
                # it dominates).
                dt.apply_updates(updates)
                mssau.apply_insert_updates(updates[:2], dt)
                mssau.remove_edge(orig_preheader, orig_header)
                _verify_mssa(mssau)
            else:
                dt.apply_updates(updates)

        phbi = orig_preheader.terminator
        assert isinstance(phbi, BranchInst) and phbi.is_conditional
        cond = phbi.condition
        has_conditional_preheader = not isinstance(cond, ConstantInt) or (
            phbi.get_successor(1 if cond.is_zero else 0) is not new_header
        )
        _update_branch_weights(phbi, bi, has_conditional_preheader, swapped)

        if has_conditional_preheader:
            opts = CriticalEdgeSplittingOptions(dt, li, preserve_lcssa=True, mssau=mssau)
            new_ph = split_critical_edge(phbi, _succ_index(phbi, new_header), opts)
            if new_ph is not None:
                new_ph.name = new_header.name + ".lr.ph"
            for exit_pred in list(exit_bb.predecessors):
                pred_loop = li.loop_for(exit_pred)
                term = exit_pred.terminator
                if pred_loop is None or pred_loop.contains(exit_bb) or term is None or term.opcode == "indirectbr":
                    continue
                opts = CriticalEdgeSplittingOptions(dt, li, preserve_lcssa=True, mssau=mssau)
                split = split_critical_edge(term, _succ_index(term, exit_bb), opts)
                if split is not None:
                    split.move_before(exit_bb)
        else:
            remove_predecessor(exit_bb, orig_preheader, keep_one_input_phis=True)
            new_bi = BranchInst(new_header)
            new_bi.insert_before(phbi)
            _adopt_records(new_bi, phbi)
            loc = phbi.get_metadata("dbg")
            if loc is not None:
                new_bi.set_metadata("dbg", loc)
            phbi.erase_from_parent()
            if dt is not None:
                dt.delete_edge(orig_preheader, exit_bb)
            if mssau is not None:
                mssau.remove_edge(orig_preheader, exit_bb)
        _verify_mssa(mssau)

        dtu = DomTreeUpdater(dt, strategy="eager") if dt is not None else None
        pred_bb = orig_header.unique_predecessor
        if merge_block_into_predecessor(orig_header, dtu, li, mssau=mssau) and pred_bb is not None:
            remove_redundant_dbg_instrs(pred_bb)
        _verify_mssa(mssau)
        NUM_ROTATED.add()
        return True

    def _duplicate_noalias_scopes(
        self,
        decls: list[Instruction],
        orig_header: BasicBlock,
        new_header: BasicBlock,
        orig_preheader: BasicBlock,
        value_map: dict[Value, Value],
    ) -> None:
        """Clone the header's ``llvm.experimental.noalias.scope.decl`` calls into the new header
        and give the old header and the copied instructions fresh scopes."""
        insert_pt = new_header.first_non_phi
        for decl in decls:
            copy = decl.clone()
            if insert_pt is not None:
                copy.insert_before(insert_pt)
        scopes = [_scope_list(d) for d in decls]
        scope_lists = [sc for sc in scopes if sc is not None]
        clone_and_adapt_noalias_scopes(scope_lists, list(orig_header.instructions), "h.rot")
        first = value_map.get(decls[0])
        assert isinstance(first, Instruction)
        span: list[Instruction] = []
        node: Instruction | None = first
        while node is not None:
            span.append(node)
            node = node.next_instruction
        clone_and_adapt_noalias_scopes(scope_lists, span, "pre.rot")

    # --- the latch --------------------------------------------------------------------------------
    def simplify_loop_latch(self, loop: Loop) -> bool:
        """LLVM ``simplifyLoopLatch``: fold a cheap latch into its exiting predecessor."""
        from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
        from llvmpy_mid.transform.utils.basic_block_utils import merge_block_into_predecessor

        latch = loop.latch
        if latch is None or latch.has_address_taken:
            return False
        jmp = latch.terminator
        if not isinstance(jmp, BranchInst) or not jmp.is_unconditional:
            return False
        last_exit = latch.single_predecessor
        if last_exit is None or not loop.is_loop_exiting(last_exit):
            return False
        if not isinstance(last_exit.terminator, BranchInst):
            return False
        if not _should_speculate_instrs(list(latch.instructions)[:-1], loop):
            return False
        dtu = DomTreeUpdater(self.dt, strategy="eager") if self.dt is not None else None
        merge_block_into_predecessor(latch, dtu, self.li, predecessor_with_two_successors=True, mssau=self.mssau)
        if self.se is not None:
            self.se.forget_block_and_loop_dispositions()
        _verify_mssa(self.mssau)
        return True

    def process_loop(self, loop: Loop) -> bool:
        """LLVM ``processLoop``."""
        loop_md = loop.loop_id
        simplified_latch = False
        if not self.rotation_only:
            simplified_latch = self.simplify_loop_latch(loop)
        made_change = self.rotate_loop(loop, simplified_latch)
        if (made_change or simplified_latch) and loop_md is not None:
            _set_loop_id(loop, loop_md)
        return made_change or simplified_latch


def _scope_list(decl: Instruction) -> Any:
    from llvmpy_mid.ir.metadata import MetadataAsValue

    op = decl.get_operand(0)
    md = op.metadata if isinstance(op, MetadataAsValue) else None
    return md if md is not None and getattr(md, "is_md_node", False) else None


def clone_and_adapt_noalias_scopes(scope_lists: list[Any], insts: list[Instruction], ext: str) -> None:
    """LLVM ``cloneAndAdaptNoAliasScopes``: a fresh anonymous scope (same domain, name
    ``<name>:<ext>``) for every scope the declarations name, and those scopes replaced in
    the declarations, ``!noalias`` and ``!alias.scope`` of ``insts``."""
    from llvmpy_mid.ir.metadata import MDNode, MDString, MDTuple, MetadataAsValue

    if not scope_lists:
        return
    ctx = insts[0].type.context if insts else None
    if ctx is None:
        return
    cloned: dict[int, Any] = {}
    for scope_list in scope_lists:
        for md in scope_list.operands:
            if md is None or not getattr(md, "is_md_node", False):
                continue
            ops = md.operands
            domain = ops[1] if len(ops) > 1 else None
            name_md = ops[2] if len(ops) > 2 else None
            scope_name = name_md.string if isinstance(name_md, MDString) else ""
            name = "%s:%s" % (scope_name, ext) if scope_name else ext
            new = MDTuple.distinct(ctx, [None, domain, MDString.get(ctx, name)])
            new.replace_operand_with(0, new)
            cloned.setdefault(id(md), new)

    def clone_list(lst: Any) -> MDNode | None:
        needs = False
        out: list[Any] = []
        for md in lst.operands:
            if md is not None and getattr(md, "is_md_node", False):
                new = cloned.get(id(md))
                if new is not None:
                    out.append(new)
                    needs = True
                    continue
                out.append(md)
        return MDNode.get(ctx, out) if needs else None

    for inst in insts:
        if getattr(inst, "intrinsic_name", None) == "llvm.experimental.noalias.scope.decl":
            lst = _scope_list(inst)
            if lst is not None:
                new_list = clone_list(lst)
                if new_list is not None:
                    inst.set_operand(0, MetadataAsValue.get(ctx, new_list))
        for kind in ("noalias", "alias.scope"):
            md = inst.get_metadata(kind)
            if md is not None:
                new_list = clone_list(md)
                if new_list is not None:
                    inst.set_metadata(kind, new_list)


def _adopt_records(inst: Instruction, frm: Instruction) -> None:
    """``inst`` was just put before ``frm``: the debug records before ``frm`` now precede
    ``inst`` (LLVM 19's insertion at an instruction's iterator)."""
    if frm._dbg_records:
        for rec in frm.take_dbg_records():
            inst.add_dbg_record(rec)


def _succ_index(term: Instruction, succ: BasicBlock) -> int:
    for i, s in enumerate(term.successors):
        if s is succ:
            return i
    raise AssertionError("not a successor")


def _set_loop_id(loop: Loop, md: Any) -> None:
    header = loop.header
    for bb in loop.blocks:
        term = bb.terminator
        if term is not None and any(s is header for s in term.successors):
            term.set_metadata("llvm.loop", md)


def _has_loop_invariant_operands(loop: Loop, inst: Instruction) -> bool:
    for op in inst.operands:
        if isinstance(op, Instruction) and loop.contains(op):
            return False
    return True


def _is_dbg_intrinsic(inst: Instruction) -> bool:
    name = getattr(inst, "intrinsic_name", None)
    return name is not None and name in ("llvm.dbg.value", "llvm.dbg.declare", "llvm.dbg.assign", "llvm.dbg.label")


def _remap(c: Instruction, value_map: dict[Value, Value]) -> None:
    from llvmpy_mid.ir.cloning import remap_instruction

    remap_instruction(c, value_map)


def _insert_debug_values_for_phis(bb: BasicBlock, inserted_phis: list[PHINode]) -> None:
    """LLVM ``insertDebugValuesForPHIs`` (debug records): a new phi taking a phi of ``bb``
    that a record in ``bb`` describes gets a copy of that record (one per destination block
    and record, naming every such new phi) at its block's first insertion point."""
    dbg_map: dict[Value, DbgVariableRecord] = {}
    for inst in bb.instructions:
        for rec in inst.dbg_records:
            if isinstance(rec, DbgVariableRecord):
                for v in rec.location_values():
                    if isinstance(v, PHINode) and v not in dbg_map:
                        dbg_map[v] = rec
    if not dbg_map:
        return
    new_map: dict[tuple[BasicBlock, DbgVariableRecord], DbgVariableRecord] = {}
    for phi in inserted_phis:
        parent = phi.parent
        if parent is None:
            continue
        first = parent.first_non_phi
        if first is None or first.is_eh_pad:
            continue
        for v in phi.incoming_values:
            old = dbg_map.get(v)
            if old is None:
                continue
            key = (parent, old)
            new = new_map.get(key)
            if new is None:
                cloned = old.clone()
                assert isinstance(cloned, DbgVariableRecord)
                new = new_map[key] = cloned
            if any(x is v for x in new.location_values()):
                new.replace_variable_location_op(v, phi)
    for (parent, _), rec in new_map.items():
        dest = parent.first_insertion_point
        assert dest is not None
        existing = dest.dbg_records
        dest.add_dbg_record(rec, existing[0] if existing else None)


def _should_speculate_instrs(insts: list[Instruction], loop: Loop) -> bool:
    """LLVM ``shouldSpeculateInstrs``: one cheap arithmetic increment plus casts."""
    from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute

    seen_increment = False
    multi_exit = loop.exiting_block is None
    for inst in insts:
        if not is_safe_to_speculatively_execute(inst):
            return False
        if _is_dbg_intrinsic(inst):
            continue
        op = inst.opcode
        if op in ("trunc", "zext", "sext"):
            continue
        if op == "getelementptr":
            if not inst.has_all_constant_indices:  # type: ignore[attr-defined]
                return False
        elif op not in ("add", "sub", "and", "or", "xor", "shl", "lshr", "ashr"):
            return False
        a, b = inst.get_operand(0), inst.get_operand(1)
        iv: Value | None = a if not a.is_constant else (b if not b.is_constant else None)
        if iv is None:
            return False
        if multi_exit:
            for u in iv.users:
                if isinstance(u, Instruction) and not loop.contains(u):
                    return False
        if seen_increment:
            return False
        seen_increment = True
    return True


def loop_rotation(
    loop: Loop,
    li: LoopInfo,
    tti: Any,
    ac: Any,
    dt: Any,
    se: Any,
    mssau: Any,
    sq: SimplifyQuery,
    rotation_only: bool = True,
    threshold: int = 0xFFFFFFFF,
    is_util_mode: bool = True,
    prepare_for_lto: bool = False,
) -> bool:
    """Rotate ``loop`` (LLVM ``llvm::LoopRotation``); True when the IR changed."""
    lr = LoopRotate(threshold, li, tti, ac, dt, se, mssau, sq, rotation_only, is_util_mode, prepare_for_lto)
    return lr.process_loop(loop)
