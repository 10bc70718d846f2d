"""Metadata in ``.ll`` text: numbered and named nodes, ``!{...}`` tuples,
``!"strings"``, values as metadata, the specialised ``!DI...(...)`` nodes,
``!DIExpression``, ``!DIArgList``, ``metadata`` operands and debug records
(``#dbg_value``, ``#dbg_declare``, ``#dbg_assign``, ``#dbg_label``).

What: :class:`MetadataParser` builds the metadata graph of
:mod:`llvmpy_mid.ir.metadata` and :mod:`llvmpy_mid.ir.debug_info`. A
reference ``!N`` to a node not yet defined is a temporary node that the
definition replaces (``replace_all_uses_with``), as in LLVM; the table of
numbered nodes follows nodes that are merged while they resolve. The
specialised nodes are read generically, field by field, following the
tables of :mod:`llvmpy_mid.ir.debug_info_tables`; the rules LLVM's parser
applies on the way are applied here: ``flags``/``spFlags`` lists are
normalised (so equal flag words are one node), the old DISubprogram
fields ``isLocal``/``isDefinition``/``isOptimized``/``virtuality`` become
``spFlags``, ``DIObjCProperty`` keeps LLVM 19's swapped getter/setter,
``DIMacroFile``'s ``type`` is dropped, integer DWARF tags and encodings
are given their names, and nodes that must be ``distinct`` are checked.

Not done here: attachments on instructions and globals are read here
(:meth:`MetadataParser.parse_attachment`) but set by the callers; the
printer decides numbering.
"""

from __future__ import annotations

from typing import Any, cast

from llvmpy_mid.asm.lexer import decimal_value, is_digits
from llvmpy_mid.ir import dwarf_names
from llvmpy_mid.asm.parse_base import int_literal
from llvmpy_mid.asm.parse_constexprs import ConstantExprParser
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.debug_info import (
    DI_FLAGS,
    DISP_FLAGS,
    FIELD_SPECS,
    DIEnum,
    DIExpression,
    DIFieldNode,
    DILocation,
    DINode,
    split_di_flags,
    split_disp_flags,
)
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgRecord, DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.metadata import (
    TEMPORARY,
    DIArgList,
    MDNode,
    MDString,
    MDTuple,
    Metadata,
    MetadataAsValue,
    ValueAsMetadata,
)
from llvmpy_mid.ir.types import Type, TypeID
from llvmpy_mid.ir.value import Value

_FIELD_NAMES: dict[str, frozenset[str]] = {k: frozenset(s.name for s in v) for k, v in FIELD_SPECS.items()}

_REQUIRED: dict[str, tuple[str, ...]] = {
    "DILocation": ("scope",),
    "GenericDINode": ("tag",),
    "DIEnumerator": ("name", "value"),
    "DIDerivedType": ("tag", "baseType"),
    "DICompositeType": ("tag",),
    "DISubroutineType": ("types",),
    "DIFile": ("filename", "directory"),
    "DICompileUnit": ("language", "file"),
    "DILexicalBlock": ("scope",),
    "DILexicalBlockFile": ("scope", "discriminator"),
    "DICommonBlock": ("scope",),
    "DINamespace": ("scope",),
    "DIMacro": ("type", "name"),
    "DIMacroFile": ("file",),
    "DIModule": ("scope", "name"),
    "DITemplateTypeParameter": ("type",),
    "DITemplateValueParameter": ("value",),
    "DILocalVariable": ("scope",),
    "DILabel": ("scope", "name", "file", "line"),
    "DIGlobalVariableExpression": ("var", "expr"),
    "DIImportedEntity": ("tag", "scope"),
    "DIStringType": ("name",),
}

# A field written as a number holds that number; LLVM prints the name when it has one.
_ENUM_FIELD_NAMES: dict[str, dict[int, str]] = {
    "tag": dwarf_names.DW_TAGS,
    "encoding": dwarf_names.DW_ATES,
    "language": dwarf_names.DW_LANGS,
    "sourceLanguage": dwarf_names.DW_LANGS,
    "runtimeLang": dwarf_names.DW_LANGS,
    "cc": dwarf_names.DW_CCS,
    "emissionKind": dwarf_names.EMISSION_KINDS,
    "nameTableKind": dwarf_names.NAME_TABLE_KINDS,
}

