"""The ``.ll`` lexer: token shapes, positions for diagnostics, string unescaping."""

from __future__ import annotations

import pytest

from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.asm.lexer import offset_position, token_position, tokenize, unescape, unescape_bytes
from llvmpy_mid.errors import ParseError


def test_tokens_of_an_instruction_line() -> None:
    assert tokenize("  %5 = add nsw i32 %3, 1 ; comment\n") == ["%5", "=", "add", "nsw", "i32", "%3", ",", "1", ""]


def test_quoted_names_strings_and_labels() -> None:
    toks = tokenize('%"a b" @"f\\22" $"c" !"md" "str" "lab": lab2: 12: .lr.ph:')
    assert toks[:-1] == ['%"a b"', '@"f\\22"', '$"c"', '!"md"', '"str"', '"lab":', "lab2:", "12:", ".lr.ph:"]


def test_metadata_and_attribute_tokens() -> None:
    toks = tokenize("!0 !llvm.loop !DILocation( ! { #0 #dbg_value( ^3")
    assert toks[:-1] == ["!0", "!llvm.loop", "!DILocation", "(", "!", "{", "#0", "#dbg_value", "(", "^3"]


def test_numbers() -> None:
    toks = tokenize("-7 1.5e+10 0x3FF0000000000000 0xK3FFF8000000000000000 u0x1F s0xFF +1.0")
    assert toks[:-1] == ["-7", "1.5e+10", "0x3FF0000000000000", "0xK3FFF8000000000000000", "u0x1F", "s0xFF", "+1.0"]


def test_punctuation_and_ellipsis() -> None:
    assert tokenize("(i32, ...)*<{}>[]=|:")[:-1] == ["(", "i32", ",", "...", ")", "*", "<", "{", "}", ">", "[", "]", "=", "|", ":"]


def test_end_marker_always_present() -> None:
    assert tokenize("") == [""]
    assert tokenize("; only a comment")[-1] == ""
    assert tokenize("x")[-1] == ""


def test_unknown_character_is_its_own_token() -> None:
    assert tokenize("a ` b")[:-1] == ["a", "`", "b"]
    # An unterminated string leaves a lone quote the parser reports.
    assert tokenize('"abc')[0] == '"'


def test_token_position_is_one_based_with_source_line() -> None:
    text = "define void @f() {\n  ret void\n}\n"
    index = tokenize(text).index("ret")
    assert token_position(text, index) == (2, 3, "  ret void")
    assert offset_position(text, 0) == (1, 1, "define void @f() {")


def test_unescape() -> None:
    assert unescape("a\\22b") == 'a"b'
    assert unescape("a\\\\b") == "a\\b"
    assert unescape("plain") == "plain"
    # Non-UTF-8 bytes survive as surrogate escapes.
    assert unescape_bytes("\\FF\\00") == b"\xff\x00"
    assert unescape("\\FF").encode("utf-8", "surrogateescape") == b"\xff"
    # A backslash not followed by two hex digits stays.
    assert unescape_bytes("\\q") == b"\\q"


# Non-ASCII digits ("²", "٣") are digits to Python's str.isdigit but not to LLVM's lexer: a constant
# spelled with one is an error (llvm-as-19: "expected value token" at the same column), and a quoted
# name made of them is a name, not a slot number (opt-19 prints it escaped).
@pytest.mark.parametrize(
    "text,column",
    [
        ("define <2 x i3> @f() {\n  ret <2 x i3> <i3 1, i3\u00b2 4>\n}\n", 25),
        ("define i32 @f() {\n  ret i32 \u0663\n}\n", 11),
    ],
)
def test_non_ascii_digits_are_not_numbers(text: str, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_assembly(text)
    assert ":2:%d: error: expected value token" % column in str(info.value)


def test_non_ascii_digit_name_is_a_name() -> None:
    m = parse_assembly('define void @f() {\n  %"\u00b2" = add i32 1, 2\n  ret void\n}\n')
    assert '  %"\\C2\\B2" = add i32 1, 2\n' in print_module(m)  # as opt-19 -S prints it
