"""Whether a function body can be inlined at all (LLVM ``isInlineViable``,
lib/Analysis/InlineCost.cpp), and the result type of inlining decisions
(LLVM ``InlineResult``).

A body is not viable when it holds an ``indirectbr``, a block address used by
something other than a ``callbr``, a call of itself, a ``returns_twice`` call
while the function itself is not ``returns_twice``, or a call of
``llvm.icall.branch.funnel``, ``llvm.localescape`` or ``llvm.va_start``.
"""

from __future__ import annotations

import attrs

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.terminators import CallBrInst, IndirectBrInst

__all__ = ["InlineResult", "is_inline_viable"]


@attrs.frozen
class InlineResult:
    """Success, or failure with LLVM's reason text."""

    success: bool
    message: str = ""

    @staticmethod
    def failure(message: str) -> InlineResult:
        return InlineResult(False, message)

    @property
    def is_success(self) -> bool:
        return self.success


_BANNED_INTRINSICS = {
    "llvm.icall.branch.funnel": "disallowed inlining of @llvm.icall.branch.funnel",
    "llvm.localescape": "disallowed inlining of @llvm.localescape",
    "llvm.va_start": "contains VarArgs initialized with va_start",
}


def _block_address_users(bb: object) -> list[object]:
    from llvmpy_mid.ir.constants import BlockAddress

    users: list[object] = []
    for user in getattr(bb, "users", ()):
        if isinstance(user, BlockAddress):
            users.extend(user.users)
    return users


def is_inline_viable(callee: Function) -> InlineResult:
    """LLVM ``isInlineViable``: the first reason ``callee``'s body cannot be
    inlined, or success."""
    returns_twice = callee.has_fn_attribute("returns_twice")
    for bb in callee.blocks:
        if isinstance(bb.terminator, IndirectBrInst):
            return InlineResult(False, "contains indirect branches")
        if bb.has_address_taken:
            for user in _block_address_users(bb):
                if not isinstance(user, CallBrInst):
                    return InlineResult(False, "blockaddress used outside of callbr")
        for inst in bb.instructions:
            if not isinstance(inst, CallBase):
                continue
            target = inst.called_function
            if target is callee:
                return InlineResult(False, "recursive call")
            if not returns_twice and isinstance(inst, CallInst) and inst.has_fn_attr("returns_twice"):
                return InlineResult(False, "exposes returns-twice attribute")
            if target is not None and target.is_intrinsic:
                name = target.name
                for banned, reason in _BANNED_INTRINSICS.items():
                    if name == banned or name.startswith(banned + "."):
                        return InlineResult(False, reason)
    return InlineResult(True)
