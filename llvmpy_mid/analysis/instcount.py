"""``instcount``: counts a function's instructions by opcode, its blocks and the
function itself into statistics named as LLVM's ``InstCountPass`` names them.

How: the pass keeps ``statistics`` (stat name -> value) across every function
it runs on, as LLVM's process-wide counters accumulate: ``Num<Opcode>Inst``
("Number of <Opcode> insts", opcode spelled as in LLVM's ``Instruction.def``),
``TotalInsts``, ``TotalBlocks`` and ``TotalFuncs``. :func:`format_stats`
renders counters in the ``-stats`` report layout (header, then
``<value> <debug-type> - <description>`` lines sorted by debug type and stat
name, values right-aligned); a counter never incremented is absent, as in
LLVM, and no counters give an empty report. It changes nothing and preserves
every analysis.

What it does not do: declarations are not counted (the adaptor runs the pass
on definitions only); ``-stats-json`` is not produced. The installed opt-19 is
a release build, which prints no statistics, so the layout follows LLVM's
``PrintStatistics`` rather than a live comparison.
"""

from __future__ import annotations

from typing import ClassVar, Iterable, Mapping

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

DEBUG_TYPE = "instcount"

#: Textual opcode -> the opcode's name in LLVM's ``Instruction.def``.
LLVM_OPCODE_NAMES: dict[str, str] = {
    "ret": "Ret", "br": "Br", "switch": "Switch", "indirectbr": "IndirectBr", "invoke": "Invoke",
    "resume": "Resume", "unreachable": "Unreachable", "cleanupret": "CleanupRet", "catchret": "CatchRet",
    "catchswitch": "CatchSwitch", "callbr": "CallBr", "fneg": "FNeg", "add": "Add", "fadd": "FAdd",
    "sub": "Sub", "fsub": "FSub", "mul": "Mul", "fmul": "FMul", "udiv": "UDiv", "sdiv": "SDiv",
    "fdiv": "FDiv", "urem": "URem", "srem": "SRem", "frem": "FRem", "shl": "Shl", "lshr": "LShr",
    "ashr": "AShr", "and": "And", "or": "Or", "xor": "Xor", "alloca": "Alloca", "load": "Load",
    "store": "Store", "getelementptr": "GetElementPtr", "fence": "Fence", "cmpxchg": "AtomicCmpXchg",
    "atomicrmw": "AtomicRMW", "trunc": "Trunc", "zext": "ZExt", "sext": "SExt", "fptoui": "FPToUI",
    "fptosi": "FPToSI", "uitofp": "UIToFP", "sitofp": "SIToFP", "fptrunc": "FPTrunc", "fpext": "FPExt",
    "ptrtoint": "PtrToInt", "inttoptr": "IntToPtr", "bitcast": "BitCast", "addrspacecast": "AddrSpaceCast",
    "cleanuppad": "CleanupPad", "catchpad": "CatchPad", "icmp": "ICmp", "fcmp": "FCmp", "phi": "PHI",
    "call": "Call", "select": "Select", "va_arg": "VAArg", "extractelement": "ExtractElement",
    "insertelement": "InsertElement", "shufflevector": "ShuffleVector", "extractvalue": "ExtractValue",
    "insertvalue": "InsertValue", "landingpad": "LandingPad", "freeze": "Freeze",
}  # fmt: skip

#: Stat name -> description, as LLVM words them.
STAT_DESCRIPTIONS: dict[str, str] = {
    "TotalInsts": "Number of instructions (of all types)",
    "TotalBlocks": "Number of basic blocks",
    "TotalFuncs": "Number of non-external functions",
}
for _llvm_name in LLVM_OPCODE_NAMES.values():
    STAT_DESCRIPTIONS["Num%sInst" % _llvm_name] = "Number of %s insts" % _llvm_name

_STAT_OF_OPCODE: dict[str, str] = {op: "Num%sInst" % n for op, n in LLVM_OPCODE_NAMES.items()}


class InstCountPass(Pass[Function]):
    """Accumulates instruction, block and function counts into ``statistics``."""

    name: ClassVar[str] = "instcount"
    debug_type: ClassVar[str] = DEBUG_TYPE

    def __init__(self) -> None:
        self.statistics: dict[str, int] = {}

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        stats = self.statistics
        stats["TotalFuncs"] = stats.get("TotalFuncs", 0) + 1
        blocks = 0
        insts = 0
        for bb in unit.blocks:
            blocks += 1
            for inst in bb.instructions:
                insts += 1
                key = _STAT_OF_OPCODE[inst.opcode]
                stats[key] = stats.get(key, 0) + 1
        if blocks:
            stats["TotalBlocks"] = stats.get("TotalBlocks", 0) + blocks
        if insts:
            stats["TotalInsts"] = stats.get("TotalInsts", 0) + insts
        return PreservedAnalyses.all()


_RULE = "===" + "-" * 73 + "===\n"


def format_statistics(entries: Iterable[tuple[str, str, str, int]]) -> str:
    """The ``-stats`` report for ``(debug_type, name, description, value)`` entries,
    laid out as LLVM's ``PrintStatistics``; ``""`` when there are none."""
    rows = sorted(entries, key=lambda e: (e[0], e[1], e[2]))
    if not rows:
        return ""
    val_w = max(len(str(r[3])) for r in rows)
    type_w = max(len(r[0]) for r in rows)
    out = [_RULE, "                          ... Statistics Collected ...\n", _RULE, "\n"]
    for debug_type, _name, desc, value in rows:
        out.append("%*d %-*s - %s\n" % (val_w, value, type_w, debug_type, desc))
    out.append("\n")
    return "".join(out)


def format_stats(statistics: Mapping[str, int]) -> str:
    """The ``-stats`` report of ``instcount`` counters (an ``InstCountPass.statistics``)."""
    return format_statistics(
        (DEBUG_TYPE, name, STAT_DESCRIPTIONS[name], value) for name, value in statistics.items() if value
    )


__all__ = ["DEBUG_TYPE", "InstCountPass", "LLVM_OPCODE_NAMES", "STAT_DESCRIPTIONS", "format_statistics", "format_stats"]
