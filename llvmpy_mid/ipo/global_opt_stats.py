"""GlobalOpt's statistics and the attribute copy its new globals share (LLVM
lib/Transforms/IPO/GlobalOpt.cpp ``STATISTIC``s; ``GlobalVariable::copyAttributesFrom``)."""

from __future__ import annotations

from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.passes.statistics import Statistic

__all__ = [
    "NUM_ALIASES_REMOVED",
    "NUM_ALIASES_RESOLVED",
    "NUM_ATEXIT_REMOVED",
    "NUM_COLD_CC",
    "NUM_CTORS_EVALUATED",
    "NUM_CXX_DTORS_REMOVED",
    "NUM_DELETED",
    "NUM_FAST_CALL_FNS",
    "NUM_GLOB_USES",
    "NUM_IFUNCS_DELETED",
    "NUM_IFUNCS_RESOLVED",
    "NUM_INTERNAL_FUNC",
    "NUM_LOCALIZED",
    "NUM_MARKED",
    "NUM_NEST_REMOVED",
    "NUM_SHRUNK_TO_BOOL",
    "NUM_SRA",
    "NUM_SUBSTITUTE",
    "NUM_UNNAMED",
    "copy_global_variable_attributes",
]

_T = "globalopt"
NUM_MARKED = Statistic(_T, "NumMarked", "Number of globals marked constant")
NUM_UNNAMED = Statistic(_T, "NumUnnamed", "Number of globals marked unnamed_addr")
NUM_SRA = Statistic(_T, "NumSRA", "Number of aggregate globals broken into scalars")
NUM_SUBSTITUTE = Statistic(_T, "NumSubstitute", "Number of globals with initializers stored into them")
NUM_DELETED = Statistic(_T, "NumDeleted", "Number of globals deleted")
NUM_GLOB_USES = Statistic(_T, "NumGlobUses", "Number of global uses devirtualized")
NUM_LOCALIZED = Statistic(_T, "NumLocalized", "Number of globals localized")
NUM_SHRUNK_TO_BOOL = Statistic(_T, "NumShrunkToBool", "Number of global vars shrunk to booleans")
NUM_FAST_CALL_FNS = Statistic(_T, "NumFastCallFns", "Number of functions converted to fastcc")
NUM_CTORS_EVALUATED = Statistic(_T, "NumCtorsEvaluated", "Number of static ctors evaluated")
NUM_NEST_REMOVED = Statistic(_T, "NumNestRemoved", "Number of nest attributes removed")
NUM_ALIASES_RESOLVED = Statistic(_T, "NumAliasesResolved", "Number of global aliases resolved")
NUM_ALIASES_REMOVED = Statistic(_T, "NumAliasesRemoved", "Number of global aliases eliminated")
NUM_CXX_DTORS_REMOVED = Statistic(_T, "NumCXXDtorsRemoved", "Number of global C++ destructors removed")
NUM_ATEXIT_REMOVED = Statistic(_T, "NumAtExitRemoved", "Number of atexit handlers removed")
NUM_INTERNAL_FUNC = Statistic(_T, "NumInternalFunc", "Number of internal functions")
NUM_COLD_CC = Statistic(_T, "NumColdCC", "Number of functions marked coldcc")
NUM_IFUNCS_RESOLVED = Statistic(_T, "NumIFuncsResolved", "Number of statically resolved IFuncs")
NUM_IFUNCS_DELETED = Statistic(_T, "NumIFuncsDeleted", "Number of IFuncs removed")


def copy_global_variable_attributes(dst: GlobalVariable, src: GlobalVariable) -> None:
    """LLVM ``GlobalVariable::copyAttributesFrom``: the global-object attributes plus
    externally_initialized, the variable's attributes and its code model."""
    dst.copy_attributes_from(src)
    dst.externally_initialized = src.externally_initialized
    dst.attributes = src.attributes
    if src.code_model:
        dst.code_model = src.code_model
