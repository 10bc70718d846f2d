"""Optimising ``llvm.global_ctors`` (LLVM lib/Transforms/Utils/CtorUtils.cpp).

:func:`optimize_global_ctors_list` offers each constructor, in priority order
(stable), to a callback; the entries it accepts are removed from the list (a
list of a new length is a new global, inserted before the old one).
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantArray,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.module import Module
from llvmpy_mid.transform.utils.evaluator import has_unique_initializer

__all__ = ["optimize_global_ctors_list"]


def _find_global_ctors(module: Module) -> GlobalVariable | None:
    gv = module.get_global("llvm.global_ctors")
    if gv is None or not has_unique_initializer(gv):
        return None
    ca = gv.initializer
    if not isinstance(ca, ConstantArray):
        return None
    for op in ca.operands:
        if isinstance(op, ConstantAggregateZero):
            continue
        if not isinstance(op, ConstantStruct):
            return None
        fn = op.get_operand(1)
        if isinstance(fn, ConstantPointerNull):
            continue
        if not isinstance(fn, Function) or fn.args:
            return None
    return gv


def _remove_global_ctors(gcl: GlobalVariable, remove: set[int]) -> None:
    old = gcl.initializer
    assert isinstance(old, ConstantArray)
    kept = [op for i, op in enumerate(old.operands) if i not in remove]
    ctx = gcl.context
    elt = old.type.element_type  # type: ignore[attr-defined]
    aty = ctx.array_type(elt, len(kept))
    ca: Constant = ConstantArray.get(aty, [c for c in kept if isinstance(c, Constant)])
    if ca.type is old.type:
        gcl.initializer = ca
        return
    module = gcl.parent
    assert module is not None
    ngv = GlobalVariable(ca.type, "", gcl.linkage, ca, gcl.is_constant_global)
    ngv.thread_local_mode = gcl.thread_local_mode
    module.globals.insert_before(ngv, gcl)
    ngv.take_name(gcl)
    if not gcl.use_empty:
        gcl.replace_all_uses_with(ngv)
    gcl.erase_from_parent()


def optimize_global_ctors_list(module: Module, should_remove: Callable[[int, Function], bool]) -> bool:
    """Ask ``should_remove(priority, ctor)`` for each constructor; drop the accepted ones."""
    gcl = _find_global_ctors(module)
    if gcl is None:
        return False
    ca = gcl.initializer
    assert isinstance(ca, ConstantArray)
    ctors: list[tuple[int, Function | None]] = []
    for op in ca.operands:
        if isinstance(op, ConstantStruct):
            prio_c = op.get_operand(0)
            fn_c = op.get_operand(1)
            ctors.append(
                (prio_c.value if isinstance(prio_c, ConstantInt) else 0, fn_c if isinstance(fn_c, Function) else None)
            )
        else:
            # zeroinitializer entry: priority 0, no function
            ctors.append((0, None))
    if not ctors:
        return False
    order = sorted(range(len(ctors)), key=lambda i: ctors[i][0])
    remove: set[int] = set()
    for i in order:
        priority, ctor = ctors[i]
        if ctor is None:
            continue
        if should_remove(priority, ctor):
            remove.add(i)
    if not remove:
        return False
    _remove_global_ctors(gcl, remove)
    return True
