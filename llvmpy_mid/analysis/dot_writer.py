"""The text of the Graphviz (``.dot``) files opt writes for a CFG, a (post-)dominator
tree and a call graph (LLVM's ``GraphWriter`` with the CFG / dominator / call-graph
``DOTGraphTraits``).

What: :func:`cfg_dot` (``dot-cfg`` / ``dot-cfg-only``), :func:`dom_tree_dot`
(``dot-dom``, ``dot-post-dom`` and their ``-only`` forms) and :func:`callgraph_dot`
(``dot-callgraph``) return the whole file as one string, byte for byte what opt-19
writes except for the node ids: opt names a node after its address
(``Node0x55d65c3f3420``); here node ``k`` of a graph is ``Node0x5a5a00000000 + 0x40*k``,
ids of the same shape that stay the same from run to run.

How: a block's full label is its name line and its instructions as ``opt -S`` prints them
(:class:`~llvmpy_mid.asm.printer.AssemblyWriter`), then passed through the same text
treatment opt applies (observed on opt-19): line ends become ``\\l``; a ``;`` starts a
comment that is dropped up to the line end; a line reaching column 80 is broken at its
last space (or at that column) with ``\\l...``; after the header line a ``|`` opens the
record's body; then the DOT record escapes (``{ } < > | "``). Conditional branches and
switches get a record port per successor (``T``/``F``, ``def``/case value; at most 64,
later edges share port 64 as in opt). Heat colours and edge tooltips come from the block
frequencies and branch probabilities given by the caller
(:mod:`llvmpy_mid.analysis.block_frequency`).

What it does not do: the ``-cfg-weights`` / ``-cfg-raw-weights`` edge labels, hiding cold,
unreachable or deoptimising paths, ``-callgraph-heat-colors`` / ``-callgraph-show-weights``
/ ``-callgraph-multigraph``: the defaults only.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from llvmpy_mid.ir.dominators import block_successors as _successors
from llvmpy_mid.asm.printer import AssemblyWriter
from llvmpy_mid.asm.print_names import label_name
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function

__all__ = [
    "HEAT_COLORS",
    "NODE_ID_BASE",
    "block_label",
    "callgraph_dot",
    "cfg_dot",
    "dom_tree_dot",
    "edge_port",
    "edge_ports",
    "escape_record",
    "heat_color",
    "node_id",
    "wrap_label",
]

NODE_ID_BASE = 0x5A5A00000000
_MAX_COLUMNS = 80
_MAX_PORTS = 64

# opt's 100-step heat scale (cold blue to hot red), read off opt-19's output; step 1 is never
# reached with opt's integer frequencies and is the midpoint of its neighbours.
HEAT_COLORS: tuple[str, ...] = tuple(
    "#" + c
    for c in (
        "3d50c3 4055c7 4358cb 465ecf 4961d2 4c66d6 4f69d9 536edd 5572df 5977e3 "
        "5b7ae5 5f7fe8 6282ea 6687ed 6a8bef 6c8ff1 7093f3 7396f5 779af7 7a9df8 "
        "7ea1fa 81a4fb 85a8fc 88abfd 8caffe 8fb1fe 93b5fe 96b7ff 9abbff 9ebeff "
        "a1c0ff a5c3fe a7c5fe abc8fd aec9fc b2ccfb b5cdfa b9d0f9 bbd1f8 bfd3f6 "
        "c1d4f4 c5d6f2 c7d7f0 cbd8ee cedaeb d1dae9 d4dbe6 d6dce4 d9dce1 dbdcde "
        "dedcdb e0dbd8 e3d9d3 e5d8d1 e8d6cc ead5c9 ecd3c5 eed0c0 efcebd f1ccb8 "
        "f2cab5 f3c7b1 f4c5ad f5c1a9 f6bfa6 f7bca1 f7b99e f7b599 f7b396 f7af91 "
        "f7ac8e f7a889 f6a385 f5a081 f59c7d f4987a f39475 f29072 f08b6e ef886b "
        "ed8366 ec7f63 e97a5f e8765c e57058 e36c55 e16751 de614d dc5d4a d85646 "
        "d65244 d24b40 d0473d cc403a ca3b37 c53334 c32e31 be242e bb1b2c b70d28"
    ).split()
)


def node_id(k: int) -> str:
    """The stable stand-in for opt's ``Node0x<address>`` of the ``k``-th node."""
    return "Node0x%x" % (NODE_ID_BASE + 0x40 * k)


def heat_color(freq: int, max_freq: int) -> str:
    """The fill colour of a block of frequency ``freq`` when the hottest has ``max_freq``
    (a log scale: ``log2(freq) / log2(max_freq)`` picks one of the 100 steps)."""
    if freq > max_freq:
        freq = max_freq
    if freq <= 1 or max_freq <= 1:
        share = 0.0 if freq < max_freq or max_freq <= 1 else 1.0
    else:
        share = math.log2(freq) / math.log2(max_freq)
    return HEAT_COLORS[int(math.floor(share * (len(HEAT_COLORS) - 1) + 0.5))]


