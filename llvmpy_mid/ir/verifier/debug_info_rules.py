"""Checks on metadata nodes and the debug-info graph (LLVM 19's ``visitMDNode``
and the ``visitDI*`` visitors, ``verifyCompileUnits``, the fragment and
entry-value checks).

:func:`visit_md_node` walks a node and everything it reaches, depth first in
operand order, exactly once per verifier run (the set of visited nodes lives
in the checker's memo), so a module with a large ``-g`` graph is checked in
time linear in the graph. The walk is iterative (a deep graph cannot
overflow the Python stack); for each node it runs the node's own visitor,
then its operands, then the "forward declaration" and "resolved" checks, in
LLVM's order. Findings about debug info use ``c.fail_debug_info`` (opt-19
then drops the debug info and only warns); the few generic metadata findings
(a function-local value in a global node, a temporary node) use ``c.fail``.

The helpers that read debug-info nodes defensively (a field may hold any
metadata when the IR was built through the API) are shared with
:mod:`~llvmpy_mid.ir.verifier.metadata_rules`: :func:`kind_of`,
:func:`is_local_scope`, :func:`raw_subprogram`, :func:`is_definition`,
:func:`expression_is_valid`, :func:`fragment_info`, :func:`variable_size`,
:func:`md_ref` and :func:`record_text` (a debug record as LLVM writes it in a
diagnostic).

Checks run as ``opt-19`` runs them: its context uniques debug types by ODR
identifier, so "DICompileUnit not listed in llvm.dbg.cu" is skipped and the
nested-definition rule applies (:data:`ODR_UNIQUING_DEBUG_TYPES`). Where LLVM
reads a broken node through an unchecked cast (a release build), the same
fields are read here, so the findings and the values printed agree.

Not done here: DWARF constants beyond the ones the checks compare with, and
``DIStringType``'s endianness flags (the textual form has no flags field).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from llvmpy_mid.ir import _printing
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.debug_info import (
    DI_FLAGS,
    OPERAND_ORDER,
    DIEnum,
    DIExpression,
    DIFieldNode,
    DILocation,
    DINode,
    flags_value,
)
from llvmpy_mid.ir.metadata import MDNode, MDString, MDTuple, Metadata, NamedMDNode, ValueAsMetadata
from llvmpy_mid.ir.verifier.checker import Checker

if TYPE_CHECKING:
    from llvmpy_mid.ir.debug_records import DbgRecord
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.global_value import GlobalVariable
    from llvmpy_mid.ir.module import Module

ODR_UNIQUING_DEBUG_TYPES = True
"""Check as ``opt-19`` does: its context uniques debug types by their ODR
identifier (``-disable-debug-info-type-map`` turns that off), which makes the
verifier skip the "DICompileUnit not listed in llvm.dbg.cu" check and forbid a
subprogram definition nested in an identified composite type without a
declaration. ``llvm-as-19`` runs with it off; set False to check as it does."""

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

# DWARF tags by value, for tags written as numbers; and the fixed tag of each kind without a tag field.
_TAG_NAMES = {
    0x00: "DW_TAG_null", 0x01: "DW_TAG_array_type", 0x02: "DW_TAG_class_type", 0x04: "DW_TAG_enumeration_type",
    0x08: "DW_TAG_imported_declaration", 0x0A: "DW_TAG_label", 0x0B: "DW_TAG_lexical_block",
    0x0D: "DW_TAG_member", 0x0F: "DW_TAG_pointer_type", 0x10: "DW_TAG_reference_type",
    0x11: "DW_TAG_compile_unit", 0x12: "DW_TAG_string_type", 0x13: "DW_TAG_structure_type",
    0x15: "DW_TAG_subroutine_type", 0x16: "DW_TAG_typedef", 0x17: "DW_TAG_union_type",
    0x1A: "DW_TAG_common_block", 0x1C: "DW_TAG_inheritance", 0x1E: "DW_TAG_module",
    0x1F: "DW_TAG_ptr_to_member_type", 0x20: "DW_TAG_set_type", 0x21: "DW_TAG_subrange_type",
    0x24: "DW_TAG_base_type", 0x26: "DW_TAG_const_type", 0x28: "DW_TAG_enumerator", 0x29: "DW_TAG_file_type",
    0x2A: "DW_TAG_friend", 0x2B: "DW_TAG_namelist", 0x2E: "DW_TAG_subprogram",
    0x2F: "DW_TAG_template_type_parameter", 0x30: "DW_TAG_template_value_parameter", 0x33: "DW_TAG_variant_part",
    0x34: "DW_TAG_variable", 0x35: "DW_TAG_volatile_type", 0x37: "DW_TAG_restrict_type",
    0x39: "DW_TAG_namespace", 0x3A: "DW_TAG_imported_module", 0x3B: "DW_TAG_unspecified_type",
    0x42: "DW_TAG_rvalue_reference_type", 0x43: "DW_TAG_template_alias", 0x45: "DW_TAG_generic_subrange",
    0x47: "DW_TAG_atomic_type", 0x4B: "DW_TAG_immutable_type", 0x4106: "DW_TAG_GNU_template_template_param",
    0x4107: "DW_TAG_GNU_template_parameter_pack", 0x4200: "DW_TAG_APPLE_property",
    0x4300: "DW_TAG_LLVM_ptrauth_type",
}  # fmt: skip
_FIXED_TAGS = {
    "DISubrange": "DW_TAG_subrange_type", "DIGenericSubrange": "DW_TAG_generic_subrange",
    "DIEnumerator": "DW_TAG_enumerator", "DISubroutineType": "DW_TAG_subroutine_type",
    "DIFile": "DW_TAG_file_type", "DICompileUnit": "DW_TAG_compile_unit", "DISubprogram": "DW_TAG_subprogram",
    "DILexicalBlock": "DW_TAG_lexical_block", "DILexicalBlockFile": "DW_TAG_lexical_block",
    "DINamespace": "DW_TAG_namespace", "DIModule": "DW_TAG_module", "DICommonBlock": "DW_TAG_common_block",
    "DITemplateTypeParameter": "DW_TAG_template_type_parameter", "DIGlobalVariable": "DW_TAG_variable",
    "DILocalVariable": "DW_TAG_variable", "DILabel": "DW_TAG_label", "DIObjCProperty": "DW_TAG_APPLE_property",
}  # fmt: skip
_DERIVED_TAGS = frozenset(
    (
        "DW_TAG_typedef", "DW_TAG_pointer_type", "DW_TAG_ptr_to_member_type", "DW_TAG_reference_type",
        "DW_TAG_rvalue_reference_type", "DW_TAG_const_type", "DW_TAG_immutable_type", "DW_TAG_volatile_type",
        "DW_TAG_restrict_type", "DW_TAG_atomic_type", "DW_TAG_LLVM_ptrauth_type", "DW_TAG_member",
        "DW_TAG_inheritance", "DW_TAG_friend", "DW_TAG_set_type", "DW_TAG_template_alias",
    )
)  # fmt: skip
_COMPOSITE_TAGS = frozenset(
    (
        "DW_TAG_array_type", "DW_TAG_structure_type", "DW_TAG_union_type", "DW_TAG_enumeration_type",
        "DW_TAG_class_type", "DW_TAG_variant_part", "DW_TAG_namelist",
    )
)  # fmt: skip
_BASIC_TAGS = frozenset(("DW_TAG_base_type", "DW_TAG_unspecified_type", "DW_TAG_string_type"))
_TEMPLATE_VALUE_TAGS = frozenset(
    ("DW_TAG_template_value_parameter", "DW_TAG_GNU_template_template_param", "DW_TAG_GNU_template_parameter_pack")
)
_SET_BASE_ENCODINGS = frozenset((2, 5, 6, 7, 8))  # boolean, signed, signed_char, unsigned, unsigned_char
_ATE_VALUES = {
    "DW_ATE_address": 1, "DW_ATE_boolean": 2, "DW_ATE_complex_float": 3, "DW_ATE_float": 4, "DW_ATE_signed": 5,
    "DW_ATE_signed_char": 6, "DW_ATE_unsigned": 7, "DW_ATE_unsigned_char": 8,
}  # fmt: skip
_MACINFO_VALUES = {"DW_MACINFO_define": 1, "DW_MACINFO_undef": 2, "DW_MACINFO_start_file": 3, "DW_MACINFO_end_file": 4}
_VIRTUALITY_VALUES = {"DW_VIRTUALITY_none": 0, "DW_VIRTUALITY_virtual": 1, "DW_VIRTUALITY_pure_virtual": 2}
_CHECKSUM_SIZES = {"CSK_MD5": 32, "CSK_SHA1": 40, "CSK_SHA256": 64}
_HEX = frozenset("0123456789abcdefABCDEF")

_FLAG_LVALUE_REF = DI_FLAGS["DIFlagLValueReference"]
_FLAG_RVALUE_REF = DI_FLAGS["DIFlagRValueReference"]
_FLAG_BY_VALUE = DI_FLAGS["DIFlagTypePassByValue"]
_FLAG_BY_REF = DI_FLAGS["DIFlagTypePassByReference"]
_FLAG_VECTOR = DI_FLAGS["DIFlagVector"]
_FLAG_STATIC_MEMBER = DI_FLAGS["DIFlagStaticMember"]
_FLAG_ARTIFICIAL = DI_FLAGS["DIFlagArtificial"]
_FLAG_ALL_CALLS = DI_FLAGS["DIFlagAllCallsDescribed"]
_FLAG_BLOCK_BYREF = 1 << 4
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


def _field(node: DINode, name: str) -> Any:
    try:
        return node.get_field(name)
    except Exception:
        return None


def _md_field(node: DINode, name: str) -> Metadata | None:
    value = _field(node, name)
    return value if isinstance(value, Metadata) else None


def _string(node: DINode, name: str) -> str:
    value = _field(node, name)
    return value.string if isinstance(value, MDString) else ""


def _int(value: Any) -> int:
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
    return _int(value)


def di_flags(node: DINode) -> int:
    return flag_word(_field(node, "flags"))


def sp_flags(node: DINode) -> int:
    """A DISubprogram's ``spFlags`` (built from the legacy fields when absent)."""
    if node.has_field("spFlags"):
        return flag_word(node.get_field("spFlags"))
    virtuality = _field(node, "virtuality")
    if isinstance(virtuality, DIEnum):
        virtuality = _VIRTUALITY_VALUES.get(virtuality.name, 0)
    value = _int(virtuality) & 3
    if _field(node, "isLocal"):
        value |= 1 << 2
    definition = _field(node, "isDefinition")
    if definition is None or definition:
        value |= _SP_DEFINITION
    if _field(node, "isOptimized"):
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
    return tag_name(_field(md, "tag"))  # type: ignore[arg-type]


