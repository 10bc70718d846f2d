"""Merging the exits of a loop that all reach one block (the last step of
``loop-simplify``).

What: when every exit edge of a loop goes to the same block, each exiting block
with a single predecessor whose conditional branch tests a compare computed in
it is emptied by hoisting its other instructions to the preheader (when they
are safe to speculate and do not read memory, LLVM ``Loop::makeLoopInvariant``),
then its branch is folded into the predecessor's conditional branch (LLVM
``FoldBranchToCommonDest`` with no cost model): the compare is cloned into the
predecessor, the two conditions are combined into ``or.cond`` (``and``/``or``
when the second condition cannot be poison unless the first is, else the
poison-safe ``select`` form), and the emptied block is deleted with the
dominator tree and loop info updated.

How: the speculation and poison questions use a conservative subset of LLVM's
ValueTracking (:func:`is_safe_to_speculatively_execute`, ``impliesPoison``);
when unsure it answers "no", which may leave a block LLVM would fold, or give a
``select`` where LLVM gives ``or``.

What it does not do: branch-weight merging (the predecessor's ``!prof`` is
dropped, as LLVM does without weights on both branches), MemorySSA/SCEV updates.
"""

from __future__ import annotations

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.loop_simplify import _is_debug_or_probe_call, remove_predecessor
from llvmpy_mid.transform.utils.ssa_updater import _guaranteed_not_poison


_NEVER_SPECULATE = frozenset(
    "va_arg alloca invoke callbr phi store ret br indirectbr switch unreachable fence atomicrmw "
    "cmpxchg landingpad resume catchswitch catchpad catchret cleanuppad cleanupret load".split()
)


def _int_operand(v: Value) -> int | None:
    return v.value if isinstance(v, ConstantInt) else None


def is_safe_to_speculatively_execute(inst: Instruction) -> bool:
    """A subset of LLVM's ``isSafeToSpeculativelyExecute`` without context (loads are
    never claimed safe here)."""
    op = inst.opcode
    if op in _NEVER_SPECULATE:
        return False
    if op in ("udiv", "urem"):
        d = _int_operand(inst.get_operand(1))
        return d is not None and d != 0
    if op in ("sdiv", "srem"):
        d = _int_operand(inst.get_operand(1))
        if d is None or d == 0:
            return False
        bits = inst.type.width  # type: ignore[attr-defined]
        if d != (1 << bits) - 1 and d != -1:
            return True
        n = _int_operand(inst.get_operand(0))
        return n is not None and (n & ((1 << bits) - 1)) != 1 << (bits - 1)
    if op == "call":
        fn = inst.called_function  # type: ignore[attr-defined]
        return fn is not None and fn.has_fn_attribute("speculatable")
    return True


def _make_loop_invariant(loop: Loop, value: Value, insert_pt: Instruction | None, changed: list[bool]) -> bool:
    """LLVM ``Loop::makeLoopInvariant``: hoist ``value`` (and its operands) before
    ``insert_pt`` if that is safe; True if it is (now) invariant."""
    if not value.is_instruction:
        return True
    inst: Instruction = value  # type: ignore[assignment]
    if not loop.contains(inst):
        return True
    if not is_safe_to_speculatively_execute(inst) or inst.may_read_from_memory() or inst.is_eh_pad:
        return False
    if insert_pt is None:
        pre = loop.preheader
        if pre is None:
            return False
        insert_pt = pre.terminator
        assert insert_pt is not None
    for op in inst.operands:
        if not _make_loop_invariant(loop, op, insert_pt, changed):
            return False
    inst.move_before(insert_pt)
    inst.drop_unknown_non_debug_metadata()
    changed[0] = True
    return True


def _safe_to_merge_terminators(a: Instruction, b: Instruction) -> bool:
    if a is b:
        return False
    bb_a = a.parent
    bb_b = b.parent
    assert bb_a is not None and bb_b is not None
    succs_a = set(bb_a.successors)
    for succ in bb_b.successors:
        if succ not in succs_a:
            continue
        for phi in succ.phis():
            if phi.incoming_value_for_block(bb_a) is not phi.incoming_value_for_block(bb_b):
                return False
    return True


