"""Dead constant users: constants (expressions, aggregates) that nothing live uses.

Constants are uniqued and kept by the context, so a constant expression built
over a global keeps using it after the last instruction that needed it is gone.
Passes that ask "is this global still used?" first drop those dead users, as
LLVM's ``Constant::removeDeadConstantUsers`` (lib/IR/Constants.cpp) does.
``is_safe_to_destroy_constant`` is LLVM's ``isSafeToDestroyConstant``
(lib/Transforms/Utils/GlobalStatus.cpp).
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import Constant, ConstantData
from llvmpy_mid.ir.value import Use, Value


def _is_plain_constant(value: Value) -> bool:
    return value.is_constant and not value.is_global_value


def _destroy_if_dead(root: Constant) -> bool:
    """Destroy ``root`` and its constant users when no instruction, global or
    other live user reaches it; True when it was destroyed (LLVM ``constantIsDead``)."""
    if root.is_global_value:
        return False
    # Post-order over the constant users (explicit stack): a constant joins
    # ``order`` after all its users, so destroying in that order always meets
    # a constant whose uses are gone.
    stack: list[tuple[Value, bool]] = [(root, False)]
    dead: set[int] = set()
    order: list[Constant] = []
    while stack:
        c, expanded = stack.pop()
        if id(c) in dead:
            continue
        if expanded:
            if any(id(u) not in dead for u in c.users):
                return False
            dead.add(id(c))
            order.append(c)  # type: ignore[arg-type]
            continue
        stack.append((c, True))
        for user in c.users:
            if not _is_plain_constant(user):
                return False
            if id(user) not in dead:
                stack.append((user, False))
    for c in order:
        c._drop_metadata_wrapper()
        c.destroy_constant()
    return True


def remove_dead_constant_users(value: Value) -> None:
    """Destroy the constants using ``value`` that are themselves used only by
    dead constants (LLVM ``Constant::removeDeadConstantUsers``)."""
    last_live: Use | None = None
    use = value._use_head
    while use is not None:
        user = use.user
        if _is_plain_constant(user) and _destroy_if_dead(user):  # type: ignore[arg-type]
            # The use list changed: go on after the last use known live.
            use = last_live._next if last_live is not None else value._use_head
            continue
        last_live = use
        use = use._next


def is_safe_to_destroy_constant(c: Constant) -> bool:
    """True when only constants use ``c`` (transitively) and none of them is a
    global or constant data: destroying it loses nothing."""
    stack: list[Value] = [c]
    seen: set[int] = set()
    while stack:
        cur = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if cur.is_global_value or isinstance(cur, ConstantData):
            return False
        for user in cur.users:
            if not user.is_constant:
                return False
            stack.append(user)
    return True


__all__ = ["is_safe_to_destroy_constant", "remove_dead_constant_users"]
