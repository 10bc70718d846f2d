"""Small readers of metadata operands shared by the metadata rules: a node's
operands as LLVM counts them, an operand read as an integer constant or as a
string, and a value read as a signed integer of a given width.

Not done here: any check (the readers never report), debug-info fields
(:mod:`~llvmpy_mid.ir.verifier.di_nodes`).
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.metadata import MDNode, Metadata, ValueAsMetadata


def llvm_operands(node: Metadata | None) -> tuple[Metadata | None, ...]:
    """The operands of ``node`` as LLVM counts them (none for a non-node)."""
    if not isinstance(node, MDNode):
        return ()
    if isinstance(node, DILocation):
        # LLVM's location has one operand, two with an inlined-at location.
        return (node.scope,) if node.inlined_at is None else (node.scope, node.inlined_at)
    try:
        return node.operands
    except Exception:
        return ()


def const_int(md: Metadata | None) -> ConstantInt | None:
    """``md`` as an integer constant (``mdconst::dyn_extract<ConstantInt>``), else None."""
    if isinstance(md, ValueAsMetadata) and md.is_constant_as_metadata:
        value = md.value
        if isinstance(value, ConstantInt) and value.type.is_integer:
            return value
    return None


def is_md_string(md: Metadata | None) -> bool:
    return md is not None and md.is_md_string



def signed_value(value: int, width: int) -> int:
    """``value`` (``width`` bits, unsigned) read as a signed integer."""
    if width and value >> (width - 1):
        return value - (1 << width)
    return value


__all__ = ["const_int", "is_md_string", "llvm_operands", "signed_value"]
