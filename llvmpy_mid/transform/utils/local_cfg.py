"""Placeholder (being written)."""

from __future__ import annotations

from llvmpy_mid.ir.basic_block import BasicBlock


def eliminate_duplicate_phi_nodes(bb: BasicBlock) -> bool:
    return False


def try_to_simplify_uncond_branch_from_empty_block(bb: BasicBlock) -> bool:
    return False
