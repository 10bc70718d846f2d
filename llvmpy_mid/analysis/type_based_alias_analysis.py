"""Type-based alias analysis metadata: the most generic access tag of two (LLVM 19.1.7
``llvm/lib/Analysis/TypeBasedAliasAnalysis.cpp``: ``MDNode::getMostGenericTBAA``,
``matchAccessTags``, ``mayBeAccessToSubobjectOf``, ``getLeastCommonType``,
``createAccessTag`` and the ``TBAANode`` / ``TBAAStructTagNode`` /
``TBAAStructTypeNode`` readers).

What: :func:`get_most_generic_tbaa` is the ``!tbaa`` tag an instruction replacing two
accesses may keep (metadata merging: ``combineMetadataForCSE``, SimplifyCFG's hoisting
and sinking); :func:`match_access_tags` also says whether the two accesses may alias.
Both the old (scalar parent chains) and the new (size-aware) struct-path formats are
read. :func:`is_struct_path_tbaa`, :func:`is_type_immutable_tag` and
:func:`tbaa_aliases` are what the ``tbaa`` AA provider
(:mod:`llvmpy_mid.analysis.alias.type_based_aa`) asks; :func:`shift_tbaa`,
:func:`shift_tbaa_struct` and :func:`extend_to_tbaa` back ``AAMDNodes.shift`` /
``extend_to``; :func:`is_tbaa_vtable_access` is ``MDNode::isTBAAVtableAccess``.

What it does not do: LLVM aborts on a cycle in a type's parent chain ("Cycle found in
TBAA metadata."); here the walk stops at the repeat.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, Metadata

_U64_MAX = (1 << 64) - 1


def _op(node: MDNode, i: int) -> Metadata | None:
    return node.get_operand(i) if i < node.num_operands else None


def _node_op(node: MDNode, i: int) -> MDNode | None:
    v = _op(node, i)
    return v if isinstance(v, MDNode) else None


def _int_op(node: MDNode, i: int) -> int | None:
    v = _op(node, i)
    if isinstance(v, ConstantAsMetadata) and isinstance(v.value, ConstantInt):
        c = v.value
        return c.value & ((1 << c.type.width) - 1)
    return None


def _is_new_format_type(node: MDNode) -> bool:
    return node.num_operands >= 3 and isinstance(_op(node, 0), MDNode)


def _parent(node: MDNode) -> MDNode | None:
    """``TBAANode::getParent``."""
    if _is_new_format_type(node):
        return _node_op(node, 0)
    if node.num_operands < 2:
        return None
    return _node_op(node, 1)


def _tag_is_new_format(tag: MDNode) -> bool:
    if tag.num_operands < 4:
        return False
    access = _node_op(tag, 1)
    if access is not None and not _is_new_format_type(access):
        return False
    return True


def _field(node: MDNode, offset: int) -> tuple[MDNode | None, int]:
    """``TBAAStructTypeNode::getField``: the member at ``offset`` and the offset in it."""
    new_format = _is_new_format_type(node)
    n = node.num_operands
    if new_format:
        if n < 6:
            return None, offset
    else:
        if n < 2:
            return None, offset
        if n <= 3:
            cur = 0 if n == 2 else (_int_op(node, 2) or 0)
            return _node_op(node, 1), (offset - cur) & _U64_MAX
    first = 3 if new_format else 1
    per = 3 if new_format else 2
    the_idx = 0
    for idx in range(first, n, per):
        cur = _int_op(node, idx + 1) or 0
        if cur > offset:
            the_idx = idx - per
            break
    if the_idx == 0:
        the_idx = n - per
    cur = _int_op(node, the_idx + 1) or 0
    return _node_op(node, the_idx), (offset - cur) & _U64_MAX


def _fields(node: MDNode) -> list[MDNode]:
    new_format = _is_new_format_type(node)
    first = 3 if new_format else 1
    per = 3 if new_format else 2
    out: list[MDNode] = []
    for idx in range(first, node.num_operands - per + 1, per):
        f = _node_op(node, idx)
        if f is not None:
            out.append(f)
    return out


def _has_field(base: MDNode, field: MDNode) -> bool:
    """``hasField``: ``field`` is a direct or nested member type of ``base`` (iterative)."""
    stack = [base]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for f in _fields(node):
            if f is field:
                return True
            stack.append(f)
    return False


def _least_common_type(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """``getLeastCommonType``: the deepest common ancestor of two type nodes."""
    if a is None or b is None:
        return None
    if a is b:
        return a
    path_a = _path_to_root(a)
    path_b = _path_to_root(b)
    ia = len(path_a) - 1
    ib = len(path_b) - 1
    ret: MDNode | None = None
    while ia >= 0 and ib >= 0:
        if path_a[ia] is not path_b[ib]:
            break
        ret = path_a[ia]
        ia -= 1
        ib -= 1
    return ret


def _path_to_root(node: MDNode) -> list[MDNode]:
    path: list[MDNode] = []
    seen: set[int] = set()
    cur: MDNode | None = node
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        path.append(cur)
        cur = _parent(cur)
    return path


def _create_access_tag(access_type: MDNode | None) -> MDNode | None:
    """``createAccessTag``: ``!{T, T, i64 0[, i64 -1]}`` for a type that is not a root."""
    if access_type is None or access_type.num_operands < 2:
        return None
    from llvmpy_mid.ir.metadata import ValueAsMetadata

    ctx = access_type.context
    i64 = ctx.i64
    offset = ValueAsMetadata.get(ConstantInt.get(i64, 0))
    if _is_new_format_type(access_type):
        size = ValueAsMetadata.get(ConstantInt.get(i64, -1))
        return MDNode.get(ctx, [access_type, access_type, offset, size])
    return MDNode.get(ctx, [access_type, access_type, offset])


def _may_be_access_to_subobject_of(
    base_tag: MDNode, sub_tag: MDNode, common: MDNode
) -> tuple[bool, MDNode | None, bool]:
    """``mayBeAccessToSubobjectOf``: (decided, generic tag, may alias)."""
    base_access = _node_op(base_tag, 1)
    base_base = _node_op(base_tag, 0)
    if base_access is base_base and base_access is common:
        return True, _create_access_tag(common), True
    new_format = _tag_is_new_format(base_tag)
    base_type = base_base
    offset = _int_op(base_tag, 2) or 0
    sub_base = _node_op(sub_tag, 0)
    steps = 0
    while True:
        if base_type is None:
            break
        if base_type is sub_base:
            same = offset == (_int_op(sub_tag, 2) or 0)
            return True, (sub_tag if same else _create_access_tag(common)), same
        if new_format and base_type is base_access:
            break
        base_type, offset = _field(base_type, offset)
        steps += 1
        if steps > 10000:
            break
    if new_format and base_type is not None and sub_base is not None and _has_field(base_type, sub_base):
        return True, _create_access_tag(common), True
    return False, None, False


def match_access_tags(a: MDNode | None, b: MDNode | None) -> tuple[bool, MDNode | None]:
    """LLVM ``matchAccessTags``: (the two accesses may alias, their most generic tag)."""
    if a is b:
        return True, a
    if a is None or b is None:
        return True, None
    common = _least_common_type(_node_op(a, 1), _node_op(b, 1))
    if common is None:
        return True, None
    decided, generic, may_alias = _may_be_access_to_subobject_of(a, b, common)
    if decided:
        return may_alias, generic
    decided, generic, may_alias = _may_be_access_to_subobject_of(b, a, common)
    if decided:
        return may_alias, generic
    return False, _create_access_tag(common)


def get_most_generic_tbaa(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """LLVM ``MDNode::getMostGenericTBAA``: the tag covering both accesses (None if none)."""
    return match_access_tags(a, b)[1]


def is_struct_path_tbaa(tag: MDNode) -> bool:
    """LLVM ``isStructPathTBAA``: the tag's first operand is a node and it has at least
    three operands (old scalar tags are upgraded by the parser)."""
    return tag.num_operands >= 3 and isinstance(_op(tag, 0), MDNode)


def is_type_immutable_tag(tag: MDNode) -> bool:
    """The access is to memory that never changes (the "constant" flag of a struct-path
    tag, operand 3 in the old format and 4 in the new one, or operand 2 of a scalar type
    node): LLVM's ``TBAAStructTagNode`` / ``TBAANode::isTypeImmutable``."""
    if is_struct_path_tbaa(tag):
        op_no = 4 if _tag_is_new_format(tag) else 3
    else:
        op_no = 2
    if tag.num_operands < op_no + 1:
        return False
    flag = _int_op(tag, op_no)
    return flag is not None and bool(flag & 1)


