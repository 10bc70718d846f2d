"""The visitors of LLVM 19's debug-info nodes (``visitDILocation``,
``visitDISubprogram``... ``visitDIGlobalVariableExpression``), one per node
kind, in :data:`VISITORS`.

Each visitor checks one node's own fields, in LLVM's order, and stops at the
first finding (reported with ``c.fail_debug_info``: opt-19 then drops the
debug info and only warns). The node walk that calls them, once per node per
run, is :func:`~llvmpy_mid.ir.verifier.debug_info_rules.visit_md_node`; a
few are also called directly (a global's ``!dbg`` expression, a record's
fragment). Fields are read through :mod:`~llvmpy_mid.ir.verifier.di_nodes`,
so a node built through the API with a wrong kind of field is reported, not
crashed on.

Not done here: the walk over operands, ``DIStringType``'s endianness flags
(the textual form has no flags field).
"""

from __future__ import annotations

from typing import Any, Callable

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.debug_info import DI_FLAGS, DIEnum, DIExpression, DILocation, DINode
from llvmpy_mid.ir.di_expression import ATE_VALUES, expression_values, fragment_info, values_are_valid
from llvmpy_mid.ir.metadata import MDTuple, Metadata, ValueAsMetadata
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.di_nodes import (
    MACRO_KINDS,
    SCOPE_KINDS,
    TEMPLATE_PARAM_KINDS,
    TYPE_KINDS,
    VARIABLE_KINDS,
    di_flags,
    field_of,
    int_value,
    is_definition,
    is_dinode,
    is_local_scope,
    is_scope,
    is_type,
    kind_of,
    llvm_operand0,
    llvm_tag,
    md_field,
    string_field,
    tag_of,
    variable_size,
)
from llvmpy_mid.ir.verifier.metadata_state import clean_set, state

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
_MACINFO_VALUES = {"DW_MACINFO_define": 1, "DW_MACINFO_undef": 2, "DW_MACINFO_start_file": 3, "DW_MACINFO_end_file": 4}
_CHECKSUM_SIZES = {"CSK_MD5": 32, "CSK_SHA1": 40, "CSK_SHA256": 64}
_HEX = frozenset("0123456789abcdefABCDEF")

_FLAG_LVALUE_REF = DI_FLAGS["DIFlagLValueReference"]
_FLAG_RVALUE_REF = DI_FLAGS["DIFlagRValueReference"]
_FLAG_BY_VALUE = DI_FLAGS["DIFlagTypePassByValue"]
_FLAG_BY_REF = DI_FLAGS["DIFlagTypePassByReference"]
_FLAG_VECTOR = DI_FLAGS["DIFlagVector"]
_FLAG_STATIC_MEMBER = DI_FLAGS["DIFlagStaticMember"]
_FLAG_ALL_CALLS = DI_FLAGS["DIFlagAllCallsDescribed"]
_FLAG_BLOCK_BYREF = 1 << 4


def _conflicting_reference_flags(flags: int) -> bool:
    return bool(
        (flags & _FLAG_LVALUE_REF and flags & _FLAG_RVALUE_REF) or (flags & _FLAG_BY_VALUE and flags & _FLAG_BY_REF)
    )


def _odr_uniquing() -> bool:
    """``debug_info_rules.ODR_UNIQUING_DEBUG_TYPES``, read when needed (it may be switched off)."""
    from llvmpy_mid.ir.verifier import debug_info_rules

    return debug_info_rules.ODR_UNIQUING_DEBUG_TYPES


def expression_is_valid(c: Checker, expr: object) -> bool:
    """LLVM's ``DIExpression::isValid`` (memoised per node)."""
    if not isinstance(expr, DIExpression):
        return False
    cache = state(c).expr_valid
    key = id(expr)
    found = cache.get(key)
    if found is None:
        found = cache[key] = values_are_valid(expression_values(expr))
    return found


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
        c.fail("invalid tag", n)  # a hard failure in LLVM 19 (opt-19: "input module is broken!")


def _file_ok(c: Checker, n: DINode) -> bool:
    """The node's ``file`` is null or a DIFile (else "invalid file")."""
    f = md_field(n, "file")
    if f is not None and kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)
        return False
    return True


