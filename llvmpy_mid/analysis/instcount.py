"""``instcount``: counts a function's instructions by opcode, its blocks and the
function itself into statistics named as LLVM's ``InstCountPass`` names them.

How: the pass adds to its :class:`~llvmpy_mid.passes.statistics.Statistic`
counters (in the run's collector, as LLVM's counters accumulate): ``Num<Opcode>Inst``
("Number of <Opcode> insts", opcode spelled as in LLVM's ``Instruction.def``),
``TotalInsts``, ``TotalBlocks`` and ``TotalFuncs``; ``-stats`` prints them.
It changes nothing and preserves every analysis.

What it does not do: declarations are not counted (the adaptor runs the pass
on definitions only); ``-stats-json`` is not produced. The installed opt-19 is
a release build, which prints no statistics, so the layout follows LLVM's
``PrintStatistics`` rather than a live comparison.
"""

from __future__ import annotations

from typing import ClassVar, Mapping

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic, active_collector, format_statistics

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

#: The pass's statistics, by name.
STATISTICS: dict[str, Statistic] = {n: Statistic(DEBUG_TYPE, n, d) for n, d in STAT_DESCRIPTIONS.items()}
_STAT_OF_OPCODE: dict[str, Statistic] = {op: STATISTICS["Num%sInst" % n] for op, n in LLVM_OPCODE_NAMES.items()}
_TOTAL_FUNCS = STATISTICS["TotalFuncs"]
_TOTAL_BLOCKS = STATISTICS["TotalBlocks"]
_TOTAL_INSTS = STATISTICS["TotalInsts"]


class InstCountPass(Pass[Function]):
    """Adds the function's instruction, block and function counts to the statistics."""

    name: ClassVar[str] = "instcount"
    debug_type: ClassVar[str] = DEBUG_TYPE

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        collector = active_collector()
        collector.add(_TOTAL_FUNCS)
        blocks = 0
        insts = 0
        of_opcode = _STAT_OF_OPCODE
        for bb in unit.blocks:
            blocks += 1
            for inst in bb.instructions:
                insts += 1
                collector.add(of_opcode[inst.opcode])
        if blocks:
            collector.add(_TOTAL_BLOCKS, blocks)
        if insts:
            collector.add(_TOTAL_INSTS, insts)
        return PreservedAnalyses.all()


def format_stats(statistics: Mapping[str, int]) -> str:
    """The ``-stats`` report of ``instcount`` counters given by name (``{"TotalInsts": 8}``)."""
    return format_statistics(
        (DEBUG_TYPE, name, STAT_DESCRIPTIONS[name], value) for name, value in statistics.items() if value
    )


__all__ = ["DEBUG_TYPE", "InstCountPass", "LLVM_OPCODE_NAMES", "STATISTICS", "STAT_DESCRIPTIONS", "format_stats"]
