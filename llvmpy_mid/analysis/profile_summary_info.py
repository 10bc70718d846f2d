"""``profile-summary``: what the module's profile summary says is hot or cold (LLVM 19.1.7
``lib/Analysis/ProfileSummaryInfo.cpp``, ``lib/IR/ProfileSummary.cpp``), reduced to what
the inliner asks.

What: :class:`ProfileSummaryInfo` reads the ``ProfileSummary`` module flag: its format
and its detailed summary, from which the hot count threshold (the minimum count of the
99% cutoff) and the cold one (the 99.9999% cutoff) come. A count is hot at or above the
hot threshold, cold at or below the cold one; a call site's count is its block's
profile count (the caller's entry count scaled by block frequencies), or for a sample
profile the call's total branch weight; a function's entry is hot or cold by its
``function_entry_count``, and a function marked ``cold`` is always cold.

What it does not do: the partial-profile and huge-working-set rules, percentile
queries other than the two default cutoffs, synthetic entry counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, Metadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, ModuleAnalysis

if TYPE_CHECKING:
    from llvmpy_mid.analysis.block_frequency import BlockFrequencyInfo
    from llvmpy_mid.ir.instructions.calls import CallBase

HOT_CUTOFF = 990000
COLD_CUTOFF = 999999


def _int(md: Metadata | None) -> int | None:
    if isinstance(md, ConstantAsMetadata) and isinstance(md.value, ConstantInt):
        return md.value.zext_value
    return None


class ProfileSummaryInfo:
    """LLVM ``ProfileSummaryInfo`` (see the module docstring)."""

    __slots__ = ("module", "_has_summary", "format", "hot_count_threshold", "cold_count_threshold")

    def __init__(self, module: Module) -> None:
        self.module = module
        self._has_summary = False
        self.format = ""
        self.hot_count_threshold: int | None = None
        self.cold_count_threshold: int | None = None
        self._read_summary()

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        return False

    def _read_summary(self) -> None:
        from llvmpy_mid.ir.module_flags import get_module_flag

        node = get_module_flag(self.module, "ProfileSummary")
        if not isinstance(node, MDNode):
            return
        self._has_summary = True
        detailed: list[tuple[int, int]] = []
        for field in node.operands:
            if not isinstance(field, MDNode) or len(field.operands) < 2:
                continue
            key = field.operands[0]
            if not isinstance(key, MDString):
                continue
            if key.string == "ProfileFormat" and isinstance(field.operands[1], MDString):
                self.format = field.operands[1].string
            elif key.string == "DetailedSummary" and isinstance(field.operands[1], MDNode):
                for entry in field.operands[1].operands:
                    if isinstance(entry, MDNode) and len(entry.operands) >= 2:
                        cutoff = _int(entry.operands[0])
                        count = _int(entry.operands[1])
                        if cutoff is not None and count is not None:
                            detailed.append((cutoff, count))
        detailed.sort(key=lambda e: e[0])
        hot = _entry_for(detailed, HOT_CUTOFF)
        cold = _entry_for(detailed, COLD_CUTOFF)
        from llvmpy_mid.passes.options import OPTIONS

        if OPTIONS.is_set("profile-summary-hot-count"):  # LLVM getHotCountThreshold's override
            hot = int(OPTIONS.value("profile-summary-hot-count"))
        if OPTIONS.is_set("profile-summary-cold-count"):
            cold = int(OPTIONS.value("profile-summary-cold-count"))
        self.hot_count_threshold = hot
        self.cold_count_threshold = cold

    @property
    def has_profile_summary(self) -> bool:
        return self._has_summary

    @property
    def has_sample_profile(self) -> bool:
        return self._has_summary and self.format == "SampleProfile"

    def is_hot_count(self, count: int) -> bool:
        return self.hot_count_threshold is not None and count >= self.hot_count_threshold

    def is_cold_count(self, count: int) -> bool:
        return self.cold_count_threshold is not None and count <= self.cold_count_threshold

    def _entry_count(self, fn: Function) -> int | None:
        from llvmpy_mid.analysis.block_frequency_printers import function_entry_count

        return function_entry_count(fn)

    def is_function_entry_hot(self, fn: Function) -> bool:
        if not self._has_summary:
            return False
        count = self._entry_count(fn)
        return count is not None and self.is_hot_count(count)

    def is_function_entry_cold(self, fn: Function) -> bool:
        if fn.attributes.has_fn_attr("cold"):
            return True
        if not self._has_summary:
            return False
        count = self._entry_count(fn)
        return count is not None and self.is_cold_count(count)

    def profile_count(self, call: CallBase, bfi: BlockFrequencyInfo | None) -> int | None:
        """LLVM ``getProfileCount`` of a call site."""
        if self.has_sample_profile:
            from llvmpy_mid.ir.prof_data_utils import extract_branch_weights

            weights = extract_branch_weights(call)
            return sum(weights) if weights else None
        if bfi is None or call.parent is None:
            return None
        fn = call.function
        if fn is None:
            return None
        entry = self._entry_count(fn)
        if entry is None:
            return None
        from llvmpy_mid.analysis.block_frequency_printers import profile_count

        return profile_count(entry, bfi.frequency(call.parent), bfi.frequency(fn.entry_block))

    def is_hot_call_site(self, call: CallBase, bfi: BlockFrequencyInfo | None) -> bool:
        count = self.profile_count(call, bfi)
        return count is not None and self.is_hot_count(count)

    def is_cold_call_site(self, call: CallBase, bfi: BlockFrequencyInfo | None) -> bool:
        count = self.profile_count(call, bfi)
        return count is not None and self.is_cold_count(count)


def _entry_for(detailed: list[tuple[int, int]], percentile: int) -> int | None:
    """The minimum count of the first detailed-summary entry whose cutoff reaches ``percentile``."""
    for cutoff, count in detailed:
        if cutoff >= percentile:
            return count
    return None


class ProfileSummaryAnalysis(ModuleAnalysis[ProfileSummaryInfo]):
    """LLVM ``ProfileSummaryAnalysis`` (``profile-summary``)."""

    name: ClassVar[str] = "profile-summary"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> ProfileSummaryInfo:
        return ProfileSummaryInfo(unit)
