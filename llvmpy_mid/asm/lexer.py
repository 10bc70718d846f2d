"""The lexer of LLVM's textual IR: the whole input becomes one list of token strings.

What: :func:`tokenize` splits ``.ll`` text into tokens with a single
compiled regular expression and ``re.findall`` (the scan runs in C); the
parser then dispatches on each token string (its first character, or the
whole string through a dict). Whitespace and ``;`` comments are skipped.
The token list always ends with ``""`` (end of input).

How tokens look (the parser classifies them by their text). A *word* is an
optional sigil (``% @ $ ! # ^``) and a run of ``[-A-Za-z0-9_$.+\\]`` (ASCII
only, as in LLVM; other characters appear only inside quotes), optionally
ended by ``:``; everything LLVM lexes as a name, number, keyword or label is
a word:

* ``%x``, ``%0``, ``%"a b"``, ``@f``, ``@0``, ``@"x"``, ``$c``, ``$"c"``:
  local, global and comdat names (quoted names keep their quotes here);
* ``!``, ``!0``, ``!foo``, ``!DILocation``, ``!"text"``: metadata pieces;
* ``#0`` (attribute group), ``#dbg_value`` (debug record);
* ``"text"`` (a string; still escaped), ``name:``, ``"quoted name":``,
  ``0:`` (labels, and the field names of ``!DI...(...)`` nodes);
* ``42``, ``-7``, ``1.5e3``, ``0x3FF0000000000000``, ``0xK...``, ``u0x1F``:
  numbers; identifiers and keywords (``define``, ``i32``, ``DW_TAG_member``);
  ``...``; and the punctuation ``= , * [ ] { } ( ) < > | :`` and a lone ``!``.

A character no rule accepts becomes a one-character token the parser
reports as an error. :func:`token_position` recovers the line and column of
a token for diagnostics by re-scanning (errors are rare, so the fast path
keeps no positions).

Not done here: unescaping strings (:func:`unescape` does that on demand)
and any decision about what a token means.
"""

from __future__ import annotations

import codecs
import re

# The alternatives, commonest first; each starts with what its first character decides, so a
# token is tried against few of them. ``{label}`` is where identifier labels (``entry:``) are
# made; a summary entry turns that off (see _NO_LABEL_RE).
_TOKEN_PATTERN = r"""
    [ \t\r\n]*+(?:;[^\n]*+[ \t\r\n]*+)*+
    (
        [=,*\[\]{{}}()<>|:]
      | [%@](?:[-A-Za-z$._][-\w$.]*+|\d++)
      | (?=[A-Za-z_])(?:{label}i\d++|\w++)
      | [%@$!]?+"[^"]*+":?
      | (?=\d)(?:[-\w$.]++:|\d++\.\d*+(?:[eE][-+]?\d++)?|0x[KLMHR]?[0-9A-Fa-f]++|\d++)
      | -(?:[-\w$.]*+:|\d++\.\d*+(?:[eE][-+]?\d++)?|\d++)
      | \+\d++\.\d*+(?:[eE][-+]?\d++)?
      | [!\#^]\d++
      | ![-A-Za-z$._\\][-\w$.\\]*+
      | \#[A-Za-z_]\w*+
      | \$[-\w$.]*+:?
      | \.(?:[-\w$.]*+:|\.\.)
      | [!\#]
      | \Z
      | (?s:.)
    )
"""
_TOKEN_RE = re.compile(_TOKEN_PATTERN.format(label=r"[-\w$.]++:|"), re.VERBOSE | re.ASCII)

# After a module summary entry (``^0 = ...``) LLVM's lexer stops making labels of identifiers
# (``module:`` is ``module`` then ``:``) for the rest of the file; labels that start otherwise
# (``"x":``, ``12:``, ``.x:``, ``-x:``, ``$x:``) are unaffected.
_NO_LABEL_RE = re.compile(_TOKEN_PATTERN.format(label=""), re.VERBOSE | re.ASCII)


# Slot numbers LLVM reads modulo 2**32 (``%N``, ``@N``, ``#N``, ``^N``) or as a plain integer
# (``!N``) and that are not already spelled canonically (a leading zero, ten digits or more):
# tokenize() rewrites such tokens to the canonical number (see _canonical_slot).
_ODD_SLOT_RE = re.compile(r"[%@!#^](?:0\d|\d{10})\d*+", re.ASCII)
_MASK64 = (1 << 64) - 1


