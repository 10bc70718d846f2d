"""``lower-global-dtors``: registers the destructors of ``@llvm.global_dtors`` with
``__cxa_atexit`` from new constructors (LLVM 19.1.7 ``lib/Transforms/Utils/LowerGlobalDtors.cpp``,
``LowerGlobalDtorsPass``).

How: the entries of ``@llvm.global_dtors`` (an array of ``{ iN, ptr, ptr }``) are read up to
the first null function, skipping malformed ones, and grouped by priority (clamped to 65535,
in increasing order) and, within a priority, by runs of the same associated object (casts
stripped). If ``__cxa_atexit`` is an exact definition whose first argument is unused, the
list is simply erased. Otherwise, for each group, a private ``call_dtors[.P][$I][.ASSOC]``
function (``void(ptr)``) calls the group's destructors in reverse order, and a private
``register_call_dtors[.P][$I][.ASSOC]`` passes it to
``__cxa_atexit(fn, null, @__dso_handle)`` and traps when that returns non-zero; the
registration function is appended to ``@llvm.global_ctors`` with the group's priority and
associated object (LLVM's ``appendToGlobalCtors``: the list is re-created at the end of the
module). ``__cxa_atexit`` and ``@__dso_handle`` (``extern_weak hidden constant i8``) are
declared when missing; an existing ``@__dso_handle`` of any type is used as it is. Finally
``@llvm.global_dtors`` is erased. A change preserves only the CFG analyses.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantArray, ConstantInt, ConstantPointerNull, ConstantStruct
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage, Visibility
from llvmpy_mid.ir.intrinsics import intrinsic_declaration
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, FunctionType, IntegerType, PointerType, StructType, Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses

_MAX_PRIORITY = 0xFFFF

Group = tuple[Constant, list[Constant]]


def _pointer_cast(c: Constant, ty: PointerType) -> Constant:
    """``ConstantExpr::getPointerCast`` of ``c`` to ``ty``."""
    if c.type is ty:
        return c
    if isinstance(c.type, IntegerType):
        return ConstantExpr.get_cast("inttoptr", c, ty)
    if isinstance(c.type, PointerType) and c.type.address_space != ty.address_space:
        return ConstantExpr.get_cast("addrspacecast", c, ty)
    return ConstantExpr.get_cast("bitcast", c, ty)


def append_to_global_array(array_name: str, module: Module, fn: Function, priority: int, data: Constant | None) -> None:
    """Add ``{ i32 priority, ptr fn, ptr data }`` to the array global ``array_name``, re-created
    at the end of the module's globals (LLVM ``appendToGlobalCtors``/``appendToGlobalDtors``)."""
    ctx = module.context
    ptr = ctx.pointer_type(0)
    i32 = ctx.int_type(32)
    entries: list[Constant] = []
    old = module.get_global(array_name)
    elt_ty: Type | None = None
    if old is not None and isinstance(old.value_type, ArrayType):
        elt_ty = old.value_type.element_type
        init = old.initializer
        if init is not None:
            entries = [op for op in init.operands if isinstance(op, Constant)]
        old.erase_from_parent()
    if not isinstance(elt_ty, StructType):
        elt_ty = ctx.struct_type([i32, ctx.pointer_type(fn.address_space), ptr])
    values: list[Constant] = [ConstantInt.get(i32, priority), fn]
    values.append(_pointer_cast(data, ptr) if data is not None else ConstantPointerNull.get(ptr))
    entries.append(ConstantStruct.get(elt_ty, values[: len(elt_ty.elements)]))
    array_ty = ctx.array_type(elt_ty, len(entries))
    GlobalVariable(array_ty, array_name, Linkage.APPENDING, ConstantArray.get(array_ty, entries), module=module)


def _collect_dtors(gv: GlobalVariable) -> dict[int, list[Group]] | None:
    """The destructors by priority, in runs of one associated object; None when the list
    is not an array of ``{ int, ptr, ptr }``."""
    init = gv.initializer
    if not isinstance(init, ConstantArray):
        return None
    ety = init.type.element_type  # type: ignore[attr-defined]
    if not isinstance(ety, StructType) or len(ety.elements) != 3:
        return None
    if not isinstance(ety.elements[0], IntegerType) or not all(isinstance(t, PointerType) for t in ety.elements[1:]):
        return None
    by_priority: dict[int, list[Group]] = {}
    for entry in init.operands:
        if not isinstance(entry, ConstantStruct):
            continue
        prio = entry.get_operand(0)
        if not isinstance(prio, ConstantInt):
            continue
        dtor = entry.get_operand(1)
        assert isinstance(dtor, Constant)
        if dtor.is_null_value:
            break
        assoc = strip_pointer_casts(entry.get_operand(2))
        assert isinstance(assoc, Constant)
        groups = by_priority.setdefault(min(prio.zext_value, _MAX_PRIORITY), [])
        if not groups or groups[-1][0] is not assoc:
            groups.append((assoc, [dtor]))
        else:
            groups[-1][1].append(dtor)
    return by_priority


