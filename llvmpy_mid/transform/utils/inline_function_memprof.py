"""Memory-profile metadata of inlined calls (LLVM InlineFunction.cpp:
``propagateMemProfMetadata``; the ``CallStackTrie`` of lib/Analysis/MemoryProfileInfo.cpp).

A cloned call's ``!callsite`` stack gets the inlined call site's ``!callsite``
appended; its ``!memprof`` keeps the MIBs whose stack has a common prefix with that
new ``!callsite``. When none is kept, both are dropped; when some are dropped, the
kept ones are rebuilt through a call-stack trie: a single allocation type becomes a
``"memprof"="cold"/"notcold"/"hot"`` function attribute (and no metadata), otherwise
the minimal MIBs that tell the types apart. Without a ``!callsite`` on the inlined
call site, the clones lose both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import ConstantAsMetadata, Metadata, MDNode, MDString

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap

__all__ = ["propagate_mem_prof_metadata"]

_NOT_COLD, _COLD, _HOT = 1, 2, 4
_TYPE_NAMES = {_NOT_COLD: "notcold", _COLD: "cold", _HOT: "hot"}


def _ints(node: MDNode) -> list[int]:
    out: list[int] = []
    for op in node.operands:
        value = op.value if isinstance(op, ConstantAsMetadata) else None
        out.append(value.value & ((1 << 64) - 1) if isinstance(value, ConstantInt) else 0)
    return out


def _mib_type(mib: MDNode) -> int:
    op = mib.get_operand(1)
    name = op.string if isinstance(op, MDString) else ""
    return _COLD if name == "cold" else _HOT if name == "hot" else _NOT_COLD


def _mib_size(mib: MDNode) -> int:
    if mib.num_operands < 3:
        return 0
    op = mib.get_operand(2)
    value = op.value if isinstance(op, ConstantAsMetadata) else None
    return value.value if isinstance(value, ConstantInt) else 0


class _TrieNode:
    __slots__ = ("types", "size", "callers")

    def __init__(self, types: int, size: int) -> None:
        self.types = types
        self.size = size
        self.callers: dict[int, _TrieNode] = {}


class _CallStackTrie:
    """LLVM ``CallStackTrie``."""

    def __init__(self) -> None:
        self.alloc: _TrieNode | None = None
        self.alloc_id = 0

    def add(self, mib: MDNode) -> None:
        stack = mib.get_operand(0)
        assert isinstance(stack, MDNode)
        ids = _ints(stack)
        kind, size = _mib_type(mib), _mib_size(mib)
        cur: _TrieNode | None = None
        for i, sid in enumerate(ids):
            if i == 0:
                if self.alloc is not None:
                    self.alloc.types |= kind
                    self.alloc.size += size
                else:
                    self.alloc_id = sid
                    self.alloc = _TrieNode(kind, size)
                cur = self.alloc
                continue
            assert cur is not None
            nxt = cur.callers.get(sid)
            if nxt is not None:
                nxt.types |= kind
                nxt.size += size
                cur = nxt
                continue
            new = _TrieNode(kind, size)
            cur.callers[sid] = new
            cur = new

    @staticmethod
    def _mib(ctx: Context, stack: list[int], kind: int, size: int) -> MDNode:
        ops: list[Metadata | None] = [
            MDNode.get(ctx, [ConstantAsMetadata.get(ConstantInt.get(ctx.i64, s)) for s in stack]),
            MDString.get(ctx, _TYPE_NAMES[kind]),
        ]
        if size:
            ops.append(ConstantAsMetadata.get(ConstantInt.get(ctx.i64, size)))
        return MDNode.get(ctx, ops)

    def _build(self, node: _TrieNode, ctx: Context, stack: list[int], out: list[Metadata | None], ambiguous: bool) -> bool:
        if bin(node.types).count("1") == 1:
            out.append(self._mib(ctx, stack, node.types, node.size))
            return True
        if node.callers:
            node_ambiguous = len(node.callers) > 1
            all_added = True
            for sid in sorted(node.callers):
                stack.append(sid)
                all_added &= self._build(node.callers[sid], ctx, stack, out, node_ambiguous)
                stack.pop()
            if all_added:
                return True
        if not ambiguous:
            return False
        out.append(self._mib(ctx, stack, _NOT_COLD, node.size))
        return True

    def attach(self, call: CallBase) -> bool:
        """LLVM ``buildAndAttachMIBMetadata``."""
        alloc = self.alloc
        assert alloc is not None
        ctx = call.type.context
        if bin(alloc.types).count("1") == 1:
            call.add_fn_attr(Attribute.string("memprof", _TYPE_NAMES[alloc.types]))
            return False
        out: list[Metadata | None] = []
        if self._build(alloc, ctx, [self.alloc_id], out, False):
            call.set_metadata("memprof", MDNode.get(ctx, out))
            return True
        call.add_fn_attr(Attribute.string("memprof", "notcold"))
        return False


def _common_prefix(a: MDNode, b: MDNode) -> bool:
    for x, y in zip(_ints(a), _ints(b)):
        if x != y:
            return False
    return True


def _propagate(cloned: CallBase, inlined_callsite: MDNode) -> None:
    from llvmpy_mid.transform.utils.inline_function_metadata import concatenate

    ctx = cloned.type.context
    orig_callsite = cloned.get_metadata("callsite")
    cloned_callsite: MDNode | None = None
    if orig_callsite is not None:
        cloned_callsite = concatenate(ctx, orig_callsite, inlined_callsite)
        cloned.set_metadata("callsite", cloned_callsite)
    memprof = cloned.get_metadata("memprof")
    if memprof is None or cloned_callsite is None:
        return
    kept: list[MDNode] = []
    for op in memprof.operands:
        if isinstance(op, MDNode):
            stack = op.get_operand(0)
            if isinstance(stack, MDNode) and _common_prefix(stack, cloned_callsite):
                kept.append(op)
    if not kept:
        cloned.set_metadata("memprof", None)
        cloned.set_metadata("callsite", None)
        return
    if len(kept) < memprof.num_operands:
        cloned.set_metadata("memprof", None)
        trie = _CallStackTrie()
        for mib in kept:
            trie.add(mib)
        if not trie.attach(cloned):
            cloned.set_metadata("callsite", None)


def propagate_mem_prof_metadata(callee: Function, call: CallBase, info: ClonedCodeInfo, vmap: TrackingValueMap) -> None:
    """LLVM ``propagateMemProfMetadata``."""
    callsite = call.get_metadata("callsite")
    if callsite is None and not info.contains_mem_prof_metadata:
        return
    for old in list(vmap.keys()):
        if not isinstance(old, CallBase):
            continue
        cloned = vmap.get(old)
        if not isinstance(cloned, CallBase):
            continue
        if callsite is None:
            cloned.set_metadata("memprof", None)
            cloned.set_metadata("callsite", None)
            continue
        _propagate(cloned, callsite)
