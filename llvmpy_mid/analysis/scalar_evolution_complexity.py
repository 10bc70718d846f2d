"""The operand order of commutative SCEV expressions (LLVM 19.1.7
``lib/Analysis/ScalarEvolution.cpp``: ``CompareValueComplexity``, ``CompareSCEVComplexity`` and
``GroupByComplexity``).

What: operands are sorted by node kind first (constants first), then, among nodes of one kind,
by a loose structural order: values of unknowns by pointer-ness, LLVM value kind, argument
number, global name, loop depth and operand count; constants by width and value; recurrences by
the dominance of their loops' headers (outer loops last); other nodes lexicographically on their
operands. Operands that compare equal are kept in creation order (LLVM keeps their input
order, which would make one sum of two such operands two different nodes here).
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import TYPE_CHECKING

from llvmpy_mid.analysis.scalar_evolution_expressions import SCEV, SCEVAddRecExpr, SCEVConstant, SCEVTypes, SCEVUnknown

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Value

__all__ = ["group_by_complexity"]

MAX_SCEV_COMPARE_DEPTH = 32
MAX_VALUE_COMPARE_DEPTH = 2
_INSTRUCTION_BASE = 1000


def _value_id(v: Value) -> int:
    """The position of ``v``'s kind in LLVM's ``Value::ValueTy`` enumeration (order only)."""
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.function import Argument
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.structural_hash import OPCODE_NUMBERS
    from llvmpy_mid.transform.utils.function_comparator_constants import value_kind

    if isinstance(v, Argument):
        return 0
    if isinstance(v, BasicBlock):
        return 1
    if isinstance(v, Instruction):
        return _INSTRUCTION_BASE + OPCODE_NUMBERS.get(v.opcode, 0)
    if isinstance(v, Constant):
        kind = value_kind(v)
        if kind >= 100:
            from llvmpy_mid.ir.constant_expr import ConstantExpr

            kind = 5 if isinstance(v, ConstantExpr) else 100
        return 10 + kind
    return 500


def _compare_values(li: LoopInfo, lv: Value, rv: Value, depth: int) -> int:
    from llvmpy_mid.ir.function import Argument
    from llvmpy_mid.ir.global_value import GlobalValue
    from llvmpy_mid.ir.instruction import Instruction

    if depth > MAX_VALUE_COMPARE_DEPTH or lv is rv:
        return 0
    lp, rp = lv.type.is_pointer, rv.type.is_pointer
    if lp != rp:
        return int(lp) - int(rp)
    lid, rid = _value_id(lv), _value_id(rv)
    if lid != rid:
        return lid - rid
    if isinstance(lv, Argument) and isinstance(rv, Argument):
        return lv.arg_no - rv.arg_no
    if isinstance(lv, GlobalValue) and isinstance(rv, GlobalValue):
        if not lv.linkage.is_local and not rv.linkage.is_local:
            return -1 if lv.name < rv.name else (1 if lv.name > rv.name else 0)
    if isinstance(lv, Instruction) and isinstance(rv, Instruction):
        lb, rb = lv.parent, rv.parent
        if lb is not rb and lb is not None and rb is not None:
            ld, rd = li.loop_depth(lb), li.loop_depth(rb)
            if ld != rd:
                return ld - rd
        ln, rn = len(lv.operands), len(rv.operands)
        if ln != rn:
            return ln - rn
        for a, b in zip(lv.operands, rv.operands):
            r = _compare_values(li, a, b, depth + 1)
            if r:
                return r
    return 0


def compare_complexity(li: LoopInfo, dt: DominatorTree, lhs: SCEV, rhs: SCEV, depth: int = 0) -> int:
    """Negative when ``lhs`` sorts before ``rhs``, 0 when the order is not decided."""
    if lhs is rhs:
        return 0
    lk, rk = lhs.kind, rhs.kind
    if lk is not rk:
        return int(lk) - int(rk)
    if depth > MAX_SCEV_COMPARE_DEPTH:
        return 0
    if isinstance(lhs, SCEVUnknown) and isinstance(rhs, SCEVUnknown):
        return _compare_values(li, lhs.value, rhs.value, depth + 1)
    if isinstance(lhs, SCEVConstant) and isinstance(rhs, SCEVConstant):
        if lhs.bit_width != rhs.bit_width:
            return lhs.bit_width - rhs.bit_width
        return -1 if lhs.value < rhs.value else 1
    if lk is SCEVTypes.VSCALE:
        return 0
    if isinstance(lhs, SCEVAddRecExpr) and isinstance(rhs, SCEVAddRecExpr) and lhs.loop is not rhs.loop:
        if dt.dominates_block(lhs.loop.header, rhs.loop.header):
            return 1
        return -1
    lops, rops = lhs.operands, rhs.operands
    if len(lops) != len(rops):
        return len(lops) - len(rops)
    for a, b in zip(lops, rops):
        r = compare_complexity(li, dt, a, b, depth + 1)
        if r:
            return r
    return 0


def group_by_complexity(ops: list[SCEV], li: LoopInfo, dt: DominatorTree) -> list[SCEV]:
    """``ops`` in LLVM's ``GroupByComplexity`` order (equal operands adjacent)."""
    if len(ops) < 2:
        return ops
    # Ties are broken by creation order (LLVM keeps the input order), so that one set of
    # operands always gives one uniqued node.
    ops = sorted(ops, key=lambda s: s.serial)
    if len(ops) == 2:
        a, b = ops
        return [b, a] if compare_complexity(li, dt, b, a) < 0 else [a, b]
    def cmp(x: SCEV, y: SCEV) -> int:
        if compare_complexity(li, dt, x, y) < 0:
            return -1
        return 1 if compare_complexity(li, dt, y, x) < 0 else 0

    out = sorted(ops, key=cmp_to_key(cmp))
    # Duplicates of one node next to each other.
    n = len(out)
    i = 0
    while i < n - 2:
        s = out[i]
        j = i + 1
        while j < n and out[j].kind is s.kind:
            if out[j] is s:
                out[i + 1], out[j] = out[j], out[i + 1]
                i += 1
                if i == n - 2:
                    return out
            j += 1
        i += 1
    return out
