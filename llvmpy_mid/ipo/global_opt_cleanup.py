"""GlobalOpt's clean-ups of the users of a global whose value is known or never read
(LLVM lib/Transforms/IPO/GlobalOpt.cpp: ``isLeakCheckerRoot``,
``IsSafeComputationToRemove``, ``CleanupPointerRootUsers``,
``CleanupConstantGlobalUsers``).

- :func:`is_leak_checker_root`: a non-private global that is or may contain a
  pointer (leak checkers treat it as a root, so stores of allocations stay);
- :func:`cleanup_pointer_root_users`: of a never-loaded root, drop the stores of
  constants and the stores of single-use allocation chains;
- :func:`cleanup_constant_global_users`: of a global whose content is known
  (constant initializer), fold the loads and drop the stores and memory
  intrinsics into it.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.constant_folding_memory import (
    constant_fold_load_from_const,
    constant_fold_load_from_uniform_value,
)
from llvmpy_mid.analysis.memory_builtins import is_alloc_like_fn
from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.types import ArrayType, PointerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.global_status import remove_dead_constant_users
from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions_permissive

__all__ = [
    "GetTLI",
    "cleanup_constant_global_users",
    "cleanup_pointer_root_users",
    "is_allocation_fn",
    "is_leak_checker_root",
    "mem_intrinsic_kind",
]

GetTLI = Callable[[Function], TargetLibraryInfo]

_MEMSET = ("llvm.memset", "llvm.memset.inline")
_MEMTRANSFER = ("llvm.memcpy", "llvm.memmove", "llvm.memcpy.inline")


def mem_intrinsic_kind(v: Value) -> str:
    """``"set"``, ``"transfer"`` or ``""`` for a memset / memcpy-memmove call."""
    if isinstance(v, CallBase) and v.opcode == "call":
        base = v.intrinsic_base
        if base in _MEMSET:
            return "set"
        if base in _MEMTRANSFER:
            return "transfer"
    return ""


def is_allocation_fn(v: Value, get_tli: GetTLI) -> bool:
    """LLVM ``isAllocationFn``: a call of an allocation or reallocation function."""
    if not isinstance(v, CallBase):
        return False
    fn = v.function
    tli = get_tli(fn) if fn is not None else None
    if is_alloc_like_fn(v, tli):
        return True
    kind = v.get_fn_attr("allockind")
    return kind is not None and bool(int(kind.alloc_fn_kind) & 3)  # Alloc | Realloc


def is_leak_checker_root(gv: GlobalVariable) -> bool:
    """Whether ``gv`` is, or may hold, a pointer a leak checker would treat as a root."""
    if gv.has_private_linkage:
        return False
    types: list[Type] = [gv.value_type]
    limit = 20
    while True:
        ty = types.pop()
        if isinstance(ty, PointerType):
            return True
        if isinstance(ty, VectorType):
            if isinstance(ty.element_type, PointerType):
                return True
        elif isinstance(ty, ArrayType):
            types.append(ty.element_type)
        elif isinstance(ty, StructType):
            if ty.is_opaque:
                return True
            for inner in ty.elements:
                if isinstance(inner, PointerType):
                    return True
                if isinstance(inner, (StructType, ArrayType, VectorType)):
                    types.append(inner)
        limit -= 1
        if limit == 0:
            return True
        if not types:
            return False


def _is_safe_computation_to_remove(v: Value, get_tli: GetTLI) -> bool:
    while True:
        if isinstance(v, Constant):
            return True
        if not v.has_one_use:
            return False
        if isinstance(v, (LoadInst, InvokeInst, Argument, GlobalValue)):
            return False
        if is_allocation_fn(v, get_tli):
            return True
        if not isinstance(v, Instruction):
            return False
        if v.may_have_side_effects():
            return False
        if isinstance(v, GetElementPtrInst):
            if not v.has_all_constant_indices:
                return False
        elif v.num_operands != 1:
            return False
        v = v.get_operand(0)


def cleanup_pointer_root_users(gv: GlobalVariable, get_tli: GetTLI) -> bool:
    """Drop the stores into a never-loaded root that do not keep allocated memory alive."""
    changed = False
    dead: list[tuple[Instruction, Instruction]] = []
    worklist: list[Value] = list(gv.users)
    while worklist:
        user = worklist.pop()
        if isinstance(user, StoreInst):
            val = user.value_operand
            if isinstance(val, Constant):
                changed = True
                user.erase_from_parent()
            elif isinstance(val, Instruction):
                if val.has_one_use:
                    dead.append((val, user))
            continue
        kind = mem_intrinsic_kind(user)
        if kind == "set":
            assert isinstance(user, CallBase)
            val = user.get_arg(1)
            if isinstance(val, Constant):
                changed = True
                user.erase_from_parent()
            elif isinstance(val, Instruction) and val.has_one_use:
                dead.append((val, user))
        elif kind == "transfer":
            assert isinstance(user, CallBase)
            src = user.get_arg(1)
            if isinstance(src, GlobalVariable) and src.is_constant_global:
                changed = True
                user.erase_from_parent()
            elif isinstance(src, Instruction) and src.has_one_use:
                dead.append((src, user))
        elif isinstance(user, ConstantExpr) and user.opcode == "getelementptr":
            worklist.extend(user.users)
    for first, store in dead:
        if _is_safe_computation_to_remove(first, get_tli):
            store.erase_from_parent()
            inst = first
            while True:
                if is_allocation_fn(inst, get_tli):
                    break
                nxt = inst.get_operand(0)
                if not isinstance(nxt, Instruction):
                    break
                inst.erase_from_parent()
                inst = nxt
            inst.erase_from_parent()
            changed = True
    remove_dead_constant_users(gv)
    return changed


def _op(v: Value) -> str:
    op = getattr(v, "opcode", None)
    return op if isinstance(op, str) else ""


def cleanup_constant_global_users(gv: GlobalVariable, dl: DataLayout) -> bool:
    """Fold the loads of a global whose initializer is its only content and delete the
    stores and memory intrinsics writing it."""
    init = gv.initializer
    assert init is not None
    worklist: list[Value] = list(gv.users)
    visited: set[int] = set()
    changed = False
    maybe_dead: list[Value | None] = []

    def erase(inst: Instruction) -> None:
        nonlocal changed
        for op in inst.operands:
            if isinstance(op, Instruction):
                maybe_dead.append(op)
        inst.erase_from_parent()
        changed = True

    while worklist:
        user = worklist.pop()
        if id(user) in visited:
            continue
        visited.add(id(user))
        op = _op(user)
        if op == "bitcast":
            worklist.extend(user.users)
        if op == "addrspacecast":
            worklist.extend(user.users)
        elif op == "getelementptr":
            worklist.extend(user.users)
        elif isinstance(user, LoadInst):
            ty = user.type
            res = constant_fold_load_from_uniform_value(init, ty, dl)
            if res is not None:
                user.replace_all_uses_with(res)
                erase(user)
                continue
            ptr, offset = strip_and_accumulate_constant_offsets(user.pointer_operand, dl, True)
            if isinstance(ptr, CallBase) and ptr.intrinsic_base == "llvm.threadlocal.address":
                ptr = ptr.get_arg(0)
            if ptr is gv:
                folded = constant_fold_load_from_const(init, ty, dl, offset)
                if folded is not None:
                    user.replace_all_uses_with(folded)
                    erase(user)
        elif isinstance(user, StoreInst):
            erase(user)
        elif isinstance(user, CallBase) and user.opcode == "call":
            base = user.intrinsic_base
            if base in _MEMSET or base in _MEMTRANSFER:
                if get_underlying_object(user.get_arg(0)) is gv:
                    erase(user)
            elif base == "llvm.threadlocal.address":
                worklist.extend(user.users)
    # Drop entries that were erased meanwhile.
    live: list[Value | None] = [v for v in maybe_dead if isinstance(v, Instruction) and not v.is_erased]
    changed |= recursively_delete_trivially_dead_instructions_permissive(live)
    remove_dead_constant_users(gv)
    return changed