# --- label text ------------------------------------------------------------------------------------


def _treat_line(line: str, col: int, first: bool, keep_comment: Callable[[str], bool] | None = None) -> str:
    """One source line through opt's comment removal and 80-column wrapping; ``col`` is the
    column count the line starts with (the two characters of ``\\l`` count on later lines).
    A comment for which ``keep_comment(comment)`` holds is kept (and wrapped)."""
    chars = list(line)
    last_space = -1
    i = 0
    while i < len(chars):
        c = chars[i]
        if c == ";" and (keep_comment is None or not keep_comment("".join(chars[i:]))):
            del chars[i:]
            break
        if c == " ":
            last_space = i
        if col == _MAX_COLUMNS:
            if last_space < 0 or (first and last_space == 0):
                last_space = i
            chars[last_space:last_space] = ["\\", "l", ".", ".", "."]
            col = i - last_space - 1
            last_space = -1
            i += 3
        col += 1
        i += 1
    return "".join(chars)


def wrap_label(text: str, keep_comment: Callable[[str], bool] | None = None) -> str:
    """``text`` (lines ending in newlines) with opt's treatment: comments dropped (unless
    ``keep_comment(comment)``), lines wrapped at column 80, newlines as ``\\l``
    (left-justified line ends in DOT records)."""
    lines = text.split("\n")
    out: list[str] = []
    for k, line in enumerate(lines):
        out.append(_treat_line(line, 0 if k == 0 else 2, k == 0, keep_comment))
    return "\\l".join(out)


def escape_record(text: str) -> str:
    """DOT record escaping as opt's ``DOT::EscapeString``: ``\\l`` kept, ``\\|``, ``\\{``
    and ``\\}`` lose their backslash, any other backslash and ``{ } < > | "`` get one."""
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c == "\\":
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == "l":
                out.append("\\l")
                i += 2
                continue
            if nxt in ("|", "{", "}"):
                out.append(nxt)
                i += 2
                continue
            out.append("\\\\")
        elif c in '{}<>|"':
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


class _BlockText:
    """Prints blocks of one function as ``opt -S`` does (one slot numbering for all)."""

    __slots__ = ("writer", "fn")

    def __init__(self, fn: Function) -> None:
        module = fn.parent
        slots = SlotTracker(module)
        slots.incorporate_function(fn)
        self.writer = AssemblyWriter(module, slots, TypePrinter(module))
        self.fn = fn

    def name(self, bb: BasicBlock) -> str:
        """The block as an operand without ``%`` (``entry``, ``0``, ``"a b"``)."""
        if bb.name:
            return label_name(bb.name)
        slot = self.writer.slots.local_slot(bb)
        return str(slot) if slot >= 0 else "<badref>"

    def plain_name(self, bb: BasicBlock) -> str:
        """The name as opt's tooltips show it (no quotes; the slot number if unnamed)."""
        if bb.name:
            return bb.name
        slot = self.writer.slots.local_slot(bb)
        return str(slot) if slot >= 0 else "<badref>"

    def body(self, bb: BasicBlock) -> str:
        out = self.writer.out
        out.clear()
        self.writer.write_block(bb, True)
        text = "".join(out)
        out.clear()
        return text[1:] if text.startswith("\n") else text


def block_label(texts: _BlockText, bb: BasicBlock, only: bool) -> str:
    """The record label of a CFG / dominator-tree node (before the port list)."""
    if only:
        if bb.name:
            return escape_record(bb.name)
        return escape_record("%" + texts.name(bb))
    header = texts.name(bb) + ":"
    body = texts.body(bb)
    if bb.name and body.startswith(header + "\n"):
        body = body[len(header) + 1 :]
    # opt opens the record body (an escaped bar) right after the first line end, before
    # the line treatment, so the bar counts towards the second line's columns.
    return escape_record(wrap_label(header + "\n\\|" + body))


# --- graphs --------------------------------------------------------------------------------------


def _edge_labels(bb: BasicBlock) -> list[str]:
    term = bb.terminator
    if term is None:
        return []
    op = term.opcode
    if op == "br" and len(term.successors) == 2:
        return ["T", "F"]
    if op == "switch":
        labels = ["def"]
        for value, _dest in term.cases:  # type: ignore[attr-defined]
            width = value.type.width
            v = value.value
            if width and v >= 1 << (width - 1):
                v -= 1 << width
            labels.append(str(v))
        return labels
    return []




def edge_ports(bb: BasicBlock, num_succs: int) -> str:
    """The ``|{<s0>T|<s1>F}`` row of a block's record naming its outgoing edges (LLVM
    ``DOTGraphTraits::getEdgeSourceLabel``, at most 64 ports then ``truncated...``, as
    ``GraphWriter::writeNode``); empty when no edge has a label."""
    labels = _edge_labels(bb)
    if not labels or not any(labels):
        return ""
    shown = labels[:num_succs][:_MAX_PORTS]
    parts = ["<s%d>%s" % (k, escape_record(t)) for k, t in enumerate(shown)]
    if num_succs > _MAX_PORTS:
        parts.append("<s%d>truncated..." % _MAX_PORTS)
    return "|{" + "|".join(parts) + "}"


