"""The tables behind the debug-info nodes: field specifications per kind, operand
order, printing notes, and the ``DIFlag``/``DISPFlag`` words.

Every table was derived from ``opt-19 -S -disable-verify`` on probe inputs:
:data:`FIELD_SPECS` gives each kind's fields in the order LLVM 19 prints
them, each with LLVM's default and its printing rule (:data:`ALWAYS`,
:data:`SKIP_DEFAULT`, :data:`INPUT_ONLY`, :data:`SPECIAL`); :data:`DI_KINDS`
lists the kinds; :data:`OPERAND_ORDER` gives the order of LLVM's node
operands, which decides metadata slot numbering; :data:`PRINT_NOTES` lists
the printing quirks a table cannot say. :data:`DI_FLAGS` and
:data:`DISP_FLAGS` name the flag bits; :func:`split_di_flags` and
:func:`split_disp_flags` turn a flag word into the names LLVM prints,
:func:`flags_value` goes back, and :func:`sp_flags_from_legacy` builds
``spFlags`` from the old DISubprogram fields. :class:`DIEnum`, the symbolic
field value (``DW_TAG_member``, a flag list), lives here because the tables
are written with it.

The node classes that use these tables are in :mod:`llvmpy_mid.ir.debug_info`,
which re-exports every public name of this module.

Not done here: building, uniquing or printing nodes, and DWARF constant
tables beyond the flag words.
"""

from __future__ import annotations

from typing import Any, Iterable

from attrs import frozen

from llvmpy_mid.errors import IRError

__all__ = [
    "ALWAYS",
    "DISP_FLAGS",
    "DI_FLAGS",
    "DI_KINDS",
    "FIELD_SPECS",
    "INPUT_ONLY",
    "OPERAND_ORDER",
    "PRINT_NOTES",
    "SKIP_DEFAULT",
    "SPECIAL",
    "DIEnum",
    "FieldSpec",
    "flags_value",
    "sp_flags_from_legacy",
    "split_di_flags",
    "split_disp_flags",
]

# --- symbolic field values ---------------------------------------------------------------------


@frozen
class DIEnum:
    """A symbolic field value: one identifier (``DW_TAG_member``) or a flag
    list (``DIFlagPrototyped | DIFlagArtificial``; a trailing number string such
    as ``"2097152"`` holds bits that have no name)."""

    names: tuple[str, ...]

    @staticmethod
    def of(*names: str) -> DIEnum:
        return _intern_enum(names)

    @property
    def name(self) -> str:
        """The identifier, or the flags joined by ``" | "``."""
        return " | ".join(self.names)

    def __str__(self) -> str:
        return " | ".join(self.names)


_ENUMS: dict[tuple[str, ...], DIEnum] = {}


def _intern_enum(names: tuple[str, ...]) -> DIEnum:
    e = _ENUMS.get(names)
    if e is None:
        e = _ENUMS[names] = DIEnum(names)
    return e


# --- the field tables ----------------------------------------------------------------------------

ALWAYS = "always"
"""Printed even when absent (the default is printed) or equal to the default."""
SKIP_DEFAULT = "skip-default"
"""Omitted when absent or equal to the default (an empty string counts as absent)."""
INPUT_ONLY = "input-only"
"""Accepted by LLVM's parser but never printed (folded into another field)."""
SPECIAL = "special"
"""Printed under a condition given in :data:`PRINT_NOTES`."""


@frozen
class FieldSpec:
    """One field of a kind: its name, LLVM's default and when it is printed."""

    name: str
    default: Any
    rule: str


def _f(name: str, default: Any = None, rule: str = SKIP_DEFAULT) -> FieldSpec:
    return FieldSpec(name, default, rule)


def _a(name: str, default: Any = None) -> FieldSpec:
    return FieldSpec(name, default, ALWAYS)


_E = DIEnum.of