def tag_name(value: Any) -> str:
    if isinstance(value, DIEnum):
        return value.names[0] if value.names else "DW_TAG_null"
    if isinstance(value, int):
        return _TAG_NAMES.get(value, "DW_TAG_%#x" % value)
    return "DW_TAG_null"


def _conflicting_reference_flags(flags: int) -> bool:
    return bool(
        (flags & _FLAG_LVALUE_REF and flags & _FLAG_RVALUE_REF) or (flags & _FLAG_BY_VALUE and flags & _FLAG_BY_REF)
    )


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
    value = _field(node, field)  # type: ignore[arg-type]
    if isinstance(value, Metadata):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and field == "count":
        ctx = node.context  # type: ignore[attr-defined]
        return ValueAsMetadata.get(ConstantInt.get(ctx.int_type(64), value))
    return None


def llvm_tag(node: Metadata) -> str:
    """The DWARF tag LLVM reads from any node (a location's column, 0 for a tuple)."""
    if isinstance(node, DILocation):
        return _TAG_NAMES.get(node.column & 0xFFFF, "DW_TAG_%#x" % (node.column & 0xFFFF))
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
        md = _field(md, "scope")  # type: ignore[arg-type]
        seen += 1
    return None


# --- expressions -------------------------------------------------------------------------------------