def _scope_ok(c: Checker, n: DINode, message: str) -> bool:
    """The node's ``scope`` is null or a DIScope (else ``message``)."""
    scope = md_field(n, "scope")
    if scope is not None and kind_of(scope) not in SCOPE_KINDS:
        c.fail_debug_info(message, n, scope)
        return False
    return True


def _type_ref_ok(c: Checker, n: DINode) -> bool:
    """The node's ``type`` is null or a DIType (else "invalid type ref")."""
    ty = md_field(n, "type")
    if not is_type(ty):
        c.fail_debug_info("invalid type ref", n, ty)
        return False
    return True


def _tuple_ok(
    c: Checker,
    n: DINode,
    raw: Metadata,
    list_message: str,
    item_ok: Callable[[Any], bool],
    item_message: str,
    with_list: bool,
) -> bool:
    """``raw`` is a tuple whose operands all pass ``item_ok``; the item finding
    prints the tuple before the item when ``with_list`` (as LLVM's message does)."""
    if not isinstance(raw, MDTuple):
        c.fail_debug_info(list_message, n, raw)
        return False
    for op in raw.operands:
        if not item_ok(op):
            if with_list:
                c.fail_debug_info(item_message, n, raw, op)
            else:
                c.fail_debug_info(item_message, n, op)
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


def _bound_checked(c: Checker, n: DINode, md: Any, allow_constant: bool, what: str) -> bool:
    """A subrange bound is absent, a DIVariable or a DIExpression (or, with
    ``allow_constant``, a constant); else "<what> must be signed constant or ..."."""
    if _bound_ok(md, allow_constant):
        return True
    c.fail_debug_info("%s must be signed constant or DIVariable or DIExpression" % what, n)
    return False


def _count_ok(c: Checker, n: DINode, count: Any, upper: Any, what: str, allow_constant: bool) -> bool:
    """A (generic) subrange has at most one of count and upperBound, and a valid count."""
    if count is not None and upper is not None:
        c.fail_debug_info("%s can have any one of count or upperBound" % what, n)
        return False
    return _bound_checked(c, n, count, allow_constant, "Count")


def _visit_subrange(c: Checker, n: DINode) -> None:
    count = field_of(n, "count")
    upper = field_of(n, "upperBound")
    if not _count_ok(c, n, count, upper, "Subrange", True):
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
    if not _bound_checked(c, n, field_of(n, "lowerBound"), True, "LowerBound"):
        return
    if not _bound_checked(c, n, upper, True, "UpperBound"):
        return
    _bound_checked(c, n, field_of(n, "stride"), True, "Stride")


def _visit_generic_subrange(c: Checker, n: DINode) -> None:
    count = field_of(n, "count")
    upper = field_of(n, "upperBound")
    if not _count_ok(c, n, count, upper, "GenericSubrange", False):
        return
    lower = field_of(n, "lowerBound")
    if lower is None:
        c.fail_debug_info("GenericSubrange must contain lowerBound", n)
        return
    if not _bound_checked(c, n, lower, False, "LowerBound"):
        return
    if not _bound_checked(c, n, upper, False, "UpperBound"):
        return
    stride = field_of(n, "stride")
    if stride is None:
        c.fail_debug_info("GenericSubrange must contain stride", n)
        return
    _bound_checked(c, n, stride, False, "Stride")


def _visit_basic_type(c: Checker, n: DINode) -> None:
    if tag_of(n) not in _BASIC_TAGS:
        c.fail_debug_info("invalid tag", n)


def _visit_string_type(c: Checker, n: DINode) -> None:
    if tag_of(n) != "DW_TAG_string_type":
        c.fail_debug_info("invalid tag", n)


def _encoding(node: Any) -> int:
    value = field_of(node, "encoding")
    if isinstance(value, DIEnum):
        return ATE_VALUES.get(value.name, 0)
    return int_value(value)


def _scope_and_base_ok(c: Checker, n: DINode, base: Metadata | None) -> bool:
    """A type's ``scope`` is null or a DIScope, then its base type null or a DIType."""
    scope = md_field(n, "scope")
    if not is_scope(scope):
        c.fail_debug_info("invalid scope", n, scope)
        return False
    if not is_type(base):
        c.fail_debug_info("invalid base type", n, base)
        return False
    return True


