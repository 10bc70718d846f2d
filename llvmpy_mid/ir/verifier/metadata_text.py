"""Metadata as LLVM's verifier writes it in a diagnostic: an operand
reference (``!12``, ``!DIExpression()``, ``i32 %x``), a debug record
(``#dbg_value(i32 %0, !12, ...)``) and a named metadata node.

Not done here: the module printer (these reuse its metadata formatting).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.metadata import Metadata, NamedMDNode
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.di_nodes import kind_of

if TYPE_CHECKING:
    from llvmpy_mid.ir.debug_records import DbgRecord


def md_ref(c: Checker, md: Metadata | None) -> str:
    """How LLVM writes ``md`` as an operand (``!12``, ``!DIExpression()``, ``i32 %x``)."""
    if md is None:
        return "null"
    text = c.format_metadata(md)
    if md.is_md_node and kind_of(md) != "DIExpression":
        head, sep, _ = text.partition(" = ")
        if sep:
            return head
    return text


def record_text(c: Checker, rec: DbgRecord) -> str:
    """A debug record as LLVM's verifier writes it (``#dbg_value(i32 %0, !12, ...)``)."""
    from llvmpy_mid.ir.debug_records import DbgVariableRecord

    if isinstance(rec, DbgVariableRecord):
        parts = [md_ref(c, rec.location), md_ref(c, rec.variable), md_ref(c, rec.expression)]
        if rec.assign_id is not None or rec.address is not None:
            parts += [md_ref(c, rec.assign_id), md_ref(c, rec.address), md_ref(c, rec.address_expression)]
        parts.append(md_ref(c, rec.debug_loc))
        return "#dbg_%s(%s)" % (rec.kind.value, ", ".join(parts))
    return "#dbg_label(%s, %s)" % (md_ref(c, rec.label), md_ref(c, rec.debug_loc))  # type: ignore[attr-defined]


def named_md_text(c: Checker, nmd: NamedMDNode) -> str:
    """A named node as LLVM prints it (with its trailing newline: the verifier adds a blank line)."""
    name = nmd.name
    ident = "".join(ch if (ch.isalnum() or ch in "-$._") and ch.isascii() else "\\%02X" % ord(ch) for ch in name)
    if name and name[0].isdigit():
        ident = "\\%02X" % ord(name[0]) + ident[1:]
    return "!%s = !{%s}\n" % (ident, ", ".join(md_ref(c, op) for op in nmd.operands))


__all__ = ["md_ref", "named_md_text", "record_text"]
