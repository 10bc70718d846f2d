"""The cost model of the SCEV expander (LLVM 19.1.7 ``ScalarEvolutionExpander.cpp``:
``hasRelatedExistingExpansion``, ``isHighCostExpansion``, ``isHighCostExpansionHelper`` and
``costAndCollectOperands``): each expression node is costed as the instructions its expansion
emits, in the target's cost kind (code size under ``minsize``, else reciprocal throughput), and a
value the loop already computes (an operand of an exit compare, or a value ScalarEvolution maps
to the expression) is free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVTypes,
    SCEVUnknown,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.scalar_evolution_expander_support import cost_int

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.scalar_evolution_expander import SCEVExpander

_CAST_KINDS = (SCEVTypes.TRUNCATE, SCEVTypes.ZERO_EXTEND, SCEVTypes.SIGN_EXTEND, SCEVTypes.PTR_TO_INT)
_MIN_MAX_KINDS = (SCEVTypes.SMAX, SCEVTypes.UMAX, SCEVTypes.SMIN, SCEVTypes.UMIN, SCEVTypes.SEQ_UMIN)


def get_related_existing_expansion(ex: SCEVExpander, s: SCEV, at: Instruction, loop: Loop) -> Value | None:
    """A value computing ``s`` that is available at ``at``: an operand of an exit
    compare of ``loop``, or a value the analysis maps to ``s`` (LLVM
    ``getRelatedExistingExpansion`` / ``hasRelatedExistingExpansion``)."""
    se = ex.se
    for bb in loop.exiting_blocks:
        term = bb.terminator
        if term is None or term.opcode != "br" or len(term.operands) != 3:
            continue
        cond = term.operands[0]
        if not (isinstance(cond, Instruction) and cond.opcode == "icmp"):
            continue
        lhs, rhs = cond.operands[0], cond.operands[1]
        if not (isinstance(lhs, Instruction) and isinstance(rhs, Instruction)):
            continue
        if se.is_scevable(lhs.type) and se.get_scev(lhs) is s and ex.dt.dominates(lhs, at):
            return lhs
        if se.is_scevable(rhs.type) and se.get_scev(rhs) is s and ex.dt.dominates(rhs, at):
            return rhs
    return ex.find_value_in_expr_value_map(s, at, [])

def has_related_existing_expansion(ex: SCEVExpander, s: SCEV, at: Instruction, loop: Loop) -> bool:
    return ex.get_related_existing_expansion(s, at, loop) is not None

def is_high_cost_expansion(
    ex: SCEVExpander, exprs: Sequence[SCEV], loop: Loop, budget: int, tti: Any, at: Instruction
) -> bool:
    """Whether expanding ``exprs`` at ``at`` costs more than ``budget`` basic instructions
    (LLVM ``isHighCostExpansion``); without a TTI every expansion is high-cost."""
    if tti is None:
        return True
    from llvmpy_mid.analysis.target_transform_info import TCC_BASIC

    work: list[tuple[str | None, int, SCEV]] = [(None, -1, e) for e in exprs]
    processed: set[SCEV] = set()
    cost = [0]
    scaled = budget * TCC_BASIC
    while work:
        item = work.pop()
        if _is_high_cost_helper(ex, item, loop, at, cost, scaled, tti, processed, work):
            return True
    return False

def _is_high_cost_helper(
    ex: SCEVExpander,
    item: tuple[str | None, int, SCEV],
    loop: Loop,
    at: Instruction,
    cost: list[int],
    budget: int,
    tti: Any,
    processed: set[SCEV],
    work: list[tuple[str | None, int, SCEV]],
) -> bool:
    if cost[0] > budget:
        return True
    s = item[2]
    if not isinstance(s, SCEVConstant):
        if s in processed:
            return False
        processed.add(s)
    if has_related_existing_expansion(ex, s, at, loop):
        return False
    from llvmpy_mid.analysis.target_transform_info import TCK_CODE_SIZE, TCK_RECIP_THROUGHPUT

    fn = loop.header.parent
    min_size = fn is not None and fn.has_fn_attribute("minsize")
    kind = TCK_CODE_SIZE if min_size else TCK_RECIP_THROUGHPUT
    k = s.kind
    if isinstance(s, SCEVUnknown):
        return False
    if isinstance(s, SCEVConstant):
        if kind != TCK_CODE_SIZE:
            return False
        f = getattr(tti, "get_int_imm_cost_inst", None)
        if f is not None:
            cost[0] += cost_int(f(item[0], item[1], s.value, s.type, kind))
        return cost[0] > budget
    if k is SCEVTypes.UDIV:
        if has_related_existing_expansion(ex, ex.se.get_add_expr([s, ex.se.get_one(s.type)]), at, loop):
            return False
    cost[0] += _cost_and_collect_operands(ex, item, tti, kind, work)
    if k in _CAST_KINDS or k is SCEVTypes.UDIV:
        return False
    return cost[0] > budget

def _cost_and_collect_operands(
    ex: SCEVExpander, item: tuple[str | None, int, SCEV], tti: Any, kind: int, work: list[tuple[str | None, int, SCEV]]
) -> int:
    s = item[2]
    ty = s.type
    assert ty is not None
    operations: list[tuple[str, int, int]] = []
    total = 0

    def cast_cost(opcode: str) -> int:
        operations.append((opcode, 0, 0))
        src = s.operands[0].type
        try:
            return cost_int(tti.get_cast_instr_cost(opcode, ty, src, kind))
        except TypeError:
            return cost_int(tti.get_cast_instr_cost(opcode, ty, src))

    def arith_cost(opcode: str, num: int, lo: int = 0, hi: int = 1) -> int:
        operations.append((opcode, lo, hi))
        return num * cost_int(tti.get_arithmetic_instr_cost(opcode, ty, kind))

    def cmp_sel_cost(opcode: str, num: int, lo: int, hi: int) -> int:
        operations.append((opcode, lo, hi))
        return num * cost_int(tti.get_cmp_sel_instr_cost(opcode, ty, ty.context.i1, kind))

    k = s.kind
    n = len(s.operands)
    if k is SCEVTypes.PTR_TO_INT:
        total = cast_cost("ptrtoint")
    elif k is SCEVTypes.TRUNCATE:
        total = cast_cost("trunc")
    elif k is SCEVTypes.ZERO_EXTEND:
        total = cast_cost("zext")
    elif k is SCEVTypes.SIGN_EXTEND:
        total = cast_cost("sext")
    elif k is SCEVTypes.UDIV:
        rhs = s.operands[1]
        opcode = "udiv"
        if isinstance(rhs, SCEVConstant) and rhs.value and (rhs.value & (rhs.value - 1)) == 0:
            opcode = "lshr"
        total = arith_cost(opcode, 1)
    elif k is SCEVTypes.ADD:
        total = arith_cost("add", n - 1)
    elif k is SCEVTypes.MUL:
        total = arith_cost("mul", n - 1)
    elif k in _MIN_MAX_KINDS:
        total += cmp_sel_cost("icmp", n - 1, 0, 1)
        total += cmp_sel_cost("select", n - 1, 0, 2)
        if k is SCEVTypes.SEQ_UMIN:
            total += cmp_sel_cost("icmp", n - 1, 0, 0)
            total += arith_cost("or", n - 2 if n > 2 else 0)
            total += cmp_sel_cost("select", 1, 0, 1)
    elif isinstance(s, SCEVAddRecExpr):
        num_terms = sum(1 for op in s.operands if not op.is_zero())
        non_one = sum(1 for op in s.operands if not (isinstance(op, SCEVConstant) and op.value <= 1))
        add_cost = arith_cost("add", num_terms - 1, 1, 1)
        mul_cost = arith_cost("mul", non_one)
        total = add_cost + mul_cost
        degree = n - 1
        total += mul_cost * (degree - 1)
    for opcode, lo, hi in operations:
        for idx, op in enumerate(s.operands):
            work.append((opcode, min(max(idx, lo), hi), op))
    return total