_DW_OPS: dict[str, int] = {
    "DW_OP_addr": 0x03, "DW_OP_deref": 0x06, "DW_OP_const1u": 0x08, "DW_OP_const1s": 0x09,
    "DW_OP_const2u": 0x0A, "DW_OP_const2s": 0x0B, "DW_OP_const4u": 0x0C, "DW_OP_const4s": 0x0D,
    "DW_OP_const8u": 0x0E, "DW_OP_const8s": 0x0F, "DW_OP_constu": 0x10, "DW_OP_consts": 0x11,
    "DW_OP_dup": 0x12, "DW_OP_drop": 0x13, "DW_OP_over": 0x14, "DW_OP_pick": 0x15, "DW_OP_swap": 0x16,
    "DW_OP_rot": 0x17, "DW_OP_xderef": 0x18, "DW_OP_abs": 0x19, "DW_OP_and": 0x1A, "DW_OP_div": 0x1B,
    "DW_OP_minus": 0x1C, "DW_OP_mod": 0x1D, "DW_OP_mul": 0x1E, "DW_OP_neg": 0x1F, "DW_OP_not": 0x20,
    "DW_OP_or": 0x21, "DW_OP_plus": 0x22, "DW_OP_plus_uconst": 0x23, "DW_OP_shl": 0x24, "DW_OP_shr": 0x25,
    "DW_OP_shra": 0x26, "DW_OP_xor": 0x27, "DW_OP_bra": 0x28, "DW_OP_eq": 0x29, "DW_OP_ge": 0x2A,
    "DW_OP_gt": 0x2B, "DW_OP_le": 0x2C, "DW_OP_lt": 0x2D, "DW_OP_ne": 0x2E, "DW_OP_skip": 0x2F,
    "DW_OP_regx": 0x90, "DW_OP_fbreg": 0x91, "DW_OP_bregx": 0x92, "DW_OP_piece": 0x93,
    "DW_OP_deref_size": 0x94, "DW_OP_xderef_size": 0x95, "DW_OP_nop": 0x96, "DW_OP_push_object_address": 0x97,
    "DW_OP_call2": 0x98, "DW_OP_call4": 0x99, "DW_OP_call_ref": 0x9A, "DW_OP_form_tls_address": 0x9B,
    "DW_OP_call_frame_cfa": 0x9C, "DW_OP_bit_piece": 0x9D, "DW_OP_implicit_value": 0x9E,
    "DW_OP_stack_value": 0x9F, "DW_OP_implicit_pointer": 0xA0, "DW_OP_addrx": 0xA1, "DW_OP_constx": 0xA2,
    "DW_OP_entry_value": 0xA3, "DW_OP_const_type": 0xA4, "DW_OP_regval_type": 0xA5, "DW_OP_deref_type": 0xA6,
    "DW_OP_xderef_type": 0xA7, "DW_OP_convert": 0xA8, "DW_OP_reinterpret": 0xA9,
    "DW_OP_GNU_push_tls_address": 0xE0, "DW_OP_GNU_entry_value": 0xF3, "DW_OP_GNU_addr_index": 0xFB,
    "DW_OP_GNU_const_index": 0xFC,
    "DW_OP_LLVM_fragment": 0x1000, "DW_OP_LLVM_convert": 0x1001, "DW_OP_LLVM_tag_offset": 0x1002,
    "DW_OP_LLVM_entry_value": 0x1003, "DW_OP_LLVM_implicit_pointer": 0x1004, "DW_OP_LLVM_arg": 0x1005,
    "DW_OP_LLVM_extract_bits_sext": 0x1006, "DW_OP_LLVM_extract_bits_zext": 0x1007,
}  # fmt: skip
for _i in range(32):
    _DW_OPS["DW_OP_lit%d" % _i] = 0x30 + _i
    _DW_OPS["DW_OP_reg%d" % _i] = 0x50 + _i
    _DW_OPS["DW_OP_breg%d" % _i] = 0x70 + _i

_OP_FRAGMENT = 0x1000
_OP_ENTRY_VALUE = 0x1003
_OP_ARG = 0x1005
_OP_STACK_VALUE = 0x9F
_OP_SWAP = 0x16
_OPS_OF_SIZE_3 = frozenset((0x1001, 0x1000, 0x1006, 0x1007, 0x92))
_OPS_OF_SIZE_2 = frozenset((0x10, 0x11, 0x94, 0x23, 0x1002, 0x1003, 0x1005, 0x90))
_PLAIN_VALID_OPS = frozenset(
    (
        0x1004, 0x1001, 0x1005, 0x1002, 0x1006, 0x1007, 0x10, 0x23, 0x22, 0x1C, 0x1E, 0x1B, 0x1D, 0x21, 0x1A,
        0x27, 0x24, 0x25, 0x26, 0x06, 0x94, 0x18, 0x30, 0x20, 0x12, 0x90, 0x92, 0x97, 0x14, 0x11, 0x29, 0x2E,
        0x2B, 0x2A, 0x2D, 0x2C,
    )
)  # fmt: skip


def _element_value(element: Any) -> int:
    if isinstance(element, bool):
        return int(element)
    if isinstance(element, int):
        return element
    if isinstance(element, str):
        value = _DW_OPS.get(element)
        if value is None:
            value = _ATE_VALUES.get(element, -1)
        return value
    return -1


def expression_values(expr: DIExpression) -> list[int]:
    """The element list as LLVM's integers."""
    return [_element_value(e) for e in expr.elements]


def _op_size(op: int) -> int:
    if 0x70 <= op <= 0x8F:
        return 2
    if op in _OPS_OF_SIZE_3:
        return 3
    if op in _OPS_OF_SIZE_2:
        return 2
    return 1


def _expression_ops(values: list[int]) -> list[tuple[int, int]]:
    """(position, opcode) of each operation, stepping by LLVM's operand sizes."""
    out: list[tuple[int, int]] = []
    i = 0
    n = len(values)
    while i < n:
        op = values[i]
        out.append((i, op))
        i += _op_size(op)
    return out


def _expression_valid(values: list[int]) -> bool:
    n = len(values)
    ops = _expression_ops(values)
    for index, (pos, op) in enumerate(ops):
        size = _op_size(op)
        if pos + size > n:
            return False
        if 0x50 <= op <= 0x8F:
            return True
        if op == _OP_FRAGMENT:
            return pos + size == n
        if op == _OP_STACK_VALUE:
            if pos + size == n:
                continue
            if ops[index + 1][1] != _OP_FRAGMENT:
                return False
            continue
        if op == _OP_SWAP:
            if n == 1:
                return False
            continue
        if op == _OP_ENTRY_VALUE:
            first = 0
            if ops[0][1] == _OP_ARG and n > 1 and values[1] == 0:
                first = 1
            return first < len(ops) and pos == ops[first][0] and pos + 1 < n and values[pos + 1] == 1
        if op not in _PLAIN_VALID_OPS:
            return False
    return True


def expression_is_well_formed(expr: DIExpression) -> bool:
    """LLVM's ``DIExpression::isValid`` (not memoised; the printer uses it:
    LLVM prints an invalid expression's elements as plain numbers)."""
    return _expression_valid(expression_values(expr))


def expression_is_valid(c: Checker, expr: object) -> bool:
    """LLVM's ``DIExpression::isValid`` (memoised per node)."""
    if not isinstance(expr, DIExpression):
        return False
    cache = state(c).expr_valid
    key = id(expr)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _expression_valid(expression_values(expr))
    return found


def fragment_info(expr: DIExpression) -> tuple[int, int] | None:
    """(size in bits, offset in bits) of the expression's fragment operation."""
    elems = expr.elements
    if not elems or ("DW_OP_LLVM_fragment" not in elems and _OP_FRAGMENT not in elems):
        return None
    values = expression_values(expr)
    for pos, op in _expression_ops(values):
        if op == _OP_FRAGMENT and pos + 2 < len(values):
            return values[pos + 2], values[pos + 1]
    return None


