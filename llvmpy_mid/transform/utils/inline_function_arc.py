"""ObjC ARC ``clang.arc.attachedcall`` calls being inlined (LLVM
``inlineRetainOrClaimRVCalls``, lib/Transforms/Utils/InlineFunction.cpp; the ARC
function classes of lib/Analysis/ObjCARCInstKind.cpp).

Before each inlined return: an unused ``llvm.objc.autoreleaseReturnValue`` of the
returned object cancels the caller's retainRV (an unsafeClaimRV becomes
``llvm.objc.release``); else a call producing the returned object (with no attached
call of its own) gets the call site's ``clang.arc.attachedcall`` bundle; else a
retainRV becomes ``llvm.objc.retain`` of the returned object.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst, OperandBundle
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.value import Value

__all__ = ["attached_arc_function_kind", "inline_retain_or_claim_rv_calls"]

_FORWARDING = frozenset((
    "llvm.objc.retain", "llvm.objc.retainAutoreleasedReturnValue", "llvm.objc.unsafeClaimAutoreleasedReturnValue",
    "llvm.objc.autorelease", "llvm.objc.autoreleaseReturnValue", "llvm.objc.retainedObject",
    "llvm.objc.unretainedObject", "llvm.objc.unretainedPointer",
))


def attached_arc_function_kind(call: CallBase) -> str:
    """``"retainRV"``, ``"claimRV"`` or ``""`` for the call's attached ARC function."""
    bundle = call.get_operand_bundle("clang.arc.attachedcall")
    if bundle is None or not bundle.inputs:
        return ""
    fn = bundle.inputs[0]
    name = fn.name if isinstance(fn, Function) else ""
    if name == "llvm.objc.retainAutoreleasedReturnValue":
        return "retainRV"
    if name == "llvm.objc.unsafeClaimAutoreleasedReturnValue":
        return "claimRV"
    return ""


def _rc_identity_root(v: Value) -> Value:
    """LLVM ``GetRCIdentityRoot``."""
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    while True:
        v = strip_pointer_casts(v)
        if isinstance(v, CallInst):
            fn = v.called_function
            if fn is not None and fn.name in _FORWARDING and v.args:
                v = v.get_arg(0)
                continue
        return v


def _declare(module: object, name: str, ctx: object) -> Function:
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration

    ptr = ctx.ptr  # type: ignore[attr-defined]
    void = ctx.void  # type: ignore[attr-defined]
    ret = void if name == "llvm.objc.release" else ptr
    return intrinsic_declaration(module, name, ctx.function_type(ret, [ptr]))  # type: ignore[attr-defined, arg-type]


def inline_retain_or_claim_rv_calls(call: CallBase, kind: str, returns: Sequence[ReturnInst]) -> None:
    module = call.module
    bundle = call.get_operand_bundle("clang.arc.attachedcall")
    assert module is not None and bundle is not None
    is_retain = kind == "retainRV"
    ctx = call.type.context
    for ri in returns:
        rv = ri.return_value
        assert rv is not None
        root = _rc_identity_root(rv)
        insert_retain = is_retain
        inst = ri.prev_instruction
        while inst is not None:
            prev = inst.prev_instruction
            if isinstance(inst, CastInst):
                inst = prev
                continue
            fn = inst.called_function if isinstance(inst, CallBase) else None
            if fn is not None and fn.is_intrinsic:
                if fn.name != "llvm.objc.autoreleaseReturnValue" or not inst.use_empty:
                    break
                if _rc_identity_root(inst.get_operand(0)) is not root:
                    break
                if not is_retain:
                    IRBuilder(before=inst).call(_declare(module, "llvm.objc.release", ctx), [root])
                inst.erase_from_parent()
                insert_retain = False
                break
            if not isinstance(inst, CallInst):
                break
            if _rc_identity_root(inst) is not root or inst.get_operand_bundle("clang.arc.attachedcall") is not None:
                break
            new = inst.with_operand_bundle(OperandBundle("clang.arc.attachedcall", tuple(bundle.inputs)))
            new.insert_before(inst)
            for mkind, md in inst.metadata_items():
                new.set_metadata(mkind, md)
            inst.replace_all_uses_with(new)
            inst.erase_from_parent()
            insert_retain = False
            break
        if insert_retain:
            IRBuilder(before=ri).call(_declare(module, "llvm.objc.retain", ctx), [root])