def _visit_derived_type(c: Checker, n: DINode) -> None:
    _file_ok(c, n)
    tag = tag_of(n)
    if tag not in _DERIVED_TAGS and not (tag == "DW_TAG_variable" and di_flags(n) & _FLAG_STATIC_MEMBER):
        c.fail_debug_info("invalid tag", n)
        return
    if tag == "DW_TAG_ptr_to_member_type":
        extra = md_field(n, "extraData")
        if not is_type(extra):
            c.fail_debug_info("invalid pointer to member type", n, extra)
            return
    base = md_field(n, "baseType")
    if tag == "DW_TAG_set_type" and base is not None:
        kind = kind_of(base)
        ok = (kind == "DICompositeType" and tag_of(base) == "DW_TAG_enumeration_type") or (
            kind == "DIBasicType" and _encoding(base) in _SET_BASE_ENCODINGS
        )
        if not ok:
            c.fail_debug_info("invalid set base type", n, base)
            return
    if not _scope_and_base_ok(c, n, base):
        return
    if n.has_field("dwarfAddressSpace") and field_of(n, "dwarfAddressSpace") is not None:
        if tag not in ("DW_TAG_pointer_type", "DW_TAG_reference_type", "DW_TAG_rvalue_reference_type"):
            c.fail_debug_info("DWARF address space only applies to pointer or reference types", n)


def _is_template_param(op: object) -> bool:
    return kind_of(op) in TEMPLATE_PARAM_KINDS


def _visit_template_params(c: Checker, n: DINode, raw: Metadata) -> None:
    _tuple_ok(c, n, raw, "invalid template params", _is_template_param, "invalid template parameter", True)


def _tuple_ops(md: Any) -> tuple[Metadata | None, ...]:
    return md.operands if isinstance(md, MDTuple) else ()


def _visit_composite_type(c: Checker, n: DINode) -> None:
    _file_ok(c, n)
    tag = tag_of(n)
    if tag not in _COMPOSITE_TAGS:
        c.fail_debug_info("invalid tag", n)
        return
    base = md_field(n, "baseType")
    if not _scope_and_base_ok(c, n, base):
        return
    elements = md_field(n, "elements")
    if elements is not None and not isinstance(elements, MDTuple):
        c.fail_debug_info("invalid composite elements", n, elements)
        return
    holder = md_field(n, "vtableHolder")
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
    params = md_field(n, "templateParams")
    if params is not None:
        _visit_template_params(c, n, params)
    disc = md_field(n, "discriminator")
    if disc is not None and not (kind_of(disc) == "DIDerivedType" and tag == "DW_TAG_variant_part"):
        c.fail_debug_info("discriminator can only appear on variant part")
        return
    for field, message in (
        ("dataLocation", "dataLocation can only appear in array type"),
        ("associated", "associated can only appear in array type"),
        ("allocated", "allocated can only appear in array type"),
        ("rank", "rank can only appear in array type"),
    ):
        if field_of(n, field) is not None and tag != "DW_TAG_array_type":
            c.fail_debug_info(message)
            return
    if tag == "DW_TAG_array_type" and base is None:
        c.fail_debug_info("array types must have a base type", n)


def _visit_subroutine_type(c: Checker, n: DINode) -> None:
    types = md_field(n, "types")
    if types is not None:
        if not _tuple_ok(c, n, types, "invalid composite elements", is_type, "invalid subroutine type ref", True):
            return
    if _conflicting_reference_flags(di_flags(n)):
        c.fail_debug_info("invalid reference flags", n)


def _visit_file(c: Checker, n: DINode) -> None:
    kind = field_of(n, "checksumkind")
    if kind is None:
        return
    name = kind.name if isinstance(kind, DIEnum) else ""
    size = _CHECKSUM_SIZES.get(name)
    if size is None:
        c.fail_debug_info("invalid checksum kind", n)
        return
    value = string_field(n, "checksum")
    if len(value) != size:
        c.fail_debug_info("invalid checksum length", n)
        return
    if any(ch not in _HEX for ch in value):
        c.fail_debug_info("invalid checksum", n)