def tbaa_aliases(a: MDNode | None, b: MDNode | None) -> bool:
    """``TypeBasedAAResult::Aliases``: may accesses tagged ``a`` and ``b`` overlap?"""
    if a is b or a is None or b is None:
        return True
    return match_access_tags(a, b)[0]


def is_tbaa_vtable_access(tag: MDNode) -> bool:
    """``MDNode::isTBAAVtableAccess``: the tag's access type is named "vtable pointer"."""
    from llvmpy_mid.ir.metadata import MDString

    if not is_struct_path_tbaa(tag):
        first = _op(tag, 0)
        return isinstance(first, MDString) and first.string == "vtable pointer"
    access = _node_op(tag, 1)
    if access is None or access.num_operands == 0:
        return False
    ident = _op(access, 2 if _is_new_format_type(access) else 0)
    return isinstance(ident, MDString) and ident.string == "vtable pointer"


def shift_tbaa(tag: MDNode, offset: int) -> MDNode:
    """``AAMDNodes::shiftTBAA``: a ``!tbaa`` tag stays as it is for a sub-range of its
    access (LLVM keeps it, whatever the offset)."""
    return tag


def shift_tbaa_struct(node: MDNode, offset: int) -> MDNode:
    """``AAMDNodes::shiftTBAAStruct``: the ``!tbaa.struct`` (offset, size, tag) triples of
    the bytes from ``offset`` on, re-based to start at 0."""
    if offset == 0:
        return node
    from llvmpy_mid.ir.metadata import ValueAsMetadata

    ops: list[Metadata | None] = []
    n = node.num_operands
    for i in range(0, n - 2, 3):
        off_md = _op(node, i)
        size_md = _op(node, i + 1)
        assert isinstance(off_md, ConstantAsMetadata) and isinstance(size_md, ConstantAsMetadata)
        off_c = off_md.value
        size_c = size_md.value
        assert isinstance(off_c, ConstantInt) and isinstance(size_c, ConstantInt)
        inner_off = off_c.value & ((1 << off_c.type.width) - 1)
        inner_size = size_c.value & ((1 << size_c.type.width) - 1)
        if inner_off + inner_size <= offset:
            continue
        new_size = inner_size
        new_off = inner_off - offset
        if inner_off < offset:
            new_off = 0
            new_size -= offset - inner_off
        ops.append(ValueAsMetadata.get(ConstantInt.get(off_c.type, new_off)))
        ops.append(ValueAsMetadata.get(ConstantInt.get(size_c.type, new_size)))
        ops.append(_op(node, i + 2))
    return MDNode.get(node.context, ops)


