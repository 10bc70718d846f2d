"""Debug info of the globals SRA makes (LLVM lib/Transforms/IPO/GlobalOpt.cpp
``transferSRADebugInfo``).

Each ``DIGlobalVariableExpression`` of the split global whose expression is a
plain byte offset (``DIExpression::extractIfOffset``) is given to the part it
overlaps: a variable inside the part keeps (at most) a ``DW_OP_plus_uconst`` of
its offset in the part; a variable larger than the part gets a fragment
expression for the bits the part holds.
"""

from __future__ import annotations

from llvmpy_mid.ir.debug_info import DIExpression, DINode
from llvmpy_mid.ir.di_expression_edit import (
    create_fragment_expression,
    expression_from_values,
    expression_values_of,
    single_location_expression_elements,
)
from llvmpy_mid.ir.global_value import GlobalVariable

__all__ = ["transfer_sra_debug_info"]

_PLUS_UCONST = 0x23
_CONSTU = 0x10
_PLUS = 0x22
_MINUS = 0x1C
_U64 = (1 << 64) - 1


def _extract_if_offset(values: list[int]) -> int | None:
    elems = single_location_expression_elements(values)
    if elems is None:
        return None
    if not elems:
        return 0
    if len(elems) == 2 and elems[0] == _PLUS_UCONST:
        v = elems[1] & _U64
        return v - (1 << 64) if v >> 63 else v
    if len(elems) == 3 and elems[0] == _CONSTU:
        if elems[2] == _PLUS:
            v = elems[1] & _U64
            return v - (1 << 64) if v >> 63 else v
        if elems[2] == _MINUS:
            v = (-elems[1]) & _U64
            return v - (1 << 64) if v >> 63 else v
    return None


def _type_size_in_bits(var: object) -> int:
    if not isinstance(var, DINode):
        return 0
    ty = var.fields.get("type")
    if not isinstance(ty, DINode):
        return 0
    size = ty.fields.get("size", 0)
    return size if isinstance(size, int) else 0


def transfer_sra_debug_info(
    gv: GlobalVariable, ngv: GlobalVariable, fragment_offset_bits: int, fragment_size_bits: int, var_size: int
) -> None:
    """Give ``ngv`` the debug-info expressions of ``gv`` that describe its fragment."""
    ctx = gv.context
    frag_end = fragment_offset_bits + fragment_size_bits
    for node in gv.get_all_metadata("dbg"):
        if not isinstance(node, DINode) or node.kind != "DIGlobalVariableExpression":
            continue
        fields = node.fields
        var = fields.get("var")
        expr = fields.get("expr")
        values = expression_values_of(expr) if isinstance(expr, DIExpression) else []
        offset_bytes = _extract_if_offset(values)
        if offset_bytes is None or offset_bytes < 0:
            continue
        cur_off = 8 * offset_bytes
        if cur_off >= frag_end:
            continue
        cur_size = _type_size_in_bits(var)
        cur_end = cur_off + cur_size
        if cur_size != 0 and cur_end <= fragment_offset_bits:
            continue
        new_values: list[int]
        if cur_size != 0 and cur_off >= fragment_offset_bits and cur_end <= frag_end:
            in_frag = (cur_off - fragment_offset_bits) // 8
            new_values = [_PLUS_UCONST, in_frag] if in_frag != 0 else []
            ngv.add_metadata("dbg", _gve(ctx, var, new_values))
            continue
        new_values = values
        if fragment_size_bits < var_size:
            if cur_off > fragment_offset_bits:
                continue
            frag_off_in_var = fragment_offset_bits - cur_off
            frag_size = fragment_size_bits
            if cur_size != 0 and cur_end < frag_end:
                frag_size -= frag_end - cur_end
            if cur_off:
                new_values = []
            made = create_fragment_expression(new_values, frag_off_in_var, frag_size)
            if made is None:
                continue
            new_values = made
        ngv.add_metadata("dbg", _gve(ctx, var, new_values))


def _gve(ctx: object, var: object, values: list[int]) -> DINode:
    from llvmpy_mid.ir.context import Context

    assert isinstance(ctx, Context)
    expr = expression_from_values(ctx, values)
    return DINode.get(ctx, "DIGlobalVariableExpression", [("var", var), ("expr", expr)])  # type: ignore[list-item]