def edge_port(k: int) -> str:
    """The ``:sK`` source port of a block's ``k``-th edge when its record has ports."""
    return ":s%d" % min(k, _MAX_PORTS)


def _header(title: str) -> list[str]:
    t = escape_record(title)
    return ['digraph "%s" {\n' % t, '\tlabel="%s";\n\n' % t]


def cfg_dot(
    fn: Function,
    *,
    only: bool = False,
    heat: Callable[[BasicBlock], tuple[str, str]] | None = None,
    edge_probability: Callable[[BasicBlock, BasicBlock], str] | None = None,
    edge_extra: Callable[[BasicBlock, int], str] | None = None,
    hidden: Callable[[BasicBlock], bool] | None = None,
) -> str:
    """``dot-cfg`` (``only``: ``dot-cfg-only``) text of ``fn``. ``heat(bb)`` gives the
    (border, fill) colours, ``edge_probability(src, dst)`` the tooltip's ``50.00%``,
    ``edge_extra(src, k)`` the attributes after the tooltip of ``src``'s ``k``-th edge
    (``label="50.00%" penwidth=1.50``), ``hidden(bb)`` drops a block and the edges into it;
    it is asked in LLVM's order (each block, then the targets of a shown block's edges)."""
    texts = _BlockText(fn)
    blocks = list(fn.blocks)
    ids = {bb: node_id(k) for k, bb in enumerate(blocks)}
    out = _header("CFG for '%s' function" % fn.name)
    for bb in blocks:
        if hidden is not None and hidden(bb):
            continue
        nid = ids[bb]
        attrs = "shape=record,"
        if heat is not None:
            border, fill = heat(bb)
            attrs += 'color="%sff", style=filled, fillcolor="%s70" fontname="Courier",' % (border, fill)
        label = block_label(texts, bb, only)
        succs = _successors(bb)
        ports = edge_ports(bb, len(succs))
        out.append('\t%s [%slabel="{%s%s}"];\n' % (nid, attrs, label, ports))
        src_name = texts.plain_name(bb)
        for k, succ in enumerate(succs):
            if hidden is not None and hidden(succ):
                continue
            port = edge_port(k) if ports else ""
            tip = ""
            if edge_probability is not None:
                tip = '[tooltip="%s -> %s\\nProbability %s" %s]' % (
                    escape_record(src_name),
                    escape_record(texts.plain_name(succ)),
                    edge_probability(bb, succ),
                    "" if edge_extra is None else edge_extra(bb, k),
                )
            out.append("\t%s%s -> %s%s;\n" % (nid, port, ids[succ], tip))
    out.append("}\n")
    return "".join(out)


def dom_tree_dot(
    fn: Function,
    roots: Sequence[BasicBlock],
    children: Callable[[BasicBlock], Sequence[BasicBlock]],
    *,
    title: str,
    only: bool = False,
    virtual_root: bool = False,
) -> str:
    """A dominator tree's text: nodes in depth-first pre-order from the root (children in
    the tree's order), each followed by its edges. ``virtual_root`` adds the post-dominator
    tree's ``Post dominance root node`` above ``roots``."""
    texts = _BlockText(fn)
    out = _header("%s for '%s' function" % (title, fn.name))
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return node_id(counter[0] - 1)

    # Explicit stack: (label-or-block, its children, id).
    ids: dict[BasicBlock, str] = {}
    order: list[tuple[BasicBlock | None, list[BasicBlock]]] = []
    if virtual_root:
        order.append((None, list(roots)))
        stack = list(reversed(roots))
    else:
        stack = list(reversed(roots))
    while stack:
        bb = stack.pop()
        kids = list(children(bb))
        order.append((bb, kids))
        stack.extend(reversed(kids))
    root_id = fresh() if virtual_root else ""
    for node, _kids in order:
        if node is not None:
            ids[node] = fresh()
    for node, kids in order:
        if node is None:
            nid, label = root_id, "Post dominance root node"
        else:
            nid, label = ids[node], block_label(texts, node, only)
        out.append('\t%s [shape=record,label="{%s}"];\n' % (nid, label))
        for kid in kids:
            out.append("\t%s -> %s;\n" % (nid, ids[kid]))
    out.append("}\n")
    return "".join(out)


def callgraph_dot(
    title: str,
    nodes: Sequence[tuple[str, Sequence[int]]],
) -> str:
    """A call graph's text: ``nodes`` are (function name, indexes of distinct callees) of the
    shown nodes, in order (opt hides the external-calling and calls-external nodes)."""
    out = _header("Call graph: %s" % title)
    for k, (name, callees) in enumerate(nodes):
        nid = node_id(k)
        out.append('\t%s [shape=record,label="{%s}"];\n' % (nid, escape_record(name)))
        for c in callees:
            out.append("\t%s -> %s;\n" % (nid, node_id(c)))
    out.append("}\n")
    return "".join(out)
