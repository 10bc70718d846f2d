"""Reading debug-info nodes defensively, as LLVM's verifier reads them: the
kind of a node, its fields (a field may hold any metadata when the IR was
built through the API), its ``flags``/``spFlags`` words and DWARF tag, and
what a release build of LLVM reads through an unchecked cast
(:func:`llvm_operand0`, :func:`llvm_tag`).

Shared by the debug-info visitors and the metadata attachment rules. Pure
readers: nothing here reports a finding or remembers anything.

Not done here: DWARF constants beyond the ones the checks compare with.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.debug_info import DIEnum, DILocation, DINode, flags_value
from llvmpy_mid.ir.dwarf_names import DW_TAGS
from llvmpy_mid.ir.metadata import MDString, MDTuple, Metadata, ValueAsMetadata

# --- node classification ----------------------------------------------------------------------------

TYPE_KINDS = frozenset(("DIBasicType", "DIDerivedType", "DICompositeType", "DISubroutineType", "DIStringType"))
LOCAL_SCOPE_KINDS = frozenset(("DISubprogram", "DILexicalBlock", "DILexicalBlockFile"))
SCOPE_KINDS = TYPE_KINDS | LOCAL_SCOPE_KINDS | frozenset(
    ("DIFile", "DICompileUnit", "DINamespace", "DIModule", "DICommonBlock")
)
VARIABLE_KINDS = frozenset(("DILocalVariable", "DIGlobalVariable"))
TEMPLATE_PARAM_KINDS = frozenset(("DITemplateTypeParameter", "DITemplateValueParameter"))
MACRO_KINDS = frozenset(("DIMacro", "DIMacroFile"))
_NOT_DINODE = frozenset(("DILocation", "DIExpression", "DIGlobalVariableExpression", "DIAssignID"))

# The fixed tag of each kind without a tag field (tags written as numbers are named by DW_TAGS).
_FIXED_TAGS = {
    "DISubrange": "DW_TAG_subrange_type", "DIGenericSubrange": "DW_TAG_generic_subrange",
    "DIEnumerator": "DW_TAG_enumerator", "DISubroutineType": "DW_TAG_subroutine_type",
    "DIFile": "DW_TAG_file_type", "DICompileUnit": "DW_TAG_compile_unit", "DISubprogram": "DW_TAG_subprogram",
    "DILexicalBlock": "DW_TAG_lexical_block", "DILexicalBlockFile": "DW_TAG_lexical_block",
    "DINamespace": "DW_TAG_namespace", "DIModule": "DW_TAG_module", "DICommonBlock": "DW_TAG_common_block",
    "DITemplateTypeParameter": "DW_TAG_template_type_parameter", "DIGlobalVariable": "DW_TAG_variable",
    "DILocalVariable": "DW_TAG_variable", "DILabel": "DW_TAG_label", "DIObjCProperty": "DW_TAG_APPLE_property",
}  # fmt: skip
_VIRTUALITY_VALUES = {"DW_VIRTUALITY_none": 0, "DW_VIRTUALITY_virtual": 1, "DW_VIRTUALITY_pure_virtual": 2}
_SP_DEFINITION = 1 << 3


def kind_of(md: object) -> str | None:
    """The debug-info kind of ``md`` (``"DISubprogram"``...), or None for other metadata."""
    if isinstance(md, Metadata) and md.is_di_node:
        return md.kind  # type: ignore[attr-defined,no-any-return]
    return None


def is_type(md: object) -> bool:
    """LLVM's ``isType``: null or a DIType."""
    return md is None or kind_of(md) in TYPE_KINDS


def is_scope(md: object) -> bool:
    """LLVM's ``isScope``: null or a DIScope."""
    return md is None or kind_of(md) in SCOPE_KINDS


def is_local_scope(md: object) -> bool:
    return kind_of(md) in LOCAL_SCOPE_KINDS


def is_dinode(md: object) -> bool:
    """LLVM's ``isDINode``: null or a DINode (every debug-info kind but locations,
    expressions, global variable expressions and assignment ids)."""
    if md is None:
        return True
    kind = kind_of(md)
    return kind is not None and kind not in _NOT_DINODE


def field_of(node: DINode, name: str) -> Any:
    try:
        return node.get_field(name)
    except Exception:
        return None


def md_field(node: DINode, name: str) -> Metadata | None:
    value = field_of(node, name)
    return value if isinstance(value, Metadata) else None


def string_field(node: DINode, name: str) -> str:
    value = field_of(node, name)
    return value.string if isinstance(value, MDString) else ""


