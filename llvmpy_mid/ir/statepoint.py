"""The pointers a ``gc.relocate`` stands for (LLVM ``GCProjectionInst::getStatepoint``,
``GCRelocateInst::getBasePtr``/``getDerivedPtr`` in lib/IR/IntrinsicInst.cpp).

A ``gc.relocate``'s two index operands select among its statepoint's ``gc-live`` bundle
inputs (or, without that bundle, among the statepoint's arguments). Its token is the
statepoint itself, or on an invoke statepoint's unwind path a ``landingpad`` whose block's
unique predecessor ends with the statepoint; an ``undef`` or ``none`` token stands for an
undefined statepoint whose base and derived pointers are ``undef`` of the token type.

Not done: ``gc.result`` (GCResultInst) has no helper here yet; the statepoint's own
``gc-transition``/``deopt`` bundles are not decoded.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import ConstantInt, ConstantTokenNone, UndefValue
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.eh import LandingPadInst
from llvmpy_mid.ir.value import Value

GC_RELOCATE = "llvm.experimental.gc.relocate"


def gc_projection_statepoint(token: Value) -> Value | None:
    """LLVM ``GCProjectionInst::getStatepoint`` for a projection's token: the statepoint
    call or invoke, an ``undef`` of the token type for an ``undef``/``none`` token, ``None``
    when no statepoint can be found (a ``landingpad`` without a unique predecessor)."""
    if isinstance(token, UndefValue):
        return token
    if isinstance(token, ConstantTokenNone):
        return UndefValue.get(token.type)
    if isinstance(token, LandingPadInst):
        bb = token.parent
        pred = bb.unique_predecessor if bb is not None else None
        return pred.terminator if pred is not None else None
    return token


def gc_relocate_pointers(call: CallBase) -> tuple[Value, Value, Value] | None:
    """``(token, base, derived)`` of a ``gc.relocate`` call (LLVM ``getOperand(0)``,
    ``getBasePtr()``, ``getDerivedPtr()``); ``None`` for any other call, for non-constant
    or out-of-range indices and for a token tied to no statepoint."""
    if call.intrinsic_base != GC_RELOCATE or call._num_args < 3:
        return None
    ops = call._operands
    token = ops[0].value
    statepoint = gc_projection_statepoint(token)
    if isinstance(statepoint, UndefValue):
        undef = UndefValue.get(statepoint.type)
        return token, undef, undef
    if not isinstance(statepoint, CallBase):
        return None
    live = next((b for b in statepoint._bundles if b[0] == "gc-live"), None)
    picked: list[Value] = []
    for k in (1, 2):
        index = ops[k].value
        if not isinstance(index, ConstantInt):
            return None
        if live is not None:
            pos, end = live[1] + index.value, live[2]
        else:
            pos, end = index.value, statepoint._num_args
        if not 0 <= pos < end:
            return None
        picked.append(statepoint._operands[pos].value)
    return token, picked[0], picked[1]


__all__ = ["GC_RELOCATE", "gc_projection_statepoint", "gc_relocate_pointers"]