def is_entry_value(expr: DIExpression) -> bool:
    """LLVM's ``DIExpression::isEntryValue`` (on a valid expression)."""
    elems = expr.elements
    if not elems or ("DW_OP_LLVM_entry_value" not in elems and _OP_ENTRY_VALUE not in elems):
        return False
    values = expression_values(expr)
    ops = _expression_ops(values)
    start = 0
    if ops[0][1] == _OP_ARG:
        if len(values) < 2 or values[1] != 0:
            return False
        start = 1
    for _, op in ops[start:]:
        if op == _OP_ARG:
            return False
    rest = values[2:] if start else values
    return bool(rest) and rest[0] == _OP_ENTRY_VALUE


def variable_size(var: DINode) -> int | None:
    """LLVM's ``DIVariable::getSizeInBits``: the type's size, looking through derived types."""
    ty: Any = _field(var, "type")
    steps = 0
    while ty is not None and steps < 10000:
        kind = kind_of(ty)
        if kind in TYPE_KINDS:
            size = _int(_field(ty, "size"))
            if size:
                return size
        if kind != "DIDerivedType":
            break
        ty = _field(ty, "baseType")
        steps += 1
    return None


# --- printing items ----------------------------------------------------------------------------------


def md_ref(c: Checker, md: Metadata | None) -> str:
    """How LLVM writes ``md`` as an operand (``!12``, ``!DIExpression()``, ``i32 %x``)."""
    if md is None:
        return "null"
    text = _printing.format_metadata(md, c.module)
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


# --- per-run state ------------------------------------------------------------------------------------


class MDState:
    """What the metadata checks remember during one verifier run."""

    __slots__ = (
        "visited",
        "cu_visited",
        "sp_attached",
        "expr_valid",
        "tbaa_base",
        "tbaa_scalar",
        "assign_index",
        "di_scan",
        "di_broken",
        "fn_id",
        "has_debug_info",
        "fn_args",
        "clean",
    )

    def __init__(self) -> None:
        self.visited: set[int] = set()
        self.cu_visited: dict[int, MDNode] = {}
        self.sp_attached: dict[int, Function] = {}
        self.expr_valid: dict[int, bool] = {}
        self.tbaa_base: dict[int, tuple[bool, int]] = {}
        self.tbaa_scalar: dict[int, bool] = {}
        self.assign_index: tuple[dict[int, list[Any]], dict[int, list[Any]]] | None = None
        self.di_scan = 0
        self.di_broken = False
        self.fn_id = 0
        self.has_debug_info = False
        self.fn_args: dict[int, MDNode] = {}
        self.clean: dict[str, set[int]] = {}
        """Per purpose, the nodes whose unmemoised checks (direct visits, TBAA tags,
        scope lists) found nothing: the same checks would find nothing again."""


def state(c: Checker) -> MDState:
    st = c.memo.get("metadata-state")
    if st is None:
        st = c.memo["metadata-state"] = MDState()
    return st  # type: ignore[return-value]


def clean_set(c: Checker, purpose: str) -> set[int]:
    """The ids of nodes already found clean for ``purpose``."""
    sets = state(c).clean
    found = sets.get(purpose)
    if found is None:
        found = sets[purpose] = set()
    return found


def broken_debug_info(c: Checker) -> bool:
    """True once any debug-info finding was made in this run (LLVM's ``BrokenDebugInfo``)."""
    st = state(c)
    if st.di_broken:
        return True
    diags = c.diagnostics
    for i in range(st.di_scan, len(diags)):
        if diags[i].debug_info:
            st.di_broken = True
            break
    st.di_scan = len(diags)
    return st.di_broken


# --- the node walk -------------------------------------------------------------------------------------

_OPERAND_PLANS: dict[tuple[str, tuple[str, ...]], tuple[int, ...]] = {}


def node_operands(node: MDNode) -> tuple[Metadata | None, ...] | list[Metadata | None]:
    """The node's metadata operands in LLVM's operand order (absent ones may be left out)."""
    t = type(node)
    if t is MDTuple:
        return node._ops  # type: ignore[attr-defined,no-any-return]
    if t is DILocation:
        return (node.scope, node.inlined_at)  # type: ignore[attr-defined]
    if t is DIExpression:
        return ()
    if t is DIFieldNode and node.kind != "GenericDINode":  # type: ignore[attr-defined]
        names: tuple[str, ...] = node._names  # type: ignore[attr-defined]
        key = (node.kind, names)  # type: ignore[attr-defined]
        plan = _OPERAND_PLANS.get(key)
        if plan is None:
            index = {name: i for i, name in enumerate(names)}
            plan = _OPERAND_PLANS[key] = tuple(index[n] for n in OPERAND_ORDER.get(key[0], ()) if n in index)
        values = node._values  # type: ignore[attr-defined]
        return [v for v in [values[i] for i in plan] if isinstance(v, Metadata)]
    try:
        return node.operands
    except Exception:
        return ()



def visit_md_node(c: Checker, root: MDNode, allow_locations: bool) -> None:
    """LLVM's ``visitMDNode``: check ``root`` and every node it reaches, each once per run."""
    visited = state(c).visited
    if id(root) in visited:
        return
    module = c.module
    ctx = module.context if module is not None else None
    # Each frame: [node, allow, operands, next operand index].
    stack: list[list[Any]] = []

    def enter(node: MDNode, allow: bool) -> None:
        visited.add(id(node))
        if ctx is not None and node.context is not ctx:
            c.fail("MDNode context does not match Module context!", node)
            return
        kind = kind_of(node)
        if kind is not None:
            visitor = _VISITORS.get(kind)
            if visitor is not None:
                visitor(c, node)
        stack.append([node, allow, node_operands(node), 0])

    enter(root, allow_locations)
    while stack:
        frame = stack[-1]
        node, allow, ops, i = frame
        if i < len(ops):
            frame[3] = i + 1
            op = ops[i]
            if op is None:
                continue
            if op.is_local_as_metadata:
                c.fail("Invalid operand for global metadata!", node, op)
                stack.pop()
                continue
            if not allow and isinstance(op, DILocation):
                c.fail_debug_info("DILocation not allowed within this metadata node", node, op)
                stack.pop()
                continue
            if op.is_md_node and id(op) not in visited:
                enter(op, allow)
            continue
        stack.pop()
        if node.is_temporary:
            c.fail("Expected no forward declarations!", node)
        elif not node.is_resolved:
            c.fail("All nodes should be resolved!", node)


