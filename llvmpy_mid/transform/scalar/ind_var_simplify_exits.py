"""Loop-exit rewriting of ``indvars`` (LLVM 19.1.7 ``lib/Transforms/Scalar/IndVarSimplify.cpp``):

- :func:`canonicalize_exit_condition` (``canonicalizeExitCondition``): a signed compare of a
  ``zext`` with an invariant in the zext's range becomes unsigned, and an unsigned compare of a
  ``zext`` with such an invariant compares the narrow value with a ``trunc`` in the preheader;
- :func:`optimize_loop_exits` (``optimizeLoopExits``): exits dominating the latch are folded
  when their exact count is zero (the header phis then take their preheader values), when
  another exit must be taken first, or when a dominating exit has the same count; an exit of
  unknown count whose ``icmp`` leaves are invariant during the loop's iterations is rewritten
  with a loop-invariant condition (``optimizeLoopExitWithUnknownExitCount``,
  ``createReplacement``, ``createInvariantCond``);
- :func:`predicate_loop_exits` (``predicateLoopExits``, ``-indvars-predicate-loops``): in a
  loop without side effects whose exits form a dominance chain, each predicatable exit is taken
  iff its exit count equals the loop's backedge-taken count.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    SCEV,
    SCEVCouldNotCompute,
    SCEVTypes,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.pattern_match import m_logical_and, m_logical_or, m_value, match
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS

__all__ = [
    "canonicalize_exit_condition",
    "is_safe_to_expand_with",
    "optimize_loop_exits",
    "predicate_loop_exits",
    "replace_loop_phi_nodes_with_preheader_values",
]

_LOGICAL_AND = m_logical_and(m_value("l"), m_value("r"))
_LOGICAL_OR = m_logical_or(m_value("l"), m_value("r"))


def _invariant(loop: Loop, v: Value) -> bool:
    return not isinstance(v, Instruction) or not loop.contains(v)


def _exit_count(se: Any, loop: Loop, bb: BasicBlock, kind: str = "exact") -> SCEV:
    """``getExitCount`` of the given kind; ScalarEvolutions without kinds answer the exact
    count (a sound bound) for the symbolic maximum."""
    if kind == "exact":
        return se.get_exit_count(loop, bb)  # type: ignore[no-any-return]
    try:
        return se.get_exit_count(loop, bb, kind=kind)  # type: ignore[no-any-return]
    except TypeError:
        return se.get_exit_count(loop, bb)  # type: ignore[no-any-return]


def _wider_type(se: Any, a: Any, b: Any) -> Any:
    return a if se.get_type_size_in_bits(a) >= se.get_type_size_in_bits(b) else b


def _noop_or_zero_extend(se: Any, s: SCEV, ty: Any) -> SCEV:
    if se.get_type_size_in_bits(s.type) == se.get_type_size_in_bits(ty):
        return s
    return se.get_zero_extend_expr(s, ty)  # type: ignore[no-any-return]


def _apply_loop_guards(se: Any, s: SCEV, loop: Loop) -> SCEV:
    fn = getattr(se, "apply_loop_guards", None)
    return fn(s, loop) if fn is not None else s


def _exits_on_true(loop: Loop, exiting: BasicBlock) -> bool:
    return not loop.contains(exiting.successors[0])


# --- canonicalizeExitCondition --------------------------------------------------------------


def _zext_operand(v: Value) -> Value | None:
    if isinstance(v, CastInst) and v.opcode == "zext":
        return v.operands[0]
    return None


def _rhs_fits_narrow(ivs: Any, loop: Loop, exiting: BasicBlock, narrow: Value, rhs: Value) -> bool:
    fn = exiting.parent
    module = fn.parent if fn is not None else None
    assert module is not None
    dl = module.data_layout
    inner = dl.type_size_in_bits(narrow.type)
    outer = dl.type_size_in_bits(rhs.type)
    full = ConstantRange.get_full(inner).zero_extend(outer)
    se = ivs.se
    rhs_cr = se.get_unsigned_range(_apply_loop_guards(se, se.get_scev(rhs), loop))
    return full.contains_range(rhs_cr)


def canonicalize_exit_condition(ivs: Any, loop: Loop) -> bool:
    """LLVM ``IndVarSimplify::canonicalizeExitCondition``."""
    exiting_blocks = loop.exiting_blocks
    changed = False
    for exiting in exiting_blocks:
        bi = exiting.terminator
        if not isinstance(bi, BranchInst) or not bi.is_conditional:
            continue
        icmp = bi.condition
        if not isinstance(icmp, ICmpInst) or not icmp.has_one_use:
            continue
        lhs, rhs = icmp.operands[0], icmp.operands[1]
        if not _invariant(loop, rhs):
            if not _invariant(loop, lhs):
                continue
            lhs, rhs = rhs, lhs
        narrow = _zext_operand(lhs)
        if narrow is None or not icmp.is_signed:
            continue
        if _rhs_fits_narrow(ivs, loop, exiting, narrow, rhs):
            icmp.predicate = icmp.unsigned_predicate
            changed = True
    for exiting in exiting_blocks:
        bi = exiting.terminator
        if not isinstance(bi, BranchInst) or not bi.is_conditional:
            continue
        icmp = bi.condition
        if not isinstance(icmp, ICmpInst) or not icmp.has_one_use or not icmp.is_unsigned:
            continue
        lhs, rhs = icmp.operands[0], icmp.operands[1]
        if _invariant(loop, lhs) == _invariant(loop, rhs):
            continue
        swapped = False
        if _invariant(loop, lhs):
            swapped = True
            lhs, rhs = rhs, lhs
        narrow = _zext_operand(lhs)
        if narrow is None:
            continue
        from llvmpy_mid.analysis.scalar_evolution_expressions import SCEVAddRecExpr

        if not lhs.has_one_use and not isinstance(ivs.se.get_scev(narrow), SCEVAddRecExpr):
            continue
        if not _rhs_fits_narrow(ivs, loop, exiting, narrow, rhs):
            continue
        preheader = loop.preheader
        assert preheader is not None and preheader.terminator is not None
        new_rhs = CastInst.create("trunc", rhs, narrow.type)
        new_rhs.insert_before(preheader.terminator)
        icmp.set_operand(1 if swapped else 0, narrow)
        icmp.set_operand(0 if swapped else 1, new_rhs)
        if not lhs.has_uses:
            ivs.dead_insts.append(lhs)
        changed = True
    return changed


# --- optimizeLoopExits ----------------------------------------------------------------------


def _replace_exit_cond(bi: BranchInst, new_cond: Value, dead: list[Value]) -> None:
    old = bi.condition
    bi.condition = new_cond
    if not old.has_uses:
        dead.append(old)


def _create_folded_exit_cond(loop: Loop, exiting: BasicBlock, is_taken: bool) -> Constant:
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    exit_if_true = _exits_on_true(loop, exiting)
    value = exit_if_true if is_taken else not exit_if_true
    return ConstantInt.get(bi.condition.type, int(value))


def _fold_exit(loop: Loop, exiting: BasicBlock, is_taken: bool, dead: list[Value]) -> None:
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    _replace_exit_cond(bi, _create_folded_exit_cond(loop, exiting, is_taken), dead)


def replace_loop_phi_nodes_with_preheader_values(li: LoopInfo, loop: Loop, dead: list[Value], se: Any) -> None:
    """LLVM ``replaceLoopPHINodesWithPreheaderValues``: the backedge is never taken, so each
    header phi is its preheader input; the loop users of the phis are then simplified."""
    from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    preheader = loop.preheader
    assert preheader is not None
    worklist: list[Instruction] = []
    for pn in list(loop.header.phis()):
        incoming = pn.incoming_value_for_block(preheader)
        worklist.extend(u for u in pn.users if isinstance(u, Instruction))
        se.forget_value(pn)
        pn.replace_all_uses_with(incoming)
        dead.append(pn)
    fn = loop.header.parent
    module = fn.parent if fn is not None else None
    assert module is not None
    sq = SimplifyQuery(module.data_layout)
    visited: set[Instruction] = set()
    while worklist:
        inst = worklist.pop()
        if inst in visited:
            continue
        visited.add(inst)
        if inst.is_erased or not loop.contains(inst):
            continue
        res = simplify_instruction(inst, sq)
        if res is not None and li.replacement_preserves_lcssa_form(inst, res):
            worklist.extend(u for u in inst.users if isinstance(u, Instruction))
            inst.replace_all_uses_with(res)
            dead.append(inst)


def _create_invariant_cond(loop: Loop, exiting: BasicBlock, lip: tuple[Predicate, SCEV, SCEV], rewriter: Any) -> Value:
    """LLVM ``createInvariantCond``: the invariant compare expanded in the preheader."""
    pred, lhs, rhs = lip
    preheader = loop.preheader
    assert preheader is not None and preheader.terminator is not None
    term = preheader.terminator
    lhs_v = rewriter.expand_code_for(lhs, None, term)
    rhs_v = rewriter.expand_code_for(rhs, None, term)
    if _exits_on_true(loop, exiting):
        pred = pred.inverse
    builder = IRBuilder(before=term, folder=ConstantFolder())
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    return builder.create_icmp(pred, lhs_v, rhs_v, bi.condition.name)


def _minus_one(se: Any, s: SCEV) -> SCEV:
    return se.get_minus_scev(s, se.get_one(s.type))  # type: ignore[no-any-return]


def _create_replacement(
    icmp: ICmpInst,
    loop: Loop,
    exiting: BasicBlock,
    max_iter: SCEV,
    inverted: bool,
    skip_last_iter: bool,
    se: Any,
    rewriter: Any,
) -> Value | None:
    """LLVM ``createReplacement``."""
    get_at_scope = getattr(se, "get_scev_at_scope", None)
    evaluate_at = getattr(se, "evaluate_predicate_at", None)
    known_at = getattr(se, "is_known_predicate_at", None)
    first_iters = getattr(se, "get_loop_invariant_exit_cond_during_first_iterations", None)
    if get_at_scope is None or evaluate_at is None or known_at is None or first_iters is None:
        return None
    pred = icmp.predicate
    if inverted:
        pred = pred.inverse
    bi = exiting.terminator
    assert isinstance(bi, BranchInst)
    if not isinstance(icmp.operands[0].type, IntegerType):
        # Pointer compares need pointer-typed SCEV predicates, which ScalarEvolution here
        # does not answer: the exit is left alone.
        return None
    lhss = get_at_scope(icmp.operands[0], loop)
    rhss = get_at_scope(icmp.operands[1], loop)
    ev = evaluate_at(pred, lhss, rhss, bi)
    if ev is not None:
        return _create_folded_exit_cond(loop, exiting, not ev)
    ar_ty = lhss.type
    mi_ty = max_iter.type
    if not isinstance(ar_ty, IntegerType) or not isinstance(mi_ty, IntegerType):
        return None
    if se.get_type_size_in_bits(ar_ty) > se.get_type_size_in_bits(mi_ty):
        max_iter = se.get_zero_extend_expr(max_iter, ar_ty)
    elif se.get_type_size_in_bits(ar_ty) < se.get_type_size_in_bits(mi_ty):
        max_allowed = se.get_zero_extend_expr(se.get_minus_one(ar_ty), mi_ty)
        if known_at(Predicate.ICMP_ULE, max_iter, max_allowed, bi):
            max_iter = se.get_truncate_expr(max_iter, ar_ty)
    if skip_last_iter:
        # A sequential umin (how ScalarEvolution here may keep the symbolic maximum) is the same
        # number as the plain one whenever it is not poison.
        if max_iter.kind in (SCEVTypes.UMIN, SCEVTypes.SEQ_UMIN):
            max_iter = se.get_umin_from_mismatched_types([_minus_one(se, op) for op in max_iter.operands])
        else:
            max_iter = _minus_one(se, max_iter)
    lip = first_iters(pred, lhss, rhss, loop, bi, max_iter)
    if lip is None:
        return None
    if known_at(lip[0], lip[1], lip[2], bi):
        return _create_folded_exit_cond(loop, exiting, False)
    return _create_invariant_cond(loop, exiting, lip, rewriter)


def _exit_limit_symbolic_max(se: Any, loop: Loop, icmp: ICmpInst, inverted: bool) -> SCEV | None:
    """``computeExitLimitFromCond(L, ICmp, Inverted, false).SymbolicMaxNotTaken`` when
    ScalarEvolution offers it."""
    fn = getattr(se, "compute_exit_limit_from_cond", None)
    if fn is not None:
        el = fn(loop, icmp, inverted, False)
    else:
        from llvmpy_mid.analysis import scalar_evolution_exit_limits as limits

        impl = getattr(limits, "_exit_limit_from_cond", None)
        if impl is None:
            return None
        el = impl(se, loop, icmp, inverted, False, {})
    sm = getattr(el, "symbolic_max", None)
    return sm if isinstance(sm, SCEV) else None


def _optimize_loop_exit_with_unknown_exit_count(
    loop: Loop,
    bi: BranchInst,
    exiting: BasicBlock,
    max_iter: SCEV,
    skip_last_iter: bool,
    se: Any,
    rewriter: Any,
    dead: list[Value],
) -> bool:
    """LLVM ``optimizeLoopExitWithUnknownExitCount``."""
    if rewriter is None:
        return False
    inverted = loop.contains(bi.successors[1])
    leaves: list[ICmpInst] = []
    old_cond = bi.condition
    visited: set[Value] = {old_cond}
    worklist: list[Value] = [old_cond]
    pattern = _LOGICAL_OR if inverted else _LOGICAL_AND
    while worklist:
        cur = worklist.pop()
        if not cur.has_one_use:
            continue
        m = match(cur, pattern)
        if m is not None:
            for side in (m.value("l"), m.value("r")):
                if side not in visited:
                    visited.add(side)
                    worklist.append(side)
        elif isinstance(cur, ICmpInst):
            leaves.append(cur)

    failing_on_last: list[ICmpInst] = []
    if not skip_last_iter and len(leaves) > 1 and _exit_count(se, loop, exiting, "symbolic_max") is max_iter:
        for icmp in leaves:
            exit_max = _exit_limit_symbolic_max(se, loop, icmp, inverted)
            if exit_max is None or isinstance(exit_max, SCEVCouldNotCompute):
                continue
            wider = _wider_type(se, exit_max.type, max_iter.type)
            if _noop_or_zero_extend(se, exit_max, wider) is _noop_or_zero_extend(se, max_iter, wider):
                if icmp not in failing_on_last:
                    failing_on_last.append(icmp)

    changed = False
    for old in leaves:
        optimistic = skip_last_iter
        if not optimistic:
            if len(failing_on_last) > 1:
                optimistic = True
            elif len(failing_on_last) == 1:
                optimistic = old not in failing_on_last
        new_cond = _create_replacement(old, loop, exiting, max_iter, inverted, optimistic, se, rewriter)
        if new_cond is None:
            continue
        changed = True
        if isinstance(new_cond, Instruction):
            new_cond.set_name(old.name + ".first_iter")
        old.replace_all_uses_with(new_cond)
        dead.append(old)
        if old in failing_on_last:
            failing_on_last.remove(old)
    return changed


def optimize_loop_exits(ivs: Any, loop: Loop, rewriter: Any) -> bool:
    """LLVM ``IndVarSimplify::optimizeLoopExits``."""
    se, dt, li = ivs.se, ivs.dt, ivs.li
    latch = loop.latch
    assert latch is not None
    kept: list[BasicBlock] = []
    for exiting in loop.exiting_blocks:
        if li.loop_for(exiting) is not loop:
            continue
        bi = exiting.terminator
        if not isinstance(bi, BranchInst) or not bi.is_conditional:
            continue
        if not dt.dominates(exiting, latch):
            continue
        cond = bi.condition
        if isinstance(cond, ConstantInt):
            if not loop.contains(bi.successors[1 if cond.is_zero_value else 0]):
                replace_loop_phi_nodes_with_preheader_values(li, loop, ivs.dead_insts, se)
            continue
        kept.append(exiting)
    if not kept:
        return False
    max_be_count = se.get_symbolic_max_backedge_taken_count(loop)
    if isinstance(max_be_count, SCEVCouldNotCompute):
        return False
    # All kept exits dominate the latch: they are totally ordered by dominance.
    kept = _sort_by_dominance(kept, dt)

    changed = False
    skip_last_iter = False
    curr_max_exit: SCEV = se.get_could_not_compute()

    def update_skip_last_iter(max_exit_count: SCEV) -> None:
        nonlocal skip_last_iter, curr_max_exit
        if skip_last_iter or isinstance(max_exit_count, SCEVCouldNotCompute):
            return
        if isinstance(curr_max_exit, SCEVCouldNotCompute):
            curr_max_exit = max_exit_count
            sequential = max_exit_count
        else:
            sequential = se.get_umin_from_mismatched_types([curr_max_exit, max_exit_count], True)
            curr_max_exit = se.get_umin_from_mismatched_types([curr_max_exit, max_exit_count])
        # ScalarEvolution may keep the symbolic maximum as a sequential umin of the same exit
        # counts, the same number whenever it is not poison.
        if curr_max_exit is max_be_count or sequential is max_be_count:
            skip_last_iter = True

    dominating_exact: set[SCEV] = set()
    for exiting in kept:
        exact = _exit_count(se, loop, exiting)
        max_exit = _exit_count(se, loop, exiting, "symbolic_max")
        if isinstance(exact, SCEVCouldNotCompute):
            bi = exiting.terminator
            assert isinstance(bi, BranchInst)
            if _optimize_loop_exit_with_unknown_exit_count(
                loop, bi, exiting, max_be_count, False, se, rewriter, ivs.dead_insts
            ):
                changed = True
            elif skip_last_iter and _optimize_loop_exit_with_unknown_exit_count(
                loop, bi, exiting, max_be_count, True, se, rewriter, ivs.dead_insts
            ):
                changed = True
            update_skip_last_iter(max_exit)
            continue
        update_skip_last_iter(exact)
        if exact.is_zero():
            _fold_exit(loop, exiting, True, ivs.dead_insts)
            replace_loop_phi_nodes_with_preheader_values(li, loop, ivs.dead_insts, se)
            changed = True
            continue
        if not isinstance(exact.type, IntegerType) or not isinstance(max_be_count.type, IntegerType):
            continue
        wider = _wider_type(se, max_be_count.type, exact.type)
        exact = _noop_or_zero_extend(se, exact, wider)
        max_be_count = _noop_or_zero_extend(se, max_be_count, wider)
        if se.is_loop_entry_guarded_by_cond(loop, Predicate.ICMP_ULT, max_be_count, exact):
            _fold_exit(loop, exiting, False, ivs.dead_insts)
            changed = True
            continue
        if exact in dominating_exact:
            _fold_exit(loop, exiting, False, ivs.dead_insts)
            changed = True
            continue
        dominating_exact.add(exact)
    return changed


def _sort_by_dominance(blocks: list[BasicBlock], dt: Any) -> list[BasicBlock]:
    """Blocks sorted so each properly dominates the later ones (insertion sort: exits are few)."""
    out: list[BasicBlock] = []
    for bb in blocks:
        pos = len(out)
        while pos > 0 and dt.properly_dominates(bb, out[pos - 1]):
            pos -= 1
        out.insert(pos, bb)
    return out


# --- predicateLoopExits ---------------------------------------------------------------------


def is_safe_to_expand_with(rewriter: Any, s: SCEV, se: Any) -> bool:
    """``Rewriter.isSafeToExpand(S)`` (the rewriter's canonical mode decides)."""
    method = getattr(rewriter, "is_safe_to_expand", None)
    if method is not None:
        return bool(method(s))
    from llvmpy_mid.transform.utils.scalar_evolution_expander import is_safe_to_expand

    return bool(is_safe_to_expand(s, se))


def predicate_loop_exits(ivs: Any, loop: Loop, rewriter: Any) -> bool:
    """LLVM ``IndVarSimplify::predicateLoopExits``."""
    if not OPTIONS.value("indvars-predicate-loops") or rewriter is None:
        return False
    se, dt, li = ivs.se, ivs.dt, ivs.li
    exact_btc = se.get_backedge_taken_count(loop)
    if isinstance(exact_btc, SCEVCouldNotCompute) or not is_safe_to_expand_with(rewriter, exact_btc, se):
        return False

    def bad_exit(exiting: BasicBlock) -> bool:
        if li.loop_for(exiting) is not loop:
            return True
        bi = exiting.terminator
        if not isinstance(bi, BranchInst) or not bi.is_conditional:
            return True
        if isinstance(bi.condition, Constant):
            return True
        succs = bi.successors
        exit_block = succs[1] if loop.contains(succs[0]) else succs[0]
        if next(iter(exit_block.phis()), None) is not None:
            return True
        ec = _exit_count(se, loop, exiting)
        return isinstance(ec, SCEVCouldNotCompute) or not is_safe_to_expand_with(rewriter, ec, se)

    exiting_blocks = _sort_exits_for_predication(loop.exiting_blocks, dt)
    for i in range(1, len(exiting_blocks)):
        if not dt.dominates(exiting_blocks[i - 1], exiting_blocks[i]):
            return False
    for i, bb in enumerate(exiting_blocks):
        if bad_exit(bb):
            exiting_blocks = exiting_blocks[:i]
            break
    if not exiting_blocks:
        return False
    for bb in loop.blocks:
        for inst in bb.instructions:
            if inst.may_have_side_effects():
                return False

    changed = False
    preheader = loop.preheader
    assert preheader is not None and preheader.terminator is not None
    term = preheader.terminator
    builder = IRBuilder(before=term, folder=ConstantFolder())
    exact_btc_v: Value | None = None
    for exiting in exiting_blocks:
        ec = _exit_count(se, loop, exiting)
        bi = exiting.terminator
        assert isinstance(bi, BranchInst)
        stays_on_true = loop.contains(bi.successors[0])
        new_cond: Value
        if ec is exact_btc:
            new_cond = ConstantInt.get(bi.condition.type, 0 if stays_on_true else 1)
        else:
            ecv = rewriter.expand_code_for(ec, None, term)
            if exact_btc_v is None:
                exact_btc_v = rewriter.expand_code_for(exact_btc, None, term)
            rhs = exact_btc_v
            assert rhs is not None
            if ecv.type is not rhs.type:
                wider = _wider_type(se, ecv.type, rhs.type)
                ecv = builder.create_zext(ecv, wider)
                rhs = builder.create_zext(rhs, wider)
            pred = Predicate.ICMP_NE if stays_on_true else Predicate.ICMP_EQ
            new_cond = builder.create_icmp(pred, ecv, rhs)
        old = bi.condition
        bi.condition = new_cond
        if not old.has_uses:
            ivs.dead_insts.append(old)
        changed = True
        ivs.run_unswitching = True
    return changed


def _sort_exits_for_predication(blocks: list[BasicBlock], dt: Any) -> list[BasicBlock]:
    """LLVM's comparator: dominating blocks first, blocks unordered by dominance by name."""
    import functools

    def cmp(a: BasicBlock, b: BasicBlock) -> int:
        if a is b:
            return 0
        if dt.properly_dominates(a, b):
            return -1
        if dt.properly_dominates(b, a):
            return 1
        return -1 if a.name < b.name else (1 if a.name > b.name else 0)

    return sorted(blocks, key=functools.cmp_to_key(cmp))
