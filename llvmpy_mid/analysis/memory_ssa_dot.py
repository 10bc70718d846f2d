"""``print<memoryssa> -dot-cfg-mssa=FILE``: the CFG with MemorySSA annotations as a DOT
graph (LLVM 19.1.7 ``lib/Analysis/MemorySSA.cpp``: ``DOTFuncMSSAInfo`` and its
``DOTGraphTraits``, written by ``WriteGraph``).

What: one record node per block, labelled with the block as the annotated printer
writes it (comments dropped except the MemorySSA ones), ``style=filled,
fillcolor=lightpink`` on blocks that have any access, branch ports ``T``/``F`` (switch
cases) as ``dot-cfg``, no edge attributes; graph title ``MSSA``. As opt, it reports
``writing to the newly created file FILE`` and `` done. `` on stderr. Node ids are
``dot_writer``'s stable stand-ins for opt's addresses.
"""

from __future__ import annotations

import sys
from typing import TextIO

from llvmpy_mid.analysis.dot_writer import _header, edge_port, edge_ports, escape_record, node_id, wrap_label
from llvmpy_mid.analysis.memory_ssa import MemorySSA
from llvmpy_mid.asm.printer import AssemblyWriter
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.ir.dominators import block_successors

def _keep_mssa_comment(comment: str) -> bool:
    return " = MemoryDef(" in comment or " = MemoryPhi(" in comment or "MemoryUse(" in comment


def memory_ssa_dot(mssa: MemorySSA) -> str:
    """The ``-dot-cfg-mssa`` file's text."""
    from llvmpy_mid.analysis.memory_ssa_printer import MemorySSAAnnotatedWriter

    fn = mssa.function
    module = fn.parent
    slots = SlotTracker(module)
    slots.incorporate_function(fn)
    writer = AssemblyWriter(module, slots, TypePrinter(module), MemorySSAAnnotatedWriter(mssa))
    blocks = list(fn.blocks)
    ids = {bb: node_id(k) for k, bb in enumerate(blocks)}
    out = _header("MSSA")
    entry = fn.entry_block
    for bb in blocks:
        writer.out.clear()
        writer.write_block(bb, bb is entry)
        text = "".join(writer.out)
        cut = text.find("\n") + 1
        text = text[:cut] + "\\|" + text[cut:]
        label = escape_record(wrap_label(text, _keep_mssa_comment))
        attrs = "shape=record,"
        if ";" in label:
            attrs += "style=filled, fillcolor=lightpink,"
        succs = block_successors(bb)
        ports = edge_ports(bb, len(succs))
        out.append('\t%s [%slabel="{%s%s}"];\n' % (ids[bb], attrs, label, ports))
        for k, succ in enumerate(succs):
            port = edge_port(k) if ports else ""
            out.append("\t%s%s -> %s;\n" % (ids[bb], port, ids[succ]))
    out.append("}\n")
    return "".join(out)


def write_memory_ssa_dot(mssa: MemorySSA, path: str, err: TextIO | None = None) -> None:
    """Write :func:`memory_ssa_dot` to ``path`` with opt's messages on ``err`` (stderr)."""
    stream = err if err is not None else sys.stderr
    try:
        with open(path, "w", encoding="utf-8") as f:
            stream.write("writing to the newly created file %s\n" % path)
            f.write(memory_ssa_dot(mssa))
    except OSError:
        stream.write("error writing into file\n")
        return
    stream.write(" done. \n")


__all__ = ["memory_ssa_dot", "write_memory_ssa_dot"]
