"""``OptimizeXor`` of the ``reassociate`` pass (LLVM Reassociate.cpp): the operands of a xor
tree are split into ``X | C`` / ``X & C`` parts (``XorOpnd``), sorted by the rank of ``X``;
operands over the same ``X``, and one with the constant operand, are combined into an
``and.ra`` mask when that does not add instructions (``CombineXorOpnd``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.scalar.reassociate_ir import Entry, XorOpnd, apint, insert_new, int_const

if TYPE_CHECKING:
    from llvmpy_mid.transform.scalar.reassociate import Reassociator

__all__ = ["optimize_xor"]


def _create_and(before: Instruction, opnd: Value, const: int, mask: int) -> Value | None:
    """LLVM ``createAndInstr``: ``opnd & const`` named ``and.ra`` (None for a zero mask,
    ``opnd`` itself for all ones)."""
    if const == 0:
        return None
    if const == mask:
        return opnd
    new = BinaryOperator.create("and", opnd, int_const(opnd.type, const))
    insert_new(new, before, "and.ra")
    new.debug_loc = before.debug_loc
    return new


def optimize_xor(r: Reassociator, i: Instruction, ops: list[Entry]) -> Value | None:
    """LLVM ``OptimizeXor``: the value of the whole xor when it folds, else None (``ops``
    may have been rewritten)."""
    folded = r.optimize_and_or_xor("xor", ops)
    if folded is not None:
        return folded
    if len(ops) == 1:
        return None
    ty = ops[0][1].type
    mask = (1 << ty.scalar_type.width) - 1  # type: ignore[attr-defined]
    const = 0
    opnds: list[XorOpnd] = []
    for _, v in ops:
        c = apint(v)
        if c is not None:
            const ^= c.value
        else:
            o = XorOpnd(v)
            assert o.symbolic is not None
            o.rank = r.get_rank(o.symbolic)
            opnds.append(o)
    ptrs = sorted(opnds, key=lambda o: o.rank)
    prev: XorOpnd | None = None
    changed = False
    for cur in ptrs:
        if const != 0:
            res = _combine_xor_const(r, i, cur, const, mask)
            if res is not None:
                cv, const = res
                changed = True
                if cv is not None:
                    _reset_xor(cur, cv)
                else:
                    cur.invalidate()
                    continue
        if prev is None or cur.symbolic is not prev.symbolic:
            prev = cur
            continue
        res2 = _combine_xor_pair(r, i, cur, prev, const, mask)
        if res2 is not None:
            cv, const = res2
            prev.invalidate()
            if cv is not None:
                _reset_xor(cur, cv)
                prev = cur
            else:
                cur.invalidate()
                prev = None
            changed = True
    if changed:
        ops.clear()
        for o in opnds:
            if o.symbolic is None:
                continue
            assert o.orig is not None
            ops.append((r.get_rank(o.orig), o.orig))
        if const != 0:
            cc = int_const(ty, const)
            ops.append((r.get_rank(cc), cc))
        if len(ops) == 1:
            return ops[-1][1]
        if not ops:
            return int_const(ty, const)
    return None


def _reset_xor(o: XorOpnd, v: Value) -> None:
    n = XorOpnd(v)
    o.orig = n.orig
    o.symbolic = n.symbolic
    o.const = n.const
    o.is_or = n.is_or
    o.rank = 0


def _combine_xor_const(
    r: Reassociator, i: Instruction, o1: XorOpnd, const: int, mask: int
) -> tuple[Value | None, int] | None:
    """LLVM ``CombineXorOpnd`` with the constant operand: ``(X | C) ^ C`` -> ``X & ~C``;
    the new value (None for zero) and the constant left."""
    if not o1.is_or or o1.const == 0:
        return None
    assert o1.orig is not None and o1.symbolic is not None
    if not o1.orig.has_one_use:
        return None
    c1 = o1.const
    if c1 != const:
        return None
    res = _create_and(i, o1.symbolic, ~c1 & mask, mask)
    const ^= c1
    if isinstance(o1.orig, Instruction):
        r.redo[o1.orig] = None
    return res, const


def _combine_xor_pair(
    r: Reassociator, i: Instruction, o1: XorOpnd, o2: XorOpnd, const: int, mask: int
) -> tuple[Value | None, int] | None:
    """LLVM ``CombineXorOpnd`` of two operands over the same ``X``; None when it would not pay."""
    x = o1.symbolic
    if x is not o2.symbolic:
        return None
    assert x is not None and o1.orig is not None and o2.orig is not None
    dead = 1
    if o1.orig.has_one_use:
        dead += 1
    if o2.orig.has_one_use:
        dead += 1
    if o1.is_or != o2.is_or:
        if o2.is_or:
            o1, o2 = o2, o1
        c1 = o1.const
        c2 = o2.const
        c3 = (~c1 & mask) ^ c2
        if c3 != 0 and c3 != mask:
            new_num = 1 if const else 2
            if new_num > dead:
                return None
        res = _create_and(i, x, c3, mask)
        const ^= c1
    elif o1.is_or:
        c3 = o1.const ^ o2.const
        if c3 != 0 and c3 != mask:
            new_num = 1 if const else 2
            if new_num > dead:
                return None
        res = _create_and(i, x, c3, mask)
        const ^= c3
    else:
        c3 = o1.const ^ o2.const
        res = _create_and(i, x, c3, mask)
    assert o1.orig is not None and o2.orig is not None
    if isinstance(o1.orig, Instruction):
        r.redo[o1.orig] = None
    if isinstance(o2.orig, Instruction):
        r.redo[o2.orig] = None
    return res, const