def _visit_compile_unit(c: Checker, n: DINode) -> None:
    if not n.is_distinct:
        c.fail_debug_info("compile units must be distinct", n)
        return
    f = md_field(n, "file")
    if kind_of(f) != "DIFile":
        c.fail_debug_info("invalid file", n, f)
        return
    if not string_field(f, "filename"):  # type: ignore[arg-type]
        c.fail_debug_info("invalid filename", n, f)
        return
    for field, list_message, item_message, ok in (
        ("enums", "invalid enum list", "invalid enum type", _is_enum_type),
        ("retainedTypes", "invalid retained type list", "invalid retained type", _is_retained_type),
        ("globals", "invalid global variable list", "invalid global variable ref", _is_gve),
        ("imports", "invalid imported entity list", "invalid imported entity ref", _is_imported_entity),
        ("macros", "invalid macro list", "invalid macro ref", _is_macro),
    ):
        array = md_field(n, field)
        if array is None:
            continue
        if not _tuple_ok(c, n, array, list_message, ok, item_message, field == "enums"):
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


_BAD_RETAINED_NODE = "invalid retained nodes, expected DILocalVariable, DILabel or DIImportedEntity"


def _is_retained_node(op: object) -> bool:
    return kind_of(op) in ("DILocalVariable", "DILabel", "DIImportedEntity")


def _is_thrown_type(op: object) -> bool:
    return kind_of(op) in TYPE_KINDS


def _visit_subprogram(c: Checker, n: DINode) -> None:
    scope = md_field(n, "scope")
    if not is_scope(scope):
        c.fail_debug_info("invalid scope", n, scope)
        return
    f = md_field(n, "file")
    if f is not None:
        if kind_of(f) != "DIFile":
            c.fail_debug_info("invalid file", n, f)
            return
    else:
        line = int_value(field_of(n, "line"))
        if line != 0:
            c.fail_debug_info("line specified with no file", n, line & 0xFFFFFFFF)
            return
    ty = md_field(n, "type")
    if ty is not None and kind_of(ty) != "DISubroutineType":
        c.fail_debug_info("invalid subroutine type", n, ty)
        return
    containing = md_field(n, "containingType")
    if not is_type(containing):
        c.fail_debug_info("invalid containing type", n, containing)
        return
    params = md_field(n, "templateParams")
    if params is not None:
        _visit_template_params(c, n, params)
    decl = md_field(n, "declaration")
    if decl is not None and not (kind_of(decl) == "DISubprogram" and not is_definition(decl)):
        c.fail_debug_info("invalid subprogram declaration", n, decl)
        return
    retained = md_field(n, "retainedNodes")
    if retained is not None:
        if not _tuple_ok(c, n, retained, "invalid retained nodes list", _is_retained_node, _BAD_RETAINED_NODE, True):
            return
    flags = di_flags(n)
    if _conflicting_reference_flags(flags):
        c.fail_debug_info("invalid reference flags", n)
        return
    unit = md_field(n, "unit")
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
        nested = kind_of(scope) == "DICompositeType" and string_field(scope, "identifier")  # type: ignore[arg-type]
        if nested and _odr_uniquing():
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
    thrown = md_field(n, "thrownTypes")
    if thrown is not None:
        if not _tuple_ok(c, n, thrown, "invalid thrown types list", _is_thrown_type, "invalid thrown type", True):
            return
    if flags & _FLAG_ALL_CALLS and not definition:
        c.fail_debug_info("DIFlagAllCallsDescribed must be attached to a definition")


def _visit_lexical_block_base(c: Checker, n: DINode) -> None:
    scope = md_field(n, "scope")
    if not is_local_scope(scope):
        c.fail_debug_info("invalid local scope", n, scope)
        return
    if kind_of(scope) == "DISubprogram" and not is_definition(scope):
        c.fail_debug_info("scope points into the type hierarchy", n)


def _visit_lexical_block(c: Checker, n: DINode) -> None:
    _visit_lexical_block_base(c, n)
    if not int_value(field_of(n, "line")) and int_value(field_of(n, "column")):
        c.fail_debug_info("cannot have column info without line info", n)


def _visit_common_block(c: Checker, n: DINode) -> None:
    if not _scope_ok(c, n, "invalid scope ref"):
        return
    decl = md_field(n, "declaration")
    if decl is not None and kind_of(decl) != "DIGlobalVariable":
        c.fail_debug_info("invalid declaration", n, decl)


