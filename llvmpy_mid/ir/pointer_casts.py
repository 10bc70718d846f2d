"""LLVM's pointer-cast stripping (IR/Value.cpp ``stripPointerCasts`` /
``stripInBoundsOffsets``) and ``CallBase::getReturnedArgOperand``: the one copy,
for the verifier, the analyses and the transforms alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.instructions.calls import CallBase

__all__ = ["get_returned_arg_operand", "strip_pointer_casts"]

_POINTER = TypeID.POINTER


def strip_pointer_casts(v: Value, inbounds: bool = False) -> Value:
    """LLVM's ``stripPointerCasts`` (``inbounds=False``: through bitcasts,
    address-space casts and all-zero GEPs) or ``stripInBoundsOffsets``
    (``inbounds=True``: through any inbounds GEP), also through a call's
    ``returned`` argument; instructions and constant expressions alike. A
    value that is not a pointer is returned as it is."""
    if v.type.type_id is not _POINTER:
        return v
    seen: set[int] | None = None
    while True:
        if not (v.is_instruction or getattr(v, "is_constant_expr", False)):
            return v
        op = v.opcode  # type: ignore[attr-defined]
        ops = v._operands  # type: ignore[attr-defined]
        if op == "getelementptr":
            if not ops:
                return v
            if inbounds:
                flags = v._gep_flags if v.is_instruction else v.flags  # type: ignore[attr-defined]
                if not flags & 1:
                    return v
            else:
                for i in range(1, len(ops)):
                    idx = ops[i].value
                    if not isinstance(idx, ConstantInt) or idx.value != 0:
                        return v
            nxt = ops[0].value
        elif op == "bitcast" or op == "addrspacecast":
            if not ops:
                return v
            nxt = ops[0].value
            if nxt.type.type_id is not _POINTER:
                return v
        elif v.is_instruction and v.is_call_base:  # type: ignore[attr-defined]
            returned = get_returned_arg_operand(v)  # type: ignore[arg-type]
            if returned is None:
                return v
            nxt = returned
        else:
            return v
        if seen is None:
            seen = {id(v)}
        if id(nxt) in seen:
            return v
        seen.add(id(nxt))
        v = nxt


def get_returned_arg_operand(call: CallBase) -> Value | None:
    """The argument a call returns (LLVM ``getReturnedArgOperand``)."""
    idx = call.attributes.param_with_attr(AttrKind.RETURNED)
    if idx is None:
        fn = call.called_function
        if fn is not None:
            idx = fn.attributes.param_with_attr(AttrKind.RETURNED)
    if idx is None or idx >= call.num_args:
        return None
    return call._operands[idx].value
