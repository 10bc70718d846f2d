"""Shrinking a global that holds one of two values into an ``i1`` (LLVM
lib/Transforms/IPO/GlobalOpt.cpp ``TryToShrinkGlobalToBoolean``).

An internal integer (or other non-FP, non-pointer, non-vector) global only
loaded and stored, whose stores write the initializer or one other constant,
becomes an ``i1`` global (made as ``name.b``, then given the old name): stores
write ``false``/``true``, loads become ``load i1`` + ``zext`` (0 -> 1) or ``select``.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.casts import CastInst, ZExtInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.types import FloatingPointType, PointerType, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.global_opt_shrink_debug import shrink_debug_info
from llvmpy_mid.ipo.global_opt_stats import copy_global_variable_attributes

__all__ = ["try_to_shrink_global_to_boolean"]


def try_to_shrink_global_to_boolean(gv: GlobalVariable, other_val: Constant) -> bool:
    """Shrink ``gv`` to a flag choosing between its initializer and ``other_val``."""
    ctx = gv.context
    ty = gv.value_type
    if ty is ctx.i1 or isinstance(ty, (FloatingPointType, PointerType, VectorType)):
        return False
    for user in gv.users:
        if isinstance(user, LoadInst):
            if user.type is not ty:
                return False
        elif isinstance(user, StoreInst):
            if user.value_operand.type is not ty:
                return False
        else:
            return False
    module = gv.parent
    assert module is not None
    new_gv = GlobalVariable(ctx.i1, gv.name + ".b", Linkage.INTERNAL, ConstantInt.get(ctx.i1, 0), False, gv.address_space)
    new_gv.thread_local_mode = gv.thread_local_mode
    copy_global_variable_attributes(new_gv, gv)
    module.globals.insert_before(new_gv, gv)
    init = gv.initializer
    assert init is not None

    is_one_zero = False
    if isinstance(other_val, ConstantInt) and other_val.value.bit_length() <= 64:
        is_one_zero = init.is_null_value and other_val.value == 1
    shrink_debug_info(gv, new_gv, other_val)

    while not gv.use_empty:
        user = next(iter(gv.uses)).user
        assert isinstance(user, Instruction)
        if isinstance(user, StoreInst):
            storing_other = user.get_operand(0) is other_val
            store_val: Value
            if storing_other or user.get_operand(0) is init:
                store_val = ConstantInt.get(ctx.i1, int(storing_other))
            else:
                stored = user.get_operand(0)
                if isinstance(stored, LoadInst):
                    nl = LoadInst(
                        ctx.i1, new_gv, alignment=1, ordering=stored.ordering, sync_scope=stored.sync_scope,
                        name=stored.name + ".b",
                    )
                    nl.insert_before(stored)
                    store_val = nl
                else:
                    assert isinstance(stored, (CastInst, SelectInst))
                    store_val = stored.get_operand(0)
            nsi = StoreInst(store_val, new_gv, alignment=1, ordering=user.ordering, sync_scope=user.sync_scope)
            nsi.insert_before(user)
            nsi.debug_loc = user.debug_loc
        else:
            assert isinstance(user, LoadInst)
            nli = LoadInst(
                ctx.i1, new_gv, alignment=1, ordering=user.ordering, sync_scope=user.sync_scope,
                name=user.name + ".b",
            )
            nli.insert_before(user)
            nsi_val: Instruction
            if is_one_zero:
                nsi_val = ZExtInst(nli, user.type)
            else:
                nsi_val = SelectInst(nli, other_val, init)
            nsi_val.insert_before(user)
            nsi_val.take_name(user)
            nli.debug_loc = user.debug_loc
            nsi_val.debug_loc = user.debug_loc
            user.replace_all_uses_with(nsi_val)
        user.erase_from_parent()
    new_gv.take_name(gv)
    gv.erase_from_parent()
    return True
