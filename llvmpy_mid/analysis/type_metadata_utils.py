"""Reading virtual tables through their ``!type`` metadata (LLVM's
lib/Analysis/TypeMetadataUtils.cpp): the pointer stored at a byte offset of a
vtable initialiser, absolute or relative (``trunc (sub (ptrtoint @f, ptrtoint
@vt))``), and the rewrite of relative entries to zero when their function goes.
"""

from __future__ import annotations

from typing import cast

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantArray, ConstantInt, ConstantStruct, DSOLocalEquivalent
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import ArrayType, StructType, TypeID
from llvmpy_mid.ir.value import Value


def _strip_gep(c: Constant | None) -> Value | None:
    if isinstance(c, ConstantExpr) and c.opcode == "getelementptr":
        return c.get_operand(0)
    return c


def get_pointer_at_offset(
    init: Constant, offset: int, module: Module, top_level_global: Constant | None = None
) -> Constant | None:
    """The pointer (or relative-pointer expression) found ``offset`` bytes into
    ``init``, or None when the offset does not land on one (LLVM ``getPointerAtOffset``)."""
    dl = module.data_layout
    current = init
    while True:
        if isinstance(current, DSOLocalEquivalent):
            current = current.global_value
        if current.type.type_id is TypeID.POINTER:
            return current if offset == 0 else None
        if isinstance(current, ConstantStruct):
            layout = dl.struct_layout(cast(StructType, current.type))
            if offset >= layout.size:
                return None
            op = layout.element_containing_offset(offset)
            offset -= layout.element_offset(op)
            current = cast(Constant, current.get_operand(op))
            continue
        if isinstance(current, ConstantArray):
            elem_size = dl.type_alloc_size(cast(ArrayType, current.type).element_type)
            if elem_size == 0:
                return None
            op = offset // elem_size
            if op >= current.num_operands:
                return None
            offset %= elem_size
            current = cast(Constant, current.get_operand(op))
            continue
        if isinstance(current, ConstantInt):
            return current if offset == 0 and current.is_zero else None
        if isinstance(current, ConstantExpr):
            opcode = current.opcode
            if opcode in ("trunc", "ptrtoint"):
                current = cast(Constant, current.get_operand(0))
                continue
            if opcode == "sub":
                target = _strip_gep(get_pointer_at_offset(cast(Constant, current.get_operand(1)), 0, module))
                if target is None or target is not top_level_global:
                    return None
                current = cast(Constant, current.get_operand(0))
                continue
        return None


def _zero_relative_pointer_user(user: Value) -> None:
    if not (isinstance(user, ConstantExpr) and user.opcode == "ptrtoint"):
        return
    for sub in list(user.users):
        if not (isinstance(sub, ConstantExpr) and sub.opcode == "sub"):
            return
        replace_non_metadata_uses_with(sub, ConstantInt.get(sub.type, 0))


def replace_relative_pointer_users_with_zero(c: Constant) -> None:
    """Each ``sub (ptrtoint c, ...)`` using ``c`` becomes 0 (LLVM
    ``replaceRelativePointerUsersWithZero``), so no ``sub (0, @vt)`` is left behind."""
    for user in list(c.users):
        if isinstance(user, DSOLocalEquivalent):
            replace_relative_pointer_users_with_zero(user)
        else:
            _zero_relative_pointer_user(user)


def replace_non_metadata_uses_with(old: Value, new: Value) -> None:
    """Every use of ``old`` outside metadata uses ``new`` (LLVM
    ``replaceNonMetadataUsesWith``); constants using it are rebuilt."""
    use = old._use_head
    while use is not None:
        user = use.user
        if user.is_constant and not user.is_global_value:
            user.handle_operand_change(old, new)  # type: ignore[attr-defined]
        else:
            use.set(new)
        use = old._use_head


__all__ = ["get_pointer_at_offset", "replace_non_metadata_uses_with", "replace_relative_pointer_users_with_zero"]