def _fold_recipe(bi: BranchInst, pbi: BranchInst) -> tuple[BasicBlock, str, bool] | None:
    b0, b1 = bi.get_successor(0), bi.get_successor(1)
    p0, p1 = pbi.get_successor(0), pbi.get_successor(1)
    if p0 is b0:
        return b0, "or", False
    if p1 is b1:
        return b1, "and", False
    if p0 is b1:
        return b1, "and", True
    if p1 is b0:
        return b0, "or", True
    return None


def _can_create_poison(inst: Instruction) -> bool:
    op = inst.opcode
    if op in ("icmp", "freeze", "phi", "udiv", "sdiv", "urem", "srem"):
        return False
    if op in ("fcmp", "select", "fneg"):
        return bool(getattr(inst, "_fmf", 0))
    if isinstance(inst, BinaryOperator) and op not in ("shl", "lshr", "ashr"):
        return bool(getattr(inst, "flags_word", 0)) or bool(getattr(inst, "_fmf", 0))
    if op in ("trunc", "zext", "sext", "bitcast", "ptrtoint", "inttoptr", "fpext", "fptrunc", "sitofp", "uitofp"):
        return bool(getattr(inst, "flags_word", 0))
    return True


def _not_poison(v: Value, depth: int = 0) -> bool:
    """``isGuaranteedNotToBePoison`` without context: structure, then whether the
    program would be undefined right after the definition if it were poison."""
    if depth >= 6:
        return False
    if _guaranteed_not_poison(v):
        return True
    if not v.is_instruction and not v.is_argument:
        return False
    if v.is_instruction:
        inst: Instruction = v  # type: ignore[assignment]
        if inst.is_phi:
            if all(_not_poison(x, depth + 1) for x in inst.operands):
                return True
        elif not _can_create_poison(inst) and all(_not_poison(x, depth + 1) for x in inst.operands):
            return True
    return _program_undefined_if_poison(v)


def _non_poison_operands(inst: Instruction) -> list[Value]:
    """Operands that must not be poison for ``inst`` to be defined (LLVM
    ``handleGuaranteedNonPoisonOps``, the common cases)."""
    op = inst.opcode
    if op in ("store",):
        return [inst.get_operand(1)]
    if op in ("load", "atomicrmw", "cmpxchg"):
        return [inst.get_operand(0)]
    if op in ("udiv", "sdiv", "urem", "srem"):
        return [inst.get_operand(1)]
    if op == "br":
        return [inst.get_operand(0)] if inst.num_operands == 3 else []
    if op == "switch":
        return [inst.get_operand(0)]
    if op in ("call", "invoke", "callbr"):
        out = [inst.callee]  # type: ignore[attr-defined]
        for i, arg in enumerate(inst.args):  # type: ignore[attr-defined]
            if inst.param_has_attr(i, "noundef"):  # type: ignore[attr-defined]
                out.append(arg)
        return out
    if op == "ret" and inst.num_operands:
        fn = inst.function
        if fn is not None and fn.attributes.has_ret_attr("noundef"):
            return [inst.get_operand(0)]
    return []


def _program_undefined_if_poison(v: Value) -> bool:
    """LLVM ``programUndefinedIfPoison``: a use of ``v`` (or of a value poisoned by
    it) that must not be poison follows in its block (and single successors)."""
    if v.is_instruction:
        bb = v.parent  # type: ignore[attr-defined]
        node: Instruction | None = v.next_instruction  # type: ignore[attr-defined]
    else:
        fn = v.parent  # type: ignore[attr-defined]
        if fn.is_declaration:
            return False
        bb = fn.entry_block
        node = bb.first_instruction
    poisoned: set[Value] = {v}
    visited = {bb}
    limit = 32
    while True:
        while node is not None:
            inst = node
            node = node.next_instruction
            if _is_debug_or_probe_call(inst):
                continue
            limit -= 1
            if limit == 0:
                return False
            if any(x in poisoned for x in _non_poison_operands(inst)):
                return True
            if inst.may_throw() or not inst.will_return():
                return False
            for i, x in enumerate(inst.operands):
                if x in poisoned and _propagates_poison(inst, i):
                    poisoned.add(inst)
                    break
            if inst.opcode == "select" and inst.get_operand(1) in poisoned and inst.get_operand(2) in poisoned:
                poisoned.add(inst)
        bb = bb.single_successor
        if bb is None or bb in visited:
            return False
        visited.add(bb)
        node = bb.first_non_phi


