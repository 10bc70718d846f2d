"""GVN's use of known equalities: branch conditions, switch cases and
``llvm.assume`` (LLVM 19.1.7 ``llvm/lib/Transforms/Scalar/GVN.cpp``:
``propagateEquality``, ``processAssumeIntrinsic``, ``impliesEquivalanceIfTrue``/
``IfFalse``, ``isOnlyReachableViaThisEdge``).

What: ``propagate_equality(gvn, lhs, rhs, edge, dominates_by_edge)`` replaces
the uses of the younger of two equal values by the older (a constant, then an
argument, is preferred as the replacement; age is the value number) in the code
the edge (or, for an assume, the end of its block) dominates, records the
replacement in the leader table when the edge dominates its end so later value
numbering finds it, and derives more equalities: both operands of a true
``and`` (or false ``or``, logical forms included) are true (false); a true
``icmp eq`` / false ``icmp ne`` (and the floating-point forms that imply
equivalence) equates its operands; and the inverse compare is known false
(true), replacing an existing instance of it. Pointers are only replaced where
``canReplacePointersIfEqual`` allows.

``process_assume_intrinsic`` handles ``assume(false)`` (a store to null marks
the code unreachable; an assume without bundles is then deleted), propagates
``cond == true`` into dominated successors, and fills the in-block replacement
map (the condition is true; a negated condition's operand is false; one side
of an equivalence-implying compare replaces the other).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.loads import can_replace_pointers_if_equal, can_replace_pointers_in_use_if_equal
from llvmpy_mid.analysis.memory_ssa import BEFORE_TERMINATOR, MemoryDef, MemoryUseOrDef
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.ir.constants import ConstantFP, ConstantInt, ConstantPointerNull, PoisonValue
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.transform.scalar.gvn_value_table import NUM_GVN_EQ_PROP
from llvmpy_mid.ir.droppable_uses import is_assume_with_empty_bundle
from llvmpy_mid.transform.utils.local import replace_dominated_uses_with

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.scalar.gvn import GVN

__all__ = ["implies_equivalance_if_false", "implies_equivalance_if_true", "process_assume_intrinsic", "propagate_equality"]

_NNAN = 2
"""The ``nnan`` bit of a fast-math word."""


def _nonzero_fp_constant(v: Value) -> bool:
    return isinstance(v, ConstantFP) and not v.is_zero_value


def implies_equivalance_if_true(cmp: Instruction) -> bool:
    """A true ``cmp`` makes its operands interchangeable (LLVM ``impliesEquivalanceIfTrue``)."""
    pred = cmp.predicate  # type: ignore[attr-defined]
    if pred == Predicate.ICMP_EQ:
        return True
    if pred == Predicate.FCMP_OEQ or (pred == Predicate.FCMP_UEQ and int(cmp.fast_math_flags) & _NNAN):  # type: ignore[attr-defined]
        return _nonzero_fp_constant(cmp.get_operand(0)) or _nonzero_fp_constant(cmp.get_operand(1))
    return False


def implies_equivalance_if_false(cmp: Instruction) -> bool:
    """A false ``cmp`` makes its operands interchangeable (LLVM ``impliesEquivalanceIfFalse``)."""
    pred = cmp.predicate  # type: ignore[attr-defined]
    if pred == Predicate.ICMP_NE:
        return True
    if (pred == Predicate.FCMP_ONE and int(cmp.fast_math_flags) & _NNAN) or pred == Predicate.FCMP_UNE:  # type: ignore[attr-defined]
        return _nonzero_fp_constant(cmp.get_operand(0)) or _nonzero_fp_constant(cmp.get_operand(1))
    return False


def _match_logical(v: Value, is_and: bool) -> tuple[Value, Value] | None:
    """``and a, b`` / ``select a, b, false`` (or ``or`` / ``select a, true, b``) on i1
    (LLVM ``m_LogicalAnd`` / ``m_LogicalOr``)."""
    if not v.is_instruction:
        return None
    op = v.opcode  # type: ignore[attr-defined]
    if op == ("and" if is_and else "or"):
        return v.get_operand(0), v.get_operand(1)  # type: ignore[attr-defined]
    if op == "select":
        c, t, f = v.operands  # type: ignore[attr-defined]
        if c.type is not v.type:
            return None
        if is_and:
            if isinstance(f, ConstantInt) and f.value == 0:
                return c, t
        elif isinstance(t, ConstantInt) and t.value == 1:
            return c, f
    return None


def _is_only_reachable_via_this_edge(end: BasicBlock) -> bool:
    return end.single_predecessor is not None


def propagate_equality(gvn: GVN, lhs: Value, rhs: Value, root: tuple[BasicBlock, BasicBlock], dominates_by_edge: bool) -> bool:
    """LLVM ``propagateEquality``: ``lhs == rhs`` in the code ``root`` dominates."""
    worklist: list[tuple[Value, Value]] = [(lhs, rhs)]
    changed = False
    root_dominates_end = _is_only_reachable_via_this_edge(root[1])
    vn = gvn.vn
    dt = gvn.dt
    dl = gvn.dl
    scope: BasicBlock | tuple[BasicBlock, BasicBlock] = root if dominates_by_edge else root[0]
    while worklist:
        lhs, rhs = worklist.pop()
        if lhs is rhs:
            continue
        if lhs.is_constant and rhs.is_constant:
            continue
        if lhs.is_constant or (lhs.is_argument and not rhs.is_constant):
            lhs, rhs = rhs, lhs
        lvn = vn.lookup_or_add(lhs)
        if (lhs.is_argument and rhs.is_argument) or (lhs.is_instruction and rhs.is_instruction):
            rvn = vn.lookup_or_add(rhs)
            if lvn < rvn:
                lhs, rhs = rhs, lhs
                lvn = rvn
        if root_dominates_end and not rhs.is_instruction and can_replace_pointers_if_equal(lhs, rhs, dl):
            gvn.leader_table.insert(lvn, rhs, root[1])
        if not lhs.has_one_use:
            target = rhs

            def can_replace(use: object, to: Value) -> bool:
                return can_replace_pointers_in_use_if_equal(use, to, dl)

            n = replace_dominated_uses_with(lhs, target, dt, scope, can_replace)
            if n > 0:
                changed = True
                NUM_GVN_EQ_PROP.add(n)
                if gvn.md is not None:
                    gvn.md.invalidate_cached_pointer_info(lhs)
        ty = rhs.type
        if not (ty.is_integer and ty.width == 1):  # type: ignore[attr-defined]
            continue
        if not isinstance(rhs, ConstantInt):
            continue
        is_known_true = rhs.value == 1
        is_known_false = not is_known_true
        ab = _match_logical(lhs, True) if is_known_true else _match_logical(lhs, False)
        if ab is not None:
            worklist.append((ab[0], rhs))
            worklist.append((ab[1], rhs))
            continue
        if lhs.is_instruction and lhs.opcode in ("icmp", "fcmp"):  # type: ignore[attr-defined]
            cmp: Instruction = lhs  # type: ignore[assignment]
            op0 = cmp.get_operand(0)
            op1 = cmp.get_operand(1)
            if (is_known_true and implies_equivalance_if_true(cmp)) or (is_known_false and implies_equivalance_if_false(cmp)):
                worklist.append((op0, op1))
            not_pred = cmp.predicate.inverse  # type: ignore[attr-defined]
            not_val = ConstantInt.get(cmp.type, 1 if is_known_false else 0)
            next_num = vn.next_value_number
            num = vn.lookup_or_add_cmp(cmp.opcode_id, not_pred, op0, op1)
            if num < next_num:
                not_cmp = gvn.find_leader(root[1], num)
                if not_cmp is not None and not_cmp.is_instruction:
                    n = replace_dominated_uses_with(not_cmp, not_val, dt, scope)
                    changed |= n > 0
                    NUM_GVN_EQ_PROP.add(n)
                    if gvn.md is not None:
                        gvn.md.invalidate_cached_pointer_info(not_cmp)
            if root_dominates_end:
                gvn.leader_table.insert(num, not_val, root[1])
            continue
    return changed


def _has_users_in(v: Value, bb: BasicBlock) -> bool:
    for user in v.users:
        if user.is_instruction and user.parent is bb:  # type: ignore[attr-defined]
            return True
    return False


def process_assume_intrinsic(gvn: GVN, assume: Instruction) -> bool:
    """LLVM ``processAssumeIntrinsic``."""
    v = assume.get_operand(0)
    ctx = v.type.context
    if isinstance(v, ConstantInt):
        if v.value == 0:
            i8 = ctx.int_type(8)
            store = StoreInst(PoisonValue.get(i8), ConstantPointerNull.get(ctx.pointer_type(0)), alignment=gvn.dl.abi_alignment(i8))
            store.insert_before(assume)
            if gvn.mssau is not None:
                _add_memory_access_for_store(gvn.mssau, store)
        if is_assume_with_empty_bundle(assume):
            gvn.mark_instruction_for_deletion(assume)
            return True
        return False
    if v.is_constant:
        return False
    true = ConstantInt.get(ctx.int_type(1), 1)
    changed = False
    parent = assume.parent
    assert parent is not None
    for succ in parent.successors:
        changed |= propagate_equality(gvn, v, true, (parent, succ), False)
    gvn.replace_operands_with_map[v] = true
    if v.is_instruction and v.opcode == "xor":  # type: ignore[attr-defined]
        a, b = v.operands  # type: ignore[attr-defined]
        not_v = None
        if _is_all_ones(b):
            not_v = a
        elif _is_all_ones(a):
            not_v = b
        if not_v is not None:
            gvn.replace_operands_with_map[not_v] = ConstantInt.get(ctx.int_type(1), 0)
    if v.is_instruction and v.opcode in ("icmp", "fcmp") and implies_equivalance_if_true(v):  # type: ignore[attr-defined, arg-type]
        cmp_lhs = v.get_operand(0)  # type: ignore[attr-defined]
        cmp_rhs = v.get_operand(1)  # type: ignore[attr-defined]
        if cmp_lhs.is_constant and not cmp_rhs.is_constant:
            cmp_lhs, cmp_rhs = cmp_rhs, cmp_lhs
        if not cmp_lhs.is_instruction and cmp_rhs.is_instruction:
            cmp_lhs, cmp_rhs = cmp_rhs, cmp_lhs
        if (cmp_lhs.is_argument and cmp_rhs.is_argument) or (cmp_lhs.is_instruction and cmp_rhs.is_instruction):
            lvn = gvn.vn.lookup_or_add(cmp_lhs)
            rvn = gvn.vn.lookup_or_add(cmp_rhs)
            if lvn < rvn:
                cmp_lhs, cmp_rhs = cmp_rhs, cmp_lhs
        if cmp_lhs.is_constant and cmp_rhs.is_constant:
            return changed
        if _has_users_in(cmp_lhs, parent):
            gvn.replace_operands_with_map[cmp_lhs] = cmp_rhs
    return changed


def _add_memory_access_for_store(mssau: MemorySSAUpdater, store: StoreInst) -> None:
    """The new store's def goes before the first access of its block not before it
    (before the terminator when none), linked without renaming uses (as LLVM's
    ``processAssumeIntrinsic``)."""
    bb = store.parent
    assert bb is not None
    first_non_dom: MemoryUseOrDef | None = None
    for acc in mssau.get_memory_ssa().get_block_accesses(bb) or ():
        inst = acc.memory_inst if isinstance(acc, MemoryUseOrDef) else None
        if inst is not None and not inst.comes_before(store):
            assert isinstance(acc, MemoryUseOrDef)
            first_non_dom = acc
            break
    if first_non_dom is not None:
        new_def = mssau.create_memory_access_before(store, None, first_non_dom)
    else:
        created = mssau.create_memory_access_in_bb(store, None, bb, BEFORE_TERMINATOR)
        assert created is not None
        new_def = created
    assert isinstance(new_def, MemoryDef)
    mssau.insert_def(new_def, False)


def _is_all_ones(v: Value) -> bool:
    """``v`` is the all-ones constant (LLVM ``m_Not``'s ``m_AllOnes``, splats included)."""
    from llvmpy_mid.analysis.poison_tracking import match_apint

    c = match_apint(v)
    return c is not None and c.is_all_ones_value
