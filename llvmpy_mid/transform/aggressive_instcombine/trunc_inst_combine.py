"""``TruncInstCombine`` (LLVM ``lib/Transforms/AggressiveInstCombine/TruncInstCombine.cpp``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


class TruncInstCombine:
    """Reduce the width of expression trees feeding a ``trunc``."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: FoldContext) -> None:
        self.ctx = ctx

    def run(self) -> bool:
        return False


__all__ = ["TruncInstCombine"]
