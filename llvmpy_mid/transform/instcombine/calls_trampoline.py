"""InstCombine's calls through a trampoline (LLVM 19.1.7 ``InstCombineCalls.cpp``:
``findInitTrampoline``, ``transformCallThroughTrampoline``).

A call of the pointer ``llvm.adjust.trampoline(%mem)`` returns, where ``%mem`` was set up by
one ``llvm.init.trampoline(%mem, @f, %chain)`` (an alloca only used by the two intrinsics, or an
``init.trampoline`` earlier in the block with nothing writing memory in between), becomes a
direct call of ``@f`` with ``%chain`` passed as its ``nest`` parameter (or, when ``@f`` has
none, the same call with ``@f`` as callee; the generic code then fixes any type mismatch).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import BundleLike, CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import Type

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_INIT = "llvm.init.trampoline"
_ADJUST = "llvm.adjust.trampoline"


def _intrinsic(v: object) -> str:
    return v.intrinsic_name if isinstance(v, CallInst) else ""


def _find_from_alloca(mem: Value) -> CallInst | None:
    """``findInitTrampolineFromAlloca``."""
    under = strip_pointer_casts(mem)
    if under is not mem:
        head = under._use_head
        if head is None or head._next is not None or head.user is not mem:
            return None
    if not isinstance(under, AllocaInst):
        return None
    init: CallInst | None = None
    use = mem._use_head
    while use is not None:
        u = use.user
        name = _intrinsic(u)
        if name == _INIT:
            if init is not None:
                return None
            assert isinstance(u, CallInst)
            init = u
        elif name != _ADJUST:
            return None
        use = use._next
    if init is None or init.operands[0] is not mem:
        return None
    return init


def _find_from_block(adjust: CallInst, mem: Value) -> CallInst | None:
    """``findInitTrampolineFromBB``: an ``init.trampoline`` of ``mem`` earlier in the block with
    nothing writing memory after it."""
    inst = adjust.prev_instruction
    while inst is not None:
        if _intrinsic(inst) == _INIT and inst.operands[0] is mem:
            assert isinstance(inst, CallInst)
            return inst
        if inst.may_write_to_memory():
            return None
        inst = inst.prev_instruction
    return None


def find_init_trampoline(callee: Value) -> CallInst | None:
    """``findInitTrampoline``: the ``init.trampoline`` behind a callee that is an
    ``adjust.trampoline`` call, when the call can go to the function directly."""
    adjust = strip_pointer_casts(callee)
    if _intrinsic(adjust) != _ADJUST:
        return None
    assert isinstance(adjust, CallInst)
    mem = adjust.operands[0]
    return _find_from_alloca(mem) or _find_from_block(adjust, mem)


def transform_call_through_trampoline(ic: InstCombiner, call: CallBase, tramp: CallInst) -> Instruction | None:
    """``transformCallThroughTrampoline``: the direct call replacing ``call`` (detached, for
    the driver to insert), ``call`` itself when only its callee changed, or None."""
    fty = call.function_type
    attrs = call.attributes
    if attrs.has_attr_somewhere(AttrKind.NEST):
        return None
    nest_f = strip_pointer_casts(tramp.get_arg(1))
    if not isinstance(nest_f, Function):
        return None
    nest_fty = nest_f.function_type
    nest_attrs = nest_f.attributes
    if nest_attrs:
        nest_no = -1
        nest_ty: Type | None = None
        nest_set = AttributeSet.EMPTY
        for n, pty in enumerate(nest_fty.params):
            s = nest_attrs.param_attrs(n)
            if s.has(AttrKind.NEST):
                nest_no, nest_ty, nest_set = n, pty, s
                break
        if nest_ty is not None:
            args = call.args
            new_args: list[Value] = []
            new_attrs: list[AttributeSet] = []
            for n in range(len(args) + 1):
                if n == nest_no:
                    nest_val = tramp.get_arg(2)
                    if nest_val.type is not nest_ty:
                        nest_val = ic.builder.create_cast("bitcast", nest_val, nest_ty, "nest")
                    new_args.append(nest_val)
                    new_attrs.append(nest_set)
                if n == len(args):
                    break
                new_args.append(args[n])
                new_attrs.append(attrs.param_attrs(n))
            new_types: list[Type] = []
            params = fty.params
            for n in range(len(params) + 1):
                if n == nest_no:
                    new_types.append(nest_ty)
                if n == len(params):
                    break
                new_types.append(params[n])
            ctx = fty.context
            new_fty = ctx.function_type(fty.return_type, new_types, fty.is_vararg)
            new_pal = AttributeList(attrs.fn_attrs, attrs.ret_attrs, new_attrs)
            bundles: list[BundleLike] = list(call.operand_bundles)
            new: CallBase
            if isinstance(call, InvokeInst):
                new = InvokeInst(new_fty, nest_f, call.normal_dest, call.unwind_dest, new_args, bundles=bundles)
            elif isinstance(call, CallInst):
                new = CallInst(new_fty, nest_f, new_args, bundles=bundles, tail_call_kind=call.tail_call_kind)
            else:
                return None  # callbr: its calls are inline asm, never a trampoline
            new.calling_conv = call.calling_conv
            new.attributes = new_pal
            new.debug_loc = call.debug_loc
            return new
    call.set_called_function(nest_f, fty)
    return call


__all__ = ["find_init_trampoline", "transform_call_through_trampoline"]
