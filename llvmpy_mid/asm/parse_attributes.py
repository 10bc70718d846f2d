"""Attributes in ``.ll`` text: parameter, return-value and function attributes,
``#N`` group references and the bodies of ``attributes #N = { ... }``.

What: :class:`AttributeParser` reads every attribute form of LLVM 19 (enum
words, ``align 8``/``align(8)``/``align=8``, ``alignstack``, ``allocsize``,
``vscale_range``, ``uwtable(sync)``, ``allockind("...")``, ``memory(...)``,
``nofpclass(...)``, ``dereferenceable(N)``, type attributes such as
``byval(%T)``, ``range(i32 0, 10)``, ``initializes((0, 4))`` and string
attributes ``"key"="value"``), checks where each may appear with LLVM's
messages, and upgrades the pre-LLVM-16 function spellings ``readnone``,
``readonly``, ``writeonly``, ``argmemonly``, ``inaccessiblememonly`` and
``inaccessiblemem_or_argmemonly`` to ``memory(...)`` as LLVM's parser does.

How: the result is a list of :class:`~llvmpy_mid.ir.attributes.Attribute`
(later ones of a kind win, as in LLVM's ``AttrBuilder``) plus, for function
attributes, the ``#N`` groups referenced; the top level merges the groups
in when the module is complete (groups are usually defined at the end).

Not done here: attribute groups' numbering in the output (the printer
recomputes it) and the verifier's compatibility checks.
"""

from __future__ import annotations

from llvmpy_mid.asm.lexer import is_digits
from llvmpy_mid.asm.parse_base import int_literal
from llvmpy_mid.asm.parse_types import TypeParser
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attribute_kinds import (
    ALLOC_KIND_BY_NAME,
    FP_CLASS_BY_NAME,
    AttrForm,
    AttrKind,
    UWTableKind,
    can_use_as_fn_attr,
    can_use_as_param_attr,
    can_use_as_ret_attr,
    find_attribute_kind,
    kind_form,
)
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.memory_effects import LOCATION_BY_NAME, MOD_REF_BY_NAME, MemoryEffects, ModRefInfo
from llvmpy_mid.ir.types import IntegerType

_LEGACY_MEMORY: dict[str, MemoryEffects] = {
    "readnone": MemoryEffects.none(),
    "readonly": MemoryEffects.read_only(),
    "writeonly": MemoryEffects.write_only(),
    "argmemonly": MemoryEffects.arg_mem_only(),
    "inaccessiblememonly": MemoryEffects.inaccessible_mem_only(),
    "inaccessiblemem_or_argmemonly": MemoryEffects.inaccessible_or_arg_mem_only(),
}

_U64 = (1 << 64) - 1

_ENUM_ATTRS: dict[str, Attribute] = {}
"""Enum attributes by keyword (filled lazily)."""