def visit_value_as_metadata(c: Checker, md: ValueAsMetadata, fn: Function | None) -> None:
    """LLVM's ``visitValueAsMetadata``: a function-local value must be in ``fn``."""
    if not md.is_local_as_metadata:
        return
    if fn is None:
        c.fail("function-local metadata used outside a function", md)
        return
    value: Any = md.value
    actual = None
    if value.is_instruction:
        if value.parent is None:
            c.fail("function-local metadata not in basic block", md, value)
            return
        actual = value.parent.parent
    elif value.is_basic_block or value.is_argument:
        actual = value.parent
    if actual is not fn:
        c.fail("function-local metadata used in wrong function", md)


# --- the visitors -------------------------------------------------------------------------------------

Visitor = Callable[[Checker, Any], None]


def _visit_location(c: Checker, n: DILocation) -> None:
    scope = n.scope
    if not is_local_scope(scope):
        c.fail_debug_info("location requires a valid scope", n, scope)
        return
    ia = n.inlined_at
    if ia is not None and not isinstance(ia, DILocation):
        c.fail_debug_info("inlined-at should be a location", n, ia)
        return
    if kind_of(scope) == "DISubprogram" and not is_definition(scope):
        c.fail_debug_info("scope points into the type hierarchy", n)


def _visit_generic(c: Checker, n: DINode) -> None:
    if tag_of(n) == "DW_TAG_null":
        c.fail_debug_info("invalid tag", n)


def _visit_scope_file(c: Checker, n: DINode) -> bool:
    f = _md_field(n, "file")
    if f is not None and kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)
        return False
    return True


def _bound_ok(md: Any, allow_constant: bool) -> bool:
    if md is None:
        return True
    if isinstance(md, int):
        return True  # written as a number: LLVM stores a constant (or an expression)
    if allow_constant and isinstance(md, Metadata) and md.is_constant_as_metadata:
        return True
    kind = kind_of(md)
    return kind in VARIABLE_KINDS or kind == "DIExpression"


def _visit_subrange(c: Checker, n: DINode) -> None:
    count = _field(n, "count")
    upper = _field(n, "upperBound")
    if count is not None and upper is not None:
        c.fail_debug_info("Subrange can have any one of count or upperBound", n)
        return
    if not _bound_ok(count, True):
        c.fail_debug_info("Count must be signed constant or DIVariable or DIExpression", n)
        return
    value: int | None = None
    if isinstance(count, int):
        value = count
    elif isinstance(count, ValueAsMetadata) and isinstance(count.value, ConstantInt):
        ci = count.value
        width = ci.type.width
        value = ci.value - (1 << width) if width and ci.value >> (width - 1) else ci.value
    if value is not None and value < -1:
        c.fail_debug_info("invalid subrange count", n)
        return
    if not _bound_ok(_field(n, "lowerBound"), True):
        c.fail_debug_info("LowerBound must be signed constant or DIVariable or DIExpression", n)
        return
    if not _bound_ok(upper, True):
        c.fail_debug_info("UpperBound must be signed constant or DIVariable or DIExpression", n)
        return
    if not _bound_ok(_field(n, "stride"), True):
        c.fail_debug_info("Stride must be signed constant or DIVariable or DIExpression", n)


def _visit_generic_subrange(c: Checker, n: DINode) -> None:
    count = _field(n, "count")
    upper = _field(n, "upperBound")
    if count is not None and upper is not None:
        c.fail_debug_info("GenericSubrange can have any one of count or upperBound", n)
        return
    if not _bound_ok(count, False):
        c.fail_debug_info("Count must be signed constant or DIVariable or DIExpression", n)
        return
    lower = _field(n, "lowerBound")
    if lower is None:
        c.fail_debug_info("GenericSubrange must contain lowerBound", n)
        return
    if not _bound_ok(lower, False):
        c.fail_debug_info("LowerBound must be signed constant or DIVariable or DIExpression", n)
        return
    if not _bound_ok(upper, False):
        c.fail_debug_info("UpperBound must be signed constant or DIVariable or DIExpression", n)
        return
    stride = _field(n, "stride")
    if stride is None:
        c.fail_debug_info("GenericSubrange must contain stride", n)
        return
    if not _bound_ok(stride, False):
        c.fail_debug_info("Stride must be signed constant or DIVariable or DIExpression", n)


def _visit_basic_type(c: Checker, n: DINode) -> None:
    if tag_of(n) not in _BASIC_TAGS:
        c.fail_debug_info("invalid tag", n)


def _visit_string_type(c: Checker, n: DINode) -> None:
    if tag_of(n) != "DW_TAG_string_type":
        c.fail_debug_info("invalid tag", n)


def _encoding(node: Any) -> int:
    value = _field(node, "encoding")
    if isinstance(value, DIEnum):
        return _ATE_VALUES.get(value.name, 0)
    return _int(value)


def _visit_derived_type(c: Checker, n: DINode) -> None:
    _visit_scope_file(c, n)
    tag = tag_of(n)
    if tag not in _DERIVED_TAGS and not (tag == "DW_TAG_variable" and di_flags(n) & _FLAG_STATIC_MEMBER):
        c.fail_debug_info("invalid tag", n)
        return
    if tag == "DW_TAG_ptr_to_member_type":
        extra = _md_field(n, "extraData")
        if not is_type(extra):
            c.fail_debug_info("invalid pointer to member type", n, extra)
            return
    base = _md_field(n, "baseType")
    if tag == "DW_TAG_set_type" and base is not None:
        kind = kind_of(base)
        ok = (kind == "DICompositeType" and tag_of(base) == "DW_TAG_enumeration_type") or (
            kind == "DIBasicType" and _encoding(base) in _SET_BASE_ENCODINGS
        )
        if not ok:
            c.fail_debug_info("invalid set base type", n, base)
            return
    scope = _md_field(n, "scope")
    if not is_scope(scope):
        c.fail_debug_info("invalid scope", n, scope)
        return
    if not is_type(base):
        c.fail_debug_info("invalid base type", n, base)
        return
    if n.has_field("dwarfAddressSpace") and _field(n, "dwarfAddressSpace") is not None:
        if tag not in ("DW_TAG_pointer_type", "DW_TAG_reference_type", "DW_TAG_rvalue_reference_type"):
            c.fail_debug_info("DWARF address space only applies to pointer or reference types", n)


def _visit_template_params(c: Checker, n: DINode, raw: Metadata) -> None:
    if not isinstance(raw, MDTuple):
        c.fail_debug_info("invalid template params", n, raw)
        return
    for op in raw.operands:
        if kind_of(op) not in TEMPLATE_PARAM_KINDS:
            c.fail_debug_info("invalid template parameter", n, raw, op)
            return


def _tuple_ops(md: Any) -> tuple[Metadata | None, ...]:
    return md.operands if isinstance(md, MDTuple) else ()


