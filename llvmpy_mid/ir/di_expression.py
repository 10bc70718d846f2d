"""Reading a ``DIExpression``'s element list as LLVM's integers: the DWARF
operation and encoding values, how many elements each operation takes, and
LLVM's ``DIExpression::isValid``, ``getFragmentInfo`` and ``isEntryValue``.

The elements are stored as written (``"DW_OP_plus_uconst"`` or a number);
:func:`expression_values` maps them to LLVM's integers (-1 for a name LLVM
does not know). Both the verifier (which memoises validity per node) and the
assembly printer (which prints an invalid expression's elements as numbers)
use these helpers.

Not done here: evaluating an expression, or the DWARF operations LLVM's IR
never holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llvmpy_mid.ir.debug_info import DIExpression

ATE_VALUES = {
    "DW_ATE_address": 1, "DW_ATE_boolean": 2, "DW_ATE_complex_float": 3, "DW_ATE_float": 4, "DW_ATE_signed": 5,
    "DW_ATE_signed_char": 6, "DW_ATE_unsigned": 7, "DW_ATE_unsigned_char": 8,
}  # fmt: skip
"""The ``DW_ATE_*`` encodings by name (they may stand in an expression, after ``DW_OP_LLVM_convert``)."""

_DW_OPS: dict[str, int] = {
    "DW_OP_addr": 0x03, "DW_OP_deref": 0x06, "DW_OP_const1u": 0x08, "DW_OP_const1s": 0x09,
    "DW_OP_const2u": 0x0A, "DW_OP_const2s": 0x0B, "DW_OP_const4u": 0x0C, "DW_OP_const4s": 0x0D,
    "DW_OP_const8u": 0x0E, "DW_OP_const8s": 0x0F, "DW_OP_constu": 0x10, "DW_OP_consts": 0x11,
    "DW_OP_dup": 0x12, "DW_OP_drop": 0x13, "DW_OP_over": 0x14, "DW_OP_pick": 0x15, "DW_OP_swap": 0x16,
    "DW_OP_rot": 0x17, "DW_OP_xderef": 0x18, "DW_OP_abs": 0x19, "DW_OP_and": 0x1A, "DW_OP_div": 0x1B,
    "DW_OP_minus": 0x1C, "DW_OP_mod": 0x1D, "DW_OP_mul": 0x1E, "DW_OP_neg": 0x1F, "DW_OP_not": 0x20,
    "DW_OP_or": 0x21, "DW_OP_plus": 0x22, "DW_OP_plus_uconst": 0x23, "DW_OP_shl": 0x24, "DW_OP_shr": 0x25,
    "DW_OP_shra": 0x26, "DW_OP_xor": 0x27, "DW_OP_bra": 0x28, "DW_OP_eq": 0x29, "DW_OP_ge": 0x2A,
    "DW_OP_gt": 0x2B, "DW_OP_le": 0x2C, "DW_OP_lt": 0x2D, "DW_OP_ne": 0x2E, "DW_OP_skip": 0x2F,
    "DW_OP_regx": 0x90, "DW_OP_fbreg": 0x91, "DW_OP_bregx": 0x92, "DW_OP_piece": 0x93,
    "DW_OP_deref_size": 0x94, "DW_OP_xderef_size": 0x95, "DW_OP_nop": 0x96, "DW_OP_push_object_address": 0x97,
    "DW_OP_call2": 0x98, "DW_OP_call4": 0x99, "DW_OP_call_ref": 0x9A, "DW_OP_form_tls_address": 0x9B,
    "DW_OP_call_frame_cfa": 0x9C, "DW_OP_bit_piece": 0x9D, "DW_OP_implicit_value": 0x9E,
    "DW_OP_stack_value": 0x9F, "DW_OP_implicit_pointer": 0xA0, "DW_OP_addrx": 0xA1, "DW_OP_constx": 0xA2,
    "DW_OP_entry_value": 0xA3, "DW_OP_const_type": 0xA4, "DW_OP_regval_type": 0xA5, "DW_OP_deref_type": 0xA6,
    "DW_OP_xderef_type": 0xA7, "DW_OP_convert": 0xA8, "DW_OP_reinterpret": 0xA9,
    "DW_OP_GNU_push_tls_address": 0xE0, "DW_OP_GNU_entry_value": 0xF3, "DW_OP_GNU_addr_index": 0xFB,
    "DW_OP_GNU_const_index": 0xFC,
    "DW_OP_LLVM_fragment": 0x1000, "DW_OP_LLVM_convert": 0x1001, "DW_OP_LLVM_tag_offset": 0x1002,
    "DW_OP_LLVM_entry_value": 0x1003, "DW_OP_LLVM_implicit_pointer": 0x1004, "DW_OP_LLVM_arg": 0x1005,
    "DW_OP_LLVM_extract_bits_sext": 0x1006, "DW_OP_LLVM_extract_bits_zext": 0x1007,
}  # fmt: skip
for _i in range(32):
    _DW_OPS["DW_OP_lit%d" % _i] = 0x30 + _i
    _DW_OPS["DW_OP_reg%d" % _i] = 0x50 + _i
    _DW_OPS["DW_OP_breg%d" % _i] = 0x70 + _i

_OP_FRAGMENT = 0x1000
_OP_ENTRY_VALUE = 0x1003
_OP_ARG = 0x1005
_OP_STACK_VALUE = 0x9F
_OP_SWAP = 0x16
_OPS_OF_SIZE_3 = frozenset((0x1001, 0x1000, 0x1006, 0x1007, 0x92))
_OPS_OF_SIZE_2 = frozenset((0x10, 0x11, 0x94, 0x23, 0x1002, 0x1003, 0x1005, 0x90))
_PLAIN_VALID_OPS = frozenset(
    (
        0x1004, 0x1001, 0x1005, 0x1002, 0x1006, 0x1007, 0x10, 0x23, 0x22, 0x1C, 0x1E, 0x1B, 0x1D, 0x21, 0x1A,
        0x27, 0x24, 0x25, 0x26, 0x06, 0x94, 0x18, 0x30, 0x20, 0x12, 0x90, 0x92, 0x97, 0x14, 0x11, 0x29, 0x2E,
        0x2B, 0x2A, 0x2D, 0x2C,
    )
)  # fmt: skip


def _element_value(element: Any) -> int:
    if isinstance(element, bool):
        return int(element)
    if isinstance(element, int):
        return element
    if isinstance(element, str):
        value = _DW_OPS.get(element)
        if value is None:
            value = ATE_VALUES.get(element, -1)
        return value
    return -1


def expression_values(expr: DIExpression) -> list[int]:
    """The element list as LLVM's integers."""
    return [_element_value(e) for e in expr.elements]


