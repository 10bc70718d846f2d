"""The inliner hooks every target with a code generator shares (LLVM 19.1.7
``include/llvm/CodeGen/BasicTTIImpl.h`` ``getEstimatedNumberOfCaseClusters``, with
``TargetLoweringBase``'s ``areJTsAllowed``, ``isSuitableForBitTests``,
``rangeFitsInWord``, ``isSuitableForJumpTable`` and ``getMinimumJumpTableEntries`` of
``include/llvm/CodeGen/TargetLowering.h``).

What: how many case clusters a switch becomes: one when its cases fit a bit test (the
range within the pointer index width, with 1/2/3 destinations and at least 3/5/6
cases), one when they fit a jump table (jump tables allowed, at least
``min-jump-table-entries`` (4) cases, dense enough: 10% of the range, 40% when the
function is optimised for size; the table size is then the range), else one per case.

What it does not do: profile-guided size optimisation of cold blocks (only the
function's ``optsize``/``minsize`` make a switch "optimised for size").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.inline_cost_target import InlinerTargetHooks
from llvmpy_mid.ir.function import Function

if TYPE_CHECKING:
    from llvmpy_mid.ir.instructions.terminators import SwitchInst

_JUMP_TABLE_DENSITY = 10
_OPTSIZE_JUMP_TABLE_DENSITY = 40
_LIMIT = (1 << 64) - 2


class BasicInlinerHooks(InlinerTargetHooks):
    """``BasicTTIImplBase``'s inliner hooks; a target overrides its lowering limits."""

    #: ``TargetLoweringBase::getMinimumJumpTableEntries`` of the target.
    min_jump_table_entries = 4

    def are_jts_allowed(self, fn: Function) -> bool:
        """``TargetLoweringBase::areJTsAllowed``: not with ``"no-jump-tables"="true"``."""
        return fn.attributes.fn_attrs.string_value("no-jump-tables") != "true"

    def get_estimated_number_of_case_clusters(self, si: SwitchInst) -> tuple[int, int]:
        n = si.num_cases
        bb = si.parent
        fn = bb.parent if bb is not None else None
        if fn is None:
            return n, 0
        module = fn.parent
        index_bits = module.data_layout.index_size_in_bits(0) if module is not None else 64
        jt_allowed = self.are_jts_allowed(fn)
        if n < 1 or (not jt_allowed and index_bits < n):
            return n, 0
        values = si.case_values
        width = values[0].type.width
        signed = [v.sext_value for v in values]
        range_size = min((max(signed) - min(signed)) % (1 << width), _LIMIT) + 1
        if n <= index_bits:
            dests = len({id(d) for d in si.case_dests})
            if range_size <= index_bits and (
                (dests == 1 and n >= 3) or (dests == 2 and n >= 5) or (dests == 3 and n >= 6)
            ):
                return 1, 0
        if jt_allowed:
            if n < 2 or n < self.min_jump_table_entries:
                return n, 0
            from llvmpy_mid.analysis.inline_cost import has_opt_size

            density = _OPTSIZE_JUMP_TABLE_DENSITY if has_opt_size(fn) else _JUMP_TABLE_DENSITY
            if n * 100 >= range_size * density:
                return 1, range_size
        return n, 0