def _visit_namespace(c: Checker, n: DINode) -> None:
    _scope_ok(c, n, "invalid scope ref")


def _macinfo(n: DINode, default: int) -> int:
    value = field_of(n, "type")
    if value is None:
        return default
    if isinstance(value, DIEnum):
        return _MACINFO_VALUES.get(value.name, -1)
    return int_value(value)


def _visit_macro(c: Checker, n: DINode) -> None:
    if _macinfo(n, 0) not in (1, 2):
        c.fail_debug_info("invalid macinfo type", n)
        return
    if not string_field(n, "name"):
        c.fail_debug_info("anonymous macro", n)


def _visit_macro_file(c: Checker, n: DINode) -> None:
    if _macinfo(n, 3) != 3:
        c.fail_debug_info("invalid macinfo type", n)
        return
    if not _file_ok(c, n):
        return
    nodes = md_field(n, "nodes")
    if nodes is not None:
        _tuple_ok(c, n, nodes, "invalid macro list", _is_macro, "invalid macro ref", False)


def _visit_module(c: Checker, n: DINode) -> None:
    if not string_field(n, "name"):
        c.fail_debug_info("anonymous module", n)


def _visit_template_type_param(c: Checker, n: DINode) -> None:
    _type_ref_ok(c, n)


def _visit_template_value_param(c: Checker, n: DINode) -> None:
    _visit_template_type_param(c, n)
    if tag_of(n) not in _TEMPLATE_VALUE_TAGS:
        c.fail_debug_info("invalid tag", n)


def _visit_variable(c: Checker, n: DINode) -> bool:
    """LLVM's ``visitDIVariable`` (also the first checks of a label); False on a finding."""
    return _scope_ok(c, n, "invalid scope") and _file_ok(c, n)


def visit_global_variable(c: Checker, n: DINode) -> None:
    """LLVM's ``visitDIGlobalVariable`` (also called directly, unmemoised, for expressions)."""
    _visit_variable(c, n)
    if not _type_ref_ok(c, n):
        return
    ty = md_field(n, "type")
    definition = field_of(n, "isDefinition")
    if (definition is None or definition) and ty is None:
        c.fail_debug_info("missing global variable type", n)
        return
    member = md_field(n, "declaration")
    if member is not None and kind_of(member) != "DIDerivedType":
        c.fail_debug_info("invalid static data member declaration", n, member)


def _visit_local_variable(c: Checker, n: DINode) -> None:
    _visit_variable(c, n)
    if not _type_ref_ok(c, n):
        return
    ty = md_field(n, "type")
    scope = md_field(n, "scope")
    if not is_local_scope(scope):
        c.fail_debug_info("local variable requires a valid scope", n, scope)
        return
    if kind_of(ty) == "DISubroutineType":
        c.fail_debug_info("invalid type", n, ty)


def _visit_assign_id(c: Checker, n: DINode) -> None:
    if not n.is_distinct:
        c.fail_debug_info("DIAssignID must be distinct", n)


def _visit_label(c: Checker, n: DINode) -> None:
    if not _visit_variable(c, n):
        return
    scope = md_field(n, "scope")
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
    var = md_field(gve, "var")
    if var is None:
        c.fail_debug_info("missing variable")
        return
    if kind_of(var) == "DIGlobalVariable":
        visit_global_variable(c, var)  # type: ignore[arg-type]
    else:
        _visit_other_as_global_variable(c, var)
    expr = md_field(gve, "expr")
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
    if _type_ref_ok(c, n):
        _file_ok(c, n)


def _visit_imported_entity(c: Checker, n: DINode) -> None:
    if tag_of(n) not in ("DW_TAG_imported_module", "DW_TAG_imported_declaration"):
        c.fail_debug_info("invalid tag", n)
        return
    if not _scope_ok(c, n, "invalid scope for imported entity"):
        return
    entity = md_field(n, "entity")
    if not is_dinode(entity):
        c.fail_debug_info("invalid imported entity", n, entity)


VISITORS: dict[str, Visitor] = {
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



__all__ = [
    "VISITORS",
    "Visitor",
    "expression_is_valid",
    "verify_fragment",
    "visit_expression",
    "visit_global_variable",
    "visit_global_variable_expression",
]
