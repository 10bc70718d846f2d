"""How many case clusters the lowering of a switch will make, as a target with a code
generator estimates it (LLVM 19.1.7 ``BasicTTIImplBase::getEstimatedNumberOfCaseClusters``
of ``include/llvm/CodeGen/BasicTTIImpl.h``, with ``TargetLoweringBase``'s
``isSuitableForBitTests``, ``rangeFitsInWord`` and ``isSuitableForJumpTable`` of
``include/llvm/CodeGen/TargetLowering.h`` / ``lib/CodeGen/TargetLoweringBase.cpp``).

What: :func:`estimate_case_clusters` answers ``(clusters, jump table size)``: one cluster
when the cases fit a bit test (a range no wider than the index width with few
destinations) or a dense enough jump table (at least the target's minimum entries, a
density of 10%); else one cluster per case.

What it does not do: profile-guided size optimisation (no profile summary: the density is
always the speed one), ``-jump-table-density`` / ``-max-jump-table-size`` options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instructions.terminators import SwitchInst

JUMP_TABLE_DENSITY = 10
"""``-jump-table-density``: the least percentage of a jump table's range the cases fill."""

_LIMIT = (1 << 64) - 1


def jump_tables_allowed(si: SwitchInst, target_has_jump_tables: bool) -> bool:
    """``TargetLoweringBase::areJTsAllowed``: the target lowers ``BR_JT``/``BRIND`` and the
    function is not ``"no-jump-tables"="true"``."""
    fn = si.parent.parent if si.parent is not None else None
    if fn is not None:
        attr = fn.attributes.get_fn_attr("no-jump-tables")
        if attr is not None and attr.value == "true":
            return False
    return target_has_jump_tables


def _signed(value: int, width: int) -> int:
    return value - (1 << width) if value >> (width - 1) & 1 else value


def _range(low: int, high: int) -> int:
    """``(High - Low).getLimitedValue(UINT64_MAX - 1) + 1`` on signed case values."""
    return min(high - low, _LIMIT - 1) + 1


def is_suitable_for_bit_tests(num_dests: int, num_cmps: int, low: int, high: int, dl: DataLayout) -> bool:
    """``TargetLoweringBase::isSuitableForBitTests``."""
    if _range(low, high) > dl.index_size_in_bits(0):
        return False
    return (
        (num_dests == 1 and num_cmps >= 3) or (num_dests == 2 and num_cmps >= 5) or (num_dests == 3 and num_cmps >= 6)
    )


def estimate_case_clusters(
    si: SwitchInst, dl: DataLayout, jt_allowed: bool, min_jump_table_entries: int
) -> tuple[int, int]:
    """``(number of case clusters, jump table size)`` of ``si``."""
    cases = si.cases
    n = len(cases)
    index_bits = dl.index_size_in_bits(0)
    if n < 1 or (not jt_allowed and index_bits < n):
        return n, 0
    width = cases[0][0].type.width
    values = [_signed(c.value, width) for c, _ in cases]
    low = min(values)
    high = max(values)
    if n <= index_bits:
        dests = {id(bb) for _, bb in cases}
        if is_suitable_for_bit_tests(len(dests), n, low, high, dl):
            return 1, 0
    if jt_allowed:
        if n < 2 or n < min_jump_table_entries:
            return n, 0
        span = _range(low, high)
        if span <= 0xFFFFFFFF and n * 100 >= span * JUMP_TABLE_DENSITY:
            return 1, span
    return n, 0
