"""The per-opcode instruction classes of LLVM 19 IR, re-exported in one place.

The ``Instruction`` base lives in ``llvmpy_mid.ir.instruction``; the modules of
this package hold the concrete classes by family: ``flags`` (fast-math flags,
orderings, GEP and tail-call kinds), ``optional_flags`` (the flag-word bases
shared by the arithmetic, cast, fneg, phi and select classes), ``binary``,
``casts``, ``cmp``, ``memory``, ``gep`` (getelementptr), ``vector``, ``other``
(phi, select, freeze, va_arg), ``calls``, ``eh`` and ``terminators``;
``InlineAsm`` lives in ``llvmpy_mid.ir.inline_asm`` and is re-exported here
for convenience. This module defines nothing itself; the re-exports are lazy
(PEP 562): a family's module is imported when one of its names is first read.

Constructor convention of the arithmetic, cast, compare, memory, vector and
phi/select classes: operands (and the few required non-operand inputs such as
a type, predicate, mask or index list) are positional; every flag and the
``name`` are keyword-only, e.g. ``AddInst(a, b, nsw=True, name="sum")``.
"""

from typing import TYPE_CHECKING

from llvmpy_mid._lazy import lazy_exports

if TYPE_CHECKING:
    from llvmpy_mid.ir.instructions.flags import (
        AtomicOrdering,
        AtomicRMWBinOp,
        FastMathFlags,
        GEPFlags,
        SYNC_SCOPE_SINGLETHREAD,
        SYNC_SCOPE_SYSTEM,
        TailCallKind,
        normalize_gep_flags,
        type_supports_fast_math_flags,
    )
    from llvmpy_mid.ir.instructions.binary import (
        AShrInst,
        AddInst,
        AndInst,
        BINARY_OPCODE_CLASSES,
        BinaryOperator,
        FAddInst,
        FDivInst,
        FMulInst,
        FRemInst,
        FSubInst,
        LShrInst,
        MulInst,
        OrInst,
        SDivInst,
        SRemInst,
        ShlInst,
        SubInst,
        UDivInst,
        URemInst,
        UnaryOperator,
        XorInst,
    )
    from llvmpy_mid.ir.instructions.casts import (
        AddrSpaceCastInst,
        BitCastInst,
        CAST_OPCODES,
        CAST_OPCODE_CLASSES,
        CastInst,
        FPExtInst,
        FPToSIInst,
        FPToUIInst,
        FPTruncInst,
        IntToPtrInst,
        PtrToIntInst,
        SExtInst,
        SIToFPInst,
        TruncInst,
        UIToFPInst,
        ZExtInst,
        cast_is_valid,
    )
    from llvmpy_mid.ir.instructions.cmp import (
        CmpInst,
        FCmpInst,
        ICmpInst,
        Predicate,
    )
    from llvmpy_mid.ir.instructions.memory import (
        AllocaInst,
        AtomicCmpXchgInst,
        AtomicRMWInst,
        FenceInst,
        LoadInst,
        MAX_ALIGNMENT,
        StoreInst,
    )
    from llvmpy_mid.ir.instructions.gep import (
        GetElementPtrInst,
        get_indexed_type,
    )
    from llvmpy_mid.ir.instructions.vector import (
        ExtractElementInst,
        ExtractValueInst,
        InsertElementInst,
        InsertValueInst,
        POISON_MASK_ELEM,
        ShuffleVectorInst,
        get_aggregate_indexed_type,
        shuffle_mask_is_valid,
    )
    from llvmpy_mid.ir.instructions.other import (
        FreezeInst,
        PHINode,
        SelectInst,
        VAArgInst,
    )
    from llvmpy_mid.ir.instructions.calls import (
        CallBase,
        CallInst,
        OperandBundle,
        intrinsic_base_name,
        is_fp_math_call_type,
    )
    from llvmpy_mid.ir.instructions.eh import (
        CatchPadInst,
        CatchReturnInst,
        CatchSwitchInst,
        CleanupPadInst,
        CleanupReturnInst,
        FuncletPadInst,
        LandingPadClause,
        LandingPadInst,
    )
    from llvmpy_mid.ir.instructions.terminators import (
        BranchInst,
        CallBrInst,
        IndirectBrInst,
        InvokeInst,
        ResumeInst,
        ReturnInst,
        SwitchInst,
        UnreachableInst,
    )
    from llvmpy_mid.ir.inline_asm import (
        AsmDialect,
        ConstraintInfo,
        ConstraintType,
        InlineAsm,
    )