def _visit_composite_type(c: Checker, n: DINode) -> None:
    _visit_scope_file(c, n)
    tag = tag_of(n)
    if tag not in _COMPOSITE_TAGS:
        c.fail_debug_info("invalid tag", n)
        return
    scope = _md_field(n, "scope")
    if not is_scope(scope):
        c.fail_debug_info("invalid scope", n, scope)
        return
    base = _md_field(n, "baseType")
    if not is_type(base):
        c.fail_debug_info("invalid base type", n, base)
        return
    elements = _md_field(n, "elements")
    if elements is not None and not isinstance(elements, MDTuple):
        c.fail_debug_info("invalid composite elements", n, elements)
        return
    holder = _md_field(n, "vtableHolder")
    if not is_type(holder):
        c.fail_debug_info("invalid vtable holder", n, holder)
        return
    flags = di_flags(n)
    if _conflicting_reference_flags(flags):
        c.fail_debug_info("invalid reference flags", n)
        return
    if flags & _FLAG_BLOCK_BYREF:
        c.fail_debug_info("DIBlockByRefStruct on DICompositeType is no longer supported", n)
        return
    if flags & _FLAG_VECTOR:
        ops = _tuple_ops(elements)
        if len(ops) != 1 or tag_of(ops[0]) != "DW_TAG_subrange_type":
            c.fail_debug_info("invalid vector, expected one element of type subrange", n)
            return
    params = _md_field(n, "templateParams")
    if params is not None:
        _visit_template_params(c, n, params)
    disc = _md_field(n, "discriminator")
    if disc is not None and not (kind_of(disc) == "DIDerivedType" and tag == "DW_TAG_variant_part"):
        c.fail_debug_info("discriminator can only appear on variant part")
        return
    for field, message in (
        ("dataLocation", "dataLocation can only appear in array type"),
        ("associated", "associated can only appear in array type"),
        ("allocated", "allocated can only appear in array type"),
        ("rank", "rank can only appear in array type"),
    ):
        if _field(n, field) is not None and tag != "DW_TAG_array_type":
            c.fail_debug_info(message)
            return
    if tag == "DW_TAG_array_type" and base is None:
        c.fail_debug_info("array types must have a base type", n)


def _visit_subroutine_type(c: Checker, n: DINode) -> None:
    types = _md_field(n, "types")
    if types is not None:
        if not isinstance(types, MDTuple):
            c.fail_debug_info("invalid composite elements", n, types)
            return
        for ty in types.operands:
            if not is_type(ty):
                c.fail_debug_info("invalid subroutine type ref", n, types, ty)
                return
    if _conflicting_reference_flags(di_flags(n)):
        c.fail_debug_info("invalid reference flags", n)


def _visit_file(c: Checker, n: DINode) -> None:
    kind = _field(n, "checksumkind")
    if kind is None:
        return
    name = kind.name if isinstance(kind, DIEnum) else ""
    size = _CHECKSUM_SIZES.get(name)
    if size is None:
        c.fail_debug_info("invalid checksum kind", n)
        return
    value = _string(n, "checksum")
    if len(value) != size:
        c.fail_debug_info("invalid checksum length", n)
        return
    if any(ch not in _HEX for ch in value):
        c.fail_debug_info("invalid checksum", n)


def _visit_compile_unit(c: Checker, n: DINode) -> None:
    if not n.is_distinct:
        c.fail_debug_info("compile units must be distinct", n)
        return
    f = _md_field(n, "file")
    if kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)
        return
    if not _string(f, "filename"):  # type: ignore[arg-type]
        c.fail_debug_info("invalid filename", n, f)
        return
    for field, list_message, item_message, ok in (
        ("enums", "invalid enum list", "invalid enum type", _is_enum_type),
        ("retainedTypes", "invalid retained type list", "invalid retained type", _is_retained_type),
        ("globals", "invalid global variable list", "invalid global variable ref", _is_gve),
        ("imports", "invalid imported entity list", "invalid imported entity ref", _is_imported_entity),
        ("macros", "invalid macro list", "invalid macro ref", _is_macro),
    ):
        array = _md_field(n, field)
        if array is None:
            continue
        if not isinstance(array, MDTuple):
            c.fail_debug_info(list_message, n, array)
            return
        for op in array.operands:
            if not ok(op):
                if field == "enums":
                    c.fail_debug_info(item_message, n, array, op)
                else:
                    c.fail_debug_info(item_message, n, op)
                return
    state(c).cu_visited[id(n)] = n


def _is_enum_type(op: object) -> bool:
    return kind_of(op) == "DICompositeType" and tag_of(op) == "DW_TAG_enumeration_type"


def _is_retained_type(op: object) -> bool:
    kind = kind_of(op)
    return kind in TYPE_KINDS or (kind == "DISubprogram" and not is_definition(op))


def _is_gve(op: object) -> bool:
    return kind_of(op) == "DIGlobalVariableExpression"


def _is_imported_entity(op: object) -> bool:
    return kind_of(op) == "DIImportedEntity"


def _is_macro(op: object) -> bool:
    return kind_of(op) in MACRO_KINDS


def _visit_subprogram(c: Checker, n: DINode) -> None:
    scope = _md_field(n, "scope")
    if not is_scope(scope):
        c.fail_debug_info("invalid scope", n, scope)
        return
    f = _md_field(n, "file")
    if f is not None:
        if kind_of(f) != "DIFile":
            c.fail_debug_info("invalid file", n, f)
            return
    else:
        line = _int(_field(n, "line"))
        if line != 0:
            c.fail_debug_info("line specified with no file", n, line & 0xFFFFFFFF)
            return
    ty = _md_field(n, "type")
    if ty is not None and kind_of(ty) != "DISubroutineType":
        c.fail_debug_info("invalid subroutine type", n, ty)
        return
    containing = _md_field(n, "containingType")
    if not is_type(containing):
        c.fail_debug_info("invalid containing type", n, containing)
        return
    params = _md_field(n, "templateParams")
    if params is not None:
        _visit_template_params(c, n, params)
    decl = _md_field(n, "declaration")
    if decl is not None and not (kind_of(decl) == "DISubprogram" and not is_definition(decl)):
        c.fail_debug_info("invalid subprogram declaration", n, decl)
        return
    retained = _md_field(n, "retainedNodes")
    if retained is not None:
        if not isinstance(retained, MDTuple):
            c.fail_debug_info("invalid retained nodes list", n, retained)
            return
        for op in retained.operands:
            if kind_of(op) not in ("DILocalVariable", "DILabel", "DIImportedEntity"):
                c.fail_debug_info(
                    "invalid retained nodes, expected DILocalVariable, DILabel or DIImportedEntity", n, retained, op
                )
                return
    flags = di_flags(n)
    if _conflicting_reference_flags(flags):
        c.fail_debug_info("invalid reference flags", n)
        return
    unit = _md_field(n, "unit")
    definition = is_definition(n)
    if definition:
        if not n.is_distinct:
            c.fail_debug_info("subprogram definitions must be distinct", n)
            return
        if unit is None:
            c.fail_debug_info("subprogram definitions must have a compile unit", n)
            return
        if kind_of(unit) != "DICompileUnit":
            c.fail_debug_info("invalid unit type", n, unit)
            return
        nested = kind_of(scope) == "DICompositeType" and _string(scope, "identifier")  # type: ignore[arg-type]
        if ODR_UNIQUING_DEBUG_TYPES and nested:
            if decl is None:
                c.fail_debug_info(
                    "definition subprograms cannot be nested within DICompositeType when enabling ODR", n
                )
                return
    else:
        if unit is not None:
            c.fail_debug_info("subprogram declarations must not have a compile unit", n)
            return
        if decl is not None:
            c.fail_debug_info("subprogram declaration must not have a declaration field")
            return
    thrown = _md_field(n, "thrownTypes")
    if thrown is not None:
        if not isinstance(thrown, MDTuple):
            c.fail_debug_info("invalid thrown types list", n, thrown)
            return
        for op in thrown.operands:
            if op is None or kind_of(op) not in TYPE_KINDS:
                c.fail_debug_info("invalid thrown type", n, thrown, op)
                return
    if flags & _FLAG_ALL_CALLS and not definition:
        c.fail_debug_info("DIFlagAllCallsDescribed must be attached to a definition")


