"""What the metadata checks remember during one verifier run (:class:`MDState`,
kept in the checker's memo): the nodes already walked, the compile units
reached, the subprogram of each function, memoised verdicts (expression
validity, TBAA type nodes, nodes found clean), and LLVM's ``BrokenDebugInfo``.

Not done here: any check; the rule modules read and fill this state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.ir.verifier.checker import Checker

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.metadata import MDNode


class MDState:
    """What the metadata checks remember during one verifier run."""

    __slots__ = (
        "visited",
        "cu_visited",
        "sp_attached",
        "expr_valid",
        "tbaa_base",
        "tbaa_scalar",
        "assign_index",
        "di_scan",
        "di_broken",
        "fn_id",
        "has_debug_info",
        "fn_args",
        "clean",
    )

    def __init__(self) -> None:
        self.visited: set[int] = set()
        self.cu_visited: dict[int, MDNode] = {}
        self.sp_attached: dict[int, Function] = {}
        self.expr_valid: dict[int, bool] = {}
        self.tbaa_base: dict[int, tuple[bool, int]] = {}
        self.tbaa_scalar: dict[int, bool] = {}
        self.assign_index: tuple[dict[int, list[Any]], dict[int, list[Any]]] | None = None
        self.di_scan = 0
        self.di_broken = False
        self.fn_id = 0
        self.has_debug_info = False
        self.fn_args: dict[int, MDNode] = {}
        self.clean: dict[str, set[int]] = {}
        """Per purpose, the nodes whose unmemoised checks (direct visits, TBAA tags,
        scope lists) found nothing: the same checks would find nothing again."""


def state(c: Checker) -> MDState:
    st = c.memo.get("metadata-state")
    if st is None:
        st = c.memo["metadata-state"] = MDState()
    return st  # type: ignore[return-value]


def clean_set(c: Checker, purpose: str) -> set[int]:
    """The ids of nodes already found clean for ``purpose``."""
    sets = state(c).clean
    found = sets.get(purpose)
    if found is None:
        found = sets[purpose] = set()
    return found


def broken_debug_info(c: Checker) -> bool:
    """True once any debug-info finding was made in this run (LLVM's ``BrokenDebugInfo``)."""
    st = state(c)
    if st.di_broken:
        return True
    diags = c.diagnostics
    for i in range(st.di_scan, len(diags)):
        if diags[i].debug_info:
            st.di_broken = True
            break
    st.di_scan = len(diags)
    return st.di_broken


__all__ = ["MDState", "broken_debug_info", "clean_set", "state"]