def _get_or_insert_function(module: Module, name: str, fn_ty: FunctionType) -> Value:
    """The callee ``Module::getOrInsertFunction`` gives: the existing global of that name
    (whatever it is) or a new declaration."""
    existing = module.symbol_table.lookup(name)
    if existing is not None:
        return existing
    return Function(fn_ty, name, Linkage.EXTERNAL, module=module)


def _suffix(priority: int, index: int, count: int, assoc: Constant) -> str:
    text = "." + str(priority) if priority != _MAX_PRIORITY else ""
    if count > 1:
        text += "$" + str(index)
    if not assoc.is_null_value:
        text += "." + assoc.name
    return text


def lower_global_dtors(module: Module) -> bool:
    """Rewrite ``@llvm.global_dtors`` as ``__cxa_atexit`` registrations; True on change."""
    gv = module.get_global("llvm.global_dtors")
    if gv is None or gv.initializer is None:
        return False
    by_priority = _collect_dtors(gv)
    if not by_priority:
        return False
    ctx = module.context
    ptr = ctx.pointer_type(0)
    i32 = ctx.int_type(32)
    void = ctx.void
    at_exit_fn_ty = ctx.function_type(void, [ptr])
    at_exit_ty = ctx.function_type(i32, [ptr, ptr, ptr])
    at_exit = _get_or_insert_function(module, "__cxa_atexit", at_exit_ty)
    if isinstance(at_exit, Function) and at_exit.has_exact_definition:
        if at_exit.args and at_exit.get_arg(0).use_empty:
            gv.erase_from_parent()
            return True
    dso_handle = module.symbol_table.lookup("__dso_handle")
    if not isinstance(dso_handle, GlobalVariable):
        dso_handle = GlobalVariable(ctx.int_type(8), "__dso_handle", Linkage.EXTERN_WEAK, None, True, module=module)
        dso_handle.visibility = Visibility.HIDDEN
    void_void = ctx.function_type(void, [])
    null = ConstantPointerNull.get(ptr)
    for priority in sorted(by_priority):
        groups = by_priority[priority]
        for index, (assoc, dtors) in enumerate(groups):
            suffix = _suffix(priority, index, len(groups), assoc)
            call_dtors = Function(at_exit_fn_ty, "call_dtors" + suffix, Linkage.PRIVATE, module=module)
            b = IRBuilder(BasicBlock(ctx, "body", call_dtors))
            for dtor in reversed(dtors):
                b.call(dtor, [], function_type=void_void, calling_conv=0)
            b.ret_void()
            register = Function(void_void, "register_call_dtors" + suffix, Linkage.PRIVATE, module=module)
            entry = BasicBlock(ctx, "entry", register)
            fail = BasicBlock(ctx, "fail", register)
            ret = BasicBlock(ctx, "return", register)
            b = IRBuilder(entry)
            res = b.call(at_exit, [call_dtors, null, dso_handle], "call", function_type=at_exit_ty, calling_conv=0)
            cmp = b.icmp("ne", res, ConstantInt.get(i32, 0))
            b.cond_br(cmp, fail, ret)
            b = IRBuilder(fail)
            trap = intrinsic_declaration(module, "llvm.trap", void_void)
            b.call(trap, [], function_type=void_void, calling_conv=0)
            b.unreachable()
            IRBuilder(ret).ret_void()
            append_to_global_array("llvm.global_ctors", module, register, priority, assoc)
    gv.erase_from_parent()
    return True


class LowerGlobalDtorsPass(Pass[Module]):
    """Lowers ``@llvm.global_dtors`` to ``__cxa_atexit`` calls."""

    name: ClassVar[str] = "lower-global-dtors"
    debug_type: ClassVar[str] = "lower-global-dtors"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        if not lower_global_dtors(unit):
            return PreservedAnalyses.all()
        return PreservedAnalyses.none().preserve_set(CFGAnalyses)


__all__ = ["LowerGlobalDtorsPass", "append_to_global_array", "lower_global_dtors"]
