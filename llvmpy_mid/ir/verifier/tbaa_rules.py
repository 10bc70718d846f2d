"""The ``!tbaa`` access-tag checks (LLVM 19's ``TBAAVerifier``).

An access tag is ``!{base type, access type, offset [, immutable]}`` (the
struct-path form) or, in the "new" format whose type nodes start with their
parent, ``!{base, access, offset, size [, immutable]}``. The checks walk the
path from the base type down to the access type through the struct fields
that contain the offset, as LLVM does; the verdict on each base type node and
each scalar type node is memoised for the whole run (as LLVM's
``TBAABaseNodes``/``TBAAScalarNodes``), so a module with thousands of tagged
loads checks each type node once and each tag in time proportional to its
path. A failed check reports and stops the tag's checks; it does not stop the
other checks of the instruction (LLVM ignores the helper's result).

Not done here: upgrading old scalar tags (``!{!"int", !root}`` on an
instruction) to the struct-path form; LLVM's reader does that when it parses,
so a textual module with an old-style tag is rejected here with LLVM's
"Old-style TBAA" message.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import MDNode, Metadata
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.md_operands import const_int, llvm_operands, signed_value
from llvmpy_mid.ir.verifier.metadata_state import clean_set, state

_TAGGED_OPCODES = frozenset(("load", "store", "call", "va_arg", "atomicrmw", "cmpxchg"))
_INVALID = (True, 0xFFFFFFFF)


def _width(ci: ConstantInt) -> int:
    return ci.type.width


def _is_root(node: MDNode) -> bool:
    return len(llvm_operands(node)) < 2


def _is_scalar(c: Checker, node: MDNode) -> bool:
    cache = state(c).tbaa_scalar
    key = id(node)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _is_scalar_impl(node)
    return found


def _is_scalar_impl(node: MDNode) -> bool:
    seen: set[int] = set()
    while True:
        ops = llvm_operands(node)
        if len(ops) != 2 and len(ops) != 3:
            return False
        if not (isinstance(ops[0], Metadata) and ops[0].is_md_string):
            return False
        if len(ops) == 3:
            offset = const_int(ops[2])
            if offset is None or offset.value != 0:
                return False
        parent = ops[1]
        if not isinstance(parent, MDNode) or id(parent) in seen:
            return False
        seen.add(id(parent))
        if _is_root(parent):
            return True
        node = parent


def _is_new_format_type(node: MDNode | None) -> bool:
    if node is None:
        return False
    ops = llvm_operands(node)
    return len(ops) >= 3 and isinstance(ops[0], MDNode)


def _base_node(c: Checker, inst: Instruction, base: MDNode, new_format: bool) -> tuple[bool, int]:
    """LLVM's ``verifyTBAABaseNode``: (invalid, offset bit width), memoised per node."""
    if len(llvm_operands(base)) < 2:
        c.fail("Base nodes must have at least two operands", inst, base)
        return _INVALID
    cache = state(c).tbaa_base
    found = cache.get(id(base))
    if found is not None:
        return found
    result = _base_node_impl(c, inst, base, new_format)
    cache[id(base)] = result
    return result


def _base_node_impl(c: Checker, inst: Instruction, base: MDNode, new_format: bool) -> tuple[bool, int]:
    ops = llvm_operands(base)
    n = len(ops)
    if n == 2:
        return (False, 0) if _is_scalar(c, base) else _INVALID
    if new_format:
        if n % 3 != 0:
            c.fail("Access tag nodes must have the number of operands that is a multiple of 3!", base)
            return _INVALID
    elif n % 2 != 1:
        c.fail("Struct tag nodes must have an odd number of operands!", base)
        return _INVALID
    if new_format:
        if const_int(ops[1]) is None:
            c.fail("Type size nodes must be constants!", inst, base)
            return _INVALID
    elif not (isinstance(ops[0], Metadata) and ops[0].is_md_string):
        c.fail("Struct tag nodes have a string as their first operand", base)
        return _INVALID
    failed = False
    prev: int | None = None
    width = 0xFFFFFFFF
    first, step = (3, 3) if new_format else (1, 2)
    for idx in range(first, n, step):
        if not isinstance(ops[idx], MDNode):
            c.fail("Incorrect field entry in struct type node!", inst, base)
            failed = True
            continue
        offset = const_int(ops[idx + 1]) if idx + 1 < n else None
        if offset is None:
            c.fail("Offset entries must be constants!", inst, base)
            failed = True
            continue
        if width == 0xFFFFFFFF:
            width = _width(offset)
        if _width(offset) != width:
            c.fail("Bitwidth between the offsets and struct type entries must match", inst, base)
            failed = True
            continue
        if prev is not None and not prev <= offset.value:
            c.fail("Offsets must be increasing!", inst, base)
            failed = True
        prev = offset.value
        if new_format and (idx + 2 >= n or const_int(ops[idx + 2]) is None):
            c.fail("Member size entries must be constants!", inst, base)
            failed = True
            continue
    return _INVALID if failed else (False, width)


