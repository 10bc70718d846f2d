"""The verifier's public API: raising and non-raising forms, all findings listed,
locations, LLVM's text, and parsing that verifies by default.

The finding used here is the one the driver itself makes (a block without a
terminator; LLVM 19 stops verifying that function there), so these tests pin
the API, not a particular rule; each rule has its own test module.
"""

from __future__ import annotations

import warnings

import pytest

import llvmpy_mid
from llvmpy_mid import VerifierError, module_diagnostics, parse_assembly, verify_function, verify_module
from llvmpy_mid.ir.verifier import Diagnostic, diagnostics_text, function_diagnostics

TWO = """
define void @f() {
entry:
  ret void
}

define i32 @g(i32 %a) {
start:
  br label %next

next:
  ret i32 %a
}
"""


def _break_both() -> llvmpy_mid.Module:
    m = parse_assembly(TWO)
    f = m.get_function("f")
    g = m.get_function("g")
    assert f is not None and g is not None
    f_term = f.entry_block.terminator
    assert f_term is not None
    f_term.erase_from_parent()
    last = g.entry_block.next_block
    assert last is not None and last.terminator is not None
    last.terminator.erase_from_parent()
    return m


def test_valid_module_returns_normally() -> None:
    m = parse_assembly(TWO)
    assert verify_module(m) is None
    assert module_diagnostics(m) == []
    for fn in m.functions:
        assert verify_function(fn) is None
        assert function_diagnostics(fn) == []


def test_all_problems_are_listed_not_only_the_first() -> None:
    m = _break_both()
    with pytest.raises(VerifierError) as info:
        verify_module(m)
    found = info.value.diagnostics
    assert len(found) == 2
    assert [d.function for d in found] == ["@f", "@g"]
    assert [d.block for d in found] == ["%entry", "%next"]
    # LLVM 19's exact text (checked with a module built the same way through the C++ API wording):
    assert info.value.llvm_text == (
        "Basic Block in function 'f' does not have terminator!\nlabel %entry\n"
        "Basic Block in function 'g' does not have terminator!\nlabel %next\n"
    )


def test_non_raising_form_returns_the_same_list() -> None:
    m = _break_both()
    found = module_diagnostics(m)
    assert all(isinstance(d, Diagnostic) for d in found)
    assert diagnostics_text(found) == "".join(d.text for d in found)
    with pytest.raises(VerifierError) as info:
        verify_module(m)
    assert [d.text for d in info.value.diagnostics] == [d.text for d in found]


def test_verify_function_checks_one_function() -> None:
    m = _break_both()
    g = m.get_function("g")
    assert g is not None
    with pytest.raises(VerifierError) as info:
        verify_function(g)
    assert [d.function for d in info.value.diagnostics] == ["@g"]


def test_error_message_is_located() -> None:
    m = _break_both()
    with pytest.raises(VerifierError) as info:
        verify_module(m)
    text = str(info.value)
    assert text.splitlines()[0] == "module does not verify: 2 problems"
    assert "in function @f, block %entry: Basic Block in function 'f' does not have terminator!" in text


def test_unnamed_block_is_located_by_its_slot_number() -> None:
    m = parse_assembly("define void @h(i1 %c) {\n  br label %1\n1:\n  ret void\n}\n")
    h = m.get_function("h")
    assert h is not None
    second = h.entry_block.next_block
    assert second is not None and second.terminator is not None
    second.terminator.erase_from_parent()
    (d,) = module_diagnostics(m)
    assert d.block == "%1"
    assert d.text == "Basic Block in function 'h' does not have terminator!\nlabel %1\n"


def test_diagnostic_records_are_immutable_values() -> None:
    d = Diagnostic("m", "x\n", "@f", "%b", "ret void")
    assert d == Diagnostic("m", "x\n", "@f", "%b", "ret void")
    assert d.location == "in function @f, block %b, at: ret void"
    assert str(Diagnostic("Alias must point to a definition", "ptr @fa\n")) == "Alias must point to a definition\nptr @fa"


BROKEN_TEXT = """
define i32 @f(i32 %a) {
entry:
  %x = add i32 %y, 1
  %y = add i32 %a, 1
  ret i32 %x
}
"""


def test_parsing_verifies_by_default_and_can_opt_out() -> None:
    with pytest.raises(VerifierError) as info:
        parse_assembly(BROKEN_TEXT)
    assert info.value.diagnostics[0].message == "Instruction does not dominate all uses!"
    m = parse_assembly(BROKEN_TEXT, verify=False)
    assert m.get_function("f") is not None
    assert module_diagnostics(m)[0].detail == "  %y = add i32 %a, 1\n  %x = add i32 %y, 1\n"


def test_parse_file_verifies(tmp_path: object) -> None:
    from pathlib import Path

    p = Path(str(tmp_path)) / "bad.ll"
    p.write_text(BROKEN_TEXT)
    before = p.read_bytes()
    with pytest.raises(VerifierError):
        llvmpy_mid.parse_file(p)
    assert llvmpy_mid.parse_file(p, verify=False) is not None
    assert p.read_bytes() == before


def test_debug_info_only_findings_warn_at_parse_time() -> None:
    # A DILocation whose scope is not a local scope is broken debug info: opt-19 warns
    # "ignoring invalid debug info" and goes on; parsing here warns the same way.
    text = """
define void @f() !dbg !4 {
  ret void, !dbg !7
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DILocation(line: 1, scope: !1)
"""
    found = module_diagnostics(parse_assembly(text, verify=False))
    assert found and all(d.debug_info for d in found)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = parse_assembly(text)
    assert m.get_function("f") is not None
    assert any("ignoring invalid debug info" in str(w.message) for w in caught)
    # ... and, as LLVM's reader, drops the debug info: what is left verifies.
    verify_module(m)
    assert m.get_function("f").get_metadata("dbg") is None
