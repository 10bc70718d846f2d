"""Module summary entries (``^0 = module: (...)``) and the wasm relaxed-SIMD upgrade, as opt-19.

opt-19 reads a module without a summary index: each entry is checked only for its shape (a known
kind, ``: (`` and balanced parentheses, or ``flags:``/``blockcount:`` and a number) and skipped,
and from the first entry on its lexer stops making labels of identifiers, so metadata written
after an entry fails ("expected field label here"). Every LLVM 19.1.7 Assembler test with summary
entries must get opt-19's verdict and first diagnostic line from us, and the accepted ones must
print as opt-19 prints them (no entries). ``llvm-as-19`` differs on purpose here: it builds the
index and checks the entries' contents.
"""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path

import pytest
from oracles import LLVM_TEST_ROOT, require_llvm_tests, require_tools

from llvmpy_mid import ParseError, VerifierError, parse_assembly, parse_file, print_module

SUMMARY_FILES = (
    sorted(p.name for p in (LLVM_TEST_ROOT / "Assembler").glob("*.ll") if "\n^" in p.read_text(errors="replace"))
    if (LLVM_TEST_ROOT / "Assembler").is_dir()
    else []
)


def _ours(path: Path) -> tuple[str, str | None]:
    """(first diagnostic line or "", printed module when accepted)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = parse_file(path.name)
    except (ParseError, VerifierError) as err:
        return str(err).split("\n", 1)[0], None
    return "", print_module(module)


def _opt(path: Path) -> tuple[str, str | None]:
    proc = subprocess.run(["opt-19", "-S", path.name, "-o", "-"], cwd=path.parent, capture_output=True, text=True)
    if proc.returncode == 0:
        return "", proc.stdout
    return proc.stderr.split("\n", 1)[0].removeprefix("opt-19: "), None


@pytest.mark.parametrize("name", SUMMARY_FILES)
def test_summary_file_read_as_opt_reads_it(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = require_llvm_tests() / "Assembler"
    require_tools("opt-19")
    monkeypatch.chdir(root)
    ours_msg, ours_text = _ours(root / name)
    opt_msg, opt_text = _opt(root / name)
    assert ours_msg == opt_msg
    assert ours_text == opt_text


def test_summary_files_found() -> None:
    require_llvm_tests()
    assert len(SUMMARY_FILES) >= 10


@pytest.mark.parametrize(
    "entry, message",
    [
        ("^0 = flags: 8", None),
        ("^0 = blockcount: 1", None),
        ("^0 = gv: (name: \"f\", summaries: (function: (module: ^1, flags: (linkage: external))))", None),
        ("^0 = ()", "2:6: error: Expected 'gv', 'module', 'typeid', 'flags' or 'blockcount' at the start of summary entry"),
        ("^0 = module: path", "2:14: error: expected '(' at start of summary entry"),
        ("^0 = module: (path: \"a\"", "3:1: error: found end of file while parsing summary entry"),
        ("^0 = flags: -1", "2:13: error: expected integer"),
        ("^0 module", "2:4: error: expected '=' here"),
    ],
)
def test_summary_entry_shapes(entry: str, message: str | None) -> None:
    """Messages and locations as opt-19 gives them (checked by hand against opt-19)."""
    text = "declare void @f()\n" + entry + "\n"
    if message is None:
        assert print_module(parse_assembly(text, name="t.ll")).count("^") == 0
        return
    with pytest.raises(ParseError) as info:
        parse_assembly(text, name="t.ll")
    assert str(info.value) == "t.ll:" + message


def test_labels_after_a_summary_entry_are_not_labels() -> None:
    text = "^0 = flags: 1\ndefine void @f() {\nentry:\n  ret void\n}\n"
    with pytest.raises(ParseError) as info:
        parse_assembly(text, name="t.ll")
    assert str(info.value) == "t.ll:3:1: error: expected instruction opcode"


def test_wasm_relaxed_simd_upgrade_prints_as_opt() -> None:
    path = require_llvm_tests() / "Assembler" / "autoupgrade-wasm-intrinsics.ll"
    require_tools("opt-19")
    ours = print_module(parse_file(path)).split("\n", 1)[1]
    theirs = subprocess.run(["opt-19", "-S", str(path), "-o", "-"], capture_output=True, text=True, check=True)
    assert ours == theirs.stdout.split("\n", 1)[1]
    assert "@llvm.wasm.relaxed.madd.v4f32(" in ours