def is_digits(s: str) -> bool:
    """``s`` is a non-empty run of ASCII digits (``str.isdigit`` also accepts ``²`` or ``٣``)."""
    return s.isdigit() and s.isascii()


def tokenize(text: str) -> list[str]:
    """The tokens of ``text``; the last one, and only that one, is ``""`` (end of input).

    Tokens split where LLVM's lexer splits them: ``%2x`` is ``%2`` and ``x``, ``i64add`` is
    ``i64`` and ``add``, ``4x`` is ``4`` and ``x``. Slot numbers are made canonical as LLVM reads
    them: ``%0004`` is ``%4``; ``%``/``@``/``#``/``^`` numbers wrap modulo 2**32 (numeric labels are
    read the same way by the parser) (``%4294967296`` is ``%0``; LLVM's lexer only notes "invalid value number (too
    large)!", a diagnostic that is never shown); ``!N`` loses its leading zeros (a number above
    2**32 - 1 becomes ``!4294967296``, which the parser rejects as LLVM does)."""
    toks: list[str] = _TOKEN_RE.findall(text)
    if len(toks) > 1 and toks[-2] == "":
        toks.pop()
    if _may_hold_nul_name(text, 0):
        _refuse_nul_names(toks)
    return _canonical_slots(toks, text, 0)


ERROR_TOKEN = "\x00"
"""What a token LLVM's lexer refuses becomes (a quoted name holding a NUL byte): no rule of the
parser accepts it, so the error is the parser's own message at that token, as with LLVM's
``lltok::Error``."""


# Text that may hold a quoted name with a NUL byte (a cheap over-approximation: only then are
# the tokens looked at one by one).
_NUL_NAME_RE = re.compile(r'[%@$]"[^"]*?(?:\\00|\x00)|"[^"]*?(?:\\00|\x00)[^"]*":')


def _may_hold_nul_name(text: str, offset: int) -> bool:
    """Whether ``text`` may hold a quoted name with a NUL byte: substring tests first (a NUL
    escape and a quoted name are both needed), the regular expression only then."""
    if "\\00" not in text and "\x00" not in text:
        return False
    if '%"' not in text and '@"' not in text and '$"' not in text and '":' not in text:
        return False
    return _NUL_NAME_RE.search(text, offset) is not None


def _refuse_nul_names(toks: list[str]) -> None:
    """Quoted names (``%"..."``, ``@"..."``, ``$"..."``, ``"...":``) whose text holds a NUL
    byte become :data:`ERROR_TOKEN` (LLVM's lexer: "Null bytes are not allowed in names")."""
    for i, tok in enumerate(toks):
        c = tok[:1]
        if c in ("%", "@", "$") and tok[1:2] == '"':
            body = tok[2:-1]
        elif c == '"' and tok[-2:] == '":':
            body = tok[1:-2]
        else:
            continue
        if "\x00" in unescape(body):
            toks[i] = ERROR_TOKEN


def _canonical_slots(toks: list[str], text: str, offset: int) -> list[str]:
    """``toks`` with every slot number not spelled canonically rewritten (see :func:`tokenize`).
    Such spellings are rare: the text is searched for them first, and only the tokens found
    are replaced."""
    found: dict[str, str] = {}
    for m in _ODD_SLOT_RE.finditer(text, offset):
        found[m.group()] = _canonical_slot(m.group())
    if not found:
        return toks
    get = found.get
    return [get(tok, tok) for tok in toks]


def tokenize_without_labels(text: str, offset: int) -> list[str]:
    """The tokens of ``text[offset:]`` as LLVM lexes them once a summary entry has switched
    identifier labels off (see :func:`tokenize`; ends with ``""``)."""
    toks: list[str] = _NO_LABEL_RE.findall(text, offset)
    if len(toks) > 1 and toks[-2] == "":
        toks.pop()
    if _may_hold_nul_name(text, offset):
        _refuse_nul_names(toks)
    return _canonical_slots(toks, text, offset)


