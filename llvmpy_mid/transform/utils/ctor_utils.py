"""Editing ``llvm.global_ctors`` (LLVM's lib/Transforms/Utils/CtorUtils.cpp):
``optimize_global_ctors_list`` asks a predicate about each constructor, in
priority order, and drops the entries it approves from the list.
"""

from __future__ import annotations

from typing import Callable, cast

from llvmpy_mid.ir.constants import Constant, ConstantAggregateZero, ConstantArray, ConstantInt, ConstantPointerNull
from llvmpy_mid.ir.constants import ConstantStruct
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import ArrayType


def _find_global_ctors(module: Module) -> GlobalVariable | None:
    gv = module.get_global("llvm.global_ctors")
    if gv is None or not gv.has_unique_initializer:
        return None
    init = gv.initializer
    if not isinstance(init, ConstantArray):
        return None
    for entry in init.operands:
        if isinstance(entry, ConstantAggregateZero):
            continue
        if not isinstance(entry, ConstantStruct) or entry.num_operands < 2:
            return None
        fn = entry.get_operand(1)
        if isinstance(fn, ConstantPointerNull):
            continue
        if not isinstance(fn, Function) or fn.args:
            return None
    return gv


def _parse_entry(entry: Constant) -> tuple[int, Function | None]:
    if not isinstance(entry, ConstantStruct):
        return 0, None
    prio = entry.get_operand(0)
    fn = entry.get_operand(1)
    return (
        prio.zext_value if isinstance(prio, ConstantInt) else 0,
        fn if isinstance(fn, Function) else None,
    )


def _remove_global_ctors(gcl: GlobalVariable, remove: set[int]) -> None:
    old = cast(ConstantArray, gcl.initializer)
    kept = [cast(Constant, op) for i, op in enumerate(old.operands) if i not in remove]
    old_ty = cast(ArrayType, old.type)
    new_ty = old_ty.context.array_type(old_ty.element_type, len(kept))
    new_init = ConstantArray.get(new_ty, kept)
    if new_ty is old_ty:
        gcl.initializer = new_init
        return
    module = gcl.parent
    assert module is not None
    ngv = GlobalVariable(new_ty, "", gcl.linkage, new_init, gcl.is_constant_global)
    ngv.thread_local_mode = gcl.thread_local_mode
    module.globals.insert_before(ngv, gcl)
    ngv.take_name(gcl)
    if not gcl.use_empty:
        gcl.replace_all_uses_with(ngv)
    gcl.erase_from_parent()


def optimize_global_ctors_list(module: Module, should_remove: Callable[[int, Function], bool]) -> bool:
    """Drop each constructor of ``llvm.global_ctors`` for which
    ``should_remove(priority, fn)`` holds, asking in priority order; True on a change."""
    gcl = _find_global_ctors(module)
    if gcl is None:
        return False
    ctors = [_parse_entry(cast(Constant, op)) for op in cast(ConstantArray, gcl.initializer).operands]
    if not ctors:
        return False
    remove: set[int] = set()
    for index in sorted(range(len(ctors)), key=lambda i: ctors[i][0]):
        priority, fn = ctors[index]
        if fn is not None and should_remove(priority, fn):
            remove.add(index)
    if not remove:
        return False
    _remove_global_ctors(gcl, remove)
    return True


__all__ = ["optimize_global_ctors_list"]
