"""Debug info of a global shrunk to a flag (LLVM lib/Transforms/IPO/GlobalOpt.cpp,
the ``DIExpression`` part of ``TryToShrinkGlobalToBoolean``).

When both the initializer and the other stored value are integers (of at most
64 active bits), each ``DIGlobalVariableExpression`` of the old global is
rebuilt for the flag: ``flag * (other - init) + init`` as
``DW_OP_deref_size 1, DW_OP_constu d, DW_OP_mul, DW_OP_constu init, DW_OP_plus``
in front of the old expression, with ``DW_OP_stack_value``. Otherwise the
flag simply keeps the old attachments.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.debug_info import DIExpression, DINode
from llvmpy_mid.ir.di_expression_edit import expression_from_values, expression_values_of, prepend_opcodes
from llvmpy_mid.ir.global_value import GlobalVariable

__all__ = ["shrink_debug_info"]

_DEREF_SIZE = 0x94
_CONSTU = 0x10
_MUL = 0x1E
_PLUS = 0x22
_U64 = (1 << 64) - 1


def shrink_debug_info(gv: GlobalVariable, new_gv: GlobalVariable, other_val: Constant) -> None:
    """Attach to ``new_gv`` the debug-info expressions describing ``gv``."""
    gves = gv.get_all_metadata("dbg")
    init = gv.initializer
    if (
        isinstance(other_val, ConstantInt)
        and other_val.value.bit_length() <= 64
        and isinstance(init, ConstantInt)
        and init.value.bit_length() <= 64
    ):
        val_init = init.value
        val_minus = (other_val.value - val_init) & _U64
        module = gv.parent
        assert module is not None
        size = module.data_layout.type_alloc_size_in_bits(new_gv.value_type) // 8
        ctx = gv.context
        for node in gves:
            if not isinstance(node, DINode) or node.kind != "DIGlobalVariableExpression":
                continue
            fields = node.fields
            expr = fields.get("expr")
            values = expression_values_of(expr) if isinstance(expr, DIExpression) else []
            ops = [_DEREF_SIZE, size, _CONSTU, val_minus, _MUL, _CONSTU, val_init, _PLUS]
            new_expr = expression_from_values(ctx, prepend_opcodes(values, ops, True))
            new_gv.add_metadata("dbg", DINode.get(ctx, "DIGlobalVariableExpression", [("var", fields.get("var")), ("expr", new_expr)]))
        return
    for node in gves:
        new_gv.add_metadata("dbg", node)
