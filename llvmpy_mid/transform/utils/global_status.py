"""How a global is used: loaded, stored (never, its initializer only, once, many
times), compared, from which functions (LLVM lib/Transforms/Utils/GlobalStatus.cpp,
with ``Constant::removeDeadConstantUsers`` and ``isThreadDependent`` from
lib/IR/Constants.cpp).

:func:`analyze_global` walks the uses of a global (through pointer-typed constant
expressions, GEPs, casts, selects, phis and ``llvm.threadlocal.address``) and
fills a :class:`GlobalStatus`; it returns True when some use may let the address
escape, in which case nothing may be concluded. :func:`is_safe_to_destroy_constant`
tells whether a constant is only used by other dead constants, and
:func:`remove_dead_constant_users` drops such dead constant users of a value.
"""

from __future__ import annotations

from enum import IntEnum

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantData
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import AddrSpaceCastInst, BitCastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import PointerType
from llvmpy_mid.ir.value import Value

__all__ = [
    "GlobalStatus",
    "StoredType",
    "analyze_global",
    "is_safe_to_destroy_constant",
    "is_thread_dependent",
    "remove_dead_constant_users",
    "stronger_ordering",
]

_ORDER_RANK = {
    AtomicOrdering.NOT_ATOMIC: 0,
    AtomicOrdering.UNORDERED: 1,
    AtomicOrdering.MONOTONIC: 2,
    AtomicOrdering.ACQUIRE: 4,
    AtomicOrdering.RELEASE: 5,
    AtomicOrdering.ACQ_REL: 6,
    AtomicOrdering.SEQ_CST: 7,
}


def stronger_ordering(x: AtomicOrdering, y: AtomicOrdering) -> AtomicOrdering:
    """The stronger of two orderings; acquire with release gives acq_rel."""
    pair = {x, y}
    if pair == {AtomicOrdering.ACQUIRE, AtomicOrdering.RELEASE}:
        return AtomicOrdering.ACQ_REL
    return x if _ORDER_RANK[x] >= _ORDER_RANK[y] else y


class StoredType(IntEnum):
    """How the global is stored to, from the least to the most."""

    NOT_STORED = 0
    INITIALIZER_STORED = 1
    STORED_ONCE = 2
    STORED = 3


class GlobalStatus:
    """What :func:`analyze_global` learned about one global."""

    __slots__ = (
        "is_compared",
        "is_loaded",
        "stored_type",
        "stored_once_store",
        "num_stores",
        "accessing_function",
        "has_multiple_accessing_functions",
        "ordering",
    )

    def __init__(self) -> None:
        self.is_compared = False
        self.is_loaded = False
        self.stored_type = StoredType.NOT_STORED
        self.stored_once_store: StoreInst | None = None
        self.num_stores = 0
        self.accessing_function: Function | None = None
        self.has_multiple_accessing_functions = False
        self.ordering = AtomicOrdering.NOT_ATOMIC

    @property
    def stored_once_value(self) -> Value | None:
        store = self.stored_once_store
        return store.value_operand if store is not None else None


def is_thread_dependent(c: Constant) -> bool:
    """Whether the constant's value differs between threads: it refers to a
    thread-local global (LLVM ``Constant::isThreadDependent``)."""
    stack: list[Value] = [c]
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, GlobalValue):
            if v.is_thread_local:
                return True
            continue
        if isinstance(v, Constant):
            stack.extend(v.operands)
    return False


def is_safe_to_destroy_constant(c: Constant) -> bool:
    """Whether only other constants, themselves dead, use ``c``."""
    stack: list[Constant] = [c]
    seen: set[int] = set()
    while stack:
        cur = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if isinstance(cur, (GlobalValue, ConstantData)):
            return False
        for user in cur.users:
            if isinstance(user, Constant):
                stack.append(user)
            else:
                return False
    return True


def _constant_is_dead(c: Constant) -> bool:
    """Whether ``c`` is used by dead constants only; if so destroy it and them."""
    if isinstance(c, GlobalValue):
        return False
    # Iterative post-order: check the users of each constant before itself.
    stack: list[Constant] = [c]
    order: list[Constant] = []
    seen: set[int] = set()
    while stack:
        cur = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if isinstance(cur, GlobalValue):
            return False
        order.append(cur)
        for user in cur.users:
            if not isinstance(user, Constant):
                return False
            stack.append(user)
    # All users are dead constants: destroy from the outermost users inwards.
    for cur in reversed(order):
        cur._drop_metadata_wrapper()
        cur.destroy_constant()
    return True