FIELD_SPECS: dict[str, tuple[FieldSpec, ...]] = {
    "DILocation": (_a("line", 0), _f("column", 0), _a("scope"), _f("inlinedAt"), _f("isImplicitCode", False)),
    "DIExpression": (),
    "DIAssignID": (),
    "GenericDINode": (_a("tag"), _f("header"), _f("operands", ())),
    "DISubrange": (_f("count"), _f("lowerBound"), _f("upperBound"), _f("stride")),
    "DIGenericSubrange": (_f("count"), _f("lowerBound"), _f("upperBound"), _f("stride")),
    "DIEnumerator": (_a("name"), _a("value", 0), _f("isUnsigned", False)),
    "DIBasicType": (
        _f("tag", _E("DW_TAG_base_type")), _f("name"), _f("size", 0), _f("align", 0), _f("encoding", 0),
        _f("flags", 0),
    ),
    "DIStringType": (
        _f("tag", _E("DW_TAG_string_type")), _f("name"), _f("stringLength"), _f("stringLengthExpression"),
        _f("stringLocationExpression"), _f("size", 0), _f("align", 0), _f("encoding", 0),
    ),
    "DIDerivedType": (
        _a("tag"), _f("name"), _f("scope"), _f("file"), _f("line", 0), _a("baseType"), _f("size", 0),
        _f("align", 0), _f("offset", 0), _f("flags", 0), _f("extraData"), _f("dwarfAddressSpace"),
        _f("annotations"), _f("ptrAuthKey", 0, SPECIAL), _f("ptrAuthIsAddressDiscriminated", False, SPECIAL),
        _f("ptrAuthExtraDiscriminator", 0, SPECIAL), _f("ptrAuthIsaPointer", False, SPECIAL),
        _f("ptrAuthAuthenticatesNullValues", False, SPECIAL),
    ),
    "DICompositeType": (
        _a("tag"), _f("name"), _f("scope"), _f("file"), _f("line", 0), _f("baseType"), _f("size", 0),
        _f("align", 0), _f("offset", 0), _f("flags", 0), _f("elements"), _f("runtimeLang", 0),
        _f("vtableHolder"), _f("templateParams"), _f("identifier"), _f("discriminator"), _f("dataLocation"),
        _f("associated"), _f("allocated"), _f("rank"), _f("annotations"),
    ),
    "DISubroutineType": (_f("flags", 0), _f("cc", 0), _a("types")),
    "DIFile": (_a("filename"), _a("directory"), _f("checksumkind"), _f("checksum"), _f("source")),
    "DICompileUnit": (
        _f("language", 0), _a("file"), _f("producer"), _a("isOptimized", False), _f("flags"),
        _a("runtimeVersion", 0), _f("splitDebugFilename"), _a("emissionKind", _E("NoDebug")), _f("enums"),
        _f("retainedTypes"), _f("globals"), _f("imports"), _f("macros"), _f("dwoId", 0),
        _f("splitDebugInlining", True), _f("debugInfoForProfiling", False), _f("nameTableKind", _E("Default")),
        _f("rangesBaseAddress", False), _f("sysroot"), _f("sdk"),
    ),
    "DISubprogram": (
        _f("name"), _f("linkageName"), _a("scope"), _f("file"), _f("line", 0), _f("type"), _f("scopeLine", 0),
        _f("containingType"), _f("virtualIndex", 0, SPECIAL), _f("thisAdjustment", 0), _f("flags", 0),
        _a("spFlags", 0), _f("unit"), _f("templateParams"), _f("declaration"), _f("retainedNodes"),
        _f("thrownTypes"), _f("annotations"), _f("targetFuncName"),
        _f("isLocal", False, INPUT_ONLY), _f("isDefinition", True, INPUT_ONLY),
        _f("isOptimized", False, INPUT_ONLY), _f("virtuality", 0, INPUT_ONLY),
    ),
    "DILexicalBlock": (_a("scope"), _f("file"), _f("line", 0), _f("column", 0)),
    "DILexicalBlockFile": (_a("scope"), _f("file"), _a("discriminator", 0)),
    "DICommonBlock": (_a("scope"), _a("declaration"), _f("name"), _f("file"), _f("line", 0)),
    "DINamespace": (_f("name"), _a("scope"), _f("exportSymbols", False)),
    "DIMacro": (_a("type", 0), _f("line", 0), _f("name"), _f("value")),
    "DIMacroFile": (
        _f("type", _E("DW_MACINFO_start_file"), INPUT_ONLY), _f("line", 0), _a("file"), _f("nodes"),
    ),
    "DIModule": (
        _a("scope"), _f("name"), _f("configMacros"), _f("includePath"), _f("apinotes"), _f("file"),
        _f("line", 0), _f("isDecl", False),
    ),
    "DITemplateTypeParameter": (_f("name"), _a("type"), _f("defaulted", False)),
    "DITemplateValueParameter": (
        _f("tag", _E("DW_TAG_template_value_parameter")), _f("name"), _f("type"), _f("defaulted", False),
        _a("value"),
    ),
    "DIGlobalVariable": (
        _f("name"), _f("linkageName"), _a("scope"), _f("file"), _f("line", 0), _f("type"),
        _a("isLocal", False), _a("isDefinition", True), _f("declaration"), _f("templateParams"), _f("align", 0),
        _f("annotations"),
    ),
    "DILocalVariable": (
        _f("name"), _f("arg", 0), _a("scope"), _f("file"), _f("line", 0), _f("type"), _f("flags", 0),
        _f("align", 0), _f("annotations"),
    ),
    "DILabel": (_a("scope"), _f("name"), _f("file"), _f("line", 0)),
    "DIGlobalVariableExpression": (_f("var"), _f("expr")),
    "DIObjCProperty": (
        _f("name"), _f("file"), _f("line", 0), _f("setter", None, SPECIAL), _f("getter", None, SPECIAL),
        _f("attributes", 0), _f("type"),
    ),
    "DIImportedEntity": (
        _a("tag"), _f("name"), _a("scope"), _f("entity"), _f("file"), _f("line", 0), _f("elements"),
    ),
}
"""Each kind's fields in LLVM 19's print order (input-only fields last)."""

