"""Turning an indirect call into a direct one (LLVM 19.1.7
``lib/Transforms/Utils/CallPromotionUtils.cpp``: ``tryPromoteCall``, ``isLegalToPromote``,
``promoteCall``).

What: :func:`try_promote_call` recognises a virtual call through an object on the
caller's stack whose vtable pointer was stored in the same block (``%vt = load ptr,
ptr %obj`` after ``store ptr @vtable+off, ptr %obj``; ``%fn = load ptr, ptr
(gep %vt, k)``; ``call %fn(...)``), reads the function out of the constant vtable and
calls it directly.

What it does not do: promotion that needs casts of arguments or of the return value
(only calls whose argument and return types match the function exactly are promoted),
guarded (versioned) promotion.
"""

from __future__ import annotations

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalVariable
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets, strip_pointer_casts

DEF_MAX_INSTS_TO_SCAN = 6


def is_legal_to_promote(call: CallBase, callee: Function) -> bool:
    """LLVM ``isLegalToPromote`` restricted to exact types: same return type, the same
    number of arguments (or a vararg callee), equal argument types, byval/inalloca agreeing."""
    if call.type is not callee.return_type:
        return False
    params = callee.function_type.params
    if call.arg_size != len(params) and not callee.is_vararg:
        return False
    for i, formal in enumerate(params):
        for kind in ("byval", "inalloca"):
            if callee.attributes.has_param_attr(i, kind) != call.attributes.has_param_attr(i, kind):
                return False
        if call.get_arg(i).type is not formal:
            return False
    return True


def promote_call(call: CallBase, callee: Function) -> CallBase:
    """LLVM ``promoteCall`` for exactly matching types: call ``callee`` directly, dropping
    the call's ``!prof`` and ``!callees``."""
    call.set_called_function(callee, callee.function_type)
    call.set_metadata("prof", None)
    call.set_metadata("callees", None)
    return call


def try_promote_call(call: CallBase) -> bool:
    """LLVM ``tryPromoteCall`` (see the module docstring)."""
    from llvmpy_mid.analysis.loads import find_available_loaded_value_in_block
    from llvmpy_mid.analysis.type_metadata_utils import get_pointer_at_offset

    fn = call.function
    if fn is None or fn.parent is None:
        return False
    module = fn.parent
    dl = module.data_layout
    entry_load = call.called_operand
    if not isinstance(entry_load, LoadInst):
        return False
    vtable_base, vtable_offset = strip_and_accumulate_constant_offsets(entry_load.pointer_operand, dl, True)
    if not isinstance(vtable_base, LoadInst):
        return False
    obj_base, obj_offset = strip_and_accumulate_constant_offsets(vtable_base.pointer_operand, dl, True)
    if not isinstance(obj_base, AllocaInst) or obj_offset != 0:
        return False
    if vtable_base.parent is None:
        return False
    vtable_ptr, _, _ = find_available_loaded_value_in_block(
        vtable_base, vtable_base.parent, vtable_base, DEF_MAX_INSTS_TO_SCAN
    )
    if vtable_ptr is None:
        return False
    gv_base, gv_offset = strip_and_accumulate_constant_offsets(vtable_ptr, dl, True)
    if not isinstance(gv_base, GlobalVariable) or not gv_base.is_constant_global or not gv_base.has_definitive_initializer:
        return False
    total = gv_offset + vtable_offset
    if total < 0 or total >= 1 << 64:
        return False
    init = gv_base.initializer
    if init is None:
        return False
    ptr = get_pointer_at_offset(init, total, module, gv_base)
    if ptr is None:
        return False
    target = strip_pointer_casts(ptr)
    if isinstance(target, GlobalAlias):
        target = target.aliasee
    if not isinstance(target, Function):
        return False
    if not is_legal_to_promote(call, target):
        return False
    promote_call(call, target)
    return True