def remove_dead_constant_users(v: Value) -> None:
    """Destroy the constants that use ``v`` and are themselves used by nothing but
    dead constants (LLVM ``Constant::removeDeadConstantUsers``)."""
    for user in list(v.users):
        if isinstance(user, Constant) and not isinstance(user, GlobalValue):
            if _constant_is_dead(user):
                continue


def _strip_to_global(v: Value) -> Value:
    return strip_pointer_casts(v)


def _analyze(v: Value, gs: GlobalStatus, visited: set[int]) -> bool:
    if isinstance(v, GlobalVariable) and v.externally_initialized:
        gs.stored_type = StoredType.STORED_ONCE
    for use in list(v.uses):
        user = use.user
        if isinstance(user, Constant):
            if isinstance(user, ConstantExpr) and isinstance(user.type, PointerType):
                if _analyze(user, gs, visited):
                    return True
            elif not is_safe_to_destroy_constant(user):
                return True
            continue
        if not isinstance(user, Instruction):
            return True
        if not gs.has_multiple_accessing_functions:
            fn = user.function
            if gs.accessing_function is None:
                gs.accessing_function = fn
            elif gs.accessing_function is not fn:
                gs.has_multiple_accessing_functions = True
        if isinstance(user, LoadInst):
            gs.is_loaded = True
            if user.volatile:
                return True
            gs.ordering = stronger_ordering(gs.ordering, user.ordering)
        elif isinstance(user, StoreInst):
            if user.value_operand is v:
                return True
            if user.volatile:
                return True
            gs.num_stores += 1
            gs.ordering = stronger_ordering(gs.ordering, user.ordering)
            if gs.stored_type != StoredType.STORED:
                ptr = _strip_to_global(user.pointer_operand)
                if isinstance(ptr, GlobalVariable):
                    stored = user.value_operand
                    if isinstance(stored, Constant) and is_thread_dependent(stored):
                        return True
                    if ptr.has_initializer and stored is ptr.initializer:
                        if gs.stored_type < StoredType.INITIALIZER_STORED:
                            gs.stored_type = StoredType.INITIALIZER_STORED
                    elif isinstance(stored, LoadInst) and stored.pointer_operand is ptr:
                        if gs.stored_type < StoredType.INITIALIZER_STORED:
                            gs.stored_type = StoredType.INITIALIZER_STORED
                    elif gs.stored_type < StoredType.STORED_ONCE:
                        gs.stored_type = StoredType.STORED_ONCE
                        gs.stored_once_store = user
                    elif gs.stored_type == StoredType.STORED_ONCE and gs.stored_once_value is stored:
                        pass
                    else:
                        gs.stored_type = StoredType.STORED
                else:
                    gs.stored_type = StoredType.STORED
        elif isinstance(user, (BitCastInst, GetElementPtrInst, AddrSpaceCastInst)):
            if _analyze(user, gs, visited):
                return True
        elif isinstance(user, (SelectInst, PHINode)):
            if id(user) not in visited:
                visited.add(id(user))
                if _analyze(user, gs, visited):
                    return True
        elif isinstance(user, CmpInst):
            gs.is_compared = True
        elif isinstance(user, CallBase):
            base = user.intrinsic_base
            if base in ("llvm.memcpy", "llvm.memmove", "llvm.memcpy.inline"):
                if _is_volatile_mem_intrinsic(user):
                    return True
                if user.get_arg(0) is v:
                    gs.stored_type = StoredType.STORED
                if user.get_arg(1) is v:
                    gs.is_loaded = True
            elif base in ("llvm.memset", "llvm.memset.inline"):
                if _is_volatile_mem_intrinsic(user):
                    return True
                gs.stored_type = StoredType.STORED
            elif base == "llvm.threadlocal.address":
                if _analyze(user, gs, visited):
                    return True
            else:
                if use is not user.called_operand_use:
                    return True
                gs.is_loaded = True
        else:
            return True
    return False


def _is_volatile_mem_intrinsic(call: CallBase) -> bool:
    flag = call.get_arg(3)
    from llvmpy_mid.ir.constants import ConstantInt

    return not (isinstance(flag, ConstantInt) and flag.value == 0)


def analyze_global(v: Value, gs: GlobalStatus) -> bool:
    """Fill ``gs`` from the uses of ``v``; True when the address may escape
    (LLVM ``GlobalStatus::analyzeGlobal``)."""
    return _analyze(v, gs, set())