_NEEDS_DISTINCT = frozenset(("DICompileUnit",))
_STRING_FIELDS = frozenset(
    (
        "name", "linkageName", "filename", "directory", "producer", "splitDebugFilename", "header",
        "configMacros", "includePath", "apinotes", "identifier", "checksum", "source", "sysroot", "sdk",
        "targetFuncName", "setter", "getter",
    )
)  # fmt: skip
# Field kinds (how a field's value is read).
_MD, _MD_OR_INT, _STR, _INT, _BOOL, _FLAGS, _SPFLAGS = 0, 1, 2, 3, 4, 5, 6
_TAG, _ATE, _LANG, _CC, _VIRT, _MACINFO, _CSK, _EMISSION, _NAMETABLE = 10, 11, 12, 13, 14, 15, 16, 17, 18
_ENUM_KINDS: dict[int, tuple[str, str]] = {
    _TAG: ("DW_TAG_", "expected DWARF tag"),
    _ATE: ("DW_ATE_", "expected DWARF type attribute encoding"),
    _LANG: ("DW_LANG_", "expected DWARF language"),
    _CC: ("DW_CC_", "expected DWARF calling convention"),
    _VIRT: ("DW_VIRTUALITY_", "expected DWARF virtuality code"),
    _MACINFO: ("DW_MACINFO_", "expected DWARF macinfo type"),
    _CSK: ("CSK_", "invalid checksum kind"),
    _EMISSION: ("", "expected emission kind"),
    _NAMETABLE: ("", "expected nameTable kind"),
}
# The names each DWARF keyword field knows (LLVM's dwarf::getTag, getLanguage...): another word
# with the right prefix is "invalid DWARF tag 'DW_TAG_x'" and the like.
_KNOWN_NAMES: dict[int, tuple[frozenset[str], str]] = {
    _TAG: (frozenset(dwarf_names.DW_TAGS.values()), "invalid DWARF tag"),
    _ATE: (frozenset(dwarf_names.DW_ATES.values()), "invalid DWARF type attribute encoding"),
    _LANG: (frozenset(dwarf_names.DW_LANGS.values()), "invalid DWARF language"),
    _CC: (frozenset(dwarf_names.DW_CCS.values()), "invalid DWARF calling convention"),
    _VIRT: (
        frozenset(("DW_VIRTUALITY_none", "DW_VIRTUALITY_virtual", "DW_VIRTUALITY_pure_virtual")),
        "invalid DWARF virtuality code",
    ),
    _MACINFO: (
        frozenset(
            ("DW_MACINFO_define", "DW_MACINFO_undef", "DW_MACINFO_start_file", "DW_MACINFO_end_file", "DW_MACINFO_vendor_ext")
        ),
        "invalid DWARF macinfo type",
    ),
}
_WORD_ENUMS: dict[int, frozenset[str]] = {
    _EMISSION: frozenset(("NoDebug", "FullDebug", "LineTablesOnly", "DebugDirectivesOnly")),
    _NAMETABLE: frozenset(("Default", "GNU", "None", "Apple")),
}
_NAMED_KINDS = {
    "tag": _TAG,
    "encoding": _ATE,
    "language": _LANG,
    "sourceLanguage": _LANG,
    "runtimeLang": _LANG,
    "cc": _CC,
    "virtuality": _VIRT,
    "checksumkind": _CSK,
    "emissionKind": _EMISSION,
    "nameTableKind": _NAMETABLE,
    "flags": _FLAGS,
    "spFlags": _SPFLAGS,
}
_MD_OR_INT_FIELDS = frozenset(("count", "lowerBound", "upperBound", "stride", "rank", "dwarfAddressSpace"))
_SIGNED_FIELDS = frozenset(("thisAdjustment", "value", "offset"))

_U16, _U32, _U64 = 0xFFFF, 0xFFFFFFFF, (1 << 64) - 1
_I32 = (-(1 << 31), (1 << 31) - 1)
_I64 = (-(1 << 63), (1 << 63) - 1)
# The largest value of each unsigned integer field (LLVM's MDUnsignedField limits in LLParser.cpp),
# by field name; _UNSIGNED_MAX_OF_KIND holds the fields whose limit depends on the node kind.
_UNSIGNED_MAX: dict[str, int] = {
    "line": _U32, "scopeLine": _U32, "column": _U16, "size": _U64, "offset": _U64, "align": _U32,
    "dwarfAddressSpace": _U32, "ptrAuthKey": 7, "ptrAuthExtraDiscriminator": 0xFFFF,
    "runtimeVersion": _U32, "dwoId": _U64, "virtualIndex": _U32, "arg": _U16, "attributes": _U32,
}  # fmt: skip
_UNSIGNED_MAX_OF_KIND: dict[tuple[str, str], int] = {("DILexicalBlockFile", "discriminator"): _U32}
# Signed integer fields (MDSignedField / MDSignedOrMDField): (kind, field) -> (minimum, maximum).
_SIGNED_RANGE: dict[tuple[str, str], tuple[int, int]] = {
    ("DISubprogram", "thisAdjustment"): _I32,
    ("DISubrange", "count"): (-1, _I64[1]),
    **{(kind, f): _I64 for kind in ("DISubrange", "DIGenericSubrange") for f in ("lowerBound", "upperBound", "stride")},
    ("DIGenericSubrange", "count"): _I64,
    ("DICompositeType", "rank"): _I64,
}
# The largest number a DWARF-enumeration field takes (DW_TAG_hi_user, DW_ATE_hi_user, ...).
_ENUM_MAX: dict[int, int] = {
    _TAG: 0xFFFF, _ATE: 0xFF, _LANG: 0xFFFF, _CC: 0xFF, _VIRT: 2, _MACINFO: 0xFF, _EMISSION: 3, _NAMETABLE: 3,
}
# Metadata fields LLVM's parser refuses ``null`` for (MDField with AllowNull false).
_NOT_NULL = frozenset(
    (("DICompileUnit", "file"), ("DILexicalBlock", "scope"), ("DILexicalBlockFile", "scope"),
     ("DILocalVariable", "scope"), ("DILabel", "scope"), ("DISubrange", "count"))
)  # fmt: skip
# String fields LLVM's parser refuses empty (MDStringField with AllowEmpty false).
_NOT_EMPTY = frozenset((("DIGlobalVariable", "name"),))
_CHECKSUM_KINDS = frozenset(("CSK_MD5", "CSK_SHA1", "CSK_SHA256"))