def _visit_lexical_block_base(c: Checker, n: DINode) -> None:
    scope = _md_field(n, "scope")
    if not is_local_scope(scope):
        c.fail_debug_info("invalid local scope", n, scope)
        return
    if kind_of(scope) == "DISubprogram" and not is_definition(scope):
        c.fail_debug_info("scope points into the type hierarchy", n)


def _visit_lexical_block(c: Checker, n: DINode) -> None:
    _visit_lexical_block_base(c, n)
    if not _int(_field(n, "line")) and _int(_field(n, "column")):
        c.fail_debug_info("cannot have column info without line info", n)


def _visit_common_block(c: Checker, n: DINode) -> None:
    scope = _md_field(n, "scope")
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info("invalid scope ref", n, scope)
        return
    decl = _md_field(n, "declaration")
    if decl is not None and kind_of(decl) != "DIGlobalVariable":
        c.fail_debug_info("invalid declaration", n, decl)


def _visit_namespace(c: Checker, n: DINode) -> None:
    scope = _md_field(n, "scope")
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info("invalid scope ref", n, scope)


def _macinfo(n: DINode, default: int) -> int:
    value = _field(n, "type")
    if value is None:
        return default
    if isinstance(value, DIEnum):
        return _MACINFO_VALUES.get(value.name, -1)
    return _int(value)


def _visit_macro(c: Checker, n: DINode) -> None:
    if _macinfo(n, 0) not in (1, 2):
        c.fail_debug_info("invalid macinfo type", n)
        return
    if not _string(n, "name"):
        c.fail_debug_info("anonymous macro", n)


def _visit_macro_file(c: Checker, n: DINode) -> None:
    if _macinfo(n, 3) != 3:
        c.fail_debug_info("invalid macinfo type", n)
        return
    f = _md_field(n, "file")
    if f is not None and kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)
        return
    nodes = _md_field(n, "nodes")
    if nodes is not None:
        if not isinstance(nodes, MDTuple):
            c.fail_debug_info("invalid macro list", n, nodes)
            return
        for op in nodes.operands:
            if kind_of(op) not in MACRO_KINDS:
                c.fail_debug_info("invalid macro ref", n, op)
                return


def _visit_module(c: Checker, n: DINode) -> None:
    if not _string(n, "name"):
        c.fail_debug_info("anonymous module", n)


def _visit_template_type_param(c: Checker, n: DINode) -> None:
    ty = _md_field(n, "type")
    if not is_type(ty):
        c.fail_debug_info("invalid type ref", n, ty)


def _visit_template_value_param(c: Checker, n: DINode) -> None:
    _visit_template_type_param(c, n)
    if tag_of(n) not in _TEMPLATE_VALUE_TAGS:
        c.fail_debug_info("invalid tag", n)


def _visit_variable(c: Checker, n: DINode) -> None:
    scope = _md_field(n, "scope")
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info("invalid scope", n, scope)
        return
    f = _md_field(n, "file")
    if f is not None and kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)


def visit_global_variable(c: Checker, n: DINode) -> None:
    """LLVM's ``visitDIGlobalVariable`` (also called directly, unmemoised, for expressions)."""
    _visit_variable(c, n)
    ty = _md_field(n, "type")
    if not is_type(ty):
        c.fail_debug_info("invalid type ref", n, ty)
        return
    definition = _field(n, "isDefinition")
    if (definition is None or definition) and ty is None:
        c.fail_debug_info("missing global variable type", n)
        return
    member = _md_field(n, "declaration")
    if member is not None and kind_of(member) != "DIDerivedType":
        c.fail_debug_info("invalid static data member declaration", n, member)


def _visit_local_variable(c: Checker, n: DINode) -> None:
    _visit_variable(c, n)
    ty = _md_field(n, "type")
    if not is_type(ty):
        c.fail_debug_info("invalid type ref", n, ty)
        return
    scope = _md_field(n, "scope")
    if not is_local_scope(scope):
        c.fail_debug_info("local variable requires a valid scope", n, scope)
        return
    if kind_of(ty) == "DISubroutineType":
        c.fail_debug_info("invalid type", n, ty)


def _visit_assign_id(c: Checker, n: DINode) -> None:
    if not n.is_distinct:
        c.fail_debug_info("DIAssignID must be distinct", n)


def _visit_label(c: Checker, n: DINode) -> None:
    scope = _md_field(n, "scope")
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info("invalid scope", n, scope)
        return
    f = _md_field(n, "file")
    if f is not None and kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)
        return
    if not is_local_scope(scope):
        c.fail_debug_info("label requires a valid scope", n, scope)


def visit_expression(c: Checker, n: DINode) -> None:
    if not expression_is_valid(c, n):
        c.fail_debug_info("invalid expression", n)


def verify_fragment(c: Checker, var: DINode, fragment: tuple[int, int], desc: Any) -> None:
    """LLVM's ``verifyFragmentExpression`` on a variable of known size; ``desc``
    (what is printed first) may be a function that makes it, called on failure."""
    size = variable_size(var)
    if not size:
        return
    frag_size, frag_offset = fragment
    frag_size &= 0xFFFFFFFF
    frag_offset &= 0xFFFFFFFF
    if (frag_size + frag_offset) & 0xFFFFFFFF > size:
        c.fail_debug_info("fragment is larger than or outside of variable", desc() if callable(desc) else desc, var)
        return
    if frag_size == size:
        c.fail_debug_info("fragment covers entire variable", desc() if callable(desc) else desc, var)