DI_KINDS: tuple[str, ...] = tuple(FIELD_SPECS)
"""Every specialised node kind of LLVM 19 (``!DIArgList`` is in metadata.py)."""

OPERAND_ORDER: dict[str, tuple[str, ...]] = {
    "DILocation": ("scope", "inlinedAt"),
    "DIExpression": (),
    "DIAssignID": (),
    "GenericDINode": ("header",),  # followed by the ``operands:`` list
    "DISubrange": ("count", "lowerBound", "upperBound", "stride"),
    "DIGenericSubrange": ("count", "lowerBound", "upperBound", "stride"),
    "DIEnumerator": ("name",),
    "DIBasicType": ("name",),
    "DIStringType": ("name", "stringLength", "stringLengthExpression", "stringLocationExpression"),
    "DIDerivedType": ("file", "scope", "name", "baseType", "extraData", "annotations"),
    "DICompositeType": (
        "file", "scope", "name", "baseType", "elements", "vtableHolder", "templateParams", "identifier",
        "discriminator", "dataLocation", "associated", "allocated", "rank", "annotations",
    ),
    "DISubroutineType": ("types",),
    "DIFile": ("filename", "directory", "checksum", "source"),
    "DICompileUnit": (
        "file", "producer", "flags", "splitDebugFilename", "enums", "retainedTypes", "globals", "imports",
        "macros", "sysroot", "sdk",
    ),
    "DISubprogram": (
        "file", "scope", "name", "linkageName", "type", "unit", "declaration", "retainedNodes",
        "containingType", "templateParams", "thrownTypes", "annotations", "targetFuncName",
    ),
    "DILexicalBlock": ("file", "scope"),
    "DILexicalBlockFile": ("file", "scope"),
    "DICommonBlock": ("scope", "declaration", "name", "file"),
    "DINamespace": ("scope", "name"),
    "DIMacro": ("name", "value"),
    "DIMacroFile": ("file", "nodes"),
    "DIModule": ("file", "scope", "name", "configMacros", "includePath", "apinotes"),
    "DITemplateTypeParameter": ("name", "type"),
    "DITemplateValueParameter": ("name", "type", "value"),
    "DIGlobalVariable": (
        "scope", "name", "file", "type", "linkageName", "declaration", "templateParams", "annotations",
    ),
    "DILocalVariable": ("scope", "name", "file", "type", "annotations"),
    "DILabel": ("scope", "name", "file"),
    "DIObjCProperty": ("name", "file", "getter", "setter", "type"),
    "DIImportedEntity": ("scope", "entity", "name", "file", "elements"),
    "DIGlobalVariableExpression": ("var", "expr"),
}
"""LLVM's operand order per kind: the slot tracker numbers nodes depth-first in
this order (verified with opt-19 for every node-valued field)."""

