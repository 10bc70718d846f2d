"""Editing a switch together with its ``!prof`` weights (LLVM 19.1.7
``llvm/lib/IR/Instructions.cpp``, ``SwitchInstProfUpdateWrapper``).

What: :class:`SwitchInstProfUpdateWrapper` keeps the switch's branch weights (one
per successor, the default first) in step with :meth:`remove_case` (the last case
takes the removed one's place, its weight too), :meth:`add_case` and
:meth:`set_successor_weight`; :meth:`commit` writes the node back when something
changed (no node when every weight is zero or fewer than two remain), as LLVM's
destructor does. Use it as a context manager to commit on exit.
"""

from __future__ import annotations

from types import TracebackType

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instructions.terminators import SwitchInst
from llvmpy_mid.ir.prof_data_utils import create_branch_weights, extract_branch_weights


class SwitchInstProfUpdateWrapper:
    """LLVM ``SwitchInstProfUpdateWrapper``."""

    __slots__ = ("si", "weights", "changed")

    def __init__(self, si: SwitchInst) -> None:
        self.si = si
        self.changed = False
        weights = extract_branch_weights(si)
        self.weights: list[int] | None = weights if weights is not None and len(weights) == len(si.successors) else None

    def __enter__(self) -> SwitchInstProfUpdateWrapper:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        if et is None:
            self.commit()

    def remove_case(self, index: int) -> None:
        """Remove case ``index`` (the last case moves into its slot)."""
        if self.weights is not None:
            self.changed = True
            self.weights[index + 1] = self.weights[-1]
            self.weights.pop()
        self.si.remove_case(index)

    def add_case(self, value: ConstantInt, dest: BasicBlock, weight: int | None = None) -> None:
        self.si.add_case(value, dest)
        n = len(self.si.successors)
        if self.weights is None and weight:
            self.changed = True
            self.weights = [0] * n
            self.weights[n - 1] = weight
        elif self.weights is not None:
            self.changed = True
            self.weights.append(weight or 0)

    def get_successor_weight(self, index: int) -> int | None:
        return None if self.weights is None else self.weights[index]

    def set_successor_weight(self, index: int, weight: int | None) -> None:
        if weight is None:
            return
        if self.weights is None and weight:
            self.weights = [0] * len(self.si.successors)
        if self.weights is not None and self.weights[index] != weight:
            self.changed = True
            self.weights[index] = weight

    def erase_from_parent(self) -> None:
        """Erase the switch; nothing is written back."""
        self.changed = False
        self.weights = None
        self.si.erase_from_parent()

    def commit(self) -> None:
        """Write the weights back if they changed (LLVM's destructor)."""
        if not self.changed:
            return
        self.changed = False
        w = self.weights
        if w is None or len(w) < 2 or all(x == 0 for x in w):
            self.si.set_metadata("prof", None)
        else:
            self.si.set_metadata("prof", create_branch_weights(self.si.context, w))


__all__ = ["SwitchInstProfUpdateWrapper"]