def _field_kinds(kind: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for spec in FIELD_SPECS[kind]:
        name = spec.name
        cat = _NAMED_KINDS.get(name)
        if cat is None:
            default = spec.default
            if name in _STRING_FIELDS:
                cat = _STR
            elif name in _MD_OR_INT_FIELDS:
                cat = _MD_OR_INT
            elif isinstance(default, bool):
                cat = _BOOL
            elif isinstance(default, int):
                cat = _INT
            else:
                cat = _MD
        out[name] = cat
    if kind == "DICompileUnit":
        out["flags"] = _STR
    elif kind == "DIMacro":
        out["type"] = _MACINFO
        out["value"] = _STR
    elif kind == "DIMacroFile":
        out["type"] = _MACINFO
    elif kind == "DIEnumerator":
        out["value"] = _INT
    elif kind in ("DITemplateValueParameter", "DIStringType"):
        out["value"] = _MD
    return out


_FIELD_KINDS: dict[str, dict[str, int]] = {k: _field_kinds(k) for k in FIELD_SPECS}
_SPECIAL_INT_FIELDS = frozenset(("flags", "spFlags", "tag", "encoding", "language", "sourceLanguage"))
_MD_ON_DEMAND_DEPTH = 60
"""How deep definitions may be read ahead on demand before a temporary is used."""
_DEBUG_KINDS = frozenset(("DIAssignID", "heapallocsite"))
_NO_LOCAL = 0


def _is_signed_literal(tok: str) -> bool:
    """An integer token LLVM's lexer makes a signed APSInt (``-5``, ``s0xFF``)."""
    return tok[:1] == "-" or tok[:3] == "s0x"


def _is_fwd_decl(flags: Any) -> bool:
    if isinstance(flags, DIEnum):
        return "DIFlagFwdDecl" in flags.names
    return isinstance(flags, int) and bool(flags & DI_FLAGS["DIFlagFwdDecl"])


class _NumberedSlot:
    """Keeps ``md_numbered[number]`` pointing at a node that is merged into
    another while it resolves (LLVM keeps the table in tracking references)."""

    __slots__ = ("table", "number")

    def __init__(self, table: dict[int, MDNode], number: int) -> None:
        self.table = table
        self.number = number

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        if isinstance(new, MDNode):
            self.table[self.number] = new
            if new._users is not None:
                new._users[self] = None


class MetadataParser(ConstantExprParser):
    """Metadata nodes, attachments and debug records."""

    __slots__ = ()

    # --- metadata as an operand ----------------------------------------------------------------
    def parse_metadata_as_value(self) -> Value:
        md = self.parse_metadata(True)
        return MetadataAsValue.get(self.ctx, md)

    def parse_metadata_operand(self) -> Metadata | None:
        """A tuple element: ``null`` or any metadata (no local values)."""
        if self.toks[self.p] == "null":
            self.p += 1
            return None
        return self.parse_metadata(False)

    def parse_metadata(self, allow_local: bool) -> Metadata:
        """Any metadata: a node reference, a tuple, a string, a specialised
        node, a ``!DIArgList`` (function-local only) or ``T value``."""
        toks = self.toks
        at = self.p
        tok = toks[at]
        if tok[:1] == "!":
            body = tok[1:]
            if is_digits(body):
                self.p = at + 1
                return self.md_node_ref(int(body), at)
            if not body:
                if toks[at + 1] == "{":
                    self.p = at + 2
                    return self.parse_md_tuple_body(False)
                self.p = at + 1
                self.fail("expected metadata operand")
            if body[0] == '"':
                self.p = at + 1
                return self.md_string(body)
            if body == "DIArgList":
                if not allow_local:
                    self.fail("found DIArgList outside of function")
                return self.parse_di_arg_list()
            return self.parse_specialized_node(False)
        if tok == "distinct":
            self.fail("expected metadata operand")
        return self.parse_value_as_metadata(allow_local)

    def parse_md_node(self) -> MDNode:
        """A node: ``!N``, ``!{...}`` or ``!DIKind(...)``."""
        at = self.p
        if self.toks[at][:1] != "!":
            self.fail("expected '!' here")
        md = self.parse_metadata(False)
        if not isinstance(md, MDNode):
            self.fail("expected metadata node", at)
        return md

    def md_string(self, quoted: str) -> MDString:
        from llvmpy_mid.asm.lexer import unescape_bytes

        body = quoted[1:-1]
        if "\\" not in body:
            return MDString.get(self.ctx, body)
        return MDString.get(self.ctx, unescape_bytes(body))

    def parse_value_as_metadata(self, allow_local: bool, message: str = "expected metadata operand") -> ValueAsMetadata:
        at = self.p
        tok = self.toks[at]
        if tok not in self.type_words and tok[:1] not in ("%", "{", "<", "[") and not (
            tok == "ptr" or tok == "target" or (tok[:1] == "i" and is_digits(tok[1:]))
        ):
            self.fail(message)
        ty = self.parse_type()
        vat = self.p
        if ty.type_id is TypeID.METADATA:
            self.fail("invalid metadata-value-metadata roundtrip", at)
        if not allow_local and self.toks[vat][:1] == "%":
            self.fail("invalid use of function-local name")
        if ty.type_id in (TypeID.LABEL, TypeID.VOID, TypeID.FUNCTION):
            tok = self.toks[vat]
            if tok[:1] not in ("%", "@") and not is_digits(tok[:1]) and tok not in ("undef", "poison", "null"):
                self.fail("expected value token")
            self.fail("invalid metadata-value-metadata roundtrip", at)
        v = self.parse_value(ty)
        try:
            return ValueAsMetadata.get(v)
        except IRError as exc:
            self.fail(str(exc), vat)

    def md_node_ref(self, number: int, at: int) -> MDNode:
        """The node ``!number``. A node defined later in the text is parsed
        right away (its definition was indexed by :meth:`index_metadata`), so
        forward references need no temporary; only a reference back into a
        definition still being read (a cycle), or one met too deep in such
        a chain, gets a temporary node replaced when the definition ends."""
        node = self.md_numbered.get(number)
        if node is not None:
            return node
        if number > 0xFFFFFFFF:
            self.fail("expected 32-bit integer (too large)", at, 1)
        fwd = self.md_fwd.get(number)
        if fwd is not None:
            return fwd[0]
        start = self.md_defs.get(number)
        if start is not None and start not in self.md_parsed and self.md_depth < _MD_ON_DEMAND_DEPTH:
            self.read_ahead_used = True
            saved = self.p
            self.p = start
            self.md_depth += 1
            self.parse_standalone_metadata()
            self.md_depth -= 1
            self.md_parsed[start] = self.p
            self.p = saved
            node = self.md_numbered.get(number)
            if node is not None:
                return node
        temp = MDTuple.temporary(self.ctx)
        self.md_fwd[number] = (temp, at)
        return temp

    def index_metadata(self) -> None:
        """Find where each ``!N = ...`` definition starts (the first one of each N)."""
        if not self.read_ahead:
            return
        toks = self.toks
        defs = self.md_defs
        find = toks.index
        i = 0
        try:
            while True:
                i = find("=", i + 1)
                prev = toks[i - 1]
                if prev[:1] == "!" and is_digits(prev[1:]) and prev.isascii():
                    defs.setdefault(int(prev[1:]), i - 1)
        except ValueError:
            pass

    def parse_md_tuple_body(self, distinct: bool) -> MDNode:
        """``{ ... }`` after the ``!``. Inline tuples nested in it (``!{!{!{...}}}``) are read with
        an explicit stack of open tuples, not by recursion, so any depth LLVM reads is read."""
        toks = self.toks
        ctx = self.ctx
        if toks[self.p] == "}":
            self.p += 1
            return MDTuple.distinct(ctx, []) if distinct else MDTuple.get(ctx, [])
        self.enter()
        open_tuples: list[list[Metadata | None]] = [[]]
        while True:
            element: Metadata | None
            if toks[self.p] == "!" and toks[self.p + 1] == "{":
                self.p += 2
                if toks[self.p] != "}":
                    open_tuples.append([])  # an inline tuple opens: read its first element next
                    continue
                self.p += 1
                element = MDTuple.get(ctx, [])
            else:
                element = self.parse_metadata_operand()
            while True:  # after an element: the next one, or close tuples
                open_tuples[-1].append(element)
                tok = toks[self.p]
                self.p += 1
                if tok == ",":
                    break
                if tok != "}":
                    self.p -= 1
                    self.fail("expected end of metadata node")
                ops = open_tuples.pop()
                if not open_tuples:
                    self.depth -= 1
                    return MDTuple.distinct(ctx, ops) if distinct else MDTuple.get(ctx, ops)
                element = MDTuple.get(ctx, ops)

    # --- top level -----------------------------------------------------------------------------------
    def parse_standalone_metadata(self) -> None:
        """``!N = [distinct] ...`` (the current token is ``!N``)."""
        toks = self.toks
        at = self.p
        end = self.md_parsed.get(at)
        if end is not None:
            self.p = end
            return
        self.md_parsed[at] = at
        number = int(toks[at][1:])
        if number > 0xFFFFFFFF:
            self.fail("expected 32-bit integer (too large)", at, 1)
        self.p += 1
        self.expect("=", "expected '=' here")
        tok = toks[self.p]
        if tok in self.type_words or (tok[:1] == "i" and is_digits(tok[1:])) or tok == "ptr":
            self.fail("unexpected type in metadata definition")
        distinct = self.eat("distinct")
        tok = toks[self.p]
        if tok == "!":
            self.p += 1
            if toks[self.p] != "{":
                self.fail("expected '{' here")
            self.p += 1
            node = self.parse_md_tuple_body(distinct)
        elif tok[:1] == "!" and len(tok) > 1 and (tok[1].isalpha() or tok[1] == "_"):
            if tok == "!DIArgList":
                self.fail("expected metadata type")
            node = self.parse_specialized_node(distinct)
        elif tok[:1] == "!" and len(tok) > 1:
            self.fail("expected '{' here", None, 1)
        else:
            self.fail("Expected '!' here")
        fwd = self.md_fwd.pop(number, None)
        if fwd is not None:
            temp = fwd[0]
            self.md_numbered[number] = node
            temp.replace_all_uses_with(node)
            temp.delete_temporary()
        else:
            if number in self.md_numbered:
                # LLVM reports this where the second definition ends.
                self.fail("Metadata id is already used")
            self.md_numbered[number] = node
        node = self.md_numbered[number]
        if node._users is not None and node._storage != TEMPORARY:
            slot = _NumberedSlot(self.md_numbered, number)
            node._users[slot] = None

    def parse_named_metadata(self) -> None:
        """``!name = !{!0, ...}`` (the current token is ``!name``)."""
        from llvmpy_mid.asm.lexer import unescape

        toks = self.toks
        name = toks[self.p][1:]
        if "\\" in name:
            name = unescape(name)
        self.p += 1
        self.expect("=", "expected '=' here")
        self.expect("!", "Expected '!' here")
        self.expect("{", "Expected '{' here")
        nmd = self.module.get_or_insert_named_metadata(name)
        if name.startswith("llvm.dbg.") or name == "llvm.gcov":
            self.saw_debug_info = True
        if toks[self.p] != "}":
            while True:
                tok = toks[self.p]
                if tok == "!DIExpression":
                    node: MDNode = self.parse_specialized_node(False)
                elif tok == "!DIArgList":
                    self.fail("found DIArgList outside of function")
                else:
                    if tok[:1] != "!" or not is_digits(tok[1:]):
                        self.fail("Expected '!' here")
                    self.p += 1
                    node = self.md_node_ref(int(tok[1:]), self.p - 1)
                nmd.add_operand(node)
                if not self.eat(","):
                    break
        self.expect("}", "expected end of metadata node")

    # --- attachments -------------------------------------------------------------------------------------
    def parse_attachment(self) -> tuple[int, MDNode, int]:
        """``!kind !node`` (the current token is ``!kind``): the kind id, the
        node, and its number when written ``!N`` (else -1)."""
        from llvmpy_mid.asm.lexer import unescape

        tok = self.toks[self.p]
        name = tok[1:]
        if "\\" in name:
            name = unescape(name)
        kid = self.ctx.md_kind_id(name)
        if kid == 0 or name in _DEBUG_KINDS:
            self.saw_debug_info = True
        self.p += 1
        nxt = self.toks[self.p]
        if nxt[:1] == "!" and is_digits(nxt[1:]):
            self.p += 1
            number = int(nxt[1:])
            return kid, self.md_node_ref(number, self.p - 1), number
        if nxt[:1] != "!":
            self.fail("expected '!' here")
        return kid, self.parse_md_node(), -1

    # --- specialised nodes ---------------------------------------------------------------------------------
    def parse_specialized_node(self, distinct: bool) -> MDNode:
        toks = self.toks
        at = self.p
        kind = toks[at][1:]
        self.p += 1
        if kind == "DILocation":
            return self.parse_di_location(distinct, at)
        if kind == "DIExpression":
            return self.parse_di_expression(at)
        if kind == "DIAssignID":
            self.expect("(", "expected '(' here")
            self.expect(")", "expected ')' here")
            if not distinct:
                self.fail("missing 'distinct', required for !DIAssignID()", at)
            return DINode.distinct(self.ctx, "DIAssignID", {})
        names = _FIELD_NAMES.get(kind)
        if names is None:
            self.fail("expected metadata type", at)
        if kind in _NEEDS_DISTINCT and not distinct:  # checked before the fields, as LLVM does
            self.fail("missing 'distinct', required for !%s" % kind, at)
        if toks[self.p] != "(":
            self.fail("expected '(' here")
        self.p += 1
        kinds = _FIELD_KINDS[kind]
        fields: dict[str, Any] = {}
        self.enter()
        if toks[self.p] != ")":
            while True:
                label = toks[self.p]
                fname = label[:-1]
                if label[-1:] != ":" or fname not in names:
                    if label[-1:] != ":" or len(label) < 2:
                        self.fail("expected field label here")
                    self.fail("invalid field '%s'" % fname)
                if fname in fields:
                    self.fail("field '%s' cannot be specified more than once" % fname)
                p = self.p + 1
                tok = toks[p]
                cat = kinds[fname]
                # The common values inline: a node reference, an integer, a string.
                if cat <= _MD_OR_INT and tok[:1] == "!" and is_digits(tok[1:]):
                    self.p = p + 1
                    fields[fname] = self.md_node_ref(int(tok[1:]), p)
                elif (cat == _INT or cat == _MD_OR_INT) and is_digits(tok) and tok.isascii():
                    value = decimal_value(tok)
                    if value > 0xFFFF:
                        self.check_di_int(kind, fname, value, tok, p)
                    self.p = p + 1
                    fields[fname] = value
                elif cat == _STR and tok[:1] == '"' and len(tok) > 2 and tok[-1] == '"' and "\\" not in tok:
                    self.p = p + 1
                    fields[fname] = MDString.get(self.ctx, tok[1:-1])
                else:
                    self.p = p
                    fields[fname] = self.parse_di_field_value(kind, fname)
                if toks[self.p] != ",":
                    break
                self.p += 1
        self.depth -= 1
        if toks[self.p] != ")":
            self.fail("expected ')' here")
        close_at = self.p
        self.p += 1
        for req in _REQUIRED.get(kind, ()):
            if req not in fields:
                self.fail("missing required field '%s'" % req, close_at)
        return self.make_di_node(kind, fields, distinct, at)

    def make_di_node(self, kind: str, fields: dict[str, Any], distinct: bool, at: int) -> MDNode:
        if kind == "DISubprogram":
            legacy = ("isLocal", "isDefinition", "isOptimized", "virtuality")
            values = [fields.pop(name, None) for name in legacy]
            if "spFlags" not in fields:
                is_local, is_definition, is_optimized, virtuality = values
                flags = 0
                if isinstance(virtuality, DIEnum):
                    flags |= {"DW_VIRTUALITY_none": 0, "DW_VIRTUALITY_virtual": 1, "DW_VIRTUALITY_pure_virtual": 2}.get(
                        virtuality.name, 0
                    )
                elif isinstance(virtuality, int):
                    flags |= virtuality & 3
                if is_local:
                    flags |= DISP_FLAGS["DISPFlagLocalToUnit"]
                if is_definition is None or is_definition:
                    flags |= DISP_FLAGS["DISPFlagDefinition"]
                if is_optimized:
                    flags |= DISP_FLAGS["DISPFlagOptimized"]
                fields["spFlags"] = DIEnum.of(*split_disp_flags(flags)) if flags else 0
            sp = fields["spFlags"]
            if isinstance(sp, DIEnum) and "DISPFlagDefinition" in sp.names and not distinct:
                self.fail("missing 'distinct', required for !DISubprogram that is a Definition", at)
        elif kind == "DIObjCProperty":
            setter = fields.pop("setter", None)
            getter = fields.pop("getter", None)
            rebuilt: dict[str, Any] = {}
            for name, value in fields.items():
                rebuilt[name] = value
            if getter is not None:
                rebuilt["setter"] = getter
            if setter is not None:
                rebuilt["getter"] = setter
            fields = rebuilt
        elif kind == "DIMacroFile":
            fields.pop("type", None)
        elif kind in _NEEDS_DISTINCT and not distinct:
            self.fail("missing 'distinct', required for !%s" % kind, at)
        elif kind == "DICompositeType":
            ident = fields.get("identifier")
            if isinstance(ident, MDString) and ident.string:
                return self.odr_composite_type(ident.string, fields, at)
        try:
            if distinct:
                return DINode.distinct(self.ctx, kind, fields)
            return DINode.get(self.ctx, kind, fields)
        except IRError as exc:
            self.fail(str(exc), at)

    def odr_composite_type(self, identifier: str, fields: dict[str, Any], at: int) -> MDNode:
        """A DICompositeType with an ``identifier``: one distinct node per
        identifier, as opt-19's context (with ODR type uniquing) makes it; a
        forward declaration is completed in place by a later definition."""
        existing = self.odr_types.get(identifier)
        if existing is None:
            try:
                node = DINode.distinct(self.ctx, "DICompositeType", fields)
            except IRError as exc:
                self.fail(str(exc), at)
            self.odr_types[identifier] = node
            return node
        if existing.get_field("tag") != fields.get("tag"):
            try:
                return DINode.get(self.ctx, "DICompositeType", fields)
            except IRError as exc:
                self.fail(str(exc), at)
        if not _is_fwd_decl(existing.get_field("flags")) or _is_fwd_decl(fields.get("flags", 0)):
            return existing
        if isinstance(existing, DIFieldNode):
            # Complete the declaration in place: fields not given return to their default.
            defaults = {spec.name: spec.default for spec in FIELD_SPECS["DICompositeType"]}
            for name in list(existing.field_names):
                if name not in fields:
                    existing.set_field(name, defaults[name])
            for name, value in fields.items():
                existing.set_field(name, value)
        return existing

    def parse_di_field_value(self, kind: str, field: str) -> Any:
        """One field's value, read as the field's kind requires (LLVM's parser
        has one field type per field; :data:`_FIELD_KINDS` holds them)."""
        toks = self.toks
        at = self.p
        tok = toks[at]
        c = tok[:1]
        cat = _FIELD_KINDS[kind].get(field, _MD)
        if cat == _STR:
            if c != '"' or len(tok) < 2 or tok[-1] != '"':
                self.fail("expected string constant")
            if tok == '""' and (kind, field) in _NOT_EMPTY:
                self.fail("'%s' cannot be empty" % field)
            self.p += 1
            return self.md_string(tok)
        if cat == _BOOL:
            if tok != "true" and tok != "false":
                self.fail("expected 'true' or 'false'")
            self.p += 1
            return tok == "true"
        if cat == _FLAGS or cat == _SPFLAGS:
            return self.parse_di_flags(cat == _SPFLAGS)
        value = int_literal(tok)
        if cat == _INT:
            if value is None:
                if kind == "DIEnumerator" and field == "value":
                    self.fail("expected integer")
                if (kind, field) in _SIGNED_RANGE:
                    self.fail("expected signed integer")
                self.fail("expected unsigned integer")
            self.check_di_int(kind, field, value, tok, at)
            self.p += 1
            return value
        enum = _ENUM_KINDS.get(cat)
        if enum is not None:
            prefix, message = enum
            if value is not None and cat != _CSK:
                if _is_signed_literal(tok):
                    self.fail("expected unsigned integer")
                limit = _ENUM_MAX[cat]
                if value > limit:
                    self.fail("value for '%s' too large, limit is %d" % (field, limit))
                self.p += 1
                names = _ENUM_FIELD_NAMES.get(field)
                if names is not None and value in names:
                    return DIEnum.of(names[value])
                return value
            if cat == _CSK:
                if tok not in _CHECKSUM_KINDS:
                    self.fail("invalid checksum kind '%s'" % tok.rstrip(":"))
            elif not tok.startswith(prefix) if prefix else tok not in _WORD_ENUMS[cat]:
                self.fail(message)
            known = _KNOWN_NAMES.get(cat)
            if known is not None and tok not in known[0]:
                self.fail("%s '%s'" % (known[1], tok))
            self.p += 1
            return DIEnum.of(tok)
        # A metadata field (some also take an integer, e.g. DISubrange's count).
        if tok == "null":
            if (kind, field) in _NOT_NULL:
                self.fail("'%s' cannot be null" % field)
            self.p += 1
            return None
        if c == "!":
            return self.parse_metadata(False)
        if value is not None and cat == _MD_OR_INT:
            self.check_di_int(kind, field, value, tok, at)
            self.p += 1
            return value
        if tok == "{" and field == "operands":
            self.p += 1
            ops: list[Metadata | None] = []
            if toks[self.p] != "}":
                while True:
                    ops.append(self.parse_metadata_operand())
                    if not self.eat(","):
                        break
            self.expect("}", "expected end of metadata node")
            return tuple(ops)
        return self.parse_value_as_metadata(False)

    def check_di_int(self, kind: str, field: str, value: int, tok: str, at: int) -> None:
        """Reject an integer outside the field's range, worded as LLVM's parser words it."""
        bounds = _SIGNED_RANGE.get((kind, field))
        if bounds is not None:
            low, high = bounds
            if value < low:
                self.fail("value for '%s' too small, limit is %d" % (field, low), at)
            if value > high:
                self.fail("value for '%s' too large, limit is %d" % (field, high), at)
            return
        limit = _UNSIGNED_MAX_OF_KIND.get((kind, field), _UNSIGNED_MAX.get(field))
        if limit is None:
            return
        if _is_signed_literal(tok):
            self.fail("expected unsigned integer", at)
        if value > limit:
            self.fail("value for '%s' too large, limit is %d" % (field, limit), at)

    def parse_di_flags(self, sp: bool) -> DIEnum | int:
        """``DIFlagA | DIFlagB | 4`` (or DISPFlag words), normalised to LLVM's order."""
        toks = self.toks
        table = DISP_FLAGS if sp else DI_FLAGS
        value = 0
        while True:
            tok = toks[self.p]
            num = int_literal(tok)
            if num is not None and not _is_signed_literal(tok):
                if num > _U32:
                    self.fail("expected 32-bit integer (too large)")
                value |= num
            else:
                bit = table.get(tok)
                if bit is None:
                    if tok.startswith("DISPFlag" if sp else "DIFlag"):
                        self.fail("invalid %s flag '%s'" % ("subprogram debug info" if sp else "debug info", tok))
                    self.fail("expected debug info flag")
                value |= bit
            self.p += 1
            if toks[self.p] != "|":
                break
            self.p += 1
        if value == 0:
            return 0
        return DIEnum.of(*(split_disp_flags(value) if sp else split_di_flags(value)))

    def di_flags_value(self, words: list[str | int], table: dict[str, int], split: Any) -> DIEnum | int:
        value = 0
        for w in words:
            if isinstance(w, int):
                value |= w
                continue
            bit = table.get(w)
            if bit is None:
                self.fail("invalid debug info flag '%s'" % w)
            value |= bit
        if value == 0:
            return 0
        return DIEnum.of(*split(value))

    def parse_di_location(self, distinct: bool, at: int) -> MDNode:
        toks = self.toks
        self.expect("(", "expected '(' here")
        line = column = 0
        scope: Metadata | None = None
        inlined: Metadata | None = None
        implicit = False
        seen: set[str] = set()
        if toks[self.p] != ")":
            while True:
                label = toks[self.p]
                if label[-1:] != ":":
                    self.fail("expected field label here")
                name = label[:-1]
                if name in seen:
                    self.fail("field '%s' cannot be specified more than once" % name)
                seen.add(name)
                self.p += 1
                if name == "line":
                    line = self.parse_uint("expected unsigned integer")
                    if line > _U32:
                        self.fail("value for 'line' too large, limit is 4294967295", self.p - 1)
                elif name == "column":
                    column = self.parse_uint("expected unsigned integer")
                    if column > 0xFFFF:
                        self.fail("value for 'column' too large, limit is 65535", self.p - 1)
                elif name == "scope":
                    if toks[self.p] == "null":
                        self.fail("'scope' cannot be null")
                    scope = self.parse_metadata(False)
                elif name == "inlinedAt":
                    if toks[self.p] == "null":
                        self.p += 1
                    else:
                        inlined = self.parse_metadata(False)
                elif name == "isImplicitCode":
                    tok = toks[self.p]
                    if tok not in ("true", "false"):
                        self.fail("expected 'true' or 'false'")
                    implicit = tok == "true"
                    self.p += 1
                else:
                    self.fail("invalid field '%s'" % name, self.p - 1)
                if not self.eat(","):
                    break
        close_at = self.p
        self.expect(")", "expected ')' here")
        if scope is None:
            self.fail("missing required field 'scope'", close_at)
        # Any metadata is taken, as LLVM's parser takes it (a string scope, say); the verifier
        # rejects a location that is not well formed when something uses it.
        raw_scope = cast(MDNode, scope)
        raw_inlined = cast("MDNode | None", inlined)
        if distinct:
            return DILocation.distinct(self.ctx, line, column, raw_scope, raw_inlined, implicit)
        return DILocation.get(self.ctx, line, column, raw_scope, raw_inlined, implicit)

    def parse_di_expression(self, at: int) -> MDNode:
        toks = self.toks
        self.expect("(", "expected '(' here")
        elements: list[int | str] = []
        if toks[self.p] != ")":
            while True:
                tok = toks[self.p]
                if tok.startswith("DW_OP_") or tok.startswith("DW_ATE_"):
                    elements.append(tok)
                    self.p += 1
                elif is_digits(tok):
                    value = decimal_value(tok)
                    if value >= 1 << 64:
                        self.fail("element too large, limit is 18446744073709551615")
                    elements.append(value)
                    self.p += 1
                else:
                    self.fail("expected unsigned integer")
                if not self.eat(","):
                    break
        self.expect(")", "expected ')' here")
        return DIExpression.get(self.ctx, elements)

    def parse_di_arg_list(self) -> Metadata:
        self.p += 1
        self.expect("(", "expected '(' here")
        args: list[ValueAsMetadata] = []
        if self.toks[self.p] != ")":
            while True:
                args.append(self.parse_value_as_metadata(True, "expected value-as-metadata operand"))
                if not self.eat(","):
                    break
        self.expect(")", "expected ')' here")
        return DIArgList.get(self.ctx, args)

    # --- debug records ---------------------------------------------------------------------------------------
    def parse_debug_record(self) -> DbgRecord:
        """``#dbg_value(...)`` etc. (the current token is ``#dbg_...``)."""
        toks = self.toks
        at = self.p
        kind_word = toks[at][5:]
        self.saw_debug_info = True
        if self.seen_debug_intrinsics:
            self.fail("debug record should not appear in a module containing debug info intrinsics", at)
        self.seen_records = True
        if kind_word not in ("value", "declare", "assign", "label"):
            self.fail("expected debug record type here", at, 1)
        self.p += 1
        self.expect("(", "Expected '(' here")
        if kind_word == "label":
            label = self.parse_md_node()
            self.expect(",", "Expected ',' here")
            loc = self.parse_md_node()
            self.expect(")", "Expected ')' here")
            return DbgLabelRecord(label, loc)
        kinds = {"value": DbgRecordKind.VALUE, "declare": DbgRecordKind.DECLARE, "assign": DbgRecordKind.ASSIGN}
        kind = kinds.get(kind_word)
        if kind is None:
            self.fail("expected debug record type here", at, 1)
        location = self.parse_metadata(True)
        self.expect(",", "Expected ',' here")
        variable = self.parse_md_node()
        self.expect(",", "Expected ',' here")
        expression = self.parse_md_node()
        assign_id: MDNode | None = None
        address: Metadata | None = None
        address_expr: MDNode | None = None
        if kind is DbgRecordKind.ASSIGN:
            self.expect(",", "Expected ',' here")
            assign_id = self.parse_md_node()
            self.expect(",", "Expected ',' here")
            address = self.parse_metadata(True)
            self.expect(",", "Expected ',' here")
            address_expr = self.parse_md_node()
        self.expect(",", "Expected ',' here")
        loc = self.parse_md_node()
        self.expect(")", "Expected ')' here")
        try:
            return DbgVariableRecord(kind, location, variable, expression, loc, assign_id, address, address_expr)
        except IRError as exc:
            self.fail(str(exc), at)


def metadata_type_of(ty: Type) -> bool:
    return ty.type_id is TypeID.METADATA


__all__ = ["MetadataParser", "cast"]
