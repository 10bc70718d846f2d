"""InstCombine folds of this family (LLVM ``lib/Transforms/InstCombine/InstCombineCasts.cpp``).

Stub: no fold yet; each ``visit_*`` returns None (nothing changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def visit_trunc(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``trunc`` (LLVM ``visit...``)."""
    return None


def visit_zext(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``zext`` (LLVM ``visit...``)."""
    return None


def visit_sext(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``sext`` (LLVM ``visit...``)."""
    return None


def visit_fptrunc(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fptrunc`` (LLVM ``visit...``)."""
    return None


def visit_fpext(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fpext`` (LLVM ``visit...``)."""
    return None


def visit_fptoui(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fptoui`` (LLVM ``visit...``)."""
    return None


def visit_fptosi(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fptosi`` (LLVM ``visit...``)."""
    return None


def visit_uitofp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``uitofp`` (LLVM ``visit...``)."""
    return None


def visit_sitofp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``sitofp`` (LLVM ``visit...``)."""
    return None


def visit_ptrtoint(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``ptrtoint`` (LLVM ``visit...``)."""
    return None


def visit_inttoptr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``inttoptr`` (LLVM ``visit...``)."""
    return None


def visit_bitcast(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``bitcast`` (LLVM ``visit...``)."""
    return None


def visit_addrspacecast(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``addrspacecast`` (LLVM ``visit...``)."""
    return None


__all__ = ["visit_trunc", "visit_zext", "visit_sext", "visit_fptrunc", "visit_fpext", "visit_fptoui", "visit_fptosi", "visit_uitofp", "visit_sitofp", "visit_ptrtoint", "visit_inttoptr", "visit_bitcast", "visit_addrspacecast"]
