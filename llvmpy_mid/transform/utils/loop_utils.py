"""Loop utilities shared by loop transforms (LLVM 19.1.7 ``lib/Transforms/Utils/LoopUtils.cpp``:
``deleteDeadLoop``, ``breakLoopBackedge``, ``rewriteLoopExitValues``; ``lib/Analysis/LoopInfo.cpp``:
``hasMustProgress``, ``isMustProgress``, ``isFinite``, ``LoopInfo::erase`` and its ``UnloopUpdater``;
``include/llvm/Analysis/CFG.h``: ``containsIrreducibleCFG``).

- :func:`delete_dead_loop` removes a loop whose results are not needed: its preheader branches
  to the unique exit (or ends in ``unreachable`` when the loop has no exit), the exit phis take
  their value from the preheader, one debug record per variable moves to the exit, the blocks
  are deleted and the loop leaves LoopInfo (its sub-loops with it). The dominator tree,
  ScalarEvolution and MemorySSA are kept up to date.
- :func:`break_loop_backedge` makes the latch stop branching to the header; the loop is erased
  from LoopInfo (sub-loops move to the parent) and LCSSA is rebuilt on the outermost loop.
- :func:`rewrite_loop_exit_values` is ``rewriteLoopExitValues``: LCSSA exit values that
  ScalarEvolution computes are expanded after the loop (SCEV expander), per ``-replexitval``
  mode, skipping high-cost expansions (unless the loop can then be deleted) and values with
  side-effecting users in the loop.
- :func:`erase_loop` is LLVM's ``LoopInfo::erase``: blocks and sub-loops of a loop that is no
  longer a loop go to the innermost enclosing loop that still contains them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.terminators import BranchInst

if TYPE_CHECKING:
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "break_loop_backedge",
    "contains_irreducible_cfg",
    "delete_dead_loop",
    "erase_loop",
    "function_must_progress",
    "get_boolean_loop_attribute",
    "has_must_progress",
    "is_finite",
    "is_must_progress",
    "rewrite_loop_exit_values",
]


def get_boolean_loop_attribute(loop: Loop, name: str) -> bool:
    """LLVM ``getBooleanLoopAttribute``: the option ``name`` of the loop id is present with no
    value or with a non-zero integer."""
    loop_id = loop.loop_id
    if loop_id is None:
        return False
    for md in loop_id.operands[1:]:
        if md is None or not getattr(md, "is_md_node", False):
            continue
        ops = md.operands  # type: ignore[attr-defined]
        if not ops:
            continue
        first = ops[0]
        if not getattr(first, "is_md_string", False) or getattr(first, "string", None) != name:
            continue
        if len(ops) == 1:
            return True
        value = getattr(ops[1], "value", None)
        return isinstance(value, ConstantInt) and value.value != 0
    return False


def has_must_progress(loop: Loop) -> bool:
    return get_boolean_loop_attribute(loop, "llvm.loop.mustprogress")


def function_must_progress(fn: Any) -> bool:
    """LLVM ``Function::mustProgress``: ``mustprogress`` or ``willreturn``."""
    return bool(fn.has_fn_attribute("mustprogress") or fn.has_fn_attribute("willreturn"))


def is_must_progress(loop: Loop) -> bool:
    fn = loop.header.parent
    assert fn is not None
    return function_must_progress(fn) or has_must_progress(loop)


def is_finite(loop: Loop) -> bool:
    fn = loop.header.parent
    assert fn is not None
    return fn.has_fn_attribute("willreturn")


def contains_irreducible_cfg(rpo: Iterable[BasicBlock], li: LoopInfo) -> bool:
    """Whether an edge reaches an already visited block that is not the header of a loop
    containing its source (LLVM ``containsIrreducibleCFG`` over a reverse post-order)."""
    visited: set[BasicBlock] = set()
    for bb in rpo:
        visited.add(bb)
        for succ in bb.successors:
            if succ not in visited:
                continue
            lp = li.loop_for(bb)
            while lp is not None and lp.header is not succ:
                lp = lp.parent_loop
            if lp is None:
                return True
    return False


def _debug_variable_key(rec: Any) -> tuple[Any, ...]:
    expr = rec.expression
    fragment = getattr(expr, "fragment", None)
    loc = rec.debug_loc
    inlined = getattr(loc, "inlined_at", None) if loc is not None else None
    return (rec.variable, fragment, inlined)


def _move_dbg_records(old: Instruction, new: Instruction) -> None:
    """The debug records before ``old`` go before ``new`` (which replaces it)."""
    for rec in old.take_dbg_records():
        new.add_dbg_record(rec)


def delete_dead_loop(loop: Loop, dt: DominatorTree | None, se: Any, li: LoopInfo | None, mssa: Any = None) -> None:
    """Remove ``loop`` (LLVM ``deleteDeadLoop``): it must have a preheader ending in an
    unconditional branch and at most one exit block (dedicated)."""
    from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.ir.instructions.terminators import UnreachableInst

    preheader = loop.preheader
    assert preheader is not None, "Preheader should exist!"
    mssau = MemorySSAUpdater(mssa) if mssa is not None else None
    verify_mssa = mssa is not None and bool(OPTIONS.value("verify-memoryssa"))
    if se is not None:
        se.forget_loop(loop)
        se.forget_block_and_loop_dispositions()
    old_term = preheader.terminator
    assert old_term is not None and len(old_term.successors) == 1
    header = loop.header
    exits = loop.unique_exit_blocks
    exit_block = exits[0] if len(exits) == 1 else None
    dtu = DomTreeUpdater(dt, strategy="eager") if dt is not None else None
    ctx = header.type.context
    if exit_block is not None:
        cond_br = BranchInst(header, exit_block, ConstantInt.get(ctx.i1, 0))
        cond_br.insert_before(old_term)
        cond_br.debug_loc = old_term.debug_loc
        _move_dbg_records(old_term, cond_br)
        old_term.erase_from_parent()
        for phi in list(exit_block.phis()):
            phi.set_incoming_block(0, preheader)
            phi.remove_incoming_value_if(lambda idx: idx != 0, False)
        if dtu is not None:
            assert dt is not None
            dtu.apply_updates([("insert", preheader, exit_block)])
            if mssau is not None:
                mssau.apply_updates([("insert", preheader, exit_block)], dt)
                if verify_mssa:
                    mssa.verify_memory_ssa()
        br = BranchInst(exit_block)
        br.insert_before(cond_br)
        br.debug_loc = cond_br.debug_loc
        _move_dbg_records(cond_br, br)
        cond_br.erase_from_parent()
    else:
        ui = UnreachableInst(ctx)
        ui.insert_before(old_term)
        _move_dbg_records(old_term, ui)
        old_term.erase_from_parent()
    if dtu is not None:
        assert dt is not None
        dtu.apply_updates([("delete", preheader, header)])
        if mssau is not None:
            mssau.apply_updates([("delete", preheader, header)], dt)
            mssau.remove_blocks(list(loop.blocks))
            if verify_mssa:
                mssa.verify_memory_ssa()
    if exit_block is not None:
        seen: set[tuple[Any, ...]] = set()
        dead_records: list[Any] = []
        for block in loop.blocks:
            for inst in block.instructions:
                poison = None
                for use in list(inst.uses):
                    user = use.user
                    if isinstance(user, Instruction) and user.parent is not None and loop.contains(user.parent):
                        continue
                    if poison is None:
                        poison = PoisonValue.get(inst.type)
                    use.set(poison)
                for rec in inst.dbg_records:
                    if not getattr(rec, "is_variable_record", False):
                        continue
                    key = _debug_variable_key(rec)
                    if key in seen:
                        continue
                    seen.add(key)
                    rec.remove_from_parent()
                    dead_records.append(rec)
        if dead_records:
            insert_at = exit_block.first_insertion_point
            assert insert_at is not None
            existing = insert_at.dbg_records
            before = existing[0] if existing else None
            for rec in dead_records:
                insert_at.add_dbg_record(rec, before)
    for block in loop.blocks:
        for inst in block.instructions:
            inst.drop_all_references()
    if li is not None:
        for block in list(loop.blocks):
            block._drop_address_taken_uses()
            block.erase_from_parent()
        for block in set(loop.blocks):
            li.remove_block(block)
        parent = loop.parent_loop
        if parent is not None:
            parent.remove_child_loop(loop)
        else:
            li.remove_top_level_loop(loop)


def erase_loop(li: LoopInfo, unloop: Loop) -> None:
    """LLVM ``LoopInfo::erase``: ``unloop`` is no longer a loop; its blocks and sub-loops go
    to the innermost enclosing loop that still contains them (one that they can reach the
    header of without leaving it)."""
    if unloop.parent_loop is None:
        for bb in unloop.blocks:
            if li.loop_for(bb) is unloop:
                li.change_loop_for(bb, None)
        li.remove_top_level_loop(unloop)
        while unloop.sub_loops:
            child = unloop.sub_loops[-1]
            unloop.remove_child_loop(child)
            li.add_top_level_loop(child)
        return
    ancestors: list[Loop] = []
    anc: Loop | None = unloop.parent_loop
    while anc is not None:
        ancestors.append(anc)
        anc = anc.parent_loop
    reach: dict[Loop, set[BasicBlock]] = {a: _blocks_reaching_header(a) for a in ancestors}

    def new_parent_of(bb: BasicBlock) -> Loop | None:
        for a in ancestors:
            if bb in reach[a]:
                return a
        return None

    # Blocks directly in the unloop.
    for bb in list(unloop.blocks):
        owner = li.loop_for(bb)
        if owner is unloop:
            target = new_parent_of(bb)
            li.change_loop_for(bb, target)
        elif owner is not None and unloop.contains(owner):
            sub = owner
            while sub.parent_loop is not unloop:
                assert sub.parent_loop is not None
                sub = sub.parent_loop
            target = new_parent_of(sub.header)
        else:
            continue
        for a in ancestors:
            if a is target:
                break
            if bb in a.block_set:
                a.remove_block_from_loop(bb)
    # Sub-loops move to their new parent.
    parent = unloop.parent_loop
    assert parent is not None
    for child in list(unloop.sub_loops):
        unloop.remove_child_loop(child)
        target = new_parent_of(child.header)
        if target is None:
            li.add_top_level_loop(child)
        else:
            target.add_child_loop(child)
    parent.remove_child_loop(unloop)


def _blocks_reaching_header(loop: Loop) -> set[BasicBlock]:
    """Blocks of ``loop`` from which its header is reachable inside the loop."""
    header = loop.header
    seen: set[BasicBlock] = set()
    stack = [p for p in header.predecessors if p in loop.block_set]
    while stack:
        bb = stack.pop()
        if bb in seen:
            continue
        seen.add(bb)
        if bb is header:
            continue
        for p in bb.predecessors:
            if p in loop.block_set and p not in seen:
                stack.append(p)
    seen.add(header)
    return seen


def break_loop_backedge(loop: Loop, dt: DominatorTree, se: Any, li: LoopInfo, mssa: Any = None) -> None:
    """Make the latch of ``loop`` stop branching to its header (LLVM ``breakLoopBackedge``)."""
    from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
    from llvmpy_mid.transform.utils.basic_block_utils import split_edge
    from llvmpy_mid.transform.utils.lcssa import form_lcssa_recursively
    from llvmpy_mid.transform.utils.local import change_to_unreachable

    latch = loop.latch
    assert latch is not None, "multiple latches not yet supported"
    header = loop.header
    outermost = loop
    while outermost.parent_loop is not None:
        outermost = outermost.parent_loop
    se.forget_loop(loop)
    se.forget_block_and_loop_dispositions()
    mssau = MemorySSAUpdater(mssa) if mssa is not None else None
    term = latch.terminator
    assert term is not None
    done = False
    if isinstance(term, BranchInst):
        if not term.is_conditional:
            dtu = DomTreeUpdater(dt, strategy="eager")
            if mssau is not None:
                mssau.change_to_unreachable(term)
            change_to_unreachable(term, True, dtu)
            done = True
        elif loop.is_loop_exiting(latch):
            succs = term.successors
            exit_idx = 1 if loop.contains(succs[0]) else 0
            exit_bb = succs[exit_idx]
            from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

            remove_predecessor(header, latch, True)
            new_br = BranchInst(exit_bb)
            new_br.insert_before(term)
            _move_dbg_records(term, new_br)
            for kind in ("dbg", "annotation"):
                md = term.get_metadata(kind)
                if md is not None:
                    new_br.set_metadata(kind, md)
            term.erase_from_parent()
            DomTreeUpdater(dt, strategy="eager").apply_updates([("delete", latch, header)])
            if mssau is not None:
                mssau.apply_updates([("delete", latch, header)], dt)
            done = True
    if not done:
        backedge_bb = split_edge(latch, header, dt, li)
        assert backedge_bb is not None
        bterm = backedge_bb.terminator
        assert bterm is not None
        if mssau is not None:
            mssau.change_to_unreachable(bterm)
        change_to_unreachable(bterm, True, DomTreeUpdater(dt, strategy="eager"))
    erase_loop(li, loop)
    if outermost is not loop:
        if form_lcssa_recursively(outermost, dt, li):
            se.forget_loop(outermost)


# --- rewriteLoopExitValues ---------------------------------------------------------------------

REPLACE_EXIT_VALUE_MODES = ("never", "cheap", "noharduse", "unusedindvar", "always")
"""LLVM ``ReplaceExitVal`` (``-replexitval=``); ``"noinvariant"`` is accepted for ``"noharduse"``."""


def _has_hard_user_within_loop(loop: Loop, inst: Instruction) -> bool:
    """Some instruction of ``loop`` reached from ``inst`` through its users may have side
    effects (LLVM ``hasHardUserWithinLoop``)."""
    visited: set[Instruction] = {inst}
    work = [inst]
    while work:
        cur = work.pop()
        if not loop.contains(cur):
            continue
        if cur.may_have_side_effects():
            return True
        for user in cur.users:
            if isinstance(user, Instruction) and user not in visited:
                visited.add(user)
                work.append(user)
    return False


def _induction_bin_op(phi: Any, loop: Loop, se: Any) -> tuple[bool, Instruction | None]:
    """Whether ``phi`` is an induction phi of ``loop`` (LLVM ``checkIsIndPhi`` with
    ``InductionDescriptor::isInductionPHI`` for integer and pointer recurrences) and its
    update binary operator."""
    from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVAddRecExpr, SCEVConstant
    from llvmpy_mid.ir.instructions.binary import BinaryOperator
    from llvmpy_mid.ir.instructions.other import PHINode

    if not isinstance(phi, PHINode) or loop.preheader is None or phi.parent is not loop.header:
        return False, None
    if not (phi.type.is_integer or phi.type.is_pointer):
        return False, None
    ar = se.get_scev(phi)
    if not isinstance(ar, SCEVAddRecExpr) or ar.loop is not loop or not ar.is_affine():
        return False, None
    step = ar.operands[1]
    if not isinstance(step, SCEVConstant) and not se.is_loop_invariant(step, loop):
        return False, None
    latch = loop.latch
    if latch is None:
        return False, None
    be = phi.incoming_value_for_block(latch)
    return True, be if isinstance(be, BinaryOperator) else None


def _can_loop_be_deleted(loop: Loop, rewrites: list[tuple[Any, int, Any, Instruction, bool]]) -> bool:
    """LLVM ``canLoopBeDeleted`` of ``rewriteLoopExitValues``."""
    from llvmpy_mid.ir.instructions.other import PHINode

    if loop.preheader is None:
        return False
    exiting = loop.exiting_blocks
    exits = loop.unique_exit_blocks
    if len(exits) != 1 or len(exiting) != 1:
        return False
    for p in exits[0].phis():
        assert isinstance(p, PHINode)
        incoming = p.incoming_value_for_block(exiting[0])
        found = any(pn is p and pn.get_incoming_value(i) is incoming for pn, i, _s, _at, _h in rewrites)
        if not found and isinstance(incoming, Instruction):
            if not all(not (isinstance(op, Instruction) and loop.contains(op)) for op in incoming.operands):
                return False
    for bb in loop.blocks:
        for inst in bb.instructions:
            if inst.may_have_side_effects():
                return False
    return True


def rewrite_loop_exit_values(
    loop: Loop,
    li: LoopInfo,
    tli: Any,
    se: Any,
    tti: Any,
    rewriter: Any,
    dt: DominatorTree,
    mode: str,
    dead: list[Any],
) -> int:
    """Replace the LCSSA exit values of ``loop`` that ScalarEvolution computes by their
    expansion after the loop; returns how many incoming values were rewritten (LLVM
    ``rewriteLoopExitValues``). ``mode`` is ``-replexitval``'s: ``never``, ``cheap`` (only
    cheap expansions unless the loop can then be deleted), ``noharduse`` (skip values used
    by side effects in the loop unless they are constants or opaque), ``unusedindvar``
    (only IVs used by nothing but their update and the exit), ``always``."""
    from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVConstant, SCEVCouldNotCompute, SCEVUnknown
    from llvmpy_mid.ir.instructions.binary import BinaryOperator
    from llvmpy_mid.ir.instructions.other import PHINode
    from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead
    from llvmpy_mid.transform.utils.scalar_evolution_expander_support import (
        cheap_expansion_budget,
        evaluate_at_iteration,
    )

    if mode == "noinvariant":
        mode = "noharduse"
    if mode not in REPLACE_EXIT_VALUE_MODES:
        expected = ", ".join(REPLACE_EXIT_VALUE_MODES)
        raise ValueError("unknown exit value replacement mode %r (expected one of %s)" % (mode, expected))
    if mode == "never":
        return 0
    budget = cheap_expansion_budget()

    def safe(s: Any) -> bool:
        f = getattr(rewriter, "is_safe_to_expand", None)
        return bool(f(s)) if f is not None else True

    def usable(s: Any) -> bool:
        return not isinstance(s, SCEVCouldNotCompute) and bool(se.is_loop_invariant(s, loop)) and safe(s)

    rewrites: list[tuple[PHINode, int, Any, Instruction, bool]] = []
    for exit_bb in loop.unique_exit_blocks:
        first = exit_bb.first_instruction
        if not isinstance(first, PHINode):
            continue
        num_preds = first.num_incoming
        for pn in list(exit_bb.phis()):
            if not pn.has_uses or not se.is_scevable(pn.type):
                continue
            for i in range(min(num_preds, pn.num_incoming)):
                in_val = pn.get_incoming_value(i)
                if not isinstance(in_val, Instruction):
                    continue
                if li.loop_for(pn.get_incoming_block(i)) is not loop:
                    continue
                inst = in_val
                if not loop.contains(inst):
                    continue
                if mode == "unusedindvar":
                    if isinstance(inst, PHINode):
                        ok, bin_op = _induction_bin_op(inst, loop, se)
                        if not ok:
                            continue
                        if any(
                            not isinstance(u, (PHINode, BinaryOperator))
                            or (isinstance(u, BinaryOperator) and u is not bin_op)
                            for u in inst.users
                        ):
                            continue
                    else:
                        if not isinstance(inst, BinaryOperator):
                            continue
                        bad = False
                        bin_op = None
                        for u in inst.users:
                            if u is pn:
                                continue
                            ok, bop = _induction_bin_op(u, loop, se)
                            if not ok:
                                bad = True
                                break
                            bin_op = bop
                        if bad or inst is not bin_op:
                            continue
                exit_value = se.get_scev_at_scope(inst, loop.parent_loop)
                if not usable(exit_value):
                    exit_count = se.get_exit_count(loop, pn.get_incoming_block(i))
                    if isinstance(exit_count, SCEVCouldNotCompute):
                        continue
                    from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVAddRecExpr

                    ar = se.get_scev(inst)
                    if isinstance(ar, SCEVAddRecExpr) and ar.loop is loop:
                        ev = evaluate_at_iteration(se, ar, exit_count)
                        exit_value = ev if ev is not None else se.get_could_not_compute()
                    if not usable(exit_value):
                        continue
                if (
                    mode != "always"
                    and not isinstance(exit_value, (SCEVConstant, SCEVUnknown))
                    and _has_hard_user_within_loop(loop, inst)
                ):
                    continue
                high_cost = rewriter.is_high_cost_expansion([exit_value], loop, budget, tti, inst)
                if isinstance(inst, PHINode) or inst.opcode == "landingpad":
                    block = inst.parent
                    assert block is not None
                    at = block.first_insertion_point
                    assert at is not None
                else:
                    at = inst
                rewrites.append((pn, i, exit_value, at, high_cost))

    can_delete = _can_loop_be_deleted(loop, rewrites)
    num_replaced = 0
    for pn, i, exit_value, at, high_cost in rewrites:
        if mode in ("cheap", "unusedindvar") and not can_delete and high_cost:
            continue
        exit_val = rewriter.expand_code_for(exit_value, pn.type, at)
        num_replaced += 1
        old = pn.get_incoming_value(i)
        pn.set_incoming_value(i, exit_val)
        se.forget_value(pn)
        if isinstance(old, Instruction) and is_instruction_trivially_dead(old, tli):
            dead.append(old)
        if pn.num_incoming == 1 and li.replacement_preserves_lcssa_form(pn, exit_val):
            pn.replace_all_uses_with(exit_val)
            pn.erase_from_parent()
    if hasattr(rewriter, "clear_insert_point"):
        rewriter.clear_insert_point()
    return num_replaced
