"""Scalar replacement of an internal aggregate global (LLVM
lib/Transforms/IPO/GlobalOpt.cpp: ``collectSRATypes``, ``SRAGlobal``,
``transferSRADebugInfo``).

The global's uses must all be loads and stores at constant offsets (through
casts and constant-index GEPs), one type per offset, non-overlapping and inside
the global. Each (offset, type) part becomes an internal global ``name.N``
(in offset order) initialised from the aggregate's initializer, aligned to what
the aggregate's alignment guarantees at that offset; the accesses are pointed at
the parts and the old global is deleted. Not split: parts of scalable types, or
more than 16 parts both loaded and stored.
"""

from __future__ import annotations

from llvmpy_mid.analysis.constant_folding_memory import constant_fold_load_from_const
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.ipo.global_opt_sra_debug import transfer_sra_debug_info
from llvmpy_mid.ipo.global_opt_stats import NUM_SRA, copy_global_variable_attributes
from llvmpy_mid.transform.utils.global_status import is_safe_to_destroy_constant, remove_dead_constant_users
from llvmpy_mid.transform.utils.local import (
    get_or_enforce_known_alignment,
    recursively_delete_trivially_dead_instructions,
)

__all__ = ["sra_global"]


class _Part:
    __slots__ = ("ty", "initializer", "is_loaded", "is_stored")

    def __init__(self, ty: Type) -> None:
        self.ty = ty
        self.initializer: Constant | None = None
        self.is_loaded = False
        self.is_stored = False


def _op(v: Value) -> str:
    op = getattr(v, "opcode", None)
    return op if isinstance(op, str) else ""


def _is_cast_or_const_gep(v: Value) -> bool:
    op = _op(v)
    if op in ("bitcast", "addrspacecast"):
        return True
    if op == "getelementptr":
        return all(isinstance(ix, Constant) for ix in v.operands[1:])  # type: ignore[attr-defined]
    return False


def _collect_sra_types(parts: dict[int, _Part], gv: GlobalVariable, dl: DataLayout) -> bool:
    init = gv.initializer
    assert init is not None
    worklist: list[Use] = []
    visited: set[int] = set()

    def append_uses(v: Value) -> None:
        for u in v.uses:
            if id(u) not in visited:
                visited.add(id(u))
                worklist.append(u)

    append_uses(gv)
    while worklist:
        use = worklist.pop()
        user = use.user
        if _is_cast_or_const_gep(user):
            append_uses(user)
            continue
        if isinstance(user, (LoadInst, StoreInst)):
            if isinstance(user, StoreInst) and use.index == 0:
                return False
            base, offset = strip_and_accumulate_constant_offsets(user.pointer_operand, dl, True)
            if base is not gv or offset < 0 or offset.bit_length() >= 64:
                return False
            ty = user.type if isinstance(user, LoadInst) else user.value_operand.type
            part = parts.get(offset)
            inserted = part is None
            if part is None:
                part = parts[offset] = _Part(ty)
            if ty is not part.ty:
                return False
            if inserted:
                part.initializer = constant_fold_load_from_const(init, ty, dl, offset)
                if part.initializer is None:
                    return False
            if dl.is_scalable(ty):
                return False
            part.is_loaded |= isinstance(user, LoadInst)
            if isinstance(user, StoreInst):
                stored = user.value_operand
                if not isinstance(stored, Constant) or stored is not part.initializer:
                    part.is_stored = True
            continue
        if isinstance(user, Constant):
            if not is_safe_to_destroy_constant(user):
                return False
            continue
        return False
    return True


def _common_alignment(a: int, offset: int) -> int:
    if offset == 0:
        return a
    low = offset & -offset
    return min(a, low)


def sra_global(gv: GlobalVariable, dl: DataLayout) -> GlobalVariable | None:
    """Split ``gv``; the first new global (lowest offset), or None when not split."""
    parts: dict[int, _Part] = {}
    if not _collect_sra_types(parts, gv, dl) or not parts:
        return None
    if len(parts) == 1 and next(iter(parts.values())).ty is gv.value_type:
        return None
    if sum(1 for p in parts.values() if p.is_loaded and p.is_stored) > 16:
        return None
    ordered = sorted(parts.items(), key=lambda kv: kv[0])
    end = 0
    for off, part in ordered:
        if off < end:
            return None
        end = off + dl.type_alloc_size(part.ty)
    if end > dl.type_alloc_size(gv.value_type):
        return None

    start_align = gv.alignment if gv.alignment else dl.abi_alignment(gv.value_type)
    var_size = dl.type_size_in_bits(gv.value_type)
    module = gv.parent
    assert module is not None
    new_globals: dict[int, GlobalVariable] = {}
    for suffix, (off, part) in enumerate(ordered):
        assert part.initializer is not None
        ngv = GlobalVariable(
            part.ty, "%s.%d" % (gv.name, suffix), Linkage.INTERNAL, part.initializer, False, gv.address_space
        )
        module.globals.insert_before(ngv, gv)
        copy_global_variable_attributes(ngv, gv)
        new_globals[off] = ngv
        new_align = _common_alignment(start_align, off)
        if new_align > dl.abi_alignment(part.ty):
            ngv.alignment = new_align
        transfer_sra_debug_info(gv, ngv, off * 8, dl.type_alloc_size_in_bits(part.ty), var_size)

    worklist: list[Value] = []
    seen: set[int] = set()
    dead: list[Value | None] = []

    def append_users(v: Value) -> None:
        for u in v.users:
            if id(u) not in seen:
                seen.add(id(u))
                worklist.append(u)

    append_users(gv)
    while worklist:
        v = worklist.pop()
        if _op(v) in ("bitcast", "addrspacecast", "getelementptr"):
            append_users(v)
            if isinstance(v, Instruction):
                dead.append(v)
            continue
        if isinstance(v, (LoadInst, StoreInst)):
            _, offset = strip_and_accumulate_constant_offsets(v.pointer_operand, dl, True)
            ngv = new_globals[offset]
            ty = v.type if isinstance(v, LoadInst) else v.value_operand.type
            pref = dl.pref_alignment(ty)
            align = get_or_enforce_known_alignment(ngv, pref, dl, v, None, None)
            if isinstance(v, LoadInst):
                v.set_operand(0, ngv)
            else:
                v.set_operand(1, ngv)
            v.alignment = align
    recursively_delete_trivially_dead_instructions(dead)
    remove_dead_constant_users(gv)
    gv.erase_from_parent()
    NUM_SRA.add()
    return new_globals[ordered[0][0]]
