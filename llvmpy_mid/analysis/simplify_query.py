"""The bundle of context the value queries share (LLVM 19.1.7
``llvm/include/llvm/Analysis/SimplifyQuery.h``).

What: :class:`SimplifyQuery` carries the data layout, the optional target
library info, dominator tree and assumption cache, the context instruction the
answer must hold at, and two switches: whether instruction flags and metadata
may be trusted (``use_instr_info``, LLVM's ``InstrInfoQuery``) and whether undef
may be assumed to take a convenient value (``can_use_undef``). It is an
immutable record: ``get_with_instruction`` and friends return a copy.

``dc`` is LLVM's dominating-condition cache
(:class:`~llvmpy_mid.analysis.dom_condition_cache.DomConditionCache`): when it is
set (InstCombine sets it) known bits also use the conditions of the registered
branches whose edges dominate the context instruction.

What it does not do (yet): LLVM's condition context (``CondContext``) is not
carried; the queries that would use it answer without.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import UndefValue

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.dom_condition_cache import DomConditionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.ir.value import Value


@attrs.frozen(slots=True, eq=False)
class SimplifyQuery:
    """What a value query may use (LLVM ``SimplifyQuery``)."""

    dl: DataLayout
    tli: TargetLibraryInfo | None = None
    dt: DominatorTree | None = None
    ac: AssumptionCache | None = None
    cxt_i: Instruction | None = None
    use_instr_info: bool = True
    can_use_undef: bool = True
    dc: DomConditionCache | None = None

    def get_with_instruction(self, i: Instruction | None) -> SimplifyQuery:
        """This query with ``i`` as the context instruction."""
        if i is self.cxt_i:
            return self
        return SimplifyQuery(self.dl, self.tli, self.dt, self.ac, i, self.use_instr_info, self.can_use_undef, self.dc)

    def get_without_dom_cond_cache(self) -> SimplifyQuery:
        """This query without the dominating-condition cache (LLVM ``getWithoutDomCondCache``)."""
        return self if self.dc is None else attrs.evolve(self, dc=None)

    def get_without_undef(self) -> SimplifyQuery:
        """This query, forbidden to pick a value for undef."""
        return attrs.evolve(self, can_use_undef=False)

    def is_undef_value(self, v: Value) -> bool:
        """``v`` is undef (or poison) and undef may be used (LLVM ``isUndefValue``)."""
        return self.can_use_undef and isinstance(v, UndefValue)

    # --- LLVM's InstrInfoQuery: flags and metadata only when trusted ---------------------
    def get_metadata(self, i: Instruction, kind: str) -> MDNode | None:
        """``i``'s ``!kind`` metadata, or None when instruction info is off."""
        return i.get_metadata(kind) if self.use_instr_info else None

    def has_no_unsigned_wrap(self, op: Value) -> bool:
        """``op`` (an instruction or a constant expression) carries ``nuw`` and flags may be trusted."""
        if isinstance(op, ConstantExpr):
            return self.use_instr_info and op.has_no_unsigned_wrap
        return self.use_instr_info and bool(getattr(op, "nuw", False))

    def has_no_signed_wrap(self, op: Value) -> bool:
        """``op`` (an instruction or a constant expression) carries ``nsw`` and flags may be trusted."""
        if isinstance(op, ConstantExpr):
            return self.use_instr_info and op.has_no_signed_wrap
        return self.use_instr_info and bool(getattr(op, "nsw", False))

    def is_exact(self, op: Value) -> bool:
        """``op`` is an ``exact`` division or shift and flags may be trusted."""
        return self.use_instr_info and getattr(op, "opcode", "") in _EXACT_OPCODES and bool(getattr(op, "exact", False))


_EXACT_OPCODES = frozenset(("udiv", "sdiv", "lshr", "ashr"))


def as_query(q: SimplifyQuery | DataLayout) -> SimplifyQuery:
    """A query from a query or a bare data layout (the value-tracking entry points take either)."""
    if isinstance(q, SimplifyQuery):
        return q
    return SimplifyQuery(q)