PRINT_NOTES: dict[str, str] = {
    "DISubprogram": (
        "virtualIndex is printed (even 0) when the virtuality bits of spFlags are set or the index is "
        "non-zero. spFlags is always printed (0 when empty). Without spFlags, LLVM builds it from the "
        "input-only isLocal/isDefinition/isOptimized/virtuality (see sp_flags_from_legacy); isDefinition "
        "defaults to true, and a definition must be distinct."
    ),
    "DIDerivedType": (
        "The ptrAuth* fields are printed only for tag DW_TAG_LLVM_ptrauth_type: ptrAuthKey and "
        "ptrAuthExtraDiscriminator when non-zero, the three booleans always. LLVM 19 keeps the "
        "pointer-authentication word in the same storage as align, so a ptrauth type prints no align."
    ),
    "DIObjCProperty": (
        "LLVM 19's parser swaps the strings: text 'setter: \"a\", getter: \"b\"' prints as "
        "'setter: \"b\", getter: \"a\"'."
    ),
    "DIMacroFile": "type is accepted but never printed.",
    "DIEnumerator": "value is printed unsigned when isUnsigned is true, else signed.",
    "DISubrange": "Each bound is printed when present, even 0 (an int or a node); absent ones are omitted.",
    "DIBasicType": "tag is printed only when it is not DW_TAG_base_type (a zero tag prints DW_TAG_null).",
    "DICompileUnit": "emissionKind absent prints NoDebug; language 0 is omitted.",
    "DIFile": "checksumkind and checksum go together; an empty source string counts as absent.",
    "DIExpression": "Printed inline, never numbered; an integer in opcode position prints as its DW_OP name.",
    "*": "flags/spFlags given as integers print as names (split_di_flags / split_disp_flags).",
}

# --- flag words ----------------------------------------------------------------------------------

DI_FLAGS: dict[str, int] = {
    "DIFlagZero": 0,
    "DIFlagPrivate": 1,
    "DIFlagProtected": 2,
    "DIFlagPublic": 3,
    "DIFlagFwdDecl": 1 << 2,
    "DIFlagAppleBlock": 1 << 3,
    "DIFlagReservedBit4": 1 << 4,
    "DIFlagVirtual": 1 << 5,
    "DIFlagArtificial": 1 << 6,
    "DIFlagExplicit": 1 << 7,
    "DIFlagPrototyped": 1 << 8,
    "DIFlagObjcClassComplete": 1 << 9,
    "DIFlagObjectPointer": 1 << 10,
    "DIFlagVector": 1 << 11,
    "DIFlagStaticMember": 1 << 12,
    "DIFlagLValueReference": 1 << 13,
    "DIFlagRValueReference": 1 << 14,
    "DIFlagExportSymbols": 1 << 15,
    "DIFlagSingleInheritance": 1 << 16,
    "DIFlagMultipleInheritance": 2 << 16,
    "DIFlagVirtualInheritance": 3 << 16,
    "DIFlagIntroducedVirtual": 1 << 18,
    "DIFlagBitField": 1 << 19,
    "DIFlagNoReturn": 1 << 20,
    "DIFlagTypePassByValue": 1 << 22,
    "DIFlagTypePassByReference": 1 << 23,
    "DIFlagEnumClass": 1 << 24,
    "DIFlagThunk": 1 << 25,
    "DIFlagNonTrivial": 1 << 26,
    "DIFlagBigEndian": 1 << 27,
    "DIFlagLittleEndian": 1 << 28,
    "DIFlagAllCallsDescribed": 1 << 29,
    "DIFlagIndirectVirtualBase": (1 << 2) | (1 << 5),
}
"""``DIFlag*`` names and their bits (LLVM 19; checked bit by bit with opt-19)."""

