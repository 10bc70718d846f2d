"""Droppable uses: the operands of ``llvm.assume`` and ``llvm.pseudoprobe`` calls, which a
transform may discard instead of keeping the value alive (LLVM ``User::isDroppable``,
``Value::dropDroppableUse``/``dropDroppableUses`` in ``lib/IR/User.cpp`` and ``Value.cpp``).

Dropping the condition of an assume makes it ``true``; dropping a bundle input makes it
``undef`` and retags its bundle ``"ignore"`` (an assume whose bundles are all ``"ignore"``
states nothing: :func:`is_assume_with_empty_bundle`).
"""

from __future__ import annotations

from typing import Any, Callable

from llvmpy_mid.ir.constants import ConstantInt, UndefValue
from llvmpy_mid.ir.value import Use, Value

__all__ = ["drop_droppable_use", "drop_droppable_uses", "is_assume_with_empty_bundle", "is_droppable"]

IGNORE_BUNDLE_TAG = "ignore"


def is_droppable(user: object) -> bool:
    """A call of ``llvm.assume`` or ``llvm.pseudoprobe`` (LLVM ``User::isDroppable``)."""
    if getattr(user, "opcode", None) != "call":
        return False
    name = getattr(user, "intrinsic_name", "")
    return name == "llvm.assume" or name == "llvm.pseudoprobe"


def drop_droppable_use(use: Use) -> None:
    """Drop ``use``, an operand of an ``llvm.assume`` (LLVM ``Value::dropDroppableUse``)."""
    user: Any = use.user
    index = use.index
    if index == 0:
        use.set(ConstantInt.get_true(use.value.type))
        return
    use.set(UndefValue.get(use.value.type))
    infos = list(user._bundles)
    for k, (_tag, start, end) in enumerate(infos):
        if start <= index < end:
            infos[k] = (IGNORE_BUNDLE_TAG, start, end)
            break
    user._bundles = tuple(infos)


def drop_droppable_uses(value: Value, should_drop: Callable[[Use], bool] = lambda use: True) -> None:
    """Drop the uses of ``value`` in droppable users that ``should_drop`` accepts (LLVM
    ``Value::dropDroppableUses``); the uses are collected first, then dropped."""
    chosen = [u for u in value.uses if is_droppable(u.user) and should_drop(u)]
    for use in chosen:
        drop_droppable_use(use)


def is_assume_with_empty_bundle(assume: object) -> bool:
    """An assume whose bundles are all ``"ignore"`` (or that has none), LLVM
    ``isAssumeWithEmptyBundle``."""
    return all(info[0] == IGNORE_BUNDLE_TAG for info in getattr(assume, "_bundles", ()))
