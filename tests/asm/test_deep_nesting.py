"""Values nested thousands of levels deep read and print as opt-19 prints them.

opt-19 reads 5,000 levels of nested array and struct types and of constant expressions; the
parser reads aggregate types with an explicit stack and nested constants through a driver of
reader generators (no Python recursion), and the printer's walks are iterative. Each input is
generated here and our printed module is compared with ``opt-19 -S`` of the same text (the
``; ModuleID`` line aside); where opt-19 is missing, the exact expected text is built instead.
Nested aggregate constants print their type at every level (output quadratic in the depth), so
they are checked at 300 levels to keep the test fast.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from oracles import missing_tools

from llvmpy_mid import parse_assembly

DEPTH = 5000


def _array_type(depth: int) -> str:
    text = "i32"
    for _ in range(depth):
        text = "[1 x %s]" % text
    return text


def _mixed_type(depth: int) -> str:
    text = "i32"
    for i in range(depth):
        text = ("{ i8, %s }" if i % 2 else "<{ %s }>") % text
    return text


def _gep_chain(depth: int) -> str:
    text = "ptr @a"
    for _ in range(depth):
        text = "ptr getelementptr (i8, %s, i64 1)" % text
    return text


def _cases() -> dict[str, str]:
    cases = {
        "array-type": "@g = external global %s\n" % _array_type(DEPTH),
        "mixed-type": "@g = external global %s\n" % _mixed_type(DEPTH),
        "gep-chain": "@a = global [4 x i8] zeroinitializer\n@g = global %s\n" % _gep_chain(DEPTH),
    }
    v = "i64 ptrtoint (ptr @a to i64)"
    for _ in range(DEPTH):
        v = "i64 add (%s, i64 1)" % v
    cases["add-chain"] = "@a = global [4 x i8] zeroinitializer\n@g = global %s\n" % v
    v = "ptr @a"
    for i in range(DEPTH):
        v = ("i64 ptrtoint (%s to i64)" if i % 2 == 0 else "ptr inttoptr (%s to ptr)") % v
    cases["cast-chain"] = "@a = global [4 x i8] zeroinitializer\n@g = global %s\n" % v
    t, v = "i32", "i32 7"
    for _ in range(300):
        v = "{ %s } { %s }" % (t, v)
        t = "{ %s }" % t
    cases["struct-constant"] = "@g = global %s\n" % v
    t, v = "i8", "i8 1"
    for _ in range(300):
        v = "[1 x %s] [%s]" % (t, v)
        t = "[1 x %s]" % t
    cases["array-constant"] = "@g = global %s\n" % v
    md = "!{" * DEPTH + '!"x", i32 1' + "}, !{}" * (DEPTH - 1) + "}"
    cases["metadata-tuples"] = "!named = !{!0}\n!0 = %s\n" % md
    cases["function-local"] = "define %s @f() {\n  ret %s zeroinitializer\n}\n" % (_array_type(DEPTH), _array_type(DEPTH))
    return cases


CASES = _cases()


def _body(text: str) -> str:
    return text.split("\n", 1)[1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_deep_input_prints_as_opt19(name: str) -> None:
    text = CASES[name]
    ours = str(parse_assembly(text, name="<stdin>"))  # opt-19 names standard input so
    if missing_tools("opt-19"):
        pytest.skip("opt-19 is not installed")
    proc = subprocess.run(["opt-19", "-S", "-", "-o", "-"], input=text.encode(), capture_output=True, check=True)
    assert _body(ours) == _body(proc.stdout.decode())


def test_deep_types_print_exactly() -> None:
    """Without the oracle: the type reads back and prints exactly as written."""
    text = CASES["mixed-type"]
    ours = str(parse_assembly(text, name="deep.ll"))
    assert _body(ours) == 'source_filename = "deep.ll"\n\n' + text


def test_recursion_limit_untouched() -> None:
    limit = sys.getrecursionlimit()
    parse_assembly(CASES["gep-chain"], name="deep.ll")
    assert sys.getrecursionlimit() == limit