def extend_to_tbaa(tag: MDNode, length: int) -> MDNode | None:
    """``AAMDNodes::extendToTBAA``: the tag for an access of ``length`` bytes (-1:
    unknown) from the same place: None for 0 bytes or an unknown length with a new-format
    tag, the new-format tag with its size replaced, any other tag unchanged."""
    if length == 0:
        return None
    if not is_struct_path_tbaa(tag) or not _tag_is_new_format(tag):
        return tag
    if length == -1:
        return None
    size_md = _op(tag, 3)
    assert isinstance(size_md, ConstantAsMetadata) and isinstance(size_md.value, ConstantInt)
    size_c = size_md.value
    width = size_c.type.width
    if size_c.value & ((1 << width) - 1) == length & ((1 << width) - 1):
        return tag
    from llvmpy_mid.ir.metadata import ValueAsMetadata

    ops = list(tag.operands)
    ops[3] = ValueAsMetadata.get(ConstantInt.get(size_c.type, length))
    return MDNode.get(tag.context, ops)


__all__ = [
    "extend_to_tbaa",
    "get_most_generic_tbaa",
    "is_struct_path_tbaa",
    "is_tbaa_vtable_access",
    "is_type_immutable_tag",
    "match_access_tags",
    "shift_tbaa",
    "shift_tbaa_struct",
    "tbaa_aliases",
]