def token_offset(text: str, index: int, without_labels_from: tuple[int, int] | None = None) -> int:
    """The character offset of token ``index`` of ``text``. ``without_labels_from`` is (token
    index, offset) where :func:`tokenize_without_labels` took over, if it did."""
    start_index, start = 0, 0
    regex = _TOKEN_RE
    if without_labels_from is not None and index >= without_labels_from[0]:
        start_index, start = without_labels_from
        regex = _NO_LABEL_RE
    for n, m in enumerate(regex.finditer(text, start), start_index):
        if n == index:
            return m.start(1)
    return len(text)


def _canonical_slot(tok: str) -> str:
    if tok[0] == "!":
        body = tok[1:].lstrip("0") or "0"
        return "!" + (body if len(body) <= 10 else "4294967296")
    return "%s%d" % (tok[0], atoull(tok[1:]) & 0xFFFFFFFF)


def atoull(digits: str) -> int:
    """A run of ASCII digits as LLVM's lexer converts it (``LLLexer::atoull``): modulo 2**64,
    and 0 once its overflow test (the running value decreased) trips."""
    if len(digits) <= 19:
        return int(digits)
    value = 0
    for ch in digits:
        old = value
        value = (value * 10 + ord(ch) - 48) & _MASK64
        if value < old:
            return 0
    return value


_CHUNK = 4000


def decimal_value(digits: str) -> int:
    """The value of a decimal literal (optionally signed) of any length: ``int()`` refuses
    strings over 4300 digits (``sys.set_int_max_str_digits``); longer ones are converted in
    chunks without touching that global limit."""
    if len(digits) <= _CHUNK:
        return int(digits)
    negative = digits[0] == "-"
    body = digits[1:] if digits[0] in "-+" else digits
    body = body.lstrip("0")
    if len(body) <= _CHUNK:
        value = int(body or "0")
    else:
        # Most significant chunk first; each step shifts by a fixed power of ten.
        head = len(body) % _CHUNK or _CHUNK
        value = int(body[:head])
        scale = 10**_CHUNK
        for at in range(head, len(body), _CHUNK):
            value = value * scale + int(body[at : at + _CHUNK])
    return -value if negative else value


def token_position(text: str, index: int) -> tuple[int, int, str]:
    """(1-based line, 1-based column, source line) of token ``index`` of ``text``."""
    offset = len(text)
    for n, m in enumerate(_TOKEN_RE.finditer(text)):
        if n == index:
            offset = m.start(1)
            break
    return offset_position(text, offset)


def offset_position(text: str, offset: int) -> tuple[int, int, str]:
    """(1-based line, 1-based column, source line) of a character offset."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    if line_end < 0:
        line_end = len(text)
    line = text.count("\n", 0, offset) + 1
    return line, offset - line_start + 1, text[line_start:line_end]


# Unescaping runs in C in a few whole-string passes, whatever the length (no per-escape Python
# call, no list of pieces): a backslash pair or a backslash not followed by two hex digits (rare)
# is first rewritten ``\5C`` (one backslash byte, as LLVM's UnEscapeLexed reads them, left to
# right); then every backslash starts a ``\XX`` escape, each becomes ``\xXX`` and
# ``codecs.escape_decode`` turns those into their bytes.
_LONE_BACKSLASH_RE = re.compile(rb"\\\\|\\(?![0-9A-Fa-f]{2})")


def unescape_bytes(body: str) -> bytes:
    """The bytes of a string body (without quotes): ``\\XX`` is the byte XX and
    ``\\\\`` a backslash, as LLVM's lexer reads them; any other backslash stays."""
    raw = body.encode("utf-8", "surrogateescape")
    if b"\\" not in raw:
        return raw
    if _LONE_BACKSLASH_RE.search(raw) is not None:
        raw = _LONE_BACKSLASH_RE.sub(rb"\\5C", raw)
    return codecs.escape_decode(raw.replace(b"\\", b"\\x"))[0]


def unescape(body: str) -> str:
    """The text of a string body (see :func:`unescape_bytes`); bytes that are
    not UTF-8 are kept as surrogate escapes."""
    if "\\" not in body:
        return body
    return unescape_bytes(body).decode("utf-8", "surrogateescape")
