"""The branches whose conditions say something about a value (LLVM 19.1.7
``llvm/lib/Analysis/DomConditionCache.cpp``).

What: a pass that walks a function in dominance order registers each conditional
branch it meets (:meth:`DomConditionCache.register_branch`); the values the branch
condition constrains (LLVM ``findValuesAffectedByCondition``: the compared value,
its operands through casts, ands and shifts ...) then map to the branch.
Value-tracking queries whose :class:`~llvmpy_mid.analysis.simplify_query.SimplifyQuery`
carries the cache (``dc``) look up :meth:`conditions_for` and use the condition on
every edge out of the branch that dominates the context instruction (known bits
from dominating conditions). InstCombine keeps one per iteration.

What it does not do: it never invalidates by itself; the owner removes erased
values (:meth:`remove_value`), as LLVM's does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.assumption_cache import find_values_affected_by_condition

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value


class DomConditionCache:
    """Value -> the conditional branches (in order of registration) whose condition affects it."""

    __slots__ = ("_affected",)

    def __init__(self) -> None:
        self._affected: dict[Value, list[Instruction]] = {}

    def register_branch(self, br: Instruction) -> None:
        """Record the conditional branch ``br`` for every value its condition affects."""
        affected: list[Value] = []
        find_values_affected_by_condition(br.operands[0], False, affected.append)
        table = self._affected
        for v in affected:
            branches = table.get(v)
            if branches is None:
                table[v] = [br]
            elif br not in branches:
                branches.append(br)

    def conditions_for(self, v: Value) -> list[Instruction]:
        """The registered branches whose condition affects ``v`` (empty when none)."""
        return self._affected.get(v, _EMPTY)

    def remove_value(self, v: Value) -> None:
        """Forget ``v`` (it is being erased)."""
        self._affected.pop(v, None)


_EMPTY: list[Instruction] = []

__all__ = ["DomConditionCache"]
