"""Whether a function's address escapes its direct calls (LLVM ``Function::hasAddressTaken``,
lib/IR/Function.cpp), with LLVM's flags, and the ``!callback`` uses of ``AbstractCallSite``
(lib/IR/AbstractCallSite.cpp) it can ignore.

What: a use takes the address unless it is a ``blockaddress``, the callee operand of a call of
the function's own type, or one the flags allow: a callback argument
(``ignore_callback_uses``), an assume-like intrinsic call or a bitcast/addrspacecast used only
by such calls (``ignore_assume_like_calls``, LLVM's default), a use by ``llvm.used`` or
``llvm.compiler.used`` (``ignore_llvm_used``), a ``clang.arc.attachedcall`` bundle operand
(``ignore_arc_attached_call``), or a direct call through a different function type
(``ignore_casted_direct_call``). Shared by the call graph, ipsccp, globalopt and deadargelim.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import BlockAddress, ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.value import Use, Value

__all__ = [
    "ASSUME_LIKE_INTRINSICS",
    "callback_callee_indices",
    "has_address_taken",
    "is_assume_like_call",
    "is_callback_use",
]

#: Intrinsics whose uses of a value do not take its address (``isAssumeLikeIntrinsic``).
ASSUME_LIKE_INTRINSICS = frozenset(
    (
        "llvm.assume", "llvm.sideeffect", "llvm.pseudoprobe", "llvm.dbg.assign", "llvm.dbg.declare",
        "llvm.dbg.value", "llvm.dbg.label", "llvm.invariant.start", "llvm.invariant.end",
        "llvm.lifetime.start", "llvm.lifetime.end", "llvm.experimental.noalias.scope.decl",
        "llvm.objectsize", "llvm.ptr.annotation", "llvm.var.annotation",
    )
)  # fmt: skip


def is_assume_like_call(user: object) -> bool:
    """A ``call`` (not an invoke: LLVM's ``IntrinsicInst``) of an assume-like intrinsic."""
    if not isinstance(user, CallBase) or user.opcode != "call":
        return False
    fn = user.called_function
    return fn is not None and lookup_intrinsic(fn.name) in ASSUME_LIKE_INTRINSICS


def callback_callee_indices(callee: Function) -> list[int]:
    """The argument positions that ``callee``'s ``!callback`` metadata names as callbacks."""
    md = callee.get_metadata("callback")
    if md is None:
        return []
    out: list[int] = []
    for enc in md.operands:
        if isinstance(enc, MDNode) and enc.operands:
            value = getattr(enc.operands[0], "value", None)
            if isinstance(value, ConstantInt):
                out.append(int(value.value))
    return out


def is_callback_use(call: CallBase, use: Use) -> bool:
    """``use`` is the callback argument of a call to a ``!callback`` function (an
    ``AbstractCallSite`` that ``isCallbackCall``)."""
    if use.index >= call.num_args:
        return False
    callee = call.called_function
    return callee is not None and use.index in callback_callee_indices(callee)


def _is_cast_operator(v: Value) -> bool:
    return getattr(v, "opcode", None) in ("bitcast", "addrspacecast")


def has_address_taken(
    fn: Function,
    *,
    ignore_callback_uses: bool = False,
    ignore_assume_like_calls: bool = True,
    ignore_llvm_used: bool = False,
    ignore_arc_attached_call: bool = False,
    ignore_casted_direct_call: bool = False,
) -> bool:
    """LLVM ``Function::hasAddressTaken`` (its defaults: only assume-like uses ignored)."""
    for use in fn.uses:
        user = use.user
        if isinstance(user, BlockAddress):
            continue
        if ignore_callback_uses and isinstance(user, CallBase) and is_callback_use(user, use):
            continue
        if not isinstance(user, CallBase):
            if ignore_assume_like_calls and _is_cast_operator(user) and all(is_assume_like_call(u) for u in user.users):
                continue
            if ignore_llvm_used and user.has_uses:
                holder: Value = user
                if _is_cast_operator(user) and user.has_one_use:
                    only = next(iter(user.users))
                    if only.has_uses:
                        holder = only
                if all(
                    isinstance(u, GlobalVariable) and u.name in ("llvm.used", "llvm.compiler.used")
                    for u in holder.users
                ):
                    continue
            return True
        if ignore_assume_like_calls and is_assume_like_call(user):
            continue
        if use is not user.called_operand_use or (
            not ignore_casted_direct_call and user.function_type is not fn.function_type
        ):
            if ignore_arc_attached_call:
                bundle = user.bundle_of_operand(use.index) if user.is_bundle_operand(use.index) else None
                if bundle is not None and bundle.tag == "clang.arc.attachedcall":
                    continue
            return True
    return False