def int_value(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    return 0


def flag_word(value: Any) -> int:
    """A ``flags``/``spFlags`` field as an integer."""
    if isinstance(value, DIEnum):
        try:
            return flags_value(value.names)
        except Exception:
            return 0
    return int_value(value)


def di_flags(node: DINode) -> int:
    return flag_word(field_of(node, "flags"))


def sp_flags(node: DINode) -> int:
    """A DISubprogram's ``spFlags`` (built from the legacy fields when absent)."""
    if node.has_field("spFlags"):
        return flag_word(node.get_field("spFlags"))
    virtuality = field_of(node, "virtuality")
    if isinstance(virtuality, DIEnum):
        virtuality = _VIRTUALITY_VALUES.get(virtuality.name, 0)
    value = int_value(virtuality) & 3
    if field_of(node, "isLocal"):
        value |= 1 << 2
    definition = field_of(node, "isDefinition")
    if definition is None or definition:
        value |= _SP_DEFINITION
    if field_of(node, "isOptimized"):
        value |= 1 << 4
    return value


def is_definition(md: object) -> bool:
    """True for a DISubprogram definition."""
    return kind_of(md) == "DISubprogram" and bool(sp_flags(md) & _SP_DEFINITION)  # type: ignore[arg-type]


def tag_of(md: object) -> str:
    """A node's DWARF tag name (``"DW_TAG_null"`` when there is none)."""
    kind = kind_of(md)
    if kind is None:
        return "DW_TAG_null"
    fixed = _FIXED_TAGS.get(kind)
    if fixed is not None:
        return fixed
    if kind in ("DILocation", "DIExpression", "DIGlobalVariableExpression", "DIAssignID", "DIMacro", "DIMacroFile"):
        return "DW_TAG_null"
    return tag_name(field_of(md, "tag"))  # type: ignore[arg-type]


def tag_name(value: Any) -> str:
    if isinstance(value, DIEnum):
        return value.names[0] if value.names else "DW_TAG_null"
    if isinstance(value, int):
        return DW_TAGS.get(value, "DW_TAG_%#x" % value)
    return "DW_TAG_null"



# LLVM's operand 0 of each kind (what a release build reads through an unchecked cast).
_OPERAND0 = {
    "DISubprogram": "file", "DILexicalBlock": "file", "DILexicalBlockFile": "file", "DICompileUnit": "file",
    "DIFile": "filename", "DIBasicType": "file", "DIDerivedType": "file", "DICompositeType": "file",
    "DISubroutineType": "file", "DIStringType": "file", "DINamespace": "file", "DIModule": "file",
    "DILocalVariable": "scope", "DIGlobalVariable": "scope", "DILabel": "scope", "DIImportedEntity": "scope",
    "DICommonBlock": "scope", "DIGlobalVariableExpression": "var", "DITemplateTypeParameter": "name",
    "DITemplateValueParameter": "name", "DIMacro": "name", "DIMacroFile": "file", "DIEnumerator": "name",
    "DISubrange": "count", "DIGenericSubrange": "count", "DIObjCProperty": "name", "GenericDINode": "header",
}  # fmt: skip


def llvm_operand0(node: Metadata) -> Metadata | None:
    """LLVM's ``getOperand(0)`` of ``node`` (a number field reads as its ``i64`` constant)."""
    if isinstance(node, DILocation):
        return node.scope
    if isinstance(node, MDTuple):
        ops = node.operands
        return ops[0] if ops else None
    kind = kind_of(node)
    field = _OPERAND0.get(kind) if kind is not None else None
    if field is None:
        return None
    value = field_of(node, field)  # type: ignore[arg-type]
    if isinstance(value, Metadata):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and field == "count":
        ctx = node.context  # type: ignore[attr-defined]
        return ValueAsMetadata.get(ConstantInt.get(ctx.int_type(64), value))
    return None


def llvm_tag(node: Metadata) -> str:
    """The DWARF tag LLVM reads from any node (a location's column, 0 for a tuple)."""
    if isinstance(node, DILocation):
        return DW_TAGS.get(node.column & 0xFFFF, "DW_TAG_%#x" % (node.column & 0xFFFF))
    return tag_of(node)


def raw_subprogram(md: object) -> DINode | None:
    """The subprogram a raw scope leads to through lexical blocks (LLVM's
    ``getSubprogram(Metadata*)`` in the verifier); None for a broken chain."""
    seen = 0
    while md is not None and seen < 10000:
        kind = kind_of(md)
        if kind == "DISubprogram":
            return md  # type: ignore[return-value]
        if kind != "DILexicalBlock" and kind != "DILexicalBlockFile":
            return None
        md = field_of(md, "scope")  # type: ignore[arg-type]
        seen += 1
    return None



def variable_size(var: DINode) -> int | None:
    """LLVM's ``DIVariable::getSizeInBits``: the type's size, looking through derived types."""
    ty: Any = field_of(var, "type")
    steps = 0
    while ty is not None and steps < 10000:
        kind = kind_of(ty)
        if kind in TYPE_KINDS:
            size = int_value(field_of(ty, "size"))
            if size:
                return size
        if kind != "DIDerivedType":
            break
        ty = field_of(ty, "baseType")
        steps += 1
    return None


__all__ = [
    "LOCAL_SCOPE_KINDS",
    "MACRO_KINDS",
    "SCOPE_KINDS",
    "TEMPLATE_PARAM_KINDS",
    "TYPE_KINDS",
    "VARIABLE_KINDS",
    "di_flags",
    "field_of",
    "flag_word",
    "int_value",
    "is_definition",
    "is_dinode",
    "is_local_scope",
    "is_scope",
    "is_type",
    "kind_of",
    "llvm_operand0",
    "llvm_tag",
    "md_field",
    "raw_subprogram",
    "sp_flags",
    "string_field",
    "tag_name",
    "tag_of",
    "variable_size",
]
