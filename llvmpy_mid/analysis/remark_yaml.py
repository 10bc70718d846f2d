"""Remarks as YAML documents, byte for byte as ``opt -pass-remarks-output=FILE`` writes them
(LLVM ``lib/Remarks/YAMLRemarkSerializer.cpp`` with ``llvm/Support/YAMLTraits``' scalar
quoting and key padding)::

    --- !Missed
    Pass:            gvn
    Name:            LoadClobbered
    DebugLoc:        { File: '/tmp/s.c', Line: 3, Column: 3 }
    Function:        may_alias
    Args:
      - String:          'load of type '
      - Type:            i32
      - ClobberedBy:     store
        DebugLoc:        { File: '/tmp/s.c', Line: 2, Column: 10 }
    ...
"""

from __future__ import annotations

import re

from llvmpy_mid.analysis.remark import Remark, RemarkLocation

__all__ = ["needs_quotes", "quote_scalar", "remark_to_yaml"]

_INDICATORS = frozenset("-?:\\,[]{}#&*!|>'\"%@`")
_SAFE = frozenset("_-^., \t")
_NULLS = frozenset(("null", "Null", "NULL", "~"))
_BOOLS = frozenset(("true", "True", "TRUE", "false", "False", "FALSE"))
_FLOAT = re.compile(r"(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")

NONE, SINGLE, DOUBLE = 0, 1, 2


def _is_numeric(s: str) -> bool:
    """YAML's numeric scalars as LLVM's ``yaml::isNumeric`` accepts them."""
    if not s or s in ("+", "-"):
        return False
    if s in (".nan", ".NaN", ".NAN"):
        return True
    tail = s[1:] if s[0] in "+-" else s
    if tail in (".inf", ".Inf", ".INF"):
        return True
    if s.startswith("0o"):
        return len(s) > 2 and all(c in "01234567" for c in s[2:])
    if s.startswith("0x"):
        return len(s) > 2 and all(c in "0123456789abcdefABCDEF" for c in s[2:])
    return _FLOAT.fullmatch(tail) is not None


def needs_quotes(s: str) -> int:
    """How a scalar must be quoted: ``NONE``, ``SINGLE`` or ``DOUBLE`` (LLVM ``needsQuotes``)."""
    if not s:
        return SINGLE
    need = NONE
    if s[0].isspace() or s[-1].isspace():
        need = SINGLE
    if s in _NULLS or s in _BOOLS or _is_numeric(s):
        need = SINGLE
    if s[0] in _INDICATORS:
        need = SINGLE
    for ch in s:
        c = ord(ch)
        if ch.isascii() and ch.isalnum():
            continue
        if ch in _SAFE:
            continue
        if c in (0x0A, 0x0D, 0x7F) or c <= 0x1F or c >= 0x80:
            return DOUBLE
        need = SINGLE
    return need


def _double_quoted(s: str) -> str:
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif c <= 0x1F or c == 0x7F:
            out.append("\\x%02X" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def quote_scalar(s: str) -> str:
    """``s`` as a YAML scalar: plain, ``'single'`` (quotes doubled) or ``"double"``."""
    need = needs_quotes(s)
    if need == NONE:
        return s
    if need == SINGLE:
        return "'" + s.replace("'", "''") + "'"
    return _double_quoted(s)


def _key(key: str) -> str:
    """``key:`` padded to LLVM's column (16 characters of key and padding, then the value)."""
    return key + ":" + (" " * (16 - len(key)) if len(key) < 16 else " ")


WRAP_COLUMN = 70
"""LLVM's YAML writer starts a new line in a flow mapping before a key past this column."""


def _loc(loc: RemarkLocation, start: int) -> str:
    """``{ File: f, Line: n, Column: m }`` opening at column ``start``, wrapped as LLVM's
    ``yaml::Output::flowKey`` wraps it (the ``, `` stays at the end of the broken line)."""
    out = "{ "
    column = start + 2
    for k, (key, value) in enumerate((("File", quote_scalar(loc.file)), ("Line", str(loc.line)),
                                      ("Column", str(loc.column)))):
        if k:
            out += ", "
            column += 2
        if column > WRAP_COLUMN:
            out += "\n" + " " * start + "  "
            column = start + 2
        piece = key + ": " + value
        out += piece
        column += len(piece)
    return out + " }"


def remark_to_yaml(remark: Remark, hotness: int | None = None) -> str:
    """One remark as its YAML document, ending with ``...`` and a newline."""
    lines = ["--- !" + remark.kind]
    lines.append(_key("Pass") + quote_scalar(remark.pass_name))
    lines.append(_key("Name") + quote_scalar(remark.name))
    if remark.loc is not None:
        lines.append(_key("DebugLoc") + _loc(remark.loc, 17))
    lines.append(_key("Function") + quote_scalar(remark.function_name))
    if hotness is not None:
        lines.append(_key("Hotness") + str(hotness))
    if remark.args:
        lines.append("Args:")
        for arg in remark.args:
            lines.append("  - " + _key(arg.key) + quote_scalar(arg.value))
            if arg.loc is not None:
                lines.append("    " + _key("DebugLoc") + _loc(arg.loc, 21))
    lines.append("...")
    return "\n".join(lines) + "\n"