class AttributeParser(TypeParser):
    """Attribute lists of parameters, return values, functions and groups."""

    __slots__ = ()

    def parse_param_attrs(self, is_param: bool = True) -> list[Attribute]:
        """The attributes of a parameter (``is_param``) or a return value."""
        toks = self.toks
        out: list[Attribute] = []
        while True:
            tok = toks[self.p]
            attr = _ENUM_ATTRS.get(tok)
            if attr is not None:
                kind = attr.kind
                if is_param:
                    if not can_use_as_param_attr(kind):
                        self.fail("this attribute does not apply to parameters")
                elif not can_use_as_ret_attr(kind):
                    self.fail("this attribute does not apply to return values")
                out.append(attr)
                self.p += 1
                continue
            c = tok[:1]
            if c == '"':
                if tok[-1] == ":":
                    return out
                out.append(self.parse_string_attr())
                continue
            if c == "%" or c == "@" or c == ",":
                return out
            found = find_attribute_kind(tok)
            if found is None:
                return out
            kind = found
            at = self.p
            attr = self.parse_one_attr(kind, False)
            if is_param:
                if not can_use_as_param_attr(kind):
                    self.fail("this attribute does not apply to parameters", at)
            elif not can_use_as_ret_attr(kind):
                self.fail("this attribute does not apply to return values", at)
            out.append(attr)

    def parse_fn_attrs(self, in_group: bool = False) -> tuple[list[Attribute], list[int]]:
        """Function attributes (and ``#N`` references unless ``in_group``).
        ``align`` is kept as an attribute; the caller moves it to the function."""
        toks = self.toks
        out: list[Attribute] = []
        groups: list[int] = []
        memory: MemoryEffects | None = None
        while True:
            tok = toks[self.p]
            attr = _ENUM_ATTRS.get(tok)
            if attr is not None:
                if not can_use_as_fn_attr(attr.kind):
                    if tok in _LEGACY_MEMORY:
                        memory = _LEGACY_MEMORY[tok] if memory is None else memory & _LEGACY_MEMORY[tok]
                        self.p += 1
                        continue
                    self.fail("this attribute does not apply to functions")
                out.append(attr)
                self.p += 1
                continue
            c = tok[:1]
            if c == '"':
                if tok[-1] == ":":
                    break
                out.append(self.parse_string_attr())
                continue
            if c == "#":
                body = tok[1:]
                if not is_digits(body):
                    break
                if in_group:
                    self.fail("cannot have an attribute group reference in an attribute group")
                groups.append(int(body))
                self.p += 1
                continue
            legacy = _LEGACY_MEMORY.get(tok)
            if legacy is not None:
                memory = legacy if memory is None else memory & legacy
                self.p += 1
                continue
            kind = find_attribute_kind(tok)
            if kind is None:
                if in_group and tok != "}":
                    self.fail("unterminated attribute group")
                break
            at = self.p
            attr = self.parse_one_attr(kind, in_group)
            if not can_use_as_fn_attr(kind) and kind is not AttrKind.ALIGNMENT:
                self.fail("this attribute does not apply to functions", at)
            if kind is AttrKind.VSCALE_RANGE and attr.int_value == 0:
                continue
            out.append(attr)
        if memory is not None:
            out.append(Attribute.memory(memory))
        return out, groups

    def parse_string_attr(self) -> Attribute:
        key = self.parse_string()
        value = ""
        if self.toks[self.p] == "=":
            self.p += 1
            value = self.parse_string()
        return Attribute.string(key, value)

    # --- one attribute ------------------------------------------------------------------------
    def parse_one_attr(self, kind: AttrKind, in_group: bool) -> Attribute:
        """The attribute of ``kind`` at the current token (the keyword itself)."""
        form = kind_form(kind)
        toks = self.toks
        start = self.p
        if form is AttrForm.ENUM:
            self.p += 1
            attr = Attribute.enum(kind)
            _ENUM_ATTRS[toks[start]] = attr
            return attr
        self.p += 1
        try:
            if form is AttrForm.TYPE:
                self.expect("(", "expected '('")
                ty = self.parse_type()
                self.expect(")", "expected ')'")
                return Attribute.type_attr(kind, ty)
            if form is AttrForm.CONSTANT_RANGE:
                return self.parse_range_attr()
            if form is AttrForm.CONSTANT_RANGE_LIST:
                return self.parse_initializes_attr()
            return self.parse_int_attr(kind, in_group)
        except IRError as exc:
            self.fail(str(exc), start)

    def parse_int_attr(self, kind: AttrKind, in_group: bool) -> Attribute:
        toks = self.toks
        if kind is AttrKind.ALIGNMENT:
            if in_group:
                self.expect("=", "expected '=' here")
                value = self.parse_uint32()
            elif toks[self.p] == "(":
                paren = self.p
                self.p += 1
                value = self.parse_uint32()
                if toks[self.p] != ")":
                    self.fail("expected ')'", paren)
                self.p += 1
            else:
                value = self.parse_uint32("expected integer")
            self.check_alignment(value)
            return Attribute.alignment(value)
        if kind is AttrKind.STACK_ALIGNMENT:
            if in_group:
                self.expect("=", "expected '=' here")
                value = self.parse_uint32()
            else:
                self.expect("(", "expected '('")
                value = self.parse_uint32()
                self.expect(")", "expected ')'")
            self.check_alignment(value, "stack alignment")
            return Attribute.stack_alignment(value)
        if kind is AttrKind.MEMORY:
            return Attribute.memory(self.parse_memory_effects())
        if kind is AttrKind.UW_TABLE:
            if self.eat("("):
                tok = toks[self.p]
                if tok == "sync":
                    uw = UWTableKind.SYNC
                elif tok == "async":
                    uw = UWTableKind.ASYNC
                else:
                    self.fail("expected unwind table kind")
                self.p += 1
                self.expect(")", "expected ')'")
                return Attribute.uwtable(uw)
            return Attribute.uwtable(UWTableKind.ASYNC)
        if kind is AttrKind.ALLOC_KIND:
            self.expect("(", "expected '('")
            at = self.p
            words = self.parse_string("expected allockind value")
            value = 0
            for word in words.split(","):
                bit = ALLOC_KIND_BY_NAME.get(word)
                if bit is None:
                    self.fail("unknown allockind " + word, at)
                value |= bit
            self.expect(")", "expected ')'")
            if value == 0:
                self.fail("expected allockind value", at)
            return Attribute.alloc_kind(value)
        if kind is AttrKind.ALLOC_SIZE:
            self.expect("(", "expected '('")
            elem = self.parse_uint32()
            num: int | None = None
            if self.eat(","):
                at = self.p
                num = self.parse_uint32()
                if num == elem:
                    self.fail("'allocsize' indices can't refer to the same parameter", at)
            self.expect(")", "expected ')'")
            return Attribute.alloc_size(elem, num)
        if kind is AttrKind.VSCALE_RANGE:
            self.expect("(", "expected '('")
            lo = self.parse_uint32()
            hi = lo
            if self.eat(","):
                hi = self.parse_uint32()
            self.expect(")", "expected ')'")
            if lo == 0 and hi == 0:  # no attribute at all in LLVM: the caller drops it
                return Attribute(AttrKind.VSCALE_RANGE, 0)
            return Attribute.vscale_range(lo, hi or None)
        if kind is AttrKind.NO_FP_CLASS:
            return self.parse_nofpclass()
        if kind is AttrKind.DEREFERENCEABLE or kind is AttrKind.DEREFERENCEABLE_OR_NULL:
            self.expect("(", "expected '('")
            at = self.p
            value = self.parse_uint()
            if value > _U64:
                self.fail("expected 64-bit integer (too large)", at)
            self.expect(")", "expected ')'")
            if value == 0:
                self.fail("dereferenceable bytes must be non-zero", at)
            if kind is AttrKind.DEREFERENCEABLE:
                return Attribute.dereferenceable(value)
            return Attribute.dereferenceable_or_null(value)
        self.fail("unsupported attribute syntax")

    def check_alignment(self, value: int, what: str = "alignment") -> None:
        if value == 0 or value & (value - 1):
            self.fail("%s is not a power of two" % what, self.p - 1)
        if value > 1 << 32:
            self.fail("huge alignments are not supported yet", self.p - 1)

    def parse_memory_effects(self) -> MemoryEffects:
        """``(read, argmem: none, ...)`` after ``memory``."""
        toks = self.toks
        self.expect("(", "expected '('")
        me = MemoryEffects.none()
        seen_location = False
        while True:
            tok = toks[self.p]
            if tok[-1:] == ":" and len(tok) > 1:
                loc = LOCATION_BY_NAME.get(tok[:-1])
                if loc is None:
                    self.fail("expected memory location (argmem, inaccessiblemem) or access kind (none, read, write, readwrite)")
                self.p += 1
                mr = MOD_REF_BY_NAME.get(toks[self.p])
                if mr is None:
                    self.fail("expected access kind (none, read, write, readwrite)")
                self.p += 1
                me = me.with_mod_ref(loc, mr)
                seen_location = True
            else:
                mr = MOD_REF_BY_NAME.get(tok)
                if mr is None:
                    if tok in LOCATION_BY_NAME:
                        self.p += 1
                        self.expect(":", "expected ':' after location")
                        self.fail("expected access kind (none, read, write, readwrite)")
                    self.fail("expected memory location (argmem, inaccessiblemem) or access kind (none, read, write, readwrite)")
                self.p += 1
                if seen_location:
                    self.fail("default access kind must be specified first")
                me = MemoryEffects.with_all(ModRefInfo(mr))
            if toks[self.p] == ",":
                self.p += 1
                continue
            break
        self.expect(")", "unterminated memory attribute")
        return me

    def parse_nofpclass(self) -> Attribute:
        """``nofpclass(nan inf ...)`` or ``nofpclass(N)``, read as LLVM's parseNoFPClassAttr."""
        toks = self.toks
        self.expect("(", "expected '('")
        mask = 0
        while True:
            tok = toks[self.p]
            bits = FP_CLASS_BY_NAME.get(tok)
            if bits is not None:
                mask |= bits
            elif mask == 0 and tok[:1] != "-" and tok[:1] != "s" and int_literal(tok) is not None:
                value = int_literal(tok)
                assert value is not None
                if value >= 1 << 64:
                    self.fail("expected nofpclass test mask")
                self.p += 1
                # LLVM tests the low 32 bits against the class bits and keeps those 32 bits.
                if value == 0 or value & 0xFFFFFC00:
                    self.fail("invalid mask value for 'nofpclass'")
                self.expect(")", "expected ')'")
                return Attribute.nofpclass(value & 0xFFFFFFFF)
            else:
                self.fail("expected nofpclass test mask")
            self.p += 1
            if self.eat(")"):
                return Attribute.nofpclass(mask)

    def parse_range_attr(self) -> Attribute:
        self.expect("(", "expected '('")
        at = self.p
        ty = self.parse_type()
        if not isinstance(ty, IntegerType):
            self.fail("the range must have integer type!", at)
        width = ty.width
        lo = self.parse_range_bound(width)
        self.expect(",", "expected ','")
        hi = self.parse_range_bound(width)
        if lo == hi:
            self.fail("the range should not represent the full or empty set!")
        self.expect(")", "expected ')'")
        return Attribute.range(ty, lo, hi)

    def parse_range_bound(self, width: int) -> int:
        """An integer literal of at most ``width`` bits (as LLVM's lexer sizes it), as a
        ``width``-bit unsigned value."""
        tok = self.toks[self.p]
        value = int_literal(tok)
        if value is None:
            self.fail("expected integer")
        if self.literal_width(tok, value) > width:
            self.fail("integer is too large for the bit width of specified type")
        self.p += 1
        return value & ((1 << width) - 1)

    @staticmethod
    def literal_width(tok: str, value: int) -> int:
        """The bit width LLVM's lexer gives an integer literal (APSInt): the fewest bits that
        hold a decimal; a ``u0x``/``s0x`` literal's digits times four, fewer when its top bits
        are zero."""
        if tok[:1] in ("u", "s"):
            bits = 4 * len(tok[3:])
            active = (value & ((1 << bits) - 1)).bit_length()
            return active if 0 < active < bits else bits
        if value < 0:
            return max(1, (-value - 1).bit_length() + 1)
        return max(1, value.bit_length())

    def parse_initializes_attr(self) -> Attribute:
        self.expect("(", "expected '('")
        pairs: list[tuple[int, int]] = []
        while True:
            self.expect("(", "expected '('")
            lo = self.parse_int()
            self.expect(",", "expected ','")
            hi = self.parse_int()
            if lo == hi:
                self.fail("the range should not represent the full or empty set!")
            self.expect(")", "expected ')'")
            pairs.append((lo, hi))
            if not self.eat(","):
                break
        self.expect(")", "expected ')'")
        return Attribute.initializes(pairs)
