"""``profile-summary``: what the module's profile summary says is hot or cold (LLVM 19.1.7
``lib/Analysis/ProfileSummaryInfo.cpp``), reduced to what the inliner asks.

What: :class:`ProfileSummaryInfo` knows whether the module carries a ``ProfileSummary``
module flag; a function marked ``cold`` has a cold entry whatever the profile says.
Without a summary nothing else is hot or cold.

What it does not do: the count thresholds computed from the summary's detailed
percentiles (hot and cold call sites and entries from profile counts).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, ModuleAnalysis


class ProfileSummaryInfo:
    """LLVM ``ProfileSummaryInfo`` (see the module docstring)."""

    __slots__ = ("module", "_has_summary")

    def __init__(self, module: Module) -> None:
        self.module = module
        self._has_summary = _has_profile_summary(module)

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        return False

    @property
    def has_profile_summary(self) -> bool:
        return self._has_summary

    def is_function_entry_hot(self, fn: Function) -> bool:
        return False

    def is_function_entry_cold(self, fn: Function) -> bool:
        return fn.attributes.has_fn_attr("cold")


def _has_profile_summary(module: Module) -> bool:
    from llvmpy_mid.ir.module_flags import get_module_flag

    return get_module_flag(module, "ProfileSummary") is not None


class ProfileSummaryAnalysis(ModuleAnalysis[ProfileSummaryInfo]):
    """LLVM ``ProfileSummaryAnalysis`` (``profile-summary``)."""

    name: ClassVar[str] = "profile-summary"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> ProfileSummaryInfo:
        return ProfileSummaryInfo(unit)
