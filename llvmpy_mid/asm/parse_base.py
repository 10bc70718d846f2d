"""The state and the token helpers every part of the ``.ll`` parser shares.

What: :class:`ParserBase` holds the token list from
:func:`llvmpy_mid.asm.lexer.tokenize`, the position, the module being
built and the tables of names seen so far (globals, types, metadata,
attribute groups), and offers the small helpers the parser mixins use:
errors located at a token (:meth:`ParserBase.fail` builds the
:class:`~llvmpy_mid.errors.ParseError` with LLVM's ``file:line:col`` and the
source line), expecting punctuation, reading integers and strings.
:class:`FunctionState` holds the per-function tables (local names and
numbers, forward references) while a body is parsed; :class:`Placeholder`
is the stand-in value of a local forward reference, replaced (RAUW) when
the value is defined, as LLVM's parser does.

How the parser is assembled: each concern is a class in its own module,
stacked by inheritance (``ParserBase`` <- types <- attributes <- values <-
metadata <- instructions <- the top level in ``parser.py``), so each layer
calls the layers below it directly; the few calls that go upward (a value
of type ``metadata`` needs the metadata layer) are declared here and
overridden above.

Not done here: any grammar; see the ``parse_*`` modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from llvmpy_mid.asm.lexer import decimal_value, is_digits, offset_position, token_offset, token_position, unescape
from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.debug_info import DINode
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Comdat, GlobalValue
from llvmpy_mid.ir.metadata import Metadata, MDNode
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import StructType, Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import Attribute

MAX_NESTING = 400
"""Deepest nesting of types, constants or metadata the parser accepts (the
recursion stays well inside Python's limit)."""


class Placeholder(Value):
    """A forward-referenced local value: it collects the uses made before the
    definition, which then takes them over (``replace_all_uses_with``)."""

    __slots__ = ("ref_index",)

    def __init__(self, ty: Type, ref_index: int) -> None:
        Value.__init__(self, ty)
        self.ref_index = ref_index


class FunctionState:
    """The per-function tables while a body is parsed (LLVM ``PerFunctionState``)."""

    __slots__ = ("fn", "values", "fwd", "fwd_index", "next_number", "block_addresses")

    def __init__(self, fn: Function, next_number: int) -> None:
        self.fn = fn
        self.values: dict[str, Value] = {}
        """Defined locals (arguments, blocks, instructions) by key (``%x``, ``%3``)."""
        self.fwd: dict[str, Value] = {}
        """Referenced but not yet defined: placeholders, or blocks made on first use."""
        self.fwd_index: dict[str, int] = {}
        """Token index of the first reference of each forward reference."""
        self.next_number = next_number
        self.block_addresses: list[tuple[Value, str, int]] = []


class ParserBase:
    """Tokens, position, the module and its name tables; error helpers."""

    __slots__ = (
        "text",
        "filename",
        "toks",
        "p",
        "ctx",
        "module",
        "fs",
        "depth",
        "type_words",
        "named_types",
        "fwd_types",
        "globals",
        "fwd_globals",
        "next_global_number",
        "comdats",
        "fwd_comdats",
        "md_numbered",
        "md_fwd",
        "md_slots",
        "attr_groups",
        "attr_group_refs",
        "data_layout",
        "fn_block_addresses",
        "has_debug_intrinsics",
        "seen_md_kinds",
        "string_cache",
        "md_fixups",
        "tbaa_tagged",
        "pending_args",
        "value_words",
        "values",
        "saw_debug_info",
        "int_cache",
        "odr_types",
        "md_defs",
        "md_parsed",
        "md_depth",
        "seen_records",
        "seen_debug_intrinsics",
        "labels_off_at",
        "read_ahead",
        "read_ahead_used",
    )

    def __init__(self, text: str, context: Context | None, filename: str) -> None:
        self.text = text
        self.filename = filename
        toks = self._tokenize(text)
        toks.extend(("", "", "", ""))
        self.toks = toks
        self.p = 0
        self.ctx = context if context is not None else Context()
        self.module = Module(filename, self.ctx)
        self.fs: FunctionState | None = None
        self.depth = 0
        self.type_words: dict[str, Type] = {}
        self.named_types: dict[str, Type] = {}
        self.fwd_types: dict[str, int] = {}
        self.globals: dict[str, GlobalValue] = {}
        self.fwd_globals: dict[str, tuple[GlobalValue, int]] = {}
        self.next_global_number = 0
        self.comdats: dict[str, Comdat] = {}
        self.fwd_comdats: dict[str, int] = {}
        self.md_numbered: dict[int, MDNode] = {}
        self.md_fwd: dict[int, tuple[MDNode, int]] = {}
        self.md_slots: dict[int, Any] = {}
        self.attr_groups: dict[int, list[Attribute]] = {}
        self.attr_group_refs: list[tuple[Any, list[Attribute] | None, tuple[int, ...], int]] = []
        self.fn_block_addresses: dict[str, list[tuple[Value, str, int]]] = {}
        self.has_debug_intrinsics = False
        self.seen_md_kinds: set[str] = set()
        self.string_cache: dict[str, str] = {}
        self.value_words: dict[str, Type] = {}
        """Type words that may be the type of a value (``i32``, ``ptr``...)."""
        self.values: dict[str, Value] = {}
        """The defined locals of the function being parsed (``fs.values``)."""
        self.saw_debug_info = False
        self.int_cache: dict[Type, dict[str, ConstantInt]] = {}
        self.odr_types: dict[str, DINode] = {}
        self.md_defs: dict[int, int] = {}
        """Token index of each ``!N = ...`` definition (see ``index_metadata``)."""
        self.md_parsed: dict[int, int] = {}
        """Definitions already read (start token -> end token), read ahead or in order."""
        self.md_depth = 0
        self.seen_records = False
        self.seen_debug_intrinsics = False
        """DICompositeType nodes by ``identifier`` (LLVM's ODR type map)."""
        self.md_fixups: list[tuple[Any, int, int]] = []
        self.tbaa_tagged: list[Any] = []
        """Instructions with a ``!tbaa`` attachment (old scalar tags are upgraded at the end)."""
        """Attachments that hold a node not yet final: (holder, slot, metadata number)."""
        self.pending_args: tuple[Any, list[tuple[str, str, int]]] = (None, [])
        self.read_ahead = True
        """Whether a reference to a metadata node defined later reads that definition at once
        (else a temporary node stands in until it is reached, as in LLVM's parser)."""
        self.read_ahead_used = False
        self.labels_off_at: tuple[int, int] | None = None
        """(token index, offset) from which the tokens were lexed without identifier labels
        (after a summary entry, as LLVM's lexer does), else None."""
        from llvmpy_mid.ir.data_layout import DataLayout

        self.data_layout: DataLayout = DataLayout.default()

    @staticmethod
    def _tokenize(text: str) -> list[str]:
        from llvmpy_mid.asm.lexer import tokenize

        return tokenize(text)

    # --- errors ------------------------------------------------------------------------
    def fail(self, message: str, at: int | None = None, offset: int = 0) -> NoReturn:
        """Raise a ParseError located at token ``at`` (default: the current token),
        ``offset`` characters into it (LLVM lexes ``!5`` as ``!`` and ``5``)."""
        index = self.p if at is None else at
        line, column, source = self.position_of(index)
        raise ParseError(message, self.filename, line, column + offset, source)

    def position_of(self, index: int) -> tuple[int, int, str]:
        """(line, column, source line) of token ``index``."""
        if self.labels_off_at is None:
            return token_position(self.text, index)
        return offset_position(self.text, token_offset(self.text, index, self.labels_off_at))

    # --- token helpers -----------------------------------------------------------------------
    def expect(self, tok: str, message: str) -> None:
        if self.toks[self.p] != tok:
            self.fail(message)
        self.p += 1

    def eat(self, tok: str) -> bool:
        if self.toks[self.p] == tok:
            self.p += 1
            return True
        return False

    def parse_uint(self, message: str = "expected integer") -> int:
        tok = self.toks[self.p]
        if not is_digits(tok) or not tok.isascii():
            self.fail(message)
        self.p += 1
        return decimal_value(tok)

    def parse_uint32(self, message: str = "expected integer") -> int:
        start = self.p
        value = self.parse_uint(message)
        if value > 0xFFFFFFFF:
            self.fail("expected 32-bit integer (too large)", start)
        return value

    def parse_int(self, message: str = "expected integer") -> int:
        """A decimal integer, possibly negative (also ``u0x``/``s0x`` hex)."""
        tok = self.toks[self.p]
        value = int_literal(tok)
        if value is None:
            self.fail(message)
        self.p += 1
        return value

    def parse_string(self, message: str = "expected string constant") -> str:
        """A ``"..."`` string, unescaped."""
        tok = self.toks[self.p]
        if len(tok) < 2 or tok[0] != '"' or tok[-1] != '"':
            if tok == '"':
                self.fail("end of file in string constant")
            self.fail(message)
        self.p += 1
        body = tok[1:-1]
        if "\\" not in body:
            return body
        cache = self.string_cache
        text = cache.get(body)
        if text is None:
            text = cache[body] = unescape(body)
        return text

    def parse_string_bytes(self, message: str = "expected string constant") -> bytes:
        from llvmpy_mid.asm.lexer import unescape_bytes

        tok = self.toks[self.p]
        if len(tok) < 2 or tok[0] != '"' or tok[-1] != '"':
            if tok == '"':
                self.fail("end of file in string constant")
            self.fail(message)
        self.p += 1
        return unescape_bytes(tok[1:-1])

    def enter(self) -> None:
        """Count one level of nesting (types, constants, metadata)."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.fail("nesting too deep")

    @staticmethod
    def type_text(ty: Type) -> str:
        """A type as LLVM's diagnostics print it: an identified struct with its
        definition (``%S = type { i32 }``), anything else as usual."""
        if isinstance(ty, StructType) and not ty.is_literal and ty.name:
            return "%s = type %s" % (ty, ty.body_str())
        return str(ty)

    # --- names ------------------------------------------------------------------------------------
    def name_of(self, tok: str, at: int | None = None) -> str:
        """The name in a ``%x``/``@x``/``$x`` token (quoted names unescaped);
        the empty string for a numbered one."""
        body = tok[1:]
        if body[:1] == '"':
            name = unescape(body[1:-1])
            if not name or "\0" in name:
                if "\0" in name:
                    self.fail("NUL character is not allowed in names", at)
            return name
        if is_digits(body):
            return ""
        return body

    def local_key(self, tok: str) -> str:
        """The table key of a local name token: the token itself, except that
        quoted names are unescaped (``%"x"`` and ``%x`` are the same value)."""
        if tok[1:2] == '"':
            name = unescape(tok[2:-1])
            if is_digits(name) or not name:
                return tok[0] + '"' + name
            return tok[0] + name
        return tok

    # --- upward hooks (overridden by higher layers) --------------------------------------------
    def parse_metadata_operand(self) -> Metadata | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def parse_label_ref(self) -> BasicBlock:  # pragma: no cover - overridden
        raise NotImplementedError

    def parse_metadata_as_value(self) -> Value:  # pragma: no cover - overridden
        """``metadata`` operand text as a value (the metadata layer reads it)."""
        raise NotImplementedError

    def struct_type_of(self, tok: str) -> StructType | None:
        ty = self.named_types.get(tok)
        return ty if isinstance(ty, StructType) else None


MAX_LOCAL_NAME = 1024
"""LLVM's ``-non-global-value-max-name-size`` default: a function's symbol table cuts longer
local names, which its parser then reports (the cut name differs from the written one)."""
NAME_TOO_LONG = (
    "name is too long which can result in name collisions, consider making the name shorter or "
    "increasing -non-global-value-max-name-size"
)


def name_too_long(name: str) -> bool:
    """A local name (unescaped) longer than LLVM keeps, counted in bytes."""
    return len(name) > MAX_LOCAL_NAME // 4 and len(name.encode("utf-8", "surrogateescape")) > MAX_LOCAL_NAME


def int_literal(tok: str) -> int | None:
    """The value of an integer token (``42``, ``-7``, ``u0x1F``, ``s0xFF``), else None."""
    c = tok[:1]
    if is_digits(c) or c == "-":
        body = tok[1:] if c == "-" else tok
        if is_digits(body) and body.isascii():
            return decimal_value(tok)
        return None
    if (c == "u" or c == "s") and tok[1:3] == "0x" and len(tok) > 3:
        try:
            value = int(tok[3:], 16)
        except ValueError:
            return None
        if c == "s":
            bits = 4 * len(tok[3:])
            if value >> (bits - 1):
                value -= 1 << bits
        return value
    return None