# Where each exported name lives; the submodule is imported on first access (PEP 562).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "llvmpy_mid.ir.instructions.flags": (
        "AtomicOrdering", "AtomicRMWBinOp", "FastMathFlags", "GEPFlags", "SYNC_SCOPE_SINGLETHREAD",
        "SYNC_SCOPE_SYSTEM", "TailCallKind", "normalize_gep_flags", "type_supports_fast_math_flags",
    ),
    "llvmpy_mid.ir.instructions.binary": (
        "AShrInst", "AddInst", "AndInst", "BINARY_OPCODE_CLASSES", "BinaryOperator", "FAddInst", "FDivInst",
        "FMulInst", "FRemInst", "FSubInst", "LShrInst", "MulInst", "OrInst", "SDivInst", "SRemInst", "ShlInst",
        "SubInst", "UDivInst", "URemInst", "UnaryOperator", "XorInst",
    ),
    "llvmpy_mid.ir.instructions.casts": (
        "AddrSpaceCastInst", "BitCastInst", "CAST_OPCODES", "CAST_OPCODE_CLASSES", "CastInst", "FPExtInst",
        "FPToSIInst", "FPToUIInst", "FPTruncInst", "IntToPtrInst", "PtrToIntInst", "SExtInst", "SIToFPInst",
        "TruncInst", "UIToFPInst", "ZExtInst", "cast_is_valid",
    ),
    "llvmpy_mid.ir.instructions.cmp": ("CmpInst", "FCmpInst", "ICmpInst", "Predicate"),
    "llvmpy_mid.ir.instructions.memory": (
        "AllocaInst", "AtomicCmpXchgInst", "AtomicRMWInst", "FenceInst", "LoadInst", "MAX_ALIGNMENT", "StoreInst",
    ),
    "llvmpy_mid.ir.instructions.gep": ("GetElementPtrInst", "get_indexed_type"),
    "llvmpy_mid.ir.instructions.vector": (
        "ExtractElementInst", "ExtractValueInst", "InsertElementInst", "InsertValueInst", "POISON_MASK_ELEM",
        "ShuffleVectorInst", "get_aggregate_indexed_type", "shuffle_mask_is_valid",
    ),
    "llvmpy_mid.ir.instructions.other": ("FreezeInst", "PHINode", "SelectInst", "VAArgInst"),
    "llvmpy_mid.ir.instructions.calls": (
        "CallBase", "CallInst", "OperandBundle", "intrinsic_base_name", "is_fp_math_call_type",
    ),
    "llvmpy_mid.ir.instructions.eh": (
        "CatchPadInst", "CatchReturnInst", "CatchSwitchInst", "CleanupPadInst", "CleanupReturnInst", "FuncletPadInst",
        "LandingPadClause", "LandingPadInst",
    ),
    "llvmpy_mid.ir.instructions.terminators": (
        "BranchInst", "CallBrInst", "IndirectBrInst", "InvokeInst", "ResumeInst", "ReturnInst", "SwitchInst",
        "UnreachableInst",
    ),
    "llvmpy_mid.ir.inline_asm": ("AsmDialect", "ConstraintInfo", "ConstraintType", "InlineAsm"),
}
_getattr, __dir__ = lazy_exports(globals(), _EXPORTS)
if not TYPE_CHECKING:
    __getattr__ = _getattr


__all__ = [
    "AShrInst",
    "AddInst",
    "AddrSpaceCastInst",
    "AllocaInst",
    "AndInst",
    "AsmDialect",
    "AtomicCmpXchgInst",
    "AtomicOrdering",
    "AtomicRMWBinOp",
    "AtomicRMWInst",
    "BINARY_OPCODE_CLASSES",
    "BinaryOperator",
    "BitCastInst",
    "BranchInst",
    "CAST_OPCODES",
    "CAST_OPCODE_CLASSES",
    "CallBase",
    "CallBrInst",
    "CallInst",
    "CastInst",
    "CatchPadInst",
    "CatchReturnInst",
    "CatchSwitchInst",
    "CleanupPadInst",
    "CleanupReturnInst",
    "CmpInst",
    "ConstraintInfo",
    "ConstraintType",
    "ExtractElementInst",
    "ExtractValueInst",
    "FAddInst",
    "FCmpInst",
    "FDivInst",
    "FMulInst",
    "FPExtInst",
    "FPToSIInst",
    "FPToUIInst",
    "FPTruncInst",
    "FRemInst",
    "FSubInst",
    "FastMathFlags",
    "FenceInst",
    "FreezeInst",
    "FuncletPadInst",
    "GEPFlags",
    "GetElementPtrInst",
    "ICmpInst",
    "IndirectBrInst",
    "InlineAsm",
    "InsertElementInst",
    "InsertValueInst",
    "IntToPtrInst",
    "InvokeInst",
    "LShrInst",
    "LandingPadClause",
    "LandingPadInst",
    "LoadInst",
    "MAX_ALIGNMENT",
    "MulInst",
    "OperandBundle",
    "OrInst",
    "PHINode",
    "POISON_MASK_ELEM",
    "Predicate",
    "PtrToIntInst",
    "ResumeInst",
    "ReturnInst",
    "SDivInst",
    "SExtInst",
    "SIToFPInst",
    "SRemInst",
    "SYNC_SCOPE_SINGLETHREAD",
    "SYNC_SCOPE_SYSTEM",
    "SelectInst",
    "ShlInst",
    "ShuffleVectorInst",
    "StoreInst",
    "SubInst",
    "SwitchInst",
    "TailCallKind",
    "TruncInst",
    "UDivInst",
    "UIToFPInst",
    "URemInst",
    "UnaryOperator",
    "UnreachableInst",
    "VAArgInst",
    "XorInst",
    "ZExtInst",
    "cast_is_valid",
    "get_aggregate_indexed_type",
    "get_indexed_type",
    "intrinsic_base_name",
    "is_fp_math_call_type",
    "normalize_gep_flags",
    "shuffle_mask_is_valid",
    "type_supports_fast_math_flags",
]
