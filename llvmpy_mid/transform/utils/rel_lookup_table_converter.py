"""``rel-lookup-table-converter``: turns lookup tables of pointers into tables of 32-bit
offsets read with ``llvm.load.relative`` (LLVM 19.1.7
``lib/Transforms/Utils/RelLookupTableConverter.cpp``, ``RelLookupTableConverterPass``).

How: nothing happens unless the target builds relative lookup tables, asked of the first
function definition's :class:`~llvmpy_mid.analysis.target_transform_info.TargetTransformInfo`
(``should_build_rel_lookup_tables``: x86-64 with position-independent code outside the
medium and large code models; see :mod:`~llvmpy_mid.analysis.target_codegen_options`). Then
each global qualifies when it is a local, DSO-local ``constant`` array of 64-bit pointers,
each a constant offset from a local DSO-local ``constant`` variable, and its only use is a
``getelementptr`` (over the table's type) whose only use is a load of the element type that
has one use. It is replaced, in place in the module's global list, by ``NAME.rel``: an
``unnamed_addr`` ``[N x i32]`` constant aligned to 4 holding
``trunc(ptrtoint(elem) - ptrtoint(NAME.rel))`` per element; before the GEP the index is
shifted left by 2 (``reltable.shift``, folded for a constant index), and the load becomes
``llvm.load.relative`` of the new table and that offset (``reltable.intrinsic``). A change
preserves the CFG analyses.
"""

from __future__ import annotations

from typing import ClassVar, cast

from llvmpy_mid.analysis.constant_folding import is_constant_offset_from_global
from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantArray, ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.global_value import GlobalVariable, UnnamedAddr
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy


def _is_local_dso(gv: GlobalVariable) -> bool:
    return gv.has_local_linkage and gv.is_dso_local and gv.is_implicit_dso_local


def _table_access(gv: GlobalVariable) -> tuple[GetElementPtrInst, LoadInst] | None:
    """The one GEP and load that read ``gv``, when the table is used only that way."""
    if not gv.has_initializer or not gv.is_constant_global or not gv.has_one_use:
        return None
    gep = next(iter(gv.users))
    if not isinstance(gep, GetElementPtrInst) or not gep.has_one_use or gv.value_type is not gep.source_element_type:
        return None
    load = next(iter(gep.users))
    if not isinstance(load, LoadInst) or not load.has_one_use or load.type is not gep.result_element_type:
        return None
    if gep.num_operands < 3:
        return None
    return gep, load


def should_convert(module: Module, gv: GlobalVariable) -> bool:
    """Whether ``gv`` is a lookup table this pass rewrites (LLVM ``shouldConvertToRelLookupTable``)."""
    if _table_access(gv) is None or not _is_local_dso(gv):
        return False
    array = gv.initializer
    if not isinstance(array, ConstantArray):
        return False
    dl = module.data_layout
    elem_ty = cast(ArrayType, array.type).element_type
    if not isinstance(elem_ty, PointerType) or dl.pointer_type_size_in_bits(elem_ty) != 64:
        return False
    for op in array.operands:
        found = is_constant_offset_from_global(cast(Constant, op), dl)
        if found is None:
            return False
        target = found[0]
        if not isinstance(target, GlobalVariable) or not target.is_constant_global or not _is_local_dso(target):
            return False
    return True


def _create_rel_table(module: Module, table: GlobalVariable) -> GlobalVariable:
    ctx = module.context
    array = cast(ConstantArray, table.initializer)
    count = cast(ArrayType, array.type).count
    i32 = ctx.int_type(32)
    int_array = ctx.array_type(i32, count)
    rel = GlobalVariable(int_array, table.name + ".rel", table.linkage, None, table.is_constant_global,
                         table.address_space)  # fmt: skip
    rel.thread_local_mode = table.thread_local_mode
    rel.externally_initialized = table.externally_initialized
    module.globals.insert_before(rel, table)
    int_ptr = module.data_layout.int_ptr_type_for(ctx)
    base = ConstantExpr.get_cast("ptrtoint", rel, int_ptr)
    contents: list[Constant] = []
    for op in array.operands:
        target = ConstantExpr.get_cast("ptrtoint", cast(Constant, op), int_ptr)
        contents.append(ConstantExpr.get_cast("trunc", ConstantExpr.get_sub(target, base), i32))
    rel.initializer = ConstantArray.get(int_array, contents)
    rel.unnamed_addr = UnnamedAddr.GLOBAL
    rel.alignment = 4
    return rel


def convert_to_rel_lookup_table(module: Module, table: GlobalVariable) -> None:
    """Rewrite the one read of ``table`` to use a new relative table; ``table`` is left unused."""
    access = _table_access(table)
    assert access is not None
    gep, load = access
    rel = _create_rel_table(module, table)
    index = gep.get_operand(2)
    index_ty = cast(IntegerType, index.type)
    b = IRBuilder(before=gep, folder=ConstantFolder())
    offset = b.create_shl(index, ConstantInt.get(index_ty, 2), "reltable.shift")
    b.position_before(load)
    result = b.create_intrinsic("load.relative", [index_ty], [rel, offset], "reltable.intrinsic",
                                return_type=load.type)  # fmt: skip
    load.replace_all_uses_with(result)
    load.erase_from_parent()
    gep.erase_from_parent()


class RelLookupTableConverterPass(Pass[Module]):
    """Converts lookup tables of pointers to relative lookup tables."""

    name: ClassVar[str] = "rel-lookup-table-converter"
    debug_type: ClassVar[str] = "rel-lookup-table-converter"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        for fn in unit.functions:
            if fn.is_declaration:
                continue
            if not fam.get_result(TargetIRAnalysis, fn).should_build_rel_lookup_tables():
                return PreservedAnalyses.all()
            break
        changed = False
        for gv in list(unit.globals):
            if not should_convert(unit, gv):
                continue
            convert_to_rel_lookup_table(unit, gv)
            gv.erase_from_parent()
            changed = True
        if not changed:
            return PreservedAnalyses.all()
        return PreservedAnalyses.none().preserve_set(CFGAnalyses)


__all__ = ["RelLookupTableConverterPass", "convert_to_rel_lookup_table", "should_convert"]