def _field_node(
    c: Checker, inst: Instruction, base: MDNode, offset: int, width: int, new_format: bool
) -> tuple[MDNode | None, int]:
    """LLVM's ``getFieldNodeFromTBAABaseNode``: the field holding ``offset`` and the offset within it."""
    ops = llvm_operands(base)
    n = len(ops)
    mask = (1 << width) - 1 if width else 0
    if n == 2:
        parent = ops[1]
        return (parent if isinstance(parent, MDNode) else None), offset
    first, step = (3, 3) if new_format else (1, 2)
    for idx in range(first, n, step):
        entry = const_int(ops[idx + 1])
        entry_value = entry.value if entry is not None else 0
        if entry_value > offset:
            if idx == first:
                c.fail("Could not find TBAA parent in struct type node", inst, base, str(signed_value(offset, width)))
                return None, offset
            prev_entry = const_int(ops[idx - step + 1])
            offset = (offset - (prev_entry.value if prev_entry is not None else 0)) & mask
            field = ops[idx - step]
            return (field if isinstance(field, MDNode) else None), offset
    last = n - step
    last_entry = const_int(ops[last + 1])
    offset = (offset - (last_entry.value if last_entry is not None else 0)) & mask
    field = ops[last]
    return (field if isinstance(field, MDNode) else None), offset


def verify_tbaa(c: Checker, inst: Instruction, tag: MDNode) -> bool:
    """LLVM's ``TBAAVerifier::visitTBAAMetadata``: False after the first problem found.
    A tag found valid once is valid again on any instruction that may carry one."""
    clean = clean_set(c, "tbaa")
    if id(tag) in clean and inst.opcode in _TAGGED_OPCODES:
        return True
    if _verify_tag(c, inst, tag):
        clean.add(id(tag))
        return True
    return False


def _verify_tag(c: Checker, inst: Instruction, tag: MDNode) -> bool:
    ops = llvm_operands(tag)
    if not ops:
        c.fail("TBAA metadata cannot have 0 operands", inst, tag)
        return False
    if inst.opcode not in _TAGGED_OPCODES:
        c.fail("This instruction shall not have a TBAA access tag!", inst)
        return False
    if not (isinstance(ops[0], MDNode) and len(ops) >= 3):
        c.fail("Old-style TBAA is no longer allowed, use struct-path TBAA instead", inst)
        return False
    base: Any = ops[0] if isinstance(ops[0], MDNode) else None
    access: Any = ops[1] if isinstance(ops[1], MDNode) else None
    new_format = _is_new_format_type(access)
    n = len(ops)
    if new_format:
        if n != 4 and n != 5:
            c.fail("Access tag metadata must have either 4 or 5 operands", inst, tag)
            return False
        if const_int(ops[3]) is None:
            c.fail("Access size field must be a constant", inst, tag)
            return False
    elif n >= 5:
        c.fail("Struct tag metadata must have either 3 or 4 operands", inst, tag)
        return False
    flag_index = 4 if new_format else 3
    if n == flag_index + 1:
        immutable = const_int(ops[flag_index])
        if immutable is None:
            c.fail("Immutability tag on struct tag metadata must be a constant", inst, tag)
            return False
        if immutable.value not in (0, 1):
            c.fail("Immutability part of the struct tag metadata must be either 0 or 1", inst, tag)
            return False
    if base is None or access is None:
        c.fail(
            "Malformed struct tag metadata: base and access-type should be non-null and point to Metadata nodes",
            inst,
            tag,
            base,
            access,
        )
        return False
    if not new_format and not _is_scalar(c, access):
        c.fail("Access type node must be a valid scalar type", inst, tag, access)
        return False
    offset_ci = const_int(ops[2])
    if offset_ci is None:
        c.fail("Offset must be constant integer", inst, tag)
        return False
    offset = offset_ci.value
    width = _width(offset_ci)
    seen_access = False
    path: set[int] = set()
    node: MDNode | None = base
    while node is not None and not _is_root(node):
        if id(node) in path:
            c.fail("Cycle detected in struct path", inst, tag)
            return False
        path.add(id(node))
        invalid, base_width = _base_node(c, inst, node, new_format)
        if invalid:
            return False
        seen_access = seen_access or node is access
        if _is_scalar(c, node) or node is access:
            if offset != 0:
                c.fail("Offset not zero at the point of scalar access", inst, tag, str(signed_value(offset, width)))
                return False
        if not (
            base_width == width or (base_width == 0 and offset == 0) or (new_format and base_width == 0xFFFFFFFF)
        ):
            c.fail("Access bit-width not the same as description bit-width", inst, tag, base_width, width)
            return False
        if new_format and seen_access:
            break
        node, offset = _field_node(c, inst, node, offset, width, new_format)
    if not seen_access:
        c.fail("Did not see access type in access path!", inst, tag)
        return False
    return True


__all__ = ["verify_tbaa"]
