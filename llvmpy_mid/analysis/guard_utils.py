"""Queries about guards and widenable branches (LLVM 19.1.7 ``lib/Analysis/GuardUtils.cpp``).

- :func:`is_guard`: a call of ``llvm.experimental.guard``.
- :func:`is_widenable_condition`: a call of ``llvm.experimental.widenable.condition``.
- :func:`parse_widenable_branch`: a conditional ``br`` whose single-use condition is the
  widenable condition itself, or an ``and`` instruction with a single-use widenable condition
  as one operand; the answer names the uses of the condition and of the widenable condition
  (:class:`WidenableBranch`).
- :func:`is_widenable_branch`, :func:`is_guard_as_widenable_branch` (the deopt side reaches
  ``llvm.experimental.deoptimize`` through side-effect-free blocks), :func:`parse_widenable_guard`
  (the checks of a guard or widenable branch, ``and`` trees split) and
  :func:`extract_widenable_condition`.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Use, Value

__all__ = [
    "GUARD",
    "WIDENABLE_CONDITION",
    "WidenableBranch",
    "extract_widenable_condition",
    "is_guard",
    "is_guard_as_widenable_branch",
    "is_widenable_branch",
    "is_widenable_condition",
    "parse_widenable_branch",
    "parse_widenable_guard",
]

GUARD = "llvm.experimental.guard"
WIDENABLE_CONDITION = "llvm.experimental.widenable.condition"
DEOPTIMIZE = "llvm.experimental.deoptimize"


def _is_intrinsic_call(v: object, base: str) -> bool:
    return isinstance(v, CallInst) and v.intrinsic_base == base


def is_guard(v: object) -> bool:
    """``v`` calls ``llvm.experimental.guard`` (LLVM ``isGuard``)."""
    return _is_intrinsic_call(v, GUARD)


def is_widenable_condition(v: object) -> bool:
    """``v`` calls ``llvm.experimental.widenable.condition`` (LLVM ``isWidenableCondition``)."""
    return _is_intrinsic_call(v, WIDENABLE_CONDITION)


class WidenableBranch:
    """The parts of a widenable branch: ``condition`` is the use of the other ``and`` operand
    (None for ``br (widenable.condition())``), ``widenable_condition`` the use holding the
    widenable condition, and the two destinations."""

    __slots__ = ("branch", "condition", "widenable_condition", "if_true", "if_false")

    def __init__(
        self, branch: BranchInst, condition: Use | None, widenable_condition: Use, if_true: BasicBlock, if_false: BasicBlock
    ) -> None:
        self.branch = branch
        self.condition = condition
        self.widenable_condition = widenable_condition
        self.if_true = if_true
        self.if_false = if_false


def parse_widenable_branch(v: object) -> WidenableBranch | None:
    """LLVM ``parseWidenableBranch``: ``br (wc())`` or ``br (and A, wc())`` / ``br (and wc(), B)``
    with single-use conditions; None for anything else."""
    if not isinstance(v, BranchInst) or not v.is_conditional:
        return None
    cond = v.condition
    if not cond.has_one_use:
        return None
    if_true = v.get_successor(0)
    if_false = v.get_successor(1)
    if is_widenable_condition(cond):
        return WidenableBranch(v, None, v.operand_uses[0], if_true, if_false)
    if not isinstance(cond, Instruction) or cond.opcode != "and":
        return None
    a, b = cond.operands
    uses = cond.operand_uses
    if is_widenable_condition(a) and a.has_one_use:
        return WidenableBranch(v, uses[1], uses[0], if_true, if_false)
    if is_widenable_condition(b) and b.has_one_use:
        return WidenableBranch(v, uses[0], uses[1], if_true, if_false)
    return None


def is_widenable_branch(v: object) -> bool:
    """LLVM ``isWidenableBranch``."""
    return parse_widenable_branch(v) is not None


def is_guard_as_widenable_branch(v: object) -> bool:
    """LLVM ``isGuardAsWidenableBranch``: a widenable branch whose false side reaches a call of
    ``llvm.experimental.deoptimize`` through unique successors with nothing having side effects
    before it."""
    if not is_widenable_branch(v):
        return False
    assert isinstance(v, BranchInst)
    deopt_bb: BasicBlock | None = v.get_successor(1)
    visited: set[BasicBlock] = set()
    while deopt_bb is not None and deopt_bb not in visited:
        visited.add(deopt_bb)
        for inst in deopt_bb.instructions:
            if _is_intrinsic_call(inst, DEOPTIMIZE):
                return True
            if inst.may_have_side_effects():
                return False
        deopt_bb = deopt_bb.unique_successor
    return False


def _parse_condition(condition: Value, record: Callable[[Value], bool]) -> None:
    """Walk the ``and`` tree under ``condition`` (each value once), calling ``record`` on each
    leaf until it returns False."""
    worklist = [condition]
    visited = {condition}
    while worklist:
        check = worklist.pop()
        if _is_and(check):
            for op in check.operands:  # type: ignore[attr-defined]
                if op not in visited:
                    visited.add(op)
                    worklist.append(op)
            continue
        if not record(check):
            break


def _is_and(v: Value) -> bool:
    """``and`` instruction or constant expression (LLVM ``m_And``)."""
    return (v.is_instruction or getattr(v, "is_constant_expr", False)) and getattr(v, "opcode", None) == "and"


def parse_widenable_guard(v: object) -> list[Value]:
    """LLVM ``parseWidenableGuard``: the checks (leaves of the ``and`` tree that are not the
    widenable condition) of a guard or widenable branch."""
    if is_guard(v):
        assert isinstance(v, CallInst)
        condition = v.get_arg(0)
    else:
        assert isinstance(v, BranchInst) and is_widenable_branch(v), "a guard or a widenable branch"
        condition = v.condition
    checks: list[Value] = []

    def record(check: Value) -> bool:
        if not is_widenable_condition(check):
            checks.append(check)
        return True

    _parse_condition(condition, record)
    return checks


def extract_widenable_condition(v: object) -> Value | None:
    """LLVM ``extractWidenableCondition``: the single-use widenable condition in the ``and``
    tree of a conditional branch's single-use condition."""
    if not isinstance(v, BranchInst) or not v.is_conditional:
        return None
    condition = v.condition
    if not condition.has_one_use:
        return None
    found: list[Value] = []

    def record(check: Value) -> bool:
        if is_widenable_condition(check) and check.has_one_use:
            found.append(check)
            return False
        return True

    _parse_condition(condition, record)
    return found[0] if found else None
