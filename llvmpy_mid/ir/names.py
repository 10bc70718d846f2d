"""How LLVM spells identifiers: when a name needs quotes and how it is escaped.

Used for the text of types (``%struct.S``), values (``%x``, ``@"a b"``) and for
diagnostics. Both the IR layer and the assembly printer use these helpers.
"""

from __future__ import annotations

import re

_PLAIN_NAME = re.compile(r"[-a-zA-Z._][-a-zA-Z._0-9]*\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
_SAFE_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    " !#$%&'()*+,-./:;<=>?@[]^_`{|}~"
)


def escape_string(text: str | bytes) -> str:
    """Escape a string as LLVM prints it between double quotes.

    Printable ASCII characters other than ``"`` and ``\\`` stay, a backslash
    becomes two backslashes (as opt-19 prints it), and every other byte
    becomes ``\\XX`` with two upper-case hex digits.
    """
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    out: list[str] = []
    append = out.append
    for byte in data:
        ch = chr(byte)
        if ch in _SAFE_CHARS:
            append(ch)
        elif byte == 0x5C:
            append("\\\\")
        else:
            append("\\%02X" % byte)
    return "".join(out)


def format_name(prefix: str, name: str) -> str:
    """``prefix`` followed by ``name``, quoted when LLVM would quote it.

    >>> format_name("%", "x")
    '%x'
    >>> format_name("@", "a b")
    '@"a b"'
    """
    if _PLAIN_NAME.match(name) is not None:
        return prefix + name
    return prefix + '"' + escape_string(name) + '"'


def is_numeric_name(name: str) -> bool:
    """True for names made only of digits (they are printed as slots)."""
    return _NUMBER.match(name) is not None