def _op_size(op: int) -> int:
    if 0x70 <= op <= 0x8F:
        return 2
    if op in _OPS_OF_SIZE_3:
        return 3
    if op in _OPS_OF_SIZE_2:
        return 2
    return 1


def expression_ops(values: list[int]) -> list[tuple[int, int]]:
    """(position, opcode) of each operation, stepping by LLVM's operand sizes."""
    out: list[tuple[int, int]] = []
    i = 0
    n = len(values)
    while i < n:
        op = values[i]
        out.append((i, op))
        i += _op_size(op)
    return out


def values_are_valid(values: list[int]) -> bool:
    n = len(values)
    ops = expression_ops(values)
    for index, (pos, op) in enumerate(ops):
        size = _op_size(op)
        if pos + size > n:
            return False
        if 0x50 <= op <= 0x8F:
            return True
        if op == _OP_FRAGMENT:
            return pos + size == n
        if op == _OP_STACK_VALUE:
            if pos + size == n:
                continue
            if ops[index + 1][1] != _OP_FRAGMENT:
                return False
            continue
        if op == _OP_SWAP:
            if n == 1:
                return False
            continue
        if op == _OP_ENTRY_VALUE:
            first = 0
            if ops[0][1] == _OP_ARG and n > 1 and values[1] == 0:
                first = 1
            return first < len(ops) and pos == ops[first][0] and pos + 1 < n and values[pos + 1] == 1
        if op not in _PLAIN_VALID_OPS:
            return False
    return True


def expression_is_well_formed(expr: DIExpression) -> bool:
    """LLVM's ``DIExpression::isValid`` (not memoised; the printer uses it:
    LLVM prints an invalid expression's elements as plain numbers)."""
    return values_are_valid(expression_values(expr))



def fragment_info(expr: DIExpression) -> tuple[int, int] | None:
    """(size in bits, offset in bits) of the expression's fragment operation."""
    elems = expr.elements
    if not elems or ("DW_OP_LLVM_fragment" not in elems and _OP_FRAGMENT not in elems):
        return None
    values = expression_values(expr)
    for pos, op in expression_ops(values):
        if op == _OP_FRAGMENT and pos + 2 < len(values):
            return values[pos + 2], values[pos + 1]
    return None


def is_entry_value(expr: DIExpression) -> bool:
    """LLVM's ``DIExpression::isEntryValue`` (on a valid expression)."""
    elems = expr.elements
    if not elems or ("DW_OP_LLVM_entry_value" not in elems and _OP_ENTRY_VALUE not in elems):
        return False
    values = expression_values(expr)
    ops = expression_ops(values)
    start = 0
    if ops[0][1] == _OP_ARG:
        if len(values) < 2 or values[1] != 0:
            return False
        start = 1
    for _, op in ops[start:]:
        if op == _OP_ARG:
            return False
    rest = values[2:] if start else values
    return bool(rest) and rest[0] == _OP_ENTRY_VALUE


__all__ = [
    "ATE_VALUES",
    "expression_is_well_formed",
    "expression_ops",
    "expression_values",
    "fragment_info",
    "is_entry_value",
    "values_are_valid",
]
