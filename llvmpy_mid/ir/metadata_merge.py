"""Merging the scope lists of two memory accesses (LLVM ``lib/IR/Metadata.cpp``:
``MDNode::intersect`` and ``MDNode::getMostGenericAliasScope``).

What: the ``!noalias`` list two merged accesses may keep (the scopes both have) and the
``!alias.scope`` list (the scopes whose domain both lists name). Alias analysis
(``AAMDNodes.merge``) and the transforms' metadata merging (``transform/utils/local_metadata.py``)
share them; they depend on the IR only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import MDNode


def _get_or_self_reference(ctx: object, ops: list[object]) -> MDNode:
    """LLVM ``getOrSelfReference``: a node that lists itself first stays itself."""
    from llvmpy_mid.ir.metadata import MDNode

    if ops and isinstance(ops[0], MDNode):
        n = ops[0]
        if n.num_operands == len(ops) and n.get_operand(0) is n:
            if all(ops[i] is n.get_operand(i) for i in range(1, len(ops))):
                return n
    return MDNode.get(ctx, ops)  # type: ignore[arg-type]


def md_intersect(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """``MDNode::intersect``: the operands of ``a`` that ``b`` also has."""
    if a is None or b is None:
        return None
    if a is b:
        return a
    bset = {id(x) for x in b.operands}
    ops: list[object] = []
    seen: set[int] = set()
    for x in a.operands:
        if id(x) in bset and id(x) not in seen:
            seen.add(id(x))
            ops.append(x)
    return _get_or_self_reference(a.context, ops)


def _scope_domain(node: object) -> object | None:
    from llvmpy_mid.ir.metadata import MDNode

    if isinstance(node, MDNode) and node.num_operands >= 2:
        d = node.get_operand(1)
        return d if isinstance(d, MDNode) else None
    return None


def most_generic_alias_scope(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """``MDNode::getMostGenericAliasScope``: the scopes of both lists whose domain both lists share."""
    if a is None or b is None:
        return None
    a_domains = {id(d) for d in (_scope_domain(x) for x in a.operands) if d is not None}
    inter: set[int] = set()
    ops: list[object] = []
    seen: set[int] = set()
    for x in b.operands:
        d = _scope_domain(x)
        if d is not None and id(d) in a_domains:
            inter.add(id(d))
            if id(x) not in seen:
                seen.add(id(x))
                ops.append(x)
    for x in a.operands:
        d = _scope_domain(x)
        if d is not None and id(d) in inter and id(x) not in seen:
            seen.add(id(x))
            ops.append(x)
    if not ops:
        return None
    return _get_or_self_reference(a.context, ops)


__all__ = ["md_intersect", "most_generic_alias_scope"]