DISP_FLAGS: dict[str, int] = {
    "DISPFlagZero": 0,
    "DISPFlagVirtual": 1,
    "DISPFlagPureVirtual": 2,
    "DISPFlagLocalToUnit": 1 << 2,
    "DISPFlagDefinition": 1 << 3,
    "DISPFlagOptimized": 1 << 4,
    "DISPFlagPure": 1 << 5,
    "DISPFlagElemental": 1 << 6,
    "DISPFlagRecursive": 1 << 7,
    "DISPFlagMainSubprogram": 1 << 8,
    "DISPFlagDeleted": 1 << 9,
    "DISPFlagObjCDirect": 1 << 11,
}
"""``DISPFlag*`` names and their bits."""

_DI_SINGLE_BITS = tuple(
    (n, v) for n, v in DI_FLAGS.items() if v and v & (v - 1) == 0 and not v & 3 and not v & (3 << 16)
)
_DISP_SINGLE_BITS = tuple((n, v) for n, v in DISP_FLAGS.items() if v)


def split_di_flags(value: int) -> tuple[str, ...]:
    """The names LLVM prints for a ``DIFlag`` word, in its order (accessibility,
    inheritance, indirect virtual base, then bit order; unnamed bits as one number)."""
    names: list[str] = []
    access = value & 3
    if access:
        names.append(("DIFlagPrivate", "DIFlagProtected", "DIFlagPublic")[access - 1])
    inherit = value & (3 << 16)
    if inherit:
        names.append(
            ("DIFlagSingleInheritance", "DIFlagMultipleInheritance", "DIFlagVirtualInheritance")[(inherit >> 16) - 1]
        )
    rest = value & ~3 & ~(3 << 16)
    ivb = DI_FLAGS["DIFlagIndirectVirtualBase"]
    if rest & ivb == ivb:
        names.append("DIFlagIndirectVirtualBase")
        rest &= ~ivb
    for name, bit in _DI_SINGLE_BITS:
        if rest & bit:
            names.append(name)
            rest &= ~bit
    if rest:
        names.append(str(rest))
    return tuple(names)


def split_disp_flags(value: int) -> tuple[str, ...]:
    """The names LLVM prints for a ``DISPFlag`` word (bit order; 3 is
    ``DISPFlagVirtual | DISPFlagPureVirtual``; unnamed bits as one number)."""
    names: list[str] = []
    rest = value
    for name, bit in _DISP_SINGLE_BITS:
        if rest & bit:
            names.append(name)
            rest &= ~bit
    if rest:
        names.append(str(rest))
    return tuple(names)


def flags_value(names: Iterable[str]) -> int:
    """The integer of a flag list (``DIFlag*``, ``DISPFlag*`` or numbers)."""
    value = 0
    for name in names:
        bit = DI_FLAGS.get(name)
        if bit is None:
            bit = DISP_FLAGS.get(name)
        if bit is None:
            try:
                bit = int(name, 0)
            except ValueError:
                raise IRError("unknown debug-info flag %r" % name) from None
        value |= bit
    return value


def sp_flags_from_legacy(
    is_local: bool = False, is_definition: bool = True, is_optimized: bool = False, virtuality: int = 0
) -> DIEnum | int:
    """The ``spFlags`` LLVM derives when a DISubprogram gives the old
    ``isLocal``/``isDefinition``/``isOptimized``/``virtuality`` fields instead."""
    value = virtuality & 3
    if is_local:
        value |= DISP_FLAGS["DISPFlagLocalToUnit"]
    if is_definition:
        value |= DISP_FLAGS["DISPFlagDefinition"]
    if is_optimized:
        value |= DISP_FLAGS["DISPFlagOptimized"]
    return _intern_enum(split_disp_flags(value)) if value else 0