def _propagates_poison(user: Instruction, index: int) -> bool:
    op = user.opcode
    if op == "select":
        return index == 0
    if op in ("icmp", "fcmp", "getelementptr", "freeze") or isinstance(user, BinaryOperator):
        return op != "freeze"
    return op in ("trunc", "zext", "sext", "bitcast", "ptrtoint", "inttoptr", "fneg")


def _directly_implies_poison(assumed: Value, v: Value, depth: int) -> bool:
    if assumed is v:
        return True
    if depth >= 2 or not v.is_instruction:
        return False
    inst: Instruction = v  # type: ignore[assignment]
    for i, op in enumerate(inst.operands):
        if _propagates_poison(inst, i) and _directly_implies_poison(assumed, op, depth + 1):
            return True
    return False


def _implies_poison(assumed: Value, v: Value, depth: int = 0) -> bool:
    if _not_poison(assumed):
        return True
    if _directly_implies_poison(assumed, v, 0):
        return True
    if depth >= 2:
        return False
    if assumed.is_instruction and not _can_create_poison(assumed):  # type: ignore[arg-type]
        return all(_implies_poison(op, v, depth + 1) for op in assumed.operands)  # type: ignore[attr-defined]
    return False


def _fold_branch_to_common_dest(bi: BranchInst) -> bool:
    """LLVM ``FoldBranchToCommonDest`` (no cost model, bonus threshold 1) for a block
    holding only its condition and branch."""
    bb = bi.parent
    assert bb is not None
    cond = bi.condition
    if not cond.is_instruction or not cond.has_one_use:
        return False
    if cond.opcode not in ("icmp", "fcmp", "select") and not isinstance(cond, BinaryOperator):  # type: ignore[attr-defined]
        return False
    if bb in bb.successors:
        return False
    preds: list[BasicBlock] = []
    for pred in bb.predecessors:
        pbi = pred.terminator
        if not isinstance(pbi, BranchInst) or not pbi.is_conditional or not _safe_to_merge_terminators(bi, pbi):
            continue
        if _fold_recipe(bi, pbi) is None:
            continue
        preds.append(pred)
    if not preds:
        return False
    bonus = 0
    for inst in bb.instructions:
        if inst is cond or inst.opcode == "br" or _is_debug_or_probe_call(inst):
            continue
        if not is_safe_to_speculatively_execute(inst):
            return False
        bonus += len(preds)
        if bonus > 2:
            return False
        for use in inst.uses:
            user: Instruction = use.user  # type: ignore[assignment]
            if user.is_phi:
                if user.get_incoming_block_for_use(use) is not bb:  # type: ignore[attr-defined]
                    return False
            elif user.parent is not bb or not inst.comes_before(user):
                return False
    if bonus > 1:
        return False
    pbi = preds[0].terminator
    assert isinstance(pbi, BranchInst)
    _perform_fold(bi, pbi)
    return True


