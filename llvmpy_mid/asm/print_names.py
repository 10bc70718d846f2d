"""How the printer spells names and escaped strings, exactly as ``opt-19 -S`` does.

A value, type, label or comdat name is written bare when it is made only of
ASCII letters, digits, ``-``, ``.`` and ``_`` and does not start with a digit;
otherwise it is quoted and escaped (so ``@"a$b"``, ``%"1x"``). Escaping keeps
printable ASCII except ``"`` and the backslash (which is doubled), and writes
every other byte as a backslash and two upper-case hex digits. Text held as
``str`` is turned back into bytes with UTF-8 and ``surrogateescape`` (how the
parser keeps bytes that are not UTF-8). Metadata identifiers (``!llvm.module.flags``,
attachment kinds) follow LLVM's other rule: ``$`` is allowed and each
disallowed byte is escaped without quoting.

This module holds only spelling helpers; it knows nothing of slots.
"""

from __future__ import annotations

import re

_BARE = re.compile(r"[A-Za-z._-][A-Za-z0-9._-]*\Z")
_SAFE = re.compile(r"[\x20\x21\x23-\x5B\x5D-\x7E]*\Z")
_MD_IDENT = re.compile(r"[A-Za-z$._-][A-Za-z0-9$._-]*\Z")

_ESCAPE_TABLE: tuple[str, ...] = tuple(
    "\\\\" if b == 0x5C else (chr(b) if 0x20 <= b <= 0x7E and b != 0x22 else "\\%02X" % b) for b in range(256)
)
_MD_TABLE: tuple[str, ...] = tuple(
    chr(b) if (chr(b).isascii() and (chr(b).isalnum() or chr(b) in "-$._")) else "\\%02X" % b for b in range(256)
)


def to_bytes(text: str) -> bytes:
    """The bytes a name or string stands for."""
    return text.encode("utf-8", "surrogateescape")


def escape(text: str) -> str:
    """``text`` escaped as LLVM prints it between double quotes."""
    if _SAFE.match(text) is not None:
        return text
    table = _ESCAPE_TABLE
    return "".join([table[b] for b in to_bytes(text)])


def escape_bytes(data: bytes | tuple[int, ...] | list[int]) -> str:
    """Raw bytes (or byte values) escaped as LLVM prints them between quotes."""
    table = _ESCAPE_TABLE
    return "".join([table[b] for b in data])


def _quoted(prefix: str, name: str) -> str:
    if _BARE.match(name) is not None:
        return prefix + name
    return prefix + '"' + escape(name) + '"'


def local_name(name: str) -> str:
    """``%name`` (quoted when needed): locals and types."""
    return _quoted("%", name)


def global_name(name: str) -> str:
    """``@name`` (quoted when needed)."""
    return _quoted("@", name)


def label_name(name: str) -> str:
    """A block label without prefix (quoted when needed)."""
    return _quoted("", name)


def comdat_name(name: str) -> str:
    """``$name`` (quoted when needed)."""
    return _quoted("$", name)


def metadata_identifier(name: str) -> str:
    """A metadata name (named metadata, attachment kinds) as LLVM prints it."""
    if not name:
        return "<empty name> "
    if _MD_IDENT.match(name) is not None:
        return name
    table = _MD_TABLE
    data = to_bytes(name)
    first = data[0]
    head = chr(first) if chr(first).isascii() and (chr(first).isalpha() or chr(first) in "-$._") else "\\%02X" % first
    return head + "".join([table[b] for b in data[1:]])


__all__ = [
    "comdat_name",
    "escape",
    "escape_bytes",
    "global_name",
    "label_name",
    "local_name",
    "metadata_identifier",
    "to_bytes",
]
