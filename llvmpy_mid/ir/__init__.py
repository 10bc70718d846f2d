"""The LLVM 19 IR object model: types, values, constants, globals, functions,
blocks, instructions, attributes, metadata, data layout, IRBuilder, cloning.

The names users and tests rely on are re-exported here; everything else is in
the submodules (one concept each). The re-exports are lazy (PEP 562): a
submodule is imported when one of its names is first read from this package,
so importing one IR module does not import the whole layer.
"""

from typing import TYPE_CHECKING

from llvmpy_mid._lazy import lazy_exports

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.cloning import clone_basic_block, clone_function, clone_function_into, remap_instruction
    from llvmpy_mid.ir.constant_expr import ConstantExpr
    from llvmpy_mid.ir.constants import (
        BlockAddress,
        Constant,
        ConstantAggregateZero,
        ConstantArray,
        ConstantDataArray,
        ConstantDataVector,
        ConstantFP,
        ConstantInt,
        ConstantPointerNull,
        ConstantStruct,
        ConstantTargetNone,
        ConstantTokenNone,
        ConstantVector,
        DSOLocalEquivalent,
        NoCFIValue,
        PoisonValue,
        UndefValue,
    )
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.function import Argument, Function
    from llvmpy_mid.ir.gc_control import gc_paused
    from llvmpy_mid.ir.global_value import (
        Comdat,
        ComdatSelection,
        DLLStorageClass,
        GlobalAlias,
        GlobalIFunc,
        GlobalObject,
        GlobalValue,
        GlobalVariable,
        Linkage,
        ThreadLocalMode,
        UnnamedAddr,
        Visibility,
    )
    from llvmpy_mid.ir.inline_asm import InlineAsm
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.cmp import Predicate
    from llvmpy_mid.ir.instructions.flags import AtomicOrdering, AtomicRMWBinOp, FastMathFlags, GEPFlags, TailCallKind
    from llvmpy_mid.ir.metadata import MDNode, MDString, Metadata, MetadataAsValue, NamedMDNode, ValueAsMetadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import (
        ArrayType,
        FloatingPointType,
        FunctionType,
        IntegerType,
        PointerType,
        StructType,
        TargetExtType,
        Type,
        TypeID,
        VectorType,
    )
    from llvmpy_mid.ir.value import Use, User, Value

# Where each exported name lives; the submodule is imported on first access (PEP 562).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "llvmpy_mid.ir.attributes": ("Attribute", "AttributeList", "AttributeSet"),
    "llvmpy_mid.ir.basic_block": ("BasicBlock",),
    "llvmpy_mid.ir.builder": ("IRBuilder",),
    "llvmpy_mid.ir.cloning": ("clone_basic_block", "clone_function", "clone_function_into", "remap_instruction"),
    "llvmpy_mid.ir.constant_expr": ("ConstantExpr",),
    "llvmpy_mid.ir.constants": (
        "BlockAddress", "Constant", "ConstantAggregateZero", "ConstantArray", "ConstantDataArray",
        "ConstantDataVector", "ConstantFP", "ConstantInt", "ConstantPointerNull", "ConstantStruct",
        "ConstantTargetNone", "ConstantTokenNone", "ConstantVector", "DSOLocalEquivalent", "NoCFIValue",
        "PoisonValue", "UndefValue",
    ),
    "llvmpy_mid.ir.context": ("Context",),
    "llvmpy_mid.ir.data_layout": ("DataLayout",),
    "llvmpy_mid.ir.function": ("Argument", "Function"),
    "llvmpy_mid.ir.gc_control": ("gc_paused",),
    "llvmpy_mid.ir.global_value": (
        "Comdat", "ComdatSelection", "DLLStorageClass", "GlobalAlias", "GlobalIFunc", "GlobalObject", "GlobalValue",
        "GlobalVariable", "Linkage", "ThreadLocalMode", "UnnamedAddr", "Visibility",
    ),
    "llvmpy_mid.ir.inline_asm": ("InlineAsm",),
    "llvmpy_mid.ir.instruction": ("Instruction",),
    "llvmpy_mid.ir.instructions.cmp": ("Predicate",),
    "llvmpy_mid.ir.instructions.flags": (
        "AtomicOrdering", "AtomicRMWBinOp", "FastMathFlags", "GEPFlags", "TailCallKind",
    ),
    "llvmpy_mid.ir.metadata": ("MDNode", "MDString", "Metadata", "MetadataAsValue", "NamedMDNode", "ValueAsMetadata"),
    "llvmpy_mid.ir.module": ("Module",),
    "llvmpy_mid.ir.types": (
        "ArrayType", "FloatingPointType", "FunctionType", "IntegerType", "PointerType", "StructType", "TargetExtType",
        "Type", "TypeID", "VectorType",
    ),
    "llvmpy_mid.ir.value": ("Use", "User", "Value"),
}
_getattr, __dir__ = lazy_exports(globals(), _EXPORTS)
if not TYPE_CHECKING:
    __getattr__ = _getattr


__all__ = [
    "Argument",
    "ArrayType",
    "AtomicOrdering",
    "AtomicRMWBinOp",
    "Attribute",
    "AttributeList",
    "AttributeSet",
    "BasicBlock",
    "BlockAddress",
    "Comdat",
    "ComdatSelection",
    "Constant",
    "ConstantAggregateZero",
    "ConstantArray",
    "ConstantDataArray",
    "ConstantDataVector",
    "ConstantExpr",
    "ConstantFP",
    "ConstantInt",
    "ConstantPointerNull",
    "ConstantStruct",
    "ConstantTargetNone",
    "ConstantTokenNone",
    "ConstantVector",
    "Context",
    "DLLStorageClass",
    "DSOLocalEquivalent",
    "DataLayout",
    "FastMathFlags",
    "FloatingPointType",
    "Function",
    "FunctionType",
    "GEPFlags",
    "GlobalAlias",
    "GlobalIFunc",
    "GlobalObject",
    "GlobalValue",
    "GlobalVariable",
    "IRBuilder",
    "InlineAsm",
    "Instruction",
    "IntegerType",
    "Linkage",
    "MDNode",
    "MDString",
    "Metadata",
    "MetadataAsValue",
    "Module",
    "NamedMDNode",
    "NoCFIValue",
    "PointerType",
    "PoisonValue",
    "Predicate",
    "StructType",
    "TailCallKind",
    "TargetExtType",
    "ThreadLocalMode",
    "Type",
    "TypeID",
    "UndefValue",
    "UnnamedAddr",
    "Use",
    "User",
    "Value",
    "ValueAsMetadata",
    "VectorType",
    "Visibility",
    "clone_basic_block",
    "gc_paused",
    "clone_function",
    "clone_function_into",
    "remap_instruction",
]