def visit_global_variable_expression(c: Checker, gve: DINode) -> None:
    """LLVM's ``visitDIGlobalVariableExpression`` (also called directly for a
    global's ``!dbg``). A node found clean once is clean again: it is skipped."""
    clean = clean_set(c, "gve")
    if id(gve) in clean:
        return
    before = len(c.diagnostics)
    _visit_gve(c, gve)
    if len(c.diagnostics) == before:
        clean.add(id(gve))


def _visit_gve(c: Checker, gve: DINode) -> None:
    var = _md_field(gve, "var")
    if var is None:
        c.fail_debug_info("missing variable")
        return
    if kind_of(var) == "DIGlobalVariable":
        visit_global_variable(c, var)  # type: ignore[arg-type]
    else:
        _visit_other_as_global_variable(c, var)
    expr = _md_field(gve, "expr")
    if isinstance(expr, DIExpression):
        visit_expression(c, expr)
        fragment = fragment_info(expr)
        if fragment is not None and kind_of(var) == "DIGlobalVariable":
            verify_fragment(c, var, fragment, gve)  # type: ignore[arg-type]


def _visit_other_as_global_variable(c: Checker, var: Metadata) -> None:
    """What LLVM checks when an expression's ``var`` is not a DIGlobalVariable
    (it reads the node as one): its scope operand, then its tag."""
    scope = llvm_operand0(var)
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info("invalid scope", var, scope)
    if llvm_tag(var) != "DW_TAG_variable":
        c.fail_debug_info("invalid tag", var)


def _visit_objc_property(c: Checker, n: DINode) -> None:
    ty = _md_field(n, "type")
    if ty is not None and not is_type(ty):
        c.fail_debug_info("invalid type ref", n, ty)
        return
    f = _md_field(n, "file")
    if f is not None and kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)


def _visit_imported_entity(c: Checker, n: DINode) -> None:
    if tag_of(n) not in ("DW_TAG_imported_module", "DW_TAG_imported_declaration"):
        c.fail_debug_info("invalid tag", n)
        return
    scope = _md_field(n, "scope")
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info("invalid scope for imported entity", n, scope)
        return
    entity = _md_field(n, "entity")
    if not is_dinode(entity):
        c.fail_debug_info("invalid imported entity", n, entity)


_VISITORS: dict[str, Visitor] = {
    "DILocation": _visit_location,
    "GenericDINode": _visit_generic,
    "DISubrange": _visit_subrange,
    "DIGenericSubrange": _visit_generic_subrange,
    "DIBasicType": _visit_basic_type,
    "DIStringType": _visit_string_type,
    "DIDerivedType": _visit_derived_type,
    "DICompositeType": _visit_composite_type,
    "DISubroutineType": _visit_subroutine_type,
    "DIFile": _visit_file,
    "DICompileUnit": _visit_compile_unit,
    "DISubprogram": _visit_subprogram,
    "DILexicalBlock": _visit_lexical_block,
    "DILexicalBlockFile": _visit_lexical_block_base,
    "DICommonBlock": _visit_common_block,
    "DINamespace": _visit_namespace,
    "DIMacro": _visit_macro,
    "DIMacroFile": _visit_macro_file,
    "DIModule": _visit_module,
    "DITemplateTypeParameter": _visit_template_type_param,
    "DITemplateValueParameter": _visit_template_value_param,
    "DIGlobalVariable": visit_global_variable,
    "DILocalVariable": _visit_local_variable,
    "DIAssignID": _visit_assign_id,
    "DILabel": _visit_label,
    "DIExpression": visit_expression,
    "DIGlobalVariableExpression": visit_global_variable_expression,
    "DIObjCProperty": _visit_objc_property,
    "DIImportedEntity": _visit_imported_entity,
}


# --- module level -------------------------------------------------------------------------------------


def verify_global_variable_dbg(c: Checker, gv: GlobalVariable) -> bool:
    """The ``!dbg`` attachments of a global variable (LLVM's visitGlobalVariable
    part); False when one is not an expression (LLVM then leaves the variable)."""
    for node in gv.get_all_metadata("dbg"):
        if kind_of(node) == "DIGlobalVariableExpression":
            visit_global_variable_expression(c, node)  # type: ignore[arg-type]
        else:
            c.fail_debug_info("!dbg attachment of global variable must be a DIGlobalVariableExpression")
            return False
    return True


def visit_named_metadata(c: Checker, nmd: NamedMDNode) -> None:
    """LLVM's ``visitNamedMDNode``."""
    name = nmd.name
    if name.startswith("llvm.dbg.") and name != "llvm.dbg.cu":
        c.fail_debug_info("unrecognized named metadata node in the llvm.dbg namespace", named_md_text(c, nmd))
        return
    is_cu_list = name == "llvm.dbg.cu"
    for node in nmd.operands:
        if is_cu_list and kind_of(node) != "DICompileUnit":
            c.fail_debug_info("invalid compile unit", named_md_text(c, nmd), node)
            return
        if node is None:
            continue
        visit_md_node(c, node, True)


def verify_compile_units(c: Checker, module: Module) -> None:
    """LLVM's ``verifyCompileUnits``: every compile unit reached is listed in
    ``llvm.dbg.cu`` (skipped under ODR uniquing, see :data:`ODR_UNIQUING_DEBUG_TYPES`)."""
    st = state(c)
    if ODR_UNIQUING_DEBUG_TYPES:
        st.cu_visited.clear()
        return
    cus = module.get_named_metadata("llvm.dbg.cu")
    listed: set[int] = {id(n) for n in cus.operands} if cus is not None else set()
    for key, cu in st.cu_visited.items():
        if key not in listed:
            c.fail_debug_info("DICompileUnit not listed in llvm.dbg.cu", cu)
    st.cu_visited.clear()


__all__ = [
    "ODR_UNIQUING_DEBUG_TYPES",
    "MDState",
    "broken_debug_info",
    "clean_set",
    "expression_is_valid",
    "expression_is_well_formed",
    "expression_values",
    "fragment_info",
    "is_definition",
    "is_entry_value",
    "is_local_scope",
    "is_type",
    "kind_of",
    "llvm_operand0",
    "llvm_tag",
    "md_ref",
    "node_operands",
    "raw_subprogram",
    "record_text",
    "state",
    "variable_size",
    "verify_compile_units",
    "verify_fragment",
    "verify_global_variable_dbg",
    "visit_md_node",
    "visit_named_metadata",
    "visit_value_as_metadata",
]
