"""``print-profile-summary`` (LLVM 19.1.7 ``ProfileSummaryPrinterPass`` in
``lib/Analysis/ProfileSummaryInfo.cpp``).

What: writes ``Functions in <module> with hot/cold annotations:`` and then each function's name,
followed by `` :hot entry `` or `` :cold entry `` when the profile summary says its entry count
is hot or cold, on standard error (opt's ``dbgs()``). ``-profile-summary-hot-count`` and
``-profile-summary-cold-count`` override the summary's thresholds (``ProfileSummaryInfo``).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryAnalysis
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["ProfileSummaryPrinterPass"]


class ProfileSummaryPrinterPass(Pass[Module]):
    """``print-profile-summary``."""

    name: ClassVar[str] = "print-profile-summary"
    required: ClassVar[bool | None] = True

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        if not am.is_registered(ProfileSummaryAnalysis):
            am.register(ProfileSummaryAnalysis())
        psi = am.get_result(ProfileSummaryAnalysis, unit)
        out = ["Functions in %s with hot/cold annotations: \n" % unit.name]
        for fn in unit.functions:
            out.append(fn.name)
            if psi.is_function_entry_hot(fn):
                out.append(" :hot entry ")
            elif psi.is_function_entry_cold(fn):
                out.append(" :cold entry ")
            out.append("\n")
        (self.stream if self.stream is not None else sys.stderr).write("".join(out))
        return PreservedAnalyses.all()