def _perform_fold(bi: BranchInst, pbi: BranchInst) -> None:
    bb = bi.parent
    pred = pbi.parent
    assert bb is not None and pred is not None
    recipe = _fold_recipe(bi, pbi)
    assert recipe is not None
    _common, opc, invert = recipe
    loc = pbi.debug_loc
    annotation = bi.get_metadata("annotation")

    def place(inst: Instruction, name: str) -> Instruction:
        inst.insert_before(pbi)
        if name:
            inst.set_name(name)
        if loc is not None:
            inst.debug_loc = loc
        if annotation is not None:
            inst.set_metadata("annotation", annotation)
        return inst

    if invert:
        pcond = pbi.condition
        if pcond.has_one_use and pcond.opcode in ("icmp", "fcmp"):  # type: ignore[attr-defined]
            pcond.predicate = pcond.inverse_predicate  # type: ignore[attr-defined]
        else:
            if isinstance(pcond, ConstantInt):
                pcond = ConstantInt.get(pcond.type, 0 if pcond.value else 1)
            else:
                one = ConstantInt.get(pcond.type, 1)
                pcond = place(BinaryOperator.create("xor", pcond, one), pcond.name + ".not")
            pbi.condition = pcond
        pbi.swap_successors()
    unique_succ = bi.get_successor(0) if pbi.get_successor(0) is bb else bi.get_successor(1)
    for phi in unique_succ.phis():
        phi.add_incoming(phi.incoming_value_for_block(bb), pred)
    pbi.set_metadata("prof", None)
    pbi.set_successor(0 if pbi.get_successor(0) is bb else 1, unique_succ)
    loop_md = bi.get_metadata("llvm.loop")
    if loop_md is not None:
        pbi.set_metadata("llvm.loop", loop_md)
    vmap: dict[Value, Value] = {}
    for inst in list(bb.instructions):
        if inst.is_terminator:
            continue
        clone = inst.clone()
        if not _is_debug_or_probe_call(inst) and pbi.debug_loc is not clone.debug_loc:
            clone.debug_loc = None
        for i, op in enumerate(clone.operands):
            mapped = vmap.get(op)
            if mapped is not None:
                clone.set_operand(i, mapped)
        clone.drop_unknown_non_debug_metadata()
        clone.insert_before(pbi)
        if _is_debug_or_probe_call(inst):
            continue
        name = inst.name
        inst.set_name("")
        clone.set_name(name)
        inst.set_name(clone.name + ".old")
        vmap[inst] = clone
        for use in list(inst.uses):
            user: Instruction = use.user  # type: ignore[assignment]
            if user.is_phi and user.get_incoming_block_for_use(use) is not bb:  # type: ignore[attr-defined]
                use.set(clone)
    bi_cond = vmap[bi.condition]
    lhs = pbi.condition
    if _implies_poison(bi_cond, lhs):
        new_cond: Instruction = BinaryOperator.create(opc, lhs, bi_cond)
    else:
        true_c = ConstantInt.get(lhs.type, 1)
        false_c = ConstantInt.get(lhs.type, 0)
        if opc == "and":
            new_cond = SelectInst(lhs, bi_cond, false_c)
        else:
            new_cond = SelectInst(lhs, true_c, bi_cond)
    place(new_cond, "or.cond")
    pbi.condition = new_cond


def fold_exiting_blocks(
    loop: Loop,
    exiting: list[BasicBlock],
    preheader: BasicBlock | None,
    dt: DominatorTree,
    li: LoopInfo,
    preserve_lcssa: bool,
) -> bool:
    """When all exits of ``loop`` reach one block, hoist what can be hoisted out
    of single-predecessor exiting blocks and fold their branch into the
    predecessor's, deleting the block."""
    unique: BasicBlock | None = None
    for bb in exiting:
        for succ in bb.successors:
            if loop.contains(succ):
                continue
            if unique is None:
                unique = succ
            elif unique is not succ:
                return False
    changed = False
    for bb in exiting:
        if bb.single_predecessor is None:
            continue
        bi = bb.terminator
        if not isinstance(bi, BranchInst) or not bi.is_conditional:
            continue
        ci = bi.condition
        if not ci.is_instruction or ci.opcode not in ("icmp", "fcmp") or ci.parent is not bb:  # type: ignore[attr-defined]
            continue
        all_invariant = True
        any_invariant = [False]
        insert_pt = preheader.terminator if preheader is not None else None
        node = bb.instructions._first
        while node is not bi:
            inst = node
            node = node.next_instruction
            if inst is ci or _is_debug_or_probe_call(inst):
                continue
            if not _make_loop_invariant(loop, inst, insert_pt, any_invariant):
                all_invariant = False
                break
        if any_invariant[0]:
            changed = True
        if not all_invariant:
            continue
        if not _fold_branch_to_common_dest(bi):
            continue
        changed = True
        li.remove_block(bb)
        kids = dt.children(bb)
        parent = dt.idom(bb)
        assert parent is not None
        for kid in reversed(kids):
            dt.change_immediate_dominator(kid, parent)
        dt.erase_node(bb)
        succ0, succ1 = bi.get_successor(0), bi.get_successor(1)
        remove_predecessor(succ0, bb, preserve_lcssa)
        remove_predecessor(succ1, bb, preserve_lcssa)
        for inst in list(bb.instructions):
            inst.drop_all_references()
        for inst in reversed(list(bb.instructions)):
            inst.erase_from_parent()
        bb.erase_from_parent()
    return changed


__all__ = ["fold_exiting_blocks", "is_safe_to_speculatively_execute"]
